/* A synthetic C1 (see cuzk/filecoin.h): every check the circuit and the
 * vanilla verifier make holds, but only the nodes they look at exist.
 *
 *   data: all zero (a committed-capacity sector), so TreeD is the default
 *     tree and comm_d is known before any challenge is;
 *   replica_id, then the challenges of every partition (interactive: from
 *     replica_id and the seed alone);
 *   the involved nodes: the challenges and their 14 parents;
 *   labels: a challenged node's, layer by layer and in node order, from
 *     its parents' (DRG parents precede it in the same layer, expander
 *     parents are in the previous one); every other involved node's rows
 *     are drawn from the seed (sha256_trunc(seed || node || layer));
 *   TreeC: a sparse tree over the involved nodes' column hashes, TreeR over
 *     the challenged nodes' encodings (label_L + 0), the rest default;
 *   comm_r = Poseidon-2(comm_c, comm_r_last); then the vanilla proofs. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/filecoin_internal.h"

typedef struct {
    size_t n;
    uint64_t *node;   /* sorted */
    bool *challenged;
    cz_fc_d *rows;    /* n x layers */
    unsigned layers;
    cz_fc_d zero;
} involved;

static size_t find(const involved *s, uint64_t v)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->node[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const cz_fc_d *synth_label(void *ctx, unsigned layer, uint64_t node)
{
    involved *s = ctx;
    size_t i = find(s, node);
    return i < s->n && s->node[i] == node ? &s->rows[i * s->layers + layer - 1] : &s->zero;
}

static const cz_fc_d *synth_data(void *ctx, uint64_t node)
{
    (void)node;
    return &((involved *)ctx)->zero;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int cz_fc_c1_synth(cz_fc_c1 *c1, const cz_fc_sector *sec, uint64_t seed,
                   const cz_allocator *alloc, char *err, size_t errlen)
{
    memset(c1, 0, sizeof *c1);
    c1->alloc = alloc;
    const cz_fc_proof_type *t = sec->proof_type;
    if (t == NULL || t->feature != CZ_FC_INTERACTIVE) {
        cz_msgf(err, errlen, "c1-synth: %s: only interactive registered proofs (V1, V1_1): "
                             "non-interactive and synthetic challenges depend on comm_r",
                t ? t->name : "no registered proof");
        return CZ_ERR_UNSUPPORTED;
    }
    if (sec->data != NULL) {
        cz_msgf(err, errlen, "c1-synth: a synthetic sector holds zero data");
        return CZ_ERR_INVALID_ARG;
    }
    const cz_fc_shape *sh = t->shape;
    unsigned L = sh->layers;
    involved s = {.layers = L};
    cz_fc_tree *tree_d = NULL, *tree_c = NULL, *tree_r = NULL;
    uint64_t *idx = NULL;
    cz_fc_d *leaves = NULL;

    /* comm_d of zero data, replica_id, the challenges */
    int rc = cz_fc_tree_build_sparse(&tree_d, CZ_FC_TREE_D, sh, NULL, NULL, 0, &s.zero, alloc);
    uint8_t porep_id[32];
    cz_fc_graph g;
    size_t nch = (size_t)t->partitions * sh->challenges;
    uint64_t *ch = calloc(nch ? nch : 1, sizeof *ch);
    if (ch == NULL)
        rc = CZ_ERR_NOMEM;
    if (rc == CZ_OK) {
        cz_fc_tree_root(tree_d, &c1->comm_d);
        cz_fc_tree_free(tree_d);
        tree_d = NULL;
        cz_fc_porep_id(porep_id, t);
        cz_fc_replica_id(&c1->replica_id, sec->prover_id, sec->sector_id, sec->ticket,
                         &c1->comm_d, porep_id);
        memcpy(c1->seed, sec->seed, 32);
        memcpy(c1->ticket, sec->ticket, 32);
        cz_fc_graph_init(&g, sh, porep_id, t->api);
        for (unsigned k = 0; k < t->partitions && rc == CZ_OK; k++)
            rc = cz_fc_challenges(ch + (size_t)k * sh->challenges, t, &c1->replica_id, c1->seed,
                                  NULL, k);
    }

    /* the involved nodes, sorted and distinct */
    size_t cap = nch * (1 + CZ_FC_PARENTS);
    uint64_t *all = rc == CZ_OK ? malloc((cap ? cap : 1) * sizeof *all) : NULL;
    if (rc == CZ_OK && all == NULL)
        rc = CZ_ERR_NOMEM;
    if (rc == CZ_OK) {
        size_t m = 0;
        for (size_t i = 0; i < nch; i++) {
            uint32_t p[CZ_FC_PARENTS];
            cz_fc_graph_parents(&g, ch[i], p);
            all[m++] = ch[i];
            for (unsigned j = 0; j < CZ_FC_PARENTS; j++)
                all[m++] = p[j];
        }
        qsort(all, m, sizeof *all, cmp_u64);
        size_t u = 0;
        for (size_t i = 0; i < m; i++)
            if (u == 0 || all[i] != all[u - 1])
                all[u++] = all[i];
        s.n = u;
        s.node = all;
        s.challenged = calloc(u ? u : 1, sizeof *s.challenged);
        s.rows = calloc((u ? u : 1) * L, sizeof *s.rows);
        idx = malloc((u ? u : 1) * sizeof *idx);
        leaves = malloc((u ? u : 1) * sizeof *leaves);
        if (!s.challenged || !s.rows || !idx || !leaves)
            rc = CZ_ERR_NOMEM;
    }
    if (rc == CZ_OK) {
        for (size_t i = 0; i < nch; i++)
            s.challenged[find(&s, ch[i])] = true;
        for (size_t i = 0; i < s.n; i++) {
            for (unsigned l = 1; l <= L && !s.challenged[i]; l++) {
                uint8_t m[24];
                for (int b = 0; b < 8; b++) {
                    m[b] = (uint8_t)(seed >> (8 * b));
                    m[8 + b] = (uint8_t)(s.node[i] >> (8 * b));
                    m[16 + b] = (uint8_t)((uint64_t)l >> (8 * b));
                }
                cz_fc_sha256_trunc(&s.rows[i * L + l - 1], m, sizeof m);
            }
        }
        /* the challenged nodes' labels, layer by layer, in node order */
        for (unsigned l = 1; l <= L; l++) {
            for (size_t i = 0; i < s.n; i++) {
                if (!s.challenged[i])
                    continue;
                uint32_t p[CZ_FC_PARENTS];
                cz_fc_graph_parents(&g, s.node[i], p);
                cz_fc_d drg[CZ_FC_DRG_DEGREE], exp[CZ_FC_EXP_DEGREE], par[CZ_FC_LABEL_PARENTS];
                for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++)
                    drg[j] = *synth_label(&s, l, p[j]);
                for (unsigned j = 0; l > 1 && j < CZ_FC_EXP_DEGREE; j++)
                    exp[j] = *synth_label(&s, l - 1, p[CZ_FC_DRG_DEGREE + j]);
                cz_fc_label_parents(par, l, drg, exp);
                cz_fc_label(&s.rows[i * L + l - 1], &c1->replica_id, l, s.node[i], par);
            }
        }
    }

    /* the trees */
    for (size_t i = 0; rc == CZ_OK && i < s.n; i++) {
        idx[i] = s.node[i];
        rc = cz_fc_column_hash(&leaves[i], &s.rows[i * L], L);
    }
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&tree_c, CZ_FC_TREE_RC, sh, idx, leaves, s.n, &s.zero, alloc);
    size_t nc = 0;
    for (size_t i = 0; rc == CZ_OK && i < s.n; i++) {
        if (!s.challenged[i])
            continue;
        idx[nc] = s.node[i];
        rc = cz_fc_encode(&leaves[nc], &s.rows[i * L + L - 1], &s.zero);
        nc++;
    }
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&tree_r, CZ_FC_TREE_RC, sh, idx, leaves, nc, &s.zero, alloc);
    for (size_t i = 0; rc == CZ_OK && i < nc; i++)
        leaves[i] = s.zero;
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&tree_d, CZ_FC_TREE_D, sh, idx, leaves, nc, &s.zero, alloc);
    if (rc == CZ_OK) {
        cz_fc_d cr[2];
        cz_fc_tree_root(tree_c, &cr[0]);
        cz_fc_tree_root(tree_r, &cr[1]);
        rc = cz_fc_poseidon(&c1->comm_r, cr, 2);
    }
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "c1-synth: %s", cz_strerror(rc));
    if (rc == CZ_OK) {
        cz_fc_sealed sd = {t, &g, tree_d, tree_c, tree_r, synth_label, synth_data, &s};
        rc = cz_fc_prove_partitions(c1, &sd, err, errlen);
    }
    cz_fc_tree_free(tree_d);
    cz_fc_tree_free(tree_c);
    cz_fc_tree_free(tree_r);
    free(ch);
    free(all);
    free(s.challenged);
    free(s.rows);
    free(idx);
    free(leaves);
    if (rc != CZ_OK)
        cz_fc_c1_free(c1);
    return rc;
}
