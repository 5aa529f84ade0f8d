/* G2: the order-r subgroup of the sextic twist E'(Fp2): y^2 = x^3 + 4(u + 1). */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"

#define FP_ONE_LIMBS                                                                           \
    {                                                                                          \
        0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,                   \
            0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL                \
    }
#define FP_FOUR_LIMBS                                                                          \
    {                                                                                          \
        0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,                   \
            0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL                \
    }

static const cz_fp2 fp2_one = {{FP_ONE_LIMBS}, {{0}}};
static const cz_fp2 fp2_b = {{FP_FOUR_LIMBS}, {FP_FOUR_LIMBS}}; /* 4 + 4u */

/* r = 3b a = 12 (u + 1) a: the non-residue product (two additions), then
 * 2, 3, 6, 12 times. */
static void fp2_mul_b3(cz_fp2 *r, const cz_fp2 *a)
{
    cz_fp2 t, s;
    cz_fp2_mul_by_nonresidue(&s, a);
    cz_fp2_dbl(&t, &s);
    cz_fp2_add(&t, &t, &s);
    cz_fp2_dbl(&t, &t);
    cz_fp2_dbl(r, &t);
}

/* c1 then c0, each 48 bytes big-endian. */
static void fp2_to_be(uint8_t out[96], const cz_fp2 *a)
{
    cz_fp_to_bytes_be(out, &a->c1);
    cz_fp_to_bytes_be(out + 48, &a->c0);
}

static int fp2_from_be(cz_fp2 *r, const uint8_t in[96])
{
    cz_fp2 t;
    if (cz_fp_from_bytes_be(&t.c1, in) != CZ_OK || cz_fp_from_bytes_be(&t.c0, in + 48) != CZ_OK)
        return CZ_ERR_NOT_CANONICAL;
    *r = t;
    return CZ_OK;
}

#define F cz_fp2
#define F_(op) cz_fp2_##op
#define F_ONE fp2_one
#define F_B fp2_b
#define F_mul_b3 fp2_mul_b3
#define F_BYTES 96
#define F_to_be fp2_to_be
#define F_from_be fp2_from_be
#define G_(name) cz_g2_##name
#define GS_TO_AFFINE cz_g2s_to_affine
#define AFF cz_g2_affine
#define JAC cz_g2
#define XYZZ cz_g2_xyzz
#include "ec/ec_template.h"

/* The standard generator (zcash / zkcrypto bls12_381), in Montgomery form:
 *   x = 0x024aa2b2...c121bdb8 + 0x13e02b60...5d042b7e u
 *   y = 0x0ce5d527...08b82801 + 0x0606c4a0...f05f79be u */
const cz_g2_affine CZ_G2_GENERATOR = {
    {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL, 0x9894999d1a3caee9ULL,
       0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
     {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL, 0x1b1ab6cc8541b367ULL,
       0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
    {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL, 0xbbefb5e96e0d495fULL,
       0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
     {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL, 0x79495c4ec93da33aULL,
       0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}},
};

/* psi = untwist o Frobenius o twist:
 *   psi(x, y) = (conj(x) cx, conj(y) cy),
 *   cx = 1 / (u + 1)^((p - 1)/3),  cy = 1 / (u + 1)^((p - 1)/2),
 * and in Jacobian coordinates (conj(X) cx, conj(Y) cy, conj(Z)).  Scott
 * (ePrint 2021/1130) shows that a point P of E'(Fp2) lies in G2
 * iff psi(P) == [x] P; x < 0, so [x] P = -[|x|] P: 63 doublings and 5
 * additions. */
bool cz_g2_in_subgroup(const cz_g2 *p)
{
    static const cz_fp2 cx = {
        {{0}},
        {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
          0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}};
    static const cz_fp2 cy = {
        {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
        {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};
    cz_g2 t, s;
    mul_abs_x(&t, p);
    cz_g2_neg(&t, &t);
    cz_fp2_conj(&s.x, &p->x);
    cz_fp2_mul(&s.x, &s.x, &cx);
    cz_fp2_conj(&s.y, &p->y);
    cz_fp2_mul(&s.y, &s.y, &cy);
    cz_fp2_conj(&s.z, &p->z);
    return cz_g2_equal(&s, &t);
}
