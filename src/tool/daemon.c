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

/* A printer of a method's answer (the command's ID or NULL). */
typedef void print_fn(const ProtobufCMessage *answer, const char *id);

/* The command: its options and ID (set as *id_field, when it takes one),
 * one call of method with req, the answer printed.  Its exit status: 0,
 * 1 the call failed, 2 usage. */
static int call(const cz_cli_cmd *self, int argc, char **argv, const char *method,
                ProtobufCMessage *req, char **id_field, const ProtobufCMessageDescriptor *d,
                print_fn *print)
{
    cz_cli_opts o = {.addr = "127.0.0.1:9820"};
    int n = cz_cli_parse(self, argc, argv, &o);
    if (n < 0)
        return 2;
    if (self->max_args && n == 0) {
        fprintf(stderr, "%s %s: an id is needed\n", cz_cli_prog(), self->name);
        return 2;
    }
    if (id_field)
        *id_field = argv[1];
    cz_rpc_client *c;
    if (cz_rpc_client_new(&c, o.addr) != CZ_OK) {
        fprintf(stderr, "%s %s: cannot create a channel to %s\n", cz_cli_prog(), self->name,
                o.addr);
        return 1;
    }
    ProtobufCMessage *r = NULL;
    int rc = cz_tool_daemon_call(c, method, req, d, &r);
    if (rc == 0) {
        print(r, n ? argv[1] : NULL);
        protobuf_c_message_free_unpacked(r, NULL);
    }
    cz_rpc_client_free(c);
    return rc ? 1 : 0;
}

static void print_status(const ProtobufCMessage *m, const char *id)
{
    const Cuzk__V1__GetStatusResponse *r = (const Cuzk__V1__GetStatusResponse *)m;
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
}

static void print_metrics(const ProtobufCMessage *m, const char *id)
{
    fputs(((const Cuzk__V1__GetMetricsResponse *)m)->prometheus_text, stdout);
}

static void print_preload(const ProtobufCMessage *m, const char *id)
{
    const Cuzk__V1__PreloadSrsResponse *r = (const Cuzk__V1__PreloadSrsResponse *)m;
    printf("%s: %s (%llu ms)\n", id, r->already_loaded ? "already loaded" : "loaded",
           (unsigned long long)r->load_time_ms);
}

static void print_evict(const ProtobufCMessage *m, const char *id)
{
    const Cuzk__V1__EvictSrsResponse *r = (const Cuzk__V1__EvictSrsResponse *)m;
    printf("%s: %s, %.1f MiB freed\n", id, r->was_loaded ? "evicted" : "was not loaded",
           r->freed_bytes / 1048576.0);
}

static void print_cancel(const ProtobufCMessage *m, const char *id)
{
    const Cuzk__V1__CancelProofResponse *r = (const Cuzk__V1__CancelProofResponse *)m;
    printf("%s: cancelled (%s)\n", id, r->was_running ? "was running" : "was queued or done");
}

int cz_tool_daemon_status(const cz_cli_cmd *self, int argc, char **argv)
{
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    return call(self, argc, argv, M("GetStatus"), &q.base, NULL,
                &cuzk__v1__get_status_response__descriptor, print_status);
}

int cz_tool_daemon_metrics(const cz_cli_cmd *self, int argc, char **argv)
{
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    return call(self, argc, argv, M("GetMetrics"), &q.base, NULL,
                &cuzk__v1__get_metrics_response__descriptor, print_metrics);
}

int cz_tool_daemon_preload(const cz_cli_cmd *self, int argc, char **argv)
{
    Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    return call(self, argc, argv, M("PreloadSRS"), &q.base, &q.circuit_id,
                &cuzk__v1__preload_srs_response__descriptor, print_preload);
}

int cz_tool_daemon_evict(const cz_cli_cmd *self, int argc, char **argv)
{
    Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    return call(self, argc, argv, M("EvictSRS"), &q.base, &q.circuit_id,
                &cuzk__v1__evict_srs_response__descriptor, print_evict);
}

int cz_tool_daemon_cancel(const cz_cli_cmd *self, int argc, char **argv)
{
    Cuzk__V1__CancelProofRequest q = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    return call(self, argc, argv, M("CancelProof"), &q.base, &q.job_id,
                &cuzk__v1__cancel_proof_response__descriptor, print_cancel);
}
