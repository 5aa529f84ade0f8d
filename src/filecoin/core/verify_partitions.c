/* The partitions of a proof, read and verified as one batch, for the PoRep
 * and SnapDeals verifiers (internal.h). */
#include "cuzk/err.h"
#include "filecoin/core/internal.h"

bool cz_fc_partition_proof(cz_groth16_proof *pr, const uint8_t *proofs, unsigned k, char *err,
                           size_t errlen)
{
    if (cz_groth16_proof_from_bytes(&pr[k], proofs + (size_t)k * CZ_GROTH16_PROOF_BYTES,
                                    CZ_GROTH16_PROOF_BYTES) == CZ_OK)
        return true;
    cz_msgf(err, errlen,
            "partition %u: the proof's points are not valid (curve, subgroup, infinity)", k);
    return false;
}

int cz_fc_verify_partitions(int rc, const char *who, const cz_groth16_pvk *pvk,
                            const cz_groth16_proof *pr, const cz_fr *in, size_t n_in, unsigned n,
                            bool *valid, char *err, size_t errlen)
{
    if (rc == CZ_OK) {
        rc = cz_groth16_verify_batch(pvk, pr, in, n_in, n);
        if (rc == CZ_ERR_BAD_PROOF) {
            for (unsigned k = 0; k < n; k++)
                if (cz_groth16_verify(pvk, &pr[k], in + (size_t)k * n_in, n_in) != CZ_OK) {
                    cz_msgf(err, errlen, "partition %u: the proof does not verify", k);
                    break;
                }
            return CZ_OK;
        }
    }
    if (rc == CZ_OK)
        *valid = true;
    else
        cz_msgf(err, errlen, "%s: %s", who, cz_strerror(rc));
    return rc;
}
