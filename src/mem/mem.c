/* Memory budget, reservations and tracked buffers.
 *
 * One mutex per budget guards everything below it: the counters, the
 * ordered list of waiters, every reservation's size/used, and the list of
 * live buffers (oldest first).  Each waiter sleeps on its own condition
 * variable (CLOCK_MONOTONIC, for the time limit) and is granted by whichever
 * thread frees memory, so a grant is never lost between wakeups.
 *
 * Invariant after every critical section: the head waiter (the first in key
 * order) does not fit in the free part, total - reserved.  grant_locked()
 * restores it whenever memory is freed or the head changes.
 *
 * Charges without a mapping (cz_budget_charge, for src/cuda's device
 * buffers) share the counters: one made outside a reservation is held,
 * part of reserved, and a waiter that cannot fit beside what is held is
 * refused rather than left waiting for a release that cannot make room. */
#define _GNU_SOURCE /* MADV_HUGEPAGE, MAP_ANONYMOUS */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "cuzk/mem.h"
#include "util/list.h"

#define HDR_MAGIC   0x637a6d656d686472ull /* "czmemhdr" */
#define HUGE_MIN    ((size_t)2 << 20)     /* madvise(MADV_HUGEPAGE) from here */
#define DEFAULT_MAP ((size_t)1 << 20)     /* cz_allocator_default maps from here */

typedef struct waiter {
    struct waiter *prev, *next;
    cz_wait_key key;
    uint64_t bytes;
    cz_resv *resv; /* allocated up front; filled in when granted */
    int granted;
    pthread_cond_t cv;
} waiter;

typedef struct hdr {
    uint64_t magic;
    cz_buf_class cls;
    uint64_t bytes, charge;
    cz_buf_tag tag;
    cz_resv *resv;
    struct hdr *prev, *next;
} hdr;

struct cz_resv {
    cz_budget *b;
    uint64_t size, used;
    uint64_t nbufs; /* live buffers, including ones being mapped */
};

struct cz_budget {
    pthread_mutex_t mu;
    uint64_t total;
    uint64_t reserved, peak_reserved, allocated, peak_allocated;
    uint64_t held;                          /* charged outside reservations (part of reserved) */
    uint64_t reservations, nwaiters, nbufs; /* nbufs: live charges */
    waiter *wfirst, *wlast;
    hdr *bfirst, *blast;
    cz_buf_class_stats cls[CZ_BUF__COUNT];
};

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

static size_t page_size(void)
{
    static size_t ps;
    size_t p = __atomic_load_n(&ps, __ATOMIC_RELAXED);
    if (!p) {
        long v = sysconf(_SC_PAGESIZE);
        p = v > 0 ? (size_t)v : 4096;
        __atomic_store_n(&ps, p, __ATOMIC_RELAXED);
    }
    return p;
}

const char *cz_buf_class_name(cz_buf_class c)
{
    static const char *const names[CZ_BUF__COUNT] = {
        "params",  "r1cs",    "witness", "abc",   "density",
        "pending", "scratch", "staging", "input", "other",
    };
    return (unsigned)c < CZ_BUF__COUNT ? names[c] : "?";
}

/* ---------------------------------------------------------------- budget --- */

int cz_budget_new(cz_budget **out, uint64_t total)
{
    if (!out)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (total == 0)
        return CZ_ERR_INVALID_ARG;
    cz_budget *b = calloc(1, sizeof *b);
    if (!b)
        return CZ_ERR_NOMEM;
    if (pthread_mutex_init(&b->mu, NULL) != 0) {
        free(b);
        return CZ_ERR_NOMEM;
    }
    b->total = total;
    *out = b;
    return CZ_OK;
}

int cz_budget_free(cz_budget *b)
{
    if (!b)
        return CZ_OK;
    pthread_mutex_lock(&b->mu);
    int busy = b->reservations || b->nwaiters || b->nbufs;
    pthread_mutex_unlock(&b->mu);
    if (busy)
        return CZ_ERR_BUSY;
    pthread_mutex_destroy(&b->mu);
    free(b);
    return CZ_OK;
}

