/* The pull JSON reader (contract in json_read.h). */
#include "util/json_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/utf8.h"

void cz_jr_init(cz_jr *r, const uint8_t *text, size_t len, const char *prefix, char *err,
                size_t errlen)
{
    r->p = r->base = text;
    r->end = text + len;
    r->depth = 0;
    r->nfr = 0;
    r->rc = CZ_OK;
    r->err = err;
    r->errlen = errlen;
    r->prefix = prefix ? prefix : "";
    r->lines = false;
    if (err && errlen)
        err[0] = 0;
}

/* ------------------------------------------------------------- path --- */

void cz_jr_push_key(cz_jr *r, const char *key, size_t klen)
{
    if (r->nfr < sizeof r->fr / sizeof r->fr[0])
        r->fr[r->nfr] = (cz_jr_frame){key, klen, 0};
    r->nfr++;
}

void cz_jr_push_idx(cz_jr *r, uint64_t idx)
{
    if (r->nfr < sizeof r->fr / sizeof r->fr[0])
        r->fr[r->nfr] = (cz_jr_frame){NULL, 0, idx};
    r->nfr++;
}

void cz_jr_pop(cz_jr *r)
{
    if (r->nfr)
        r->nfr--;
}

void cz_jr_path(const cz_jr *r, char *out, size_t cap)
{
    size_t o = 0, nfr = r->nfr;
    if (cap == 0)
        return;
    out[0] = 0;
    if (nfr > sizeof r->fr / sizeof r->fr[0])
        nfr = sizeof r->fr / sizeof r->fr[0];
    if (nfr == 0) {
        snprintf(out, cap, "top level");
        return;
    }
    for (size_t i = 0; i < nfr && o + 1 < cap; i++) {
        const cz_jr_frame *f = &r->fr[i];
        if (f->key == NULL) {
            int w = snprintf(out + o, cap - o, "[%llu]", (unsigned long long)f->idx);
            o = w < 0 ? o : (o + (size_t)w < cap ? o + (size_t)w : cap - 1);
            continue;
        }
        if (i > 0)
            out[o++] = '.';
        if (f->klen == 0 && o + 3 < cap) {
            memcpy(out + o, "\"\"", 2); /* an empty key */
            o += 2;
        }
        size_t n = f->klen < 48 ? f->klen : 48;
        for (size_t k = 0; k < n && o + 1 < cap; k++) {
            unsigned char c = (unsigned char)f->key[k];
            out[o++] = (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != ':') ? (char)c : '?';
        }
        if (f->klen > n && o + 4 < cap) {
            memcpy(out + o, "...", 3);
            o += 3;
        }
        out[o < cap ? o : cap - 1] = 0;
    }
    out[o < cap ? o : cap - 1] = 0;
}

/* "line L, column C" of the byte where reading stopped. */
static void line_col(const cz_jr *r, char *out, size_t cap)
{
    size_t line = 1;
    const uint8_t *start = r->base;
    for (const uint8_t *q = r->base; q < r->p; q++)
        if (*q == '\n') {
            line++;
            start = q + 1;
        }
    snprintf(out, cap, "line %zu, column %zu", line, (size_t)(r->p - start) + 1);
}

int cz_jr_fail(cz_jr *r, int rc, const char *fmt, ...)
{
    if (r->rc != CZ_OK)
        return r->rc;
    r->rc = rc;
    if (r->err == NULL || r->errlen == 0)
        return rc;
    char path[8192], what[256], tail[320]; /* 130 frames of at most 52 bytes */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (r->lines) {
        line_col(r, path, sizeof path);
        snprintf(r->err, r->errlen, "%s%s: %s", r->prefix, path, what);
        return rc;
    }
    cz_jr_path(r, path, sizeof path);
    snprintf(tail, sizeof tail, ": %s (byte %zu)", what, (size_t)(r->p - r->base));
    /* a path too long for the message loses its middle, so the message
     * keeps its end */
    size_t pl = strlen(path), fixed = strlen(r->prefix) + strlen(tail) + 1;
    if (fixed + 16 < r->errlen && pl > r->errlen - fixed) {
        size_t room = r->errlen - fixed - 3, head = room / 3;
        memmove(path + head + 3, path + pl - (room - head), room - head + 1);
        memcpy(path + head, "...", 3);
    }
    snprintf(r->err, r->errlen, "%s%s%s", r->prefix, path, tail);
    return rc;
}

