/* ChaCha (include/cuzk/chacha.h).
 *
 * Vectors:
 *  - RFC 8439 2.3.2 (the block function: key 00..1f, nonce
 *    000000090000004a00000000, counter 1) and 2.4.2 (the "sunscreen"
 *    plaintext under counter 1, nonce 000000000000004a00000000), and A.1
 *    vector 1; the same bytes come out of OpenSSL 3.0's ChaCha20 (Python
 *    cryptography 48).
 *  - ChaCha8, Bernstein's layout: draft-strombergson-chacha-test-vectors
 *    TC1, TC2, TC7, TC8 (256-bit keys, 8 rounds, blocks 0 and 1).
 *  - rand_chacha 0.3.1's own unit tests (rand_chacha/src/chacha.rs:
 *    test_chacha_construction, true_values_a/b/c, multiple_blocks), which
 *    are for ChaCha20Rng; rand publishes no ChaCha8Rng output, so the
 *    ChaCha8Rng u64s checked are TC1's and TC2's keystreams (key = seed,
 *    stream 0: the generator's definition) read as LE u64.  The DRG's
 *    published parents (test_fc_graph) check the same generator end to end.
 *
 * Reference twins, on random seeds: rand_core 0.6's BlockRng written out
 * literally (a 64-word buffer of four blocks, next_u64's three cases) over
 * a second, index-table ChaCha, against cz_chacha_rng under random mixes
 * of next_u32 and next_u64; the ChaCha20 stream from blocks computed one
 * by one against seek and xor on random positions and cuts. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/chacha.h"
#include "tf.h"

/* ----------------------------------------------------- the reference twin --- */

/* The quarter rounds of a double round as index quadruples (RFC 8439 2.2). */
static const unsigned char QI[8][4] = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14},
                                       {3, 7, 11, 15}, {0, 5, 10, 15}, {1, 6, 11, 12},
                                       {2, 7, 8, 13},  {3, 4, 9, 14}};

