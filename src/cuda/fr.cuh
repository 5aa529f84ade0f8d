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

/* Montgomery multiplication with even/odd accumulators, as fp.cuh's
 * fp_mul (which explains the method) on 8 words. */

/* t[0..8] += sum_k x_k y 2^(64 k), k < 4, one carry chain. */
__device__ __forceinline__ void fr_mac4(uint32_t (&t)[9], uint32_t x0, uint32_t x1, uint32_t x2,
                                        uint32_t x3, uint32_t y)
{
    asm("mad.lo.cc.u32 %0, %9, %13, %0;\n\t"
        "madc.hi.cc.u32 %1, %9, %13, %1;\n\t"
        "madc.lo.cc.u32 %2, %10, %13, %2;\n\t"
        "madc.hi.cc.u32 %3, %10, %13, %3;\n\t"
        "madc.lo.cc.u32 %4, %11, %13, %4;\n\t"
        "madc.hi.cc.u32 %5, %11, %13, %5;\n\t"
        "madc.lo.cc.u32 %6, %12, %13, %6;\n\t"
        "madc.hi.cc.u32 %7, %12, %13, %7;\n\t"
        "addc.u32 %8, %8, 0;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]),
          "+r"(t[7]), "+r"(t[8])
        : "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(y));
}

/* t[0..8] += v. */
__device__ __forceinline__ void fr_addw(uint32_t (&t)[9], uint32_t v)
{
    asm("add.cc.u32 %0, %0, %9;\n\t"
        "addc.cc.u32 %1, %1, 0;\n\t"
        "addc.cc.u32 %2, %2, 0;\n\t"
        "addc.cc.u32 %3, %3, 0;\n\t"
        "addc.cc.u32 %4, %4, 0;\n\t"
        "addc.cc.u32 %5, %5, 0;\n\t"
        "addc.cc.u32 %6, %6, 0;\n\t"
        "addc.cc.u32 %7, %7, 0;\n\t"
        "addc.u32 %8, %8, 0;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]),
          "+r"(t[7]), "+r"(t[8])
        : "r"(v));
}

/* The low 8 words of acc + 2^32 odd. */
__device__ __forceinline__ fr_t fr_merge(const uint32_t (&acc)[9], const uint32_t (&odd)[9])
{
    fr_t r;
    r.l[0] = acc[0];
    asm("add.cc.u32 %0, %7, %14;\n\t"
        "addc.cc.u32 %1, %8, %15;\n\t"
        "addc.cc.u32 %2, %9, %16;\n\t"
        "addc.cc.u32 %3, %10, %17;\n\t"
        "addc.cc.u32 %4, %11, %18;\n\t"
        "addc.cc.u32 %5, %12, %19;\n\t"
        "addc.u32 %6, %13, %20;"
        : "=r"(r.l[1]), "=r"(r.l[2]), "=r"(r.l[3]), "=r"(r.l[4]), "=r"(r.l[5]), "=r"(r.l[6]),
          "=r"(r.l[7])
        : "r"(acc[1]), "r"(acc[2]), "r"(acc[3]), "r"(acc[4]), "r"(acc[5]), "r"(acc[6]), "r"(acc[7]),
          "r"(odd[0]), "r"(odd[1]), "r"(odd[2]), "r"(odd[3]), "r"(odd[4]), "r"(odd[5]),
          "r"(odd[6]));
    return r;
}

/* Montgomery product a b / 2^256 mod r, fully reduced, for a, b < r.
 * r's low word is 1, so n0 = -r^-1 = -1 mod 2^32 and m = -ACC_0.  With
 * T < 2r on entry to a row, (T + a b_i + m r) / 2^32 < 2r, so ACC and ODD
 * fit their 9 words (2r 2^32 < 2^288), and one conditional subtraction
 * ends it. */
__device__ __forceinline__ fr_t fr_mul(const fr_t &a, const fr_t &b)
{
    uint32_t acc[9], odd[9];
#pragma unroll
    for (int j = 0; j < 9; j++)
        acc[j] = odd[j] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        uint32_t bi = b.l[i];
        fr_mac4(acc, a.l[0], a.l[2], a.l[4], a.l[6], bi);
        fr_mac4(odd, a.l[1], a.l[3], a.l[5], a.l[7], bi);
        uint32_t m = 0u - acc[0];
        fr_mac4(acc, FR_P0, FR_P2, FR_P4, FR_P6, m);
        fr_mac4(odd, FR_P1, FR_P3, FR_P5, FR_P7, m);
        fr_addw(odd, acc[1]);
        uint32_t t[9];
#pragma unroll
        for (int j = 0; j < 9; j++)
            t[j] = acc[j];
#pragma unroll
        for (int j = 0; j < 9; j++)
            acc[j] = odd[j];
#pragma unroll
        for (int j = 0; j < 7; j++)
            odd[j] = t[j + 2];
        odd[7] = odd[8] = 0;
    }
    return fr_reduce_once(fr_merge(acc, odd));
}

/* a^2: the product a a (a dedicated squaring that saves the 28 duplicated
 * cross products is left for later). */
__device__ __forceinline__ fr_t fr_sqr(const fr_t &a) { return fr_mul(a, a); }

/* a out of Montgomery form: (a R) 1 / R = a, canonical limbs. */
__device__ __forceinline__ fr_t fr_from_mont(const fr_t &a)
{
    fr_t one = {{1, 0, 0, 0, 0, 0, 0, 0}};
    return fr_mul(one, a);
}

/* Word q (0..8) of the limbs, 0 past the top; selects instead of a run-time
 * index keep s in registers. */
__device__ __forceinline__ uint32_t fr_word(const fr_t &s, unsigned q)
{
    uint32_t r = 0;
#pragma unroll
    for (unsigned i = 0; i < 8; i++)
        r = q == i ? s.l[i] : r;
    return r;
}

#endif /* CZ_CUDA_FR_CUH */
