/* The bincode 1 pieces the vanilla proofs' strict readers and writers
 * share: the EmptySectorUpdate partition proof (snap/proof.c) and the
 * PoSt sector proof (post/vanilla.c).  Internal to src/filecoin.
 *
 * The encoding is serde's derive under bincode 1's default config (what
 * bincode::serialize / deserialize use; bincode 2's config::legacy()):
 * fixed-width little-endian integers, u32 enum variant indices, u64
 * sequence lengths, usize as u64, [u8; 32] domains as 32 raw bytes.  A
 * MerkleProof is storage-proofs-core merkle/proof.rs's MerkleProof {data:
 * ProofData}: u32 variant, then 0 Single(SingleProof {root, leaf, path}),
 * 1 Sub(SubProof {base_proof, sub_proof, root, leaf}) or 2 Top(TopProof
 * {base_proof, sub_proof, top_proof, root, leaf}); an InclusionPath {path}
 * is u64 n, n PathElement {hashes, index}: u64 siblings, the siblings (32
 * bytes each), u64 index.
 *
 * Reading: the caller lays its arrays out from the shape first, so every
 * count, variant and index is checked against it as it comes.  The first
 * fault stops the read with a message
 *     PREFIX FIELD ": " what " (at byte N)"
 * where FIELD is the serde path of the field being read (cz_fc_bc_rd.at)
 * and N the offset of its first byte (for a field cut short as well). */
#ifndef CZ_FILECOIN_BINCODE_H
#define CZ_FILECOIN_BINCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin/core.h"

/* How a format's messages read (each its header's contract). */
typedef struct {
    const char *prefix; /* "update partition proof: " */
    /* a bad value names its tree: "a TreeR value that ...", "a TreeD value
     * with ..."; else "a value that ..." */
    bool tree_words;
    /* fields are named down to an InclusionPath's vector and a
     * PathElement's members ("base_proof.path", "path[2].hashes[6]",
     * "path[2].index: 9, the arity is 8"); else down to the element
     * ("base_proof", "path[2]: index 9, the arity is 8") */
    bool element_fields;
} cz_fc_bc_style;

/* A reader of p[0 .. len) at off, writing its message (if any) to
 * err[0 .. errlen) (err NULL or errlen 0: none). */
typedef struct {
    const uint8_t *p;
    size_t len, off;
    char *err;
    size_t errlen;
    const cz_fc_bc_style *style;
    char at[200]; /* the field being read, for messages */
} cz_fc_bc_rd;

/* Names the field being read: at[from ..] = fmt (cut to fit). */
void cz_fc_bc_name(cz_fc_bc_rd *r, size_t from, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes the message for a fault (what = fmt) at r->at, r->off; returns rc. */
int cz_fc_bc_fail(cz_fc_bc_rd *r, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes "PREFIX what" (no field, no offset: the arguments, memory) to
 * err when there is one; returns rc. */
int cz_fc_bc_refuse(char *err, size_t errlen, const cz_fc_bc_style *st, int rc, const char *fmt,
                    ...) __attribute__((format(printf, 5, 6)));

/* The reads: CZ_OK with r->off past the value, or the fault's code with
 * the message written and r->off at the field's first byte:
 * CZ_ERR_TRUNCATED (the input ends first), CZ_ERR_NOT_CANONICAL (a
 * domain of kind k out of range: TreeR (CZ_FC_TREE_RC) a canonical Fr,
 * TreeD top two bits clear), CZ_ERR_BAD_FORMAT (a count not want,
 * "N what, the shape has want"). */
int cz_fc_bc_get_u64(cz_fc_bc_rd *r, uint64_t *v);
int cz_fc_bc_get_d(cz_fc_bc_rd *r, cz_fc_d *d, cz_fc_tree_kind k);
int cz_fc_bc_get_len(cz_fc_bc_rd *r, uint64_t want, const char *what);
/* One MerkleProof of kind k named r->at into m, which is laid out: its
 * form, n_levels (the sub and top levels last) and every level's arity
 * and hashes set.  The variant must be m's form, every count m's, every
 * index below its level's arity (CZ_ERR_BAD_FORMAT).  Names its fields
 * after r->at ("base_proof", "sub_proof", "top_proof", a Single proof's
 * "path", then ".path[i]" (levels counted from the part's first),
 * "root", "leaf") and leaves r->at as it found it. */
int cz_fc_bc_get_proof(cz_fc_bc_rd *r, cz_fc_merkle_proof *m, cz_fc_tree_kind k);
/* Nothing may follow the value: CZ_OK, or CZ_ERR_BAD_LENGTH named "end". */
int cz_fc_bc_get_end(cz_fc_bc_rd *r);

/* A writer at p + off; the caller has made room (cz_fc_bc_proof_bytes). */
typedef struct {
    uint8_t *p;
    size_t off;
} cz_fc_bc_wr;

void cz_fc_bc_put_u64(cz_fc_bc_wr *w, uint64_t v);
void cz_fc_bc_put_d(cz_fc_bc_wr *w, const cz_fc_d *d);
/* m as cz_fc_bc_get_proof reads it (m's form, levels and indexes). */
void cz_fc_bc_put_proof(cz_fc_bc_wr *w, const cz_fc_merkle_proof *m);

/* Bytes of one encoded MerkleProof of form f, n_levels levels and
 * n_hashes siblings in all: the variant, per path part (base; sub; top)
 * its length, per level its sibling count and index, the siblings, root
 * and leaf. */
size_t cz_fc_bc_proof_bytes(cz_fc_proof_form f, unsigned n_levels, size_t n_hashes);

#endif
