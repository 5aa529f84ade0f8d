/* Device point arithmetic on y^2 = x^3 + b (a = 0) for the CUDA back end,
 * written once over the coordinate field (fp_t for G1, fp2_t for G2) as
 * src/ec/ec_template.h is on the host.
 *
 * Layouts: exactly the host's (include/cuzk/ec.h), so arrays copy unchanged:
 *   affine_t   (x, y); infinity is (0, 0)           = cz_g1_affine / cz_g2_affine
 *   jacobian_t (X, Y, Z); infinity has Z = 0        = cz_g1 / cz_g2
 *   xyzz_t     (X, Y, ZZ, ZZZ); infinity has ZZ = 0 = cz_g1_xyzz / cz_g2_xyzz
 * The formulas, their special cases and the infinity representatives they
 * produce are the host's, step for step, and every field value is fully
 * reduced, so outputs are the CPU's bit for bit, not only the same points.
 * None of these operations needs the curve constant b.
 *
 * Branches: only on the special cases (an input at infinity, a = +-b), which
 * the host tests in the same order; MSM inputs are public.
 *
 * Inputs are const references and may refer to global memory: coordinates
 * are then read where they are used, which keeps G2's xyzz_add (its input a
 * live until the doubling case is ruled out) within 255 registers; loading
 * both points into registers first makes it spill.
 *
 * Code size: in G1 the multiply is called out of line (fp_mul_call), so a
 * kernel holds one copy of its ~640 instructions instead of one per call
 * site: the bucket-sum kernel shrank from 175 KB of code, more than the
 * SM's instruction caches serve at full rate, and G1 MSMs got 9-10%
 * faster (BENCHMARKS.md, 2026-11-30).  G2 calls whole Fp2 products
 * (fp2_mul_call, fp2_sqr_call), each with its three (two) independent Fp
 * products inline, which ptxas interleaves: 10 % faster than all inline
 * (G2 MSM 2^22: 140 against 155 ms, 2026-12-04), where calling each Fp
 * product apart measured slower (207 against 188 ms, 2026-11-30).  G1's
 * mixed addition takes its products two at a time (fp_mul2_call).
 *
 * Op counts: M multiplication, S squaring in the coordinate field. */
#ifndef CZ_CUDA_EC_CUH
#define CZ_CUDA_EC_CUH

#include "cuda/fp.cuh"

/* The field interface the point code (and src/cuda/ec_selftest.cu) is
 * written against. */
template <class F> struct field;

template <> struct field<fp_t> {
    static __device__ __forceinline__ fp_t load(const fp_t *p) { return fp_load(p); }
    static __device__ __forceinline__ void store(fp_t *p, const fp_t &a) { fp_store(p, a); }
    static __device__ __forceinline__ fp_t zero(void) { return fp_zero(); }
    static __device__ __forceinline__ fp_t one(void) { return fp_one(); }
    static __device__ __forceinline__ bool is_zero(const fp_t &a) { return fp_is_zero(a); }
    static __device__ __forceinline__ bool equal(const fp_t &a, const fp_t &b)
    {
        return fp_equal(a, b);
    }
    static __device__ __forceinline__ fp_t select(bool c, const fp_t &a, const fp_t &b)
    {
        return fp_select(c, a, b);
    }
    static __device__ __forceinline__ fp_t add(const fp_t &a, const fp_t &b)
    {
        return fp_add(a, b);
    }
    static __device__ __forceinline__ fp_t sub(const fp_t &a, const fp_t &b)
    {
        return fp_sub(a, b);
    }
    static __device__ __forceinline__ fp_t dbl(const fp_t &a) { return fp_dbl(a); }
    static __device__ __forceinline__ fp_t neg(const fp_t &a) { return fp_neg(a); }
    static __device__ __forceinline__ fp_t mul(const fp_t &a, const fp_t &b)
    {
        return fp_mul_call(a, b);
    }
    static __device__ __forceinline__ fp_t sqr(const fp_t &a) { return fp_mul_call(a, a); }
    static __device__ __forceinline__ fp_t inv(const fp_t &a) { return fp_inv(a); }
};

