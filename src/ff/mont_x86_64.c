/* Montgomery multiplication and squaring for Fp (6 limbs) and Fr (4 limbs)
 * with the x86-64 BMI2/ADX instructions MULX, ADCX and ADOX.
 *
 * Multiplication runs the same algorithm, with the same intermediate values,
 * as cz_mont_mul in mont.h (CIOS, "no-carry" variant): for i = 0 .. N-1
 *     t = t + a * b[i]                 (N+1 words)
 *     k = t[0] * n0 mod 2^64
 *     t = (t + k * m) / 2^64           (N words, t < 2m)
 * then one constant-time conditional subtraction of m.  Both moduli leave
 * spare top bits (p < 2^381, r < 2^255), so t + a b[i] + k m < 2^(64(N+1))
 * and no carry word beyond t[N] is needed.
 *
 * Each row t += x * Y (x one word, Y N words) runs two carry chains at once
 * (Intel, "New Instructions Supporting Large Integer Arithmetic on Intel
 * Architecture Processors", 2012): MULX writes lo and hi without touching
 * the flags, ADCX adds the lo words along CF, ADOX the hi words (one column
 * up) along OF.  Cost per row: N MULX, 2N ADCX/ADOX, one ADC that merges the
 * two chains into the top word.  The top word starts at zero and the row's
 * total fits the N+1 words, so OF is clear after the last ADOX and the final
 * ADC carries nothing out.
 *
 * Squaring computes the double-width square with each cross product once,
 *     a^2 = sum_i a_i^2 2^(128 i) + 2 sum_{i<j} a_i a_j 2^(64(i+j)),
 * (N(N-1)/2 + N MULX instead of N^2), then Montgomery-reduces it: N rounds
 * k = t[0] n0, t = (t + k m) / 2^64 over the low half T_lo alone, giving
 * U = (T_lo + K m) / 2^(64N) <= m, and adds the high half
 * T_hi < m^2 / 2^(64N) < m / 2: U + T_hi < 2m, one conditional subtraction.  The result equals the
 * multiplication's bit for bit, both being the reduced a^2 / 2^(64N) mod m.
 *
 * The accumulator words are renamed at every round instead of moved: after a
 * reduction the low word is zero and that register becomes the new top word.
 * The macros take the accumulator operand names in the round's order (X0 =
 * lowest).  MULX, ADCX and ADOX sit in the asm text, so the compiler flags
 * need not enable BMI2/ADX; dispatch.c only calls these functions when CPUID
 * reports both.  No branch or memory index depends on the operands. */
#include "ff/ff_internal.h"

#if defined(__x86_64__)

/* Local copies of the moduli and n0 so that the asm addresses them
 * RIP-relative in every code model (position-independent or not). */
