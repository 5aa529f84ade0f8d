/* Sector shapes and registered seal proofs (see cuzk/filecoin/core.h):
 * filecoin-proofs constants.rs (layers, partitions, minimum challenges:
 * 2 / 176 interactive and synthetic, 26 / 2253 non-interactive, divided
 * over the partitions and rounded up), rust-filecoin-proofs-api
 * registry.rs (names, numbers, API versions and features). */
#include <stdio.h>
#include <string.h>

#include "cuzk/filecoin/core.h"

static const cz_fc_shape SHAPES[CZ_FC__SHAPES] = {
    {CZ_FC_2KIB, "2KiB", "StackedDrg2KiBV1", 2048ull, 6, 2, 1, 2, 13, 2, 0, 0},
    {CZ_FC_8MIB, "8MiB", "StackedDrg8MiBV1", 8ull << 20, 18, 2, 1, 2, 13, 6, 0, 0},
    {CZ_FC_512MIB, "512MiB", "StackedDrg512MiBV1", 512ull << 20, 24, 2, 1, 2, 13, 8, 0, 0},
    {CZ_FC_32GIB, "32GiB", "StackedDrg32GiBV1", 32ull << 30, 30, 11, 10, 18, 126, 9, 8, 0},
    {CZ_FC_64GIB, "64GiB", "StackedDrg64GiBV1", 64ull << 30, 31, 11, 10, 18, 126, 9, 8, 2},
};

/* The registered proofs, in the enum's (and the numbers') order; the
 * partitions are the shape's (non-interactive: its ni_partitions). */
#define I CZ_FC_INTERACTIVE
#define S CZ_FC_SYNTHETIC
#define N CZ_FC_NI
static const cz_fc_proof_type TYPES[] = {
    {"StackedDrg2KiBV1", 0, &SHAPES[CZ_FC_2KIB], CZ_FC_API_1_0, I, 1},
    {"StackedDrg8MiBV1", 1, &SHAPES[CZ_FC_8MIB], CZ_FC_API_1_0, I, 1},
    {"StackedDrg512MiBV1", 2, &SHAPES[CZ_FC_512MIB], CZ_FC_API_1_0, I, 1},
    {"StackedDrg32GiBV1", 3, &SHAPES[CZ_FC_32GIB], CZ_FC_API_1_0, I, 10},
    {"StackedDrg64GiBV1", 4, &SHAPES[CZ_FC_64GIB], CZ_FC_API_1_0, I, 10},
    {"StackedDrg2KiBV1_1", 5, &SHAPES[CZ_FC_2KIB], CZ_FC_API_1_1, I, 1},
    {"StackedDrg8MiBV1_1", 6, &SHAPES[CZ_FC_8MIB], CZ_FC_API_1_1, I, 1},
    {"StackedDrg512MiBV1_1", 7, &SHAPES[CZ_FC_512MIB], CZ_FC_API_1_1, I, 1},
    {"StackedDrg32GiBV1_1", 8, &SHAPES[CZ_FC_32GIB], CZ_FC_API_1_1, I, 10},
    {"StackedDrg64GiBV1_1", 9, &SHAPES[CZ_FC_64GIB], CZ_FC_API_1_1, I, 10},
    /* the synthetic feature came with API 1.2; its published names say 1_1 */
    {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 10, &SHAPES[CZ_FC_2KIB], CZ_FC_API_1_2, S, 1},
    {"StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 11, &SHAPES[CZ_FC_8MIB], CZ_FC_API_1_2, S, 1},
    {"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 12, &SHAPES[CZ_FC_512MIB], CZ_FC_API_1_2, S, 1},
    {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 13, &SHAPES[CZ_FC_32GIB], CZ_FC_API_1_2, S, 10},
    {"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 14, &SHAPES[CZ_FC_64GIB], CZ_FC_API_1_2, S, 10},
    {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 15, &SHAPES[CZ_FC_2KIB], CZ_FC_API_1_2, N, 13},
    {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 16, &SHAPES[CZ_FC_8MIB], CZ_FC_API_1_2, N, 13},
    {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 17, &SHAPES[CZ_FC_512MIB], CZ_FC_API_1_2, N,
     13},
    {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 18, &SHAPES[CZ_FC_32GIB], CZ_FC_API_1_2, N,
     126},
    {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 19, &SHAPES[CZ_FC_64GIB], CZ_FC_API_1_2, N,
     126},
};
#undef I
#undef S
#undef N
#define N_PROOFS (sizeof TYPES / sizeof TYPES[0])

const cz_fc_shape *cz_fc_shape_get(cz_fc_shape_id id)
{
    return (unsigned)id < CZ_FC__SHAPES ? &SHAPES[id] : NULL;
}

const cz_fc_shape *cz_fc_shape_by_size(uint64_t sector_size)
{
    for (int i = 0; i < CZ_FC__SHAPES; i++)
        if (SHAPES[i].sector_size == sector_size)
            return &SHAPES[i];
    return NULL;
}

const cz_fc_shape *cz_fc_shape_by_name(const char *name)
{
    for (int i = 0; name && i < CZ_FC__SHAPES; i++)
        if (strcmp(SHAPES[i].name, name) == 0)
            return &SHAPES[i];
    return NULL;
}

const cz_fc_proof_type *cz_fc_proof_by_name(const char *name)
{
    for (size_t i = 0; name && i < N_PROOFS; i++)
        if (strcmp(TYPES[i].name, name) == 0)
            return &TYPES[i];
    return NULL;
}

const cz_fc_proof_type *cz_fc_proof_by_id(uint64_t id)
{
    return id < N_PROOFS ? &TYPES[id] : NULL;
}

const cz_fc_proof_type *cz_fc_proof_default(const cz_fc_shape *s)
{
    return s ? &TYPES[5 + (size_t)s->id] : NULL; /* StackedDrg<size>V1_1 */
}

void cz_fc_porep_id(uint8_t out[32], const cz_fc_proof_type *t)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(t->id >> (8 * i)); /* the nonce (bytes 8..15) is 0 for every proof */
}

int cz_fc_api_parse(const char *s)
{
    static const char *const n[] = {"1.0", "1.1", "1.2"};
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, n[i]) == 0)
            return i;
    return -1;
}

const char *cz_fc_api_name(cz_fc_api a)
{
    static const char *const n[] = {"1.0", "1.1", "1.2"};
    return (unsigned)a < 3 ? n[a] : NULL;
}
