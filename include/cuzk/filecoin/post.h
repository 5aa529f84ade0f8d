/* cuzk: Filecoin's proofs of spacetime, WindowPoSt and WinningPoSt:
 * storage-proofs-post's FallbackPoSt (its shapes, challenges, the vanilla
 * sector proofs Curio sends, their verifier, the circuit and its public
 * inputs) and filecoin-proofs' RegisteredPoStProof numbers and parameter
 * files.  docs/post.md is the specification, each fact with the source
 * file it comes from.
 *
 * Two views of one proof: the vanilla one (what a storage provider's
 * sector files give: one FallbackPoStSectorProof blob per sector, with
 * its challenges' inclusion proofs in TreeR) and the circuit's (sector_count
 * circuit sectors of challenge_count challenges each).  WindowPoSt's are the
 * same: up to sector_count blobs of 10 challenges, a short partition padded
 * by repeating the last sector.  WinningPoSt has one blob of 66 challenges
 * that the circuit unrolls into 66 sectors of one challenge. */
#ifndef CUZK_FILECOIN_POST_H
#define CUZK_FILECOIN_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin/core.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------ shapes, proof types --- */

typedef enum { CZ_POST_WINNING = 0, CZ_POST_WINDOW = 1 } cz_post_kind;

#define CZ_POST_WINDOW_CHALLENGES  10 /* WINDOW_POST_CHALLENGE_COUNT */
/* A WindowPoSt proof covers partitions of one deadline, which holds at
 * most this many (builtin-actors runtime/src/runtime/policy.rs
 * max_partitions_per_deadline): its partition indexes are below it. */
#define CZ_POST_MAX_PARTITIONS 3000
#define CZ_POST_WINNING_CHALLENGES 66 /* WINNING_POST_CHALLENGE_COUNT */

/* A FallbackPoSt circuit's shape.  tree: TreeR's shape (tree.log_nodes
 * leaves, tree.base_levels 8-ary levels, then sub_arity and top_arity
 * levels, as cz_fc_tree_* read them); for a sector size it is the sector's
 * shape, for the source's test shapes one built by cz_post_shape_test. */
typedef struct {
    cz_post_kind kind;
    cz_fc_shape tree;
    unsigned sector_count;    /* circuit sectors: the size's Window count, 66 Winning */
    unsigned challenge_count; /* per circuit sector: 10 Window, 1 Winning */
} cz_post_shape;

/* The production shape of kind for a sector size (filecoin-proofs
 * constants.rs WINDOW_POST_SECTOR_COUNT: 2 below 32GiB, 2349 at 32GiB,
 * 2300 at 64GiB; parameters.rs winning_post_setup_params: 66 x 1).
 * CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_post_shape_of(cz_post_shape *s, cz_post_kind kind, const cz_fc_shape *sector);
/* The shapes of storage-proofs-post tests/fallback_circuit.rs (a Window
 * shape): "test-base-8" (8-0-0, 64 leaves), "test-sub-8-4" (8-4-0, 256),
 * "test-top-8-4-2" (8-4-2, 512), with the given counts.  CZ_OK or
 * CZ_ERR_INVALID_ARG. */
int cz_post_shape_test(cz_post_shape *s, const char *name, unsigned sector_count,
                       unsigned challenge_count);

/* The vanilla view: blobs a partition takes at most (Window sector_count,
 * Winning 1) and the challenges, that is inclusion proofs, of one blob
 * (Window challenge_count, Winning sector_count x challenge_count = 66). */
unsigned cz_post_max_blobs(const cz_post_shape *s);
unsigned cz_post_blob_challenges(const cz_post_shape *s);

/* A RegisteredPoStProof (go-state-types abi numbers, as Curio sends
 * them): 0..4 StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (API
 * 1.0), 5..9 StackedDrgWindow...V1 (1.0), 10..14 StackedDrgWindow...V1_1
 * (filecoin-proofs-api's V1_2: API 1.2). */
typedef struct {
    const char *name; /* "StackedDrgWindow32GiBV1_1" */
    uint64_t id;
    cz_post_kind kind;
    cz_fc_shape_id size; /* the sector size (cz_fc_shape_get) */
    cz_fc_api api;       /* CZ_FC_API_1_0 or CZ_FC_API_1_2 */
} cz_post_proof_type;

/* NULL for a number that is none. */
const cz_post_proof_type *cz_post_proof_by_id(uint64_t id);

/* The parameter files' base name (".params", ".vk" appended):
 * "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-<sub>-
 * <top>-" and the hex SHA-256 of "FallbackPoSt::PublicParams{sector_size:
 * <bytes>, challenge_count: <c>, sector_count: <n>}" (vanilla.rs
 * PublicParams::identifier, compound.rs cache_prefix): no API version, so
 * Window V1 and V1_1 share files. */
