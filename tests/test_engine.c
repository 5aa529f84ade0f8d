/* The proving engine (include/cuzk/engine.h) end to end on the CPU back end
 * with the built-in synthetic circuits: job lifecycle, idempotent submit,
 * priorities, cancellation, timeouts, injected back-end faults, a budget
 * that fits one partition, a budget too small for any, and a randomized
 * load whose memory invariants a monitor thread samples throughout.  Every
 * completed proof is verified (self_verify) and checked again here; every
 * counter returns to zero once the engine has drained. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine_common.h"

static void test_basic_job(void)
{
    cz_engine_config cfg = base_config(0);
    FILE *log = tmpfile();
    cfg.log = log;
    cfg.timeline_log = true;
    cfg.rss_sample_ms = 5;
    cfg.mem_log_ms = 1;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request req = synth_req(&in, "basic", CZ_PRIO_NORMAL, 10, 3, 7);
    bool existing = true;
    TF_CHECK(cz_engine_submit(e, &req, id, &existing, err, sizeof err) == CZ_OK);
    TF_CHECK(!existing && strncmp(id, CZ_JOB_ID_GENERATED, strlen(CZ_JOB_ID_GENERATED)) == 0);
    char handle[CZ_JOB_ID_MAX];
    memcpy(handle, id, sizeof handle);
    /* the same request again while it lives: the same job */
    TF_CHECK(cz_engine_submit(e, &req, id, &existing, err, sizeof err) == CZ_OK);
    TF_CHECK(existing && strcmp(id, handle) == 0);
    cz_job_result r;
    TF_CHECK(cz_engine_await(e, "basic", -1, &r) == CZ_OK);
    check_completed(&r, 3);
    TF_CHECK(r.total_ms >= r.queue_ms);
    /* the circuit was recorded and set up for this job: load time, apart
     * from synthesis (AwaitProof's srs_load_ms) */
    double first_load = r.load_ms;
    TF_CHECK_MSG(first_load > 0 && r.synth_ms >= 0, "load %.3f ms, synthesis %.3f ms", first_load,
                 r.synth_ms);
    cz_job_result_free(&r);
    /* a completed id resubmitted (a retry after a lost reply): the same job */
    existing = false;
    TF_CHECK(cz_engine_submit(e, &req, id, &existing, err, sizeof err) == CZ_OK);
    TF_CHECK(existing && strcmp(id, handle) == 0);
    /* the timeline has the three stages of every partition */
    cz_timeline_event ev[64];
    size_t n = cz_engine_timeline(e, ev, 64);
    int counts[3] = {0};
    for (size_t i = 0; i < n; i++) {
        TF_CHECK(ev[i].end_ms >= ev[i].start_ms);
        counts[0] += !strcmp(ev[i].stage, "synth");
        counts[1] += !strcmp(ev[i].stage, "prove_start");
        counts[2] += !strcmp(ev[i].stage, "prove_finish");
    }
    TF_CHECK(counts[0] == 3 && counts[1] == 3 && counts[2] == 3);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.jobs_completed == 1 && st.partitions_proved == 3 && st.circuits_cached == 1);
    TF_CHECK(st.rss > 0);
    usleep(20000); /* a few sampler periods */
    cz_engine_status_get(e, &st);
    TF_CHECK(st.peak_rss > 0);
    /* unknown ids, a bad request */
    TF_CHECK(cz_engine_await(e, "nope", 0, &r) == CZ_ERR_NOT_FOUND);
    TF_CHECK(cz_engine_cancel(e, "nope") == CZ_ERR_NOT_FOUND);
    req = synth_req(&in, NULL, CZ_PRIO_NORMAL, 9, 1, 1);
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    req = synth_req(&in, NULL, CZ_PRIO_NORMAL, 10, 0, 1);
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    cz_job_groth16 g = {
        .circuit = "unregistered", .w = (const cz_fr *)&in, .n_w = 1, .partitions = 1};
    cz_job_request gr = {.kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &gr, id, NULL, err, sizeof err) == CZ_ERR_NOT_FOUND);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    /* the log has the timeline lines and the sampler's memory lines */
    char line[512];
    int tl = 0, mem = 0;
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        tl += !strncmp(line, "TIMELINE,", 9);
        mem += !strncmp(line, "cuzk mem: rss ", 14);
    }
    fclose(log);
    TF_CHECK_MSG(tl == 9 && mem > 0, "%d TIMELINE lines (want 9), %d memory lines", tl, mem);
}

