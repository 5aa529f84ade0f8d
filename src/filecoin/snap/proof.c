/* The EmptySectorUpdate vanilla PartitionProof in bincode 1
 * (include/cuzk/filecoin/snap.h): storage-proofs-update vanilla.rs
 * PartitionProof / ChallengeProof, storage-proofs-core merkle/proof.rs
 * MerkleProof / ProofData / SingleProof / SubProof / TopProof /
 * InclusionPath / PathElement, serialised by serde's derive with bincode's
 * default options (fixed-width little-endian integers, u32 variant
 * indices, u64 lengths, usize as u64, [u8; 32] domains as 32 raw bytes).
 *
 * The shape fixes every count, so the reader checks each against it as it
 * goes and names the first field that differs; the proof's arrays are
 * carved from one block whose size is known before reading.  The bincode
 * reads and writes, MerkleProofs included, are core/bincode.c's. */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "filecoin/core/bincode.h"
#include "filecoin/snap/internal.h"

/* ------------------------------------------------------------- shapes --- */

static unsigned log2u(unsigned x)
{
    unsigned l = 0;
    while ((1u << (l + 1)) <= x)
        l++;
    return l;
}

static unsigned base_levels(const cz_fc_snap_shape *s)
{
    unsigned sub = s->tree_r[1], top = s->tree_r[2];
    return (s->node_bits - (sub ? log2u(sub) : 0) - (top ? log2u(top) : 0)) / 3;
}

cz_fc_proof_form cz_fc_snap_tree_form(const cz_fc_snap_shape *s, cz_fc_tree_kind k)
{
    if (k == CZ_FC_TREE_D)
        return CZ_FC_PROOF_SINGLE;
    return s->tree_r[2] ? CZ_FC_PROOF_TOP : s->tree_r[1] ? CZ_FC_PROOF_SUB : CZ_FC_PROOF_SINGLE;
}

unsigned cz_fc_snap_tree_levels(const cz_fc_snap_shape *s, cz_fc_tree_kind k)
{
    if (k == CZ_FC_TREE_D)
        return s->node_bits;
    return base_levels(s) + (s->tree_r[1] != 0) + (s->tree_r[2] != 0);
}

unsigned cz_fc_snap_tree_arity(const cz_fc_snap_shape *s, cz_fc_tree_kind k, unsigned level)
{
    if (level >= cz_fc_snap_tree_levels(s, k))
        return 0;
    if (k == CZ_FC_TREE_D)
        return 2;
    unsigned b = base_levels(s);
    if (level < b)
        return 8;
    if (level == b && s->tree_r[1])
        return s->tree_r[1];
    return s->tree_r[2];
}

/* Hashes of one proof of kind k: sum over levels of arity - 1. */
static size_t proof_hashes(const cz_fc_snap_shape *s, cz_fc_tree_kind k)
{
    size_t h = 0;
    for (unsigned l = 0; l < cz_fc_snap_tree_levels(s, k); l++)
        h += cz_fc_snap_tree_arity(s, k, l) - 1;
    return h;
}

/* Bytes of one encoded MerkleProof of kind k. */
static size_t proof_bytes(const cz_fc_snap_shape *s, cz_fc_tree_kind k)
{
    return cz_fc_bc_proof_bytes(cz_fc_snap_tree_form(s, k), cz_fc_snap_tree_levels(s, k),
                                proof_hashes(s, k));
}

size_t cz_fc_snap_proof_bytes(const cz_fc_snap_shape *s)
{
    size_t per = 2 * proof_bytes(s, CZ_FC_TREE_RC) + proof_bytes(s, CZ_FC_TREE_D);
    return 32 + 8 + 32 * (size_t)s->apex_leaves + 8 + per * s->challenges;
}

/* ------------------------------------------------------------- memory --- */

/* The block: challenges, then every level of every proof, then every
 * hash, then the apex leaves. */
