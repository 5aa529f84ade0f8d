/* The PoSt vanilla sector proof in bincode 1 (cuzk/filecoin/post.h; docs/post.md
 * 4.1): filecoin-proofs types/mod.rs FallbackPoStSectorProof {sector_id,
 * comm_r, vanilla_proof}, storage-proofs-post fallback/vanilla.rs Proof
 * {sectors} and SectorProof {inclusion_proofs, comm_c, comm_r_last},
 * storage-proofs-core merkle/proof.rs MerkleProof {data: ProofData} with
 * ProofData::Single(SingleProof {root, leaf, path}) | Sub(SubProof
 * {base_proof, sub_proof, root, leaf}) | Top(TopProof {base_proof,
 * sub_proof, top_proof, root, leaf}), InclusionPath {path} and
 * PathElement {hashes, index}; serde's derive with bincode's default
 * options (fixed-width little-endian integers, u32 variant indices, u64
 * lengths, usize as u64, PoseidonDomain and SectorId newtypes as their
 * inner value).
 *
 * As for the update proof (snap/proof.c), the shape fixes every count:
 * the reader checks each as it goes and names the first field that
 * differs by its serde path and the offset of its first byte (also for
 * a field cut short), and the arrays are carved from one block whose
 * size is known before reading; the bincode reads and writes, MerkleProofs
 * included, are core/bincode.c's. */
#include <string.h>

#include "cuzk/err.h"
#include "filecoin/core/bincode.h"
#include "filecoin/post/vanilla.h"

#define TREE_LEVELS_MAX 40 /* core/merkle.c's MAX_LEVELS */

/* ------------------------------------------------------------- shapes --- */

static unsigned levels_of(const cz_post_shape *s)
{
    return cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree);
}

static unsigned arity_of(const cz_post_shape *s, unsigned l)
{
    return cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, l);
}

bool cz_post_vanilla_shape_ok(const cz_post_shape *s)
{
    unsigned n = levels_of(s);
    if (cz_post_blob_challenges(s) == 0 || n == 0 || n > TREE_LEVELS_MAX || s->tree.log_nodes > 62)
        return false;
    uint64_t leaves = 1;
    for (unsigned l = 0; l < n; l++) {
        unsigned a = arity_of(s, l);
        if (a < 2 || a > 8 || leaves > ((uint64_t)1 << 62) / a)
            return false;
        leaves *= a;
    }
    return leaves == (uint64_t)1 << s->tree.log_nodes;
}

/* Siblings of one inclusion proof: sum over levels of arity - 1. */
static size_t proof_hashes(const cz_post_shape *s)
{
    size_t h = 0;
    for (unsigned l = 0; l < levels_of(s); l++)
        h += arity_of(s, l) - 1;
    return h;
}

/* Bytes of one encoded MerkleProof. */
static size_t proof_bytes(const cz_post_shape *s)
{
    return cz_fc_bc_proof_bytes(cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree), levels_of(s),
                                proof_hashes(s));
}

/* sector_id, comm_r, the sectors count, the inclusion proofs count, the
 * proofs, comm_c and comm_r_last: 120 + n x proof_bytes. */
size_t cz_post_vanilla_bytes(const cz_post_shape *s)
{
    return 8 + 32 + 8 + 8 + (size_t)cz_post_blob_challenges(s) * proof_bytes(s) + 64;
}

/* ------------------------------------------------------------- memory --- */

/* The block: the inclusion proofs, then every proof's levels, then every
 * level's siblings. */
static size_t block_bytes(const cz_post_shape *s)
{
    return cz_post_blob_challenges(s) *
           (sizeof(cz_fc_merkle_proof) + levels_of(s) * sizeof(cz_fc_path_el) +
            proof_hashes(s) * sizeof(cz_fc_d));
}

int cz_post_vanilla_alloc(cz_post_vanilla *v, const cz_post_shape *s, const cz_allocator *alloc)
{
    if (v == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(v, 0, sizeof *v);
    if (s == NULL || !cz_post_vanilla_shape_ok(s))
        return CZ_ERR_INVALID_ARG;
    if (cz_fc_block_alloc(&v->block, alloc, CZ_BUF_INPUT, block_bytes(s)) != CZ_OK)
        return CZ_ERR_NOMEM;
    char *m = v->block.mem;
    memset(m, 0, v->block.bytes);
    unsigned n = cz_post_blob_challenges(s), nl = levels_of(s);
    cz_fc_merkle_proof *inc = (cz_fc_merkle_proof *)m;
    cz_fc_path_el *lv = (cz_fc_path_el *)(inc + n);
    cz_fc_d *hs = (cz_fc_d *)(lv + (size_t)n * nl);
    for (unsigned i = 0; i < n; i++) {
        inc[i].form = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
        inc[i].n_levels = nl;
        inc[i].levels = lv;
        for (unsigned l = 0; l < nl; l++) {
            lv[l].arity = (uint8_t)arity_of(s, l);
            lv[l].hashes = hs;
            hs += lv[l].arity - 1;
        }
        lv += nl;
    }
    v->proof.inclusion = inc;
    v->proof.n_inclusion = n;
    return CZ_OK;
}

void cz_post_vanilla_free(cz_post_vanilla *v)
{
    if (v == NULL)
        return;
    cz_fc_block_free(&v->block);
    memset(v, 0, sizeof *v);
}

bool cz_post_vanilla_shaped(const cz_post_vanilla *v, const cz_post_shape *s)
{
    if (!cz_post_vanilla_shape_ok(s) || v->proof.n_inclusion != cz_post_blob_challenges(s) ||
        v->proof.inclusion == NULL)
        return false;
    for (unsigned i = 0; i < v->proof.n_inclusion; i++) {
        const cz_fc_merkle_proof *m = &v->proof.inclusion[i];
        if (m->form != cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree) || m->n_levels != levels_of(s) ||
            m->levels == NULL)
            return false;
        for (unsigned l = 0; l < m->n_levels; l++)
            if (m->levels[l].arity != arity_of(s, l) || m->levels[l].hashes == NULL ||
                m->levels[l].index >= m->levels[l].arity)
                return false;
    }
    return true;
}