/* AwaitProof's srs_load_ms: the job that loads a circuit reports the load
 * apart from synthesis; a later job of the cached circuit reports almost
 * none. */
static void test_load_time(void)
{
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_result r;
    double first = 0;
    for (int k = 0; k < 2; k++) {
        cz_job_request req = synth_req(&in, k ? "second" : "first", CZ_PRIO_NORMAL, 11, 2, 5 + k);
        TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
        TF_CHECK(cz_engine_await(e, id, -1, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
        if (k == 0) {
            first = r.load_ms;
            TF_CHECK_MSG(first > 0 && r.synth_ms >= 0, "load %.3f ms, synthesis %.3f ms", first,
                         r.synth_ms);
        } else {
            TF_CHECK_MSG(r.load_ms < first / 10, "cached: load %.3f ms, first %.3f ms", r.load_ms,
                         first);
        }
        cz_job_result_free(&r);
    }
    check_drained(e, "synthetic-11-2");
    cz_engine_free(e);
}

/* A registered circuit (parameters and R1CS owned by the caller) proves
 * GROTH16 jobs from full assignments; a wrong assignment length is refused
 * at submit; the circuit cannot be unregistered while a job uses it. */
static void test_registered_circuit(void)
{
    reg_circuit c;
    reg_make(&c, 10, (const uint8_t[32]){9}, 77);
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    cz_job_groth16 g = {.circuit = "reg", .w = c.w, .n_w = c.n, .partitions = 2};
    cz_job_request req = {.id = "g1", .kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    int rc = cz_engine_unregister_circuit(e, "reg");
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "g1", -1, &res) == CZ_OK);
    TF_CHECK(rc == CZ_ERR_BUSY || rc == CZ_OK);
    if (rc == CZ_OK) /* only possible once the job had finished */
        TF_CHECK(cz_engine_register_circuit(e, "reg", &c.p, c.r, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s", res.message);
    /* the proofs verify against the inputs of each partition */
    reg_verify(&c, res.proofs);
    cz_job_result_free(&res);
    g.n_w = c.n - 1;
    req.id = "g2";
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_OK);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_ERR_NOT_FOUND);
    check_drained(e, NULL);
    cz_engine_free(e);
    reg_free(&c);
}

/* The urgent worker and the priority queues (what a PoSt under a PoRep
 * load needs): one synthesis worker, queues of one, a gate before
 * prove_start, two prover workers.  A LOW job of 6 partitions fills the pipeline (one at the
 * gate, one queued for the device, one synthesized by the only worker and
 * waiting for room); a HIGH job of one partition is synthesized at once
 * by the urgent worker and queued ahead of the LOW one, so it is the next
 * at the device; a CRITICAL one submitted then goes ahead of both. */
static void test_urgent(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.queue_depth = 1;
    gate g;
    gate_init(&g, &cfg);
    /* two provers on the one device: the second waits for the device
     * before it takes a partition, so it does not hold one of load's while
     * the HIGH one arrives */
    cfg.prover_workers = 2;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[3];
    cz_job_request r = synth_req(&in[0], "load", CZ_PRIO_LOW, 10, 6, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&g, 1));
    TF_CHECK_MSG(wait_progress(e, "load", 0, 3), "the LOW job does not fill the pipeline");
    r = synth_req(&in[1], "high", CZ_PRIO_HIGH, 10, 1, 2);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(wait_synthesized(e, "high", 1), "the HIGH job is not synthesized");
    r = synth_req(&in[2], "crit", CZ_PRIO_CRITICAL, 10, 1, 3);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(wait_synthesized(e, "crit", 1), "the CRITICAL job is not synthesized");
    /* each in turn at the device: load's first, then the queue's head */
    static const char *const next[] = {"load", "crit", "high", "load"};
    check_device_order(e, &g, next, 4);
    gate_allow(&g, -1);
    const char *const ids[] = {"load", "high", "crit"};
    for (int i = 0; i < 3; i++) {
        cz_job_result res;
        TF_CHECK(cz_engine_await(e, ids[i], -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
        cz_job_result_free(&res);
    }
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    gate_destroy(&g);
}

/* Preemption at step bounds (worker.c): a LOW partition held in its
 * prove_start, which yields as a device step would end.  A CRITICAL job
 * is proved nested in it, to its end, while the LOW one still holds the
 * device; a HIGH one that finds the device's memory short goes back to the
 * queue's head, is tried again at the next yield, and is not failed; a
 * NORMAL one is not urgent and waits for the device. */
static int gate_busy_left(gate *g)
{
    pthread_mutex_lock(&g->mu);
    int n = g->busy;
    pthread_mutex_unlock(&g->mu);
    return n;
}

static void test_preempt(void)
{
    cz_engine_config cfg = base_config(0);
    gate g;
    gate_init(&g, &cfg);
    g.yields = true;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[4];
    cz_job_request r = synth_req(&in[0], "load", CZ_PRIO_LOW, 10, 2, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&g, 1));
    r = synth_req(&in[1], "crit", CZ_PRIO_CRITICAL, 10, 1, 2);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(gate_wait_held(&g, 2), "the CRITICAL partition is not run inside the LOW one");
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK_MSG(!strcmp(busy_name(&st), "crit"), "at the device: %s",
                 busy_name(&st));
    gate_allow(&g, 1); /* the nested call's: the LOW one's is below it on the stack */
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "crit", 30000, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);
    cz_engine_job_info ji;
    TF_CHECK(live_job(e, "load", &ji) && ji.partitions_done == 0);
    /* the device is shown as the LOW one's once the yield hook returns,
     * which may be after the nested job's await does (its prove_finish
     * runs on another worker): polled, 5 s at most */
    for (int i = 0; i < 500; i++) {
        cz_engine_status_get(e, &st);
        if (!strcmp(busy_name(&st), "load"))
            break;
        usleep(10000);
    }
    TF_CHECK_MSG(!strcmp(busy_name(&st), "load"), "at the device: %s",
                 busy_name(&st));

    /* NORMAL: below HIGH, never nested */
    r = synth_req(&in[2], "norm", CZ_PRIO_NORMAL, 10, 1, 3);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(wait_synthesized(e, "norm", 1));
    /* HIGH, with the device full: refused twice, then nested */
    pthread_mutex_lock(&g.mu);
    g.busy = 2;
    pthread_mutex_unlock(&g.mu);
    r = synth_req(&in[3], "high", CZ_PRIO_HIGH, 10, 1, 4);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(gate_wait_held(&g, 2), "the HIGH partition is not run after its refusals");
    TF_CHECK(gate_busy_left(&g) == 0);
    gate_allow(&g, 1);
    TF_CHECK(cz_engine_await(e, "high", 30000, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "high: %s", res.message);
    cz_job_result_free(&res);
    TF_CHECK(live_job(e, "norm", &ji) && ji.partitions_done == 0);
    TF_CHECK(live_job(e, "load", &ji) && ji.partitions_done == 0);

    gate_allow(&g, -1);
    const char *const ids[] = {"load", "norm"};
    for (int i = 0; i < 2; i++) {
        TF_CHECK(cz_engine_await(e, ids[i], -1, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", ids[i], res.message);
        cz_job_result_free(&res);
    }
    /* the nested prove_starts lie inside the LOW one's first; NORMAL's
     * starts after it (job seqs: load 1, crit 2, norm 3, high 4) */
    cz_timeline_event ev[64];
    size_t n = cz_engine_timeline(e, ev, 64);
    double s[5] = {-1, -1, -1, -1, -1}, f[5] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t q = ev[i].job_seq;
        if (strcmp(ev[i].stage, "prove_start") || q > 4 || s[q] >= 0)
            continue;
        s[q] = ev[i].start_ms;
        f[q] = ev[i].end_ms;
    }
    for (int q = 2; q <= 4; q += 2)
        TF_CHECK_MSG(s[q] >= s[1] && f[q] <= f[1], "job %d at %.1f-%.1f, load's %.1f-%.1f", q,
                     s[q], f[q], s[1], f[1]);
    TF_CHECK_MSG(s[3] >= f[1], "norm at %.1f, load's first ends %.1f", s[3], f[1]);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    gate_destroy(&g);
}

/* Witness staging (worker.c, take_staged): the gate's back end with stage
 * hooks that hand out tokens recording the witness.  A partition is staged
 * only while another is in prove_start on the device (its upload event
 * lies inside that one's), one waiting at a time; its prove_start gets its
 * own token; every token is freed once; a NORMAL partition that arrives
 * while a LOW one is staged runs first (not nested: only HIGH and CRITICAL
 * ones preempt), the token freed before it; a cancelled job's staged
 * partition frees its token. */
typedef struct {
    const cz_fr *w;
    size_t n;
    bool used; /* given to its prove_start */
} stage_token;

typedef struct {
    gate g;
    pthread_mutex_t mu;
    int staged, freed, live, used, bad; /* bad: a broken rule, counted */
    int waiting; /* tokens not yet given to their prove_start (at most 1) */
    int freed_unused;
} stager;

static stager *stager_of(void *ctx) { return (stager *)((char *)ctx - offsetof(stager, g)); }

static int st_stage(void *ctx, unsigned dev, const cz_fr *w, size_t n, void **out)
{
    stager *s = stager_of(ctx);
    (void)dev;
    stage_token *t = calloc(1, sizeof *t);
    if (t == NULL)
        return CZ_ERR_NOMEM;
    t->w = w;
    t->n = n;
    pthread_mutex_lock(&s->mu);
    s->bad += s->waiting > 0; /* one waiting at a time */
    s->waiting++;
    s->staged++;
    s->live++;
    pthread_mutex_unlock(&s->mu);
    *out = t;
    return CZ_OK;
}

static void st_unstage(void *ctx, void *staged)
{
    stager *s = stager_of(ctx);
    const stage_token *t = staged;
    pthread_mutex_lock(&s->mu);
    s->freed++;
    s->live--;
    s->waiting -= !t->used;
    s->freed_unused += !t->used;
    pthread_mutex_unlock(&s->mu);
    free(staged);
}

static int st_start(void *ctx, unsigned dev, cz_groth16_pending **out, const cz_groth16_params *p,
                    const cz_r1cs *r, const cz_fr *w, size_t n, const cz_groth16_prove_opts *o,
                    char *err, size_t errlen)
{
    stager *s = stager_of(ctx);
    stage_token *t = (stage_token *)(void *)o->staged;
    if (t) {
        pthread_mutex_lock(&s->mu);
        s->bad += t->w != w || t->n != n || t->used;
        t->used = true;
        s->used++;
        s->waiting--;
        pthread_mutex_unlock(&s->mu);
    }
    return gate_start(ctx, dev, out, p, r, w, n, o, err, errlen);
}

static int stager_get(stager *s, int *field)
{
    pthread_mutex_lock(&s->mu);
    int v = *field;
    pthread_mutex_unlock(&s->mu);
    return v;
}

/* Until n partitions have been staged, 30 s at most. */
static bool wait_staged(stager *s, int n)
{
    for (int i = 0; i < 3000 && stager_get(s, &s->staged) < n; i++)
        usleep(10000);
    return stager_get(s, &s->staged) >= n;
}

static void test_staging(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    stager s = {0};
    pthread_mutex_init(&s.mu, NULL);
    gate_init(&s.g, &cfg);
    s.g.ops.prove_start = st_start;
    s.g.ops.stage = st_stage;
    s.g.ops.unstage = st_unstage;
    cfg.prover_workers = 2;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[3];
    cz_job_request r = synth_req(&in[0], "load", CZ_PRIO_LOW, 10, 4, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&s.g, 1));
    TF_CHECK_MSG(wait_staged(&s, 1), "no partition staged beside the one at the device");
    /* a NORMAL partition queued while load's second is staged: it runs
     * next, and the staged witness is freed before it */
    r = synth_req(&in[1], "norm", CZ_PRIO_NORMAL, 10, 1, 2);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(wait_synthesized(e, "norm", 1));
    static const char *const next[] = {"load", "norm", "load"};
    check_device_order(e, &s.g, next, 3);
    TF_CHECK(stager_get(&s, &s.freed_unused) == 1);
    gate_allow(&s.g, -1);
    cz_job_result res;
    for (int i = 0; i < 2; i++) {
        TF_CHECK(cz_engine_await(e, i ? "norm" : "load", -1, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s", res.message);
        cz_job_result_free(&res);
    }
    /* a job cancelled while its partition is staged frees it */
    pthread_mutex_lock(&s.g.mu);
    s.g.permits = 0;
    pthread_mutex_unlock(&s.g.mu);
    int before = stager_get(&s, &s.staged);
    r = synth_req(&in[2], "gone", CZ_PRIO_NORMAL, 10, 3, 3);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&s.g, 1));
    TF_CHECK(wait_staged(&s, before + 1));
    TF_CHECK(cz_engine_cancel(e, "gone") == CZ_OK);
    gate_allow(&s.g, -1);
    TF_CHECK(cz_engine_await(e, "gone", -1, &res) == CZ_OK && res.state == CZ_JOB_CANCELLED);
    cz_job_result_free(&res);
    TF_CHECK(stager_get(&s, &s.freed_unused) == 2);
    /* every upload lies inside another partition's prove_start */
    static cz_timeline_event ev[256];
    size_t n = cz_engine_timeline(e, ev, 256), uploads = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ev[i].stage, "upload"))
            continue;
        uploads++;
        bool inside = false;
        for (size_t k = 0; k < n; k++)
            inside |= !strcmp(ev[k].stage, "prove_start") &&
                      (ev[k].job_seq != ev[i].job_seq || ev[k].partition != ev[i].partition) &&
                      ev[k].start_ms <= ev[i].start_ms && ev[i].start_ms <= ev[k].end_ms;
        TF_CHECK_MSG(inside, "job %llu partition %u staged at %.1f ms, beside no proof",
                     (unsigned long long)ev[i].job_seq, ev[i].partition, ev[i].start_ms);
    }
    TF_CHECK_MSG(uploads == (size_t)s.staged, "%zu upload events, %d staged", uploads, s.staged);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
    TF_CHECK_MSG(s.bad == 0 && s.live == 0 && s.waiting == 0 && s.freed == s.staged,
                 "staged %d, freed %d, live %d, used %d, broken rules %d", s.staged, s.freed,
                 s.live, s.used, s.bad);
    TF_CHECK_MSG(s.used >= 1, "no prove_start got its staged witness (%d staged)", s.staged);
    gate_destroy(&s.g);
    pthread_mutex_destroy(&s.mu);
}

