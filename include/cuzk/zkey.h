/* cuzk: reader for snarkjs Groth16 proving keys (.zkey) on BLS12-381.
 *
 * A .zkey is an iden3 binfile container (see cuzk/circom.h): magic "zkey",
 * version 1, sections u32 type, u64 size, bytes; integers little-endian.
 *
 *   type 1, header:        u32 protocol (1 = groth16; others, e.g. plonk 2 or
 *                          fflonk 10, are CZ_ERR_UNSUPPORTED)
 *   type 2, groth16 header: u32 n8q = 48, q (n8q bytes), u32 n8r = 32, r,
 *                          u32 nVars, u32 nPublic, u32 domainSize, then the
 *                          points alpha1, beta1 (G1), beta2, gamma2 (G2),
 *                          delta1 (G1), delta2 (G2)
 *   type 3, IC:            nPublic + 1 G1 points
 *   type 4, coefficients:  u32 count, then count entries (u32 matrix 0 = A or
 *                          1 = B, u32 constraint, u32 signal, n8r-byte value)
 *   type 5, A:             nVars G1;   type 6, B1: nVars G1
 *   type 7, B2:            nVars G2
 *   type 8, C:             nVars - nPublic - 1 G1 (the private signals)
 *   type 9, H:             domainSize G1: the odd-index Lagrange points of
 *                          the 2*domainSize domain, [L_{2i+1}(tau)/delta]_1,
 *                          not bellperson's monomial h-query
 *   type 10, contributions: ceremony transcript (not read here)
 *
 * Encodings, as snarkjs writes them: a field element is its Montgomery form
 * (R = 2^384 for Fp), little-endian, which is exactly cz_fp's limb layout, so
 * coordinates are taken as they are once checked to be below p.  G1 is x||y
 * (96 bytes); G2 is x.c0||x.c1||y.c0||y.c1 (192 bytes; the opposite of the
 * zcash c1||c0 order).  The point at infinity is written as all zero bytes,
 * which is cz's affine infinity (0, 0).  A coefficient's value bytes are the
 * little-endian raw form of v*R^2 mod r (R = 2^256: Montgomery form times R
 * once more); the reader returns v as a cz_fr (Montgomery, i.e. v*R).
 * snarkjs adds one A entry per public signal s (and for s = 0, the constant):
 * constraint nConstraints + s, signal s, value 1.
 *
 * Returns CZ_OK or a code; on failure writes a NUL-terminated message naming
 * the section, the entry index and the byte offset into err (err may be
 * NULL, errlen 0), and leaves the output zeroed (safe to free).  Codes:
 *   CZ_ERR_INVALID_ARG   NULL output or path, NULL data with len > 0
 *   CZ_ERR_IO            the file cannot be opened or mapped
 *   CZ_ERR_NOMEM         an allocation failed
 *   CZ_ERR_BAD_FORMAT    wrong magic; a section table inconsistent with the
 *                        data; a missing or duplicate required section; a
 *                        section size that does not match its counts (checked
 *                        before anything is allocated, in 64-bit arithmetic
 *                        that cannot overflow); nPublic + 1 > nVars; a
 *                        domainSize that is not a power of two; a coefficient
 *                        whose matrix is not 0 or 1, constraint >= domainSize
 *                        or signal >= nVars
 *   CZ_ERR_UNSUPPORTED   another container version or protocol
 *   CZ_ERR_WRONG_CURVE   q or r (or n8q, n8r) not BLS12-381's; the message
 *                        gives the prime in hex
 *   CZ_ERR_TRUNCATED     the data ends inside the table or a section
 *   CZ_ERR_NOT_CANONICAL a coordinate >= p or a coefficient >= r
 *   CZ_ERR_NOT_ON_CURVE  a point off the curve
 *   CZ_ERR_NOT_IN_SUBGROUP a point outside the order-r subgroup (unless
 *                        CZ_ZKEY_SKIP_SUBGROUP) */
#ifndef CUZK_ZKEY_H
#define CUZK_ZKEY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/checked_keys.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags for the loaders. */
#define CZ_ZKEY_DEFAULT 0u
/* Skip the subgroup checks (points are still checked to be on the curve).
 * Only for keys from a trusted origin, when asked for explicitly. */
#define CZ_ZKEY_SKIP_SUBGROUP 1u

typedef struct {
    uint32_t matrix;     /* 0: A, 1: B */
    uint32_t constraint; /* < domain_size */
    uint32_t signal;     /* < n_vars */
    cz_fr value;         /* the coefficient itself (R^2 factor undone) */
} cz_zkey_coef;

