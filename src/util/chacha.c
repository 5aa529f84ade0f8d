/* ChaCha (Bernstein 2008, RFC 8439 section 2), see cuzk/chacha.h. */
#include "cuzk/chacha.h"

#include <string.h>

static uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* RFC 8439 2.1: a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12;
 * a += b; d ^= a; d <<<= 8; c += d; b ^= c; b <<<= 7. */
#define QR(a, b, c, d)                                                       \
    do {                                                                     \
        a += b, d = rotl32(d ^ a, 16);                                       \
        c += d, b = rotl32(b ^ c, 12);                                       \
        a += b, d = rotl32(d ^ a, 8);                                        \
        c += d, b = rotl32(b ^ c, 7);                                        \
    } while (0)

/* rounds/2 double rounds, 8 quarter rounds each (4 x 4 additions, xors and
 * rotations): ChaCha8 = 128 quarter rounds of 12 operations, plus 16
 * additions. */
void cz_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds)
{
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned i = 0; i < rounds; i += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

void cz_chacha_setup(uint32_t state[16], const uint8_t key[32])
{
    state[0] = 0x61707865; /* "expa" */
    state[1] = 0x3320646e; /* "nd 3" */
    state[2] = 0x79622d32; /* "2-by" */
    state[3] = 0x6b206574; /* "te k" */
    for (int i = 0; i < 8; i++)
        state[4 + i] = le32(key + 4 * i);
}

/* ------------------------------------------------------- ChaChaXRng --- */

void cz_chacha_rng_init(cz_chacha_rng *r, const uint8_t seed[32], unsigned rounds)
{
    cz_chacha_setup(r->key_state, seed);
    r->key_state[12] = r->key_state[13] = 0; /* block counter */
    r->key_state[14] = r->key_state[15] = 0; /* stream */
    r->block = 0;
    r->index = 16;
    r->rounds = rounds;
}

static void rng_refill(cz_chacha_rng *r)
{
    r->key_state[12] = (uint32_t)r->block;
    r->key_state[13] = (uint32_t)(r->block >> 32);
    cz_chacha_block(r->buf, r->key_state, r->rounds);
    r->block++;
    r->index = 0;
}

uint32_t cz_chacha_rng_next_u32(cz_chacha_rng *r)
{
    if (r->index >= 16)
        rng_refill(r);
    return r->buf[r->index++];
}

uint64_t cz_chacha_rng_next_u64(cz_chacha_rng *r)
{
    if (r->index + 2 <= 16) { /* both words in this block (the common case) */
        uint64_t v = (uint64_t)r->buf[r->index] | (uint64_t)r->buf[r->index + 1] << 32;
        r->index += 2;
        return v;
    }
    uint64_t lo = cz_chacha_rng_next_u32(r);
    return lo | (uint64_t)cz_chacha_rng_next_u32(r) << 32;
}

/* -------------------------------------------------------------- ChaCha20 --- */

static void c20_refill(cz_chacha20 *c)
{
    uint32_t w[16];
    cz_chacha_block(w, c->state, 20);
    for (int i = 0; i < 16; i++) {
        c->ks[4 * i] = (uint8_t)w[i];
        c->ks[4 * i + 1] = (uint8_t)(w[i] >> 8);
        c->ks[4 * i + 2] = (uint8_t)(w[i] >> 16);
        c->ks[4 * i + 3] = (uint8_t)(w[i] >> 24);
    }
    c->state[12]++;
    c->used = 0;
}

void cz_chacha20_init(cz_chacha20 *c, const uint8_t key[32], const uint8_t nonce[12])
{
    cz_chacha_setup(c->state, key);
    c->state[12] = 0;
    for (int i = 0; i < 3; i++)
        c->state[13 + i] = le32(nonce + 4 * i);
    c->used = 64;
}

void cz_chacha20_seek(cz_chacha20 *c, uint64_t pos)
{
    c->state[12] = (uint32_t)(pos / 64);
    c->used = 64;
    if (pos % 64) {
        c20_refill(c);
        c->used = (unsigned)(pos % 64);
    }
}

void cz_chacha20_xor(cz_chacha20 *c, uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (c->used == 64)
            c20_refill(c);
        uint8_t k = c->ks[c->used++];
        out[i] = in ? (uint8_t)(in[i] ^ k) : k;
    }
}
