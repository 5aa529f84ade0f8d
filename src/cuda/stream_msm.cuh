/* Internal to src/cuda: MSMs whose bases stay in host memory and travel to
 * the device chunk by chunk (groth16.cu, when a parameter set does not fit
 * in device memory beside a proof).
 *
 * The bases are cut into chunks of at most `chunk` points; for a density
 * MSM a chunk covers a range of scalars starting at a multiple of 64, so
 * the chunk's bitmap is the device bitmap from word s0 / 64 on, and its
 * base count is the popcount of those bits (counted on the host copy of the
 * bitmap).  Two device buffers alternate: a helper thread uploads chunk
 * k + 1 (cz_cuda_upload: one DMA from page-locked memory, which groth16.cu
 * arranges for parameter sets, else staged) while
 * the MSM of chunk k runs; the chunk sums are added on the host.  The
 * result is the same point as the MSM over all bases at once. */
#ifndef CZ_CUDA_STREAM_MSM_CUH
#define CZ_CUDA_STREAM_MSM_CUH

#include <stddef.h>
#include <stdint.h>

#include "cuda/stream_plan.h"
#include "cuzk/cuda.h"

/* out = sum of scalars_dev[i] bases_host[i] over the n_scalars scalars, or
 * with density_dev / density_host (the same bitmap on the device and on
 * the host) over the scalars whose bit is set, base j for the j-th set
 * bit (n_bases of them).  scalars_dev and density_dev are device memory,
 * bases_host and density_host host memory.  chunk >= 64: points per
 * upload.  Returns CZ_ERR_INVALID_ARG when the set bits are not n_bases,
 * CZ_ERR_NOMEM when the two chunk buffers do not fit. */
int cz_cuda_g1_msm_streamed(cz_g1 *out, const cz_g1_affine *bases_host, size_t n_bases,
                            const cz_fr *scalars_dev, const uint64_t *density_dev,
                            const uint64_t *density_host, size_t n_scalars, size_t chunk);
int cz_cuda_g2_msm_streamed(cz_g2 *out, const cz_g2_affine *bases_host, size_t n_bases,
                            const cz_fr *scalars_dev, const uint64_t *density_dev,
                            const uint64_t *density_host, size_t n_scalars, size_t chunk);

#endif /* CZ_CUDA_STREAM_MSM_CUH */
