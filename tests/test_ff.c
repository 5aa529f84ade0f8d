/* Fp and Fr: algebraic laws on random inputs, portable vs MULX agreement,
 * encodings, sqrt, inversion, edge values. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

static void test_fp_mul_impls_agree(void)
{
    for (unsigned i = 0; i < iters(20000); i++) {
        cz_fp a, b, x, y;
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        if (i < 4) { /* edge values: 0, 1, p-1 */
            if (i == 0) a = CZ_FP_ZERO;
            if (i == 1) a = CZ_FP_ONE;
            if (i >= 2) cz_fp_neg(&a, &CZ_FP_ONE);
            if (i == 3) cz_fp_neg(&b, &CZ_FP_ONE);
        }
        cz_fp_mul_portable(&y, &a, &b);
        cz_fp_mul_mulx(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fp_sqr_portable(&y, &a);
        cz_fp_sqr_mulx(&x, &a);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fp_mul(&x, &a, &b);
        cz_fp_mul_portable(&y, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

static void test_fr_mul_impls_agree(void)
{
    for (unsigned i = 0; i < iters(20000); i++) {
        cz_fr a, b, x, y;
        cz_fr_random(&a, &tf_rng);
        cz_fr_random(&b, &tf_rng);
        if (i == 0) cz_fr_neg(&a, &CZ_FR_ONE);
        if (i == 1) { cz_fr_neg(&a, &CZ_FR_ONE); b = a; }
        cz_fr_mul_portable(&y, &a, &b);
        cz_fr_mul_mulx(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fr_sqr_portable(&y, &a);
        cz_fr_sqr_mulx(&x, &a);
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

/* ---- MULX/ADX vs portable on values that stress the carry chains ---- */

/* The Montgomery routines take any reduced limbs, so the edge values below
 * are raw limb patterns (not Montgomery forms of anything in particular). */
static bool fp_is_canonical(const cz_fp *a)
{
    uint8_t b[48];
    cz_fp t;
    for (int i = 0; i < 48; i++)
        b[i] = (uint8_t)(a->l[i / 8] >> (8 * (i % 8)));
    return cz_fp_from_bytes_le(&t, b) == CZ_OK;
}

static bool fr_is_canonical(const cz_fr *a)
{
    uint8_t b[32];
    cz_fr t;
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)(a->l[i / 8] >> (8 * (i % 8)));
    return cz_fr_from_bytes_le(&t, b) == CZ_OK;
}

/* 2^k - 1 (k low bits set) as n limbs. */
static void low_ones(uint64_t *l, int n, int k)
{
    for (int i = 0; i < n; i++) {
        int b = k - 64 * i;
        l[i] = b >= 64 ? ~0ULL : b > 0 ? (1ULL << b) - 1 : 0;
    }
}

/* 0; 2^k mod p and p - 2^k mod p for k < 384 (so 1, p-1, p-2, ...);
 * 2^k - 1 for k <= 380; limbs 0..4 each 0 or all ones under a top limb of
 * 0, 1, p[5]-1 or p[5] when the value is < p.  Returns the count. */
enum { FP_EDGE_MAX = 1 + 2 * 384 + 380 + 32 * 4 };
static size_t fp_edge_values(cz_fp *v)
{
    size_t n = 0;
    cz_fp x = CZ_FP_ZERO, m1;
    v[n++] = x;
    x.l[0] = 1;
    for (int k = 0; k < 384; k++) {
        v[n++] = x;
        cz_fp_neg(&v[n++], &x);
        cz_fp_dbl(&x, &x);
    }
    for (int k = 1; k <= 380; k++)
        low_ones(v[n++].l, 6, k);
    x = CZ_FP_ZERO;
    x.l[0] = 1;
    cz_fp_neg(&m1, &x); /* p - 1: m1.l[5] == p[5] */
    const uint64_t tops[4] = {0, 1, m1.l[5] - 1, m1.l[5]};
    for (int t = 0; t < 4; t++)
        for (unsigned mask = 0; mask < 32; mask++) {
            for (int i = 0; i < 5; i++)
                x.l[i] = (mask >> i & 1) ? ~0ULL : 0;
            x.l[5] = tops[t];
            if (fp_is_canonical(&x))
                v[n++] = x;
        }
    return n;
}

enum { FR_EDGE_MAX = 1 + 2 * 256 + 254 + 8 * 4 };
static size_t fr_edge_values(cz_fr *v)
{
    size_t n = 0;
    cz_fr x = CZ_FR_ZERO, m1;
    v[n++] = x;
    x.l[0] = 1;
    for (int k = 0; k < 256; k++) {
        v[n++] = x;
        cz_fr_neg(&v[n++], &x);
        cz_fr_dbl(&x, &x);
    }
    for (int k = 1; k <= 254; k++)
        low_ones(v[n++].l, 4, k);
    x = CZ_FR_ZERO;
    x.l[0] = 1;
    cz_fr_neg(&m1, &x);
    const uint64_t tops[4] = {0, 1, m1.l[3] - 1, m1.l[3]};
    for (int t = 0; t < 4; t++)
        for (unsigned mask = 0; mask < 8; mask++) {
            for (int i = 0; i < 3; i++)
                x.l[i] = (mask >> i & 1) ? ~0ULL : 0;
            x.l[3] = tops[t];
            if (fr_is_canonical(&x))
                v[n++] = x;
        }
    return n;
}

/* Every pair of edge values: mul and sqr agree with the portable code. */
static void test_fp_mulx_edge_pairs(void)
{
    static cz_fp v[FP_EDGE_MAX];
    size_t n = fp_edge_values(v);
    TF_CHECK(n >= 1 + 2 * 384 + 380 + 3 * 32 && n <= FP_EDGE_MAX);
    if (!cz_ff_have_mulx())
        return; /* the MULX code would fault; nothing to compare */
    for (size_t i = 0; i < n; i++) {
        TF_CHECK(fp_is_canonical(&v[i]));
        cz_fp x, y;
        cz_fp_sqr_mulx(&x, &v[i]);
        cz_fp_sqr_portable(&y, &v[i]);
        TF_CHECK_MEM(&x, &y, sizeof x);
        for (size_t j = 0; j < n; j++) {
            cz_fp_mul_mulx(&x, &v[i], &v[j]);
            cz_fp_mul_portable(&y, &v[i], &v[j]);
            if (memcmp(&x, &y, sizeof x)) {
                TF_CHECK_MSG(0, "fp mul edge pair %zu, %zu", i, j);
                tf_hex("  a", &v[i], sizeof x);
                tf_hex("  b", &v[j], sizeof x);
                return;
            }
        }
    }
}

static void test_fr_mulx_edge_pairs(void)
{
    static cz_fr v[FR_EDGE_MAX];
    size_t n = fr_edge_values(v);
    TF_CHECK(n >= 1 + 2 * 256 + 254 + 3 * 8 && n <= FR_EDGE_MAX);
    if (!cz_ff_have_mulx())
        return;
    for (size_t i = 0; i < n; i++) {
        TF_CHECK(fr_is_canonical(&v[i]));
        cz_fr x, y;
        cz_fr_sqr_mulx(&x, &v[i]);
        cz_fr_sqr_portable(&y, &v[i]);
        TF_CHECK_MEM(&x, &y, sizeof x);
        for (size_t j = 0; j < n; j++) {
            cz_fr_mul_mulx(&x, &v[i], &v[j]);
            cz_fr_mul_portable(&y, &v[i], &v[j]);
            if (memcmp(&x, &y, sizeof x)) {
                TF_CHECK_MSG(0, "fr mul edge pair %zu, %zu", i, j);
                tf_hex("  a", &v[i], sizeof x);
                tf_hex("  b", &v[j], sizeof x);
                return;
            }
        }
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

/* Random reduced values built from biased limbs, and every aliasing of the
 * output with the inputs. */
static void test_fp_mulx_biased_and_aliasing(void)
{
    if (!cz_ff_have_mulx())
        return;
    for (unsigned it = 0; it < iters(20000); it++) {
        cz_fp a, b, x, y;
        do {
            for (int i = 0; i < 6; i++)
                a.l[i] = biased_limb();
            a.l[5] &= 0x1fffffffffffffffULL;
        } while (!fp_is_canonical(&a));
        do {
            for (int i = 0; i < 6; i++)
                b.l[i] = biased_limb();
            b.l[5] &= 0x1fffffffffffffffULL;
        } while (!fp_is_canonical(&b));
        cz_fp_mul_portable(&y, &a, &b);
        cz_fp_mul_mulx(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        cz_fp_mul_mulx(&x, &x, &b); /* r == a */
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = b;
        cz_fp_mul_mulx(&x, &a, &x); /* r == b */
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fp_sqr_portable(&y, &a);
        x = a;
        cz_fp_mul_mulx(&x, &x, &x); /* r == a == b */
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        cz_fp_sqr_mulx(&x, &x);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fp_sqr(&x, &a); /* the dispatched one */
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

static void test_fr_mulx_biased_and_aliasing(void)
{
    if (!cz_ff_have_mulx())
        return;
    for (unsigned it = 0; it < iters(20000); it++) {
        cz_fr a, b, x, y;
        do {
            for (int i = 0; i < 4; i++)
                a.l[i] = biased_limb();
            a.l[3] &= 0x7fffffffffffffffULL;
        } while (!fr_is_canonical(&a));
        do {
            for (int i = 0; i < 4; i++)
                b.l[i] = biased_limb();
            b.l[3] &= 0x7fffffffffffffffULL;
        } while (!fr_is_canonical(&b));
        cz_fr_mul_portable(&y, &a, &b);
        cz_fr_mul_mulx(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        cz_fr_mul_mulx(&x, &x, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = b;
        cz_fr_mul_mulx(&x, &a, &x);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fr_sqr_portable(&y, &a);
        x = a;
        cz_fr_mul_mulx(&x, &x, &x);
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        cz_fr_sqr_mulx(&x, &x);
        TF_CHECK_MEM(&x, &y, sizeof x);
        cz_fr_sqr(&x, &a);
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

static void test_fp_laws(void)
{
    for (unsigned i = 0; i < iters(500); i++) {
        cz_fp a, b, c, t1, t2, t3;
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        cz_fp_random(&c, &tf_rng);
        /* (a + b) c == a c + b c */
        cz_fp_add(&t1, &a, &b);
        cz_fp_mul(&t1, &t1, &c);
        cz_fp_mul(&t2, &a, &c);
        cz_fp_mul(&t3, &b, &c);
        cz_fp_add(&t2, &t2, &t3);
        TF_CHECK(cz_fp_equal(&t1, &t2));
        /* a - b + b == a, a + (-a) == 0, 2a == a + a */
        cz_fp_sub(&t1, &a, &b);
        cz_fp_add(&t1, &t1, &b);
        TF_CHECK(cz_fp_equal(&t1, &a));
        cz_fp_neg(&t1, &a);
        cz_fp_add(&t1, &t1, &a);
        TF_CHECK(cz_fp_is_zero(&t1));
        cz_fp_dbl(&t1, &a);
        cz_fp_add(&t2, &a, &a);
        TF_CHECK(cz_fp_equal(&t1, &t2));
        /* a * a^-1 == 1 */
        cz_fp_inv(&t1, &a);
        cz_fp_mul(&t1, &t1, &a);
        TF_CHECK(cz_fp_is_one(&t1) || cz_fp_is_zero(&a));
        /* sqrt(a^2)^2 == a^2; legendre(a^2) == 1 */
        cz_fp_sqr(&t1, &a);
        TF_CHECK(cz_fp_sqrt(&t2, &t1));
        cz_fp_sqr(&t3, &t2);
        TF_CHECK(cz_fp_equal(&t3, &t1));
        TF_CHECK(cz_fp_legendre(&t1) == 1);
        /* sqrt succeeds iff legendre != -1 */
        TF_CHECK(cz_fp_sqrt(&t2, &a) == (cz_fp_legendre(&a) != -1));
    }
    cz_fp z = CZ_FP_ZERO, t;
    cz_fp_inv(&t, &z);
    TF_CHECK(cz_fp_is_zero(&t));
    TF_CHECK(cz_fp_legendre(&z) == 0);
    /* -1 is not a square mod p (p = 3 mod 4). */
    cz_fp_neg(&t, &CZ_FP_ONE);
    TF_CHECK(cz_fp_legendre(&t) == -1);
}

static void test_fr_laws(void)
{
    for (unsigned i = 0; i < iters(500); i++) {
        cz_fr a, b, t1, t2, t3;
        cz_fr_random(&a, &tf_rng);
        cz_fr_random(&b, &tf_rng);
        cz_fr_add(&t1, &a, &b);
        cz_fr_sub(&t1, &t1, &b);
        TF_CHECK(cz_fr_equal(&t1, &a));
        cz_fr_inv(&t1, &a);
        cz_fr_mul(&t1, &t1, &a);
        TF_CHECK(cz_fr_is_one(&t1) || cz_fr_is_zero(&a));
        cz_fr_sqr(&t1, &a);
        TF_CHECK(cz_fr_sqrt(&t2, &t1));
        cz_fr_sqr(&t3, &t2);
        TF_CHECK(cz_fr_equal(&t3, &t1));
        TF_CHECK(cz_fr_sqrt(&t2, &a) == (cz_fr_legendre(&a) != -1));
    }
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

TF_MAIN(TF_TEST(test_fp_mul_impls_agree), TF_TEST(test_fr_mul_impls_agree),
        TF_TEST(test_fp_mulx_edge_pairs), TF_TEST(test_fr_mulx_edge_pairs),
        TF_TEST(test_fp_mulx_biased_and_aliasing), TF_TEST(test_fr_mulx_biased_and_aliasing),
        TF_TEST(test_fp_laws), TF_TEST(test_fr_laws), TF_TEST(test_fp_bytes),
        TF_TEST(test_fr_wide_and_bytes), TF_TEST(test_batch_inv), TF_TEST(test_pow))
