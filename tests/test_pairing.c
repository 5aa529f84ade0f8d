/* The optimal ate pairing: published value, bilinearity, non-degeneracy,
 * infinity, multi-pairing and pairing checks, and the final exponentiation
 * against a plain exponentiation by its exponent. */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

#define G1 CZ_G1_GENERATOR
#define G2 CZ_G2_GENERATOR

/* e(G1, G2), published as Gt::generator() in zkcrypto/bls12_381,
 * src/pairings.rs (test_gt_generator), Montgomery limbs, tower order. */
static const cz_fp GT_GEN[12] = {
    {{0x1972e433a01f85c5ULL, 0x97d32b76fd772538ULL, 0xc8ce546fc96bcdf9ULL, 0xcef63e7366d40614ULL,
      0xa611342781843780ULL, 0x13f3448a3fc6d825ULL}},
    {{0xd26331b02e9d6995ULL, 0x9d68a482f7797e7dULL, 0x9c9b29248d39ea92ULL, 0xf4801ca2e13107aaULL,
      0xa16c0732bdbcb066ULL, 0x083ca4afba360478ULL}},
    {{0x59e261db0916b641ULL, 0x2716b6f4b23e960dULL, 0xc8e55b10a0bd9c45ULL, 0x0bdb0bd99c4deda8ULL,
      0x8cf89ebf57fdaac5ULL, 0x12d6b7929e777a5eULL}},
    {{0x5fc85188b0e15f35ULL, 0x34a06e3a8f096365ULL, 0xdb3126a6e02ad62cULL, 0xfc6f5aa97d9a990bULL,
      0xa12f55f5eb89c210ULL, 0x1723703a926f8889ULL}},
    {{0x93588f2971828778ULL, 0x43f65b8611ab7585ULL, 0x3183aaf5ec279fdfULL, 0xfa73d7e18ac99df6ULL,
      0x64e176a6a64c99b0ULL, 0x179fa78c58388f1fULL}},
    {{0x672a0a11ca2aef12ULL, 0x0d11b9b52aa3f16bULL, 0xa44412d0699d056eULL, 0xc01d0177221a5ba5ULL,
      0x66e0cede6c735529ULL, 0x05f5a71e9fddc339ULL}},
    {{0xd30a88a1b062c679ULL, 0x5ac56a5d35fc8304ULL, 0xd0c834a6a81f290dULL, 0xcd5430c2da3707c7ULL,
      0xf0c27ff780500af0ULL, 0x09245da6e2d72eaeULL}},
    {{0x9f2e0676791b5156ULL, 0xe2d1c8234918fe13ULL, 0x4c9e459f3c561bf4ULL, 0xa3e85e53b9d3e3c1ULL,
      0x820a121e21a70020ULL, 0x15af618341c59accULL}},
    {{0x7c95658c24993ab1ULL, 0x73eb38721ca886b9ULL, 0x5256d749477434bcULL, 0x8ba41902ea504a8bULL,
      0x04a3d3f80c86ce6dULL, 0x18a64a87fb686eaaULL}},
    {{0xbb83e71bb920cf26ULL, 0x2a5277ac92a73945ULL, 0xfc0ee59f94f046a0ULL, 0x7158cdf3786058f7ULL,
      0x7cc1061b82f945f6ULL, 0x03f847aa9fdbe567ULL}},
    {{0x8078dba56134e657ULL, 0x1cd7ec9a43998a6eULL, 0xb1aa599a1a993766ULL, 0xc9a0f62f0842ee44ULL,
      0x8e159be3b605dffaULL, 0x0c86ba0d4af13fc2ULL}},
    {{0xe80ff2a06a52ffb1ULL, 0x7694ca48721a906cULL, 0x7583183e03b08514ULL, 0xf567afdd40cee4e2ULL,
      0x9a6d96d2e526a5fcULL, 0x197e9f49861f2242ULL}},
};

/* r, the group order, little-endian limbs. */
static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* 3 (p^4 - p^2 + 1) / r, little-endian limbs: the hard part of the final
 * exponentiation as cz_final_exp defines it (computed from p and r with
 * Python integers). */