static const uint64_t fp_m[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t fp_n0 = CZ_P_N0;
static const uint64_t fr_m[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t fr_n0 = CZ_R_N0;

/* ------------------------------------------------------ building blocks --- */

/* clang-format off */

#define O(x) "%[" #x "]"
#define I(s) s "\n\t"

/* lo:hi = rdx * src; X += lo along CF; Y += hi along OF. */
#define MAC(src, X, Y) I("mulx " src ", %[lo], %[hi]") I("adcx %[lo], " O(X)) I("adox %[hi], " O(Y))

/* lo:hi = rdx * src; X1 += lo + CF; X2 = hi (single-chain row: the carry
 * into X2 is added by the next step). */
#define MUL_ADD(src, X1, X2) I("mulx " src ", %[lo], " O(X2)) I("adc %[lo], " O(X1))

/* X0..X6 = a * rdx (one carry chain; the first row of a product). */
#define ROW6_FIRST(X0, X1, X2, X3, X4, X5, X6)                                       \
    I("mulx 0(%[a]), " O(X0) ", " O(X1))                                             \
    I("mulx 8(%[a]), %[lo], " O(X2)) I("add %[lo], " O(X1))                          \
    MUL_ADD("16(%[a])", X2, X3) MUL_ADD("24(%[a])", X3, X4)                          \
    MUL_ADD("32(%[a])", X4, X5) MUL_ADD("40(%[a])", X5, X6) I("adc $0, " O(X6))

/* X0..X6 += a * rdx.  X6 is the word the previous reduction cleared and that
 * reduction left CF = OF = 0, so the XOR changes no value: it cuts the
 * dependency on the previous chain's flags, so that this row's chains start
 * before that one ends (without it, fp_mul takes 7 ns longer here). */
#define ROW6(X0, X1, X2, X3, X4, X5, X6)                                             \
    I("xor " O(X6) ", " O(X6))                                                       \
    MAC("0(%[a])", X0, X1) MAC("8(%[a])", X1, X2) MAC("16(%[a])", X2, X3)            \
    MAC("24(%[a])", X3, X4) MAC("32(%[a])", X4, X5) MAC("40(%[a])", X5, X6)          \
    I("adc $0, " O(X6))

/* k = X0 n0; X0..X6 += k p.  X0 becomes zero, X1..X6 is t / 2^64.  The XOR
 * clears the flags IMUL set. */
#define RED6(X0, X1, X2, X3, X4, X5, X6)                                             \
    I("movq " O(X0) ", %[d]") I("imulq %[n0], %[d]") I("xor %[lo], %[lo]")         \
    MAC("%[m]", X0, X1) MAC("8+%[m]", X1, X2) MAC("16+%[m]", X2, X3)                 \
    MAC("24+%[m]", X3, X4) MAC("32+%[m]", X4, X5) MAC("40+%[m]", X5, X6)             \
    I("adc $0, " O(X6))

/* X = 2 X + lo, Y = 2 Y + hi with lo:hi = src^2: the doubling along OF,
 * the square along CF (squaring's final pass). */
#define DIAG(src, X, Y)                                                              \
    I("movq " src ", %[d]") I("mulx %[d], %[lo], %[hi]") I("adox " O(X) ", " O(X))   \
    I("adcx %[lo], " O(X)) I("adox " O(Y) ", " O(Y)) I("adcx %[hi], " O(Y))

/* X = X - p if that does not borrow (X < 2p), with Y as scratch. */
#define SUB6(X0, X1, X2, X3, X4, X5, Y0, Y1, Y2, Y3, Y4, Y5)                         \
    I("movq " O(X0) ", " O(Y0)) I("movq " O(X1) ", " O(Y1))                          \
    I("movq " O(X2) ", " O(Y2)) I("movq " O(X3) ", " O(Y3))                          \
    I("movq " O(X4) ", " O(Y4)) I("movq " O(X5) ", " O(Y5))                          \
    I("sub %[m], " O(Y0)) I("sbb 8+%[m], " O(Y1)) I("sbb 16+%[m], " O(Y2))           \
    I("sbb 24+%[m], " O(Y3)) I("sbb 32+%[m], " O(Y4)) I("sbb 40+%[m], " O(Y5))       \
    I("cmovnc " O(Y0) ", " O(X0)) I("cmovnc " O(Y1) ", " O(X1))                      \
    I("cmovnc " O(Y2) ", " O(X2)) I("cmovnc " O(Y3) ", " O(X3))                      \
    I("cmovnc " O(Y4) ", " O(X4)) I("cmovnc " O(Y5) ", " O(X5))

#define STORE6(R, X0, X1, X2, X3, X4, X5)                                            \
    I("movq " O(X0) ", 0(" O(R) ")") I("movq " O(X1) ", 8(" O(R) ")")                \
    I("movq " O(X2) ", 16(" O(R) ")") I("movq " O(X3) ", 24(" O(R) ")")              \
    I("movq " O(X4) ", 32(" O(R) ")") I("movq " O(X5) ", 40(" O(R) ")")

/* ------------------------------------------------------------------ Fp --- */

/* 6 rounds: 72 MULX + 6 IMUL, 144 ADCX/ADOX.  13 registers. */
void cz_fp_mul_mulx(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, d;
    const uint64_t *ap = a->l, *bp = b->l;
    __asm__ volatile(
        I("movq 0(%[b]), %[d]") ROW6_FIRST(t0, t1, t2, t3, t4, t5, t6)
        RED6(t0, t1, t2, t3, t4, t5, t6)
        I("movq 8(%[b]), %[d]") ROW6(t1, t2, t3, t4, t5, t6, t0)
        RED6(t1, t2, t3, t4, t5, t6, t0)
        I("movq 16(%[b]), %[d]") ROW6(t2, t3, t4, t5, t6, t0, t1)
        RED6(t2, t3, t4, t5, t6, t0, t1)
        I("movq 24(%[b]), %[d]") ROW6(t3, t4, t5, t6, t0, t1, t2)
        RED6(t3, t4, t5, t6, t0, t1, t2)
        I("movq 32(%[b]), %[d]") ROW6(t4, t5, t6, t0, t1, t2, t3)
        RED6(t4, t5, t6, t0, t1, t2, t3)
        I("movq 40(%[b]), %[d]") ROW6(t5, t6, t0, t1, t2, t3, t4)
        RED6(t5, t6, t0, t1, t2, t3, t4)
        SUB6(t6, t0, t1, t2, t3, t4, lo, hi, a, b, t5, d)
        STORE6(r, t6, t0, t1, t2, t3, t4)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
          [a] "+&r"(ap), [b] "+&r"(bp)
        : [r] "r"(r->l), [m] "m"(fp_m), [n0] "m"(fp_n0)
        : "cc", "memory");
}

/* a^2: 15 + 6 MULX for the square, 36 MULX + 6 IMUL for the reduction.
 * 14 registers; the output pointer, R6 and R11 wait in xmm0..xmm2. */
void cz_fp_sqr_mulx(cz_fp *r, const cz_fp *a)
{
    uint64_t t1, t2, t3, t4, t5, t6, t7, t8, t10, lo, hi, d;
    uint64_t t9 = (uint64_t)(uintptr_t)r->l;
    const uint64_t *ap = a->l;
    __asm__ volatile(
        I("movq " O(t9) ", %%xmm2")
        /* cross products sum_{i<j} a_i a_j into words t1..t10, row by row */
        I("movq 0(%[a]), %[d]")
        I("mulx 8(%[a]), %[t1], %[t2]")
        I("mulx 16(%[a]), %[lo], %[t3]") I("add %[lo], %[t2]")
        MUL_ADD("24(%[a])", t3, t4) MUL_ADD("32(%[a])", t4, t5) MUL_ADD("40(%[a])", t5, t6)
        I("adc $0, %[t6]")
        I("movq 8(%[a]), %[d]") I("xor %[t7], %[t7]")
        MAC("16(%[a])", t3, t4) MAC("24(%[a])", t4, t5) MAC("32(%[a])", t5, t6)
        MAC("40(%[a])", t6, t7) I("adc $0, %[t7]")
        I("movq 16(%[a]), %[d]") I("xor %[t8], %[t8]")
        MAC("24(%[a])", t5, t6) MAC("32(%[a])", t6, t7) MAC("40(%[a])", t7, t8)
        I("adc $0, %[t8]")
        I("movq 24(%[a]), %[d]") I("xor %[t9], %[t9]")
        MAC("32(%[a])", t7, t8) MAC("40(%[a])", t8, t9) I("adc $0, %[t9]")
        I("movq 32(%[a]), %[d]")
        I("mulx 40(%[a]), %[lo], %[t10]") I("add %[lo], %[t9]") I("adc $0, %[t10]")
        /* double them (OF chain) and add the squares a_i^2 (CF chain), on
         * fresh flags (XOR); word 0, lo(a_0^2), is recomputed below by
         * IMUL.  The cross products sum to a_5 2^320 (a mod 2^320) + (less
         * than 2^639) < 2^702, so doubling t10 carries nothing out and
         * word 11 is hi + CF. */
        I("movq 0(%[a]), %[d]") I("xor %[lo], %[lo]") I("mulx %[d], %[lo], %[hi]")
        I("adox %[t1], %[t1]") I("adcx %[hi], %[t1]")
        DIAG("8(%[a])", t2, t3) DIAG("16(%[a])", t4, t5) DIAG("24(%[a])", t6, t7)
        DIAG("32(%[a])", t8, t9)
        I("movq 40(%[a]), %[d]") I("mulx %[d], %[lo], %[hi]")
        I("adox %[t10], %[t10]") I("adcx %[lo], %[t10]") I("adc $0, %[hi]")
        /* a^2 = (a0^2 mod 2^64, t1, .., t10, hi); reduce the low half */
        I("movq 0(%[a]), %[a]") I("imulq %[a], %[a]")
        I("movq %[t6], %%xmm1") I("movq %[hi], %%xmm0") I("xor %[t6], %[t6]")
        RED6(a, t1, t2, t3, t4, t5, t6)
        RED6(t1, t2, t3, t4, t5, t6, a)
        RED6(t2, t3, t4, t5, t6, a, t1)
        RED6(t3, t4, t5, t6, a, t1, t2)
        RED6(t4, t5, t6, a, t1, t2, t3)
        RED6(t5, t6, a, t1, t2, t3, t4)
        /* + the high half (xmm1, t7, t8, t9, t10, xmm0) */
        I("movq %%xmm1, %[lo]") I("movq %%xmm0, %[hi]")
        I("add %[lo], %[t6]") I("adc %[t7], %[a]") I("adc %[t8], %[t1]")
        I("adc %[t9], %[t2]") I("adc %[t10], %[t3]") I("adc %[hi], %[t4]")
        SUB6(t6, a, t1, t2, t3, t4, lo, hi, d, t5, t7, t8)
        I("movq %%xmm2, %[t9]")
        STORE6(t9, t6, a, t1, t2, t3, t4)
        : [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [t7] "=&r"(t7), [t8] "=&r"(t8), [t9] "+&r"(t9), [t10] "=&r"(t10),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d), [a] "+&r"(ap)
        : [m] "m"(fp_m), [n0] "m"(fp_n0)
        : "xmm0", "xmm1", "xmm2", "cc", "memory");
}

/* ------------------------------------------------------------------ Fr --- */

#define ROW4_FIRST(X0, X1, X2, X3, X4)                                           \
    I("mulx 0(%[a]), " O(X0) ", " O(X1))                                             \
    I("mulx 8(%[a]), %[lo], " O(X2)) I("add %[lo], " O(X1))                          \
    MUL_ADD("16(%[a])", X2, X3) MUL_ADD("24(%[a])", X3, X4) I("adc $0, " O(X4))

#define ROW4(X0, X1, X2, X3, X4)                                                     \
    I("xor " O(X4) ", " O(X4))                                                       \
    MAC("0(%[a])", X0, X1) MAC("8(%[a])", X1, X2) MAC("16(%[a])", X2, X3)            \
    MAC("24(%[a])", X3, X4) I("adc $0, " O(X4))

#define RED4(X0, X1, X2, X3, X4)                                                     \
    I("movq " O(X0) ", %[d]") I("imulq %[n0], %[d]") I("xor %[lo], %[lo]")         \
    MAC("%[m]", X0, X1) MAC("8+%[m]", X1, X2) MAC("16+%[m]", X2, X3)                 \
    MAC("24+%[m]", X3, X4) I("adc $0, " O(X4))

#define SUB4(X0, X1, X2, X3, Y0, Y1, Y2, Y3)                                         \
    I("movq " O(X0) ", " O(Y0)) I("movq " O(X1) ", " O(Y1))                          \
    I("movq " O(X2) ", " O(Y2)) I("movq " O(X3) ", " O(Y3))                          \
    I("sub %[m], " O(Y0)) I("sbb 8+%[m], " O(Y1))                                    \
    I("sbb 16+%[m], " O(Y2)) I("sbb 24+%[m], " O(Y3))                                \
    I("cmovnc " O(Y0) ", " O(X0)) I("cmovnc " O(Y1) ", " O(X1))                      \
    I("cmovnc " O(Y2) ", " O(X2)) I("cmovnc " O(Y3) ", " O(X3))

#define STORE4(R, X0, X1, X2, X3)                                                    \
    I("movq " O(X0) ", 0(" O(R) ")") I("movq " O(X1) ", 8(" O(R) ")")                \
    I("movq " O(X2) ", 16(" O(R) ")") I("movq " O(X3) ", 24(" O(R) ")")

/* 4 rounds: 32 MULX + 4 IMUL, 64 ADCX/ADOX.  11 registers. */
void cz_fr_mul_mulx(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    uint64_t t0, t1, t2, t3, t4, lo, hi, d;
    const uint64_t *ap = a->l, *bp = b->l;
    __asm__ volatile(
        I("movq 0(%[b]), %[d]") ROW4_FIRST(t0, t1, t2, t3, t4)
        RED4(t0, t1, t2, t3, t4)
        I("movq 8(%[b]), %[d]") ROW4(t1, t2, t3, t4, t0)
        RED4(t1, t2, t3, t4, t0)
        I("movq 16(%[b]), %[d]") ROW4(t2, t3, t4, t0, t1)
        RED4(t2, t3, t4, t0, t1)
        I("movq 24(%[b]), %[d]") ROW4(t3, t4, t0, t1, t2)
        RED4(t3, t4, t0, t1, t2)
        SUB4(t4, t0, t1, t2, lo, hi, a, b)
        STORE4(r, t4, t0, t1, t2)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d), [a] "+&r"(ap), [b] "+&r"(bp)
        : [r] "r"(r->l), [m] "m"(fr_m), [n0] "m"(fr_n0)
        : "cc", "memory");
}

/* a^2: 6 + 4 MULX for the square, 16 MULX + 4 IMUL for the reduction.
 * 13 registers. */
void cz_fr_sqr_mulx(cz_fr *r, const cz_fr *a)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, d;
    const uint64_t *ap = a->l;
    __asm__ volatile(
        /* cross products into t1..t6 */
        I("movq 0(%[a]), %[d]")
        I("mulx 8(%[a]), %[t1], %[t2]")
        I("mulx 16(%[a]), %[lo], %[t3]") I("add %[lo], %[t2]")
        MUL_ADD("24(%[a])", t3, t4) I("adc $0, %[t4]")
        I("movq 8(%[a]), %[d]") I("xor %[t5], %[t5]")
        MAC("16(%[a])", t3, t4) MAC("24(%[a])", t4, t5) I("adc $0, %[t5]")
        I("movq 16(%[a]), %[d]")
        I("mulx 24(%[a]), %[lo], %[t6]") I("add %[lo], %[t5]") I("adc $0, %[t6]")
        /* doubled (OF chain), plus the squares (CF chain); the cross
         * products sum to a_3 2^192 (a mod 2^192) + (less than 2^383) <
         * r_3 2^384 + 2^383 < 2^447, so doubling t6 carries nothing out and
         * word 7 is hi(a_3^2) + CF */
        I("movq 0(%[a]), %[d]") I("xor %[lo], %[lo]") I("mulx %[d], %[t0], %[hi]")
        I("adox %[t1], %[t1]") I("adcx %[hi], %[t1]")
        DIAG("8(%[a])", t2, t3) DIAG("16(%[a])", t4, t5)
        I("movq 24(%[a]), %[d]") I("mulx %[d], %[lo], %[t7]")
        I("adox %[t6], %[t6]") I("adcx %[lo], %[t6]") I("adc $0, %[t7]")
        /* reduce the low half t0..t3, then add the high half t4..t7 */
        I("xor %[a], %[a]")
        RED4(t0, t1, t2, t3, a)
        RED4(t1, t2, t3, a, t0)
        RED4(t2, t3, a, t0, t1)
        RED4(t3, a, t0, t1, t2)
        I("add %[t4], %[a]") I("adc %[t5], %[t0]") I("adc %[t6], %[t1]") I("adc %[t7], %[t2]")
        SUB4(a, t0, t1, t2, lo, hi, d, t3)
        STORE4(r, a, t0, t1, t2)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi),
          [d] "=&d"(d), [a] "+&r"(ap)
        : [r] "r"(r->l), [m] "m"(fr_m), [n0] "m"(fr_n0)
        : "cc", "memory");
}

/* clang-format on */

#endif /* __x86_64__ */
