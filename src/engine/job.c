/* Jobs: handles, labels and their indexes, submission (retries joined by digest, admission
 * limits, the input copied into the request pool), results, cancellation
 * and the history (see engine_internal.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/sha256.h"
#include "cuzk/utf8.h"
#include "engine/engine_internal.h"
#include "engine/family.h"

const char *cz_job_state_name(cz_job_state s)
{
    static const char *const n[] = {"queued", "running", "completed", "failed", "cancelled"};
    return (unsigned)s < 5 ? n[s] : "?";
}

const char *cz_priority_name(cz_priority p)
{
    static const char *const n[] = {"low", "normal", "high", "critical"};
    return (unsigned)p <= CZ_PRIO_CRITICAL ? n[p] : "?";
}

/* in cz_job_kind order (kind.h) */
const cz_eng_kind *const cz_eng_kinds[] = {&cz_eng_kind_synthetic,
                                             &cz_eng_kind_groth16,
                                             &cz_eng_families[CZ_ENG_POREP].kind,
                                             &cz_eng_families[CZ_ENG_SNAP].kind,
                                             &cz_eng_families[CZ_ENG_WINDOW_POST].kind,
                                             &cz_eng_families[CZ_ENG_WINNING_POST].kind,
                                             NULL};
_Static_assert(sizeof cz_eng_kinds / sizeof cz_eng_kinds[0] == CZ_JOB_KINDS + 1,
               "one table row per kind");
_Static_assert(CZ_KIND_SYNTHETIC == 1 && CZ_KIND_GROTH16 == 2 && CZ_KIND_POREP == 3 &&
                   CZ_KIND_SNAP == 4 && CZ_KIND_WINDOW_POST == 5 && CZ_KIND_WINNING_POST == 6,
               "kinds numbered 1 .. CZ_JOB_KINDS in table order");

const cz_eng_kind *cz_eng_kind_of(cz_job_kind k)
{
    return k >= 1 && k <= CZ_JOB_KINDS ? cz_eng_kinds[k - 1] : NULL;
}

const char *cz_job_kind_name(cz_job_kind k)
{
    const cz_eng_kind *kd = cz_eng_kind_of(k);
    return kd ? kd->name : "?";
}

const char *cz_job_kind_queue(cz_job_kind k)
{
    const cz_eng_kind *kd = cz_eng_kind_of(k);
    return kd ? kd->queue : "?";
}

cz_priority cz_job_kind_priority(cz_job_kind k)
{
    const cz_eng_kind *kd = cz_eng_kind_of(k);
    return kd ? kd->priority : CZ_PRIO_NORMAL;
}

int cz_eng_pool_full(const cz_engine *e, const char *what, char *err, size_t errlen)
{
    uint64_t pool = cz_resv_size(e->request_pool);
    cz_msgf(err, errlen,
            "the request pool (%llu of %llu bytes free) cannot hold %s now: retry when queued "
            "jobs have finished",
            (unsigned long long)(pool - cz_resv_used(e->request_pool)), (unsigned long long)pool,
            what);
    return CZ_ERR_LIMIT;
}

/* ----------------------------------------------------------------- ids --- */

