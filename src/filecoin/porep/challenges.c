/* PoRep challenges (see cuzk/filecoin/porep.h), storage-proofs-porep stacked/
 * vanilla/challenges.rs.  A challenge is a 256-bit little-endian integer
 * x reduced to (x mod (nodes - 1)) + 1, so node 0 is never challenged.
 * Challenge j = challenges x k + i of partition k:
 *
 *   interactive  x = sha256(replica_id || seed || j as u32 LE)
 *   NI           x = sha256("filecoin.io|PoRep|1|NonInteractive|1" ||
 *                           replica_id || comm_r || j as u32 LE)
 *   synthetic    S = min(nodes, 2^18) synthetic challenges: the 32-byte
 *                chunks of the ChaCha20 stream keyed blake2b-256(key
 *                "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id
 *                || comm_r), nonce "synth-porep\0"; challenge j is the
 *                synthetic one at the index u32 LE (mod S) found at byte
 *                4j of the stream keyed blake2b-256(key "...|Selection",
 *                replica_id || seed). */
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/chacha.h"
#include "cuzk/err.h"
#include "cuzk/sha256.h"
#include "filecoin/porep/internal.h"

#define SYNTH_COUNT   ((uint64_t)1 << 18)
#define SYNTH_NONCE   "synth-porep"    /* and its terminating zero: 12 bytes */
#define TAG_NI        "filecoin.io|PoRep|1|NonInteractive|1"
#define TAG_GENERATE  "filecoin.io|PoRep|1|Synthetic|1|Generation"
#define TAG_SELECT    "filecoin.io|PoRep|1|Synthetic|1|Selection"

/* (x mod (nodes - 1)) + 1 of a 256-bit little-endian x. */
static uint64_t to_challenge(const uint8_t x[32], uint64_t nodes)
{
    uint64_t m = nodes - 1;
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--)
        r = ((r << 8) | x[i]) % m;
    return (uint64_t)r + 1;
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void prf(cz_chacha20 *c, const char *tag, const cz_fc_d *replica_id, const uint8_t x[32])
{
    uint8_t msg[64], key[32];
    memcpy(msg, replica_id->b, 32);
    memcpy(msg + 32, x, 32);
    cz_blake2b(key, sizeof key, tag, strlen(tag), msg, sizeof msg);
    cz_chacha20_init(c, key, (const uint8_t *)SYNTH_NONCE);
}

void cz_fc_synth_init(cz_fc_synth_gen *s, uint64_t nodes, uint64_t count,
                      const cz_fc_d *replica_id, const cz_fc_d *comm_r)
{
    s->nodes = nodes;
    s->count = count;
    s->replica_id = *replica_id;
    prf(&s->gen, TAG_GENERATE, replica_id, comm_r->b);
}

uint64_t cz_fc_synth_at(cz_fc_synth_gen *s, uint64_t i)
{
    uint8_t h[32];
    cz_chacha20_seek(&s->gen, 32 * i);
    cz_chacha20_xor(&s->gen, h, NULL, sizeof h);
    return to_challenge(h, s->nodes);
}

void cz_fc_synth_select(uint64_t *out, const cz_fc_synth_gen *s, const uint8_t rand[32],
                        uint64_t first, unsigned n)
{
    cz_chacha20 sel;
    prf(&sel, TAG_SELECT, &s->replica_id, rand);
    cz_chacha20_seek(&sel, 4 * first);
    for (unsigned i = 0; i < n; i++) {
        uint8_t b[4];
        cz_chacha20_xor(&sel, b, NULL, sizeof b);
        out[i] = (b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24) %
                 s->count;
    }
}

int cz_fc_challenges(uint64_t *out, const cz_fc_proof_type *t, const cz_fc_d *replica_id,
                     const uint8_t seed[32], const cz_fc_d *comm_r, unsigned k)
{
    if (t == NULL || k >= t->partitions || (t->feature != CZ_FC_INTERACTIVE && comm_r == NULL))
        return CZ_ERR_INVALID_ARG;
    uint64_t nodes = (uint64_t)1 << t->shape->log_nodes;
    unsigned n = t->shape->challenges;
    uint8_t h[32];

    if (t->feature == CZ_FC_SYNTHETIC) {
        cz_fc_synth_gen s;
        cz_fc_synth_init(&s, nodes, nodes < SYNTH_COUNT ? nodes : SYNTH_COUNT, replica_id, comm_r);
        cz_fc_synth_select(out, &s, seed, (uint64_t)n * k, n);
        for (unsigned i = 0; i < n; i++)
            out[i] = cz_fc_synth_at(&s, out[i]);
        return CZ_OK;
    }

    cz_sha256_ctx base;
    cz_sha256_init(&base);
    if (t->feature == CZ_FC_NI) {
        cz_sha256_update(&base, TAG_NI, strlen(TAG_NI));
        cz_sha256_update(&base, replica_id->b, 32);
        cz_sha256_update(&base, comm_r->b, 32);
    } else {
        cz_sha256_update(&base, replica_id->b, 32);
        cz_sha256_update(&base, seed, 32);
    }
    for (unsigned i = 0; i < n; i++) {
        uint8_t j[4];
        put_u32le(j, n * k + i);
        cz_sha256_ctx c = base;
        cz_sha256_update(&c, j, sizeof j);
        cz_sha256_final(&c, h);
        out[i] = to_challenge(h, nodes);
    }
    return CZ_OK;
}
