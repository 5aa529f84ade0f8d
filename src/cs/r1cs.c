/* A finished R1CS: accessors, densities, the sparse products A w, B w, C w
 * and the satisfaction check. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cs/cs_internal.h"
#include "cuzk/err.h"
#include "ff/fr_inline.h"

void cz_r1cs_free(cz_r1cs *r)
{
    if (r == NULL)
        return;
    cz_r1cs_free_hook hook = atomic_load(&r->on_free);
    if (hook != NULL)
        hook(r);
    if (r->storage == CZ_R1CS_OWNED) {
        for (int k = 0; k < 3; k++) {
            cz_cs_mem_free((void *)r->m[k].row_blk);
            cz_cs_mem_free((void *)r->m[k].row_off);
            cz_cs_mem_free((void *)r->m[k].coef_blk);
            cz_cs_mem_free((void *)r->m[k].col);
            cz_cs_mem_free((void *)r->m[k].gidx);
            cz_cs_mem_free((void *)r->m[k].dict);
        }
    } else if (r->storage == CZ_R1CS_MAPPED) {
        munmap(r->map, r->map_len);
    }
    for (int d = 0; d < 3; d++)
        cz_cs_mem_free(r->dens[d]);
    cz_cs_mem_free(r->row_ns);
    cz_cs_mem_free(r->ns_parent);
    cz_cs_mem_free(r->ns_name);
    cz_cs_mem_free(r->names);
    free(r);
}

bool cz_r1cs_set_free_hook(const cz_r1cs *r, cz_r1cs_free_hook fn)
{
    cz_r1cs_free_hook none = NULL;
    cz_r1cs *w = (cz_r1cs *)r; /* the hook is bookkeeping, not the matrices */
    return atomic_compare_exchange_strong(&w->on_free, &none, fn) || none == fn;
}

size_t cz_r1cs_release_pages(const cz_r1cs *r)
{
    if (r->storage != CZ_R1CS_MAPPED)
        return 0;
    /* a private read-only file mapping: dropped pages fault back in from
     * the file */
    (void)madvise(r->map, r->map_len, MADV_DONTNEED);
    return r->map_len;
}

size_t cz_r1cs_num_inputs(const cz_r1cs *r) { return r->n_in; }
size_t cz_r1cs_num_aux(const cz_r1cs *r) { return r->n_aux; }
size_t cz_r1cs_num_constraints(const cz_r1cs *r) { return r->n_rows; }
size_t cz_r1cs_num_circuit_constraints(const cz_r1cs *r) { return r->n_circ; }

const cz_csr *cz_r1cs_matrix(const cz_r1cs *r, int m)
{
    return m >= CZ_MAT_A && m <= CZ_MAT_C ? &r->m[m] : NULL;
}

const uint64_t *cz_r1cs_density(const cz_r1cs *r, cz_density d, size_t *count)
{
    if ((unsigned)d > CZ_DENSITY_B_AUX)
        return NULL;
    if (count)
        *count = r->dens_count[d];
    return r->dens[d];
}

static size_t words(uint64_t bits) { return (size_t)((bits + 63) / 64); }
static size_t dens_words(uint64_t bits) { return words(bits) ? words(bits) : 1; }

size_t cz_r1cs_mem_bytes(const cz_r1cs *r)
{
    size_t b = sizeof *r;
    /* cz_csr's arrays (their sizes in cs.h) */
    for (int k = 0; k < 3; k++)
        b += 2 * (r->n_rows / CZ_CSR_BLOCK + 1) * sizeof(uint64_t) +
             (r->n_rows + 1 + r->m[k].nnz + r->m[k].ngen) * sizeof(uint32_t) +
             r->m[k].ndict * sizeof(cz_fr);
    /* the density bitmaps, one word at least (cz_r1cs_build_densities) */
    b += (2 * dens_words(r->n_aux) + dens_words(r->n_in)) * sizeof(uint64_t);
    if (r->row_ns)
        b += r->n_circ * sizeof(uint32_t) + r->n_ns * 2 * sizeof(uint32_t) + r->names_len;
    return b;
}

