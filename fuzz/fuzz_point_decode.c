/* libFuzzer harness for the G1 and G2 point decoders (include/cuzk/ec.h).
 *
 * Every input is decoded as a G1 and as a G2 point, whole and as its prefixes
 * of every valid encoding length (48, 96, 192), under each of the four
 * decoder flag combinations.  Invariants, abort() when one fails:
 *   - a rejection returns a known error code and leaves the output untouched;
 *   - an accepted point is on the curve, in the subgroup unless
 *     CZ_DECODE_SKIP_SUBGROUP, and not infinity under REJECT_INFINITY;
 *   - both re-encodings of an accepted point decode (same flags) to an equal
 *     point, and the re-encoding in the input's own form is byte-identical
 *     to the input (the encoding is canonical);
 *   - the flags only remove cases: whatever the default accepts,
 *     SKIP_SUBGROUP accepts as the same point.
 * An input of exactly 32 bytes is also a scalar k (big-endian, reduced mod
 * r): both encodings of k*G must decode back to k*G.  Random bytes almost
 * never hit a subgroup point; this and the seed corpus
 * (fuzz/corpus/point_decode) make the accepting paths reachable.  (Only 32
 * bytes: two scalar multiplications would dominate every run.)
 *
 * Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "fuzz.h"

static const unsigned all_flags[4] = {
    CZ_DECODE_DEFAULT,
    CZ_DECODE_SKIP_SUBGROUP,
    CZ_DECODE_REJECT_INFINITY,
    CZ_DECODE_SKIP_SUBGROUP | CZ_DECODE_REJECT_INFINITY,
};

/* The checks of one group g (g1, g2): AFF and JAC its point types, GEN its
 * generator. */
#define DEFINE_CHECKS(g, AFF, JAC, GEN, CBYTES, UBYTES)                                            \
    /* Decodes in[0..len) with flags, checks the invariants above, returns                         \
     * whether it was accepted (*out set). */                                                      \
    static bool g##_check(AFF *out, const uint8_t *in, size_t len, unsigned flags)                 \
    {                                                                                              \
        AFF r, s, sentinel;                                                                        \
        uint8_t enc[UBYTES];                                                                       \
        memset(&sentinel, 0x5a, sizeof sentinel);                                                  \
        r = sentinel;                                                                              \
        int rc = cz_##g##_decode(&r, in, len, flags);                                              \
        if (rc != CZ_OK) {                                                                         \
            CHECK(rc > 0 && rc < CZ_ERR__COUNT);                                                   \
            CHECK(!memcmp(&r, &sentinel, sizeof r));                                               \
            CHECK(len == CBYTES || len == UBYTES || rc == CZ_ERR_BAD_LENGTH);                      \
            return false;                                                                          \
        }                                                                                          \
        CHECK(len == CBYTES || len == UBYTES);                                                     \
        CHECK(cz_##g##_affine_is_on_curve(&r));                                                    \
        if (!(flags & CZ_DECODE_SKIP_SUBGROUP))                                                    \
            CHECK(cz_##g##_affine_in_subgroup(&r));                                                \
        if (flags & CZ_DECODE_REJECT_INFINITY)                                                     \
            CHECK(!cz_##g##_affine_is_inf(&r));                                                    \
        cz_##g##_to_compressed(enc, &r);                                                           \
        CHECK(cz_##g##_decode(&s, enc, CBYTES, flags) == CZ_OK);                                   \
        CHECK(cz_##g##_affine_equal(&s, &r));                                                      \
        if (len == CBYTES)                                                                         \
            CHECK(!memcmp(enc, in, CBYTES));                                                       \
        cz_##g##_to_uncompressed(enc, &r);                                                         \
        CHECK(cz_##g##_decode(&s, enc, UBYTES, flags) == CZ_OK);                                   \
        CHECK(cz_##g##_affine_equal(&s, &r));                                                      \
        if (len == UBYTES)                                                                         \
            CHECK(!memcmp(enc, in, UBYTES));                                                       \
        *out = r;                                                                                  \
        return true;                                                                               \
    }                                                                                              \
                                                                                                   \
    /* Every flag combination on in[0..len), and their consistency. */                             \
    static void g##_check_all(const uint8_t *in, size_t len)                                       \
    {                                                                                              \
        AFF p[4];                                                                                  \
        bool ok[4];                                                                                \
        for (int i = 0; i < 4; i++)                                                                \
            ok[i] = g##_check(&p[i], in, len, all_flags[i]);                                       \
        /* default => skip-subgroup, reject-infinity => both */                                    \
        if (ok[0])                                                                                 \
            CHECK(ok[1] && cz_##g##_affine_equal(&p[0], &p[1]));                                   \
        if (ok[2])                                                                                 \
            CHECK(ok[3] && cz_##g##_affine_equal(&p[2], &p[3]));                                   \
        /* the default rejects only what a flag-specific check rejects */                          \
        if (ok[1] && cz_##g##_affine_in_subgroup(&p[1]))                                           \
            CHECK(ok[0]);                                                                          \
        if (ok[0] && !cz_##g##_affine_is_inf(&p[0]))                                               \
            CHECK(ok[2]);                                                                          \
    }                                                                                              \
                                                                                                   \
    /* k*G round-trips through both encodings. */                                                  \
    static void g##_check_scalar(const cz_fr *k)                                                   \
    {                                                                                              \
        JAC j;                                                                                     \
        AFF a, s;                                                                                  \
        uint8_t enc[UBYTES];                                                                       \
        cz_##g##_from_affine(&j, &GEN);                                                            \
        cz_##g##_mul_var(&j, &j, k);                                                               \
        cz_##g##_to_affine(&a, &j);                                                                \
        cz_##g##_to_compressed(enc, &a);                                                           \
        CHECK(g##_check(&s, enc, CBYTES, CZ_DECODE_DEFAULT));                                      \
        CHECK(cz_##g##_affine_equal(&s, &a));                                                      \
        cz_##g##_to_uncompressed(enc, &a);                                                         \
        CHECK(g##_check(&s, enc, UBYTES, CZ_DECODE_DEFAULT));                                      \
        CHECK(cz_##g##_affine_equal(&s, &a));                                                      \
    }

DEFINE_CHECKS(g1, cz_g1_affine, cz_g1, CZ_G1_GENERATOR, CZ_G1_COMPRESSED_BYTES,
              CZ_G1_UNCOMPRESSED_BYTES)
DEFINE_CHECKS(g2, cz_g2_affine, cz_g2, CZ_G2_GENERATOR, CZ_G2_COMPRESSED_BYTES,
              CZ_G2_UNCOMPRESSED_BYTES)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t lens[3] = {48, 96, 192};
    g1_check_all(data, size);
    g2_check_all(data, size);
    for (int i = 0; i < 3; i++) {
        if (lens[i] >= size)
            break;
        g1_check_all(data, lens[i]);
        g2_check_all(data, lens[i]);
    }
    if (size == 32) {
        uint8_t wide[64] = {0};
        cz_fr k;
        for (int i = 0; i < 32; i++)
            wide[i] = data[31 - i];
        cz_fr_from_bytes_wide(&k, wide);
        g1_check_scalar(&k);
        g2_check_scalar(&k);
    }
    return 0;
}
