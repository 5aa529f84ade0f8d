/* Staged host-to-device copies (upload.cuh). */
#include <cuda_runtime.h>
#include <pthread.h>
#include <string.h>

#include "cuda/cuda_err.cuh"
#include "cuda/upload.cuh"
#include "cuzk/err.h"

#define MAX_DEVICES 16
#define NSLOTS      (2 * CZ_UPLOAD_THREADS)

struct staging {
    void *slot[NSLOTS]; /* thread t owns slots 2t and 2t + 1 */
    cudaEvent_t done[NSLOTS];
};

static pthread_mutex_t staging_lock[MAX_DEVICES] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER};
static staging *stagings[MAX_DEVICES];

static void staging_free(staging *s)
{
    for (int i = 0; i < NSLOTS; i++) {
        if (s->done[i]) {
            cudaEventSynchronize(s->done[i]);
            cudaEventDestroy(s->done[i]);
        }
        if (s->slot[i])
            cudaFreeHost(s->slot[i]);
    }
    delete s;
}

/* The current device's slots, made on first use; under its lock. */
static int staging_get(int dev, staging **out)
{
    if (stagings[dev]) {
        *out = stagings[dev];
        return CZ_OK;
    }
    staging *s = new staging();
    int rc = CZ_OK;
    for (int i = 0; i < NSLOTS && !rc; i++) {
        rc = cuda_err(cudaMallocHost(&s->slot[i], CZ_UPLOAD_SLOT));
        if (!rc)
            rc = cuda_err(cudaEventCreateWithFlags(&s->done[i], cudaEventDisableTiming));
    }
    if (rc) {
        staging_free(s);
        return rc;
    }
    *out = stagings[dev] = s;
    return CZ_OK;
}

struct stripe {
    int dev;
    char *dst;
    const char *src;
    size_t bytes;
    cudaStream_t st;
    void *slot[2];
    cudaEvent_t done[2];
    int rc;
};

/* One stripe, slot by slot: wait until the slot's previous DMA is done,
 * fill it, queue its DMA and mark its end. */
static void *stripe_run(void *arg)
{
    stripe *s = (stripe *)arg;
    int rc = cuda_err(cudaSetDevice(s->dev));
    for (size_t off = 0, k = 0; off < s->bytes && !rc; off += CZ_UPLOAD_SLOT, k ^= 1) {
        size_t len = s->bytes - off < CZ_UPLOAD_SLOT ? s->bytes - off : CZ_UPLOAD_SLOT;
        rc = cuda_err(cudaEventSynchronize(s->done[k]));
        if (rc)
            break;
        memcpy(s->slot[k], s->src + off, len);
        rc =
            cuda_err(cudaMemcpyAsync(s->dst + off, s->slot[k], len, cudaMemcpyHostToDevice, s->st));
        if (!rc)
            rc = cuda_err(cudaEventRecord(s->done[k], s->st));
    }
    s->rc = rc;
    return NULL;
}

/* One stripe downwards: queue the DMA of a piece into one slot, then empty
 * the other slot's earlier piece into the destination once its DMA is
 * done (so one piece travels while the previous is copied out). */
static void *stripe_down(void *arg)
{
    stripe *s = (stripe *)arg;
    int rc = cuda_err(cudaSetDevice(s->dev));
    size_t prev_off = 0, prev_len = 0;
    int prev_k = -1;
    /* an upload's DMAs may still read the slots */
    for (int k = 0; k < 2 && !rc; k++)
        rc = cuda_err(cudaEventSynchronize(s->done[k]));
    size_t pieces = (s->bytes + CZ_UPLOAD_SLOT - 1) / CZ_UPLOAD_SLOT;
    for (size_t i = 0, k = 0; i <= pieces && !rc; i++, k ^= 1) { /* the last turn only empties */
        size_t off = i * CZ_UPLOAD_SLOT;
        size_t len = i == pieces ? 0 : s->bytes - off < CZ_UPLOAD_SLOT ? s->bytes - off
                                                                       : CZ_UPLOAD_SLOT;
        if (len) {
            rc = cuda_err(cudaMemcpyAsync(s->slot[k], s->src + off, len, cudaMemcpyDeviceToHost,
                                          s->st));
            if (!rc)
                rc = cuda_err(cudaEventRecord(s->done[k], s->st));
        }
        if (!rc && prev_k >= 0) {
            rc = cuda_err(cudaEventSynchronize(s->done[prev_k]));
            if (!rc)
                memcpy(s->dst + prev_off, s->slot[prev_k], prev_len);
        }
        prev_off = off, prev_len = len, prev_k = len ? (int)k : -1;
    }
    s->rc = rc;
    return NULL;
}

