/* cuzk-bench msm: multi-scalar multiplication timings.
 *
 *   cuzk-bench msm --log N [--g2] [--threads T] [--skewed] [--density P]
 *                  [--window C] [--reps R] [--gpu [--check]]
 *
 * Bases are distinct random points (an arithmetic progression s_i G, built by
 * additions); scalars are uniform in Fr (Montgomery form), or with --skewed
 * witness-like: 45% zero, 45% one, 10% uniform.  With --density P, P% of the
 * scalars have a base (density bitmap, cz_*_msm_density).  Skewed inputs are
 * timed twice: split (ones summed apart, the default) and plain
 * (CZ_MSM_NO_SPLIT).  Prints the median of R runs in ms and ns per scalar,
 * the process CPU time per thread of the same run (less sensitive to other
 * processes on a shared machine), and the load average.
 *
 * --gpu: cz_cuda_g1_msm / cz_cuda_g2_msm with bases and scalars already on
 * the device (uploaded once, one untimed run first); the bases are 2^20
 * distinct points repeated when n is larger (building 2^26 on one CPU
 * thread would take minutes; repetition does not change the work).
 * --check also computes the CPU result once and compares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuzk/cuda.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"

typedef struct {
    int g2;
    size_t n;
    unsigned log, threads, window, reps, density;
    int skewed, gpu, check;
} msm_opts;

#define GPU_DISTINCT ((size_t)1 << 20)

typedef struct {
    void *bases;
    cz_fr *k;
    uint64_t *dens;
    size_t nbases;
    void *scratch;
    size_t scratch_bytes;
    cz_pool *pool;
} msm_data;

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double load_avg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

/* bench.h's progressions, written once for G = g1 and g2. */
#define MAKE_PROGRESSION(G, GEN)                                                                   \
    void cz_bench_##G##_progression(cz_##G##_affine *out, size_t n, const cz_fr *a,                \
                                    const cz_fr *s)                                                \
    {                                                                                              \
        size_t blk = 4096;                                                                         \
        cz_##G p, dp, t, *buf = malloc(blk * sizeof *buf);                                         \
        cz_##G##_from_affine(&t, &GEN);                                                            \
        cz_##G##_mul_var(&p, &t, a);                                                               \
        cz_##G##_mul_var(&dp, &t, s);                                                              \
        for (size_t i = 0; i < n; i += blk) {                                                      \
            size_t m = n - i < blk ? n - i : blk;                                                  \
            for (size_t j = 0; j < m; j++) {                                                       \
                buf[j] = p;                                                                        \
                cz_##G##_add(&p, &p, &dp);                                                         \
            }                                                                                      \
            cz_##G##s_to_affine(out + i, buf, m);                                                  \
        }                                                                                          \
        free(buf);                                                                                 \
    }
MAKE_PROGRESSION(g1, CZ_G1_GENERATOR)
MAKE_PROGRESSION(g2, CZ_G2_GENERATOR)

static void make_bases(msm_data *d, const msm_opts *o, cz_prng *g)
{
    cz_fr a, s;
    cz_fr_random(&a, g);
    cz_fr_random(&s, g);
    size_t m = o->gpu && d->nbases > GPU_DISTINCT ? GPU_DISTINCT : d->nbases;
    size_t bsz = o->g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    if (!o->g2)
        cz_bench_g1_progression(d->bases, m, &a, &s);
    else
        cz_bench_g2_progression(d->bases, m, &a, &s);
    for (size_t i = m; i < d->nbases; i += m) /* tile */
        memcpy((char *)d->bases + i * bsz, d->bases, (d->nbases - i < m ? d->nbases - i : m) * bsz);
}

