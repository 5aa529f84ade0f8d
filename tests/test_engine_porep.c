/* The engine's PoRep kind without parameters (a 2KiB setup takes minutes:
 * the proofs themselves are tests/oracle/run_porep_grpc.sh's and
 * run_porep_e2e.sh's), on a 2KiB sector sealed here from seeded data:
 *
 *   - refusals at submit, each naming its reason, nothing queued and the
 *     request pool empty after: no param cache; an unknown registered
 *     proof; a sector size of another proof; no C1; a C1 that is not JSON;
 *     a C1 of another registered proof; another sector number or miner id
 *     (the vanilla verifier's replica_id); a C1 whose seed was edited (its
 *     challenges); the wrapper's SectorNum not the request's;
 *   - the param cache: missing files named (.params first, then the .pce
 *     with the command that makes it), also by PreloadSRS; unknown ids;
 *   - a job whose files are there but damaged fails FAILED naming the
 *     file; one whose .params is well-formed but has a digest neither
 *     Filecoin's nor listed fails naming the digests;
 *   - a failed job's id is submitted again (a new job, not the old one).
 * Afterwards every budget counter is back to its idle value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "engine_common.h"
#include "tf.h"
#include "util/base64.h"

#define MINER  1000
#define SECTOR 7

static char *c1_json;
static size_t c1_len;
static char dir[64];

/* A sealed 2KiB V1_1 sector's C1 (seeded data), as filecoin-ffi writes it. */
static void seal_once(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    cz_fc_sector s = {.proof_type = t, .sector_id = SECTOR};
    cz_fc_prover_id(s.prover_id, MINER);
    cz_prng_bytes(&tf_rng, s.ticket, 32);
    cz_prng_bytes(&tf_rng, s.seed, 32);
    uint8_t *data = malloc(t->shape->sector_size);
    cz_prng_bytes(&tf_rng, data, t->shape->sector_size);
    for (size_t i = 31; i < t->shape->sector_size; i += 32)
        data[i] &= 0x3f;
    s.data = data;
    cz_fc_c1 c1;
    char err[300];
    TF_CHECK_MSG(cz_fc_seal(&c1, &s, NULL, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK(cz_fc_c1_write(&c1, &c1_json, &c1_len) == CZ_OK);
    cz_fc_c1_free(&c1);
    free(data);
}

static int submit(cz_engine *e, const char *id, uint64_t proof, uint64_t size, uint64_t sector,
                  uint64_t miner, const void *c1, size_t len, char *err, size_t errlen)
{
    cz_job_porep p = {.registered_proof = proof,
                      .sector_size = size,
                      .sector_number = sector,
                      .miner_id = miner,
                      .c1 = c1,
                      .c1_len = len};
    cz_job_request r = {.id = id, .kind = CZ_KIND_POREP, .input = &p};
    char out[CZ_JOB_ID_MAX];
    err[0] = 0;
    return cz_engine_submit(e, &r, out, NULL, err, errlen);
}

static void no_cache(void)
{
    cz_engine *e = fc_engine_new(NULL, NULL);
    char err[512];
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_UNSUPPORTED, err, "param cache", "no param cache");
    bool already;
    expect_err(cz_engine_preload(e, "porep-2k", &already, err, sizeof err), CZ_ERR_UNSUPPORTED, err,
               "param cache", "preload without a param cache");
    check_drained(e, NULL);
    cz_engine_free(e);
}

static void refusals(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    char err[700], path[300];
    const char *base =
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f";
    snprintf(path, sizeof path, "%s/%s.params", dir, base);
    /* the folder is empty: the .params is named */
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_NOT_FOUND, err, path, "missing .params");
    bool already;
    expect_err(cz_engine_preload(e, "porep-2k", &already, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               path, "preload, missing .params");
    expect_err(cz_engine_preload(e, "porep-3k", &already, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               "not a PoRep circuit id", "preload porep-3k");
    expect_err(cz_engine_preload(e, "nothing", &already, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               "neither a registered circuit", "preload nothing");
    /* .params and .vk there, no .pce: named with the command */
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s%s", dir, base, i ? ".vk" : ".params");
        FILE *f = fopen(path, "wb");
        fputs("not parameters", f);
        fclose(f);
    }
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_NOT_FOUND, err, "--pce-only", "missing .pce");
    snprintf(path, sizeof path, "%s/%s.pce", dir, base);
    FILE *f = fopen(path, "wb");
    fputs("not a pce", f);
    fclose(f);

    /* bad requests */
    expect_err(submit(e, NULL, 99, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "registered_proof 99", "unknown registered proof");
    expect_err(submit(e, NULL, 5, 4096, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "sector_size 4096", "wrong sector size");
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, NULL, 0, err, sizeof err), CZ_ERR_INVALID_ARG,
               err, "no C1", "no C1");
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, "{\"x\":", 5, err, sizeof err),
               CZ_ERR_BAD_FORMAT, err, "vanilla_proof: ", "truncated JSON");
    expect_err(submit(e, NULL, 0, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "the C1 is for StackedDrg2KiBV1_1 (5)", "another proof");
    expect_err(submit(e, NULL, 5, 0, SECTOR + 1, MINER, c1_json, c1_len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "replica_id", "another sector");
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER + 1, c1_json, c1_len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "do not verify for miner 1001", "another miner");
    /* the seed's first byte edited: other challenges */
    char *edited = malloc(c1_len + 8);
    memcpy(edited, c1_json, c1_len);
    char *at = strstr(edited, "\"seed\":[");
    TF_CHECK(at != NULL);
    size_t len = c1_len;
    if (at) {
        at += 8;
        size_t digits = strspn(at, "0123456789");
        char repl[8];
        int v = atoi(at);
        int n = snprintf(repl, sizeof repl, "%d", (v + 1) % 256);
        memmove(at + n, at + digits, c1_len - (size_t)(at + digits - edited));
        memcpy(at, repl, (size_t)n);
        len = c1_len + (size_t)n - digits;
    }
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, edited, len, err, sizeof err),
               CZ_ERR_INVALID_ARG, err, "do not verify", "the seed edited");
    free(edited);
    /* Curio's wrapper with another SectorNum; then one that is right */
    size_t b = cz_base64_encoded_len(c1_len);
    char *w = malloc(b + 128);
    int h = snprintf(w, 128, "{\"SectorNum\":%d,\"Phase1Out\":\"", SECTOR + 5);
    cz_base64_encode(w + h, (const uint8_t *)c1_json, c1_len);
    size_t wl = (size_t)h + b;
    wl += (size_t)snprintf(w + wl, 128, "\",\"SectorSize\":2048}");
    expect_err(submit(e, NULL, 5, 0, SECTOR, MINER, w, wl, err, sizeof err), CZ_ERR_INVALID_ARG,
               err, "SectorNum 12", "the wrapper's SectorNum");
    w[h - 1] = '!'; /* "Phase1Out":"! ...: not base64 */
    int rc = submit(e, NULL, 5, 0, SECTOR + 5, MINER, w, wl, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strstr(err, "Phase1Out"), "bad base64: %d %s", rc,
                 err);

    /* the files are there but damaged: the job is admitted, then FAILS at
     * load naming the file */
    rc = submit(e, "damaged", 5, 2048, SECTOR, MINER, c1_json, c1_len, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "damaged", 60000, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_FAILED && strstr(res.message, ".params"), "%s: %s",
                 cz_job_state_name(res.state), res.message);
    cz_job_result_free(&res);
    free(w);
    check_drained(e, NULL);
    cz_engine_free(e);
}

