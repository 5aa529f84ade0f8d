/* Groth16 H: against a direct polynomial computation (Lagrange
 * interpolation, schoolbook product, long division by X^m - 1) at small
 * sizes, satisfied and unsatisfied; identities at random points and on the
 * coset at larger sizes; bellperson's plain step sequence through the
 * public NTT calls; 1..4 threads bit-identical. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/poly.h"
#include "tf.h"

static cz_fr *vec(size_t n) { return aligned_alloc(64, (n ? n : 1) * sizeof(cz_fr)); }

static void rand_vec(cz_fr *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&x[i], &tf_rng);
}

static void pow_u64(cz_fr *r, const cz_fr *a, uint64_t e) { cz_fr_pow(r, a, &e, 1); }

/* zkcrypto/bls12_381 src/scalar.rs ROOT_OF_UNITY (Montgomery limbs):
 * 7^((r-1)/2^32), the root bellperson's domains derive theirs from. */
static const cz_fr ROOT32 = {
    {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

static void omega_of(cz_fr *w, unsigned k)
{
    *w = ROOT32;
    for (unsigned i = k; i < 32; i++)
        cz_fr_sqr(w, w);
}

/* Inputs: evaluations of A, B, C at w^i for i < n, zero for n <= i < m;
 * satisfied: c_i = a_i b_i. */
static void make_inputs(cz_fr *a, cz_fr *b, cz_fr *c, size_t n, size_t m, int satisfied)
{
    rand_vec(a, n);
    rand_vec(b, n);
    rand_vec(c, n);
    for (size_t i = 0; i < n && satisfied; i++)
        cz_fr_mul(&c[i], &a[i], &b[i]);
    for (size_t i = n; i < m; i++)
        a[i] = b[i] = c[i] = CZ_FR_ZERO;
}

/* Lagrange interpolation through (x_i, e_i), x_i = w^i, i < m:
 * P = sum_i e_i q_i(X) / q_i(x_i), q_i = prod_{j != i} (X - x_j)
 *   = (X^m - 1) / (X - x_i) by synthetic division.  O(m^2). */
static void interpolate(cz_fr *p, const cz_fr *e, size_t m, const cz_fr *w)
{
    cz_fr *q = vec(m), xi = CZ_FR_ONE, s, d;
    for (size_t k = 0; k < m; k++)
        p[k] = CZ_FR_ZERO;
    for (size_t i = 0; i < m; i++, cz_fr_mul(&xi, &xi, w)) {
        /* X^m - 1 = (X - xi) q + rem: q_(m-1) = 1, q_(k-1) = q_k xi + [X^k] */
        q[m - 1] = CZ_FR_ONE;
        for (size_t k = m - 1; k > 0; k--)
            cz_fr_mul(&q[k - 1], &q[k], &xi);
        d = CZ_FR_ZERO; /* q(xi), Horner */
        for (size_t k = m; k-- > 0;) {
            cz_fr_mul(&d, &d, &xi);
            cz_fr_add(&d, &d, &q[k]);
        }
        cz_fr_inv(&d, &d);
        cz_fr_mul(&d, &d, &e[i]);
        for (size_t k = 0; k < m; k++) {
            cz_fr_mul(&s, &q[k], &d);
            cz_fr_add(&p[k], &p[k], &s);
        }
    }
    free(q);
}

/* The expected H: A B - C = Q (X^m - 1) + Rem, H = Q + Rem / (g^m - 1).
 * Returns whether Rem = 0. */
static int direct_h(cz_fr *h, const cz_fr *a, const cz_fr *b, const cz_fr *c, size_t m, unsigned k)
{
    cz_fr w, *A = vec(m), *B = vec(m), *C = vec(m), *P = vec(2 * m), s, g, zinv;
    omega_of(&w, k);
    interpolate(A, a, m, &w);
    interpolate(B, b, m, &w);
    interpolate(C, c, m, &w);
    for (size_t i = 0; i < 2 * m; i++)
        P[i] = CZ_FR_ZERO;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            cz_fr_mul(&s, &A[i], &B[j]);
            cz_fr_add(&P[i + j], &P[i + j], &s);
        }
    for (size_t i = 0; i < m; i++)
        cz_fr_sub(&P[i], &P[i], &C[i]);
    /* divide by X^m - 1 from the top: X^i = X^(i-m) (X^m - 1) + X^(i-m) */
    for (size_t i = 2 * m - 1; i >= m; i--) {
        h[i - m] = P[i];
        cz_fr_add(&P[i - m], &P[i - m], &P[i]);
    }
    /* H had degree <= m - 2 from Q; h[m-1] comes from Rem only */
    int exact = 1;
    cz_fr_from_u64(&g, 7);
    pow_u64(&zinv, &g, m);
    cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
    cz_fr_inv(&zinv, &zinv);
    h[m - 1] = CZ_FR_ZERO;
    for (size_t i = 0; i < m; i++) {
        exact &= cz_fr_is_zero(&P[i]);
        cz_fr_mul(&s, &P[i], &zinv);
        cz_fr_add(&h[i], &h[i], &s);
    }
    free(A);
    free(B);
    free(C);
    free(P);
    return exact;
}

static void check_direct(unsigned k, size_t n, int satisfied, cz_pool *pool)
{
    size_t m = (size_t)1 << k;
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
    cz_fr *a = vec(m), *b = vec(m), *c = vec(m), *want = vec(m);
    make_inputs(a, b, c, n, m, satisfied);
    int exact = direct_h(want, a, b, c, m, k);
    /* garbage in the padding must be ignored */
    for (size_t i = n; i < m; i++)
        cz_fr_random(&a[i], &tf_rng), cz_fr_random(&c[i], &tf_rng);
    TF_CHECK(cz_groth16_h(d, a, b, c, n, pool) == CZ_OK);
    TF_CHECK_MSG(!memcmp(a, want, m * sizeof(cz_fr)), "k=%u n=%zu satisfied=%d", k, n, satisfied);
    if (satisfied) {
        TF_CHECK_MSG(exact, "satisfied witness leaves a remainder k=%u n=%zu", k, n);
        TF_CHECK(cz_fr_is_zero(&a[m - 1]));
    } else if (n > 0) {
        TF_CHECK_MSG(!exact, "random c divided exactly k=%u n=%zu", k, n);
    }
    free(a);
    free(b);
    free(c);
    free(want);
    cz_ntt_domain_free(d);
}

static void test_direct_small(void)
{
    for (unsigned k = 1; k <= 7; k++) {
        size_t m = (size_t)1 << k;
        size_t ns[3] = {m, m / 2 + 1, 1 + cz_prng_next(&tf_rng) % m};
        for (int i = 0; i < 3; i++)
            for (int sat = 0; sat < 2; sat++)
                check_direct(k, ns[i], sat, NULL);
    }
    check_direct(4, 0, 1, NULL); /* no constraints: H = 0 */
}

/* Four-step sizes (the coset and 1/m folded into the transforms). */
static void test_direct_four_step(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 1) == CZ_OK);
    check_direct(11, 2048, 1, pool);
    check_direct(11, 1500 + cz_prng_next(&tf_rng) % 500, 0, pool);
    cz_pool_free(pool);
}

