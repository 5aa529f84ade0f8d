/* The C1 written as serde_json::to_vec writes SealCommitPhase1Output
 * (filecoin-ffi's seal_commit_phase1): compact (no whitespace), struct
 * fields in declaration order as objects, enums externally tagged
 * ({"Variant": value}; the unit variant registered_proof as a string),
 * integers in decimal, [u8; 32] values (D, Commitment, Ticket) as arrays
 * of 32 integers, Column's PhantomData `_h` as null (serde writes a unit
 * struct as null; PathElement's and LabelingProof's are #[serde(skip)]).
 * docs/filecoin.md, "C1 format", lists the source of each fact. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"

typedef struct {
    char *p;
    size_t n, cap;
    bool oom;
} wbuf;

static bool grow(wbuf *w, size_t more)
{
    if (w->oom)
        return false;
    if (w->cap - w->n >= more)
        return true;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap - w->n < more) {
        if (cap > SIZE_MAX / 2) {
            w->oom = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(w->p, cap);
    if (!p) {
        w->oom = true;
        return false;
    }
    w->p = p;
    w->cap = cap;
    return true;
}

__attribute__((noinline)) static void put(wbuf *w, const char *s, size_t n)
{
    if (!grow(w, n))
        return;
    memcpy(w->p + w->n, s, n);
    w->n += n;
}

/* lit must be a string literal (concatenated with "" to make sure) */
#define PUTS(w, lit) put((w), "" lit, sizeof("" lit) - 1)

