/* cuzk: what Filecoin's proof families share (storage-proofs-core and
 * filecoin-proofs' common parts): sector shapes and registered seal
 * proofs, hashers, Merkle trees and their inclusion proofs, miner ids,
 * parameter file names, digests and loading, and commitments as Curio
 * sends them.  cuzk/filecoin/porep.h, snap.h and post.h build on it.
 *
 * The model is rust-fil-proofs' (storage-proofs-core, storage-proofs-porep,
 * filecoin-proofs) and rust-filecoin-proofs-api's, written from their
 * sources; docs/filecoin.md keeps the facts and where each came from.
 *
 * Values: a "D" (cz_fc_d) is 32 bytes, a SHA-256 digest truncated to a
 * field element (byte 31 & 0x3f) or a BLS12-381 Fr in canonical
 * little-endian form, exactly as the C1 JSON stores it (an array of 32
 * integers).  Node indexes are u64 (a 64GiB sector has 2^31 nodes). */
#ifndef CUZK_FILECOIN_CORE_H
#define CUZK_FILECOIN_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t b[32];
} cz_fc_d;

/* The one block of memory that a proof's or a tree's arrays live in: mem
 * (bytes of it) from alloc (NULL: the default), returned by
 * cz_fc_block_free. */
typedef struct {
    void *mem;
    size_t bytes;
    const cz_allocator *alloc;
} cz_fc_block;

/* b gets bytes of class cls from alloc, their contents undefined: CZ_OK,
 * or CZ_ERR_NOMEM with b empty (mem NULL, bytes 0). */
int cz_fc_block_alloc(cz_fc_block *b, const cz_allocator *alloc, cz_buf_class cls, size_t bytes);
/* Returns b's memory to its allocator (an empty b: nothing) and empties b;
 * b may be NULL. */
void cz_fc_block_free(cz_fc_block *b);

/* --------------------------------------------- shapes, registered proofs --- */

typedef enum {
    CZ_FC_2KIB,
    CZ_FC_8MIB,
    CZ_FC_512MIB,
    CZ_FC_32GIB,
    CZ_FC_64GIB,
    CZ_FC__SHAPES
} cz_fc_shape_id;

/* A sector size's PoRep shape (filecoin-proofs constants.rs). */
typedef struct {
    cz_fc_shape_id id;
    const char *name;        /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
    const char *vanilla_key; /* the C1's vanilla_proofs variant: "StackedDrg2KiBV1" ... */
    uint64_t sector_size;    /* bytes */
    unsigned log_nodes;      /* nodes = 2^log_nodes of 32 bytes */
    unsigned layers;         /* 2 or 11 */
    unsigned partitions;     /* interactive and synthetic: 1 or 10 */
    unsigned challenges;     /* per partition: 2 or 18 */
    unsigned ni_partitions;  /* non-interactive: 13 or 126 (2 or 18 challenges each) */
    /* TreeR and TreeC: 8-ary base trees of base_levels levels; with
     * sub_arity 8 there are 8 of them joined by one 8-ary level; with
     * top_arity 2 two such sub trees joined by one binary level.  TreeD is
     * binary SHA-256 over all nodes (log_nodes levels). */
    unsigned base_levels, sub_arity, top_arity;
} cz_fc_shape;

typedef enum { CZ_FC_API_1_0, CZ_FC_API_1_1, CZ_FC_API_1_2 } cz_fc_api;
typedef enum { CZ_FC_INTERACTIVE, CZ_FC_SYNTHETIC, CZ_FC_NI } cz_fc_feature;

/* One RegisteredSealProof (rust-filecoin-proofs-api registry.rs). */
typedef struct {
    const char *name; /* "StackedDrg2KiBV1_1", as serde writes it */
    uint64_t id;      /* its number: 0 .. 19; porep_id's first u64 */
    const cz_fc_shape *shape;
    cz_fc_api api;
    cz_fc_feature feature;
    unsigned partitions; /* shape->partitions, or ni_partitions for NI */
} cz_fc_proof_type;

const cz_fc_shape *cz_fc_shape_get(cz_fc_shape_id id);
/* The shape of a sector size in bytes, or written "2KiB" ... "64GiB";
 * NULL if none. */
const cz_fc_shape *cz_fc_shape_by_size(uint64_t sector_size);
const cz_fc_shape *cz_fc_shape_by_name(const char *name);
/* A registered proof by its serde name or its number; NULL if none. */
const cz_fc_proof_type *cz_fc_proof_by_name(const char *name);
const cz_fc_proof_type *cz_fc_proof_by_id(uint64_t id);
/* The default registered proof of a shape: StackedDrg<size>V1_1. */
const cz_fc_proof_type *cz_fc_proof_default(const cz_fc_shape *s);
/* porep_id: id u64 LE || nonce (0) u64 LE || 16 zero bytes. */
void cz_fc_porep_id(uint8_t out[32], const cz_fc_proof_type *t);
/* "1.0", "1.1", "1.2" <-> cz_fc_api; -1 / NULL when unknown. */
int cz_fc_api_parse(const char *s);
const char *cz_fc_api_name(cz_fc_api a);

