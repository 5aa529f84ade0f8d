/* cuzk-bench gpu-partition: the GPU part of one 32 GiB PoRep C2 partition
 * (cz_cuda_groth16_start_r1cs: w's upload, a, b, c on the device, H and
 * every MSM), timed step by step.
 *
 *   cuzk-bench gpu-partition [--log L] [--reps R] [--distinct D] [--pinned]
 *                            [--pce FILE | --host-abc] [--uniform]
 *                            [--budgets card,48GiB,16GiB,...] [--pipelined N]
 *
 * Shape: the measured 32 GiB PoRep partition (130,278,869 rows, 328
 * inputs, 130,169,893 aux, A aux density 129,753,292, B inputs 1, B aux
 * 33,112,281, domain 2^27) scaled by 2^(L - 27); L = 27 is the real size.
 * The matrices are synthetic with the 32GiB circuit's statistics (per row
 * A 2.3 entries, 62% general; B 1.0, 0.02% general; C 2.17, 11% general;
 * 1,800 distinct coefficients), rows' columns uniform over the assignment
 * (the real circuit's are clustered, so its gathers hit the cache more
 * often); --pce FILE takes a real pre-compiled R1CS instead (its counts
 * then set the shape, and L is its domain).  --host-abc times the path
 * the device SpMV replaced: a, b, c uniform on the host, uploaded.  The
 * assignment is witness-like (45.4% zeros, 45.4% ones, 9.2% uniform, as
 * the synthetic circuit's), or with --uniform all uniform (a Poseidon
 * circuit's, the WindowPoSt partition's: its index bits are under 1% of
 * its aux).  The parameters are D distinct points per
 * query (progressions, default 2^20 = 96 MiB of G1, more than the L2
 * cache) repeated to length: a real 2^27 setup takes hours and repetition
 * does not change the work.  w (and a, b, c) are in pageable memory as
 * the engine's are, or page-locked with --pinned.
 *
 * The first call makes the device memory plan (docs/device-memory.md),
 * uploads what it keeps and page-locks what it streams (reported as
 * "cold"); then R calls are timed (wall clock, host included) and the
 * median reported with the median of each step, the plan, the bases
 * streamed and the base pipe's rate, and the device memory account's
 * peak.  --budgets sweeps device budgets ("card": the card's own), each
 * from a fresh device state, and ends with a table; a budget no plan fits
 * is reported refused, with the bytes the smallest plan needs.
 * --pipelined N then proves N partitions back to back twice at each
 * budget: each partition's witness staged on the device on a second
 * thread while the one before proves (cz_cuda_witness_stage, as the
 * engine's prover workers do), and each uploading its own; both per
 * partition.  Needs about 70 GiB of host memory at L = 27. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/cs.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/poly.h"
#include "cuzk/pool.h"
#include "cuzk/rand.h"
#include "cuzk/units.h"

#define MAX_BUDGETS 16

typedef struct {
    unsigned log, reps, pipelined;
    uint64_t distinct;
    int pinned, host_abc, uniform;
    const char *pce;
    uint64_t budgets[MAX_BUDGETS]; /* device budgets to sweep (0: the card's) */
    unsigned n_budgets;            /* 0: the card's alone */
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

