/* Multi-scalar multiplication on the GPU (include/cuzk/cuda.h), G1 and G2,
 * Pippenger's bucket method with signed digits:
 *
 *   out = sum_i k_i P_i = sum_w 2^(c w) S_w,   S_w = sum_{j=1}^{2^(c-1)} j B_{w,j},
 *   B_{w,j} = sum of the P_i (negated for a negative digit) whose digit in
 *   window w has magnitude j.
 *
 * Digits: k (canonical, < r < 2^255) is cut into W = ceil(256 / c) windows
 * of c bits; a window value v (plus the carry from below) above 2^(c-1)
 * becomes v - 2^c with a carry into the next window, so |digit| <= 2^(c-1)
 * and the top window never carries (bit 255 of k is 0).
 *
 * Steps, all on the device; the host only sizes buffers and does the last
 * W doublings-and-adds of the window sums:
 *   1. count   one thread per scalar: digits of every window, bucket sizes
 *              counted with warp-aggregated atomics (equal digits in a warp
 *              cost one atomic, so skewed scalars do not serialise);
 *   2. scan    bucket offsets (exclusive prefix sum);
 *   3. place   digits again, each (point index, sign) written into its
 *              bucket's slice (a counting sort; the order inside a bucket
 *              does not matter: the sum is the same point);
 *   4. sum     every bucket's points by mixed XYZZ additions, a bucket of
 *              len points in k = ceil(len / L0) chunks of equal length, one
 *              thread each; buckets split in several chunks leave partial
 *              sums that further rounds add up the same way (L1 at a time),
 *              so one bucket holding most points (the ones of a witness) is
 *              summed in parallel as well.  L0 is twice the mean bucket
 *              length when buckets are many (first_chunk): with uniform
 *              scalars nearly every bucket is one chunk and the lanes of a
 *              warp do about as many additions each (with L0 = 512 at
 *              2^26, mean 512, warps mixing chunks of ~512 and ~256 points
 *              took 30% longer than with L0 = 1024, BENCHMARKS.md
 *              2026-11-30);
 *   5. reduce  S_w by running sums, T slices of buckets per window: a slice
 *              [lo, hi) gives sum_{j in slice} (j - lo + 1) B_j and its plain
 *              sum R, and adds lo R (double-and-add) for the true weights;
 *              then the T slice results of each window are summed (step 4's
 *              segmented sum again);
 *   6. host    W sums copied back, out = Horner over the windows.
 *
 * Results are group elements: compared with the CPU's cz_*_msm as points
 * (affine encodings), the XYZZ representatives differ.  Nothing here is
 * constant time: MSM inputs are public to the prover. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cub/device/device_scan.cuh>

#include "cuda/cuda_err.cuh"
#include "cuda/ec.cuh"
#include "cuda/fr.cuh"
#include "cuzk/cuda.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"

#define MSM_L0      256 /* least points per thread in the first summing round */
#define MSM_L1      32  /* partial sums per thread in later rounds */
#define MSM_THREADS 128
#define ARENA_MAX   128 /* rounds of a segmented sum allocate 4 each */
#define NO_BUCKET   0xffffffffu
#define SIGN_BIT    0x80000000u

/* ---------------------------------------------------------------- digits */

/* The scalar of index i in canonical form. */
__device__ __forceinline__ fr_t scalar_at(const fr_t *k, size_t i, bool mont)
{
    fr_t s = fr_load(k + i);
    if (mont)
        s = fr_from_mont(s);
    return s;
}

/* Calls f(w, key, negative) for every window w with a non-zero digit, key =
 * w 2^(c-1) + |digit| - 1. */
