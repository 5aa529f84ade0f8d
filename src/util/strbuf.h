/* A growable text buffer: what the JSON writer (json_write.h) and the
 * daemon's Prometheus text are written into.  Internal to cuzk.
 *
 * Errors are sticky: after a failed allocation every further write is a
 * no-op and cz_strbuf_take returns NULL, so callers check once at the end.
 * The text is kept NUL-terminated after every write. */
#ifndef CZ_UTIL_STRBUF_H
#define CZ_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} cz_strbuf;

/* An empty buffer (no allocation yet). */
void cz_strbuf_init(cz_strbuf *b);
/* Room for n more bytes and the NUL after them, so that writes of that
 * many bytes do not reallocate: true, or false once the buffer failed. */
bool cz_strbuf_reserve(cz_strbuf *b, size_t n);
void cz_strbuf_put(cz_strbuf *b, const char *s, size_t n);
void cz_strbuf_puts(cz_strbuf *b, const char *s);
void cz_strbuf_printf(cz_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The NUL-terminated text (malloc'd; the caller frees it) and its length,
 * or NULL after an allocation failure.  The buffer is left empty. */
char *cz_strbuf_take(cz_strbuf *b, size_t *len);
void cz_strbuf_free(cz_strbuf *b);

#endif /* CZ_UTIL_STRBUF_H */
