/* Between the proof families of src/filecoin: what their verifiers share
 * that is not part of cuzk/filecoin/core.h's contract. */
#ifndef CZ_FILECOIN_CORE_INTERNAL_H
#define CZ_FILECOIN_CORE_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "cuzk/filecoin/core.h"
#include "cuzk/groth16.h"

/* Two Ds are the same 32 bytes. */
static inline bool cz_fc_d_same(const cz_fc_d *a, const cz_fc_d *b)
{
    return memcmp(a->b, b->b, 32) == 0;
}

/* Partition k's proof, the k-th CZ_GROTH16_PROOF_BYTES of proofs, into
 * pr[k]: true, or false with err naming the partition when its points are
 * not valid (a malformed proof is an invalid one). */
bool cz_fc_partition_proof(cz_groth16_proof *pr, const uint8_t *proofs, unsigned k, char *err,
                           size_t errlen);

/* The verifiers' last step, once the partitions were read with the
 * outcome rc: unless rc is an error, the n partitions' proofs pr,
 * partition k's n_in inputs at in + k n_in, verified as one batch: *valid
 * set when all verify; when the batch does not, *valid left as it is and
 * err names the first partition whose proof does not verify.  Returns rc,
 * or the batch's error other than CZ_ERR_BAD_PROOF; an error as "who:
 * strerror" in err. */
int cz_fc_verify_partitions(int rc, const char *who, const cz_groth16_pvk *pvk,
                            const cz_groth16_proof *pr, const cz_fr *in, size_t n_in, unsigned n,
                            bool *valid, char *err, size_t errlen);

#endif
