/* cuzk: Filecoin's SnapDeals (storage-proofs-update's EmptySectorUpdate):
 * its shapes, randomness and challenges, the vanilla partition proof, its
 * verifier, sector encoding, the circuit, its witness and public inputs,
 * and the SNARK proof's verification.  docs/filecoin.md keeps the facts
 * and where each came from. */
#ifndef CUZK_FILECOIN_SNAP_H
#define CUZK_FILECOIN_SNAP_H

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
} cz_fc_snap_shape;

/* The shape of sector_nodes: CZ_OK, or CZ_ERR_INVALID_ARG for a size the
 * update proof does not allow. */
int cz_fc_snap_shape_of(cz_fc_snap_shape *s, uint64_t sector_nodes);
/* h_select = 2^(index of h in hs) (the first when several are equal), or
 * 0 when h is not allowed; the public input is
 * k | h_select << partition_bits (cz_fc_snap_k_and_h). */
uint64_t cz_fc_snap_h_select(const cz_fc_snap_shape *s, unsigned h);
uint64_t cz_fc_snap_k_and_h(const cz_fc_snap_shape *s, unsigned k, unsigned h);
/* RegisteredUpdateProof id (filecoin-ffi / go-state-types: 0..4 =
 * StackedDrg 2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1): the sector's PoRep
 * shape, NULL for another number. */
const cz_fc_shape *cz_fc_snap_proof_shape(uint64_t registered_update_proof);
/* The base name of the update circuit's parameter files
 * (cz_fc_params_name; src/filecoin/snap/shape.c): circuit
 * "empty-sector-update", the identifier "empty_sector_update::
 * PublicParams{ sector_nodes: <nodes> }" (vanilla.rs
 * PublicParams::identifier). */
void cz_fc_snap_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_snap_shape *u);

/* --------------------------- EmptySectorUpdate: randomness, challenges --- */

/* Pgen(a, b): Poseidon of arity 2 with neptune's CType::Arbitrary(1)
 * domain tag (2^40), the update proof's randomness hash. */
int cz_fc_snap_gen_randomness(cz_fr *out, const cz_fr *a, const cz_fr *b);
/* phi = Pgen(comm_d_new, comm_r_old). */
int cz_fc_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old);
/* rho(c) = Pgen(phi, c >> (B - h)), the top h bits of challenge c. */
int cz_fc_snap_rho(cz_fr *rho, const cz_fc_snap_shape *s, const cz_fr *phi, uint64_t c, unsigned h);
/* The s->challenges challenges of partition k < s->partitions
 * (challenges.rs): digest j = Pgen(comm_r_new, k * digests + j), its
 * little-endian bits cut into per_digest chunks of random_bits, LSB
 * first, each ORed with k << random_bits, so every challenge lies in
 * partition k's nodes.  CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_fc_snap_challenges(const cz_fc_snap_shape *s, const cz_fr *comm_r_new, unsigned k,
                          uint32_t *out);

/* ------------------ EmptySectorUpdate: the vanilla partition proof --- */

/* One challenge's proofs: TreeR old and new (Poseidon, the shape's base 8,
 * sub and top arities: Single, Sub or Top) and TreeD new (binary SHA-256
 * over every node: Single, node_bits levels). */
typedef struct {
    cz_fc_merkle_proof r_old, d_new, r_new;
} cz_fc_snap_challenge_proof;

/* storage-proofs-update's PartitionProof: comm_c, the partition's apex
 * leaves (TreeD row node_bits - partition_bits - apex_bits, 2^apex_bits
 * entries) and one proof per challenge.  Its arrays live in one block
 * from alloc (class CZ_BUF_INPUT), returned by cz_fc_snap_proof_free. */
typedef struct {
    cz_fc_d comm_c;
    uint32_t n_apex, n_challenges;
    cz_fc_d *apex_leafs;
    cz_fc_snap_challenge_proof *challenges;
    cz_fc_block block;
} cz_fc_snap_partition_proof;

/* The form and level count of a tree of the update's shape s: TreeD
 * Single of node_bits binary levels; TreeR (kind CZ_FC_TREE_RC)
 * (node_bits - log2 sub - log2 top) / 3 octary levels, then the sub
 * level, then the top level. */
cz_fc_proof_form cz_fc_snap_tree_form(const cz_fc_snap_shape *s, cz_fc_tree_kind k);
unsigned cz_fc_snap_tree_levels(const cz_fc_snap_shape *s, cz_fc_tree_kind k);
unsigned cz_fc_snap_tree_arity(const cz_fc_snap_shape *s, cz_fc_tree_kind k, unsigned level);

