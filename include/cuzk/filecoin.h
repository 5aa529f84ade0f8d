/* cuzk: Filecoin's sectors for PoRep: shapes and registered proofs,
 * hashers, Merkle trees, the stacked-DRG graph, labels, challenges, the
 * Commit Phase 1 output (C1) and its vanilla proofs, sealing, synthetic C1s,
 * vanilla verification and the public inputs of the C2 circuit.
 *
 * The model is rust-fil-proofs' (storage-proofs-core, storage-proofs-porep,
 * filecoin-proofs) and rust-filecoin-proofs-api's, written from their
 * sources; docs/filecoin.md keeps the facts and where each came from.
 *
 * Values: a "D" (cz_fc_d) is 32 bytes, a SHA-256 digest truncated to a
 * field element (byte 31 & 0x3f) or a BLS12-381 Fr in canonical
 * little-endian form, exactly as the C1 JSON stores it (an array of 32
 * integers).  Node indexes are u64 (a 64GiB sector has 2^31 nodes). */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
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

/* -------------------------------------------------------------- graph --- */

#define CZ_FC_DRG_DEGREE 6
#define CZ_FC_EXP_DEGREE 8
#define CZ_FC_PARENTS    14 /* DRG then expander */

/* The stacked-DRG graph of a sector (storage-proofs-core drgraph.rs
 * BucketGraph, storage-proofs-porep stacked/vanilla/graph.rs StackedGraph,
 * crypto/feistel.rs; docs/filecoin.md "Graph" has the rules in full):
 *  - DRG: nodes 0 and 1 have six parents 0.  Node v >= 2 draws five
 *    parents from ChaCha8Rng::from_seed(drg_seed || v as u32 LE) by bucket
 *    sampling over the metagraph of 5 v nodes, and has v - 1 as the sixth:
 *    API 1.0 puts v - 1 last (slot 5), 1.1 and 1.2 first (slot 0).
 *  - Expander: parent i (0..7) of v is feistel(8 v + i) / 8, a 3-round
 *    Feistel permutation of [0, 8 nodes) with halves of feistel_bits bits
 *    (the least h >= 1 with 4^h >= 8 nodes; cycle-walking until the value
 *    is in range) and round function F(R, k) = the first 8 bytes,
 *    big-endian, of BLAKE2b-512(R u64 BE || k u64 BE), masked to h bits,
 *    with keys feistel_keys[0..2].  API 1.0 truncates the permuted value
 *    to u32 before dividing (32GiB and 64GiB, whose 8 nodes exceed 2^32,
 *    get only parents below 2^29); 1.1+ divide the u64.
 * Every parent is a u32 (nodes <= 2^31). */
typedef struct {
    uint64_t nodes;
    cz_fc_api api;
    uint8_t drg_seed[28];     /* sha256("Filecoin_DRSample" || porep_id)[0..28) */
    uint64_t feistel_keys[4]; /* sha256("Filecoin_Feistel" || porep_id) as 4 u64 LE; 3 used */
    unsigned feistel_bits;    /* h, the half width */
    uint64_t feistel_mask;    /* 2^h - 1 */
} cz_fc_graph;

void cz_fc_graph_init(cz_fc_graph *g, const cz_fc_shape *s, const uint8_t porep_id[32],
                      cz_fc_api api);
/* The 6 DRG then 8 expander parents of node v (< nodes). */
void cz_fc_graph_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_PARENTS]);
/* The two halves of cz_fc_graph_parents. */
void cz_fc_graph_drg_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_DRG_DEGREE]);
void cz_fc_graph_exp_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_EXP_DEGREE]);
/* The Feistel round function F(right, feistel_keys[round]) (round 0..2),
 * masked to feistel_bits bits. */
uint64_t cz_fc_feistel_round(const cz_fc_graph *g, uint64_t right, unsigned round);

/* The parent cache (storage-proofs-porep stacked/vanilla/cache.rs,
 * ParentCache::generate): for every node in order its 14 parents as u32
 * LE, 56 bytes a node, nodes x 56 bytes in all; parent_cache.json
 * publishes the file's SHA-256 under its name. */
#define CZ_FC_PARENT_ROW  (4 * CZ_FC_PARENTS)
#define CZ_FC_PARENT_NAME 80 /* bytes for a name and its NUL */

/* A fast producer of the cache's rows: the graph and a table of the
 * Feistel round function (3 x 2^feistel_bits u32, 1.5 MiB at most), which
 * leaves the expander no hashing.  Made through alloc (NULL: untracked,
 * class CZ_BUF_SCRATCH), its table filled on pool (NULL: this thread).
 * CZ_OK, CZ_ERR_NOMEM or CZ_ERR_INVALID_ARG. */
typedef struct cz_fc_parent_gen cz_fc_parent_gen;
int cz_fc_parent_gen_new(cz_fc_parent_gen **out, const cz_fc_graph *g, cz_pool *pool,
                         const cz_allocator *alloc);
void cz_fc_parent_gen_free(cz_fc_parent_gen *pg);
/* The rows of nodes [first, first + n) (all < nodes) into out (n x 56
 * bytes), byte for byte the cache file's.  Safe from many threads. */
