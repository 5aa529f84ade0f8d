/* Poseidon as neptune computes it (include/cuzk/poseidon.h): parameters
 * (round numbers, Grain LFSR constants, Cauchy MDS matrix, compressed
 * constants, sparse factorisation), the native hash and the legacy circuit. */
#include "cuzk/poseidon.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "ff/fr_inline.h"

#define TMAX CZ_POSEIDON_MAX_WIDTH

/* ------------------------------------------------------- round numbers --- */

/* The paper's inequalities (eq. 2-4 with the Groebner bounds) for a 256-bit
 * field and 128-bit security, in single precision as neptune evaluates them. */
static bool rounds_secure(unsigned t, unsigned rf, unsigned rp)
{
    const float n = 256.0f, m = 128.0f, tf = (float)t, rpf = (float)rp;
    float bound[4];
    bound[0] = m <= (n - 3.0f) * (tf + 1.0f) ? 6.0f : 10.0f;
    bound[1] = 0.43f * m + log2f(tf) - rpf;
    bound[2] = 0.21f * n - rpf;
    bound[3] = (0.14f * n - 1.0f - rpf) / (tf - 1.0f);
    unsigned need = 0;
    for (int k = 0; k < 4; k++) {
        float c = ceilf(bound[k]);
        unsigned u = c > 0.0f ? (unsigned)c : 0u; /* negative bounds saturate to 0 */
        need = u > need ? u : need;
    }
    return rf >= need;
}

void cz_poseidon_round_numbers(unsigned t, unsigned *rf, unsigned *rp)
{
    unsigned best_rf = 0, best_rp = 0;
    size_t best_cost = SIZE_MAX;
    for (unsigned rf0 = 2; rf0 <= 1000; rf0 += 2) {
        /* neptune's search adds the margin to the full-round counter itself,
         * which then stays raised for the rest of this row of the search. */
        unsigned rf_test = rf0;
        for (unsigned rp_test = 4; rp_test < 200; rp_test++) {
            if (!rounds_secure(t, rf_test, rp_test))
                continue;
            rf_test += 2;
            unsigned rp_m = (unsigned)ceilf(1.075f * (float)rp_test);
            size_t cost = (size_t)t * rf_test + rp_m;
            if (cost < best_cost || (cost == best_cost && rf_test < best_rf)) {
                best_rf = rf_test;
                best_rp = rp_m;
                best_cost = cost;
            }
        }
    }
    *rf = best_rf;
    *rp = best_rp;
}

/* ---------------------------------------------------------------- grain --- */

/* The 80-bit Grain LFSR of the paper's appendix F, self-shrinking. */
typedef struct {
    uint8_t b[80];
    unsigned head; /* index of b_i, the oldest bit */
} grain;

static unsigned grain_step(grain *g)
{
    static const unsigned taps[5] = {62, 51, 38, 23, 13};
    unsigned nb = g->b[g->head];
    for (int k = 0; k < 5; k++)
        nb ^= g->b[(g->head + taps[k]) % 80];
    g->b[g->head] = (uint8_t)nb;
    g->head = (g->head + 1) % 80;
    return nb;
}

static unsigned grain_bit(grain *g)
{
    while (!grain_step(g))
        grain_step(g);
    return grain_step(g);
}

static void grain_push(grain *g, unsigned *pos, uint64_t v, unsigned width)
{
    for (unsigned k = width; k-- > 0;)
        g->b[(*pos)++] = (uint8_t)((v >> k) & 1);
}

/* n = (rf + rp) * t constants: 255-bit big-endian samples, those >= r
 * rejected. */
