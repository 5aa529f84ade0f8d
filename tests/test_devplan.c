/* Device memory plans (src/cuda/devplan.h), with a model of the CUDA
 * layer's MSM scratch: on random shapes and budgets a plan never exceeds
 * its budget and its figures are its choices' measure; every budget from
 * the smallest plan's bytes up gets a plan and every one below is refused
 * naming both numbers; a larger budget never gets a slower plan; a plan
 * made again for a fixed residency keeps it and fits the room left; and on
 * the 32GiB PoRep partition's shape everything stays resident on an H200,
 * while on an H100 the bases streamed are those whose copies the MSMs hide
 * (the model within 5 % of the resident plan's time on that card). */
#include <stdio.h>
#include <string.h>

#include "cuda/devplan.h"
#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "tf.h"

/* A model of msm.cu's scratch: the items and sort buffers of the points
 * sorted at a time, the buckets once, density's compacted scalars. */
static unsigned window_of(size_t n, bool h, bool dense)
{
    unsigned lg = 0;
    while (lg < 63 && ((size_t)1 << (lg + 1)) <= n)
        lg++;
    unsigned c = lg > 16 ? lg - 8 : 8;
    c = c > 18 ? 18 : c;
    return (h || dense) && n >= ((size_t)1 << 26) ? 20 : c;
}

static uint64_t model_msm(size_t n, bool g2, bool density, size_t n_scalars, unsigned c,
                          size_t sort)
{
    if (n == 0)
        return 0;
    unsigned W = (256 + c - 1) / c;
    uint64_t X = g2 ? 384 : 192, ns = n < sort ? n : sort;
    uint64_t buckets = (uint64_t)W << (c - 1);
    uint64_t b = buckets * (X + 8) + (uint64_t)W * ns * 4 + 49 * ns + ((uint64_t)1 << 20);
    if (density)
        b += ns * 32 + (n_scalars / 64 + 1) * 8;
    return b;
}

static const cz_devplan_costs COSTS = {model_msm, window_of};

static cz_devplan_shape random_shape(void)
{
    cz_devplan_shape s;
    memset(&s, 0, sizeof s);
    unsigned k = 10 + (unsigned)(cz_prng_next(&tf_rng) % 18);
    s.m = (size_t)1 << k;
    s.n_in = 1 + (size_t)(cz_prng_next(&tf_rng) % 400);
    s.n_aux = s.m / 2 + (size_t)(cz_prng_next(&tf_rng) % (s.m / 2));
    s.n_bases[CZ_Q_H] = s.m - 1;
    s.n_bases[CZ_Q_L] = s.n_aux;
    s.n_bases[CZ_Q_A] = s.n_in + s.n_aux / (1 + cz_prng_next(&tf_rng) % 4);
    s.n_b_in = 1 + (size_t)(cz_prng_next(&tf_rng) % s.n_in);
    s.n_bases[CZ_Q_B_G1] = s.n_bases[CZ_Q_B_G2] = s.n_b_in + s.n_aux / (1 + cz_prng_next(&tf_rng) % 8);
    s.r1cs = cz_prng_next(&tf_rng) % 4 != 0;
    s.r1cs_bytes = s.r1cs ? (uint64_t)s.m * (20 + cz_prng_next(&tf_rng) % 40) : 0;
    s.r1cs_stream_bytes = s.r1cs ? s.r1cs_bytes / 8 + 4096 : 0;
    s.tables_bytes = (uint64_t)s.m / 8;
    s.twiddles_bytes = (uint64_t)s.m * 16;
    s.spill = s.r1cs && cz_prng_next(&tf_rng) % 4 != 0;
    s.dense = cz_prng_next(&tf_rng) % 2;
    return s;
}

static cz_devplan_device random_device(void)
{
    cz_devplan_device d = {0.3 + (double)(cz_prng_next(&tf_rng) % 100) / 50.0,
                           10.0 + (double)(cz_prng_next(&tf_rng) % 50)};
    return d;
}

static void check_fits(const cz_devplan *p, const cz_devplan_shape *s, const cz_devplan_device *d,
                       uint64_t budget)
{
    TF_CHECK_MSG(p->kept_bytes + p->proof_bytes <= budget, "kept %llu + proof %llu > %llu",
                 (unsigned long long)p->kept_bytes, (unsigned long long)p->proof_bytes,
                 (unsigned long long)budget);
    cz_devplan again = *p;
    cz_devplan_measure(&again, s, &COSTS, d);
    TF_CHECK(again.kept_bytes == p->kept_bytes && again.proof_bytes == p->proof_bytes &&
             again.model_ms == p->model_ms && again.link_bytes == p->link_bytes);
    TF_CHECK(p->proof_bytes == (p->h_phase > p->msm_phase ? p->h_phase : p->msm_phase));
    TF_CHECK(p->h_vectors == 3 || (p->h_vectors == 2 && s->r1cs) ||
             (p->h_vectors == 1 && s->r1cs && s->spill));
    TF_CHECK(p->kept_bytes >= s->tables_bytes + (p->twiddles_full ? s->twiddles_bytes : 0));
    bool streamed = false;
    uint64_t link = s->r1cs && !p->r1cs_resident ? s->r1cs_bytes : 0;
    link += p->h_vectors == 1 ? 4 * (uint64_t)s->m * 32 : 0; /* parked both ways */
    for (int q = 0; q < CZ_Q_COUNT; q++) {
        streamed |= !p->resident[q];
        link += p->resident[q] ? 0 : cz_devplan_query_bytes(s, q);
    }
    TF_CHECK(link == p->link_bytes && (p->buf_bytes > 0) == streamed);
    TF_CHECK(!p->r1cs_resident || s->r1cs);
}

