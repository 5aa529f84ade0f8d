/* Device self-tests of fp.cuh and ec.cuh (src/cuda/cuda_selftest.h): one
 * kernel per operation, one thread per element. */
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "cuda/cuda_err.cuh"
#include "cuda/cuda_selftest.h"
#include "cuda/ec.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

#define THREADS 128

static_assert(sizeof(fp_t) == sizeof(cz_fp), "fp_t and cz_fp share a layout");
static_assert(sizeof(fp2_t) == sizeof(cz_fp2), "fp2_t and cz_fp2 share a layout");
static_assert(sizeof(g1_affine_t) == sizeof(cz_g1_affine), "G1 affine layout");
static_assert(sizeof(g1_jacobian_t) == sizeof(cz_g1), "G1 Jacobian layout");
static_assert(sizeof(g1_xyzz_t) == sizeof(cz_g1_xyzz), "G1 XYZZ layout");
static_assert(sizeof(g2_affine_t) == sizeof(cz_g2_affine), "G2 affine layout");
static_assert(sizeof(g2_jacobian_t) == sizeof(cz_g2), "G2 Jacobian layout");
static_assert(sizeof(g2_xyzz_t) == sizeof(cz_g2_xyzz), "G2 XYZZ layout");

/* ---------------------------------------------------------------- kernels */

template <class F, int OP>
__global__ void __launch_bounds__(THREADS)
    field_kernel(const F *__restrict__ a, const F *__restrict__ b, F *__restrict__ out, size_t n)
{
    typedef field<F> K;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    F x = K::load(a + i), r;
    if constexpr (OP == CZ_CUDA_ST_ADD)
        r = K::add(x, K::load(b + i));
    else if constexpr (OP == CZ_CUDA_ST_SUB)
        r = K::sub(x, K::load(b + i));
    else if constexpr (OP == CZ_CUDA_ST_NEG)
        r = K::neg(x);
    else if constexpr (OP == CZ_CUDA_ST_DBL)
        r = K::dbl(x);
    else if constexpr (OP == CZ_CUDA_ST_MUL)
        r = K::mul(x, K::load(b + i));
    else if constexpr (OP == CZ_CUDA_ST_SQR)
        r = K::sqr(x);
    else if constexpr (OP == CZ_CUDA_ST_MUL_FP)
        r = fp2_mul_fp(x, fp_load(&b[i].c0));
    else if constexpr (OP == CZ_CUDA_ST_IS_ZERO)
        r = K::select(K::is_zero(x), K::one(), K::zero());
    else if constexpr (OP == CZ_CUDA_ST_EQUAL)
        r = K::select(K::equal(x, K::load(b + i)), K::one(), K::zero());
    else if constexpr (OP == CZ_CUDA_ST_SELECT)
        r = K::select(reinterpret_cast<const uint32_t *>(&x)[0] & 1, x, K::load(b + i));
    K::store(out + i, r);
}

template <class F, int OP>
__global__ void __launch_bounds__(THREADS)
    xyzz_kernel(const xyzz_t<F> *__restrict__ a, const xyzz_t<F> *__restrict__ b,
                const affine_t<F> *__restrict__ q, xyzz_t<F> *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    /* the inputs stay in global memory (see ec.cuh): loading them all into
     * registers first makes G2's xyzz_add spill */
    xyzz_t<F> r;
    if constexpr (OP == CZ_CUDA_ST_XYZZ_ADD_AFFINE)
        r = xyzz_add_affine(a[i], q[i]);
    else if constexpr (OP == CZ_CUDA_ST_XYZZ_ADD)
        r = xyzz_add(a[i], b[i]);
    else if constexpr (OP == CZ_CUDA_ST_XYZZ_DBL)
        r = xyzz_dbl(a[i]);
    xyzz_store(out + i, r);
}

template <class F>
__global__ void __launch_bounds__(THREADS)
    to_jacobian_kernel(const xyzz_t<F> *__restrict__ a, jacobian_t<F> *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    jacobian_store(out + i, xyzz_to_jacobian(a[i]));
}

/* ------------------------------------------------------------------ host */

