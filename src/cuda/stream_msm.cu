/* Streamed MSMs (stream_msm.cuh): bases uploaded chunk by chunk by a helper
 * thread into two alternating device buffers while the MSM of the chunk
 * before runs. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>

#include "cuda/cuda_err.cuh"
#include "cuda/stream_msm.cuh"
#include "cuda/upload.cuh"
#include "cuzk/ec.h"
#include "cuzk/err.h"

namespace
{

template <class P> struct ops;
template <> struct ops<cz_g1_affine> {
    typedef cz_g1 jac;
    static int msm(jac *r, const cz_g1_affine *b, const cz_fr *k, size_t n)
    {
        return cz_cuda_g1_msm(r, b, k, n, 0);
    }
    static int msm_density(jac *r, const cz_g1_affine *b, size_t nb, const cz_fr *k,
                           const uint64_t *d, size_t n)
    {
        return cz_cuda_g1_msm_density(r, b, nb, k, d, n, 0);
    }
    static void add(jac *r, const jac *a, const jac *b) { cz_g1_add(r, a, b); }
    static void inf(jac *r) { cz_g1_set_inf(r); }
};
template <> struct ops<cz_g2_affine> {
    typedef cz_g2 jac;
    static int msm(jac *r, const cz_g2_affine *b, const cz_fr *k, size_t n)
    {
        return cz_cuda_g2_msm(r, b, k, n, 0);
    }
    static int msm_density(jac *r, const cz_g2_affine *b, size_t nb, const cz_fr *k,
                           const uint64_t *d, size_t n)
    {
        return cz_cuda_g2_msm_density(r, b, nb, k, d, n, 0);
    }
    static void add(jac *r, const jac *a, const jac *b) { cz_g2_add(r, a, b); }
    static void inf(jac *r) { cz_g2_set_inf(r); }
};

/* The uploader's and the consumer's shared state: chunk k may be uploaded
 * into buffer k % 2 once chunk k - 2 is consumed. */
struct pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t uploaded, consumed, count;
    int rc, dev;
    const cz_stream_chunk *chunks;
    const char *host;
    size_t psize;
    char *buf[2];
};

void *uploader(void *arg)
{
    pipe *p = (pipe *)arg;
    cudaStream_t st = NULL;
    int rc = cuda_err(cudaSetDevice(p->dev));
    if (!rc)
        rc = cuda_err(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (size_t k = 0; k < p->count && !rc; k++) {
        pthread_mutex_lock(&p->mu);
        while (k >= p->consumed + 2 && !p->rc)
            pthread_cond_wait(&p->cv, &p->mu);
        rc = p->rc;
        pthread_mutex_unlock(&p->mu);
        if (rc)
            break;
        const cz_stream_chunk &c = p->chunks[k];
        rc = cz_cuda_upload(p->buf[k % 2], p->host + c.b0 * p->psize, (c.b1 - c.b0) * p->psize, st);
        if (!rc)
            rc = cuda_err(cudaStreamSynchronize(st));
        pthread_mutex_lock(&p->mu);
        if (rc && !p->rc)
            p->rc = rc;
        else if (!rc)
            p->uploaded = k + 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    if (st)
        cudaStreamDestroy(st);
    if (rc) {
        pthread_mutex_lock(&p->mu);
        if (!p->rc)
            p->rc = rc;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

template <class P>
int msm_streamed(typename ops<P>::jac *out, const P *host, size_t n_bases, const cz_fr *sd,
                 const uint64_t *dd, const uint64_t *hd, size_t n, size_t chunk)
{
    typedef ops<P> O;
    if (!out || (n && (!host || !sd)) || (!dd) != (!hd) || chunk < 64)
        return CZ_ERR_INVALID_ARG;
    O::inf(out);
    size_t max_chunks = n_bases / chunk + (hd ? n / 64 : 0) + 2, count = 0;
    cz_stream_chunk *chunks = (cz_stream_chunk *)malloc(max_chunks * sizeof *chunks);
    if (!chunks)
        return CZ_ERR_NOMEM;
    int rc = cz_stream_plan(chunks, max_chunks, &count, hd, n, n_bases, chunk);
    size_t most = 0;
    for (size_t k = 0; k < count; k++)
        most = chunks[k].b1 - chunks[k].b0 > most ? chunks[k].b1 - chunks[k].b0 : most;
    pipe p;
    p.uploaded = p.consumed = 0;
    p.count = count;
    p.rc = CZ_OK;
    p.chunks = chunks;
    p.host = (const char *)host;
    p.psize = sizeof(P);
    p.buf[0] = p.buf[1] = NULL;
    if (!rc)
        rc = cuda_err(cudaGetDevice(&p.dev));
    for (int i = 0; i < 2 && !rc && count; i++)
        rc = cz_cuda_malloc((void **)&p.buf[i], most * sizeof(P), CZ_BUF_STAGING);
    pthread_t th;
    bool started = false;
    if (!rc && count) {
        pthread_mutex_init(&p.mu, NULL);
        pthread_cond_init(&p.cv, NULL);
        started = pthread_create(&th, NULL, uploader, &p) == 0;
        if (!started) {
            pthread_mutex_destroy(&p.mu);
            pthread_cond_destroy(&p.cv);
            rc = CZ_ERR_THREAD;
        }
    }
    for (size_t k = 0; k < count && !rc; k++) {
        pthread_mutex_lock(&p.mu);
        while (p.uploaded <= k && !p.rc)
            pthread_cond_wait(&p.cv, &p.mu);
        rc = p.rc;
        pthread_mutex_unlock(&p.mu);
        if (rc)
            break;
        const cz_stream_chunk &c = chunks[k];
        const P *b = (const P *)p.buf[k % 2];
        typename O::jac part;
        rc = hd ? O::msm_density(&part, b, c.b1 - c.b0, sd + c.s0, dd + c.s0 / 64, c.s1 - c.s0)
                : O::msm(&part, b, sd + c.s0, c.s1 - c.s0);
        if (!rc)
            O::add(out, out, &part);
        pthread_mutex_lock(&p.mu);
        if (rc && !p.rc)
            p.rc = rc;
        p.consumed = k + 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
    }
    if (started) {
        pthread_mutex_lock(&p.mu); /* stop the uploader on an error */
        if (rc && !p.rc)
            p.rc = rc;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        pthread_join(th, NULL);
        rc = rc ? rc : p.rc;
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.cv);
    }
    cz_cuda_free(p.buf[0]);
    cz_cuda_free(p.buf[1]);
    free(chunks);
    if (rc)
        O::inf(out);
    return rc;
}

} // namespace

int cz_cuda_g1_msm_streamed(cz_g1 *out, const cz_g1_affine *bases_host, size_t n_bases,
                            const cz_fr *scalars_dev, const uint64_t *density_dev,
                            const uint64_t *density_host, size_t n_scalars, size_t chunk)
{
    return msm_streamed<cz_g1_affine>(out, bases_host, n_bases, scalars_dev, density_dev,
                                      density_host, n_scalars, chunk);
}

int cz_cuda_g2_msm_streamed(cz_g2 *out, const cz_g2_affine *bases_host, size_t n_bases,
                            const cz_fr *scalars_dev, const uint64_t *density_dev,
                            const uint64_t *density_host, size_t n_scalars, size_t chunk)
{
    return msm_streamed<cz_g2_affine>(out, bases_host, n_bases, scalars_dev, density_dev,
                                      density_host, n_scalars, chunk);
}
