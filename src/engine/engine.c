/* The proving engine (see cuzk/engine.h).
 *
 * One mutex (e->mu) guards the jobs, the queues, the circuit cache and the
 * counters; the heavy work (synthesis, proving, loading circuits) runs with
 * it released.  Per partition:
 *
 *   synthesis worker: pick (job, partition) -> acquire the circuit (load it
 *     once, others wait) -> reserve the partition's bytes (wait in key order;
 *     on a first refusal, evict idle circuits) -> witness -> prove queue
 *   prover worker (device d): device lock { prove_start } -> free the
 *     witness, shrink the reservation to the finish scratch -> final queue
 *   finalizer: prove_finish -> release the reservation -> verify -> store
 *
 * A job ends when its last partition is in (COMPLETED), or when it was
 * cancelled or failed and none of its partitions is in flight any more. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"

void cz_eng_timeline(cz_engine *e, const job *j, uint32_t idx, const char *stage, double t0,
                     double t1)
{
    pthread_mutex_lock(&e->tl_mu);
    cz_timeline_event *ev = &e->tl[e->tl_pos];
    ev->job_seq = j->seq;
    ev->partition = idx;
    ev->stage = stage;
    ev->start_ms = t0;
    ev->end_ms = t1;
    e->tl_pos = (e->tl_pos + 1) % e->tl_cap;
    if (e->tl_n < e->tl_cap)
        e->tl_n++;
    if (e->cfg.timeline_log)
        fprintf(e->log, "TIMELINE,%.1f,%s,%llu,%u,%.1f\n", t1, stage, (unsigned long long)j->seq,
                idx, t1 - t0);
    pthread_mutex_unlock(&e->tl_mu);
}

/* ------------------------------------------------------------- sampler --- */

static void *sampler_fn(void *arg)
{
    cz_engine *e = arg;
    double last_log = 0;
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        pthread_mutex_unlock(&e->mu);
        cz_mem_snapshot s;
        cz_budget_snapshot(e->budget, &s);
        uint64_t rss = cz_mem_rss(), un = rss > s.allocated ? rss - s.allocated : 0;
        double t = cz_eng_now_ms(e);
        bool log = e->cfg.mem_log_ms && t - last_log >= e->cfg.mem_log_ms;
        if (log) {
            last_log = t;
            fprintf(e->log,
                    "cuzk mem: rss %.1f MiB tracked %.1f MiB untracked %.1f MiB reserved "
                    "%.1f / %.1f MiB, %llu reservations, %llu waiting\n",
                    rss / 1048576.0, s.allocated / 1048576.0, un / 1048576.0,
                    s.reserved / 1048576.0, s.total / 1048576.0, (unsigned long long)s.reservations,
                    (unsigned long long)s.waiters);
            fflush(e->log);
        }
        pthread_mutex_lock(&e->mu);
        if (rss > e->peak_rss)
            e->peak_rss = rss;
        if (un > e->peak_untracked)
            e->peak_untracked = un;
        struct timespec dl = cz_clock_deadline_ms(e->cfg.rss_sample_ms);
        if (!e->stop)
            pthread_cond_timedwait(&e->cv_sampler, &e->mu, &dl);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* -------------------------------------------------------------- engine --- */

unsigned cz_engine_auto_synthesis_workers(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    return ncpu >= 4 ? (unsigned)(ncpu / 2 < 8 ? ncpu / 2 : 8) : 1;
}

/* *field = v where the caller left it 0. */
static void or_default(unsigned *field, unsigned v)
{
    if (*field == 0)
        *field = v;
}

/* The defaults of include/cuzk/engine.h, a field a line. */
static void defaults(cz_engine_config *c)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    /* memory is bounded by the budget, not by the synthesis workers */
    or_default(&c->synthesis_workers, cz_engine_auto_synthesis_workers());
    or_default(&c->finalizers, 1);
    or_default(&c->queue_depth, 2);
    or_default(&c->history, 1024);
    or_default(&c->timeline_events, 65536);
    or_default(&c->rss_sample_ms, 1000);
    or_default(&c->prover_threads, (unsigned)ncpu);
    or_default(&c->synthesis_threads, (unsigned)ncpu);
    or_default(&c->max_jobs, 256);
    or_default(&c->max_partitions, 4096);
    or_default(&c->max_watches, 16384);
}

static double gib(uint64_t b) { return (double)b / (1u << 30); }

