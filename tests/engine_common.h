/* Helpers shared by the engine tests (test_engine.c on the CPU back end,
 * test_engine_gpu.c on the CUDA one, and the Filecoin kinds' tests): a
 * small engine configuration, an engine over a parameter cache, the refusal
 * check, synthetic job requests, a back end that holds partitions at a gate,
 * the drained-engine check, the monitor thread that samples the budget's
 * invariants and the randomized load itself. */
#ifndef CZ_TESTS_ENGINE_COMMON_H
#define CZ_TESTS_ENGINE_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "tf.h"

/* budget 0: 1 GiB; two synthesis workers, two prover threads, a request
 * pool of 1 MiB whatever the budget (so budgets derived from measured
 * peaks hold the same pool); every partition's proof is verified by the
 * engine (its default). */
#define TEST_POOL ((uint64_t)1 << 20)
static inline cz_engine_config base_config(uint64_t budget)
{
    cz_engine_config c = {0};
    c.memory_budget = budget ? budget : (uint64_t)1 << 30;
    c.synthesis_workers = 2;
    c.prover_threads = 2;
    c.request_pool = TEST_POOL;
    return c;
}

/* An engine over the parameter cache `cache` (NULL: none), from *base or
 * base_config(0), with two synthesis threads; a failed start is a failed
 * check and NULL. */
static inline cz_engine *fc_engine_new(const char *cache, const cz_engine_config *base)
{
    cz_engine_config c = base ? *base : base_config(0);
    c.param_cache = cache;
    c.synthesis_threads = 2;
    cz_engine *e = NULL;
    char err[256];
    TF_CHECK_MSG(cz_engine_new(&e, &c, err, sizeof err) == CZ_OK, "%s", err);
    return e;
}

/* rc is want_rc and err contains want; what names the case. */
static inline void expect_err(int rc, int want_rc, const char *err, const char *want,
                              const char *what)
{
    TF_CHECK_MSG(rc == want_rc && strstr(err, want) != NULL, "%s: rc %d (want %d): %s", what, rc,
                 want_rc, err);
}

/* A synthetic job of the 2^log_rows-row circuit with 2 public inputs
 * (circuit id "synthetic-<log_rows>-2"); *in must outlive the submit. */
static inline cz_job_request synth_req(cz_job_synthetic *in, const char *id, cz_priority prio,
                                       unsigned log_rows, uint32_t parts, uint64_t seed)
{
    memset(in, 0, sizeof *in);
    in->circuit.log_rows = log_rows;
    in->circuit.n_public = 2;
    in->circuit.seed = seed;
    in->partitions = parts;
    cz_job_request r = {.id = id, .priority = prio, .kind = CZ_KIND_SYNTHETIC, .input = in};
    return r;
}

/* r is a completed job of parts partitions whose proofs each decode
 * (full checks). */
static inline void check_completed(const cz_job_result *r, uint32_t parts)
{
    TF_CHECK_MSG(r->state == CZ_JOB_COMPLETED, "state %s: %s", cz_job_state_name(r->state),
                 r->message);
    TF_CHECK(r->partitions == parts && r->partitions_done == parts && r->proofs != NULL);
    for (uint32_t i = 0; r->proofs && i < parts; i++) {
        cz_groth16_proof pf;
        TF_CHECK(cz_groth16_proof_from_bytes(&pf, r->proofs + CZ_GROTH16_PROOF_BYTES * i,
                                             CZ_GROTH16_PROOF_BYTES) == CZ_OK);
    }
}

/* A circuit for cz_engine_register_circuit (the caller's): the synthetic
 * circuit of 2^log_rows rows and 3 public inputs recorded, its INSECURE
 * parameters from seed, and the full assignments (n values each) of its
 * partitions 0 and 1 from witness seed wseed. */
typedef struct {
    cz_r1cs *r;
    cz_groth16_params p;
    size_t n;
    cz_fr *w; /* 2 partitions */
} reg_circuit;

