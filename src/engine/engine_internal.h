/* The engine's records and the functions its parts share (internal to
 * src/engine; the contract is cuzk/engine.h).
 *
 *   engine.c   engine lifetime, workers started and joined, sampler, status
 *              (totals, per kind, the unfinished jobs), timeline
 *   job.c      jobs: submit, await, cancel, history
 *   circuit.c  the circuit cache: loading, pinning, eviction, registration
 *   worker.c   the stages: synthesis, prove_start, prove_finish workers
 *   backend.c  the CPU and CUDA back ends
 *   kind*.c    the job kinds (kind.h): synthetic, groth16, and the Filecoin
 *              proof families' one kind (kind_family.c) over their rows
 *              (family.h; family_porep.c, family_snap.c, family_post.c)
 *
 * Locking: e->mu guards jobs, queues, the circuit cache and the counters
 * (functions named _locked expect it held); e->tl_mu the timeline. */
#ifndef CZ_ENGINE_INTERNAL_H
#define CZ_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "cuzk/engine.h"
#include "engine/kind.h"
#include "util/clock.h"


enum { C_LOADING, C_READY, C_FAILED };

typedef struct circuit {
    char id[CZ_JOB_ID_MAX];
    cz_job_kind kind; /* of the job that loaded it (registered: CZ_KIND_GROTH16) */
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
    char load_msg[CZ_JOB_MSG_MAX];
    struct circuit *next;
} circuit;

/* A notification for the notifier thread: a job event for on_job and/or
 * watches to fire with a result (see job.c). */
typedef struct notice {
    struct notice *next;
    bool has_event;
    cz_job_event ev; /* its strings point into the fields below */
    char id[CZ_JOB_ID_MAX], label[CZ_JOB_ID_MAX], circuit[CZ_JOB_ID_MAX];
    char message[CZ_JOB_MSG_MAX];
    cz_job_watch *fire; /* watches to call with rc CZ_OK and res (fnext chain) */
    cz_job_result res;  /* the job's final state, proofs owned */
} notice;

typedef struct job {
    char id[CZ_JOB_ID_MAX];    /* the handle, "job-<seq>" */
    char label[CZ_JOB_ID_MAX]; /* the client's, "" when none */
    uint64_t seq;
    uint8_t digest[32]; /* what determines its proofs (job.c) */
    cz_priority prio;
    cz_job_kind kind;
    const cz_eng_kind *k;
    void *in; /* the kind's decoded input (k->release frees it) */
    char circuit_id[CZ_JOB_ID_MAX];
    uint32_t n_parts, next_part, done, in_flight;
    cz_job_state state;
    int finished;
    int err;
    char msg[CZ_JOB_MSG_MAX];
    atomic_int cancel; /* set on cancel, failure and shutdown */
    bool cancel_unwatched;
    bool admitting; /* submit is copying its input: not to be started or ended */
    uint8_t *proofs;
    double t_submit, t_first, t_end, synth_ms, prove_ms;
    double load_ms; /* its partitions' time loading (or awaiting the load of) the circuit */
    cz_job_watch *watches;     /* pending cz_engine_watch calls */
    notice *ev_submit, *ev_start, *ev_end; /* allocated at submit, queued once each */
    bool by_handle, by_label;  /* in e->by_handle, e->by_label */
    bool superseded;           /* finished, and its label names newer jobs only */
    struct job *next;          /* live or history list */
    struct job *hnext, *lnext; /* the two index chains */
} job;

/* A chained hash table of jobs by handle or by label (job.c). */
typedef struct {
    job **t;
    size_t cap, n;
    bool label;
} cz_eng_index;

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
    cz_groth16_timings tm; /* pend's (prove_start and prove_finish write it) */
    cz_fr *pub;
    size_t n_pub;
    void *staged; /* its witness on the device it waits for (be->stage), or NULL */
    bool proved;  /* its proof is stored: counted done when it is dropped */
    struct part *next;
} part;

/* A stage's queue: partitions by priority, then arrival (cz_eng_fifo_push). */
typedef struct {
    part *head, *tail;
    unsigned n;
} fifo;

/* A partition waiting for its bytes with its circuit unpinned (worker.c):
 * while it waits, requests served after it may not evict that circuit
 * (circuit.c evict_idle), so the oldest waiter always finds its circuit
 * when its bytes come.  On the waiting worker's stack. */
typedef struct unpinned {
    const char *circuit_id;
    cz_wait_key key;
    struct unpinned *next;
} unpinned;

