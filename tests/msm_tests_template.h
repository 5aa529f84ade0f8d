/* MSM tests written once for G1 and G2; test_msm.c and test_msm_g2.c include
 * this after defining
 *   G_(name)      cz_g1_##name or cz_g2_##name
 *   GS_TO_AFFINE  cz_g1s_to_affine / cz_g2s_to_affine
 *   AFF, JAC      the point types
 *   GEN           the generator (affine lvalue)
 *   MAX_LOG       largest log2 size checked against the naive sum
 *   SCALE_N(n)    sizes of the other tests, scaled down for G2
 *
 * References.  The naive one is sum_i k_i P_i by cz_*_mul_var.  The cheap one
 * knows the discrete logs: bases are P_i = s_i G with s_i = a + i d (built by
 * additions), so sum_i k_i P_i = (sum_i k_i s_i) G, one multiplication; the
 * MSM cannot see the structure, and any wrong base, scalar or bucket changes
 * the discrete log of its result. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"
#include "tf.h"

/* ----------------------------------------------------------- helpers --- */

/* bases[i] = s[i] G with s[i] = a + i d, a and d random. */
static void make_bases(AFF *bases, cz_fr *s, size_t n)
{
    cz_fr a, d;
    JAC p, dp, g, *jac = malloc((n ? n : 1) * sizeof *jac);
    cz_fr_random(&a, &tf_rng);
    cz_fr_random(&d, &tf_rng);
    G_(from_affine)(&g, &GEN);
    G_(mul_var)(&p, &g, &a);
    G_(mul_var)(&dp, &g, &d);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        s[i] = a;
        G_(add)(&p, &p, &dp);
        cz_fr_add(&a, &a, &d);
    }
    GS_TO_AFFINE(bases, jac, n);
    free(jac);
}

/* (sum_i k_i s_i) G; k canonical when `canonical`. */
static void ref_dlog(JAC *r, const cz_fr *k, const cz_fr *s, size_t n, int canonical)
{
    cz_fr acc = CZ_FR_ZERO, t, km;
    JAC g;
    for (size_t i = 0; i < n; i++) {
        km = k[i];
        if (canonical)
            cz_fr_from_canonical(&km, k[i].l);
        cz_fr_mul(&t, &km, &s[i]);
        cz_fr_add(&acc, &acc, &t);
    }
    G_(from_affine)(&g, &GEN);
    G_(mul_var)(r, &g, &acc);
}

static void ref_naive(JAC *r, const AFF *bases, const cz_fr *k, size_t n)
{
    JAC p, t;
    G_(set_inf)(r);
    for (size_t i = 0; i < n; i++) {
        G_(from_affine)(&p, &bases[i]);
        G_(mul_var)(&t, &p, &k[i]);
        G_(add)(r, r, &t);
    }
}

static void *scratch_alloc(size_t bytes)
{
    return aligned_alloc(CZ_MSM_SCRATCH_ALIGN, (bytes + 63) & ~(size_t)63);
}

static int run_msm(JAC *out, const AFF *bases, const cz_fr *k, size_t n, unsigned flags,
                   cz_pool *pool)
{
    size_t bytes = G_(msm_scratch_bytes)(n, cz_msm_nthreads(pool), flags);
    void *s = scratch_alloc(bytes);
    int err = G_(msm)(out, bases, k, n, flags, pool, s, bytes);
    free(s);
    return err;
}

static int run_density(JAC *out, const AFF *bases, size_t nb, const cz_fr *k, const uint64_t *dens,
                       size_t n, unsigned flags, cz_pool *pool)
{
    size_t bytes = G_(msm_scratch_bytes)(n, cz_msm_nthreads(pool), flags);
    void *s = scratch_alloc(bytes);
    int err = G_(msm_density)(out, bases, nb, k, dens, n, flags, pool, s, bytes);
    free(s);
    return err;
}

/* Scalars: 0 random, 1 skewed (45% zero, 45% one, 10% random). */
static void random_scalars(cz_fr *k, size_t n, int skewed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = cz_prng_next(&tf_rng) % 100;
        if (skewed && u < 45)
            k[i] = CZ_FR_ZERO;
        else if (skewed && u < 90)
            k[i] = CZ_FR_ONE;
        else
            cz_fr_random(&k[i], &tf_rng);
    }
}

