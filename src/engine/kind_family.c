/* The Filecoin proof families' one kind: what every family's job does
 * alike, around its row (family.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "engine/family.h"

/* A family job's input: the sector shape, and the family's decoded input
 * in the request pool (NULL in a preload's record). */
typedef struct {
    const cz_fc_shape *sector;
    cz_resv_allocator ra;
    void *in;
} fc_job;

/* The family whose row begins with j's kind's. */
static const cz_eng_family *family(const job *j) { return (const cz_eng_family *)j->k; }

/* cuzk's size names in circuit ids ("porep-32g"), in cz_fc_shape_id order */
static const char *const SIZE_ID[CZ_FC__SHAPES] = {"2k", "8m", "512m", "32g", "64g"};

static int no_cache(const cz_eng_family *f, char *err, size_t errlen)
{
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                   "%s needs a param cache (srs.param_cache): none is configured", f->what);
}

/* The parameter files of f's circuit for s exist: CZ_OK, or
 * CZ_ERR_NOT_FOUND naming the first missing one. */
static int files_present(const cz_engine *e, const cz_eng_family *f, const cz_fc_shape *s,
                         char *err, size_t errlen)
{
    char base[CZ_FC_PARAMS_NAME], what[64], cmd[160];
    int rc = f->h->circuit(f, s, base, NULL, NULL);
    if (rc != CZ_OK)
        return rc;
    snprintf(what, sizeof what, "%s %s", s->name, f->what);
    snprintf(cmd, sizeof cmd,
             "cuzk params --circuit %s --sector-size SIZE --pce-only --out DIR",
             f->params_circuit);
    return cz_fc_param_files_present(e->param_cache, base, what, cmd, err, errlen);
}

int cz_eng_family_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h,
                        char *err, size_t errlen)
{
    const cz_eng_family *f = family(j);
    if (e->param_cache == NULL)
        return no_cache(f, err, errlen);
    cz_eng_proof p;
    int rc = f->h->proof(f, req->input, &p, err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (p.sector_size != 0 && p.sector_size != p.sector->sector_size)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "sector_size %llu is not the sector size of %s (%llu bytes)",
                       (unsigned long long)p.sector_size, p.name,
                       (unsigned long long)p.sector->sector_size);
    cz_sha256_update_u64(h, p.id);
    if ((rc = f->h->check(f, req->input, &p, &j->n_parts, h, err, errlen)) != CZ_OK)
        return rc;
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s%s", j->k->circuit_prefix,
             SIZE_ID[p.sector->id]);
    pthread_mutex_lock(&e->mu);
    circuit *c = cz_eng_find_circuit(e, j->circuit_id);
    bool cached = c && c->state == C_READY;
    pthread_mutex_unlock(&e->mu);
    return cached ? CZ_OK : files_present(e, f, p.sector, err, errlen);
}

/* j's input record, allocated for the sector shape s. */
static fc_job *record(job *j, const cz_fc_shape *s)
{
    fc_job *fj = calloc(1, sizeof *fj);
    if (fj)
        fj->sector = s;
    j->in = fj;
    return fj;
}

int cz_eng_family_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen)
{
    const cz_eng_family *f = family(j);
    cz_eng_proof p;
    f->h->proof(f, req->input, &p, NULL, 0); /* check found it */
    fc_job *fj = record(j, p.sector);
    if (fj == NULL || (fj->in = calloc(1, f->h->input_size)) == NULL)
        return CZ_ERR_NOMEM;
    cz_buf_tag tag = {j->seq, UINT32_MAX, "queued"};
    cz_resv_allocator_init(&fj->ra, e->request_pool, &tag);
    cz_eng_admit a = {.e = e,
                      .f = f,
                      .req = req->input,
                      .sector = p.sector,
                      .pool = cz_eng_synth_pool(e, req->priority),
                      .alloc = &fj->ra.a};
    return f->h->admit(&a, fj->in, err, errlen);
}