void cz_fc_parent_gen_rows(const cz_fc_parent_gen *pg, uint64_t first, uint64_t n,
                           uint8_t *out);
/* SHA-256 of the whole cache, produced in order in chunks on pool (NULL:
 * this thread; the calling thread hashes while the pool makes the next
 * chunk).  CZ_OK, CZ_ERR_NOMEM. */
int cz_fc_parent_cache_digest(uint8_t out[32], const cz_fc_graph *g, cz_pool *pool,
                              const cz_allocator *alloc);
/* The cache file's name without ".cache", the key of parent_cache.json:
 * "v28-sdr-parent-" and the hex of sha256("poseidon_hasher" || the
 * StackedGraph identifier || feistel_keys u64 LE || nodes u32 LE) (cache.rs
 * cache_path; the identifier as graph.rs and drgraph.rs format it). */
void cz_fc_parent_cache_name(char out[CZ_FC_PARENT_NAME], const cz_fc_graph *g);
/* The digest parent_cache.json publishes for a name (64 hex digits) and
 * the sector size it lists (sector_size may be NULL); NULL when it lists
 * none (it lists API 1.0 and 1.1 graphs only: the synthetic and NI
 * proofs' porep ids give other graphs). */
const char *cz_fc_parent_cache_published(const char *name, uint64_t *sector_size);

/* ------------------------------------------------------ labels, ids --- */

/* replica_id = sha256_trunc(prover_id || sector_id u64 BE || ticket ||
 * comm_d || porep_id). */
void cz_fc_replica_id(cz_fc_d *out, const uint8_t prover_id[32], uint64_t sector_id,
                      const uint8_t ticket[32], const cz_fc_d *comm_d,
                      const uint8_t porep_id[32]);
/* prover_id from a miner actor id: the LEB128 of the id, zero-padded to 32
 * bytes (the ID address payload, as filecoin-ffi builds it). */
void cz_fc_prover_id(uint8_t out[32], uint64_t miner_id);

#define CZ_FC_LABEL_PARENTS 37
/* The 37 parent labels of a label: layer 1 repeats the 6 DRG parents' six
 * times then the first; later layers take the 6 DRG (this layer) and 8
 * expander (previous layer) labels twice, then the first 9. */
void cz_fc_label_parents(cz_fc_d out[CZ_FC_LABEL_PARENTS], unsigned layer,
                         const cz_fc_d drg[CZ_FC_DRG_DEGREE], const cz_fc_d exp[CZ_FC_EXP_DEGREE]);
/* label = sha256_trunc(replica_id || layer u32 BE || node u64 BE || 20 zero
 * bytes || the 37 parents); node 0 hashes only the first 64 bytes. */
void cz_fc_label(cz_fc_d *out, const cz_fc_d *replica_id, unsigned layer, uint64_t node,
                 const cz_fc_d parents[CZ_FC_LABEL_PARENTS]);
/* replica node = data + key in Fr.  CZ_OK or CZ_ERR_NOT_CANONICAL. */
int cz_fc_encode(cz_fc_d *out, const cz_fc_d *key, const cz_fc_d *data);

/* The challenged nodes of partition k (t->shape->challenges of them, each
 * in 1 .. nodes-1): interactive from replica_id and seed, NI from
 * replica_id and comm_r, synthetic from replica_id, comm_r and seed.
 * CZ_OK or CZ_ERR_INVALID_ARG (k out of range). */
int cz_fc_challenges(uint64_t *out, const cz_fc_proof_type *t, const cz_fc_d *replica_id,
                     const uint8_t seed[32], const cz_fc_d *comm_r, unsigned k);

/* ---------------------------------------------------------------- C1 --- */

typedef struct {
    uint32_t index; /* the column's node */
    cz_fc_d *rows;  /* layers: the node's label in layer 1 .. L */
    cz_fc_merkle_proof inclusion; /* TreeC */
} cz_fc_column_proof;

/* A LabelingProof or EncodingProof: the 37 parent labels as the label
 * hashes them (filecoin-proofs stores them repeated, cz_fc_label_parents'
 * order), the layer (1 .. L) and the challenged node. */
typedef struct {
    cz_fc_d parents[CZ_FC_LABEL_PARENTS];
    uint32_t layer_index;
    uint64_t node;
} cz_fc_labeling_proof;

/* One challenge's vanilla proof (storage-proofs-porep stacked Proof). */
typedef struct {
    cz_fc_merkle_proof comm_d_proof;      /* TreeD */
    cz_fc_merkle_proof comm_r_last_proof; /* TreeR */
    cz_fc_column_proof c_x;
    cz_fc_column_proof drg[CZ_FC_DRG_DEGREE];
    cz_fc_column_proof exp[CZ_FC_EXP_DEGREE];
    cz_fc_labeling_proof *labeling; /* layers */
    cz_fc_labeling_proof encoding;
} cz_fc_vanilla_proof;

/* SealCommitPhase1Output.  Its arrays live in memory the C1 owns (taken
 * from alloc, class CZ_BUF_INPUT); cz_fc_c1_free returns it.  A C1 built
 * by hand starts zeroed with alloc set (NULL: cz_allocator_default). */
