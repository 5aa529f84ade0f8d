/* The JSON writer: every JSON text cuzk writes goes through it (the
 * daemon's /status and error bodies, snarkjs's proof, public and key
 * files, the C1 as serde_json writes it).  Internal to cuzk.
 *
 * Values are appended to a cz_strbuf (strbuf.h; its errors are sticky, so
 * callers check once, at cz_strbuf_take).  The writer inserts commas
 * itself and escapes every string so that the output is strict RFC 8259
 * JSON whatever bytes it is given: quote, backslash and control
 * characters are escaped, and bytes that are not valid UTF-8 become
 * U+FFFD.  Non-finite numbers are written as null.
 *
 * Two layouts:
 *   compact (cz_jw_init): no whitespace at all, as serde_json::to_vec and
 *     the daemon write;
 *   indented (cz_jw_init_indented): as bfj (snarkjs's writer) lays it out
 *     with space = N: each value inside a container on a line of its own,
 *     indented N spaces a level, after its comma; a member as "key": value
 *     (one space); each closing bracket on a line of its own at its
 *     container's level, an empty container's too ("[\n]"); no newline at
 *     the end. */
#ifndef CZ_UTIL_JSON_WRITE_H
#define CZ_UTIL_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define CZ_JW_MAX_DEPTH     32 /* containers open at once */
#define CZ_JW_DEC_MAX_LIMBS 8  /* cz_jw_dec: numbers below 2^512 */

typedef struct {
    cz_strbuf *b;
    unsigned indent; /* 0: compact */
    unsigned depth;
    bool need_comma[CZ_JW_MAX_DEPTH + 1];
    char closer[CZ_JW_MAX_DEPTH + 1];
} cz_jw;

/* A writer of one value (of any nesting) appended to b. */
void cz_jw_init(cz_jw *w, cz_strbuf *b);
void cz_jw_init_indented(cz_jw *w, cz_strbuf *b, unsigned indent);

/* Every value function takes the member key inside an object and NULL
 * inside an array or at the top level.  Nesting deeper than
 * CZ_JW_MAX_DEPTH, or an end with nothing open, marks the buffer failed. */
void cz_jw_object(cz_jw *w, const char *key);
void cz_jw_array(cz_jw *w, const char *key);
void cz_jw_end(cz_jw *w); /* closes the innermost object or array */
void cz_jw_u64(cz_jw *w, const char *key, uint64_t v);
void cz_jw_f64(cz_jw *w, const char *key, double v);      /* %.3f; null if not finite */
void cz_jw_str(cz_jw *w, const char *key, const char *s); /* NULL: null */
void cz_jw_null(cz_jw *w, const char *key);
void cz_jw_bool(cz_jw *w, const char *key, bool v);
/* An array of the n numbers v[0..n) (serde's [u8; N]). */
void cz_jw_u8s(cz_jw *w, const char *key, const uint8_t *v, size_t n);
/* The number sum l[i] 2^(64 i) over l[0..n) as a string of decimal digits
 * (no leading zero; "0" for zero), as snarkjs writes field elements.
 * n <= CZ_JW_DEC_MAX_LIMBS, else the buffer is marked failed. */
void cz_jw_dec(cz_jw *w, const char *key, const uint64_t *l, size_t n);

/* Appends s[0..n) as a quoted JSON string (escaping as above). */
void cz_json_quote(cz_strbuf *b, const char *s, size_t n);

#endif /* CZ_UTIL_JSON_WRITE_H */