/* ------------------------------------------------------------- reader --- */

static const cz_fc_bc_style STYLE = {"post vanilla proof: ", false, true};

int cz_post_vanilla_read(cz_post_vanilla *out, const cz_post_shape *s, const uint8_t *buf,
                         size_t len, const cz_allocator *alloc, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out)
        memset(out, 0, sizeof *out);
    if (out == NULL || s == NULL || (buf == NULL && len > 0) || !cz_post_vanilla_shape_ok(s))
        return cz_fc_bc_refuse(err, errlen, &STYLE, CZ_ERR_INVALID_ARG, "%s",
                               out == NULL || s == NULL || (buf == NULL && len > 0)
                                   ? "NULL argument"
                                   : "the shape has no challenges or a tree of no levels");
    int rc = cz_post_vanilla_alloc(out, s, alloc);
    if (rc)
        return cz_fc_bc_refuse(err, errlen, &STYLE, rc, "out of memory (%zu bytes)",
                               block_bytes(s));
    cz_fc_bc_rd r = {buf, len, 0, err, errlen, &STYLE, "sector_id"};
    rc = cz_fc_bc_get_u64(&r, &out->sector_id);
    if (!rc) {
        cz_fc_bc_name(&r, 0, "comm_r");
        rc = cz_fc_bc_get_d(&r, &out->comm_r, CZ_FC_TREE_RC);
    }
    uint64_t n_sectors = 0;
    if (!rc) {
        cz_fc_bc_name(&r, 0, "vanilla_proof.sectors");
        rc = cz_fc_bc_get_u64(&r, &n_sectors);
    }
    /* generate_single_vanilla_proof makes exactly one SectorProof */
    if (!rc && n_sectors != 1) {
        r.off -= 8;
        rc = cz_fc_bc_fail(&r, CZ_ERR_BAD_FORMAT, "%llu sector proofs, a blob has exactly 1",
                           (unsigned long long)n_sectors);
    }
    static const char sp[] = "vanilla_proof.sectors[0]";
    if (!rc) {
        cz_fc_bc_name(&r, 0, "%s.inclusion_proofs", sp);
        rc = cz_fc_bc_get_len(&r, out->proof.n_inclusion, "inclusion proofs");
    }
    for (unsigned i = 0; i < out->proof.n_inclusion && !rc; i++) {
        cz_fc_bc_name(&r, 0, "%s.inclusion_proofs[%u]", sp, i);
        rc = cz_fc_bc_get_proof(&r, &out->proof.inclusion[i], CZ_FC_TREE_RC);
    }
    if (!rc) {
        cz_fc_bc_name(&r, 0, "%s.comm_c", sp);
        rc = cz_fc_bc_get_d(&r, &out->proof.comm_c, CZ_FC_TREE_RC);
    }
    if (!rc) {
        cz_fc_bc_name(&r, 0, "%s.comm_r_last", sp);
        rc = cz_fc_bc_get_d(&r, &out->proof.comm_r_last, CZ_FC_TREE_RC);
    }
    if (!rc)
        rc = cz_fc_bc_get_end(&r);
    if (rc)
        cz_post_vanilla_free(out);
    return rc;
}

/* ------------------------------------------------------------- writer --- */

int cz_post_vanilla_write(uint8_t *out, size_t cap, const cz_post_vanilla *v,
                          const cz_post_shape *s)
{
    if (out == NULL || v == NULL || s == NULL || !cz_post_vanilla_shaped(v, s))
        return CZ_ERR_INVALID_ARG;
    if (cap < cz_post_vanilla_bytes(s))
        return CZ_ERR_BAD_LENGTH;
    cz_fc_bc_wr w = {out, 0};
    cz_fc_bc_put_u64(&w, v->sector_id);
    cz_fc_bc_put_d(&w, &v->comm_r);
    cz_fc_bc_put_u64(&w, 1);
    cz_fc_bc_put_u64(&w, v->proof.n_inclusion);
    for (unsigned i = 0; i < v->proof.n_inclusion; i++)
        cz_fc_bc_put_proof(&w, &v->proof.inclusion[i]);
    cz_fc_bc_put_d(&w, &v->proof.comm_c);
    cz_fc_bc_put_d(&w, &v->proof.comm_r_last);
    return CZ_OK;
}
