/* Device arithmetic in Fp, the BLS12-381 base field, and in Fp2 = Fp[u] /
 * (u^2 + 1), for the CUDA back end (G1 and G2 coordinates, see ec.cuh).
 *
 * Layout: exactly the host's cz_fp and cz_fp2 (include/cuzk/ff.h):
 * Montgomery form with R = 2^384, six little-endian u64 limbs, i.e. twelve
 * little-endian u32 limbs on a little-endian machine; every value fully
 * reduced (< p); an Fp2 is c0 then c1.  Arrays copy to and from the device
 * unchanged and, values being canonical, results are bit-identical to the
 * CPU's cz_fp_* / cz_fp2_*.
 *
 * Same technique as fr.cuh: 32-bit limbs, PTX carry chains (add.cc / addc,
 * mad.lo.cc / madc.hi.cc), every loop over limbs unrolled, nothing indexed
 * at run time, no branch on values.
 *
 * Cost of fp_mul as designed (PTX instructions; on sm_90 a carry-chained
 * mad issues as IMAD or IMAD.HI plus IADD3.X):
 *   12 rows, each t += a b_i (24 mad and 1 addc into the top word; the
 *   first row 12 mul.lo + 12 mad.hi), m = t_0 n0 (1 mul), t += m p (24 mad,
 *   1 addc): 611, of which 588 multiplies (IMAD), then one conditional
 *   subtraction, 12 sub + 12 select: 635 in all, no branch.
 * fp_add: 12 add + 12 sub + 12 select.  fp_sub: 12 sub + 12 and + 12 add.
 * fp2_mul: 3 fp_mul_wide (288 mad each) + 2 fp_redc_wide (fp_mul's
 * reduction rows) + 2 lazy additions + 4 sums of 24 words.  fp2_sqr: 2
 * fp_mul + 3 lazy additions / subtractions (48). */
#ifndef CZ_CUDA_FP_CUH
#define CZ_CUDA_FP_CUH

#include <stdint.h>

struct __align__(16) fp_t { uint32_t l[12]; };
struct __align__(16) fp2_t { fp_t c0, c1; }; /* c0 + c1 u */

/* p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624
 *       1eabfffeb153ffffb9feffffffffaaab (381 bits) */
#define FP_P0  0xffffaaabu
#define FP_P1  0xb9feffffu
#define FP_P2  0xb153ffffu
#define FP_P3  0x1eabfffeu
#define FP_P4  0xf6b0f624u
#define FP_P5  0x6730d2a0u
#define FP_P6  0xf38512bfu
#define FP_P7  0x64774b84u
#define FP_P8  0x434bacd7u
#define FP_P9  0x4b1ba7b6u
#define FP_P10 0x397fe69au
#define FP_P11 0x1a0111eau
/* -p^-1 mod 2^32: the low word of the host's CZ_P_N0 (0x89f3fffcfffcfffd). */
#define FP_N0 0xfffcfffdu

/* Operand lists for the asm blocks below. */
#define FP_OUT(v)                                                                                  \
    "=r"(v.l[0]), "=r"(v.l[1]), "=r"(v.l[2]), "=r"(v.l[3]), "=r"(v.l[4]), "=r"(v.l[5]),            \
        "=r"(v.l[6]), "=r"(v.l[7]), "=r"(v.l[8]), "=r"(v.l[9]), "=r"(v.l[10]), "=r"(v.l[11])
#define FP_IN(v)                                                                                   \
    "r"(v.l[0]), "r"(v.l[1]), "r"(v.l[2]), "r"(v.l[3]), "r"(v.l[4]), "r"(v.l[5]), "r"(v.l[6]),     \
        "r"(v.l[7]), "r"(v.l[8]), "r"(v.l[9]), "r"(v.l[10]), "r"(v.l[11])
#define FP_IN_P                                                                                    \
    "n"(FP_P0), "n"(FP_P1), "n"(FP_P2), "n"(FP_P3), "n"(FP_P4), "n"(FP_P5), "n"(FP_P6),            \
        "n"(FP_P7), "n"(FP_P8), "n"(FP_P9), "n"(FP_P10), "n"(FP_P11)
#define FP_IN_P_MASKED(m)                                                                          \
    "r"(FP_P0 & m), "r"(FP_P1 & m), "r"(FP_P2 & m), "r"(FP_P3 & m), "r"(FP_P4 & m),                \
        "r"(FP_P5 & m), "r"(FP_P6 & m), "r"(FP_P7 & m), "r"(FP_P8 & m), "r"(FP_P9 & m),            \
        "r"(FP_P10 & m), "r"(FP_P11 & m)

/* ------------------------------------------------------------------ Fp --- */

/* Three 16-byte loads / stores: p must be 16-byte aligned (cudaMalloc'd
 * arrays of cz_fp, cz_fp2 and the point structs are: 48 = 3 x 16). */
__device__ __forceinline__ fp_t fp_load(const fp_t *p)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    fp_t r;
#pragma unroll
    for (int i = 0; i < 3; i++) {
        uint4 v = q[i];
        r.l[4 * i] = v.x, r.l[4 * i + 1] = v.y, r.l[4 * i + 2] = v.z, r.l[4 * i + 3] = v.w;
    }
    return r;
}

