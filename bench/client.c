/* cuzk-bench as a client of cuzk-daemon (gRPC cuzk.v1).
 *
 *   cuzk-bench single  [--addr A] [job options]
 *   cuzk-bench batch   [--addr A] [-c COUNT] [-j CONC] [job options]
 *   cuzk-bench stress  [--addr A] [-c COUNT] [-j CONC] [--log MAX]
 *   cuzk-bench status | metrics [--addr A]
 *   cuzk-bench preload | evict [--addr A] CIRCUIT_ID
 *   cuzk-bench cancel  [--addr A] JOB_ID
 * job options: --log L (synthetic rows 2^L, default 14) --partitions P
 *   (default 2) --public N (default 2) --priority low|normal|high|critical
 *
 * batch preloads the circuit (PreloadSRS: its one-time setup stays out of
 * the timing), keeps CONC Prove calls in flight until COUNT proofs are back and
 * prints s/proof, latency percentiles and the daemon's peak RSS and tracked
 * bytes (GetStatus polled every 200 ms); stress mixes sizes 10..MAX and
 * priorities and cancels one job in eight.  A progress line is drawn on
 * terminals.  Exit status: 0 when every proof completed (stress: completed
 * or cancelled), 1 otherwise, 2 for usage errors. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/err.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/rpc.h"
#include "daemon/rpc_client.h"

#define M(name) "/cuzk.v1.ProvingEngine/" name

typedef struct {
    const char *addr, *arg;
    unsigned count, conc, log, parts, pub;
    Cuzk__V1__Priority prio;
} copts;

static int parse(int argc, char **argv, copts *o)
{
    *o = (copts){.addr = "127.0.0.1:9820",
                 .count = 8,
                 .conc = 2,
                 .log = 14,
                 .parts = 2,
                 .pub = 2,
                 .prio = CUZK__V1__PRIORITY__NORMAL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--addr") && v)
            o->addr = v, i++;
        else if (!strcmp(a, "-c") && v)
            o->count = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "-j") && v)
            o->conc = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--log") && v)
            o->log = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--partitions") && v)
            o->parts = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--public") && v)
            o->pub = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--priority") && v) {
            static const char *n[] = {"low", "normal", "high", "critical"};
            int k = 0;
            while (k < 4 && strcmp(v, n[k]))
                k++;
            if (k == 4)
                return -1;
            o->prio = (Cuzk__V1__Priority)(k + 1);
            i++;
        } else if (a[0] != '-' && o->arg == NULL)
            o->arg = a;
        else
            return -1;
    }
    return o->count >= 1 && o->conc >= 1 ? 0 : -1;
}

static int call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                const ProtobufCMessageDescriptor *d, ProtobufCMessage **resp)
{
    int st;
    char det[512];
    if (cz_rpc_call(c, method, req, d, resp, -1, &st, det, sizeof det) != CZ_OK || st != 0) {
        fprintf(stderr, "cuzk-bench: %s: gRPC status %d: %s\n", method, st, det);
        return st ? st : -1;
    }
    return 0;
}

/* ------------------------------------------------------------- batch --- */

typedef struct {
    cz_rpc_client *c;
    const copts *o;
    int stress;
    atomic_uint next, done, ok, cancelled, failed;
    double *lat;
    atomic_int stop;
    uint64_t peak_tracked, peak_rss, peak_reserved;
    pthread_mutex_t mu;
} batch;

static void fill_submit(Cuzk__V1__SubmitProofRequest *s, const copts *o, unsigned log,
                        Cuzk__V1__Priority prio, uint64_t seed)
{
    cuzk__v1__submit_proof_request__init(s);
    s->proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
    s->priority = prio;
    s->partitions = o->parts;
    s->synthetic_log_rows = log;
    s->synthetic_public = o->pub;
    s->synthetic_seed = seed;
}

/* One stress job: submit, maybe cancel, await. */
static int stress_one(batch *b, unsigned i, Cuzk__V1__AwaitProofResponse__Status *out)
{
    cz_prng g;
    cz_prng_seed(&g, 77 + i);
    unsigned log = 10 + (unsigned)(cz_prng_next(&g) % (b->o->log - 9));
    Cuzk__V1__SubmitProofRequest s;
    fill_submit(&s, b->o, log, (Cuzk__V1__Priority)(1 + cz_prng_next(&g) % 4), i);
    Cuzk__V1__SubmitProofResponse *sr = NULL;
    if (call(b->c, M("SubmitProof"), &s.base, &cuzk__v1__submit_proof_response__descriptor,
             (ProtobufCMessage **)&sr))
        return -1;
    if (cz_prng_next(&g) % 8 == 0) {
        Cuzk__V1__CancelProofRequest cr = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        cr.job_id = sr->job_id;
        ProtobufCMessage *cresp = NULL;
        if (call(b->c, M("CancelProof"), &cr.base, &cuzk__v1__cancel_proof_response__descriptor,
                 &cresp) == 0)
            protobuf_c_message_free_unpacked(cresp, NULL);
    }
    Cuzk__V1__AwaitProofRequest ar = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    ar.job_id = sr->job_id;
    Cuzk__V1__AwaitProofResponse *a = NULL;
    int rc = call(b->c, M("AwaitProof"), &ar.base, &cuzk__v1__await_proof_response__descriptor,
                  (ProtobufCMessage **)&a);
    protobuf_c_message_free_unpacked(&sr->base, NULL);
    if (rc)
        return -1;
    *out = a->status;
    protobuf_c_message_free_unpacked(&a->base, NULL);
    return 0;
}

