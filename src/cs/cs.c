/* Constraint system builder: allocations, linear combinations, enforce,
 * namespaces, cz_cs_finish, which turns a recording into a cz_r1cs, and
 * COUNT mode's counters and fingerprint streams. */
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "cuzk/err.h"

void *cz_cs_mem_realloc(void *p, size_t n)
{
    if (n == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, n);
}

void cz_cs_mem_free(void *p) { free(p); }

/* Grows *p (elements of size sz, capacity *cap) to hold at least need
 * elements, doubling.  Returns 0 or -1 (p unchanged). */
static int grow(void *pp, size_t *cap, size_t need, size_t sz)
{
    void **p = (void **)pp;
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2 / sz)
            return -1;
        c *= 2;
    }
    void *q = cz_cs_mem_realloc(*p, c * sz);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* ------------------------------------------------- linear combinations --- */

void cz_lc_init(cz_lc *lc) { memset(lc, 0, sizeof *lc); }

void cz_lc_free(cz_lc *lc)
{
    free(lc->t);
    memset(lc, 0, sizeof *lc);
}

void cz_lc_clear(cz_lc *lc)
{
    lc->n = 0;
    lc->err = CZ_OK;
}

void cz_lc_add_term(cz_lc *lc, cz_var v, const cz_fr *coeff)
{
    if (lc->err)
        return;
    if (lc->n == lc->cap) {
        size_t c = lc->cap ? 2 * lc->cap : 8;
        cz_lc_term *t = c > SIZE_MAX / sizeof *t ? NULL : realloc(lc->t, c * sizeof *t);
        if (t == NULL) {
            lc->err = CZ_ERR_NOMEM;
            return;
        }
        lc->t = t;
        lc->cap = c;
    }
    lc->t[lc->n].var = v;
    lc->t[lc->n].coeff = *coeff;
    lc->n++;
}

void cz_lc_add(cz_lc *lc, cz_var v) { cz_lc_add_term(lc, v, &CZ_FR_ONE); }

void cz_lc_sub(cz_lc *lc, cz_var v)
{
    cz_fr m;
    cz_fr_neg(&m, &CZ_FR_ONE);
    cz_lc_add_term(lc, v, &m);
}

void cz_lc_add_const(cz_lc *lc, const cz_fr *c) { cz_lc_add_term(lc, CZ_CS_ONE, c); }

/* ------------------------------------------------------------------ cs --- */

/* One matrix being recorded: cz_csr's arrays, growing (n_blk entries in
 * row_blk and coef_blk, one row_off per row begun).  col holds
 * kind << 30 | var (the raw cz_var: aux flag in bit 29) until cz_cs_finish
 * maps vars to columns.  hash indexes dict by open addressing (linear
 * probing, slot = dictionary index + 1, 0 empty), cap_hash a power of two
 * at least twice ndict. */
typedef struct {
    uint64_t *row_blk, *coef_blk;
    uint32_t *row_off, *col, *gidx, *hash;
    cz_fr *dict;
    size_t n_blk, cap_rb, cap_cb, cap_ro, nnz, cap_col, ngen, cap_gidx, ndict, cap_dict, cap_hash;
} rec_mat;

struct cz_cs {
    cz_cs_mode mode;
    unsigned flags;
    int err;
    int finished;
    int external; /* WITNESS over the caller's arrays (cz_cs_new_witness_at) */
    cz_fr *in, *aux;
    size_t n_in, cap_in, n_aux, cap_aux;
    /* RECORD */
    rec_mat m[3];
    size_t n_rows;
    cz_lc_term *scratch; /* RECORD and COUNT: the combination being canonicalised */
    size_t cap_scratch;
    cz_fr minus_one;
    /* COUNT: per matrix entries, general entries and stream; the density
     * bitmaps (cz_density order), cap_dens words each, bits beyond the
     * variables zero */
    uint64_t nnz[3], ngen[3];
    cz_fp_stream *fs;
    uint64_t *dens[3];
    size_t cap_dens[3];
    /* namespaces (RECORD with CZ_CS_NAMESPACES) */
    uint32_t *row_ns;
    size_t cap_row_ns;
    uint32_t *ns_parent, *ns_name;
    size_t n_ns, cap_ns_parent, cap_ns_name;
    char *names;
    size_t names_len, cap_names;
    uint32_t *ns_hash; /* open addressing, entry + 1, 0 empty */
    size_t hash_cap;
    uint32_t cur_ns;
};

static void set_err(cz_cs *cs, int err)
{
    if (cs->err == CZ_OK)
        cs->err = err;
}

static int ns_enabled(const cz_cs *cs)
{
    return cs->mode == CZ_CS_RECORD && (cs->flags & CZ_CS_NAMESPACES) && !cs->finished;
}