/* One synthesis worker, a backlog of NORMAL jobs, then a CRITICAL one: it
 * starts before every NORMAL job submitted before it that had not started. */
static void test_priorities_and_cancel(void)
{
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[6];
    char ids[6][16];
    for (int i = 0; i < 5; i++) {
        snprintf(ids[i], sizeof ids[i], "n%d", i);
        cz_job_request r = synth_req(&in[i], ids[i], CZ_PRIO_NORMAL, 10, 2, (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    }
    cz_job_request r = synth_req(&in[5], "crit", CZ_PRIO_CRITICAL, 10, 1, 99);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    /* a queued job cancelled ends at once */
    TF_CHECK(cz_engine_cancel(e, "n4") == CZ_OK);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "n4", 5000, &res) == CZ_OK);
    TF_CHECK(res.state == CZ_JOB_CANCELLED && res.error == CZ_ERR_CANCELLED);
    /* an await that runs out of time */
    TF_CHECK(cz_engine_await(e, "n3", 1, &res) == CZ_ERR_TIMEOUT);
    TF_CHECK(res.state == CZ_JOB_QUEUED || res.state == CZ_JOB_RUNNING);
    for (int i = 0; i < 4; i++) {
        TF_CHECK(cz_engine_await(e, ids[i], -1, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", ids[i], res.message);
        cz_job_result_free(&res);
    }
    TF_CHECK(cz_engine_await(e, "crit", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);
    /* order of synthesis starts: crit before every NORMAL job that had not
     * started when it arrived (n2 and n3 at least: one worker, two
     * partitions per job, so n0 could only have begun) */
    cz_timeline_event ev[128];
    size_t n = cz_engine_timeline(e, ev, 128);
    double crit = -1, first_n3 = -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ev[i].stage, "synth"))
            continue;
        if (ev[i].job_seq == 6 && crit < 0)
            crit = ev[i].start_ms;
        if (ev[i].job_seq == 4 && first_n3 < 0)
            first_n3 = ev[i].start_ms;
    }
    TF_CHECK_MSG(crit >= 0 && first_n3 >= 0 && crit < first_n3, "crit %.1f n3 %.1f", crit,
                 first_n3);
    /* partitions of one job are synthesized in order */
    double last = -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ev[i].stage, "synth") && ev[i].job_seq == 1) {
            TF_CHECK(ev[i].partition == (last < 0 ? 0u : 1u));
            last = ev[i].start_ms;
        }
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* ------------------------------------------------------ fault injection --- */

