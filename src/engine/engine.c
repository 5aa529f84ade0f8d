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

#include "cuzk/cuda.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"

/* ------------------------------------------------------------- records --- */

enum { C_LOADING, C_READY, C_FAILED };

typedef struct circuit {
    char id[CZ_JOB_ID_MAX];
    int state, registered, refs;
    double last_used_ms;
    const cz_groth16_params *params;
    const cz_r1cs *r1cs;
    cz_groth16_params own_params;
    cz_r1cs *own_r1cs;
    cz_groth16_pvk pvk;
    cz_resv *resv; /* its parameters, recorded R1CS (synthetic) or both (registered) */
    cz_resv_allocator ra;
    int load_err;
    char load_msg[200];
    struct circuit *next;
} circuit;

typedef struct job {
    char id[CZ_JOB_ID_MAX];
    uint64_t seq;
    cz_priority prio;
    cz_job_kind kind;
    cz_job_synthetic syn;
    char circuit_id[CZ_JOB_ID_MAX];
    cz_fr *w; /* CZ_KIND_GROTH16: partitions x n_w */
    size_t n_w;
    uint32_t n_parts, next_part, done, in_flight;
    cz_job_state state;
    int finished;
    int err;
    char msg[256];
    atomic_int cancel; /* set on cancel, failure and shutdown */
    uint8_t *proofs;
    double t_submit, t_first, t_end, synth_ms, prove_ms;
    struct job *next;
} job;

typedef struct part {
    job *j;
    circuit *c;
    uint32_t idx;
    cz_resv *resv;
    cz_resv_allocator ra;
    cz_fr *w;
    size_t n_w;
    cz_groth16_prove_sizes sz;
    cz_groth16_pending *pend;
    cz_fr *pub;
    size_t n_pub;
    struct part *next;
} part;

typedef struct {
    part *head, *tail;
    unsigned n;
} fifo;

struct cz_engine {
    cz_engine_config cfg;
    const cz_backend_ops *be;
    unsigned n_dev;
    pthread_mutex_t *dev_mu;
    cz_budget *budget;
    cz_pool *pool;
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_prove, cv_final, cv_space, cv_done, cv_circuit, cv_api;
    bool stop;
    job *live, *hist;
    unsigned n_hist, n_api;
    fifo pq, fq;
    circuit *circuits;
    uint64_t next_seq;
    pthread_t *threads;
    unsigned n_threads;
    uint64_t submitted, completed, failed, cancelled, proved;
    unsigned synth_busy, prove_busy, final_busy;
    struct timespec t0;
    pthread_mutex_t tl_mu;
    cz_timeline_event *tl;
    size_t tl_cap, tl_n, tl_pos;
    FILE *log;
    pthread_t sampler;
    bool sampler_started;
    pthread_cond_t cv_sampler;
    uint64_t peak_rss, peak_untracked;
};

static const char *const STAGE_SYNTH = "synth";
static const char *const STAGE_START = "prove_start";
static const char *const STAGE_FINISH = "prove_finish";

const char *cz_job_state_name(cz_job_state s)
{
    static const char *const n[] = {"queued", "running", "completed", "failed", "cancelled"};
    return (unsigned)s < 5 ? n[s] : "?";
}

static double now_ms(const cz_engine *e)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - e->t0.tv_sec) * 1e3 + (double)(t.tv_nsec - e->t0.tv_nsec) * 1e-6;
}

static void timeline(cz_engine *e, const job *j, uint32_t idx, const char *stage, double t0,
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

static void fifo_push(fifo *q, part *p)
{
    p->next = NULL;
    if (q->tail)
        q->tail->next = p;
    else
        q->head = p;
    q->tail = p;
    q->n++;
}

static part *fifo_pop(fifo *q)
{
    part *p = q->head;
    if (p) {
        q->head = p->next;
        if (!q->head)
            q->tail = NULL;
        q->n--;
    }
    return p;
}

/* ------------------------------------------------------------ back end --- */

static unsigned cpu_devices(void *ctx)
{
    (void)ctx;
    return 1;
}

static int cpu_start(void *ctx, unsigned dev, cz_groth16_pending **out,
                     const cz_groth16_params *params, const cz_r1cs *r1cs, const cz_fr *w,
                     size_t w_len, const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    (void)ctx, (void)dev;
    return cz_groth16_prove_start(out, params, r1cs, w, w_len, opts, err, errlen);
}

static int cpu_finish(void *ctx, cz_groth16_proof *proof, cz_groth16_pending *pending)
{
    (void)ctx;
    return cz_groth16_prove_finish(proof, pending);
}

const cz_backend_ops cz_backend_cpu = {"cpu",      cpu_devices, cpu_start,
                                       cpu_finish, NULL,        CZ_BACKEND_CPU};

/* The CUDA back end (see engine.h): engine device dev is CUDA device
 * list->ordinal[dev], or dev itself without a list. */
static unsigned cuda_devices(void *ctx)
{
    const cz_cuda_device_list *l = ctx;
    int count = cz_cuda_device_count();
    if (l && l->n)
        return cz_cuda_device_list_check(l, NULL, 0) == CZ_OK ? l->n : 0;
    return count > CZ_ENGINE_MAX_DEVICES ? CZ_ENGINE_MAX_DEVICES : (unsigned)count;
}

static int cuda_start(void *ctx, unsigned dev, cz_groth16_pending **out,
                      const cz_groth16_params *params, const cz_r1cs *r1cs, const cz_fr *w,
                      size_t w_len, const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    const cz_cuda_device_list *l = ctx;
    int ordinal = l && l->n ? l->ordinal[dev] : (int)dev;
    int rc = cz_cuda_set_device(ordinal);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "CUDA device %d: %s", ordinal, cz_strerror(rc));
        return rc;
    }
    cz_groth16_prove_opts o = *opts;
    o.backend = CZ_BACKEND_GPU;
    return cz_groth16_prove_start(out, params, r1cs, w, w_len, &o, err, errlen);
}

int cz_cuda_device_list_check(const cz_cuda_device_list *l, char *err, size_t errlen)
{
    int count = cz_cuda_device_count();
    if (!count) {
        cz_msgf(err, errlen, "no CUDA device");
        return CZ_ERR_UNSUPPORTED;
    }
    if (l->n > CZ_ENGINE_MAX_DEVICES) {
        cz_msgf(err, errlen, "%u devices listed, at most %d", l->n, CZ_ENGINE_MAX_DEVICES);
        return CZ_ERR_INVALID_ARG;
    }
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ordinal[i] < 0 || l->ordinal[i] >= count) {
            cz_msgf(err, errlen, "CUDA device %d is not there (%d found: 0..%d)", l->ordinal[i],
                    count, count - 1);
            return CZ_ERR_NOT_FOUND;
        }
    }
    return CZ_OK;
}

