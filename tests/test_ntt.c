/* NTT: known root of unity, O(n^2) DFT at small sizes in every order and
 * kind, sampled outputs at four-step sizes, round trips, linearity, the
 * convolution theorem, bit reversal, and bit-identical results for 1..4
 * threads. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/poly.h"
#include "tf.h"

static const cz_ntt_kind kinds[4] = {CZ_NTT_FORWARD, CZ_NTT_INVERSE, CZ_NTT_COSET_FORWARD,
                                     CZ_NTT_COSET_INVERSE};
static const cz_ntt_order orders[4] = {CZ_NTT_NN, CZ_NTT_NR, CZ_NTT_RN, CZ_NTT_RR};

static cz_fr *vec(size_t n) { return aligned_alloc(64, n * sizeof(cz_fr)); }

static void rand_vec(cz_fr *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&x[i], &tf_rng);
}

static size_t rev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

/* out[rev(i)] = in[i] (an involution). */
static void permute(cz_fr *out, const cz_fr *in, unsigned k)
{
    for (size_t i = 0; i < ((size_t)1 << k); i++)
        out[rev(i, k)] = in[i];
}

static void pow_u64(cz_fr *r, const cz_fr *a, uint64_t e) { cz_fr_pow(r, a, &e, 1); }

/* The reference transform of kind on natural-order x, naive:
 *   forward X_i = sum_j x_j w^(ij); coset: x_j g^j first; inverse uses
 *   w^-1 and 1/n, coset inverse then multiplies by g^-j. */
static void reference(cz_fr *out, const cz_fr *x, unsigned k, cz_ntt_kind kind, const cz_fr *w)
{
    size_t n = (size_t)1 << k;
    int inv = kind == CZ_NTT_INVERSE || kind == CZ_NTT_COSET_INVERSE;
    cz_fr g, root = *w, *in = vec(n), t, s;
    cz_fr_from_u64(&g, 7);
    if (inv) {
        cz_fr_inv(&root, &root);
        cz_fr_inv(&g, &g);
    }
    t = CZ_FR_ONE;
    for (size_t j = 0; j < n; j++) { /* coset forward: pre-scale */
        in[j] = x[j];
        if (kind == CZ_NTT_COSET_FORWARD) {
            cz_fr_mul(&in[j], &in[j], &t);
            cz_fr_mul(&t, &t, &g);
        }
    }
    cz_fr wi = CZ_FR_ONE, ninv;
    cz_fr_from_u64(&ninv, n);
    cz_fr_inv(&ninv, &ninv);
    for (size_t i = 0; i < n; i++) {
        cz_fr acc = CZ_FR_ZERO, p = CZ_FR_ONE;
        for (size_t j = 0; j < n; j++) {
            cz_fr_mul(&s, &in[j], &p);
            cz_fr_add(&acc, &acc, &s);
            cz_fr_mul(&p, &p, &wi);
        }
        if (inv)
            cz_fr_mul(&acc, &acc, &ninv);
        out[i] = acc;
        cz_fr_mul(&wi, &wi, &root);
    }
    if (kind == CZ_NTT_COSET_INVERSE) {
        t = CZ_FR_ONE;
        for (size_t j = 0; j < n; j++) {
            cz_fr_mul(&out[j], &out[j], &t);
            cz_fr_mul(&t, &t, &g);
        }
    }
    free(in);
}

/* Runs cz_ntt on natural-order x laid out as order's input, returns the
 * natural-order result. */
static void run_natural(const cz_ntt_domain *d, cz_fr *out, const cz_fr *x, cz_ntt_kind kind,
                        cz_ntt_order order, cz_pool *pool)
{
    unsigned k = cz_ntt_domain_log(d);
    size_t n = (size_t)1 << k;
    cz_fr *buf = vec(n);
    if (order == CZ_NTT_RN || order == CZ_NTT_RR)
        permute(buf, x, k);
    else
        memcpy(buf, x, n * sizeof(cz_fr));
    cz_ntt(d, buf, kind, order, pool);
    if (order == CZ_NTT_NR || order == CZ_NTT_RR)
        permute(out, buf, k);
    else
        memcpy(out, buf, n * sizeof(cz_fr));
    free(buf);
}

/* zkcrypto/bls12_381 src/scalar.rs ROOT_OF_UNITY (Montgomery limbs), the
 * 2^32-th root 7^((r-1)/2^32) that bellperson's blstrs/ff also use;
 * canonical 0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b. */
