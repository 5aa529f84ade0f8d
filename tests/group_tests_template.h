/* The group tests that G1 and G2 share, included once by test_g1.c and once
 * by test_g2.c (no include guard), as src/ec/ec_template.h is by g1.c and
 * g2.c: group laws on random points against an affine reference (slope
 * formulas with field inversions), Jacobian vs mixed vs XYZZ vs complete
 * formulas, batch normalisation, and the three scalar multiplications.
 *
 * The includer includes <string.h>, cuzk/ec.h, cuzk/ff.h, ff/ff_internal.h
 * (cz_r_limbs) and tf.h, and defines:
 *   F, F_(op)         the coordinate field: F_(mul) is cz_fp_mul, ...
 *   G_(name)          the group's name: G_(add) is cz_g1_add
 *   GS_TO_AFFINE      the batch conversion (cz_g1s_to_affine)
 *   AFF, JAC, XYZZ    the affine, Jacobian and XYZZ point types
 *   GEN               the generator (affine)
 *   curve_b(F *b)     a function: b = the curve constant b
 * It gets the tests test_generator ... test_mul for its TF_MAIN, and the
 * helpers below (iters, naive_mul, rand_point, check_subgroup_round, ...)
 * for the tests it keeps, which are specific to its group. */

static unsigned iters(unsigned n) { return n * tf_scale; }

/* ------------------------------------------------------ reference code --- */