typedef struct {
    atomic_int calls_start, calls_finish;
    int fail_start_at, fail_finish_at; /* call numbers (1-based) that fail */
} faulty;

static unsigned f_devices(void *ctx)
{
    (void)ctx;
    return 1;
}

static int f_start(void *ctx, unsigned dev, cz_groth16_pending **out, const cz_groth16_params *p,
                   const cz_r1cs *r, const cz_fr *w, size_t n, const cz_groth16_prove_opts *o,
                   char *err, size_t errlen)
{
    faulty *f = ctx;
    if (atomic_fetch_add(&f->calls_start, 1) + 1 == f->fail_start_at) {
        *out = NULL;
        snprintf(err, errlen, "injected prove_start fault");
        return CZ_ERR_BACKEND;
    }
    return cz_backend_cpu.prove_start(NULL, dev, out, p, r, w, n, o, err, errlen);
}

static int f_finish(void *ctx, cz_groth16_proof *pf, cz_groth16_pending *pd)
{
    faulty *f = ctx;
    if (atomic_fetch_add(&f->calls_finish, 1) + 1 == f->fail_finish_at) {
        cz_groth16_pending_free(pd);
        return CZ_ERR_BACKEND;
    }
    return cz_backend_cpu.prove_finish(NULL, pf, pd);
}