/* Checks msm(k, flags) against the discrete-log reference. */
static void check_dlog(const AFF *bases, const cz_fr *s, const cz_fr *k, size_t n, unsigned flags,
                       cz_pool *pool, const char *what)
{
    JAC got, want;
    int err = run_msm(&got, bases, k, n, flags, pool);
    ref_dlog(&want, k, s, n, (flags & CZ_MSM_CANONICAL) != 0);
    TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &want), "%s: n=%zu flags=%#x threads=%u err=%d",
                 what, n, flags, cz_msm_nthreads(pool), err);
}

/* ------------------------------------------------------------- tests --- */

/* Sizes 2^0 .. 2^MAX_LOG (and one off the power) against the naive sum. */
static void test_random_vs_naive(void)
{
    size_t nmax = ((size_t)1 << MAX_LOG) + 1;
    AFF *b = malloc(nmax * sizeof *b);
    cz_fr *s = malloc(nmax * sizeof *s), *k = malloc(nmax * sizeof *k);
    make_bases(b, s, nmax);
    for (unsigned lg = 0; lg <= MAX_LOG; lg++) {
        size_t n = (size_t)1 << lg;
        if (lg == MAX_LOG / 2)
            n += 1;
        JAC got, want;
        random_scalars(k, n, 0);
        int err = run_msm(&got, b, k, n, 0, NULL);
        ref_naive(&want, b, k, n);
        TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &want), "n=%zu err=%d", n, err);
    }
    free(b);
    free(s);
    free(k);
}

/* Every window width, XYZZ (c < 9) and batch-affine buckets, on random and
 * skewed scalars; the small sizes with wide windows leave most buckets
 * empty, the large ones with narrow windows collide in every batch. */
static void test_windows(void)
{
    size_t n = SCALE_N(1500);
    AFF *b = malloc(n * sizeof *b);
    cz_fr *s = malloc(n * sizeof *s), *k = malloc(n * sizeof *k);
    make_bases(b, s, n);
    for (unsigned c = 1; c <= 16; c++) {
        size_t m = c <= 4 ? n / 8 : n;
        random_scalars(k, m, 0);
        check_dlog(b, s, k, m, CZ_MSM_WINDOW(c), NULL, "window random");
        random_scalars(k, m, 1);
        check_dlog(b, s, k, m, CZ_MSM_WINDOW(c) | CZ_MSM_NO_SPLIT, NULL, "window skewed");
    }
    free(b);
    free(s);
    free(k);
}