/* ------------------------------------------------------------ bytes --- */

static inline void ws(cz_jr *r)
{
    const uint8_t *p = r->p, *e = r->end;
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    r->p = p;
}

/* The end of the input: reported at the value being read. */
static int eof(cz_jr *r) { return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "unexpected end of input"); }

/* The first byte of the next value (after whitespace), or -1 with the
 * error recorded: at the end of the input that error names the container
 * (the member's or element's frame is dropped, as the value has not
 * begun). */
static int start(cz_jr *r)
{
    if (r->rc)
        return -1;
    ws(r);
    if (r->p == r->end) {
        unsigned keep = r->nfr;
        if (r->nfr)
            r->nfr--;
        eof(r);
        r->nfr = keep;
        return -1;
    }
    return *r->p;
}

static const char *describe(int c)
{
    switch (c) {
    case '{':
        return "an object";
    case '[':
        return "an array";
    case '"':
        return "a string";
    case 't':
    case 'f':
        return "a boolean";
    case 'n':
        return "null";
    case '-':
        return "a number";
    default:
        break;
    }
    if (c >= '0' && c <= '9')
        return "a number";
    return NULL;
}

/* "expected WHAT, found ..." at the current value. */
static int expected(cz_jr *r, const char *what)
{
    int c = *r->p;
    const char *d = describe(c);
    if (d)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected %s, found %s", what, d);
    if (c >= 0x21 && c < 0x7f)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected %s, found '%c'", what, c);
    return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected %s, found byte 0x%02x", what, c);
}

/* ---------------------------------------------------------- strings --- */

static int hex4(const uint8_t *p, unsigned *v)
{
    unsigned x = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i];
        x <<= 4;
        if (c >= '0' && c <= '9')
            x |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            x |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            x |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *v = x;
    return 0;
}

/* One escape at r->p (the byte after the backslash). */
/* The escapes of one character (after the backslash) and what they stand
 * for; \uXXXX is the other. */
static const char ESCAPES[] = "\"\\/bfnrt", ESCAPED[] = "\"\\/\b\f\n\r\t";

static int escape(cz_jr *r)
{
    if (r->p == r->end)
        return eof(r);
    if (*r->p != 0 && strchr(ESCAPES, *r->p) != NULL) {
        r->p++;
        return CZ_OK;
    }
    if (*r->p != 'u')
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "an invalid escape in a string");
    unsigned u, lo;
    if (r->end - r->p < 5)
        return eof(r);
    if (hex4(r->p + 1, &u) < 0)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "an invalid \\u escape in a string");
    r->p += 5;
    if (u >= 0xdc00 && u <= 0xdfff)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "a lone low surrogate in a string");
    if (u < 0xd800 || u > 0xdbff)
        return CZ_OK;
    if (r->end - r->p < 6)
        return r->end - r->p >= 2 && (r->p[0] != '\\' || r->p[1] != 'u')
                   ? cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "a lone high surrogate in a string")
                   : eof(r);
    if (r->p[0] != '\\' || r->p[1] != 'u' || hex4(r->p + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "a lone high surrogate in a string");
    r->p += 6;
    return CZ_OK;
}

int cz_jr_str(cz_jr *r, const uint8_t **raw, size_t *rawlen, bool *escaped)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != '"')
        return expected(r, "a string");
    const uint8_t *s = ++r->p;
    bool esc = false;
    for (;;) {
        const uint8_t *p = r->p, *e = r->end;
        while (p < e && *p != '"' && *p != '\\' && *p >= 0x20 && *p < 0x80)
            p++;
        r->p = p;
        if (p == e)
            return eof(r);
        uint8_t ch = *p;
        if (ch == '"')
            break;
        if (ch == '\\') {
            esc = true;
            r->p++;
            if (escape(r))
                return r->rc;
            continue;
        }
        if (ch < 0x20)
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "a control character (0x%02x) in a string", ch);
        size_t len = ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : 2;
        if ((size_t)(e - p) < len) {
            if (ch < 0xc2 || ch > 0xf4)
                return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "invalid UTF-8 in a string");
            return eof(r);
        }
        if (!cz_utf8_valid(p, len, NULL))
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "invalid UTF-8 in a string");
        r->p += len;
    }
    *raw = s;
    *rawlen = (size_t)(r->p - s);
    if (escaped)
        *escaped = esc;
    r->p++;
    return CZ_OK;
}