__device__ __forceinline__ void fp_store(fp_t *p, const fp_t &a)
{
    uint4 *q = reinterpret_cast<uint4 *>(p);
#pragma unroll
    for (int i = 0; i < 3; i++)
        q[i] = make_uint4(a.l[4 * i], a.l[4 * i + 1], a.l[4 * i + 2], a.l[4 * i + 3]);
}

__device__ __forceinline__ fp_t fp_zero(void)
{
    fp_t r;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[i] = 0;
    return r;
}

/* 1 in Montgomery form: 2^384 mod p (the host's CZ_FP_ONE). */
__device__ __forceinline__ fp_t fp_one(void)
{
    fp_t r = {{0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,
               0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u}};
    return r;
}

/* c ? a : b, limb by limb (selects, no branch). */
__device__ __forceinline__ fp_t fp_select(bool c, const fp_t &a, const fp_t &b)
{
    fp_t r;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[i] = c ? a.l[i] : b.l[i];
    return r;
}

__device__ __forceinline__ bool fp_is_zero(const fp_t &a)
{
    uint32_t acc = a.l[0];
#pragma unroll
    for (int i = 1; i < 12; i++)
        acc |= a.l[i];
    return acc == 0;
}

/* Equality of the representations, i.e. of the values (both reduced). */
__device__ __forceinline__ bool fp_equal(const fp_t &a, const fp_t &b)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 12; i++)
        acc |= a.l[i] ^ b.l[i];
    return acc == 0;
}

/* t - p when that does not borrow, else t: fully reduces t < 2p (p > 2^380,
 * so any t < 2^381 too).  12 SUB with borrow, 12 selects. */
__device__ __forceinline__ fp_t fp_reduce_once(const fp_t &t)
{
    fp_t d;
    uint32_t borrow;
    asm("sub.cc.u32  %0, %13, %25;\n\t"
        "subc.cc.u32 %1, %14, %26;\n\t"
        "subc.cc.u32 %2, %15, %27;\n\t"
        "subc.cc.u32 %3, %16, %28;\n\t"
        "subc.cc.u32 %4, %17, %29;\n\t"
        "subc.cc.u32 %5, %18, %30;\n\t"
        "subc.cc.u32 %6, %19, %31;\n\t"
        "subc.cc.u32 %7, %20, %32;\n\t"
        "subc.cc.u32 %8, %21, %33;\n\t"
        "subc.cc.u32 %9, %22, %34;\n\t"
        "subc.cc.u32 %10, %23, %35;\n\t"
        "subc.cc.u32 %11, %24, %36;\n\t"
        "subc.u32    %12, 0, 0;"
        : FP_OUT(d), "=r"(borrow)
        : FP_IN(t), FP_IN_P);
    return fp_select(borrow != 0, t, d);
}

/* a + b without reduction: < 2p for reduced a and b (p < 2^381, no carry
 * out); only for fp_mul's inputs. */
__device__ __forceinline__ fp_t fp_add_lazy(const fp_t &a, const fp_t &b)
{
    fp_t s;
    asm("add.cc.u32  %0, %12, %24;\n\t"
        "addc.cc.u32 %1, %13, %25;\n\t"
        "addc.cc.u32 %2, %14, %26;\n\t"
        "addc.cc.u32 %3, %15, %27;\n\t"
        "addc.cc.u32 %4, %16, %28;\n\t"
        "addc.cc.u32 %5, %17, %29;\n\t"
        "addc.cc.u32 %6, %18, %30;\n\t"
        "addc.cc.u32 %7, %19, %31;\n\t"
        "addc.cc.u32 %8, %20, %32;\n\t"
        "addc.cc.u32 %9, %21, %33;\n\t"
        "addc.cc.u32 %10, %22, %34;\n\t"
        "addc.u32    %11, %23, %35;"
        : FP_OUT(s)
        : FP_IN(a), FP_IN(b));
    return s;
}

/* a + p - b without reduction: in [1, 2p) for reduced a and b, congruent
 * to a - b; only for fp_mul's inputs. */
__device__ __forceinline__ fp_t fp_sub_lazy(const fp_t &a, const fp_t &b)
{
    fp_t r;
    asm("add.cc.u32  %0, %12, %36;\n\t"
        "addc.cc.u32 %1, %13, %37;\n\t"
        "addc.cc.u32 %2, %14, %38;\n\t"
        "addc.cc.u32 %3, %15, %39;\n\t"
        "addc.cc.u32 %4, %16, %40;\n\t"
        "addc.cc.u32 %5, %17, %41;\n\t"
        "addc.cc.u32 %6, %18, %42;\n\t"
        "addc.cc.u32 %7, %19, %43;\n\t"
        "addc.cc.u32 %8, %20, %44;\n\t"
        "addc.cc.u32 %9, %21, %45;\n\t"
        "addc.cc.u32 %10, %22, %46;\n\t"
        "addc.u32    %11, %23, %47;\n\t"
        "sub.cc.u32  %0, %0, %24;\n\t"
        "subc.cc.u32 %1, %1, %25;\n\t"
        "subc.cc.u32 %2, %2, %26;\n\t"
        "subc.cc.u32 %3, %3, %27;\n\t"
        "subc.cc.u32 %4, %4, %28;\n\t"
        "subc.cc.u32 %5, %5, %29;\n\t"
        "subc.cc.u32 %6, %6, %30;\n\t"
        "subc.cc.u32 %7, %7, %31;\n\t"
        "subc.cc.u32 %8, %8, %32;\n\t"
        "subc.cc.u32 %9, %9, %33;\n\t"
        "subc.cc.u32 %10, %10, %34;\n\t"
        "subc.u32    %11, %11, %35;"
        : FP_OUT(r)
        : FP_IN(a), FP_IN(b), FP_IN_P);
    return r;
}

