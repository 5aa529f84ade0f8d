/* GPU fixed-base batch multiplication (cz_cuda_g1_fixed_mul,
 * cz_cuda_g2_fixed_mul) against the CPU's cz_g1_fixed_mul /
 * cz_g2_fixed_mul, bit for bit: fresh random scalars from the run's seed
 * (printed first; --seed replays it) with 0, 1, 2, r - 1, r - 2 and small
 * values among them; batch sizes around the chunk (CZ_CUDA_FIXED_CHUNK =
 * 1000 here, so one call crosses several) and around batch_affine's groups
 * of 64; windows 1 to 20 (rows of up to 2^19 entries, built in segments of
 * 4096); canonical scalars; a random base and the base at infinity; tables
 * and host copies on a pool or the caller; the argument errors.  Without a device
 * only the "unsupported" contract is checked and the GPU tests skip. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"
#include "tf.h"

#define CPU_W 8

/* Random scalars with the edge values at the front, every 97th zero and
 * every 89th small (digits at the window edges); canonical limbs when
 * canon. */
static void make_scalars(cz_fr *k, size_t n, bool canon)
{
    cz_fr edge[5];
    edge[0] = CZ_FR_ZERO;
    edge[1] = CZ_FR_ONE;
    cz_fr_add(&edge[2], &CZ_FR_ONE, &CZ_FR_ONE);
    cz_fr_neg(&edge[3], &CZ_FR_ONE);
    cz_fr_neg(&edge[4], &edge[2]);
    for (size_t i = 0; i < n; i++) {
        if (i < 5)
            k[i] = edge[i];
        else if (i % 97 == 0)
            k[i] = CZ_FR_ZERO;
        else if (i % 89 == 0)
            cz_fr_from_u64(&k[i], cz_prng_next(&tf_rng) % 70000);
        else
            cz_fr_random(&k[i], &tf_rng);
    }
    if (n > 5)
        k[n - 1] = edge[3]; /* the last point of the last chunk */
    if (canon)
        for (size_t i = 0; i < n; i++) {
            uint64_t c[4];
            cz_fr_to_canonical(c, &k[i]);
            memcpy(&k[i], c, sizeof c);
        }
}

/* A random point of G1 or G2 (s G for a random s). */
static void random_g1(cz_g1_affine *p)
{
    cz_g1 t, r;
    cz_fr s;
    cz_fr_random(&s, &tf_rng);
    cz_g1_from_affine(&t, &CZ_G1_GENERATOR);
    cz_g1_mul_var(&r, &t, &s);
    cz_g1_to_affine(p, &r);
}

static void random_g2(cz_g2_affine *p)
{
    cz_g2 t, r;
    cz_fr s;
    cz_fr_random(&s, &tf_rng);
    cz_g2_from_affine(&t, &CZ_G2_GENERATOR);
    cz_g2_mul_var(&r, &t, &s);
    cz_g2_to_affine(p, &r);
}

/* One batch: the GPU products with t against the CPU's with base, bit for
 * bit. */
static void check_batch(int g2, cz_cuda_fixed *t, const void *base, size_t n, unsigned flags,
                        cz_pool *pool, const char *what)
{
    size_t asz = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    size_t tb = g2 ? cz_g2_fixed_table_bytes(CPU_W) : cz_g1_fixed_table_bytes(CPU_W);
    void *tab = aligned_alloc(64, (tb + 63) & ~(size_t)63);
    void *ref = tf_xmalloc(n * asz), *out = tf_xmalloc(n * asz);
    cz_fr *k = tf_xmalloc(n * sizeof(cz_fr));
    make_scalars(k, n, flags & CZ_MSM_CANONICAL);
    memset(out, 0xa5, n * asz); /* no stale zeros pass for infinity */
    if (g2) {
        cz_g2_fixed_table_init(tab, CPU_W, base);
        cz_g2_fixed_mul(ref, tab, CPU_W, k, n, flags, NULL);
    } else {
        cz_g1_fixed_table_init(tab, CPU_W, base);
        cz_g1_fixed_mul(ref, tab, CPU_W, k, n, flags, NULL);
    }
    int rc = g2 ? cz_cuda_g2_fixed_mul(out, t, k, n, flags, pool)
                : cz_cuda_g1_fixed_mul(out, t, k, n, flags, pool);
    TF_CHECK_MSG(rc == CZ_OK, "%s %s n=%zu: %s", g2 ? "G2" : "G1", what, n, cz_strerror(rc));
    size_t bad = 0, first = n;
    for (size_t i = 0; rc == CZ_OK && i < n; i++)
        if (memcmp((char *)out + i * asz, (char *)ref + i * asz, asz)) {
            bad++;
            if (first == n)
                first = i;
        }
    TF_CHECK_MSG(bad == 0, "%s %s n=%zu flags=%u: %zu of the products differ, the first at %zu",
                 g2 ? "G2" : "G1", what, n, flags, bad, first);
    free(tab);
    free(ref);
    free(out);
    free(k);
}

