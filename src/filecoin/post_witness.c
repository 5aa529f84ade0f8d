/* Witness-only synthesis of the FallbackPoSt circuit, sector by sector in
 * parallel (cuzk/post.h cz_post_witness).
 *
 * The circuit's shape does not depend on its values and its sectors share
 * nothing but ONE (post_circuit.c), so sector i owns inputs
 * [1 + i (1 + C), 1 + (i + 1)(1 + C)) and aux [i A, (i + 1) A), C the
 * challenges per sector and A a sector's auxiliaries: each sector runs in
 * a witness-only cs over its own slices (cz_cs_new_witness_at).  This is
 * what bellperson's synthesize_extendable does with its per-chunk
 * constraint systems, and the result is the sequential assignment
 * (docs/post.md 1.3).  A 32GiB WindowPoSt partition is 2,349 sectors of
 * 53,333 constraints.
 *
 * Each inclusion path's computed root is compared with its sector's
 * comm_r_last: those are the vanilla verifier's path hashes, which the
 * engine therefore leaves out at admission (cz_post_vanilla_check), so a
 * partition's Poseidon hashes are computed once (8.5 s of a 32GiB
 * partition's CPU time on one dev core, BENCHMARKS.md). */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/post.h"
#include "filecoin/post_circuit.h"

/* Per-sector counts, by tree shape and challenges (the sector count only
 * multiplies them). */
typedef struct {
    unsigned log_nodes, base_levels, sub, top, challenges;
    size_t in, aux; /* one sector's */
} counts;

#define N_CACHED 16
static counts cache[N_CACHED];
static size_t n_cache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

static bool same(const counts *c, const cz_post_shape *s)
{
    return c->log_nodes == s->tree.log_nodes && c->base_levels == s->tree.base_levels &&
           c->sub == s->tree.sub_arity && c->top == s->tree.top_arity &&
           c->challenges == s->challenge_count;
}

static int measure(const cz_post_shape *s, counts *c)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc != CZ_OK)
        return rc;
    rc = cz_post_sector_synth(cs, s, NULL, 0, NULL);
    *c = (counts){s->tree.log_nodes, s->tree.base_levels, s->tree.sub_arity, s->tree.top_arity,
                  s->challenge_count, cz_cs_num_inputs(cs) - 1, cz_cs_num_aux(cs)};
    if (rc == CZ_OK && c->in != 1 + (size_t)s->challenge_count)
        rc = CZ_ERR_INVALID_ARG; /* cannot happen: comm_r and one per challenge */
    cz_cs_free(cs);
    return rc;
}

static int get_counts(const cz_post_shape *s, counts *out)
{
    pthread_mutex_lock(&cache_mu);
    for (size_t i = 0; i < n_cache; i++)
        if (same(&cache[i], s)) {
            *out = cache[i];
            pthread_mutex_unlock(&cache_mu);
            return CZ_OK;
        }
    pthread_mutex_unlock(&cache_mu);
    int rc = measure(s, out);
    if (rc != CZ_OK)
        return rc;
    pthread_mutex_lock(&cache_mu);
    if (n_cache < N_CACHED)
        cache[n_cache++] = *out;
    pthread_mutex_unlock(&cache_mu);
    return CZ_OK;
}

int cz_post_counts(const cz_post_shape *s, size_t *n_inputs, size_t *n_aux)
{
    if (cz_post_shape_check(s, NULL, 0) != CZ_OK || n_inputs == NULL || n_aux == NULL)
        return CZ_ERR_INVALID_ARG;
    counts c;
    int rc = get_counts(s, &c);
    if (rc != CZ_OK)
        return rc;
    *n_inputs = 1 + (size_t)s->sector_count * c.in;
    *n_aux = (size_t)s->sector_count * c.aux;
    return CZ_OK;
}

typedef struct {
    const cz_post_shape *s;
    const cz_post_circuit_sector *sec;
    counts c;
    cz_fr *w;
    size_t n_in;
    int *rc;          /* per sector */
    unsigned *bad_ch; /* per sector: with rc CZ_ERR_BAD_PROOF, the path */
} job;

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

static void run_sectors(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    cz_fr *roots = malloc(j->c.challenges * sizeof *roots);
    for (size_t i = begin; i < end; i++) {
        size_t i0 = 1 + i * j->c.in, a0 = i * j->c.aux;
        cz_cs *cs;
        int rc = roots ? cz_cs_new_witness_at(&cs, j->w, i0, i0 + j->c.in, j->w + j->n_in, a0,
                                              a0 + j->c.aux)
                       : CZ_ERR_NOMEM;
        if (rc == CZ_OK) {
            rc = cz_post_sector_synth(cs, j->s, &j->sec[i], (unsigned)i, roots);
            if (rc == CZ_OK && (cz_cs_num_aux(cs) != a0 + j->c.aux ||
                                cz_cs_num_inputs(cs) != i0 + j->c.in))
                rc = CZ_ERR_INVALID_ARG; /* cannot happen: the shape is fixed */
            cz_cs_free(cs);
        }
        if (rc == CZ_OK && (j->bad_ch[i] = bad_root(&j->sec[i], roots, j->c.challenges)) != UINT_MAX)
            rc = CZ_ERR_BAD_PROOF;
        j->rc[i] = rc;
    }
    free(roots);
}

int cz_post_witness(cz_fr *w, size_t w_len, const cz_post_shape *s,
                    const cz_post_circuit_sector *sec, cz_pool *pool, cz_post_bad_path *bad,
                    char *err, size_t errlen)
{
    if (w == NULL || sec == NULL) {
        cz_msgf(err, errlen, "PoSt witness: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_post_shape_check(s, err, errlen);
    if (rc != CZ_OK)
        return rc;
    job j = {.s = s, .sec = sec, .w = w};
    if ((rc = get_counts(s, &j.c)) != CZ_OK) {
        cz_msgf(err, errlen, "PoSt witness: %s", cz_strerror(rc));
        return rc;
    }
    j.n_in = 1 + (size_t)s->sector_count * j.c.in;
    size_t n = j.n_in + (size_t)s->sector_count * j.c.aux;
    if (w_len != n) {
        cz_msgf(err, errlen, "PoSt witness: %zu values for a circuit of %zu", w_len, n);
        return CZ_ERR_INVALID_ARG;
    }
    j.rc = malloc(s->sector_count * sizeof *j.rc);
    j.bad_ch = malloc(s->sector_count * sizeof *j.bad_ch);
    if (j.rc == NULL || j.bad_ch == NULL) {
        free(j.rc);
        free(j.bad_ch);
        cz_msgf(err, errlen, "PoSt witness: out of memory");
        return CZ_ERR_NOMEM;
    }
    w[0] = CZ_FR_ONE;
    cz_pool_parallel_for(pool, s->sector_count, 1, run_sectors, &j);
    for (unsigned i = 0; i < s->sector_count && rc == CZ_OK; i++) {
        if ((rc = j.rc[i]) == CZ_ERR_BAD_PROOF) {
            cz_msgf(err, errlen,
                    "PoSt witness: sector %u: inclusion proof %u does not hash up to comm_r_last",
                    i, j.bad_ch[i]);
            if (bad)
                *bad = (cz_post_bad_path){i, j.bad_ch[i]};
        } else if (rc != CZ_OK) {
            cz_msgf(err, errlen, "PoSt witness: sector %u: %s%s", i, cz_strerror(rc),
                    rc == CZ_ERR_INVALID_ARG ? " (an inclusion path not of the tree's shape)"
                                             : "");
        }
    }
    free(j.rc);
    free(j.bad_ch);
    return rc;
}
