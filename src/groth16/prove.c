/* The Groth16 prover, split in two halves (see groth16.h).
 *
 * With w the assignment, r and s the blinding factors:
 *   A  = alpha + sum_i w_i a_i + r delta                      (G1)
 *   B  = beta  + sum_i w_i b_i + s delta                      (G2; B1 in G1)
 *   C  = sum_k h_k H_k + sum_j aux_j l_j + s A + r B1 - r s delta
 * where the H_k scalars are the coefficients of (A B - C) / Z (bellperson)
 * or the evaluations of A B - C on the odd coset (snarkjs), and a_i, b_i
 * only exist for the assignment entries the densities select.
 *
 * prove_start does everything that reads the assignment in bulk (SpMV, H
 * and the four G1 MSMs); the pending handle keeps the three G1 partial sums,
 * the compacted B_g2 scalars and r, s.  prove_finish runs the B_g2 MSM and
 * the constant-time blinding, so an engine can overlap it with the next
 * proof's first half. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "cuzk/rand.h"
#include "groth16/g16_internal.h"

struct cz_groth16_pending {
    const cz_groth16_params *p;
    cz_pool *pool;
    cz_groth16_timings *timings;
    const cz_allocator *alloc;
    cz_groth16_prove_sizes sz;
    cz_fr r, s;
    cz_g1 a_sum, b1_sum, hl_sum; /* sum w_i a_i, sum w_i b1_i, H + L */
    size_t n_b2;
    cz_fr *b2_scalars; /* n_b2, the B-selected assignment entries */
    bool b2_done;      /* GPU back end: b2_sum computed by prove_start, */
    cz_g2 b2_sum;
    double b2_time;    /* in b2_time seconds there */
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* opts->yield between two steps of prove_start: the seconds it took,
 * which the timings leave out. */
static double pause_for(const cz_groth16_prove_opts *o)
{
    if (o->yield == NULL)
        return 0;
    double t = now();
    o->yield(o->yield_ctx);
    return now() - t;
}

static bool bit(const uint64_t *d, size_t i) { return (d[i / 64] >> (i % 64)) & 1; }

/* The counts params must have for r1cs; CZ_OK or CZ_ERR_BAD_FORMAT with a
 * message naming the first mismatch. */