typedef struct cz_fc_c1 {
    const cz_fc_proof_type *proof_type;
    uint32_t partitions, challenges;  /* per partition */
    cz_fc_vanilla_proof *proofs;      /* partitions x challenges, partition-major */
    cz_fc_d comm_r, comm_d, replica_id;
    uint8_t seed[32], ticket[32];
    /* Curio's wrapper, when the C1 came in one (cz_fc_c1_read): its
     * SectorNum and SectorSize (the latter checked against the shape). */
    bool wrapped;
    uint64_t sector_num, sector_size;
    /* memory: a list of chunks */
    const cz_allocator *alloc;
    struct cz_fc_chunk *chunks;
    size_t mem_bytes; /* taken from alloc, chunk headers included */
} cz_fc_c1;

/* Memory of the C1 (bump allocation from its chunks, 16-byte aligned,
 * zero-filled; freed with the C1).  A new chunk is half of what the C1
 * holds (16 KiB to 4 MiB), a request of a quarter chunk or more a chunk of
 * its own, so at most about a third of mem_bytes is unused.  NULL when the
 * allocator fails. */
void *cz_fc_c1_alloc(cz_fc_c1 *c1, size_t bytes);
/* Returns the C1's memory and zeroes *c1.  NULL: no-op. */
void cz_fc_c1_free(cz_fc_c1 *c1);

/* Reads a C1 JSON as filecoin-ffi writes it, or Curio's wrapper
 * {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize":
 * bytes} (told apart by the first member with a name of either), in one
 * pass without a tree of the document, into *c1 (overwritten: free a C1
 * before reading into it again), its memory from alloc (NULL: the
 * default).  It validates as it reads:
 *   - JSON: strict RFC 8259; integers digits only (no sign, fraction or
 *     exponent) within their Rust type (u32, u64, usize);
 *   - members in any order, each once, none missing, unknown ones ignored
 *     (serde's derived Deserialize); enums {"Variant": value};
 *   - registered_proof known and vanilla_proofs' variant its shape's
 *     vanilla_key; the registered proof's partitions, shape->challenges
 *     proofs in each;
 *   - every D 32 integers 0..255; comm_r, comm_d, replica_id, column rows,
 *     labeling and encoding parents and every TreeR / TreeC hash, root and
 *     leaf a canonical Fr; every TreeD value byte 31 < 0x40; seed and
 *     ticket any bytes;
 *   - paths of the form, levels and arities of cz_fc_tree_*, each index
 *     below its arity; rows = layers; 37 parents; labeling proofs = layers
 *     with layer_index 1 .. L in order, the encoding proof's L; column
 *     indexes and labeling nodes below the sector's nodes; 6 drg_parents,
 *     8 exp_parents; Column's _h null;
 *   - comm_c (the root of every column proof) and comm_r_last (of every
 *     comm_r_last_proof) one value across all proofs;
 *   - the wrapper: SectorNum and SectorSize u64, SectorSize the shape's
 *     sector size, Phase1Out standard base64 with padding (decoded into
 *     memory from alloc, class CZ_BUF_INPUT, returned before this returns).
 * An array is refused at its first element past the shape's count, before
 * it is read.  The first error is the message: the JSON path of the value
 * at fault, then what is wrong, then the byte offset
 * ("vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path
 * .path[3].hashes[0][7]: 256 is not a byte (byte 5123)"), "Phase1Out: "
 * before the paths inside a wrapper's C1.  Returns CZ_OK,
 * CZ_ERR_BAD_FORMAT, CZ_ERR_NOT_CANONICAL (an Fr >= r, a TreeD value with
 * byte 31 >= 0x40), CZ_ERR_UNSUPPORTED (an unknown registered proof),
 * CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG; on failure *c1 is zeroed. */
int cz_fc_c1_read(cz_fc_c1 *c1, const uint8_t *json, size_t len, const cz_allocator *alloc,
                  char *err, size_t errlen);

/* Writes the C1 as serde_json::to_vec does (compact, fields in declaration
 * order, integers in decimal, Column's "_h":null, enums {"Variant":...}):
 * byte-identical to filecoin-ffi's output for the same values.  The
 * wrapper is not written.  *out is malloc'd (the caller frees it) with a
 * NUL after its *len bytes.  CZ_OK, CZ_ERR_NOMEM, or CZ_ERR_INVALID_ARG
 * (no proof type, or a proof whose arrays are missing or whose levels are
 * fewer than its form needs). */
int cz_fc_c1_write(const cz_fc_c1 *c1, char **out, size_t *len);


/* ------------------------------------------------ sealing, synthetic C1 --- */

/* What a seal (or a synthetic C1) is made from. */
typedef struct {
    const cz_fc_proof_type *proof_type;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    uint8_t seed[32];    /* the interactive challenge seed */
    const uint8_t *data; /* sector_size bytes of Fr32-padded data (every node's
                            byte 31 < 0x40); NULL: all zero (a CC sector) */
} cz_fc_sector;

/* Seals the sector in memory (every node of every layer: 2-layer shapes;
 * 2KiB and 8MiB in seconds, 512MiB in minutes and ~3 GiB) and writes the
 * C1 of its challenges (every partition's) into *c1, memory from alloc
 * (class CZ_BUF_OTHER for the sealing, CZ_BUF_INPUT for the C1).  CZ_OK,
 * CZ_ERR_INVALID_ARG (bad data, unsupported shape), CZ_ERR_NOMEM, with err
 * set. */
