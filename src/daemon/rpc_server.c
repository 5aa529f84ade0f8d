/* cuzk.v1.ProvingEngine's calls (see rpc.h) over the HTTP/2 transport of
 * daemon/h2.h.
 *
 * Threads:
 *   the transport's loop thread opens a call when its headers are in (the
 *   method looked up, CZ_RPC_MAX_CALLS enforced), gives its message ONE
 *   buffer when the 5-byte prefix is in (malloc up to SMALL_REQUEST, else
 *   the engine's request pool: a big request is charged to the budget
 *   before a byte of it is stored, and refused at once when the pool cannot
 *   hold it), queues the complete request to a handler pool, and takes back
 *   a pending watch when the client goes away;
 *   handler pools run the methods: fast (CZ_RPC_HANDLERS threads) for
 *   messages up to SMALL_REQUEST, bulk (CZ_RPC_BULK_HANDLERS) for larger
 *   ones, so a big decode never holds up a small call, and slow (one
 *   thread, at most CZ_RPC_SLOW_QUEUE waiting) for PreloadSRS.  A handler
 *   scans the message (daemon/wire.h), decodes it into an arena of the
 *   scan's size (the request pool when big), frees the message and runs the
 *   method (rpc_methods.c);
 *   the engine's notifier thread runs the watches (AwaitProof, Prove).
 * Answers from any of them go to the loop through cz_h2_answer.
 *
 * A call is reference counted: one for the transport (from open to its
 * close), one per answer in the transport's queue, one for the handler
 * that runs it, one for a pending watch; the last frees it, its message
 * included. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"
#include "daemon/h2.h"
#include "daemon/log.h"
#include "daemon/rpc_internal.h"
#include "daemon/wire.h"
#include "util/clock.h"
#include "util/list.h"

#define SMALL_REQUEST (64u << 10) /* up to this: malloc and the fast pool */

struct rpc_call {
    cz_h2_call h; /* the transport's part */
    cz_rpc_server *s;
    atomic_int refs;
    atomic_bool gone, watching;
    const cz_rpc_method *m;
    uint8_t *msg; /* the request message: msg_len bytes, from the pool when msg_pooled */
    size_t msg_len;
    bool msg_pooled;
    cz_job_watch watch;
    cz_job_watch_fn *watch_fn;
    rpc_call *qnext;
    _Alignas(16) unsigned char scratch[CZ_RPC_SCRATCH];
};

/* A handler pool: threads taking calls from a queue (bounded when max). */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rpc_call *head, *tail;
    unsigned n, max;
    pthread_t threads[CZ_RPC_HANDLERS];
    unsigned n_threads;
    bool stop;
} handler_pool;
_Static_assert(CZ_RPC_BULK_HANDLERS <= CZ_RPC_HANDLERS, "handler_pool.threads");

struct cz_rpc_server {
    cz_h2 *t;
    cz_rpc_ctx ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned active; /* calls between open and their last reference */
    uint64_t served; /* calls freed */
    bool stopping;
    handler_pool fast, bulk, slow;
};

const cz_rpc_ctx *cz_rpc_call_ctx(const rpc_call *c) { return &c->s->ctx; }

void *cz_rpc_call_scratch(rpc_call *c) { return c->scratch; }

/* ------------------------------------------------------------ memory --- */

/* Request memory: malloc when small, else the engine's request pool (so
 * it is charged to the budget).  NULL with msg set when the pool is full;
 * what: "receiving" (the message) or "decoding" (its arena). */
static void *req_alloc(cz_rpc_server *s, size_t n, bool *pooled, const char *what, char *msg,
                       size_t msglen)
{
    *pooled = n > SMALL_REQUEST;
    if (!*pooled) {
        void *p = malloc(n ? n : 1);
        if (p == NULL)
            cz_msgf(msg, msglen, "out of memory for a %zu-byte request", n);
        return p;
    }
    cz_resv *pool = cz_engine_request_pool(s->ctx.engine);
    cz_buf_tag t = {0, UINT32_MAX, "request"};
    void *p;
    if (cz_mem_alloc(&p, pool, CZ_BUF_INPUT, n, &t, NULL, 0) != CZ_OK) {
        uint64_t size = cz_resv_size(pool), used = cz_resv_used(pool);
        cz_msgf(msg, msglen,
                "the request pool has %llu of %llu bytes free, %s this request takes %zu: retry "
                "when queued jobs have finished",
                (unsigned long long)(size - used), (unsigned long long)size, what, n);
        return NULL;
    }
    return p;
}

