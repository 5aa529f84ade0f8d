/* cuzk: BLS12-381 groups G1, G2 and the optimal ate pairing.
 *
 *   G1: E (Fp):  y^2 = x^3 + 4
 *   G2: E'(Fp2): y^2 = x^3 + 4 (u + 1)   (M-type sextic twist)
 *   both of prime order r (the Fr modulus) after cofactor clearing.
 *
 * Forms:
 *   affine    (x, y); the point at infinity is (0, 0), which is not on the
 *             curve, as in blst.
 *   Jacobian  (X, Y, Z) = (X/Z^2, Y/Z^3); infinity has Z = 0.
 *   XYZZ      (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ), ZZ^3 = ZZZ^2; infinity has
 *             ZZ = 0.  The bucket form for MSM (cheap mixed additions).
 *
 * Scalars are cz_fr (Montgomery form).  cz_*_mul is constant time in the
 * scalar (use it for secrets: Groth16 r and s, setup toxic waste);
 * cz_*_mul_var leaks the scalar through timing and is for public scalars.
 * Outputs may alias inputs.
 *
 * Encodings are the zcash / blstrs / bellperson ones: big-endian
 * coordinates; byte 0 carries flags 0x80 (compressed), 0x40 (infinity),
 * 0x20 (y is lexicographically largest; compressed only).  G1 is 48 bytes
 * compressed, 96 uncompressed; G2 96 / 192, with each Fp2 coordinate written
 * c1 then c0.
 */
#ifndef CUZK_EC_H
#define CUZK_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { cz_fp x, y; } cz_g1_affine;
typedef struct { cz_fp x, y, z; } cz_g1;
typedef struct { cz_fp x, y, zz, zzz; } cz_g1_xyzz;

typedef struct { cz_fp2 x, y; } cz_g2_affine;
typedef struct { cz_fp2 x, y, z; } cz_g2;
typedef struct { cz_fp2 x, y, zz, zzz; } cz_g2_xyzz;

#define CZ_G1_COMPRESSED_BYTES 48
#define CZ_G1_UNCOMPRESSED_BYTES 96
#define CZ_G2_COMPRESSED_BYTES 96
#define CZ_G2_UNCOMPRESSED_BYTES 192

/* Flags for the decoders. */
#define CZ_DECODE_DEFAULT 0u
/* Skip the prime-order subgroup check.  Only for inputs whose origin is
 * trusted and where the check was asked to be switched off explicitly. */
#define CZ_DECODE_SKIP_SUBGROUP 1u
/* Reject the point at infinity (CZ_ERR_IS_INFINITY). */
#define CZ_DECODE_REJECT_INFINITY 2u

/* ------------------------------------------------------------------ G1 --- */

extern const cz_g1_affine CZ_G1_GENERATOR;

bool cz_g1_affine_is_inf(const cz_g1_affine *p);
bool cz_g1_affine_is_on_curve(const cz_g1_affine *p); /* infinity: true */
/* True iff p is in the order-r subgroup (infinity: true).  Uses the
 * endomorphism test sigma(P) == -x^2 P, not a multiplication by r. */
bool cz_g1_affine_in_subgroup(const cz_g1_affine *p);
/* All n points (each on the curve: checked by the caller) are in the
 * order-r subgroup: *all_in, wrong with probability below 2^-128 for any
 * input (random combinations in 81 rounds, src/ec/subgroup_batch.c has the
 * argument), in a fraction of the time of n single checks, spread over
 * pool (NULL: this thread).  It says only whether all are; a caller that
 * must name a bad point checks one by one after a false.  CZ_OK,
 * CZ_ERR_NOMEM, CZ_ERR_IO (no OS randomness).  Variable time. */
struct cz_pool;
int cz_g1_batch_in_subgroup(const cz_g1_affine *p, size_t n, struct cz_pool *pool, bool *all_in);
bool cz_g1_affine_equal(const cz_g1_affine *a, const cz_g1_affine *b);
void cz_g1_affine_neg(cz_g1_affine *r, const cz_g1_affine *p);

