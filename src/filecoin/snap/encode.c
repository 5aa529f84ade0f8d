/* An EmptySectorUpdate of a sector (include/cuzk/filecoin/snap.h:
 * cz_fc_snap_sector_*), dense for small sectors or synthetic (sparse)
 * for any size: the new data's TreeD, the replica's
 * rho-encoding (storage-proofs-update vanilla.rs encode_into: label_r_new
 * = label_r_old + label_d_new * rho, rho per node from the top h bits of
 * its index), TreeR old and new, the commitments, and the partitions'
 * vanilla proofs from those trees.  Every tree is dense, so this is for
 * sectors whose trees fit in memory (2KiB, 8MiB; 512MiB at a few GiB). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/rand.h"

struct cz_fc_snap_sector {
    const cz_fc_shape *shape;
    cz_fc_snap_shape u;
    unsigned h;
    cz_fc_d comm_c, comm_r_old, comm_d_new, comm_r_new;
    cz_fc_tree *tree_d, *tree_r_old, *tree_r_new;
    cz_fc_d *replica_new; /* dense only */
    bool sparse;
    const cz_allocator *alloc;
};

void cz_fc_snap_sector_free(cz_fc_snap_sector *x)
{
    if (x == NULL)
        return;
    cz_fc_tree_free(x->tree_d);
    cz_fc_tree_free(x->tree_r_old);
    cz_fc_tree_free(x->tree_r_new);
    if (x->replica_new && !x->sparse)
        cz_free(x->alloc, x->replica_new, x->u.sector_nodes * sizeof(cz_fc_d));
    free(x);
}

static int comm_r(cz_fc_d *out, const cz_fc_d *comm_c, const cz_fc_tree *t)
{
    cz_fc_d in[2] = {*comm_c};
    cz_fc_tree_root(t, &in[1]);
    return cz_fc_poseidon(out, in, 2);
}

int cz_fc_snap_sector_new(cz_fc_snap_sector **out, const cz_fc_shape *shape,
                          const cz_fc_snap_shape *u, const cz_fc_d *replica_old,
                          const cz_fc_d *data_new, const cz_fc_d *comm_c, unsigned h,
                          const cz_allocator *alloc)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (shape == NULL || u == NULL || replica_old == NULL || data_new == NULL || comm_c == NULL ||
        ((uint64_t)1 << shape->log_nodes) != u->sector_nodes || cz_fc_snap_h_select(u, h) == 0)
        return CZ_ERR_INVALID_ARG;
    cz_fc_snap_sector *x = calloc(1, sizeof *x);
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
        rc = cz_fc_snap_phi(&phi, &d, &r);
    unsigned shift = u->node_bits - h;
    for (size_t i = 0; i < n && !rc; i++) {
        if (i == 0 || (i >> shift) != ((i - 1) >> shift))
            rc = cz_fc_snap_rho(&rho, u, &phi, i, h);
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
        cz_fc_snap_sector_free(x);
        return rc;
    }
    *out = x;
    return CZ_OK;
}

void cz_fc_snap_sector_public(const cz_fc_snap_sector *x, unsigned k, cz_fc_snap_public *pub)
{
    pub->k = k;
    pub->h = x->h;
    pub->comm_r_old = x->comm_r_old;
    pub->comm_d_new = x->comm_d_new;
    pub->comm_r_new = x->comm_r_new;
}

const cz_fc_d *cz_fc_snap_sector_replica(const cz_fc_snap_sector *x)
{
    return x->sparse ? NULL : x->replica_new;
}

/* ---------------------------------------------------------- synthetic --- */

/* The sparse sector: the old replica is the default leaf L except at the
 * nodes idx[0 .. m) (random labels), the new data zero except there
 * (random Fr32 values), so the new replica is L except there too (0 * rho
 * = 0): three sparse trees describe the whole sector exactly.  The
 * challenges depend on comm_r_new, so the trees are built once for the
 * commitments, the challenges of every partition drawn, and the trees
 * built again with those nodes listed as well (their values the
 * defaults: the roots do not change), so each has a path. */
#define SYNTH_NODES 64

