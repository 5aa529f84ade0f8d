/* The iden3 binfile container shared by .r1cs, .wtns and .zkey: a 4-byte
 * magic, a u32 version, a u32 section count, then the sections, each a u32
 * type, a u64 size and size bytes (all integers little-endian).  Not part of
 * the public API.
 *
 * Every function that can fail returns a cz_err code and writes a message
 * into the caller's (err, errlen) buffer, prefixed with the file kind (the
 * magic) and naming the byte offset in the file. */
#ifndef CZ_BINFILE_H
#define CZ_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"

typedef struct {
    uint32_t type;
    uint64_t off; /* file offset of the section's first byte */
    uint64_t size;
} cz_binfile_section;

typedef struct {
    const uint8_t *data;
    size_t len;
    char kind[5]; /* the magic as a string, for messages */
    uint32_t version;
    uint32_t n_sections;
    cz_binfile_section *sec; /* n_sections entries, file order */
} cz_binfile;

/* A read cursor over one section. */
typedef struct {
    const cz_binfile *bf;
    uint32_t type;
    const char *name; /* for messages */
    const uint8_t *p; /* the section's bytes */
    uint64_t off;     /* file offset of p[0] */
    uint64_t size;
    uint64_t pos; /* bytes consumed */
} cz_binfile_cursor;

/* Parses the container header and section table of data[0..len): the magic
 * must equal magic[0..4) (else CZ_ERR_BAD_FORMAT), the version lie in
 * [min_version, max_version] (else CZ_ERR_UNSUPPORTED), every section lie
 * inside the data (else CZ_ERR_TRUNCATED), and the last section end exactly
 * at len (else CZ_ERR_BAD_FORMAT).  The section count is bounded by the
 * bytes present before the table is allocated.  bf borrows data. */
int cz_binfile_open(cz_binfile *bf, const uint8_t *data, size_t len, const char magic[4],
                    uint32_t min_version, uint32_t max_version, char *err, size_t errlen);
void cz_binfile_close(cz_binfile *bf);

/* Sets c to the unique section of the given type.  A second section of that
 * type is CZ_ERR_BAD_FORMAT; a missing one is CZ_ERR_BAD_FORMAT when required
 * and otherwise returns CZ_OK with c->p = NULL.  name names the section in
 * messages. */
int cz_binfile_section_get(const cz_binfile *bf, cz_binfile_cursor *c, uint32_t type, bool required,
                           const char *name, char *err, size_t errlen);

/* Readers: consume bytes at the cursor; CZ_ERR_TRUNCATED past the section's
 * end (what names the field in the message). */
int cz_binfile_u32(cz_binfile_cursor *c, uint32_t *v, const char *what, char *err, size_t errlen);
/* n u32 fields in a row: *v[i], named what[i]; CZ_OK or the first error. */
int cz_binfile_u32s(cz_binfile_cursor *c, uint32_t *const *v, const char *const *what, size_t n,
                    char *err, size_t errlen);
int cz_binfile_u64(cz_binfile_cursor *c, uint64_t *v, const char *what, char *err, size_t errlen);
int cz_binfile_bytes(cz_binfile_cursor *c, const uint8_t **p, uint64_t n, const char *what,
                     char *err, size_t errlen);
/* Reads a 32-byte canonical little-endian integer into Montgomery form:
 * CZ_ERR_NOT_CANONICAL when it is >= r. */
int cz_binfile_fr(cz_binfile_cursor *c, cz_fr *v, const char *what, char *err, size_t errlen);
/* CZ_ERR_BAD_FORMAT unless the cursor consumed the whole section. */
int cz_binfile_end(const cz_binfile_cursor *c, char *err, size_t errlen);

/* Reads a field header prefix: u32 n8 then the n8-byte prime.  Returns
 * CZ_ERR_WRONG_CURVE unless n8 = 32 and the prime is BLS12-381's r; the
 * message gives the prime in hex and names bn128 when it is BN254's. */
int cz_binfile_field(cz_binfile_cursor *c, char *err, size_t errlen);

/* A format read from one binfile into a struct: its name for messages
 * ("r1cs"), the struct's size, the parser, which may assume a zeroed struct
 * and leave it partly filled on failure, and the struct's free. */
typedef struct {
    const char *name;
    size_t size;
    int (*parse)(void *out, const uint8_t *data, size_t len, char *err, size_t errlen);
    void (*free)(void *out);
} cz_binfile_format;

/* The public load_mem of a format: clears err, CZ_ERR_INVALID_ARG for a NULL
 * out or data with len > 0; else zeroes *out and parses data[0..len) into
 * it, freeing it on failure. */
int cz_binfile_load_mem(const cz_binfile_format *f, void *out, const uint8_t *data, size_t len,
                        char *err, size_t errlen);
/* The public load of a format: *out zeroed when out is not NULL,
 * CZ_ERR_INVALID_ARG for a NULL out or path, else the file at path mapped
 * and given to cz_binfile_load_mem. */
int cz_binfile_load_file(const cz_binfile_format *f, void *out, const char *path, char *err,
                         size_t errlen);

/* Defines the public T_load_mem and T_load of the type T (its T_free
 * declared) parsed by parse, name ("r1cs") for messages. */
#define CZ_BINFILE_LOADERS(T, name, parse)                                                         \
    static void T##_free_any(void *out) { T##_free(out); }                                         \
    static const cz_binfile_format T##_format = {name, sizeof(T), parse, T##_free_any};            \
    int T##_load_mem(T *out, const uint8_t *data, size_t len, char *err, size_t errlen)            \
    {                                                                                              \
        return cz_binfile_load_mem(&T##_format, out, data, len, err, errlen);                      \
    }                                                                                              \
    int T##_load(T *out, const char *path, char *err, size_t errlen)                               \
    {                                                                                              \
        return cz_binfile_load_file(&T##_format, out, path, err, errlen);                          \
    }

#endif /* CZ_BINFILE_H */
