/* Helpers shared by the gadgets of include/cuzk/gadgets.h. */
#ifndef CZ_GADGETS_INTERNAL_H
#define CZ_GADGETS_INTERNAL_H

#include "cuzk/gadgets.h"

/* r = 2^k for k <= 254 (2^254 < r, so the canonical form is the power). */
static inline void cz_g_pow2(cz_fr *r, unsigned k)
{
    uint64_t l[4] = {0, 0, 0, 0};
    l[k / 64] = (uint64_t)1 << (k % 64);
    cz_fr_from_canonical(r, l);
}

/* The field element 0 or 1. */
static inline cz_fr cz_g_fr_bit(bool v) { return v ? CZ_FR_ONE : CZ_FR_ZERO; }

/* Three combinations for one constraint. */
typedef struct {
    cz_lc a, b, c;
} cz_g_abc;

static inline void cz_g_abc_init(cz_g_abc *x)
{
    cz_lc_init(&x->a);
    cz_lc_init(&x->b);
    cz_lc_init(&x->c);
}

/* Enforces a * b = c and frees the combinations. */
static inline void cz_g_abc_enforce(cz_cs *cs, cz_g_abc *x)
{
    cz_cs_enforce(cs, &x->a, &x->b, &x->c);
    cz_lc_free(&x->a);
    cz_lc_free(&x->b);
    cz_lc_free(&x->c);
}

#endif /* CZ_GADGETS_INTERNAL_H */
