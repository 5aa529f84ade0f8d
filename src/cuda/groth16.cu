/* Groth16 prove_start on the GPU (include/cuzk/cuda.h): H and every MSM of
 * a bellperson-flavoured proof on the device, under a device memory plan
 * (devplan.h, docs/device-memory.md).
 *
 * Parameters: on a set's first use on a device its plan is made from the
 * device budget less what is kept there already (other sets' copies,
 * matrices, tables), and the query arrays it keeps resident are copied
 * there until cz_cuda_params_release(key) (cz_groth16_params_free calls
 * it), so a circuit that proves many partitions uploads them once.  The
 * arrays it streams stay in host memory, page-locked in place
 * (cudaHostRegister) until the release, and travel per proof through one
 * base pipe (base_pipe.h) in the order the MSMs consume them, the next
 * chunks' copies under the current chunk's kernels; a streamed MSM keeps
 * its whole window and one bucket array across its chunks
 * (cz_cuda_g1_msm_chunked).
 *
 * A proof reserves its plan's proof_bytes at once (devmem.cu) and draws
 * every buffer from that reservation, in two phases: H (the witness, 3 or
 * 2 vectors: with 2, C's products and transforms reuse B's vector once
 * A B is formed; the matrices' streaming buffers) and the MSMs (the
 * witness, H's scalars until H's MSM is done, one scratch block of the
 * largest MSM's bound, the pipe's two buffers).  When the kept copies have
 * grown since the plan was made (another set's upload), the proof is cut
 * anew for the room left (the same residency, smaller pieces) or refused
 * naming the bytes; a reservation never waits for memory that only a
 * release of kept copies would give back (cz_cuda_mem_reserve).
 *
 * With a constraint system (cz_cuda_groth16_start_r1cs) the witness is
 * the only large upload: a, b, c are its products on the device
 * (spmv.cu), then H and the MSMs; from host vectors (cz_cuda_groth16_start,
 * the snarkjs flavour's path) a, b, c are uploaded on a copy stream under
 * H's transforms into one buffer of three vectors. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/base_pipe.h"
#include "cuda/cuda_err.cuh"
#include "cuda/devmem.cuh"
#include "cuda/devplan.h"
#include "cuda/h_internal.cuh"
#include "cuda/msm_scratch.h"
#include "cuda/spmv.cuh"
#include "cuda/stream_plan.h"
#include "cuda/upload.cuh"
#include "cuda/witness.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

/* Every parameter set in use on a device: its plan, made on the set's
 * first use there, and the copies it keeps resident. */
struct dev_params {
    const void *key;
    int dev;
    void *arr[CZ_Q_COUNT]; /* resident copies (NULL: streamed from the host) */
    cz_devplan_shape shape;
    cz_devplan plan;
    cz_devplan_device model;
    unsigned users; /* proofs using it now: release waits for them */
    dev_params *next;
};

/* The host arrays of a streamed parameter set that this file page-locked
 * (one record per key, shared by every device: the registration is
 * portable). */
struct host_pin {
    const void *key;
    void *ptr[CZ_Q_COUNT];
    host_pin *next;
};

static pthread_mutex_t params_lock = PTHREAD_MUTEX_INITIALIZER;
/* params_list's links also change under list_lock, for readers that must
 * not wait behind a parameter upload under params_lock (the status's
 * cz_cuda_groth16_plan); a dev_params' plan never changes once listed. */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t params_idle = PTHREAD_COND_INITIALIZER;
static dev_params *params_list;
static host_pin *pin_list;

static void dev_params_free(dev_params *d)
{
    for (int q = 0; q < CZ_Q_COUNT; q++)
        cz_cuda_free(d->arr[q]);
    free(d);
}

/* CZ_CUDA_STREAM_PARAMS=1 in the environment streams every parameter set
 * and constraint system first used afterwards (for tests). */
static bool env_flag(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0");
}

/* A size from the environment (0: unset or not a number). */
static size_t env_size(const char *name)
{
    const char *e = getenv(name);
    return e && *e ? (size_t)strtoull(e, NULL, 0) : 0;
}

static const void *host_array(const cz_cuda_params_view *p, int q)
{
    const void *a[CZ_Q_COUNT] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    return a[q];
}

static size_t psize(int q) { return q == CZ_Q_B_G2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine); }

/* Page-locks the host arrays of p that plan pl streams, those not locked
 * yet; called under params_lock.  An array already registered by its
 * owner, or one the system refuses to lock (RLIMIT_MEMLOCK), is left as it
 * is: its chunks are then staged by cz_cuda_upload, slower but correct.
 * CZ_CUDA_PIN_PARAMS=0 in the environment disables the locking. */
static void pin_host(const cz_cuda_params_view *p, const cz_devplan_shape *s, const cz_devplan *pl)
{
    const char *e = getenv("CZ_CUDA_PIN_PARAMS");
    if (e && !strcmp(e, "0"))
        return;
    host_pin *h = NULL;
    for (host_pin *x = pin_list; x; x = x->next)
        if (x->key == p->key)
            h = x;
    if (!h) {
        h = (host_pin *)calloc(1, sizeof *h);
        if (!h)
            return;
        h->key = p->key;
        h->next = pin_list;
        pin_list = h;
    }
    for (int q = 0; q < CZ_Q_COUNT; q++) {
        size_t bytes = (size_t)cz_devplan_query_bytes(s, q);
        void *arr = (void *)host_array(p, q);
        if (pl->resident[q] || h->ptr[q] || !arr || !bytes)
            continue;
        if (cudaHostRegister(arr, bytes, cudaHostRegisterPortable) == cudaSuccess)
            h->ptr[q] = arr;
        else
            cudaGetLastError(); /* left pageable: staged uploads */
    }
}

