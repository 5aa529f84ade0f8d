/* The engine's job admission and notification (include/cuzk/engine.h):
 * id rules (against a reference UTF-8 decoder on random bytes), generated
 * handles that no label can take, labels naming several jobs (Curio's
 * reuse) and retries joining a job by request digest, the admission
 * limits and the request pool, asynchronous watches (completion, timeout,
 * take-back, jobs cancelled when a synchronous client goes away), job
 * events in order, generic witnesses checked against their circuit, every
 * proof verified by default, the status by kind and the unfinished jobs'
 * partition progress at points a gated back end holds, the synthetic
 * kind's switch and canonical ids, and the budget's checks against the
 * machine's memory. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cs.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/synthetic.h"
#include "cuzk/utf8.h"
#include "engine_common.h"
#include "tf.h"

static bool wait_state(cz_engine *e, const char *id, cz_job_state want, int ms)
{
    for (int i = 0; i < ms; i++) {
        cz_job_result r;
        if (cz_engine_job_status(e, id, &r) == CZ_OK && r.state == want)
            return true;
        usleep(1000);
    }
    return false;
}

/* ----------------------------------------------------------------- ids --- */

/* A decoder written the other way round: decode each sequence to its code
 * point, then reject overlongs, surrogates and values past U+10FFFF. */
static bool ref_utf8(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp, min;
        size_t len;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        if ((s[i] & 0xe0) == 0xc0)
            len = 2, cp = s[i] & 0x1f, min = 0x80;
        else if ((s[i] & 0xf0) == 0xe0)
            len = 3, cp = s[i] & 0x0f, min = 0x800;
        else if ((s[i] & 0xf8) == 0xf0)
            len = 4, cp = s[i] & 0x07, min = 0x10000;
        else
            return false;
        if (i + len > n)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

static void test_utf8(void)
{
    static const char *const good[] = {"", "abc", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                       "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf"};
    static const char *const bad[] = {"\xff", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80",
                                      "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
                                      "a\x80", "\xf8\x88\x80\x80\x80"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        TF_CHECK_MSG(cz_utf8_valid((const uint8_t *)good[i], strlen(good[i]), NULL), "good %zu", i);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t at = 99;
        TF_CHECK_MSG(!cz_utf8_valid((const uint8_t *)bad[i], strlen(bad[i]), &at) && at < 99,
                     "bad %zu", i);
    }
    /* random short strings, biased towards multi-byte lead bytes */
    uint8_t s[8];
    unsigned agree = 0, valid = 0;
    for (unsigned it = 0; it < 200000 * tf_scale; it++) {
        size_t n = 1 + cz_prng_next(&tf_rng) % sizeof s;
        for (size_t k = 0; k < n; k++) {
            uint64_t r = cz_prng_next(&tf_rng);
            s[k] = (uint8_t)(r % 4 == 0 ? r >> 8 : r % 4 == 1 ? 0x80 | ((r >> 8) & 0x3f)
                                                              : 0xc0 | ((r >> 8) & 0x3f));
        }
        bool a = cz_utf8_valid(s, n, NULL), b = ref_utf8(s, n);
        agree += a == b;
        valid += a;
        if (a != b) {
            tf_hex("  disagree on", s, n);
            break;
        }
    }
    TF_CHECK_MSG(agree == 200000 * tf_scale, "cz_utf8_valid and the reference disagree");
    TF_CHECK_MSG(valid > 1000, "only %u valid strings drawn: the test is too weak", valid);
}

static void test_id_rules(void)
{
    static const char *const good[] = {"porep-1000-42", "wdpost-1000-0-[12 200 3 4 5 6 7 8]",
                                       "snap-1-2", "caf\xc3\xa9", "jobs-1", "JOB-1"};
    char err[200];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        TF_CHECK_MSG(cz_job_id_check(good[i], strlen(good[i]), err, sizeof err) == CZ_OK, "%s: %s",
                     good[i], err);
    char long_id[CZ_JOB_ID_MAX + 1];
    memset(long_id, 'a', sizeof long_id);
    struct {
        const char *id;
        size_t len;
        const char *why;
    } bad[] = {
        {"", 0, "1 to 127 bytes"},
        {long_id, CZ_JOB_ID_MAX, "1 to 127 bytes"},
        {"ab\0cd", 5, "NUL byte at offset 2"},
        {"a\xff", 2, "not valid UTF-8 (at byte 1)"},
        {"a\nb", 3, "control character at byte 1"},
        {"a\x7f", 2, "control character"},
        {"a\xc2\x85", 3, "control character"},
        {"job-7", 5, "\"job-\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        TF_CHECK_MSG(cz_job_id_check(bad[i].id, bad[i].len, err, sizeof err) ==
                             CZ_ERR_INVALID_ARG &&
                         strstr(err, bad[i].why) != NULL,
                     "bad id %zu: '%s'", i, err);
    }
    TF_CHECK(cz_job_id_check(long_id, CZ_JOB_ID_MAX - 1, err, sizeof err) == CZ_OK);
}

/* Generated ids are "job-<n>" and no client may take one: a client id
 * "job-<next>" (which once collided with the next generated id, so that
 * two live jobs shared it and an await got the other job's proofs) is
 * refused; every id is unique; each job's proofs have its own length. */
static void test_generated_ids(void)
{
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX], ids[12][CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "job-2", CZ_PRIO_NORMAL, 10, 3, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "job-") != NULL, "%s", err);
    for (int i = 0; i < 12; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        r = synth_req(&in, i % 2 ? name : NULL, CZ_PRIO_NORMAL, 10, 1 + (uint32_t)(i % 3),
                      (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, ids[i], NULL, err, sizeof err) == CZ_OK);
        if (i % 2 == 0)
            TF_CHECK_MSG(strncmp(ids[i], "job-", 4) == 0, "generated id %s", ids[i]);
    }
    for (int i = 0; i < 12; i++) {
        for (int k = 0; k < i; k++)
            TF_CHECK_MSG(strcmp(ids[i], ids[k]) != 0, "ids %d and %d are both %s", i, k, ids[i]);
        cz_job_result res;
        TF_CHECK(cz_engine_await(e, ids[i], -1, &res) == CZ_OK);
        TF_CHECK(res.state == CZ_JOB_COMPLETED && res.partitions == 1 + (uint32_t)(i % 3));
        cz_job_result_free(&res);
    }
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* ----------------------------------------------------- labels and retries --- */

