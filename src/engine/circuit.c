/* The circuit cache: synthetic circuits loaded on demand, registered
 * circuits, pinning, LRU eviction (see engine_internal.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"

/* -------------------------------------------------------- circuit cache --- */

circuit *cz_eng_find_circuit(cz_engine *e, const char *id)
{
    for (circuit *c = e->circuits; c; c = c->next)
        if (!strcmp(c->id, id))
            return c;
    return NULL;
}

void cz_eng_circuit_unload(circuit *c)
{
    cz_groth16_pvk_free(&c->pvk);
    cz_groth16_params_free(&c->own_params);
    cz_r1cs_free(c->own_r1cs);
    c->own_r1cs = NULL;
    cz_resv_release(c->resv);
    c->resv = NULL;
}

static void circuit_unlink(cz_engine *e, circuit *c)
{
    for (circuit **pp = &e->circuits; *pp; pp = &(*pp)->next) {
        if (*pp == c) {
            *pp = c->next;
            return;
        }
    }
}

/* Evicts idle cached circuits, least recently used first, until `need`
 * bytes of the budget are unreserved or nothing more may go. */
static void evict_idle(cz_engine *e, uint64_t need)
{
    for (;;) {
        pthread_mutex_lock(&e->mu);
        cz_mem_snapshot s;
        cz_budget_snapshot(e->budget, &s);
        circuit *lru = NULL;
        double t = cz_eng_now_ms(e);
        if (s.total - s.reserved < need) {
            for (circuit *c = e->circuits; c; c = c->next)
                if (!c->registered && c->state == C_READY && c->refs == 0 &&
                    t - c->last_used_ms >= (double)e->cfg.eviction_min_idle_ms &&
                    (!lru || c->last_used_ms < lru->last_used_ms))
                    lru = c;
        }
        if (lru)
            circuit_unlink(e, lru);
        pthread_mutex_unlock(&e->mu);
        if (!lru)
            return;
        cz_eng_circuit_unload(lru);
        free(lru);
    }
}

int cz_eng_reserve(cz_engine *e, uint64_t bytes, const cz_wait_key *key, const atomic_int *cancel,
                   cz_resv **out, char *msg, size_t msglen)
{
    int rc = cz_budget_reserve(e->budget, bytes, key, 0, cancel, out, msg, msglen);
    while (rc == CZ_ERR_TIMEOUT) {
        evict_idle(e, bytes);
        rc = cz_budget_reserve(e->budget, bytes, key, 100, cancel, out, msg, msglen);
    }
    return rc;
}

static const cz_buf_tag PARAMS_TAG = {0, UINT32_MAX, "params"};

/* Records the synthetic circuit and runs its insecure setup.  Every byte
 * the load can reach (3x the CSR bound while recording, then the parameter
 * block and the setup's temporaries, all bounded before recording) is
 * reserved in ONE request, then shrunk to what stays: a load never holds
 * part of the budget while it waits for more, so loads and partitions
 * cannot wait on each other.  Without e->mu. */
