/* libFuzzer harness for the C1 reader and writer (cz_fc_c1_read /
 * cz_fc_c1_write, include/cuzk/filecoin/porep.h): the input is a C1 JSON or
 * Curio's wrapper of one.  Invariants, abort() when one fails:
 *   - a rejection returns a known code (BAD_FORMAT, NOT_CANONICAL,
 *     UNSUPPORTED, NOMEM) with a message "PATH: what (byte N)" whose PATH
 *     is not empty ("top level", a JSON path, "Phase1Out: " and a path
 *     inside a wrapper), or "Phase1Out: invalid base64: ..." or
 *     "SectorSize: ...", and leaves the C1 zeroed;
 *   - an accepted input is written (compact serde form), that text is read
 *     again and written again: the two texts are the same bytes, and the
 *     second read keeps the proof type and counts;
 *   - no crash, no leak, no read past the input (ASan, UBSan).
 * Seed corpus: fuzz/corpus/c1, written by `build/<dir>/test_fc_c1
 * --write-seeds fuzz/corpus/c1` (tests/test_fc_c1.c's write_seeds: random
 * 2KiB C1s of API 1.0, 1.1 and the synthetic feature from generator seed
 * 1, one of them in Curio's wrapper, a wrapper of an empty object, and two
 * inputs the fuzzer found: an empty key and a path too long for the
 * message).
 * Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "fuzz.h"

static bool zeroed(const cz_fc_c1 *c1)
{
    static const cz_fc_c1 zero;
    return memcmp(c1, &zero, sizeof zero) == 0;
}

static void check_rejection(int rc, const char *err, const cz_fc_c1 *c1)
{
    CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_UNSUPPORTED ||
          rc == CZ_ERR_NOMEM);
    CHECK(zeroed(c1));
    /* "PATH: what (byte N)", PATH "Phase1Out" itself for the wrapper's
     * string; "Phase1Out: invalid base64: ..."; "SectorSize: ..." */
    const char *colon = strstr(err, ": ");
    CHECK(colon != NULL && colon > err && strlen(colon + 2) > 0);
    CHECK(strstr(err, " (byte ") || strncmp(err, "Phase1Out: invalid base64: ", 27) == 0 ||
          strncmp(err, "SectorSize: ", 12) == 0 || rc == CZ_ERR_NOMEM);
    if (strncmp(err, "Phase1Out: ", 11) == 0 && strstr(err + 11, ": "))
        CHECK(strstr(err + 11, ": ") > err + 11); /* and a path inside */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    cz_fc_c1 c1, again;
    int rc = cz_fc_c1_read(&c1, data, size, NULL, err, sizeof err);
    if (rc != CZ_OK) {
        check_rejection(rc, err, &c1);
        return 0;
    }
    char *j1, *j2;
    size_t n1, n2;
    CHECK(cz_fc_c1_write(&c1, &j1, &n1) == CZ_OK);
    rc = cz_fc_c1_read(&again, (const uint8_t *)j1, n1, NULL, err, sizeof err);
    CHECK(rc == CZ_OK);
    CHECK(again.proof_type == c1.proof_type && again.partitions == c1.partitions &&
          again.challenges == c1.challenges && !again.wrapped);
    CHECK(cz_fc_c1_write(&again, &j2, &n2) == CZ_OK);
    CHECK(n1 == n2 && memcmp(j1, j2, n1) == 0);
    free(j1);
    free(j2);
    cz_fc_c1_free(&again);
    cz_fc_c1_free(&c1);
    return 0;
}
