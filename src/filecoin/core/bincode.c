/* The vanilla proofs' shared bincode 1 reader and writer (bincode.h):
 * bincode 1's default config over storage-proofs-core merkle/proof.rs's
 * MerkleProof, ProofData, SingleProof, SubProof, TopProof, InclusionPath
 * and PathElement. */
#include "filecoin/core/bincode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"

/* ------------------------------------------------------------ messages --- */

void cz_fc_bc_name(cz_fc_bc_rd *r, size_t from, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->at + from, sizeof r->at - from, fmt, ap);
    va_end(ap);
}

int cz_fc_bc_fail(cz_fc_bc_rd *r, int rc, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(r->err, r->errlen, "%s%s: %s (at byte %zu)", r->style->prefix, r->at, what,
                 r->off);
    }
    return rc;
}

int cz_fc_bc_refuse(char *err, size_t errlen, const cz_fc_bc_style *st, int rc, const char *fmt,
                    ...)
{
    if (err && errlen) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(err, errlen, "%s%s", st->prefix, what);
    }
    return rc;
}

/* -------------------------------------------------------------- reads --- */

static int need(cz_fc_bc_rd *r, size_t n)
{
    if (r->len - r->off < n)
        return cz_fc_bc_fail(r, CZ_ERR_TRUNCATED, "the proof ends %zu bytes short",
                             n - (r->len - r->off));
    return CZ_OK;
}

int cz_fc_bc_get_u64(cz_fc_bc_rd *r, uint64_t *v)
{
    int rc = need(r, 8);
    if (rc)
        return rc;
    *v = 0;
    for (int i = 0; i < 8; i++)
        *v |= (uint64_t)r->p[r->off + i] << (8 * i);
    r->off += 8;
    return CZ_OK;
}

static int get_u32(cz_fc_bc_rd *r, uint32_t *v)
{
    int rc = need(r, 4);
    if (rc)
        return rc;
    *v = (uint32_t)r->p[r->off] | (uint32_t)r->p[r->off + 1] << 8 |
         (uint32_t)r->p[r->off + 2] << 16 | (uint32_t)r->p[r->off + 3] << 24;
    r->off += 4;
    return CZ_OK;
}

int cz_fc_bc_get_d(cz_fc_bc_rd *r, cz_fc_d *d, cz_fc_tree_kind k)
{
    int rc = need(r, 32);
    if (rc)
        return rc;
    memcpy(d->b, r->p + r->off, 32);
    const char *tree = !r->style->tree_words ? "" : k == CZ_FC_TREE_D ? "TreeD " : "TreeR ";
    cz_fr x;
    if (k == CZ_FC_TREE_D ? (d->b[31] & 0xc0) != 0 : cz_fc_d_to_fr(&x, d) != CZ_OK)
        return cz_fc_bc_fail(r, CZ_ERR_NOT_CANONICAL,
                             k == CZ_FC_TREE_D ? "a %svalue with its top two bits set"
                                               : "a %svalue that is not below the field's modulus",
                             tree);
    r->off += 32;
    return CZ_OK;
}

int cz_fc_bc_get_len(cz_fc_bc_rd *r, uint64_t want, const char *what)
{
    uint64_t n;
    int rc = cz_fc_bc_get_u64(r, &n);
    if (!rc && n != want) {
        r->off -= 8;
        rc = cz_fc_bc_fail(r, CZ_ERR_BAD_FORMAT, "%llu %s, the shape has %llu",
                           (unsigned long long)n, what, (unsigned long long)want);
    }
    return rc;
}

int cz_fc_bc_get_end(cz_fc_bc_rd *r)
{
    if (r->off == r->len)
        return CZ_OK;
    cz_fc_bc_name(r, 0, "end");
    return cz_fc_bc_fail(r, CZ_ERR_BAD_LENGTH, "%zu bytes after the proof", r->len - r->off);
}

/* -------------------------------------------------------- MerkleProof --- */

/* Levels of m in its base path: all but the sub and top levels. */
static unsigned base_levels(const cz_fc_merkle_proof *m)
{
    return m->n_levels - (m->form != CZ_FC_PROOF_SINGLE) - (m->form == CZ_FC_PROOF_TOP);
}

