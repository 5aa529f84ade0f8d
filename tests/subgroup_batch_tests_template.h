/* The batched subgroup check against the single-point one, written once
 * for G1 and G2 and included by test_subgroup_batch.c and
 * test_subgroup_batch_g2.c (no include guard), on fresh random inputs (seed
 * printed):
 *   - sets of subgroup points of many sizes (the block boundaries, one,
 *     none), with infinity, repeated and opposite points (the batch's
 *     doubling and vanishing pairs), on one thread and on a pool;
 *   - the same sets with one point moved out of the subgroup by a torsion
 *     point of each prime order dividing the cofactor (made as [r h / q^e] R
 *     from a random curve point R, then multiplied by q until the next
 *     multiple is 0, and checked to have order q), the torsion point alone,
 *     and two points whose torsion parts cancel in a plain sum (T and -T,
 *     the case that defeats combinations with equal coefficients): every
 *     one refused;
 *   - random mixtures: the batch's answer is the conjunction of the single
 *     checks.
 * A wrong answer has probability below 2^-128 per call, so a failure here
 * is a bug.  The timing line compares the batch with n single checks.
 *
 * The includer includes <stdio.h>, <stdlib.h>, <string.h>, cuzk/ec.h,
 * cuzk/ff.h, cuzk/pool.h, tf.h and util/clock.h, and defines:
 *   F, F_(op)         the coordinate field: F_(mul) is cz_fp_mul, ...
 *   G_(name)          the group's names: G_(add) is cz_g1_add
 *   AFF, JAC          the affine and Jacobian point types
 *   GS_TO_AFFINE      the batch conversion (cz_g1s_to_affine)
 *   GEN, GNAME        the generator (affine) and the group's name ("G1")
 *   BATCH             the batched check (cz_g1_batch_in_subgroup)
 *   TORSION[NTORSION] {hex of q, hex of r h / q^e} for each prime q^e || h
 * and gets the tests test_good, test_torsion, test_agrees, test_speed and
 * the test binary's main. */

/* p times the big-endian integer of hex digits (double and add). */
static void mul_hex(JAC *out, const JAC *p, const char *hex)
{
    JAC acc;
    G_(set_inf)(&acc);
    for (const char *c = hex; *c; c++) {
        unsigned v = (unsigned)(*c <= '9' ? *c - '0' : *c - 'a' + 10);
        for (int b = 3; b >= 0; b--) {
            G_(dbl)(&acc, &acc);
            if (v >> b & 1)
                G_(add)(&acc, &acc, p);
        }
    }
    *out = acc;
}

/* A random point of the curve (almost surely outside the subgroup). */
static void random_curve_point(JAC *out)
{
    F x, rhs, y, b;
    /* b = y^2 - x^3 at the generator */
    F_(sqr)(&b, &GEN.y);
    F_(sqr)(&x, &GEN.x);
    F_(mul)(&x, &x, &GEN.x);
    F_(sub)(&b, &b, &x);
    do {
        F_(random)(&x, &tf_rng);
        F_(sqr)(&rhs, &x);
        F_(mul)(&rhs, &rhs, &x);
        F_(add)(&rhs, &rhs, &b);
    } while (!F_(sqrt)(&y, &rhs));
    AFF a = {x, y};
    G_(from_affine)(out, &a);
}

/* A point of order exactly q (TORSION[k]). */
static void torsion_point(AFF *out, size_t k)
{
    JAC r, t, z;
    for (;;) {
        random_curve_point(&r);
        mul_hex(&t, &r, TORSION[k].m);
        if (!G_(is_inf)(&t))
            break;
    }
    /* in the q-part: multiply by q until the next multiple is 0 (order q) */
    for (mul_hex(&z, &t, TORSION[k].q); !G_(is_inf)(&z); mul_hex(&z, &t, TORSION[k].q))
        t = z;
    TF_CHECK_MSG(!G_(is_inf)(&t), "no torsion point of order 0x%s", TORSION[k].q);
    G_(to_affine)(out, &t);
    TF_CHECK(G_(affine_is_on_curve)(out) && !G_(affine_in_subgroup)(out));
}

/* n subgroup points: random multiples of the generator, with infinity,
 * repeats and negations sprinkled in when n allows. */
