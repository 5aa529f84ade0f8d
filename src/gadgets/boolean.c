/* Allocated bits and booleans as bellpepper-core's gadgets::boolean emits
 * them, with its constant folding. */
#include "cuzk/err.h"
#include "gadgets/gadgets_internal.h"

/* -------------------------------------------------------- allocated bits --- */

static cz_abit new_bit(cz_cs *cs, bool v)
{
    cz_fr x = cz_g_fr_bit(v);
    cz_abit r = {cz_cs_alloc_aux(cs, &x), v};
    return r;
}

/* (1 - m - b) * b = 0, without m when must_be_false is NULL. */
static cz_abit alloc_bit(cz_cs *cs, bool v, const cz_abit *must_be_false)
{
    cz_abit r = new_bit(cs, v);
    if (!cz_cs_is_recording(cs))
        return r;
    cz_g_abc x;
    cz_g_abc_init(&x);
    cz_lc_add(&x.a, CZ_CS_ONE);
    if (must_be_false)
        cz_lc_sub(&x.a, must_be_false->var);
    cz_lc_sub(&x.a, r.var);
    cz_lc_add(&x.b, r.var);
    cz_g_abc_enforce(cs, &x);
    return r;
}

/* (1 - b) * b = 0 */
cz_abit cz_abit_alloc(cz_cs *cs, bool v) { return alloc_bit(cs, v, NULL); }

/* (1 - m - a) * a = 0: a boolean that must be 0 while m is 1. */
cz_abit cz_abit_alloc_conditionally(cz_cs *cs, bool v, cz_abit must_be_false)
{
    return alloc_bit(cs, v, &must_be_false);
}

/* (2a) * b = a + b - r */
cz_abit cz_abit_xor(cz_cs *cs, cz_abit a, cz_abit b)
{
    cz_abit r = new_bit(cs, a.value ^ b.value);
    if (!cz_cs_is_recording(cs))
        return r;
    cz_g_abc x;
    cz_g_abc_init(&x);
    cz_lc_add(&x.a, a.var);
    cz_lc_add(&x.a, a.var);
    cz_lc_add(&x.b, b.var);
    cz_lc_add(&x.c, a.var);
    cz_lc_add(&x.c, b.var);
    cz_lc_sub(&x.c, r.var);
    cz_g_abc_enforce(cs, &x);
    return r;
}

/* Allocates r = value and enforces (sa a) * (sb b) = r where a negated
 * side stands for 1 - v. */
static cz_abit and_like(cz_cs *cs, cz_abit a, bool neg_a, cz_abit b, bool neg_b)
{
    cz_abit r = new_bit(cs, (a.value ^ neg_a) & (b.value ^ neg_b));
    if (!cz_cs_is_recording(cs))
        return r;
    cz_g_abc x;
    cz_g_abc_init(&x);
    if (neg_a) {
        cz_lc_add(&x.a, CZ_CS_ONE);
        cz_lc_sub(&x.a, a.var);
    } else {
        cz_lc_add(&x.a, a.var);
    }
    if (neg_b) {
        cz_lc_add(&x.b, CZ_CS_ONE);
        cz_lc_sub(&x.b, b.var);
    } else {
        cz_lc_add(&x.b, b.var);
    }
    cz_lc_add(&x.c, r.var);
    cz_g_abc_enforce(cs, &x);
    return r;
}

cz_abit cz_abit_and(cz_cs *cs, cz_abit a, cz_abit b) { return and_like(cs, a, false, b, false); }
cz_abit cz_abit_and_not(cz_cs *cs, cz_abit a, cz_abit b) { return and_like(cs, a, false, b, true); }
cz_abit cz_abit_nor(cz_cs *cs, cz_abit a, cz_abit b) { return and_like(cs, a, true, b, true); }

/* -------------------------------------------------------------- booleans --- */

cz_bool cz_bool_const(bool v)
{
    cz_bool r = {{CZ_CS_ONE, v}, CZ_BOOL_CONST};
    return r;
}

cz_bool cz_bool_is(cz_abit b)
{
    cz_bool r = {b, CZ_BOOL_IS};
    return r;
}

cz_bool cz_bool_not(cz_bool b)
{
    switch (b.kind) {
    case CZ_BOOL_CONST:
        b.bit.value = !b.bit.value;
        break;
    case CZ_BOOL_IS:
        b.kind = CZ_BOOL_NOT;
        break;
    case CZ_BOOL_NOT:
        b.kind = CZ_BOOL_IS;
        break;
    }
    return b;
}

bool cz_bool_value(cz_bool b) { return b.kind == CZ_BOOL_NOT ? !b.bit.value : b.bit.value; }
bool cz_bool_is_const(cz_bool b) { return b.kind == CZ_BOOL_CONST; }

static bool is_const_val(cz_bool b, bool v) { return b.kind == CZ_BOOL_CONST && b.bit.value == v; }

void cz_bool_lc(cz_lc *lc, cz_bool b, const cz_fr *coeff)
{
    cz_fr neg;
    switch (b.kind) {
    case CZ_BOOL_CONST:
        if (b.bit.value)
            cz_lc_add_term(lc, CZ_CS_ONE, coeff);
        break;
    case CZ_BOOL_IS:
        cz_lc_add_term(lc, b.bit.var, coeff);
        break;
    case CZ_BOOL_NOT:
        cz_fr_neg(&neg, coeff);
        cz_lc_add_term(lc, CZ_CS_ONE, coeff);
        cz_lc_add_term(lc, b.bit.var, &neg);
        break;
    }
}

