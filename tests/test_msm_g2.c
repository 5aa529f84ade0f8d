/* G2 multi-scalar multiplication: the tests of test_msm.c at smaller sizes
 * (a G2 operation costs about 2.5 G1 ones). */
#include "cuzk/ec.h"

#define G_(name)     cz_g2_##name
#define GS_TO_AFFINE cz_g2s_to_affine
#define AFF          cz_g2_affine
#define JAC          cz_g2
#define GEN          CZ_G2_GENERATOR
#define MAX_LOG      9
#define SCALE_N(n)   ((n) / 3)
#include "msm_tests_template.h"

TF_MAIN(MSM_TESTS)
