/* Replica ids, labels and encoding (see cuzk/filecoin/porep.h):
 * storage-proofs-porep stacked/vanilla/params.rs generate_replica_id,
 * create_label/single.rs (create_label, create_label_exp),
 * graph.rs copy_parents_data_inner[_exp] (the 37 parents),
 * proof.rs prove_layers_generate (labeling proofs), encode.rs. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/sha256.h"

void cz_fc_replica_id(cz_fc_d *out, const uint8_t prover_id[32], uint64_t sector_id,
                      const uint8_t ticket[32], const cz_fc_d *comm_d,
                      const uint8_t porep_id[32])
{
    uint8_t m[32 + 8 + 32 + 32 + 32];
    memcpy(m, prover_id, 32);
    for (int i = 0; i < 8; i++)
        m[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i)); /* big-endian */
    memcpy(m + 40, ticket, 32);
    memcpy(m + 72, comm_d->b, 32);
    memcpy(m + 104, porep_id, 32);
    cz_fc_sha256_trunc(out, m, sizeof m);
}

void cz_fc_label_parents(cz_fc_d out[CZ_FC_LABEL_PARENTS], unsigned layer,
                         const cz_fc_d drg[CZ_FC_DRG_DEGREE], const cz_fc_d exp[CZ_FC_EXP_DEGREE])
{
    cz_fc_d p[CZ_FC_PARENTS];
    unsigned n = layer == 1 ? CZ_FC_DRG_DEGREE : CZ_FC_PARENTS;
    memcpy(p, drg, CZ_FC_DRG_DEGREE * sizeof *p);
    if (layer > 1)
        memcpy(p + CZ_FC_DRG_DEGREE, exp, CZ_FC_EXP_DEGREE * sizeof *p);
    for (unsigned i = 0; i < CZ_FC_LABEL_PARENTS; i++) /* repeated to fill 37 */
        out[i] = p[i % n];
}

void cz_fc_label(cz_fc_d *out, const cz_fc_d *replica_id, unsigned layer, uint64_t node,
                 const cz_fc_d parents[CZ_FC_LABEL_PARENTS])
{
    uint8_t head[64];
    memset(head, 0, sizeof head);
    memcpy(head, replica_id->b, 32);
    for (int i = 0; i < 4; i++)
        head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        head[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    cz_sha256_ctx h;
    cz_sha256_init(&h);
    cz_sha256_update(&h, head, sizeof head);
    if (node > 0)
        cz_sha256_update(&h, parents, CZ_FC_LABEL_PARENTS * sizeof *parents);
    cz_sha256_final(&h, out->b);
    out->b[31] &= 0x3f;
}

int cz_fc_encode(cz_fc_d *out, const cz_fc_d *key, const cz_fc_d *data)
{
    cz_fr k, d;
    if (cz_fc_d_to_fr(&k, key) != CZ_OK || cz_fc_d_to_fr(&d, data) != CZ_OK)
        return CZ_ERR_NOT_CANONICAL;
    cz_fr_add(&k, &k, &d);
    cz_fc_d_from_fr(out, &k);
    return CZ_OK;
}
