/* The wire scanner and the arena (see wire.h). */
#include "daemon/wire.h"

#include <stdbool.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/utf8.h"

#define ALIGN 16u
/* Bytes of the arena one allocation of n bytes can take. */
#define A(n) ((size_t)(n) + (ALIGN - 1))
/* protobuf-c's ScannedMember is at most 2^5 bytes, its slabs of 2^(k+4)
 * members (the first, on the stack, of 16). */
#define SCANNED_MEMBER_BOUND 32u
#define FIRST_SLAB_LOG2      4u
#define MAX_MESSAGE_FIELDS   64 /* descriptors this scanner handles */

typedef struct {
    const cz_wire_limits *lim;
    size_t fields, unknown;
    char *err;
    size_t errlen;
} scanner;

static int bad(scanner *s, int rc, const char *what, const ProtobufCMessageDescriptor *d,
               size_t at)
{
    cz_msgf(s->err, s->errlen, "%s: %s (at byte %zu)", d->short_name, what, at);
    return rc;
}

/* A varint of at most max bytes; false when it is cut off or too long. */
static bool varint(const uint8_t *p, size_t n, size_t max, uint64_t *v, size_t *len)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n && i < max; i++) {
        x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *v = x;
            *len = i + 1;
            return true;
        }
    }
    return false;
}

static bool packable(ProtobufCType t)
{
    return t != PROTOBUF_C_TYPE_STRING && t != PROTOBUF_C_TYPE_BYTES &&
           t != PROTOBUF_C_TYPE_MESSAGE;
}

/* Elements in a packed run of type t (as protobuf-c counts them). */
static bool packed_count(ProtobufCType t, const uint8_t *p, size_t n, size_t *count)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        *count = n / 4;
        return n % 4 == 0;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        *count = n / 8;
        return n % 8 == 0;
    default: /* varints: one per byte with the top bit clear */
        *count = 0;
        for (size_t i = 0; i < n; i++)
            *count += !(p[i] & 0x80);
        return n == 0 || !(p[n - 1] & 0x80);
    }
}

static size_t elt_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return 8;
    case PROTOBUF_C_TYPE_BOOL:
        return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
        return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    default:
        return 4;
    }
}

