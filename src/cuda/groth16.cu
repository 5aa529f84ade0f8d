/* Groth16 prove_start on the GPU (include/cuzk/cuda.h): H and every MSM of
 * a bellperson-flavoured proof on the device, parameters resident there.
 *
 * Parameters: the five query arrays of a parameter set are copied to the
 * device on first use and kept, per device, until
 * cz_cuda_params_release(key) (cz_groth16_params_free calls it), so a circuit
 * that proves many partitions uploads its 44 GiB once.  When they do not
 * fit beside a proof's own device memory, the set is marked streamed
 * instead: every MSM uploads its bases chunk by chunk, overlapped with the
 * MSM of the chunk before (stream_msm.cuh); the host arrays of a streamed
 * set are page-locked in place (cudaHostRegister) on first use, so the
 * chunks travel by DMA at the link's speed instead of through the staging
 * slots, and unlocked by cz_cuda_params_release.  Per proof the
 * device holds a, b, c (3 m scalars), the assignment (n scalars) and the
 * density bitmaps, and the MSMs their scratch: all drawn from one device
 * reservation of the proof's whole need (devmem.cu), made after the
 * resident copies and before the first allocation.  With resident
 * parameters the MSMs' scratch is one block of that reservation
 * (msm_scratch.h), allocated once per proof instead of some twenty
 * cudaMalloc / cudaFree pairs per MSM (2^27 partition: 2209 against 2245
 * ms, BENCHMARKS.md).  With it nothing synchronises the device, so the L,
 * A and B MSMs were also run beside H's transforms: 2223 against 2209 ms,
 * the MSM slowed by what H took (docs/gpu-kernels.md), so H runs first.
 *
 * With a constraint system (cz_cuda_groth16_start_r1cs) the witness is
 * the only large upload: a, b, c are its products on the device
 * (spmv.cu), then H and the MSMs run as from host vectors. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/cuda_err.cuh"
#include "cuda/devmem.cuh"
#include "cuda/h_internal.cuh"
#include "cuda/msm_scratch.h"
#include "cuda/spmv.cuh"
#include "cuda/stream_msm.cuh"
#include "cuda/upload.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

struct dev_params {
    const void *key;
    int dev;
    cz_g1_affine *h, *l, *a, *b_g1;
    cz_g2_affine *b_g2;
    bool streamed;  /* not resident: the MSMs stream the host arrays */
    unsigned users; /* proofs using it now: release waits for them */
    dev_params *next;
};

/* The host arrays of a streamed parameter set that this file page-locked
 * (one record per key, shared by every device: the registration is
 * portable). */
struct host_pin {
    const void *key;
    void *ptr[5];
    host_pin *next;
};

static pthread_mutex_t params_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t params_idle = PTHREAD_COND_INITIALIZER;
static dev_params *params_list;
static host_pin *pin_list;

static void dev_params_free(dev_params *d)
{
    cz_cuda_free(d->h);
    cz_cuda_free(d->l);
    cz_cuda_free(d->a);
    cz_cuda_free(d->b_g1);
    cz_cuda_free(d->b_g2);
    free(d);
}

static int upload(void **dst, const void *src, size_t bytes)
{
    int rc = cz_cuda_malloc(dst, bytes, CZ_BUF_PARAMS);
    if (!rc)
        rc = cz_cuda_upload(*dst, src, bytes, 0);
    return rc ? rc : cuda_err(cudaStreamSynchronize(0));
}

/* CZ_CUDA_STREAM_PARAMS=1 in the environment streams every parameter set
 * (for tests); CZ_CUDA_STREAM_CHUNK=N sets the points per upload. */
static bool env_flag(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0");
}

/* Points per streamed upload: 3 GiB per buffer (two alternate), at most an
 * eighth of the device memory left to cuzk each, at least 64. */
static size_t stream_chunk(size_t psize)
{
    const char *e = getenv("CZ_CUDA_STREAM_CHUNK");
    size_t c = e && *e ? (size_t)strtoull(e, NULL, 0) : ((size_t)3 << 30) / psize;
    size_t room = 0;
    if (cz_cuda_mem_room(&room) == CZ_OK && c > room / 8 / psize)
        c = room / 8 / psize;
    return c < 64 ? 64 : c;
}

/* Page-locks p's five host arrays in place unless a record for p exists;
 * called under params_lock.  An array already registered by its owner, or
 * one the system refuses to lock (RLIMIT_MEMLOCK), is left as it is: its
 * chunks are then staged by cz_cuda_upload, slower but correct.
 * CZ_CUDA_PIN_PARAMS=0 in the environment disables the locking. */
