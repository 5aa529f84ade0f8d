/* libFuzzer harness for the bounded protobuf decoding of src/daemon/wire.h
 * on the daemon's request messages.
 *
 * The first byte picks the message (even: SubmitProofRequest, odd:
 * ProveRequest); the rest is the wire data.  Invariants, abort() when one
 * fails:
 *   - a refusal is CZ_ERR_BAD_FORMAT or CZ_ERR_TOO_BIG with a message;
 *   - whatever protobuf-c unpacks with malloc also unpacks, to the same
 *     message, in an arena of exactly the scanner's size, unless the
 *     scanner refused it for a reason its contract names (a limit, a
 *     string with NUL or bad UTF-8, a repeated singular message, a group,
 *     field number 0, a tag past 32 bits).
 * Seed corpus: fuzz/corpus/wire (written by fuzz/corpus/make_wire.py).
 * Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "../src/daemon/wire.h"
#include "cuzk/err.h"
#include "cuzk/v1/proving.pb-c.h"
#include "fuzz.h"

static int same(const ProtobufCMessage *a, const ProtobufCMessage *b)
{
    size_t la = protobuf_c_message_get_packed_size(a), lb = protobuf_c_message_get_packed_size(b);
    if (la != lb)
        return 0;
    uint8_t *pa = malloc(la + 1), *pb = malloc(lb + 1);
    protobuf_c_message_pack(a, pa);
    protobuf_c_message_pack(b, pb);
    int eq = memcmp(pa, pb, la) == 0;
    free(pa);
    free(pb);
    return eq;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ProtobufCMessageDescriptor *d = data[0] & 1 ? &cuzk__v1__prove_request__descriptor
                                                      : &cuzk__v1__submit_proof_request__descriptor;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    static const cz_wire_limits lim = {.max_fields = 4096, .max_unknown = 64, .max_depth = 4};
    cz_wire_scan sc;
    char err[200] = "";
    int rc = cz_wire_scan_message(d, p, n, &lim, &sc, err, sizeof err);
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, n, p);
    if (rc != CZ_OK) {
        CHECK((rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_TOO_BIG) && err[0]);
        if (m)
            CHECK(strstr(err, "NUL") || strstr(err, "UTF-8") || strstr(err, "more than") ||
                  strstr(err, "groups") || strstr(err, "field number 0") ||
                  strstr(err, "field tag"));
    } else {
        void *mem = malloc(sc.arena ? sc.arena : 1);
        cz_wire_arena ar;
        cz_wire_arena_init(&ar, mem, sc.arena);
        ProtobufCMessage *m2 = protobuf_c_message_unpack(d, &ar.a, n, p);
        CHECK((m == NULL) == (m2 == NULL));
        if (m)
            CHECK(same(m, m2));
        free(mem);
    }
    if (m)
        protobuf_c_message_free_unpacked(m, NULL);
    return 0;
}
