/* storage-proofs-core's insertion gadgets (gadgets/insertion.rs): pick,
 * select and insert, with the hand-optimised insert_4 and insert_8, in its
 * allocation and constraint order. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "gadgets/gadgets_internal.h"

cz_num cz_pick(cz_cs *cs, cz_bool cond, const cz_num *a, const cz_num *b)
{
    /* c = cond ? a : b; (b - a) * cond = b - c */
    cz_num c = cz_num_alloc(cs, cz_bool_value(cond) ? &a->value : &b->value);
    cz_g_abc x;
    cz_g_abc_init(&x);
    cz_lc_add(&x.a, b->var);
    cz_lc_sub(&x.a, a->var);
    cz_bool_lc(&x.b, cond, &CZ_FR_ONE);
    cz_lc_add(&x.c, b->var);
    cz_lc_sub(&x.c, c.var);
    cz_g_abc_enforce(cs, &x);
    return c;
}

int cz_select(cz_cs *cs, const cz_num *from, const cz_bool *bits, unsigned nbits, cz_num *out)
{
    if (!cs || !from || !bits || !out || nbits == 0 || nbits > 16)
        return CZ_ERR_INVALID_ARG;
    size_t half = (size_t)1 << (nbits - 1);
    cz_num *state = malloc(2 * half * sizeof *state);
    if (!state)
        return CZ_ERR_NOMEM;
    memcpy(state, from, 2 * half * sizeof *state);
    /* most significant bit first: the upper half when set */
    for (unsigned i = 0; i < nbits; i++, half /= 2)
        for (size_t j = 0; j < half; j++)
            state[j] = cz_pick(cs, bits[nbits - 1 - i], &state[half + j], &state[j]);
    *out = state[0];
    free(state);
    return CZ_OK;
}

/* The allocated, unnegated bit behind b (insert_8's nor / and need it). */
static bool plain_bit(cz_bool b) { return b.kind == CZ_BOOL_IS; }

static void insert_4(cz_cs *cs, const cz_num *A, const cz_bool *bits, const cz_num *el,
                     cz_num out[4])
{
    cz_bool b0 = bits[0], b1 = bits[1];
    const cz_num *b = &el[0], *c = &el[1], *d = &el[2];
    cz_num t;
    t = cz_pick(cs, b0, b, A);
    out[0] = cz_pick(cs, b1, b, &t);
    t = cz_pick(cs, b0, A, b);
    out[1] = cz_pick(cs, b1, c, &t);
    t = cz_pick(cs, b0, d, A);
    out[2] = cz_pick(cs, b1, &t, c);
    t = cz_pick(cs, b0, A, d);
    out[3] = cz_pick(cs, b1, &t, d);
}

static void insert_8(cz_cs *cs, const cz_num *A, const cz_bool *bits, const cz_num *el,
                     cz_num out[8])
{
    cz_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    const cz_num *b = &el[0], *c = &el[1], *d = &el[2], *e = &el[3], *f = &el[4], *g = &el[5],
                 *h = &el[6];
    cz_bool nor = cz_bool_is(cz_abit_nor(cs, b0.bit, b1.bit));
    cz_bool and = cz_bool_is(cz_abit_and(cs, b0.bit, b1.bit));
    cz_num t, u;
    t = cz_pick(cs, nor, A, b);
    out[0] = cz_pick(cs, b2, b, &t);
    t = cz_pick(cs, b0, A, b);
    u = cz_pick(cs, b1, c, &t);
    out[1] = cz_pick(cs, b2, c, &u);
    t = cz_pick(cs, b0, d, A);
    u = cz_pick(cs, b1, &t, c);
    out[2] = cz_pick(cs, b2, d, &u);
    t = cz_pick(cs, and, A, d);
    out[3] = cz_pick(cs, b2, e, &t);
    t = cz_pick(cs, nor, A, f);
    out[4] = cz_pick(cs, b2, &t, e);
    t = cz_pick(cs, b0, A, f);
    u = cz_pick(cs, b1, g, &t);
    out[5] = cz_pick(cs, b2, &u, f);
    t = cz_pick(cs, b0, h, A);
    u = cz_pick(cs, b1, &t, g);
    out[6] = cz_pick(cs, b2, &u, g);
    t = cz_pick(cs, and, A, h);
    out[7] = cz_pick(cs, b2, &t, h);
}

int cz_insert(cz_cs *cs, const cz_num *element, const cz_bool *bits, unsigned nbits,
              const cz_num *elements, cz_num *out)
{
    if (!cs || !element || !bits || !elements || !out || nbits == 0 || nbits > 8)
        return CZ_ERR_INVALID_ARG;
    size_t size = (size_t)1 << nbits;
    if (size == 2) {
        out[0] = cz_pick(cs, bits[0], &elements[0], element);
        out[1] = cz_pick(cs, bits[0], element, &elements[0]);
        return CZ_OK;
    }
    if (size == 4) {
        insert_4(cs, element, bits, elements, out);
        return CZ_OK;
    }
    if (size == 8) {
        if (!plain_bit(bits[0]) || !plain_bit(bits[1]))
            return CZ_ERR_INVALID_ARG; /* as rust-fil-proofs, which panics */
        insert_8(cs, element, bits, elements, out);
        return CZ_OK;
    }
    /* general: position pos of the result is select(column pos) over the
     * size candidate results, column[index] = the element at pos when
     * inserting at index */
    cz_num *col = malloc(size * sizeof *col);
    if (!col)
        return CZ_ERR_NOMEM;
    int rc = CZ_OK;
    for (size_t pos = 0; pos < size && !rc; pos++) {
        for (size_t index = 0; index < size; index++)
            col[index] = pos < index ? elements[pos] : pos == index ? *element : elements[pos - 1];
        rc = cz_select(cs, col, bits, nbits, &out[pos]);
    }
    free(col);
    return rc;
}
