/* The stacked-DRG graph (see cuzk/filecoin/porep.h), written from rust-fil-proofs
 * @87348a74: storage-proofs-core/src/drgraph.rs (BucketGraph::parents,
 * derive_drg_seed), storage-proofs-core/src/crypto/{mod.rs
 * (derive_porep_domain_seed, the tags), feistel.rs (precompute, permute,
 * encode, feistel)}, storage-proofs-porep/src/stacked/vanilla/graph.rs
 * (derive_feistel_keys, correspondent, StackedGraph::parents).  The
 * reference path: one BLAKE2b a Feistel round; parent_cache.c has the
 * table-driven one. */
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/chacha.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/sha256.h"

/* sha256(tag || porep_id) (crypto/mod.rs derive_porep_domain_seed). */
static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32])
{
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    cz_sha256_update(&c, tag, strlen(tag));
    cz_sha256_update(&c, porep_id, 32);
    cz_sha256_final(&c, out);
}

void cz_fc_graph_init(cz_fc_graph *g, const cz_fc_shape *s, const uint8_t porep_id[32],
                      cz_fc_api api)
{
    uint8_t seed[32];
    memset(g, 0, sizeof *g);
    g->nodes = 1ull << s->log_nodes;
    g->api = api;
    domain_seed(seed, "Filecoin_DRSample", porep_id);
    memcpy(g->drg_seed, seed, 28);
    domain_seed(seed, "Filecoin_Feistel", porep_id);
    for (int k = 0; k < 4; k++)
        for (int i = 7; i >= 0; i--)
            g->feistel_keys[k] = g->feistel_keys[k] << 8 | seed[8 * k + i];
    /* feistel::precompute(8 nodes): the least h >= 1 with 4^h >= 8 nodes */
    uint64_t elements = 8 * g->nodes, pow4 = 4;
    unsigned h = 1;
    while (pow4 < elements)
        pow4 *= 4, h++;
    g->feistel_bits = h;
    g->feistel_mask = (1ull << h) - 1;
}

/* Bucket sampling (drgraph.rs BucketGraph::parents, m = 6, m' = 5):
 * metagraph node M = 5 v, B = ceil(log2 M) buckets; for each random parent
 * two u64s: bucket b = r1 % B + 1, distances [lo, hi] with hi = min(M,
 * 2^b), lo = max(2, hi / 2); parent (M - lo - r2 % (hi - lo + 1)) / 5, or
 * v - 1 should that be v (it cannot: the distance is >= 2).
 *
 * The source computes B as (M as f64).log2().ceil().  M = 5 v with v >= 2
 * is never a power of two, and for M < 2^36 its log2 is at least
 * 2^-36 / ln 2 away from the integers, far above the doubles' spacing, so
 * the float ceiling is the bit length of M, which this uses. */
void cz_fc_graph_drg_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_DRG_DEGREE])
{
    if (v < 2) { /* node 0 references itself, node 1 only node 0 */
        memset(out, 0, CZ_FC_DRG_DEGREE * sizeof out[0]);
        return;
    }
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        seed[28 + i] = (uint8_t)(v >> (8 * i));
    cz_chacha_rng r;
    cz_chacha_rng_init(&r, seed, 8);

    uint64_t meta = v * (CZ_FC_DRG_DEGREE - 1), buckets = 0;
    for (uint64_t x = meta; x; x >>= 1)
        buckets++;
    /* 1.0: the five in slots 0..4, v - 1 in slot 5; 1.1+: v - 1 in slot 0 */
    unsigned pred = g->api == CZ_FC_API_1_0 ? CZ_FC_DRG_DEGREE - 1 : 0;
    uint32_t *other = g->api == CZ_FC_API_1_0 ? out : out + 1;
    for (int k = 0; k < CZ_FC_DRG_DEGREE - 1; k++) {
        uint64_t bucket = cz_chacha_rng_next_u64(&r) % buckets + 1;
        uint64_t hi = meta < (1ull << bucket) ? meta : 1ull << bucket;
        uint64_t lo = hi >> 1 > 2 ? hi >> 1 : 2;
        uint64_t dist = lo + cz_chacha_rng_next_u64(&r) % (hi - lo + 1);
        uint32_t p = (uint32_t)((meta - dist) / (CZ_FC_DRG_DEGREE - 1));
        other[k] = p == v ? (uint32_t)(v - 1) : p;
    }
    out[pred] = (uint32_t)(v - 1);
}

/* feistel.rs feistel(): BLAKE2b-512 of right || key, both u64 big-endian,
 * its first 8 bytes big-endian, masked. */
uint64_t cz_fc_feistel_round(const cz_fc_graph *g, uint64_t right, unsigned round)
{
    uint8_t data[16], hash[64];
    uint64_t key = g->feistel_keys[round];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cz_blake2b(hash, 64, NULL, 0, data, 16);
    uint64_t f = 0;
    for (int i = 0; i < 8; i++)
        f = f << 8 | hash[i];
    return f & g->feistel_mask;
}

/* encode: (L, R) = (x >> h, x & mask); three rounds (L, R) <- (R, L ^ F(R,
 * k_i)); L << h | R.  permute re-encodes while the value is >= 8 nodes
 * (cycle-walking in the 4^h domain). */
static uint64_t feistel_permute(const cz_fc_graph *g, uint64_t x)
{
    uint64_t elements = 8 * g->nodes;
    do {
        uint64_t l = (x >> g->feistel_bits) & g->feistel_mask, r = x & g->feistel_mask;
        for (unsigned k = 0; k < 3; k++) {
            uint64_t t = l ^ cz_fc_feistel_round(g, r, k);
            l = r, r = t;
        }
        x = l << g->feistel_bits | r;
    } while (x >= elements);
    return x;
}

/* graph.rs correspondent(v, i) for i = 0..7. */
void cz_fc_graph_exp_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_EXP_DEGREE])
{
    for (unsigned i = 0; i < CZ_FC_EXP_DEGREE; i++) {
        uint64_t t = feistel_permute(g, v * CZ_FC_EXP_DEGREE + i);
        out[i] = g->api == CZ_FC_API_1_0 ? (uint32_t)t / CZ_FC_EXP_DEGREE
                                         : (uint32_t)(t / CZ_FC_EXP_DEGREE);
    }
}

void cz_fc_graph_parents(const cz_fc_graph *g, uint64_t v, uint32_t out[CZ_FC_PARENTS])
{
    cz_fc_graph_drg_parents(g, v, out);
    cz_fc_graph_exp_parents(g, v, out + CZ_FC_DRG_DEGREE);
}
