/* cuzk porep prove: a C1's PoRep proof on the CPU.
 *
 *   cuzk porep prove --c1 FILE --params FILE [--vk FILE] [--pce FILE]
 *       --prover-id HEX --sector-id N --out proof.bin [--threads T]
 *       [--partition K] [--check-params]
 *     reads the C1 (raw or Curio's wrapper), vanilla-verifies it with the
 *     sector's ids, loads the parameters and the pre-compiled R1CS
 *     (--pce, else <params base>.pce beside the parameters, else the blank
 *     circuit recorded), checks their counts against the circuit's, then
 *     per partition (or only K): the witness (cz_fc_porep_witness), its
 *     check against the R1CS (an unsatisfied constraint is named by a
 *     recording with namespaces), the proof, and its verification under
 *     the vk (--vk, else <params base>.vk beside the parameters, else the
 *     parameters' own) with the partition's public inputs; then the
 *     partitions' 192-byte proofs in order to --out (porep verify's input).
 *     The parameters' query points get the curve check but not the
 *     subgroup check unless --check-params: rust-fil-proofs reads its
 *     parameters unchecked too (parameter_cache.rs read_cached_params_inner,
 *     build_mapped_parameters(.., false)); every proof is verified anyway.
 *
 * T defaults to the cores the process may run on.  Exit status: 0 done; 1
 * refused (a C1 the vanilla verifier rejects, an unsatisfied constraint, a
 * proof that does not verify; nothing written); 2 bad input (options,
 * files, parameters of another circuit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"
#include "tool/tool.h"

/* --------------------------------------------------------- porep prove --- */

/* Names the constraint partition k's witness w fails (row of r): a
 * recording of the partition with namespaces, checked against w. */
static void explain(const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k, const cz_fr *w,
                    size_t n, size_t row, cz_pool *pool)
{
    cz_r1cs *nr;
    char msg[512] = "";
    if (cz_tool_record(&nr, &(cz_tool_circuit){.porep = d, .c1 = c1, .k = k}, CZ_CS_NAMESPACES, msg,
                       sizeof msg) != CZ_OK) {
        fprintf(stderr,
                "cuzk porep prove: partition %u: constraint %zu is not satisfied "
                "(recording its namespaces failed: %s)\n",
                k, row, msg);
        return;
    }
    int rc = cz_r1cs_check(nr, w, n, pool, NULL, msg, sizeof msg);
    if (rc == CZ_ERR_UNSATISFIED)
        fprintf(stderr, "cuzk porep prove: partition %u: %s\n", k, msg);
    else
        fprintf(stderr,
                "cuzk porep prove: partition %u: constraint %zu of the pre-compiled "
                "R1CS is not satisfied, but the circuit is (%s): the R1CS file is not "
                "this circuit's\n",
                k, row, cz_strerror(rc));
    cz_r1cs_free(nr);
}

/* path less its ".params" ending, then ext: "" when path has no such
 * ending. */
static void beside(char *out, size_t n, const char *path, const char *ext)
{
    size_t len = strlen(path);
    out[0] = 0;
    if (len > 7 && !strcmp(path + len - 7, ".params"))
        snprintf(out, n, "%.*s%s", (int)(len - 7), path, ext);
}

typedef struct {
    const cz_fc_c1 *c1;
    cz_fc_porep_dims d;
    const cz_r1cs *r;
    const cz_groth16_params *p;
    const cz_groth16_pvk *pvk;
    cz_fc_graph g;
    cz_pool *pool;
    cz_fr *w, *inputs;
    size_t n;
} prover;

/* Partition k into proof (192 bytes): 0, 1 refused, 2 failed. */
static int prove_partition(const prover *pv, unsigned k, uint8_t *out, double *secs)
{
    const char *c = "porep prove";
    const cz_fc_c1 *c1 = pv->c1;
    char err[512] = "";
    double t0 = cz_cli_now();
    int rc = cz_fc_porep_witness(pv->w, pv->n, c1, k, pv->pool, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: partition %u: witness: %s\n", c, k, err);
        return 2;
    }
    double t1 = cz_cli_now();
    size_t row = 0;
    rc = cz_r1cs_check(pv->r, pv->w, pv->n, pv->pool, &row, err, sizeof err);
    double t2 = cz_cli_now();
    if (rc == CZ_ERR_UNSATISFIED) {
        explain(&pv->d, c1, k, pv->w, pv->n, row, pv->pool);
        return 1;
    }
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: partition %u: check: %s\n", c, k, cz_strerror(rc));
        return 2;
    }
    cz_groth16_timings tm;
    memset(&tm, 0, sizeof tm);
    cz_groth16_prove_opts po = {.backend = CZ_BACKEND_CPU, .pool = pv->pool, .timings = &tm};
    cz_groth16_proof proof;
    rc = cz_groth16_prove(&proof, pv->p, pv->r, pv->w, pv->n, &po, err, sizeof err);
    double t3 = cz_cli_now();
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: partition %u: prove: %s\n", c, k, err);
        return 2;
    }
    const cz_fc_proof_type *t = c1->proof_type;
    size_t ni = cz_fc_public_input_count(t);
    rc = cz_fc_public_inputs(pv->inputs, t, &pv->g, &c1->replica_id, &c1->comm_d, &c1->comm_r,
                             c1->seed, k);
    if (rc == CZ_OK)
        rc = cz_groth16_verify(pv->pvk, &proof, pv->inputs, ni);
    double t4 = cz_cli_now();
    printf("partition %u: witness %.3f s, check %.3f s, prove %.3f s (H %.2f, MSMs h %.2f l %.2f "
           "a %.2f b_g1 %.2f b_g2 %.2f), verify %.3f s\n",
           k, t1 - t0, t2 - t1, t3 - t2, tm.h, tm.msm_h, tm.msm_l, tm.msm_a, tm.msm_b_g1,
           tm.msm_b_g2, t4 - t3);
    fflush(stdout);
    if (rc != CZ_OK) {
        fprintf(stderr,
                "cuzk %s: partition %u: the proof does not verify under the vk "
                "with the partition's public inputs (%s): wrong vk for these "
                "parameters?\n",
                c, k, cz_strerror(rc));
        return 1;
    }
    cz_groth16_proof_to_bytes(out, &proof);
    *secs = t4 - t0;
    return 0;
}

