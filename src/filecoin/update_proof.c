/* The EmptySectorUpdate vanilla PartitionProof in bincode 1
 * (include/cuzk/filecoin.h): storage-proofs-update vanilla.rs
 * PartitionProof / ChallengeProof, storage-proofs-core merkle/proof.rs
 * MerkleProof / ProofData / SingleProof / SubProof / TopProof /
 * InclusionPath / PathElement, serialised by serde's derive with bincode's
 * default options (fixed-width little-endian integers, u32 variant
 * indices, u64 lengths, usize as u64, [u8; 32] domains as 32 raw bytes).
 *
 * The shape fixes every count, so the reader checks each against it as it
 * goes and names the first field that differs; the proof's arrays are
 * carved from one block whose size is known before reading. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "filecoin/filecoin_internal.h"

/* ------------------------------------------------------------- shapes --- */

static unsigned log2u(unsigned x)
{
    unsigned l = 0;
    while ((1u << (l + 1)) <= x)
        l++;
    return l;
}

static unsigned base_levels(const cz_fc_update_shape *s)
{
    unsigned sub = s->tree_r[1], top = s->tree_r[2];
    return (s->node_bits - (sub ? log2u(sub) : 0) - (top ? log2u(top) : 0)) / 3;
}

cz_fc_proof_form cz_fc_update_tree_form(const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    if (k == CZ_FC_TREE_D)
        return CZ_FC_PROOF_SINGLE;
    return s->tree_r[2] ? CZ_FC_PROOF_TOP : s->tree_r[1] ? CZ_FC_PROOF_SUB : CZ_FC_PROOF_SINGLE;
}

unsigned cz_fc_update_tree_levels(const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    if (k == CZ_FC_TREE_D)
        return s->node_bits;
    return base_levels(s) + (s->tree_r[1] != 0) + (s->tree_r[2] != 0);
}

unsigned cz_fc_update_tree_arity(const cz_fc_update_shape *s, cz_fc_tree_kind k, unsigned level)
{
    if (level >= cz_fc_update_tree_levels(s, k))
        return 0;
    if (k == CZ_FC_TREE_D)
        return 2;
    unsigned b = base_levels(s);
    if (level < b)
        return 8;
    if (level == b && s->tree_r[1])
        return s->tree_r[1];
    return s->tree_r[2];
}

/* Hashes of one proof of kind k: sum over levels of arity - 1. */
static size_t proof_hashes(const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    size_t h = 0;
    for (unsigned l = 0; l < cz_fc_update_tree_levels(s, k); l++)
        h += cz_fc_update_tree_arity(s, k, l) - 1;
    return h;
}

/* Bytes of one encoded MerkleProof of kind k: variant, per path part its
 * length, per level its count, hashes and index, then root and leaf. */
static size_t proof_bytes(const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    unsigned parts = 1 + (cz_fc_update_tree_form(s, k) != CZ_FC_PROOF_SINGLE) +
                     (cz_fc_update_tree_form(s, k) == CZ_FC_PROOF_TOP);
    return 4 + 8 * (size_t)parts + 16 * (size_t)cz_fc_update_tree_levels(s, k) +
           32 * proof_hashes(s, k) + 64;
}

size_t cz_fc_update_proof_bytes(const cz_fc_update_shape *s)
{
    size_t per = 2 * proof_bytes(s, CZ_FC_TREE_RC) + proof_bytes(s, CZ_FC_TREE_D);
    return 32 + 8 + 32 * (size_t)s->apex_leaves + 8 + per * s->challenges;
}

/* ------------------------------------------------------------- memory --- */

/* The block: challenges, then every level of every proof, then every
 * hash, then the apex leaves. */
static size_t block_bytes(const cz_fc_update_shape *s)
{
    size_t lv = 2 * (size_t)cz_fc_update_tree_levels(s, CZ_FC_TREE_RC) +
                cz_fc_update_tree_levels(s, CZ_FC_TREE_D);
    size_t hs = 2 * proof_hashes(s, CZ_FC_TREE_RC) + proof_hashes(s, CZ_FC_TREE_D);
    return s->challenges * (sizeof(cz_fc_update_challenge_proof) + lv * sizeof(cz_fc_path_el) +
                            hs * sizeof(cz_fc_d)) +
           s->apex_leaves * sizeof(cz_fc_d);
}