/* An empty proof of shape s (every level's arity set, every hash zero),
 * for writers: CZ_OK, CZ_ERR_NOMEM. */
int cz_fc_snap_proof_alloc(cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s,
                           const cz_allocator *alloc);
void cz_fc_snap_proof_free(cz_fc_snap_partition_proof *p); /* zeroes *p; NULL ok */

/* The bincode 1 encoding (serde derive, little-endian, u32 enum variants,
 * u64 lengths and usize): comm_c[32] | u64 n, apex_leafs[32 each] | u64 n,
 * per challenge the three MerkleProofs.  A MerkleProof is u32 variant (0
 * Single: root, leaf, path; 1 Sub: base path, sub path, root, leaf; 2 Top:
 * base, sub, top paths, root, leaf); a path is u64 levels, each u64
 * siblings, the siblings[32 each], u64 index.  The size is fixed by the
 * shape: 561,768 bytes at 32GiB. */
size_t cz_fc_snap_proof_bytes(const cz_fc_snap_shape *s);
/* Reads one partition's proof strictly: every count, variant and index
 * must be the shape's, every domain canonical (TreeR values below r,
 * TreeD values with the top two bits clear), nothing may follow.  CZ_OK;
 * CZ_ERR_TRUNCATED, CZ_ERR_BAD_LENGTH (bytes left over), CZ_ERR_BAD_FORMAT
 * (a count, variant or index), CZ_ERR_NOT_CANONICAL, CZ_ERR_NOMEM,
 * CZ_ERR_INVALID_ARG; err then names the field by its serde path (e.g.
 * "update partition proof: challenge_proofs[3].proof_r_old.base_proof.
 * path[2]: index 9, the arity is 8 (at byte N)"; a Single proof's levels
 * are "path.path[i]").  *out is zeroed on error. */
int cz_fc_snap_proof_read(cz_fc_snap_partition_proof *out, const cz_fc_snap_shape *s,
                          const uint8_t *buf, size_t len, const cz_allocator *alloc, char *err,
                          size_t errlen);
/* Writes p (of shape s) into out[0 .. cz_fc_snap_proof_bytes(s)).
 * CZ_OK, CZ_ERR_BAD_LENGTH (cap too small), CZ_ERR_INVALID_ARG (p is not
 * of shape s). */
int cz_fc_snap_proof_write(uint8_t *out, size_t cap, const cz_fc_snap_partition_proof *p,
                           const cz_fc_snap_shape *s);

/* --------------------- EmptySectorUpdate: the vanilla verifier, a sector --- */

/* A partition's public inputs (vanilla.rs PublicInputs). */
typedef struct {
    unsigned k, h;
    cz_fc_d comm_r_old, comm_d_new, comm_r_new;
} cz_fc_snap_public;

/* storage-proofs-update's vanilla verify of partition pub->k, check for
 * check:
 *   k < partitions, h allowed, the counts the shape's;
 *   comm_r_old = Pmerkle2(comm_c, root_r_old) and the same for new, the
 *   roots being challenge 0's;
 *   per challenge c (cz_fc_snap_challenges): the three paths lead to
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
int cz_fc_snap_verify(const cz_fc_snap_shape *s, const cz_fc_snap_public *pub,
                      const cz_fc_snap_partition_proof *p, char *err, size_t errlen);

/* A sector updated with new data, its trees kept for proving (small
 * sectors: the trees are dense).  shape: the production shape of the
 * sector size (TreeR's arities), u the update shape of the same size. */
typedef struct cz_fc_snap_sector cz_fc_snap_sector;
/* Encodes: label_r_new[i] = label_r_old[i] + data_new[i] * rho(i) in Fr
 * for every node i (replica_old: the sealed replica's TreeR leaves,
 * data_new: the new data, Fr32-padded, as TreeD leaves), builds TreeD
 * over data_new, TreeR old and new, and the commitments comm_r_old =
 * Pmerkle2(comm_c, root_r_old), comm_d_new, comm_r_new.  h: one of the
 * shape's hs.  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOT_CANONICAL (a value
 * that is not a field element), CZ_ERR_NOMEM. */
int cz_fc_snap_sector_new(cz_fc_snap_sector **out, const cz_fc_shape *shape,
                          const cz_fc_snap_shape *u, const cz_fc_d *replica_old,
                          const cz_fc_d *data_new, const cz_fc_d *comm_c, unsigned h,
                          const cz_allocator *alloc);
/* A synthetic update of any sector size, consistent in every check of
 * the vanilla verifier and the circuit, without a whole sector: the old
 * replica is one default label except at 64 nodes drawn from seed (random
 * labels there), the new data zero except at the same nodes, so three
 * sparse trees (cz_fc_tree_build_sparse) describe the sector exactly; the
 * nodes every partition challenges are listed in them too, so each has
 * its paths.  comm_c and the labels come from seed.  Seconds and tens of
 * MiB at 32GiB.  cz_fc_snap_sector_replica gives NULL. */
