/* tf_check_blank_copied (blank_copy.h). */
#include <stdlib.h>
#include <string.h>

#include "blank_copy.h"
#include "cuzk/err.h"
#include "tf.h"

void tf_check_blank_copied(tf_blank_synth synth, const void *ctx, const char *what)
{
    cz_r1cs_fingerprint fp[3];
    cz_fr *w[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    for (int k = 0; k < 3; k++) {
        char err[256] = "";
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, k == 2 ? CZ_CS_COUNT : CZ_CS_RECORD,
                           k == 1 ? CZ_CS_NAMESPACES : 0) == CZ_OK);
        TF_CHECK_MSG(synth(cs, ctx, err, sizeof err) == CZ_OK, "%s: %s", what, err);
        if (k == 2) {
            TF_CHECK(cz_cs_count_finish(cs, &fp[k]) == CZ_OK);
        } else {
            n[k] = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
            w[k] = malloc(n[k] * sizeof(cz_fr));
            TF_CHECK(w[k] != NULL);
            cz_cs_write_assignment(cs, w[k]);
            cz_r1cs *r;
            TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
            cz_r1cs_fingerprint_of(r, &fp[k]);
            cz_r1cs_free(r);
        }
        cz_cs_free(cs);
    }
    TF_CHECK_MSG(!memcmp(&fp[0], &fp[1], sizeof fp[0]) && !memcmp(&fp[0], &fp[2], sizeof fp[0]),
                 "%s: the copied recording differs", what);
    TF_CHECK_MSG(n[0] == n[1] && !memcmp(w[0], w[1], n[0] * sizeof(cz_fr)),
                 "%s: the copied recording's assignment differs", what);
    free(w[0]);
    free(w[1]);
}