/* a + b mod p: a + b < 2p, then one conditional subtraction. */
__device__ __forceinline__ fp_t fp_add(const fp_t &a, const fp_t &b)
{
    return fp_reduce_once(fp_add_lazy(a, b));
}

__device__ __forceinline__ fp_t fp_dbl(const fp_t &a) { return fp_add(a, a); }

/* a - b mod p: subtract with borrow; on borrow add p (p & mask, no
 * branch). */
__device__ __forceinline__ fp_t fp_sub(const fp_t &a, const fp_t &b)
{
    fp_t d, r;
    uint32_t m; /* 0 or 0xffffffff */
    asm("sub.cc.u32  %0, %13, %25;\n\t"
        "subc.cc.u32 %1, %14, %26;\n\t"
        "subc.cc.u32 %2, %15, %27;\n\t"
        "subc.cc.u32 %3, %16, %28;\n\t"
        "subc.cc.u32 %4, %17, %29;\n\t"
        "subc.cc.u32 %5, %18, %30;\n\t"
        "subc.cc.u32 %6, %19, %31;\n\t"
        "subc.cc.u32 %7, %20, %32;\n\t"
        "subc.cc.u32 %8, %21, %33;\n\t"
        "subc.cc.u32 %9, %22, %34;\n\t"
        "subc.cc.u32 %10, %23, %35;\n\t"
        "subc.cc.u32 %11, %24, %36;\n\t"
        "subc.u32    %12, 0, 0;"
        : FP_OUT(d), "=r"(m)
        : FP_IN(a), FP_IN(b));
    asm("add.cc.u32  %0, %12, %24;\n\t"
        "addc.cc.u32 %1, %13, %25;\n\t"
        "addc.cc.u32 %2, %14, %26;\n\t"
        "addc.cc.u32 %3, %15, %27;\n\t"
        "addc.cc.u32 %4, %16, %28;\n\t"
        "addc.cc.u32 %5, %17, %29;\n\t"
        "addc.cc.u32 %6, %18, %30;\n\t"
        "addc.cc.u32 %7, %19, %31;\n\t"
        "addc.cc.u32 %8, %20, %32;\n\t"
        "addc.cc.u32 %9, %21, %33;\n\t"
        "addc.cc.u32 %10, %22, %34;\n\t"
        "addc.u32    %11, %23, %35;"
        : FP_OUT(r)
        : FP_IN(d), FP_IN_P_MASKED(m));
    return r;
}

/* -a mod p: p - a, masked to 0 when a = 0 (0 stays 0, as on the host). */
__device__ __forceinline__ fp_t fp_neg(const fp_t &a)
{
    fp_t d;
    asm("sub.cc.u32  %0, %12, %24;\n\t"
        "subc.cc.u32 %1, %13, %25;\n\t"
        "subc.cc.u32 %2, %14, %26;\n\t"
        "subc.cc.u32 %3, %15, %27;\n\t"
        "subc.cc.u32 %4, %16, %28;\n\t"
        "subc.cc.u32 %5, %17, %29;\n\t"
        "subc.cc.u32 %6, %18, %30;\n\t"
        "subc.cc.u32 %7, %19, %31;\n\t"
        "subc.cc.u32 %8, %20, %32;\n\t"
        "subc.cc.u32 %9, %21, %33;\n\t"
        "subc.cc.u32 %10, %22, %34;\n\t"
        "subc.u32    %11, %23, %35;"
        : FP_OUT(d)
        : FP_IN_P, FP_IN(a));
    return fp_select(fp_is_zero(a), a, d);
}

/* Montgomery multiplication with even/odd accumulators.
 *
 * A row of CIOS adds a b_i and then m p (m = t_0 n0) to the running sum T
 * and divides by 2^32.  Adding a word-by-word product x y into T one
 * 32-bit half at a time needs two carry chains per row (lo halves at word
 * j, hi halves at word j + 1), each partial product an IMAD plus an
 * IADD3.X.  Here T = ACC + 2^32 ODD instead: the products of the even
 * words, x_{2k} y, go whole (lo at word 2k, hi at 2k + 1) into ACC and
 * those of the odd words into ODD at the same positions, so each product's
 * two halves are consecutive in one carry chain (fp_chain6<0> below).
 * T's word 0 is ACC's, so m = ACC_0 n0 and after adding m p, ACC_0 = 0;
 * then T / 2^32 = (ODD + ACC_1) + 2^32 (ACC >> 64): the new ACC is ODD
 * plus ACC_1 (fp_addw) and the new ODD is ACC shifted by two words, which
 * keeps the pairs aligned (fp_redc_row).  At the end T = ACC + 2^32 ODD
 * (fp_merge). */

/* fp_chain6<P>: t[P .. P + 12] += sum_k x_k y 2^(32 (P + 2k)), k < 6, one
 * carry chain ending in word P + 12 (12 multiply-adds and one carry,
 * which ptxas issues as wide multiply-adds into register pairs when P is
 * even); the caller shows that word takes the carry without overflowing. */