static void test_edge_cases(void)
{
    size_t n = SCALE_N(600);
    AFF *b = malloc(n * sizeof *b);
    cz_fr *s = malloc(n * sizeof *s), *k = malloc(n * sizeof *k);
    cz_fr rm1;
    JAC got, inf;
    G_(set_inf)(&inf);
    cz_fr_neg(&rm1, &CZ_FR_ONE); /* r - 1 */
    for (unsigned v = 0; v < 4; v++) {
        /* automatic window; forced: XYZZ buckets, batch-affine buckets with
         * XYZZ running sums, batch-affine buckets with batched running sums */
        static const unsigned fls[] = {0, CZ_MSM_WINDOW(4), CZ_MSM_WINDOW(11), CZ_MSM_WINDOW(13)};
        unsigned fl = fls[v];
        make_bases(b, s, n);

        /* n = 0 and n = 1 */
        TF_CHECK(run_msm(&got, b, k, 0, fl, NULL) == CZ_OK && G_(is_inf)(&got));
        random_scalars(k, 1, 0);
        check_dlog(b, s, k, 1, fl, NULL, "n=1");

        /* all zeros */
        for (size_t i = 0; i < n; i++)
            k[i] = CZ_FR_ZERO;
        TF_CHECK(run_msm(&got, b, k, n, fl, NULL) == CZ_OK && G_(is_inf)(&got));
        /* all ones, split and not */
        for (size_t i = 0; i < n; i++)
            k[i] = CZ_FR_ONE;
        check_dlog(b, s, k, n, fl, NULL, "ones");
        check_dlog(b, s, k, n, fl | CZ_MSM_NO_SPLIT, NULL, "ones no split");
        /* all r - 1 */
        for (size_t i = 0; i < n; i++)
            k[i] = rm1;
        check_dlog(b, s, k, n, fl, NULL, "r-1");
        /* one scalar value everywhere: every point in the same bucket */
        random_scalars(k, 1, 0);
        for (size_t i = 1; i < n; i++)
            k[i] = k[0];
        check_dlog(b, s, k, n, fl, NULL, "same scalar");

        /* small scalars, each twice in a row, cycling over 200 values: with
         * c = 9 (128 additions per batch) every second point waits in the
         * queue, and retrying the queue fills the next batch */
        for (size_t i = 0; i < n; i++)
            cz_fr_from_u64(&k[i], 1 + (i / 2) % 200);
        check_dlog(b, s, k, n, fl, NULL, "small scalars");
        check_dlog(b, s, k, n, CZ_MSM_WINDOW(9), NULL, "small scalars, c = 9");

        /* repeated points: all equal, then runs of equal points */
        random_scalars(k, n, 0);
        for (size_t i = 0; i < n; i++) {
            b[i] = b[0];
            s[i] = s[0];
        }
        check_dlog(b, s, k, n, fl, NULL, "same point");
        for (size_t i = 0; i < n; i++)
            k[i] = k[0]; /* same point, same scalar: doublings in every bucket */
        check_dlog(b, s, k, n, fl, NULL, "same point and scalar");
        for (size_t i = 0; i < n; i++)
            k[i] = CZ_FR_ONE;
        check_dlog(b, s, k, n, fl, NULL, "same point, ones");

        make_bases(b, s, n);
        random_scalars(k, n, 0);
        for (size_t i = 1; i < n; i += 3) {
            b[i] = b[i - 1];
            s[i] = s[i - 1];
        }
        check_dlog(b, s, k, n, fl, NULL, "repeated runs");

        /* the same point with opposite scalars cancels */
        for (size_t i = 0; i + 1 < n; i += 2) {
            b[i + 1] = b[i];
            s[i + 1] = s[i];
            cz_fr_neg(&k[i + 1], &k[i]);
        }
        TF_CHECK(run_msm(&got, b, k, n & ~(size_t)1, fl, NULL) == CZ_OK && G_(is_inf)(&got));
        for (size_t i = 0; i + 1 < n; i += 2) {
            k[i] = CZ_FR_ONE;
            k[i + 1] = rm1;
        }
        TF_CHECK(run_msm(&got, b, k, n & ~(size_t)1, fl, NULL) == CZ_OK && G_(is_inf)(&got));
        TF_CHECK(run_msm(&got, b, k, n & ~(size_t)1, fl | CZ_MSM_NO_SPLIT, NULL) == CZ_OK &&
                 G_(is_inf)(&got));

        /* points at infinity among the bases */
        make_bases(b, s, n);
        random_scalars(k, n, 1);
        for (size_t i = 0; i < n; i++)
            if (cz_prng_next(&tf_rng) % 4 == 0) {
                memset(&b[i], 0, sizeof b[i]);
                s[i] = CZ_FR_ZERO;
            }
        check_dlog(b, s, k, n, fl, NULL, "infinity bases");
        for (size_t i = 0; i < n; i++)
            memset(&b[i], 0, sizeof b[i]);
        TF_CHECK(run_msm(&got, b, k, n, fl, NULL) == CZ_OK && G_(is_inf)(&got));
    }
    /* bad arguments */
    make_bases(b, s, n);
    size_t bytes = G_(msm_scratch_bytes)(n, 1, 0);
    uint8_t *sc = scratch_alloc(bytes + 64);
    TF_CHECK(G_(msm)(&got, b, k, n, 0, NULL, sc, bytes - 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(G_(msm)(&got, b, k, n, 0, NULL, sc + 8, bytes) == CZ_ERR_INVALID_ARG);
    TF_CHECK(G_(msm)(&got, b, k, n, CZ_MSM_WINDOW(21), NULL, sc, bytes) == CZ_ERR_INVALID_ARG);
    TF_CHECK(G_(msm)(&got, NULL, k, n, 0, NULL, sc, bytes) == CZ_ERR_INVALID_ARG);
    TF_CHECK(G_(msm)(&got, b, k, n, 0, NULL, sc, bytes) == CZ_OK);
    free(sc);
    free(b);
    free(s);
    free(k);
}

/* Digits at the window boundaries: canonical scalars whose c-bit windows
 * are each 0, 1, 2^(c-1) - 1, 2^(c-1), 2^(c-1) + 1 or 2^c - 1 (bits >= 254
 * cleared so the value stays below r); passed canonical and in Montgomery
 * form. */
static void test_window_boundaries(void)
{
    size_t n = SCALE_N(400);
    AFF *b = malloc(n * sizeof *b);
    cz_fr *s = malloc(n * sizeof *s), *k = malloc(n * sizeof *k), *km = malloc(n * sizeof *km);
    make_bases(b, s, n);
    static const unsigned widths[] = {1, 2, 5, 8, 9, 12, 13, 16};
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        unsigned c = widths[wi];
        uint64_t half = (uint64_t)1 << (c - 1);
        uint64_t pat[6] = {0, 1, half - 1, half, half + 1, 2 * half - 1};
        for (size_t i = 0; i < n; i++) {
            uint64_t v[4] = {0, 0, 0, 0};
            uint64_t u = cz_prng_next(&tf_rng) % 6; /* one pattern per scalar, or mixed */
            for (unsigned j = 0; j * c < 256; j++) {
                uint64_t d = pat[(i & 1) ? u : cz_prng_next(&tf_rng) % 6];
                for (unsigned t = 0; t < c && j * c + t < 254; t++)
                    if ((d >> t) & 1)
                        v[(j * c + t) / 64] |= (uint64_t)1 << ((j * c + t) % 64);
            }
            memcpy(k[i].l, v, sizeof v);
            cz_fr_from_canonical(&km[i], v);
        }
        check_dlog(b, s, k, n, CZ_MSM_CANONICAL | CZ_MSM_WINDOW(c), NULL, "boundary canonical");
        check_dlog(b, s, km, n, CZ_MSM_WINDOW(c), NULL, "boundary montgomery");
    }
    /* canonical vs Montgomery on random scalars, automatic window */
    random_scalars(km, n, 1);
    for (size_t i = 0; i < n; i++)
        cz_fr_to_canonical(k[i].l, &km[i]);
    JAC a, c;
    TF_CHECK(run_msm(&a, b, k, n, CZ_MSM_CANONICAL, NULL) == CZ_OK);
    TF_CHECK(run_msm(&c, b, km, n, 0, NULL) == CZ_OK);
    TF_CHECK(G_(equal)(&a, &c));
    check_dlog(b, s, km, n, 0, NULL, "montgomery");
    free(b);
    free(s);
    free(k);
    free(km);
}

/* Density: against the manual expansion (plain MSM over the selected pairs)
 * and the discrete-log reference; garbage bits past n; wrong base count. */
static void test_density(void)
{
    size_t n = SCALE_N(3000) + 37;
    size_t words = (n + 63) / 64;
    AFF *b = malloc(n * sizeof *b), *dense = malloc(n * sizeof *dense);
    cz_fr *s = malloc(n * sizeof *s), *k = malloc(n * sizeof *k), *ks = malloc(n * sizeof *ks),
          *ss = malloc(n * sizeof *ss);
    uint64_t *dens = malloc(words * sizeof *dens);
    static const unsigned pct[] = {0, 3, 50, 90, 100};
    make_bases(b, s, n);
    for (size_t pi = 0; pi < sizeof pct / sizeof pct[0]; pi++) {
        for (int skewed = 0; skewed < 2; skewed++) {
            size_t nd = 0;
            memset(dens, 0, words * sizeof *dens);
            random_scalars(k, n, skewed);
            for (size_t i = 0; i < n; i++)
                if (cz_prng_next(&tf_rng) % 100 < pct[pi]) {
                    dens[i / 64] |= (uint64_t)1 << (i % 64);
                    dense[nd] = b[i];
                    ks[nd] = k[i];
                    ss[nd] = s[i];
                    nd++;
                }
            if (n % 64)
                dens[words - 1] |= ~(((uint64_t)1 << (n % 64)) - 1); /* bits past n */
            JAC got, exp, want;
            int err = run_density(&got, dense, nd, k, dens, n, 0, NULL);
            TF_CHECK(run_msm(&exp, dense, ks, nd, 0, NULL) == CZ_OK);
            ref_dlog(&want, ks, ss, nd, 0);
            TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &exp) && G_(equal)(&got, &want),
                         "density %u%% skewed %d err %d", pct[pi], skewed, err);
            err =
                run_density(&got, dense, nd, k, dens, n, CZ_MSM_NO_SPLIT | CZ_MSM_WINDOW(10), NULL);
            TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &want), "density no split %u%%", pct[pi]);
            if (nd) {
                TF_CHECK(run_density(&got, dense, nd - 1, k, dens, n, 0, NULL) ==
                         CZ_ERR_INVALID_ARG);
            }
            TF_CHECK(run_density(&got, dense, nd + 1, k, dens, n, 0, NULL) == CZ_ERR_INVALID_ARG);
        }
    }
    JAC got;
    TF_CHECK(run_density(&got, b, 0, k, NULL, 0, 0, NULL) == CZ_OK && G_(is_inf)(&got));
    free(b);
    free(dense);
    free(s);
    free(k);
    free(ks);
    free(ss);
    free(dens);
}

