/* The engine's SnapDeals kind without parameters (a 2KiB setup takes
 * minutes: the proofs themselves are tests/oracle/run_snap_grpc.sh's), on
 * a real 2KiB update built here from seeded data:
 *
 *   - refusals at submit, each naming its reason, nothing queued and the
 *     request pool empty after: no param cache; an unknown registered
 *     proof; a sector size of another proof; too few or too many vanilla
 *     proofs; a blob of the wrong length; a missing, short, non-canonical
 *     commitment or a CID of the other kind; a tampered vanilla proof; a
 *     commitment of another update;
 *   - the param cache: missing files named (.params first, then the .pce
 *     with the command that makes it), also by preload; unknown ids;
 *   - the commitments as CIDs are the same request as raw ones (the same
 *     digest: one job); a job whose files are damaged FAILS naming them.
 * Afterwards every budget counter is back to its idle value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "engine_common.h"
#include "tf.h"

#define MINER  1000
#define SECTOR 7
#define BASE                                                                                   \
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"                                \
    "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"

static uint8_t *blob;
static size_t blob_len;
static cz_fc_snap_public pub;
static char dir[64];

/* A 2KiB update of random labels with random data: its one partition's
 * vanilla proof in bincode. */
static void update_once(void)
{
    const cz_fc_shape *shape = cz_fc_shape_by_size(2048);
    cz_fc_snap_shape u;
    TF_CHECK(cz_fc_snap_shape_of(&u, 64) == CZ_OK);
    cz_fc_d old[64], data[64], comm_c;
    for (int i = 0; i < 64; i++) {
        cz_fr v;
        cz_fr_random(&v, &tf_rng);
        cz_fc_d_from_fr(&old[i], &v);
        cz_prng_bytes(&tf_rng, data[i].b, 32);
        data[i].b[31] &= 0x3f;
    }
    cz_fr v;
    cz_fr_random(&v, &tf_rng);
    cz_fc_d_from_fr(&comm_c, &v);
    cz_fc_snap_sector *x;
    TF_CHECK(cz_fc_snap_sector_new(&x, shape, &u, old, data, &comm_c, u.h, NULL) == CZ_OK);
    cz_fc_snap_sector_public(x, 0, &pub);
    cz_fc_snap_partition_proof p;
    TF_CHECK(cz_fc_snap_sector_prove(x, 0, &p, NULL) == CZ_OK);
    blob_len = cz_fc_snap_proof_bytes(&u);
    blob = malloc(blob_len);
    TF_CHECK(cz_fc_snap_proof_write(blob, blob_len, &p, &u) == CZ_OK);
    cz_fc_snap_proof_free(&p);
    cz_fc_snap_sector_free(x);
}

/* A request of the update, as the daemon builds it from Curio's message;
 * tests edit the copy. */
typedef struct {
    cz_job_snap s;
    const uint8_t *blobs[2];
    size_t lens[2];
    uint8_t r_old[40], d_new[40], r_new[40];
} req;

static void req_init(req *r)
{
    memset(r, 0, sizeof *r);
    memcpy(r->r_old, pub.comm_r_old.b, 32);
    memcpy(r->d_new, pub.comm_d_new.b, 32);
    memcpy(r->r_new, pub.comm_r_new.b, 32);
    r->blobs[0] = r->blobs[1] = blob;
    r->lens[0] = r->lens[1] = blob_len;
    r->s = (cz_job_snap){.registered_proof = 0,
                         .sector_number = SECTOR,
                         .miner_id = MINER,
                         .vanilla = r->blobs,
                         .vanilla_len = r->lens,
                         .n_vanilla = 1,
                         .comm_r_old = r->r_old,
                         .comm_r_old_len = 32,
                         .comm_d_new = r->d_new,
                         .comm_d_new_len = 32,
                         .comm_r_new = r->r_new,
                         .comm_r_new_len = 32};
}