static int check_shape(const cz_groth16_params *p, const cz_r1cs *r, char *err, size_t errlen)
{
    size_t n_in = cz_r1cs_num_inputs(r), n_aux = cz_r1cs_num_aux(r), ca, cbi, cba;
    cz_r1cs_density(r, CZ_DENSITY_A_AUX, &ca);
    cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &cbi);
    cz_r1cs_density(r, CZ_DENSITY_B_AUX, &cba);
    unsigned logm = cz_groth16_log_domain(cz_r1cs_num_constraints(r));
    if (logm > CZ_NTT_MAX_LOG) {
        cz_msgf(err, errlen, "prove: %zu constraints exceed the largest domain 2^%d",
                cz_r1cs_num_constraints(r), CZ_NTT_MAX_LOG);
        return CZ_ERR_INVALID_ARG;
    }
    size_t m = (size_t)1 << logm;
    struct {
        const char *name;
        size_t have, want;
    } q[] = {
        {"ic", p->vk.n_ic, n_in},       {"l", p->n_l, n_aux},
        {"a", p->n_a, n_in + ca},       {"b_g1", p->n_b_g1, cbi + cba},
        {"b_g2", p->n_b_g2, cbi + cba}, {"h", p->n_h, p->flavor == CZ_GROTH16_SNARKJS ? m : m - 1},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        if (q[i].have != q[i].want) {
            cz_msgf(err, errlen,
                    "prove: parameters do not match the constraint system: query %s has %zu "
                    "points, the circuit needs %zu",
                    q[i].name, q[i].have, q[i].want);
            return CZ_ERR_BAD_FORMAT;
        }
    }
    if (p->flavor != CZ_GROTH16_BELLPERSON && p->flavor != CZ_GROTH16_SNARKJS) {
        cz_msgf(err, errlen, "prove: unknown parameter flavor %d", (int)p->flavor);
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

/* r, s uniform in Fr from 64 bytes of OS randomness each. */
static int draw_rs(cz_fr *r, cz_fr *s)
{
    uint8_t buf[128];
    if (cz_os_random(buf, sizeof buf) != CZ_OK)
        return CZ_ERR_RNG;
    cz_fr_from_bytes_wide(r, buf);
    cz_fr_from_bytes_wide(s, buf + 64);
    cz_groth16_wipe(buf, sizeof buf);
    return CZ_OK;
}

static size_t round_align(size_t n)
{
    return (n + CZ_MSM_SCRATCH_ALIGN - 1) & ~(size_t)(CZ_MSM_SCRATCH_ALIGN - 1);
}

void cz_groth16_prove_sizes_of(cz_groth16_prove_sizes *s, const cz_groth16_params *p,
                               const cz_r1cs *r, unsigned nthreads, cz_backend backend)
{
    size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r);
    unsigned logm = cz_groth16_log_domain(cz_r1cs_num_constraints(r));
    size_t m = (size_t)1 << (logm > CZ_NTT_MAX_LOG ? CZ_NTT_MAX_LOG : logm);
    size_t big = p->n_h > n ? p->n_h : n;
    s->abc = 3 * m * sizeof(cz_fr);
    if (backend == CZ_BACKEND_GPU) { /* every MSM on the device */
        if (p->flavor == CZ_GROTH16_BELLPERSON)
            s->abc = 0; /* and a, b, c */
        s->b2_scalars = s->finish_scratch = 0;
        /* where a device plan with one H vector parks its values */
        s->start_scratch = p->flavor == CZ_GROTH16_BELLPERSON ? cz_cuda_groth16_spill_bytes(p) : 0;
        return;
    }
    s->start_scratch = round_align(cz_g1_msm_scratch_bytes(big ? big : 1, nthreads, 0));
    s->b2_scalars = (p->n_b_g2 ? p->n_b_g2 : 1) * sizeof(cz_fr);
    s->finish_scratch =
        round_align(cz_g2_msm_scratch_bytes(p->n_b_g2 ? p->n_b_g2 : 1, nthreads, 0));
}

typedef struct {
    cz_fr *a, *b, *c;
} ab_ctx;

static void ab_task(void *ctx, size_t begin, size_t end)
{
    const ab_ctx *x = ctx;
    for (size_t i = begin; i < end; i++)
        cz_fr_mul(&x->c[i], &x->a[i], &x->b[i]);
}

void cz_groth16_pending_free(cz_groth16_pending *pd)
{
    if (pd == NULL)
        return;
    cz_groth16_wipe(&pd->r, sizeof pd->r);
    cz_groth16_wipe(&pd->s, sizeof pd->s);
    if (pd->b2_scalars)
        cz_free(pd->alloc, pd->b2_scalars, pd->sz.b2_scalars);
    free(pd);
}

/* The device layer's views of p and r1cs (rows: r1cs's constraints); for
 * the bellperson flavour r1cs's free hook becomes the device copy's
 * release (CZ_ERR_BUSY when another layer holds it: a copy could go
 * stale). */
