/* The PoSt vanilla sector proof in bincode 1 (cuzk/post.h; docs/post.md
 * 4.1): filecoin-proofs types/mod.rs FallbackPoStSectorProof {sector_id,
 * comm_r, vanilla_proof}, storage-proofs-post fallback/vanilla.rs Proof
 * {sectors} and SectorProof {inclusion_proofs, comm_c, comm_r_last},
 * storage-proofs-core merkle/proof.rs MerkleProof {data: ProofData} with
 * ProofData::Single(SingleProof {root, leaf, path}) | Sub(SubProof
 * {base_proof, sub_proof, root, leaf}) | Top(TopProof {base_proof,
 * sub_proof, top_proof, root, leaf}), InclusionPath {path} and
 * PathElement {hashes, index}; serde's derive with bincode's default
 * options (fixed-width little-endian integers, u32 variant indices, u64
 * lengths, usize as u64, PoseidonDomain and SectorId newtypes as their
 * inner value).
 *
 * As for the update proof (update_proof.c), the shape fixes every count:
 * the reader checks each as it goes and names the first field that
 * differs by its serde path and the offset of its first byte (also for
 * a field cut short), and the arrays are carved from one block whose
 * size is known before reading. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/post_vanilla.h"

#define TREE_LEVELS_MAX 40 /* merkle.c's MAX_LEVELS */

/* ------------------------------------------------------------- shapes --- */

static unsigned levels_of(const cz_post_shape *s)
{
    return cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree);
}

static unsigned arity_of(const cz_post_shape *s, unsigned l)
{
    return cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, l);
}

bool cz_post_vanilla_shape_ok(const cz_post_shape *s)
{
    unsigned n = levels_of(s);
    if (cz_post_blob_challenges(s) == 0 || n == 0 || n > TREE_LEVELS_MAX || s->tree.log_nodes > 62)
        return false;
    uint64_t leaves = 1;
    for (unsigned l = 0; l < n; l++) {
        unsigned a = arity_of(s, l);
        if (a < 2 || a > 8 || leaves > ((uint64_t)1 << 62) / a)
            return false;
        leaves *= a;
    }
    return leaves == (uint64_t)1 << s->tree.log_nodes;
}

/* Siblings of one inclusion proof: sum over levels of arity - 1. */
static size_t proof_hashes(const cz_post_shape *s)
{
    size_t h = 0;
    for (unsigned l = 0; l < levels_of(s); l++)
        h += arity_of(s, l) - 1;
    return h;
}

/* Bytes of one encoded MerkleProof: the u32 variant, per path part
 * (base; sub; top) its u64 length, per level its u64 sibling count, the
 * siblings and the u64 index, then root and leaf. */
static size_t proof_bytes(const cz_post_shape *s)
{
    cz_fc_proof_form f = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
    size_t parts = 1 + (f != CZ_FC_PROOF_SINGLE) + (f == CZ_FC_PROOF_TOP);
    return 4 + 8 * parts + 16 * (size_t)levels_of(s) + 32 * proof_hashes(s) + 64;
}

/* sector_id, comm_r, the sectors count, the inclusion proofs count, the
 * proofs, comm_c and comm_r_last: 120 + n x proof_bytes. */
size_t cz_post_vanilla_bytes(const cz_post_shape *s)
{
    return 8 + 32 + 8 + 8 + (size_t)cz_post_blob_challenges(s) * proof_bytes(s) + 64;
}

/* ------------------------------------------------------------- memory --- */

/* The block: the inclusion proofs, then every proof's levels, then every
 * level's siblings. */
static size_t block_bytes(const cz_post_shape *s)
{
    return cz_post_blob_challenges(s) *
           (sizeof(cz_fc_merkle_proof) + levels_of(s) * sizeof(cz_fc_path_el) +
            proof_hashes(s) * sizeof(cz_fc_d));
}