static inline void reg_make(reg_circuit *c, unsigned log_rows, const uint8_t seed[32],
                            uint64_t wseed)
{
    cz_synthetic shape = {.log_rows = log_rows, .n_public = 3, .seed = 0};
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    TF_CHECK(cz_synthetic_synthesize(cs, &shape, 0) == CZ_OK);
    TF_CHECK(cz_cs_finish(cs, &c->r) == CZ_OK);
    cz_cs_free(cs);
    TF_CHECK(cz_groth16_setup(&c->p, c->r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    c->n = cz_r1cs_num_inputs(c->r) + cz_r1cs_num_aux(c->r);
    c->w = malloc(2 * c->n * sizeof(cz_fr));
    shape.seed = wseed;
    for (uint32_t part = 0; part < 2; part++) {
        TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
        TF_CHECK(cz_synthetic_synthesize(cs, &shape, part) == CZ_OK);
        cz_cs_write_assignment(cs, c->w + part * c->n);
        cz_cs_free(cs);
    }
}

static inline void reg_free(reg_circuit *c)
{
    cz_groth16_params_free(&c->p);
    cz_r1cs_free(c->r);
    free(c->w);
}

/* proofs (2 x 192 bytes) verify against c's partitions' public inputs. */
static inline void reg_verify(const reg_circuit *c, const uint8_t *proofs)
{
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &c->p.vk) == CZ_OK);
    for (uint32_t part = 0; proofs && part < 2; part++) {
        cz_groth16_proof pf;
        TF_CHECK(cz_groth16_proof_from_bytes(&pf, proofs + CZ_GROTH16_PROOF_BYTES * part,
                                             CZ_GROTH16_PROOF_BYTES) == CZ_OK);
        TF_CHECK(cz_groth16_verify(&pvk, &pf, c->w + part * c->n + 1,
                                   cz_r1cs_num_inputs(c->r) - 1) == CZ_OK);
    }
    cz_groth16_pvk_free(&pvk);
}

/* A CPU back end whose prove_start first waits at a gate: it holds a job's
 * partitions in flight at a known point.  permits < 0: open; otherwise
 * that many calls may pass (each takes one).  waiting: calls held now.
 * yields: a call held yields (opts->yield) every millisecond, as a long
 * device step would end, so the engine may run a more urgent partition
 * nested in it (that one then waits at the gate too); busy: that many of
 * the calls that may not wait for device memory (opts->no_wait) fail with
 * CZ_ERR_BUSY at once, as when the device is full. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int permits, waiting, busy;
    bool yields;
    cz_backend_ops ops;
} gate;

static inline unsigned gate_devices(void *ctx)
{
    (void)ctx;
    return 1;
}

static inline int gate_start(void *ctx, unsigned dev, cz_groth16_pending **out,
                             const cz_groth16_params *p, const cz_r1cs *r, const cz_fr *w,
                             size_t n, const cz_groth16_prove_opts *o, char *err, size_t errlen)
{
    gate *g = ctx;
    pthread_mutex_lock(&g->mu);
    if (o->no_wait && g->busy > 0) {
        g->busy--;
        pthread_mutex_unlock(&g->mu);
        return CZ_ERR_BUSY;
    }
    g->waiting++;
    pthread_cond_broadcast(&g->cv);
    while (g->permits == 0) {
        if (!g->yields || !o->yield) {
            pthread_cond_wait(&g->cv, &g->mu);
            continue;
        }
        pthread_mutex_unlock(&g->mu);
        usleep(1000);
        o->yield(o->yield_ctx);
        pthread_mutex_lock(&g->mu);
    }
    if (g->permits > 0)
        g->permits--;
    g->waiting--;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return cz_backend_cpu.prove_start(NULL, dev, out, p, r, w, n, o, err, errlen);
}

static inline int gate_finish(void *ctx, cz_groth16_proof *pf, cz_groth16_pending *pd)
{
    (void)ctx;
    return cz_backend_cpu.prove_finish(NULL, pf, pd);
}

/* A closed gate; cfg->backend is set to it, with one prover worker. */
static inline void gate_init(gate *g, cz_engine_config *cfg)
{
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->permits = 0;
    g->waiting = 0;
    g->busy = 0;
    g->yields = false;
    g->ops = (cz_backend_ops){.name = "gate",
                              .devices = gate_devices,
                              .prove_start = gate_start,
                              .prove_finish = gate_finish,
                              .ctx = g,
                              .kind = CZ_BACKEND_CPU};
    cfg->backend = &g->ops;
    cfg->prover_workers = 1;
}

