/* storage-proofs-core's UInt64 (gadgets/uint64.rs): 64 booleans, least
 * significant first; and util.rs's bit reordering. */
#include "gadgets/gadgets_internal.h"

cz_u64 cz_u64_const(uint64_t v)
{
    cz_u64 r;
    for (unsigned i = 0; i < 64; i++)
        r.bits[i] = cz_bool_const((v >> i) & 1);
    r.value = v;
    return r;
}

cz_u64 cz_u64_alloc(cz_cs *cs, uint64_t v)
{
    cz_u64 r;
    for (unsigned i = 0; i < 64; i++)
        r.bits[i] = cz_bool_is(cz_abit_alloc(cs, (v >> i) & 1));
    r.value = v;
    return r;
}

cz_u64 cz_u64_from_bits_le(const cz_bool bits[64])
{
    cz_u64 r;
    r.value = 0;
    for (unsigned i = 0; i < 64; i++) {
        r.bits[i] = bits[i];
        r.value |= (uint64_t)cz_bool_value(bits[i]) << i;
    }
    return r;
}

cz_u64 cz_u64_from_bits_be(const cz_bool bits[64])
{
    cz_bool le[64];
    for (unsigned i = 0; i < 64; i++)
        le[i] = bits[63 - i];
    return cz_u64_from_bits_le(le);
}

void cz_u64_to_bits_le(const cz_u64 *x, cz_bool bits[64])
{
    for (unsigned i = 0; i < 64; i++)
        bits[i] = x->bits[i];
}

void cz_u64_to_bits_be(const cz_u64 *x, cz_bool bits[64])
{
    for (unsigned i = 0; i < 64; i++)
        bits[i] = x->bits[63 - i];
}

void cz_u64_pack_into_input(cz_cs *cs, const cz_u64 *x) { cz_pack_into_inputs(cs, x->bits, 64); }

size_t cz_reverse_bit_numbering(const cz_bool *in, size_t n, cz_bool *out)
{
    size_t padded = (n + 7) / 8 * 8;
    for (size_t i = 0; i < padded; i++) {
        size_t src = i / 8 * 8 + (7 - i % 8);
        out[i] = src < n ? in[src] : cz_bool_const(false);
    }
    return padded;
}
