/* Inline Fr addition and subtraction for loops that are dominated by them
 * next to one multiplication (NTT butterflies, pointwise passes).  Same
 * contracts as cz_fr_add / cz_fr_sub: fully reduced inputs and outputs,
 * constant time, outputs may alias inputs.  Not part of the public API. */
#ifndef CZ_FF_FR_INLINE_H
#define CZ_FF_FR_INLINE_H

#include "cuzk/ff.h"
#include "ff/ff_internal.h"
#include "ff/mont.h"

#if defined(__x86_64__)
/* r, local copy so that the asm reaches it RIP-relative. */
static const uint64_t fr_inline_m[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                        0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* s = a + b (no carry out: a, b < r < 2^255); t = s - r; keep s when that
 * borrows.  4 ADD/ADC, 4 SUB/SBB, 4 CMOV. */
CZ_INLINE void fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    uint64_t s0 = a->l[0], s1 = a->l[1], s2 = a->l[2], s3 = a->l[3], t0, t1, t2, t3;
    /* clang-format off */
    __asm__("addq %[b0], %[s0]\n\t"
            "adcq %[b1], %[s1]\n\t"
            "adcq %[b2], %[s2]\n\t"
            "adcq %[b3], %[s3]\n\t"
            "movq %[s0], %[t0]\n\t"
            "movq %[s1], %[t1]\n\t"
            "movq %[s2], %[t2]\n\t"
            "movq %[s3], %[t3]\n\t"
            "subq 0+%[m], %[t0]\n\t"
            "sbbq 8+%[m], %[t1]\n\t"
            "sbbq 16+%[m], %[t2]\n\t"
            "sbbq 24+%[m], %[t3]\n\t"
            "cmovcq %[s0], %[t0]\n\t"
            "cmovcq %[s1], %[t1]\n\t"
            "cmovcq %[s2], %[t2]\n\t"
            "cmovcq %[s3], %[t3]\n\t"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3),
              [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
            : [b0] "rm"(b->l[0]), [b1] "rm"(b->l[1]), [b2] "rm"(b->l[2]), [b3] "rm"(b->l[3]),
              [m] "m"(fr_inline_m)
            : "cc");
    /* clang-format on */
    r->l[0] = t0;
    r->l[1] = t1;
    r->l[2] = t2;
    r->l[3] = t3;
}

/* d = a - b; when that borrows add r (selected by CMOV from memory, so the
 * carry flag survives into the addition).  4 SUB/SBB, 4 CMOV, 4 ADD/ADC. */
CZ_INLINE void fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    uint64_t d0 = a->l[0], d1 = a->l[1], d2 = a->l[2], d3 = a->l[3];
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    /* clang-format off */
    __asm__("subq %[b0], %[d0]\n\t"
            "sbbq %[b1], %[d1]\n\t"
            "sbbq %[b2], %[d2]\n\t"
            "sbbq %[b3], %[d3]\n\t"
            "cmovcq 0+%[m], %[t0]\n\t"
            "cmovcq 8+%[m], %[t1]\n\t"
            "cmovcq 16+%[m], %[t2]\n\t"
            "cmovcq 24+%[m], %[t3]\n\t"
            "addq %[t0], %[d0]\n\t"
            "adcq %[t1], %[d1]\n\t"
            "adcq %[t2], %[d2]\n\t"
            "adcq %[t3], %[d3]\n\t"
            : [d0] "+&r"(d0), [d1] "+&r"(d1), [d2] "+&r"(d2), [d3] "+&r"(d3),
              [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3)
            : [b0] "rm"(b->l[0]), [b1] "rm"(b->l[1]), [b2] "rm"(b->l[2]), [b3] "rm"(b->l[3]),
              [m] "m"(fr_inline_m)
            : "cc");
    /* clang-format on */
    r->l[0] = d0;
    r->l[1] = d1;
    r->l[2] = d2;
    r->l[3] = d3;
}
#else
CZ_INLINE void fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    cz_mod_add(r->l, a->l, b->l, cz_r_limbs, 4);
}
CZ_INLINE void fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    cz_mod_sub(r->l, a->l, b->l, cz_r_limbs, 4);
}
#endif

#endif /* CZ_FF_FR_INLINE_H */