static size_t block_bytes(const cz_fc_snap_shape *s)
{
    size_t lv = 2 * (size_t)cz_fc_snap_tree_levels(s, CZ_FC_TREE_RC) +
                cz_fc_snap_tree_levels(s, CZ_FC_TREE_D);
    size_t hs = 2 * proof_hashes(s, CZ_FC_TREE_RC) + proof_hashes(s, CZ_FC_TREE_D);
    return s->challenges * (sizeof(cz_fc_snap_challenge_proof) + lv * sizeof(cz_fc_path_el) +
                            hs * sizeof(cz_fc_d)) +
           s->apex_leaves * sizeof(cz_fc_d);
}

/* Points proof m's levels at *lv and their hashes at *hs (advancing both),
 * with the shape's form, level count and arities. */
static void lay_out(cz_fc_merkle_proof *m, const cz_fc_snap_shape *s, cz_fc_tree_kind k,
                    cz_fc_path_el **lv, cz_fc_d **hs)
{
    m->form = cz_fc_snap_tree_form(s, k);
    m->n_levels = cz_fc_snap_tree_levels(s, k);
    m->levels = *lv;
    for (unsigned l = 0; l < m->n_levels; l++) {
        cz_fc_path_el *e = &(*lv)[l];
        e->arity = (uint8_t)cz_fc_snap_tree_arity(s, k, l);
        e->index = 0;
        e->hashes = *hs;
        *hs += e->arity - 1;
    }
    *lv += m->n_levels;
}