static bool is_handle(const char *id)
{
    return strncmp(id, CZ_JOB_ID_GENERATED, strlen(CZ_JOB_ID_GENERATED)) == 0;
}

/* Awaits handle h: COMPLETED with parts partitions. */
static void await_parts(cz_engine *e, const char *h, uint32_t parts)
{
    cz_job_result res;
    TF_CHECK_MSG(cz_engine_await(e, h, -1, &res) == CZ_OK, "await %s", h);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED && res.partitions == parts, "%s: %s, %u partitions",
                 h, cz_job_state_name(res.state), res.partitions);
    cz_job_result_free(&res);
}

/* Curio's labels: one label for every WindowPoSt partition of a deadline,
 * for a sector proved again after it was sealed again.  Each request is
 * its own job with its own proofs; a retry of a request joins its job,
 * unfinished or completed, superseded or not; a label naming several jobs
 * is refused where it would have to choose (await, status, cancel, watch)
 * and names them; submitting under the label makes it name the new job. */
static void test_labels(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cz_engine *e;
    char err[400], h[5][CZ_JOB_ID_MAX], id[CZ_JOB_ID_MAX];
    bool existing;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_NORMAL, 10, 3, 5);
    TF_CHECK(cz_engine_submit(e, &r, h[0], &existing, err, sizeof err) == CZ_OK && !existing);
    TF_CHECK_MSG(is_handle(h[0]), "the handle %s", h[0]);
    /* the same request again (a lost reply): the same job, even at another
     * priority */
    r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_HIGH, 10, 3, 5);
    TF_CHECK(cz_engine_submit(e, &r, id, &existing, err, sizeof err) == CZ_OK && existing);
    TF_CHECK(!strcmp(id, h[0]));
    TF_CHECK(cz_engine_resolve(e, "wdpost-1000-0-c510c70f", id, err, sizeof err) == CZ_OK &&
             !strcmp(id, h[0]));
    /* other requests under the label while the first is unfinished: jobs of
     * their own, and the label is ambiguous */
    struct {
        uint32_t parts;
        uint64_t seed;
        unsigned lr;
    } other[] = {{1, 5, 10}, {3, 6, 10}, {2, 5, 11}};
    for (size_t i = 0; i < 3; i++) {
        r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_NORMAL, other[i].lr, other[i].parts,
                      other[i].seed);
        TF_CHECK_MSG(cz_engine_submit(e, &r, h[1 + i], &existing, err, sizeof err) == CZ_OK &&
                         !existing,
                     "request %zu: %s", i, err);
        TF_CHECK(is_handle(h[1 + i]));
        for (size_t k = 0; k < 1 + i; k++)
            TF_CHECK(strcmp(h[1 + i], h[k]) != 0);
    }
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "wdpost-1000-0-c510c70f", 10, &res) == CZ_ERR_AMBIGUOUS);
    TF_CHECK(cz_engine_job_status(e, "wdpost-1000-0-c510c70f", &res) == CZ_ERR_AMBIGUOUS);
    TF_CHECK(cz_engine_cancel(e, "wdpost-1000-0-c510c70f") == CZ_ERR_AMBIGUOUS);
    TF_CHECK(cz_engine_resolve(e, "wdpost-1000-0-c510c70f", id, err, sizeof err) ==
             CZ_ERR_AMBIGUOUS);
    TF_CHECK_MSG(strstr(err, "names 4 jobs") && strstr(err, h[0]) && strstr(err, h[3]), "%s",
                 err);
    await_parts(e, h[0], 3);
    for (size_t i = 0; i < 3; i++)
        await_parts(e, h[1 + i], other[i].parts);
    /* all finished: still four named until the label is used again */
    TF_CHECK(cz_engine_resolve(e, "wdpost-1000-0-c510c70f", id, err, sizeof err) ==
             CZ_ERR_AMBIGUOUS);
    /* a retry of the first request joins its completed job, and the label
     * names it alone again */
    r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_LOW, 10, 3, 5);
    TF_CHECK(cz_engine_submit(e, &r, id, &existing, err, sizeof err) == CZ_OK && existing);
    TF_CHECK(!strcmp(id, h[0]));
    TF_CHECK(cz_engine_resolve(e, "wdpost-1000-0-c510c70f", id, err, sizeof err) == CZ_OK &&
             !strcmp(id, h[0]));
    /* a superseded job's retry joins it too, and its handle still reaches
     * every one of them */
    r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_NORMAL, 10, 1, 5);
    TF_CHECK(cz_engine_submit(e, &r, id, &existing, err, sizeof err) == CZ_OK && existing);
    TF_CHECK(!strcmp(id, h[1]));
    for (size_t i = 0; i < 4; i++)
        TF_CHECK(cz_engine_job_status(e, h[i], &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    /* a new request once every job of the label has finished: the label
     * names the new job alone */
    r = synth_req(&in, "wdpost-1000-0-c510c70f", CZ_PRIO_NORMAL, 10, 2, 9);
    TF_CHECK(cz_engine_submit(e, &r, h[4], &existing, err, sizeof err) == CZ_OK && !existing);
    TF_CHECK(cz_engine_await(e, "wdpost-1000-0-c510c70f", -1, &res) == CZ_OK &&
             res.state == CZ_JOB_COMPLETED && res.partitions == 2);
    cz_job_result_free(&res);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK_MSG(st.jobs_submitted == 5, "%llu jobs", (unsigned long long)st.jobs_submitted);
    /* handles are the engine's: a label cannot take one, an unknown one is
     * not found */
    r = synth_req(&in, "job-1", CZ_PRIO_NORMAL, 10, 1, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, &existing, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_engine_job_status(e, "job-999999", &res) == CZ_ERR_NOT_FOUND);
    TF_CHECK(cz_engine_resolve(e, "nobody", id, err, sizeof err) == CZ_ERR_NOT_FOUND);
    /* a cancelled request is a new job when submitted again */
    r = synth_req(&in, "again", CZ_PRIO_NORMAL, 12, 4, 1);
    TF_CHECK(cz_engine_submit(e, &r, h[0], NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_cancel(e, "again") == CZ_OK);
    TF_CHECK(wait_state(e, h[0], CZ_JOB_CANCELLED, 30000));
    TF_CHECK(cz_engine_submit(e, &r, h[1], &existing, err, sizeof err) == CZ_OK && !existing);
    TF_CHECK(strcmp(h[0], h[1]) != 0);
    await_parts(e, "again", 4);
    TF_CHECK(cz_engine_evict(e, "synthetic-12-2") == CZ_OK);
    TF_CHECK(cz_engine_evict(e, "synthetic-11-2") == CZ_OK);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* Submitters racing under one label: those with the same request get one
 * job between them, each other request a job of its own. */
typedef struct {
    cz_engine *e;
    int variant;
    char handle[CZ_JOB_ID_MAX];
    bool existing;
    int rc;
} racer;

static void *race_submit(void *arg)
{
    racer *x = arg;
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "porep-1000-7", CZ_PRIO_NORMAL, 10, 1, 40 + x->variant);
    char err[300];
    x->rc = cz_engine_submit(x->e, &r, x->handle, &x->existing, err, sizeof err);
    return NULL;
}

static void test_label_race(void)
{
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    enum { N = 12 };
    racer x[N];
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        x[i] = (racer){.e = e, .variant = i % 3};
        TF_CHECK(pthread_create(&t[i], NULL, race_submit, &x[i]) == 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int v = 0; v < 3; v++) {
        int fresh = 0;
        const char *h = NULL;
        for (int i = v; i < N; i += 3) {
            TF_CHECK(x[i].rc == CZ_OK);
            fresh += !x[i].existing;
            if (h == NULL)
                h = x[i].handle;
            TF_CHECK_MSG(!strcmp(h, x[i].handle), "variant %d: %s and %s", v, h, x[i].handle);
        }
        TF_CHECK_MSG(fresh == 1, "variant %d: %d new jobs", v, fresh);
        await_parts(e, h, 1);
    }
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.jobs_submitted == 3);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* --------------------------------------------- generic witnesses, verify --- */

static uint8_t *encode(const cz_fr *w, size_t n)
{
    uint8_t *b = malloc(32 * n);
    for (size_t i = 0; i < n; i++)
        cz_fr_to_bytes_le(b + 32 * i, &w[i]);
    return b;
}

/* A witness that does not satisfy its circuit fails the job naming the
 * constraint (no proof leaves); the same witness given as values or as
 * encodings is the same request; a non-canonical encoding is refused at
 * submit and leaves the request pool empty. */
static void test_generic_witness(void)
{
    reg_circuit c;
    reg_make(&c, 10, (const uint8_t[32]){9}, 77);
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[300], id[CZ_JOB_ID_MAX];
    bool existing;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) == CZ_OK);
    uint8_t *le = encode(c.w, 2 * c.n);
    cz_job_groth16 g = {.circuit = "reg", .w = c.w, .n_w = c.n, .partitions = 2};
    cz_job_request req = {.id = "same", .kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &req, id, &existing, err, sizeof err) == CZ_OK && !existing);
    cz_job_groth16 g2 = {.circuit = "reg", .w_le = le, .n_w = c.n, .partitions = 2};
    req.input = &g2;
    TF_CHECK(cz_engine_submit(e, &req, id, &existing, err, sizeof err) == CZ_OK && existing);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "same", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);

    /* one aux value of partition 1 changed: unsatisfied */
    size_t k = cz_r1cs_num_inputs(c.r) + 5;
    cz_fr_add(&c.w[c.n + k], &c.w[c.n + k], &CZ_FR_ONE);
    g.w = c.w;
    req = (cz_job_request){.id = "bad", .kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_await(e, "bad", -1, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_FAILED && res.error == CZ_ERR_UNSATISFIED && !res.proofs,
                 "%s: %s", cz_job_state_name(res.state), res.message);
    TF_CHECK_MSG(strstr(res.message, "partition 1") && strstr(res.message, "constraint"), "%s",
                 res.message);
    cz_job_result_free(&res);

    /* r itself, as an encoding of value 7 of partition 0 */
    static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                     0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                     0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    memcpy(le + 32 * 7, r_le, 32);
    req = (cz_job_request){.id = "noncanon", .kind = CZ_KIND_GROTH16, .input = &g2};
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_ERR_NOT_CANONICAL);
    TF_CHECK_MSG(strstr(err, "value 7") != NULL, "%s", err);
    TF_CHECK(cz_engine_job_status(e, "noncanon", &res) == CZ_ERR_NOT_FOUND);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_OK);
    check_drained(e, NULL);
    cz_engine_free(e);
    free(le);
    reg_free(&c);
}

