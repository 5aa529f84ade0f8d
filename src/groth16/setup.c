/* Insecure Groth16 parameter generation from a seed (tests, benchmarks).
 *
 * With the trapdoor (tau, alpha, beta, gamma, delta) and the domain of the
 * m-th roots of unity omega^j:
 *   L_j(tau) = (tau^m - 1) / m * omega^j / (tau - omega^j)       (Lagrange)
 *   u_i = sum_j A_ji L_j(tau), v_i likewise with B, w_i with C   (columns)
 * and every query point is a scalar times a generator, computed with the
 * constant-time fixed-base tables of msm.h, or on the GPU back end with
 * the device's (include/cuzk/cuda.h: not constant time, a table read per
 * digit).  The snarkjs flavor's H points use the 2m-point basis at the odd
 * indices k = 2i + 1:
 *   L'_k(tau) = (tau^2m - 1) / 2m * w^k / (tau - w^k),  w = omega_2m.
 * Cost: one batch inversion per basis (3 multiplications per element and
 * one inversion per chunk), one pass over the matrices (nnz
 * multiplications), and one fixed-base product per point (about 24 us in
 * G1 with w = 8 on one core).
 *
 * Threads (pool): the Lagrange values (chunks starting at start step^lo,
 * each with its own batch inversion), the columns (one column range per
 * thread, balanced by a histogram of the entries: each thread walks every
 * row in order and applies the entries of its range, so every column's
 * sum is taken in the serial order, without sharing), the scalar arrays
 * and the products.  Field arithmetic being exact, the results do not
 * depend on the threads or the back end: parameters are bit for bit the
 * same for the same seed.
 *
 * Every array derived from the trapdoor is wiped before it is freed. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "cuzk/rand.h"
#include "groth16/g16_internal.h"
#include "util/clock.h"

#define TABLE_W      8     /* CPU fixed-base window */
#define LAG_GRAIN    4096  /* Lagrange values per chunk, at least */
#define SCALAR_GRAIN 16384 /* scalars per chunk of the element-wise loops */
#define COL_BUCKETS  1024  /* column buckets of the columns' histogram */
#define SEL_PARTS    256   /* word ranges of the density selection */

typedef struct {
    cz_fr tau, alpha, beta, gamma, delta;
} trapdoor;

static void draw_nonzero(cz_fr *x, cz_prng *g)
{
    do
        cz_fr_random(x, g);
    while (cz_fr_is_zero(x));
}

static double now(void) { return cz_clock_s(CLOCK_MONOTONIC); }

/* out[j] = c * x^j / (tau - x^j) for j < n, x^j = start step^j: the
 * Lagrange-basis values above (c carries (tau^N - 1) / N).  den and
 * scratch are n elements of scratch.  In chunks on the pool, each from
 * start step^lo with its own batch inversion.  Returns CZ_ERR_INVALID_ARG
 * when tau is one of the points (the seed then gives a degenerate
 * trapdoor; never in practice). */
typedef struct {
    cz_fr *out, *den, *scratch;
    const cz_fr *tau, *c, *start, *step;
    atomic_int bad;
} lag_ctx;

static void lag_range(void *arg, size_t lo, size_t hi)
{
    lag_ctx *x = arg;
    cz_fr p;
    uint64_t e = lo;
    int bad = 0;
    cz_fr_pow(&p, x->step, &e, 1);
    cz_fr_mul(&p, &p, x->start);
    for (size_t j = lo; j < hi; j++) {
        x->out[j] = p; /* x^j kept for the numerator */
        cz_fr_sub(&x->den[j], x->tau, &p);
        bad |= cz_fr_is_zero(&x->den[j]);
        cz_fr_mul(&p, &p, x->step);
    }
    atomic_fetch_or(&x->bad, bad);
    cz_fr_batch_inv(x->den + lo, x->den + lo, hi - lo, x->scratch + lo);
    for (size_t j = lo; j < hi; j++) {
        cz_fr_mul(&x->out[j], &x->out[j], &x->den[j]);
        cz_fr_mul(&x->out[j], &x->out[j], x->c);
    }
}

