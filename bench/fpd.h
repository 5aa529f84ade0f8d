/* Fp products on the FP64 pipe, the multiplier that the bucket sums leave
 * idle: the experiment of docs/gpu-kernels.md item 10.  Plain C and CUDA
 * in one header: on the device the FP64 instructions themselves, on the
 * host an exact model of them, so that tests/test_fpd.c checks the
 * algorithm's exactness against cz_fp_mul in CI and bench/fpd-rate.cu
 * checks the device's results against fp_mul (fp.cuh) and times both.
 *
 * Measured (an H100, 2026-12-06, BENCHMARKS.md): 27.5 G products a second
 * against fp_mul's 26.4, and one chain of each per thread 28.1: the FP64
 * pipe is as fast as the integer multiplier but does not run beside it,
 * so the kernels keep fp_mul and this stays a benchmark.
 *
 * Representation (fpd_t): eight limbs of 48 bits, each an integer held
 * exactly in a double; the value is sum l[i] 2^(48 i), in Montgomery form
 * with R = 2^384 = 2^(8 x 48), the same R as fp_t and the host's cz_fp,
 * so a value converts by cutting its bits, with no multiply.
 *
 * The product is Montgomery's, by columns with the reduction interleaved
 * (product scanning): column k of a b + m p gathers the low halves of its
 * 48 x 48-bit limb products in L and their high halves, which belong to
 * column k + 1, in H; both are doubles used as exact integer accumulators:
 *
 *   H' = fma_rz(x, y, H)  H = 2^100 + 2^48 h: in [2^100, 2^101) the ulp is
 *                         2^48, so rounding toward zero adds exactly
 *                         2^48 floor(x y / 2^48)
 *   d  = H' - H           exact (both multiples of 2^48 in one binade)
 *   lo = fma(x, y, -d)    exact: x y mod 2^48
 *   L  = L + lo           L = 2^52 + l: in [2^52, 2^53) the ulp is 1, exact
 *
 * four FP64 instructions a 48 x 48-bit product, 2.25 times the work of a
 * 32 x 32 IMAD.WIDE, none on the integer pipe.  The bit patterns hold the
 * integers: l is L's low 52 bits, h is H's.  A column has at most 16
 * products, each half below 2^48, so l and h stay below 2^52 and neither
 * double leaves its binade.  Then per column, on the integer pipe:
 *
 *   T = l + h_(k-1) + carry
 *   k < 8:  t = T mod 2^48, m_k = t (-p^-1) mod 2^48; the product m_k p_0
 *           goes into H only: its low half is 2^48 - t (0 when t = 0), so
 *           carry = (T >> 48) + (t != 0) and column k is 0 mod 2^48
 *   k >= 8: the result's limb k - 8 is T mod 2^48, carry = T >> 48
 *
 * 64 products a b, 56 products m p with both halves and 8 with the high
 * half alone: 496 FP64 instructions and about 200 integer ones (24 of
 * them IMAD) against fp_mul's 288 IMAD.WIDE and ~300 others (the SASS of
 * fpd-rate's chains, with the limbs turned back into doubles: 516 FP64
 * and ~340 others a product).  Inputs
 * below 2p give a result below 2p (4p < 2^384), so products chain without
 * reduction; fpd_limbs_to_words reduces once.  No branch on values. */
#ifndef CZ_BENCH_FPD_H
#define CZ_BENCH_FPD_H

#include <stdint.h>
#ifndef __CUDA_ARCH__
#include <string.h>
#endif

#ifdef __CUDACC__
#define FPD_FN static __host__ __device__ __forceinline__
#else
#define FPD_FN static inline
#endif

typedef struct { double l[8]; } fpd_t;

#define FPD_M48 0xffffffffffffull
#define FPD_M52 0xfffffffffffffull
#define FPD_N0  0xfffcfffcfffdull /* -p^-1 mod 2^48 */
#define FPD_2P52_BITS 0x4330000000000000ull /* 2^52 */
#define FPD_2P100_BITS 0x4630000000000000ull /* 2^100 */

FPD_FN double fpd_of_bits(uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)b);
#else
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
#endif
}

FPD_FN uint64_t fpd_bits(double d)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(d);
#else
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
#endif
}

/* p's 48-bit limbs; i is a constant once the callers' loops unroll. */
FPD_FN double fpd_p(int i)
{
    switch (i) {
    case 0: return (double)0xffffffffaaabull;
    case 1: return (double)0xb153ffffb9feull;
    case 2: return (double)0xf6241eabfffeull;
    case 3: return (double)0x6730d2a0f6b0ull;
    case 4: return (double)0x4b84f38512bfull;
    case 5: return (double)0x434bacd76477ull;
    case 6: return (double)0xe69a4b1ba7b6ull;
    default: return (double)0x1a0111ea397full;
    }
}

/* p's 64-bit words, for the final reduction. */
FPD_FN uint64_t fpd_p_word(int i)
{
    switch (i) {
    case 0: return 0xb9feffffffffaaabull;
    case 1: return 0x1eabfffeb153ffffull;
    case 2: return 0x6730d2a0f6b0f624ull;
    case 3: return 0x64774b84f38512bfull;
    case 4: return 0x4b1ba7b6434bacd7ull;
    default: return 0x1a0111ea397fe69aull;
    }
}

#ifndef __CUDA_ARCH__
/* The host's model of DFMA on integer-valued operands: x y + c computed
 * exactly, then rounded to 53 significant bits toward zero (rz) or to
 * the nearest, ties to even.  Every operand of the product is an integer
 * below 2^102 in magnitude, so the exact sum fits an __int128. */
