/* CUDA runtime errors as cz_err codes, shared by the src/cuda modules. */
#ifndef CZ_CUDA_ERR_CUH
#define CZ_CUDA_ERR_CUH

#include <cuda_runtime.h>

#include "cuzk/err.h"

/* CZ_OK for cudaSuccess; otherwise resets the last-error state (non-sticky
 * errors) and maps: out of device memory -> CZ_ERR_NOMEM, no device or
 * driver, or a kernel with no image for the device (no SASS for it and no
 * PTX its driver compiles: cz_cuda_device_check says which) ->
 * CZ_ERR_UNSUPPORTED, anything else (a failed launch, a fault) ->
 * CZ_ERR_BACKEND. */
static inline int cuda_err(cudaError_t e)
{
    if (e == cudaSuccess)
        return CZ_OK;
    cudaGetLastError();
    if (e == cudaErrorMemoryAllocation)
        return CZ_ERR_NOMEM;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
        e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion)
        return CZ_ERR_UNSUPPORTED;
    return CZ_ERR_BACKEND;
}

#endif /* CZ_CUDA_ERR_CUH */
