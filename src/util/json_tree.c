/* The JSON tree (contract in json_tree.h): recursive descent over the
 * pull reader, depth bounded by the caller, decoded strings in one pool of
 * len + 1 bytes (a string's decoded bytes and NUL never exceed its quoted
 * text; a number's lexeme and NUL take one byte more than its text, paid
 * for by the separator, bracket or end of text after it). */
#include "util/json_tree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"

typedef struct {
    cz_jr r;
    cz_json_value *nodes;
    size_t n_nodes, cap;
    char *pool;
    size_t pool_len;
    unsigned max_depth;
} builder;

/* Appends a node; its index in *idx. */
static int push(builder *b, size_t *idx)
{
    if (b->n_nodes == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        cz_json_value *p = cap <= SIZE_MAX / sizeof *p ? realloc(b->nodes, cap * sizeof *p) : NULL;
        if (p == NULL)
            return cz_jr_fail(&b->r, CZ_ERR_NOMEM, "out of memory at %zu values", b->n_nodes);
        b->nodes = p;
        b->cap = cap;
    }
    *idx = b->n_nodes++;
    memset(&b->nodes[*idx], 0, sizeof b->nodes[*idx]);
    return CZ_OK;
}

/* A string's raw bytes decoded into the pool, NUL-terminated. */
static const char *pool_str(builder *b, const uint8_t *raw, size_t n, bool esc, size_t *len)
{
    char *o = b->pool + b->pool_len;
    if (esc) {
        n = cz_jr_unescape((uint8_t *)o, raw, n);
    } else {
        memcpy(o, raw, n);
    }
    o[n] = '\0';
    b->pool_len += n + 1;
    *len = n;
    return o;
}

static int value(builder *b, unsigned depth, const char *key, size_t key_len);

/* The elements or members of the container node idx, at its first byte. */
static int container(builder *b, size_t idx, unsigned depth)
{
    cz_jr *r = &b->r;
    size_t n = 0;
    int m, rc;
    if (depth >= b->max_depth)
        return cz_jr_fail(r, CZ_ERR_BAD_FORMAT, "nesting deeper than %u levels", b->max_depth);
    if (b->nodes[idx].type == CZ_JSON_ARRAY) {
        cz_jr_arr a;
        if (cz_jr_arr_begin(r, &a))
            return r->rc;
        while ((m = cz_jr_arr_next(r, &a, UINT64_MAX, "elements")) == 1) {
            rc = value(b, depth + 1, NULL, 0);
            cz_jr_pop(r);
            if (rc)
                return rc;
            n++;
        }
    } else {
        cz_jr_obj o;
        const uint8_t *raw;
        size_t raw_len, key_len;
        bool esc;
        if (cz_jr_obj_begin(r, &o))
            return r->rc;
        while ((m = cz_jr_member(r, &o, &raw, &raw_len, &esc)) == 1) {
            const char *key = pool_str(b, raw, raw_len, esc, &key_len);
            rc = value(b, depth + 1, key, key_len);
            cz_jr_pop(r);
            if (rc)
                return rc;
            n++;
        }
    }
    b->nodes[idx].n = n;
    return m == 0 ? CZ_OK : r->rc;
}

/* One value, inside depth containers. */
static int value(builder *b, unsigned depth, const char *key, size_t key_len)
{
    cz_jr *r = &b->r;
    const uint8_t *s;
    size_t idx = 0, n;
    bool esc, v;
    int t = cz_jr_peek(r), rc;
    if (t == CZ_JR_ERROR)
        return r->rc;
    if ((rc = push(b, &idx)) != CZ_OK)
        return rc;
    b->nodes[idx].type = (cz_json_type)t;
    b->nodes[idx].key = key;
    b->nodes[idx].key_len = key_len;
    switch (t) {
    case CZ_JSON_ARRAY:
    case CZ_JSON_OBJECT:
        rc = container(b, idx, depth);
        break;
    case CZ_JSON_STRING:
        if ((rc = cz_jr_str(r, &s, &n, &esc)) == CZ_OK)
            b->nodes[idx].str = pool_str(b, s, n, esc, &b->nodes[idx].len);
        break;
    case CZ_JSON_NUMBER:
        if ((rc = cz_jr_num(r, &s, &n)) == CZ_OK)
            b->nodes[idx].str = pool_str(b, s, n, false, &b->nodes[idx].len);
        break;
    case CZ_JSON_NULL:
        rc = cz_jr_null(r);
        break;
    default:
        rc = cz_jr_bool(r, &v);
        break;
    }
    b->nodes[idx].span = b->n_nodes - idx;
    return rc;
}

int cz_json_parse(cz_json_doc *doc, const char *text, size_t len, unsigned max_depth, char *err,
                  size_t errlen)
{
    builder b = {.max_depth = max_depth};
    if (doc == NULL || (text == NULL && len > 0))
        return CZ_ERR_INVALID_ARG;
    memset(doc, 0, sizeof *doc);
    cz_jr_init(&b.r, (const uint8_t *)text, len, NULL, err, errlen);
    b.r.lines = true;
    b.pool = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (b.pool == NULL)
        return cz_jr_fail(&b.r, CZ_ERR_NOMEM, "cannot allocate %zu bytes", len);
    int rc = value(&b, 0, NULL, 0);
    if (rc == CZ_OK)
        rc = cz_jr_finish(&b.r);
    if (rc != CZ_OK) {
        free(b.nodes);
        free(b.pool);
        return rc;
    }
    doc->nodes = b.nodes;
    doc->pool = b.pool;
    return CZ_OK;
}

void cz_json_free(cz_json_doc *doc)
{
    if (doc != NULL) {
        free(doc->nodes);
        free(doc->pool);
        *doc = (cz_json_doc){NULL, NULL};
    }
}