static void grain_constants(cz_fr *out, unsigned t, unsigned rf, unsigned rp)
{
    grain g = {.head = 0};
    unsigned pos = 0;
    grain_push(&g, &pos, 1, 2); /* prime field */
    grain_push(&g, &pos, 1, 4); /* x^alpha S-box */
    grain_push(&g, &pos, 255, 12);
    grain_push(&g, &pos, t, 12);
    grain_push(&g, &pos, rf, 10);
    grain_push(&g, &pos, rp, 10);
    grain_push(&g, &pos, (1u << 30) - 1, 30);
    for (int k = 0; k < 160; k++)
        grain_step(&g);
    for (size_t i = 0, n = (size_t)(rf + rp) * t; i < n;) {
        uint8_t be[32] = {0};
        for (unsigned k = 0; k < 255; k++) {
            unsigned bit = 254 - k; /* value bit, first output is the top */
            if (grain_bit(&g))
                be[31 - bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
        if (cz_fr_from_bytes_be(&out[i], be) == CZ_OK)
            i++;
    }
}

/* ------------------------------------------------------------- matrices --- */

/* n x n row-major matrices, n <= TMAX. */

static void mat_mul(cz_fr *r, const cz_fr *a, const cz_fr *b, unsigned n)
{
    cz_fr tmp[TMAX * TMAX], p;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            tmp[i * n + j] = CZ_FR_ZERO;
            for (unsigned k = 0; k < n; k++) {
                cz_fr_mul(&p, &a[i * n + k], &b[k * n + j]);
                cz_fr_add(&tmp[i * n + j], &tmp[i * n + j], &p);
            }
        }
    memcpy(r, tmp, (size_t)n * n * sizeof *r);
}

/* r = m v (r may not alias v). */
static void mat_apply(cz_fr *r, const cz_fr *m, const cz_fr *v, unsigned n)
{
    cz_fr p;
    for (unsigned i = 0; i < n; i++) {
        cz_fr_mul(&r[i], &m[i * n], &v[0]);
        for (unsigned j = 1; j < n; j++) {
            cz_fr_mul(&p, &m[i * n + j], &v[j]);
            fr_add(&r[i], &r[i], &p);
        }
    }
}

/* r = v^T m, i.e. r_j = sum_i m[i][j] v_i (r may not alias v). */
static void mat_apply_t(cz_fr *r, const cz_fr *m, const cz_fr *v, unsigned n)
{
    cz_fr p;
    for (unsigned j = 0; j < n; j++) {
        cz_fr_mul(&r[j], &m[j], &v[0]);
        for (unsigned i = 1; i < n; i++) {
            cz_fr_mul(&p, &m[i * n + j], &v[i]);
            fr_add(&r[j], &r[j], &p);
        }
    }
}

/* r = a^-1 by Gauss-Jordan elimination; false if a is singular. */
static bool mat_inv(cz_fr *r, const cz_fr *a, unsigned n)
{
    cz_fr w[TMAX * TMAX], inv, f, p;
    memcpy(w, a, (size_t)n * n * sizeof *w);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            r[i * n + j] = i == j ? CZ_FR_ONE : CZ_FR_ZERO;
    for (unsigned c = 0; c < n; c++) {
        unsigned piv = c;
        while (piv < n && cz_fr_is_zero(&w[piv * n + c]))
            piv++;
        if (piv == n)
            return false;
        for (unsigned j = 0; j < n; j++) {
            cz_fr s = w[c * n + j];
            w[c * n + j] = w[piv * n + j], w[piv * n + j] = s;
            s = r[c * n + j];
            r[c * n + j] = r[piv * n + j], r[piv * n + j] = s;
        }
        cz_fr_inv(&inv, &w[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            cz_fr_mul(&w[c * n + j], &w[c * n + j], &inv);
            cz_fr_mul(&r[c * n + j], &r[c * n + j], &inv);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == c || cz_fr_is_zero(&w[i * n + c]))
                continue;
            f = w[i * n + c];
            for (unsigned j = 0; j < n; j++) {
                cz_fr_mul(&p, &f, &w[c * n + j]);
                cz_fr_sub(&w[i * n + j], &w[i * n + j], &p);
                cz_fr_mul(&p, &f, &r[c * n + j]);
                cz_fr_sub(&r[i * n + j], &r[i * n + j], &p);
            }
        }
    }
    return true;
}

/* ----------------------------------------------------------- parameters --- */

static const unsigned ARITIES[] = {2, 4, 8, 11, 16};
#define N_ARITIES (sizeof ARITIES / sizeof ARITIES[0])

static int arity_slot(unsigned arity)
{
    for (unsigned k = 0; k < N_ARITIES; k++)
        if (ARITIES[k] == arity)
            return (int)k;
    return -1;
}

/* Constants are pushed back through the linear layers so that each is added
 * after an S-box: the first round keeps its keys (added before the first
 * S-boxes); each later full round of the first half adds M^-1 of the next
 * round's keys; the partial rounds, walked from the last, fold M^-1 of the
 * accumulated keys into the previous round, keeping only the component of
 * the single S-box (and the whole vector at the end, for the last
 * first-half full round); the second half again adds M^-1 of the next keys. */
static void compress_constants(cz_fr *crc, const cz_fr *rc, const cz_fr *minv, unsigned t,
                               unsigned rf, unsigned rp)
{
    unsigned half = rf / 2;
    cz_fr acc[TMAX], inv[TMAX];
    size_t o = 0;
    memcpy(crc, rc, t * sizeof *crc);
    o += t;
    for (unsigned r = 1; r < half; r++, o += t)
        mat_apply(&crc[o], minv, &rc[(size_t)r * t], t);
    /* crc[o .. o+t) gets M^-1 acc below; the rp partial keys follow it,
     * first round first. */
    size_t keys = o + t;
    memcpy(acc, &rc[(size_t)(half + rp) * t], t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        mat_apply(inv, minv, acc, t);
        crc[keys + rp - 1 - i] = inv[0];
        inv[0] = CZ_FR_ZERO;
        const cz_fr *prev = &rc[(size_t)(half + rp - i - 1) * t];
        for (unsigned j = 0; j < t; j++)
            cz_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    mat_apply(&crc[o], minv, acc, t);
    o = keys + rp;
    for (unsigned r = 1; r < half; r++, o += t)
        mat_apply(&crc[o], minv, &rc[(size_t)(half + rp + r) * t], t);
}

/* Factors base for rp partial rounds: at each step curr = M' M'' with M'
 * (1 in the corner, curr's lower-right block) and the sparse M'' (first row
 * of curr, first column [curr00, m_hat^-1 w], identity elsewhere); curr
 * becomes base M' for the step before.  The last curr is the pre-sparse
 * matrix; the sparse ones are used in reverse order of production. */
static bool factor_sparse(cz_fr *pre, cz_fr *w_hat, cz_fr *v, const cz_fr *base, unsigned t,
                          unsigned rp)
{
    unsigned h = t - 1;
    cz_fr curr[TMAX * TMAX], hat[TMAX * TMAX], hat_inv[TMAX * TMAX], mp[TMAX * TMAX], w[TMAX];
    memcpy(curr, base, (size_t)t * t * sizeof *curr);
    for (unsigned k = 0; k < rp; k++) {
        unsigned slot = rp - 1 - k;
        for (unsigned i = 0; i < h; i++) {
            for (unsigned j = 0; j < h; j++)
                hat[i * h + j] = curr[(i + 1) * t + j + 1];
            w[i] = curr[(i + 1) * t];
        }
        if (!mat_inv(hat_inv, hat, h))
            return false;
        w_hat[(size_t)slot * t] = curr[0];
        mat_apply(&w_hat[(size_t)slot * t + 1], hat_inv, w, h);
        memcpy(&v[(size_t)slot * h], &curr[1], h * sizeof *v);
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++)
                mp[i * t + j] =
                    i == 0 || j == 0 ? (i == j ? CZ_FR_ONE : CZ_FR_ZERO) : curr[i * t + j];
        mat_mul(curr, base, mp, t);
    }
    memcpy(pre, curr, (size_t)t * t * sizeof *pre);
    return true;
}

typedef struct {
    cz_poseidon_params p;
    cz_fr data[]; /* the arrays p points into */
} params_block;

static params_block *params_build(unsigned arity)
{
    unsigned t = arity + 1, rf, rp;
    cz_poseidon_round_numbers(t, &rf, &rp);
    size_t n_rc = (size_t)(rf + rp) * t, n_crc = (size_t)rf * t + rp, tt = (size_t)t * t;
    size_t total = n_rc + 3 * tt + n_crc + (size_t)rp * t + (size_t)rp * (t - 1);
    params_block *b = malloc(sizeof *b + total * sizeof(cz_fr));
    if (b == NULL)
        return NULL;
    cz_fr *rc = b->data, *mds = rc + n_rc, *mds_inv = mds + tt, *crc = mds_inv + tt,
          *pre = crc + n_crc, *w_hat = pre + tt, *v = w_hat + (size_t)rp * t;
    grain_constants(rc, t, rf, rp);
    cz_fr d;
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cz_fr_from_u64(&d, i + t + j);
            cz_fr_inv(&mds[i * t + j], &d);
        }
    cz_fr mds_t[TMAX * TMAX];
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            mds_t[i * t + j] = mds[j * t + i];
    if (!mat_inv(mds_inv, mds, t) || !factor_sparse(pre, w_hat, v, mds_t, t, rp)) {
        free(b); /* unreachable for Cauchy matrices: every minor is invertible */
        return NULL;
    }
    compress_constants(crc, rc, mds_inv, t, rf, rp);
    cz_fr_from_u64(&b->p.domain_tag, (1u << arity) - 1);
    b->p.arity = arity, b->p.t = t, b->p.rf = rf, b->p.rp = rp;
    b->p.rc = rc, b->p.mds = mds, b->p.mds_inv = mds_inv, b->p.crc = crc;
    b->p.pre_sparse = pre, b->p.sparse_w_hat = w_hat, b->p.sparse_v = v;
    return b;
}

