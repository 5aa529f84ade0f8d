/* cuzk: BLS12-381 finite fields.
 *
 *   Fp  = GF(p),  p = 0x1a0111ea...ffffaaab (381 bits), 6 x u64 limbs
 *   Fr  = GF(r),  r = 0x73eda753...00000001 (255 bits), 4 x u64 limbs
 *   Fp2 = Fp[u]  / (u^2 + 1)
 *   Fp6 = Fp2[v] / (v^3 - (u + 1))
 *   Fp12= Fp6[w] / (w^2 - v)
 *
 * Layout: every element is stored in Montgomery form (a * R mod m, with
 * R = 2^384 for Fp and 2^256 for Fr), limbs little-endian, exactly as blst and
 * bellperson/blstrs store them, so arrays of scalars and coordinates pass to
 * parameter files and GPUs without conversion.  Every stored element is fully
 * reduced (< modulus).
 *
 * Unless named _var, functions run in time independent of the values of their
 * arguments (they may be used on secrets).  Output pointers may alias inputs.
 */
#ifndef CUZK_FF_H
#define CUZK_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/rand.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t l[6]; } cz_fp;
typedef struct { uint64_t l[4]; } cz_fr;
typedef struct { cz_fp c0, c1; } cz_fp2;           /* c0 + c1 u       */
typedef struct { cz_fp2 c0, c1, c2; } cz_fp6;      /* c0 + c1 v + c2 v^2 */
typedef struct { cz_fp6 c0, c1; } cz_fp12;         /* c0 + c1 w       */

#define CZ_FP_BYTES 48
#define CZ_FR_BYTES 32

/* ------------------------------------------------------------------ Fp --- */

extern const cz_fp CZ_FP_ZERO, CZ_FP_ONE; /* ONE is R mod p */