int cz_fc_snap_proof_alloc(cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s,
                           const cz_allocator *alloc)
{
    if (p == NULL || s == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(p, 0, sizeof *p);
    if (cz_fc_block_alloc(&p->block, alloc, CZ_BUF_INPUT, block_bytes(s)) != CZ_OK)
        return CZ_ERR_NOMEM;
    char *m = p->block.mem;
    memset(m, 0, p->block.bytes);
    p->n_challenges = s->challenges;
    p->n_apex = s->apex_leaves;
    p->challenges = (cz_fc_snap_challenge_proof *)m;
    size_t lv = 2 * (size_t)cz_fc_snap_tree_levels(s, CZ_FC_TREE_RC) +
                cz_fc_snap_tree_levels(s, CZ_FC_TREE_D);
    cz_fc_path_el *levels = (cz_fc_path_el *)(p->challenges + s->challenges);
    cz_fc_d *hashes = (cz_fc_d *)(levels + lv * s->challenges);
    for (unsigned c = 0; c < s->challenges; c++) {
        cz_fc_snap_challenge_proof *cp = &p->challenges[c];
        lay_out(&cp->r_old, s, CZ_FC_TREE_RC, &levels, &hashes);
        lay_out(&cp->d_new, s, CZ_FC_TREE_D, &levels, &hashes);
        lay_out(&cp->r_new, s, CZ_FC_TREE_RC, &levels, &hashes);
    }
    p->apex_leafs = hashes;
    return CZ_OK;
}

void cz_fc_snap_proof_free(cz_fc_snap_partition_proof *p)
{
    if (p == NULL)
        return;
    cz_fc_block_free(&p->block);
    memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------- reader --- */

static const cz_fc_bc_style STYLE = {"update partition proof: ", true, false};

int cz_fc_snap_proof_read(cz_fc_snap_partition_proof *out, const cz_fc_snap_shape *s,
                          const uint8_t *buf, size_t len, const cz_allocator *alloc, char *err,
                          size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out == NULL || s == NULL || (buf == NULL && len > 0))
        return cz_fc_bc_refuse(err, errlen, &STYLE, CZ_ERR_INVALID_ARG, "NULL argument");
    int rc = cz_fc_snap_proof_alloc(out, s, alloc);
    if (rc)
        return cz_fc_bc_refuse(err, errlen, &STYLE, rc, "out of memory (%zu bytes)",
                               block_bytes(s));
    cz_fc_bc_rd r = {buf, len, 0, err, errlen, &STYLE, "comm_c"};
    rc = cz_fc_bc_get_d(&r, &out->comm_c, CZ_FC_TREE_RC);
    if (!rc) {
        cz_fc_bc_name(&r, 0, "apex_leafs");
        rc = cz_fc_bc_get_len(&r, s->apex_leaves, "apex leaves");
    }
    for (unsigned i = 0; i < s->apex_leaves && !rc; i++) {
        cz_fc_bc_name(&r, 0, "apex_leafs[%u]", i);
        rc = cz_fc_bc_get_d(&r, &out->apex_leafs[i], CZ_FC_TREE_D);
    }
    if (!rc) {
        cz_fc_bc_name(&r, 0, "challenge_proofs");
        rc = cz_fc_bc_get_len(&r, s->challenges, "challenge proofs");
    }
    static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    for (unsigned c = 0; c < s->challenges && !rc; c++) {
        cz_fc_snap_challenge_proof *cp = &out->challenges[c];
        cz_fc_merkle_proof *m[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
        for (int j = 0; j < 3 && !rc; j++) {
            cz_fc_bc_name(&r, 0, "challenge_proofs[%u].%s", c, names[j]);
            rc = cz_fc_bc_get_proof(&r, m[j], j == 1 ? CZ_FC_TREE_D : CZ_FC_TREE_RC);
        }
    }
    if (!rc)
        rc = cz_fc_bc_get_end(&r);
    if (rc)
        cz_fc_snap_proof_free(out);
    return rc;
}

/* ------------------------------------------------------------- writer --- */

/* Does m have shape s's form, levels and arities for kind k? */
static bool merkle_shaped(const cz_fc_merkle_proof *m, const cz_fc_snap_shape *s, cz_fc_tree_kind k)
{
    if (m->form != cz_fc_snap_tree_form(s, k) || m->n_levels != cz_fc_snap_tree_levels(s, k) ||
        m->levels == NULL)
        return false;
    for (unsigned l = 0; l < m->n_levels; l++)
        if (m->levels[l].arity != cz_fc_snap_tree_arity(s, k, l) || m->levels[l].hashes == NULL ||
            m->levels[l].index >= m->levels[l].arity)
            return false;
    return true;
}

bool cz_fc_snap_proof_shaped(const cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s)
{
    if (p->n_apex != s->apex_leaves || p->n_challenges != s->challenges || p->apex_leafs == NULL ||
        p->challenges == NULL)
        return false;
    for (unsigned c = 0; c < s->challenges; c++) {
        const cz_fc_snap_challenge_proof *cp = &p->challenges[c];
        if (!merkle_shaped(&cp->r_old, s, CZ_FC_TREE_RC) ||
            !merkle_shaped(&cp->d_new, s, CZ_FC_TREE_D) ||
            !merkle_shaped(&cp->r_new, s, CZ_FC_TREE_RC))
            return false;
    }
    return true;
}

int cz_fc_snap_proof_write(uint8_t *out, size_t cap, const cz_fc_snap_partition_proof *p,
                           const cz_fc_snap_shape *s)
{
    if (out == NULL || p == NULL || s == NULL || !cz_fc_snap_proof_shaped(p, s))
        return CZ_ERR_INVALID_ARG;
    if (cap < cz_fc_snap_proof_bytes(s))
        return CZ_ERR_BAD_LENGTH;
    cz_fc_bc_wr w = {out, 0};
    cz_fc_bc_put_d(&w, &p->comm_c);
    cz_fc_bc_put_u64(&w, s->apex_leaves);
    for (unsigned i = 0; i < s->apex_leaves; i++)
        cz_fc_bc_put_d(&w, &p->apex_leafs[i]);
    cz_fc_bc_put_u64(&w, s->challenges);
    for (unsigned c = 0; c < s->challenges; c++) {
        cz_fc_bc_put_proof(&w, &p->challenges[c].r_old);
        cz_fc_bc_put_proof(&w, &p->challenges[c].d_new);
        cz_fc_bc_put_proof(&w, &p->challenges[c].r_new);
    }
    return CZ_OK;
}
