/* BLAKE2b (RFC 7693), see cuzk/blake2b.h. */
#include "cuzk/blake2b.h"

#include <string.h>

#include "cuzk/err.h"

const uint64_t cz_blake2b_iv[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

const uint8_t cz_blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, /* rounds 10, 11 = 0, 1 */
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* G (RFC 7693 3.1): a += b + x; d = (d ^ a) >>> 32; c += d; b = (b ^ c) >>> 24;
 * a += b + y; d = (d ^ a) >>> 16; c += d; b = (b ^ c) >>> 63. */
#define G(a, b, c, d, x, y)                                                  \
    do {                                                                     \
        a += b + (x), d = rotr64(d ^ a, 32);                                 \
        c += d, b = rotr64(b ^ c, 24);                                       \
        a += b + (y), d = rotr64(d ^ a, 16);                                 \
        c += d, b = rotr64(b ^ c, 63);                                       \
    } while (0)

/* 12 rounds of 8 G: 96 G of 14 operations. */
void cz_blake2b_compress(uint64_t h[8], const uint8_t block[CZ_BLAKE2B_BLOCK], uint64_t t,
                         int last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++)
        m[i] = le64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[8 + i] = cz_blake2b_iv[i];
    }
    v[12] ^= t; /* the counter's high word (v[13]) stays: t < 2^64 */
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = cz_blake2b_sigma[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[8 + i];
}

int cz_blake2b_init(cz_blake2b_ctx *ctx, size_t outlen, const void *key, size_t keylen)
{
    if (!ctx || outlen < 1 || outlen > CZ_BLAKE2B_OUTMAX || keylen > CZ_BLAKE2B_KEYMAX ||
        (keylen && !key))
        return CZ_ERR_INVALID_ARG;
    memcpy(ctx->h, cz_blake2b_iv, sizeof ctx->h);
    /* parameter block word 0: digest length, key length, fanout 1, depth 1 */
    ctx->h[0] ^= 0x01010000ull ^ (uint64_t)keylen << 8 ^ (uint64_t)outlen;
    ctx->t = 0;
    ctx->fill = 0;
    ctx->outlen = outlen;
    if (keylen) { /* the key, zero-padded, is the first block */
        memset(ctx->buf, 0, sizeof ctx->buf);
        memcpy(ctx->buf, key, keylen);
        ctx->fill = CZ_BLAKE2B_BLOCK;
    }
    return CZ_OK;
}

void cz_blake2b_update(cz_blake2b_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len > 0) {
        if (ctx->fill == CZ_BLAKE2B_BLOCK) { /* more follows: the buffer is not last */
            ctx->t += CZ_BLAKE2B_BLOCK;
            cz_blake2b_compress(ctx->h, ctx->buf, ctx->t, 0);
            ctx->fill = 0;
        }
        if (ctx->fill == 0) {
            /* whole blocks straight from the input, keeping the last back */
            while (len > CZ_BLAKE2B_BLOCK) {
                ctx->t += CZ_BLAKE2B_BLOCK;
                cz_blake2b_compress(ctx->h, p, ctx->t, 0);
                p += CZ_BLAKE2B_BLOCK;
                len -= CZ_BLAKE2B_BLOCK;
            }
        }
        size_t k = CZ_BLAKE2B_BLOCK - ctx->fill;
        if (k > len)
            k = len;
        memcpy(ctx->buf + ctx->fill, p, k);
        ctx->fill += k;
        p += k;
        len -= k;
    }
}

void cz_blake2b_final(cz_blake2b_ctx *ctx, uint8_t *out)
{
    ctx->t += ctx->fill;
    memset(ctx->buf + ctx->fill, 0, CZ_BLAKE2B_BLOCK - ctx->fill);
    cz_blake2b_compress(ctx->h, ctx->buf, ctx->t, 1);
    for (size_t i = 0; i < ctx->outlen; i++)
        out[i] = (uint8_t)(ctx->h[i / 8] >> (8 * (i % 8)));
    memset(ctx, 0, sizeof *ctx);
}

int cz_blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *msg,
               size_t len)
{
    cz_blake2b_ctx c;
    int rc = cz_blake2b_init(&c, outlen, key, keylen);
    if (rc != CZ_OK)
        return rc;
    cz_blake2b_update(&c, msg, len);
    cz_blake2b_final(&c, out);
    return CZ_OK;
}
