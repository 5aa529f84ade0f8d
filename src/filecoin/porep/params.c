/* The PoRep circuit's parameter files by shape (see cuzk/filecoin/porep.h),
 * from rust-fil-proofs @87348a74:
 *   storage-proofs-porep src/stacked/vanilla/params.rs  PublicParams::identifier
 *   storage-proofs-porep src/stacked/vanilla/graph.rs   StackedGraph's id
 *   storage-proofs-core  src/drgraph.rs                 BucketGraph::identifier
 *   storage-proofs-core  src/merkle/tree.rs             MerkleTreeWrapper::display
 *   storage-proofs-porep src/stacked/circuit/proof.rs   StackedCompound::cache_prefix
 *   filecoin-proofs      src/caches.rs                  StackedCompound<Tree, DefaultPieceHasher>
 * The graph's and the tree's hasher is Poseidon ("poseidon_hasher"), the
 * piece hasher G SHA-256 ("sha256_hasher"); TreeR's base arity is 8. */
#include <stdio.h>

#include "cuzk/filecoin/porep.h"

size_t cz_fc_porep_params_identifier(char *out, size_t n, const cz_fc_shape *s)
{
    int len = snprintf(out, n,
                       "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                       "expansion_degree: %d base_graph: drgraph::BucketGraph{size: %llu; "
                       "degree: %d; hasher: poseidon_hasher} }, challenges: LayerChallenges { "
                       "layers: %u, max_count: %u }, tree: merkletree-poseidon_hasher-8-%u-%u }",
                       CZ_FC_EXP_DEGREE, 1ull << s->log_nodes, CZ_FC_DRG_DEGREE, s->layers,
                       s->challenges, s->sub_arity, s->top_arity);
    return len < 0 ? 0 : (size_t)len;
}

void cz_fc_porep_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_shape *s)
{
    char id[CZ_FC_PARAMS_ID];
    cz_fc_porep_params_identifier(id, sizeof id, s);
    cz_fc_params_name(out, "stacked-proof-of-replication", s->sub_arity, s->top_arity,
                      "sha256_hasher", id);
}