/* A kind's cumulative job and partition counters. */
typedef struct {
    uint64_t submitted, completed, failed, cancelled, proved;
} cz_eng_kind_counts;

struct cz_engine {
    cz_engine_config cfg;
    const cz_backend_ops *be;
    unsigned n_dev;
    pthread_mutex_t *dev_mu;
    /* the job whose prove_start holds each device's lock (NULL idle; its
     * partition in flight keeps it alive), under mu */
    const struct job *dev_job[CZ_ENGINE_MAX_DEVICES];
    /* a prover worker holds the device's lock (dev_held); one holds a
     * partition taken ahead to stage its witness (dev_staging); under mu
     * (worker.c) */
    bool dev_held[CZ_ENGINE_MAX_DEVICES], dev_staging[CZ_ENGINE_MAX_DEVICES];
    /* bases each device's proofs streamed from host memory, and the copy
     * engine's busy seconds moving them (cz_groth16_timings) */
    uint64_t dev_link_bytes[CZ_ENGINE_MAX_DEVICES];
    double dev_link_s[CZ_ENGINE_MAX_DEVICES];
    cz_budget *budget;
    cz_pool *pool;       /* the prover's (prover_threads) */
    cz_pool *synth_pool; /* synthesis and vanilla verification (synthesis_threads) */
    cz_pool *urgent_pool; /* the same for HIGH and CRITICAL jobs (cz_eng_synth_pool) */
    char *param_cache;   /* cfg.param_cache's copy; NULL: none */
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_prove, cv_final, cv_space, cv_done, cv_circuit, cv_api;
    bool stop;
    job *live, *hist;
    unsigned n_live, n_hist, n_api;
    uint64_t live_parts; /* unfinished partitions of live jobs */
    cz_eng_index by_handle, by_label; /* live and history jobs */
    cz_resv *request_pool;
    /* notifier: queued notices, timed watches */
    pthread_t notifier;
    bool notifier_started, notifier_stop;
    pthread_cond_t cv_notify;
    notice *nq_head, *nq_tail;
    cz_job_watch *timed;
    unsigned n_watches;
    fifo pq, fq;
    circuit *circuits;
    unpinned *unpinned; /* partitions waiting with their circuits unpinned */
    uint64_t next_seq;
    pthread_t *threads;
    unsigned n_threads;
    uint64_t submitted, completed, failed, cancelled, proved;
    cz_eng_kind_counts kc[CZ_JOB_KINDS]; /* the same by kind (cz_eng_kc) */
    unsigned synth_busy, prove_busy, final_busy;
    unsigned synth_limit; /* syntheses at once (cz_engine_set_synthesis_limit) */
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

/* Stages of a partition (buffer tags, timeline events). */
#define CZ_ENG_STAGE_SYNTH  "synth"
#define CZ_ENG_STAGE_START  "prove_start"
#define CZ_ENG_STAGE_FINISH "prove_finish"
#define CZ_ENG_STAGE_UPLOAD "upload" /* a witness staged on its device ahead (timeline only) */

static inline double cz_eng_now_ms(const cz_engine *e)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - e->t0.tv_sec) * 1e3 + (double)(t.tv_nsec - e->t0.tv_nsec) * 1e-6;
}

/* j's kind's counters (j->kind was checked at submit).  Caller holds e->mu. */
static inline cz_eng_kind_counts *cz_eng_kc(cz_engine *e, const job *j)
{
    return &e->kc[j->kind - 1];
}

/* Queues p behind every partition of its job's priority or higher (FIFO
 * within a priority). */
static inline void cz_eng_fifo_push(fifo *q, part *p)
{
    part **at = &q->head;
    while (*at && (*at)->j->prio >= p->j->prio)
        at = &(*at)->next;
    p->next = *at;
    *at = p;
    if (p->next == NULL)
        q->tail = p;
    q->n++;
}

/* The pool for the synthesis and vanilla checks of a job of priority
 * prio: HIGH and CRITICAL ones (PoSt) have threads of their own, as many
 * as synth_pool's, so their chunks never wait behind the ones a PoRep
 * partition's synthesis queued (the OS shares the cores between both). */
static inline cz_pool *cz_eng_synth_pool(const cz_engine *e, cz_priority prio)
{
    return prio >= CZ_PRIO_HIGH && e->urgent_pool ? e->urgent_pool : e->synth_pool;
}

/* Puts p back in q ahead of every partition of its priority (a partition
 * taken and returned keeps its place). */
