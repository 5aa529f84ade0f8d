/* The Montgomery multiplications of a base field of ff.h against each
 * other: the MULX/ADX code, the portable code and the dispatched one, on
 * random values, on values that stress the carry chains and under every
 * aliasing of the output with the inputs.  Included once per field (no
 * include guard, as group_tests_template.h) by test_ff.c.
 *
 * The includer includes <string.h>, cuzk/err.h, cuzk/ff.h and tf.h,
 * defines iters(n), low_ones(l, n, k) and biased_limb(), and defines:
 *   FF            the field's name, fp or fr: its functions are cz_fp_...,
 *                 and what is defined here is fp_...: the tests
 *                 fp_mul_impls_agree, fp_mulx_edge_pairs and
 *                 fp_mulx_biased_and_aliasing
 *   F_ONE         its one (CZ_FP_ONE)
 *   F_BITS        the modulus' bits (381)
 * The Montgomery routines take any reduced limbs, so the edge values are
 * raw limb patterns (not Montgomery forms of anything in particular). */

#define F_CAT_(a, b, c) a##b##c
#define F_CAT(a, b, c)  F_CAT_(a, b, c)
#define F_STR_(a)       #a
#define F_STR(a)        F_STR_(a)
#define F               F_CAT(cz_, FF, )
#define F_(op)          F_CAT(cz_, FF, _##op)
#define T_(name)        F_CAT(FF, _, name)
#define F_NAME          F_STR(FF)
#define F_LIMBS         ((F_BITS + 63) / 64)
#define F_BYTES         (8 * F_LIMBS)
/* the largest k for which 2^k - 1 is an edge value (below the modulus) */
#define F_LOW_ONES (F_BITS - 1)
/* the top limb's bits below the modulus' top bit */
#define F_TOP_MASK ((1ULL << (F_BITS - 64 * (F_LIMBS - 1))) - 1)
#define F_EDGE_MAX (1 + 2 * 64 * F_LIMBS + F_LOW_ONES + 4 * (1 << (F_LIMBS - 1)))