/* Unlocks what pin_host locked for key; called under params_lock once no
 * device entry of key is left. */
static void unpin_host(const void *key)
{
    for (host_pin **pp = &pin_list; *pp; pp = &(*pp)->next) {
        host_pin *h = *pp;
        if (h->key != key)
            continue;
        for (int q = 0; q < CZ_Q_COUNT; q++)
            if (h->ptr[q] && cudaHostUnregister(h->ptr[q]) != cudaSuccess)
                cudaGetLastError();
        *pp = h->next;
        free(h);
        return;
    }
}

/* Window of the H MSM: its m - 1 scalars are uniformly random, and from
 * 2^26 on c = 20 beats the default 18 (2^27: 1060 against 1106 ms, 2^26:
 * 559 against 571; BENCHMARKS.md), while on witness scalars 20 loses (2^27
 * skewed: 217 against 178), so the others keep the default. */
static unsigned h_window(size_t n_h) { return n_h >= ((size_t)1 << 26) ? 20 : 0; }

/* Window of a witness MSM over nb bases: the H MSM's rule when the
 * witness is dense (its scalars then as random as H's: a Poseidon
 * circuit's, WindowPoSt's, whose index bits are under 1 % of its aux),
 * the default for a witness of mostly 0 and 1 (PoRep's: 45 % each). */
static unsigned w_window(size_t nb, bool dense) { return dense ? h_window(nb) : 0; }

/* The planner's view of this layer's sizes (devplan.h). */
static uint64_t plan_msm_bytes(size_t n, bool g2, bool density, size_t n_scalars, unsigned c,
                               size_t sort)
{
    return cz_cuda_msm_scratch_bytes(n, g2, density, n_scalars, c, sort);
}

static unsigned plan_window(size_t n, bool h, bool dense)
{
    return h ? h_window(n) : w_window(n, dense);
}

static const cz_devplan_costs COSTS = {plan_msm_bytes, plan_window};

/* Device dev's speed against an H200 (SMs times clock) and its link's
 * rate (a 64 MiB copy from page-locked memory, timed once per device; 25
 * GB/s, PCIe 4, when it cannot be measured).  Called under params_lock. */
static cz_devplan_device device_model(int dev)
{
    static cz_devplan_device known[16];
    static bool have[16];
    if (dev >= 0 && dev < 16 && have[dev])
        return known[dev];
    cz_devplan_device m = {1.0, 25.0};
    int sms = 0, khz = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess && sms && khz)
        m.speed = (double)sms * khz / (132.0 * 1980000.0);
    cudaGetLastError();
    const size_t bytes = (size_t)64 << 20;
    void *h = NULL, *d = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (cudaMallocHost(&h, bytes) == cudaSuccess &&
        cz_cuda_malloc(&d, bytes, CZ_BUF_STAGING) == CZ_OK && cudaEventCreate(&e0) == cudaSuccess &&
        cudaEventCreate(&e1) == cudaSuccess) {
        float ms = 0;
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); /* warm */
        cudaEventRecord(e0, 0);
        cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, 0);
        cudaEventRecord(e1, 0);
        if (cudaEventSynchronize(e1) == cudaSuccess &&
            cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess && ms > 0)
            m.link_gbps = (double)bytes / 1e6 / ms;
    }
    cudaGetLastError();
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cz_cuda_free(d);
    if (h)
        cudaFreeHost(h);
    if (dev >= 0 && dev < 16) {
        known[dev] = m;
        have[dev] = true;
    }
    return m;
}

static unsigned log2_of(size_t m)
{
    unsigned k = 0;
    while (((size_t)1 << k) < m)
        k++;
    return k;
}

/* A proof's shape for the planner: p's queries, a domain of m points, r's
 * matrices when a, b, c are made on the device. */
static void shape_of(cz_devplan_shape *s, const cz_cuda_params_view *p, size_t m,
                     const cz_cuda_r1cs_view *r, size_t n_in, size_t n_aux)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->n_in = n_in;
    s->n_aux = n_aux;
    const size_t nb[CZ_Q_COUNT] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    memcpy(s->n_bases, nb, sizeof nb);
    s->n_b_in = n_in < p->n_b_g1 ? n_in : p->n_b_g1;
    s->r1cs = r != NULL;
    s->r1cs_bytes = r ? cz_cuda_r1cs_bytes(r) : 0;
    s->r1cs_stream_bytes = r ? cz_cuda_r1cs_stream_bytes(r) : 0;
    unsigned k = log2_of(m);
    int state = cz_cuda_ntt_tables_state(k);
    uint64_t small = cz_cuda_ntt_tables_bytes(k, false), full = cz_cuda_ntt_tables_bytes(k, true);
    s->tables_bytes = state ? 0 : small;
    s->twiddles_bytes = state == 2 ? 0 : full - small;
    s->spill = r != NULL; /* the proof's caller lends it (cz_cuda_groth16_spill_bytes) */
}

/* p's entry on the current device, made on first use: its plan from the
 * budget less what is kept there already, the resident copies uploaded,
 * the streamed host arrays page-locked.  A set whose host arrays are gone
 * (a device-only set) must keep every array: CZ_ERR_UNSUPPORTED when it
 * cannot.  Called under params_lock. */
