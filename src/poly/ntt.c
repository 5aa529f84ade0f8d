/* Number-theoretic transforms over Fr: domains, radix-2 leaves, the
 * four-step schedule, bit reversal.
 *
 * Leaf (a contiguous block of m = 2^j <= 2^NTT_LEAF_LOG elements): radix-2,
 * depth first.  DIF (Gentleman-Sande, natural -> bit-reversed):
 *     for h = m/2 .. 1, each block of 2h, i < h:
 *         (u, v) <- (u + v, (u - v) w_2h^i)
 * DIT (Cooley-Tukey, bit-reversed -> natural) runs the stages in reverse:
 *         (u, v) <- (u + v w_2h^i, u - v w_2h^i)
 * (m/2) log m butterflies, of which m - 1 have the twiddle 1 and cost no
 * multiplication.  Above 2^10 elements (32 KiB, inside L1) the leaf does its
 * outermost stage over the whole block and recurses into both halves, so
 * each stage's data stays in the nearest cache that holds it.
 *
 * Four-step (Bailey) for larger n = R C, R = 2^kr <= 2^NTT_COL_LOG rows of
 * C = 2^kc columns, element (rho, kappa) at rho C + kappa.  With
 * j = kappa + C rho and X's index k = k_r + R k_c:
 *     X[k] = sum_kappa w_C^(kappa k_c) * w_n^(kappa k_r)
 *                * sum_rho x[kappa + C rho] w_R^(rho k_r)
 * DIF: (1) a DIF of length R down every column (bit-reversed rows),
 *      (2) multiply position (rho, kappa) by w_n^(kappa bitrev(rho)),
 *      (3) a DIF of length C along every row;
 * the result sits at C bitrev_R(k_r) + bitrev_C(k_c) = bitrev_n(k): the
 * bit-reversed order, with no transpose.  DIT is the transpose of that
 * matrix product: rows (DIT), the same twiddles, columns (DIT).  Rows are
 * contiguous; columns are processed NTT_COL_W at a time: the 8 x 32 bytes of
 * each row are gathered into a 2^kr x 8 stack buffer (128 KiB at most, in
 * L2), transformed with the 8 columns sharing each twiddle, and scattered
 * back.  Rows longer than a leaf are four-step transforms themselves.
 * Columns and rows are the units of parallel work.  Memory traffic: two
 * passes at one level (n <= 2^23), three at two levels (n <= 2^28).
 *
 * Step (2) costs one multiplication to generate each twiddle (a geometric
 * sequence per column) and one to apply it, which the leaves' trivial
 * twiddles pay back: about (1/2) log2 n multiplications per element in all.
 * Coefficient scalings c0 gamma^j (1/n, coset powers) ride along: the part
 * that is constant on a column (or a row) of the last (first) pass goes
 * into the step-(2) sequence for free, the rest is one multiplication by a
 * precomputed table (domain E or F). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "ff/fr_inline.h"
#include "poly/poly_internal.h"

#define DF_BASE_LOG 10 /* leaves recurse depth first above 2^10 elements */
#define BR_TILE_LOG 5  /* bit reversal in 32 x 32 tiles */

typedef struct {
    size_t bytes;
    size_t stage, plo, phi, e, f; /* entries of one direction's table */
    unsigned kr, kc, lo_log;
} domain_layout;

