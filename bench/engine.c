/* cuzk-bench engine: the proving engine in process on synthetic or PoRep
 * jobs.
 *
 *   cuzk-bench engine [--log L] [--partitions P] [--jobs N] [-j CONC]
 *                     [--synth-workers S] [--synth-threads T2] [--prover-threads T]
 *                     [--backend cpu|gpu] [--devices LIST]
 *                     [--budget BYTES|auto] [--svg FILE] [--no-verify]
 *                     [--porep C1 --param-cache DIR --miner-id M --sector-number N]
 *                     [--snap UPDATE_DIR --param-cache DIR] [--sweep S1,S2,...]
 *                     [--post POST_DIR --param-cache DIR [--post-every MS]]
 *
 * Keeps CONC jobs in flight until N have completed: of P partitions of the
 * 2^L-row synthetic circuit, or with --porep the PoRep C2 of the C1 file
 * (its registered proof's circuit from the param cache, as the daemon
 * loads it; every job the same C1 under its own id), or with --snap the
 * SnapDeals update proof of snap-encode's output UPDATE_DIR (real or
 * --synthetic: update.json and one vanilla proof per partition), or with
 * --post alone the WindowPoSt partition or WinningPoSt of post-vanilla's
 * POST_DIR (at its kind's priority: HIGH, CRITICAL).  --post beside
 * --porep or --snap makes those jobs a load and submits the PoSt, one job
 * at a time (a gap drawn uniformly from [0, 2 MS] ms, MS default 2000,
 * after the last one ended: a fixed gap near the load's own period would
 * lock every arrival to the same point of a PoRep partition's proof), while
 * the load runs: its latency from submit to proof, its queue wait and its
 * parts are reported with the load's figures.  Then prints s/proof
 * (wall time over N, the circuit's one-time load excluded by a warm-up
 * job), job latency p50/p95, peak RSS, peak untracked RSS (RSS less the
 * tracked buffers, sampled), peak tracked and reserved bytes, and each
 * stage's utilisation (busy time over wall time times its workers).  --svg
 * draws the timeline: one band per stage, one bar per partition, coloured
 * by job.  --sweep 1,2,4,8 repeats the measured jobs at each limit of
 * syntheses at once (cz_engine_set_synthesis_limit; at most the synthesis
 * workers), one report each (--svg draws the first), the circuit loaded
 * once.
 *
 * --backend gpu proves with the CUDA back end (cz_backend_cuda: H and every
 * MSM on the device, two prover workers per device) on the CUDA devices
 * --devices names (comma-separated ordinals; default every device); it
 * fails with a message when no CUDA device is usable. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/cuda.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "cuzk/units.h"

typedef struct {
    unsigned log, parts, jobs, conc, synth, threads, synth_threads;
    const char *porep, *snap, *param_cache, *miner, *sector, *sweep, *post;
    unsigned post_every; /* ms between PoSt jobs beside a load */
    uint64_t budget;
    const char *svg;
    int verify;
    int gpu;                  /* --backend gpu */
    const char *devices;      /* --devices as given, NULL: every device */
    cz_cuda_device_list devs; /* parsed --devices (n 0: every device) */
} opts;

static const char USAGE[] =
    "usage: cuzk-bench engine [--log L] [--partitions P] [--jobs N] [-j CONC] "
    "[--synth-workers S] [--prover-threads T] [--backend cpu|gpu] [--devices LIST] "
    "[--budget BYTES|auto] [--svg FILE] [--no-verify] [--synth-threads T] "
    "[--porep C1 --param-cache DIR --miner-id M --sector-number N] "
    "[--snap UPDATE_DIR --param-cache DIR] [--sweep S1,S2,..] "
    "[--post POST_DIR --param-cache DIR [--post-every MS]]\n"
    "  --backend gpu   the CUDA back end (default cpu)\n"
    "  --devices LIST  CUDA ordinals for --backend gpu, comma-separated (default: every "
    "device)\n";

