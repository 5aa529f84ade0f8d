/* Device arithmetic in Fr, the BLS12-381 scalar field, for the CUDA back end.
 *
 * Layout: exactly the host's cz_fr (include/cuzk/ff.h): Montgomery form with
 * R = 2^256, four little-endian u64 limbs, i.e. eight little-endian u32 limbs
 * on a little-endian machine; every value fully reduced (< r).  Arrays of
 * cz_fr therefore copy to and from the device unchanged, and results are
 * bit-identical to the CPU's.
 *
 * The arithmetic uses 32-bit limbs and PTX carry chains (add.cc / addc,
 * mad.lo.cc / madc.hi.cc), which map one to one onto Hopper's IADD3 / IMAD
 * with carry; 64-bit integer multiplies would be emulated by several 32-bit
 * ones.  Not constant time in the sense of the host code: nothing branches
 * on values, but nothing here is meant for secrets either. */
#ifndef CZ_CUDA_FR_CUH
#define CZ_CUDA_FR_CUH

#include <stdint.h>

struct __align__(16) fr_t { uint32_t l[8]; };

/* r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
#define FR_P0 0x00000001u
#define FR_P1 0xffffffffu
#define FR_P2 0xfffe5bfeu
#define FR_P3 0x53bda402u
#define FR_P4 0x09a1d805u
#define FR_P5 0x3339d808u
#define FR_P6 0x299d7d48u
#define FR_P7 0x73eda753u
/* -r^-1 mod 2^32 (the low word of the host's CZ_R_N0). */
#define FR_N0 0xffffffffu
static_assert(FR_P0 == 1u && FR_N0 == 0xffffffffu, "FR_CIOS_ROW relies on r0 = 1, n0 = -1");

__device__ __forceinline__ fr_t fr_load(const fr_t *p)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 lo = q[0], hi = q[1];
    fr_t r;
    r.l[0] = lo.x, r.l[1] = lo.y, r.l[2] = lo.z, r.l[3] = lo.w;
    r.l[4] = hi.x, r.l[5] = hi.y, r.l[6] = hi.z, r.l[7] = hi.w;
    return r;
}

__device__ __forceinline__ void fr_store(fr_t *p, const fr_t &a)
{
    uint4 *q = reinterpret_cast<uint4 *>(p);
    q[0] = make_uint4(a.l[0], a.l[1], a.l[2], a.l[3]);
    q[1] = make_uint4(a.l[4], a.l[5], a.l[6], a.l[7]);
}

/* t - r when that does not borrow, else t (t < 2r < 2^256).  8 SUB with
 * borrow, 8 selects. */
__device__ __forceinline__ fr_t fr_reduce_once(const fr_t &t)
{
    fr_t d;
    uint32_t borrow;
    asm("sub.cc.u32  %0, %9,  %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\t"
        "subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\t"
        "subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\t"
        "subc.u32    %8, 0, 0;"
        : "=r"(d.l[0]), "=r"(d.l[1]), "=r"(d.l[2]), "=r"(d.l[3]), "=r"(d.l[4]), "=r"(d.l[5]),
          "=r"(d.l[6]), "=r"(d.l[7]), "=r"(borrow)
        : "r"(t.l[0]), "r"(t.l[1]), "r"(t.l[2]), "r"(t.l[3]), "r"(t.l[4]), "r"(t.l[5]), "r"(t.l[6]),
          "r"(t.l[7]), "n"(FR_P0), "n"(FR_P1), "n"(FR_P2), "n"(FR_P3), "n"(FR_P4), "n"(FR_P5),
          "n"(FR_P6), "n"(FR_P7));
    fr_t r;
#pragma unroll
    for (int i = 0; i < 8; i++)
        r.l[i] = borrow ? t.l[i] : d.l[i];
    return r;
}

/* a + b mod r: a + b < 2r < 2^256 has no carry out; then one conditional
 * subtraction. */
