/* bellpepper's MultiEq: many narrow equalities packed into one constraint. */
#include "gadgets/gadgets_internal.h"

void cz_multieq_init(cz_multieq *m, cz_cs *cs)
{
    m->cs = cs;
    m->bits_used = 0;
    cz_lc_init(&m->lhs);
    cz_lc_init(&m->rhs);
}

/* lhs * 1 = rhs, then start over. */
static void accumulate(cz_multieq *m)
{
    if (cz_cs_is_recording(m->cs)) {
        cz_lc one;
        cz_lc_init(&one);
        cz_lc_add(&one, CZ_CS_ONE);
        cz_cs_enforce(m->cs, &m->lhs, &one, &m->rhs);
        cz_lc_free(&one);
    }
    cz_lc_clear(&m->lhs);
    cz_lc_clear(&m->rhs);
    m->bits_used = 0;
}

/* dst += coeff * src */
static void add_scaled(cz_lc *dst, const cz_lc *src, const cz_fr *coeff)
{
    if (src->err != 0) {
        /* pass the sticky error on: enforce reports it */
        dst->err = src->err;
        return;
    }
    for (size_t i = 0; i < src->n; i++) {
        cz_fr c;
        cz_fr_mul(&c, &src->t[i].coeff, coeff);
        cz_lc_add_term(dst, src->t[i].var, &c);
    }
}

void cz_multieq_enforce_equal(cz_multieq *m, size_t num_bits, const cz_lc *lhs, const cz_lc *rhs)
{
    if (CZ_FR_CAPACITY <= m->bits_used + num_bits)
        accumulate(m);
    if (cz_cs_is_recording(m->cs)) {
        cz_fr coeff;
        cz_g_pow2(&coeff, (unsigned)m->bits_used);
        add_scaled(&m->lhs, lhs, &coeff);
        add_scaled(&m->rhs, rhs, &coeff);
    }
    m->bits_used += num_bits;
}

void cz_multieq_finish(cz_multieq *m)
{
    if (m->bits_used > 0)
        accumulate(m);
    cz_lc_free(&m->lhs);
    cz_lc_free(&m->rhs);
}
