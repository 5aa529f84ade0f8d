/* Native SHA-256 (include/cuzk/sha256.h): published vectors (FIPS 180-4's
 * "abc", the 448-bit message and one million 'a's; the digests that
 * Python's hashlib gives for them), and the streaming API against the
 * one-shot function on random messages cut at random places. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
#include "tf.h"

static void hex32(char out[65], const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

static void test_vectors(void)
{
    static const struct {
        const char *msg;
        size_t repeat;
        const char *hex;
    } v[] = {
        {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = strlen(v[i].msg);
        cz_sha256_ctx c;
        cz_sha256_init(&c);
        for (size_t r = 0; r < v[i].repeat; r++)
            cz_sha256_update(&c, v[i].msg, n);
        uint8_t d[32];
        char h[65];
        cz_sha256_final(&c, d);
        hex32(h, d);
        TF_CHECK_MSG(!strcmp(h, v[i].hex), "vector %zu: %s, want %s", i, h, v[i].hex);
        if (v[i].repeat == 1) {
            cz_sha256(d, (const uint8_t *)v[i].msg, n);
            hex32(h, d);
            TF_CHECK_MSG(!strcmp(h, v[i].hex), "one-shot vector %zu: %s", i, h);
        }
    }
}

static void test_streaming(void)
{
    enum { MAX = 4096 };
    uint8_t *msg = malloc(MAX);
    for (unsigned it = 0; it < 300 * tf_scale; it++) {
        size_t len = (size_t)(cz_prng_next(&tf_rng) % MAX);
        cz_prng_bytes(&tf_rng, msg, len);
        uint8_t want[32], got[32];
        cz_sha256(want, msg, len);
        cz_sha256_ctx c;
        cz_sha256_init(&c);
        for (size_t off = 0; off < len;) {
            size_t k = (size_t)(cz_prng_next(&tf_rng) % 130);
            if (k > len - off)
                k = len - off;
            cz_sha256_update(&c, msg + off, k);
            off += k;
        }
        cz_sha256_final(&c, got);
        TF_CHECK_MSG(!memcmp(want, got, 32), "streaming != one-shot at length %zu", len);
        /* final re-initialises: the context hashes again from scratch */
        cz_sha256_update(&c, msg, len);
        cz_sha256_final(&c, got);
        TF_CHECK_MSG(!memcmp(want, got, 32), "reused context at length %zu", len);
    }
    free(msg);
}

TF_MAIN(TF_TEST(test_vectors), TF_TEST(test_streaming))
