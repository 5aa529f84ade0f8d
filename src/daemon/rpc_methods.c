/* cuzk.v1.ProvingEngine's methods over the engine (see rpc.h).
 *
 * SubmitProof / Prove take the request through its proto kind's row
 * (PROTO_KINDS): the priority must be a Priority value (0: the kind's,
 * cz_job_kind_priority), the kind one of the table's, and every field the
 * kind does not use left unset, so a field this daemon would ignore is
 * refused by name rather than dropped; the engine checks the rest.
 * AwaitProof and Prove wait through an engine watch (no thread held);
 * Prove's job is cancelled when its client goes away
 * (cz_job_request.cancel_unwatched). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/rpc_internal.h"
#include "daemon/status_table.h"
#include "util/clock.h"

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
    case CZ_ERR_TRUNCATED:
        return CZ_RPC_INVALID_ARGUMENT;
    case CZ_ERR_NOMEM:
    case CZ_ERR_TOO_BIG:
    case CZ_ERR_LIMIT:
        return CZ_RPC_RESOURCE_EXHAUSTED;
    case CZ_ERR_BUSY:
    case CZ_ERR_AMBIGUOUS:
        return CZ_RPC_FAILED_PRECONDITION;
    case CZ_ERR_SHUTDOWN:
        return CZ_RPC_UNAVAILABLE;
    case CZ_ERR_UNSUPPORTED:
        return CZ_RPC_UNIMPLEMENTED;
    default:
        return CZ_RPC_INTERNAL;
    }
}

static cz_engine *engine_of(rpc_call *c) { return cz_rpc_call_ctx(c)->engine; }

/* --------------------------------------------------------- submission --- */

/* Is field f of message m set (non-default, as proto3 reads it)? */
static bool field_set(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f)
{
    const char *at = (const char *)m + f->offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED)
        return *(const size_t *)((const char *)m + f->quantifier_offset) > 0;
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *str = *(char *const *)at;
        return str != NULL && str[0] != 0;
    }
    case PROTOBUF_C_TYPE_BYTES:
        return ((const ProtobufCBinaryData *)at)->len > 0;
    case PROTOBUF_C_TYPE_MESSAGE:
        return *(void *const *)at != NULL;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return *(const uint64_t *)at != 0;
    case PROTOBUF_C_TYPE_BOOL:
        return *(const protobuf_c_boolean *)at != 0;
    default:
        return *(const uint32_t *)at != 0;
    }
}

/* Every set field of r must be among the kind's (a NULL-terminated list,
 * the common ones implied). */
static bool only_fields(const Cuzk__V1__SubmitProofRequest *r, const char *const *used,
                        const char *kind, char *msg, size_t msglen)
{
    static const char *const common[] = {"request_id", "proof_kind", "priority", NULL};
    const ProtobufCMessageDescriptor *d = r->base.descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        bool ok = !field_set(&r->base, f);
        for (const char *const *u = common; !ok && *u; u++)
            ok = !strcmp(*u, f->name);
        for (const char *const *u = used; !ok && *u; u++)
            ok = !strcmp(*u, f->name);
        if (!ok) {
            cz_msgf(msg, msglen, "field %s (%u) is not used by %s requests", f->name, f->id, kind);
            return false;
        }
    }
    return true;
}

/* A request's engine input, of the kind's type. */
typedef union {
    cz_job_porep porep;
    cz_job_snap snap;
    cz_job_post post;
    cz_job_groth16 g;
    cz_job_synthetic syn;
} job_input;

/* r's vanilla_proofs, as the engine takes them (NULL when none). */
typedef struct {
    const uint8_t **b;
    size_t *len;
} blobs;

static int porep_of(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u, char *msg,
                    size_t msglen)
{
    u->porep = (cz_job_porep){.registered_proof = r->registered_proof,
                              .sector_size = r->sector_size,
                              .sector_number = r->sector_number,
                              .miner_id = r->miner_id,
                              .c1 = r->vanilla_proof.data,
                              .c1_len = r->vanilla_proof.len};
    return CZ_OK;
}