int cz_r1cs_build_densities(cz_r1cs *r)
{
    const uint64_t len[3] = {r->n_aux, r->n_in, r->n_aux};
    for (int d = 0; d < 3; d++) {
        size_t n = dens_words(len[d]);
        r->dens[d] = cz_cs_mem_realloc(NULL, n * sizeof(uint64_t));
        if (r->dens[d] == NULL)
            return CZ_ERR_NOMEM;
        memset(r->dens[d], 0, n * sizeof(uint64_t));
    }
    /* Zero coefficients are never stored, so "non-zero coefficient" is
     * "has an entry". */
    const cz_csr *a = &r->m[CZ_MAT_A], *b = &r->m[CZ_MAT_B];
    for (uint64_t k = 0; k < a->nnz; k++) {
        uint64_t c = a->col[k] & CZ_CSR_COL_MASK;
        if (c >= r->n_in)
            r->dens[CZ_DENSITY_A_AUX][(c - r->n_in) / 64] |= 1ULL << ((c - r->n_in) % 64);
    }
    for (uint64_t k = 0; k < b->nnz; k++) {
        uint64_t c = b->col[k] & CZ_CSR_COL_MASK;
        if (c >= r->n_in)
            r->dens[CZ_DENSITY_B_AUX][(c - r->n_in) / 64] |= 1ULL << ((c - r->n_in) % 64);
        else
            r->dens[CZ_DENSITY_B_INPUT][c / 64] |= 1ULL << (c % 64);
    }
    for (int d = 0; d < 3; d++) {
        size_t cnt = 0;
        for (size_t i = 0; i < words(len[d]); i++)
            cnt += (size_t)__builtin_popcountll(r->dens[d][i]);
        r->dens_count[d] = cnt;
    }
    return CZ_OK;
}

/* --------------------------------------------------------------- SpMV --- */

/* x == 0 and x == 1 (Montgomery 1 is R mod r), limb by limb: values are
 * fully reduced, so each has one representation. */
static inline bool fr_is_zero_var(const cz_fr *x)
{
    return (x->l[0] | x->l[1] | x->l[2] | x->l[3]) == 0;
}

static inline bool fr_is_one_var(const cz_fr *x)
{
    return ((x->l[0] ^ CZ_FR_ONE.l[0]) | (x->l[1] ^ CZ_FR_ONE.l[1]) | (x->l[2] ^ CZ_FR_ONE.l[2]) |
            (x->l[3] ^ CZ_FR_ONE.l[3])) == 0;
}

/* How far ahead (in entries) row_dot_var prefetches w: on the 2KiB PoRep
 * circuit one thread takes 116 ms for A w + B w + C w without, 104 ms
 * with 32 (and 109 with 16; BENCHMARKS.md, 2026-12-01). */
#define W_PREFETCH 32

/* out = the row of m whose entries are *k .. end - 1 times w; *k and *g
 * (m's general entries) must be the row's first ones and are left at the
 * next row's.  Per entry: 1 addition for kinds ONE and NEG; for GEN,
 * nothing when w is 0, 1 addition when w is 1, else 1 multiplication + 1
 * addition.  A Filecoin witness is mostly bits (93% of the 2KiB PoRep
 * circuit's general entries in A meet a 0 or a 1), so most general entries
 * take no multiplication; the result is the same field element (0 c = 0
 * and 1 c = c exactly, values fully reduced), bit for bit.  The time
 * depends on w, which is public to the prover (as in msm.h). */
static inline void row_dot_var(const cz_csr *m, const cz_fr *w, uint64_t *k, uint64_t end,
                               uint64_t *g, cz_fr *out)
{
    cz_fr acc = CZ_FR_ZERO, t;
    uint64_t gi = *g, e = *k;
    for (; e < end; e++) {
        if (e + W_PREFETCH < m->nnz)
            __builtin_prefetch(&w[m->col[e + W_PREFETCH] & CZ_CSR_COL_MASK]);
        uint32_t x_e = m->col[e];
        const cz_fr *x = &w[x_e & CZ_CSR_COL_MASK];
        switch (CZ_CSR_KIND(x_e)) {
        case CZ_CSR_ONE:
            fr_add(&acc, &acc, x);
            break;
        case CZ_CSR_NEG:
            fr_sub(&acc, &acc, x);
            break;
        default: {
            const cz_fr *c = cz_csr_gen_coef(m, gi++);
            if (fr_is_zero_var(x))
                break;
            if (fr_is_one_var(x)) {
                fr_add(&acc, &acc, c);
            } else {
                cz_fr_mul(&t, x, c);
                fr_add(&acc, &acc, &t);
            }
            break;
        }
        }
    }
    *k = e;
    *g = gi;
    *out = acc;
}

typedef struct {
    const cz_r1cs *r;
    const cz_fr *w;
    cz_fr *out[3];
    uint64_t *fail; /* check: first failing row per block, or UINT64_MAX */
} spmv_ctx;

/* Blocks [b0, b1) of 64 rows each. */
static void spmv_blocks(void *vctx, size_t b0, size_t b1)
{
    const spmv_ctx *c = vctx;
    const cz_r1cs *r = c->r;
    for (int k = 0; k < 3; k++) {
        if (c->out[k] == NULL)
            continue;
        const cz_csr *m = &r->m[k];
        for (size_t blk = b0; blk < b1; blk++) {
            uint64_t g = m->coef_blk[blk], e = m->row_blk[blk];
            uint64_t end =
                (blk + 1) * CZ_CSR_BLOCK < r->n_rows ? (blk + 1) * CZ_CSR_BLOCK : r->n_rows;
            for (uint64_t row = blk * CZ_CSR_BLOCK; row < end; row++)
                row_dot_var(m, c->w, &e, cz_csr_row_end(m, row), &g, &c->out[k][row]);
        }
    }
}

