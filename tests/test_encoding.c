/* G1 and G2 encodings (zcash / blstrs / bellperson format): published
 * known answers, round trips, and every decoder error code from a crafted
 * input.  The two groups run the same tests through a table of wrappers. */
#include <stdio.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* ---------------------------------------------- the two groups, wrapped --- */

typedef union {
    cz_g1_affine g1;
    cz_g2_affine g2;
} aff;

typedef struct {
    const char *name;
    size_t n;                                          /* compressed bytes */
    void (*mul_gen)(aff *r, uint64_t k);               /* [k] generator */
    void (*random_in_group)(aff *r);
    void (*random_on_curve)(aff *r);                   /* cofactor not cleared */
    void (*random_x_without_y)(uint8_t *out);          /* n bytes, flags clear */
    void (*neg)(aff *r, const aff *p);
    bool (*equal)(const aff *a, const aff *b);
    bool (*is_inf)(const aff *p);
    bool (*in_subgroup)(const aff *p);
    void (*compress)(uint8_t *out, const aff *p);
    void (*uncompress)(uint8_t *out, const aff *p);
    int (*decode)(aff *r, const uint8_t *in, size_t len, unsigned flags);
} group;

static void g1_mul_gen(aff *r, uint64_t k)
{
    cz_g1 p;
    cz_fr s;
    cz_fr_from_u64(&s, k);
    cz_g1_from_affine(&p, &CZ_G1_GENERATOR);
    cz_g1_mul(&p, &p, &s);
    cz_g1_to_affine(&r->g1, &p);
}

static void g1_random_in_group(aff *r)
{
    cz_g1 p;
    cz_fr s;
    cz_fr_random(&s, &tf_rng);
    cz_g1_from_affine(&p, &CZ_G1_GENERATOR);
    cz_g1_mul_var(&p, &p, &s);
    cz_g1_to_affine(&r->g1, &p);
}

/* x^3 + 4 for x = the random element x */
static void g1_rhs(cz_fp *rhs, const cz_fp *x)
{
    cz_fp b;
    cz_fp_from_u64(&b, 4);
    cz_fp_sqr(rhs, x);
    cz_fp_mul(rhs, rhs, x);
    cz_fp_add(rhs, rhs, &b);
}

static void g1_random_on_curve(aff *r)
{
    cz_fp rhs;
    do {
        cz_fp_random(&r->g1.x, &tf_rng);
        g1_rhs(&rhs, &r->g1.x);
    } while (!cz_fp_sqrt(&r->g1.y, &rhs));
}

static void g1_random_x_without_y(uint8_t *out)
{
    cz_fp x, rhs;
    do {
        cz_fp_random(&x, &tf_rng);
        g1_rhs(&rhs, &x);
    } while (cz_fp_legendre(&rhs) != -1);
    cz_fp_to_bytes_be(out, &x);
}

static void g1_neg(aff *r, const aff *p) { cz_g1_affine_neg(&r->g1, &p->g1); }
static bool g1_equal(const aff *a, const aff *b) { return cz_g1_affine_equal(&a->g1, &b->g1); }
static bool g1_is_inf(const aff *p) { return cz_g1_affine_is_inf(&p->g1); }
static bool g1_in_subgroup(const aff *p) { return cz_g1_affine_in_subgroup(&p->g1); }
static void g1_compress(uint8_t *out, const aff *p) { cz_g1_to_compressed(out, &p->g1); }
static void g1_uncompress(uint8_t *out, const aff *p) { cz_g1_to_uncompressed(out, &p->g1); }
static int g1_decode(aff *r, const uint8_t *in, size_t len, unsigned flags)
{
    return cz_g1_decode(&r->g1, in, len, flags);
}

static void g2_mul_gen(aff *r, uint64_t k)
{
    cz_g2 p;
    cz_fr s;
    cz_fr_from_u64(&s, k);
    cz_g2_from_affine(&p, &CZ_G2_GENERATOR);
    cz_g2_mul(&p, &p, &s);
    cz_g2_to_affine(&r->g2, &p);
}

static void g2_random_in_group(aff *r)
{
    cz_g2 p;
    cz_fr s;
    cz_fr_random(&s, &tf_rng);
    cz_g2_from_affine(&p, &CZ_G2_GENERATOR);
    cz_g2_mul_var(&p, &p, &s);
    cz_g2_to_affine(&r->g2, &p);
}

/* x^3 + 4 (u + 1) */
static void g2_rhs(cz_fp2 *rhs, const cz_fp2 *x)
{
    cz_fp2 b;
    cz_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    cz_fp2_sqr(rhs, x);
    cz_fp2_mul(rhs, rhs, x);
    cz_fp2_add(rhs, rhs, &b);
}