void cz_eng_family_release(job *j)
{
    fc_job *fj = j->in;
    if (fj && fj->in) {
        family(j)->h->release(fj->in);
        free(fj->in);
    }
    free(fj);
    j->in = NULL;
}

int cz_eng_family_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen)
{
    const cz_eng_family *f = family(j);
    const char *size = id + strlen(j->k->circuit_prefix);
    const cz_fc_shape *s = NULL;
    for (int i = 0; i < CZ_FC__SHAPES; i++)
        if (!strcmp(size, SIZE_ID[i]))
            s = cz_fc_shape_get((cz_fc_shape_id)i);
    if (s == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOT_FOUND,
                       "%s is not a %s circuit id (%s2k, -8m, -512m, -32g, -64g)", id, f->what,
                       j->k->circuit_prefix);
    if (e->param_cache == NULL)
        return no_cache(f, err, errlen);
    int rc = files_present(e, f, s, err, errlen);
    if (rc == CZ_OK && record(j, s) == NULL)
        rc = CZ_ERR_NOMEM;
    return rc;
}

int cz_eng_family_load(cz_engine *e, circuit *c, const job *j)
{
    const cz_eng_family *f = family(j);
    const fc_job *fj = j->in;
    char base[CZ_FC_PARAMS_NAME], what[64], why[CZ_JOB_MSG_MAX - CZ_JOB_ID_MAX];
    cz_fc_param_load o = {.pool = e->pool, .alloc = &c->ra.a, .what = what};
    int rc = f->h->circuit(f, fj->sector, base, &o.n_in, &o.n_aux);
    if (rc != CZ_OK)
        return rc;
    snprintf(what, sizeof what, "%s %s", fj->sector->name, f->what);
    /* the decoded parameters and the mapped pre-compiled circuit, in one
     * reservation */
    size_t params, pce;
    rc = cz_fc_param_files_sizes(e->param_cache, base, &params, &pce, why, sizeof why);
    if (rc != CZ_OK)
        return cz_fail(c->load_msg, sizeof c->load_msg, rc, "loading %s: %s", c->id, why);
    uint64_t total = cz_mem_charge(params) + cz_mem_charge(pce);
    uint64_t room = cz_budget_total(e->budget) - cz_resv_size(e->request_pool);
    if (total > room)
        return cz_fail(c->load_msg, sizeof c->load_msg, CZ_ERR_TOO_BIG,
                       "loading %s needs %llu bytes (parameters %zu, pre-compiled circuit %zu), "
                       "but the memory budget less the request pool is %llu bytes",
                       c->id, (unsigned long long)total, params, pce, (unsigned long long)room);
    cz_wait_key key = {(int)j->prio, j->seq, 0};
    rc =
        cz_eng_reserve(e, total, &key, &j->cancel, NULL, &c->resv, c->load_msg, sizeof c->load_msg);
    if (rc != CZ_OK)
        return rc;
    cz_resv_allocator_init(&c->ra, c->resv, &cz_eng_params_tag);
    unsigned insecure;
    rc = cz_fc_param_files_load(e->param_cache, base, &o, &c->own_params, &c->own_r1cs, &insecure,
                                why, sizeof why);
    if (rc != CZ_OK)
        return cz_fail(c->load_msg, sizeof c->load_msg, rc, "loading %s: %s", c->id, why);
    c->params = &c->own_params;
    c->r1cs = c->own_r1cs;
    static const char *const EXT[] = {".params", ".vk"};
    for (int i = 0; i < 2; i++)
        if (insecure & (1u << i))
            fprintf(e->log,
                    "cuzk: %s: %s%s is an INSECURE generated file (listed in %s): for tests and "
                    "benchmarks only\n",
                    c->id, base, EXT[i], CZ_FC_GENERATED_DIGESTS);
    fflush(e->log);
    return CZ_OK;
}

