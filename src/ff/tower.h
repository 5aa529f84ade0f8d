/* Inline Fp, Fp2 and Fp6 arithmetic for the extension tower and the pairing.
 *
 * The public cz_fp_add/cz_fp2_add etc. are out-of-line calls; in Fp6/Fp12
 * code, where additions outnumber multiplications, the call overhead costs
 * more than the additions themselves, so the tower files use these inline
 * copies instead (the multiplications stay calls to cz_fp_mul).  Same
 * contracts as the public functions they mirror: fully reduced inputs and
 * outputs, constant time, outputs may alias inputs.  Not part of the public
 * API. */
#ifndef CZ_FF_TOWER_H
#define CZ_FF_TOWER_H

#include "cuzk/ff.h"
#include "ff/ff_internal.h"
#include "ff/mont.h"

#if defined(__x86_64__)
/* The generic limb code of mont.h compiles to long carry sequences through
 * unsigned __int128; these are the six-limb chains written out.  p is a
 * file-local copy so the asm reaches it RIP-relative. */
static const uint64_t tower_p[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                    0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                    0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

/* The asm fp_add and fp_sub share: a's limbs into r8..r13, and r8..r13
 * out to r. */
#define LOAD_A                                                                                     \
    "movq 0(%[a]), %%r8\n\t"                                                                       \
    "movq 8(%[a]), %%r9\n\t"                                                                       \
    "movq 16(%[a]), %%r10\n\t"                                                                     \
    "movq 24(%[a]), %%r11\n\t"                                                                     \
    "movq 32(%[a]), %%r12\n\t"                                                                     \
    "movq 40(%[a]), %%r13\n\t"
#define STORE_R                                                                                    \
    "movq %%r8, 0(%[r])\n\t"                                                                       \
    "movq %%r9, 8(%[r])\n\t"                                                                       \
    "movq %%r10, 16(%[r])\n\t"                                                                     \
    "movq %%r11, 24(%[r])\n\t"                                                                     \
    "movq %%r12, 32(%[r])\n\t"                                                                     \
    "movq %%r13, 40(%[r])\n\t"

/* r = a + b, then r - p kept unless it borrows (cmov: no branch). */
CZ_INLINE void fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    const uint64_t *pa = a->l, *pb = b->l;
    /* clang-format off */
    __asm__ volatile(
        LOAD_A
        "addq 0(%[b]), %%r8\n\t"
        "adcq 8(%[b]), %%r9\n\t"
        "adcq 16(%[b]), %%r10\n\t"
        "adcq 24(%[b]), %%r11\n\t"
        "adcq 32(%[b]), %%r12\n\t"
        "adcq 40(%[b]), %%r13\n\t"
        "movq %%r8, %%rax\n\t"
        "movq %%r9, %%rcx\n\t"
        "movq %%r10, %%rdx\n\t"
        "movq %%r11, %[a]\n\t"
        "movq %%r12, %[b]\n\t"
        "movq %%r13, %%rsi\n\t"
        "subq 0+%[p], %%r8\n\t"
        "sbbq 8+%[p], %%r9\n\t"
        "sbbq 16+%[p], %%r10\n\t"
        "sbbq 24+%[p], %%r11\n\t"
        "sbbq 32+%[p], %%r12\n\t"
        "sbbq 40+%[p], %%r13\n\t"
        "cmovcq %%rax, %%r8\n\t"
        "cmovcq %%rcx, %%r9\n\t"
        "cmovcq %%rdx, %%r10\n\t"
        "cmovcq %[a], %%r11\n\t"
        "cmovcq %[b], %%r12\n\t"
        "cmovcq %%rsi, %%r13\n\t"
        STORE_R
        : [a] "+&r"(pa), [b] "+&r"(pb)
        : [r] "r"(r->l), [p] "m"(tower_p)
        : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "r12", "r13", "cc", "memory");
    /* clang-format on */
}

