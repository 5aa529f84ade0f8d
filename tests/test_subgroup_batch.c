/* The batched G1 subgroup check (cz_g1_batch_in_subgroup): the tests of
 * subgroup_batch_tests_template.h on E(Fp): y^2 = x^3 + 4, cofactor
 * h = 3 11^2 10177^2 859267^2 52437899^2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "tf.h"
#include "util/clock.h"

/* Each prime q dividing the cofactor h and r h / q^e (q^e || h), in hex
 * (python3:
 *   r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 *   h=0x396c8c005555e1568c00aaab0000aaab  # 3 11^2 10177^2 859267^2 52437899^2
 *   print('%x' % (r*h//q**e)) ): [m] R lies in the q-part of the torsion. */
static const struct {
    const char *q, *m;
} TORSION[] = {
    {"3",
     "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaad95555555"
     "5558e39"},
    {"b",
     "3704612471307385e8f4b11c0f6f71e98ebcebf11641bde11e05f8de12635b461258dc05b269c8ff0a941963"
     "702343"},
    {"27c1",
     "4365bf803428bdeec60fd2e926108ec4349c3ed6101355fc141ebb62934a3754bcaa7f4893a24a99528dca02"
     "b"},
    {"d1c83",
     "26b97e14f9a9bfc6a1d68e51940e20533818e49972d05a4b963f8399f9c8df3382e9555b8e0c186760b113"},
    {"320238b",
     "2a97289d2f199a7fe442ea79eb7aa6cc575f3bb074193d880722109579598622c3f85f4e51b4a558443"},
};

#define NTORSION (sizeof TORSION / sizeof TORSION[0])

#define F            cz_fp
#define F_(op)       cz_fp_##op
#define G_(name)     cz_g1_##name
#define AFF          cz_g1_affine
#define JAC          cz_g1
#define GS_TO_AFFINE cz_g1s_to_affine
#define GEN          CZ_G1_GENERATOR
#define GNAME        "G1"
#define BATCH        cz_g1_batch_in_subgroup
#include "subgroup_batch_tests_template.h"
