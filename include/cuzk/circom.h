/* cuzk: readers for circom's .r1cs and snarkjs's .wtns files over the
 * BLS12-381 scalar field Fr.
 *
 * Both are "iden3 binfile" containers: a 4-byte magic ("r1cs", "wtns"), a
 * u32 version, a u32 section count, then that many sections, each a u32 type,
 * a u64 byte size and the bytes.  Integers are little-endian; sections may
 * come in any order (circom writes the constraints before the header).
 *
 *   .r1cs version 1
 *     type 1, header:      u32 n8 = 32, prime r (n8 bytes LE), u32 nWires,
 *                          u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels,
 *                          u32 mConstraints
 *     type 2, constraints: per constraint the linear combinations A, B, C,
 *                          each a u32 term count then (u32 wire, n8-byte LE
 *                          coefficient) terms
 *     type 3, wire->label: nWires u64 label ids (optional here)
 *     types 4, 5:          PLONK custom gates; rejected (CZ_ERR_UNSUPPORTED)
 *     other types:         ignored
 *   .wtns version 2
 *     type 1, header:      u32 n8 = 32, prime r, u32 nWitness
 *     type 2, witness:     nWitness n8-byte LE values
 *
 * Field elements in both files are canonical little-endian integers < r (not
 * Montgomery form, unlike .zkey); the readers convert them to cz_fr
 * (Montgomery).  Wire order: 0 is the constant 1, then the nPubOut public
 * outputs, the nPubIn public inputs, the nPrvIn private inputs, then the
 * internal wires; the .wtns witness uses the same order.
 *
 * Every loader returns CZ_OK or a cz_err code, and on failure writes a
 * NUL-terminated message naming the section and byte offset into err (err
 * may be NULL, errlen may be 0; messages are cut to errlen - 1 characters).
 * On failure the output is left zeroed (safe to free).  Codes:
 *   CZ_ERR_INVALID_ARG   NULL output or path, or NULL data with len > 0
 *   CZ_ERR_IO            the file cannot be opened, mapped or read
 *   CZ_ERR_NOMEM         an allocation failed
 *   CZ_ERR_BAD_FORMAT    wrong magic; a section table, section size or count
 *                        inconsistent with the data (every count is checked
 *                        against the bytes present before anything is
 *                        allocated); a duplicate or missing required section;
 *                        a wire id >= nWires; trailing bytes in a section or
 *                        after the last section
 *   CZ_ERR_UNSUPPORTED   another container version; custom gates sections
 *   CZ_ERR_WRONG_CURVE   n8 != 32 or prime != r (the message gives the prime
 *                        and names bn128 when it is BN254's)
 *   CZ_ERR_TRUNCATED     the data ends inside the section table or a section
 *   CZ_ERR_NOT_CANONICAL a coefficient or witness value >= r
 */
#ifndef CUZK_CIRCOM_H
#define CUZK_CIRCOM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sparse matrix in compressed sparse row form: row i (constraint i) has the
 * entries k in [row[i], row[i+1]), at column (wire) col[k] < n_wires with
 * value val[k].  row has n_constraints + 1 entries, row[0] = 0.  Entries keep
 * the file's order; zero coefficients stored in the file are kept. */
typedef struct {
    uint64_t *row;
    uint32_t *col;
    cz_fr *val;
    uint64_t nnz;
} cz_circom_csr;

typedef struct {
    uint32_t n_wires; /* including wire 0, the constant 1 */
    uint32_t n_pub_out;
    uint32_t n_pub_in;
    uint32_t n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
    cz_circom_csr a, b, c;   /* constraint i: <a_i, w> * <b_i, w> = <c_i, w> */
    uint64_t *wire_to_label; /* n_wires entries; NULL when the file has no
                              * type-3 section */
} cz_circom_r1cs;

typedef struct {
    uint32_t n; /* number of values, equal to the circuit's nWires */
    cz_fr *w;   /* w[0] = 1 for a valid witness (not checked here) */
} cz_circom_wtns;

/* Parses a .r1cs image data[0..len).  The data is only read during the call;
 * *out owns copies.  Checks, besides the codes above, that 1 + nPubOut +
 * nPubIn + nPrvIn <= nWires.  Memory used is at most a few times len,
 * whatever the counts claim. */
int cz_circom_r1cs_load_mem(cz_circom_r1cs *out, const uint8_t *data, size_t len, char *err,
                            size_t errlen);
/* As _load_mem, for the file at path (mapped read-only for the call). */
int cz_circom_r1cs_load(cz_circom_r1cs *out, const char *path, char *err, size_t errlen);
/* Frees what a loader allocated and zeroes *r; NULL and zeroed are fine. */
void cz_circom_r1cs_free(cz_circom_r1cs *r);

/* Parses a .wtns image; same conventions as cz_circom_r1cs_load_mem. */
int cz_circom_wtns_load_mem(cz_circom_wtns *out, const uint8_t *data, size_t len, char *err,
                            size_t errlen);
int cz_circom_wtns_load(cz_circom_wtns *out, const char *path, char *err, size_t errlen);
void cz_circom_wtns_free(cz_circom_wtns *w);

/* Checks that the witness satisfies every constraint (A w) * (B w) = C w.
 * Returns CZ_OK; CZ_ERR_BAD_LENGTH when w->n != r->n_wires or w->n = 0;
 * CZ_ERR_UNSATISFIED when w[0] != 1 or a constraint fails, with *bad (if not
 * NULL) the first failing constraint, UINT64_MAX in every other case, and err
 * saying which; CZ_ERR_INVALID_ARG for NULL r or w.  Variable time: a
 * debugging aid. */
int cz_circom_r1cs_check_var(const cz_circom_r1cs *r, const cz_circom_wtns *w, uint64_t *bad,
                             char *err, size_t errlen);

/* Records the circuit as a cuzk R1CS: wires 0 .. nPubOut + nPubIn (the
 * constant and the public signals) become the inputs, the other wires the
 * aux in order, so a .wtns assignment is directly the full assignment
 * [inputs | aux]; bellperson's input constraints are appended (they are the
 * rows snarkjs appends too).  Coefficients equal to zero are dropped.
 * Returns CZ_OK, CZ_ERR_INVALID_ARG (NULL), CZ_ERR_NOMEM, with err set. */
int cz_circom_r1cs_compile(cz_r1cs **out, const cz_circom_r1cs *r, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CIRCOM_H */
