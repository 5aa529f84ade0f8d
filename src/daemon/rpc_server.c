/* cuzk.v1.ProvingEngine's transport on gRPC's core C API (see rpc.h).
 *
 * One poller thread drives a completion queue; every call carries one tag
 * per batch of operations:
 *   NEW    grpc_server_request_call completed: post the next request, then
 *          start RECV_MESSAGE (RECV) and RECV_CLOSE_ON_SERVER (CLOSE) as
 *          two batches, or past CZ_RPC_MAX_CALLS answer RESOURCE_EXHAUSTED
 *          at once without reading the message;
 *   RECV   the message is in: the call joins a handler pool's queue; a
 *          handler scans it (daemon/wire.h), decodes it into memory of the
 *          engine's request pool and runs the method (rpc_methods.c);
 *   CLOSE  the call is over for gRPC: when the client cancelled it (went
 *          away, passed its deadline) before our answer, a pending engine
 *          watch is taken back, which may cancel a Prove's job;
 *   SENT   our answer (initial metadata, message, status) is out.
 * A call is reference counted: a reference per pending batch, one for the
 * handler that runs it, one for a pending watch; the last one frees it.
 * Replies are handed to gRPC without a second copy (the packed buffer
 * becomes the slice). */
#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <libgen.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "daemon/log.h"
#include "daemon/rpc_internal.h"
#include "daemon/wire.h"
#include "util/clock.h"

#define MAX_ADDRS        8
#define PENDING_REQUESTS 8
#define SMALL_REQUEST    (64u << 10) /* decoded below this: malloc, not the pool */

typedef enum { T_NEW, T_RECV, T_CLOSE, T_SENT, T_SHUTDOWN } tag_kind;

typedef struct {
    tag_kind kind;
    rpc_call *c;
} tag;

struct rpc_call {
    cz_rpc_server *s;
    tag t_new, t_recv, t_close, t_sent;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *req, *resp;
    int cancelled; /* set by RECV_CLOSE_ON_SERVER */
    grpc_slice status_details;
    atomic_int refs;
    atomic_bool answered, closed, watching;
    const cz_rpc_method *m;
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

struct cz_rpc_server {
    grpc_server *server;
    grpc_completion_queue *cq;
    pthread_t poller;
    bool poller_started;
    cz_rpc_ctx ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned active; /* calls between NEW and their last reference */
    uint64_t served; /* calls freed */
    bool stopping, shutdown_done;
    tag shutdown_tag;
    handler_pool fast, slow;
    int ports[MAX_ADDRS];
    size_t n_addrs;
    char unix_paths[MAX_ADDRS][108];
    size_t n_unix;
};

const cz_rpc_ctx *cz_rpc_call_ctx(const rpc_call *c) { return &c->s->ctx; }

void *cz_rpc_call_scratch(rpc_call *c) { return c->scratch; }

/* ------------------------------------------------------------ calls --- */

static void post_request(cz_rpc_server *s)
{
    rpc_call *c = calloc(1, sizeof *c);
    if (c == NULL) {
        cz_log(CZ_LOG_ERROR, "rpc: out of memory for a call");
        return;
    }
    c->s = s;
    c->t_new = (tag){T_NEW, c};
    c->t_recv = (tag){T_RECV, c};
    c->t_close = (tag){T_CLOSE, c};
    c->t_sent = (tag){T_SENT, c};
    atomic_init(&c->refs, 1); /* the NEW request */
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq,
                                 &c->t_new) != GRPC_CALL_OK) {
        grpc_call_details_destroy(&c->details);
        grpc_metadata_array_destroy(&c->md);
        free(c);
    }
}

