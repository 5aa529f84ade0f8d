/* GPU MSM (cz_cuda_g1_msm, cz_cuda_g2_msm) against the CPU's cz_g1_msm /
 * cz_g2_msm on the same inputs, as points: random scalars, witness-like
 * skewed ones (zeros and ones), all zeros, all ones (one bucket holding
 * every point: the multi-round bucket sum), repeated points (doublings
 * inside buckets), bases at infinity, canonical scalars, forced windows
 * from 2 to 20 bits, dense scalars from 2^16 points (the radix-sort path
 * of step 3); and the proof's path (src/cuda/msm_scratch.h): the same
 * MSMs with their scratch bumped out of one block of the bound.  Without a
 * device only the "not available" contract is checked and the GPU tests
 * skip.  The chunked MSM (one window and one bucket array over chunks of
 * bases, resident or piped from the host) against the same results. */
#include <stdlib.h>
#include <string.h>

#include "cuda/base_pipe.h"
#include "cuda/msm_scratch.h"
#include "cuda/stream_plan.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "tf.h"

enum { K_RANDOM, K_SKEWED, K_ZERO, K_ONE, K_SMALL, K_COUNT };
static const char *kind_names[] = {"random", "skewed", "zeros", "ones", "small"};

static void make_scalars(cz_fr *k, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = cz_prng_next(&tf_rng) % 100;
        switch (kind) {
        case K_RANDOM:
            cz_fr_random(&k[i], &tf_rng);
            break;
        case K_SKEWED:
            if (u < 45)
                k[i] = CZ_FR_ZERO;
            else if (u < 90)
                k[i] = CZ_FR_ONE;
            else
                cz_fr_random(&k[i], &tf_rng);
            break;
        case K_ZERO:
            k[i] = CZ_FR_ZERO;
            break;
        case K_ONE:
            k[i] = CZ_FR_ONE;
            break;
        default: /* small values and their negatives: digits at the window edges */
            cz_fr_from_u64(&k[i], cz_prng_next(&tf_rng) % 70000);
            if (u < 50)
                cz_fr_neg(&k[i], &k[i]);
        }
    }
}

/* Bases: a progression s_i G (distinct), with every distinct-th one
 * repeated when distinct < n, and infinity at a few places when inf. */
#define MAKE_BASES(G)                                                                              \
    static void G##_bases(cz_##G##_affine *out, size_t n, size_t distinct, int inf)                \
    {                                                                                              \
        cz_##G p, dp, t, *buf = tf_xmalloc(distinct * sizeof *buf);                                \
        cz_fr a, s;                                                                                \
        cz_fr_random(&a, &tf_rng);                                                                 \
        cz_fr_random(&s, &tf_rng);                                                                 \
        cz_##G##_from_affine(&t, &CZ_##G##_GEN);                                                   \
        cz_##G##_mul_var(&p, &t, &a);                                                              \
        cz_##G##_mul_var(&dp, &t, &s);                                                             \
        for (size_t j = 0; j < distinct; j++) {                                                    \
            buf[j] = p;                                                                            \
            cz_##G##_add(&p, &p, &dp);                                                             \
        }                                                                                          \
        cz_##G##s_to_affine(out, buf, distinct);                                                   \
        for (size_t i = distinct; i < n; i++)                                                      \
            out[i] = out[i % distinct];                                                            \
        if (inf)                                                                                   \
            for (size_t i = 0; i < n; i += 7)                                                      \
                memset(&out[i], 0, sizeof out[i]);                                                 \
        free(buf);                                                                                 \
    }
#define CZ_g1_GEN CZ_G1_GENERATOR
#define CZ_g2_GEN CZ_G2_GENERATOR
MAKE_BASES(g1)
MAKE_BASES(g2)

static void count_pause(void *ctx) { ++*(unsigned *)ctx; }

/* A chunked MSM's bases from a resident copy: chunk k at its offset. */
typedef struct {
    const void *bdev;
    size_t bsz;
    const cz_stream_chunk *ch;
} resident_ctx;

static int resident_get(void *ctx, size_t k, const void **bases)
{
    const resident_ctx *r = ctx;
    *bases = (const char *)r->bdev + r->ch[k].b0 * r->bsz;
    return CZ_OK;
}

/* The same MSM with its scratch from one block of exactly the bound
 * (msm_scratch.h, the proof's path; ddev NULL: no density, n = nb): the
 * same point, nothing spilled to cz_cuda_malloc, the mark back at 0; the
 * same with a pause hook (the bucket sums in two launches): two pauses; and
 * from a block too small, the same point with spills counted. */
