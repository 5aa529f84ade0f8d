/* bellpepper's UInt32: 32 booleans, least significant first. */
#include "gadgets/gadgets_internal.h"

static cz_u32 u32_of(cz_cs *cs, uint32_t v)
{
    cz_u32 r = {.value = v};
    cz_g_bits_of(cs, r.bits, v, 32);
    return r;
}

cz_u32 cz_u32_const(uint32_t v) { return u32_of(NULL, v); }
cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v) { return u32_of(cs, v); }

cz_u32 cz_u32_from_bits_be(const cz_bool bits[32])
{
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = bits[31 - i];
    r.value = (uint32_t)cz_g_bits_value(r.bits, 32);
    return r;
}

void cz_u32_to_bits_be(const cz_u32 *x, cz_bool bits[32])
{
    for (unsigned i = 0; i < 32; i++)
        bits[i] = x->bits[31 - i];
}

cz_u32 cz_u32_rotr(const cz_u32 *x, unsigned by)
{
    by %= 32;
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = x->bits[(i + by) % 32];
    r.value = by == 0 ? x->value : (x->value >> by) | (x->value << (32 - by));
    return r;
}

cz_u32 cz_u32_shr(const cz_u32 *x, unsigned by)
{
    by %= 32;
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = i + by < 32 ? x->bits[i + by] : cz_bool_const(false);
    r.value = x->value >> by;
    return r;
}

cz_u32 cz_u32_xor(cz_cs *cs, const cz_u32 *a, const cz_u32 *b)
{
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = cz_bool_xor(cs, a->bits[i], b->bits[i]);
    r.value = a->value ^ b->value;
    return r;
}

cz_u32 cz_u32_sha256_ch(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c)
{
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = cz_bool_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    r.value = (a->value & b->value) ^ (~a->value & c->value);
    return r;
}

cz_u32 cz_u32_sha256_maj(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c)
{
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = cz_bool_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    r.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    return r;
}

/* sum_k sum_i 2^i op_k[i] = sum_i 2^i r_i over L = bitlen(n (2^32 - 1))
 * allocated result bits, handed to the MultiEq. */
cz_u32 cz_u32_addmany(cz_multieq *m, const cz_u32 *ops, size_t n)
{
    cz_cs *cs = m->cs;
    bool rec = cz_cs_is_recording(cs);
    uint64_t sum = 0, max_value = (uint64_t)n * UINT32_MAX;
    bool all_const = true;
    cz_lc lhs, rhs;
    cz_lc_init(&lhs);
    cz_lc_init(&rhs);
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].value;
        cz_fr coeff = CZ_FR_ONE;
        for (unsigned i = 0; i < 32; i++) {
            if (rec)
                cz_bool_lc(&lhs, ops[k].bits[i], &coeff);
            all_const &= cz_bool_is_const(ops[k].bits[i]);
            cz_fr_dbl(&coeff, &coeff);
        }
    }
    if (all_const) {
        cz_lc_free(&lhs);
        return cz_u32_const((uint32_t)sum);
    }
    cz_u32 r;
    r.value = (uint32_t)sum;
    cz_fr coeff = CZ_FR_ONE;
    size_t nbits = 0;
    for (; max_value != 0; max_value >>= 1, nbits++) {
        cz_abit b = cz_abit_alloc(cs, (sum >> nbits) & 1);
        if (rec)
            cz_lc_add_term(&rhs, b.var, &coeff);
        if (nbits < 32)
            r.bits[nbits] = cz_bool_is(b);
        cz_fr_dbl(&coeff, &coeff);
    }
    cz_multieq_enforce_equal(m, nbits, &lhs, &rhs);
    cz_lc_free(&lhs);
    cz_lc_free(&rhs);
    return r;
}
