/* Constant-time check, in the manner of secp256k1's ctime_tests: secret
 * inputs are marked undefined for valgrind's memcheck, so any branch or
 * memory index that depends on them is reported as a use of uninitialised
 * data.  Run it under `valgrind --error-exitcode=1` (scripts/ctime.sh);
 * run natively it only exercises the code. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "cuzk/cs.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include <stdlib.h>

#define SECRET(x) VALGRIND_MAKE_MEM_UNDEFINED(&(x), sizeof(x))
#define PUBLIC(x) VALGRIND_MAKE_MEM_DEFINED(&(x), sizeof(x))

int main(void)
{
    cz_prng g;
    cz_prng_seed(&g, 42);
    cz_fp a, b, r;
    cz_fr k, kr;
    cz_fp2 a2, r2;
    cz_fp_random(&a, &g);
    cz_fp_random(&b, &g);
    cz_fr_random(&k, &g);
    cz_fp2_random(&a2, &g);

    SECRET(a);
    SECRET(b);
    SECRET(k);
    SECRET(a2);
    kr = k;

    cz_fp_add(&r, &a, &b);
    cz_fp_sub(&r, &r, &b);
    cz_fp_neg(&r, &r);
    cz_fp_mul(&r, &r, &b);
    cz_fp_mul_portable(&r, &r, &b);
#if defined(__x86_64__)
    /* valgrind hides ADX from CPUID, so the dispatcher picks the portable
     * code under it; call the MULX versions directly (valgrind runs them). */
    cz_fp_mul_mulx(&r, &r, &b);
    cz_fp_sqr_mulx(&r, &r);
    cz_fr_mul_mulx(&kr, &kr, &k);
    cz_fr_sqr_mulx(&kr, &kr);
#endif
    cz_fp_sqr(&r, &r);
    cz_fp_inv(&r, &r);
    bool ok = cz_fp_sqrt(&r, &a);
    PUBLIC(ok);
    cz_fr_mul(&kr, &kr, &k);
    cz_fr_mul_portable(&kr, &kr, &k);
    cz_fr_inv(&kr, &kr);
    ok = cz_fr_sqrt(&kr, &k);
    PUBLIC(ok);
    cz_fp2_mul(&r2, &a2, &a2);
    cz_fp2_inv(&r2, &r2);
    ok = cz_fp2_sqrt(&r2, &a2);
    PUBLIC(ok);

    /* Secret-scalar multiplications (Groth16 r and s, setup toxic waste). */
    cz_g1 p1, q1;
    cz_g2 p2, q2;
    cz_g1_from_affine(&p1, &CZ_G1_GENERATOR);
    cz_g2_from_affine(&p2, &CZ_G2_GENERATOR);
    cz_g1_mul(&q1, &p1, &k);
    cz_g2_mul(&q2, &p2, &k);

    /* Fixed-base batch multiplication (setup toxic waste powers). */
    enum { nk = 3, w = 4 };
    cz_fr ks[nk];
    cz_g1_affine o1[nk];
    cz_g2_affine o2[nk];
    void *t1 = aligned_alloc(64, cz_g1_fixed_table_bytes(w));
    void *t2 = aligned_alloc(64, cz_g2_fixed_table_bytes(w));
    cz_g1_fixed_table_init(t1, w, &CZ_G1_GENERATOR);
    cz_g2_fixed_table_init(t2, w, &CZ_G2_GENERATOR);
    for (int i = 0; i < nk; i++)
        cz_fr_random(&ks[i], &g);
    ks[1] = CZ_FR_ZERO;
    SECRET(ks);
    cz_g1_fixed_mul(o1, t1, w, ks, nk, 0, NULL);
    cz_g2_fixed_mul(o2, t2, w, ks, nk, 0, NULL);
    PUBLIC(o1);
    PUBLIC(o2);
    free(t1);
    free(t2);

    /* A Groth16 proof with secret blinding factors r, s (prove_finish's
     * multiplications by r, s and r s, and the proof's conversion to
     * affine): a one-constraint circuit x * x = y with public parameters. */
    {
        cz_cs *cs;
        cz_r1cs *rc;
        cz_fr x, y, rs[2];
        cz_fr_random(&x, &g);
        cz_fr_sqr(&y, &x);
        cz_cs_new(&cs, CZ_CS_RECORD, 0);
        cz_var vx = cz_cs_alloc_aux(cs, &x), vy = cz_cs_alloc_input(cs, &y);
        cz_lc la, lc;
        cz_lc_init(&la);
        cz_lc_init(&lc);
        cz_lc_add(&la, vx);
        cz_lc_add(&lc, vy);
        cz_cs_enforce(cs, &la, &la, &lc);
        cz_cs_finish(cs, &rc);
        cz_fr wv[3];
        cz_cs_write_assignment(cs, wv);
        uint8_t seed[32] = {1};
        cz_groth16_params prm;
        cz_groth16_setup(&prm, rc, seed, CZ_GROTH16_BELLPERSON, NULL);
        cz_fr_random(&rs[0], &g);
        cz_fr_random(&rs[1], &g);
        SECRET(rs);
        cz_groth16_prove_opts po = {.rs = rs};
        cz_groth16_proof pf;
        cz_groth16_prove(&pf, &prm, rc, wv, 3, &po, NULL, 0);
        PUBLIC(pf);
        cz_groth16_params_free(&prm);
        cz_r1cs_free(rc);
        cz_cs_free(cs);
        cz_lc_free(&la);
        cz_lc_free(&lc);
    }

    PUBLIC(r);
    PUBLIC(kr);
    PUBLIC(r2);
    PUBLIC(q1);
    PUBLIC(q2);
    printf("ctime_test: done (meaningful only under valgrind)\n");
    return 0;
}