static size_t put_utf8(uint8_t *o, unsigned u)
{
    if (u < 0x80) {
        o[0] = (uint8_t)u;
        return 1;
    }
    if (u < 0x800) {
        o[0] = (uint8_t)(0xc0 | u >> 6);
        o[1] = (uint8_t)(0x80 | (u & 63));
        return 2;
    }
    if (u < 0x10000) {
        o[0] = (uint8_t)(0xe0 | u >> 12);
        o[1] = (uint8_t)(0x80 | ((u >> 6) & 63));
        o[2] = (uint8_t)(0x80 | (u & 63));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | u >> 18);
    o[1] = (uint8_t)(0x80 | ((u >> 12) & 63));
    o[2] = (uint8_t)(0x80 | ((u >> 6) & 63));
    o[3] = (uint8_t)(0x80 | (u & 63));
    return 4;
}

size_t cz_jr_unescape(uint8_t *out, const uint8_t *raw, size_t rawlen)
{
    size_t o = 0;
    for (size_t i = 0; i < rawlen;) {
        if (raw[i] != '\\') {
            out[o++] = raw[i++];
            continue;
        }
        uint8_t c = raw[i + 1];
        i += 2;
        if (c != 'u') {
            out[o++] = (uint8_t)ESCAPED[strchr(ESCAPES, c) - ESCAPES];
            continue;
        }
        unsigned u, lo;
        hex4(raw + i, &u);
        i += 4;
        if (u >= 0xd800 && u <= 0xdbff) {
            hex4(raw + i + 2, &lo);
            i += 6;
            u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        }
        o += put_utf8(out + o, u);
    }
    return o;
}

/* ---------------------------------------------------------- numbers --- */

static bool digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* The digits (one or more) at p: the byte after them, or NULL with the
 * error recorded. */
static const uint8_t *more_digits(cz_jr *r, const uint8_t *p)
{
    const uint8_t *e = r->end;
    if (p == e || !digit(*p)) {
        r->p = p;
        if (p == e)
            eof(r);
        else
            cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "invalid number");
        return NULL;
    }
    while (p < e && digit(*p))
        p++;
    return p;
}

/* A number's lexeme per the RFC's grammar at r->p (a '-' or digit);
 * *plain when it is digits only. */
static int number(cz_jr *r, const uint8_t **lex, size_t *n, bool *plain)
{
    const uint8_t *s = r->p, *p = r->p, *e = r->end;
    bool pl = true;
    if (*p == '-') {
        pl = false;
        p++;
    }
    if (p < e && *p == '0') {
        p++;
        if (p < e && digit(*p)) {
            r->p = p;
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "invalid number (a leading zero)");
        }
    } else if ((p = more_digits(r, p)) == NULL) {
        return r->rc;
    }
    if (p < e && *p == '.') {
        pl = false;
        if ((p = more_digits(r, p + 1)) == NULL)
            return r->rc;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        pl = false;
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if ((p = more_digits(r, p)) == NULL)
            return r->rc;
    }
    *lex = s;
    *n = (size_t)(p - s);
    *plain = pl;
    r->p = p;
    return CZ_OK;
}