static int build3(cz_fc_snap_sector *x, const uint64_t *idx, const cz_fc_d *old,
                  const cz_fc_d *data, const cz_fc_d *neu, size_t m, const cz_fc_d *def_r)
{
    static const cz_fc_d zero;
    cz_fc_tree_free(x->tree_d), cz_fc_tree_free(x->tree_r_old), cz_fc_tree_free(x->tree_r_new);
    x->tree_d = x->tree_r_old = x->tree_r_new = NULL;
    int rc = cz_fc_tree_build_sparse(&x->tree_d, CZ_FC_TREE_D, x->shape, idx, data, m, &zero,
                                     x->alloc);
    if (!rc)
        rc = cz_fc_tree_build_sparse(&x->tree_r_old, CZ_FC_TREE_RC, x->shape, idx, old, m, def_r,
                                     x->alloc);
    if (!rc)
        rc = cz_fc_tree_build_sparse(&x->tree_r_new, CZ_FC_TREE_RC, x->shape, idx, neu, m, def_r,
                                     x->alloc);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int cz_fc_snap_sector_synth(cz_fc_snap_sector **out, const cz_fc_shape *shape,
                            const cz_fc_snap_shape *u, uint64_t seed, unsigned h,
                            const cz_allocator *alloc)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (shape == NULL || u == NULL || ((uint64_t)1 << shape->log_nodes) != u->sector_nodes ||
        cz_fc_snap_h_select(u, h) == 0)
        return CZ_ERR_INVALID_ARG;
    cz_fc_snap_sector *x = calloc(1, sizeof *x);
    size_t cap = SYNTH_NODES + (size_t)u->partitions * u->challenges;
    uint64_t *idx = malloc(cap * sizeof *idx);
    cz_fc_d *vals = malloc(3 * cap * sizeof *vals);
    uint32_t *ch = malloc(u->challenges * sizeof *ch);
    if (x == NULL || idx == NULL || vals == NULL || ch == NULL) {
        free(x), free(idx), free(vals), free(ch);
        return CZ_ERR_NOMEM;
    }
    x->shape = shape;
    x->u = *u;
    x->h = h;
    x->sparse = true;
    x->alloc = alloc;
    cz_fc_d *old = vals, *data = vals + cap, *neu = vals + 2 * cap, def_r;
    cz_prng g;
    cz_prng_seed(&g, seed);
    cz_fr f;
    cz_fr_random(&f, &g);
    cz_fc_d_from_fr(&def_r, &f);
    cz_fr_random(&f, &g);
    cz_fc_d_from_fr(&x->comm_c, &f);
    /* distinct random nodes, sorted */
    size_t m = 0;
    while (m < SYNTH_NODES && m < u->sector_nodes) {
        uint64_t v = cz_prng_next(&g) % u->sector_nodes;
        bool dup = false;
        for (size_t i = 0; i < m; i++)
            dup |= idx[i] == v;
        if (!dup)
            idx[m++] = v;
    }
    qsort(idx, m, sizeof *idx, cmp_u64);
    for (size_t i = 0; i < m; i++) {
        cz_fr_random(&f, &g);
        cz_fc_d_from_fr(&old[i], &f);
        cz_prng_bytes(&g, data[i].b, 32);
        data[i].b[31] &= 0x3f;
    }
    /* TreeD and TreeR old give comm_d_new, comm_r_old and phi; then the
     * new labels of the listed nodes (the others stay L) */
    int rc = build3(x, idx, old, data, old, m, &def_r);
    if (!rc) {
        cz_fc_tree_root(x->tree_d, &x->comm_d_new);
        rc = comm_r(&x->comm_r_old, &x->comm_c, x->tree_r_old);
    }
    cz_fr phi, d, r, rho, lo, ld;
    if (!rc && (cz_fc_d_to_fr(&d, &x->comm_d_new) || cz_fc_d_to_fr(&r, &x->comm_r_old)))
        rc = CZ_ERR_NOT_CANONICAL;
    if (!rc)
        rc = cz_fc_snap_phi(&phi, &d, &r);
    for (size_t i = 0; i < m && !rc; i++) {
        rc = cz_fc_snap_rho(&rho, u, &phi, idx[i], h);
        if (!rc && (cz_fc_d_to_fr(&lo, &old[i]) || cz_fc_d_to_fr(&ld, &data[i])))
            rc = CZ_ERR_NOT_CANONICAL;
        if (!rc) {
            cz_fr_mul(&ld, &ld, &rho);
            cz_fr_add(&lo, &lo, &ld);
            cz_fc_d_from_fr(&neu[i], &lo);
        }
    }
    if (!rc)
        rc = build3(x, idx, old, data, neu, m, &def_r);
    if (!rc)
        rc = comm_r(&x->comm_r_new, &x->comm_c, x->tree_r_new);
    /* every partition's challenges listed too, with the default values */
    cz_fr rn;
    if (!rc && cz_fc_d_to_fr(&rn, &x->comm_r_new))
        rc = CZ_ERR_NOT_CANONICAL;
    size_t n = m;
    for (unsigned k = 0; k < u->partitions && !rc; k++) {
        rc = cz_fc_snap_challenges(u, &rn, k, ch);
        for (unsigned j = 0; j < u->challenges && !rc; j++) {
            bool dup = false;
            for (size_t i = 0; i < n && !dup; i++)
                dup = idx[i] == ch[j];
            if (dup)
                continue;
            static const cz_fc_d zero;
            idx[n] = ch[j], old[n] = def_r, data[n] = zero, neu[n] = def_r;
            n++;
        }
    }
    if (!rc)
        rc = build3(x, idx, old, data, neu, n, &def_r);
    if (!rc) { /* the listed defaults changed no root */
        cz_fc_d c;
        cz_fc_tree_root(x->tree_d, &c);
        if (memcmp(c.b, x->comm_d_new.b, 32))
            rc = CZ_ERR_BACKEND;
    }
    free(idx), free(vals), free(ch);
    if (rc) {
        cz_fc_snap_sector_free(x);
        return rc;
    }
    *out = x;
    return CZ_OK;
}

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

int cz_fc_snap_sector_prove(const cz_fc_snap_sector *x, unsigned k, cz_fc_snap_partition_proof *p,
                            const cz_allocator *alloc)
{
    if (x == NULL || p == NULL || k >= x->u.partitions)
        return CZ_ERR_INVALID_ARG;
    const cz_fc_snap_shape *u = &x->u;
    int rc = cz_fc_snap_proof_alloc(p, u, alloc);
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
        rc = cz_fc_snap_challenges(u, &r_new, k, ch);
    for (unsigned j = 0; j < u->challenges && !rc; j++) {
        cz_fc_snap_challenge_proof *cp = &p->challenges[j];
        rc = prove_one(x->tree_r_old, ch[j], &cp->r_old);
        if (!rc)
            rc = prove_one(x->tree_d, ch[j], &cp->d_new);
        if (!rc)
            rc = prove_one(x->tree_r_new, ch[j], &cp->r_new);
    }
    free(ch);
    if (rc)
        cz_fc_snap_proof_free(p);
    return rc;
}
