/* cuzk-daemon: the proving engine behind the cuzk.v1 gRPC API and an HTTP
 * status endpoint.
 *
 *   cuzk-daemon [--config FILE] [--listen ADDR]... [--status-listen ADDR]
 *               [--log-level LEVEL] [--log-file FILE] [--grace-ms N]
 *
 * Without --config the embedded default runs: cuzk's defaults (see
 * docs/cuzk.example.toml) with the built-in synthetic circuits served (a
 * configuration file turns them on with daemon.synthetic).  --listen may be
 * given up to 8 times (TCP and unix sockets at once).  Signals: SIGTERM /
 * SIGINT stop accepting calls, let every accepted job finish for --grace-ms
 * (default 30000; 0 to 86400000), cancel what is left and exit 0 with a
 * last log line that counts every job; SIGHUP reopens the log file.  Each
 * job is logged at info level when it is submitted, starts and ends. */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/checked_keys.h"
#include "cuzk/config.h"
#include "cuzk/cuda.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/http.h"
#include "cuzk/pool.h"
#include "cuzk/units.h"
#include "cuzk/zkey.h"
#include "daemon/log.h"
#include "daemon/rpc.h"
#include "util/clock.h"

#define CZ_VERSION "0.1.0"

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-daemon [--config FILE] [--listen ADDR]... [--status-listen ADDR]\n"
               "                   [--log-level trace|debug|info|warn|error] [--log-file FILE]\n"
               "                   [--grace-ms N]\n"
               "ADDR: unix:///path/to.sock or host:port (gRPC); host:port for --status-listen\n");
}

static void warn_cb(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "cuzk-daemon: warning: %s\n", msg);
}

/* The [circuits] of the configuration, loaded and registered for
 * GROTH16_GENERIC jobs: every point checked (the subgroup checks on a pool
 * of every CPU), unless srs.checked_keys names a store that holds the
 * key's digest; a key checked here is added to it. */
typedef struct {
    cz_groth16_params params[CZ_CONFIG_MAX_CIRCUITS];
    cz_r1cs *r1cs[CZ_CONFIG_MAX_CIRCUITS];
    unsigned n;
} circuits;

/* One key's check, logged; a checked key added to the store (a store that
 * cannot be written is a warning: the key was checked). */
static void note_check(cz_checked_keys *store, const cz_key_check *kc, const char *id)
{
    char err[512];
    if (store == NULL)
        return;
    if (kc->known) {
        cz_log(CZ_LOG_INFO, "circuit %s: key found in %s: subgroup checks skipped", id,
               cz_checked_keys_path(store));
    } else if (kc->checked) {
        if (cz_checked_keys_add(store, &kc->digest, err, sizeof err) == CZ_OK)
            cz_log(CZ_LOG_INFO, "circuit %s: key checked, remembered in %s", id,
                   cz_checked_keys_path(store));
        else
            cz_log(CZ_LOG_WARN, "circuit %s: key checked, not remembered: %s", id, err);
    }
}