static void test_faults(void)
{
    faulty f = {.fail_start_at = 2, .fail_finish_at = 3};
    atomic_init(&f.calls_start, 0);
    atomic_init(&f.calls_finish, 0);
    cz_backend_ops ops = {.name = "faulty",
                          .devices = f_devices,
                          .prove_start = f_start,
                          .prove_finish = f_finish,
                          .ctx = &f,
                          .kind = CZ_BACKEND_CPU};
    cz_engine_config cfg = base_config(0);
    cfg.synthesis_workers = 1;
    cfg.backend = &ops;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[4];
    int failed = 0, completed = 0;
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "f%d", i);
        cz_job_request r = synth_req(&in[i], name, CZ_PRIO_NORMAL, 10, 1, (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    }
    for (int i = 0; i < 4; i++) {
        char name[8];
        cz_job_result r;
        snprintf(name, sizeof name, "f%d", i);
        TF_CHECK(cz_engine_await(e, name, -1, &r) == CZ_OK);
        if (r.state == CZ_JOB_FAILED) {
            failed++;
            TF_CHECK(r.error == CZ_ERR_BACKEND && r.proofs == NULL);
            TF_CHECK_MSG(strstr(r.message, "prove_") != NULL, "%s", r.message);
        } else {
            TF_CHECK(r.state == CZ_JOB_COMPLETED);
            completed++;
        }
        cz_job_result_free(&r);
    }
    /* the second start (job f1) and the third finish (job f3: f1 never got
     * to finish) failed: two jobs, the others
     * were proved; the engine still serves */
    TF_CHECK_MSG(failed == 2 && completed == 2, "failed %d completed %d", failed, completed);
    cz_job_request r = synth_req(&in[0], "after", CZ_PRIO_HIGH, 10, 2, 5);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "after", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);
    check_drained(e, "synthetic-10-2");
    cz_engine_free(e);
}

