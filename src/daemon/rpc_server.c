/* cuzk.v1.ProvingEngine on gRPC's core C API (see rpc.h).
 *
 * One poller thread drives a completion queue.  Each call goes through
 *   NEW   grpc_server_request_call completed: post the next request, then
 *         receive the request message;
 *   RECV  the message is in: a handler thread decodes it (protobuf-c), runs
 *         the RPC against the engine (AwaitProof and Prove block there),
 *         and posts the reply (initial metadata, message, status, close);
 *   SENT  the reply is out: the call is released.
 * Handlers run on their own detached threads so a long AwaitProof never
 * holds up other calls.  Replies are handed to gRPC without a second copy
 * (the packed buffer becomes the slice). */
#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/rpc.h"

#define MAX_ADDRS        8
#define PENDING_REQUESTS 8

typedef enum { T_NEW, T_RECV, T_SENT, T_SHUTDOWN } tag_kind;

typedef struct rpc_call {
    tag_kind kind;
    struct cz_rpc_server *s;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *req, *resp;
    int cancelled;
    grpc_slice status_details;
} rpc_call;

struct cz_rpc_server {
    grpc_server *server;
    grpc_completion_queue *cq;
    pthread_t poller;
    bool poller_started;
    cz_rpc_ctx ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned active;   /* calls between NEW and SENT */
    unsigned handlers; /* handler threads running */
    bool stopping, shutdown_done;
    rpc_call shutdown_tag;
    int ports[MAX_ADDRS];
    size_t n_addrs;
    char unix_paths[MAX_ADDRS][108];
    size_t n_unix;
};

/* ------------------------------------------------------------ calls --- */

static int post_request(cz_rpc_server *s)
{
    rpc_call *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CZ_ERR_NOMEM;
    c->kind = T_NEW;
    c->s = s;
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq, c) !=
        GRPC_CALL_OK) {
        grpc_call_details_destroy(&c->details);
        grpc_metadata_array_destroy(&c->md);
        free(c);
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

static void call_free(rpc_call *c)
{
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
}

/* Posts the reply: message (may be NULL for an error) and status. */
static void reply(rpc_call *c, void *packed, size_t len, int code, const char *details)
{
    grpc_op ops[4];
    size_t n = 0;
    memset(ops, 0, sizeof ops);
    ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
    n++;
    if (packed != NULL && code == CZ_RPC_OK) {
        grpc_slice sl = grpc_slice_new(packed, len, free);
        c->resp = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->resp;
        n++;
    } else {
        free(packed);
    }
    c->status_details = grpc_slice_from_copied_string(details ? details : "");
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)code;
    ops[n].data.send_status_from_server.status_details = &c->status_details;
    n++;
    ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[n].data.recv_close_on_server.cancelled = &c->cancelled;
    n++;
    c->kind = T_SENT;
    if (grpc_call_start_batch(c->call, ops, n, c, NULL) != GRPC_CALL_OK) {
        /* cannot happen for a well-formed batch; release the call here */
        cz_rpc_server *s = c->s;
        call_free(c);
        pthread_mutex_lock(&s->mu);
        s->active--;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
    }
}

