/* The EmptySectorUpdate vanilla verifier (include/cuzk/filecoin/snap.h;
 * storage-proofs-update vanilla.rs: EmptySectorUpdate::verify and
 * ChallengeProof::verify_merkle_proofs), check for check in the source's
 * order, each failure named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "filecoin/core/internal.h"
#include "filecoin/snap/internal.h"

/* One challenge's three paths (verify_merkle_proofs). */
static int check_paths(const cz_fc_snap_challenge_proof *cp, uint32_t c, const cz_fc_d *root_old,
                       const cz_fc_d *comm_d_new, const cz_fc_d *root_new, unsigned j, char *err,
                       size_t errlen)
{
    static const char *const name[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    const cz_fc_merkle_proof *m[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
    const cz_fc_d *root[3] = {root_old, comm_d_new, root_new};
    for (int i = 0; i < 3; i++) {
        uint64_t at = cz_fc_proof_index(m[i]);
        if (at != c)
            return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                       "challenge %u (node %u): %s's path leads to node %llu", j, c, name[i],
                       (unsigned long long)at);
        if (!cz_fc_d_same(&m[i]->root, root[i]))
            return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                       "challenge %u (node %u): %s's root is not %s", j, c, name[i],
                       i == 1 ? "comm_d_new" : "challenge 0's root");
        cz_fc_d r;
        int rc = cz_fc_proof_root(m[i], i == 1 ? CZ_FC_TREE_D : CZ_FC_TREE_RC, &r);
        if (rc)
            return cz_fail(err, errlen, rc, "challenge %u (node %u): %s holds a value that is not "
                       "a field element", j, c, name[i]);
        if (!cz_fc_d_same(&r, &m[i]->root))
            return cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                       "challenge %u (node %u): %s does not hash up to its root", j, c, name[i]);
    }
    return CZ_OK;
}

int cz_fc_snap_verify(const cz_fc_snap_shape *s, const cz_fc_snap_public *pub,
                      const cz_fc_snap_partition_proof *p, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (s == NULL || pub == NULL || p == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "update verify: NULL argument");
    if (pub->k >= s->partitions)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                   "update verify: partition %u, the sector has %u", pub->k, s->partitions);
    if (cz_fc_snap_h_select(s, pub->h) == 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "update verify: h = %u is not allowed",
                   pub->h);
    if (!cz_fc_snap_proof_shaped(p, s))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                   "update verify: the partition proof (%u apex leaves, %u challenge proofs) is "
                   "not of the sector's shape (%u and %u)",
                   p->n_apex, p->n_challenges, s->apex_leaves, s->challenges);
    /* the apex tree: row 0 the leaves, row i + 1 the hashes of row i */
    unsigned A = s->apex_bits;
    cz_fc_d *apex = malloc(2 * (size_t)s->apex_leaves * sizeof *apex);
    if (apex == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "update verify: out of memory");
    cz_fc_d *row[16];
    row[0] = apex;
    memcpy(apex, p->apex_leafs, s->apex_leaves * sizeof *apex);
    for (unsigned i = 0; i < A; i++) {
        size_t w = s->apex_leaves >> i;
        row[i + 1] = row[i] + w;
        for (size_t e = 0; e < w / 2; e++)
            cz_fc_sha256_node(&row[i + 1][e], &row[i][2 * e], &row[i][2 * e + 1]);
    }
    int rc = CZ_OK;
    /* the commitments from challenge 0's roots */
    cz_fc_d root_old = p->challenges[0].r_old.root, root_new = p->challenges[0].r_new.root;
    cz_fc_d in[2] = {p->comm_c, root_old}, calc;
    rc = cz_fc_poseidon(&calc, in, 2);
    if (!rc && !cz_fc_d_same(&calc, &pub->comm_r_old))
        rc = cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                 "update verify: Poseidon(comm_c, root_r_old) is not comm_r_old");
    in[1] = root_new;
    if (!rc)
        rc = cz_fc_poseidon(&calc, in, 2);
    if (!rc && !cz_fc_d_same(&calc, &pub->comm_r_new))
        rc = cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                 "update verify: Poseidon(comm_c, root_r_new) is not comm_r_new");
    if (rc == CZ_ERR_NOT_CANONICAL)
        cz_fail(err, errlen, rc, "update verify: comm_c or a root is not a field element");
    cz_fr phi, fr_d, fr_r_old, fr_r_new;
    if (!rc && (cz_fc_d_to_fr(&fr_d, &pub->comm_d_new) || cz_fc_d_to_fr(&fr_r_old, &pub->comm_r_old) ||
                cz_fc_d_to_fr(&fr_r_new, &pub->comm_r_new)))
        rc = cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                 "update verify: a public commitment is not a field element");
    if (!rc)
        rc = cz_fc_snap_phi(&phi, &fr_d, &fr_r_old);
    uint32_t *ch = malloc(s->challenges * sizeof *ch);
    if (!rc && ch == NULL)
        rc = cz_fail(err, errlen, CZ_ERR_NOMEM, "update verify: out of memory");
    if (!rc)
        rc = cz_fc_snap_challenges(s, &fr_r_new, pub->k, ch);
    unsigned apex_height = s->node_bits - s->partition_bits - A;
    for (unsigned j = 0; j < s->challenges && !rc; j++) {
        const cz_fc_snap_challenge_proof *cp = &p->challenges[j];
        uint32_t c = ch[j];
        rc = check_paths(cp, c, &root_old, &pub->comm_d_new, &root_new, j, err, errlen);
        if (rc)
            break;
        /* the encoding: label_r_new = label_r_old + label_d_new * rho */
        cz_fr lo, ld, ln, rho, want;
        if (cz_fc_d_to_fr(&lo, &cp->r_old.leaf) || cz_fc_d_to_fr(&ld, &cp->d_new.leaf) ||
            cz_fc_d_to_fr(&ln, &cp->r_new.leaf)) {
            rc = cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                     "challenge %u (node %u): a leaf is not a field element", j, c);
            break;
        }
        rc = cz_fc_snap_rho(&rho, s, &phi, c, pub->h);
        if (rc)
            break;
        cz_fr_mul(&want, &ld, &rho);
        cz_fr_add(&want, &want, &lo);
        if (!cz_fr_equal(&want, &ln)) {
            rc = cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                     "challenge %u (node %u): proof_r_new's leaf is not label_r_old + "
                     "label_d_new * rho",
                     j, c);
            break;
        }
        /* the apex path: each sibling is in its apex-tree row */
        for (unsigned i = 0; i < A && !rc; i++) {
            const cz_fc_d *sib = &cp->d_new.levels[apex_height + i].hashes[0];
            size_t w = s->apex_leaves >> i, e = 0;
            while (e < w && !cz_fc_d_same(&row[i][e], sib))
                e++;
            if (e == w)
                rc = cz_fail(err, errlen, CZ_ERR_BAD_PROOF,
                         "challenge %u (node %u): proof_d_new's sibling at level %u is not in "
                         "apex-tree row %u",
                         j, c, apex_height + i, i);
        }
    }
    free(ch);
    free(apex);
    return rc;
}