void cz_g1_set_inf(cz_g1 *r);
bool cz_g1_is_inf(const cz_g1 *p);
bool cz_g1_is_on_curve(const cz_g1 *p);
bool cz_g1_in_subgroup(const cz_g1 *p);
bool cz_g1_equal(const cz_g1 *a, const cz_g1 *b); /* as points, any Z */
void cz_g1_from_affine(cz_g1 *r, const cz_g1_affine *p);
void cz_g1_to_affine(cz_g1_affine *r, const cz_g1 *p);
/* Batch conversion with one field inversion; scratch-free (allocates
 * nothing: uses out[i].x as temporary storage).  out may not alias in. */
void cz_g1s_to_affine(cz_g1_affine *out, const cz_g1 *in, size_t n);
void cz_g1_neg(cz_g1 *r, const cz_g1 *p);
void cz_g1_dbl(cz_g1 *r, const cz_g1 *p);
/* Full addition; handles a == b, a == -b and infinity. */
void cz_g1_add(cz_g1 *r, const cz_g1 *a, const cz_g1 *b);
/* Mixed addition r = a + b with b affine; handles every special case. */
void cz_g1_add_affine(cz_g1 *r, const cz_g1 *a, const cz_g1_affine *b);
/* r = k * p, constant time in k. */
/* r = a + b in constant time (complete formulas, about 3x cz_g1_add): for
 * points derived from secrets. */
void cz_g1_add_ct(cz_g1 *r, const cz_g1 *a, const cz_g1 *b);
void cz_g1_mul(cz_g1 *r, const cz_g1 *p, const cz_fr *k);
/* r = k * p, variable time (public k). */
void cz_g1_mul_var(cz_g1 *r, const cz_g1 *p, const cz_fr *k);

void cz_g1_xyzz_set_inf(cz_g1_xyzz *r);
void cz_g1_xyzz_from_affine(cz_g1_xyzz *r, const cz_g1_affine *p);
void cz_g1_xyzz_add_affine(cz_g1_xyzz *r, const cz_g1_xyzz *a, const cz_g1_affine *b);
void cz_g1_xyzz_add(cz_g1_xyzz *r, const cz_g1_xyzz *a, const cz_g1_xyzz *b);
void cz_g1_xyzz_dbl(cz_g1_xyzz *r, const cz_g1_xyzz *p);
void cz_g1_xyzz_to_jacobian(cz_g1 *r, const cz_g1_xyzz *p);

void cz_g1_to_compressed(uint8_t out[48], const cz_g1_affine *p);
void cz_g1_to_uncompressed(uint8_t out[96], const cz_g1_affine *p);
/* Decodes len = 48 (compressed) or 96 (uncompressed) bytes, validating
 * length, flags, canonical coordinates, infinity encoding, curve equation
 * and (unless CZ_DECODE_SKIP_SUBGROUP) the subgroup.  Returns CZ_OK or the
 * first failing check's code; *r is untouched on failure. */
int cz_g1_decode(cz_g1_affine *r, const uint8_t *in, size_t len, unsigned flags);

/* ------------------------------------------------------------------ G2 --- */

extern const cz_g2_affine CZ_G2_GENERATOR;

bool cz_g2_affine_is_inf(const cz_g2_affine *p);
bool cz_g2_affine_is_on_curve(const cz_g2_affine *p);
/* Endomorphism test psi(P) == x P. */
bool cz_g2_affine_in_subgroup(const cz_g2_affine *p);
/* As cz_g1_batch_in_subgroup, in G2 (35 rounds of coefficients in
 * {-6, ..., 6}: the twist's torsion has no element of order below 13). */
int cz_g2_batch_in_subgroup(const cz_g2_affine *p, size_t n, struct cz_pool *pool, bool *all_in);
bool cz_g2_affine_equal(const cz_g2_affine *a, const cz_g2_affine *b);
void cz_g2_affine_neg(cz_g2_affine *r, const cz_g2_affine *p);

/* The lowest index of pts[0..n) (cz_g1_affine, or cz_g2_affine with g2;
 * each on the curve: checked by the caller) whose point is outside the
 * order-r subgroup, in *first, or n when all are in; the same whatever the
 * pool (NULL: this thread).  One batched check (cz_g1_batch_in_subgroup,
 * cz_g2_batch_in_subgroup), and the single ones, in parallel, only after
 * it refuses.  CZ_OK, CZ_ERR_INVALID_ARG, or the batch's CZ_ERR_NOMEM /
 * CZ_ERR_IO.  Variable time. */
