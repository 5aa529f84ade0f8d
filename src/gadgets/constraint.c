/* storage-proofs-core's gadgets/constraint.rs (sum, difference, add, sub;
 * equal is cz_num_enforce_equal) and gadgets/encode.rs. */
#include "gadgets/gadgets_internal.h"

/* (x + y) * 1 = z */
static void enforce_sum(cz_cs *cs, const cz_num *x, const cz_num *y, const cz_num *z)
{
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_lc_add(&e.a, x->var);
    cz_lc_add(&e.a, y->var);
    cz_lc_add(&e.b, CZ_CS_ONE);
    cz_lc_add(&e.c, z->var);
    cz_g_abc_enforce(cs, &e);
}

void cz_constraint_sum(cz_cs *cs, const cz_num *a, const cz_num *b, const cz_num *sum)
{
    enforce_sum(cs, a, b, sum);
}

void cz_constraint_difference(cz_cs *cs, const cz_num *a, const cz_num *b, const cz_num *diff)
{
    enforce_sum(cs, diff, b, a);
}

cz_num cz_constraint_add(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    cz_fr v;
    cz_fr_add(&v, &a->value, &b->value);
    cz_num r = cz_num_alloc(cs, &v);
    enforce_sum(cs, a, b, &r);
    return r;
}

cz_num cz_constraint_sub(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    cz_fr v;
    cz_fr_sub(&v, &a->value, &b->value);
    cz_num r = cz_num_alloc(cs, &v);
    enforce_sum(cs, &r, b, a);
    return r;
}

cz_num cz_encode(cz_cs *cs, const cz_num *key, const cz_num *value)
{
    return cz_constraint_add(cs, key, value);
}

cz_num cz_decode(cz_cs *cs, const cz_num *key, const cz_num *value)
{
    return cz_constraint_sub(cs, value, key);
}

void cz_encode_native(cz_fr *out, const cz_fr *key, const cz_fr *value)
{
    cz_fr_add(out, key, value);
}

void cz_decode_native(cz_fr *out, const cz_fr *key, const cz_fr *value)
{
    cz_fr_sub(out, value, key);
}
