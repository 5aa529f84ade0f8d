/* cuzk: snarkjs's JSON files for Groth16 on BLS12-381 (proof.json,
 * public.json, verification_key.json), written byte for byte as snarkjs
 * 0.7.6 writes them and read strictly.
 *
 * Format, as the snarkjs CLI writes it (bfj with one space of indentation):
 * every value on its own line, indented one space per nesting level, a
 * space after each "key":, no newline after the closing bracket; an empty
 * array is "[\n<indent>]".  Field elements are decimal strings of their
 * canonical values without leading zeros.  Points are the projective-style
 * triples of ffjavascript's toObject:
 *   G1  ["x", "y", "1"]
 *   G2  [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]]
 *   infinity: G1 ["0", "1", "0"]; G2 [["0", "0"], ["1", "0"], ["0", "0"]]
 *
 *   proof.json  {"pi_a": G1, "pi_b": G2, "pi_c": G1,
 *                "protocol": "groth16", "curve": "bls12381"}
 *   public.json ["s1", "s2", ...]: public signals, canonical values < r
 *   verification_key.json
 *               {"protocol": "groth16", "curve": "bls12381",
 *                "nPublic": n_ic - 1 (a JSON number),
 *                "vk_alpha_1": G1, "vk_beta_2", "vk_gamma_2",
 *                "vk_delta_2": G2,
 *                "vk_alphabeta_12": e(alpha, beta) in Fp12 as
 *                  [[[c0.c0.c0, c0.c0.c1], [c0.c1.c0, c0.c1.c1],
 *                    [c0.c2.c0, c0.c2.c1]], [[c1.c0.c0, ...], ...]],
 *                  cz_pairing's value (the same convention as snarkjs),
 *                "IC": [G1, ...] (n_ic points)}
 * The snarkjs key has no beta_g1 and delta_g1: the writer ignores them and
 * the reader sets them to the point at infinity.
 *
 * Writers: *out receives a malloc'd, NUL-terminated text (release with
 * free()) and *out_len (if not NULL) its length without the NUL.  The
 * points are written as given (not validated).  Return CZ_OK,
 * CZ_ERR_INVALID_ARG (a NULL pointer; a vk with n_ic = 0; NULL scalars with
 * n > 0) or CZ_ERR_NOMEM; on failure *out is NULL.  The _write_file forms
 * write the same bytes to path (CZ_ERR_IO when that fails).
 *
 * Readers take text[0..len) (need not be NUL-terminated) or a file.  They
 * check the whole text is strict JSON (see src/util/json_read.h) nested at
 * most 16 levels deep (else CZ_ERR_BAD_FORMAT, with "line L, column C"),
 * then that every key above is present exactly once (vk_alphabeta_12 may be
 * missing) and no other key is (CZ_ERR_BAD_FORMAT), then "protocol" and
 * "curve", before any other value: not "groth16" is CZ_ERR_UNSUPPORTED, not
 * "bls12381" (e.g. "bn128") is CZ_ERR_WRONG_CURVE.  Then each value, in the
 * order of the format above:
 *   - shape (CZ_ERR_BAD_FORMAT): arrays of the stated lengths; field
 *     elements as strings of decimal digits, no sign, no leading zero;
 *     nPublic an integer below 2^32 without fraction or exponent; IC of
 *     nPublic + 1 points;
 *   - range: a decimal >= p (a coordinate) or >= r (a public signal) is
 *     CZ_ERR_NOT_CANONICAL;
 *   - points: z must be 1 (["1", "0"] in G2), or 0 for the point at
 *     infinity with the other coordinates exactly as snarkjs writes them
 *     (else CZ_ERR_BAD_INFINITY); any other z is CZ_ERR_BAD_FORMAT (snarkjs
 *     writes affine points only).  Then CZ_ERR_NOT_ON_CURVE,
 *     CZ_ERR_NOT_IN_SUBGROUP.  Infinity follows bellperson's rules
 *     (include/cuzk/groth16.h): allowed for vk_alpha_1 .. vk_delta_2,
 *     CZ_ERR_IS_INFINITY for IC and the proof's points;
 *   - vk_alphabeta_12, when present, must equal cz_pairing(alpha, beta):
 *     else CZ_ERR_BAD_FORMAT.
 * The message names the file kind and the key and index, e.g.
 * "proof.json: pi_b[1][0]: value >= p".  On failure the output is zeroed
 * (nothing to free).  The _read_file forms add CZ_ERR_IO (the file cannot be
 * opened or mapped).  Memory: the text's size plus about 72 bytes per JSON
 * value (at most about 40 times the text's size).
 * Variable time (public data). */
#ifndef CUZK_SNARKJS_H
#define CUZK_SNARKJS_H

#include <stddef.h>

#include "cuzk/ff.h"
#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

int cz_snarkjs_proof_to_json(char **out, size_t *out_len, const cz_groth16_proof *proof);
int cz_snarkjs_proof_write_file(const char *path, const cz_groth16_proof *proof);
/* pub: n public signals (Montgomery form), in circuit order. */
int cz_snarkjs_public_to_json(char **out, size_t *out_len, const cz_fr *pub, size_t n);
int cz_snarkjs_public_write_file(const char *path, const cz_fr *pub, size_t n);
/* Computes vk_alphabeta_12 = cz_pairing(vk->alpha_g1, vk->beta_g2). */
int cz_snarkjs_vk_to_json(char **out, size_t *out_len, const cz_groth16_vk *vk);
int cz_snarkjs_vk_write_file(const char *path, const cz_groth16_vk *vk);

int cz_snarkjs_proof_read_mem(cz_groth16_proof *proof, const char *text, size_t len, char *err,
                              size_t errlen);
int cz_snarkjs_proof_read_file(cz_groth16_proof *proof, const char *path, char *err, size_t errlen);
/* *pub receives a malloc'd array of *n elements (NULL when *n = 0); release
 * with free(). */
int cz_snarkjs_public_read_mem(cz_fr **pub, size_t *n, const char *text, size_t len, char *err,
                               size_t errlen);
int cz_snarkjs_public_read_file(cz_fr **pub, size_t *n, const char *path, char *err, size_t errlen);
/* vk->ic is malloc'd; release with cz_groth16_vk_free. */
int cz_snarkjs_vk_read_mem(cz_groth16_vk *vk, const char *text, size_t len, char *err,
                           size_t errlen);
int cz_snarkjs_vk_read_file(cz_groth16_vk *vk, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_SNARKJS_H */