/* CZ_ERR_INVALID_ARG, err "engine: WHAT (its bytes and GiB) IS this
 * machine's memory (MemTotal ...)THEN". */
static int against_memory(char *err, size_t errlen, const char *what, uint64_t v, const char *is,
                          uint64_t mem, const char *then)
{
    cz_msgf(err, errlen,
            "engine: %s (%llu bytes, %.1f GiB) %s this machine's memory (MemTotal %llu bytes, "
            "%.1f GiB)%s",
            what, (unsigned long long)v, gib(v), is, (unsigned long long)mem, gib(mem), then);
    return CZ_ERR_INVALID_ARG;
}

/* The budget's total: memory_budget (at most MemTotal), or MemTotal less
 * the safety margin. */
static int budget_total(const cz_engine_config *c, uint64_t *total, char *err, size_t errlen)
{
    uint64_t mem;
    if (cz_budget_auto_total(&mem, 0) != CZ_OK) {
        cz_msgf(err, errlen, "engine: cannot read MemTotal from /proc/meminfo");
        return CZ_ERR_IO;
    }
    if (c->memory_budget) {
        if (c->memory_budget > mem)
            return against_memory(err, errlen, "the memory budget", c->memory_budget, "exceeds",
                                  mem, "");
        *total = c->memory_budget;
        return CZ_OK;
    }
    if (c->safety_margin >= mem)
        return against_memory(err, errlen, "the safety margin", c->safety_margin,
                              "is not below", mem, ": no budget is left");
    /* no margin given: 4 GiB, or an eighth of a machine smaller than 32 GiB */
    uint64_t margin = c->safety_margin ? c->safety_margin
                      : mem / 8 < (4ull << 30) ? mem / 8
                                               : (4ull << 30);
    *total = mem - margin;
    return CZ_OK;
}