int cz_post_vanilla_alloc(cz_post_vanilla *v, const cz_post_shape *s, const cz_allocator *alloc)
{
    if (v == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(v, 0, sizeof *v);
    if (s == NULL || !cz_post_vanilla_shape_ok(s))
        return CZ_ERR_INVALID_ARG;
    size_t bytes = block_bytes(s);
    char *m = cz_alloc(alloc, CZ_BUF_INPUT, bytes);
    if (m == NULL)
        return CZ_ERR_NOMEM;
    memset(m, 0, bytes);
    v->mem = m;
    v->mem_bytes = bytes;
    v->alloc = alloc;
    unsigned n = cz_post_blob_challenges(s), nl = levels_of(s);
    cz_fc_merkle_proof *inc = (cz_fc_merkle_proof *)m;
    cz_fc_path_el *lv = (cz_fc_path_el *)(inc + n);
    cz_fc_d *hs = (cz_fc_d *)(lv + (size_t)n * nl);
    for (unsigned i = 0; i < n; i++) {
        inc[i].form = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
        inc[i].n_levels = nl;
        inc[i].levels = lv;
        for (unsigned l = 0; l < nl; l++) {
            lv[l].arity = (uint8_t)arity_of(s, l);
            lv[l].hashes = hs;
            hs += lv[l].arity - 1;
        }
        lv += nl;
    }
    v->proof.inclusion = inc;
    v->proof.n_inclusion = n;
    return CZ_OK;
}

void cz_post_vanilla_free(cz_post_vanilla *v)
{
    if (v == NULL)
        return;
    if (v->mem)
        cz_free(v->alloc, v->mem, v->mem_bytes);
    memset(v, 0, sizeof *v);
}

bool cz_post_vanilla_shaped(const cz_post_vanilla *v, const cz_post_shape *s)
{
    if (!cz_post_vanilla_shape_ok(s) || v->proof.n_inclusion != cz_post_blob_challenges(s) ||
        v->proof.inclusion == NULL)
        return false;
    for (unsigned i = 0; i < v->proof.n_inclusion; i++) {
        const cz_fc_merkle_proof *m = &v->proof.inclusion[i];
        if (m->form != cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree) || m->n_levels != levels_of(s) ||
            m->levels == NULL)
            return false;
        for (unsigned l = 0; l < m->n_levels; l++)
            if (m->levels[l].arity != arity_of(s, l) || m->levels[l].hashes == NULL ||
                m->levels[l].index >= m->levels[l].arity)
                return false;
    }
    return true;
}

/* ------------------------------------------------------------- reader --- */

typedef struct {
    const uint8_t *p;
    size_t len, off;
    char *err;
    size_t errlen;
    char at[200]; /* the field being read, for messages */
} rd;

/* The field's name: at[from ..] = fmt. */
static void name(rd *r, size_t from, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void name(rd *r, size_t from, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->at + from, sizeof r->at - from, fmt, ap);
    va_end(ap);
}

static int fail(rd *r, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rd *r, int rc, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(r->err, r->errlen, "post vanilla proof: %s: %s (at byte %zu)", r->at, what,
                 r->off);
    }
    return rc;
}

static int need(rd *r, size_t n)
{
    if (r->len - r->off < n)
        return fail(r, CZ_ERR_TRUNCATED, "the proof ends %zu bytes short", n - (r->len - r->off));
    return CZ_OK;
}

static int get_u64(rd *r, uint64_t *v)
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

static int get_u32(rd *r, uint32_t *v)
{
    int rc = need(r, 4);
    if (rc)
        return rc;
    *v = (uint32_t)r->p[r->off] | (uint32_t)r->p[r->off + 1] << 8 |
         (uint32_t)r->p[r->off + 2] << 16 | (uint32_t)r->p[r->off + 3] << 24;
    r->off += 4;
    return CZ_OK;
}

/* A PoseidonDomain: a canonical Fr, little-endian. */
static int get_d(rd *r, cz_fc_d *d)
{
    int rc = need(r, 32);
    if (rc)
        return rc;
    memcpy(d->b, r->p + r->off, 32);
    cz_fr x;
    if (cz_fc_d_to_fr(&x, d) != CZ_OK)
        return fail(r, CZ_ERR_NOT_CANONICAL, "a value that is not below the field's modulus");
    r->off += 32;
    return CZ_OK;
}