/* ------------------------------------------------------------ hashers --- */

/* SHA-256 of msg with the result's byte 31 masked to 6 bits, so it is a
 * canonical Fr (filecoin-hashers' sha256 domain). */
void cz_fc_sha256_trunc(cz_fc_d *out, const void *msg, size_t len);
/* TreeD's node: cz_fc_sha256_trunc(left || right). */
void cz_fc_sha256_node(cz_fc_d *out, const cz_fc_d *left, const cz_fc_d *right);
/* Poseidon (MerkleTree hash type) of arity 2, 4, 8 or 11 values, each a
 * canonical Fr: CZ_OK or CZ_ERR_NOT_CANONICAL (an input >= r) /
 * CZ_ERR_INVALID_ARG. */
int cz_fc_poseidon(cz_fc_d *out, const cz_fc_d *in, unsigned arity);
/* D <-> Fr (canonical little-endian; from: CZ_OK or CZ_ERR_NOT_CANONICAL). */
int cz_fc_d_to_fr(cz_fr *out, const cz_fc_d *d);
void cz_fc_d_from_fr(cz_fc_d *out, const cz_fr *a);

/* Fr32 padding: every 254 bits of raw data (little-endian bit order) are
 * followed by 2 zero bits, so 127 raw bytes become 128 padded bytes (four
 * 32-byte nodes, each a canonical Fr).  pad writes padded_len =
 * cz_fc_fr32_padded_len(n) bytes (n must be a multiple of 127); unpad
 * inverts it (n a multiple of 128), returning CZ_ERR_BAD_FORMAT when a
 * padding bit is set. */
size_t cz_fc_fr32_padded_len(size_t raw_len);
void cz_fc_fr32_pad(uint8_t *out, const uint8_t *raw, size_t raw_len);
int cz_fc_fr32_unpad(uint8_t *out, const uint8_t *padded, size_t padded_len);

/* ------------------------------------------------------------ merkle --- */

typedef enum { CZ_FC_TREE_D, CZ_FC_TREE_RC } cz_fc_tree_kind; /* SHA-256 binary | Poseidon */
typedef enum { CZ_FC_PROOF_SINGLE, CZ_FC_PROOF_SUB, CZ_FC_PROOF_TOP } cz_fc_proof_form;

/* One level of an inclusion path: the arity - 1 sibling hashes in the
 * order the C1 stores them, and the path node's position among its
 * arity siblings (the "index" of the JSON). */
typedef struct {
    uint8_t arity;  /* 2 or 8 */
    uint8_t index;  /* < arity */
    cz_fc_d *hashes; /* arity - 1 */
} cz_fc_path_el;

/* An inclusion proof as the C1 holds it (MerkleProof's Single / Sub /
 * Top): base levels leaf to root, then the sub level, then the top one. */
typedef struct {
    cz_fc_proof_form form;
    cz_fc_d root, leaf;
    uint32_t n_levels;    /* base levels + (SUB, TOP: 1) + (TOP: 1) */
    cz_fc_path_el *levels; /* n_levels, the sub and top levels last */
} cz_fc_merkle_proof;

/* The form, level count and arities a tree of kind k of shape s has:
 * TreeD Single of log_nodes binary levels; TreeR/TreeC base_levels 8-ary
 * levels, then one 8-ary level when sub_arity is 8 (SUB), then one binary
 * level when top_arity is 2 (TOP).  The arity of a level past the last
 * is 0. */
cz_fc_proof_form cz_fc_tree_form(cz_fc_tree_kind k, const cz_fc_shape *s);
unsigned cz_fc_tree_levels(cz_fc_tree_kind k, const cz_fc_shape *s);
unsigned cz_fc_tree_arity(cz_fc_tree_kind k, const cz_fc_shape *s, unsigned level);

/* The leaf index a path encodes (sum of index_l * prod of lower arities). */
uint64_t cz_fc_proof_index(const cz_fc_merkle_proof *p);
/* The root the path gives for the proof's leaf (kind's hash).  CZ_OK or
 * CZ_ERR_NOT_CANONICAL (a Poseidon input >= r). */
int cz_fc_proof_root(const cz_fc_merkle_proof *p, cz_fc_tree_kind k, cz_fc_d *root);