int cz_jr_uint(cz_jr *r, uint64_t max, const char *type, uint64_t *out)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != '-' && !digit((uint8_t)c)) {
        char what[40];
        snprintf(what, sizeof what, "a %s", type);
        return expected(r, what);
    }
    const uint8_t *lex;
    size_t n;
    bool plain;
    const uint8_t *at = r->p;
    if (number(r, &lex, &n, &plain))
        return r->rc;
    uint64_t v = 0;
    bool ok = plain;
    for (size_t i = 0; ok && i < n; i++) {
        unsigned d = (unsigned)(lex[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            ok = false;
        else
            v = v * 10 + d;
    }
    if (!ok || v > max) {
        r->p = at;
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "%.*s%s is not a %s", n > 40 ? 40 : (int)n,
                          (const char *)lex, n > 40 ? "..." : "", type);
    }
    *out = v;
    return CZ_OK;
}

int cz_jr_num(cz_jr *r, const uint8_t **lex, size_t *n)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != '-' && !digit((uint8_t)c))
        return expected(r, "a number");
    bool plain;
    return number(r, lex, n, &plain);
}

int cz_jr_d32(cz_jr *r, uint8_t out[32])
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != '[')
        return expected(r, "an array of 32 bytes");
    const uint8_t *p = r->p + 1, *e = r->end;
    for (unsigned k = 0; k < 32; k++) {
        while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
            p++;
        if (p == e)
            goto at_end;
        if (k > 0) {
            if (*p == ',') {
                p++;
                while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
                    p++;
                if (p == e)
                    goto at_end;
            } else {
                r->p = p;
                if (*p == ']')
                    return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "%u bytes, expected 32", k);
                return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected ',' or ']'");
            }
        } else if (*p == ']') {
            r->p = p;
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "0 bytes, expected 32");
        }
        /* the element: one to three digits, no leading zero, <= 255 */
        const uint8_t *s = p;
        unsigned v;
        if (*p >= '1' && *p <= '9') {
            v = (unsigned)(*p++ - '0');
            if (p < e && digit(*p)) {
                v = v * 10 + (unsigned)(*p++ - '0');
                if (p < e && digit(*p))
                    v = v * 10 + (unsigned)(*p++ - '0');
            }
        } else if (*p == '0') {
            v = 0;
            p++;
        } else {
            v = 256;
        }
        if (v > 255 || (p < e && (digit(*p) || *p == '.' || *p == 'e' || *p == 'E'))) {
            /* not a plain byte: the general reader names what it is */
            uint64_t w;
            r->p = s;
            cz_jr_push_idx(r, k);
            int rc = cz_jr_uint(r, 255, "byte", &w);
            cz_jr_pop(r);
            if (rc)
                return rc;
            v = (unsigned)w;
            p = r->p;
        }
        out[k] = (uint8_t)v;
    }
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    r->p = p;
    if (p == e)
        return eof(r);
    if (*p == ']') {
        r->p = p + 1;
        return CZ_OK;
    }
    if (*p == ',')
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "more than 32 bytes");
    return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected ']'");
at_end:
    r->p = p;
    return eof(r);
}

static int literal(cz_jr *r, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++, r->p++) {
        if (r->p == r->end)
            return eof(r);
        if (*r->p != (uint8_t)word[i])
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "invalid literal (not %s)", word);
    }
    return CZ_OK;
}

int cz_jr_null(cz_jr *r)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != 'n')
        return expected(r, "null");
    return literal(r, "null");
}

int cz_jr_bool(cz_jr *r, bool *out)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != 't' && c != 'f')
        return expected(r, "a boolean");
    *out = c == 't';
    return literal(r, c == 't' ? "true" : "false");
}

/* ------------------------------------------------------- containers --- */

/* The '{' or '[' (open) of a container: what names it in a message. */
static int open_container(cz_jr *r, char open, const char *what)
{
    int c = start(r);
    if (c < 0)
        return r->rc;
    if (c != open)
        return expected(r, what);
    r->p++;
    if (++r->depth > CZ_JR_MAX_DEPTH)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "nested more than %d deep", CZ_JR_MAX_DEPTH);
    return CZ_OK;
}

int cz_jr_obj_begin(cz_jr *r, cz_jr_obj *o)
{
    o->seen = 0;
    o->members = 0;
    return open_container(r, '{', "an object");
}

/* Before a member or an element of a container closed by close: 0 after
 * the close, else 1 after the ',' (none before the first) and the
 * whitespace; -1 on error. */