/* Density bitmaps over several classification chunks (4 per thread, at
 * least 4096 scalars each) and, with MULTI_ROUND, over two rounds of
 * CZ_MSM_ROUND scalars: scalars are non-zero only near the start, the chunk
 * and round boundaries and the end; the other scalars are zero (calloc), and
 * their bases are never read, so the plain MSM's bases array stays mostly
 * untouched virtual memory. */
static void check_sparse(size_t n, const size_t *at, size_t nat, cz_pool *pool)
{
    size_t words = (n + 63) / 64, nd = 0, m = 0;
    cz_fr *k = calloc(n, sizeof *k), *kl = malloc(nat * sizeof *kl), *sl = malloc(nat * sizeof *sl);
    AFF *full = calloc(n, sizeof *full), *dense = malloc(nat * sizeof *dense);
    AFF *pts = malloc(nat * sizeof *pts);
    cz_fr *sp = malloc(nat * sizeof *sp);
    uint64_t *dens = calloc(words, sizeof *dens);
    make_bases(pts, sp, nat);
    for (size_t i = 0; i < nat; i++) {
        size_t j = at[i];
        /* set bits sit only on some of the listed positions; the rest get a
         * zero or non-zero scalar with a clear bit (ignored) */
        random_scalars(&k[j], 1, 1);
        if (i % 3 != 2) {
            dens[j / 64] |= (uint64_t)1 << (j % 64);
            dense[nd] = pts[i];
            kl[nd] = k[j];
            sl[nd] = sp[i];
            nd++;
        } else {
            cz_fr_random(&k[j], &tf_rng);
        }
        full[j] = pts[i];
    }
    JAC got, want;
    int err = run_density(&got, dense, nd, k, dens, n, 0, pool);
    ref_dlog(&want, kl, sl, nd, 0);
    TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &want), "sparse density n=%zu err=%d", n, err);
    /* plain MSM over the full arrays: every listed position counts */
    for (size_t i = 0; i < nat; i++) {
        kl[m] = k[at[i]];
        sl[m++] = sp[i];
    }
    err = run_msm(&got, full, k, n, 0, pool);
    ref_dlog(&want, kl, sl, m, 0);
    TF_CHECK_MSG(err == CZ_OK && G_(equal)(&got, &want), "sparse plain n=%zu err=%d", n, err);
    free(k);
    free(kl);
    free(sl);
    free(full);
    free(dense);
    free(pts);
    free(sp);
    free(dens);
}

