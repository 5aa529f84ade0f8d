/* Witnesses of circuits made of a header and alike parts (see cuzk/cs.h
 * cz_cs_parts): the slices' layout measured once per shape, then every
 * piece synthesized in place, in parallel.
 *
 * Part i's segment s owns inputs [hdr.in + i P.in + S_s.in, + seg[s].in)
 * and auxiliaries [hdr.aux + i P.aux + S_s.aux, + seg[s].aux), P a whole
 * part's counts and S_s the sum of the segments before s: the order in
 * which the sequential circuit allocates them. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"

/* ------------------------------------------------------------- counts --- */

static cz_cs_count count_of(const cz_cs *cs)
{
    return (cz_cs_count){cz_cs_num_inputs(cs), cz_cs_num_aux(cs)};
}

/* A blank run of the header and part 0, segment by segment. */
static int measure(const cz_cs_parts *p, void *ctx, cz_cs_parts_counts *c)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc != CZ_OK)
        return rc;
    void *scratch = p->scratch ? malloc(p->scratch) : NULL;
    if (p->scratch && scratch == NULL)
        rc = CZ_ERR_NOMEM;
    if (rc == CZ_OK && p->header)
        rc = p->header(ctx, cs);
    cz_cs_count mark = count_of(cs);
    c->hdr = mark;
    for (unsigned s = 0; s < p->n_seg && rc == CZ_OK; s++) {
        rc = p->segment(ctx, cs, 0, s, scratch);
        cz_cs_count now = count_of(cs);
        c->seg[s] = (cz_cs_count){now.in - mark.in, now.aux - mark.aux};
        mark = now;
    }
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    free(scratch);
    cz_cs_free(cs);
    return rc;
}

int cz_cs_parts_counts_get(cz_cs_parts_cache *cache, const uint64_t key[CZ_CS_PARTS_KEY],
                           const cz_cs_parts *p, void *ctx, cz_cs_parts_counts *out)
{
    const size_t kb = CZ_CS_PARTS_KEY * sizeof *key;
    pthread_mutex_lock(&cache->mu);
    for (unsigned i = 0; i < cache->n; i++)
        if (!memcmp(cache->e[i].key, key, kb)) {
            *out = cache->e[i].c;
            pthread_mutex_unlock(&cache->mu);
            return CZ_OK;
        }
    pthread_mutex_unlock(&cache->mu);
    if (p->n_seg == 0 || p->n_seg > CZ_CS_PARTS_MAX_SEGS)
        return CZ_ERR_INVALID_ARG;
    int rc = measure(p, ctx, out); /* outside the lock: it takes a while */
    if (rc != CZ_OK)
        return rc;
    pthread_mutex_lock(&cache->mu);
    if (cache->n < sizeof cache->e / sizeof cache->e[0]) {
        memcpy(cache->e[cache->n].key, key, kb);
        cache->e[cache->n++].c = *out;
    }
    pthread_mutex_unlock(&cache->mu);
    return CZ_OK;
}

void cz_cs_parts_size(const cz_cs_parts *p, const cz_cs_parts_counts *c, size_t n, size_t *n_in,
                      size_t *n_aux)
{
    *n_in = c->hdr.in;
    *n_aux = c->hdr.aux;
    for (unsigned s = 0; s < p->n_seg; s++) {
        *n_in += n * c->seg[s].in;
        *n_aux += n * c->seg[s].aux;
    }
}

/* ------------------------------------------------------------ the run --- */

typedef struct {
    const cz_cs_parts *p;
    const cz_cs_parts_counts *c;
    void *ctx;
    cz_fr *w;
    size_t n, n_in;
    cz_cs_count part;                     /* one part's */
    cz_cs_count at[CZ_CS_PARTS_MAX_SEGS]; /* each segment's offset in its part */
    unsigned segs[CZ_CS_PARTS_MAX_SEGS];  /* the phase's segments */
    int *rc;                              /* per piece of the phase */
} run;

/* Part i's segment s in a witness-only cs over its slices, checked to
 * fill them exactly. */
