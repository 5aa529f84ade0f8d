/* Notifications: the queue of notices (job events, finished jobs' watches),
 * asynchronous watches with deadlines, and the notifier thread that calls
 * them back without any engine lock held (see engine_internal.h).
 *
 * A watch is PENDING while it hangs on its job (and, with a deadline, on
 * e->timed); FIRING once it has been taken off to be called, which happens
 * exactly once: with the job's final state when the job ends, or with the
 * state then when its deadline passes.  cz_engine_unwatch only takes back
 * a PENDING watch. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"
#include "util/list.h"

enum { W_IDLE, W_PENDING, W_FIRING };

void cz_eng_notice_push_locked(cz_engine *e, notice *n)
{
    CZ_QUEUE_APPEND(e->nq_head, e->nq_tail, n, next);
    pthread_cond_signal(&e->cv_notify);
}

/* Takes w off its job and the timed list.  Caller holds e->mu. */
static void detach_locked(cz_engine *e, cz_job_watch *w)
{
    job *j = w->job;
    CZ_DLIST_UNLINK(j->watches, w, prev, next);
    if (w->deadline_ms >= 0)
        CZ_DLIST_UNLINK(e->timed, w, tprev, tnext);
    w->next = w->prev = w->tnext = w->tprev = NULL;
    e->n_watches--;
}

cz_job_watch *cz_eng_watches_take_locked(cz_engine *e, job *j)
{
    cz_job_watch *fire = NULL;
    while (j->watches) {
        cz_job_watch *w = j->watches;
        detach_locked(e, w);
        w->state = W_FIRING;
        w->fnext = fire;
        fire = w;
    }
    return fire;
}

/* Calls what n carries and frees it.  Without e->mu. */
static void deliver(cz_engine *e, notice *n)
{
    if (n->has_event && e->cfg.on_job)
        e->cfg.on_job(e->cfg.on_job_ctx, &n->ev);
    for (cz_job_watch *w = n->fire, *nx; w; w = nx) {
        nx = w->fnext; /* w may be gone once its callback has returned */
        w->fn(w->arg, CZ_OK, &n->res);
    }
    cz_job_result_free(&n->res);
    free(n);
}

void *cz_eng_notifier(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->nq_head) {
            notice *n = e->nq_head;
            e->nq_head = n->next;
            if (!e->nq_head)
                e->nq_tail = NULL;
            pthread_mutex_unlock(&e->mu);
            deliver(e, n);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        double t = cz_eng_now_ms(e), next = -1;
        cz_job_watch *due = NULL;
        for (cz_job_watch *w = e->timed; w && !due; w = w->tnext) {
            if (w->deadline_ms <= t)
                due = w;
            else if (next < 0 || w->deadline_ms < next)
                next = w->deadline_ms;
        }
        if (due) {
            detach_locked(e, due);
            due->state = W_FIRING;
            cz_job_result r;
            cz_eng_fill_result(e, due->job, &r, false);
            cz_job_watch_fn *fn = due->fn;
            void *a = due->arg;
            pthread_mutex_unlock(&e->mu);
            fn(a, CZ_ERR_TIMEOUT, &r);
            pthread_mutex_lock(&e->mu);
            continue;
        }
        if (e->notifier_stop)
            break;
        if (next < 0) {
            pthread_cond_wait(&e->cv_notify, &e->mu);
        } else {
            struct timespec dl = cz_clock_deadline_ms((int64_t)(next - t) + 1);
            pthread_cond_timedwait(&e->cv_notify, &e->mu, &dl);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

int cz_engine_watch(cz_engine *e, const char *id, int64_t timeout_ms, cz_job_watch_fn *fn,
                    void *arg, cz_job_watch *w)
{
    if (e == NULL || id == NULL || fn == NULL || w == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->mu); /* w's contents are read under it (unwatch) */
    memset(w, 0, sizeof *w);
    w->fn = fn;
    w->arg = arg;
    w->deadline_ms = -1;
    int rc = CZ_OK;
    job *j = e->stop ? NULL : cz_eng_find_job(e, id, &rc);
    if (e->stop)
        rc = CZ_ERR_SHUTDOWN;
    else if (j != NULL && e->n_watches >= e->cfg.max_watches)
        rc = CZ_ERR_LIMIT;
    if (rc != CZ_OK) {
        pthread_mutex_unlock(&e->mu);
        return rc;
    }
    w->job = j;
    if (j->finished) { /* fires at once, from the notifier */
        notice *n = calloc(1, sizeof *n);
        if (n == NULL) {
            pthread_mutex_unlock(&e->mu);
            return CZ_ERR_NOMEM;
        }
        cz_eng_fill_result(e, j, &n->res, true);
        w->state = W_FIRING;
        n->fire = w;
        cz_eng_notice_push_locked(e, n);
        pthread_mutex_unlock(&e->mu);
        return CZ_OK;
    }
    w->state = W_PENDING;
    w->next = j->watches;
    if (j->watches)
        j->watches->prev = w;
    j->watches = w;
    if (timeout_ms >= 0) {
        w->deadline_ms = cz_eng_now_ms(e) + (double)timeout_ms;
        w->tnext = e->timed;
        if (e->timed)
            e->timed->tprev = w;
        e->timed = w;
        pthread_cond_signal(&e->cv_notify); /* perhaps the earliest deadline now */
    }
    e->n_watches++;
    pthread_mutex_unlock(&e->mu);
    return CZ_OK;
}

bool cz_engine_unwatch(cz_engine *e, cz_job_watch *w, bool client_gone)
{
    if (e == NULL || w == NULL)
        return false;
    pthread_mutex_lock(&e->mu);
    bool taken = w->state == W_PENDING;
    if (taken) {
        job *j = w->job;
        detach_locked(e, w);
        w->state = W_IDLE;
        if (client_gone && j->cancel_unwatched && j->watches == NULL && !j->finished) {
            cz_eng_job_fail_locked(e, j, CZ_ERR_CANCELLED,
                                   "cancelled: the client that asked for it went away");
            cz_eng_job_check_end(e, j);
            pthread_cond_broadcast(&e->cv_space);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return taken;
}