static int lagrange(cz_fr *out, cz_fr *den, cz_fr *scratch, size_t n, const cz_fr *tau,
                    const cz_fr *c, const cz_fr *start, const cz_fr *step, cz_pool *pool)
{
    lag_ctx x = {.out = out,
                 .den = den,
                 .scratch = scratch,
                 .tau = tau,
                 .c = c,
                 .start = start,
                 .step = step};
    atomic_init(&x.bad, 0);
    cz_pool_parallel_for(pool, n, LAG_GRAIN, lag_range, &x);
    return atomic_load(&x.bad) ? CZ_ERR_INVALID_ARG : CZ_OK;
}

/* col[i] += sum_j M_ji lag[j] over the rows of matrix m, for the columns
 * in [bound[p], bound[p + 1]) in part p: every part walks every row in
 * order (counting the general entries it skips, to keep their coefficient
 * index) and applies only its own columns. */
typedef struct {
    cz_fr *col;
    const cz_csr *m;
    size_t rows, ncols, nchunks;
    const cz_fr *lag;
    uint64_t *hist;  /* nchunks x COL_BUCKETS entry weights */
    uint32_t *bound; /* parts + 1 column bounds */
} col_ctx;

static size_t bucket_of(uint32_t c, size_t ncols)
{
    return (size_t)((uint64_t)c * COL_BUCKETS / ncols);
}

/* Histogram of chunk k of the rows: weight 4 for a general entry (a
 * multiplication and an addition), 1 for the others. */
static void col_hist(void *arg, size_t k0, size_t k1)
{
    const col_ctx *x = arg;
    for (size_t k = k0; k < k1; k++) {
        uint64_t *h = x->hist + k * COL_BUCKETS;
        uint64_t e0 = cz_csr_row_begin(x->m, x->rows * k / x->nchunks);
        uint64_t e1 = cz_csr_row_begin(x->m, x->rows * (k + 1) / x->nchunks);
        for (uint64_t e = e0; e < e1; e++) {
            uint32_t v = x->m->col[e];
            h[bucket_of(v & CZ_CSR_COL_MASK, x->ncols)] += CZ_CSR_KIND(v) == CZ_CSR_GEN ? 4 : 1;
        }
    }
}

static void col_part(void *arg, size_t p0, size_t p1)
{
    const col_ctx *x = arg;
    const cz_csr *m = x->m;
    for (size_t p = p0; p < p1; p++) {
        uint32_t c0 = x->bound[p], c1 = x->bound[p + 1];
        uint64_t g = 0;
        if (c0 == c1)
            continue;
        for (size_t j = 0; j < x->rows; j++) {
            for (uint64_t k = cz_csr_row_begin(m, j), end = cz_csr_row_end(m, j); k < end; k++) {
                uint32_t e = m->col[k], c = e & CZ_CSR_COL_MASK, kind = CZ_CSR_KIND(e);
                if (c < c0 || c >= c1) {
                    g += kind == CZ_CSR_GEN;
                    continue;
                }
                cz_fr *y = &x->col[c], t;
                switch (kind) {
                case CZ_CSR_ONE:
                    cz_fr_add(y, y, &x->lag[j]);
                    break;
                case CZ_CSR_NEG:
                    cz_fr_sub(y, y, &x->lag[j]);
                    break;
                default:
                    cz_fr_mul(&t, &x->lag[j], cz_csr_gen_coef(m, g++));
                    cz_fr_add(y, y, &t);
                    break;
                }
            }
        }
    }
}

/* The columns on nthreads parts of about equal weight (bounds on bucket
 * edges; a heavy bucket, such as one holding the constant ONE's column,
 * makes its part heavier).  hist: 4 nthreads x COL_BUCKETS u64 of scratch;
 * bound: nthreads + 1. */