static void put_u64(wbuf *w, uint64_t v)
{
    char t[20];
    int k = 20;
    do {
        t[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(w, t + k, (size_t)(20 - k));
}

/* [b0,b1,...,b31]: at most 32 * 4 + 1 bytes. */
static void put_d(wbuf *w, const uint8_t b[32])
{
    if (!grow(w, 32 * 4 + 1))
        return;
    char *o = w->p + w->n;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (v >= 100) {
            *o++ = (char)('0' + v / 100);
            *o++ = (char)('0' + v / 10 % 10);
        } else if (v >= 10) {
            *o++ = (char)('0' + v / 10);
        }
        *o++ = (char)('0' + v % 10);
        *o++ = i < 31 ? ',' : ']';
    }
    w->n = (size_t)(o - w->p);
}

static void put_key(wbuf *w, const char *k, bool first)
{
    if (!first)
        PUTS(w, ",");
    PUTS(w, "\"");
    put(w, k, strlen(k));
    PUTS(w, "\":");
}

/* InclusionPath {"path":[{"hashes":[..],"index":i},...]} of lv[0..n). */
static void put_path(wbuf *w, const cz_fc_path_el *lv, uint32_t n)
{
    PUTS(w, "{\"path\":[");
    for (uint32_t l = 0; l < n; l++) {
        if (l)
            PUTS(w, ",");
        PUTS(w, "{\"hashes\":[");
        for (unsigned h = 0; h + 1u < lv[l].arity; h++) {
            if (h)
                PUTS(w, ",");
            put_d(w, lv[l].hashes[h].b);
        }
        PUTS(w, "],\"index\":");
        put_u64(w, lv[l].index);
        PUTS(w, "}");
    }
    PUTS(w, "]}");
}

static void put_mp(wbuf *w, const cz_fc_merkle_proof *mp)
{
    uint32_t n = mp->n_levels;
    switch (mp->form) {
    case CZ_FC_PROOF_SINGLE:
        PUTS(w, "{\"data\":{\"Single\":{\"root\":");
        put_d(w, mp->root.b);
        PUTS(w, ",\"leaf\":");
        put_d(w, mp->leaf.b);
        PUTS(w, ",\"path\":");
        put_path(w, mp->levels, n);
        break;
    case CZ_FC_PROOF_SUB:
        PUTS(w, "{\"data\":{\"Sub\":{\"base_proof\":");
        put_path(w, mp->levels, n - 1);
        PUTS(w, ",\"sub_proof\":");
        put_path(w, mp->levels + n - 1, 1);
        PUTS(w, ",\"root\":");
        put_d(w, mp->root.b);
        PUTS(w, ",\"leaf\":");
        put_d(w, mp->leaf.b);
        break;
    case CZ_FC_PROOF_TOP:
        PUTS(w, "{\"data\":{\"Top\":{\"base_proof\":");
        put_path(w, mp->levels, n - 2);
        PUTS(w, ",\"sub_proof\":");
        put_path(w, mp->levels + n - 2, 1);
        PUTS(w, ",\"top_proof\":");
        put_path(w, mp->levels + n - 1, 1);
        PUTS(w, ",\"root\":");
        put_d(w, mp->root.b);
        PUTS(w, ",\"leaf\":");
        put_d(w, mp->leaf.b);
        break;
    }
    PUTS(w, "}}}");
}

static void put_cp(wbuf *w, const cz_fc_column_proof *cp, unsigned layers)
{
    PUTS(w, "{\"column\":{\"index\":");
    put_u64(w, cp->index);
    PUTS(w, ",\"rows\":[");
    for (unsigned i = 0; i < layers; i++) {
        if (i)
            PUTS(w, ",");
        put_d(w, cp->rows[i].b);
    }
    PUTS(w, "],\"_h\":null},\"inclusion_proof\":");
    put_mp(w, &cp->inclusion);
    PUTS(w, "}");
}

static void put_lp(wbuf *w, const cz_fc_labeling_proof *lp)
{
    PUTS(w, "{\"parents\":[");
    for (int i = 0; i < CZ_FC_LABEL_PARENTS; i++) {
        if (i)
            PUTS(w, ",");
        put_d(w, lp->parents[i].b);
    }
    PUTS(w, "],\"layer_index\":");
    put_u64(w, lp->layer_index);
    PUTS(w, ",\"node\":");
    put_u64(w, lp->node);
    PUTS(w, "}");
}

static void put_proof(wbuf *w, const cz_fc_vanilla_proof *v, unsigned layers)
{
    PUTS(w, "{\"comm_d_proofs\":");
    put_mp(w, &v->comm_d_proof);
    PUTS(w, ",\"comm_r_last_proof\":");
    put_mp(w, &v->comm_r_last_proof);
    PUTS(w, ",\"replica_column_proofs\":{\"c_x\":");
    put_cp(w, &v->c_x, layers);
    PUTS(w, ",\"drg_parents\":[");
    for (int i = 0; i < CZ_FC_DRG_DEGREE; i++) {
        if (i)
            PUTS(w, ",");
        put_cp(w, &v->drg[i], layers);
    }
    PUTS(w, "],\"exp_parents\":[");
    for (int i = 0; i < CZ_FC_EXP_DEGREE; i++) {
        if (i)
            PUTS(w, ",");
        put_cp(w, &v->exp[i], layers);
    }
    PUTS(w, "]},\"labeling_proofs\":[");
    for (unsigned i = 0; i < layers; i++) {
        if (i)
            PUTS(w, ",");
        put_lp(w, &v->labeling[i]);
    }
    PUTS(w, "],\"encoding_proof\":");
    put_lp(w, &v->encoding);
    PUTS(w, "}");
}

/* ------------------------------------------------- shape of the input --- */

static bool mp_ok(const cz_fc_merkle_proof *mp)
{
    unsigned extra = mp->form == CZ_FC_PROOF_TOP ? 2 : mp->form == CZ_FC_PROOF_SUB ? 1 : 0;
    if ((unsigned)mp->form > CZ_FC_PROOF_TOP || mp->n_levels < extra ||
        (mp->n_levels && !mp->levels))
        return false;
    for (uint32_t l = 0; l < mp->n_levels; l++)
        if (mp->levels[l].arity < 1 || (mp->levels[l].arity > 1 && !mp->levels[l].hashes))
            return false;
    return true;
}

static bool cp_ok(const cz_fc_column_proof *cp, unsigned layers)
{
    return (layers == 0 || cp->rows) && mp_ok(&cp->inclusion);
}

static bool proof_ok(const cz_fc_vanilla_proof *v, unsigned layers)
{
    if (!mp_ok(&v->comm_d_proof) || !mp_ok(&v->comm_r_last_proof) || !cp_ok(&v->c_x, layers) ||
        (layers && !v->labeling))
        return false;
    for (int i = 0; i < CZ_FC_DRG_DEGREE; i++)
        if (!cp_ok(&v->drg[i], layers))
            return false;
    for (int i = 0; i < CZ_FC_EXP_DEGREE; i++)
        if (!cp_ok(&v->exp[i], layers))
            return false;
    return true;
}

int cz_fc_c1_write(const cz_fc_c1 *c1, char **out, size_t *len)
{
    if (!out || !len)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    *len = 0;
    if (!c1 || !c1->proof_type || !c1->proof_type->shape)
        return CZ_ERR_INVALID_ARG;
    const cz_fc_shape *s = c1->proof_type->shape;
    size_t count = (size_t)c1->partitions * c1->challenges;
    if ((count && !c1->proofs) || (c1->partitions && count / c1->partitions != c1->challenges))
        return CZ_ERR_INVALID_ARG;
    for (size_t i = 0; i < count; i++)
        if (!proof_ok(&c1->proofs[i], s->layers))
            return CZ_ERR_INVALID_ARG;

    wbuf w = {0};
    /* about 115 bytes a D: reserve for the D count of the shape's proofs */
    size_t per = (size_t)(s->log_nodes + 2) + 7 * (s->base_levels + 2) + 2 +
                 15 * (s->layers + 7 * (s->base_levels + 2) + 2) +
                 (s->layers + 1) * CZ_FC_LABEL_PARENTS;
    if (count < SIZE_MAX / 128 / per)
        grow(&w, count * per * 118 + 4096);
    PUTS(&w, "{\"registered_proof\":\"");
    put(&w, c1->proof_type->name, strlen(c1->proof_type->name));
    PUTS(&w, "\",\"vanilla_proofs\":{\"");
    put(&w, s->vanilla_key, strlen(s->vanilla_key));
    PUTS(&w, "\":[");
    for (uint32_t p = 0; p < c1->partitions; p++) {
        if (p)
            PUTS(&w, ",");
        PUTS(&w, "[");
        for (uint32_t c = 0; c < c1->challenges; c++) {
            if (c)
                PUTS(&w, ",");
            put_proof(&w, &c1->proofs[(size_t)p * c1->challenges + c], s->layers);
        }
        PUTS(&w, "]");
    }
    PUTS(&w, "]}");
    put_key(&w, "comm_r", false);
    put_d(&w, c1->comm_r.b);
    put_key(&w, "comm_d", false);
    put_d(&w, c1->comm_d.b);
    put_key(&w, "replica_id", false);
    put_d(&w, c1->replica_id.b);
    put_key(&w, "seed", false);
    put_d(&w, c1->seed);
    put_key(&w, "ticket", false);
    put_d(&w, c1->ticket);
    PUTS(&w, "}");
    if (grow(&w, 1))
        w.p[w.n] = 0; /* a NUL after the text, not counted */
    if (w.oom) {
        free(w.p);
        return CZ_ERR_NOMEM;
    }
    *out = w.p;
    *len = w.n;
    return CZ_OK;
}
