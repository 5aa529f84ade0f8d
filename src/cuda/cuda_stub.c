/* include/cuzk/cuda.h, src/cuda/cuda_selftest.h and src/cuda/msm_scratch.h
 * in builds without CUDA (CMakeLists.txt compiles this file only when nvcc
 * is absent or CZ_CUDA is off): no device, every call CZ_ERR_UNSUPPORTED. */
#include <string.h>

#include "cuda/cuda_selftest.h"
#include "cuda/base_pipe.h"
#include "cuda/msm_scratch.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

bool cz_cuda_available(void) { return false; }

int cz_cuda_device_count(void) { return 0; }

int cz_cuda_set_device(int ordinal) { return CZ_ERR_UNSUPPORTED; }

int cz_cuda_device_name(char *buf, size_t len)
{
    if (!buf || !len)
        return CZ_ERR_INVALID_ARG;
    buf[0] = 0;
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_device_check(int ordinal, char *err, size_t errlen)
{
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED, "this build has no CUDA back end");
}

int cz_cuda_malloc(void **p, size_t bytes, cz_buf_class cls)
{
    if (!p)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_free(void *p) {}

int cz_cuda_mem_reserve(cz_cuda_resv **out, size_t bytes, int64_t timeout_ms)
{
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_mem_release(cz_cuda_resv *r) {}

int cz_cuda_mem_snapshot_of(int ordinal, cz_cuda_mem_snapshot *s)
{
    if (!s)
        return CZ_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_mem_reset_peaks(void) {}

int cz_cuda_set_mem_budget(int ordinal, uint64_t bytes)
{
    (void)ordinal;
    (void)bytes;
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_host_alloc(void **p, size_t bytes)
{
    if (!p)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_host_free(void *p) {}

int cz_cuda_witness_stage(cz_cuda_witness **out, const cz_fr *w, size_t n)
{
    (void)w;
    (void)n;
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_witness_free(cz_cuda_witness *s) { (void)s; }

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
int cz_cuda_ntt_compact(const cz_ntt_domain *d) { return CZ_ERR_UNSUPPORTED; }

void cz_cuda_release(void) {}

int cz_cuda_ntt(const cz_ntt_domain *d, cz_fr *x_dev, cz_ntt_kind kind, cz_ntt_order order)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_ntt_batch(const cz_ntt_domain *d, cz_fr *x_dev, size_t count, cz_ntt_kind kind,
                      cz_ntt_order order)
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

int cz_cuda_groth16_h_odd_coset(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n)
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

int cz_cuda_g1_fixed_new(cz_cuda_fixed **t, const cz_g1_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc)
{
    if (!t)
        return CZ_ERR_INVALID_ARG;
    *t = NULL;
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_g2_fixed_new(cz_cuda_fixed **t, const cz_g2_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc)
{
    if (!t)
        return CZ_ERR_INVALID_ARG;
    *t = NULL;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_fixed_free(cz_cuda_fixed *t) {}

int cz_cuda_g1_fixed_mul(cz_g1_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool)
{
    return t ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

int cz_cuda_g2_fixed_mul(cz_g2_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool)
{
    return t ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

/* src/cuda/cuda_selftest.h without CUDA: no device. */
int cz_cuda_selftest_fp(int op, const cz_fp *a, const cz_fp *b, cz_fp *out, size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_selftest_fp2(int op, const cz_fp2 *a, const cz_fp2 *b, cz_fp2 *out, size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_selftest_g1(int op, const cz_g1_xyzz *a, const cz_g1_xyzz *b, const cz_g1_affine *q,
                        cz_g1_xyzz *out, cz_g1 *out_jac, size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_selftest_g2(int op, const cz_g2_xyzz *a, const cz_g2_xyzz *b, const cz_g2_affine *q,
                        cz_g2_xyzz *out, cz_g2 *out_jac, size_t n)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_g1_msm(cz_g1 *out, const cz_g1_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    return out ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

int cz_cuda_g2_msm(cz_g2 *out, const cz_g2_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    return out ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

int cz_cuda_g1_msm_density(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    return out ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

int cz_cuda_g2_msm_density(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    return out ? CZ_ERR_UNSUPPORTED : CZ_ERR_INVALID_ARG;
}

int cz_cuda_groth16_start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                          const cz_ntt_domain *d, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                          size_t rows, int odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                          const uint64_t *dens[3], const cz_cuda_proof_opts *y, char *err,
                          size_t errlen)
{
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED, "this build has no CUDA back end");
}

void cz_cuda_params_release(const void *key) {}

int cz_cuda_r1cs_prepare(const cz_cuda_r1cs_view *r, size_t need, bool *resident)
{
    if (resident)
        *resident = false;
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_r1cs_release(const void *key) {}

int cz_cuda_r1cs_spmv(const cz_cuda_r1cs_view *r, const cz_fr *w_dev, cz_fr *const out[3])
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_groth16_start_r1cs(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                               const cz_ntt_domain *d, const cz_cuda_r1cs_view *r,
                               const cz_fr *w, size_t n_in, size_t n_aux, const uint64_t *dens[3],
                               const cz_cuda_proof_opts *y, char *err, size_t errlen)
{
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED, "this build has no CUDA back end");
}

int cz_cuda_groth16_prepare(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                            size_t n_in, size_t n_aux, bool *resident, char *err, size_t errlen)
{
    if (resident)
        *resident = false;
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED, "this build has no CUDA back end");
}

int cz_cuda_groth16_plan_bytes(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                               size_t n_in, size_t n_aux, uint64_t *least, uint64_t *whole)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_groth16_plan(const void *key, cz_cuda_plan_info *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    return CZ_ERR_UNSUPPORTED;
}

size_t cz_cuda_groth16_spill_bytes(const void *key) { return 0; }

size_t cz_cuda_msm_scratch_bytes(size_t n, bool g2, bool density, size_t n_scalars, unsigned c,
                                 size_t sort)
{
    return 0;
}

int cz_base_pipe_new(cz_base_pipe **out, const cz_pipe_chunk *chunks, size_t count, void *buf0,
                     void *buf1)
{
    *out = NULL;
    return CZ_ERR_UNSUPPORTED;
}

cz_cuda_bases cz_base_pipe_source(cz_base_pipe *p, size_t first)
{
    cz_cuda_bases b = {NULL, NULL, p};
    return b;
}

int cz_base_pipe_free(cz_base_pipe *p, uint64_t *bytes, double *busy_ms)
{
    if (bytes)
        *bytes = 0;
    if (busy_ms)
        *busy_ms = 0;
    return CZ_OK;
}

int cz_cuda_g1_msm_chunked(cz_g1 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_g2_msm_chunked(cz_g2 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_scratch_alloc(cz_cuda_scratch *s, size_t bytes)
{
    memset(s, 0, sizeof *s);
    return CZ_ERR_UNSUPPORTED;
}

void cz_cuda_scratch_free(cz_cuda_scratch *s) { memset(s, 0, sizeof *s); }

int cz_cuda_g1_msm_scratch(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev,
                           size_t n_scalars, unsigned c, cz_cuda_scratch *sc)
{
    return CZ_ERR_UNSUPPORTED;
}

int cz_cuda_g2_msm_scratch(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev,
                           size_t n_scalars, unsigned c, cz_cuda_scratch *sc)
{
    return CZ_ERR_UNSUPPORTED;
}