static void columns(cz_fr *col, size_t ncols, const cz_csr *m, size_t rows, const cz_fr *lag,
                    unsigned nthreads, uint64_t *hist, uint32_t *bound, cz_pool *pool)
{
    col_ctx x = {col, m, rows, ncols, 4 * (size_t)nthreads, lag, hist, bound};
    bound[0] = 0;
    bound[nthreads] = (uint32_t)ncols;
    if (nthreads > 1 && ncols > 0) {
        memset(hist, 0, x.nchunks * COL_BUCKETS * sizeof *hist);
        cz_pool_parallel_for(pool, x.nchunks, 1, col_hist, &x);
        uint64_t total = 0, acc = 0;
        for (size_t k = 1; k < x.nchunks; k++)
            for (size_t b = 0; b < COL_BUCKETS; b++)
                hist[b] += hist[k * COL_BUCKETS + b];
        for (size_t b = 0; b < COL_BUCKETS; b++)
            total += hist[b];
        unsigned p = 1;
        for (size_t b = 0; b < COL_BUCKETS && p < nthreads; b++) {
            acc += hist[b];
            /* first column of bucket b + 1 */
            uint32_t end = (uint32_t)(((b + 1) * (uint64_t)ncols + COL_BUCKETS - 1) / COL_BUCKETS);
            while (p < nthreads && acc * nthreads >= total * p)
                bound[p++] = end < ncols ? end : (uint32_t)ncols;
        }
        while (p < nthreads)
            bound[p++] = (uint32_t)ncols;
    }
    cz_pool_parallel_for(pool, nthreads, 1, col_part, &x);
}

/* The selected entries of col, in order, into s: [0, n_in) by din (all
 * when din is NULL), then [n_in, n_in + n_aux) by daux; returns how many.
 * The aux bitmap goes in SEL_PARTS ranges of words on the pool: popcounts,
 * offsets, copies. */
typedef struct {
    cz_fr *s;
    const cz_fr *col;
    const uint64_t *d;
    size_t n, words, parts;
    size_t *off; /* parts + 1 */
} sel_ctx;

static uint64_t sel_word(const sel_ctx *x, size_t q)
{
    size_t rest = x->n - q * 64;
    return rest < 64 ? x->d[q] & (((uint64_t)1 << rest) - 1) : x->d[q];
}

static void sel_count(void *arg, size_t p0, size_t p1)
{
    const sel_ctx *x = arg;
    for (size_t p = p0; p < p1; p++) {
        size_t c = 0;
        for (size_t q = x->words * p / x->parts, q1 = x->words * (p + 1) / x->parts; q < q1; q++)
            c += (size_t)__builtin_popcountll(sel_word(x, q));
        x->off[p + 1] = c;
    }
}

static void sel_copy(void *arg, size_t p0, size_t p1)
{
    const sel_ctx *x = arg;
    for (size_t p = p0; p < p1; p++) {
        size_t k = x->off[p];
        for (size_t q = x->words * p / x->parts, q1 = x->words * (p + 1) / x->parts; q < q1; q++)
            for (uint64_t v = sel_word(x, q); v; v &= v - 1)
                x->s[k++] = x->col[q * 64 + (size_t)__builtin_ctzll(v)];
    }
}

static size_t select_cols(cz_fr *s, const cz_fr *col, size_t n_in, size_t n_aux,
                          const uint64_t *din, const uint64_t *daux, cz_pool *pool)
{
    size_t k = 0, off[SEL_PARTS + 1];
    for (size_t i = 0; i < n_in; i++)
        if (din == NULL || ((din[i / 64] >> (i % 64)) & 1))
            s[k++] = col[i];
    sel_ctx x = {s + k, col + n_in, daux, n_aux, (n_aux + 63) / 64, SEL_PARTS, off};
    if (x.words < x.parts)
        x.parts = x.words;
    off[0] = 0;
    cz_pool_parallel_for(pool, x.parts, 1, sel_count, &x);
    for (size_t p = 0; p < x.parts; p++)
        off[p + 1] += off[p];
    cz_pool_parallel_for(pool, x.parts, 1, sel_copy, &x);
    return k + off[x.parts];
}

