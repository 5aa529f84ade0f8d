/* The one block of memory of a proof's or a tree's arrays (core.h). */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"

int cz_fc_block_alloc(cz_fc_block *b, const cz_allocator *alloc, cz_buf_class cls, size_t bytes)
{
    b->mem = cz_alloc(alloc, cls, bytes);
    b->bytes = b->mem ? bytes : 0;
    b->alloc = alloc;
    return b->mem ? CZ_OK : CZ_ERR_NOMEM;
}

void cz_fc_block_free(cz_fc_block *b)
{
    if (b == NULL)
        return;
    if (b->mem)
        cz_free(b->alloc, b->mem, b->bytes);
    memset(b, 0, sizeof *b);
}
