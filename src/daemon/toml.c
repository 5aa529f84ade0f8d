/* Strict TOML subset reader (contract in toml.h): one pass, recursive only
 * for nested arrays.  The whole text is checked to be UTF-8 first, so later
 * code only has to find control characters.  Decoded keys and strings go
 * to one pool of len + 1 bytes: a decoded key or string is never longer
 * than its text, and its NUL is paid for by the quote, '=', '.', ']' or
 * white space that ends it. */
#include "toml.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"

enum { HOW_IMPLICIT, HOW_HEADER, HOW_DOTTED, HOW_ROOT };

typedef struct {
    const char *s;
    size_t len, pos, line;
    const char *name;
    cz_toml_doc *doc;
    size_t cap, pool_len;
    size_t table;   /* the table of the current [header] block */
    unsigned block; /* counts headers */
    char key[256];  /* the key being read, for messages; "" before one is known */
    bool header;    /* key[] names a table header */
    char *err;
    size_t errlen;
} parser;

static int fail(parser *p, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser *p, int code, const char *fmt, ...)
{
    if (p->err == NULL || p->errlen == 0)
        return code;
    int k;
    if (p->key[0])
        k = snprintf(p->err, p->errlen, "%s:%zu: %s %s%s%s: ", p->name, p->line,
                     p->header ? "table" : "key", p->header ? "[" : "", p->key,
                     p->header ? "]" : "");
    else
        k = snprintf(p->err, p->errlen, "%s:%zu: ", p->name, p->line);
    if (k >= 0 && (size_t)k < p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + k, p->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int peek(const parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }
static int peek_at(const parser *p, size_t k)
{
    return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1;
}

static bool is_bare(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

/* Control characters TOML forbids in strings and comments (tab allowed). */
static bool is_control(int c) { return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7f; }

/* ------------------------------------------------------------- nodes --- */

static int push(parser *p, cz_toml_type type, size_t parent, const char *key, size_t key_len,
                size_t *idx)
{
    cz_toml_doc *d = p->doc;
    if (d->n == CZ_TOML_MAX_NODES)
        return fail(p, CZ_ERR_TOO_BIG, "more than %u keys, tables and values", CZ_TOML_MAX_NODES);
    if (d->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        cz_toml_node *n = realloc(d->nodes, cap * sizeof *n);
        if (n == NULL)
            return fail(p, CZ_ERR_NOMEM, "out of memory");
        d->nodes = n;
        p->cap = cap;
    }
    cz_toml_node *n = &d->nodes[d->n];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->parent = parent;
    n->key = key;
    n->key_len = key_len;
    n->line = p->line;
    if (parent != d->n)
        d->nodes[parent].len++;
    *idx = d->n++;
    return CZ_OK;
}

/* The key `key` of table t, or SIZE_MAX. */
static size_t child(const cz_toml_doc *d, size_t t, const char *key, size_t key_len)
{
    for (size_t i = t + 1; i < d->n; i++)
        if (d->nodes[i].parent == t && d->nodes[i].key != NULL && d->nodes[i].key_len == key_len &&
            memcmp(d->nodes[i].key, key, key_len) == 0)
            return i;
    return SIZE_MAX;
}

static void append(char *buf, size_t buflen, size_t *at, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *at + 1 < buflen; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[(*at)++] = (char)(c < 0x20 || c == 0x7f ? '?' : c);
    }
    buf[*at] = 0;
}

static void append_seg(char *buf, size_t buflen, size_t *at, const char *key, size_t n)
{
    bool bare = n > 0;
    for (size_t i = 0; i < n; i++)
        bare = bare && is_bare((unsigned char)key[i]);
    if (*at > 0)
        append(buf, buflen, at, ".", 1);
    if (!bare)
        append(buf, buflen, at, "\"", 1);
    append(buf, buflen, at, key, n);
    if (!bare)
        append(buf, buflen, at, "\"", 1);
}

const char *cz_toml_path(const cz_toml_doc *doc, size_t k, char *buf, size_t buflen)
{
    size_t chain[CZ_TOML_MAX_KEY_PARTS * 2 + CZ_TOML_MAX_DEPTH + 2], n = 0, at = 0;
    if (buflen == 0)
        return buf;
    buf[0] = 0;
    for (size_t i = k; i != 0 && n < sizeof chain / sizeof chain[0]; i = doc->nodes[i].parent)
        chain[n++] = i;
    while (n-- > 0) {
        const cz_toml_node *nd = &doc->nodes[chain[n]];
        if (nd->key != NULL) {
            append_seg(buf, buflen, &at, nd->key, nd->key_len);
        } else {
            append(buf, buflen, &at, "[]", 2);
        }
    }
    return buf;
}

/* ----------------------------------------------------------- strings --- */

static void put_utf8(char *o, size_t *n, uint32_t c)
{
    if (c < 0x80) {
        o[(*n)++] = (char)c;
    } else if (c < 0x800) {
        o[(*n)++] = (char)(0xc0 | c >> 6);
        o[(*n)++] = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        o[(*n)++] = (char)(0xe0 | c >> 12);
        o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
        o[(*n)++] = (char)(0x80 | (c & 0x3f));
    } else {
        o[(*n)++] = (char)(0xf0 | c >> 18);
        o[(*n)++] = (char)(0x80 | ((c >> 12) & 0x3f));
        o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3f));
        o[(*n)++] = (char)(0x80 | (c & 0x3f));
    }
}

