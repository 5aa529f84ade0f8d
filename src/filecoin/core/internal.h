/* Between the proof families of src/filecoin: what their verifiers share
 * that is not part of cuzk/filecoin/core.h's contract. */
#ifndef CZ_FILECOIN_CORE_INTERNAL_H
#define CZ_FILECOIN_CORE_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "cuzk/filecoin/core.h"

/* Two Ds are the same 32 bytes. */
static inline bool cz_fc_d_same(const cz_fc_d *a, const cz_fc_d *b)
{
    return memcmp(a->b, b->b, 32) == 0;
}

#endif
