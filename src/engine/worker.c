/* The stages of a partition: synthesis, prove_start, prove_finish (see
 * engine_internal.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "engine/engine_internal.h"

/* --------------------------------------------------------------- parts --- */

void cz_eng_part_drop(cz_engine *e, part *p)
{
    if (p->staged)
        e->be->unstage(e->be->ctx, p->staged);
    cz_groth16_pending_free(p->pend);
    cz_mem_free(p->w);
    cz_resv_release(p->resv);
    free(p->pub);
    if (p->c)
        cz_eng_circuit_put(e, p->c);
    pthread_mutex_lock(&e->mu);
    if (p->proved) { /* done and no longer in flight at the same moment */
        p->j->done++;
        e->proved++;
        cz_eng_kc(e, p->j)->proved++;
    }
    p->j->in_flight--;
    cz_eng_job_check_end(e, p->j);
    pthread_mutex_unlock(&e->mu);
    free(p);
}

static void part_fail(cz_engine *e, part *p, int rc, const char *msg)
{
    pthread_mutex_lock(&e->mu);
    cz_eng_job_fail_locked(e, p->j, rc, msg);
    pthread_mutex_unlock(&e->mu);
    cz_eng_part_drop(e, p);
}

/* Synthesis of partition idx of j: NULL when it ended (failure, cancel). */
static part *synth_partition(cz_engine *e, job *j, uint32_t idx)
{
    char msg[CZ_JOB_MSG_MAX] = "";
    int rc;
    part *p = calloc(1, sizeof *p);
    if (p == NULL) {
        pthread_mutex_lock(&e->mu);
        cz_eng_job_fail_locked(e, j, CZ_ERR_NOMEM, "out of memory");
        j->in_flight--;
        cz_eng_job_check_end(e, j);
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    p->j = j;
    p->idx = idx;
    double t0 = cz_eng_now_ms(e);
    size_t n_in = 0, w_bytes = 0;
    uint64_t synth_copy = 0;
    /* Pin the circuit (loading it if needed) and reserve the partition's
     * bytes.  A partition that has to wait for memory unpins its circuit
     * while it waits, so idle circuits of waiting partitions can be evicted
     * (otherwise two circuits pinned by waiting partitions could starve each
     * other), but only by requests served after it (cz_eng_reserve's
     * unpinned list: else two circuits that do not fit together evict each
     * other forever); once granted it pins the circuit again, and if that
     * was evicted meanwhile it gives the bytes back and starts over. */
    double load_ms = 0;
    for (;;) {
        double ta = cz_eng_now_ms(e);
        p->c = cz_eng_circuit_acquire(e, j, &rc, msg, sizeof msg);
        load_ms += cz_eng_now_ms(e) - ta;
        if (p->c == NULL) {
            part_fail(e, p, rc, msg);
            return NULL;
        }
        circuit *c = p->c;
        const cz_r1cs *r = c->r1cs;
        n_in = cz_r1cs_num_inputs(r);
        p->n_w = n_in + cz_r1cs_num_aux(r);
        cz_groth16_prove_sizes_of(&p->sz, c->params, r, cz_msm_nthreads(e->pool), e->be->kind);
        w_bytes = p->n_w * sizeof(cz_fr);
        synth_copy = j->k->synth_extra ? j->k->synth_extra(j, w_bytes) : 0;
        uint64_t total = cz_mem_charge(w_bytes) + synth_copy + cz_mem_charge(p->sz.abc) +
                         cz_mem_charge(p->sz.start_scratch) + cz_mem_charge(p->sz.b2_scalars) +
                         cz_mem_charge(p->sz.finish_scratch);
        /* its own circuit stays cached while it runs, and the request pool
         * stays reserved: what is left of the budget beside them is all a
         * partition can ever get */
        uint64_t held = c->resv ? cz_resv_size(c->resv) : 0;
        uint64_t budget = cz_budget_total(e->budget), pool = cz_resv_size(e->request_pool);
        if (total > budget - pool - held) {
            cz_msgf(msg, sizeof msg,
                    "partition %u needs %llu bytes (witness %zu, a/b/c %zu, scratch %zu + %zu, "
                    "B_g2 scalars %zu), its circuit holds %llu and the request pool %llu, but "
                    "the memory budget is %llu bytes",
                    idx, (unsigned long long)total, w_bytes, p->sz.abc, p->sz.start_scratch,
                    p->sz.finish_scratch, p->sz.b2_scalars, (unsigned long long)held,
                    (unsigned long long)pool, (unsigned long long)budget);
            part_fail(e, p, CZ_ERR_TOO_BIG, msg);
            return NULL;
        }
        cz_wait_key key = {(int)j->prio, j->seq, idx};
        rc = cz_budget_reserve(e->budget, total, &key, 0, &j->cancel, &p->resv, msg, sizeof msg);
        if (rc == CZ_OK)
            break;
        if (rc == CZ_ERR_TIMEOUT) { /* wait unpinned */
            cz_eng_circuit_put(e, c);
            p->c = NULL;
            unpinned u = {j->circuit_id, key, NULL};
            rc = cz_eng_reserve(e, total, &key, &j->cancel, &u, &p->resv, msg, sizeof msg);
        }
        if (rc != CZ_OK) {
            part_fail(e, p, rc, msg);
            return NULL;
        }
        pthread_mutex_lock(&e->mu);
        if (cz_eng_find_circuit(e, j->circuit_id) == c && c->state == C_READY) {
            c->refs++;
            p->c = c;
        }
        pthread_mutex_unlock(&e->mu);
        if (p->c != NULL)
            break;
        cz_resv_release(p->resv); /* evicted while we waited: again */
        p->resv = NULL;
    }
    cz_buf_tag tag = {j->seq, idx, CZ_ENG_STAGE_SYNTH};
    rc = cz_mem_alloc((void **)&p->w, p->resv, CZ_BUF_WITNESS, w_bytes, &tag, msg, sizeof msg);
    if (rc == CZ_OK)
        rc = j->k->synthesize(e, j, p, msg, sizeof msg);
    if (rc == CZ_OK && synth_copy)
        cz_resv_shrink(p->resv, synth_copy); /* what synthesis held besides w is gone */
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
    double t1 = cz_eng_now_ms(e);
    cz_eng_timeline(e, j, idx, CZ_ENG_STAGE_SYNTH, t0, t1);
    pthread_mutex_lock(&e->mu);
    j->synth_ms += t1 - t0 - load_ms;
    j->load_ms += load_ms;
    pthread_mutex_unlock(&e->mu);
    return p;
}

/* ------------------------------------------------------------- workers --- */

/* The next (job, partition) for synthesis among jobs of priority min or
 * higher: the job first by priority then age, its lowest partition not yet
 * started.  Caller holds e->mu. */
static job *pick_job(cz_engine *e, cz_priority min)
{
    job *best = NULL;
    for (job *j = e->live; j; j = j->next) {
        if (j->finished || j->admitting || atomic_load(&j->cancel) ||
            j->next_part >= j->n_parts || j->prio < min)
            continue;
        if (!best || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq))
            best = j;
    }
    return best;
}