static int parse(const cz_cli_cmd *self, int argc, char **argv, part_opts *o)
{
    cz_cli_opts a = {.log = 27, .distinct = (size_t)1 << 20};
    *o = (part_opts){.reps = 3};
    if (cz_cli_parse(self, argc, argv, &a) < 0 || cz_cli_uint(&o->reps, a.reps, self->name, "--reps"))
        return -1;
    o->log = a.log, o->distinct = a.distinct, o->pinned = a.pinned, o->host_abc = a.host_abc;
    o->pce = a.pce, o->uniform = a.uniform, o->pipelined = a.pipelined;
    if (a.budgets) {
        char list[512];
        snprintf(list, sizeof list, "%s", a.budgets);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            uint64_t b = 0;
            if (o->n_budgets == MAX_BUDGETS ||
                (strcmp(t, "card") && (cz_parse_size(t, &b) != CZ_OK || !b))) {
                fprintf(stderr,
                        "cuzk-bench gpu-partition: --budgets: '%s' is not a size "
                        "such as 16GiB or \"card\" (at most %d)\n",
                        t, MAX_BUDGETS);
                return -1;
            }
            o->budgets[o->n_budgets++] = b;
        }
    }
    if (o->pce && o->host_abc) {
        fprintf(stderr, "cuzk-bench gpu-partition: --pce and --host-abc exclude each other\n");
        return -1;
    }
    if (o->log < 12 || o->log > 27 || o->reps < 1 || o->reps > 32 || o->distinct < 1 ||
        o->pipelined > 64 || (o->pipelined && o->host_abc)) {
        fprintf(stderr, "cuzk-bench gpu-partition: --log 12..27, --reps 1..32, --distinct >= 1, "
                        "--pipelined 0..64 (not with --host-abc)\n");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------ synthetic matrices --- */

/* Row lengths 1..4 by cumulative percent, and the share of general entries
 * (per 100,000), per matrix: the 32GiB PoRep circuit's means (A 2.37
 * entries a row, 62% general; B 1.00, 0.02%; C 2.17, 11%). */
static const unsigned len_cdf[3][4] = {{25, 60, 85, 100}, {100, 100, 100, 100}, {30, 63, 90, 100}};
static const unsigned gen_share[3] = {62000, 20, 11000};
#define SYN_DICT 1800

typedef struct {
    uint64_t *row_blk, *coef_blk;
    uint32_t *row_off, *col, *gidx;
    uint64_t nnz, ngen;
} syn_csr;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static unsigned row_len(int k, size_t r)
{
    unsigned u = (unsigned)(mix((uint64_t)k << 40 ^ r) % 100), l = 0;
    while (u >= len_cdf[k][l])
        l++;
    return l + 1;
}

static bool entry_gen(int k, size_t r, unsigned j)
{
    return mix((uint64_t)k << 40 ^ r ^ (uint64_t)(j + 1) << 36) % 100000 < gen_share[k];
}

typedef struct {
    syn_csr *m;
    int k;
    size_t rows, cols;
    uint64_t *blk_n, *blk_g; /* pass 1: per block entries and general entries */
    int fill;
} syn_ctx;

static void syn_task(void *ctx, size_t begin, size_t end)
{
    const syn_ctx *x = ctx;
    syn_csr *m = x->m;
    for (size_t b = begin; b < end; b++) {
        size_t r0 = b * 64, r1 = r0 + 64 < x->rows ? r0 + 64 : x->rows;
        uint64_t e = x->fill ? m->row_blk[b] : 0, g = x->fill ? m->coef_blk[b] : 0;
        uint64_t e_blk = e;
        for (size_t r = r0; r < r1; r++) {
            unsigned len = row_len(x->k, r);
            if (x->fill)
                m->row_off[r] = (uint32_t)(e - e_blk);
            uint32_t c[4];
            for (unsigned j = 0; j < len; j++) {
                c[j] = (uint32_t)(mix(r * 4 + j + ((uint64_t)x->k << 50)) % (x->cols - 4));
                for (unsigned i = j; i > 0 && c[i] < c[i - 1]; i--) { /* keep sorted */
                    uint32_t t = c[i];
                    c[i] = c[i - 1], c[i - 1] = t;
                }
            }
            for (unsigned j = 1; j < len; j++)
                if (c[j] <= c[j - 1])
                    c[j] = c[j - 1] + 1;
            for (unsigned j = 0; j < len; j++, e++) {
                bool gen = entry_gen(x->k, r, j);
                if (x->fill) {
                    uint32_t kind = gen ? CZ_CSR_GEN : (mix(r ^ j) % 5 ? CZ_CSR_ONE : CZ_CSR_NEG);
                    m->col[e] = kind << 30 | c[j];
                    if (gen)
                        m->gidx[g] = (uint32_t)(mix(r * 7 + j) % SYN_DICT);
                }
                g += gen;
            }
        }
        if (!x->fill) {
            x->blk_n[b] = e;
            x->blk_g[b] = g;
        } else if (r1 == x->rows) { /* begin(rows) = nnz */
            m->row_off[r1] = x->rows % 64 ? (uint32_t)(e - e_blk) : 0;
        }
    }
}

/* Matrix k of a rows x cols synthetic system, built on pool. */
static int syn_make(syn_csr *m, int k, size_t rows, size_t cols, cz_pool *pool)
{
    size_t nb = (rows + 63) / 64 + 1; /* the format's rows / 64 + 1, or one more */
    memset(m, 0, sizeof *m);
    syn_ctx x = {m, k, rows, cols, calloc(nb, 8), calloc(nb, 8), 0};
    m->row_blk = calloc(nb, 8), m->coef_blk = calloc(nb, 8);
    m->row_off = calloc(rows + 1, 4);
    if (!x.blk_n || !x.blk_g || !m->row_blk || !m->coef_blk || !m->row_off) {
        free(x.blk_n), free(x.blk_g);
        return CZ_ERR_NOMEM;
    }
    size_t blocks = (rows + 63) / 64;
    cz_pool_parallel_for(pool, blocks, 256, syn_task, &x);
    for (size_t b = 0; b < blocks; b++) {
        m->row_blk[b + 1] = m->row_blk[b] + x.blk_n[b];
        m->coef_blk[b + 1] = m->coef_blk[b] + x.blk_g[b];
    }
    m->nnz = m->row_blk[blocks], m->ngen = m->coef_blk[blocks];
    free(x.blk_n), free(x.blk_g);
    m->col = malloc((m->nnz ? m->nnz : 1) * 4), m->gidx = malloc((m->ngen ? m->ngen : 1) * 4);
    if (!m->col || !m->gidx)
        return CZ_ERR_NOMEM;
    x.fill = 1;
    cz_pool_parallel_for(pool, blocks, 256, syn_task, &x);
    return CZ_OK;
}

static void syn_free(syn_csr *m)
{
    free(m->row_blk), free(m->coef_blk), free(m->row_off), free(m->col), free(m->gidx);
}

/* 32 GiB PoRep partition, ../facts/filecoin-c2.md */
#define P_ROWS   130278869.0
#define P_IN     328
#define P_AUX    130169893.0
#define P_A_AUX  129753292.0
#define P_B_AUX  33112281.0
#define P_DOMAIN 134217728.0

static void print_devmem(void)
{
    cz_cuda_mem_snapshot ms;
    if (cz_cuda_mem_snapshot_of(0, &ms) != CZ_OK)
        return;
    double g = 1.0 / (1 << 30);
    printf("device memory: budget %.1f GiB, peak reserved %.1f GiB, peak allocated %.1f GiB "
           "(class high water:",
           ms.budget * g, ms.peak_reserved * g, ms.peak_allocated * g);
    for (int c = 0; c < CZ_BUF__COUNT; c++)
        if (ms.cls[c].high_water_bytes)
            printf(" %s %.2f", cz_buf_class_name((cz_buf_class)c), ms.cls[c].high_water_bytes * g);
    printf(" GiB); the device: %.2f GiB free, %.2f GiB taken by no allocation of cuzk's\n",
           ms.free * g, ms.total > ms.free + ms.allocated ? (ms.total - ms.free - ms.allocated) * g : 0.0);
}

/* One partition's witness staged on device 0 by a second thread. */
typedef struct {
    const cz_fr *w;
    size_t n;
    cz_cuda_witness *out;
    int rc;
} stager;

static void *stage_fn(void *arg)
{
    stager *s = arg;
    s->rc = cz_cuda_set_device(0);
    if (s->rc == CZ_OK)
        s->rc = cz_cuda_witness_stage(&s->out, s->w, s->n);
    return NULL;
}

/* n partitions back to back (the first one's witness staged before the
 * clock starts when staging): ms per partition, or a negative value with
 * why set. */
static double pipelined(unsigned n, bool staging, const cz_cuda_params_view *pv,
                        const cz_ntt_domain *dom, const cz_cuda_r1cs_view *rv, const cz_fr *w,
                        size_t n_in, size_t n_aux, const uint64_t *dc[3], cz_fr *spill,
                        unsigned *staged, char *why, size_t whylen)
{
    cz_cuda_witness *cur = NULL;
    *staged = 0;
    if (staging && cz_cuda_witness_stage(&cur, w, n_in + n_aux) == CZ_OK)
        (*staged)++;
    double c0 = cz_cli_now();
    int rc = CZ_OK;
    for (unsigned k = 0; k < n && rc == CZ_OK; k++) {
        stager st = {w, n_in + n_aux, NULL, CZ_OK};
        pthread_t th;
        bool started = staging && k + 1 < n && pthread_create(&th, NULL, stage_fn, &st) == 0;
        cz_cuda_proof_opts y = {.spill = spill, .staged = cur};
        cz_cuda_groth16_sums s;
        rc = cz_cuda_groth16_start_r1cs(&s, pv, dom, rv, w, n_in, n_aux, dc, &y, why, whylen);
        if (started)
            pthread_join(th, NULL);
        cz_cuda_witness_free(cur);
        cur = st.out;
        *staged += st.out != NULL;
    }
    double ms = (cz_cli_now() - c0) * 1e3 / n;
    cz_cuda_witness_free(cur);
    return rc == CZ_OK ? ms : -1.0;
}

int cz_bench_gpu_partition(const cz_cli_cmd *self, int argc, char **argv)
{
    part_opts o;
    if (parse(self, argc, argv, &o))
        return 2;
    char why[512];
    if (cz_cuda_device_check(-1, why, sizeof why) != CZ_OK) {
        fprintf(stderr, "cuzk-bench gpu-partition: %s\n", why);
        return 1;
    }
    cz_r1cs *pce = NULL;
    char err[256] = "";
    if (o.pce && cz_pce_load(&pce, o.pce, CZ_PCE_NO_CHECKSUM, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "cuzk-bench gpu-partition: %s: %s\n", o.pce, err);
        return 1;
    }
    double f = (double)((size_t)1 << o.log) / P_DOMAIN;
    size_t rows = (size_t)(P_ROWS * f), n_in = P_IN, n_aux = (size_t)(P_AUX * f);
    size_t ca = (size_t)(P_A_AUX * f), cbi = 1, cba = (size_t)(P_B_AUX * f);
    if (pce) {
        rows = cz_r1cs_num_constraints(pce), n_in = cz_r1cs_num_inputs(pce);
        n_aux = cz_r1cs_num_aux(pce);
        cz_r1cs_density(pce, CZ_DENSITY_A_AUX, &ca);
        cz_r1cs_density(pce, CZ_DENSITY_B_INPUT, &cbi);
        cz_r1cs_density(pce, CZ_DENSITY_B_AUX, &cba);
        o.log = 1;
        while (((size_t)1 << o.log) < rows)
            o.log++;
    }
    size_t m = (size_t)1 << o.log, n = n_in + n_aux, n_b = cbi + cba, n_a = n_in + ca;
    size_t dis = o.distinct;
    cz_pool *pool = NULL;
    cz_ntt_domain *dom = NULL;
    cz_g1_affine *g1d = malloc((dis < m ? dis : m) * sizeof *g1d), *h = NULL, *l = NULL, *a = NULL,
                 *b1 = NULL;
    cz_g2_affine *g2d = malloc((dis < n_b ? dis : n_b) * sizeof *g2d), *b2 = NULL;
    cz_fr *abc = NULL, *w = NULL, *spill = NULL;
    uint64_t *dens[3] = {NULL, NULL, NULL};
    if (!pce)
        dens[0] = bitmap(n_aux, ca), dens[1] = bitmap(n_in, 1), dens[2] = bitmap(n_aux, cba);
    syn_csr syn[3] = {{0}};
    cz_fr *dict = NULL;
    cz_cuda_r1cs_view rv = {pce ? (const void *)pce : (const void *)syn, rows, n, {{0}}};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = cz_pool_new(&pool, cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned)cpus);
    if (!rc)
        rc = cz_ntt_domain_new(&dom, o.log);
    size_t g1b = sizeof(cz_g1_affine);
    h = malloc((m - 1) * g1b), l = malloc(n_aux * g1b), a = malloc(n_a * g1b);
    b1 = malloc(n_b * g1b), b2 = malloc(n_b * sizeof(cz_g2_affine));
    size_t abc_n = o.host_abc ? 3 * m : 1;
    if (o.pinned) {
        if (!rc)
            rc = cz_cuda_host_alloc((void **)&abc, abc_n * sizeof(cz_fr));
        if (!rc)
            rc = cz_cuda_host_alloc((void **)&w, n * sizeof(cz_fr));
    } else {
        abc = malloc(abc_n * sizeof(cz_fr));
        w = malloc(n * sizeof(cz_fr));
    }
    spill = o.host_abc ? NULL : malloc(m * sizeof(cz_fr));
    if (rc || !g1d || !g2d || !h || !l || !a || !b1 || !b2 || !abc || !w ||
        (!o.host_abc && !spill) ||
        (!pce && (!dens[0] || !dens[1] || !dens[2]))) {
        fprintf(stderr, "cuzk-bench gpu-partition: setup of 2^%u failed: %s\n", o.log,
                cz_strerror(rc ? rc : CZ_ERR_NOMEM));
        rc = rc ? rc : CZ_ERR_NOMEM;
        goto out;
    }
    double t0 = cz_cli_now();
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
    if (o.host_abc)
        fill(pool, abc, 3 * m, 1, 0);
    fill(pool, w, n, 2, !o.uniform);
    w[0] = CZ_FR_ONE;
    if (pce) {
        for (int k = 0; k < 3; k++) {
            const cz_csr *x = cz_r1cs_matrix(pce, k);
            rv.m[k] = (cz_cuda_csr){x->row_blk, x->row_off, x->coef_blk, x->col,  x->gidx,
                                    x->dict,    x->nnz,     x->ngen,     x->ndict};
        }
    } else if (!o.host_abc) {
        dict = malloc(SYN_DICT * sizeof *dict);
        rc = dict ? CZ_OK : CZ_ERR_NOMEM;
        for (int k = 0; k < SYN_DICT && dict; k++)
            cz_fr_random(&dict[k], &g);
        for (int k = 0; k < 3 && !rc; k++)
            rc = syn_make(&syn[k], k, rows, n, pool);
        for (int k = 0; k < 3 && !rc; k++)
            rv.m[k] = (cz_cuda_csr){syn[k].row_blk, syn[k].row_off, syn[k].coef_blk,
                                    syn[k].col,     syn[k].gidx,    dict,
                                    syn[k].nnz,     syn[k].ngen,    SYN_DICT};
        if (rc) {
            fprintf(stderr, "cuzk-bench gpu-partition: synthetic matrices: %s\n", cz_strerror(rc));
            goto out;
        }
    }
    double t1 = cz_cli_now();
    char name[128] = "";
    cz_cuda_device_name(name, sizeof name);
    printf("gpu-partition 2^%u on %s: rows %zu, inputs %zu, aux %zu, A aux %zu, B aux %zu; "
           "%zu distinct bases; %s; w%s %s, %s; host data made in %.1f s\n",
           o.log, name, rows, n_in, n_aux, ca, cba, dis,
           o.host_abc ? "a, b, c from the host"
           : pce      ? "a, b, c on the device from the .pce"
                      : "a, b, c on the device from synthetic matrices",
           o.host_abc ? ", a, b, c" : "", o.pinned ? "page-locked" : "pageable",
           o.uniform ? "uniform" : "witness-like", t1 - t0);
    if (!o.host_abc)
        printf("matrices: nnz A %llu, B %llu, C %llu; general %llu, %llu, %llu\n",
               (unsigned long long)rv.m[0].nnz, (unsigned long long)rv.m[1].nnz,
               (unsigned long long)rv.m[2].nnz, (unsigned long long)rv.m[0].ngen,
               (unsigned long long)rv.m[1].ngen, (unsigned long long)rv.m[2].ngen);
    cz_cuda_params_view pv = {h, h, l, a, b1, b2, m - 1, n_aux, n_a, n_b, n_b};
    const uint64_t *dc[3] = {dens[0], dens[1], dens[2]};
    if (pce)
        for (int k = 0; k < 3; k++)
            dc[k] = cz_r1cs_density(pce, (cz_density)k, NULL);
    /* every budget of the sweep from a fresh device state: the parameters,
     * matrices and tables released, the budget capped at what stays held
     * plus it (0: the card's) */
    unsigned nb = o.n_budgets ? o.n_budgets : 1;
    double row_ms[MAX_BUDGETS] = {0}, row_link[MAX_BUDGETS] = {0}, row_gbs[MAX_BUDGETS] = {0},
           row_peak[MAX_BUDGETS] = {0};
    bool row_ok[MAX_BUDGETS] = {false};
    for (unsigned bi = 0; bi < nb; bi++) {
        uint64_t budget = o.n_budgets ? o.budgets[bi] : 0;
        cz_cuda_params_release(h);
        cz_cuda_r1cs_release(rv.key);
        cz_cuda_release();
        cz_cuda_mem_snapshot ms0;
        cz_cuda_mem_snapshot_of(0, &ms0);
        if (cz_cuda_set_mem_budget(0, budget ? ms0.reserved + budget : 0) != CZ_OK) {
            fprintf(stderr, "cuzk-bench gpu-partition: the budget could not be set\n");
            rc = 1;
            break;
        }
        cz_cuda_mem_snapshot_of(0, &ms0);
        printf("\n== device budget %.2f GiB%s\n", ms0.budget / (double)(1 << 30),
               budget ? "" : " (the card's)");
        cz_cuda_groth16_sums s;
        /* the proof's host memory for H's parked values, as the engine
         * lends it (prove_start's scratch): a plan with one H vector */
        cz_cuda_proof_opts y = {.spill = o.host_abc ? NULL : spill};
        why[0] = 0;
        double tot[32], st[8][32], lb = 0, lms = 0;
        int brc = CZ_OK;
        for (unsigned r = 0; r <= o.reps && !brc; r++) {
            double c0 = cz_cli_now();
            brc = o.host_abc ? cz_cuda_groth16_start(&s, &pv, dom, abc, abc + m, abc + 2 * m, rows,
                                                     0, w, n_in, n_aux, dc, &y, why, sizeof why)
                             : cz_cuda_groth16_start_r1cs(&s, &pv, dom, &rv, w, n_in, n_aux, dc,
                                                          &y, why, sizeof why);
            double c1 = cz_cli_now();
            if (brc)
                break;
            if (r == 0) {
                printf("cold (the plan made, kept arrays uploaded, streamed ones page-locked, "
                       "tables built): %.1f ms\n",
                       (c1 - c0) * 1e3);
                cz_cuda_mem_reset_peaks();
                continue;
            }
            tot[r - 1] = (c1 - c0) * 1e3;
            const double v[8] = {s.ms.upload, s.ms.spmv,  s.ms.h,        s.ms.msm_h,
                                 s.ms.msm_l,  s.ms.msm_a, s.ms.msm_b_g1, s.ms.msm_b_g2};
            for (int k = 0; k < 8; k++)
                st[k][r - 1] = v[k];
            lb = (double)s.ms.link_bytes;
            lms = s.ms.link_ms;
        }
        if (brc) {
            printf("refused: %s\n", why[0] ? why : cz_strerror(brc));
            continue;
        }
        cz_cuda_plan_info plan;
        if (cz_cuda_groth16_plan(h, &plan) == CZ_OK)
            printf("plan: %s\n", plan.text);
        static const char *const steps[8] = {"upload w", "SpMV",  "H",        "MSM H",
                                             "MSM L",    "MSM A", "MSM B_g1", "MSM B_g2"};
        row_ms[bi] = median(tot, o.reps);
        printf("warm, median of %u: %.1f ms per partition\n", o.reps, row_ms[bi]);
        for (int k = 0; k < 8; k++)
            printf("  %-12s %9.1f ms%s\n", steps[k], median(st[k], o.reps),
                   o.host_abc && k == 2 ? " (with the uploads of a, b, c, w)" : "");
        row_link[bi] = lb / 1e9;
        row_gbs[bi] = lms > 0 ? lb / 1e6 / lms : 0.0;
        printf("  link: %.2f GB of bases streamed a partition, the base pipe's copies busy "
               "%.1f ms (%.1f GB/s)\n",
               row_link[bi], lms, row_gbs[bi]);
        cz_cuda_mem_snapshot ms1;
        cz_cuda_mem_snapshot_of(0, &ms1);
        row_peak[bi] = ms1.peak_reserved / (double)(1 << 30);
        row_ok[bi] = true;
        print_devmem();
        for (int staging = 1; o.pipelined && staging >= 0; staging--) {
            unsigned got = 0;
            double ms = pipelined(o.pipelined, staging, &pv, dom, &rv, w, n_in, n_aux, dc,
                                  o.host_abc ? NULL : spill, &got, why, sizeof why);
            if (ms < 0)
                printf("pipelined: failed: %s\n", why);
            else if (staging)
                printf("pipelined, %u back to back, %u witnesses staged beside the proof before: "
                       "%.1f ms per partition\n",
                       o.pipelined, got, ms);
            else
                printf("pipelined, %u back to back, each uploading its witness: %.1f ms per "
                       "partition\n",
                       o.pipelined, ms);
        }
    }
    if (o.n_budgets) {
        printf("\n%-12s %12s %14s %10s %14s\n", "budget", "ms/partition", "streamed GB",
               "GB/s", "peak GiB");
        for (unsigned bi = 0; bi < nb; bi++) {
            char bname[32];
            if (o.budgets[bi])
                snprintf(bname, sizeof bname, "%.1f GiB", o.budgets[bi] / (double)(1 << 30));
            else
                snprintf(bname, sizeof bname, "card");
            if (row_ok[bi])
                printf("%-12s %12.1f %14.2f %10.1f %14.2f\n", bname, row_ms[bi], row_link[bi],
                       row_gbs[bi], row_peak[bi]);
            else
                printf("%-12s %12s\n", bname, "refused");
        }
    }
    cz_cuda_set_mem_budget(0, 0);
out:
    cz_cuda_params_release(h);
    cz_cuda_r1cs_release(rv.key);
    cz_r1cs_free(pce);
    cz_ntt_domain_free(dom);
    cz_pool_free(pool);
    if (o.pinned) {
        cz_cuda_host_free(abc);
        cz_cuda_host_free(w);
    } else {
        free(abc);
        free(w);
    }
    free(spill);
    free(g1d), free(g2d), free(h), free(l), free(a), free(b1), free(b2), free(dict);
    for (int k = 0; k < 3; k++) {
        free(dens[k]);
        syn_free(&syn[k]);
    }
    return rc ? 1 : 0;
}
