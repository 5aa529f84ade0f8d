/* Witness-only synthesis of the FallbackPoSt circuit, sector by sector in
 * parallel (cuzk/filecoin/post.h cz_post_witness).
 *
 * The circuit's shape does not depend on its values and its sectors share
 * nothing but ONE (circuit.c), so it is alike parts without a header
 * (cuzk/cs.h cz_cs_parts): sector i owns inputs [1 + i (1 + C),
 * 1 + (i + 1)(1 + C)) and aux [i A, (i + 1) A), C the challenges per
 * sector and A a sector's auxiliaries, and runs in a witness-only cs over
 * its own slices.  This is what bellperson's synthesize_extendable does
 * with its per-chunk constraint systems, and the result is the sequential
 * assignment (docs/post.md 1.3).  A 32GiB WindowPoSt partition is 2,349
 * sectors of 53,333 constraints.
 *
 * Each inclusion path's computed root is compared with its sector's
 * comm_r_last: those are the vanilla verifier's path hashes, which the
 * engine therefore leaves out at admission (cz_post_vanilla_check), so a
 * partition's Poseidon hashes are computed once (8.5 s of a 32GiB
 * partition's CPU time on one dev core, BENCHMARKS.md). */
#include <limits.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "filecoin/post/circuit.h"

typedef struct {
    const cz_post_shape *s;
    const cz_post_circuit_sector *sec; /* NULL: the blank circuit */
    unsigned *bad_ch;                  /* per sector: with CZ_ERR_BAD_PROOF, the path */
} wit;

/* The first of sec's paths whose computed root (roots) is not its
 * comm_r_last, or UINT_MAX. */
static unsigned bad_root(const cz_post_circuit_sector *sec, const cz_fr *roots, unsigned n)
{
    cz_fr want;
    if (cz_fc_d_to_fr(&want, &sec->comm_r_last) != CZ_OK)
        return 0; /* cannot happen: the reader checked it canonical */
    for (unsigned c = 0; c < n; c++)
        if (!cz_fr_equal(&roots[c], &want))
            return c;
    return UINT_MAX;
}

/* Sector i, its roots (scratch) checked. */
static int sector(void *ctx, cz_cs *cs, size_t i, unsigned seg, void *roots)
{
    (void)seg;
    wit *j = ctx;
    if (j->sec == NULL)
        return cz_post_sector_synth(cs, j->s, NULL, 0, NULL);
    int rc = cz_post_sector_synth(cs, j->s, &j->sec[i], (unsigned)i, roots);
    if (rc == CZ_OK &&
        (j->bad_ch[i] = bad_root(&j->sec[i], roots, j->s->challenge_count)) != UINT_MAX)
        rc = CZ_ERR_BAD_PROOF;
    return rc;
}

/* The circuit of s as parts, and its counts (measured once per tree
 * shape and challenge count: the sector count only multiplies them); with
 * n_in, its sizes too. */
static int parts_of(const cz_post_shape *s, cz_cs_parts *p, cz_cs_parts_counts *c, size_t *n_in,
                    size_t *n_aux)
{
    static cz_cs_parts_cache cache = CZ_CS_PARTS_CACHE_INIT;
    *p = (cz_cs_parts){.segment = sector,
                       .scratch = s->challenge_count * sizeof(cz_fr),
                       .n_seg = 1,
                       .what = "PoSt witness",
                       .part = "sector"};
    const uint64_t key[CZ_CS_PARTS_KEY] = {s->tree.log_nodes, s->tree.base_levels,
                                           s->tree.sub_arity, s->tree.top_arity,
                                           s->challenge_count};
    wit blank = {.s = s};
    int rc = cz_cs_parts_counts_get(&cache, key, p, &blank, c);
    if (rc == CZ_OK && n_in)
        cz_cs_parts_size(p, c, s->sector_count, n_in, n_aux);
    return rc;
}

int cz_post_counts(const cz_post_shape *s, size_t *n_inputs, size_t *n_aux)
{
    if (cz_post_shape_check(s, NULL, 0) != CZ_OK || n_inputs == NULL || n_aux == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_cs_parts p;
    cz_cs_parts_counts c;
    return parts_of(s, &p, &c, n_inputs, n_aux);
}

int cz_post_witness(cz_fr *w, size_t w_len, const cz_post_shape *s,
                    const cz_post_circuit_sector *sec, cz_pool *pool, cz_post_bad_path *bad,
                    char *err, size_t errlen)
{
    if (w == NULL || sec == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "PoSt witness: NULL argument");
    int rc = cz_post_shape_check(s, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_cs_parts p;
    cz_cs_parts_counts c;
    if ((rc = parts_of(s, &p, &c, NULL, NULL)) != CZ_OK)
        return cz_fail(err, errlen, rc, "PoSt witness: %s", cz_strerror(rc));
    wit j = {.s = s, .sec = sec, .bad_ch = malloc(s->sector_count * sizeof *j.bad_ch)};
    if (j.bad_ch == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "PoSt witness: out of memory");
    cz_cs_parts_at at = {CZ_CS_PARTS_HEADER, 0};
    rc = cz_cs_parts_run(&p, &c, s->sector_count, &j, w, w_len, pool, &at, err, errlen);
    if (rc == CZ_ERR_BAD_PROOF) {
        cz_msgf(err, errlen,
                "PoSt witness: sector %zu: inclusion proof %u does not hash up to comm_r_last",
                at.part, j.bad_ch[at.part]);
        if (bad)
            *bad = (cz_post_bad_path){(unsigned)at.part, j.bad_ch[at.part]};
    } else if (rc == CZ_ERR_INVALID_ARG && at.part != CZ_CS_PARTS_HEADER) {
        cz_msgf(err, errlen,
                "PoSt witness: sector %zu: %s (an inclusion path not of the tree's "
                "shape)",
                at.part, cz_strerror(rc));
    }
    free(j.bad_ch);
    return rc;
}
