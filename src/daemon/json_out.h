/* A growable text buffer and a compact JSON writer on top of it, for the
 * daemon's status and metrics output.  Not part of the public API.
 *
 * Errors are sticky: after a failed allocation every further write is a
 * no-op and cz_strbuf_take returns NULL, so callers check once at the end.
 * The JSON writer inserts commas itself and escapes every string so that
 * the output is strict RFC 8259 JSON whatever bytes it is given: quote,
 * backslash and control characters are escaped, and bytes that are not
 * valid UTF-8 become U+FFFD.  Non-finite numbers are written as null. */
#ifndef CZ_JSON_OUT_H
#define CZ_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} cz_strbuf;

/* An empty buffer (no allocation yet). */
void cz_strbuf_init(cz_strbuf *b);
void cz_strbuf_put(cz_strbuf *b, const char *s, size_t n);
void cz_strbuf_puts(cz_strbuf *b, const char *s);
void cz_strbuf_printf(cz_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The NUL-terminated text (malloc'd; the caller frees it) and its length,
 * or NULL after an allocation failure.  The buffer is left empty. */
char *cz_strbuf_take(cz_strbuf *b, size_t *len);
void cz_strbuf_free(cz_strbuf *b);

#define CZ_JW_MAX_DEPTH 16

typedef struct {
    cz_strbuf *b;
    unsigned depth;
    bool need_comma[CZ_JW_MAX_DEPTH + 1];
    char closer[CZ_JW_MAX_DEPTH + 1];
} cz_jw;

void cz_jw_init(cz_jw *w, cz_strbuf *b);
/* Every value function takes the member key inside an object and NULL
 * inside an array or at the top level.  Nesting deeper than
 * CZ_JW_MAX_DEPTH marks the buffer failed. */
void cz_jw_object(cz_jw *w, const char *key);
void cz_jw_array(cz_jw *w, const char *key);
void cz_jw_end(cz_jw *w); /* closes the innermost object or array */
void cz_jw_u64(cz_jw *w, const char *key, uint64_t v);
void cz_jw_f64(cz_jw *w, const char *key, double v);      /* %.3f; null if not finite */
void cz_jw_str(cz_jw *w, const char *key, const char *s); /* NULL: null */
void cz_jw_null(cz_jw *w, const char *key);
void cz_jw_bool(cz_jw *w, const char *key, bool v);

/* Appends s[0..n) as a quoted JSON string (escaping as above). */
void cz_json_quote(cz_strbuf *b, const char *s, size_t n);

#endif /* CZ_JSON_OUT_H */
