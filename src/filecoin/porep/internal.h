/* Between the parts of src/filecoin/porep that build C1s (seal.c,
 * synth.c), the one that writes their vanilla proofs (prove.c), the
 * vanilla verifier and the synthetic challenges. */
#ifndef CZ_FILECOIN_POREP_INTERNAL_H
#define CZ_FILECOIN_POREP_INTERNAL_H

#include <stdint.h>

#include "cuzk/chacha.h"
#include "cuzk/filecoin/porep.h"

/* A sector as far as its vanilla proofs need it: the trees, the graph,
 * and where the labels (layer 1..L) and data of a node are.  For a
 * synthetic sector these answer only for the nodes involved. */
typedef struct {
    const cz_fc_proof_type *proof_type;
    const cz_fc_graph *graph;
    const cz_fc_tree *tree_d, *tree_c, *tree_r;
    const cz_fc_d *(*label)(void *ctx, unsigned layer, uint64_t node);
    const cz_fc_d *(*data)(void *ctx, uint64_t node);
    void *ctx;
} cz_fc_sealed;

/* Writes c1->proofs for every partition's challenges (derived from
 * c1->replica_id, seed and comm_r, which must be set) from s.  CZ_OK,
 * CZ_ERR_NOMEM, or an error from the trees (a challenged node a sparse
 * tree does not hold: CZ_ERR_INVALID_ARG), with err set. */
int cz_fc_prove_partitions(cz_fc_c1 *c1, const cz_fc_sealed *s, char *err, size_t errlen);

/* Sealing's steps (seal.c): every node's 14 parents from the parent
 * cache's rows (out: nodes x 14; CZ_OK or CZ_ERR_NOMEM), and the labels
 * of layers 1 .. layers (labels: layers x n, layer-major) in node order. */
int cz_fc_parents_all(uint32_t *out, const cz_fc_graph *g, const cz_allocator *alloc);
void cz_fc_labels_all(cz_fc_d *labels, const uint32_t *parents, uint64_t n, unsigned layers,
                      const cz_fc_d *replica_id);

/* The column hash of a node's L labels (Poseidon of arity L: 2 or 11). */
int cz_fc_column_hash(cz_fc_d *out, const cz_fc_d *rows, unsigned layers);

/* Synthetic PoRep challenges (challenges.c): the generator of `count`
 * synthetic challenges of a sector of `nodes` nodes (Filecoin: count =
 * min(nodes, 2^18)); the i-th of them (i < count); the synthetic indexes
 * first .. first + n - 1 that the randomness `rand` (the seed) selects. */
typedef struct {
    cz_chacha20 gen;
    uint64_t nodes, count;
    cz_fc_d replica_id;
} cz_fc_synth_gen;
void cz_fc_synth_init(cz_fc_synth_gen *s, uint64_t nodes, uint64_t count,
                      const cz_fc_d *replica_id, const cz_fc_d *comm_r);
uint64_t cz_fc_synth_at(cz_fc_synth_gen *s, uint64_t i);
void cz_fc_synth_select(uint64_t *out, const cz_fc_synth_gen *s, const uint8_t rand[32],
                        uint64_t first, unsigned n);

#endif
