/* cuzk: UTF-8 validation for strings that come from clients (ids, names). */
#ifndef CUZK_UTF8_H
#define CUZK_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True when s[0..n) is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF).  Otherwise false with *bad (may be
 * NULL) set to the offset of the first byte of the bad sequence. */
bool cz_utf8_valid(const uint8_t *s, size_t n, size_t *bad);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_UTF8_H */
