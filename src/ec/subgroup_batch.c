/* Batched subgroup checks (cuzk/ec.h cz_g1_batch_in_subgroup,
 * cz_g2_batch_in_subgroup): the template subgroup_batch_template.h, once
 * per group, and the random coefficients both draw.
 *
 * E(Fp) is G1 x T1 and E'(Fp2) is G2 x T2, the torsion groups of orders
 *   h1 = 3 11^2 10177^2 859267^2 52437899^2,
 *   h2 = 13^2 23^2 2713 11953 262069 q (q a 448-bit prime)
 * (h1 = (x - 1)^2 / 3, x the curve's seed; h2 from the twist's order; both
 * prime to r, and odd, so no point has y = 0).  Write P_i = G_i + T_i.  For
 * each of ROUNDS rounds j draw c_ij uniformly from {-MAGS, ..., MAGS} (the
 * OS CSPRNG keys a ChaCha20 stream, so the key's author cannot predict
 * them) and form
 *   Q_j = sum_i c_ij P_i,
 * then check Q_j with the single-point test.  Q_j's torsion part is
 * sum_i c_ij T_i, so every Q_j passes when every T_i = 0.
 *
 * Soundness: if some T_k != 0, fix every c_ij but c_kj; the torsion part is
 * A + c_kj T_k.  T_k's order divides h and exceeds 1, so it is at least
 * h's least prime factor l (3 for G1, 13 for G2); MAGS = (l - 1) / 2 makes
 * the 2 MAGS + 1 = l values A + c T_k pairwise distinct (two of them equal
 * would need (c - c') T_k = 0 with 0 < |c - c'| < l): at most one is 0.  So
 * round j misses with probability <= 1 / l, independently of the others:
 *   G1: MAGS 1, 81 rounds, 3^-81 < 2^-128;
 *   G2: MAGS 6, 35 rounds, 13^-35 < 2^-129,
 * whatever the points (the adversary knows the algorithm, not the c_ij).
 * More values than l would not help: two points with torsion parts T and
 * -T of order l escape whenever their coefficients agree mod l, which any
 * distribution allows with probability >= 1 / l.
 *
 * Cost per point: ROUNDS 2 MAGS / (2 MAGS + 1) affine additions (G1 54,
 * G2 32.3), batched as the template describes: on the dev machine, one
 * thread, 16.3 us against 54.0 for a single check in G1 (its ~128
 * doublings), 29.4 against 54.6 in G2 (63 Jacobian doublings and 5
 * additions over Fp2; tests/test_subgroup_batch*.c test_speed).  Blocks
 * run in parallel on the pool.  Variable time: the points are public. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/chacha.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/rand.h"
#include "ff/tower.h"

/* A block's coefficient codes: ChaCha20 keyed by the call's key, the block
 * index as the nonce, `bits` bits at a time, values >= lim rejected, so each
 * code is uniform in [0, lim). */
typedef struct {
    uint32_t in[16], out[16];
    unsigned word, bits;
    uint64_t ctr;
} digits;

static void digits_init(digits *d, const uint8_t key[32], uint64_t block)
{
    memset(d, 0, sizeof *d);
    cz_chacha_setup(d->in, key);
    d->in[14] = (uint32_t)block;
    d->in[15] = (uint32_t)(block >> 32);
    d->word = 16;
}

static unsigned digit(digits *d, unsigned bits, unsigned lim)
{
    for (;;) {
        if (d->bits == 0) {
            if (d->word == 16) {
                d->in[12] = (uint32_t)d->ctr;
                d->in[13] = (uint32_t)(d->ctr >> 32);
                d->ctr++;
                cz_chacha_block(d->out, d->in, 20);
                d->word = 0;
            }
            d->bits = 32;
            d->word++;
        }
        unsigned v = (d->out[d->word - 1] >> (32 - d->bits)) & ((1u << bits) - 1);
        d->bits -= bits;
        if (v < lim)
            return v;
    }
}

#define F           cz_fp
#define F_(op)      cz_fp_##op
#define G_(name)    cz_g1_##name
#define B_(name)    g1_batch_##name
#define AFF         cz_g1_affine
#define JAC         cz_g1
#define ROUNDS      81  /* 3^-81 < 2^-128 */
#define MAGS        1
#define DIGIT_BITS  2
#define BLOCK       256 /* 81 lists of ~170 points: ~2 MB */
#define BATCH       cz_g1_batch_in_subgroup
#include "ec/subgroup_batch_template.h"
#undef F
#undef F_
#undef G_
#undef B_
#undef AFF
#undef JAC
#undef ROUNDS
#undef MAGS
#undef DIGIT_BITS
#undef BLOCK
#undef BATCH

/* The inline Fp2 arithmetic of tower.h where it has it. */
#define g2f_add       fp2_add
#define g2f_sub       fp2_sub
#define g2f_dbl       fp2_dbl
#define g2f_neg       fp2_neg
#define g2f_mul       fp2_mul
#define g2f_sqr       fp2_sqr
#define g2f_equal     cz_fp2_equal
#define g2f_is_zero   cz_fp2_is_zero
#define g2f_batch_inv cz_fp2_batch_inv

#define F           cz_fp2
#define F_(op)      g2f_##op
#define G_(name)    cz_g2_##name
#define B_(name)    g2_batch_##name
#define AFF         cz_g2_affine
#define JAC         cz_g2
#define ROUNDS      35  /* 13^-35 < 2^-129 */
#define MAGS        6
#define DIGIT_BITS  4
#define BLOCK       512 /* 210 lists of ~79 points: ~3 MB */
#define BATCH       cz_g2_batch_in_subgroup
#include "ec/subgroup_batch_template.h"
