/* Fixed-base batch multiplication on the GPU (include/cuzk/cuda.h), G1 and
 * G2, for the insecure setup's query points:
 *
 *   out_i = k_i B = sum_{j < W} d_ij 2^(w j) B,   W = ceil(256 / w),
 *
 * with d_ij the signed (Booth) digits of k_i, |d| <= 2^(w-1) (the formula
 * of msm_internal.h's msm_booth_digit), and a table of the affine points
 * T[j][|d| - 1] = |d| 2^(w j) B in device memory (msm.h's layout).
 *
 * The table is built on the host (msm_template.h's method, rows in
 * segments on the pool) and uploaded.  Kernels:
 *   fixed_mul  one thread per scalar, W windows, each one table read and
 *           one complete mixed addition in homogeneous projective
 *           coordinates (Renes-Costello-Batina 2015, Algorithm 8, a = 0:
 *           11M + 2 m_3b).  A zero digit needs no branch: the table point is
 *           replaced by the identity (X2 : Y2 : Z2) = (0 : 1 : 0), which the
 *           general Algorithm 7 handles; with Z2 in {0, 1} its products by
 *           Z2 (X1 Z2, Y1 Z2, Z1 Z2) are selects, leaving Algorithm 8's 11M:
 *             t0 = X1 X2, t1 = Y1 Y2, t3 = (X1 + Y1)(X2 + Y2) - t0 - t1,
 *             t4 = Y2 Z1 + Y1 Z2, s = X2 Z1 + X1 Z2, t2 = 3b Z1 Z2,
 *             Z3 = t1 + t2, t1 = t1 - t2, s = 3b s,
 *             X3 = t3 t1 - t4 s, Y3 = t1 Z3 + 3 t0 s, Z3 = Z3 t4 + 3 t0 t3.
 *           For Z2 = 0 this gives Y1 (X1 : Y1 : Z1), the same point (Y1 is
 *           never 0: the subgroup has odd order, the identity is (0 : Y : 0)).
 *   batch_affine  each thread takes FB_PER points strided by the grid
 *           (coalesced): Montgomery's trick over their Z (3M a point) with
 *           one inversion (fp.cuh's fp_inv, ~610M), then x = X/Z, y = Y/Z
 *           (2M); Z = 0 (k = 0) is replaced by 1 in the product and the
 *           point written as (0, 0), by selects.
 * Per G1 product at w = 16: 16 additions (176M + 32 m_3b) and about 15M of
 * conversion; G2 the same in Fp2 (3M each).
 *
 * Affine coordinates are unique and every field value is fully reduced, so
 * the results are cz_g1_fixed_mul's / cz_g2_fixed_mul's bit for bit.
 *
 * Side channels: no branch depends on the scalars (digits become masks and
 * selects, the conversion selects on Z = 0), but every window reads the
 * table entry its digit indexes, so the memory access pattern follows the
 * scalars: fine for the insecure setup, not for secrets that an observer
 * of the device must not learn.
 *
 * Streaming: host arrays travel in chunks through two slots, each with its
 * stream, page-locked staging and device buffers.  Chunk c is staged into
 * slot c % 2 (host copy on the pool, upload, fixed_mul, batch_affine,
 * download, all queued), then chunk c - 1's results are awaited and
 * copied out on the pool: the device computes chunk c while the host copies
 * chunk c - 1 out and chunk c + 1 in, and the uploads and downloads overlap
 * the neighbouring chunk's kernels. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_err.cuh"
#include "cuda/ec.cuh"
#include "cuda/fr.cuh"
#include "cuzk/cuda.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/mem.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"

#define FB_THREADS 128
#define FB_PER     64                /* points per thread in batch_affine */
#define FB_CHUNK   ((size_t)1 << 22) /* points per chunk */
#define FB_WINDOW  16                /* default window width */
#define COPY_BLOCK ((size_t)1 << 20) /* bytes per host copy task */

template <class F> struct proj_t {
    F x, y, z;
};

static_assert(sizeof(affine_t<fp_t>) == sizeof(cz_g1_affine), "G1 affine layout");
static_assert(sizeof(affine_t<fp2_t>) == sizeof(cz_g2_affine), "G2 affine layout");
static_assert(sizeof(fr_t) == sizeof(cz_fr), "fr_t and cz_fr share a layout");