/* Frees a call that was counted active. */
static void call_free(rpc_call *c)
{
    cz_rpc_server *s = c->s;
    if (c->req)
        grpc_byte_buffer_destroy(c->req);
    if (c->resp)
        grpc_byte_buffer_destroy(c->resp);
    grpc_slice_unref(c->status_details);
    if (c->call)
        grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
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

/* Starts a batch holding a reference of its own. */
static bool start(rpc_call *c, const grpc_op *ops, size_t n, tag *t)
{
    cz_rpc_call_ref(c);
    grpc_call_error e = grpc_call_start_batch(c->call, ops, n, t, NULL);
    if (e != GRPC_CALL_OK) {
        cz_log(CZ_LOG_ERROR, "rpc: grpc_call_start_batch failed (%d)", (int)e);
        cz_rpc_call_unref(c);
        return false;
    }
    return true;
}

static const char *code_name(int code)
{
    static const char *const n[] = {"OK",
                                    "CANCELLED",
                                    "UNKNOWN",
                                    "INVALID_ARGUMENT",
                                    "DEADLINE_EXCEEDED",
                                    "NOT_FOUND",
                                    "ALREADY_EXISTS",
                                    "PERMISSION_DENIED",
                                    "RESOURCE_EXHAUSTED",
                                    "FAILED_PRECONDITION",
                                    "ABORTED",
                                    "OUT_OF_RANGE",
                                    "UNIMPLEMENTED",
                                    "INTERNAL",
                                    "UNAVAILABLE"};
    return code >= 0 && code < (int)(sizeof n / sizeof n[0]) ? n[code] : "?";
}

/* The one answer of a call: packed (may be NULL; owned) and status. */
static void answer(rpc_call *c, void *packed, size_t len, int code, const char *details)
{
    if (atomic_exchange(&c->answered, true)) {
        free(packed);
        return;
    }
    grpc_op ops[3];
    size_t n = 0;
    memset(ops, 0, sizeof ops);
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    if (packed != NULL && code == CZ_RPC_OK) {
        grpc_slice sl = grpc_slice_new(packed, len, free);
        c->resp = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = c->resp;
    } else {
        free(packed);
    }
    c->status_details = grpc_slice_from_copied_string(details ? details : "");
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)code;
    ops[n++].data.send_status_from_server.status_details = &c->status_details;
    cz_log(CZ_LOG_DEBUG, "rpc %s: %s%s%s", c->m ? c->m->name : "?", code_name(code),
           details && details[0] ? ": " : "", details ? details : "");
    start(c, ops, n, &c->t_sent);
}

void cz_rpc_reply_status(rpc_call *c, int code, const char *details)
{
    answer(c, NULL, 0, code, details);
}

void cz_rpc_reply_msg(rpc_call *c, const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL) {
        answer(c, NULL, 0, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory packing the answer");
        return;
    }
    protobuf_c_message_pack(m, buf);
    answer(c, buf, len, CZ_RPC_OK, NULL);
}

/* ------------------------------------------------------------ watches --- */

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
    /* the client may have gone while the watch was being set up: the
     * poller saw no watch then, so take it back here */
    if (atomic_load(&c->closed) && cz_engine_unwatch(e, &c->watch, true)) {
        atomic_store(&c->watching, false);
        cz_rpc_call_unref(c);
    }
    return CZ_OK;
}

/* ----------------------------------------------------------- handlers --- */

/* Request memory: malloc when small, else the engine's request pool (so
 * it is charged to the budget).  NULL with msg set when the pool is full. */