static _Atomic(params_block *) cache[N_ARITIES];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const cz_poseidon_params *cz_poseidon_params_get(unsigned arity)
{
    int k = arity_slot(arity);
    if (k < 0)
        return NULL;
    params_block *b = atomic_load_explicit(&cache[k], memory_order_acquire);
    if (b == NULL) {
        pthread_mutex_lock(&cache_lock);
        b = atomic_load_explicit(&cache[k], memory_order_relaxed);
        if (b == NULL) {
            b = params_build(arity);
            atomic_store_explicit(&cache[k], b, memory_order_release);
        }
        pthread_mutex_unlock(&cache_lock);
    }
    return b != NULL ? &b->p : NULL;
}

/* --------------------------------------------------------------- native --- */

static void sbox(cz_fr *x)
{
    cz_fr x4;
    cz_fr_sqr(&x4, x);
    cz_fr_sqr(&x4, &x4);
    cz_fr_mul(x, x, &x4);
}

/* The linear layer after round `round` (0-based over all rounds). */
static void native_mix(const cz_poseidon_params *p, cz_fr *s, unsigned round)
{
    unsigned t = p->t, half = p->rf / 2;
    cz_fr r[TMAX], prod;
    if (round == half - 1) {
        mat_apply_t(r, p->pre_sparse, s, t);
    } else if (round >= half && round < half + p->rp) {
        const cz_fr *w = &p->sparse_w_hat[(size_t)(round - half) * t];
        const cz_fr *v = &p->sparse_v[(size_t)(round - half) * (t - 1)];
        cz_fr_mul(&r[0], &w[0], &s[0]);
        for (unsigned i = 1; i < t; i++) {
            cz_fr_mul(&prod, &w[i], &s[i]);
            fr_add(&r[0], &r[0], &prod);
        }
        for (unsigned j = 1; j < t; j++) {
            cz_fr_mul(&prod, &v[j - 1], &s[0]);
            fr_add(&r[j], &s[j], &prod);
        }
    } else {
        mat_apply(r, p->mds, s, t);
    }
    memcpy(s, r, t * sizeof *s);
}

