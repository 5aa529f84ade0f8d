/* The batched G2 subgroup check (cz_g2_batch_in_subgroup): the tests of
 * subgroup_batch_tests_template.h on the twist E'(Fp2): y^2 = x^3 +
 * 4(u + 1), cofactor h = 13^2 23^2 2713 11953 262069 q, q a 448-bit prime
 * (the torsion of order q as well: a point the small orders miss). */
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
 *   h=0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa
 *     628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5
 *   print('%x' % (r*h//q**e)) ): [m] R lies in the q-part of the torsion.
 * The last q is the 448-bit prime. */
static const struct {
    const char *q, *m;
} TORSION[] = {
    {"d",
     "4005449cda731a7136c440a0c65b728ba1c1fa6b6708356f3b9bdc84396cab33907d71557a7d33677f5d45f7"
     "cedb8cfdac10ff1fc5b48d6461e907737d78e96568f2d18c750b4b3ca5c33c3fd8ff8a70629888281914529f"
     "4e3380941cfdd"},
    {"17",
     "1473e413236dd889cb5381880d0a576821c578a6e8c7952f26668aaed6d2623f6a2afa96b5e43f5d126da598"
     "b99dbb518655c33a8b236b990d5fbd2d9b42b21fe9e0346d3c23104b06fb96e09de2555c861790a3cc012b55"
     "40aa5804bb595"},
    {"a99",
     "3fcee61e74c25c987842842a1a26de4d74f74f14543213da8777344b8bfcf67fd34a2a90a45b3170df91252e"
     "784da8bcaa5cfea7bc15ce204c72df226dc50975962d2d53a875b1ef426ad51a2cbb2185cf414efe8a6ae0d5"
     "20ee8ae8bc2d"},
    {"2eb1",
     "e7b91d864fd7d4c0c79957105c92b89ec85bf8e8a7d594110346483f17da69c7cf3a9d7278d9937c64966acc"
     "866446ec1db5dcd51748de61764329a3e70094768767f1e6cc339643949c93915d33844c5ab2047701878fab"
     "9632ed78275"},
    {"3ffb5",
     "a91a4bdb3f26d1ead4914c4ce26b0fd01fa28a6b3f6c924d7093911c08709252e11d3c29df83baa337c6a28e"
     "c630c4603c694e666410999452285c21b6cb6bb5ecb4478b228299bce84d8ec6ce12616966d30f7f44cbf41c"
     "cb9be93271"},
    {"8d9f503deeeb5d5c423572788bea4d6ae0490c5afca1eeb2a9d75bb98b95878afab9c0da5cf222c377d87384"
     "d026cd73826d177200c0d3b1",
     "4c658e1d2a19cb91a3a9afea1c3245a3111bcf284ae2370fdb442fbe4bc7f9dc256f97848344975"},
};

#define NTORSION (sizeof TORSION / sizeof TORSION[0])

#define F            cz_fp2
#define F_(op)       cz_fp2_##op
#define G_(name)     cz_g2_##name
#define AFF          cz_g2_affine
#define JAC          cz_g2
#define GS_TO_AFFINE cz_g2s_to_affine
#define GEN          CZ_G2_GENERATOR
#define GNAME        "G2"
#define BATCH        cz_g2_batch_in_subgroup
#include "subgroup_batch_tests_template.h"