/* r = a - b, plus p when it borrows (p masked, no branch). */
CZ_INLINE void fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    const uint64_t *pa = a->l, *pb = b->l;
    /* clang-format off */
    __asm__ volatile(
        LOAD_A
        "subq 0(%[b]), %%r8\n\t"
        "sbbq 8(%[b]), %%r9\n\t"
        "sbbq 16(%[b]), %%r10\n\t"
        "sbbq 24(%[b]), %%r11\n\t"
        "sbbq 32(%[b]), %%r12\n\t"
        "sbbq 40(%[b]), %%r13\n\t"
        "sbbq %%rax, %%rax\n\t"
        "movq 0+%[p], %%rcx\n\t"
        "andq %%rax, %%rcx\n\t"
        "movq 8+%[p], %%rdx\n\t"
        "andq %%rax, %%rdx\n\t"
        "movq 16+%[p], %[a]\n\t"
        "andq %%rax, %[a]\n\t"
        "movq 24+%[p], %[b]\n\t"
        "andq %%rax, %[b]\n\t"
        "movq 32+%[p], %%rsi\n\t"
        "andq %%rax, %%rsi\n\t"
        "andq 40+%[p], %%rax\n\t"
        "addq %%rcx, %%r8\n\t"
        "adcq %%rdx, %%r9\n\t"
        "adcq %[a], %%r10\n\t"
        "adcq %[b], %%r11\n\t"
        "adcq %%rsi, %%r12\n\t"
        "adcq %%rax, %%r13\n\t"
        STORE_R
        : [a] "+&r"(pa), [b] "+&r"(pb)
        : [r] "r"(r->l), [p] "m"(tower_p)
        : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "r12", "r13", "cc", "memory");
    /* clang-format on */
}

#undef LOAD_A
#undef STORE_R

/* -a = 0 - a (0 stays 0: no borrow, nothing added). */
CZ_INLINE void fp_neg(cz_fp *r, const cz_fp *a)
{
    static const cz_fp zero;
    fp_sub(r, &zero, a);
}
#else
CZ_INLINE void fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    cz_mod_add(r->l, a->l, b->l, cz_p_limbs, 6);
}
CZ_INLINE void fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    cz_mod_sub(r->l, a->l, b->l, cz_p_limbs, 6);
}
CZ_INLINE void fp_neg(cz_fp *r, const cz_fp *a) { cz_mod_neg(r->l, a->l, cz_p_limbs, 6); }
#endif

CZ_INLINE void fp_dbl(cz_fp *r, const cz_fp *a) { fp_add(r, a, a); }

CZ_INLINE void fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}
CZ_INLINE void fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}
CZ_INLINE void fp2_dbl(cz_fp2 *r, const cz_fp2 *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}
CZ_INLINE void fp2_neg(cz_fp2 *r, const cz_fp2 *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u. */
CZ_INLINE void fp2_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a)
{
    cz_fp t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* Karatsuba, 3M:  (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1)
 *                 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u. */
CZ_INLINE void fp2_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp t0, t1, sa, sb;
    fp_add(&sa, &a->c0, &a->c1);
    fp_add(&sb, &b->c0, &b->c1);
    cz_fp_mul(&t0, &a->c0, &b->c0);
    cz_fp_mul(&t1, &a->c1, &b->c1);
    cz_fp_mul(&sa, &sa, &sb);
    fp_sub(&r->c0, &t0, &t1);
    fp_add(&t0, &t0, &t1);
    fp_sub(&r->c1, &sa, &t0);
}

/* Complex squaring, 2M:  (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u. */
CZ_INLINE void fp2_sqr(cz_fp2 *r, const cz_fp2 *a)
{
    cz_fp s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    cz_fp_mul(&m, &a->c0, &a->c1);
    cz_fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

CZ_INLINE void fp6_add(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}
CZ_INLINE void fp6_sub(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}
CZ_INLINE void fp6_neg(cz_fp6 *r, const cz_fp6 *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

/* v (a0 + a1 v + a2 v^2) = xi a2 + a0 v + a1 v^2. */
CZ_INLINE void fp6_mul_by_nonresidue(cz_fp6 *r, const cz_fp6 *a)
{
    cz_fp2 t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

#endif /* CZ_FF_TOWER_H */