int cz_ec_first_outside_subgroup(const void *pts, size_t n, bool g2, struct cz_pool *pool,
                                 size_t *first);

void cz_g2_set_inf(cz_g2 *r);
bool cz_g2_is_inf(const cz_g2 *p);
bool cz_g2_is_on_curve(const cz_g2 *p);
bool cz_g2_in_subgroup(const cz_g2 *p);
bool cz_g2_equal(const cz_g2 *a, const cz_g2 *b);
void cz_g2_from_affine(cz_g2 *r, const cz_g2_affine *p);
void cz_g2_to_affine(cz_g2_affine *r, const cz_g2 *p);
void cz_g2s_to_affine(cz_g2_affine *out, const cz_g2 *in, size_t n);
void cz_g2_neg(cz_g2 *r, const cz_g2 *p);
void cz_g2_dbl(cz_g2 *r, const cz_g2 *p);
void cz_g2_add(cz_g2 *r, const cz_g2 *a, const cz_g2 *b);
void cz_g2_add_affine(cz_g2 *r, const cz_g2 *a, const cz_g2_affine *b);
void cz_g2_add_ct(cz_g2 *r, const cz_g2 *a, const cz_g2 *b);
void cz_g2_mul(cz_g2 *r, const cz_g2 *p, const cz_fr *k);
void cz_g2_mul_var(cz_g2 *r, const cz_g2 *p, const cz_fr *k);

void cz_g2_xyzz_set_inf(cz_g2_xyzz *r);
void cz_g2_xyzz_from_affine(cz_g2_xyzz *r, const cz_g2_affine *p);
void cz_g2_xyzz_add_affine(cz_g2_xyzz *r, const cz_g2_xyzz *a, const cz_g2_affine *b);
void cz_g2_xyzz_add(cz_g2_xyzz *r, const cz_g2_xyzz *a, const cz_g2_xyzz *b);
void cz_g2_xyzz_dbl(cz_g2_xyzz *r, const cz_g2_xyzz *p);
void cz_g2_xyzz_to_jacobian(cz_g2 *r, const cz_g2_xyzz *p);

void cz_g2_to_compressed(uint8_t out[96], const cz_g2_affine *p);
void cz_g2_to_uncompressed(uint8_t out[192], const cz_g2_affine *p);
int cz_g2_decode(cz_g2_affine *r, const uint8_t *in, size_t len, unsigned flags);

/* ------------------------------------------------------------- pairing --- */

/* r = e(p, q): Miller loop then final exponentiation.  e(inf, q) = e(p, inf)
 * = 1.  The value is f_{x,q}(p)^(3 (p^12 - 1)/r), the cube of the textbook
 * reduced pairing, because that is what blst, zkcrypto/bls12_381 and
 * @noble/curves compute (their final exponentiations use chains for the
 * exponent 3 Phi_12(p)/r); outputs agree with theirs byte for byte.  Since
 * gcd(3, r) = 1 it is equally bilinear and non-degenerate.  Time depends only
 * on which inputs are the point at infinity. */
void cz_pairing(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q);
/* r = prod_i f_{x,q_i}(p_i): the product of n Miller loops, before the final
 * exponentiation (shared doublings in Fp12), up to factors from proper
 * subfields of Fp12 that the final exponentiation removes (so only the
 * exponentiated value is comparable with other libraries).  Pairs with a
 * point at infinity contribute 1; n = 0 gives 1. */
void cz_miller_loop_n(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q, size_t n);
/* r = f^(3 (p^12 - 1)/r), the r in the exponent being the group order (see
 * cz_pairing). */
void cz_final_exp(cz_fp12 *r, const cz_fp12 *f);
/* r = prod_i e(p_i, q_i) with one final exponentiation. */
void cz_multi_pairing(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q, size_t n);
/* True iff prod_i e(p_i, q_i) == 1. */
bool cz_pairing_check(const cz_g1_affine *p, const cz_g2_affine *q, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_EC_H */
