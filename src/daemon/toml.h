/* A strict reader for the subset of TOML 1.0 that configuration files use.
 * Not part of the public API (the daemon's configuration, cuzk/config.h,
 * is built on it).
 *
 * Accepted: comments; bare, quoted and dotted keys; [table] headers;
 * single-line basic strings (escapes \b \t \n \f \r \" \\ \uXXXX
 * \UXXXXXXXX) and literal strings; integers (decimal with sign, 0x, 0o,
 * 0b, underscores between digits, 64-bit signed range); floats (fraction,
 * exponent, inf, nan); booleans; arrays (nested at most
 * CZ_TOML_MAX_DEPTH deep, newlines and comments allowed inside, trailing
 * comma allowed); LF or CRLF line ends; a leading UTF-8 byte-order mark.
 *
 * Rejected with CZ_ERR_BAD_FORMAT: invalid UTF-8, control characters in
 * strings or comments, a NUL character (\u0000), unterminated strings, bad
 * escapes, integers or floats out of range, a key defined twice, a table
 * defined twice or reopened after dotted keys defined it, dotted keys
 * adding to a table defined in another block, text after a value.
 * Rejected with CZ_ERR_UNSUPPORTED: inline tables, arrays of tables,
 * multi-line strings, dates and times.  Inputs over CZ_TOML_MAX_BYTES or
 * with more than CZ_TOML_MAX_NODES keys, tables and values: CZ_ERR_TOO_BIG.
 *
 * Error messages: "NAME:LINE: key KEY: what is wrong" where a key is being
 * read ("table [KEY]" for a header), "NAME:LINE: what is wrong" before one
 * is known; KEY is the full dotted path, quoted segments shown in quotes. */
#ifndef CZ_TOML_H
#define CZ_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CZ_TOML_MAX_BYTES     (1u << 20)
#define CZ_TOML_MAX_NODES     16384u
#define CZ_TOML_MAX_DEPTH     8u /* arrays inside arrays */
#define CZ_TOML_MAX_KEY_PARTS 16u

typedef enum {
    CZ_TOML_TABLE,
    CZ_TOML_STRING,
    CZ_TOML_INT,
    CZ_TOML_FLOAT,
    CZ_TOML_BOOL,
    CZ_TOML_ARRAY
} cz_toml_type;

/* A table, value or array element.  Nodes are kept in the order they were
 * first seen; node 0 is the root table.  A node's parent is a table (the
 * node is one of its keys) or an array (the node is an element; key NULL,
 * elements in order). */
typedef struct {
    cz_toml_type type;
    size_t parent;   /* index of the parent; 0 for the root itself */
    const char *key; /* decoded, NUL-terminated; NULL for array elements and the root */
    size_t key_len;
    size_t line;     /* where the key (or element) was written; a table's header line */
    const char *str; /* STRING: decoded bytes, NUL-terminated, no NUL inside */
    size_t len;      /* STRING: bytes; ARRAY: elements; TABLE: keys */
    int64_t i;       /* INT */
    double f;        /* FLOAT */
    bool b;          /* BOOL */
    unsigned how;    /* TABLE: how it was defined (internal) */
    unsigned block;  /* TABLE: the header block it was defined in (internal) */
} cz_toml_node;

typedef struct {
    cz_toml_node *nodes;
    size_t n;
    char *pool; /* the decoded keys and strings */
} cz_toml_doc;

/* Parses text[0..len) (need not be NUL-terminated); name is the file name
 * used in messages.  Returns CZ_OK, CZ_ERR_BAD_FORMAT, CZ_ERR_UNSUPPORTED,
 * CZ_ERR_TOO_BIG or CZ_ERR_NOMEM with err set; on failure *doc is zeroed. */
int cz_toml_parse(cz_toml_doc *doc, const char *text, size_t len, const char *name, char *err,
                  size_t errlen);
void cz_toml_free(cz_toml_doc *doc);

/* Writes key path of node k ("a.b", quoting segments that are not bare)
 * into buf; returns buf. */
const char *cz_toml_path(const cz_toml_doc *doc, size_t k, char *buf, size_t buflen);

#endif /* CZ_TOML_H */
