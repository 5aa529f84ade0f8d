/* prover_id from a miner actor id (see cuzk/filecoin/core.h): the ID
 * address payload, as filecoin-ffi builds it. */
#include <string.h>

#include "cuzk/filecoin/core.h"

void cz_fc_prover_id(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    unsigned i = 0;
    do { /* unsigned LEB128 */
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        out[i++] = b | (miner_id ? 0x80 : 0);
    } while (miner_id);
}
