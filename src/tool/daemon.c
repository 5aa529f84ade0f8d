/* cuzk daemon status, metrics, preload, evict, cancel: a client of
 * cuzk-daemon (gRPC cuzk.v1) for its operator.
 *
 *   cuzk daemon status | metrics [--addr A]
 *   cuzk daemon preload | evict [--addr A] CIRCUIT_ID
 *   cuzk daemon cancel [--addr A] JOB_ID
 *
 * A defaults to 127.0.0.1:9820 (or unix:PATH).  Exit status: 0 answered,
 * 1 the call failed (the gRPC status and message printed), 2 usage. */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/v1/proving.pb-c.h"
#include "tool/tool.h"

#define M(name) "/cuzk.v1.ProvingEngine/" name

typedef struct {
    const char *addr;
} opts;

static const cz_cli_flag FLAGS[] = {
    {"--addr", CZ_CLI_STR, offsetof(opts, addr), 0},
};

int cz_tool_daemon_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                        const ProtobufCMessageDescriptor *d, ProtobufCMessage **resp)
{
    int st;
    char det[512];
    if (cz_rpc_call(c, method, req, d, resp, -1, &st, det, sizeof det) != CZ_OK || st != 0) {
        fprintf(stderr, "%s: %s: gRPC status %d: %s\n", cz_cli_prog(), method, st, det);
        return st ? st : -1;
    }
    return 0;
}

/* The options, the ID when the command takes one, and a client of the
 * daemon: 0, or the exit status after a message. */
static int open_client(const cz_cli_cmd *self, int argc, char **argv, cz_rpc_client **c,
                       const char **id)
{
    opts o = {.addr = "127.0.0.1:9820"};
    int n = cz_cli_parse(self, argc, argv, &o);
    if (n < 0)
        return 2;
    if (self->max_args && n == 0) {
        fprintf(stderr, "%s %s: an id is needed\n", cz_cli_prog(), self->name);
        return 2;
    }
    *id = n ? argv[1] : NULL;
    if (cz_rpc_client_new(c, o.addr) != CZ_OK) {
        fprintf(stderr, "%s %s: cannot create a channel to %s\n", cz_cli_prog(), self->name,
                o.addr);
        return 1;
    }
    return 0;
}

static int status(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_rpc_client *c;
    const char *id;
    int rc = open_client(self, argc, argv, &c, &id);
    if (rc)
        return rc;
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *r = NULL;
    if (cz_tool_daemon_call(c, M("GetStatus"), &q.base, &cuzk__v1__get_status_response__descriptor,
                            (ProtobufCMessage **)&r)) {
        cz_rpc_client_free(c);
        return 1;
    }
    printf("uptime %llu s; proofs completed %llu, failed %llu, cancelled %llu\n",
           (unsigned long long)r->uptime_seconds, (unsigned long long)r->total_proofs_completed,
           (unsigned long long)r->total_proofs_failed,
           (unsigned long long)r->total_proofs_cancelled);
    printf("memory: budget %.1f MiB, reserved %.1f MiB, tracked %.1f MiB, rss %.1f MiB, "
           "untracked %.1f MiB\n",
           r->memory_budget_bytes / 1048576.0, r->memory_reserved_bytes / 1048576.0,
           r->memory_tracked_bytes / 1048576.0, r->rss_bytes / 1048576.0,
           r->untracked_rss_bytes / 1048576.0);
    for (size_t i = 0; i < r->n_queues; i++)
        printf("queue %s: %u pending, %u in progress\n", r->queues[i]->proof_kind,
               r->queues[i]->pending, r->queues[i]->in_progress);
    for (size_t i = 0; i < r->n_loaded_srs; i++)
        printf("circuit %s: %.1f MiB, %u in use\n", r->loaded_srs[i]->circuit_id,
               r->loaded_srs[i]->size_bytes / 1048576.0, r->loaded_srs[i]->ref_count);
    for (size_t i = 0; i < r->n_buffer_classes; i++)
        printf("buffers %-8s live %llu (%.1f MiB), high water %.1f MiB, allocs %llu\n",
               r->buffer_classes[i]->name, (unsigned long long)r->buffer_classes[i]->live_count,
               r->buffer_classes[i]->live_bytes / 1048576.0,
               r->buffer_classes[i]->high_water_bytes / 1048576.0,
               (unsigned long long)r->buffer_classes[i]->total_allocs);
    protobuf_c_message_free_unpacked(&r->base, NULL);
    cz_rpc_client_free(c);
    return 0;
}

