/* cuzk-bench ntt / h: the NTT family and the Groth16 H step, on the CPU or
 * (--gpu) on the current CUDA device.
 *
 *   cuzk-bench ntt [--log N | --from A --to B] [--threads T] [--inverse]
 *                  [--coset] [--order NN|NR|RN|RR] [--reps K]
 *                  [--gpu [--batch B] [--compact]]
 *   cuzk-bench h   --log N [--threads T] [--n COUNT] [--reps K] [--gpu [--compact]]
 *
 * --gpu: the data stays on the device; after two untimed runs (which also
 * upload the twiddles), K runs (default 10) are timed one by one with CUDA
 * events and the median and best are printed; --batch B transforms B
 * vectors of the size per call (cz_cuda_ntt_batch).  h --gpu also times the
 * host-to-device copy of a, b, c from pinned memory and, by wall clock, the
 * end-to-end cz_cuda_groth16_h (uploads overlapped with the transforms, the
 * m coefficients copied out) from pinned and from pageable memory.
 * --compact: the device's compact tables (cz_cuda_ntt_compact: each
 * twiddle a product of two small tables' entries, the plans' choice when
 * short of memory) instead of the full twiddle table.  Each GPU size
 * ends with a machine-readable line "RESULT <what> <log> <median ms>".
 *
 * T counts the calling thread: T = 1 runs without a pool, T > 1 on a pool of
 * T - 1 workers plus the caller.  Each size reports the median and the
 * best wall time of K timed runs (after one untimed run), ns per butterfly
 * from the best, (n/2) log2 n butterflies per transform (H: 7 transforms),
 * and the least process CPU time of a run divided by T: on a shared machine
 * that shows what the run would take with the cores to itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/poly.h"

typedef struct {
    unsigned from, to, threads, reps;
    int gpu, compact;
    size_t n;     /* h: evaluations before padding, 0 = all */
    size_t batch; /* ntt --gpu: transforms per call */
    cz_ntt_kind kind;
    cz_ntt_order order;
} opts;

/* argv (argv[0] the command) into *o: 0, or -1 (the usage printed). */
static int parse(const cz_cli_cmd *self, int argc, char **argv, opts *o)
{
    cz_cli_opts a = {.from = 20, .to = 20, .batch = 1};
    *o = (opts){.threads = 1, .order = CZ_NTT_NR};
    if (cz_cli_parse(self, argc, argv, &a) < 0 ||
        cz_cli_uint(&o->threads, a.threads, self->name, "--threads") ||
        cz_cli_uint(&o->reps, a.reps, self->name, "--reps"))
        return -1;
    o->from = a.log ? a.log : a.from, o->to = a.log ? a.log : a.to;
    o->gpu = a.gpu, o->compact = a.compact, o->n = a.n, o->batch = a.batch;
    if (a.order) {
        static const char *const names[] = {"NN", "NR", "RN", "RR"};
        int k = cz_cli_choice(a.order, names, 4, self->name, "--order");
        if (k < 0)
            return -1;
        o->order = (cz_ntt_order)k;
    }
    o->kind = (cz_ntt_kind)((a.coset ? 2 : 0) + a.inverse);
    if (o->from < 1 || o->to > CZ_NTT_MAX_LOG || o->from > o->to || o->threads < 1 ||
        o->threads > 1024 || o->batch < 1 || ((o->batch > 1 || o->compact) && !o->gpu))
        goto bad;
    return 0;
bad:
    cz_cli_usage(stderr, self);
    return -1;
}

/* Uniform enough and cheap: 254-bit values (< r) from the PRNG. */
static void fill(cz_fr *x, size_t n, cz_prng *g)
{
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++)
            x[i].l[j] = cz_prng_next(g);
        x[i].l[3] >>= 2;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* t: wall times, c: CPU times of the reps. */
static void report(const char *what, unsigned k, double *t, double *c, unsigned reps,
                   double butterflies, unsigned threads)
{
    qsort(t, reps, sizeof t[0], cmp_double);
    qsort(c, reps, sizeof c[0], cmp_double);
    double med = t[reps / 2], best = t[0], cpu = c[0] / threads;
    printf("%-16s 2^%-2u T=%-2u median %9.2f ms  best %9.2f ms  %6.2f ns/bfly  |  cpu/T %9.2f ms  "
           "%6.2f ns/bfly\n",
           what, k, threads, med * 1e3, best * 1e3, best * 1e9 / butterflies, cpu * 1e3,
           cpu * 1e9 / butterflies);
    fflush(stdout);
}