static void check_scratch(int g2, const void *bdev, size_t nb, const void *kdev, const void *ddev,
                          size_t n, unsigned c, const cz_g1 *want1, const cz_g2 *want2)
{
    size_t bound = cz_cuda_msm_scratch_bytes(nb, g2, ddev != NULL, n, c, SIZE_MAX);
    for (int mode = 0; mode < 3; mode++) {
        int small = mode == 2;
        cz_cuda_scratch sc;
        size_t bytes = small ? 4096 : bound;
        unsigned pauses = 0;
        int rc = cz_cuda_scratch_alloc(&sc, bytes);
        if (mode == 1) {
            sc.pause = count_pause;
            sc.pause_ctx = &pauses;
        }
        cz_g1 r1;
        cz_g2 r2;
        if (!rc)
            rc = g2 ? cz_cuda_g2_msm_scratch(&r2, bdev, nb, kdev, ddev, n, c, &sc)
                    : cz_cuda_g1_msm_scratch(&r1, bdev, nb, kdev, ddev, n, c, &sc);
        bool same = !rc && (g2 ? cz_g2_equal(want2, &r2) : cz_g1_equal(want1, &r1));
        bool spills_ok = small ? sc.spills > 0 || nb < 2 : sc.spills == 0;
        bool pauses_ok = pauses == (mode == 1 && nb ? 2u : 0u);
        TF_CHECK_MSG(same && spills_ok && pauses_ok && sc.used == 0 && sc.peak <= bytes,
                     "%s scratch MSM of %zu bases (%s, window %u, scratch %zu of bound %zu%s): "
                     "%s, %s, %u spills, %u pauses, used %zu, peak %zu",
                     g2 ? "G2" : "G1", nb, ddev ? "density" : "plain", c, bytes, bound,
                     mode == 1 ? ", pausing" : "", cz_strerror(rc),
                     rc     ? "no result"
                     : same ? "same point"
                            : "points differ",
                     sc.spills, pauses, sc.used, sc.peak);
        cz_cuda_scratch_free(&sc);
    }
}

/* The chunked MSM (msm_scratch.h) over the same inputs: chunks of at most
 * sort bases (cz_stream_plan; density hd on the host, ddev on the device,
 * or none), their bases from the resident copy bdev, then streamed from
 * the host copy through a base pipe (base_pipe.h): the same point, its
 * scratch exactly cz_cuda_msm_scratch_bytes's bound with no spill, the
 * mark back at 0, the pipe's bytes the bases'. */
static void check_chunked(int g2, const void *bases, const void *bdev, size_t nb, const void *kdev,
                          const void *ddev, const uint64_t *hd, size_t n, unsigned c,
                          const cz_g1 *want1, const cz_g2 *want2)
{
    size_t bsz = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    const size_t sorts[] = {64, 1000, nb / 2 + 1};
    for (size_t si = 0; si < sizeof sorts / sizeof sorts[0]; si++) {
        size_t sort = sorts[si] < 64 ? 64 : sorts[si];
        size_t most = nb / sort + (hd ? n / 64 : 0) + 2, count = 0;
        cz_stream_chunk *ch = tf_xmalloc(most * sizeof *ch);
        TF_CHECK(cz_stream_plan(ch, most, &count, hd, hd ? n : nb, nb, sort) == CZ_OK);
        size_t bound = cz_cuda_msm_scratch_bytes(nb, g2, hd != NULL, n, c, sort);
        for (int piped = 0; piped < 2; piped++) {
            cz_cuda_scratch sc;
            int rc = cz_cuda_scratch_alloc(&sc, bound);
            void *buf[2] = {NULL, NULL};
            cz_base_pipe *pipe = NULL;
            cz_pipe_chunk *pc = tf_xmalloc((count + 1) * sizeof *pc);
            for (size_t k = 0; k < count; k++)
                pc[k] = (cz_pipe_chunk){(const char *)bases + ch[k].b0 * bsz,
                                        (ch[k].b1 - ch[k].b0) * bsz};
            for (int i = 0; piped && i < 2 && !rc; i++)
                rc = cz_cuda_malloc(&buf[i], sort * bsz, CZ_BUF_OTHER);
            if (piped && !rc)
                rc = cz_base_pipe_new(&pipe, pc, count, buf[0], buf[1]);
            resident_ctx rx = {bdev, bsz, ch};
            cz_cuda_bases src = {resident_get, NULL, &rx};
            if (piped && !rc)
                src = cz_base_pipe_source(pipe, 0);
            cz_g1 r1;
            cz_g2 r2;
            if (!rc)
                rc = g2 ? cz_cuda_g2_msm_chunked(&r2, &src, ch, count, nb, kdev, ddev, c, &sc)
                        : cz_cuda_g1_msm_chunked(&r1, &src, ch, count, nb, kdev, ddev, c, &sc);
            uint64_t moved = 0;
            double busy = 0;
            int r2c = cz_base_pipe_free(pipe, &moved, &busy);
            rc = rc ? rc : r2c;
            bool same = !rc && (g2 ? cz_g2_equal(want2, &r2) : cz_g1_equal(want1, &r1));
            TF_CHECK_MSG(same && sc.spills == 0 && sc.used == 0 && sc.peak <= bound &&
                             (!piped || moved == nb * bsz),
                         "%s chunked MSM of %zu bases (%s, window %u, %zu chunks of at most %zu, "
                         "%s): %s, %s, %u spills, peak %zu of %zu, %llu bytes piped",
                         g2 ? "G2" : "G1", nb, hd ? "density" : "plain", c, count, sort,
                         piped ? "piped from the host" : "resident", cz_strerror(rc),
                         rc ? "no result" : same ? "same point" : "points differ", sc.spills,
                         sc.peak, bound, (unsigned long long)moved);
            cz_cuda_scratch_free(&sc);
            cz_cuda_free(buf[0]);
            cz_cuda_free(buf[1]);
            free(pc);
        }
        free(ch);
    }
}

