/* BLAKE2b (include/cuzk/blake2b.h).
 *
 * Vectors:
 *  - RFC 7693 Appendix A: BLAKE2b-512("abc").
 *  - RFC 7693 Appendix E: the self-test's grand hash (BLAKE2b-256 over the
 *    digests of lengths 20, 32, 48, 64 of messages of 0, 3, 128, 129, 255,
 *    1024 bytes, unkeyed and keyed, from its Fibonacci byte sequence):
 *    every digest length and key length path at once.
 *  - The BLAKE2 reference KAT (testvectors/blake2b-kat.txt: key 00..3f,
 *    message 00..n-1, 64-byte digests) for n = 0, 1, 31, 33, 66, 97, 127,
 *    128, 129, 255: the key block alone and last, block boundaries +-1.
 *    Copied from two independent published test files that quote the KAT
 *    (they agree where they overlap), and equal to Python 3.11 hashlib's.
 * Streaming against one-shot on random keys, lengths and cuts. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "tf.h"

static void test_rfc7693_abc(void)
{
    uint8_t want[64], got[64];
    tf_unhex(want, 64,
             "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
             "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    TF_CHECK(cz_blake2b(got, 64, NULL, 0, "abc", 3) == CZ_OK);
    TF_CHECK_MEM(got, want, 64);
}

/* RFC 7693 Appendix E's selftest_seq: a Fibonacci sequence mod 2^32 from
 * a = 0xDEAD4BAD * seed, b = 1, the top byte of each term. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
    uint32_t a = 0xDEAD4BADu * seed, b = 1;
    for (size_t i = 0; i < len; i++) {
        uint32_t t = a + b;
        a = b, b = t;
        out[i] = (uint8_t)(t >> 24);
    }
}

static void test_rfc7693_selftest(void)
{
    static const size_t md_len[4] = {20, 32, 48, 64};
    static const size_t in_len[6] = {0, 3, 128, 129, 255, 1024};
    uint8_t in[1024], md[64], key[64], got[32], want[32];
    tf_unhex(want, 32, "c23a7800d98123bd10f506c61e29da5603d763b8bbad2e737f5e765a7bccd475");
    cz_blake2b_ctx g;
    TF_CHECK(cz_blake2b_init(&g, 32, NULL, 0) == CZ_OK);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) {
            size_t outlen = md_len[i], inlen = in_len[j];
            selftest_seq(in, inlen, (uint32_t)inlen);
            TF_CHECK(cz_blake2b(md, outlen, NULL, 0, in, inlen) == CZ_OK);
            cz_blake2b_update(&g, md, outlen);
            selftest_seq(key, outlen, (uint32_t)outlen);
            TF_CHECK(cz_blake2b(md, outlen, key, outlen, in, inlen) == CZ_OK);
            cz_blake2b_update(&g, md, outlen);
        }
    cz_blake2b_final(&g, got);
    TF_CHECK_MEM(got, want, 32);
}

static void test_keyed_kat(void)
{
    static const struct {
        size_t n;
        const char *hex;
    } kat[] = {
        {0, "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
            "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568"},
        {1, "961f6dd1e4dd30f63901690c512e78e4b45e4742ed197c3c5e45c549fd25f2e4"
            "187b0bc9fe30492b16b0d0bc4ef9b0f34c7003fac09a5ef1532e69430234cebd"},
        {31, "eba51acffb4cea31db4b8d87e9bf7dd48fe97b0253ae67aa580f9ac4a9d941f2"
             "bea518ee286818cc9f633f2a3b9fb68e594b48cdd6d515bf1d52ba6c85a203a7"},
        {33, "5595e05c13a7ec4dc8f41fb70cb50a71bce17c024ff6de7af618d0cc4e9c32d9"
             "570d6d3ea45b86525491030c0d8f2b1836d5778c1ce735c17707df364d054347"},
        {66, "c516541701863f91005f314108ceece3c643e04fc8c42fd2ff556220e616aaa6"
             "a48aeb97a84bad74782e8dff96a1a2fa949339d722edcaa32b57067041df88cc"},
        {97, "31fc79738b8772b3f55cd8178813b3b52d0db5a419d30ba9495c4b9da0219fac"
             "6df8e7c23a811551a62b827f256ecdb8124ac8a6792ccfecc3b3012722e94463"},
        {127, "76d2d819c92bce55fa8e092ab1bf9b9eab237a25267986cacf2b8ee14d214d73"
              "0dc9a5aa2d7b596e86a1fd8fa0804c77402d2fcd45083688b218b1cdfa0dcbcb"},
        {128, "72065ee4dd91c2d8509fa1fc28a37c7fc9fa7d5b3f8ad3d0d7a25626b57b1b44"
              "788d4caf806290425f9890a3a2a35a905ab4b37acfd0da6e4517b2525c9651e4"},
        {129, "64475dfe7600d7171bea0b394e27c9b00d8e74dd1e416a79473682ad3dfdbb70"
              "6631558055cfc8a40e07bd015a4540dcdea15883cbbf31412df1de1cd4152b91"},
        {255, "142709d62e28fcccd0af97fad0f8465b971e82201dc51070faa0372aa43e9248"
              "4be1c1e73ba10906d5d1853db6a4106e0a7bf9800d373d6dee2d46d62ef2a461"},
    };
    uint8_t key[64], msg[256];
    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)i;
    for (int i = 0; i < 256; i++)
        msg[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint8_t want[64], got[64];
        tf_unhex(want, 64, kat[i].hex);
        TF_CHECK(cz_blake2b(got, 64, key, 64, msg, kat[i].n) == CZ_OK);
        TF_CHECK_MSG(!memcmp(got, want, 64), "keyed KAT length %zu", kat[i].n);
        /* byte by byte */
        cz_blake2b_ctx c;
        TF_CHECK(cz_blake2b_init(&c, 64, key, 64) == CZ_OK);
        for (size_t k = 0; k < kat[i].n; k++)
            cz_blake2b_update(&c, msg + k, 1);
        cz_blake2b_final(&c, got);
        TF_CHECK_MSG(!memcmp(got, want, 64), "keyed KAT length %zu, bytewise", kat[i].n);
    }
}