static int snap_of(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u, char *msg,
                   size_t msglen)
{
    u->snap = (cz_job_snap){.registered_proof = r->registered_proof,
                            .sector_size = r->sector_size,
                            .sector_number = r->sector_number,
                            .miner_id = r->miner_id,
                            .vanilla = v->b,
                            .vanilla_len = v->len,
                            .n_vanilla = r->n_vanilla_proofs,
                            .comm_r_old = r->comm_r_old.data,
                            .comm_r_old_len = r->comm_r_old.len,
                            .comm_d_new = r->comm_d_new.data,
                            .comm_d_new_len = r->comm_d_new.len,
                            .comm_r_new = r->comm_r_new.data,
                            .comm_r_new_len = r->comm_r_new.len};
    return CZ_OK;
}

static int post_of(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u, char *msg,
                   size_t msglen)
{
    u->post = (cz_job_post){.registered_proof = r->registered_proof,
                            .sector_size = r->sector_size,
                            .miner_id = r->miner_id,
                            .randomness = r->randomness.data,
                            .randomness_len = r->randomness.len,
                            .partition_index = r->partition_index,
                            .vanilla = v->b,
                            .vanilla_len = v->len,
                            .n_vanilla = r->n_vanilla_proofs};
    return CZ_OK;
}

static int groth16_of(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u,
                      char *msg, size_t msglen)
{
    uint32_t parts = r->partitions ? r->partitions : 1;
    size_t len = r->witness.len;
    if (len == 0 || len % ((size_t)32 * parts) != 0)
        return cz_fail(msg, msglen, CZ_ERR_INVALID_ARG,
                       "witness: %zu bytes is not %u partitions of 32-byte values", len, parts);
    u->g = (cz_job_groth16){.circuit = r->circuit_id,
                            .w_le = r->witness.data,
                            .n_w = len / 32 / parts,
                            .partitions = parts};
    return CZ_OK;
}

static int synthetic_of(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u,
                        char *msg, size_t msglen)
{
    u->syn = (cz_job_synthetic){.circuit = {.log_rows = r->synthetic_log_rows,
                                            .n_public = r->synthetic_public,
                                            .seed = r->synthetic_seed},
                                .partitions = r->partitions ? r->partitions : 1};
    return CZ_OK;
}

/* One row per proto kind: the engine's kind, the request fields it reads
 * besides request_id, proof_kind and priority (any other set field is
 * refused by name rather than dropped), and its engine input from them. */
static const struct {
    Cuzk__V1__ProofKind proto;
    cz_job_kind kind;
    const char *fields[9];
    int (*input)(const Cuzk__V1__SubmitProofRequest *r, const blobs *v, job_input *u, char *msg,
                 size_t msglen);
} PROTO_KINDS[] = {
    /* as Curio sends it (lib/ffi/cuzk_funcs.go): the C1 in its wrapper (or
     * raw), the registered proof, sector number and miner id */
    {CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT,
     CZ_KIND_POREP,
     {"vanilla_proof", "registered_proof", "sector_size", "sector_number", "miner_id"},
     porep_of},
    /* as Curio sends it (tasks/snap ProveUpdateCuzk, the proof share
     * market): one vanilla PartitionProof per partition, the
     * RegisteredUpdateProof, the commitments (raw or as CIDs) */
    {CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE,
     CZ_KIND_SNAP,
     {"vanilla_proofs", "registered_proof", "sector_size", "sector_number", "miner_id",
      "comm_r_old", "comm_r_new", "comm_d_new"},
     snap_of},
    /* as Curio sends them (lib/ffi/cuzk_funcs.go WindowPoStCuzk,
     * WinningPoStCuzk): one FallbackPoStSectorProof per sector, the
     * RegisteredPoStProof, the miner, the randomness, Window's partition
     * index */
    {CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION,
     CZ_KIND_WINDOW_POST,
     {"vanilla_proofs", "registered_proof", "sector_size", "miner_id", "randomness",
      "partition_index"},
     post_of},
    {CUZK__V1__PROOF_KIND__WINNING_POST,
     CZ_KIND_WINNING_POST,
     {"vanilla_proofs", "registered_proof", "sector_size", "miner_id", "randomness"},
     post_of},
    {CUZK__V1__PROOF_KIND__GROTH16_GENERIC,
     CZ_KIND_GROTH16,
     {"circuit_id", "witness", "partitions"},
     groth16_of},
    {CUZK__V1__PROOF_KIND__SYNTHETIC,
     CZ_KIND_SYNTHETIC,
     {"partitions", "synthetic_log_rows", "synthetic_public", "synthetic_seed"},
     synthetic_of},
};