const cz_backend_ops cz_backend_cuda = {"cuda",     cuda_devices, cuda_start,
                                        cpu_finish, NULL,         CZ_BACKEND_GPU};

/* ------------------------------------------------------- job lifecycle --- */

static job *find_job(cz_engine *e, const char *id)
{
    for (job *j = e->live; j; j = j->next)
        if (!strcmp(j->id, id))
            return j;
    for (job *j = e->hist; j; j = j->next)
        if (!strcmp(j->id, id))
            return j;
    return NULL;
}

static void job_free(job *j)
{
    free(j->w);
    free(j->proofs);
    free(j);
}

/* Marks j failed (or cancelled) once: later partitions stop at their next
 * boundary.  Caller holds e->mu. */
static void job_fail_locked(cz_engine *e, job *j, int rc, const char *msg)
{
    if (j->err == CZ_OK) {
        j->err = rc;
        cz_msgf(j->msg, sizeof j->msg, "%s", msg && msg[0] ? msg : cz_strerror(rc));
    }
    atomic_store(&j->cancel, 1);
    cz_budget_wake(e->budget);
}

/* Ends j if nothing of it is in flight any more.  Caller holds e->mu. */
static void job_check_end(cz_engine *e, job *j)
{
    if (j->finished || j->in_flight > 0)
        return;
    if (j->err == CZ_OK && j->done < j->n_parts)
        return;
    j->finished = 1;
    j->t_end = now_ms(e);
    if (j->err == CZ_OK) {
        j->state = CZ_JOB_COMPLETED;
        e->completed++;
    } else if (j->err == CZ_ERR_CANCELLED || j->err == CZ_ERR_SHUTDOWN) {
        j->state = CZ_JOB_CANCELLED;
        e->cancelled++;
    } else {
        j->state = CZ_JOB_FAILED;
        e->failed++;
    }
    free(j->w);
    j->w = NULL;
    if (j->state != CZ_JOB_COMPLETED) {
        free(j->proofs);
        j->proofs = NULL;
    }
    /* live list -> history (newest first), trimmed to cfg.history */
    for (job **pp = &e->live; *pp; pp = &(*pp)->next) {
        if (*pp == j) {
            *pp = j->next;
            break;
        }
    }
    j->next = e->hist;
    e->hist = j;
    if (++e->n_hist > e->cfg.history) {
        job **pp = &e->hist;
        for (unsigned i = 0; i < e->cfg.history && *pp; i++)
            pp = &(*pp)->next;
        job *old = *pp;
        *pp = NULL;
        while (old) {
            job *nx = old->next;
            job_free(old);
            e->n_hist--;
            old = nx;
        }
    }
    pthread_cond_broadcast(&e->cv_done);
}

/* -------------------------------------------------------- circuit cache --- */

static circuit *find_circuit(cz_engine *e, const char *id)
{
    for (circuit *c = e->circuits; c; c = c->next)
        if (!strcmp(c->id, id))
            return c;
    return NULL;
}

/* Frees what a loaded (or failed) circuit holds; not the record.  Without
 * e->mu. */
static void circuit_unload(circuit *c)
{
    cz_groth16_pvk_free(&c->pvk);
    cz_groth16_params_free(&c->own_params);
    cz_r1cs_free(c->own_r1cs);
    c->own_r1cs = NULL;
    cz_resv_release(c->resv);
    c->resv = NULL;
}

static void circuit_unlink(cz_engine *e, circuit *c)
{
    for (circuit **pp = &e->circuits; *pp; pp = &(*pp)->next) {
        if (*pp == c) {
            *pp = c->next;
            return;
        }
    }
}

/* Evicts idle cached circuits, least recently used first, until `need`
 * bytes of the budget are unreserved or nothing more may go. */
static void evict_idle(cz_engine *e, uint64_t need)
{
    for (;;) {
        pthread_mutex_lock(&e->mu);
        cz_mem_snapshot s;
        cz_budget_snapshot(e->budget, &s);
        circuit *lru = NULL;
        double t = now_ms(e);
        if (s.total - s.reserved < need) {
            for (circuit *c = e->circuits; c; c = c->next)
                if (!c->registered && c->state == C_READY && c->refs == 0 &&
                    t - c->last_used_ms >= (double)e->cfg.eviction_min_idle_ms &&
                    (!lru || c->last_used_ms < lru->last_used_ms))
                    lru = c;
        }
        if (lru)
            circuit_unlink(e, lru);
        pthread_mutex_unlock(&e->mu);
        if (!lru)
            return;
        circuit_unload(lru);
        free(lru);
    }
}

/* Reserves bytes in key order; while they do not fit, idle circuits are
 * evicted (re-checked every 100 ms, as circuits become idle long enough). */
static int reserve(cz_engine *e, uint64_t bytes, const cz_wait_key *key, const atomic_int *cancel,
                   cz_resv **out, char *msg, size_t msglen)
{
    int rc = cz_budget_reserve(e->budget, bytes, key, 0, cancel, out, msg, msglen);
    while (rc == CZ_ERR_TIMEOUT) {
        evict_idle(e, bytes);
        rc = cz_budget_reserve(e->budget, bytes, key, 100, cancel, out, msg, msglen);
    }
    return rc;
}

static const cz_buf_tag PARAMS_TAG = {0, UINT32_MAX, "params"};

/* Records the synthetic circuit and runs its insecure setup.  Every byte
 * the load can reach (3x the CSR bound while recording, then the parameter
 * block and the setup's temporaries, all bounded before recording) is
 * reserved in ONE request, then shrunk to what stays: a load never holds
 * part of the budget while it waits for more, so loads and partitions
 * cannot wait on each other.  Without e->mu. */
