/* The bounded protobuf decoding of src/daemon/wire.h on the daemon's own
 * request messages: random valid requests, and the same with unknown
 * fields, repeats, truncations and flipped bytes.  Whatever protobuf-c
 * unpacks with malloc must also unpack in an arena of the scanner's size
 * (the bound is an upper bound), and the scanner may refuse only what its
 * contract refuses (limits, strings with NUL or bad UTF-8, a repeated
 * singular message, groups).  The hostile case of the issue: 32 MiB of
 * tiny unknown fields is refused by the scan, before anything is
 * allocated. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/wire.h"
#include "tf.h"

static const cz_wire_limits LIMITS = {.max_fields = 1 << 16, .max_unknown = 256, .max_depth = 4};

static uint64_t rnd(uint64_t n) { return n ? cz_prng_next(&tf_rng) % n : 0; }

static char *rand_string(size_t max)
{
    static const char *const pieces[] = {"a", "Z", "-", " ", "7", "caf\xc3\xa9", "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80"};
    size_t n = rnd(max + 1);
    char *s = malloc(5 * n + 1); /* the longest piece has 5 bytes */
    s[0] = 0;
    for (size_t i = 0; i < n; i++)
        strcat(s, pieces[rnd(8)]);
    return s;
}

static ProtobufCBinaryData rand_bytes(size_t max)
{
    ProtobufCBinaryData b = {rnd(max + 1), NULL};
    b.data = malloc(b.len ? b.len : 1);
    cz_prng_bytes(&tf_rng, b.data, b.len);
    return b;
}

/* A random request, packed into a malloc'd buffer. */
static uint8_t *rand_request(size_t *len, bool prove)
{
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = rand_string(20);
    r.proof_kind = (Cuzk__V1__ProofKind)rnd(5);
    r.priority = (Cuzk__V1__Priority)rnd(5);
    r.sector_size = rnd(2) ? cz_prng_next(&tf_rng) : 0;
    r.vanilla_proof = rand_bytes(rnd(2) ? 300 : 0);
    r.n_vanilla_proofs = rnd(20);
    r.vanilla_proofs = malloc((r.n_vanilla_proofs + 1) * sizeof *r.vanilla_proofs);
    for (size_t i = 0; i < r.n_vanilla_proofs; i++)
        r.vanilla_proofs[i] = rand_bytes(40);
    r.miner_id = rnd(1000);
    r.randomness = rand_bytes(32);
    r.circuit_id = rand_string(6);
    r.witness = rand_bytes(rnd(2) ? 256 : 0);
    r.partitions = (uint32_t)rnd(4);
    size_t n;
    uint8_t *buf;
    if (prove) {
        Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
        p.submit = &r;
        n = cuzk__v1__prove_request__get_packed_size(&p);
        buf = malloc(n + 1);
        cuzk__v1__prove_request__pack(&p, buf);
    } else {
        n = cuzk__v1__submit_proof_request__get_packed_size(&r);
        buf = malloc(n + 1);
        cuzk__v1__submit_proof_request__pack(&r, buf);
    }
    free(r.request_id);
    free(r.circuit_id);
    free(r.vanilla_proof.data);
    free(r.randomness.data);
    free(r.witness.data);
    for (size_t i = 0; i < r.n_vanilla_proofs; i++)
        free(r.vanilla_proofs[i].data);
    free(r.vanilla_proofs);
    *len = n;
    return buf;
}

/* Appends a random field: unknown numbers, known ones repeated, or a
 * value of the wrong wire type. */
static uint8_t *add_field(uint8_t *buf, size_t *len)
{
    uint8_t f[64];
    size_t k = 0;
    unsigned num = rnd(3) == 0 ? 1 + (unsigned)rnd(200) : 1000 + (unsigned)rnd(100000);
    unsigned wt = (unsigned)(rnd(4) == 0 ? rnd(6) : 2);
    uint64_t tag = (uint64_t)num << 3 | wt;
    do {
        f[k++] = (uint8_t)((tag & 0x7f) | (tag > 0x7f ? 0x80 : 0));
        tag >>= 7;
    } while (tag);
    if (wt == 0) {
        f[k++] = (uint8_t)rnd(128);
    } else if (wt == 1 || wt == 5) {
        size_t w = wt == 1 ? 8 : 4;
        cz_prng_bytes(&tf_rng, f + k, w);
        k += w;
    } else if (wt == 2) {
        size_t l = rnd(20);
        f[k++] = (uint8_t)l;
        cz_prng_bytes(&tf_rng, f + k, l);
        k += l;
    }
    buf = realloc(buf, *len + k + 1);
    memcpy(buf + *len, f, k);
    *len += k;
    return buf;
}

static bool allowed_refusal(const char *err)
{
    return strstr(err, "NUL") || strstr(err, "UTF-8") || strstr(err, "more than once") ||
           strstr(err, "groups") || strstr(err, "more than") || strstr(err, "field number 0") ||
           strstr(err, "field tag");
}

