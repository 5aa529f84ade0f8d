/* The NTT family and the Groth16 H polynomial on the GPU (include/cuzk/cuda.h).
 *
 * A transform of n = 2^k elements is ceil(k/10) kernel passes; a pass does
 * t <= 10 consecutive radix-2 stages (index bits [b-t, b)) of independent
 * sub-transforms of 2^t elements, each held by 2^(t-2) threads of 4
 * elements (t = 1, only for k = 1: one thread of 2).  A thread does two
 * stages at a time on its 4 elements in registers, a radix-4 step: at level
 * v it holds the elements J + m 2^v, m < 4, J its number with two zero bits
 * inserted at v, and does the stages of half-size 2^(v+1) and 2^v.  Then it
 * trades them through shared memory for those of its next level (one
 * barrier).  DIF's levels run from t-2 down to 0, DIT's from 0 up to t-2;
 * the first step's elements come straight from global memory, the last
 * step's go straight back, and an odd t does one stage alone, DIF's top
 * one first, DIT's last.  So a pass is ceil(t/2) register steps and
 * ceil(t/2) - 1 exchanges of 4 stores and 4 loads a thread (t barriers
 * and 2 stores and 2 loads a stage in radix 2); the multiplies are as
 * many, Fr having no cheap 4th root of unity, and 3 twiddles serve 4
 * butterflies.  Sub-transform elements lie 2^(b-t) apart in memory, one
 * 32-byte sector each.  In shared memory an element is two 16-byte halves
 * in two arrays (sm_halves), so that a quarter warp's 16-byte accesses to
 * 8 consecutive elements cover 128 consecutive bytes, all 32 banks once.
 *   DIF (natural -> bit-reversed) runs the passes from the top bits down,
 *   DIT (bit-reversed -> natural) from the bottom bits up; the stage of
 *   half-size h = 2^p pairs indices i, i + h with the twiddle
 *   omega_n^((i mod h) 2^(k-1-p)), read from a table of omega_n^e, e < n/2.
 * Scalings of the coefficient vector (1/n, coset g^(+-j), Z's inverse) fold
 * into the first (pre) or last (post) pass: c g^e with e = j or bitrev(j)
 * as the layout asks, g^e = lo[e mod 2^s] hi[e >> s] (c folded into hi).
 * Work per transform: (n/2) k Montgomery multiplications (240 IMAD each, see
 * fr.cuh) and ceil(k/10) reads and writes of the vector.
 *
 * Every value stays fully reduced, so the results are the CPU's bit for
 * bit. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_err.cuh"
#include "cuda/devprops.cuh"
#include "cuda/fr.cuh"
#include "cuda/h_internal.cuh"
#include "cuda/upload.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

#define MAX_DEVICES  16
#define PASS_MAX_LOG 10
#define PASS_THREADS 256 /* threads per block when sub-transforms are small */
static_assert(1 << (PASS_MAX_LOG - 2) <= PASS_THREADS, "a sub-transform's threads fit a block");

static_assert(sizeof(fr_t) == sizeof(cz_fr), "fr_t and cz_fr share a layout");

/* ---------------------------------------------------------------- kernels */

/* Coset / constant scaling of one element at global index idx. */
enum { SCALE_NONE = 0, SCALE_CONST, SCALE_NATURAL, SCALE_BITREV };

struct scale_args {
    int mode;
    fr_t c;              /* SCALE_CONST */
    const fr_t *lo, *hi; /* c g^e = lo[e mod 2^s] hi[e >> s] */
    unsigned s;
};

struct pass_args {
    fr_t *x;
    const fr_t *w;        /* omega_n^e, e < n/2; NULL: from wlo, whi */
    const fr_t *wlo, *whi; /* omega_n^e = wlo[e mod 2^ws] whi[e >> ws] */
    unsigned ws;
    bool inv;      /* the inverse's twiddles, omega_n^-e = -omega_n^(n/2 - e) (e > 0) */
    unsigned k, b, t;
    scale_args pre, post;
};

/* idx is the index in the whole (batched) array: the factor depends on its
 * position inside its own transform, idx mod 2^k. */
__device__ __forceinline__ fr_t scale(const scale_args &a, fr_t v, size_t idx, unsigned k)
{
    if (a.mode == SCALE_NONE)
        return v;
    if (a.mode == SCALE_CONST)
        return fr_mul(v, a.c);
    idx &= ((size_t)1 << k) - 1;
    size_t e = a.mode == SCALE_NATURAL ? idx : (size_t)(__brevll(idx) >> (64 - k));
    fr_t f = fr_mul(a.lo[e & (((size_t)1 << a.s) - 1)], a.hi[e >> a.s]);
    return fr_mul(v, f);
}

/* A sub-transform's 2^t elements in shared memory: element j's low 16
 * bytes at lo[j], its high 16 at hi[j] = lo[2^t + j].  With whole 32-byte
 * elements 8 consecutive ones span 256 bytes, so a quarter warp's 16-byte
 * accesses would hit every bank twice (two wavefronts, four at stride 2);
 * split, consecutive elements' halves are consecutive words. */
struct sm_halves {
    uint4 *lo, *hi;

    __device__ __forceinline__ fr_t load(unsigned j) const
    {
        uint4 l = lo[j], h = hi[j];
        fr_t r;
        r.l[0] = l.x, r.l[1] = l.y, r.l[2] = l.z, r.l[3] = l.w;
        r.l[4] = h.x, r.l[5] = h.y, r.l[6] = h.z, r.l[7] = h.w;
        return r;
    }

    __device__ __forceinline__ void store(unsigned j, const fr_t &v) const
    {
        lo[j] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
        hi[j] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
    }
};

/* The twiddle of local stage q (half-size 2^p, p = q + u) for the pair at
 * position pos < 2^q of its half-block: omega_n^(+-e), e = ((pos << u) +
 * lo) 2^(k-1-p) < n/2.  One table serves both directions: omega_n^(n/2) =
 * -1, so omega_n^-e = -omega_n^(n/2 - e) for e > 0, the negation exact
 * (p - v of a fully reduced v) and so bit for bit the value a table of
 * inverse twiddles would hold; it saves that table, n/2 elements (2 GiB
 * at 2^27). */