int cz_eng_family_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen)
{
    const cz_eng_family *f = family(j);
    const fc_job *fj = j->in;
    char why[CZ_JOB_MSG_MAX - 64] = "";
    int rc = f->h->witness(f, fj->in, p->idx, p->w, p->n_w, cz_eng_synth_pool(e, j->prio), why,
                           sizeof why);
    if (rc == CZ_ERR_BAD_PROOF)
        return cz_fail(msg, msglen, rc, "%s", why);
    if (rc != CZ_OK)
        return cz_fail(msg, msglen, rc, "the witness of partition %u failed: %s", p->idx,
                       why[0] ? why : cz_strerror(rc));
    size_t n, bad;
    f->h->public_inputs(fj->in, p->idx, NULL, &n);
    cz_fr *want = malloc(n * sizeof *want);
    if (want == NULL)
        return CZ_ERR_NOMEM;
    rc = f->h->public_inputs(fj->in, p->idx, want, &n);
    if (rc == CZ_OK && cz_r1cs_num_inputs(p->c->r1cs) != 1 + n)
        rc = CZ_ERR_BAD_FORMAT;
    for (bad = 0; rc == CZ_OK && bad < n; bad++)
        if (!cz_fr_equal(&want[bad], &p->w[1 + bad]))
            break;
    free(want);
    if (rc != CZ_OK)
        return cz_fail(msg, msglen, rc, "the public inputs of partition %u cannot be computed: %s",
                       p->idx, cz_strerror(rc));
    if (bad < n)
        return cz_fail(msg, msglen, CZ_ERR_BAD_PROOF,
                       "partition %u: public input %zu of the witness is not the one %s computes",
                       p->idx, bad, f->verifier);
    return CZ_OK;
}

bool cz_eng_family_enabled(const cz_engine *e) { return e->param_cache != NULL; }

/* ------------------------------------------------------------- blobs --- */

void cz_eng_digest_blobs(cz_sha256_ctx *h, const uint8_t *const *b, const size_t *len, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cz_sha256_update_u64(h, len[i]);
        cz_sha256_update(h, b[i], len[i]);
    }
}

typedef struct {
    const cz_eng_admit *a;
    void *in;
    cz_eng_blob_fn *check;
    int *rc;
    char (*why)[400];
} check_job;

static void check_range(void *arg, size_t begin, size_t end)
{
    check_job *c = arg;
    for (size_t i = begin; i < end; i++)
        c->rc[i] = c->check(c->a, c->in, i, c->why[i], sizeof c->why[i]);
}

int cz_eng_admit_blobs(const cz_eng_admit *a, void *in, size_t n, cz_eng_blob_fn *read,
                       cz_eng_blob_fn *check, size_t *bad, char *why, size_t whylen, char *err,
                       size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        int rc = read(a, in, i, why, whylen);
        if (rc == CZ_ERR_NOMEM)
            return cz_eng_pool_full(a->e, "these vanilla proofs", err, errlen);
        if (rc != CZ_OK)
            return cz_fail(err, errlen, rc, "vanilla_proofs[%zu]: %s", i, why);
    }
    check_job c = {a, in, check, calloc(n ? n : 1, sizeof *c.rc), calloc(n ? n : 1, sizeof *c.why)};
    int rc = c.rc && c.why ? CZ_OK : cz_fail(err, errlen, CZ_ERR_NOMEM, "out of memory");
    if (rc == CZ_OK)
        cz_pool_parallel_for(a->pool, n, 1, check_range, &c);
    for (size_t i = 0; rc == CZ_OK && i < n; i++) {
        if ((rc = c.rc[i]) == CZ_OK)
            continue;
        *bad = i;
        cz_msgf(why, whylen, "%s", c.why[i]);
        if (rc == CZ_ERR_BAD_PROOF || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_INVALID_ARG)
            rc = CZ_ERR_BAD_PROOF;
        else
            cz_msgf(err, errlen, "vanilla_proofs[%zu]: verifying it failed: %s", i, c.why[i]);
    }
    free(c.rc);
    free(c.why);
    return rc;
}