/* sc[i] = (beta u_i + alpha v_i + w_i) / gamma for the inputs (i < n_in),
 * / delta for the aux: IC's and L's scalars. */
typedef struct {
    cz_fr *sc;
    const cz_fr *u, *v, *w, *alpha, *beta, *gi, *di;
    size_t n_in;
} icl_ctx;

static void icl_range(void *arg, size_t lo, size_t hi)
{
    const icl_ctx *c = arg;
    cz_fr x, y;
    for (size_t i = lo; i < hi; i++) {
        cz_fr_mul(&x, c->beta, &c->u[i]);
        cz_fr_mul(&y, c->alpha, &c->v[i]);
        cz_fr_add(&x, &x, &y);
        cz_fr_add(&x, &x, &c->w[i]);
        cz_fr_mul(&c->sc[i], &x, i < c->n_in ? c->gi : c->di);
    }
    cz_groth16_wipe(&x, sizeof x);
    cz_groth16_wipe(&y, sizeof y);
}

/* sc[i] = x0 tau^i: bellperson's H scalars (x0 = Z(tau) / delta), each
 * chunk from x0 tau^lo. */
typedef struct {
    cz_fr *sc;
    const cz_fr *x0, *tau;
} pow_ctx;

static void pow_range(void *arg, size_t lo, size_t hi)
{
    const pow_ctx *c = arg;
    cz_fr x;
    uint64_t e = lo;
    cz_fr_pow(&x, c->tau, &e, 1);
    cz_fr_mul(&x, &x, c->x0);
    for (size_t i = lo; i < hi; i++) {
        c->sc[i] = x;
        cz_fr_mul(&x, &x, c->tau);
    }
    cz_groth16_wipe(&x, sizeof x);
}

/* The fixed-base products, on the CPU's tables or the device's; each call
 * adds its time to *sec and names the query in err when the device fails. */
typedef struct {
    void *t1, *t2;          /* CPU tables of the G1 and G2 generators */
    cz_cuda_fixed *d1, *d2; /* device tables (CZ_BACKEND_GPU) */
    cz_pool *pool;
    char *err;
    size_t errlen;
} tables;

static int gpu_failed(const tables *t, const char *what, int rc)
{
    cz_msgf(t->err, t->errlen, "setup: the GPU's fixed-base products of %s failed: %s", what,
            cz_strerror(rc));
    return rc;
}

/* out[i] = k[i] times the generator of G1 (g2 false) or G2, from the device
 * tables when there are some; adds the time to *sec. */
static int fixed_mul(void *out, bool g2, const cz_fr *k, size_t n, const tables *t,
                     const char *what, double *sec)
{
    double t0 = now();
    int rc = CZ_OK;
    cz_cuda_fixed *d = g2 ? t->d2 : t->d1;
    if (d != NULL)
        rc = g2 ? cz_cuda_g2_fixed_mul(out, d, k, n, 0, t->pool)
                : cz_cuda_g1_fixed_mul(out, d, k, n, 0, t->pool);
    else if (g2)
        cz_g2_fixed_mul(out, t->t2, TABLE_W, k, n, 0, t->pool);
    else
        cz_g1_fixed_mul(out, t->t1, TABLE_W, k, n, 0, t->pool);
    *sec += now() - t0;
    return rc != CZ_OK ? gpu_failed(t, what, rc) : CZ_OK;
}

static int g1s(cz_g1_affine *out, const cz_fr *k, size_t n, const tables *t, const char *what,
               double *sec)
{
    return fixed_mul(out, false, k, n, t, what, sec);
}

static int g2s(cz_g2_affine *out, const cz_fr *k, size_t n, const tables *t, const char *what,
               double *sec)
{
    return fixed_mul(out, true, k, n, t, what, sec);
}

/* Shapes shared by the sizes and the setup. */
typedef struct {
    size_t n_in, n_aux, n, rows, m, n_h, n_b, cnt_a, big;
    unsigned logm;
} shape;