template <> struct field<fp2_t> {
    static __device__ __forceinline__ fp2_t load(const fp2_t *p) { return fp2_load(p); }
    static __device__ __forceinline__ void store(fp2_t *p, const fp2_t &a) { fp2_store(p, a); }
    static __device__ __forceinline__ fp2_t zero(void) { return fp2_zero(); }
    static __device__ __forceinline__ fp2_t one(void) { return fp2_one(); }
    static __device__ __forceinline__ bool is_zero(const fp2_t &a) { return fp2_is_zero(a); }
    static __device__ __forceinline__ bool equal(const fp2_t &a, const fp2_t &b)
    {
        return fp2_equal(a, b);
    }
    static __device__ __forceinline__ fp2_t select(bool c, const fp2_t &a, const fp2_t &b)
    {
        return fp2_select(c, a, b);
    }
    static __device__ __forceinline__ fp2_t add(const fp2_t &a, const fp2_t &b)
    {
        return fp2_add(a, b);
    }
    static __device__ __forceinline__ fp2_t sub(const fp2_t &a, const fp2_t &b)
    {
        return fp2_sub(a, b);
    }
    static __device__ __forceinline__ fp2_t dbl(const fp2_t &a) { return fp2_dbl(a); }
    static __device__ __forceinline__ fp2_t neg(const fp2_t &a) { return fp2_neg(a); }
    static __device__ __forceinline__ fp2_t mul(const fp2_t &a, const fp2_t &b)
    {
        return fp2_mul_call(a, b);
    }
    static __device__ __forceinline__ fp2_t sqr(const fp2_t &a) { return fp2_sqr_call(a); }
    static __device__ __forceinline__ fp2_t inv(const fp2_t &a) { return fp2_inv(a); }
};

template <class F> struct affine_t {
    F x, y;
};
template <class F> struct jacobian_t {
    F x, y, z;
};
template <class F> struct xyzz_t {
    F x, y, zz, zzz;
};

typedef affine_t<fp_t> g1_affine_t;
typedef jacobian_t<fp_t> g1_jacobian_t;
typedef xyzz_t<fp_t> g1_xyzz_t;
typedef affine_t<fp2_t> g2_affine_t;
typedef jacobian_t<fp2_t> g2_jacobian_t;
typedef xyzz_t<fp2_t> g2_xyzz_t;

/* ------------------------------------------------------- loads, stores -- */

template <class F> __device__ __forceinline__ affine_t<F> affine_load(const affine_t<F> *p)
{
    typedef field<F> K;
    return affine_t<F>{K::load(&p->x), K::load(&p->y)};
}

template <class F> __device__ __forceinline__ xyzz_t<F> xyzz_load(const xyzz_t<F> *p)
{
    typedef field<F> K;
    return xyzz_t<F>{K::load(&p->x), K::load(&p->y), K::load(&p->zz), K::load(&p->zzz)};
}

template <class F> __device__ __forceinline__ void xyzz_store(xyzz_t<F> *p, const xyzz_t<F> &a)
{
    typedef field<F> K;
    K::store(&p->x, a.x);
    K::store(&p->y, a.y);
    K::store(&p->zz, a.zz);
    K::store(&p->zzz, a.zzz);
}

template <class F>
__device__ __forceinline__ void jacobian_store(jacobian_t<F> *p, const jacobian_t<F> &a)
{
    typedef field<F> K;
    K::store(&p->x, a.x);
    K::store(&p->y, a.y);
    K::store(&p->z, a.z);
}

/* ------------------------------------------------------------- points -- */

template <class F> __device__ __forceinline__ bool affine_is_inf(const affine_t<F> &p)
{
    typedef field<F> K;
    return K::is_zero(p.x) & K::is_zero(p.y);
}