static const cz_fr ROOT32 = {
    {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

static void test_root_of_unity(void)
{
    uint64_t canon[4], want[4] = {0x3829971f439f0d2bULL, 0xb63683508c2280b9ULL,
                                  0xd09b681922c813b4ULL, 0x16a2a19edfe81f20ULL};
    cz_fr_to_canonical(canon, &ROOT32);
    TF_CHECK_MEM(canon, want, sizeof want);
    cz_fr minus_one, w;
    cz_fr_neg(&minus_one, &CZ_FR_ONE);
    for (unsigned k = 1; k <= 22; k++) {
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr want_w = ROOT32, wi, half;
        for (unsigned i = k; i < 32; i++)
            cz_fr_sqr(&want_w, &want_w);
        cz_ntt_domain_omega(&w, d, false);
        TF_CHECK_MSG(cz_fr_equal(&w, &want_w), "omega for k=%u", k);
        pow_u64(&half, &w, (uint64_t)1 << (k - 1)); /* order exactly 2^k */
        TF_CHECK(cz_fr_equal(&half, &minus_one));
        cz_ntt_domain_omega(&wi, d, true);
        cz_fr_mul(&wi, &wi, &w);
        TF_CHECK(cz_fr_is_one(&wi));
        TF_CHECK(cz_ntt_domain_size(d) == (size_t)1 << k);
        TF_CHECK(cz_ntt_domain_bytes(k) >= ((size_t)1 << (k < 14 ? k : 14)) * 64);
        cz_ntt_domain_free(d);
    }
    cz_ntt_domain *d = (cz_ntt_domain *)&d;
    TF_CHECK(cz_ntt_domain_new(&d, 0) == CZ_ERR_INVALID_ARG && d == NULL);
    TF_CHECK(cz_ntt_domain_new(&d, CZ_NTT_MAX_LOG + 1) == CZ_ERR_INVALID_ARG && d == NULL);
    TF_CHECK(cz_ntt_domain_bytes(0) == 0 && cz_ntt_domain_bytes(CZ_NTT_MAX_LOG + 1) == 0);
    TF_CHECK(cz_ntt_domain_bytes(28) < ((size_t)40 << 20));
    cz_ntt_domain_free(NULL);
}

/* Every kind and order against the O(n^2) DFT, n = 2 .. 2^10. */
static void test_dft_small(void)
{
    for (unsigned k = 1; k <= 10; k++)
        for (unsigned rep = 0; rep < tf_scale; rep++) {
            size_t n = (size_t)1 << k;
            cz_ntt_domain *d;
            TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
            cz_fr w, *x = vec(n), *want = vec(n), *got = vec(n);
            cz_ntt_domain_omega(&w, d, false);
            for (int ki = 0; ki < 4; ki++) {
                rand_vec(x, n);
                reference(want, x, k, kinds[ki], &w);
                for (int oi = 0; oi < 4; oi++) {
                    run_natural(d, got, x, kinds[ki], orders[oi], NULL);
                    TF_CHECK_MSG(!memcmp(got, want, n * sizeof(cz_fr)), "k=%u kind=%d order=%d", k,
                                 ki, oi);
                }
            }
            free(x);
            free(want);
            free(got);
            cz_ntt_domain_free(d);
        }
}

/* X_i of the reference at one index i, O(n). */
static void reference_at(cz_fr *r, const cz_fr *x, unsigned k, cz_ntt_kind kind, const cz_fr *w,
                         size_t i)
{
    size_t n = (size_t)1 << k;
    int inv = kind == CZ_NTT_INVERSE || kind == CZ_NTT_COSET_INVERSE;
    cz_fr root = *w, g, wi, p = CZ_FR_ONE, acc = CZ_FR_ZERO, s;
    cz_fr_from_u64(&g, 7);
    if (inv) {
        cz_fr_inv(&root, &root);
        cz_fr_inv(&g, &g);
    }
    pow_u64(&wi, &root, i);
    if (kind == CZ_NTT_COSET_FORWARD)
        cz_fr_mul(&wi, &wi, &g); /* x_j (g w^i)^j */
    for (size_t j = 0; j < n; j++) {
        cz_fr_mul(&s, &x[j], &p);
        cz_fr_add(&acc, &acc, &s);
        cz_fr_mul(&p, &p, &wi);
    }
    if (inv) {
        cz_fr ninv;
        cz_fr_from_u64(&ninv, n);
        cz_fr_inv(&ninv, &ninv);
        cz_fr_mul(&acc, &acc, &ninv);
    }
    if (kind == CZ_NTT_COSET_INVERSE) {
        pow_u64(&s, &g, i);
        cz_fr_mul(&acc, &acc, &s);
    }
    *r = acc;
}

/* Four-step sizes: sampled outputs (both ends, random) against the
 * definition, every kind and order, with a pool. */
static void test_dft_sampled(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    for (unsigned k = 11; k <= 17; k++) {
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr w, *x = vec(n), *got = vec(n), want;
        cz_ntt_domain_omega(&w, d, false);
        for (int ki = 0; ki < 4; ki++) {
            rand_vec(x, n);
            for (int oi = 0; oi < 4; oi++) {
                if (k > 12 && oi != (int)(cz_prng_next(&tf_rng) % 4))
                    continue; /* larger sizes: one order per kind, at random */
                run_natural(d, got, x, kinds[ki], orders[oi], pool);
                for (int s = 0; s < 6; s++) {
                    size_t i = s == 0 ? 0 : s == 1 ? n - 1 : cz_prng_next(&tf_rng) % n;
                    reference_at(&want, x, k, kinds[ki], &w, i);
                    TF_CHECK_MSG(cz_fr_equal(&got[i], &want), "k=%u kind=%d order=%d i=%zu", k, ki,
                                 oi, i);
                }
            }
        }
        free(x);
        free(got);
        cz_ntt_domain_free(d);
    }
    cz_pool_free(pool);
}

/* forward then inverse (and coset forward then coset inverse) is the
 * identity, with the orders chained as a prover chains them.  2^11 .. 2^20,
 * up to 2^22 with --scale 2 or more. */
static void test_round_trips(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 1) == CZ_OK);
    for (unsigned k = 11; k <= (tf_scale > 1 ? 22u : 20u); k++) {
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *x = vec(n), *y = vec(n);
        rand_vec(x, n);
        memcpy(y, x, n * sizeof(cz_fr));
        int coset = (int)(cz_prng_next(&tf_rng) & 1);
        cz_ntt(d, y, coset ? CZ_NTT_COSET_FORWARD : CZ_NTT_FORWARD, CZ_NTT_NR, pool);
        TF_CHECK(memcmp(x, y, n * sizeof(cz_fr)) != 0);
        cz_ntt(d, y, coset ? CZ_NTT_COSET_INVERSE : CZ_NTT_INVERSE, CZ_NTT_RN, pool);
        TF_CHECK_MSG(!memcmp(x, y, n * sizeof(cz_fr)), "k=%u NR/RN coset=%d", k, coset);
        if (k <= 16 || k == 20) {
            cz_ntt(d, y, CZ_NTT_INVERSE, CZ_NTT_NN, pool);
            cz_ntt(d, y, CZ_NTT_FORWARD, CZ_NTT_NN, pool);
            TF_CHECK_MSG(!memcmp(x, y, n * sizeof(cz_fr)), "k=%u NN", k);
            cz_ntt(d, y, CZ_NTT_COSET_FORWARD, CZ_NTT_RR, pool);
            cz_ntt(d, y, CZ_NTT_COSET_INVERSE, CZ_NTT_RR, pool);
            TF_CHECK_MSG(!memcmp(x, y, n * sizeof(cz_fr)), "k=%u RR", k);
        }
        free(x);
        free(y);
        cz_ntt_domain_free(d);
    }
    cz_pool_free(pool);
}

