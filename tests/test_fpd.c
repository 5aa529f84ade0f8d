/* The FP64 pipe's Fp product (bench/fpd.h, timed by bench/fpd-rate.cu) on the host, through its
 * exact model of DFMA: equal to cz_fp_mul on random and edge inputs,
 * lazy inputs in [p, 2p) included, chained without reduction; the model
 * itself checked against the C library's fma() in both rounding modes. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "../bench/fpd.h"
#include "cuzk/ff.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* p as six words (fpd.h's constants). */
static void p_words(uint64_t p[6])
{
    for (int i = 0; i < 6; i++)
        p[i] = fpd_p_word(i);
}

/* r = a + b over 384 bits (no overflow for the values used: below 2^383). */
static void words_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 6; i++) {
        c += (unsigned __int128)a[i] + b[i];
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* The product through fpd.h, reduced below p. */
static void fpd_mul_words(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    fpd_t x, y;
    uint64_t l[8];
    fpd_from_words(&x, a);
    fpd_from_words(&y, b);
    fpd_mul_limbs(l, &x, &y);
    fpd_limbs_to_words(r, l);
}

/* l < 2p, each limb below 2^48. */
static bool limbs_below_2p(const uint64_t l[8])
{
    uint64_t w[6], p[6], p2[6];
    for (int i = 0; i < 8; i++)
        if (l[i] >> 48)
            return false;
    fpd_limbs_pack(w, l);
    p_words(p);
    words_add(p2, p, p);
    for (int i = 5; i >= 0; i--)
        if (w[i] != p2[i])
            return w[i] < p2[i];
    return false;
}

static void test_fpd_mul_matches_cpu(void)
{
    uint64_t pm1[6], one[6] = {1};
    p_words(pm1);
    pm1[0]--; /* p - 1 as raw words */
    for (unsigned i = 0; i < iters(20000); i++) {
        cz_fp a, b, want;
        uint64_t got[6];
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        if (i == 0) a = CZ_FP_ZERO;
        if (i == 1) a = CZ_FP_ONE;
        if (i == 2) memcpy(a.l, one, sizeof one);
        if (i >= 3 && i < 6) memcpy(a.l, pm1, sizeof pm1);
        if (i == 4 || i == 5) memcpy(b.l, pm1, sizeof pm1);
        if (i == 5) b = CZ_FP_ZERO;
        cz_fp_mul(&want, &a, &b);
        fpd_mul_words(got, a.l, b.l);
        TF_CHECK_MEM(got, want.l, sizeof got);
    }
}

/* Operands in [p, 2p), as a chain of products leaves them: the result
 * stays below 2p and equals cz_fp_mul's modulo p. */
static void test_fpd_lazy_operands(void)
{
    uint64_t p[6], top[6];
    p_words(p);
    words_add(top, p, p);
    top[0]--; /* 2p - 1 */
    for (unsigned i = 0; i < iters(20000); i++) {
        cz_fp a, b, want;
        uint64_t la[6], lb[6], got[6], l[8];
        fpd_t x, y;
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        words_add(la, a.l, p);
        if (i & 1)
            words_add(lb, b.l, p);
        else
            memcpy(lb, b.l, sizeof lb);
        if (i == 0) { /* 2p - 1 squared: every limb product at its largest */
            memcpy(la, top, sizeof la);
            memcpy(lb, top, sizeof lb);
            memcpy(a.l, p, sizeof a.l);
            a.l[0]--;
            b = a;
        }
        cz_fp_mul(&want, &a, &b);
        fpd_from_words(&x, la);
        fpd_from_words(&y, lb);
        fpd_mul_limbs(l, &x, &y);
        TF_CHECK(limbs_below_2p(l));
        fpd_limbs_to_words(got, l);
        TF_CHECK_MEM(got, want.l, sizeof got);
    }
}

/* x <- x y, 64 times, the limbs fed back unreduced (as the device chains
 * them), against cz_fp_mul's chain. */
static void test_fpd_chain(void)
{
    for (unsigned n = 0; n < iters(200); n++) {
        cz_fp a, b;
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        fpd_t x, y;
        uint64_t l[8], got[6];
        fpd_from_words(&x, a.l);
        fpd_from_words(&y, b.l);
        for (int i = 0; i < 64; i++) {
            cz_fp_mul(&a, &a, &b);
            fpd_mul_limbs(l, &x, &y);
            TF_CHECK(limbs_below_2p(l));
            fpd_from_limbs(&x, l);
        }
        fpd_limbs_to_words(got, l);
        TF_CHECK_MEM(got, a.l, sizeof got);
    }
}

/* The DFMA model against the C library's fma(), which rounds correctly in
 * the current rounding mode: integer operands of the sizes the product
 * uses (limbs below 2^48, addends up to 2^101 of either sign), and small
 * ones where rounding ties occur. */
static void test_fpd_fma_model(void)
{
    int modes[2] = {FE_TONEAREST, FE_TOWARDZERO};
    for (unsigned i = 0; i < iters(100000); i++) {
        uint64_t r = cz_prng_next(&tf_rng), s = cz_prng_next(&tf_rng), t = cz_prng_next(&tf_rng);
        int shift = (int)(t % 48); /* r >> (16 + shift): at most 63 */
        volatile double x = (double)(r >> (16 + (i % 3 == 2 ? shift : 0)));
        volatile double y = (double)(s >> 16);
        double c = ldexp((double)(t >> 11), (int)(t % 49)) * (t & 1 ? -1 : 1);
        if (i % 4 == 1) c = ldexp(1.0, 100) + ldexp((double)(t >> 12), 48); /* an H */
        volatile double vc = c;
        for (int m = 0; m < 2; m++) {
            fesetround(modes[m]);
            double want = fma(x, y, vc);
            fesetround(FE_TONEAREST);
            double got = fpd_host_fma(x, y, c, m);
            TF_CHECK_MSG(got == want, "fma(%.17g, %.17g, %.17g) mode %d: model %.17g, libm %.17g",
                         (double)x, (double)y, c, m, got, want);
        }
    }
}

TF_MAIN(TF_TEST(test_fpd_mul_matches_cpu), TF_TEST(test_fpd_lazy_operands), TF_TEST(test_fpd_chain),
        TF_TEST(test_fpd_fma_model))
