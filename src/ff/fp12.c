/* Fp12 = Fp6[w] / (w^2 - v); elements c0 + c1 w.  Also, w^6 = xi = u + 1. */
#include "cuzk/err.h"
#include "ff/tower.h"

const cz_fp12 CZ_FP12_ONE = {
    .c0.c0.c0 = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                  0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}};

/* Karatsuba over Fp6, 3 Fp6 multiplications (18 Fp2 M):
 *   t0 = a0 b0, t1 = a1 b1
 *   c0 = t0 + v t1,  c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
void cz_fp12_mul(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b)
{
    cz_fp6 t0, t1, s, u;
    cz_fp6_mul(&t0, &a->c0, &b->c0);
    cz_fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    cz_fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring, 2 Fp6 multiplications (12 Fp2 M):
 *   t = a0 a1
 *   c0 = (a0 + a1)(a0 + v a1) - t - v t,  c1 = 2 t */
void cz_fp12_sqr(cz_fp12 *r, const cz_fp12 *a)
{
    cz_fp6 t, vt, s, u;
    cz_fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    cz_fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_mul_by_nonresidue(&vt, &t);
    fp6_sub(&r->c0, &s, &vt);
    fp6_add(&r->c1, &t, &t);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2); 0 maps to 0. */
void cz_fp12_inv(cz_fp12 *r, const cz_fp12 *a)
{
    cz_fp6 t0, t1;
    cz_fp6_sqr(&t0, &a->c0);
    cz_fp6_sqr(&t1, &a->c1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    cz_fp6_inv(&t0, &t0);
    cz_fp6_mul(&r->c0, &a->c0, &t0);
    cz_fp6_mul(&r->c1, &a->c1, &t0);
    fp6_neg(&r->c1, &r->c1);
}

/* a^(p^6): w^(p^6) = -w.  The inverse on the cyclotomic subgroup. */
void cz_fp12_conj(cz_fp12 *r, const cz_fp12 *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

/* w^(p^k) = w * xi^((p^k - 1)/6) since w^6 = xi, so
 *   (a0 + a1 w)^(p^k) = a0^(p^k) + a1^(p^k) gw[k] w,
 * gw[k] = xi^((p^k - 1)/6) in Montgomery form (k = 1, 2, 3; computed by
 * square-and-multiply in Fp2 from the definition; canonical hex beside). */
static const cz_fp2 frob_w[3] = {
    /* xi^((p-1)/6) = 0x1904d3bf...92235fb8 + 0x00fc3e2b...6ddc4af3 u */
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    /* xi^((p^2-1)/6) = 0x5f19672f...2e01fffffffeffff */
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0}}},
    /* xi^((p^3-1)/6) = 0x135203e6...121bdea2 + 0x06af0e04...ede3cc09 u */
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
       0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
       0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
};

static void fp12_frobenius_small(cz_fp12 *r, const cz_fp12 *a, unsigned k)
{
    cz_fp6_frobenius(&r->c0, &a->c0, k);
    cz_fp6_frobenius(&r->c1, &a->c1, k);
    fp2_mul(&r->c1.c0, &r->c1.c0, &frob_w[k - 1]);
    fp2_mul(&r->c1.c1, &r->c1.c1, &frob_w[k - 1]);
    fp2_mul(&r->c1.c2, &r->c1.c2, &frob_w[k - 1]);
}

/* a^(p^k): the map has order 12; larger k is split into steps of 3. */
void cz_fp12_frobenius(cz_fp12 *r, const cz_fp12 *a, unsigned k)
{
    k %= 12;
    *r = *a;
    for (; k >= 3; k -= 3)
        fp12_frobenius_small(r, r, 3);
    if (k)
        fp12_frobenius_small(r, r, k);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi), 3S:
 *   = a^2 + xi b^2 + ((a + b)^2 - a^2 - b^2) s */