static int get_params(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                      size_t n_in, size_t n_aux, dev_params **out, char *err, size_t errlen)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return CZ_ERR_BACKEND;
    }
    for (dev_params *d = params_list; d; d = d->next) {
        if (d->key == p->key && d->dev == dev) {
            *out = d;
            return CZ_OK;
        }
    }
    dev_params *d = (dev_params *)calloc(1, sizeof *d);
    if (!d)
        return CZ_ERR_NOMEM;
    d->key = p->key;
    d->dev = dev;
    d->model = device_model(dev);
    shape_of(&d->shape, p, m, r, n_in, n_aux);
    /* tests: H cut into at most CZ_CUDA_H_VECTORS vectors (1 or 2 need
     * the matrices, 1 a proof's spill too) */
    d->shape.h_most = (unsigned)env_size("CZ_CUDA_H_VECTORS");
    bool host = true;
    for (int q = 0; q < CZ_Q_COUNT; q++)
        host &= host_array(p, q) != NULL || d->shape.n_bases[q] == 0;
    uint64_t held = 0, budget = 0;
    int rc = cz_cuda_mem_kept(&held, &budget);
    /* forced (tests): everything streamed; no host copy: everything kept */
    bool force = env_flag("CZ_CUDA_STREAM_PARAMS");
    cz_devplan fixed;
    memset(&fixed, 0, sizeof fixed);
    for (int q = 0; q < CZ_Q_COUNT; q++)
        fixed.resident[q] = !host;
    fixed.r1cs_resident = !force && r;
    fixed.twiddles_full = true;
    if (!rc)
        rc = cz_devplan_make(&d->plan, &d->shape, &COSTS, &d->model,
                             budget > held ? budget - held : 0, force || !host ? &fixed : NULL,
                             err, errlen);
    if (rc == CZ_ERR_TOO_BIG) {
        char why[256];
        snprintf(why, sizeof why, "%s", err ? err : "");
        rc = cz_fail(err, errlen, host ? CZ_ERR_TOO_BIG : CZ_ERR_UNSUPPORTED,
                     "device %d: %s%s (its budget %.2f GiB, of which %.2f GiB are kept there "
                     "for other circuits and tables)",
                     dev, host ? "" : "the parameters' host copy was dropped and the device "
                                      "cannot keep them all: ",
                     why, (double)budget / (1ull << 30), (double)held / (1ull << 30));
    }
    for (int q = 0; q < CZ_Q_COUNT && !rc; q++) {
        size_t bytes = (size_t)cz_devplan_query_bytes(&d->shape, q);
        if (!d->plan.resident[q] || !bytes)
            continue;
        rc = cz_cuda_malloc(&d->arr[q], bytes, CZ_BUF_PARAMS);
        if (!rc)
            rc = cz_cuda_upload(d->arr[q], host_array(p, q), bytes, 0);
        if (!rc)
            rc = cuda_err(cudaStreamSynchronize(0));
    }
    if (rc) {
        dev_params_free(d);
        return rc;
    }
    bool streams = false;
    for (int q = 0; q < CZ_Q_COUNT; q++)
        streams |= !d->plan.resident[q] && d->shape.n_bases[q];
    if (streams)
        pin_host(p, &d->shape, &d->plan);
    pthread_mutex_lock(&list_lock);
    d->next = params_list;
    params_list = d;
    pthread_mutex_unlock(&list_lock);
    *out = d;
    return CZ_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Dense: fewer than half of up to 4096 evenly spaced aux values are 0 or
 * 1 (Montgomery form, as the MSMs read them). */
static bool witness_dense(const cz_fr *aux, size_t n_aux)
{
    size_t k = n_aux < 4096 ? n_aux : 4096, small = 0;
    for (size_t i = 0; i < k; i++) {
        const cz_fr *v = &aux[i * (n_aux / k)];
        small += cz_fr_is_zero(v) || cz_fr_is_one(v);
    }
    return 2 * small < k;
}

extern "C" {

int cz_cuda_groth16_prepare(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                            size_t n_in, size_t n_aux, bool *resident, char *err, size_t errlen)
{
    if (!resident)
        return CZ_ERR_INVALID_ARG;
    *resident = false;
    if (!p || !p->key || (r && r->cols != n_in + n_aux))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "prepare: bad arguments");
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    pthread_mutex_lock(&params_lock);
    dev_params *dp = NULL;
    int rc = get_params(p, m, r, n_in, n_aux, &dp, err, errlen);
    cz_devplan plan;
    memset(&plan, 0, sizeof plan);
    if (!rc)
        plan = dp->plan;
    pthread_mutex_unlock(&params_lock);
    if (rc)
        return rc;
    bool all = true;
    for (int q = 0; q < CZ_Q_COUNT; q++)
        all &= plan.resident[q];
    cz_cuda_r1cs_use ru = {NULL};
    if (r)
        rc = cz_cuda_r1cs_acquire(r, plan.r1cs_resident, &ru);
    bool r_res = !r || ru.entry != NULL;
    cz_cuda_r1cs_put(&ru);
    *resident = !rc && all && r_res;
    return rc;
}

