/* The EmptySectorUpdate (SnapDeals) circuit, constraint for constraint
 * with storage-proofs-update circuit.rs EmptySectorUpdateCircuit::
 * synthesize and its gadgets (gadgets.rs apex_por, gen_challenge_bits,
 * get_challenge_high_bits, label_r_new; storage-proofs-core por.rs
 * por_no_challenge_input), in the source's allocation order:
 *
 *   k_and_h_select (input), its P + 6 bits and their decomposition, the
 *   packed partition; comm_r_old, comm_d_new, comm_r_new (inputs); phi;
 *   comm_c, root_r_old, root_r_new, the apex leaves, the partition path's
 *   P siblings; comm_r_old = Pmerkle2(comm_c, root_r_old), the same for
 *   new; apex_por (the apex tree's 2^A - 1 SHA hashes, then P binary SHA
 *   levels up to comm_d_new); gen_challenge_bits (per digest: its index,
 *   Pgen, 255 bits); then per challenge: c_high, rho, leaf_r_old,
 *   leaf_d_new, label_r_new, TreeR old's siblings and path, TreeR new's,
 *   the apex leaf selected, TreeD's siblings to it and that path.
 *
 * Blank (pub and p NULL) every value is zero, as bellperson's blank
 * circuit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/gadgets.h"
#include "cuzk/poseidon.h"
#include "filecoin/porep/circuit.h"
#include "filecoin/snap/circuit.h"
#include "filecoin/snap/internal.h"


static cz_fr d_fr(const cz_fc_d *x)
{
    cz_fr r = CZ_FR_ZERO;
    if (x)
        (void)cz_fc_d_to_fr(&r, x); /* the reader checked them canonical */
    return r;
}

static cz_num alloc_d(cz_cs *cs, const cz_fc_d *x)
{
    cz_fr v = d_fr(x);
    return cz_num_alloc(cs, &v);
}

/* Pgen on nums: Poseidon arity 2 with the 2^40 tag. */
static int pgen(cz_cs *cs, const cz_num *a, const cz_num *b, cz_num *out)
{
    cz_fr tag;
    cz_poseidon_custom_tag(&tag, 1);
    cz_var v[2] = {a->var, b->var}, r;
    int rc = cz_poseidon_circuit_tagged(cs, v, 2, &tag, &r);
    if (rc)
        return rc;
    out->var = r;
    return cz_fc_snap_gen_randomness(&out->value, &a->value, &b->value);
}

/* por_no_challenge_input: levels of the given arities over the supplied
 * bits (least significant first), each an insert of cur among the level's
 * siblings and the tree's hash, then computed root * 1 = root. */
static int por(cz_cs *cs, bool sha, const unsigned *arity, unsigned levels, const cz_bool *bits,
               const cz_num *leaf, cz_num *const *sib, const cz_num *root)
{
    cz_num cur = *leaf;
    unsigned at = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned a = arity[l], nb = 0;
        while ((1u << nb) < a)
            nb++;
        cz_num ins[16];
        int rc = cz_insert(cs, &cur, bits + at, nb, sib[l], ins);
        at += nb;
        if (!rc)
            rc = sha ? cz_fc_sha256_hash2_num(cs, &ins[0], &ins[1], &cur)
                     : cz_fc_poseidon_num(cs, ins, a, &cur);
        if (rc)
            return rc;
    }
    cz_num_enforce_equal(cs, &cur, root);
    return CZ_OK;
}

/* The siblings of proof m's levels [from, to) allocated in order (m NULL:
 * zeros); level l's into sib[l - from], arity[l - from] its arity. */
static void alloc_path(cz_cs *cs, const cz_fc_snap_shape *u, cz_fc_tree_kind k,
                       const cz_fc_merkle_proof *m, unsigned from, unsigned to, cz_num *store,
                       cz_num **sib, unsigned *arity)
{
    for (unsigned l = from; l < to; l++) {
        unsigned a = cz_fc_snap_tree_arity(u, k, l);
        arity[l - from] = a;
        sib[l - from] = store;
        for (unsigned j = 0; j + 1 < a; j++)
            *store++ = alloc_d(cs, m ? &m->levels[l].hashes[j] : NULL);
    }
}