template <class F>
__device__ __forceinline__ void for_digits(const fr_t &s, unsigned c, unsigned W, F f)
{
    uint32_t carry = 0, half = 1u << (c - 1), mask = (1u << c) - 1;
    for (unsigned w = 0; w < W; w++) {
        unsigned off = w * c, q = off / 32, sh = off % 32;
        uint64_t two = ((uint64_t)fr_word(s, q + 1) << 32) | fr_word(s, q);
        uint32_t v = (uint32_t)(two >> sh) & mask;
        v += carry;
        bool neg = v > half;
        uint32_t mag = neg ? (1u << c) - v : v;
        carry = neg;
        f(w, mag ? w * half + mag - 1 : NO_BUCKET, neg);
    }
}

/* Warp-aggregated slot: lanes of the warp with the same key share one
 * atomicAdd on ctr[key]; returns this lane's slot (old value + rank).  All
 * lanes of the warp call it (key NO_BUCKET: no slot). */
__device__ __forceinline__ uint32_t warp_slot(uint32_t *ctr, uint32_t key)
{
    unsigned lane = threadIdx.x & 31;
    unsigned want = __ballot_sync(0xffffffffu, key != NO_BUCKET);
    uint32_t slot = 0;
    if (key != NO_BUCKET) {
        unsigned peers = __match_any_sync(want, key);
        unsigned leader = __ffs(peers) - 1;
        uint32_t base = 0;
        if (lane == leader)
            base = atomicAdd(&ctr[key], (uint32_t)__popc(peers));
        base = __shfl_sync(want, base, leader);
        slot = base + (uint32_t)__popc(peers & ((1u << lane) - 1));
    }
    return slot;
}

struct digit_args {
    const fr_t *k;
    size_t n;
    unsigned c, W;
    bool mont;
};

/* Step 1: count[key] = number of digits with that bucket key. */
__global__ void msm_count(digit_args a, uint32_t *count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = i < a.n;
    fr_t s = ok ? scalar_at(a.k, i, a.mont) : fr_t{{0, 0, 0, 0, 0, 0, 0, 0}};
    for_digits(s, a.c, a.W, [&](unsigned, uint32_t key, bool) { warp_slot(count, key); });
}

/* Step 3: item[cursor[key]++] = i | sign. */
__global__ void msm_place(digit_args a, uint32_t *cursor, uint32_t *item)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = i < a.n;
    fr_t s = ok ? scalar_at(a.k, i, a.mont) : fr_t{{0, 0, 0, 0, 0, 0, 0, 0}};
    for_digits(s, a.c, a.W, [&](unsigned, uint32_t key, bool neg) {
        uint32_t slot = warp_slot(cursor, key);
        if (key != NO_BUCKET)
            item[slot] = (uint32_t)i | (neg ? SIGN_BIT : 0);
    });
}

/* Density compaction: wcount[q] = popcount of density word q. */
__global__ void density_popc(const uint64_t *dens, size_t words, size_t n, uint32_t *wcount)
{
    size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= words)
        return;
    uint64_t v = dens[q];
    size_t rest = n - q * 64;
    if (rest < 64) /* bits past n are ignored */
        v &= ((uint64_t)1 << rest) - 1;
    wcount[q] = (uint32_t)__popcll(v);
}

/* out[rank(i)] = k[i] for every set bit i < n, rank(i) = set bits below i. */
__global__ void density_compact(const uint64_t *dens, size_t n, const uint32_t *woff, const fr_t *k,
                                fr_t *out)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t v = dens[i / 64];
    unsigned b = (unsigned)(i % 64);
    if ((v >> b) & 1)
        fr_store(out + woff[i / 64] + __popcll(v & (((uint64_t)1 << b) - 1)), fr_load(k + i));
}

/* ------------------------------------------------------- segmented sums */

/* Chunks of segment s, at most L items each: nchunk[s] = ceil(len / L);
 * stats[0] counts the segments longer than L. */
__global__ void seg_chunks(const uint32_t *off, size_t S, unsigned L, uint32_t *nchunk,
                           uint32_t *stats)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= S)
        return;
    uint32_t len = off[s + 1] - off[s];
    nchunk[s] = (len + L - 1) / L;
    if (len > L)
        atomicAdd(&stats[0], 1u);
}

