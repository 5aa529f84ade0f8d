/* Fp2 = Fp[u] / (u^2 + 1), elements c0 + c1 u. */
#include "ff/field_template.h"
#include "ff/tower.h"

void cz_fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) { fp2_add(r, a, b); }
void cz_fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) { fp2_sub(r, a, b); }
void cz_fp2_neg(cz_fp2 *r, const cz_fp2 *a) { fp2_neg(r, a); }
void cz_fp2_dbl(cz_fp2 *r, const cz_fp2 *a) { fp2_dbl(r, a); }
void cz_fp2_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) { fp2_mul(r, a, b); }
void cz_fp2_sqr(cz_fp2 *r, const cz_fp2 *a) { fp2_sqr(r, a); }
void cz_fp2_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a) { fp2_mul_by_nonresidue(r, a); }

void cz_fp2_mul_fp(cz_fp2 *r, const cz_fp2 *a, const cz_fp *b)
{
    cz_fp_mul(&r->c0, &a->c0, b);
    cz_fp_mul(&r->c1, &a->c1, b);
}

void cz_fp2_conj(cz_fp2 *r, const cz_fp2 *a)
{
    r->c0 = a->c0;
    cz_fp_neg(&r->c1, &a->c1);
}

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); 0 maps to 0. */
void cz_fp2_inv(cz_fp2 *r, const cz_fp2 *a)
{
    cz_fp n, t;
    cz_fp_sqr(&n, &a->c0);
    cz_fp_sqr(&t, &a->c1);
    cz_fp_add(&n, &n, &t);
    cz_fp_inv(&n, &n);
    cz_fp_mul(&r->c0, &a->c0, &n);
    cz_fp_mul(&r->c1, &a->c1, &n);
    cz_fp_neg(&r->c1, &r->c1);
}

/* u^p = -u since p = 3 mod 4, so a^(p^k) is a for even k, conj(a) for odd. */
void cz_fp2_frobenius(cz_fp2 *r, const cz_fp2 *a, unsigned k)
{
    r->c0 = a->c0;
    if (k & 1)
        cz_fp_neg(&r->c1, &a->c1);
    else
        r->c1 = a->c1;
}

bool cz_fp2_is_zero(const cz_fp2 *a)
{
    bool z0 = cz_fp_is_zero(&a->c0), z1 = cz_fp_is_zero(&a->c1);
    return z0 & z1;
}

bool cz_fp2_is_one(const cz_fp2 *a)
{
    bool o0 = cz_fp_is_one(&a->c0), z1 = cz_fp_is_zero(&a->c1);
    return o0 & z1;
}

bool cz_fp2_equal(const cz_fp2 *a, const cz_fp2 *b)
{
    bool e0 = cz_fp_equal(&a->c0, &b->c0), e1 = cz_fp_equal(&a->c1, &b->c1);
    return e0 & e1;
}

void cz_fp2_cmov(cz_fp2 *r, const cz_fp2 *a, bool flag)
{
    cz_fp_cmov(&r->c0, &a->c0, flag);
    cz_fp_cmov(&r->c1, &a->c1, flag);
}

/* Both halves are evaluated, so the time does not reveal whether c1 = 0. */
bool cz_fp2_is_lexicographically_largest(const cz_fp2 *a)
{
    bool l0 = cz_fp_is_lexicographically_largest(&a->c0);
    bool l1 = cz_fp_is_lexicographically_largest(&a->c1);
    bool z1 = cz_fp_is_zero(&a->c1);
    return (l1 & !z1) | (l0 & z1);
}

void cz_fp2_random(cz_fp2 *r, cz_prng *g)
{
    cz_fp_random(&r->c0, g);
    cz_fp_random(&r->c1, g);
}

/* a^(p^2 - 1)/2 = N(a)^((p-1)/2) with the norm N(a) = a^(p+1) = a0^2 + a1^2,
 * so a is a square in Fp2 iff its norm is one in Fp. */