static void g2_random_on_curve(aff *r)
{
    cz_fp2 rhs;
    do {
        cz_fp2_random(&r->g2.x, &tf_rng);
        g2_rhs(&rhs, &r->g2.x);
    } while (!cz_fp2_sqrt(&r->g2.y, &rhs));
}

static void g2_random_x_without_y(uint8_t *out)
{
    cz_fp2 x, rhs;
    do {
        cz_fp2_random(&x, &tf_rng);
        g2_rhs(&rhs, &x);
    } while (cz_fp2_legendre(&rhs) != -1);
    cz_fp_to_bytes_be(out, &x.c1);
    cz_fp_to_bytes_be(out + 48, &x.c0);
}

static void g2_neg(aff *r, const aff *p) { cz_g2_affine_neg(&r->g2, &p->g2); }
static bool g2_equal(const aff *a, const aff *b) { return cz_g2_affine_equal(&a->g2, &b->g2); }
static bool g2_is_inf(const aff *p) { return cz_g2_affine_is_inf(&p->g2); }
static bool g2_in_subgroup(const aff *p) { return cz_g2_affine_in_subgroup(&p->g2); }
static void g2_compress(uint8_t *out, const aff *p) { cz_g2_to_compressed(out, &p->g2); }
static void g2_uncompress(uint8_t *out, const aff *p) { cz_g2_to_uncompressed(out, &p->g2); }
static int g2_decode(aff *r, const uint8_t *in, size_t len, unsigned flags)
{
    return cz_g2_decode(&r->g2, in, len, flags);
}

static const group groups[2] = {
    {"G1", 48, g1_mul_gen, g1_random_in_group, g1_random_on_curve, g1_random_x_without_y, g1_neg,
     g1_equal, g1_is_inf, g1_in_subgroup, g1_compress, g1_uncompress, g1_decode},
    {"G2", 96, g2_mul_gen, g2_random_in_group, g2_random_on_curve, g2_random_x_without_y, g2_neg,
     g2_equal, g2_is_inf, g2_in_subgroup, g2_compress, g2_uncompress, g2_decode},
};

/* ------------------------------------------------------- known answers --- */

