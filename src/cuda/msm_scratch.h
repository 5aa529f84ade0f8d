/* Internal to src/cuda (and its tests): MSMs that draw their device scratch from a block
 * the caller owns (msm.cu), for the MSMs of one proof (groth16.cu).
 *
 * cz_cuda_g1_msm and friends allocate their scratch per call and free it
 * with cudaFree, which synchronises the whole device: work queued on other
 * streams (H's transforms) must end before the free returns, so nothing
 * runs beside such an MSM, and a large MSM pays some twenty allocations.
 * Here the proof allocates one block first (from its reservation,
 * cz_cuda_msm_scratch_bytes of it), every MSM bumps its buffers out of it
 * and gives them back by moving the mark, and an MSM waits only for its
 * own stream (the legacy default stream, which does not wait for the
 * non-blocking streams the proof queues H on).  When a
 * bound below is too small the MSM takes what is missing from
 * cz_cuda_malloc as before (correct, without the overlap; CZ_CUDA_DEBUG
 * reports it, and the scratch counts it).  Builds without CUDA have these
 * too (cuda_stub.c): CZ_ERR_UNSUPPORTED, bound 0. */
#ifndef CZ_CUDA_MSM_SCRATCH_H
#define CZ_CUDA_MSM_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A bump allocator over one device buffer: [base, base + used) is taken;
 * peak: the most used since allocation; spills: allocations that did not
 * fit and went to cz_cuda_malloc.  pause (NULL: none), set by the proof
 * around an MSM too long to wait for: that MSM calls pause(pause_ctx)
 * twice, after its sort and halfway through its bucket sums, with its
 * queued work finished (the proof's preemption points, cz_cuda_yield);
 * its buffers stay taken meanwhile. */
typedef struct {
    char *base;
    size_t size, used, peak;
    unsigned spills;
    void (*pause)(void *pause_ctx);
    void *pause_ctx;
} cz_cuda_scratch;

/* Bytes one MSM of n bases (G2 when g2) with window c (0: the default for
 * n) takes from a scratch at most; with density, n_scalars scalars are
 * compacted to the n bases first. */
size_t cz_cuda_msm_scratch_bytes(size_t n, bool g2, bool density, size_t n_scalars, unsigned c);

/* s = bytes of device memory (cz_cuda_malloc, CZ_BUF_SCRATCH), all
 * counters 0; free gives it back (a zeroed s: no-op). */
int cz_cuda_scratch_alloc(cz_cuda_scratch *s, size_t bytes);
void cz_cuda_scratch_free(cz_cuda_scratch *s);

/* cz_cuda_g1_msm (density NULL: n_scalars = n_bases) or
 * cz_cuda_g1_msm_density with flags CZ_MSM_WINDOW(c) (c 0: the default),
 * with scratch from sc (which comes back with its mark where it was);
 * returns when the result is on the host. */
int cz_cuda_g1_msm_scratch(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned c, cz_cuda_scratch *sc);
int cz_cuda_g2_msm_scratch(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned c, cz_cuda_scratch *sc);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_MSM_SCRATCH_H */