int cz_engine_new(cz_engine **out, const cz_engine_config *cfg, char *err, size_t errlen)
{
    if (out == NULL) {
        cz_msgf(err, errlen, "engine: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    *out = NULL;
    cz_engine_config c = cfg ? *cfg : (cz_engine_config){0};
    defaults(&c);
    if (c.synthesis_workers > 1024 || c.finalizers > 1024 || c.prover_workers > 64 ||
        c.prover_threads > 1024 || c.synthesis_threads > 1024 || c.queue_depth > 1u << 20) {
        cz_msgf(err, errlen, "engine: a worker count or queue depth is out of range");
        return CZ_ERR_INVALID_ARG;
    }
    uint64_t total;
    int brc = budget_total(&c, &total, err, errlen);
    if (brc != CZ_OK)
        return brc;
    uint64_t pool = c.request_pool ? c.request_pool
                    : total / 8 < (4ull << 30) ? total / 8
                                               : (4ull << 30);
    if (pool > total / 2 || pool < cz_mem_charge(1)) {
        cz_msgf(err, errlen,
                "engine: the request pool (%llu bytes) must be between %llu bytes and half the "
                "memory budget (%llu bytes)",
                (unsigned long long)pool, (unsigned long long)cz_mem_charge(1),
                (unsigned long long)(total / 2));
        return CZ_ERR_INVALID_ARG;
    }
    cz_engine *e = calloc(1, sizeof *e);
    if (e == NULL)
        return CZ_ERR_NOMEM;
    e->cfg = c;
    e->by_label.label = true;
    e->synth_limit = c.synthesis_workers;
    e->be = c.backend ? c.backend : &cz_backend_cpu;
    e->n_dev = e->be->devices(e->be->ctx);
    if (e->n_dev == 0) {
        cz_msgf(err, errlen, "engine: back end %s has no device", e->be->name);
        free(e);
        return CZ_ERR_INVALID_ARG;
    }
    if (e->cfg.prover_workers == 0)
        e->cfg.prover_workers = e->be == &cz_backend_cpu ? 1 : 2;
    clock_gettime(CLOCK_MONOTONIC, &e->t0);
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->tl_mu, NULL);
    e->log = c.log ? c.log : stderr;
    pthread_cond_t *cvs[] = {&e->cv_work,    &e->cv_prove, &e->cv_final,   &e->cv_space,
                             &e->cv_done,    &e->cv_circuit, &e->cv_api, &e->cv_sampler,
                             &e->cv_notify};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
        pthread_cond_init(cvs[i], NULL);
    e->tl_cap = c.timeline_events;
    e->tl = calloc(e->tl_cap, sizeof *e->tl);
    e->dev_mu = calloc(e->n_dev, sizeof *e->dev_mu);
    /* the synthesis workers, the urgent one, the provers, the finalizers */
    const unsigned n_synth = c.synthesis_workers + 1;
    unsigned nt = n_synth + e->n_dev * e->cfg.prover_workers + c.finalizers;
    e->threads = calloc(nt, sizeof *e->threads);
    int rc = (e->tl && e->dev_mu && e->threads) ? cz_budget_new(&e->budget, total) : CZ_ERR_NOMEM;
    if (rc == CZ_OK) {
        cz_wait_key key = {CZ_PRIO_CRITICAL + 1, 0, 0};
        rc = cz_budget_reserve(e->budget, pool, &key, 0, NULL, &e->request_pool, NULL, 0);
    }
    if (rc == CZ_OK && c.prover_threads > 1)
        rc = cz_pool_new(&e->pool, c.prover_threads - 1);
    if (rc == CZ_OK && c.synthesis_threads > 1)
        rc = cz_pool_new(&e->synth_pool, c.synthesis_threads - 1);
    if (rc == CZ_OK && c.synthesis_threads > 1)
        rc = cz_pool_new(&e->urgent_pool, c.synthesis_threads - 1);
    if (rc == CZ_OK && c.param_cache && !(e->param_cache = strdup(c.param_cache)))
        rc = CZ_ERR_NOMEM;
    e->cfg.param_cache = e->param_cache;
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "engine: %s", cz_strerror(rc));
        cz_engine_free(e);
        return rc;
    }
    for (unsigned d = 0; d < e->n_dev; d++)
        pthread_mutex_init(&e->dev_mu[d], NULL);
    for (unsigned i = 0; i < nt && rc == CZ_OK; i++) {
        void *(*fn)(void *) = cz_eng_final_worker;
        void *arg = e;
        if (i < c.synthesis_workers) {
            fn = cz_eng_synth_worker;
        } else if (i < n_synth) {
            fn = cz_eng_urgent_worker;
        } else if (i < n_synth + e->n_dev * e->cfg.prover_workers) {
            cz_eng_prover_arg *pa = malloc(sizeof *pa);
            if (pa == NULL) {
                rc = CZ_ERR_NOMEM;
                break;
            }
            pa->e = e;
            pa->dev = (i - n_synth) % e->n_dev;
            fn = cz_eng_prove_worker;
            arg = pa;
        }
        if (pthread_create(&e->threads[i], NULL, fn, arg) != 0) {
            if (fn == cz_eng_prove_worker)
                free(arg);
            rc = CZ_ERR_THREAD;
        } else {
            e->n_threads++;
        }
    }
    if (rc == CZ_OK) {
        if (pthread_create(&e->sampler, NULL, sampler_fn, e) != 0)
            rc = CZ_ERR_THREAD;
        else
            e->sampler_started = true;
    }
    if (rc == CZ_OK) {
        if (pthread_create(&e->notifier, NULL, cz_eng_notifier, e) != 0)
            rc = CZ_ERR_THREAD;
        else
            e->notifier_started = true;
    }
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "engine: starting the workers failed: %s", cz_strerror(rc));
        cz_engine_free(e);
        return rc;
    }
    *out = e;
    return CZ_OK;
}