int cz_cs_new(cz_cs **out, cz_cs_mode mode, unsigned flags)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if ((mode != CZ_CS_RECORD && mode != CZ_CS_WITNESS && mode != CZ_CS_COUNT) ||
        (flags & ~CZ_CS_NAMESPACES))
        return CZ_ERR_INVALID_ARG;
    cz_cs *cs = calloc(1, sizeof *cs);
    if (cs == NULL)
        return CZ_ERR_NOMEM;
    cs->mode = mode;
    cs->flags = mode == CZ_CS_RECORD ? flags : 0;
    cz_fr_neg(&cs->minus_one, &CZ_FR_ONE);
    if (mode == CZ_CS_COUNT) {
        cs->fs = cz_cs_mem_realloc(NULL, 3 * sizeof *cs->fs);
        if (cs->fs == NULL)
            cs->err = CZ_ERR_NOMEM;
        for (int k = 0; k < 3 && cs->fs; k++)
            cz_fp_stream_init(&cs->fs[k]);
    }
    if (ns_enabled(cs)) {
        /* entry 0: the root, name "" */
        if (grow(&cs->ns_parent, &cs->cap_ns_parent, 1, sizeof(uint32_t)) ||
            grow(&cs->ns_name, &cs->cap_ns_name, 1, sizeof(uint32_t)) ||
            grow(&cs->names, &cs->cap_names, 1, 1))
            cs->err = CZ_ERR_NOMEM;
        else {
            cs->ns_parent[0] = 0;
            cs->ns_name[0] = 0;
            cs->names[0] = 0;
            cs->names_len = 1;
            cs->n_ns = 1;
        }
    }
    cz_cs_alloc_input(cs, &CZ_FR_ONE);
    if (cs->err) {
        cz_cs_free(cs);
        return CZ_ERR_NOMEM;
    }
    *out = cs;
    return CZ_OK;
}

int cz_cs_new_witness_at(cz_cs **out, cz_fr *in, size_t in_first, size_t in_end, cz_fr *aux,
                         size_t aux_first, size_t aux_end)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (in == NULL || aux == NULL || in_first == 0 || in_first > in_end || aux_first > aux_end ||
        in_end > CZ_CS_MAX_VARS || aux_end > CZ_CS_MAX_VARS)
        return CZ_ERR_INVALID_ARG;
    cz_cs *cs = calloc(1, sizeof *cs);
    if (cs == NULL)
        return CZ_ERR_NOMEM;
    cs->mode = CZ_CS_WITNESS;
    cs->external = 1;
    cz_fr_neg(&cs->minus_one, &CZ_FR_ONE);
    cs->in = in;
    cs->n_in = in_first;
    cs->cap_in = in_end;
    cs->aux = aux;
    cs->n_aux = aux_first;
    cs->cap_aux = aux_end;
    *out = cs;
    return CZ_OK;
}

void cz_cs_free(cz_cs *cs)
{
    if (cs == NULL)
        return;
    if (!cs->external) {
        cz_cs_mem_free(cs->in);
        cz_cs_mem_free(cs->aux);
    }
    for (int k = 0; k < 3; k++) {
        rec_mat *m = &cs->m[k];
        cz_cs_mem_free(m->row_blk);
        cz_cs_mem_free(m->coef_blk);
        cz_cs_mem_free(m->row_off);
        cz_cs_mem_free(m->col);
        cz_cs_mem_free(m->gidx);
        cz_cs_mem_free(m->hash);
        cz_cs_mem_free(m->dict);
    }
    cz_cs_mem_free(cs->scratch);
    cz_cs_mem_free(cs->fs);
    for (int d = 0; d < 3; d++)
        cz_cs_mem_free(cs->dens[d]);
    cz_cs_mem_free(cs->row_ns);
    cz_cs_mem_free(cs->ns_parent);
    cz_cs_mem_free(cs->ns_name);
    cz_cs_mem_free(cs->names);
    cz_cs_mem_free(cs->ns_hash);
    free(cs);
}

cz_cs_mode cz_cs_get_mode(const cz_cs *cs) { return cs->mode; }
bool cz_cs_is_recording(const cz_cs *cs) { return cs->mode != CZ_CS_WITNESS; }
int cz_cs_error(const cz_cs *cs) { return cs->err; }
size_t cz_cs_num_inputs(const cz_cs *cs) { return cs->n_in; }
size_t cz_cs_num_aux(const cz_cs *cs) { return cs->n_aux; }
size_t cz_cs_num_constraints(const cz_cs *cs)
{
    return cs->finished ? cs->n_rows - cs->n_in : cs->n_rows;
}
const cz_fr *cz_cs_inputs(const cz_cs *cs) { return cs->in; }
const cz_fr *cz_cs_aux(const cz_cs *cs) { return cs->aux; }

void cz_cs_write_assignment(const cz_cs *cs, cz_fr *w)
{
    if (cs->mode == CZ_CS_COUNT)
        return;
    if (cs->n_in)
        memcpy(w, cs->in, cs->n_in * sizeof *w);
    if (cs->n_aux)
        memcpy(w + cs->n_in, cs->aux, cs->n_aux * sizeof *w);
}

