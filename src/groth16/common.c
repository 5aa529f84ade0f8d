/* Helpers shared by the Groth16 files (see g16_internal.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "groth16/g16_internal.h"

size_t cz_groth16_params_block_bytes(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b)
{
    size_t g1 = n_ic, parts[4] = {n_h, n_l, n_a, n_b};
    for (int i = 0; i < 4; i++) {
        if (parts[i] > SIZE_MAX / 4 / sizeof(cz_g2_affine) - g1)
            return 0;
        g1 += parts[i];
    }
    if (n_b > SIZE_MAX / 4 / sizeof(cz_g2_affine))
        return 0;
    return g1 * sizeof(cz_g1_affine) + n_b * sizeof(cz_g2_affine);
}

int cz_groth16_params_alloc(cz_groth16_params *p, size_t n_ic, size_t n_h, size_t n_l, size_t n_a,
                            size_t n_b, const cz_allocator *alloc)
{
    size_t bytes = cz_groth16_params_block_bytes(n_ic, n_h, n_l, n_a, n_b);
    if (bytes == 0 && n_ic + n_h + n_l + n_a + n_b > 0)
        return CZ_ERR_INVALID_ARG;
    uint8_t *mem =
        alloc ? cz_alloc(alloc, CZ_BUF_PARAMS, bytes ? bytes : 1) : calloc(1, bytes ? bytes : 1);
    if (mem == NULL)
        return CZ_ERR_NOMEM;
    cz_g1_affine *q = (cz_g1_affine *)mem;
    p->vk.ic = q, q += n_ic;
    p->h = q, q += n_h;
    p->l = q, q += n_l;
    p->a = q, q += n_a;
    p->b_g1 = q, q += n_b;
    p->b_g2 = (cz_g2_affine *)q;
    p->vk.n_ic = n_ic;
    p->n_h = n_h, p->n_l = n_l, p->n_a = n_a, p->n_b_g1 = n_b, p->n_b_g2 = n_b;
    p->mem = mem;
    p->mem_bytes = bytes ? bytes : 1;
    p->alloc = alloc;
    return CZ_OK;
}

unsigned cz_groth16_log_domain(size_t n)
{
    unsigned k = 1;
    while (k < 63 && ((size_t)1 << k) < n)
        k++;
    return k;
}

void cz_groth16_wipe(void *p, size_t n)
{
    if (p == NULL || n == 0)
        return;
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
