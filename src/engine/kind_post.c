/* The PoSt kinds, WindowPoSt partitions and WinningPoSt (cuzk/engine.h
 * cz_job_post; kind.h; cuzk/post.h):
 *
 *   check       the registered PoSt proof is known and of the job's kind,
 *               the sector size (when given) is its, the randomness 32
 *               bytes and a field element, the blob count (Window 1 ..
 *               sector count, Winning 1) and each blob's size the shape's,
 *               partition_index 0 for Winning, below 3000 (a deadline's
 *               partitions) for Window; the parameter files exist
 *               when the circuit is not cached; digest: the registered
 *               proof, miner id, randomness, partition index and every blob
 *   admit       each blob read strictly into the request pool, Window's in
 *               ascending distinct sector order, each sector number at
 *               least its position in the verifier's list (partition_index
 *               x sector_count + i), each checked in parallel
 *               on the synthesis pool: the vanilla verification but for the
 *               paths' hashes (cz_post_vanilla_check: challenges, roots,
 *               comm_r), which the witness computes and checks
 *   load        "wpost-<size>" / "winning-<size>": <param_cache>/<name>
 *               .params, .vk and .pce, <name> Filecoin's
 *               (cz_post_params_name), the counts the circuit's
 *   synthesize  the circuit sectors (a short Window partition padded with
 *               its last sector, Winning's 66 challenges unrolled), the
 *               witness with the sectors in parallel on the synthesis
 *               pool, every inclusion path hashing up to comm_r_last (a
 *               blob's that does not fails the job, named: no GPU work is
 *               done for it), then its public inputs compared with the
 *               ones verify_window_post / verify_winning_post recompute.
 *
 * partition_index is the partition k of the proven sectors the blobs are:
 * sector i's challenges (API 1.0) and the public inputs take sector_index
 * k x sector_count + i, so the proof verifies as partition k of the
 * verifier's list; Curio sends one chain partition at k = 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/post.h"
#include "engine/engine_internal.h"

typedef struct {
    const cz_post_proof_type *pt;
    cz_post_shape s;
    uint8_t randomness[32];
    unsigned k;
    cz_resv_allocator ra; /* the blobs' memory, from the request pool */
    cz_post_vanilla *blobs;
    unsigned n_blobs, n_read; /* given; read so far (0 in a preload's record) */
} post_input;

static cz_post_kind post_kind(cz_job_kind k)
{
    return k == CZ_KIND_WINNING_POST ? CZ_POST_WINNING : CZ_POST_WINDOW;
}

static const char *what_of(cz_post_kind k)
{
    return k == CZ_POST_WINNING ? "WinningPoSt" : "WindowPoSt";
}

static const char *prefix_of(cz_post_kind k)
{
    return k == CZ_POST_WINNING ? CZ_CIRCUIT_ID_WINNING : CZ_CIRCUIT_ID_WINDOW;
}

static int files_present(const cz_engine *e, const cz_post_shape *s, char *err, size_t errlen)
{
    static const char PCE_CMD_WINDOW[] =
        "cuzk-bench params --circuit wpost --sector-size SIZE --pce-only --out DIR";
    static const char PCE_CMD_WINNING[] =
        "cuzk-bench params --circuit winning --sector-size SIZE --pce-only --out DIR";
    char base[CZ_FC_PARAMS_NAME], what[64];
    cz_post_params_name(base, s);
    snprintf(what, sizeof what, "%s %s", s->tree.name, what_of(s->kind));
    return cz_eng_param_files_present(e, base, what,
                                      s->kind == CZ_POST_WINNING ? PCE_CMD_WINNING : PCE_CMD_WINDOW,
                                      err, errlen);
}

static int no_cache(cz_post_kind k, char *err, size_t errlen)
{
    cz_msgf(err, errlen, "%s needs a param cache (srs.param_cache): none is configured",
            what_of(k));
    return CZ_ERR_UNSUPPORTED;
}

