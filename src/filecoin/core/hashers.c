/* Filecoin's hashers over 32-byte domain values (see cuzk/filecoin/core.h):
 * filecoin-hashers' sha256 domain (SHA-256 with the top two bits of byte
 * 31 cleared) and poseidon domain (neptune's Poseidon over canonical Fr,
 * HashType::MerkleTree), and fr32's padding of raw data (fr32/src/
 * padding.rs: a little-endian bit stream, 2 zero bits after every 254). */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"
#include "cuzk/poseidon.h"
#include "cuzk/sha256.h"

void cz_fc_sha256_trunc(cz_fc_d *out, const void *msg, size_t len)
{
    cz_sha256(out->b, msg, len);
    out->b[31] &= 0x3f;
}

void cz_fc_sha256_node(cz_fc_d *out, const cz_fc_d *left, const cz_fc_d *right)
{
    uint8_t m[64];
    memcpy(m, left->b, 32);
    memcpy(m + 32, right->b, 32);
    cz_fc_sha256_trunc(out, m, sizeof m);
}

int cz_fc_d_to_fr(cz_fr *out, const cz_fc_d *d) { return cz_fr_from_bytes_le(out, d->b); }

void cz_fc_d_from_fr(cz_fc_d *out, const cz_fr *a) { cz_fr_to_bytes_le(out->b, a); }

int cz_fc_poseidon(cz_fc_d *out, const cz_fc_d *in, unsigned arity)
{
    cz_fr x[CZ_POSEIDON_MAX_ARITY], h;
    if (out == NULL || in == NULL || arity > CZ_POSEIDON_MAX_ARITY)
        return CZ_ERR_INVALID_ARG;
    for (unsigned i = 0; i < arity; i++)
        if (cz_fc_d_to_fr(&x[i], &in[i]) != CZ_OK)
            return CZ_ERR_NOT_CANONICAL;
    int rc = cz_poseidon_hash(&h, x, arity);
    if (rc == CZ_OK)
        cz_fc_d_from_fr(out, &h);
    return rc;
}

/* ------------------------------------------------------------- fr32 --- */

size_t cz_fc_fr32_padded_len(size_t raw_len) { return raw_len / 127 * 128; }

/* 127 raw bytes (1016 bits) = four 254-bit units; unit u takes raw bits
 * [254u, 254u + 254) into bits 0..253 of node u, bits 254 and 255 zero. */
void cz_fc_fr32_pad(uint8_t *out, const uint8_t *raw, size_t raw_len)
{
    for (size_t c = 0; c + 127 <= raw_len; c += 127, raw += 127, out += 128) {
        memset(out, 0, 128);
        for (unsigned u = 0; u < 4; u++) {
            for (unsigned i = 0; i < 254; i++) {
                unsigned src = 254 * u + i;
                unsigned bit = (raw[src >> 3] >> (src & 7)) & 1;
                out[32 * u + (i >> 3)] |= (uint8_t)(bit << (i & 7));
            }
        }
    }
}

int cz_fc_fr32_unpad(uint8_t *out, const uint8_t *padded, size_t padded_len)
{
    for (size_t c = 0; c + 128 <= padded_len; c += 128, padded += 128, out += 127) {
        memset(out, 0, 127);
        for (unsigned u = 0; u < 4; u++) {
            if (padded[32 * u + 31] & 0xc0)
                return CZ_ERR_BAD_FORMAT;
            for (unsigned i = 0; i < 254; i++) {
                unsigned dst = 254 * u + i;
                unsigned bit = (padded[32 * u + (i >> 3)] >> (i & 7)) & 1;
                out[dst >> 3] |= (uint8_t)(bit << (dst & 7));
            }
        }
    }
    return CZ_OK;
}
