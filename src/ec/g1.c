/* G1: the order-r subgroup of E(Fp): y^2 = x^3 + 4. */
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"

/* 4 in Montgomery form. */
static const cz_fp fp_b = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                            0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

/* r = 3b a = 12 a: 2a, 3a, 6a, 12a. */
static void fp_mul_b3(cz_fp *r, const cz_fp *a)
{
    cz_fp t;
    cz_fp_dbl(&t, a);
    cz_fp_add(&t, &t, a);
    cz_fp_dbl(&t, &t);
    cz_fp_dbl(r, &t);
}

#define F cz_fp
#define F_(op) cz_fp_##op
#define F_ONE CZ_FP_ONE
#define F_B fp_b
#define F_mul_b3 fp_mul_b3
#define F_BYTES 48
#define F_to_be cz_fp_to_bytes_be
#define F_from_be cz_fp_from_bytes_be
#define G_(name) cz_g1_##name
#define GS_TO_AFFINE cz_g1s_to_affine
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#include "ec/ec_template.h"

/* The standard generator (zcash / zkcrypto bls12_381), x and y in
 * Montgomery form:
 *   x = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac58
 *         6c55e83ff97a1aeffb3af00adb22c6bb
 *   y = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3ed
 *         d03cc744a2888ae40caa232946c5e7e1 */
const cz_g1_affine CZ_G1_GENERATOR = {
    {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
      0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, 0x51ac582950405194ULL,
      0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}},
};

/* Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (ePrint 2021/1130, section 6; proof completed in
 * 2022/352): with sigma(x, y) = (beta x, y), beta the cube root of unity
 *   beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a0002
 *            2e01fffffffefffe
 * for which sigma acts on G1 as [-x^2] (the other root gives [x^2 - 1]),
 * a point P of E(Fp) lies in G1 iff sigma(P) == [-x^2] P.  x^2 > 0, so
 * [-x^2] P = -[|x|]([|x|] P): 126 doublings and 10 additions. */
bool cz_g1_in_subgroup(const cz_g1 *p)
{
    static const cz_fp beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
    cz_g1 t, s;
    mul_abs_x(&t, p);
    mul_abs_x(&t, &t);
    cz_g1_neg(&t, &t);
    cz_fp_mul(&s.x, &p->x, &beta); /* sigma in Jacobian coordinates */
    s.y = p->y;
    s.z = p->z;
    return cz_g1_equal(&s, &t);
}