static int shape_of(shape *s, const cz_r1cs *r, cz_groth16_flavor flavor)
{
    size_t cnt_bin, cnt_baux;
    s->n_in = cz_r1cs_num_inputs(r);
    s->n_aux = cz_r1cs_num_aux(r);
    s->n = s->n_in + s->n_aux;
    s->rows = cz_r1cs_num_constraints(r);
    s->logm = cz_groth16_log_domain(s->rows);
    if (s->logm > CZ_NTT_MAX_LOG)
        return CZ_ERR_INVALID_ARG;
    s->m = (size_t)1 << s->logm;
    cz_r1cs_density(r, CZ_DENSITY_A_AUX, &s->cnt_a);
    cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &cnt_bin);
    cz_r1cs_density(r, CZ_DENSITY_B_AUX, &cnt_baux);
    s->n_h = flavor == CZ_GROTH16_BELLPERSON ? s->m - 1 : s->m;
    s->n_b = cnt_bin + cnt_baux;
    s->big = s->m > s->n ? s->m : s->n;
    return CZ_OK;
}

/* Temporaries: lag, den, batch-inversion scratch (m each), the three column
 * arrays (n each), the scalar staging (max(m, n)), and on the CPU back end
 * two fixed-base tables. */
static size_t fr_bytes(const shape *s) /* 64-byte multiple: the tables follow */
{
    return ((3 * s->m + 3 * s->n + s->big) * sizeof(cz_fr) + 63) & ~(size_t)63;
}

static size_t temp_bytes(const shape *s, bool gpu, size_t *t1, size_t *t2)
{
    *t1 = gpu ? 0 : cz_g1_fixed_table_bytes(TABLE_W);
    *t2 = gpu ? 0 : cz_g2_fixed_table_bytes(TABLE_W);
    return fr_bytes(s) + *t1 + *t2;
}

void cz_groth16_setup_sizes(const cz_r1cs *r, cz_groth16_flavor flavor, size_t *block, size_t *temp)
{
    shape s;
    size_t t1, t2;
    *block = *temp = 0;
    if (shape_of(&s, r, flavor) != CZ_OK)
        return;
    *block = cz_groth16_params_block_bytes(s.n_in, s.n_h, s.n_aux, s.n_in + s.cnt_a, s.n_b);
    *temp = temp_bytes(&s, false, &t1, &t2);
}

void cz_groth16_setup_sizes_bound(size_t n_in, size_t n_aux, size_t rows, cz_groth16_flavor flavor,
                                  size_t *block, size_t *temp)
{
    shape s = {.n_in = n_in, .n_aux = n_aux, .n = n_in + n_aux, .rows = rows};
    size_t t1, t2;
    *block = *temp = 0;
    s.logm = cz_groth16_log_domain(rows);
    if (s.logm > CZ_NTT_MAX_LOG)
        return;
    s.m = (size_t)1 << s.logm;
    s.cnt_a = n_aux;
    s.n_b = s.n;
    s.n_h = flavor == CZ_GROTH16_BELLPERSON ? s.m - 1 : s.m;
    s.big = s.m > s.n ? s.m : s.n;
    *block = cz_groth16_params_block_bytes(s.n_in, s.n_h, s.n_aux, s.n_in + s.cnt_a, s.n_b);
    *temp = temp_bytes(&s, false, &t1, &t2);
}

int cz_groth16_setup(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                     cz_groth16_flavor flavor, cz_pool *pool)
{
    return cz_groth16_setup_ex(out, r, seed, flavor, pool, NULL);
}

int cz_groth16_setup_ex(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                        cz_groth16_flavor flavor, cz_pool *pool, const cz_allocator *al)
{
    cz_groth16_setup_opts o = {.pool = pool, .alloc = al};
    return cz_groth16_setup_with(out, r, seed, flavor, &o, NULL, 0);
}