/* ---------------------------------------------------------------- kernels */

/* r = 3b a: G1's b = 4, 3b = 12 (2a, 3a, 6a, 12a); G2's b = 4 (1 + u),
 * 3b = 12 (1 + u): (a0 - a1) + (a0 + a1) u, then 12 times. */
template <class F> __device__ __forceinline__ F mul_b3(const F &a);
template <> __device__ __forceinline__ fp_t mul_b3(const fp_t &a)
{
    fp_t t = fp_add(fp_dbl(a), a);
    return fp_dbl(fp_dbl(t));
}
template <> __device__ __forceinline__ fp2_t mul_b3(const fp2_t &a)
{
    fp2_t s = {fp_sub(a.c0, a.c1), fp_add(a.c0, a.c1)};
    fp2_t t = fp2_add(fp2_dbl(s), s);
    return fp2_dbl(fp2_dbl(t));
}

/* Booth digit j of width w of the canonical s, msm_booth_digit's formula:
 * v = bits jw - 1 .. jw + w - 1 of s (bit -1 is 0),
 * d = ((v + 1) >> 1) - 2^w (v >> w).  j and w are the same in every
 * thread; w <= CZ_CUDA_FIXED_MAX_WINDOW. */
__device__ __forceinline__ int booth_digit(const fr_t &s, unsigned j, unsigned w)
{
    uint32_t v;
    if (j == 0) {
        v = s.l[0] << 1;
    } else {
        unsigned bit = j * w - 1, q = bit / 32, sh = bit % 32;
        v = (uint32_t)((((uint64_t)fr_word(s, q + 1) << 32) | fr_word(s, q)) >> sh);
    }
    v &= (2u << w) - 1;
    return (int)((v + 1) >> 1) - (int)((v >> w) << w);
}

/* p + the table point of a digit: e the entry of |d| (any entry when
 * d = 0), nz: d != 0, neg: d < 0; the formulas above. */
template <class F>
__device__ __forceinline__ proj_t<F> add_digit(const proj_t<F> &p, const affine_t<F> *e, bool nz,
                                               bool neg)
{
    typedef field<F> K;
    F x2 = K::select(nz, K::load(&e->x), K::zero());
    F y2 = K::load(&e->y);
    y2 = K::select(nz, K::select(neg, K::neg(y2), y2), K::one());
    F t3 = K::mul(K::add(p.x, p.y), K::add(x2, y2));
    F t0 = K::mul(p.x, x2);
    F t1 = K::mul(p.y, y2);
    t3 = K::sub(t3, K::add(t0, t1));
    F t4 = K::add(K::mul(y2, p.z), K::select(nz, p.y, K::zero()));
    F s = K::add(K::mul(x2, p.z), K::select(nz, p.x, K::zero()));
    F t2 = mul_b3(K::select(nz, p.z, K::zero()));
    F z3 = K::add(t1, t2);
    t1 = K::sub(t1, t2);
    s = mul_b3(s);
    t0 = K::add(K::dbl(t0), t0);
    F x3 = K::sub(K::mul(t3, t1), K::mul(t4, s));
    F y3 = K::add(K::mul(t1, z3), K::mul(t0, s));
    z3 = K::add(K::mul(z3, t4), K::mul(t0, t3));
    return proj_t<F>{x3, y3, z3};
}

template <class F> __device__ __forceinline__ void proj_store(proj_t<F> *q, const proj_t<F> &p)
{
    typedef field<F> K;
    K::store(&q->x, p.x);
    K::store(&q->y, p.y);
    K::store(&q->z, p.z);
}

/* out[i] = k[i] B in projective coordinates, tab the table of width w
 * (nwin rows); mont: k in Montgomery form, else canonical limbs. */
template <class F>
__global__ void __launch_bounds__(FB_THREADS)
    fixed_mul(const affine_t<F> *__restrict__ tab, unsigned w, unsigned nwin,
              const fr_t *__restrict__ k, size_t n, bool mont, proj_t<F> *__restrict__ out)
{
    typedef field<F> K;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    fr_t s = fr_load(k + i);
    if (mont)
        s = fr_from_mont(s);
    const size_t row = (size_t)1 << (w - 1);
    proj_t<F> p = {K::zero(), K::one(), K::zero()};
    for (unsigned j = 0; j < nwin; j++) {
        int d = booth_digit(s, j, w);
        uint32_t m = 0u - ((uint32_t)d >> 31); /* all ones when d < 0 */
        uint32_t a = ((uint32_t)d ^ m) - m;    /* |d| */
        uint32_t nz = (a | (0u - a)) >> 31;    /* d != 0 */
        p = add_digit(p, tab + j * row + (a - nz), nz != 0, m != 0);
    }
    proj_store(out + i, p);
}

