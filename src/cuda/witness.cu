/* A witness staged on a device ahead of its proof (include/cuzk/cuda.h). */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "cuda/cuda_err.cuh"
#include "cuda/upload.cuh"
#include "cuda/witness.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

extern "C" {

int cz_cuda_witness_stage(cz_cuda_witness **out, const cz_fr *w, size_t n)
{
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (!w || !n)
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    cz_cuda_witness *s = (cz_cuda_witness *)calloc(1, sizeof *s);
    if (!s)
        return CZ_ERR_NOMEM;
    s->n = n;
    size_t bytes = n * sizeof(cz_fr);
    cz_cuda_resv *resv = NULL;
    cudaStream_t st = NULL;
    int rc = cuda_err(cudaGetDevice(&s->dev));
    if (!rc) {
        /* never waits: the room is what the running proof left */
        rc = cz_cuda_mem_reserve(&resv, bytes, 0);
        if (rc == CZ_ERR_TIMEOUT || rc == CZ_ERR_TOO_BIG)
            rc = CZ_ERR_BUSY;
    }
    if (!rc)
        rc = cz_cuda_malloc((void **)&s->buf, bytes, CZ_BUF_WITNESS);
    if (!rc)
        rc = cuda_err(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    if (!rc)
        rc = cz_cuda_upload(s->buf, w, bytes, st);
    if (st) {
        int r2 = cuda_err(cudaStreamSynchronize(st));
        rc = rc ? rc : r2;
        cudaStreamDestroy(st);
    }
    cz_cuda_mem_release(resv); /* the buffer stays, charged to the budget */
    if (rc) {
        cz_cuda_witness_free(s);
        return rc;
    }
    *out = s;
    return CZ_OK;
}

void cz_cuda_witness_free(cz_cuda_witness *s)
{
    if (!s)
        return;
    cz_cuda_free(s->buf);
    free(s);
}

} /* extern "C" */
