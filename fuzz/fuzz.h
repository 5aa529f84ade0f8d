/* What every libFuzzer harness in fuzz/ shares: the entry point's
 * prototype, and CHECK, an invariant that abort()s when it fails (libFuzzer
 * then keeps the input as a crash artifact); and the rejections that more
 * than one harness expects. */
#ifndef CZ_FUZZ_H
#define CZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuzk/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

/* A circom file reader's rejection (.r1cs, .wtns): a file-format code,
 * never INVALID_ARG or IO (the arguments are valid), with a message. */
static inline bool fuzz_circom_rejection(int rc, const char *err)
{
    return (rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_UNSUPPORTED || rc == CZ_ERR_WRONG_CURVE ||
            rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_NOMEM) &&
           err[0] != 0;
}

#endif
