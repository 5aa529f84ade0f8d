/* cuzk: the ChaCha block function and the two ways Filecoin uses it.
 *
 *  - cz_chacha_rng: rand_chacha 0.3's ChaCha8Rng::from_seed, the source of
 *    the DRG parents (storage-proofs-core drgraph.rs).  Bernstein's layout:
 *    words 12, 13 are a 64-bit block counter from 0, words 14, 15 the
 *    64-bit stream id, 0.
 *  - cz_chacha20: the chacha20 0.9 crate's ChaCha20, the keystream of the
 *    synthetic PoRep challenges (storage-proofs-porep challenges.rs).  The
 *    IETF layout (RFC 8439): word 12 a 32-bit block counter, words 13..15
 *    a 12-byte nonce.  The crate starts the counter at 0 (RFC 8439's
 *    encryption example starts at 1) and seeks by byte.
 *
 * Both are the same permutation (Bernstein, "ChaCha, a variant of Salsa20",
 * 2008): state = "expand 32-byte k" || key as 8 LE words || 4 words of
 * counter and nonce; rounds/2 double rounds of four column then four
 * diagonal quarter rounds; the input added word-wise; the keystream is
 * the output words little-endian.  Nothing secret passes through here in
 * Filecoin (seeds come from public ids), but the code has no data-dependent
 * branches or indexes anyway. */
#ifndef CUZK_CHACHA_H
#define CUZK_CHACHA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out = ChaCha_rounds(in) + in, word-wise.  rounds is even (8, 12, 20);
 * out may alias in. */
void cz_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds);

/* The state words 0..11: the constant and key[0..32) as LE words. */
void cz_chacha_setup(uint32_t state[16], const uint8_t key[32]);

/* ------------------------------------------------------- ChaChaXRng --- */

/* rand_chacha 0.3.1's ChaChaXRng::from_seed(seed) behind rand_core 0.6's
 * BlockRng (X = rounds: ChaCha8Rng for the DRG, ChaCha20Rng for the
 * published rand_chacha vectors).  Its words are the ChaCha keystream of
 * key = seed, stream 0, block counter 0, 1, 2, ... read as LE u32 in
 * order; BlockRng buffers four blocks (64 words) and
 *   next_u32 = the next word;
 *   next_u64 = lo | hi << 32 of the next two words, in every one of its
 *     three cases: two words inside the buffer; the buffer used up (refill,
 *     words 0 and 1); one word left (word 63 low, refill, new word 0 high,
 *     so nothing is skipped).
 * So the sequence is the keystream's words whatever the mix of calls;
 * this generator keeps one block instead of four (the DRG takes 20 words a
 * node: two blocks, not four).  rand 0.8's rng.gen::<u64>() is next_u64. */
typedef struct {
    uint32_t key_state[16]; /* constant, key; counter and stream 0 */
    uint32_t buf[16];       /* block `block - 1` */
    uint64_t block;         /* the next block to generate */
    unsigned index;         /* next word of buf; 16: used up */
    unsigned rounds;
} cz_chacha_rng;

/* rounds: 8 for ChaCha8Rng, 20 for ChaCha20Rng (any even count works). */
void cz_chacha_rng_init(cz_chacha_rng *r, const uint8_t seed[32], unsigned rounds);
uint32_t cz_chacha_rng_next_u32(cz_chacha_rng *r);
uint64_t cz_chacha_rng_next_u64(cz_chacha_rng *r);

/* ------------------------------------------------------------- ChaCha20 --- */

/* chacha20 0.9's ChaCha20::new(key, nonce) (IETF, 20 rounds, counter from
 * 0): apply_keystream XORs the stream into a buffer; try_seek(pos) moves to
 * byte pos.  The stream is 2^32 blocks (256 GiB) long; running past its
 * end is the caller's error (the crate refuses it; Filecoin's largest use,
 * 2^18 synthetic challenges of 32 bytes, is 8 MiB). */
typedef struct {
    uint32_t state[16]; /* word 12: the block of ks */
    uint8_t ks[64];     /* keystream of block state[12] - 1 */
    unsigned used;      /* bytes of ks consumed; 64: none left */
} cz_chacha20;

void cz_chacha20_init(cz_chacha20 *c, const uint8_t key[32], const uint8_t nonce[12]);
/* Moves to byte pos of the stream (pos < 2^38). */
void cz_chacha20_seek(cz_chacha20 *c, uint64_t pos);
/* out[i] = in[i] ^ keystream for n bytes, advancing the position; in NULL
 * writes the keystream itself.  out may equal in. */
void cz_chacha20_xor(cz_chacha20 *c, uint8_t *out, const uint8_t *in, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CHACHA_H */
