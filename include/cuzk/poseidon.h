/* cuzk: the Poseidon hash of Filecoin (neptune, Strength::Standard,
 * HashType::MerkleTree) over BLS12-381 Fr, natively and as R1CS.
 *
 * Width t = arity + 1, S-box x^5, R_F full and R_P partial rounds from the
 * Poseidon paper's security inequalities with neptune's margin (R_F = 8;
 * R_P = 55, 56, 57, 57, 59 for arities 2, 4, 8, 11, 16).  Round constants
 * come from the Grain LFSR (field 1, S-box 1, n = 255, t, R_F, R_P), the MDS
 * matrix is the Cauchy matrix M[i][j] = 1/(i + t + j), and element 0 of the
 * state holds the domain tag 2^arity - 1.  The hash of x_1..x_arity is
 * element 1 of the permuted state [tag, x_1, .., x_arity].
 *
 * Both the native hash and the circuit follow neptune's optimised schedule:
 * compressed round constants (added after each S-box) and, for the partial
 * rounds, the MDS matrix factored into a dense pre-sparse matrix (used after
 * the last first-half full round) and one sparse matrix per partial round.
 * The result equals the textbook permutation. */
#ifndef CUZK_POSEIDON_H
#define CUZK_POSEIDON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Supported arities: 2, 4, 8, 11, 16. */
#define CZ_POSEIDON_MAX_ARITY 16
#define CZ_POSEIDON_MAX_WIDTH (CZ_POSEIDON_MAX_ARITY + 1)

/* The constants of one arity; every matrix is t x t, row-major. */
typedef struct {
    unsigned arity, t, rf, rp;
    cz_fr domain_tag;          /* 2^arity - 1 */
    const cz_fr *rc;           /* (rf + rp) * t Grain round constants, round-major */
    const cz_fr *mds;          /* M[i][j] = 1/(i + t + j) (symmetric) */
    const cz_fr *mds_inv;      /* M^-1 */
    const cz_fr *crc;          /* rf * t + rp compressed round constants */
    const cz_fr *pre_sparse;   /* the dense factor applied after full round rf/2 - 1 */
    const cz_fr *sparse_w_hat; /* rp rows of t: first column of each sparse matrix */
    const cz_fr *sparse_v;     /* rp rows of t - 1: rest of each sparse first row */
} cz_poseidon_params;

/* The parameters of `arity`, computed on first use and cached for the life
 * of the process (thread-safe; later calls are a load).  Returns NULL for an
 * unsupported arity or when memory runs out (a later call retries). */
const cz_poseidon_params *cz_poseidon_params_get(unsigned arity);

/* R_F, R_P as neptune's round_numbers computes them for width t >= 2 (the
 * minimal S-box count satisfying the paper's inequalities for a 256-bit
 * field and 128-bit security, plus 2 full rounds and 7.5% partial rounds). */
void cz_poseidon_round_numbers(unsigned t, unsigned *rf, unsigned *rp);

/* *out = Poseidon(in[0..arity)).  Returns CZ_OK, CZ_ERR_INVALID_ARG (NULL
 * pointer, unsupported arity) or CZ_ERR_NOMEM.  Not constant time. */
int cz_poseidon_hash(cz_fr *out, const cz_fr *in, unsigned arity);

/* Emits neptune's legacy Poseidon circuit (circuit.rs poseidon_hash) over
 * the allocated variables in[0..arity) and sets *out to the allocated
 * result, whose value is the hash of the inputs' values.  Constraints,
 * auxiliaries and their order are neptune's: 3 constraints per S-box (the
 * tag's first S-box is a constant) plus one per S-box input and for the
 * result, as the linear state is re-allocated: 311, 377, 505, 598, 761
 * constraints for arities 2, 4, 8, 11, 16.  Works in every cs mode: a
 * WITNESS cs takes a values-only path (the native permutation with the
 * auxiliaries allocated in the same order: no linear combinations, no
 * multiplications by one; the WindowPoSt witness 30% faster), whose
 * assignment test_poseidon compares with a RECORD cs's.  Returns CZ_OK,
 * CZ_ERR_INVALID_ARG (NULL pointer, unsupported arity, an input
 * that is not a variable of cs) or CZ_ERR_NOMEM;
 * failures inside the cs are its sticky error (cz_cs_error).  *out is
 * CZ_CS_ONE on error. */
int cz_poseidon_circuit(cz_cs *cs, const cz_var *in, unsigned arity, cz_var *out);

/* The same permutation with another domain tag in element 0 (tag NULL:
 * the Merkle tag above): neptune's other hash types keep the round
 * constants and matrices of the width and change only the tag, e.g.
 * HashType::Custom(CType::Arbitrary(id)) is id * 2^40
 * (cz_poseidon_custom_tag), which SnapDeals' randomness uses with id 1.
 * Same constraints as cz_poseidon_circuit. */
int cz_poseidon_hash_tagged(cz_fr *out, const cz_fr *in, unsigned arity, const cz_fr *tag);
int cz_poseidon_circuit_tagged(cz_cs *cs, const cz_var *in, unsigned arity, const cz_fr *tag,
                               cz_var *out);
/* *tag = id * 2^40, neptune's CType::Arbitrary(id) (1 <= id <= 256). */
void cz_poseidon_custom_tag(cz_fr *tag, uint64_t id);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_POSEIDON_H */