void cz_post_params_name(char out[CZ_FC_PARAMS_NAME], const cz_post_shape *s);

/* -------------------------------------------------------- challenges --- */

/* The challenged leaf: the first 8 bytes, little-endian, of
 * SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE),
 * modulo leaves (vanilla.rs generate_leaf_challenge_inner). */
uint64_t cz_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                uint64_t challenge_index, uint64_t leaves);
/* challenge_index of challenge n of the sector at sector_index
 * (utils.rs get_challenge_index): API 1.0 and 1.1 sector_index x
 * challenge_count + n, 1.2 n. */
uint64_t cz_post_challenge_index(cz_fc_api api, uint64_t sector_index, unsigned challenge_count,
                                 unsigned n);
/* The cz_post_blob_challenges(s) leaves a blob of sector_id at
 * sector_index (its position in the proven sector list: partition x
 * sector_count + i; 0 for Winning) must prove, in order. */
void cz_post_sector_challenges(uint64_t *out, const cz_post_shape *s, cz_fc_api api,
                               const uint8_t randomness[32], uint64_t sector_id,
                               uint64_t sector_index);
/* The sector_index of blob i of partition k: k x sector_count + i for
 * Window, 0 for Winning (its one blob). */
uint64_t cz_post_sector_index(const cz_post_shape *s, unsigned k, size_t i);
/* WinningPoSt's choice among n_sectors eligible sectors: the first 8
 * bytes, little-endian, of SHA-256(prover_id || randomness || 0 u64 LE)
 * modulo n_sectors (vanilla.rs generate_sector_challenge).  CZ_OK or
 * CZ_ERR_INVALID_ARG (n_sectors 0). */
int cz_post_winning_sector(uint64_t *out, const uint8_t prover_id[32], const uint8_t randomness[32],
                           uint64_t n_sectors);
/* The randomness must be a canonical Fr (filecoin-proofs-api
 * as_safe_commitment): CZ_OK or CZ_ERR_NOT_CANONICAL. */
int cz_post_randomness_check(const uint8_t randomness[32]);

/* ------------------------------------------------ vanilla sector proofs --- */

/* storage-proofs-post's SectorProof: a TreeR inclusion proof per
 * challenge (n_inclusion), comm_c and comm_r_last. */
typedef struct {
    cz_fc_merkle_proof *inclusion;
    uint32_t n_inclusion;
    cz_fc_d comm_c, comm_r_last;
} cz_post_sector_proof;

/* filecoin-proofs' FallbackPoStSectorProof, one sector's blob: its id,
 * comm_r and its one SectorProof.  The arrays live in one block from
 * alloc (class CZ_BUF_INPUT; NULL: the default), returned by
 * cz_post_vanilla_free. */
typedef struct {
    uint64_t sector_id;
    cz_fc_d comm_r;
    cz_post_sector_proof proof;
    cz_fc_block block;
} cz_post_vanilla;

/* An empty blob of shape s (cz_post_blob_challenges inclusion proofs,
 * every level's arity set, every value zero), for writers and provers:
 * CZ_OK, CZ_ERR_NOMEM. */
int cz_post_vanilla_alloc(cz_post_vanilla *v, const cz_post_shape *s, const cz_allocator *alloc);
void cz_post_vanilla_free(cz_post_vanilla *v); /* zeroes *v; NULL ok */

/* The bincode 1 encoding (serde derive: little-endian fixed-width
 * integers, u64 lengths, u32 enum variants): sector_id u64 | comm_r[32] |
 * u64 sectors (1), then the SectorProof: u64 n, n MerkleProofs | comm_c
 * [32] | comm_r_last[32].  A MerkleProof is u32 variant (0 Single: root,
 * leaf, path; 1 Sub: base path, sub path, root, leaf; 2 Top: base, sub,
 * top paths, root, leaf); a path is u64 elements, each u64 siblings, the
 * siblings [32 each], u64 index.  The size is fixed by the shape:
 * 120 + n x 2,484 bytes at 32GiB (24,960 for a Window blob). */
size_t cz_post_vanilla_bytes(const cz_post_shape *s);
/* Reads one blob strictly: one SectorProof, cz_post_blob_challenges(s)
 * inclusion proofs, every variant, level count, sibling count and index
 * the shape's, every value a canonical Fr, nothing after it.  CZ_OK;
 * CZ_ERR_TRUNCATED, CZ_ERR_BAD_LENGTH (bytes left over), CZ_ERR_BAD_FORMAT
 * (a count, variant or index), CZ_ERR_NOT_CANONICAL, CZ_ERR_NOMEM,
 * CZ_ERR_INVALID_ARG; err then names the field by its serde path
 * ("post vanilla proof: vanilla_proof.sectors[0].inclusion_proofs[3]
 * .base_proof.path[2].index: 9, the arity is 8 (at byte N)"; a Single
 * proof's levels are "path.path[i]").  *out is zeroed on error. */