template <int P, int N>
__device__ __forceinline__ void fp_chain6(uint32_t (&t)[N], uint32_t x0, uint32_t x1, uint32_t x2,
                                          uint32_t x3, uint32_t x4, uint32_t x5, uint32_t y)
{
    asm("mad.lo.cc.u32 %0, %13, %19, %0;\n\t"
        "madc.hi.cc.u32 %1, %13, %19, %1;\n\t"
        "madc.lo.cc.u32 %2, %14, %19, %2;\n\t"
        "madc.hi.cc.u32 %3, %14, %19, %3;\n\t"
        "madc.lo.cc.u32 %4, %15, %19, %4;\n\t"
        "madc.hi.cc.u32 %5, %15, %19, %5;\n\t"
        "madc.lo.cc.u32 %6, %16, %19, %6;\n\t"
        "madc.hi.cc.u32 %7, %16, %19, %7;\n\t"
        "madc.lo.cc.u32 %8, %17, %19, %8;\n\t"
        "madc.hi.cc.u32 %9, %17, %19, %9;\n\t"
        "madc.lo.cc.u32 %10, %18, %19, %10;\n\t"
        "madc.hi.cc.u32 %11, %18, %19, %11;\n\t"
        "addc.u32 %12, %12, 0;"
        : "+r"(t[P + 0]), "+r"(t[P + 1]), "+r"(t[P + 2]), "+r"(t[P + 3]), "+r"(t[P + 4]),
          "+r"(t[P + 5]), "+r"(t[P + 6]), "+r"(t[P + 7]), "+r"(t[P + 8]), "+r"(t[P + 9]),
          "+r"(t[P + 10]), "+r"(t[P + 11]), "+r"(t[P + 12])
        : "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5), "r"(y));
}

/* t[0..12] += v. */
__device__ __forceinline__ void fp_addw(uint32_t (&t)[13], uint32_t v)
{
    asm("add.cc.u32 %0, %0, %13;\n\t"
        "addc.cc.u32 %1, %1, 0;\n\t"
        "addc.cc.u32 %2, %2, 0;\n\t"
        "addc.cc.u32 %3, %3, 0;\n\t"
        "addc.cc.u32 %4, %4, 0;\n\t"
        "addc.cc.u32 %5, %5, 0;\n\t"
        "addc.cc.u32 %6, %6, 0;\n\t"
        "addc.cc.u32 %7, %7, 0;\n\t"
        "addc.cc.u32 %8, %8, 0;\n\t"
        "addc.cc.u32 %9, %9, 0;\n\t"
        "addc.cc.u32 %10, %10, 0;\n\t"
        "addc.cc.u32 %11, %11, 0;\n\t"
        "addc.u32 %12, %12, 0;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]),
          "+r"(t[7]), "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(v));
}

/* The low 12 words of acc + 2^32 odd. */
__device__ __forceinline__ fp_t fp_merge(const uint32_t (&acc)[13], const uint32_t (&odd)[13])
{
    fp_t r;
    r.l[0] = acc[0];
    asm("add.cc.u32 %0, %11, %22;\n\t"
        "addc.cc.u32 %1, %12, %23;\n\t"
        "addc.cc.u32 %2, %13, %24;\n\t"
        "addc.cc.u32 %3, %14, %25;\n\t"
        "addc.cc.u32 %4, %15, %26;\n\t"
        "addc.cc.u32 %5, %16, %27;\n\t"
        "addc.cc.u32 %6, %17, %28;\n\t"
        "addc.cc.u32 %7, %18, %29;\n\t"
        "addc.cc.u32 %8, %19, %30;\n\t"
        "addc.cc.u32 %9, %20, %31;\n\t"
        "addc.u32 %10, %21, %32;"
        : "=r"(r.l[1]), "=r"(r.l[2]), "=r"(r.l[3]), "=r"(r.l[4]), "=r"(r.l[5]), "=r"(r.l[6]),
          "=r"(r.l[7]), "=r"(r.l[8]), "=r"(r.l[9]), "=r"(r.l[10]), "=r"(r.l[11])
        : "r"(acc[1]), "r"(acc[2]), "r"(acc[3]), "r"(acc[4]), "r"(acc[5]), "r"(acc[6]), "r"(acc[7]),
          "r"(acc[8]), "r"(acc[9]), "r"(acc[10]), "r"(acc[11]), "r"(odd[0]), "r"(odd[1]),
          "r"(odd[2]), "r"(odd[3]), "r"(odd[4]), "r"(odd[5]), "r"(odd[6]), "r"(odd[7]), "r"(odd[8]),
          "r"(odd[9]), "r"(odd[10]));
    return r;
}

/* One reduction row of T = ACC + 2^32 ODD (13 words each): m = T_0 n0,
 * T += m p, then T / 2^32 as (ACC, ODD) <- (ODD + ACC_1, ACC >> 64)
 * (renaming only, in an unrolled loop). */
__device__ __forceinline__ void fp_redc_row(uint32_t (&acc)[13], uint32_t (&odd)[13])
{
    uint32_t m = acc[0] * FP_N0;
    fp_chain6<0>(acc, FP_P0, FP_P2, FP_P4, FP_P6, FP_P8, FP_P10, m);
    fp_chain6<0>(odd, FP_P1, FP_P3, FP_P5, FP_P7, FP_P9, FP_P11, m);
    fp_addw(odd, acc[1]);
    uint32_t t[13];
#pragma unroll
    for (int j = 0; j < 13; j++)
        t[j] = acc[j];
#pragma unroll
    for (int j = 0; j < 13; j++)
        acc[j] = odd[j];
#pragma unroll
    for (int j = 0; j < 11; j++)
        odd[j] = t[j + 2];
    odd[11] = odd[12] = 0;
}

/* Montgomery product a b / 2^384 mod p, fully reduced.  Accepts a, b < 2p
 * (the lazy sums above), not only reduced values: with T < 3p on entry to
 * a row, (T + a b_i + m p) / 2^32 < (3p + 2p (2^32 - 1) + p (2^32 - 1)) /
 * 2^32 < 3p, so ACC and ODD (each at most T before the division) fit
 * their 13 words (3p 2^32 < 2^415), and the final T = (a b + M p) / 2^384
 * < 4p^2 / 2^384 + p < 2p since 4p < 2^384: one conditional subtraction. */
__device__ __forceinline__ fp_t fp_mul(const fp_t &a, const fp_t &b)
{
    uint32_t acc[13], odd[13];
#pragma unroll
    for (int j = 0; j < 13; j++)
        acc[j] = odd[j] = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) {
        fp_chain6<0>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[i]);
        fp_chain6<0>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[i]);
        fp_redc_row(acc, odd);
    }
    return fp_reduce_once(fp_merge(acc, odd));
}