static uint32_t rl(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

static void ref_block(uint32_t out[16], const uint32_t in[16], unsigned rounds)
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    for (unsigned r = 0; r < rounds; r++)
        for (int q = 4 * (int)(r % 2); q < 4 * (int)(r % 2) + 4; q++) {
            uint32_t *a = &x[QI[q][0]], *b = &x[QI[q][1]], *c = &x[QI[q][2]], *d = &x[QI[q][3]];
            *a += *b, *d ^= *a, *d = rl(*d, 16);
            *c += *d, *b ^= *c, *b = rl(*b, 12);
            *a += *b, *d ^= *a, *d = rl(*d, 8);
            *c += *d, *b ^= *c, *b = rl(*b, 7);
        }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

/* Bernstein's state for key, a 64-bit counter and a 64-bit nonce. */
static void djb_state(uint32_t s[16], const uint8_t key[32], uint64_t ctr, uint64_t nonce)
{
    static const char sigma[] = "expand 32-byte k";
    for (int i = 0; i < 4; i++)
        s[i] = (uint32_t)(unsigned char)sigma[4 * i] | (uint32_t)(unsigned char)sigma[4 * i + 1] << 8 |
               (uint32_t)(unsigned char)sigma[4 * i + 2] << 16 |
               (uint32_t)(unsigned char)sigma[4 * i + 3] << 24;
    for (int i = 0; i < 8; i++)
        s[4 + i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 |
                   (uint32_t)key[4 * i + 2] << 16 | (uint32_t)key[4 * i + 3] << 24;
    s[12] = (uint32_t)ctr, s[13] = (uint32_t)(ctr >> 32);
    s[14] = (uint32_t)nonce, s[15] = (uint32_t)(nonce >> 32);
}

/* rand_core 0.6 BlockRng<ChaChaXCore>: results of 64 words, index. */
typedef struct {
    uint8_t seed[32];
    uint64_t pos; /* block of the next refill */
    uint32_t results[64];
    size_t index;
    unsigned rounds;
} ref_rng;

static void ref_generate_and_set(ref_rng *r, size_t index)
{
    for (int b = 0; b < 4; b++) { /* refill4 */
        uint32_t s[16];
        djb_state(s, r->seed, r->pos + (uint64_t)b, 0);
        ref_block(r->results + 16 * b, s, r->rounds);
    }
    r->pos += 4;
    r->index = index;
}

static uint32_t ref_next_u32(ref_rng *r)
{
    if (r->index >= 64)
        ref_generate_and_set(r, 0);
    return r->results[r->index++];
}

static uint64_t ref_next_u64(ref_rng *r)
{
    size_t len = 64, index = r->index;
    if (index < len - 1) {
        r->index += 2;
        return (uint64_t)r->results[index + 1] << 32 | r->results[index];
    } else if (index >= len) {
        ref_generate_and_set(r, 2);
        return (uint64_t)r->results[1] << 32 | r->results[0];
    } else {
        uint64_t x = r->results[len - 1];
        ref_generate_and_set(r, 1);
        uint64_t y = r->results[0];
        return (y << 32) | x;
    }
}

static void ref_rng_init(ref_rng *r, const uint8_t seed[32], unsigned rounds)
{
    memcpy(r->seed, seed, 32);
    r->pos = 0;
    r->index = 64;
    r->rounds = rounds;
}

/* -------------------------------------------------------------- vectors --- */

static void test_rfc8439_block(void)
{
    uint8_t key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    uint32_t s[16], out[16];
    cz_chacha_setup(s, key);
    s[12] = 1, s[13] = 0x09000000, s[14] = 0x4a000000, s[15] = 0;
    static const uint32_t want[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
                                      0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
                                      0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                      0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    cz_chacha_block(out, s, 20);
    TF_CHECK_MEM(out, want, sizeof want);
    uint32_t alias[16];
    memcpy(alias, s, sizeof alias);
    cz_chacha_block(alias, alias, 20);
    TF_CHECK_MEM(alias, want, sizeof want);

    /* the serialized block, through the IETF keystream at byte 64 (counter 1) */
    uint8_t nonce[12] = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0}, ks[64], ser[64];
    tf_unhex(ser, 64,
             "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
             "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
    cz_chacha20 c;
    cz_chacha20_init(&c, key, nonce);
    cz_chacha20_seek(&c, 64);
    cz_chacha20_xor(&c, ks, NULL, 64);
    TF_CHECK_MEM(ks, ser, 64);

    /* A.1 vector 1: zero key and nonce, counter 0 */
    static const uint32_t a1[4] = {0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653};
    memset(key, 0, 32);
    cz_chacha_setup(s, key);
    s[12] = s[13] = s[14] = s[15] = 0;
    cz_chacha_block(out, s, 20);
    TF_CHECK_MEM(out, a1, sizeof a1);
}

static void test_rfc8439_keystream(void)
{
    static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                             "only one tip for the future, sunscreen would be it.";
    uint8_t key[32], nonce[12] = {0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0}, want[114], got[114];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    TF_CHECK(sizeof pt - 1 == 114);
    tf_unhex(want, sizeof want,
             "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
             "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
             "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
             "5af90bbf74a35be6b40b8eedf2785e42874d");
    cz_chacha20 c;
    cz_chacha20_init(&c, key, nonce);
    cz_chacha20_seek(&c, 64); /* RFC 8439 encrypts from counter 1 */
    cz_chacha20_xor(&c, got, (const uint8_t *)pt, 114);
    TF_CHECK_MEM(got, want, 114);
    /* decrypt in place, in uneven pieces */
    cz_chacha20_seek(&c, 64);
    cz_chacha20_xor(&c, got, got, 7);
    cz_chacha20_xor(&c, got + 7, got + 7, 64);
    cz_chacha20_xor(&c, got + 71, got + 71, 43);
    TF_CHECK_MEM(got, pt, 114);
}

static const struct {
    const char *key, *iv, *ks; /* 32, 8 and 128 bytes */
} STROMBERGSON8[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
     "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
     "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
     "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
     "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"},
    {"0100000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
     "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea"
     "289d04f43c7518db56eb4433e498a1238cd8464d3763ddbb9222ee3bd8fae3c8"
     "b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d75bcdb32015542638"
     "291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4"},
    {"00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100", "0f1e2d3c4b596877",
     "60fdedbd1a280cb741d0593b6ea0309010acf18e1471f68968f4c9e311dca149"
     "b8e027b47c81e0353db013891aa5f68ea3b13dd2f3b8dd0873bf3746e7d6c567"
     "fe882395601ce8aded444867fe62ed8741420002e5d28bb573113a418c1f4008"
     "e954c188f38ec4f26bb8555e2b7c92bf4380e2ea9e553187fdd42821794416de"},
    {"c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d", "1ada31d5cf688221",
     "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c9"
     "6ad848065871417b08f034e681fe46a93f7d5c61d1306614d4aaf257a7cff08b"
     "16f2fda170cc18a4b58a2667ed962774af792a6e7f3c77992540711a7a136d7e"
     "8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f"},
};

static void test_chacha8_block(void)
{
    for (size_t t = 0; t < sizeof STROMBERGSON8 / sizeof STROMBERGSON8[0]; t++) {
        uint8_t key[32], iv[8], want[128], got[128];
        tf_unhex(key, 32, STROMBERGSON8[t].key);
        tf_unhex(iv, 8, STROMBERGSON8[t].iv);
        tf_unhex(want, 128, STROMBERGSON8[t].ks);
        uint64_t nonce = 0;
        for (int i = 0; i < 8; i++)
            nonce |= (uint64_t)iv[i] << (8 * i);
        for (unsigned b = 0; b < 2; b++) {
            uint32_t s[16], w[16];
            cz_chacha_setup(s, key);
            s[12] = b, s[13] = 0, s[14] = (uint32_t)nonce, s[15] = (uint32_t)(nonce >> 32);
            cz_chacha_block(w, s, 8);
            for (int i = 0; i < 64; i++)
                got[64 * b + (unsigned)i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
        }
        TF_CHECK_MSG(!memcmp(got, want, 128), "Strombergson 8-round vector %zu", t);
    }
}

/* ChaCha20Rng from seed, skip u32 words, then the n words of want. */
static void check_words(const uint8_t seed[32], int skip, const uint32_t *want, int n,
                        const char *what)
{
    cz_chacha_rng r;
    cz_chacha_rng_init(&r, seed, 20);
    for (int i = 0; i < skip; i++)
        cz_chacha_rng_next_u32(&r);
    for (int i = 0; i < n; i++)
        TF_CHECK_MSG(cz_chacha_rng_next_u32(&r) == want[i], "%s word %d", what, i);
}

/* rand_chacha 0.3.1's tests of ChaCha20Rng (rand_chacha/src/chacha.rs). */
static void test_rand_chacha_vectors(void)
{
    cz_chacha_rng r;
    uint8_t seed[32] = {0};

    /* test_chacha_construction: the first u32 */
    seed[8] = 1, seed[16] = 2, seed[24] = 3;
    cz_chacha_rng_init(&r, seed, 20);
    TF_CHECK(cz_chacha_rng_next_u32(&r) == 137206642);

    /* test_chacha_true_values_a: blocks 0 and 1 of the zero seed */
    static const uint32_t a[32] = {
        0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0, 0xccef36a8,
        0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8, 0xf4b8436a, 0x1ca11815,
        0x69b687c3, 0x8665eeb2, 0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb,
        0x6965e348, 0x3e53c612, 0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
        0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
    memset(seed, 0, 32);
    check_words(seed, 0, a, 32, "true_values_a");

    /* test_chacha_true_values_b: seed ...01, block 1 */
    static const uint32_t b[16] = {0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1,
                                   0xe8252083, 0x60818b01, 0xf38422b8, 0x5aaa49c9,
                                   0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f,
                                   0x4436274e, 0x2561b3c8, 0xebdd4aa6, 0xa0136c00};
    seed[31] = 1;
    check_words(seed, 16, b, 16, "true_values_b");

    /* test_chacha_true_values_c: seed 00 ff 00..., block 2, read as u64s
     * too (next_u64 = two words, low first) */
    static const uint32_t c[16] = {0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394,
                                   0xa78dea8f, 0x5e269039, 0xa1bebbc1, 0xcaf09aae,
                                   0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6,
                                   0x546ca624, 0x1bec45d5, 0x87f47473, 0x96f0992e};
    memset(seed, 0, 32);
    seed[1] = 0xff;
    check_words(seed, 32, c, 16, "true_values_c");
    cz_chacha_rng_init(&r, seed, 20);
    for (int i = 0; i < 16; i++)
        cz_chacha_rng_next_u64(&r);
    for (int i = 0; i < 8; i++)
        TF_CHECK_MSG(cz_chacha_rng_next_u64(&r) == ((uint64_t)c[2 * i + 1] << 32 | c[2 * i]),
                     "true_values_c u64 %d", i);

    /* test_chacha_multiple_blocks: word i of block i */
    static const uint32_t m[16] = {0xf225c81a, 0x6ab1be57, 0x04d42951, 0x70858036,
                                   0x49884684, 0x64efec72, 0x4be2d186, 0x3615b384,
                                   0x11cfa18e, 0xd3c50049, 0x75c775f6, 0x434c6530,
                                   0x2c5bad8f, 0x898881dc, 0x5f1c86d9, 0xc1f8e7f4};
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i % 4 == 0 ? i / 4 : 0);
    cz_chacha_rng_init(&r, seed, 20);
    for (int i = 0; i < 16; i++) {
        TF_CHECK_MSG(cz_chacha_rng_next_u32(&r) == m[i], "multiple_blocks %d", i);
        for (int k = 0; k < 16; k++)
            cz_chacha_rng_next_u32(&r);
    }
}

/* ChaCha8Rng::from_seed: the u64s of Strombergson TC1 (zero seed) and TC2
 * (seed 01 00 ...), both 128 bytes: blocks 0 and 1 as LE u64s. */
static void test_chacha8_rng_vectors(void)
{
    static const uint64_t tc1[16] = {
        0xd6405f892fef003eull, 0xa1a5091fe8b85b7full, 0x3b7f9acec30e842cull,
        0x1e1a71ef88e11b18ull, 0x416f21b972e14c98ull, 0x19566d456753449full,
        0x01b086daa3424a31ull, 0x42fe0c0eb8fd7b38ull, 0x51c1a5ea0dfaaed2ull,
        0xada5f2016cdb0abfull, 0xaaa2f9591258fdc0ull, 0x6ba266d58f0ff2dcull,
        0x98dac5bb38ec3250ull, 0x652a878b566f0ceeull, 0xbb21eb1d25bf8aa0ull,
        0xaa681e82d8e5564bull};
    uint8_t seed[32] = {0};
    cz_chacha_rng r;
    cz_chacha_rng_init(&r, seed, 8);
    for (int i = 0; i < 16; i++)
        TF_CHECK_MSG(cz_chacha_rng_next_u64(&r) == tc1[i], "TC1 u64 %d", i);

    uint8_t ks[128];
    tf_unhex(ks, 128, STROMBERGSON8[1].ks);
    seed[0] = 1;
    cz_chacha_rng_init(&r, seed, 8);
    cz_chacha_rng_next_u32(&r); /* odd offset: u64s straddle the block end */
    for (int i = 0; i < 15; i++) {
        uint64_t want = 0;
        for (int k = 0; k < 8; k++)
            want |= (uint64_t)ks[4 + 8 * i + k] << (8 * k);
        TF_CHECK_MSG(cz_chacha_rng_next_u64(&r) == want, "TC2 u64 at word %d", 1 + 2 * i);
    }
}

/* ---------------------------------------------------------------- twins --- */

static void test_rng_twin(void)
{
    for (unsigned it = 0; it < 60 * tf_scale; it++) {
        uint8_t seed[32];
        cz_prng_bytes(&tf_rng, seed, 32);
        unsigned rounds = it % 3 == 0 ? 20 : 8;
        cz_chacha_rng r;
        ref_rng ref;
        cz_chacha_rng_init(&r, seed, rounds);
        ref_rng_init(&ref, seed, rounds);
        /* mixes crossing several 64-word buffers at odd and even offsets */
        for (int k = 0; k < 300; k++) {
            if (cz_prng_next(&tf_rng) % 3 == 0) {
                uint32_t x = cz_chacha_rng_next_u32(&r), y = ref_next_u32(&ref);
                TF_CHECK_MSG(x == y, "u32 %d of iteration %u: %08x vs %08x", k, it, x, y);
            } else {
                uint64_t x = cz_chacha_rng_next_u64(&r), y = ref_next_u64(&ref);
                TF_CHECK_MSG(x == y, "u64 %d of iteration %u: %016llx vs %016llx", k, it,
                             (unsigned long long)x, (unsigned long long)y);
            }
        }
    }
    /* the three next_u64 cases by construction: index 62, 63 and 64 */
    uint8_t seed[32];
    cz_prng_bytes(&tf_rng, seed, 32);
    for (int skip = 62; skip <= 64; skip++) {
        cz_chacha_rng r;
        ref_rng ref;
        cz_chacha_rng_init(&r, seed, 8);
        ref_rng_init(&ref, seed, 8);
        for (int k = 0; k < skip; k++)
            TF_CHECK(cz_chacha_rng_next_u32(&r) == ref_next_u32(&ref));
        for (int k = 0; k < 3; k++)
            TF_CHECK_MSG(cz_chacha_rng_next_u64(&r) == ref_next_u64(&ref), "index %d", skip);
    }
}

static void test_chacha20_twin(void)
{
    enum { MAX = 700 };
    uint8_t want[MAX], got[MAX], msg[MAX];
    for (unsigned it = 0; it < 200 * tf_scale; it++) {
        uint8_t key[32], nonce[12];
        cz_prng_bytes(&tf_rng, key, 32);
        cz_prng_bytes(&tf_rng, nonce, 12);
        uint64_t pos = cz_prng_next(&tf_rng) % 5000;
        if (it % 10 == 0)
            pos += 0xffffff00ull * 64; /* near the end of the 2^32 blocks */
        size_t len = (size_t)(cz_prng_next(&tf_rng) % MAX);
        cz_prng_bytes(&tf_rng, msg, len);
        /* reference: block pos/64 + j from the state written out */
        for (size_t i = 0; i < len; i++) {
            uint64_t p = pos + i;
            uint32_t s[16], w[16];
            djb_state(s, key, 0, 0);
            s[12] = (uint32_t)(p / 64);
            for (int k = 0; k < 3; k++)
                s[13 + k] = (uint32_t)nonce[4 * k] | (uint32_t)nonce[4 * k + 1] << 8 |
                            (uint32_t)nonce[4 * k + 2] << 16 | (uint32_t)nonce[4 * k + 3] << 24;
            ref_block(w, s, 20);
            want[i] = (uint8_t)(msg[i] ^ (uint8_t)(w[p % 64 / 4] >> (8 * (p % 4))));
        }
        cz_chacha20 c;
        cz_chacha20_init(&c, key, nonce);
        cz_chacha20_seek(&c, pos);
        for (size_t off = 0; off < len;) {
            size_t k = (size_t)(cz_prng_next(&tf_rng) % 150);
            if (k > len - off)
                k = len - off;
            cz_chacha20_xor(&c, got + off, msg + off, k);
            off += k;
        }
        TF_CHECK_MSG(!memcmp(got, want, len), "ChaCha20 at %llu, %zu bytes",
                     (unsigned long long)pos, len);
    }
}

TF_MAIN(TF_TEST(test_rfc8439_block), TF_TEST(test_rfc8439_keystream), TF_TEST(test_chacha8_block),
        TF_TEST(test_rand_chacha_vectors), TF_TEST(test_chacha8_rng_vectors),
        TF_TEST(test_rng_twin), TF_TEST(test_chacha20_twin))
