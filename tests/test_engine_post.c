/* The engine's PoSt kinds (cuzk/engine.h cz_job_post) with real proofs:
 * INSECURE 2KiB WindowPoSt and WinningPoSt parameters made here (seconds:
 * 21,866 and 90,750 constraints) in a param cache under Filecoin's names,
 * vanilla proofs of two sealed 2KiB CC sectors.
 *
 *   - proofs: a full Window partition (API 1.2), a short one (one sector,
 *     padded), a Window V1 partition at partition_index 1 (API 1.0:
 *     challenges from the sector's position), a Winning; each 192 bytes,
 *     and valid under cz_post_verify with inputs computed from the public
 *     sectors alone, invalid for another randomness;
 *   - refusals at submit, each naming its reason, nothing queued: the
 *     other kind's registered proof, unknown ones, a sector size of another
 *     proof, randomness of the wrong length or not a field element, blob
 *     counts, a short blob, a tampered root (vanilla checks), sectors out
 *     of order or repeated, another randomness, another partition index
 *     under API 1.0, partition_index on a Winning;
 *   - a tampered path (a sibling): accepted at submit, failed by the
 *     witness before any proving, naming the blob and the path;
 *   - under a load: one synthesis worker and a device held by NORMAL
 *     synthetic jobs (standing in for PoRep partitions: the same
 *     priority), a WindowPoSt (HIGH) and a WinningPoSt (CRITICAL) are
 *     synthesized at once and are the next two at the device, Winning
 *     first.
 * Afterwards every budget counter is back to its idle value.  Sanitizer
 * builds (TF_SANITIZED) leave the WinningPoSt's setup and proofs out (a
 * 90,750-constraint setup there takes minutes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/groth16.h"
#include "engine_common.h"
#include "tf.h"

#define MINER 1000

static char dir[64];
static cz_groth16_pvk pvk[2]; /* Winning, Window (cz_post_kind order) */
static uint8_t rand_a[32], rand_b[32];

/* Blobs of the two sealed sectors (ids 5 and 9): Window at API 1.2 and
 * position i, Window V1 (API 1.0) at partition 1, Winning of sector 9. */
static uint8_t *win12[2], *win10[2], *winning;
static size_t wlen, glen;
static cz_post_public_sector pubs[2];