/* The one-character escapes of basic strings and what they stand for. */
static const char simple_escapes[] = "btnfr\"\\", simple_chars[] = "\b\t\n\f\r\"\\";

/* Reads a single-line basic ("...") or literal ('...') string at p->pos
 * into the pool; *out / *out_len the decoded bytes. */
static int read_string(parser *p, const char **out, size_t *out_len)
{
    char q = p->s[p->pos];
    if (peek_at(p, 1) == q && peek_at(p, 2) == q)
        return fail(p, CZ_ERR_UNSUPPORTED, "multi-line strings are not supported");
    p->pos++;
    char *o = p->doc->pool + p->pool_len;
    size_t n = 0;
    for (;;) {
        int c = peek(p);
        if (c < 0 || c == '\n' || (c == '\r' && peek_at(p, 1) == '\n'))
            return fail(p, CZ_ERR_BAD_FORMAT, "unterminated string");
        if (is_control(c))
            return fail(p, CZ_ERR_BAD_FORMAT, "control character 0x%02x in a string", c);
        p->pos++;
        if (c == q)
            break;
        if (c != '\\' || q == '\'') {
            o[n++] = (char)c;
            continue;
        }
        int e = peek(p);
        p->pos++;
        const char *simple = e > 0 ? strchr(simple_escapes, e) : NULL;
        if (simple != NULL) {
            o[n++] = simple_chars[simple - simple_escapes];
            continue;
        }
        if (e == 'u' || e == 'U') {
            unsigned digits = e == 'u' ? 4 : 8;
            uint32_t v = 0;
            for (unsigned i = 0; i < digits; i++) {
                int h = peek(p);
                int d = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
                if (d < 0)
                    return fail(p, CZ_ERR_BAD_FORMAT, "\\%c needs %u hex digits", e, digits);
                v = v << 4 | (uint32_t)d;
                p->pos++;
            }
            if (v == 0)
                return fail(p, CZ_ERR_BAD_FORMAT, "\\u0000 (NUL) is not allowed in a string");
            if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
                return fail(p, CZ_ERR_BAD_FORMAT, "\\%c escape 0x%x is not a Unicode scalar value",
                            e, (unsigned)v);
            put_utf8(o, &n, v);
            continue;
        }
        if (e < 0x20 || e >= 0x7f)
            return fail(p, CZ_ERR_BAD_FORMAT, "bad escape sequence");
        return fail(p, CZ_ERR_BAD_FORMAT, "bad escape sequence \\%c", e);
    }
    o[n] = 0;
    p->pool_len += n + 1;
    *out = o;
    *out_len = n;
    return CZ_OK;
}

/* ----------------------------------------------------------- keys --- */

static void skip_ws(parser *p)
{
    while (peek(p) == ' ' || peek(p) == '\t')
        p->pos++;
}

typedef struct {
    const char *s[CZ_TOML_MAX_KEY_PARTS];
    size_t n[CZ_TOML_MAX_KEY_PARTS];
    unsigned parts;
} keypath;

