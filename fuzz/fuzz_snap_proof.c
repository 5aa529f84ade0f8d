/* libFuzzer harness for the EmptySectorUpdate partition proof reader and
 * writer (cz_fc_snap_proof_read / _write, include/cuzk/filecoin/snap.h): the
 * input is read as a 2KiB and as an 8MiB partition proof.  Invariants,
 * abort() when one fails:
 *   - a rejection returns TRUNCATED, BAD_LENGTH, BAD_FORMAT or
 *     NOT_CANONICAL with a message "update partition proof: FIELD: what
 *     (at byte N)", and leaves the proof zeroed;
 *   - an accepted input is written again byte for byte (the encoding is
 *     canonical: one blob per proof);
 *   - no crash, no leak, no read past the input (ASan, UBSan).
 * Seed corpus: fuzz/corpus/snap_proof, written by `build/<dir>/
 * test_fc_snap --write-seeds fuzz/corpus/snap_proof` (random 2KiB and
 * 8MiB proofs from generator seed 1).  Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t nodes[2] = {64, (uint64_t)1 << 18};
    for (int i = 0; i < 2; i++) {
        cz_fc_snap_shape s;
        CHECK(cz_fc_snap_shape_of(&s, nodes[i]) == CZ_OK);
        cz_fc_snap_partition_proof p;
        char err[256] = "";
        int rc = cz_fc_snap_proof_read(&p, &s, data, size, NULL, err, sizeof err);
        if (rc != CZ_OK) {
            static const cz_fc_snap_partition_proof zero;
            CHECK(rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_BAD_LENGTH || rc == CZ_ERR_BAD_FORMAT ||
                  rc == CZ_ERR_NOT_CANONICAL);
            CHECK(!memcmp(&p, &zero, sizeof p));
            CHECK(!strncmp(err, "update partition proof: ", 24) && strstr(err, " (at byte "));
            continue;
        }
        CHECK(size == cz_fc_snap_proof_bytes(&s));
        uint8_t *out = malloc(size);
        CHECK(out != NULL && cz_fc_snap_proof_write(out, size, &p, &s) == CZ_OK);
        CHECK(!memcmp(out, data, size));
        free(out);
        cz_fc_snap_proof_free(&p);
    }
    return 0;
}
