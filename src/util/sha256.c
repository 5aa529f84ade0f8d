/* SHA-256 (FIPS 180-4), see cuzk/sha256.h. */
#include "cuzk/sha256.h"

#include <string.h>

const uint32_t cz_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t cz_sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

void cz_sha256_compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64], s[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(s, state, sizeof s);
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = rotr32(s[4], 6) ^ rotr32(s[4], 11) ^ rotr32(s[4], 25);
        uint32_t ch = (s[4] & s[5]) ^ (~s[4] & s[6]);
        uint32_t t1 = s[7] + S1 + ch + cz_sha256_k[i] + w[i];
        uint32_t S0 = rotr32(s[0], 2) ^ rotr32(s[0], 13) ^ rotr32(s[0], 22);
        uint32_t maj = (s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]);
        memmove(s + 1, s, 7 * sizeof s[0]);
        s[4] += t1;
        s[0] = t1 + S0 + maj;
    }
    for (int i = 0; i < 8; i++)
        state[i] += s[i];
}

void cz_sha256_init(cz_sha256_ctx *ctx)
{
    memcpy(ctx->h, cz_sha256_iv, sizeof ctx->h);
    ctx->fill = 0;
    ctx->len = 0;
}

void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = data;
    ctx->len += len;
    if (ctx->fill > 0) {
        size_t k = 64 - ctx->fill < len ? 64 - ctx->fill : len;
        memcpy(ctx->buf + ctx->fill, p, k);
        ctx->fill += k, p += k, len -= k;
        if (ctx->fill < 64)
            return;
        cz_sha256_compress(ctx->h, ctx->buf);
        ctx->fill = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        cz_sha256_compress(ctx->h, p);
    if (len > 0)
        memcpy(ctx->buf, p, len);
    ctx->fill = len;
}

void cz_sha256_update_u64(cz_sha256_ctx *ctx, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cz_sha256_update(ctx, b, sizeof b);
}

/* Padding: 0x80, zeros to 56 mod 64, the bit length big-endian. */
void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[32])
{
    uint64_t bits = ctx->len * 8;
    ctx->buf[ctx->fill++] = 0x80;
    if (ctx->fill > 56) {
        memset(ctx->buf + ctx->fill, 0, 64 - ctx->fill);
        cz_sha256_compress(ctx->h, ctx->buf);
        ctx->fill = 0;
    }
    memset(ctx->buf + ctx->fill, 0, 56 - ctx->fill);
    for (int i = 0; i < 8; i++)
        ctx->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    cz_sha256_compress(ctx->h, ctx->buf);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(ctx->h[i] >> (24 - 8 * j));
    cz_sha256_init(ctx);
}

void cz_sha256(uint8_t out[32], const uint8_t *msg, size_t len)
{
    cz_sha256_ctx ctx;
    cz_sha256_init(&ctx);
    if (len > 0)
        cz_sha256_update(&ctx, msg, len);
    cz_sha256_final(&ctx, out);
}
