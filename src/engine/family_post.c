/* The PoSt families, WindowPoSt partitions and WinningPoSt (cuzk/engine.h
 * cz_job_post; family.h; cuzk/filecoin/post.h), alike but for their variant:
 *
 *   proof      a RegisteredPoStProof of the family's kind, its sector shape
 *   check      the randomness 32 bytes and a field element, the blob count
 *              (Window 1 .. sector count, Winning 1) and each blob's size
 *              the shape's, partition_index 0 for Winning, below 3000 (a
 *              deadline's partitions) for Window; one partition; digest:
 *              the miner id, randomness, partition index and every blob
 *   admit      each blob read strictly into the request pool, Window's in
 *              ascending distinct sector order, each sector number at
 *              least its position in the verifier's list (partition_index
 *              x sector_count + i), then all checked in parallel on the
 *              synthesis pool: the vanilla verification but for the
 *              paths' hashes (cz_post_vanilla_check: challenges, roots,
 *              comm_r), which the witness computes and checks
 *   circuit    "wpost-<size>" / "winning-<size>", Filecoin's parameter
 *              names (cz_post_params_name), cz_post_counts
 *   witness    the circuit sectors (a short Window partition padded with
 *              its last sector, Winning's 66 challenges unrolled), the
 *              sectors in parallel, every inclusion path hashing up to
 *              comm_r_last (a blob's that does not fails the job, named:
 *              no GPU work is done for it); its public inputs
 *              verify_window_post's / verify_winning_post's
 *
 * partition_index is the partition k of the proven sectors the blobs are:
 * sector i's challenges (API 1.0) and the public inputs take sector_index
 * k x sector_count + i, so the proof verifies as partition k of the
 * verifier's list; Curio sends one chain partition at k = 0. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "engine/family.h"

typedef struct {
    const cz_post_proof_type *pt;
    cz_post_shape s;
    uint8_t randomness[32];
    unsigned k;
    cz_post_vanilla *blobs; /* n_blobs (zeroed: unread) */
    unsigned n_blobs;
} post_input;

static void post_release(void *p)
{
    post_input *in = p;
    for (unsigned i = 0; in->blobs && i < in->n_blobs; i++)
        cz_post_vanilla_free(&in->blobs[i]);
    free(in->blobs);
}

static int post_proof(const cz_eng_family *f, const void *req, cz_eng_proof *p, char *err,
                      size_t errlen)
{
    const cz_job_post *r = req;
    const cz_post_proof_type *pt = cz_post_proof_by_id(r->registered_proof);
    bool ok = pt && pt->kind == (cz_post_kind)f->variant;
    *p = (cz_eng_proof){r->registered_proof, r->sector_size, ok ? cz_fc_shape_get(pt->size) : NULL,
                        ok ? pt->name : NULL};
    return ok ? CZ_OK
              : cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                        "registered_proof %llu is %s%s: a %s needs a RegisteredPoStProof of %s",
                        (unsigned long long)r->registered_proof,
                        pt ? pt->name : "not a RegisteredPoStProof",
                        pt ? (pt->kind == CZ_POST_WINNING ? " (WinningPoSt)" : " (WindowPoSt)")
                           : "",
                        f->what,
                        f->variant == CZ_POST_WINNING
                            ? "0..4 (StackedDrgWinning 2KiB..64GiB V1)"
                            : "5..14 (StackedDrgWindow 2KiB..64GiB V1, V1_1)");
}

static cz_post_shape post_shape(const cz_eng_family *f, const cz_fc_shape *sector)
{
    cz_post_shape s;
    cz_post_shape_of(&s, (cz_post_kind)f->variant, sector);
    return s;
}

static int post_circuit(const cz_eng_family *f, const cz_fc_shape *sector,
                        char base[CZ_FC_PARAMS_NAME], size_t *n_in, size_t *n_aux)
{
    cz_post_shape s = post_shape(f, sector);
    cz_post_params_name(base, &s);
    return n_in ? cz_post_counts(&s, n_in, n_aux) : CZ_OK;
}

static int post_check(const cz_eng_family *f, const void *req, const cz_eng_proof *p,
                      uint32_t *n_parts, cz_sha256_ctx *h, char *err, size_t errlen)
{
    const cz_job_post *r = req;
    const bool winning = f->variant == CZ_POST_WINNING;
    if (r->randomness == NULL || r->randomness_len != 32)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "randomness: %zu bytes; the PoSt challenge seed is 32",
                       r->randomness ? r->randomness_len : 0);
    if (cz_post_randomness_check(r->randomness) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "randomness: not a field element (as the chain's randomness is used, "
                       "its byte 31 must be masked with 0x3f)");
    cz_post_shape s = post_shape(f, p->sector);
    unsigned max = cz_post_max_blobs(&s);
    if (r->n_vanilla == 0 || r->n_vanilla > max) {
        if (winning)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "vanilla_proofs: %zu given; a WinningPoSt takes exactly one (the "
                           "challenged sector's, of %u inclusion proofs)",
                           r->n_vanilla, cz_post_blob_challenges(&s));
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proofs: %zu given; a %s WindowPoSt partition takes 1 to %u, one "
                       "per sector",
                       r->n_vanilla, p->sector->name, max);
    }
    if (winning && r->partition_index != 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "partition_index %u: a WinningPoSt has one partition", r->partition_index);
    if (r->partition_index >= CZ_POST_MAX_PARTITIONS)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "partition_index %u: a WindowPoSt proof covers partitions of one "
                       "deadline, which has at most %u (builtin-actors' "
                       "max_partitions_per_deadline)",
                       r->partition_index, CZ_POST_MAX_PARTITIONS);
    size_t bytes = cz_post_vanilla_bytes(&s);
    for (size_t i = 0; i < r->n_vanilla; i++)
        if (r->vanilla[i] == NULL || r->vanilla_len[i] != bytes)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "vanilla_proofs[%zu]: %zu bytes; a %s %s FallbackPoStSectorProof in "
                           "bincode is %zu bytes",
                           i, r->vanilla[i] ? r->vanilla_len[i] : 0, p->sector->name, f->what,
                           bytes);
    *n_parts = 1;
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update(h, r->randomness, 32);
    cz_sha256_update_u64(h, r->partition_index);
    cz_eng_digest_blobs(h, r->vanilla, r->vanilla_len, r->n_vanilla);
    return CZ_OK;
}

