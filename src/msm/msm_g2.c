/* MSM on G2: the template over Fp2, with the inline Fp2 arithmetic of
 * tower.h. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "ff/tower.h"
#include "msm/msm_internal.h"

static const cz_fp2 fp2_one = {
    {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
      0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
    {{0}}};

/* r = 3b a = 12 (u + 1) a: the non-residue product, then 2, 3, 6, 12 times. */
static void fp2_mul_b3(cz_fp2 *r, const cz_fp2 *a)
{
    cz_fp2 t, s;
    fp2_mul_by_nonresidue(&s, a);
    fp2_dbl(&t, &s);
    fp2_add(&t, &t, &s);
    fp2_dbl(&t, &t);
    fp2_dbl(r, &t);
}

/* The batched inversions' key (msm_template.h): the norm N(d) = d0^2 + d1^2
 * in Fp (u^2 = -1), not zero for d != 0 since -1 is not a square mod p. */
static void fp2_norm(cz_fp *n, const cz_fp2 *d)
{
    cz_fp t;
    cz_fp_sqr(n, &d->c0);
    cz_fp_sqr(&t, &d->c1);
    fp_add(n, n, &t);
}

/* r = 1/d = conj(d) / N(d), from ni = 1/N(d). */
static void fp2_inv_by_norm(cz_fp2 *r, const cz_fp2 *d, const cz_fp *ni)
{
    cz_fp_mul(&r->c0, &d->c0, ni);
    cz_fp_mul(&r->c1, &d->c1, ni);
    fp_neg(&r->c1, &r->c1);
}

/* As g1_costs, for Fp2 (multiplication ~3.1x an Fp one); the batched
 * affine addition scaled from 520 ns by its products, 15 Fp against 17
 * with the norm keys (the windows the model picks at 2^10 .. 2^22 on 2
 * and 16 threads are unchanged by it). */
static const msm_costs g2_costs = {460.0, 18000.0, 950.0, 2300.0, 1350.0};

#define F            cz_fp2
#define F_ADD        fp2_add
#define F_SUB        fp2_sub
#define F_DBL        fp2_dbl
#define F_NEG        fp2_neg
#define F_MUL        fp2_mul
#define F_SQR        fp2_sqr
#define F_INV        cz_fp2_inv
#define F_CMOV       cz_fp2_cmov
#define F_IS_ZERO    cz_fp2_is_zero
#define F_ONE        fp2_one
#define F_MUL_B3     fp2_mul_b3
#define G_(name)     cz_g2_##name
#define GS_TO_AFFINE cz_g2s_to_affine
#define AFF          cz_g2_affine
#define JAC          cz_g2
#define XYZZ         cz_g2_xyzz
#define MSM_COSTS    g2_costs
#define KEY_T        cz_fp
#define KEY_OF       fp2_norm
#define KEY_MUL      cz_fp_mul
#define KEY_INV      cz_fp_inv
#define KEY_UNDO     fp2_inv_by_norm
#include "msm/msm_template.h"
