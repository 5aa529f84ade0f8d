/* The laws every field of ff.h keeps, on random elements: included once per
 * field (no include guard, as group_tests_template.h) by test_ff.c (Fp, Fr)
 * and test_tower.c (Fp2, Fp6, Fp12), which keep what is particular to each
 * field (square roots, Frobenius maps, ...).
 *
 * The includer includes <string.h> and tf.h, and defines:
 *   RF            the field's name (fp2): its type is cz_fp2, its
 *                 functions cz_fp2_random, _mul, _sqr, _inv, _equal, ...;
 *                 the function defined here fp2_ring_laws(unsigned n),
 *                 the laws on n random triples a, b, c
 *   R_ADD, R_SUB, R_NEG, R_DBL, R_IS_ZERO, R_IS_ONE
 *                 optional: cz_fp2_add, ... unless defined (a field of
 *                 ff.h without one gets a test-local function); R_NO_DBL
 *                 for a field without a doubling */

#define R_CAT_(a, b, c) a##b##c
#define R_CAT(a, b, c)  R_CAT_(a, b, c)
#define R               R_CAT(cz_, RF, )
#define R_(op)          R_CAT(cz_, RF, _##op)

#ifndef R_ADD
#define R_ADD R_(add)
#endif
#ifndef R_SUB
#define R_SUB R_(sub)
#endif
#ifndef R_NEG
#define R_NEG R_(neg)
#endif
#ifndef R_DBL
#define R_DBL R_(dbl)
#endif
#ifndef R_IS_ZERO
#define R_IS_ZERO R_(is_zero)
#endif
#ifndef R_IS_ONE
#define R_IS_ONE R_(is_one)
#endif

static void R_CAT(RF, _ring_laws, )(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        R a, b, c, t1, t2, t3;
        R_(random)(&a, &tf_rng);
        R_(random)(&b, &tf_rng);
        R_(random)(&c, &tf_rng);
        /* (a + b) c == a c + b c; ab == ba; (ab)c == a(bc) */
        R_ADD(&t1, &a, &b);
        R_(mul)(&t1, &t1, &c);
        R_(mul)(&t2, &a, &c);
        R_(mul)(&t3, &b, &c);
        R_ADD(&t2, &t2, &t3);
        TF_CHECK(R_(equal)(&t1, &t2));
        R_(mul)(&t1, &a, &b);
        R_(mul)(&t2, &b, &a);
        TF_CHECK(R_(equal)(&t1, &t2));
        R_(mul)(&t1, &t1, &c);
        R_(mul)(&t3, &b, &c);
        R_(mul)(&t3, &a, &t3);
        TF_CHECK(R_(equal)(&t1, &t3));
        /* a - b + b == a; a + (-a) == 0; 2a == a + a; a^2 == a a */
        R_SUB(&t1, &a, &b);
        R_ADD(&t1, &t1, &b);
        TF_CHECK(R_(equal)(&t1, &a));
        R_NEG(&t1, &a);
        R_ADD(&t1, &t1, &a);
        TF_CHECK(R_IS_ZERO(&t1));
#ifndef R_NO_DBL
        R_DBL(&t1, &a);
        R_ADD(&t2, &a, &a);
        TF_CHECK(R_(equal)(&t1, &t2));
#endif
        R_(sqr)(&t1, &a);
        R_(mul)(&t2, &a, &a);
        TF_CHECK(R_(equal)(&t1, &t2));
        /* a a^-1 == 1 */
        R_(inv)(&t1, &a);
        R_(mul)(&t1, &t1, &a);
        TF_CHECK(R_IS_ONE(&t1) || R_IS_ZERO(&a));
    }
    /* 1/0 == 0 (zero is all-zero limbs in every representation) */
    R z, t;
    memset(&z, 0, sizeof z);
    R_(inv)(&t, &z);
    TF_CHECK(R_IS_ZERO(&t));
}

#undef RF
#undef R_CAT_
#undef R_CAT
#undef R
#undef R_
#undef R_ADD
#undef R_SUB
#undef R_NEG
#undef R_DBL
#undef R_NO_DBL
#undef R_IS_ZERO
#undef R_IS_ONE
