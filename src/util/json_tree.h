/* A JSON document as a read-only tree, built by the reader of
 * json_read.h: for small documents read as a whole (snarkjs's files, the
 * tests' reading of what the daemon writes).  Internal to cuzk.
 *
 * Strict as json_read.h says: the text is exactly one value with optional
 * whitespace (space, tab, CR, LF) around it.  Duplicate object keys are
 * kept (in order) for the caller to reject with its own message.
 * Containers nest at most max_depth levels. */
#ifndef CZ_UTIL_JSON_TREE_H
#define CZ_UTIL_JSON_TREE_H

#include <stddef.h>

#include "util/json_read.h"

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
    size_t n;    /* ARRAY: elements; OBJECT: members; otherwise 0 */
    size_t span; /* nodes in this subtree, this one included */
} cz_json_value;

typedef struct {
    cz_json_value *nodes; /* nodes[0] is the root */
    char *pool;           /* the decoded strings */
} cz_json_doc;

/* Parses text[0..len) (need not be NUL-terminated) nested at most
 * max_depth levels (at most CZ_JR_MAX_DEPTH).  Returns CZ_OK,
 * CZ_ERR_BAD_FORMAT or CZ_ERR_NOMEM with the message "line L, column C:
 * what is wrong" (json_read.h's located by line; "nesting deeper than N
 * levels" for max_depth); on failure *doc is zeroed.  Memory:
 * sizeof(cz_json_value) (56 bytes on LP64) per value plus len + 1 bytes. */
int cz_json_parse(cz_json_doc *doc, const char *text, size_t len, unsigned max_depth, char *err,
                  size_t errlen);
void cz_json_free(cz_json_doc *doc);

/* The first child of a non-empty container, and the sibling after v. */
static inline const cz_json_value *cz_json_first(const cz_json_value *v) { return v + 1; }
static inline const cz_json_value *cz_json_next(const cz_json_value *v) { return v + v->span; }

#endif /* CZ_UTIL_JSON_TREE_H */
