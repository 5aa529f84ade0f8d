/* G1: the group tests of group_tests_template.h on E(Fp): y^2 = x^3 + 4,
 * and the endomorphism subgroup test against [r]P == inf on points in and
 * out of G1 (cofactor multiples, the order-3 point (0, 2)). */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "ff/ff_internal.h"
#include "tf.h"

/* b = 4 */
static void curve_b(cz_fp *b) { cz_fp_from_u64(b, 4); }

#define F            cz_fp
#define F_(op)       cz_fp_##op
#define G_(name)     cz_g1_##name
#define GS_TO_AFFINE cz_g1s_to_affine
#define AFF          cz_g1_affine
#define JAC          cz_g1
#define XYZZ         cz_g1_xyzz
#define GEN          CZ_G1_GENERATOR
#include "group_tests_template.h"

/* -------------------------------------------------------------- G1 only --- */

static void test_subgroup(void)
{
    /* h = (x - 1)^2 / 3, the cofactor of E(Fp) */
    static const uint64_t h[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
    cz_g1 p, t;
    cz_g1_affine a;
    unsigned outside = 0;
    for (unsigned i = 0; i < iters(30); i++)
        outside += !check_subgroup_round(&p, h, 2);
    TF_CHECK(outside == iters(30)); /* each in G1 with probability 1/h */
    /* (0, 2) has order 3; G + (0, 2) has order 3r */
    cz_fp_from_u64(&a.y, 2);
    a.x = CZ_FP_ZERO;
    TF_CHECK(cz_g1_affine_is_on_curve(&a));
    TF_CHECK(!cz_g1_affine_in_subgroup(&a));
    cz_g1_from_affine(&p, &a);
    cz_g1_dbl(&t, &p);
    cz_g1_add(&t, &t, &p);
    TF_CHECK(cz_g1_is_inf(&t));
    cz_g1_add_affine(&p, &p, &CZ_G1_GENERATOR);
    TF_CHECK(!cz_g1_in_subgroup(&p) && !naive_in_subgroup(&p));
}

TF_MAIN(TF_TEST(test_generator), TF_TEST(test_affine_basics), TF_TEST(test_jacobian_basics),
        TF_TEST(test_add_laws), TF_TEST(test_add_ct), TF_TEST(test_xyzz), TF_TEST(test_batch_to_affine),
        TF_TEST(test_mul), TF_TEST(test_subgroup))
