/* Witness-only synthesis of a PoRep partition, the challenges in parallel
 * (see cuzk/filecoin.h cz_fc_porep_witness).
 *
 * Every challenge of a circuit allocates the same number of inputs and
 * auxiliaries whatever its values (the circuit has no data-dependent
 * shape), so challenge i owns the fixed slices
 *   inputs  hdr_in  + i ch_in  ..  + ch_in
 *   aux     hdr_aux + i ch_aux ..  + ch_aux
 * of w = [inputs | aux].  The header runs first on the calling thread (its
 * nums feed every challenge); then each challenge runs in a witness-only
 * cs over w numbered from its slices (cz_cs_new_witness_at), so its
 * values land in place and nothing else is allocated but a scratch of
 * ~160 KB per thread.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "filecoin/porep_circuit.h"

/* ------------------------------------------------------------- counts --- */

typedef struct {
    cz_fc_porep_dims d;
    size_t hdr_in, hdr_aux, ch_in, ch_aux;
} counts;

#define N_CACHED 16
static counts cache[N_CACHED];
static size_t n_cache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

/* A blank witness-only run of the header and one challenge. */
static int measure(const cz_fc_porep_dims *d, counts *c)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc != CZ_OK)
        return rc;
    cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
    cz_porep_header h;
    rc = scratch ? cz_porep_header_synth(cs, NULL, &h) : CZ_ERR_NOMEM;
    c->hdr_in = cz_cs_num_inputs(cs);
    c->hdr_aux = cz_cs_num_aux(cs);
    if (rc == CZ_OK)
        rc = cz_porep_challenge(cs, d, &h, NULL, scratch);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    c->ch_in = cz_cs_num_inputs(cs) - c->hdr_in;
    c->ch_aux = cz_cs_num_aux(cs) - c->hdr_aux;
    c->d = *d;
    free(scratch);
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
    *n_inputs = c.hdr_in + d->challenges * c.ch_in;
    *n_aux = c.hdr_aux + d->challenges * c.ch_aux;
    return CZ_OK;
}

/* ------------------------------------------------------------ witness --- */

typedef struct {
    const cz_fc_porep_dims *d;
    const cz_fc_c1 *c1;
    unsigned k;
    const cz_porep_header *h;
    counts c;
    cz_fr *in, *aux; /* w's inputs, w's aux */
    int rc[64];      /* per challenge */
} job;

static void run_challenges(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
    for (size_t i = begin; i < end; i++) {
        cz_cs *cs = NULL;
        size_t in0 = j->c.hdr_in + i * j->c.ch_in, aux0 = j->c.hdr_aux + i * j->c.ch_aux;
        int rc = scratch ? cz_cs_new_witness_at(&cs, j->in, in0, in0 + j->c.ch_in, j->aux, aux0,
                                                aux0 + j->c.ch_aux)
                         : CZ_ERR_NOMEM;
        if (rc == CZ_OK)
            rc = cz_porep_challenge(cs, j->d, j->h,
                                    &j->c1->proofs[(size_t)j->k * j->c1->challenges + i], scratch);
        if (rc == CZ_OK)
            rc = cz_cs_error(cs);
        /* a slice not filled: cannot happen, the shape is fixed */
        if (rc == CZ_OK && (cz_cs_num_inputs(cs) != in0 + j->c.ch_in ||
                            cz_cs_num_aux(cs) != aux0 + j->c.ch_aux))
            rc = CZ_ERR_INVALID_ARG;
        cz_cs_free(cs);
        j->rc[i] = rc;
    }
    free(scratch);
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
    if (d.challenges > sizeof j.rc / sizeof j.rc[0]) {
        cz_msgf(err, errlen, "PoRep witness: %u challenges", d.challenges);
        return CZ_ERR_INVALID_ARG;
    }
    if ((rc = get_counts(&d, &j.c)) != CZ_OK) {
        cz_msgf(err, errlen, "PoRep witness: %s", cz_strerror(rc));
        return rc;
    }
    size_t n_in = j.c.hdr_in + d.challenges * j.c.ch_in;
    size_t n_aux = j.c.hdr_aux + d.challenges * j.c.ch_aux;
    if (w_len != n_in + n_aux) {
        cz_msgf(err, errlen, "PoRep witness: %zu values for a circuit of %zu", w_len,
                n_in + n_aux);
        return CZ_ERR_INVALID_ARG;
    }
    /* the header, into w's first slices */
    w[0] = CZ_FR_ONE;
    cz_cs *cs;
    if ((rc = cz_cs_new_witness_at(&cs, w, 1, j.c.hdr_in, w + n_in, 0, j.c.hdr_aux)) != CZ_OK) {
        cz_msgf(err, errlen, "PoRep witness: %s", cz_strerror(rc));
        return rc;
    }
    cz_porep_header h;
    rc = cz_porep_header_synth(cs, c1, &h);
    cz_cs_free(cs);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "PoRep witness: header: %s", cz_strerror(rc));
        return rc;
    }
    j.h = &h;
    j.in = w;
    j.aux = w + n_in;
    cz_pool_parallel_for(pool, d.challenges, 1, run_challenges, &j);
    for (unsigned i = 0; i < d.challenges; i++)
        if (j.rc[i] != CZ_OK) {
            cz_msgf(err, errlen, "PoRep witness: challenge %u: %s", i, cz_strerror(j.rc[i]));
            return j.rc[i];
        }
    return CZ_OK;
}