static AFF *good_points(size_t n)
{
    AFF *a = malloc((n ? n : 1) * sizeof *a);
    JAC *j = malloc((n ? n : 1) * sizeof *j);
    TF_CHECK(a && j);
    JAC g;
    G_(from_affine)(&g, &GEN);
    for (size_t i = 0; i < n; i++) {
        cz_fr k;
        cz_fr_random(&k, &tf_rng);
        G_(mul_var)(&j[i], &g, &k);
    }
    GS_TO_AFFINE(a, j, n);
    free(j);
    if (n >= 8) {
        memset(&a[3], 0, sizeof a[3]); /* infinity */
        a[5] = a[4];                   /* a repeat: a doubling pair, most rounds */
        G_(affine_neg)(&a[7], &a[6]); /* an opposite: a vanishing pair */
    }
    return a;
}

static bool batch(const AFF *p, size_t n, cz_pool *pool)
{
    bool ok = false;
    TF_CHECK(BATCH(p, n, pool, &ok) == CZ_OK);
    return ok;
}

/* P + T as an affine point. */
static AFF plus(const AFF *p, const AFF *t)
{
    JAC a;
    AFF r;
    G_(from_affine)(&a, p);
    G_(add_affine)(&a, &a, t);
    G_(to_affine)(&r, &a);
    return r;
}

static void test_good(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    static const size_t sizes[] = {0, 1, 2, 8, 255, 256, 257, 511, 512, 513, 1000, 3001};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        AFF *a = good_points(sizes[s]);
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
    for (size_t k = 0; k < NTORSION; k++) {
        AFF t, mt;
        torsion_point(&t, k);
        G_(affine_neg)(&mt, &t);
        AFF *a = good_points(n);
        size_t at = cz_prng_next(&tf_rng) % n, at2 = (at + 1 + cz_prng_next(&tf_rng) % (n - 1)) % n;
        AFF keep = a[at], keep2 = a[at2];
        /* one point off by T */
        a[at] = plus(&keep, &t);
        TF_CHECK_MSG(!batch(a, n, NULL) && !batch(a, n, pool),
                     "a point off by a torsion point of order 0x%s passes", TORSION[k].q);
        /* the torsion point itself */
        a[at] = t;
        TF_CHECK_MSG(!batch(a, n, pool), "a torsion point of order 0x%s passes", TORSION[k].q);
        /* two that cancel in a plain sum */
        a[at] = plus(&keep, &t);
        a[at2] = plus(&keep2, &mt);
        TF_CHECK_MSG(!batch(a, n, NULL), "T and -T (order 0x%s) pass together", TORSION[k].q);
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
    AFF t[NTORSION];
    for (size_t k = 0; k < NTORSION; k++)
        torsion_point(&t[k], k);
    for (unsigned it = 0; it < 20 * tf_scale; it++) {
        size_t n = 1 + cz_prng_next(&tf_rng) % 600;
        AFF *a = good_points(n);
        unsigned bad = cz_prng_next(&tf_rng) % 3 == 0 ? 0 : 1 + cz_prng_next(&tf_rng) % 3;
        for (unsigned b = 0; b < bad; b++) {
            size_t at = cz_prng_next(&tf_rng) % n;
            a[at] = plus(&a[at], &t[cz_prng_next(&tf_rng) % NTORSION]);
        }
        bool all = true;
        for (size_t i = 0; i < n; i++)
            all &= G_(affine_in_subgroup)(&a[i]);
        TF_CHECK_MSG(batch(a, n, NULL) == all, "n %zu, %u moved: batch %d, single checks %d", n,
                     bad, !all, all);
        free(a);
    }
}

static void test_speed(void)
{
    const size_t n = TF_SANITIZED ? 1024 : 16384;
    AFF *a = good_points(n);
    double t0 = cz_clock_s(CLOCK_MONOTONIC);
    TF_CHECK(batch(a, n, NULL));
    double t1 = cz_clock_s(CLOCK_MONOTONIC);
    bool all = true;
    for (size_t i = 0; i < n; i++)
        all &= G_(affine_in_subgroup)(&a[i]);
    double t2 = cz_clock_s(CLOCK_MONOTONIC);
    TF_CHECK(all);
    printf("test_subgroup_batch: %zu " GNAME " points, one thread: batch %.1f ms (%.2f us/point), "
           "single checks %.1f ms (%.2f us/point): %.1fx\n",
           n, 1e3 * (t1 - t0), 1e6 * (t1 - t0) / (double)n, 1e3 * (t2 - t1),
           1e6 * (t2 - t1) / (double)n, (t2 - t1) / (t1 - t0));
    free(a);
}

TF_MAIN(TF_TEST(test_good), TF_TEST(test_torsion), TF_TEST(test_agrees), TF_TEST(test_speed))