/* ---------------------------------------------------------- budgets --- */

/* A budget equal to the peak of one single-partition job (circuit cached
 * plus one partition) completes several multi-partition jobs, one partition
 * at a time; a budget too small for a partition fails the job at once with
 * the sizes named. */
static void test_budget_edges(void)
{
    cz_engine_config cfg = base_config(0);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, "probe", CZ_PRIO_NORMAL, 11, 1, 3);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, "probe", -1, &res) == CZ_OK && res.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&res);
    cz_mem_snapshot s;
    cz_budget_snapshot(cz_engine_budget(e), &s);
    uint64_t one = s.peak_reserved, cached = s.reserved;
    TF_CHECK(one > cached && cached > 0);
    check_drained(e, "synthetic-11-2");
    cz_engine_free(e);

    cfg = base_config(one);
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "t%d", i);
        r = synth_req(&in, name, CZ_PRIO_NORMAL, 11, 2, (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    }
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "t%d", i);
        TF_CHECK(cz_engine_await(e, name, -1, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", name, res.message);
        cz_job_result_free(&res);
    }
    cz_budget_snapshot(cz_engine_budget(e), &s);
    TF_CHECK(s.peak_reserved <= one);
    check_drained(e, "synthetic-11-2");
    cz_engine_free(e);

    /* one byte less: the circuit fits, but beside it no partition ever
     * can: the job fails at once naming the sizes */
    cfg = base_config(one - 1);
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    r = synth_req(&in, "big", CZ_PRIO_NORMAL, 11, 2, 1);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_engine_await(e, "big", 60000, &res) == CZ_OK);
    TF_CHECK(res.state == CZ_JOB_FAILED && res.error == CZ_ERR_TOO_BIG);
    TF_CHECK_MSG(strstr(res.message, "memory budget") != NULL, "%s", res.message);
    check_drained(e, "synthetic-11-2");
    cz_engine_free(e);
}

