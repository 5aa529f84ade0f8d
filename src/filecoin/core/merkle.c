/* Merkle trees and inclusion proofs of a sector (see cuzk/filecoin/core.h).
 *
 * Every tree here is a stack of levels with an arity each: TreeD binary
 * over all nodes; TreeR and TreeC 8-ary over each base tree, then the
 * sub level (8 base roots) and the top level (2 sub roots).  A compound
 * tree is therefore just more levels: the node at level l + 1 with index g
 * hashes the nodes g * arity_l .. g * arity_l + arity_l - 1 of level l, and
 * a proof's level l holds the siblings of the path node in order with its
 * position (storage-proofs-core merkle/proof.rs InclusionPath::root:
 * insert the current hash at `index` among `hashes`).
 *
 * Node hash: TreeD sha256_trunc(left || right); TreeR/TreeC
 * Poseidon-arity of the children (8, 8 for the sub level, 2 for the top).
 *
 * A sparse tree keeps, per level, only the nodes with a given leaf below
 * them, sorted by index; every other node of level l is the default
 * def[l] (def[0] = default_leaf, def[l + 1] the hash of arity_l copies of
 * def[l]).  Building costs O(n x levels x arity) hashes. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"

#define MAX_LEVELS 40

struct cz_fc_tree {
    cz_fc_tree_kind kind;
    const cz_fc_shape *shape;
    unsigned n_levels; /* hash levels; node levels 0 .. n_levels */
    uint8_t arity[MAX_LEVELS];
    uint64_t width[MAX_LEVELS + 1]; /* nodes per level */
    bool sparse;
    cz_fc_d *node[MAX_LEVELS + 1];  /* dense: all; sparse: the known ones */
    uint64_t *idx[MAX_LEVELS + 1];  /* sparse: their indexes, sorted */
    size_t count[MAX_LEVELS + 1];   /* sparse: how many */
    cz_fc_d def[MAX_LEVELS + 1];    /* sparse: defaults */
    cz_fc_block block; /* node, idx and the sparse tree's entries */
};

static int hash_children(cz_fc_d *out, cz_fc_tree_kind k, const cz_fc_d *c, unsigned arity)
{
    if (k == CZ_FC_TREE_D) {
        cz_fc_sha256_node(out, &c[0], &c[1]);
        return CZ_OK;
    }
    return cz_fc_poseidon(out, c, arity);
}

/* ------------------------------------------------------------- proofs --- */

uint64_t cz_fc_proof_index(const cz_fc_merkle_proof *p)
{
    uint64_t idx = 0, mul = 1;
    for (uint32_t l = 0; l < p->n_levels; l++) {
        idx += p->levels[l].index * mul;
        mul *= p->levels[l].arity;
    }
    return idx;
}

int cz_fc_proof_root(const cz_fc_merkle_proof *p, cz_fc_tree_kind k, cz_fc_d *root)
{
    cz_fc_d cur = p->leaf, c[8];
    for (uint32_t l = 0; l < p->n_levels; l++) {
        const cz_fc_path_el *el = &p->levels[l];
        if (el->arity < 2 || el->arity > 8 || el->index >= el->arity ||
            (k == CZ_FC_TREE_D && el->arity != 2))
            return CZ_ERR_INVALID_ARG;
        for (unsigned i = 0, h = 0; i < el->arity; i++)
            c[i] = i == el->index ? cur : el->hashes[h++];
        int rc = hash_children(&cur, k, c, el->arity);
        if (rc != CZ_OK)
            return rc;
    }
    *root = cur;
    return CZ_OK;
}

/* -------------------------------------------------------------- trees --- */

static int tree_new(cz_fc_tree **out, cz_fc_tree_kind k, const cz_fc_shape *s)
{
    *out = NULL;
    cz_fc_tree *t = calloc(1, sizeof *t);
    if (t == NULL)
        return CZ_ERR_NOMEM;
    t->kind = k;
    t->shape = s;
    t->n_levels = cz_fc_tree_levels(k, s);
    t->width[0] = (uint64_t)1 << s->log_nodes;
    for (unsigned l = 0; l < t->n_levels; l++) {
        t->arity[l] = (uint8_t)cz_fc_tree_arity(k, s, l);
        t->width[l + 1] = t->width[l] / t->arity[l];
    }
    *out = t;
    return CZ_OK;
}

void cz_fc_tree_free(cz_fc_tree *t)
{
    if (t == NULL)
        return;
    cz_fc_block_free(&t->block);
    free(t);
}

int cz_fc_tree_build(cz_fc_tree **out, cz_fc_tree_kind k, const cz_fc_shape *s,
                     const cz_fc_d *leaves, const cz_allocator *alloc)
{
    cz_fc_tree *t;
    int rc = tree_new(&t, k, s);
    if (rc != CZ_OK)
        return rc;
    size_t total = 0;
    for (unsigned l = 0; l <= t->n_levels; l++)
        total += (size_t)t->width[l];
    if (cz_fc_block_alloc(&t->block, alloc, CZ_BUF_OTHER, total * sizeof(cz_fc_d)) != CZ_OK) {
        free(t);
        return CZ_ERR_NOMEM;
    }
    cz_fc_d *at = t->block.mem;
    for (unsigned l = 0; l <= t->n_levels; l++) {
        t->node[l] = at;
        at += t->width[l];
    }
    memcpy(t->node[0], leaves, (size_t)t->width[0] * sizeof(cz_fc_d));
    for (unsigned l = 0; l < t->n_levels && rc == CZ_OK; l++)
        for (uint64_t g = 0; g < t->width[l + 1] && rc == CZ_OK; g++)
            rc = hash_children(&t->node[l + 1][g], k, &t->node[l][g * t->arity[l]],
                               t->arity[l]);
    if (rc != CZ_OK) {
        cz_fc_tree_free(t);
        return rc;
    }
    *out = t;
    return CZ_OK;
}

