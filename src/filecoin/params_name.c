/* Filecoin's names of the PoRep parameter files (see cuzk/filecoin.h),
 * from rust-fil-proofs @87348a74:
 *   storage-proofs-porep src/stacked/vanilla/params.rs  PublicParams::identifier
 *   storage-proofs-porep src/stacked/vanilla/graph.rs   StackedGraph's id
 *   storage-proofs-core  src/drgraph.rs                 BucketGraph::identifier
 *   storage-proofs-core  src/merkle/tree.rs             MerkleTreeWrapper::display
 *   storage-proofs-core  src/parameter_cache.rs         cache_identifier, VERSION 28
 *   storage-proofs-porep src/stacked/circuit/proof.rs   StackedCompound::cache_prefix
 *   filecoin-proofs      src/caches.rs                  StackedCompound<Tree, DefaultPieceHasher>
 * The graph's and the tree's hasher is Poseidon ("poseidon_hasher"), the
 * piece hasher G SHA-256 ("sha256_hasher"); TreeR's base arity is 8. */
#include <stdio.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/sha256.h"

/* Tree::display(): merkletree-<hasher>-<base>-<sub>-<top> (0: none). */
static int tree_display(char *out, size_t n, const cz_fc_shape *s)
{
    return snprintf(out, n, "merkletree-poseidon_hasher-8-%u-%u", s->sub_arity, s->top_arity);
}

size_t cz_fc_porep_params_identifier(char *out, size_t n, const cz_fc_shape *s)
{
    char tree[40];
    tree_display(tree, sizeof tree, s);
    int len = snprintf(out, n,
                       "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                       "expansion_degree: %d base_graph: drgraph::BucketGraph{size: %llu; "
                       "degree: %d; hasher: poseidon_hasher} }, challenges: LayerChallenges { "
                       "layers: %u, max_count: %u }, tree: %s }",
                       CZ_FC_EXP_DEGREE, 1ull << s->log_nodes, CZ_FC_DRG_DEGREE, s->layers,
                       s->challenges, tree);
    return len < 0 ? 0 : (size_t)len;
}

void cz_fc_porep_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_shape *s)
{
    char id[CZ_FC_PARAMS_ID];
    size_t len = cz_fc_porep_params_identifier(id, sizeof id, s);
    uint8_t d[32];
    cz_sha256(d, (const uint8_t *)id, len);
    char tree[40];
    tree_display(tree, sizeof tree, s);
    int n = snprintf(out, CZ_FC_PARAMS_NAME, "v28-stacked-proof-of-replication-%s-sha256_hasher-",
                     tree);
    for (int i = 0; i < 32; i++)
        snprintf(out + n + 2 * i, 3, "%02x", d[i]);
}

/* EmptySectorUpdate (storage-proofs-update vanilla.rs PublicParams::
 * identifier, compound.rs EmptySectorUpdateCompound::cache_prefix). */
void cz_fc_update_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_update_shape *u)
{
    char id[96];
    int len = snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                       (unsigned long long)u->sector_nodes);
    uint8_t d[32];
    cz_sha256(d, (const uint8_t *)id, (size_t)len);
    int n = snprintf(out, CZ_FC_PARAMS_NAME,
                     "v28-empty-sector-update-merkletree-poseidon_hasher-8-%u-%u-", u->tree_r[1],
                     u->tree_r[2]);
    for (int i = 0; i < 32; i++)
        snprintf(out + n + 2 * i, 3, "%02x", d[i]);
}