void cz_fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_neg(cz_fp *r, const cz_fp *a);
void cz_fp_dbl(cz_fp *r, const cz_fp *a);
void cz_fp_mul(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr(cz_fp *r, const cz_fp *a);
/* r = 1/a; 0 maps to 0.  Constant time (Fermat). */
void cz_fp_inv(cz_fp *r, const cz_fp *a);
/* r = a^e, e given as n little-endian u64 limbs.  Time depends on e (public)
 * but not on a. */
void cz_fp_pow(cz_fp *r, const cz_fp *a, const uint64_t *e, size_t n);
/* Sets r to a square root of a and returns true, or returns false (r set to
 * garbage) when a is not a square.  Constant time. */
bool cz_fp_sqrt(cz_fp *r, const cz_fp *a);
/* Legendre symbol: 0 for 0, 1 for a non-zero square, -1 otherwise. */
int cz_fp_legendre(const cz_fp *a);
bool cz_fp_is_zero(const cz_fp *a);
bool cz_fp_is_one(const cz_fp *a);
bool cz_fp_equal(const cz_fp *a, const cz_fp *b);
/* The "sign" used by the zcash encoding: true iff canonical(a) > (p-1)/2. */
bool cz_fp_is_lexicographically_largest(const cz_fp *a);
/* r = a if flag else r (flag 0 or 1), constant time. */
void cz_fp_cmov(cz_fp *r, const cz_fp *a, bool flag);
void cz_fp_from_u64(cz_fp *r, uint64_t v);
/* Canonical (non-Montgomery) value <-> Montgomery form, as limbs. */
void cz_fp_from_canonical(cz_fp *r, const uint64_t a[6]); /* a < p required */
/* Whether a's limbs are below p, as every element's are: a check for
 * Montgomery forms read raw (snarkjs .zkey points). */
bool cz_fp_is_reduced(const cz_fp *a);
void cz_fp_to_canonical(uint64_t r[6], const cz_fp *a);
/* 48-byte canonical encodings.  from_* returns CZ_ERR_NOT_CANONICAL when the
 * value is >= p (r unchanged). */
void cz_fp_to_bytes_be(uint8_t out[48], const cz_fp *a);
void cz_fp_to_bytes_le(uint8_t out[48], const cz_fp *a);
int cz_fp_from_bytes_be(cz_fp *r, const uint8_t in[48]);
int cz_fp_from_bytes_le(cz_fp *r, const uint8_t in[48]);
/* Uniform random element (rejection sampling). */
void cz_fp_random(cz_fp *r, cz_prng *g);
/* r[i] = 1/a[i] for i < n with one inversion (Montgomery's trick); zeros map
 * to zero.  scratch holds n elements and may not alias a or r.  r may alias a.
 * Time depends on which entries are zero, not on their values. */
void cz_fp_batch_inv(cz_fp *r, const cz_fp *a, size_t n, cz_fp *scratch);

/* ------------------------------------------------------------------ Fr --- */

extern const cz_fr CZ_FR_ZERO, CZ_FR_ONE;

void cz_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_neg(cz_fr *r, const cz_fr *a);
void cz_fr_dbl(cz_fr *r, const cz_fr *a);
void cz_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr(cz_fr *r, const cz_fr *a);
void cz_fr_inv(cz_fr *r, const cz_fr *a);
void cz_fr_pow(cz_fr *r, const cz_fr *a, const uint64_t *e, size_t n);
/* Tonelli-Shanks (r - 1 = 2^32 * t); same contract as cz_fp_sqrt. */
bool cz_fr_sqrt(cz_fr *r, const cz_fr *a);
int cz_fr_legendre(const cz_fr *a);
bool cz_fr_is_zero(const cz_fr *a);
bool cz_fr_is_one(const cz_fr *a);
bool cz_fr_equal(const cz_fr *a, const cz_fr *b);
void cz_fr_cmov(cz_fr *r, const cz_fr *a, bool flag);
void cz_fr_from_u64(cz_fr *r, uint64_t v);
void cz_fr_from_canonical(cz_fr *r, const uint64_t a[4]);
void cz_fr_to_canonical(uint64_t r[4], const cz_fr *a);
void cz_fr_to_bytes_be(uint8_t out[32], const cz_fr *a);
void cz_fr_to_bytes_le(uint8_t out[32], const cz_fr *a);
int cz_fr_from_bytes_be(cz_fr *r, const uint8_t in[32]);
int cz_fr_from_bytes_le(cz_fr *r, const uint8_t in[32]);
/* r = (64-byte little-endian integer) mod r: a uniform scalar from 512
 * uniform bits (bias < 2^-256).  For secrets from cz_os_random. */
void cz_fr_from_bytes_wide(cz_fr *r, const uint8_t in[64]);
void cz_fr_random(cz_fr *r, cz_prng *g);
void cz_fr_batch_inv(cz_fr *r, const cz_fr *a, size_t n, cz_fr *scratch);

/* Implementation selection: the Montgomery multiply and square of Fp and Fr
 * have a portable (unsigned __int128) and an x86-64 MULX/ADCX/ADOX version.
 * The fast one is chosen at load time when the CPU has BMI2 and ADX.  Both
 * stay callable under these names so tests can compare them. */
void cz_fp_mul_portable(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr_portable(cz_fp *r, const cz_fp *a);
void cz_fr_mul_portable(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr_portable(cz_fr *r, const cz_fr *a);
/* True when the MULX/ADX versions exist in this build and the CPU runs them. */
bool cz_ff_have_mulx(void);
void cz_fp_mul_mulx(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr_mulx(cz_fp *r, const cz_fp *a);
void cz_fr_mul_mulx(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr_mulx(cz_fr *r, const cz_fr *a);
/* Name of the selected implementation: "mulx-adx" or "portable". */
const char *cz_ff_impl_name(void);

/* ----------------------------------------------------------------- Fp2 --- */

void cz_fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_neg(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_dbl(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sqr(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_mul_fp(cz_fp2 *r, const cz_fp2 *a, const cz_fp *b);
/* r = a * (u + 1), the Fp6 non-residue. */
void cz_fp2_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_conj(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_inv(cz_fp2 *r, const cz_fp2 *a);
/* As cz_fp_batch_inv, in Fp2. */
void cz_fp2_batch_inv(cz_fp2 *r, const cz_fp2 *a, size_t n, cz_fp2 *scratch);
/* r = a^(p^k); for Fp2 that is conjugation when k is odd. */
void cz_fp2_frobenius(cz_fp2 *r, const cz_fp2 *a, unsigned k);
bool cz_fp2_sqrt(cz_fp2 *r, const cz_fp2 *a);
int cz_fp2_legendre(const cz_fp2 *a);
bool cz_fp2_is_zero(const cz_fp2 *a);
bool cz_fp2_is_one(const cz_fp2 *a);
bool cz_fp2_equal(const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_cmov(cz_fp2 *r, const cz_fp2 *a, bool flag);
/* zcash sign of an Fp2 element: lexicographically largest of c1, or of c0
 * when c1 = 0. */
bool cz_fp2_is_lexicographically_largest(const cz_fp2 *a);
void cz_fp2_random(cz_fp2 *r, cz_prng *g);

/* ----------------------------------------------------------------- Fp6 --- */

void cz_fp6_add(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sub(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_neg(cz_fp6 *r, const cz_fp6 *a);
void cz_fp6_mul(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sqr(cz_fp6 *r, const cz_fp6 *a);
void cz_fp6_inv(cz_fp6 *r, const cz_fp6 *a);
/* r = a * v. */
void cz_fp6_mul_by_nonresidue(cz_fp6 *r, const cz_fp6 *a);
void cz_fp6_frobenius(cz_fp6 *r, const cz_fp6 *a, unsigned k);
bool cz_fp6_equal(const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_random(cz_fp6 *r, cz_prng *g);

/* ---------------------------------------------------------------- Fp12 --- */

extern const cz_fp12 CZ_FP12_ONE;

void cz_fp12_mul(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sqr(cz_fp12 *r, const cz_fp12 *a);
void cz_fp12_inv(cz_fp12 *r, const cz_fp12 *a);
void cz_fp12_conj(cz_fp12 *r, const cz_fp12 *a);
void cz_fp12_frobenius(cz_fp12 *r, const cz_fp12 *a, unsigned k);
/* Squaring in the cyclotomic subgroup (Granger-Scott); a must be in it
 * (a^(p^6+1)(p^2+1)... i.e. any output of the final exponentiation's easy
 * part). */
void cz_fp12_cyclotomic_sqr(cz_fp12 *r, const cz_fp12 *a);
bool cz_fp12_equal(const cz_fp12 *a, const cz_fp12 *b);
bool cz_fp12_is_one(const cz_fp12 *a);
void cz_fp12_random(cz_fp12 *r, cz_prng *g);
/* 576-byte encoding: the 12 Fp coefficients big-endian, in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 (tower order, c0 before c1). */
void cz_fp12_to_bytes_be(uint8_t out[576], const cz_fp12 *a);
int cz_fp12_from_bytes_be(cz_fp12 *r, const uint8_t in[576]);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_FF_H */