void cz_poseidon_custom_tag(cz_fr *tag, uint64_t id)
{
    cz_fr two40;
    cz_fr_from_u64(&two40, (uint64_t)1 << 40);
    cz_fr_from_u64(tag, id);
    cz_fr_mul(tag, tag, &two40);
}

/* The permutation on s (s[0] the tag, then the inputs), in place.  With cs
 * (a WITNESS cs) it also allocates the auxiliaries where
 * cz_poseidon_circuit_tagged allocates them, without its linear
 * combinations: in round 0 the tag's S-box is a constant and the inputs
 * are allocated already, so per input (x + k)^2, (x + k)^4 and
 * (x + k)^5 + k'; in a later round every S-box input is a linear
 * combination, so the element itself, its square, its fourth power and its
 * fifth power plus the next constant (none in the last round).  Field
 * arithmetic is exact, so the values are the general path's bit for bit
 * (test_poseidon compares the two assignments). */
static void permute(const cz_poseidon_params *p, cz_fr *s, cz_cs *cs)
{
    unsigned t = p->t, half = p->rf / 2;
    const cz_fr *k = p->crc;
    cz_fr v;
    for (unsigned i = 0; i < t; i++)
        fr_add(&s[i], &s[i], k++);
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        bool full = r < half || r >= half + p->rp, last = r == p->rf + p->rp - 1;
        for (unsigned i = 0; i < (full ? t : 1); i++) {
            bool alloc = cs != NULL && (r > 0 || i > 0);
            if (alloc && r > 0)
                cz_cs_alloc_aux(cs, &s[i]);
            cz_fr_sqr(&v, &s[i]);
            if (alloc)
                cz_cs_alloc_aux(cs, &v);
            cz_fr_sqr(&v, &v);
            if (alloc)
                cz_cs_alloc_aux(cs, &v);
            cz_fr_mul(&s[i], &s[i], &v);
            if (!last)
                fr_add(&s[i], &s[i], k++);
            if (alloc)
                cz_cs_alloc_aux(cs, &s[i]);
        }
        native_mix(p, s, r);
    }
}

