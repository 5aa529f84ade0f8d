/* Internal to src/cuda (and its tests): a proof's streamed bases
 * (groth16.cu).  Builds without CUDA have these too (cuda_stub.c):
 * CZ_ERR_UNSUPPORTED.
 *
 * Every chunk of every streamed MSM of a proof, in the order the MSMs
 * consume them, travels through one pipe: a helper thread queues the
 * upload of chunk k (cz_cuda_upload: one DMA from page-locked memory) into
 * device buffer k % 2 on a copy stream, after an event the consumer
 * recorded once the work reading chunk k - 2 was queued, so the copy
 * waits on the device, not on the host; the consumer's default stream
 * waits for chunk k's upload event before its kernels read it.  So the
 * upload of the next chunks, the next MSM's first ones too, runs under
 * the current chunk's kernels, and no host thread waits for a copy.  The
 * pipe counts the bytes it moved and the copy engine's busy time (timing
 * events around each chunk) for the proof's report. */
#ifndef CZ_CUDA_BASE_PIPE_H
#define CZ_CUDA_BASE_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include "cuda/msm_scratch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_base_pipe cz_base_pipe;

/* One chunk: bytes of host memory from src. */
typedef struct {
    const void *src;
    size_t bytes;
} cz_pipe_chunk;

/* A pipe of count chunks (the array is copied) into buf[0] and buf[1]
 * (device memory on the current device, each at least the largest chunk),
 * its helper thread started.  CZ_OK, CZ_ERR_NOMEM, CZ_ERR_THREAD, device
 * errors. */
int cz_base_pipe_new(cz_base_pipe **out, const cz_pipe_chunk *chunks, size_t count, void *buf0,
                     void *buf1);

/* The source (msm_scratch.h) of the chunks [first, first + n) of the
 * pipe, as chunks 0 .. n - 1 of one chunked MSM. */
cz_cuda_bases cz_base_pipe_source(cz_base_pipe *p, size_t first);

/* Stops the helper (chunks not yet got are not uploaded), waits for every
 * copy, frees the pipe; *bytes and *busy_ms (may be NULL): the bytes
 * uploaded and the copy stream's busy time.  Returns the first error the
 * helper met (CZ_OK otherwise).  NULL: CZ_OK. */
int cz_base_pipe_free(cz_base_pipe *p, uint64_t *bytes, double *busy_ms);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_BASE_PIPE_H */