/* "0,1,3" -> l; -1 with a message for anything else. */
static int parse_devices(const char *v, cz_cuda_device_list *l)
{
    l->n = 0;
    const char *p = v;
    for (;;) {
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || d < 0 || d > 1023 || (*end != ',' && *end != '\0')) {
            fprintf(stderr, "cuzk-bench engine: --devices %s: want CUDA ordinals like 0,1\n", v);
            return -1;
        }
        if (l->n == CZ_ENGINE_MAX_DEVICES) {
            fprintf(stderr, "cuzk-bench engine: --devices %s: at most %d devices\n", v,
                    CZ_ENGINE_MAX_DEVICES);
            return -1;
        }
        for (unsigned i = 0; i < l->n; i++)
            if (l->ordinal[i] == (int)d) {
                fprintf(stderr, "cuzk-bench engine: --devices %s: device %ld twice\n", v, d);
                return -1;
            }
        l->ordinal[l->n++] = (int)d;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}

static int parse(int argc, char **argv, opts *o)
{
    *o = (opts){.log = 16, .parts = 2, .jobs = 4, .conc = 2, .synth = 2, .verify = 1,
                .post_every = 2000};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--log") && v)
            o->log = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--partitions") && v)
            o->parts = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--jobs") && v)
            o->jobs = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "-j") && v)
            o->conc = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--synth-workers") && v)
            o->synth = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--prover-threads") && v)
            o->threads = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--synth-threads") && v)
            o->synth_threads = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--sweep") && v)
            o->sweep = v, i++;
        else if (!strcmp(a, "--porep") && v)
            o->porep = v, i++;
        else if (!strcmp(a, "--snap") && v)
            o->snap = v, i++;
        else if (!strcmp(a, "--post") && v)
            o->post = v, i++;
        else if (!strcmp(a, "--post-every") && v)
            o->post_every = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--param-cache") && v)
            o->param_cache = v, i++;
        else if (!strcmp(a, "--miner-id") && v)
            o->miner = v, i++;
        else if (!strcmp(a, "--sector-number") && v)
            o->sector = v, i++;
        else if (!strcmp(a, "--budget") && v) {
            if (strcmp(v, "auto") != 0 && (cz_parse_size(v, &o->budget) != CZ_OK || !o->budget)) {
                fprintf(stderr, "cuzk-bench engine: --budget %s is not \"auto\" or a size "
                                "such as \"512MiB\" or \"64GiB\"\n", v);
                return -1;
            }
            i++;
        }
        else if (!strcmp(a, "--svg") && v)
            o->svg = v, i++;
        else if (!strcmp(a, "--no-verify"))
            o->verify = 0;
        else if (!strcmp(a, "--backend") && v && (!strcmp(v, "cpu") || !strcmp(v, "gpu")))
            o->gpu = !strcmp(v, "gpu"), i++;
        else if (!strcmp(a, "--devices") && v) {
            if (parse_devices(v, &o->devs) != 0)
                return -1;
            o->devices = v, i++;
        } else {
            fprintf(stderr, "%s", USAGE);
            return -1;
        }
    }
    if (o->devices && !o->gpu) {
        fprintf(stderr, "cuzk-bench engine: --devices needs --backend gpu\n");
        return -1;
    }
    if (o->porep && (!o->param_cache || !o->miner || !o->sector)) {
        fprintf(stderr, "cuzk-bench engine: --porep needs --param-cache, --miner-id and "
                        "--sector-number\n");
        return -1;
    }
    if (o->snap && (!o->param_cache || o->porep)) {
        fprintf(stderr, "cuzk-bench engine: --snap needs --param-cache, and excludes --porep\n");
        return -1;
    }
    if (o->post && !o->param_cache) {
        fprintf(stderr, "cuzk-bench engine: --post needs --param-cache\n");
        return -1;
    }
    if (o->jobs < 1 || o->conc < 1 || o->parts < 1) {
        fprintf(stderr, "cuzk-bench engine: --jobs, -j and --partitions must be >= 1\n");
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* the engine's stages, the workers' three first (worker.c; "upload": a
 * witness staged on its device ahead of its prove_start) */
#define N_STAGES 4
static const char *const STAGES[N_STAGES] = {"synth", "prove_start", "prove_finish", "upload"};

static int stage_of(const char *s)
{
    for (int k = 0; k < N_STAGES; k++)
        if (!strcmp(s, STAGES[k]))
            return k;
    return -1;
}

/* Bars in lanes: an event goes to the first lane of its stage free at its
 * start. */
static void write_svg(const char *path, const cz_timeline_event *ev, size_t n, double t0, double t1)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "cuzk-bench engine: cannot write %s\n", path);
        return;
    }
    enum { MAXL = 64, LANE_H = 14, LEFT = 110, W = 1100 };
    double lane_end[N_STAGES][MAXL];
    int lanes[N_STAGES] = {0};
    int *lane_of = calloc(n ? n : 1, sizeof *lane_of);
    for (size_t i = 0; i < n; i++) {
        int s = stage_of(ev[i].stage), l = 0;
        if (s < 0)
            continue;
        while (l < lanes[s] && lane_end[s][l] > ev[i].start_ms)
            l++;
        if (l == MAXL)
            l = MAXL - 1;
        if (l == lanes[s])
            lanes[s]++;
        lane_end[s][l] = ev[i].end_ms;
        lane_of[i] = l;
    }
    int top[N_STAGES], y = 30;
    for (int s = 0; s < N_STAGES; s++) {
        top[s] = y;
        y += (lanes[s] ? lanes[s] : 1) * LANE_H + 16;
    }
    double span = t1 > t0 ? t1 - t0 : 1;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%d\" y=\"18\">cuzk engine timeline: %.0f ms, %zu events (colour: "
            "job)</text>\n",
            LEFT + W + 20, y + 20, LEFT, span, n);
    for (int s = 0; s < N_STAGES; s++)
        fprintf(f, "<text x=\"4\" y=\"%d\">%s</text>\n", top[s] + 11, STAGES[s]);
    for (size_t i = 0; i < n; i++) {
        int s = stage_of(ev[i].stage);
        if (s < 0)
            continue;
        double x = LEFT + (ev[i].start_ms - t0) / span * W;
        double w = (ev[i].end_ms - ev[i].start_ms) / span * W;
        unsigned hue = (unsigned)(ev[i].job_seq * 67 % 360);
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                "fill=\"hsl(%u,70%%,60%%)\" stroke=\"black\" stroke-width=\"0.3\">"
                "<title>job %llu partition %u %s %.1f ms</title></rect>\n",
                x, top[s] + lane_of[i] * LANE_H, w < 0.5 ? 0.5 : w, LANE_H - 2, hue,
                (unsigned long long)ev[i].job_seq, ev[i].partition, ev[i].stage,
                ev[i].end_ms - ev[i].start_ms);
    }
    fprintf(f, "</svg>\n");
    fclose(f);
    free(lane_of);
}

