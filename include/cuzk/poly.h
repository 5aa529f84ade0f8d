/* cuzk: number-theoretic transforms over Fr and the Groth16 H polynomial.
 *
 * Conventions match bellperson's EvaluationDomain bit for bit:
 *   omega_(2^32) = 7^((r-1)/2^32)  (Fr has 2-adicity 32, 7 generates Fr^*;
 *                                   snarkjs's domains use 5, see below)
 *   omega_n      = omega_(2^32)^(2^(32-k))  for n = 2^k
 *   forward:  X_i = sum_j x_j omega_n^(ij)          (evaluation at omega^i)
 *   inverse:  x_j = (1/n) sum_i X_i omega_n^(-ij)
 *   coset forward: x_j *= g^j, then forward; coset inverse: inverse, then
 *   x_j *= g^(-j); g = 7 (bellperson's MULTIPLICATIVE_GENERATOR).
 * Every result is an exact field element, so outputs do not depend on the
 * thread count or the schedule.
 *
 * Vectors are arrays of cz_fr in Montgomery form (as everywhere in cuzk).
 * Branches and memory accesses depend on sizes, orders and thread
 * scheduling only, and the field operations used are constant time, so the
 * running time does not depend on the values (witness-derived vectors may
 * pass through).
 *
 * Threads: every function taking a cz_pool runs on its workers and on the
 * calling thread; pool may be NULL (then it runs on the calling thread
 * only).  The functions use about 128 KiB of the calling and worker threads'
 * stacks and allocate nothing. */
#ifndef CUZK_POLY_H
#define CUZK_POLY_H

#include <stddef.h>

#include "cuzk/ff.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_NTT_MAX_LOG 28

/* Precomputed twiddles and constants for transforms of size n = 2^log_n,
 * 1 <= log_n <= CZ_NTT_MAX_LOG.  Read-only after creation: one domain may be
 * used by any number of threads at once. */
typedef struct cz_ntt_domain cz_ntt_domain;

/* Bytes cz_ntt_domain_new allocates for log_n (0 when log_n is out of
 * range): stage twiddles (up to 1 MiB), power tables (64 sqrt(n) bytes) and
 * coset tables (n/8 bytes): 1.1 MiB at 2^16, 1.8 MiB at 2^22, 19 MiB at
 * 2^27, 35 MiB at 2^28. */
size_t cz_ntt_domain_bytes(unsigned log_n);

/* Creates the domain of size 2^log_n.  For now it allocates one block of
 * cz_ntt_domain_bytes(log_n) with aligned_alloc (the malloc family); the
 * engine's tracked allocator will take over.  Returns CZ_OK, CZ_ERR_INVALID_ARG (log_n out of
 * range) or CZ_ERR_NOMEM (then *out is NULL). */
int cz_ntt_domain_new(cz_ntt_domain **out, unsigned log_n);

/* The same with another choice of roots: omega_(2^32) = b^((r-1)/2^32) for
 * b = root_base, CZ_NTT_ROOT_BELLPERSON (7, the default above) or
 * CZ_NTT_ROOT_SNARKJS (5: ffjavascript/wasmcurves take the smallest
 * quadratic non-residue).  Both give primitive roots, but different ones,
 * so evaluation i of a vector means a different point: a prover must use
 * the roots its key was made with.  The coset generator g stays 7.  Other
 * bases: CZ_ERR_INVALID_ARG. */
#define CZ_NTT_ROOT_BELLPERSON 7u
#define CZ_NTT_ROOT_SNARKJS    5u
int cz_ntt_domain_new_root(cz_ntt_domain **out, unsigned log_n, unsigned root_base);

/* NULL is a no-op. */
void cz_ntt_domain_free(cz_ntt_domain *d);

unsigned cz_ntt_domain_log(const cz_ntt_domain *d);
size_t cz_ntt_domain_size(const cz_ntt_domain *d);
/* omega_n, the generator of the domain (inverse: omega_n^-1). */
void cz_ntt_domain_omega(cz_fr *r, const cz_ntt_domain *d, bool inverse);
/* omega_2n, with omega_2n^2 = omega_n (defined for log_n <= 31). */
void cz_ntt_domain_omega2n(cz_fr *r, const cz_ntt_domain *d);
/* 1/n. */
void cz_ntt_domain_n_inv(cz_fr *r, const cz_ntt_domain *d);
/* The coset generator g = 7 (inverse: g^-1). */
void cz_ntt_domain_coset(cz_fr *r, const cz_ntt_domain *d, bool inverse);
/* 1/(g^n - 1): Z(X) = X^n - 1 on the coset g<omega_n> is g^n - 1 there. */
void cz_ntt_domain_z_inv(cz_fr *r, const cz_ntt_domain *d);