static void *req_alloc(rpc_call *c, size_t n, bool *pooled, char *msg, size_t msglen)
{
    *pooled = n > SMALL_REQUEST;
    if (!*pooled) {
        void *p = malloc(n ? n : 1);
        if (p == NULL)
            cz_msgf(msg, msglen, "out of memory for a %zu-byte request", n);
        return p;
    }
    cz_resv *pool = cz_engine_request_pool(c->s->ctx.engine);
    cz_buf_tag t = {0, UINT32_MAX, "request"};
    void *p;
    if (cz_mem_alloc(&p, pool, CZ_BUF_INPUT, n, &t, NULL, 0) != CZ_OK) {
        uint64_t size = cz_resv_size(pool), used = cz_resv_used(pool);
        cz_msgf(msg, msglen,
                "the request pool has %llu of %llu bytes free, decoding this request takes "
                "%zu: retry when queued jobs have finished",
                (unsigned long long)(size - used), (unsigned long long)size, n);
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

/* Scans, decodes and runs c's method. */
static void handle(rpc_call *c)
{
    char msg[300];
    if (c->m == NULL) {
        char *m = grpc_slice_to_c_string(c->details.method);
        cz_msgf(msg, sizeof msg, "unknown method %s", m);
        gpr_free(m);
        cz_rpc_reply_status(c, CZ_RPC_UNIMPLEMENTED, msg);
        return;
    }
    grpc_byte_buffer *bb = c->req;
    if (bb == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, "no request message");
        return;
    }
    if (bb->type != GRPC_BB_RAW || bb->data.raw.compression != GRPC_COMPRESS_NONE) {
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, "compressed messages are not accepted");
        return;
    }
    const grpc_slice_buffer *sb = &bb->data.raw.slice_buffer;
    size_t len = sb->length;
    const uint8_t *p = NULL;
    void *flat = NULL;
    bool flat_pooled = false;
    if (sb->count == 1) {
        p = GRPC_SLICE_START_PTR(sb->slices[0]);
    } else if (sb->count > 1) { /* a contiguous copy, charged like the rest */
        flat = req_alloc(c, len, &flat_pooled, msg, sizeof msg);
        if (flat == NULL) {
            cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, msg);
            return;
        }
        size_t at = 0;
        for (size_t i = 0; i < sb->count; i++) {
            memcpy((uint8_t *)flat + at, GRPC_SLICE_START_PTR(sb->slices[i]),
                   GRPC_SLICE_LENGTH(sb->slices[i]));
            at += GRPC_SLICE_LENGTH(sb->slices[i]);
        }
        p = flat;
    }
    static const cz_wire_limits lim = {CZ_RPC_MAX_FIELDS, CZ_RPC_MAX_UNKNOWN, 4};
    cz_wire_scan sc;
    char why[240];
    if (cz_wire_scan_message(c->m->request, p, len, &lim, &sc, why, sizeof why) != CZ_OK) {
        cz_msgf(msg, sizeof msg, "%s refused: %s", c->m->request->short_name, why);
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, msg);
    } else {
        bool pooled;
        void *mem = req_alloc(c, sc.arena, &pooled, msg, sizeof msg);
        if (mem == NULL) {
            cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, msg);
        } else {
            cz_wire_arena ar;
            cz_wire_arena_init(&ar, mem, sc.arena);
            ProtobufCMessage *req = protobuf_c_message_unpack(c->m->request, &ar.a, len, p);
            if (req == NULL) {
                cz_msgf(msg, sizeof msg, "malformed %s", c->m->request->short_name);
                cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, msg);
            } else {
                c->m->fn(c, req);
            }
            req_free(mem, pooled);
        }
    }
    if (flat)
        req_free(flat, flat_pooled);
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
        cz_rpc_call_unref(c); /* the RECV reference, handed over */
        pthread_mutex_lock(&q->mu);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

