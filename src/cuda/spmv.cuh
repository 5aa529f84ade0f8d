/* Internal to src/cuda: the device SpMV (spmv.cu) as cz_cuda_groth16_start
 * uses it, on its own stream and with the resident copy held across the
 * proof. */
#ifndef CZ_CUDA_SPMV_CUH
#define CZ_CUDA_SPMV_CUH

#include <cuda_runtime.h>

#include "cuda/fr.cuh"
#include "cuzk/cuda.h"

/* A hold on r's resident copy on the current device (entry NULL: none,
 * the products stream). */
typedef struct {
    void *entry;
} cz_cuda_r1cs_use;

/* Device bytes of r's resident copy, and of the buffers its streamed
 * products take (the dictionary and two sets of chunk slices). */
size_t cz_cuda_r1cs_bytes(const cz_cuda_r1cs_view *r);
size_t cz_cuda_r1cs_stream_bytes(const cz_cuda_r1cs_view *r);
/* Finds r's copy, or uploads it when resident (the caller's plan) and it
 * is not there, and holds it until cz_cuda_r1cs_put, so a release waits
 * for the hold.  CZ_OK with use->entry NULL: the products stream. */
int cz_cuda_r1cs_acquire(const cz_cuda_r1cs_view *r, bool resident, cz_cuda_r1cs_use *use);
void cz_cuda_r1cs_put(cz_cuda_r1cs_use *use);
/* out[k] = M_k w for the out[k] not NULL: queued on st with the resident
 * copy; streamed (waiting for st first, returning when done) without. */
int cz_cuda_r1cs_spmv_on(const cz_cuda_r1cs_view *r, const cz_cuda_r1cs_use *use, const fr_t *w,
                         fr_t *const out[3], cudaStream_t st);

#endif /* CZ_CUDA_SPMV_CUH */