int cz_cuda_groth16_plan_bytes(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                               size_t n_in, size_t n_aux, uint64_t *least, uint64_t *whole)
{
    if (!p || !least || !whole || m == 0 || (r && r->cols != n_in + n_aux))
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return CZ_ERR_BACKEND;
    }
    cz_devplan_shape s;
    shape_of(&s, p, m, r, n_in, n_aux);
    *least = cz_devplan_min_bytes(&s, &COSTS);
    cz_devplan all;
    memset(&all, 0, sizeof all);
    for (int q = 0; q < CZ_Q_COUNT; q++)
        all.resident[q] = true;
    all.r1cs_resident = r != NULL;
    all.h_vectors = 3;
    all.sort_points = CZ_DEVPLAN_SORT_ALL;
    pthread_mutex_lock(&params_lock);
    cz_devplan_device model = device_model(dev);
    pthread_mutex_unlock(&params_lock);
    cz_devplan_measure(&all, &s, &COSTS, &model);
    *whole = all.kept_bytes + all.proof_bytes;
    return CZ_OK;
}

int cz_cuda_groth16_plan(const void *key, cz_cuda_plan_info *out)
{
    int dev = 0;
    if (!out)
        return CZ_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return CZ_ERR_UNSUPPORTED;
    }
    int rc = CZ_ERR_NOT_FOUND;
    pthread_mutex_lock(&list_lock);
    for (dev_params *d = params_list; d; d = d->next) {
        if (d->key == key && d->dev == dev) {
            out->kept_bytes = d->plan.kept_bytes;
            out->proof_bytes = d->plan.proof_bytes;
            out->streamed_bytes = d->plan.link_bytes;
            cz_devplan_describe(&d->plan, out->text, sizeof out->text);
            rc = CZ_OK;
        }
    }
    pthread_mutex_unlock(&list_lock);
    return rc;
}

size_t cz_cuda_groth16_spill_bytes(const void *key)
{
    size_t most = 0;
    pthread_mutex_lock(&list_lock);
    for (dev_params *d = params_list; d; d = d->next)
        if (d->key == key && d->plan.h_vectors == 1 && d->shape.m * sizeof(cz_fr) > most)
            most = d->shape.m * sizeof(cz_fr);
    pthread_mutex_unlock(&list_lock);
    return most;
}

void cz_cuda_params_release(const void *p)
{
    pthread_mutex_lock(&params_lock);
    int cur = -1;
    bool any = false;
    for (dev_params *d = params_list; d; d = d->next)
        any |= d->key == p;
    if (any && cudaGetDevice(&cur) == cudaSuccess) {
        for (dev_params **pp = &params_list; *pp;) {
            dev_params *d = *pp;
            if (d->key != p) {
                pp = &d->next;
                continue;
            }
            if (d->users) { /* a proof is using it: wait, then look again */
                pthread_cond_wait(&params_idle, &params_lock);
                pp = &params_list;
                continue;
            }
            pthread_mutex_lock(&list_lock);
            *pp = d->next;
            pthread_mutex_unlock(&list_lock);
            cudaSetDevice(d->dev);
            cudaDeviceSynchronize(); /* work queued with them ends first */
            dev_params_free(d);
        }
        cudaSetDevice(cur);
    }
    unpin_host(p); /* after the devices' work with the arrays ended */
    pthread_mutex_unlock(&params_lock);
}

} /* extern "C" */

/* x[i] = op(host[i], x[i]) for i < m (op: a product or a difference, the
 * host operand first), the host values brought a piece at a time into
 * the two device buffers piece[] (cz_devplan_spill_piece bytes each) on
 * stream cp while stream st applies op to the piece before: a piece's
 * upload waits for the op that last read its buffer, the op for its
 * upload.  Returns once every byte has left host (the ops may still run
 * on st). */