static void sparse_positions(size_t *at, size_t *nat, size_t n, const size_t *edges, size_t nedges)
{
    size_t c = 0;
    for (size_t e = 0; e < nedges; e++)
        for (size_t d = 0; d < 40; d++) {
            size_t j = edges[e] + d - 20;
            if (j < n && (c == 0 || j > at[c - 1]))
                at[c++] = j;
        }
    *nat = c;
}

static void test_density_chunks(void)
{
    size_t at[400], nat;
    /* one thread: 4 chunks of 5000; two threads: 8 chunks of 4096 */
    size_t n = 20000 + 29;
    static const size_t e1[] = {20, 4096, 5000, 8192, 10000, 12288, 15000, 16384, 20009};
    sparse_positions(at, &nat, n, e1, sizeof e1 / sizeof e1[0]);
    check_sparse(n, at, nat, NULL);
    cz_pool *p;
    TF_CHECK(cz_pool_new(&p, 1) == CZ_OK);
    check_sparse(n, at, nat, p);
#ifdef MULTI_ROUND
    size_t r = CZ_MSM_ROUND, n2 = r + 7001;
    const size_t e2[] = {20, r / 4, r - 20, r, r + 4096, n2 - 20};
    sparse_positions(at, &nat, n2, e2, sizeof e2 / sizeof e2[0]);
    check_sparse(n2, at, nat, p);
#endif
    cz_pool_free(p);
}

