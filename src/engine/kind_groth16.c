/* The generic Groth16 kind: a registered circuit and the client's full
 * assignment per partition, decoded once into the request pool and checked
 * against the circuit's rows before proving (see kind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/engine_internal.h"

typedef struct {
    cz_fr *w; /* partitions x n_w, from the request pool */
    size_t n_w;
} g16_input;

static int g16_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h, char *err,
                     size_t errlen)
{
    const cz_job_groth16 *g = req->input;
    if (g->circuit == NULL || strlen(g->circuit) >= CZ_JOB_ID_MAX ||
        (g->w == NULL) == (g->w_le == NULL) || g->n_w == 0 || g->partitions < 1 ||
        g->partitions > 1024) {
        cz_msgf(err, errlen,
                "job: a groth16 job needs a circuit id, one witness (values or "
                "encodings) and 1 to 1024 partitions");
        return CZ_ERR_INVALID_ARG;
    }
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, g->circuit);
    size_t need = c && c->registered ? cz_r1cs_num_inputs(c->r1cs) + cz_r1cs_num_aux(c->r1cs) : 0;
    pthread_mutex_unlock(&e->mu);
    if (c == NULL || !c->registered) {
        cz_msgf(err, errlen, "job: circuit %s is not registered", g->circuit);
        return CZ_ERR_NOT_FOUND;
    }
    if (need != g->n_w) {
        cz_msgf(err, errlen, "job: the witness has %zu values, circuit %s needs %zu", g->n_w,
                g->circuit, need);
        return CZ_ERR_INVALID_ARG;
    }
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", g->circuit);
    j->n_parts = g->partitions;
    size_t n = (size_t)g->partitions * g->n_w;
    cz_sha256_update(h, g->circuit, strlen(g->circuit) + 1);
    cz_sha256_update_u64(h, g->n_w);
    cz_sha256_update_u64(h, g->partitions);
    if (g->w_le) {
        cz_sha256_update(h, g->w_le, 32 * n);
    } else {
        uint8_t b[32];
        for (size_t i = 0; i < n; i++) {
            cz_fr_to_bytes_le(b, &g->w[i]);
            cz_sha256_update(h, b, 32);
        }
    }
    return CZ_OK;
}

/* The witness into the request pool, decoded and checked when it comes as
 * encodings. */
static int g16_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    const cz_job_groth16 *g = req->input;
    size_t n = (size_t)g->partitions * g->n_w, bytes = n * sizeof(cz_fr);
    uint64_t pool = cz_resv_size(e->request_pool);
    if (cz_mem_charge(bytes) > pool) {
        cz_msgf(err, errlen, "job: the witness (%zu bytes) is larger than the whole request pool "
                             "(%llu bytes)", bytes, (unsigned long long)pool);
        return CZ_ERR_TOO_BIG;
    }
    g16_input *in = calloc(1, sizeof *in);
    if (in == NULL)
        return CZ_ERR_NOMEM;
    j->in = in;
    in->n_w = g->n_w;
    cz_buf_tag tag = {j->seq, UINT32_MAX, "queued"};
    if (cz_mem_alloc((void **)&in->w, e->request_pool, CZ_BUF_INPUT, bytes, &tag, NULL, 0) !=
        CZ_OK) {
        cz_msgf(err, errlen,
                "job: the request pool has %llu of %llu bytes free, the witness needs %zu: "
                "retry when queued jobs have finished",
                (unsigned long long)(pool - cz_resv_used(e->request_pool)),
                (unsigned long long)pool, bytes);
        return CZ_ERR_LIMIT;
    }
    if (g->w) {
        memcpy(in->w, g->w, bytes);
        return CZ_OK;
    }
    for (size_t i = 0; i < n; i++) {
        if (cz_fr_from_bytes_le(&in->w[i], g->w_le + 32 * i) != CZ_OK) {
            cz_msgf(err, errlen, "job: witness value %zu (partition %zu, index %zu) is not below "
                                 "the scalar field modulus", i, i / g->n_w, i % g->n_w);
            return CZ_ERR_NOT_CANONICAL;
        }
    }
    return CZ_OK;
}

static void g16_release(job *j)
{
    g16_input *in = j->in;
    if (in) {
        cz_mem_free(in->w);
        free(in);
    }
    j->in = NULL;
}

/* The client's assignment, which must satisfy the circuit (checked row by
 * row when the circuit has a C matrix: a failure names the constraint
 * instead of surfacing later as a proof that does not verify). */
static int g16_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    const g16_input *in = j->in;
    if (in->n_w != p->n_w) { /* registered again with another shape */
        cz_msgf(msg, msglen, "the witness has %zu values, circuit %s needs %zu", in->n_w,
                j->circuit_id, p->n_w);
        return CZ_ERR_INVALID_ARG;
    }
    memcpy(p->w, in->w + (size_t)p->idx * in->n_w, in->n_w * sizeof(cz_fr));
    if (p->c->params->flavor == CZ_GROTH16_SNARKJS)
        return CZ_OK; /* no C matrix to check against: verification will */
    char why[200];
    int rc = cz_r1cs_check(p->c->r1cs, p->w, p->n_w, cz_eng_synth_pool(e, j->prio), NULL, why,
                           sizeof why);
    if (rc == CZ_ERR_UNSATISFIED)
        cz_msgf(msg, msglen, "the witness of partition %u does not satisfy circuit %s: %s", p->idx,
                j->circuit_id, why);
    else if (rc != CZ_OK)
        cz_msgf(msg, msglen, "checking the witness of partition %u failed: %s", p->idx,
                cz_strerror(rc));
    return rc;
}

const cz_eng_kind cz_eng_kind_groth16 = {
    .kind = CZ_KIND_GROTH16,
    .name = "groth16",
    .queue = "groth16",
    .priority = CZ_PRIO_NORMAL,
    .check = g16_check,
    .admit = g16_admit,
    .release = g16_release,
    .synthesize = g16_synthesize,
};