static int piece(const run *r, size_t i, unsigned s, void *scratch)
{
    size_t in0 = r->c->hdr.in + i * r->part.in + r->at[s].in;
    size_t aux0 = r->c->hdr.aux + i * r->part.aux + r->at[s].aux;
    cz_cs_count len = r->c->seg[s];
    cz_cs *cs;
    int rc =
        cz_cs_new_witness_at(&cs, r->w, in0, in0 + len.in, r->w + r->n_in, aux0, aux0 + len.aux);
    if (rc != CZ_OK)
        return rc;
    rc = r->p->segment(r->ctx, cs, i, s, scratch);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    if (rc == CZ_OK &&
        (cz_cs_num_inputs(cs) != in0 + len.in || cz_cs_num_aux(cs) != aux0 + len.aux))
        rc = CZ_ERR_INVALID_ARG; /* cannot happen: the shape is fixed */
    cz_cs_free(cs);
    return rc;
}

/* Pieces [begin, end) of the phase: piece t is segment segs[t / n] of
 * part t % n. */
static void run_pieces(void *ctx, size_t begin, size_t end)
{
    run *r = ctx;
    void *scratch = r->p->scratch ? malloc(r->p->scratch) : NULL;
    for (size_t t = begin; t < end; t++)
        r->rc[t] = r->p->scratch && scratch == NULL
                       ? CZ_ERR_NOMEM
                       : piece(r, t % r->n, r->segs[t / r->n], scratch);
    free(scratch);
}

static int header(const run *r)
{
    r->w[0] = CZ_FR_ONE;
    if (r->p->header == NULL)
        return r->c->hdr.in == 1 && r->c->hdr.aux == 0 ? CZ_OK : CZ_ERR_INVALID_ARG;
    cz_cs *cs;
    int rc = cz_cs_new_witness_at(&cs, r->w, 1, r->c->hdr.in, r->w + r->n_in, 0, r->c->hdr.aux);
    if (rc != CZ_OK)
        return rc;
    rc = r->p->header(r->ctx, cs);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    if (rc == CZ_OK && (cz_cs_num_inputs(cs) != r->c->hdr.in || cz_cs_num_aux(cs) != r->c->hdr.aux))
        rc = CZ_ERR_INVALID_ARG;
    cz_cs_free(cs);
    return rc;
}

int cz_cs_parts_run(const cz_cs_parts *p, const cz_cs_parts_counts *c, size_t n, void *ctx,
                    cz_fr *w, size_t w_len, cz_pool *pool, cz_cs_parts_at *at, char *err,
                    size_t errlen)
{
    size_t n_in, n_aux;
    cz_cs_parts_size(p, c, n, &n_in, &n_aux);
    if (w == NULL || w_len != n_in + n_aux)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: %zu values for a circuit of %zu",
                       p->what, w_len, n_in + n_aux);
    run r = {.p = p, .c = c, .ctx = ctx, .w = w, .n = n, .n_in = n_in};
    for (unsigned s = 0; s < p->n_seg; s++) {
        r.at[s] = r.part;
        r.part.in += c->seg[s].in;
        r.part.aux += c->seg[s].aux;
    }
    r.rc = malloc((n ? n : 1) * p->n_seg * sizeof *r.rc);
    if (r.rc == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "%s: out of memory", p->what);
    int rc = header(&r);
    cz_cs_parts_at bad = {CZ_CS_PARTS_HEADER, 0};
    /* phase by phase: its segments in order, each over every part */
    unsigned done = 0;
    for (unsigned ph = 0; rc == CZ_OK && done < p->n_seg; ph++) {
        unsigned k = 0;
        for (unsigned s = 0; s < p->n_seg; s++)
            if (p->phase[s] == ph)
                r.segs[k++] = s;
        done += k;
        cz_pool_parallel_for(pool, k * n, 1, run_pieces, &r);
        for (size_t t = 0; t < k * n && rc == CZ_OK; t++)
            if ((rc = r.rc[t]) != CZ_OK)
                bad = (cz_cs_parts_at){t % n, r.segs[t / n]};
    }
    free(r.rc);
    if (rc == CZ_OK)
        return CZ_OK;
    if (at)
        *at = bad;
    if (bad.part == CZ_CS_PARTS_HEADER)
        cz_msgf(err, errlen, "%s: the header: %s", p->what, cz_strerror(rc));
    else if (p->n_seg > 1)
        cz_msgf(err, errlen, "%s: %s %zu, segment %u: %s", p->what, p->part, bad.part, bad.seg,
                cz_strerror(rc));
    else
        cz_msgf(err, errlen, "%s: %s %zu: %s", p->what, p->part, bad.part, cz_strerror(rc));
    return rc;
}
