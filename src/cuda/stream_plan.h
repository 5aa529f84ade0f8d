/* Internal to src/cuda: how a streamed MSM (stream_msm.cuh) cuts its bases
 * into chunks.  Plain C, so that CI tests it without a GPU. */
#ifndef CZ_CUDA_STREAM_PLAN_H
#define CZ_CUDA_STREAM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One chunk of a streamed MSM: scalars [s0, s1), bases [b0, b1). */
typedef struct {
    size_t s0, s1, b0, b1;
} cz_stream_chunk;

/* The chunks of a streamed MSM over n_scalars scalars and n_bases bases:
 * without a density bitmap (density NULL) scalar i goes with base i and
 * n_bases must equal n_scalars; with one, base j goes with the j-th set
 * bit among the first n_scalars.  Every chunk holds between 1 and `chunk`
 * bases (chunk >= 64: a 64-bit word never has to be split), chunks are in
 * order and cover every base; a chunk's scalar range starts at a multiple
 * of 64 (density) so its bitmap starts at word s0 / 64.  Up to max_out
 * chunks go to out, their number to *count.  CZ_ERR_INVALID_ARG when the
 * counts do not match or chunk < 64, CZ_ERR_TOO_BIG when more than max_out
 * chunks are needed. */
int cz_stream_plan(cz_stream_chunk *out, size_t max_out, size_t *count, const uint64_t *density,
                   size_t n_scalars, size_t n_bases, size_t chunk);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_STREAM_PLAN_H */
