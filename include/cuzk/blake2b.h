/* cuzk: BLAKE2b (RFC 7693), keyed or not, digests of 1..64 bytes.
 *
 * Filecoin uses it twice: unkeyed BLAKE2b-512 of 16 bytes as the Feistel
 * round function of the expander graph (storage-proofs-core
 * crypto/feistel.rs, blake2b_simd::blake2b), and keyed BLAKE2b-256 as the
 * key of the synthetic challenges' ChaCha20 (storage-proofs-porep
 * challenges.rs, blake2b_simd Params hash_length 32, key).  blake2b_simd's
 * Params set only the digest length and the key here: salt, personal,
 * fanout 1, depth 1, leaf length 0 and the rest as RFC 7693 2.5 defaults
 * them, which is what this module implements.  Not constant time in the
 * message length; no secrets pass through it in Filecoin. */
#ifndef CUZK_BLAKE2B_H
#define CUZK_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_BLAKE2B_BLOCK  128
#define CZ_BLAKE2B_OUTMAX 64
#define CZ_BLAKE2B_KEYMAX 64

/* The initialisation vector (SHA-512's) and the message schedule. */
extern const uint64_t cz_blake2b_iv[8];
extern const uint8_t cz_blake2b_sigma[12][16];

/* F (RFC 7693 3.2): compresses block into h; t is the byte count so far
 * (the RFC's 128-bit counter; 64 bits here, 16 EiB), last whether this is
 * the final block. */
void cz_blake2b_compress(uint64_t h[8], const uint8_t block[CZ_BLAKE2B_BLOCK], uint64_t t,
                         int last);

typedef struct {
    uint64_t h[8];
    uint64_t t;                     /* bytes compressed so far */
    uint8_t buf[CZ_BLAKE2B_BLOCK];  /* bytes not yet compressed (the last block waits) */
    size_t fill;
    size_t outlen;
} cz_blake2b_ctx;

/* Starts a hash of outlen (1..64) bytes under key[0..keylen) (keylen
 * 0..64; key may be NULL when 0).  CZ_OK or CZ_ERR_INVALID_ARG (then ctx
 * is unusable). */
int cz_blake2b_init(cz_blake2b_ctx *ctx, size_t outlen, const void *key, size_t keylen);
void cz_blake2b_update(cz_blake2b_ctx *ctx, const void *data, size_t len);
/* Writes ctx->outlen bytes; ctx must be initialised again before reuse. */
void cz_blake2b_final(cz_blake2b_ctx *ctx, uint8_t *out);

/* One shot: out[0..outlen) = BLAKE2b-(8 outlen)(key; msg).  msg may be
 * NULL when len is 0.  CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *msg,
               size_t len);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_BLAKE2B_H */
