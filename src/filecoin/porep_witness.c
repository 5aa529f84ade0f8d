/* Witness-only synthesis of a PoRep partition, its work in parallel (see
 * cuzk/filecoin.h cz_fc_porep_witness).
 *
 * The circuit's shape does not depend on its values: every challenge
 * allocates the same inputs and auxiliaries, and so does each of its
 * parts (porep_circuit.h: the prefix, the label of each layer, the
 * suffix).  Each part therefore owns fixed slices of w = [inputs | aux]:
 * challenge i's slices start at hdr + i x ch, its parts' at fixed offsets
 * inside.  The header runs first on the calling thread; then, in
 * parallel, every challenge's prefix and every (challenge, layer) label
 * (the labels take the rows, the challenge and the data leaf from the C1:
 * cz_porep_chal_from_proof), 18 + 198 tasks for 32GiB rather than 18
 * challenges over 16 cores; then the suffixes, which read the labels.
 * Each part runs in a witness-only cs over w numbered from its slices
 * (cz_cs_new_witness_at): its values land in place, and nothing else is
 * allocated but a ~120 KB scratch per thread and ~10 KB per challenge.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "filecoin/porep_circuit.h"

/* ------------------------------------------------------------- counts --- */

/* Inputs and auxiliaries of a part (header, prefix, layer l, suffix). */
typedef struct {
    size_t in, aux;
} seg;

typedef struct {
    cz_fc_porep_dims d;
    seg hdr, pre, lay[CZ_POREP_MAX_LAYERS], suf, ch; /* ch: a whole challenge */
} counts;

#define N_CACHED 16
static counts cache[N_CACHED];
static size_t n_cache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

static seg since(const cz_cs *cs, seg *mark)
{
    seg now = {cz_cs_num_inputs(cs), cz_cs_num_aux(cs)}, d = {now.in - mark->in, now.aux - mark->aux};
    *mark = now;
    return d;
}

/* A blank witness-only run of the header and one challenge, part by
 * part. */
static int measure(const cz_fc_porep_dims *d, counts *c)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc != CZ_OK)
        return rc;
    cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
    cz_porep_chal *st = malloc(sizeof *st);
    cz_porep_header h;
    seg mark = {0, 0};
    rc = scratch && st ? cz_porep_header_synth(cs, NULL, &h) : CZ_ERR_NOMEM;
    c->hdr = since(cs, &mark);
    if (rc == CZ_OK)
        rc = cz_porep_chal_prefix(cs, d, &h, NULL, st);
    c->pre = since(cs, &mark);
    for (unsigned l = 1; l <= d->layers && rc == CZ_OK; l++) {
        rc = cz_porep_chal_label(cs, &h, l, st, scratch);
        c->lay[l - 1] = since(cs, &mark);
    }
    if (rc == CZ_OK)
        rc = cz_porep_chal_suffix(cs, d, &h, NULL, st);
    c->suf = since(cs, &mark);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    c->ch.in = cz_cs_num_inputs(cs) - c->hdr.in;
    c->ch.aux = cz_cs_num_aux(cs) - c->hdr.aux;
    for (unsigned l = 0; l < d->layers && rc == CZ_OK; l++)
        if (c->lay[l].in != 0)
            rc = CZ_ERR_INVALID_ARG; /* the labels allocate no input */
    c->d = *d;
    free(scratch);
    free(st);
    cz_cs_free(cs);
    return rc;
}

static int get_counts(const cz_fc_porep_dims *d, counts *out)
{
    pthread_mutex_lock(&cache_mu);
    for (size_t i = 0; i < n_cache; i++)
        if (cz_fc_porep_dims_equal(&cache[i].d, d)) {
            *out = cache[i];
            pthread_mutex_unlock(&cache_mu);
            return CZ_OK;
        }
    pthread_mutex_unlock(&cache_mu);
    int rc = measure(d, out); /* outside the lock: it takes a while */
    if (rc != CZ_OK)
        return rc;
    pthread_mutex_lock(&cache_mu);
    if (n_cache < N_CACHED)
        cache[n_cache++] = *out;
    pthread_mutex_unlock(&cache_mu);
    return CZ_OK;
}

