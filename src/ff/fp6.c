/* Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1; elements c0 + c1 v + c2 v^2. */
#include "ff/tower.h"

void cz_fp6_add(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b) { fp6_add(r, a, b); }
void cz_fp6_sub(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b) { fp6_sub(r, a, b); }
void cz_fp6_neg(cz_fp6 *r, const cz_fp6 *a) { fp6_neg(r, a); }
void cz_fp6_mul_by_nonresidue(cz_fp6 *r, const cz_fp6 *a) { fp6_mul_by_nonresidue(r, a); }

/* Karatsuba over Fp2, 6M (Devegili, O hEigeartaigh, Scott, Dahab 2006):
 *   t_i = a_i b_i
 *   c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2
 *   c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
void cz_fp6_mul(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2 t0, t1, t2, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, &b->c0);
    fp2_mul(&t1, &a->c1, &b->c1);
    fp2_mul(&t2, &a->c2, &b->c2);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&u, &b->c1, &b->c2);
    fp2_mul(&c0, &s, &u);
    fp2_sub(&c0, &c0, &t1);
    fp2_sub(&c0, &c0, &t2);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &t0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, &b->c0, &b->c1);
    fp2_mul(&c1, &s, &u);
    fp2_sub(&c1, &c1, &t0);
    fp2_sub(&c1, &c1, &t1);
    fp2_mul_by_nonresidue(&s, &t2);
    fp2_add(&c1, &c1, &s);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&u, &b->c0, &b->c2);
    fp2_mul(&c2, &s, &u);
    fp2_sub(&c2, &c2, &t0);
    fp2_sub(&c2, &c2, &t2);
    fp2_add(&r->c2, &c2, &t1);
    r->c0 = c0;
    r->c1 = c1;
}

/* Chung-Hasan SQR2, 2M + 3S:
 *   s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2
 *   c0 = s0 + xi s3,  c1 = s1 + xi s4,  c2 = s1 + s2 + s3 - s0 - s4 */
void cz_fp6_sqr(cz_fp6 *r, const cz_fp6 *a)
{
    cz_fp2 s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&s2, &a->c0, &a->c1);
    fp2_add(&s2, &s2, &a->c2);
    fp2_sqr(&s2, &s2);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_add(&r->c2, &s1, &s2);
    fp2_add(&r->c2, &r->c2, &s3);
    fp2_sub(&r->c2, &r->c2, &s0);
    fp2_sub(&r->c2, &r->c2, &s4);
    fp2_mul_by_nonresidue(&t, &s3);
    fp2_add(&r->c0, &s0, &t);
    fp2_mul_by_nonresidue(&t, &s4);
    fp2_add(&r->c1, &s1, &t);
}

/* 1/a = (A0 + A1 v + A2 v^2) / N with
 *   A0 = a0^2 - xi a1 a2,  A1 = xi a2^2 - a0 a1,  A2 = a1^2 - a0 a2,
 *   N = a0 A0 + xi (a2 A1 + a1 A2)  (in Fp2).  0 maps to 0. */
void cz_fp6_inv(cz_fp6 *r, const cz_fp6 *a)
{
    cz_fp2 A0, A1, A2, t, n;
    fp2_sqr(&A0, &a->c0);
    fp2_mul(&t, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&t, &t);
    fp2_sub(&A0, &A0, &t);

    fp2_sqr(&A1, &a->c2);
    fp2_mul_by_nonresidue(&A1, &A1);
    fp2_mul(&t, &a->c0, &a->c1);
    fp2_sub(&A1, &A1, &t);

    fp2_sqr(&A2, &a->c1);
    fp2_mul(&t, &a->c0, &a->c2);
    fp2_sub(&A2, &A2, &t);

    fp2_mul(&n, &a->c2, &A1);
    fp2_mul(&t, &a->c1, &A2);
    fp2_add(&n, &n, &t);
    fp2_mul_by_nonresidue(&n, &n);
    fp2_mul(&t, &a->c0, &A0);
    fp2_add(&n, &n, &t);
    cz_fp2_inv(&n, &n);

    fp2_mul(&r->c0, &A0, &n);
    fp2_mul(&r->c1, &A1, &n);
    fp2_mul(&r->c2, &A2, &n);
}

/* Frobenius coefficients.  v^(p^k) = v * xi^((p^k - 1)/3) since v^3 = xi, so
 *   (a0 + a1 v + a2 v^2)^(p^k)
 *       = a0^(p^k) + a1^(p^k) g1[k] v + a2^(p^k) g2[k] v^2
 * with g1[k] = xi^((p^k - 1)/3), g2[k] = xi^(2 (p^k - 1)/3) = g1[k]^2, in
 * Montgomery form (k = 1, 2, 3; computed by square-and-multiply in Fp2 from
 * the definition; values in canonical hex beside them). */
static const cz_fp2 frob_v[3] = {
    /* xi^((p-1)/3) = 0x1a0111ea...00000000aaac u */
    {{{0}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    /* xi^((p^2-1)/3) = 0x5f19672f...2e01fffffffefffe */
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0}}},
    /* xi^((p^3-1)/3) = u */
    {{{0}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
};

static const cz_fp2 frob_v2[3] = {
    /* xi^(2(p-1)/3) = 0x1a0111ea...00000000aaad */
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
       0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0}}},
    /* xi^(2(p^2-1)/3) = 0x1a0111ea...00000000aaac */
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0}}},
    /* xi^(2(p^3-1)/3) = p - 1 */
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
       0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0}}},
};

/* One application of the p^k map for k in 1..3. */
static void fp6_frobenius_small(cz_fp6 *r, const cz_fp6 *a, unsigned k)
{
    cz_fp2_frobenius(&r->c0, &a->c0, k);
    cz_fp2_frobenius(&r->c1, &a->c1, k);
    cz_fp2_frobenius(&r->c2, &a->c2, k);
    fp2_mul(&r->c1, &r->c1, &frob_v[k - 1]);
    fp2_mul(&r->c2, &r->c2, &frob_v2[k - 1]);
}

/* a^(p^k): the map has order 6 on Fp6; larger k is split into steps of 3. */
void cz_fp6_frobenius(cz_fp6 *r, const cz_fp6 *a, unsigned k)
{
    k %= 6;
    *r = *a;
    for (; k >= 3; k -= 3)
        fp6_frobenius_small(r, r, 3);
    if (k)
        fp6_frobenius_small(r, r, k);
}

bool cz_fp6_equal(const cz_fp6 *a, const cz_fp6 *b)
{
    bool e0 = cz_fp2_equal(&a->c0, &b->c0), e1 = cz_fp2_equal(&a->c1, &b->c1);
    bool e2 = cz_fp2_equal(&a->c2, &b->c2);
    return e0 & e1 & e2;
}

void cz_fp6_random(cz_fp6 *r, cz_prng *g)
{
    cz_fp2_random(&r->c0, g);
    cz_fp2_random(&r->c1, g);
    cz_fp2_random(&r->c2, g);
}