void cz_engine_free(cz_engine *e)
{
    if (e == NULL)
        return;
    pthread_mutex_lock(&e->mu);
    e->stop = true;
    for (job *j = e->live; j; j = j->next)
        cz_eng_job_fail_locked(e, j, CZ_ERR_SHUTDOWN, "the engine is shutting down");
    pthread_cond_t *cvs[] = {&e->cv_work, &e->cv_prove,   &e->cv_final,  &e->cv_space,
                             &e->cv_done, &e->cv_circuit, &e->cv_sampler};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
        pthread_cond_broadcast(cvs[i]);
    pthread_mutex_unlock(&e->mu);
    if (e->budget)
        cz_budget_wake(e->budget);
    for (unsigned i = 0; i < e->n_threads; i++)
        pthread_join(e->threads[i], NULL);
    if (e->sampler_started)
        pthread_join(e->sampler, NULL);
    /* partitions left in the queues, then every job */
    part *p;
    while ((p = cz_eng_fifo_pop(&e->pq)) != NULL)
        cz_eng_part_drop(e, p);
    while ((p = cz_eng_fifo_pop(&e->fq)) != NULL)
        cz_eng_part_drop(e, p);
    pthread_mutex_lock(&e->mu);
    for (job *j = e->live; j;) {
        job *nx = j->next;
        cz_eng_job_check_end(e, j); /* nothing in flight: ends (moves to history) */
        j = nx;
    }
    while (e->n_api > 0) /* awaiters and submitters leave */
        pthread_cond_wait(&e->cv_api, &e->mu);
    /* every job has ended: the notifier delivers what is queued (watches
     * included) and stops */
    e->notifier_stop = true;
    pthread_cond_signal(&e->cv_notify);
    pthread_mutex_unlock(&e->mu);
    if (e->notifier_started)
        pthread_join(e->notifier, NULL);
    for (job *j = e->hist; j;) {
        job *nx = j->next;
        cz_eng_job_free(j);
        j = nx;
    }
    for (circuit *c = e->circuits; c;) {
        circuit *nx = c->next;
        cz_eng_circuit_unload(c);
        free(c);
        c = nx;
    }
    cz_resv_release(e->request_pool);
    cz_pool_free(e->pool);
    cz_pool_free(e->synth_pool);
    cz_pool_free(e->urgent_pool);
    free(e->param_cache);
    cz_budget_free(e->budget);
    free(e->by_handle.t);
    free(e->by_label.t);
    for (unsigned d = 0; e->dev_mu && d < e->n_dev; d++)
        pthread_mutex_destroy(&e->dev_mu[d]);
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->tl_mu);
    free(e->dev_mu);
    free(e->threads);
    free(e->tl);
    free(e);
}

cz_budget *cz_engine_budget(cz_engine *e) { return e->budget; }

void cz_engine_reset_peaks(cz_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->peak_rss = e->peak_untracked = 0;
    pthread_mutex_unlock(&e->mu);
}

void cz_engine_set_synthesis_limit(cz_engine *e, unsigned n)
{
    pthread_mutex_lock(&e->mu);
    e->synth_limit = n == 0 || n > e->cfg.synthesis_workers ? e->cfg.synthesis_workers : n;
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
}

cz_resv *cz_engine_request_pool(cz_engine *e) { return e->request_pool; }

/* -------------------------------------------------------------- status --- */

/* Partitions of live job j that synthesis will still take (none once it
 * is cancelled or failed).  Caller holds e->mu. */
static uint32_t waiting_parts(job *j)
{
    return atomic_load(&j->cancel) ? 0 : j->n_parts - j->next_part;
}

