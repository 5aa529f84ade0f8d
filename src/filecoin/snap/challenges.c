/* The EmptySectorUpdate proof's randomness and challenges
 * (include/cuzk/filecoin/snap.h; storage-proofs-update challenges.rs and
 * vanilla.rs: phi, rho).  Every hash here is Pgen, the arity-2 Poseidon
 * with neptune's custom domain tag 1 * 2^40; the round constants and MDS
 * matrix are the ordinary width-3 ones. */
#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/poseidon.h"

int cz_fc_snap_gen_randomness(cz_fr *out, const cz_fr *a, const cz_fr *b)
{
    if (out == NULL || a == NULL || b == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_fr tag, in[2] = {*a, *b};
    cz_poseidon_custom_tag(&tag, 1);
    return cz_poseidon_hash_tagged(out, in, 2, &tag);
}

int cz_fc_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old)
{
    return cz_fc_snap_gen_randomness(phi, comm_d_new, comm_r_old);
}

int cz_fc_snap_rho(cz_fr *rho, const cz_fc_snap_shape *s, const cz_fr *phi, uint64_t c, unsigned h)
{
    if (s == NULL || h == 0 || h > s->node_bits || c >= s->sector_nodes)
        return CZ_ERR_INVALID_ARG;
    cz_fr high;
    cz_fr_from_u64(&high, c >> (s->node_bits - h));
    return cz_fc_snap_gen_randomness(rho, phi, &high);
}

int cz_fc_snap_challenges(const cz_fc_snap_shape *s, const cz_fr *comm_r_new, unsigned k,
                          uint32_t *out)
{
    if (s == NULL || comm_r_new == NULL || out == NULL || k >= s->partitions)
        return CZ_ERR_INVALID_ARG;
    unsigned r = s->random_bits, done = 0;
    for (unsigned j = 0; done < s->challenges; j++) {
        cz_fr index, digest;
        cz_fr_from_u64(&index, (uint64_t)k * s->digests + j);
        int rc = cz_fc_snap_gen_randomness(&digest, comm_r_new, &index);
        if (rc != CZ_OK)
            return rc;
        uint8_t le[32];
        cz_fr_to_bytes_le(le, &digest);
        for (unsigned i = 0; i < s->per_digest && done < s->challenges; i++) {
            uint32_t c = 0;
            for (unsigned b = 0; b < r; b++) {
                unsigned bit = i * r + b;
                c |= (uint32_t)((le[bit / 8] >> (bit % 8)) & 1) << b;
            }
            out[done++] = c | (uint32_t)k << r;
        }
    }
    return CZ_OK;
}