/* A back end whose proofs are wrong: with the default configuration every
 * job FAILS with the verification named; only no_verify (benchmarks) lets
 * such proofs out. */
static int bad_finish(void *ctx, cz_groth16_proof *pf, cz_groth16_pending *pd)
{
    (void)ctx;
    int rc = cz_backend_cpu.prove_finish(NULL, pf, pd);
    if (rc == CZ_OK)
        cz_g1_affine_neg(&pf->c, &pf->c);
    return rc;
}

static void test_verify_default(void)
{
    cz_backend_ops ops = cz_backend_cpu;
    ops.name = "wrong-proofs";
    ops.prove_finish = bad_finish;
    for (int skip = 0; skip < 2; skip++) {
        cz_engine_config cfg = base_config(0);
        cfg.backend = &ops;
        cfg.no_verify = skip;
        cz_engine *e;
        char err[256], id[CZ_JOB_ID_MAX];
        TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
        cz_job_synthetic in;
        cz_job_request r = synth_req(&in, "v", CZ_PRIO_NORMAL, 10, 2, 3);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
        cz_job_result res;
        TF_CHECK(cz_engine_await(e, "v", -1, &res) == CZ_OK);
        if (!skip)
            TF_CHECK_MSG(res.state == CZ_JOB_FAILED && res.error == CZ_ERR_BAD_PROOF &&
                             strstr(res.message, "does not verify") && !res.proofs,
                         "%s: %s", cz_job_state_name(res.state), res.message);
        else
            TF_CHECK(res.state == CZ_JOB_COMPLETED);
        cz_job_result_free(&res);
        check_drained(e, "synthetic-10-2");
        cz_engine_free(e);
    }
}