typedef struct {
    uint64_t idx;
    cz_fc_d v;
} entry;

static int by_index(const void *a, const void *b)
{
    uint64_t x = ((const entry *)a)->idx, y = ((const entry *)b)->idx;
    return x < y ? -1 : x > y;
}

int cz_fc_tree_build_sparse(cz_fc_tree **out, cz_fc_tree_kind k, const cz_fc_shape *s,
                            const uint64_t *idx, const cz_fc_d *leaves, size_t n,
                            const cz_fc_d *default_leaf, const cz_allocator *alloc)
{
    cz_fc_tree *t;
    int rc = tree_new(&t, k, s);
    if (rc != CZ_OK)
        return rc;
    t->sparse = true;
    /* at most n known nodes per level */
    size_t per = n ? n : 1;
    size_t bytes = (size_t)(t->n_levels + 1) * per * (sizeof(cz_fc_d) + sizeof(uint64_t)) +
                   per * sizeof(entry);
    if (cz_fc_block_alloc(&t->block, alloc, CZ_BUF_OTHER, bytes) != CZ_OK) {
        free(t);
        return CZ_ERR_NOMEM;
    }
    uint8_t *at = t->block.mem;
    for (unsigned l = 0; l <= t->n_levels; l++) {
        t->node[l] = (cz_fc_d *)at;
        at += per * sizeof(cz_fc_d);
        t->idx[l] = (uint64_t *)at;
        at += per * sizeof(uint64_t);
    }
    entry *e = (entry *)at;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= t->width[0]) {
            cz_fc_tree_free(t);
            return CZ_ERR_INVALID_ARG;
        }
        e[i].idx = idx[i];
        e[i].v = leaves[i];
    }
    qsort(e, n, sizeof *e, by_index);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && e[i].idx == e[i - 1].idx) {
            cz_fc_tree_free(t);
            return CZ_ERR_INVALID_ARG; /* the indexes must be distinct */
        }
        t->idx[0][i] = e[i].idx;
        t->node[0][i] = e[i].v;
    }
    t->count[0] = n;
    t->def[0] = *default_leaf;
    for (unsigned l = 0; l < t->n_levels && rc == CZ_OK; l++) {
        unsigned a = t->arity[l];
        cz_fc_d c[8];
        for (unsigned i = 0; i < a; i++)
            c[i] = t->def[l];
        rc = hash_children(&t->def[l + 1], k, c, a);
        size_t m = 0;
        for (size_t i = 0; i < t->count[l] && rc == CZ_OK;) {
            uint64_t g = t->idx[l][i] / a;
            for (unsigned j = 0; j < a; j++)
                c[j] = t->def[l];
            for (; i < t->count[l] && t->idx[l][i] / a == g; i++)
                c[t->idx[l][i] % a] = t->node[l][i];
            t->idx[l + 1][m] = g;
            rc = hash_children(&t->node[l + 1][m], k, c, a);
            m++;
        }
        t->count[l + 1] = m;
    }
    if (rc != CZ_OK) {
        cz_fc_tree_free(t);
        return rc;
    }
    *out = t;
    return CZ_OK;
}

/* Node (l, i): its value, or the level's default in a sparse tree. */
static const cz_fc_d *node_at(const cz_fc_tree *t, unsigned l, uint64_t i)
{
    if (!t->sparse)
        return &t->node[l][i];
    size_t lo = 0, hi = t->count[l];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->idx[l][mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->count[l] && t->idx[l][lo] == i ? &t->node[l][lo] : &t->def[l];
}

void cz_fc_tree_root(const cz_fc_tree *t, cz_fc_d *root) { *root = *node_at(t, t->n_levels, 0); }

int cz_fc_tree_node(const cz_fc_tree *t, unsigned level, uint64_t index, cz_fc_d *out)
{
    if (t == NULL || out == NULL || level > t->n_levels || index >= t->width[level])
        return CZ_ERR_INVALID_ARG;
    *out = *node_at(t, level, index);
    return CZ_OK;
}

size_t cz_fc_tree_proof_hashes(const cz_fc_tree *t)
{
    size_t n = 0;
    for (unsigned l = 0; l < t->n_levels; l++)
        n += t->arity[l] - 1u;
    return n;
}

int cz_fc_tree_proof(const cz_fc_tree *t, uint64_t index, cz_fc_merkle_proof *p,
                     cz_fc_path_el *levels, cz_fc_d *hashes)
{
    if (index >= t->width[0] || (t->sparse && node_at(t, 0, index) == &t->def[0]))
        return CZ_ERR_INVALID_ARG;
    p->form = cz_fc_tree_form(t->kind, t->shape);
    p->leaf = *node_at(t, 0, index);
    cz_fc_tree_root(t, &p->root);
    p->n_levels = t->n_levels;
    p->levels = levels;
    uint64_t i = index;
    for (unsigned l = 0; l < t->n_levels; l++) {
        unsigned a = t->arity[l];
        uint64_t g = i / a;
        levels[l].arity = (uint8_t)a;
        levels[l].index = (uint8_t)(i % a);
        levels[l].hashes = hashes;
        for (unsigned j = 0; j < a; j++)
            if (g * a + j != i)
                *hashes++ = *node_at(t, l, g * a + j);
        i = g;
    }
    return CZ_OK;
}
