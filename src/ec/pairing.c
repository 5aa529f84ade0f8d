/* The optimal ate pairing on BLS12-381.
 *
 *   e(P, Q) = f_{x,Q}(P)^((p^12 - 1)/r * 3),  x = -0xd201000000010000
 *
 * Miller loop.  Q lives on the M-type twist E': y^2 = x^3 + b', b' = 4 xi,
 * and maps to E(Fp12) by (x', y') -> (x' / w^2, y' / w^3).  A line through
 * points of E' with slope L' and intercept N' (y' = L' x' + N'), evaluated at
 * P = (xP, yP) in E(Fp) and multiplied by w^3 (which lies in Fp4, a proper
 * subfield, and so vanishes in the final exponentiation), is
 *
 *     -N'  +  (-L' xP) w^2  +  yP w^3  =  l0 + l1 v + l4 v w,
 *
 * an Fp12 element with only the coefficients c0.c0, c0.c1 and c1.c1 set
 * ("014" sparsity).  Any Fp2 multiple of the line may be used for the same
 * reason, which removes every division.  T is kept in homogeneous projective
 * coordinates (X : Y : Z) on E', and the formulas are those of Costello,
 * Lange and Naehrig, "Faster pairing computations on curves with high-degree
 * twists" (PKC 2010), in the form of Aranha, Karabina, Longa, Gebotys and
 * Lopez, "Faster explicit formulas for computing pairings over ordinary
 * curves" (Eurocrypt 2011), section 4.
 *
 * Since x < 0, f_{x,Q} = 1 / (f_{|x|,Q} v), v a vertical line that the final
 * exponentiation kills, and 1/f is conj(f) after it: the loop runs on |x| and
 * conjugates at the end.
 *
 * Final exponentiation.  (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) * Phi_12(p)/r.
 * The easy part f^((p^6 - 1)(p^2 + 1)) costs one inversion and lands in the
 * cyclotomic subgroup, where conj is the inverse and squaring is cheap.  The
 * hard part uses the identity of Hayashida, Hayasaka and Teruya, "Efficient
 * final exponentiation via cyclotomic structure for pairings over families of
 * elliptic curves" (ePrint 2020/875):
 *
 *     3 Phi_12(p)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3,
 *
 * so the result is the reduced pairing raised to 3.  blst, zkcrypto/bls12_381
 * and @noble/curves all compute exactly this power (their hard parts are
 * chains for the same exponent 3 Phi_12(p)/r), so values agree byte for byte;
 * since gcd(3, r) = 1 it is just as bilinear and non-degenerate. */
#include <string.h>

#include "cuzk/ec.h"
#include "ff/tower.h"

/* |x| and its bit length. */
#define BLS_X      0xd201000000010000ULL
#define BLS_X_BITS 64

/* Coefficients of a line, slots c0.c0, c0.c1, c1.c1 of an Fp12 element. */
typedef struct {
    cz_fp2 l0, l1, l4;
} line;

/* r = a / 2: add p when a is odd (a + p < 2^382 fits), shift right. */
static void fp_half(cz_fp *r, const cz_fp *a)
{
    uint64_t mask = 0 - (a->l[0] & 1), t[6], c = 0;
    for (int i = 0; i < 6; i++)
        c = cz_adc(&t[i], a->l[i], cz_p_limbs[i] & mask, c);
    for (int i = 0; i < 5; i++)
        r->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r->l[5] = t[5] >> 1;
}

static void fp2_half(cz_fp2 *r, const cz_fp2 *a)
{
    fp_half(&r->c0, &a->c0);
    fp_half(&r->c1, &a->c1);
}