static int load_circuits(circuits *cs, const cz_daemon_config *cfg, cz_engine *e)
{
    char err[512];
    if (cfg->n_circuits == 0)
        return CZ_OK;
    cz_checked_keys *store = NULL;
    cz_pool *pool = NULL;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = cz_pool_new(&pool, ncpu < 1 ? 1 : ncpu > 1024 ? 1024 : (unsigned)ncpu);
    if (rc != CZ_OK)
        cz_log(CZ_LOG_ERROR, "the key check's thread pool: %s", cz_strerror(rc));
    if (rc == CZ_OK && cfg->checked_keys[0] &&
        (rc = cz_checked_keys_open(&store, cfg->checked_keys, err, sizeof err)) != CZ_OK)
        cz_log(CZ_LOG_ERROR, "srs.checked_keys: %s", err);
    for (unsigned i = 0; i < cfg->n_circuits && rc == CZ_OK; i++) {
        const char *id = cfg->circuits[i].id;
        cz_groth16_params *p = &cs->params[cs->n];
        cz_r1cs **r = &cs->r1cs[cs->n];
        cz_key_check kc = {.store = store};
        if (!cfg->circuits[i].r1cs[0]) {
            cz_zkey z;
            rc = cz_zkey_load_with(&z, cfg->circuits[i].params, 0, pool, store ? &kc : NULL, err,
                                   sizeof err);
            if (rc == CZ_OK)
                rc = cz_groth16_params_from_zkey(p, r, &z, err, sizeof err);
            cz_zkey_free(&z);
        } else {
            cz_params_read_opts o = {.pool = pool, .check = store ? &kc : NULL};
            rc = cz_groth16_params_read_file_ex(p, cfg->circuits[i].params, &o, err, sizeof err);
            if (rc == CZ_OK &&
                (rc = cz_pce_load(r, cfg->circuits[i].r1cs, 0, err, sizeof err)) != CZ_OK)
                cz_groth16_params_free(p);
        }
        if (rc == CZ_OK) {
            note_check(store, &kc, id);
            cs->n++;
            rc = cz_engine_register_circuit(e, id, p, *r, err, sizeof err);
        }
        if (rc != CZ_OK) {
            cz_log(CZ_LOG_ERROR, "circuit %s: %s", id, err);
            break;
        }
        cz_log(CZ_LOG_INFO, "circuit %s registered (%zu constraints, %zu inputs)", id,
               cz_r1cs_num_constraints(*r), cz_r1cs_num_inputs(*r));
    }
    cz_checked_keys_free(store);
    cz_pool_free(pool);
    return rc;
}

static void free_circuits(circuits *cs)
{
    for (unsigned i = 0; i < cs->n; i++) {
        cz_groth16_params_free(&cs->params[i]);
        cz_r1cs_free(cs->r1cs[i]);
    }
}

/* The engine's job events as log lines: the handle, then the client's
 * label in brackets when it gave one. */
static void on_job(void *ctx, const cz_job_event *ev)
{
    (void)ctx;
    static const char *const prio[] = {"LOW", "NORMAL", "HIGH", "CRITICAL"};
    char who[2 * CZ_JOB_ID_MAX + 4];
    snprintf(who, sizeof who, ev->label[0] ? "%s [%s]" : "%s", ev->id, ev->label);
    switch (ev->what) {
    case CZ_JOB_EV_SUBMITTED:
        cz_log(CZ_LOG_INFO, "job %s submitted: %s %s, %u partition%s, priority %s", who,
               cz_job_kind_name(ev->kind), ev->circuit, ev->partitions,
               ev->partitions == 1 ? "" : "s", prio[ev->priority & 3]);
        break;
    case CZ_JOB_EV_STARTED:
        cz_log(CZ_LOG_INFO, "job %s started after %.0f ms in the queue", who, ev->queue_ms);
        break;
    case CZ_JOB_EV_FINISHED:
        if (ev->state == CZ_JOB_COMPLETED)
            cz_log(CZ_LOG_INFO,
                   "job %s completed in %.0f ms (queue %.0f, synthesis %.0f, proving %.0f)",
                   who, ev->total_ms, ev->queue_ms, ev->synth_ms, ev->prove_ms);
        else
            cz_log(ev->state == CZ_JOB_FAILED ? CZ_LOG_WARN : CZ_LOG_INFO,
                   "job %s %s after %.0f ms: %s", who, cz_job_state_name(ev->state),
                   ev->total_ms, ev->message);
        break;
    }
}