/* Points proof m's levels at *lv and their hashes at *hs (advancing both),
 * with the shape's form, level count and arities. */
static void lay_out(cz_fc_merkle_proof *m, const cz_fc_update_shape *s, cz_fc_tree_kind k,
                    cz_fc_path_el **lv, cz_fc_d **hs)
{
    m->form = cz_fc_update_tree_form(s, k);
    m->n_levels = cz_fc_update_tree_levels(s, k);
    m->levels = *lv;
    for (unsigned l = 0; l < m->n_levels; l++) {
        cz_fc_path_el *e = &(*lv)[l];
        e->arity = (uint8_t)cz_fc_update_tree_arity(s, k, l);
        e->index = 0;
        e->hashes = *hs;
        *hs += e->arity - 1;
    }
    *lv += m->n_levels;
}

int cz_fc_update_proof_alloc(cz_fc_update_partition_proof *p, const cz_fc_update_shape *s,
                             const cz_allocator *alloc)
{
    if (p == NULL || s == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(p, 0, sizeof *p);
    size_t bytes = block_bytes(s);
    char *m = cz_alloc(alloc, CZ_BUF_INPUT, bytes);
    if (m == NULL)
        return CZ_ERR_NOMEM;
    memset(m, 0, bytes);
    p->mem = m;
    p->mem_bytes = bytes;
    p->alloc = alloc;
    p->n_challenges = s->challenges;
    p->n_apex = s->apex_leaves;
    p->challenges = (cz_fc_update_challenge_proof *)m;
    size_t lv = 2 * (size_t)cz_fc_update_tree_levels(s, CZ_FC_TREE_RC) +
                cz_fc_update_tree_levels(s, CZ_FC_TREE_D);
    cz_fc_path_el *levels = (cz_fc_path_el *)(p->challenges + s->challenges);
    cz_fc_d *hashes = (cz_fc_d *)(levels + lv * s->challenges);
    for (unsigned c = 0; c < s->challenges; c++) {
        cz_fc_update_challenge_proof *cp = &p->challenges[c];
        lay_out(&cp->r_old, s, CZ_FC_TREE_RC, &levels, &hashes);
        lay_out(&cp->d_new, s, CZ_FC_TREE_D, &levels, &hashes);
        lay_out(&cp->r_new, s, CZ_FC_TREE_RC, &levels, &hashes);
    }
    p->apex_leafs = hashes;
    return CZ_OK;
}

void cz_fc_update_proof_free(cz_fc_update_partition_proof *p)
{
    if (p == NULL)
        return;
    if (p->mem)
        cz_free(p->alloc, p->mem, p->mem_bytes);
    memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------- reader --- */

typedef struct {
    const uint8_t *p;
    size_t len, off;
    char *err;
    size_t errlen;
    char at[160]; /* the field being read, for messages */
} rd;

static int fail(rd *r, int rc, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(r->err, r->errlen, "update partition proof: %s: %s (at byte %zu)", r->at, what,
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

/* A domain of kind k: TreeR values are canonical Fr, TreeD values
 * truncated SHA-256 (top two bits clear). */
static int get_d(rd *r, cz_fc_d *d, cz_fc_tree_kind k)
{
    int rc = need(r, 32);
    if (rc)
        return rc;
    memcpy(d->b, r->p + r->off, 32);
    cz_fr x;
    if (k == CZ_FC_TREE_D ? (d->b[31] & 0xc0) != 0 : cz_fc_d_to_fr(&x, d) != CZ_OK)
        return fail(r, CZ_ERR_NOT_CANONICAL,
                    k == CZ_FC_TREE_D ? "a TreeD value with its top two bits set"
                                      : "a TreeR value that is not below the field's modulus");
    r->off += 32;
    return CZ_OK;
}

static int get_len(rd *r, uint64_t want, const char *what)
{
    uint64_t n;
    int rc = get_u64(r, &n);
    if (!rc && n != want)
        rc = fail(r, CZ_ERR_BAD_FORMAT, "%llu %s, the shape has %llu", (unsigned long long)n, what,
                  (unsigned long long)want);
    return rc;
}

/* Levels [from, to) of m as one InclusionPath named name. */
static int get_path(rd *r, cz_fc_merkle_proof *m, cz_fc_tree_kind k, unsigned from, unsigned to,
                    const char *name, size_t at_len)
{
    snprintf(r->at + at_len, sizeof r->at - at_len, ".%s", name);
    int rc = get_len(r, to - from, "levels");
    for (unsigned l = from; l < to && !rc; l++) {
        cz_fc_path_el *e = &m->levels[l];
        snprintf(r->at + at_len, sizeof r->at - at_len, ".%s.path[%u]", name, l - from);
        rc = get_len(r, (uint64_t)e->arity - 1, "siblings");
        for (unsigned h = 0; h + 1 < e->arity && !rc; h++)
            rc = get_d(r, &e->hashes[h], k);
        uint64_t idx = 0;
        if (!rc)
            rc = get_u64(r, &idx);
        if (!rc && idx >= e->arity)
            rc = fail(r, CZ_ERR_BAD_FORMAT, "index %llu, the arity is %u",
                      (unsigned long long)idx, e->arity);
        e->index = (uint8_t)idx;
    }
    return rc;
}

static const char *const form_name[3] = {"Single", "Sub", "Top"};

static int get_proof(rd *r, cz_fc_merkle_proof *m, const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    size_t at_len = strlen(r->at);
    uint32_t v;
    int rc = get_u32(r, &v);
    if (!rc && v != (uint32_t)m->form)
        rc = fail(r, CZ_ERR_BAD_FORMAT, "variant %u, the shape's proofs are %s (%d)", v,
                  form_name[m->form], (int)m->form);
    if (rc)
        return rc;
    unsigned n = m->n_levels, b = k == CZ_FC_TREE_D ? n : base_levels(s);
    if (m->form == CZ_FC_PROOF_SINGLE) {
        snprintf(r->at + at_len, sizeof r->at - at_len, ".root");
        rc = get_d(r, &m->root, k);
        if (!rc)
            snprintf(r->at + at_len, sizeof r->at - at_len, ".leaf");
        if (!rc)
            rc = get_d(r, &m->leaf, k);
        if (!rc)
            rc = get_path(r, m, k, 0, n, "path", at_len);
    } else {
        rc = get_path(r, m, k, 0, b, "base_proof", at_len);
        if (!rc)
            rc = get_path(r, m, k, b, b + 1, "sub_proof", at_len);
        if (!rc && m->form == CZ_FC_PROOF_TOP)
            rc = get_path(r, m, k, b + 1, b + 2, "top_proof", at_len);
        if (!rc)
            snprintf(r->at + at_len, sizeof r->at - at_len, ".root");
        if (!rc)
            rc = get_d(r, &m->root, k);
        if (!rc)
            snprintf(r->at + at_len, sizeof r->at - at_len, ".leaf");
        if (!rc)
            rc = get_d(r, &m->leaf, k);
    }
    r->at[at_len] = 0;
    return rc;
}

int cz_fc_update_proof_read(cz_fc_update_partition_proof *out, const cz_fc_update_shape *s,
                            const uint8_t *buf, size_t len, const cz_allocator *alloc, char *err,
                            size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out == NULL || s == NULL || (buf == NULL && len > 0)) {
        if (err && errlen)
            snprintf(err, errlen, "update partition proof: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_fc_update_proof_alloc(out, s, alloc);
    if (rc) {
        if (err && errlen)
            snprintf(err, errlen, "update partition proof: out of memory (%zu bytes)",
                     block_bytes(s));
        return rc;
    }
    rd r = {buf, len, 0, err, errlen, "comm_c"};
    rc = get_d(&r, &out->comm_c, CZ_FC_TREE_RC);
    if (!rc) {
        snprintf(r.at, sizeof r.at, "apex_leafs");
        rc = get_len(&r, s->apex_leaves, "apex leaves");
    }
    for (unsigned i = 0; i < s->apex_leaves && !rc; i++) {
        snprintf(r.at, sizeof r.at, "apex_leafs[%u]", i);
        rc = get_d(&r, &out->apex_leafs[i], CZ_FC_TREE_D);
    }
    if (!rc) {
        snprintf(r.at, sizeof r.at, "challenge_proofs");
        rc = get_len(&r, s->challenges, "challenge proofs");
    }
    static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    for (unsigned c = 0; c < s->challenges && !rc; c++) {
        cz_fc_update_challenge_proof *cp = &out->challenges[c];
        cz_fc_merkle_proof *m[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
        for (int j = 0; j < 3 && !rc; j++) {
            snprintf(r.at, sizeof r.at, "challenge_proofs[%u].%s", c, names[j]);
            rc = get_proof(&r, m[j], s, j == 1 ? CZ_FC_TREE_D : CZ_FC_TREE_RC);
        }
    }
    if (!rc && r.off != len) {
        snprintf(r.at, sizeof r.at, "end");
        rc = fail(&r, CZ_ERR_BAD_LENGTH, "%zu bytes after the proof", len - r.off);
    }
    if (rc)
        cz_fc_update_proof_free(out);
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

/* Does m have shape s's form, levels and arities for kind k? */
static bool merkle_shaped(const cz_fc_merkle_proof *m, const cz_fc_update_shape *s, cz_fc_tree_kind k)
{
    if (m->form != cz_fc_update_tree_form(s, k) || m->n_levels != cz_fc_update_tree_levels(s, k) ||
        m->levels == NULL)
        return false;
    for (unsigned l = 0; l < m->n_levels; l++)
        if (m->levels[l].arity != cz_fc_update_tree_arity(s, k, l) || m->levels[l].hashes == NULL ||
            m->levels[l].index >= m->levels[l].arity)
            return false;
    return true;
}

bool cz_fc_update_proof_shaped(const cz_fc_update_partition_proof *p, const cz_fc_update_shape *s)
{
    if (p->n_apex != s->apex_leaves || p->n_challenges != s->challenges || p->apex_leafs == NULL ||
        p->challenges == NULL)
        return false;
    for (unsigned c = 0; c < s->challenges; c++) {
        const cz_fc_update_challenge_proof *cp = &p->challenges[c];
        if (!merkle_shaped(&cp->r_old, s, CZ_FC_TREE_RC) ||
            !merkle_shaped(&cp->d_new, s, CZ_FC_TREE_D) ||
            !merkle_shaped(&cp->r_new, s, CZ_FC_TREE_RC))
            return false;
    }
    return true;
}

static void put_proof(wr *w, const cz_fc_merkle_proof *m, const cz_fc_update_shape *s,
                      cz_fc_tree_kind k)
{
    put_u32(w, (uint32_t)m->form);
    unsigned n = m->n_levels, b = k == CZ_FC_TREE_D ? n : base_levels(s);
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

int cz_fc_update_proof_write(uint8_t *out, size_t cap, const cz_fc_update_partition_proof *p,
                             const cz_fc_update_shape *s)
{
    if (out == NULL || p == NULL || s == NULL || !cz_fc_update_proof_shaped(p, s))
        return CZ_ERR_INVALID_ARG;
    if (cap < cz_fc_update_proof_bytes(s))
        return CZ_ERR_BAD_LENGTH;
    wr w = {out, 0};
    put_d(&w, &p->comm_c);
    put_u64(&w, s->apex_leaves);
    for (unsigned i = 0; i < s->apex_leaves; i++)
        put_d(&w, &p->apex_leafs[i]);
    put_u64(&w, s->challenges);
    for (unsigned c = 0; c < s->challenges; c++) {
        put_proof(&w, &p->challenges[c].r_old, s, CZ_FC_TREE_RC);
        put_proof(&w, &p->challenges[c].d_new, s, CZ_FC_TREE_D);
        put_proof(&w, &p->challenges[c].r_new, s, CZ_FC_TREE_RC);
    }
    return CZ_OK;
}