static bool page_locked(const void *p)
{
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return at.type == cudaMemoryTypeHost;
}

/* bytes from src to dst through the current device's slots, one stripe a
 * thread running run (stripe_run upwards, stripe_down downwards). */
static int staged(int dev, char *dst, const char *src, size_t bytes, cudaStream_t st,
                  void *(*run)(void *))
{
    int rc;
    pthread_mutex_lock(&staging_lock[dev]);
    staging *sg = NULL;
    rc = staging_get(dev, &sg);
    if (rc) {
        pthread_mutex_unlock(&staging_lock[dev]);
        return rc;
    }
    /* stripes of whole slots, at least one slot each */
    size_t slots = (bytes + CZ_UPLOAD_SLOT - 1) / CZ_UPLOAD_SLOT;
    unsigned nt = slots < CZ_UPLOAD_THREADS ? (unsigned)slots : CZ_UPLOAD_THREADS;
    size_t per = (slots + nt - 1) / nt * CZ_UPLOAD_SLOT;
    stripe sp[CZ_UPLOAD_THREADS];
    pthread_t th[CZ_UPLOAD_THREADS];
    bool started[CZ_UPLOAD_THREADS] = {false};
    for (unsigned t = 0; t < nt; t++) {
        size_t off = t * per < bytes ? t * per : bytes;
        size_t len = bytes - off < per ? bytes - off : per;
        sp[t] = stripe{dev,
                       dst + off,
                       src + off,
                       len,
                       st,
                       {sg->slot[2 * t], sg->slot[2 * t + 1]},
                       {sg->done[2 * t], sg->done[2 * t + 1]},
                       CZ_OK};
        started[t] = pthread_create(&th[t], NULL, run, &sp[t]) == 0;
        if (!started[t])
            run(&sp[t]); /* no thread: this one copies it */
    }
    for (unsigned t = 0; t < nt; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        rc = rc ? rc : sp[t].rc;
    }
    pthread_mutex_unlock(&staging_lock[dev]);
    return rc;
}

/* A copy either way: small ones and those whose host side is page-locked
 * as one cudaMemcpyAsync (the DMA engine reads or writes the host memory
 * directly; a download then waits for it), the others staged. */
static int copy(void *dst, const void *src, size_t bytes, cudaStream_t st, bool down)
{
    if (!bytes)
        return CZ_OK;
    int dev = 0;
    int rc = cuda_err(cudaGetDevice(&dev));
    if (rc)
        return rc;
    if (dev >= MAX_DEVICES || bytes <= CZ_UPLOAD_SLOT || page_locked(down ? dst : src)) {
        rc = cuda_err(cudaMemcpyAsync(dst, src, bytes,
                                      down ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, st));
        return rc || !down ? rc : cuda_err(cudaStreamSynchronize(st));
    }
    return staged(dev, (char *)dst, (const char *)src, bytes, st, down ? stripe_down : stripe_run);
}

int cz_cuda_upload(void *dst, const void *src, size_t bytes, cudaStream_t st)
{
    return copy(dst, src, bytes, st, false);
}

int cz_cuda_download(void *dst, const void *src, size_t bytes, cudaStream_t st)
{
    return copy(dst, src, bytes, st, true);
}

void cz_cuda_upload_release(void)
{
    int cur = -1;
    bool have_cur = cudaGetDevice(&cur) == cudaSuccess;
    for (int dev = 0; dev < MAX_DEVICES; dev++) {
        pthread_mutex_lock(&staging_lock[dev]);
        if (stagings[dev]) {
            cudaSetDevice(dev);
            staging_free(stagings[dev]);
            stagings[dev] = NULL;
        }
        pthread_mutex_unlock(&staging_lock[dev]);
    }
    if (have_cur)
        cudaSetDevice(cur);
    else
        cudaGetLastError();
}
