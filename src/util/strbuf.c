/* Growable text buffer (contract in strbuf.h). */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cz_strbuf_init(cz_strbuf *b) { memset(b, 0, sizeof *b); }

bool cz_strbuf_reserve(cz_strbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (n < b->cap - b->len)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len <= n) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void cz_strbuf_put(cz_strbuf *b, const char *s, size_t n)
{
    if (!cz_strbuf_reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void cz_strbuf_puts(cz_strbuf *b, const char *s) { cz_strbuf_put(b, s, strlen(s)); }

void cz_strbuf_printf(cz_strbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    char small[128];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        cz_strbuf_put(b, small, (size_t)n);
        return;
    }
    if (!cz_strbuf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *cz_strbuf_take(cz_strbuf *b, size_t *len)
{
    if (!cz_strbuf_reserve(b, 0)) {
        cz_strbuf_free(b);
        return NULL;
    }
    char *p = b->p;
    p[b->len] = '\0';
    if (len)
        *len = b->len;
    cz_strbuf_init(b);
    return p;
}

void cz_strbuf_free(cz_strbuf *b)
{
    free(b->p);
    cz_strbuf_init(b);
}