static int device_views(const cz_groth16_params *p, const cz_r1cs *r1cs, cz_cuda_params_view *v,
                        cz_cuda_r1cs_view *rv)
{
    *v = (cz_cuda_params_view){p,      p->h,   p->l,   p->a,      p->b_g1,  p->b_g2,
                               p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    *rv = (cz_cuda_r1cs_view){r1cs, cz_r1cs_num_constraints(r1cs),
                              cz_r1cs_num_inputs(r1cs) + cz_r1cs_num_aux(r1cs), {{0}}};
    for (int k = 0; k < 3; k++) {
        const cz_csr *x = cz_r1cs_matrix(r1cs, k);
        rv->m[k] = (cz_cuda_csr){x->row_blk, x->row_off, x->coef_blk, x->col,
                                 x->gidx,    x->dict,    x->nnz,      x->ngen, x->ndict};
    }
    if (p->flavor == CZ_GROTH16_BELLPERSON && !cz_r1cs_set_free_hook(r1cs, cz_cuda_r1cs_release))
        return CZ_ERR_BUSY;
    return CZ_OK;
}

int cz_groth16_prepare_device(const cz_groth16_params *p, const cz_r1cs *r1cs, bool *resident,
                              char *err, size_t errlen)
{
    if (resident)
        *resident = false;
    if (p == NULL || r1cs == NULL || resident == NULL) {
        cz_msgf(err, errlen, "prepare: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = check_shape(p, r1cs, err, errlen);
    if (rc != CZ_OK)
        return rc;
    char why[512];
    if ((rc = cz_cuda_device_check(-1, why, sizeof why)) != CZ_OK)
        return cz_fail(err, errlen, rc, "prepare: %s", why);
    cz_cuda_params_view v;
    cz_cuda_r1cs_view rv;
    if ((rc = device_views(p, r1cs, &v, &rv)) != CZ_OK) {
        cz_msgf(err, errlen, "prepare: the constraint system's free hook is taken");
        return rc;
    }
    size_t m = (size_t)1 << cz_groth16_log_domain(cz_r1cs_num_constraints(r1cs));
    why[0] = 0;
    rc = cz_cuda_groth16_prepare(&v, m, p->flavor == CZ_GROTH16_BELLPERSON ? &rv : NULL,
                                 cz_r1cs_num_inputs(r1cs), cz_r1cs_num_aux(r1cs), resident, why,
                                 sizeof why);
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "prepare: %s%s", why[0] ? why : cz_strerror(rc),
                cz_groth16_params_has_queries(p) ? "" : " (the parameters' host copy was dropped)");
    return rc;
}

int cz_groth16_device_plan_bytes(const cz_groth16_params *p, const cz_r1cs *r1cs,
                                 uint64_t *least, uint64_t *whole)
{
    if (p == NULL || r1cs == NULL || least == NULL || whole == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc = check_shape(p, r1cs, NULL, 0);
    cz_cuda_params_view v;
    cz_cuda_r1cs_view rv;
    if (rc == CZ_OK)
        rc = device_views(p, r1cs, &v, &rv);
    if (rc != CZ_OK)
        return rc;
    size_t m = (size_t)1 << cz_groth16_log_domain(cz_r1cs_num_constraints(r1cs));
    return cz_cuda_groth16_plan_bytes(&v, m, p->flavor == CZ_GROTH16_BELLPERSON ? &rv : NULL,
                                      cz_r1cs_num_inputs(r1cs), cz_r1cs_num_aux(r1cs), least,
                                      whole);
}

/* The GPU back end's prove_start.  bellperson flavor (abc NULL): a, b, c,
 * H and every MSM on the device, from w and r1cs's matrices (their device
 * copy lives until r1cs is freed: cz_cuda_r1cs_release is its free hook);
 * snarkjs flavor: a, b, c = a b on the CPU (abc, 3 m values), then the
 * odd-coset H and every MSM on the device.  The B_g2 sum is kept for
 * prove_finish. */
static int gpu_start(cz_groth16_pending *pd, const cz_ntt_domain *dom, const cz_fr *abc,
                     size_t rows, const cz_fr *w, size_t n_in, size_t n_aux, const cz_r1cs *r1cs,
                     cz_fr *spill, const cz_groth16_prove_opts *opts, cz_groth16_timings *tm,
                     char *err, size_t errlen)
{
    const cz_groth16_params *p = pd->p;
    size_t cnt;
    const uint64_t *dens[3] = {cz_r1cs_density(r1cs, CZ_DENSITY_A_AUX, &cnt),
                               cz_r1cs_density(r1cs, CZ_DENSITY_B_INPUT, &cnt),
                               cz_r1cs_density(r1cs, CZ_DENSITY_B_AUX, &cnt)};
    cz_cuda_params_view v;
    cz_cuda_r1cs_view rv;
    int rc = device_views(p, r1cs, &v, &rv);
    if (rc != CZ_OK)
        return rc;
    cz_cuda_groth16_sums s;
    cz_cuda_proof_opts y = {opts->yield, opts->yield_ctx, opts->no_wait, spill, opts->staged};
    if (abc == NULL) {
        rc = cz_cuda_groth16_start_r1cs(&s, &v, dom, &rv, w, n_in, n_aux, dens, &y, err,
                                        errlen);
    } else {
        size_t m = cz_ntt_domain_size(dom);
        rc = cz_cuda_groth16_start(&s, &v, dom, abc, abc + m, abc + 2 * m, rows, 1, w, n_in,
                                   n_aux, dens, &y, err, errlen);
    }
    if (rc != CZ_OK)
        return rc;
    if (abc == NULL)
        tm->spmv = (s.ms.upload + s.ms.spmv) / 1e3;
    tm->h = s.ms.h / 1e3;
    tm->msm_h = s.ms.msm_h / 1e3;
    tm->msm_l = s.ms.msm_l / 1e3;
    tm->msm_a = s.ms.msm_a / 1e3;
    tm->msm_b_g1 = s.ms.msm_b_g1 / 1e3;
    tm->link_bytes = s.ms.link_bytes;
    tm->link_s = s.ms.link_ms / 1e3;
    cz_g1_add(&pd->hl_sum, &s.h, &s.l);
    pd->a_sum = s.a;
    pd->b1_sum = s.b_g1;
    pd->b2_sum = s.b_g2;
    pd->b2_done = true;
    pd->b2_time = s.ms.msm_b_g2 / 1e3;
    return CZ_OK;
}

int cz_groth16_prove_start(cz_groth16_pending **out, const cz_groth16_params *p,
                           const cz_r1cs *r1cs, const cz_fr *w, size_t w_len,
                           const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    static const cz_groth16_prove_opts defaults = {0};
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL) {
        cz_msgf(err, errlen, "prove: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    *out = NULL;
    if (p == NULL || r1cs == NULL || w == NULL) {
        cz_msgf(err, errlen, "prove: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    if (opts == NULL)
        opts = &defaults;
    if (opts->backend != CZ_BACKEND_CPU && opts->backend != CZ_BACKEND_GPU) {
        cz_msgf(err, errlen, "prove: unknown backend %d", (int)opts->backend);
        return CZ_ERR_INVALID_ARG;
    }
    if (opts->backend == CZ_BACKEND_GPU && !cz_cuda_available()) {
        cz_msgf(err, errlen, "prove: the GPU back end was asked for but no CUDA device is there");
        return CZ_ERR_UNSUPPORTED;
    }
    char why[512];
    int drc = opts->backend == CZ_BACKEND_GPU ? cz_cuda_device_check(-1, why, sizeof why) : CZ_OK;
    if (drc != CZ_OK)
        return cz_fail(err, errlen, drc, "prove: %s", why);
    size_t n_in = cz_r1cs_num_inputs(r1cs), n_aux = cz_r1cs_num_aux(r1cs);
    if (w_len != n_in + n_aux) {
        cz_msgf(err, errlen,
                "prove: the assignment has %zu values, the circuit %zu (%zu inputs + %zu aux)",
                w_len, n_in + n_aux, n_in, n_aux);
        return CZ_ERR_INVALID_ARG;
    }
    int rc = check_shape(p, r1cs, err, errlen);
    if (rc != CZ_OK)
        return rc;
    if (opts->backend == CZ_BACKEND_CPU && !cz_groth16_params_has_queries(p)) {
        cz_msgf(err, errlen, "prove: the parameters' query points live on the GPUs only (their "
                             "host copy was dropped): the CPU back end cannot use them");
        return CZ_ERR_UNSUPPORTED;
    }
    if (opts->backend == CZ_BACKEND_GPU && p->flavor == CZ_GROTH16_BELLPERSON) {
        /* the device's plan first (made once): whether it parks H's values
         * in host memory decides the sizes below */
        bool resident;
        if ((rc = cz_groth16_prepare_device(p, r1cs, &resident, err, errlen)) != CZ_OK)
            return rc;
    }

    size_t rows = cz_r1cs_num_constraints(r1cs);
    unsigned logm = cz_groth16_log_domain(rows);
    size_t m = (size_t)1 << logm;
    cz_pool *pool = opts->pool;
    cz_groth16_prove_sizes sz;
    cz_groth16_prove_sizes_of(&sz, p, r1cs, cz_msm_nthreads(pool), opts->backend);
    size_t sbytes = sz.start_scratch;
    size_t ca, cbi, cba;
    const uint64_t *da = cz_r1cs_density(r1cs, CZ_DENSITY_A_AUX, &ca);
    const uint64_t *dbi = cz_r1cs_density(r1cs, CZ_DENSITY_B_INPUT, &cbi);
    const uint64_t *dba = cz_r1cs_density(r1cs, CZ_DENSITY_B_AUX, &cba);

    const cz_allocator *al = opts->alloc;
    cz_groth16_pending *pd = calloc(1, sizeof *pd);
    cz_fr *abc = sz.abc ? cz_alloc(al, CZ_BUF_ABC, sz.abc) : NULL;
    void *scratch = sbytes ? cz_alloc(al, CZ_BUF_SCRATCH, sbytes) : NULL;
    cz_ntt_domain *dom = NULL;
    if (pd != NULL) {
        pd->alloc = al;
        pd->sz = sz;
        if (sz.b2_scalars)
            pd->b2_scalars = cz_alloc(al, CZ_BUF_PENDING, sz.b2_scalars);
    }
    if (pd == NULL || (sz.abc && abc == NULL) || (sbytes && scratch == NULL) ||
        (sz.b2_scalars && pd->b2_scalars == NULL) ||
        cz_ntt_domain_new_root(&dom, logm,
                               p->flavor == CZ_GROTH16_SNARKJS ? CZ_NTT_ROOT_SNARKJS
                                                               : CZ_NTT_ROOT_BELLPERSON) != CZ_OK) {
        cz_msgf(err, errlen, "prove: out of memory (%zu bytes for a, b, c and %zu of scratch)",
                sz.abc, sbytes);
        rc = CZ_ERR_NOMEM;
        goto fail;
    }
    pd->p = p;
    pd->pool = pool;
    pd->timings = opts->timings;
    if (opts->rs != NULL) {
        pd->r = opts->rs[0];
        pd->s = opts->rs[1];
    } else if ((rc = draw_rs(&pd->r, &pd->s)) != CZ_OK) {
        cz_msgf(err, errlen, "prove: the OS random source failed");
        goto fail;
    }
    cz_groth16_timings tm = {0};
    double t0 = now(), t1 = t0;
    /* a, b, c = A w, B w, C w (snarkjs: c = a b); abc NULL: the GPU computes
     * them itself. */
    cz_fr *a = abc, *b = NULL, *c = NULL;
    if (abc != NULL) {
        b = abc + m;
        c = abc + 2 * m;
        if (p->flavor == CZ_GROTH16_SNARKJS) {
            cz_r1cs_spmv(r1cs, w, w_len, a, b, NULL, pool);
            ab_ctx x = {a, b, c};
            cz_pool_parallel_for(pool, rows, 4096, ab_task, &x);
        } else {
            cz_r1cs_spmv(r1cs, w, w_len, a, b, c, pool);
        }
        t1 = now();
        tm.spmv = t1 - t0;
    }
    /* On the GPU: everything, or with abc (snarkjs) H and the MSMs. */
    if (abc == NULL || opts->backend == CZ_BACKEND_GPU) {
        why[0] = 0;
        rc = gpu_start(pd, dom, abc, rows, w, n_in, n_aux, r1cs, abc ? NULL : scratch, opts, &tm,
                       why, sizeof why);
        if (rc != CZ_OK) {
            cz_msgf(err, errlen, "prove: GPU back end failed: %s", why[0] ? why : cz_strerror(rc));
            goto fail;
        }
        goto done;
    }
    if (p->flavor == CZ_GROTH16_SNARKJS)
        rc = cz_groth16_h_odd_coset(dom, a, b, c, rows, pool);
    else
        rc = cz_groth16_h(dom, a, b, c, rows, pool);
    if (rc != CZ_OK) {
        cz_msgf(err, errlen, "prove: H computation failed: %s", cz_strerror(rc));
        goto fail;
    }
    double t2 = now();
    tm.h = t2 - t1;
    t2 += pause_for(opts);

    /* G1 MSMs; arguments were checked above, so they cannot fail. */
    cz_g1 h_sum, l_sum, t;
    cz_g1_msm(&h_sum, p->h, a, p->n_h, 0, pool, scratch, sbytes);
    double t3 = now();
    tm.msm_h = t3 - t2;
    t3 += pause_for(opts);
    cz_g1_msm(&l_sum, p->l, w + n_in, n_aux, 0, pool, scratch, sbytes);
    cz_g1_add(&pd->hl_sum, &h_sum, &l_sum);
    double t4 = now();
    tm.msm_l = t4 - t3;
    t4 += pause_for(opts);
    cz_g1_msm(&pd->a_sum, p->a, w, n_in, 0, pool, scratch, sbytes);
    cz_g1_msm_density(&t, p->a + n_in, ca, w + n_in, da, n_aux, 0, pool, scratch, sbytes);
    cz_g1_add(&pd->a_sum, &pd->a_sum, &t);
    double t5 = now();
    tm.msm_a = t5 - t4;
    t5 += pause_for(opts);
    cz_g1_msm_density(&pd->b1_sum, p->b_g1, cbi, w, dbi, n_in, 0, pool, scratch, sbytes);
    cz_g1_msm_density(&t, p->b_g1 + cbi, cba, w + n_in, dba, n_aux, 0, pool, scratch, sbytes);
    cz_g1_add(&pd->b1_sum, &pd->b1_sum, &t);
    tm.msm_b_g1 = now() - t5;

    /* The B_g2 scalars, compacted (the witness is not kept). */
    size_t k = 0;
    for (size_t i = 0; i < n_in; i++)
        if (bit(dbi, i))
            pd->b2_scalars[k++] = w[i];
    for (size_t i = 0; i < n_aux; i++)
        if (bit(dba, i))
            pd->b2_scalars[k++] = w[n_in + i];
    pd->n_b2 = k;
done:
    if (pd->timings != NULL) {
        pd->timings->spmv = tm.spmv;
        pd->timings->h = tm.h;
        pd->timings->msm_h = tm.msm_h;
        pd->timings->msm_l = tm.msm_l;
        pd->timings->msm_a = tm.msm_a;
        pd->timings->msm_b_g1 = tm.msm_b_g1;
        pd->timings->link_bytes = tm.link_bytes;
        pd->timings->link_s = tm.link_s;
    }
    if (abc)
        cz_free(al, abc, sz.abc);
    if (scratch)
        cz_free(al, scratch, sbytes);
    cz_ntt_domain_free(dom);
    *out = pd;
    return CZ_OK;
fail:
    if (abc)
        cz_free(al, abc, sz.abc);
    if (scratch)
        cz_free(al, scratch, sbytes);
    cz_ntt_domain_free(dom);
    cz_groth16_pending_free(pd);
    return rc;
}

int cz_groth16_prove_finish(cz_groth16_proof *proof, cz_groth16_pending *pd)
{
    if (proof == NULL || pd == NULL) {
        cz_groth16_pending_free(pd);
        return CZ_ERR_INVALID_ARG;
    }
    const cz_groth16_params *p = pd->p;
    double t0 = now();
    cz_g2 b2, t2, delta2, beta2;
    if (pd->b2_done) {
        b2 = pd->b2_sum;
    } else {
        /* through the caller's allocator: the reservation covers it */
        size_t sbytes = pd->sz.finish_scratch;
        void *scratch = cz_alloc(pd->alloc, CZ_BUF_SCRATCH, sbytes);
        if (scratch == NULL) {
            cz_groth16_pending_free(pd);
            return CZ_ERR_NOMEM;
        }
        cz_g2_msm(&b2, p->b_g2, pd->b2_scalars, pd->n_b2, 0, pd->pool, scratch, sbytes);
        cz_free(pd->alloc, scratch, sbytes);
    }
    double t1 = now();

    /* Blinding, constant time in r, s and r s. */
    cz_g1 delta1, g_a, b1, g_c, t;
    cz_fr rs;
    cz_g1_from_affine(&delta1, &p->vk.delta_g1);
    cz_g2_from_affine(&delta2, &p->vk.delta_g2);
    cz_g2_from_affine(&beta2, &p->vk.beta_g2);

    /* Public sums with variable-time additions, then every term that
     * depends on r or s through complete (constant-time) additions. */
    cz_g1_add_affine(&g_a, &pd->a_sum, &p->vk.alpha_g1); /* A */
    cz_g1_mul(&t, &delta1, &pd->r);
    cz_g1_add_ct(&g_a, &g_a, &t);

    cz_g1_add_affine(&b1, &pd->b1_sum, &p->vk.beta_g1); /* B1 */
    cz_g1_mul(&t, &delta1, &pd->s);
    cz_g1_add_ct(&b1, &b1, &t);

    cz_g2_add(&b2, &b2, &beta2); /* B */
    cz_g2_mul(&t2, &delta2, &pd->s);
    cz_g2_add_ct(&b2, &b2, &t2);

    cz_g1_mul(&g_c, &g_a, &pd->s); /* C = H + L + s A + r B1 - r s delta */
    cz_g1_add_ct(&g_c, &g_c, &pd->hl_sum);
    cz_g1_mul(&t, &b1, &pd->r);
    cz_g1_add_ct(&g_c, &g_c, &t);
    cz_fr_mul(&rs, &pd->r, &pd->s);
    cz_g1_mul(&t, &delta1, &rs);
    cz_g1_neg(&t, &t);
    cz_g1_add_ct(&g_c, &g_c, &t);
    cz_groth16_wipe(&rs, sizeof rs);

    cz_g1_to_affine(&proof->a, &g_a);
    cz_g2_to_affine(&proof->b, &b2);
    cz_g1_to_affine(&proof->c, &g_c);
    if (pd->timings != NULL) {
        pd->timings->msm_b_g2 = pd->b2_done ? pd->b2_time : t1 - t0;
        pd->timings->assemble = now() - t1;
    }
    cz_groth16_pending_free(pd);
    return CZ_OK;
}

int cz_groth16_prove(cz_groth16_proof *proof, const cz_groth16_params *params, const cz_r1cs *r1cs,
                     const cz_fr *w, size_t w_len, const cz_groth16_prove_opts *opts, char *err,
                     size_t errlen)
{
    cz_groth16_pending *pd;
    if (proof == NULL) {
        cz_msgf(err, errlen, "prove: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_groth16_prove_start(&pd, params, r1cs, w, w_len, opts, err, errlen);
    if (rc != CZ_OK)
        return rc;
    rc = cz_groth16_prove_finish(proof, pd);
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "prove: %s", cz_strerror(rc));
    return rc;
}

int cz_groth16_prove_batch(cz_groth16_proof *proofs, const cz_groth16_params *params,
                           const cz_r1cs *r1cs, const cz_fr *const *w, size_t n, size_t w_len,
                           const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    if (n == 0)
        return CZ_OK;
    if (proofs == NULL || w == NULL) {
        cz_msgf(err, errlen, "prove: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    cz_groth16_pending **pd = calloc(n, sizeof *pd);
    if (pd == NULL) {
        cz_msgf(err, errlen, "prove: out of memory");
        return CZ_ERR_NOMEM;
    }
    cz_groth16_prove_opts o = opts ? *opts : (cz_groth16_prove_opts){0};
    int rc = CZ_OK;
    size_t started = 0;
    for (; started < n; started++) {
        o.rs = opts && opts->rs ? opts->rs + 2 * started : NULL;
        rc = cz_groth16_prove_start(&pd[started], params, r1cs, w[started], w_len, &o, err, errlen);
        if (rc != CZ_OK)
            break;
    }
    cz_groth16_proof *tmp = rc == CZ_OK ? malloc(n * sizeof *tmp) : NULL;
    if (rc == CZ_OK && tmp == NULL) {
        cz_msgf(err, errlen, "prove: out of memory");
        rc = CZ_ERR_NOMEM;
    }
    for (size_t i = 0; i < started; i++) {
        if (rc != CZ_OK) {
            cz_groth16_pending_free(pd[i]);
            continue;
        }
        rc = cz_groth16_prove_finish(&tmp[i], pd[i]);
        if (rc != CZ_OK)
            cz_msgf(err, errlen, "prove: proof %zu: %s", i, cz_strerror(rc));
    }
    if (rc == CZ_OK)
        memcpy(proofs, tmp, n * sizeof *tmp);
    free(tmp);
    free(pd);
    return rc;
}