/* 2^24, the smallest size whose rows are four-step transforms themselves:
 * sampled outputs against the definition, then the round trip. */
static void test_two_levels(void)
{
    unsigned k = 24;
    size_t n = (size_t)1 << k;
    cz_pool *pool;
    cz_ntt_domain *d;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
    cz_fr w, *x = vec(n), *y = vec(n), want;
    cz_ntt_domain_omega(&w, d, false);
    for (size_t i = 0; i < n; i++) { /* random 254-bit values, < r */
        for (int j = 0; j < 4; j++)
            x[i].l[j] = cz_prng_next(&tf_rng);
        x[i].l[3] >>= 2;
    }
    memcpy(y, x, n * sizeof(cz_fr));
    cz_ntt(d, y, CZ_NTT_FORWARD, CZ_NTT_NR, pool);
    for (int s = 0; s < 2; s++) {
        size_t i = s ? cz_prng_next(&tf_rng) % n : n - 1;
        reference_at(&want, x, k, CZ_NTT_FORWARD, &w, i);
        TF_CHECK_MSG(cz_fr_equal(&y[rev(i, k)], &want), "i=%zu", i);
    }
    cz_ntt(d, y, CZ_NTT_INVERSE, CZ_NTT_RN, pool);
    TF_CHECK(!memcmp(x, y, n * sizeof(cz_fr)));
    free(x);
    free(y);
    cz_ntt_domain_free(d);
    cz_pool_free(pool);
}