/* COUNT: grows density bitmap d to hold bit `bit`, new words zero. */
static int grow_bits(cz_cs *cs, cz_density d, size_t bit)
{
    size_t old = cs->cap_dens[d];
    if (bit / 64 < old)
        return 0;
    if (grow(&cs->dens[d], &cs->cap_dens[d], bit / 64 + 1, sizeof(uint64_t)))
        return -1;
    memset(cs->dens[d] + old, 0, (cs->cap_dens[d] - old) * sizeof(uint64_t));
    return 0;
}

static cz_var alloc_var(cz_cs *cs, cz_fr **vals, size_t *n, size_t *cap, const cz_fr *value,
                        cz_var flag)
{
    if (cs->err)
        return CZ_CS_ONE;
    if (cs->finished) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return CZ_CS_ONE;
    }
    if (*n >= CZ_CS_MAX_VARS) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return CZ_CS_ONE;
    }
    if (cs->mode == CZ_CS_COUNT) {
        if (flag ? grow_bits(cs, CZ_DENSITY_A_AUX, *n) || grow_bits(cs, CZ_DENSITY_B_AUX, *n)
                 : grow_bits(cs, CZ_DENSITY_B_INPUT, *n)) {
            set_err(cs, CZ_ERR_NOMEM);
            return CZ_CS_ONE;
        }
    } else {
        if (cs->external ? *n >= *cap : grow(vals, cap, *n + 1, sizeof(cz_fr)) != 0) {
            set_err(cs, cs->external ? CZ_ERR_INVALID_ARG : CZ_ERR_NOMEM);
            return CZ_CS_ONE;
        }
        (*vals)[*n] = value ? *value : CZ_FR_ZERO;
    }
    return flag | (cz_var)(*n)++;
}

cz_var cz_cs_alloc_aux(cz_cs *cs, const cz_fr *value)
{
    return alloc_var(cs, &cs->aux, &cs->n_aux, &cs->cap_aux, value, CZ_VAR_AUX);
}

cz_var cz_cs_alloc_input(cz_cs *cs, const cz_fr *value)
{
    return alloc_var(cs, &cs->in, &cs->n_in, &cs->cap_in, value, 0);
}

/* ----------------------------------------------------------- recording --- */

static int term_cmp(const void *x, const void *y)
{
    cz_var a = ((const cz_lc_term *)x)->var, b = ((const cz_lc_term *)y)->var;
    return (a > b) - (a < b);
}

static bool fr_same(const cz_fr *a, const cz_fr *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) |
            (a->l[3] ^ b->l[3])) == 0;
}

/* Rebuilds an open-addressing table (slot = entry + 1, 0 empty; linear
 * probing) with cap slots, a power of two > n, holding entries first .. n - 1
 * by hash(ctx, entry); the old table is freed.  -1 when out of memory (the
 * old one kept). */
static int rehash(uint32_t **tab, size_t *tab_cap, size_t cap, size_t first, size_t n,
                  uint64_t (*hash)(const void *ctx, size_t e), const void *ctx)
{
    uint32_t *t = cz_cs_mem_realloc(NULL, cap * sizeof *t);
    if (t == NULL)
        return -1;
    memset(t, 0, cap * sizeof *t);
    for (size_t e = first; e < n; e++) {
        size_t i = hash(ctx, e) & (cap - 1);
        while (t[i])
            i = (i + 1) & (cap - 1);
        t[i] = (uint32_t)(e + 1);
    }
    cz_cs_mem_free(*tab);
    *tab = t;
    *tab_cap = cap;
    return 0;
}

static uint64_t dict_entry_hash(const void *ctx, size_t d)
{
    return cz_cs_coef_hash(&((const rec_mat *)ctx)->dict[d]);
}

/* Rebuilds m's hash with cap slots (a power of two > ndict). */
static int dict_rehash(rec_mat *m, size_t cap)
{
    return rehash(&m->hash, &m->cap_hash, cap, 0, m->ndict, dict_entry_hash, m);
}

/* The dictionary index of c in m, adding c when new (field elements are
 * stored fully reduced, so equal elements have equal limbs).  CZ_OK,
 * CZ_ERR_NOMEM, CZ_ERR_TOO_BIG (2^32 - 1 coefficients already). */
static int dict_index(rec_mat *m, const cz_fr *c, uint32_t *out)
{
    /* at most half full */
    if (2 * (m->ndict + 1) > m->cap_hash && (m->cap_hash > SIZE_MAX / 2 / sizeof(uint32_t) ||
                                             dict_rehash(m, m->cap_hash ? 2 * m->cap_hash : 64)))
        return CZ_ERR_NOMEM;
    size_t mask = m->cap_hash - 1, i = cz_cs_coef_hash(c) & mask;
    for (; m->hash[i]; i = (i + 1) & mask) {
        if (fr_same(&m->dict[m->hash[i] - 1], c)) {
            *out = m->hash[i] - 1;
            return CZ_OK;
        }
    }
    if (m->ndict >= UINT32_MAX)
        return CZ_ERR_TOO_BIG;
    if (grow(&m->dict, &m->cap_dict, m->ndict + 1, sizeof(cz_fr)))
        return CZ_ERR_NOMEM;
    m->dict[m->ndict] = *c;
    m->hash[i] = (uint32_t)(m->ndict + 1);
    *out = (uint32_t)m->ndict++;
    return CZ_OK;
}