int cz_budget_auto_total(uint64_t *total, uint64_t margin)
{
    if (!total)
        return CZ_ERR_INVALID_ARG;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return CZ_ERR_IO;
    char line[256];
    unsigned long long kb = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemTotal: %llu kB", &kb) == 1;
    fclose(f);
    if (!found || kb == 0 || kb > UINT64_MAX / 1024)
        return CZ_ERR_IO;
    uint64_t mem = (uint64_t)kb * 1024;
    if (margin >= mem)
        return CZ_ERR_INVALID_ARG;
    *total = mem - margin;
    return CZ_OK;
}

/* Atomic: cz_budget_set_total may change it while a reserve reads it. */
uint64_t cz_budget_total(const cz_budget *b)
{
    return __atomic_load_n(&b->total, __ATOMIC_RELAXED);
}

bool cz_wait_key_before(const cz_wait_key *a, const cz_wait_key *c)
{
    if (a->priority != c->priority)
        return a->priority > c->priority;
    if (a->job_seq != c->job_seq)
        return a->job_seq < c->job_seq;
    return a->partition < c->partition;
}

/* After every waiter with a key <= w's: equal keys keep arrival order. */
static void waiter_insert(cz_budget *b, waiter *w)
{
    waiter *at = b->wfirst;
    while (at && !cz_wait_key_before(&w->key, &at->key))
        at = at->next;
    w->next = at;
    w->prev = at ? at->prev : b->wlast;
    if (w->prev)
        w->prev->next = w;
    else
        b->wfirst = w;
    if (at)
        at->prev = w;
    else
        b->wlast = w;
    b->nwaiters++;
}

static void waiter_unlink(cz_budget *b, waiter *w)
{
    CZ_DLIST_UNLINK_TAIL(b->wfirst, b->wlast, w, prev, next);
    w->prev = w->next = NULL;
    b->nwaiters--;
}

static void take_locked(cz_budget *b, uint64_t bytes)
{
    b->reserved += bytes;
    if (b->reserved > b->peak_reserved)
        b->peak_reserved = b->reserved;
}

/* Grants head waiters in order while they fit. */
static void grant_locked(cz_budget *b)
{
    waiter *w;
    while ((w = b->wfirst) && w->bytes <= b->total - b->reserved) {
        waiter_unlink(b, w);
        take_locked(b, w->bytes);
        b->reservations++;
        w->resv->size = w->bytes;
        w->granted = 1;
        pthread_cond_signal(&w->cv);
    }
}

static void wake_locked(cz_budget *b)
{
    for (waiter *w = b->wfirst; w; w = w->next)
        pthread_cond_signal(&w->cv);
}