typedef struct {
    const uint8_t *b;
    size_t n;
} bytes;

static int write_bytes(const char *path, const void *obj)
{
    const bytes *b = obj;
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return CZ_ERR_IO;
    int ok = fwrite(b->b, 1, b->n, f) == b->n;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? CZ_OK : CZ_ERR_IO;
}

int cz_tool_porep_prove(const cz_cli_cmd *self, int argc, char **argv)
{
    const char *c = "porep prove";
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    uint8_t prover_id[32];
    uint64_t sector_id, part = 0;
    if (!cz_cli_need(c, o.c1, "--c1") || !cz_cli_need(c, o.params, "--params") ||
        !cz_cli_need(c, o.prover_id, "--prover-id") ||
        !cz_cli_need(c, o.sector_id, "--sector-id") || !cz_cli_need(c, o.out, "--out") ||
        cz_cli_hex32(prover_id, o.prover_id, c, "--prover-id") != 0 ||
        cz_cli_u64(&sector_id, o.sector_id, c, "--sector-id") != 0 ||
        (o.partition && cz_cli_u64(&part, o.partition, c, "--partition") != 0))
        return 2;
    double t_start = cz_cli_now();
    cz_pool *pool;
    unsigned threads;
    if (cz_cli_pool(&pool, &threads, o.threads, c) != 0)
        return 2;

    int ret = 2, rc;
    char err[512] = "", path[4200];
    cz_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    cz_groth16_params p;
    memset(&p, 0, sizeof p);
    cz_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    cz_groth16_pvk pvk;
    memset(&pvk, 0, sizeof pvk);
    cz_r1cs *r = NULL;
    prover pv;
    memset(&pv, 0, sizeof pv);
    uint8_t *proofs = NULL;

    /* the C1, vanilla-verified with the ids before anything else */
    double t0 = cz_cli_now();
    size_t len;
    uint8_t *json = cz_cli_read_file(o.c1, &len, c);
    if (json == NULL)
        goto out;
    rc = cz_fc_c1_read(&c1, json, len, NULL, err, sizeof err);
    free(json);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", c, o.c1, err);
        goto out;
    }
    const cz_fc_proof_type *t = c1.proof_type;
    if (o.partition && part >= c1.partitions) {
        fprintf(stderr, "cuzk %s: --partition %llu: the C1 has %u partitions\n", c,
                (unsigned long long)part, c1.partitions);
        goto out;
    }
    cz_fc_verify_opts vo = {
        .prover_id = prover_id, .sector_id = sector_id, .api = -1, .pool = pool};
    rc = cz_fc_vanilla_verify(&c1, &vo, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr,
                "cuzk %s: %s: the vanilla proofs do not verify for prover %s, "
                "sector %llu: %s\n",
                c, o.c1, o.prover_id, (unsigned long long)sector_id, err);
        ret = rc == CZ_ERR_BAD_PROOF ? 1 : 2;
        goto out;
    }
    printf("C1 %s (%s, %u partitions of %u challenges): read and vanilla-verified in %.3f s\n",
           o.c1, t->name, c1.partitions, c1.challenges, cz_cli_now() - t0);
    fflush(stdout);

    /* parameters, R1CS and vk, each checked against the circuit's counts */
    cz_fc_porep_dims_of(&pv.d, t->shape);
    size_t n_in, n_aux;
    if (cz_fc_porep_counts(&pv.d, &n_in, &n_aux) != CZ_OK) {
        fprintf(stderr, "cuzk %s: out of memory\n", c);
        goto out;
    }
    t0 = cz_cli_now();
    rc = cz_groth16_params_read_file(&p, o.params, o.check_params ? 0 : CZ_DECODE_SKIP_SUBGROUP,
                                     pool, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: --params %s: %s\n", c, o.params, err);
        goto out;
    }
    printf("params %s: loaded in %.2f s (%s)\n", o.params, cz_cli_now() - t0,
           o.check_params ? "every point checked"
                          : "subgroup checks skipped, as bellperson's "
                            "unchecked read");
    if (p.vk.n_ic != n_in || p.n_l != n_aux) {
        fprintf(stderr,
                "cuzk %s: --params %s: %zu inputs and %zu aux (IC and l points), "
                "the %s PoRep circuit has %zu and %zu: not its parameters\n",
                c, o.params, p.vk.n_ic, p.n_l, t->shape->name, n_in, n_aux);
        goto out;
    }
    const char *pce = o.pce;
    if (pce == NULL) {
        beside(path, sizeof path, o.params, ".pce");
        pce = path[0] && cz_cli_exists(path) ? path : NULL;
    }
    t0 = cz_cli_now();
    if (pce) {
        rc = cz_pce_load(&r, pce, 0, err, sizeof err);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk %s: pce %s: %s\n", c, pce, err);
            goto out;
        }
        printf("pce %s: loaded in %.2f s\n", pce, cz_cli_now() - t0);
    } else {
        if (cz_tool_record(&r, &(cz_tool_circuit){.porep = &pv.d}, 0, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "cuzk %s: %s\n", c, err);
            goto out;
        }
        printf("no pce beside the parameters: circuit recorded in %.2f s\n", cz_cli_now() - t0);
    }
    if (cz_r1cs_num_inputs(r) != n_in || cz_r1cs_num_aux(r) != n_aux) {
        fprintf(stderr,
                "cuzk %s: pce %s: %zu inputs and %zu aux, the %s PoRep circuit has "
                "%zu and %zu: not its R1CS\n",
                c, pce, cz_r1cs_num_inputs(r), cz_r1cs_num_aux(r), t->shape->name, n_in, n_aux);
        goto out;
    }
    const char *vk_path = o.vk;
    char vk_beside[4200];
    if (vk_path == NULL) {
        beside(vk_beside, sizeof vk_beside, o.params, ".vk");
        vk_path = vk_beside[0] && cz_cli_exists(vk_beside) ? vk_beside : NULL;
    }
    if (vk_path) {
        rc = cz_groth16_vk_read_file(&vk, vk_path, err, sizeof err);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk %s: vk %s: %s\n", c, vk_path, err);
            goto out;
        }
        if (vk.n_ic != n_in) {
            fprintf(stderr, "cuzk %s: vk %s: %zu inputs, the circuit has %zu\n", c, vk_path,
                    vk.n_ic, n_in);
            goto out;
        }
    }
    if (cz_groth16_pvk_prepare(&pvk, vk_path ? &vk : &p.vk) != CZ_OK) {
        fprintf(stderr, "cuzk %s: out of memory\n", c);
        goto out;
    }
    printf("vk: %s\n", vk_path ? vk_path : "the parameters' own");

    /* the partitions */
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, t);
    cz_fc_graph_init(&pv.g, t->shape, porep_id, t->api);
    pv.c1 = &c1;
    pv.r = r;
    pv.p = &p;
    pv.pvk = &pvk;
    pv.pool = pool;
    pv.n = n_in + n_aux;
    unsigned first = o.partition ? (unsigned)part : 0;
    unsigned count = o.partition ? 1 : c1.partitions;
    pv.w = cz_alloc(&cz_allocator_default, CZ_BUF_WITNESS, pv.n * sizeof(cz_fr));
    pv.inputs = malloc(cz_fc_public_input_count(t) * sizeof(cz_fr));
    proofs = malloc((size_t)count * CZ_GROTH16_PROOF_BYTES);
    if (pv.w == NULL || pv.inputs == NULL || proofs == NULL) {
        fprintf(stderr, "cuzk %s: out of memory for the witness\n", c);
        goto out;
    }
    double sum = 0;
    for (unsigned i = 0; i < count; i++) {
        double s;
        int prc2 = prove_partition(&pv, first + i, proofs + (size_t)i * CZ_GROTH16_PROOF_BYTES, &s);
        if (prc2 != 0) {
            ret = prc2;
            goto out;
        }
        sum += s;
    }
    bytes b = {proofs, (size_t)count * CZ_GROTH16_PROOF_BYTES};
    if (cz_cli_write_renamed(o.out, write_bytes, &b, c) != 0)
        goto out;
    printf("proof %s: %zu bytes (%u partition%s)\n", o.out, b.n, count, count == 1 ? "" : "s");
    printf("total: %.2f s/proof (%u partition%s: witness, check, prove, verify; %u thread%s), "
           "%.2f s with loading\n",
           sum, count, count == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
           cz_cli_now() - t_start);
    ret = 0;
out:
    free(proofs);
    free(pv.inputs);
    if (pv.w)
        cz_free(&cz_allocator_default, pv.w, pv.n * sizeof(cz_fr));
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    cz_r1cs_free(r);
    cz_groth16_params_free(&p);
    cz_fc_c1_free(&c1);
    cz_pool_free(pool);
    return ret;
}