/* n more calls may pass (n < 0: every call, from now on). */
static inline void gate_allow(gate *g, int n)
{
    pthread_mutex_lock(&g->mu);
    g->permits = n < 0 ? -1 : g->permits + n;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Waits until n calls are held at the gate (at most 30 s): whether they are. */
static inline bool gate_wait_held(gate *g, int n)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 30;
    pthread_mutex_lock(&g->mu);
    int rc = 0;
    while (g->waiting < n && rc == 0)
        rc = pthread_cond_timedwait(&g->cv, &g->mu, &dl);
    bool ok = g->waiting >= n;
    pthread_mutex_unlock(&g->mu);
    return ok;
}

/* Frees the gate once its engine is gone (opened before: gate_allow(g, -1)). */
static inline void gate_destroy(gate *g)
{
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}

/* Job id (its handle or label) among the unfinished ones: whether it is,
 * its record in *out. */
static inline bool live_job(cz_engine *e, const char *id, cz_engine_job_info *out)
{
    cz_engine_job_info all[8];
    size_t n = cz_engine_jobs(e, all, 8);
    for (size_t i = 0; i < n && i < 8; i++)
        if (!strcmp(all[i].id, id) || !strcmp(all[i].label, id)) {
            *out = all[i];
            return true;
        }
    return false;
}

/* Until job id shows `done` partitions done and `in_flight` in flight
 * (synthesizing or later), 30 s at most (a failed check says what it saw). */
static inline bool wait_progress(cz_engine *e, const char *id, uint32_t done, uint32_t in_flight)
{
    cz_engine_job_info j = {0};
    for (int i = 0; i < 30000; i++) {
        if (live_job(e, id, &j) && j.partitions_done == done && j.partitions_in_flight == in_flight)
            return true;
        usleep(1000);
    }
    TF_CHECK_MSG(0, "%s: %u done, %u in flight; want %u and %u", id, j.partitions_done,
                 j.partitions_in_flight, done, in_flight);
    return false;
}

/* Polls until n of job id's partitions have ended synthesis (their "synth"
 * timeline events; the engine queues a partition for the device under its
 * lock right after), at most 30 s. */
static inline bool wait_synthesized(cz_engine *e, const char *id, unsigned n)
{
    static cz_timeline_event ev[4096];
    for (int i = 0; i < 3000; i++) {
        cz_engine_job_info j;
        uint64_t seq = live_job(e, id, &j) ? j.seq : UINT64_MAX;
        size_t c = cz_engine_timeline(e, ev, 4096);
        unsigned got = 0;
        for (size_t k = 0; k < c; k++)
            got += ev[k].job_seq == seq && !strcmp(ev[k].stage, "synth");
        if (got >= n)
            return true;
        usleep(10000);
    }
    return false;
}

/* The job at device 0: its label, else its handle ("" idle). */
static inline const char *busy_name(const cz_engine_status *st)
{
    return st->devices[0].busy_label[0] ? st->devices[0].busy_label : st->devices[0].busy_job;
}

/* With the gate holding next[0]'s partition at the one device: lets one
 * call through at a time and checks that next[1], ..., next[n - 1] (labels)
 * hold the device in that order (consecutive entries must differ). */
static inline void check_device_order(cz_engine *e, gate *g, const char *const *next, int n)
{
    for (int i = 1; i < n; i++) {
        gate_allow(g, 1);
        cz_engine_status st;
        for (int t = 0; t < 3000; t++) { /* until the next one holds the device */
            cz_engine_status_get(e, &st);
            if (strcmp(busy_name(&st), next[i - 1]) && st.devices[0].busy_job[0])
                break;
            usleep(10000);
        }
        TF_CHECK_MSG(!strcmp(busy_name(&st), next[i]), "at the device: %s, want %s",
                     busy_name(&st), next[i]);
        TF_CHECK(gate_wait_held(g, 1));
    }
}

