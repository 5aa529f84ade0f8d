/* Host-to-device copies for the CUDA back end's large per-proof vectors
 * (a, b, c, the assignment), fast also from pageable memory, and the
 * device-to-host copies of the one-vector H's parked values.
 *
 * From page-locked memory (cz_cuda_host_alloc, cudaHostRegister) a copy is
 * one cudaMemcpyAsync.  From pageable memory the driver's own path stages
 * through a small pinned buffer with one host thread and reaches about a
 * sixth of the link's speed (BENCHMARKS.md: 1959 ms against 580 ms for H at
 * 2^27).  cz_cuda_upload instead splits the source into CZ_UPLOAD_THREADS
 * contiguous stripes; each stripe's thread copies it, slot by slot, into
 * its own two page-locked slots of CZ_UPLOAD_SLOT bytes and queues each
 * slot's DMA on the caller's stream, reusing a slot once the event recorded
 * after its last DMA has passed.  The slots (CZ_UPLOAD_THREADS x 2 x
 * CZ_UPLOAD_SLOT = 128 MiB of page-locked memory per device) are allocated
 * on a device's first pageable upload and kept until cz_cuda_release: a
 * fixed overhead outside the memory budget, like the NTT twiddles. */
#ifndef CZ_CUDA_UPLOAD_CUH
#define CZ_CUDA_UPLOAD_CUH

#include <cuda_runtime.h>
#include <stddef.h>

#define CZ_UPLOAD_THREADS 8
#define CZ_UPLOAD_SLOT    ((size_t)8 << 20)

/* Queues the copy of bytes from host src to device dst (current device) on
 * stream st.  Returns once every byte has left src (copied to a slot or to
 * the device), so src may then be reused; the DMAs may still be running:
 * work that needs dst waits on st.  Uploads to one device from several
 * threads take turns on its slots. */
int cz_cuda_upload(void *dst, const void *src, size_t bytes, cudaStream_t st);

/* Copies bytes from device src (current device) to host dst after the
 * work queued on stream st, through the same slots from pageable memory
 * (each stripe's thread empties one slot while the next piece travels
 * into the other); returns once every byte is in dst. */
int cz_cuda_download(void *dst, const void *src, size_t bytes, cudaStream_t st);

/* Frees every device's staging slots (waiting for their DMAs). */
void cz_cuda_upload_release(void);

#endif /* CZ_CUDA_UPLOAD_CUH */