/* Appends entry (kind, var) with coefficient c (used for kind GEN) to m.
 * CZ_OK, CZ_ERR_NOMEM, CZ_ERR_TOO_BIG. */
static int push_entry(rec_mat *m, uint32_t kind, cz_var v, const cz_fr *c)
{
    if (grow(&m->col, &m->cap_col, m->nnz + 1, sizeof(uint32_t)))
        return CZ_ERR_NOMEM;
    if (kind == CZ_CSR_GEN) {
        uint32_t d;
        int err;
        if (grow(&m->gidx, &m->cap_gidx, m->ngen + 1, sizeof(uint32_t)))
            return CZ_ERR_NOMEM;
        if ((err = dict_index(m, c, &d)) != CZ_OK)
            return err;
        m->gidx[m->ngen++] = d;
    }
    m->col[m->nnz++] = kind << 30 | v;
    return CZ_OK;
}

/* Starts row cs->n_rows in m (row cs->n_rows = rows ends the last one):
 * at every 64th row a block (row_blk, coef_blk), then the row's offset in
 * its block.  CZ_OK, CZ_ERR_NOMEM, CZ_ERR_TOO_BIG (the offset needs more
 * than 32 bits). */
static int begin_row(cz_cs *cs, rec_mat *m)
{
    if (cs->n_rows % CZ_CSR_BLOCK == 0) {
        if (grow(&m->row_blk, &m->cap_rb, m->n_blk + 1, sizeof(uint64_t)) ||
            grow(&m->coef_blk, &m->cap_cb, m->n_blk + 1, sizeof(uint64_t)))
            return CZ_ERR_NOMEM;
        m->row_blk[m->n_blk] = m->nnz;
        m->coef_blk[m->n_blk++] = m->ngen;
    }
    uint64_t off = m->nnz - m->row_blk[m->n_blk - 1];
    if (off > UINT32_MAX)
        return CZ_ERR_TOO_BIG;
    if (grow(&m->row_off, &m->cap_ro, cs->n_rows + 1, sizeof(uint32_t)))
        return CZ_ERR_NOMEM;
    m->row_off[cs->n_rows] = (uint32_t)off;
    return CZ_OK;
}

/* The CSR kind of a non-zero coefficient. */
static uint32_t coef_kind(const cz_cs *cs, const cz_fr *c)
{
    return cz_fr_is_one(c) ? CZ_CSR_ONE : cz_fr_equal(c, &cs->minus_one) ? CZ_CSR_NEG : CZ_CSR_GEN;
}

/* The row lc makes, in cs->scratch[0 .. *len): lc's terms sorted by
 * variable (inputs first, then aux, each by index), repeats summed, zero
 * sums dropped.  Returns CZ_OK, CZ_ERR_INVALID_ARG (unknown variable) or
 * CZ_ERR_NOMEM. */
static int canon_lc(cz_cs *cs, const cz_lc *lc, size_t *len)
{
    size_t n = lc ? lc->n : 0;
    *len = 0;
    if (n == 0)
        return CZ_OK;
    if (grow(&cs->scratch, &cs->cap_scratch, n, sizeof(cz_lc_term)))
        return CZ_ERR_NOMEM;
    cz_lc_term *t = cs->scratch;
    for (size_t i = 0; i < n; i++) {
        cz_var v = lc->t[i].var;
        if (v & ~(CZ_VAR_AUX | (CZ_VAR_AUX - 1)))
            return CZ_ERR_INVALID_ARG;
        if (cz_var_index(v) >= (cz_var_is_aux(v) ? cs->n_aux : cs->n_in))
            return CZ_ERR_INVALID_ARG;
        t[i] = lc->t[i];
    }
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            cz_lc_term x = t[i];
            size_t j = i;
            for (; j > 0 && t[j - 1].var > x.var; j--)
                t[j] = t[j - 1];
            t[j] = x;
        }
    } else {
        qsort(t, n, sizeof *t, term_cmp);
    }
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        cz_fr s = t[i].coeff;
        size_t j = i + 1;
        for (; j < n && t[j].var == t[i].var; j++)
            cz_fr_add(&s, &s, &t[j].coeff);
        if (!cz_fr_is_zero(&s)) {
            t[out].var = t[i].var;
            t[out++].coeff = s;
        }
        i = j;
    }
    *len = out;
    return CZ_OK;
}