static inline void cz_eng_fifo_push_front(fifo *q, part *p)
{
    part **at = &q->head;
    while (*at && (*at)->j->prio > p->j->prio)
        at = &(*at)->next;
    p->next = *at;
    *at = p;
    if (p->next == NULL)
        q->tail = p;
    q->n++;
}

/* Partitions in q of priority prio or higher: what a partition of prio
 * would wait behind. */
static inline unsigned cz_eng_fifo_ahead(const fifo *q, cz_priority prio)
{
    unsigned n = 0;
    for (const part *p = q->head; p && p->j->prio >= prio; p = p->next)
        n++;
    return n;
}

static inline part *cz_eng_fifo_pop(fifo *q)
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


typedef struct {
    cz_engine *e;
    unsigned dev;
} cz_eng_prover_arg;

/* engine.c: records one timeline event (and logs it with timeline_log). */
void cz_eng_timeline(cz_engine *e, const job *j, uint32_t idx, const char *stage, double t0,
                     double t1);

/* job.c */
void cz_eng_job_free(job *j);
/* An input (what: "this C1", "these vanilla proofs") that the request
 * pool cannot hold now: err says how full it is; returns CZ_ERR_LIMIT. */
int cz_eng_pool_full(const cz_engine *e, const char *what, char *err, size_t errlen);
/* The job id names (a handle, or a label naming one job), jobs being
 * admitted not counted; NULL with *rc CZ_ERR_NOT_FOUND or CZ_ERR_AMBIGUOUS.
 * Caller holds e->mu. */
job *cz_eng_find_job(cz_engine *e, const char *id, int *rc);
/* j's state (proofs copied when asked and COMPLETED).  Caller holds e->mu. */
void cz_eng_fill_result(cz_engine *e, const job *j, cz_job_result *r, bool proofs);
/* Queues the job's STARTED event.  Caller holds e->mu. */
void cz_eng_job_started_locked(cz_engine *e, job *j);
/* Marks j failed (or cancelled) once: later partitions stop at their next
 * boundary.  Caller holds e->mu. */
void cz_eng_job_fail_locked(cz_engine *e, job *j, int rc, const char *msg);
/* Ends j if nothing of it is in flight any more.  Caller holds e->mu. */
void cz_eng_job_check_end(cz_engine *e, job *j);

/* notify.c: the notifier thread (delivers notices and due watches until
 * notifier_stop with nothing left); queueing a notice; taking a job's
 * watches off to fire them (a list through fnext).  The _locked ones
 * expect e->mu held. */
void *cz_eng_notifier(void *arg);
void cz_eng_notice_push_locked(cz_engine *e, notice *n);
cz_job_watch *cz_eng_watches_take_locked(cz_engine *e, job *j);

/* circuit.c */
/* Tag of a circuit's parameter and R1CS buffers. */
extern const cz_buf_tag cz_eng_params_tag;
circuit *cz_eng_find_circuit(cz_engine *e, const char *id); /* caller holds e->mu */
/* Frees what a loaded (or failed) circuit holds; not the record.  Without
 * e->mu. */
void cz_eng_circuit_unload(circuit *c);
/* Reserves bytes in key order; while they do not fit, idle circuits are
 * evicted (re-checked every 100 ms, as circuits become idle long enough),
 * but not one that a partition served before key waits for (unpinned).
 * With unpin (may be NULL), the caller waits as that partition: listed
 * while it waits. */
int cz_eng_reserve(cz_engine *e, uint64_t bytes, const cz_wait_key *key, const atomic_int *cancel,
                   unpinned *unpin, cz_resv **out, char *msg, size_t msglen);
/* The circuit of job j with one more reference, loaded if needed (the
 * first caller loads, the others wait).  NULL on failure with rc/msg set. */
circuit *cz_eng_circuit_acquire(cz_engine *e, job *j, int *rc, char *msg, size_t msglen);
void cz_eng_circuit_put(cz_engine *e, circuit *c);

/* worker.c: the stage workers (thread functions; the prover's argument is
 * a malloc'd cz_eng_prover_arg it frees) and partition teardown. */
/* The synthesis workers: cz_eng_synth_worker serves every job within the
 * synthesis limit, cz_eng_urgent_worker (one) HIGH and CRITICAL ones only,
 * outside the limit. */
void *cz_eng_synth_worker(void *arg);
void *cz_eng_urgent_worker(void *arg);
void *cz_eng_prove_worker(void *arg);
void *cz_eng_final_worker(void *arg);
/* Frees everything a partition holds and ends it.  Without e->mu. */
void cz_eng_part_drop(cz_engine *e, part *p);

#endif
