/* Groth16 verification, single and batched (see groth16.h).
 *
 * Single: e(A, B) e(IC(x), -gamma) e(C, -delta) = e(alpha, beta), as one
 * 3-pair multi-pairing compared with the prepared e(alpha, beta).
 * Batch: the random linear combination of the n equations with 128-bit
 * z_k (a forged batch passes with probability <= 2^-128):
 *   prod_k e(z_k A_k, B_k) * e(-(sum z_k) alpha, beta)
 *     * e(sum z_k IC(x_k), -gamma) * e(sum z_k C_k, -delta) = 1,
 * one multi-pairing of n + 3 pairs sharing one final exponentiation.
 * Everything here is public data: variable-time arithmetic. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/rand.h"

int cz_groth16_pvk_prepare(cz_groth16_pvk *pvk, const cz_groth16_vk *vk)
{
    if (pvk == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(pvk, 0, sizeof *pvk);
    if (vk == NULL || vk->n_ic == 0 || vk->ic == NULL)
        return CZ_ERR_INVALID_ARG;
    pvk->ic = malloc(vk->n_ic * sizeof(cz_g1_affine));
    if (pvk->ic == NULL)
        return CZ_ERR_NOMEM;
    memcpy(pvk->ic, vk->ic, vk->n_ic * sizeof(cz_g1_affine));
    pvk->n_ic = vk->n_ic;
    cz_pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    pvk->alpha_g1 = vk->alpha_g1;
    pvk->beta_g2 = vk->beta_g2;
    cz_g2_affine_neg(&pvk->neg_gamma_g2, &vk->gamma_g2);
    cz_g2_affine_neg(&pvk->neg_delta_g2, &vk->delta_g2);
    return CZ_OK;
}

void cz_groth16_pvk_free(cz_groth16_pvk *pvk)
{
    if (pvk == NULL)
        return;
    free(pvk->ic);
    memset(pvk, 0, sizeof *pvk);
}

/* IC_0 + sum x_i IC_(i+1), Jacobian. */
static void ic_sum(cz_g1 *out, const cz_groth16_pvk *pvk, const cz_fr *x)
{
    cz_g1 acc, t, q;
    cz_g1_from_affine(&acc, &pvk->ic[0]);
    for (size_t i = 0; i + 1 < pvk->n_ic; i++) {
        cz_g1_from_affine(&q, &pvk->ic[i + 1]);
        cz_g1_mul_var(&t, &q, &x[i]);
        cz_g1_add(&acc, &acc, &t);
    }
    *out = acc;
}

int cz_groth16_verify(const cz_groth16_pvk *pvk, const cz_groth16_proof *proof, const cz_fr *inputs,
                      size_t n_inputs)
{
    if (pvk == NULL || proof == NULL || (inputs == NULL && n_inputs > 0) || pvk->n_ic == 0 ||
        n_inputs != pvk->n_ic - 1)
        return CZ_ERR_INVALID_ARG;
    cz_g1 acc;
    ic_sum(&acc, pvk, inputs);
    cz_g1_affine p[3];
    cz_g2_affine q[3];
    p[0] = proof->a, q[0] = proof->b;
    cz_g1_to_affine(&p[1], &acc), q[1] = pvk->neg_gamma_g2;
    p[2] = proof->c, q[2] = pvk->neg_delta_g2;
    cz_fp12 f;
    cz_multi_pairing(&f, p, q, 3);
    return cz_fp12_equal(&f, &pvk->alpha_beta) ? CZ_OK : CZ_ERR_BAD_PROOF;
}

int cz_groth16_verify_batch(const cz_groth16_pvk *pvk, const cz_groth16_proof *proofs,
                            const cz_fr *inputs, size_t n_inputs, size_t n)
{
    if (pvk == NULL || pvk->n_ic == 0 || n_inputs != pvk->n_ic - 1 ||
        (n > 0 && (proofs == NULL || (inputs == NULL && n_inputs > 0))))
        return CZ_ERR_INVALID_ARG;
    if (n == 0)
        return CZ_OK;
    if (n > SIZE_MAX / sizeof(cz_g2_affine) - 3)
        return CZ_ERR_INVALID_ARG;
    cz_g1_affine *p = malloc((n + 3) * sizeof *p);
    cz_g2_affine *q = malloc((n + 3) * sizeof *q);
    uint8_t *zb = malloc(16 * n);
    int rc = CZ_ERR_NOMEM;
    if (p == NULL || q == NULL || zb == NULL)
        goto done;
    if (cz_os_random(zb, 16 * n) != CZ_OK) {
        rc = CZ_ERR_RNG;
        goto done;
    }
    /* IC: sum_k z_k IC(x_k) = (sum_k z_k) IC_0 + sum_i (sum_k z_k x_ki) IC_(i+1),
     * so one multiplication per IC point whatever n. */
    cz_g1 ic_acc, c_acc, t, a;
    cz_fr *coef = calloc(pvk->n_ic, sizeof(cz_fr));
    if (coef == NULL)
        goto done;
    cz_g1_set_inf(&c_acc);
    for (size_t k = 0; k < n; k++) {
        uint8_t le[32] = {0};
        cz_fr z, zx;
        memcpy(le, zb + 16 * k, 16);
        le[0] |= 1;                  /* never zero */
        cz_fr_from_bytes_le(&z, le); /* < 2^128 < r: canonical */
        cz_fr_add(&coef[0], &coef[0], &z);
        for (size_t i = 0; i < n_inputs; i++) {
            cz_fr_mul(&zx, &z, &inputs[k * n_inputs + i]);
            cz_fr_add(&coef[i + 1], &coef[i + 1], &zx);
        }
        cz_g1_from_affine(&a, &proofs[k].a);
        cz_g1_mul_var(&a, &a, &z);
        cz_g1_to_affine(&p[k], &a);
        q[k] = proofs[k].b;
        cz_g1_from_affine(&t, &proofs[k].c);
        cz_g1_mul_var(&t, &t, &z);
        cz_g1_add(&c_acc, &c_acc, &t);
    }
    cz_fr zsum = coef[0];
    cz_g1_set_inf(&ic_acc);
    for (size_t i = 0; i < pvk->n_ic; i++) {
        cz_g1_from_affine(&t, &pvk->ic[i]);
        cz_g1_mul_var(&t, &t, &coef[i]);
        cz_g1_add(&ic_acc, &ic_acc, &t);
    }
    free(coef);
    cz_fr_neg(&zsum, &zsum);
    cz_g1_from_affine(&a, &pvk->alpha_g1);
    cz_g1_mul_var(&a, &a, &zsum);
    cz_g1_to_affine(&p[n], &a), q[n] = pvk->beta_g2;
    cz_g1_to_affine(&p[n + 1], &ic_acc), q[n + 1] = pvk->neg_gamma_g2;
    cz_g1_to_affine(&p[n + 2], &c_acc), q[n + 2] = pvk->neg_delta_g2;
    cz_fp12 f;
    cz_multi_pairing(&f, p, q, n + 3);
    rc = cz_fp12_is_one(&f) ? CZ_OK : CZ_ERR_BAD_PROOF;
done:
    free(p);
    free(q);
    free(zb);
    return rc;
}
