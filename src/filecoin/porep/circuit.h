/* Between the PoRep circuit (circuit.c) and its witness-only,
 * challenge-parallel synthesis (witness.c). */
#ifndef CZ_POREP_CIRCUIT_H
#define CZ_POREP_CIRCUIT_H

#include <stdbool.h>

#include "cuzk/filecoin/porep.h"
#include "cuzk/gadgets.h"

#define CZ_POREP_MAX_LAYERS 15
/* The label's SHA-256 message: replica id, layer and node (2 x 256 bits),
 * then the 37 parents of 256 bits each. */
#define CZ_POREP_SCRATCH_BITS ((2 + CZ_FC_LABEL_PARENTS) * 256)

/* What every challenge uses from the header. */
typedef struct {
    cz_bool replica_bits[256]; /* replica_id's to_bits_le reversed per byte */
    cz_num comm_d, comm_c, comm_r_last;
} cz_porep_header;

/* filecoin-hashers' circuits on nums, values computed alongside:
 * Poseidon (MerkleTree tag) of arity 2 .. 16, and Sha256Function's
 * hash2_circuit (each input to 255 bits + 1 and reversed per byte, SHA-256,
 * the result reversed per byte, its first 254 bits packed: 45,379
 * constraints).  CZ_OK or a gadget's error. */
int cz_fc_poseidon_num(cz_cs *cs, const cz_num *in, unsigned arity, cz_num *out);
int cz_fc_sha256_hash2_num(cz_cs *cs, const cz_num *a, const cz_num *b, cz_num *out);

/* por.rs PoRCircuit::synthesize, private (the root not inputized), for
 * leaf under root: TreeD when sha is set (d->log_nodes binary levels),
 * else a tree of d's TreeR / TreeC shape; each level's index bits
 * (booleanity), its siblings, insert and the hash, then the bits packed
 * into one input and computed root * 1 = root, all in namespace ns.  leaf
 * NULL: the leaf is p's value, allocated first ("value", Root::Val).  p
 * NULL: blank (every index, sibling and leaf 0).  computed, when not
 * NULL, receives the computed root's value (which the enforcement, not
 * this function, compares with root's: a tampered path still synthesises,
 * unsatisfied).  CZ_OK, CZ_ERR_INVALID_ARG (p not of the shape) or a
 * gadget's error. */
int cz_fc_por_circuit(cz_cs *cs, const cz_fc_porep_dims *d, bool sha, const cz_fc_merkle_proof *p,
                      const cz_num *leaf, const cz_num *root, const char *ns, cz_fr *computed);

bool cz_fc_porep_dims_equal(const cz_fc_porep_dims *a, const cz_fc_porep_dims *b);
/* The shape is supported and, with c1, c1 is of it and has partition k.
 * CZ_OK or CZ_ERR_INVALID_ARG with err set. */
int cz_porep_check_c1(const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k, char *err,
                      size_t errlen);
/* The header (c1 NULL: blank).  CZ_OK or the cs's error. */
int cz_porep_header_synth(cz_cs *cs, const cz_fc_c1 *c1, cz_porep_header *h);
/* A challenge between its parts: what the prefix allocates and the labels
 * read, and the labels the suffix reads. */
typedef struct {
    cz_num data_leaf;
    cz_num drg[CZ_FC_DRG_DEGREE][CZ_POREP_MAX_LAYERS], exp[CZ_FC_EXP_DEGREE][CZ_POREP_MAX_LAYERS];
    cz_u64 node;
    cz_num labels[CZ_POREP_MAX_LAYERS];
} cz_porep_chal;

/* One challenge (p NULL: blank) in its three parts, in the circuit's
 * order: the prefix (data leaf, its TreeD path, the 14 parent columns,
 * the challenge and its input), the label of each layer 1..L
 * ("labeling_l"), the suffix (encoding, TreeR, the column hash, TreeC).
 * cz_porep_challenge runs them in order.  scratch holds
 * CZ_POREP_SCRATCH_BITS bits.  CZ_OK, CZ_ERR_INVALID_ARG (a path of
 * another shape), or an error of a gadget. */
int cz_porep_chal_prefix(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                         const cz_fc_vanilla_proof *p, cz_porep_chal *st);
int cz_porep_chal_label(cz_cs *cs, const cz_porep_header *h, unsigned layer, cz_porep_chal *st,
                        cz_bool *scratch);
int cz_porep_chal_suffix(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                         const cz_fc_vanilla_proof *p, cz_porep_chal *st);
int cz_porep_challenge(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                       const cz_fc_vanilla_proof *p, cz_porep_chal *st, cz_bool *scratch);
/* Witness mode only: what the prefix would leave in st, from p's values
 * (variables not set: the labels of a witness-only cs read values only),
 * so the labels can run before or beside the prefix. */
void cz_porep_chal_from_proof(cz_porep_chal *st, const cz_fc_porep_dims *d,
                              const cz_fc_vanilla_proof *p);

#endif
