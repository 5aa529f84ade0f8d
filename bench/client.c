/* cuzk-bench single, batch, stress: synthetic jobs through cuzk-daemon
 * (gRPC cuzk.v1), timed.
 *
 *   cuzk-bench single  [--addr A] [job options]
 *   cuzk-bench batch   [--addr A] [-c COUNT] [-j CONC] [job options]
 *   cuzk-bench stress  [--addr A] [-c COUNT] [-j CONC] [--log MAX]
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
#include "cuzk/rand.h"
#include "cuzk/v1/proving.pb-c.h"

#define M(name) "/cuzk.v1.ProvingEngine/" name

typedef struct {
    const char *addr;
    unsigned count, conc, log, parts, pub;
    Cuzk__V1__Priority prio;
} copts;

/* argv (argv[0] the command) into *o: 0, or -1 after a message. */
static int parse(const cz_cli_cmd *self, int argc, char **argv, copts *o)
{
    cz_cli_opts a = {.addr = "127.0.0.1:9820", .log = 14};
    *o = (copts){.count = 8, .conc = 2, .parts = 2, .pub = 2, .prio = CUZK__V1__PRIORITY__NORMAL};
    const char *c = self->name;
    if (cz_cli_parse(self, argc, argv, &a) < 0 || cz_cli_uint(&o->count, a.count, c, "-c") ||
        cz_cli_uint(&o->conc, a.conc, c, "-j") ||
        cz_cli_uint(&o->parts, a.partitions, c, "--partitions") ||
        cz_cli_uint(&o->pub, a.public, c, "--public"))
        return -1;
    o->addr = a.addr, o->log = a.log;
    if (a.priority) {
        int k = cz_cli_choice(a.priority, cz_tool_priorities, 4, c, "--priority");
        if (k < 0)
            return -1;
        o->prio = (Cuzk__V1__Priority)(k + 1);
    }
    if (o->count >= 1 && o->conc >= 1)
        return 0;
    cz_cli_usage(stderr, self);
    return -1;
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
    if (cz_tool_daemon_call(b->c, M("SubmitProof"), &s.base,
                            &cuzk__v1__submit_proof_response__descriptor, (ProtobufCMessage **)&sr))
        return -1;
    if (cz_prng_next(&g) % 8 == 0) {
        Cuzk__V1__CancelProofRequest cr = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        cr.job_id = sr->job_id;
        ProtobufCMessage *cresp = NULL;
        if (cz_tool_daemon_call(b->c, M("CancelProof"), &cr.base,
                                &cuzk__v1__cancel_proof_response__descriptor, &cresp) == 0)
            protobuf_c_message_free_unpacked(cresp, NULL);
    }
    Cuzk__V1__AwaitProofRequest ar = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    ar.job_id = sr->job_id;
    Cuzk__V1__AwaitProofResponse *a = NULL;
    int rc =
        cz_tool_daemon_call(b->c, M("AwaitProof"), &ar.base,
                            &cuzk__v1__await_proof_response__descriptor, (ProtobufCMessage **)&a);
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
        double t0 = cz_cli_now();
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
            if (cz_tool_daemon_call(b->c, M("Prove"), &pr.base,
                                    &cuzk__v1__prove_response__descriptor,
                                    (ProtobufCMessage **)&r) == 0) {
                if (r->result)
                    st = r->result->status;
                if (r->result && st != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
                    fprintf(stderr, "\ncuzk-bench: job %s: %s\n", r->result->job_id,
                            r->result->error_message);
                protobuf_c_message_free_unpacked(&r->base, NULL);
            }
        }
        double dt = cz_cli_now() - t0;
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
        if (cz_tool_daemon_call(c, M("PreloadSRS"), &q.base,
                                &cuzk__v1__preload_srs_response__descriptor,
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
    double t0 = cz_cli_now();
    for (unsigned i = 0; i < o->conc; i++)
        pthread_create(&th[i], NULL, batch_worker, &b);
    for (unsigned i = 0; i < o->conc; i++)
        pthread_join(th[i], NULL);
    double wall = cz_cli_now() - t0;
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

int cz_bench_load(const cz_cli_cmd *self, int argc, char **argv)
{
    copts o;
    if (parse(self, argc, argv, &o) != 0)
        return 2;
    if (!strcmp(self->name, "single"))
        o.count = o.conc = 1;
    cz_rpc_client *c;
    if (cz_rpc_client_new(&c, o.addr) != CZ_OK) {
        fprintf(stderr, "cuzk-bench: cannot create a channel to %s\n", o.addr);
        return 1;
    }
    int rc = run_batch(c, &o, !strcmp(self->name, "stress"));
    cz_rpc_client_free(c);
    return rc;
}