/* A synthesis worker's loop; urgent: HIGH and CRITICAL jobs only, not
 * counted against the synthesis limit. */
static void synth_loop(cz_engine *e, bool urgent)
{
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j = NULL;
        if (urgent) {
            while (!e->stop && (j = pick_job(e, CZ_PRIO_HIGH)) == NULL)
                pthread_cond_wait(&e->cv_work, &e->mu);
        } else {
            while (!e->stop &&
                   (e->synth_busy >= e->synth_limit || (j = pick_job(e, CZ_PRIO_LOW)) == NULL))
                pthread_cond_wait(&e->cv_work, &e->mu);
        }
        if (e->stop)
            break;
        uint32_t idx = j->next_part++;
        j->in_flight++;
        if (j->state == CZ_JOB_QUEUED) {
            j->state = CZ_JOB_RUNNING;
            j->t_first = cz_eng_now_ms(e);
            cz_eng_job_started_locked(e, j);
        }
        if (!urgent)
            e->synth_busy++;
        pthread_mutex_unlock(&e->mu);
        part *p = synth_partition(e, j, idx);
        pthread_mutex_lock(&e->mu);
        if (!urgent)
            e->synth_busy--;
        if (e->synth_limit < e->cfg.synthesis_workers)
            pthread_cond_broadcast(&e->cv_work); /* a worker held back by the limit */
        if (p == NULL)
            continue;
        while (!e->stop && cz_eng_fifo_ahead(&e->pq, j->prio) >= e->cfg.queue_depth &&
               !atomic_load(&j->cancel))
            pthread_cond_wait(&e->cv_space, &e->mu);
        if (e->stop || atomic_load(&j->cancel)) {
            pthread_mutex_unlock(&e->mu);
            cz_eng_part_drop(e, p);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        cz_mem_set_stage(p->w, CZ_ENG_STAGE_START);
        cz_eng_fifo_push(&e->pq, p);
        pthread_cond_broadcast(&e->cv_prove); /* the holder of a device, or a stager */
    }
    pthread_mutex_unlock(&e->mu);
}

