/* Sealing a whole sector in memory (see cuzk/filecoin/porep.h), as rust-fil-
 * proofs' seal_pre_commit phases 1 and 2 and seal_commit_phase1 do it:
 *   TreeD over the data -> comm_d -> replica_id;
 *   labels layer by layer (create_label / create_label_exp: DRG parents
 *   from this layer, expander parents from the previous one);
 *   TreeC over the column hashes of every node's labels -> comm_c;
 *   TreeR over the encoded nodes data + label_L -> comm_r_last;
 *   comm_r = Poseidon-2(comm_c, comm_r_last);
 *   then the vanilla proofs of every partition's challenges (prove.c).
 * The parents of every node are computed once (the parent cache's rows,
 * parent_cache.c). */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/porep/internal.h"

typedef struct {
    uint64_t nodes;
    const cz_fc_d *data;   /* NULL: zero */
    cz_fc_d *labels;       /* layers x nodes */
    cz_fc_d zero;
} dense;

static const cz_fc_d *dense_label(void *ctx, unsigned layer, uint64_t node)
{
    dense *d = ctx;
    return &d->labels[(size_t)(layer - 1) * d->nodes + node];
}

static const cz_fc_d *dense_data(void *ctx, uint64_t node)
{
    dense *d = ctx;
    return d->data ? &d->data[node] : &d->zero;
}

int cz_fc_parents_all(uint32_t *out, const cz_fc_graph *g, const cz_allocator *alloc)
{
    cz_fc_parent_gen *pg;
    int rc = cz_fc_parent_gen_new(&pg, g, NULL, alloc);
    if (rc != CZ_OK)
        return rc;
    uint8_t row[64 * CZ_FC_PARENT_ROW];
    for (uint64_t v = 0; v < g->nodes; v += 64) {
        uint64_t m = g->nodes - v < 64 ? g->nodes - v : 64;
        cz_fc_parent_gen_rows(pg, v, m, row);
        for (size_t i = 0; i < m * CZ_FC_PARENTS; i++)
            out[v * CZ_FC_PARENTS + i] = (uint32_t)row[4 * i] | (uint32_t)row[4 * i + 1] << 8 |
                                         (uint32_t)row[4 * i + 2] << 16 |
                                         (uint32_t)row[4 * i + 3] << 24;
    }
    cz_fc_parent_gen_free(pg);
    return CZ_OK;
}

void cz_fc_labels_all(cz_fc_d *labels, const uint32_t *parents, uint64_t n, unsigned layers,
                      const cz_fc_d *replica_id)
{
    for (unsigned l = 1; l <= layers; l++) {
        cz_fc_d *cur = &labels[(size_t)(l - 1) * n], *prev = cur - (l > 1 ? n : 0);
        for (uint64_t v = 0; v < n; v++) {
            const uint32_t *p = &parents[v * CZ_FC_PARENTS];
            cz_fc_d drg[CZ_FC_DRG_DEGREE], exp[CZ_FC_EXP_DEGREE], all[CZ_FC_LABEL_PARENTS];
            for (unsigned i = 0; i < CZ_FC_DRG_DEGREE; i++)
                drg[i] = cur[p[i]];
            for (unsigned i = 0; l > 1 && i < CZ_FC_EXP_DEGREE; i++)
                exp[i] = prev[p[CZ_FC_DRG_DEGREE + i]];
            cz_fc_label_parents(all, l, drg, exp);
            cz_fc_label(&cur[v], replica_id, l, v, all);
        }
    }
}

int cz_fc_seal(cz_fc_c1 *c1, const cz_fc_sector *sec, const cz_allocator *alloc, char *err,
               size_t errlen)
{
    return cz_fc_seal_ex(c1, sec, alloc, NULL, NULL, err, errlen);
}