int cz_fc_seal(cz_fc_c1 *c1, const cz_fc_sector *sec, const cz_allocator *alloc, char *err,
               size_t errlen);
/* The same, also writing the replica (TreeR's leaves, 2^log_nodes values)
 * and comm_c (TreeC's root) where they are not NULL: what an
 * EmptySectorUpdate of the sector starts from. */
int cz_fc_seal_ex(cz_fc_c1 *c1, const cz_fc_sector *sec, const cz_allocator *alloc,
                  cz_fc_d *replica, cz_fc_d *comm_c, char *err, size_t errlen);

/* A C1 for any sector size, consistent in every check the circuit and the
 * vanilla verifier make, without sealing a sector: the data is all zero
 * (sec->data must be NULL), the labels of the challenged nodes are
 * computed from their parents', the labels of every other node involved
 * (the challenges' parents) are drawn from `seed`, and TreeC and TreeR are
 * sparse trees over the involved nodes.  Interactive registered proofs
 * only (NI and synthetic challenges depend on comm_r: CZ_ERR_UNSUPPORTED).
 * A 32GiB C1 takes a second or two and tens of MiB. */
int cz_fc_c1_synth(cz_fc_c1 *c1, const cz_fc_sector *sec, uint64_t seed,
                   const cz_allocator *alloc, char *err, size_t errlen);

/* ------------------------------------------------------- verification --- */

/* What the vanilla verifier checks against the C1's own values, and
 * optionally the sector's identity: with prover_id (non-NULL) the C1's
 * replica_id must equal cz_fc_replica_id(prover_id, sector_id, ticket
 * (the C1's), comm_d, porep_id). */
typedef struct {
    const uint8_t *prover_id; /* NULL: replica_id taken as given */
    uint64_t sector_id;
    const uint8_t *porep_id;  /* NULL: the registered proof's */
    int api;                  /* cz_fc_api, or -1: the registered proof's */
    cz_pool *pool;            /* the challenges verified on it (NULL: this thread) */
} cz_fc_verify_opts;

/* Rust-fil-proofs' vanilla verification of every challenge of every
 * partition: the challenges re-derived, every inclusion path (TreeD to
 * comm_d, columns to comm_c, TreeR to comm_r_last, comm_r = Poseidon-2
 * (comm_c, comm_r_last)), the parents the graph names, each layer's label
 * recomputed from the parents' rows, the encoding.  CZ_OK, or
 * CZ_ERR_BAD_PROOF with err naming the partition, challenge and check
 * ("partition 0, challenge 1 (node 27): drg_parents[3]: column index 12,
 * the graph's node is 14"), the first failing challenge in order whatever
 * the pool; CZ_ERR_NOMEM. */
int cz_fc_vanilla_verify(const cz_fc_c1 *c1, const cz_fc_verify_opts *opts, char *err,
                         size_t errlen);

/* The public inputs of partition k's circuit as StackedCompound::
 * generate_public_inputs builds them (ONE excluded): replica_id, comm_d,
 * comm_r, then per challenge c: c (TreeD), its 6 DRG and 8 expander
 * parents (TreeC), c (the challenge), c (TreeR), c (TreeC); 3 + 18 x
 * challenges values.  CZ_OK, CZ_ERR_INVALID_ARG (k), CZ_ERR_NOT_CANONICAL
 * (replica_id, comm_d or comm_r). */
size_t cz_fc_public_input_count(const cz_fc_proof_type *t);
int cz_fc_public_inputs(cz_fr *out, const cz_fc_proof_type *t, const cz_fc_graph *g,
                        const cz_fc_d *replica_id, const cz_fc_d *comm_d, const cz_fc_d *comm_r,
                        const uint8_t seed[32], unsigned k);

/* Seal verification (filecoin-proofs verify_seal): comm_r, comm_d and seed
 * non-zero, comm_r and comm_d canonical, replica_id recomputed, then each
 * partition's 192-byte proof verified under pvk with its public inputs.
 * *valid says the answer; CZ_OK whenever the inputs were well-formed (a
 * proof that does not verify is *valid = false), CZ_ERR_BAD_LENGTH (proofs
 * not partitions x 192 bytes), CZ_ERR_INVALID_ARG / CZ_ERR_NOT_CANONICAL
 * (a zero or non-canonical value, a vk with the wrong input count), with
 * err set. */
typedef struct {
    const cz_fc_proof_type *proof_type;
    cz_fc_d comm_r, comm_d;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
    cz_fc_verify_opts overrides; /* porep_id / api overrides (prover_id unused) */
} cz_fc_seal_info;
/* All 32 bytes zero (the comm_r / comm_d / seed values filecoin-proofs
 * refuses). */
bool cz_fc_is_zero32(const uint8_t b[32]);
int cz_fc_verify_seal(const cz_groth16_pvk *pvk, const uint8_t *proofs, size_t len,
                      const cz_fc_seal_info *info, bool *valid, char *err, size_t errlen);


/* ------------------------------------------------- the PoRep circuit --- */