/* RECORD: appends lc's row to m. */
static int record_lc(cz_cs *cs, rec_mat *m, const cz_lc *lc)
{
    size_t n;
    int err = canon_lc(cs, lc, &n);
    for (size_t i = 0; i < n && err == CZ_OK; i++) {
        const cz_lc_term *t = &cs->scratch[i];
        err = push_entry(m, coef_kind(cs, &t->coeff), t->var, &t->coeff);
    }
    return err;
}

/* COUNT: counts lc's row in matrix k, marks its densities and hashes it. */
static int count_lc(cz_cs *cs, int k, const cz_lc *lc)
{
    size_t n;
    int err = canon_lc(cs, lc, &n);
    if (err)
        return err;
    cz_fp_stream *s = &cs->fs[k];
    uint64_t *da = k == CZ_MAT_A   ? cs->dens[CZ_DENSITY_A_AUX]
                   : k == CZ_MAT_B ? cs->dens[CZ_DENSITY_B_AUX]
                                   : NULL;
    cz_fp_put_row(s, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        const cz_lc_term *t = &cs->scratch[i];
        uint32_t kind = coef_kind(cs, &t->coeff), idx = cz_var_index(t->var);
        bool aux = cz_var_is_aux(t->var);
        cz_fp_put_entry(s, idx, aux, kind, &t->coeff);
        cs->ngen[k] += kind == CZ_CSR_GEN;
        if (aux && da)
            da[idx / 64] |= 1ULL << (idx % 64);
        else if (!aux && k == CZ_MAT_B)
            cs->dens[CZ_DENSITY_B_INPUT][idx / 64] |= 1ULL << (idx % 64);
    }
    cs->nnz[k] += n;
    return CZ_OK;
}

void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c)
{
    if (cs->mode == CZ_CS_WITNESS || cs->err)
        return;
    if (cs->finished) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return;
    }
    const cz_lc *lcs[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        if (lcs[k] && lcs[k]->err) {
            set_err(cs, lcs[k]->err);
            return;
        }
    }
    if (cs->n_rows >= (size_t)UINT32_MAX) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return;
    }
    for (int k = 0; k < 3; k++) {
        int err;
        if (cs->mode == CZ_CS_COUNT)
            err = count_lc(cs, k, lcs[k]);
        else if ((err = begin_row(cs, &cs->m[k])) == CZ_OK)
            err = record_lc(cs, &cs->m[k], lcs[k]);
        if (err) {
            set_err(cs, err);
            return;
        }
    }
    if (ns_enabled(cs)) {
        if (grow(&cs->row_ns, &cs->cap_row_ns, cs->n_rows + 1, sizeof(uint32_t))) {
            set_err(cs, CZ_ERR_NOMEM);
            return;
        }
        cs->row_ns[cs->n_rows] = cs->cur_ns;
    }
    cs->n_rows++;
}

/* -------------------------------------------------------------- repeat --- */

void cz_cs_mark_here(const cz_cs *cs, cz_cs_mark *mark)
{
    memset(mark, 0, sizeof *mark);
    mark->n_in = cs->n_in;
    mark->n_aux = cs->n_aux;
    mark->n_rows = cs->n_rows;
    for (int k = 0; k < 3; k++) {
        mark->nnz[k] = cs->m[k].nnz;
        mark->ngen[k] = cs->m[k].ngen;
    }
}

/* Grows *p (capacity *cap elements of size sz) to exactly need elements
 * when it holds fewer: the copies' final sizes are known, so doubling
 * would only waste memory.  0 or -1 (p unchanged). */
static int reserve(void *pp, size_t *cap, size_t need, size_t sz)
{
    void **p = (void **)pp;
    if (need <= *cap)
        return 0;
    if (need > SIZE_MAX / sz)
        return -1;
    void *q = cz_cs_mem_realloc(*p, need * sz);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = need;
    return 0;
}

/* The first entry of recorded row r of m (r <= cs->n_rows). */
static uint64_t rec_row_begin(const cz_cs *cs, const rec_mat *m, size_t r)
{
    return r == cs->n_rows ? m->nnz : m->row_blk[r / CZ_CSR_BLOCK] + m->row_off[r];
}

/* Whether mark is a point of cs's recording: its counts within the cs's,
 * each matrix's entries beginning its row, and the general entries of
 * the block as many as the block's general kinds. */
static bool mark_valid(const cz_cs *cs, const cz_cs_mark *mk)
{
    if (mk->n_in < 1 || mk->n_in > cs->n_in || mk->n_aux > cs->n_aux || mk->n_rows > cs->n_rows)
        return false;
    for (int k = 0; k < 3; k++) {
        const rec_mat *m = &cs->m[k];
        if (mk->nnz[k] > m->nnz || mk->ngen[k] > m->ngen ||
            rec_row_begin(cs, m, mk->n_rows) != mk->nnz[k])
            return false;
        uint64_t gen = 0;
        for (uint64_t e = mk->nnz[k]; e < m->nnz; e++)
            gen += CZ_CSR_KIND(m->col[e]) == CZ_CSR_GEN;
        if (gen != m->ngen - mk->ngen[k])
            return false;
    }
    return true;
}