void cz_engine_status_get(cz_engine *e, cz_engine_status *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&e->mu);
    s->jobs_submitted = e->submitted;
    s->jobs_completed = e->completed;
    s->jobs_failed = e->failed;
    s->jobs_cancelled = e->cancelled;
    s->partitions_proved = e->proved;
    for (unsigned i = 0; i < CZ_JOB_KINDS; i++) {
        const cz_eng_kind *k = cz_eng_kinds[i];
        cz_engine_kind_status *ks = &s->kinds[i];
        ks->kind = k->kind;
        ks->name = k->name;
        ks->enabled = k->enabled ? k->enabled(e) : true;
        ks->jobs_submitted = e->kc[i].submitted;
        ks->jobs_completed = e->kc[i].completed;
        ks->jobs_failed = e->kc[i].failed;
        ks->jobs_cancelled = e->kc[i].cancelled;
        ks->partitions_proved = e->kc[i].proved;
    }
    for (job *j = e->live; j; j = j->next) {
        cz_engine_kind_status *ks = &s->kinds[j->kind - 1];
        if (j->state == CZ_JOB_QUEUED) {
            s->jobs_queued++;
            ks->jobs_queued++;
        } else {
            s->jobs_running++;
            ks->jobs_running++;
        }
        ks->partitions_waiting += waiting_parts(j);
        ks->partitions_in_flight += j->in_flight;
    }
    s->partitions_unfinished = (uint32_t)e->live_parts;
    s->max_jobs = e->cfg.max_jobs;
    s->max_partitions = e->cfg.max_partitions;
    s->watches = e->n_watches;
    s->synth_busy = e->synth_busy;
    s->prove_busy = e->prove_busy;
    s->final_busy = e->final_busy;
    s->synth_workers = e->cfg.synthesis_workers;
    s->prove_workers = e->cfg.prover_workers * e->n_dev;
    s->finalizers = e->cfg.finalizers;
    s->prove_queue = e->pq.n;
    s->final_queue = e->fq.n;
    s->n_devices = e->n_dev;
    for (unsigned d = 0; d < e->n_dev; d++) {
        const job *j = e->dev_job[d];
        snprintf(s->devices[d].busy_job, CZ_JOB_ID_MAX, "%s", j ? j->id : "");
        snprintf(s->devices[d].busy_label, CZ_JOB_ID_MAX, "%s", j ? j->label : "");
        s->devices[d].busy_kind = j ? j->kind : 0;
        s->devices[d].link_bytes = e->dev_link_bytes[d];
        s->devices[d].link_seconds = e->dev_link_s[d];
    }
    for (circuit *c = e->circuits; c; c = c->next)
        s->circuits_cached++;
    pthread_mutex_unlock(&e->mu);
    cz_budget_snapshot(e->budget, &s->mem);
    s->request_pool = cz_resv_size(e->request_pool);
    s->request_used = cz_resv_used(e->request_pool);
    s->rss = cz_mem_rss();
    s->untracked = s->rss > s->mem.allocated ? s->rss - s->mem.allocated : 0;
    /* this reading counts towards the peaks too, so a peak is never below
     * the figure shown beside it */
    pthread_mutex_lock(&e->mu);
    if (s->rss > e->peak_rss)
        e->peak_rss = s->rss;
    if (s->untracked > e->peak_untracked)
        e->peak_untracked = s->untracked;
    s->peak_rss = e->peak_rss;
    s->peak_untracked = e->peak_untracked;
    pthread_mutex_unlock(&e->mu);
    /* outside mu: a device's account has its own lock */
    for (unsigned d = 0; d < s->n_devices; d++) {
        cz_engine_device_info *di = &s->devices[d].info;
        if (e->be->device_info) {
            e->be->device_info(e->be->ctx, d, di);
        } else {
            di->ordinal = (int)d;
            snprintf(di->name, sizeof di->name, "%s", e->be->name);
        }
    }
}

/* The order synthesis serves jobs in (pick_job): higher priority first,
 * then submission; every live job's rank is distinct. */
static uint64_t job_rank(const job *j)
{
    return (uint64_t)(CZ_PRIO_CRITICAL - j->prio) << 60 | j->seq;
}

size_t cz_engine_jobs(cz_engine *e, cz_engine_job_info *out, size_t max)
{
    if (out == NULL)
        max = 0;
    pthread_mutex_lock(&e->mu);
    double now = cz_eng_now_ms(e);
    /* the next job by rank, max times over the list: no allocation under
     * the lock, and max is small (the callers show a few hundred) */
    uint64_t last = 0;
    size_t n = 0;
    for (; n < max; n++) {
        job *best = NULL;
        for (job *j = e->live; j; j = j->next) {
            uint64_t r = job_rank(j);
            if ((n == 0 || r > last) && (!best || r < job_rank(best)))
                best = j;
        }
        if (best == NULL)
            break;
        last = job_rank(best);
        cz_engine_job_info *i = &out[n];
        memset(i, 0, sizeof *i);
        snprintf(i->id, sizeof i->id, "%s", best->id);
        snprintf(i->label, sizeof i->label, "%s", best->label);
        snprintf(i->circuit, sizeof i->circuit, "%s", best->circuit_id);
        i->seq = best->seq;
        i->kind = best->kind;
        i->priority = best->prio;
        i->state = best->state;
        i->ending = atomic_load(&best->cancel) != 0;
        i->partitions = best->n_parts;
        i->partitions_done = best->done;
        i->partitions_in_flight = best->in_flight;
        i->partitions_waiting = waiting_parts(best);
        i->age_ms = now - best->t_submit;
        i->queue_ms = (best->t_first > 0 ? best->t_first : now) - best->t_submit;
    }
    size_t total = e->n_live;
    pthread_mutex_unlock(&e->mu);
    return total;
}

size_t cz_engine_timeline(cz_engine *e, cz_timeline_event *out, size_t max)
{
    pthread_mutex_lock(&e->tl_mu);
    size_t n = e->tl_n < max ? e->tl_n : max;
    size_t first = (e->tl_pos + e->tl_cap - n) % e->tl_cap;
    for (size_t i = 0; i < n; i++)
        out[i] = e->tl[(first + i) % e->tl_cap];
    pthread_mutex_unlock(&e->tl_mu);
    return n;
}