/* The shape of a StackedDRG circuit: TreeD over 2^log_nodes nodes, the
 * number of layers and of challenges per partition, and TreeR / TreeC as
 * base_levels levels of base_arity, then one level of sub_arity (0: none)
 * and one of top_arity (0: none).  The sector sizes' shapes come from
 * cz_fc_porep_dims_of; rust-fil-proofs' circuit tests use four more
 * (cz_fc_porep_dims_by_name). */
typedef struct {
    unsigned log_nodes, layers, challenges;
    unsigned base_arity, base_levels, sub_arity, top_arity;
} cz_fc_porep_dims;

void cz_fc_porep_dims_of(cz_fc_porep_dims *d, const cz_fc_shape *s);
/* "2KiB" .. "64GiB" (a sector size's shape), or the test shapes of
 * storage-proofs-porep tests/stacked_circuit.rs (2 layers, 1 challenge,
 * 8 nodes per base tree): "test-base-2" (U2, 8 nodes), "test-base-8"
 * (U8), "test-sub-8-4" (U8 U4, 32 nodes), "test-top-8-4-2" (U8 U4 U2, 64
 * nodes).  CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_fc_porep_dims_by_name(cz_fc_porep_dims *d, const char *name);

/* Synthesises partition k of c1 into cs, allocating and constraining as
 * storage-proofs-porep's StackedCircuit::synthesize does through
 * bellperson, variable for variable and constraint for constraint
 * (docs/filecoin.md "The PoRep circuit"); with c1 NULL the blank circuit
 * of d (every value zero, for recording the shape).  Works in every cs
 * mode; with CZ_CS_NAMESPACES the constraints carry rust-fil-proofs'
 * namespace names ("challenge_3/labeling_2/create_label").  The public
 * inputs are cz_fc_public_inputs' (after ONE).  Returns CZ_OK, the cs's
 * sticky error, or CZ_ERR_INVALID_ARG (k out of range, c1's shape not d,
 * a path of another form), with err set. */
int cz_fc_porep_synthesize(cz_cs *cs, const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k,
                           char *err, size_t errlen);

/* Inputs (ONE included) and auxiliaries of the circuit of d: the counts
 * any synthesis of it allocates.  Computed once per shape (a blank
 * witness-only run of the header and one challenge) and cached for the
 * process; thread-safe.  CZ_OK or CZ_ERR_NOMEM. */
int cz_fc_porep_counts(const cz_fc_porep_dims *d, size_t *n_inputs, size_t *n_aux);

/* Witness-only synthesis of partition k of c1 into w = [inputs | aux]
 * (w_len = n_inputs + n_aux of cz_fc_porep_counts): the header on the
 * calling thread, then on pool (NULL: this thread) every challenge's
 * prefix and every (challenge, layer) label in parallel, then the
 * challenges' suffixes, each part writing its fixed slices of w in place.
 * No constraint is built.  The assignment equals the one every other mode
 * stores.  Besides w, memory is small: a ~120 KB scratch and a 10 KB
 * state per thread, ~10 KB per challenge.  CZ_OK, CZ_ERR_INVALID_ARG (w_len, k, shape),
 * CZ_ERR_NOMEM, with err set. */
int cz_fc_porep_witness(cz_fr *w, size_t w_len, const cz_fc_c1 *c1, unsigned k, cz_pool *pool,
                        char *err, size_t errlen);

/* --------------------------------------------------- parameter files --- */

/* The PublicParams identifier rust-fil-proofs builds for the PoRep circuit
 * of shape s (stacked/vanilla/params.rs identifier()):
 *   "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{
 *   expansion_degree: 8 base_graph: drgraph::BucketGraph{size: <nodes>;
 *   degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges {
 *   layers: <layers>, max_count: <challenges per partition> }, tree:
 *   merkletree-poseidon_hasher-8-<sub>-<top> }"
 * (one line; sub and top arities 0 when absent).  The same for every
 * registered proof of the shape: porep_id, API version and features are
 * not in it.  Written as snprintf does into out[0..n); returns its length
 * (less than CZ_FC_PARAMS_ID). */
#define CZ_FC_PARAMS_ID 320
size_t cz_fc_porep_params_identifier(char *out, size_t n, const cz_fc_shape *s);

/* The base name of a parameter set's files, to which ".params", ".vk"
 * (the keys of rust-fil-proofs' parameters.json) or ".meta" are appended
 * (parameter_cache.rs parameter_id, cache_identifier; src/filecoin/
 * param_files.c): "v28-<circuit>-merkletree-poseidon_hasher-8-<sub>-
 * <top>" (TreeR's display, 0 for an arity it lacks), "-<hasher>" when
 * hasher is not NULL, "-" and the 64 hex digits of the SHA-256 of the
 * circuit's PublicParams identifier.  out holds the name, a suffix of up
 * to 8 bytes and the NUL. */
#define CZ_FC_PARAMS_NAME 160
void cz_fc_params_name(char out[CZ_FC_PARAMS_NAME], const char *circuit, unsigned sub,
                       unsigned top, const char *hasher, const char *identifier);
/* The PoRep circuit's (src/filecoin/shapes.c; StackedCompound's
 * cache_prefix): circuit "stacked-proof-of-replication", hasher
 * "sha256_hasher", the identifier cz_fc_porep_params_identifier's. */
void cz_fc_porep_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_shape *s);

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

