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
#include "cuzk/filecoin/porep.h"
#include "util/json_write.h"

/* A D, Commitment or Ticket: an array of its 32 bytes. */
static void put_d(cz_jw *w, const char *key, const uint8_t b[32]) { cz_jw_u8s(w, key, b, 32); }

/* InclusionPath {"path":[{"hashes":[..],"index":i},...]} of lv[0..n). */
static void put_path(cz_jw *w, const char *key, const cz_fc_path_el *lv, uint32_t n)
{
    cz_jw_object(w, key);
    cz_jw_array(w, "path");
    for (uint32_t l = 0; l < n; l++) {
        cz_jw_object(w, NULL);
        cz_jw_array(w, "hashes");
        for (unsigned h = 0; h + 1u < lv[l].arity; h++)
            put_d(w, NULL, lv[l].hashes[h].b);
        cz_jw_end(w);
        cz_jw_u64(w, "index", lv[l].index);
        cz_jw_end(w);
    }
    cz_jw_end(w);
    cz_jw_end(w);
}

/* MerkleProof {"data": {"Single" | "Sub" | "Top": {...}}}: the base path,
 * then the sub and top paths of one level each. */
static void put_mp(cz_jw *w, const char *key, const cz_fc_merkle_proof *mp)
{
    static const char *const form[] = {"Single", "Sub", "Top"};
    uint32_t n = mp->n_levels;
    cz_jw_object(w, key);
    cz_jw_object(w, "data");
    cz_jw_object(w, form[mp->form]);
    if (mp->form == CZ_FC_PROOF_SINGLE) {
        put_d(w, "root", mp->root.b);
        put_d(w, "leaf", mp->leaf.b);
        put_path(w, "path", mp->levels, n);
    } else {
        uint32_t up = mp->form == CZ_FC_PROOF_TOP ? 2 : 1;
        put_path(w, "base_proof", mp->levels, n - up);
        put_path(w, "sub_proof", mp->levels + n - up, 1);
        if (mp->form == CZ_FC_PROOF_TOP)
            put_path(w, "top_proof", mp->levels + n - 1, 1);
        put_d(w, "root", mp->root.b);
        put_d(w, "leaf", mp->leaf.b);
    }
    cz_jw_end(w);
    cz_jw_end(w);
    cz_jw_end(w);
}

static void put_cp(cz_jw *w, const char *key, const cz_fc_column_proof *cp, unsigned layers)
{
    cz_jw_object(w, key);
    cz_jw_object(w, "column");
    cz_jw_u64(w, "index", cp->index);
    cz_jw_array(w, "rows");
    for (unsigned i = 0; i < layers; i++)
        put_d(w, NULL, cp->rows[i].b);
    cz_jw_end(w);
    cz_jw_null(w, "_h");
    cz_jw_end(w);
    put_mp(w, "inclusion_proof", &cp->inclusion);
    cz_jw_end(w);
}

static void put_lp(cz_jw *w, const char *key, const cz_fc_labeling_proof *lp)
{
    cz_jw_object(w, key);
    cz_jw_array(w, "parents");
    for (int i = 0; i < CZ_FC_LABEL_PARENTS; i++)
        put_d(w, NULL, lp->parents[i].b);
    cz_jw_end(w);
    cz_jw_u64(w, "layer_index", lp->layer_index);
    cz_jw_u64(w, "node", lp->node);
    cz_jw_end(w);
}

static void put_proof(cz_jw *w, const cz_fc_vanilla_proof *v, unsigned layers)
{
    cz_jw_object(w, NULL);
    put_mp(w, "comm_d_proofs", &v->comm_d_proof);
    put_mp(w, "comm_r_last_proof", &v->comm_r_last_proof);
    cz_jw_object(w, "replica_column_proofs");
    put_cp(w, "c_x", &v->c_x, layers);
    cz_jw_array(w, "drg_parents");
    for (int i = 0; i < CZ_FC_DRG_DEGREE; i++)
        put_cp(w, NULL, &v->drg[i], layers);
    cz_jw_end(w);
    cz_jw_array(w, "exp_parents");
    for (int i = 0; i < CZ_FC_EXP_DEGREE; i++)
        put_cp(w, NULL, &v->exp[i], layers);
    cz_jw_end(w);
    cz_jw_end(w);
    cz_jw_array(w, "labeling_proofs");
    for (unsigned i = 0; i < layers; i++)
        put_lp(w, NULL, &v->labeling[i]);
    cz_jw_end(w);
    put_lp(w, "encoding_proof", &v->encoding);
    cz_jw_end(w);
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

    cz_strbuf b;
    cz_jw w;
    cz_strbuf_init(&b);
    cz_jw_init(&w, &b);
    /* about 115 bytes a D: reserve for the D count of the shape's proofs */
    size_t per = (size_t)(s->log_nodes + 2) + 7 * (s->base_levels + 2) + 2 +
                 15 * (s->layers + 7 * (s->base_levels + 2) + 2) +
                 (s->layers + 1) * CZ_FC_LABEL_PARENTS;
    if (count < SIZE_MAX / 128 / per)
        cz_strbuf_reserve(&b, count * per * 118 + 4096);
    cz_jw_object(&w, NULL);
    cz_jw_str(&w, "registered_proof", c1->proof_type->name);
    cz_jw_object(&w, "vanilla_proofs");
    cz_jw_array(&w, s->vanilla_key);
    for (uint32_t p = 0; p < c1->partitions; p++) {
        cz_jw_array(&w, NULL);
        for (uint32_t c = 0; c < c1->challenges; c++)
            put_proof(&w, &c1->proofs[(size_t)p * c1->challenges + c], s->layers);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);
    cz_jw_end(&w);
    put_d(&w, "comm_r", c1->comm_r.b);
    put_d(&w, "comm_d", c1->comm_d.b);
    put_d(&w, "replica_id", c1->replica_id.b);
    put_d(&w, "seed", c1->seed);
    put_d(&w, "ticket", c1->ticket);
    cz_jw_end(&w);
    /* the text is NUL-terminated, the NUL not counted */
    *out = cz_strbuf_take(&b, len);
    if (*out == NULL) {
        *len = 0;
        return CZ_ERR_NOMEM;
    }
    return CZ_OK;
}
