/* Vanilla verification of a C1 (see cuzk/filecoin/porep.h): what
 * storage-proofs-porep's StackedDrg::verify_all_partitions and Proof::
 * verify check (stacked/vanilla/proof_scheme.rs, params.rs,
 * column_proof.rs, labeling_proof.rs, encoding_proof.rs), and two checks
 * more that the C2 circuit needs: the labeling and encoding proofs'
 * parents are the parent columns' rows (the circuit computes the labels
 * from the columns, so a C1 whose two disagree would give an unsatisfiable
 * circuit after the GPU time is spent).
 *
 * Per partition k: comm_r = Poseidon-2(comm_c, comm_r_last) with comm_c
 * and comm_r_last the roots every proof shares; the challenges re-derived.
 * Per challenge c:
 *   TreeD: the path proves c, its root is comm_d;
 *   c_x and the 14 parent columns (the graph's parents of c, in order):
 *     index, path index, root comm_c, leaf = column hash of the rows,
 *     path hashes to the root;
 *   TreeR: path proves c, hashes to comm_r_last;
 *   labeling proof of layer l: node c, layer_index l, parents = the rows
 *     (DRG parents' row l, expander parents' row l - 1), label(parents) =
 *     c_x row l;
 *   encoding: node c, layer L, the parents the last labeling proof's (the
 *     circuit computes the key from the columns), encode(label(parents),
 *     TreeD leaf) = TreeR leaf. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/porep/internal.h"

typedef struct {
    const cz_fc_c1 *c1;
    unsigned k, i;
    uint64_t c;
    char *err;
    size_t errlen;
} ctx;

static int bad(const ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const ctx *x, const char *fmt, ...)
{
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    cz_msgf(x->err, x->errlen, "partition %u, challenge %u (node %llu): %s", x->k, x->i,
            (unsigned long long)x->c, detail);
    return CZ_ERR_BAD_PROOF;
}

static bool d_eq(const cz_fc_d *a, const cz_fc_d *b) { return memcmp(a->b, b->b, 32) == 0; }

/* An inclusion proof of leaf index `want` whose root is `root`. */
static int check_path(const ctx *x, const char *what, const cz_fc_merkle_proof *p,
                      cz_fc_tree_kind k, uint64_t want, const cz_fc_d *root)
{
    const cz_fc_shape *sh = x->c1->proof_type->shape;
    if (p->form != cz_fc_tree_form(k, sh) || p->n_levels != cz_fc_tree_levels(k, sh))
        return bad(x, "%s: the path has %u levels, the tree %u", what, p->n_levels,
                   cz_fc_tree_levels(k, sh));
    for (unsigned l = 0; l < p->n_levels; l++)
        if (p->levels[l].arity != cz_fc_tree_arity(k, sh, l) ||
            p->levels[l].index >= p->levels[l].arity)
            return bad(x, "%s: level %u: arity %u, index %u (the tree's arity %u)", what, l,
                       p->levels[l].arity, p->levels[l].index, cz_fc_tree_arity(k, sh, l));
    uint64_t idx = cz_fc_proof_index(p);
    if (idx != want)
        return bad(x, "%s: the path proves node %llu, not %llu", what, (unsigned long long)idx,
                   (unsigned long long)want);
    if (!d_eq(&p->root, root))
        return bad(x, "%s: the root is not the commitment", what);
    cz_fc_d r;
    if (cz_fc_proof_root(p, k, &r) != CZ_OK)
        return bad(x, "%s: a path value is not a field element", what);
    if (!d_eq(&r, &p->root))
        return bad(x, "%s: the path does not hash to its root", what);
    return CZ_OK;
}

static int check_column(const ctx *x, const char *what, const cz_fc_column_proof *cp,
                        uint64_t node, const cz_fc_d *comm_c)
{
    unsigned L = x->c1->proof_type->shape->layers;
    if (cp->index != node)
        return bad(x, "%s: column index %u, the graph's node is %llu", what, cp->index,
                   (unsigned long long)node);
    cz_fc_d h;
    if (cz_fc_column_hash(&h, cp->rows, L) != CZ_OK)
        return bad(x, "%s: a row is not a field element", what);
    if (!d_eq(&h, &cp->inclusion.leaf))
        return bad(x, "%s: the column hash is not the TreeC leaf", what);
    return check_path(x, what, &cp->inclusion, CZ_FC_TREE_RC, node, comm_c);
}

