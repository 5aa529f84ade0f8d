/* MSM on G1: the template over Fp, with the inline additions of tower.h. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "ff/tower.h"
#include "msm/msm_internal.h"

/* r = 3b a = 12 a: 2a, 3a, 6a, 12a. */
static void fp_mul_b3(cz_fp *r, const cz_fp *a)
{
    cz_fp t;
    fp_dbl(&t, a);
    fp_add(&t, &t, a);
    fp_dbl(&t, &t);
    fp_dbl(r, &t);
}

/* Measured on the development machine (cuzk-bench micro, ns): affine
 * batched addition 5M + 1S plus additions, Fermat inversion, mixed XYZZ
 * addition, mixed + full XYZZ additions per bucket, full XYZZ addition. */
static const msm_costs g1_costs = {190.0, 17300.0, 380.0, 880.0, 500.0};

#define F            cz_fp
#define F_ADD        fp_add
#define F_SUB        fp_sub
#define F_DBL        fp_dbl
#define F_NEG        fp_neg
#define F_MUL        cz_fp_mul
#define F_SQR        cz_fp_sqr
#define F_INV        cz_fp_inv
#define F_CMOV       cz_fp_cmov
#define F_IS_ZERO    cz_fp_is_zero
#define F_ONE        CZ_FP_ONE
#define F_MUL_B3     fp_mul_b3
#define G_(name)     cz_g1_##name
#define GS_TO_AFFINE cz_g1s_to_affine
#define AFF          cz_g1_affine
#define JAC          cz_g1
#define XYZZ         cz_g1_xyzz
#define MSM_COSTS    g1_costs
#include "msm/msm_template.h"
