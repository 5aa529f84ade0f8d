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
#include <stdlib.h>
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

/* ------------------------------------------------- snarkjs's odd coset --- */

/* Coefficient j of the inverse DIF output sits at index i = bitrev_k(j), so
 * it is scaled by w^bitrev_k(i).  With i = hi 2^s + lo (lo the low s bits):
 *   bitrev_k(i) = bitrev_s(lo) 2^(k-s) + bitrev_(k-s)(hi),
 * so w^bitrev_k(i) = lo_t[lo] hi_t[hi] with two tables of 2^s and 2^(k-s)
 * entries. */
typedef struct {
    cz_fr *v[3];
    const cz_fr *lo_t, *hi_t;
    unsigned s;
} odd_ctx;

static void odd_scale_task(void *ctx, size_t begin, size_t end)
{
    const odd_ctx *o = ctx;
    size_t mask = ((size_t)1 << o->s) - 1;
    for (size_t i = begin; i < end; i++) {
        cz_fr f;
        cz_fr_mul(&f, &o->lo_t[i & mask], &o->hi_t[i >> o->s]);
        for (int k = 0; k < 3; k++)
            cz_fr_mul(&o->v[k][i], &o->v[k][i], &f);
    }
}

static void odd_combine_task(void *ctx, size_t begin, size_t end)
{
    const odd_ctx *o = ctx;
    for (size_t i = begin; i < end; i++) {
        cz_fr_mul(&o->v[0][i], &o->v[0][i], &o->v[1][i]);
        cz_fr_sub(&o->v[0][i], &o->v[0][i], &o->v[2][i]);
    }
}

static size_t rev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

int cz_groth16_h_odd_coset(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n,
                           cz_pool *pool)
{
    size_t m = d->n;
    if (n > m || !a || !b || !c)
        return CZ_ERR_INVALID_ARG;
    unsigned k = d->log_n, s = k / 2;
    size_t nlo = (size_t)1 << s, nhi = (size_t)1 << (k - s);
    cz_fr *lo_t = malloc((nlo + nhi) * sizeof(cz_fr));
    if (!lo_t)
        return CZ_ERR_NOMEM;
    cz_fr *hi_t = lo_t + nlo;
    /* pw[e] = w^e for e < max(nlo, nhi) first, then both tables from it:
     * lo_t[lo] = (w^(2^(k-s)))^bitrev_s(lo), hi_t[hi] = w^bitrev_(k-s)(hi). */
    cz_fr w_step = d->omega2n, acc = CZ_FR_ONE;
    for (unsigned i = 0; i < k - s; i++)
        cz_fr_sqr(&w_step, &w_step);
    for (size_t j = 0; j < nhi; j++) { /* hi_t in natural order first */
        hi_t[j] = acc;
        cz_fr_mul(&acc, &acc, &d->omega2n);
    }
    acc = CZ_FR_ONE;
    for (size_t j = 0; j < nlo; j++) {
        lo_t[rev(j, s)] = acc;
        cz_fr_mul(&acc, &acc, &w_step);
    }
    for (size_t j = 0; j < nhi; j++) { /* permute hi_t in place */
        size_t r = rev(j, k - s);
        if (j < r) {
            cz_fr t = hi_t[j];
            hi_t[j] = hi_t[r];
            hi_t[r] = t;
        }
    }
    odd_ctx o = {.v = {a, b, c}, .lo_t = lo_t, .hi_t = hi_t, .s = s};
    for (int i = 0; i < 3; i++) {
        memset(o.v[i] + n, 0, (m - n) * sizeof(cz_fr));
        cz_ntt_exec(d, o.v[i], 0, 1, &d->n_inv, NTT_NO_COSET, pool);
    }
    cz_pool_parallel_for(pool, m, 4096, odd_scale_task, &o);
    for (int i = 0; i < 3; i++)
        cz_ntt_exec(d, o.v[i], 1, 0, NULL, NTT_NO_COSET, pool);
    cz_pool_parallel_for(pool, m, 4096, odd_combine_task, &o);
    free(lo_t);
    return CZ_OK;
}