int cz_fc_seal_ex(cz_fc_c1 *c1, const cz_fc_sector *sec, const cz_allocator *alloc,
                  cz_fc_d *replica, cz_fc_d *comm_c, char *err, size_t errlen)
{
    memset(c1, 0, sizeof *c1);
    c1->alloc = alloc;
    const cz_fc_proof_type *t = sec->proof_type;
    if (t == NULL || t->shape->layers != 2) {
        cz_msgf(err, errlen, "seal: sealing in memory is for the 2-layer sizes (2KiB, 8MiB, "
                             "512MiB)");
        return CZ_ERR_INVALID_ARG;
    }
    const cz_fc_shape *sh = t->shape;
    uint64_t n = (uint64_t)1 << sh->log_nodes;
    unsigned L = sh->layers;
    dense d = {.nodes = n, .data = (const cz_fc_d *)sec->data};
    for (uint64_t v = 0; d.data && v < n; v++) {
        if (d.data[v].b[31] & 0xc0) {
            cz_msgf(err, errlen, "seal: data node %llu is not Fr32-padded (byte 31 is 0x%02x)",
                    (unsigned long long)v, d.data[v].b[31]);
            return CZ_ERR_INVALID_ARG;
        }
    }
    size_t nb = (size_t)n * sizeof(cz_fc_d), pb = (size_t)n * CZ_FC_PARENTS * sizeof(uint32_t);
    d.labels = cz_alloc(alloc, CZ_BUF_OTHER, L * nb);
    cz_fc_d *leaves = cz_alloc(alloc, CZ_BUF_OTHER, nb);
    uint32_t *parents = cz_alloc(alloc, CZ_BUF_OTHER, pb);
    cz_fc_tree *tree_d = NULL, *tree_c = NULL, *tree_r = NULL;
    int rc = d.labels && leaves && parents ? CZ_OK : CZ_ERR_NOMEM;
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "seal: out of memory for a %s sector", sh->name);

    /* TreeD, replica_id, the graph */
    for (uint64_t v = 0; rc == CZ_OK && v < n; v++)
        leaves[v] = *dense_data(&d, v);
    if (rc == CZ_OK)
        rc = cz_fc_tree_build(&tree_d, CZ_FC_TREE_D, sh, leaves, alloc);
    uint8_t porep_id[32];
    cz_fc_graph g;
    if (rc == CZ_OK) {
        cz_fc_tree_root(tree_d, &c1->comm_d);
        cz_fc_porep_id(porep_id, t);
        cz_fc_replica_id(&c1->replica_id, sec->prover_id, sec->sector_id, sec->ticket,
                         &c1->comm_d, porep_id);
        cz_fc_graph_init(&g, sh, porep_id, t->api);
        rc = cz_fc_parents_all(parents, &g, alloc);
        if (rc != CZ_OK)
            cz_msgf(err, errlen, "seal: out of memory for the parent cache's generator");
    }

    /* labels */
    if (rc == CZ_OK)
        cz_fc_labels_all(d.labels, parents, n, L, &c1->replica_id);

    /* TreeC over the columns, TreeR over the encoding, comm_r */
    for (uint64_t v = 0; rc == CZ_OK && v < n; v++) {
        cz_fc_d rows[11];
        for (unsigned l = 1; l <= L; l++)
            rows[l - 1] = *dense_label(&d, l, v);
        rc = cz_fc_column_hash(&leaves[v], rows, L);
    }
    if (rc == CZ_OK)
        rc = cz_fc_tree_build(&tree_c, CZ_FC_TREE_RC, sh, leaves, alloc);
    for (uint64_t v = 0; rc == CZ_OK && v < n; v++)
        rc = cz_fc_encode(&leaves[v], dense_label(&d, L, v), dense_data(&d, v));
    if (rc == CZ_OK)
        rc = cz_fc_tree_build(&tree_r, CZ_FC_TREE_RC, sh, leaves, alloc);
    if (rc == CZ_OK) {
        cz_fc_d cr[2];
        cz_fc_tree_root(tree_c, &cr[0]);
        cz_fc_tree_root(tree_r, &cr[1]);
        rc = cz_fc_poseidon(&c1->comm_r, cr, 2);
        if (comm_c)
            *comm_c = cr[0];
        if (replica)
            memcpy(replica, leaves, nb);
    }
    if (rc != CZ_OK && err && errlen && !err[0])
        cz_msgf(err, errlen, "seal: %s", cz_strerror(rc));

    /* the C1 */
    if (rc == CZ_OK) {
        memcpy(c1->seed, sec->seed, 32);
        memcpy(c1->ticket, sec->ticket, 32);
        cz_fc_sealed s = {t, &g, tree_d, tree_c, tree_r, dense_label, dense_data, &d};
        rc = cz_fc_prove_partitions(c1, &s, err, errlen);
    }
    cz_fc_tree_free(tree_d);
    cz_fc_tree_free(tree_c);
    cz_fc_tree_free(tree_r);
    if (d.labels)
        cz_free(alloc, d.labels, L * nb);
    if (leaves)
        cz_free(alloc, leaves, nb);
    if (parents)
        cz_free(alloc, parents, pb);
    if (rc != CZ_OK)
        cz_fc_c1_free(c1);
    return rc;
}