/* Reads a (dotted) key and sets p->key to prefix.key for messages. */
static int read_key(parser *p, keypath *k, size_t prefix)
{
    size_t at = 0;
    cz_toml_path(p->doc, prefix, p->key, sizeof p->key);
    at = strlen(p->key);
    k->parts = 0;
    for (;;) {
        skip_ws(p);
        if (k->parts == CZ_TOML_MAX_KEY_PARTS)
            return fail(p, CZ_ERR_BAD_FORMAT, "more than %u dotted parts", CZ_TOML_MAX_KEY_PARTS);
        int c = peek(p);
        const char *seg;
        size_t n;
        if (c == '"' || c == '\'') {
            int rc = read_string(p, &seg, &n);
            if (rc != CZ_OK)
                return rc;
        } else if (is_bare(c)) {
            size_t start = p->pos;
            while (is_bare(peek(p)))
                p->pos++;
            n = p->pos - start;
            char *o = p->doc->pool + p->pool_len;
            memcpy(o, p->s + start, n);
            o[n] = 0;
            p->pool_len += n + 1;
            seg = o;
        } else {
            if (k->parts == 0)
                p->key[0] = 0;
            return fail(p, CZ_ERR_BAD_FORMAT, "expected a key%s",
                        k->parts == 0 ? "" : " after '.'");
        }
        k->s[k->parts] = seg;
        k->n[k->parts++] = n;
        append_seg(p->key, sizeof p->key, &at, seg, n);
        skip_ws(p);
        if (peek(p) != '.')
            return CZ_OK;
        p->pos++;
    }
}

/* ----------------------------------------------------------- values --- */

static bool delim(int c)
{
    return c < 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' ||
           c == '#';
}

static bool is_digit_base(int c, unsigned base)
{
    if (base == 16)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return c >= '0' && c < '0' + (int)base;
}

/* Checks digits (base) with single underscores between digits in
 * t[*i..end); appends the digits to clean.  False if none or misplaced _. */
static bool digits(const char *t, size_t *i, size_t end, unsigned base, char *clean, size_t *cn)
{
    size_t start = *i;
    while (*i < end) {
        int c = (unsigned char)t[*i];
        if (is_digit_base(c, base)) {
            clean[(*cn)++] = (char)c;
        } else if (c == '_') {
            if (*i == start || *i + 1 >= end || !is_digit_base((unsigned char)t[*i + 1], base))
                return false;
        } else {
            break;
        }
        (*i)++;
    }
    return *i > start;
}