/* A well-formed .params (a synthetic circuit's, written here) under the
 * 2KiB name: its digest is neither Filecoin's nor listed. */
static void foreign_digest(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    char err[700];
    const char *base =
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f";
    /* a tiny circuit's parameters */
    cz_cs *cs;
    cz_r1cs *r;
    cz_synthetic sy = {.log_rows = 4, .n_public = 1};
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_synthetic_synthesize(cs, &sy, 0);
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    cz_cs_free(cs);
    cz_groth16_params p;
    uint8_t seed[32] = {1};
    TF_CHECK(cz_groth16_setup(&p, r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    char path[300];
    snprintf(path, sizeof path, "%s/%s.params", dir, base);
    TF_CHECK(cz_groth16_params_write_file(path, &p) == CZ_OK);
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
    int rc = submit(e, "foreign", 5, 0, SECTOR, MINER, c1_json, c1_len, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    bool existing = false;
    cz_job_porep pr = {.registered_proof = 5, .sector_number = SECTOR, .miner_id = MINER,
                       .c1 = (const uint8_t *)c1_json, .c1_len = c1_len};
    cz_job_request req = {.id = "foreign", .kind = CZ_KIND_POREP, .input = &pr};
    char out[CZ_JOB_ID_MAX];
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "foreign", 60000, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_FAILED && strstr(res.message, "digest") &&
                     strstr(res.message, "434fb1338ecfaf0f59256f30dde4968f") &&
                     strstr(res.message, "not listed"),
                 "%s", res.message);
    cz_job_result_free(&res);
    rc = cz_engine_submit(e, &req, out, &existing, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK && !existing, "a failed id is submitted again: %d %s", rc, err);
    TF_CHECK(cz_engine_await(e, "foreign", 60000, &res) == CZ_OK);
    cz_job_result_free(&res);
    check_drained(e, NULL);
    cz_engine_free(e);
    unlink(path);
}

static void setup(void)
{
    seal_once();
    snprintf(dir, sizeof dir, "/tmp/cz_porep_kind_XXXXXX");
    TF_CHECK(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
    static const char *const ext[] = {".params", ".vk", ".pce"};
    const char *base =
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f";
    for (int i = 0; i < 3; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s%s", dir, base, ext[i]);
        unlink(path);
    }
    TF_CHECK(rmdir(dir) == 0);
    free(c1_json);
}

TF_MAIN(TF_TEST(setup), TF_TEST(no_cache), TF_TEST(refusals), TF_TEST(foreign_digest),
        TF_TEST(teardown))
