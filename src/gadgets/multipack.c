/* bellpepper's multipack: bits packed 254 to a field element. */
#include "gadgets/gadgets_internal.h"

/* Sum 2^i b_i over bits[0..n) (n <= 254): its value, and its combination
 * in lc when recording. */
static cz_fr pack_sum(cz_cs *cs, cz_lc *lc, const cz_bool *bits, size_t n)
{
    cz_fr v = CZ_FR_ZERO, coeff = CZ_FR_ONE;
    bool rec = cz_cs_is_recording(cs);
    for (size_t i = 0; i < n; i++) {
        if (cz_bool_value(bits[i]))
            cz_fr_add(&v, &v, &coeff);
        if (rec)
            cz_bool_lc(lc, bits[i], &coeff);
        cz_fr_dbl(&coeff, &coeff);
    }
    return v;
}

/* sum * 1 = x */
static void enforce_packing(cz_cs *cs, cz_g_abc *e, cz_var x)
{
    if (!cz_cs_is_recording(cs)) {
        cz_lc_free(&e->a);
        return;
    }
    cz_lc_add(&e->b, CZ_CS_ONE);
    cz_lc_add(&e->c, x);
    cz_g_abc_enforce(cs, e);
}

cz_num cz_pack_bits(cz_cs *cs, const cz_bool *bits, size_t n)
{
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_fr v = pack_sum(cs, &e.a, bits, n < CZ_FR_CAPACITY ? n : CZ_FR_CAPACITY);
    cz_num r = cz_num_alloc(cs, &v);
    enforce_packing(cs, &e, r.var);
    return r;
}

void cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, size_t n)
{
    for (size_t off = 0; off < n; off += CZ_FR_CAPACITY) {
        size_t k = n - off < CZ_FR_CAPACITY ? n - off : CZ_FR_CAPACITY;
        cz_g_abc e;
        cz_g_abc_init(&e);
        cz_fr v = pack_sum(cs, &e.a, bits + off, k);
        cz_var x = cz_cs_alloc_input(cs, &v);
        enforce_packing(cs, &e, x);
    }
}

void cz_multipack_native(cz_fr *out, const bool *bits, size_t n)
{
    for (size_t off = 0, j = 0; off < n; off += CZ_FR_CAPACITY, j++) {
        cz_fr v = CZ_FR_ZERO, coeff = CZ_FR_ONE;
        for (size_t i = off; i < n && i < off + CZ_FR_CAPACITY; i++) {
            if (bits[i])
                cz_fr_add(&v, &v, &coeff);
            cz_fr_dbl(&coeff, &coeff);
        }
        out[j] = v;
    }
}
