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
 *              does not matter: the sum is the same point); for dense
 *              scalars (a digit in over half of the windows, from 2^16
 *              points) each window's (bucket, point) pairs are radix-sorted
 *              instead (radix_place), which needs no returning atomics;
 *   4. sum     every bucket's points by mixed XYZZ additions: the sorted
 *              items are cut into chunks of L consecutive items, one thread
 *              each whatever the bucket boundaries, so every lane of a warp
 *              does the same number of additions (one thread per bucket
 *              left lanes waiting for the warp's longest bucket, Poisson
 *              lengths of mean 256 at c = 20: 2^27 random took 1060 ms
 *              against 971 now, BENCHMARKS.md 2026-12-02); a bucket inside
 *              one chunk is written whole, a bucket crossing chunk
 *              boundaries leaves one partial sum per chunk, and those are
 *              added up by the segmented sum of XYZZ points (rounds of L1
 *              per thread), so one bucket holding most points (the ones of
 *              a witness) is summed in parallel as well;
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/cuda_err.cuh"
#include "cuda/devprops.cuh"
#include "cuda/ec.cuh"
#include "cuda/fr.cuh"
#include "cuda/msm_scratch.h"
#include "cuda/stream_plan.h"
#include "cuzk/cuda.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"

#define MSM_CHUNK_MIN 64  /* least items per thread in the bucket sums */
#define MSM_CHUNK_MAX 512 /* most items per thread in the bucket sums */
#define MSM_WAVES     8   /* waves of step 4's G1 blocks the bucket sums aim at */
#define MSM_L1      32  /* partial sums per thread in the segmented sums */
#define MSM_RADIX_MIN ((size_t)1 << 16) /* least points for the radix path of step 3 */
#define MSM_THREADS 128
#define ARENA_MAX   128 /* rounds of a segmented sum allocate 4 each */
#define MAX_DEVICES   16
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

/* Window w's bucket key, key = w 2^(c-1) + |digit| - 1 (NO_BUCKET for a
 * zero digit), and its sign; carry is the carry out of window w - 1 in and
 * that of window w out, so windows go in order from 0. */
__device__ __forceinline__ uint32_t window_key(const fr_t &s, unsigned c, unsigned w,
                                               uint32_t &carry, bool &neg)
{
    uint32_t half = 1u << (c - 1), mask = (1u << c) - 1;
    unsigned off = w * c, q = off / 32, sh = off % 32;
    uint64_t two = ((uint64_t)fr_word(s, q + 1) << 32) | fr_word(s, q);
    uint32_t v = ((uint32_t)(two >> sh) & mask) + carry;
    neg = v > half;
    uint32_t mag = neg ? (1u << c) - v : v;
    carry = neg;
    return mag ? w * half + mag - 1 : NO_BUCKET;
}

/* Calls f(w, key, negative) for every window w (key NO_BUCKET for a zero
 * digit). */
template <class F>
__device__ __forceinline__ void for_digits(const fr_t &s, unsigned c, unsigned W, F f)
{
    uint32_t carry = 0;
    for (unsigned w = 0; w < W; w++) {
        bool neg;
        uint32_t key = window_key(s, c, w, carry, neg);
        f(w, key, neg);
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

/* The radix path of step 3 (dense scalars, msm_run): the scalars in
 * canonical form once, then window by window (key, value) pairs sorted by
 * key.  out[i] = the canonical scalar i. */
__global__ void canonical_scalars(digit_args a, fr_t *out)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n)
        fr_store(out + i, scalar_at(a.k, i, a.mont));
}

/* Window w's pairs: key[i] = |digit| - 1 of scalar i (canonical, kc), or
 * 2^(c-1) for a zero digit, which sorts after every bucket; val[i] = i |
 * sign.  carry[i] holds the carry out of window w - 1 (unread for w = 0)
 * and is left holding window w's, so the windows go in order and the
 * digits are for_digits' (those the count kernel counted). */
__global__ void window_pairs(const fr_t *kc, size_t n, unsigned c, unsigned w, uint8_t *carry,
                             uint32_t *key, uint32_t *val)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t cy = w ? carry[i] : 0, half = 1u << (c - 1);
    bool neg;
    uint32_t k = window_key(fr_load(kc + i), c, w, cy, neg);
    carry[i] = (uint8_t)cy;
    key[i] = k == NO_BUCKET ? half : k - w * half;
    val[i] = (uint32_t)i | (neg ? SIGN_BIT : 0);
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

/* Segmented sums: segment s is items [beg[s], end[s]) (end = beg + 1 for
 * adjacent segments).  Chunks of segment s, at most L items each:
 * nchunk[s] = ceil(len / L); stats[0] counts the segments longer than L. */
__global__ void seg_chunks(const uint32_t *beg, const uint32_t *end, size_t S, unsigned L,
                           uint32_t *nchunk, uint32_t *stats)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= S)
        return;
    uint32_t len = end[s] - beg[s];
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

/* The affine point of an item: its base, negated when the sign bit is set
 * ((0, 0) stays (0, 0): -0 = 0). */
template <class F>
__device__ __forceinline__ affine_t<F> item_point(const affine_t<F> *bases, uint32_t it)
{
    affine_t<F> p = affine_load(bases + (it & ~SIGN_BIT));
    if (it & SIGN_BIT)
        p.y = field<F>::neg(p.y);
    return p;
}

/* Blocks of MSM_THREADS per SM that step 4's kernel is compiled for.  G1:
 * 4, i.e. 128 registers, since its mixed addition takes its products in
 * pairs (2^27 random 936 against 965 ms at 158 registers and 3 blocks,
 * 2^24 138 against 142; before the pairs the same cap lost 5 %; 5 blocks,
 * 96 registers, lose 5 %).  G2: no
 * cap, 255 registers (capping it at 168 or 128 lost 2 and 10 %).
 * BENCHMARKS.md, 2026-12-04.  Every architecture from sm_75 on has 64 K
 * registers an SM, so G1's 4 x 128 threads at 128 fit each (sm_75 runs
 * at most 1024 threads an SM, sm_86 / 89 / 120 1536: 512 fit too). */
template <class F> struct sum_blocks {
    static const int value = 1;
};
template <> struct sum_blocks<fp_t> {
    static const int value = 4;
};

/* Where step 4 keeps a thread's running sum: G1 in registers, G2 in
 * shared memory, a slot of acc_slot<F>::bytes a thread: the 384 bytes of
 * the point and 16 of padding, so that slots lie 25 16-byte words apart
 * and a quarter-warp's 16-byte accesses fall in distinct banks (51,200
 * bytes a block of 128, past the 48 KiB a block gets without opting in:
 * launch_shape picks the block size the device holds best).  Out of G2's
 * 255 registers this took the spills away: G2 2^22 132.4 against 143.5 ms
 * (H100, 2026-12-06; BENCHMARKS.md). */