static int check_one(const ctx *x, const cz_fc_vanilla_proof *v, const cz_fc_graph *g,
                     const cz_fc_d *comm_c, const cz_fc_d *comm_r_last)
{
    const cz_fc_c1 *c1 = x->c1;
    unsigned L = c1->proof_type->shape->layers;
    int rc = check_path(x, "comm_d_proofs", &v->comm_d_proof, CZ_FC_TREE_D, x->c, &c1->comm_d);
    if (rc == CZ_OK)
        rc = check_column(x, "c_x", &v->c_x, x->c, comm_c);
    uint32_t par[CZ_FC_PARENTS];
    cz_fc_graph_parents(g, x->c, par);
    char what[32];
    for (unsigned j = 0; j < CZ_FC_DRG_DEGREE && rc == CZ_OK; j++) {
        snprintf(what, sizeof what, "drg_parents[%u]", j);
        rc = check_column(x, what, &v->drg[j], par[j], comm_c);
    }
    for (unsigned j = 0; j < CZ_FC_EXP_DEGREE && rc == CZ_OK; j++) {
        snprintf(what, sizeof what, "exp_parents[%u]", j);
        rc = check_column(x, what, &v->exp[j], par[CZ_FC_DRG_DEGREE + j], comm_c);
    }
    if (rc == CZ_OK)
        rc = check_path(x, "comm_r_last_proof", &v->comm_r_last_proof, CZ_FC_TREE_RC, x->c,
                        comm_r_last);
    for (unsigned l = 1; l <= L && rc == CZ_OK; l++) {
        const cz_fc_labeling_proof *lp = &v->labeling[l - 1];
        snprintf(what, sizeof what, "labeling_proofs[%u]", l - 1);
        if (lp->node != x->c || lp->layer_index != l)
            return bad(x, "%s: node %llu, layer %u", what, (unsigned long long)lp->node,
                       lp->layer_index);
        cz_fc_d drg[CZ_FC_DRG_DEGREE], exp[CZ_FC_EXP_DEGREE], want[CZ_FC_LABEL_PARENTS], lab;
        for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++)
            drg[j] = v->drg[j].rows[l - 1];
        for (unsigned j = 0; l > 1 && j < CZ_FC_EXP_DEGREE; j++)
            exp[j] = v->exp[j].rows[l - 2];
        cz_fc_label_parents(want, l, drg, exp);
        for (unsigned j = 0; j < CZ_FC_LABEL_PARENTS; j++)
            if (!d_eq(&lp->parents[j], &want[j]))
                return bad(x, "%s: parent %u is not the parent column's row %u", what, j,
                           j % (l == 1 ? CZ_FC_DRG_DEGREE : CZ_FC_PARENTS) < CZ_FC_DRG_DEGREE ? l
                                                                                : l - 1);
        cz_fc_label(&lab, &c1->replica_id, l, x->c, lp->parents);
        if (!d_eq(&lab, &v->c_x.rows[l - 1]))
            return bad(x, "%s: the label is not c_x's row %u", what, l);
    }
    if (rc != CZ_OK)
        return rc;
    const cz_fc_labeling_proof *ep = &v->encoding;
    if (ep->node != x->c || ep->layer_index != L)
        return bad(x, "encoding_proof: node %llu, layer %u", (unsigned long long)ep->node,
                   ep->layer_index);
    if (memcmp(ep->parents, v->labeling[L - 1].parents, sizeof ep->parents) != 0)
        return bad(x, "encoding_proof: its parents are not the last labeling proof's");
    cz_fc_d key, enc;
    cz_fc_label(&key, &c1->replica_id, L, x->c, ep->parents);
    if (cz_fc_encode(&enc, &key, &v->comm_d_proof.leaf) != CZ_OK)
        return bad(x, "encoding_proof: the data leaf is not a field element");
    if (!d_eq(&enc, &v->comm_r_last_proof.leaf))
        return bad(x, "encoding_proof: key + data is not the TreeR leaf");
    return CZ_OK;
}

typedef struct {
    const cz_fc_c1 *c1;
    const cz_fc_graph *g;
    const uint64_t *ch;
    int *rcs;
    const cz_fc_d *comm_c, *comm_r_last;
} job;

