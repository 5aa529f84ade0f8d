/* The chunk plan of streamed MSMs (src/cuda/stream_plan.h): on random
 * bitmaps and sizes, chunks are in order, cover every base once, hold 1 to
 * `chunk` bases, start their scalar range at a multiple of 64 and hold
 * exactly the set bits of that range; bad counts and a short output array
 * are refused. */
#include <stdlib.h>
#include <string.h>

#include "cuda/stream_plan.h"
#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "tf.h"

static size_t popcount_range(const uint64_t *d, size_t s0, size_t s1)
{
    size_t c = 0;
    for (size_t i = s0; i < s1; i++)
        c += (d[i / 64] >> (i % 64)) & 1;
    return c;
}

static void check_plan(const uint64_t *dens, size_t n, size_t nb, size_t chunk)
{
    size_t max = nb / chunk + n / 64 + 2, count = 0;
    cz_stream_chunk *c = malloc(max * sizeof *c);
    TF_CHECK(c != NULL);
    TF_CHECK(cz_stream_plan(c, max, &count, dens, n, nb, chunk) == CZ_OK);
    size_t b = 0, s = 0;
    for (size_t k = 0; k < count; k++) {
        TF_CHECK_MSG(c[k].b0 == b && c[k].b1 > c[k].b0 && c[k].b1 - c[k].b0 <= chunk,
                     "n %zu chunk %zu: chunk %zu bases [%zu, %zu)", n, chunk, k, c[k].b0, c[k].b1);
        TF_CHECK(c[k].s0 >= s && c[k].s1 > c[k].s0 && c[k].s1 <= n);
        if (dens) {
            TF_CHECK(c[k].s0 % 64 == 0);
            TF_CHECK(popcount_range(dens, c[k].s0, c[k].s1) == c[k].b1 - c[k].b0);
            /* nothing set between chunks */
            TF_CHECK(popcount_range(dens, s, c[k].s0) == 0);
        } else {
            TF_CHECK(c[k].s0 == c[k].b0 && c[k].s1 == c[k].b1);
        }
        b = c[k].b1;
        s = c[k].s1;
    }
    TF_CHECK_MSG(b == nb, "n %zu: chunks cover %zu of %zu bases", n, b, nb);
    if (dens)
        TF_CHECK(popcount_range(dens, s, n) == 0);
    if (count > 1) { /* one output slot short */
        size_t cnt2 = 7;
        TF_CHECK(cz_stream_plan(c, count - 1, &cnt2, dens, n, nb, chunk) == CZ_ERR_TOO_BIG);
        TF_CHECK(cnt2 == 0);
    }
    free(c);
}

static void test_random_plans(void)
{
    for (int it = 0; it < 400; it++) {
        size_t n = (size_t)(cz_prng_next(&tf_rng) % 5000);
        size_t chunk = 64 + (size_t)(cz_prng_next(&tf_rng) % 700);
        unsigned density = (unsigned)(cz_prng_next(&tf_rng) % 101); /* percent */
        uint64_t *d = calloc((n + 63) / 64 + 1, sizeof *d);
        TF_CHECK(d != NULL);
        size_t nb = 0;
        for (size_t i = 0; i < n; i++) {
            if (cz_prng_next(&tf_rng) % 100 < density) {
                d[i / 64] |= (uint64_t)1 << (i % 64);
                nb++;
            }
        }
        /* bits past n are ignored */
        if (n % 64)
            d[n / 64] |= ~(uint64_t)0 << (n % 64);
        check_plan(d, n, nb, chunk);
        check_plan(NULL, n, n, chunk);
        free(d);
    }
}

static void test_refusals(void)
{
    uint64_t d[2] = {0xff, 0};
    cz_stream_chunk c[4];
    size_t count = 9;
    TF_CHECK(cz_stream_plan(c, 4, &count, d, 128, 7, 64) == CZ_ERR_INVALID_ARG); /* 8 set */
    TF_CHECK(count == 0);
    TF_CHECK(cz_stream_plan(c, 4, &count, NULL, 100, 99, 64) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_stream_plan(c, 4, &count, d, 128, 8, 63) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_stream_plan(c, 4, NULL, d, 128, 8, 64) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_stream_plan(c, 4, &count, d, 128, 8, 64) == CZ_OK && count == 1);
    TF_CHECK(c[0].s0 == 0 && c[0].s1 == 128 && c[0].b0 == 0 && c[0].b1 == 8);
    TF_CHECK(cz_stream_plan(c, 4, &count, NULL, 0, 0, 64) == CZ_OK && count == 0);
    /* a full word never splits: 64 set bits per word, chunk 64 -> one word each */
    uint64_t full[3] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
    TF_CHECK(cz_stream_plan(c, 4, &count, full, 192, 192, 64) == CZ_OK && count == 3);
    TF_CHECK(c[1].s0 == 64 && c[1].s1 == 128 && c[1].b0 == 64 && c[1].b1 == 128);
}

TF_MAIN(TF_TEST(test_random_plans), TF_TEST(test_refusals))
