/* Seal verification (see cuzk/filecoin/porep.h): filecoin-proofs api/seal.rs
 * verify_seal for the interactive and synthetic registered proofs.  The
 * source checks comm_d and comm_r non-zero and canonical
 * (as_safe_commitment), recomputes replica_id, reads `partitions` proofs
 * and verifies them as one batch (StackedCompound::verify); here the
 * length must be exactly partitions x 192 bytes, and a failed batch is
 * verified proof by proof to name the partition.  Non-interactive proofs
 * are aggregated (SnarkPack) in the source: not verified here. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "filecoin/core/internal.h"

bool cz_fc_is_zero32(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= b[i];
    return acc == 0;
}

int cz_fc_verify_seal(const cz_groth16_pvk *pvk, const uint8_t *proofs, size_t len,
                      const cz_fc_seal_info *info, bool *valid, char *err, size_t errlen)
{
    *valid = false;
    const cz_fc_proof_type *t = info->proof_type;
    if (t == NULL) {
        cz_msgf(err, errlen, "verify-seal: no registered proof");
        return CZ_ERR_INVALID_ARG;
    }
    if (t->feature == CZ_FC_NI) {
        cz_msgf(err, errlen, "verify-seal: %s: non-interactive proofs are aggregated; their "
                             "verification is not implemented", t->name);
        return CZ_ERR_UNSUPPORTED;
    }
    if (cz_fc_is_zero32(info->comm_d.b) || cz_fc_is_zero32(info->comm_r.b)) {
        cz_msgf(err, errlen, "verify-seal: %s is all zero",
                cz_fc_is_zero32(info->comm_d.b) ? "comm_d" : "comm_r");
        return CZ_ERR_INVALID_ARG;
    }
    cz_fr tmp;
    if (cz_fc_d_to_fr(&tmp, &info->comm_d) != CZ_OK || cz_fc_d_to_fr(&tmp, &info->comm_r) != CZ_OK) {
        cz_msgf(err, errlen, "verify-seal: %s is not a field element",
                cz_fc_d_to_fr(&tmp, &info->comm_d) != CZ_OK ? "comm_d" : "comm_r");
        return CZ_ERR_NOT_CANONICAL;
    }
    size_t n_in = cz_fc_public_input_count(t);
    if (pvk->n_ic != n_in + 1) {
        cz_msgf(err, errlen, "verify-seal: the verifying key has %zu public inputs, %s has %zu",
                pvk->n_ic - 1, t->name, n_in);
        return CZ_ERR_INVALID_ARG;
    }
    if (len != (size_t)t->partitions * CZ_GROTH16_PROOF_BYTES) {
        cz_msgf(err, errlen, "verify-seal: %zu proof bytes, %s has %u partitions of %d", len,
                t->name, t->partitions, CZ_GROTH16_PROOF_BYTES);
        return CZ_ERR_BAD_LENGTH;
    }
    uint8_t porep_id[32];
    if (info->overrides.porep_id)
        memcpy(porep_id, info->overrides.porep_id, 32);
    else
        cz_fc_porep_id(porep_id, t);
    cz_fc_api api = info->overrides.api >= 0 ? (cz_fc_api)info->overrides.api : t->api;
    cz_fc_d replica_id;
    cz_fc_replica_id(&replica_id, info->prover_id, info->sector_id, info->ticket, &info->comm_d,
                     porep_id);
    cz_fc_graph g;
    cz_fc_graph_init(&g, t->shape, porep_id, api);

    cz_groth16_proof *pr = malloc(t->partitions * sizeof *pr);
    cz_fr *in = malloc(t->partitions * n_in * sizeof *in);
    int rc = pr && in ? CZ_OK : CZ_ERR_NOMEM;
    for (unsigned k = 0; rc == CZ_OK && k < t->partitions; k++) {
        if (!cz_fc_partition_proof(pr, proofs, k, err, errlen))
            goto done; /* a malformed proof is an invalid one */
        rc = cz_fc_public_inputs(in + (size_t)k * n_in, t, &g, &replica_id, &info->comm_d,
                                 &info->comm_r, info->seed, k);
    }
    rc = cz_fc_verify_partitions(rc, "verify-seal", pvk, pr, in, n_in, t->partitions, valid, err,
                                 errlen);
done:
    free(pr);
    free(in);
    return rc;
}
