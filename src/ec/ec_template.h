/* Point arithmetic on y^2 = x^3 + b (a = 0), written once for any coordinate
 * field and instantiated by g1.c (Fp) and g2.c (Fp2), as blst does.  No
 * include guard: each including file gets its own copy.
 *
 * The includer defines:
 *   F                 the coordinate field type (cz_fp, cz_fp2)
 *   F_(op)            the field operation op: F_(mul) is cz_fp_mul, ...
 *   F_ONE             the field's one (an lvalue)
 *   F_B               the curve constant b (an lvalue)
 *   F_mul_b3(r, a)    r = 3b a
 *   F_BYTES           bytes of one encoded coordinate (48, 96)
 *   F_to_be(out, a)   big-endian encoding of a, F_BYTES bytes
 *   F_from_be(r, in)  its inverse: CZ_OK, or CZ_ERR_NOT_CANONICAL (r untouched)
 *   G_(name)          public name: G_(add) is cz_g1_add
 *   GS_TO_AFFINE      the batch conversion's public name (cz_g1s_to_affine)
 *   AFF, JAC, XYZZ    the affine, Jacobian and XYZZ point types
 * and, after the inclusion, G_(in_subgroup) with its endomorphism (which can
 * use mul_abs_x below).
 *
 * Op counts: M multiplication, S squaring, in F; additions are not counted.
 * Formulas named like dbl-2009-l are those of the Explicit-Formulas Database
 * (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html and
 * auto-shortw-xyzz.html). */

/* |x| for the BLS parameter x = -0xd201000000010000. */
#define EC_X_ABS 0xd201000000010000ULL

static const F f_zero; /* all-zero limbs: 0 in Montgomery form */

/* ----------------------------------------------------------------- affine -- */

/* Predicates combine their parts with & and |, not && and ||: no branch. */
bool G_(affine_is_inf)(const AFF *p)
{
    bool zx = F_(is_zero)(&p->x), zy = F_(is_zero)(&p->y);
    return zx & zy;
}

/* y^2 == x^3 + b; (0, 0) is not on the curve, so infinity is tested apart. */
bool G_(affine_is_on_curve)(const AFF *p)
{
    F lhs, rhs;
    F_(sqr)(&lhs, &p->y);
    F_(sqr)(&rhs, &p->x);
    F_(mul)(&rhs, &rhs, &p->x);
    F_(add)(&rhs, &rhs, &F_B);
    bool on = F_(equal)(&lhs, &rhs), inf = G_(affine_is_inf)(p);
    return on | inf;
}

bool G_(affine_in_subgroup)(const AFF *p)
{
    JAC t;
    G_(from_affine)(&t, p);
    return G_(in_subgroup)(&t);
}

bool G_(affine_equal)(const AFF *a, const AFF *b)
{
    bool ex = F_(equal)(&a->x, &b->x), ey = F_(equal)(&a->y, &b->y);
    return ex & ey;
}

void G_(affine_neg)(AFF *r, const AFF *p)
{
    r->x = p->x;
    F_(neg)(&r->y, &p->y);
}

/* --------------------------------------------------------------- Jacobian -- */

void G_(set_inf)(JAC *r)
{
    r->x = F_ONE;
    r->y = F_ONE;
    r->z = f_zero;
}

bool G_(is_inf)(const JAC *p) { return F_(is_zero)(&p->z); }

/* Y^2 == X^3 + b Z^6, or Z == 0. */
bool G_(is_on_curve)(const JAC *p)
{
    F lhs, rhs, z2, z6;
    F_(sqr)(&z2, &p->z);
    F_(sqr)(&z6, &z2);
    F_(mul)(&z6, &z6, &z2);
    F_(mul)(&z6, &z6, &F_B);
    F_(sqr)(&lhs, &p->y);
    F_(sqr)(&rhs, &p->x);
    F_(mul)(&rhs, &rhs, &p->x);
    F_(add)(&rhs, &rhs, &z6);
    bool on = F_(equal)(&lhs, &rhs), inf = G_(is_inf)(p);
    return on | inf;
}

/* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 (4M + 2S), or both infinite. */
bool G_(equal)(const JAC *a, const JAC *b)
{
    F z1z1, z2z2, u1, u2, s1, s2;
    bool ia = G_(is_inf)(a), ib = G_(is_inf)(b);
    F_(sqr)(&z1z1, &a->z);
    F_(sqr)(&z2z2, &b->z);
    F_(mul)(&u1, &a->x, &z2z2);
    F_(mul)(&u2, &b->x, &z1z1);
    F_(mul)(&s1, &a->y, &b->z);
    F_(mul)(&s1, &s1, &z2z2);
    F_(mul)(&s2, &b->y, &a->z);
    F_(mul)(&s2, &s2, &z1z1);
    bool ex = F_(equal)(&u1, &u2), ey = F_(equal)(&s1, &s2);
    return (ia & ib) | (!ia & !ib & ex & ey);
}

void G_(from_affine)(JAC *r, const AFF *p)
{
    bool inf = G_(affine_is_inf)(p);
    r->x = p->x;
    r->y = p->y;
    r->z = F_ONE;
    F_(cmov)(&r->z, &f_zero, inf);
}

/* (X / Z^2, Y / Z^3): 1 inversion + 3M + 1S.  Z = 0 gives (0, 0) since the
 * inversion maps 0 to 0. */
void G_(to_affine)(AFF *r, const JAC *p)
{
    F zi, zi2;
    F_(inv)(&zi, &p->z);
    F_(sqr)(&zi2, &zi);
    F_(mul)(&r->x, &p->x, &zi2);
    F_(mul)(&zi2, &zi2, &zi);
    F_(mul)(&r->y, &p->y, &zi2);
}

/* Montgomery's trick: out[i].x holds Z_0 ... Z_{i-1} (skipping zeros) on the
 * way up; on the way down inv = 1 / (Z_0 ... Z_i) gives 1/Z_i.  One inversion
 * plus 6M + 1S per point. */