/* NTT(a x + y) = a NTT(x) + NTT(y). */
static void test_linearity(void)
{
    unsigned ks[] = {3, 9, 12, 15};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        unsigned k = ks[t];
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *x = vec(n), *y = vec(n), *z = vec(n), a;
        for (int ki = 0; ki < 4; ki++) {
            cz_ntt_order o = orders[cz_prng_next(&tf_rng) % 4];
            rand_vec(x, n);
            rand_vec(y, n);
            cz_fr_random(&a, &tf_rng);
            for (size_t i = 0; i < n; i++) {
                cz_fr_mul(&z[i], &x[i], &a);
                cz_fr_add(&z[i], &z[i], &y[i]);
            }
            cz_ntt(d, x, kinds[ki], o, NULL);
            cz_ntt(d, y, kinds[ki], o, NULL);
            cz_ntt(d, z, kinds[ki], o, NULL);
            int ok = 1;
            for (size_t i = 0; i < n; i++) {
                cz_fr s;
                cz_fr_mul(&s, &x[i], &a);
                cz_fr_add(&s, &s, &y[i]);
                ok &= cz_fr_equal(&s, &z[i]);
            }
            TF_CHECK_MSG(ok, "k=%u kind=%d", k, ki);
        }
        free(x);
        free(y);
        free(z);
        cz_ntt_domain_free(d);
    }
}

/* Cyclic convolution x * y (direct, O(n^2)) = INTT(NTT(x) . NTT(y)). */
static void test_convolution(void)
{
    unsigned ks[] = {1, 6, 11};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        unsigned k = ks[t];
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *x = vec(n), *y = vec(n), *want = vec(n), s;
        rand_vec(x, n);
        rand_vec(y, n);
        for (size_t i = 0; i < n; i++) {
            want[i] = CZ_FR_ZERO;
            for (size_t j = 0; j < n; j++) {
                cz_fr_mul(&s, &x[j], &y[(i - j) & (n - 1)]);
                cz_fr_add(&want[i], &want[i], &s);
            }
        }
        cz_ntt(d, x, CZ_NTT_FORWARD, CZ_NTT_NR, NULL);
        cz_ntt(d, y, CZ_NTT_FORWARD, CZ_NTT_NR, NULL);
        cz_ntt_pointwise_mul(x, y, n, NULL);
        cz_ntt(d, x, CZ_NTT_INVERSE, CZ_NTT_RN, NULL);
        TF_CHECK_MSG(!memcmp(x, want, n * sizeof(cz_fr)), "k=%u", k);
        free(x);
        free(y);
        free(want);
        cz_ntt_domain_free(d);
    }
}

static void test_bitrev(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    for (unsigned k = 1; k <= 16; k++) {
        size_t n = (size_t)1 << k;
        cz_fr *x = vec(n), *want = vec(n);
        rand_vec(x, n);
        permute(want, x, k);
        cz_ntt_bitrev(x, k, k & 1 ? pool : NULL);
        TF_CHECK_MSG(!memcmp(x, want, n * sizeof(cz_fr)), "k=%u", k);
        free(x);
        free(want);
    }
    cz_pool_free(pool);
}

/* 1, 2, 3, 4 threads (NULL pool, pools of 1..3 workers plus the caller)
 * give the same bits as each other for every kind and order. */
static void test_threads_identical(void)
{
    unsigned ks[] = {8, 13, 16, 17};
    cz_pool *pools[4] = {NULL};
    for (unsigned t = 1; t < 4; t++)
        TF_CHECK(cz_pool_new(&pools[t], t) == CZ_OK);
    for (size_t s = 0; s < sizeof ks / sizeof ks[0]; s++) {
        unsigned k = ks[s];
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *x = vec(n), *ref = vec(n), *y = vec(n);
        for (int ki = 0; ki < 4; ki++) {
            cz_ntt_order o = orders[(ki + s) % 4];
            rand_vec(x, n);
            memcpy(ref, x, n * sizeof(cz_fr));
            cz_ntt(d, ref, kinds[ki], o, NULL);
            for (unsigned t = 1; t < 4; t++) {
                memcpy(y, x, n * sizeof(cz_fr));
                cz_ntt(d, y, kinds[ki], o, pools[t]);
                TF_CHECK_MSG(!memcmp(y, ref, n * sizeof(cz_fr)), "k=%u kind=%d threads=%u", k, ki,
                             t + 1);
            }
        }
        free(x);
        free(ref);
        free(y);
        cz_ntt_domain_free(d);
    }
    for (unsigned t = 1; t < 4; t++)
        cz_pool_free(pools[t]);
}

TF_MAIN(TF_TEST(test_root_of_unity), TF_TEST(test_dft_small), TF_TEST(test_dft_sampled),
        TF_TEST(test_round_trips), TF_TEST(test_two_levels), TF_TEST(test_linearity),
        TF_TEST(test_convolution), TF_TEST(test_bitrev), TF_TEST(test_threads_identical))
