/* cuzk: a built-in synthetic circuit family with Filecoin-like data.
 *
 * Proving benchmarks, engine tests and the daemon's demo need circuits of
 * any power-of-two size whose matrices and witnesses look like those of a
 * Filecoin PoRep C2 partition (SHA-256 and other boolean logic), without a
 * 100 GiB parameter file.  This family supplies them: one shape per
 * (log_rows, n_public), a fresh satisfying witness per (seed, partition).
 *
 * Shape.  The circuit is a sequence of 64-row rounds, each written with the
 * gadgets bellperson emits:
 *   15 key bits, each with its boolean constraint (1 - k) * k = 0;
 *   4 lanes of 11 bit operations on a running bit s and a key bit k:
 *     xor (2s) * k = s + k - o,  and s * k = o,  and-not s * (1 - k) = o;
 *   3 packings of bits with coefficients 2^i (two written bits * 1 = p,
 *     one written p * 1 = bits, as enforce_equal does either way);
 *   a conditional select (r - p1) * k = out - p1 of a free field element r;
 *   a product (out + c p0 + p2 + z') * (r + c') = z with per-round constants
 *     c, c' and z' the previous round's z (chains of 5 rounds).
 * A round is 64 constraints and 65 auxiliaries.  Each public input i packs
 * the 60 key bits of 4 consecutive rounds, (sum 2^((j+i) mod 60) k_j) * 1
 * = x_i, as bellperson's multipack does.  A tail of at most 63 rows (key
 * bits and xors) makes the row count, with the 1 + n_public input
 * constraints cz_cs_finish appends, exactly 2^log_rows.
 *
 * Resulting data (independent of log_rows up to the tail's share):
 *   ~1.015 aux per constraint; ~90.8% of aux values are 0 or 1, the rest
 *   packed sums and random field elements; density of A over aux ~99.7%
 *   (the last z of each chain is in C only), of B over aux ~24.6%; A, B
 *   and C each hold coefficients 1, -1 and general ones (CSR kinds ONE, NEG
 *   and GEN); the public inputs appear in C of their packing rows and only
 *   ONE appears in B among the inputs.
 *
 * The constants and the variable numbering depend only on (log_rows,
 * n_public); values depend on (seed, partition) through cz_prng, so the
 * data are reproducible and NOT secret. */
#ifndef CUZK_SYNTHETIC_H
#define CUZK_SYNTHETIC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_SYNTHETIC_MIN_LOG    10u
#define CZ_SYNTHETIC_MAX_LOG    24u
#define CZ_SYNTHETIC_MAX_PUBLIC 64u

typedef struct {
    /* CZ_SYNTHETIC_MIN_LOG .. CZ_SYNTHETIC_MAX_LOG: the recorded R1CS has
     * exactly 2^log_rows rows including the 1 + n_public input constraints
     * cz_cs_finish appends, so the Groth16 domain is 2^log_rows. */
    unsigned log_rows;
    /* 0 .. CZ_SYNTHETIC_MAX_PUBLIC public inputs besides ONE. */
    uint32_t n_public;
    /* Witness seed; any value. */
    uint64_t seed;
} cz_synthetic;

/* Validates s.  Returns CZ_OK, or CZ_ERR_INVALID_ARG (s NULL or a field
 * out of range) with a sentence naming the field in err (errlen bytes, may
 * be 0). */
int cz_synthetic_check(const cz_synthetic *s, char *err, size_t errlen);

/* Runs the circuit into cs, which must be fresh from cz_cs_new (only ONE
 * allocated, no constraints), in either mode: CZ_CS_RECORD yields the R1CS
 * (cz_cs_finish then gives 2^log_rows rows) and the witness, CZ_CS_WITNESS
 * the same assignment alone.  Inputs 1..n_public and every auxiliary get
 * values derived from (seed, partition): each partition of a job has a
 * different satisfying witness and different public inputs; the variable
 * numbering and the matrices are the same for every seed and partition.
 * Returns CZ_ERR_INVALID_ARG (cs or s NULL, s invalid, cs not fresh; cs
 * untouched) or cz_cs_error(cs) after the run. */
int cz_synthetic_synthesize(cz_cs *cs, const cz_synthetic *s, uint32_t partition);

/* The exact number of auxiliaries synthesize allocates (the inputs are
 * 1 + n_public), so callers can size witness buffers first.  0 for an
 * invalid s. */
size_t cz_synthetic_num_aux(const cz_synthetic *s);

/* An upper bound of cz_r1cs_mem_bytes of the finished recording (with or
 * without CZ_CS_NAMESPACES), for memory reservations; within a few percent
 * of the actual size with namespaces, about 15% above it without (the
 * namespaces' 4 bytes per row are counted either way).  0 for an invalid
 * s. */
uint64_t cz_synthetic_r1cs_bytes(const cz_synthetic *s);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_SYNTHETIC_H */