static void req_free(void *p, bool pooled)
{
    if (pooled)
        cz_mem_free(p);
    else
        free(p);
}

/* ------------------------------------------------------------- calls --- */

static void msg_free(rpc_call *c)
{
    if (c->msg)
        req_free(c->msg, c->msg_pooled);
    c->msg = NULL;
}

static void call_free(rpc_call *c)
{
    cz_rpc_server *s = c->s;
    msg_free(c);
    free(c);
    pthread_mutex_lock(&s->mu);
    s->active--;
    s->served++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void cz_rpc_call_ref(rpc_call *c) { atomic_fetch_add(&c->refs, 1); }

void cz_rpc_call_unref(rpc_call *c)
{
    if (atomic_fetch_sub(&c->refs, 1) == 1)
        call_free(c);
}

void cz_rpc_reply_status(rpc_call *c, int code, const char *details)
{
    cz_h2_answer(c->s->t, &c->h, code, details, NULL, 0);
}

void cz_rpc_reply_msg(rpc_call *c, const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = len <= CZ_RPC_MAX_MESSAGE ? malloc(CZ_H2_PREFIX + len) : NULL;
    if (buf == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED,
                            len <= CZ_RPC_MAX_MESSAGE ? "out of memory packing the answer"
                                                      : "the answer is over the message limit");
        return;
    }
    protobuf_c_message_pack(m, buf + CZ_H2_PREFIX);
    cz_h2_answer(c->s->t, &c->h, CZ_RPC_OK, NULL, buf, len);
}

/* ----------------------------------------------------------- watches --- */

static void watch_fired(void *arg, int rc, const cz_job_result *res)
{
    rpc_call *c = arg;
    atomic_store(&c->watching, false);
    c->watch_fn(c, rc, res);
    cz_rpc_call_unref(c);
}

int cz_rpc_watch(rpc_call *c, const char *job_id, int64_t timeout_ms, cz_job_watch_fn *fn)
{
    cz_engine *e = c->s->ctx.engine;
    c->watch_fn = fn;
    cz_rpc_call_ref(c); /* the watch's */
    atomic_store(&c->watching, true);
    int rc = cz_engine_watch(e, job_id, timeout_ms, watch_fired, c, &c->watch);
    if (rc != CZ_OK) {
        atomic_store(&c->watching, false);
        cz_rpc_call_unref(c);
        return rc;
    }
    /* the client may have gone while the watch was being set up: the loop
     * saw no watch then, so take it back here */
    if (atomic_load(&c->gone) && cz_engine_unwatch(e, &c->watch, true)) {
        atomic_store(&c->watching, false);
        cz_rpc_call_unref(c);
    }
    return CZ_OK;
}

/* ---------------------------------------------------------- handlers --- */

/* Scans, decodes and runs c's method. */
static void handle(rpc_call *c)
{
    char msg[300];
    if (c->msg == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, "no request message");
        return;
    }
    static const cz_wire_limits lim = {CZ_RPC_MAX_FIELDS, CZ_RPC_MAX_UNKNOWN, 4};
    cz_wire_scan sc;
    char why[240];
    if (cz_wire_scan_message(c->m->request, c->msg, c->msg_len, &lim, &sc, why, sizeof why) !=
        CZ_OK) {
        cz_msgf(msg, sizeof msg, "%s refused: %s", c->m->request->short_name, why);
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, msg);
        return;
    }
    bool pooled;
    void *mem = req_alloc(c->s, sc.arena, &pooled, "decoding", msg, sizeof msg);
    if (mem == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, msg);
        return;
    }
    cz_wire_arena ar;
    cz_wire_arena_init(&ar, mem, sc.arena);
    ProtobufCMessage *req = protobuf_c_message_unpack(c->m->request, &ar.a, c->msg_len, c->msg);
    msg_free(c); /* unpack copied every string and bytes field into the arena */
    if (req == NULL) {
        cz_msgf(msg, sizeof msg, "malformed %s", c->m->request->short_name);
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, msg);
    } else {
        c->m->fn(c, req);
    }
    req_free(mem, pooled);
}

