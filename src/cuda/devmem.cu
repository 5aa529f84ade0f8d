/* Device memory under a budget, like host memory (include/cuzk/cuda.h:
 * cz_cuda_malloc, cz_cuda_mem_reserve, cz_cuda_mem_snapshot_of).
 *
 * Per device: a budget of mem.h (cz_budget; its total the free memory when
 * the device is first used, less a margin for the driver and kernels' local
 * memory, or CZ_CUDA_MEM_BUDGET, or the cap), which keeps the bytes
 * reserved (reservations plus allocations made outside one), the bytes
 * allocated, their peaks and the per-class counters; this file makes and
 * lists the buffers (cudaMalloc, cudaFree) and keeps each thread's current
 * reservation.  Every device allocation of this layer goes
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
 * when the budget less held cannot hold it), so every wait ends.  Waiting
 * reservations are served in arrival order (mem.h's order, equal keys). */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_err.cuh"
#include "cuda/devmem.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

#define MAX_DEVICES 16
#define MARGIN      ((uint64_t)512 << 20)

struct cz_cuda_resv {
    int dev;
    cz_resv *r;
    cz_cuda_resv *prev; /* the thread's reservation before this one */
};

namespace
{

struct acct {
    cz_budget *b;   /* NULL until the device's first use */
    uint64_t cap;   /* cz_cuda_set_mem_budget's, 0: none */
    uint64_t first; /* the free memory at first use less the margin, or CZ_CUDA_MEM_BUDGET */
    uint64_t limit; /* first, lowered by what the device has lost since (follow) */
    uint64_t total; /* the device's memory */
};

/* A live allocation. */
struct rec {
    void *p;
    uint64_t bytes;
    int dev;
    cz_buf_class cls;
    cz_resv *r; /* charged to, or NULL: held by the budget */
    rec *next;
};

/* mu guards the accounts' fields and the list; each budget has its own
 * lock, taken after mu. */
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
acct accts[MAX_DEVICES];
rec *live;
__thread cz_cuda_resv *cur;

bool debug(void)
{
    const char *e = getenv("CZ_CUDA_DEBUG");
    return e && *e && strcmp(e, "0");
}

uint64_t budget_of(const acct *a) { return a->cap && a->cap < a->limit ? a->cap : a->limit; }

/* The current device's account, set up on first use; under mu. */
int account(int *dev, acct **out)
{
    int rc = cuda_err(cudaGetDevice(dev));
    if (rc)
        return rc;
    if (*dev < 0 || *dev >= MAX_DEVICES)
        return CZ_ERR_UNSUPPORTED;
    acct *a = &accts[*dev];
    if (!a->b) {
        size_t free_b = 0, total_b = 0;
        if ((rc = cuda_err(cudaMemGetInfo(&free_b, &total_b))))
            return rc;
        const char *e = getenv("CZ_CUDA_MEM_BUDGET");
        uint64_t want = e && *e ? strtoull(e, NULL, 0) : 0;
        a->total = total_b;
        a->first = free_b > MARGIN ? free_b - MARGIN : 0;
        if (want && want < a->first)
            a->first = want;
        a->limit = a->first;
        /* a new budget is not empty: a device short of the margin gets 0 */
        if ((rc = cz_budget_new(&a->b, 1)))
            return rc;
        cz_budget_set_total(a->b, budget_of(a));
    }
    *out = a;
    return CZ_OK;
}

/* The current device's account (zeroed on failure), and the device. */
int current(int *dev, cz_mem_snapshot *s)
{
    pthread_mutex_lock(&mu);
    acct *a;
    int rc = account(dev, &a);
    *s = cz_mem_snapshot{};
    if (!rc)
        cz_budget_snapshot(a->b, s);
    pthread_mutex_unlock(&mu);
    return rc;
}

} /* namespace */

/* The budget follows the device: memory the driver takes after the first
 * use and no allocation of ours accounts for (modules loaded lazily at a
 * kernel's first launch, the local memory a kernel's stack frames need on
 * every SM, another process) comes out of it.  The limit is what we hold
 * plus what the device has free, less the margin, never above the first
 * one; a budget that cannot shrink at once (more reserved) shrinks at a
 * later call.  Under mu. */
static void follow(acct *a)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    cz_mem_snapshot s;
    cz_budget_snapshot(a->b, &s);
    uint64_t can = s.allocated + free_b > MARGIN ? s.allocated + free_b - MARGIN : 0;
    uint64_t limit = can < a->first ? can : a->first;
    if (limit == a->limit)
        return;
    uint64_t was = a->limit;
    a->limit = limit;
    if (cz_budget_set_total(a->b, budget_of(a)) != CZ_OK)
        a->limit = was;
    else if (debug())
        fprintf(stderr, "cuzk cuda: device budget %llu bytes (the device's free memory)\n",
                (unsigned long long)budget_of(a));
}

