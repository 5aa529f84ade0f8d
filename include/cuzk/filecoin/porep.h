/* cuzk: Filecoin's PoRep (storage-proofs-porep's stacked DRG): the
 * graph and its parent cache, replica ids and labels, challenges, the
 * Commit Phase 1 output (C1) and its vanilla proofs, sealing, synthetic
 * C1s, vanilla verification, the C2 circuit, its witness and public
 * inputs, and seal verification.  docs/filecoin.md keeps the facts and
 * where each came from. */
#ifndef CUZK_FILECOIN_POREP_H
#define CUZK_FILECOIN_POREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/ff.h"
#include "cuzk/filecoin/core.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* The PoRep circuit's (src/filecoin/porep/params.c; StackedCompound's
 * cache_prefix): circuit "stacked-proof-of-replication", hasher
 * "sha256_hasher", the identifier cz_fc_porep_params_identifier's. */
void cz_fc_porep_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_shape *s);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_FILECOIN_POREP_H */