/* Blob i read, and in its place in the verifier's ascending list. */
static int read_blob(const cz_eng_admit *a, void *p, size_t i, char *why, size_t whylen)
{
    const cz_job_post *r = a->req;
    post_input *in = p;
    int rc = cz_post_vanilla_read(&in->blobs[i], &in->s, r->vanilla[i], r->vanilla_len[i], a->alloc,
                                  why, whylen);
    if (rc != CZ_OK)
        return rc;
    /* the verifier's list is ascending distinct sector numbers, so the one
     * at position p = k x sector_count + i is at least p */
    uint64_t pos = cz_post_sector_index(&in->s, in->k, i), id = in->blobs[i].sector_id;
    if (id < pos)
        return cz_fail(why, whylen, CZ_ERR_INVALID_ARG,
                       "sector %llu cannot be at position %llu of the proven sectors "
                       "(partition_index %u x %u sectors + %zu), whose numbers ascend from 0: "
                       "partition_index is wrong for these sectors",
                       (unsigned long long)id, (unsigned long long)pos, in->k, in->s.sector_count,
                       i);
    if (i > 0 && id <= in->blobs[i - 1].sector_id)
        return cz_fail(why, whylen, CZ_ERR_INVALID_ARG,
                       "sector %llu after sector %llu: the sectors must be in ascending order, "
                       "each once (verify_window_post orders them so)",
                       (unsigned long long)id, (unsigned long long)in->blobs[i - 1].sector_id);
    return CZ_OK;
}

static int check_blob(const cz_eng_admit *a, void *p, size_t i, char *why, size_t whylen)
{
    const post_input *in = p;
    return cz_post_vanilla_check(&in->s, in->pt->api, in->randomness,
                                 cz_post_sector_index(&in->s, in->k, i), &in->blobs[i], why,
                                 whylen);
}

static int post_admit(const cz_eng_admit *a, void *p, char *err, size_t errlen)
{
    const cz_job_post *r = a->req;
    post_input *in = p;
    in->pt = cz_post_proof_by_id(r->registered_proof);
    in->s = post_shape(a->f, a->sector);
    memcpy(in->randomness, r->randomness, 32);
    in->k = r->partition_index;
    in->n_blobs = (unsigned)r->n_vanilla;
    if ((in->blobs = calloc(in->n_blobs, sizeof *in->blobs)) == NULL)
        return CZ_ERR_NOMEM;
    size_t i;
    char why[400];
    int rc = cz_eng_admit_blobs(a, in, in->n_blobs, read_blob, check_blob, &i, why, sizeof why, err,
                                errlen);
    if (rc == CZ_ERR_BAD_PROOF)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proofs[%zu] (sector %llu): the sector proof does not verify for "
                       "this randomness%s: %s",
                       i, (unsigned long long)in->blobs[i].sector_id,
                       in->s.kind == CZ_POST_WINDOW && in->pt->api != CZ_FC_API_1_2
                           ? " and partition_index"
                           : "",
                       why);
    return rc;
}

static int post_witness(const cz_eng_family *f, const void *p, unsigned k, cz_fr *w, size_t n_w,
                        cz_pool *pool, char *why, size_t whylen)
{
    const post_input *in = p;
    const cz_post_shape *s = &in->s;
    cz_post_circuit_sector *sec = malloc(s->sector_count * sizeof *sec);
    int rc = sec ? cz_post_circuit_sectors(sec, s, in->blobs, in->n_blobs) : CZ_ERR_NOMEM;
    cz_post_bad_path bad;
    if (rc == CZ_OK)
        rc = cz_post_witness(w, n_w, s, sec, pool, &bad, why, whylen);
    free(sec);
    if (rc == CZ_ERR_BAD_PROOF) {
        unsigned b, at;
        cz_post_circuit_source(s, in->n_blobs, bad.sector, bad.challenge, &b, &at);
        cz_msgf(why, whylen,
                "vanilla_proofs[%u] (sector %llu): the sector proof does not verify: inclusion "
                "proof %u does not hash up to comm_r_last",
                b, (unsigned long long)in->blobs[b].sector_id, at);
    }
    return rc;
}

static int post_public_inputs(const void *p, unsigned k, cz_fr *out, size_t *n)
{
    (void)k; /* one partition: the proven sectors' partition is in->k */
    const post_input *in = p;
    *n = cz_post_public_input_count(&in->s);
    cz_post_public_sector *pubs = out ? malloc(in->n_blobs * sizeof *pubs) : NULL;
    if (pubs == NULL)
        return out ? CZ_ERR_NOMEM : CZ_OK;
    for (unsigned i = 0; i < in->n_blobs; i++)
        pubs[i] = (cz_post_public_sector){in->blobs[i].sector_id, in->blobs[i].comm_r};
    int rc =
        cz_post_public_inputs(out, &in->s, in->pt->api, in->randomness, pubs, in->n_blobs, in->k);
    free(pubs);
    return rc;
}

const cz_eng_family_hooks cz_eng_post_hooks = CZ_ENG_FAMILY_HOOKS(post, post_input);