int cz_groth16_setup_with(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                          cz_groth16_flavor flavor, const cz_groth16_setup_opts *opts, char *err,
                          size_t errlen)
{
    static const cz_groth16_setup_opts defaults = {0};
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL) {
        cz_msgf(err, errlen, "setup: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (opts == NULL)
        opts = &defaults;
    if (r == NULL || seed == NULL) {
        cz_msgf(err, errlen, "setup: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    if ((flavor != CZ_GROTH16_BELLPERSON && flavor != CZ_GROTH16_SNARKJS) ||
        (opts->backend != CZ_BACKEND_CPU && opts->backend != CZ_BACKEND_GPU)) {
        cz_msgf(err, errlen, "setup: unknown flavor %d or backend %d", (int)flavor,
                (int)opts->backend);
        return CZ_ERR_INVALID_ARG;
    }
    bool gpu = opts->backend == CZ_BACKEND_GPU;
    if (gpu && !cz_cuda_available()) {
        cz_msgf(err, errlen, "setup: the GPU back end was asked for but no CUDA device is there");
        return CZ_ERR_UNSUPPORTED;
    }
    char why[512];
    int drc = gpu ? cz_cuda_device_check(-1, why, sizeof why) : CZ_OK;
    if (drc != CZ_OK)
        return cz_fail(err, errlen, drc, "setup: %s", why);
    shape sh;
    if (shape_of(&sh, r, flavor) != CZ_OK) {
        cz_msgf(err, errlen, "setup: %zu constraints need a domain above 2^%d",
                cz_r1cs_num_constraints(r), CZ_NTT_MAX_LOG);
        return CZ_ERR_INVALID_ARG;
    }
    size_t n_in = sh.n_in, n_aux = sh.n_aux, n = sh.n, rows = sh.rows, m = sh.m;
    unsigned logm = sh.logm;
    size_t n_h = sh.n_h, n_b = sh.n_b, cnt_a = sh.cnt_a;
    cz_pool *pool = opts->pool;
    const cz_allocator *al = opts->alloc;
    unsigned nthreads = cz_msm_nthreads(pool);
    cz_groth16_setup_times tm = {0};

    /* The trapdoor: xoshiro seeded from the 32 seed bytes (insecure). */
    uint64_t sw[4];
    memcpy(sw, seed, 32);
    cz_prng g;
    cz_prng_seed(&g, sw[0] ^ (sw[1] * 0x9e3779b97f4a7c15ULL) ^ (sw[2] << 17 | sw[2] >> 47) ^
                         (sw[3] * 0xc2b2ae3d27d4eb4fULL));
    for (int i = 0; i < 4; i++)
        cz_prng_next(&g);
    trapdoor td;
    draw_nonzero(&td.tau, &g);
    draw_nonzero(&td.alpha, &g);
    draw_nonzero(&td.beta, &g);
    draw_nonzero(&td.gamma, &g);
    draw_nonzero(&td.delta, &g);
    cz_groth16_wipe(&g, sizeof g);
    cz_groth16_wipe(sw, sizeof sw);

    const uint64_t *da = cz_r1cs_density(r, CZ_DENSITY_A_AUX, NULL);
    const uint64_t *dbi = cz_r1cs_density(r, CZ_DENSITY_B_INPUT, NULL);
    const uint64_t *dba = cz_r1cs_density(r, CZ_DENSITY_B_AUX, NULL);

    int rc = CZ_ERR_NOMEM;
    cz_ntt_domain *dom = NULL;
    size_t t1b, t2b, tbytes = temp_bytes(&sh, gpu, &t1b, &t2b);
    tables t = {.pool = pool, .err = err, .errlen = errlen};
    /* one temporary block: lag | den | scratch | u v w | sc [| table1 | table2] */
    uint8_t *tmp = cz_alloc(al, CZ_BUF_SCRATCH, tbytes);
    /* the columns' histogram and bounds (small: 32 KiB per thread) */
    uint64_t *hist = malloc(4 * (size_t)nthreads * COL_BUCKETS * sizeof *hist);
    uint32_t *bound = malloc(((size_t)nthreads + 1) * sizeof *bound);
    cz_fr *lag = NULL, *den = NULL, *inv_scratch = NULL, *col = NULL, *sc = NULL;
    cz_fr om, mm, zt, c, gi, di;
    if (tmp == NULL || hist == NULL || bound == NULL) {
        cz_msgf(err, errlen, "setup: out of memory (%zu bytes of temporaries)", tbytes);
        goto done;
    }
    lag = (cz_fr *)tmp;
    den = lag + m;
    inv_scratch = den + m;
    col = inv_scratch + m;
    sc = col + 3 * n;
    memset(col, 0, 3 * n * sizeof(cz_fr));
    if ((rc = cz_ntt_domain_new_root(&dom, logm,
                                     flavor == CZ_GROTH16_SNARKJS ? CZ_NTT_ROOT_SNARKJS
                                                                  : CZ_NTT_ROOT_BELLPERSON)) !=
            CZ_OK ||
        (rc = cz_groth16_params_alloc(out, n_in, n_h, n_aux, n_in + cnt_a, n_b, al)) != CZ_OK) {
        cz_msgf(err, errlen, "setup: out of memory (the parameters' %zu bytes)",
                cz_groth16_params_block_bytes(n_in, n_h, n_aux, n_in + cnt_a, n_b));
        goto done;
    }
    out->flavor = flavor;
    double t0 = now();
    if (gpu) {
        if ((rc = cz_cuda_g1_fixed_new(&t.d1, &CZ_G1_GENERATOR, 0, pool, al)) != CZ_OK ||
            (rc = cz_cuda_g2_fixed_new(&t.d2, &CZ_G2_GENERATOR, 0, pool, al)) != CZ_OK) {
            cz_msgf(err, errlen, "setup: the generators' device tables: %s", cz_strerror(rc));
            goto done;
        }
    } else {
        t.t1 = tmp + fr_bytes(&sh);
        t.t2 = (uint8_t *)t.t1 + t1b;
        cz_g1_fixed_table_init(t.t1, TABLE_W, &CZ_G1_GENERATOR);
        cz_g2_fixed_table_init(t.t2, TABLE_W, &CZ_G2_GENERATOR);
    }
    tm.tables = now() - t0;

    /* Lagrange basis at tau, then the column polynomials u, v, w. */
    t0 = now();
    uint64_t e = m;
    cz_ntt_domain_omega(&om, dom, false);
    cz_fr_pow(&zt, &td.tau, &e, 1);
    cz_fr_sub(&zt, &zt, &CZ_FR_ONE); /* Z(tau) = tau^m - 1 */
    cz_fr_from_u64(&mm, m);
    cz_fr_inv(&c, &mm);
    cz_fr_mul(&c, &c, &zt);
    if ((rc = lagrange(lag, den, inv_scratch, m, &td.tau, &c, &CZ_FR_ONE, &om, pool)) != CZ_OK) {
        cz_msgf(err, errlen, "setup: the seed gives tau in the domain (degenerate trapdoor)");
        goto done;
    }
    tm.lagrange = now() - t0;
    t0 = now();
    cz_fr *u = col, *v = col + n, *w = col + 2 * n;
    columns(u, n, cz_r1cs_matrix(r, CZ_MAT_A), rows, lag, nthreads, hist, bound, pool);
    columns(v, n, cz_r1cs_matrix(r, CZ_MAT_B), rows, lag, nthreads, hist, bound, pool);
    columns(w, n, cz_r1cs_matrix(r, CZ_MAT_C), rows, lag, nthreads, hist, bound, pool);
    tm.columns = now() - t0;

    /* IC and L: (beta u + alpha v + w) / gamma or / delta. */
    t0 = now();
    cz_fr_inv(&gi, &td.gamma);
    cz_fr_inv(&di, &td.delta);
    icl_ctx ic = {sc, u, v, w, &td.alpha, &td.beta, &gi, &di, n_in};
    cz_pool_parallel_for(pool, n, SCALAR_GRAIN, icl_range, &ic);
    tm.scalars += now() - t0;
    if ((rc = g1s(out->vk.ic, sc, n_in, &t, "ic", &tm.ic)) != CZ_OK ||
        (rc = g1s(out->l, sc + n_in, n_aux, &t, "l", &tm.l)) != CZ_OK)
        goto done;

    /* A, B (G1 and G2) by density. */
    t0 = now();
    size_t k = select_cols(sc, u, n_in, n_aux, NULL, da, pool);
    tm.scalars += now() - t0;
    if ((rc = g1s(out->a, sc, k, &t, "a", &tm.a)) != CZ_OK)
        goto done;
    t0 = now();
    k = select_cols(sc, v, n_in, n_aux, dbi, dba, pool);
    tm.scalars += now() - t0;
    if ((rc = g1s(out->b_g1, sc, k, &t, "b_g1", &tm.b_g1)) != CZ_OK ||
        (rc = g2s(out->b_g2, sc, k, &t, "b_g2", &tm.b_g2)) != CZ_OK)
        goto done;

    /* H. */
    t0 = now();
    if (flavor == CZ_GROTH16_BELLPERSON) {
        cz_fr x0;
        cz_fr_mul(&x0, &zt, &di); /* tau^i Z(tau) / delta */
        pow_ctx pc = {sc, &x0, &td.tau};
        cz_pool_parallel_for(pool, n_h, SCALAR_GRAIN, pow_range, &pc);
        cz_groth16_wipe(&x0, sizeof x0);
    } else {
        cz_fr w2, w2sq, z2, mm2;
        cz_ntt_domain_omega2n(&w2, dom);
        cz_fr_sqr(&w2sq, &w2);
        e = 2 * m;
        cz_fr_pow(&z2, &td.tau, &e, 1);
        cz_fr_sub(&z2, &z2, &CZ_FR_ONE);
        cz_fr_from_u64(&mm2, 2 * m);
        cz_fr_inv(&c, &mm2);
        cz_fr_mul(&c, &c, &z2);
        cz_fr_mul(&c, &c, &di);
        cz_groth16_wipe(&z2, sizeof z2);
        if ((rc = lagrange(sc, den, inv_scratch, m, &td.tau, &c, &w2, &w2sq, pool)) != CZ_OK) {
            cz_msgf(err, errlen,
                    "setup: the seed gives tau in the 2m domain (degenerate trapdoor)");
            goto done;
        }
    }
    tm.scalars += now() - t0;
    if ((rc = g1s(out->h, sc, n_h, &t, "h", &tm.h)) != CZ_OK)
        goto done;

    /* The verifying key. */
    cz_fr vs[3] = {td.alpha, td.beta, td.delta}, ws[3] = {td.beta, td.gamma, td.delta};
    cz_g1_affine p1[3];
    cz_g2_affine p2[3];
    rc = g1s(p1, vs, 3, &t, "the verifying key", &tm.vk);
    if (rc == CZ_OK)
        rc = g2s(p2, ws, 3, &t, "the verifying key", &tm.vk);
    cz_groth16_wipe(vs, sizeof vs);
    cz_groth16_wipe(ws, sizeof ws);
    if (rc != CZ_OK)
        goto done;
    out->vk.alpha_g1 = p1[0], out->vk.beta_g1 = p1[1], out->vk.delta_g1 = p1[2];
    out->vk.beta_g2 = p2[0], out->vk.gamma_g2 = p2[1], out->vk.delta_g2 = p2[2];
done:
    if (rc != CZ_OK)
        cz_groth16_params_free(out);
    if (opts->times != NULL)
        *opts->times = tm;
    cz_groth16_wipe(&td, sizeof td);
    cz_groth16_wipe(&zt, sizeof zt);
    cz_groth16_wipe(&c, sizeof c);
    cz_groth16_wipe(&gi, sizeof gi);
    cz_groth16_wipe(&di, sizeof di);
    cz_cuda_fixed_free(t.d1);
    cz_cuda_fixed_free(t.d2);
    if (tmp != NULL) {
        cz_groth16_wipe(tmp, fr_bytes(&sh));
        cz_free(al, tmp, tbytes);
    }
    free(hist);
    free(bound);
    cz_ntt_domain_free(dom);
    return rc;
}