/* Tangent at T, and T = 2T; 3M + 6S in Fp2 and 4M in Fp:
 *   A = X Y / 2, B = Y^2, C = Z^2, E = 3 b' C, F = 3 E, G = (B + F) / 2,
 *   H = (Y + Z)^2 - B - C = 2 Y Z
 *   X3 = A (B - F),  Y3 = G^2 - 3 E^2,  Z3 = B H
 * Line: slope L' = 3 X^2 / (2 Y Z), intercept N' = (2 Y^2 Z - 3 X^3) / (2 Y Z^2)
 * = (3 b' Z^2 - Y^2) / (2 Y Z) by Y^2 Z = X^3 + b' Z^3; times -2 Y Z:
 *   l0 = E - B,  l1 = 3 X^2 xP,  l4 = -H yP. */
static void dbl_step(line *l, cz_g2 *t, const cz_g1_affine *p)
{
    cz_fp2 a, b, c, e, f, g, h, x2;
    fp2_mul(&a, &t->x, &t->y);
    fp2_half(&a, &a);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    /* E = 3 b' C = 12 xi C */
    fp2_mul_by_nonresidue(&e, &c);
    fp2_dbl(&f, &e);
    fp2_add(&e, &e, &f);
    fp2_dbl(&e, &e);
    fp2_dbl(&e, &e);
    fp2_dbl(&f, &e);
    fp2_add(&f, &f, &e);
    fp2_add(&g, &b, &f);
    fp2_half(&g, &g);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);
    fp2_sqr(&x2, &t->x);

    /* line */
    fp2_sub(&l->l0, &e, &b);
    fp2_dbl(&l->l1, &x2);
    fp2_add(&l->l1, &l->l1, &x2);
    cz_fp2_mul_fp(&l->l1, &l->l1, &p->x);
    cz_fp2_mul_fp(&l->l4, &h, &p->y);
    fp2_neg(&l->l4, &l->l4);

    /* point */
    fp2_sub(&f, &b, &f);
    fp2_mul(&t->x, &a, &f);
    fp2_sqr(&g, &g);
    fp2_sqr(&e, &e);
    fp2_dbl(&f, &e);
    fp2_add(&e, &e, &f);
    fp2_sub(&t->y, &g, &e);
    fp2_mul(&t->z, &b, &h);
}

/* Line through T and Q (affine), and T = T + Q; 11M + 2S in Fp2, 4M in Fp:
 *   th = Y - yQ Z,  la = X - xQ Z,  C = th^2,  D = la^2,  E = la D,
 *   F = Z C,  G = X D,  H = E + F - 2 G
 *   X3 = la H,  Y3 = th (G - H) - Y E,  Z3 = Z E
 * Line (slope th/la, times la):  l0 = th xQ - la yQ,  l1 = -th xP,
 * l4 = la yP. */
static void add_step(line *l, cz_g2 *t, const cz_g2_affine *q, const cz_g1_affine *p)
{
    cz_fp2 th, la, c, d, e, f, g, h, s;
    fp2_mul(&th, &q->y, &t->z);
    fp2_sub(&th, &t->y, &th);
    fp2_mul(&la, &q->x, &t->z);
    fp2_sub(&la, &t->x, &la);
    fp2_sqr(&c, &th);
    fp2_sqr(&d, &la);
    fp2_mul(&e, &la, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_dbl(&h, &g);
    fp2_sub(&h, &f, &h);
    fp2_add(&h, &h, &e);

    /* line */
    fp2_mul(&l->l0, &th, &q->x);
    fp2_mul(&s, &la, &q->y);
    fp2_sub(&l->l0, &l->l0, &s);
    cz_fp2_mul_fp(&l->l1, &th, &p->x);
    fp2_neg(&l->l1, &l->l1);
    cz_fp2_mul_fp(&l->l4, &la, &p->y);

    /* point */
    fp2_mul(&t->x, &la, &h);
    fp2_sub(&g, &g, &h);
    fp2_mul(&g, &g, &th);
    fp2_mul(&s, &t->y, &e);
    fp2_sub(&t->y, &g, &s);
    fp2_mul(&t->z, &t->z, &e);
}

/* r = a (b0 + b1 v), 5M:
 *   c0 = a0 b0 + xi a2 b1,  c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1,
 *   c2 = a1 b1 + a2 b0 */
static void fp6_mul_by_01(cz_fp6 *r, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1)
{
    cz_fp2 t0, t1, s, u, c0, c1;
    fp2_mul(&t0, &a->c0, b0);
    fp2_mul(&t1, &a->c1, b1);
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &t0);
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, b0, b1);
    fp2_mul(&c1, &s, &u);
    fp2_sub(&c1, &c1, &t0);
    fp2_sub(&c1, &c1, &t1);
    fp2_mul(&s, &a->c2, b0);
    fp2_add(&r->c2, &s, &t1);
    r->c0 = c0;
    r->c1 = c1;
}

