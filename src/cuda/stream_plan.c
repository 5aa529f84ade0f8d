/* Chunks of a streamed MSM (stream_plan.h). */
#include "cuda/stream_plan.h"

#include "cuzk/err.h"

static int emit(cz_stream_chunk *out, size_t max_out, size_t *k, size_t s0, size_t s1, size_t b0,
                size_t b1)
{
    if (*k == max_out)
        return CZ_ERR_TOO_BIG;
    out[(*k)++] = (cz_stream_chunk){s0, s1, b0, b1};
    return CZ_OK;
}

int cz_stream_plan(cz_stream_chunk *out, size_t max_out, size_t *count, const uint64_t *density,
                   size_t n_scalars, size_t n_bases, size_t chunk)
{
    if (!count || (!out && max_out) || chunk < 64)
        return CZ_ERR_INVALID_ARG;
    *count = 0;
    size_t k = 0;
    int rc = CZ_OK;
    if (!density) {
        if (n_bases != n_scalars)
            return CZ_ERR_INVALID_ARG;
        for (size_t i = 0; i < n_bases && !rc; i += chunk) {
            size_t e = n_bases - i < chunk ? n_bases : i + chunk;
            rc = emit(out, max_out, &k, i, e, i, e);
        }
        *count = rc ? 0 : k;
        return rc;
    }
    /* whole words while they fit; a word holds at most 64 <= chunk bases */
    size_t words = (n_scalars + 63) / 64, s0 = 0, b0 = 0, b = 0;
    for (size_t w = 0; w < words && !rc; w++) {
        uint64_t v = density[w];
        if (w + 1 == words && n_scalars % 64)
            v &= ((uint64_t)1 << (n_scalars % 64)) - 1;
        size_t pc = (size_t)__builtin_popcountll(v);
        if (b - b0 + pc > chunk) {
            rc = emit(out, max_out, &k, s0, w * 64, b0, b);
            s0 = w * 64;
            b0 = b;
        }
        b += pc;
    }
    if (!rc && b != n_bases)
        rc = CZ_ERR_INVALID_ARG;
    if (!rc && b > b0)
        rc = emit(out, max_out, &k, s0, n_scalars, b0, b);
    *count = rc ? 0 : k;
    return rc;
}
