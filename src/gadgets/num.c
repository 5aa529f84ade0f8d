/* AllocatedNum as bellpepper-core's gadgets::num emits it, and
 * storage-proofs-core's equality constraint. */
#include "gadgets/gadgets_internal.h"

cz_num cz_num_alloc(cz_cs *cs, const cz_fr *value)
{
    cz_num r = {cz_cs_alloc_aux(cs, value), *value};
    return r;
}

cz_num cz_num_alloc_input(cz_cs *cs, const cz_fr *value)
{
    cz_num r = {cz_cs_alloc_input(cs, value), *value};
    return r;
}

/* x * 1 = n */
void cz_num_inputize(cz_cs *cs, const cz_num *n)
{
    cz_var x = cz_cs_alloc_input(cs, &n->value);
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_lc_add(&e.a, x);
    cz_lc_add(&e.b, CZ_CS_ONE);
    cz_lc_add(&e.c, n->var);
    cz_g_abc_enforce(cs, &e);
}

/* 255 bits b_i (each (1 - b) * b = 0), then 0 * 0 = sum 2^i b_i - n. */
void cz_num_to_bits_le(cz_cs *cs, const cz_num *n, cz_bool out[CZ_FR_NUM_BITS])
{
    uint64_t l[4];
    cz_fr_to_canonical(l, &n->value);
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
        out[i] = cz_bool_is(cz_abit_alloc(cs, (l[i / 64] >> (i % 64)) & 1));
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_fr coeff = CZ_FR_ONE;
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++) {
        cz_lc_add_term(&e.c, out[i].bit.var, &coeff);
        cz_fr_dbl(&coeff, &coeff);
    }
    cz_lc_sub(&e.c, n->var);
    cz_g_abc_enforce(cs, &e);
}

/* a * 1 = b */
void cz_num_enforce_equal(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_lc_add(&e.a, a->var);
    cz_lc_add(&e.b, CZ_CS_ONE);
    cz_lc_add(&e.c, b->var);
    cz_g_abc_enforce(cs, &e);
}