int cz_post_vanilla_read(cz_post_vanilla *out, const cz_post_shape *s, const uint8_t *buf,
                         size_t len, const cz_allocator *alloc, char *err, size_t errlen);
/* Writes v (of shape s) into out[0 .. cz_post_vanilla_bytes(s)).  CZ_OK,
 * CZ_ERR_BAD_LENGTH (cap too small), CZ_ERR_INVALID_ARG (v not of shape
 * s). */
int cz_post_vanilla_write(uint8_t *out, size_t cap, const cz_post_vanilla *v,
                          const cz_post_shape *s);

/* FallbackPoSt::verify for one blob, every inclusion proof (upstream's
 * WinningPoSt check covers only the first: this one all 66): the
 * challenges derived (cz_post_sector_challenges with v->sector_id and
 * sector_index) are the leaves the paths lead to, each path hashes up to
 * its root, every root is comm_r_last, and comm_r = Poseidon-2(comm_c,
 * comm_r_last).  CZ_OK, CZ_ERR_BAD_PROOF with err naming the first failed
 * check ("inclusion proof 3 (challenge leaf 4121): the path leads to leaf
 * 17"), CZ_ERR_INVALID_ARG (v not of shape s), CZ_ERR_NOT_CANONICAL (the
 * randomness). */
int cz_post_vanilla_verify(const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                           uint64_t sector_index, const cz_post_vanilla *v, char *err,
                           size_t errlen);
/* cz_post_vanilla_verify without hashing the paths (the expensive part:
 * 10 Poseidon hashes a path at 32GiB), for a blob whose witness
 * cz_post_witness will compute, which checks them: the challenges, the
 * roots, comm_r.  Same results otherwise. */
int cz_post_vanilla_check(const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                          uint64_t sector_index, const cz_post_vanilla *v, char *err,
                          size_t errlen);

/* A blob for a sector whose TreeR is tree_r (of shape s->tree; dense, or
 * sparse over at least the challenged leaves) and comm_c, as
 * generate_single_vanilla_proof makes it: comm_r = Poseidon-2(comm_c,
 * root), the challenges of cz_post_sector_challenges, their proofs.  *out
 * allocated from alloc.  CZ_OK, CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG (a leaf
 * the tree does not hold), CZ_ERR_NOT_CANONICAL, with err set. */
int cz_post_vanilla_prove(cz_post_vanilla *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], uint64_t sector_id, uint64_t sector_index,
                          const cz_fc_tree *tree_r, const cz_fc_d *comm_c,
                          const cz_allocator *alloc, char *err, size_t errlen);
/* A consistent blob of any sector size without a sector: comm_c, the
 * challenged leaves and a default leaf drawn from seed, TreeR a sparse
 * tree over the challenged leaves (cz_fc_tree_build_sparse): what a
 * 32GiB partition of 2,349 sectors is benchmarked on.  Milliseconds and a
 * few MiB per blob. */
int cz_post_vanilla_synth(cz_post_vanilla *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], uint64_t sector_id, uint64_t sector_index,
                          uint64_t seed, const cz_allocator *alloc, char *err, size_t errlen);

/* ------------------------------------------------ circuit, public inputs --- */

/* One circuit sector's values: its commitments and challenge_count
 * inclusion proofs (pointing into a blob). */
typedef struct {
    cz_fc_d comm_r, comm_c, comm_r_last;
    const cz_fc_merkle_proof *inclusion;
} cz_post_circuit_sector;

/* The s->sector_count circuit sectors of a partition from its n blobs, as
 * FallbackPoStCompound::circuit and single_partition_vanilla_proofs build
 * them: Window, blob i for i < n and the last blob for the rest (a short
 * partition's padding); Winning (n = 1), sector i blob 0's commitments
 * and inclusion proof i.  CZ_OK or CZ_ERR_INVALID_ARG (n 0 or above
 * cz_post_max_blobs). */
/* Where circuit sector i's inclusion proof c comes from in the n blobs
 * cz_post_circuit_sectors took: *blob and its inclusion proof *inclusion. */
void cz_post_circuit_source(const cz_post_shape *s, size_t n, unsigned i, unsigned c,
                            unsigned *blob, unsigned *inclusion);