void *cz_eng_synth_worker(void *arg)
{
    synth_loop(arg, false);
    return NULL;
}

void *cz_eng_urgent_worker(void *arg)
{
    synth_loop(arg, true);
    return NULL;
}

/* With e->mu held: waits for a partition in q and pops it (partitions of
 * cancelled or failed jobs are dropped on the way).  Returns it with the
 * caller counted in *busy and e->mu released, or NULL with e->mu still held
 * when the engine stops. */
/* With e->mu held: pops q's head while its priority is above floor (-1:
 * any), the partitions of cancelled jobs dropped on the way (e->mu
 * released and taken again around each drop); the first one alive, or
 * NULL. */
static part *pop_live(cz_engine *e, fifo *q, int floor)
{
    while (!e->stop && q->head && (int)q->head->j->prio > floor) {
        part *p = cz_eng_fifo_pop(q);
        pthread_cond_broadcast(&e->cv_space);
        if (!atomic_load(&p->j->cancel))
            return p;
        pthread_mutex_unlock(&e->mu);
        cz_eng_part_drop(e, p);
        pthread_mutex_lock(&e->mu);
    }
    return NULL;
}

static part *take(cz_engine *e, fifo *q, pthread_cond_t *cv, unsigned *busy)
{
    for (;;) {
        while (!e->stop && q->n == 0)
            pthread_cond_wait(cv, &e->mu);
        if (e->stop)
            return NULL;
        part *p = pop_live(e, q, -1);
        if (p != NULL) {
            (*busy)++;
            pthread_mutex_unlock(&e->mu);
            return p;
        }
    }
}

/* Preemption at step bounds.  A prove_start yields after H and after each
 * G1 MSM, on the GPU also inside the H MSM (cz_groth16_prove_opts.yield);
 * there, while the prove queue's head is a HIGH or CRITICAL partition of a
 * higher priority than the running one, that partition's prove_start runs
 * at once on the same thread and device, nested, before the running one
 * goes on: a WinningPoSt behind a PoRep partition waits for one step of it
 * (at most about 0.4 s on an H200 at 2^27: H, or half the H MSM's bucket
 * sums) instead of its whole prove_start.  Both proofs' memory is held
 * meanwhile: the host's was reserved at synthesis, and the nested proof
 * does not wait for device memory (no_wait): when the device cannot hold
 * it beside the running one it goes back to the queue's head
 * and runs next.  The running partition's timeline event spans the pause
 * (the nested one's lies inside it); its job's prove time leaves it out. */
typedef struct {
    cz_engine *e;
    unsigned dev;
    const part *p;    /* the running partition */
    double nested_ms; /* spent in partitions run from its yields */
} preempt;

typedef enum { STARTED, FAILED, REQUEUED } start_rc;
static start_rc run_start(cz_engine *e, unsigned dev, part *p, const preempt *outer);
static void to_finish(cz_engine *e, part *p);

