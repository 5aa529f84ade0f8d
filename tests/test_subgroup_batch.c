/* The batched G1 subgroup check (cz_g1_batch_in_subgroup) against the
 * single-point one, on fresh random inputs (seed printed):
 *   - sets of subgroup points of many sizes (the block boundaries, one,
 *     none), with infinity, repeated and opposite points (the batch's
 *     doubling and vanishing pairs), on one thread and on a pool;
 *   - the same sets with one point moved out of the subgroup by a torsion
 *     point of each prime order dividing the cofactor (3, 11, 10177,
 *     859267, 52437899; made as [r h / q] R from a random curve point R and
 *     checked to have order q), the torsion point alone, and two points
 *     whose torsion parts cancel in a plain sum (T and -T, the case that
 *     defeats combinations with equal coefficients): every one refused;
 *   - random mixtures: the batch's answer is the conjunction of the single
 *     checks.
 * A wrong answer has probability below 2^-128 per call, so a failure here
 * is a bug.  The timing line compares the batch with n single checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/pool.h"
#include "tf.h"
#include "util/clock.h"

/* r h / q^e for the cofactor's prime powers q^e (3, then squares), in hex
 * (python3:
 *   r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 *   h=0x396c8c005555e1568c00aaab0000aaab  # 3 11^2 10177^2 859267^2 52437899^2
 *   print('%x' % (r*h//q**e)) ): [m] R lies in the q-part of the torsion. */
static const struct {
    unsigned q;
    const char *m;
} TORSION[] = {
    {3, "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaad955555555"
        "558e39"},
    {11, "3704612471307385e8f4b11c0f6f71e98ebcebf11641bde11e05f8de12635b461258dc05b269c8ff0a941963"
         "702343"},
    {10177, "4365bf803428bdeec60fd2e926108ec4349c3ed6101355fc141ebb62934a3754bcaa7f4893a24a99528dc"
            "a02b"},
    {859267, "26b97e14f9a9bfc6a1d68e51940e20533818e49972d05a4b963f8399f9c8df3382e9555b8e0c186760b1"
             "13"},
    {52437899, "2a97289d2f199a7fe442ea79eb7aa6cc575f3bb074193d880722109579598622c3f85f4e51b4a55844"
               "3"},
};

/* p times the big-endian integer of hex digits (double and add). */
static void mul_hex(cz_g1 *out, const cz_g1 *p, const char *hex)
{
    cz_g1 acc;
    cz_g1_set_inf(&acc);
    for (const char *c = hex; *c; c++) {
        unsigned v = (unsigned)(*c <= '9' ? *c - '0' : *c - 'a' + 10);
        for (int b = 3; b >= 0; b--) {
            cz_g1_dbl(&acc, &acc);
            if (v >> b & 1)
                cz_g1_add(&acc, &acc, p);
        }
    }
    *out = acc;
}

static void mul_u64(cz_g1 *out, const cz_g1 *p, uint64_t k)
{
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)k);
    mul_hex(out, p, hex);
}

/* A random point of E(Fp) (almost surely outside G1). */
static void random_curve_point(cz_g1 *out)
{
    cz_fp x, rhs, y, four;
    cz_fp_from_u64(&four, 4);
    do {
        cz_fp_random(&x, &tf_rng);
        cz_fp_sqr(&rhs, &x);
        cz_fp_mul(&rhs, &rhs, &x);
        cz_fp_add(&rhs, &rhs, &four);
    } while (!cz_fp_sqrt(&y, &rhs));
    cz_g1_affine a = {x, y};
    cz_g1_from_affine(out, &a);
}

/* A point of order exactly q (TORSION[k]). */
static void torsion_point(cz_g1_affine *out, size_t k)
{
    cz_g1 r, t, z;
    for (;;) {
        random_curve_point(&r);
        mul_hex(&t, &r, TORSION[k].m);
        if (!cz_g1_is_inf(&t))
            break;
    }
    /* in the q-part: multiply by q until the next multiple is 0 (order q) */
    for (mul_u64(&z, &t, TORSION[k].q); !cz_g1_is_inf(&z); mul_u64(&z, &t, TORSION[k].q))
        t = z;
    TF_CHECK_MSG(!cz_g1_is_inf(&t), "no torsion point of order %u", TORSION[k].q);
    cz_g1_to_affine(out, &t);
    TF_CHECK(cz_g1_affine_is_on_curve(out) && !cz_g1_affine_in_subgroup(out));
}

/* n subgroup points: random multiples of the generator, with infinity,
 * repeats and negations sprinkled in when n allows. */
static cz_g1_affine *good_points(size_t n)
{
    cz_g1_affine *a = malloc((n ? n : 1) * sizeof *a);
    cz_g1 *j = malloc((n ? n : 1) * sizeof *j);
    TF_CHECK(a && j);
    cz_g1 g;
    cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
    for (size_t i = 0; i < n; i++) {
        cz_fr k;
        cz_fr_random(&k, &tf_rng);
        cz_g1_mul_var(&j[i], &g, &k);
    }
    cz_g1s_to_affine(a, j, n);
    free(j);
    if (n >= 8) {
        memset(&a[3], 0, sizeof a[3]); /* infinity */
        a[5] = a[4];                   /* a repeat: a doubling pair, most rounds */
        cz_g1_affine_neg(&a[7], &a[6]); /* an opposite: a vanishing pair */
    }
    return a;
}