/* PoSt jobs beside a load: one at a time, every `every` ms after the last
 * one ended, until stop; each one's latency, queue wait, synthesis and
 * proving (prove_start + prove_finish) times, and what is left (waiting
 * for the device or a queue, the self-check). */
typedef struct {
    cz_engine *e;
    const cz_job_request *req;
    unsigned every;
    atomic_int stop;
    double lat[4096], queue[4096], synth[4096], prove[4096], rest[4096];
    unsigned n, failed;
    cz_prng rng; /* the gaps (seed 1: the same gaps every run) */
} side_load;

static void *side_run(void *arg)
{
    side_load *sl = arg;
    while (!atomic_load(&sl->stop) && sl->n < 4096) {
        char id[CZ_JOB_ID_MAX], err[512];
        cz_job_result res = {0};
        if (cz_engine_submit(sl->e, sl->req, id, NULL, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "cuzk-bench engine: PoSt submit: %s\n", err);
            sl->failed++;
            break;
        }
        if (cz_engine_await(sl->e, id, -1, &res) != CZ_OK || res.state != CZ_JOB_COMPLETED) {
            fprintf(stderr, "cuzk-bench engine: PoSt job %s: %s\n", id, res.message);
            sl->failed++;
        } else {
            sl->lat[sl->n] = res.total_ms;
            sl->synth[sl->n] = res.synth_ms;
            sl->prove[sl->n] = res.prove_ms;
            sl->rest[sl->n] = res.total_ms - res.queue_ms - res.synth_ms - res.prove_ms;
            sl->queue[sl->n++] = res.queue_ms;
        }
        cz_job_result_free(&res);
        unsigned gap = (unsigned)(cz_prng_next(&sl->rng) % (2 * (uint64_t)sl->every + 1));
        for (unsigned t = 0; t < gap && !atomic_load(&sl->stop); t += 10)
            usleep(10000 < (gap - t) * 1000u ? 10000 : (gap - t) * 1000u);
    }
    return NULL;
}

