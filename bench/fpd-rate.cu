/* Fp products a second on the integer pipe (fp.cuh's fp_mul), on the FP64
 * pipe (bench/fpd.h's fpd_mul_limbs) and on both at once, each thread carrying
 * two independent chains x <- x y (docs/gpu-kernels.md item 10: does the
 * FP64 pipe add a second multiplier to the bucket sums?).  Built as the
 * target fpd-rate with the CUDA back end; run on the GPU machine.
 *
 * Kinds: int (both chains fp_mul), fpd (both fpd_mul_limbs, the limbs
 * turned back into doubles after each product, unreduced), split (one
 * chain each), splitc (as split, but the FP64 chain's product a drop-in
 * fp_mul: canonical fp_t in and out, converted each time).  Each at two
 * register budgets: __launch_bounds__(128, 1) (free) and (128, 4) (at most
 * 128 registers, the G1 bucket sums' cap).
 *
 * Checked before it is timed: every chain of every kind ends on the same
 * canonical value as int's (fp_mul is checked against the CPU by
 * test_cuda_ec), and the first threads' chains are recomputed on the host
 * with fpd.h's exact model of the FP64 instructions; a mismatch fails the
 * run.  `fpd-rate [iterations]` (default 1024 products a chain). */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cuda/fp.cuh"
#include "fpd.h"

enum { INT, FPD, SPLIT, SPLITC };
static const char *const KIND_NAME[] = {"int", "fpd", "split", "splitc"};

__device__ __forceinline__ void words_of(uint64_t w[6], const fp_t &a)
{
#pragma unroll
    for (int i = 0; i < 6; i++)
        w[i] = a.l[2 * i] | (uint64_t)a.l[2 * i + 1] << 32;
}

__device__ __forceinline__ fp_t fp_of_words(const uint64_t w[6])
{
    fp_t r;
#pragma unroll
    for (int i = 0; i < 6; i++)
        r.l[2 * i] = (uint32_t)w[i], r.l[2 * i + 1] = (uint32_t)(w[i] >> 32);
    return r;
}

/* in: x1, x2, y a thread; out: the two chains' ends, canonical. */
template <int K, int MINB>
__global__ void __launch_bounds__(128, MINB) chains(const fp_t *in, fp_t *out, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    fp_t x1 = fp_load(in + 3 * t), x2 = fp_load(in + 3 * t + 1), y = fp_load(in + 3 * t + 2);
    uint64_t w[6], l1[8], l2[8];
    fpd_t d1, d2, dy;
    words_of(w, y);
    fpd_from_words(&dy, w);
    words_of(w, x1);
    fpd_from_words(&d1, w);
    words_of(w, x2);
    fpd_from_words(&d2, w);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        if (K != FPD)
            x1 = fp_mul(x1, y);
        else {
            fpd_mul_limbs(l1, &d1, &dy);
            fpd_from_limbs(&d1, l1);
        }
        if (K == INT)
            x2 = fp_mul(x2, y);
        else if (K == SPLITC) {
            words_of(w, x2);
            fpd_from_words(&d2, w);
            fpd_mul_limbs(l2, &d2, &dy);
            fpd_limbs_to_words(w, l2);
            x2 = fp_of_words(w);
        } else {
            fpd_mul_limbs(l2, &d2, &dy);
            fpd_from_limbs(&d2, l2);
        }
    }
    if (K == FPD) {
        fpd_limbs_to_words(w, l1);
        x1 = fp_of_words(w);
    }
    if (K == FPD || K == SPLIT) {
        fpd_limbs_to_words(w, l2);
        x2 = fp_of_words(w);
    }
    fp_store(out + 2 * t, x1);
    fp_store(out + 2 * t + 1, x2);
}

