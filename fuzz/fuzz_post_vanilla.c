/* libFuzzer harness for the PoSt vanilla sector proof reader and writer
 * (cz_post_vanilla_read / _write, include/cuzk/filecoin/post.h): the input is read
 * as a 2KiB Window blob, a 2KiB Winning blob (66 inclusion proofs) and a
 * 32GiB Window blob (Sub proofs).  Invariants, abort() when one fails:
 *   - a rejection returns TRUNCATED, BAD_LENGTH, BAD_FORMAT or
 *     NOT_CANONICAL with a message "post vanilla proof: FIELD: what (at
 *     byte N)", and leaves the blob zeroed;
 *   - an accepted input has the shape's size and is written again byte for
 *     byte (the encoding is canonical: one blob per proof);
 *   - no crash, no leak, no read past the input (ASan, UBSan).
 * Seed corpus: fuzz/corpus/post_vanilla, written by `build/<dir>/
 * test_post_vanilla --write-seeds fuzz/corpus/post_vanilla` (synthetic
 * blobs of the three shapes from seed 1).  Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        cz_post_kind kind;
        cz_fc_shape_id size;
    } shapes[3] = {
        {CZ_POST_WINDOW, CZ_FC_2KIB}, {CZ_POST_WINNING, CZ_FC_2KIB}, {CZ_POST_WINDOW, CZ_FC_32GIB}};
    for (int i = 0; i < 3; i++) {
        cz_post_shape s;
        CHECK(cz_post_shape_of(&s, shapes[i].kind, cz_fc_shape_get(shapes[i].size)) == CZ_OK);
        cz_post_vanilla v;
        char err[256] = "";
        int rc = cz_post_vanilla_read(&v, &s, data, size, NULL, err, sizeof err);
        if (rc != CZ_OK) {
            static const cz_post_vanilla zero;
            CHECK(rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_BAD_LENGTH || rc == CZ_ERR_BAD_FORMAT ||
                  rc == CZ_ERR_NOT_CANONICAL);
            CHECK(!memcmp(&v, &zero, sizeof v));
            CHECK(!strncmp(err, "post vanilla proof: ", 20) && strstr(err, " (at byte "));
            continue;
        }
        CHECK(size == cz_post_vanilla_bytes(&s));
        uint8_t *out = malloc(size);
        CHECK(out != NULL && cz_post_vanilla_write(out, size, &v, &s) == CZ_OK);
        CHECK(!memcmp(out, data, size));
        free(out);
        cz_post_vanilla_free(&v);
    }
    return 0;
}