static cz_pool *make_pool(unsigned threads)
{
    cz_pool *p = NULL;
    if (threads > 1 && cz_pool_new(&p, threads - 1) != CZ_OK)
        fprintf(stderr, "cuzk-bench: no pool, running on one thread\n");
    return p;
}

static unsigned default_reps(unsigned k) { return k <= 16 ? 9 : k <= 22 ? 5 : 1; }

/* ----------------------------------------------------------------- GPU --- */

#define GPU_WARMUP 2
#define GPU_REPS   10

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Sorts ms[0..reps) and prints one row plus the RESULT line. */
static void gpu_report(const char *what, const char *tag, unsigned k, float *ms, unsigned reps,
                       double butterflies)
{
    qsort(ms, reps, sizeof ms[0], cmp_float);
    float med = ms[reps / 2];
    printf("gpu %-20s 2^%-2u median %9.3f ms  best %9.3f ms", what, k, (double)med, (double)ms[0]);
    if (butterflies > 0)
        printf("  %7.3f ns/bfly", (double)med * 1e6 / butterflies);
    printf("  (%u runs)\nRESULT %s %u %.4f\n", reps, tag, k, (double)med);
    fflush(stdout);
}

static int gpu_fail(const char *what, int rc)
{
    fprintf(stderr, "cuzk-bench: GPU %s failed: %s\n", what, cz_strerror(rc));
    return 1;
}

/* Whether the current device can run this build's kernels (else why, on
 * stderr); prints its name. */
static bool gpu_ready(void)
{
    char why[512], name[128];
    if (cz_cuda_device_check(-1, why, sizeof why) != CZ_OK) {
        fprintf(stderr, "cuzk-bench: --gpu: %s\n", why);
        return false;
    }
    cz_cuda_device_name(name, sizeof name);
    printf("device: %s\n", name);
    return true;
}

static int gpu_ntt(const opts *o, const char *what)
{
    static const char *tags[] = {"ntt", "intt", "coset-ntt", "coset-intt"};
    static const char *order_tags[] = {"NN", "NR", "RN", "RR"};
    char tag[32];
    if (o->batch > 1)
        snprintf(tag, sizeof tag, "%s-%s-b%zu", tags[o->kind], order_tags[o->order], o->batch);
    else
        snprintf(tag, sizeof tag, "%s-%s", tags[o->kind], order_tags[o->order]);
    if (!gpu_ready())
        return 1;
    unsigned reps = o->reps ? o->reps : GPU_REPS;
    cz_cuda_timer *tm = NULL;
    float *ms = calloc(reps, sizeof *ms);
    int rc = ms ? cz_cuda_timer_new(&tm) : CZ_ERR_NOMEM;
    if (rc)
        return gpu_fail("timer", rc);
    cz_prng g;
    cz_prng_seed(&g, 1);
    for (unsigned k = o->from; k <= o->to && !rc; k++) {
        size_t n = (size_t)1 << k, total = n * o->batch;
        cz_ntt_domain *d = NULL;
        cz_fr *x = malloc(total * sizeof(cz_fr)), *dev = NULL;
        rc = x ? cz_ntt_domain_new(&d, k) : CZ_ERR_NOMEM;
        if (!rc)
            rc = cz_cuda_prepare(d);
        if (!rc && o->compact)
            rc = cz_cuda_ntt_compact(d);
        if (!rc)
            rc = cz_cuda_malloc((void **)&dev, total * sizeof(cz_fr), CZ_BUF_OTHER);
        if (!rc) {
            fill(x, total, &g);
            rc = cz_cuda_memcpy_h2d(dev, x, total * sizeof(cz_fr));
        }
        for (unsigned r = 0; r < GPU_WARMUP && !rc; r++)
            rc = cz_cuda_ntt_batch(d, dev, o->batch, o->kind, o->order);
        if (!rc)
            rc = cz_cuda_sync();
        for (unsigned r = 0; r < reps && !rc; r++) {
            rc = cz_cuda_timer_start(tm);
            if (!rc)
                rc = cz_cuda_ntt_batch(d, dev, o->batch, o->kind, o->order);
            if (!rc)
                rc = cz_cuda_timer_stop(tm, &ms[r]);
        }
        if (o->batch > 1)
            printf("batch of %zu transforms per call:\n", o->batch);
        if (!rc)
            gpu_report(what, tag, k, ms, reps, (double)(n / 2) * k * (double)o->batch);
        else
            gpu_fail(what, rc);
        cz_cuda_free(dev);
        free(x);
        cz_ntt_domain_free(d);
        cz_cuda_release(); /* one size's tables at a time */
    }
    cz_cuda_timer_free(tm);
    free(ms);
    return rc ? 1 : 0;
}

