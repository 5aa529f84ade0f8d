/* cuzk: native SHA-256 (FIPS 180-4), one-shot and streaming.
 *
 * The primitive under Filecoin's hashers (comm_d, labels, challenges), the
 * engine's request digests and the R1CS fingerprints.  Portable C, no
 * secrets pass through it (not constant time in the message length). */
#ifndef CUZK_SHA256_H
#define CUZK_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The round constants and the initial hash value (the circuit gadgets use
 * them too). */
extern const uint32_t cz_sha256_k[64];
extern const uint32_t cz_sha256_iv[8];

/* One compression of a 64-byte block into state (big-endian words). */
void cz_sha256_compress(uint32_t state[8], const uint8_t block[64]);

/* SHA-256 of msg[0..len) into out.  msg may be NULL when len is 0. */
void cz_sha256(uint8_t out[32], const uint8_t *msg, size_t len);

/* Streaming: init, any number of updates, final (which leaves ctx to be
 * initialised again).  The digest equals cz_sha256 of the concatenation. */
typedef struct {
    uint32_t h[8];
    uint8_t buf[64];
    size_t fill;  /* bytes in buf */
    uint64_t len; /* bytes hashed so far */
} cz_sha256_ctx;

void cz_sha256_init(cz_sha256_ctx *ctx);
void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len);
/* update with v as 8 bytes, little-endian (a framing helper for digests
 * of structured data). */
void cz_sha256_update_u64(cz_sha256_ctx *ctx, uint64_t v);
void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[32]);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_SHA256_H */