int cz_poseidon_hash(cz_fr *out, const cz_fr *in, unsigned arity)
{
    return cz_poseidon_hash_tagged(out, in, arity, NULL);
}

int cz_poseidon_hash_tagged(cz_fr *out, const cz_fr *in, unsigned arity, const cz_fr *tag)
{
    if (out == NULL || in == NULL)
        return CZ_ERR_INVALID_ARG;
    if (arity_slot(arity) < 0)
        return CZ_ERR_INVALID_ARG;
    const cz_poseidon_params *p = cz_poseidon_params_get(arity);
    if (p == NULL)
        return CZ_ERR_NOMEM;
    cz_fr s[TMAX];
    s[0] = tag ? *tag : p->domain_tag;
    memcpy(&s[1], in, arity * sizeof *s);
    permute(p, s, NULL);
    *out = s[1];
    return CZ_OK;
}

/* -------------------------------------------------------------- circuit --- */

/* A state element: an allocated variable, or a linear combination of
 * variables (lc built only when recording) with its value. */
typedef struct {
    bool alloc;
    cz_var var;
    cz_fr val;
    cz_lc lc;
} elt;

typedef struct {
    cz_cs *cs;
    bool rec;
    cz_lc a, b, c; /* scratch for enforce */
} gadget;

/* The value of an input variable (zero in COUNT mode, which keeps none). */
static cz_fr var_value(const cz_cs *cs, cz_var v)
{
    const cz_fr *vals = cz_var_is_aux(v) ? cz_cs_aux(cs) : cz_cs_inputs(cs);
    return vals ? vals[cz_var_index(v)] : CZ_FR_ZERO;
}

static void elt_set_const(gadget *g, elt *e, const cz_fr *c)
{
    e->alloc = false;
    e->val = *c;
    cz_lc_clear(&e->lc);
    if (g->rec)
        cz_lc_add_const(&e->lc, c);
}

/* dst += s * e (dst a linear combination). */
static void elt_add_scaled(gadget *g, elt *dst, const elt *e, const cz_fr *s)
{
    cz_fr prod;
    cz_fr_mul(&prod, &e->val, s);
    cz_fr_add(&dst->val, &dst->val, &prod);
    if (!g->rec)
        return;
    if (e->alloc) {
        cz_lc_add_term(&dst->lc, e->var, s);
        return;
    }
    if (e->lc.err)
        dst->lc.err = e->lc.err;
    for (size_t k = 0; k < e->lc.n; k++) {
        cz_fr_mul(&prod, &e->lc.t[k].coeff, s);
        cz_lc_add_term(&dst->lc, e->lc.t[k].var, &prod);
    }
}

static void elt_zero(elt *e)
{
    e->alloc = false;
    e->val = CZ_FR_ZERO;
    cz_lc_clear(&e->lc);
}

static cz_var alloc_aux(gadget *g, const cz_fr *v) { return cz_cs_alloc_aux(g->cs, v); }

static void enforce(gadget *g) { cz_cs_enforce(g->cs, &g->a, &g->b, &g->c); }

static void scratch_clear(gadget *g) { cz_lc_clear(&g->a), cz_lc_clear(&g->b), cz_lc_clear(&g->c); }