static void preempt_hook(void *arg)
{
    preempt *x = arg;
    cz_engine *e = x->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        part *q = e->pq.head;
        if (e->stop || q == NULL || q->j->prio < CZ_PRIO_HIGH || q->j->prio <= x->p->j->prio)
            break;
        cz_eng_fifo_pop(&e->pq);
        pthread_cond_broadcast(&e->cv_space);
        if (atomic_load(&q->j->cancel)) {
            pthread_mutex_unlock(&e->mu);
            cz_eng_part_drop(e, q);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        e->prove_busy++;
        pthread_mutex_unlock(&e->mu);
        double t0 = cz_eng_now_ms(e);
        start_rc r = run_start(e, x->dev, q, x);
        if (r == STARTED)
            to_finish(e, q);
        x->nested_ms += cz_eng_now_ms(e) - t0;
        pthread_mutex_lock(&e->mu);
        if (r == REQUEUED) /* the device's memory is short: the running one first */
            break;
    }
    /* the device is the yielding partition's again: shown only now, so it
     * never shows between one nested proof and the next */
    e->dev_job[x->dev] = x->p->j;
    pthread_mutex_unlock(&e->mu);
}

/* p's prove_start on device dev, whose lock the caller holds, p counted
 * in prove_busy: STARTED (the caller then passes p to to_finish) or FAILED
 * (p failed, and is no longer counted).  From another partition's yield
 * (outer), p may not wait for device memory: when it would, it goes back
 * to the head of the prove queue with its witness, uncounted: REQUEUED. */
static start_rc run_start(cz_engine *e, unsigned dev, part *p, const preempt *outer)
{
    job *j = p->j;
    char msg[CZ_JOB_MSG_MAX] = "";
    cz_buf_tag tag = {j->seq, p->idx, CZ_ENG_STAGE_START};
    cz_resv_allocator_init(&p->ra, p->resv, &tag);
    preempt self = {e, dev, p, 0};
    memset(&p->tm, 0, sizeof p->tm);
    cz_groth16_prove_opts o = {.pool = e->pool,
                               .timings = &p->tm, /* prove_finish writes it too */
                               .alloc = &p->ra.a,
                               .yield = preempt_hook,
                               .yield_ctx = &self,
                               .no_wait = outer != NULL,
                               .staged = p->staged};
    double t0 = cz_eng_now_ms(e);
    pthread_mutex_lock(&e->mu);
    e->dev_job[dev] = j;
    pthread_cond_broadcast(&e->cv_prove); /* the device proves: a stager may take the next */
    pthread_mutex_unlock(&e->mu);
    int rc = e->be->prove_start(e->be->ctx, dev, &p->pend, p->c->params, p->c->r1cs, p->w, p->n_w,
                                &o, msg, sizeof msg);
    pthread_mutex_lock(&e->mu);
    if (!outer) /* nested: the hook gives the device back to the one that yielded */
        e->dev_job[dev] = NULL;
    if (outer && rc == CZ_ERR_BUSY) {
        cz_eng_fifo_push_front(&e->pq, p);
        e->prove_busy--;
        pthread_cond_broadcast(&e->cv_prove); /* another device may be free by now */
        pthread_mutex_unlock(&e->mu);
        return REQUEUED;
    }
    pthread_mutex_unlock(&e->mu);
    double t1 = cz_eng_now_ms(e);
    if (p->staged) {
        e->be->unstage(e->be->ctx, p->staged);
        p->staged = NULL;
    }
    cz_mem_free(p->w);
    p->w = NULL;
    if (rc != CZ_OK) {
        if (!msg[0])
            cz_msgf(msg, sizeof msg, "prove_start of partition %u failed: %s", p->idx,
                    cz_strerror(rc));
        part_fail(e, p, rc == CZ_ERR_NOMEM ? rc : CZ_ERR_BACKEND, msg);
        pthread_mutex_lock(&e->mu);
        e->prove_busy--;
        pthread_mutex_unlock(&e->mu);
        return FAILED;
    }
    /* keep only what prove_finish still needs: its scratch */
    uint64_t unused = cz_resv_size(p->resv) - cz_resv_used(p->resv);
    uint64_t keep = cz_mem_charge(p->sz.finish_scratch);
    if (unused > keep)
        cz_resv_shrink(p->resv, unused - keep);
    p->ra.tag.stage = CZ_ENG_STAGE_FINISH;
    cz_eng_timeline(e, j, p->idx, CZ_ENG_STAGE_START, t0, t1);
    pthread_mutex_lock(&e->mu);
    j->prove_ms += t1 - t0 - self.nested_ms;
    e->dev_link_bytes[dev] += p->tm.link_bytes;
    e->dev_link_s[dev] += p->tm.link_s;
    pthread_mutex_unlock(&e->mu);
    return STARTED;
}