/* Everything back to zero: no reservation or buffer left once the cached
 * circuit (if not NULL) is evicted, but the request pool's (which must be
 * empty). */
static inline void check_drained(cz_engine *e, const char *circuit)
{
    if (circuit)
        TF_CHECK(cz_engine_evict(e, circuit) == CZ_OK);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK_MSG(st.request_used == 0, "the request pool holds %llu bytes",
                 (unsigned long long)st.request_used);
    cz_mem_snapshot s;
    cz_budget_snapshot(cz_engine_budget(e), &s);
    TF_CHECK_MSG(s.reserved == st.request_pool && s.allocated == 0 && s.reservations == 1,
                 "reserved %llu (pool %llu) allocated %llu reservations %llu",
                 (unsigned long long)s.reserved, (unsigned long long)st.request_pool,
                 (unsigned long long)s.allocated, (unsigned long long)s.reservations);
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        TF_CHECK_MSG(s.cls[k].live_count == 0 && s.cls[k].live_bytes == 0, "class %s: %llu live",
                     cz_buf_class_name((cz_buf_class)k), (unsigned long long)s.cls[k].live_count);
        TF_CHECK(s.cls[k].total_allocs == s.cls[k].total_frees);
    }
    TF_CHECK(cz_budget_live_buffers(cz_engine_budget(e), NULL, 0) == 0);
}

/* Job `name`: one partition of the 2^log_rows-row synthetic circuit, run to
 * COMPLETED. */