int cz_job_id_check(const char *id, size_t len, char *err, size_t errlen)
{
    size_t bad;
    if (id == NULL || len == 0 || len >= CZ_JOB_ID_MAX) {
        cz_msgf(err, errlen, "the id must have 1 to %d bytes, not %zu", CZ_JOB_ID_MAX - 1,
                id ? len : 0);
        return CZ_ERR_INVALID_ARG;
    }
    const char *nul = memchr(id, 0, len);
    if (nul != NULL) {
        cz_msgf(err, errlen, "the id has a NUL byte at offset %zu", (size_t)(nul - id));
        return CZ_ERR_INVALID_ARG;
    }
    if (!cz_utf8_valid((const uint8_t *)id, len, &bad)) {
        cz_msgf(err, errlen, "the id is not valid UTF-8 (at byte %zu)", bad);
        return CZ_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)id[i];
        /* C0 controls, DEL, and C1 controls (U+0080..U+009F: 0xC2 0x80..0x9F) */
        if (c < 0x20 || c == 0x7f || (c == 0xc2 && (unsigned char)id[i + 1] < 0xa0)) {
            cz_msgf(err, errlen, "the id has a control character at byte %zu", i);
            return CZ_ERR_INVALID_ARG;
        }
    }
    if (strncmp(id, CZ_JOB_ID_GENERATED, strlen(CZ_JOB_ID_GENERATED)) == 0) {
        cz_msgf(err, errlen, "ids beginning with \"%s\" are the ones the engine makes",
                CZ_JOB_ID_GENERATED);
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

/* The indexes of live and history jobs: by handle, and by label (every
 * job carrying it; those it names are the ones not superseded). */
static size_t id_hash(const char *id)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 32));
}

static const char *key_of(const cz_eng_index *x, const job *j) { return x->label ? j->label : j->id; }
static job **link_of(const cz_eng_index *x, job *j) { return x->label ? &j->lnext : &j->hnext; }
static bool *flag_of(const cz_eng_index *x, job *j) { return x->label ? &j->by_label : &j->by_handle; }

/* The first job of x's chain for key from *from on (NULL: none); pass the
 * returned job's link to continue. */
static job *index_next(const cz_eng_index *x, job *from, const char *key)
{
    for (job *j = from; j; j = *link_of(x, j))
        if (!strcmp(key_of(x, j), key))
            return j;
    return NULL;
}

static job *index_first(const cz_eng_index *x, const char *key)
{
    return x->cap ? index_next(x, x->t[id_hash(key) & (x->cap - 1)], key) : NULL;
}

static void index_remove(cz_eng_index *x, job *j)
{
    if (!*flag_of(x, j))
        return;
    for (job **pp = &x->t[id_hash(key_of(x, j)) & (x->cap - 1)]; *pp; pp = link_of(x, *pp)) {
        if (*pp == j) {
            *pp = *link_of(x, j);
            break;
        }
    }
    *flag_of(x, j) = false;
    x->n--;
}

/* Adds j, growing the table to keep chains short.  CZ_OK or CZ_ERR_NOMEM. */
static int index_add(cz_eng_index *x, job *j)
{
    if (x->n + 1 > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 256;
        job **t = calloc(cap, sizeof *t);
        if (t == NULL)
            return CZ_ERR_NOMEM;
        for (size_t i = 0; i < x->cap; i++) {
            for (job *y = x->t[i], *ny; y; y = ny) {
                ny = *link_of(x, y);
                size_t k = id_hash(key_of(x, y)) & (cap - 1);
                *link_of(x, y) = t[k];
                t[k] = y;
            }
        }
        free(x->t);
        x->t = t;
        x->cap = cap;
    }
    size_t k = id_hash(key_of(x, j)) & (x->cap - 1);
    *link_of(x, j) = x->t[k];
    x->t[k] = j;
    *flag_of(x, j) = true;
    x->n++;
    return CZ_OK;
}

static bool is_handle(const char *id)
{
    return strncmp(id, CZ_JOB_ID_GENERATED, strlen(CZ_JOB_ID_GENERATED)) == 0;
}

job *cz_eng_find_job(cz_engine *e, const char *id, int *rc)
{
    job *found = NULL;
    unsigned n = 0;
    if (is_handle(id)) {
        found = index_first(&e->by_handle, id);
        n = found != NULL && !found->admitting;
    } else {
        for (job *j = index_first(&e->by_label, id); j; j = index_next(&e->by_label, j->lnext, id))
            if (!j->admitting && !j->superseded)
                found = j, n++;
    }
    *rc = n == 0 ? CZ_ERR_NOT_FOUND : n > 1 ? CZ_ERR_AMBIGUOUS : CZ_OK;
    return n == 1 ? found : NULL;
}