/* omega_n^e, e < n/2: the full table's entry, or without it the product
 * power_table forms that entry from (the same operands in the same
 * order, so the same bits): one multiplication more a twiddle for a table
 * of 2 (2^(k/2)) elements instead of 2^(k-1). */
__device__ __forceinline__ fr_t twiddle_at(const pass_args &a, size_t e)
{
    if (a.w)
        return a.w[e];
    return fr_mul(fr_load(a.wlo + (e & (((size_t)1 << a.ws) - 1))), fr_load(a.whi + (e >> a.ws)));
}

__device__ __forceinline__ fr_t twiddle(const pass_args &a, unsigned pos, unsigned q, unsigned u,
                                        size_t lo)
{
    unsigned p = q + u;
    size_t e = (((size_t)pos << u) + lo) << (a.k - 1 - p);
    if (!a.inv || e == 0)
        return twiddle_at(a, e);
    return fr_sub(fr_t{{0, 0, 0, 0, 0, 0, 0, 0}}, twiddle_at(a, ((size_t)1 << (a.k - 1)) - e));
}

/* One radix-2 butterfly: DIF (x0 + x1, (x0 - x1) w), DIT (x0 + x1 w,
 * x0 - x1 w). */
template <bool DIT> __device__ __forceinline__ void butterfly(fr_t &x0, fr_t &x1, const fr_t &w)
{
    if (DIT) {
        fr_t y = fr_mul(x1, w);
        x1 = fr_sub(x0, y);
        x0 = fr_add(x0, y);
    } else {
        fr_t d = fr_sub(x0, x1);
        x0 = fr_add(x0, x1);
        x1 = fr_mul(d, w);
    }
}

/* Local index of element m < 4 of thread tid at level v: tid with two zero
 * bits inserted at v, plus m 2^v. */
__device__ __forceinline__ unsigned level_index(unsigned tid, unsigned v, unsigned m)
{
    return ((tid >> v) << (v + 2)) + (tid & ((1u << v) - 1)) + (m << v);
}

/* The radix-4 step at level v: the stages of half-size 2^(v+1) and 2^v on
 * x[m] = element J + m 2^v, in DIF's order (upper first) or DIT's.  With
 * ps = J mod 2^v the upper stage pairs (x0, x2) at position ps and (x1, x3)
 * at ps + 2^v, the lower (x0, x1) and (x2, x3) both at ps: 4 multiplies,
 * 3 twiddles. */
template <bool DIT>
__device__ __forceinline__ void radix4(fr_t (&x)[4], const pass_args &a, unsigned tid, unsigned v,
                                       unsigned u, size_t lo)
{
    unsigned ps = tid & ((1u << v) - 1);
    if (DIT) {
        fr_t w = twiddle(a, ps, v, u, lo);
        butterfly<true>(x[0], x[1], w);
        butterfly<true>(x[2], x[3], w);
    }
    butterfly<DIT>(x[0], x[2], twiddle(a, ps, v + 1, u, lo));
    butterfly<DIT>(x[1], x[3], twiddle(a, ps + (1u << v), v + 1, u, lo));
    if (!DIT) {
        fr_t w = twiddle(a, ps, v, u, lo);
        butterfly<false>(x[0], x[1], w);
        butterfly<false>(x[2], x[3], w);
    }
}

/* One pass of DIF (DIT = false) or DIT stages over index bits [b-t, b).
 * blockDim = (2^(t-2), G), (1, G) for t = 1: G sub-transforms per block,
 * dynamic shared memory G 2^t elements (G 2^(t+1) uint4, sm_halves).  A
 * batch of transforms laid end to end is one array whose index bits above
 * k only select the transform: the group number's high part runs over
 * them unchanged.  Each thread stores in an exchange the 4 elements it
 * loaded in the one before (none before the first), so the exchange's
 * barrier is the only one: no element is read in the phase another thread
 * writes it. */
template <bool DIT> __global__ void __launch_bounds__(PASS_THREADS) ntt_pass(pass_args a)
{
    extern __shared__ uint4 smem[];
    const unsigned t = a.t, u = a.b - a.t, kk = a.k;
    const unsigned tid = threadIdx.x;
    size_t g = (size_t)blockIdx.x * blockDim.y + threadIdx.y;
    size_t lo = g & (((size_t)1 << u) - 1), hi = g >> u;
    size_t base = (hi << a.b) + lo;

    if (t == 1) { /* k = 1 */
        size_t i0 = base, i1 = base + ((size_t)1 << u);
        fr_t x0 = scale(a.pre, fr_load(a.x + i0), i0, kk);
        fr_t x1 = scale(a.pre, fr_load(a.x + i1), i1, kk);
        butterfly<DIT>(x0, x1, twiddle(a, 0, 0, u, lo));
        fr_store(a.x + i0, scale(a.post, x0, i0, kk));
        fr_store(a.x + i1, scale(a.post, x1, i1, kk));
        return;
    }
    uint4 *sub = smem + ((size_t)threadIdx.y << (t + 1));
    const sm_halves sm = {sub, sub + (1u << t)};
    /* first and last level: DIF t-2 then 0, DIT 0 then t-2 */
    const unsigned v0 = DIT ? 0 : t - 2, v1 = DIT ? t - 2 : 0;
    fr_t x[4];
#pragma unroll
    for (unsigned m = 0; m < 4; m++) {
        size_t i = base + ((size_t)level_index(tid, v0, m) << u);
        x[m] = scale(a.pre, fr_load(a.x + i), i, kk);
    }
    auto out = [&](unsigned m) {
        size_t i = base + ((size_t)level_index(tid, v1, m) << u);
        fr_store(a.x + i, scale(a.post, x[m], i, kk));
    };
    if (!DIT) {
        int q; /* the top stage left */
        if (t & 1) { /* level t-2: the top stage alone */
            butterfly<false>(x[0], x[2], twiddle(a, tid, t - 1, u, lo));
            butterfly<false>(x[1], x[3], twiddle(a, tid + (1u << (t - 2)), t - 1, u, lo));
            q = (int)t - 2;
        } else {
            radix4<false>(x, a, tid, t - 2, u, lo);
            q = (int)t - 3;
        }
        for (unsigned v = t - 2; q > 0; q -= 2) { /* level v -> q - 1 */
#pragma unroll
            for (unsigned m = 0; m < 4; m++)
                sm.store(level_index(tid, v, m), x[m]);
            __syncthreads();
            v = (unsigned)q - 1;
#pragma unroll
            for (unsigned m = 0; m < 4; m++)
                x[m] = sm.load(level_index(tid, v, m));
            radix4<false>(x, a, tid, v, u, lo);
        }
#pragma unroll
        for (unsigned m = 0; m < 4; m++)
            out(m);
    } else {
        unsigned q = 0; /* the bottom stage left */
        for (; q + 2 < t; q += 2) { /* level q -> q + 2, or t - 2 when t is odd */
            radix4<true>(x, a, tid, q, u, lo);
#pragma unroll
            for (unsigned m = 0; m < 4; m++)
                sm.store(level_index(tid, q, m), x[m]);
            __syncthreads();
            unsigned v = q + 2 < t - 2 ? q + 2 : t - 2;
#pragma unroll
            for (unsigned m = 0; m < 4; m++)
                x[m] = sm.load(level_index(tid, v, m));
        }
        /* level t-2: stage t-2 unless t is odd, then the top stage, each
         * pair written as soon as it is done (80 registers, not 101) */
        if (q + 2 == t) {
            fr_t w = twiddle(a, tid, t - 2, u, lo);
            butterfly<true>(x[0], x[1], w);
            butterfly<true>(x[2], x[3], w);
        }
        butterfly<true>(x[0], x[2], twiddle(a, tid, t - 1, u, lo));
        out(0);
        out(2);
        butterfly<true>(x[1], x[3], twiddle(a, tid + (1u << (t - 2)), t - 1, u, lo));
        out(1);
        out(3);
    }
}

