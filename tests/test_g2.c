/* G2: group laws on random points against an affine reference (slope
 * formulas with field inversions), Jacobian vs mixed vs XYZZ vs complete
 * formulas, batch normalisation, the three scalar multiplications, and the
 * endomorphism subgroup test against [r]P == inf on points in and out of G2. */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "ff/ff_internal.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* ------------------------------------------------------ reference code --- */

/* Affine addition by the chord-and-tangent slope, (0, 0) the identity. */
static void ref_add(cz_g2_affine *r, const cz_g2_affine *p, const cz_g2_affine *q)
{
    cz_fp2 l, t, x3, y3;
    if (cz_g2_affine_is_inf(p)) {
        *r = *q;
        return;
    }
    if (cz_g2_affine_is_inf(q)) {
        *r = *p;
        return;
    }
    if (cz_fp2_equal(&p->x, &q->x)) {
        cz_fp2_add(&t, &p->y, &q->y);
        if (cz_fp2_is_zero(&t)) {
            memset(r, 0, sizeof *r);
            return;
        }
        cz_fp2_sqr(&l, &p->x); /* l = 3 x^2 / 2y */
        cz_fp2_add(&t, &l, &l);
        cz_fp2_add(&l, &l, &t);
        cz_fp2_add(&t, &p->y, &p->y);
    } else {
        cz_fp2_sub(&l, &q->y, &p->y);
        cz_fp2_sub(&t, &q->x, &p->x);
    }
    cz_fp2_inv(&t, &t);
    cz_fp2_mul(&l, &l, &t);
    cz_fp2_sqr(&x3, &l);
    cz_fp2_sub(&x3, &x3, &p->x);
    cz_fp2_sub(&x3, &x3, &q->x);
    cz_fp2_sub(&y3, &p->x, &x3);
    cz_fp2_mul(&y3, &y3, &l);
    cz_fp2_sub(&r->y, &y3, &p->y);
    r->x = x3;
}