static int load_synthetic(cz_engine *e, circuit *c, const job *j)
{
    cz_synthetic shape = j->syn.circuit;
    shape.seed = 0;
    cz_wait_key key = {(int)j->prio, j->seq, 0};
    uint64_t est = 3 * cz_synthetic_r1cs_bytes(&shape);
    size_t n_in = 1 + shape.n_public, n_aux = cz_synthetic_num_aux(&shape), bblock, btemp;
    cz_groth16_setup_sizes_bound(n_in, n_aux, (size_t)1 << shape.log_rows, CZ_GROTH16_BELLPERSON,
                                 &bblock, &btemp);
    uint64_t total = est + cz_mem_charge(bblock) + cz_mem_charge(btemp);
    uint64_t room = cz_budget_total(e->budget) - cz_resv_size(e->request_pool);
    if (total > room) {
        cz_msgf(c->load_msg, sizeof c->load_msg,
                "loading %s needs %llu bytes, but the memory budget less the request pool is "
                "%llu bytes",
                c->id, (unsigned long long)total, (unsigned long long)room);
        return CZ_ERR_TOO_BIG;
    }
    int rc = cz_eng_reserve(e, total, &key, &j->cancel, &c->resv, c->load_msg, sizeof c->load_msg);
    if (rc != CZ_OK)
        return rc;
    cz_cs *cs;
    rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc == CZ_OK) {
        cz_synthetic_synthesize(cs, &shape, 0);
        rc = cz_cs_finish(cs, &c->own_r1cs);
        cz_cs_free(cs);
    }
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "recording %s failed: %s", c->id, cz_strerror(rc));
        return rc;
    }
    cz_resv_allocator_init(&c->ra, c->resv, &PARAMS_TAG);
    uint8_t seed[32] = {0}; /* the id's bytes (truncated): one key per shape */
    memcpy(seed, c->id, strnlen(c->id, sizeof seed));
    rc = cz_groth16_setup_ex(&c->own_params, c->own_r1cs, seed, CZ_GROTH16_BELLPERSON, e->pool,
                             &c->ra.a);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "setup of %s failed: %s", c->id, cz_strerror(rc));
        return rc;
    }
    /* keep the parameters' buffer and the recorded R1CS (untracked memory,
     * covered by the reservation) */
    uint64_t unused = cz_resv_size(c->resv) - cz_resv_used(c->resv);
    uint64_t keep = cz_r1cs_mem_bytes(c->own_r1cs);
    if (unused > keep)
        cz_resv_shrink(c->resv, unused - keep);
    c->params = &c->own_params;
    c->r1cs = c->own_r1cs;
    return CZ_OK;
}

circuit *cz_eng_circuit_acquire(cz_engine *e, job *j, int *rc, char *msg, size_t msglen)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    if (c == NULL && j->kind == CZ_KIND_GROTH16) {
        pthread_mutex_unlock(&e->mu);
        *rc = CZ_ERR_NOT_FOUND;
        cz_msgf(msg, msglen, "circuit %s is not registered", j->circuit_id);
        return NULL;
    }
    if (c == NULL) {
        c = calloc(1, sizeof *c);
        if (c == NULL) {
            pthread_mutex_unlock(&e->mu);
            *rc = CZ_ERR_NOMEM;
            cz_msgf(msg, msglen, "out of memory");
            return NULL;
        }
        snprintf(c->id, sizeof c->id, "%s", j->circuit_id);
        c->state = C_LOADING;
        c->refs = 1;
        c->next = e->circuits;
        e->circuits = c;
        pthread_mutex_unlock(&e->mu);
        int lrc = load_synthetic(e, c, j);
        if (lrc == CZ_OK)
            lrc = cz_groth16_pvk_prepare(&c->pvk, &c->params->vk);
        pthread_mutex_lock(&e->mu);
        if (lrc != CZ_OK) {
            c->state = C_FAILED;
            c->load_err = lrc;
            if (!c->load_msg[0])
                cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s failed: %s", c->id,
                        cz_strerror(lrc));
            circuit_unlink(e, c); /* waiters still hold it through refs */
        } else {
            c->state = C_READY;
        }
        pthread_cond_broadcast(&e->cv_circuit);
    } else {
        c->refs++;
        while (c->state == C_LOADING)
            pthread_cond_wait(&e->cv_circuit, &e->mu);
    }
    if (c->state == C_FAILED) {
        *rc = c->load_err;
        cz_msgf(msg, msglen, "%s", c->load_msg);
        int last = --c->refs == 0;
        pthread_mutex_unlock(&e->mu);
        if (last) {
            cz_eng_circuit_unload(c);
            free(c);
        }
        return NULL;
    }
    c->last_used_ms = cz_eng_now_ms(e);
    pthread_mutex_unlock(&e->mu);
    return c;
}