/* ---------------------------------------------------------- admission --- */

static void test_limits(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.max_jobs = 3;
    cfg.max_partitions = 5;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "six", CZ_PRIO_NORMAL, 10, 6, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_ERR_LIMIT);
    TF_CHECK_MSG(strstr(err, "partitions") && strstr(err, "5"), "%s", err);
    const char *names[] = {"l0", "l1", "l2"};
    for (int i = 0; i < 3; i++) {
        r = synth_req(&in, names[i], CZ_PRIO_NORMAL, 12, 1, (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    }
    r = synth_req(&in, "l3", CZ_PRIO_NORMAL, 10, 1, 9);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_ERR_LIMIT);
    TF_CHECK_MSG(strstr(err, "3 jobs are unfinished"), "%s", err);
    /* an idempotent repeat is not a new job: still answered */
    r = synth_req(&in, "l1", CZ_PRIO_NORMAL, 12, 1, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.partitions_unfinished == 3 && st.max_jobs == 3 && st.max_partitions == 5);
    TF_CHECK(cz_engine_wait_idle(e, 0) == CZ_ERR_TIMEOUT);
    TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
    r = synth_req(&in, "l3", CZ_PRIO_NORMAL, 10, 5, 9);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
    TF_CHECK(cz_engine_evict(e, "synthetic-12-2") == CZ_OK);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* The request pool holds the inputs of unfinished jobs: one that can never
 * fit is refused as too big, one that does not fit now as a limit (and
 * admitted once the first job is done); inputs are tracked in class
 * "input" and freed when their job ends. */
static void test_request_pool(void)
{
    reg_circuit c;
    reg_make(&c, 10, (const uint8_t[32]){9}, 77);
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    size_t one = c.n * sizeof(cz_fr); /* one partition's witness */
    cfg.request_pool = cz_mem_charge(2 * one) + cz_mem_charge(one) / 2;
    cz_engine *e;
    char err[300], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) == CZ_OK);
    cz_fr *w4 = malloc(4 * one);
    for (int i = 0; i < 4; i++)
        memcpy(w4 + i * c.n, c.w + (i % 2) * c.n, one);
    cz_job_groth16 g = {.circuit = "reg", .w = w4, .n_w = c.n, .partitions = 4};
    cz_job_request req = {.id = "four", .kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_ERR_TOO_BIG);
    TF_CHECK_MSG(strstr(err, "request pool"), "%s", err);
    g.partitions = 2;
    req.id = "two";
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.request_used == cz_mem_charge(2 * one));
    TF_CHECK(st.mem.cls[CZ_BUF_INPUT].live_count == 1);
    g.partitions = 1;
    g.w = c.w + c.n;
    req.id = "one";
    int rc = cz_engine_submit(e, &req, id, NULL, err, sizeof err);
    if (rc == CZ_ERR_LIMIT) { /* "two" still holds its input */
        TF_CHECK_MSG(strstr(err, "request pool"), "%s", err);
        TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
        rc = cz_engine_submit(e, &req, id, NULL, err, sizeof err);
    }
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "one", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_OK);
    check_drained(e, NULL);
    cz_engine_free(e);
    free(w4);
    reg_free(&c);
}

/* ------------------------------------------------------------ watches --- */

typedef struct {
    cz_job_watch w;
    atomic_int calls;
    int rc;
    cz_job_state state;
    uint32_t partitions;
    size_t proof_bytes;
} watcher;

static void on_watch(void *arg, int rc, const cz_job_result *res)
{
    watcher *x = arg;
    x->rc = rc;
    x->state = res->state;
    x->partitions = res->partitions;
    x->proof_bytes = res->proofs ? (size_t)res->partitions * CZ_GROTH16_PROOF_BYTES : 0;
    atomic_fetch_add(&x->calls, 1);
}