/* Queues c (its RECV reference goes with it): false when the queue is full. */
static bool pool_push(handler_pool *q, rpc_call *c)
{
    pthread_mutex_lock(&q->mu);
    bool ok = q->max == 0 || q->n < q->max;
    if (ok) {
        c->qnext = NULL;
        if (q->tail)
            q->tail->qnext = c;
        else
            q->head = c;
        q->tail = c;
        q->n++;
        pthread_cond_signal(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return ok;
}

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

/* ------------------------------------------------------------ poller --- */

static void on_new(cz_rpc_server *s, rpc_call *c)
{
    pthread_mutex_lock(&s->mu);
    unsigned active = ++s->active;
    bool stopping = s->stopping;
    pthread_mutex_unlock(&s->mu);
    if (!stopping)
        post_request(s);
    for (size_t i = 0; i < cz_rpc_n_methods; i++)
        if (grpc_slice_str_cmp(c->details.method, cz_rpc_methods[i].path) == 0)
            c->m = &cz_rpc_methods[i];
    grpc_op op;
    memset(&op, 0, sizeof op);
    if (active > CZ_RPC_MAX_CALLS) {
        /* answered unread; RECV_CLOSE rides along for the SENT batch */
        char msg[120];
        cz_msgf(msg, sizeof msg, "%u calls are in flight, the limit is %u: retry later",
                active - 1, CZ_RPC_MAX_CALLS);
        grpc_op ops[3];
        memset(ops, 0, sizeof ops);
        ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
        c->status_details = grpc_slice_from_copied_string(msg);
        ops[1].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
        ops[1].data.send_status_from_server.status = GRPC_STATUS_RESOURCE_EXHAUSTED;
        ops[1].data.send_status_from_server.status_details = &c->status_details;
        ops[2].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
        ops[2].data.recv_close_on_server.cancelled = &c->cancelled;
        atomic_store(&c->answered, true);
        start(c, ops, 3, &c->t_sent);
    } else {
        op.op = GRPC_OP_RECV_MESSAGE;
        op.data.recv_message.recv_message = &c->req;
        start(c, &op, 1, &c->t_recv);
        memset(&op, 0, sizeof op);
        op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
        op.data.recv_close_on_server.cancelled = &c->cancelled;
        start(c, &op, 1, &c->t_close);
    }
    cz_rpc_call_unref(c); /* the NEW reference */
}

static void on_recv(cz_rpc_server *s, rpc_call *c)
{
    handler_pool *q = c->m && c->m->slow ? &s->slow : &s->fast;
    if (pool_push(q, c))
        return;
    char msg[120];
    cz_msgf(msg, sizeof msg, "%u %s calls are waiting already: retry later", q->max,
            c->m->name);
    cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, msg);
    cz_rpc_call_unref(c);
}

static void on_close(cz_rpc_server *s, rpc_call *c)
{
    atomic_store(&c->closed, true);
    if (c->cancelled && atomic_load(&c->watching) &&
        cz_engine_unwatch(s->ctx.engine, &c->watch, true)) {
        atomic_store(&c->watching, false);
        cz_rpc_call_unref(c); /* the watch's */
    }
    cz_rpc_call_unref(c);
}

static void *poller(void *arg)
{
    cz_rpc_server *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        tag *t = ev.tag;
        rpc_call *c = t->c;
        switch (t->kind) {
        case T_SHUTDOWN:
            pthread_mutex_lock(&s->mu);
            s->shutdown_done = true;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            break;
        case T_NEW:
            if (!ev.success) { /* the server is shutting down: never counted */
                grpc_call_details_destroy(&c->details);
                grpc_metadata_array_destroy(&c->md);
                free(c);
                break;
            }
            on_new(s, c);
            break;
        case T_RECV:
            on_recv(s, c);
            break;
        case T_CLOSE:
            on_close(s, c);
            break;
        case T_SENT:
            cz_rpc_call_unref(c);
            break;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ server --- */

static const char *unix_path_of(const char *addr)
{
    if (strncmp(addr, "unix://", 7) == 0)
        return addr + 7;
    if (strncmp(addr, "unix:", 5) == 0)
        return addr + 5;
    return NULL;
}

/* May a server listen on the unix socket path?  Refused: a path that
 * exists and is not a socket (never deleted), a socket someone answers on,
 * a missing or unwritable directory.  A stale socket (nobody listening) is
 * removed. */
static int claim_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un sa;
    if (strlen(path) == 0 || strlen(path) >= sizeof sa.sun_path) {
        cz_msgf(err, errlen, "unix:%s: a socket path needs 1 to %zu bytes", path,
                sizeof sa.sun_path - 1);
        return CZ_ERR_INVALID_ARG;
    }
    char dir[sizeof sa.sun_path];
    snprintf(dir, sizeof dir, "%s", path);
    const char *d = dirname(dir);
    struct stat st;
    if (stat(d, &st) != 0) {
        cz_msgf(err, errlen, "unix:%s: the directory %s %s", path, d,
                errno == ENOENT ? "does not exist" : strerror(errno));
        return CZ_ERR_IO;
    }
    if (!S_ISDIR(st.st_mode)) {
        cz_msgf(err, errlen, "unix:%s: %s is not a directory", path, d);
        return CZ_ERR_IO;
    }
    if (access(d, W_OK | X_OK) != 0) {
        cz_msgf(err, errlen, "unix:%s: cannot create a socket in %s: %s", path, d,
                strerror(errno));
        return CZ_ERR_IO;
    }
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return CZ_OK;
        cz_msgf(err, errlen, "unix:%s: %s", path, strerror(errno));
        return CZ_ERR_IO;
    }
    if (!S_ISSOCK(st.st_mode)) {
        cz_msgf(err, errlen, "unix:%s exists and is not a socket (%s): refusing to replace it",
                path, S_ISREG(st.st_mode) ? "a regular file" : S_ISDIR(st.st_mode) ? "a directory"
                                                                                 : "not a socket");
        return CZ_ERR_INVALID_ARG;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
        cz_msgf(err, errlen, "socket: %s", strerror(errno));
        return CZ_ERR_IO;
    }
    int r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int e = errno;
    close(fd);
    if (r == 0) {
        cz_msgf(err, errlen, "another server is listening on unix:%s: refusing to start", path);
        return CZ_ERR_BUSY;
    }
    if (e == ECONNREFUSED)
        unlink(path); /* stale */
    return CZ_OK;
}

/* Why gRPC could not listen on TCP address addr: a bind of our own tells. */
static int tcp_failure(const char *addr, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (colon == NULL || (size_t)(colon - addr) >= sizeof host) {
        cz_msgf(err, errlen, "cannot listen on %s: not HOST:PORT", addr);
        return CZ_ERR_INVALID_ARG;
    }
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = 0;
    size_t hl = strlen(host);
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = 0;
    }
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int g = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
    if (g != 0) {
        cz_msgf(err, errlen, "cannot listen on %s: %s", addr, gai_strerror(g));
        return CZ_ERR_INVALID_ARG;
    }
    int fd = socket(res->ai_family, SOCK_STREAM, 0), e = 0;
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0)
        e = errno;
    if (fd >= 0)
        close(fd);
    freeaddrinfo(res);
    if (e == EADDRINUSE) {
        cz_msgf(err, errlen, "cannot listen on %s: the address is in use (another daemon?)",
                addr);
        return CZ_ERR_BUSY;
    }
    cz_msgf(err, errlen, "cannot listen on %s: %s", addr,
            e ? strerror(e) : "gRPC refused the address");
    return CZ_ERR_IO;
}