/* Affine addition by the chord-and-tangent slope, (0, 0) the identity. */
static void ref_add(AFF *r, const AFF *p, const AFF *q)
{
    F l, t, x3, y3;
    if (G_(affine_is_inf)(p)) {
        *r = *q;
        return;
    }
    if (G_(affine_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (F_(equal)(&p->x, &q->x)) {
        F_(add)(&t, &p->y, &q->y);
        if (F_(is_zero)(&t)) {
            memset(r, 0, sizeof *r);
            return;
        }
        F_(sqr)(&l, &p->x); /* l = 3 x^2 / 2y */
        F_(add)(&t, &l, &l);
        F_(add)(&l, &l, &t);
        F_(add)(&t, &p->y, &p->y);
    } else {
        F_(sub)(&l, &q->y, &p->y);
        F_(sub)(&t, &q->x, &p->x);
    }
    F_(inv)(&t, &t);
    F_(mul)(&l, &l, &t);
    F_(sqr)(&x3, &l);
    F_(sub)(&x3, &x3, &p->x);
    F_(sub)(&x3, &x3, &q->x);
    F_(sub)(&y3, &p->x, &x3);
    F_(mul)(&y3, &y3, &l);
    F_(sub)(&r->y, &y3, &p->y);
    r->x = x3;
}

/* Affine double-and-add over the canonical limbs e[0..n). */
static void ref_mul(AFF *r, const AFF *p, const uint64_t *e, size_t n)
{
    AFF acc;
    memset(&acc, 0, sizeof acc);
    for (size_t i = 64 * n; i-- > 0;) {
        ref_add(&acc, &acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            ref_add(&acc, &acc, p);
    }
    *r = acc;
}

/* Jacobian double-and-add (the "naive" multiplication), any limb count. */
static void naive_mul(JAC *r, const JAC *p, const uint64_t *e, size_t n)
{
    JAC acc;
    G_(set_inf)(&acc);
    for (size_t i = 64 * n; i-- > 0;) {
        G_(dbl)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            G_(add)(&acc, &acc, p);
    }
    *r = acc;
}

static bool naive_in_subgroup(const JAC *p)
{
    JAC t;
    naive_mul(&t, p, cz_r_limbs, 4);
    return G_(is_inf)(&t);
}

/* (l^2 X, l^3 Y, l Z) for a random l: the same point, another Z. */
static void rescale(JAC *p)
{
    F l, l2;
    do
        F_(random)(&l, &tf_rng);
    while (F_(is_zero)(&l));
    F_(sqr)(&l2, &l);
    F_(mul)(&p->x, &p->x, &l2);
    F_(mul)(&l2, &l2, &l);
    F_(mul)(&p->y, &p->y, &l2);
    F_(mul)(&p->z, &p->z, &l);
}

/* A random point of the subgroup with a random Z. */
static void rand_point(JAC *r)
{
    cz_fr k;
    JAC g;
    cz_fr_random(&k, &tf_rng);
    G_(from_affine)(&g, &GEN);
    G_(mul_var)(r, &g, &k);
    rescale(r);
}

static void rand_point_affine(AFF *r)
{
    JAC p;
    rand_point(&p);
    G_(to_affine)(r, &p);
}

/* A random point of the whole curve, cofactor not cleared: almost surely
 * not in the subgroup. */
static void rand_curve_point(AFF *r)
{
    F x, rhs, b;
    curve_b(&b);
    for (;;) {
        F_(random)(&x, &tf_rng);
        F_(sqr)(&rhs, &x);
        F_(mul)(&rhs, &rhs, &x);
        F_(add)(&rhs, &rhs, &b);
        if (F_(sqrt)(&r->y, &rhs))
            break;
    }
    r->x = x;
}

static bool jac_eq_aff(const JAC *p, const AFF *q)
{
    AFF a;
    G_(to_affine)(&a, p);
    return G_(affine_equal)(&a, q);
}

/* ---------------------------------------------------------------- tests --- */

static void test_generator(void)
{
    JAC g, t;
    cz_fr k;
    TF_CHECK(G_(affine_is_on_curve)(&GEN));
    TF_CHECK(!G_(affine_is_inf)(&GEN));
    TF_CHECK(G_(affine_in_subgroup)(&GEN));
    G_(from_affine)(&g, &GEN);
    TF_CHECK(G_(is_on_curve)(&g));
    TF_CHECK(naive_in_subgroup(&g));
    /* [r - 1] G = -G with both multiplications */
    cz_fr_neg(&k, &CZ_FR_ONE);
    G_(neg)(&g, &g);
    G_(from_affine)(&t, &GEN);
    G_(mul)(&t, &t, &k);
    TF_CHECK(G_(equal)(&t, &g));
    G_(from_affine)(&t, &GEN);
    G_(mul_var)(&t, &t, &k);
    TF_CHECK(G_(equal)(&t, &g));
}

static void test_affine_basics(void)
{
    AFF inf, p, q;
    memset(&inf, 0, sizeof inf);
    TF_CHECK(G_(affine_is_inf)(&inf));
    TF_CHECK(G_(affine_is_on_curve)(&inf));
    TF_CHECK(G_(affine_in_subgroup)(&inf));
    G_(affine_neg)(&q, &inf);
    TF_CHECK(G_(affine_is_inf)(&q));
    for (unsigned i = 0; i < iters(50); i++) {
        rand_point_affine(&p);
        TF_CHECK(G_(affine_is_on_curve)(&p));
        TF_CHECK(!G_(affine_is_inf)(&p));
        G_(affine_neg)(&q, &p);
        TF_CHECK(G_(affine_is_on_curve)(&q));
        TF_CHECK(!G_(affine_equal)(&p, &q));
        G_(affine_neg)(&q, &q);
        TF_CHECK(G_(affine_equal)(&p, &q));
        F_(random)(&q.y, &tf_rng); /* almost surely off the curve */
        TF_CHECK(!G_(affine_is_on_curve)(&q));
        JAC j;
        G_(from_affine)(&j, &q);
        rescale(&j);
        TF_CHECK(!G_(is_on_curve)(&j));
    }
}

static void test_jacobian_basics(void)
{
    JAC inf, p, q;
    AFF a;
    G_(set_inf)(&inf);
    TF_CHECK(G_(is_inf)(&inf));
    TF_CHECK(G_(is_on_curve)(&inf));
    TF_CHECK(G_(in_subgroup)(&inf));
    G_(to_affine)(&a, &inf);
    TF_CHECK(G_(affine_is_inf)(&a));
    memset(&a, 0, sizeof a);
    G_(from_affine)(&p, &a);
    TF_CHECK(G_(is_inf)(&p));
    TF_CHECK(G_(equal)(&p, &inf));
    for (unsigned i = 0; i < iters(50); i++) {
        rand_point(&p);
        q = p;
        rescale(&q);
        TF_CHECK(G_(is_on_curve)(&p));
        TF_CHECK(G_(equal)(&p, &q));
        TF_CHECK(!G_(equal)(&p, &inf) && !G_(equal)(&inf, &p));
        G_(neg)(&q, &q);
        TF_CHECK(!G_(equal)(&p, &q));
        G_(to_affine)(&a, &p);
        G_(from_affine)(&q, &a);
        TF_CHECK(G_(equal)(&p, &q));
        TF_CHECK(F_(is_one)(&q.z));
    }
}

static void test_add_laws(void)
{
    JAC p, q, s, t, u, inf;
    AFF pa, qa, ra, sa;
    G_(set_inf)(&inf);
    for (unsigned i = 0; i < iters(100); i++) {
        rand_point(&p);
        rand_point(&q);
        rand_point(&s);
        /* against the affine reference */
        G_(add)(&t, &p, &q);
        G_(to_affine)(&pa, &p);
        G_(to_affine)(&qa, &q);
        ref_add(&ra, &pa, &qa);
        TF_CHECK(jac_eq_aff(&t, &ra));
        TF_CHECK(G_(is_on_curve)(&t));
        G_(dbl)(&t, &p);
        ref_add(&ra, &pa, &pa);
        TF_CHECK(jac_eq_aff(&t, &ra));
        /* commutativity, associativity */
        G_(add)(&t, &p, &q);
        G_(add)(&u, &q, &p);
        TF_CHECK(G_(equal)(&t, &u));
        G_(add)(&t, &t, &s);
        G_(add)(&u, &q, &s);
        G_(add)(&u, &p, &u);
        TF_CHECK(G_(equal)(&t, &u));
        /* identity, inverse, doubling through add */
        G_(add)(&t, &p, &inf);
        TF_CHECK(G_(equal)(&t, &p));
        G_(add)(&t, &inf, &p);
        TF_CHECK(G_(equal)(&t, &p));
        G_(neg)(&t, &p);
        rescale(&t);
        G_(add)(&t, &p, &t);
        TF_CHECK(G_(is_inf)(&t));
        t = p;
        rescale(&t);
        G_(add)(&t, &p, &t);
        G_(dbl)(&u, &p);
        TF_CHECK(G_(equal)(&t, &u));
        /* 3P = 2P + P = P + P + P */
        G_(add)(&t, &u, &p);
        G_(add)(&u, &p, &p);
        G_(add)(&u, &u, &p);
        TF_CHECK(G_(equal)(&t, &u));
        /* aliasing r = a, r = b */
        t = p;
        G_(add)(&t, &t, &q);
        u = q;
        G_(add)(&u, &p, &u);
        TF_CHECK(G_(equal)(&t, &u));
        /* mixed addition, including its special cases */
        G_(to_affine)(&sa, &s);
        G_(add_affine)(&t, &p, &sa);
        G_(from_affine)(&u, &sa);
        G_(add)(&u, &p, &u);
        TF_CHECK(G_(equal)(&t, &u));
        G_(add_affine)(&t, &p, &pa);
        G_(dbl)(&u, &p);
        TF_CHECK(G_(equal)(&t, &u));
        G_(affine_neg)(&ra, &pa);
        G_(add_affine)(&t, &p, &ra);
        TF_CHECK(G_(is_inf)(&t));
        G_(add_affine)(&t, &inf, &pa);
        TF_CHECK(G_(equal)(&t, &p));
        memset(&ra, 0, sizeof ra);
        G_(add_affine)(&t, &p, &ra);
        TF_CHECK(G_(equal)(&t, &p));
        t = p;
        G_(add_affine)(&t, &t, &sa);
        G_(add)(&u, &p, &s);
        TF_CHECK(G_(equal)(&t, &u));
    }
    G_(dbl)(&t, &inf);
    TF_CHECK(G_(is_inf)(&t));
    G_(add)(&t, &inf, &inf);
    TF_CHECK(G_(is_inf)(&t));
}

/* The complete (constant-time) addition equals the variable-time one on
 * every case: random, equal (doubling), opposite, infinity on either side
 * or both, aliasing. */
static void test_add_ct(void)
{
    JAC p, q, t, u, inf;
    G_(set_inf)(&inf);
    for (unsigned i = 0; i < iters(50); i++) {
        rand_point(&p);
        rand_point(&q);
        G_(add_ct)(&t, &p, &q);
        G_(add)(&u, &p, &q);
        TF_CHECK(G_(equal)(&t, &u));
        TF_CHECK(G_(is_on_curve)(&t));
        u = p;
        rescale(&u);
        G_(add_ct)(&t, &p, &u);
        G_(dbl)(&u, &p);
        TF_CHECK(G_(equal)(&t, &u));
        G_(neg)(&u, &p);
        rescale(&u);
        G_(add_ct)(&t, &p, &u);
        TF_CHECK(G_(is_inf)(&t));
        G_(add_ct)(&t, &p, &inf);
        TF_CHECK(G_(equal)(&t, &p));
        G_(add_ct)(&t, &inf, &q);
        TF_CHECK(G_(equal)(&t, &q));
        t = p;
        G_(add_ct)(&t, &t, &q);
        G_(add)(&u, &p, &q);
        TF_CHECK(G_(equal)(&t, &u));
    }
    G_(add_ct)(&t, &inf, &inf);
    TF_CHECK(G_(is_inf)(&t));
}

/* The same random walk in XYZZ and Jacobian coordinates. */
static void test_xyzz(void)
{
    XYZZ x, y, inf;
    JAC j, k, t;
    AFF a, na;
    G_(xyzz_set_inf)(&inf);
    G_(xyzz_to_jacobian)(&t, &inf);
    TF_CHECK(G_(is_inf)(&t));
    for (unsigned i = 0; i < iters(20); i++) {
        G_(xyzz_set_inf)(&x);
        G_(set_inf)(&j);
        for (int s = 0; s < 40; s++) {
            unsigned op = (unsigned)(cz_prng_next(&tf_rng) % 6);
            rand_point_affine(&a);
            if (op == 0) { /* add a fresh affine point */
                G_(xyzz_add_affine)(&x, &x, &a);
                G_(add_affine)(&j, &j, &a);
            } else if (op == 1) { /* add an XYZZ point */
                G_(xyzz_from_affine)(&y, &a);
                G_(xyzz_dbl)(&y, &y);
                G_(xyzz_add)(&x, &x, &y);
                G_(add_affine)(&j, &j, &a);
                G_(add_affine)(&j, &j, &a);
            } else if (op == 2) {
                G_(xyzz_dbl)(&x, &x);
                G_(dbl)(&j, &j);
            } else if (op == 3) { /* add itself: the doubling branch */
                G_(xyzz_to_jacobian)(&k, &x);
                G_(to_affine)(&a, &k);
                y = x;
                G_(xyzz_add)(&x, &x, &y);
                G_(xyzz_add_affine)(&y, &y, &a);
                G_(xyzz_to_jacobian)(&k, &y);
                G_(dbl)(&j, &j);
                TF_CHECK(G_(equal)(&j, &k));
            } else if (op == 4) { /* subtract itself: infinity, then restart */
                G_(xyzz_to_jacobian)(&k, &x);
                G_(to_affine)(&a, &k);
                G_(affine_neg)(&na, &a);
                y = x;
                G_(xyzz_add_affine)(&y, &y, &na);
                G_(xyzz_to_jacobian)(&k, &y);
                TF_CHECK(G_(is_inf)(&k));
                G_(xyzz_from_affine)(&y, &na);
                G_(xyzz_add)(&y, &x, &y);
                G_(xyzz_to_jacobian)(&k, &y);
                TF_CHECK(G_(is_inf)(&k));
            } else { /* add infinity both ways */
                G_(xyzz_add)(&x, &x, &inf);
                G_(xyzz_add)(&y, &inf, &x);
                x = y;
                memset(&na, 0, sizeof na);
                G_(xyzz_add_affine)(&x, &x, &na);
            }
            G_(xyzz_to_jacobian)(&k, &x);
            TF_CHECK(G_(equal)(&j, &k));
        }
    }
}

static void test_batch_to_affine(void)
{
    enum { N = 37 };
    JAC in[N];
    AFF out[N], one;
    for (unsigned it = 0; it < iters(5); it++) {
        for (size_t i = 0; i < N; i++) {
            rand_point(&in[i]);
            if (cz_prng_next(&tf_rng) % 5 == 0)
                G_(set_inf)(&in[i]);
        }
        size_t n = it == 0 ? 1 : N;
        GS_TO_AFFINE(out, in, n);
        for (size_t i = 0; i < n; i++) {
            G_(to_affine)(&one, &in[i]);
            TF_CHECK(G_(affine_equal)(&out[i], &one));
            TF_CHECK(G_(is_inf)(&in[i]) == G_(affine_is_inf)(&out[i]));
        }
    }
    GS_TO_AFFINE(out, in, 0);
}

static void check_mul(const JAC *p, const cz_fr *k)
{
    uint64_t e[4];
    JAC a, b, c;
    cz_fr_to_canonical(e, k);
    G_(mul)(&a, p, k);
    G_(mul_var)(&b, p, k);
    naive_mul(&c, p, e, 4);
    TF_CHECK(G_(equal)(&a, &c));
    TF_CHECK(G_(equal)(&b, &c));
    TF_CHECK(G_(is_on_curve)(&a) && G_(is_on_curve)(&b));
}

static void test_mul(void)
{
    JAC p, q, t, u, inf;
    cz_fr k, m, s;
    G_(set_inf)(&inf);
    for (unsigned i = 0; i < iters(20); i++) {
        rand_point(&p);
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
        G_(mul)(&t, &inf, &k);
        TF_CHECK(G_(is_inf)(&t));
        G_(mul_var)(&t, &inf, &k);
        TF_CHECK(G_(is_inf)(&t));
        /* [k] P + [m] P = [k + m] P, [k]([m] P) = [k m] P, aliasing r = p */
        cz_fr_random(&k, &tf_rng);
        cz_fr_random(&m, &tf_rng);
        G_(mul)(&t, &p, &k);
        G_(mul_var)(&u, &p, &m);
        G_(add)(&t, &t, &u);
        cz_fr_add(&s, &k, &m);
        q = p;
        G_(mul)(&q, &q, &s);
        TF_CHECK(G_(equal)(&t, &q));
        G_(mul)(&t, &p, &m);
        G_(mul)(&t, &t, &k);
        cz_fr_mul(&s, &k, &m);
        q = p;
        G_(mul_var)(&q, &q, &s);
        TF_CHECK(G_(equal)(&t, &q));
    }
    /* against the affine reference */
    for (unsigned i = 0; i < iters(3); i++) {
        AFF pa, ra;
        uint64_t e[4];
        rand_point(&p);
        cz_fr_random(&k, &tf_rng);
        cz_fr_to_canonical(e, &k);
        G_(to_affine)(&pa, &p);
        ref_mul(&ra, &pa, e, 4);
        G_(mul)(&t, &p, &k);
        TF_CHECK(jac_eq_aff(&t, &ra));
    }
    /* off the subgroup too (the formulas do not care) */
    for (unsigned i = 0; i < iters(5); i++) {
        AFF a;
        rand_curve_point(&a);
        G_(from_affine)(&p, &a);
        rescale(&p);
        cz_fr_random(&k, &tf_rng);
        check_mul(&p, &k);
    }
}

/* ---------------------------------------------------- for test_subgroup --- */

/* One round of the subgroup tests, which every group's test_subgroup runs:
 * a random point of the subgroup passes the endomorphism test; a random
 * point p of the whole curve gets the answer of [r]p == inf from it, affine
 * and Jacobian; [h] p is in the subgroup, h the cofactor in limbs h[0..n).
 * Leaves p (random Z) for the caller's own checks; returns whether it lies
 * in the subgroup. */
static bool check_subgroup_round(JAC *p, const uint64_t *h, size_t n)
{
    JAC t;
    AFF a;
    rand_point(p);
    TF_CHECK(G_(in_subgroup)(p));
    rand_curve_point(&a);
    TF_CHECK(G_(affine_is_on_curve)(&a));
    G_(from_affine)(p, &a);
    rescale(p);
    bool fast = G_(in_subgroup)(p), slow = naive_in_subgroup(p);
    TF_CHECK_MSG(fast == slow, "fast %d slow %d", fast, slow);
    TF_CHECK(G_(affine_in_subgroup)(&a) == slow);
    naive_mul(&t, p, h, n);
    TF_CHECK(G_(in_subgroup)(&t) && naive_in_subgroup(&t));
    return slow;
}