__device__ __forceinline__ fr_t fr_add(const fr_t &a, const fr_t &b)
{
    fr_t s;
    asm("add.cc.u32  %0, %8,  %16;\n\t"
        "addc.cc.u32 %1, %9,  %17;\n\t"
        "addc.cc.u32 %2, %10, %18;\n\t"
        "addc.cc.u32 %3, %11, %19;\n\t"
        "addc.cc.u32 %4, %12, %20;\n\t"
        "addc.cc.u32 %5, %13, %21;\n\t"
        "addc.cc.u32 %6, %14, %22;\n\t"
        "addc.u32    %7, %15, %23;"
        : "=r"(s.l[0]), "=r"(s.l[1]), "=r"(s.l[2]), "=r"(s.l[3]), "=r"(s.l[4]), "=r"(s.l[5]),
          "=r"(s.l[6]), "=r"(s.l[7])
        : "r"(a.l[0]), "r"(a.l[1]), "r"(a.l[2]), "r"(a.l[3]), "r"(a.l[4]), "r"(a.l[5]), "r"(a.l[6]),
          "r"(a.l[7]), "r"(b.l[0]), "r"(b.l[1]), "r"(b.l[2]), "r"(b.l[3]), "r"(b.l[4]), "r"(b.l[5]),
          "r"(b.l[6]), "r"(b.l[7]));
    return fr_reduce_once(s);
}

/* a - b mod r: subtract with borrow; on borrow add r (r & mask, so no
 * branch). */
__device__ __forceinline__ fr_t fr_sub(const fr_t &a, const fr_t &b)
{
    fr_t d;
    uint32_t m;
    asm("sub.cc.u32  %0, %9,  %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\t"
        "subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\t"
        "subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\t"
        "subc.u32    %8, 0, 0;"
        : "=r"(d.l[0]), "=r"(d.l[1]), "=r"(d.l[2]), "=r"(d.l[3]), "=r"(d.l[4]), "=r"(d.l[5]),
          "=r"(d.l[6]), "=r"(d.l[7]), "=r"(m)
        : "r"(a.l[0]), "r"(a.l[1]), "r"(a.l[2]), "r"(a.l[3]), "r"(a.l[4]), "r"(a.l[5]), "r"(a.l[6]),
          "r"(a.l[7]), "r"(b.l[0]), "r"(b.l[1]), "r"(b.l[2]), "r"(b.l[3]), "r"(b.l[4]), "r"(b.l[5]),
          "r"(b.l[6]), "r"(b.l[7]));
    fr_t r;
    /* m is 0 or 0xffffffff */
    asm("add.cc.u32  %0, %8,  %16;\n\t"
        "addc.cc.u32 %1, %9,  %17;\n\t"
        "addc.cc.u32 %2, %10, %18;\n\t"
        "addc.cc.u32 %3, %11, %19;\n\t"
        "addc.cc.u32 %4, %12, %20;\n\t"
        "addc.cc.u32 %5, %13, %21;\n\t"
        "addc.cc.u32 %6, %14, %22;\n\t"
        "addc.u32    %7, %15, %23;"
        : "=r"(r.l[0]), "=r"(r.l[1]), "=r"(r.l[2]), "=r"(r.l[3]), "=r"(r.l[4]), "=r"(r.l[5]),
          "=r"(r.l[6]), "=r"(r.l[7])
        : "r"(d.l[0]), "r"(d.l[1]), "r"(d.l[2]), "r"(d.l[3]), "r"(d.l[4]), "r"(d.l[5]), "r"(d.l[6]),
          "r"(d.l[7]), "r"(FR_P0 & m), "r"(FR_P1 & m), "r"(FR_P2 & m), "r"(FR_P3 & m),
          "r"(FR_P4 & m), "r"(FR_P5 & m), "r"(FR_P6 & m), "r"(FR_P7 & m));
    return r;
}

/* One CIOS row: t += a * bi, then t += m r with m = t0 * n0 (so t0 becomes
 * 0), 9 words t0..t8.  r's low word is 1 and n0 = -1 mod 2^32, so m = -t0
 * (a subtraction), m r0 = m (an addition) and hi(m r0) = 0 (skipped).
 * With a < r, bi < 2^32 and t < 2r on entry, the sum stays below
 * 2r (2^32 + 1) < 2^288, so nothing carries out of t8.  The caller drops
 * t0 (the division by 2^32) by renaming. */
