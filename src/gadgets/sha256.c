/* SHA-256 (FIPS 180-4): bellpepper's circuit, with its deferred additions,
 * and the native function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "gadgets/gadgets_internal.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* ---------------------------------------------------------------- native --- */

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
        uint32_t t1 = s[7] + S1 + ch + K[i] + w[i];
        uint32_t S0 = rotr32(s[0], 2) ^ rotr32(s[0], 13) ^ rotr32(s[0], 22);
        uint32_t maj = (s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]);
        memmove(s + 1, s, 7 * sizeof s[0]);
        s[4] += t1;
        s[0] = t1 + S0 + maj;
    }
    for (int i = 0; i < 8; i++)
        state[i] += s[i];
}

void cz_sha256(uint8_t out[32], const uint8_t *msg, size_t len)
{
    uint32_t st[8];
    uint8_t blk[64];
    memcpy(st, IV, sizeof st);
    size_t off = 0;
    for (; len - off >= 64; off += 64)
        cz_sha256_compress(st, msg + off);
    size_t rem = len - off;
    memset(blk, 0, sizeof blk);
    if (rem > 0)
        memcpy(blk, msg + off, rem);
    blk[rem] = 0x80;
    if (rem >= 56) {
        cz_sha256_compress(st, blk);
        memset(blk, 0, sizeof blk);
    }
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        blk[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    cz_sha256_compress(st, blk);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
}

/* --------------------------------------------------------------- circuit --- */

void cz_sha256_iv_gadget(cz_u32 iv[8])
{
    for (int i = 0; i < 8; i++)
        iv[i] = cz_u32_const(IV[i]);
}

/* sigma(x) = rotr(x, r0) ^ rotr(x, r1) ^ (shift ? shr(x, r2) : rotr(x, r2)),
 * xored left to right as bellpepper does. */
static cz_u32 sigma(cz_cs *cs, const cz_u32 *x, unsigned r0, unsigned r1, unsigned r2, bool shift)
{
    cz_u32 t = cz_u32_rotr(x, r0), u = cz_u32_rotr(x, r1);
    t = cz_u32_xor(cs, &t, &u);
    u = shift ? cz_u32_shr(x, r2) : cz_u32_rotr(x, r2);
    return cz_u32_xor(cs, &t, &u);
}

/* A working variable whose addition is deferred to its first use: the
 * operands of temp1 (+ d or + temp2), added by one addmany then. */
typedef struct {
    cz_u32 ops[10];
    size_t n; /* 0: concrete, value in ops[0] */
} deferred;

static cz_u32 compute(cz_multieq *m, deferred *d, const cz_u32 *extra)
{
    if (d->n == 0)
        return d->ops[0];
    if (extra != NULL)
        d->ops[d->n++] = *extra;
    return cz_u32_addmany(m, d->ops, d->n);
}

void cz_sha256_compress_gadget(cz_cs *cs, const cz_bool block[512], const cz_u32 state[8],
                               cz_u32 out[8])
{
    /* ~40 KB of stack: w, the deferred operands and a copy of the state
     * (out may alias state) */
    cz_u32 w[64], st[8];
    deferred da, de, *a = &da, *e = &de;
    memcpy(st, state, sizeof st);
    for (int i = 0; i < 16; i++)
        w[i] = cz_u32_from_bits_be(block + 32 * i);
    cz_multieq m;
    cz_multieq_init(&m, cs);
    char name[32];
    for (int i = 16; i < 64; i++) {
        snprintf(name, sizeof name, "w extension %d", i);
        cz_cs_push_ns(cs, name);
        cz_u32 ops[4];
        ops[0] = w[i - 16];
        ops[1] = sigma(cs, &w[i - 15], 7, 18, 3, true);
        ops[2] = w[i - 7];
        ops[3] = sigma(cs, &w[i - 2], 17, 19, 10, true);
        w[i] = cz_u32_addmany(&m, ops, 4);
        cz_cs_pop_ns(cs);
    }
    a->ops[0] = st[0];
    a->n = 0;
    e->ops[0] = st[4];
    e->n = 0;
    cz_u32 b = st[1], c = st[2], d = st[3];
    cz_u32 f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; i++) {
        snprintf(name, sizeof name, "compression round %d", i);
        cz_cs_push_ns(cs, name);
        cz_u32 new_e = compute(&m, e, NULL);
        cz_u32 s1 = sigma(cs, &new_e, 6, 11, 25, false);
        cz_u32 ch = cz_u32_sha256_ch(cs, &new_e, &f, &g);
        cz_u32 new_a = compute(&m, a, NULL);
        cz_u32 s0 = sigma(cs, &new_a, 2, 13, 22, false);
        cz_u32 maj = cz_u32_sha256_maj(cs, &new_a, &b, &c);
        /* temp1 = h, s1, ch, K[i], w[i]; e = temp1 + d; a = temp1 + s0 + maj */
        cz_u32 t1[5] = {h, s1, ch, cz_u32_const(K[i]), w[i]};
        h = g;
        g = f;
        f = new_e;
        memcpy(e->ops, t1, sizeof t1);
        e->ops[5] = d;
        e->n = 6;
        d = c;
        c = b;
        b = new_a;
        memcpy(a->ops, t1, sizeof t1);
        a->ops[5] = s0;
        a->ops[6] = maj;
        a->n = 7;
        cz_cs_pop_ns(cs);
    }
    out[0] = compute(&m, a, &st[0]);
    cz_u32 ops[2];
    ops[0] = st[1], ops[1] = b;
    out[1] = cz_u32_addmany(&m, ops, 2);
    ops[0] = st[2], ops[1] = c;
    out[2] = cz_u32_addmany(&m, ops, 2);
    ops[0] = st[3], ops[1] = d;
    out[3] = cz_u32_addmany(&m, ops, 2);
    out[4] = compute(&m, e, &st[4]);
    ops[0] = st[5], ops[1] = f;
    out[5] = cz_u32_addmany(&m, ops, 2);
    ops[0] = st[6], ops[1] = g;
    out[6] = cz_u32_addmany(&m, ops, 2);
    ops[0] = st[7], ops[1] = h;
    out[7] = cz_u32_addmany(&m, ops, 2);
    cz_multieq_finish(&m);
}

int cz_sha256_gadget(cz_cs *cs, const cz_bool *bits, size_t n, cz_bool out[256])
{
    if (n % 8 != 0)
        return CZ_ERR_INVALID_ARG;
    size_t total = (n + 1 + 64 + 511) / 512 * 512;
    cz_bool *p = malloc(total * sizeof *p);
    if (p == NULL)
        return CZ_ERR_NOMEM;
    if (n > 0)
        memcpy(p, bits, n * sizeof *p);
    p[n] = cz_bool_const(true);
    for (size_t i = n + 1; i < total - 64; i++)
        p[i] = cz_bool_const(false);
    for (int i = 0; i < 64; i++)
        p[total - 64 + i] = cz_bool_const(((uint64_t)n >> (63 - i)) & 1);
    cz_u32 cur[8];
    cz_sha256_iv_gadget(cur);
    char name[32];
    for (size_t k = 0; k < total / 512; k++) {
        snprintf(name, sizeof name, "block %zu", k);
        cz_cs_push_ns(cs, name);
        cz_sha256_compress_gadget(cs, p + 512 * k, cur, cur);
        cz_cs_pop_ns(cs);
    }
    for (int i = 0; i < 8; i++)
        cz_u32_to_bits_be(&cur[i], out + 32 * i);
    free(p);
    return CZ_OK;
}