/* (1, 1, 0, 0), the host's cz_*_xyzz_set_inf. */
template <class F> __device__ __forceinline__ xyzz_t<F> xyzz_inf(void)
{
    typedef field<F> K;
    return xyzz_t<F>{K::one(), K::one(), K::zero(), K::zero()};
}

/* (x, y, 1, 1); (0, 0) gives xyzz_inf. */
template <class F> __device__ __forceinline__ xyzz_t<F> xyzz_from_affine(const affine_t<F> &p)
{
    typedef field<F> K;
    if (affine_is_inf(p))
        return xyzz_inf<F>();
    return xyzz_t<F>{p.x, p.y, K::one(), K::one()};
}

/* dbl-2008-s-1 (a = 0), 6M + 3S:
 *   U = 2 Y1, V = U^2, W = U V, S = X1 V, M = 3 X1^2,
 *   X3 = M^2 - 2S, Y3 = M (S - X3) - W Y1, ZZ3 = V ZZ1, ZZZ3 = W ZZZ1.
 * No special case: infinity (ZZ1 = ZZZ1 = 0) gives ZZ3 = ZZZ3 = 0 and the
 * same X3, Y3 as the host. */
template <class F> __device__ __forceinline__ xyzz_t<F> xyzz_dbl(const xyzz_t<F> &p)
{
    typedef field<F> K;
    /* ordered so that each input dies early (register pressure in G2) */
    F u = K::dbl(p.y);
    F v = K::sqr(u);
    F w = K::mul(u, v);
    F zz3 = K::mul(v, p.zz);
    F zzz3 = K::mul(w, p.zzz);
    F wy = K::mul(w, p.y);
    F s = K::mul(p.x, v);
    F m = K::sqr(p.x);
    m = K::add(m, K::dbl(m));
    F x3 = K::sub(K::sub(K::sqr(m), s), s);
    F y3 = K::sub(K::mul(K::sub(s, x3), m), wy);
    return xyzz_t<F>{x3, y3, zz3, zzz3};
}

/* add-2008-s, 12M + 2S:
 *   U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1,
 *   R = S2 - S1, PP = P^2, PPP = P PP, Q = U1 PP,
 *   X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - S1 PPP,
 *   ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP.
 * Special cases as the host: ZZ1 = 0 gives b, ZZ2 = 0 gives a (unchanged,
 * whatever their other coordinates); P = 0 means a = +-b: xyzz_dbl(a) when
 * R = 0 too, else xyzz_inf. */
template <class F>
__device__ __forceinline__ xyzz_t<F> xyzz_add(const xyzz_t<F> &a, const xyzz_t<F> &b)
{
    typedef field<F> K;
    if (K::is_zero(a.zz))
        return b;
    if (K::is_zero(b.zz))
        return a;
    /* P first and R only then, in the rare case apart: with all of a live
     * for the doubling case, G2 would not fit in 255 registers otherwise */
    F u2 = K::mul(b.x, a.zz);
    F u1 = K::mul(a.x, b.zz);
    F p = K::sub(u2, u1);
    if (K::is_zero(p)) {
        F r = K::sub(K::mul(b.y, a.zzz), K::mul(a.y, b.zzz));
        return K::is_zero(r) ? xyzz_dbl(a) : xyzz_inf<F>();
    }
    F s1 = K::mul(a.y, b.zzz);
    F r = K::sub(K::mul(b.y, a.zzz), s1);
    F zzz12 = K::mul(a.zzz, b.zzz);
    F zz12 = K::mul(a.zz, b.zz);
    F pp = K::sqr(p);
    F ppp = K::mul(p, pp);
    F q = K::mul(u1, pp);
    F x3 = K::sub(K::sub(K::sub(K::sqr(r), ppp), q), q);
    F y3 = K::sub(K::mul(K::sub(q, x3), r), K::mul(s1, ppp));
    return xyzz_t<F>{x3, y3, K::mul(zz12, pp), K::mul(zzz12, ppp)};
}

