/* cuzk: the CUDA back end (NVIDIA GPUs, built for sm_90 when nvcc is found).
 *
 * The NTT family and the Groth16 H polynomial on the device, with the
 * conventions of include/cuzk/poly.h and results bit-identical to the CPU's
 * cz_ntt and cz_groth16_h: device vectors are arrays of cz_fr in the same
 * Montgomery layout, fully reduced, so they copy to and from the GPU
 * unchanged.
 *
 * Builds without CUDA provide every function: cz_cuda_available() returns
 * false and the others return CZ_ERR_UNSUPPORTED (pointers come back NULL).
 *
 * Devices: every call works on the calling thread's current CUDA device
 * (device 0 unless the application chose another) and on its default
 * stream; calls taking device pointers queue work and return without
 * waiting unless they say otherwise (cz_cuda_sync waits).  Twiddle tables
 * are built on first use of a domain size on a device and kept until
 * cz_cuda_release().  Functions are safe to call from several threads.
 *
 * Errors: CZ_ERR_UNSUPPORTED (no CUDA build, no device or no usable
 * driver), CZ_ERR_NOMEM (not enough free device or pinned memory: checked
 * with the free VRAM before allocating), CZ_ERR_INVALID_ARG, CZ_ERR_BACKEND
 * (any other CUDA failure, including a failed kernel launch). */
#ifndef CUZK_CUDA_H
#define CUZK_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/ff.h"
#include "cuzk/poly.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when this build has the CUDA back end and at least one device is
 * usable (a missing driver or device gives false, never a crash). */
bool cz_cuda_available(void);

/* Name of the current device ("" when none), NUL-terminated in len bytes. */
int cz_cuda_device_name(char *buf, size_t len);

/* Device memory.  cz_cuda_malloc checks the free VRAM first and fails with
 * CZ_ERR_NOMEM (*p = NULL) when bytes do not fit.  cz_cuda_free(NULL) is a
 * no-op. */
int cz_cuda_malloc(void **p, size_t bytes);
void cz_cuda_free(void *p);
/* Page-locked host memory (fast, asynchronous copies). */
int cz_cuda_host_alloc(void **p, size_t bytes);
void cz_cuda_host_free(void *p);
/* Synchronous copies between host and device memory. */
int cz_cuda_memcpy_h2d(void *dst_dev, const void *src_host, size_t bytes);
int cz_cuda_memcpy_d2h(void *dst_host, const void *src_dev, size_t bytes);
/* Waits for all queued work on the current device; reports a kernel fault. */
int cz_cuda_sync(void);

/* Builds (once) and uploads the twiddle and coset tables of d's size and
 * roots on the current device: about 32 n bytes (4 GiB at 2^27).  The
 * transforms call it themselves; call it first to keep it out of a
 * timing. */
int cz_cuda_prepare(const cz_ntt_domain *d);
/* Frees every table cz_cuda_prepare kept, on every device. */
void cz_cuda_release(void);

/* cz_ntt on the device: x_dev holds n = cz_ntt_domain_size(d) elements in
 * device memory, transformed in place; same kinds and orders as cz_ntt
 * (NN and RR add one bit-reversal pass).  Queued on the default stream. */
int cz_cuda_ntt(const cz_ntt_domain *d, cz_fr *x_dev, cz_ntt_kind kind, cz_ntt_order order);

/* cz_groth16_h on device buffers a, b, c (m = cz_ntt_domain_size(d)
 * elements each, the first n the evaluations; [n, m) is zeroed): same
 * result in a (the m - 1 coefficients of H, then the dropped top one), b
 * and c clobbered.  Queued on the default stream. */
int cz_cuda_groth16_h_dev(const cz_ntt_domain *d, cz_fr *a_dev, cz_fr *b_dev, cz_fr *c_dev,
                          size_t n);
/* The same with host buffers, exactly cz_groth16_h's contract: copies the
 * first n elements of a, b, c in, computes, copies the m results back into
 * a (b and c are left unchanged); waits for the result.  Needs 3 m
 * elements of device memory besides the tables. */
int cz_cuda_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n);

/* Elapsed time between two points of the default stream, from CUDA events. */
typedef struct cz_cuda_timer cz_cuda_timer;
int cz_cuda_timer_new(cz_cuda_timer **t);
void cz_cuda_timer_free(cz_cuda_timer *t);
int cz_cuda_timer_start(cz_cuda_timer *t);
/* Records the end, waits for it, sets *ms to the time since the start. */
int cz_cuda_timer_stop(cz_cuda_timer *t, float *ms);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CUDA_H */