int cz_engine_resolve(cz_engine *e, const char *id, char handle[CZ_JOB_ID_MAX], char *err,
                      size_t errlen)
{
    if (e == NULL || id == NULL || handle == NULL)
        return CZ_ERR_INVALID_ARG;
    handle[0] = 0;
    int rc;
    pthread_mutex_lock(&e->mu);
    job *j = cz_eng_find_job(e, id, &rc);
    if (j != NULL) {
        snprintf(handle, CZ_JOB_ID_MAX, "%s", j->id);
    } else if (rc == CZ_ERR_AMBIGUOUS) {
        size_t at = 0;
        char list[320] = "";
        unsigned n = 0;
        for (job *x = index_first(&e->by_label, id); x; x = index_next(&e->by_label, x->lnext, id)) {
            if (x->admitting || x->superseded)
                continue;
            n++;
            if (at < sizeof list - 40)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s %s", n > 1 ? ", " : "",
                                       x->id, cz_job_state_name(x->state));
        }
        cz_msgf(err, errlen,
                "id %s names %u jobs (%s): await or cancel by the job_id SubmitProof returned",
                id, n, list);
    } else {
        cz_msgf(err, errlen, "job %s not found", id);
    }
    pthread_mutex_unlock(&e->mu);
    return rc;
}

/* ------------------------------------------------------- job lifecycle --- */

void cz_eng_job_free(job *j)
{
    if (j->k)
        j->k->release(j);
    free(j->proofs);
    free(j->ev_submit);
    free(j->ev_start);
    free(j->ev_end);
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

void cz_eng_fill_result(cz_engine *e, const job *j, cz_job_result *r, bool proofs)
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
    r->load_ms = j->load_ms;
    r->prove_ms = j->prove_ms;
    r->total_ms = (j->finished ? j->t_end : cz_eng_now_ms(e)) - j->t_submit;
    if (proofs && j->state == CZ_JOB_COMPLETED && j->proofs) {
        r->proofs = malloc((size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES);
        if (r->proofs)
            memcpy(r->proofs, j->proofs, (size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES);
    }
}

/* Fills n's event from j (strings copied into n). */
static void set_event(cz_engine *e, notice *n, const job *j, cz_job_event_kind what)
{
    cz_job_result r;
    cz_eng_fill_result(e, j, &r, false);
    snprintf(n->id, sizeof n->id, "%s", j->id);
    snprintf(n->label, sizeof n->label, "%s", j->label);
    snprintf(n->circuit, sizeof n->circuit, "%s", j->circuit_id);
    snprintf(n->message, sizeof n->message, "%s", r.message);
    n->has_event = true;
    n->ev = (cz_job_event){.what = what,
                           .id = n->id,
                           .label = n->label,
                           .seq = j->seq,
                           .kind = j->kind,
                           .circuit = n->circuit,
                           .priority = j->prio,
                           .partitions = j->n_parts,
                           .state = j->state,
                           .message = n->message,
                           .queue_ms = r.queue_ms,
                           .synth_ms = r.synth_ms,
                           .prove_ms = r.prove_ms,
                           .total_ms = r.total_ms};
}

void cz_eng_job_started_locked(cz_engine *e, job *j)
{
    if (j->ev_start) {
        set_event(e, j->ev_start, j, CZ_JOB_EV_STARTED);
        cz_eng_notice_push_locked(e, j->ev_start);
        j->ev_start = NULL;
    }
}

void cz_eng_job_check_end(cz_engine *e, job *j)
{
    if (j->finished || j->admitting || j->in_flight > 0)
        return;
    if (j->err == CZ_OK && j->done < j->n_parts)
        return;
    j->finished = 1;
    j->t_end = cz_eng_now_ms(e);
    cz_eng_kind_counts *kc = cz_eng_kc(e, j);
    if (j->err == CZ_OK) {
        j->state = CZ_JOB_COMPLETED;
        e->completed++;
        kc->completed++;
    } else if (j->err == CZ_ERR_CANCELLED || j->err == CZ_ERR_SHUTDOWN) {
        j->state = CZ_JOB_CANCELLED;
        e->cancelled++;
        kc->cancelled++;
    } else {
        j->state = CZ_JOB_FAILED;
        e->failed++;
        kc->failed++;
    }
    e->n_live--;
    e->live_parts -= j->n_parts;
    j->k->release(j); /* the input goes back to the request pool */
    if (j->state != CZ_JOB_COMPLETED) {
        free(j->proofs);
        j->proofs = NULL;
    }
    /* the FINISHED event, and every watch fired with the final state */
    notice *n = j->ev_end;
    j->ev_end = NULL;
    set_event(e, n, j, CZ_JOB_EV_FINISHED);
    cz_eng_fill_result(e, j, &n->res, true);
    n->fire = cz_eng_watches_take_locked(e, j);
    cz_eng_notice_push_locked(e, n);
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
            index_remove(&e->by_handle, old);
            index_remove(&e->by_label, old);
            cz_eng_job_free(old);
            e->n_hist--;
            old = nx;
        }
    }
    pthread_cond_broadcast(&e->cv_done);
}