/* Absolute CLOCK_MONOTONIC deadline ms from now. */
static struct timespec deadline_after(int64_t ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += (time_t)(ms / 1000);
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static int cancelled(const atomic_int *cancel) { return cancel && atomic_load(cancel) != 0; }

int cz_budget_reserve(cz_budget *b, uint64_t bytes, const cz_wait_key *key, int64_t timeout_ms,
                      const atomic_int *cancel, cz_resv **out, char *err, size_t errlen)
{
    if (!out)
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "reserve: out is NULL");
    *out = NULL;
    if (!b || !key || bytes == 0)
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "reserve: %s",
                    !b     ? "budget is NULL"
                    : !key ? "key is NULL"
                           : "zero bytes");
    uint64_t total = cz_budget_total(b);
    if (bytes > total)
        return fail(err, errlen, CZ_ERR_TOO_BIG,
                    "reserve: %llu bytes can never fit in a budget of %llu bytes",
                    (unsigned long long)bytes, (unsigned long long)total);
    if (cancelled(cancel))
        return fail(err, errlen, CZ_ERR_CANCELLED, "reserve: cancelled");
    cz_resv *r = calloc(1, sizeof *r);
    if (!r)
        return fail(err, errlen, CZ_ERR_NOMEM, "reserve: out of memory");
    r->b = b;

    waiter w = {.key = *key, .bytes = bytes, .resv = r};
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&w.cv, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0) {
        free(r);
        return fail(err, errlen, CZ_ERR_NOMEM, "reserve: cannot create a condition variable");
    }
    /* Effectively unlimited beyond ~30 years: avoids time_t overflow. */
    int limited = timeout_ms >= 0 && timeout_ms < (int64_t)1000 * 86400 * 365 * 30;
    struct timespec dl = limited ? deadline_after(timeout_ms) : (struct timespec){0, 0};

    pthread_mutex_lock(&b->mu);
    /* Queued first, then granted only if it is the head and fits: a request
     * behind other waiters never overtakes them. */
    waiter_insert(b, &w);
    grant_locked(b);
    rc = CZ_OK;
    while (!w.granted) {
        if (cancelled(cancel)) {
            rc = CZ_ERR_CANCELLED;
            break;
        }
        if (bytes > b->total - b->held) {
            rc = CZ_ERR_BUSY; /* held outside reservations: no release makes room */
            break;
        }
        if (limited) {
            if (timeout_ms == 0 || pthread_cond_timedwait(&w.cv, &b->mu, &dl) == ETIMEDOUT) {
                if (!w.granted)
                    rc = CZ_ERR_TIMEOUT;
                break;
            }
        } else {
            pthread_cond_wait(&w.cv, &b->mu);
        }
    }
    if (rc != CZ_OK) {
        waiter_unlink(b, &w);
        grant_locked(b); /* the next head may fit now */
    }
    uint64_t held = b->held;
    pthread_mutex_unlock(&b->mu);
    pthread_cond_destroy(&w.cv);

    if (rc == CZ_ERR_CANCELLED) {
        free(r);
        return fail(err, errlen, rc, "reserve: cancelled while waiting for %llu bytes",
                    (unsigned long long)bytes);
    }
    if (rc == CZ_ERR_TIMEOUT) {
        free(r);
        return fail(err, errlen, rc, "reserve: %llu bytes not available within %lld ms",
                    (unsigned long long)bytes, (long long)timeout_ms);
    }
    if (rc == CZ_ERR_BUSY) {
        free(r);
        return fail(err, errlen, rc, "reserve: %llu bytes cannot fit beside the %llu held",
                    (unsigned long long)bytes, (unsigned long long)held);
    }
    *out = r;
    return CZ_OK;
}

void cz_budget_wake(cz_budget *b)
{
    pthread_mutex_lock(&b->mu);
    wake_locked(b);
    pthread_mutex_unlock(&b->mu);
}

int cz_budget_set_total(cz_budget *b, uint64_t total)
{
    pthread_mutex_lock(&b->mu);
    int rc = total < b->reserved ? CZ_ERR_BUSY : CZ_OK;
    if (rc == CZ_OK) {
        __atomic_store_n(&b->total, total, __ATOMIC_RELAXED);
        grant_locked(b);
        wake_locked(b); /* those that no longer fit beside what is held */
    }
    pthread_mutex_unlock(&b->mu);
    return rc;
}

void cz_budget_reset_peaks(cz_budget *b)
{
    pthread_mutex_lock(&b->mu);
    b->peak_reserved = b->reserved;
    b->peak_allocated = b->allocated;
    for (int c = 0; c < CZ_BUF__COUNT; c++)
        b->cls[c].high_water_bytes = b->cls[c].live_bytes;
    pthread_mutex_unlock(&b->mu);
}

/* ----------------------------------------------------------- reservation --- */

uint64_t cz_resv_size(const cz_resv *r)
{
    pthread_mutex_lock(&r->b->mu);
    uint64_t v = r->size;
    pthread_mutex_unlock(&r->b->mu);
    return v;
}

