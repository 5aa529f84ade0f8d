/* Between the parts of src/filecoin/snap that read, verify and
 * synthesise a vanilla partition proof. */
#ifndef CZ_FILECOIN_SNAP_INTERNAL_H
#define CZ_FILECOIN_SNAP_INTERNAL_H

#include <stdbool.h>

#include "cuzk/filecoin/snap.h"

/* proof.c: p has shape s's counts, and each of its Merkle proofs
 * the shape's form, levels and arities, with every index below its arity
 * (what the reader guarantees; the writer, the verifier and the circuit
 * refuse anything else). */
bool cz_fc_snap_proof_shaped(const cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s);

#endif
