/* The EmptySectorUpdate (SnapDeals) circuit's shape per sector size
 * (include/cuzk/filecoin/snap.h; storage-proofs-update constants.rs:
 * partition_count, challenge_count, hs, apex_leaf_count and the TreeR
 * arities its validate_tree_r_shape expects), and its parameter files
 * (vanilla.rs PublicParams::identifier, compound.rs
 * EmptySectorUpdateCompound::cache_prefix). */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"

#define KIB_NODES(k) ((uint64_t)(k) << 5) /* 1 KiB = 32 nodes */

/* TreeR arities by sector size, the source's table (base, sub, top). */
static const struct {
    uint64_t nodes;
    unsigned sub, top;
} tree_r[] = {
    {KIB_NODES(1), 4, 0},           {KIB_NODES(2), 0, 0},        {KIB_NODES(4), 2, 0},
    {KIB_NODES(8), 4, 0},           {KIB_NODES(16), 8, 0},       {KIB_NODES(32), 8, 2},
    {KIB_NODES(8 << 10), 0, 0},     {KIB_NODES(16 << 10), 2, 0}, {KIB_NODES(512 << 10), 0, 0},
    {KIB_NODES(32u << 20), 8, 0},   {KIB_NODES(64u << 20), 8, 2},
};

static unsigned log2u(uint64_t x)
{
    unsigned l = 0;
    while (((uint64_t)1 << (l + 1)) <= x)
        l++;
    return l;
}

int cz_fc_snap_shape_of(cz_fc_snap_shape *s, uint64_t sector_nodes)
{
    if (s == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    size_t i = 0, n = sizeof tree_r / sizeof tree_r[0];
    while (i < n && tree_r[i].nodes != sector_nodes)
        i++;
    if (i == n)
        return CZ_ERR_INVALID_ARG;
    s->sector_nodes = sector_nodes;
    s->node_bits = log2u(sector_nodes);
    s->partitions = sector_nodes <= KIB_NODES(8)          ? 1
                    : sector_nodes <= KIB_NODES(32)       ? 2
                    : sector_nodes <= KIB_NODES(16 << 10) ? 4
                                                          : 16;
    s->partition_bits = log2u(s->partitions);
    s->challenges = sector_nodes <= KIB_NODES(16 << 10) ? 10 : 86;
    for (unsigned j = 0; j < 6; j++)
        s->hs[j] = sector_nodes <= KIB_NODES(32) ? 1 : 7 + j;
    s->h = s->hs[3];
    s->apex_leaves = sector_nodes <= KIB_NODES(8) ? 8 : 128;
    s->apex_bits = log2u(s->apex_leaves);
    s->tree_r[0] = 8;
    s->tree_r[1] = tree_r[i].sub;
    s->tree_r[2] = tree_r[i].top;
    s->random_bits = s->node_bits - s->partition_bits;
    s->per_digest = 254 / s->random_bits; /* Fr::CAPACITY */
    s->digests = (s->challenges + s->per_digest - 1) / s->per_digest;
    return CZ_OK;
}

uint64_t cz_fc_snap_h_select(const cz_fc_snap_shape *s, unsigned h)
{
    for (unsigned j = 0; j < 6; j++)
        if (s->hs[j] == h)
            return (uint64_t)1 << j;
    return 0;
}

uint64_t cz_fc_snap_k_and_h(const cz_fc_snap_shape *s, unsigned k, unsigned h)
{
    return (uint64_t)k | cz_fc_snap_h_select(s, h) << s->partition_bits;
}

const cz_fc_shape *cz_fc_snap_proof_shape(uint64_t registered_update_proof)
{
    /* StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, in cz_fc_shape_id order */
    return registered_update_proof < CZ_FC__SHAPES
               ? cz_fc_shape_get((cz_fc_shape_id)registered_update_proof)
               : NULL;
}

void cz_fc_snap_params_name(char out[CZ_FC_PARAMS_NAME], const cz_fc_snap_shape *u)
{
    char id[96];
    snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
             (unsigned long long)u->sector_nodes);
    cz_fc_params_name(out, "empty-sector-update", u->tree_r[1], u->tree_r[2], NULL, id);
}
