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

/* n bits of v, least significant first: constants when cs is NULL, else
 * bits allocated in cs. */
static inline void cz_g_bits_of(cz_cs *cs, cz_bool *bits, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        bits[i] =
            cs == NULL ? cz_bool_const((v >> i) & 1) : cz_bool_is(cz_abit_alloc(cs, (v >> i) & 1));
}

/* The number whose bit i is the value of bits[i], for n <= 64. */
static inline uint64_t cz_g_bits_value(const cz_bool *bits, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)cz_bool_value(bits[i]) << i;
    return v;
}

/* The 255 bits of n's value, least significant first, allocated in cs
 * (each with its boolean constraint). */
static inline void cz_g_num_abits(cz_cs *cs, const cz_num *n, cz_abit out[CZ_FR_NUM_BITS])
{
    uint64_t l[4];
    cz_fr_to_canonical(l, &n->value);
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
        out[i] = cz_abit_alloc(cs, (l[i / 64] >> (i % 64)) & 1);
}

/* lc += sum 2^i bits[i], i < n. */
static inline void cz_g_lc_add_packed(cz_lc *lc, const cz_abit *bits, unsigned n)
{
    cz_fr coeff = CZ_FR_ONE;
    for (unsigned i = 0; i < n; i++) {
        cz_lc_add_term(lc, bits[i].var, &coeff);
        cz_fr_dbl(&coeff, &coeff);
    }
}

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
