/* Device memory under a budget, like host memory (include/cuzk/cuda.h:
 * cz_cuda_malloc, cz_cuda_mem_reserve, cz_cuda_mem_snapshot_of).
 *
 * Per device: a budget (the free memory when the device is first used,
 * less a margin for the driver and kernels' local memory, or
 * CZ_CUDA_MEM_BUDGET), the bytes reserved from it (reservations plus
 * allocations made outside one), the bytes allocated, their peaks and the
 * per-class counters of mem.h.  Every device allocation of this layer goes
 * through cz_cuda_malloc, which charges the calling thread's current
 * reservation on that device when it has one and room, else the budget
 * directly; a charge the budget cannot take is CZ_ERR_NOMEM before
 * cudaMalloc is called.  So the sum of cuzk's device buffers never exceeds
 * the budget.
 *
 * A proof reserves its whole need first (cz_cuda_mem_reserve, waiting
 * while other proofs on the device hold the memory), so two proofs on one
 * device take turns instead of one failing halfway; resident parameters,
 * constraint systems and tables are charged to the budget for as long as
 * they stay: the bytes charged outside any reservation are the account's
 * `held`, and a reservation waits only for memory other reservations hold
 * (it is refused at once, and again whenever held grows while it waits,
 * when the budget less held cannot hold it), so every wait ends. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/cuda_err.cuh"
#include "cuda/devmem.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

#define MAX_DEVICES 16
#define MARGIN      ((uint64_t)512 << 20)

struct cz_cuda_resv {
    int dev;
    uint64_t size, used;
    cz_cuda_resv *prev; /* the thread's reservation before this one */
};

namespace
{

struct acct {
    bool ready;
    uint64_t cap;   /* cz_cuda_set_mem_budget's, 0: none */
    uint64_t limit; /* the free memory at first use less the margin, or CZ_CUDA_MEM_BUDGET */
    uint64_t total, budget, reserved, peak_reserved, allocated, peak_allocated;
    uint64_t held; /* charged outside reservations (reserved - the reservations' sizes) */
    uint64_t reservations, waiters;
    cz_buf_class_stats cls[CZ_BUF__COUNT];
};

/* A live allocation. */
struct rec {
    void *p;
    uint64_t bytes;
    int dev;
    cz_buf_class cls;
    cz_cuda_resv *r; /* charged to, or NULL: the budget */
    rec *next;
};

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
acct accts[MAX_DEVICES];
rec *live;
__thread cz_cuda_resv *cur;

bool debug(void)
{
    const char *e = getenv("CZ_CUDA_DEBUG");
    return e && *e && strcmp(e, "0");
}

/* The current device's account, set up on first use; under mu. */
int account(int *dev, acct **out)
{
    int rc = cuda_err(cudaGetDevice(dev));
    if (rc)
        return rc;
    if (*dev < 0 || *dev >= MAX_DEVICES)
        return CZ_ERR_UNSUPPORTED;
    acct *a = &accts[*dev];
    if (!a->ready) {
        size_t free_b = 0, total_b = 0;
        if ((rc = cuda_err(cudaMemGetInfo(&free_b, &total_b))))
            return rc;
        const char *e = getenv("CZ_CUDA_MEM_BUDGET");
        uint64_t want = e && *e ? strtoull(e, NULL, 0) : 0;
        a->total = total_b;
        a->limit = free_b > MARGIN ? free_b - MARGIN : 0;
        if (want && want < a->limit)
            a->limit = want;
        a->budget = a->cap && a->cap < a->limit ? a->cap : a->limit;
        a->ready = true;
    }
    *out = a;
    return CZ_OK;
}

void add_reserved(acct *a, uint64_t b)
{
    a->reserved += b;
    if (a->reserved > a->peak_reserved)
        a->peak_reserved = a->reserved;
}

} /* namespace */

int cz_cuda_mem_kept(uint64_t *held, uint64_t *budget)
{
    pthread_mutex_lock(&mu);
    int dev;
    acct *a;
    int rc = account(&dev, &a);
    *held = rc ? 0 : a->held;
    *budget = rc ? 0 : a->budget;
    pthread_mutex_unlock(&mu);
    return rc;
}

int cz_cuda_mem_room(size_t *room)
{
    pthread_mutex_lock(&mu);
    int dev;
    acct *a;
    int rc = account(&dev, &a);
    *room = rc ? 0 : (size_t)(a->budget - a->reserved);
    /* the calling thread's reservation's unused part is its own room */
    if (!rc && cur && cur->dev == dev)
        *room += (size_t)(cur->size - cur->used);
    pthread_mutex_unlock(&mu);
    return rc;
}

