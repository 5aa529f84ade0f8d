/* G1 multi-scalar multiplication: Pippenger (plain, split, density, every
 * window width, threads) and fixed-base products; see msm_tests_template.h. */
#include "cuzk/ec.h"

#define G_(name)     cz_g1_##name
#define GS_TO_AFFINE cz_g1s_to_affine
#define AFF          cz_g1_affine
#define JAC          cz_g1
#define GEN          CZ_G1_GENERATOR
#define MAX_LOG      12
#define SCALE_N(n)   (n)
#define MULTI_ROUND  /* two rounds of CZ_MSM_ROUND scalars (G1 only: memory) */
#include "msm_tests_template.h"

TF_MAIN(MSM_TESTS)
