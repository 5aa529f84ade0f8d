/* Standard base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, '=' padding), as
 * Go's encoding/json writes a []byte and Rust's base64 crate (0.22) reads
 * it with its STANDARD engine: the length a multiple of 4, the last group
 * padded with '=' to 4 symbols, the unused low bits of the last symbol
 * zero, and nothing else (no whitespace, no line breaks).  Internal to
 * cuzk. */
#ifndef CZ_UTIL_BASE64_H
#define CZ_UTIL_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* 4 * ceil(n / 3): the encoded length of n bytes. */
size_t cz_base64_encoded_len(size_t n);
/* Writes cz_base64_encoded_len(n) symbols (no NUL). */
void cz_base64_encode(char *out, const uint8_t *in, size_t n);

/* At most 3 * (len / 4) bytes: the room cz_base64_decode needs. */
size_t cz_base64_decoded_max(size_t len);
/* Decodes in[0..len) into out (cz_base64_decoded_max(len) bytes of room),
 * setting *out_len.  CZ_OK, or CZ_ERR_BAD_FORMAT with *bad (may be NULL)
 * the offset of the first symbol at fault (len for a bad length) and
 * *why (may be NULL) a static phrase: "a symbol outside the alphabet",
 * "misplaced padding", "non-zero unused bits in the last symbol",
 * "a length that is not a multiple of 4". */
int cz_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t len, size_t *bad,
                     const char **why);

#endif /* CZ_UTIL_BASE64_H */