/* Layout of input and output: N natural order, R bit-reversed (element i
 * stored at index bitrev_k(i), k = log_n).  NR (a decimation-in-frequency
 * pass) and RN (decimation in time) need no permutation; NN and RR add one
 * blocked bit-reversal pass. */
typedef enum {
    CZ_NTT_NN = 0,
    CZ_NTT_NR,
    CZ_NTT_RN,
    CZ_NTT_RR,
} cz_ntt_order;

typedef enum {
    CZ_NTT_FORWARD = 0,   /* coefficients -> evaluations at omega^i */
    CZ_NTT_INVERSE,       /* evaluations -> coefficients (includes 1/n) */
    CZ_NTT_COSET_FORWARD, /* coefficients -> evaluations at g omega^i */
    CZ_NTT_COSET_INVERSE, /* evaluations at g omega^i -> coefficients */
} cz_ntt_kind;

/* Transforms x (n = cz_ntt_domain_size(d) elements) in place.  The order
 * names the layout of the input then of the output, whatever the
 * direction: e.g. an inverse with CZ_NTT_NR takes natural-order
 * evaluations and leaves bit-reversed coefficients. */
void cz_ntt(const cz_ntt_domain *d, cz_fr *x, cz_ntt_kind kind, cz_ntt_order order, cz_pool *pool);

/* x_i = x_i * y_i for i < n (no order: any layout, as long as x and y agree). */
void cz_ntt_pointwise_mul(cz_fr *x, const cz_fr *y, size_t n, cz_pool *pool);

/* In-place bit-reversal permutation of n = 2^log_n elements (blocked in
 * tiles, one pass over memory).  log_n <= CZ_NTT_MAX_LOG. */
void cz_ntt_bitrev(cz_fr *x, unsigned log_n, cz_pool *pool);

/* ------------------------------------------------------- Groth16 H --- */

/* The quotient polynomial of a Groth16 proof, exactly as bellperson computes
 * it.  m = cz_ntt_domain_size(d); a, b, c hold m elements each, of which the
 * first n (n <= m) are the evaluations of A, B, C at omega^i (the R1CS
 * products <A_j, w>, ...); [n, m) is overwritten with zeros (padding).
 *   a, b, c = coset_fft(ifft(.)) each;
 *   h_i = (a_i b_i - c_i) / (g^m - 1)        (Z(X) = X^m - 1 on the coset);
 *   h = icoset_fft(h)
 * On return a[0 .. m-2] holds the m - 1 coefficients of H that the proof
 * uses, in natural order; a[m-1] holds the dropped top coefficient (zero
 * when A B - C vanishes on the domain, i.e. for a satisfying witness).  b
 * and c are clobbered.  The three buffers must not overlap.
 *   When A B - C = Q Z + Rem (deg Rem < m), the result is Q + Rem / (g^m - 1):
 * the quotient itself for a satisfying witness.
 * Returns CZ_OK, or CZ_ERR_INVALID_ARG when n > m or a buffer is NULL. */
int cz_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n, cz_pool *pool);

/* The H scalars of a snarkjs proof (groth16_prove.js): the evaluations of
 * A B - C on the odd coset w <omega> (w = omega_2m, so its points are the
 * odd powers of omega_2m), which snarkjs's .zkey pairs with the points
 * [L_(2i+1)(tau) / delta]_1 of the 2m-point Lagrange basis:
 *   v = fft(ifft(v) * w^j) for v in a, b, c;   a_i = a_i b_i - c_i.
 * There is no division by Z: on that coset Z = X^m - 1 = -2 is constant and
 * the .zkey's points absorb it.  Same buffers and padding as cz_groth16_h;
 * on return a[0 .. m-1] holds the m scalars in natural order, b and c are
 * clobbered.  The small power tables (2 sqrt(m) elements) come from malloc.
 * Returns CZ_OK, CZ_ERR_INVALID_ARG (n > m, NULL buffer) or CZ_ERR_NOMEM. */
int cz_groth16_h_odd_coset(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n,
                           cz_pool *pool);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_POLY_H */