static void *batch_worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        unsigned i = atomic_fetch_add(&b->next, 1);
        if (i >= b->o->count)
            break;
        double t0 = cz_bench_now();
        Cuzk__V1__AwaitProofResponse__Status st = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
        if (b->stress) {
            if (stress_one(b, i, &st) != 0)
                st = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
        } else {
            Cuzk__V1__SubmitProofRequest s;
            fill_submit(&s, b->o, b->o->log, b->o->prio, 1000 + i);
            Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
            pr.submit = &s;
            Cuzk__V1__ProveResponse *r = NULL;
            if (call(b->c, M("Prove"), &pr.base, &cuzk__v1__prove_response__descriptor,
                     (ProtobufCMessage **)&r) == 0) {
                if (r->result)
                    st = r->result->status;
                if (r->result && st != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
                    fprintf(stderr, "\ncuzk-bench: job %s: %s\n", r->result->job_id,
                            r->result->error_message);
                protobuf_c_message_free_unpacked(&r->base, NULL);
            }
        }
        double dt = cz_bench_now() - t0;
        if (st == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
            unsigned k = atomic_fetch_add(&b->ok, 1);
            b->lat[k] = dt;
        } else if (st == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED) {
            atomic_fetch_add(&b->cancelled, 1);
        } else {
            atomic_fetch_add(&b->failed, 1);
        }
        atomic_fetch_add(&b->done, 1);
    }
    return NULL;
}