static bool called(watcher *x, int ms)
{
    for (int i = 0; i < ms && atomic_load(&x->calls) == 0; i++)
        usleep(1000);
    return atomic_load(&x->calls) == 1;
}

static void test_watch(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.max_watches = 4;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    static watcher a, b, c, d, f;
    memset(&a, 0, sizeof a);
    TF_CHECK(cz_engine_watch(e, "nobody", -1, on_watch, &a, &a.w) == CZ_ERR_NOT_FOUND);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "long", CZ_PRIO_NORMAL, 13, 3, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_watch(e, "long", -1, on_watch, &a, &a.w) == CZ_OK);     /* completes */
    TF_CHECK(cz_engine_watch(e, "long", 30, on_watch, &b, &b.w) == CZ_OK);     /* times out */
    TF_CHECK(cz_engine_watch(e, "long", 60000, on_watch, &c, &c.w) == CZ_OK);  /* taken back */
    TF_CHECK(cz_engine_watch(e, "long", -1, on_watch, &d, &d.w) == CZ_OK);
    TF_CHECK(cz_engine_watch(e, "long", -1, on_watch, &f, &f.w) == CZ_ERR_LIMIT);
    TF_CHECK(cz_engine_unwatch(e, &c.w, false) && cz_engine_unwatch(e, &d.w, true));
    TF_CHECK(!cz_engine_unwatch(e, &c.w, false)); /* already taken */
    TF_CHECK(called(&b, 5000) && b.rc == CZ_ERR_TIMEOUT && b.state != CZ_JOB_COMPLETED);
    TF_CHECK(!cz_engine_unwatch(e, &b.w, false)); /* it fired */
    TF_CHECK(called(&a, 120000) && a.rc == CZ_OK && a.state == CZ_JOB_COMPLETED &&
             a.proof_bytes == 3 * CZ_GROTH16_PROOF_BYTES);
    usleep(20000);
    TF_CHECK(atomic_load(&c.calls) == 0 && atomic_load(&d.calls) == 0 &&
             atomic_load(&a.calls) == 1 && atomic_load(&b.calls) == 1);
    /* a finished job's watch fires at once with its proofs */
    memset(&f, 0, sizeof f);
    TF_CHECK(cz_engine_watch(e, "long", 1, on_watch, &f, &f.w) == CZ_OK);
    TF_CHECK(called(&f, 5000) && f.rc == CZ_OK && f.proof_bytes == 3 * CZ_GROTH16_PROOF_BYTES);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.watches == 0);

    /* cancel_unwatched: the last watch leaving with its client cancels
     * the job; a job also submitted without the flag keeps running */
    r = synth_req(&in, "sync", CZ_PRIO_NORMAL, 13, 4, 2);
    r.cancel_unwatched = true;
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    TF_CHECK(cz_engine_watch(e, "sync", -1, on_watch, &a, &a.w) == CZ_OK);
    TF_CHECK(cz_engine_watch(e, "sync", -1, on_watch, &b, &b.w) == CZ_OK);
    TF_CHECK(cz_engine_unwatch(e, &a.w, true));
    cz_job_result res;
    TF_CHECK(cz_engine_job_status(e, "sync", &res) == CZ_OK && res.state != CZ_JOB_CANCELLED);
    TF_CHECK(cz_engine_unwatch(e, &b.w, true));
    TF_CHECK(wait_state(e, "sync", CZ_JOB_CANCELLED, 30000));
    TF_CHECK(cz_engine_job_status(e, "sync", &res) == CZ_OK &&
             strstr(res.message, "went away") != NULL);
    r = synth_req(&in, "both", CZ_PRIO_NORMAL, 10, 1, 3);
    r.cancel_unwatched = true;
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    r.cancel_unwatched = false; /* a SubmitProof of the same request */
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    memset(&a, 0, sizeof a);
    if (cz_engine_watch(e, "both", -1, on_watch, &a, &a.w) == CZ_OK &&
        cz_engine_unwatch(e, &a.w, true)) {
        TF_CHECK(cz_engine_await(e, "both", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
        cz_job_result_free(&res);
    }
    TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
    TF_CHECK(cz_engine_evict(e, "synthetic-13-2") == CZ_OK);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* A watch pending when the engine is freed fires with the job's final
 * state (cancelled) before cz_engine_free returns. */
static void test_watch_shutdown(void)
{
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "w", CZ_PRIO_NORMAL, 14, 8, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    static watcher a;
    memset(&a, 0, sizeof a);
    TF_CHECK(cz_engine_watch(e, "w", -1, on_watch, &a, &a.w) == CZ_OK);
    cz_engine_free(e);
    TF_CHECK(atomic_load(&a.calls) == 1 && a.rc == CZ_OK && a.state == CZ_JOB_CANCELLED);
}

/* ------------------------------------------------------------- events --- */

typedef struct {
    pthread_mutex_t mu;
    int n;
    struct {
        cz_job_event_kind what;
        char id[32];
        cz_job_state state;
        char msg[64];
    } ev[64];
} event_log;

static void on_job(void *ctx, const cz_job_event *ev)
{
    event_log *l = ctx;
    pthread_mutex_lock(&l->mu);
    if (l->n < 64) {
        l->ev[l->n].what = ev->what;
        snprintf(l->ev[l->n].id, sizeof l->ev[0].id, "%s", ev->label);
        l->ev[l->n].state = ev->state;
        snprintf(l->ev[l->n].msg, sizeof l->ev[0].msg, "%s", ev->message);
        l->n++;
    }
    pthread_mutex_unlock(&l->mu);
}

static void test_events(void)
{
    static event_log log;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.mu, NULL);
    cz_engine_config cfg = base_config(0);
    cfg.on_job = on_job;
    cfg.on_job_ctx = &log;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "ok", CZ_PRIO_NORMAL, 10, 2, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK); /* no event */
    r = synth_req(&in, "gone", CZ_PRIO_LOW, 13, 6, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_cancel(e, "gone") == CZ_OK);
    TF_CHECK(cz_engine_wait_idle(e, 120000) == CZ_OK);
    cz_engine_free(e); /* delivers what is queued */
    /* per job: SUBMITTED, then STARTED (if it started), then FINISHED */
    const char *jobs[] = {"ok", "gone"};
    for (int k = 0; k < 2; k++) {
        int sub = -1, start = -1, fin = -1, count = 0;
        for (int i = 0; i < log.n; i++) {
            if (strcmp(log.ev[i].id, jobs[k]) != 0)
                continue;
            count++;
            if (log.ev[i].what == CZ_JOB_EV_SUBMITTED)
                sub = i;
            else if (log.ev[i].what == CZ_JOB_EV_STARTED)
                start = i;
            else
                fin = i;
        }
        TF_CHECK_MSG(sub >= 0 && fin > sub && (start < 0 || (start > sub && start < fin)) &&
                         count == 2 + (start >= 0),
                     "%s: events %d %d %d (%d)", jobs[k], sub, start, fin, count);
        if (fin >= 0 && k == 0)
            TF_CHECK(log.ev[fin].state == CZ_JOB_COMPLETED && start >= 0);
        if (fin >= 0 && k == 1)
            TF_CHECK(log.ev[fin].state == CZ_JOB_CANCELLED && !strcmp(log.ev[fin].msg, "cancelled"));
    }
    pthread_mutex_destroy(&log.mu);
}