/* ------------------------------ EmptySectorUpdate (SnapDeals): shapes --- */

/* The update circuit's shape for a sector of sector_nodes 32-byte nodes
 * (storage-proofs-update constants.rs; the sizes it allows: 1, 2, 4, 8,
 * 16, 32 KiB for its tests, 8 and 16 MiB, 512 MiB, 32 and 64 GiB). */
typedef struct {
    uint64_t sector_nodes;
    unsigned node_bits;      /* B = log2(sector_nodes) */
    unsigned partitions;     /* 1 (<= 8KiB), 2 (<= 32KiB), 4 (<= 16MiB), else 16 */
    unsigned partition_bits; /* P = log2(partitions) */
    unsigned challenges;     /* per partition: 10 (<= 16MiB), else 86 */
    unsigned hs[6];          /* the allowed h: 1 x 6 (<= 32KiB), else 7 .. 12 */
    unsigned h;              /* the one used: hs[3] */
    unsigned apex_leaves;    /* 8 (<= 8KiB), else 128 */
    unsigned apex_bits;      /* A = log2(apex_leaves) */
    unsigned tree_r[3];      /* TreeR arities: base 8, sub, top (0: none) */
    unsigned random_bits;    /* per challenge: B - P */
    unsigned per_digest;     /* challenges per randomness digest: 254 / (B - P) */
    unsigned digests;        /* digests per partition: ceil(challenges / per_digest) */
} cz_fc_update_shape;

/* The shape of sector_nodes: CZ_OK, or CZ_ERR_INVALID_ARG for a size the
 * update proof does not allow. */
int cz_fc_update_shape_of(cz_fc_update_shape *s, uint64_t sector_nodes);
/* h_select = 2^(index of h in hs) (the first when several are equal), or
 * 0 when h is not allowed; the public input is
 * k | h_select << partition_bits (cz_fc_update_k_and_h). */
uint64_t cz_fc_update_h_select(const cz_fc_update_shape *s, unsigned h);
uint64_t cz_fc_update_k_and_h(const cz_fc_update_shape *s, unsigned k, unsigned h);
/* RegisteredUpdateProof id (filecoin-ffi / go-state-types: 0..4 =
 * StackedDrg 2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1): the sector's PoRep
 * shape, NULL for another number. */
const cz_fc_shape *cz_fc_update_proof_shape(uint64_t registered_update_proof);
/* The base name of the update circuit's parameter files
 * (cz_fc_params_name; src/filecoin/update_shape.c): circuit
 * "empty-sector-update", the identifier "empty_sector_update::
 * PublicParams{ sector_nodes: <nodes> }" (vanilla.rs
 * PublicParams::identifier). */
void cz_fc_update_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_update_shape *u);

/* --------------------------- EmptySectorUpdate: randomness, challenges --- */

/* Pgen(a, b): Poseidon of arity 2 with neptune's CType::Arbitrary(1)
 * domain tag (2^40), the update proof's randomness hash. */
int cz_fc_update_gen_randomness(cz_fr *out, const cz_fr *a, const cz_fr *b);
/* phi = Pgen(comm_d_new, comm_r_old). */
int cz_fc_update_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old);
/* rho(c) = Pgen(phi, c >> (B - h)), the top h bits of challenge c. */
int cz_fc_update_rho(cz_fr *rho, const cz_fc_update_shape *s, const cz_fr *phi, uint64_t c,
                     unsigned h);
/* The s->challenges challenges of partition k < s->partitions
 * (challenges.rs): digest j = Pgen(comm_r_new, k * digests + j), its
 * little-endian bits cut into per_digest chunks of random_bits, LSB
 * first, each ORed with k << random_bits, so every challenge lies in
 * partition k's nodes.  CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_fc_update_challenges(const cz_fc_update_shape *s, const cz_fr *comm_r_new, unsigned k,
                            uint32_t *out);

/* ------------------ EmptySectorUpdate: the vanilla partition proof --- */

/* One challenge's proofs: TreeR old and new (Poseidon, the shape's base 8,
 * sub and top arities: Single, Sub or Top) and TreeD new (binary SHA-256
 * over every node: Single, node_bits levels). */
typedef struct {
    cz_fc_merkle_proof r_old, d_new, r_new;
} cz_fc_update_challenge_proof;

/* storage-proofs-update's PartitionProof: comm_c, the partition's apex
 * leaves (TreeD row node_bits - partition_bits - apex_bits, 2^apex_bits
 * entries) and one proof per challenge.  Its arrays live in one block
 * from alloc (class CZ_BUF_INPUT), returned by cz_fc_update_proof_free. */
typedef struct {
    cz_fc_d comm_c;
    uint32_t n_apex, n_challenges;
    cz_fc_d *apex_leafs;
    cz_fc_update_challenge_proof *challenges;
    void *mem; /* the block */
    size_t mem_bytes;
    const cz_allocator *alloc;
} cz_fc_update_partition_proof;

/* The form and level count of a tree of the update's shape s: TreeD
 * Single of node_bits binary levels; TreeR (kind CZ_FC_TREE_RC)
 * (node_bits - log2 sub - log2 top) / 3 octary levels, then the sub
 * level, then the top level. */