static bool batch(const cz_g1_affine *p, size_t n, cz_pool *pool)
{
    bool ok = false;
    TF_CHECK(cz_g1_batch_in_subgroup(p, n, pool, &ok) == CZ_OK);
    return ok;
}

/* P + T as an affine point. */
static cz_g1_affine plus(const cz_g1_affine *p, const cz_g1_affine *t)
{
    cz_g1 a;
    cz_g1_affine r;
    cz_g1_from_affine(&a, p);
    cz_g1_add_affine(&a, &a, t);
    cz_g1_to_affine(&r, &a);
    return r;
}

static void test_good(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    static const size_t sizes[] = {0, 1, 2, 8, 255, 256, 257, 1000, 3001};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        cz_g1_affine *a = good_points(sizes[s]);
        TF_CHECK_MSG(batch(a, sizes[s], NULL), "%zu subgroup points refused (one thread)",
                     sizes[s]);
        TF_CHECK_MSG(batch(a, sizes[s], pool), "%zu subgroup points refused (pool)", sizes[s]);
        free(a);
    }
    cz_pool_free(pool);
}

static void test_torsion(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    const size_t n = 1000;
    for (size_t k = 0; k < sizeof TORSION / sizeof TORSION[0]; k++) {
        cz_g1_affine t, mt;
        torsion_point(&t, k);
        cz_g1_affine_neg(&mt, &t);
        cz_g1_affine *a = good_points(n);
        size_t at = cz_prng_next(&tf_rng) % n, at2 = (at + 1 + cz_prng_next(&tf_rng) % (n - 1)) % n;
        cz_g1_affine keep = a[at], keep2 = a[at2];
        /* one point off by T */
        a[at] = plus(&keep, &t);
        TF_CHECK_MSG(!batch(a, n, NULL) && !batch(a, n, pool),
                     "a point off by a torsion point of order %u passes", TORSION[k].q);
        /* the torsion point itself */
        a[at] = t;
        TF_CHECK_MSG(!batch(a, n, pool), "a torsion point of order %u passes", TORSION[k].q);
        /* two that cancel in a plain sum */
        a[at] = plus(&keep, &t);
        a[at2] = plus(&keep2, &mt);
        TF_CHECK_MSG(!batch(a, n, NULL), "T and -T (order %u) pass together", TORSION[k].q);
        /* alone, first of all */
        TF_CHECK(!batch(&t, 1, NULL));
        a[at] = keep, a[at2] = keep2;
        TF_CHECK(batch(a, n, pool));
        free(a);
    }
    cz_pool_free(pool);
}

/* The batch is the conjunction of the single checks, on sets that are bad
 * at a random number of random places (often none). */
static void test_agrees(void)
{
    cz_g1_affine t[5];
    for (size_t k = 0; k < 5; k++)
        torsion_point(&t[k], k);
    for (unsigned it = 0; it < 20 * tf_scale; it++) {
        size_t n = 1 + cz_prng_next(&tf_rng) % 600;
        cz_g1_affine *a = good_points(n);
        unsigned bad = cz_prng_next(&tf_rng) % 3 == 0 ? 0 : 1 + cz_prng_next(&tf_rng) % 3;
        for (unsigned b = 0; b < bad; b++) {
            size_t at = cz_prng_next(&tf_rng) % n;
            a[at] = plus(&a[at], &t[cz_prng_next(&tf_rng) % 5]);
        }
        bool all = true;
        for (size_t i = 0; i < n; i++)
            all &= cz_g1_affine_in_subgroup(&a[i]);
        TF_CHECK_MSG(batch(a, n, NULL) == all, "n %zu, %u moved: batch %d, single checks %d", n,
                     bad, !all, all);
        free(a);
    }
}

static void test_speed(void)
{
    const size_t n = TF_SANITIZED ? 1024 : 16384;
    cz_g1_affine *a = good_points(n);
    double t0 = cz_clock_s(CLOCK_MONOTONIC);
    TF_CHECK(batch(a, n, NULL));
    double t1 = cz_clock_s(CLOCK_MONOTONIC);
    bool all = true;
    for (size_t i = 0; i < n; i++)
        all &= cz_g1_affine_in_subgroup(&a[i]);
    double t2 = cz_clock_s(CLOCK_MONOTONIC);
    TF_CHECK(all);
    printf("test_subgroup_batch: %zu G1 points, one thread: batch %.1f ms (%.2f us/point), "
           "single checks %.1f ms (%.2f us/point): %.1fx\n",
           n, 1e3 * (t1 - t0), 1e6 * (t1 - t0) / (double)n, 1e3 * (t2 - t1),
           1e6 * (t2 - t1) / (double)n, (t2 - t1) / (t1 - t0));
    free(a);
}

int main(int argc, char **argv)
{
    static const tf_test tests[] = {
        TF_TEST(test_good),
        TF_TEST(test_torsion),
        TF_TEST(test_agrees),
        TF_TEST(test_speed),
    };
    return tf_run(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
