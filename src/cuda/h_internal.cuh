/* Internal to src/cuda: the Groth16 H pipeline from host vectors, shared
 * by cz_cuda_groth16_h (ntt.cu) and cz_cuda_groth16_start (groth16.cu),
 * and from device vectors (cz_cuda_groth16_start_r1cs). */
#ifndef CZ_CUDA_H_INTERNAL_CUH
#define CZ_CUDA_H_INTERNAL_CUH

#include <cuda_runtime.h>

#include "cuzk/cuda.h"

/* Queues H of the host vectors a, b, c (n <= m = cz_ntt_domain_size(d)
 * elements each, page-locked or not) into the device buffer dev of 3 m
 * elements (a's slot [0, m), b's [m, 2m), c's [2m, 3m)): each vector is
 * uploaded on stream cp (cz_cuda_upload) and its transforms, queued on
 * stream st, wait only for its own upload, so b and c travel while a (then
 * b) is transformed.  H's m coefficients end in dev[0, m) once st's work
 * is done.  With odd, snarkjs's H instead (cz_groth16_h_odd_coset): its m
 * scalars end in dev[0, m).  Returns when every byte has left a, b and c. */
extern "C" int cz_cuda_h_from_host(const cz_ntt_domain *d, cz_fr *dev, const cz_fr *a,
                                   const cz_fr *b, const cz_fr *c, size_t n, bool odd,
                                   cudaStream_t st, cudaStream_t cp);

/* The same from a, b, c already in dev (their first n elements; the rest
 * is zeroed here), queued on st. */
extern "C" int cz_cuda_h_on_device(const cz_ntt_domain *d, cz_fr *dev, size_t n, cudaStream_t st);

/* H in steps, for the plans that keep two vectors (groth16.cu: b's
 * products and transforms, then c's, share one): h_eval turns x's n
 * evaluations (zero-padded to m) into its values on the coset; h_mul sets
 * a = a b pointwise; h_finish takes a b - c to H's m coefficients in ab.
 * h_eval(a), h_eval(b), h_mul(a, b), h_eval(c), h_finish(a, c) is
 * cz_cuda_h_on_device's result bit for bit.  Queued on st. */
extern "C" int cz_cuda_h_eval(const cz_ntt_domain *d, cz_fr *x, size_t n, cudaStream_t st);
extern "C" int cz_cuda_h_mul(const cz_ntt_domain *d, cz_fr *a, const cz_fr *b, cudaStream_t st);
extern "C" int cz_cuda_h_finish(const cz_ntt_domain *d, cz_fr *ab, const cz_fr *c,
                                cudaStream_t st);
/* H in steps with one vector on the device (groth16.cu), the others'
 * values parked in host memory and brought back a piece at a time:
 * h_mul_from sets b[i] = a[i] b[i] and h_sub_from c[i] = ab[i] - c[i]
 * over n elements (a piece of the vector, a its host values' copy);
 * h_finish_diff takes the difference ab - c (all m values, in x) to H's
 * coefficients.  h_eval(a), h_eval(b), h_mul_from(b, a), h_eval(c),
 * h_sub_from(c, ab), h_finish_diff(c) is h_finish's result bit for bit. */
extern "C" int cz_cuda_h_mul_from(cz_fr *b, const cz_fr *a, size_t n, cudaStream_t st);
extern "C" int cz_cuda_h_sub_from(cz_fr *c, const cz_fr *ab, size_t n, cudaStream_t st);
extern "C" int cz_cuda_h_finish_diff(const cz_ntt_domain *d, cz_fr *x, cudaStream_t st);

/* The device bytes of the NTT tables of 2^k points (what a domain's first
 * use on a device keeps: the coset tables, two small twiddle tables and,
 * with full, the full twiddle table of 2^(k-1) elements), and what the
 * current device has of them: 0 nothing, 1 all but the full twiddle
 * table, 2 everything. */
extern "C" size_t cz_cuda_ntt_tables_bytes(unsigned k, bool full);
extern "C" int cz_cuda_ntt_tables_state(unsigned k);
/* Builds d's tables on the current device now, with full the full twiddle
 * table (kept from then on; without it each twiddle is the product of two
 * small tables' entries, the same bits, one multiplication more). */
extern "C" int cz_cuda_ntt_tables(const cz_ntt_domain *d, bool full);

#endif /* CZ_CUDA_H_INTERNAL_CUH */