static void *pool_worker(void *arg)
{
    handler_pool *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->stop && q->head == NULL)
            pthread_cond_wait(&q->cv, &q->mu);
        if (q->head == NULL)
            break;
        rpc_call *c = q->head;
        q->head = c->qnext;
        if (q->head == NULL)
            q->tail = NULL;
        q->n--;
        pthread_mutex_unlock(&q->mu);
        handle(c);
        msg_free(c); /* here, not on the loop thread, if the call ends at once */
        cz_rpc_call_unref(c); /* the handler's */
        pthread_mutex_lock(&q->mu);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

/* Queues c (with a reference for its handler): false when the queue is
 * full. */
static bool pool_push(handler_pool *q, rpc_call *c)
{
    pthread_mutex_lock(&q->mu);
    bool ok = q->max == 0 || q->n < q->max;
    if (ok) {
        CZ_QUEUE_APPEND(q->head, q->tail, c, qnext);
        q->n++;
        pthread_cond_signal(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return ok;
}

/* Starts the threads (at most CZ_RPC_HANDLERS); pool_stop undoes it,
 * whatever this returned. */
static int pool_start(handler_pool *q, unsigned threads, unsigned max)
{
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    q->max = max;
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&q->threads[i], NULL, pool_worker, q) != 0)
            return CZ_ERR_THREAD;
        q->n_threads++;
    }
    return CZ_OK;
}

static void pool_stop(handler_pool *q)
{
    pthread_mutex_lock(&q->mu);
    q->stop = true;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    for (unsigned i = 0; i < q->n_threads; i++)
        pthread_join(q->threads[i], NULL);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
}

/* The handler pools stopped and the server freed (its transport is gone
 * or never started). */
static void server_free(cz_rpc_server *s)
{
    pool_stop(&s->fast);
    pool_stop(&s->bulk);
    pool_stop(&s->slow);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

/* ------------------------------------------ the transport's handlers --- */

static cz_h2_call *on_open(void *arg, const char *path, int *code, char *msg, size_t msglen)
{
    cz_rpc_server *s = arg;
    const cz_rpc_method *m = NULL;
    for (size_t i = 0; i < cz_rpc_n_methods && m == NULL; i++)
        if (strcmp(path, cz_rpc_methods[i].path) == 0)
            m = &cz_rpc_methods[i];
    if (m == NULL) {
        *code = CZ_RPC_UNIMPLEMENTED;
        cz_msgf(msg, msglen, "unknown method %s", path);
        return NULL;
    }
    rpc_call *c = calloc(1, sizeof *c);
    pthread_mutex_lock(&s->mu);
    unsigned active = s->active;
    bool stopping = s->stopping, ok = c != NULL && !stopping && active < CZ_RPC_MAX_CALLS;
    if (ok)
        s->active++;
    pthread_mutex_unlock(&s->mu);
    if (!ok) {
        free(c);
        *code = stopping ? CZ_RPC_UNAVAILABLE : CZ_RPC_RESOURCE_EXHAUSTED;
        if (stopping)
            cz_msgf(msg, msglen, "the daemon is stopping");
        else if (c == NULL)
            cz_msgf(msg, msglen, "out of memory for a call");
        else
            cz_msgf(msg, msglen, "%u calls are in flight, the limit is %u: retry later", active,
                    CZ_RPC_MAX_CALLS);
        return NULL;
    }
    c->s = s;
    c->m = m;
    c->h.name = m->name;
    atomic_init(&c->refs, 1); /* the transport's */
    return &c->h;
}

static uint8_t *on_message(cz_h2_call *h, size_t len, int *code, char *msg, size_t msglen)
{
    rpc_call *c = (rpc_call *)h;
    c->msg = req_alloc(c->s, len, &c->msg_pooled, "receiving", msg, msglen);
    if (c->msg == NULL) {
        *code = CZ_RPC_RESOURCE_EXHAUSTED;
        return NULL;
    }
    c->msg_len = len;
    return c->msg;
}

static void on_request(cz_h2_call *h)
{
    rpc_call *c = (rpc_call *)h;
    cz_rpc_server *s = c->s;
    handler_pool *q = c->m->slow ? &s->slow : c->msg_len > SMALL_REQUEST ? &s->bulk : &s->fast;
    cz_rpc_call_ref(c); /* the handler's */
    if (pool_push(q, c))
        return;
    char msg[120];
    cz_msgf(msg, sizeof msg, "%u %s calls are waiting already: retry later", q->max,
            c->m->name);
    cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, msg);
    cz_rpc_call_unref(c);
}

