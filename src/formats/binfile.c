/* The iden3 binfile container (see binfile.h). */
#include "binfile.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "util/file_map.h"

/* Bytes of the fixed header (magic, version, count) and of a table entry. */
#define BF_HEADER 12u
#define BF_ENTRY  12u

/* BLS12-381 r and BN254 r, little-endian. */
static const uint8_t bls12_381_r[32] = {
    0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
    0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73,
};
static const uint8_t bn254_r[32] = {
    0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

int cz_binfile_open(cz_binfile *bf, const uint8_t *data, size_t len, const char magic[4],
                    uint32_t min_version, uint32_t max_version, char *err, size_t errlen)
{
    uint64_t pos, n;
    memset(bf, 0, sizeof *bf);
    memcpy(bf->kind, magic, 4);
    bf->data = data;
    bf->len = len;
    if (len < 4 || memcmp(data, magic, 4) != 0)
        return cz_fail(err, errlen, len < 4 ? CZ_ERR_TRUNCATED : CZ_ERR_BAD_FORMAT,
                       "%s: offset 0: magic is not \"%.4s\"", bf->kind, magic);
    if (len < BF_HEADER)
        return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                       "%s: offset 4: file ends inside the header (%zu bytes)", bf->kind, len);
    bf->version = get_u32(data + 4);
    n = get_u32(data + 8);
    if (bf->version < min_version || bf->version > max_version)
        return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                       "%s: offset 4: version %u not supported (need %u..%u)", bf->kind,
                       bf->version, min_version, max_version);
    /* Each section takes at least its 12-byte table entry, so n is bounded by
     * the bytes present before anything is allocated. */
    if (n > (len - BF_HEADER) / BF_ENTRY)
        return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                       "%s: offset 8: %llu sections do not fit in %zu bytes", bf->kind,
                       (unsigned long long)n, len);
    if (n > 0) {
        bf->sec = calloc((size_t)n, sizeof *bf->sec);
        if (bf->sec == NULL)
            return cz_fail(err, errlen, CZ_ERR_NOMEM, "%s: out of memory", bf->kind);
    }
    bf->n_sections = (uint32_t)n;
    pos = BF_HEADER;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        cz_binfile_section *s = &bf->sec[i];
        if (len - pos < BF_ENTRY) {
            cz_binfile_close(bf);
            return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                           "%s: offset %llu: file ends inside the entry of section %u", bf->kind,
                           (unsigned long long)pos, i);
        }
        s->type = get_u32(data + pos);
        s->size = get_u64(data + pos + 4);
        s->off = pos + BF_ENTRY;
        if (s->size > len - s->off) {
            uint64_t at = pos;
            cz_binfile_close(bf);
            return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                           "%s: offset %llu: section %u (type %u) declares %llu bytes, "
                           "%llu remain",
                           bf->kind, (unsigned long long)at, i, get_u32(data + at),
                           (unsigned long long)get_u64(data + at + 4),
                           (unsigned long long)(len - (at + BF_ENTRY)));
        }
        pos = s->off + s->size;
    }
    if (pos != len) {
        cz_binfile_close(bf);
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "%s: offset %llu: %llu trailing bytes after the last section", bf->kind,
                       (unsigned long long)pos, (unsigned long long)(len - pos));
    }
    return CZ_OK;
}

void cz_binfile_close(cz_binfile *bf)
{
    free(bf->sec);
    bf->sec = NULL;
    bf->n_sections = 0;
}

int cz_binfile_section_get(const cz_binfile *bf, cz_binfile_cursor *c, uint32_t type, bool required,
                           const char *name, char *err, size_t errlen)
{
    const cz_binfile_section *found = NULL;
    memset(c, 0, sizeof *c);
    c->bf = bf;
    c->type = type;
    c->name = name;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        if (bf->sec[i].type != type)
            continue;
        if (found != NULL)
            return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                           "%s: offset %llu: second %s section (type %u)", bf->kind,
                           (unsigned long long)(bf->sec[i].off - BF_ENTRY), name, type);
        found = &bf->sec[i];
    }
    if (found == NULL)
        return required ? cz_fail(err, errlen, CZ_ERR_BAD_FORMAT, "%s: no %s section (type %u)",
                                  bf->kind, name, type)
                        : CZ_OK;
    c->p = bf->data + found->off;
    c->off = found->off;
    c->size = found->size;
    return CZ_OK;
}

int cz_binfile_bytes(cz_binfile_cursor *c, const uint8_t **p, uint64_t n, const char *what,
                     char *err, size_t errlen)
{
    if (n > c->size - c->pos)
        return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                       "%s: offset %llu: %s section (type %u) ends before %s (%llu "
                       "bytes, %llu left)",
                       c->bf->kind, (unsigned long long)(c->off + c->pos), c->name, c->type, what,
                       (unsigned long long)n, (unsigned long long)(c->size - c->pos));
    *p = c->p + c->pos;
    c->pos += n;
    return CZ_OK;
}

