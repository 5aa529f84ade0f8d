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

/* Does a partition served before key wait for c (with c unpinned)?
 * Caller holds e->mu. */
static bool awaited(const cz_engine *e, const circuit *c, const cz_wait_key *key)
{
    for (const unpinned *u = e->unpinned; u; u = u->next)
        if (!strcmp(u->circuit_id, c->id) && cz_wait_key_before(&u->key, key))
            return true;
    return false;
}

/* Evicts idle cached circuits, least recently used first, until `need`
 * bytes of the budget are unreserved or nothing more may go.  A circuit a
 * partition served before key waits for stays: evicting it would make that
 * partition load it again once its bytes come, evicting the requester's in
 * turn (two circuits in a budget that holds one, each reloaded forever). */
static void evict_idle(cz_engine *e, uint64_t need, const cz_wait_key *key)
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
                    !awaited(e, c, key) && (!lru || c->last_used_ms < lru->last_used_ms))
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
                   unpinned *unpin, cz_resv **out, char *msg, size_t msglen)
{
    int rc = cz_budget_reserve(e->budget, bytes, key, 0, cancel, out, msg, msglen);
    if (rc != CZ_ERR_TIMEOUT)
        return rc;
    if (unpin) {
        pthread_mutex_lock(&e->mu);
        unpin->next = e->unpinned;
        e->unpinned = unpin;
        pthread_mutex_unlock(&e->mu);
    }
    while (rc == CZ_ERR_TIMEOUT) {
        evict_idle(e, bytes, key);
        rc = cz_budget_reserve(e->budget, bytes, key, 100, cancel, out, msg, msglen);
    }
    if (unpin) {
        pthread_mutex_lock(&e->mu);
        for (unpinned **pp = &e->unpinned; *pp; pp = &(*pp)->next) {
            if (*pp == unpin) {
                *pp = unpin->next;
                break;
            }
        }
        pthread_mutex_unlock(&e->mu);
    }
    return rc;
}

/* A circuit just loaded, on a back end with device copies: each device's
 * made now (the load pays the upload, not the first proof).  When every
 * device holds the whole set, the host copy of the parameters it owns is
 * freed and its reservation shrunk by as much (44 GiB at 32GiB PoRep),
 * and the pre-compiled circuit's file pages are let go; a device that
 * streams keeps both.  CZ_OK, or the device's error with c->load_msg
 * set. */
static int on_devices(cz_engine *e, circuit *c)
{
    if (e->be->prepare == NULL)
        return CZ_OK;
    unsigned nd = e->be->devices(e->be->ctx);
    bool all = nd > 0;
    double t0 = cz_eng_now_ms(e);
    for (unsigned d = 0; d < nd; d++) {
        bool res = false;
        char why[300];
        int rc = e->be->prepare(e->be->ctx, d, c->params, c->r1cs, &res, why, sizeof why);
        if (rc != CZ_OK) {
            cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s: device %u: %s", c->id, d, why);
            return rc;
        }
        all &= res;
    }
    size_t freed = 0, pages = 0;
    uint64_t used = c->resv ? cz_resv_used(c->resv) : 0;
    if (all && c->params == &c->own_params && c->resv != NULL &&
        cz_groth16_params_drop_queries(&c->own_params, &freed) == CZ_OK &&
        cz_resv_used(c->resv) < used) /* the reservation gives back what the block held */
        (void)cz_resv_shrink(c->resv, used - cz_resv_used(c->resv));
    if (all && c->own_r1cs != NULL)
        pages = cz_r1cs_release_pages(c->own_r1cs);
    fprintf(e->log, "cuzk: %s on %u device%s in %.1f s: %s%s\n", c->id, nd, nd == 1 ? "" : "s",
            (cz_eng_now_ms(e) - t0) / 1e3,
            all ? "resident" : "streamed from host memory (it does not fit beside a proof)",
            freed ? ", the host copy of its parameters freed" : "");
    if (pages)
        fprintf(e->log, "cuzk: %s: the pre-compiled circuit's %zu mapped bytes released\n", c->id,
                pages);
    fflush(e->log);
    return CZ_OK;
}

const cz_buf_tag cz_eng_params_tag = {0, UINT32_MAX, "params"};

circuit *cz_eng_circuit_acquire(cz_engine *e, job *j, int *rc, char *msg, size_t msglen)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    if (c == NULL && j->k->load == NULL) {
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
        c->kind = j->kind;
        c->state = C_LOADING;
        c->refs = 1;
        c->next = e->circuits;
        e->circuits = c;
        pthread_mutex_unlock(&e->mu);
        int lrc = j->k->load(e, c, j);
        if (lrc == CZ_OK)
            lrc = cz_groth16_pvk_prepare(&c->pvk, &c->params->vk);
        if (lrc == CZ_OK)
            lrc = on_devices(e, c);
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
    c->kind = CZ_KIND_GROTH16;
    c->last_used_ms = cz_eng_now_ms(e);
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
    double now = cz_eng_now_ms(e);
    for (circuit *c = e->circuits; c; c = c->next, n++) {
        if (n >= max || out == NULL)
            continue;
        cz_engine_circuit_info *i = &out[n];
        snprintf(i->id, sizeof i->id, "%s", c->id);
        i->kind = c->kind;
        i->bytes = circuit_bytes(c);
        i->refs = (uint32_t)c->refs;
        i->registered = c->registered;
        i->loading = c->state == C_LOADING;
        i->idle_ms = c->refs > 0 || now < c->last_used_ms ? 0 : now - c->last_used_ms;
    }
    pthread_mutex_unlock(&e->mu);
    return n;
}

size_t cz_engine_circuit_plans(cz_engine *e, const char *id, cz_engine_plan *out, size_t max)
{
    size_t n = 0;
    if (e == NULL || id == NULL || e->be->plan == NULL)
        return 0;
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, id);
    for (unsigned d = 0; c && c->state == C_READY && c->params && d < e->n_dev && n < max; d++)
        if (e->be->plan(e->be->ctx, d, c->params, &out[n]) == CZ_OK)
            n++;
    pthread_mutex_unlock(&e->mu);
    return n;
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
    /* a private job record drives the load like a job's first partition */
    job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return CZ_ERR_NOMEM;
    for (const cz_eng_kind *const *k = cz_eng_kinds; *k && !j->k; k++)
        if ((*k)->circuit_prefix && !strncmp(id, (*k)->circuit_prefix, strlen((*k)->circuit_prefix)))
            j->k = *k;
    char why[256] = "";
    int rc = CZ_ERR_NOT_FOUND;
    if (j->k == NULL)
        snprintf(why, sizeof why,
                 "%s is neither a registered circuit nor one a kind loads (synthetic-<log "
                 "rows>-<public inputs>, porep-, snap-, wpost-, winning- then 2k .. 64g)",
                 id);
    else
        rc = j->k->of_circuit(e, id, j, why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "preload: %s", why[0] ? why : cz_strerror(rc));
        if (j->k)
            j->k->release(j);
        free(j);
        return rc;
    }
    j->kind = j->k->kind;
    j->prio = CZ_PRIO_CRITICAL;
    atomic_init(&j->cancel, 0);
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", id);
    c = cz_eng_circuit_acquire(e, j, &rc, err, errlen);
    j->k->release(j);
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

