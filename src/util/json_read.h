/* The JSON reader: every JSON text cuzk reads goes through it.  Internal
 * to cuzk.
 *
 * Design: one strict pull reader.  The caller asks for the value it wants
 * next (an object's members, an array's elements, a string, a number, a
 * literal), nothing is built but what the caller keeps, and the input is
 * read once in place.  Decoders that know their schema read with it
 * directly (the C1 of cuzk/filecoin/porep.h: a 50 MB document read without a
 * tree of it); json_tree.h builds a tree on it for small documents read
 * as a whole (snarkjs's files, tests).  So strictness and messages are
 * the same everywhere.
 *
 * Strict JSON (RFC 8259): whitespace is space, tab, CR and LF; numbers
 * follow the RFC's grammar (no leading zeros, no '+', no bare '.'), and an
 * integer read (cz_jr_uint, cz_jr_d32) is digits only: a sign, fraction or
 * exponent is refused as serde_json refuses them for Rust's unsigned types
 * ("-0", "1.0" and "1e2" parse as floats there); strings hold well-formed
 * UTF-8, no raw control characters, the RFC's escapes only and paired
 * surrogates; no byte-order mark, comments or trailing commas.
 * Containers nest at most CZ_JR_MAX_DEPTH deep (serde_json's recursion
 * limit is 128 too).
 *
 * Errors: the first one is kept (later calls return its code and do
 * nothing else).  Its message locates it one of two ways:
 *   by path (the default):  PREFIX PATH ": " what " (byte N)"
 * where PATH names the value at fault as members ".key" and elements "[i]"
 * from the top ("vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs"),
 * "top level" for the document itself, and N is the offset where reading
 * stopped.  When the input ends early, PATH is the deepest value of which
 * some but not all bytes are present: a member or element whose value has
 * not begun is left out.  Keys not known to the caller are printed with
 * anything but printable ASCII (and '"', '\\', ':') as '?', at most 48
 * bytes of them, an empty key as "".
 *   by line (lines set after cz_jr_init):  PREFIX "line L, column C: " what
 * where L counts LF from 1 and C is the byte in that line (from 1) where
 * reading stopped.
 *
 * Frames: the path is a stack of frames the reader keeps; cz_jr_obj_next,
 * cz_jr_member and cz_jr_arr_next push the member's or element's frame and
 * the caller pops it (cz_jr_pop) once the value is read. */
#ifndef CZ_UTIL_JSON_READ_H
#define CZ_UTIL_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CZ_JR_MAX_DEPTH 128

/* A JSON value's type. */
typedef enum {
    CZ_JSON_NULL,
    CZ_JSON_FALSE,
    CZ_JSON_TRUE,
    CZ_JSON_NUMBER,
    CZ_JSON_STRING,
    CZ_JSON_ARRAY,
    CZ_JSON_OBJECT
} cz_json_type;

typedef struct {
    const char *key; /* a member's name (klen bytes, raw JSON text); NULL: an element */
    size_t klen;
    uint64_t idx; /* an element's index */
} cz_jr_frame;

typedef struct {
    const uint8_t *p, *end, *base;
    unsigned depth; /* containers open */
    unsigned nfr;
    cz_jr_frame fr[CZ_JR_MAX_DEPTH + 2];
    int rc;
    char *err;
    size_t errlen;
    const char *prefix;
    bool lines; /* messages locate by line and column, not path and byte */
} cz_jr;

/* An object being read: the known members seen (bit i: names[i]) and the
 * members read so far. */
typedef struct {
    uint64_t seen;
    uint64_t members;
} cz_jr_obj;

/* An array being read: the elements begun so far. */
typedef struct {
    uint64_t n;
} cz_jr_arr;

#define CZ_JR_END   (-1) /* cz_jr_obj_next: the object closed */
#define CZ_JR_ERROR (-2) /* the reader failed (r->rc) */

/* text[0..len) with messages prefixed by prefix (NULL: none) into
 * err[0..errlen), located by path. */
void cz_jr_init(cz_jr *r, const uint8_t *text, size_t len, const char *prefix, char *err,
                size_t errlen);

/* Records an error at the current path (if none is recorded yet) and
 * returns r->rc. */
