/* The PoRep family: SealCommitPhase2 of a C1 (cuzk/engine.h cz_job_porep;
 * family.h).
 *
 *   proof      a RegisteredSealProof (0..19) and its sector shape
 *   check      a C1 is there; the registered proof's partitions; digest:
 *              the sector number, miner id and the C1 bytes
 *   admit      the C1 read into the request pool (raw or Curio's
 *              wrapper), matched against the request, vanilla-verified
 *              with prover_id = cz_fc_prover_id(miner_id) and the sector
 *              number, on the synthesis pool
 *   circuit    "porep-<size>", Filecoin's parameter names
 *              (cz_fc_porep_params_name), cz_fc_porep_counts
 *   witness    cz_fc_porep_witness; its public inputs verify_seal's
 *              (cz_fc_public_inputs) */
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "engine/family.h"

typedef struct {
    const cz_fc_proof_type *pt;
    cz_fc_graph graph; /* for the public inputs */
    cz_fc_c1 c1;
    bool has_c1;
} porep_input;

static void porep_release(void *p)
{
    porep_input *in = p;
    if (in->has_c1)
        cz_fc_c1_free(&in->c1);
}

static int porep_proof(const cz_eng_family *f, const void *req, cz_eng_proof *p, char *err,
                       size_t errlen)
{
    const cz_job_porep *r = req;
    const cz_fc_proof_type *pt = cz_fc_proof_by_id(r->registered_proof);
    *p = (cz_eng_proof){r->registered_proof, r->sector_size, pt ? pt->shape : NULL,
                        pt ? pt->name : NULL};
    return pt ? CZ_OK
              : cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                        "registered_proof %llu is not a RegisteredSealProof (0..19: StackedDrg "
                        "2KiB..64GiB V1, V1_1, V1_1 synthetic, V1_2 non-interactive)",
                        (unsigned long long)r->registered_proof);
}

static int porep_circuit(const cz_eng_family *f, const cz_fc_shape *s, char base[CZ_FC_PARAMS_NAME],
                         size_t *n_in, size_t *n_aux)
{
    cz_fc_porep_params_name(base, s);
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, s);
    return n_in ? cz_fc_porep_counts(&d, n_in, n_aux) : CZ_OK;
}

static int porep_check(const cz_eng_family *f, const void *req, const cz_eng_proof *p,
                       uint32_t *n_parts, cz_sha256_ctx *h, char *err, size_t errlen)
{
    const cz_job_porep *r = req;
    if (r->c1 == NULL || r->c1_len == 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proof: no C1 (SealCommitPhase1Output JSON) was given");
    *n_parts = cz_fc_proof_by_id(p->id)->partitions;
    cz_sha256_update_u64(h, r->sector_number);
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update_u64(h, r->c1_len);
    cz_sha256_update(h, r->c1, r->c1_len);
    return CZ_OK;
}

static int porep_admit(const cz_eng_admit *a, void *p, char *err, size_t errlen)
{
    const cz_job_porep *r = a->req;
    porep_input *in = p;
    in->pt = cz_fc_proof_by_id(r->registered_proof);
    char why[400];
    int rc = cz_fc_c1_read(&in->c1, r->c1, r->c1_len, a->alloc, why, sizeof why);
    if (rc == CZ_ERR_NOMEM)
        return cz_eng_pool_full(a->e, "this C1", err, errlen);
    if (rc != CZ_OK)
        return cz_fail(err, errlen, rc == CZ_ERR_UNSUPPORTED ? CZ_ERR_INVALID_ARG : rc,
                       "vanilla_proof: %s", why);
    in->has_c1 = true;
    const cz_fc_c1 *c1 = &in->c1;
    if (c1->proof_type != in->pt)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proof: the C1 is for %s (%llu), the request's registered_proof "
                       "is %s (%llu)",
                       c1->proof_type->name, (unsigned long long)c1->proof_type->id, in->pt->name,
                       (unsigned long long)in->pt->id);
    if (c1->wrapped && c1->sector_num != r->sector_number)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proof: the wrapper's SectorNum %llu is not sector_number %llu",
                       (unsigned long long)c1->sector_num, (unsigned long long)r->sector_number);
    /* filecoin-proofs seal_commit_phase2 refuses these */
    const char *zero = cz_fc_is_zero32(c1->comm_r.b)   ? "comm_r"
                       : cz_fc_is_zero32(c1->comm_d.b) ? "comm_d"
                       : cz_fc_is_zero32(c1->seed)     ? "seed"
                                                       : NULL;
    if (zero)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "vanilla_proof: the C1's %s is zero", zero);
    uint8_t prover_id[32];
    cz_fc_prover_id(prover_id, r->miner_id);
    cz_fc_verify_opts vo = {
        .prover_id = prover_id, .sector_id = r->sector_number, .api = -1, .pool = a->pool};
    rc = cz_fc_vanilla_verify(c1, &vo, why, sizeof why);
    if (rc == CZ_ERR_BAD_PROOF)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proof: the vanilla proofs do not verify for miner %llu, sector "
                       "%llu: %s",
                       (unsigned long long)r->miner_id, (unsigned long long)r->sector_number, why);
    if (rc != CZ_OK)
        return cz_fail(err, errlen, rc, "vanilla_proof: verifying it failed: %s", why);
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, in->pt);
    cz_fc_graph_init(&in->graph, in->pt->shape, porep_id, in->pt->api);
    return CZ_OK;
}

static int porep_witness(const cz_eng_family *f, const void *p, unsigned k, cz_fr *w, size_t n_w,
                         cz_pool *pool, char *why, size_t whylen)
{
    const porep_input *in = p;
    return cz_fc_porep_witness(w, n_w, &in->c1, k, pool, why, whylen);
}

static int porep_public_inputs(const void *p, unsigned k, cz_fr *out, size_t *n)
{
    const porep_input *in = p;
    *n = cz_fc_public_input_count(in->pt);
    return out ? cz_fc_public_inputs(out, in->pt, &in->graph, &in->c1.replica_id, &in->c1.comm_d,
                                     &in->c1.comm_r, in->c1.seed, k)
               : CZ_OK;
}

const cz_eng_family_hooks cz_eng_porep_hooks = CZ_ENG_FAMILY_HOOKS(porep, porep_input);