static size_t rev_bits(size_t x, unsigned bits)
{
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

static void split(unsigned k, unsigned *kr, unsigned *kc)
{
    *kr = k / 2 < NTT_COL_LOG ? k / 2 : NTT_COL_LOG;
    *kc = k - *kr;
}

static void layout_of(unsigned log_n, domain_layout *l)
{
    unsigned L = log_n < NTT_LEAF_LOG ? log_n : NTT_LEAF_LOG;
    memset(l, 0, sizeof *l);
    l->stage = (size_t)1 << L;
    if (log_n > NTT_TOP_LEAF_LOG) {
        split(log_n, &l->kr, &l->kc);
        l->lo_log = (log_n + 1) / 2;
        l->plo = (size_t)1 << l->lo_log;
        l->phi = (size_t)1 << (log_n - l->lo_log);
        l->e = (size_t)1 << l->kr;
        l->f = (size_t)1 << l->kc;
    }
    size_t entries = 2 * (l->stage + l->plo + l->phi + l->e + l->f);
    size_t head = (sizeof(struct cz_ntt_domain) + 63) & ~(size_t)63;
    l->bytes = (head + entries * sizeof(cz_fr) + 63) & ~(size_t)63;
}

size_t cz_ntt_domain_bytes(unsigned log_n)
{
    domain_layout l;
    if (log_n < 1 || log_n > CZ_NTT_MAX_LOG)
        return 0;
    layout_of(log_n, &l);
    return l.bytes;
}

/* t[i] = c0 w^i for i < len. */
static void powers(cz_fr *t, const cz_fr *c0, const cz_fr *w, size_t len)
{
    cz_fr acc = *c0;
    for (size_t i = 0; i < len; i++) {
        t[i] = acc;
        cz_fr_mul(&acc, &acc, w);
    }
}

static void pow_u64(cz_fr *r, const cz_fr *a, uint64_t e) { cz_fr_pow(r, a, &e, 1); }

int cz_ntt_domain_new(cz_ntt_domain **out, unsigned log_n)
{
    return cz_ntt_domain_new_root(out, log_n, CZ_NTT_ROOT_BELLPERSON);
}

int cz_ntt_domain_new_root(cz_ntt_domain **out, unsigned log_n, unsigned root_base)
{
    /* (r - 1) / 2^32, odd; b^T generates the 2^32-th roots of unity for any
     * quadratic non-residue b (5 and 7 are). */
    static const uint64_t T[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                  0x299d7d483339d808ULL, 0x0000000073eda753ULL};
    domain_layout l;
    *out = NULL;
    if (log_n < 1 || log_n > CZ_NTT_MAX_LOG ||
        (root_base != CZ_NTT_ROOT_BELLPERSON && root_base != CZ_NTT_ROOT_SNARKJS))
        return CZ_ERR_INVALID_ARG;
    layout_of(log_n, &l);
    struct cz_ntt_domain *d = aligned_alloc(64, l.bytes);
    if (!d)
        return CZ_ERR_NOMEM;
    memset(d, 0, sizeof *d);
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->kr = l.kr;
    d->kc = l.kc;
    d->lo_log = l.lo_log;

    cz_fr *p = (cz_fr *)((char *)d + ((sizeof *d + 63) & ~(size_t)63));
    for (int s = 0; s < 2; s++) {
        d->stage[s] = p, p += l.stage;
        d->plo[s] = p, p += l.plo;
        d->phi[s] = p, p += l.phi;
        d->E[s] = p, p += l.e;
        d->F[s] = p, p += l.f;
    }

    cz_fr seven, nn, w, base;
    cz_fr_from_u64(&seven, 7);
    cz_fr_from_u64(&base, root_base);
    cz_fr_pow(&w, &base, T, 4);
    for (unsigned i = log_n + 1; i < 32; i++)
        cz_fr_sqr(&w, &w);
    d->omega2n = w;
    cz_fr_sqr(&w, &w);
    d->omega[0] = w;
    cz_fr_inv(&d->omega[1], &w);
    d->gamma[0] = seven;
    cz_fr_inv(&d->gamma[1], &seven);
    cz_fr_from_u64(&nn, d->n);
    cz_fr_inv(&d->n_inv, &nn);
    pow_u64(&d->z_inv, &seven, d->n);
    cz_fr_sub(&d->z_inv, &d->z_inv, &CZ_FR_ONE);
    cz_fr_inv(&d->z_inv, &d->z_inv);

    for (int s = 0; s < 2; s++) {
        /* stage tables: the top stage's powers of w_(2^L), then every lower
         * stage takes every other entry of the one above. */
        size_t top = l.stage / 2;
        cz_fr wl = d->omega[s];
        for (size_t m = d->n; m > l.stage; m >>= 1)
            cz_fr_sqr(&wl, &wl);
        powers(d->stage[s] + top, &CZ_FR_ONE, &wl, top);
        for (size_t h = top / 2; h >= 1; h >>= 1)
            for (size_t i = 0; i < h; i++)
                d->stage[s][h + i] = d->stage[s][2 * h + 2 * i];
        d->stage[s][0] = CZ_FR_ZERO;
        if (!l.plo)
            continue;
        cz_fr step;
        powers(d->plo[s], &CZ_FR_ONE, &d->omega[s], l.plo);
        pow_u64(&step, &d->omega[s], l.plo);
        powers(d->phi[s], &CZ_FR_ONE, &step, l.phi);
        pow_u64(&step, &d->gamma[s], l.f);
        powers(d->E[s], &CZ_FR_ONE, &step, l.e);
        pow_u64(&step, &d->gamma[s], l.e);
        cz_fr acc = CZ_FR_ONE;
        for (size_t j = 0; j < l.f; j++) {
            d->F[s][rev_bits(j, l.kc)] = acc;
            cz_fr_mul(&acc, &acc, &step);
        }
    }
    *out = d;
    return CZ_OK;
}

void cz_ntt_domain_free(cz_ntt_domain *d) { free(d); }
unsigned cz_ntt_domain_log(const cz_ntt_domain *d) { return d->log_n; }
size_t cz_ntt_domain_size(const cz_ntt_domain *d) { return d->n; }
void cz_ntt_domain_omega(cz_fr *r, const cz_ntt_domain *d, bool inverse) { *r = d->omega[inverse]; }
void cz_ntt_domain_omega2n(cz_fr *r, const cz_ntt_domain *d) { *r = d->omega2n; }
void cz_ntt_domain_n_inv(cz_fr *r, const cz_ntt_domain *d) { *r = d->n_inv; }
void cz_ntt_domain_coset(cz_fr *r, const cz_ntt_domain *d, bool inverse) { *r = d->gamma[inverse]; }
void cz_ntt_domain_z_inv(cz_fr *r, const cz_ntt_domain *d) { *r = d->z_inv; }

/* ------------------------------------------------------------ leaves --- */

/* Butterflies; w NULL means the twiddle 1. */
static inline void dif_bfly(cz_fr *a, cz_fr *b, const cz_fr *w)
{
    cz_fr t;
    fr_sub(&t, a, b);
    fr_add(a, a, b);
    if (w)
        cz_fr_mul(b, &t, w);
    else
        *b = t;
}

static inline void dit_bfly(cz_fr *a, cz_fr *b, const cz_fr *w)
{
    cz_fr t;
    if (w)
        cz_fr_mul(&t, b, w);
    else
        t = *b;
    fr_sub(b, a, &t);
    fr_add(a, a, &t);
}

/* One stage over x[0 .. 2h): pairs (i, i + h) with twiddles w[i] = w_2h^i.
 * Pairs go two at a time, additions first and then both products, so
 * that the two independent multiplications sit next to each other. */
static void dif_stage(cz_fr *x, size_t h, const cz_fr *w)
{
    cz_fr *y = x + h;
    dif_bfly(x, y, NULL);
    if (h == 1)
        return;
    dif_bfly(x + 1, y + 1, w + 1);
    for (size_t i = 2; i < h; i += 2) {
        cz_fr t0, t1;
        fr_sub(&t0, &x[i], &y[i]);
        fr_sub(&t1, &x[i + 1], &y[i + 1]);
        fr_add(&x[i], &x[i], &y[i]);
        fr_add(&x[i + 1], &x[i + 1], &y[i + 1]);
        cz_fr_mul(&y[i], &t0, &w[i]);
        cz_fr_mul(&y[i + 1], &t1, &w[i + 1]);
    }
}

static void dit_stage(cz_fr *x, size_t h, const cz_fr *w)
{
    cz_fr *y = x + h;
    dit_bfly(x, y, NULL);
    if (h == 1)
        return;
    dit_bfly(x + 1, y + 1, w + 1);
    for (size_t i = 2; i < h; i += 2) {
        cz_fr t0, t1;
        cz_fr_mul(&t0, &y[i], &w[i]);
        cz_fr_mul(&t1, &y[i + 1], &w[i + 1]);
        fr_sub(&y[i], &x[i], &t0);
        fr_sub(&y[i + 1], &x[i + 1], &t1);
        fr_add(&x[i], &x[i], &t0);
        fr_add(&x[i + 1], &x[i + 1], &t1);
    }
}

static void dif_leaf(cz_fr *x, unsigned j, const cz_fr *S)
{
    size_t m = (size_t)1 << j;
    if (j > DF_BASE_LOG) {
        dif_stage(x, m / 2, S + m / 2);
        dif_leaf(x, j - 1, S);
        dif_leaf(x + m / 2, j - 1, S);
        return;
    }
    for (size_t h = m / 2; h >= 2; h >>= 1)
        for (size_t b = 0; b < m; b += 2 * h)
            dif_stage(x + b, h, S + h);
    for (size_t b = 0; b + 1 < m; b += 2)
        dif_bfly(x + b, x + b + 1, NULL);
}

static void dit_leaf(cz_fr *x, unsigned j, const cz_fr *S)
{
    size_t m = (size_t)1 << j;
    if (j > DF_BASE_LOG) {
        dit_leaf(x, j - 1, S);
        dit_leaf(x + m / 2, j - 1, S);
        dit_stage(x, m / 2, S + m / 2);
        return;
    }
    for (size_t b = 0; b + 1 < m; b += 2)
        dit_bfly(x + b, x + b + 1, NULL);
    for (size_t h = 2; h < m; h <<= 1)
        for (size_t b = 0; b < m; b += 2 * h)
            dit_stage(x + b, h, S + h);
}

/* The same transforms down the NTT_COL_W columns of buf (R = 2^j rows of
 * NTT_COL_W elements): each twiddle serves a whole row. */
#define W NTT_COL_W

static void dif_cols(cz_fr *buf, unsigned j, const cz_fr *S)
{
    size_t R = (size_t)1 << j;
    for (size_t h = R / 2; h >= 1; h >>= 1)
        for (size_t b = 0; b < R; b += 2 * h) {
            cz_fr *u = buf + b * W, *v = buf + (b + h) * W, t[W];
            for (size_t g = 0; g < W; g++)
                dif_bfly(u + g, v + g, NULL);
            for (size_t i = 1; i < h; i++) {
                cz_fr *ui = u + i * W, *vi = v + i * W;
                for (size_t g = 0; g < W; g++) {
                    fr_sub(&t[g], &ui[g], &vi[g]);
                    fr_add(&ui[g], &ui[g], &vi[g]);
                }
                for (size_t g = 0; g < W; g++)
                    cz_fr_mul(&vi[g], &t[g], S + h + i);
            }
        }
}

static void dit_cols(cz_fr *buf, unsigned j, const cz_fr *S)
{
    size_t R = (size_t)1 << j;
    for (size_t h = 1; h < R; h <<= 1)
        for (size_t b = 0; b < R; b += 2 * h) {
            cz_fr *u = buf + b * W, *v = buf + (b + h) * W, t[W];
            for (size_t g = 0; g < W; g++)
                dit_bfly(u + g, v + g, NULL);
            for (size_t i = 1; i < h; i++) {
                cz_fr *ui = u + i * W, *vi = v + i * W;
                for (size_t g = 0; g < W; g++)
                    cz_fr_mul(&t[g], &vi[g], S + h + i);
                for (size_t g = 0; g < W; g++) {
                    fr_sub(&vi[g], &ui[g], &t[g]);
                    fr_add(&ui[g], &ui[g], &t[g]);
                }
            }
        }
}

/* ---------------------------------------------------------- four-step --- */

enum { FOLD_NONE, FOLD_NAT, FOLD_REV };

typedef struct level {
    const cz_ntt_domain *d;
    cz_fr *x;
    unsigned k, kr, kc;
    int inv, dit;
    /* Top level only: coefficient j is scaled by c0 gamma^j.  FOLD_NAT: the
     * coefficients are in natural order (forward DIF input, inverse DIT
     * output): c0 gamma^kappa is constant down column kappa and joins the
     * twiddles, gamma^(C rho) = E[rho] multiplies the column pass.
     * FOLD_REV: bit-reversed coefficients (forward DIT input, inverse DIF
     * output), j = bitrev(rho) + R bitrev(kappa): c0 gamma^bitrev(rho) is
     * constant along row rho and joins the twiddles, F[kappa] multiplies
     * the row pass. */
    int fold;
    int coset;
    cz_fr c0;
} level;

static void four_step(const level *L, cz_pool *pool);

static void scale_rows(cz_fr *buf, const cz_fr *E, size_t R)
{
    for (size_t r = 0; r < R; r++)
        for (size_t g = 0; g < W; g++)
            cz_fr_mul(&buf[r * W + g], &buf[r * W + g], &E[r]);
}

/* Step (2) on a gathered group, columns c = col0 .. col0 + W - 1: row
 * position p holds k = bitrev(p) and is multiplied by s_c q_c^k, with
 * q_c = w^c (times gamma under FOLD_REV) and s_c = 1 (no fold), c0, or
 * c0 gamma^c (FOLD_NAT with a coset; gc = gamma^col0).  2 products per
 * element: the next power, and applying it. */
static void twiddle_group(const level *L, cz_fr *buf, size_t col0, const cz_fr *gc)
{
    const cz_ntt_domain *d = L->d;
    size_t R = (size_t)1 << L->kr;
    cz_fr q[W], t[W], wstep;
    size_t e = col0 << (d->log_n - L->k); /* w_(2^k)^col0 = w_n^e */
    cz_fr_mul(&q[0], &d->plo[L->inv][e & (((size_t)1 << d->lo_log) - 1)],
              &d->phi[L->inv][e >> d->lo_log]);
    wstep = d->plo[L->inv][(size_t)1 << (d->log_n - L->k)];
    for (size_t g = 1; g < W; g++)
        cz_fr_mul(&q[g], &q[g - 1], &wstep);
    int scale0 = 1; /* row 0 multiplied by s_c? */
    if (L->fold == FOLD_NONE) {
        for (size_t g = 0; g < W; g++)
            t[g] = CZ_FR_ONE;
        scale0 = 0;
    } else if (L->fold == FOLD_REV || L->coset == NTT_NO_COSET) {
        for (size_t g = 0; g < W; g++) {
            t[g] = L->c0;
            if (L->fold == FOLD_REV && L->coset != NTT_NO_COSET)
                cz_fr_mul(&q[g], &q[g], &d->gamma[L->coset]);
        }
    } else {
        cz_fr_mul(&t[0], &L->c0, gc);
        for (size_t g = 1; g < W; g++)
            cz_fr_mul(&t[g], &t[g - 1], &d->gamma[L->coset]);
    }
    if (scale0)
        for (size_t g = 0; g < W; g++)
            cz_fr_mul(&buf[g], &buf[g], &t[g]);
    for (size_t k = 1; k < R; k++) {
        cz_fr *row = buf + rev_bits(k, L->kr) * W;
        /* two loops of independent products keep the multiplier busy */
        for (size_t g = 0; g < W; g++)
            cz_fr_mul(&t[g], &t[g], &q[g]);
        for (size_t g = 0; g < W; g++)
            cz_fr_mul(&row[g], &row[g], &t[g]);
    }
}

static void col_task(void *ctx, size_t begin, size_t end)
{
    const level *L = ctx;
    const cz_ntt_domain *d = L->d;
    const cz_fr *S = d->stage[L->inv];
    size_t R = (size_t)1 << L->kr, C = (size_t)1 << L->kc;
    int rows_scaled = L->fold == FOLD_NAT && L->coset != NTT_NO_COSET;
    _Alignas(64) cz_fr buf[((size_t)1 << NTT_COL_LOG) * W];
    cz_fr gc = CZ_FR_ONE, gW;
    if (rows_scaled) { /* gamma^col0 for the first group, then steps of gamma^W */
        pow_u64(&gc, &d->gamma[L->coset], begin * W);
        pow_u64(&gW, &d->gamma[L->coset], W);
    }
    for (size_t grp = begin; grp < end; grp++) {
        size_t col0 = grp * W;
        for (size_t r = 0; r < R; r++)
            memcpy(buf + r * W, L->x + r * C + col0, W * sizeof(cz_fr));
        if (!L->dit) {
            if (rows_scaled)
                scale_rows(buf, d->E[L->coset], R);
            dif_cols(buf, L->kr, S);
            twiddle_group(L, buf, col0, &gc);
        } else {
            twiddle_group(L, buf, col0, &gc);
            dit_cols(buf, L->kr, S);
            if (rows_scaled)
                scale_rows(buf, d->E[L->coset], R);
        }
        for (size_t r = 0; r < R; r++)
            memcpy(L->x + r * C + col0, buf + r * W, W * sizeof(cz_fr));
        if (rows_scaled)
            cz_fr_mul(&gc, &gc, &gW);
    }
}

static void scale_row(cz_fr *row, const cz_fr *F, size_t C)
{
    for (size_t i = 0; i < C; i++)
        cz_fr_mul(&row[i], &row[i], &F[i]);
}

static void row_task(void *ctx, size_t begin, size_t end)
{
    const level *L = ctx;
    const cz_ntt_domain *d = L->d;
    size_t C = (size_t)1 << L->kc;
    const cz_fr *F = L->fold == FOLD_REV && L->coset != NTT_NO_COSET ? d->F[L->coset] : NULL;
    for (size_t r = begin; r < end; r++) {
        cz_fr *row = L->x + r * C;
        if (F && L->dit)
            scale_row(row, F, C);
        if (L->kc <= NTT_LEAF_LOG) {
            if (L->dit)
                dit_leaf(row, L->kc, d->stage[L->inv]);
            else
                dif_leaf(row, L->kc, d->stage[L->inv]);
        } else {
            level sub = {.d = d,
                         .x = row,
                         .k = L->kc,
                         .inv = L->inv,
                         .dit = L->dit,
                         .fold = FOLD_NONE,
                         .coset = NTT_NO_COSET,
                         .c0 = CZ_FR_ONE};
            split(L->kc, &sub.kr, &sub.kc);
            four_step(&sub, NULL);
        }
        if (F && !L->dit)
            scale_row(row, F, C);
    }
}

static void four_step(const level *L, cz_pool *pool)
{
    size_t groups = ((size_t)1 << L->kc) / W, rows = (size_t)1 << L->kr;
    if (!L->dit) {
        cz_pool_parallel_for(pool, groups, 1, col_task, (void *)L);
        cz_pool_parallel_for(pool, rows, 1, row_task, (void *)L);
    } else {
        cz_pool_parallel_for(pool, rows, 1, row_task, (void *)L);
        cz_pool_parallel_for(pool, groups, 1, col_task, (void *)L);
    }
}

/* x[j] *= c0 gamma^j for a small vector, coefficient j at index j or
 * bitrev(j). */
static void scale_small(const cz_ntt_domain *d, cz_fr *x, int rev, const cz_fr *c0, int coset)
{
    cz_fr t = c0 ? *c0 : CZ_FR_ONE;
    for (size_t j = 0; j < d->n; j++) {
        cz_fr *v = &x[rev ? rev_bits(j, d->log_n) : j];
        cz_fr_mul(v, v, &t);
        if (coset != NTT_NO_COSET)
            cz_fr_mul(&t, &t, &d->gamma[coset]);
    }
}

void cz_ntt_exec(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *c0, int coset,
                 cz_pool *pool)
{
    int scaled = c0 || coset != NTT_NO_COSET;
    int rev_coeffs = dit ^ inv; /* the coefficients' layout */
    /* One thread and a leaf-sized vector: the leaf alone needs about one
     * multiplication per element fewer than four-step. */
    if (!d->kr || (!pool && d->log_n <= NTT_LEAF_LOG)) {
        if (scaled && !inv)
            scale_small(d, x, rev_coeffs, c0, coset);
        if (dit)
            dit_leaf(x, d->log_n, d->stage[inv]);
        else
            dif_leaf(x, d->log_n, d->stage[inv]);
        if (scaled && inv)
            scale_small(d, x, rev_coeffs, c0, coset);
        return;
    }
    level L = {.d = d,
               .x = x,
               .k = d->log_n,
               .kr = d->kr,
               .kc = d->kc,
               .inv = inv,
               .dit = dit,
               .fold = !scaled      ? FOLD_NONE
                       : rev_coeffs ? FOLD_REV
                                    : FOLD_NAT,
               .coset = coset,
               .c0 = c0 ? *c0 : CZ_FR_ONE};
    four_step(&L, pool);
}

/* ------------------------------------------------------ bit reversal --- */

typedef struct {
    cz_fr *x;
    const cz_fr *y, *z;
    unsigned k, t;
} br_ctx;

/* Index p = (a, b, c) with a, c of t bits and b of k - 2t bits goes to
 * bitrev(p) = (rev c, rev b, rev a): tile b (2^t rows a of 2^t contiguous
 * c) trades places with tile rev(b), transposed and bit-reversed. */
static void br_load(const br_ctx *B, cz_fr *tile, size_t b)
{
    size_t T = (size_t)1 << B->t;
    for (size_t a = 0; a < T; a++) {
        size_t p = (a << (B->k - B->t)) | (b << B->t);
        if (!B->y) {
            memcpy(tile + a * T, B->x + p, T * sizeof(cz_fr));
            continue;
        }
        for (size_t c = 0; c < T; c++) {
            cz_fr_mul(&tile[a * T + c], &B->x[p + c], &B->y[p + c]);
            fr_sub(&tile[a * T + c], &tile[a * T + c], &B->z[p + c]);
        }
    }
}

static void br_store(const br_ctx *B, const cz_fr *tile, size_t b, const size_t *rev)
{
    size_t T = (size_t)1 << B->t;
    for (size_t a = 0; a < T; a++) {
        cz_fr *dst = B->x + ((a << (B->k - B->t)) | (b << B->t));
        for (size_t c = 0; c < T; c++)
            dst[c] = tile[rev[c] * T + rev[a]];
    }
}

static void br_task(void *ctx, size_t begin, size_t end)
{
    const br_ctx *B = ctx;
    unsigned mid = B->k - 2 * B->t;
    size_t T = (size_t)1 << B->t, rev[1 << BR_TILE_LOG];
    _Alignas(64) cz_fr t0[1 << (2 * BR_TILE_LOG)], t1[1 << (2 * BR_TILE_LOG)];
    for (size_t c = 0; c < T; c++)
        rev[c] = rev_bits(c, B->t);
    for (size_t b = begin; b < end; b++) {
        size_t rb = rev_bits(b, mid);
        if (rb < b)
            continue;
        br_load(B, t0, b);
        if (rb == b) {
            br_store(B, t0, b, rev);
            continue;
        }
        br_load(B, t1, rb);
        br_store(B, t1, b, rev);
        br_store(B, t0, rb, rev);
    }
}

void cz_ntt_bitrev_fused(cz_fr *x, const cz_fr *y, const cz_fr *z, unsigned log_n, cz_pool *pool)
{
    size_t n = (size_t)1 << log_n;
    if (log_n < 2 * 2) { /* tiny: elementwise, then swaps */
        for (size_t i = 0; y && i < n; i++) {
            cz_fr_mul(&x[i], &x[i], &y[i]);
            fr_sub(&x[i], &x[i], &z[i]);
        }
        for (size_t i = 0; i < n; i++) {
            size_t j = rev_bits(i, log_n);
            if (i < j) {
                cz_fr t = x[i];
                x[i] = x[j];
                x[j] = t;
            }
        }
        return;
    }
    br_ctx B = {
        .x = x, .y = y, .z = z, .k = log_n, .t = log_n / 2 < BR_TILE_LOG ? log_n / 2 : BR_TILE_LOG};
    cz_pool_parallel_for(pool, (size_t)1 << (log_n - 2 * B.t), 1, br_task, &B);
}

void cz_ntt_bitrev(cz_fr *x, unsigned log_n, cz_pool *pool)
{
    cz_ntt_bitrev_fused(x, NULL, NULL, log_n, pool);
}

/* ------------------------------------------------------------ public --- */

void cz_ntt(const cz_ntt_domain *d, cz_fr *x, cz_ntt_kind kind, cz_ntt_order order, cz_pool *pool)
{
    int inv = kind == CZ_NTT_INVERSE || kind == CZ_NTT_COSET_INVERSE;
    int coset = kind == CZ_NTT_COSET_FORWARD   ? NTT_COSET_G
                : kind == CZ_NTT_COSET_INVERSE ? NTT_COSET_GINV
                                               : NTT_NO_COSET;
    int dit = order == CZ_NTT_RN || order == CZ_NTT_RR;
    cz_ntt_exec(d, x, dit, inv, inv ? &d->n_inv : NULL, coset, pool);
    if (order == CZ_NTT_NN || order == CZ_NTT_RR)
        cz_ntt_bitrev(x, d->log_n, pool);
}

typedef struct {
    cz_fr *x;
    const cz_fr *y;
} pw_ctx;

static void pw_task(void *ctx, size_t begin, size_t end)
{
    const pw_ctx *c = ctx;
    for (size_t i = begin; i < end; i++)
        cz_fr_mul(&c->x[i], &c->x[i], &c->y[i]);
}

void cz_ntt_pointwise_mul(cz_fr *x, const cz_fr *y, size_t n, cz_pool *pool)
{
    pw_ctx c = {x, y};
    cz_pool_parallel_for(pool, n, 4096, pw_task, &c);
}