static int verify_at(const job *j, size_t i, char *err, size_t errlen)
{
    const cz_fc_c1 *c1 = j->c1;
    const cz_fc_vanilla_proof *v = &c1->proofs[i];
    ctx x = {c1, (unsigned)(i / c1->challenges), (unsigned)(i % c1->challenges), j->ch[i], err,
             errlen};
    if (!d_eq(&v->c_x.inclusion.root, j->comm_c) ||
        !d_eq(&v->comm_r_last_proof.root, j->comm_r_last))
        return bad(&x, "comm_c or comm_r_last differs from the first proof's");
    if (v->labeling[0].node != x.c)
        return bad(&x, "labeling_proofs[0]: the proof is for node %llu",
                   (unsigned long long)v->labeling[0].node);
    return check_one(&x, v, j->g, j->comm_c, j->comm_r_last);
}

static void verify_range(void *arg, size_t begin, size_t end)
{
    const job *j = arg;
    for (size_t i = begin; i < end; i++)
        j->rcs[i] = verify_at(j, i, NULL, 0);
}

int cz_fc_vanilla_verify(const cz_fc_c1 *c1, const cz_fc_verify_opts *opts, char *err,
                         size_t errlen)
{
    const cz_fc_proof_type *t = c1->proof_type;
    if (t == NULL || c1->proofs == NULL || c1->partitions != t->partitions ||
        c1->challenges != t->shape->challenges) {
        cz_msgf(err, errlen, "the C1 does not have the registered proof's shape");
        return CZ_ERR_BAD_PROOF;
    }
    uint8_t porep_id[32];
    if (opts && opts->porep_id)
        memcpy(porep_id, opts->porep_id, 32);
    else
        cz_fc_porep_id(porep_id, t);
    cz_fc_api api = opts && opts->api >= 0 ? (cz_fc_api)opts->api : t->api;
    if (opts && opts->prover_id) {
        cz_fc_d rid;
        cz_fc_replica_id(&rid, opts->prover_id, opts->sector_id, c1->ticket, &c1->comm_d,
                         porep_id);
        if (!d_eq(&rid, &c1->replica_id)) {
            cz_msgf(err, errlen, "replica_id is not the one of prover, sector %llu, ticket and "
                                 "comm_d", (unsigned long long)opts->sector_id);
            return CZ_ERR_BAD_PROOF;
        }
    }
    cz_fc_graph g;
    cz_fc_graph_init(&g, t->shape, porep_id, api);
    /* every proof shares comm_c and comm_r_last, and they give comm_r */
    const cz_fc_d *comm_c = &c1->proofs[0].c_x.inclusion.root,
                  *comm_r_last = &c1->proofs[0].comm_r_last_proof.root;
    cz_fc_d cr[2] = {*comm_c, *comm_r_last}, comm_r;
    if (cz_fc_poseidon(&comm_r, cr, 2) != CZ_OK || !d_eq(&comm_r, &c1->comm_r)) {
        cz_msgf(err, errlen, "comm_r is not Poseidon-2(comm_c, comm_r_last)");
        return CZ_ERR_BAD_PROOF;
    }
    size_t n = (size_t)c1->partitions * c1->challenges;
    uint64_t *ch = malloc(n * sizeof *ch);
    int *rcs = malloc(n * sizeof *rcs);
    if (ch == NULL || rcs == NULL) {
        free(ch), free(rcs);
        cz_msgf(err, errlen, "out of memory for %zu challenges", n);
        return CZ_ERR_NOMEM;
    }
    for (unsigned k = 0; k < c1->partitions; k++) {
        if (cz_fc_challenges(ch + (size_t)k * c1->challenges, t, &c1->replica_id, c1->seed,
                             &c1->comm_r, k) != CZ_OK) {
            free(ch), free(rcs);
            cz_msgf(err, errlen, "partition %u: cannot derive its challenges", k);
            return CZ_ERR_BAD_PROOF;
        }
    }
    /* every challenge on the pool without messages, then the first failed
     * one again for its message (the same whatever the threads) */
    job j = {c1, &g, ch, rcs, comm_c, comm_r_last};
    cz_pool_parallel_for(opts ? opts->pool : NULL, n, 1, verify_range, &j);
    int rc = CZ_OK;
    for (size_t i = 0; i < n && rc == CZ_OK; i++)
        if (rcs[i] != CZ_OK)
            rc = verify_at(&j, i, err, errlen);
    free(ch);
    free(rcs);
    return rc;
}
