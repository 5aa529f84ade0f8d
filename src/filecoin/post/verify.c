/* The PoSt vanilla verifier for one blob (cuzk/filecoin/post.h; docs/post.md 4.2):
 * storage-proofs-post fallback/vanilla.rs FallbackPoSt::verify, per
 * sector, and storage-proofs-core merkle/proof.rs MerkleProofTrait::
 * validate (the path hashes up to its root and its path_index is the
 * challenge).
 *
 * Two differences from the source, both stricter: every inclusion proof
 * of a WinningPoSt blob is checked (upstream's Winning self-check zips one
 * public sector with the 66 unrolled proofs, so it checks proof 0 only),
 * and the roots are compared with SectorProof.comm_r_last, the value the
 * circuit takes, where upstream takes inclusion_proofs[0].root() as
 * comm_r_last and never reads the field.  The path length check
 * (expected_len) is the shape check: a blob the reader accepted has it.
 * cz_post_vanilla_check is the same without the paths' hashes, the part
 * that costs (101 Poseidon hashes a 32GiB sector, as many as its witness
 * computes): the engine leaves those to cz_post_witness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/core/internal.h"
#include "filecoin/post/vanilla.h"

/* Inclusion proof i of challenged leaf c (validate, and the root; the
 * path's hashes only with hash). */
static int check_inclusion(const cz_fc_merkle_proof *m, const cz_fc_d *comm_r_last, unsigned i,
                           uint64_t c, bool hash, char *err, size_t errlen)
{
    uint64_t at = cz_fc_proof_index(m);
    if (at != c)
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                   "inclusion proof %u (challenge leaf %llu): the path leads to leaf %llu", i,
                   (unsigned long long)c, (unsigned long long)at);
    if (!cz_fc_d_same(&m->root, comm_r_last))
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                   "inclusion proof %u (challenge leaf %llu): its root is not comm_r_last", i,
                   (unsigned long long)c);
    if (!hash)
        return CZ_OK;
    cz_fc_d r;
    if (cz_fc_proof_root(m, CZ_FC_TREE_RC, &r) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                   "inclusion proof %u (challenge leaf %llu): its leaf or a sibling is not a "
                   "canonical Fr",
                   i, (unsigned long long)c);
    if (!cz_fc_d_same(&r, &m->root))
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                   "inclusion proof %u (challenge leaf %llu): the path does not hash up to its "
                   "root",
                   i, (unsigned long long)c);
    return CZ_OK;
}

static int verify(const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                  uint64_t sector_index, const cz_post_vanilla *v, bool hash, char *err,
                  size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (s == NULL || randomness == NULL || v == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "post vanilla verify: NULL argument");
    if (api != CZ_FC_API_1_0 && api != CZ_FC_API_1_1 && api != CZ_FC_API_1_2)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "post vanilla verify: API version %d",
                   (int)api);
    if (!cz_post_vanilla_shaped(v, s))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                   "post vanilla verify: the blob (%u inclusion proofs) is not of the shape "
                   "(%u inclusion proofs of %u levels)",
                   v->proof.n_inclusion, cz_post_blob_challenges(s),
                   cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree));
    if (cz_post_randomness_check(randomness) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                   "post vanilla verify: the randomness is not a canonical Fr");
    unsigned n = v->proof.n_inclusion;
    uint64_t *ch = malloc(n * sizeof *ch);
    if (ch == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "post vanilla verify: out of memory");
    cz_post_sector_challenges(ch, s, api, randomness, v->sector_id, sector_index);
    int rc = CZ_OK;
    for (unsigned i = 0; i < n && rc == CZ_OK; i++)
        rc = check_inclusion(&v->proof.inclusion[i], &v->proof.comm_r_last, i, ch[i], hash, err,
                             errlen);
    free(ch);
    if (rc)
        return rc;
    /* comm_r = H(comm_c || comm_r_last), PoseidonFunction::hash2 */
    cz_fc_d in[2] = {v->proof.comm_c, v->proof.comm_r_last}, h;
    if (cz_fc_poseidon(&h, in, 2) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF, "comm_c or comm_r_last is not a canonical Fr");
    if (!cz_fc_d_same(&h, &v->comm_r))
        return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                   "sector %llu: comm_r is not Poseidon-2(comm_c, comm_r_last)",
                   (unsigned long long)v->sector_id);
    return CZ_OK;
}

int cz_post_vanilla_verify(const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                           uint64_t sector_index, const cz_post_vanilla *v, char *err,
                           size_t errlen)
{
    return verify(s, api, randomness, sector_index, v, true, err, errlen);
}

int cz_post_vanilla_check(const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                          uint64_t sector_index, const cz_post_vanilla *v, char *err,
                          size_t errlen)
{
    return verify(s, api, randomness, sector_index, v, false, err, errlen);
}