/* P(x) from evaluations e_i = P(w^i), i < m (barycentric):
 * P(x) = (x^m - 1)/m sum_i e_i w^i / (x - w^i); x not in the domain. */
static void eval_bary(cz_fr *r, const cz_fr *e, size_t m, const cz_fr *w, const cz_fr *x)
{
    cz_fr *den = vec(m), *scr = vec(m), wi = CZ_FR_ONE, acc = CZ_FR_ZERO, s, t;
    for (size_t i = 0; i < m; i++, cz_fr_mul(&wi, &wi, w))
        cz_fr_sub(&den[i], x, &wi);
    cz_fr_batch_inv(den, den, m, scr);
    wi = CZ_FR_ONE;
    for (size_t i = 0; i < m; i++, cz_fr_mul(&wi, &wi, w)) {
        cz_fr_mul(&s, &e[i], &wi);
        cz_fr_mul(&s, &s, &den[i]);
        cz_fr_add(&acc, &acc, &s);
    }
    pow_u64(&t, x, m);
    cz_fr_sub(&t, &t, &CZ_FR_ONE);
    cz_fr_mul(&acc, &acc, &t);
    cz_fr_from_u64(&t, m);
    cz_fr_inv(&t, &t);
    cz_fr_mul(r, &acc, &t);
    free(den);
    free(scr);
}

static void eval_coeffs(cz_fr *r, const cz_fr *p, size_t m, const cz_fr *x)
{
    cz_fr acc = CZ_FR_ZERO;
    for (size_t k = m; k-- > 0;) {
        cz_fr_mul(&acc, &acc, x);
        cz_fr_add(&acc, &acc, &p[k]);
    }
    *r = acc;
}

/* Larger sizes: satisfied, H(t) (t^m - 1) = A(t) B(t) - C(t) at a random t
 * and h[m-1] = 0; unsatisfied, H = (A B - C) / (g^m - 1) at a random point of
 * the coset g<w>. */
