/* PoSt vanilla sector proofs from a TreeR (cuzk/filecoin/post.h): what
 * filecoin-proofs post_util.rs generate_single_vanilla_proof makes
 * through storage-proofs-post fallback/vanilla.rs vanilla_proof (one
 * SectorProof: the challenges' inclusion proofs in challenge order,
 * comm_c, comm_r_last = TreeR's root; comm_r = Poseidon-2(comm_c,
 * comm_r_last) as the sector's replica holds it), and synthetic blobs
 * over a sparse TreeR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "filecoin/post/vanilla.h"

/* The opening both provers share: err cleared, out (NULL, or any_null: a
 * NULL argument of the caller's) refused, else emptied; then s, api and
 * the randomness checked.  CZ_OK or the error, err set. */
static int check_args(cz_post_vanilla *out, bool any_null, const cz_post_shape *s, cz_fc_api api,
                      const uint8_t *randomness, const char *who, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out == NULL || any_null)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: NULL argument", who);
    memset(out, 0, sizeof *out);
    if (s == NULL || randomness == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: NULL argument", who);
    if (api != CZ_FC_API_1_0 && api != CZ_FC_API_1_1 && api != CZ_FC_API_1_2)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: API version %d", who, (int)api);
    if (!cz_post_vanilla_shape_ok(s))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "%s: the shape has no challenges or an inconsistent tree", who);
    if (cz_post_randomness_check(randomness) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                       "%s: the randomness is not a canonical Fr", who);
    return CZ_OK;
}

/* Does t have the levels, leaves and siblings per proof of s's TreeR?
 * Then cz_fc_tree_proof fits the blob's laid-out levels and hashes (the
 * arities are compared after, with the blob's shape). */
static bool tree_fits(const cz_fc_tree *t, const cz_post_shape *s)
{
    unsigned nl = cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree);
    uint64_t leaves = (uint64_t)1 << s->tree.log_nodes;
    size_t h = 0;
    for (unsigned l = 0; l < nl; l++)
        h += cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, l) - 1;
    cz_fc_d x;
    return cz_fc_tree_proof_hashes(t) == h && cz_fc_tree_node(t, nl, 0, &x) == CZ_OK &&
           cz_fc_tree_node(t, nl + 1, 0, &x) != CZ_OK &&
           cz_fc_tree_node(t, 0, leaves - 1, &x) == CZ_OK &&
           cz_fc_tree_node(t, 0, leaves, &x) != CZ_OK;
}

/* The blob's proofs and commitments from tree_r, challenges ch. */
static int prove_into(cz_post_vanilla *v, const cz_post_shape *s, const uint64_t *ch,
                      const cz_fc_tree *tree_r, const cz_fc_d *comm_c, char *err, size_t errlen)
{
    static const char who[] = "post vanilla prove";
    if (!tree_fits(tree_r, s))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: the tree is not of the shape's TreeR",
                   who);
    /* cz_post_vanilla_alloc lays each proof's levels and siblings out
     * contiguously, as cz_fc_tree_proof writes them */
    for (unsigned i = 0; i < v->proof.n_inclusion; i++) {
        cz_fc_merkle_proof *m = &v->proof.inclusion[i];
        if (cz_fc_tree_proof(tree_r, ch[i], m, m->levels, m->levels[0].hashes) != CZ_OK)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "%s: challenge %u (leaf %llu): the tree does not hold the leaf", who, i,
                       (unsigned long long)ch[i]);
    }
    if (!cz_post_vanilla_shaped(v, s))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: the tree's paths are not the shape's",
                   who);
    v->proof.comm_c = *comm_c;
    cz_fc_tree_root(tree_r, &v->proof.comm_r_last);
    cz_fc_d in[2] = {*comm_c, v->proof.comm_r_last};
    if (cz_fc_poseidon(&v->comm_r, in, 2) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL, "%s: comm_c is not a canonical Fr", who);
    return CZ_OK;
}

int cz_post_vanilla_prove(cz_post_vanilla *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], uint64_t sector_id, uint64_t sector_index,
                          const cz_fc_tree *tree_r, const cz_fc_d *comm_c,
                          const cz_allocator *alloc, char *err, size_t errlen)
{
    static const char who[] = "post vanilla prove";
    int rc =
        check_args(out, tree_r == NULL || comm_c == NULL, s, api, randomness, who, err, errlen);
    if (rc)
        return rc;
    unsigned n = cz_post_blob_challenges(s);
    uint64_t *ch = cz_alloc(alloc, CZ_BUF_OTHER, n * sizeof *ch);
    if (ch == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "%s: out of memory", who);
    if (cz_post_vanilla_alloc(out, s, alloc) != CZ_OK) {
        cz_free(alloc, ch, n * sizeof *ch);
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "%s: out of memory", who);
    }
    cz_post_sector_challenges(ch, s, api, randomness, sector_id, sector_index);
    out->sector_id = sector_id;
    rc = prove_into(out, s, ch, tree_r, comm_c, err, errlen);
    cz_free(alloc, ch, n * sizeof *ch);
    if (rc)
        cz_post_vanilla_free(out);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void draw_fr(cz_fc_d *d, cz_prng *g)
{
    cz_fr x;
    cz_fr_random(&x, g); /* uniform below r: canonical */
    cz_fc_d_from_fr(d, &x);
}

/* The sector: TreeR's leaves the default leaf except at the challenged
 * leaves, each its own value.  Drawn from cz_prng(seed) in this order:
 * the default leaf, comm_c, then the challenged leaves' values in
 * ascending leaf order (a leaf challenged twice, which 66 challenges of
 * 64 leaves guarantee, is one leaf: cz_fc_tree_build_sparse wants
 * distinct indexes). */
int cz_post_vanilla_synth(cz_post_vanilla *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], uint64_t sector_id, uint64_t sector_index,
                          uint64_t seed, const cz_allocator *alloc, char *err, size_t errlen)
{
    static const char who[] = "post vanilla synth";
    int rc = check_args(out, false, s, api, randomness, who, err, errlen);
    if (rc)
        return rc;
    unsigned n = cz_post_blob_challenges(s);
    size_t bytes = n * (sizeof(uint64_t) + sizeof(cz_fc_d));
    uint64_t *idx = cz_alloc(alloc, CZ_BUF_OTHER, bytes);
    if (idx == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "%s: out of memory", who);
    cz_fc_d *leaves = (cz_fc_d *)(idx + n), def, comm_c;
    cz_post_sector_challenges(idx, s, api, randomness, sector_id, sector_index);
    qsort(idx, n, sizeof *idx, cmp_u64);
    size_t m = 0;
    for (unsigned i = 0; i < n; i++)
        if (m == 0 || idx[i] != idx[m - 1])
            idx[m++] = idx[i];
    cz_prng g;
    cz_prng_seed(&g, seed);
    draw_fr(&def, &g);
    draw_fr(&comm_c, &g);
    for (size_t i = 0; i < m; i++)
        draw_fr(&leaves[i], &g);
    cz_fc_tree *t = NULL;
    rc = cz_fc_tree_build_sparse(&t, CZ_FC_TREE_RC, &s->tree, idx, leaves, m, &def, alloc);
    cz_free(alloc, idx, bytes);
    if (rc)
        return cz_fail(err, errlen, rc, "%s: the sparse TreeR: %s", who, cz_strerror(rc));
    rc = cz_post_vanilla_prove(out, s, api, randomness, sector_id, sector_index, t, &comm_c, alloc,
                               err, errlen);
    cz_fc_tree_free(t);
    return rc;
}