/* Submits r's job (cancel_unwatched for Prove); on success id holds its
 * id.  Otherwise *code and msg say why. */
static int submit(rpc_call *c, const Cuzk__V1__SubmitProofRequest *r, bool sync,
                  char id[CZ_JOB_ID_MAX], int *code, char *msg, size_t msglen)
{
    static const cz_priority prio[] = {CZ_PRIO_LOW, CZ_PRIO_NORMAL, CZ_PRIO_HIGH, CZ_PRIO_CRITICAL};
    *code = CZ_RPC_INVALID_ARGUMENT;
    if ((unsigned)r->priority > CUZK__V1__PRIORITY__CRITICAL)
        return cz_fail(msg, msglen, CZ_ERR_INVALID_ARG,
                       "priority %d is not a Priority: 1 LOW, 2 NORMAL, 3 HIGH, 4 CRITICAL (0: "
                       "the kind's default, HIGH for WindowPoSt, CRITICAL for WinningPoSt, else "
                       "NORMAL)",
                       (int)r->priority);
    size_t k = 0, n_kinds = sizeof PROTO_KINDS / sizeof PROTO_KINDS[0];
    while (k < n_kinds && PROTO_KINDS[k].proto != r->proof_kind)
        k++;
    if (k == n_kinds)
        return cz_fail(msg, msglen, CZ_ERR_INVALID_ARG, "unknown proof kind %d",
                       (int)r->proof_kind);
    const char *kn =
        protobuf_c_enum_descriptor_get_value(&cuzk__v1__proof_kind__descriptor, r->proof_kind)
            ->name;
    if (!only_fields(r, PROTO_KINDS[k].fields, kn, msg, msglen))
        return CZ_ERR_INVALID_ARG;
    size_t n = r->n_vanilla_proofs;
    blobs v = {NULL, NULL};
    if (n > 0 && (!(v.b = malloc(n * sizeof *v.b)) || !(v.len = malloc(n * sizeof *v.len)))) {
        free(v.b);
        *code = CZ_RPC_RESOURCE_EXHAUSTED;
        return cz_fail(msg, msglen, CZ_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        v.b[i] = r->vanilla_proofs[i].data;
        v.len[i] = r->vanilla_proofs[i].len;
    }
    job_input u;
    int rc = PROTO_KINDS[k].input(r, &v, &u, msg, msglen);
    if (rc == CZ_OK) {
        /* the engine checks the rest, the request_id among them */
        cz_job_kind kind = PROTO_KINDS[k].kind;
        cz_job_request jr = {.id = r->request_id && r->request_id[0] ? r->request_id : NULL,
                             .priority =
                                 r->priority ? prio[r->priority - 1] : cz_job_kind_priority(kind),
                             .kind = kind,
                             .input = &u,
                             .cancel_unwatched = sync};
        rc = cz_engine_submit(engine_of(c), &jr, id, NULL, msg, msglen);
        *code = rpc_code_of(rc);
    }
    free(v.b);
    free(v.len);
    return rc;
}

/* ------------------------------------------------------------- awaits --- */

static Cuzk__V1__AwaitProofResponse__Status status_of(int rc, cz_job_state s)
{
    if (rc == CZ_ERR_TIMEOUT)
        return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
    switch (s) {
    case CZ_JOB_COMPLETED:
        return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    case CZ_JOB_FAILED:
        return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    case CZ_JOB_CANCELLED:
        return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
    default:
        return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
    }
}

/* The answer to an AwaitProof or Prove from the job's result. */
static void answer_result(rpc_call *c, const char *id, int rc, const cz_job_result *res, bool wrap)
{
    if (rc == CZ_OK && res->state == CZ_JOB_COMPLETED && res->proofs == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED,
                            "out of memory copying the proof: AwaitProof again");
        return;
    }
    Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    a.job_id = (char *)id;
    a.status = status_of(rc, res->state);
    a.error_message = (char *)res->message;
    if (rc == CZ_OK && res->proofs) {
        a.proof.data = res->proofs;
        a.proof.len = (size_t)res->partitions * CZ_GROTH16_PROOF_BYTES;
    }
    a.queue_wait_ms = (uint64_t)res->queue_ms;
    a.synthesis_ms = (uint64_t)res->synth_ms;
    a.srs_load_ms = (uint64_t)res->load_ms;
    a.gpu_compute_ms = (uint64_t)res->prove_ms;
    a.total_ms = (uint64_t)res->total_ms;
    if (wrap) {
        Cuzk__V1__ProveResponse p = CUZK__V1__PROVE_RESPONSE__INIT;
        p.result = &a;
        cz_rpc_reply_msg(c, &p.base);
    } else {
        cz_rpc_reply_msg(c, &a.base);
    }
}