static void test_identities(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 1) == CZ_OK);
    unsigned ks[] = {12, 16, 17};
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
        unsigned k = ks[s];
        size_t m = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr w, *a = vec(m), *b = vec(m), *c = vec(m), *a0 = vec(m), *b0 = vec(m), *c0 = vec(m);
        omega_of(&w, k);
        for (int sat = 0; sat < 2; sat++) {
            size_t n = m - cz_prng_next(&tf_rng) % (m / 4);
            make_inputs(a, b, c, n, m, sat);
            memcpy(a0, a, m * sizeof(cz_fr));
            memcpy(b0, b, m * sizeof(cz_fr));
            memcpy(c0, c, m * sizeof(cz_fr));
            TF_CHECK(cz_groth16_h(d, a, b, c, n, pool) == CZ_OK);
            cz_fr x, va, vb, vc, vh, lhs, rhs, z;
            if (sat) {
                cz_fr_random(&x, &tf_rng);
                pow_u64(&z, &x, m);
                cz_fr_sub(&z, &z, &CZ_FR_ONE);
                TF_CHECK(cz_fr_is_zero(&a[m - 1]));
            } else {
                cz_fr g;
                cz_fr_from_u64(&g, 7);
                pow_u64(&x, &w, cz_prng_next(&tf_rng) % m);
                cz_fr_mul(&x, &x, &g);
                pow_u64(&z, &g, m);
                cz_fr_sub(&z, &z, &CZ_FR_ONE); /* Z(g w^i) = g^m - 1 */
            }
            eval_bary(&va, a0, m, &w, &x);
            eval_bary(&vb, b0, m, &w, &x);
            eval_bary(&vc, c0, m, &w, &x);
            eval_coeffs(&vh, a, m, &x);
            cz_fr_mul(&lhs, &vh, &z);
            cz_fr_mul(&rhs, &va, &vb);
            cz_fr_sub(&rhs, &rhs, &vc);
            TF_CHECK_MSG(cz_fr_equal(&lhs, &rhs), "k=%u n=%zu satisfied=%d", k, n, sat);
        }
        free(a);
        free(b);
        free(c);
        free(a0);
        free(b0);
        free(c0);
        cz_ntt_domain_free(d);
    }
    cz_pool_free(pool);
}

/* bellperson's sequence through the public calls, natural orders:
 * ifft, coset_fft (x3), a = a b - c, a *= z_inv, icoset_fft. */
static void test_bellperson_sequence(void)
{
    unsigned ks[] = {5, 9, 12};
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
        unsigned k = ks[s];
        size_t m = (size_t)1 << k, n = m - m / 3;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *v[3] = {vec(m), vec(m), vec(m)}, *h[3] = {vec(m), vec(m), vec(m)}, g, zinv;
        make_inputs(v[0], v[1], v[2], n, m, 0);
        for (int i = 0; i < 3; i++) {
            memcpy(h[i], v[i], m * sizeof(cz_fr));
            cz_ntt(d, v[i], CZ_NTT_INVERSE, CZ_NTT_NN, NULL);
            cz_ntt(d, v[i], CZ_NTT_COSET_FORWARD, CZ_NTT_NN, NULL);
        }
        cz_fr_from_u64(&g, 7);
        pow_u64(&zinv, &g, m);
        cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
        cz_fr_inv(&zinv, &zinv);
        for (size_t i = 0; i < m; i++) {
            cz_fr_mul(&v[0][i], &v[0][i], &v[1][i]);
            cz_fr_sub(&v[0][i], &v[0][i], &v[2][i]);
            cz_fr_mul(&v[0][i], &v[0][i], &zinv);
        }
        cz_ntt(d, v[0], CZ_NTT_COSET_INVERSE, CZ_NTT_NN, NULL);
        TF_CHECK(cz_groth16_h(d, h[0], h[1], h[2], n, NULL) == CZ_OK);
        TF_CHECK_MSG(!memcmp(v[0], h[0], m * sizeof(cz_fr)), "k=%u", k);
        for (int i = 0; i < 3; i++) {
            free(v[i]);
            free(h[i]);
        }
        cz_ntt_domain_free(d);
    }
}