static void destroy_unstarted(cz_rpc_server *s)
{
    grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
    grpc_server_cancel_all_calls(s->server);
    grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    grpc_server_destroy(s->server);
    grpc_completion_queue_shutdown(s->cq);
    while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(s->cq);
    grpc_shutdown();
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

int cz_rpc_server_start(cz_rpc_server **out, const char *const *addrs, size_t n_addrs,
                        const cz_rpc_ctx *ctx, char *err, size_t errlen)
{
    *out = NULL;
    if (n_addrs == 0 || n_addrs > MAX_ADDRS || ctx == NULL || ctx->engine == NULL) {
        cz_msgf(err, errlen, "rpc: 1 to %d listen addresses and an engine are needed", MAX_ADDRS);
        return CZ_ERR_INVALID_ARG;
    }
    cz_rpc_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return CZ_ERR_NOMEM;
    s->ctx = *ctx;
    s->shutdown_tag = (tag){T_SHUTDOWN, NULL};
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    grpc_init();
    grpc_resource_quota *quota = grpc_resource_quota_create("cuzk-daemon");
    grpc_resource_quota_resize(quota, CZ_RPC_QUOTA);
    grpc_arg args[9];
    memset(args, 0, sizeof args);
    size_t na = 0;
#define INT_ARG(k, v)                                                                              \
    (args[na].type = GRPC_ARG_INTEGER, args[na].key = (char *)(k), args[na].value.integer = (v),   \
     na++)
    INT_ARG(GRPC_ARG_ALLOW_REUSEPORT, 0);
    INT_ARG(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, (int)CZ_RPC_MAX_MESSAGE);
    INT_ARG(GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, (int)CZ_RPC_MAX_MESSAGE);
    INT_ARG(GRPC_ARG_MAX_CONCURRENT_STREAMS, CZ_RPC_MAX_STREAMS);
    INT_ARG(GRPC_COMPRESSION_CHANNEL_ENABLED_ALGORITHMS_BITSET, 1); /* identity only */
    /* keepalive pings find clients that vanished without closing */
    INT_ARG(GRPC_ARG_KEEPALIVE_TIME_MS, 60000);
    INT_ARG(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20000);
    INT_ARG(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
#undef INT_ARG
    args[na].type = GRPC_ARG_POINTER;
    args[na].key = (char *)GRPC_ARG_RESOURCE_QUOTA;
    args[na].value.pointer.p = quota;
    args[na].value.pointer.vtable = grpc_resource_quota_arg_vtable();
    na++;
    grpc_channel_args ca = {na, args};
    s->server = grpc_server_create(&ca, NULL);
    grpc_resource_quota_unref(quota);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    int rc = CZ_OK;
    for (size_t i = 0; i < n_addrs && rc == CZ_OK; i++) {
        const char *up = unix_path_of(addrs[i]);
        if (up && (rc = claim_unix(up, err, errlen)) != CZ_OK)
            break;
        grpc_server_credentials *cr = grpc_insecure_server_credentials_create();
        int port = grpc_server_add_http2_port(s->server, addrs[i], cr);
        grpc_server_credentials_release(cr);
        if (port == 0) {
            if (up)
                cz_msgf(err, errlen, "cannot listen on %s", addrs[i]), rc = CZ_ERR_IO;
            else
                rc = tcp_failure(addrs[i], err, errlen);
            break;
        }
        s->ports[i] = up ? 0 : port;
        if (up)
            snprintf(s->unix_paths[s->n_unix++], sizeof s->unix_paths[0], "%s", up);
        s->n_addrs = i + 1;
    }
    if (rc != CZ_OK) {
        destroy_unstarted(s); /* the socket files are not ours */
        return rc;
    }
    rc = pool_start(&s->fast, CZ_RPC_HANDLERS, 0);
    if (rc == CZ_OK && (rc = pool_start(&s->slow, 1, CZ_RPC_SLOW_QUEUE)) != CZ_OK)
        pool_stop(&s->slow);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "rpc: cannot start the handler threads");
        pool_stop(&s->fast);
        destroy_unstarted(s);
        return rc;
    }
    grpc_server_start(s->server);
    for (int i = 0; i < PENDING_REQUESTS; i++)
        post_request(s);
    if (pthread_create(&s->poller, NULL, poller, s) == 0)
        s->poller_started = true;
    *out = s;
    return CZ_OK;
}