/* The whole 768-bit products below keep fp_mul's even/odd split: a value
 * T is held as ACC + 2^32 ODD, and a product x_k y whose low half lands
 * at word w goes to ACC at w when w is even, to ODD at w - 1 when w is odd,
 * so every chain starts at an even word and each product's two halves
 * fill an aligned register pair, which ptxas issues as one IMAD.WIDE (a
 * chain starting at an odd word costs separate IMAD / IMAD.HI and moves:
 * the squaring of 2026-12-06 lost 9 % to that, docs/gpu-kernels.md item
 * 6). */

/* The 768-bit ACC + 2^32 ODD (each 25 words, the caller showing that
 * the sum is below 2^768) as 24 words. */
__device__ __forceinline__ void fp_wide_merge(uint32_t (&t)[24], const uint32_t (&acc)[25],
                                              const uint32_t (&odd)[25])
{
    t[0] = acc[0];
    asm("add.cc.u32 %0, %23, %46;\n\t"
        "addc.cc.u32 %1, %24, %47;\n\t"
        "addc.cc.u32 %2, %25, %48;\n\t"
        "addc.cc.u32 %3, %26, %49;\n\t"
        "addc.cc.u32 %4, %27, %50;\n\t"
        "addc.cc.u32 %5, %28, %51;\n\t"
        "addc.cc.u32 %6, %29, %52;\n\t"
        "addc.cc.u32 %7, %30, %53;\n\t"
        "addc.cc.u32 %8, %31, %54;\n\t"
        "addc.cc.u32 %9, %32, %55;\n\t"
        "addc.cc.u32 %10, %33, %56;\n\t"
        "addc.cc.u32 %11, %34, %57;\n\t"
        "addc.cc.u32 %12, %35, %58;\n\t"
        "addc.cc.u32 %13, %36, %59;\n\t"
        "addc.cc.u32 %14, %37, %60;\n\t"
        "addc.cc.u32 %15, %38, %61;\n\t"
        "addc.cc.u32 %16, %39, %62;\n\t"
        "addc.cc.u32 %17, %40, %63;\n\t"
        "addc.cc.u32 %18, %41, %64;\n\t"
        "addc.cc.u32 %19, %42, %65;\n\t"
        "addc.cc.u32 %20, %43, %66;\n\t"
        "addc.cc.u32 %21, %44, %67;\n\t"
        "addc.u32 %22, %45, %68;"
        : "=r"(t[1]), "=r"(t[2]), "=r"(t[3]), "=r"(t[4]), "=r"(t[5]), "=r"(t[6]), "=r"(t[7]),
          "=r"(t[8]), "=r"(t[9]), "=r"(t[10]), "=r"(t[11]), "=r"(t[12]), "=r"(t[13]), "=r"(t[14]),
          "=r"(t[15]), "=r"(t[16]), "=r"(t[17]), "=r"(t[18]), "=r"(t[19]), "=r"(t[20]), "=r"(t[21]),
          "=r"(t[22]), "=r"(t[23])
        : "r"(acc[1]), "r"(acc[2]), "r"(acc[3]), "r"(acc[4]), "r"(acc[5]), "r"(acc[6]), "r"(acc[7]),
          "r"(acc[8]), "r"(acc[9]), "r"(acc[10]), "r"(acc[11]), "r"(acc[12]), "r"(acc[13]),
          "r"(acc[14]), "r"(acc[15]), "r"(acc[16]), "r"(acc[17]), "r"(acc[18]), "r"(acc[19]),
          "r"(acc[20]), "r"(acc[21]), "r"(acc[22]), "r"(acc[23]), "r"(odd[0]), "r"(odd[1]),
          "r"(odd[2]), "r"(odd[3]), "r"(odd[4]), "r"(odd[5]), "r"(odd[6]), "r"(odd[7]), "r"(odd[8]),
          "r"(odd[9]), "r"(odd[10]), "r"(odd[11]), "r"(odd[12]), "r"(odd[13]), "r"(odd[14]),
          "r"(odd[15]), "r"(odd[16]), "r"(odd[17]), "r"(odd[18]), "r"(odd[19]), "r"(odd[20]),
          "r"(odd[21]), "r"(odd[22]));
}

