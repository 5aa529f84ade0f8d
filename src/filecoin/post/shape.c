/* FallbackPoSt shapes, registered PoSt proofs and parameter file names
 * (cuzk/filecoin/post.h), from rust-fil-proofs @87348a7 and
 * rust-filecoin-proofs-api @0e64ce8 (docs/post.md sections 2 and 6):
 *   filecoin-proofs constants.rs     WINDOW_POST_SECTOR_COUNT, the
 *                                    challenge counts, the SectorShapes
 *   filecoin-proofs parameters.rs    winning_post_setup_params (66 x 1)
 *   storage-proofs-post fallback/vanilla.rs   PublicParams::identifier
 *   storage-proofs-post fallback/compound.rs  cache_prefix
 *   filecoin-proofs-api registry.rs  RegisteredPoStProof, version
 *   go-state-types abi               the numbers Curio sends. */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"

static unsigned window_sectors(const cz_fc_shape *sector)
{
    return sector->id == CZ_FC_32GIB ? 2349 : sector->id == CZ_FC_64GIB ? 2300 : 2;
}

int cz_post_shape_of(cz_post_shape *s, cz_post_kind kind, const cz_fc_shape *sector)
{
    if (s == NULL || sector == NULL || (kind != CZ_POST_WINDOW && kind != CZ_POST_WINNING))
        return CZ_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->tree = *sector;
    if (kind == CZ_POST_WINDOW) {
        s->sector_count = window_sectors(sector);
        s->challenge_count = CZ_POST_WINDOW_CHALLENGES;
    } else {
        s->sector_count = CZ_POST_WINNING_CHALLENGES; /* 66 sectors of one challenge */
        s->challenge_count = 1;
    }
    return CZ_OK;
}

int cz_post_shape_test(cz_post_shape *s, const char *name, unsigned sector_count,
                       unsigned challenge_count)
{
    /* the tests' trees: 8-0-0 of 64 leaves, 8-4-0 of 256, 8-4-2 of 512 */
    static const struct {
        const char *name;
        unsigned log_leaves, base_levels, sub, top;
    } T[] = {{"test-base-8", 6, 2, 0, 0}, {"test-sub-8-4", 8, 2, 4, 0},
             {"test-top-8-4-2", 9, 2, 4, 2}};
    if (s == NULL || name == NULL || sector_count == 0 || challenge_count == 0)
        return CZ_ERR_INVALID_ARG;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        if (strcmp(name, T[i].name) != 0)
            continue;
        memset(s, 0, sizeof *s);
        s->kind = CZ_POST_WINDOW;
        s->tree.id = CZ_FC__SHAPES; /* none of the sector sizes */
        s->tree.name = T[i].name;
        s->tree.log_nodes = T[i].log_leaves;
        s->tree.sector_size = (uint64_t)32 << T[i].log_leaves;
        s->tree.base_levels = T[i].base_levels;
        s->tree.sub_arity = T[i].sub;
        s->tree.top_arity = T[i].top;
        s->sector_count = sector_count;
        s->challenge_count = challenge_count;
        return CZ_OK;
    }
    return CZ_ERR_INVALID_ARG;
}

unsigned cz_post_max_blobs(const cz_post_shape *s)
{
    return s->kind == CZ_POST_WINNING ? 1 : s->sector_count;
}

unsigned cz_post_blob_challenges(const cz_post_shape *s)
{
    return s->kind == CZ_POST_WINNING ? s->sector_count * s->challenge_count : s->challenge_count;
}

#define W(size, ID, id)                                                                            \
    {"StackedDrgWinning" #size "V1", id, CZ_POST_WINNING, CZ_FC_##ID, CZ_FC_API_1_0}
#define D(size, ID, id)                                                                            \
    {"StackedDrgWindow" #size "V1", id, CZ_POST_WINDOW, CZ_FC_##ID, CZ_FC_API_1_0}
#define E(size, ID, id)                                                                            \
    {"StackedDrgWindow" #size "V1_1", id, CZ_POST_WINDOW, CZ_FC_##ID, CZ_FC_API_1_2}
static const cz_post_proof_type TYPES[] = {
    W(2KiB, 2KIB, 0),   W(8MiB, 8MIB, 1),   W(512MiB, 512MIB, 2),   W(32GiB, 32GIB, 3),
    W(64GiB, 64GIB, 4), D(2KiB, 2KIB, 5),   D(8MiB, 8MIB, 6),       D(512MiB, 512MIB, 7),
    D(32GiB, 32GIB, 8), D(64GiB, 64GIB, 9), E(2KiB, 2KIB, 10),      E(8MiB, 8MIB, 11),
    E(512MiB, 512MIB, 12), E(32GiB, 32GIB, 13), E(64GiB, 64GIB, 14),
};
#undef W
#undef D
#undef E

const cz_post_proof_type *cz_post_proof_by_id(uint64_t id)
{
    return id < sizeof TYPES / sizeof TYPES[0] ? &TYPES[id] : NULL;
}

void cz_post_params_name(char out[CZ_FC_PARAMS_NAME], const cz_post_shape *s)
{
    char id[128];
    snprintf(id, sizeof id,
             "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: "
             "%u}",
             (unsigned long long)s->tree.sector_size, s->challenge_count, s->sector_count);
    cz_fc_params_name(out, "proof-of-spacetime-fallback", s->tree.sub_arity, s->tree.top_arity,
                      NULL, id);
}