/* ------------------------------------------------------ status by kind --- */

/* The status's totals are the sums of its kinds'; kind k is kinds[k - 1]. */
static void check_kind_sums(const cz_engine_status *st)
{
    uint64_t sub = 0, com = 0, fail = 0, can = 0, prov = 0, q = 0, run = 0;
    for (int i = 0; i < CZ_JOB_KINDS; i++) {
        const cz_engine_kind_status *k = &st->kinds[i];
        TF_CHECK(k->kind == (cz_job_kind)(i + 1) && !strcmp(k->name, cz_job_kind_name(k->kind)));
        sub += k->jobs_submitted;
        com += k->jobs_completed;
        fail += k->jobs_failed;
        can += k->jobs_cancelled;
        prov += k->partitions_proved;
        q += k->jobs_queued;
        run += k->jobs_running;
    }
    TF_CHECK_MSG(sub == st->jobs_submitted && com == st->jobs_completed &&
                     fail == st->jobs_failed && can == st->jobs_cancelled &&
                     prov == st->partitions_proved && q == st->jobs_queued &&
                     run == st->jobs_running,
                 "kinds: %llu submitted %llu completed %llu failed %llu cancelled %llu proved "
                 "%llu queued %llu running",
                 (unsigned long long)sub, (unsigned long long)com, (unsigned long long)fail,
                 (unsigned long long)can, (unsigned long long)prov, (unsigned long long)q,
                 (unsigned long long)run);
}

/* kind's figures: queued, running, waiting, in flight; submitted,
 * completed, failed, cancelled, proved. */
static bool kind_is(const cz_engine_status *st, cz_job_kind kind, const uint64_t want[9])
{
    const cz_engine_kind_status *k = &st->kinds[kind - 1];
    const uint64_t got[9] = {k->jobs_queued,         k->jobs_running,   k->partitions_waiting,
                             k->partitions_in_flight, k->jobs_submitted, k->jobs_completed,
                             k->jobs_failed,          k->jobs_cancelled, k->partitions_proved};
    for (int i = 0; i < 9; i++)
        if (got[i] != want[i]) {
            tf_fail(__FILE__, __LINE__,
                    "%s: figure %d is %llu, want %llu (queued %llu running %llu waiting %llu "
                    "in flight %llu submitted %llu completed %llu failed %llu cancelled %llu "
                    "proved %llu)",
                    k->name, i, (unsigned long long)got[i], (unsigned long long)want[i],
                    (unsigned long long)got[0], (unsigned long long)got[1],
                    (unsigned long long)got[2], (unsigned long long)got[3],
                    (unsigned long long)got[4], (unsigned long long)got[5],
                    (unsigned long long)got[6], (unsigned long long)got[7],
                    (unsigned long long)got[8]);
            return false;
        }
    return true;
}

/* Job id among the unfinished ones (into *out): whether it is there. */
/* A partition of a live job is waiting, in flight or done, never two. */
static void check_progress(const cz_engine_job_info *j)
{
    TF_CHECK_MSG(j->ending || j->partitions_waiting + j->partitions_in_flight +
                                      j->partitions_done == j->partitions,
                 "%s: %u waiting + %u in flight + %u done != %u", j->id, j->partitions_waiting,
                 j->partitions_in_flight, j->partitions_done, j->partitions);
}

/* Per-kind figures and the unfinished jobs on real jobs held at known
 * points by a gate before prove_start (one synthesis worker, queues of
 * one): a synthetic job of 5 partitions runs with 3 in flight (one at the
 * gate, one queued for the prover, one synthesized waiting for room) and 2
 * waiting while a NORMAL groth16 job of 2 waits queued (a is LOW; HIGH
 * would be served by the urgent worker at once); the list puts the
 * NORMAL job first and is cut at max; one partition through, the groth16 job
 * starts; the synthetic job cancelled stops waiting; at the end every
 * gauge is back to zero and each kind counted its own jobs, a failed
 * groth16 job included. */