/* T / 2^384 mod p, fully reduced, for a 768-bit T < p 2^384 (a product,
 * or a sum of products below that): R = (L + M p) / 2^384 for the low
 * half L of T (fp_mul's reduction rows without the a b_i products; R < p
 * + 1), then R + the high half H < 2p: one conditional subtraction. */
__device__ __forceinline__ fp_t fp_redc_wide(const uint32_t (&t)[24])
{
    uint32_t acc[13], odd[13];
#pragma unroll
    for (int j = 0; j < 12; j++)
        acc[j] = t[j];
    acc[12] = 0;
#pragma unroll
    for (int j = 0; j < 13; j++)
        odd[j] = 0;
#pragma unroll
    for (int i = 0; i < 12; i++)
        fp_redc_row(acc, odd);
    fp_t r = fp_merge(acc, odd), h;
#pragma unroll
    for (int j = 0; j < 12; j++)
        h.l[j] = t[12 + j];
    return fp_reduce_once(fp_add_lazy(r, h));
}

/* t = a b, the whole 768-bit product (a, b < 2^384).  Row i (b_i): for
 * even i, a's even words from ACC word i and its odd words from ODD word
 * i; for odd i, a's even words from ODD word i - 1 and its odd words from
 * ACC word i + 1.  After row i each accumulator holds part of a (b mod
 * 2^(32 (i + 1))) < 2^(32 (i + 13)), so ACC below 2^(32 (i + 13)) and ODD
 * below 2^(32 (i + 12)): the words a chain's last carry goes to (ACC i +
 * 12 or i + 13, ODD i + 12 or i + 11) take it without overflowing, and
 * the highest is word 24. */
__device__ __forceinline__ void fp_mul_wide(uint32_t (&t)[24], const fp_t &a, const fp_t &b)
{
    uint32_t acc[25], odd[25];
#pragma unroll
    for (int j = 0; j < 25; j++)
        acc[j] = odd[j] = 0;
    fp_chain6<0>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[0]);
    fp_chain6<0>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[0]);
    fp_chain6<0>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[1]);
    fp_chain6<2>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[1]);
    fp_chain6<2>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[2]);
    fp_chain6<2>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[2]);
    fp_chain6<2>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[3]);
    fp_chain6<4>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[3]);
    fp_chain6<4>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[4]);
    fp_chain6<4>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[4]);
    fp_chain6<4>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[5]);
    fp_chain6<6>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[5]);
    fp_chain6<6>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[6]);
    fp_chain6<6>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[6]);
    fp_chain6<6>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[7]);
    fp_chain6<8>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[7]);
    fp_chain6<8>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[8]);
    fp_chain6<8>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[8]);
    fp_chain6<8>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[9]);
    fp_chain6<10>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[9]);
    fp_chain6<10>(acc, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[10]);
    fp_chain6<10>(odd, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[10]);
    fp_chain6<10>(odd, a.l[0], a.l[2], a.l[4], a.l[6], a.l[8], a.l[10], b.l[11]);
    fp_chain6<12>(acc, a.l[1], a.l[3], a.l[5], a.l[7], a.l[9], a.l[11], b.l[11]);
    fp_wide_merge(t, acc, odd);
}

/* t -= u (768 bits; the caller shows t >= u). */
__device__ __forceinline__ void fp_wide_sub(uint32_t (&t)[24], const uint32_t (&u)[24])
{
    asm("sub.cc.u32 %0, %0, %24;\n\t"
        "subc.cc.u32 %1, %1, %25;\n\t"
        "subc.cc.u32 %2, %2, %26;\n\t"
        "subc.cc.u32 %3, %3, %27;\n\t"
        "subc.cc.u32 %4, %4, %28;\n\t"
        "subc.cc.u32 %5, %5, %29;\n\t"
        "subc.cc.u32 %6, %6, %30;\n\t"
        "subc.cc.u32 %7, %7, %31;\n\t"
        "subc.cc.u32 %8, %8, %32;\n\t"
        "subc.cc.u32 %9, %9, %33;\n\t"
        "subc.cc.u32 %10, %10, %34;\n\t"
        "subc.cc.u32 %11, %11, %35;\n\t"
        "subc.cc.u32 %12, %12, %36;\n\t"
        "subc.cc.u32 %13, %13, %37;\n\t"
        "subc.cc.u32 %14, %14, %38;\n\t"
        "subc.cc.u32 %15, %15, %39;\n\t"
        "subc.cc.u32 %16, %16, %40;\n\t"
        "subc.cc.u32 %17, %17, %41;\n\t"
        "subc.cc.u32 %18, %18, %42;\n\t"
        "subc.cc.u32 %19, %19, %43;\n\t"
        "subc.cc.u32 %20, %20, %44;\n\t"
        "subc.cc.u32 %21, %21, %45;\n\t"
        "subc.cc.u32 %22, %22, %46;\n\t"
        "subc.u32 %23, %23, %47;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]),
          "+r"(t[7]), "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12]), "+r"(t[13]),
          "+r"(t[14]), "+r"(t[15]), "+r"(t[16]), "+r"(t[17]), "+r"(t[18]), "+r"(t[19]), "+r"(t[20]),
          "+r"(t[21]), "+r"(t[22]), "+r"(t[23])
        : "r"(u[0]), "r"(u[1]), "r"(u[2]), "r"(u[3]), "r"(u[4]), "r"(u[5]), "r"(u[6]), "r"(u[7]),
          "r"(u[8]), "r"(u[9]), "r"(u[10]), "r"(u[11]), "r"(u[12]), "r"(u[13]), "r"(u[14]),
          "r"(u[15]), "r"(u[16]), "r"(u[17]), "r"(u[18]), "r"(u[19]), "r"(u[20]), "r"(u[21]),
          "r"(u[22]), "r"(u[23]));
}

