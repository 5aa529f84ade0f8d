/* SHA-256 (FIPS 180-4) as bellpepper's circuit, with its deferred additions
 * (the native function is cuzk/sha256.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/sha256.h"
#include "gadgets/gadgets_internal.h"

/* --------------------------------------------------------------- circuit --- */

void cz_sha256_iv_gadget(cz_u32 iv[8])
{
    for (int i = 0; i < 8; i++)
        iv[i] = cz_u32_const(cz_sha256_iv[i]);
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
        /* temp1 = h, s1, ch, cz_sha256_k[i], w[i]; e = temp1 + d; a = temp1 + s0 + maj */
        cz_u32 t1[5] = {h, s1, ch, cz_u32_const(cz_sha256_k[i]), w[i]};
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
    /* out[k] = st[k] + the k-th working variable, in order; a and e are
     * still deferred sums. */
    const cz_u32 *vars[8] = {NULL, &b, &c, &d, NULL, &f, &g, &h};
    for (int k = 0; k < 8; k++) {
        if (vars[k] == NULL) {
            out[k] = compute(&m, k == 0 ? a : e, &st[k]);
            continue;
        }
        cz_u32 ops[2] = {st[k], *vars[k]};
        out[k] = cz_u32_addmany(&m, ops, 2);
    }
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
