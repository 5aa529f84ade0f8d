/* The vanilla proofs of a sector's challenges, as rust-fil-proofs'
 * prove_layers_generate writes them (storage-proofs-porep stacked/vanilla/
 * proof.rs): for challenge c, the TreeD proof of c; the column of c (its L
 * labels) and of its 6 DRG then 8 expander parents, each with its TreeC
 * proof; the TreeR proof of c; per layer l the labeling proof (the 37
 * parent labels: DRG parents' of layer l, expander parents' of layer
 * l - 1); the encoding proof (the last layer's). */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/porep/internal.h"

int cz_fc_column_hash(cz_fc_d *out, const cz_fc_d *rows, unsigned layers)
{
    return cz_fc_poseidon(out, rows, layers);
}

/* p = the proof of leaf index of tree t, its arrays from the C1. */
static int tree_proof(cz_fc_c1 *c1, const cz_fc_tree *t, cz_fc_tree_kind k,
                      const cz_fc_shape *s, uint64_t index, cz_fc_merkle_proof *p)
{
    unsigned nl = cz_fc_tree_levels(k, s);
    cz_fc_path_el *levels = cz_fc_c1_alloc(c1, nl * sizeof *levels);
    cz_fc_d *hashes = cz_fc_c1_alloc(c1, cz_fc_tree_proof_hashes(t) * sizeof *hashes);
    if (levels == NULL || hashes == NULL)
        return CZ_ERR_NOMEM;
    return cz_fc_tree_proof(t, index, p, levels, hashes);
}

static int column_proof(cz_fc_c1 *c1, const cz_fc_sealed *s, uint64_t node, cz_fc_column_proof *cp)
{
    const cz_fc_shape *sh = s->proof_type->shape;
    cp->index = (uint32_t)node;
    cp->rows = cz_fc_c1_alloc(c1, sh->layers * sizeof(cz_fc_d));
    if (cp->rows == NULL)
        return CZ_ERR_NOMEM;
    for (unsigned l = 1; l <= sh->layers; l++)
        cp->rows[l - 1] = *s->label(s->ctx, l, node);
    return tree_proof(c1, s->tree_c, CZ_FC_TREE_RC, sh, node, &cp->inclusion);
}

static int prove_one(cz_fc_c1 *c1, const cz_fc_sealed *s, uint64_t c, cz_fc_vanilla_proof *v)
{
    const cz_fc_shape *sh = s->proof_type->shape;
    uint32_t par[CZ_FC_PARENTS];
    cz_fc_graph_parents(s->graph, c, par);
    int rc = tree_proof(c1, s->tree_d, CZ_FC_TREE_D, sh, c, &v->comm_d_proof);
    if (rc == CZ_OK)
        rc = column_proof(c1, s, c, &v->c_x);
    for (unsigned i = 0; i < CZ_FC_DRG_DEGREE && rc == CZ_OK; i++)
        rc = column_proof(c1, s, par[i], &v->drg[i]);
    for (unsigned i = 0; i < CZ_FC_EXP_DEGREE && rc == CZ_OK; i++)
        rc = column_proof(c1, s, par[CZ_FC_DRG_DEGREE + i], &v->exp[i]);
    if (rc == CZ_OK)
        rc = tree_proof(c1, s->tree_r, CZ_FC_TREE_RC, sh, c, &v->comm_r_last_proof);
    if (rc != CZ_OK)
        return rc;
    v->labeling = cz_fc_c1_alloc(c1, sh->layers * sizeof *v->labeling);
    if (v->labeling == NULL)
        return CZ_ERR_NOMEM;
    for (unsigned l = 1; l <= sh->layers; l++) {
        cz_fc_d drg[CZ_FC_DRG_DEGREE], exp[CZ_FC_EXP_DEGREE];
        for (unsigned i = 0; i < CZ_FC_DRG_DEGREE; i++)
            drg[i] = *s->label(s->ctx, l, par[i]);
        for (unsigned i = 0; l > 1 && i < CZ_FC_EXP_DEGREE; i++)
            exp[i] = *s->label(s->ctx, l - 1, par[CZ_FC_DRG_DEGREE + i]);
        cz_fc_labeling_proof *lp = &v->labeling[l - 1];
        cz_fc_label_parents(lp->parents, l, drg, exp);
        lp->layer_index = l;
        lp->node = c;
    }
    v->encoding = v->labeling[sh->layers - 1];
    return CZ_OK;
}

int cz_fc_prove_partitions(cz_fc_c1 *c1, const cz_fc_sealed *s, char *err, size_t errlen)
{
    const cz_fc_proof_type *t = s->proof_type;
    c1->proof_type = t;
    c1->partitions = t->partitions;
    c1->challenges = t->shape->challenges;
    size_t n = (size_t)c1->partitions * c1->challenges;
    c1->proofs = cz_fc_c1_alloc(c1, n * sizeof *c1->proofs);
    if (c1->proofs == NULL) {
        cz_msgf(err, errlen, "out of memory for %zu vanilla proofs", n);
        return CZ_ERR_NOMEM;
    }
    uint64_t ch[64];
    for (unsigned k = 0; k < c1->partitions; k++) {
        int rc = cz_fc_challenges(ch, t, &c1->replica_id, c1->seed, &c1->comm_r, k);
        for (unsigned i = 0; i < c1->challenges && rc == CZ_OK; i++) {
            rc = prove_one(c1, s, ch[i], &c1->proofs[(size_t)k * c1->challenges + i]);
            if (rc != CZ_OK)
                cz_msgf(err, errlen, "partition %u, challenge %u (node %llu): %s", k, i,
                        (unsigned long long)ch[i], cz_strerror(rc));
        }
        if (rc != CZ_OK)
            return rc;
    }
    return CZ_OK;
}