static int post_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h,
                      char *err, size_t errlen)
{
    const cz_job_post *r = req->input;
    const cz_post_kind want = post_kind(j->k->kind);
    if (e->param_cache == NULL)
        return no_cache(want, err, errlen);
    const cz_post_proof_type *pt = cz_post_proof_by_id(r->registered_proof);
    if (pt == NULL || pt->kind != want) {
        cz_msgf(err, errlen,
                "registered_proof %llu is %s%s: a %s needs a RegisteredPoStProof of %s",
                (unsigned long long)r->registered_proof,
                pt ? pt->name : "not a RegisteredPoStProof",
                pt ? (pt->kind == CZ_POST_WINNING ? " (WinningPoSt)" : " (WindowPoSt)") : "",
                what_of(want),
                want == CZ_POST_WINNING ? "0..4 (StackedDrgWinning 2KiB..64GiB V1)"
                                        : "5..14 (StackedDrgWindow 2KiB..64GiB V1, V1_1)");
        return CZ_ERR_INVALID_ARG;
    }
    const cz_fc_shape *sec = cz_fc_shape_get(pt->size);
    if (r->sector_size != 0 && r->sector_size != sec->sector_size) {
        cz_msgf(err, errlen, "sector_size %llu is not the sector size of %s (%llu bytes)",
                (unsigned long long)r->sector_size, pt->name,
                (unsigned long long)sec->sector_size);
        return CZ_ERR_INVALID_ARG;
    }
    if (r->randomness == NULL || r->randomness_len != 32) {
        cz_msgf(err, errlen, "randomness: %zu bytes; the PoSt challenge seed is 32",
                r->randomness ? r->randomness_len : 0);
        return CZ_ERR_INVALID_ARG;
    }
    if (cz_post_randomness_check(r->randomness) != CZ_OK) {
        cz_msgf(err, errlen, "randomness: not a field element (as the chain's randomness is "
                             "used, its byte 31 must be masked with 0x3f)");
        return CZ_ERR_INVALID_ARG;
    }
    cz_post_shape s;
    cz_post_shape_of(&s, want, sec);
    unsigned max = cz_post_max_blobs(&s);
    if (r->n_vanilla == 0 || r->n_vanilla > max) {
        if (want == CZ_POST_WINNING)
            cz_msgf(err, errlen,
                    "vanilla_proofs: %zu given; a WinningPoSt takes exactly one (the challenged "
                    "sector's, of %u inclusion proofs)",
                    r->n_vanilla, cz_post_blob_challenges(&s));
        else
            cz_msgf(err, errlen,
                    "vanilla_proofs: %zu given; a %s WindowPoSt partition takes 1 to %u, one "
                    "per sector",
                    r->n_vanilla, sec->name, max);
        return CZ_ERR_INVALID_ARG;
    }
    if (want == CZ_POST_WINNING && r->partition_index != 0) {
        cz_msgf(err, errlen, "partition_index %u: a WinningPoSt has one partition",
                r->partition_index);
        return CZ_ERR_INVALID_ARG;
    }
    if (r->partition_index >= CZ_POST_MAX_PARTITIONS) {
        cz_msgf(err, errlen,
                "partition_index %u: a WindowPoSt proof covers partitions of one deadline, "
                "which has at most %u (builtin-actors' max_partitions_per_deadline)",
                r->partition_index, CZ_POST_MAX_PARTITIONS);
        return CZ_ERR_INVALID_ARG;
    }
    size_t bytes = cz_post_vanilla_bytes(&s);
    for (size_t i = 0; i < r->n_vanilla; i++)
        if (r->vanilla[i] == NULL || r->vanilla_len[i] != bytes) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%zu]: %zu bytes; a %s %s FallbackPoStSectorProof in "
                    "bincode is %zu bytes",
                    i, r->vanilla[i] ? r->vanilla_len[i] : 0, sec->name, what_of(want), bytes);
            return CZ_ERR_INVALID_ARG;
        }
    cz_eng_fc_circuit_id(j->circuit_id, prefix_of(want), sec);
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    bool cached = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    int rc;
    if (!cached && (rc = files_present(e, &s, err, errlen)) != CZ_OK)
        return rc;
    j->n_parts = 1;
    cz_sha256_update_u64(h, r->registered_proof);
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update(h, r->randomness, 32);
    cz_sha256_update_u64(h, r->partition_index);
    for (size_t i = 0; i < r->n_vanilla; i++) {
        cz_sha256_update_u64(h, r->vanilla_len[i]);
        cz_sha256_update(h, r->vanilla[i], r->vanilla_len[i]);
    }
    return CZ_OK;
}

typedef struct {
    const post_input *in;
    int *rc;
    char (*why)[400];
} verify_job;

static void verify_blobs(void *ctx, size_t begin, size_t end)
{
    verify_job *v = ctx;
    const post_input *in = v->in;
    for (size_t i = begin; i < end; i++) {
        uint64_t idx = cz_post_sector_index(&in->s, in->k, i);
        v->rc[i] = cz_post_vanilla_check(&in->s, in->pt->api, in->randomness, idx,
                                         &in->blobs[i], v->why[i], sizeof v->why[i]);
    }
}