void GS_TO_AFFINE(AFF *out, const JAC *in, size_t n)
{
    F acc = F_ONE, inv, zi, zi2;
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!G_(is_inf)(&in[i]))
            F_(mul)(&acc, &acc, &in[i].z);
    }
    F_(inv)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (G_(is_inf)(&in[i])) {
            out[i].x = f_zero;
            out[i].y = f_zero;
            continue;
        }
        F_(mul)(&zi, &inv, &out[i].x);
        F_(mul)(&inv, &inv, &in[i].z);
        F_(sqr)(&zi2, &zi);
        F_(mul)(&out[i].x, &in[i].x, &zi2);
        F_(mul)(&zi2, &zi2, &zi);
        F_(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

void G_(neg)(JAC *r, const JAC *p)
{
    r->x = p->x;
    F_(neg)(&r->y, &p->y);
    r->z = p->z;
}

/* dbl-2009-l, 2M + 5S:
 *   A = X1^2, B = Y1^2, C = B^2, D = 2((X1 + B)^2 - A - C), E = 3A,
 *   X3 = E^2 - 2D, Y3 = E (D - X3) - 8C, Z3 = 2 Y1 Z1.
 * Infinity (Z1 = 0) stays infinity. */
void G_(dbl)(JAC *r, const JAC *p)
{
    F a, b, c, d, e, x3, y3, z3;
    F_(sqr)(&a, &p->x);
    F_(sqr)(&b, &p->y);
    F_(sqr)(&c, &b);
    F_(add)(&d, &p->x, &b);
    F_(sqr)(&d, &d);
    F_(sub)(&d, &d, &a);
    F_(sub)(&d, &d, &c);
    F_(dbl)(&d, &d);
    F_(dbl)(&e, &a);
    F_(add)(&e, &e, &a);
    F_(sqr)(&x3, &e);
    F_(sub)(&x3, &x3, &d);
    F_(sub)(&x3, &x3, &d);
    F_(sub)(&y3, &d, &x3);
    F_(mul)(&y3, &y3, &e);
    F_(dbl)(&c, &c);
    F_(dbl)(&c, &c);
    F_(dbl)(&c, &c);
    F_(sub)(&y3, &y3, &c);
    F_(mul)(&z3, &p->y, &p->z);
    F_(dbl)(&r->z, &z3);
    r->x = x3;
    r->y = y3;
}

/* add-2007-bl, 11M + 5S:
 *   Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1 Z2Z2, U2 = X2 Z1Z1,
 *   S1 = Y1 Z2 Z2Z2, S2 = Y2 Z1 Z1Z1, H = U2 - U1, I = (2H)^2, J = H I,
 *   rr = 2(S2 - S1), V = U1 I,
 *   X3 = rr^2 - J - 2V, Y3 = rr (V - X3) - 2 S1 J,
 *   Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H.
 * H = 0 means a = +-b: doubling when rr = 0 too, else infinity. */
void G_(add)(JAC *r, const JAC *a, const JAC *b)
{
    F z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, x3, y3, z3;
    if (G_(is_inf)(a)) {
        *r = *b;
        return;
    }
    if (G_(is_inf)(b)) {
        *r = *a;
        return;
    }
    F_(sqr)(&z1z1, &a->z);
    F_(sqr)(&z2z2, &b->z);
    F_(mul)(&u1, &a->x, &z2z2);
    F_(mul)(&u2, &b->x, &z1z1);
    F_(mul)(&s1, &a->y, &b->z);
    F_(mul)(&s1, &s1, &z2z2);
    F_(mul)(&s2, &b->y, &a->z);
    F_(mul)(&s2, &s2, &z1z1);
    F_(sub)(&h, &u2, &u1);
    F_(sub)(&rr, &s2, &s1);
    if (F_(is_zero)(&h)) {
        if (F_(is_zero)(&rr))
            G_(dbl)(r, a);
        else
            G_(set_inf)(r);
        return;
    }
    F_(dbl)(&rr, &rr);
    F_(dbl)(&i, &h);
    F_(sqr)(&i, &i);
    F_(mul)(&j, &h, &i);
    F_(mul)(&v, &u1, &i);
    F_(sqr)(&x3, &rr);
    F_(sub)(&x3, &x3, &j);
    F_(sub)(&x3, &x3, &v);
    F_(sub)(&x3, &x3, &v);
    F_(sub)(&y3, &v, &x3);
    F_(mul)(&y3, &y3, &rr);
    F_(mul)(&s1, &s1, &j);
    F_(dbl)(&s1, &s1);
    F_(sub)(&y3, &y3, &s1);
    F_(add)(&z3, &a->z, &b->z);
    F_(sqr)(&z3, &z3);
    F_(sub)(&z3, &z3, &z1z1);
    F_(sub)(&z3, &z3, &z2z2);
    F_(mul)(&r->z, &z3, &h);
    r->x = x3;
    r->y = y3;
}

/* madd-2007-bl (Z2 = 1), 7M + 4S:
 *   Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1, HH = H^2,
 *   I = 4 HH, J = H I, rr = 2(S2 - Y1), V = X1 I,
 *   X3 = rr^2 - J - 2V, Y3 = rr (V - X3) - 2 Y1 J, Z3 = (Z1 + H)^2 - Z1Z1 - HH. */
void G_(add_affine)(JAC *r, const JAC *a, const AFF *b)
{
    F z1z1, u2, s2, h, hh, i, j, rr, v, x3, y3, z3;
    if (G_(affine_is_inf)(b)) {
        *r = *a;
        return;
    }
    if (G_(is_inf)(a)) {
        G_(from_affine)(r, b);
        return;
    }
    F_(sqr)(&z1z1, &a->z);
    F_(mul)(&u2, &b->x, &z1z1);
    F_(mul)(&s2, &b->y, &a->z);
    F_(mul)(&s2, &s2, &z1z1);
    F_(sub)(&h, &u2, &a->x);
    F_(sub)(&rr, &s2, &a->y);
    if (F_(is_zero)(&h)) {
        if (F_(is_zero)(&rr))
            G_(dbl)(r, a);
        else
            G_(set_inf)(r);
        return;
    }
    F_(dbl)(&rr, &rr);
    F_(sqr)(&hh, &h);
    F_(dbl)(&i, &hh);
    F_(dbl)(&i, &i);
    F_(mul)(&j, &h, &i);
    F_(mul)(&v, &a->x, &i);
    F_(sqr)(&x3, &rr);
    F_(sub)(&x3, &x3, &j);
    F_(sub)(&x3, &x3, &v);
    F_(sub)(&x3, &x3, &v);
    F_(sub)(&y3, &v, &x3);
    F_(mul)(&y3, &y3, &rr);
    F_(mul)(&j, &j, &a->y);
    F_(dbl)(&j, &j);
    F_(sub)(&y3, &y3, &j);
    F_(add)(&z3, &a->z, &h);
    F_(sqr)(&z3, &z3);
    F_(sub)(&z3, &z3, &z1z1);
    F_(sub)(&r->z, &z3, &hh);
    r->x = x3;
    r->y = y3;
}

/* r = [|x|] p by double-and-add over the public bits of |x| (63 doublings,
 * 5 additions), exact for every point of the curve. */
static void mul_abs_x(JAC *r, const JAC *p)
{
    JAC acc = *p;
    for (int i = 62; i >= 0; i--) {
        G_(dbl)(&acc, &acc);
        if ((EC_X_ABS >> i) & 1)
            G_(add)(&acc, &acc, p);
    }
    *r = acc;
}

/* ------------------------------------------ constant-time multiplication -- */

/* Homogeneous projective (X : Y : Z) = (X/Z, Y/Z), identity (0 : 1 : 0), the
 * coordinates of the complete formulas of Renes, Costello and Batina,
 * "Complete addition formulas for prime order elliptic curves" (2015): one
 * code path for every input, so the time depends on no value. */
typedef struct { F x, y, z; } proj;

/* Algorithm 7 (a = 0), 12M + 2 m_3b. */
static void proj_add(proj *r, const proj *p, const proj *q)
{
    F t0, t1, t2, t3, t4, x3, y3, z3;
    F_(mul)(&t0, &p->x, &q->x);
    F_(mul)(&t1, &p->y, &q->y);
    F_(mul)(&t2, &p->z, &q->z);
    F_(add)(&t3, &p->x, &p->y);
    F_(add)(&t4, &q->x, &q->y);
    F_(mul)(&t3, &t3, &t4);
    F_(add)(&t4, &t0, &t1);
    F_(sub)(&t3, &t3, &t4); /* X1 Y2 + X2 Y1 */
    F_(add)(&t4, &p->y, &p->z);
    F_(add)(&x3, &q->y, &q->z);
    F_(mul)(&t4, &t4, &x3);
    F_(add)(&x3, &t1, &t2);
    F_(sub)(&t4, &t4, &x3); /* Y1 Z2 + Y2 Z1 */
    F_(add)(&x3, &p->x, &p->z);
    F_(add)(&y3, &q->x, &q->z);
    F_(mul)(&x3, &x3, &y3);
    F_(add)(&y3, &t0, &t2);
    F_(sub)(&y3, &x3, &y3); /* X1 Z2 + X2 Z1 */
    F_(dbl)(&x3, &t0);
    F_(add)(&t0, &x3, &t0); /* 3 X1 X2 */
    F_mul_b3(&t2, &t2);
    F_(add)(&z3, &t1, &t2);
    F_(sub)(&t1, &t1, &t2);
    F_mul_b3(&y3, &y3);
    F_(mul)(&x3, &t4, &y3);
    F_(mul)(&t2, &t3, &t1);
    F_(sub)(&r->x, &t2, &x3);
    F_(mul)(&y3, &y3, &t0);
    F_(mul)(&t1, &t1, &z3);
    F_(add)(&r->y, &t1, &y3);
    F_(mul)(&t0, &t0, &t3);
    F_(mul)(&z3, &z3, &t4);
    F_(add)(&r->z, &z3, &t0);
}

/* Algorithm 9 (a = 0), 6M + 2S + 1 m_3b. */
static void proj_dbl(proj *r, const proj *p)
{
    F t0, t1, t2, x3, y3, z3;
    F_(sqr)(&t0, &p->y);
    F_(dbl)(&z3, &t0);
    F_(dbl)(&z3, &z3);
    F_(dbl)(&z3, &z3); /* 8 Y^2 */
    F_(mul)(&t1, &p->y, &p->z);
    F_(sqr)(&t2, &p->z);
    F_mul_b3(&t2, &t2);
    F_(mul)(&x3, &t2, &z3);
    F_(add)(&y3, &t0, &t2);
    F_(mul)(&z3, &t1, &z3);
    F_(dbl)(&t1, &t2);
    F_(add)(&t2, &t1, &t2);
    F_(sub)(&t0, &t0, &t2);
    F_(mul)(&y3, &t0, &y3);
    F_(add)(&y3, &x3, &y3);
    F_(mul)(&t1, &p->x, &p->y);
    F_(mul)(&x3, &t0, &t1);
    F_(dbl)(&r->x, &x3);
    r->y = y3;
    r->z = z3;
}

static void proj_cmov(proj *r, const proj *a, bool flag)
{
    F_(cmov)(&r->x, &a->x, flag);
    F_(cmov)(&r->y, &a->y, flag);
    F_(cmov)(&r->z, &a->z, flag);
}

/* Jacobian (X, Y, Z) -> (X Z : Y : Z^3); infinity -> (0 : 1 : 0). */
static void proj_from_jac(proj *r, const JAC *p)
{
    F z2;
    F_(sqr)(&z2, &p->z);
    F_(mul)(&r->z, &z2, &p->z);
    F_(mul)(&r->x, &p->x, &p->z);
    r->y = p->y;
    F_(cmov)(&r->y, &F_ONE, F_(is_zero)(&p->z));
}

/* (X : Y : Z) -> Jacobian (X Z, Y Z^2, Z); the identity gets Z = 0. */
static void proj_to_jac(JAC *r, const proj *p)
{
    F z2;
    F_(sqr)(&z2, &p->z);
    F_(mul)(&r->x, &p->x, &p->z);
    F_(mul)(&r->y, &p->y, &z2);
    r->z = p->z;
}

/* Fixed 4-bit windows, most significant first: 64 windows of 4 doublings
 * (the first skipped) and one complete addition of tab[d] = d P, read by
 * scanning all 16 entries with cmov.  No branch or index depends on k. */
void G_(mul)(JAC *r, const JAC *p, const cz_fr *k)
{
    uint64_t e[4];
    proj tab[16], acc, sel;
    cz_fr_to_canonical(e, k);
    tab[0].x = f_zero;
    tab[0].y = F_ONE;
    tab[0].z = f_zero;
    proj_from_jac(&tab[1], p);
    for (int i = 2; i < 16; i++) {
        if (i & 1)
            proj_add(&tab[i], &tab[i - 1], &tab[1]);
        else
            proj_dbl(&tab[i], &tab[i / 2]);
    }
    acc = tab[0];
    for (int w = 63; w >= 0; w--) {
        uint32_t d = (uint32_t)(e[w / 16] >> (4 * (w % 16))) & 15;
        if (w != 63)
            for (int j = 0; j < 4; j++)
                proj_dbl(&acc, &acc);
        sel = tab[0];
        for (uint32_t i = 1; i < 16; i++)
            proj_cmov(&sel, &tab[i], ((i ^ d) - 1) >> 31); /* i == d */
        proj_add(&acc, &acc, &sel);
    }
    proj_to_jac(r, &acc);
}

/* r = a + b for any inputs (equal, opposite, infinity) through the complete
 * projective formulas: no branch depends on the points.  For values derived
 * from secrets, e.g. a Groth16 proof's blinded terms. */
void G_(add_ct)(JAC *r, const JAC *a, const JAC *b)
{
    proj pa, pb;
    proj_from_jac(&pa, a);
    proj_from_jac(&pb, b);
    proj_add(&pa, &pa, &pb);
    proj_to_jac(r, &pa);
}

/* ----------------------------------------- variable-time multiplication -- */

/* Width-5 NAF of the 255-bit k: digits in {0, +-1, +-3, ..., +-15}, any two
 * non-zero digits at least 5 apart.  Returns the digit count (<= 256). */
static int wnaf5(int8_t naf[257], const uint64_t k[4])
{
    uint64_t e[4] = {k[0], k[1], k[2], k[3]}; /* < 2^255: e + 15 fits */
    int n = 0;
    while (e[0] | e[1] | e[2] | e[3]) {
        int d = 0;
        if (e[0] & 1) {
            d = (int)(e[0] & 31);
            if (d > 15)
                d -= 32;
            /* e -= d, with d odd in [-15, 15] */
            uint64_t c = (uint64_t)(d < 0 ? -d : d), t;
            if (d > 0) {
                for (int i = 0; i < 4; i++) {
                    t = e[i];
                    e[i] = t - c;
                    c = t < c;
                }
            } else {
                for (int i = 0; i < 4; i++) {
                    e[i] += c;
                    c = e[i] < c;
                }
            }
        }
        naf[n++] = (int8_t)d;
        for (int i = 0; i < 3; i++)
            e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    return n;
}

/* wNAF (w = 5) with the odd multiples P, 3P, ..., 15P in Jacobian form:
 * about 255 doublings and 43 additions. */
void G_(mul_var)(JAC *r, const JAC *p, const cz_fr *k)
{
    uint64_t e[4];
    int8_t naf[257];
    JAC tab[8], p2, acc, t;
    cz_fr_to_canonical(e, k);
    int n = wnaf5(naf, e);
    tab[0] = *p;
    G_(dbl)(&p2, p);
    for (int i = 1; i < 8; i++)
        G_(add)(&tab[i], &tab[i - 1], &p2);
    G_(set_inf)(&acc);
    for (int i = n - 1; i >= 0; i--) {
        if (i != n - 1)
            G_(dbl)(&acc, &acc);
        if (naf[i] > 0) {
            G_(add)(&acc, &acc, &tab[naf[i] >> 1]);
        } else if (naf[i] < 0) {
            G_(neg)(&t, &tab[(-naf[i]) >> 1]);
            G_(add)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

/* ------------------------------------------------------------------ XYZZ -- */

void G_(xyzz_set_inf)(XYZZ *r)
{
    r->x = F_ONE;
    r->y = F_ONE;
    r->zz = f_zero;
    r->zzz = f_zero;
}

void G_(xyzz_from_affine)(XYZZ *r, const AFF *p)
{
    if (G_(affine_is_inf)(p)) {
        G_(xyzz_set_inf)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    r->zz = F_ONE;
    r->zzz = F_ONE;
}

/* dbl-2008-s-1 (a = 0), 6M + 3S:
 *   U = 2 Y1, V = U^2, W = U V, S = X1 V, M = 3 X1^2,
 *   X3 = M^2 - 2S, Y3 = M (S - X3) - W Y1, ZZ3 = V ZZ1, ZZZ3 = W ZZZ1.
 * Infinity (ZZ1 = ZZZ1 = 0) stays infinity. */
void G_(xyzz_dbl)(XYZZ *r, const XYZZ *p)
{
    F u, v, w, s, m, x3, y3;
    F_(dbl)(&u, &p->y);
    F_(sqr)(&v, &u);
    F_(mul)(&w, &u, &v);
    F_(mul)(&s, &p->x, &v);
    F_(sqr)(&m, &p->x);
    F_(dbl)(&u, &m);
    F_(add)(&m, &m, &u);
    F_(sqr)(&x3, &m);
    F_(sub)(&x3, &x3, &s);
    F_(sub)(&x3, &x3, &s);
    F_(sub)(&y3, &s, &x3);
    F_(mul)(&y3, &y3, &m);
    F_(mul)(&u, &w, &p->y);
    F_(sub)(&r->y, &y3, &u);
    F_(mul)(&r->zz, &v, &p->zz);
    F_(mul)(&r->zzz, &w, &p->zzz);
    r->x = x3;
}

/* add-2008-s, 12M + 2S:
 *   U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1,
 *   R = S2 - S1, PP = P^2, PPP = P PP, Q = U1 PP,
 *   X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - S1 PPP,
 *   ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP.
 * P = 0 means a = +-b: doubling when R = 0 too, else infinity. */
void G_(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b)
{
    F u1, u2, s1, s2, p, rr, pp, ppp, q, x3, y3;
    if (F_(is_zero)(&a->zz)) {
        *r = *b;
        return;
    }
    if (F_(is_zero)(&b->zz)) {
        *r = *a;
        return;
    }
    F_(mul)(&u1, &a->x, &b->zz);
    F_(mul)(&u2, &b->x, &a->zz);
    F_(mul)(&s1, &a->y, &b->zzz);
    F_(mul)(&s2, &b->y, &a->zzz);
    F_(sub)(&p, &u2, &u1);
    F_(sub)(&rr, &s2, &s1);
    if (F_(is_zero)(&p)) {
        if (F_(is_zero)(&rr))
            G_(xyzz_dbl)(r, a);
        else
            G_(xyzz_set_inf)(r);
        return;
    }
    F_(sqr)(&pp, &p);
    F_(mul)(&ppp, &p, &pp);
    F_(mul)(&q, &u1, &pp);
    F_(sqr)(&x3, &rr);
    F_(sub)(&x3, &x3, &ppp);
    F_(sub)(&x3, &x3, &q);
    F_(sub)(&x3, &x3, &q);
    F_(sub)(&y3, &q, &x3);
    F_(mul)(&y3, &y3, &rr);
    F_(mul)(&s1, &s1, &ppp);
    F_(sub)(&y3, &y3, &s1);
    F_(mul)(&r->zz, &a->zz, &b->zz);
    F_(mul)(&r->zz, &r->zz, &pp);
    F_(mul)(&r->zzz, &a->zzz, &b->zzz);
    F_(mul)(&r->zzz, &r->zzz, &ppp);
    r->x = x3;
    r->y = y3;
}

/* madd-2008-s (ZZ2 = ZZZ2 = 1), 8M + 2S:
 *   U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2,
 *   PPP = P PP, Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - Y1 PPP,
 *   ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP.
 * P = 0 means a = +-b: doubling a (dbl-2008-s-1, 6M + 3S) when R = 0 too,
 * else infinity. */
void G_(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b)
{
    F u2, s2, p, rr, pp, ppp, q, x3, y3;
    if (G_(affine_is_inf)(b)) {
        *r = *a;
        return;
    }
    if (F_(is_zero)(&a->zz)) {
        G_(xyzz_from_affine)(r, b);
        return;
    }
    F_(mul)(&u2, &b->x, &a->zz);
    F_(mul)(&s2, &b->y, &a->zzz);
    F_(sub)(&p, &u2, &a->x);
    F_(sub)(&rr, &s2, &a->y);
    if (F_(is_zero)(&p)) {
        if (F_(is_zero)(&rr))
            G_(xyzz_dbl)(r, a);
        else
            G_(xyzz_set_inf)(r);
        return;
    }
    F_(sqr)(&pp, &p);
    F_(mul)(&ppp, &p, &pp);
    F_(mul)(&q, &a->x, &pp);
    F_(sqr)(&x3, &rr);
    F_(sub)(&x3, &x3, &ppp);
    F_(sub)(&x3, &x3, &q);
    F_(sub)(&x3, &x3, &q);
    F_(sub)(&y3, &q, &x3);
    F_(mul)(&y3, &y3, &rr);
    F_(mul)(&u2, &a->y, &ppp);
    F_(sub)(&r->y, &y3, &u2);
    F_(mul)(&r->zz, &a->zz, &pp);
    F_(mul)(&r->zzz, &a->zzz, &ppp);
    r->x = x3;
}

/* Z = ZZZ: then Z^2 = ZZ^3 and Z^3 = ZZZ^3, so X = X ZZ^2, Y = Y ZZZ^2
 * (2M + 2S).  Infinity (ZZZ = 0) gives Z = 0. */
void G_(xyzz_to_jacobian)(JAC *r, const XYZZ *p)
{
    F t;
    F_(sqr)(&t, &p->zz);
    F_(mul)(&r->x, &p->x, &t);
    F_(sqr)(&t, &p->zzz);
    F_(mul)(&r->y, &p->y, &t);
    r->z = p->zzz;
}

/* -------------------------------------------------------------- encoding -- */

/* Flags in the top three bits of byte 0 (zcash serialization). */
#define EC_FLAG_COMPRESSED 0x80u
#define EC_FLAG_INFINITY 0x40u
#define EC_FLAG_SORT 0x20u

void G_(to_compressed)(uint8_t out[F_BYTES], const AFF *p)
{
    if (G_(affine_is_inf)(p)) {
        memset(out, 0, F_BYTES);
        out[0] = EC_FLAG_COMPRESSED | EC_FLAG_INFINITY;
        return;
    }
    F_to_be(out, &p->x);
    out[0] |= EC_FLAG_COMPRESSED;
    if (F_(is_lexicographically_largest)(&p->y))
        out[0] |= EC_FLAG_SORT;
}

void G_(to_uncompressed)(uint8_t out[2 * F_BYTES], const AFF *p)
{
    if (G_(affine_is_inf)(p)) {
        memset(out, 0, 2 * F_BYTES);
        out[0] = EC_FLAG_INFINITY;
        return;
    }
    F_to_be(out, &p->x);
    F_to_be(out + F_BYTES, &p->y);
}

/* Checks in order: length, flags (compression must match the length; sort
 * only on a compressed finite point), the infinity encoding, canonical
 * coordinates, y recovery or the curve equation, the subgroup, infinity
 * allowed.  Each compressed x has y = +-sqrt(x^3 + b); the sort flag picks
 * the lexicographically largest one. */
int G_(decode)(AFF *r, const uint8_t *in, size_t len, unsigned flags)
{
    uint8_t buf[F_BYTES];
    AFF q;
    int err;
    bool compressed;
    if (len == F_BYTES)
        compressed = true;
    else if (len == 2 * F_BYTES)
        compressed = false;
    else
        return CZ_ERR_BAD_LENGTH;
    bool c_flag = in[0] & EC_FLAG_COMPRESSED, i_flag = in[0] & EC_FLAG_INFINITY,
         s_flag = in[0] & EC_FLAG_SORT;
    if (c_flag != compressed || (s_flag && (!compressed || i_flag)))
        return CZ_ERR_BAD_FLAGS;
    if (i_flag) {
        uint8_t acc = in[0] & 0x1f;
        for (size_t i = 1; i < len; i++)
            acc |= in[i];
        if (acc)
            return CZ_ERR_BAD_INFINITY;
        if (flags & CZ_DECODE_REJECT_INFINITY)
            return CZ_ERR_IS_INFINITY;
        r->x = f_zero;
        r->y = f_zero;
        return CZ_OK;
    }
    memcpy(buf, in, F_BYTES);
    buf[0] &= 0x1f;
    if ((err = F_from_be(&q.x, buf)) != CZ_OK)
        return err;
    if (compressed) {
        F rhs;
        F_(sqr)(&rhs, &q.x);
        F_(mul)(&rhs, &rhs, &q.x);
        F_(add)(&rhs, &rhs, &F_B);
        if (!F_(sqrt)(&q.y, &rhs))
            return CZ_ERR_NO_SQRT;
        if (F_(is_lexicographically_largest)(&q.y) != s_flag)
            F_(neg)(&q.y, &q.y);
    } else {
        if ((err = F_from_be(&q.y, in + F_BYTES)) != CZ_OK)
            return err;
        /* (0, 0) is our infinity, not a curve point: it needs the flag */
        if (G_(affine_is_inf)(&q) || !G_(affine_is_on_curve)(&q))
            return CZ_ERR_NOT_ON_CURVE;
    }
    if (!(flags & CZ_DECODE_SKIP_SUBGROUP) && !G_(affine_in_subgroup)(&q))
        return CZ_ERR_NOT_IN_SUBGROUP;
    *r = q;
    return CZ_OK;
}