/* out[e] = lo[e mod 2^s] hi[e >> s], e < count. */
__global__ void power_table(fr_t *out, const fr_t *lo, const fr_t *hi, unsigned s, size_t count)
{
    size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < count)
        fr_store(out + e,
                 fr_mul(fr_load(lo + (e & (((size_t)1 << s) - 1))), fr_load(hi + (e >> s))));
}

/* In-place bit-reversal permutation of each of count transforms of 2^k
 * elements (pair swaps: small k or many transforms; bitrev_tiles below
 * otherwise). */
__global__ void bitrev_kernel(fr_t *x, unsigned k, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >> k) >= count)
        return;
    fr_t *y = x + ((i >> k) << k);
    i &= ((size_t)1 << k) - 1;
    size_t j = (size_t)(__brevll(i) >> (64 - k));
    if (i < j) {
        fr_t xi = fr_load(y + i), xj = fr_load(y + j);
        fr_store(y + i, xj);
        fr_store(y + j, xi);
    }
}

/* The same permutation through shared-memory tiles, for k >= 2 BR_T: with
 * i = (h << (k - t)) | (mid << t) | l (h and l of t = BR_T bits),
 *   bitrev_k(i) = (rev_t(l) << (k - t)) | (rev_(k-2t)(mid) << t) | rev_t(h),
 * so the 2^t x 2^t elements of one mid (rows of 2^t consecutive elements,
 * read whole) go to the tile of mid' = rev(mid) transposed and bit-reversed
 * along both axes, written whole rows again.  Block (mid, transform) swaps
 * the tiles of mid and mid' (mid <= mid'; the other block of the pair
 * returns at once), so both reads and writes are coalesced where the pair
 * swaps of bitrev_kernel hit one 32-byte element per sector.  A tile row
 * holds 2^t + 1 elements: the column reads then fall on rotating banks. */
#define BR_T 4
__global__ void __launch_bounds__(1 << (2 * BR_T)) bitrev_tiles(fr_t *x, unsigned k)
{
    const unsigned T = 1u << BR_T, mb = k - 2 * BR_T, sh = k - BR_T;
    __shared__ fr_t tile[2][1 << BR_T][(1 << BR_T) + 1];
    size_t mid = blockIdx.x;
    size_t rmid = mb ? (size_t)(__brevll(mid) >> (64 - mb)) : 0;
    if (mid > rmid)
        return;
    fr_t *y = x + ((size_t)blockIdx.y << k);
    const size_t base[2] = {mid << BR_T, rmid << BR_T};
    const int nt = mid == rmid ? 1 : 2;
    const unsigned h = threadIdx.x >> BR_T, l = threadIdx.x & (T - 1);
    for (int s = 0; s < nt; s++)
        tile[s][h][l] = fr_load(y + ((size_t)h << sh) + base[s] + l);
    __syncthreads();
    const unsigned rh = __brev(h) >> (32 - BR_T), rl = __brev(l) >> (32 - BR_T);
    /* destination (h, mid_d, l) takes source (rev(l), rev(mid_d), rev(h)) */
    for (int s = 0; s < nt; s++)
        fr_store(y + ((size_t)h << sh) + base[s] + l, tile[nt - 1 - s][rl][rh]);
}

/* a <- a b - c, elementwise, in place in a (m elements). */
__global__ void mul_sub(fr_t *a, const fr_t *b, const fr_t *c, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        fr_store(a + i, fr_sub(fr_mul(fr_load(a + i), fr_load(b + i)), fr_load(c + i)));
}

/* a <- bitrev(a b - c), elementwise then permuted, in place in a. */
__global__ void mul_sub_bitrev(fr_t *a, const fr_t *b, const fr_t *c, unsigned k)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> k)
        return;
    size_t j = (size_t)(__brevll(i) >> (64 - k));
    if (i > j)
        return;
    fr_t vi = fr_sub(fr_mul(fr_load(a + i), fr_load(b + i)), fr_load(c + i));
    if (i == j) {
        fr_store(a + i, vi);
        return;
    }
    fr_t vj = fr_sub(fr_mul(fr_load(a + j), fr_load(b + j)), fr_load(c + j));
    fr_store(a + i, vj);
    fr_store(a + j, vi);
}

/* ------------------------------------------------------- per-device tables */