uint64_t cz_resv_used(const cz_resv *r)
{
    pthread_mutex_lock(&r->b->mu);
    uint64_t v = r->used;
    pthread_mutex_unlock(&r->b->mu);
    return v;
}

int cz_resv_shrink(cz_resv *r, uint64_t bytes)
{
    cz_budget *b = r->b;
    int rc = CZ_OK;
    pthread_mutex_lock(&b->mu);
    if (bytes > r->size - r->used) {
        rc = CZ_ERR_INVALID_ARG;
    } else {
        r->size -= bytes;
        b->reserved -= bytes;
        grant_locked(b);
    }
    pthread_mutex_unlock(&b->mu);
    return rc;
}

int cz_resv_grow(cz_resv *r, uint64_t bytes)
{
    cz_budget *b = r->b;
    int rc = CZ_ERR_BUSY;
    pthread_mutex_lock(&b->mu);
    /* Waiters come first: a grow while they wait would overtake them. */
    if (!b->wfirst && bytes <= b->total - b->reserved) {
        r->size += bytes;
        take_locked(b, bytes);
        rc = CZ_OK;
    }
    pthread_mutex_unlock(&b->mu);
    return rc;
}

int cz_resv_release(cz_resv *r)
{
    if (!r)
        return CZ_OK;
    cz_budget *b = r->b;
    pthread_mutex_lock(&b->mu);
    if (r->nbufs) {
        pthread_mutex_unlock(&b->mu);
        return CZ_ERR_BUSY;
    }
    b->reserved -= r->size;
    b->reservations--;
    grant_locked(b);
    pthread_mutex_unlock(&b->mu);
    free(r);
    return CZ_OK;
}

void cz_resv_release_held(cz_resv *r)
{
    if (!r)
        return;
    cz_budget *b = r->b;
    pthread_mutex_lock(&b->mu);
    b->held += r->used;
    b->reserved -= r->size - r->used;
    b->reservations--;
    grant_locked(b);
    wake_locked(b); /* more is held: some may no longer fit beside it */
    pthread_mutex_unlock(&b->mu);
    free(r);
}

/* --------------------------------------------------------------- charges --- */

/* Takes charge from r's unused part, or (r NULL) from the free part as
 * held; false, nothing taken, when it does not fit. */
static bool charge_locked(cz_budget *b, cz_resv *r, uint64_t charge)
{
    if (charge > (r ? r->size - r->used : b->total - b->reserved))
        return false;
    if (r) {
        r->used += charge;
        r->nbufs++;
    } else {
        take_locked(b, charge);
        b->held += charge;
        wake_locked(b); /* some may no longer fit beside what is held */
    }
    b->nbufs++;
    b->allocated += charge;
    if (b->allocated > b->peak_allocated)
        b->peak_allocated = b->allocated;
    return true;
}

static void uncharge_locked(cz_budget *b, cz_resv *r, uint64_t charge)
{
    if (r) {
        r->used -= charge;
        r->nbufs--;
    } else {
        b->reserved -= charge;
        b->held -= charge;
        grant_locked(b);
    }
    b->nbufs--;
    b->allocated -= charge;
}

static void note_alloc_locked(cz_budget *b, cz_buf_class cls, uint64_t bytes)
{
    cz_buf_class_stats *s = &b->cls[cls];
    s->live_count++;
    s->live_bytes += bytes;
    if (s->live_bytes > s->high_water_bytes)
        s->high_water_bytes = s->live_bytes;
    s->total_allocs++;
    s->total_alloc_bytes += bytes;
}

static void note_free_locked(cz_budget *b, cz_resv *r, cz_buf_class cls, uint64_t bytes,
                             uint64_t charge)
{
    cz_buf_class_stats *s = &b->cls[cls];
    s->live_count--;
    s->live_bytes -= bytes;
    s->total_frees++;
    s->total_free_bytes += bytes;
    uncharge_locked(b, r, charge);
}

