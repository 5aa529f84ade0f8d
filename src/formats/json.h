/* A strict JSON (RFC 8259) reader into a read-only tree, for the small JSON
 * files of other tools (snarkjs).  Not part of the public API.
 *
 * Strict means: the text is exactly one value with optional whitespace
 * (space, tab, CR, LF) around it; no byte-order mark, comments, trailing
 * commas, single quotes, leading zeros, NaN or other extensions; strings
 * hold valid UTF-8 with no raw control characters and only the escapes of
 * the RFC (\uXXXX surrogates must pair).  Duplicate object keys are kept
 * (in order) for the caller to reject with its own message.  Containers
 * nest at most max_depth levels. */
#ifndef CZ_JSON_H
#define CZ_JSON_H

#include <stddef.h>

typedef enum {
    CZ_JSON_NULL,
    CZ_JSON_FALSE,
    CZ_JSON_TRUE,
    CZ_JSON_NUMBER,
    CZ_JSON_STRING,
    CZ_JSON_ARRAY,
    CZ_JSON_OBJECT
} cz_json_type;

/* A node of the tree.  The nodes of a document are one array in document
 * order: a container's children follow it, and the sibling after a node
 * starts span nodes further on. */
typedef struct {
    cz_json_type type;
    /* STRING: the decoded bytes (NUL-terminated; may hold NUL from \u0000);
     * NUMBER: the lexeme as written; otherwise NULL / 0. */
    const char *str;
    size_t len;
    /* For a member of an object: its decoded key (NUL-terminated). */
    const char *key;
    size_t key_len;
    size_t n;         /* ARRAY: elements; OBJECT: members; otherwise 0 */
    size_t span;      /* nodes in this subtree, this one included */
    size_t line, col; /* where the value starts (1-based, columns in bytes) */
} cz_json_value;

typedef struct {
    cz_json_value *nodes; /* nodes[0] is the root */
    char *pool;           /* the decoded strings */
} cz_json_doc;

/* Parses text[0..len) (need not be NUL-terminated).  Returns CZ_OK,
 * CZ_ERR_BAD_FORMAT (message: "line L, column C: what is wrong") or
 * CZ_ERR_NOMEM; on failure *doc is zeroed.  Memory: sizeof(cz_json_value)
 * (72 bytes on LP64) per value plus len + 1 bytes. */
int cz_json_parse(cz_json_doc *doc, const char *text, size_t len, unsigned max_depth, char *err,
                  size_t errlen);
void cz_json_free(cz_json_doc *doc);

/* The first child of a non-empty container, and the sibling after v. */
static inline const cz_json_value *cz_json_first(const cz_json_value *v) { return v + 1; }
static inline const cz_json_value *cz_json_next(const cz_json_value *v) { return v + v->span; }

#endif /* CZ_JSON_H */