/* A count that must be want; a wrong one is reported at its first byte. */
static int get_len(rd *r, uint64_t want, const char *what)
{
    uint64_t n;
    int rc = get_u64(r, &n);
    if (!rc && n != want) {
        r->off -= 8;
        rc = fail(r, CZ_ERR_BAD_FORMAT, "%llu %s, the shape has %llu", (unsigned long long)n, what,
                  (unsigned long long)want);
    }
    return rc;
}

/* Levels [from, to) of m as the InclusionPath field part (at[at_len ..]). */
static int get_path(rd *r, cz_fc_merkle_proof *m, unsigned from, unsigned to, const char *part,
                    size_t at_len)
{
    name(r, at_len, ".%s.path", part);
    int rc = get_len(r, to - from, "levels");
    for (unsigned l = from; l < to && !rc; l++) {
        cz_fc_path_el *e = &m->levels[l];
        name(r, at_len, ".%s.path[%u]", part, l - from);
        size_t el = strlen(r->at);
        name(r, el, ".hashes");
        rc = get_len(r, (uint64_t)e->arity - 1, "siblings");
        for (unsigned h = 0; h + 1 < e->arity && !rc; h++) {
            name(r, el, ".hashes[%u]", h);
            rc = get_d(r, &e->hashes[h]);
        }
        uint64_t idx = 0;
        if (!rc) {
            name(r, el, ".index");
            rc = get_u64(r, &idx);
        }
        if (!rc && idx >= e->arity) {
            r->off -= 8;
            rc = fail(r, CZ_ERR_BAD_FORMAT, "%llu, the arity is %u", (unsigned long long)idx,
                      e->arity);
        }
        e->index = (uint8_t)idx;
    }
    return rc;
}

static const char *const form_name[3] = {"Single", "Sub", "Top"};

/* One MerkleProof (at[0 .. at_len) its name), into m's laid-out levels. */
static int get_proof(rd *r, cz_fc_merkle_proof *m, const cz_post_shape *s)
{
    size_t at_len = strlen(r->at);
    uint32_t v;
    int rc = get_u32(r, &v);
    if (!rc && v != (uint32_t)m->form) {
        r->off -= 4;
        rc = fail(r, CZ_ERR_BAD_FORMAT, "variant %u, the shape's proofs are %s (%d)", v,
                  form_name[m->form], (int)m->form);
    }
    if (rc)
        return rc;
    unsigned n = m->n_levels, b = s->tree.base_levels;
    if (m->form == CZ_FC_PROOF_SINGLE) {
        name(r, at_len, ".root");
        rc = get_d(r, &m->root);
        if (!rc) {
            name(r, at_len, ".leaf");
            rc = get_d(r, &m->leaf);
        }
        if (!rc)
            rc = get_path(r, m, 0, n, "path", at_len);
        return rc;
    }
    rc = get_path(r, m, 0, b, "base_proof", at_len);
    if (!rc)
        rc = get_path(r, m, b, b + 1, "sub_proof", at_len);
    if (!rc && m->form == CZ_FC_PROOF_TOP)
        rc = get_path(r, m, b + 1, b + 2, "top_proof", at_len);
    if (!rc) {
        name(r, at_len, ".root");
        rc = get_d(r, &m->root);
    }
    if (!rc) {
        name(r, at_len, ".leaf");
        rc = get_d(r, &m->leaf);
    }
    return rc;
}