/* chunk_seg[j] = s for every chunk j of segment s. */
__global__ void seg_chunk_map(const uint32_t *coff, size_t S, uint32_t *chunk_seg)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= S)
        return;
    for (uint32_t j = coff[s]; j < coff[s + 1]; j++)
        chunk_seg[j] = (uint32_t)s;
}

/* Sum of items [b, e) of the first round: points by index, negated when the
 * sign bit is set. */
template <class F>
__device__ xyzz_t<F> sum_points(const affine_t<F> *bases, const uint32_t *item, uint32_t b,
                                uint32_t e)
{
    xyzz_t<F> acc = xyzz_inf<F>();
    for (uint32_t j = b; j < e; j++) {
        uint32_t it = item[j];
        affine_t<F> p = affine_load(bases + (it & ~SIGN_BIT));
        if (it & SIGN_BIT)
            p.y = field<F>::neg(p.y); /* (0, 0) stays (0, 0): -0 = 0 */
        acc = xyzz_add_affine(acc, p);
    }
    return acc;
}

template <class F> __device__ xyzz_t<F> sum_xyzz(const xyzz_t<F> *part, uint32_t b, uint32_t e)
{
    xyzz_t<F> acc = xyzz_inf<F>();
    for (uint32_t j = b; j < e; j++)
        acc = xyzz_add(acc, part[j]); /* operands straight from memory: fewer live registers */
    return acc;
}

/* One thread per chunk j of segment s = chunk_seg[j]: chunk i = j - coff[s]
 * of the k = coff[s + 1] - coff[s] equal parts of the segment's items. */
template <class F, bool FIRST>
__global__ void seg_sum_chunks(const uint32_t *off, const uint32_t *coff, const uint32_t *chunk_seg,
                               size_t C, const affine_t<F> *bases, const uint32_t *item,
                               const xyzz_t<F> *part, xyzz_t<F> *out)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= C)
        return;
    uint32_t s = chunk_seg[j];
    uint64_t len = off[s + 1] - off[s], k = coff[s + 1] - coff[s], i = j - coff[s];
    uint32_t b = off[s] + (uint32_t)(len * i / k), e = off[s] + (uint32_t)(len * (i + 1) / k);
    xyzz_store(out + j, FIRST ? sum_points(bases, item, b, e) : sum_xyzz(part, b, e));
}

/* Last round: every segment has at most L items; out[s] = their sum. */
template <class F, bool FIRST>
__global__ void seg_sum_final(const uint32_t *off, size_t S, const affine_t<F> *bases,
                              const uint32_t *item, const xyzz_t<F> *part, xyzz_t<F> *out)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= S)
        return;
    uint32_t b = off[s], e = off[s + 1];
    xyzz_store(out + s, FIRST ? sum_points(bases, item, b, e) : sum_xyzz(part, b, e));
}

/* ------------------------------------------------------ bucket reduction */

/* q P for q < 2^32 (double-and-add from the top bit). */
template <class F> __device__ __noinline__ xyzz_t<F> xyzz_mul_small(const xyzz_t<F> &p, uint32_t q)
{
    xyzz_t<F> acc = xyzz_inf<F>();
    for (int bit = 31 - __clz(q | 1); bit >= 0 && q; bit--) {
        acc = xyzz_dbl(acc);
        if ((q >> bit) & 1)
            acc = xyzz_add(acc, p);
    }
    return acc;
}

/* Step 5: thread (w, t) takes buckets [lo, hi) of window w (key j is digit
 * j + 1) and writes sum_{j} (j + 1) B_j = S + lo R, with R = sum B_j and
 * S = sum (j - lo + 1) B_j from running sums taken downwards. */