/* --gpu: median of R runs with the data on the device. */
static int gpu_msm(const msm_opts *o, msm_data *d, unsigned flags)
{
    size_t bsz = o->g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *bdev = NULL, *kdev = NULL;
    char name[128] = "";
    double t[64];
    unsigned reps = o->reps > 64 ? 64 : o->reps;
    cz_g1 r1;
    cz_g2 r2;
    int bad = 0;
    char why[512];
    if (cz_cuda_device_check(-1, why, sizeof why) != CZ_OK) {
        fprintf(stderr, "cuzk-bench: --gpu: %s\n", why);
        return 1;
    }
    cz_cuda_device_name(name, sizeof name);
    int rc = cz_cuda_malloc(&bdev, o->n * bsz, CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_malloc(&kdev, o->n * sizeof(cz_fr), CZ_BUF_OTHER);
    if (rc)
        fprintf(stderr, "cuzk-bench: device buffers for %zu bases and scalars: %s\n", o->n,
                cz_strerror(rc));
    if (!rc)
        rc = cz_cuda_memcpy_h2d(bdev, d->bases, o->n * bsz);
    if (!rc)
        rc = cz_cuda_memcpy_h2d(kdev, d->k, o->n * sizeof(cz_fr));
    for (unsigned i = 0; i <= reps && !rc; i++) { /* run 0: warm-up */
        double t0 = cz_cli_now();
        rc = o->g2 ? cz_cuda_g2_msm(&r2, bdev, kdev, o->n, flags)
                   : cz_cuda_g1_msm(&r1, bdev, kdev, o->n, flags);
        if (i)
            t[i - 1] = (cz_cli_now() - t0) * 1e3;
    }
    if (!rc && o->check) {
        cz_g1 c1;
        cz_g2 c2;
        rc = o->g2 ? cz_g2_msm(&c2, d->bases, d->k, o->n, flags, d->pool, d->scratch,
                               d->scratch_bytes)
                   : cz_g1_msm(&c1, d->bases, d->k, o->n, flags, d->pool, d->scratch,
                               d->scratch_bytes);
        bool same = !rc && (o->g2 ? cz_g2_equal(&c2, &r2) : cz_g1_equal(&c1, &r1));
        printf("check against the CPU: %s\n", same ? "equal" : "DIFFERENT");
        bad = !rc && !same;
    }
    cz_cuda_free(bdev);
    cz_cuda_free(kdev);
    if (rc || bad) {
        fprintf(stderr, "gpu msm failed: %s\n",
                bad ? "result differs from the CPU" : cz_strerror(rc));
        return 1;
    }
    qsort(t, reps, sizeof t[0], cmp_dbl);
    printf("gpu msm %s n=%zu scalars=%s on %s: median %9.2f ms  best %9.2f ms  %6.2f ns/scalar "
           "(%u runs)\nRESULT msm-%s-%s %zu %.3f\n",
           o->g2 ? "G2" : "G1", o->n, o->skewed ? "skewed" : "random", name, t[reps / 2], t[0],
           t[reps / 2] * 1e6 / (double)o->n, reps, o->g2 ? "g2" : "g1",
           o->skewed ? "skewed" : "random", o->n, t[reps / 2]);
    fflush(stdout);
    return 0;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run_once(const msm_opts *o, msm_data *d, unsigned flags, double *ms, double *cpu_ms)
{
    int err;
    cz_g1 r1;
    cz_g2 r2;
    double c0 = cpu_now(), t0 = cz_cli_now();
    if (!o->g2)
        err = d->dens ? cz_g1_msm_density(&r1, d->bases, d->nbases, d->k, d->dens, o->n, flags,
                                          d->pool, d->scratch, d->scratch_bytes)
                      : cz_g1_msm(&r1, d->bases, d->k, o->n, flags, d->pool, d->scratch,
                                  d->scratch_bytes);
    else
        err = d->dens ? cz_g2_msm_density(&r2, d->bases, d->nbases, d->k, d->dens, o->n, flags,
                                          d->pool, d->scratch, d->scratch_bytes)
                      : cz_g2_msm(&r2, d->bases, d->k, o->n, flags, d->pool, d->scratch,
                                  d->scratch_bytes);
    *ms = (cz_cli_now() - t0) * 1e3;
    *cpu_ms = (cpu_now() - c0) * 1e3 / o->threads;
    return err;
}

static int report(const msm_opts *o, msm_data *d, unsigned flags, const char *label)
{
    double t[64], c[64], ms, cms;
    unsigned reps = o->reps > 64 ? 64 : o->reps;
    for (unsigned i = 0; i < reps; i++) {
        int err = run_once(o, d, flags, &ms, &cms);
        if (err != CZ_OK) {
            fprintf(stderr, "msm failed: %s\n", cz_strerror(err));
            return 1;
        }
        t[i] = ms;
        c[i] = cms;
    }
    qsort(t, reps, sizeof t[0], cmp_dbl);
    qsort(c, reps, sizeof c[0], cmp_dbl);
    ms = t[reps / 2];
    printf("msm %s n=%zu threads=%u scalars=%s%s: %9.2f ms %8.1f ns/scalar (min %.2f ms; "
           "cpu/thread %.2f ms; load %.2f)\n",
           o->g2 ? "G2" : "G1", o->n, o->threads, label, d->dens ? " density" : "", ms,
           ms * 1e6 / (double)o->n, t[0], c[reps / 2], load_avg());
    fflush(stdout);
    return 0;
}

int cz_bench_msm(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts a = {0};
    msm_opts o = {.threads = 1, .reps = 3};
    if (cz_cli_parse(self, argc, argv, &a) < 0 ||
        cz_cli_uint(&o.threads, a.threads, self->name, "--threads") ||
        cz_cli_uint(&o.reps, a.reps, self->name, "--reps"))
        return 2;
    o.g2 = a.g2, o.log = a.log, o.skewed = a.skewed, o.density = a.density;
    o.window = a.window, o.gpu = a.gpu, o.check = a.check;
    if (o.log == 0 || o.log > 40 || o.threads < 1 || o.reps < 1 || o.density > 100 ||
        o.window > CZ_MSM_MAX_WINDOW || (o.gpu && o.density) || (o.check && !o.gpu)) {
        cz_cli_usage(stderr, self);
        return 2;
    }
    o.n = (size_t)1 << o.log;

    msm_data d;
    memset(&d, 0, sizeof d);
    cz_prng g;
    cz_prng_seed(&g, 7);
    d.k = malloc(o.n * sizeof *d.k);
    for (size_t i = 0; i < o.n; i++) {
        uint64_t u = cz_prng_next(&g) % 100;
        if (o.skewed && u < 45)
            d.k[i] = CZ_FR_ZERO;
        else if (o.skewed && u < 90)
            d.k[i] = CZ_FR_ONE;
        else
            cz_fr_random(&d.k[i], &g);
    }
    d.nbases = o.n;
    if (o.density) {
        size_t words = (o.n + 63) / 64;
        d.dens = calloc(words, sizeof *d.dens);
        d.nbases = 0;
        for (size_t i = 0; i < o.n; i++)
            if (cz_prng_next(&g) % 100 < o.density) {
                d.dens[i / 64] |= (uint64_t)1 << (i % 64);
                d.nbases++;
            }
    }
    d.bases = malloc(d.nbases * (o.g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine)) + 1);
    make_bases(&d, &o, &g);
    if (o.threads > 1 && cz_pool_new(&d.pool, o.threads - 1) != CZ_OK) {
        fprintf(stderr, "cannot create the pool\n");
        return 1;
    }
    unsigned flags = o.window ? CZ_MSM_WINDOW(o.window) : 0;
    d.scratch_bytes = o.g2 ? cz_g2_msm_scratch_bytes(o.n, o.threads, flags)
                           : cz_g1_msm_scratch_bytes(o.n, o.threads, flags);
    d.scratch = aligned_alloc(CZ_MSM_SCRATCH_ALIGN, (d.scratch_bytes + 63) & ~(size_t)63);
    printf("scratch %.1f MiB\n", (double)d.scratch_bytes / (1 << 20));
    int rc = o.gpu ? gpu_msm(&o, &d, flags)
                   : report(&o, &d, flags, o.skewed ? "skewed(split)" : "random");
    if (!rc && o.skewed && !o.gpu)
        rc = report(&o, &d, flags | CZ_MSM_NO_SPLIT, "skewed(plain)");
    cz_pool_free(d.pool);
    free(d.scratch);
    free(d.bases);
    free(d.k);
    free(d.dens);
    return rc;
}