static void write_params(cz_post_kind kind)
{
    cz_post_shape s;
    TF_CHECK(cz_post_shape_of(&s, kind, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    cz_cs *cs;
    cz_r1cs *r = NULL;
    char err[256] = "";
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    TF_CHECK(cz_post_synthesize(cs, &s, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    cz_cs_free(cs);
    uint8_t seed[32] = {7};
    cz_groth16_params p;
    TF_CHECK(cz_groth16_setup(&p, r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(cz_groth16_pvk_prepare(&pvk[kind], &p.vk) == CZ_OK);
    char base[CZ_FC_PARAMS_NAME], path[300];
    cz_post_params_name(base, &s);
    static const char *const ext[3] = {".params", ".vk", ".pce"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s%s", dir, base, ext[i]);
        int rc = i == 0   ? cz_groth16_params_write_file(path, &p)
                 : i == 1 ? cz_groth16_vk_write_file(path, &p.vk)
                          : cz_pce_save(r, path);
        TF_CHECK_MSG(rc == CZ_OK, "writing %s: %s", path, cz_strerror(rc));
        if (i < 2) { /* the INSECURE files listed */
            uint8_t b2[64];
            char hex[CZ_FC_DIGEST_HEX], name[200];
            TF_CHECK(cz_fc_file_blake2b(path, b2, err, sizeof err) == CZ_OK);
            cz_fc_params_digest_hex(hex, b2);
            snprintf(name, sizeof name, "%s%s", base, ext[i]);
            TF_CHECK(cz_fc_params_record_generated(dir, name, hex, err, sizeof err) == CZ_OK);
        }
    }
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
}

static uint8_t *blob_of(const cz_post_shape *s, cz_fc_api api, const uint8_t rand[32],
                        uint64_t id, uint64_t idx, const cz_fc_tree *t, const cz_fc_d *comm_c,
                        size_t *len)
{
    cz_post_vanilla v;
    char err[256] = "";
    TF_CHECK_MSG(cz_post_vanilla_prove(&v, s, api, rand, id, idx, t, comm_c, NULL, err,
                                       sizeof err) == CZ_OK,
                 "%s", err);
    *len = cz_post_vanilla_bytes(s);
    uint8_t *b = malloc(*len);
    TF_CHECK(b && cz_post_vanilla_write(b, *len, &v, s) == CZ_OK);
    cz_post_vanilla_free(&v);
    return b;
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cz-post-XXXXXX");
    TF_CHECK(mkdtemp(dir) != NULL);
    write_params(CZ_POST_WINDOW);
    if (!TF_SANITIZED)
        write_params(CZ_POST_WINNING);
    cz_prng_bytes(&tf_rng, rand_a, 32);
    cz_prng_bytes(&tf_rng, rand_b, 32);
    rand_a[31] &= 0x3f;
    rand_b[31] &= 0x3f;
    const cz_fc_shape *shape = cz_fc_shape_get(CZ_FC_2KIB);
    cz_post_shape w, g;
    TF_CHECK(cz_post_shape_of(&w, CZ_POST_WINDOW, shape) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&g, CZ_POST_WINNING, shape) == CZ_OK);
    static const uint64_t ids[2] = {5, 9};
    for (int i = 0; i < 2; i++) {
        cz_fc_sector sec = {.proof_type = cz_fc_proof_default(shape), .sector_id = ids[i]};
        cz_fc_prover_id(sec.prover_id, MINER);
        cz_prng_bytes(&tf_rng, sec.ticket, 32);
        cz_prng_bytes(&tf_rng, sec.seed, 32);
        cz_fc_d replica[64], comm_c;
        cz_fc_c1 c1;
        char err[256] = "";
        TF_CHECK_MSG(cz_fc_seal_ex(&c1, &sec, NULL, replica, &comm_c, err, sizeof err) == CZ_OK,
                     "%s", err);
        cz_fc_tree *t;
        TF_CHECK(cz_fc_tree_build(&t, CZ_FC_TREE_RC, shape, replica, NULL) == CZ_OK);
        pubs[i] = (cz_post_public_sector){ids[i], c1.comm_r};
        win12[i] = blob_of(&w, CZ_FC_API_1_2, rand_a, ids[i], (uint64_t)i, t, &comm_c, &wlen);
        win10[i] = blob_of(&w, CZ_FC_API_1_0, rand_a, ids[i], 2 + (uint64_t)i, t, &comm_c, &wlen);
        if (i == 1)
            winning = blob_of(&g, CZ_FC_API_1_0, rand_a, ids[i], 0, t, &comm_c, &glen);
        cz_fc_tree_free(t);
        cz_fc_c1_free(&c1);
    }
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    TF_CHECK(system(cmd) == 0);
    for (int i = 0; i < 2; i++) {
        free(win12[i]);
        free(win10[i]);
        cz_groth16_pvk_free(&pvk[i]);
    }
    free(winning);
}

/* A request as the daemon builds it from Curio's message; tests edit it. */
typedef struct {
    cz_job_post p;
    const uint8_t *blobs[3];
    size_t lens[3];
    uint8_t rand[40];
    cz_job_kind kind;
} req;

static void req_window(req *r, uint8_t *const *blobs, size_t n, uint64_t proof, uint32_t k)
{
    memset(r, 0, sizeof *r);
    memcpy(r->rand, rand_a, 32);
    for (size_t i = 0; i < n; i++)
        r->blobs[i] = blobs[i], r->lens[i] = wlen;
    r->kind = CZ_KIND_WINDOW_POST;
    r->p = (cz_job_post){.registered_proof = proof,
                         .sector_size = 2048,
                         .miner_id = MINER,
                         .randomness = r->rand,
                         .randomness_len = 32,
                         .partition_index = k,
                         .vanilla = r->blobs,
                         .vanilla_len = r->lens,
                         .n_vanilla = n};
}

static void req_winning(req *r)
{
    req_window(r, &winning, 1, 0, 0);
    r->lens[0] = glen;
    r->kind = CZ_KIND_WINNING_POST;
}

static int submit(cz_engine *e, const req *r, cz_priority prio, char id[CZ_JOB_ID_MAX],
                  char *err, size_t errlen)
{
    cz_job_request q = {.priority = prio, .kind = r->kind, .input = &r->p};
    err[0] = 0;
    return cz_engine_submit(e, &q, id, NULL, err, errlen);
}

/* r proved: COMPLETED, 192 bytes, valid for its sectors (n, partition k)
 * under the kind's vk and invalid for rand_b. */
static void prove_ok(cz_engine *e, const req *r, const cz_post_public_sector *ps, size_t n,
                     const char *what)
{
    char id[CZ_JOB_ID_MAX], err[700];
    int rc = submit(e, r, CZ_PRIO_NORMAL, id, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s: %s", what, err);
    if (rc != CZ_OK)
        return;
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, id, -1, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED && res.partitions == 1, "%s: %s", what,
                 res.message);
    if (res.state == CZ_JOB_COMPLETED) {
        const cz_post_proof_type *pt = cz_post_proof_by_id(r->p.registered_proof);
        cz_post_shape s;
        TF_CHECK(cz_post_shape_of(&s, pt->kind, cz_fc_shape_get(pt->size)) == CZ_OK);
        bool valid = false;
        TF_CHECK(cz_post_verify(&pvk[pt->kind], res.proofs, 192, &s, pt->api, rand_a, ps, n,
                                r->p.partition_index, &valid, err, sizeof err) == CZ_OK);
        TF_CHECK_MSG(valid, "%s: the proof does not verify: %s", what, err);
        TF_CHECK(cz_post_verify(&pvk[pt->kind], res.proofs, 192, &s, pt->api, rand_b, ps, n,
                                r->p.partition_index, &valid, err, sizeof err) == CZ_OK &&
                 !valid);
        printf("test_engine_post: %s: synthesis %.0f ms, proving %.0f ms\n", what, res.synth_ms,
               res.prove_ms);
    }
    cz_job_result_free(&res);
}

static void proofs(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    req r;
    req_window(&r, win12, 2, 10, 0);
    prove_ok(e, &r, pubs, 2, "Window V1_1, 2 sectors");
    req_window(&r, win12, 1, 10, 0);
    prove_ok(e, &r, pubs, 1, "Window V1_1, 1 sector (padded)");
    req_window(&r, win10, 2, 5, 1);
    prove_ok(e, &r, pubs, 2, "Window V1, partition 1");
    if (!TF_SANITIZED) {
        req_winning(&r);
        prove_ok(e, &r, &pubs[1], 1, "Winning V1");
        TF_CHECK(cz_engine_evict(e, "winning-2k") == CZ_OK);
    }
    check_drained(e, "wpost-2k");
    cz_engine_free(e);
}

/* The refusals at submit: each row edits a fresh Window request (tampered, a
 * copy of a blob to tamper with) and names the code and the words of the
 * error it must get. */
static uint8_t *tampered;

static void winning_number(req *r) { r->p.registered_proof = 0; }
static void proof_15(req *r) { r->p.registered_proof = 15; }
static void sector_4096(req *r) { r->p.sector_size = 4096; }
static void rand_31(req *r) { r->p.randomness_len = 31; }
static void rand_not_fr(req *r) { memset(r->rand, 0xff, 32); }
static void three_blobs(req *r) { r->blobs[2] = win12[0], r->lens[2] = wlen, r->p.n_vanilla = 3; }
static void no_blob(req *r) { r->p.n_vanilla = 0; }
static void short_blob(req *r) { r->lens[1] = wlen - 1; }

/* the first inclusion proof's root (after sector_id, comm_r, the two
 * counts and the variant) */
static void tampered_root(req *r)
{
    memcpy(tampered, win12[1], wlen);
    tampered[8 + 32 + 8 + 8 + 4] ^= 1;
    r->blobs[1] = tampered;
}

/* the first level's index: after sector_id, comm_r, the two counts, the
 * variant, root, leaf, the path count and the 7 siblings' count */
static void index_out_of_range(req *r)
{
    memcpy(tampered, win12[0], wlen);
    tampered[8 + 32 + 8 + 8 + 4 + 64 + 8 + 8 + 7 * 32] = 8;
    r->blobs[0] = tampered;
}

static void out_of_order(req *r) { r->blobs[0] = win12[1], r->blobs[1] = win12[0]; }
static void sector_twice(req *r) { r->blobs[1] = win12[0]; }
static void other_rand(req *r) { memcpy(r->rand, rand_b, 32); }
static void v1_partition_0(req *r) { req_window(r, win10, 2, 5, 0); }

static void winning_partition_3(req *r)
{
    req_winning(r);
    r->p.partition_index = 3;
}

static void winning_two_blobs(req *r)
{
    req_winning(r);
    r->blobs[1] = winning, r->lens[1] = glen, r->p.n_vanilla = 2;
}

/* clang-format off: a row a refusal, on two lines */
static const struct {
    const char *what;
    int want;
    void (*edit)(req *r);
    const char *needle;
} refusal[] = {
    {"a Winning number", CZ_ERR_INVALID_ARG, winning_number,
     "StackedDrgWinning2KiBV1 (WinningPoSt)"},
    {"registered_proof 15", CZ_ERR_INVALID_ARG, proof_15,
     "registered_proof 15 is not a RegisteredPoSt"},
    {"sector_size 4096", CZ_ERR_INVALID_ARG, sector_4096,
     "sector_size 4096 is not the sector size"},
    {"31 bytes of randomness", CZ_ERR_INVALID_ARG, rand_31,
     "randomness: 31 bytes"},
    {"randomness not a field element", CZ_ERR_INVALID_ARG, rand_not_fr,
     "randomness: not a field element"},
    {"three blobs", CZ_ERR_INVALID_ARG, three_blobs,
     "vanilla_proofs: 3 given; a 2KiB WindowPoSt"},
    {"no blob", CZ_ERR_INVALID_ARG, no_blob,
     "vanilla_proofs: 0 given"},
    {"a short blob", CZ_ERR_INVALID_ARG, short_blob,
     "vanilla_proofs[1]: 5679 bytes"},
    {"a tampered root", CZ_ERR_INVALID_ARG, tampered_root,
     "vanilla_proofs[1] (sector 9): the sector proof does not verify"},
    /* the reader's code */
    {"an index out of range", CZ_ERR_BAD_FORMAT, index_out_of_range,
     "vanilla_proofs[0]: post vanilla proof: "},
    {"sectors out of order", CZ_ERR_INVALID_ARG, out_of_order,
     "sector 5 after sector 9: the sectors must be"},
    {"a sector twice", CZ_ERR_INVALID_ARG, sector_twice,
     "sector 5 after sector 5"},
    {"another randomness", CZ_ERR_INVALID_ARG, other_rand,
     "does not verify for this randomness"},
    {"V1 blobs of partition 1 at partition 0", CZ_ERR_INVALID_ARG, v1_partition_0,
     "for this randomness and partition_index"},
    {"partition_index on a Winning", CZ_ERR_INVALID_ARG, winning_partition_3,
     "partition_index 3: a WinningPoSt"},
    {"two blobs for a Winning", CZ_ERR_INVALID_ARG, winning_two_blobs,
     "vanilla_proofs: 2 given; a WinningPoSt"},
};
/* clang-format on */

static void refusals(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    char err[700], id[CZ_JOB_ID_MAX];
    req r;
    tampered = malloc(wlen);
    TF_CHECK(tampered != NULL);
    for (size_t c = 0; c < sizeof refusal / sizeof refusal[0]; c++) {
        req_window(&r, win12, 2, 10, 0);
        refusal[c].edit(&r);
        expect_err(submit(e, &r, CZ_PRIO_NORMAL, id, err, sizeof err), refusal[c].want, err,
                   refusal[c].needle, refusal[c].what);
    }
    /* a Window number on a Winning request */
    req_winning(&r);
    r.p.registered_proof = 10;
    expect_err(submit(e, &r, CZ_PRIO_NORMAL, id, err, sizeof err), CZ_ERR_INVALID_ARG, err,
               "StackedDrgWindow2KiBV1_1 (WindowPoSt): a WinningPoSt needs", "a Window number");
    /* no param cache */
    cz_engine *nc = fc_engine_new(NULL, NULL);
    req_window(&r, win12, 2, 10, 0);
    expect_err(submit(nc, &r, CZ_PRIO_NORMAL, id, err, sizeof err), CZ_ERR_UNSUPPORTED, err,
               "WindowPoSt needs a param cache", "no param cache");
    check_drained(nc, NULL);
    cz_engine_free(nc);
    free(tampered);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.jobs_queued == 0 && st.jobs_running == 0);
    check_drained(e, NULL);
    cz_engine_free(e);
}

/* A sibling changed: the checks at submit pass it (they leave the paths'
 * hashes to the witness), synthesis fails the job naming the blob and the
 * path, and nothing is left behind; the engine proves the next job. */
static void bad_path(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    char err[700], id[CZ_JOB_ID_MAX];
    uint8_t *bad = malloc(wlen);
    TF_CHECK(bad != NULL);
    memcpy(bad, win12[1], wlen);
    bad[wlen - 64 - 556 + 4 + 64 + 8 + 8 + 3] ^= 1; /* the last inclusion proof's first level */
    req r;
    req_window(&r, win12, 2, 10, 0);
    r.blobs[1] = bad;
    TF_CHECK_MSG(submit(e, &r, CZ_PRIO_NORMAL, id, err, sizeof err) == CZ_OK, "%s", err);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, id, -1, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_FAILED && res.proofs == NULL &&
                     strstr(res.message, "vanilla_proofs[1] (sector 9): the sector proof does "
                                         "not verify: inclusion proof 9 does not hash up to "
                                         "comm_r_last") != NULL,
                 "a tampered path: state %d: %s", (int)res.state, res.message);
    TF_CHECK_MSG(res.prove_ms == 0, "a tampered path reached the prover (%.0f ms)", res.prove_ms);
    cz_job_result_free(&res);
    free(bad);
    req_window(&r, win12, 2, 10, 0);
    prove_ok(e, &r, pubs, 2, "Window V1_1 after a tampered one");
    check_drained(e, "wpost-2k");
    cz_engine_free(e);
}

static void under_load(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.queue_depth = 1;
    gate g;
    gate_init(&g, &cfg);
    cz_engine *e = fc_engine_new(dir, &cfg);
    char err[700], id[CZ_JOB_ID_MAX], wid[CZ_JOB_ID_MAX], gid[CZ_JOB_ID_MAX];
    bool already;
    TF_CHECK(cz_engine_preload(e, "wpost-2k", &already, err, sizeof err) == CZ_OK);
    const bool with_winning = !TF_SANITIZED;
    if (with_winning)
        TF_CHECK(cz_engine_preload(e, "winning-2k", &already, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request lr = synth_req(&in, "load", CZ_PRIO_NORMAL, 10, 6, 1);
    TF_CHECK(cz_engine_submit(e, &lr, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&g, 1));
    TF_CHECK_MSG(wait_progress(e, "load", 0, 3), "the load does not fill the pipeline");
    req w, v;
    req_window(&w, win12, 2, 10, 0);
    req_winning(&v);
    TF_CHECK(submit(e, &w, CZ_PRIO_HIGH, wid, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(wait_synthesized(e, wid, 1), "the WindowPoSt is not synthesized under the load");
    if (with_winning) {
        TF_CHECK(submit(e, &v, CZ_PRIO_CRITICAL, gid, err, sizeof err) == CZ_OK);
        TF_CHECK_MSG(wait_synthesized(e, gid, 1),
                     "the WinningPoSt is not synthesized under the load");
    }
    const char *const all[] = {"load", gid, wid, "load"}, *const some[] = {"load", wid, "load"};
    const char *const *next = with_winning ? all : some;
    check_device_order(e, &g, next, with_winning ? 4 : 3);
    gate_allow(&g, -1);
    const char *ids[3] = {"load", wid, gid};
    for (int i = 0; i < (with_winning ? 3 : 2); i++) {
        cz_job_result res;
        TF_CHECK(cz_engine_await(e, ids[i], -1, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", ids[i], res.message);
        cz_job_result_free(&res);
    }
    TF_CHECK(cz_engine_evict(e, "wpost-2k") == CZ_OK);
    if (with_winning)
        TF_CHECK(cz_engine_evict(e, "winning-2k") == CZ_OK);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    gate_destroy(&g);
}

TF_MAIN(TF_TEST(setup), TF_TEST(proofs), TF_TEST(refusals), TF_TEST(bad_path), TF_TEST(under_load),
        TF_TEST(teardown))
