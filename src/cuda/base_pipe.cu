/* A proof's streamed bases (base_pipe.h). */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/base_pipe.h"
#include "cuda/cuda_err.cuh"
#include "cuda/upload.cuh"
#include "cuzk/err.h"

struct cz_base_pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cz_pipe_chunk *chunks;
    size_t count;
    void *buf[2];
    int dev;
    cudaStream_t cp;
    cudaEvent_t beg[2], end[2]; /* around the upload into each buffer (timing) */
    cudaEvent_t used[2];        /* after the work reading each buffer (default stream) */
    bool timed[2];              /* the buffer's last upload is counted in busy_ms */
    size_t queued;              /* uploads queued by the helper */
    size_t released;            /* chunks whose readers are queued (done) */
    size_t first;               /* the current source's first chunk */
    bool stop;
    int rc;
    pthread_t th;
    bool started;
    uint64_t bytes;
    double busy_ms;
};

/* Adds buffer s's last upload to busy_ms (waiting for it to end). */
static int count_upload(cz_base_pipe *p, int s)
{
    if (p->timed[s])
        return CZ_OK;
    float ms = 0;
    int rc = cuda_err(cudaEventSynchronize(p->end[s]));
    if (!rc)
        rc = cuda_err(cudaEventElapsedTime(&ms, p->beg[s], p->end[s]));
    p->busy_ms += ms;
    p->timed[s] = true;
    return rc;
}

static void *helper(void *arg)
{
    cz_base_pipe *p = (cz_base_pipe *)arg;
    int rc = cuda_err(cudaSetDevice(p->dev));
    for (size_t k = 0; k < p->count && !rc; k++) {
        pthread_mutex_lock(&p->mu);
        while (k >= p->released + 2 && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        bool stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            break;
        int s = (int)(k % 2);
        if (k >= 2) { /* chunk k - 2's readers are queued: the copy waits for them */
            rc = count_upload(p, s);
            if (!rc)
                rc = cuda_err(cudaStreamWaitEvent(p->cp, p->used[s], 0));
        }
        if (!rc)
            rc = cuda_err(cudaEventRecord(p->beg[s], p->cp));
        if (!rc)
            rc = cz_cuda_upload(p->buf[s], p->chunks[k].src, p->chunks[k].bytes, p->cp);
        if (!rc)
            rc = cuda_err(cudaEventRecord(p->end[s], p->cp));
        pthread_mutex_lock(&p->mu);
        if (!rc) {
            p->timed[s] = false;
            p->bytes += p->chunks[k].bytes;
            p->queued = k + 1;
        }
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    if (rc) {
        pthread_mutex_lock(&p->mu);
        if (!p->rc)
            p->rc = rc;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

static int pipe_get(void *ctx, size_t k, const void **bases)
{
    cz_base_pipe *p = (cz_base_pipe *)ctx;
    k += p->first;
    *bases = NULL;
    if (k >= p->count)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&p->mu);
    while (p->queued <= k && !p->rc)
        pthread_cond_wait(&p->cv, &p->mu);
    int rc = p->rc;
    pthread_mutex_unlock(&p->mu);
    if (!rc)
        rc = cuda_err(cudaStreamWaitEvent(0, p->end[k % 2], 0));
    if (!rc)
        *bases = p->buf[k % 2];
    return rc;
}

static void pipe_done(void *ctx, size_t k)
{
    cz_base_pipe *p = (cz_base_pipe *)ctx;
    k += p->first;
    int rc = cuda_err(cudaEventRecord(p->used[k % 2], 0));
    pthread_mutex_lock(&p->mu);
    if (rc && !p->rc)
        p->rc = rc;
    if (k + 1 > p->released)
        p->released = k + 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

cz_cuda_bases cz_base_pipe_source(cz_base_pipe *p, size_t first)
{
    p->first = first;
    cz_cuda_bases b = {pipe_get, pipe_done, p};
    return b;
}

int cz_base_pipe_new(cz_base_pipe **out, const cz_pipe_chunk *chunks, size_t count, void *buf0,
                     void *buf1)
{
    *out = NULL;
    cz_base_pipe *p = (cz_base_pipe *)calloc(1, sizeof *p);
    if (!p)
        return CZ_ERR_NOMEM;
    p->chunks = (cz_pipe_chunk *)malloc((count ? count : 1) * sizeof *chunks);
    if (!p->chunks) {
        free(p);
        return CZ_ERR_NOMEM;
    }
    memcpy(p->chunks, chunks, count * sizeof *chunks);
    p->count = count;
    p->buf[0] = buf0;
    p->buf[1] = buf1;
    p->timed[0] = p->timed[1] = true;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    int rc = cuda_err(cudaGetDevice(&p->dev));
    if (!rc)
        rc = cuda_err(cudaStreamCreateWithFlags(&p->cp, cudaStreamNonBlocking));
    for (int s = 0; s < 2 && !rc; s++) {
        if (!(rc = cuda_err(cudaEventCreate(&p->beg[s]))) &&
            !(rc = cuda_err(cudaEventCreate(&p->end[s]))))
            rc = cuda_err(cudaEventCreateWithFlags(&p->used[s], cudaEventDisableTiming));
    }
    if (!rc) {
        p->started = pthread_create(&p->th, NULL, helper, p) == 0;
        rc = p->started ? CZ_OK : CZ_ERR_THREAD;
    }
    if (rc) {
        cz_base_pipe_free(p, NULL, NULL);
        return rc;
    }
    *out = p;
    return CZ_OK;
}

int cz_base_pipe_free(cz_base_pipe *p, uint64_t *bytes, double *busy_ms)
{
    if (!p)
        return CZ_OK;
    if (p->started) {
        pthread_mutex_lock(&p->mu);
        p->stop = true;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->th, NULL);
    }
    int rc = p->rc;
    if (p->cp) {
        int r2 = cuda_err(cudaStreamSynchronize(p->cp));
        rc = rc ? rc : r2;
        for (int s = 0; s < 2 && !rc; s++)
            rc = count_upload(p, s);
        cudaStreamDestroy(p->cp);
    }
    for (int s = 0; s < 2; s++) {
        if (p->beg[s])
            cudaEventDestroy(p->beg[s]);
        if (p->end[s])
            cudaEventDestroy(p->end[s]);
        if (p->used[s])
            cudaEventDestroy(p->used[s]);
    }
    if (bytes)
        *bytes = p->bytes;
    if (busy_ms)
        *busy_ms = p->busy_ms;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->chunks);
    free(p);
    return rc;
}