/* go-fil-commcid's binary CID of a commitment, into out (40 / 39 bytes). */
static size_t to_cid(uint8_t *out, const uint8_t *d, bool sealed)
{
    static const uint8_t r_hdr[] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t d_hdr[] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    uint8_t v[32];
    memcpy(v, d, 32);
    size_t h = sealed ? sizeof r_hdr : sizeof d_hdr;
    memcpy(out, sealed ? r_hdr : d_hdr, h);
    memcpy(out + h, v, 32);
    return h + 32;
}

static int submit(cz_engine *e, const char *id, const req *r, bool *existing, char *err,
                  size_t errlen)
{
    cz_job_request q = {.id = id, .kind = CZ_KIND_SNAP, .input = &r->s};
    char out[CZ_JOB_ID_MAX];
    err[0] = 0;
    return cz_engine_submit(e, &q, out, existing, err, errlen);
}

static void no_cache(void)
{
    cz_engine *e = fc_engine_new(NULL, NULL);
    char err[512];
    req r;
    req_init(&r);
    expect_err(submit(e, NULL, &r, NULL, err, sizeof err), CZ_ERR_UNSUPPORTED, err, "param cache",
               "no param cache");
    bool already;
    expect_err(cz_engine_preload(e, "snap-2k", &already, err, sizeof err), CZ_ERR_UNSUPPORTED, err,
               "param cache", "preload without a param cache");
    check_drained(e, NULL);
    cz_engine_free(e);
}

static void write_junk(const char *ext)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s%s", dir, BASE, ext);
    FILE *f = fopen(path, "wb");
    TF_CHECK(f != NULL);
    if (f) {
        fputs("not parameters", f);
        fclose(f);
    }
}