/* Random values, and 0, 1, q - 1 (q the modulus) among the first. */
static void T_(mul_impls_agree)(void)
{
    F one_neg;
    F_(neg)(&one_neg, &F_ONE);
    for (unsigned i = 0; i < iters(20000); i++) {
        F a, b, x, y;
        F_(random)(&a, &tf_rng);
        F_(random)(&b, &tf_rng);
        if (i < 4) { /* edge values: 0, 1, q-1 */
            if (i == 0)
                memset(&a, 0, sizeof a);
            if (i == 1)
                a = F_ONE;
            if (i >= 2)
                a = one_neg;
            if (i == 3)
                b = one_neg;
        }
        F_(mul_portable)(&y, &a, &b);
        F_(mul_mulx)(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        F_(sqr_portable)(&y, &a);
        F_(sqr_mulx)(&x, &a);
        TF_CHECK_MEM(&x, &y, sizeof x);
        F_(mul)(&x, &a, &b);
        F_(mul_portable)(&y, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

static bool T_(is_canonical)(const F *a)
{
    uint8_t b[F_BYTES];
    F t;
    for (int i = 0; i < F_BYTES; i++)
        b[i] = (uint8_t)(a->l[i / 8] >> (8 * (i % 8)));
    return F_(from_bytes_le)(&t, b) == CZ_OK;
}

/* 0; 2^k mod q and q - 2^k mod q for k < 64 F_LIMBS (so 1, q-1, q-2,
 * ...); 2^k - 1 for k <= F_LOW_ONES; the lower limbs each 0 or all ones
 * under a top limb of 0, 1, q's top limb - 1 or q's top limb when the value
 * is < q.  Returns the count. */
static size_t T_(edge_values)(F *v)
{
    size_t n = 0;
    F x, m1;
    memset(&x, 0, sizeof x);
    v[n++] = x;
    x.l[0] = 1;
    for (int k = 0; k < 64 * F_LIMBS; k++) {
        v[n++] = x;
        F_(neg)(&v[n++], &x);
        F_(dbl)(&x, &x);
    }
    for (int k = 1; k <= F_LOW_ONES; k++)
        low_ones(v[n++].l, F_LIMBS, k);
    memset(&x, 0, sizeof x);
    x.l[0] = 1;
    F_(neg)(&m1, &x); /* q - 1: its top limb is q's */
    const uint64_t tops[4] = {0, 1, m1.l[F_LIMBS - 1] - 1, m1.l[F_LIMBS - 1]};
    for (int t = 0; t < 4; t++)
        for (unsigned mask = 0; mask < 1u << (F_LIMBS - 1); mask++) {
            for (int i = 0; i < F_LIMBS - 1; i++)
                x.l[i] = (mask >> i & 1) ? ~0ULL : 0;
            x.l[F_LIMBS - 1] = tops[t];
            if (T_(is_canonical)(&x))
                v[n++] = x;
        }
    return n;
}

/* Every pair of edge values: mul and sqr agree with the portable code. */
static void T_(mulx_edge_pairs)(void)
{
    static F v[F_EDGE_MAX];
    size_t n = T_(edge_values)(v);
    TF_CHECK(n >= 1 + 2 * 64 * F_LIMBS + F_LOW_ONES + 3 * (1 << (F_LIMBS - 1)) && n <= F_EDGE_MAX);
    if (!cz_ff_have_mulx())
        return; /* the MULX code would fault; nothing to compare */
    for (size_t i = 0; i < n; i++) {
        TF_CHECK(T_(is_canonical)(&v[i]));
        F x, y;
        F_(sqr_mulx)(&x, &v[i]);
        F_(sqr_portable)(&y, &v[i]);
        TF_CHECK_MEM(&x, &y, sizeof x);
        for (size_t j = 0; j < n; j++) {
            F_(mul_mulx)(&x, &v[i], &v[j]);
            F_(mul_portable)(&y, &v[i], &v[j]);
            if (memcmp(&x, &y, sizeof x)) {
                TF_CHECK_MSG(0, "%s mul edge pair %zu, %zu", F_NAME, i, j);
                tf_hex("  a", &v[i], sizeof x);
                tf_hex("  b", &v[j], sizeof x);
                return;
            }
        }
    }
}

/* A random reduced value of biased limbs. */
static void T_(biased)(F *a)
{
    do {
        for (int i = 0; i < F_LIMBS; i++)
            a->l[i] = biased_limb();
        a->l[F_LIMBS - 1] &= F_TOP_MASK;
    } while (!T_(is_canonical)(a));
}

/* Random reduced values built from biased limbs, and every aliasing of the
 * output with the inputs. */
static void T_(mulx_biased_and_aliasing)(void)
{
    if (!cz_ff_have_mulx())
        return;
    for (unsigned it = 0; it < iters(20000); it++) {
        F a, b, x, y;
        T_(biased)(&a);
        T_(biased)(&b);
        F_(mul_portable)(&y, &a, &b);
        F_(mul_mulx)(&x, &a, &b);
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        F_(mul_mulx)(&x, &x, &b); /* r == a */
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = b;
        F_(mul_mulx)(&x, &a, &x); /* r == b */
        TF_CHECK_MEM(&x, &y, sizeof x);
        F_(sqr_portable)(&y, &a);
        x = a;
        F_(mul_mulx)(&x, &x, &x); /* r == a == b */
        TF_CHECK_MEM(&x, &y, sizeof x);
        x = a;
        F_(sqr_mulx)(&x, &x);
        TF_CHECK_MEM(&x, &y, sizeof x);
        F_(sqr)(&x, &a); /* the dispatched one */
        TF_CHECK_MEM(&x, &y, sizeof x);
    }
}

#undef FF
#undef F_ONE
#undef F_BITS
#undef F_CAT_
#undef F_CAT
#undef F_STR_
#undef F_STR
#undef F
#undef F_
#undef T_
#undef F_NAME
#undef F_LIMBS
#undef F_LOW_ONES
#undef F_TOP_MASK
#undef F_BYTES
#undef F_EDGE_MAX
