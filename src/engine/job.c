/* Jobs: submission, results, cancellation and the history (see
 * engine_internal.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"

const char *cz_job_state_name(cz_job_state s)
{
    static const char *const n[] = {"queued", "running", "completed", "failed", "cancelled"};
    return (unsigned)s < 5 ? n[s] : "?";
}

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

void cz_eng_job_free(job *j)
{
    free(j->w);
    free(j->proofs);
    free(j);
}

void cz_eng_job_fail_locked(cz_engine *e, job *j, int rc, const char *msg)
{
    if (j->err == CZ_OK) {
        j->err = rc;
        cz_msgf(j->msg, sizeof j->msg, "%s", msg && msg[0] ? msg : cz_strerror(rc));
    }
    atomic_store(&j->cancel, 1);
    cz_budget_wake(e->budget);
}

void cz_eng_job_check_end(cz_engine *e, job *j)
{
    if (j->finished || j->in_flight > 0)
        return;
    if (j->err == CZ_OK && j->done < j->n_parts)
        return;
    j->finished = 1;
    j->t_end = cz_eng_now_ms(e);
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
            cz_eng_job_free(old);
            e->n_hist--;
            old = nx;
        }
    }
    pthread_cond_broadcast(&e->cv_done);
}

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
        circuit *c = cz_eng_find_circuit(e, g->circuit);
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
        cz_eng_job_free(j);
        return rc;
    }
    j->prio = req->priority;
    j->kind = req->kind;
    atomic_init(&j->cancel, 0);
    pthread_mutex_lock(&e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        cz_eng_job_free(j);
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
            cz_eng_job_free(j);
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
    j->t_submit = cz_eng_now_ms(e);
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
    r->total_ms = (j->finished ? j->t_end : cz_eng_now_ms(e)) - j->t_submit;
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
        cz_eng_job_fail_locked(e, j, CZ_ERR_CANCELLED, "cancelled");
        cz_eng_job_check_end(e, j); /* a queued job ends at once */
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
            cz_eng_job_fail_locked(e, j, CZ_ERR_CANCELLED, "cancelled");
            cz_eng_job_check_end(e, j);
            n++;
        }
    }
    pthread_cond_broadcast(&e->cv_space);
    pthread_mutex_unlock(&e->mu);
    return n;
}

