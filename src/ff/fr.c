/* Fr, the 255-bit scalar field (the group order r), in Montgomery form
 * (R = 2^256), limbs exactly as blstrs' Scalar. */
#include <string.h>

#include "cuzk/err.h"
#include "ff/ff_internal.h"
#include "ff/field_template.h"
#include "ff/mont.h"

#define N 4
#define M cz_r_limbs

const uint64_t cz_r_limbs[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const cz_fr CZ_FR_ZERO = {{0}};
const cz_fr CZ_FR_ONE = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                          0x1824b159acc5056fULL}};
const cz_fr cz_fr_r2 = {{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                         0x0748d9d99f59ff11ULL}};
/* 2^768 mod r, for reducing the high half of a 512-bit value. */
static const cz_fr fr_r3 = {{0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL,
                             0x6e2a5bb9c8db33e9ULL}};

void cz_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b) { cz_mod_add(r->l, a->l, b->l, M, N); }
void cz_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b) { cz_mod_sub(r->l, a->l, b->l, M, N); }
void cz_fr_neg(cz_fr *r, const cz_fr *a) { cz_mod_neg(r->l, a->l, M, N); }
void cz_fr_dbl(cz_fr *r, const cz_fr *a) { cz_mod_add(r->l, a->l, a->l, M, N); }

void cz_fr_mul_portable(cz_fr *r, const cz_fr *a, const cz_fr *b)
{
    cz_mont_mul(r->l, a->l, b->l, M, CZ_R_N0, N);
}

void cz_fr_sqr_portable(cz_fr *r, const cz_fr *a) { cz_mont_mul(r->l, a->l, a->l, M, CZ_R_N0, N); }

bool cz_fr_is_zero(const cz_fr *a) { return cz_limbs_is_zero(a->l, N); }
bool cz_fr_is_one(const cz_fr *a) { return cz_limbs_equal(a->l, CZ_FR_ONE.l, N); }
bool cz_fr_equal(const cz_fr *a, const cz_fr *b) { return cz_limbs_equal(a->l, b->l, N); }
void cz_fr_cmov(cz_fr *r, const cz_fr *a, bool flag) { cz_limbs_cmov(r->l, a->l, flag, N); }

void cz_fr_from_canonical(cz_fr *r, const uint64_t a[4]) { cz_fr_mul(r, (const cz_fr *)a, &cz_fr_r2); }
void cz_fr_to_canonical(uint64_t r[4], const cz_fr *a) { cz_mont_reduce(r, a->l, M, CZ_R_N0, N); }

void cz_fr_from_u64(cz_fr *r, uint64_t v)
{
    uint64_t t[4] = {v};
    cz_fr_from_canonical(r, t);
}

void cz_fr_to_bytes_be(uint8_t out[32], const cz_fr *a)
{
    uint64_t t[4];
    cz_fr_to_canonical(t, a);
    cz_limbs_to_be(out, t, N);
}

void cz_fr_to_bytes_le(uint8_t out[32], const cz_fr *a)
{
    uint64_t t[4];
    cz_fr_to_canonical(t, a);
    cz_limbs_to_le(out, t, N);
}

static int fr_from_limbs_checked(cz_fr *r, const uint64_t t[4])
{
    if (!cz_limbs_lt(t, M, N))
        return CZ_ERR_NOT_CANONICAL;
    cz_fr_from_canonical(r, t);
    return CZ_OK;
}

int cz_fr_from_bytes_be(cz_fr *r, const uint8_t in[32])
{
    uint64_t t[4];
    cz_limbs_from_be(t, in, N);
    return fr_from_limbs_checked(r, t);
}

int cz_fr_from_bytes_le(cz_fr *r, const uint8_t in[32])
{
    uint64_t t[4];
    cz_limbs_from_le(t, in, N);
    return fr_from_limbs_checked(r, t);
}

/* x mod r for any 256-bit x: 2^256 < 3r, so two conditional subtractions. */
static void fr_reduce_256(uint64_t x[4])
{
    for (int k = 0; k < 2; k++) {
        uint64_t t[4], borrow = 0;
        for (int i = 0; i < N; i++)
            borrow = cz_sbb(&t[i], x[i], M[i], borrow);
        cz_limbs_cmov(x, t, borrow == 0, N);
    }
}

/* lo + hi 2^256 in Montgomery form = mont(lo, R^2) + mont(hi, R^3). */
void cz_fr_from_bytes_wide(cz_fr *r, const uint8_t in[64])
{
    uint64_t lo[4], hi[4];
    cz_fr a, b;
    cz_limbs_from_le(lo, in, N);
    cz_limbs_from_le(hi, in + 32, N);
    fr_reduce_256(lo);
    fr_reduce_256(hi);
    cz_fr_mul(&a, (const cz_fr *)lo, &cz_fr_r2);
    cz_fr_mul(&b, (const cz_fr *)hi, &fr_r3);
    cz_fr_add(r, &a, &b);
}

void cz_fr_random(cz_fr *r, cz_prng *g)
{
    uint64_t t[4];
    do {
        for (int i = 0; i < N; i++)
            t[i] = cz_prng_next(g);
        t[3] &= 0x7fffffffffffffffULL;
    } while (!cz_limbs_lt(t, M, N));
    cz_fr_from_canonical(r, t);
}

CZ_FIELD_DEFINE_POW(cz_fr, CZ_FR_ONE)
CZ_FIELD_DEFINE_BATCH_INV(cz_fr, CZ_FR_ONE, CZ_FR_ZERO)

/* 1/a = a^(r-2). */
void cz_fr_inv(cz_fr *r, const cz_fr *a)
{
    static const uint64_t e[4] = {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    cz_fr_pow(r, a, e, N);
}

int cz_fr_legendre(const cz_fr *a)
{
    static const uint64_t e[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                  0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
    cz_fr t;
    cz_fr_pow(&t, a, e, N);
    if (cz_fr_is_zero(&t))
        return 0;
    return cz_fr_is_one(&t) ? 1 : -1;
}

/* Constant-time Tonelli-Shanks (RFC 9380, appendix I.4) with r - 1 = 2^32 T,
 * T odd, and the 2^32-th root of unity c = 7^T:
 *   z = a^((T-1)/2); t = z^2 a; z = z a; b = t
 *   for i = 32 .. 2: b = b^(2^(i-2)); e = (b == 1)
 *                    z = e ? z : z c;  c = c^2;  t = e ? t : t c;  b = t
 * then z^2 == a iff a is a square. */
bool cz_fr_sqrt(cz_fr *r, const cz_fr *a)
{
    static const uint64_t tm1_2[4] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                      0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
    static const cz_fr root = {{0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};
    cz_fr z, t, b, c = root, tmp, chk;
    cz_fr_pow(&z, a, tm1_2, N);
    cz_fr_sqr(&t, &z);
    cz_fr_mul(&t, &t, a);
    cz_fr_mul(&z, &z, a);
    b = t;
    for (int i = 32; i >= 2; i--) {
        for (int j = 1; j <= i - 2; j++)
            cz_fr_sqr(&b, &b);
        bool e = cz_fr_is_one(&b);
        cz_fr_mul(&tmp, &z, &c);
        cz_fr_cmov(&z, &tmp, !e);
        cz_fr_sqr(&c, &c);
        cz_fr_mul(&tmp, &t, &c);
        cz_fr_cmov(&t, &tmp, !e);
        b = t;
    }
    cz_fr_sqr(&chk, &z);
    *r = z;
    return cz_fr_equal(&chk, a);
}