/* Coset scalings c gamma^e: which gamma (g, 1/g, or omega_2m for the
 * snarkjs flavour's odd coset) and which constant c. */
enum { CT_G = 0, CT_G_NINV, CT_GI_NINV, CT_GI_ZNINV, CT_W_NINV, CT_COUNT };
enum { BASE_G = 0, BASE_GI, BASE_W, BASE_COUNT };
static const int ct_base[CT_COUNT] = {BASE_G, BASE_G, BASE_GI, BASE_GI, BASE_W};

struct dev_domain {
    unsigned k;
    cz_fr omega;         /* identifies the roots (bellperson's or snarkjs's) */
    fr_t *w;             /* omega^e for e < n/2 (the inverse's: twiddle); NULL: compact */
    fr_t *wlo, *whi;     /* omega^e = wlo[e mod 2^ws] whi[e >> ws], e < n/2 */
    unsigned ws;
    fr_t *clo[BASE_COUNT]; /* g^e, g^-e, omega_2m^e for e < 2^cs */
    fr_t *chi[CT_COUNT]; /* c gamma^(e 2^cs) for e < 2^(k-cs) */
    unsigned cs;
    fr_t n_inv;
};

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static dev_domain *tables[MAX_DEVICES][CZ_NTT_MAX_LOG + 1];

/* Twiddle and coset tables, H's own buffers: the scratch class. */
static int dev_alloc(void **p, size_t bytes) { return cz_cuda_malloc(p, bytes, CZ_BUF_SCRATCH); }

static fr_t to_dev(const cz_fr &x)
{
    fr_t r;
    memcpy(&r, &x, sizeof r);
    return r;
}

static void dev_domain_free(dev_domain *dd)
{
    if (!dd)
        return;
    cz_cuda_free(dd->w);
    cz_cuda_free(dd->wlo);
    cz_cuda_free(dd->whi);
    for (int i = 0; i < BASE_COUNT; i++)
        cz_cuda_free(dd->clo[i]);
    for (int i = 0; i < CT_COUNT; i++)
        cz_cuda_free(dd->chi[i]);
    free(dd);
}

/* tab[e] = c x^e for e < count (host). */
static void host_powers(cz_fr *tab, const cz_fr *x, const cz_fr *c, size_t count)
{
    cz_fr acc = c ? *c : CZ_FR_ONE;
    for (size_t e = 0; e < count; e++) {
        tab[e] = acc;
        cz_fr_mul(&acc, &acc, x);
    }
}

/* x^(2^s) */
static cz_fr pow2k(cz_fr x, unsigned s)
{
    for (unsigned i = 0; i < s; i++)
        cz_fr_sqr(&x, &x);
    return x;
}

static int upload(fr_t **dst, const cz_fr *src, size_t count)
{
    int rc = dev_alloc((void **)dst, count * sizeof(fr_t));
    if (rc)
        return rc;
    return cuda_err(cudaMemcpy(*dst, src, count * sizeof(fr_t), cudaMemcpyHostToDevice));
}

