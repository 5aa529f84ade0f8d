/* Fp, the 381-bit base field, in Montgomery form (R = 2^384). */
#include <string.h>

#include "cuzk/err.h"
#include "ff/ff_internal.h"
#include "ff/field_template.h"
#include "ff/mont.h"

#define N 6
#define P cz_p_limbs

const uint64_t cz_p_limbs[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const cz_fp CZ_FP_ZERO = {{0}};
const cz_fp CZ_FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                          0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
const cz_fp cz_fp_r2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                         0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};

void cz_fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b) { cz_mod_add(r->l, a->l, b->l, P, N); }
void cz_fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b) { cz_mod_sub(r->l, a->l, b->l, P, N); }
void cz_fp_neg(cz_fp *r, const cz_fp *a) { cz_mod_neg(r->l, a->l, P, N); }
void cz_fp_dbl(cz_fp *r, const cz_fp *a) { cz_mod_add(r->l, a->l, a->l, P, N); }

void cz_fp_mul_portable(cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    cz_mont_mul(r->l, a->l, b->l, P, CZ_P_N0, N);
}

void cz_fp_sqr_portable(cz_fp *r, const cz_fp *a) { cz_mont_mul(r->l, a->l, a->l, P, CZ_P_N0, N); }

bool cz_fp_is_zero(const cz_fp *a) { return cz_limbs_is_zero(a->l, N); }
bool cz_fp_is_one(const cz_fp *a) { return cz_limbs_equal(a->l, CZ_FP_ONE.l, N); }
bool cz_fp_equal(const cz_fp *a, const cz_fp *b) { return cz_limbs_equal(a->l, b->l, N); }
bool cz_fp_is_reduced(const cz_fp *a) { return cz_limbs_lt(a->l, P, N); }
void cz_fp_cmov(cz_fp *r, const cz_fp *a, bool flag) { cz_limbs_cmov(r->l, a->l, flag, N); }

void cz_fp_from_canonical(cz_fp *r, const uint64_t a[6]) { cz_fp_mul(r, (const cz_fp *)a, &cz_fp_r2); }

void cz_fp_to_canonical(uint64_t r[6], const cz_fp *a) { cz_mont_reduce(r, a->l, P, CZ_P_N0, N); }

void cz_fp_from_u64(cz_fp *r, uint64_t v)
{
    uint64_t t[6] = {v};
    cz_fp_from_canonical(r, t);
}

void cz_fp_to_bytes_be(uint8_t out[48], const cz_fp *a)
{
    uint64_t t[6];
    cz_fp_to_canonical(t, a);
    cz_limbs_to_be(out, t, N);
}

void cz_fp_to_bytes_le(uint8_t out[48], const cz_fp *a)
{
    uint64_t t[6];
    cz_fp_to_canonical(t, a);
    cz_limbs_to_le(out, t, N);
}

static int fp_from_limbs_checked(cz_fp *r, const uint64_t t[6])
{
    if (!cz_limbs_lt(t, P, N))
        return CZ_ERR_NOT_CANONICAL;
    cz_fp_from_canonical(r, t);
    return CZ_OK;
}

int cz_fp_from_bytes_be(cz_fp *r, const uint8_t in[48])
{
    uint64_t t[6];
    cz_limbs_from_be(t, in, N);
    return fp_from_limbs_checked(r, t);
}

int cz_fp_from_bytes_le(cz_fp *r, const uint8_t in[48])
{
    uint64_t t[6];
    cz_limbs_from_le(t, in, N);
    return fp_from_limbs_checked(r, t);
}

bool cz_fp_is_lexicographically_largest(const cz_fp *a)
{
    /* canonical(a) > (p-1)/2  <=>  2 * canonical(a) > p - 1  <=>  2a >= p. */
    static const uint64_t half[6] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                     0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                     0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    uint64_t t[6];
    cz_fp_to_canonical(t, a);
    return cz_limbs_lt(half, t, N);
}

void cz_fp_random(cz_fp *r, cz_prng *g)
{
    uint64_t t[6];
    do {
        for (int i = 0; i < N; i++)
            t[i] = cz_prng_next(g);
        t[5] &= 0x1fffffffffffffffULL; /* 381 bits: p > 2^380, so < 2 tries on average */
    } while (!cz_limbs_lt(t, P, N));
    cz_fp_from_canonical(r, t);
}

CZ_FIELD_DEFINE_POW(cz_fp, CZ_FP_ONE)

/* 1/a = a^(p-2). */
void cz_fp_inv(cz_fp *r, const cz_fp *a)
{
    static const uint64_t pm2[6] = {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL,
                                    0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                    0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
    cz_fp_pow(r, a, pm2, N);
}

/* p = 3 mod 4: sqrt(a) = a^((p+1)/4) when a is a square. */
bool cz_fp_sqrt(cz_fp *r, const cz_fp *a)
{
    static const uint64_t e[6] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                  0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                  0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    cz_fp s, chk;
    cz_fp_pow(&s, a, e, N);
    cz_fp_sqr(&chk, &s);
    *r = s;
    return cz_fp_equal(&chk, a);
}

/* a^((p-1)/2) is 0, 1 or -1. */
int cz_fp_legendre(const cz_fp *a)
{
    static const uint64_t e[6] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                  0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                  0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    cz_fp t;
    cz_fp_pow(&t, a, e, N);
    if (cz_fp_is_zero(&t))
        return 0;
    return cz_fp_is_one(&t) ? 1 : -1;
}

CZ_FIELD_DEFINE_BATCH_INV(cz_fp, CZ_FP_ONE, CZ_FP_ZERO)
