/* FallbackPoSt challenges (cuzk/filecoin/post.h; docs/post.md section 3), from
 * storage-proofs-post @87348a7 fallback/vanilla.rs
 * (generate_leaf_challenge_inner, generate_sector_challenge) and
 * fallback/utils.rs (get_challenge_index). */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/sha256.h"

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

uint64_t cz_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                uint64_t challenge_index, uint64_t leaves)
{
    uint8_t msg[48], d[32];
    memcpy(msg, randomness, 32);
    put_u64(msg + 32, sector_id);
    put_u64(msg + 40, challenge_index);
    cz_sha256(d, msg, sizeof msg);
    return get_u64(d) % leaves;
}

uint64_t cz_post_challenge_index(cz_fc_api api, uint64_t sector_index, unsigned challenge_count,
                                 unsigned n)
{
    return api == CZ_FC_API_1_2 ? n : sector_index * challenge_count + n;
}

uint64_t cz_post_sector_index(const cz_post_shape *s, unsigned k, size_t i)
{
    return s->kind == CZ_POST_WINNING ? 0 : (uint64_t)k * s->sector_count + i;
}

void cz_post_sector_challenges(uint64_t *out, const cz_post_shape *s, cz_fc_api api,
                               const uint8_t randomness[32], uint64_t sector_id,
                               uint64_t sector_index)
{
    /* the vanilla view: a Winning blob is one sector of 66 challenges */
    unsigned c = cz_post_blob_challenges(s);
    uint64_t leaves = (uint64_t)1 << s->tree.log_nodes;
    for (unsigned n = 0; n < c; n++)
        out[n] = cz_post_leaf_challenge(randomness, sector_id,
                                        cz_post_challenge_index(api, sector_index, c, n), leaves);
}

int cz_post_winning_sector(uint64_t *out, const uint8_t prover_id[32],
                           const uint8_t randomness[32], uint64_t n_sectors)
{
    if (out == NULL || n_sectors == 0)
        return CZ_ERR_INVALID_ARG;
    uint8_t msg[72], d[32];
    memcpy(msg, prover_id, 32);
    memcpy(msg + 32, randomness, 32);
    put_u64(msg + 64, 0);
    cz_sha256(d, msg, sizeof msg);
    *out = get_u64(d) % n_sectors;
    return CZ_OK;
}

int cz_post_randomness_check(const uint8_t randomness[32])
{
    cz_fr r;
    return cz_fr_from_bytes_le(&r, randomness);
}