/* A started partition into the finish queue, once it has room for it. */
static void to_finish(cz_engine *e, part *p)
{
    pthread_mutex_lock(&e->mu);
    while (!e->stop && cz_eng_fifo_ahead(&e->fq, p->j->prio) >= e->cfg.queue_depth)
        pthread_cond_wait(&e->cv_space, &e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        cz_eng_part_drop(e, p);
        pthread_mutex_lock(&e->mu);
    } else {
        cz_eng_fifo_push(&e->fq, p);
        pthread_cond_signal(&e->cv_final);
    }
    e->prove_busy--;
    pthread_mutex_unlock(&e->mu);
}

/* Whether a prover worker of device dev may take the prove queue's head
 * ahead to stage its witness: the back end stages, every device is
 * proving (an idle one takes the head as it is), no partition is staged
 * for dev yet, and the head is there.  Caller holds e->mu. */
static bool may_stage(const cz_engine *e, unsigned dev)
{
    if (!e->be->stage || e->stop || e->dev_staging[dev] || e->pq.n == 0)
        return false;
    for (unsigned d = 0; d < e->n_dev; d++)
        if (e->dev_job[d] == NULL)
            return false;
    return true;
}

/* Staging (docs/gpu-kernels.md item 8): while device dev proves a
 * partition, a second prover worker of dev takes the queue's head, copies
 * its witness to the device outside the device's lock (be->stage), then
 * waits for the lock with it, so the copy runs beside the kernels of the
 * proof before instead of inside its own.  Once it has the lock,
 * partitions of a higher priority that came meanwhile (a PoSt) run first,
 * the staged witness freed before them so that its device memory cannot
 * keep them out (that partition then copies its witness itself).  The
 * staging's time is a timeline event (CZ_ENG_STAGE_UPLOAD). */
static part *take_staged(cz_engine *e, unsigned dev)
{
    part *p = cz_eng_fifo_pop(&e->pq);
    pthread_cond_broadcast(&e->cv_space);
    if (atomic_load(&p->j->cancel)) {
        pthread_mutex_unlock(&e->mu);
        cz_eng_part_drop(e, p);
        return NULL;
    }
    e->prove_busy++;
    e->dev_staging[dev] = true;
    pthread_mutex_unlock(&e->mu);
    double t0 = cz_eng_now_ms(e);
    if (e->be->stage(e->be->ctx, dev, p->w, p->n_w, &p->staged) != CZ_OK)
        p->staged = NULL; /* its prove_start copies it */
    else
        cz_eng_timeline(e, p->j, p->idx, CZ_ENG_STAGE_UPLOAD, t0, cz_eng_now_ms(e));
    return p;
}

/* Device dev's lock for the calling worker (dev_mu, then mu held; the
 * device marked held for the workers that wait for it without blocking). */
static void hold_device(cz_engine *e, unsigned dev)
{
    pthread_mutex_lock(&e->dev_mu[dev]);
    pthread_mutex_lock(&e->mu);
    e->dev_held[dev] = true;
}

/* The reverse of hold_device, with mu held on entry and released. */
static void release_device(cz_engine *e, unsigned dev)
{
    e->dev_held[dev] = false;
    pthread_cond_broadcast(&e->cv_prove);
    pthread_mutex_unlock(&e->mu);
    pthread_mutex_unlock(&e->dev_mu[dev]);
}