static int gpu_h(const opts *o, unsigned k, size_t n)
{
    if (!gpu_ready())
        return 1;
    size_t m = (size_t)1 << k, bytes = m * sizeof(cz_fr);
    unsigned reps = o->reps ? o->reps : GPU_REPS;
    cz_cuda_timer *tm = NULL;
    cz_ntt_domain *d = NULL;
    cz_fr *host = NULL, *dev = NULL;
    float *ms = calloc(4 * (size_t)reps, sizeof *ms);
    cz_fr *pageable = malloc(3 * bytes);
    int rc = ms && pageable ? cz_cuda_timer_new(&tm) : CZ_ERR_NOMEM;
    if (!rc)
        rc = cz_ntt_domain_new(&d, k);
    if (!rc)
        rc = cz_cuda_prepare(d);
    if (!rc && o->compact)
        rc = cz_cuda_ntt_compact(d);
    if (!rc)
        rc = cz_cuda_host_alloc((void **)&host, 3 * bytes);
    if (!rc)
        rc = cz_cuda_malloc((void **)&dev, 3 * bytes, CZ_BUF_OTHER);
    if (rc) {
        gpu_fail("h setup", rc);
    } else {
        cz_prng g;
        cz_prng_seed(&g, 1);
        fill(host, 3 * m, &g);
        memcpy(pageable, host, 3 * bytes);
        cz_fr *a = dev, *b = dev + m, *c = dev + 2 * m;
        for (unsigned r = 0; r < GPU_WARMUP && !rc; r++) {
            rc = cz_cuda_memcpy_h2d(dev, host, 3 * bytes);
            if (!rc)
                rc = cz_cuda_groth16_h_dev(d, a, b, c, n);
            if (!rc)
                rc = cz_cuda_sync();
        }
        float *h2d = ms + reps, *e2e = ms + 2 * (size_t)reps, *e2e_pg = ms + 3 * (size_t)reps;
        for (unsigned r = 0; r < reps && !rc; r++) {
            /* a, b, c in: n elements each from pinned memory */
            rc = cz_cuda_timer_start(tm);
            for (int i = 0; i < 3 && !rc; i++)
                rc = cz_cuda_memcpy_h2d(dev + i * m, host + i * m, n * sizeof(cz_fr));
            if (!rc)
                rc = cz_cuda_timer_stop(tm, &h2d[r]);
            if (!rc)
                rc = cz_cuda_timer_start(tm);
            if (!rc)
                rc = cz_cuda_groth16_h_dev(d, a, b, c, n);
            if (!rc)
                rc = cz_cuda_timer_stop(tm, &ms[r]);
            /* end to end through the host API (uploads overlapped with
             * the transforms, m coefficients back into a): from pinned
             * memory, then from ordinary pageable memory */
            for (int pg = 0; pg < 2 && !rc; pg++) {
                cz_fr *src = pg ? pageable : host;
                double t0 = cz_cli_now();
                rc = cz_cuda_groth16_h(d, src, src + m, src + 2 * m, n);
                (pg ? e2e_pg : e2e)[r] = (float)((cz_cli_now() - t0) * 1e3);
                if (!rc)
                    fill(src, m, &g); /* a's input again */
            }
        }
        if (!rc) {
            gpu_report("groth16 h (on device)", "h", k, ms, reps, 7.0 * (double)(m / 2) * k);
            gpu_report("h2d a,b,c (pinned)", "h2d", k, h2d, reps, 0);
            gpu_report("h end to end, pinned", "h-e2e", k, e2e, reps, 0);
            gpu_report("h end to end, pageable", "h-e2e-pageable", k, e2e_pg, reps, 0);
            printf("h2d bandwidth %.1f GB/s\n",
                   3.0 * (double)(n * sizeof(cz_fr)) / (h2d[reps / 2] * 1e6));
        } else {
            gpu_fail("h", rc);
        }
    }
    cz_cuda_free(dev);
    cz_cuda_host_free(host);
    free(pageable);
    cz_ntt_domain_free(d);
    cz_cuda_timer_free(tm);
    cz_cuda_release();
    free(ms);
    return rc ? 1 : 0;
}

