/* The SnapDeals kind: an EmptySectorUpdate proof from its vanilla
 * partition proofs (cuzk/engine.h cz_job_snap; kind.h).
 *
 *   check       the registered update proof is known, the sector size
 *               (when given) is its, one vanilla proof per partition of
 *               the sector's size, the commitments readable (32 bytes or
 *               their CIDs, field elements); the parameter files exist
 *               when the circuit is not cached; digest: the registered
 *               proof, sector number, miner id, the commitments and every
 *               vanilla proof
 *   admit       each partition proof read strictly into the request pool
 *               and vanilla-verified (cz_fc_update_verify) with the
 *               commitments and the shape's h, the partitions in parallel
 *               on the synthesis pool
 *   load        "snap-<size>": <param_cache>/<name>.params, .vk and .pce,
 *               <name> Filecoin's (cz_fc_update_params_name), as
 *               param_files.c loads them, the counts the circuit's
 *               (cz_fc_update_counts)
 *   synthesize  cz_fc_update_witness on the synthesis pool (challenges in
 *               parallel), then its public inputs compared with the ones
 *               verify_empty_sector_update_proof recomputes
 *               (cz_fc_update_public_inputs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "engine/engine_internal.h"

typedef struct {
    const cz_fc_shape *shape;
    cz_fc_update_shape u;
    cz_fc_update_public pub; /* k set per partition */
    cz_resv_allocator ra;    /* the proofs' memory, from the request pool */
    cz_fc_update_partition_proof *proofs;
    unsigned n_proofs; /* read so far (0 in a preload's record) */
} snap_input;

static const char *const UPDATE_NAME[CZ_FC__SHAPES] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
    "StackedDrg64GiBV1"};
static const char PCE_CMD[] =
    "cuzk-bench params --circuit snap --sector-size SIZE --pce-only --out DIR";

static int update_shape(const cz_fc_shape *s, cz_fc_update_shape *u)
{
    return cz_fc_update_shape_of(u, (uint64_t)1 << s->log_nodes);
}

static int files_present(const cz_engine *e, const cz_fc_shape *s, char *err, size_t errlen)
{
    cz_fc_update_shape u;
    if (update_shape(s, &u) != CZ_OK)
        return CZ_ERR_INVALID_ARG;
    char base[CZ_FC_PARAMS_NAME], what[64];
    cz_fc_update_params_name(base, &u);
    snprintf(what, sizeof what, "%s SnapDeals", s->name);
    return cz_eng_param_files_present(e, base, what, PCE_CMD, err, errlen);
}

static int no_cache(char *err, size_t errlen)
{
    cz_msgf(err, errlen, "SnapDeals needs a param cache (srs.param_cache): none is configured");
    return CZ_ERR_UNSUPPORTED;
}

/* The three commitments of r into pub: CZ_OK, or the reader's error with
 * err naming the field. */
static int commitments(const cz_job_snap *r, cz_fc_update_public *pub, char *err, size_t errlen)
{
    const struct {
        const char *name;
        cz_fc_comm_kind kind;
        const uint8_t *b;
        size_t len;
        cz_fc_d *out;
    } f[3] = {
        {"comm_r_old", CZ_FC_COMM_R, r->comm_r_old, r->comm_r_old_len, &pub->comm_r_old},
        {"comm_d_new", CZ_FC_COMM_D, r->comm_d_new, r->comm_d_new_len, &pub->comm_d_new},
        {"comm_r_new", CZ_FC_COMM_R, r->comm_r_new, r->comm_r_new_len, &pub->comm_r_new},
    };
    for (int i = 0; i < 3; i++) {
        char why[300];
        if (f[i].b == NULL || f[i].len == 0) {
            cz_msgf(err, errlen, "%s: missing (32 bytes, or its CID)", f[i].name);
            return CZ_ERR_INVALID_ARG;
        }
        int rc = cz_fc_commitment_read(f[i].out, f[i].kind, f[i].b, f[i].len, why, sizeof why);
        if (rc != CZ_OK) {
            cz_msgf(err, errlen, "%s: %s", f[i].name, why);
            return CZ_ERR_INVALID_ARG;
        }
    }
    return CZ_OK;
}