int cz_binfile_u32(cz_binfile_cursor *c, uint32_t *v, const char *what, char *err, size_t errlen)
{
    const uint8_t *p = NULL;
    int rc = cz_binfile_bytes(c, &p, 4, what, err, errlen);
    if (rc == CZ_OK)
        *v = get_u32(p);
    return rc;
}

int cz_binfile_u64(cz_binfile_cursor *c, uint64_t *v, const char *what, char *err, size_t errlen)
{
    const uint8_t *p = NULL;
    int rc = cz_binfile_bytes(c, &p, 8, what, err, errlen);
    if (rc == CZ_OK)
        *v = get_u64(p);
    return rc;
}

int cz_binfile_u32s(cz_binfile_cursor *c, uint32_t *const *v, const char *const *what, size_t n,
                    char *err, size_t errlen)
{
    int rc = CZ_OK;
    for (size_t i = 0; rc == CZ_OK && i < n; i++)
        rc = cz_binfile_u32(c, v[i], what[i], err, errlen);
    return rc;
}

int cz_binfile_fr(cz_binfile_cursor *c, cz_fr *v, const char *what, char *err, size_t errlen)
{
    const uint8_t *p = NULL;
    uint64_t at = c->off + c->pos;
    int rc = cz_binfile_bytes(c, &p, CZ_FR_BYTES, what, err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (cz_fr_from_bytes_le(v, p) != CZ_OK)
        return cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                       "%s: offset %llu: %s is not below the field prime r", c->bf->kind,
                       (unsigned long long)at, what);
    return CZ_OK;
}

int cz_binfile_end(const cz_binfile_cursor *c, char *err, size_t errlen)
{
    if (c->pos != c->size)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "%s: offset %llu: %llu unexpected bytes at the end of the %s "
                       "section (type %u)",
                       c->bf->kind, (unsigned long long)(c->off + c->pos),
                       (unsigned long long)(c->size - c->pos), c->name, c->type);
    return CZ_OK;
}

int cz_binfile_field(cz_binfile_cursor *c, char *err, size_t errlen)
{
    const uint8_t *p = NULL;
    uint32_t n8;
    uint64_t at;
    char hex[2 * 32 + 4];
    size_t shown, k = 0;
    int rc = cz_binfile_u32(c, &n8, "the field size n8", err, errlen);
    if (rc != CZ_OK)
        return rc;
    at = c->off + c->pos;
    rc = cz_binfile_bytes(c, &p, n8, "the prime", err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (n8 == 32 && memcmp(p, bls12_381_r, 32) == 0)
        return CZ_OK;
    /* Big-endian hex of the (at most 32 low) bytes, for the message. */
    shown = n8 < 32 ? n8 : 32;
    if (n8 > 32)
        hex[k++] = '.', hex[k++] = '.';
    for (size_t i = shown; i-- > 0;) {
        static const char digits[] = "0123456789abcdef";
        hex[k++] = digits[p[i] >> 4];
        hex[k++] = digits[p[i] & 15];
    }
    hex[k] = 0;
    return cz_fail(err, errlen, CZ_ERR_WRONG_CURVE,
                   "%s: offset %llu: wrong curve: prime is 0x%s (n8 = %u)%s, need "
                   "BLS12-381 r (n8 = 32)",
                   c->bf->kind, (unsigned long long)at, hex, n8,
                   n8 == 32 && memcmp(p, bn254_r, 32) == 0 ? " (bn128?)" : "");
}

int cz_binfile_load_mem(const cz_binfile_format *f, void *out, const uint8_t *data, size_t len,
                        char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL || (data == NULL && len > 0))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: NULL argument", f->name);
    memset(out, 0, f->size);
    int rc = f->parse(out, data, len, err, errlen);
    if (rc != CZ_OK)
        f->free(out);
    return rc;
}

/* cz_file_read_mapped's context: the format and its output. */
typedef struct {
    const cz_binfile_format *f;
    void *out;
} mapped;

static int load_mapped(void *m, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    const mapped *x = m;
    return cz_binfile_load_mem(x->f, x->out, data, len, err, errlen);
}

int cz_binfile_load_file(const cz_binfile_format *f, void *out, const char *path, char *err,
                         size_t errlen)
{
    if (out != NULL)
        memset(out, 0, f->size);
    if (out == NULL || path == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: NULL argument", f->name);
    mapped m = {f, out};
    return cz_file_read_mapped(path, load_mapped, &m, err, errlen);
}