/* out[i] = in[i] in affine coordinates, (0, 0) where Z = 0.  Thread t takes
 * the points t + q T, q < FB_PER, T the grid's thread count (FB_PER T >= n
 * by the launch); out[i].x holds the running product until the backward
 * pass overwrites it. */
template <class F>
__global__ void __launch_bounds__(FB_THREADS)
    batch_affine(const proj_t<F> *__restrict__ in, size_t n, affine_t<F> *__restrict__ out)
{
    typedef field<F> K;
    size_t T = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    F acc = K::one();
    unsigned cnt = 0;
    for (size_t i = t; i < n && cnt < FB_PER; i += T, cnt++) {
        F z = K::load(&in[i].z);
        K::store(&out[i].x, acc);
        acc = K::mul(acc, K::select(K::is_zero(z), K::one(), z));
    }
    if (cnt == 0)
        return;
    F inv = K::inv(acc);
    while (cnt-- > 0) {
        size_t i = t + (size_t)cnt * T;
        F z = K::load(&in[i].z);
        bool inf = K::is_zero(z);
        F zi = K::mul(inv, K::load(&out[i].x));
        inv = K::mul(inv, K::select(inf, K::one(), z));
        F x = K::mul(K::load(&in[i].x), zi), y = K::mul(K::load(&in[i].y), zi);
        K::store(&out[i].x, K::select(inf, K::zero(), x));
        K::store(&out[i].y, K::select(inf, K::zero(), y));
    }
}

/* ----------------------------------------------------------------- host */

template <class F> struct host_ops;
template <> struct host_ops<fp_t> {
    typedef cz_g1_affine aff;
    typedef cz_g1 jac;
    static const int g2 = 0;
    static bool is_inf(const aff *p) { return cz_g1_affine_is_inf(p); }
    static void from_affine(jac *r, const aff *p) { cz_g1_from_affine(r, p); }
    static void dbl(jac *r, const jac *p) { cz_g1_dbl(r, p); }
    static void add(jac *r, const jac *a, const jac *b) { cz_g1_add(r, a, b); }
    static void mul(jac *r, const jac *p, const cz_fr *k) { cz_g1_mul_var(r, p, k); }
    static void to_affine(aff *r, const jac *p, size_t n) { cz_g1s_to_affine(r, p, n); }
};
template <> struct host_ops<fp2_t> {
    typedef cz_g2_affine aff;
    typedef cz_g2 jac;
    static const int g2 = 1;
    static bool is_inf(const aff *p) { return cz_g2_affine_is_inf(p); }
    static void from_affine(jac *r, const aff *p) { cz_g2_from_affine(r, p); }
    static void dbl(jac *r, const jac *p) { cz_g2_dbl(r, p); }
    static void add(jac *r, const jac *a, const jac *b) { cz_g2_add(r, a, b); }
    static void mul(jac *r, const jac *p, const cz_fr *k) { cz_g2_mul_var(r, p, k); }
    static void to_affine(aff *r, const jac *p, size_t n) { cz_g2s_to_affine(r, p, n); }
};

/* One chunk's buffers. */
struct slot {
    void *hk, *hout;         /* host staging: scalars, results (from the allocator) */
    bool pin_k, pin_out;     /* page-locked with cudaHostRegister */
    void *dk, *dproj, *daff; /* device: scalars, projective products, results */
    cudaStream_t st;
    cudaEvent_t done; /* after the chunk's download */
};

struct cz_cuda_fixed {
    int g2; /* 0: G1, 1: G2 */
    unsigned w, nwin;
    bool inf;               /* B is infinity: every product is (0, 0) */
    int dev;                /* the device it was made on */
    void *tab;              /* the table (device) */
    const cz_allocator *al; /* for the host staging */
    size_t cap;             /* points per chunk of the buffers (0: none yet) */
    slot s[2];
};