int cz_fp2_legendre(const cz_fp2 *a)
{
    cz_fp n, t;
    cz_fp_sqr(&n, &a->c0);
    cz_fp_sqr(&t, &a->c1);
    cz_fp_add(&n, &n, &t);
    return cz_fp_legendre(&n);
}

/* r = a^e for a fixed public 6-limb exponent (binary, left to right). */
static void fp2_pow_fixed(cz_fp2 *r, const cz_fp2 *a, const uint64_t e[6])
{
    cz_fp2 acc = {CZ_FP_ONE, CZ_FP_ZERO};
    for (int i = 5; i >= 0; i--)
        for (int b = 63; b >= 0; b--) {
            cz_fp2_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                cz_fp2_mul(&acc, &acc, a);
        }
    *r = acc;
}

/* Square root for p = 3 mod 4: Adj and Rodriguez-Henriquez, "Square root
 * computation over even extension fields" (2012), Algorithm 9, with the
 * final branch replaced by a constant-time selection:
 *   a1 = a^((p-3)/4);  alpha = a1^2 a = a^((p-1)/2);  x0 = a1 a
 *   alpha == -1:  x = u x0
 *   otherwise:    x = (1 + alpha)^((p-1)/2) x0
 * and a is a square iff x^2 == a.  Cost: two 381-bit exponentiations. */
bool cz_fp2_sqrt(cz_fp2 *r, const cz_fp2 *a)
{
    static const uint64_t pm3_4[6] = {0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL,
                                      0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                      0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    static const uint64_t pm1_2[6] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                      0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                      0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    cz_fp2 a1, alpha, x0, x, xu, b, chk, minus_one;
    fp2_pow_fixed(&a1, a, pm3_4);
    cz_fp2_sqr(&alpha, &a1);
    cz_fp2_mul(&alpha, &alpha, a);
    cz_fp2_mul(&x0, &a1, a);

    /* u (x0 + x1 u) = -x1 + x0 u */
    cz_fp_neg(&xu.c0, &x0.c1);
    xu.c1 = x0.c0;

    b = alpha;
    cz_fp_add(&b.c0, &b.c0, &CZ_FP_ONE);
    fp2_pow_fixed(&b, &b, pm1_2);
    cz_fp2_mul(&x, &b, &x0);

    minus_one.c1 = CZ_FP_ZERO;
    cz_fp_neg(&minus_one.c0, &CZ_FP_ONE);
    cz_fp2_cmov(&x, &xu, cz_fp2_equal(&alpha, &minus_one));

    cz_fp2_sqr(&chk, &x);
    *r = x;
    return cz_fp2_equal(&chk, a);
}

/* Montgomery's trick on the norms: N_i = a_i0^2 + a_i1^2 in Fp (zero only
 * for a_i = 0, -1 being a non-square mod p), their inverses by
 * cz_fp_batch_inv, then 1/a_i = conj(a_i) / N_i.  Per element 2S + 5M in
 * Fp against the 3 Fp2 multiplications (9M) of the trick in Fp2.  The
 * scratch's n Fp2 elements hold the n norms and their n prefix products. */
void cz_fp2_batch_inv(cz_fp2 *r, const cz_fp2 *a, size_t n, cz_fp2 *scratch)
{
    cz_fp *nrm = (cz_fp *)scratch, *pre = nrm + n, t;
    for (size_t i = 0; i < n; i++) {
        cz_fp_sqr(&nrm[i], &a[i].c0);
        cz_fp_sqr(&t, &a[i].c1);
        cz_fp_add(&nrm[i], &nrm[i], &t);
    }
    cz_fp_batch_inv(nrm, nrm, n, pre);
    for (size_t i = 0; i < n; i++) {
        cz_fp_mul(&r[i].c0, &a[i].c0, &nrm[i]);
        cz_fp_mul(&t, &a[i].c1, &nrm[i]);
        cz_fp_neg(&r[i].c1, &t);
    }
}