/* Packs a response message into a malloc'd buffer for reply(). */
static void reply_msg(rpc_call *c, const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL) {
        reply(c, NULL, 0, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    protobuf_c_message_pack(m, buf);
    reply(c, buf, len, CZ_RPC_OK, NULL);
}

/* ---------------------------------------------------------- handlers --- */

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int rpc_code_of(int rc)
{
    switch (rc) {
    case CZ_OK:
        return CZ_RPC_OK;
    case CZ_ERR_NOT_FOUND:
        return CZ_RPC_NOT_FOUND;
    case CZ_ERR_INVALID_ARG:
    case CZ_ERR_BAD_FORMAT:
    case CZ_ERR_NOT_CANONICAL:
    case CZ_ERR_BAD_LENGTH:
        return CZ_RPC_INVALID_ARGUMENT;
    case CZ_ERR_NOMEM:
    case CZ_ERR_TOO_BIG:
        return CZ_RPC_RESOURCE_EXHAUSTED;
    case CZ_ERR_BUSY:
        return CZ_RPC_FAILED_PRECONDITION;
    case CZ_ERR_SHUTDOWN:
        return CZ_RPC_UNAVAILABLE;
    case CZ_ERR_UNSUPPORTED:
        return CZ_RPC_UNIMPLEMENTED;
    default:
        return CZ_RPC_INTERNAL;
    }
}

static cz_priority prio_of(Cuzk__V1__Priority p)
{
    switch (p) {
    case CUZK__V1__PRIORITY__LOW:
        return CZ_PRIO_LOW;
    case CUZK__V1__PRIORITY__HIGH:
        return CZ_PRIO_HIGH;
    case CUZK__V1__PRIORITY__CRITICAL:
        return CZ_PRIO_CRITICAL;
    default:
        return CZ_PRIO_NORMAL;
    }
}

static const char *kind_name(int k)
{
    switch (k) {
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
        return "POREP_SEAL_COMMIT";
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE:
        return "SNAP_DEALS_UPDATE";
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION:
        return "WINDOW_POST_PARTITION";
    case CUZK__V1__PROOF_KIND__WINNING_POST:
        return "WINNING_POST";
    default:
        return NULL;
    }
}

/* Submits the request's job; on success id holds its id. */
static int submit(cz_rpc_server *s, const Cuzk__V1__SubmitProofRequest *r, char id[CZ_JOB_ID_MAX],
                  int *code, char *msg, size_t msglen)
{
    cz_job_request jr = {.priority = prio_of(r->priority)};
    if (r->request_id && r->request_id[0])
        jr.id = r->request_id;
    cz_job_synthetic syn;
    cz_job_groth16 g;
    cz_fr *w = NULL;
    if (r->proof_kind == CUZK__V1__PROOF_KIND__SYNTHETIC) {
        memset(&syn, 0, sizeof syn);
        syn.circuit.log_rows = r->synthetic_log_rows;
        syn.circuit.n_public = r->synthetic_public;
        syn.circuit.seed = r->synthetic_seed;
        syn.partitions = r->partitions ? r->partitions : 1;
        jr.kind = CZ_KIND_SYNTHETIC;
        jr.input = &syn;
    } else if (r->proof_kind == CUZK__V1__PROOF_KIND__GROTH16_GENERIC) {
        uint32_t parts = r->partitions ? r->partitions : 1;
        size_t len = r->witness.len;
        if (len == 0 || len % ((size_t)32 * parts) != 0) {
            *code = CZ_RPC_INVALID_ARGUMENT;
            cz_msgf(msg, msglen, "witness: %zu bytes is not %u partitions of 32-byte values", len,
                    parts);
            return CZ_ERR_INVALID_ARG;
        }
        size_t n = len / 32;
        w = malloc(n * sizeof(cz_fr));
        if (w == NULL) {
            *code = CZ_RPC_RESOURCE_EXHAUSTED;
            cz_msgf(msg, msglen, "out of memory for the witness");
            return CZ_ERR_NOMEM;
        }
        for (size_t i = 0; i < n; i++) {
            if (cz_fr_from_bytes_le(&w[i], r->witness.data + 32 * i) != CZ_OK) {
                free(w);
                *code = CZ_RPC_INVALID_ARGUMENT;
                cz_msgf(msg, msglen, "witness: value %zu is not below the scalar field modulus", i);
                return CZ_ERR_NOT_CANONICAL;
            }
        }
        g = (cz_job_groth16){
            .circuit = r->circuit_id, .w = w, .n_w = n / parts, .partitions = parts};
        jr.kind = CZ_KIND_GROTH16;
        jr.input = &g;
    } else {
        const char *kn = kind_name(r->proof_kind);
        *code = kn ? CZ_RPC_UNIMPLEMENTED : CZ_RPC_INVALID_ARGUMENT;
        if (kn)
            cz_msgf(msg, msglen, "proof kind %s is not supported by this build yet", kn);
        else
            cz_msgf(msg, msglen, "unknown proof kind %d", (int)r->proof_kind);
        return kn ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
    }
    int rc = cz_engine_submit(s->ctx.engine, &jr, id, NULL, msg, msglen);
    free(w);
    *code = rpc_code_of(rc);
    return rc;
}

/* Fills an AwaitProofResponse from an engine result (proof copied). */
static void fill_await(Cuzk__V1__AwaitProofResponse *a, const char *id, int rc,
                       const cz_job_result *res, uint8_t **proof_buf)
{
    a->job_id = (char *)id;
    *proof_buf = NULL;
    if (rc == CZ_ERR_TIMEOUT) {
        a->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
    } else {
        switch (res->state) {
        case CZ_JOB_COMPLETED:
            a->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
            break;
        case CZ_JOB_FAILED:
            a->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
            break;
        case CZ_JOB_CANCELLED:
            a->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
            break;
        default:
            a->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
        }
    }
    a->error_message = (char *)res->message;
    if (res->proofs) {
        a->proof.data = res->proofs;
        a->proof.len = (size_t)res->partitions * CZ_GROTH16_PROOF_BYTES;
    }
    a->queue_wait_ms = (uint64_t)res->queue_ms;
    a->synthesis_ms = (uint64_t)res->synth_ms;
    a->gpu_compute_ms = (uint64_t)res->prove_ms;
    a->total_ms = (uint64_t)res->total_ms;
}

static void do_await(rpc_call *c, const char *id, uint64_t timeout_ms, bool wrap)
{
    cz_job_result res;
    memset(&res, 0, sizeof res);
    int64_t t = timeout_ms == 0              ? -1
                : timeout_ms > INT64_MAX / 2 ? INT64_MAX / 2
                                             : (int64_t)timeout_ms;
    int rc = cz_engine_await(c->s->ctx.engine, id, t, &res);
    if (rc != CZ_OK && rc != CZ_ERR_TIMEOUT) {
        char m[160];
        cz_msgf(m, sizeof m, rc == CZ_ERR_NOT_FOUND ? "job %s not found" : "job %s: %s", id,
                cz_strerror(rc));
        reply(c, NULL, 0, rpc_code_of(rc), m);
        return;
    }
    Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    uint8_t *pb;
    fill_await(&a, id, rc, &res, &pb);
    if (wrap) {
        Cuzk__V1__ProveResponse p = CUZK__V1__PROVE_RESPONSE__INIT;
        p.result = &a;
        reply_msg(c, &p.base);
    } else {
        reply_msg(c, &a.base);
    }
    cz_job_result_free(&res);
}

static void rpc_submit(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__SubmitProofRequest *r = cuzk__v1__submit_proof_request__unpack(NULL, n, d);
    if (r == NULL) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, "malformed SubmitProofRequest");
        return;
    }
    char id[CZ_JOB_ID_MAX], msg[256] = "";
    int code;
    if (submit(c->s, r, id, &code, msg, sizeof msg) != CZ_OK) {
        reply(c, NULL, 0, code, msg);
    } else {
        cz_engine_status st;
        cz_engine_status_get(c->s->ctx.engine, &st);
        Cuzk__V1__SubmitProofResponse o = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        o.job_id = id;
        o.queue_position = st.jobs_queued;
        o.assigned_gpu = "";
        reply_msg(c, &o.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

static void rpc_await(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__AwaitProofRequest *r = cuzk__v1__await_proof_request__unpack(NULL, n, d);
    if (r == NULL || r->job_id == NULL || !r->job_id[0]) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, r ? "job_id is empty" : "malformed request");
    } else {
        do_await(c, r->job_id, r->timeout_ms, false);
    }
    if (r)
        cuzk__v1__await_proof_request__free_unpacked(r, NULL);
}