void cz_eng_circuit_put(cz_engine *e, circuit *c)
{
    pthread_mutex_lock(&e->mu);
    c->refs--;
    c->last_used_ms = cz_eng_now_ms(e);
    pthread_mutex_unlock(&e->mu);
}

/* ------------------------------------------------------------ circuits --- */

int cz_engine_register_circuit(cz_engine *e, const char *id, const cz_groth16_params *params,
                               const cz_r1cs *r1cs, char *err, size_t errlen)
{
    if (e == NULL || id == NULL || params == NULL || r1cs == NULL || strlen(id) == 0 ||
        strlen(id) >= CZ_JOB_ID_MAX) {
        cz_msgf(err, errlen, "register: bad arguments");
        return CZ_ERR_INVALID_ARG;
    }
    if (strncmp(id, CZ_CIRCUIT_ID_SYNTHETIC, strlen(CZ_CIRCUIT_ID_SYNTHETIC)) == 0) {
        cz_msgf(err, errlen, "register: ids beginning with \"%s\" belong to the built-in "
                             "synthetic kind", CZ_CIRCUIT_ID_SYNTHETIC);
        return CZ_ERR_INVALID_ARG;
    }
    /* shape check through the prover's own validation (a 0-length dry run
     * is not possible): compare the counts it checks */
    size_t n_in = cz_r1cs_num_inputs(r1cs), n_aux = cz_r1cs_num_aux(r1cs);
    if (params->vk.n_ic != n_in || params->n_l != n_aux) {
        cz_msgf(err, errlen,
                "register: parameters do not match the constraint system (%zu IC points "
                "for %zu inputs, %zu L points for %zu aux)",
                params->vk.n_ic, n_in, params->n_l, n_aux);
        return CZ_ERR_BAD_FORMAT;
    }
    circuit *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CZ_ERR_NOMEM;
    snprintf(c->id, sizeof c->id, "%s", id);
    c->registered = 1;
    c->state = C_READY;
    c->params = params;
    c->r1cs = r1cs;
    int rc = cz_groth16_pvk_prepare(&c->pvk, &params->vk);
    uint64_t bytes = params->mem_bytes + cz_r1cs_mem_bytes(r1cs);
    cz_wait_key key = {CZ_PRIO_CRITICAL, 0, 0};
    if (rc == CZ_OK)
        rc = cz_budget_reserve(e->budget, bytes, &key, 0, NULL, &c->resv, err, errlen);
    if (rc == CZ_ERR_TIMEOUT) {
        rc = CZ_ERR_BUSY;
        cz_msgf(err, errlen, "register: %llu bytes are not free in the memory budget now",
                (unsigned long long)bytes);
    }
    pthread_mutex_lock(&e->mu);
    if (rc == CZ_OK && cz_eng_find_circuit(e, id)) {
        rc = CZ_ERR_INVALID_ARG;
        cz_msgf(err, errlen, "register: circuit %s exists", id);
    }
    if (rc == CZ_OK) {
        c->next = e->circuits;
        e->circuits = c;
    }
    pthread_mutex_unlock(&e->mu);
    if (rc != CZ_OK) {
        cz_eng_circuit_unload(c);
        free(c);
    }
    return rc;
}

static uint64_t circuit_bytes(const circuit *c) { return c->resv ? cz_resv_size(c->resv) : 0; }

static int remove_circuit(cz_engine *e, const char *id, int registered, uint64_t *freed)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, id);
    int rc = CZ_OK;
    if (c == NULL || c->registered != registered)
        rc = CZ_ERR_NOT_FOUND;
    else if (c->refs > 0 || c->state != C_READY)
        rc = CZ_ERR_BUSY;
    for (job *j = e->live; rc == CZ_OK && registered && j; j = j->next)
        if (!j->finished && !strcmp(j->circuit_id, id))
            rc = CZ_ERR_BUSY; /* a queued job still needs it (it cannot reload) */
    if (rc == CZ_OK)
        circuit_unlink(e, c);
    pthread_mutex_unlock(&e->mu);
    if (freed)
        *freed = rc == CZ_OK ? circuit_bytes(c) : 0;
    if (rc == CZ_OK) {
        cz_eng_circuit_unload(c);
        free(c);
    }
    return rc;
}