/* Decodes buf both ways and checks the property. */
static int check_one(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len,
                     unsigned *scanned_ok)
{
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, buf);
    cz_wire_scan sc;
    char err[200] = "";
    int rc = cz_wire_scan_message(d, buf, len, &LIMITS, &sc, err, sizeof err);
    int fails = 0;
    if (rc != CZ_OK) {
        if (m != NULL && !allowed_refusal(err)) {
            TF_CHECK_MSG(0, "the scan refused what protobuf-c accepts: %s", err);
            tf_hex("  message", buf, len < 64 ? len : 64);
            fails++;
        }
    } else {
        (*scanned_ok)++;
        void *mem = malloc(sc.arena ? sc.arena : 1);
        cz_wire_arena ar;
        cz_wire_arena_init(&ar, mem, sc.arena);
        ProtobufCMessage *m2 = protobuf_c_message_unpack(d, &ar.a, len, buf);
        if ((m != NULL) != (m2 != NULL)) {
            TF_CHECK_MSG(0, "malloc unpack %s, arena unpack (%zu bytes) %s", m ? "ok" : "failed",
                         sc.arena, m2 ? "ok" : "failed");
            tf_hex("  message", buf, len < 64 ? len : 64);
            fails++;
        }
        if (m && m2) {
            size_t a = protobuf_c_message_get_packed_size(m),
                   b = protobuf_c_message_get_packed_size(m2);
            uint8_t *pa = malloc(a + 1), *pb = malloc(b + 1);
            protobuf_c_message_pack(m, pa);
            protobuf_c_message_pack(m2, pb);
            if (a != b || memcmp(pa, pb, a) != 0) {
                TF_CHECK_MSG(0, "the two decodings differ");
                fails++;
            }
            free(pa);
            free(pb);
        }
        free(mem);
    }
    if (m)
        protobuf_c_message_free_unpacked(m, NULL);
    return fails;
}

static void test_bound(void)
{
    unsigned ok = 0, cases = 0;
    for (unsigned it = 0; it < 3000 * tf_scale; it++) {
        bool prove = rnd(3) == 0;
        const ProtobufCMessageDescriptor *d =
            prove ? &cuzk__v1__prove_request__descriptor : &cuzk__v1__submit_proof_request__descriptor;
        size_t len;
        uint8_t *buf = rand_request(&len, prove);
        unsigned extra = (unsigned)rnd(4) == 0 ? (unsigned)rnd(40) : 0;
        for (unsigned k = 0; k < extra; k++)
            buf = add_field(buf, &len);
        if (rnd(8) == 0 && len > 0) /* cut */
            len = rnd(len);
        if (rnd(8) == 0 && len > 0) /* flip a byte */
            buf[rnd(len)] ^= (uint8_t)(1 + rnd(255));
        cases++;
        int f = check_one(d, buf, len, &ok);
        free(buf);
        if (f)
            break;
    }
    TF_CHECK_MSG(ok > cases / 2, "only %u of %u messages scanned: the test is too weak", ok, cases);
}

/* Bad strings are refused without the string in the message. */
static void test_strings(void)
{
    static const uint8_t nul[] = {0x0a, 0x05, 'a', 'b', 0, 'c', 'd'};
    static const uint8_t utf8[] = {0x0a, 0x03, 'a', 0xff, 'b'};
    static const uint8_t nested[] = {0x0a, 0x05, 0x0a, 0x03, 'x', 0xc0, 0x80}; /* Prove{submit{id}} */
    cz_wire_scan sc;
    char err[200];
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__submit_proof_request__descriptor, nul, sizeof nul,
                                  &LIMITS, &sc, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "request_id: a NUL byte at offset 2"), "%s", err);
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__submit_proof_request__descriptor, utf8, sizeof utf8,
                                  &LIMITS, &sc, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "request_id: not valid UTF-8 (at byte 1)") && !strchr(err, 0xff),
                 "%s", err);
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__prove_request__descriptor, nested, sizeof nested,
                                  &LIMITS, &sc, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "SubmitProofRequest.request_id: not valid UTF-8"), "%s", err);
    static const uint8_t twice[] = {0x0a, 0x00, 0x0a, 0x00};
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__prove_request__descriptor, twice, sizeof twice,
                                  &LIMITS, &sc, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "submit: appears more than once"), "%s", err);
}

/* 32 MiB of two-byte unknown fields (the amplification attack): refused
 * at the limit, quickly; a message of many known repeated fields within
 * the limits is bounded by a small multiple of its size. */
static void test_hostile(void)
{
    size_t n = 32u << 20;
    uint8_t *buf = malloc(n);
    for (size_t i = 0; i < n; i += 2) {
        buf[i] = (uint8_t)(15 << 3); /* field 15, varint: unknown */
        buf[i + 1] = 0;
    }
    cz_wire_scan sc;
    char err[200];
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__submit_proof_request__descriptor, buf, n, &LIMITS, &sc,
                                  err, sizeof err) == CZ_ERR_TOO_BIG);
    TF_CHECK_MSG(strstr(err, "more than 256 fields this daemon does not know"), "%s", err);
    TF_CHECK(sc.unknown == 257);
    /* 60000 empty vanilla_proofs: 120 KB on the wire */
    size_t m = 60000;
    for (size_t i = 0; i < m; i++) {
        buf[2 * i] = 0x5a;
        buf[2 * i + 1] = 0;
    }
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__submit_proof_request__descriptor, buf, 2 * m, &LIMITS,
                                  &sc, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(sc.arena < 64 * 2 * m, "arena %zu for %zu bytes", sc.arena, 2 * m);
    unsigned ok = 0;
    check_one(&cuzk__v1__submit_proof_request__descriptor, buf, 2 * m, &ok);
    TF_CHECK(ok == 1);
    /* past the field limit */
    for (size_t i = 0; i < (1 << 16) + 1; i++) {
        buf[2 * i] = 0x5a;
        buf[2 * i + 1] = 0;
    }
    TF_CHECK(cz_wire_scan_message(&cuzk__v1__submit_proof_request__descriptor, buf,
                                  2 * ((1 << 16) + 1), &LIMITS, &sc, err,
                                  sizeof err) == CZ_ERR_TOO_BIG);
    TF_CHECK_MSG(strstr(err, "more than 65536 fields"), "%s", err);
    free(buf);
}

TF_MAIN(TF_TEST(test_bound), TF_TEST(test_strings), TF_TEST(test_hostile))
