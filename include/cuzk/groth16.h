#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H
/* Groth16 over BLS12-381: parameter, verifying-key and proof types, and
 * bellperson's file formats.
 *
 * Formats (all integers big-endian, points in the zcash encoding of ec.h):
 *   .vk     alpha_g1 (G1), beta_g1 (G1), beta_g2 (G2), gamma_g2 (G2),
 *           delta_g1 (G1), delta_g2 (G2), all uncompressed; u32 n_ic; n_ic
 *           uncompressed G1 points.  No magic, no trailing bytes.
 *   .params the .vk bytes, then five sections h, l, a, b_g1 (G1) and b_g2
 *           (G2), each a u32 count followed by that many uncompressed points.
 *   proof   A (G1 compressed, 48) || B (G2 compressed, 96) || C (G1
 *           compressed, 48) = 192 bytes.
 *
 * Validation follows bellperson (Parameters::read, VerifyingKey::read,
 * Proof::read): the six vk points are decoded with full checks (curve,
 * subgroup; infinity allowed); IC points with full checks and infinity
 * rejected; query points (h, l, a, b_g1, b_g2) with the curve check always,
 * the subgroup check unless CZ_DECODE_SKIP_SUBGROUP is passed (bellperson's
 * "unchecked" read), and infinity rejected; proof points with full checks
 * and infinity rejected.
 *
 * Error reporting: readers return CZ_OK or a cz_err code and, when err is
 * not NULL, write a NUL-terminated message of at most errlen bytes naming
 * the section and point index of a bad point, e.g.
 * "params: section l, point 1234: point not in the prime-order subgroup".
 * On failure the output object is left zeroed (nothing to free). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/ec.h"
#include "cuzk/pool.h"

#define CZ_GROTH16_PROOF_BYTES 192

/* Reader flag (combines with CZ_DECODE_SKIP_SUBGROUP): decode only the
 * verifying key of a .params file and ignore everything after it. */
#define CZ_PARAMS_VK_ONLY 0x100u

typedef struct {
    cz_g1_affine alpha_g1, beta_g1;
    cz_g2_affine beta_g2, gamma_g2;
    cz_g1_affine delta_g1;
    cz_g2_affine delta_g2;
    size_t n_ic;
    cz_g1_affine *ic; /* n_ic points; owned (see the free functions) */
} cz_groth16_vk;

/* All query arrays and vk.ic live in one block owned by the struct (mem);
 * release with cz_groth16_params_free only (never cz_groth16_vk_free on
 * params.vk).  A struct filled by the caller for the writer may set mem =
 * NULL and point the arrays anywhere. */
typedef struct {
    cz_groth16_vk vk;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cz_g1_affine *h, *l, *a, *b_g1;
    cz_g2_affine *b_g2;
    void *mem;
    size_t mem_bytes;
} cz_groth16_params;

typedef struct {
    cz_g1_affine a;
    cz_g2_affine b;
    cz_g1_affine c;
} cz_groth16_proof;

/* Frees vk->ic (from cz_groth16_vk_read_*) and zeroes *vk.  NULL is a no-op. */
void cz_groth16_vk_free(cz_groth16_vk *vk);
/* Frees the block (from cz_groth16_params_read_*) and zeroes *p.  NULL is a
 * no-op. */
void cz_groth16_params_free(cz_groth16_params *p);

/* Bytes of the .vk encoding of a key with n_ic IC points. */
size_t cz_groth16_vk_encoded_size(size_t n_ic);

/* Reads a .vk image of exactly len bytes (trailing bytes: CZ_ERR_BAD_FORMAT;
 * short: CZ_ERR_TRUNCATED; bad points: their decode code). */
int cz_groth16_vk_read_mem(cz_groth16_vk *vk, const uint8_t *data, size_t len, char *err,
                           size_t errlen);
int cz_groth16_vk_read_file(cz_groth16_vk *vk, const char *path, char *err, size_t errlen);
/* Writes the .vk encoding.  CZ_OK or CZ_ERR_IO / CZ_ERR_INVALID_ARG. */
int cz_groth16_vk_write(FILE *f, const cz_groth16_vk *vk);
int cz_groth16_vk_write_file(const char *path, const cz_groth16_vk *vk);

/* Walks the counts of a .params image without decoding points and stores in
 * *decoded_bytes the size of the block the reader would allocate (vk.ic and
 * all five query arrays; only vk.ic with CZ_PARAMS_VK_ONLY in flags).
 * Checks, overflow-safe, that every count fits in the bytes that follow it
 * (CZ_ERR_TRUNCATED otherwise) and, unless VK_ONLY, that nothing trails the
 * last section (CZ_ERR_BAD_FORMAT). */
int cz_groth16_params_decoded_size(size_t *decoded_bytes, const uint8_t *data, size_t len,
                                   unsigned flags, char *err, size_t errlen);

/* Reads a .params image.  flags: CZ_DECODE_SKIP_SUBGROUP (query points
 * only), CZ_PARAMS_VK_ONLY.  Point decoding runs on pool (NULL: the calling
 * thread); the result and the error reported (the first bad point in file
 * order) do not depend on the number of threads. */
int cz_groth16_params_read_mem(cz_groth16_params *p, const uint8_t *data, size_t len,
                               unsigned flags, cz_pool *pool, char *err, size_t errlen);
/* Same from a file, mapped read-only with mmap (unmapped before returning).
 * CZ_ERR_IO when the file cannot be opened or mapped. */
int cz_groth16_params_read_file(cz_groth16_params *p, const char *path, unsigned flags,
                                cz_pool *pool, char *err, size_t errlen);
/* Streams the .params encoding.  CZ_OK or CZ_ERR_IO / CZ_ERR_INVALID_ARG
 * (a count above UINT32_MAX). */
int cz_groth16_params_write(FILE *f, const cz_groth16_params *p);
int cz_groth16_params_write_file(const char *path, const cz_groth16_params *p);

void cz_groth16_proof_to_bytes(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *p);
/* Decodes exactly 192 bytes (else CZ_ERR_BAD_LENGTH); all three points
 * checked (curve, subgroup) and infinity rejected, as bellperson does.
 * *p is untouched on failure. */
int cz_groth16_proof_from_bytes(cz_groth16_proof *p, const uint8_t *in, size_t len);

#endif