/* Room for the copies and for cz_cs_finish's input constraints (one row
 * and one A entry per input), so that neither grows an array by doubling. */
static int reserve_copies(cz_cs *cs, size_t rows, size_t n_in, size_t n_aux, const size_t nnz[3],
                          const size_t ngen[3])
{
    size_t all_rows = rows + n_in, blocks = all_rows / CZ_CSR_BLOCK + 1;
    if (reserve(&cs->in, &cs->cap_in, n_in, sizeof(cz_fr)) ||
        reserve(&cs->aux, &cs->cap_aux, n_aux, sizeof(cz_fr)))
        return CZ_ERR_NOMEM;
    for (int k = 0; k < 3; k++) {
        rec_mat *m = &cs->m[k];
        if (reserve(&m->row_blk, &m->cap_rb, blocks, sizeof(uint64_t)) ||
            reserve(&m->coef_blk, &m->cap_cb, blocks, sizeof(uint64_t)) ||
            reserve(&m->row_off, &m->cap_ro, all_rows + 1, sizeof(uint32_t)) ||
            reserve(&m->col, &m->cap_col, nnz[k] + (k == CZ_MAT_A ? n_in : 0), sizeof(uint32_t)) ||
            reserve(&m->gidx, &m->cap_gidx, ngen[k], sizeof(uint32_t)))
            return CZ_ERR_NOMEM;
    }
    return CZ_OK;
}

int cz_cs_repeat(cz_cs *cs, const cz_cs_mark *mark, size_t times)
{
    if (cs->mode != CZ_CS_RECORD || (cs->flags & CZ_CS_NAMESPACES))
        return CZ_ERR_UNSUPPORTED;
    if (cs->err)
        return cs->err;
    if (cs->finished || mark == NULL || !mark_valid(cs, mark)) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return cs->err;
    }
    size_t bin = cs->n_in - mark->n_in, baux = cs->n_aux - mark->n_aux,
           brows = cs->n_rows - mark->n_rows, bnnz[3], bgen[3], nnz[3], ngen[3];
    /* every count after the copies, checked against its limit first */
    bool fits = (bin == 0 || times <= (CZ_CS_MAX_VARS - cs->n_in) / bin) &&
                (baux == 0 || times <= (CZ_CS_MAX_VARS - cs->n_aux) / baux) &&
                (brows == 0 || times <= (UINT32_MAX - cs->n_rows) / brows);
    for (int k = 0; k < 3; k++) {
        bnnz[k] = cs->m[k].nnz - mark->nnz[k];
        bgen[k] = cs->m[k].ngen - mark->ngen[k];
        fits = fits && (bnnz[k] == 0 || times <= (SIZE_MAX / 8 - cs->m[k].nnz) / bnnz[k]);
        nnz[k] = cs->m[k].nnz + (fits ? times * bnnz[k] : 0);
        ngen[k] = cs->m[k].ngen + (fits ? times * bgen[k] : 0);
    }
    if (!fits) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return cs->err;
    }
    if (times == 0)
        return CZ_OK;
    size_t n_in = cs->n_in + times * bin, n_aux = cs->n_aux + times * baux;
    int err = reserve_copies(cs, cs->n_rows + times * brows, n_in, n_aux, nnz, ngen);
    size_t end_row = cs->n_rows;
    uint64_t end_nnz[3] = {cs->m[0].nnz, cs->m[1].nnz, cs->m[2].nnz};
    for (size_t c = 1; c <= times && err == CZ_OK; c++) {
        uint32_t din = (uint32_t)(c * bin), daux = (uint32_t)(c * baux);
        uint64_t g[3] = {mark->ngen[0], mark->ngen[1], mark->ngen[2]};
        for (size_t r = mark->n_rows; r < end_row && err == CZ_OK; r++) {
            for (int k = 0; k < 3 && err == CZ_OK; k++) {
                rec_mat *m = &cs->m[k];
                uint64_t e = m->row_blk[r / CZ_CSR_BLOCK] + m->row_off[r];
                uint64_t e_end = r + 1 < end_row
                                     ? m->row_blk[(r + 1) / CZ_CSR_BLOCK] + m->row_off[r + 1]
                                     : end_nnz[k];
                if ((err = begin_row(cs, m)) != CZ_OK)
                    break;
                for (; e < e_end; e++) {
                    uint32_t x = m->col[e], v = x & CZ_CSR_COL_MASK;
                    bool aux = cz_var_is_aux(v);
                    /* the block's own variables shift, earlier ones stay */
                    if (cz_var_index(v) >= (aux ? mark->n_aux : mark->n_in))
                        v += aux ? daux : din;
                    m->col[m->nnz++] = (x & ~CZ_CSR_COL_MASK) | v;
                    if (CZ_CSR_KIND(x) == CZ_CSR_GEN)
                        m->gidx[m->ngen++] = m->gidx[g[k]++];
                }
            }
            cs->n_rows += err == CZ_OK;
        }
        if (err == CZ_OK) {
            memcpy(cs->in + cs->n_in, cs->in + mark->n_in, bin * sizeof(cz_fr));
            memcpy(cs->aux + cs->n_aux, cs->aux + mark->n_aux, baux * sizeof(cz_fr));
            cs->n_in += bin;
            cs->n_aux += baux;
        }
    }
    if (err)
        set_err(cs, err);
    return cs->err;
}