static int metrics(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_rpc_client *c;
    const char *id;
    int rc = open_client(self, argc, argv, &c, &id);
    if (rc)
        return rc;
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *r = NULL;
    rc = cz_tool_daemon_call(c, M("GetMetrics"), &q.base,
                             &cuzk__v1__get_metrics_response__descriptor, (ProtobufCMessage **)&r);
    if (rc == 0) {
        fputs(r->prometheus_text, stdout);
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
    cz_rpc_client_free(c);
    return rc ? 1 : 0;
}

static int preload(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_rpc_client *c;
    const char *id;
    int rc = open_client(self, argc, argv, &c, &id);
    if (rc)
        return rc;
    Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    q.circuit_id = (char *)id;
    Cuzk__V1__PreloadSrsResponse *r = NULL;
    rc = cz_tool_daemon_call(c, M("PreloadSRS"), &q.base,
                             &cuzk__v1__preload_srs_response__descriptor, (ProtobufCMessage **)&r);
    if (rc == 0) {
        printf("%s: %s (%llu ms)\n", id, r->already_loaded ? "already loaded" : "loaded",
               (unsigned long long)r->load_time_ms);
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
    cz_rpc_client_free(c);
    return rc ? 1 : 0;
}

static int evict(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_rpc_client *c;
    const char *id;
    int rc = open_client(self, argc, argv, &c, &id);
    if (rc)
        return rc;
    Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    q.circuit_id = (char *)id;
    Cuzk__V1__EvictSrsResponse *r = NULL;
    rc = cz_tool_daemon_call(c, M("EvictSRS"), &q.base, &cuzk__v1__evict_srs_response__descriptor,
                             (ProtobufCMessage **)&r);
    if (rc == 0) {
        printf("%s: %s, %.1f MiB freed\n", id, r->was_loaded ? "evicted" : "was not loaded",
               r->freed_bytes / 1048576.0);
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
    cz_rpc_client_free(c);
    return rc ? 1 : 0;
}

static int cancel(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_rpc_client *c;
    const char *id;
    int rc = open_client(self, argc, argv, &c, &id);
    if (rc)
        return rc;
    Cuzk__V1__CancelProofRequest q = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    q.job_id = (char *)id;
    Cuzk__V1__CancelProofResponse *r = NULL;
    rc = cz_tool_daemon_call(c, M("CancelProof"), &q.base,
                             &cuzk__v1__cancel_proof_response__descriptor, (ProtobufCMessage **)&r);
    if (rc == 0) {
        printf("%s: cancelled (%s)\n", id, r->was_running ? "was running" : "was queued or done");
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
    cz_rpc_client_free(c);
    return rc ? 1 : 0;
}

const cz_cli_cmd cz_tool_daemon_status = {
    .name = "daemon status",
    .summary = "the daemon's totals, memory, queues, circuits and buffers (GetStatus)",
    .usage = "[--addr ADDR]\n"
             "  ADDR: host:port or unix:PATH (default 127.0.0.1:9820)\n",
    .run = status,
    CZ_CLI_FLAGS(FLAGS),
};

const cz_cli_cmd cz_tool_daemon_metrics = {
    .name = "daemon metrics",
    .summary = "the daemon's Prometheus text (GetMetrics)",
    .usage = "[--addr ADDR]\n"
             "  ADDR: host:port or unix:PATH (default 127.0.0.1:9820)\n",
    .run = metrics,
    CZ_CLI_FLAGS(FLAGS),
};

const cz_cli_cmd cz_tool_daemon_preload = {
    .name = "daemon preload",
    .summary = "load a circuit's parameters before its first proof (PreloadSRS)",
    .usage =
        "[--addr ADDR] CIRCUIT_ID\n"
        "  CIRCUIT_ID: porep-2k .. porep-64g, snap-*, wpost-*, winning-*, a [circuits] id of the\n"
        "  configuration, or synthetic-LOG-PUBLIC\n",
    .run = preload,
    CZ_CLI_FLAGS(FLAGS),
    .max_args = 1,
};

const cz_cli_cmd cz_tool_daemon_evict = {
    .name = "daemon evict",
    .summary = "drop a loaded circuit's parameters (EvictSRS)",
    .usage = "[--addr ADDR] CIRCUIT_ID\n"
             "  CIRCUIT_ID: as daemon status lists the loaded circuits\n",
    .run = evict,
    CZ_CLI_FLAGS(FLAGS),
    .max_args = 1,
};

const cz_cli_cmd cz_tool_daemon_cancel = {
    .name = "daemon cancel",
    .summary = "cancel a job by its handle or label (CancelProof)",
    .usage =
        "[--addr ADDR] JOB_ID\n"
        "  JOB_ID: the job's handle (job-N) or its label, the request id it was submitted with\n",
    .run = cancel,
    CZ_CLI_FLAGS(FLAGS),
    .max_args = 1,
};