static const uint64_t HARD_EXP[20] = {
    0xaf444bdcaaab2f6bULL, 0xefcb3800a61a66d5ULL, 0xb116bba59a18123aULL, 0x554e727d129be6a3ULL,
    0x8a65dbc1cc35fe5aULL, 0x6574220c23e5b6ccULL, 0x8c72178bc76a791cULL, 0xb415c7da454d4863ULL,
    0x37d47f639b68a630ULL, 0x6a6a2b0ab1c47526ULL, 0x6c9ae9625394f594ULL, 0x6163cbf00bf566e4ULL,
    0x877c5e22f2639411ULL, 0xb0f5836ba82b62deULL, 0xe3ae662e47a24ea0ULL, 0x8d69012b6d183f47ULL,
    0xbcf13296f7a83fceULL, 0x7b69b9acc2cc45eaULL, 0x4237aa494c159cdcULL, 0x002e3941b8817705ULL,
};

/* Test-local square-and-multiply in Fp12. */
static void fp12_pow(cz_fp12 *r, const cz_fp12 *a, const uint64_t *e, size_t n)
{
    cz_fp12 acc = CZ_FP12_ONE;
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            cz_fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                cz_fp12_mul(&acc, &acc, a);
        }
    *r = acc;
}

/* Test-local affine arithmetic (one inversion per step), independent of the
 * library's group code: chord-and-tangent on y^2 = x^3 + b over F. */
#define DEFINE_AFFINE(G, T, F, E)                                                                  \
    static bool G##_inf(const T *p) { return F##_is_zero(&p->x) && F##_is_zero(&p->y); }           \
    static void G##_add(T *r, const T *a, const T *b)                                              \
    {                                                                                              \
        T o;                                                                                       \
        if (G##_inf(a)) {                                                                          \
            *r = *b;                                                                               \
            return;                                                                                \
        }                                                                                          \
        if (G##_inf(b)) {                                                                          \
            *r = *a;                                                                               \
            return;                                                                                \
        }                                                                                          \
        E num, den, lam, t;                                                                        \
        if (F##_equal(&a->x, &b->x)) {                                                             \
            if (!F##_equal(&a->y, &b->y) || F##_is_zero(&a->y)) {                                  \
                memset(r, 0, sizeof *r);                                                           \
                return;                                                                            \
            }                                                                                      \
            F##_sqr(&num, &a->x); /* 3 x^2 / 2 y */                                                \
            F##_dbl(&t, &num);                                                                     \
            F##_add(&num, &num, &t);                                                               \
            F##_dbl(&den, &a->y);                                                                  \
        } else {                                                                                   \
            F##_sub(&num, &b->y, &a->y);                                                           \
            F##_sub(&den, &b->x, &a->x);                                                           \
        }                                                                                          \
        F##_inv(&den, &den);                                                                       \
        F##_mul(&lam, &num, &den);                                                                 \
        F##_sqr(&o.x, &lam);                                                                       \
        F##_sub(&o.x, &o.x, &a->x);                                                                \
        F##_sub(&o.x, &o.x, &b->x);                                                                \
        F##_sub(&t, &a->x, &o.x);                                                                  \
        F##_mul(&o.y, &lam, &t);                                                                   \
        F##_sub(&o.y, &o.y, &a->y);                                                                \
        *r = o;                                                                                    \
    }                                                                                              \
    static void G##_mul(T *r, const T *p, const cz_fr *k)                                          \
    {                                                                                              \
        uint64_t e[4];                                                                             \
        T acc;                                                                                     \
        memset(&acc, 0, sizeof acc);                                                               \
        cz_fr_to_canonical(e, k);                                                                  \
        for (int i = 3; i >= 0; i--)                                                               \
            for (int b = 63; b >= 0; b--) {                                                        \
                G##_add(&acc, &acc, &acc);                                                         \
                if ((e[i] >> b) & 1)                                                               \
                    G##_add(&acc, &acc, p);                                                        \
            }                                                                                      \
        *r = acc;                                                                                  \
    }                                                                                              \
    static void G##_neg(T *r, const T *p)                                                          \
    {                                                                                              \
        r->x = p->x;                                                                               \
        F##_neg(&r->y, &p->y);                                                                     \
    }