extern "C" {

int cz_cuda_malloc(void **p, size_t bytes, cz_buf_class cls)
{
    if (!p || (unsigned)cls >= CZ_BUF__COUNT)
        return CZ_ERR_INVALID_ARG;
    *p = NULL;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    uint64_t b = bytes ? bytes : 1;
    rec *r = (rec *)calloc(1, sizeof *r);
    if (!r)
        return CZ_ERR_NOMEM;
    /* charge first: the reservation, else the budget */
    pthread_mutex_lock(&mu);
    int dev = 0;
    acct *a = NULL;
    int rc = account(&dev, &a);
    bool charged = false;
    if (!rc) {
        if (cur && cur->dev == dev && cur->size - cur->used >= b) {
            r->r = cur;
            cur->used += b;
            charged = true;
        } else if (a->budget - a->reserved >= b) {
            add_reserved(a, b);
            a->held += b;
            charged = true;
        } else {
            if (debug())
                fprintf(stderr,
                        "cuzk cuda: %llu bytes of %s do not fit device %d's budget "
                        "(%llu of %llu reserved)\n",
                        (unsigned long long)b, cz_buf_class_name(cls), dev,
                        (unsigned long long)a->reserved, (unsigned long long)a->budget);
            rc = CZ_ERR_NOMEM;
        }
    }
    pthread_mutex_unlock(&mu);
    if (!rc) {
        rc = cuda_err(cudaMalloc(p, b));
        if (rc) {
            *p = NULL;
            if (debug())
                fprintf(stderr, "cuzk cuda: cudaMalloc of %llu bytes (%s) failed on device %d\n",
                        (unsigned long long)b, cz_buf_class_name(cls), dev);
        }
    }
    pthread_mutex_lock(&mu);
    if (rc) {
        if (charged && r->r) {
            r->r->used -= b;
        } else if (charged) {
            a->reserved -= b;
            a->held -= b;
        }
        free(r);
    } else {
        r->p = *p;
        r->bytes = b;
        r->dev = dev;
        r->cls = cls;
        r->next = live;
        live = r;
        a->allocated += b;
        if (a->allocated > a->peak_allocated)
            a->peak_allocated = a->allocated;
        cz_buf_class_stats *c = &a->cls[cls];
        c->live_count++;
        c->live_bytes += b;
        if (c->live_bytes > c->high_water_bytes)
            c->high_water_bytes = c->live_bytes;
        c->total_allocs++;
        c->total_alloc_bytes += b;
    }
    pthread_mutex_unlock(&mu);
    return rc;
}

void cz_cuda_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&mu);
    rec *r = NULL;
    for (rec **pp = &live; *pp; pp = &(*pp)->next) {
        if ((*pp)->p == p) {
            r = *pp;
            *pp = r->next;
            break;
        }
    }
    pthread_mutex_unlock(&mu);
    int cur_dev = -1;
    bool other = r && cudaGetDevice(&cur_dev) == cudaSuccess && cur_dev != r->dev;
    if (other)
        cudaSetDevice(r->dev);
    cudaFree(p);
    if (other)
        cudaSetDevice(cur_dev);
    if (!r)
        return; /* not ours: freed, nothing to count */
    pthread_mutex_lock(&mu);
    acct *a = &accts[r->dev];
    if (r->r) {
        r->r->used -= r->bytes;
    } else {
        a->reserved -= r->bytes;
        a->held -= r->bytes;
    }
    a->allocated -= r->bytes;
    cz_buf_class_stats *c = &a->cls[r->cls];
    c->live_count--;
    c->live_bytes -= r->bytes;
    c->total_frees++;
    c->total_free_bytes += r->bytes;
    pthread_cond_broadcast(&freed);
    pthread_mutex_unlock(&mu);
    free(r);
}