int cz_jr_fail(cz_jr *r, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cz_jr_push_key(cz_jr *r, const char *key, size_t klen);
void cz_jr_push_idx(cz_jr *r, uint64_t idx);
void cz_jr_pop(cz_jr *r);
/* The current path as the messages write it (always NUL-terminated). */
void cz_jr_path(const cz_jr *r, char *out, size_t cap);

/* The type of the next value, by its first byte (after whitespace; the
 * value is not read: 't' is CZ_JSON_TRUE, "tru" fails when read), or
 * CZ_JR_ERROR at the end of the input or a byte that begins no value. */
int cz_jr_peek(cz_jr *r);

/* '{'.  CZ_OK or the error code. */
int cz_jr_obj_begin(cz_jr *r, cz_jr_obj *o);
/* The next member that is one of names[0..n) (n <= 64): its index, with
 * its frame pushed; members with other names are read and ignored (as
 * serde's derived Deserialize ignores unknown fields); a known name seen
 * twice is an error ("duplicate field").  CZ_JR_END after the '}',
 * CZ_JR_ERROR on error. */
int cz_jr_obj_next(cz_jr *r, cz_jr_obj *o, const char *const *names, unsigned n);
/* The next member whatever its name: 1 with its key's raw bytes (as
 * cz_jr_str gives them) and its frame pushed, 0 after the '}', -1 on
 * error.  Duplicate keys are not looked for. */
int cz_jr_member(cz_jr *r, cz_jr_obj *o, const uint8_t **key, size_t *klen, bool *escaped);
/* After CZ_JR_END: every one of names[first .. first + n) must have been
 * seen; the first missing one in that order is the error. */
int cz_jr_obj_require(cz_jr *r, const cz_jr_obj *o, const char *const *names, unsigned first,
                      unsigned n);
/* An externally tagged enum's variant ({"Name": value}): the index of its
 * name among names[0..n) with the frame pushed; an unknown name is an
 * error.  cz_jr_variant_end reads the '}' after the value. */
int cz_jr_variant(cz_jr *r, const char *const *names, unsigned n, const char *what);
int cz_jr_variant_end(cz_jr *r);

/* '['. */
int cz_jr_arr_begin(cz_jr *r, cz_jr_arr *a);
/* 1 with the frame "[a->n]" pushed (a->n then counts it) when another
 * element begins; 0 after the ']'; -1 on error.  An element past limit
 * (a->n == limit) is refused before it is read: "more than LIMIT what". */
int cz_jr_arr_next(cz_jr *r, cz_jr_arr *a, uint64_t limit, const char *what);
/* After the ']': "N what, expected E" unless a->n == expected. */
int cz_jr_arr_count(cz_jr *r, const cz_jr_arr *a, uint64_t expected, const char *what);

/* An unsigned integer <= max ("N is not a TYPE" otherwise). */
int cz_jr_uint(cz_jr *r, uint64_t max, const char *type, uint64_t *out);
/* Any number: its lexeme as written (n bytes at *lex, in the input). */
int cz_jr_num(cz_jr *r, const uint8_t **lex, size_t *n);
/* An array of exactly 32 integers 0..255 (serde's [u8; 32]: the C1's D,
 * Commitment and Ticket). */
int cz_jr_d32(cz_jr *r, uint8_t out[32]);
/* true or false. */
int cz_jr_bool(cz_jr *r, bool *out);
/* null (serde's unit and PhantomData). */
int cz_jr_null(cz_jr *r);
/* A string: its raw bytes between the quotes, and whether they hold an
 * escape (then cz_jr_unescape gives the text). */
int cz_jr_str(cz_jr *r, const uint8_t **raw, size_t *rawlen, bool *escaped);
/* Decodes a string's raw bytes (as cz_jr_str validated them) into out
 * (rawlen bytes of room); returns the decoded length. */
size_t cz_jr_unescape(uint8_t *out, const uint8_t *raw, size_t rawlen);
/* Any value, read and ignored. */
int cz_jr_skip(cz_jr *r);
/* Nothing but whitespace may remain. */
int cz_jr_finish(cz_jr *r);

#endif /* CZ_UTIL_JSON_READ_H */