static int number(parser *p, cz_toml_node *v, const char *t, size_t n)
{
    char clean[128];
    size_t cn = 0, i = 0;
    if (n >= sizeof clean)
        return fail(p, CZ_ERR_BAD_FORMAT, "number too long");
    for (size_t j = 0; j < n; j++)
        if (t[j] == ':' || (j == 4 && t[j] == '-' && strspn(t, "0123456789") == 4))
            return fail(p, CZ_ERR_UNSUPPORTED, "dates and times are not supported");
    bool neg = t[0] == '-';
    size_t s0 = t[0] == '+' || t[0] == '-' ? 1 : 0;
    if (n - s0 == 3 && (memcmp(t + s0, "inf", 3) == 0 || memcmp(t + s0, "nan", 3) == 0)) {
        v->type = CZ_TOML_FLOAT;
        v->f = t[s0] == 'i' ? (neg ? -INFINITY : INFINITY) : NAN;
        return CZ_OK;
    }
    if (s0 == 0 && n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
        unsigned base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
        i = 2;
        if (!digits(t, &i, n, base, clean, &cn) || i != n)
            return fail(p, CZ_ERR_BAD_FORMAT, "malformed integer '%.*s'", (int)n, t);
        uint64_t x = 0;
        for (size_t j = 0; j < cn; j++) {
            int c = clean[j];
            unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
            if (x > ((uint64_t)INT64_MAX - d) / base)
                return fail(p, CZ_ERR_BAD_FORMAT, "integer '%.*s' out of range", (int)n, t);
            x = x * base + d;
        }
        v->type = CZ_TOML_INT;
        v->i = (int64_t)x;
        return CZ_OK;
    }
    i = s0;
    if (s0)
        clean[cn++] = t[0];
    size_t int_start = i;
    if (!digits(t, &i, n, 10, clean, &cn))
        return fail(p, CZ_ERR_BAD_FORMAT, "malformed value '%.*s'", (int)n, t);
    if (t[int_start] == '0' && i - int_start > 1)
        return fail(p, CZ_ERR_BAD_FORMAT, "leading zero in '%.*s'", (int)n, t);
    bool is_float = false;
    if (i < n && t[i] == '.') {
        clean[cn++] = t[i++];
        if (!digits(t, &i, n, 10, clean, &cn))
            return fail(p, CZ_ERR_BAD_FORMAT, "malformed float '%.*s'", (int)n, t);
        is_float = true;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        clean[cn++] = t[i++];
        if (i < n && (t[i] == '+' || t[i] == '-'))
            clean[cn++] = t[i++];
        if (!digits(t, &i, n, 10, clean, &cn))
            return fail(p, CZ_ERR_BAD_FORMAT, "malformed float '%.*s'", (int)n, t);
        is_float = true;
    }
    if (i != n)
        return fail(p, CZ_ERR_BAD_FORMAT, "malformed value '%.*s'", (int)n, t);
    clean[cn] = 0;
    if (is_float) {
        double f = strtod(clean, NULL);
        if (!isfinite(f))
            return fail(p, CZ_ERR_BAD_FORMAT, "float '%.*s' out of range", (int)n, t);
        v->type = CZ_TOML_FLOAT;
        v->f = f;
        return CZ_OK;
    }
    uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (size_t j = s0; j < cn; j++) {
        unsigned d = (unsigned)(clean[j] - '0');
        if (x > (lim - d) / 10)
            return fail(p, CZ_ERR_BAD_FORMAT, "integer '%.*s' out of range", (int)n, t);
        x = x * 10 + d;
    }
    v->type = CZ_TOML_INT;
    v->i = neg ? (int64_t)(0 - x) : (int64_t)x;
    return CZ_OK;
}

/* Skips white space, newlines and comments inside an array. */
static int skip_array_ws(parser *p)
{
    for (;;) {
        int c = peek(p);
        if (c == ' ' || c == '\t') {
            p->pos++;
        } else if (c == '\n') {
            p->pos++;
            p->line++;
        } else if (c == '\r' && peek_at(p, 1) == '\n') {
            p->pos += 2;
            p->line++;
        } else if (c == '#') {
            while ((c = peek(p)) >= 0 && c != '\n' && c != '\r') {
                if (is_control(c))
                    return fail(p, CZ_ERR_BAD_FORMAT, "control character 0x%02x in a comment", c);
                p->pos++;
            }
        } else {
            return CZ_OK;
        }
    }
}

static int value(parser *p, size_t parent, const char *key, size_t key_len, unsigned depth)
{
    size_t idx;
    int rc = push(p, CZ_TOML_STRING, parent, key, key_len, &idx);
    if (rc != CZ_OK)
        return rc;
    int c = peek(p);
    if (c == '"' || c == '\'') {
        const char *s;
        size_t n;
        if ((rc = read_string(p, &s, &n)) != CZ_OK)
            return rc;
        p->doc->nodes[idx].str = s;
        p->doc->nodes[idx].len = n;
        return CZ_OK;
    }
    if (c == '{')
        return fail(p, CZ_ERR_UNSUPPORTED, "inline tables are not supported; use a [table]");
    if (c == '[') {
        if (depth == CZ_TOML_MAX_DEPTH)
            return fail(p, CZ_ERR_BAD_FORMAT, "arrays nested more than %u deep", CZ_TOML_MAX_DEPTH);
        p->doc->nodes[idx].type = CZ_TOML_ARRAY;
        p->pos++;
        for (;;) {
            if ((rc = skip_array_ws(p)) != CZ_OK)
                return rc;
            if (peek(p) == ']') {
                p->pos++;
                return CZ_OK;
            }
            if ((rc = value(p, idx, NULL, 0, depth + 1)) != CZ_OK)
                return rc;
            if ((rc = skip_array_ws(p)) != CZ_OK)
                return rc;
            c = peek(p);
            if (c == ',') {
                p->pos++;
            } else if (c != ']') {
                return fail(p, CZ_ERR_BAD_FORMAT,
                            c < 0 ? "unterminated array" : "expected ',' or ']' in an array");
            }
        }
    }
    size_t start = p->pos;
    while (!delim(peek(p)))
        p->pos++;
    const char *t = p->s + start;
    size_t n = p->pos - start;
    cz_toml_node *v = &p->doc->nodes[idx];
    if (n == 4 && memcmp(t, "true", 4) == 0) {
        v->type = CZ_TOML_BOOL;
        v->b = true;
        return CZ_OK;
    }
    if (n == 5 && memcmp(t, "false", 5) == 0) {
        v->type = CZ_TOML_BOOL;
        return CZ_OK;
    }
    if (n == 0)
        return fail(p, CZ_ERR_BAD_FORMAT, "expected a value");
    if (!(t[0] == '+' || t[0] == '-' || (t[0] >= '0' && t[0] <= '9') ||
          (n >= 3 && (memcmp(t, "inf", 3) == 0 || memcmp(t, "nan", 3) == 0))))
        return fail(p, CZ_ERR_BAD_FORMAT,
                    "expected a value (string, number, boolean or array), found '%.*s'",
                    (int)(n > 32 ? 32 : n), t);
    return number(p, v, t, n);
}