int cz_budget_charge(cz_budget *b, cz_resv *r, uint64_t charge)
{
    pthread_mutex_lock(&b->mu);
    bool fits = charge_locked(b, r, charge);
    pthread_mutex_unlock(&b->mu);
    return fits ? CZ_OK : CZ_ERR_BUDGET;
}

void cz_budget_uncharge(cz_budget *b, cz_resv *r, uint64_t charge)
{
    pthread_mutex_lock(&b->mu);
    uncharge_locked(b, r, charge);
    pthread_mutex_unlock(&b->mu);
}

void cz_budget_note_alloc(cz_budget *b, cz_buf_class cls, uint64_t bytes)
{
    pthread_mutex_lock(&b->mu);
    note_alloc_locked(b, cls, bytes);
    pthread_mutex_unlock(&b->mu);
}

void cz_budget_note_free(cz_budget *b, cz_resv *r, cz_buf_class cls, uint64_t bytes,
                         uint64_t charge)
{
    pthread_mutex_lock(&b->mu);
    note_free_locked(b, r, cls, bytes, charge);
    pthread_mutex_unlock(&b->mu);
}

/* ------------------------------------------------------ tracked buffers --- */

uint64_t cz_mem_charge(size_t bytes)
{
    uint64_t ps = page_size();
    if ((uint64_t)bytes > UINT64_MAX - 2 * ps)
        return UINT64_MAX;
    return ps + ((uint64_t)bytes + ps - 1) / ps * ps;
}

static hdr *header_of(void *p)
{
    hdr *h = (hdr *)((char *)p - page_size());
    if (h->magic != HDR_MAGIC)
        abort(); /* not a live cz_mem_alloc buffer: a bug in the caller */
    return h;
}

int cz_mem_alloc(void **out, cz_resv *r, cz_buf_class cls, size_t bytes, const cz_buf_tag *tag,
                 char *err, size_t errlen)
{
    if (!out)
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "mem_alloc: out is NULL");
    *out = NULL;
    if (!r || bytes == 0 || (unsigned)cls >= CZ_BUF__COUNT)
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "mem_alloc: %s",
                    !r           ? "reservation is NULL"
                    : bytes == 0 ? "zero bytes"
                                 : "bad class");
    uint64_t charge = cz_mem_charge(bytes); /* saturates at UINT64_MAX */
    cz_budget *b = r->b;

    /* Charge first so the reservation cannot be overdrawn or released while
     * the mapping is made outside the lock. */
    pthread_mutex_lock(&b->mu);
    uint64_t size = r->size, used = r->used;
    bool fits = charge_locked(b, r, charge);
    pthread_mutex_unlock(&b->mu);
    if (!fits)
        return fail(err, errlen, CZ_ERR_BUDGET,
                    "mem_alloc: %zu bytes (%llu with header and rounding) exceed the "
                    "reservation's unused %llu of %llu bytes (%s)",
                    bytes, (unsigned long long)charge, (unsigned long long)(size - used),
                    (unsigned long long)size, cz_buf_class_name(cls));

    void *base =
        mmap(NULL, (size_t)charge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    pthread_mutex_lock(&b->mu);
    if (base == MAP_FAILED) {
        uncharge_locked(b, r, charge);
        pthread_mutex_unlock(&b->mu);
        return fail(err, errlen, CZ_ERR_NOMEM, "mem_alloc: mmap of %llu bytes failed (%s)",
                    (unsigned long long)charge, cz_buf_class_name(cls));
    }
    hdr *h = base;
    h->magic = HDR_MAGIC;
    h->cls = cls;
    h->bytes = bytes;
    h->charge = charge;
    h->tag = tag ? *tag : (cz_buf_tag){0, UINT32_MAX, NULL};
    h->resv = r;
    h->next = NULL;
    h->prev = b->blast;
    if (b->blast)
        b->blast->next = h;
    else
        b->bfirst = h;
    b->blast = h;
    note_alloc_locked(b, cls, bytes);
    pthread_mutex_unlock(&b->mu);

    if (bytes >= HUGE_MIN)
        madvise(base, (size_t)charge, MADV_HUGEPAGE); /* advice only: failure is harmless */
    *out = (char *)base + page_size();
    return CZ_OK;
}