int cz_fc_porep_counts(const cz_fc_porep_dims *d, size_t *n_inputs, size_t *n_aux)
{
    char err[8];
    if (cz_porep_check_c1(d, NULL, 0, err, sizeof err) != CZ_OK)
        return CZ_ERR_INVALID_ARG;
    counts c;
    int rc = get_counts(d, &c);
    if (rc != CZ_OK)
        return rc;
    *n_inputs = c.hdr.in + d->challenges * c.ch.in;
    *n_aux = c.hdr.aux + d->challenges * c.ch.aux;
    return CZ_OK;
}

/* ------------------------------------------------------------ witness --- */

typedef struct {
    const cz_fc_porep_dims *d;
    const cz_fc_c1 *c1;
    unsigned k;
    const cz_porep_header *h;
    counts c;
    size_t n_in;
    cz_fr *w;
    cz_porep_chal *st; /* per challenge */
    int *rc;           /* per task of the phase */
} job;

/* The slices of part `part` of challenge i (0: prefix, 1..L: layer,
 * L + 1: suffix): first input and aux, and their counts. */
typedef struct {
    size_t in0, aux0;
    seg len;
} slices;

static slices part_slices(const job *j, size_t i, unsigned part)
{
    slices s = {j->c.hdr.in + i * j->c.ch.in, j->c.hdr.aux + i * j->c.ch.aux, j->c.pre};
    if (part > 0) {
        s.in0 += j->c.pre.in;
        s.aux0 += j->c.pre.aux;
        for (unsigned l = 0; l + 1 < part && l < j->d->layers; l++)
            s.aux0 += j->c.lay[l].aux;
        s.len = part <= j->d->layers ? j->c.lay[part - 1] : j->c.suf;
    }
    return s;
}

/* Runs part `part` of challenge i in a witness-only cs over its slices:
 * a past-the-end allocation is the cs's error, a slice left short
 * CZ_ERR_INVALID_ARG (neither can happen: the shape is fixed). */
static int run_part(job *j, size_t i, unsigned part, cz_porep_chal *st, cz_bool *scratch)
{
    slices s = part_slices(j, i, part);
    cz_cs *cs;
    int rc = cz_cs_new_witness_at(&cs, j->w, s.in0, s.in0 + s.len.in, j->w + j->n_in, s.aux0,
                                  s.aux0 + s.len.aux);
    if (rc != CZ_OK)
        return rc;
    const cz_fc_vanilla_proof *p = &j->c1->proofs[(size_t)j->k * j->c1->challenges + i];
    if (part == 0)
        rc = cz_porep_chal_prefix(cs, j->d, j->h, p, st);
    else if (part <= j->d->layers)
        rc = cz_porep_chal_label(cs, j->h, part, st, scratch);
    else
        rc = cz_porep_chal_suffix(cs, j->d, j->h, p, st);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    if (rc == CZ_OK && (cz_cs_num_inputs(cs) != s.in0 + s.len.in ||
                        cz_cs_num_aux(cs) != s.aux0 + s.len.aux))
        rc = CZ_ERR_INVALID_ARG;
    cz_cs_free(cs);
    return rc;
}

/* Phase 1, task t: challenge t's prefix (t < challenges), else a label
 * (challenge, layer). */
static void phase1(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    unsigned nc = j->d->challenges, L = j->d->layers;
    cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
    cz_porep_chal *mine = malloc(sizeof *mine); /* the prefix's own: st's labels are being written */
    for (size_t t = begin; t < end; t++) {
        if (scratch == NULL || mine == NULL)
            j->rc[t] = CZ_ERR_NOMEM;
        else if (t < nc)
            j->rc[t] = run_part(j, t, 0, mine, scratch);
        else
            j->rc[t] = run_part(j, (t - nc) / L, 1 + (unsigned)((t - nc) % L),
                                &j->st[(t - nc) / L], scratch);
    }
    free(scratch);
    free(mine);
}

