/* Witness-only synthesis of the EmptySectorUpdate circuit, challenge by
 * challenge in parallel (cuzk/filecoin.h cz_fc_update_witness).
 *
 * The circuit's shape does not depend on its values (update_circuit.h):
 * the header allocates every input and a fixed number of auxiliaries, and
 * each challenge the same number of auxiliaries and no input.  So
 * challenge c owns aux[hdr + c x ch .. hdr + (c + 1) x ch): the header runs
 * on the calling thread into the first slices, then every challenge in a
 * witness-only cs over its own slice (cz_cs_new_witness_at), reading the
 * header's variables (phi, the roots, the apex leaves, the challenge bits)
 * by number.  86 challenges of ~940,000 constraints at 32GiB. */
#include <pthread.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "filecoin/update_circuit.h"

typedef struct {
    uint64_t sector_nodes;
    size_t hdr_in, hdr_aux, ch_aux;
} counts;

#define N_CACHED 16
static counts cache[N_CACHED];
static size_t n_cache;
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

/* A blank witness-only run of the header and challenge 0. */
static int measure(const cz_fc_update_shape *u, counts *c)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc != CZ_OK)
        return rc;
    cz_update_header h;
    rc = cz_update_header_synth(cs, u, NULL, NULL, &h);
    c->sector_nodes = u->sector_nodes;
    c->hdr_in = cz_cs_num_inputs(cs);
    c->hdr_aux = cz_cs_num_aux(cs);
    if (rc == CZ_OK)
        rc = cz_update_challenge(cs, u, &h, NULL, 0);
    if (rc == CZ_OK)
        rc = cz_cs_error(cs);
    if (rc == CZ_OK && cz_cs_num_inputs(cs) != c->hdr_in)
        rc = CZ_ERR_INVALID_ARG; /* a challenge allocates no input */
    c->ch_aux = cz_cs_num_aux(cs) - c->hdr_aux;
    cz_update_header_free(&h);
    cz_cs_free(cs);
    return rc;
}

static int get_counts(const cz_fc_update_shape *u, counts *out)
{
    pthread_mutex_lock(&cache_mu);
    for (size_t i = 0; i < n_cache; i++)
        if (cache[i].sector_nodes == u->sector_nodes) {
            *out = cache[i];
            pthread_mutex_unlock(&cache_mu);
            return CZ_OK;
        }
    pthread_mutex_unlock(&cache_mu);
    int rc = measure(u, out);
    if (rc != CZ_OK)
        return rc;
    pthread_mutex_lock(&cache_mu);
    if (n_cache < N_CACHED)
        cache[n_cache++] = *out;
    pthread_mutex_unlock(&cache_mu);
    return CZ_OK;
}

int cz_fc_update_counts(const cz_fc_update_shape *u, size_t *n_inputs, size_t *n_aux)
{
    if (u == NULL || u->challenges == 0)
        return CZ_ERR_INVALID_ARG;
    counts c;
    int rc = get_counts(u, &c);
    if (rc != CZ_OK)
        return rc;
    *n_inputs = c.hdr_in;
    *n_aux = c.hdr_aux + (size_t)u->challenges * c.ch_aux;
    return CZ_OK;
}

typedef struct {
    const cz_fc_update_shape *u;
    const cz_fc_update_partition_proof *p;
    const cz_update_header *h;
    counts c;
    cz_fr *w;
    int *rc; /* per challenge */
} job;

static void run_challenges(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    for (size_t i = begin; i < end; i++) {
        size_t a0 = j->c.hdr_aux + i * j->c.ch_aux;
        cz_cs *cs;
        int rc = cz_cs_new_witness_at(&cs, j->w, j->c.hdr_in, j->c.hdr_in, j->w + j->c.hdr_in, a0,
                                      a0 + j->c.ch_aux);
        if (rc == CZ_OK) {
            rc = cz_update_challenge(cs, j->u, j->h, &j->p->challenges[i], (unsigned)i);
            if (rc == CZ_OK)
                rc = cz_cs_error(cs);
            if (rc == CZ_OK && cz_cs_num_aux(cs) != a0 + j->c.ch_aux)
                rc = CZ_ERR_INVALID_ARG; /* cannot happen: the shape is fixed */
            cz_cs_free(cs);
        }
        j->rc[i] = rc;
    }
}

int cz_fc_update_witness(cz_fr *w, size_t w_len, const cz_fc_update_shape *u,
                         const cz_fc_update_public *pub, const cz_fc_update_partition_proof *p,
                         cz_pool *pool, char *err, size_t errlen)
{
    if (w == NULL || pub == NULL || p == NULL) {
        cz_msgf(err, errlen, "update witness: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_update_check(u, pub, p, err, errlen);
    if (rc != CZ_OK)
        return rc;
    job j = {.u = u, .p = p, .w = w};
    if ((rc = get_counts(u, &j.c)) != CZ_OK) {
        cz_msgf(err, errlen, "update witness: %s", cz_strerror(rc));
        return rc;
    }
    size_t n = j.c.hdr_in + j.c.hdr_aux + (size_t)u->challenges * j.c.ch_aux;
    if (w_len != n) {
        cz_msgf(err, errlen, "update witness: %zu values for a circuit of %zu", w_len, n);
        return CZ_ERR_INVALID_ARG;
    }
    j.rc = malloc(u->challenges * sizeof *j.rc);
    if (j.rc == NULL) {
        cz_msgf(err, errlen, "update witness: out of memory");
        return CZ_ERR_NOMEM;
    }
    w[0] = CZ_FR_ONE;
    cz_cs *cs;
    cz_update_header h;
    rc = cz_cs_new_witness_at(&cs, w, 1, j.c.hdr_in, w + j.c.hdr_in, 0, j.c.hdr_aux);
    if (rc == CZ_OK) {
        rc = cz_update_header_synth(cs, u, pub, p, &h);
        if (rc == CZ_OK)
            rc = cz_cs_error(cs);
        cz_cs_free(cs);
        if (rc != CZ_OK)
            cz_update_header_free(&h);
    }
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "update witness: the header: %s", cz_strerror(rc));
        free(j.rc);
        return rc;
    }
    j.h = &h;
    cz_pool_parallel_for(pool, u->challenges, 1, run_challenges, &j);
    for (unsigned i = 0; i < u->challenges && rc == CZ_OK; i++)
        if ((rc = j.rc[i]) != CZ_OK)
            cz_msgf(err, errlen, "update witness: challenge %u: %s", i, cz_strerror(rc));
    cz_update_header_free(&h);
    free(j.rc);
    return rc;
}