size_t cz_engine_circuits(cz_engine *e, cz_engine_circuit_info *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&e->mu);
    for (circuit *c = e->circuits; c; c = c->next, n++) {
        if (n >= max || out == NULL)
            continue;
        cz_engine_circuit_info *i = &out[n];
        snprintf(i->id, sizeof i->id, "%s", c->id);
        i->bytes = circuit_bytes(c);
        i->refs = (uint32_t)c->refs;
        i->registered = c->registered;
        i->loading = c->state == C_LOADING;
    }
    pthread_mutex_unlock(&e->mu);
    return n;
}

/* "synthetic-<L>-<P>" in its one canonical spelling (decimal, no sign,
 * space or leading zero: the id jobs use) -> its shape; false otherwise. */
static bool parse_synthetic_id(const char *id, cz_synthetic *s)
{
    unsigned l, p;
    char tail, canon[CZ_JOB_ID_MAX];
    if (sscanf(id, CZ_CIRCUIT_ID_SYNTHETIC "%u-%u%c", &l, &p, &tail) != 2)
        return false;
    snprintf(canon, sizeof canon, "%s%u-%u", CZ_CIRCUIT_ID_SYNTHETIC, l, p);
    if (strcmp(canon, id) != 0)
        return false;
    memset(s, 0, sizeof *s);
    s->log_rows = l;
    s->n_public = p;
    return cz_synthetic_check(s, NULL, 0) == CZ_OK;
}

int cz_engine_preload(cz_engine *e, const char *id, bool *already, char *err, size_t errlen)
{
    if (already)
        *already = false;
    if (e == NULL || id == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, id);
    bool loaded = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    if (loaded) {
        if (already)
            *already = true;
        return CZ_OK;
    }
    if (e->cfg.no_synthetic &&
        strncmp(id, CZ_CIRCUIT_ID_SYNTHETIC, strlen(CZ_CIRCUIT_ID_SYNTHETIC)) == 0) {
        cz_msgf(err, errlen, "preload: the built-in synthetic kind is turned off here");
        return CZ_ERR_UNSUPPORTED;
    }
    /* a private job record drives the load like a job's first partition */
    job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return CZ_ERR_NOMEM;
    if (!parse_synthetic_id(id, &j->syn.circuit)) {
        free(j);
        cz_msgf(err, errlen,
                "preload: %s is neither registered nor a synthetic circuit id "
                "(synthetic-<log rows>-<public inputs>, decimal)",
                id);
        return CZ_ERR_NOT_FOUND;
    }
    j->kind = CZ_KIND_SYNTHETIC;
    j->prio = CZ_PRIO_CRITICAL;
    atomic_init(&j->cancel, 0);
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", id);
    int rc;
    c = cz_eng_circuit_acquire(e, j, &rc, err, errlen);
    free(j);
    if (c == NULL)
        return rc;
    cz_eng_circuit_put(e, c);
    return CZ_OK;
}

int cz_engine_unregister_circuit(cz_engine *e, const char *id)
{
    return e && id ? remove_circuit(e, id, 1, NULL) : CZ_ERR_INVALID_ARG;
}

int cz_engine_evict(cz_engine *e, const char *id) { return cz_engine_evict_ex(e, id, NULL); }

int cz_engine_evict_ex(cz_engine *e, const char *id, uint64_t *freed)
{
    if (freed)
        *freed = 0;
    return e && id ? remove_circuit(e, id, 0, freed) : CZ_ERR_INVALID_ARG;
}