/* An await's state, kept in the call's scratch space for the watch's life
 * (the request is gone by then). */
typedef struct {
    char id[CZ_JOB_ID_MAX];
    bool wrap;
} await_ctx;

_Static_assert(sizeof(await_ctx) <= CZ_RPC_SCRATCH, "await_ctx must fit a call's scratch");

static void awaited(void *arg, int rc, const cz_job_result *res)
{
    rpc_call *c = arg;
    const await_ctx *a = cz_rpc_call_scratch(c);
    answer_result(c, a->id, rc, res, a->wrap);
}

/* Awaits the job id names (a handle, or a label naming one job): by its
 * handle from here on, which the answer carries. */
static void start_await(rpc_call *c, const char *id, uint64_t timeout_ms, bool wrap)
{
    await_ctx *a = cz_rpc_call_scratch(c);
    char m[400];
    int rc = cz_engine_resolve(engine_of(c), id, a->id, m, sizeof m);
    if (rc != CZ_OK) {
        cz_rpc_reply_status(c, rpc_code_of(rc), m);
        return;
    }
    a->wrap = wrap;
    int64_t t = timeout_ms == 0              ? -1
                : timeout_ms > INT64_MAX / 2 ? INT64_MAX / 2
                                             : (int64_t)timeout_ms;
    rc = cz_rpc_watch(c, a->id, t, awaited);
    if (rc != CZ_OK) {
        cz_msgf(m, sizeof m, rc == CZ_ERR_NOT_FOUND ? "job %s not found" : "job %s: %s", id,
                rc == CZ_ERR_LIMIT ? "too many calls await jobs now: retry later"
                                   : cz_strerror(rc));
        cz_rpc_reply_status(c, rpc_code_of(rc), m);
    }
}

