/* Fp and Fr: algebraic laws on random inputs, portable vs MULX agreement,
 * encodings, sqrt, inversion, edge values. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* 2^k - 1 (k low bits set) as n limbs. */
static void low_ones(uint64_t *l, int n, int k)
{
    for (int i = 0; i < n; i++) {
        int b = k - 64 * i;
        l[i] = b >= 64 ? ~0ULL : b > 0 ? (1ULL << b) - 1 : 0;
    }
}

/* A random limb from a set biased to carry-chain extremes. */
static uint64_t biased_limb(void)
{
    uint64_t r = cz_prng_next(&tf_rng);
    const uint64_t pick[8] = {
        0, ~0ULL, 1, ~0ULL - 1, 1ULL << 63, r | 0xffffffff00000000ULL, r & 0xffffffffULL, r};
    return pick[cz_prng_next(&tf_rng) % 8];
}

#define FF     fp
#define F_ONE  CZ_FP_ONE
#define F_BITS 381
#include "ff_mulx_template.h"

#define FF     fr
#define F_ONE  CZ_FR_ONE
#define F_BITS 255
#include "ff_mulx_template.h"

#define RF fp
#include "ring_laws_template.h"

#define RF fr
#include "ring_laws_template.h"

/* sqrt(a^2)^2 == a^2 and sqrt succeeds iff legendre(a) != -1, for Fp and
 * Fr: the function FIELD_sqrt_laws. */