/* The variable of e, allocating a linear combination with lc * 1 = v. */
static cz_var ensure_allocated(gadget *g, const elt *e)
{
    if (e->alloc)
        return e->var;
    cz_var v = alloc_aux(g, &e->val);
    if (g->rec) {
        scratch_clear(g);
        if (e->lc.err)
            g->a.err = e->lc.err;
        for (size_t k = 0; k < e->lc.n; k++)
            cz_lc_add_term(&g->a, e->lc.t[k].var, &e->lc.t[k].coeff);
        cz_lc_add(&g->b, CZ_CS_ONE);
        cz_lc_add(&g->c, v);
        enforce(g);
    }
    return v;
}

/* y = alloc(x^2), x * x = y. */
static cz_var square(gadget *g, cz_var x, cz_fr *val)
{
    cz_fr_sqr(val, val);
    cz_var y = alloc_aux(g, val);
    if (g->rec) {
        scratch_clear(g);
        cz_lc_add(&g->a, x), cz_lc_add(&g->b, x), cz_lc_add(&g->c, y);
        enforce(g);
    }
    return y;
}

/* (x + pre)^5 + post into e (allocated), neptune's quintic S-box: with
 * `pre` (first round only, x allocated) square_sum, square, mul_sum with
 * pre-add; otherwise the allocation of x, square, square, mul_sum.  `post`
 * NULL: none (terminal round). */
static void sbox_gadget(gadget *g, elt *e, const cz_fr *pre, const cz_fr *post)
{
    cz_var l = ensure_allocated(g, e);
    cz_fr base = e->val, v2, v5;
    if (pre != NULL)
        cz_fr_add(&base, &base, pre);
    /* l2 = (l + pre)^2 */
    v2 = base;
    cz_var l2;
    if (pre != NULL) {
        cz_fr_sqr(&v2, &v2);
        l2 = alloc_aux(g, &v2);
        if (g->rec) {
            scratch_clear(g);
            cz_lc_add(&g->a, l), cz_lc_add_const(&g->a, pre);
            cz_lc_add(&g->b, l), cz_lc_add_const(&g->b, pre);
            cz_lc_add(&g->c, l2);
            enforce(g);
        }
    } else {
        l2 = square(g, l, &v2);
    }
    cz_fr v4 = v2;
    cz_var l4 = square(g, l2, &v4);
    cz_fr_mul(&v5, &base, &v4);
    if (post != NULL)
        cz_fr_add(&v5, &v5, post);
    cz_var l5 = alloc_aux(g, &v5);
    if (g->rec) {
        scratch_clear(g);
        cz_lc_add(&g->a, l);
        if (pre != NULL)
            cz_lc_add_const(&g->a, pre);
        cz_lc_add(&g->b, l4);
        cz_lc_add(&g->c, l5);
        if (post != NULL) {
            cz_fr neg;
            cz_fr_neg(&neg, post);
            cz_lc_add_const(&g->c, &neg);
        }
        enforce(g);
    }
    cz_lc_clear(&e->lc);
    e->alloc = true;
    e->var = l5;
    e->val = v5;
}

/* The linear layer after round `round` on linear combinations (neptune's
 * product_mds: column products for M and the pre-sparse matrix, the
 * sparse form in the partial rounds).  tmp receives the result, then the
 * two arrays swap. */
static void circuit_mix(gadget *g, const cz_poseidon_params *p, elt **s, elt **tmp, unsigned round)
{
    unsigned t = p->t, half = p->rf / 2;
    elt *src = *s, *dst = *tmp;
    for (unsigned j = 0; j < t; j++)
        elt_zero(&dst[j]);
    if (round >= half && round < half + p->rp) {
        const cz_fr *w = &p->sparse_w_hat[(size_t)(round - half) * t];
        const cz_fr *v = &p->sparse_v[(size_t)(round - half) * (t - 1)];
        for (unsigned i = 0; i < t; i++)
            elt_add_scaled(g, &dst[0], &src[i], &w[i]);
        for (unsigned j = 1; j < t; j++) {
            elt_add_scaled(g, &dst[j], &src[j], &CZ_FR_ONE);
            elt_add_scaled(g, &dst[j], &src[0], &v[j - 1]);
        }
    } else {
        const cz_fr *m = round == half - 1 ? p->pre_sparse : p->mds;
        for (unsigned j = 0; j < t; j++)
            for (unsigned i = 0; i < t; i++)
                elt_add_scaled(g, &dst[j], &src[i], &m[i * t + j]);
    }
    *s = dst;
    *tmp = src;
}