static int next_item(cz_jr *r, bool first, char close)
{
    ws(r);
    if (r->p == r->end)
        return eof(r), -1;
    if (*r->p == close) {
        r->p++;
        r->depth--;
        return 0;
    }
    if (!first) {
        if (*r->p != ',')
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected ',' or '%c'", close), -1;
        r->p++;
        ws(r);
        if (r->p == r->end)
            return eof(r), -1;
    }
    return 1;
}

/* The '}', ',' and key before a member: 1 with the key's raw bytes, 0
 * after the '}', -1 on error. */
static int member(cz_jr *r, cz_jr_obj *o, const uint8_t **key, size_t *klen, bool *esc)
{
    int m = next_item(r, o->members == 0, '}');
    if (m <= 0)
        return m;
    if (*r->p != '"')
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected a key (a string)"), -1;
    if (cz_jr_str(r, key, klen, esc))
        return -1;
    ws(r);
    if (r->p == r->end)
        return eof(r), -1;
    if (*r->p != ':')
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected ':'"), -1;
    r->p++;
    o->members++;
    return 1;
}

int cz_jr_member(cz_jr *r, cz_jr_obj *o, const uint8_t **key, size_t *klen, bool *escaped)
{
    if (r->rc)
        return -1;
    int m = member(r, o, key, klen, escaped);
    if (m == 1)
        cz_jr_push_key(r, (const char *)*key, *klen);
    return m;
}

/* The index of a key among names[0..n), or -1. */
static int lookup(const uint8_t *key, size_t klen, bool esc, const char *const *names, unsigned n)
{
    uint8_t buf[400]; /* an escape is at most 6 bytes a character */
    if (esc) {
        if (klen > sizeof buf)
            return -1;
        klen = cz_jr_unescape(buf, key, klen);
        key = buf;
    }
    for (unsigned i = 0; i < n; i++)
        if (strlen(names[i]) == klen && memcmp(names[i], key, klen) == 0)
            return (int)i;
    return -1;
}

int cz_jr_obj_next(cz_jr *r, cz_jr_obj *o, const char *const *names, unsigned n)
{
    for (;;) {
        const uint8_t *key;
        size_t klen;
        bool esc;
        int m = member(r, o, &key, &klen, &esc);
        if (m < 0)
            return CZ_JR_ERROR;
        if (m == 0)
            return CZ_JR_END;
        int i = lookup(key, klen, esc, names, n);
        if (i >= 0) {
            if (o->seen >> i & 1) {
                r->p = key - 1;
                cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "duplicate field `%s`", names[i]);
                return CZ_JR_ERROR;
            }
            o->seen |= 1ull << i;
            cz_jr_push_key(r, names[i], strlen(names[i]));
            return i;
        }
        cz_jr_push_key(r, (const char *)key, klen);
        int rc = cz_jr_skip(r);
        cz_jr_pop(r);
        if (rc)
            return CZ_JR_ERROR;
    }
}

int cz_jr_obj_require(cz_jr *r, const cz_jr_obj *o, const char *const *names, unsigned first,
                      unsigned n)
{
    for (unsigned i = first; i < first + n; i++)
        if (!(o->seen >> i & 1)) {
            r->p--; /* at the '}' */
            return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "missing field `%s`", names[i]);
        }
    return r->rc;
}

int cz_jr_variant(cz_jr *r, const char *const *names, unsigned n, const char *what)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(r, &o))
        return CZ_JR_ERROR;
    const uint8_t *key;
    size_t klen;
    bool esc;
    int m = member(r, &o, &key, &klen, &esc);
    if (m < 0)
        return CZ_JR_ERROR;
    if (m == 0) {
        r->p--;
        cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "an empty object, expected one variant of %s", what);
        return CZ_JR_ERROR;
    }
    int i = lookup(key, klen, esc, names, n);
    if (i < 0) {
        char list[256];
        size_t l = 0;
        list[0] = 0;
        for (unsigned k = 0; k < n && l < sizeof list; k++)
            l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", k ? ", " : "", names[k]);
        uint8_t shown[48];
        size_t sn = 0;
        for (size_t k = 0; k < klen && sn < sizeof shown; k++)
            shown[sn++] = key[k] >= 0x20 && key[k] < 0x7f ? key[k] : '?';
        r->p = key - 1;
        cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "unknown variant `%.*s%s` of %s, expected one of %s",
                   (int)sn, (const char *)shown, klen > sn ? "..." : "", what, list);
        return CZ_JR_ERROR;
    }
    cz_jr_push_key(r, names[i], strlen(names[i]));
    return i;
}