static int from_host(cz_fr *x, const cz_fr *host, size_t m, bool mul, cz_fr *const piece[2],
                     cudaStream_t st, cudaStream_t cp)
{
    const size_t per = (size_t)(cz_devplan_spill_piece(m) / sizeof(cz_fr));
    cudaEvent_t ev[4] = {NULL, NULL, NULL, NULL}; /* uploaded into piece b; op on piece b done */
    int rc = CZ_OK;
    for (int i = 0; i < 4 && !rc; i++)
        rc = cuda_err(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    for (size_t off = 0, k = 0; off < m && !rc; off += per, k++) {
        size_t len = m - off < per ? m - off : per;
        int b = (int)(k & 1);
        if (k >= 2)
            rc = cuda_err(cudaStreamWaitEvent(cp, ev[2 + b], 0));
        if (!rc)
            rc = cz_cuda_upload(piece[b], host + off, len * sizeof(cz_fr), cp);
        if (!rc)
            rc = cuda_err(cudaEventRecord(ev[b], cp));
        if (!rc)
            rc = cuda_err(cudaStreamWaitEvent(st, ev[b], 0));
        if (!rc)
            rc = mul ? cz_cuda_h_mul_from(x + off, piece[b], len, st)
                     : cz_cuda_h_sub_from(x + off, piece[b], len, st);
        if (!rc)
            rc = cuda_err(cudaEventRecord(ev[2 + b], st));
    }
    /* an event may be destroyed while work waiting on it is queued */
    for (int i = 0; i < 4; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    return rc;
}

/* H with one vector x of m elements on the device (a plan short of
 * memory): A w's values on the coset are parked in host memory spill, B
 * w's are multiplied by them a piece at a time and the product parked in
 * their place, C w's are subtracted from it a piece at a time, and the
 * difference taken to H's coefficients in x: cz_cuda_h_finish's result
 * bit for bit (h_internal.cuh).  st[0] computes, st[1] carries the
 * pieces; *spmv_ms gets the products' time.  H's scalars end in x. */
static int h_one_vector(const cz_ntt_domain *d, const cz_cuda_r1cs_view *r,
                        const cz_cuda_r1cs_use *ru, const cz_fr *wd, cz_fr *x, size_t rows,
                        cz_fr *spill, cz_fr *const piece[2], cudaStream_t st[2], double *spmv_ms)
{
    size_t m = cz_ntt_domain_size(d), bytes = m * sizeof(cz_fr);
    int rc = CZ_OK;
    *spmv_ms = 0;
    for (int k = 0; k < 3 && !rc; k++) {
        fr_t *o[3] = {NULL, NULL, NULL};
        o[k] = (fr_t *)x;
        double t = now_ms();
        rc = cz_cuda_r1cs_spmv_on(r, ru, (const fr_t *)wd, o, st[0]);
        if (!rc)
            rc = cuda_err(cudaStreamSynchronize(st[0]));
        *spmv_ms += now_ms() - t;
        if (!rc)
            rc = cz_cuda_h_eval(d, x, rows, st[0]);
        if (!rc && k > 0) /* b = a b, then c = a b - c */
            rc = from_host(x, spill, m, k == 1, piece, st[0], st[1]);
        if (!rc && k < 2) /* park a, then a b (the downloads wait for st[0]'s work) */
            rc = cz_cuda_download(spill, x, bytes, st[0]);
    }
    return rc ? rc : cz_cuda_h_finish_diff(d, x, st[0]);
}

/* A proof's pauses: y's hook, and the time spent in it. */
struct pauser {
    const cz_cuda_proof_opts *y;
    double paused; /* ms */
};

static void pauser_run(void *ctx)
{
    pauser *pz = (pauser *)ctx;
    double a = now_ms();
    pz->y->fn(pz->y->ctx);
    pz->paused += now_ms() - a;
}

/* One of a proof's MSMs: bases [off, off + nb) of query q (resident copy
 * or host array), scalars k on the device, by density (dd on the device,
 * hd on the host, over n scalars) or one each (n = nb); its chunks when
 * they are cut (streamed: a buffer's points at most; resident: the plan's
 * sort), and its first chunk in the pipe when streamed. */
struct msm_call {
    int q;
    size_t off, nb;
    const cz_fr *k;
    const uint64_t *dd, *hd;
    size_t n;
    unsigned c;
    cz_stream_chunk *chunks;
    size_t count, first;
};

/* The bases of a resident chunked MSM: the copy's chunk, nothing to wait
 * for. */
struct resident_src {
    const char *base;
    size_t psize;
    const cz_stream_chunk *chunks;
};

static int resident_get(void *ctx, size_t k, const void **bases)
{
    const resident_src *r = (const resident_src *)ctx;
    *bases = r->base + r->chunks[k].b0 * r->psize;
    return CZ_OK;
}

/* Cuts call x into chunks of at most pts bases (stream_plan.h). */
static int cut(msm_call *x, size_t pts)
{
    size_t most = x->nb / pts + (x->hd ? x->n / 64 : 0) + 2;
    x->chunks = (cz_stream_chunk *)malloc(most * sizeof *x->chunks);
    if (!x->chunks)
        return CZ_ERR_NOMEM;
    return cz_stream_plan(x->chunks, most, &x->count, x->hd, x->hd ? x->n : x->nb, x->nb, pts);
}

/* Both entry points: r NULL takes a, b, c from the host (their H
 * bellperson's, or with odd_coset snarkjs's); otherwise w goes up first and
 * a, b, c are r's products on the device. */
static int start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p, const cz_ntt_domain *d,
                 const cz_cuda_r1cs_view *r, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                 size_t rows, bool odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                 const uint64_t *dens[3], const cz_cuda_proof_opts *y, char *err, size_t errlen)
{
    size_t m = d ? cz_ntt_domain_size(d) : 0, n = n_in + n_aux;
    if (!out || !p || !p->key || !d || !w || !dens || rows > m || p->n_h > m || p->n_l != n_aux ||
        p->n_a < n_in)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "prove_start on the device: bad arguments");
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    size_t words_in = (n_in + 63) / 64, words_aux = (n_aux + 63) / 64;
    /* densities: A aux, B inputs, B aux; their set-bit counts are the base
     * counts the MSMs check */
    size_t ca = p->n_a - n_in, cbi = 0, cba;
    for (size_t i = 0; i < words_in; i++) {
        uint64_t v = dens[1][i];
        if (i + 1 == words_in && n_in % 64)
            v &= ((uint64_t)1 << (n_in % 64)) - 1;
        cbi += (size_t)__builtin_popcountll(v);
    }
    if (cbi > p->n_b_g1 || cbi > p->n_b_g2 || p->n_b_g1 != p->n_b_g2)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "prove_start on the device: B's input density has %zu bits for %zu bases",
                       cbi, p->n_b_g1);
    cba = p->n_b_g1 - cbi;
    bool dense = witness_dense(w + n_in, n_aux);

    /* the plan, then the tables it keeps (before the room below is read) */
    int rc = CZ_OK;
    cz_fr *spill = r && y ? y->spill : NULL;
    /* w already on this device: its bytes are held outside the proof's
     * reservation */
    const cz_cuda_witness *sw = y ? y->staged : NULL;
    int cur_dev = -1;
    if (sw && (cudaGetDevice(&cur_dev) != cudaSuccess || sw->dev != cur_dev || sw->n != n))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "prove_start on the device: the staged witness (%zu values on device %d) "
                       "is not this proof's (%zu values on device %d)",
                       sw->n, sw->dev, n, cur_dev);
    uint64_t w_staged = sw ? (uint64_t)n * sizeof(cz_fr) : 0;
    pthread_mutex_lock(&params_lock);
    dev_params *dp = NULL;
    rc = get_params(p, m, r, n_in, n_aux, &dp, err, errlen);
    if (!rc)
        dp->users++;
    pthread_mutex_unlock(&params_lock);
    cz_devplan plan;
    memset(&plan, 0, sizeof plan);
    cz_cuda_r1cs_use ru = {NULL};
    if (!rc)
        rc = cz_cuda_ntt_tables(d, dp->plan.twiddles_full);
    if (!rc) {
        plan = dp->plan;
        if (r)
            rc = cz_cuda_r1cs_acquire(r, plan.r1cs_resident, &ru);
        if (!rc && r && plan.r1cs_resident && !ru.entry)
            rc = CZ_ERR_BACKEND;
    }
    /* the proof's reservation: the plan's cut, or one for the room the
     * kept copies leave now; a reservation refused because kept copies
     * grew meanwhile is cut again */
    cz_cuda_resv *resv = NULL;
    bool no_wait = y && y->no_wait;
    for (int tries = 0; !rc; tries++) {
        uint64_t held = 0, budget = 0;
        rc = cz_cuda_mem_kept(&held, &budget);
        uint64_t room = budget > held ? budget - held : 0;
        cz_devplan_shape sh = dp->shape;
        sh.spill = spill != NULL;
        if (!rc && (plan.proof_bytes > room + w_staged || (plan.h_vectors == 1 && !spill)))
            rc = cz_devplan_make(&plan, &sh, &COSTS, &dp->model, plan.kept_bytes + room + w_staged,
                                 &dp->plan, err, errlen);
        if (!rc)
            rc = cz_cuda_mem_reserve(&resv, plan.proof_bytes - w_staged, no_wait ? 0 : -1);
        if (rc == CZ_ERR_BUSY && tries < 3)
            rc = CZ_OK;
        else
            break;
    }
    if (rc == CZ_ERR_TIMEOUT && no_wait)
        rc = CZ_ERR_BUSY;
    cz_fr *v[3] = {NULL, NULL, NULL}, *abc = NULL, *wd = NULL, *piece[2] = {NULL, NULL};
    uint64_t *ddv = NULL;
    cudaStream_t st[2] = {NULL, NULL}; /* compute, copy */
    if (sw)
        wd = sw->buf;
    else if (!rc)
        rc = cz_cuda_malloc((void **)&wd, (n ? n : 1) * sizeof(cz_fr), CZ_BUF_WITNESS);
    if (!rc)
        rc = cz_cuda_malloc((void **)&ddv, (words_aux * 2 + words_in + 1) * sizeof(uint64_t),
                            CZ_BUF_DENSITY);
    if (!r && !rc)
        rc = cz_cuda_malloc((void **)&abc, 3 * m * sizeof(cz_fr), CZ_BUF_ABC);
    for (unsigned i = 0; r && i < plan.h_vectors && !rc; i++)
        rc = cz_cuda_malloc((void **)&v[i], m * sizeof(cz_fr), CZ_BUF_ABC);
    for (int i = 0; r && plan.h_vectors == 1 && i < 2 && !rc; i++)
        rc = cz_cuda_malloc((void **)&piece[i], cz_devplan_spill_piece(m), CZ_BUF_STAGING);
    for (int i = 0; i < 2 && !rc; i++)
        rc = cuda_err(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    uint64_t *d_a = ddv, *d_bi = ddv + words_aux, *d_ba = ddv + words_aux + words_in;
    cz_cuda_groth16_times *tm = &out->ms;
    memset(tm, 0, sizeof *tm);
    /* the pauses: y->fn between steps (each step below ends with its
     * result on the host), its time kept out of the step times */
    pauser pz = {y, 0};
    bool pausing = y && y->fn;
    auto clock = [&pz]() { return now_ms() - pz.paused; };
    auto pause = [&]() {
        if (!rc && pausing)
            pauser_run(&pz);
    };
    double t0 = clock();
    if (r) {
        /* w up first (unless staged): the products read it, then the MSMs */
        if (!rc && !sw)
            rc = cz_cuda_upload(wd, w, n * sizeof(cz_fr), st[0]);
        if (!rc && !sw)
            rc = cuda_err(cudaStreamSynchronize(st[0]));
        double tu = clock();
        tm->upload = tu - t0;
        if (plan.h_vectors == 1) {
            if (!rc)
                rc = h_one_vector(d, r, &ru, wd, v[0], rows, spill, piece, st, &tm->spmv);
            t0 = tu + tm->spmv;
        } else {
            /* 3 vectors: A, B, C w at once; 2: A, B w, and C w once A B is formed */
            fr_t *o[3] = {(fr_t *)v[0], (fr_t *)v[1], plan.h_vectors == 3 ? (fr_t *)v[2] : NULL};
            if (!rc)
                rc = cz_cuda_r1cs_spmv_on(r, &ru, (const fr_t *)wd, o, st[0]);
            if (!rc)
                rc = cuda_err(cudaStreamSynchronize(st[0]));
            double ts = clock();
            tm->spmv = ts - tu;
            pause();
            t0 = clock();
            for (int i = 0; i < 2 && !rc; i++)
                rc = cz_cuda_h_eval(d, v[i], rows, st[0]);
            if (!rc)
                rc = cz_cuda_h_mul(d, v[0], v[1], st[0]);
            cz_fr *cv = plan.h_vectors == 3 ? v[2] : v[1];
            if (!rc && plan.h_vectors == 2) {
                fr_t *const oc[3] = {NULL, NULL, (fr_t *)cv};
                double tc = clock();
                rc = cz_cuda_r1cs_spmv_on(r, &ru, (const fr_t *)wd, oc, st[0]);
                tm->spmv += clock() - tc;
            }
            if (!rc)
                rc = cz_cuda_h_eval(d, cv, rows, st[0]);
            if (!rc)
                rc = cz_cuda_h_finish(d, v[0], cv, st[0]);
        }
    } else {
        /* H first, then the assignment on the copy stream; H's transforms
         * on the compute stream meanwhile */
        if (!rc)
            rc = cz_cuda_h_from_host(d, abc, a, b, c, rows, odd_coset, st[0], st[1]);
        if (!rc && !sw)
            rc = cz_cuda_upload(wd, w, n * sizeof(cz_fr), st[1]);
    }
    if (!rc)
        rc = cz_cuda_upload(d_a, dens[0], words_aux * sizeof(uint64_t), st[1]);
    if (!rc)
        rc = cz_cuda_upload(d_bi, dens[1], words_in * sizeof(uint64_t), st[1]);
    if (!rc)
        rc = cz_cuda_upload(d_ba, dens[2], words_aux * sizeof(uint64_t), st[1]);
    for (int i = 0; i < 2; i++) {
        if (st[i]) {
            int r2 = cuda_err(cudaStreamSynchronize(st[i]));
            rc = rc ? rc : r2;
            cudaStreamDestroy(st[i]);
        }
    }
    cz_cuda_r1cs_put(&ru);
    /* H's other vectors and its piece buffers are done with */
    for (int i = 1; i < 3; i++) {
        cz_cuda_free(v[i]);
        v[i] = NULL;
    }
    for (int i = 0; i < 2; i++) {
        cz_cuda_free(piece[i]);
        piece[i] = NULL;
    }
    double t1 = clock();
    tm->h = t1 - t0;
    pause();

    /* the MSMs of prove.c's CPU path, term for term */
    const cz_fr *hs = r ? v[0] : abc, *wa = wd + n_in;
    /* the windows, at most the plan's cap (0: pick_window's, under it) */
    unsigned cap = plan.window_cap;
    auto win = [cap](unsigned c) { return cap && c > cap ? cap : c; };
    msm_call call[8] = {
        {CZ_Q_H, 0, p->n_h, hs, NULL, NULL, p->n_h, win(h_window(p->n_h)), NULL, 0, 0},
        {CZ_Q_L, 0, n_aux, wa, NULL, NULL, n_aux, win(w_window(n_aux, dense)), NULL, 0, 0},
        {CZ_Q_A, 0, n_in, wd, NULL, NULL, n_in, 0, NULL, 0, 0},
        {CZ_Q_A, n_in, ca, wa, d_a, dens[0], n_aux, win(w_window(ca, dense)), NULL, 0, 0},
        {CZ_Q_B_G1, 0, cbi, wd, d_bi, dens[1], n_in, 0, NULL, 0, 0},
        {CZ_Q_B_G1, cbi, cba, wa, d_ba, dens[2], n_aux, win(w_window(cba, dense)), NULL, 0, 0},
        {CZ_Q_B_G2, 0, cbi, wd, d_bi, dens[1], n_in, 0, NULL, 0, 0},
        {CZ_Q_B_G2, cbi, cba, wa, d_ba, dens[2], n_aux, win(w_window(cba, dense)), NULL, 0, 0}};
    /* the chunks: a buffer's bases at most (CZ_CUDA_STREAM_CHUNK=N: N),
     * the plan's sort (CZ_CUDA_MSM_SORT=N: N) for tests */
    cz_pipe_chunk *pc = NULL;
    size_t npc = 0, env_chunk = env_size("CZ_CUDA_STREAM_CHUNK"),
           env_sort = env_size("CZ_CUDA_MSM_SORT");
    for (int i = 0; i < 8 && !rc; i++) {
        msm_call &x = call[i];
        bool streamed = !plan.resident[x.q];
        size_t pts = streamed ? (size_t)(plan.buf_bytes / psize(x.q)) : plan.sort_points;
        if (streamed && plan.sort_points < pts)
            pts = plan.sort_points;
        if (streamed && env_chunk && env_chunk < pts)
            pts = env_chunk;
        if (!streamed && env_sort && env_sort < pts)
            pts = env_sort;
        if (!streamed && pts >= x.nb)
            continue; /* one MSM of every base */
        rc = cut(&x, pts < 64 ? 64 : pts);
        if (rc || !streamed)
            continue;
        cz_pipe_chunk *grown = (cz_pipe_chunk *)realloc(pc, (npc + x.count + 1) * sizeof *pc);
        if (!grown) {
            rc = CZ_ERR_NOMEM;
            break;
        }
        pc = grown;
        x.first = npc;
        const char *host = (const char *)host_array(p, x.q) + x.off * psize(x.q);
        for (size_t k = 0; k < x.count; k++)
            pc[npc++] = {host + x.chunks[k].b0 * psize(x.q),
                         (x.chunks[k].b1 - x.chunks[k].b0) * psize(x.q)};
    }
    void *buf[2] = {NULL, NULL};
    cz_base_pipe *pipe = NULL;
    for (int i = 0; i < 2 && npc && !rc; i++)
        rc = cz_cuda_malloc(&buf[i], plan.buf_bytes, CZ_BUF_STAGING);
    if (!rc && npc)
        rc = cz_base_pipe_new(&pipe, pc, npc, buf[0], buf[1]);
    cz_cuda_scratch sc = {NULL, 0, 0, 0, 0, NULL, NULL};
    if (!rc)
        rc = cz_cuda_scratch_alloc(&sc, cz_devplan_scratch_bytes(&plan, &dp->shape, &COSTS));
    cz_g1 g1[6];
    cz_g2 g2[2];
    double tq[5] = {0};
    for (int i = 0; i < 8 && !rc; i++) {
        msm_call &x = call[i];
        bool g2q = x.q == CZ_Q_B_G2;
        double ta = clock();
        if (i == 0 && pausing) { /* the longest step (0.8 s at 2^27): it pauses inside too */
            sc.pause = pauser_run;
            sc.pause_ctx = &pz;
        }
        if (x.chunks) {
            resident_src rs = {(const char *)dp->arr[x.q] + x.off * psize(x.q), psize(x.q),
                               x.chunks};
            cz_cuda_bases src = {resident_get, NULL, &rs};
            if (!plan.resident[x.q])
                src = cz_base_pipe_source(pipe, x.first);
            rc = g2q ? cz_cuda_g2_msm_chunked(&g2[i - 6], &src, x.chunks, x.count, x.nb, x.k, x.dd,
                                              x.c, &sc)
                     : cz_cuda_g1_msm_chunked(&g1[i], &src, x.chunks, x.count, x.nb, x.k, x.dd,
                                              x.c, &sc);
        } else {
            const char *dev = (const char *)dp->arr[x.q] + x.off * psize(x.q);
            rc = g2q ? cz_cuda_g2_msm_scratch(&g2[i - 6], (const cz_g2_affine *)dev, x.nb, x.k, x.dd,
                                              x.n, x.c, &sc)
                     : cz_cuda_g1_msm_scratch(&g1[i], (const cz_g1_affine *)dev, x.nb, x.k, x.dd,
                                              x.dd ? x.n : x.nb, x.c, &sc);
        }
        sc.pause = NULL;
        tq[x.q] += clock() - ta;
        if (i == 0 && r) { /* H's scalars are done with */
            cz_cuda_free(v[0]);
            v[0] = NULL;
        }
        /* a pause after each query (H, L, A, B_g1) but the last */
        if (i == 0 || i == 1 || i == 3 || i == 5)
            pause();
    }
    if (!rc) {
        out->h = g1[0];
        out->l = g1[1];
        cz_g1_add(&out->a, &g1[2], &g1[3]);
        cz_g1_add(&out->b_g1, &g1[4], &g1[5]);
        cz_g2_add(&out->b_g2, &g2[0], &g2[1]);
    }
    tm->msm_h = tq[CZ_Q_H];
    tm->msm_l = tq[CZ_Q_L];
    tm->msm_a = tq[CZ_Q_A];
    tm->msm_b_g1 = tq[CZ_Q_B_G1];
    tm->msm_b_g2 = tq[CZ_Q_B_G2];
    if (sc.spills && env_flag("CZ_CUDA_DEBUG"))
        fprintf(stderr, "cuzk groth16: MSM scratch of %zu bytes spilled %u times (peak %zu)\n",
                sc.size, sc.spills, sc.peak);
    int r2 = cz_base_pipe_free(pipe, &tm->link_bytes, &tm->link_ms);
    rc = rc ? rc : r2;
    cz_cuda_scratch_free(&sc);
    r2 = cz_cuda_sync();
    rc = rc ? rc : r2;
    for (int i = 0; i < 2; i++)
        cz_cuda_free(buf[i]);
    for (int i = 0; i < 8; i++)
        free(call[i].chunks);
    free(pc);
    cz_cuda_free(v[0]);
    cz_cuda_free(abc);
    if (!sw)
        cz_cuda_free(wd);
    cz_cuda_free(ddv);
    for (int i = 0; i < 2; i++)
        cz_cuda_free(piece[i]);
    cz_cuda_mem_release(resv);
    if (dp) {
        pthread_mutex_lock(&params_lock);
        if (--dp->users == 0)
            pthread_cond_broadcast(&params_idle);
        pthread_mutex_unlock(&params_lock);
    }
    if (rc && err && errlen && !err[0])
        cz_msgf(err, errlen, "prove_start on the device: %s", cz_strerror(rc));
    return rc;
}

extern "C" {

int cz_cuda_groth16_start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                          const cz_ntt_domain *d, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                          size_t rows, int odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                          const uint64_t *dens[3], const cz_cuda_proof_opts *y, char *err,
                          size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!a || !b || !c)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "prove_start on the device: no a, b, c");
    return start(out, p, d, NULL, a, b, c, rows, odd_coset != 0, w, n_in, n_aux, dens, y, err,
                 errlen);
}

int cz_cuda_groth16_start_r1cs(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                               const cz_ntt_domain *d, const cz_cuda_r1cs_view *r, const cz_fr *w,
                               size_t n_in, size_t n_aux, const uint64_t *dens[3],
                               const cz_cuda_proof_opts *y, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!r || !r->key || r->cols != n_in + n_aux || (d && r->rows > cz_ntt_domain_size(d)))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "prove_start on the device: the constraint system does not match");
    return start(out, p, d, r, NULL, NULL, NULL, r->rows, false, w, n_in, n_aux, dens, y, err,
                 errlen);
}

} /* extern "C" */