static void fp4_sqr(cz_fp2 *r0, cz_fp2 *r1, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp2 t0, t1, t2;
    fp2_sqr(&t0, a);
    fp2_sqr(&t1, b);
    fp2_add(&t2, a, b);
    fp2_sqr(&t2, &t2);
    fp2_sub(&t2, &t2, &t0);
    fp2_sub(r1, &t2, &t1);
    fp2_mul_by_nonresidue(&t1, &t1);
    fp2_add(r0, &t0, &t1);
}

/* r = 3 t - 2 z  (sign -1)  or  3 t + 2 z  (sign +1). */
static void gs_combine(cz_fp2 *z, const cz_fp2 *t, int plus)
{
    cz_fp2 d;
    if (plus)
        fp2_add(&d, t, z);
    else
        fp2_sub(&d, t, z);
    fp2_dbl(&d, &d);
    fp2_add(z, &d, t);
}

/* Granger-Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
 * extensions" (PKC 2010), 9 Fp2 S.  With s = w^3 (s^2 = xi) write
 *   a = A + B w + C w^2,  A = a00 + a11 s, B = a10 + a02 s, C = a01 + a12 s
 * (a_ij = c_i.c_j).  For a of order dividing p^4 - p^2 + 1 the square is
 *   A' = 3 A^2 - 2 conj(A),  B' = 3 s C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C)
 * where conj negates the s-part (the p^6 power). */
void cz_fp12_cyclotomic_sqr(cz_fp12 *r, const cz_fp12 *a)
{
    cz_fp2 a0, a1, b0, b1, c0, c1, t;
    cz_fp2 z00 = a->c0.c0, z11 = a->c1.c1, z10 = a->c1.c0;
    cz_fp2 z02 = a->c0.c2, z01 = a->c0.c1, z12 = a->c1.c2;

    fp4_sqr(&a0, &a1, &z00, &z11);
    fp4_sqr(&b0, &b1, &z10, &z02);
    fp4_sqr(&c0, &c1, &z01, &z12);

    gs_combine(&z00, &a0, 0);
    gs_combine(&z11, &a1, 1);
    /* s C^2 = xi c1 + c0 s */
    fp2_mul_by_nonresidue(&t, &c1);
    gs_combine(&z10, &t, 1);
    gs_combine(&z02, &c0, 0);
    gs_combine(&z01, &b0, 0);
    gs_combine(&z12, &b1, 1);

    r->c0.c0 = z00;
    r->c0.c1 = z01;
    r->c0.c2 = z02;
    r->c1.c0 = z10;
    r->c1.c1 = z11;
    r->c1.c2 = z12;
}

bool cz_fp12_equal(const cz_fp12 *a, const cz_fp12 *b)
{
    bool e0 = cz_fp6_equal(&a->c0, &b->c0), e1 = cz_fp6_equal(&a->c1, &b->c1);
    return e0 & e1;
}

bool cz_fp12_is_one(const cz_fp12 *a) { return cz_fp12_equal(a, &CZ_FP12_ONE); }

void cz_fp12_random(cz_fp12 *r, cz_prng *g)
{
    cz_fp6_random(&r->c0, g);
    cz_fp6_random(&r->c1, g);
}

/* The 12 coefficients in tower order, c0.c0.c0 first. */
static cz_fp *fp12_coeff(cz_fp12 *a, int i)
{
    cz_fp6 *h = (i < 6) ? &a->c0 : &a->c1;
    cz_fp2 *q = (i % 6 < 2) ? &h->c0 : (i % 6 < 4) ? &h->c1 : &h->c2;
    return (i & 1) ? &q->c1 : &q->c0;
}

void cz_fp12_to_bytes_be(uint8_t out[576], const cz_fp12 *a)
{
    cz_fp12 t = *a;
    for (int i = 0; i < 12; i++)
        cz_fp_to_bytes_be(out + 48 * i, fp12_coeff(&t, i));
}

int cz_fp12_from_bytes_be(cz_fp12 *r, const uint8_t in[576])
{
    cz_fp12 t;
    for (int i = 0; i < 12; i++) {
        int err = cz_fp_from_bytes_be(fp12_coeff(&t, i), in + 48 * i);
        if (err != CZ_OK)
            return err;
    }
    *r = t;
    return CZ_OK;
}