/* ---------------------------------------------------------- submission --- */

/* The digest of what determines a job's proofs, and the kind's checks:
 * j's kind and shape (circuit id, partitions) are filled in.  Without e->mu
 * (the kind may take it for a lookup). */
static int check_request(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    if ((unsigned)req->priority > CZ_PRIO_CRITICAL) {
        cz_msgf(err, errlen, "job: priority %d is out of range", (int)req->priority);
        return CZ_ERR_INVALID_ARG;
    }
    if (req->id) {
        char why[160];
        if (cz_job_id_check(req->id, strlen(req->id), why, sizeof why) != CZ_OK) {
            cz_msgf(err, errlen, "job: %s", why);
            return CZ_ERR_INVALID_ARG;
        }
    }
    if (req->input == NULL) {
        cz_msgf(err, errlen, "job: no input");
        return CZ_ERR_INVALID_ARG;
    }
    j->k = cz_eng_kind_of(req->kind);
    if (j->k == NULL) {
        cz_msgf(err, errlen, "job: unknown kind %d", (int)req->kind);
        return CZ_ERR_INVALID_ARG;
    }
    cz_sha256_ctx h;
    cz_sha256_init(&h);
    cz_sha256_update(&h, "cuzk job v1", 11);
    cz_sha256_update_u64(&h, (uint64_t)req->kind);
    int rc = j->k->check(e, req, j, &h, err, errlen);
    if (rc == CZ_OK)
        cz_sha256_final(&h, j->digest);
    return rc;
}

/* t, just submitted or joined under its label, becomes what the label
 * names with its unfinished jobs: the finished others are superseded (an
 * await by the label then never answers with another request's proof).
 * Caller holds e->mu. */
static void label_settle_locked(cz_engine *e, job *t)
{
    t->superseded = false;
    for (job *o = index_first(&e->by_label, t->label); o;
         o = index_next(&e->by_label, o->lnext, t->label))
        if (o != t && o->finished)
            o->superseded = true;
}