static void test_kind_status(void)
{
    reg_circuit c;
    reg_make(&c, 10, (const uint8_t[32]){9}, 77);
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.queue_depth = 1;
    gate g;
    gate_init(&g, &cfg);
    cz_engine *e;
    char err[300], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) == CZ_OK);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    check_kind_sums(&st);
    static const uint64_t zero[9] = {0};
    for (int k = 1; k <= CZ_JOB_KINDS; k++)
        kind_is(&st, (cz_job_kind)k, zero);
    TF_CHECK(st.kinds[0].enabled && st.kinds[1].enabled && !st.kinds[2].enabled); /* no cache */
    TF_CHECK(cz_engine_jobs(e, NULL, 0) == 0);

    cz_job_synthetic in;
    cz_job_request ra = synth_req(&in, "a", CZ_PRIO_LOW, 10, 5, 3);
    TF_CHECK(cz_engine_submit(e, &ra, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&g, 1));
    wait_progress(e, "a", 0, 3);
    cz_job_groth16 gj = {.circuit = "reg", .w = c.w, .n_w = c.n, .partitions = 2};
    cz_job_request rb = {.id = "b", .priority = CZ_PRIO_NORMAL, .kind = CZ_KIND_GROTH16, .input = &gj};
    TF_CHECK(cz_engine_submit(e, &rb, id, NULL, err, sizeof err) == CZ_OK);
    usleep(20000); /* nothing moves while the gate is shut */
    cz_engine_status_get(e, &st);
    check_kind_sums(&st);
    kind_is(&st, CZ_KIND_SYNTHETIC, (const uint64_t[9]){0, 1, 2, 3, 1, 0, 0, 0, 0});
    kind_is(&st, CZ_KIND_GROTH16, (const uint64_t[9]){1, 0, 2, 0, 1, 0, 0, 0, 0});
    kind_is(&st, CZ_KIND_POREP, zero);
    TF_CHECK(st.jobs_queued == 1 && st.jobs_running == 1 && st.partitions_unfinished == 7);

    cz_engine_job_info ji[4];
    TF_CHECK(cz_engine_jobs(e, ji, 4) == 2);
    TF_CHECK(!strcmp(ji[0].label, "b") && ji[0].kind == CZ_KIND_GROTH16 &&
             !strcmp(ji[0].circuit, "reg") && ji[0].priority == CZ_PRIO_NORMAL &&
             ji[0].state == CZ_JOB_QUEUED && !ji[0].ending && ji[0].partitions == 2 &&
             ji[0].partitions_done == 0 && ji[0].partitions_in_flight == 0 &&
             ji[0].partitions_waiting == 2 && ji[0].queue_ms == ji[0].age_ms);
    TF_CHECK(!strcmp(ji[1].label, "a") && ji[1].kind == CZ_KIND_SYNTHETIC &&
             !strcmp(ji[1].circuit, "synthetic-10-2") && ji[1].priority == CZ_PRIO_LOW &&
             ji[1].state == CZ_JOB_RUNNING && ji[1].partitions == 5 &&
             ji[1].partitions_done == 0 && ji[1].partitions_in_flight == 3 &&
             ji[1].partitions_waiting == 2 && ji[1].queue_ms <= ji[1].age_ms &&
             ji[1].age_ms >= 20 && ji[1].seq < ji[0].seq);
    /* cut at max: the first by scheduling order, nothing written past it */
    memset(ji, 0x5a, sizeof ji);
    TF_CHECK(cz_engine_jobs(e, ji, 1) == 2 && !strcmp(ji[0].label, "b") &&
             (unsigned char)ji[1].label[0] == 0x5a);
    /* the circuits: the synthetic one pinned by a's partitions, reg idle */
    cz_engine_circuit_info ci[4];
    TF_CHECK(cz_engine_circuits(e, ci, 4) == 2);
    cz_engine_plan pl[2];
    TF_CHECK(cz_engine_circuit_plans(e, "reg", pl, 2) == 0); /* no device plans on a CPU */
    for (int i = 0; i < 2; i++) {
        bool syn = !strcmp(ci[i].id, "synthetic-10-2");
        TF_CHECK_MSG(syn || !strcmp(ci[i].id, "reg"), "%s", ci[i].id);
        TF_CHECK(ci[i].kind == (syn ? CZ_KIND_SYNTHETIC : CZ_KIND_GROTH16));
        TF_CHECK(ci[i].registered == !syn);
        TF_CHECK_MSG(syn ? ci[i].refs == 3 && ci[i].idle_ms == 0 : ci[i].refs == 0 && ci[i].idle_ms >= 20,
                     "%s: %u refs, idle %.1f ms", ci[i].id, ci[i].refs, ci[i].idle_ms);
    }

    /* one partition through: a's next one at the gate, its third queued for
     * the prover; synthesis takes b (NORMAL) before a's (LOW) fourth, and
     * b's partitions go ahead of a's in the prover's queue, whose bound
     * counts only theirs: both of b's are in flight */
    gate_allow(&g, 1);
    wait_progress(e, "a", 1, 2);
    wait_progress(e, "b", 0, 2);
    TF_CHECK(gate_wait_held(&g, 1));
    cz_engine_status_get(e, &st);
    check_kind_sums(&st);
    kind_is(&st, CZ_KIND_SYNTHETIC, (const uint64_t[9]){0, 1, 2, 2, 1, 0, 0, 0, 1});
    kind_is(&st, CZ_KIND_GROTH16, (const uint64_t[9]){0, 1, 0, 2, 1, 0, 0, 0, 0});
    size_t n = cz_engine_jobs(e, ji, 4);
    TF_CHECK(n == 2 && !strcmp(ji[0].label, "b") && ji[0].state == CZ_JOB_RUNNING);
    for (size_t i = 0; i < n && i < 4; i++)
        check_progress(&ji[i]);

    /* a cancelled: nothing of it waits, it ends once its partitions stop */
    TF_CHECK(cz_engine_cancel(e, "a") == CZ_OK);
    cz_engine_job_info ja;
    TF_CHECK(live_job(e, "a", &ja) && ja.ending && ja.partitions_waiting == 0 &&
             ja.partitions_in_flight > 0);
    cz_engine_status_get(e, &st);
    TF_CHECK(st.kinds[0].partitions_waiting == 0 && st.kinds[0].jobs_running == 1);
    gate_allow(&g, -1);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "a", -1, &res) == CZ_OK && res.state == CZ_JOB_CANCELLED);
    TF_CHECK(cz_engine_await(e, "b", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);

    /* a groth16 job whose witness does not satisfy reg: FAILED, its kind's */
    size_t k = cz_r1cs_num_inputs(c.r) + 5;
    cz_fr_add(&c.w[k], &c.w[k], &CZ_FR_ONE);
    cz_job_groth16 bad = {.circuit = "reg", .w = c.w, .n_w = c.n, .partitions = 1};
    cz_job_request rc = {.id = "bad", .kind = CZ_KIND_GROTH16, .input = &bad};
    TF_CHECK(cz_engine_submit(e, &rc, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_await(e, "bad", -1, &res) == CZ_OK && res.state == CZ_JOB_FAILED);

    cz_engine_status_get(e, &st);
    check_kind_sums(&st);
    kind_is(&st, CZ_KIND_SYNTHETIC, (const uint64_t[9]){0, 0, 0, 0, 1, 0, 0, 1, 1});
    kind_is(&st, CZ_KIND_GROTH16, (const uint64_t[9]){0, 0, 0, 0, 2, 1, 1, 0, 2});
    kind_is(&st, CZ_KIND_POREP, zero);
    TF_CHECK(st.jobs_queued == 0 && st.jobs_running == 0 && st.partitions_unfinished == 0);
    TF_CHECK(cz_engine_jobs(e, ji, 4) == 0);
    TF_CHECK(cz_engine_circuits(e, ci, 4) == 2 && ci[0].refs == 0 && ci[1].refs == 0);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_OK);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    gate_destroy(&g);
    reg_free(&c);
}