static void *poll_status(void *arg)
{
    batch *b = arg;
    while (!atomic_load(&b->stop)) {
        Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
        Cuzk__V1__GetStatusResponse *r = NULL;
        int st;
        char det[128];
        if (cz_rpc_call(b->c, M("GetStatus"), &q.base, &cuzk__v1__get_status_response__descriptor,
                        (ProtobufCMessage **)&r, 2000, &st, det, sizeof det) == CZ_OK &&
            st == 0) {
            if (r->memory_tracked_bytes > b->peak_tracked)
                b->peak_tracked = r->memory_tracked_bytes;
            if (r->rss_bytes > b->peak_rss)
                b->peak_rss = r->rss_bytes;
            if (r->memory_reserved_bytes > b->peak_reserved)
                b->peak_reserved = r->memory_reserved_bytes;
            protobuf_c_message_free_unpacked(&r->base, NULL);
        }
        if (isatty(STDERR_FILENO)) {
            unsigned d = atomic_load(&b->done), n = b->o->count, w = 40;
            fprintf(stderr, "\r[%.*s%*s] %u/%u", (int)(w * d / n),
                    "########################################", (int)(w - w * d / n), "", d, n);
        }
        usleep(200000);
    }
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\n");
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run_batch(cz_rpc_client *c, const copts *o, int stress)
{
    if (!stress) { /* load the circuit first: its setup is not a proof's time */
        char id[64];
        snprintf(id, sizeof id, "synthetic-%u-%u", o->log, o->pub);
        Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        q.circuit_id = id;
        Cuzk__V1__PreloadSrsResponse *r = NULL;
        if (call(c, M("PreloadSRS"), &q.base, &cuzk__v1__preload_srs_response__descriptor,
                 (ProtobufCMessage **)&r))
            return 1;
        printf("preload %s: %s (%.2f s)\n", id, r->already_loaded ? "already loaded" : "loaded",
               r->load_time_ms / 1e3);
        protobuf_c_message_free_unpacked(&r->base, NULL);
    }
    batch b = {.c = c, .o = o, .stress = stress};
    b.lat = calloc(o->count, sizeof *b.lat);
    pthread_t *th = calloc(o->conc, sizeof *th), mon;
    pthread_create(&mon, NULL, poll_status, &b);
    double t0 = cz_bench_now();
    for (unsigned i = 0; i < o->conc; i++)
        pthread_create(&th[i], NULL, batch_worker, &b);
    for (unsigned i = 0; i < o->conc; i++)
        pthread_join(th[i], NULL);
    double wall = cz_bench_now() - t0;
    atomic_store(&b.stop, 1);
    pthread_join(mon, NULL);
    unsigned ok = atomic_load(&b.ok), canc = atomic_load(&b.cancelled),
             fail = atomic_load(&b.failed);
    qsort(b.lat, ok, sizeof *b.lat, cmp_double);
    printf("%s: %u jobs of 2^%u rows x %u partitions, %u in flight, daemon %s\n",
           stress ? "stress" : "batch", o->count, o->log, o->parts, o->conc, o->addr);
    printf("  completed %u, cancelled %u, failed %u, wall %.2f s\n", ok, canc, fail, wall);
    if (ok) {
        printf("  s/proof            %.3f s\n", wall / ok);
        printf("  latency p50/p95/p99 %.2f / %.2f / %.2f s\n", b.lat[ok / 2],
               b.lat[(ok * 95) / 100 < ok ? (ok * 95) / 100 : ok - 1],
               b.lat[(ok * 99) / 100 < ok ? (ok * 99) / 100 : ok - 1]);
    }
    printf("  daemon peak RSS %.1f MiB, peak tracked %.1f MiB, peak reserved %.1f MiB\n",
           b.peak_rss / 1048576.0, b.peak_tracked / 1048576.0, b.peak_reserved / 1048576.0);
    free(b.lat);
    free(th);
    return fail ? 1 : stress ? 0 : (ok == o->count ? 0 : 1);
}

/* ------------------------------------------------------------- simple --- */

static int run_simple(cz_rpc_client *c, const char *cmd, const copts *o)
{
    if (!strcmp(cmd, "status")) {
        Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
        Cuzk__V1__GetStatusResponse *r = NULL;
        if (call(c, M("GetStatus"), &q.base, &cuzk__v1__get_status_response__descriptor,
                 (ProtobufCMessage **)&r))
            return 1;
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
        return 0;
    }
    if (!strcmp(cmd, "metrics")) {
        Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
        Cuzk__V1__GetMetricsResponse *r = NULL;
        if (call(c, M("GetMetrics"), &q.base, &cuzk__v1__get_metrics_response__descriptor,
                 (ProtobufCMessage **)&r))
            return 1;
        fputs(r->prometheus_text, stdout);
        protobuf_c_message_free_unpacked(&r->base, NULL);
        return 0;
    }
    if (o->arg == NULL) {
        fprintf(stderr, "cuzk-bench %s: an id is needed\n", cmd);
        return 2;
    }
    if (!strcmp(cmd, "preload")) {
        Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        q.circuit_id = (char *)o->arg;
        Cuzk__V1__PreloadSrsResponse *r = NULL;
        if (call(c, M("PreloadSRS"), &q.base, &cuzk__v1__preload_srs_response__descriptor,
                 (ProtobufCMessage **)&r))
            return 1;
        printf("%s: %s (%llu ms)\n", o->arg, r->already_loaded ? "already loaded" : "loaded",
               (unsigned long long)r->load_time_ms);
        protobuf_c_message_free_unpacked(&r->base, NULL);
        return 0;
    }
    if (!strcmp(cmd, "evict")) {
        Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        q.circuit_id = (char *)o->arg;
        Cuzk__V1__EvictSrsResponse *r = NULL;
        if (call(c, M("EvictSRS"), &q.base, &cuzk__v1__evict_srs_response__descriptor,
                 (ProtobufCMessage **)&r))
            return 1;
        printf("%s: %s, %.1f MiB freed\n", o->arg, r->was_loaded ? "evicted" : "was not loaded",
               r->freed_bytes / 1048576.0);
        protobuf_c_message_free_unpacked(&r->base, NULL);
        return 0;
    }
    Cuzk__V1__CancelProofRequest q = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    q.job_id = (char *)o->arg;
    Cuzk__V1__CancelProofResponse *r = NULL;
    if (call(c, M("CancelProof"), &q.base, &cuzk__v1__cancel_proof_response__descriptor,
             (ProtobufCMessage **)&r))
        return 1;
    printf("%s: cancelled (%s)\n", o->arg, r->was_running ? "was running" : "was queued or done");
    protobuf_c_message_free_unpacked(&r->base, NULL);
    return 0;
}

int cz_bench_client(int argc, char **argv)
{
    copts o;
    const char *cmd = argv[0];
    if (parse(argc, argv, &o) != 0) {
        fprintf(stderr,
                "usage: cuzk-bench %s [--addr ADDR] [-c COUNT] [-j CONC] [--log L] "
                "[--partitions P] [--public N] [--priority P] [ID]\n",
                cmd);
        return 2;
    }
    cz_rpc_client *c;
    if (cz_rpc_client_new(&c, o.addr) != CZ_OK) {
        fprintf(stderr, "cuzk-bench: cannot create a channel to %s\n", o.addr);
        return 1;
    }
    int rc;
    if (!strcmp(cmd, "single")) {
        copts one = o;
        one.count = 1;
        one.conc = 1;
        rc = run_batch(c, &one, 0);
    } else if (!strcmp(cmd, "batch")) {
        rc = run_batch(c, &o, 0);
    } else if (!strcmp(cmd, "stress")) {
        rc = run_batch(c, &o, 1);
    } else {
        rc = run_simple(c, cmd, &o);
    }
    cz_rpc_client_free(c);
    return rc;
}
