/* The PoRep kind: SealCommitPhase2 of a C1 (cuzk/engine.h cz_job_porep;
 * kind.h).
 *
 *   check       the registered proof is known, the sector size (when
 *               given) is its, a C1 is there; the parameter files exist
 *               when the circuit is not cached (a missing file is named at
 *               once, not when a worker reaches the job); digest: the
 *               registered proof, sector number, miner id and the C1 bytes
 *   admit       the C1 read into the request pool (raw or Curio's
 *               wrapper), matched against the request, vanilla-verified
 *               with prover_id = cz_fc_prover_id(miner_id) and the sector
 *               number, on the synthesis pool
 *   load        "porep-<size>": <param_cache>/<name>.params, .vk and .pce,
 *               <name> Filecoin's (cz_fc_porep_params_name), as
 *               param_files.c loads them, the counts the circuit's
 *               (cz_fc_porep_counts)
 *   synthesize  cz_fc_porep_witness on the synthesis pool, then its public
 *               inputs compared with the ones verify_seal recomputes
 *               (cz_fc_public_inputs): the proof that leaves is one the
 *               chain accepts, not only one that verifies against its own
 *               witness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "engine/engine_internal.h"

typedef struct {
    const cz_fc_proof_type *pt;
    uint64_t sector_number;
    uint8_t prover_id[32];
    cz_fc_graph graph; /* for the public inputs */
    cz_resv_allocator ra; /* the C1's memory, from the request pool */
    cz_fc_c1 c1;
    bool has_c1; /* false in a preload's record */
} porep_input;

static const char PCE_CMD[] = "cuzk-bench params --sector-size SIZE --pce-only --out DIR";

/* The three files of s exist: CZ_OK, or CZ_ERR_NOT_FOUND naming the first
 * missing one. */
static int files_present(const cz_engine *e, const cz_fc_shape *s, char *err, size_t errlen)
{
    char base[CZ_FC_PARAMS_NAME];
    cz_fc_porep_params_name(base, s);
    return cz_eng_param_files_present(e, base, s->name, PCE_CMD, err, errlen);
}

static int no_cache(char *err, size_t errlen)
{
    cz_msgf(err, errlen, "PoRep needs a param cache (srs.param_cache): none is configured");
    return CZ_ERR_UNSUPPORTED;
}

static int porep_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h,
                       char *err, size_t errlen)
{
    const cz_job_porep *r = req->input;
    if (e->param_cache == NULL)
        return no_cache(err, errlen);
    const cz_fc_proof_type *pt = cz_fc_proof_by_id(r->registered_proof);
    if (pt == NULL) {
        cz_msgf(err, errlen,
                "registered_proof %llu is not a RegisteredSealProof (0..19: StackedDrg 2KiB..64GiB "
                "V1, V1_1, V1_1 synthetic, V1_2 non-interactive)",
                (unsigned long long)r->registered_proof);
        return CZ_ERR_INVALID_ARG;
    }
    if (r->sector_size != 0 && r->sector_size != pt->shape->sector_size) {
        cz_msgf(err, errlen, "sector_size %llu is not the %s sector size of %s (%llu bytes)",
                (unsigned long long)r->sector_size, pt->shape->name, pt->name,
                (unsigned long long)pt->shape->sector_size);
        return CZ_ERR_INVALID_ARG;
    }
    if (r->c1 == NULL || r->c1_len == 0) {
        cz_msgf(err, errlen, "vanilla_proof: no C1 (SealCommitPhase1Output JSON) was given");
        return CZ_ERR_INVALID_ARG;
    }
    cz_eng_fc_circuit_id(j->circuit_id, CZ_CIRCUIT_ID_POREP, pt->shape);
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    bool cached = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    if (!cached) {
        int rc = files_present(e, pt->shape, err, errlen);
        if (rc != CZ_OK)
            return rc;
    }
    j->n_parts = pt->partitions;
    cz_sha256_update_u64(h, r->registered_proof);
    cz_sha256_update_u64(h, r->sector_number);
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update_u64(h, r->c1_len);
    cz_sha256_update(h, r->c1, r->c1_len);
    return CZ_OK;
}