static void check_blocks(void *vctx, size_t b0, size_t b1)
{
    const spmv_ctx *c = vctx;
    const cz_r1cs *r = c->r;
    for (size_t blk = b0; blk < b1; blk++) {
        uint64_t g[3], e[3];
        for (int k = 0; k < 3; k++) {
            g[k] = r->m[k].coef_blk[blk];
            e[k] = r->m[k].row_blk[blk];
        }
        uint64_t end = (blk + 1) * CZ_CSR_BLOCK < r->n_rows ? (blk + 1) * CZ_CSR_BLOCK : r->n_rows;
        c->fail[blk] = UINT64_MAX;
        for (uint64_t row = blk * CZ_CSR_BLOCK; row < end; row++) {
            cz_fr v[3], ab;
            for (int k = 0; k < 3; k++)
                row_dot_var(&r->m[k], c->w, &e[k], cz_csr_row_end(&r->m[k], row), &g[k], &v[k]);
            /* a b, without the multiplication when a or b is 0 or 1 (a
             * boolean's b (1 - b) = 0 has a 0 on one side) */
            if (fr_is_zero_var(&v[0]) || fr_is_zero_var(&v[1]))
                ab = CZ_FR_ZERO;
            else if (fr_is_one_var(&v[0]))
                ab = v[1];
            else if (fr_is_one_var(&v[1]))
                ab = v[0];
            else
                cz_fr_mul(&ab, &v[0], &v[1]);
            if (!cz_fr_equal(&ab, &v[2])) {
                c->fail[blk] = row;
                break;
            }
        }
    }
}

int cz_r1cs_spmv(const cz_r1cs *r, const cz_fr *w, size_t w_len, cz_fr *a, cz_fr *b, cz_fr *c,
                 cz_pool *pool)
{
    if (r == NULL || w_len != r->n_in + r->n_aux || w == NULL)
        return CZ_ERR_INVALID_ARG;
    spmv_ctx ctx = {r, w, {a, b, c}, NULL};
    size_t nb = (r->n_rows + CZ_CSR_BLOCK - 1) / CZ_CSR_BLOCK;
    cz_pool_parallel_for(pool, nb, 16, spmv_blocks, &ctx);
    return CZ_OK;
}

const char *cz_r1cs_ns_path(const cz_r1cs *r, size_t row, char *buf, size_t buf_len)
{
    if (buf_len == 0)
        return buf;
    buf[0] = 0;
    if (r->row_ns == NULL || row >= r->n_circ)
        return buf;
    /* depth of the row's entry, then names root first */
    uint32_t leaf = r->row_ns[row];
    size_t depth = 0;
    for (uint32_t e = leaf; e != 0; e = r->ns_parent[e])
        depth++;
    size_t pos = 0;
    for (size_t d = depth; d > 0; d--) {
        uint32_t e = leaf;
        for (size_t up = 1; up < d; up++)
            e = r->ns_parent[e];
        int n = snprintf(buf + pos, buf_len - pos, "%s%s", d == depth ? "" : "/",
                         r->names + r->ns_name[e]);
        if (n < 0 || (size_t)n >= buf_len - pos)
            break;
        pos += (size_t)n;
    }
    return buf;
}

int cz_r1cs_check(const cz_r1cs *r, const cz_fr *w, size_t w_len, cz_pool *pool, size_t *row,
                  char *msg, size_t msg_len)
{
    if (msg_len)
        msg[0] = 0;
    if (r == NULL || w_len != r->n_in + r->n_aux || w == NULL)
        return CZ_ERR_INVALID_ARG;
    size_t nb = (r->n_rows + CZ_CSR_BLOCK - 1) / CZ_CSR_BLOCK;
    uint64_t *fail = cz_cs_mem_realloc(NULL, (nb ? nb : 1) * sizeof *fail);
    if (fail == NULL)
        return CZ_ERR_NOMEM;
    spmv_ctx ctx = {r, w, {NULL, NULL, NULL}, fail};
    cz_pool_parallel_for(pool, nb, 16, check_blocks, &ctx);
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; i < nb && first == UINT64_MAX; i++)
        first = fail[i];
    cz_cs_mem_free(fail);
    if (first == UINT64_MAX)
        return CZ_OK;
    if (row)
        *row = (size_t)first;
    if (msg_len) {
        char path[256];
        cz_r1cs_ns_path(r, (size_t)first, path, sizeof path);
        if (first >= r->n_circ)
            snprintf(msg, msg_len, "constraint %llu (input constraint %llu) is not satisfied",
                     (unsigned long long)first, (unsigned long long)(first - r->n_circ));
        else
            snprintf(msg, msg_len, "constraint %llu (%s) is not satisfied",
                     (unsigned long long)first, path[0] ? path : "no namespace");
    }
    return CZ_ERR_UNSATISFIED;
}