int cz_cuda_mem_kept(uint64_t *held, uint64_t *budget)
{
    int dev;
    cz_mem_snapshot s;
    pthread_mutex_lock(&mu);
    acct *a;
    int rc = account(&dev, &a);
    s = cz_mem_snapshot{};
    if (!rc) {
        follow(a);
        cz_budget_snapshot(a->b, &s);
    }
    pthread_mutex_unlock(&mu);
    *held = s.held;
    *budget = s.total;
    return rc;
}

int cz_cuda_mem_room(size_t *room)
{
    int dev;
    cz_mem_snapshot s;
    int rc = current(&dev, &s);
    *room = (size_t)(s.total - s.reserved);
    /* the calling thread's reservation's unused part is its own room */
    if (!rc && cur && cur->dev == dev)
        *room += (size_t)(cz_resv_size(cur->r) - cz_resv_used(cur->r));
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
    cz_resv *from = cur && cur->dev == dev ? cur->r : NULL;
    if (!rc && from && cz_budget_charge(a->b, from, b) != CZ_OK)
        from = NULL;
    if (!rc && !from && cz_budget_charge(a->b, NULL, b) != CZ_OK) {
        if (debug()) {
            cz_mem_snapshot s;
            cz_budget_snapshot(a->b, &s);
            fprintf(stderr,
                    "cuzk cuda: %llu bytes of %s do not fit device %d's budget "
                    "(%llu of %llu reserved)\n",
                    (unsigned long long)b, cz_buf_class_name(cls), dev,
                    (unsigned long long)s.reserved, (unsigned long long)s.total);
        }
        rc = CZ_ERR_NOMEM;
    }
    pthread_mutex_unlock(&mu);
    if (!rc) {
        rc = cuda_err(cudaMalloc(p, b));
        if (rc) {
            *p = NULL;
            cz_budget_uncharge(a->b, from, b);
            if (debug())
                fprintf(stderr, "cuzk cuda: cudaMalloc of %llu bytes (%s) failed on device %d\n",
                        (unsigned long long)b, cz_buf_class_name(cls), dev);
        }
    }
    if (rc) {
        free(r);
        return rc;
    }
    *r = rec{*p, b, dev, cls, from, NULL};
    pthread_mutex_lock(&mu);
    r->next = live;
    live = r;
    cz_budget_note_alloc(a->b, cls, b);
    pthread_mutex_unlock(&mu);
    return CZ_OK;
}

void cz_cuda_free(void *p)
{
    if (!p)
        return;
    /* listed until freed, so a release meanwhile moves its charge to held */
    pthread_mutex_lock(&mu);
    rec *r = live;
    while (r && r->p != p)
        r = r->next;
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
    for (rec **pp = &live; *pp; pp = &(*pp)->next) {
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    }
    cz_budget_note_free(accts[r->dev].b, r->r, r->cls, r->bytes, r->bytes);
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
    pthread_mutex_lock(&mu);
    acct *a = NULL;
    int rc = account(&r->dev, &a);
    pthread_mutex_unlock(&mu);
    /* the budget lives as long as the process: waited on without mu */
    const cz_wait_key key = {0, 0, 0};
    if (!rc)
        rc = cz_budget_reserve(a->b, bytes, &key, timeout_ms, NULL, &r->r, NULL, 0);
    if (rc) {
        free(r);
        return rc;
    }
    r->prev = cur;
    cur = r;
    *out = r;
    return CZ_OK;
}

void cz_cuda_mem_release(cz_cuda_resv *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&mu);
    /* buffers still live on it move to the budget */
    for (rec *x = live; x; x = x->next)
        if (x->r == r->r)
            x->r = NULL;
    cz_resv_release_held(r->r);
    pthread_mutex_unlock(&mu);
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
    if (!a->b) { /* not used yet: its account starts now */
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
        cz_mem_snapshot m;
        cz_budget_snapshot(a->b, &m);
        s->total = a->total;
        s->budget = m.total;
        s->reserved = m.reserved;
        s->peak_reserved = m.peak_reserved;
        s->allocated = m.allocated;
        s->peak_allocated = m.peak_allocated;
        s->reservations = m.reservations;
        s->waiters = m.waiters;
        memcpy(s->cls, m.cls, sizeof s->cls);
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
    uint64_t was = a->cap;
    a->cap = bytes;
    /* more reserved than the new budget: CZ_ERR_BUSY, the cap unchanged */
    int rc = a->b ? cz_budget_set_total(a->b, budget_of(a)) : CZ_OK;
    if (rc)
        a->cap = was;
    pthread_mutex_unlock(&mu);
    return rc;
}

void cz_cuda_mem_reset_peaks(void)
{
    pthread_mutex_lock(&mu);
    for (int d = 0; d < MAX_DEVICES; d++)
        if (accts[d].b)
            cz_budget_reset_peaks(accts[d].b);
    pthread_mutex_unlock(&mu);
}

} /* extern "C" */
