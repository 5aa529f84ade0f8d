/* A FallbackPoSt partition's circuit sectors and public inputs, and the
 * SNARK's verification (cuzk/filecoin/post.h), from storage-proofs-post @87348a7
 * fallback/compound.rs (FallbackPoStCompound::circuit,
 * generate_public_inputs), filecoin-proofs post_util.rs
 * (single_partition_vanilla_proofs) and api/window_post.rs,
 * api/winning_post.rs (verify_*): docs/post.md 1.5 and 4.4.
 *
 * Window: circuit sector i is blob i, and a short partition repeats its
 * last sector, in the circuit (the same vanilla proof) and in the inputs
 * (the last block copied, not recomputed).  Winning: the one blob's 66
 * inclusion proofs become 66 circuit sectors of one challenge, and the
 * verifier's sector list is 66 copies of the one public sector, circuit
 * sector i at sector_index i, so its challenge index (API 1.0) is
 * i x 1 + 0 = i, the vanilla view's challenge i. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"

void cz_post_circuit_source(const cz_post_shape *s, size_t n, unsigned i, unsigned c,
                            unsigned *blob, unsigned *inclusion)
{
    bool win = s->kind == CZ_POST_WINNING;
    *blob = win ? 0 : i < n ? i : (unsigned)n - 1;
    *inclusion = (win ? i * s->challenge_count : 0) + c;
}

int cz_post_circuit_sectors(cz_post_circuit_sector *out, const cz_post_shape *s,
                            const cz_post_vanilla *blobs, size_t n)
{
    if (out == NULL || s == NULL || blobs == NULL || n == 0 || n > cz_post_max_blobs(s))
        return CZ_ERR_INVALID_ARG;
    for (unsigned i = 0; i < s->sector_count; i++) {
        unsigned bi, first;
        cz_post_circuit_source(s, n, i, 0, &bi, &first);
        const cz_post_vanilla *b = &blobs[bi];
        if (b->proof.n_inclusion < (size_t)first + s->challenge_count)
            return CZ_ERR_INVALID_ARG;
        out[i] = (cz_post_circuit_sector){b->comm_r, b->proof.comm_c, b->proof.comm_r_last,
                                          b->proof.inclusion + first};
    }
    return CZ_OK;
}

size_t cz_post_public_input_count(const cz_post_shape *s)
{
    return (size_t)s->sector_count * (1 + s->challenge_count);
}

int cz_post_public_inputs(cz_fr *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], const cz_post_public_sector *sectors,
                          size_t n, unsigned k)
{
    if (n == 0 || n > cz_post_max_blobs(s))
        return CZ_ERR_INVALID_ARG;
    if (cz_post_randomness_check(randomness) != CZ_OK)
        return CZ_ERR_NOT_CANONICAL;
    const size_t block = 1 + s->challenge_count;
    const uint64_t leaves = (uint64_t)1 << s->tree.log_nodes;
    const size_t real = s->kind == CZ_POST_WINNING ? s->sector_count : n;
    for (size_t i = 0; i < real; i++) {
        const cz_post_public_sector *p = s->kind == CZ_POST_WINNING ? &sectors[0] : &sectors[i];
        cz_fr *o = out + i * block;
        if (cz_fc_d_to_fr(&o[0], &p->comm_r) != CZ_OK)
            return CZ_ERR_NOT_CANONICAL;
        uint64_t sector_index = (uint64_t)k * s->sector_count + i;
        for (unsigned c = 0; c < s->challenge_count; c++) {
            uint64_t ci = cz_post_challenge_index(api, sector_index, s->challenge_count, c);
            cz_fr_from_u64(&o[1 + c],
                           cz_post_leaf_challenge(randomness, p->sector_id, ci, leaves));
        }
    }
    for (size_t i = real; i < s->sector_count; i++) /* padding: the last block again */
        memcpy(out + i * block, out + (real - 1) * block, block * sizeof *out);
    return CZ_OK;
}

int cz_post_verify(const cz_groth16_pvk *pvk, const uint8_t *proof, size_t len,
                   const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                   const cz_post_public_sector *sectors, size_t n, unsigned k, bool *valid,
                   char *err, size_t errlen)
{
    *valid = false;
    const size_t m = cz_post_public_input_count(s);
    if (pvk->n_ic != m + 1) {
        cz_msgf(err, errlen,
                "verify-post: the verifying key has %zu public inputs, the PoSt circuit has %zu",
                pvk->n_ic - 1, m);
        return CZ_ERR_INVALID_ARG;
    }
    if (len != CZ_GROTH16_PROOF_BYTES) {
        cz_msgf(err, errlen, "verify-post: %zu proof bytes, a partition's proof is %d", len,
                CZ_GROTH16_PROOF_BYTES);
        return CZ_ERR_BAD_LENGTH;
    }
    cz_fr *in = malloc(m * sizeof *in);
    if (in == NULL) {
        cz_msgf(err, errlen, "verify-post: out of memory");
        return CZ_ERR_NOMEM;
    }
    int rc = cz_post_public_inputs(in, s, api, randomness, sectors, n, k);
    if (rc == CZ_ERR_INVALID_ARG) {
        cz_msgf(err, errlen, "verify-post: %zu sectors; a partition has 1 to %u", n,
                cz_post_max_blobs(s));
    } else if (rc != CZ_OK) {
        cz_msgf(err, errlen, "verify-post: %s is not a field element",
                cz_post_randomness_check(randomness) ? "the randomness" : "a comm_r");
    } else {
        cz_groth16_proof pr;
        if (cz_groth16_proof_from_bytes(&pr, proof, len) != CZ_OK)
            cz_msgf(err, errlen, "verify-post: the proof's points are not valid (curve, "
                                 "subgroup, infinity)");
        else if (cz_groth16_verify(pvk, &pr, in, m) == CZ_OK)
            *valid = true;
        else
            cz_msgf(err, errlen, "verify-post: the proof does not verify");
    }
    free(in);
    return rc;
}