cz_fc_proof_form cz_fc_update_tree_form(const cz_fc_update_shape *s, cz_fc_tree_kind k);
unsigned cz_fc_update_tree_levels(const cz_fc_update_shape *s, cz_fc_tree_kind k);
unsigned cz_fc_update_tree_arity(const cz_fc_update_shape *s, cz_fc_tree_kind k, unsigned level);

/* An empty proof of shape s (every level's arity set, every hash zero),
 * for writers: CZ_OK, CZ_ERR_NOMEM. */
int cz_fc_update_proof_alloc(cz_fc_update_partition_proof *p, const cz_fc_update_shape *s,
                             const cz_allocator *alloc);
void cz_fc_update_proof_free(cz_fc_update_partition_proof *p); /* zeroes *p; NULL ok */

/* The bincode 1 encoding (serde derive, little-endian, u32 enum variants,
 * u64 lengths and usize): comm_c[32] | u64 n, apex_leafs[32 each] | u64 n,
 * per challenge the three MerkleProofs.  A MerkleProof is u32 variant (0
 * Single: root, leaf, path; 1 Sub: base path, sub path, root, leaf; 2 Top:
 * base, sub, top paths, root, leaf); a path is u64 levels, each u64
 * siblings, the siblings[32 each], u64 index.  The size is fixed by the
 * shape: 561,768 bytes at 32GiB. */
size_t cz_fc_update_proof_bytes(const cz_fc_update_shape *s);
/* Reads one partition's proof strictly: every count, variant and index
 * must be the shape's, every domain canonical (TreeR values below r,
 * TreeD values with the top two bits clear), nothing may follow.  CZ_OK;
 * CZ_ERR_TRUNCATED, CZ_ERR_BAD_LENGTH (bytes left over), CZ_ERR_BAD_FORMAT
 * (a count, variant or index), CZ_ERR_NOT_CANONICAL, CZ_ERR_NOMEM,
 * CZ_ERR_INVALID_ARG; err then names the field by its serde path (e.g.
 * "update partition proof: challenge_proofs[3].proof_r_old.base_proof.
 * path[2]: index 9, the arity is 8 (at byte N)"; a Single proof's levels
 * are "path.path[i]").  *out is zeroed on error. */
int cz_fc_update_proof_read(cz_fc_update_partition_proof *out, const cz_fc_update_shape *s,
                            const uint8_t *buf, size_t len, const cz_allocator *alloc, char *err,
                            size_t errlen);
/* Writes p (of shape s) into out[0 .. cz_fc_update_proof_bytes(s)).
 * CZ_OK, CZ_ERR_BAD_LENGTH (cap too small), CZ_ERR_INVALID_ARG (p is not
 * of shape s). */
int cz_fc_update_proof_write(uint8_t *out, size_t cap, const cz_fc_update_partition_proof *p,
                             const cz_fc_update_shape *s);

/* --------------------- EmptySectorUpdate: the vanilla verifier, a sector --- */

/* A partition's public inputs (vanilla.rs PublicInputs). */
typedef struct {
    unsigned k, h;
    cz_fc_d comm_r_old, comm_d_new, comm_r_new;
} cz_fc_update_public;

/* storage-proofs-update's vanilla verify of partition pub->k, check for
 * check:
 *   k < partitions, h allowed, the counts the shape's;
 *   comm_r_old = Pmerkle2(comm_c, root_r_old) and the same for new, the
 *   roots being challenge 0's;
 *   per challenge c (cz_fc_update_challenges): the three paths lead to
 *   node c, their roots are root_r_old, comm_d_new, root_r_new and they
 *   hash up to them; proof_r_new's leaf is
 *   proof_r_old's + proof_d_new's * rho(c) (the replica's encoding); and
 *   the sibling of proof_d_new's path at each of the apex_bits levels
 *   from row node_bits - partition_bits - apex_bits up is in the row of
 *   the apex tree built from apex_leafs (the source's check, which does
 *   not fix the position).
 * CZ_OK, or CZ_ERR_BAD_PROOF with err naming the first failed check (the
 * challenge, its node and what differs), CZ_ERR_INVALID_ARG (k, h, a
 * proof not of the shape), CZ_ERR_NOT_CANONICAL (a value of the proof is
 * not a valid field element). */
int cz_fc_update_verify(const cz_fc_update_shape *s, const cz_fc_update_public *pub,
                        const cz_fc_update_partition_proof *p, char *err, size_t errlen);

/* A sector updated with new data, its trees kept for proving (small
 * sectors: the trees are dense).  shape: the production shape of the
 * sector size (TreeR's arities), u the update shape of the same size. */
typedef struct cz_fc_update_sector cz_fc_update_sector;
/* Encodes: label_r_new[i] = label_r_old[i] + data_new[i] * rho(i) in Fr
 * for every node i (replica_old: the sealed replica's TreeR leaves,
 * data_new: the new data, Fr32-padded, as TreeD leaves), builds TreeD
 * over data_new, TreeR old and new, and the commitments comm_r_old =
 * Pmerkle2(comm_c, root_r_old), comm_d_new, comm_r_new.  h: one of the
 * shape's hs.  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOT_CANONICAL (a value
 * that is not a field element), CZ_ERR_NOMEM. */