static void unhex(uint8_t *out, const char *s)
{
    for (size_t i = 0; s[2 * i]; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* Entries k = 1, 2, 999 ([k] generator) of zkcrypto/bls12_381's
 * src/tests/g{1,2}_{compressed,uncompressed}_valid_test_vectors.dat (entry k
 * of each file is [k] G; entry 0, infinity, is tested below).  The G1
 * generator's compressed form is also the one in the zcash serialization
 * spec. */
static const struct {
    int group;
    uint64_t k;
    const char *compressed, *uncompressed;
} kats[] = {
    {0, 1,
     "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
     "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
     "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"},
    {0, 2,
     "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
     "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"
     "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28"},
    {0, 999,
     "b94ba65546846b439edbfc9da84c1c2d2af3d0ede8c88ec50fce2e1c3f782e932205982683f0802a4dce313610bbb2db",
     "194ba65546846b439edbfc9da84c1c2d2af3d0ede8c88ec50fce2e1c3f782e932205982683f0802a4dce313610bbb2db"
     "110cf0bbf7d06446072f32b6859704b28f9f8450acd4e766cb587769c3af2ee7cd3fa1589a9ae62fbff503fd953a78d6"},
    {1, 1,
     "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
     "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
     "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
     "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
     "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
     "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"},
    {1, 2,
     "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
     "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053",
     "0a4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
     "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
     "0f6d4552fa65dd2638b361543f887136a43253d9c66c411697003f7a13c308f5422e1aa0a59c8967acdefd8b6e36ccf3"
     "0468fb440d82b0630aeb8dca2b5256789a66da69bf91009cbfe6bd221e47aa8ae88dece9764bf3bd999d95d71e4c9899"},
    {1, 999,
     "b58f8116e02e856737dfccdad0a7f100f813c36f9a35349e7ea62facb2824c9277bd34e6581df83deaf3c126e712f15e"
     "0b2fd8eb8ae8e2df5281e47abf6334ca1ec378061143ce7c1c804ad9c409c42dab34c78d9d7904a8754cb2817a93c7ea",
     "158f8116e02e856737dfccdad0a7f100f813c36f9a35349e7ea62facb2824c9277bd34e6581df83deaf3c126e712f15e"
     "0b2fd8eb8ae8e2df5281e47abf6334ca1ec378061143ce7c1c804ad9c409c42dab34c78d9d7904a8754cb2817a93c7ea"
     "15e29105a7febfd8cd1ba7cc8d7401baef3f2212cd3e44c57e6c08b1f8f2b13a8bf6c6feaac062bed7c77e73c5bfa4e8"
     "018a2e642c58de7e025ebabced7472448580b0dc73aae6d4612a7115d00b1c2f8d71030a13bc9f10c03fde318d3cfca3"},
};

static void test_known_answers(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        const group *g = &groups[kats[i].group];
        uint8_t want_c[96], want_u[192], got[192];
        aff p, q;
        unhex(want_c, kats[i].compressed);
        unhex(want_u, kats[i].uncompressed);
        g->mul_gen(&p, kats[i].k);
        g->compress(got, &p);
        TF_CHECK_MEM(got, want_c, g->n);
        g->uncompress(got, &p);
        TF_CHECK_MEM(got, want_u, 2 * g->n);
        TF_CHECK(g->decode(&q, want_c, g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->equal(&p, &q));
        TF_CHECK(g->decode(&q, want_u, 2 * g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->equal(&p, &q));
    }
    /* the generators themselves */
    uint8_t got[96], want[96];
    unhex(want, kats[0].compressed);
    cz_g1_to_compressed(got, &CZ_G1_GENERATOR);
    TF_CHECK_MEM(got, want, 48);
    unhex(want, kats[3].compressed);
    cz_g2_to_compressed(got, &CZ_G2_GENERATOR);
    TF_CHECK_MEM(got, want, 96);
}

/* Infinity: compressed 0xc0 0..., uncompressed 0x40 0... (entry 0 of the
 * same files). */
static void test_infinity(void)
{
    for (int gi = 0; gi < 2; gi++) {
        const group *g = &groups[gi];
        uint8_t buf[192], want[192] = {0};
        aff inf, q;
        memset(&inf, 0, sizeof inf);
        g->compress(buf, &inf);
        want[0] = 0xc0;
        TF_CHECK_MEM(buf, want, g->n);
        TF_CHECK(g->decode(&q, buf, g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->is_inf(&q));
        g->uncompress(buf, &inf);
        want[0] = 0x40;
        TF_CHECK_MEM(buf, want, 2 * g->n);
        memset(&q, 0xa5, sizeof q);
        TF_CHECK(g->decode(&q, buf, 2 * g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->is_inf(&q));
    }
}

static void test_round_trip(void)
{
    for (int gi = 0; gi < 2; gi++) {
        const group *g = &groups[gi];
        for (unsigned i = 0; i < iters(gi ? 30 : 100); i++) {
            uint8_t c[96], cn[96], u[192];
            aff p, np, q;
            g->random_in_group(&p);
            g->neg(&np, &p);
            g->compress(c, &p);
            g->compress(cn, &np);
            /* -P differs from P in the sort flag only */
            TF_CHECK((c[0] & 0xe0) == 0x80 || (c[0] & 0xe0) == 0xa0);
            TF_CHECK((c[0] ^ cn[0]) == 0x20 && memcmp(c + 1, cn + 1, g->n - 1) == 0);
            TF_CHECK(g->decode(&q, c, g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->equal(&p, &q));
            TF_CHECK(g->decode(&q, cn, g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->equal(&np, &q));
            TF_CHECK(g->decode(&q, c, g->n, CZ_DECODE_SKIP_SUBGROUP) == CZ_OK && g->equal(&p, &q));
            g->uncompress(u, &p);
            TF_CHECK((u[0] & 0xe0) == 0);
            TF_CHECK(memcmp(u + 1, c + 1, g->n - 1) == 0); /* x, then y */
            TF_CHECK(g->decode(&q, u, 2 * g->n, CZ_DECODE_DEFAULT) == CZ_OK && g->equal(&p, &q));
            TF_CHECK(g->decode(&q, u, 2 * g->n, CZ_DECODE_REJECT_INFINITY) == CZ_OK);
        }
    }
}

/* Big-endian p with nothing else set. */
static void put_p(uint8_t out[48])
{
    static const char *p_hex = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"
                               "1eabfffeb153ffffb9feffffffffaaab";
    unhex(out, p_hex);
}

/* r must be untouched by a failing decode. */
static int decode_keep(const group *g, const uint8_t *in, size_t len, unsigned flags)
{
    aff r, before;
    memset(&r, 0x5a, sizeof r);
    before = r;
    int err = g->decode(&r, in, len, flags);
    if (err != CZ_OK)
        TF_CHECK_MSG(memcmp(&r, &before, sizeof r) == 0, "%s: output written on error %d",
                     g->name, err);
    return err;
}

static void test_decode_errors(void)
{
    for (int gi = 0; gi < 2; gi++) {
        const group *g = &groups[gi];
        const size_t n = g->n;
        uint8_t c[96], u[192], b[200];
        aff p;
        g->random_in_group(&p);
        g->compress(c, &p);
        g->uncompress(u, &p);

        /* length */
        memset(b, 0, sizeof b);
        memcpy(b, u, 2 * n);
        const size_t bad_len[] = {0, 1, n - 1, n + 1, 2 * n - 1, 2 * n + 1, 3 * n};
        for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++)
            TF_CHECK(decode_keep(g, b, bad_len[i], 0) == CZ_ERR_BAD_LENGTH);

        /* flags: compression must match the length; sort only when compressed
         * and finite */
        memcpy(b, c, n);
        b[0] &= 0x7f;
        TF_CHECK(decode_keep(g, b, n, 0) == CZ_ERR_BAD_FLAGS);
        memcpy(b, u, 2 * n);
        b[0] |= 0x80;
        TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_BAD_FLAGS);
        memcpy(b, u, 2 * n);
        b[0] |= 0x20;
        TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_BAD_FLAGS);
        memset(b, 0, 2 * n);
        b[0] = 0xe0;
        TF_CHECK(decode_keep(g, b, n, 0) == CZ_ERR_BAD_FLAGS);
        b[0] = 0x60;
        TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_BAD_FLAGS);

        /* infinity with any other bit set */
        for (size_t len = n; len <= 2 * n; len += n) {
            uint8_t flag = len == n ? 0xc0 : 0x40;
            memset(b, 0, len);
            b[0] = flag | 0x01;
            TF_CHECK(decode_keep(g, b, len, 0) == CZ_ERR_BAD_INFINITY);
            b[0] = flag;
            b[len - 1] = 0x01;
            TF_CHECK(decode_keep(g, b, len, 0) == CZ_ERR_BAD_INFINITY);
            memcpy(b, len == n ? c : u, len); /* a real point with the flag */
            b[0] |= 0x40;
            b[0] &= (uint8_t)~0x20;
            TF_CHECK(decode_keep(g, b, len, 0) == CZ_ERR_BAD_INFINITY);
            /* infinity where it is not wanted */
            memset(b, 0, len);
            b[0] = flag;
            TF_CHECK(decode_keep(g, b, len, CZ_DECODE_REJECT_INFINITY) == CZ_ERR_IS_INFINITY);
            TF_CHECK(decode_keep(g, b, len, CZ_DECODE_SKIP_SUBGROUP | CZ_DECODE_REJECT_INFINITY) ==
                     CZ_ERR_IS_INFINITY);
        }

        /* any Fp part of a coordinate equal to p, or to 2^381 - 1 (2^384 - 1
         * below the flags) */
        for (int form = 0; form < 2; form++) {
            size_t len = form ? 2 * n : n;
            for (size_t part = 0; part < len; part += 48)
                for (int v = 0; v < 2; v++) {
                    memcpy(b, form ? u : c, len);
                    if (v == 0)
                        put_p(b + part);
                    else
                        memset(b + part, 0xff, 48);
                    if (part == 0)
                        b[0] = (uint8_t)((b[0] & 0x1f) | (form ? 0 : (c[0] & 0xe0)));
                    TF_CHECK_MSG(decode_keep(g, b, len, 0) == CZ_ERR_NOT_CANONICAL,
                                 "%s form %d part %zu v %d", g->name, form, part, v);
                }
        }

        /* compressed x with no y */
        for (unsigned i = 0; i < iters(4); i++) {
            g->random_x_without_y(b);
            b[0] |= 0x80;
            TF_CHECK(decode_keep(g, b, n, 0) == CZ_ERR_NO_SQRT);
        }

        /* off the curve: y changed, and (0, 0) without the infinity flag */
        memcpy(b, u, 2 * n);
        b[2 * n - 1] ^= 0x01;
        TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_NOT_ON_CURVE);
        TF_CHECK(decode_keep(g, b, 2 * n, CZ_DECODE_SKIP_SUBGROUP) == CZ_ERR_NOT_ON_CURVE);
        memset(b, 0, 2 * n);
        TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_NOT_ON_CURVE);

        /* on the curve, outside the subgroup: rejected unless told to skip */
        for (unsigned i = 0; i < iters(4); i++) {
            aff q, r;
            g->random_on_curve(&q);
            TF_CHECK(!g->in_subgroup(&q));
            g->compress(b, &q);
            TF_CHECK(decode_keep(g, b, n, 0) == CZ_ERR_NOT_IN_SUBGROUP);
            TF_CHECK(g->decode(&r, b, n, CZ_DECODE_SKIP_SUBGROUP) == CZ_OK && g->equal(&q, &r));
            g->uncompress(b, &q);
            TF_CHECK(decode_keep(g, b, 2 * n, 0) == CZ_ERR_NOT_IN_SUBGROUP);
            TF_CHECK(g->decode(&r, b, 2 * n, CZ_DECODE_SKIP_SUBGROUP) == CZ_OK &&
                     g->equal(&q, &r));
        }
    }
}

TF_MAIN(TF_TEST(test_known_answers), TF_TEST(test_infinity), TF_TEST(test_round_trip),
        TF_TEST(test_decode_errors))
