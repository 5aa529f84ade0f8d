/* Internal to src/cuda: a staged witness (include/cuzk/cuda.h,
 * cz_cuda_witness_stage) as the proof reads it. */
#ifndef CZ_CUDA_WITNESS_CUH
#define CZ_CUDA_WITNESS_CUH

#include <stddef.h>

#include "cuzk/ff.h"

struct cz_cuda_witness {
    int dev;    /* the device it is on */
    size_t n;   /* values */
    cz_fr *buf; /* n values, device memory */
};

#endif /* CZ_CUDA_WITNESS_CUH */
