/* cuzk: multi-scalar multiplication on G1 and G2 (CPU).
 *
 *   out = sum_i k_i P_i
 *
 * Pippenger's bucket method with signed (Booth) digits: window width c gives
 * 2^(c-1) buckets per window and ceil(256/c) windows.  Points enter the
 * buckets by affine additions batched so that one field inversion
 * (Montgomery's trick) serves a whole batch, about 6M per point instead of
 * the 10M of a mixed XYZZ addition; buckets are reduced by running sums
 * (batched affine ones too, in parallel lanes) and windows combined by
 * doublings.  Scalars equal to 0 are skipped, scalars
 * equal to 1 are summed apart by batched affine additions (the "split" that
 * witness-like inputs need: Filecoin witnesses are ~90% zeros and ones), and
 * only the rest goes through Pippenger.
 *
 * Everything here except the fixed-base functions runs in time that depends
 * on the scalars and the points: it is for public data (witness MSMs are
 * public to the prover; the Groth16 secrets r, s go through cz_g1_mul).
 *
 * Memory: nothing large is allocated.  Each entry point takes a scratch
 * buffer whose size its _scratch_bytes companion gives; scratch needs 64-byte
 * alignment (CZ_MSM_SCRATCH_ALIGN).  Inputs of any length are processed in
 * rounds of at most CZ_MSM_ROUND scalars, so scratch stays bounded (about
 * 40 bytes per scalar of one round plus per-thread buckets).
 *
 * Threads: `pool` may be NULL (the calling thread does everything).  With a
 * pool, its workers and the calling thread share the work:
 * cz_msm_nthreads(pool) threads in all.  Scratch sized for nthreads threads
 * may be used with any pool; the call then uses at most nthreads threads.
 *
 * Scalars are cz_fr in Montgomery form (as bellperson/blstrs store them), or
 * canonical little-endian limbs < r with CZ_MSM_CANONICAL.  Bases are
 * affine; bases at infinity ((0, 0), see ec.h) contribute nothing.  Bases
 * must be points of the curve (the prime-order subgroup is not required).
 */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags. */
/* Scalars are canonical limbs (< r), not Montgomery form. */
#define CZ_MSM_CANONICAL 1u
/* Send scalars equal to 1 through Pippenger with the rest (no split); for
 * comparisons and tests. */
#define CZ_MSM_NO_SPLIT 2u
/* Force the window width c (1 <= c <= CZ_MSM_MAX_WINDOW) instead of the
 * cost model's choice; for tuning and tests.  Widths below
 * CZ_MSM_AFFINE_MIN_WINDOW use XYZZ buckets, the others batch-affine ones. */
#define CZ_MSM_WINDOW(c)         (((unsigned)(c)&31u) << 8)
#define CZ_MSM_MAX_WINDOW        20
#define CZ_MSM_AFFINE_MIN_WINDOW 9
/* Force the number of point ranges per window (1 <= p <= CZ_MSM_MAX_PARTS),
 * which the cost model otherwise raises above 1 only when there are at least
 * twice as many threads as windows; for tuning and tests. */
#define CZ_MSM_PARTS(p)  (((unsigned)(p)&63u) << 16)
#define CZ_MSM_MAX_PARTS 32

/* Scalars per round (see above). */
#define CZ_MSM_ROUND ((size_t)1 << 22)

/* Required alignment of every scratch buffer. */
#define CZ_MSM_SCRATCH_ALIGN 64

/* Threads an MSM with this pool uses: cz_pool_threads(pool) + 1 (the caller
 * works too), or 1 for NULL. */
unsigned cz_msm_nthreads(const cz_pool *pool);

/* ------------------------------------------------------------------ G1 --- */

/* Scratch bytes for cz_g1_msm over n scalars (and for cz_g1_msm_density over
 * n scalars, whatever the number of bases) with up to nthreads threads and
 * these flags (only CZ_MSM_WINDOW and CZ_MSM_PARTS change the size). */
