/* libFuzzer harness for the snarkjs .wtns reader (include/cuzk/circom.h).
 *
 * Every input is parsed as a .wtns image.  Invariants, abort() when one
 * fails:
 *   - a rejection returns a known file-format code with a non-empty message
 *     and leaves the result zeroed;
 *   - an accepted file with just the header and witness sections is exactly
 *     12 + 2 * 12 + 40 + 32 * n bytes (nothing skipped or left over), and
 *     every value re-encodes to the bytes it was read from (canonical,
 *     converted to Montgomery form and back without loss).
 * Seed corpus: fuzz/corpus/wtns (the fixtures of tests/data/circom).  Run with
 * scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "cuzk/err.h"
#include "fuzz.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_circom_wtns w;
    char err[256] = "";
    int rc = cz_circom_wtns_load_mem(&w, data, size, err, sizeof err);
    if (rc != CZ_OK) {
        CHECK(fuzz_circom_rejection(rc, err) && w.n == 0 && w.w == NULL);
        return 0;
    }
    /* With exactly the two sections, find the witness section's data and
     * compare every value with its re-encoding. */
    if (rd32(data + 8) == 2) {
        size_t pos = 12, vals = 0;
        CHECK(size == 12 + 2 * 12 + 40 + (size_t)32 * w.n);
        for (int s = 0; s < 2; s++) {
            if (rd32(data + pos) == 2)
                vals = pos + 12;
            pos += 12 + rd32(data + pos + 4);
        }
        CHECK(vals != 0);
        for (uint32_t i = 0; i < w.n; i++) {
            uint8_t enc[32];
            cz_fr_to_bytes_le(enc, &w.w[i]);
            CHECK(memcmp(enc, data + vals + 32 * (size_t)i, 32) == 0);
        }
    }
    cz_circom_wtns_free(&w);
    return 0;
}