/* A tree of a sector's nodes, dense (every node stored) or sparse (only
 * the nodes above the leaves given; every other subtree is a default one
 * whose leaves are all default_leaf, so a 64GiB-shaped tree over a few
 * thousand leaves costs O(leaves x depth)).  Built through an allocator
 * (NULL: untracked). */
typedef struct cz_fc_tree cz_fc_tree;

/* Dense: leaves[0 .. 2^log_nodes).  CZ_OK, CZ_ERR_NOMEM,
 * CZ_ERR_NOT_CANONICAL (a Poseidon input). */
int cz_fc_tree_build(cz_fc_tree **out, cz_fc_tree_kind k, const cz_fc_shape *s,
                     const cz_fc_d *leaves, const cz_allocator *alloc);
/* Sparse: n leaves at distinct indexes idx[i] (any order), the rest
 * default_leaf. */
int cz_fc_tree_build_sparse(cz_fc_tree **out, cz_fc_tree_kind k, const cz_fc_shape *s,
                            const uint64_t *idx, const cz_fc_d *leaves, size_t n,
                            const cz_fc_d *default_leaf, const cz_allocator *alloc);
void cz_fc_tree_free(cz_fc_tree *t);
void cz_fc_tree_root(const cz_fc_tree *t, cz_fc_d *root);
/* Node index of level (0: the leaves; the root is level
 * cz_fc_tree_levels), a sparse tree's default where none was given.
 * CZ_OK or CZ_ERR_INVALID_ARG (out of range). */
int cz_fc_tree_node(const cz_fc_tree *t, unsigned level, uint64_t index, cz_fc_d *out);
/* The inclusion proof of leaf index; its levels' hashes are written into
 * hashes (cz_fc_tree_proof_hashes(t) values) and levels
 * (cz_fc_tree_levels) that the caller provides.  CZ_OK or
 * CZ_ERR_INVALID_ARG (index out of range, or not a leaf of a sparse
 * tree). */
int cz_fc_tree_proof(const cz_fc_tree *t, uint64_t index, cz_fc_merkle_proof *p,
                     cz_fc_path_el *levels, cz_fc_d *hashes);
size_t cz_fc_tree_proof_hashes(const cz_fc_tree *t);

/* ----------------------------------------------------------- miner ids --- */

/* prover_id from a miner actor id: the LEB128 of the id, zero-padded to 32
 * bytes (the ID address payload, as filecoin-ffi builds it). */
void cz_fc_prover_id(uint8_t out[32], uint64_t miner_id);

/* --------------------------------------------------- parameter files --- */

/* The base name of a parameter set's files, to which ".params", ".vk"
 * (the keys of rust-fil-proofs' parameters.json) or ".meta" are appended
 * (parameter_cache.rs parameter_id, cache_identifier; src/filecoin/
 * core/param_files.c): "v28-<circuit>-merkletree-poseidon_hasher-8-<sub>-
 * <top>" (TreeR's display, 0 for an arity it lacks), "-<hasher>" when
 * hasher is not NULL, "-" and the 64 hex digits of the SHA-256 of the
 * circuit's PublicParams identifier.  out holds the name, a suffix of up
 * to 8 bytes and the NUL. */
#define CZ_FC_PARAMS_NAME 160
void cz_fc_params_name(char out[CZ_FC_PARAMS_NAME], const char *circuit, unsigned sub,
                       unsigned top, const char *hasher, const char *identifier);

/* Digests of parameter files.  Filecoin's parameters.json publishes, per
 * file name, the first 16 bytes of the file's BLAKE2b-512 as 32 hex digits
 * (filecoin-proofs param.rs); the table here is its v28 copy
 * (data/parameters.json, tested equal).  A param cache may also hold
 * INSECURE files made by `cuzk params`, listed in its file
 * CZ_FC_GENERATED_DIGESTS, one line "<32 hex digits>  <file name>" each
 * ('#' lines are comments).  A file is accepted when its digest is
 * Filecoin's for its name or the one the list gives for it. */
#define CZ_FC_DIGEST_HEX        33 /* 32 hex digits and the NUL */
#define CZ_FC_GENERATED_DIGESTS "cuzk-generated.digests"
size_t cz_fc_params_official_count(void);
/* Entry i (sorted by name) of the table: its name, digest and sector size;
 * NULL past the end. */
const char *cz_fc_params_official(size_t i, const char **digest, uint64_t *sector_size);
/* The digest parameters.json lists for a file name, NULL if none. */
const char *cz_fc_params_official_digest(const char *file_name);
void cz_fc_params_digest_hex(char out[CZ_FC_DIGEST_HEX], const uint8_t blake2b[64]);
/* BLAKE2b-512 of a whole file, read in 1 MiB chunks.  CZ_OK, CZ_ERR_IO,
 * CZ_ERR_NOMEM, with err set. */