/* Removes a job that never got admitted.  Caller holds e->mu. */
static void unadmit_locked(cz_engine *e, job *j)
{
    for (job **pp = &e->live; *pp; pp = &(*pp)->next) {
        if (*pp == j) {
            *pp = j->next;
            break;
        }
    }
    index_remove(&e->by_handle, j);
    index_remove(&e->by_label, j);
    e->n_live--;
    e->live_parts -= j->n_parts;
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
        j->ev_submit = calloc(1, sizeof(notice));
        j->ev_start = calloc(1, sizeof(notice));
        j->ev_end = calloc(1, sizeof(notice));
        if (!j->proofs || !j->ev_submit || !j->ev_start || !j->ev_end) {
            cz_msgf(err, errlen, "job: out of memory");
            rc = CZ_ERR_NOMEM;
        }
    }
    if (rc != CZ_OK) {
        cz_eng_job_free(j);
        return rc;
    }
    j->prio = req->priority;
    j->kind = req->kind;
    j->cancel_unwatched = req->cancel_unwatched;
    atomic_init(&j->cancel, 0);

    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->stop) {
            pthread_mutex_unlock(&e->mu);
            cz_eng_job_free(j);
            cz_msgf(err, errlen, "job: the engine is shutting down");
            return CZ_ERR_SHUTDOWN;
        }
        /* the same request under its label, unfinished or completed (a
         * client retrying after a lost reply gets its proof, proved once,
         * however many requests the label has carried since), is joined;
         * a job of the label being admitted may be it: wait for it */
        job *same = NULL;
        bool admitting = false;
        for (job *o = req->id ? index_first(&e->by_label, req->id) : NULL; o;
             o = index_next(&e->by_label, o->lnext, req->id)) {
            admitting |= o->admitting;
            if (!o->admitting && (!o->finished || o->state == CZ_JOB_COMPLETED) &&
                memcmp(o->digest, j->digest, sizeof j->digest) == 0)
                same = o;
        }
        if (same) {
            label_settle_locked(e, same);
            snprintf(id_out, CZ_JOB_ID_MAX, "%s", same->id);
            if (!req->cancel_unwatched)
                same->cancel_unwatched = false; /* someone may await it later */
            if (existing)
                *existing = true;
            pthread_mutex_unlock(&e->mu);
            cz_eng_job_free(j);
            return CZ_OK;
        }
        if (!admitting)
            break;
        pthread_cond_wait(&e->cv_done, &e->mu);
    }
    if (e->n_live + 1 > e->cfg.max_jobs ||
        e->live_parts + j->n_parts > (uint64_t)e->cfg.max_partitions) {
        bool jobs = e->n_live + 1 > e->cfg.max_jobs;
        cz_msgf(err, errlen,
                jobs ? "job: %llu jobs are unfinished, the limit is %llu: retry later"
                     : "job: %llu partitions are unfinished, %llu more would pass the limit "
                       "%llu: retry later",
                jobs ? (unsigned long long)e->n_live : (unsigned long long)e->live_parts,
                jobs ? (unsigned long long)e->cfg.max_jobs : (unsigned long long)j->n_parts,
                (unsigned long long)e->cfg.max_partitions);
        pthread_mutex_unlock(&e->mu);
        cz_eng_job_free(j);
        return CZ_ERR_LIMIT;
    }
    j->seq = ++e->next_seq;
    snprintf(j->id, sizeof j->id, "%s%llu", CZ_JOB_ID_GENERATED, (unsigned long long)j->seq);
    if (req->id)
        snprintf(j->label, sizeof j->label, "%s", req->id);
    if (index_add(&e->by_handle, j) != CZ_OK || (req->id && index_add(&e->by_label, j) != CZ_OK)) {
        index_remove(&e->by_handle, j);
        pthread_mutex_unlock(&e->mu);
        cz_eng_job_free(j);
        cz_msgf(err, errlen, "job: out of memory");
        return CZ_ERR_NOMEM;
    }
    /* admitted provisionally: counted, findable, not startable until its
     * input is in */
    j->admitting = true;
    j->state = CZ_JOB_QUEUED;
    j->t_submit = cz_eng_now_ms(e);
    j->next = e->live;
    e->live = j;
    e->n_live++;
    e->live_parts += j->n_parts;
    e->n_api++;
    pthread_mutex_unlock(&e->mu);

    rc = j->k->admit ? j->k->admit(e, req, j, err, errlen) : CZ_OK;

    pthread_mutex_lock(&e->mu);
    j->admitting = false;
    if (rc == CZ_OK && e->stop) {
        rc = CZ_ERR_SHUTDOWN;
        cz_msgf(err, errlen, "job: the engine is shutting down");
    }
    if (rc != CZ_OK) {
        unadmit_locked(e, j);
    } else {
        if (j->label[0])
            label_settle_locked(e, j);
        e->submitted++;
        cz_eng_kc(e, j)->submitted++;
        snprintf(id_out, CZ_JOB_ID_MAX, "%s", j->id);
        set_event(e, j->ev_submit, j, CZ_JOB_EV_SUBMITTED);
        cz_eng_notice_push_locked(e, j->ev_submit);
        j->ev_submit = NULL;
        cz_eng_job_check_end(e, j); /* cancelled while it was being admitted */
        pthread_cond_broadcast(&e->cv_work);
    }
    pthread_cond_broadcast(&e->cv_done);
    if (--e->n_api == 0)
        pthread_cond_broadcast(&e->cv_api);
    pthread_mutex_unlock(&e->mu);
    if (rc != CZ_OK)
        cz_eng_job_free(j);
    return rc;
}