static void rc_ok(int rc, const char *err) { TF_CHECK_MSG(rc == CZ_OK, "%s", err); }

static void test_budgets(void)
{
    for (int it = 0; it < 60; it++) {
        cz_devplan_shape s = random_shape();
        cz_devplan_device d = random_device();
        uint64_t least = cz_devplan_min_bytes(&s, &COSTS);
        cz_devplan p;
        char err[256];
        /* just below the smallest plan: refused, naming both numbers */
        int rc = cz_devplan_make(&p, &s, &COSTS, &d, least - 1, NULL, err, sizeof err);
        char want[64];
        snprintf(want, sizeof want, "(%llu bytes)", (unsigned long long)least);
        TF_CHECK_MSG(rc == CZ_ERR_TOO_BIG && strstr(err, want) && strstr(err, "room"), "%d %s",
                     rc, err);
        /* from the smallest up, sorted: a plan each, never slower */
        uint64_t most = least * 4;
        double last = 1e300;
        for (int b = 0; b < 12; b++) {
            uint64_t budget = least + (most - least) / 11 * (uint64_t)b;
            rc = cz_devplan_make(&p, &s, &COSTS, &d, budget, NULL, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK, "budget %llu (least %llu): %s", (unsigned long long)budget,
                         (unsigned long long)least, err);
            if (rc != CZ_OK)
                continue;
            check_fits(&p, &s, &d, budget);
            TF_CHECK_MSG(p.model_ms <= last * (1 + 1e-9), "budget %llu: %.3f ms after %.3f",
                         (unsigned long long)budget, p.model_ms, last);
            last = p.model_ms;
        }
    }
}

/* A plan made again for its residency in less room keeps the residency,
 * and fits, or is refused. */
static void test_fixed(void)
{
    for (int it = 0; it < 40; it++) {
        cz_devplan_shape s = random_shape();
        cz_devplan_device d = random_device();
        uint64_t least = cz_devplan_min_bytes(&s, &COSTS);
        cz_devplan big, p;
        char err[256];
        uint64_t budget = least * (2 + cz_prng_next(&tf_rng) % 6);
        TF_CHECK(cz_devplan_make(&big, &s, &COSTS, &d, budget, NULL, err, sizeof err) == CZ_OK);
        uint64_t less = big.kept_bytes + big.proof_bytes / (1 + cz_prng_next(&tf_rng) % 4);
        int rc = cz_devplan_make(&p, &s, &COSTS, &d, less, &big, err, sizeof err);
        if (rc == CZ_OK) {
            check_fits(&p, &s, &d, less);
            TF_CHECK(memcmp(p.resident, big.resident, sizeof p.resident) == 0 &&
                     p.r1cs_resident == big.r1cs_resident && p.twiddles_full == big.twiddles_full);
            TF_CHECK(p.kept_bytes == big.kept_bytes);
        } else {
            TF_CHECK_MSG(rc == CZ_ERR_TOO_BIG && strstr(err, "with this residency"), "%s", err);
        }
    }
}

/* Host memory to park H's values in never makes the smallest plan larger
 * and is used only by plans with one vector; without it no plan has one. */
static void test_spill(void)
{
    for (int it = 0; it < 40; it++) {
        cz_devplan_shape s = random_shape();
        s.r1cs = true;
        s.r1cs_bytes = (uint64_t)s.m * 30;
        s.r1cs_stream_bytes = s.r1cs_bytes / 8 + 4096;
        cz_devplan_device d = random_device();
        s.spill = false;
        uint64_t without = cz_devplan_min_bytes(&s, &COSTS);
        s.spill = true;
        uint64_t with = cz_devplan_min_bytes(&s, &COSTS);
        TF_CHECK_MSG(with <= without, "m 2^%d: %llu with a spill, %llu without",
                     __builtin_ctzll(s.m), (unsigned long long)with, (unsigned long long)without);
        cz_devplan p;
        char err[256];
        TF_CHECK(cz_devplan_make(&p, &s, &COSTS, &d, with, NULL, err, sizeof err) == CZ_OK);
        check_fits(&p, &s, &d, with);
        if (with < without)
            TF_CHECK_MSG(p.h_vectors == 1, "%u vectors at the smallest", p.h_vectors);
        /* a cap on H's vectors (the tests' CZ_CUDA_H_VECTORS) holds at every
         * budget a plan is made for */
        s.h_most = 1 + (unsigned)(cz_prng_next(&tf_rng) % 3);
        uint64_t least = cz_devplan_min_bytes(&s, &COSTS);
        TF_CHECK(cz_devplan_make(&p, &s, &COSTS, &d, least * 2, NULL, err, sizeof err) == CZ_OK);
        TF_CHECK_MSG(p.h_vectors <= s.h_most, "%u vectors, at most %u", p.h_vectors, s.h_most);
        check_fits(&p, &s, &d, least * 2);
    }
}