/* dd's full twiddle table, from its two small ones. */
static int build_full(dev_domain *dd)
{
    size_t half = (size_t)1 << (dd->k - 1);
    fr_t *w = NULL;
    int rc = dev_alloc((void **)&w, half * sizeof(fr_t));
    if (!rc) {
        power_table<<<(unsigned)((half + 255) / 256), 256>>>(w, dd->wlo, dd->whi, dd->ws, half);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = cuda_err(cudaDeviceSynchronize());
    if (rc)
        cz_cuda_free(w);
    else
        __atomic_store_n(&dd->w, w, __ATOMIC_RELEASE);
    return rc;
}

static int dev_domain_build(dev_domain *dd, const cz_ntt_domain *d, bool full)
{
    unsigned k = cz_ntt_domain_log(d);
    cz_fr omega, n_inv, z_inv, g, g_inv, omega2n;
    cz_ntt_domain_omega(&omega, d, false);
    cz_ntt_domain_n_inv(&n_inv, d);
    cz_ntt_domain_z_inv(&z_inv, d);
    cz_ntt_domain_coset(&g, d, false);
    cz_ntt_domain_coset(&g_inv, d, true);
    cz_ntt_domain_omega2n(&omega2n, d);
    unsigned lh = k - 1, ws = lh / 2; /* n/2 = 2^lh twiddles = 2^ws x 2^(lh-ws) */
    unsigned cs = (k + 1) / 2;
    size_t nlo = (size_t)1 << (ws > cs ? ws : cs),
           nhi = (size_t)1 << (lh - ws > k - cs ? lh - ws : k - cs);
    cz_fr *h = (cz_fr *)malloc((nlo + nhi) * sizeof(cz_fr));
    if (!h)
        return CZ_ERR_NOMEM;
    cz_fr *hh = h + nlo;
    int rc = CZ_OK;
    dd->k = k;
    dd->omega = omega;
    dd->cs = cs;
    dd->n_inv = to_dev(n_inv);
    /* twiddles: two small tables, and the full one built from them on
     * the device when asked for */
    dd->ws = ws;
    host_powers(h, &omega, NULL, (size_t)1 << ws);
    cz_fr step = pow2k(omega, ws);
    host_powers(hh, &step, NULL, (size_t)1 << (lh - ws));
    rc = upload(&dd->wlo, h, (size_t)1 << ws);
    if (!rc)
        rc = upload(&dd->whi, hh, (size_t)1 << (lh - ws));
    if (!rc && full)
        rc = build_full(dd);
    /* coset tables */
    cz_fr zn;
    cz_fr_mul(&zn, &z_inv, &n_inv);
    const cz_fr *cst[CT_COUNT] = {NULL, &n_inv, &n_inv, &zn, &n_inv};
    const cz_fr base[BASE_COUNT] = {g, g_inv, omega2n};
    for (int s = 0; s < BASE_COUNT && !rc; s++) {
        host_powers(h, &base[s], NULL, (size_t)1 << cs);
        rc = upload(&dd->clo[s], h, (size_t)1 << cs);
    }
    for (int i = 0; i < CT_COUNT && !rc; i++) {
        cz_fr step = pow2k(base[ct_base[i]], cs);
        host_powers(hh, &step, cst[i], (size_t)1 << (k - cs));
        rc = upload(&dd->chi[i], hh, (size_t)1 << (k - cs));
    }
    free(h);
    return rc;
}

/* What get_tables builds of the full twiddle table: nothing more (a new
 * domain's tables compact), the table when the domain's tables are new,
 * or the table whether or not they are. */
enum { TW_ANY, TW_FULL_IF_NEW, TW_FULL };

/* The tables of d on the current device, built on first use, the full
 * twiddle table as want says (kept once built: transforms queued by other
 * threads may read it). */
static int get_tables(const cz_ntt_domain *d, dev_domain **out, int want)
{
    int dev, rc;
    *out = NULL;
    if ((rc = cuda_err(cudaGetDevice(&dev))))
        return rc;
    unsigned k = cz_ntt_domain_log(d);
    if (dev < 0 || dev >= MAX_DEVICES || k < 1 || k > CZ_NTT_MAX_LOG)
        return CZ_ERR_INVALID_ARG;
    cz_fr omega;
    cz_ntt_domain_omega(&omega, d, false);
    pthread_mutex_lock(&tables_lock);
    dev_domain **slot = &tables[dev][k];
    if (*slot && !cz_fr_equal(&(*slot)->omega, &omega)) {
        cudaDeviceSynchronize(); /* other roots: replace (queued work may use them) */
        dev_domain_free(*slot);
        *slot = NULL;
    }
    if (!*slot) {
        dev_domain *dd = (dev_domain *)calloc(1, sizeof *dd);
        rc = dd ? dev_domain_build(dd, d, want != TW_ANY) : CZ_ERR_NOMEM;
        if (rc)
            dev_domain_free(dd);
        else
            *slot = dd;
    } else if (want == TW_FULL && !(*slot)->w) {
        rc = build_full(*slot);
    }
    *out = *slot;
    pthread_mutex_unlock(&tables_lock);
    return rc;
}

/* --------------------------------------------------------------- launches */

static scale_args no_scale(void)
{
    scale_args s;
    memset(&s, 0, sizeof s);
    return s;
}

static scale_args const_scale(fr_t c)
{
    scale_args s = no_scale();
    s.mode = SCALE_CONST;
    s.c = c;
    return s;
}

static scale_args coset_scale(const dev_domain *dd, int ct, bool bitrev_index)
{
    scale_args s = no_scale();
    s.mode = bitrev_index ? SCALE_BITREV : SCALE_NATURAL;
    s.lo = dd->clo[ct_base[ct]];
    s.hi = dd->chi[ct];
    s.s = dd->cs;
    return s;
}

/* count whole transforms without permutation, laid end to end from x:
 * DIF or DIT, root omega^-1 when inv; pre applies to the input, post to
 * the output; queued on stream st. */
static int run_transform(const dev_domain *dd, fr_t *x, size_t count, bool dit, bool inv,
                         scale_args pre, scale_args post, cudaStream_t st)
{
    unsigned k = dd->k, passes = (k + PASS_MAX_LOG - 1) / PASS_MAX_LOG;
    unsigned bits[4];
    for (unsigned i = 0; i < passes; i++) /* even split, larger parts first */
        bits[i] = k / passes + (i < k % passes);
    unsigned b = dit ? 0 : k;
    for (unsigned i = 0; i < passes; i++) {
        unsigned t = bits[i];
        pass_args a;
        a.x = x;
        a.w = __atomic_load_n(&dd->w, __ATOMIC_ACQUIRE);
        a.wlo = dd->wlo;
        a.whi = dd->whi;
        a.ws = dd->ws;
        a.inv = inv;
        a.k = k;
        a.t = t;
        a.b = dit ? b + t : b;
        a.pre = i == 0 ? pre : no_scale();
        a.post = i + 1 == passes ? post : no_scale();
        unsigned tx = t >= 2 ? 1u << (t - 2) : 1; /* 4 elements a thread (2 for t = 1) */
        size_t groups = count << (k - t);
        unsigned gy = tx >= PASS_THREADS ? 1 : PASS_THREADS / tx;
        while (groups % gy) /* gy, a power of two, must divide groups */
            gy /= 2;
        dim3 block(tx, gy);
        size_t blocks = groups / gy;
        size_t shmem = ((size_t)gy << t) * sizeof(fr_t);
        if (blocks > INT32_MAX)
            return CZ_ERR_TOO_BIG;
        if (dit)
            ntt_pass<true><<<(unsigned)blocks, block, shmem, st>>>(a);
        else
            ntt_pass<false><<<(unsigned)blocks, block, shmem, st>>>(a);
        int rc = cuda_err(cudaGetLastError());
        if (rc)
            return rc;
        b = dit ? b + t : b - t;
    }
    return CZ_OK;
}

static int run_bitrev(fr_t *x, unsigned k, size_t count, cudaStream_t st)
{
    if (k >= 2 * BR_T && count <= 65535) {
        dim3 grid(1u << (k - 2 * BR_T), (unsigned)count);
        bitrev_tiles<<<grid, 1u << (2 * BR_T), 0, st>>>(x, k);
        return cuda_err(cudaGetLastError());
    }
    size_t n = count << k;
    if ((n + 255) / 256 > INT32_MAX)
        return CZ_ERR_TOO_BIG;
    bitrev_kernel<<<(unsigned)((n + 255) / 256), 256, 0, st>>>(x, k, count);
    return cuda_err(cudaGetLastError());
}

static bool has_device(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return count > 0;
}

/* d's tables on the current device (get_tables), CZ_ERR_UNSUPPORTED
 * without a device: the entry points' common start.  A domain's first
 * use by the public transforms builds the full twiddle table; compact
 * tables (cz_cuda_ntt_compact) stay compact. */
static int device_tables(const cz_ntt_domain *d, dev_domain **dd)
{
    return has_device() ? get_tables(d, dd, TW_FULL_IF_NEW) : CZ_ERR_UNSUPPORTED;
}

/* ------------------------------------------------------------------ API */

extern "C" {

bool cz_cuda_available(void) { return has_device(); }

int cz_cuda_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

int cz_cuda_set_device(int ordinal)
{
    int count = cz_cuda_device_count();
    if (!count)
        return CZ_ERR_UNSUPPORTED;
    if (ordinal < 0 || ordinal >= count)
        return CZ_ERR_INVALID_ARG;
    return cuda_err(cudaSetDevice(ordinal));
}

int cz_cuda_device_name(char *buf, size_t len)
{
    if (!buf || !len)
        return CZ_ERR_INVALID_ARG;
    buf[0] = 0;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    const cz_devprops *p;
    int rc = cz_devprops_get(&p);
    if (!rc) {
        strncpy(buf, p->name, len - 1);
        buf[len - 1] = 0;
    }
    return rc;
}

int cz_cuda_host_alloc(void **p, size_t bytes)
{
    if (!p)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    int rc = cuda_err(cudaMallocHost(p, bytes ? bytes : 1));
    if (rc) {
        *p = NULL;
        return CZ_ERR_NOMEM;
    }
    return CZ_OK;
}

void cz_cuda_host_free(void *p)
{
    if (p)
        cudaFreeHost(p);
}

int cz_cuda_memcpy_h2d(void *dst_dev, const void *src_host, size_t bytes)
{
    return cuda_err(cudaMemcpy(dst_dev, src_host, bytes, cudaMemcpyHostToDevice));
}

/* through the staging slots from pageable memory (cz_cuda_download), so
 * every test that reads a large result back checks them */
int cz_cuda_memcpy_d2h(void *dst_host, const void *src_dev, size_t bytes)
{
    return cz_cuda_download(dst_host, src_dev, bytes, 0);
}

int cz_cuda_sync(void) { return cuda_err(cudaDeviceSynchronize()); }

int cz_cuda_prepare(const cz_ntt_domain *d)
{
    if (!d)
        return CZ_ERR_INVALID_ARG;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    dev_domain *dd;
    return get_tables(d, &dd, TW_FULL);
}

int cz_cuda_ntt_compact(const cz_ntt_domain *d)
{
    if (!d)
        return CZ_ERR_INVALID_ARG;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    if (rc)
        return rc;
    pthread_mutex_lock(&tables_lock);
    fr_t *w = dd->w;
    if (w) {
        rc = cuda_err(cudaDeviceSynchronize());
        __atomic_store_n(&dd->w, (fr_t *)NULL, __ATOMIC_RELEASE);
        cz_cuda_free(w);
    }
    pthread_mutex_unlock(&tables_lock);
    return rc;
}

void cz_cuda_release(void)
{
    pthread_mutex_lock(&tables_lock);
    int cur = -1;
    bool any = false;
    for (int dev = 0; dev < MAX_DEVICES; dev++)
        for (unsigned k = 0; k <= CZ_NTT_MAX_LOG; k++)
            any |= tables[dev][k] != NULL;
    if (any && cudaGetDevice(&cur) == cudaSuccess) {
        for (int dev = 0; dev < MAX_DEVICES; dev++) {
            for (unsigned k = 0; k <= CZ_NTT_MAX_LOG; k++) {
                if (!tables[dev][k])
                    continue;
                cudaSetDevice(dev);
                cudaDeviceSynchronize();
                dev_domain_free(tables[dev][k]);
                tables[dev][k] = NULL;
            }
        }
        cudaSetDevice(cur);
    }
    pthread_mutex_unlock(&tables_lock);
    cz_cuda_upload_release();
}

int cz_cuda_ntt_batch(const cz_ntt_domain *d, cz_fr *x_dev, size_t count, cz_ntt_kind kind,
                      cz_ntt_order order)
{
    if (!d || !x_dev || !count || (unsigned)kind > CZ_NTT_COSET_INVERSE ||
        (unsigned)order > CZ_NTT_RR)
        return CZ_ERR_INVALID_ARG;
    if (count > (SIZE_MAX / sizeof(cz_fr)) >> cz_ntt_domain_log(d))
        return CZ_ERR_TOO_BIG;
    dev_domain *dd;
    int rc = device_tables(d, &dd);
    if (rc)
        return rc;
    fr_t *x = (fr_t *)x_dev;
    bool inv = kind == CZ_NTT_INVERSE || kind == CZ_NTT_COSET_INVERSE;
    /* NR: DIF; RN: DIT; NN: DIF, then a permutation; RR: a permutation,
     * then DIF.  DIF reads natural order and writes bit-reversed order, DIT
     * the other way round: the coset factor's index follows. */
    bool dit = order == CZ_NTT_RN;
    bool pre_perm = order == CZ_NTT_RR, post_perm = order == CZ_NTT_NN;
    scale_args pre = no_scale(), post = no_scale();
    switch (kind) {
    case CZ_NTT_FORWARD:
        break;
    case CZ_NTT_INVERSE:
        post = const_scale(dd->n_inv);
        break;
    case CZ_NTT_COSET_FORWARD:
        pre = coset_scale(dd, CT_G, dit);
        break;
    case CZ_NTT_COSET_INVERSE:
        post = coset_scale(dd, CT_GI_NINV, !dit);
        break;
    }
    if (pre_perm && (rc = run_bitrev(x, dd->k, count, 0)))
        return rc;
    if ((rc = run_transform(dd, x, count, dit, inv, pre, post, 0)))
        return rc;
    if (post_perm)
        rc = run_bitrev(x, dd->k, count, 0);
    return rc;
}

int cz_cuda_ntt(const cz_ntt_domain *d, cz_fr *x_dev, cz_ntt_kind kind, cz_ntt_order order)
{
    return cz_cuda_ntt_batch(d, x_dev, 1, kind, order);
}

/* The H sequences, after src/poly/h.c, in two steps queued on stream st.
 * h_eval_coset: vector x (n evaluations, zero-padded to m) to its values
 * on the coset: inverse DIF with coefficient j scaled by gamma^j / m (index
 * bitrev(j)), then forward DIT; first waits for event ready when not NULL
 * (x's upload).  gamma is g (bellperson's coset g <omega>) or, with odd,
 * omega_2m (snarkjs's odd coset omega_2m <omega>). */
static int h_eval_coset(const dev_domain *dd, fr_t *x, size_t n, bool odd, cudaStream_t st,
                        cudaEvent_t ready)
{
    size_t m = (size_t)1 << dd->k;
    int rc;
    if (ready && (rc = cuda_err(cudaStreamWaitEvent(st, ready, 0))))
        return rc;
    if (n < m && (rc = cuda_err(cudaMemsetAsync(x + n, 0, (m - n) * sizeof(fr_t), st))))
        return rc;
    if ((rc = run_transform(dd, x, 1, false, true, no_scale(),
                            coset_scale(dd, odd ? CT_W_NINV : CT_G_NINV, true), st)))
        return rc;
    return run_transform(dd, x, 1, true, false, no_scale(), no_scale(), st);
}

/* h_combine: a b - c permuted to bit-reversed order, then the inverse DIT
 * with coefficient j scaled by g^-j z_inv / m, into a; with odd (snarkjs)
 * a b - c alone, in natural order: the odd coset's values are the H
 * scalars (Z = -2 there, folded into the .zkey's points). */
static int h_combine(const dev_domain *dd, fr_t *a, const fr_t *b, const fr_t *c, bool odd,
                     cudaStream_t st)
{
    size_t m = (size_t)1 << dd->k;
    if (odd) {
        mul_sub<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(a, b, c, m);
        return cuda_err(cudaGetLastError());
    }
    mul_sub_bitrev<<<(unsigned)((m + 255) / 256), 256, 0, st>>>(a, b, c, dd->k);
    int rc = cuda_err(cudaGetLastError());
    if (rc)
        return rc;
    return run_transform(dd, a, 1, true, true, no_scale(), coset_scale(dd, CT_GI_ZNINV, false), st);
}

int cz_cuda_groth16_h_dev(const cz_ntt_domain *d, cz_fr *a_dev, cz_fr *b_dev, cz_fr *c_dev,
                          size_t n)
{
    if (!d || !a_dev || !b_dev || !c_dev || n > cz_ntt_domain_size(d))
        return CZ_ERR_INVALID_ARG;
    dev_domain *dd;
    int rc = device_tables(d, &dd);
    if (rc)
        return rc;
    fr_t *v[3] = {(fr_t *)a_dev, (fr_t *)b_dev, (fr_t *)c_dev};
    for (int i = 0; i < 3 && !rc; i++)
        rc = h_eval_coset(dd, v[i], n, false, 0, NULL);
    return rc ? rc : h_combine(dd, v[0], v[1], v[2], false, 0);
}

int cz_cuda_h_from_host(const cz_ntt_domain *d, cz_fr *dev, const cz_fr *a, const cz_fr *b,
                        const cz_fr *c, size_t n, bool odd, cudaStream_t st, cudaStream_t cp)
{
    size_t m = cz_ntt_domain_size(d);
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    cudaEvent_t ev[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && !rc; i++)
        rc = cuda_err(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    fr_t *v[3] = {(fr_t *)dev, (fr_t *)dev + m, (fr_t *)dev + 2 * m};
    const cz_fr *src[3] = {a, b, c};
    for (int i = 0; i < 3 && !rc; i++) {
        rc = cz_cuda_upload(v[i], src[i], n * sizeof(cz_fr), cp);
        if (!rc)
            rc = cuda_err(cudaEventRecord(ev[i], cp));
        if (!rc)
            rc = h_eval_coset(dd, v[i], n, odd, st, ev[i]);
    }
    if (!rc)
        rc = h_combine(dd, v[0], v[1], v[2], odd, st);
    /* an event may be destroyed while work waiting on it is queued */
    for (int i = 0; i < 3; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    return rc;
}

/* out[i] = a[i] b[i]: H's product on the coset, for the plans that keep
 * two vectors (h_internal.cuh). */
__global__ void mul_pointwise(fr_t *a, const fr_t *b, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        fr_store(a + i, fr_mul(fr_load(a + i), fr_load(b + i)));
}

/* a - c permuted to bit-reversed order (a holds a b already) */
__global__ void sub_bitrev(fr_t *a, const fr_t *c, unsigned k)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> k)
        return;
    size_t j = (size_t)(__brevll(i) >> (64 - k));
    if (i > j)
        return;
    fr_t vi = fr_sub(fr_load(a + i), fr_load(c + i));
    if (i == j) {
        fr_store(a + i, vi);
        return;
    }
    fr_t vj = fr_sub(fr_load(a + j), fr_load(c + j));
    fr_store(a + i, vj);
    fr_store(a + j, vi);
}

/* x[i] = y[i] x[i] and x[i] = y[i] - x[i] over n elements: the products
 * and differences of the one-vector H, whose first operand comes from
 * host memory a piece at a time (y) while the second stays on the device
 * (x); the operands in h_mul's and sub_bitrev's order. */
__global__ void mul_from(fr_t *x, const fr_t *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        fr_store(x + i, fr_mul(fr_load(y + i), fr_load(x + i)));
}

__global__ void sub_from(fr_t *x, const fr_t *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        fr_store(x + i, fr_sub(fr_load(y + i), fr_load(x + i)));
}

int cz_cuda_h_mul_from(cz_fr *b, const cz_fr *a, size_t n, cudaStream_t st)
{
    if (n)
        mul_from<<<(unsigned)((n + 255) / 256), 256, 0, st>>>((fr_t *)b, (const fr_t *)a, n);
    return cuda_err(cudaGetLastError());
}

int cz_cuda_h_sub_from(cz_fr *c, const cz_fr *ab, size_t n, cudaStream_t st)
{
    if (n)
        sub_from<<<(unsigned)((n + 255) / 256), 256, 0, st>>>((fr_t *)c, (const fr_t *)ab, n);
    return cuda_err(cudaGetLastError());
}

int cz_cuda_h_finish_diff(const cz_ntt_domain *d, cz_fr *x, cudaStream_t st)
{
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    if (!rc)
        rc = run_bitrev((fr_t *)x, dd->k, 1, st);
    if (rc)
        return rc;
    return run_transform(dd, (fr_t *)x, 1, true, true, no_scale(),
                         coset_scale(dd, CT_GI_ZNINV, false), st);
}

int cz_cuda_h_eval(const cz_ntt_domain *d, cz_fr *x, size_t n, cudaStream_t st)
{
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    return rc ? rc : h_eval_coset(dd, (fr_t *)x, n, false, st, NULL);
}

int cz_cuda_h_mul(const cz_ntt_domain *d, cz_fr *a, const cz_fr *b, cudaStream_t st)
{
    size_t m = cz_ntt_domain_size(d);
    mul_pointwise<<<(unsigned)((m + 255) / 256), 256, 0, st>>>((fr_t *)a, (const fr_t *)b, m);
    return cuda_err(cudaGetLastError());
}

int cz_cuda_h_finish(const cz_ntt_domain *d, cz_fr *ab, const cz_fr *c, cudaStream_t st)
{
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    if (rc)
        return rc;
    size_t m = cz_ntt_domain_size(d);
    sub_bitrev<<<(unsigned)((m + 255) / 256), 256, 0, st>>>((fr_t *)ab, (const fr_t *)c, dd->k);
    if ((rc = cuda_err(cudaGetLastError())))
        return rc;
    return run_transform(dd, (fr_t *)ab, 1, true, true, no_scale(),
                         coset_scale(dd, CT_GI_ZNINV, false), st);
}

size_t cz_cuda_ntt_tables_bytes(unsigned k, bool full)
{
    unsigned lh = k ? k - 1 : 0, ws = lh / 2, cs = (k + 1) / 2;
    size_t n = ((size_t)1 << ws) + ((size_t)1 << (lh - ws)) + BASE_COUNT * ((size_t)1 << cs) +
               CT_COUNT * ((size_t)1 << (k - cs));
    return (n + (full ? (size_t)1 << lh : 0)) * sizeof(fr_t);
}

int cz_cuda_ntt_tables_state(unsigned k)
{
    int dev;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= MAX_DEVICES || k > CZ_NTT_MAX_LOG) {
        cudaGetLastError();
        return 0;
    }
    pthread_mutex_lock(&tables_lock);
    const dev_domain *dd = tables[dev][k];
    int state = !dd ? 0 : dd->w ? 2 : 1;
    pthread_mutex_unlock(&tables_lock);
    return state;
}

int cz_cuda_ntt_tables(const cz_ntt_domain *d, bool full)
{
    if (!d)
        return CZ_ERR_INVALID_ARG;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    dev_domain *dd;
    return get_tables(d, &dd, full ? TW_FULL : TW_ANY);
}

int cz_cuda_h_on_device(const cz_ntt_domain *d, cz_fr *dev, size_t n, cudaStream_t st)
{
    size_t m = cz_ntt_domain_size(d);
    dev_domain *dd;
    int rc = get_tables(d, &dd, TW_ANY);
    fr_t *v[3] = {(fr_t *)dev, (fr_t *)dev + m, (fr_t *)dev + 2 * m};
    for (int i = 0; i < 3 && !rc; i++)
        rc = h_eval_coset(dd, v[i], n, false, st, NULL);
    return rc ? rc : h_combine(dd, v[0], v[1], v[2], false, st);
}

/* Host H: cz_cuda_h_from_host on a compute and a copy stream, the result
 * coming back on the compute stream. */
static int host_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n, bool odd)
{
    if (!d || !a || !b || !c || n > cz_ntt_domain_size(d))
        return CZ_ERR_INVALID_ARG;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    size_t m = cz_ntt_domain_size(d), bytes = m * sizeof(cz_fr);
    void *buf = NULL;
    cudaStream_t st[2] = {NULL, NULL};
    dev_domain *dd;
    int rc = device_tables(d, &dd); /* a public entry: full twiddles when new */
    if (!rc)
        rc = dev_alloc(&buf, 3 * bytes);
    for (int i = 0; i < 2 && !rc; i++)
        rc = cuda_err(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    if (!rc)
        rc = cz_cuda_h_from_host(d, (cz_fr *)buf, a, b, c, n, odd, st[0], st[1]);
    if (!rc)
        rc = cuda_err(cudaMemcpyAsync(a, buf, bytes, cudaMemcpyDeviceToHost, st[0]));
    /* wait for everything queued, also after an error */
    for (int i = 0; i < 2; i++) {
        if (st[i]) {
            int r2 = cuda_err(cudaStreamSynchronize(st[i]));
            rc = rc ? rc : r2;
            cudaStreamDestroy(st[i]);
        }
    }
    cz_cuda_free(buf);
    return rc;
}

int cz_cuda_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n)
{
    return host_h(d, a, b, c, n, false);
}