int cz_post_vanilla_read(cz_post_vanilla *out, const cz_post_shape *s, const uint8_t *buf,
                         size_t len, const cz_allocator *alloc, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out)
        memset(out, 0, sizeof *out);
    if (out == NULL || s == NULL || (buf == NULL && len > 0) || !cz_post_vanilla_shape_ok(s)) {
        if (err && errlen)
            snprintf(err, errlen, "post vanilla proof: %s",
                     out == NULL || s == NULL || (buf == NULL && len > 0)
                         ? "NULL argument"
                         : "the shape has no challenges or a tree of no levels");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_post_vanilla_alloc(out, s, alloc);
    if (rc) {
        if (err && errlen)
            snprintf(err, errlen, "post vanilla proof: out of memory (%zu bytes)", block_bytes(s));
        return rc;
    }
    rd r = {buf, len, 0, err, errlen, "sector_id"};
    rc = get_u64(&r, &out->sector_id);
    if (!rc) {
        name(&r, 0, "comm_r");
        rc = get_d(&r, &out->comm_r);
    }
    uint64_t n_sectors = 0;
    if (!rc) {
        name(&r, 0, "vanilla_proof.sectors");
        rc = get_u64(&r, &n_sectors);
    }
    /* generate_single_vanilla_proof makes exactly one SectorProof */
    if (!rc && n_sectors != 1) {
        r.off -= 8;
        rc = fail(&r, CZ_ERR_BAD_FORMAT, "%llu sector proofs, a blob has exactly 1",
                  (unsigned long long)n_sectors);
    }
    static const char sp[] = "vanilla_proof.sectors[0]";
    if (!rc) {
        name(&r, 0, "%s.inclusion_proofs", sp);
        rc = get_len(&r, out->proof.n_inclusion, "inclusion proofs");
    }
    for (unsigned i = 0; i < out->proof.n_inclusion && !rc; i++) {
        name(&r, 0, "%s.inclusion_proofs[%u]", sp, i);
        rc = get_proof(&r, &out->proof.inclusion[i], s);
    }
    if (!rc) {
        name(&r, 0, "%s.comm_c", sp);
        rc = get_d(&r, &out->proof.comm_c);
    }
    if (!rc) {
        name(&r, 0, "%s.comm_r_last", sp);
        rc = get_d(&r, &out->proof.comm_r_last);
    }
    if (!rc && r.off != len) {
        name(&r, 0, "end");
        rc = fail(&r, CZ_ERR_BAD_LENGTH, "%zu bytes after the proof", len - r.off);
    }
    if (rc)
        cz_post_vanilla_free(out);
    return rc;
}

/* ------------------------------------------------------------- writer --- */

typedef struct {
    uint8_t *p;
    size_t off;
} wr;

static void put_u64(wr *w, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        w->p[w->off++] = (uint8_t)(v >> (8 * i));
}

static void put_u32(wr *w, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->p[w->off++] = (uint8_t)(v >> (8 * i));
}

static void put_d(wr *w, const cz_fc_d *d)
{
    memcpy(w->p + w->off, d->b, 32);
    w->off += 32;
}

static void put_path(wr *w, const cz_fc_merkle_proof *m, unsigned from, unsigned to)
{
    put_u64(w, to - from);
    for (unsigned l = from; l < to; l++) {
        const cz_fc_path_el *e = &m->levels[l];
        put_u64(w, (uint64_t)e->arity - 1);
        for (unsigned h = 0; h + 1 < e->arity; h++)
            put_d(w, &e->hashes[h]);
        put_u64(w, e->index);
    }
}

static void put_proof(wr *w, const cz_fc_merkle_proof *m, const cz_post_shape *s)
{
    put_u32(w, (uint32_t)m->form);
    unsigned n = m->n_levels, b = s->tree.base_levels;
    if (m->form == CZ_FC_PROOF_SINGLE) {
        put_d(w, &m->root);
        put_d(w, &m->leaf);
        put_path(w, m, 0, n);
        return;
    }
    put_path(w, m, 0, b);
    put_path(w, m, b, b + 1);
    if (m->form == CZ_FC_PROOF_TOP)
        put_path(w, m, b + 1, b + 2);
    put_d(w, &m->root);
    put_d(w, &m->leaf);
}

int cz_post_vanilla_write(uint8_t *out, size_t cap, const cz_post_vanilla *v,
                          const cz_post_shape *s)
{
    if (out == NULL || v == NULL || s == NULL || !cz_post_vanilla_shaped(v, s))
        return CZ_ERR_INVALID_ARG;
    if (cap < cz_post_vanilla_bytes(s))
        return CZ_ERR_BAD_LENGTH;
    wr w = {out, 0};
    put_u64(&w, v->sector_id);
    put_d(&w, &v->comm_r);
    put_u64(&w, 1);
    put_u64(&w, v->proof.n_inclusion);
    for (unsigned i = 0; i < v->proof.n_inclusion; i++)
        put_proof(&w, &v->proof.inclusion[i], s);
    put_d(&w, &v->proof.comm_c);
    put_d(&w, &v->proof.comm_r_last);
    return CZ_OK;
}
