/* Internals shared by the Groth16 files (params_io.c, setup.c, prove.c,
 * zkey_params.c).  Not public API. */
#ifndef CZ_G16_INTERNAL_H
#define CZ_G16_INTERNAL_H

#include <stddef.h>

#include "cuzk/groth16.h"

/* Allocates one block for vk.ic and the five query arrays of the given
 * lengths, points the arrays into it (zeroed) and sets the counts, mem and
 * mem_bytes and alloc (NULL: calloc); everything else in *p is left as
 * it is.  Freed by cz_groth16_params_free.  CZ_OK, CZ_ERR_NOMEM or CZ_ERR_INVALID_ARG (sizes
 * overflow). */
int cz_groth16_params_alloc(cz_groth16_params *p, size_t n_ic, size_t n_h, size_t n_l,
                            size_t n_a, size_t n_b, const cz_allocator *alloc);
/* Bytes of that block. */
size_t cz_groth16_params_block_bytes(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b);

/* Smallest k >= 1 with 2^k >= n. */
unsigned cz_groth16_log_domain(size_t n);

/* Wipes n bytes in a way the compiler keeps. */
void cz_groth16_wipe(void *p, size_t n);

#endif