/* ---------------------------------------------------------- namespaces --- */

/* FNV-1a of name, mixed with parent. */
static uint64_t ns_hash(uint32_t parent, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ULL);
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

static uint64_t ns_entry_hash(const void *ctx, size_t e)
{
    const cz_cs *cs = ctx;
    return ns_hash(cs->ns_parent[e], cs->names + cs->ns_name[e]);
}

/* Namespace 0 (the root) is never looked up. */
static int ns_rehash(cz_cs *cs, size_t cap)
{
    return rehash(&cs->ns_hash, &cs->hash_cap, cap, 1, cs->n_ns, ns_entry_hash, cs);
}

void cz_cs_push_ns(cz_cs *cs, const char *name)
{
    if (!ns_enabled(cs) || cs->err)
        return;
    if (name == NULL) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return;
    }
    /* keep the table at most half full */
    if (2 * (cs->n_ns + 1) > cs->hash_cap && ns_rehash(cs, cs->hash_cap ? 2 * cs->hash_cap : 64)) {
        set_err(cs, CZ_ERR_NOMEM);
        return;
    }
    size_t i = ns_hash(cs->cur_ns, name) & (cs->hash_cap - 1);
    for (; cs->ns_hash[i]; i = (i + 1) & (cs->hash_cap - 1)) {
        uint32_t e = cs->ns_hash[i] - 1;
        if (cs->ns_parent[e] == cs->cur_ns && strcmp(cs->names + cs->ns_name[e], name) == 0) {
            cs->cur_ns = e;
            return;
        }
    }
    size_t len = strlen(name) + 1;
    if (cs->n_ns >= UINT32_MAX - 1 || cs->names_len + len > UINT32_MAX ||
        grow(&cs->ns_parent, &cs->cap_ns_parent, cs->n_ns + 1, sizeof(uint32_t)) ||
        grow(&cs->ns_name, &cs->cap_ns_name, cs->n_ns + 1, sizeof(uint32_t)) ||
        grow(&cs->names, &cs->cap_names, cs->names_len + len, 1)) {
        set_err(cs, CZ_ERR_NOMEM);
        return;
    }
    uint32_t e = (uint32_t)cs->n_ns++;
    cs->ns_parent[e] = cs->cur_ns;
    cs->ns_name[e] = (uint32_t)cs->names_len;
    memcpy(cs->names + cs->names_len, name, len);
    cs->names_len += len;
    cs->ns_hash[i] = e + 1;
    cs->cur_ns = e;
}

void cz_cs_pop_ns(cz_cs *cs)
{
    if (!ns_enabled(cs) || cs->err)
        return;
    if (cs->cur_ns == 0) {
        set_err(cs, CZ_ERR_INVALID_ARG);
        return;
    }
    cs->cur_ns = cs->ns_parent[cs->cur_ns];
}

/* -------------------------------------------------------------- finish --- */

/* Shrinks *p to n elements of size sz (keeps it when realloc fails). */
static void shrink(void *pp, size_t n, size_t sz)
{
    void **p = (void **)pp;
    if (n == 0) {
        cz_cs_mem_free(*p);
        *p = NULL;
        return;
    }
    void *q = cz_cs_mem_realloc(*p, n * sz);
    if (q)
        *p = q;
}