int cz_rpc_server_port(const cz_rpc_server *s, size_t i)
{
    return i < s->n_addrs ? s->ports[i] : 0;
}

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

/* Waits until cond holds or the deadline (CLOCK_REALTIME; NULL: none). */
static bool wait_until(cz_rpc_server *s, bool (*cond)(cz_rpc_server *), const struct timespec *dl)
{
    pthread_mutex_lock(&s->mu);
    while (!cond(s)) {
        if (dl == NULL)
            pthread_cond_wait(&s->cv, &s->mu);
        else if (pthread_cond_timedwait(&s->cv, &s->mu, dl) != 0)
            break;
    }
    bool ok = cond(s);
    pthread_mutex_unlock(&s->mu);
    return ok;
}

static bool idle(cz_rpc_server *s) { return s->active == 0; }
static bool down(cz_rpc_server *s) { return s->shutdown_done; }

unsigned cz_rpc_server_stop(cz_rpc_server *s, int64_t grace_ms)
{
    if (s == NULL)
        return 0;
    pthread_mutex_lock(&s->mu);
    s->stopping = true;
    pthread_mutex_unlock(&s->mu);
    grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag); /* no new calls */
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
    if (!wait_until(s, idle, &dl))
        grpc_server_cancel_all_calls(s->server);
    wait_until(s, idle, NULL);
    wait_until(s, down, NULL);
    grpc_server_destroy(s->server);
    pool_stop(&s->fast);
    pool_stop(&s->slow);
    grpc_completion_queue_shutdown(s->cq);
    if (s->poller_started)
        pthread_join(s->poller, NULL);
    grpc_completion_queue_destroy(s->cq);
    for (size_t i = 0; i < s->n_unix; i++)
        unlink(s->unix_paths[i]);
    grpc_shutdown();
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return cancelled;
}