static void rpc_prove(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__ProveRequest *r = cuzk__v1__prove_request__unpack(NULL, n, d);
    if (r == NULL || r->submit == NULL) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT,
              r ? "ProveRequest without submit" : "malformed ProveRequest");
        if (r)
            cuzk__v1__prove_request__free_unpacked(r, NULL);
        return;
    }
    char id[CZ_JOB_ID_MAX], msg[256] = "";
    int code;
    if (submit(c->s, r->submit, id, &code, msg, sizeof msg) != CZ_OK)
        reply(c, NULL, 0, code, msg);
    else
        do_await(c, id, 0, true);
    cuzk__v1__prove_request__free_unpacked(r, NULL);
}

static void rpc_cancel(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__CancelProofRequest *r = cuzk__v1__cancel_proof_request__unpack(NULL, n, d);
    if (r == NULL || r->job_id == NULL || !r->job_id[0]) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, r ? "job_id is empty" : "malformed request");
    } else {
        cz_job_result st;
        int rc = cz_engine_job_status(c->s->ctx.engine, r->job_id, &st);
        if (rc == CZ_OK)
            rc = cz_engine_cancel(c->s->ctx.engine, r->job_id);
        if (rc != CZ_OK) {
            char m[160];
            cz_msgf(m, sizeof m, "job %s not found", r->job_id);
            reply(c, NULL, 0, rpc_code_of(rc), m);
        } else {
            Cuzk__V1__CancelProofResponse o = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
            o.was_running = st.state == CZ_JOB_RUNNING;
            reply_msg(c, &o.base);
        }
    }
    if (r)
        cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
}