/* t += p^2 (768 bits; the caller shows the sum fits). */
__device__ __forceinline__ void fp_wide_add_p2(uint32_t (&t)[24])
{
    asm("add.cc.u32 %0, %0, 0x1c718e39;\n\t"
        "addc.cc.u32 %1, %1, 0x26aa0000;\n\t"
        "addc.cc.u32 %2, %2, 0x76382eab;\n\t"
        "addc.cc.u32 %3, %3, 0x7ced6b1d;\n\t"
        "addc.cc.u32 %4, %4, 0x62113cfd;\n\t"
        "addc.cc.u32 %5, %5, 0x162c3383;\n\t"
        "addc.cc.u32 %6, %6, 0x3e71b743;\n\t"
        "addc.cc.u32 %7, %7, 0x66bf91ed;\n\t"
        "addc.cc.u32 %8, %8, 0x7091a049;\n\t"
        "addc.cc.u32 %9, %9, 0x292e85a8;\n\t"
        "addc.cc.u32 %10, %10, 0x86185c7b;\n\t"
        "addc.cc.u32 %11, %11, 0x1d68619c;\n\t"
        "addc.cc.u32 %12, %12, 0x0978ef01;\n\t"
        "addc.cc.u32 %13, %13, 0xf5314933;\n\t"
        "addc.cc.u32 %14, %14, 0x16ddca6e;\n\t"
        "addc.cc.u32 %15, %15, 0x50a62cfd;\n\t"
        "addc.cc.u32 %16, %16, 0x349e8bd0;\n\t"
        "addc.cc.u32 %17, %17, 0x66e59e49;\n\t"
        "addc.cc.u32 %18, %18, 0x0e7046b4;\n\t"
        "addc.cc.u32 %19, %19, 0xe2dc90e5;\n\t"
        "addc.cc.u32 %20, %20, 0xa22f25e9;\n\t"
        "addc.cc.u32 %21, %21, 0x4bd278ea;\n\t"
        "addc.cc.u32 %22, %22, 0xb8c35fc7;\n\t"
        "addc.u32 %23, %23, 0x02a437a4;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]),
          "+r"(t[7]), "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12]), "+r"(t[13]),
          "+r"(t[14]), "+r"(t[15]), "+r"(t[16]), "+r"(t[17]), "+r"(t[18]), "+r"(t[19]), "+r"(t[20]),
          "+r"(t[21]), "+r"(t[22]), "+r"(t[23]));
}

/* a^2: the product a a (a dedicated squaring with aligned chains lost 8 %
 * in the G1 bucket sums, docs/gpu-kernels.md item 6). */
__device__ __forceinline__ fp_t fp_sqr(const fp_t &a) { return fp_mul(a, a); }

/* fp_mul as a called function: one copy per kernel (ec.cuh's G1 code). */
static __device__ __noinline__ fp_t fp_mul_call(const fp_t &a, const fp_t &b)
{
    return fp_mul(a, b);
}

/* Two independent products, a b and c d, in one call: their carry chains
 * have no dependence on each other, so ptxas interleaves them and each
 * hides the other's IMAD latency (a lone product waits on its own chain:
 * the G1 bucket sums were latency-bound, docs/gpu-kernels.md). */
struct fp_pair {
    fp_t lo, hi; /* lo = a b, hi = c d */
};
static __device__ __noinline__ fp_pair fp_mul2_call(const fp_t &a, const fp_t &b, const fp_t &c,
                                                    const fp_t &d)
{
    return fp_pair{fp_mul(a, b), fp_mul(c, d)};
}

/* Word q (0..11) of p - 2, by selects over the constants (no run-time
 * index into a local array). */
__device__ __forceinline__ uint32_t fp_pm2_word(int q)
{
    const uint32_t w[12] = {FP_P0 - 2, FP_P1, FP_P2, FP_P3, FP_P4,  FP_P5,
                            FP_P6,     FP_P7, FP_P8, FP_P9, FP_P10, FP_P11};
    uint32_t r = 0;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r = q == i ? w[i] : r;
    return r;
}

/* a^-1 = a^(p-2) by Fermat (0 gives 0): from the top bit of p - 2 (bit
 * 380) down, a squaring per bit and a multiplication per set bit below
 * it, 380 S + 228 M, all out of line (fp_mul_call).  The branches depend only on the
 * public exponent, the same in every thread; nothing depends on a. */
__device__ __forceinline__ fp_t fp_inv(const fp_t &a)
{
    fp_t r = a;
    for (int q = 11; q >= 0; q--) {
        uint32_t e = fp_pm2_word(q);
        for (int b = q == 11 ? 27 : 31; b >= 0; b--) {
            r = fp_mul_call(r, r);
            if ((e >> b) & 1)
                r = fp_mul_call(r, a);
        }
    }
    return r;
}