typedef void (*kernel_fn)(const fp_t *, fp_t *, int);
struct variant {
    int kind, minb;
    kernel_fn fn;
};
static const variant VARIANTS[] = {
    {INT, 1, chains<INT, 1>},       {FPD, 1, chains<FPD, 1>},   {SPLIT, 1, chains<SPLIT, 1>},
    {SPLITC, 1, chains<SPLITC, 1>}, {INT, 4, chains<INT, 4>},   {FPD, 4, chains<FPD, 4>},
    {SPLIT, 4, chains<SPLIT, 4>},   {SPLITC, 4, chains<SPLITC, 4>},
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            printf("fpd-rate: %s: %s\n", #call, cudaGetErrorString(e_));                           \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 1024;
    if (iters < 1) {
        printf("fpd-rate: iterations must be at least 1\n");
        return 2;
    }
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int khz = 0, sms = p.multiProcessorCount;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    double ghz = khz * 1e-6;
    const int threads = 128, blocks = sms * 16, n = threads * blocks;
    printf("%s, %d SMs, maximum SM clock %.2f GHz; %d threads, 2 chains of %d products each\n",
           p.name, sms, ghz, n, iters);

    /* inputs: canonical values (the top word below p's) */
    size_t in_bytes = sizeof(fp_t) * 3 * n, out_bytes = sizeof(fp_t) * 2 * n;
    uint64_t *h_in = (uint64_t *)malloc(in_bytes), *ref = (uint64_t *)malloc(out_bytes),
             *h_out = (uint64_t *)malloc(out_bytes);
    if (!h_in || !ref || !h_out) {
        printf("fpd-rate: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < 3 * n; i++) {
        for (int j = 0; j < 6; j++)
            h_in[6 * i + j] = rng();
        h_in[6 * i + 5] %= 0x1a0111ea397fe69aull;
    }
    fp_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, in_bytes));
    CHECK(cudaMalloc(&d_out, out_bytes));
    CHECK(cudaMemcpy(d_in, h_in, in_bytes, cudaMemcpyHostToDevice));

    /* the host's chains for the first threads, through fpd.h's model */
    const int host_threads = 4;
    for (int t = 0; t < host_threads; t++)
        for (int c = 0; c < 2; c++) {
            fpd_t x, y;
            uint64_t l[8];
            fpd_from_words(&x, h_in + 6 * (3 * t + c));
            fpd_from_words(&y, h_in + 6 * (3 * t + 2));
            for (int i = 0; i < iters; i++) {
                fpd_mul_limbs(l, &x, &y);
                fpd_from_limbs(&x, l);
            }
            fpd_limbs_to_words(ref + 6 * (2 * t + c), l);
        }

    int bad = 0;
    for (const variant &v : VARIANTS) {
        cudaFuncAttributes fa;
        int per_sm = 0;
        CHECK(cudaFuncGetAttributes(&fa, v.fn));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.fn, threads, 0));
        float best = 1e30f;
        for (int r = 0; r < 4; r++) { /* the first run checks and warms up */
            cudaEvent_t e0, e1;
            CHECK(cudaEventCreate(&e0));
            CHECK(cudaEventCreate(&e1));
            CHECK(cudaMemset(d_out, 0, out_bytes));
            CHECK(cudaEventRecord(e0));
            v.fn<<<blocks, threads>>>(d_in, d_out, iters);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            CHECK(cudaGetLastError());
            float ms;
            CHECK(cudaEventElapsedTime(&ms, e0, e1));
            cudaEventDestroy(e0);
            cudaEventDestroy(e1);
            if (r == 0) {
                CHECK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost));
                int wrong = 0;
                if (v.kind == INT && v.minb == 1) { /* the reference: the host model agrees */
                    if (memcmp(h_out, ref, sizeof(uint64_t) * 6 * 2 * host_threads) != 0)
                        wrong = 1;
                    memcpy(ref, h_out, out_bytes);
                } else
                    for (int i = 0; i < 2 * n; i++)
                        wrong += memcmp(h_out + 6 * i, ref + 6 * i, 48) != 0;
                if (wrong) {
                    printf("%-6s minB %d: %d chains end on a different value than int's%s\n",
                           KIND_NAME[v.kind], v.minb, wrong,
                           v.kind == INT ? " (or the host model's)" : "");
                    bad = 1;
                }
            } else
                best = std::min(best, ms);
        }
        double products = 2.0 * n * iters;
        printf("%-6s minB %d: %3d registers, %4zu B local, %2d blocks/SM: %8.3f ms  %6.2f G "
               "products/s  %6.3f per SM and cycle\n",
               KIND_NAME[v.kind], v.minb, fa.numRegs, (size_t)fa.localSizeBytes, per_sm, best,
               products / (best * 1e6), products / sms / (best * 1e-3 * ghz * 1e9));
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(ref);
    free(h_out);
    printf(bad ? "fpd-rate: MISMATCH\n" : "fpd-rate: every chain checked\n");
    return bad;
}
