/* The extension tower Fp2, Fp6, Fp12: field laws on random elements,
 * Frobenius maps against exponentiation by p, square roots, cyclotomic
 * squaring. */
#include <string.h>

#include "cuzk/err.h"

#include "cuzk/ff.h"
#include "ff/tower.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* p, little-endian limbs (the exponent of the Frobenius map). */
static const uint64_t P_LIMBS[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                    0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                    0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

/* Test-local square-and-multiply: r = a^e, e little-endian limbs. */
#define DEFINE_POW(T)                                                                              \
    static void T##_pow_test(T *r, const T *a, const uint64_t *e, size_t n, const T *one)          \
    {                                                                                              \
        T acc = *one;                                                                              \
        for (size_t i = n; i-- > 0;)                                                               \
            for (int b = 63; b >= 0; b--) {                                                        \
                T##_sqr(&acc, &acc);                                                               \
                if ((e[i] >> b) & 1)                                                               \
                    T##_mul(&acc, &acc, a);                                                        \
            }                                                                                      \
        *r = acc;                                                                                  \
    }

DEFINE_POW(cz_fp2)
DEFINE_POW(cz_fp6)
DEFINE_POW(cz_fp12)

static const cz_fp2 FP2_ONE_T = {
    {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
      0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
    {{0}}};

/* The inline additions of ff/tower.h (asm on x86-64) against the public
 * Fp functions, on random and edge values (0, 1, p - 1). */
static void test_inline_fp_ops(void)
{
    cz_fp edge[3] = {CZ_FP_ZERO, CZ_FP_ONE, CZ_FP_ZERO};
    cz_fp_neg(&edge[2], &CZ_FP_ONE);
    for (unsigned i = 0; i < iters(2000); i++) {
        cz_fp a, b, x, y;
        cz_fp_random(&a, &tf_rng);
        cz_fp_random(&b, &tf_rng);
        if (i < 9) {
            a = edge[i % 3];
            b = edge[i / 3];
        }
        fp_add(&x, &a, &b);
        cz_fp_add(&y, &a, &b);
        TF_CHECK(cz_fp_equal(&x, &y));
        fp_sub(&x, &a, &b);
        cz_fp_sub(&y, &a, &b);
        TF_CHECK(cz_fp_equal(&x, &y));
        fp_dbl(&x, &a);
        cz_fp_dbl(&y, &a);
        TF_CHECK(cz_fp_equal(&x, &y));
        fp_neg(&x, &a);
        cz_fp_neg(&y, &a);
        TF_CHECK(cz_fp_equal(&x, &y));
        x = a; /* aliased output */
        fp_add(&x, &x, &x);
        cz_fp_dbl(&y, &a);
        TF_CHECK(cz_fp_equal(&x, &y));
    }
}

#define RF fp2
#include "ring_laws_template.h"

static void test_fp2_laws(void)
{
    fp2_ring_laws(iters(300));
    for (unsigned i = 0; i < iters(300); i++) {
        cz_fp2 a, b, c, t1, t2, t3;
        cz_fp2_random(&a, &tf_rng);
        cz_fp2_random(&b, &tf_rng);
        cz_fp2_random(&c, &tf_rng);
        /* mul_fp == mul by (b0 + 0u); mul_by_nonresidue == mul by (1 + u) */
        t3.c0 = c.c0;
        t3.c1 = CZ_FP_ZERO;
        cz_fp2_mul_fp(&t1, &a, &c.c0);
        cz_fp2_mul(&t2, &a, &t3);
        TF_CHECK(cz_fp2_equal(&t1, &t2));
        t3.c0 = CZ_FP_ONE;
        t3.c1 = CZ_FP_ONE;
        cz_fp2_mul_by_nonresidue(&t1, &a);
        cz_fp2_mul(&t2, &a, &t3);
        TF_CHECK(cz_fp2_equal(&t1, &t2));
        /* conj(a) == a^p == frobenius(a, 1); frobenius(a, 2) == a */
        cz_fp2_pow_test(&t1, &a, P_LIMBS, 6, &FP2_ONE_T);
        cz_fp2_conj(&t2, &a);
        TF_CHECK(cz_fp2_equal(&t1, &t2));
        cz_fp2_frobenius(&t2, &a, 1);
        TF_CHECK(cz_fp2_equal(&t1, &t2));
        cz_fp2_frobenius(&t2, &a, 2);
        TF_CHECK(cz_fp2_equal(&a, &t2));
        /* cmov */
        t1 = a;
        cz_fp2_cmov(&t1, &b, false);
        TF_CHECK(cz_fp2_equal(&t1, &a));
        cz_fp2_cmov(&t1, &b, true);
        TF_CHECK(cz_fp2_equal(&t1, &b));
    }
    /* u^2 == -1 */
    cz_fp2 u = {CZ_FP_ZERO, CZ_FP_ONE}, t;
    cz_fp2_sqr(&t, &u);
    cz_fp2_add(&t, &t, &FP2_ONE_T);
    TF_CHECK(cz_fp2_is_zero(&t));
}

static void test_fp2_sqrt(void)
{
    int squares = 0, non_squares = 0;
    for (unsigned i = 0; i < iters(200); i++) {
        cz_fp2 a, s, t, sq;
        cz_fp2_random(&a, &tf_rng);
        if (i == 0) /* a in Fp: always a square in Fp2 */
            a.c1 = CZ_FP_ZERO;
        if (i == 1) /* a = c1 u */
            a.c0 = CZ_FP_ZERO;
        cz_fp2_sqr(&sq, &a);
        TF_CHECK(cz_fp2_legendre(&sq) == 1);
        TF_CHECK(cz_fp2_sqrt(&s, &sq));
        cz_fp2_sqr(&t, &s);
        TF_CHECK(cz_fp2_equal(&t, &sq));
        int l = cz_fp2_legendre(&a);
        bool ok = cz_fp2_sqrt(&s, &a);
        TF_CHECK(ok == (l == 1));
        if (ok) {
            cz_fp2_sqr(&t, &s);
            TF_CHECK(cz_fp2_equal(&t, &a));
            squares++;
        } else {
            non_squares++;
        }
    }
    TF_CHECK(squares > 0 && non_squares > 0);
    /* sqrt(0) = 0; -1 is a square in Fp2 (u^2) */
    cz_fp2 z = {CZ_FP_ZERO, CZ_FP_ZERO}, s, m1, t;
    TF_CHECK(cz_fp2_sqrt(&s, &z) && cz_fp2_is_zero(&s));
    TF_CHECK(cz_fp2_legendre(&z) == 0);
    cz_fp2_neg(&m1, &FP2_ONE_T);
    TF_CHECK(cz_fp2_sqrt(&s, &m1));
    cz_fp2_sqr(&t, &s);
    TF_CHECK(cz_fp2_equal(&t, &m1));
    /* the non-residue 1 + u of the Fp6 extension is not a square */
    cz_fp2 xi = {CZ_FP_ONE, CZ_FP_ONE};
    TF_CHECK(cz_fp2_legendre(&xi) == -1);
    TF_CHECK(!cz_fp2_sqrt(&s, &xi));
}

static void test_fp2_sign(void)
{
    for (unsigned i = 0; i < iters(200); i++) {
        cz_fp2 a, n;
        cz_fp2_random(&a, &tf_rng);
        if (i & 1)
            a.c1 = CZ_FP_ZERO;
        cz_fp2_neg(&n, &a);
        bool s1 = cz_fp2_is_lexicographically_largest(&a);
        bool want = cz_fp_is_zero(&a.c1) ? cz_fp_is_lexicographically_largest(&a.c0)
                                         : cz_fp_is_lexicographically_largest(&a.c1);
        TF_CHECK(s1 == want);
        /* exactly one of a, -a is the largest when a != 0 */
        TF_CHECK(s1 != cz_fp2_is_lexicographically_largest(&n));
    }
    cz_fp2 z = {CZ_FP_ZERO, CZ_FP_ZERO};
    TF_CHECK(!cz_fp2_is_lexicographically_largest(&z));
}

static cz_fp6 fp6_one(void)
{
    cz_fp6 one;
    memset(&one, 0, sizeof one);
    one.c0 = FP2_ONE_T;
    return one;
}

static bool fp6_is_zero(const cz_fp6 *a)
{
    return cz_fp2_is_zero(&a->c0) && cz_fp2_is_zero(&a->c1) && cz_fp2_is_zero(&a->c2);
}

static bool fp6_is_one(const cz_fp6 *a)
{
    const cz_fp6 one = fp6_one();
    return cz_fp6_equal(a, &one);
}

#define RF        fp6
#define R_IS_ZERO fp6_is_zero
#define R_IS_ONE  fp6_is_one
#define R_NO_DBL
#include "ring_laws_template.h"

static void test_fp6_laws(void)
{
    const cz_fp6 one = fp6_one();
    cz_fp6 v;
    memset(&v, 0, sizeof v);
    v.c1 = FP2_ONE_T;
    fp6_ring_laws(iters(100));
    for (unsigned i = 0; i < iters(100); i++) {
        cz_fp6 a, t1, t2;
        cz_fp6_random(&a, &tf_rng);
        /* mul_by_nonresidue == mul by v */
        cz_fp6_mul_by_nonresidue(&t1, &a);
        cz_fp6_mul(&t2, &a, &v);
        TF_CHECK(cz_fp6_equal(&t1, &t2));
        /* frobenius(a, 1) == a^p; frobenius(a, k) == frobenius(., 1) k times */
        if (i < 10) {
            cz_fp6_pow_test(&t1, &a, P_LIMBS, 6, &one);
            cz_fp6_frobenius(&t2, &a, 1);
            TF_CHECK(cz_fp6_equal(&t1, &t2));
        }
        t1 = a;
        for (unsigned k = 0; k <= 7; k++) {
            cz_fp6_frobenius(&t2, &a, k);
            TF_CHECK_MSG(cz_fp6_equal(&t1, &t2), "fp6 frobenius k=%u", k);
            cz_fp6_frobenius(&t1, &t1, 1);
        }
    }
    /* v^3 == xi */
    cz_fp6 t;
    cz_fp6_sqr(&t, &v);
    cz_fp6_mul(&t, &t, &v);
    cz_fp2 xi = {CZ_FP_ONE, CZ_FP_ONE};
    TF_CHECK(cz_fp2_equal(&t.c0, &xi) && cz_fp2_is_zero(&t.c1) && cz_fp2_is_zero(&t.c2));
}

/* f^((p^6 - 1)(p^2 + 1)): an element of the cyclotomic subgroup. */
static void to_cyclotomic(cz_fp12 *r, const cz_fp12 *f)
{
    cz_fp12 t, inv;
    cz_fp12_conj(&t, f);
    cz_fp12_inv(&inv, f);
    cz_fp12_mul(&t, &t, &inv);
    cz_fp12_frobenius(r, &t, 2);
    cz_fp12_mul(r, r, &t);
}

/* Fp12's additive group, which ff.h leaves out (the pairing needs none):
 * an Fp6 operation on both halves. */
static void fp12_halves(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b,
                        void (*op)(cz_fp6 *, const cz_fp6 *, const cz_fp6 *))
{
    op(&r->c0, &a->c0, &b->c0);
    op(&r->c1, &a->c1, &b->c1);
}

static void fp12_add(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b)
{
    fp12_halves(r, a, b, cz_fp6_add);
}

static void fp12_sub(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b)
{
    fp12_halves(r, a, b, cz_fp6_sub);
}

/* -a = 0 - a */
static void fp12_neg(cz_fp12 *r, const cz_fp12 *a)
{
    cz_fp12 z;
    memset(&z, 0, sizeof z);
    fp12_sub(r, &z, a);
}

static bool fp12_is_zero(const cz_fp12 *a) { return fp6_is_zero(&a->c0) && fp6_is_zero(&a->c1); }

#define RF        fp12
#define R_ADD     fp12_add
#define R_SUB     fp12_sub
#define R_NEG     fp12_neg
#define R_IS_ZERO fp12_is_zero
#define R_NO_DBL
#include "ring_laws_template.h"

static void test_fp12_laws(void)
{
    fp12_ring_laws(iters(50));
    for (unsigned i = 0; i < iters(50); i++) {
        cz_fp12 a, b, t1, t2, t3;
        cz_fp12_random(&a, &tf_rng);
        cz_fp12_random(&b, &tf_rng);
        /* frob(a b) == frob(a) frob(b); frob^12 == id; conj == frob^6 */
        cz_fp12_mul(&t1, &a, &b);
        cz_fp12_frobenius(&t1, &t1, 1);
        cz_fp12_frobenius(&t2, &a, 1);
        cz_fp12_frobenius(&t3, &b, 1);
        cz_fp12_mul(&t2, &t2, &t3);
        TF_CHECK(cz_fp12_equal(&t1, &t2));
        t1 = a;
        for (unsigned k = 0; k <= 13; k++) {
            cz_fp12_frobenius(&t2, &a, k);
            TF_CHECK_MSG(cz_fp12_equal(&t1, &t2), "fp12 frobenius k=%u", k);
            if (k == 12)
                TF_CHECK(cz_fp12_equal(&t1, &a));
            cz_fp12_frobenius(&t1, &t1, 1);
        }
        cz_fp12_conj(&t1, &a);
        cz_fp12_frobenius(&t2, &a, 6);
        TF_CHECK(cz_fp12_equal(&t1, &t2));
        /* frob(a) == a^p by square-and-multiply */
        if (i < 5) {
            cz_fp12_pow_test(&t1, &a, P_LIMBS, 6, &CZ_FP12_ONE);
            cz_fp12_frobenius(&t2, &a, 1);
            TF_CHECK(cz_fp12_equal(&t1, &t2));
        }
        /* cyclotomic squaring agrees with squaring on the cyclotomic
         * subgroup, and the conjugate is the inverse there */
        to_cyclotomic(&t1, &a);
        cz_fp12_sqr(&t2, &t1);
        cz_fp12_cyclotomic_sqr(&t3, &t1);
        TF_CHECK(cz_fp12_equal(&t2, &t3));
        cz_fp12_conj(&t2, &t1);
        cz_fp12_mul(&t2, &t2, &t1);
        TF_CHECK(cz_fp12_is_one(&t2));
        /* ... but not outside it (a random element is not in it) */
        cz_fp12_sqr(&t2, &a);
        cz_fp12_cyclotomic_sqr(&t3, &a);
        TF_CHECK(!cz_fp12_equal(&t2, &t3));
    }
    /* w^2 == v */
    cz_fp12 w, t;
    memset(&w, 0, sizeof w);
    w.c1.c0 = FP2_ONE_T;
    cz_fp12_sqr(&t, &w);
    cz_fp12 v;
    memset(&v, 0, sizeof v);
    v.c0.c1 = FP2_ONE_T;
    TF_CHECK(cz_fp12_equal(&t, &v));
}

static void test_fp12_bytes(void)
{
    uint8_t buf[576];
    for (unsigned i = 0; i < iters(50); i++) {
        cz_fp12 a, b;
        cz_fp12_random(&a, &tf_rng);
        cz_fp12_to_bytes_be(buf, &a);
        TF_CHECK(cz_fp12_from_bytes_be(&b, buf) == CZ_OK);
        TF_CHECK(cz_fp12_equal(&a, &b));
        /* coefficient order: c0.c0.c0 first, c1.c2.c1 last */
        uint8_t one[48];
        cz_fp_to_bytes_be(one, &a.c0.c0.c0);
        TF_CHECK(memcmp(buf, one, 48) == 0);
        cz_fp_to_bytes_be(one, &a.c0.c0.c1);
        TF_CHECK(memcmp(buf + 48, one, 48) == 0);
        cz_fp_to_bytes_be(one, &a.c1.c2.c1);
        TF_CHECK(memcmp(buf + 11 * 48, one, 48) == 0);
        /* a non-canonical coefficient is rejected and b is unchanged */
        unsigned k = (unsigned)(cz_prng_next(&tf_rng) % 12);
        memset(buf + 48 * k, 0xff, 48);
        b = a;
        TF_CHECK(cz_fp12_from_bytes_be(&b, buf) == CZ_ERR_NOT_CANONICAL);
        TF_CHECK(cz_fp12_equal(&a, &b));
    }
}

/* cz_fp2_batch_inv (the trick on the norms) against cz_fp2_inv one by one,
 * with zeros, elements with one zero half, and in place. */
static void test_fp2_batch_inv(void)
{
    enum { n = 259 };
    static cz_fp2 a[n], r[n], s[n];
    cz_fp2 t;
    for (int i = 0; i < n; i++) {
        cz_fp_random(&a[i].c0, &tf_rng);
        cz_fp_random(&a[i].c1, &tf_rng);
        if (i % 17 == 3)
            memset(&a[i], 0, sizeof a[i]);
        if (i % 13 == 5)
            a[i].c0 = CZ_FP_ZERO;
        if (i % 11 == 7)
            a[i].c1 = CZ_FP_ZERO;
    }
    cz_fp2_batch_inv(r, a, n, s);
    for (int i = 0; i < n; i++) {
        cz_fp2_inv(&t, &a[i]);
        TF_CHECK_MSG(cz_fp2_equal(&t, &r[i]), "element %d", i);
    }
    cz_fp2_batch_inv(a, a, n, s); /* in place */
    for (int i = 0; i < n; i++)
        TF_CHECK(cz_fp2_equal(&a[i], &r[i]));
    cz_fp2_batch_inv(r, a, 0, s); /* nothing */
}

TF_MAIN(TF_TEST(test_inline_fp_ops), TF_TEST(test_fp2_laws), TF_TEST(test_fp2_sqrt),
        TF_TEST(test_fp2_sign), TF_TEST(test_fp6_laws), TF_TEST(test_fp12_laws),
        TF_TEST(test_fp12_bytes), TF_TEST(test_fp2_batch_inv))