/* Split (ones summed apart) vs plain on witness-like scalars. */
static void test_split(void)
{
    static const size_t sizes[] = {1, 2, 100, 1025, 5000};
    size_t nmax = SCALE_N(5000);
    AFF *b = malloc(nmax * sizeof *b);
    cz_fr *s = malloc(nmax * sizeof *s), *k = malloc(nmax * sizeof *k);
    make_bases(b, s, nmax);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si] < nmax ? sizes[si] : nmax;
        JAC split, plain, want;
        random_scalars(k, n, 1);
        TF_CHECK(run_msm(&split, b, k, n, 0, NULL) == CZ_OK);
        TF_CHECK(run_msm(&plain, b, k, n, CZ_MSM_NO_SPLIT, NULL) == CZ_OK);
        ref_dlog(&want, k, s, n, 0);
        TF_CHECK_MSG(G_(equal)(&split, &want) && G_(equal)(&plain, &want), "split n=%zu", n);
    }
    free(b);
    free(s);
    free(k);
}

/* Pools of 1 .. 3 workers (2 .. 4 threads), and forced point ranges, give
 * the single-threaded result; scratch sized for fewer threads than the pool
 * has is accepted. */
static void test_threads(void)
{
    size_t n = SCALE_N(6000);
    AFF *b = malloc(n * sizeof *b);
    cz_fr *s = malloc(n * sizeof *s), *k = malloc(n * sizeof *k);
    make_bases(b, s, n);
    for (int skewed = 0; skewed < 2; skewed++) {
        JAC one, many;
        random_scalars(k, n, skewed);
        TF_CHECK(run_msm(&one, b, k, n, 0, NULL) == CZ_OK);
        check_dlog(b, s, k, n, 0, NULL, "threads reference");
        for (unsigned w = 1; w <= 3; w++) {
            cz_pool *p;
            TF_CHECK(cz_pool_new(&p, w) == CZ_OK);
            TF_CHECK(run_msm(&many, b, k, n, 0, p) == CZ_OK);
            TF_CHECK_MSG(G_(equal)(&one, &many), "threads %u skewed %d", w + 1, skewed);
            TF_CHECK(run_msm(&many, b, k, n, CZ_MSM_PARTS(3) | CZ_MSM_WINDOW(10), p) == CZ_OK);
            TF_CHECK_MSG(G_(equal)(&one, &many), "parts 3, threads %u", w + 1);
            TF_CHECK(run_msm(&many, b, k, n, CZ_MSM_PARTS(5) | CZ_MSM_WINDOW(5), p) == CZ_OK);
            TF_CHECK_MSG(G_(equal)(&one, &many), "parts 5, threads %u", w + 1);
            /* scratch for one thread, pool of w + 1 */
            size_t bytes = G_(msm_scratch_bytes)(n, 1, 0);
            void *sc = scratch_alloc(bytes);
            TF_CHECK(G_(msm)(&many, b, k, n, 0, p, sc, bytes) == CZ_OK && G_(equal)(&one, &many));
            free(sc);
            cz_pool_free(p);
        }
        TF_CHECK(run_msm(&many, b, k, n, CZ_MSM_PARTS(7), NULL) == CZ_OK);
        TF_CHECK(G_(equal)(&one, &many));
        /* scratch for more threads than used, and for sizes whose natural
         * window differs with the thread count */
        for (size_t m = 1; m <= n; m *= 7) {
            size_t bytes = G_(msm_scratch_bytes)(m, 64, 0);
            void *sc = scratch_alloc(bytes);
            TF_CHECK(G_(msm)(&many, b, k, m, 0, NULL, sc, bytes) == CZ_OK);
            check_dlog(b, s, k, m, 0, NULL, "scratch for 64 threads");
            TF_CHECK(run_msm(&one, b, k, m, 0, NULL) == CZ_OK && G_(equal)(&one, &many));
            free(sc);
        }
        /* a size where 22 threads want more scratch than 24 (a wider natural
         * window): the call narrows the slots' window to fit */
        for (size_t m = 64; m <= n; m = m * 9 / 8 + 1) {
            size_t bytes = G_(msm_scratch_bytes)(m, 24, 0);
            if (G_(msm_scratch_bytes)(m, 22, 0) <= bytes)
                continue;
            cz_pool *p;
            TF_CHECK(cz_pool_new(&p, 21) == CZ_OK);
            void *sc = scratch_alloc(bytes);
            TF_CHECK(G_(msm)(&many, b, k, m, 0, p, sc, bytes) == CZ_OK);
            TF_CHECK(run_msm(&one, b, k, m, 0, NULL) == CZ_OK && G_(equal)(&one, &many));
            free(sc);
            cz_pool_free(p);
            break;
        }
    }
    free(b);
    free(s);
    free(k);
}

