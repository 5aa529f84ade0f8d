/* libFuzzer harness for the commitment reader (cz_fc_commitment_read,
 * include/cuzk/filecoin/core.h: 32 raw bytes or go-fil-commcid's binary CID),
 * as both kinds.  Invariants, abort() when one fails:
 *   - accepted: 32 bytes equal to the input's last 32, a field element,
 *     the input 32 bytes or a CIDv1 of the kind's codec (its first byte
 *     1); the raw form of the value is accepted too;
 *   - rejected: BAD_LENGTH, BAD_FORMAT or NOT_CANONICAL with a message,
 *     and *out zeroed;
 *   - no crash, no read past the input (ASan, UBSan).
 * Seed corpus: fuzz/corpus/commitment (a raw value, a CommR and a CommD
 * CID).  Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int k = 0; k < 2; k++) {
        cz_fc_comm_kind kind = k ? CZ_FC_COMM_D : CZ_FC_COMM_R;
        cz_fc_d out;
        char err[256] = "";
        int rc = cz_fc_commitment_read(&out, kind, data, size, err, sizeof err);
        if (rc != CZ_OK) {
            static const cz_fc_d zero;
            CHECK(rc == CZ_ERR_BAD_LENGTH || rc == CZ_ERR_BAD_FORMAT ||
                  rc == CZ_ERR_NOT_CANONICAL);
            CHECK(err[0] != 0 && !memcmp(&out, &zero, sizeof out));
            continue;
        }
        CHECK(size >= 32 && !memcmp(out.b, data + size - 32, 32));
        CHECK(size == 32 || data[0] == 0x01);
        cz_fr v;
        CHECK(cz_fc_d_to_fr(&v, &out) == CZ_OK);
        cz_fc_d again;
        CHECK(cz_fc_commitment_read(&again, kind, out.b, 32, err, sizeof err) == CZ_OK);
        CHECK(!memcmp(&again, &out, sizeof out));
    }
    return 0;
}
