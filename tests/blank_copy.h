/* Test helper: a blank circuit whose recording copies its parts
 * (cz_cs_repeat) checked against the same circuit recorded part by part
 * and counted. */
#ifndef CZ_TEST_BLANK_COPY_H
#define CZ_TEST_BLANK_COPY_H

#include <stddef.h>

#include "cuzk/cs.h"

/* Synthesises the blank circuit ctx describes into cs: CZ_OK or an error
 * with err set. */
typedef int (*tf_blank_synth)(cz_cs *cs, const void *ctx, char *err, size_t errlen);

/* Runs synth in a RECORD cs (which copies), in a RECORD cs with
 * namespaces (which cz_cs_repeat refuses, so the parts are recorded one
 * by one) and in a COUNT cs; checks that the three fingerprints and the
 * two assignments are equal.  `what` names the circuit in a failure. */
void tf_check_blank_copied(tf_blank_synth synth, const void *ctx, const char *what);

#endif