/* Affine double-and-add over the canonical limbs e[0..n). */
static void ref_mul(cz_g2_affine *r, const cz_g2_affine *p, const uint64_t *e, size_t n)
{
    cz_g2_affine acc;
    memset(&acc, 0, sizeof acc);
    for (size_t i = 64 * n; i-- > 0;) {
        ref_add(&acc, &acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            ref_add(&acc, &acc, p);
    }
    *r = acc;
}

/* Jacobian double-and-add (the "naive" multiplication), any limb count. */
static void naive_mul(cz_g2 *r, const cz_g2 *p, const uint64_t *e, size_t n)
{
    cz_g2 acc;
    cz_g2_set_inf(&acc);
    for (size_t i = 64 * n; i-- > 0;) {
        cz_g2_dbl(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            cz_g2_add(&acc, &acc, p);
    }
    *r = acc;
}

static bool naive_in_subgroup(const cz_g2 *p)
{
    cz_g2 t;
    naive_mul(&t, p, cz_r_limbs, 4);
    return cz_g2_is_inf(&t);
}

/* (l^2 X, l^3 Y, l Z) for a random l: the same point, another Z. */
static void rescale(cz_g2 *p)
{
    cz_fp2 l, l2;
    do
        cz_fp2_random(&l, &tf_rng);
    while (cz_fp2_is_zero(&l));
    cz_fp2_sqr(&l2, &l);
    cz_fp2_mul(&p->x, &p->x, &l2);
    cz_fp2_mul(&l2, &l2, &l);
    cz_fp2_mul(&p->y, &p->y, &l2);
    cz_fp2_mul(&p->z, &p->z, &l);
}

/* A random point of G2 with a random Z. */
static void rand_g2(cz_g2 *r)
{
    cz_fr k;
    cz_g2 g;
    cz_fr_random(&k, &tf_rng);
    cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
    cz_g2_mul_var(r, &g, &k);
    rescale(r);
}

static void rand_g2_affine(cz_g2_affine *r)
{
    cz_g2 p;
    rand_g2(&p);
    cz_g2_to_affine(r, &p);
}

/* A random point of E'(Fp2), cofactor not cleared: almost surely not in G2. */
static void rand_curve_point(cz_g2_affine *r)
{
    cz_fp2 x, rhs, four;
    cz_fp_from_u64(&four.c0, 4);
    four.c1 = four.c0; /* b = 4 + 4u */
    for (;;) {
        cz_fp2_random(&x, &tf_rng);
        cz_fp2_sqr(&rhs, &x);
        cz_fp2_mul(&rhs, &rhs, &x);
        cz_fp2_add(&rhs, &rhs, &four);
        if (cz_fp2_sqrt(&r->y, &rhs))
            break;
    }
    r->x = x;
}

static bool jac_eq_aff(const cz_g2 *p, const cz_g2_affine *q)
{
    cz_g2_affine a;
    cz_g2_to_affine(&a, p);
    return cz_g2_affine_equal(&a, q);
}

/* ---------------------------------------------------------------- tests --- */

static void test_generator(void)
{
    cz_g2 g, t;
    cz_fr k;
    TF_CHECK(cz_g2_affine_is_on_curve(&CZ_G2_GENERATOR));
    TF_CHECK(!cz_g2_affine_is_inf(&CZ_G2_GENERATOR));
    TF_CHECK(cz_g2_affine_in_subgroup(&CZ_G2_GENERATOR));
    cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
    TF_CHECK(cz_g2_is_on_curve(&g));
    TF_CHECK(naive_in_subgroup(&g));
    /* [r - 1] G = -G with both multiplications */
    cz_fr_neg(&k, &CZ_FR_ONE);
    cz_g2_neg(&g, &g);
    cz_g2_from_affine(&t, &CZ_G2_GENERATOR);
    cz_g2_mul(&t, &t, &k);
    TF_CHECK(cz_g2_equal(&t, &g));
    cz_g2_from_affine(&t, &CZ_G2_GENERATOR);
    cz_g2_mul_var(&t, &t, &k);
    TF_CHECK(cz_g2_equal(&t, &g));
}

static void test_affine_basics(void)
{
    cz_g2_affine inf, p, q;
    memset(&inf, 0, sizeof inf);
    TF_CHECK(cz_g2_affine_is_inf(&inf));
    TF_CHECK(cz_g2_affine_is_on_curve(&inf));
    TF_CHECK(cz_g2_affine_in_subgroup(&inf));
    cz_g2_affine_neg(&q, &inf);
    TF_CHECK(cz_g2_affine_is_inf(&q));
    for (unsigned i = 0; i < iters(50); i++) {
        rand_g2_affine(&p);
        TF_CHECK(cz_g2_affine_is_on_curve(&p));
        TF_CHECK(!cz_g2_affine_is_inf(&p));
        cz_g2_affine_neg(&q, &p);
        TF_CHECK(cz_g2_affine_is_on_curve(&q));
        TF_CHECK(!cz_g2_affine_equal(&p, &q));
        cz_g2_affine_neg(&q, &q);
        TF_CHECK(cz_g2_affine_equal(&p, &q));
        cz_fp2_random(&q.y, &tf_rng); /* almost surely off the curve */
        TF_CHECK(!cz_g2_affine_is_on_curve(&q));
        cz_g2 j;
        cz_g2_from_affine(&j, &q);
        rescale(&j);
        TF_CHECK(!cz_g2_is_on_curve(&j));
    }
}

static void test_jacobian_basics(void)
{
    cz_g2 inf, p, q;
    cz_g2_affine a;
    cz_g2_set_inf(&inf);
    TF_CHECK(cz_g2_is_inf(&inf));
    TF_CHECK(cz_g2_is_on_curve(&inf));
    TF_CHECK(cz_g2_in_subgroup(&inf));
    cz_g2_to_affine(&a, &inf);
    TF_CHECK(cz_g2_affine_is_inf(&a));
    memset(&a, 0, sizeof a);
    cz_g2_from_affine(&p, &a);
    TF_CHECK(cz_g2_is_inf(&p));
    TF_CHECK(cz_g2_equal(&p, &inf));
    for (unsigned i = 0; i < iters(50); i++) {
        rand_g2(&p);
        q = p;
        rescale(&q);
        TF_CHECK(cz_g2_is_on_curve(&p));
        TF_CHECK(cz_g2_equal(&p, &q));
        TF_CHECK(!cz_g2_equal(&p, &inf) && !cz_g2_equal(&inf, &p));
        cz_g2_neg(&q, &q);
        TF_CHECK(!cz_g2_equal(&p, &q));
        cz_g2_to_affine(&a, &p);
        cz_g2_from_affine(&q, &a);
        TF_CHECK(cz_g2_equal(&p, &q));
        TF_CHECK(cz_fp2_is_one(&q.z));
    }
}

static void test_add_laws(void)
{
    cz_g2 p, q, s, t, u, inf;
    cz_g2_affine pa, qa, ra, sa;
    cz_g2_set_inf(&inf);
    for (unsigned i = 0; i < iters(100); i++) {
        rand_g2(&p);
        rand_g2(&q);
        rand_g2(&s);
        /* against the affine reference */
        cz_g2_add(&t, &p, &q);
        cz_g2_to_affine(&pa, &p);
        cz_g2_to_affine(&qa, &q);
        ref_add(&ra, &pa, &qa);
        TF_CHECK(jac_eq_aff(&t, &ra));
        TF_CHECK(cz_g2_is_on_curve(&t));
        cz_g2_dbl(&t, &p);
        ref_add(&ra, &pa, &pa);
        TF_CHECK(jac_eq_aff(&t, &ra));
        /* commutativity, associativity */
        cz_g2_add(&t, &p, &q);
        cz_g2_add(&u, &q, &p);
        TF_CHECK(cz_g2_equal(&t, &u));
        cz_g2_add(&t, &t, &s);
        cz_g2_add(&u, &q, &s);
        cz_g2_add(&u, &p, &u);
        TF_CHECK(cz_g2_equal(&t, &u));
        /* identity, inverse, doubling through add */
        cz_g2_add(&t, &p, &inf);
        TF_CHECK(cz_g2_equal(&t, &p));
        cz_g2_add(&t, &inf, &p);
        TF_CHECK(cz_g2_equal(&t, &p));
        cz_g2_neg(&t, &p);
        rescale(&t);
        cz_g2_add(&t, &p, &t);
        TF_CHECK(cz_g2_is_inf(&t));
        t = p;
        rescale(&t);
        cz_g2_add(&t, &p, &t);
        cz_g2_dbl(&u, &p);
        TF_CHECK(cz_g2_equal(&t, &u));
        /* 3P = 2P + P = P + P + P */
        cz_g2_add(&t, &u, &p);
        cz_g2_add(&u, &p, &p);
        cz_g2_add(&u, &u, &p);
        TF_CHECK(cz_g2_equal(&t, &u));
        /* aliasing r = a, r = b */
        t = p;
        cz_g2_add(&t, &t, &q);
        u = q;
        cz_g2_add(&u, &p, &u);
        TF_CHECK(cz_g2_equal(&t, &u));
        /* mixed addition, including its special cases */
        cz_g2_to_affine(&sa, &s);
        cz_g2_add_affine(&t, &p, &sa);
        cz_g2_from_affine(&u, &sa);
        cz_g2_add(&u, &p, &u);
        TF_CHECK(cz_g2_equal(&t, &u));
        cz_g2_add_affine(&t, &p, &pa);
        cz_g2_dbl(&u, &p);
        TF_CHECK(cz_g2_equal(&t, &u));
        cz_g2_affine_neg(&ra, &pa);
        cz_g2_add_affine(&t, &p, &ra);
        TF_CHECK(cz_g2_is_inf(&t));
        cz_g2_add_affine(&t, &inf, &pa);
        TF_CHECK(cz_g2_equal(&t, &p));
        memset(&ra, 0, sizeof ra);
        cz_g2_add_affine(&t, &p, &ra);
        TF_CHECK(cz_g2_equal(&t, &p));
        t = p;
        cz_g2_add_affine(&t, &t, &sa);
        cz_g2_add(&u, &p, &s);
        TF_CHECK(cz_g2_equal(&t, &u));
    }
    cz_g2_dbl(&t, &inf);
    TF_CHECK(cz_g2_is_inf(&t));
    cz_g2_add(&t, &inf, &inf);
    TF_CHECK(cz_g2_is_inf(&t));
}

/* The same random walk in XYZZ and Jacobian coordinates. */
static void test_xyzz(void)
{
    cz_g2_xyzz x, y, inf;
    cz_g2 j, k, t;
    cz_g2_affine a, na;
    cz_g2_xyzz_set_inf(&inf);
    cz_g2_xyzz_to_jacobian(&t, &inf);
    TF_CHECK(cz_g2_is_inf(&t));
    for (unsigned i = 0; i < iters(20); i++) {
        cz_g2_xyzz_set_inf(&x);
        cz_g2_set_inf(&j);
        for (int s = 0; s < 40; s++) {
            unsigned op = (unsigned)(cz_prng_next(&tf_rng) % 6);
            rand_g2_affine(&a);
            if (op == 0) { /* add a fresh affine point */
                cz_g2_xyzz_add_affine(&x, &x, &a);
                cz_g2_add_affine(&j, &j, &a);
            } else if (op == 1) { /* add an XYZZ point */
                cz_g2_xyzz_from_affine(&y, &a);
                cz_g2_xyzz_dbl(&y, &y);
                cz_g2_xyzz_add(&x, &x, &y);
                cz_g2_add_affine(&j, &j, &a);
                cz_g2_add_affine(&j, &j, &a);
            } else if (op == 2) {
                cz_g2_xyzz_dbl(&x, &x);
                cz_g2_dbl(&j, &j);
            } else if (op == 3) { /* add itself: the doubling branch */
                cz_g2_xyzz_to_jacobian(&k, &x);
                cz_g2_to_affine(&a, &k);
                y = x;
                cz_g2_xyzz_add(&x, &x, &y);
                cz_g2_xyzz_add_affine(&y, &y, &a);
                cz_g2_xyzz_to_jacobian(&k, &y);
                cz_g2_dbl(&j, &j);
                TF_CHECK(cz_g2_equal(&j, &k));
            } else if (op == 4) { /* subtract itself: infinity, then restart */
                cz_g2_xyzz_to_jacobian(&k, &x);
                cz_g2_to_affine(&a, &k);
                cz_g2_affine_neg(&na, &a);
                y = x;
                cz_g2_xyzz_add_affine(&y, &y, &na);
                cz_g2_xyzz_to_jacobian(&k, &y);
                TF_CHECK(cz_g2_is_inf(&k));
                cz_g2_xyzz_from_affine(&y, &na);
                cz_g2_xyzz_add(&y, &x, &y);
                cz_g2_xyzz_to_jacobian(&k, &y);
                TF_CHECK(cz_g2_is_inf(&k));
            } else { /* add infinity both ways */
                cz_g2_xyzz_add(&x, &x, &inf);
                cz_g2_xyzz_add(&y, &inf, &x);
                x = y;
                memset(&na, 0, sizeof na);
                cz_g2_xyzz_add_affine(&x, &x, &na);
            }
            cz_g2_xyzz_to_jacobian(&k, &x);
            TF_CHECK(cz_g2_equal(&j, &k));
        }
    }
}

static void test_batch_to_affine(void)
{
    enum { N = 37 };
    cz_g2 in[N];
    cz_g2_affine out[N], one;
    for (unsigned it = 0; it < iters(5); it++) {
        for (size_t i = 0; i < N; i++) {
            rand_g2(&in[i]);
            if (cz_prng_next(&tf_rng) % 5 == 0)
                cz_g2_set_inf(&in[i]);
        }
        size_t n = it == 0 ? 1 : N;
        cz_g2s_to_affine(out, in, n);
        for (size_t i = 0; i < n; i++) {
            cz_g2_to_affine(&one, &in[i]);
            TF_CHECK(cz_g2_affine_equal(&out[i], &one));
            TF_CHECK(cz_g2_is_inf(&in[i]) == cz_g2_affine_is_inf(&out[i]));
        }
    }
    cz_g2s_to_affine(out, in, 0);
}

static void check_mul(const cz_g2 *p, const cz_fr *k)
{
    uint64_t e[4];
    cz_g2 a, b, c;
    cz_fr_to_canonical(e, k);
    cz_g2_mul(&a, p, k);
    cz_g2_mul_var(&b, p, k);
    naive_mul(&c, p, e, 4);
    TF_CHECK(cz_g2_equal(&a, &c));
    TF_CHECK(cz_g2_equal(&b, &c));
    TF_CHECK(cz_g2_is_on_curve(&a) && cz_g2_is_on_curve(&b));
}

static void test_mul(void)
{
    cz_g2 p, q, t, u, inf;
    cz_fr k, m, s;
    cz_g2_set_inf(&inf);
    for (unsigned i = 0; i < iters(20); i++) {
        rand_g2(&p);
        cz_fr_random(&k, &tf_rng);
        check_mul(&p, &k);
        /* edge scalars: 0, 1, 2, ..., 17, r - 1, r - 2, 2^j */
        for (uint64_t v = 0; v < 18; v++) {
            cz_fr_from_u64(&k, v);
            if (i == 0 || v < 3)
                check_mul(&p, &k);
        }
        cz_fr_neg(&k, &CZ_FR_ONE);
        check_mul(&p, &k);
        cz_fr_sub(&k, &k, &CZ_FR_ONE);
        check_mul(&p, &k);
        uint64_t e[4] = {0};
        unsigned bit = (unsigned)(cz_prng_next(&tf_rng) % 255);
        e[bit / 64] = 1ULL << (bit % 64);
        cz_fr_from_canonical(&k, e);
        check_mul(&p, &k);
        /* the identity times anything */
        cz_g2_mul(&t, &inf, &k);
        TF_CHECK(cz_g2_is_inf(&t));
        cz_g2_mul_var(&t, &inf, &k);
        TF_CHECK(cz_g2_is_inf(&t));
        /* [k] P + [m] P = [k + m] P, [k]([m] P) = [k m] P, aliasing r = p */
        cz_fr_random(&k, &tf_rng);
        cz_fr_random(&m, &tf_rng);
        cz_g2_mul(&t, &p, &k);
        cz_g2_mul_var(&u, &p, &m);
        cz_g2_add(&t, &t, &u);
        cz_fr_add(&s, &k, &m);
        q = p;
        cz_g2_mul(&q, &q, &s);
        TF_CHECK(cz_g2_equal(&t, &q));
        cz_g2_mul(&t, &p, &m);
        cz_g2_mul(&t, &t, &k);
        cz_fr_mul(&s, &k, &m);
        q = p;
        cz_g2_mul_var(&q, &q, &s);
        TF_CHECK(cz_g2_equal(&t, &q));
    }
    /* against the affine reference */
    for (unsigned i = 0; i < iters(3); i++) {
        cz_g2_affine pa, ra;
        uint64_t e[4];
        rand_g2(&p);
        cz_fr_random(&k, &tf_rng);
        cz_fr_to_canonical(e, &k);
        cz_g2_to_affine(&pa, &p);
        ref_mul(&ra, &pa, e, 4);
        cz_g2_mul(&t, &p, &k);
        TF_CHECK(jac_eq_aff(&t, &ra));
    }
    /* off the subgroup too (the formulas do not care) */
    for (unsigned i = 0; i < iters(5); i++) {
        cz_g2_affine a;
        rand_curve_point(&a);
        cz_g2_from_affine(&p, &a);
        rescale(&p);
        cz_fr_random(&k, &tf_rng);
        check_mul(&p, &k);
    }
}

static void test_subgroup(void)
{
    /* h2, the cofactor of E'(Fp2), and h2 r / 13^2 (the 13-part of E'(Fp2)
     * is Z/13 x Z/13, so [h2 r / 13^2] kills all but it) */
    static const uint64_t h2[8] = {0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL,
                                   0xa628f1cb4d9e82efULL, 0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL,
                                   0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};
    static const uint64_t n13[12] = {
        0x29f4e3380941cfddULL, 0xa706298882819145ULL, 0xb3ca5c33c3fd8ff8ULL, 0x96568f2d18c750b4ULL,
        0xd6461e907737d78eULL, 0xcfdac10ff1fc5b48ULL, 0x3677f5d45f7cedb8ULL, 0xb33907d71557a7d3ULL,
        0x56f3b9bdc84396caULL, 0x28ba1c1fa6b67083ULL, 0xa7136c440a0c65b7ULL, 0x0004005449cda731ULL};
    cz_g2 p, t, u;
    cz_g2_affine a;
    unsigned outside = 0, order13 = 0;
    for (unsigned i = 0; i < iters(20); i++) {
        rand_g2(&p);
        TF_CHECK(cz_g2_in_subgroup(&p));
        rand_curve_point(&a);
        TF_CHECK(cz_g2_affine_is_on_curve(&a));
        cz_g2_from_affine(&p, &a);
        rescale(&p);
        bool fast = cz_g2_in_subgroup(&p), slow = naive_in_subgroup(&p);
        TF_CHECK_MSG(fast == slow, "fast %d slow %d", fast, slow);
        TF_CHECK(cz_g2_affine_in_subgroup(&a) == slow);
        outside += !slow;
        /* [h2] P is in G2 */
        naive_mul(&t, &p, h2, 8);
        TF_CHECK(cz_g2_in_subgroup(&t) && naive_in_subgroup(&t));
        /* [h2 r / 13^2] P has order 13 (or 1): outside G2, and so is G + it */
        naive_mul(&t, &p, n13, 12);
        if (cz_g2_is_inf(&t))
            continue;
        order13++;
        uint64_t thirteen = 13;
        naive_mul(&u, &t, &thirteen, 1);
        TF_CHECK(cz_g2_is_inf(&u));
        TF_CHECK(!cz_g2_in_subgroup(&t));
        cz_g2_add_affine(&t, &t, &CZ_G2_GENERATOR);
        TF_CHECK(!cz_g2_in_subgroup(&t) && !naive_in_subgroup(&t));
    }
    TF_CHECK(outside == iters(20)); /* each in G2 with probability 1/h2 */
    TF_CHECK(order13 > 0);
}

TF_MAIN(TF_TEST(test_generator), TF_TEST(test_affine_basics), TF_TEST(test_jacobian_basics),
        TF_TEST(test_add_laws), TF_TEST(test_xyzz), TF_TEST(test_batch_to_affine),
        TF_TEST(test_mul), TF_TEST(test_subgroup))
