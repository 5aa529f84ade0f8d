/* G2: the group tests of group_tests_template.h on E'(Fp2): y^2 = x^3 +
 * 4(u + 1), and the endomorphism subgroup test against [r]P == inf on points
 * in and out of G2 (cofactor multiples, points of order 13). */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "ff/ff_internal.h"
#include "tf.h"

/* b = 4 + 4u */
static void curve_b(cz_fp2 *b)
{
    cz_fp_from_u64(&b->c0, 4);
    b->c1 = b->c0;
}

#define F            cz_fp2
#define F_(op)       cz_fp2_##op
#define G_(name)     cz_g2_##name
#define GS_TO_AFFINE cz_g2s_to_affine
#define AFF          cz_g2_affine
#define JAC          cz_g2
#define XYZZ         cz_g2_xyzz
#define GEN          CZ_G2_GENERATOR
#include "group_tests_template.h"

/* -------------------------------------------------------------- G2 only --- */

static void test_subgroup(void)
{
    /* h2, the cofactor of E'(Fp2), and h2 r / 13^2 (the 13-part of E'(Fp2)
     * is Z/13 x Z/13, so [h2 r / 13^2] kills all but it) */
    static const uint64_t h2[8] = {
        0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
        0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL, 0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};
    static const uint64_t n13[12] = {
        0x29f4e3380941cfddULL, 0xa706298882819145ULL, 0xb3ca5c33c3fd8ff8ULL, 0x96568f2d18c750b4ULL,
        0xd6461e907737d78eULL, 0xcfdac10ff1fc5b48ULL, 0x3677f5d45f7cedb8ULL, 0xb33907d71557a7d3ULL,
        0x56f3b9bdc84396caULL, 0x28ba1c1fa6b67083ULL, 0xa7136c440a0c65b7ULL, 0x0004005449cda731ULL};
    cz_g2 p, t, u;
    unsigned outside = 0, order13 = 0;
    for (unsigned i = 0; i < iters(20); i++) {
        outside += !check_subgroup_round(&p, h2, 8);
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
        TF_TEST(test_add_laws), TF_TEST(test_add_ct), TF_TEST(test_xyzz), TF_TEST(test_batch_to_affine),
        TF_TEST(test_mul), TF_TEST(test_subgroup))
