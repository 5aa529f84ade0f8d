/* cuzk-bench gpu-partition: the GPU part of one 32 GiB PoRep C2 partition
 * (cz_cuda_groth16_start: H and every MSM), timed step by step.
 *
 *   cuzk-bench gpu-partition [--log L] [--reps R] [--distinct D] [--pinned]
 *
 * Shape: the measured 32 GiB PoRep partition (../facts: 130,278,869 rows,
 * 328 inputs, 130,169,893 aux, A aux density 129,753,292, B inputs 1, B aux
 * 33,112,281, domain 2^27) scaled by 2^(L - 27); L = 27 is the real size.
 * The assignment is witness-like (45.4% zeros, 45.4% ones, 9.2% uniform,
 * as the synthetic circuit's); a, b, c are uniform (H's scalars come out
 * of the transforms uniform whatever they are).  The parameters are D
 * distinct points per query (progressions, default 2^20 = 96 MiB of G1,
 * more than the L2 cache) repeated to length: a real 2^27 setup takes
 * hours and repetition does not change the work.  a, b, c and w are in
 * pageable memory as the engine's are, or page-locked with --pinned.
 *
 * The first call uploads the parameters (reported as "cold"; with
 * CZ_CUDA_STREAM_PARAMS=1 it page-locks the host arrays instead, and every
 * call streams them); then R
 * calls are timed (wall clock, host included) and the median reported
 * with the median of each step.  Needs about 45 GiB of device memory for
 * the parameters and 17 GiB per proof at L = 27, and 62 GiB of host
 * memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/poly.h"
#include "cuzk/pool.h"
#include "cuzk/rand.h"

typedef struct {
    unsigned log, reps;
    size_t distinct;
    int pinned;
} part_opts;

typedef struct {
    void *dst;
    const void *src;
    size_t n, m, sz; /* fill n elements of sz bytes from the first m */
} tile_ctx;

static void tile_task(void *ctx, size_t begin, size_t end)
{
    const tile_ctx *t = ctx;
    for (size_t i = begin; i < end; i++) {
        size_t off = i * t->m, len = t->n - off < t->m ? t->n - off : t->m;
        memcpy((char *)t->dst + off * t->sz, t->src, len * t->sz);
    }
}

/* n elements repeating the m of src, copied by the pool. */
static void tile(cz_pool *pool, void *dst, const void *src, size_t n, size_t m, size_t sz)
{
    tile_ctx t = {dst, src, n, m, sz};
    cz_pool_parallel_for(pool, (n + m - 1) / m, 1, tile_task, &t);
}

typedef struct {
    cz_fr *v;
    uint64_t seed;
    int witness;
} fill_ctx;

static void fill_task(void *ctx, size_t begin, size_t end)
{
    const fill_ctx *f = ctx;
    cz_prng g;
    cz_prng_seed(&g, f->seed ^ (begin * 0x9e3779b97f4a7c15ull));
    for (size_t i = begin; i < end; i++) {
        uint32_t r = (uint32_t)cz_prng_next(&g) % 1000;
        if (f->witness && r < 454)
            f->v[i] = CZ_FR_ZERO;
        else if (f->witness && r < 908)
            f->v[i] = CZ_FR_ONE;
        else
            cz_fr_random(&f->v[i], &g);
    }
}

static void fill(cz_pool *pool, cz_fr *v, size_t n, uint64_t seed, int witness)
{
    fill_ctx f = {v, seed, witness};
    cz_pool_parallel_for(pool, n, 1 << 16, fill_task, &f);
}

/* A bitmap of n bits with the first `ones` of a random order set:
 * positions chosen by a stride walk, so the set bits spread evenly. */
static uint64_t *bitmap(size_t n, size_t ones)
{
    uint64_t *b = calloc((n + 63) / 64 + 1, sizeof *b);
    if (!b)
        return NULL;
    for (size_t k = 0; k < ones; k++) {
        size_t i = (size_t)((unsigned __int128)k * n / ones);
        b[i / 64] |= (uint64_t)1 << (i % 64);
    }
    return b;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return v[n / 2];
}

