/* An EmptySectorUpdate of a small sector (include/cuzk/filecoin.h:
 * cz_fc_update_sector_*): the new data's TreeD, the replica's
 * rho-encoding (storage-proofs-update vanilla.rs encode_into: label_r_new
 * = label_r_old + label_d_new * rho, rho per node from the top h bits of
 * its index), TreeR old and new, the commitments, and the partitions'
 * vanilla proofs from those trees.  Every tree is dense, so this is for
 * sectors whose trees fit in memory (2KiB, 8MiB; 512MiB at a few GiB). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"

struct cz_fc_update_sector {
    const cz_fc_shape *shape;
    cz_fc_update_shape u;
    unsigned h;
    cz_fc_d comm_c, comm_r_old, comm_d_new, comm_r_new;
    cz_fc_tree *tree_d, *tree_r_old, *tree_r_new;
    cz_fc_d *replica_new;
    const cz_allocator *alloc;
};

void cz_fc_update_sector_free(cz_fc_update_sector *x)
{
    if (x == NULL)
        return;
    cz_fc_tree_free(x->tree_d);
    cz_fc_tree_free(x->tree_r_old);
    cz_fc_tree_free(x->tree_r_new);
    if (x->replica_new)
        cz_free(x->alloc, x->replica_new, x->u.sector_nodes * sizeof(cz_fc_d));
    free(x);
}

static int comm_r(cz_fc_d *out, const cz_fc_d *comm_c, const cz_fc_tree *t)
{
    cz_fc_d in[2] = {*comm_c};
    cz_fc_tree_root(t, &in[1]);
    return cz_fc_poseidon(out, in, 2);
}

int cz_fc_update_sector_new(cz_fc_update_sector **out, const cz_fc_shape *shape,
                            const cz_fc_update_shape *u, const cz_fc_d *replica_old,
                            const cz_fc_d *data_new, const cz_fc_d *comm_c, unsigned h,
                            const cz_allocator *alloc)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (shape == NULL || u == NULL || replica_old == NULL || data_new == NULL || comm_c == NULL ||
        ((uint64_t)1 << shape->log_nodes) != u->sector_nodes || cz_fc_update_h_select(u, h) == 0)
        return CZ_ERR_INVALID_ARG;
    cz_fc_update_sector *x = calloc(1, sizeof *x);
    if (x == NULL)
        return CZ_ERR_NOMEM;
    x->shape = shape;
    x->u = *u;
    x->h = h;
    x->comm_c = *comm_c;
    x->alloc = alloc;
    size_t n = u->sector_nodes;
    int rc = cz_fc_tree_build(&x->tree_d, CZ_FC_TREE_D, shape, data_new, alloc);
    if (!rc)
        rc = cz_fc_tree_build(&x->tree_r_old, CZ_FC_TREE_RC, shape, replica_old, alloc);
    if (!rc)
        rc = comm_r(&x->comm_r_old, comm_c, x->tree_r_old);
    if (!rc) {
        cz_fc_tree_root(x->tree_d, &x->comm_d_new);
        x->replica_new = cz_alloc(alloc, CZ_BUF_OTHER, n * sizeof(cz_fc_d));
        if (x->replica_new == NULL)
            rc = CZ_ERR_NOMEM;
    }
    cz_fr phi, d, r, rho;
    if (!rc && (cz_fc_d_to_fr(&d, &x->comm_d_new) || cz_fc_d_to_fr(&r, &x->comm_r_old)))
        rc = CZ_ERR_NOT_CANONICAL;
    if (!rc)
        rc = cz_fc_update_phi(&phi, &d, &r);
    unsigned shift = u->node_bits - h;
    for (size_t i = 0; i < n && !rc; i++) {
        if (i == 0 || (i >> shift) != ((i - 1) >> shift))
            rc = cz_fc_update_rho(&rho, u, &phi, i, h);
        cz_fr lo, ld;
        if (!rc && (cz_fc_d_to_fr(&lo, &replica_old[i]) || cz_fc_d_to_fr(&ld, &data_new[i])))
            rc = CZ_ERR_NOT_CANONICAL;
        if (!rc) {
            cz_fr_mul(&ld, &ld, &rho);
            cz_fr_add(&lo, &lo, &ld);
            cz_fc_d_from_fr(&x->replica_new[i], &lo);
        }
    }
    if (!rc)
        rc = cz_fc_tree_build(&x->tree_r_new, CZ_FC_TREE_RC, shape, x->replica_new, alloc);
    if (!rc)
        rc = comm_r(&x->comm_r_new, comm_c, x->tree_r_new);
    if (rc) {
        cz_fc_update_sector_free(x);
        return rc;
    }
    *out = x;
    return CZ_OK;
}

void cz_fc_update_sector_public(const cz_fc_update_sector *x, unsigned k, cz_fc_update_public *pub)
{
    pub->k = k;
    pub->h = x->h;
    pub->comm_r_old = x->comm_r_old;
    pub->comm_d_new = x->comm_d_new;
    pub->comm_r_new = x->comm_r_new;
}

const cz_fc_d *cz_fc_update_sector_replica(const cz_fc_update_sector *x) { return x->replica_new; }

/* Proof m of node c from tree t, into m's laid-out levels and hashes. */
static int prove_one(const cz_fc_tree *t, uint32_t c, cz_fc_merkle_proof *m)
{
    cz_fc_path_el *lv = m->levels;
    cz_fc_d *hs = lv[0].hashes;
    cz_fc_proof_form form = m->form;
    int rc = cz_fc_tree_proof(t, c, m, lv, hs);
    m->form = form; /* the update's form (the same for production shapes) */
    return rc;
}

int cz_fc_update_sector_prove(const cz_fc_update_sector *x, unsigned k,
                              cz_fc_update_partition_proof *p, const cz_allocator *alloc)
{
    if (x == NULL || p == NULL || k >= x->u.partitions)
        return CZ_ERR_INVALID_ARG;
    const cz_fc_update_shape *u = &x->u;
    int rc = cz_fc_update_proof_alloc(p, u, alloc);
    if (rc)
        return rc;
    p->comm_c = x->comm_c;
    unsigned row = u->node_bits - u->partition_bits - u->apex_bits;
    for (unsigned i = 0; i < u->apex_leaves && !rc; i++)
        rc = cz_fc_tree_node(x->tree_d, row, (uint64_t)k * u->apex_leaves + i, &p->apex_leafs[i]);
    uint32_t *ch = malloc(u->challenges * sizeof *ch);
    cz_fr r_new;
    if (!rc && ch == NULL)
        rc = CZ_ERR_NOMEM;
    if (!rc && cz_fc_d_to_fr(&r_new, &x->comm_r_new))
        rc = CZ_ERR_NOT_CANONICAL;
    if (!rc)
        rc = cz_fc_update_challenges(u, &r_new, k, ch);
    for (unsigned j = 0; j < u->challenges && !rc; j++) {
        cz_fc_update_challenge_proof *cp = &p->challenges[j];
        rc = prove_one(x->tree_r_old, ch[j], &cp->r_old);
        if (!rc)
            rc = prove_one(x->tree_d, ch[j], &cp->d_new);
        if (!rc)
            rc = prove_one(x->tree_r_new, ch[j], &cp->r_new);
    }
    free(ch);
    if (rc)
        cz_fc_update_proof_free(p);
    return rc;
}