static int porep_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    const cz_job_porep *r = req->input;
    porep_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    j->in = in;
    in->pt = cz_fc_proof_by_id(r->registered_proof);
    in->sector_number = r->sector_number;
    cz_fc_prover_id(in->prover_id, r->miner_id);
    cz_buf_tag tag = {j->seq, UINT32_MAX, "queued"};
    cz_resv_allocator_init(&in->ra, e->request_pool, &tag);
    char why[400];
    int rc = cz_fc_c1_read(&in->c1, r->c1, r->c1_len, &in->ra.a, why, sizeof why);
    if (rc == CZ_ERR_NOMEM)
        return cz_eng_pool_full(e, "this C1", err, errlen);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "vanilla_proof: %s", why);
        return rc == CZ_ERR_UNSUPPORTED ? CZ_ERR_INVALID_ARG : rc;
    }
    in->has_c1 = true;
    const cz_fc_c1 *c1 = &in->c1;
    if (c1->proof_type != in->pt) {
        cz_msgf(err, errlen,
                "vanilla_proof: the C1 is for %s (%llu), the request's registered_proof is %s "
                "(%llu)",
                c1->proof_type->name, (unsigned long long)c1->proof_type->id, in->pt->name,
                (unsigned long long)in->pt->id);
        return CZ_ERR_INVALID_ARG;
    }
    if (c1->wrapped && c1->sector_num != r->sector_number) {
        cz_msgf(err, errlen, "vanilla_proof: the wrapper's SectorNum %llu is not sector_number %llu",
                (unsigned long long)c1->sector_num, (unsigned long long)r->sector_number);
        return CZ_ERR_INVALID_ARG;
    }
    /* filecoin-proofs seal_commit_phase2 refuses these */
    const char *zero = cz_fc_is_zero32(c1->comm_r.b)   ? "comm_r"
                       : cz_fc_is_zero32(c1->comm_d.b) ? "comm_d"
                       : cz_fc_is_zero32(c1->seed)     ? "seed"
                                                   : NULL;
    if (zero) {
        cz_msgf(err, errlen, "vanilla_proof: the C1's %s is zero", zero);
        return CZ_ERR_INVALID_ARG;
    }
    cz_fc_verify_opts vo = {.prover_id = in->prover_id,
                            .sector_id = r->sector_number,
                            .api = -1,
                            .pool = cz_eng_synth_pool(e, req->priority)};
    rc = cz_fc_vanilla_verify(c1, &vo, why, sizeof why);
    if (rc == CZ_ERR_BAD_PROOF) {
        cz_msgf(err, errlen,
                "vanilla_proof: the vanilla proofs do not verify for miner %llu, sector %llu: %s",
                (unsigned long long)r->miner_id, (unsigned long long)r->sector_number, why);
        return CZ_ERR_INVALID_ARG;
    }
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "vanilla_proof: verifying it failed: %s", why);
        return rc;
    }
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, in->pt);
    cz_fc_graph_init(&in->graph, in->pt->shape, porep_id, in->pt->api);
    return CZ_OK;
}

static void porep_release(job *j)
{
    porep_input *in = j->in;
    if (in) {
        if (in->has_c1)
            cz_fc_c1_free(&in->c1);
        free(in);
    }
    j->in = NULL;
}

static int porep_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen)
{
    const cz_fc_shape *s;
    int rc = cz_eng_fc_shape_of_id(&s, id, CZ_CIRCUIT_ID_POREP, "PoRep", err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (e->param_cache == NULL)
        return no_cache(err, errlen);
    if ((rc = files_present(e, s, err, errlen)) != CZ_OK)
        return rc;
    porep_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    in->pt = cz_fc_proof_default(s);
    j->in = in;
    return CZ_OK;
}

static int porep_load(cz_engine *e, circuit *c, const job *j)
{
    const porep_input *in = j->in;
    const cz_fc_shape *s = in->pt->shape;
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, s);
    size_t n_in, n_aux;
    int rc = cz_fc_porep_counts(&d, &n_in, &n_aux);
    if (rc != CZ_OK)
        return rc;
    char base[CZ_FC_PARAMS_NAME], what[64];
    cz_fc_porep_params_name(base, s);
    snprintf(what, sizeof what, "%s PoRep", s->name);
    return cz_eng_param_files_load(e, c, j, base, what, n_in, n_aux);
}

static int porep_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    const porep_input *in = j->in;
    char why[300];
    int rc = cz_fc_porep_witness(p->w, p->n_w, &in->c1, p->idx, cz_eng_synth_pool(e, j->prio), why,
                             sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the witness of partition %u failed: %s", p->idx, why);
        return rc;
    }
    size_t n_pub = cz_fc_public_input_count(in->pt);
    cz_fr *pub = malloc(n_pub * sizeof *pub);
    if (pub == NULL)
        return CZ_ERR_NOMEM;
    rc = cz_fc_public_inputs(pub, in->pt, &in->graph, &in->c1.replica_id, &in->c1.comm_d,
                             &in->c1.comm_r, in->c1.seed, p->idx);
    size_t bad = n_pub;
    if (rc == CZ_OK && cz_r1cs_num_inputs(p->c->r1cs) != 1 + n_pub)
        rc = CZ_ERR_BAD_FORMAT;
    for (size_t i = 0; rc == CZ_OK && i < n_pub && bad == n_pub; i++)
        if (!cz_fr_equal(&pub[i], &p->w[1 + i]))
            bad = i;
    free(pub);
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the public inputs of partition %u cannot be computed: %s", p->idx,
                cz_strerror(rc));
        return rc;
    }
    if (bad < n_pub) {
        cz_msgf(msg, msglen,
                "partition %u: public input %zu of the witness is not the one verify_seal "
                "computes",
                p->idx, bad);
        return CZ_ERR_BAD_PROOF;
    }
    return CZ_OK;
}

static bool porep_enabled(const cz_engine *e) { return e->param_cache != NULL; }

const cz_eng_kind cz_eng_kind_porep = {
    .kind = CZ_KIND_POREP,
    .name = "porep",
    .circuit_prefix = CZ_CIRCUIT_ID_POREP,
    .check = porep_check,
    .admit = porep_admit,
    .release = porep_release,
    .of_circuit = porep_of_circuit,
    .load = porep_load,
    .synthesize = porep_synthesize,
    .enabled = porep_enabled,
};