static int post_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    const cz_job_post *r = req->input;
    post_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    j->in = in;
    in->pt = cz_post_proof_by_id(r->registered_proof);
    cz_post_shape_of(&in->s, post_kind(j->k->kind), cz_fc_shape_get(in->pt->size));
    memcpy(in->randomness, r->randomness, 32);
    in->k = r->partition_index;
    in->n_blobs = (unsigned)r->n_vanilla;
    cz_buf_tag tag = {j->seq, UINT32_MAX, "queued"};
    cz_resv_allocator_init(&in->ra, e->request_pool, &tag);
    in->blobs = calloc(in->n_blobs, sizeof *in->blobs);
    int *rcs = calloc(in->n_blobs, sizeof *rcs);
    char(*why)[400] = calloc(in->n_blobs, sizeof *why);
    int rc = CZ_OK;
    if (in->blobs == NULL || rcs == NULL || why == NULL) {
        rc = CZ_ERR_NOMEM;
        goto out;
    }
    while (in->n_read < in->n_blobs) {
        unsigned i = in->n_read;
        rc = cz_post_vanilla_read(&in->blobs[i], &in->s, r->vanilla[i], r->vanilla_len[i],
                                  &in->ra.a, why[0], sizeof why[0]);
        if (rc == CZ_OK)
            in->n_read++; /* release frees it */
        if (rc == CZ_ERR_NOMEM) {
            rc = cz_eng_pool_full(e, "these vanilla proofs", err, errlen);
            goto out;
        }
        if (rc != CZ_OK) {
            cz_msgf(err, errlen, "vanilla_proofs[%u]: %s", i, why[0]);
            goto out;
        }
        /* the verifier's list is ascending distinct sector numbers, so the
         * one at position p = k x sector_count + i is at least p */
        uint64_t pos = cz_post_sector_index(&in->s, in->k, i);
        if (in->blobs[i].sector_id < pos) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%u]: sector %llu cannot be at position %llu of the proven "
                    "sectors (partition_index %u x %u sectors + %u), whose numbers ascend from "
                    "0: partition_index is wrong for these sectors",
                    i, (unsigned long long)in->blobs[i].sector_id, (unsigned long long)pos,
                    in->k, in->s.sector_count, i);
            rc = CZ_ERR_INVALID_ARG;
            goto out;
        }
        if (i > 0 && in->blobs[i].sector_id <= in->blobs[i - 1].sector_id) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%u]: sector %llu after sector %llu: the sectors must be in "
                    "ascending order, each once (verify_window_post orders them so)",
                    i, (unsigned long long)in->blobs[i].sector_id,
                    (unsigned long long)in->blobs[i - 1].sector_id);
            rc = CZ_ERR_INVALID_ARG;
            goto out;
        }
    }
    verify_job v = {in, rcs, why};
    cz_pool_parallel_for(cz_eng_synth_pool(e, req->priority), in->n_blobs, 1, verify_blobs, &v);
    for (unsigned i = 0; i < in->n_blobs; i++) {
        if (rcs[i] == CZ_OK)
            continue;
        rc = rcs[i];
        if (rc == CZ_ERR_BAD_PROOF || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_INVALID_ARG) {
            cz_msgf(err, errlen,
                    "vanilla_proofs[%u] (sector %llu): the sector proof does not verify for "
                    "this randomness%s: %s",
                    i, (unsigned long long)in->blobs[i].sector_id,
                    in->s.kind == CZ_POST_WINDOW && in->pt->api != CZ_FC_API_1_2
                        ? " and partition_index"
                        : "",
                    why[i]);
            rc = CZ_ERR_INVALID_ARG;
        } else {
            cz_msgf(err, errlen, "vanilla_proofs[%u]: verifying it failed: %s", i, why[i]);
        }
        break;
    }
out:
    free(rcs);
    free(why);
    return rc;
}

static void post_release(job *j)
{
    post_input *in = j->in;
    if (in) {
        for (unsigned i = 0; in->blobs && i < in->n_read; i++)
            cz_post_vanilla_free(&in->blobs[i]);
        free(in->blobs);
        free(in);
    }
    j->in = NULL;
}