int cz_post_circuit_sectors(cz_post_circuit_sector *out, const cz_post_shape *s,
                            const cz_post_vanilla *blobs, size_t n);

/* FallbackPoStCircuit::synthesize, constraint for constraint (docs/post.md
 * 1.2), sectors in order, each: comm_r_last, comm_c, comm_r (aux), comm_r
 * inputized, Poseidon-2(comm_c, comm_r_last) = comm_r, then per challenge
 * the leaf (aux), each level's index bits (booleanity), siblings, insert
 * and Poseidon, the index bits packed into an input, the root equal to
 * comm_r_last.  sec: s->sector_count sectors, or NULL for the blank
 * circuit (every value zero).  Any cs mode; a RECORD cs without
 * namespaces records the blank circuit's first sector and copies it
 * (cz_cs_repeat: the 32GiB WindowPoSt partition in 12 s on 16 cores, 47
 * s on 2, against 8 minutes sector by sector).  CZ_OK,
 * CZ_ERR_INVALID_ARG (a path not of the shape), CZ_ERR_NOMEM or the cs's
 * error, with err set. */
int cz_post_synthesize(cz_cs *cs, const cz_post_shape *s, const cz_post_circuit_sector *sec,
                       char *err, size_t errlen);
/* Inputs (ONE included: 1 + sector_count x (1 + challenge_count)) and
 * auxiliaries of the circuit of s, from a blank witness-only run of one
 * sector, cached for the process; thread-safe.  CZ_OK, CZ_ERR_NOMEM,
 * CZ_ERR_INVALID_ARG. */
int cz_post_counts(const cz_post_shape *s, size_t *n_inputs, size_t *n_aux);
/* An inclusion path that does not hash up to its sector's comm_r_last:
 * circuit sector and challenge (cz_post_circuit_sectors' numbering). */
typedef struct {
    unsigned sector, challenge;
} cz_post_bad_path;

/* Witness-only synthesis into w = [inputs | aux] (w_len the sum of
 * cz_post_counts), the sectors in parallel on pool (NULL: this thread),
 * each writing its fixed slices of w (the circuit's shape does not depend
 * on its values).  The assignment equals cz_post_synthesize's.  It also
 * does the part of the vanilla verification that cz_post_vanilla_check
 * leaves out, since the witness computes those hashes anyway: every
 * inclusion path must hash up to its sector's comm_r_last, else
 * CZ_ERR_BAD_PROOF with err naming the first such path in sector order
 * and *bad (when not NULL) set to it.  CZ_OK, CZ_ERR_INVALID_ARG (w_len,
 * a path not of the shape), CZ_ERR_NOMEM, CZ_ERR_BAD_PROOF, with err
 * set. */
int cz_post_witness(cz_fr *w, size_t w_len, const cz_post_shape *s,
                    const cz_post_circuit_sector *sec, cz_pool *pool, cz_post_bad_path *bad,
                    char *err, size_t errlen);

/* A proven sector as the verifier knows it. */
typedef struct {
    uint64_t sector_id;
    cz_fc_d comm_r;
} cz_post_public_sector;

/* The public inputs of partition k (ONE excluded: sector_count x (1 +
 * challenge_count) values), FallbackPoStCompound::generate_public_inputs:
 * per circuit sector its comm_r, then its challenged leaves.  sectors:
 * partition k's n public sectors (Window: n <= sector_count, sector i at
 * sector_index k x sector_count + i, the last one's block repeated up to
 * sector_count; Winning: n = 1, 66 circuit sectors of it, circuit sector
 * i taking challenge index i).  CZ_OK, CZ_ERR_INVALID_ARG (n),
 * CZ_ERR_NOT_CANONICAL (a comm_r, the randomness). */
size_t cz_post_public_input_count(const cz_post_shape *s);
int cz_post_public_inputs(cz_fr *out, const cz_post_shape *s, cz_fc_api api,
                          const uint8_t randomness[32], const cz_post_public_sector *sectors,
                          size_t n, unsigned k);

/* Verifies one partition's 192-byte proof under pvk with the inputs of
 * cz_post_public_inputs.  *valid says the answer; CZ_OK whenever the
 * inputs were well-formed, CZ_ERR_BAD_LENGTH (not 192 bytes),
 * CZ_ERR_INVALID_ARG (n, a vk with another input count),
 * CZ_ERR_NOT_CANONICAL, with err set. */
int cz_post_verify(const cz_groth16_pvk *pvk, const uint8_t *proof, size_t len,
                   const cz_post_shape *s, cz_fc_api api, const uint8_t randomness[32],
                   const cz_post_public_sector *sectors, size_t n, unsigned k, bool *valid,
                   char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_FILECOIN_POST_H */