static int snap_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h,
                      char *err, size_t errlen)
{
    const cz_job_snap *r = req->input;
    if (e->param_cache == NULL)
        return no_cache(err, errlen);
    const cz_fc_shape *s = cz_fc_update_proof_shape(r->registered_proof);
    if (s == NULL) {
        cz_msgf(err, errlen,
                "registered_proof %llu is not a RegisteredUpdateProof (0..4: StackedDrg 2KiB, "
                "8MiB, 512MiB, 32GiB, 64GiB V1)",
                (unsigned long long)r->registered_proof);
        return CZ_ERR_INVALID_ARG;
    }
    if (r->sector_size != 0 && r->sector_size != s->sector_size) {
        cz_msgf(err, errlen, "sector_size %llu is not the sector size of %s (%llu bytes)",
                (unsigned long long)r->sector_size, UPDATE_NAME[s->id],
                (unsigned long long)s->sector_size);
        return CZ_ERR_INVALID_ARG;
    }
    cz_fc_update_shape u;
    if (update_shape(s, &u) != CZ_OK)
        return CZ_ERR_INVALID_ARG;
    if (r->n_vanilla != u.partitions) {
        cz_msgf(err, errlen,
                "vanilla_proofs: %zu given; a %s update has %u partitions, one vanilla "
                "PartitionProof each",
                r->n_vanilla, s->name, u.partitions);
        return CZ_ERR_INVALID_ARG;
    }
    size_t want = cz_fc_update_proof_bytes(&u);
    for (unsigned k = 0; k < u.partitions; k++)
        if (r->vanilla_len[k] != want) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%u]: %zu bytes; a %s partition proof in bincode is %zu "
                    "bytes",
                    k, r->vanilla_len[k], s->name, want);
            return CZ_ERR_INVALID_ARG;
        }
    cz_fc_update_public pub;
    int rc = commitments(r, &pub, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_eng_fc_circuit_id(j->circuit_id, CZ_CIRCUIT_ID_SNAP, s);
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    bool cached = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    if (!cached && (rc = files_present(e, s, err, errlen)) != CZ_OK)
        return rc;
    j->n_parts = u.partitions;
    cz_sha256_update_u64(h, r->registered_proof);
    cz_sha256_update_u64(h, r->sector_number);
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update(h, pub.comm_r_old.b, 32);
    cz_sha256_update(h, pub.comm_d_new.b, 32);
    cz_sha256_update(h, pub.comm_r_new.b, 32);
    for (unsigned k = 0; k < u.partitions; k++) {
        cz_sha256_update_u64(h, r->vanilla_len[k]);
        cz_sha256_update(h, r->vanilla[k], r->vanilla_len[k]);
    }
    return CZ_OK;
}

typedef struct {
    const snap_input *in;
    int *rc;
    char (*why)[400];
} verify_job;

static void verify_parts(void *ctx, size_t begin, size_t end)
{
    verify_job *v = ctx;
    for (size_t k = begin; k < end; k++) {
        cz_fc_update_public pub = v->in->pub;
        pub.k = (unsigned)k;
        v->rc[k] = cz_fc_update_verify(&v->in->u, &pub, &v->in->proofs[k], v->why[k],
                                       sizeof v->why[k]);
    }
}

static int snap_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    const cz_job_snap *r = req->input;
    snap_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    j->in = in;
    in->shape = cz_fc_update_proof_shape(r->registered_proof);
    update_shape(in->shape, &in->u);
    int rc = commitments(r, &in->pub, err, errlen);
    if (rc != CZ_OK)
        return rc;
    in->pub.h = in->u.h;
    const unsigned n = in->u.partitions;
    cz_buf_tag tag = {j->seq, UINT32_MAX, "queued"};
    cz_resv_allocator_init(&in->ra, e->request_pool, &tag);
    in->proofs = calloc(n, sizeof *in->proofs);
    int *rcs = calloc(n, sizeof *rcs);
    char(*why)[400] = calloc(n, sizeof *why);
    if (in->proofs == NULL || rcs == NULL || why == NULL) {
        free(rcs);
        free(why);
        return CZ_ERR_NOMEM;
    }
    for (; in->n_proofs < n; in->n_proofs++) {
        unsigned k = in->n_proofs;
        rc = cz_fc_update_proof_read(&in->proofs[k], &in->u, r->vanilla[k], r->vanilla_len[k],
                                     &in->ra.a, why[0], sizeof why[0]);
        if (rc == CZ_ERR_NOMEM) {
            rc = cz_eng_pool_full(e, "these vanilla proofs", err, errlen);
            goto out;
        }
        if (rc != CZ_OK) {
            cz_msgf(err, errlen, "vanilla_proofs[%u]: %s", k, why[0]);
            goto out;
        }
    }
    verify_job v = {in, rcs, why};
    cz_pool_parallel_for(cz_eng_synth_pool(e, req->priority), n, 1, verify_parts, &v);
    for (unsigned k = 0; k < n; k++) {
        if (rcs[k] == CZ_OK)
            continue;
        rc = rcs[k];
        if (rc == CZ_ERR_BAD_PROOF || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_INVALID_ARG) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%u]: the partition proof does not verify against comm_r_old, "
                    "comm_d_new and comm_r_new: %s",
                    k, why[k]);
            rc = CZ_ERR_INVALID_ARG;
        } else {
            cz_msgf(err, errlen, "vanilla_proofs[%u]: verifying it failed: %s", k, why[k]);
        }
        break;
    }