int cz_fc_snap_sector_synth(cz_fc_snap_sector **out, const cz_fc_shape *shape,
                            const cz_fc_snap_shape *u, uint64_t seed, unsigned h,
                            const cz_allocator *alloc);
void cz_fc_snap_sector_free(cz_fc_snap_sector *x);
/* The commitments, and the new replica (u->sector_nodes TreeR leaves;
 * NULL for a synthetic sector). */
void cz_fc_snap_sector_public(const cz_fc_snap_sector *x, unsigned k, cz_fc_snap_public *pub);
const cz_fc_d *cz_fc_snap_sector_replica(const cz_fc_snap_sector *x);
/* Partition k's vanilla proof (cz_fc_snap_proof_alloc'd from alloc). */
int cz_fc_snap_sector_prove(const cz_fc_snap_sector *x, unsigned k, cz_fc_snap_partition_proof *p,
                            const cz_allocator *alloc);

/* --------------------------------------- EmptySectorUpdate: the circuit --- */

/* The EmptySectorUpdate circuit of partition pub->k (storage-proofs-update
 * EmptySectorUpdateCircuit, constraint for constraint, in its allocation
 * order; src/filecoin/snap/circuit.c) in any cs mode, with the values of
 * pub and p, or blank (both NULL: zeros, as bellperson's blank circuit).
 * Inputs after ONE: k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
 * CZ_OK, CZ_ERR_INVALID_ARG (k, h, or p not of the shape, err naming
 * it), CZ_ERR_NOMEM, or the cs's error. */
int cz_fc_snap_synthesize(cz_cs *cs, const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                          const cz_fc_snap_partition_proof *p, char *err, size_t errlen);

/* The counts of inputs (ONE included) and auxiliaries that any synthesis
 * of the circuit of shape u allocates: computed once per shape (a blank
 * witness-only run of the header and one challenge), cached for the
 * process; thread-safe.  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM. */
int cz_fc_snap_counts(const cz_fc_snap_shape *u, size_t *n_inputs, size_t *n_aux);
/* Witness-only synthesis of partition pub->k into w = [inputs | aux]
 * (w_len = the sum of cz_fc_snap_counts): the header (every input, phi,
 * the apex tree, the challenge bits) on the calling thread, then the
 * challenges on pool (NULL: this thread) in parallel, each writing its
 * fixed slice of w in place (src/filecoin/snap/witness.c).  The
 * assignment equals the one cz_fc_snap_synthesize stores.  CZ_OK,
 * CZ_ERR_INVALID_ARG (w_len, k, h, p not of the shape), CZ_ERR_NOMEM,
 * with err set. */
int cz_fc_snap_witness(cz_fr *w, size_t w_len, const cz_fc_snap_shape *u,
                       const cz_fc_snap_public *pub, const cz_fc_snap_partition_proof *p,
                       cz_pool *pool, char *err, size_t errlen);

/* ------------------------------------ EmptySectorUpdate: the SNARK proof --- */

/* The public inputs of partition pub->k's circuit (ONE excluded), as
 * EmptySectorUpdateCompound::generate_public_inputs: k_and_h_select,
 * comm_r_old, comm_d_new, comm_r_new.  CZ_OK, CZ_ERR_INVALID_ARG (k, h),
 * CZ_ERR_NOT_CANONICAL (a commitment is not a field element). */
#define CZ_FC_SNAP_INPUTS 4
int cz_fc_snap_public_inputs(cz_fr out[CZ_FC_SNAP_INPUTS], const cz_fc_snap_shape *u,
                             const cz_fc_snap_public *pub);
/* filecoin-proofs verify_empty_sector_update_proof: partitions x 192
 * bytes, partition k's proof verified under pvk with k's public inputs
 * (h the shape's), as one batch (a failed batch proof by proof, to name
 * the partition).  *valid says the answer; CZ_OK whenever the inputs were
 * well-formed, CZ_ERR_BAD_LENGTH, CZ_ERR_INVALID_ARG (a vk with another
 * input count), CZ_ERR_NOT_CANONICAL (a commitment), with err set. */
int cz_fc_verify_snap(const cz_groth16_pvk *pvk, const uint8_t *proofs, size_t len,
                      const cz_fc_snap_shape *u, const cz_fc_d *comm_r_old,
                      const cz_fc_d *comm_d_new, const cz_fc_d *comm_r_new, bool *valid, char *err,
                      size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_FILECOIN_SNAP_H */