/* An id argument: 1..CZ_JOB_ID_MAX-1 bytes (the scan checked UTF-8). */
static bool id_arg(rpc_call *c, const char *field, const char *v)
{
    char m[120];
    if (v == NULL || !v[0] || strlen(v) >= CZ_JOB_ID_MAX) {
        cz_msgf(m, sizeof m, "%s must have 1 to %d bytes", field, CZ_JOB_ID_MAX - 1);
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, m);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ methods --- */

static void rpc_submit(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__SubmitProofRequest *r = (const void *)req;
    char id[CZ_JOB_ID_MAX], msg[300] = "";
    int code;
    if (submit(c, r, false, id, &code, msg, sizeof msg) != CZ_OK) {
        cz_rpc_reply_status(c, code, msg);
        return;
    }
    cz_engine_status st;
    cz_engine_status_get(engine_of(c), &st);
    Cuzk__V1__SubmitProofResponse o = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    o.job_id = id;
    o.queue_position = st.jobs_queued;
    o.assigned_gpu = "";
    cz_rpc_reply_msg(c, &o.base);
}

static void rpc_prove(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__ProveRequest *r = (const void *)req;
    if (r->submit == NULL) {
        cz_rpc_reply_status(c, CZ_RPC_INVALID_ARGUMENT, "ProveRequest.submit is missing");
        return;
    }
    char id[CZ_JOB_ID_MAX], msg[300] = "";
    int code;
    if (submit(c, r->submit, true, id, &code, msg, sizeof msg) != CZ_OK) {
        cz_rpc_reply_status(c, code, msg);
        return;
    }
    start_await(c, id, 0, true);
}

static void rpc_await(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__AwaitProofRequest *r = (const void *)req;
    if (id_arg(c, "job_id", r->job_id))
        start_await(c, r->job_id, r->timeout_ms, false);
}

static void rpc_cancel(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__CancelProofRequest *r = (const void *)req;
    if (!id_arg(c, "job_id", r->job_id))
        return;
    char handle[CZ_JOB_ID_MAX], m[400];
    cz_job_result st;
    int rc = cz_engine_resolve(engine_of(c), r->job_id, handle, m, sizeof m);
    if (rc == CZ_OK)
        rc = cz_engine_job_status(engine_of(c), handle, &st);
    if (rc == CZ_OK)
        rc = cz_engine_cancel(engine_of(c), handle);
    if (rc != CZ_OK) {
        if (rc == CZ_ERR_NOT_FOUND)
            cz_msgf(m, sizeof m, "job %s not found", r->job_id);
        cz_rpc_reply_status(c, rpc_code_of(rc), m);
        return;
    }
    Cuzk__V1__CancelProofResponse o = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    o.was_running = st.state == CZ_JOB_RUNNING;
    cz_rpc_reply_msg(c, &o.base);
}

/* Sets the fields of m that the rows of sec name (cz_status_field.proto)
 * to their figures in obj (a struct of sec). */
static void proto_fill(ProtobufCMessage *m, const cz_status_section *sec, const void *obj)
{
    for (size_t i = 0; i < sec->n; i++) {
        const cz_status_field *f = &sec->fields[i];
        if (f->proto == NULL)
            continue;
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field_by_name(m->descriptor, f->proto);
        assert(fd != NULL &&
               (fd->type == PROTOBUF_C_TYPE_UINT32 || fd->type == PROTOBUF_C_TYPE_UINT64));
        char *at = (char *)m + fd->offset;
        uint64_t v = cz_status_u64(f, obj);
        if (fd->type == PROTOBUF_C_TYPE_UINT32) {
            uint32_t v32 = (uint32_t)v;
            memcpy(at, &v32, sizeof v32);
        } else {
            memcpy(at, &v, sizeof v);
        }
    }
}

/* GetStatus: loaded_srs lists every cached circuit (HOT, or WARM while it
 * loads); queues has one entry per kind the engine accepts, pending its
 * queued jobs and in_progress its running ones (Curio adds both up over
 * every entry for its backpressure, so no job is in two). */
static void rpc_status(rpc_call *c, const ProtobufCMessage *req)
{
    (void)req;
    const cz_rpc_ctx *ctx = cz_rpc_call_ctx(c);
    cz_engine *e = ctx->engine;
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    Cuzk__V1__GetStatusResponse o = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    /* every circuit: count, then copy (again if the cache grew meanwhile) */
    cz_engine_circuit_info *ci = NULL;
    size_t cap = 0, nc;
    while ((nc = cz_engine_circuits(e, ci, cap)) > cap) {
        free(ci);
        cap = nc + 8;
        ci = malloc(cap * sizeof *ci);
        if (ci == NULL) {
            cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory");
            return;
        }
    }
    Cuzk__V1__SRSStatus *srs = malloc((nc ? nc : 1) * sizeof *srs);
    Cuzk__V1__SRSStatus **srsp = malloc((nc ? nc : 1) * sizeof *srsp);
    /* each circuit's plans, at most one per device */
    size_t np = (nc ? nc : 1) * CZ_ENGINE_MAX_DEVICES;
    cz_engine_plan *pl = malloc(np * sizeof *pl);
    Cuzk__V1__DevicePlan *dp = malloc(np * sizeof *dp);
    Cuzk__V1__DevicePlan **dpp = malloc(np * sizeof *dpp);
    if (srs == NULL || srsp == NULL || pl == NULL || dp == NULL || dpp == NULL) {
        free(ci);
        free(srs);
        free(srsp);
        free(pl);
        free(dp);
        free(dpp);
        cz_rpc_reply_status(c, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    for (size_t i = 0; i < nc; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = ci[i].id;
        srs[i].tier =
            ci[i].loading ? CUZK__V1__SRSSTATUS__TIER__WARM : CUZK__V1__SRSSTATUS__TIER__HOT;
        proto_fill(&srs[i].base, &cz_status_circuit, &ci[i]);
        size_t base = i * CZ_ENGINE_MAX_DEVICES;
        size_t n = cz_engine_circuit_plans(e, ci[i].id, pl + base, CZ_ENGINE_MAX_DEVICES);
        if (n > CZ_ENGINE_MAX_DEVICES)
            n = CZ_ENGINE_MAX_DEVICES;
        for (size_t j = 0; j < n; j++) {
            Cuzk__V1__DevicePlan *d = &dp[base + j];
            cuzk__v1__device_plan__init(d);
            d->ordinal = (uint32_t)pl[base + j].ordinal;
            proto_fill(&d->base, &cz_status_plan, &pl[base + j]);
            d->plan = pl[base + j].text;
            dpp[base + j] = d;
        }
        srs[i].n_device_plans = n;
        srs[i].device_plans = n ? dpp + base : NULL;
        srsp[i] = &srs[i];
    }
    o.n_loaded_srs = nc;
    o.loaded_srs = srsp;
    Cuzk__V1__QueueStatus q[CZ_JOB_KINDS], *qp[CZ_JOB_KINDS];
    size_t nq = 0;
    for (int k = 0; k < CZ_JOB_KINDS; k++) {
        const cz_engine_kind_status *ks = &st.kinds[k];
        if (!ks->enabled)
            continue;
        cuzk__v1__queue_status__init(&q[nq]);
        q[nq].proof_kind = (char *)cz_job_kind_queue(ks->kind);
        proto_fill(&q[nq].base, &cz_status_kind, ks);
        qp[nq] = &q[nq];
        nq++;
    }
    o.n_queues = nq;
    o.queues = qp;
    proto_fill(&o.base, &cz_status_jobs, &st);
    proto_fill(&o.base, &cz_status_account, &st.mem);
    proto_fill(&o.base, &cz_status_memory, &st);
    o.uptime_seconds = (uint64_t)(cz_clock_s(CLOCK_MONOTONIC) - ctx->start_time);
    Cuzk__V1__BufferClassStatus bc[CZ_BUF__COUNT], *bcp[CZ_BUF__COUNT];
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        cuzk__v1__buffer_class_status__init(&bc[k]);
        bc[k].name = (char *)cz_buf_class_name((cz_buf_class)k);
        proto_fill(&bc[k].base, &cz_status_class, &st.mem.cls[k]);
        bcp[k] = &bc[k];
    }
    o.n_buffer_classes = CZ_BUF__COUNT;
    o.buffer_classes = bcp;
    /* the GPUs (none on the CPU back end) */
    Cuzk__V1__GPUStatus gs[CZ_ENGINE_MAX_DEVICES], *gsp[CZ_ENGINE_MAX_DEVICES];
    size_t ng = 0;
    for (unsigned d = 0; d < st.n_devices; d++) {
        const cz_engine_device_info *di = &st.devices[d].info;
        if (!di->gpu)
            continue;
        cuzk__v1__gpustatus__init(&gs[ng]);
        gs[ng].ordinal = (uint32_t)di->ordinal;
        gs[ng].name = (char *)di->name;
        proto_fill(&gs[ng].base, &cz_status_vram, &st.devices[d]);
        /* the client's label where it gave one (the Rust cuzk's job id is
         * the request_id), else the handle */
        gs[ng].current_job_id =
            st.devices[d].busy_label[0] ? st.devices[d].busy_label : st.devices[d].busy_job;
        gs[ng].current_proof_kind =
            st.devices[d].busy_job[0] ? (char *)cz_job_kind_queue(st.devices[d].busy_kind) : "";
        gsp[ng] = &gs[ng];
        ng++;
    }
    o.n_gpus = ng;
    o.gpus = gsp;
    cz_rpc_reply_msg(c, &o.base);
    free(dpp);
    free(dp);
    free(pl);
    free(srsp);
    free(srs);
    free(ci);
}

static void rpc_metrics(rpc_call *c, const ProtobufCMessage *req)
{
    (void)req;
    const cz_rpc_ctx *ctx = cz_rpc_call_ctx(c);
    char *text = NULL;
    if (cz_metrics_text(ctx->engine, ctx->metrics, &text) != CZ_OK) {
        cz_rpc_reply_status(c, CZ_RPC_INTERNAL, "metrics unavailable");
        return;
    }
    Cuzk__V1__GetMetricsResponse o = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    o.prometheus_text = text;
    cz_rpc_reply_msg(c, &o.base);
    free(text);
}

static void rpc_preload(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__PreloadSrsRequest *r = (const void *)req;
    if (!id_arg(c, "circuit_id", r->circuit_id))
        return;
    bool already;
    char msg[300] = "";
    double t0 = cz_clock_s(CLOCK_MONOTONIC);
    int rc = cz_engine_preload(engine_of(c), r->circuit_id, &already, msg, sizeof msg);
    if (rc != CZ_OK) {
        cz_rpc_reply_status(c, rpc_code_of(rc), msg[0] ? msg : cz_strerror(rc));
        return;
    }
    Cuzk__V1__PreloadSrsResponse o = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    o.already_loaded = already;
    o.load_time_ms = (uint64_t)((cz_clock_s(CLOCK_MONOTONIC) - t0) * 1e3);
    cz_rpc_reply_msg(c, &o.base);
}

static void rpc_evict(rpc_call *c, const ProtobufCMessage *req)
{
    const Cuzk__V1__EvictSrsRequest *r = (const void *)req;
    if (!id_arg(c, "circuit_id", r->circuit_id))
        return;
    uint64_t freed = 0;
    int rc = cz_engine_evict_ex(engine_of(c), r->circuit_id, &freed);
    if (rc == CZ_ERR_BUSY) {
        char m[CZ_JOB_ID_MAX + 80];
        cz_msgf(m, sizeof m, "circuit %s is in use by proofs in flight; not evicted",
                r->circuit_id);
        cz_rpc_reply_status(c, CZ_RPC_FAILED_PRECONDITION, m);
        return;
    }
    /* not loaded is an answer, not an error (as cuzk's was_loaded) */
    Cuzk__V1__EvictSrsResponse o = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    o.was_loaded = rc == CZ_OK;
    o.freed_bytes = freed;
    cz_rpc_reply_msg(c, &o.base);
}

const cz_rpc_method cz_rpc_methods[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", "SubmitProof",
     &cuzk__v1__submit_proof_request__descriptor, rpc_submit, false},
    {"/cuzk.v1.ProvingEngine/AwaitProof", "AwaitProof", &cuzk__v1__await_proof_request__descriptor,
     rpc_await, false},
    {"/cuzk.v1.ProvingEngine/Prove", "Prove", &cuzk__v1__prove_request__descriptor, rpc_prove,
     false},
    {"/cuzk.v1.ProvingEngine/CancelProof", "CancelProof",
     &cuzk__v1__cancel_proof_request__descriptor, rpc_cancel, false},
    {"/cuzk.v1.ProvingEngine/GetStatus", "GetStatus", &cuzk__v1__get_status_request__descriptor,
     rpc_status, false},
    {"/cuzk.v1.ProvingEngine/GetMetrics", "GetMetrics", &cuzk__v1__get_metrics_request__descriptor,
     rpc_metrics, false},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", "PreloadSRS", &cuzk__v1__preload_srs_request__descriptor,
     rpc_preload, true},
    {"/cuzk.v1.ProvingEngine/EvictSRS", "EvictSRS", &cuzk__v1__evict_srs_request__descriptor,
     rpc_evict, false},
};
const size_t cz_rpc_n_methods = sizeof cz_rpc_methods / sizeof cz_rpc_methods[0];