int main(int argc, char **argv)
{
    const char *config = NULL, *status_listen = NULL, *log_level = NULL, *log_file = NULL;
    const char *listen[8];
    size_t n_listen = 0;
    uint64_t grace_ms = 30000;
    for (int i = 1; i < argc; i += 2) { /* every option takes one value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (v == NULL) {
            fprintf(stderr, "cuzk-daemon: %s needs a value\n", a);
            usage(stderr);
            return 2;
        }
        if (!strcmp(a, "--config")) {
            config = v;
        } else if (!strcmp(a, "--listen")) {
            if (n_listen == 8) {
                fprintf(stderr, "cuzk-daemon: at most 8 --listen addresses\n");
                return 2;
            }
            listen[n_listen++] = v;
        } else if (!strcmp(a, "--status-listen")) {
            status_listen = v;
        } else if (!strcmp(a, "--log-level")) {
            log_level = v;
        } else if (!strcmp(a, "--log-file")) {
            log_file = v;
        } else if (!strcmp(a, "--grace-ms")) {
            if (cz_parse_u64(v, &grace_ms) != CZ_OK || grace_ms > 86400000) {
                fprintf(stderr, "cuzk-daemon: --grace-ms %s is not a number of milliseconds "
                                "from 0 to 86400000\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "cuzk-daemon: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }

    cz_daemon_config cfg;
    char err[512] = "";
    cz_config_defaults(&cfg);
    if (config && cz_config_load_file(&cfg, config, warn_cb, NULL, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", err);
        return 2;
    }
    if (config == NULL)
        cfg.synthetic = true; /* the embedded default is the demo */
    if (n_listen == 0)
        listen[n_listen++] = cfg.listen;
    for (size_t i = 0; i < n_listen; i++) {
        if (cz_config_check_listen(listen[i], err, sizeof err) != CZ_OK) {
            fprintf(stderr, "cuzk-daemon: --listen: %s\n", err);
            return 2;
        }
    }
    if ((status_listen &&
         cz_config_set(&cfg, "daemon.status_listen", status_listen, err, sizeof err) != CZ_OK) ||
        (log_level && cz_config_set(&cfg, "logging.level", log_level, err, sizeof err) != CZ_OK)) {
        fprintf(stderr, "cuzk-daemon: %s\n", err);
        return 2;
    }
    int lrc = cz_log_init(cfg.log_level, !strcmp(cfg.log_format, "json"), log_file);
    if (lrc != CZ_OK) {
        if (lrc == CZ_ERR_IO)
            fprintf(stderr, "cuzk-daemon: cannot open the log file %s: %s\n", log_file,
                    strerror(errno));
        else
            fprintf(stderr, "cuzk-daemon: bad log level '%s'\n", cfg.log_level);
        return 2;
    }

    /* Signals go to the main thread only: block them before any thread. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    cz_engine_config ec = {0};
    ec.memory_budget = cfg.total_budget;
    ec.safety_margin = cfg.safety_margin;
    ec.eviction_min_idle_ms = cfg.eviction_min_idle_ms;
    /* at most max_parallel_synthesis partition syntheses at once */
    ec.synthesis_workers =
        cfg.synthesis_workers ? cfg.synthesis_workers : cz_engine_auto_synthesis_workers();
    if (ec.synthesis_workers > cfg.max_parallel_synthesis)
        ec.synthesis_workers = cfg.max_parallel_synthesis;
    ec.queue_depth = cfg.max_gpu_queue_depth; /* 0: the engine's */
    ec.prover_threads = cfg.gpu_threads;
    ec.synthesis_threads = cfg.synthesis_threads;
    ec.param_cache = cfg.param_cache;
    ec.no_verify = !cfg.self_verify;
    ec.no_synthetic = !cfg.synthetic;
    ec.max_jobs = cfg.max_queued_jobs;
    ec.max_partitions = cfg.max_queued_partitions;
    ec.timeline_log = cfg.timeline;
    ec.log = cz_log_stream();
    ec.on_job = on_job;
    struct stat pst;
    if (stat(cfg.param_cache, &pst) != 0 || !S_ISDIR(pst.st_mode))
        cz_log(CZ_LOG_WARN,
               "config: srs.param_cache %s is not a folder (%s): PoRep requests will be refused, "
               "naming the files missing",
               cfg.param_cache, strerror(errno ? errno : ENOTDIR));
    /* [gpus] devices: the ordinals to use (default: every device found; none:
     * the CPU back end) */
    static cz_cuda_device_list devs;
    static cz_backend_ops ops;
    devs.n = cfg.n_gpus;
    for (unsigned i = 0; i < cfg.n_gpus; i++)
        devs.ordinal[i] = cfg.gpus_devices[i];
    int brc = cz_backend_choose(&ops, CZ_BACKEND_AUTO, &devs, err, sizeof err);
    if (brc == CZ_ERR_UNSUPPORTED && !cz_cuda_available()) {
        cz_log(CZ_LOG_ERROR,
               "config: gpus.devices lists %u device%s, but %s: remove gpus.devices to prove "
               "on the CPU",
               cfg.n_gpus, cfg.n_gpus == 1 ? "" : "s", err);
        return 1;
    }
    if (brc != CZ_OK) { /* a listed device not there, or one the kernels do not run on */
        cz_log(CZ_LOG_ERROR, "config: gpus.devices: %s%s", err,
               cfg.n_gpus ? ""
                          : " (gpus.devices = [] uses every device found: list the ones to use)");
        return 1;
    }
    bool gpu = ops.kind == CZ_BACKEND_GPU;
    /* gpus.memory_budget: one for every device used, or one each */
    unsigned n_used = gpu ? (devs.n ? devs.n : (unsigned)cz_cuda_device_count()) : 0;
    if (cfg.n_gpu_memory_budget > 1 && cfg.n_gpu_memory_budget != n_used) {
        cz_log(CZ_LOG_ERROR,
               "config: gpus.memory_budget lists %u budgets for %u device%s: give one for every "
               "device, or one each",
               cfg.n_gpu_memory_budget, n_used, n_used == 1 ? "" : "s");
        return 1;
    }
    for (unsigned i = 0; i < n_used && cfg.n_gpu_memory_budget; i++) {
        int ord = devs.n ? devs.ordinal[i] : (int)i;
        uint64_t b = cfg.gpu_memory_budget[cfg.n_gpu_memory_budget == 1 ? 0 : i];
        if (b && cz_cuda_set_mem_budget(ord, b) != CZ_OK) {
            cz_log(CZ_LOG_ERROR, "config: gpus.memory_budget: device %d refused it", ord);
            return 1;
        }
    }
    ec.backend = &ops;
    if (gpu)
        ec.prover_workers = cfg.gpu_workers_per_device;
    if (!cfg.self_verify)
        cz_log(CZ_LOG_WARN, "pipeline.self_verify = false: proofs leave the daemon UNVERIFIED "
                            "(a benchmark setting, never for production)");
    cz_engine *e;
    if (cz_engine_new(&e, &ec, err, sizeof err) != CZ_OK) {
        cz_log(CZ_LOG_ERROR, "%s", err);
        return 1;
    }
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    cz_log(CZ_LOG_INFO,
           "cuzk-daemon %s: memory budget %.1f GiB (request pool %.1f GiB), %u synthesis "
           "workers, %u prover workers (%s back end), at most %u jobs of %u partitions "
           "queued%s",
           CZ_VERSION, (double)st.mem.total / (1u << 30), (double)st.request_pool / (1u << 30),
           st.synth_workers, st.prove_workers, gpu ? "cuda" : "cpu", st.max_jobs,
           st.max_partitions,
           !cfg.synthetic ? ""
           : config       ? "; the built-in synthetic circuits are served (daemon.synthetic)"
                          : "; embedded default (no --config): built-in synthetic circuits");

    static circuits cs;
    if (load_circuits(&cs, &cfg, e) != CZ_OK) {
        cz_engine_free(e);
        free_circuits(&cs);
        return 1;
    }

    cz_http *http = NULL;
    cz_http_info hi = {
        .version = CZ_VERSION, .start_time_s = cz_clock_s(CLOCK_REALTIME), .listen = listen[0]};
    if (cfg.status_listen[0]) {
        if (cz_http_start(&http, cfg.status_listen, e, &hi, err, sizeof err) != CZ_OK) {
            cz_log(CZ_LOG_ERROR, "status endpoint: %s", err);
            cz_engine_free(e);
            free_circuits(&cs);
            return 1;
        }
        cz_log(CZ_LOG_INFO, "status endpoint on %s (port %u): GET /status, /metrics",
               cfg.status_listen, cz_http_port(http));
    }
    cz_metrics *own_metrics = NULL;
    if (http == NULL)
        cz_metrics_new(&own_metrics);
    cz_rpc_ctx rc = {.engine = e,
                     .metrics = http ? cz_http_metrics(http) : own_metrics,
                     .version = CZ_VERSION,
                     .start_time = cz_clock_s(CLOCK_MONOTONIC)};
    cz_rpc_server *srv;
    if (cz_rpc_server_start(&srv, listen, n_listen, &rc, err, sizeof err) != CZ_OK) {
        cz_log(CZ_LOG_ERROR, "gRPC: %s", err);
        cz_http_stop(http);
        cz_metrics_free(own_metrics);
        cz_engine_free(e);
        free_circuits(&cs);
        return 1;
    }
    for (size_t i = 0; i < n_listen; i++) {
        int port = cz_rpc_server_port(srv, i);
        if (port)
            cz_log(CZ_LOG_INFO, "listening on %s (port %d)", listen[i], port);
        else
            cz_log(CZ_LOG_INFO, "listening on %s", listen[i]);
    }
    /* "ready" on stdout for scripts that wait for it */
    printf("cuzk-daemon ready\n");
    fflush(stdout);

    /* Between signals, once a second: when calls were served since the
     * last look and none is in flight, the allocator's free memory goes
     * back to the OS.  Small requests, call and stream records and
     * nghttp2's buffers are untracked allocations that glibc would
     * otherwise keep after a burst (untracked RSS ratcheted up after
     * floods); large buffers are mmap'd by the tracked allocator and never
     * need this. */
    uint64_t served_at_trim = 0;
    for (;;) {
        struct timespec tick = {1, 0};
        int sig = sigtimedwait(&sigs, NULL, &tick);
        if (sig < 0) {
            uint64_t served = cz_rpc_server_served(srv);
            if (served != served_at_trim && cz_rpc_server_active(srv) == 0) {
                malloc_trim(0);
                served_at_trim = served;
            }
            continue;
        }
        if (sig == SIGHUP) {
            cz_log_reopen();
            cz_log(CZ_LOG_INFO, "SIGHUP: log reopened");
            continue;
        }
        cz_engine_status_get(e, &st);
        cz_log(CZ_LOG_INFO,
               "%s: stopping (grace %llu ms, %u calls in flight, %u jobs queued, %u running)",
               sig == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)grace_ms,
               cz_rpc_server_active(srv), st.jobs_queued, st.jobs_running);
        break;
    }
    unsigned cancelled = cz_rpc_server_stop(srv, (int64_t)grace_ms);
    cz_http_stop(http);
    cz_metrics_free(own_metrics);
    /* jobs cancelled at the deadline end at their next stage boundary */
    if (cz_engine_wait_idle(e, 60000) != CZ_OK)
        cz_log(CZ_LOG_WARN, "jobs still running 60 s after they were cancelled");
    cz_engine_status_get(e, &st);
    cz_engine_free(e);
    free_circuits(&cs);
    cz_log(CZ_LOG_INFO,
           "stopped: %llu jobs submitted: %llu completed, %llu failed, %llu cancelled (%u of "
           "them unfinished at the end of the grace period)",
           (unsigned long long)st.jobs_submitted, (unsigned long long)st.jobs_completed,
           (unsigned long long)st.jobs_failed, (unsigned long long)st.jobs_cancelled, cancelled);
    cz_log_close();
    return 0;
}