int cz_bench_ntt(const cz_cli_cmd *self, int argc, char **argv)
{
    static const char *kind_names[] = {"ntt", "intt", "coset-ntt", "coset-intt"};
    static const char *order_names[] = {"NN", "NR", "RN", "RR"};
    opts o;
    if (parse(self, argc, argv, &o))
        return 2;
    char what[32];
    snprintf(what, sizeof what, "%s %s", kind_names[o.kind], order_names[o.order]);
    if (o.gpu)
        return gpu_ntt(&o, what);
    cz_pool *pool = make_pool(o.threads);
    cz_prng g;
    cz_prng_seed(&g, 1);
    for (unsigned k = o.from; k <= o.to; k++) {
        size_t n = (size_t)1 << k;
        unsigned reps = o.reps ? o.reps : default_reps(k);
        cz_ntt_domain *d;
        cz_fr *x = aligned_alloc(64, n * sizeof(cz_fr));
        double *t = calloc(2 * (size_t)reps, sizeof *t);
        if (!x || !t || cz_ntt_domain_new(&d, k) != CZ_OK) {
            fprintf(stderr, "cuzk-bench: out of memory at 2^%u\n", k);
            free(x);
            free(t);
            cz_pool_free(pool);
            return 1;
        }
        fill(x, n, &g);
        cz_ntt(d, x, o.kind, o.order, pool);
        for (unsigned r = 0; r < reps; r++) {
            double t0 = cz_cli_now(), c0 = cpu_now();
            cz_ntt(d, x, o.kind, o.order, pool);
            t[reps + r] = cpu_now() - c0;
            t[r] = cz_cli_now() - t0;
        }
        report(what, k, t, t + reps, reps, (double)(n / 2) * k, o.threads);
        cz_ntt_domain_free(d);
        free(x);
        free(t);
    }
    cz_pool_free(pool);
    return 0;
}

int cz_bench_h(const cz_cli_cmd *self, int argc, char **argv)
{
    opts o;
    if (parse(self, argc, argv, &o))
        return 2;
    unsigned k = o.from, reps = o.reps ? o.reps : default_reps(k);
    size_t m = (size_t)1 << k, n = o.n && o.n <= m ? o.n : m;
    if (o.gpu)
        return gpu_h(&o, k, n);
    cz_pool *pool = make_pool(o.threads);
    cz_prng g;
    cz_prng_seed(&g, 1);
    cz_ntt_domain *d = NULL;
    cz_fr *v[3];
    double *t = calloc(2 * (size_t)reps, sizeof *t);
    int ok = t && cz_ntt_domain_new(&d, k) == CZ_OK;
    for (int i = 0; i < 3; i++)
        ok &= (v[i] = aligned_alloc(64, m * sizeof(cz_fr))) != NULL;
    if (ok) {
        for (int i = 0; i < 3; i++)
            fill(v[i], n, &g);
        cz_groth16_h(d, v[0], v[1], v[2], n, pool);
        for (unsigned r = 0; r < reps; r++) {
            double t0 = cz_cli_now(), c0 = cpu_now();
            cz_groth16_h(d, v[0], v[1], v[2], n, pool);
            t[reps + r] = cpu_now() - c0;
            t[r] = cz_cli_now() - t0;
        }
        report("groth16 h", k, t, t + reps, reps, 7.0 * (double)(m / 2) * k, o.threads);
    } else {
        fprintf(stderr, "cuzk-bench: out of memory at 2^%u\n", k);
    }
    for (int i = 0; i < 3; i++)
        free(v[i]);
    free(t);
    cz_ntt_domain_free(d);
    cz_pool_free(pool);
    return ok ? 0 : 1;
}