static int post_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen)
{
    const cz_post_kind k = post_kind(j->k->kind);
    const cz_fc_shape *sec;
    int rc = cz_eng_fc_shape_of_id(&sec, id, prefix_of(k), what_of(k), err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (e->param_cache == NULL)
        return no_cache(k, err, errlen);
    cz_post_shape s;
    cz_post_shape_of(&s, k, sec);
    if ((rc = files_present(e, &s, err, errlen)) != CZ_OK)
        return rc;
    post_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    in->s = s;
    j->in = in;
    return CZ_OK;
}

static int post_load(cz_engine *e, circuit *c, const job *j)
{
    const post_input *in = j->in;
    size_t n_in, n_aux;
    int rc = cz_post_counts(&in->s, &n_in, &n_aux);
    if (rc != CZ_OK)
        return rc;
    char base[CZ_FC_PARAMS_NAME], what[64];
    cz_post_params_name(base, &in->s);
    snprintf(what, sizeof what, "%s %s", in->s.tree.name, what_of(in->s.kind));
    return cz_eng_param_files_load(e, c, j, base, what, n_in, n_aux);
}

static int post_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    const post_input *in = j->in;
    const cz_post_shape *s = &in->s;
    size_t m = cz_post_public_input_count(s);
    cz_post_circuit_sector *sec = malloc(s->sector_count * sizeof *sec);
    cz_post_public_sector *pubs = malloc(in->n_blobs * sizeof *pubs);
    cz_fr *want = malloc(m * sizeof *want);
    int rc = sec && pubs && want ? CZ_OK : CZ_ERR_NOMEM;
    char why[300] = "";
    cz_post_bad_path bad;
    if (rc == CZ_OK)
        rc = cz_post_circuit_sectors(sec, s, in->blobs, in->n_blobs);
    if (rc == CZ_OK)
        rc = cz_post_witness(p->w, p->n_w, s, sec, cz_eng_synth_pool(e, j->prio), &bad, why,
                             sizeof why);
    if (rc == CZ_ERR_BAD_PROOF) {
        unsigned b, at;
        cz_post_circuit_source(s, in->n_blobs, bad.sector, bad.challenge, &b, &at);
        cz_msgf(msg, msglen,
                "vanilla_proofs[%u] (sector %llu): the sector proof does not verify: inclusion "
                "proof %u does not hash up to comm_r_last",
                b, (unsigned long long)in->blobs[b].sector_id, at);
        goto out;
    }
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the %s witness failed: %s", what_of(s->kind),
                why[0] ? why : cz_strerror(rc));
        goto out;
    }
    for (unsigned i = 0; i < in->n_blobs; i++)
        pubs[i] = (cz_post_public_sector){in->blobs[i].sector_id, in->blobs[i].comm_r};
    rc = cz_post_public_inputs(want, s, in->pt->api, in->randomness, pubs, in->n_blobs, in->k);
    if (rc == CZ_OK && cz_r1cs_num_inputs(p->c->r1cs) != 1 + m)
        rc = CZ_ERR_BAD_FORMAT;
    if (rc != CZ_OK) {
        cz_msgf(msg, msglen, "the %s public inputs cannot be computed: %s", what_of(s->kind),
                cz_strerror(rc));
        goto out;
    }
    for (size_t i = 0; i < m; i++)
        if (!cz_fr_equal(&want[i], &p->w[1 + i])) {
            cz_msgf(msg, msglen,
                    "public input %zu (circuit sector %zu) of the witness is not the one the "
                    "%s verifier computes",
                    i, i / (1 + s->challenge_count), what_of(s->kind));
            rc = CZ_ERR_BAD_PROOF;
            break;
        }
out:
    free(sec);
    free(pubs);
    free(want);
    return rc;
}

static bool post_enabled(const cz_engine *e) { return e->param_cache != NULL; }

const cz_eng_kind cz_eng_kind_window_post = {
    .kind = CZ_KIND_WINDOW_POST,
    .name = "window-post",
    .circuit_prefix = CZ_CIRCUIT_ID_WINDOW,
    .check = post_check,
    .admit = post_admit,
    .release = post_release,
    .of_circuit = post_of_circuit,
    .load = post_load,
    .synthesize = post_synthesize,
    .enabled = post_enabled,
};

const cz_eng_kind cz_eng_kind_winning_post = {
    .kind = CZ_KIND_WINNING_POST,
    .name = "winning-post",
    .circuit_prefix = CZ_CIRCUIT_ID_WINNING,
    .check = post_check,
    .admit = post_admit,
    .release = post_release,
    .of_circuit = post_of_circuit,
    .load = post_load,
    .synthesize = post_synthesize,
    .enabled = post_enabled,
};
