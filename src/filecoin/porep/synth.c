/* A synthetic C1 (see cuzk/filecoin/porep.h): every check the circuit and the
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
#include "filecoin/porep/internal.h"

typedef struct {
    size_t n;
    uint64_t *node; /* sorted */
    bool *challenged;
    cz_fc_d *rows;  /* n x layers */
    unsigned layers;
    cz_fc_d zero;
} involved;

static void involved_free(involved *s)
{
    free(s->node);
    free(s->challenged);
    free(s->rows);
}

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

/* The nch challenges and their parents, sorted and distinct, the
 * challenged ones marked; rows zeroed. */
static int involve(involved *s, const cz_fc_graph *g, const uint64_t *ch, size_t nch)
{
    size_t m = 0;
    s->node = malloc((nch * (1 + CZ_FC_PARENTS) + 1) * sizeof *s->node);
    if (s->node == NULL)
        return CZ_ERR_NOMEM;
    for (size_t i = 0; i < nch; i++) {
        uint32_t p[CZ_FC_PARENTS];
        cz_fc_graph_parents(g, ch[i], p);
        s->node[m++] = ch[i];
        for (unsigned j = 0; j < CZ_FC_PARENTS; j++)
            s->node[m++] = p[j];
    }
    qsort(s->node, m, sizeof *s->node, cmp_u64);
    s->n = 0;
    for (size_t i = 0; i < m; i++)
        if (s->n == 0 || s->node[i] != s->node[s->n - 1])
            s->node[s->n++] = s->node[i];
    s->challenged = calloc(s->n + 1, sizeof *s->challenged);
    s->rows = calloc((s->n + 1) * s->layers, sizeof *s->rows);
    if (s->challenged == NULL || s->rows == NULL)
        return CZ_ERR_NOMEM;
    for (size_t i = 0; i < nch; i++)
        s->challenged[find(s, ch[i])] = true;
    return CZ_OK;
}

/* The rows: drawn for the parents only, computed for the challenged nodes
 * layer by layer in node order (a DRG parent is an earlier node of the
 * same layer, an expander parent in the previous layer). */
static void label(involved *s, const cz_fc_graph *g, const cz_fc_d *replica_id, uint64_t seed)
{
    unsigned L = s->layers;
    for (size_t i = 0; i < s->n; i++) {
        for (unsigned l = 1; l <= L && !s->challenged[i]; l++) {
            uint8_t m[24];
            for (int b = 0; b < 8; b++) {
                m[b] = (uint8_t)(seed >> (8 * b));
                m[8 + b] = (uint8_t)(s->node[i] >> (8 * b));
                m[16 + b] = (uint8_t)((uint64_t)l >> (8 * b));
            }
            cz_fc_sha256_trunc(&s->rows[i * L + l - 1], m, sizeof m);
        }
    }
    for (unsigned l = 1; l <= L; l++) {
        for (size_t i = 0; i < s->n; i++) {
            if (!s->challenged[i])
                continue;
            uint32_t p[CZ_FC_PARENTS];
            cz_fc_graph_parents(g, s->node[i], p);
            cz_fc_d drg[CZ_FC_DRG_DEGREE], exp[CZ_FC_EXP_DEGREE], par[CZ_FC_LABEL_PARENTS];
            for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++)
                drg[j] = *synth_label(s, l, p[j]);
            for (unsigned j = 0; l > 1 && j < CZ_FC_EXP_DEGREE; j++)
                exp[j] = *synth_label(s, l - 1, p[CZ_FC_DRG_DEGREE + j]);
            cz_fc_label_parents(par, l, drg, exp);
            cz_fc_label(&s->rows[i * L + l - 1], replica_id, l, s->node[i], par);
        }
    }
}

/* TreeC over the involved columns, TreeR over the challenged encodings,
 * TreeD over the challenged (zero) data leaves; comm_r. */
static int trees(cz_fc_tree *t[3], cz_fc_d *comm_r, const involved *s, const cz_fc_shape *sh,
                 const cz_allocator *alloc)
{
    unsigned L = s->layers;
    uint64_t *idx = malloc((s->n + 1) * sizeof *idx);
    cz_fc_d *leaves = malloc((s->n + 1) * sizeof *leaves);
    int rc = idx && leaves ? CZ_OK : CZ_ERR_NOMEM;
    for (size_t i = 0; rc == CZ_OK && i < s->n; i++) {
        idx[i] = s->node[i];
        rc = cz_fc_column_hash(&leaves[i], &s->rows[i * L], L);
    }
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&t[1], CZ_FC_TREE_RC, sh, idx, leaves, s->n, &s->zero, alloc);
    size_t nc = 0;
    for (size_t i = 0; rc == CZ_OK && i < s->n; i++) {
        if (s->challenged[i]) {
            idx[nc] = s->node[i];
            rc = cz_fc_encode(&leaves[nc++], &s->rows[i * L + L - 1], &s->zero);
        }
    }
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&t[2], CZ_FC_TREE_RC, sh, idx, leaves, nc, &s->zero, alloc);
    for (size_t i = 0; rc == CZ_OK && i < nc; i++)
        leaves[i] = s->zero;
    if (rc == CZ_OK)
        rc = cz_fc_tree_build_sparse(&t[0], CZ_FC_TREE_D, sh, idx, leaves, nc, &s->zero, alloc);
    if (rc == CZ_OK) {
        cz_fc_d cr[2];
        cz_fc_tree_root(t[1], &cr[0]);
        cz_fc_tree_root(t[2], &cr[1]);
        rc = cz_fc_poseidon(comm_r, cr, 2);
    }
    free(idx);
    free(leaves);
    return rc;
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
    involved s = {.layers = sh->layers};
    cz_fc_tree *tree[3] = {NULL, NULL, NULL}; /* D, C, R */
    size_t nch = (size_t)t->partitions * sh->challenges;
    uint64_t *ch = malloc((nch + 1) * sizeof *ch);

    /* comm_d of zero data (the default tree), replica_id, the challenges */
    int rc = ch ? cz_fc_tree_build_sparse(&tree[0], CZ_FC_TREE_D, sh, NULL, NULL, 0, &s.zero,
                                          alloc)
                : CZ_ERR_NOMEM;
    uint8_t porep_id[32];
    cz_fc_graph g;
    if (rc == CZ_OK) {
        cz_fc_tree_root(tree[0], &c1->comm_d);
        cz_fc_tree_free(tree[0]);
        tree[0] = NULL;
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
    if (rc == CZ_OK)
        rc = involve(&s, &g, ch, nch);
    if (rc == CZ_OK) {
        label(&s, &g, &c1->replica_id, seed);
        rc = trees(tree, &c1->comm_r, &s, sh, alloc);
    }
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "c1-synth: %s", cz_strerror(rc));
    if (rc == CZ_OK) {
        cz_fc_sealed sd = {t, &g, tree[0], tree[1], tree[2], synth_label, synth_data, &s};
        rc = cz_fc_prove_partitions(c1, &sd, err, errlen);
    }
    for (int i = 0; i < 3; i++)
        cz_fc_tree_free(tree[i]);
    free(ch);
    involved_free(&s);
    if (rc != CZ_OK)
        cz_fc_c1_free(c1);
    return rc;
}