cz_bool cz_bool_xor(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (is_const_val(a, false))
        return b;
    if (is_const_val(b, false))
        return a;
    if (is_const_val(a, true))
        return cz_bool_not(b);
    if (is_const_val(b, true))
        return cz_bool_not(a);
    if (a.kind != b.kind) { /* IS with NOT: not(xor(is, not not)) */
        cz_abit is = a.kind == CZ_BOOL_IS ? a.bit : b.bit;
        cz_abit nt = a.kind == CZ_BOOL_IS ? b.bit : a.bit;
        return cz_bool_not(cz_bool_is(cz_abit_xor(cs, is, nt)));
    }
    return cz_bool_is(cz_abit_xor(cs, a.bit, b.bit));
}

cz_bool cz_bool_and(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (is_const_val(a, false) || is_const_val(b, false))
        return cz_bool_const(false);
    if (is_const_val(a, true))
        return b;
    if (is_const_val(b, true))
        return a;
    if (a.kind == CZ_BOOL_IS && b.kind == CZ_BOOL_NOT)
        return cz_bool_is(cz_abit_and_not(cs, a.bit, b.bit));
    if (a.kind == CZ_BOOL_NOT && b.kind == CZ_BOOL_IS)
        return cz_bool_is(cz_abit_and_not(cs, b.bit, a.bit));
    if (a.kind == CZ_BOOL_NOT)
        return cz_bool_is(cz_abit_nor(cs, a.bit, b.bit));
    return cz_bool_is(cz_abit_and(cs, a.bit, b.bit));
}

cz_bool cz_bool_or(cz_cs *cs, cz_bool a, cz_bool b)
{
    return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(b)));
}

/* ch: (b - c) * a = ch - c, after bellpepper's folding cases. */
cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    bool av = cz_bool_value(a), bv = cz_bool_value(b), cv = cz_bool_value(c);
    bool v = (av & bv) ^ (!av & cv);
    if (cz_bool_is_const(a) && cz_bool_is_const(b) && cz_bool_is_const(c))
        return cz_bool_const(v);
    if (is_const_val(a, false))
        return c;
    if (is_const_val(b, false))
        return cz_bool_and(cs, cz_bool_not(a), c);
    if (is_const_val(c, false))
        return cz_bool_and(cs, a, b);
    if (is_const_val(c, true))
        return cz_bool_not(cz_bool_and(cs, a, cz_bool_not(b)));
    if (is_const_val(b, true))
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    /* a constant true, or no constant: allocate */
    cz_abit ch = new_bit(cs, v);
    if (cz_cs_is_recording(cs)) {
        cz_fr m1;
        cz_fr_neg(&m1, &CZ_FR_ONE);
        cz_g_abc x;
        cz_g_abc_init(&x);
        cz_bool_lc(&x.a, b, &CZ_FR_ONE);
        cz_bool_lc(&x.a, c, &m1);
        cz_bool_lc(&x.b, a, &CZ_FR_ONE);
        cz_lc_add(&x.c, ch.var);
        cz_bool_lc(&x.c, c, &m1);
        cz_g_abc_enforce(cs, &x);
    }
    return cz_bool_is(ch);
}

/* maj: allocate maj, bc = b and c, then (2bc - b - c) * a = bc - maj. */
cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    bool av = cz_bool_value(a), bv = cz_bool_value(b), cv = cz_bool_value(c);
    bool v = (av & bv) ^ (av & cv) ^ (bv & cv);
    if (cz_bool_is_const(a) && cz_bool_is_const(b) && cz_bool_is_const(c))
        return cz_bool_const(v);
    if (is_const_val(a, false))
        return cz_bool_and(cs, b, c);
    if (is_const_val(b, false))
        return cz_bool_and(cs, a, c);
    if (is_const_val(c, false))
        return cz_bool_and(cs, a, b);
    if (is_const_val(c, true))
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(b)));
    if (is_const_val(b, true))
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    if (is_const_val(a, true))
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(b), cz_bool_not(c)));
    cz_abit maj = new_bit(cs, v);
    cz_bool bc = cz_bool_and(cs, b, c);
    if (cz_cs_is_recording(cs)) {
        cz_fr m1, two;
        cz_fr_neg(&m1, &CZ_FR_ONE);
        cz_fr_dbl(&two, &CZ_FR_ONE);
        cz_g_abc x;
        cz_g_abc_init(&x);
        cz_bool_lc(&x.a, bc, &two);
        cz_bool_lc(&x.a, b, &m1);
        cz_bool_lc(&x.a, c, &m1);
        cz_bool_lc(&x.b, a, &CZ_FR_ONE);
        cz_bool_lc(&x.c, bc, &CZ_FR_ONE);
        cz_lc_sub(&x.c, maj.var);
        cz_g_abc_enforce(cs, &x);
    }
    return cz_bool_is(maj);
}

/* 0 * 0 = lc(a) - lc(b), with a constant side written as ONE or nothing. */
int cz_bool_enforce_equal(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (cz_bool_is_const(a) && cz_bool_is_const(b))
        return a.bit.value == b.bit.value ? CZ_OK : CZ_ERR_UNSATISFIED;
    if (!cz_cs_is_recording(cs))
        return CZ_OK;
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    cz_g_abc x;
    cz_g_abc_init(&x);
    if (is_const_val(a, true) || is_const_val(b, true)) {
        cz_lc_add(&x.c, CZ_CS_ONE);
        cz_bool_lc(&x.c, is_const_val(a, true) ? b : a, &m1);
    } else if (is_const_val(a, false) || is_const_val(b, false)) {
        cz_bool_lc(&x.c, is_const_val(a, false) ? b : a, &CZ_FR_ONE);
    } else {
        cz_bool_lc(&x.c, a, &CZ_FR_ONE);
        cz_bool_lc(&x.c, b, &m1);
    }
    cz_g_abc_enforce(cs, &x);
    return CZ_OK;
}