DEFINE_AFFINE(t1, cz_g1_affine, cz_fp, cz_fp)
DEFINE_AFFINE(t2, cz_g2_affine, cz_fp2, cz_fp2)

static void random_g1(cz_g1_affine *r)
{
    cz_fr k;
    cz_fr_random(&k, &tf_rng);
    t1_mul(r, &G1, &k);
}

static void random_g2(cz_g2_affine *r)
{
    cz_fr k;
    cz_fr_random(&k, &tf_rng);
    t2_mul(r, &G2, &k);
}

static void test_known_answer(void)
{
    cz_fp12 e, want;
    memcpy(&want, GT_GEN, sizeof want);
    cz_pairing(&e, &G1, &G2);
    TF_CHECK(cz_fp12_equal(&e, &want));
    TF_CHECK(!cz_fp12_is_one(&e));
    /* e has order r */
    cz_fp12 t;
    fp12_pow(&t, &e, R_LIMBS, 4);
    TF_CHECK(cz_fp12_is_one(&t));
}

static void test_bilinearity(void)
{
    cz_fp12 base;
    cz_pairing(&base, &G1, &G2);
    for (unsigned i = 0; i < iters(3); i++) {
        cz_fr a, b, ab;
        cz_g1_affine aP;
        cz_g2_affine bQ, abQ;
        cz_fp12 e1, e2;
        uint64_t e[4];
        cz_fr_random(&a, &tf_rng);
        cz_fr_random(&b, &tf_rng);
        cz_fr_mul(&ab, &a, &b);
        t1_mul(&aP, &G1, &a);
        t2_mul(&bQ, &G2, &b);
        /* e(aP, bQ) == e(P, Q)^(ab) */
        cz_pairing(&e1, &aP, &bQ);
        cz_fr_to_canonical(e, &ab);
        fp12_pow(&e2, &base, e, 4);
        TF_CHECK(cz_fp12_equal(&e1, &e2));
        /* e(aP, bQ) == e(P, abQ) */
        t2_mul(&abQ, &G2, &ab);
        cz_pairing(&e2, &G1, &abQ);
        TF_CHECK(cz_fp12_equal(&e1, &e2));
        TF_CHECK(!cz_fp12_is_one(&e1));
    }
}

static void test_negation_and_infinity(void)
{
    for (unsigned i = 0; i < iters(3); i++) {
        cz_g1_affine p, np, inf1;
        cz_g2_affine q, nq, inf2;
        cz_fp12 e, en, t;
        random_g1(&p);
        random_g2(&q);
        t1_neg(&np, &p);
        t2_neg(&nq, &q);
        /* e(P, -Q) e(P, Q) == 1;  e(-P, Q) == e(P, -Q) == conj(e(P, Q)) */
        cz_pairing(&e, &p, &q);
        cz_pairing(&en, &p, &nq);
        cz_fp12_mul(&t, &e, &en);
        TF_CHECK(cz_fp12_is_one(&t));
        cz_fp12_conj(&t, &e);
        TF_CHECK(cz_fp12_equal(&t, &en));
        cz_pairing(&t, &np, &q);
        TF_CHECK(cz_fp12_equal(&t, &en));
        /* e(inf, Q) == e(P, inf) == 1 */
        memset(&inf1, 0, sizeof inf1);
        memset(&inf2, 0, sizeof inf2);
        cz_pairing(&t, &inf1, &q);
        TF_CHECK(cz_fp12_is_one(&t));
        cz_pairing(&t, &p, &inf2);
        TF_CHECK(cz_fp12_is_one(&t));
        cz_pairing(&t, &inf1, &inf2);
        TF_CHECK(cz_fp12_is_one(&t));
    }
    cz_fp12 t;
    cz_miller_loop_n(&t, NULL, NULL, 0);
    TF_CHECK(cz_fp12_is_one(&t));
    cz_multi_pairing(&t, NULL, NULL, 0);
    TF_CHECK(cz_fp12_is_one(&t));
    TF_CHECK(cz_pairing_check(NULL, NULL, 0));
}