/* ----------------------------------------------------------------- Fp2 --- */

__device__ __forceinline__ fp2_t fp2_load(const fp2_t *p)
{
    fp2_t r;
    r.c0 = fp_load(&p->c0);
    r.c1 = fp_load(&p->c1);
    return r;
}

__device__ __forceinline__ void fp2_store(fp2_t *p, const fp2_t &a)
{
    fp_store(&p->c0, a.c0);
    fp_store(&p->c1, a.c1);
}

__device__ __forceinline__ fp2_t fp2_zero(void) { return fp2_t{fp_zero(), fp_zero()}; }
__device__ __forceinline__ fp2_t fp2_one(void) { return fp2_t{fp_one(), fp_zero()}; }

__device__ __forceinline__ fp2_t fp2_select(bool c, const fp2_t &a, const fp2_t &b)
{
    return fp2_t{fp_select(c, a.c0, b.c0), fp_select(c, a.c1, b.c1)};
}

__device__ __forceinline__ bool fp2_is_zero(const fp2_t &a)
{
    return fp_is_zero(a.c0) & fp_is_zero(a.c1);
}

__device__ __forceinline__ bool fp2_equal(const fp2_t &a, const fp2_t &b)
{
    return fp_equal(a.c0, b.c0) & fp_equal(a.c1, b.c1);
}

__device__ __forceinline__ fp2_t fp2_add(const fp2_t &a, const fp2_t &b)
{
    return fp2_t{fp_add(a.c0, b.c0), fp_add(a.c1, b.c1)};
}

__device__ __forceinline__ fp2_t fp2_sub(const fp2_t &a, const fp2_t &b)
{
    return fp2_t{fp_sub(a.c0, b.c0), fp_sub(a.c1, b.c1)};
}

__device__ __forceinline__ fp2_t fp2_neg(const fp2_t &a)
{
    return fp2_t{fp_neg(a.c0), fp_neg(a.c1)};
}
__device__ __forceinline__ fp2_t fp2_dbl(const fp2_t &a)
{
    return fp2_t{fp_dbl(a.c0), fp_dbl(a.c1)};
}

/* Karatsuba with one reduction less, for a, b < p: the three products
 * whole (fp_mul_wide), t0 = a0 b0, t1 = a1 b1 < p^2, s = (a0 + a1)(b0 +
 * b1) < 4 p^2 (the sums unreduced), then two reductions instead of three:
 *   c0 = (t0 + p^2 - t1) / 2^384,  c1 = (s - (t0 + t1)) / 2^384  (mod p)
 * where t0 + p^2 - t1 lies in (0, 2 p^2) and s - t0 - t1 = a0 b1 + a1 b0
 * in [0, 2 p^2), both below p 2^384 as fp_redc_wide needs (2p < 2^384).
 * 720 multiplies against three fp_mul's 864. */
__device__ __forceinline__ fp2_t fp2_mul(const fp2_t &a, const fp2_t &b)
{
    uint32_t t0[24], t1[24], s[24];
    fp_mul_wide(t0, a.c0, b.c0);
    fp_mul_wide(t1, a.c1, b.c1);
    fp_mul_wide(s, fp_add_lazy(a.c0, a.c1), fp_add_lazy(b.c0, b.c1));
    fp_wide_sub(s, t0);
    fp_wide_sub(s, t1);
    fp_wide_add_p2(t0);
    fp_wide_sub(t0, t1);
    return fp2_t{fp_redc_wide(t0), fp_redc_wide(s)};
}

/* 2M:  c0 = (a0 + a1)(a0 - a1),  c1 = (2 a0) a1, the factors unreduced
 * (a0 - a1 as a0 + p - a1). */
__device__ __forceinline__ fp2_t fp2_sqr(const fp2_t &a)
{
    fp_t c0 = fp_mul(fp_add_lazy(a.c0, a.c1), fp_sub_lazy(a.c0, a.c1));
    fp_t c1 = fp_mul(fp_add_lazy(a.c0, a.c0), a.c1);
    return fp2_t{c0, c1};
}

/* fp2_mul and fp2_sqr as called functions (ec.cuh's G2 code): one copy
 * of each per kernel, its three (two) independent products interleaved by
 * ptxas inside the call. */
static __device__ __noinline__ fp2_t fp2_mul_call(const fp2_t &a, const fp2_t &b)
{
    return fp2_mul(a, b);
}
static __device__ __noinline__ fp2_t fp2_sqr_call(const fp2_t &a) { return fp2_sqr(a); }

__device__ __forceinline__ fp2_t fp2_mul_fp(const fp2_t &a, const fp_t &b)
{
    return fp2_t{fp_mul(a.c0, b), fp_mul(a.c1, b)};
}

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2), as u^2 = -1: 4M and one
 * fp_inv (0 gives 0). */
__device__ __forceinline__ fp2_t fp2_inv(const fp2_t &a)
{
    fp_t t = fp_inv(fp_add(fp_mul(a.c0, a.c0), fp_mul(a.c1, a.c1)));
    return fp2_t{fp_mul(a.c0, t), fp_neg(fp_mul(a.c1, t))};
}

#endif /* CZ_CUDA_FP_CUH */