int cz_cuda_mem_reserve(cz_cuda_resv **out, size_t bytes, int64_t timeout_ms)
{
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (!bytes)
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    cz_cuda_resv *r = (cz_cuda_resv *)calloc(1, sizeof *r);
    if (!r)
        return CZ_ERR_NOMEM;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (timeout_ms > 0) {
        dl.tv_sec += timeout_ms / 1000;
        dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (dl.tv_nsec >= 1000000000L)
            dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&mu);
    acct *a = NULL;
    int rc = account(&r->dev, &a);
    if (!rc && bytes > a->budget)
        rc = CZ_ERR_TOO_BIG;
    bool waiting = !rc;
    if (waiting)
        a->waiters++;
    while (!rc && a->budget - a->reserved < bytes) {
        if (bytes > a->budget - a->held)
            rc = CZ_ERR_BUSY; /* kept buffers hold it: no reservation's end frees it */
        else if (timeout_ms == 0)
            rc = CZ_ERR_TIMEOUT;
        else if (timeout_ms < 0)
            pthread_cond_wait(&freed, &mu);
        else if (pthread_cond_timedwait(&freed, &mu, &dl))
            rc = a->budget - a->reserved < bytes ? CZ_ERR_TIMEOUT : CZ_OK;
    }
    if (waiting)
        a->waiters--;
    if (!rc) {
        add_reserved(a, bytes);
        a->reservations++;
        r->size = bytes;
        r->prev = cur;
        cur = r;
    }
    pthread_mutex_unlock(&mu);
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    return CZ_OK;
}

void cz_cuda_mem_release(cz_cuda_resv *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&mu);
    acct *a = &accts[r->dev];
    /* buffers still live on it move to the budget */
    for (rec *x = live; x; x = x->next) {
        if (x->r == r) {
            x->r = NULL;
            a->held += x->bytes;
        }
    }
    a->reserved -= r->size - r->used;
    a->reservations--;
    /* unlink from the thread's stack (normally its top) */
    if (cur == r) {
        cur = r->prev;
    } else {
        for (cz_cuda_resv *x = cur; x; x = x->prev) {
            if (x->prev == r) {
                x->prev = r->prev;
                break;
            }
        }
    }
    pthread_cond_broadcast(&freed);
    pthread_mutex_unlock(&mu);
    free(r);
}

int cz_cuda_mem_snapshot_of(int ordinal, cz_cuda_mem_snapshot *s)
{
    if (!s)
        return CZ_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    if (ordinal < 0 || ordinal >= cz_cuda_device_count() || ordinal >= MAX_DEVICES)
        return cz_cuda_available() ? CZ_ERR_INVALID_ARG : CZ_ERR_UNSUPPORTED;
    pthread_mutex_lock(&mu);
    acct *a = &accts[ordinal];
    int rc = CZ_OK;
    if (!a->ready) { /* not used yet: its account starts now */
        int cur_dev = 0, dev;
        rc = cuda_err(cudaGetDevice(&cur_dev));
        if (!rc)
            rc = cuda_err(cudaSetDevice(ordinal));
        if (!rc) {
            rc = account(&dev, &a);
            cudaSetDevice(cur_dev);
        }
    }
    if (!rc) {
        size_t free_b = 0, total_b = 0;
        int cur_dev = 0;
        if (cudaGetDevice(&cur_dev) == cudaSuccess && cudaSetDevice(ordinal) == cudaSuccess &&
            cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
            s->free = free_b;
        else
            cudaGetLastError();
        cudaSetDevice(cur_dev);
        s->total = a->total;
        s->budget = a->budget;
        s->reserved = a->reserved;
        s->peak_reserved = a->peak_reserved;
        s->allocated = a->allocated;
        s->peak_allocated = a->peak_allocated;
        s->reservations = a->reservations;
        s->waiters = a->waiters;
        memcpy(s->cls, a->cls, sizeof s->cls);
    }
    pthread_mutex_unlock(&mu);
    return rc;
}

int cz_cuda_set_mem_budget(int ordinal, uint64_t bytes)
{
    if (ordinal < 0 || ordinal >= MAX_DEVICES)
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    pthread_mutex_lock(&mu);
    acct *a = &accts[ordinal];
    int rc = CZ_OK;
    if (a->ready && bytes && bytes < a->reserved) {
        rc = CZ_ERR_BUSY;
    } else {
        a->cap = bytes;
        if (a->ready)
            a->budget = a->cap && a->cap < a->limit ? a->cap : a->limit;
        pthread_cond_broadcast(&freed); /* waiters see the new budget */
    }
    pthread_mutex_unlock(&mu);
    return rc;
}

void cz_cuda_mem_reset_peaks(void)
{
    pthread_mutex_lock(&mu);
    for (int d = 0; d < MAX_DEVICES; d++) {
        acct *a = &accts[d];
        a->peak_reserved = a->reserved;
        a->peak_allocated = a->allocated;
        for (int c = 0; c < CZ_BUF__COUNT; c++)
            a->cls[c].high_water_bytes = a->cls[c].live_bytes;
    }
    pthread_mutex_unlock(&mu);
}

} /* extern "C" */
