/* libFuzzer harness for the checked-keys store's reader
 * (cz_checked_keys_parse, include/cuzk/checked_keys.h).  Invariants,
 * abort() when one fails:
 *   - a rejection returns BAD_FORMAT (or TOO_BIG past 64 MiB) with a
 *     message "checked keys: ..., line N: ..." and no store;
 *   - an accepted input holds at most one key per line after the header,
 *     each of them found again by cz_checked_keys_has, and an add of a key
 *     it holds changes nothing;
 *   - no crash, no leak, no read past the input (ASan, UBSan).
 * Seed corpus: fuzz/corpus/checked_keys (a store of two keys, an empty
 * file, a header alone).  Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/checked_keys.h"
#include "cuzk/err.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_checked_keys *k = NULL;
    char err[256];
    int rc = cz_checked_keys_parse(&k, data, size, err, sizeof err);
    if (rc != CZ_OK) {
        CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_TOO_BIG);
        CHECK(k == NULL && strncmp(err, "checked keys: ", 14) == 0);
        return 0;
    }
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    size_t n = cz_checked_keys_count(k);
    CHECK(n == 0 || n + 1 <= lines); /* the header line, then one line a key */
    /* the first key line, when there is one, is found again */
    if (n > 0) {
        const uint8_t *line = memchr(data, '\n', size) + 1;
        cz_key_digest d = {{0}, 0};
        for (int i = 0; i < 64; i++) {
            unsigned v = 0;
            for (int j = 0; j < 2; j++) {
                uint8_t c = line[2 * i + j];
                v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
            }
            d.b2[i] = (uint8_t)v;
        }
        for (const uint8_t *p = line + 129; *p != '\n'; p++)
            d.len = d.len * 10 + (uint64_t)(*p - '0');
        CHECK(cz_checked_keys_has(k, &d));
        CHECK(cz_checked_keys_add(k, &d, err, sizeof err) == CZ_OK);
        CHECK(cz_checked_keys_count(k) == n);
    }
    cz_checked_keys_free(k);
    return 0;
}
