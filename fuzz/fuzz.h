/* What every libFuzzer harness in fuzz/ shares: the entry point's
 * prototype, and CHECK, an invariant that abort()s when it fails (libFuzzer
 * then keeps the input as a crash artifact). */
#ifndef CZ_FUZZ_H
#define CZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

#endif