out:
    free(rcs);
    free(why);
    return rc;
}

static void snap_release(job *j)
{
    snap_input *in = j->in;
    if (in) {
        for (unsigned k = 0; in->proofs && k < in->n_proofs; k++)
            cz_fc_update_proof_free(&in->proofs[k]);
        free(in->proofs);
        free(in);
    }
    j->in = NULL;
}

static int snap_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen)
{
    const cz_fc_shape *s;
    int rc = cz_eng_fc_shape_of_id(&s, id, CZ_CIRCUIT_ID_SNAP, "SnapDeals", err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (e->param_cache == NULL)
        return no_cache(err, errlen);
    if ((rc = files_present(e, s, err, errlen)) != CZ_OK)
        return rc;
    snap_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    in->shape = s;
    update_shape(s, &in->u);
    j->in = in;
    return CZ_OK;
}

static int snap_load(cz_engine *e, circuit *c, const job *j)
{
    const snap_input *in = j->in;
    size_t n_in, n_aux;
    int rc = cz_fc_update_counts(&in->u, &n_in, &n_aux);
    if (rc != CZ_OK)
        return rc;
    char base[CZ_FC_PARAMS_NAME], what[64];
    cz_fc_update_params_name(base, &in->u);
    snprintf(what, sizeof what, "%s SnapDeals", in->shape->name);
    return cz_eng_param_files_load(e, c, j, base, what, n_in, n_aux);
}

static int snap_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    const snap_input *in = j->in;
    cz_fc_update_public pub = in->pub;
    pub.k = p->idx;
    char why[300];
    int rc = cz_fc_update_witness(p->w, p->n_w, &in->u, &pub, &in->proofs[p->idx], cz_eng_synth_pool(e, j->prio),
                                  why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the witness of partition %u failed: %s", p->idx, why);
        return rc;
    }
    cz_fr pub_in[CZ_FC_UPDATE_INPUTS];
    rc = cz_fc_update_public_inputs(pub_in, &in->u, &pub);
    if (rc == CZ_OK && cz_r1cs_num_inputs(p->c->r1cs) != 1 + CZ_FC_UPDATE_INPUTS)
        rc = CZ_ERR_BAD_FORMAT;
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the public inputs of partition %u cannot be computed: %s", p->idx,
                cz_strerror(rc));
        return rc;
    }
    for (unsigned i = 0; i < CZ_FC_UPDATE_INPUTS; i++)
        if (!cz_fr_equal(&pub_in[i], &p->w[1 + i])) {
            cz_msgf(msg, msglen,
                    "partition %u: public input %u of the witness is not the one "
                    "verify_empty_sector_update_proof computes",
                    p->idx, i);
            return CZ_ERR_BAD_PROOF;
        }
    return CZ_OK;
}

static bool snap_enabled(const cz_engine *e) { return e->param_cache != NULL; }

const cz_eng_kind cz_eng_kind_snap = {
    .kind = CZ_KIND_SNAP,
    .name = "snap",
    .circuit_prefix = CZ_CIRCUIT_ID_SNAP,
    .check = snap_check,
    .admit = snap_admit,
    .release = snap_release,
    .of_circuit = snap_of_circuit,
    .load = snap_load,
    .synthesize = snap_synthesize,
    .enabled = snap_enabled,
};