static size_t aff_bytes(const cz_cuda_fixed *t)
{
    return t->g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
}

static size_t env_size(const char *name, size_t dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    char *end;
    unsigned long long v = strtoull(e, &end, 0);
    return *end ? 0 : (size_t)v;
}

static void host_release(const cz_cuda_fixed *t, void *p, bool pinned, size_t bytes, bool wipe)
{
    if (!p)
        return;
    if (pinned && cudaHostUnregister(p) != cudaSuccess)
        cudaGetLastError();
    if (wipe)
        explicit_bzero(p, bytes);
    cz_free(t->al, p, bytes);
}

/* Frees the chunk buffers, the scalars wiped (host and device). */
static void buffers_free(cz_cuda_fixed *t)
{
    size_t C = t->cap, ab = aff_bytes(t);
    for (int b = 0; b < 2; b++) {
        slot *s = &t->s[b];
        if (s->st)
            cudaStreamSynchronize(s->st);
        if (s->dk && cudaMemset(s->dk, 0, C * sizeof(cz_fr)) != cudaSuccess)
            cudaGetLastError();
        if (s->dproj && cudaMemset(s->dproj, 0, C * ab * 3 / 2) != cudaSuccess)
            cudaGetLastError();
        cz_cuda_free(s->dk);
        cz_cuda_free(s->dproj);
        cz_cuda_free(s->daff);
        host_release(t, s->hk, s->pin_k, C * sizeof(cz_fr), true);
        host_release(t, s->hout, s->pin_out, C * ab, false);
        if (s->done)
            cudaEventDestroy(s->done);
        if (s->st)
            cudaStreamDestroy(s->st);
        memset(s, 0, sizeof *s);
    }
    t->cap = 0;
}

/* Host staging of bytes from the allocator, page-locked in place when the
 * system allows (else left pageable: the copies are then staged by the
 * driver, slower but correct). */
static int host_get(const cz_cuda_fixed *t, void **p, bool *pinned, size_t bytes)
{
    *p = cz_alloc(t->al, CZ_BUF_STAGING, bytes);
    if (!*p)
        return CZ_ERR_NOMEM;
    *pinned = cudaHostRegister(*p, bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!*pinned)
        cudaGetLastError();
    return CZ_OK;
}

/* Buffers for chunks of min(n, CZ_CUDA_FIXED_CHUNK) points, remade when the
 * ones there are smaller. */
static int buffers_get(cz_cuda_fixed *t, size_t n)
{
    size_t C = env_size("CZ_CUDA_FIXED_CHUNK", FB_CHUNK);
    if (C == 0)
        return CZ_ERR_INVALID_ARG;
    if (C > n)
        C = n;
    if (t->cap >= C)
        return CZ_OK;
    buffers_free(t);
    t->cap = C;
    size_t ab = aff_bytes(t);
    int rc = CZ_OK;
    for (int b = 0; b < 2 && !rc; b++) {
        slot *s = &t->s[b];
        rc = host_get(t, &s->hk, &s->pin_k, C * sizeof(cz_fr));
        if (!rc)
            rc = host_get(t, &s->hout, &s->pin_out, C * ab);
        if (!rc)
            rc = cz_cuda_malloc(&s->dk, C * sizeof(cz_fr), CZ_BUF_STAGING);
        if (!rc)
            rc = cz_cuda_malloc(&s->dproj, C * ab * 3 / 2, CZ_BUF_SCRATCH);
        if (!rc)
            rc = cz_cuda_malloc(&s->daff, C * ab, CZ_BUF_STAGING);
        if (!rc)
            rc = cuda_err(cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking));
        if (!rc)
            rc = cuda_err(cudaEventCreateWithFlags(&s->done, cudaEventDisableTiming));
    }
    if (rc)
        buffers_free(t);
    return rc;
}

/* memcpy of bytes on the pool, COPY_BLOCK bytes a task. */
struct copy_ctx {
    char *dst;
    const char *src;
    size_t bytes;
};

static void copy_range(void *ctx, size_t lo, size_t hi)
{
    const copy_ctx *c = (const copy_ctx *)ctx;
    size_t a = lo * COPY_BLOCK, b = hi * COPY_BLOCK < c->bytes ? hi * COPY_BLOCK : c->bytes;
    memcpy(c->dst + a, c->src + a, b - a);
}

