/* Portable Montgomery arithmetic on N x u64 limbs (little-endian), written
 * once and instantiated for Fp (N = 6) and Fr (N = 4) by fp.c and fr.c.
 *
 * Every function is constant time: no branch or memory index depends on the
 * values.  Inputs are fully reduced (< m) and so are outputs.
 *
 * Both moduli leave a spare bit at the top (m[N-1] < 2^63 - 1), which lets
 * the Montgomery product skip the extra carry word ("no-carry" CIOS, as in
 * gnark-crypto): the running total stays below 2m < 2^(64N). */
#ifndef CZ_FF_MONT_H
#define CZ_FF_MONT_H

#include <stdbool.h>
#include <stdint.h>

#define CZ_INLINE static inline __attribute__((always_inline))

/* Fully unrolls the limb loops below (N is a constant once inlined).  clang
 * 14 reads "#pragma GCC unroll 8" as "unroll by 8" and leaves the 4- and
 * 6-trip loops rolled, with t[] in memory: 57 instead of 40 ns per Fp
 * product. */
#if defined(__clang__)
#define CZ_UNROLL _Pragma("unroll")
#else
#define CZ_UNROLL _Pragma("GCC unroll 8")
#endif

typedef unsigned __int128 cz_u128;

/* Hides a mask's value from the optimiser, so a select written with masks
 * stays a data-flow select: without it clang turns `(a & m) | (b & ~m)` on a
 * secret condition into a branch or a load from a secret-chosen address. */
CZ_INLINE uint64_t cz_value_barrier(uint64_t v)
{
    __asm__("" : "+r"(v));
    return v;
}

/* r = a + b + carry_in, returns the carry out. */
CZ_INLINE uint64_t cz_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t c)
{
    cz_u128 t = (cz_u128)a + b + c;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
}

/* r = a - b - borrow_in, returns the borrow out (0 or 1). */
CZ_INLINE uint64_t cz_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t borrow)
{
    cz_u128 t = (cz_u128)a - b - borrow;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1;
}

/* r = (t >= m) ? t - m : t, for t < 2m. */
CZ_INLINE void cz_mont_final_sub(uint64_t *r, const uint64_t *t, const uint64_t *m, const int N)
{
    uint64_t s[8], borrow = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        borrow = cz_sbb(&s[i], t[i], m[i], borrow);
    uint64_t keep_t = cz_value_barrier(0 - borrow); /* all ones when t < m */
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* Montgomery product r = a * b / 2^(64N) mod m (CIOS, no-carry variant).
 * n0 = -m^-1 mod 2^64. */
CZ_INLINE void cz_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                           uint64_t n0, const int N)
{
    uint64_t t[8] = {0};
    CZ_UNROLL
    for (int i = 0; i < N; i++) {
        cz_u128 A = (cz_u128)a[0] * b[i] + t[0];
        t[0] = (uint64_t)A;
        uint64_t k = t[0] * n0;
        cz_u128 C = (cz_u128)k * m[0] + t[0];
        CZ_UNROLL
        for (int j = 1; j < N; j++) {
            A = (cz_u128)a[j] * b[i] + t[j] + (uint64_t)(A >> 64);
            t[j] = (uint64_t)A;
            C = (cz_u128)k * m[j] + t[j] + (uint64_t)(C >> 64);
            t[j - 1] = (uint64_t)C;
        }
        t[N - 1] = (uint64_t)(A >> 64) + (uint64_t)(C >> 64);
    }
    cz_mont_final_sub(r, t, m, N);
}

/* Montgomery reduction of a single-width value: r = a / 2^(64N) mod m. */
CZ_INLINE void cz_mont_reduce(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t n0,
                              const int N)
{
    uint64_t one[8] = {1};
    cz_mont_mul(r, a, one, m, n0, N);
}

/* r = a + b mod m. */
CZ_INLINE void cz_mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          const int N)
{
    uint64_t t[8], c = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        c = cz_adc(&t[i], a[i], b[i], c);
    cz_mont_final_sub(r, t, m, N); /* spare bit: no carry out of t */
}

/* r = a - b mod m. */
CZ_INLINE void cz_mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          const int N)
{
    uint64_t t[8], borrow = 0, c = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        borrow = cz_sbb(&t[i], a[i], b[i], borrow);
    uint64_t mask = cz_value_barrier(0 - borrow);
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        c = cz_adc(&r[i], t[i], m[i] & mask, c);
}

CZ_INLINE bool cz_limbs_is_zero(const uint64_t *a, const int N)
{
    uint64_t acc = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        acc |= a[i];
    return ((acc | (0 - acc)) >> 63) == 0;
}

CZ_INLINE bool cz_limbs_equal(const uint64_t *a, const uint64_t *b, const int N)
{
    uint64_t acc = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        acc |= a[i] ^ b[i];
    return ((acc | (0 - acc)) >> 63) == 0;
}

/* r = -a mod m (0 stays 0). */
CZ_INLINE void cz_mod_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, const int N)
{
    uint64_t t[8], borrow = 0;
    uint64_t nz = cz_value_barrier(0 - (uint64_t)!cz_limbs_is_zero(a, N));
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        borrow = cz_sbb(&t[i], m[i], a[i], borrow);
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        r[i] = t[i] & nz;
}

/* Returns true iff a < m (a is any N-limb value). */
CZ_INLINE bool cz_limbs_lt(const uint64_t *a, const uint64_t *m, const int N)
{
    uint64_t t, borrow = 0;
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        borrow = cz_sbb(&t, a[i], m[i], borrow);
    return borrow != 0;
}

CZ_INLINE void cz_limbs_cmov(uint64_t *r, const uint64_t *a, bool flag, const int N)
{
    uint64_t mask = cz_value_barrier(0 - (uint64_t)flag);
    CZ_UNROLL
    for (int i = 0; i < N; i++)
        r[i] ^= (r[i] ^ a[i]) & mask;
}

/* Big-endian / little-endian byte conversion of N limbs. */
CZ_INLINE void cz_limbs_to_be(uint8_t *out, const uint64_t *a, const int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++)
            out[8 * (N - 1 - i) + (7 - j)] = (uint8_t)(a[i] >> (8 * j));
}

CZ_INLINE void cz_limbs_from_be(uint64_t *a, const uint8_t *in, const int N)
{
    for (int i = 0; i < N; i++) {
        uint64_t v = 0;
        for (int j = 0; j < 8; j++)
            v = (v << 8) | in[8 * (N - 1 - i) + j];
        a[i] = v;
    }
}

CZ_INLINE void cz_limbs_to_le(uint8_t *out, const uint64_t *a, const int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(a[i] >> (8 * j));
}

CZ_INLINE void cz_limbs_from_le(uint64_t *a, const uint8_t *in, const int N)
{
    for (int i = 0; i < N; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = (v << 8) | in[8 * i + j];
        a[i] = v;
    }
}

#endif /* CZ_FF_MONT_H */