/* One case on G1 or G2: CPU and GPU results equal as points. */
static void check_case(int g2, size_t n, int kind, size_t distinct, int inf, unsigned flags)
{
    size_t bsz = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *bases = tf_xmalloc(n * bsz), *bdev = NULL, *kdev = NULL;
    cz_fr *k = tf_xmalloc(n * sizeof(cz_fr));
    g2 ? g2_bases(bases, n, distinct, inf) : g1_bases(bases, n, distinct, inf);
    make_scalars(k, n, kind);
    if (flags & CZ_MSM_CANONICAL)
        for (size_t i = 0; i < n; i++) {
            uint64_t c[4];
            cz_fr_to_canonical(c, &k[i]);
            memcpy(&k[i], c, sizeof c);
        }
    unsigned threads = 1;
    size_t sb = g2 ? cz_g2_msm_scratch_bytes(n, threads, flags)
                   : cz_g1_msm_scratch_bytes(n, threads, flags);
    void *scratch = aligned_alloc(CZ_MSM_SCRATCH_ALIGN, (sb + 63) & ~(size_t)63);
    cz_g1 c1, d1;
    cz_g2 c2, d2;
    int rc = g2 ? cz_g2_msm(&c2, bases, k, n, flags, NULL, scratch, sb)
                : cz_g1_msm(&c1, bases, k, n, flags, NULL, scratch, sb);
    TF_CHECK_MSG(rc == CZ_OK, "CPU msm: %s", cz_strerror(rc));
    rc = cz_cuda_malloc(&bdev, n * bsz, CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_malloc(&kdev, n * sizeof(cz_fr), CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_memcpy_h2d(bdev, bases, n * bsz);
    if (!rc)
        rc = cz_cuda_memcpy_h2d(kdev, k, n * sizeof(cz_fr));
    if (!rc)
        rc = g2 ? cz_cuda_g2_msm(&d2, bdev, kdev, n, flags)
                : cz_cuda_g1_msm(&d1, bdev, kdev, n, flags);
    bool same = !rc && (g2 ? cz_g2_equal(&c2, &d2) : cz_g1_equal(&c1, &d1));
    TF_CHECK_MSG(same, "GPU %s msm n=%zu %s distinct=%zu inf=%d window=%u%s: %s, %s",
                 g2 ? "G2" : "G1", n, kind_names[kind], distinct, inf, (flags >> 8) & 31u,
                 flags & CZ_MSM_CANONICAL ? " canonical" : "", cz_strerror(rc),
                 rc ? "no result" : "points differ");
    if (same && !(flags & CZ_MSM_CANONICAL)) { /* the proof's path: Montgomery scalars */
        check_scratch(g2, bdev, n, kdev, NULL, n, (flags >> 8) & 31u, &c1, &c2);
        if (n >= 100)
            check_chunked(g2, bases, bdev, n, kdev, NULL, NULL, n, (flags >> 8) & 31u, &c1, &c2);
    }
    cz_cuda_free(bdev);
    cz_cuda_free(kdev);
    free(scratch);
    free(bases);
    free(k);
}

/* Density MSM: pct% of n scalars have a base (bits past n set as noise). */
static void check_density(int g2, size_t n, unsigned pct, int kind)
{
    size_t words = (n + 63) / 64 + 1, nb = 0;
    uint64_t *dens = calloc(words, sizeof *dens);
    for (size_t i = 0; i < n; i++)
        if (cz_prng_next(&tf_rng) % 100 < pct) {
            dens[i / 64] |= (uint64_t)1 << (i % 64);
            nb++;
        }
    for (size_t i = n; i < (words - 1) * 64; i++) /* ignored bits past n */
        dens[i / 64] |= (uint64_t)(cz_prng_next(&tf_rng) & 1) << (i % 64);
    size_t bsz = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *bases = tf_xmalloc(nb * bsz), *bdev = NULL, *kdev = NULL, *ddev = NULL;
    cz_fr *k = tf_xmalloc(n * sizeof(cz_fr));
    if (nb)
        g2 ? g2_bases(bases, nb, nb, 0) : g1_bases(bases, nb, nb, 0);
    make_scalars(k, n, kind);
    size_t sb = g2 ? cz_g2_msm_scratch_bytes(n, 1, 0) : cz_g1_msm_scratch_bytes(n, 1, 0);
    void *scratch = aligned_alloc(CZ_MSM_SCRATCH_ALIGN, (sb + 63) & ~(size_t)63);
    cz_g1 c1, d1;
    cz_g2 c2, d2;
    int rc = g2 ? cz_g2_msm_density(&c2, bases, nb, k, dens, n, 0, NULL, scratch, sb)
                : cz_g1_msm_density(&c1, bases, nb, k, dens, n, 0, NULL, scratch, sb);
    TF_CHECK_MSG(rc == CZ_OK, "CPU density msm: %s", cz_strerror(rc));
    rc = cz_cuda_malloc(&bdev, nb * bsz, CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_malloc(&kdev, n * sizeof(cz_fr), CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_malloc(&ddev, words * sizeof(uint64_t), CZ_BUF_OTHER);
    if (!rc)
        rc = cz_cuda_memcpy_h2d(bdev, bases, nb * bsz);
    if (!rc)
        rc = cz_cuda_memcpy_h2d(kdev, k, n * sizeof(cz_fr));
    if (!rc)
        rc = cz_cuda_memcpy_h2d(ddev, dens, words * sizeof(uint64_t));
    if (!rc)
        rc = g2 ? cz_cuda_g2_msm_density(&d2, bdev, nb, kdev, ddev, n, 0)
                : cz_cuda_g1_msm_density(&d1, bdev, nb, kdev, ddev, n, 0);
    bool same = !rc && (g2 ? cz_g2_equal(&c2, &d2) : cz_g1_equal(&c1, &d1));
    TF_CHECK_MSG(same, "GPU %s density msm n=%zu pct=%u %s: %s, %s", g2 ? "G2" : "G1", n, pct,
                 kind_names[kind], cz_strerror(rc), rc ? "no result" : "points differ");
    if (same) {
        check_scratch(g2, bdev, nb, kdev, ddev, n, 0, &c1, &c2);
        if (nb >= 100)
            check_chunked(g2, bases, bdev, nb, kdev, ddev, dens, n, 0, &c1, &c2);
    }
    /* a base count that does not match the bitmap is refused */
    if (!rc && !g2)
        TF_CHECK(cz_cuda_g1_msm_density(&d1, bdev, nb + 1, kdev, ddev, n, 0) == CZ_ERR_INVALID_ARG);
    cz_cuda_free(bdev);
    cz_cuda_free(kdev);
    cz_cuda_free(ddev);
    free(scratch);
    free(bases);
    free(k);
    free(dens);
}

static void test_density(void)
{
    if (!tf_gpu())
        return;
    check_density(0, 1, 100, K_RANDOM);
    check_density(0, 63, 50, K_RANDOM);
    check_density(0, 1000, 0, K_RANDOM);
    check_density(0, 5003, 25, K_SKEWED);
    check_density(0, 70001, 99, K_SKEWED);
    check_density(1, 3001, 25, K_SKEWED);
    printf("test_cuda_msm: density MSMs done\n");
}

static void test_unavailable(void)
{
    if (cz_cuda_available())
        return;
    cz_g1 o1;
    cz_g2 o2;
    cz_g1_affine b1 = CZ_G1_GENERATOR;
    cz_g2_affine b2 = CZ_G2_GENERATOR;
    cz_fr k = CZ_FR_ONE;
    TF_CHECK(cz_cuda_g1_msm(&o1, &b1, &k, 1, 0) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_g2_msm(&o2, &b2, &k, 1, 0) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_g1_msm(NULL, &b1, &k, 1, 0) == CZ_ERR_INVALID_ARG);
}

static void test_contract(void)
{
    if (!tf_gpu())
        return;
    cz_g1 o;
    cz_fr k = CZ_FR_ONE;
    TF_CHECK(cz_cuda_g1_msm(&o, NULL, &k, 1, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_g1_msm(&o, (const cz_g1_affine *)&k, &k, 1, CZ_MSM_WINDOW(1)) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_g1_msm(&o, NULL, NULL, 0, 0) == CZ_OK && cz_g1_is_inf(&o));
}

static void test_g1(void)
{
    if (!tf_gpu())
        return;
    static const size_t sizes[] = {1, 2, 3, 100, 1000, 4096, 20011};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int kind = 0; kind < K_COUNT; kind++)
            check_case(0, sizes[si], kind, sizes[si], 0, 0);
    printf("test_cuda_msm: G1 sizes 1..20011 x 5 scalar kinds done\n");
    /* repeated points and infinity among the bases */
    check_case(0, 5000, K_RANDOM, 3, 0, 0);
    check_case(0, 5000, K_SMALL, 1, 0, CZ_MSM_WINDOW(4));
    check_case(0, 5000, K_ONE, 17, 1, 0);
    check_case(0, 3000, K_SKEWED, 3000, 1, 0);
    /* windows: tiny (many windows, 2 buckets) to large (sparse buckets) */
    static const unsigned windows[] = {2, 3, 5, 8, 11, 13, 16, 20};
    for (size_t wi = 0; wi < sizeof windows / sizeof windows[0]; wi++) {
        check_case(0, 3001, K_RANDOM, 3001, 0, CZ_MSM_WINDOW(windows[wi]));
        check_case(0, 3001, K_SMALL, 3001, 0, CZ_MSM_WINDOW(windows[wi]));
    }
    check_case(0, 4000, K_RANDOM, 4000, 0, CZ_MSM_CANONICAL);
    /* large: the default window of a big input, multi-round bucket sums */
    check_case(0, (size_t)1 << 18, K_SKEWED, 1 << 12, 0, 0);
    check_case(0, (size_t)1 << 18, K_RANDOM, 1 << 12, 1, 0);
    /* dense scalars from 2^16 points take the radix sort (msm.cu
     * radix_place): its window-by-window carries at a narrow window (52
     * windows) and a wide one */
    check_case(0, (size_t)1 << 16, K_RANDOM, 1 << 10, 0, CZ_MSM_WINDOW(5));
    check_case(0, (size_t)1 << 16, K_RANDOM, 1 << 16, 0, CZ_MSM_WINDOW(13));
    check_case(0, (size_t)1 << 16, K_RANDOM, 1 << 16, 0, CZ_MSM_CANONICAL);
    printf("test_cuda_msm: G1 edge cases, windows 2..20, 2^18 done\n");
}

static void test_g2(void)
{
    if (!tf_gpu())
        return;
    static const size_t sizes[] = {1, 5, 600, 4099};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int kind = 0; kind < K_COUNT; kind++)
            check_case(1, sizes[si], kind, sizes[si], 0, 0);
    check_case(1, 3000, K_ONE, 5, 1, 0);
    check_case(1, 2000, K_RANDOM, 2000, 0, CZ_MSM_WINDOW(7));
    check_case(1, (size_t)1 << 16, K_SKEWED, 1 << 10, 0, 0);
    check_case(1, (size_t)1 << 16, K_RANDOM, 1 << 10, 0, 0); /* the radix sort */
    printf("test_cuda_msm: G2 done\n");
}

static void test_teardown(void) { cz_cuda_release(); }

TF_MAIN(TF_TEST(test_unavailable), TF_TEST(test_contract), TF_TEST(test_g1), TF_TEST(test_g2),
        TF_TEST(test_density), TF_TEST(test_teardown))