/* Fixed-base products against cz_*_mul, several table widths, canonical and
 * Montgomery scalars, 0, 1, r - 1, base at infinity. */
static void test_fixed_base(void)
{
    size_t n = SCALE_N(70);
    static const unsigned widths[] = {1, 2, 5, 8};
    AFF base, *out = malloc(n * sizeof *out), want;
    cz_fr *k = malloc(n * sizeof *k), *kc = malloc(n * sizeof *kc), t;
    JAC g, p;
    cz_fr_random(&t, &tf_rng);
    G_(from_affine)(&g, &GEN);
    G_(mul_var)(&p, &g, &t);
    G_(to_affine)(&base, &p);
    G_(from_affine)(&g, &base);
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        unsigned w = widths[wi];
        void *tab = aligned_alloc(64, (G_(fixed_table_bytes)(w) + 63) & ~(size_t)63);
        G_(fixed_table_init)(tab, w, &base);
        random_scalars(k, n, 0);
        k[0] = CZ_FR_ZERO;
        k[1] = CZ_FR_ONE;
        cz_fr_neg(&k[2], &CZ_FR_ONE);
        for (size_t i = 0; i < n; i++)
            cz_fr_to_canonical(kc[i].l, &k[i]);
        for (int canon = 0; canon < 2; canon++) {
            G_(fixed_mul)
            (out, tab, w, canon ? kc : k, n, canon ? CZ_MSM_CANONICAL : 0, canon ? pool : NULL);
            for (size_t i = 0; i < n; i++) {
                G_(mul)(&p, &g, &k[i]);
                G_(to_affine)(&want, &p);
                TF_CHECK_MSG(G_(affine_equal)(&out[i], &want), "fixed w=%u i=%zu canon=%d", w, i,
                             canon);
            }
        }
        memset(&base, 0, sizeof base); /* infinity for the next round's check */
        G_(fixed_table_init)(tab, w, &base);
        G_(fixed_mul)(out, tab, w, k, n, 0, NULL);
        for (size_t i = 0; i < n; i++)
            TF_CHECK(G_(affine_is_inf)(&out[i]));
        G_(to_affine)(&base, &g);
        free(tab);
    }
    TF_CHECK(G_(fixed_table_bytes)(0) == 0 && G_(fixed_table_bytes)(17) == 0);
    cz_pool_free(pool);
    free(out);
    free(k);
    free(kc);
}

#define MSM_TESTS                                                                                  \
    TF_TEST(test_random_vs_naive), TF_TEST(test_windows), TF_TEST(test_edge_cases),                \
        TF_TEST(test_window_boundaries), TF_TEST(test_density), TF_TEST(test_density_chunks),      \
        TF_TEST(test_split), TF_TEST(test_threads), TF_TEST(test_fixed_base)