int cz_jr_variant_end(cz_jr *r)
{
    if (r->rc)
        return r->rc;
    ws(r);
    if (r->p == r->end)
        return eof(r);
    if (*r->p != '}')
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "expected '}' after the variant's value");
    r->p++;
    r->depth--;
    return CZ_OK;
}

int cz_jr_arr_begin(cz_jr *r, cz_jr_arr *a)
{
    a->n = 0;
    return open_container(r, '[', "an array");
}

int cz_jr_arr_next(cz_jr *r, cz_jr_arr *a, uint64_t limit, const char *what)
{
    if (r->rc)
        return -1;
    int m = next_item(r, a->n == 0, ']');
    if (m <= 0)
        return m;
    if (a->n >= limit)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "more than %llu %s", (unsigned long long)limit,
                          what),
               -1;
    cz_jr_push_idx(r, a->n++);
    return 1;
}

int cz_jr_arr_count(cz_jr *r, const cz_jr_arr *a, uint64_t expected_n, const char *what)
{
    if (r->rc)
        return r->rc;
    if (a->n != expected_n) {
        r->p--; /* at the ']' */
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "%llu %s, expected %llu", (unsigned long long)a->n,
                          what, (unsigned long long)expected_n);
    }
    return CZ_OK;
}

int cz_jr_peek(cz_jr *r)
{
    int c = start(r);
    if (c < 0)
        return CZ_JR_ERROR;
    switch (c) {
    case '{':
        return CZ_JSON_OBJECT;
    case '[':
        return CZ_JSON_ARRAY;
    case '"':
        return CZ_JSON_STRING;
    case 't':
        return CZ_JSON_TRUE;
    case 'f':
        return CZ_JSON_FALSE;
    case 'n':
        return CZ_JSON_NULL;
    default:
        break;
    }
    if (c == '-' || digit((uint8_t)c))
        return CZ_JSON_NUMBER;
    expected(r, "a value");
    return CZ_JR_ERROR;
}

int cz_jr_skip(cz_jr *r)
{
    switch (cz_jr_peek(r)) {
    case CZ_JSON_OBJECT: {
        cz_jr_obj o;
        if (cz_jr_obj_begin(r, &o))
            return r->rc;
        return cz_jr_obj_next(r, &o, NULL, 0) == CZ_JR_END ? CZ_OK : r->rc;
    }
    case CZ_JSON_ARRAY: {
        cz_jr_arr a;
        int m;
        if (cz_jr_arr_begin(r, &a))
            return r->rc;
        while ((m = cz_jr_arr_next(r, &a, UINT64_MAX, "elements")) == 1) {
            int rc = cz_jr_skip(r);
            cz_jr_pop(r);
            if (rc)
                return rc;
        }
        return m == 0 ? CZ_OK : r->rc;
    }
    case CZ_JSON_STRING: {
        const uint8_t *s;
        size_t n;
        return cz_jr_str(r, &s, &n, NULL);
    }
    case CZ_JSON_TRUE:
    case CZ_JSON_FALSE: {
        bool v;
        return cz_jr_bool(r, &v);
    }
    case CZ_JSON_NULL:
        return cz_jr_null(r);
    case CZ_JSON_NUMBER: {
        const uint8_t *lex;
        size_t n;
        return cz_jr_num(r, &lex, &n);
    }
    default:
        return r->rc;
    }
}

int cz_jr_finish(cz_jr *r)
{
    if (r->rc)
        return r->rc;
    ws(r);
    if (r->p != r->end) {
        r->nfr = 0;
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "trailing characters after the document");
    }
    return CZ_OK;
}
