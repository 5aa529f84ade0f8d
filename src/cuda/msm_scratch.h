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

#include "cuda/stream_plan.h"
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
 * queued work finished (the proof's preemption points, cz_cuda_proof_opts);
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
 * compacted to the n bases first.  sort >= n: the MSM of every base at
 * once (cz_cuda_g1_msm_scratch); sort < n: a chunked MSM whose chunks hold
 * at most sort bases (cz_cuda_g1_msm_chunked: its buckets, then one
 * chunk's compaction and sort, or the reduction). */
size_t cz_cuda_msm_scratch_bytes(size_t n, bool g2, bool density, size_t n_scalars, unsigned c,
                                 size_t sort);

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

/* Where a chunked MSM's bases come from: get sets *bases to chunk k's on
 * the device (chunks[k].b1 - chunks[k].b0 points), the default stream
 * made to wait for whatever brings them (CZ_OK or an error); done (may be
 * NULL) is called once the work reading them is queued on the default
 * stream, so whoever reuses their memory orders itself after that work.
 * Chunks are got in order, each once. */
typedef struct {
    int (*get)(void *ctx, size_t k, const void **bases);
    void (*done)(void *ctx, size_t k);
    void *ctx;
} cz_cuda_bases;

/* A chunked MSM: out = sum over the chunks (cz_stream_chunk: scalars
 * [s0, s1) with bases [b0, b1), stream_plan.h) of their scalars times
 * their bases, the scalars of the set bits of density_dev (device) when
 * given, else one each; scalars_dev Montgomery form, every scalar of the
 * MSM on the device; n_bases the chunks' bases in all.  The window c (0:
 * the default for n_bases) and one bucket array serve every chunk, each
 * chunk's digits sorted and summed into it, reduced once: the point of
 * the MSM of every base at once, for chunks of bases that stream in or a
 * sort that must stay small.  Scratch from sc (its pause, if any, runs
 * after each chunk's sort and halfway through its sums).  CZ_OK,
 * CZ_ERR_INVALID_ARG (chunks not covering n_bases, a bad window),
 * CZ_ERR_TOO_BIG, the source's or the device's errors. */
int cz_cuda_g1_msm_chunked(cz_g1 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc);
int cz_cuda_g2_msm_chunked(cz_g2 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_MSM_SCRATCH_H */