int cz_cs_finish(cz_cs *cs, cz_r1cs **out)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (cs->err)
        return cs->err;
    if (cs->mode != CZ_CS_RECORD || cs->finished)
        return CZ_ERR_INVALID_ARG;
    size_t n_circ = cs->n_rows;
    /* bellperson's input constraints: x_i * 0 = 0, x_i in A */
    int err = CZ_OK;
    for (size_t i = 0; i < cs->n_in && err == CZ_OK; i++) {
        for (int k = 0; k < 3 && err == CZ_OK; k++)
            if ((err = begin_row(cs, &cs->m[k])) == CZ_OK && k == CZ_MAT_A)
                err = push_entry(&cs->m[k], CZ_CSR_ONE, (cz_var)i, NULL);
        cs->n_rows++;
    }
    /* row n_rows: the end of the last row */
    for (int k = 0; k < 3 && err == CZ_OK; k++)
        err = begin_row(cs, &cs->m[k]);
    if (err) {
        set_err(cs, err);
        return cs->err;
    }
    cz_r1cs *r = calloc(1, sizeof *r);
    if (r == NULL) {
        set_err(cs, CZ_ERR_NOMEM);
        return cs->err;
    }
    r->n_in = cs->n_in;
    r->n_aux = cs->n_aux;
    r->n_rows = cs->n_rows;
    r->n_circ = n_circ;
    r->storage = CZ_R1CS_OWNED;
    for (int k = 0; k < 3; k++) {
        rec_mat *m = &cs->m[k];
        /* var -> column: input i -> i, aux j -> n_in + j (order kept) */
        for (size_t e = 0; e < m->nnz; e++) {
            uint32_t x = m->col[e];
            if (x & CZ_VAR_AUX)
                x = (x & ~(CZ_VAR_AUX | (CZ_VAR_AUX - 1))) |
                    ((uint32_t)cs->n_in + (x & (CZ_VAR_AUX - 1)));
            m->col[e] = x;
        }
        shrink(&m->row_blk, m->n_blk, sizeof(uint64_t));
        shrink(&m->coef_blk, m->n_blk, sizeof(uint64_t));
        shrink(&m->row_off, cs->n_rows + 1, sizeof(uint32_t));
        shrink(&m->col, m->nnz, sizeof(uint32_t));
        shrink(&m->gidx, m->ngen, sizeof(uint32_t));
        shrink(&m->dict, m->ndict, sizeof(cz_fr));
        cz_cs_mem_free(m->hash);
        r->m[k].row_blk = m->row_blk;
        r->m[k].row_off = m->row_off;
        r->m[k].coef_blk = m->coef_blk;
        r->m[k].col = m->col;
        r->m[k].gidx = m->gidx;
        r->m[k].dict = m->dict;
        r->m[k].nnz = m->nnz;
        r->m[k].ngen = m->ngen;
        r->m[k].ndict = m->ndict;
        memset(m, 0, sizeof *m);
    }
    if (cs->flags & CZ_CS_NAMESPACES) {
        r->row_ns = cs->row_ns;
        r->ns_parent = cs->ns_parent;
        r->ns_name = cs->ns_name;
        r->names = cs->names;
        r->n_ns = cs->n_ns;
        r->names_len = cs->names_len;
        cs->row_ns = cs->ns_parent = cs->ns_name = NULL;
        cs->names = NULL;
    }
    cs->finished = 1;
    cz_cs_mem_free(cs->scratch);
    cs->scratch = NULL;
    cs->cap_scratch = 0;
    cz_cs_mem_free(cs->ns_hash);
    cs->ns_hash = NULL;
    if (cz_r1cs_build_densities(r)) {
        cz_r1cs_free(r);
        return CZ_ERR_NOMEM;
    }
    *out = r;
    return CZ_OK;
}

/* --------------------------------------------------------------- count --- */

static size_t popcount(const uint64_t *bits, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < (n + 63) / 64; i++)
        c += (size_t)__builtin_popcountll(bits[i]);
    return c;
}

int cz_cs_count_finish(cz_cs *cs, cz_r1cs_fingerprint *fp)
{
    if (fp == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(fp, 0, sizeof *fp);
    if (cs->err)
        return cs->err;
    if (cs->mode != CZ_CS_COUNT || cs->finished)
        return CZ_ERR_INVALID_ARG;
    fp->n_inputs = cs->n_in;
    fp->n_aux = cs->n_aux;
    fp->n_constraints = cs->n_rows;
    /* bellperson's input constraints: x_i * 0 = 0, x_i in A */
    for (size_t i = 0; i < cs->n_in; i++) {
        cz_fp_put_row(&cs->fs[CZ_MAT_A], 1);
        cz_fp_put_entry(&cs->fs[CZ_MAT_A], (uint32_t)i, false, CZ_CSR_ONE, NULL);
        cz_fp_put_row(&cs->fs[CZ_MAT_B], 0);
        cz_fp_put_row(&cs->fs[CZ_MAT_C], 0);
    }
    cs->nnz[CZ_MAT_A] += cs->n_in;
    cs->n_rows += cs->n_in;
    cs->finished = 1;
    fp->n_rows = cs->n_rows;
    uint8_t h[3][32];
    for (int k = 0; k < 3; k++) {
        cz_fp_stream_final(&cs->fs[k], h[k]);
        fp->nnz[k] = cs->nnz[k];
        fp->ngen[k] = cs->ngen[k];
    }
    fp->density[CZ_DENSITY_A_AUX] = popcount(cs->dens[CZ_DENSITY_A_AUX], cs->n_aux);
    fp->density[CZ_DENSITY_B_INPUT] = popcount(cs->dens[CZ_DENSITY_B_INPUT], cs->n_in);
    fp->density[CZ_DENSITY_B_AUX] = popcount(cs->dens[CZ_DENSITY_B_AUX], cs->n_aux);
    cz_fp_digest(fp, h);
    cz_cs_mem_free(cs->scratch);
    cs->scratch = NULL;
    cs->cap_scratch = 0;
    return CZ_OK;
}