/* The 32GiB PoRep partition (2^27, issue 43's figures): 130,278,541
 * assignment values, 6.47 GiB of matrices, 2 GiB of full twiddles; on an
 * H200 every array stays; on an H100 with its 78 GiB some stream at
 * almost no modelled cost; 16 GiB gets a plan, and so does 10 GiB (one H
 * vector, compact twiddles, the windows capped) with room to spare. */
static void test_porep(void)
{
    cz_devplan_shape s;
    memset(&s, 0, sizeof s);
    s.m = (size_t)1 << 27;
    s.n_in = 328;
    s.n_aux = 130278541 - 328;
    s.n_bases[CZ_Q_H] = s.m - 1;
    s.n_bases[CZ_Q_L] = s.n_aux;
    s.n_bases[CZ_Q_A] = 12500000000ull / 96;
    s.n_b_in = 300;
    s.n_bases[CZ_Q_B_G1] = s.n_bases[CZ_Q_B_G2] = 3200000000ull / 96;
    s.r1cs = true;
    s.r1cs_bytes = (uint64_t)(6.47 * (1ull << 30));
    s.r1cs_stream_bytes = (uint64_t)1 << 29;
    s.tables_bytes = (uint64_t)1 << 20;
    s.twiddles_bytes = (uint64_t)2 << 30;
    s.spill = true;
    cz_devplan_device h200 = {1.0, 50.0}, h100 = {0.92, 50.0};
    cz_devplan p;
    char err[256], d[400];
    TF_CHECK(cz_devplan_make(&p, &s, &COSTS, &h200, (uint64_t)138 << 30, NULL, err, sizeof err) ==
             CZ_OK);
    cz_devplan_describe(&p, d, sizeof d);
    printf("  H200, 138 GiB: %s\n", d);
    for (int q = 0; q < CZ_Q_COUNT; q++)
        TF_CHECK_MSG(p.resident[q], "H200: query %d streamed", q);
    TF_CHECK(p.r1cs_resident && p.window_cap == 0); /* the cap only where memory is short */
    cz_devplan all;
    TF_CHECK(cz_devplan_make(&all, &s, &COSTS, &h100, (uint64_t)1 << 40, NULL, err, sizeof err) ==
             CZ_OK);
    TF_CHECK(cz_devplan_make(&p, &s, &COSTS, &h100, (uint64_t)(77.7 * (1ull << 30)), NULL, err,
                             sizeof err) == CZ_OK);
    cz_devplan_describe(&p, d, sizeof d);
    printf("  H100, 77.7 GiB: %s\n", d);
    TF_CHECK_MSG(p.link_bytes > 0 && p.model_ms <= 1.05 * all.model_ms, "H100: %s (resident %.0f ms)",
                 d, all.model_ms);
    TF_CHECK(cz_devplan_make(&p, &s, &COSTS, &h100, (uint64_t)16 << 30, NULL, err, sizeof err) ==
             CZ_OK);
    cz_devplan_describe(&p, d, sizeof d);
    printf("  H100, 16 GiB: %s\n", d);
    for (int gb = 12; gb >= 10; gb -= 2) {
        rc_ok(cz_devplan_make(&p, &s, &COSTS, &h100, (uint64_t)gb << 30, NULL, err, sizeof err),
              err);
        cz_devplan_describe(&p, d, sizeof d);
        printf("  H100, %d GiB: %s\n", gb, d);
    }
    TF_CHECK(p.h_vectors == 1 && !p.twiddles_full);
    uint64_t least = cz_devplan_min_bytes(&s, &COSTS);
    /* the 10 GiB holds the smallest plan with a GiB to spare for
     * the shapes' differences (the synthetic partition's is larger) */
    TF_CHECK_MSG(least <= (uint64_t)9 << 30, "smallest plan %llu bytes",
                 (unsigned long long)least);
    s.spill = false;
    printf("  smallest plan: %.2f GiB (%.2f GiB without host memory to park H's values in)\n",
           (double)least / (double)(1ull << 30),
           (double)cz_devplan_min_bytes(&s, &COSTS) / (double)(1ull << 30));
}

TF_MAIN(TF_TEST(test_budgets), TF_TEST(test_fixed), TF_TEST(test_spill), TF_TEST(test_porep))
