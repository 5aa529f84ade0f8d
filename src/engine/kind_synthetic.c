/* The built-in synthetic kind (cuzk/synthetic.h): circuits recorded and set
 * up (INSECURE) on first use, cached under "synthetic-<L>-<P>", witnesses
 * by witness-only synthesis (see kind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"

static int syn_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h, char *err,
                     size_t errlen)
{
    const cz_job_synthetic *s = req->input;
    if (e->cfg.no_synthetic) {
        cz_msgf(err, errlen, "job: the built-in synthetic kind is turned off here");
        return CZ_ERR_UNSUPPORTED;
    }
    int rc = cz_synthetic_check(&s->circuit, err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (s->partitions < 1 || s->partitions > 1024) {
        cz_msgf(err, errlen, "job: %u partitions (need 1 to 1024)", s->partitions);
        return CZ_ERR_INVALID_ARG;
    }
    j->in = malloc(sizeof *s);
    if (j->in == NULL)
        return CZ_ERR_NOMEM;
    memcpy(j->in, s, sizeof *s);
    j->n_parts = s->partitions;
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s%u-%u", CZ_CIRCUIT_ID_SYNTHETIC,
             s->circuit.log_rows, s->circuit.n_public);
    cz_sha256_update_u64(h, s->circuit.log_rows);
    cz_sha256_update_u64(h, s->circuit.n_public);
    cz_sha256_update_u64(h, s->circuit.seed);
    cz_sha256_update_u64(h, s->partitions);
    return CZ_OK;
}

static void syn_release(job *j)
{
    free(j->in);
    j->in = NULL;
}

/* "synthetic-<L>-<P>" in its one canonical spelling (decimal, no sign,
 * space or leading zero: the id jobs use) -> its shape. */
static int syn_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen)
{
    if (e->cfg.no_synthetic) {
        cz_msgf(err, errlen, "the built-in synthetic kind is turned off here");
        return CZ_ERR_UNSUPPORTED;
    }
    unsigned l, p;
    char tail, canon[CZ_JOB_ID_MAX];
    cz_job_synthetic s = {.partitions = 1};
    bool ok = sscanf(id, CZ_CIRCUIT_ID_SYNTHETIC "%u-%u%c", &l, &p, &tail) == 2;
    if (ok) {
        snprintf(canon, sizeof canon, "%s%u-%u", CZ_CIRCUIT_ID_SYNTHETIC, l, p);
        s.circuit.log_rows = l;
        s.circuit.n_public = p;
        ok = strcmp(canon, id) == 0 && cz_synthetic_check(&s.circuit, NULL, 0) == CZ_OK;
    }
    if (!ok) {
        cz_msgf(err, errlen,
                "%s is not a synthetic circuit id (synthetic-<log rows>-<public inputs>, "
                "decimal)",
                id);
        return CZ_ERR_NOT_FOUND;
    }
    j->in = malloc(sizeof s);
    if (j->in == NULL)
        return CZ_ERR_NOMEM;
    memcpy(j->in, &s, sizeof s);
    return CZ_OK;
}

/* Records the synthetic circuit and runs its insecure setup.  Every byte
 * the load can reach (3x the CSR bound while recording, then the parameter
 * block and the setup's temporaries, all bounded before recording) is
 * reserved in ONE request, then shrunk to what stays: a load never holds
 * part of the budget while it waits for more, so loads and partitions
 * cannot wait on each other.  Without e->mu. */
static int syn_load(cz_engine *e, circuit *c, const job *j)
{
    const cz_job_synthetic *in = j->in;
    cz_synthetic shape = in->circuit;
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
    int rc = cz_eng_reserve(e, total, &key, &j->cancel, NULL, &c->resv, c->load_msg,
                        sizeof c->load_msg);
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
    cz_resv_allocator_init(&c->ra, c->resv, &cz_eng_params_tag);
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

/* the cs keeps its own copy of the assignment until it is freed */
static uint64_t syn_extra(const job *j, size_t w_bytes)
{
    (void)j;
    return w_bytes;
}

static int syn_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    (void)e;
    const cz_job_synthetic *in = j->in;
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_WITNESS, 0);
    if (rc == CZ_OK) {
        rc = cz_synthetic_synthesize(cs, &in->circuit, p->idx);
        if (rc == CZ_OK && cz_cs_num_inputs(cs) + cz_cs_num_aux(cs) != p->n_w)
            rc = CZ_ERR_BAD_FORMAT;
        if (rc == CZ_OK)
            cz_cs_write_assignment(cs, p->w);
        cz_cs_free(cs);
    }
    if (rc != CZ_OK)
        cz_msgf(msg, msglen, "synthesis of partition %u failed: %s", p->idx, cz_strerror(rc));
    return rc;
}

static bool syn_enabled(const cz_engine *e) { return !e->cfg.no_synthetic; }

const cz_eng_kind cz_eng_kind_synthetic = {
    .kind = CZ_KIND_SYNTHETIC,
    .name = "synthetic",
    .queue = "synthetic",
    .priority = CZ_PRIO_NORMAL,
    .circuit_prefix = CZ_CIRCUIT_ID_SYNTHETIC,
    .check = syn_check,
    .release = syn_release,
    .of_circuit = syn_of_circuit,
    .load = syn_load,
    .synth_extra = syn_extra,
    .synthesize = syn_synthesize,
    .enabled = syn_enabled,
};
