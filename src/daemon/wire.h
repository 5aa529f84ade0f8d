/* Bounded decoding of protobuf messages from clients.
 *
 * protobuf-c's unpack allocates per field: a message struct, arrays for
 * repeated fields, a copy of every string, bytes value and unknown field,
 * and scratch for the fields it scans.  A message of many tiny unknown
 * fields therefore decodes into ~30 times its own size (32 MiB on the wire
 * became 1 GB).  cz_wire_scan walks the wire format first, without
 * allocating: it enforces limits on fields, unknown fields and nesting,
 * checks that every string field is UTF-8 without NUL bytes, and computes
 * an upper bound of what unpack will allocate.  The caller then provides
 * that much memory (from the engine's request pool) as a cz_wire_arena, so
 * decoding can never take more than it was granted: an arena that runs
 * out makes unpack fail, it never allocates elsewhere.
 *
 * The bound follows protobuf-c 1.4's unpack (protobuf-c.c: the message
 * struct, repeated arrays of count x element size, strings len + 1, bytes
 * len when non-empty, unknown fields' records and copies, the scanned-
 * member slabs beyond the first 16 members), each allocation counted with
 * the arena's alignment.  A singular message field may appear only once
 * (protobuf would merge repeats, which allocates again); groups, field
 * number 0 and tags that do not fit 32 bits are refused (protobuf-c lets
 * some of these through as unknown fields).  tests/test_wire.c and fuzz/fuzz_wire.c check the bound: every
 * message that unpacks with malloc also unpacks in an arena of
 * cz_wire_scan's size. */
#ifndef CZ_DAEMON_WIRE_H
#define CZ_DAEMON_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

typedef struct {
    size_t max_fields;  /* fields on the wire, nested messages included */
    size_t max_unknown; /* fields no descriptor knows */
    unsigned max_depth; /* message nesting, the outermost at 1 */
} cz_wire_limits;

typedef struct {
    size_t arena;   /* bytes a cz_wire_arena needs to unpack the message */
    size_t fields;  /* fields seen */
    size_t unknown; /* of them unknown */
} cz_wire_scan;

/* Scans p[0..n) as a message of descriptor d.  Returns CZ_OK with *out
 * filled, or CZ_ERR_BAD_FORMAT (malformed wire data, a group, a repeated
 * singular message, a string that is not UTF-8 or holds a NUL: err names
 * the field and the offset, never the string) or CZ_ERR_TOO_BIG (a limit:
 * err names it and the count). */
int cz_wire_scan_message(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                         const cz_wire_limits *lim, cz_wire_scan *out, char *err, size_t errlen);

/* A bump allocator over mem[0..cap) for protobuf-c (free does nothing:
 * the whole arena goes at once, with its memory). */
typedef struct {
    ProtobufCAllocator a; /* pass &arena.a to unpack */
    uint8_t *base;
    size_t cap, used;
} cz_wire_arena;

void cz_wire_arena_init(cz_wire_arena *ar, void *mem, size_t cap);

#endif