size_t cz_g1_msm_scratch_bytes(size_t n, unsigned nthreads, unsigned flags);

/* out = sum_{i < n} scalars[i] bases[i].  n = 0 gives infinity.  Returns
 * CZ_OK, or CZ_ERR_INVALID_ARG when a pointer is NULL (bases and scalars may
 * be NULL when n = 0), n >= 2^32, a window or parts flag is out of range, or the
 * scratch is misaligned or smaller than cz_g1_msm_scratch_bytes(n, 1, flags)
 * (then out is untouched). */
int cz_g1_msm(cz_g1 *out, const cz_g1_affine *bases, const cz_fr *scalars, size_t n, unsigned flags,
              cz_pool *pool, void *scratch, size_t scratch_bytes);

/* Density MSM (bellperson's multiexp over a QueryDensity): bases is the
 * dense list (points at infinity dropped from the parameters), scalars the
 * full assignment of length n_scalars, and bit i of density (bit i % 64 of
 * word i / 64) says whether scalar i has a base: the j-th set bit pairs its
 * scalar with bases[j]; scalars with a clear bit are ignored.
 *   out = sum_{i : bit i set} scalars[i] bases[popcount(density bits < i)]
 * Returns as cz_g1_msm; also CZ_ERR_INVALID_ARG when the number of set bits
 * among the first n_scalars differs from n_bases (bits past n_scalars in the
 * last word are ignored). */
int cz_g1_msm_density(cz_g1 *out, const cz_g1_affine *bases, size_t n_bases, const cz_fr *scalars,
                      const uint64_t *density, size_t n_scalars, unsigned flags, cz_pool *pool,
                      void *scratch, size_t scratch_bytes);

/* Fixed-base batch multiplication for parameter generation:
 *   out[i] = k_i B, constant time in the k_i (setup secrets).
 * The table holds d 2^(w j) B for every window j < ceil(256/w) and
 * 1 <= d <= 2^(w-1), affine; each product costs ceil(256/w) complete mixed
 * additions (11M) and as many scans of 2^(w-1) table entries.  w = 8 (a
 * 384 KiB G1 table) measured best here: 24 us per G1 product against
 * 150 us for cz_g1_mul.  1 <= w <= 16. */
size_t cz_g1_fixed_table_bytes(unsigned w);
/* Fills the table (64-byte aligned, cz_g1_fixed_table_bytes(w) bytes) for
 * base B; variable time in B (a public point).  B may be infinity. */
void cz_g1_fixed_table_init(void *table, unsigned w, const cz_g1_affine *base);
/* out[i] = k[i] B for i < n, affine (infinity when k[i] = 0); flags may hold
 * CZ_MSM_CANONICAL.  Constant time in the values of k (and so in which are
 * zero).  out may not alias the table. */
void cz_g1_fixed_mul(cz_g1_affine *out, const void *table, unsigned w, const cz_fr *k, size_t n,
                     unsigned flags, cz_pool *pool);

/* ------------------------------------------------------------------ G2 --- */

size_t cz_g2_msm_scratch_bytes(size_t n, unsigned nthreads, unsigned flags);
int cz_g2_msm(cz_g2 *out, const cz_g2_affine *bases, const cz_fr *scalars, size_t n, unsigned flags,
              cz_pool *pool, void *scratch, size_t scratch_bytes);
int cz_g2_msm_density(cz_g2 *out, const cz_g2_affine *bases, size_t n_bases, const cz_fr *scalars,
                      const uint64_t *density, size_t n_scalars, unsigned flags, cz_pool *pool,
                      void *scratch, size_t scratch_bytes);
size_t cz_g2_fixed_table_bytes(unsigned w);
void cz_g2_fixed_table_init(void *table, unsigned w, const cz_g2_affine *base);
void cz_g2_fixed_mul(cz_g2_affine *out, const void *table, unsigned w, const cz_fr *k, size_t n,
                     unsigned flags, cz_pool *pool);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_MSM_H */