void *cz_eng_prove_worker(void *arg)
{
    cz_eng_prover_arg *pa = arg;
    cz_engine *e = pa->e;
    unsigned dev = pa->dev;
    free(pa);
    /* The device first, then the queue's head: a partition is chosen when
     * it can start at once, so one that arrives meanwhile with a higher
     * priority (a PoSt behind PoRep partitions) is the next to run rather
     * than waiting behind one another worker already holds (lock order:
     * dev_mu, then mu).  A worker that finds the device held waits on
     * cv_prove rather than on its lock, so it may stage the next partition
     * once the device proves (take_staged); a staged partition is the
     * exception to the rule, and yields to higher priorities once it has
     * the device. */
    for (;;) {
        part *staged = NULL;
        pthread_mutex_lock(&e->mu);
        if (may_stage(e, dev)) {
            staged = take_staged(e, dev); /* releases mu */
        } else if (!e->stop && (e->dev_held[dev] || e->dev_staging[dev])) {
            /* held, or the staged partition has the device next */
            pthread_cond_wait(&e->cv_prove, &e->mu);
            pthread_mutex_unlock(&e->mu);
            continue;
        } else {
            pthread_mutex_unlock(&e->mu);
        }
        hold_device(e, dev);
        part *p;
        if (staged) {
            /* the device is this worker's: the other may stage the next */
            e->dev_staging[dev] = false;
            part *q;
            /* a partition of a higher priority than the staged one first */
            while ((q = pop_live(e, &e->pq, (int)staged->j->prio)) != NULL) {
                e->prove_busy++;
                pthread_mutex_unlock(&e->mu);
                if (staged->staged) {
                    e->be->unstage(e->be->ctx, staged->staged);
                    staged->staged = NULL;
                }
                if (run_start(e, dev, q, NULL) == STARTED)
                    to_finish(e, q);
                pthread_mutex_lock(&e->mu);
            }
            if (e->stop || atomic_load(&staged->j->cancel)) {
                e->prove_busy--;
                release_device(e, dev);
                cz_eng_part_drop(e, staged);
                continue; /* the loop's take sees the stop */
            }
            p = staged;
            pthread_mutex_unlock(&e->mu);
        } else {
            p = take(e, &e->pq, &e->cv_prove, &e->prove_busy);
            if (p == NULL) {
                release_device(e, dev);
                break;
            }
        }
        start_rc r = run_start(e, dev, p, NULL);
        pthread_mutex_lock(&e->mu);
        release_device(e, dev);
        if (r == STARTED)
            to_finish(e, p);
    }
    return NULL;
}

void *cz_eng_final_worker(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    part *p;
    while ((p = take(e, &e->fq, &e->cv_final, &e->final_busy)) != NULL) {
        job *j = p->j;
        cz_groth16_proof pf;
        double t0 = cz_eng_now_ms(e);
        int rc = e->be->prove_finish(e->be->ctx, &pf, p->pend);
        p->pend = NULL; /* consumed either way */
        double t1 = cz_eng_now_ms(e);
        char msg[CZ_JOB_MSG_MAX] = "";
        if (rc != CZ_OK) {
            cz_msgf(msg, sizeof msg, "prove_finish of partition %u failed: %s", p->idx,
                    cz_strerror(rc));
            rc = rc == CZ_ERR_NOMEM ? rc : CZ_ERR_BACKEND;
        } else if (!e->cfg.no_verify &&
                   cz_groth16_verify(&p->c->pvk, &pf, p->pub, p->n_pub) != CZ_OK) {
            rc = CZ_ERR_BAD_PROOF;
            if (p->c->params->flavor == CZ_GROTH16_SNARKJS)
                cz_msgf(msg, sizeof msg,
                        "the proof of partition %u does not verify: the witness does not satisfy "
                        "circuit %s (a snarkjs key has no C matrix to check it before proving)",
                        p->idx, j->circuit_id);
            else
                cz_msgf(msg, sizeof msg, "the proof of partition %u does not verify", p->idx);
        }
        cz_eng_timeline(e, j, p->idx, CZ_ENG_STAGE_FINISH, t0, t1);
        if (rc != CZ_OK) {
            part_fail(e, p, rc, msg);
        } else {
            cz_groth16_proof_to_bytes(j->proofs + (size_t)p->idx * CZ_GROTH16_PROOF_BYTES, &pf);
            pthread_mutex_lock(&e->mu);
            j->prove_ms += t1 - t0;
            pthread_mutex_unlock(&e->mu);
            p->proved = true;
            cz_eng_part_drop(e, p);
        }
        pthread_mutex_lock(&e->mu);
        e->final_busy--;
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