/* --------------------------------------------------- synthetic, budget --- */

static void test_synthetic_switch(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.no_synthetic = true;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "s", CZ_PRIO_NORMAL, 10, 1, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_engine_preload(e, "synthetic-10-0", NULL, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(!st.kinds[CZ_KIND_SYNTHETIC - 1].enabled && st.kinds[CZ_KIND_GROTH16 - 1].enabled);
    cz_engine_free(e);

    cfg.no_synthetic = false;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    static const char *const alias[] = {"synthetic-010-0", "synthetic-10-00", "synthetic-+10-0",
                                        "synthetic- 10-0", "synthetic-10-0 ", "synthetic-10-0x"};
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        TF_CHECK_MSG(cz_engine_preload(e, alias[i], NULL, err, sizeof err) == CZ_ERR_NOT_FOUND,
                     "%s was loaded", alias[i]);
    bool already = true;
    TF_CHECK(cz_engine_preload(e, "synthetic-10-0", &already, err, sizeof err) == CZ_OK &&
             !already);
    TF_CHECK(cz_engine_circuits(e, NULL, 0) == 1);
    /* a registered circuit cannot take a built-in id */
    reg_circuit c;
    reg_make(&c, 10, (const uint8_t[32]){9}, 77);
    TF_CHECK(cz_engine_register_circuit(e, "synthetic-10-3", &c.p, c.r, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "synthetic") != NULL, "%s", err);
    check_drained(e, "synthetic-10-0");
    cz_engine_free(e);
    reg_free(&c);
}

static void test_budget_checks(void)
{
    uint64_t mem = 0;
    TF_CHECK(cz_budget_auto_total(&mem, 0) == CZ_OK && mem > 0);
    cz_engine_config cfg = {0};
    cz_engine *e;
    char err[300];
    cfg.memory_budget = mem + 1;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "exceeds") && strstr(err, "MemTotal"), "%s", err);
    cfg.memory_budget = 0;
    cfg.safety_margin = mem;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "safety margin") && strstr(err, "MemTotal"), "%s", err);
    cfg.safety_margin = 0;
    cfg.memory_budget = 64 << 20;
    cfg.request_pool = 33 << 20;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "request pool"), "%s", err);
    /* peaks are never below the reading beside them */
    cfg.request_pool = 0;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    void *big = malloc(64 << 20);
    memset(big, 1, 64 << 20);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK_MSG(st.peak_rss >= st.rss && st.peak_untracked >= st.untracked,
                 "peak rss %llu < rss %llu", (unsigned long long)st.peak_rss,
                 (unsigned long long)st.rss);
    TF_CHECK(st.request_pool == (8 << 20));
    free(big);
    cz_engine_free(e);
}

TF_MAIN(TF_TEST(test_utf8), TF_TEST(test_id_rules), TF_TEST(test_generated_ids),
        TF_TEST(test_labels), TF_TEST(test_label_race), TF_TEST(test_generic_witness), TF_TEST(test_verify_default),
        TF_TEST(test_limits), TF_TEST(test_request_pool), TF_TEST(test_watch),
        TF_TEST(test_watch_shutdown), TF_TEST(test_events), TF_TEST(test_kind_status),
        TF_TEST(test_synthetic_switch), TF_TEST(test_budget_checks))