static inline void run_one(cz_engine *e, const char *name, unsigned log_rows)
{
    char err[256], id[CZ_JOB_ID_MAX];
    cz_job_synthetic in;
    cz_job_request r = synth_req(&in, name, CZ_PRIO_NORMAL, log_rows, 1, 5);
    TF_CHECK(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result res;
    TF_CHECK(cz_engine_await(e, name, 120000, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s: %s", name, res.message);
    cz_job_result_free(&res);
}

/* peak_reserved and the reservation left cached after one such job in a
 * fresh engine of configuration cfg; the engine drains. */
static inline void measure_job(cz_engine_config cfg, unsigned log_rows, uint64_t *peak,
                               uint64_t *cached)
{
    cz_engine *e;
    char err[256], cid[32];
    TF_CHECK_MSG(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK, "%s", err);
    run_one(e, "m", log_rows);
    cz_mem_snapshot s;
    cz_budget_snapshot(cz_engine_budget(e), &s);
    *peak = s.peak_reserved;          /* the request pool included */
    *cached = s.reserved - TEST_POOL; /* the circuit alone */
    snprintf(cid, sizeof cid, "synthetic-%u-2", log_rows);
    check_drained(e, cid);
    cz_engine_free(e);
}

/* The monitor thread: samples the budget every 2 ms (at least once) until
 * stop is set and
 * counts readings that break allocated <= reserved <= total or
 * peak_reserved <= total. */
typedef struct {
    cz_engine *e;
    atomic_int stop;
    int violations;
    uint64_t samples;
} monitor;

static inline void *monitor_fn(void *arg)
{
    monitor *m = arg;
    do {
        cz_mem_snapshot s;
        cz_budget_snapshot(cz_engine_budget(m->e), &s);
        if (s.allocated > s.reserved || s.reserved > s.total || s.peak_reserved > s.total)
            m->violations++;
        m->samples++;
        usleep(2000);
    } while (!atomic_load(&m->stop));
    return NULL;
}

static inline void monitor_start(monitor *m, pthread_t *th, cz_engine *e)
{
    m->e = e;
    m->violations = 0;
    m->samples = 0;
    atomic_init(&m->stop, 0);
    TF_CHECK(pthread_create(th, NULL, monitor_fn, m) == 0);
}

/* Stops the monitor and checks that no reading broke the invariants. */
static inline void monitor_stop(monitor *m, pthread_t th)
{
    atomic_store(&m->stop, 1);
    pthread_join(th, NULL);
    TF_CHECK_MSG(m->violations == 0, "%d budget invariant violations in %llu samples",
                 m->violations, (unsigned long long)m->samples);
}

/* The randomized load, under the monitor thread: `jobs` (<= 32) synthetic
 * jobs of 2^lr rows (lr = lr_min or lr_min + 1) with 1..max_parts
 * partitions and random priorities, about a quarter cancelled after a
 * random delay, awaits with short timeouts in between; then every job must
 * have completed with all its proofs or have been cancelled by the load,
 * and no reading may break the budget's invariants.  Returns the
 * partitions proved.  The caller evicts the circuits (evict_synthetic) and
 * checks the drain. */
static inline uint32_t random_load(cz_engine *e, int jobs, unsigned lr_min, uint32_t max_parts)
{
    enum { MAX_JOBS = 32 };
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    monitor m;
    pthread_t th;
    monitor_start(&m, &th, e);
    cz_job_synthetic in[MAX_JOBS];
    char ids[MAX_JOBS][16], id[CZ_JOB_ID_MAX], err[256];
    int cancelled[MAX_JOBS] = {0};
    for (int i = 0; i < jobs; i++) {
        snprintf(ids[i], sizeof ids[i], "r%d", i);
        unsigned lr = lr_min + (unsigned)(cz_prng_next(&tf_rng) % 2);
        uint32_t parts = 1 + (uint32_t)(cz_prng_next(&tf_rng) % max_parts);
        cz_priority pr = (cz_priority)(cz_prng_next(&tf_rng) % 4);
        cz_job_request r = synth_req(&in[i], ids[i], pr, lr, parts, cz_prng_next(&tf_rng));
        TF_CHECK_MSG(cz_engine_submit(e, &r, id, NULL, err, sizeof err) == CZ_OK, "%s", err);
        if (cz_prng_next(&tf_rng) % 4 == 0) {
            usleep((useconds_t)(cz_prng_next(&tf_rng) % 20000));
            TF_CHECK(cz_engine_cancel(e, ids[i]) == CZ_OK);
            cancelled[i] = 1;
        }
        cz_job_result res;
        int rc =
            cz_engine_await(e, ids[(i * 7) % (i + 1)], (int64_t)(cz_prng_next(&tf_rng) % 5), &res);
        TF_CHECK(rc == CZ_OK || rc == CZ_ERR_TIMEOUT);
        cz_job_result_free(&res);
    }
    uint32_t proved = 0;
    for (int i = 0; i < jobs; i++) {
        cz_job_result res;
        TF_CHECK(cz_engine_await(e, ids[i], 300000, &res) == CZ_OK); /* none waits forever */
        TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED || res.state == CZ_JOB_CANCELLED, "%s %s: %s",
                     ids[i], cz_job_state_name(res.state), res.message);
        if (res.state == CZ_JOB_CANCELLED)
            TF_CHECK(cancelled[i]);
        else if (res.state == CZ_JOB_COMPLETED)
            TF_CHECK_MSG(res.proofs != NULL && res.partitions_done == res.partitions, "%s: %s",
                         ids[i], res.message);
        proved += res.state == CZ_JOB_COMPLETED ? res.partitions : 0;
        cz_job_result_free(&res);
    }
    monitor_stop(&m, th);
    return proved;
}

/* Evicts the cached synthetic circuits of 2^lr_min .. 2^lr_max rows (those
 * random_load made). */
static inline void evict_synthetic(cz_engine *e, unsigned lr_min, unsigned lr_max)
{
    for (unsigned lr = lr_min; lr <= lr_max; lr++) {
        char cid[32];
        snprintf(cid, sizeof cid, "synthetic-%u-2", lr);
        int rc = cz_engine_evict(e, cid);
        TF_CHECK(rc == CZ_OK || rc == CZ_ERR_NOT_FOUND);
    }
}

#endif /* CZ_TESTS_ENGINE_COMMON_H */