int cz_snap_check(const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                  const cz_fc_snap_partition_proof *p, char *err, size_t errlen)
{
    if (u == NULL || (p != NULL && pub == NULL)) {
        cz_msgf(err, errlen, "update circuit: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    if (pub && (pub->k >= u->partitions || cz_fc_snap_h_select(u, pub->h) == 0)) {
        cz_msgf(err, errlen, "update circuit: partition %u of %u, h %u", pub->k, u->partitions,
                pub->h);
        return CZ_ERR_INVALID_ARG;
    }
    if (p && !cz_fc_snap_proof_shaped(p, u)) {
        cz_msgf(err, errlen, "update circuit: the partition proof is not of the sector's shape");
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

void cz_snap_header_free(cz_snap_header *h)
{
    free(h->apex);
    free(h->cbits);
    h->apex = NULL;
    h->cbits = NULL;
}

int cz_snap_header_synth(cz_cs *cs, const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                         const cz_fc_snap_partition_proof *p, cz_snap_header *h)
{
    const unsigned B = u->node_bits, P = u->partition_bits;
    memset(h, 0, sizeof *h);
    h->apex = malloc(u->apex_leaves * sizeof *h->apex);
    h->cbits = malloc((size_t)u->digests * CZ_FR_NUM_BITS * sizeof *h->cbits);
    cz_num *ppath = malloc((P + 1) * sizeof *ppath);
    cz_num *row = malloc(u->apex_leaves * sizeof *row);
    if (h->apex == NULL || h->cbits == NULL || ppath == NULL || row == NULL) {
        free(ppath);
        free(row);
        return CZ_ERR_NOMEM;
    }

    /* k_and_h_select, its bits, the partition */
    uint64_t khv = pub ? cz_fc_snap_k_and_h(u, pub->k, pub->h) : 0;
    cz_fr v;
    cz_fr_from_u64(&v, khv);
    cz_num kh = cz_num_alloc(cs, &v);
    cz_num_inputize(cs, &kh);
    cz_lc lc;
    cz_lc_init(&lc);
    cz_fr pow2 = CZ_FR_ONE;
    for (unsigned i = 0; i < P + 6; i++) {
        h->khb[i] = cz_abit_alloc(cs, (khv >> i) & 1);
        cz_bool_lc(&lc, cz_bool_is(h->khb[i]), &pow2);
        cz_fr_add(&pow2, &pow2, &pow2);
    }
    {
        cz_lc one, kl;
        cz_lc_init(&one), cz_lc_init(&kl);
        cz_lc_add_term(&one, CZ_CS_ONE, &CZ_FR_ONE);
        cz_lc_add_term(&kl, kh.var, &CZ_FR_ONE);
        cz_cs_enforce(cs, &lc, &one, &kl);
        cz_lc_free(&one), cz_lc_free(&kl);
    }
    cz_lc_free(&lc);
    cz_bool pbits[CZ_SNAP_MAX_BITS];
    for (unsigned i = 0; i < P; i++)
        pbits[i] = cz_bool_is(h->khb[i]);
    cz_num partition = cz_pack_bits(cs, pbits, P);

    /* the public commitments, phi */
    cz_num comm_r_old = alloc_d(cs, pub ? &pub->comm_r_old : NULL);
    cz_num_inputize(cs, &comm_r_old);
    cz_num comm_d_new = alloc_d(cs, pub ? &pub->comm_d_new : NULL);
    cz_num_inputize(cs, &comm_d_new);
    cz_num comm_r_new = alloc_d(cs, pub ? &pub->comm_r_new : NULL);
    cz_num_inputize(cs, &comm_r_new);
    int rc = pgen(cs, &comm_d_new, &comm_r_old, &h->phi);

    /* the private inputs besides the challenges' paths */
    const cz_fc_snap_challenge_proof *c0 = p ? &p->challenges[0] : NULL;
    cz_num comm_c = alloc_d(cs, p ? &p->comm_c : NULL);
    h->root_r_old = alloc_d(cs, c0 ? &c0->r_old.root : NULL);
    h->root_r_new = alloc_d(cs, c0 ? &c0->r_new.root : NULL);
    for (unsigned i = 0; i < u->apex_leaves; i++)
        h->apex[i] = alloc_d(cs, p ? &p->apex_leafs[i] : NULL);
    for (unsigned i = 0; i < P; i++)
        ppath[i] = alloc_d(cs, c0 ? &c0->d_new.levels[B - P + i].hashes[0] : NULL);

    /* comm_r = Pmerkle2(comm_c, root_r), old and new */
    for (int i = 0; i < 2 && !rc; i++) {
        cz_num pair[2] = {comm_c, i ? h->root_r_new : h->root_r_old}, calc;
        rc = cz_fc_poseidon_num(cs, pair, 2, &calc);
        if (!rc)
            cz_num_enforce_equal(cs, &calc, i ? &comm_r_new : &comm_r_old);
    }

    /* apex_por: the apex tree, then the partition path to comm_d_new */
    memcpy(row, h->apex, u->apex_leaves * sizeof *row);
    for (unsigned w = u->apex_leaves; w > 1 && !rc; w /= 2)
        for (unsigned e = 0; e < w / 2 && !rc; e++)
            rc = cz_fc_sha256_hash2_num(cs, &row[2 * e], &row[2 * e + 1], &row[e]);
    if (!rc) {
        unsigned ar[CZ_SNAP_MAX_BITS];
        cz_num *ps[CZ_SNAP_MAX_BITS];
        for (unsigned i = 0; i < P; i++)
            ar[i] = 2, ps[i] = &ppath[i];
        rc = por(cs, true, ar, P, pbits, &row[0], ps, &comm_d_new);
    }
    free(row);
    free(ppath);

    /* gen_challenge_bits: D digests of per_digest challenges of R bits */
    for (unsigned j = 0; j < u->digests && !rc; j++) {
        cz_fr dv, t;
        cz_fr_from_u64(&t, u->digests);
        cz_fr_mul(&dv, &partition.value, &t);
        cz_fr_from_u64(&t, j);
        cz_fr_add(&dv, &dv, &t);
        cz_num di = cz_num_alloc(cs, &dv);
        cz_lc a, one, c;
        cz_lc_init(&a), cz_lc_init(&one), cz_lc_init(&c);
        cz_fr_from_u64(&t, u->digests);
        cz_lc_add_term(&a, partition.var, &t);
        cz_fr_from_u64(&t, j);
        cz_lc_add_term(&a, CZ_CS_ONE, &t);
        cz_lc_add_term(&one, CZ_CS_ONE, &CZ_FR_ONE);
        cz_lc_add_term(&c, di.var, &CZ_FR_ONE);
        cz_cs_enforce(cs, &a, &one, &c);
        cz_lc_free(&a), cz_lc_free(&one), cz_lc_free(&c);
        cz_num digest;
        rc = pgen(cs, &comm_r_new, &di, &digest);
        if (!rc)
            cz_snap_num_to_bits(cs, &digest, h->cbits + (size_t)j * CZ_FR_NUM_BITS);
    }
    return rc;
}

int cz_snap_challenge(cz_cs *cs, const cz_fc_snap_shape *u, const cz_snap_header *h,
                      const cz_fc_snap_challenge_proof *cp, unsigned c)
{
    const unsigned B = u->node_bits, P = u->partition_bits, A = u->apex_bits, R = B - P;
    const unsigned lr = cz_fc_snap_tree_levels(u, CZ_FC_TREE_RC), to_apex = B - P - A;
    size_t rc_sibs = 0;
    for (unsigned l = 0; l < lr; l++)
        rc_sibs += cz_fc_snap_tree_arity(u, CZ_FC_TREE_RC, l) - 1;
    cz_num *store = malloc((2 * rc_sibs + B + 1) * sizeof *store);
    if (store == NULL)
        return CZ_ERR_NOMEM;
    size_t hs[6];
    for (int i = 0; i < 6; i++)
        hs[i] = u->hs[i];
    unsigned dj = c / u->per_digest, ci = c % u->per_digest;
    cz_abit cb[CZ_SNAP_MAX_BITS];
    memcpy(cb, h->cbits + (size_t)dj * CZ_FR_NUM_BITS + (size_t)ci * R, R * sizeof *cb);
    memcpy(cb + R, h->khb, P * sizeof *cb);
    cz_bool cbool[CZ_SNAP_MAX_BITS];
    for (unsigned i = 0; i < B; i++)
        cbool[i] = cz_bool_is(cb[i]);
    cz_num c_high, rho;
    int rc = cz_snap_challenge_high_bits(cs, cb, B, h->khb + P, hs, 6, &c_high);
    if (!rc)
        rc = pgen(cs, &h->phi, &c_high, &rho);
    if (rc) {
        free(store);
        return rc;
    }
    cz_num leaf_r_old = alloc_d(cs, cp ? &cp->r_old.leaf : NULL);
    cz_num leaf_d_new = alloc_d(cs, cp ? &cp->d_new.leaf : NULL);
    cz_num leaf_r_new = cz_snap_label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
    unsigned ar[CZ_SNAP_MAX_BITS];
    cz_num *sib[CZ_SNAP_MAX_BITS];
    alloc_path(cs, u, CZ_FC_TREE_RC, cp ? &cp->r_old : NULL, 0, lr, store, sib, ar);
    rc = por(cs, false, ar, lr, cbool, &leaf_r_old, sib, &h->root_r_old);
    if (!rc) {
        alloc_path(cs, u, CZ_FC_TREE_RC, cp ? &cp->r_new : NULL, 0, lr, store + rc_sibs, sib, ar);
        rc = por(cs, false, ar, lr, cbool, &leaf_r_new, sib, &h->root_r_new);
    }
    cz_num apex_leaf;
    if (!rc)
        rc = cz_select(cs, h->apex, cbool + to_apex, A, &apex_leaf);
    if (!rc) {
        alloc_path(cs, u, CZ_FC_TREE_D, cp ? &cp->d_new : NULL, 0, to_apex, store + 2 * rc_sibs,
                   sib, ar);
        rc = por(cs, true, ar, to_apex, cbool, &leaf_d_new, sib, &apex_leaf);
    }
    free(store);
    return rc;
}

int cz_fc_snap_synthesize(cz_cs *cs, const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                          const cz_fc_snap_partition_proof *p, char *err, size_t errlen)
{
    if (cs == NULL) {
        cz_msgf(err, errlen, "update circuit: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_snap_check(u, pub, p, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_snap_header h;
    rc = cz_snap_header_synth(cs, u, pub, p, &h);
    for (unsigned c = 0; c < u->challenges && !rc; c++)
        rc = cz_snap_challenge(cs, u, &h, p ? &p->challenges[c] : NULL, c);
    cz_snap_header_free(&h);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "update circuit: %s", cz_strerror(rc));
    return rc;
}