static void copy_par(cz_pool *pool, void *dst, const void *src, size_t bytes)
{
    copy_ctx c = {(char *)dst, (const char *)src, bytes};
    cz_pool_parallel_for(pool, (bytes + COPY_BLOCK - 1) / COPY_BLOCK, 1, copy_range, &c);
}

static unsigned grid_for(size_t threads)
{
    return (unsigned)((threads + FB_THREADS - 1) / FB_THREADS);
}

/* Stages len scalars from k into slot s and queues the chunk's upload,
 * kernels and download on its stream. */
template <class F>
static int chunk_queue(const cz_cuda_fixed *t, slot *s, const cz_fr *k, size_t len, bool mont,
                       cz_pool *pool)
{
    copy_par(pool, s->hk, k, len * sizeof(cz_fr));
    int rc =
        cuda_err(cudaMemcpyAsync(s->dk, s->hk, len * sizeof(cz_fr), cudaMemcpyHostToDevice, s->st));
    if (!rc) {
        fixed_mul<F><<<grid_for(len), FB_THREADS, 0, s->st>>>((const affine_t<F> *)t->tab, t->w,
                                                              t->nwin, (const fr_t *)s->dk, len,
                                                              mont, (proj_t<F> *)s->dproj);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc) {
        batch_affine<F><<<grid_for((len + FB_PER - 1) / FB_PER), FB_THREADS, 0, s->st>>>(
            (const proj_t<F> *)s->dproj, len, (affine_t<F> *)s->daff);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = cuda_err(cudaMemcpyAsync(s->hout, s->daff, len * sizeof(affine_t<F>),
                                      cudaMemcpyDeviceToHost, s->st));
    if (!rc)
        rc = cuda_err(cudaEventRecord(s->done, s->st));
    return rc;
}

/* Waits for slot s's chunk and copies its len results to out. */
static int chunk_finish(const cz_cuda_fixed *t, slot *s, void *out, size_t len, cz_pool *pool)
{
    int rc = cuda_err(cudaEventSynchronize(s->done));
    if (!rc)
        copy_par(pool, out, s->hout, len * aff_bytes(t));
    return rc;
}

template <class F>
static int fixed_mul_host(typename host_ops<F>::aff *out, cz_cuda_fixed *t, const cz_fr *k,
                          size_t n, unsigned flags, cz_pool *pool)
{
    if (!t || (n && (!out || !k)) || t->g2 != host_ops<F>::g2)
        return CZ_ERR_INVALID_ARG;
    if (n == 0)
        return CZ_OK;
    int dev = -1;
    int rc = cuda_err(cudaGetDevice(&dev));
    if (rc)
        return rc;
    if (dev != t->dev)
        return CZ_ERR_INVALID_ARG;
    if (t->inf) {
        memset(out, 0, n * sizeof *out);
        return CZ_OK;
    }
    if ((rc = buffers_get(t, n)))
        return rc;
    size_t C = t->cap, nch = (n + C - 1) / C;
    bool mont = !(flags & CZ_MSM_CANONICAL);
    for (size_t c = 0; c <= nch && !rc; c++) {
        if (c < nch)
            rc =
                chunk_queue<F>(t, &t->s[c & 1], k + c * C, c + 1 < nch ? C : n - c * C, mont, pool);
        if (!rc && c > 0)
            rc = chunk_finish(t, &t->s[(c - 1) & 1], out + (c - 1) * C,
                              c < nch ? C : n - (c - 1) * C, pool);
    }
    if (rc) /* nothing may still run into the buffers */
        for (int b = 0; b < 2; b++)
            if (cudaStreamSynchronize(t->s[b].st) != cudaSuccess)
                cudaGetLastError();
    return rc;
}

/* The host table, msm.h's layout and msm_template.h's method, in segments
 * of TAB_SEG entries of a row on the pool: segment [d0, d0 + TAB_SEG) of
 * row j starts from d0 P_j and adds P_j, converting 32 points at a time
 * with one inversion; B and so P_j are public. */
#define TAB_SEG 4096

template <class F> struct tab_ctx {
    typename host_ops<F>::aff *tab;
    const typename host_ops<F>::jac *pj; /* P_j = 2^(w j) B */
    size_t row, segs;                    /* entries per row, segments per row */
};

template <class F> static void tab_range(void *arg, size_t lo, size_t hi)
{
    typedef host_ops<F> H;
    const tab_ctx<F> *x = (const tab_ctx<F> *)arg;
    typename H::jac e, buf[32];
    for (size_t q = lo; q < hi; q++) {
        size_t j = q / x->segs, d0 = q % x->segs * TAB_SEG, d1 = d0 + TAB_SEG;
        if (d1 > x->row)
            d1 = x->row;
        const typename H::jac *p = &x->pj[j];
        cz_fr k;
        cz_fr_from_u64(&k, d0 + 1);
        H::mul(&e, p, &k);
        for (size_t d = d0; d < d1; d += 32) {
            size_t m = d1 - d < 32 ? d1 - d : 32;
            for (size_t i = 0; i < m; i++) {
                buf[i] = e;
                H::add(&e, &e, p);
            }
            H::to_affine(x->tab + j * x->row + d, buf, m);
        }
    }
}

/* The table of base at width w (0: CZ_CUDA_FIXED_WINDOW from the
 * environment, else FB_WINDOW), built on the host (pool) and uploaded. */
template <class F>
static int fixed_new(cz_cuda_fixed **out, const typename host_ops<F>::aff *base, unsigned w,
                     cz_pool *pool, const cz_allocator *al)
{
    typedef host_ops<F> H;
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (w == 0)
        w = (unsigned)env_size("CZ_CUDA_FIXED_WINDOW", FB_WINDOW);
    if (!base || w < 1 || w > CZ_CUDA_FIXED_MAX_WINDOW)
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    cz_cuda_fixed *t = (cz_cuda_fixed *)calloc(1, sizeof *t);
    if (!t)
        return CZ_ERR_NOMEM;
    t->g2 = H::g2;
    t->w = w;
    t->nwin = (256 + w - 1) / w;
    t->al = al;
    int rc = cuda_err(cudaGetDevice(&t->dev));
    if (!rc && H::is_inf(base)) {
        t->inf = true;
        *out = t;
        return CZ_OK;
    }
    size_t row = (size_t)1 << (w - 1), bytes = t->nwin * row * sizeof(typename H::aff);
    typename H::jac p, *pj = (typename H::jac *)malloc(t->nwin * sizeof *pj);
    typename H::aff *tab = (typename H::aff *)cz_alloc(al, CZ_BUF_SCRATCH, bytes);
    if (!rc && (!pj || !tab))
        rc = CZ_ERR_NOMEM;
    if (!rc) {
        H::from_affine(&p, base);
        for (unsigned j = 0; j < t->nwin; j++) {
            pj[j] = p;
            for (unsigned i = 0; i < w; i++)
                H::dbl(&p, &p);
        }
        tab_ctx<F> x = {tab, pj, row, (row + TAB_SEG - 1) / TAB_SEG};
        cz_pool_parallel_for(pool, t->nwin * x.segs, 1, tab_range<F>, &x);
        rc = cz_cuda_malloc(&t->tab, bytes, CZ_BUF_SCRATCH);
    }
    if (!rc)
        rc = cuda_err(cudaMemcpy(t->tab, tab, bytes, cudaMemcpyHostToDevice));
    free(pj);
    if (tab)
        cz_free(al, tab, bytes);
    if (rc) {
        cz_cuda_fixed_free(t);
        return rc;
    }
    *out = t;
    return CZ_OK;
}

extern "C" {

int cz_cuda_g1_fixed_new(cz_cuda_fixed **t, const cz_g1_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc)
{
    return fixed_new<fp_t>(t, base, w, pool, alloc);
}

int cz_cuda_g2_fixed_new(cz_cuda_fixed **t, const cz_g2_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc)
{
    return fixed_new<fp2_t>(t, base, w, pool, alloc);
}

void cz_cuda_fixed_free(cz_cuda_fixed *t)
{
    if (!t)
        return;
    buffers_free(t);
    cz_cuda_free(t->tab);
    free(t);
}

int cz_cuda_g1_fixed_mul(cz_g1_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool)
{
    return fixed_mul_host<fp_t>(out, t, k, n, flags, pool);
}

int cz_cuda_g2_fixed_mul(cz_g2_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool)
{
    return fixed_mul_host<fp2_t>(out, t, k, n, flags, pool);
}

} /* extern "C" */