template <class F> struct acc_slot {
    static const size_t bytes = 0;
};
template <> struct acc_slot<fp2_t> {
    static const size_t bytes = sizeof(xyzz_t<fp2_t>) + 16;
};

/* A bucket's sum written (ACC: added to what the bucket holds, the sums
 * of earlier chunks of bases in a chunked MSM). */
template <class F, bool ACC>
__device__ __forceinline__ void put_bucket(xyzz_t<F> *b, const xyzz_t<F> &v)
{
    xyzz_store(b, ACC ? xyzz_add(xyzz_load(b), v) : v);
}

/* The accumulator a bucket's items start from in a chunk of step 4: with
 * ACC, a bucket the chunk holds whole (whole) starts from what it holds,
 * so its end is a store like the first chunk's; a bucket crossing the
 * chunk's ends starts from infinity, its partials added by scatter.  (An
 * addition at each bucket's end instead ran on a warp's lanes one
 * bucket end after another: lanes end buckets at different items, so at
 * 32 items a bucket two thirds of a warp's steps held a general
 * addition, and the chunked H MSM's sums took 2.3x the resident ones,
 * BENCHMARKS.md 2026-12-07 evening.) */
template <class F, bool ACC> __device__ __forceinline__ xyzz_t<F> bucket_start(const xyzz_t<F> *b, bool whole)
{
    return ACC && whole ? xyzz_load(b) : xyzz_inf<F>();
}

/* Step 4, one thread per chunk j: items [j L, min((j + 1) L, total)) of
 * the sorted list (bucket b's are [off[b], off[b + 1]), off[nb] = total).
 * A bucket the chunk holds whole goes to bucket[b] (ACC: its items
 * added to what it holds, bucket_start); the partial sum of the
 * bucket that began before the chunk goes to part[2 j], that of the bucket
 * that goes on after it to part[2 j + 1] (one bucket doing both: part[2 j]);
 * unused slots get infinity.  So a bucket crossing chunks jf < jl has its
 * partials in part[2 jf + 1 .. 2 jl], with infinities between them.
 * Compiled for sum_blocks<F> blocks per SM, launched with acc_slot<F>
 * bytes of dynamic shared memory a thread (above) in blocks of
 * MSM_THREADS (G2: launch_shape's g2_threads). */
template <class F, bool ACC>
__global__ void __launch_bounds__(MSM_THREADS, sum_blocks<F>::value)
    chunk_sums(const uint32_t *off, uint32_t nb, uint32_t total, uint32_t L, size_t j0, size_t j1,
               const affine_t<F> *bases, const uint32_t *item, xyzz_t<F> *bucket, xyzz_t<F> *part)
{
    size_t j = j0 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; /* chunks [j0, j1) */
    if (j >= j1)
        return;
    extern __shared__ uint4 slots[];
    xyzz_t<F> in_regs;
    xyzz_t<F> &acc = acc_slot<F>::bytes ? *reinterpret_cast<xyzz_t<F> *>(
                                              slots + acc_slot<F>::bytes / 16 * threadIdx.x)
                                        : in_regs;
    uint32_t lo = (uint32_t)j * L, hi = min(lo + L, total);
    uint32_t b = 0, h = nb; /* the bucket holding item lo: off[b] <= lo < off[b + 1] */
    while (h - b > 1) {
        uint32_t m = (b + h) / 2;
        if (off[m] <= lo)
            b = m;
        else
            h = m;
    }
    uint32_t end = off[b + 1];
    bool before = off[b] < lo;
    /* the head partial is stored as soon as it is known (kept in registers
     * it cost the loop 48 of them: 180 in all, two blocks per SM) */
    if (!before)
        xyzz_store(part + 2 * j, xyzz_inf<F>());
    acc = bucket_start<F, ACC>(bucket + b, !before && end <= hi);
    for (uint32_t i = lo; i < hi; i++) {
        if (i == end) { /* bucket b ends inside the chunk */
            xyzz_store(before ? part + 2 * j : bucket + b, acc);
            before = false;
            do /* the next bucket with items (empty ones keep what they hold) */
                b++;
            while (off[b + 1] <= i);
            end = off[b + 1];
            acc = bucket_start<F, ACC>(bucket + b, end <= hi);
        }
        acc = xyzz_add_affine(acc, item_point(bases, item[i]));
    }
    bool tail = !before && end > hi;
    xyzz_store(before ? part + 2 * j : tail ? part + 2 * j + 1 : bucket + b, acc);
    if (!tail)
        xyzz_store(part + 2 * j + 1, xyzz_inf<F>());
}

/* Step 4's launch shape on one device (launch_shape_get), worked out on
 * its first MSM from what the device holds; the sums are the same points
 * whatever the shape.
 *   want        threads the bucket sums aim at (chunk_len): MSM_WAVES waves
 *               of chunk_sums<fp_t> (multiprocessors x its resident blocks
 *               per SM x MSM_THREADS) rounded down to a power of two, so
 *               the 132 SMs x 4 blocks of an H100 or H200 give the 2^19
 *               measured there (BENCHMARKS.md 2026-12-02) and the 82 SMs
 *               of an RTX 3090 2^18.  G2 takes the same count, as measured
 *               (its own waves are half as wide).
 *   g2_threads  G2's threads per block, 128, 64 or 32: the size with the
 *               most resident threads per SM given its slots' shared
 *               memory (acc_slot: 400 bytes a thread; the occupancy
 *               calculator), ties to the larger; sizes past the device's
 *               opt-in limit (sharedMemPerBlockOptin) are skipped.  With
 *               228 KiB an SM (sm_80: 164) registers bound G2 to 2 blocks
 *               of 128 either way, so Hopper keeps the 128 it was measured
 *               with; an SM of 64 KiB (sm_75) or 100 KiB (sm_86, 89, 120)
 *               holds a single 51,200-byte block, and smaller blocks
 *               there hold more threads.  The chunked MSM's instantiation
 *               (ACC) is launched in the same shape. */
struct launch_shape {
    uint32_t want;
    unsigned g2_threads;
};

static pthread_mutex_t shape_lock = PTHREAD_MUTEX_INITIALIZER;
static launch_shape shapes[MAX_DEVICES]; /* want 0: not worked out yet */

static uint32_t pow2_floor(uint64_t x)
{
    uint32_t p = 1;
    while (p < (1u << 31) && (uint64_t)p * 2 <= x)
        p *= 2;
    return p;
}