/* Phase 2: challenge i's suffix, over the labels of phase 1. */
static void phase2(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    for (size_t i = begin; i < end; i++)
        j->rc[i] = run_part(j, i, j->d->layers + 1, &j->st[i], NULL);
}

int cz_fc_porep_witness(cz_fr *w, size_t w_len, const cz_fc_c1 *c1, unsigned k, cz_pool *pool,
                        char *err, size_t errlen)
{
    if (w == NULL || c1 == NULL || c1->proof_type == NULL) {
        cz_msgf(err, errlen, "PoRep witness: no C1");
        return CZ_ERR_INVALID_ARG;
    }
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, c1->proof_type->shape);
    int rc = cz_porep_check_c1(&d, c1, k, err, errlen);
    if (rc != CZ_OK)
        return rc;
    job j = {.d = &d, .c1 = c1, .k = k};
    if ((rc = get_counts(&d, &j.c)) != CZ_OK) {
        cz_msgf(err, errlen, "PoRep witness: %s", cz_strerror(rc));
        return rc;
    }
    j.n_in = j.c.hdr.in + d.challenges * j.c.ch.in;
    size_t n_aux = j.c.hdr.aux + d.challenges * j.c.ch.aux;
    if (w_len != j.n_in + n_aux) {
        cz_msgf(err, errlen, "PoRep witness: %zu values for a circuit of %zu", w_len,
                j.n_in + n_aux);
        return CZ_ERR_INVALID_ARG;
    }
    size_t tasks = (size_t)d.challenges * (1 + d.layers);
    j.w = w;
    j.st = malloc(d.challenges * sizeof *j.st);
    j.rc = malloc(tasks * sizeof *j.rc);
    if (j.st == NULL || j.rc == NULL) {
        free(j.st);
        free(j.rc);
        cz_msgf(err, errlen, "PoRep witness: out of memory");
        return CZ_ERR_NOMEM;
    }
    /* the header, into w's first slices */
    w[0] = CZ_FR_ONE;
    cz_cs *cs;
    cz_porep_header h;
    rc = cz_cs_new_witness_at(&cs, w, 1, j.c.hdr.in, w + j.n_in, 0, j.c.hdr.aux);
    if (rc == CZ_OK) {
        rc = cz_porep_header_synth(cs, c1, &h);
        cz_cs_free(cs);
    }
    char what[48] = "the header";
    if (rc == CZ_OK) {
        j.h = &h;
        for (unsigned i = 0; i < d.challenges; i++)
            cz_porep_chal_from_proof(&j.st[i], &d, &c1->proofs[(size_t)k * c1->challenges + i]);
        cz_pool_parallel_for(pool, tasks, 1, phase1, &j);
        for (size_t t = 0; t < tasks && rc == CZ_OK; t++)
            if ((rc = j.rc[t]) != CZ_OK && t < d.challenges)
                snprintf(what, sizeof what, "challenge %zu", t);
            else if (rc != CZ_OK)
                snprintf(what, sizeof what, "challenge %zu, label %zu", (t - d.challenges) / d.layers,
                         (t - d.challenges) % d.layers + 1);
    }
    if (rc == CZ_OK) {
        cz_pool_parallel_for(pool, d.challenges, 1, phase2, &j);
        for (unsigned i = 0; i < d.challenges && rc == CZ_OK; i++)
            if ((rc = j.rc[i]) != CZ_OK)
                snprintf(what, sizeof what, "challenge %u", i);
    }
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "PoRep witness: %s: %s", what, cz_strerror(rc));
    free(j.st);
    free(j.rc);
    return rc;
}