/* A budget that holds one circuit's pipeline but not a second cached
 * circuit beside it: the idle circuit is evicted (least recently used) so
 * the next job's circuit can load; with a long minimum idle time it waits
 * until that time has passed. */
static void test_eviction(void)
{
    uint64_t peak10, cached10, peak11, cached11;
    measure_job(base_config(0), 10, &peak10, &cached10);
    measure_job(base_config(0), 11, &peak11, &cached11);
    for (int slow = 0; slow < 2; slow++) {
        cz_engine_config cfg = base_config(peak11 + cached10 / 2);
        cfg.eviction_min_idle_ms = slow ? 300 : 0;
        cz_engine *e;
        char err[256];
        TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
        run_one(e, "a", 10);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        run_one(e, "b", 11);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        cz_engine_status st;
        cz_engine_status_get(e, &st);
        TF_CHECK_MSG(st.circuits_cached == 1, "%u circuits cached", st.circuits_cached);
        TF_CHECK(cz_engine_evict(e, "synthetic-10-2") == CZ_ERR_NOT_FOUND); /* gone */
        if (slow)
            TF_CHECK_MSG(ms >= 250, "the idle circuit was evicted after %.0f ms", ms);
        cz_budget_snapshot(cz_engine_budget(e), &st.mem);
        TF_CHECK(st.mem.peak_reserved <= st.mem.total);
        check_drained(e, "synthetic-11-2");
        cz_engine_free(e);
    }
}