typedef struct {
    uint32_t n_vars;   /* signals including the constant 1 */
    uint32_t n_public; /* public signals, not counting the constant */
    uint32_t domain_size;
    uint32_t log_domain_size; /* domain_size = 2^log_domain_size */
    cz_g1_affine alpha1, beta1, delta1;
    cz_g2_affine beta2, gamma2, delta2;
    cz_g1_affine *ic; /* n_public + 1 */
    uint32_t n_coefs;
    cz_zkey_coef *coefs; /* file order */
    cz_g1_affine *a;     /* n_vars */
    cz_g1_affine *b1;    /* n_vars */
    cz_g2_affine *b2;    /* n_vars */
    cz_g1_affine *c;     /* n_vars - n_public - 1, for signals n_public + 1.. */
    cz_g1_affine *h;     /* domain_size */
} cz_zkey;

/* Parses a .zkey image data[0..len); the data is only read during the call
 * and *out owns copies.  flags: CZ_ZKEY_DEFAULT or CZ_ZKEY_SKIP_SUBGROUP.
 * Memory used is at most about 1.2 times len, whatever the counts claim.
 * Variable time (public data). */
int cz_zkey_load_mem(cz_zkey *out, const uint8_t *data, size_t len, unsigned flags, char *err,
                     size_t errlen);
/* As _load_mem, for the file at path (mapped read-only for the call). */
int cz_zkey_load(cz_zkey *out, const char *path, unsigned flags, char *err, size_t errlen);
/* As the loaders above, with the subgroup checks (most of a load's time)
 * spread over pool (NULL: the calling thread).  They run after the whole
 * file is decoded, so a file with several faults may report a structural
 * one first; the subgroup error reported is the first bad point in file
 * order whatever the thread count. */
int cz_zkey_load_mem_ex(cz_zkey *out, const uint8_t *data, size_t len, unsigned flags,
                        cz_pool *pool, char *err, size_t errlen);
int cz_zkey_load_ex(cz_zkey *out, const char *path, unsigned flags, cz_pool *pool, char *err,
                    size_t errlen);
/* As _load_ex, with a checked-keys store (cuzk/checked_keys.h; kc NULL:
 * none): the file's BLAKE2b-512 is computed on a thread of its own while
 * it is decoded, and when it is in kc->store the subgroup checks are
 * skipped (kc->known).  kc->checked says the checks ran and passed: the
 * caller then adds kc->digest to its store. */
int cz_zkey_load_with(cz_zkey *out, const char *path, unsigned flags, cz_pool *pool,
                      cz_key_check *kc, char *err, size_t errlen);
/* Frees what a loader allocated and zeroes *z; NULL and zeroed are fine. */
void cz_zkey_free(cz_zkey *z);

/* Writes *z as a .zkey file at path, the inverse of cz_zkey_load: sections
 * 1..10 in that order, encoded as above (the bytes of sections 1-9 of a
 * snarkjs file read by the loader are reproduced exactly).  Section 10 is
 * what `snarkjs groth16 setup` writes, a 64-byte circuit hash and a zero
 * contribution count, except that the hash (blake2b of the key at delta = 1,
 * which a key with another delta cannot recompute) is 64 zero bytes:
 * `snarkjs groth16 prove` and `zkey export verificationkey` do not read it,
 * `zkey contribute` only hashes it (checked: its output proves), `zkey
 * verify` (which rebuilds the key from a powers-of-tau file) cannot match it.
 * z->log_domain_size must be set.
 *
 * The file is written to path + ".tmp", synced, then renamed over path, so
 * on failure no file at path is created or changed (the .tmp is removed).
 * Returns CZ_OK or a code, with a NUL-terminated message in err (err may be
 * NULL, errlen 0):
 *   CZ_ERR_INVALID_ARG  z or path NULL; n_public + 1 > n_vars; domain_size
 *                       != 2^log_domain_size (log_domain_size <= 31); a NULL
 *                       array whose count is not zero; a coefficient whose
 *                       matrix is not 0 or 1, constraint >= domain_size,
 *                       signal >= n_vars or value limbs >= r; a point with a
 *                       coordinate's limbs >= p or off the curve (subgroup
 *                       membership is not checked)
 *   CZ_ERR_NOMEM        an allocation failed
 *   CZ_ERR_IO           creating, writing, syncing or renaming failed
 * Variable time (public data). */
int cz_zkey_write(const cz_zkey *z, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_ZKEY_H */