template <class F>
__global__ void bucket_slices(const xyzz_t<F> *bucket, unsigned W, uint32_t B, unsigned T,
                              xyzz_t<F> *out)
{
    size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (size_t)W * T)
        return;
    unsigned w = (unsigned)(g / T), t = (unsigned)(g % T);
    uint32_t per = B / T, lo = t * per, hi = lo + per;
    const xyzz_t<F> *bw = bucket + (size_t)w * B;
    xyzz_t<F> R = xyzz_inf<F>(), S = xyzz_inf<F>();
    for (uint32_t j = hi; j-- > lo;) {
        R = xyzz_add(R, bw[j]);
        S = xyzz_add(S, R);
    }
    xyzz_store(out + g, xyzz_add(S, xyzz_mul_small(R, lo)));
}

/* --------------------------------------------------------------- driver */

/* Device memory for one MSM, freed together. */
struct arena {
    void *p[ARENA_MAX];
    int n;
};

static int arena_alloc(arena *a, void **out, size_t bytes)
{
    *out = NULL;
    int rc = a->n == ARENA_MAX ? CZ_ERR_NOMEM
                               : cz_cuda_malloc(out, bytes ? bytes : 16, CZ_BUF_SCRATCH);
    if (!rc)
        a->p[a->n++] = *out;
    else if (getenv("CZ_CUDA_DEBUG"))
        fprintf(stderr, "cuzk msm: device allocation %d of %zu bytes failed: %s\n", a->n, bytes,
                cz_strerror(rc));
    return rc;
}

static void arena_free(arena *a)
{
    for (int i = 0; i < a->n; i++)
        cz_cuda_free(a->p[i]);
    a->n = 0;
}

static unsigned blocks_for(size_t n) { return (unsigned)((n + MSM_THREADS - 1) / MSM_THREADS); }

/* Exclusive prefix sum of in[0..n) into out[0..n] (out[n] = total), and the
 * total to the host. */
static int scan_counts(arena *ar, const uint32_t *in, uint32_t *out, size_t n, uint32_t *total)
{
    size_t tmp_bytes = 0;
    int rc = cuda_err(cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, in, out, (int)n + 1));
    void *tmp = NULL;
    if (!rc)
        rc = arena_alloc(ar, &tmp, tmp_bytes);
    /* in has n entries: scan n + 1 of them with in[n] = 0 (callers size
     * in with one spare zero) */
    if (!rc)
        rc = cuda_err(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, in, out, (int)n + 1));
    if (!rc)
        rc = cuda_err(cudaMemcpy(total, out + n, sizeof *total, cudaMemcpyDeviceToHost));
    return rc;
}

/* out[s] = sum of segment s (offsets off[0..S]) of the first-round items
 * (chunks of at most l0) or of XYZZ partials, in rounds of chunks. */
