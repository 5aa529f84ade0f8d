/* AllocatedNum as bellpepper-core's gadgets::num emits it, and
 * storage-proofs-core's equality constraint. */
#include "cuzk/err.h"
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

/* 0 * 0 = sum 2^i b_i - n: the bits b pack to n (recording only); out the
 * bits as booleans. */
static void enforce_packing(cz_cs *cs, const cz_abit b[CZ_FR_NUM_BITS], const cz_num *n,
                            cz_bool out[CZ_FR_NUM_BITS])
{
    for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
        out[i] = cz_bool_is(b[i]);
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_g_lc_add_packed(&e.c, b, CZ_FR_NUM_BITS);
    cz_lc_sub(&e.c, n->var);
    cz_g_abc_enforce(cs, &e);
}

/* 255 bits b_i (each (1 - b) * b = 0), then 0 * 0 = sum 2^i b_i - n. */
void cz_num_to_bits_le(cz_cs *cs, const cz_num *n, cz_bool out[CZ_FR_NUM_BITS])
{
    cz_abit b[CZ_FR_NUM_BITS];
    cz_g_num_abits(cs, n, b);
    enforce_packing(cs, b, n, out);
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

/* Bits of r - 1 from the most significant down: a run of ones allocates
 * plain bits; where a run of zeros starts, the bits of the run (with the
 * previous run's result last) are and-ed left to right into `last` (1 iff
 * every bit so far equals r - 1's), and each zero bit of r - 1 is allocated
 * with alloc_conditionally(last).  Then 0 * 0 = sum 2^i b_i - n. */
void cz_num_to_bits_le_strict(cz_cs *cs, const cz_num *n, cz_bool out[CZ_FR_NUM_BITS])
{
    uint64_t a[4], m[4];
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    cz_fr_to_canonical(m, &m1);
    cz_fr_to_canonical(a, &n->value);
    cz_abit bits[CZ_FR_NUM_BITS], run[CZ_FR_NUM_BITS + 1], last = {CZ_CS_ONE, false};
    size_t run_len = 0;
    bool have_last = false;
    for (unsigned k = CZ_FR_NUM_BITS; k-- > 0;) {
        bool mb = (m[k / 64] >> (k % 64)) & 1, ab = (a[k / 64] >> (k % 64)) & 1;
        cz_abit b;
        if (mb) {
            b = cz_abit_alloc(cs, ab);
            run[run_len++] = b;
        } else {
            if (run_len > 0) {
                if (have_last)
                    run[run_len++] = last;
                last = run[0];
                for (size_t j = 1; j < run_len; j++)
                    last = cz_abit_and(cs, last, run[j]);
                have_last = true;
                run_len = 0;
            }
            /* r - 1 has its top bit set, so a run precedes every zero */
            b = cz_abit_alloc_conditionally(cs, ab, last);
        }
        bits[k] = b;
    }
    enforce_packing(cs, bits, n, out);
}

/* the rows of storage-proofs-core's constraint::add */
cz_num cz_num_add(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    return cz_constraint_add(cs, a, b);
}

/* r = a b; a * b = r (square: b = a) */
static cz_num product(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    cz_fr v;
    cz_fr_mul(&v, &a->value, &b->value);
    cz_num r = cz_num_alloc(cs, &v);
    if (!cz_cs_is_recording(cs))
        return r;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_lc_add(&e.a, a->var);
    cz_lc_add(&e.b, b->var);
    cz_lc_add(&e.c, r.var);
    cz_g_abc_enforce(cs, &e);
    return r;
}

cz_num cz_num_mul(cz_cs *cs, const cz_num *a, const cz_num *b) { return product(cs, a, b); }
cz_num cz_num_square(cz_cs *cs, const cz_num *a) { return product(cs, a, a); }

/* inv = 1 / a; a * inv = 1 */
int cz_num_assert_nonzero(cz_cs *cs, const cz_num *a)
{
    cz_fr inv = CZ_FR_ZERO;
    bool zero = cz_fr_is_zero(&a->value);
    if (!zero)
        cz_fr_inv(&inv, &a->value);
    cz_num r = cz_num_alloc(cs, &inv);
    if (cz_cs_is_recording(cs)) {
        cz_g_abc e;
        cz_g_abc_init(&e);
        cz_lc_add(&e.a, a->var);
        cz_lc_add(&e.b, r.var);
        cz_lc_add(&e.c, CZ_CS_ONE);
        cz_g_abc_enforce(cs, &e);
    }
    return zero ? CZ_ERR_UNSATISFIED : CZ_OK;
}

/* c = cond ? b : a with (a - b) * cond = a - c, then
 * d = cond ? a : b with (b - a) * cond = b - d. */
void cz_num_conditionally_reverse(cz_cs *cs, const cz_num *a, const cz_num *b, cz_bool cond,
                                  cz_num *c, cz_num *d)
{
    bool sw = cz_bool_value(cond);
    const cz_num *src[2] = {a, b};
    cz_num out[2];
    for (int k = 0; k < 2; k++) {
        const cz_num *x = src[k], *y = src[1 - k];
        out[k] = cz_num_alloc(cs, sw ? &y->value : &x->value);
        if (!cz_cs_is_recording(cs))
            continue;
        cz_g_abc e;
        cz_g_abc_init(&e);
        cz_lc_add(&e.a, x->var);
        cz_lc_sub(&e.a, y->var);
        cz_bool_lc(&e.b, cond, &CZ_FR_ONE);
        cz_lc_add(&e.c, x->var);
        cz_lc_sub(&e.c, out[k].var);
        cz_g_abc_enforce(cs, &e);
    }
    *c = out[0];
    *d = out[1];
}