/* The current device's shape, into *s. */
static int launch_shape_make(launch_shape *s)
{
    const cz_devprops *p;
    int g1_blocks = 0, best = 0;
    int rc = cz_devprops_get(&p);
    if (!rc)
        rc = cuda_err(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &g1_blocks, chunk_sums<fp_t, false>, MSM_THREADS, 0));
    if (rc)
        return rc;
    s->want = pow2_floor((uint64_t)MSM_WAVES * (unsigned)p->sms *
                         (unsigned)(g1_blocks > 0 ? g1_blocks : 1) * MSM_THREADS);
    s->g2_threads = 0;
    for (unsigned t = MSM_THREADS; t >= 32 && !rc; t /= 2) {
        size_t smem = acc_slot<fp2_t>::bytes * t;
        int blocks = 0;
        if (smem > p->smem_optin)
            continue;
        rc = cuda_err(cudaFuncSetAttribute(chunk_sums<fp2_t, false>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        if (!rc)
            rc = cuda_err(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocks, chunk_sums<fp2_t, false>, (int)t, smem));
        if (!rc && blocks * (int)t > best) {
            best = blocks * (int)t;
            s->g2_threads = t;
        }
    }
    /* 32 slots take 12,800 bytes, under the 48 KiB every device gives */
    return rc ? rc : s->g2_threads ? CZ_OK : CZ_ERR_UNSUPPORTED;
}

/* The current device's shape, worked out on first use and kept; an H100's
 * in *out when the device cannot be read (the MSM then fails anyway). */
static int launch_shape_get(launch_shape *out)
{
    *out = launch_shape{1u << 19, MSM_THREADS};
    int dev;
    int rc = cuda_err(cudaGetDevice(&dev));
    if (!rc && (dev < 0 || dev >= MAX_DEVICES))
        rc = CZ_ERR_UNSUPPORTED;
    if (rc)
        return rc;
    pthread_mutex_lock(&shape_lock);
    if (!shapes[dev].want) {
        launch_shape s;
        if (!(rc = launch_shape_make(&s)))
            shapes[dev] = s;
    }
    if (!rc)
        *out = shapes[dev];
    pthread_mutex_unlock(&shape_lock);
    return rc;
}

/* bucket[b] = infinity for b < nb (empty buckets stay so). */
template <class F> __global__ void fill_inf(xyzz_t<F> *bucket, size_t nb)
{
    size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb)
        xyzz_store(bucket + b, xyzz_inf<F>());
}

/* flag[b] = 1 when bucket b's items cross a chunk boundary. */
__global__ void crossing(const uint32_t *off, size_t nb, uint32_t L, uint32_t *flag)
{
    size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    uint32_t lo = off[b], hi = off[b + 1];
    flag[b] = hi > lo && lo / L != (hi - 1) / L;
}

/* For the crossing buckets in order (rank[b] their index among them):
 * which[s] = b, and its partials part[sbeg[s] .. send[s]) = part[2 jf + 1
 * .. 2 jl + 1), jf and jl the chunks of its first and last items. */
__global__ void crossing_list(const uint32_t *off, size_t nb, uint32_t L, const uint32_t *flag,
                              const uint32_t *rank, uint32_t *which, uint32_t *sbeg,
                              uint32_t *send)
{
    size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb || !flag[b])
        return;
    uint32_t s = rank[b];
    which[s] = (uint32_t)b;
    sbeg[s] = 2 * (off[b] / L) + 1;
    send[s] = 2 * ((off[b + 1] - 1) / L) + 1;
}

/* bucket[which[s]] = sum[s] (ACC: += ). */
template <class F, bool ACC>
__global__ void scatter(const uint32_t *which, uint32_t n, const xyzz_t<F> *sum, xyzz_t<F> *bucket)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n)
        put_bucket<F, ACC>(bucket + which[s], xyzz_load(sum + s));
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
template <class F>
__global__ void seg_sum_chunks(const uint32_t *beg, const uint32_t *end, const uint32_t *coff,
                               const uint32_t *chunk_seg, size_t C, const xyzz_t<F> *part,
                               xyzz_t<F> *out)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= C)
        return;
    uint32_t s = chunk_seg[j];
    uint64_t len = end[s] - beg[s], k = coff[s + 1] - coff[s], i = j - coff[s];
    uint32_t b = beg[s] + (uint32_t)(len * i / k), e = beg[s] + (uint32_t)(len * (i + 1) / k);
    xyzz_store(out + j, sum_xyzz(part, b, e));
}

/* Last round: every segment has at most L items; out[s] = their sum. */
template <class F>
__global__ void seg_sum_final(const uint32_t *beg, const uint32_t *end, size_t S,
                              const xyzz_t<F> *part, xyzz_t<F> *out)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= S)
        return;
    xyzz_store(out + s, sum_xyzz(part, beg[s], end[s]));
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

/* Device memory for one MSM, given back together: bumped out of the
 * caller's scratch (msm_scratch.h) while it has room, else cz_cuda_malloc'd. */
struct arena {
    cz_cuda_scratch *sc;
    size_t mark; /* sc->used when the arena began */
    void *p[ARENA_MAX];
    int n;
};

static arena arena_on(cz_cuda_scratch *sc)
{
    arena a;
    memset(&a, 0, sizeof a);
    a.sc = sc;
    a.mark = sc ? sc->used : 0;
    return a;
}

static size_t align_up(size_t b) { return (b + 255) & ~(size_t)255; }

static int arena_alloc(arena *a, void **out, size_t bytes)
{
    *out = NULL;
    if (!bytes)
        bytes = 16;
    if (a->sc) {
        size_t at = align_up(a->sc->used);
        if (at <= a->sc->size && bytes <= a->sc->size - at) {
            *out = a->sc->base + at;
            a->sc->used = at + bytes;
            if (a->sc->used > a->sc->peak)
                a->sc->peak = a->sc->used;
            return CZ_OK;
        }
        a->sc->spills++;
        if (getenv("CZ_CUDA_DEBUG"))
            fprintf(stderr, "cuzk msm: scratch full (%zu of %zu used), %zu bytes allocated\n",
                    a->sc->used, a->sc->size, bytes);
    }
    int rc = a->n == ARENA_MAX ? CZ_ERR_NOMEM : cz_cuda_malloc(out, bytes, CZ_BUF_SCRATCH);
    if (!rc)
        a->p[a->n++] = *out;
    else if (getenv("CZ_CUDA_DEBUG"))
        fprintf(stderr, "cuzk msm: device allocation %d of %zu bytes failed: %s\n", a->n, bytes,
                cz_strerror(rc));
    return rc;
}

/* Stream-ordered: what is queued on the default stream after this may
 * reuse the scratch at once; cz_cuda_free'd buffers wait for the device. */
static void arena_free(arena *a)
{
    if (a->sc)
        a->sc->used = a->mark;
    for (int i = 0; i < a->n; i++)
        cz_cuda_free(a->p[i]);
    a->n = 0;
}

