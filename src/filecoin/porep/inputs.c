/* The public inputs of a PoRep partition's circuit (see cuzk/filecoin/porep.h):
 * storage-proofs-porep stacked/circuit/proof.rs StackedCompound::
 * generate_public_inputs.  Every inclusion proof is a private PoR
 * (commitment not an input) whose one input is the challenged leaf's index
 * (storage-proofs-core gadgets/por.rs: the packed path bits). */
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"

#define PER_CHALLENGE (1 + CZ_FC_PARENTS + 3)

size_t cz_fc_public_input_count(const cz_fc_proof_type *t)
{
    return 3 + (size_t)PER_CHALLENGE * t->shape->challenges;
}

int cz_fc_public_inputs(cz_fr *out, const cz_fc_proof_type *t, const cz_fc_graph *g,
                        const cz_fc_d *replica_id, const cz_fc_d *comm_d, const cz_fc_d *comm_r,
                        const uint8_t seed[32], unsigned k)
{
    if (k >= t->partitions)
        return CZ_ERR_INVALID_ARG;
    if (cz_fc_d_to_fr(&out[0], replica_id) != CZ_OK || cz_fc_d_to_fr(&out[1], comm_d) != CZ_OK ||
        cz_fc_d_to_fr(&out[2], comm_r) != CZ_OK)
        return CZ_ERR_NOT_CANONICAL;
    uint64_t ch[64];
    int rc = cz_fc_challenges(ch, t, replica_id, seed, comm_r, k);
    if (rc != CZ_OK)
        return rc;
    cz_fr *x = out + 3;
    for (unsigned i = 0; i < t->shape->challenges; i++) {
        uint32_t p[CZ_FC_PARENTS];
        cz_fc_graph_parents(g, ch[i], p);
        cz_fr_from_u64(x++, ch[i]); /* TreeD */
        for (unsigned j = 0; j < CZ_FC_PARENTS; j++)
            cz_fr_from_u64(x++, p[j]); /* the parents' columns in TreeC */
        for (unsigned j = 0; j < 3; j++)
            cz_fr_from_u64(x++, ch[i]); /* the challenge, TreeR, TreeC */
    }
    return CZ_OK;
}
