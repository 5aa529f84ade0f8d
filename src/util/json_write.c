/* The JSON writer (contract in json_write.h). */
#include "util/json_write.h"

#include <math.h>
#include <string.h>

#include "cuzk/utf8.h"

/* The length of the valid UTF-8 sequence at s[0..n) (s[0] >= 0x80), or 0
 * if there is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
    return n >= len && cz_utf8_valid(s, len, NULL) ? len : 0;
}

/* The characters with a short escape, and the letter after the backslash;
 * other control characters are written \u00XX. */
static const char SHORT[] = "\"\\\n\r\t\b\f", SHORT_AS[] = "\"\\nrtbf";

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
        const char *at = c != 0 ? strchr(SHORT, c) : NULL;
        if (at != NULL) {
            char e[2] = {'\\', SHORT_AS[at - SHORT]};
            cz_strbuf_put(b, e, 2);
        } else {
            cz_strbuf_printf(b, "\\u%04x", c);
        }
        i++;
    }
    cz_strbuf_put(b, "\"", 1);
}

void cz_jw_init(cz_jw *w, cz_strbuf *b) { cz_jw_init_indented(w, b, 0); }

void cz_jw_init_indented(cz_jw *w, cz_strbuf *b, unsigned indent)
{
    memset(w, 0, sizeof *w);
    w->b = b;
    w->indent = indent;
}

/* A line break and the indentation of the current depth. */
static void newline(cz_jw *w)
{
    size_t n = (size_t)w->indent * w->depth;
    if (!cz_strbuf_reserve(w->b, n + 1))
        return;
    char *o = w->b->p + w->b->len;
    o[0] = '\n';
    memset(o + 1, ' ', n);
    w->b->len += n + 1;
    w->b->p[w->b->len] = '\0';
}

/* The comma, line break and key before a value. */
static void begin_value(cz_jw *w, const char *key)
{
    if (w->need_comma[w->depth])
        cz_strbuf_put(w->b, ",", 1);
    w->need_comma[w->depth] = true;
    if (w->indent && w->depth > 0)
        newline(w);
    if (key) {
        cz_json_quote(w->b, key, strlen(key));
        cz_strbuf_put(w->b, ": ", w->indent ? 2 : 1);
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
    char c = w->closer[w->depth--];
    if (w->indent)
        newline(w);
    cz_strbuf_put(w->b, &c, 1);
}

/* The decimal digits of v, right-aligned in t[0..20); returns where they
 * start. */
static size_t digits(char t[20], uint64_t v)
{
    size_t k = 20;
    do {
        t[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return k;
}

void cz_jw_u64(cz_jw *w, const char *key, uint64_t v)
{
    char t[20];
    size_t k = digits(t, v);
    begin_value(w, key);
    cz_strbuf_put(w->b, t + k, 20 - k);
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

void cz_jw_u8s(cz_jw *w, const char *key, const uint8_t *v, size_t n)
{
    if (w->indent) { /* one number a line: as the general path writes it */
        cz_jw_array(w, key);
        for (size_t i = 0; i < n; i++)
            cz_jw_u64(w, NULL, v[i]);
        cz_jw_end(w);
        return;
    }
    /* compact: at most 4 bytes a number and the brackets, written at once
     * (a 32GiB C1 holds about half a million such arrays) */
    begin_value(w, key);
    if (n > (SIZE_MAX - 2) / 4 || !cz_strbuf_reserve(w->b, 4 * n + 2))
        return;
    char *o = w->b->p + w->b->len;
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        unsigned x = v[i];
        if (i)
            *o++ = ',';
        if (x >= 100)
            *o++ = (char)('0' + x / 100);
        if (x >= 10)
            *o++ = (char)('0' + x / 10 % 10);
        *o++ = (char)('0' + x % 10);
    }
    *o++ = ']';
    *o = '\0';
    w->b->len = (size_t)(o - w->b->p);
}

/* 10^19, the largest power of ten below 2^64: the number is cut into
 * chunks of 19 digits by long division. */
#define TEN19 10000000000000000000ull

void cz_jw_dec(cz_jw *w, const char *key, const uint64_t *l, size_t n)
{
    /* 64 n bits need at most 19.27 n digits: n + n / 3 + 1 chunks */
    uint64_t t[CZ_JW_DEC_MAX_LIMBS], chunk[CZ_JW_DEC_MAX_LIMBS + CZ_JW_DEC_MAX_LIMBS / 3 + 1];
    char s[sizeof chunk / sizeof chunk[0] * 19 + 1];
    size_t k = 0, top = n, at = 0;
    if (n > CZ_JW_DEC_MAX_LIMBS) {
        w->b->failed = true;
        return;
    }
    memcpy(t, l, n * sizeof *t);
    while (top > 0 && t[top - 1] == 0)
        top--;
    while (top > 0) {
        unsigned __int128 rem = 0;
        for (size_t i = top; i-- > 0;) {
            unsigned __int128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / TEN19);
            rem = cur % TEN19;
        }
        chunk[k++] = (uint64_t)rem;
        while (top > 0 && t[top - 1] == 0)
            top--;
    }
    if (k == 0)
        chunk[k++] = 0;
    for (size_t i = k; i-- > 0;) { /* the top chunk without its leading zeros */
        char d[20];
        memset(d, '0', sizeof d);
        size_t from = digits(d, chunk[i]);
        if (i + 1 < k)
            from = 1;
        memcpy(s + at, d + from, 20 - from);
        at += 20 - from;
    }
    begin_value(w, key);
    cz_strbuf_put(w->b, "\"", 1);
    cz_strbuf_put(w->b, s, at);
    cz_strbuf_put(w->b, "\"", 1);
}