/* r = a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2, 3M. */
static void fp6_mul_by_1(cz_fp6 *r, const cz_fp6 *a, const cz_fp2 *b1)
{
    cz_fp2 t;
    fp2_mul(&t, &a->c2, b1);
    fp2_mul_by_nonresidue(&t, &t);
    fp2_mul(&r->c2, &a->c1, b1);
    fp2_mul(&r->c1, &a->c0, b1);
    r->c0 = t;
}

/* f = f * l with l = (l0 + l1 v) + (l4 v) w, 13M in Fp2:
 *   t0 = f0 (l0 + l1 v),  t1 = f1 (l4 v)
 *   c0 = t0 + v t1,  c1 = (f0 + f1)(l0 + (l1 + l4) v) - t0 - t1 */
static void fp12_mul_by_line(cz_fp12 *f, const line *l)
{
    cz_fp6 t0, t1, s;
    cz_fp2 l14;
    fp6_mul_by_01(&t0, &f->c0, &l->l0, &l->l1);
    fp6_mul_by_1(&t1, &f->c1, &l->l4);
    fp6_add(&s, &f->c0, &f->c1);
    fp2_add(&l14, &l->l1, &l->l4);
    fp6_mul_by_01(&s, &s, &l->l0, &l14);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&f->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&f->c0, &t0, &t1);
}

/* Pairs handled together in one pass; longer inputs run in chunks. */
#define CHUNK 16

/* f = l (f = 1 before: the first line needs no multiplication). */
static void fp12_set_line(cz_fp12 *f, const line *l)
{
    memset(f, 0, sizeof *f);
    f->c0.c0 = l->l0;
    f->c0.c1 = l->l1;
    f->c1.c1 = l->l4;
}

/* f = prod_{i<n} f_{|x|,q_i}(p_i) for 1 <= n <= CHUNK pairs, none at
 * infinity.  The loop squares f once per bit for all pairs. */
static void miller_chunk(cz_fp12 *f, const cz_g1_affine *p, const cz_g2_affine *q, size_t n)
{
    cz_g2 t[CHUNK];
    line l;
    bool is_one = true;
    for (size_t i = 0; i < n; i++) {
        t[i].x = q[i].x;
        t[i].y = q[i].y;
        t[i].z.c0 = CZ_FP_ONE;
        t[i].z.c1 = CZ_FP_ZERO;
    }
    for (int b = BLS_X_BITS - 2; b >= 0; b--) {
        if (!is_one)
            cz_fp12_sqr(f, f);
        for (size_t i = 0; i < n; i++) {
            dbl_step(&l, &t[i], &p[i]);
            if (is_one)
                fp12_set_line(f, &l);
            else
                fp12_mul_by_line(f, &l);
            is_one = false;
        }
        if ((BLS_X >> b) & 1)
            for (size_t i = 0; i < n; i++) {
                add_step(&l, &t[i], &q[i], &p[i]);
                fp12_mul_by_line(f, &l);
            }
    }
}