/* One measured phase: CONC jobs in flight until o->jobs are done, then the
 * report (and the SVG of this phase's events when svg is set); with side
 * (a PoSt request) that one runs beside them (side_run). */
static unsigned phase(cz_engine *e, const opts *o, cz_job_request *req, cz_job_synthetic *in,
                      const char *svg, const cz_job_request *side)
{
    side_load *sl = side ? calloc(1, sizeof *sl) : NULL;
    pthread_t side_th;
    if (sl) {
        sl->e = e, sl->req = side, sl->every = o->post_every;
        cz_prng_seed(&sl->rng, 1);
        if (pthread_create(&side_th, NULL, side_run, sl) != 0) {
            free(sl);
            sl = NULL;
        }
    }
    char err[512];
    int rc = CZ_OK;
    cz_job_result res = {0};
    cz_engine_status st;
    cz_timeline_event *ev0 = malloc(sizeof *ev0 * 65536);
    size_t skip = cz_engine_timeline(e, ev0, 65536);
    cz_engine_reset_peaks(e);
    char(*ids)[CZ_JOB_ID_MAX] = calloc(o->jobs, CZ_JOB_ID_MAX);
    double *lat = calloc(o->jobs, sizeof *lat);
    unsigned submitted = 0, done = 0, failed = 0;
    double t0 = cz_bench_now();
    while (done < o->jobs) {
        while (submitted < o->jobs && submitted - done < o->conc) {
            in->circuit.seed = 1000 + submitted;
            rc = cz_engine_submit(e, req, ids[submitted], NULL, err, sizeof err);
            if (rc != CZ_OK) {
                fprintf(stderr, "cuzk-bench engine: submit: %s\n", err);
                break;
            }
            submitted++;
        }
        if (rc != CZ_OK)
            break;
        /* jobs complete in order of submission closely enough: wait for
         * the oldest outstanding one */
        rc = cz_engine_await(e, ids[done], -1, &res);
        if (rc != CZ_OK || res.state != CZ_JOB_COMPLETED) {
            fprintf(stderr, "cuzk-bench engine: job %s: %s\n", ids[done],
                    rc != CZ_OK ? cz_strerror(rc) : res.message);
            failed++;
        }
        lat[done++] = res.total_ms;
        cz_job_result_free(&res);
    }
    double wall = cz_bench_now() - t0;
    if (sl) {
        atomic_store(&sl->stop, 1);
        pthread_join(side_th, NULL);
    }
    cz_engine_status_get(e, &st);
    size_t n = cz_engine_timeline(e, ev0, 65536);
    cz_timeline_event *ev = ev0;
    if (n > skip) {
        ev = ev0 + skip;
        n -= skip;
    } else {
        n = 0;
    }
    if (done == 0) {
        free(ev0);
        free(ids);
        free(lat);
        return 1;
    }
    qsort(lat, done, sizeof *lat, cmp_double);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  proofs (jobs)      %u (%u failed)\n", done, failed);
    printf("  s/proof            %.3f s   (wall %.2f s)\n", wall / done, wall);
    printf("  latency p50/p95    %.0f / %.0f ms\n", lat[done / 2],
           lat[done * 95 / 100 < done ? done * 95 / 100 : done - 1]);
    printf("  peak RSS           %.1f MiB (sampled in this phase; process %.1f MiB)   peak "
           "untracked %.1f MiB\n",
           (double)st.peak_rss / (1 << 20), (double)ru.ru_maxrss / 1024.0,
           (double)st.peak_untracked / (1 << 20));
    printf("  peak tracked       %.1f MiB   peak reserved %.1f MiB   budget %.1f GiB\n",
           (double)st.mem.peak_allocated / (1 << 20), (double)st.mem.peak_reserved / (1 << 20),
           (double)st.mem.total / (1 << 30));
    for (unsigned d = 0; d < st.n_devices; d++) {
        const cz_engine_device_info *di = &st.devices[d].info;
        if (di->gpu)
            printf("  GPU %d memory       peak %.1f GiB allocated, %.1f GiB reserved of a %.1f GiB "
                   "budget (params %.1f, r1cs %.1f, a/b/c %.1f, witness %.1f, scratch %.1f GiB)\n",
                   di->ordinal, di->mem.peak_allocated / 1073741824.0,
                   di->mem.peak_reserved / 1073741824.0, di->mem.total / 1073741824.0,
                   di->mem.cls[CZ_BUF_PARAMS].high_water_bytes / 1073741824.0,
                   di->mem.cls[CZ_BUF_R1CS].high_water_bytes / 1073741824.0,
                   di->mem.cls[CZ_BUF_ABC].high_water_bytes / 1073741824.0,
                   di->mem.cls[CZ_BUF_WITNESS].high_water_bytes / 1073741824.0,
                   di->mem.cls[CZ_BUF_SCRATCH].high_water_bytes / 1073741824.0);
    }
    double busy[N_STAGES] = {0};
    unsigned staged = 0;
    for (size_t i = 0; i < n; i++) {
        int k = stage_of(ev[i].stage);
        if (k >= 0)
            busy[k] += ev[i].end_ms - ev[i].start_ms;
        staged += k == N_STAGES - 1; /* "upload" */
    }
    unsigned workers[3] = {st.synth_workers, st.prove_workers, st.finalizers};
    for (int k = 0; k < 3; k++)
        printf("  utilisation %-12s %5.1f %%  (%u worker%s)\n", STAGES[k],
               100.0 * busy[k] / (1e3 * wall * workers[k]), workers[k], workers[k] == 1 ? "" : "s");
    if (staged)
        printf("  witnesses staged   %u, %.0f ms in all beside the proofs before theirs\n", staged,
               busy[N_STAGES - 1]);
    if (sl && sl->n) {
        qsort(sl->lat, sl->n, sizeof *sl->lat, cmp_double);
        qsort(sl->queue, sl->n, sizeof *sl->queue, cmp_double);
        double *part[3] = {sl->synth, sl->prove, sl->rest};
        for (int k = 0; k < 3; k++)
            qsort(part[k], sl->n, sizeof *part[k], cmp_double);
        printf("  beside the load    %u %s (%u failed), one at a time: latency p50/max %.0f / "
               "%.0f ms, queue wait p50/max %.0f / %.0f ms\n",
               sl->n, cz_job_kind_name(side->kind), sl->failed, sl->lat[sl->n / 2],
               sl->lat[sl->n - 1], sl->queue[sl->n / 2], sl->queue[sl->n - 1]);
        printf("                     p50/max: synthesis %.0f / %.0f ms, proving %.0f / %.0f ms, "
               "waits and self-check %.0f / %.0f ms\n",
               sl->synth[sl->n / 2], sl->synth[sl->n - 1], sl->prove[sl->n / 2],
               sl->prove[sl->n - 1], sl->rest[sl->n / 2], sl->rest[sl->n - 1]);
    } else if (sl) {
        printf("  beside the load    no %s completed (%u failed)\n", cz_job_kind_name(side->kind),
               sl->failed);
    }
    unsigned side_failed = sl ? sl->failed : 0;
    free(sl);
    if (svg && n > 0) {
        double a = ev[0].start_ms, b = ev[0].end_ms;
        for (size_t i = 0; i < n; i++) {
            if (ev[i].start_ms < a)
                a = ev[i].start_ms;
            if (ev[i].end_ms > b)
                b = ev[i].end_ms;
        }
        write_svg(svg, ev, n, a, b);
        printf("  timeline           %s\n", svg);
    }
    fflush(stdout);
    free(ev0);
    free(ids);
    free(lat);
    return failed + side_failed + (o->jobs - done);
}