static void rpc_status(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__GetStatusRequest *r = cuzk__v1__get_status_request__unpack(NULL, n, d);
    if (r == NULL) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, "malformed GetStatusRequest");
        return;
    }
    cuzk__v1__get_status_request__free_unpacked(r, NULL);
    cz_engine *e = c->s->ctx.engine;
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    Cuzk__V1__GetStatusResponse o = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    enum { MAXC = 64 };
    cz_engine_circuit_info ci[MAXC];
    size_t nc = cz_engine_circuits(e, ci, MAXC);
    if (nc > MAXC)
        nc = MAXC;
    Cuzk__V1__SRSStatus srs[MAXC], *srsp[MAXC];
    for (size_t i = 0; i < nc; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = ci[i].id;
        srs[i].tier =
            ci[i].loading ? CUZK__V1__SRSSTATUS__TIER__WARM : CUZK__V1__SRSSTATUS__TIER__HOT;
        srs[i].size_bytes = ci[i].bytes;
        srs[i].ref_count = ci[i].refs;
        srsp[i] = &srs[i];
    }
    o.n_loaded_srs = nc;
    o.loaded_srs = srsp;
    Cuzk__V1__QueueStatus q = CUZK__V1__QUEUE_STATUS__INIT, *qp = &q;
    q.proof_kind = "all";
    q.pending = st.jobs_queued;
    q.in_progress = st.jobs_running;
    o.n_queues = 1;
    o.queues = &qp;
    o.total_proofs_completed = st.jobs_completed;
    o.total_proofs_failed = st.jobs_failed;
    o.total_proofs_cancelled = st.jobs_cancelled;
    o.uptime_seconds = (uint64_t)(mono_s() - c->s->ctx.start_time);
    o.memory_budget_bytes = st.mem.total;
    o.memory_reserved_bytes = st.mem.reserved;
    o.memory_tracked_bytes = st.mem.allocated;
    o.rss_bytes = st.rss;
    o.untracked_rss_bytes = st.untracked;
    Cuzk__V1__BufferClassStatus bc[CZ_BUF__COUNT], *bcp[CZ_BUF__COUNT];
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        cuzk__v1__buffer_class_status__init(&bc[k]);
        bc[k].name = (char *)cz_buf_class_name((cz_buf_class)k);
        bc[k].live_count = st.mem.cls[k].live_count;
        bc[k].live_bytes = st.mem.cls[k].live_bytes;
        bc[k].high_water_bytes = st.mem.cls[k].high_water_bytes;
        bc[k].total_allocs = st.mem.cls[k].total_allocs;
        bc[k].total_frees = st.mem.cls[k].total_frees;
        bcp[k] = &bc[k];
    }
    o.n_buffer_classes = CZ_BUF__COUNT;
    o.buffer_classes = bcp;
    reply_msg(c, &o.base);
}

static void rpc_metrics(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__GetMetricsRequest *r = cuzk__v1__get_metrics_request__unpack(NULL, n, d);
    if (r == NULL) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, "malformed GetMetricsRequest");
        return;
    }
    cuzk__v1__get_metrics_request__free_unpacked(r, NULL);
    char *text = NULL;
    if (cz_metrics_text(c->s->ctx.engine, c->s->ctx.metrics, &text) != CZ_OK) {
        reply(c, NULL, 0, CZ_RPC_INTERNAL, "metrics unavailable");
        return;
    }
    Cuzk__V1__GetMetricsResponse o = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    o.prometheus_text = text;
    reply_msg(c, &o.base);
    free(text);
}