static void test_threads_identical(void)
{
    unsigned ks[] = {6, 13, 16};
    cz_pool *pools[4] = {NULL};
    for (unsigned t = 1; t < 4; t++)
        TF_CHECK(cz_pool_new(&pools[t], t) == CZ_OK);
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
        unsigned k = ks[s];
        size_t m = (size_t)1 << k, n = m - cz_prng_next(&tf_rng) % (m / 2);
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *in[3] = {vec(m), vec(m), vec(m)}, *v[3] = {vec(m), vec(m), vec(m)}, *ref = vec(m);
        make_inputs(in[0], in[1], in[2], n, m, 0);
        for (unsigned t = 0; t < 4; t++) {
            for (int i = 0; i < 3; i++)
                memcpy(v[i], in[i], m * sizeof(cz_fr));
            TF_CHECK(cz_groth16_h(d, v[0], v[1], v[2], n, pools[t]) == CZ_OK);
            if (t == 0)
                memcpy(ref, v[0], m * sizeof(cz_fr));
            else
                TF_CHECK_MSG(!memcmp(v[0], ref, m * sizeof(cz_fr)), "k=%u threads=%u", k, t + 1);
        }
        for (int i = 0; i < 3; i++) {
            free(in[i]);
            free(v[i]);
        }
        free(ref);
        cz_ntt_domain_free(d);
    }
    for (unsigned t = 1; t < 4; t++)
        cz_pool_free(pools[t]);
}

/* snarkjs's H scalars: A B - C evaluated at the odd powers x_j = w2 w^j of
 * the 2m-th root w2 (w = w2^2 = snarkjs's m-th root, from 5^((r-1)/2^32)),
 * each of A, B, C interpolated from its m evaluations on w^i (barycentric,
 * O(m^2)). */
static void test_odd_coset(void)
{
    static const uint64_t T[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                  0x299d7d483339d808ULL, 0x0000000073eda753ULL}; /* (r-1)/2^32 */
    cz_fr five, root;
    cz_fr_from_u64(&five, 5);
    cz_fr_pow(&root, &five, T, 4);
    for (unsigned k = 1; k <= 10; k++) {
        size_t m = (size_t)1 << k;
        size_t n = k < 3 ? m : m - cz_prng_next(&tf_rng) % (m / 4);
        cz_fr w2 = root, w, x;
        for (unsigned i = k + 1; i < 32; i++)
            cz_fr_sqr(&w2, &w2);
        cz_fr_sqr(&w, &w2);
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new_root(&d, k, CZ_NTT_ROOT_SNARKJS) == CZ_OK);
        cz_fr dw;
        cz_ntt_domain_omega(&dw, d, false);
        TF_CHECK(cz_fr_equal(&dw, &w));
        cz_fr *a = vec(m), *b = vec(m), *c = vec(m), *a0 = vec(m), *b0 = vec(m), *c0 = vec(m);
        make_inputs(a, b, c, n, m, (int)(k & 1));
        memcpy(a0, a, m * sizeof(cz_fr));
        memcpy(b0, b, m * sizeof(cz_fr));
        memcpy(c0, c, m * sizeof(cz_fr));
        TF_CHECK(cz_groth16_h_odd_coset(d, a, b, c, n, NULL) == CZ_OK);
        x = w2;
        int bad = 0;
        for (size_t j = 0; j < m && !bad; j++, cz_fr_mul(&x, &x, &w)) {
            cz_fr ea, eb, ec;
            eval_bary(&ea, a0, m, &w, &x);
            eval_bary(&eb, b0, m, &w, &x);
            eval_bary(&ec, c0, m, &w, &x);
            cz_fr_mul(&ea, &ea, &eb);
            cz_fr_sub(&ea, &ea, &ec);
            bad = !cz_fr_equal(&ea, &a[j]);
            TF_CHECK_MSG(!bad, "odd coset: m = 2^%u, n = %zu, scalar %zu differs", k, n, j);
        }
        free(a), free(b), free(c), free(a0), free(b0), free(c0);
        cz_ntt_domain_free(d);
    }
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new_root(&d, 4, 3) == CZ_ERR_INVALID_ARG);
}

static void test_invalid(void)
{
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new(&d, 3) == CZ_OK);
    cz_fr a[8], b[8], c[8];
    TF_CHECK(cz_groth16_h(d, a, b, c, 9, NULL) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_groth16_h(d, NULL, b, c, 8, NULL) == CZ_ERR_INVALID_ARG);
    cz_ntt_domain_free(d);
}

TF_MAIN(TF_TEST(test_direct_small), TF_TEST(test_direct_four_step), TF_TEST(test_identities),
        TF_TEST(test_bellperson_sequence), TF_TEST(test_threads_identical), TF_TEST(test_odd_coset),
        TF_TEST(test_invalid))