#define FR_CIOS_ROW(bi)                                                                            \
    asm("mad.lo.cc.u32  %0, %9,  %17, %0;\n\t"                                                     \
        "madc.lo.cc.u32 %1, %10, %17, %1;\n\t"                                                     \
        "madc.lo.cc.u32 %2, %11, %17, %2;\n\t"                                                     \
        "madc.lo.cc.u32 %3, %12, %17, %3;\n\t"                                                     \
        "madc.lo.cc.u32 %4, %13, %17, %4;\n\t"                                                     \
        "madc.lo.cc.u32 %5, %14, %17, %5;\n\t"                                                     \
        "madc.lo.cc.u32 %6, %15, %17, %6;\n\t"                                                     \
        "madc.lo.cc.u32 %7, %16, %17, %7;\n\t"                                                     \
        "addc.u32       %8, %8, 0;\n\t"                                                            \
        "mad.hi.cc.u32  %1, %9,  %17, %1;\n\t"                                                     \
        "madc.hi.cc.u32 %2, %10, %17, %2;\n\t"                                                     \
        "madc.hi.cc.u32 %3, %11, %17, %3;\n\t"                                                     \
        "madc.hi.cc.u32 %4, %12, %17, %4;\n\t"                                                     \
        "madc.hi.cc.u32 %5, %13, %17, %5;\n\t"                                                     \
        "madc.hi.cc.u32 %6, %14, %17, %6;\n\t"                                                     \
        "madc.hi.cc.u32 %7, %15, %17, %7;\n\t"                                                     \
        "madc.hi.u32    %8, %16, %17, %8;\n\t"                                                     \
        "{\n\t.reg .u32 m;\n\t"                                                                    \
        "sub.u32        m, 0, %0;\n\t"                                                             \
        "add.cc.u32     %0, %0, m;\n\t"                                                            \
        "madc.lo.cc.u32 %1, m, %19, %1;\n\t"                                                       \
        "madc.lo.cc.u32 %2, m, %20, %2;\n\t"                                                       \
        "madc.lo.cc.u32 %3, m, %21, %3;\n\t"                                                       \
        "madc.lo.cc.u32 %4, m, %22, %4;\n\t"                                                       \
        "madc.lo.cc.u32 %5, m, %23, %5;\n\t"                                                       \
        "madc.lo.cc.u32 %6, m, %24, %6;\n\t"                                                       \
        "madc.lo.cc.u32 %7, m, %25, %7;\n\t"                                                       \
        "addc.u32       %8, %8, 0;\n\t"                                                            \
        "mad.hi.cc.u32  %2, m, %19, %2;\n\t"                                                       \
        "madc.hi.cc.u32 %3, m, %20, %3;\n\t"                                                       \
        "madc.hi.cc.u32 %4, m, %21, %4;\n\t"                                                       \
        "madc.hi.cc.u32 %5, m, %22, %5;\n\t"                                                       \
        "madc.hi.cc.u32 %6, m, %23, %6;\n\t"                                                       \
        "madc.hi.cc.u32 %7, m, %24, %7;\n\t"                                                       \
        "madc.hi.u32    %8, m, %25, %8;\n\t}"                                                      \
        : "+r"(t0), "+r"(t1), "+r"(t2), "+r"(t3), "+r"(t4), "+r"(t5), "+r"(t6), "+r"(t7), "+r"(t8) \
        : "r"(a.l[0]), "r"(a.l[1]), "r"(a.l[2]), "r"(a.l[3]), "r"(a.l[4]), "r"(a.l[5]),            \
          "r"(a.l[6]), "r"(a.l[7]), "r"(bi), "n"(FR_P0), "n"(FR_P1), "n"(FR_P2), "n"(FR_P3),       \
          "n"(FR_P4), "n"(FR_P5), "n"(FR_P6), "n"(FR_P7))

/* Montgomery product a b / 2^256 mod r, CIOS over 8 x 32-bit words.
 * Multiplier instructions per multiply: per word of b, 8 lo + 8 hi for a bi
 * and 7 lo + 7 hi for m r (r's low word 1 costs none, m = -t0 none): 30,
 * so 240 IMAD in all, plus per row 4 additions (m = -t0, t0 + m, two
 * carries into t8) and at the end one conditional subtraction (8 SUB with
 * borrow, 8 SEL). */
__device__ __forceinline__ fr_t fr_mul(const fr_t &a, const fr_t &b)
{
    uint32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0, t8 = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        FR_CIOS_ROW(b.l[i]);
        t0 = t1, t1 = t2, t2 = t3, t3 = t4, t4 = t5, t5 = t6, t6 = t7, t7 = t8, t8 = 0;
    }
    fr_t t;
    t.l[0] = t0, t.l[1] = t1, t.l[2] = t2, t.l[3] = t3;
    t.l[4] = t4, t.l[5] = t5, t.l[6] = t6, t.l[7] = t7;
    return fr_reduce_once(t);
}

/* a^2: the product a a (a dedicated squaring that saves the 28 duplicated
 * cross products is left for later). */
__device__ __forceinline__ fr_t fr_sqr(const fr_t &a) { return fr_mul(a, a); }

#endif /* CZ_CUDA_FR_CUH */
