/* libFuzzer harness for the bellperson .params and .vk readers
 * (include/cuzk/groth16.h), from memory.
 *
 * Every input is read as a .params image (full checks, then vk only) and as
 * a .vk image.  Invariants, abort() when one fails:
 *   - a rejection returns a known code with a non-empty message and leaves
 *     the result zeroed;
 *   - an accepted image re-encodes through the writers to exactly the bytes
 *     it was read from (the whole input for .params and .vk, the vk prefix in
 *     vk-only mode), and its decoded size matches cz_groth16_params_decoded_size.
 * Seed corpus: fuzz/corpus/params (small files from the writers).  Run with
 * scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "fuzz.h"

static bool zeroed(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0)
            return false;
    return true;
}

static bool known_code(int rc)
{
    return rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_NOMEM ||
           rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_BAD_FLAGS || rc == CZ_ERR_BAD_INFINITY ||
           rc == CZ_ERR_NOT_ON_CURVE || rc == CZ_ERR_NOT_IN_SUBGROUP || rc == CZ_ERR_IS_INFINITY;
}

/* Runs a writer into memory and compares with want[0, n). */
static void check_encoding(int (*wr)(FILE *, const void *), const void *obj, const uint8_t *want,
                           size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK(wr(f, obj) == CZ_OK);
    CHECK(fclose(f) == 0);
    CHECK(len == n && memcmp(buf, want, n) == 0);
    free(buf);
}

static int wr_params(FILE *f, const void *p) { return cz_groth16_params_write(f, p); }

static int wr_vk(FILE *f, const void *vk) { return cz_groth16_vk_write(f, vk); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    static const unsigned modes[2] = {0, CZ_PARAMS_VK_ONLY};
    for (int m = 0; m < 2; m++) {
        cz_groth16_params p;
        err[0] = 0;
        int rc = cz_groth16_params_read_mem(&p, data, size, modes[m], NULL, err, sizeof err);
        if (rc != CZ_OK) {
            CHECK(known_code(rc) && err[0] != 0 && zeroed(&p, sizeof p));
            continue;
        }
        size_t dec = 0;
        CHECK(cz_groth16_params_decoded_size(&dec, data, size, modes[m], NULL, 0) == CZ_OK);
        CHECK(dec == p.mem_bytes);
        if (m == 0)
            check_encoding(wr_params, &p, data, size);
        else
            check_encoding(wr_vk, &p.vk, data, cz_groth16_vk_encoded_size(p.vk.n_ic));
        cz_groth16_params_free(&p);
    }
    cz_groth16_vk vk;
    err[0] = 0;
    int rc = cz_groth16_vk_read_mem(&vk, data, size, err, sizeof err);
    if (rc != CZ_OK) {
        CHECK(known_code(rc) && err[0] != 0 && zeroed(&vk, sizeof vk));
    } else {
        check_encoding(wr_vk, &vk, data, size);
        cz_groth16_vk_free(&vk);
    }
    return 0;
}