static int scan(scanner *s, const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                unsigned depth, size_t base, size_t *arena)
{
    if (d->n_fields > MAX_MESSAGE_FIELDS)
        return bad(s, CZ_ERR_TOO_BIG, "too many fields in the descriptor", d, base);
    if (depth > s->lim->max_depth) {
        cz_msgf(s->err, s->errlen, "%s: nested deeper than %u messages", d->short_name,
                s->lim->max_depth);
        return CZ_ERR_TOO_BIG;
    }
    size_t count[MAX_MESSAGE_FIELDS] = {0}, members = 0, unknown = 0;
    size_t a = A(d->sizeof_message);
    for (size_t at = 0; at < n;) {
        uint64_t tag, v;
        size_t tl;
        if (!varint(p + at, n - at, 5, &tag, &tl) || tag > UINT32_MAX)
            return bad(s, CZ_ERR_BAD_FORMAT, "malformed field tag", d, base + at);
        if ((tag >> 3) == 0)
            return bad(s, CZ_ERR_BAD_FORMAT, "field number 0", d, base + at);
        unsigned wt = (unsigned)(tag & 7);
        size_t body = at + tl, len; /* len: the value's bytes, a length prefix included */
        size_t pref = 0;
        switch (wt) {
        case PROTOBUF_C_WIRE_TYPE_VARINT:
            if (!varint(p + body, n - body, 10, &v, &len))
                return bad(s, CZ_ERR_BAD_FORMAT, "malformed varint", d, base + body);
            break;
        case PROTOBUF_C_WIRE_TYPE_64BIT:
            len = 8;
            break;
        case PROTOBUF_C_WIRE_TYPE_32BIT:
            len = 4;
            break;
        case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
            if (!varint(p + body, n - body, 5, &v, &pref) || v > n - body - pref)
                return bad(s, CZ_ERR_BAD_FORMAT, "malformed length", d, base + body);
            len = pref + (size_t)v;
            break;
        default:
            return bad(s, CZ_ERR_BAD_FORMAT, "groups and unknown wire types are not accepted", d,
                       base + at);
        }
        if (len > n - body)
            return bad(s, CZ_ERR_BAD_FORMAT, "a field runs past the end", d, base + body);
        if (++s->fields > s->lim->max_fields) {
            cz_msgf(s->err, s->errlen, "the request has more than %zu fields",
                    s->lim->max_fields);
            return CZ_ERR_TOO_BIG;
        }
        members++;
        const ProtobufCFieldDescriptor *f =
            protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3));
        const uint8_t *val = p + body + pref;
        size_t vlen = len - pref;
        if (f == NULL) {
            if (++s->unknown > s->lim->max_unknown) {
                cz_msgf(s->err, s->errlen,
                        "the request has more than %zu fields this daemon does not know",
                        s->lim->max_unknown);
                return CZ_ERR_TOO_BIG;
            }
            unknown++;
            a += A(len);
            at = body + len;
            continue;
        }
        size_t fi = (size_t)(f - d->fields);
        bool lp = wt == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
        if (f->label == PROTOBUF_C_LABEL_REPEATED && lp && packable(f->type)) {
            size_t c;
            if (!packed_count(f->type, val, vlen, &c))
                return bad(s, CZ_ERR_BAD_FORMAT, "malformed packed field", d, base + body);
            count[fi] += c;
        } else {
            count[fi]++;
        }
        if (lp && f->type == PROTOBUF_C_TYPE_STRING) {
            size_t off;
            const uint8_t *nul = memchr(val, 0, vlen);
            if (nul != NULL) {
                cz_msgf(s->err, s->errlen, "%s.%s: a NUL byte at offset %zu", d->short_name,
                        f->name, (size_t)(nul - val));
                return CZ_ERR_BAD_FORMAT;
            }
            if (!cz_utf8_valid(val, vlen, &off)) {
                cz_msgf(s->err, s->errlen, "%s.%s: not valid UTF-8 (at byte %zu)",
                        d->short_name, f->name, off);
                return CZ_ERR_BAD_FORMAT;
            }
            a += A(vlen + 1);
        } else if (lp && f->type == PROTOBUF_C_TYPE_BYTES) {
            a += vlen ? A(vlen) : 0;
        } else if (lp && f->type == PROTOBUF_C_TYPE_MESSAGE) {
            if (f->label != PROTOBUF_C_LABEL_REPEATED && count[fi] > 1) {
                cz_msgf(s->err, s->errlen, "%s.%s: appears more than once", d->short_name,
                        f->name);
                return CZ_ERR_BAD_FORMAT;
            }
            size_t sub = 0;
            int rc = scan(s, f->descriptor, val, vlen, depth + 1, base + body + pref, &sub);
            if (rc != CZ_OK)
                return rc;
            a += sub;
        }
        at = body + len;
    }
    for (unsigned k = 0; k < d->n_fields; k++)
        if (d->fields[k].label == PROTOBUF_C_LABEL_REPEATED && count[k])
            a += A(count[k] * elt_size(d->fields[k].type));
    if (unknown)
        a += A(unknown * sizeof(ProtobufCMessageUnknownField));
    /* the scanned-member slabs past the first (stack) one */
    for (unsigned k = 1; ((size_t)1 << (k - 1 + FIRST_SLAB_LOG2 + 1)) - 16 < members; k++)
        a += A((size_t)SCANNED_MEMBER_BOUND << (k + FIRST_SLAB_LOG2));
    *arena = a;
    return CZ_OK;
}

int cz_wire_scan_message(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                         const cz_wire_limits *lim, cz_wire_scan *out, char *err, size_t errlen)
{
    scanner s = {.lim = lim, .err = err, .errlen = errlen};
    memset(out, 0, sizeof *out);
    if (n > 0 && p == NULL)
        return CZ_ERR_BAD_FORMAT;
    int rc = scan(&s, d, p, n, 1, 0, &out->arena);
    out->fields = s.fields;
    out->unknown = s.unknown;
    return rc;
}

/* ------------------------------------------------------------- arena --- */

static void *arena_alloc(void *ctx, size_t n)
{
    cz_wire_arena *ar = ctx;
    size_t at = (ar->used + (ALIGN - 1)) & ~(size_t)(ALIGN - 1);
    if (at > ar->cap || n > ar->cap - at)
        return NULL;
    ar->used = at + n;
    return ar->base + at;
}

static void arena_free(void *ctx, void *p)
{
    (void)ctx;
    (void)p;
}

void cz_wire_arena_init(cz_wire_arena *ar, void *mem, size_t cap)
{
    /* the arena's memory must be aligned like its allocations */
    uintptr_t b = (uintptr_t)mem, q = (b + (ALIGN - 1)) & ~(uintptr_t)(ALIGN - 1);
    ar->base = (uint8_t *)q;
    ar->cap = cap > (size_t)(q - b) ? cap - (size_t)(q - b) : 0;
    ar->used = 0;
    ar->a.alloc = arena_alloc;
    ar->a.free = arena_free;
    ar->a.allocator_data = ar;
}