/* Levels [from, to) of m as the InclusionPath part (at[at_len ..]). */
static int get_path(cz_fc_bc_rd *r, cz_fc_merkle_proof *m, cz_fc_tree_kind k, unsigned from,
                    unsigned to, const char *part, size_t at_len)
{
    bool fields = r->style->element_fields;
    cz_fc_bc_name(r, at_len, fields ? ".%s.path" : ".%s", part);
    int rc = cz_fc_bc_get_len(r, to - from, "levels");
    for (unsigned l = from; l < to && !rc; l++) {
        cz_fc_path_el *e = &m->levels[l];
        cz_fc_bc_name(r, at_len, ".%s.path[%u]", part, l - from);
        size_t el = strlen(r->at);
        if (fields)
            cz_fc_bc_name(r, el, ".hashes");
        rc = cz_fc_bc_get_len(r, (uint64_t)e->arity - 1, "siblings");
        for (unsigned h = 0; h + 1 < e->arity && !rc; h++) {
            if (fields)
                cz_fc_bc_name(r, el, ".hashes[%u]", h);
            rc = cz_fc_bc_get_d(r, &e->hashes[h], k);
        }
        uint64_t idx = 0;
        if (!rc && fields)
            cz_fc_bc_name(r, el, ".index");
        if (!rc)
            rc = cz_fc_bc_get_u64(r, &idx);
        if (!rc && idx >= e->arity) {
            r->off -= 8;
            rc = cz_fc_bc_fail(r, CZ_ERR_BAD_FORMAT, "%s%llu, the arity is %u",
                               fields ? "" : "index ", (unsigned long long)idx, e->arity);
        }
        e->index = (uint8_t)idx;
    }
    return rc;
}

static int get_root_leaf(cz_fc_bc_rd *r, cz_fc_merkle_proof *m, cz_fc_tree_kind k, size_t at_len)
{
    cz_fc_bc_name(r, at_len, ".root");
    int rc = cz_fc_bc_get_d(r, &m->root, k);
    if (!rc) {
        cz_fc_bc_name(r, at_len, ".leaf");
        rc = cz_fc_bc_get_d(r, &m->leaf, k);
    }
    return rc;
}

static const char *const form_name[3] = {"Single", "Sub", "Top"};

int cz_fc_bc_get_proof(cz_fc_bc_rd *r, cz_fc_merkle_proof *m, cz_fc_tree_kind k)
{
    size_t at_len = strlen(r->at);
    uint32_t v;
    int rc = get_u32(r, &v);
    if (!rc && v != (uint32_t)m->form) {
        r->off -= 4;
        rc = cz_fc_bc_fail(r, CZ_ERR_BAD_FORMAT, "variant %u, the shape's proofs are %s (%d)", v,
                           form_name[m->form], (int)m->form);
    }
    if (rc)
        return rc;
    unsigned n = m->n_levels, b = base_levels(m);
    if (m->form == CZ_FC_PROOF_SINGLE) {
        rc = get_root_leaf(r, m, k, at_len);
        if (!rc)
            rc = get_path(r, m, k, 0, n, "path", at_len);
    } else {
        rc = get_path(r, m, k, 0, b, "base_proof", at_len);
        if (!rc)
            rc = get_path(r, m, k, b, b + 1, "sub_proof", at_len);
        if (!rc && m->form == CZ_FC_PROOF_TOP)
            rc = get_path(r, m, k, b + 1, b + 2, "top_proof", at_len);
        if (!rc)
            rc = get_root_leaf(r, m, k, at_len);
    }
    r->at[at_len] = 0;
    return rc;
}

/* ------------------------------------------------------------- writes --- */

void cz_fc_bc_put_u64(cz_fc_bc_wr *w, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        w->p[w->off++] = (uint8_t)(v >> (8 * i));
}

static void put_u32(cz_fc_bc_wr *w, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->p[w->off++] = (uint8_t)(v >> (8 * i));
}

void cz_fc_bc_put_d(cz_fc_bc_wr *w, const cz_fc_d *d)
{
    memcpy(w->p + w->off, d->b, 32);
    w->off += 32;
}

static void put_path(cz_fc_bc_wr *w, const cz_fc_merkle_proof *m, unsigned from, unsigned to)
{
    cz_fc_bc_put_u64(w, to - from);
    for (unsigned l = from; l < to; l++) {
        const cz_fc_path_el *e = &m->levels[l];
        cz_fc_bc_put_u64(w, (uint64_t)e->arity - 1);
        for (unsigned h = 0; h + 1 < e->arity; h++)
            cz_fc_bc_put_d(w, &e->hashes[h]);
        cz_fc_bc_put_u64(w, e->index);
    }
}

void cz_fc_bc_put_proof(cz_fc_bc_wr *w, const cz_fc_merkle_proof *m)
{
    put_u32(w, (uint32_t)m->form);
    unsigned n = m->n_levels, b = base_levels(m);
    if (m->form == CZ_FC_PROOF_SINGLE) {
        cz_fc_bc_put_d(w, &m->root);
        cz_fc_bc_put_d(w, &m->leaf);
        put_path(w, m, 0, n);
        return;
    }
    put_path(w, m, 0, b);
    put_path(w, m, b, b + 1);
    if (m->form == CZ_FC_PROOF_TOP)
        put_path(w, m, b + 1, b + 2);
    cz_fc_bc_put_d(w, &m->root);
    cz_fc_bc_put_d(w, &m->leaf);
}

size_t cz_fc_bc_proof_bytes(cz_fc_proof_form f, unsigned n_levels, size_t n_hashes)
{
    size_t parts = 1 + (f != CZ_FC_PROOF_SINGLE) + (f == CZ_FC_PROOF_TOP);
    return 4 + 8 * parts + 16 * (size_t)n_levels + 32 * n_hashes + 64;
}