static void refusals(void)
{
    cz_engine *e = fc_engine_new(dir, NULL);
    char err[700], path[300];
    req r;
    req_init(&r);
    snprintf(path, sizeof path, "%s/%s.params", dir, BASE);
    expect_err(submit(e, NULL, &r, NULL, err, sizeof err), CZ_ERR_NOT_FOUND, err, path,
               "missing .params");
    bool already;
    expect_err(cz_engine_preload(e, "snap-2k", &already, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               path, "preload, missing .params");
    expect_err(cz_engine_preload(e, "snap-3k", &already, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               "not a SnapDeals circuit id", "preload snap-3k");
    write_junk(".params");
    write_junk(".vk");
    expect_err(submit(e, NULL, &r, NULL, err, sizeof err), CZ_ERR_NOT_FOUND, err,
               "--circuit snap --sector-size SIZE --pce-only", "missing .pce");
    write_junk(".pce");

    /* bad requests */
    static const struct {
        const char *what, *needle;
        int rc;
    } cases[] = {
        {"registered_proof 7", "registered_proof 7 is not a RegisteredUpdateProof",
         CZ_ERR_INVALID_ARG},
        {"sector_size 4096", "sector_size 4096 is not the sector size of StackedDrg2KiBV1",
         CZ_ERR_INVALID_ARG},
        {"no vanilla proof", "vanilla_proofs: 0 given; a 2KiB update has 1 partitions",
         CZ_ERR_INVALID_ARG},
        {"two vanilla proofs", "vanilla_proofs: 2 given", CZ_ERR_INVALID_ARG},
        {"a short blob", "vanilla_proofs[0]: ", CZ_ERR_INVALID_ARG},
        {"no comm_r_old", "comm_r_old: missing", CZ_ERR_INVALID_ARG},
        {"comm_d_new of 31 bytes", "comm_d_new: 31 bytes", CZ_ERR_INVALID_ARG},
        {"comm_r_new not a field element", "comm_r_new: its 32 bytes are not a field element",
         CZ_ERR_INVALID_ARG},
        {"comm_d_new as a CommR CID", "comm_d_new: a CID of codec 0xf102", CZ_ERR_INVALID_ARG},
        {"a TreeR leaf edited", "vanilla_proofs[0]: the partition proof does not verify",
         CZ_ERR_INVALID_ARG},
        {"comm_r_new of another update", "does not verify against comm_r_old",
         CZ_ERR_INVALID_ARG},
        {"a TreeD value with its top bits set", "vanilla_proofs[0]: ", CZ_ERR_NOT_CANONICAL},
    };
    uint8_t *bad = malloc(blob_len);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        req_init(&r);
        memcpy(bad, blob, blob_len);
        switch (i) {
        case 0: r.s.registered_proof = 7; break;
        case 1: r.s.sector_size = 4096; break;
        case 2: r.s.n_vanilla = 0; break;
        case 3: r.s.n_vanilla = 2; break;
        case 4: r.lens[0] = blob_len - 1; break;
        case 5: r.s.comm_r_old_len = 0; break;
        case 6: r.s.comm_d_new_len = 31; break;
        case 7: memset(r.r_new, 0xff, 32); break;
        case 8: r.s.comm_d_new_len = to_cid(r.d_new, pub.comm_d_new.b, true); break;
        case 9: /* challenge 0's proof_r_old leaf: after comm_c, the apex leaves and its root */
            bad[32 + 8 + 32 * 8 + 4 + 32 + 1] ^= 1;
            r.blobs[0] = bad;
            break;
        case 10: r.r_new[0] ^= 1; break;
        case 11: /* the first apex leaf's last byte: the top bits of a TreeD value */
            bad[32 + 8 + 31] |= 0xc0;
            r.blobs[0] = bad;
            break;
        }
        expect_err(submit(e, NULL, &r, NULL, err, sizeof err), cases[i].rc, err, cases[i].needle,
                   cases[i].what);
    }
    free(bad);
    /* the commitments as CIDs: the same request as the raw bytes.  The
     * files are damaged: the job is admitted, then FAILS at load naming
     * the .params */
    req_init(&r);
    int rc = submit(e, "damaged", &r, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    req c;
    req_init(&c);
    c.s.comm_r_old_len = to_cid(c.r_old, pub.comm_r_old.b, true);
    c.s.comm_d_new_len = to_cid(c.d_new, pub.comm_d_new.b, false);
    c.s.comm_r_new_len = to_cid(c.r_new, pub.comm_r_new.b, true);
    bool existing = false;
    rc = submit(e, "damaged", &c, &existing, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK && existing, "the CID form of the same request: rc %d, existing %d: %s",
                 rc, existing, err);
    /* the same label, another sector: a job of its own (Curio's snap-<miner>-
     * <sector> labels an update tried again with new data so) */
    char h1[CZ_JOB_ID_MAX], h2[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_resolve(e, "damaged", h1, err, sizeof err) == CZ_OK);
    c.s.sector_number++;
    cz_job_request q = {.id = "damaged", .kind = CZ_KIND_SNAP, .input = &c.s};
    rc = cz_engine_submit(e, &q, h2, &existing, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK && !existing && strcmp(h1, h2) != 0,
                 "the same id, another sector: rc %d, existing %d, %s / %s: %s", rc, existing, h1,
                 h2, err);
    cz_job_result res;
    for (int i = 0; i < 2; i++) {
        TF_CHECK(cz_engine_await(e, i ? h2 : h1, 60000, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_FAILED && strstr(res.message, ".params"), "%s: %s",
                     cz_job_state_name(res.state), res.message);
        cz_job_result_free(&res);
    }
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.kinds[CZ_KIND_SNAP - 1].enabled && !strcmp(st.kinds[CZ_KIND_SNAP - 1].name, "snap"));
    TF_CHECK(st.kinds[CZ_KIND_SNAP - 1].jobs_submitted == 2 &&
             st.kinds[CZ_KIND_SNAP - 1].jobs_failed == 2);
    check_drained(e, NULL);
    cz_engine_free(e);
}

static void setup(void)
{
    update_once();
    snprintf(dir, sizeof dir, "/tmp/cz_snap_kind_XXXXXX");
    TF_CHECK(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
    static const char *const ext[] = {".params", ".vk", ".pce"};
    for (int i = 0; i < 3; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s%s", dir, BASE, ext[i]);
        unlink(path);
    }
    TF_CHECK(rmdir(dir) == 0);
    free(blob);
}

TF_MAIN(TF_TEST(setup), TF_TEST(no_cache), TF_TEST(refusals), TF_TEST(teardown))