/* A budget that holds one circuit and one partition but not both circuits
 * and a partition, with single-partition jobs of two circuits alternating
 * on two synthesis workers: circuits are evicted and reloaded under memory
 * pressure and every job completes.  This hung (2 runs in 8 with four
 * copies at once on two cores) when a circuit load reserved its bytes in
 * two steps and partitions kept their circuits pinned while waiting: holds
 * and waits that could close a cycle. */
static void test_two_circuits(void)
{
    uint64_t peak10, cached10, peak11, cached11;
    measure_job(base_config(0), 10, &peak10, &cached10);
    measure_job(base_config(0), 11, &peak11, &cached11);
    uint64_t part11 = peak11 - TEST_POOL - cached11;
    /* peak11 = the pool, the 2^11 circuit and one partition (its load peak
     * is lower) */
    cz_engine_config cfg = base_config(peak11);
    TF_CHECK(peak11 < TEST_POOL + cached10 + cached11 + part11); /* not all three at once */
    cfg.synthesis_workers = 2;
    cfg.eviction_min_idle_ms = 0;
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX], name[8];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_job_synthetic in[6];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "a%d", i);
        cz_job_request r =
            synth_req(&in[i], name, CZ_PRIO_NORMAL, 10 + (unsigned)(i & 1), 2, (uint64_t)i);
        TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    }
    for (int i = 0; i < 6; i++) {
        cz_job_result res;
        snprintf(name, sizeof name, "a%d", i);
        TF_CHECK(cz_engine_await(e, name, 120000, &res) == CZ_OK);
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", name, res.message);
        cz_job_result_free(&res);
    }
    cz_mem_snapshot s;
    cz_budget_snapshot(cz_engine_budget(e), &s);
    TF_CHECK(s.peak_reserved <= s.total);
    for (int lr = 10; lr <= 11; lr++) {
        char cid[32];
        snprintf(cid, sizeof cid, "synthetic-%d-2", lr);
        int rc = cz_engine_evict(e, cid);
        TF_CHECK(rc == CZ_OK || rc == CZ_ERR_NOT_FOUND);
    }
    check_drained(e, NULL);
    cz_engine_free(e);
}

/* ------------------------------------------------------ randomized load --- */

static void test_random_load(void)
{
    /* room for both circuits and a few partitions: jobs wait for memory */
    cz_engine_config cfg = base_config((uint64_t)12 << 20);
    cfg.synthesis_workers = 2;
    cfg.eviction_min_idle_ms = 0;
    cz_engine *e;
    char err[256];
    TF_CHECK_MSG(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK, "%s", err);
    random_load(e, 10, 10, 3);
    evict_synthetic(e, 10, 11);
    check_drained(e, NULL);
    cz_engine_free(e);
}

TF_MAIN(TF_TEST(test_basic_job), TF_TEST(test_load_time), TF_TEST(test_registered_circuit),
        TF_TEST(test_priorities_and_cancel), TF_TEST(test_urgent), TF_TEST(test_preempt), TF_TEST(test_staging), TF_TEST(test_faults), TF_TEST(test_budget_edges),
        TF_TEST(test_eviction), TF_TEST(test_two_circuits), TF_TEST(test_random_load))