static inline double fpd_host_fma(double x, double y, double c, int rz)
{
    __int128 v = (__int128)x * (__int128)y + (__int128)c;
    int neg = v < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    int n = 0;
    for (unsigned __int128 w = u; w; w >>= 1)
        n++;
    if (n > 53) {
        int s = n - 53;
        unsigned __int128 rem = u & (((unsigned __int128)1 << s) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (s - 1);
        u >>= s;
        if (!rz && (rem > half || (rem == half && (u & 1))))
            u++;
        u <<= s;
    }
    double r = (double)u; /* exact: at most 54 significant bits, the 54th only as 2^53 */
    return neg ? -r : r;
}
#endif

/* DFMA rounding toward zero (rz) or to the nearest; rz is a constant at
 * every call. */
FPD_FN double fpd_fma(double x, double y, double c, int rz)
{
#ifdef __CUDA_ARCH__
    return rz ? __fma_rz(x, y, c) : __fma_rn(x, y, c);
#else
    return fpd_host_fma(x, y, c, rz);
#endif
}

/* Exact where the callers use them: no rounding happens. */
FPD_FN double fpd_add(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

FPD_FN double fpd_sub(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}

/* An integer below 2^52 as a double: its bits under 2^52's exponent, less
 * 2^52 (one logic instruction on the high word and one DADD). */
FPD_FN double fpd_of_int(uint64_t v)
{
    return fpd_sub(fpd_of_bits(FPD_2P52_BITS | v), fpd_of_bits(FPD_2P52_BITS));
}

/* One limb product into a column: the four instructions above. */
FPD_FN void fpd_mac(double x, double y, double *H, double *L)
{
    double h = fpd_fma(x, y, *H, 1);
    double d = fpd_sub(h, *H);
    *L = fpd_add(*L, fpd_fma(x, y, -d, 0));
    *H = h;
}

/* r = a b / 2^384 mod p as eight 48-bit integer limbs, below 2p when a and
 * b are below 2p. */
FPD_FN void fpd_mul_limbs(uint64_t r[8], const fpd_t *a, const fpd_t *b)
{
    double m[8];
    double hprev = fpd_of_bits(FPD_2P100_BITS);
    uint64_t carry = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < 16; k++) {
        double H = fpd_of_bits(FPD_2P100_BITS), L = fpd_of_bits(FPD_2P52_BITS);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
        for (int i = 0; i < 8; i++)
            if (k - i >= 0 && k - i < 8)
                fpd_mac(a->l[i], b->l[k - i], &H, &L);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
        for (int i = 0; i < 8; i++)
            if (i < k && k - i < 8)
                fpd_mac(m[i], fpd_p(k - i), &H, &L);
        uint64_t T = (fpd_bits(L) & FPD_M52) + (fpd_bits(hprev) & FPD_M52) + carry;
        if (k < 8) {
            uint64_t t = T & FPD_M48;
            m[k] = fpd_of_int((t * FPD_N0) & FPD_M48);
            H = fpd_fma(m[k], fpd_p(0), H, 1);
            carry = (T >> 48) + (t != 0);
        } else {
            r[k - 8] = T & FPD_M48;
            carry = T >> 48;
        }
        hprev = H;
    }
}

/* Limbs (from fpd_mul_limbs) back to doubles, for the next product. */
FPD_FN void fpd_from_limbs(fpd_t *r, const uint64_t l[8])
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int i = 0; i < 8; i++)
        r->l[i] = fpd_of_int(l[i]);
}

/* From six little-endian 64-bit words (cz_fp's and fp_t's layout). */
FPD_FN void fpd_from_words(fpd_t *r, const uint64_t w[6])
{
    uint64_t l[8];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int j = 0; j < 2; j++) {
        const uint64_t *v = w + 3 * j;
        l[4 * j] = v[0] & FPD_M48;
        l[4 * j + 1] = ((v[0] >> 48) | (v[1] << 16)) & FPD_M48;
        l[4 * j + 2] = ((v[1] >> 32) | (v[2] << 32)) & FPD_M48;
        l[4 * j + 3] = v[2] >> 16;
    }
    fpd_from_limbs(r, l);
}

/* Eight 48-bit limbs packed into six 64-bit words, unreduced. */
FPD_FN void fpd_limbs_pack(uint64_t v[6], const uint64_t l[8])
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int j = 0; j < 2; j++) {
        const uint64_t *q = l + 4 * j;
        v[3 * j] = q[0] | (q[1] << 48);
        v[3 * j + 1] = (q[1] >> 16) | (q[2] << 32);
        v[3 * j + 2] = (q[2] >> 32) | (q[3] << 16);
    }
}

/* Limbs below 2p to six words reduced below p (one subtraction of p,
 * selected by its borrow, no branch). */
FPD_FN void fpd_limbs_to_words(uint64_t w[6], const uint64_t l[8])
{
    uint64_t v[6], s[6], borrow = 0;
    fpd_limbs_pack(v, l);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int i = 0; i < 6; i++) {
        uint64_t d = v[i] - fpd_p_word(i);
        uint64_t b = (v[i] < fpd_p_word(i)) | (d < borrow);
        s[i] = d - borrow;
        borrow = b;
    }
    uint64_t keep = 0 - borrow; /* all ones when v < p */
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int i = 0; i < 6; i++)
        w[i] = (v[i] & keep) | (s[i] & ~keep);
}

#endif /* CZ_BENCH_FPD_H */
