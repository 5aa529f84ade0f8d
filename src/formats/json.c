/* Strict JSON reader (contract in json.h): recursive descent, depth bounded
 * by the caller, decoded strings in one pool of len + 1 bytes (a string's
 * decoded bytes and NUL never exceed its quoted text; a number's lexeme and
 * NUL take one byte more than its text, paid for by the separator, bracket
 * or end of text after it). */
#include "json.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"

typedef struct {
    const unsigned char *s;
    size_t len, pos;
    size_t line, line_start; /* current line (1-based) and its first byte */
    cz_json_value *nodes;
    size_t n_nodes, cap;
    char *pool;
    size_t pool_len;
    unsigned max_depth;
    char *err;
    size_t errlen;
} parser;

static int fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(parser *ps, const char *fmt, ...)
{
    if (ps->err != NULL && ps->errlen > 0) {
        int k = snprintf(ps->err, ps->errlen, "line %zu, column %zu: ", ps->line,
                         ps->pos - ps->line_start + 1);
        if (k >= 0 && (size_t)k < ps->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(ps->err + k, ps->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return CZ_ERR_BAD_FORMAT;
}

static int peek(const parser *ps) { return ps->pos < ps->len ? ps->s[ps->pos] : -1; }

static void skip_ws(parser *ps)
{
    while (ps->pos < ps->len) {
        unsigned char c = ps->s[ps->pos];
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        ps->pos++;
    }
}

/* Appends a node; its index in *idx. */
static int push(parser *ps, size_t *idx)
{
    if (ps->n_nodes == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 16;
        cz_json_value *p = cap <= SIZE_MAX / sizeof *p ? realloc(ps->nodes, cap * sizeof *p) : NULL;
        if (p == NULL) {
            if (ps->err != NULL && ps->errlen > 0)
                snprintf(ps->err, ps->errlen, "json: out of memory at %zu values", ps->n_nodes);
            return CZ_ERR_NOMEM;
        }
        ps->nodes = p;
        ps->cap = cap;
    }
    *idx = ps->n_nodes++;
    memset(&ps->nodes[*idx], 0, sizeof ps->nodes[*idx]);
    ps->nodes[*idx].line = ps->line;
    ps->nodes[*idx].col = ps->pos - ps->line_start + 1;
    return CZ_OK;
}

static int hex4(parser *ps, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int c = peek(ps);
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(ps, "\\u escape needs four hex digits");
        *v = *v << 4 | d;
        ps->pos++;
    }
    return CZ_OK;
}

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s[0..n), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    size_t k;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2;
    else if (c >= 0xe0 && c <= 0xef)
        k = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
        k = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (n < k || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return k;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* One escape after the backslash; appends its bytes at o, count in *k. */
static int escape(parser *ps, char *o, size_t *k)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    int c = peek(ps);
    const char *at = c > 0 ? strchr(from, c) : NULL;
    unsigned cp, lo;
    if (at != NULL) {
        ps->pos++;
        o[0] = to[at - from];
        *k = 1;
        return CZ_OK;
    }
    if (c != 'u')
        return fail(ps, "invalid escape in a string");
    ps->pos++;
    int rc = hex4(ps, &cp);
    if (rc != CZ_OK)
        return rc;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return fail(ps, "unpaired low surrogate \\u%04x", cp);
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (peek(ps) != '\\' || ps->pos + 1 >= ps->len || ps->s[ps->pos + 1] != 'u')
            return fail(ps, "high surrogate \\u%04x without a low surrogate", cp);
        ps->pos += 2;
        if ((rc = hex4(ps, &lo)) != CZ_OK)
            return rc;
        if (lo < 0xdc00 || lo > 0xdfff)
            return fail(ps, "high surrogate \\u%04x followed by \\u%04x", cp, lo);
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    *k = put_utf8(o, cp);
    return CZ_OK;
}

/* The string at ps->pos (at its opening quote), decoded into the pool. */
static int string(parser *ps, const char **out, size_t *out_len)
{
    char *o = ps->pool + ps->pool_len;
    size_t n = 0;
    ps->pos++;
    for (;;) {
        if (ps->pos >= ps->len)
            return fail(ps, "unterminated string");
        unsigned char c = ps->s[ps->pos];
        if (c == '"') {
            ps->pos++;
            break;
        }
        if (c == '\\') {
            size_t k = 0;
            ps->pos++;
            int rc = escape(ps, o + n, &k);
            if (rc != CZ_OK)
                return rc;
            n += k;
        } else if (c < 0x20) {
            return fail(ps, "control character 0x%02x in a string", c);
        } else if (c < 0x80) {
            o[n++] = (char)c;
            ps->pos++;
        } else {
            size_t k = utf8_seq(ps->s + ps->pos, ps->len - ps->pos);
            if (k == 0)
                return fail(ps, "invalid UTF-8 in a string");
            memcpy(o + n, ps->s + ps->pos, k);
            n += k;
            ps->pos += k;
        }
    }
    o[n] = 0;
    ps->pool_len += n + 1;
    *out = o;
    *out_len = n;
    return CZ_OK;
}

static size_t digits(parser *ps)
{
    size_t start = ps->pos;
    while (ps->pos < ps->len && ps->s[ps->pos] >= '0' && ps->s[ps->pos] <= '9')
        ps->pos++;
    return ps->pos - start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, lexeme copied to the pool. */
static int number(parser *ps, cz_json_value *v)
{
    size_t start = ps->pos;
    if (peek(ps) == '-')
        ps->pos++;
    if (peek(ps) == '0') {
        ps->pos++;
        if (peek(ps) >= '0' && peek(ps) <= '9')
            return fail(ps, "number with a leading zero");
    } else if (digits(ps) == 0) {
        return fail(ps, "invalid number");
    }
    if (peek(ps) == '.') {
        ps->pos++;
        if (digits(ps) == 0)
            return fail(ps, "no digits after the decimal point");
    }
    if (peek(ps) == 'e' || peek(ps) == 'E') {
        ps->pos++;
        if (peek(ps) == '+' || peek(ps) == '-')
            ps->pos++;
        if (digits(ps) == 0)
            return fail(ps, "no digits in the exponent");
    }
    char *o = ps->pool + ps->pool_len;
    v->len = ps->pos - start;
    memcpy(o, ps->s + start, v->len);
    o[v->len] = 0;
    ps->pool_len += v->len + 1;
    v->str = o;
    return CZ_OK;
}

static int literal(parser *ps, const char *word, size_t n)
{
    if (ps->len - ps->pos < n || memcmp(ps->s + ps->pos, word, n) != 0)
        return fail(ps, "invalid literal (expected %s)", word);
    ps->pos += n;
    return CZ_OK;
}

static int value(parser *ps, unsigned depth, const char *key, size_t key_len);

/* An array or object at ps->pos; the node at idx. */
static int container(parser *ps, size_t idx, unsigned depth)
{
    int close = ps->s[ps->pos] == '[' ? ']' : '}', rc;
    bool is_obj = close == '}';
    size_t n = 0;
    if (depth >= ps->max_depth)
        return fail(ps, "nesting deeper than %u levels", ps->max_depth);
    ps->nodes[idx].type = is_obj ? CZ_JSON_OBJECT : CZ_JSON_ARRAY;
    ps->pos++;
    skip_ws(ps);
    if (peek(ps) == close) {
        ps->pos++;
        return CZ_OK;
    }
    for (;;) {
        const char *key = NULL;
        size_t key_len = 0;
        if (is_obj) {
            if (peek(ps) != '"')
                return fail(ps, "expected a string key");
            if ((rc = string(ps, &key, &key_len)) != CZ_OK)
                return rc;
            skip_ws(ps);
            if (peek(ps) != ':')
                return fail(ps, "expected ':' after the key \"%s\"", key);
            ps->pos++;
            skip_ws(ps);
        }
        if ((rc = value(ps, depth + 1, key, key_len)) != CZ_OK)
            return rc;
        n++;
        skip_ws(ps);
        int c = peek(ps);
        ps->pos++;
        if (c == close)
            break;
        if (c != ',') {
            ps->pos--;
            return fail(ps, "expected ',' or '%c'", close);
        }
        skip_ws(ps);
        if (!is_obj && peek(ps) == ']')
            return fail(ps, "trailing comma in an array");
    }
    ps->nodes[idx].n = n;
    return CZ_OK;
}

/* One value at ps->pos (whitespace skipped), inside depth containers. */
static int value(parser *ps, unsigned depth, const char *key, size_t key_len)
{
    size_t idx;
    int c = peek(ps), rc = push(ps, &idx);
    if (rc != CZ_OK)
        return rc;
    ps->nodes[idx].key = key;
    ps->nodes[idx].key_len = key_len;
    switch (c) {
    case '[':
    case '{':
        rc = container(ps, idx, depth);
        break;
    case '"':
        ps->nodes[idx].type = CZ_JSON_STRING;
        rc = string(ps, &ps->nodes[idx].str, &ps->nodes[idx].len);
        break;
    case 't':
        ps->nodes[idx].type = CZ_JSON_TRUE;
        rc = literal(ps, "true", 4);
        break;
    case 'f':
        ps->nodes[idx].type = CZ_JSON_FALSE;
        rc = literal(ps, "false", 5);
        break;
    case 'n':
        ps->nodes[idx].type = CZ_JSON_NULL;
        rc = literal(ps, "null", 4);
        break;
    case -1:
        return fail(ps, "unexpected end of the text, expected a value");
    default:
        if (c != '-' && (c < '0' || c > '9'))
            return fail(ps, "unexpected character 0x%02x, expected a value", (unsigned)c);
        ps->nodes[idx].type = CZ_JSON_NUMBER;
        rc = number(ps, &ps->nodes[idx]);
        break;
    }
    ps->nodes[idx].span = ps->n_nodes - idx;
    return rc;
}

int cz_json_parse(cz_json_doc *doc, const char *text, size_t len, unsigned max_depth, char *err,
                  size_t errlen)
{
    parser ps = {.s = (const unsigned char *)text,
                 .len = len,
                 .line = 1,
                 .max_depth = max_depth,
                 .err = err,
                 .errlen = errlen};
    int rc;
    if (doc == NULL || (text == NULL && len > 0))
        return CZ_ERR_INVALID_ARG;
    memset(doc, 0, sizeof *doc);
    ps.pool = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (ps.pool == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "json: cannot allocate %zu bytes", len);
        return CZ_ERR_NOMEM;
    }
    skip_ws(&ps);
    rc = value(&ps, 0, NULL, 0);
    if (rc == CZ_OK) {
        skip_ws(&ps);
        if (ps.pos != len)
            rc = fail(&ps, "trailing characters after the JSON value");
    }
    if (rc != CZ_OK) {
        free(ps.nodes);
        free(ps.pool);
        return rc;
    }
    doc->nodes = ps.nodes;
    doc->pool = ps.pool;
    return CZ_OK;
}

void cz_json_free(cz_json_doc *doc)
{
    if (doc == NULL)
        return;
    free(doc->nodes);
    free(doc->pool);
    memset(doc, 0, sizeof *doc);
}