static int load_synthetic(cz_engine *e, circuit *c, const job *j)
{
    cz_synthetic shape = j->syn.circuit;
    shape.seed = 0;
    cz_wait_key key = {(int)j->prio, j->seq, 0};
    uint64_t est = 3 * cz_synthetic_r1cs_bytes(&shape);
    size_t n_in = 1 + shape.n_public, n_aux = cz_synthetic_num_aux(&shape), bblock, btemp;
    cz_groth16_setup_sizes_bound(n_in, n_aux, (size_t)1 << shape.log_rows, CZ_GROTH16_BELLPERSON,
                                 &bblock, &btemp);
    uint64_t total = est + cz_mem_charge(bblock) + cz_mem_charge(btemp);
    int rc = reserve(e, total, &key, &j->cancel, &c->resv, c->load_msg, sizeof c->load_msg);
    if (rc != CZ_OK)
        return rc;
    cz_cs *cs;
    rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc == CZ_OK) {
        cz_synthetic_synthesize(cs, &shape, 0);
        rc = cz_cs_finish(cs, &c->own_r1cs);
        cz_cs_free(cs);
    }
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "recording %s failed: %s", c->id, cz_strerror(rc));
        return rc;
    }
    cz_resv_allocator_init(&c->ra, c->resv, &PARAMS_TAG);
    uint8_t seed[32] = {0}; /* the id's bytes (truncated): one key per shape */
    memcpy(seed, c->id, strnlen(c->id, sizeof seed));
    rc = cz_groth16_setup_ex(&c->own_params, c->own_r1cs, seed, CZ_GROTH16_BELLPERSON, e->pool,
                             &c->ra.a);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "setup of %s failed: %s", c->id, cz_strerror(rc));
        return rc;
    }
    /* keep the parameters' buffer and the recorded R1CS (untracked memory,
     * covered by the reservation) */
    uint64_t unused = cz_resv_size(c->resv) - cz_resv_used(c->resv);
    uint64_t keep = cz_r1cs_mem_bytes(c->own_r1cs);
    if (unused > keep)
        cz_resv_shrink(c->resv, unused - keep);
    c->params = &c->own_params;
    c->r1cs = c->own_r1cs;
    return CZ_OK;
}

/* The circuit of job j with one more reference, loaded if needed (the
 * first caller loads, the others wait).  NULL on failure with rc/msg set. */
static circuit *circuit_acquire(cz_engine *e, job *j, int *rc, char *msg, size_t msglen)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = find_circuit(e, j->circuit_id);
    if (c == NULL && j->kind == CZ_KIND_GROTH16) {
        pthread_mutex_unlock(&e->mu);
        *rc = CZ_ERR_NOT_FOUND;
        cz_msgf(msg, msglen, "circuit %s is not registered", j->circuit_id);
        return NULL;
    }
    if (c == NULL) {
        c = calloc(1, sizeof *c);
        if (c == NULL) {
            pthread_mutex_unlock(&e->mu);
            *rc = CZ_ERR_NOMEM;
            cz_msgf(msg, msglen, "out of memory");
            return NULL;
        }
        snprintf(c->id, sizeof c->id, "%s", j->circuit_id);
        c->state = C_LOADING;
        c->refs = 1;
        c->next = e->circuits;
        e->circuits = c;
        pthread_mutex_unlock(&e->mu);
        int lrc = load_synthetic(e, c, j);
        if (lrc == CZ_OK)
            lrc = cz_groth16_pvk_prepare(&c->pvk, &c->params->vk);
        pthread_mutex_lock(&e->mu);
        if (lrc != CZ_OK) {
            c->state = C_FAILED;
            c->load_err = lrc;
            if (!c->load_msg[0])
                cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s failed: %s", c->id,
                        cz_strerror(lrc));
            circuit_unlink(e, c); /* waiters still hold it through refs */
        } else {
            c->state = C_READY;
        }
        pthread_cond_broadcast(&e->cv_circuit);
    } else {
        c->refs++;
        while (c->state == C_LOADING)
            pthread_cond_wait(&e->cv_circuit, &e->mu);
    }
    if (c->state == C_FAILED) {
        *rc = c->load_err;
        cz_msgf(msg, msglen, "%s", c->load_msg);
        int last = --c->refs == 0;
        pthread_mutex_unlock(&e->mu);
        if (last) {
            circuit_unload(c);
            free(c);
        }
        return NULL;
    }
    c->last_used_ms = now_ms(e);
    pthread_mutex_unlock(&e->mu);
    return c;
}

static void circuit_put(cz_engine *e, circuit *c)
{
    pthread_mutex_lock(&e->mu);
    c->refs--;
    c->last_used_ms = now_ms(e);
    pthread_mutex_unlock(&e->mu);
}

/* --------------------------------------------------------------- parts --- */

/* Frees everything a partition holds and ends it.  Without e->mu. */
static void part_drop(cz_engine *e, part *p)
{
    cz_groth16_pending_free(p->pend);
    cz_mem_free(p->w);
    cz_resv_release(p->resv);
    free(p->pub);
    if (p->c)
        circuit_put(e, p->c);
    pthread_mutex_lock(&e->mu);
    p->j->in_flight--;
    job_check_end(e, p->j);
    pthread_mutex_unlock(&e->mu);
    free(p);
}

static void part_fail(cz_engine *e, part *p, int rc, const char *msg)
{
    pthread_mutex_lock(&e->mu);
    job_fail_locked(e, p->j, rc, msg);
    pthread_mutex_unlock(&e->mu);
    part_drop(e, p);
}

/* The partition's witness into p->w.  SYNTHETIC: witness-only synthesis
 * (the cs keeps its own copy of the assignment until it is freed: the
 * reservation includes it). */
static int synthesize(const job *j, part *p, char *msg, size_t msglen)
{
    if (j->kind == CZ_KIND_GROTH16) {
        memcpy(p->w, j->w + (size_t)p->idx * j->n_w, j->n_w * sizeof(cz_fr));
        return CZ_OK;
    }
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc == CZ_OK) {
        rc = cz_synthetic_synthesize(cs, &j->syn.circuit, p->idx);
        if (rc == CZ_OK && cz_cs_num_inputs(cs) + cz_cs_num_aux(cs) != p->n_w)
            rc = CZ_ERR_BAD_FORMAT;
        if (rc == CZ_OK)
            cz_cs_write_assignment(cs, p->w);
        cz_cs_free(cs);
    }
    if (rc != CZ_OK)
        cz_msgf(msg, msglen, "synthesis of partition %u failed: %s", p->idx, cz_strerror(rc));
    return rc;
}

