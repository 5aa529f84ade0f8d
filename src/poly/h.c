/* The Groth16 quotient H = (A B - C) / Z, as bellperson computes it.
 *
 * bellperson: for v in a, b, c: v = coset_fft(ifft(v)) (natural orders);
 * a = (a b - c) / (g^m - 1); a = icoset_fft(a).  Here, with no permutation
 * of a, b or c:
 *   v: inverse DIF (natural evaluations -> bit-reversed coefficients), the
 *      coefficient j scaled by g^j / m inside it (the coset shift and 1/m of
 *      ifft in one multiplication: they fold into the four-step twiddles
 *      and table F);
 *      forward DIT (bit-reversed coefficients -> natural evaluations on the
 *      coset g<omega>);
 *   a: one pass computing a b - c and permuting it to bit-reversed order;
 *      inverse DIT (-> natural coefficients) with the coefficient j scaled
 *      by g^-j z_inv / m (icoset_fft's 1/m and g^-j, and the division by
 *      Z, again one multiplication).
 * Work at four-step sizes: 7 transforms of size m and 5 more multiplications
 * per element (one scaling per vector, a b, the final scaling) against 10
 * for the plain sequence; one permutation pass instead of seven.  The
 * padding is only zeroed: in a transform of a partly zero vector only the
 * first stage's additions could be skipped. */
#include <string.h>

#include "cuzk/err.h"
#include "poly/poly_internal.h"

int cz_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n, cz_pool *pool)
{
    size_t m = d->n;
    if (n > m || !a || !b || !c)
        return CZ_ERR_INVALID_ARG;
    cz_fr *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        memset(v[i] + n, 0, (m - n) * sizeof(cz_fr));
        cz_ntt_exec(d, v[i], 0, 1, &d->n_inv, NTT_COSET_G, pool);
        cz_ntt_exec(d, v[i], 1, 0, NULL, NTT_NO_COSET, pool);
    }
    cz_ntt_bitrev_fused(a, b, c, d->log_n, pool);
    cz_fr s;
    cz_fr_mul(&s, &d->z_inv, &d->n_inv);
    cz_ntt_exec(d, a, 1, 1, &s, NTT_COSET_GINV, pool);
    return CZ_OK;
}