/* ------------------------------------------------------------- results --- */

int cz_engine_await(cz_engine *e, const char *id, int64_t timeout_ms, cz_job_result *res)
{
    if (e == NULL || id == NULL || res == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(res, 0, sizeof *res);
    struct timespec dl = cz_clock_deadline_ms(timeout_ms);
    pthread_mutex_lock(&e->mu);
    e->n_api++;
    int rc;
    job *j = cz_eng_find_job(e, id, &rc);
    /* the job by its handle from here on: its label may name others later */
    char handle[CZ_JOB_ID_MAX];
    if (j)
        snprintf(handle, sizeof handle, "%s", j->id);
    while (j != NULL && !j->finished) {
        if (e->stop) {
            rc = CZ_ERR_SHUTDOWN;
            break;
        }
        if (timeout_ms >= 0) {
            if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) != 0) {
                j = cz_eng_find_job(e, handle, &rc);
                if (j && !j->finished)
                    rc = CZ_ERR_TIMEOUT;
                break;
            }
        } else {
            pthread_cond_wait(&e->cv_done, &e->mu);
        }
        j = cz_eng_find_job(e, handle, &rc);
    }
    if (j != NULL)
        cz_eng_fill_result(e, j, res, rc == CZ_OK);
    if (--e->n_api == 0)
        pthread_cond_broadcast(&e->cv_api);
    pthread_mutex_unlock(&e->mu);
    return rc;
}

int cz_engine_job_status(cz_engine *e, const char *id, cz_job_result *res)
{
    if (e == NULL || id == NULL || res == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc;
    pthread_mutex_lock(&e->mu);
    job *j = cz_eng_find_job(e, id, &rc);
    if (j)
        cz_eng_fill_result(e, j, res, false);
    pthread_mutex_unlock(&e->mu);
    return rc;
}

void cz_job_result_free(cz_job_result *res)
{
    if (res) {
        free(res->proofs);
        res->proofs = NULL;
    }
}

/* -------------------------------------------------------- cancellation --- */

int cz_engine_cancel(cz_engine *e, const char *id)
{
    if (e == NULL || id == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc;
    pthread_mutex_lock(&e->mu);
    job *j = cz_eng_find_job(e, id, &rc);
    if (j && !j->finished) {
        cz_eng_job_fail_locked(e, j, CZ_ERR_CANCELLED, "cancelled");
        cz_eng_job_check_end(e, j); /* a queued job ends at once */
        pthread_cond_broadcast(&e->cv_space);
    }
    pthread_mutex_unlock(&e->mu);
    return rc;
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

int cz_engine_wait_idle(cz_engine *e, int64_t timeout_ms)
{
    struct timespec dl = cz_clock_deadline_ms(timeout_ms);
    int rc = CZ_OK;
    pthread_mutex_lock(&e->mu);
    while (e->n_live > 0 && rc == CZ_OK) {
        if (timeout_ms < 0)
            pthread_cond_wait(&e->cv_done, &e->mu);
        else if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) != 0)
            rc = e->n_live > 0 ? CZ_ERR_TIMEOUT : CZ_OK;
    }
    pthread_mutex_unlock(&e->mu);
    return rc;
}
