/* The EmptySectorUpdate SNARK's public inputs and verification
 * (cuzk/filecoin/snap.h; storage-proofs-update compound.rs
 * generate_public_inputs, filecoin-proofs api/update.rs
 * verify_empty_sector_update_proof).  The source reads the commitments
 * with try_from_bytes (canonical field elements) and verifies the
 * partitions' proofs as one batch (MultiProof); here the length must be
 * exactly partitions x 192 bytes, and a failed batch is verified proof by
 * proof to name the partition. */
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "filecoin/core/internal.h"

int cz_fc_snap_public_inputs(cz_fr out[CZ_FC_SNAP_INPUTS], const cz_fc_snap_shape *u,
                             const cz_fc_snap_public *pub)
{
    if (pub->k >= u->partitions || cz_fc_snap_h_select(u, pub->h) == 0)
        return CZ_ERR_INVALID_ARG;
    cz_fr_from_u64(&out[0], cz_fc_snap_k_and_h(u, pub->k, pub->h));
    if (cz_fc_d_to_fr(&out[1], &pub->comm_r_old) != CZ_OK ||
        cz_fc_d_to_fr(&out[2], &pub->comm_d_new) != CZ_OK ||
        cz_fc_d_to_fr(&out[3], &pub->comm_r_new) != CZ_OK)
        return CZ_ERR_NOT_CANONICAL;
    return CZ_OK;
}

int cz_fc_verify_snap(const cz_groth16_pvk *pvk, const uint8_t *proofs, size_t len,
                      const cz_fc_snap_shape *u, const cz_fc_d *comm_r_old,
                      const cz_fc_d *comm_d_new, const cz_fc_d *comm_r_new, bool *valid, char *err,
                      size_t errlen)
{
    *valid = false;
    const unsigned n = u->partitions;
    if (pvk->n_ic != CZ_FC_SNAP_INPUTS + 1) {
        cz_msgf(err, errlen,
                "verify-update: the verifying key has %zu public inputs, the update "
                "circuit has %d",
                pvk->n_ic - 1, CZ_FC_SNAP_INPUTS);
        return CZ_ERR_INVALID_ARG;
    }
    if (len != (size_t)n * CZ_GROTH16_PROOF_BYTES) {
        cz_msgf(err, errlen, "verify-update: %zu proof bytes, the update has %u partitions of %d",
                len, n, CZ_GROTH16_PROOF_BYTES);
        return CZ_ERR_BAD_LENGTH;
    }
    cz_fc_snap_public pub = {
        .h = u->h, .comm_r_old = *comm_r_old, .comm_d_new = *comm_d_new, .comm_r_new = *comm_r_new};
    cz_groth16_proof *pr = malloc(n * sizeof *pr);
    cz_fr *in = malloc((size_t)n * CZ_FC_SNAP_INPUTS * sizeof *in);
    int rc = pr && in ? CZ_OK : CZ_ERR_NOMEM;
    for (unsigned k = 0; rc == CZ_OK && k < n; k++) {
        pub.k = k;
        if ((rc = cz_fc_snap_public_inputs(in + (size_t)k * CZ_FC_SNAP_INPUTS, u, &pub)) != CZ_OK) {
            const char *what = cz_fc_d_to_fr(&in[0], comm_r_old) != CZ_OK   ? "comm_r_old"
                               : cz_fc_d_to_fr(&in[0], comm_d_new) != CZ_OK ? "comm_d_new"
                                                                             : "comm_r_new";
            cz_msgf(err, errlen, "verify-update: %s is not a field element", what);
            goto out;
        }
        if (!cz_fc_partition_proof(pr, proofs, k, err, errlen))
            goto out; /* a malformed proof is an invalid one */
    }
    rc = cz_fc_verify_partitions(rc, "verify-update", pvk, pr, in, CZ_FC_SNAP_INPUTS, n, valid, err,
                                 errlen);
out:
    free(pr);
    free(in);
    return rc;
}