static void on_close(cz_h2_call *h, bool gone)
{
    rpc_call *c = (rpc_call *)h;
    if (!gone)
        return;
    atomic_store(&c->gone, true);
    if (atomic_load(&c->watching) && cz_engine_unwatch(c->s->ctx.engine, &c->watch, true)) {
        atomic_store(&c->watching, false);
        cz_rpc_call_unref(c); /* the watch's */
    }
}

static void on_ref(cz_h2_call *h) { cz_rpc_call_ref((rpc_call *)h); }

static void on_unref(cz_h2_call *h) { cz_rpc_call_unref((rpc_call *)h); }

/* ------------------------------------------------------------ server --- */

int cz_rpc_server_start(cz_rpc_server **out, const char *const *addrs, size_t n_addrs,
                        const cz_rpc_ctx *ctx, char *err, size_t errlen)
{
    *out = NULL;
    if (ctx == NULL || ctx->engine == NULL) {
        cz_msgf(err, errlen, "rpc: an engine is needed");
        return CZ_ERR_INVALID_ARG;
    }
    cz_rpc_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return CZ_ERR_NOMEM;
    s->ctx = *ctx;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    int rc = pool_start(&s->fast, CZ_RPC_HANDLERS, 0);
    int rb = pool_start(&s->bulk, CZ_RPC_BULK_HANDLERS, 0);
    int rs = pool_start(&s->slow, 1, CZ_RPC_SLOW_QUEUE);
    if (rc != CZ_OK || rb != CZ_OK || rs != CZ_OK) {
        cz_msgf(err, errlen, "rpc: cannot start the handler threads");
        rc = CZ_ERR_THREAD;
    }
    const cz_h2_handlers h = {s, on_open, on_message, on_request, on_close, on_ref, on_unref};
    if (rc == CZ_OK)
        rc = cz_h2_start(&s->t, addrs, n_addrs, &h, err, errlen);
    if (rc != CZ_OK) {
        server_free(s);
        return rc;
    }
    *out = s;
    return CZ_OK;
}

int cz_rpc_server_port(const cz_rpc_server *s, size_t i) { return cz_h2_port(s->t, i); }

unsigned cz_rpc_server_active(cz_rpc_server *s)
{
    pthread_mutex_lock(&s->mu);
    unsigned n = s->active;
    pthread_mutex_unlock(&s->mu);
    return n;
}

uint64_t cz_rpc_server_served(cz_rpc_server *s)
{
    pthread_mutex_lock(&s->mu);
    uint64_t n = s->served;
    pthread_mutex_unlock(&s->mu);
    return n;
}

/* Waits until no call is left or the deadline (CLOCK_REALTIME; NULL:
 * none) passes: true when none is left. */
static bool wait_idle(cz_rpc_server *s, const struct timespec *dl)
{
    pthread_mutex_lock(&s->mu);
    while (s->active != 0) {
        if (dl == NULL)
            pthread_cond_wait(&s->cv, &s->mu);
        else if (pthread_cond_timedwait(&s->cv, &s->mu, dl) != 0)
            break;
    }
    bool ok = s->active == 0;
    pthread_mutex_unlock(&s->mu);
    return ok;
}

unsigned cz_rpc_server_stop(cz_rpc_server *s, int64_t grace_ms)
{
    if (s == NULL)
        return 0;
    pthread_mutex_lock(&s->mu);
    s->stopping = true;
    pthread_mutex_unlock(&s->mu);
    cz_h2_drain(s->t); /* no new connections, GOAWAY on the others */
    double end = cz_clock_s(CLOCK_MONOTONIC) + (grace_ms < 0 ? 0 : (double)grace_ms / 1e3);
    /* every accepted job, awaited or not, may finish within the grace
     * period; then the calls answered by them drain */
    unsigned cancelled = 0;
    if (cz_engine_wait_idle(s->ctx.engine,
                            (int64_t)((end - cz_clock_s(CLOCK_MONOTONIC)) * 1e3)) != CZ_OK) {
        cancelled = cz_engine_cancel_all(s->ctx.engine);
        cz_log(CZ_LOG_WARN, "grace period over: %u unfinished jobs cancelled", cancelled);
    }
    int64_t left = (int64_t)((end - cz_clock_s(CLOCK_MONOTONIC)) * 1e3);
    struct timespec dl = cz_clock_deadline_ms(left > 5000 ? left : 5000);
    if (!wait_idle(s, &dl))
        cz_h2_close_all(s->t); /* the calls left close as gone */
    wait_idle(s, NULL);
    cz_h2_free(s->t);
    server_free(s);
    return cancelled;
}
