/* The issue rates of the multiplies that the field products use, measured
 * directly (docs/gpu-kernels.md "Arithmetic bounds": a 32 x 32 -> 64
 * IMAD.WIDE.U32 costs the multiplier two lanes; the FP64 pipe runs beside
 * it).  Built as the target imad-rate with the CUDA back end; run on the
 * GPU machine: `build/.../imad-rate`.
 *
 * Each kernel runs 8 independent chains a thread, each product's
 * multiplier taken from the previous sum so that ptxas cannot hoist the
 * product out of the loop (it does when the operands are loop-invariant,
 * even in asm volatile), so it measures throughput, given as operations
 * per SM and cycle at the device's maximum SM clock (a lower bound when
 * the clock runs below it) and against IMAD's.  The CUDA guide's peak for
 * compute capability 9.0 is 64 for 32-bit integer multiply-add and 64
 * for FP64 fused multiply-add: a kernel near 64 has the lanes to itself,
 * one near 32 costs two lanes an operation.  Check the SASS
 * (cuobjdump -sass) before reading a row: one instruction an operation. */
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define CHAINS 8
#define ITERS  (1 << 17)

enum { WIDE, LO32, HI32, CHAIN, DFMA, MIX, MAC6 };

template <int K> __global__ void rate(uint64_t *out, uint32_t b)
{
    uint32_t a[CHAINS];
    uint64_t acc[CHAINS];
    uint32_t lo[CHAINS], hi[CHAINS];
    double d[CHAINS], db = 1.0000001;
    uint32_t m[2][13] = {};
#pragma unroll
    for (int j = 0; j < CHAINS; j++) {
        a[j] = threadIdx.x * 2654435761u + j * 40503u + 1;
        acc[j] = j;
        lo[j] = j;
        hi[j] = 0;
        d[j] = a[j] * 1e-9;
    }
#pragma unroll 4
    for (int i = 0; i < ITERS; i++) {
#pragma unroll
        for (int j = 0; j < CHAINS; j++) {
            /* each product's multiplier is the previous sum's low word */
            if (K == WIDE) { /* IMAD.WIDE.U32: a 64-bit product added to a 64-bit sum */
                asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(acc[j]) : "r"(a[j]), "r"(b));
                a[j] = (uint32_t)acc[j];
            }
            if (K == LO32) { /* IMAD: the low 32 bits */
                asm volatile("mad.lo.u32 %0, %1, %2, %0;" : "+r"(lo[j]) : "r"(a[j]), "r"(b));
                a[j] = lo[j];
            }
            if (K == HI32) { /* IMAD.HI.U32: the high 32 bits */
                asm volatile("mad.hi.u32 %0, %1, %2, %0;" : "+r"(lo[j]) : "r"(a[j]), "r"(b));
                a[j] = lo[j];
            }
            if (K == CHAIN) { /* the field products' pair: a 64-bit product into two words */
                asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.u32 %1, %2, %3, %1;"
                             : "+r"(lo[j]), "+r"(hi[j])
                             : "r"(a[j]), "r"(b));
                a[j] = hi[j];
            }
            if (K == DFMA) /* DFMA: the FP64 pipe */
                asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d[j]) : "d"(db));
            /* fp_mac6's chain, two of them: 6 products into 13 words, carries in and out */
            if (K == MAC6 && j < 2)
                asm volatile(
                    "mad.lo.cc.u32 %0, %13, %19, %0;\n\tmadc.hi.cc.u32 %1, %13, %19, %1;\n\t"
                    "madc.lo.cc.u32 %2, %14, %19, %2;\n\tmadc.hi.cc.u32 %3, %14, %19, %3;\n\t"
                    "madc.lo.cc.u32 %4, %15, %19, %4;\n\tmadc.hi.cc.u32 %5, %15, %19, %5;\n\t"
                    "madc.lo.cc.u32 %6, %16, %19, %6;\n\tmadc.hi.cc.u32 %7, %16, %19, %7;\n\t"
                    "madc.lo.cc.u32 %8, %17, %19, %8;\n\tmadc.hi.cc.u32 %9, %17, %19, %9;\n\t"
                    "madc.lo.cc.u32 %10, %18, %19, %10;\n\tmadc.hi.cc.u32 %11, %18, %19, %11;\n\t"
                    "addc.u32 %12, %12, 0;"
                    : "+r"(m[j][0]), "+r"(m[j][1]), "+r"(m[j][2]), "+r"(m[j][3]), "+r"(m[j][4]),
                      "+r"(m[j][5]), "+r"(m[j][6]), "+r"(m[j][7]), "+r"(m[j][8]), "+r"(m[j][9]),
                      "+r"(m[j][10]), "+r"(m[j][11]), "+r"(m[j][12])
                    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]),
                      "r"(m[j][6]));
            if (K == MIX) { /* one IMAD.WIDE and one DFMA a chain: do the pipes overlap? */
                asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(acc[j]) : "r"(a[j]), "r"(b));
                a[j] = (uint32_t)acc[j];
                asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d[j]) : "d"(db));
            }
        }
    }
    uint64_t s = 0;
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        s += acc[j] + lo[j] + ((uint64_t)hi[j] << 32) + (uint64_t)(d[j] > 2.0) + m[j & 1][j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int K> static double measure(const char *name, int sms, double ghz, double base)
{
    const int threads = 256, blocks = sms * 8;
    uint64_t *out;
    if (cudaMalloc(&out, sizeof(uint64_t) * threads * blocks) != cudaSuccess) {
        printf("%s: no device memory\n", name);
        return 0;
    }
    rate<K><<<blocks, threads>>>(out, 0x9e3779b9u); /* warm-up */
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0);
    rate<K><<<blocks, threads>>>(out, 0x9e3779b9u);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    /* operations: 64-bit products (and DFMAs); MAC6: 2 chains of 6 */
    double ops = (double)threads * blocks * ITERS * (K == MAC6 ? 12 : CHAINS * (K == MIX ? 2 : 1));
    double per = ops / sms / (ms * 1e-3 * ghz * 1e9);
    printf("%-6s %8.3f ms  %8.1f G op/s  %6.1f op per SM and cycle at %.2f GHz  %5.2f x IMAD's\n",
           name, ms, ops / (ms * 1e6), per, ghz, base ? per / base : 1.0);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        printf("%s: %s\n", name, cudaGetErrorString(err));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(out);
    return per;
}

int main(void)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        printf("imad-rate: no CUDA device\n");
        return 1;
    }
    int khz = 0, sms = p.multiProcessorCount;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    double ghz = khz * 1e-6;
    printf("%s, %d SMs, maximum SM clock %.2f GHz\n", p.name, sms, ghz);
    double imad = measure<LO32>("imad", sms, ghz, 0);
    measure<WIDE>("wide", sms, ghz, imad);
    measure<HI32>("hi", sms, ghz, imad);
    measure<CHAIN>("chain", sms, ghz, imad);
    measure<MAC6>("mac6", sms, ghz, imad);
    measure<DFMA>("dfma", sms, ghz, imad);
    measure<MIX>("mix", sms, ghz, imad);
    return 0;
}
