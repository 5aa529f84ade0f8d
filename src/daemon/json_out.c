/* Text buffer and JSON writer (contract in json_out.h). */
#include "json_out.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cz_strbuf_init(cz_strbuf *b) { memset(b, 0, sizeof *b); }

/* Room for n more bytes and a NUL. */
static bool reserve(cz_strbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) {
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
    if (!reserve(b, n))
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
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *cz_strbuf_take(cz_strbuf *b, size_t *len)
{
    if (!reserve(b, 0)) {
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

/* Length of the valid UTF-8 sequence at s[0..n) (RFC 3629: shortest form,
 * no surrogates, at most U+10FFFF), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf; /* bounds of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

void cz_json_quote(cz_strbuf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    cz_strbuf_put(b, "\"", 1);
    size_t i = 0;
    while (i < n) {
        /* copy the longest run needing no escape at once */
        size_t j = i;
        while (j < n && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
            j++;
        cz_strbuf_put(b, str + i, j - i);
        i = j;
        if (i == n)
            break;
        unsigned char c = s[i];
        if (c >= 0x80) {
            size_t len = utf8_len(s + i, n - i);
            if (len) {
                cz_strbuf_put(b, str + i, len);
                i += len;
            } else {
                cz_strbuf_puts(b, "\\ufffd");
                i++;
            }
            continue;
        }
        switch (c) {
        case '"':
            cz_strbuf_puts(b, "\\\"");
            break;
        case '\\':
            cz_strbuf_puts(b, "\\\\");
            break;
        case '\n':
            cz_strbuf_puts(b, "\\n");
            break;
        case '\r':
            cz_strbuf_puts(b, "\\r");
            break;
        case '\t':
            cz_strbuf_puts(b, "\\t");
            break;
        case '\b':
            cz_strbuf_puts(b, "\\b");
            break;
        case '\f':
            cz_strbuf_puts(b, "\\f");
            break;
        default:
            cz_strbuf_printf(b, "\\u%04x", c);
            break;
        }
        i++;
    }
    cz_strbuf_put(b, "\"", 1);
}

void cz_jw_init(cz_jw *w, cz_strbuf *b)
{
    memset(w, 0, sizeof *w);
    w->b = b;
}

/* The comma and key before a value. */
static void begin_value(cz_jw *w, const char *key)
{
    if (w->need_comma[w->depth])
        cz_strbuf_put(w->b, ",", 1);
    w->need_comma[w->depth] = true;
    if (key) {
        cz_json_quote(w->b, key, strlen(key));
        cz_strbuf_put(w->b, ":", 1);
    }
}

static void jw_open(cz_jw *w, const char *key, char open_c, char close_c)
{
    if (w->depth >= CZ_JW_MAX_DEPTH) {
        w->b->failed = true;
        return;
    }
    begin_value(w, key);
    cz_strbuf_put(w->b, &open_c, 1);
    w->depth++;
    w->need_comma[w->depth] = false;
    w->closer[w->depth] = close_c;
}

void cz_jw_object(cz_jw *w, const char *key) { jw_open(w, key, '{', '}'); }
void cz_jw_array(cz_jw *w, const char *key) { jw_open(w, key, '[', ']'); }

void cz_jw_end(cz_jw *w)
{
    if (w->depth == 0) {
        w->b->failed = true;
        return;
    }
    cz_strbuf_put(w->b, &w->closer[w->depth], 1);
    w->depth--;
}

void cz_jw_u64(cz_jw *w, const char *key, uint64_t v)
{
    begin_value(w, key);
    cz_strbuf_printf(w->b, "%llu", (unsigned long long)v);
}

void cz_jw_f64(cz_jw *w, const char *key, double v)
{
    begin_value(w, key);
    if (isfinite(v))
        cz_strbuf_printf(w->b, "%.3f", v);
    else
        cz_strbuf_puts(w->b, "null");
}

void cz_jw_str(cz_jw *w, const char *key, const char *s)
{
    begin_value(w, key);
    if (s)
        cz_json_quote(w->b, s, strlen(s));
    else
        cz_strbuf_puts(w->b, "null");
}

void cz_jw_null(cz_jw *w, const char *key)
{
    begin_value(w, key);
    cz_strbuf_puts(w->b, "null");
}

void cz_jw_bool(cz_jw *w, const char *key, bool v)
{
    begin_value(w, key);
    cz_strbuf_puts(w->b, v ? "true" : "false");
}