template <class F>
static int seg_sum(arena *ar, const uint32_t *off, size_t S, const affine_t<F> *bases,
                   const uint32_t *item, unsigned l0, const xyzz_t<F> *part, xyzz_t<F> *out)
{
    bool first = bases != NULL;
    const uint32_t *cur_off = off;
    const xyzz_t<F> *cur = part;
    uint32_t *nchunk, *coff, *stats, *chunk_seg;
    int rc = arena_alloc(ar, (void **)&nchunk, (S + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(ar, (void **)&coff, (S + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(ar, (void **)&stats, sizeof(uint32_t));
    for (int round = 0; !rc; round++) {
        unsigned L = first && round == 0 ? l0 : MSM_L1;
        uint32_t big = 0, C = 0;
        rc = cuda_err(cudaMemset(stats, 0, sizeof(uint32_t)));
        if (!rc)
            rc = cuda_err(cudaMemset(nchunk + S, 0, sizeof(uint32_t)));
        if (!rc) {
            seg_chunks<<<blocks_for(S), MSM_THREADS>>>(cur_off, S, L, nchunk, stats);
            rc = cuda_err(cudaGetLastError());
        }
        if (!rc)
            rc = cuda_err(cudaMemcpy(&big, stats, sizeof big, cudaMemcpyDeviceToHost));
        if (rc)
            break;
        bool pts = first && round == 0;
        if (!big) { /* every segment fits one thread */
            if (pts)
                seg_sum_final<F, true>
                    <<<blocks_for(S), MSM_THREADS>>>(cur_off, S, bases, item, NULL, out);
            else
                seg_sum_final<F, false>
                    <<<blocks_for(S), MSM_THREADS>>>(cur_off, S, NULL, NULL, cur, out);
            rc = cuda_err(cudaGetLastError());
            break;
        }
        if ((rc = scan_counts(ar, nchunk, coff, S, &C)))
            break;
        xyzz_t<F> *next;
        if ((rc = arena_alloc(ar, (void **)&chunk_seg, (size_t)C * sizeof(uint32_t))) ||
            (rc = arena_alloc(ar, (void **)&next, (size_t)C * sizeof(xyzz_t<F>))))
            break;
        seg_chunk_map<<<blocks_for(S), MSM_THREADS>>>(coff, S, chunk_seg);
        if (pts)
            seg_sum_chunks<F, true><<<blocks_for(C), MSM_THREADS>>>(cur_off, coff, chunk_seg, C,
                                                                    bases, item, NULL, next);
        else
            seg_sum_chunks<F, false><<<blocks_for(C), MSM_THREADS>>>(cur_off, coff, chunk_seg, C,
                                                                     NULL, NULL, cur, next);
        if ((rc = cuda_err(cudaGetLastError())))
            break;
        /* the partials are the next round's items, segment s's at
         * [coff[s], coff[s + 1]) */
        uint32_t *noff;
        if ((rc = arena_alloc(ar, (void **)&noff, (S + 1) * sizeof(uint32_t))) ||
            (rc = cuda_err(
                 cudaMemcpy(noff, coff, (S + 1) * sizeof(uint32_t), cudaMemcpyDeviceToDevice))))
            break;
        cur_off = noff;
        cur = next;
        first = false;
    }
    return rc;
}

/* CZ_CUDA_PROFILE=1 in the environment: each MSM prints the wall time of
 * its steps to stderr (the steps end in synchronous copies, so wall time
 * is device time plus launch overhead). */
struct prof {
    bool on;
    int n;
    struct timespec t[6];
};

static void prof_mark(prof *p)
{
    if (p->n == 0) {
        const char *e = getenv("CZ_CUDA_PROFILE");
        p->on = e && *e && strcmp(e, "0");
    }
    if (p->on && p->n < 6) {
        cudaDeviceSynchronize();
        clock_gettime(CLOCK_MONOTONIC, &p->t[p->n]);
    }
    p->n++;
}

static void prof_report(const prof *p, const char *g, size_t n, unsigned c, unsigned W, unsigned l0)
{
    if (!p->on || p->n < 5)
        return;
    double ms[4];
    for (int i = 0; i < 4; i++)
        ms[i] = (double)(p->t[i + 1].tv_sec - p->t[i].tv_sec) * 1e3 +
                (double)(p->t[i + 1].tv_nsec - p->t[i].tv_nsec) / 1e6;
    fprintf(stderr,
            "msm %s n %zu window %u x %u, chunks <= %u: sort %.2f ms, bucket sums %.2f ms, "
            "reduce %.2f ms, host %.2f ms\n",
            g, n, c, W, l0, ms[0], ms[1], ms[2], ms[3]);
}

/* Host-side curve operations for the final combination. */
template <class F> struct host_curve;
template <> struct host_curve<fp_t> {
    typedef cz_g1 jac;
    typedef cz_g1_xyzz xyzz;
    static void to_jac(jac *r, const xyzz *p) { cz_g1_xyzz_to_jacobian(r, p); }
    static void add(jac *r, const jac *a, const jac *b) { cz_g1_add(r, a, b); }
    static void dbl(jac *r, const jac *a) { cz_g1_dbl(r, a); }
    static void inf(jac *r) { cz_g1_set_inf(r); }
};
template <> struct host_curve<fp2_t> {
    typedef cz_g2 jac;
    typedef cz_g2_xyzz xyzz;
    static void to_jac(jac *r, const xyzz *p) { cz_g2_xyzz_to_jacobian(r, p); }
    static void add(jac *r, const jac *a, const jac *b) { cz_g2_add(r, a, b); }
    static void dbl(jac *r, const jac *a) { cz_g2_dbl(r, a); }
    static void inf(jac *r) { cz_g2_set_inf(r); }
};

/* Window width for n points: about log2(n) - 8 (fewer, longer buckets cost
 * more additions per point; more buckets cost more reduction), clamped to
 * [8, 18].  Measured on the H200 (BENCHMARKS.md, 2026-11-30): a cost model
 * counting additions picks c = 20 at 2^24 and 22 at 2^26 (12% and 13% fewer
 * additions), yet the bucket sums took the same time (159 vs 160 ms, 576
 * vs 590 ms) while sorting and reduction grew.  Re-measured with step 4's
 * balanced chunks and step 5's wider slicing: 16 stays best at 2^24, 20
 * beats 18 by 2% at 2^26 (559 vs 571 ms); kept until measured at 2^27. */
static unsigned pick_window(size_t n)
{
    unsigned lg = 0;
    while (lg < 63 && ((size_t)1 << (lg + 1)) <= n)
        lg++;
    unsigned c = lg > 16 ? lg - 8 : 8;
    return c > 18 ? 18 : c;
}

/* Most points per thread in the first round (step 4): twice the mean
 * bucket length, at least MSM_L0, when there are buckets for eight waves of
 * the bucket-sum kernel (so nearly every bucket is one chunk); else shorter
 * chunks, items / (8 resident threads), so the grid still fills the GPU
 * (one-chunk buckets at 2^20 in G1, 45 K threads, took 20 ms of bucket
 * sums against 15 with 256-point chunks; G2, two blocks per SM, likewise
 * at 2^22). */
template <class F> static unsigned first_chunk(uint64_t items, uint64_t buckets)
{
    int dev = 0, sms = 0, blocks = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, seg_sum_final<F, true>, MSM_THREADS,
                                                      0) != cudaSuccess) {
        cudaGetLastError();
        return MSM_L0;
    }
    uint64_t waves8 = 8ull * (uint64_t)sms * (uint64_t)(blocks > 0 ? blocks : 1) * MSM_THREADS;
    uint64_t l = buckets >= waves8 ? 2 * items / (buckets ? buckets : 1) : items / waves8;
    return l < MSM_L0 ? MSM_L0 : l > 16 * MSM_L0 ? 16 * MSM_L0 : (unsigned)l;
}

template <class F>
static int msm_run(typename host_curve<F>::jac *out, const void *bases_dev, const cz_fr *k_dev,
                   size_t n, unsigned flags)
{
    typedef host_curve<F> H;
    H::inf(out);
    if (n == 0)
        return CZ_OK;
    unsigned c = (flags >> 8) & 31u;
    if (!c)
        c = pick_window(n);
    unsigned W = (256 + c - 1) / c, T = 1;
    if ((uint64_t)W * n >= ((uint64_t)1 << 32)) /* item offsets are 32-bit */
        return CZ_ERR_TOO_BIG;
    uint32_t B = (uint32_t)1 << (c - 1);
    size_t nb = (size_t)W * B;
    /* slices per window: up to 256 (at least 2 buckets each), more while
     * the W T threads are under 32 K and slices keep 16 buckets: with 256
     * a window of 2^17 or 2^19 buckets left a few thousand threads walking
     * 512 to 2048 buckets each (18 and 69 ms at c = 18 and 20) */
    while (T * 2 <= B && (T < 256 || ((uint64_t)W * T < 32768 && T * 2 <= B / 16)))
        T *= 2;
    arena ar = {{0}, 0};
    uint32_t *count, *boff, *item, total = 0;
    unsigned l0 = 0;
    xyzz_t<F> *bucket, *slice, *wsum;
    uint32_t *soff;
    digit_args da = {(const fr_t *)k_dev, n, c, W, !(flags & CZ_MSM_CANONICAL)};
    prof pf = {};
    prof_mark(&pf); /* start */
    int rc = arena_alloc(&ar, (void **)&count, (nb + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(&ar, (void **)&boff, (nb + 1) * sizeof(uint32_t));
    if (!rc)
        rc = cuda_err(cudaMemset(count, 0, (nb + 1) * sizeof(uint32_t)));
    if (!rc) {
        msm_count<<<blocks_for(n), MSM_THREADS>>>(da, count);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = scan_counts(&ar, count, boff, nb, &total);
    if (!rc)
        rc = arena_alloc(&ar, (void **)&item, (size_t)total * sizeof(uint32_t));
    if (!rc) /* count becomes the cursor of step 3; boff keeps the offsets */
        rc = cuda_err(
            cudaMemcpy(count, boff, (nb + 1) * sizeof(uint32_t), cudaMemcpyDeviceToDevice));
    if (!rc) {
        msm_place<<<blocks_for(n), MSM_THREADS>>>(da, count, item);
        rc = cuda_err(cudaGetLastError());
    }
    prof_mark(&pf); /* digits counted, sorted into buckets */
    if (!rc)
        rc = arena_alloc(&ar, (void **)&bucket, nb * sizeof(xyzz_t<F>));
    if (!rc)
        rc = seg_sum<F>(&ar, boff, nb, (const affine_t<F> *)bases_dev, item,
                        l0 = first_chunk<F>(total, nb), NULL, bucket);
    prof_mark(&pf); /* buckets summed */
    if (!rc)
        rc = arena_alloc(&ar, (void **)&slice, (size_t)W * T * sizeof(xyzz_t<F>));
    if (!rc) {
        bucket_slices<F><<<blocks_for((size_t)W * T), MSM_THREADS>>>(bucket, W, B, T, slice);
        rc = cuda_err(cudaGetLastError());
    }
    /* window w's slices are items [w T, (w + 1) T) */
    uint32_t *hoff = (uint32_t *)malloc((W + 1) * sizeof(uint32_t));
    typename H::xyzz *hw = (typename H::xyzz *)malloc(W * sizeof(typename H::xyzz));
    if (!rc && (!hoff || !hw))
        rc = CZ_ERR_NOMEM;
    if (!rc) {
        for (unsigned w = 0; w <= W; w++)
            hoff[w] = w * T;
        rc = arena_alloc(&ar, (void **)&soff, (W + 1) * sizeof(uint32_t));
    }
    if (!rc)
        rc = cuda_err(cudaMemcpy(soff, hoff, (W + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    if (!rc)
        rc = arena_alloc(&ar, (void **)&wsum, W * sizeof(xyzz_t<F>));
    if (!rc)
        rc = seg_sum<F>(&ar, soff, W, NULL, NULL, 0, slice, wsum);
    static_assert(sizeof(xyzz_t<F>) == sizeof(typename H::xyzz), "device and host XYZZ layouts");
    if (!rc)
        rc = cuda_err(cudaMemcpy(hw, wsum, W * sizeof(xyzz_t<F>), cudaMemcpyDeviceToHost));
    prof_mark(&pf); /* windows reduced, sums on the host */
    if (!rc) {      /* out = sum_w 2^(c w) S_w, Horner from the top window */
        typename H::jac acc, s;
        H::inf(&acc);
        for (unsigned w = W; w-- > 0;) {
            for (unsigned i = 0; i < c; i++)
                H::dbl(&acc, &acc);
            H::to_jac(&s, &hw[w]);
            H::add(&acc, &acc, &s);
        }
        *out = acc;
    }
    free(hoff);
    free(hw);
    prof_mark(&pf);
    prof_report(&pf, sizeof(F) == sizeof(fp_t) ? "G1" : "G2", n, c, W, l0);
    cudaError_t e = cudaDeviceSynchronize(); /* before freeing what kernels use */
    arena_free(&ar);
    return rc ? rc : cuda_err(e);
}

/* The scalars of the set density bits, compacted on the device into a new
 * buffer (*compact, cz_cuda_free by the caller); fails with
 * CZ_ERR_INVALID_ARG when the set bits among the first n are not n_bases. */
static int density_scalars(fr_t **compact, const uint64_t *dens, size_t n, const cz_fr *k,
                           size_t n_bases)
{
    arena ar = {{0}, 0};
    size_t words = (n + 63) / 64;
    uint32_t *wcount, *woff, total = 0;
    *compact = NULL;
    int rc = arena_alloc(&ar, (void **)&wcount, (words + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(&ar, (void **)&woff, (words + 1) * sizeof(uint32_t));
    if (!rc)
        rc = cuda_err(cudaMemset(wcount + words, 0, sizeof(uint32_t)));
    if (!rc && words) {
        density_popc<<<blocks_for(words), MSM_THREADS>>>(dens, words, n, wcount);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = scan_counts(&ar, wcount, woff, words, &total);
    if (!rc && total != n_bases)
        rc = CZ_ERR_INVALID_ARG;
    if (!rc)
        rc = cz_cuda_malloc((void **)compact, (n_bases ? n_bases : 1) * sizeof(fr_t),
                            CZ_BUF_SCRATCH);
    if (!rc && n) {
        density_compact<<<blocks_for(n), MSM_THREADS>>>(dens, n, woff, (const fr_t *)k, *compact);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = cuda_err(cudaDeviceSynchronize());
    if (rc) {
        cz_cuda_free(*compact);
        *compact = NULL;
    }
    arena_free(&ar);
    return rc;
}

static int check_args(const void *out, const void *bases, const cz_fr *k, size_t n, unsigned flags)
{
    unsigned c = (flags >> 8) & 31u;
    if (!out || (n && (!bases || !k)) || n >= ((size_t)1 << 31) || c > CZ_MSM_MAX_WINDOW ||
        (c && c < 2))
        return CZ_ERR_INVALID_ARG;
    return cz_cuda_available() ? CZ_OK : CZ_ERR_UNSUPPORTED;
}

template <class F>
static int msm_density(typename host_curve<F>::jac *out, const void *bases_dev, size_t n_bases,
                       const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                       unsigned flags)
{
    int rc = check_args(out, bases_dev, scalars_dev, n_bases, flags);
    if (!rc && n_scalars && (!scalars_dev || !density_dev))
        rc = CZ_ERR_INVALID_ARG;
    fr_t *k = NULL;
    if (!rc)
        rc = density_scalars(&k, density_dev, n_scalars, scalars_dev, n_bases);
    if (!rc)
        rc = msm_run<F>(out, bases_dev, (const cz_fr *)k, n_bases, flags);
    cz_cuda_free(k);
    return rc;
}

extern "C" {

int cz_cuda_g1_msm(cz_g1 *out, const cz_g1_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    int rc = check_args(out, bases_dev, scalars_dev, n, flags);
    return rc ? rc : msm_run<fp_t>(out, bases_dev, scalars_dev, n, flags);
}

int cz_cuda_g2_msm(cz_g2 *out, const cz_g2_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    int rc = check_args(out, bases_dev, scalars_dev, n, flags);
    return rc ? rc : msm_run<fp2_t>(out, bases_dev, scalars_dev, n, flags);
}

int cz_cuda_g1_msm_density(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    return msm_density<fp_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars, flags);
}

int cz_cuda_g2_msm_density(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    return msm_density<fp2_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars, flags);
}

} /* extern "C" */