static unsigned blocks(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

/* Launches one kernel on device arrays in[0..2] (a, b, q; NULL when the op
 * does not read them) and out; returns the launch's status. */
typedef int (*launcher)(void *const in[3], void *out, size_t n);

template <class F, int OP> static int launch_field(void *const in[3], void *out, size_t n)
{
    field_kernel<F, OP><<<blocks(n), THREADS>>>((const F *)in[0], (const F *)in[1], (F *)out, n);
    return cuda_err(cudaGetLastError());
}

template <class F, int OP> static int launch_xyzz(void *const in[3], void *out, size_t n)
{
    xyzz_kernel<F, OP><<<blocks(n), THREADS>>>((const xyzz_t<F> *)in[0], (const xyzz_t<F> *)in[1],
                                               (const affine_t<F> *)in[2], (xyzz_t<F> *)out, n);
    return cuda_err(cudaGetLastError());
}

template <class F> static int launch_to_jacobian(void *const in[3], void *out, size_t n)
{
    to_jacobian_kernel<F>
        <<<blocks(n), THREADS>>>((const xyzz_t<F> *)in[0], (jacobian_t<F> *)out, n);
    return cuda_err(cudaGetLastError());
}

/* Copies the inputs in[k] (in_size[k] bytes per element; NULL: not used)
 * to the device, runs go, copies the n results of out_size bytes back.
 * Device memory is freed on every path. */
static int run(launcher go, const void *const in[3], const size_t in_size[3], void *out,
               size_t out_size, size_t n)
{
    void *din[3] = {NULL, NULL, NULL}, *dout = NULL;
    int rc = CZ_OK;
    for (int k = 0; k < 3 && !rc; k++)
        if (in[k]) {
            rc = cz_cuda_malloc(&din[k], n * in_size[k], CZ_BUF_OTHER);
            if (!rc)
                rc = cuda_err(cudaMemcpy(din[k], in[k], n * in_size[k], cudaMemcpyHostToDevice));
        }
    if (!rc)
        rc = cz_cuda_malloc(&dout, n * out_size, CZ_BUF_OTHER);
    if (!rc)
        rc = go(din, dout, n);
    if (!rc)
        rc = cuda_err(cudaDeviceSynchronize());
    if (!rc)
        rc = cuda_err(cudaMemcpy(out, dout, n * out_size, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 3; k++)
        cz_cuda_free(din[k]);
    cz_cuda_free(dout);
    return rc;
}

/* The checks every entry point makes, in the order of cuda_selftest.h:
 * device, op, n = 0, sizes, arrays. */
static int precheck(launcher go, size_t n, size_t max_size, bool arrays_ok, bool *done)
{
    *done = true;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    if (!go)
        return CZ_ERR_INVALID_ARG;
    if (!n)
        return CZ_OK;
    if (n > SIZE_MAX / max_size || blocks(n) > INT_MAX)
        return CZ_ERR_TOO_BIG;
    if (!arrays_ok)
        return CZ_ERR_INVALID_ARG;
    *done = false;
    return CZ_OK;
}

static bool field_op_needs_b(int op)
{
    return op == CZ_CUDA_ST_ADD || op == CZ_CUDA_ST_SUB || op == CZ_CUDA_ST_MUL ||
           op == CZ_CUDA_ST_MUL_FP || op == CZ_CUDA_ST_EQUAL || op == CZ_CUDA_ST_SELECT;
}

template <class F>
static int selftest_field(launcher go, int op, const F *a, const F *b, F *out, size_t n)
{
    bool need_b = field_op_needs_b(op), done;
    int rc = precheck(go, n, sizeof(F), a && out && (b || !need_b), &done);
    if (done)
        return rc;
    const void *in[3] = {a, need_b ? b : NULL, NULL};
    const size_t size[3] = {sizeof(F), sizeof(F), 0};
    return run(go, in, size, out, sizeof(F), n);
}

template <class F>
static int selftest_group(launcher go, int op, const xyzz_t<F> *a, const xyzz_t<F> *b,
                          const affine_t<F> *q, xyzz_t<F> *out, jacobian_t<F> *out_jac, size_t n)
{
    bool need_b = op == CZ_CUDA_ST_XYZZ_ADD, need_q = op == CZ_CUDA_ST_XYZZ_ADD_AFFINE;
    bool to_jac = op == CZ_CUDA_ST_TO_JACOBIAN, done;
    bool ok = a && (b || !need_b) && (q || !need_q) && (to_jac ? out_jac != NULL : out != NULL);
    int rc = precheck(go, n, sizeof(xyzz_t<F>), ok, &done);
    if (done)
        return rc;
    const void *in[3] = {a, need_b ? b : NULL, need_q ? q : NULL};
    const size_t size[3] = {sizeof(xyzz_t<F>), sizeof(xyzz_t<F>), sizeof(affine_t<F>)};
    if (to_jac)
        return run(go, in, size, out_jac, sizeof(jacobian_t<F>), n);
    return run(go, in, size, out, sizeof(xyzz_t<F>), n);
}

/* Launchers by op; NULL where the op does not exist for the type. */
template <class F, bool FP2> static launcher field_launcher(int op)
{
    switch (op) {
    case CZ_CUDA_ST_ADD:
        return launch_field<F, CZ_CUDA_ST_ADD>;
    case CZ_CUDA_ST_SUB:
        return launch_field<F, CZ_CUDA_ST_SUB>;
    case CZ_CUDA_ST_NEG:
        return launch_field<F, CZ_CUDA_ST_NEG>;
    case CZ_CUDA_ST_DBL:
        return launch_field<F, CZ_CUDA_ST_DBL>;
    case CZ_CUDA_ST_MUL:
        return launch_field<F, CZ_CUDA_ST_MUL>;
    case CZ_CUDA_ST_SQR:
        return launch_field<F, CZ_CUDA_ST_SQR>;
    case CZ_CUDA_ST_MUL_FP:
        if constexpr (FP2)
            return launch_field<F, CZ_CUDA_ST_MUL_FP>;
        else
            return NULL;
    case CZ_CUDA_ST_IS_ZERO:
        return launch_field<F, CZ_CUDA_ST_IS_ZERO>;
    case CZ_CUDA_ST_EQUAL:
        return launch_field<F, CZ_CUDA_ST_EQUAL>;
    case CZ_CUDA_ST_SELECT:
        return launch_field<F, CZ_CUDA_ST_SELECT>;
    default:
        return NULL;
    }
}

template <class F> static launcher group_launcher(int op)
{
    switch (op) {
    case CZ_CUDA_ST_XYZZ_ADD_AFFINE:
        return launch_xyzz<F, CZ_CUDA_ST_XYZZ_ADD_AFFINE>;
    case CZ_CUDA_ST_XYZZ_ADD:
        return launch_xyzz<F, CZ_CUDA_ST_XYZZ_ADD>;
    case CZ_CUDA_ST_XYZZ_DBL:
        return launch_xyzz<F, CZ_CUDA_ST_XYZZ_DBL>;
    case CZ_CUDA_ST_TO_JACOBIAN:
        return launch_to_jacobian<F>;
    default:
        return NULL;
    }
}

extern "C" {

int cz_cuda_selftest_fp(int op, const cz_fp *a, const cz_fp *b, cz_fp *out, size_t n)
{
    return selftest_field<fp_t>(field_launcher<fp_t, false>(op), op, (const fp_t *)a,
                                (const fp_t *)b, (fp_t *)out, n);
}

int cz_cuda_selftest_fp2(int op, const cz_fp2 *a, const cz_fp2 *b, cz_fp2 *out, size_t n)
{
    return selftest_field<fp2_t>(field_launcher<fp2_t, true>(op), op, (const fp2_t *)a,
                                 (const fp2_t *)b, (fp2_t *)out, n);
}

int cz_cuda_selftest_g1(int op, const cz_g1_xyzz *a, const cz_g1_xyzz *b, const cz_g1_affine *q,
                        cz_g1_xyzz *out, cz_g1 *out_jac, size_t n)
{
    return selftest_group<fp_t>(group_launcher<fp_t>(op), op, (const g1_xyzz_t *)a,
                                (const g1_xyzz_t *)b, (const g1_affine_t *)q, (g1_xyzz_t *)out,
                                (g1_jacobian_t *)out_jac, n);
}

int cz_cuda_selftest_g2(int op, const cz_g2_xyzz *a, const cz_g2_xyzz *b, const cz_g2_affine *q,
                        cz_g2_xyzz *out, cz_g2 *out_jac, size_t n)
{
    return selftest_group<fp2_t>(group_launcher<fp2_t>(op), op, (const g2_xyzz_t *)a,
                                 (const g2_xyzz_t *)b, (const g2_affine_t *)q, (g2_xyzz_t *)out,
                                 (g2_jacobian_t *)out_jac, n);
}

} /* extern "C" */
