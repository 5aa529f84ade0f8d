/* include/cuzk/cuda.h in builds without CUDA (CMakeLists.txt compiles this
 * file only when nvcc is absent or CZ_CUDA is off): no device, every call
 * CZ_ERR_UNSUPPORTED. */
#include "cuzk/cuda.h"
#include "cuzk/err.h"

bool cz_cuda_available(void) { return false; }

int cz_cuda_device_name(char *buf, size_t len)
{
    if (!buf || !len)
        return CZ_ERR_INVALID_ARG;
    buf[0] = 0;
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_malloc(void **p, size_t bytes)
{
    if (!p)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_free(void *p) {}

int cz_cuda_host_alloc(void **p, size_t bytes)
{
    if (!p)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_host_free(void *p) {}

int cz_cuda_memcpy_h2d(void *dst_dev, const void *src_host, size_t bytes)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_memcpy_d2h(void *dst_host, const void *src_dev, size_t bytes)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_sync(void) { return CZ_ERR_UNSUPPORTED; }

int cz_cuda_prepare(const cz_ntt_domain *d) { return CZ_ERR_UNSUPPORTED; }

void cz_cuda_release(void) {}

int cz_cuda_ntt(const cz_ntt_domain *d, cz_fr *x_dev, cz_ntt_kind kind, cz_ntt_order order)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_groth16_h_dev(const cz_ntt_domain *d, cz_fr *a_dev, cz_fr *b_dev, cz_fr *c_dev,
                          size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_timer_new(cz_cuda_timer **t)
{
    if (!t)
        return CZ_ERR_INVALID_ARG;
    *t = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_timer_free(cz_cuda_timer *t) {}

int cz_cuda_timer_start(cz_cuda_timer *t) { return CZ_ERR_UNSUPPORTED; }

int cz_cuda_timer_stop(cz_cuda_timer *t, float *ms) { return CZ_ERR_UNSUPPORTED; }