/* Time depends on n and on which inputs are the point at infinity. */
void cz_miller_loop_n(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q, size_t n)
{
    cz_fp12 acc = CZ_FP12_ONE, f;
    cz_g1_affine pp[CHUNK];
    cz_g2_affine qq[CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (cz_g1_affine_is_inf(&p[i]) || cz_g2_affine_is_inf(&q[i]))
            continue;
        pp[m] = p[i];
        qq[m] = q[i];
        if (++m == CHUNK) {
            miller_chunk(&f, pp, qq, m);
            cz_fp12_mul(&acc, &acc, &f);
            m = 0;
        }
    }
    if (m) {
        miller_chunk(&f, pp, qq, m);
        cz_fp12_mul(&acc, &acc, &f);
    }
    cz_fp12_conj(r, &acc); /* x < 0 */
}

/* r = a^|x| for a in the cyclotomic subgroup: 63 squarings, 5 products. */
static void cyclotomic_exp_abs_x(cz_fp12 *r, const cz_fp12 *a)
{
    cz_fp12 t = *a;
    for (int b = BLS_X_BITS - 2; b >= 0; b--) {
        cz_fp12_cyclotomic_sqr(&t, &t);
        if ((BLS_X >> b) & 1)
            cz_fp12_mul(&t, &t, a);
    }
    *r = t;
}

/* r = a^x = conj(a^|x|) (x < 0). */
static void cyclotomic_exp_x(cz_fp12 *r, const cz_fp12 *a)
{
    cyclotomic_exp_abs_x(r, a);
    cz_fp12_conj(r, r);
}

/* f^(3 (p^12 - 1)/r); see the top of the file.  Hard part:
 *   a = f^(x - 1),  a = a^(x - 1),  b = a^(x + p),
 *   c = b^(x^2 + p^2 - 1),  result = c f^3. */
void cz_final_exp(cz_fp12 *r, const cz_fp12 *f)
{
    cz_fp12 m, t, a, b, c;
    /* easy part: m = f^(p^6 - 1) = conj(f) / f;  m = m^(p^2 + 1) */
    cz_fp12_inv(&t, f);
    cz_fp12_conj(&m, f);
    cz_fp12_mul(&m, &m, &t);
    cz_fp12_frobenius(&t, &m, 2);
    cz_fp12_mul(&m, &m, &t);

    /* a = m^((x - 1)^2) */
    cz_fp12_conj(&t, &m);
    cyclotomic_exp_x(&a, &m);
    cz_fp12_mul(&a, &a, &t);
    cz_fp12_conj(&t, &a);
    cyclotomic_exp_x(&a, &a);
    cz_fp12_mul(&a, &a, &t);
    /* b = a^(x + p) */
    cyclotomic_exp_x(&b, &a);
    cz_fp12_frobenius(&t, &a, 1);
    cz_fp12_mul(&b, &b, &t);
    /* c = b^(x^2 + p^2 - 1) */
    cyclotomic_exp_x(&c, &b);
    cyclotomic_exp_x(&c, &c);
    cz_fp12_frobenius(&t, &b, 2);
    cz_fp12_mul(&c, &c, &t);
    cz_fp12_conj(&t, &b);
    cz_fp12_mul(&c, &c, &t);
    /* times m^3 */
    cz_fp12_cyclotomic_sqr(&t, &m);
    cz_fp12_mul(&t, &t, &m);
    cz_fp12_mul(r, &c, &t);
}

void cz_pairing(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q)
{
    cz_fp12 f;
    cz_miller_loop_n(&f, p, q, 1);
    cz_final_exp(r, &f);
}

void cz_multi_pairing(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q, size_t n)
{
    cz_fp12 f;
    cz_miller_loop_n(&f, p, q, n);
    cz_final_exp(r, &f);
}

bool cz_pairing_check(const cz_g1_affine *p, const cz_g2_affine *q, size_t n)
{
    cz_fp12 r;
    cz_multi_pairing(&r, p, q, n);
    return cz_fp12_is_one(&r);
}