static void rpc_preload(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__PreloadSrsRequest *r = cuzk__v1__preload_srs_request__unpack(NULL, n, d);
    if (r == NULL || r->circuit_id == NULL || !r->circuit_id[0]) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, r ? "circuit_id is empty" : "malformed request");
    } else {
        bool already;
        char msg[256] = "";
        double t0 = mono_s();
        int rc = cz_engine_preload(c->s->ctx.engine, r->circuit_id, &already, msg, sizeof msg);
        if (rc != CZ_OK) {
            reply(c, NULL, 0, rpc_code_of(rc), msg[0] ? msg : cz_strerror(rc));
        } else {
            Cuzk__V1__PreloadSrsResponse o = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
            o.already_loaded = already;
            o.load_time_ms = (uint64_t)((mono_s() - t0) * 1e3);
            reply_msg(c, &o.base);
        }
    }
    if (r)
        cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
}

static void rpc_evict(rpc_call *c, const uint8_t *d, size_t n)
{
    Cuzk__V1__EvictSrsRequest *r = cuzk__v1__evict_srs_request__unpack(NULL, n, d);
    if (r == NULL || r->circuit_id == NULL || !r->circuit_id[0]) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, r ? "circuit_id is empty" : "malformed request");
    } else {
        uint64_t freed = 0;
        int rc = cz_engine_evict_ex(c->s->ctx.engine, r->circuit_id, &freed);
        if (rc == CZ_ERR_BUSY) {
            char m[200];
            cz_msgf(m, sizeof m, "circuit %s is in use by proofs in flight; not evicted",
                    r->circuit_id);
            reply(c, NULL, 0, CZ_RPC_FAILED_PRECONDITION, m);
        } else {
            /* not loaded is an answer, not an error (as cuzk's was_loaded) */
            Cuzk__V1__EvictSrsResponse o = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
            o.was_loaded = rc == CZ_OK;
            o.freed_bytes = freed;
            reply_msg(c, &o.base);
        }
    }
    if (r)
        cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
}

static const struct {
    const char *method;
    void (*fn)(rpc_call *, const uint8_t *, size_t);
} METHODS[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", rpc_submit},
    {"/cuzk.v1.ProvingEngine/AwaitProof", rpc_await},
    {"/cuzk.v1.ProvingEngine/Prove", rpc_prove},
    {"/cuzk.v1.ProvingEngine/CancelProof", rpc_cancel},
    {"/cuzk.v1.ProvingEngine/GetStatus", rpc_status},
    {"/cuzk.v1.ProvingEngine/GetMetrics", rpc_metrics},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", rpc_preload},
    {"/cuzk.v1.ProvingEngine/EvictSRS", rpc_evict},
};

static void *handler(void *arg)
{
    rpc_call *c = arg;
    cz_rpc_server *s = c->s;
    size_t i = 0, nm = sizeof METHODS / sizeof METHODS[0];
    while (i < nm && grpc_slice_str_cmp(c->details.method, METHODS[i].method) != 0)
        i++;
    if (i == nm) {
        char *m = grpc_slice_to_c_string(c->details.method);
        char msg[300];
        cz_msgf(msg, sizeof msg, "unknown method %s", m);
        gpr_free(m);
        reply(c, NULL, 0, CZ_RPC_UNIMPLEMENTED, msg);
    } else if (c->req == NULL) {
        reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, "no request message");
    } else {
        grpc_byte_buffer_reader rd;
        const grpc_byte_buffer *bb = c->req;
        if (bb->type == GRPC_BB_RAW && bb->data.raw.compression == GRPC_COMPRESS_NONE &&
            bb->data.raw.slice_buffer.count == 1) {
            /* one uncompressed slice: decode in place (a 50 MB C1 output is
             * then copied once, by protobuf-c, not twice) */
            grpc_slice one = bb->data.raw.slice_buffer.slices[0];
            METHODS[i].fn(c, GRPC_SLICE_START_PTR(one), GRPC_SLICE_LENGTH(one));
        } else if (!grpc_byte_buffer_reader_init(&rd, c->req)) {
            reply(c, NULL, 0, CZ_RPC_INVALID_ARGUMENT, "unreadable request message");
        } else {
            grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            METHODS[i].fn(c, GRPC_SLICE_START_PTR(all), GRPC_SLICE_LENGTH(all));
            grpc_slice_unref(all);
        }
    }
    pthread_mutex_lock(&s->mu);
    s->handlers--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ------------------------------------------------------------ poller --- */

