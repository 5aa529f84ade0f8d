/* storage-proofs-core's UInt64 (gadgets/uint64.rs): 64 booleans, least
 * significant first; and util.rs's bit reordering. */
#include <string.h>

#include "gadgets/gadgets_internal.h"

static cz_u64 u64_of(cz_cs *cs, uint64_t v)
{
    cz_u64 r = {.value = v};
    cz_g_bits_of(cs, r.bits, v, 64);
    return r;
}

cz_u64 cz_u64_const(uint64_t v) { return u64_of(NULL, v); }
cz_u64 cz_u64_alloc(cz_cs *cs, uint64_t v) { return u64_of(cs, v); }

cz_u64 cz_u64_from_bits_le(const cz_bool bits[64])
{
    cz_u64 r;
    memcpy(r.bits, bits, sizeof r.bits);
    r.value = cz_g_bits_value(r.bits, 64);
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