static int parse(int argc, char **argv, part_opts *o)
{
    *o = (part_opts){.log = 27, .reps = 3, .distinct = (size_t)1 << 20};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--log") && v)
            o->log = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--reps") && v)
            o->reps = (unsigned)atoi(v), i++;
        else if (!strcmp(a, "--distinct") && v)
            o->distinct = (size_t)strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--pinned"))
            o->pinned = 1;
        else {
            fprintf(stderr, "usage: cuzk-bench gpu-partition [--log L] [--reps R] "
                            "[--distinct D] [--pinned]\n");
            return -1;
        }
    }
    if (o->log < 12 || o->log > 27 || o->reps < 1 || o->reps > 32 || o->distinct < 1) {
        fprintf(stderr, "cuzk-bench gpu-partition: --log 12..27, --reps 1..32, --distinct >= 1\n");
        return -1;
    }
    return 0;
}

/* 32 GiB PoRep partition, ../facts/filecoin-c2.md */
#define P_ROWS   130278869.0
#define P_IN     328
#define P_AUX    130169893.0
#define P_A_AUX  129753292.0
#define P_B_AUX  33112281.0
#define P_DOMAIN 134217728.0

int cz_bench_gpu_partition(int argc, char **argv)
{
    part_opts o;
    if (parse(argc, argv, &o))
        return 2;
    if (!cz_cuda_available()) {
        fprintf(stderr, "cuzk-bench gpu-partition: no CUDA device (or no CUDA in this build)\n");
        return 1;
    }
    double f = (double)((size_t)1 << o.log) / P_DOMAIN;
    size_t m = (size_t)1 << o.log, rows = (size_t)(P_ROWS * f), n_in = P_IN;
    size_t n_aux = (size_t)(P_AUX * f), ca = (size_t)(P_A_AUX * f), cba = (size_t)(P_B_AUX * f);
    size_t n = n_in + n_aux, n_b = 1 + cba, n_a = n_in + ca;
    size_t dis = o.distinct;
    cz_pool *pool = NULL;
    cz_ntt_domain *dom = NULL;
    cz_g1_affine *g1d = malloc((dis < m ? dis : m) * sizeof *g1d), *h = NULL, *l = NULL, *a = NULL,
                 *b1 = NULL;
    cz_g2_affine *g2d = malloc((dis < n_b ? dis : n_b) * sizeof *g2d), *b2 = NULL;
    cz_fr *abc = NULL, *w = NULL;
    uint64_t *dens[3] = {bitmap(n_aux, ca), bitmap(n_in, 1), bitmap(n_aux, cba)};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = cz_pool_new(&pool, cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned)cpus);
    if (!rc)
        rc = cz_ntt_domain_new(&dom, o.log);
    size_t g1b = sizeof(cz_g1_affine);
    h = malloc((m - 1) * g1b), l = malloc(n_aux * g1b), a = malloc(n_a * g1b);
    b1 = malloc(n_b * g1b), b2 = malloc(n_b * sizeof(cz_g2_affine));
    if (o.pinned) {
        if (!rc)
            rc = cz_cuda_host_alloc((void **)&abc, 3 * m * sizeof(cz_fr));
        if (!rc)
            rc = cz_cuda_host_alloc((void **)&w, n * sizeof(cz_fr));
    } else {
        abc = malloc(3 * m * sizeof(cz_fr));
        w = malloc(n * sizeof(cz_fr));
    }
    if (rc || !g1d || !g2d || !h || !l || !a || !b1 || !b2 || !abc || !w || !dens[0] || !dens[1] ||
        !dens[2]) {
        fprintf(stderr, "cuzk-bench gpu-partition: setup of 2^%u failed: %s\n", o.log,
                cz_strerror(rc ? rc : CZ_ERR_NOMEM));
        rc = rc ? rc : CZ_ERR_NOMEM;
        goto out;
    }
    double t0 = cz_bench_now();
    cz_prng g;
    cz_prng_seed(&g, 0x70726570ull + o.log);
    cz_fr s0, s1;
    cz_fr_random(&s0, &g);
    cz_fr_random(&s1, &g);
    size_t d1 = dis < m ? dis : m, d2 = dis < n_b ? dis : n_b;
    cz_bench_g1_progression(g1d, d1, &s0, &s1);
    cz_bench_g2_progression(g2d, d2, &s1, &s0);
    tile(pool, h, g1d, m - 1, d1, g1b);
    tile(pool, l, g1d, n_aux, d1, g1b);
    tile(pool, a, g1d, n_a, d1, g1b);
    tile(pool, b1, g1d, n_b, d1, g1b);
    tile(pool, b2, g2d, n_b, d2, sizeof(cz_g2_affine));
    fill(pool, abc, 3 * m, 1, 0);
    fill(pool, w, n, 2, 1);
    w[0] = CZ_FR_ONE;
    double t1 = cz_bench_now();
    char name[128] = "";
    cz_cuda_device_name(name, sizeof name);
    printf("gpu-partition 2^%u on %s: rows %zu, inputs %zu, aux %zu, A aux %zu, B aux %zu; "
           "%zu distinct bases; a, b, c, w %s; host data made in %.1f s\n",
           o.log, name, rows, n_in, n_aux, ca, cba, dis, o.pinned ? "page-locked" : "pageable",
           t1 - t0);
    cz_cuda_params_view pv = {h, h, l, a, b1, b2, m - 1, n_aux, n_a, n_b, n_b};
    const uint64_t *dc[3] = {dens[0], dens[1], dens[2]};
    cz_cuda_groth16_sums s;
    double tot[32], st[6][32];
    for (unsigned r = 0; r <= o.reps && !rc; r++) {
        double c0 = cz_bench_now();
        rc = cz_cuda_groth16_start(&s, &pv, dom, abc, abc + m, abc + 2 * m, rows, 0, w, n_in, n_aux,
                                   dc);
        double c1 = cz_bench_now();
        if (rc)
            break;
        if (r == 0) {
            const char *e = getenv("CZ_CUDA_STREAM_PARAMS");
            printf("cold (%s): %.1f ms\n",
                   e && *e && strcmp(e, "0") ? "parameters streamed: host arrays page-locked"
                                             : "parameters uploaded, tables built",
                   (c1 - c0) * 1e3);
            continue;
        }
        tot[r - 1] = (c1 - c0) * 1e3;
        const double v[6] = {s.ms.h,     s.ms.msm_h,    s.ms.msm_l,
                             s.ms.msm_a, s.ms.msm_b_g1, s.ms.msm_b_g2};
        for (int k = 0; k < 6; k++)
            st[k][r - 1] = v[k];
    }
    if (rc) {
        fprintf(stderr, "cuzk-bench gpu-partition: cz_cuda_groth16_start: %s\n", cz_strerror(rc));
        goto out;
    }
    static const char *const steps[6] = {"upload + H", "MSM H",    "MSM L",
                                         "MSM A",      "MSM B_g1", "MSM B_g2"};
    printf("warm, median of %u: %.1f ms per partition (target 500)\n", o.reps, median(tot, o.reps));
    for (int k = 0; k < 6; k++)
        printf("  %-12s %9.1f ms\n", steps[k], median(st[k], o.reps));
out:
    cz_cuda_params_release(h);
    cz_ntt_domain_free(dom);
    cz_pool_free(pool);
    if (o.pinned) {
        cz_cuda_host_free(abc);
        cz_cuda_host_free(w);
    } else {
        free(abc);
        free(w);
    }
    free(g1d), free(g2d), free(h), free(l), free(a), free(b1), free(b2);
    for (int k = 0; k < 3; k++)
        free(dens[k]);
    return rc ? 1 : 0;
}