int cz_fc_file_blake2b(const char *path, uint8_t out[64], char *err, size_t errlen);
/* The digest dir's list gives file_name: CZ_OK, CZ_ERR_NOT_FOUND (no list,
 * or not in it), CZ_ERR_IO, CZ_ERR_BAD_FORMAT (a list over 1 MiB). */
int cz_fc_params_generated_digest(const char *dir, const char *file_name,
                                  char out[CZ_FC_DIGEST_HEX], char *err, size_t errlen);
/* Lists file_name with digest in dir's list (its line replaced if there;
 * the list rewritten under a temporary name and renamed).  CZ_OK, CZ_ERR_IO. */
int cz_fc_params_record_generated(const char *dir, const char *file_name,
                                  const char digest[CZ_FC_DIGEST_HEX], char *err, size_t errlen);
/* Accepts file dir/file_name of digest blake2b: CZ_OK with *insecure false
 * (Filecoin's digest) or true (the generated list's); otherwise
 * CZ_ERR_BAD_FORMAT with err naming the file, its digest and the expected
 * ones (CZ_ERR_IO when the list cannot be read). */
int cz_fc_params_check(const char *dir, const char *file_name, const uint8_t blake2b[64],
                       bool *insecure, char *err, size_t errlen);

/* A parameter set in a param cache dir: <dir>/<base>.params, .vk and .pce
 * (the pre-compiled circuit, which `cuzk params --pce-only` writes),
 * base a cz_fc_*params_name. */
enum { CZ_FC_PARAM_PARAMS, CZ_FC_PARAM_VK, CZ_FC_PARAM_PCE, CZ_FC_PARAM_FILES };
/* The three are regular files: CZ_OK, or CZ_ERR_NOT_FOUND with err "the
 * <what> parameters are missing: <path> (<why>)", for the .pce with
 * pce_cmd, the command that writes it. */
int cz_fc_param_files_present(const char *dir, const char *base, const char *what,
                              const char *pce_cmd, char *err, size_t errlen);
/* What a load holds: the bytes the .params decodes to (its layout walked
 * over a mapping, no point read) and the .pce's (mapped).  CZ_OK,
 * CZ_ERR_IO or the decoder's error, err naming the file. */
int cz_fc_param_files_sizes(const char *dir, const char *base, size_t *params, size_t *pce,
                            char *err, size_t errlen);
typedef struct {
    const cz_allocator *alloc; /* the decoded parameters' memory */
    cz_pool *pool;             /* decoding's (NULL: this thread) */
    const char *what;          /* the circuit, in messages: "32GiB PoRep" */
    size_t n_in, n_aux;        /* its counts (inputs with ONE) */
} cz_fc_param_load;
/* Loads the set: the .params decoded (query points curve-checked, not
 * subgroup-checked: the digest stands for them), the .params and .vk
 * accepted by digest (cz_fc_params_check; bit CZ_FC_PARAM_PARAMS / _VK
 * of *insecure set for a generated one), the .vk equal to the .params'
 * own, the .pce mapped and validated, the counts o's.  CZ_OK, *params and
 * *r1cs the caller's (cz_groth16_params_free, cz_r1cs_free); otherwise
 * nothing is held and err says what is wrong, naming the file. */
int cz_fc_param_files_load(const char *dir, const char *base, const cz_fc_param_load *o,
                           cz_groth16_params *params, cz_r1cs **r1cs, unsigned *insecure,
                           char *err, size_t errlen);

/* ---------------------------------------------- commitments on the wire --- */

/* A commitment as Curio sends it: its 32 bytes (the field element, little
 * endian), or the binary CID that holds them (CIDv1, the codec
 * fil-commitment-sealed 0xf102 with the multihash poseidon-bls12_381-a2-fc1
 * 0xb401 for a replica commitment, fil-commitment-unsealed 0xf101 with
 * sha2-256-trunc254-padded 0x1012 for a data commitment, a 32-byte digest:
 * go-fil-commcid; Curio's UpdateProve passes cid.Bytes(), its proof share
 * path the raw bytes).  The value must be a field element.  CZ_OK;
 * CZ_ERR_BAD_LENGTH, CZ_ERR_BAD_FORMAT (another CID), CZ_ERR_NOT_CANONICAL,
 * err naming what (the caller's field name first). */
typedef enum { CZ_FC_COMM_R, CZ_FC_COMM_D } cz_fc_comm_kind;
int cz_fc_commitment_read(cz_fc_d *out, cz_fc_comm_kind kind, const uint8_t *b, size_t len,
                          char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_FILECOIN_CORE_H */