static void pin_host(const cz_cuda_params_view *p)
{
    const char *e = getenv("CZ_CUDA_PIN_PARAMS");
    if (e && !strcmp(e, "0"))
        return;
    for (host_pin *h = pin_list; h; h = h->next)
        if (h->key == p->key)
            return;
    host_pin *h = (host_pin *)calloc(1, sizeof *h);
    if (!h)
        return;
    const void *arr[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    size_t bytes[5] = {p->n_h * sizeof(cz_g1_affine), p->n_l * sizeof(cz_g1_affine),
                       p->n_a * sizeof(cz_g1_affine), p->n_b_g1 * sizeof(cz_g1_affine),
                       p->n_b_g2 * sizeof(cz_g2_affine)};
    for (int i = 0; i < 5; i++) {
        if (!arr[i] || !bytes[i])
            continue;
        if (cudaHostRegister((void *)arr[i], bytes[i], cudaHostRegisterPortable) == cudaSuccess)
            h->ptr[i] = (void *)arr[i];
        else
            cudaGetLastError(); /* left pageable: staged uploads */
    }
    h->key = p->key;
    h->next = pin_list;
    pin_list = h;
}

/* Unlocks what pin_host locked for key; called under params_lock once no
 * device entry of key is left. */
static void unpin_host(const void *key)
{
    for (host_pin **pp = &pin_list; *pp; pp = &(*pp)->next) {
        host_pin *h = *pp;
        if (h->key != key)
            continue;
        for (int i = 0; i < 5; i++)
            if (h->ptr[i] && cudaHostUnregister(h->ptr[i]) != cudaSuccess)
                cudaGetLastError();
        *pp = h->next;
        free(h);
        return;
    }
}

/* p's device copy on the current device, made on first use, or a streamed
 * entry when the five arrays and `need` bytes (one proof's device memory)
 * do not fit in what the device budget has left; called under
 * params_lock. */
static int get_params(const cz_cuda_params_view *p, size_t need, dev_params **out)
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
    if ((!p->h && p->n_h) || (!p->l && p->n_l) || (!p->a && p->n_a) || (!p->b_g1 && p->n_b_g1) ||
        (!p->b_g2 && p->n_b_g2))
        return CZ_ERR_UNSUPPORTED; /* the host copy was dropped (device-only set) */
    dev_params *d = (dev_params *)calloc(1, sizeof *d);
    if (!d)
        return CZ_ERR_NOMEM;
    d->key = p->key;
    d->dev = dev;
    size_t bytes = (p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(cz_g1_affine) +
                   p->n_b_g2 * sizeof(cz_g2_affine);
    size_t room = 0;
    int rc = cz_cuda_mem_room(&room);
    d->streamed = !rc && (env_flag("CZ_CUDA_STREAM_PARAMS") || bytes + need > room);
    if (d->streamed)
        pin_host(p);
    if (!rc && !d->streamed)
        rc = upload((void **)&d->h, p->h, p->n_h * sizeof(cz_g1_affine));
    if (!rc && !d->streamed)
        rc = upload((void **)&d->l, p->l, p->n_l * sizeof(cz_g1_affine));
    if (!rc && !d->streamed)
        rc = upload((void **)&d->a, p->a, p->n_a * sizeof(cz_g1_affine));
    if (!rc && !d->streamed)
        rc = upload((void **)&d->b_g1, p->b_g1, p->n_b_g1 * sizeof(cz_g1_affine));
    if (!rc && !d->streamed)
        rc = upload((void **)&d->b_g2, p->b_g2, p->n_b_g2 * sizeof(cz_g2_affine));
    if (rc) {
        dev_params_free(d);
        return rc;
    }
    d->next = params_list;
    params_list = d;
    *out = d;
    return CZ_OK;
}

/* One query's MSM over bases [off, off + nb) of its array: from the
 * resident copy dev, or streamed from the host copy.  dd / hd: the density
 * bitmap on the device and on the host, or NULL for a dense MSM. */
static int g1_query(cz_g1 *out, const dev_params *dp, const cz_g1_affine *dev,
                    const cz_g1_affine *host, size_t off, size_t nb, const cz_fr *sd,
                    const uint64_t *dd, const uint64_t *hd, size_t n, cz_cuda_scratch *sc,
                    unsigned c)
{
    if (dp->streamed)
        return cz_cuda_g1_msm_streamed(out, host + off, nb, sd, dd, hd, n,
                                       stream_chunk(sizeof *host));
    return cz_cuda_g1_msm_scratch(out, dev + off, nb, sd, dd, dd ? n : nb, c, sc);
}

static int g2_query(cz_g2 *out, const dev_params *dp, const cz_g2_affine *dev,
                    const cz_g2_affine *host, size_t off, size_t nb, const cz_fr *sd,
                    const uint64_t *dd, const uint64_t *hd, size_t n, cz_cuda_scratch *sc,
                    unsigned c)
{
    if (dp->streamed)
        return cz_cuda_g2_msm_streamed(out, host + off, nb, sd, dd, hd, n,
                                       stream_chunk(sizeof *host));
    return cz_cuda_g2_msm_scratch(out, dev + off, nb, sd, dd, n, c, sc);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

/* The most scratch one of a proof's MSMs takes (msm_scratch.h): H over
 * n_h bases, L over the aux, A over the inputs and its aux bases by
 * density, B in G1 and G2 likewise (the parameters' base counts bound the
 * density MSMs' bases); with may_be_dense (a dense witness, or one not
 * yet known) the larger of the two windows', since a density MSM's own
 * base count may fall below w_window's threshold where its bound does not. */
static size_t msm_need(const cz_cuda_params_view *p, size_t n_aux, bool may_be_dense)
{
    size_t most = cz_cuda_msm_scratch_bytes(p->n_h, false, false, p->n_h, h_window(p->n_h));
    for (int dense = 0; dense <= (int)may_be_dense; dense++) {
        size_t b[] = {
            cz_cuda_msm_scratch_bytes(n_aux, false, false, n_aux, w_window(n_aux, dense)),
            cz_cuda_msm_scratch_bytes(p->n_a, false, true, n_aux, w_window(p->n_a, dense)),
            cz_cuda_msm_scratch_bytes(p->n_b_g1, false, true, n_aux, w_window(p->n_b_g1, dense)),
            cz_cuda_msm_scratch_bytes(p->n_b_g2, true, true, n_aux, w_window(p->n_b_g2, dense))};
        for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
            most = b[i] > most ? b[i] : most;
    }
    return most;
}

/* One proof's device memory besides the parameters: a, b, c (3 m), the
 * assignment (n), the bitmaps and the MSMs' scratch (msm, msm_need's). */
static size_t proof_need(size_t m, size_t n_in, size_t n_aux, size_t msm)
{
    size_t n = n_in + n_aux, words_in = (n_in + 63) / 64, words_aux = (n_aux + 63) / 64;
    return (3 * m + n) * sizeof(cz_fr) + (words_aux * 2 + words_in + 1) * 8 + msm;
}

extern "C" {

int cz_cuda_groth16_prepare(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                            size_t n_in, size_t n_aux, bool *resident)
{
    if (!resident)
        return CZ_ERR_INVALID_ARG;
    *resident = false;
    if (!p || !p->key || (r && r->cols != n_in + n_aux))
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    size_t need = proof_need(m, n_in, n_aux, msm_need(p, n_aux, true));
    pthread_mutex_lock(&params_lock);
    dev_params *dp = NULL;
    int rc = get_params(p, need + (r ? cz_cuda_r1cs_bytes(r) : 0), &dp);
    bool res = !rc && !dp->streamed;
    pthread_mutex_unlock(&params_lock);
    bool r_res = true;
    if (!rc && r)
        rc = cz_cuda_r1cs_prepare(r, need, &r_res);
    *resident = !rc && res && r_res;
    return rc;
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
            *pp = d->next;
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

/* A proof's pauses: y's hook, and the time spent in it. */
struct pauser {
    const cz_cuda_yield *y;
    double paused; /* ms */
};

static void pauser_run(void *ctx)
{
    pauser *pz = (pauser *)ctx;
    double a = now_ms();
    pz->y->fn(pz->y->ctx);
    pz->paused += now_ms() - a;
}

/* Both entry points: r NULL takes a, b, c from the host (their H
 * bellperson's, or with odd_coset snarkjs's); otherwise w goes up first and
 * a, b, c are r's products on the device. */
static int start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p, const cz_ntt_domain *d,
                 const cz_cuda_r1cs_view *r, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                 size_t rows, bool odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                 const uint64_t *dens[3], const cz_cuda_yield *y)
{
    size_t m = d ? cz_ntt_domain_size(d) : 0, n = n_in + n_aux;
    if (!out || !p || !p->key || !d || !w || !dens || rows > m || p->n_h > m || p->n_l != n_aux ||
        p->n_a < n_in)
        return CZ_ERR_INVALID_ARG;
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
        return CZ_ERR_INVALID_ARG;
    cba = p->n_b_g1 - cbi;

    /* the upload is under the lock (one copy per device); the proof only
     * holds a use count, so proofs on several devices run side by side;
     * with r, the parameters also leave room for r's resident copy */
    bool dense = witness_dense(w + n_in, n_aux);
    size_t msm = msm_need(p, n_aux, dense), need = proof_need(m, n_in, n_aux, msm);
    pthread_mutex_lock(&params_lock);
    dev_params *dp = NULL;
    int rc = get_params(p, need + (r ? cz_cuda_r1cs_bytes(r) : 0), &dp);
    if (!rc)
        dp->users++;
    pthread_mutex_unlock(&params_lock);
    cz_cuda_r1cs_use ru = {NULL};
    if (!rc && r)
        rc = cz_cuda_r1cs_acquire(r, need, &ru);
    /* the proof's own buffers come from one reservation, made whole first */
    cz_cuda_resv *resv = NULL;
    bool no_wait = y && y->no_wait;
    if (!rc)
        rc = cz_cuda_mem_reserve(&resv, need, no_wait ? 0 : -1);
    if (rc == CZ_ERR_TIMEOUT && no_wait)
        rc = CZ_ERR_BUSY;
    cz_fr *abc = NULL, *wd = NULL;
    uint64_t *dd = NULL;
    cudaStream_t st[2] = {NULL, NULL}; /* compute, copy */
    if (!rc)
        rc = cz_cuda_malloc((void **)&abc, 3 * m * sizeof(cz_fr), CZ_BUF_ABC);
    if (!rc)
        rc = cz_cuda_malloc((void **)&wd, (n ? n : 1) * sizeof(cz_fr), CZ_BUF_WITNESS);
    if (!rc)
        rc = cz_cuda_malloc((void **)&dd, (words_aux * 2 + words_in + 1) * sizeof(uint64_t),
                            CZ_BUF_DENSITY);
    for (int i = 0; i < 2 && !rc; i++)
        rc = cuda_err(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    uint64_t *d_a = dd, *d_bi = dd + words_aux, *d_ba = dd + words_aux + words_in;
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
        /* w up first: the products read it, then the MSMs */
        if (!rc)
            rc = cz_cuda_upload(wd, w, n * sizeof(cz_fr), st[0]);
        if (!rc)
            rc = cuda_err(cudaStreamSynchronize(st[0]));
        double tu = clock();
        tm->upload = tu - t0;
        fr_t *const o[3] = {(fr_t *)abc, (fr_t *)abc + m, (fr_t *)abc + 2 * m};
        if (!rc)
            rc = cz_cuda_r1cs_spmv_on(r, &ru, (const fr_t *)wd, o, st[0]);
        if (!rc)
            rc = cuda_err(cudaStreamSynchronize(st[0]));
        double ts = clock();
        tm->spmv = ts - tu;
        pause();
        t0 = clock();
        if (!rc)
            rc = cz_cuda_h_on_device(d, abc, rows, st[0]);
    } else {
        /* H first, then the assignment on the copy stream; H's transforms
         * on the compute stream meanwhile */
        if (!rc)
            rc = cz_cuda_h_from_host(d, abc, a, b, c, rows, odd_coset, st[0], st[1]);
        if (!rc)
            rc = cz_cuda_upload(wd, w, n * sizeof(cz_fr), st[1]);
    }
    if (!rc)
        rc = cz_cuda_upload(d_a, dens[0], words_aux * sizeof(uint64_t), st[1]);
    if (!rc)
        rc = cz_cuda_upload(d_bi, dens[1], words_in * sizeof(uint64_t), st[1]);
    if (!rc)
        rc = cz_cuda_upload(d_ba, dens[2], words_aux * sizeof(uint64_t), st[1]);
    /* the MSMs run on the default stream: everything above first */
    cz_cuda_scratch sc = {NULL, 0, 0, 0, 0, NULL, NULL};
    if (!rc && !dp->streamed)
        rc = cz_cuda_scratch_alloc(&sc, msm);
    for (int i = 0; i < 2; i++) {
        if (st[i]) {
            int r2 = cuda_err(cudaStreamSynchronize(st[i]));
            rc = rc ? rc : r2;
            cudaStreamDestroy(st[i]);
        }
    }
    cz_cuda_r1cs_put(&ru);
    double t1 = clock();
    tm->h = t1 - t0;
    pause();
    /* the MSMs of prove.c's CPU path, term for term */
    cz_g1 t;
    cz_g2 u;
    /* the longest step (0.96 s at 2^27): it pauses inside as well */
    if (pausing) {
        sc.pause = pauser_run;
        sc.pause_ctx = &pz;
    }
    if (!rc)
        rc = g1_query(&out->h, dp, dp->h, p->h, 0, p->n_h, abc, NULL, NULL, p->n_h, &sc,
                      h_window(p->n_h));
    sc.pause = NULL;
    double t2 = clock();
    tm->msm_h = t2 - t1;
    pause();
    if (!rc)
        rc = g1_query(&out->l, dp, dp->l, p->l, 0, n_aux, wd + n_in, NULL, NULL, n_aux, &sc,
                      w_window(n_aux, dense));
    tm->msm_l = clock() - t2;
    pause();
    double t3 = clock();
    if (!rc)
        rc = g1_query(&out->a, dp, dp->a, p->a, 0, n_in, wd, NULL, NULL, n_in, &sc, 0);
    if (!rc)
        rc = g1_query(&t, dp, dp->a, p->a, n_in, ca, wd + n_in, d_a, dens[0], n_aux, &sc,
                      w_window(ca, dense));
    if (!rc)
        cz_g1_add(&out->a, &out->a, &t);
    tm->msm_a = clock() - t3;
    pause();
    double t4 = clock();
    if (!rc)
        rc = g1_query(&out->b_g1, dp, dp->b_g1, p->b_g1, 0, cbi, wd, d_bi, dens[1], n_in, &sc, 0);
    if (!rc)
        rc = g1_query(&t, dp, dp->b_g1, p->b_g1, cbi, cba, wd + n_in, d_ba, dens[2], n_aux, &sc,
                      w_window(cba, dense));
    if (!rc)
        cz_g1_add(&out->b_g1, &out->b_g1, &t);
    tm->msm_b_g1 = clock() - t4;
    pause();
    double t5 = clock();
    if (!rc)
        rc = g2_query(&out->b_g2, dp, dp->b_g2, p->b_g2, 0, cbi, wd, d_bi, dens[1], n_in, &sc, 0);
    if (!rc)
        rc = g2_query(&u, dp, dp->b_g2, p->b_g2, cbi, cba, wd + n_in, d_ba, dens[2], n_aux, &sc,
                      w_window(cba, dense));
    if (!rc)
        cz_g2_add(&out->b_g2, &out->b_g2, &u);
    tm->msm_b_g2 = clock() - t5;
    if (sc.spills && env_flag("CZ_CUDA_DEBUG"))
        fprintf(stderr, "cuzk groth16: MSM scratch of %zu bytes spilled %u times (peak %zu)\n",
                sc.size, sc.spills, sc.peak);
    cz_cuda_scratch_free(&sc);
    int r2 = cz_cuda_sync();
    rc = rc ? rc : r2;
    cz_cuda_free(abc);
    cz_cuda_free(wd);
    cz_cuda_free(dd);
    cz_cuda_mem_release(resv);
    if (dp) {
        pthread_mutex_lock(&params_lock);
        if (--dp->users == 0)
            pthread_cond_broadcast(&params_idle);
        pthread_mutex_unlock(&params_lock);
    }
    return rc;
}

extern "C" {

int cz_cuda_groth16_start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                          const cz_ntt_domain *d, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                          size_t rows, int odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                          const uint64_t *dens[3], const cz_cuda_yield *y)
{
    if (!a || !b || !c)
        return CZ_ERR_INVALID_ARG;
    return start(out, p, d, NULL, a, b, c, rows, odd_coset != 0, w, n_in, n_aux, dens, y);
}

int cz_cuda_groth16_start_r1cs(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                               const cz_ntt_domain *d, const cz_cuda_r1cs_view *r, const cz_fr *w,
                               size_t n_in, size_t n_aux, const uint64_t *dens[3],
                               const cz_cuda_yield *y)
{
    if (!r || !r->key || r->cols != n_in + n_aux || (d && r->rows > cz_ntt_domain_size(d)))
        return CZ_ERR_INVALID_ARG;
    return start(out, p, d, r, NULL, NULL, NULL, r->rows, false, w, n_in, n_aux, dens, y);
}

} /* extern "C" */