/* madd-2008-s (ZZ2 = ZZZ2 = 1), 8M + 2S:
 *   U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2,
 *   PPP = P PP, Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - Y1 PPP,
 *   ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP.
 * Special cases as the host, in its order: b = (0, 0) gives a unchanged;
 * ZZ1 = 0 gives xyzz_from_affine(b); P = 0: xyzz_dbl(a) when R = 0 too,
 * else xyzz_inf. */
template <class F>
__device__ __forceinline__ xyzz_t<F> xyzz_add_affine(const xyzz_t<F> &a, const affine_t<F> &b)
{
    typedef field<F> K;
    if (affine_is_inf(b))
        return a;
    if (K::is_zero(a.zz))
        return xyzz_from_affine(b);
    F p = K::sub(K::mul(b.x, a.zz), a.x);
    F r = K::sub(K::mul(b.y, a.zzz), a.y);
    if (K::is_zero(p))
        return K::is_zero(r) ? xyzz_dbl(a) : xyzz_inf<F>();
    F pp = K::sqr(p);
    F ppp = K::mul(p, pp);
    F q = K::mul(a.x, pp);
    F x3 = K::sub(K::sub(K::sub(K::sqr(r), ppp), q), q);
    F y3 = K::sub(K::mul(K::sub(q, x3), r), K::mul(a.y, ppp));
    return xyzz_t<F>{x3, y3, K::mul(a.zz, pp), K::mul(a.zzz, ppp)};
}

/* G1's madd-2008-s: the same formula, special cases and results, its ten
 * products taken two at a time (fp_mul2_call) in the order the formula
 * allows:
 *   (U2, S2), (PP = P^2, R^2), (PPP, Q = X1 PP), (Y1 PPP, ZZ3 = ZZ1 PP),
 *   (R (Q - X3), ZZZ3 = ZZZ1 PPP). */
template <>
__device__ __forceinline__ xyzz_t<fp_t> xyzz_add_affine<fp_t>(const xyzz_t<fp_t> &a,
                                                              const affine_t<fp_t> &b)
{
    if (affine_is_inf(b))
        return a;
    if (fp_is_zero(a.zz))
        return xyzz_from_affine(b);
    fp_pair t = fp_mul2_call(b.x, a.zz, b.y, a.zzz);
    fp_t p = fp_sub(t.lo, a.x), r = fp_sub(t.hi, a.y);
    if (fp_is_zero(p))
        return fp_is_zero(r) ? xyzz_dbl(a) : xyzz_inf<fp_t>();
    fp_pair sq = fp_mul2_call(p, p, r, r);
    fp_pair pq = fp_mul2_call(p, sq.lo, a.x, sq.lo); /* PPP, Q */
    fp_t x3 = fp_sub(fp_sub(fp_sub(sq.hi, pq.lo), pq.hi), pq.hi);
    fp_pair u = fp_mul2_call(a.y, pq.lo, a.zz, sq.lo);
    fp_pair v = fp_mul2_call(fp_sub(pq.hi, x3), r, a.zzz, pq.lo);
    return xyzz_t<fp_t>{x3, fp_sub(v.lo, u.lo), u.hi, v.hi};
}

/* Z = ZZZ: then Z^2 = ZZ^3 and Z^3 = ZZZ^3, so X = X ZZ^2, Y = Y ZZZ^2
 * (2M + 2S).  Infinity (ZZZ = 0) gives Z = 0. */
template <class F> __device__ __forceinline__ jacobian_t<F> xyzz_to_jacobian(const xyzz_t<F> &p)
{
    typedef field<F> K;
    return jacobian_t<F>{K::mul(p.x, K::sqr(p.zz)), K::mul(p.y, K::sqr(p.zzz)), p.zzz};
}

#endif /* CZ_CUDA_EC_CUH */