/* ------------------------------------------------------------ lines --- */

static int header(parser *p)
{
    p->pos++;
    if (peek(p) == '[') {
        p->key[0] = 0;
        return fail(p, CZ_ERR_UNSUPPORTED, "arrays of tables ([[...]]) are not supported");
    }
    keypath k;
    p->header = true;
    int rc = read_key(p, &k, 0);
    if (rc != CZ_OK)
        return rc;
    if (peek(p) != ']')
        return fail(p, CZ_ERR_BAD_FORMAT, "expected ']' after the table name");
    p->pos++;
    cz_toml_doc *d = p->doc;
    size_t t = 0;
    for (unsigned i = 0; i < k.parts; i++) {
        size_t c = child(d, t, k.s[i], k.n[i]);
        bool last = i + 1 == k.parts;
        if (c == SIZE_MAX) {
            if ((rc = push(p, CZ_TOML_TABLE, t, k.s[i], k.n[i], &c)) != CZ_OK)
                return rc;
            d->nodes[c].how = last ? HOW_HEADER : HOW_IMPLICIT;
            d->nodes[c].block = p->block + 1;
        } else if (d->nodes[c].type != CZ_TOML_TABLE) {
            return fail(p, CZ_ERR_BAD_FORMAT, "'%.*s' is already a value (line %zu)", (int)k.n[i],
                        k.s[i], d->nodes[c].line);
        } else if (last && d->nodes[c].how == HOW_HEADER) {
            return fail(p, CZ_ERR_BAD_FORMAT, "table defined twice (first on line %zu)",
                        d->nodes[c].line);
        } else if (last && d->nodes[c].how == HOW_DOTTED) {
            return fail(p, CZ_ERR_BAD_FORMAT, "table already defined by dotted keys on line %zu",
                        d->nodes[c].line);
        } else if (last) {
            d->nodes[c].how = HOW_HEADER;
            d->nodes[c].line = p->line;
            d->nodes[c].block = p->block + 1;
        }
        t = c;
    }
    p->block++;
    p->table = t;
    return CZ_OK;
}

static int keyval(parser *p)
{
    keypath k;
    p->header = false;
    int rc = read_key(p, &k, p->table);
    if (rc != CZ_OK)
        return rc;
    if (peek(p) != '=')
        return fail(p, CZ_ERR_BAD_FORMAT, "expected '=' after the key");
    p->pos++;
    skip_ws(p);
    cz_toml_doc *d = p->doc;
    size_t t = p->table;
    for (unsigned i = 0; i + 1 < k.parts; i++) {
        size_t c = child(d, t, k.s[i], k.n[i]);
        if (c == SIZE_MAX) {
            if ((rc = push(p, CZ_TOML_TABLE, t, k.s[i], k.n[i], &c)) != CZ_OK)
                return rc;
            d->nodes[c].how = HOW_DOTTED;
            d->nodes[c].block = p->block;
        } else if (d->nodes[c].type != CZ_TOML_TABLE) {
            return fail(p, CZ_ERR_BAD_FORMAT, "'%.*s' is already a value (line %zu)", (int)k.n[i],
                        k.s[i], d->nodes[c].line);
        } else if (d->nodes[c].how != HOW_DOTTED || d->nodes[c].block != p->block) {
            return fail(p, CZ_ERR_BAD_FORMAT,
                        "table '%.*s' was defined on line %zu; dotted keys may not add to it",
                        (int)k.n[i], k.s[i], d->nodes[c].line);
        }
        t = c;
    }
    size_t c = child(d, t, k.s[k.parts - 1], k.n[k.parts - 1]);
    if (c != SIZE_MAX)
        return fail(p, CZ_ERR_BAD_FORMAT, "defined twice (first on line %zu)", d->nodes[c].line);
    return value(p, t, k.s[k.parts - 1], k.n[k.parts - 1], 0);
}