static unsigned blocks_of(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

static unsigned blocks_for(size_t n) { return blocks_of(n, MSM_THREADS); }

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

/* out[s] = sum of segment s, the XYZZ points part[beg[s] .. end[s]), in
 * rounds of chunks of at most L1 points. */
template <class F>
static int seg_sum(arena *ar, const uint32_t *beg, const uint32_t *end, size_t S,
                   const xyzz_t<F> *part, xyzz_t<F> *out)
{
    const uint32_t *cur_beg = beg, *cur_end = end;
    const xyzz_t<F> *cur = part;
    uint32_t *nchunk, *coff, *stats, *chunk_seg;
    int rc = arena_alloc(ar, (void **)&nchunk, (S + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(ar, (void **)&coff, (S + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(ar, (void **)&stats, sizeof(uint32_t));
    while (!rc) {
        uint32_t big = 0, C = 0;
        rc = cuda_err(cudaMemset(stats, 0, sizeof(uint32_t)));
        if (!rc)
            rc = cuda_err(cudaMemset(nchunk + S, 0, sizeof(uint32_t)));
        if (!rc) {
            seg_chunks<<<blocks_for(S), MSM_THREADS>>>(cur_beg, cur_end, S, MSM_L1, nchunk,
                                                       stats);
            rc = cuda_err(cudaGetLastError());
        }
        if (!rc)
            rc = cuda_err(cudaMemcpy(&big, stats, sizeof big, cudaMemcpyDeviceToHost));
        if (rc)
            break;
        if (!big) { /* every segment fits one thread */
            seg_sum_final<F><<<blocks_for(S), MSM_THREADS>>>(cur_beg, cur_end, S, cur, out);
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
        seg_sum_chunks<F>
            <<<blocks_for(C), MSM_THREADS>>>(cur_beg, cur_end, coff, chunk_seg, C, cur, next);
        if ((rc = cuda_err(cudaGetLastError())))
            break;
        /* the partials are the next round's items, segment s's at
         * [coff[s], coff[s + 1]) */
        uint32_t *noff;
        if ((rc = arena_alloc(ar, (void **)&noff, (S + 1) * sizeof(uint32_t))) ||
            (rc = cuda_err(
                 cudaMemcpy(noff, coff, (S + 1) * sizeof(uint32_t), cudaMemcpyDeviceToDevice))))
            break;
        cur_beg = noff;
        cur_end = noff + 1;
        cur = next;
    }
    return rc;
}

/* Step 3 for dense scalars (a digit in most windows: H's, a dense
 * witness's): each window's (key, value) pairs sorted by key (cub's radix
 * sort on c bits) instead of placed with one atomic each.  The place
 * kernel's atomics return a value, which the L2 serves at ~12 G/s where the
 * count kernel's, returning nothing, run at ~74 G/s: ~150 ms of the 177 ms
 * sort of a 2^27 MSM at c = 20 (docs/gpu-kernels.md).  Window w's sorted
 * values, its zero digits' sorted last and left out, go to item[boff[w B]
 * ..); the order inside a bucket is the sort's, the sums the same points.
 * Its buffers come and go within the call (radix_bytes). */
static int radix_place(cz_cuda_scratch *sc, const digit_args &da, const uint32_t *boff,
                       uint32_t B, uint32_t *item)
{
    size_t n = da.n, tb = 0;
    unsigned W = da.W, c = da.c;
    arena ar = arena_on(sc);
    uint32_t *start = (uint32_t *)malloc((W + 1) * sizeof(uint32_t)), *kb[2], *vb[2];
    const fr_t *kc = da.k;
    uint8_t *carry = NULL;
    void *tmp = NULL;
    int rc = start ? CZ_OK : CZ_ERR_NOMEM;
    if (!rc) /* boff[w B] for w <= W: the windows' first items */
        rc = cuda_err(cudaMemcpy2D(start, sizeof(uint32_t), boff, (size_t)B * sizeof(uint32_t),
                                   sizeof(uint32_t), W + 1, cudaMemcpyDeviceToHost));
    if (!rc && da.mont) {
        fr_t *conv;
        rc = arena_alloc(&ar, (void **)&conv, n * sizeof(fr_t));
        if (!rc) {
            canonical_scalars<<<blocks_for(n), MSM_THREADS>>>(da, conv);
            rc = cuda_err(cudaGetLastError());
            kc = conv;
        }
    }
    if (!rc)
        rc = arena_alloc(&ar, (void **)&carry, n);
    for (int j = 0; j < 2 && !rc; j++)
        if (!(rc = arena_alloc(&ar, (void **)&kb[j], n * sizeof(uint32_t))))
            rc = arena_alloc(&ar, (void **)&vb[j], n * sizeof(uint32_t));
    cub::DoubleBuffer<uint32_t> dk(rc ? NULL : kb[0], rc ? NULL : kb[1]),
        dv(rc ? NULL : vb[0], rc ? NULL : vb[1]);
    if (!rc)
        rc = cuda_err(cub::DeviceRadixSort::SortPairs(NULL, tb, dk, dv, (int)n, 0, (int)c));
    if (!rc)
        rc = arena_alloc(&ar, &tmp, tb);
    for (unsigned w = 0; w < W && !rc; w++) {
        window_pairs<<<blocks_for(n), MSM_THREADS>>>(kc, n, c, w, carry, dk.Current(),
                                                     dv.Current());
        rc = cuda_err(cudaGetLastError());
        if (!rc)
            rc = cuda_err(cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dv, (int)n, 0, (int)c));
        if (!rc && start[w + 1] > start[w])
            rc = cuda_err(cudaMemcpyAsync(item + start[w], dv.Current(),
                                          (size_t)(start[w + 1] - start[w]) * sizeof(uint32_t),
                                          cudaMemcpyDeviceToDevice, 0));
    }
    arena_free(&ar); /* stream-ordered: later work on the stream may reuse it */
    free(start);
    return rc;
}

/* Items per thread in step 4 for total items: enough threads for the
 * device (want, launch_shape) within [MSM_CHUNK_MIN, MSM_CHUNK_MAX]. */
static uint32_t chunk_len(uint64_t total, uint32_t want)
{
    uint64_t l = total / want;
    return l < MSM_CHUNK_MIN ? MSM_CHUNK_MIN : l > MSM_CHUNK_MAX ? MSM_CHUNK_MAX : (uint32_t)l;
}

/* sc's pause, if any, once the default stream's work has ended. */
static int pause_point(cz_cuda_scratch *sc)
{
    if (!sc || !sc->pause)
        return CZ_OK;
    int rc = cuda_err(cudaStreamSynchronize(0));
    if (!rc)
        sc->pause(sc->pause_ctx);
    return rc;
}

/* Step 4: bucket[b] for b < nb from the total sorted items (offsets off),
 * or with ACC added to what bucket[b] holds, in the device's shape ls;
 * with a pause in sc, the chunks go in two launches with the pause
 * between them. */
template <class F, bool ACC>
static int bucket_sums(arena *ar, const uint32_t *off, size_t nb, uint32_t total,
                       const affine_t<F> *bases, const uint32_t *item, xyzz_t<F> *bucket,
                       cz_cuda_scratch *sc, const launch_shape &ls)
{
    int rc = CZ_OK;
    if (!ACC) {
        fill_inf<F><<<blocks_for(nb), MSM_THREADS>>>(bucket, nb);
        rc = cuda_err(cudaGetLastError());
    }
    if (rc || !total)
        return rc ? rc : pause_point(sc);
    uint32_t L = chunk_len(total, ls.want), n = 0;
    size_t K = ((size_t)total + L - 1) / L;
    xyzz_t<F> *part, *sum;
    uint32_t *flag, *rank, *which, *sbeg, *send;
    if ((rc = arena_alloc(ar, (void **)&part, 2 * K * sizeof(xyzz_t<F>))) ||
        (rc = arena_alloc(ar, (void **)&flag, (nb + 1) * sizeof(uint32_t))) ||
        (rc = arena_alloc(ar, (void **)&rank, (nb + 1) * sizeof(uint32_t))))
        return rc;
    bool split = sc && sc->pause;
    unsigned tpb = acc_slot<F>::bytes ? ls.g2_threads : MSM_THREADS;
    size_t half = split ? K / 2 : K, smem = acc_slot<F>::bytes * tpb;
    if (smem && (rc = cuda_err(cudaFuncSetAttribute(chunk_sums<F, ACC>,
                                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    (int)smem))))
        return rc;
    if (half)
        chunk_sums<F, ACC><<<blocks_of(half, tpb), tpb, smem>>>(off, (uint32_t)nb, total, L, 0,
                                                                half, bases, item, bucket, part);
    if (split) {
        if ((rc = cuda_err(cudaGetLastError())) || (rc = pause_point(sc)))
            return rc;
        chunk_sums<F, ACC><<<blocks_of(K - half, tpb), tpb, smem>>>(
            off, (uint32_t)nb, total, L, half, K, bases, item, bucket, part);
    }
    crossing<<<blocks_for(nb), MSM_THREADS>>>(off, nb, L, flag);
    if ((rc = cuda_err(cudaGetLastError())) ||
        (rc = cuda_err(cudaMemset(flag + nb, 0, sizeof(uint32_t)))) ||
        (rc = scan_counts(ar, flag, rank, nb, &n)) || !n)
        return rc;
    if ((rc = arena_alloc(ar, (void **)&which, (size_t)n * sizeof(uint32_t))) ||
        (rc = arena_alloc(ar, (void **)&sbeg, (size_t)n * sizeof(uint32_t))) ||
        (rc = arena_alloc(ar, (void **)&send, (size_t)n * sizeof(uint32_t))) ||
        (rc = arena_alloc(ar, (void **)&sum, (size_t)n * sizeof(xyzz_t<F>))))
        return rc;
    crossing_list<<<blocks_for(nb), MSM_THREADS>>>(off, nb, L, flag, rank, which, sbeg, send);
    if ((rc = cuda_err(cudaGetLastError())) || (rc = seg_sum<F>(ar, sbeg, send, n, part, sum)))
        return rc;
    scatter<F, ACC><<<blocks_for(n), MSM_THREADS>>>(which, n, sum, bucket);
    return cuda_err(cudaGetLastError());
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
        cudaStreamSynchronize(0);
        clock_gettime(CLOCK_MONOTONIC, &p->t[p->n]);
    }
    p->n++;
}

static void prof_report(const prof *p, const char *g, size_t n, unsigned c, unsigned W, unsigned L,
                        bool radix)
{
    if (!p->on || p->n < 5)
        return;
    double ms[4];
    for (int i = 0; i < 4; i++)
        ms[i] = (double)(p->t[i + 1].tv_sec - p->t[i].tv_sec) * 1e3 +
                (double)(p->t[i + 1].tv_nsec - p->t[i].tv_nsec) / 1e6;
    fprintf(stderr,
            "msm %s n %zu window %u x %u, chunks of %u: sort (%s) %.2f ms, bucket sums %.2f ms, "
            "reduce %.2f ms, host %.2f ms\n",
            g, n, c, W, L, radix ? "radix" : "atomic", ms[0], ms[1], ms[2], ms[3]);
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

/* An MSM's window c, its W windows of B buckets, T reduction slices per
 * window. */
struct shape {
    unsigned c, W, T;
    uint32_t B;
};

/* c: the forced window, 0 for pick_window's.  Slices per window: up to 256
 * (at least 2 buckets each), more while the W T threads are under 32 K and
 * slices keep 16 buckets: with 256 a window of 2^17 or 2^19 buckets left a
 * few thousand threads walking 512 to 2048 buckets each (18 and 69 ms at
 * c = 18 and 20). */
static shape shape_of(size_t n, unsigned c)
{
    shape s;
    s.c = c ? c : pick_window(n);
    s.W = (256 + s.c - 1) / s.c;
    s.B = (uint32_t)1 << (s.c - 1);
    s.T = 1;
    while (s.T * 2 <= s.B &&
           (s.T < 256 || ((uint64_t)s.W * s.T < 32768 && s.T * 2 <= s.B / 16)))
        s.T *= 2;
    return s;
}

/* Steps 1 to 4 for the da.n points of bases (bases[i] with scalar i of
 * da.k): their digits sorted into sh's buckets, then summed into *bucket
 * (ACC: added to what it holds, for the chunks after the first of a
 * chunked MSM).  *bucket NULL: allocated from ar once the sort's buffers
 * are (a whole MSM's order, msm_scratch's bound).  Sets the profile marks
 * after the sort and after the sums, and *L and *radix for its report. */
template <class F, bool ACC>
static int sort_sum(arena *ar, const shape &sh, const digit_args &da, const affine_t<F> *bases,
                    xyzz_t<F> **bucket, cz_cuda_scratch *sc, prof *pf, uint32_t *L, bool *radix,
                    const launch_shape &ls)
{
    size_t n = da.n, nb = (size_t)sh.W * sh.B;
    uint32_t *count, *boff, *item, total = 0;
    int rc = arena_alloc(ar, (void **)&count, (nb + 1) * sizeof(uint32_t));
    if (!rc)
        rc = arena_alloc(ar, (void **)&boff, (nb + 1) * sizeof(uint32_t));
    if (!rc)
        rc = cuda_err(cudaMemset(count, 0, (nb + 1) * sizeof(uint32_t)));
    if (!rc) {
        msm_count<<<blocks_for(n), MSM_THREADS>>>(da, count);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = scan_counts(ar, count, boff, nb, &total);
    if (!rc)
        rc = arena_alloc(ar, (void **)&item, (size_t)total * sizeof(uint32_t));
    /* dense: a digit in more than half of the windows on average */
    bool dense = n >= MSM_RADIX_MIN && 2 * (uint64_t)total > (uint64_t)sh.W * n;
    if (!rc && dense)
        rc = radix_place(sc, da, boff, sh.B, item);
    if (!rc && !dense) /* count becomes the cursor of step 3; boff keeps the offsets */
        rc = cuda_err(
            cudaMemcpy(count, boff, (nb + 1) * sizeof(uint32_t), cudaMemcpyDeviceToDevice));
    if (!rc && !dense) {
        msm_place<<<blocks_for(n), MSM_THREADS>>>(da, count, item);
        rc = cuda_err(cudaGetLastError());
    }
    prof_mark(pf); /* digits counted, sorted into buckets */
    if (!rc && !*bucket)
        rc = arena_alloc(ar, (void **)bucket, nb * sizeof(xyzz_t<F>));
    if (!rc)
        rc = pause_point(sc);
    if (!rc)
        rc = bucket_sums<F, ACC>(ar, boff, nb, total, bases, item, *bucket, sc, ls);
    prof_mark(pf); /* buckets summed */
    *L = chunk_len(total, ls.want);
    *radix = dense;
    return rc;
}

/* Steps 5 and 6: out = sum_w 2^(c w) S_w from sh's buckets; the profile
 * mark once the window sums are on the host. */
template <class F>
static int reduce(arena *ar, const shape &sh, const xyzz_t<F> *bucket,
                  typename host_curve<F>::jac *out, prof *pf)
{
    typedef host_curve<F> H;
    unsigned c = sh.c, W = sh.W, T = sh.T;
    xyzz_t<F> *slice, *wsum;
    uint32_t *soff;
    int rc = arena_alloc(ar, (void **)&slice, (size_t)W * T * sizeof(xyzz_t<F>));
    if (!rc) {
        bucket_slices<F><<<blocks_for((size_t)W * T), MSM_THREADS>>>(bucket, W, sh.B, T, slice);
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
        rc = arena_alloc(ar, (void **)&soff, (W + 1) * sizeof(uint32_t));
    }
    if (!rc)
        rc = cuda_err(cudaMemcpy(soff, hoff, (W + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    if (!rc)
        rc = arena_alloc(ar, (void **)&wsum, W * sizeof(xyzz_t<F>));
    if (!rc)
        rc = seg_sum<F>(ar, soff, soff + 1, W, slice, wsum);
    static_assert(sizeof(xyzz_t<F>) == sizeof(typename H::xyzz), "device and host XYZZ layouts");
    if (!rc)
        rc = cuda_err(cudaMemcpy(hw, wsum, W * sizeof(xyzz_t<F>), cudaMemcpyDeviceToHost));
    prof_mark(pf); /* windows reduced, sums on the host */
    if (!rc) { /* out = sum_w 2^(c w) S_w, Horner from the top window */
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
    return rc;
}

template <class F>
static int msm_run(typename host_curve<F>::jac *out, const void *bases_dev, const cz_fr *k_dev,
                   size_t n, unsigned flags, cz_cuda_scratch *sc)
{
    typedef host_curve<F> H;
    H::inf(out);
    if (n == 0)
        return CZ_OK;
    shape sh = shape_of(n, (flags >> 8) & 31u);
    if ((uint64_t)sh.W * n >= ((uint64_t)1 << 32)) /* item offsets are 32-bit */
        return CZ_ERR_TOO_BIG;
    launch_shape ls;
    int rc = launch_shape_get(&ls);
    if (rc)
        return rc;
    arena ar = arena_on(sc);
    digit_args da = {(const fr_t *)k_dev, n, sh.c, sh.W, !(flags & CZ_MSM_CANONICAL)};
    prof pf = {};
    prof_mark(&pf); /* start */
    xyzz_t<F> *bucket = NULL;
    uint32_t L = 0;
    bool radix = false;
    rc = sort_sum<F, false>(&ar, sh, da, (const affine_t<F> *)bases_dev, &bucket, sc, &pf, &L,
                            &radix, ls);
    if (!rc)
        rc = reduce<F>(&ar, sh, bucket, out, &pf);
    prof_mark(&pf);
    prof_report(&pf, sizeof(F) == sizeof(fp_t) ? "G1" : "G2", n, sh.c, sh.W, L, radix);
    /* this stream only: work on the proof's other streams goes on */
    cudaError_t e = cudaStreamSynchronize(0);
    arena_free(&ar);
    return rc ? rc : cuda_err(e);
}

/* The scalars of the set density bits, compacted on the device into
 * compact (n_bases of them); fails with CZ_ERR_INVALID_ARG when the set
 * bits among the first n are not n_bases.  Temporaries from sc. */
static int density_scalars(fr_t *compact, const uint64_t *dens, size_t n, const cz_fr *k,
                           size_t n_bases, cz_cuda_scratch *sc)
{
    arena ar = arena_on(sc);
    size_t words = (n + 63) / 64;
    uint32_t *wcount, *woff, total = 0;
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
    if (!rc && n) {
        density_compact<<<blocks_for(n), MSM_THREADS>>>(dens, n, woff, (const fr_t *)k, compact);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = cuda_err(cudaStreamSynchronize(0));
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

/* density NULL: the n_bases scalars as they are; else the n_scalars
 * scalars compacted by density first (into sc's or the arena's memory). */
template <class F>
static int msm_density(typename host_curve<F>::jac *out, const void *bases_dev, size_t n_bases,
                       const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                       unsigned flags, cz_cuda_scratch *sc)
{
    int rc = check_args(out, bases_dev, scalars_dev, n_bases, flags);
    if (rc || !density_dev)
        return rc ? rc : msm_run<F>(out, bases_dev, scalars_dev, n_bases, flags, sc);
    if (n_scalars && !scalars_dev)
        return CZ_ERR_INVALID_ARG;
    arena ar = arena_on(sc);
    fr_t *k = NULL;
    rc = arena_alloc(&ar, (void **)&k, n_bases * sizeof(fr_t));
    if (!rc)
        rc = density_scalars(k, density_dev, n_scalars, scalars_dev, n_bases, sc);
    if (!rc)
        rc = msm_run<F>(out, bases_dev, (const cz_fr *)k, n_bases, flags, sc);
    arena_free(&ar);
    return rc;
}

/* A chunked MSM (msm_scratch.h): the window of all n_bases points (c, 0:
 * pick_window's), one bucket array kept across the chunks, each chunk's
 * digits sorted and summed into it (its scalars compacted by density
 * first), one reduction.  The same point as the MSM of every base at once.
 * With CZ_CUDA_PROFILE=1 its line gives the chunks' sort and sum times
 * added up. */
template <class F>
static int msm_chunked(typename host_curve<F>::jac *out, const cz_cuda_bases *src,
                       const cz_stream_chunk *chunks, size_t count, size_t n_bases,
                       const cz_fr *k, const uint64_t *dens, unsigned c, cz_cuda_scratch *sc)
{
    typedef host_curve<F> H;
    H::inf(out);
    if (!out || !src || !src->get || (count && (!chunks || !k)) || c > CZ_MSM_MAX_WINDOW ||
        (c && c < 2) || n_bases >= ((size_t)1 << 31))
        return CZ_ERR_INVALID_ARG;
    shape sh = shape_of(n_bases ? n_bases : 1, c);
    size_t most = 0, covered = 0;
    for (size_t i = 0; i < count; i++) {
        size_t nb = chunks[i].b1 - chunks[i].b0;
        most = nb > most ? nb : most;
        covered += nb;
        if (!dens && chunks[i].s1 - chunks[i].s0 != nb)
            return CZ_ERR_INVALID_ARG;
    }
    if (covered != n_bases)
        return CZ_ERR_INVALID_ARG;
    if ((uint64_t)sh.W * most >= ((uint64_t)1 << 32))
        return CZ_ERR_TOO_BIG;
    if (!n_bases)
        return CZ_OK;
    launch_shape ls;
    int rc = launch_shape_get(&ls);
    if (rc)
        return rc;
    arena ar = arena_on(sc);
    xyzz_t<F> *bucket = NULL;
    size_t nb = (size_t)sh.W * sh.B;
    prof pf = {}, all = {};
    prof_mark(&all); /* start */
    rc = arena_alloc(&ar, (void **)&bucket, nb * sizeof(xyzz_t<F>));
    if (!rc) {
        fill_inf<F><<<blocks_for(nb), MSM_THREADS>>>(bucket, nb);
        rc = cuda_err(cudaGetLastError());
    }
    double ms_sort = 0, ms_sum = 0;
    uint32_t L = 0;
    bool radix = false;
    for (size_t i = 0; i < count && !rc; i++) {
        const cz_stream_chunk &ch = chunks[i];
        size_t n = ch.b1 - ch.b0;
        arena in = arena_on(sc);
        const fr_t *kk = (const fr_t *)k + ch.s0;
        if (dens) {
            fr_t *compact = NULL;
            rc = arena_alloc(&in, (void **)&compact, n * sizeof(fr_t));
            if (!rc)
                rc = density_scalars(compact, dens + ch.s0 / 64, ch.s1 - ch.s0,
                                     (const cz_fr *)kk, n, sc);
            kk = compact;
        }
        const void *bases = NULL;
        if (!rc)
            rc = src->get(src->ctx, i, &bases);
        digit_args da = {kk, n, sh.c, sh.W, true};
        pf = prof{};
        prof_mark(&pf);
        if (!rc)
            rc = sort_sum<F, true>(&in, sh, da, (const affine_t<F> *)bases, &bucket, sc, &pf, &L,
                                   &radix, ls);
        if (pf.on && pf.n >= 3) {
            ms_sort += (double)(pf.t[1].tv_sec - pf.t[0].tv_sec) * 1e3 +
                       (double)(pf.t[1].tv_nsec - pf.t[0].tv_nsec) / 1e6;
            ms_sum += (double)(pf.t[2].tv_sec - pf.t[1].tv_sec) * 1e3 +
                      (double)(pf.t[2].tv_nsec - pf.t[1].tv_nsec) / 1e6;
        }
        if (src->done) /* queued after the sums read the chunk's bases */
            src->done(src->ctx, i);
        arena_free(&in);
    }
    prof_mark(&all); /* every chunk sorted and summed */
    if (!rc)
        rc = reduce<F>(&ar, sh, bucket, out, &all);
    prof_mark(&all);
    if (all.on && all.n >= 4)
        fprintf(stderr,
                "msm %s n %zu window %u x %u, %zu chunks of at most %zu: sort (%s) %.2f ms, "
                "bucket sums %.2f ms, reduce %.2f ms\n",
                sizeof(F) == sizeof(fp_t) ? "G1" : "G2", n_bases, sh.c, sh.W, count, most,
                radix ? "radix" : "atomic", ms_sort, ms_sum,
                (double)(all.t[2].tv_sec - all.t[1].tv_sec) * 1e3 +
                    (double)(all.t[2].tv_nsec - all.t[1].tv_nsec) / 1e6);
    cudaError_t e = cudaStreamSynchronize(0);
    arena_free(&ar);
    if (rc)
        H::inf(out);
    return rc ? rc : cuda_err(e);
}

/* ------------------------------------------- scratch bound (msm_scratch.h) */

static size_t scan_temp(size_t n)
{
    size_t t = 0;
    cub::DeviceScan::ExclusiveSum(NULL, t, (const uint32_t *)NULL, (uint32_t *)NULL, (int)n + 1);
    return align_up(t);
}

/* What seg_sum takes for S segments of items in all, none longer than
 * longest (the rounds go on while a segment is longer than L1, each making
 * at most items / L1 + S chunks). */
static size_t seg_sum_bytes(size_t S, size_t items, size_t longest, size_t X)
{
    size_t b = 2 * align_up((S + 1) * 4) + align_up(4);
    for (; longest > MSM_L1; longest = (longest + MSM_L1 - 1) / MSM_L1) {
        size_t C = items / MSM_L1 + S + 1;
        b += scan_temp(S) + align_up(4 * C) + align_up(X * C) + align_up(4 * (S + 1));
        items = C;
    }
    return b;
}

/* What bucket_sums takes for at most items sorted items of n points in nb
 * buckets: K chunks (chunk_len: K is at most items / MSM_CHUNK_MAX + 1, or
 * about want when chunks are shorter), two partials each, at most K
 * crossing buckets, each with at most 2 (n / MSM_CHUNK_MIN + 2) partials
 * (a bucket holds at most n items). */
static size_t bucket_sums_bytes(size_t n, size_t nb, size_t items, size_t X, uint32_t want)
{
    size_t K = items / MSM_CHUNK_MAX + 1, k2 = (size_t)want * 65 / 64 + 1;
    K = K > k2 ? K : k2;
    size_t nc = K < nb ? K : nb, longest = 2 * (n / MSM_CHUNK_MIN + 2);
    longest = longest < 2 * K ? longest : 2 * K;
    return align_up(2 * K * X) + 2 * align_up((nb + 1) * 4) + scan_temp(nb) +
           3 * align_up(4 * nc) + align_up(nc * X) + seg_sum_bytes(nc, 2 * K, longest, X);
}

/* What radix_place takes for n points at window c: the canonical scalars,
 * the carries, two key and two value buffers, cub's temporary storage. */
static size_t radix_bytes(size_t n, unsigned c)
{
    if (n < MSM_RADIX_MIN)
        return 0;
    size_t t = 0;
    cub::DoubleBuffer<uint32_t> k(NULL, NULL), v(NULL, NULL);
    cub::DeviceRadixSort::SortPairs(NULL, t, k, v, (int)n, 0, (int)c);
    return align_up(n * sizeof(fr_t)) + align_up(n) + 4 * align_up(n * 4) + align_up(t);
}

/* What sort_sum takes for n points of shape sh: the counts and offsets,
 * the items, then the larger of the radix sort's buffers and the bucket
 * sums' (the bucket array apart). */
static size_t sort_sum_bytes(size_t n, const shape &sh, size_t X, uint32_t want)
{
    size_t W = sh.W, nb = W * sh.B, items = W * n;
    size_t head = 2 * align_up((nb + 1) * 4) + scan_temp(nb) + align_up(items * 4);
    size_t sums = bucket_sums_bytes(n, nb, items, X, want), radix = radix_bytes(n, sh.c);
    return head + (sums > radix ? sums : radix);
}

/* What reduce takes: the slices, their offsets and the window sums. */
static size_t reduce_bytes(const shape &sh, size_t X)
{
    size_t W = sh.W, T = sh.T;
    return align_up(W * T * X) + align_up((W + 1) * 4) + align_up(W * X) +
           seg_sum_bytes(W, W * T, T, X);
}

/* msm_run's allocations for n points, window c (0: the default), point
 * size X (XYZZ), on a device whose bucket sums aim at want threads:
 * sort_sum's, the buckets (allocated after the sort's buffers, which the
 * radix sort gives back first) and the reduction. */
static size_t run_bytes(size_t n, unsigned c, size_t X, uint32_t want)
{
    if (!n)
        return 0;
    shape sh = shape_of(n, c);
    size_t W = sh.W, nb = W * sh.B, items = W * n;
    size_t head = 2 * align_up((nb + 1) * 4) + scan_temp(nb) + align_up(items * 4);
    size_t tail = align_up(nb * X) + bucket_sums_bytes(n, nb, items, X, want) + reduce_bytes(sh, X);
    size_t radix = radix_bytes(n, sh.c); /* given back before the tail's buffers */
    return head + (tail > radix ? tail : radix);
}

/* density compaction of n_scalars scalars to n bases */
static size_t density_bytes(size_t n, size_t n_scalars)
{
    size_t words = (n_scalars + 63) / 64;
    return align_up(n * sizeof(fr_t)) + 2 * align_up((words + 1) * 4) + scan_temp(words);
}

extern "C" size_t cz_cuda_msm_scratch_bytes(size_t n, bool g2, bool density, size_t n_scalars,
                                            unsigned c, size_t sort)
{
    size_t X = g2 ? sizeof(xyzz_t<fp2_t>) : sizeof(xyzz_t<fp_t>);
    launch_shape ls;
    launch_shape_get(&ls); /* the current device's, as its MSMs will use */
    if (sort >= n) {
        size_t b = run_bytes(n, c, X, ls.want);
        return b + (density ? density_bytes(n, n_scalars) : 0) + 4096;
    }
    /* chunked: the buckets kept, a chunk's compaction and sort_sum, or the
     * reduction; a density chunk's scalar range is at most all scalars */
    shape sh = shape_of(n, c);
    size_t chunk =
        sort_sum_bytes(sort, sh, X, ls.want) + (density ? density_bytes(sort, n_scalars) : 0);
    size_t red = reduce_bytes(sh, X);
    return align_up((size_t)sh.W * sh.B * X) + (chunk > red ? chunk : red) + 4096;
}

extern "C" {

int cz_cuda_scratch_alloc(cz_cuda_scratch *s, size_t bytes)
{
    memset(s, 0, sizeof *s);
    int rc = cz_cuda_malloc((void **)&s->base, bytes, CZ_BUF_SCRATCH);
    if (!rc)
        s->size = bytes;
    return rc;
}

void cz_cuda_scratch_free(cz_cuda_scratch *s)
{
    cz_cuda_free(s->base);
    memset(s, 0, sizeof *s);
}

int cz_cuda_g1_msm_scratch(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev,
                           size_t n_scalars, unsigned c, cz_cuda_scratch *sc)
{
    return msm_density<fp_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars,
                             CZ_MSM_WINDOW(c), sc);
}

int cz_cuda_g2_msm_scratch(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev,
                           size_t n_scalars, unsigned c, cz_cuda_scratch *sc)
{
    return msm_density<fp2_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars,
                              CZ_MSM_WINDOW(c), sc);
}

int cz_cuda_g1_msm_chunked(cz_g1 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc)
{
    return msm_chunked<fp_t>(out, src, chunks, count, n_bases, scalars_dev, density_dev, c, sc);
}

int cz_cuda_g2_msm_chunked(cz_g2 *out, const cz_cuda_bases *src, const cz_stream_chunk *chunks,
                           size_t count, size_t n_bases, const cz_fr *scalars_dev,
                           const uint64_t *density_dev, unsigned c, cz_cuda_scratch *sc)
{
    return msm_chunked<fp2_t>(out, src, chunks, count, n_bases, scalars_dev, density_dev, c, sc);
}

} /* extern "C" */

extern "C" {

int cz_cuda_g1_msm(cz_g1 *out, const cz_g1_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    int rc = check_args(out, bases_dev, scalars_dev, n, flags);
    return rc ? rc : msm_run<fp_t>(out, bases_dev, scalars_dev, n, flags, NULL);
}

int cz_cuda_g2_msm(cz_g2 *out, const cz_g2_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags)
{
    int rc = check_args(out, bases_dev, scalars_dev, n, flags);
    return rc ? rc : msm_run<fp2_t>(out, bases_dev, scalars_dev, n, flags, NULL);
}

int cz_cuda_g1_msm_density(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    if (!density_dev && (n_scalars || n_bases))
        return CZ_ERR_INVALID_ARG;
    return msm_density<fp_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars, flags,
                             NULL);
}

int cz_cuda_g2_msm_density(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags)
{
    if (!density_dev && (n_scalars || n_bases))
        return CZ_ERR_INVALID_ARG;
    return msm_density<fp2_t>(out, bases_dev, n_bases, scalars_dev, density_dev, n_scalars, flags,
                              NULL);
}

} /* extern "C" */