/* Synthesis of partition idx of j: NULL when it ended (failure, cancel). */
static part *synth_partition(cz_engine *e, job *j, uint32_t idx)
{
    char msg[256] = "";
    int rc;
    part *p = calloc(1, sizeof *p);
    if (p == NULL) {
        pthread_mutex_lock(&e->mu);
        job_fail_locked(e, j, CZ_ERR_NOMEM, "out of memory");
        j->in_flight--;
        job_check_end(e, j);
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    p->j = j;
    p->idx = idx;
    double t0 = now_ms(e);
    size_t n_in = 0, w_bytes = 0;
    uint64_t synth_copy = 0;
    /* Pin the circuit (loading it if needed) and reserve the partition's
     * bytes.  A partition that has to wait for memory unpins its circuit
     * while it waits, so idle circuits of waiting partitions can be evicted
     * (otherwise two circuits pinned by waiting partitions could starve each
     * other); once granted it pins the circuit again, and if that was
     * evicted meanwhile it gives the bytes back and starts over. */
    for (;;) {
        p->c = circuit_acquire(e, j, &rc, msg, sizeof msg);
        if (p->c == NULL) {
            part_fail(e, p, rc, msg);
            return NULL;
        }
        circuit *c = p->c;
        const cz_r1cs *r = c->r1cs;
        n_in = cz_r1cs_num_inputs(r);
        p->n_w = n_in + cz_r1cs_num_aux(r);
        if (j->kind == CZ_KIND_GROTH16 && j->n_w != p->n_w) {
            cz_msgf(msg, sizeof msg, "the witness has %zu values, circuit %s needs %zu", j->n_w,
                    j->circuit_id, p->n_w);
            part_fail(e, p, CZ_ERR_INVALID_ARG, msg);
            return NULL;
        }
        cz_groth16_prove_sizes_of(&p->sz, c->params, r, cz_msm_nthreads(e->pool), e->be->kind);
        w_bytes = p->n_w * sizeof(cz_fr);
        synth_copy = j->kind == CZ_KIND_SYNTHETIC ? w_bytes : 0;
        uint64_t total = cz_mem_charge(w_bytes) + synth_copy + cz_mem_charge(p->sz.abc) +
                         cz_mem_charge(p->sz.start_scratch) + cz_mem_charge(p->sz.b2_scalars) +
                         cz_mem_charge(p->sz.finish_scratch);
        /* its own circuit stays cached while it runs: what is left of the
         * budget beside it is all a partition can ever get */
        uint64_t held = c->resv ? cz_resv_size(c->resv) : 0;
        uint64_t budget = cz_budget_total(e->budget);
        if (total > budget - held) {
            cz_msgf(msg, sizeof msg,
                    "partition %u needs %llu bytes (witness %zu, a/b/c %zu, scratch %zu + %zu, "
                    "B_g2 scalars %zu) and its circuit holds %llu, but the memory budget is "
                    "%llu bytes",
                    idx, (unsigned long long)total, w_bytes, p->sz.abc, p->sz.start_scratch,
                    p->sz.finish_scratch, p->sz.b2_scalars, (unsigned long long)held,
                    (unsigned long long)budget);
            part_fail(e, p, CZ_ERR_TOO_BIG, msg);
            return NULL;
        }
        cz_wait_key key = {(int)j->prio, j->seq, idx};
        rc = cz_budget_reserve(e->budget, total, &key, 0, &j->cancel, &p->resv, msg, sizeof msg);
        if (rc == CZ_OK)
            break;
        if (rc == CZ_ERR_TIMEOUT) { /* wait unpinned */
            circuit_put(e, c);
            p->c = NULL;
            rc = reserve(e, total, &key, &j->cancel, &p->resv, msg, sizeof msg);
        }
        if (rc != CZ_OK) {
            part_fail(e, p, rc, msg);
            return NULL;
        }
        pthread_mutex_lock(&e->mu);
        if (find_circuit(e, j->circuit_id) == c && c->state == C_READY) {
            c->refs++;
            p->c = c;
        }
        pthread_mutex_unlock(&e->mu);
        if (p->c != NULL)
            break;
        cz_resv_release(p->resv); /* evicted while we waited: again */
        p->resv = NULL;
    }
    cz_buf_tag tag = {j->seq, idx, STAGE_SYNTH};
    rc = cz_mem_alloc((void **)&p->w, p->resv, CZ_BUF_WITNESS, w_bytes, &tag, msg, sizeof msg);
    if (rc == CZ_OK)
        rc = synthesize(j, p, msg, sizeof msg);
    if (rc == CZ_OK && synth_copy)
        cz_resv_shrink(p->resv, synth_copy); /* the cs's copy is gone */
    if (rc == CZ_OK && n_in > 1) {
        p->n_pub = n_in - 1;
        p->pub = malloc(p->n_pub * sizeof(cz_fr));
        if (p->pub == NULL)
            rc = CZ_ERR_NOMEM;
        else
            memcpy(p->pub, p->w + 1, p->n_pub * sizeof(cz_fr));
    }
    if (rc != CZ_OK) {
        part_fail(e, p, rc, msg);
        return NULL;
    }
    double t1 = now_ms(e);
    timeline(e, j, idx, STAGE_SYNTH, t0, t1);
    pthread_mutex_lock(&e->mu);
    j->synth_ms += t1 - t0;
    pthread_mutex_unlock(&e->mu);
    return p;
}

/* ------------------------------------------------------------- workers --- */

/* The next (job, partition) for synthesis: the job first by priority then
 * age, its lowest partition not yet started.  Caller holds e->mu. */
static job *pick_job(cz_engine *e)
{
    job *best = NULL;
    for (job *j = e->live; j; j = j->next) {
        if (j->finished || atomic_load(&j->cancel) || j->next_part >= j->n_parts)
            continue;
        if (!best || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq))
            best = j;
    }
    return best;
}