void cz_mem_free(void *p)
{
    if (!p)
        return;
    hdr *h = header_of(p);
    cz_resv *r = h->resv;
    cz_budget *b = r->b;
    pthread_mutex_lock(&b->mu);
    CZ_DLIST_UNLINK_TAIL(b->bfirst, b->blast, h, prev, next);
    note_free_locked(b, r, h->cls, h->bytes, h->charge);
    h->magic = 0;
    pthread_mutex_unlock(&b->mu);
    munmap(h, (size_t)h->charge);
}

void cz_mem_set_stage(void *p, const char *stage)
{
    hdr *h = header_of(p);
    cz_budget *b = h->resv->b;
    pthread_mutex_lock(&b->mu);
    h->tag.stage = stage;
    pthread_mutex_unlock(&b->mu);
}

void cz_budget_snapshot(cz_budget *b, cz_mem_snapshot *s)
{
    pthread_mutex_lock(&b->mu);
    s->total = b->total;
    s->reserved = b->reserved;
    s->peak_reserved = b->peak_reserved;
    s->allocated = b->allocated;
    s->peak_allocated = b->peak_allocated;
    s->reservations = b->reservations;
    s->waiters = b->nwaiters;
    memcpy(s->cls, b->cls, sizeof s->cls);
    s->held = b->held;
    pthread_mutex_unlock(&b->mu);
}

size_t cz_budget_live_buffers(cz_budget *b, cz_buf_info *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&b->mu);
    for (hdr *h = b->bfirst; h; h = h->next, n++)
        if (n < max)
            out[n] = (cz_buf_info){h->cls, h->bytes, h->tag};
    pthread_mutex_unlock(&b->mu);
    return n;
}

uint64_t cz_mem_rss(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long long size, resident;
    int n = fscanf(f, "%llu %llu", &size, &resident);
    fclose(f);
    return n == 2 ? (uint64_t)resident * page_size() : 0;
}

/* ------------------------------------------------------- allocator hook --- */

/* bytes 0 is served as 1 so that empty arrays get a pointer too. */
static void *default_alloc(void *ctx, cz_buf_class cls, size_t bytes)
{
    if (bytes >= DEFAULT_MAP) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        if (bytes >= HUGE_MIN)
            madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
    void *p;
    if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0)
        return NULL;
    memset(p, 0, bytes);
    return p;
}

static void default_free(void *ctx, void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes >= DEFAULT_MAP)
        munmap(p, bytes);
    else
        free(p);
}

const cz_allocator cz_allocator_default = {default_alloc, default_free, NULL};

void *cz_alloc(const cz_allocator *a, cz_buf_class cls, size_t bytes)
{
    if (!a)
        a = &cz_allocator_default;
    return a->alloc(a->ctx, cls, bytes);
}

void cz_free(const cz_allocator *a, void *p, size_t bytes)
{
    if (!a)
        a = &cz_allocator_default;
    a->free(a->ctx, p, bytes);
}

static void *resv_alloc(void *ctx, cz_buf_class cls, size_t bytes)
{
    cz_resv_allocator *ra = ctx;
    void *p;
    if (cz_mem_alloc(&p, ra->r, cls, bytes ? bytes : 1, &ra->tag, NULL, 0) != CZ_OK)
        return NULL;
    return p;
}

static void resv_free(void *ctx, void *p, size_t bytes) { cz_mem_free(p); }

void cz_resv_allocator_init(cz_resv_allocator *ra, cz_resv *r, const cz_buf_tag *tag)
{
    ra->r = r;
    ra->tag = tag ? *tag : (cz_buf_tag){0, UINT32_MAX, NULL};
    ra->a = (cz_allocator){resv_alloc, resv_free, ra};
}