#define DEFINE_SQRT_LAWS(F)                                                                        \
    static void F##_sqrt_laws(unsigned n)                                                          \
    {                                                                                              \
        for (unsigned i = 0; i < n; i++) {                                                         \
            cz_##F a, t1, t2, t3;                                                                  \
            cz_##F##_random(&a, &tf_rng);                                                          \
            cz_##F##_sqr(&t1, &a);                                                                 \
            TF_CHECK(cz_##F##_sqrt(&t2, &t1));                                                     \
            cz_##F##_sqr(&t3, &t2);                                                                \
            TF_CHECK(cz_##F##_equal(&t3, &t1));                                                    \
            TF_CHECK(cz_##F##_legendre(&t1) == 1);                                                 \
            TF_CHECK(cz_##F##_sqrt(&t2, &a) == (cz_##F##_legendre(&a) != -1));                     \
        }                                                                                          \
    }

DEFINE_SQRT_LAWS(fp)
DEFINE_SQRT_LAWS(fr)

static void test_fp_laws(void)
{
    fp_ring_laws(iters(500));
    fp_sqrt_laws(iters(500));
    cz_fp z = CZ_FP_ZERO, t;
    TF_CHECK(cz_fp_legendre(&z) == 0);
    /* -1 is not a square mod p (p = 3 mod 4). */
    cz_fp_neg(&t, &CZ_FP_ONE);
    TF_CHECK(cz_fp_legendre(&t) == -1);
}

static void test_fr_laws(void)
{
    fr_ring_laws(iters(500));
    fr_sqrt_laws(iters(500));
    cz_fr seven;
    cz_fr_from_u64(&seven, 7);
    TF_CHECK(cz_fr_legendre(&seven) == -1); /* 7 generates the 2-adic part */
}

static void test_fp_bytes(void)
{
    uint8_t be[48], le[48];
    for (unsigned i = 0; i < iters(1000); i++) {
        cz_fp a, b;
        cz_fp_random(&a, &tf_rng);
        cz_fp_to_bytes_be(be, &a);
        cz_fp_to_bytes_le(le, &a);
        for (int k = 0; k < 48; k++)
            TF_CHECK(be[k] == le[47 - k]);
        TF_CHECK(cz_fp_from_bytes_be(&b, be) == CZ_OK && cz_fp_equal(&a, &b));
        TF_CHECK(cz_fp_from_bytes_le(&b, le) == CZ_OK && cz_fp_equal(&a, &b));
    }
    /* p itself and all-ones are rejected; small values round-trip. */
    static const uint8_t p_be[48] = {
        0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6,
        0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf,
        0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe,
        0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
    cz_fp a;
    TF_CHECK(cz_fp_from_bytes_be(&a, p_be) == CZ_ERR_NOT_CANONICAL);
    memset(be, 0xff, 48);
    TF_CHECK(cz_fp_from_bytes_be(&a, be) == CZ_ERR_NOT_CANONICAL);
    memcpy(be, p_be, 48);
    be[47]--; /* p - 1 */
    TF_CHECK(cz_fp_from_bytes_be(&a, be) == CZ_OK);
    cz_fp m1;
    cz_fp_neg(&m1, &CZ_FP_ONE);
    TF_CHECK(cz_fp_equal(&a, &m1));
    TF_CHECK(cz_fp_is_lexicographically_largest(&m1));
    TF_CHECK(!cz_fp_is_lexicographically_largest(&CZ_FP_ONE));
    TF_CHECK(!cz_fp_is_lexicographically_largest(&CZ_FP_ZERO));
    cz_fp_from_u64(&a, 0x0102030405060708ULL);
    cz_fp_to_bytes_be(be, &a);
    TF_CHECK(be[47] == 8 && be[40] == 1 && be[39] == 0);
}

static void test_fr_wide_and_bytes(void)
{
    uint8_t wide[64] = {0}, b32[32];
    cz_fr a, b;
    /* 2^256 mod r via the wide reduction equals (2^128)^2. */
    wide[32] = 1;
    cz_fr_from_bytes_wide(&a, wide);
    uint64_t t[4] = {0, 0, 1, 0};
    cz_fr_from_canonical(&b, t);
    cz_fr_sqr(&b, &b);
    TF_CHECK(cz_fr_equal(&a, &b));
    for (unsigned i = 0; i < iters(1000); i++) {
        cz_fr x, y, lo, hi, s;
        cz_prng_bytes(&tf_rng, wide, 64);
        cz_fr_from_bytes_wide(&x, wide);
        /* x == lo + hi * 2^256 with lo, hi reduced by from_bytes_wide of halves */
        uint8_t half[64] = {0};
        memcpy(half, wide, 32);
        cz_fr_from_bytes_wide(&lo, half);
        memset(half, 0, 64);
        memcpy(half, wide + 32, 32);
        cz_fr_from_bytes_wide(&hi, half);
        cz_fr_mul(&s, &hi, &a);
        cz_fr_add(&s, &s, &lo);
        TF_CHECK(cz_fr_equal(&s, &x));
        cz_fr_to_bytes_le(b32, &x);
        TF_CHECK(cz_fr_from_bytes_le(&y, b32) == CZ_OK && cz_fr_equal(&x, &y));
        cz_fr_to_bytes_be(b32, &x);
        TF_CHECK(cz_fr_from_bytes_be(&y, b32) == CZ_OK && cz_fr_equal(&x, &y));
    }
    memset(b32, 0xff, 32);
    TF_CHECK(cz_fr_from_bytes_le(&a, b32) == CZ_ERR_NOT_CANONICAL);
}

static void test_batch_inv(void)
{
    enum { n = 257 };
    cz_fp a[n], r[n], s[n], t;
    cz_fr fa[n], fr_[n], fs[n], ft;
    for (int i = 0; i < n; i++) {
        cz_fp_random(&a[i], &tf_rng);
        cz_fr_random(&fa[i], &tf_rng);
        if (i % 17 == 3) {
            a[i] = CZ_FP_ZERO;
            fa[i] = CZ_FR_ZERO;
        }
    }
    cz_fp_batch_inv(r, a, n, s);
    cz_fr_batch_inv(fr_, fa, n, fs);
    for (int i = 0; i < n; i++) {
        cz_fp_inv(&t, &a[i]);
        TF_CHECK(cz_fp_equal(&t, &r[i]));
        cz_fr_inv(&ft, &fa[i]);
        TF_CHECK(cz_fr_equal(&ft, &fr_[i]));
    }
    cz_fp_batch_inv(a, a, n, s); /* in place */
    for (int i = 0; i < n; i++)
        TF_CHECK(cz_fp_equal(&a[i], &r[i]));
}

static void test_pow(void)
{
    for (unsigned i = 0; i < iters(100); i++) {
        cz_fp a, x, y = CZ_FP_ONE;
        uint64_t e = cz_prng_next(&tf_rng) & 0xffff;
        cz_fp_random(&a, &tf_rng);
        cz_fp_pow(&x, &a, &e, 1);
        for (uint64_t k = 0; k < e; k++)
            cz_fp_mul(&y, &y, &a);
        TF_CHECK(cz_fp_equal(&x, &y));
    }
}

TF_MAIN(TF_TEST(fp_mul_impls_agree), TF_TEST(fr_mul_impls_agree), TF_TEST(fp_mulx_edge_pairs),
        TF_TEST(fr_mulx_edge_pairs), TF_TEST(fp_mulx_biased_and_aliasing),
        TF_TEST(fr_mulx_biased_and_aliasing),
        TF_TEST(test_fp_laws), TF_TEST(test_fr_laws), TF_TEST(test_fp_bytes),
        TF_TEST(test_fr_wide_and_bytes), TF_TEST(test_batch_inv), TF_TEST(test_pow))