int cz_bench_engine(int argc, char **argv)
{
    opts o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    cz_engine_config cfg = {0};
    cfg.memory_budget = o.budget;
    cfg.synthesis_workers = o.synth;
    cfg.prover_threads = o.threads;
    cfg.synthesis_threads = o.synth_threads;
    cfg.param_cache = o.param_cache;
    cfg.no_verify = !o.verify;
    char err[512], id[CZ_JOB_ID_MAX], devices[256] = "";
    cz_backend_ops ops;
    int brc = cz_backend_choose(&ops, o.gpu ? CZ_BACKEND_ONLY_GPU : CZ_BACKEND_ONLY_CPU, &o.devs,
                                err, sizeof err);
    if (brc != CZ_OK) {
        fprintf(stderr, "cuzk-bench engine: --backend gpu%s%s: %s\n", o.devices ? " --devices " : "",
                o.devices ? o.devices : "", err);
        return 1;
    }
    if (o.gpu) {
        if (o.devs.n == 0) { /* every device, named below */
            int count = cz_cuda_device_count();
            for (int d = 0; d < count && d < CZ_ENGINE_MAX_DEVICES; d++)
                o.devs.ordinal[o.devs.n++] = d;
        }
        size_t len = 0;
        for (unsigned i = 0; i < o.devs.n && len < sizeof devices; i++) {
            char name[128] = "";
            if (cz_cuda_set_device(o.devs.ordinal[i]) == CZ_OK)
                cz_cuda_device_name(name, sizeof name);
            len += (size_t)snprintf(devices + len, sizeof devices - len, "%s%d (%s)", i ? ", " : "",
                                    o.devs.ordinal[i], name);
        }
    }
    cfg.backend = &ops;
    cz_engine *e;
    int rc = cz_engine_new(&e, &cfg, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench engine: %s\n", err);
        return 1;
    }
    cz_job_synthetic in = {.circuit = {.log_rows = o.log, .n_public = 4, .seed = 1},
                           .partitions = o.parts};
    cz_job_request req = {.kind = CZ_KIND_SYNTHETIC, .input = &in};
    cz_job_porep pin = {0};
    cz_bench_snap snap = {0};
    uint8_t *c1 = NULL;
    char what[160];
    snprintf(what, sizeof what, "synthetic 2^%u rows, %u partitions/job", o.log, o.parts);
    if (o.porep) {
        cz_fc_c1 parsed;
        if (!(c1 = cz_bench_read_file(o.porep, &pin.c1_len, "engine")) ||
            cz_bench_u64(&pin.miner_id, o.miner, "engine", "--miner-id") ||
            cz_bench_u64(&pin.sector_number, o.sector, "engine", "--sector-number")) {
            free(c1);
            cz_engine_free(e);
            return 2;
        }
        if (cz_fc_c1_read(&parsed, c1, pin.c1_len, NULL, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "cuzk-bench engine: %s: %s\n", o.porep, err);
            free(c1);
            cz_engine_free(e);
            return 2;
        }
        pin.registered_proof = parsed.proof_type->id;
        snprintf(what, sizeof what, "PoRep %s, %u partitions/job", parsed.proof_type->name,
                 parsed.partitions);
        cz_fc_c1_free(&parsed);
        pin.c1 = c1;
        req.kind = CZ_KIND_POREP;
        req.input = &pin;
    }
    if (o.snap) {
        if (cz_bench_snap_load(&snap, o.snap, "engine") != 0) {
            cz_engine_free(e);
            return 2;
        }
        snprintf(what, sizeof what, "SnapDeals %s, %zu partitions/job",
                 cz_fc_snap_proof_shape(snap.req.registered_proof)->name, snap.req.n_vanilla);
        req.kind = CZ_KIND_SNAP;
        req.input = &snap.req;
    }
    req.priority = cz_job_kind_priority(req.kind);
    cz_bench_post_in post = {0};
    cz_job_request post_req = {0}, *side = NULL;
    if (o.post) {
        if (cz_bench_post_load(&post, o.post, "engine") != 0) {
            cz_engine_free(e);
            free(c1);
            cz_bench_snap_free(&snap);
            return 2;
        }
        post_req = (cz_job_request){
            .priority = cz_job_kind_priority(post.kind), .kind = post.kind, .input = &post.req};
        if (o.porep || o.snap) {
            side = &post_req;
        } else {
            snprintf(what, sizeof what, "%s, %zu sectors", post.type->name, post.req.n_vanilla);
            req = post_req;
        }
    }
    cz_job_result res = {0};
    /* warm-up: loads the circuit (recording + setup), not timed */
    double tw = cz_bench_now();
    if ((rc = cz_engine_submit(e, &req, id, NULL, err, sizeof err)) != CZ_OK ||
        (rc = cz_engine_await(e, id, -1, &res)) != CZ_OK || res.state != CZ_JOB_COMPLETED) {
        fprintf(stderr, "cuzk-bench engine: warm-up job failed: %s %s\n", err, res.message);
        cz_engine_free(e);
        free(c1);
        cz_bench_snap_free(&snap);
        cz_bench_post_free(&post);
        return 1;
    }
    cz_job_result_free(&res);
    if (side) { /* its circuit loaded too */
        double ts = cz_bench_now();
        if ((rc = cz_engine_submit(e, side, id, NULL, err, sizeof err)) != CZ_OK ||
            (rc = cz_engine_await(e, id, -1, &res)) != CZ_OK || res.state != CZ_JOB_COMPLETED) {
            fprintf(stderr, "cuzk-bench engine: PoSt warm-up job failed: %s %s\n", err,
                    res.message);
            cz_engine_free(e);
            free(c1);
            cz_bench_snap_free(&snap);
            cz_bench_post_free(&post);
            return 1;
        }
        printf("engine: %s of %zu sectors beside the load: circuit load + warm-up %.2f s, "
               "alone %.0f ms\n",
               post.type->name, post.req.n_vanilla, cz_bench_now() - ts, res.total_ms);
        cz_job_result_free(&res);
    }
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    printf("engine: %s, %u jobs, %u in flight, %u synthesis "
           "workers, %s back end%s%s, %u prover worker%s; circuit load + warm-up job %.2f s\n",
           what, o.jobs, o.conc, st.synth_workers, o.gpu ? "gpu" : "cpu",
           o.gpu ? " on devices " : "", devices, st.prove_workers, st.prove_workers == 1 ? "" : "s",
           cz_bench_now() - tw);
    unsigned failed = 0;
    if (o.sweep == NULL) {
        failed = phase(e, &o, &req, &in, o.svg, side);
    } else {
        /* "1,2,4": the same jobs at each synthesis limit, one load */
        for (const char *p = o.sweep; *p;) {
            char *end;
            unsigned long k = strtoul(p, &end, 10);
            if (end == p || k == 0 || k > st.synth_workers) {
                fprintf(stderr, "cuzk-bench engine: --sweep %s: limits from 1 to the %u synthesis "
                                "workers\n", o.sweep, st.synth_workers);
                failed++;
                break;
            }
            cz_engine_set_synthesis_limit(e, (unsigned)k);
            printf("sweep: at most %lu synthesis at once\n", k);
            fflush(stdout);
            failed += phase(e, &o, &req, &in, p == o.sweep ? o.svg : NULL, side); /* first: svg */
            p = *end == ',' ? end + 1 : end;
        }
    }
    cz_engine_free(e);
    free(c1);
    cz_bench_snap_free(&snap);
    cz_bench_post_free(&post);
    return failed ? 1 : 0;
}