int cz_fc_update_sector_new(cz_fc_update_sector **out, const cz_fc_shape *shape,
                            const cz_fc_update_shape *u, const cz_fc_d *replica_old,
                            const cz_fc_d *data_new, const cz_fc_d *comm_c, unsigned h,
                            const cz_allocator *alloc);
/* A synthetic update of any sector size, consistent in every check of
 * the vanilla verifier and the circuit, without a whole sector: the old
 * replica is one default label except at 64 nodes drawn from seed (random
 * labels there), the new data zero except at the same nodes, so three
 * sparse trees (cz_fc_tree_build_sparse) describe the sector exactly; the
 * nodes every partition challenges are listed in them too, so each has
 * its paths.  comm_c and the labels come from seed.  Seconds and tens of
 * MiB at 32GiB.  cz_fc_update_sector_replica gives NULL. */
int cz_fc_update_sector_synth(cz_fc_update_sector **out, const cz_fc_shape *shape,
                              const cz_fc_update_shape *u, uint64_t seed, unsigned h,
                              const cz_allocator *alloc);
void cz_fc_update_sector_free(cz_fc_update_sector *x);
/* The commitments, and the new replica (u->sector_nodes TreeR leaves;
 * NULL for a synthetic sector). */
void cz_fc_update_sector_public(const cz_fc_update_sector *x, unsigned k, cz_fc_update_public *pub);
const cz_fc_d *cz_fc_update_sector_replica(const cz_fc_update_sector *x);
/* Partition k's vanilla proof (cz_fc_update_proof_alloc'd from alloc). */
int cz_fc_update_sector_prove(const cz_fc_update_sector *x, unsigned k,
                              cz_fc_update_partition_proof *p, const cz_allocator *alloc);

/* --------------------------------------- EmptySectorUpdate: the circuit --- */

/* The EmptySectorUpdate circuit of partition pub->k (storage-proofs-update
 * EmptySectorUpdateCircuit, constraint for constraint, in its allocation
 * order; src/filecoin/update_circuit.c) in any cs mode, with the values of
 * pub and p, or blank (both NULL: zeros, as bellperson's blank circuit).
 * Inputs after ONE: k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
 * CZ_OK, CZ_ERR_INVALID_ARG (k, h, or p not of the shape, err naming
 * it), CZ_ERR_NOMEM, or the cs's error. */
int cz_fc_update_synthesize(cz_cs *cs, const cz_fc_update_shape *u,
                            const cz_fc_update_public *pub, const cz_fc_update_partition_proof *p,
                            char *err, size_t errlen);

/* The counts of inputs (ONE included) and auxiliaries that any synthesis
 * of the circuit of shape u allocates: computed once per shape (a blank
 * witness-only run of the header and one challenge), cached for the
 * process; thread-safe.  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM. */
int cz_fc_update_counts(const cz_fc_update_shape *u, size_t *n_inputs, size_t *n_aux);
/* Witness-only synthesis of partition pub->k into w = [inputs | aux]
 * (w_len = the sum of cz_fc_update_counts): the header (every input, phi,
 * the apex tree, the challenge bits) on the calling thread, then the
 * challenges on pool (NULL: this thread) in parallel, each writing its
 * fixed slice of w in place (src/filecoin/update_witness.c).  The
 * assignment equals the one cz_fc_update_synthesize stores.  CZ_OK,
 * CZ_ERR_INVALID_ARG (w_len, k, h, p not of the shape), CZ_ERR_NOMEM,
 * with err set. */
int cz_fc_update_witness(cz_fr *w, size_t w_len, const cz_fc_update_shape *u,
                         const cz_fc_update_public *pub, const cz_fc_update_partition_proof *p,
                         cz_pool *pool, char *err, size_t errlen);

/* ------------------------------------ EmptySectorUpdate: the SNARK proof --- */

/* The public inputs of partition pub->k's circuit (ONE excluded), as
 * EmptySectorUpdateCompound::generate_public_inputs: k_and_h_select,
 * comm_r_old, comm_d_new, comm_r_new.  CZ_OK, CZ_ERR_INVALID_ARG (k, h),
 * CZ_ERR_NOT_CANONICAL (a commitment is not a field element). */
#define CZ_FC_UPDATE_INPUTS 4
int cz_fc_update_public_inputs(cz_fr out[CZ_FC_UPDATE_INPUTS], const cz_fc_update_shape *u,
                               const cz_fc_update_public *pub);
/* filecoin-proofs verify_empty_sector_update_proof: partitions x 192
 * bytes, partition k's proof verified under pvk with k's public inputs
 * (h the shape's), as one batch (a failed batch proof by proof, to name
 * the partition).  *valid says the answer; CZ_OK whenever the inputs were
 * well-formed, CZ_ERR_BAD_LENGTH, CZ_ERR_INVALID_ARG (a vk with another
 * input count), CZ_ERR_NOT_CANONICAL (a commitment), with err set. */
int cz_fc_verify_update(const cz_groth16_pvk *pvk, const uint8_t *proofs, size_t len,
                        const cz_fc_update_shape *u, const cz_fc_d *comm_r_old,
                        const cz_fc_d *comm_d_new, const cz_fc_d *comm_r_new, bool *valid,
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
#endif /* CUZK_FILECOIN_H */