static void *poller(void *arg)
{
    cz_rpc_server *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        rpc_call *c = ev.tag;
        switch (c->kind) {
        case T_SHUTDOWN:
            pthread_mutex_lock(&s->mu);
            s->shutdown_done = true;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            break;
        case T_NEW: {
            if (!ev.success) { /* the server is shutting down */
                call_free(c);
                break;
            }
            pthread_mutex_lock(&s->mu);
            s->active++;
            bool stopping = s->stopping;
            pthread_mutex_unlock(&s->mu);
            if (!stopping)
                post_request(s);
            grpc_op op;
            memset(&op, 0, sizeof op);
            op.op = GRPC_OP_RECV_MESSAGE;
            op.data.recv_message.recv_message = &c->req;
            c->kind = T_RECV;
            if (grpc_call_start_batch(c->call, &op, 1, c, NULL) != GRPC_CALL_OK)
                reply(c, NULL, 0, CZ_RPC_INTERNAL, "cannot receive the request");
            break;
        }
        case T_RECV: {
            pthread_t th;
            pthread_attr_t at;
            pthread_attr_init(&at);
            pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
            pthread_mutex_lock(&s->mu);
            s->handlers++;
            pthread_mutex_unlock(&s->mu);
            if (pthread_create(&th, &at, handler, c) != 0) {
                pthread_mutex_lock(&s->mu);
                s->handlers--;
                pthread_mutex_unlock(&s->mu);
                reply(c, NULL, 0, CZ_RPC_RESOURCE_EXHAUSTED, "cannot start a handler thread");
            }
            pthread_attr_destroy(&at);
            break;
        }
        case T_SENT:
            call_free(c);
            pthread_mutex_lock(&s->mu);
            s->active--;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
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

/* CZ_ERR_BUSY when a server answers on the socket; a stale file (nobody
 * listening) is removed. */
static int claim_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un sa;
    if (strlen(path) >= sizeof sa.sun_path) {
        cz_msgf(err, errlen, "unix socket path too long: %s", path);
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
    s->shutdown_tag.kind = T_SHUTDOWN;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    grpc_init();
    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_ALLOW_REUSEPORT;
    args[0].value.integer = 0;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[1].value.integer = (int)CZ_RPC_MAX_MESSAGE;
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[2].value.integer = (int)CZ_RPC_MAX_MESSAGE;
    grpc_channel_args ca = {3, args};
    s->server = grpc_server_create(&ca, NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    int rc = CZ_OK;
    for (size_t i = 0; i < n_addrs && rc == CZ_OK; i++) {
        const char *up = unix_path_of(addrs[i]);
        if (up) {
            rc = claim_unix(up, err, errlen);
            if (rc != CZ_OK)
                break;
        }
        grpc_server_credentials *cr = grpc_insecure_server_credentials_create();
        int port = grpc_server_add_http2_port(s->server, addrs[i], cr);
        grpc_server_credentials_release(cr);
        if (port == 0) {
            cz_msgf(err, errlen, "cannot listen on %s (in use, or a bad address)", addrs[i]);
            rc = CZ_ERR_BUSY;
            break;
        }
        s->ports[i] = up ? 0 : port;
        if (up)
            snprintf(s->unix_paths[s->n_unix++], sizeof s->unix_paths[0], "%s", up);
        s->n_addrs = i + 1;
    }
    if (rc != CZ_OK) {
        /* never started: destroy directly */
        s->n_unix = 0; /* the files are not ours */
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

/* Waits until cond holds or the deadline (CLOCK_REALTIME) passes. */
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

static bool idle(cz_rpc_server *s) { return s->active == 0 && s->handlers == 0; }
static bool down(cz_rpc_server *s) { return s->shutdown_done; }

void cz_rpc_server_stop(cz_rpc_server *s, int64_t grace_ms)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->mu);
    s->stopping = true;
    pthread_mutex_unlock(&s->mu);
    grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    int64_t g = grace_ms < 0 ? 0 : grace_ms;
    dl.tv_sec += g / 1000;
    dl.tv_nsec += (g % 1000) * 1000000;
    if (dl.tv_nsec >= 1000000000)
        dl.tv_sec++, dl.tv_nsec -= 1000000000;
    if (!wait_until(s, idle, &dl)) {
        /* out of grace: cancel the work, so awaiting calls answer now */
        cz_engine_cancel_all(s->ctx.engine);
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += 5;
        if (!wait_until(s, idle, &dl))
            grpc_server_cancel_all_calls(s->server);
        wait_until(s, idle, NULL);
    }
    wait_until(s, down, NULL);
    grpc_server_destroy(s->server);
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
}