int cz_poseidon_circuit(cz_cs *cs, const cz_var *in, unsigned arity, cz_var *out)
{
    return cz_poseidon_circuit_tagged(cs, in, arity, NULL, out);
}

int cz_poseidon_circuit_tagged(cz_cs *cs, const cz_var *in, unsigned arity, const cz_fr *tag_in,
                               cz_var *out)
{
    if (out != NULL)
        *out = CZ_CS_ONE;
    if (cs == NULL || in == NULL || out == NULL || arity_slot(arity) < 0)
        return CZ_ERR_INVALID_ARG;
    const cz_poseidon_params *p = cz_poseidon_params_get(arity);
    if (p == NULL)
        return CZ_ERR_NOMEM;
    for (unsigned i = 0; i < arity; i++) {
        size_t n = cz_var_is_aux(in[i]) ? cz_cs_num_aux(cs) : cz_cs_num_inputs(cs);
        if (cz_var_index(in[i]) >= n)
            return CZ_ERR_INVALID_ARG; /* not a variable of cs */
    }
    unsigned t = p->t, half = p->rf / 2;
    if (cz_cs_get_mode(cs) == CZ_CS_WITNESS) {
        cz_fr v[TMAX];
        v[0] = tag_in ? *tag_in : p->domain_tag;
        for (unsigned i = 1; i < t; i++)
            v[i] = var_value(cs, in[i - 1]);
        permute(p, v, cs);
        *out = cz_cs_alloc_aux(cs, &v[1]);
        int err = cz_cs_error(cs);
        if (err != CZ_OK)
            *out = CZ_CS_ONE;
        return err;
    }
    gadget g = {.cs = cs, .rec = cz_cs_is_recording(cs)};
    cz_lc_init(&g.a), cz_lc_init(&g.b), cz_lc_init(&g.c);
    elt buf[2][TMAX], *s = buf[0], *tmp = buf[1];
    for (unsigned i = 0; i < t; i++) {
        cz_lc_init(&buf[0][i].lc), cz_lc_init(&buf[1][i].lc);
        elt_zero(&buf[0][i]), elt_zero(&buf[1][i]);
    }
    /* The tag's first S-box is a constant. */
    const cz_fr *k = p->crc;
    cz_fr tag = tag_in ? *tag_in : p->domain_tag;
    cz_fr_add(&tag, &tag, &k[0]);
    sbox(&tag);
    cz_fr_add(&tag, &tag, &k[t]);
    elt_set_const(&g, &s[0], &tag);
    for (unsigned i = 1; i < t; i++) {
        s[i].alloc = true;
        s[i].var = in[i - 1];
        s[i].val = var_value(cs, in[i - 1]);
        sbox_gadget(&g, &s[i], &k[i], &k[t + i]);
    }
    k += 2 * (size_t)t;
    circuit_mix(&g, p, &s, &tmp, 0);
    for (unsigned r = 1; r < p->rf + p->rp; r++) {
        bool full = r < half || r >= half + p->rp, last = r == p->rf + p->rp - 1;
        for (unsigned i = 0; i < (full ? t : 1); i++)
            sbox_gadget(&g, &s[i], NULL, last ? NULL : k++);
        circuit_mix(&g, p, &s, &tmp, r);
    }
    *out = ensure_allocated(&g, &s[1]);
    int err = CZ_OK;
    for (unsigned i = 0; i < t; i++) {
        if (buf[0][i].lc.err || buf[1][i].lc.err)
            err = CZ_ERR_NOMEM;
        cz_lc_free(&buf[0][i].lc), cz_lc_free(&buf[1][i].lc);
    }
    cz_lc_free(&g.a), cz_lc_free(&g.b), cz_lc_free(&g.c);
    if (err == CZ_OK)
        err = cz_cs_error(cs);
    if (err != CZ_OK)
        *out = CZ_CS_ONE;
    return err;
}