static cz_cuda_fixed *fixed_new(int g2, const void *base, unsigned w, cz_pool *pool)
{
    cz_cuda_fixed *t = NULL;
    int rc = g2 ? cz_cuda_g2_fixed_new(&t, base, w, pool, NULL)
                : cz_cuda_g1_fixed_new(&t, base, w, pool, NULL);
    TF_CHECK_MSG(rc == CZ_OK && t != NULL, "%s table of width %u: %s", g2 ? "G2" : "G1", w,
                 cz_strerror(rc));
    return t;
}

static void test_unavailable(void)
{
    if (cz_cuda_available())
        return;
    cz_cuda_fixed *t = (cz_cuda_fixed *)&t;
    cz_g1_affine o;
    TF_CHECK(cz_cuda_g1_fixed_new(&t, &CZ_G1_GENERATOR, 0, NULL, NULL) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(t == NULL);
    TF_CHECK(cz_cuda_g2_fixed_new(&t, &CZ_G2_GENERATOR, 0, NULL, NULL) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_g1_fixed_mul(&o, NULL, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_g1_fixed_new(NULL, &CZ_G1_GENERATOR, 0, NULL, NULL) == CZ_ERR_INVALID_ARG);
    cz_cuda_fixed_free(NULL);
}

/* Sizes around the chunk of 1000 and the groups of 64, on one object per
 * group (its buffers grow with the calls), copies on a pool. */
static void test_chunks(void)
{
    if (!tf_gpu())
        return;
    static const size_t sizes[] = {1, 2, 5, 63, 64, 65, 999, 1000, 1001, 2000, 2001, 4097};
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    setenv("CZ_CUDA_FIXED_CHUNK", "1000", 1);
    for (int g2 = 0; g2 < 2; g2++) {
        const void *base = g2 ? (const void *)&CZ_G2_GENERATOR : (const void *)&CZ_G1_GENERATOR;
        cz_cuda_fixed *t = fixed_new(g2, base, 0, pool);
        for (size_t i = 0; t && i < sizeof sizes / sizeof sizes[0]; i++)
            check_batch(g2, t, base, sizes[i], 0, i % 2 ? pool : NULL, "chunks of 1000");
        if (t) /* n = 0 is a no-op */
            TF_CHECK((g2 ? cz_cuda_g2_fixed_mul(NULL, t, NULL, 0, 0, NULL)
                         : cz_cuda_g1_fixed_mul(NULL, t, NULL, 0, 0, NULL)) == CZ_OK);
        cz_cuda_fixed_free(t);
    }
    unsetenv("CZ_CUDA_FIXED_CHUNK");
    cz_pool_free(pool);
    printf("test_cuda_fixed: G1 and G2, 1 to 4097 points in chunks of 1000: equal to the CPU\n");
}

/* Every window width on a random base, canonical scalars, one large batch
 * in a single default chunk. */
static void test_windows(void)
{
    if (!tf_gpu())
        return;
    static const unsigned widths[] = {1, 2, 5, 8, 13, 16, 17, 20};
    cz_g1_affine b1;
    cz_g2_affine b2;
    random_g1(&b1);
    random_g2(&b2);
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        cz_pool *tp = i % 2 ? pool : NULL; /* tables built on a pool or the caller */
        cz_cuda_fixed *t1 = fixed_new(0, &b1, widths[i], tp),
                      *t2 = fixed_new(1, &b2, widths[i], tp);
        if (t1)
            check_batch(0, t1, &b1, 700, i % 2 ? CZ_MSM_CANONICAL : 0, NULL, "random base");
        if (t2)
            check_batch(1, t2, &b2, 300, i % 2 ? 0 : CZ_MSM_CANONICAL, NULL, "random base");
        cz_cuda_fixed_free(t1);
        cz_cuda_fixed_free(t2);
    }
    printf("test_cuda_fixed: windows 1 to 20, random bases, canonical scalars: equal to the CPU\n");
    cz_cuda_fixed *t = fixed_new(0, &CZ_G1_GENERATOR, 0, pool);
    if (t)
        check_batch(0, t, &CZ_G1_GENERATOR, 100003, 0, pool, "one chunk");
    cz_cuda_fixed_free(t);
    cz_pool_free(pool);
    printf("test_cuda_fixed: G1 100003 points in one chunk: equal to the CPU\n");
}

/* The window from the environment, the base at infinity, argument errors. */
static void test_contract(void)
{
    if (!tf_gpu())
        return;
    setenv("CZ_CUDA_FIXED_WINDOW", "7", 1);
    cz_cuda_fixed *t = fixed_new(1, &CZ_G2_GENERATOR, 0, NULL);
    if (t)
        check_batch(1, t, &CZ_G2_GENERATOR, 200, 0, NULL, "CZ_CUDA_FIXED_WINDOW=7");
    cz_cuda_fixed_free(t);
    setenv("CZ_CUDA_FIXED_WINDOW", "seven", 1);
    t = (cz_cuda_fixed *)&t;
    TF_CHECK(cz_cuda_g1_fixed_new(&t, &CZ_G1_GENERATOR, 0, NULL, NULL) == CZ_ERR_INVALID_ARG && !t);
    unsetenv("CZ_CUDA_FIXED_WINDOW");
    TF_CHECK(cz_cuda_g1_fixed_new(&t, &CZ_G1_GENERATOR, CZ_CUDA_FIXED_MAX_WINDOW + 1, NULL, NULL) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_g1_fixed_new(&t, NULL, 8, NULL, NULL) == CZ_ERR_INVALID_ARG);

    cz_g1_affine inf1 = {{{0}}, {{0}}};
    cz_g2_affine inf2;
    memset(&inf2, 0, sizeof inf2);
    cz_cuda_fixed *i1 = fixed_new(0, &inf1, 8, NULL), *i2 = fixed_new(1, &inf2, 8, NULL);
    if (i1)
        check_batch(0, i1, &inf1, 100, 0, NULL, "base at infinity");
    if (i2)
        check_batch(1, i2, &inf2, 100, 0, NULL, "base at infinity");

    cz_cuda_fixed *g1 = fixed_new(0, &CZ_G1_GENERATOR, 4, NULL);
    cz_g1_affine o1;
    cz_g2_affine o2;
    if (g1 && i2) {
        TF_CHECK(cz_cuda_g2_fixed_mul(&o2, g1, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_cuda_g1_fixed_mul(&o1, i2, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_cuda_g1_fixed_mul(NULL, g1, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_cuda_g1_fixed_mul(&o1, g1, NULL, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_cuda_g1_fixed_mul(&o1, NULL, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        setenv("CZ_CUDA_FIXED_CHUNK", "0", 1);
        TF_CHECK(cz_cuda_g1_fixed_mul(&o1, g1, &CZ_FR_ONE, 1, 0, NULL) == CZ_ERR_INVALID_ARG);
        unsetenv("CZ_CUDA_FIXED_CHUNK");
        /* still usable after the errors */
        check_batch(0, g1, &CZ_G1_GENERATOR, 10, 0, NULL, "after errors");
    }
    cz_cuda_fixed_free(g1);
    cz_cuda_fixed_free(i1);
    cz_cuda_fixed_free(i2);
    printf("test_cuda_fixed: window from the environment, base at infinity, errors: done\n");
}

TF_MAIN(TF_TEST(test_unavailable), TF_TEST(test_chunks), TF_TEST(test_windows),
        TF_TEST(test_contract))