static void test_multi_pairing(void)
{
    enum { N = 19 }; /* more than one chunk of the Miller loop */
    cz_g1_affine p[N], step1;
    cz_g2_affine q[N], step2;
    random_g1(&p[0]);
    random_g2(&q[0]);
    random_g1(&step1);
    random_g2(&step2);
    for (int i = 1; i < N; i++) {
        t1_add(&p[i], &p[i - 1], &step1);
        t2_add(&q[i], &q[i - 1], &step2);
    }
    memset(&p[3], 0, sizeof p[3]); /* pairs with infinity contribute 1 */
    memset(&q[7], 0, sizeof q[7]);
    size_t sizes[] = {1, 2, 5, 16, 17, N};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        cz_fp12 prod = CZ_FP12_ONE, e, m;
        for (size_t i = 0; i < n; i++) {
            cz_pairing(&e, &p[i], &q[i]);
            cz_fp12_mul(&prod, &prod, &e);
        }
        cz_multi_pairing(&m, p, q, n);
        TF_CHECK_MSG(cz_fp12_equal(&m, &prod), "multi-pairing n=%zu", n);
        /* the same through the two halves of the API */
        cz_miller_loop_n(&e, p, q, n);
        cz_final_exp(&e, &e);
        TF_CHECK(cz_fp12_equal(&m, &e));
    }
}

static void test_pairing_check(void)
{
    for (unsigned i = 0; i < iters(2); i++) {
        cz_fr a, a1;
        cz_g1_affine p[3], ap;
        cz_g2_affine q[3], aq, a1q;
        cz_fr_random(&a, &tf_rng);
        cz_fr_add(&a1, &a, &CZ_FR_ONE);
        random_g1(&p[0]);
        random_g2(&q[0]);
        t1_mul(&ap, &p[0], &a);
        t2_mul(&aq, &q[0], &a);
        t2_mul(&a1q, &q[0], &a1);
        /* e(aP, Q) e(-P, aQ) == 1 */
        p[1] = ap;
        q[1] = q[0];
        t1_neg(&p[0], &p[0]);
        q[0] = aq;
        TF_CHECK(cz_pairing_check(p, q, 2));
        /* ... and with an extra identity pair */
        memset(&p[2], 0, sizeof p[2]);
        random_g2(&q[2]);
        TF_CHECK(cz_pairing_check(p, q, 3));
        /* e(aP, Q) e(-P, (a+1)Q) != 1 */
        q[0] = a1q;
        TF_CHECK(!cz_pairing_check(p, q, 2));
        TF_CHECK(!cz_pairing_check(p, q, 1));
    }
}

/* cz_final_exp(f) == (f^((p^6 - 1)(p^2 + 1)))^(3 (p^4 - p^2 + 1)/r) on random
 * f, the easy part written out and the hard part by square-and-multiply. */
static void test_final_exp_exponent(void)
{
    for (unsigned i = 0; i < iters(3); i++) {
        cz_fp12 f, m, t, want, got;
        cz_fp12_random(&f, &tf_rng);
        cz_fp12_inv(&t, &f);
        cz_fp12_frobenius(&m, &f, 6);
        cz_fp12_mul(&m, &m, &t);
        cz_fp12_frobenius(&t, &m, 2);
        cz_fp12_mul(&m, &m, &t);
        fp12_pow(&want, &m, HARD_EXP, 20);
        cz_final_exp(&got, &f);
        TF_CHECK(cz_fp12_equal(&got, &want));
        fp12_pow(&t, &got, R_LIMBS, 4);
        TF_CHECK(cz_fp12_is_one(&t));
    }
}

TF_MAIN(TF_TEST(test_known_answer), TF_TEST(test_bilinearity), TF_TEST(test_negation_and_infinity),
        TF_TEST(test_multi_pairing), TF_TEST(test_pairing_check), TF_TEST(test_final_exp_exponent))