int cz_cuda_groth16_h_odd_coset(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n)
{
    return host_h(d, a, b, c, n, true);
}

struct cz_cuda_timer {
    cudaEvent_t start, stop;
};

int cz_cuda_timer_new(cz_cuda_timer **t)
{
    if (!t)
        return CZ_ERR_INVALID_ARG;
    *t = NULL;
    if (!has_device())
        return CZ_ERR_UNSUPPORTED;
    cz_cuda_timer *p = (cz_cuda_timer *)calloc(1, sizeof *p);
    if (!p)
        return CZ_ERR_NOMEM;
    int rc = cuda_err(cudaEventCreate(&p->start));
    if (!rc && (rc = cuda_err(cudaEventCreate(&p->stop))))
        cudaEventDestroy(p->start);
    if (rc) {
        free(p);
        return rc;
    }
    *t = p;
    return CZ_OK;
}

void cz_cuda_timer_free(cz_cuda_timer *t)
{
    if (!t)
        return;
    cudaEventDestroy(t->start);
    cudaEventDestroy(t->stop);
    free(t);
}

int cz_cuda_timer_start(cz_cuda_timer *t)
{
    return t ? cuda_err(cudaEventRecord(t->start)) : CZ_ERR_INVALID_ARG;
}

int cz_cuda_timer_stop(cz_cuda_timer *t, float *ms)
{
    if (!t || !ms)
        return CZ_ERR_INVALID_ARG;
    int rc = cuda_err(cudaEventRecord(t->stop));
    if (!rc)
        rc = cuda_err(cudaEventSynchronize(t->stop));
    if (!rc)
        rc = cuda_err(cudaEventElapsedTime(ms, t->start, t->stop));
    return rc;
}

} /* extern "C" */