static void test_bad_args(void)
{
    uint8_t out[65], key[65] = {0};
    cz_blake2b_ctx c;
    TF_CHECK(cz_blake2b_init(&c, 0, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b_init(&c, 65, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b_init(&c, 32, key, 65) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b_init(&c, 32, NULL, 3) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b_init(NULL, 32, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b(out, 65, NULL, 0, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_blake2b(out, 1, key, 64, NULL, 0) == CZ_OK);
}

static void test_streaming(void)
{
    enum { MAX = 1200 };
    uint8_t *msg = malloc(MAX);
    for (unsigned it = 0; it < 400 * tf_scale; it++) {
        size_t len = (size_t)(cz_prng_next(&tf_rng) % MAX);
        size_t outlen = 1 + (size_t)(cz_prng_next(&tf_rng) % 64);
        size_t keylen = (size_t)(cz_prng_next(&tf_rng) % 65);
        uint8_t key[64], want[64], got[64];
        cz_prng_bytes(&tf_rng, key, keylen);
        cz_prng_bytes(&tf_rng, msg, len);
        TF_CHECK(cz_blake2b(want, outlen, key, keylen, msg, len) == CZ_OK);
        cz_blake2b_ctx c;
        TF_CHECK(cz_blake2b_init(&c, outlen, key, keylen) == CZ_OK);
        for (size_t off = 0; off < len;) {
            size_t k = (size_t)(cz_prng_next(&tf_rng) % 300); /* 0 and > 2 blocks too */
            if (k > len - off)
                k = len - off;
            cz_blake2b_update(&c, msg + off, k);
            off += k;
        }
        cz_blake2b_final(&c, got);
        TF_CHECK_MSG(!memcmp(want, got, outlen),
                     "streaming != one-shot: length %zu, digest %zu, key %zu", len, outlen,
                     keylen);
    }
    free(msg);
}

TF_MAIN(TF_TEST(test_rfc7693_abc), TF_TEST(test_rfc7693_selftest), TF_TEST(test_keyed_kat),
        TF_TEST(test_bad_args), TF_TEST(test_streaming))