static void *synth_worker(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j;
        while (!e->stop && (j = pick_job(e)) == NULL)
            pthread_cond_wait(&e->cv_work, &e->mu);
        if (e->stop)
            break;
        uint32_t idx = j->next_part++;
        j->in_flight++;
        if (j->state == CZ_JOB_QUEUED) {
            j->state = CZ_JOB_RUNNING;
            j->t_first = now_ms(e);
        }
        e->synth_busy++;
        pthread_mutex_unlock(&e->mu);
        part *p = synth_partition(e, j, idx);
        pthread_mutex_lock(&e->mu);
        e->synth_busy--;
        if (p == NULL)
            continue;
        while (!e->stop && e->pq.n >= e->cfg.queue_depth && !atomic_load(&j->cancel))
            pthread_cond_wait(&e->cv_space, &e->mu);
        if (e->stop || atomic_load(&j->cancel)) {
            pthread_mutex_unlock(&e->mu);
            part_drop(e, p);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        cz_mem_set_stage(p->w, STAGE_START);
        fifo_push(&e->pq, p);
        pthread_cond_signal(&e->cv_prove);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* With e->mu held: waits for a partition in q and pops it (partitions of
 * cancelled or failed jobs are dropped on the way).  Returns it with the
 * caller counted in *busy and e->mu released, or NULL with e->mu still held
 * when the engine stops. */
static part *take(cz_engine *e, fifo *q, pthread_cond_t *cv, unsigned *busy)
{
    for (;;) {
        while (!e->stop && q->n == 0)
            pthread_cond_wait(cv, &e->mu);
        if (e->stop)
            return NULL;
        part *p = fifo_pop(q);
        pthread_cond_broadcast(&e->cv_space);
        if (!atomic_load(&p->j->cancel)) {
            (*busy)++;
            pthread_mutex_unlock(&e->mu);
            return p;
        }
        pthread_mutex_unlock(&e->mu);
        part_drop(e, p);
        pthread_mutex_lock(&e->mu);
    }
}

typedef struct {
    cz_engine *e;
    unsigned dev;
} prover_arg;

static void *prove_worker(void *arg)
{
    prover_arg *pa = arg;
    cz_engine *e = pa->e;
    unsigned dev = pa->dev;
    free(pa);
    pthread_mutex_lock(&e->mu);
    part *p;
    while ((p = take(e, &e->pq, &e->cv_prove, &e->prove_busy)) != NULL) {
        job *j = p->j;
        char msg[256] = "";
        cz_buf_tag tag = {j->seq, p->idx, STAGE_START};
        cz_resv_allocator_init(&p->ra, p->resv, &tag);
        cz_groth16_prove_opts o = {.pool = e->pool, .alloc = &p->ra.a};
        double t0 = now_ms(e);
        pthread_mutex_lock(&e->dev_mu[dev]);
        int rc = e->be->prove_start(e->be->ctx, dev, &p->pend, p->c->params, p->c->r1cs, p->w,
                                    p->n_w, &o, msg, sizeof msg);
        pthread_mutex_unlock(&e->dev_mu[dev]);
        double t1 = now_ms(e);
        cz_mem_free(p->w);
        p->w = NULL;
        if (rc != CZ_OK) {
            if (!msg[0])
                cz_msgf(msg, sizeof msg, "prove_start of partition %u failed: %s", p->idx,
                        cz_strerror(rc));
            part_fail(e, p, rc == CZ_ERR_NOMEM ? rc : CZ_ERR_BACKEND, msg);
            pthread_mutex_lock(&e->mu);
            e->prove_busy--;
            continue;
        }
        /* keep only what prove_finish still needs: its scratch */
        uint64_t unused = cz_resv_size(p->resv) - cz_resv_used(p->resv);
        uint64_t keep = cz_mem_charge(p->sz.finish_scratch);
        if (unused > keep)
            cz_resv_shrink(p->resv, unused - keep);
        p->ra.tag.stage = STAGE_FINISH;
        timeline(e, j, p->idx, STAGE_START, t0, t1);
        pthread_mutex_lock(&e->mu);
        j->prove_ms += t1 - t0;
        while (!e->stop && e->fq.n >= e->cfg.queue_depth)
            pthread_cond_wait(&e->cv_space, &e->mu);
        if (e->stop) {
            pthread_mutex_unlock(&e->mu);
            part_drop(e, p);
            pthread_mutex_lock(&e->mu);
        } else {
            fifo_push(&e->fq, p);
            pthread_cond_signal(&e->cv_final);
        }
        e->prove_busy--;
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

static void *final_worker(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    part *p;
    while ((p = take(e, &e->fq, &e->cv_final, &e->final_busy)) != NULL) {
        job *j = p->j;
        cz_groth16_proof pf;
        double t0 = now_ms(e);
        int rc = e->be->prove_finish(e->be->ctx, &pf, p->pend);
        p->pend = NULL; /* consumed either way */
        double t1 = now_ms(e);
        char msg[256] = "";
        if (rc != CZ_OK) {
            cz_msgf(msg, sizeof msg, "prove_finish of partition %u failed: %s", p->idx,
                    cz_strerror(rc));
            rc = rc == CZ_ERR_NOMEM ? rc : CZ_ERR_BACKEND;
        } else if (e->cfg.self_verify &&
                   cz_groth16_verify(&p->c->pvk, &pf, p->pub, p->n_pub) != CZ_OK) {
            rc = CZ_ERR_BAD_PROOF;
            cz_msgf(msg, sizeof msg, "the proof of partition %u does not verify", p->idx);
        }
        timeline(e, j, p->idx, STAGE_FINISH, t0, t1);
        if (rc != CZ_OK) {
            part_fail(e, p, rc, msg);
        } else {
            cz_groth16_proof_to_bytes(j->proofs + (size_t)p->idx * CZ_GROTH16_PROOF_BYTES, &pf);
            pthread_mutex_lock(&e->mu);
            j->prove_ms += t1 - t0;
            j->done++;
            e->proved++;
            pthread_mutex_unlock(&e->mu);
            part_drop(e, p);
        }
        pthread_mutex_lock(&e->mu);
        e->final_busy--;
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
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
        double t = now_ms(e);
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
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        uint64_t ns = (uint64_t)dl.tv_nsec + (uint64_t)e->cfg.rss_sample_ms * 1000000;
        dl.tv_sec += (time_t)(ns / 1000000000);
        dl.tv_nsec = (long)(ns % 1000000000);
        if (!e->stop)
            pthread_cond_timedwait(&e->cv_sampler, &e->mu, &dl);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* -------------------------------------------------------------- engine --- */

static void defaults(cz_engine_config *c)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    if (c->synthesis_workers == 0) /* memory is bounded by the budget, not by this */
        c->synthesis_workers = ncpu >= 4 ? (unsigned)(ncpu / 2 < 8 ? ncpu / 2 : 8) : 1;
    if (c->finalizers == 0)
        c->finalizers = 1;
    if (c->queue_depth == 0)
        c->queue_depth = 2;
    if (c->history == 0)
        c->history = 1024;
    if (c->timeline_events == 0)
        c->timeline_events = 65536;
    if (c->rss_sample_ms == 0)
        c->rss_sample_ms = 1000;
    if (c->prover_threads == 0)
        c->prover_threads = (unsigned)ncpu;
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
        c.prover_threads > 1024 || c.queue_depth > 1u << 20) {
        cz_msgf(err, errlen, "engine: a worker count or queue depth is out of range");
        return CZ_ERR_INVALID_ARG;
    }
    uint64_t total = c.memory_budget;
    if (total == 0) {
        uint64_t margin = c.safety_margin;
        int rc = cz_budget_auto_total(&total, margin ? margin : (4ull << 30));
        if (rc != CZ_OK && margin == 0)
            rc = cz_budget_auto_total(&total, 0), total -= total / 8;
        if (rc != CZ_OK) {
            cz_msgf(err, errlen, "engine: cannot size the memory budget from /proc/meminfo");
            return rc;
        }
    }
    cz_engine *e = calloc(1, sizeof *e);
    if (e == NULL)
        return CZ_ERR_NOMEM;
    e->cfg = c;
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
    pthread_cond_t *cvs[] = {&e->cv_work, &e->cv_prove,   &e->cv_final, &e->cv_space,
                             &e->cv_done, &e->cv_circuit, &e->cv_api,   &e->cv_sampler};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++)
        pthread_cond_init(cvs[i], NULL);
    e->tl_cap = c.timeline_events;
    e->tl = calloc(e->tl_cap, sizeof *e->tl);
    e->dev_mu = calloc(e->n_dev, sizeof *e->dev_mu);
    unsigned nt = c.synthesis_workers + e->n_dev * e->cfg.prover_workers + c.finalizers;
    e->threads = calloc(nt, sizeof *e->threads);
    int rc = (e->tl && e->dev_mu && e->threads) ? cz_budget_new(&e->budget, total) : CZ_ERR_NOMEM;
    if (rc == CZ_OK && c.prover_threads > 1)
        rc = cz_pool_new(&e->pool, c.prover_threads - 1);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "engine: %s", cz_strerror(rc));
        cz_engine_free(e);
        return rc;
    }
    for (unsigned d = 0; d < e->n_dev; d++)
        pthread_mutex_init(&e->dev_mu[d], NULL);
    for (unsigned i = 0; i < nt && rc == CZ_OK; i++) {
        void *(*fn)(void *) = final_worker;
        void *arg = e;
        if (i < c.synthesis_workers) {
            fn = synth_worker;
        } else if (i < c.synthesis_workers + e->n_dev * e->cfg.prover_workers) {
            prover_arg *pa = malloc(sizeof *pa);
            if (pa == NULL) {
                rc = CZ_ERR_NOMEM;
                break;
            }
            pa->e = e;
            pa->dev = (i - c.synthesis_workers) % e->n_dev;
            fn = prove_worker;
            arg = pa;
        }
        if (pthread_create(&e->threads[i], NULL, fn, arg) != 0) {
            if (fn == prove_worker)
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
        job_fail_locked(e, j, CZ_ERR_SHUTDOWN, "the engine is shutting down");
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
    while ((p = fifo_pop(&e->pq)) != NULL)
        part_drop(e, p);
    while ((p = fifo_pop(&e->fq)) != NULL)
        part_drop(e, p);
    pthread_mutex_lock(&e->mu);
    for (job *j = e->live; j;) {
        job *nx = j->next;
        job_check_end(e, j); /* nothing in flight: ends (moves to history) */
        j = nx;
    }
    while (e->n_api > 0) /* awaiters leave */
        pthread_cond_wait(&e->cv_api, &e->mu);
    pthread_mutex_unlock(&e->mu);
    for (job *j = e->hist; j;) {
        job *nx = j->next;
        job_free(j);
        j = nx;
    }
    for (circuit *c = e->circuits; c;) {
        circuit *nx = c->next;
        circuit_unload(c);
        free(c);
        c = nx;
    }
    cz_pool_free(e->pool);
    cz_budget_free(e->budget);
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

/* ---------------------------------------------------------------- jobs --- */

static int check_request(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    if ((unsigned)req->priority > CZ_PRIO_CRITICAL) {
        cz_msgf(err, errlen, "job: priority %d is out of range", (int)req->priority);
        return CZ_ERR_INVALID_ARG;
    }
    if (req->id && (strlen(req->id) == 0 || strlen(req->id) >= CZ_JOB_ID_MAX)) {
        cz_msgf(err, errlen, "job: the id must have 1 to %d bytes", CZ_JOB_ID_MAX - 1);
        return CZ_ERR_INVALID_ARG;
    }
    if (req->input == NULL) {
        cz_msgf(err, errlen, "job: no input");
        return CZ_ERR_INVALID_ARG;
    }
    if (req->kind == CZ_KIND_SYNTHETIC) {
        const cz_job_synthetic *s = req->input;
        int rc = cz_synthetic_check(&s->circuit, err, errlen);
        if (rc != CZ_OK)
            return rc;
        if (s->partitions < 1 || s->partitions > 1024) {
            cz_msgf(err, errlen, "job: %u partitions (need 1 to 1024)", s->partitions);
            return CZ_ERR_INVALID_ARG;
        }
        j->syn = *s;
        j->n_parts = s->partitions;
        snprintf(j->circuit_id, sizeof j->circuit_id, "synthetic-%u-%u", s->circuit.log_rows,
                 s->circuit.n_public);
        return CZ_OK;
    }
    if (req->kind == CZ_KIND_GROTH16) {
        const cz_job_groth16 *g = req->input;
        if (g->circuit == NULL || strlen(g->circuit) >= CZ_JOB_ID_MAX || g->w == NULL ||
            g->n_w == 0 || g->partitions < 1 || g->partitions > 1024) {
            cz_msgf(err, errlen,
                    "job: a groth16 job needs a circuit id, a witness and 1 to 1024 "
                    "partitions");
            return CZ_ERR_INVALID_ARG;
        }
        pthread_mutex_lock(&e->mu);
        circuit *c = find_circuit(e, g->circuit);
        size_t need =
            c && c->registered ? cz_r1cs_num_inputs(c->r1cs) + cz_r1cs_num_aux(c->r1cs) : 0;
        pthread_mutex_unlock(&e->mu);
        if (c == NULL || !c->registered) {
            cz_msgf(err, errlen, "job: circuit %s is not registered", g->circuit);
            return CZ_ERR_NOT_FOUND;
        }
        if (need != g->n_w) {
            cz_msgf(err, errlen, "job: the witness has %zu values, circuit %s needs %zu", g->n_w,
                    g->circuit, need);
            return CZ_ERR_INVALID_ARG;
        }
        snprintf(j->circuit_id, sizeof j->circuit_id, "%s", g->circuit);
        j->n_w = g->n_w;
        j->n_parts = g->partitions;
        j->w = malloc((size_t)g->partitions * g->n_w * sizeof(cz_fr));
        if (j->w == NULL) {
            cz_msgf(err, errlen, "job: out of memory for the witness");
            return CZ_ERR_NOMEM;
        }
        memcpy(j->w, g->w, (size_t)g->partitions * g->n_w * sizeof(cz_fr));
        return CZ_OK;
    }
    cz_msgf(err, errlen, "job: unknown kind %d", (int)req->kind);
    return CZ_ERR_INVALID_ARG;
}

int cz_engine_submit(cz_engine *e, const cz_job_request *req, char id_out[CZ_JOB_ID_MAX],
                     bool *existing, char *err, size_t errlen)
{
    if (existing)
        *existing = false;
    if (e == NULL || req == NULL || id_out == NULL) {
        cz_msgf(err, errlen, "job: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    id_out[0] = 0;
    job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return CZ_ERR_NOMEM;
    int rc = check_request(e, req, j, err, errlen);
    if (rc == CZ_OK) {
        j->proofs = calloc(j->n_parts, CZ_GROTH16_PROOF_BYTES);
        if (j->proofs == NULL)
            rc = CZ_ERR_NOMEM;
    }
    if (rc != CZ_OK) {
        job_free(j);
        return rc;
    }
    j->prio = req->priority;
    j->kind = req->kind;
    atomic_init(&j->cancel, 0);
    pthread_mutex_lock(&e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        cz_msgf(err, errlen, "job: the engine is shutting down");
        return CZ_ERR_SHUTDOWN;
    }
    if (req->id) {
        /* a live job, or a completed one still in the history (a client
         * retrying after a lost reply gets its proof), is the same job; a
         * failed or cancelled one is tried again */
        job *o = find_job(e, req->id);
        if (o && (!o->finished || o->state == CZ_JOB_COMPLETED)) {
            snprintf(id_out, CZ_JOB_ID_MAX, "%s", o->id);
            pthread_mutex_unlock(&e->mu);
            job_free(j);
            if (existing)
                *existing = true;
            return CZ_OK;
        }
    }
    j->seq = ++e->next_seq;
    if (req->id)
        snprintf(j->id, sizeof j->id, "%s", req->id);
    else
        snprintf(j->id, sizeof j->id, "job-%llu", (unsigned long long)j->seq);
    j->state = CZ_JOB_QUEUED;
    j->t_submit = now_ms(e);
    j->next = e->live;
    e->live = j;
    e->submitted++;
    snprintf(id_out, CZ_JOB_ID_MAX, "%s", j->id);
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    return CZ_OK;
}

static void fill_result(cz_engine *e, const job *j, cz_job_result *r, bool proofs)
{
    memset(r, 0, sizeof *r);
    r->state = j->state;
    r->priority = j->prio;
    r->error = j->finished ? j->err : CZ_OK;
    snprintf(r->message, sizeof r->message, "%s", j->finished ? j->msg : "");
    r->partitions = j->n_parts;
    r->partitions_done = j->done;
    r->queue_ms = j->t_first > 0 ? j->t_first - j->t_submit : 0;
    r->synth_ms = j->synth_ms;
    r->prove_ms = j->prove_ms;
    r->total_ms = (j->finished ? j->t_end : now_ms(e)) - j->t_submit;
    if (proofs && j->state == CZ_JOB_COMPLETED && j->proofs) {
        r->proofs = malloc((size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES);
        if (r->proofs)
            memcpy(r->proofs, j->proofs, (size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES);
    }
}

int cz_engine_await(cz_engine *e, const char *id, int64_t timeout_ms, cz_job_result *res)
{
    if (e == NULL || id == NULL || res == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(res, 0, sizeof *res);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (timeout_ms >= 0) {
        dl.tv_sec += timeout_ms / 1000;
        dl.tv_nsec += (timeout_ms % 1000) * 1000000;
        if (dl.tv_nsec >= 1000000000)
            dl.tv_sec++, dl.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&e->mu);
    e->n_api++;
    int rc = CZ_OK;
    job *j;
    for (;;) {
        j = find_job(e, id);
        if (j == NULL) {
            rc = CZ_ERR_NOT_FOUND;
            break;
        }
        if (j->finished)
            break;
        if (e->stop) {
            rc = CZ_ERR_SHUTDOWN;
            break;
        }
        if (timeout_ms >= 0) {
            if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) != 0) {
                j = find_job(e, id);
                rc = j == NULL ? CZ_ERR_NOT_FOUND : j->finished ? CZ_OK : CZ_ERR_TIMEOUT;
                break;
            }
        } else {
            pthread_cond_wait(&e->cv_done, &e->mu);
        }
    }
    if (j != NULL && rc != CZ_ERR_NOT_FOUND)
        fill_result(e, j, res, rc == CZ_OK);
    if (--e->n_api == 0)
        pthread_cond_broadcast(&e->cv_api);
    pthread_mutex_unlock(&e->mu);
    return rc;
}

int cz_engine_job_status(cz_engine *e, const char *id, cz_job_result *res)
{
    if (e == NULL || id == NULL || res == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->mu);
    job *j = find_job(e, id);
    if (j)
        fill_result(e, j, res, false);
    pthread_mutex_unlock(&e->mu);
    return j ? CZ_OK : CZ_ERR_NOT_FOUND;
}

void cz_job_result_free(cz_job_result *res)
{
    if (res) {
        free(res->proofs);
        res->proofs = NULL;
    }
}

int cz_engine_cancel(cz_engine *e, const char *id)
{
    if (e == NULL || id == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->mu);
    job *j = find_job(e, id);
    if (j && !j->finished) {
        job_fail_locked(e, j, CZ_ERR_CANCELLED, "cancelled");
        job_check_end(e, j); /* a queued job ends at once */
        pthread_cond_broadcast(&e->cv_space);
    }
    pthread_mutex_unlock(&e->mu);
    return j ? CZ_OK : CZ_ERR_NOT_FOUND;
}

unsigned cz_engine_cancel_all(cz_engine *e)
{
    unsigned n = 0;
    pthread_mutex_lock(&e->mu);
    for (job *j = e->live, *nx; j; j = nx) {
        nx = j->next; /* job_check_end may move j to the history */
        if (!j->finished) {
            job_fail_locked(e, j, CZ_ERR_CANCELLED, "cancelled");
            job_check_end(e, j);
            n++;
        }
    }
    pthread_cond_broadcast(&e->cv_space);
    pthread_mutex_unlock(&e->mu);
    return n;
}

/* ------------------------------------------------------------ circuits --- */

int cz_engine_register_circuit(cz_engine *e, const char *id, const cz_groth16_params *params,
                               const cz_r1cs *r1cs, char *err, size_t errlen)
{
    if (e == NULL || id == NULL || params == NULL || r1cs == NULL || strlen(id) == 0 ||
        strlen(id) >= CZ_JOB_ID_MAX) {
        cz_msgf(err, errlen, "register: bad arguments");
        return CZ_ERR_INVALID_ARG;
    }
    /* shape check through the prover's own validation (a 0-length dry run
     * is not possible): compare the counts it checks */
    size_t n_in = cz_r1cs_num_inputs(r1cs), n_aux = cz_r1cs_num_aux(r1cs);
    if (params->vk.n_ic != n_in || params->n_l != n_aux) {
        cz_msgf(err, errlen,
                "register: parameters do not match the constraint system (%zu IC points "
                "for %zu inputs, %zu L points for %zu aux)",
                params->vk.n_ic, n_in, params->n_l, n_aux);
        return CZ_ERR_BAD_FORMAT;
    }
    circuit *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CZ_ERR_NOMEM;
    snprintf(c->id, sizeof c->id, "%s", id);
    c->registered = 1;
    c->state = C_READY;
    c->params = params;
    c->r1cs = r1cs;
    int rc = cz_groth16_pvk_prepare(&c->pvk, &params->vk);
    uint64_t bytes = params->mem_bytes + cz_r1cs_mem_bytes(r1cs);
    cz_wait_key key = {CZ_PRIO_CRITICAL, 0, 0};
    if (rc == CZ_OK)
        rc = cz_budget_reserve(e->budget, bytes, &key, 0, NULL, &c->resv, err, errlen);
    if (rc == CZ_ERR_TIMEOUT) {
        rc = CZ_ERR_BUSY;
        cz_msgf(err, errlen, "register: %llu bytes are not free in the memory budget now",
                (unsigned long long)bytes);
    }
    pthread_mutex_lock(&e->mu);
    if (rc == CZ_OK && find_circuit(e, id)) {
        rc = CZ_ERR_INVALID_ARG;
        cz_msgf(err, errlen, "register: circuit %s exists", id);
    }
    if (rc == CZ_OK) {
        c->next = e->circuits;
        e->circuits = c;
    }
    pthread_mutex_unlock(&e->mu);
    if (rc != CZ_OK) {
        circuit_unload(c);
        free(c);
    }
    return rc;
}

static uint64_t circuit_bytes(const circuit *c) { return c->resv ? cz_resv_size(c->resv) : 0; }

static int remove_circuit(cz_engine *e, const char *id, int registered, uint64_t *freed)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = find_circuit(e, id);
    int rc = CZ_OK;
    if (c == NULL || c->registered != registered)
        rc = CZ_ERR_NOT_FOUND;
    else if (c->refs > 0 || c->state != C_READY)
        rc = CZ_ERR_BUSY;
    for (job *j = e->live; rc == CZ_OK && registered && j; j = j->next)
        if (!j->finished && !strcmp(j->circuit_id, id))
            rc = CZ_ERR_BUSY; /* a queued job still needs it (it cannot reload) */
    if (rc == CZ_OK)
        circuit_unlink(e, c);
    pthread_mutex_unlock(&e->mu);
    if (freed)
        *freed = rc == CZ_OK ? circuit_bytes(c) : 0;
    if (rc == CZ_OK) {
        circuit_unload(c);
        free(c);
    }
    return rc;
}

size_t cz_engine_circuits(cz_engine *e, cz_engine_circuit_info *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&e->mu);
    for (circuit *c = e->circuits; c; c = c->next, n++) {
        if (n >= max || out == NULL)
            continue;
        cz_engine_circuit_info *i = &out[n];
        snprintf(i->id, sizeof i->id, "%s", c->id);
        i->bytes = circuit_bytes(c);
        i->refs = (uint32_t)c->refs;
        i->registered = c->registered;
        i->loading = c->state == C_LOADING;
    }
    pthread_mutex_unlock(&e->mu);
    return n;
}

/* "synthetic-<L>-<P>" -> its shape; false for anything else. */
static bool parse_synthetic_id(const char *id, cz_synthetic *s)
{
    unsigned l, p;
    char tail;
    if (sscanf(id, "synthetic-%u-%u%c", &l, &p, &tail) != 2)
        return false;
    memset(s, 0, sizeof *s);
    s->log_rows = l;
    s->n_public = p;
    return cz_synthetic_check(s, NULL, 0) == CZ_OK;
}

int cz_engine_preload(cz_engine *e, const char *id, bool *already, char *err, size_t errlen)
{
    if (already)
        *already = false;
    if (e == NULL || id == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->mu);
    circuit *c = find_circuit(e, id);
    bool loaded = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    if (loaded) {
        if (already)
            *already = true;
        return CZ_OK;
    }
    /* a private job record drives the load like a job's first partition */
    job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return CZ_ERR_NOMEM;
    if (!parse_synthetic_id(id, &j->syn.circuit)) {
        free(j);
        cz_msgf(err, errlen, "preload: %s is neither registered nor a synthetic circuit id", id);
        return CZ_ERR_NOT_FOUND;
    }
    j->kind = CZ_KIND_SYNTHETIC;
    j->prio = CZ_PRIO_CRITICAL;
    atomic_init(&j->cancel, 0);
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", id);
    int rc;
    c = circuit_acquire(e, j, &rc, err, errlen);
    free(j);
    if (c == NULL)
        return rc;
    circuit_put(e, c);
    return CZ_OK;
}

int cz_engine_unregister_circuit(cz_engine *e, const char *id)
{
    return e && id ? remove_circuit(e, id, 1, NULL) : CZ_ERR_INVALID_ARG;
}

int cz_engine_evict(cz_engine *e, const char *id) { return cz_engine_evict_ex(e, id, NULL); }

int cz_engine_evict_ex(cz_engine *e, const char *id, uint64_t *freed)
{
    if (freed)
        *freed = 0;
    return e && id ? remove_circuit(e, id, 0, freed) : CZ_ERR_INVALID_ARG;
}

/* -------------------------------------------------------------- status --- */

void cz_engine_status_get(cz_engine *e, cz_engine_status *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&e->mu);
    s->jobs_submitted = e->submitted;
    s->jobs_completed = e->completed;
    s->jobs_failed = e->failed;
    s->jobs_cancelled = e->cancelled;
    s->partitions_proved = e->proved;
    for (job *j = e->live; j; j = j->next) {
        if (j->state == CZ_JOB_QUEUED)
            s->jobs_queued++;
        else
            s->jobs_running++;
    }
    s->synth_busy = e->synth_busy;
    s->prove_busy = e->prove_busy;
    s->final_busy = e->final_busy;
    s->synth_workers = e->cfg.synthesis_workers;
    s->prove_workers = e->cfg.prover_workers * e->n_dev;
    s->finalizers = e->cfg.finalizers;
    s->prove_queue = e->pq.n;
    s->final_queue = e->fq.n;
    for (circuit *c = e->circuits; c; c = c->next)
        s->circuits_cached++;
    s->peak_rss = e->peak_rss;
    s->peak_untracked = e->peak_untracked;
    pthread_mutex_unlock(&e->mu);
    cz_budget_snapshot(e->budget, &s->mem);
    s->rss = cz_mem_rss();
    s->untracked = s->rss > s->mem.allocated ? s->rss - s->mem.allocated : 0;
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