/* After a header or key/value: white space, an optional comment, then a
 * line end or the end of the text. */
static int end_of_line(parser *p)
{
    skip_ws(p);
    int c = peek(p);
    if (c == '#') {
        while ((c = peek(p)) >= 0 && c != '\n' && c != '\r') {
            if (is_control(c))
                return fail(p, CZ_ERR_BAD_FORMAT, "control character 0x%02x in a comment", c);
            p->pos++;
        }
    }
    if (c < 0)
        return CZ_OK;
    if (c == '\r' && peek_at(p, 1) == '\n')
        p->pos++;
    else if (c == '\r')
        return fail(p, CZ_ERR_BAD_FORMAT, "carriage return without a line feed");
    else if (c != '\n')
        return fail(p, CZ_ERR_BAD_FORMAT, "unexpected text after the %s",
                    p->header ? "table header" : "value");
    p->pos++;
    p->line++;
    return CZ_OK;
}

/* Offset of the first byte that is not valid UTF-8 (overlong forms,
 * surrogates and code points past U+10FFFF are invalid), or len. */
static size_t utf8_check(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        uint32_t v, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1, v = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, v = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3, v = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        if (len - i <= n)
            return i;
        for (size_t j = 1; j <= n; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return i;
            v = v << 6 | (s[i + j] & 0x3f);
        }
        if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
            return i;
        i += n + 1;
    }
    return len;
}

int cz_toml_parse(cz_toml_doc *doc, const char *text, size_t len, const char *name, char *err,
                  size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (doc == NULL || (text == NULL && len > 0)) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "toml: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    memset(doc, 0, sizeof *doc);
    parser p = {.s = text,
                .len = len,
                .line = 1,
                .name = name ? name : "(config)",
                .doc = doc,
                .err = err,
                .errlen = errlen};
    if (len > CZ_TOML_MAX_BYTES)
        return fail(&p, CZ_ERR_TOO_BIG, "larger than %u bytes", CZ_TOML_MAX_BYTES);
    size_t bad = utf8_check((const unsigned char *)text, len);
    if (bad < len) {
        for (size_t i = 0; i < bad; i++)
            p.line += text[i] == '\n';
        return fail(&p, CZ_ERR_BAD_FORMAT, "invalid UTF-8");
    }
    int rc = CZ_ERR_NOMEM;
    doc->pool = malloc(len + 1);
    size_t root;
    if (doc->pool == NULL || (rc = push(&p, CZ_TOML_TABLE, 0, NULL, 0, &root)) != CZ_OK)
        goto out;
    doc->nodes[0].how = HOW_ROOT;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        p.pos = 3;
    for (;;) {
        skip_ws(&p);
        int c = peek(&p);
        if (c < 0)
            break;
        p.key[0] = 0;
        p.header = false;
        rc = CZ_OK;
        if (c == '[')
            rc = header(&p);
        else if (c != '#' && c != '\n' && c != '\r')
            rc = keyval(&p);
        if (rc == CZ_OK)
            rc = end_of_line(&p);
        if (rc != CZ_OK)
            goto out;
    }
    return CZ_OK;
out:
    cz_toml_free(doc);
    return rc;
}

void cz_toml_free(cz_toml_doc *doc)
{
    if (doc == NULL)
        return;
    free(doc->nodes);
    free(doc->pool);
    memset(doc, 0, sizeof *doc);
}
