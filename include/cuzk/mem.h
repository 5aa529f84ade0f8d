/* cuzk: the memory budget, reservations and tracked allocations.
 *
 * Reserve before you allocate.  A budget holds a total number of bytes.  A
 * reservation takes part of it, waiting (in a fixed order) until that part
 * is free; tracked allocations are then carved out of a reservation and can
 * never exceed it.  Since every large buffer comes from a reservation, the
 * sum of live large buffers can never exceed the budget: running out of
 * memory is prevented by construction rather than by tuning.
 *
 *   budget.total >= sum of reservations (reserved) >= sum of live buffers
 *
 * Large buffers are mapped with mmap (page-aligned; transparent huge pages
 * requested with madvise when a buffer is at least 2 MiB) and unmapped on
 * free, so freed memory goes back to the OS at once.  Each buffer carries a
 * class and a tag (job, partition, stage) for the tracker, which keeps per
 * class: live count, live bytes, high-water bytes, total allocated and freed
 * (count and bytes); and the list of live buffers.  cz_mem_rss reads the
 * process's resident set so callers can report untracked = RSS - tracked.
 *
 * Waiting order: a reservation that cannot be granted at once waits; when
 * memory is released, waiters are considered in key order (higher priority
 * first, then lower job sequence number, then lower partition) and the first
 * waiter in that order is granted as soon as it fits; later waiters are not
 * allowed to overtake it (no starvation of a large request by small ones).
 *
 * Thread safety: every function may be called from any thread; one mutex
 * per budget guards its counters and lists.
 */
#ifndef CUZK_MEM_H
#define CUZK_MEM_H

#ifdef __cplusplus
#include <atomic>
using std::atomic_int; /* as C++23's <stdatomic.h>: for src/cuda's C++ */
#else
#include <stdatomic.h>
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Buffer classes (the tracker's rows). */
typedef enum {
    CZ_BUF_PARAMS = 0, /* Groth16 parameters (SRS) */
    CZ_BUF_R1CS,       /* pre-compiled / recorded constraint systems */
    CZ_BUF_WITNESS,    /* assignments */
    CZ_BUF_ABC,        /* a, b, c evaluation vectors */
    CZ_BUF_DENSITY,    /* density bitmaps */
    CZ_BUF_PENDING,    /* pending proofs between prove_start and prove_finish */
    CZ_BUF_SCRATCH,    /* MSM and NTT scratch, twiddle tables */
    CZ_BUF_STAGING,    /* device staging buffers */
    CZ_BUF_INPUT,      /* job inputs and requests being decoded */
    CZ_BUF_OTHER,
    CZ_BUF__COUNT
} cz_buf_class;

/* "params", "r1cs", "witness", "abc", "density", "pending", "scratch",
 * "staging", "input", "other"; "?" out of range. */
const char *cz_buf_class_name(cz_buf_class c);

/* Who a buffer belongs to.  stage must be a string with static storage
 * (e.g. "synth", "prove_start"); it is stored by pointer. */
typedef struct {
    uint64_t job;       /* 0: none (shared, e.g. cached parameters) */
    uint32_t partition; /* UINT32_MAX: none */
    const char *stage;
} cz_buf_tag;

/* Order of waiting reservations: smaller sorts first. */
typedef struct {
    int priority;       /* higher first */
    uint64_t job_seq;   /* then lower */
    uint32_t partition; /* then lower */
} cz_wait_key;

/* a is served strictly before c. */
bool cz_wait_key_before(const cz_wait_key *a, const cz_wait_key *c);

typedef struct cz_budget cz_budget;
typedef struct cz_resv cz_resv;

/* A budget of `total` bytes (> 0).  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM
 * (then *out is NULL). */
int cz_budget_new(cz_budget **out, uint64_t total);
/* Frees the budget.  Every reservation must have been released and every
 * buffer freed first (checked: returns CZ_ERR_BUSY and frees nothing
 * otherwise).  NULL: CZ_OK. */
int cz_budget_free(cz_budget *b);

/* "auto" budgets: MemTotal (from /proc/meminfo) minus margin bytes.
 * CZ_OK, CZ_ERR_IO (unreadable), CZ_ERR_INVALID_ARG (margin >= MemTotal). */
int cz_budget_auto_total(uint64_t *total, uint64_t margin);

uint64_t cz_budget_total(const cz_budget *b);

/* Reserves `bytes` (> 0) from b.  If they are not available, waits in key
 * order (see above) until they are, until timeout_ms passes (< 0: no
 * limit; 0: do not wait), or until *cancel (may be NULL) is non-zero when
 * the waiter is woken (cz_budget_wake wakes every waiter to look); *cancel
 * already set on entry gives CZ_ERR_CANCELLED at once.  key must not be NULL.
 * Returns CZ_OK with *out set, or *out = NULL and:
 *   CZ_ERR_TOO_BIG    bytes > total: it can never fit (err names both sizes)
 *   CZ_ERR_TIMEOUT    the time limit passed
 *   CZ_ERR_CANCELLED  *cancel became non-zero
 *   CZ_ERR_BUSY       bytes cannot fit beside what is held outside
 *                     reservations (cz_budget_charge), at the call or while
 *                     waiting: no release of a reservation would make room
 *   CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM */
int cz_budget_reserve(cz_budget *b, uint64_t bytes, const cz_wait_key *key, int64_t timeout_ms,
                      const atomic_int *cancel, cz_resv **out, char *err, size_t errlen);

/* Wakes every waiter of b so it re-reads its cancel flag. */
void cz_budget_wake(cz_budget *b);

/* Bytes of r (reserved) and of its live buffers (used <= size). */
uint64_t cz_resv_size(const cz_resv *r);
uint64_t cz_resv_used(const cz_resv *r);

/* Gives `bytes` of r's unused part back to the budget (r shrinks; waiters
 * are woken).  CZ_OK, or CZ_ERR_INVALID_ARG when bytes > size - used. */
int cz_resv_shrink(cz_resv *r, uint64_t bytes);
/* Grows r by `bytes` if they are free right now (no waiting): CZ_OK or
 * CZ_ERR_BUSY.  Also CZ_ERR_BUSY while any reservation is waiting: the grow
 * would overtake it. */
int cz_resv_grow(cz_resv *r, uint64_t bytes);

/* Releases r entirely.  Its buffers must have been freed (CZ_ERR_BUSY
 * otherwise, and r stays valid).  NULL: CZ_OK. */
int cz_resv_release(cz_resv *r);

/* Changes b's total (src/cuda's device budgets under a cap).  0 is allowed:
 * nothing fits.  Waiters are woken, and one that can no longer fit beside
 * what is held is refused (see cz_budget_charge).  CZ_OK, or CZ_ERR_BUSY
 * when more than total is reserved now (nothing changes). */
int cz_budget_set_total(cz_budget *b, uint64_t total);
/* The peaks (reserved, allocated, class high water) back to the current
 * values: for benchmark sweeps. */
void cz_budget_reset_peaks(cz_budget *b);

/* A tracked buffer of `bytes` (> 0), page-aligned and zero-filled, carved
 * from r: the buffer's size rounded up to whole pages, plus one page for
 * its header, counts against r.  CZ_OK with *out set, or *out = NULL and
 * CZ_ERR_BUDGET (r's unused part is too small; err names the sizes),
 * CZ_ERR_NOMEM (mmap failed), CZ_ERR_INVALID_ARG.  tag NULL: {0, UINT32_MAX,
 * NULL}. */
int cz_mem_alloc(void **out, cz_resv *r, cz_buf_class cls, size_t bytes, const cz_buf_tag *tag,
                 char *err, size_t errlen);
/* Bytes a cz_mem_alloc of `bytes` takes from its reservation. */
uint64_t cz_mem_charge(size_t bytes);
/* Frees a buffer from cz_mem_alloc (unmaps it, returns its charge to the
 * reservation, updates the tracker).  NULL: no-op. */
void cz_mem_free(void *p);
/* Changes the stage of a live buffer's tag (it moves through the pipeline). */
void cz_mem_set_stage(void *p, const char *stage);

/* Accounting for memory that mem does not map itself (src/cuda's device
 * buffers): cz_mem_alloc's and cz_mem_free's bookkeeping, the buffer made
 * and listed by the caller.
 *
 * cz_budget_charge takes `charge` bytes from r's unused part, or, r NULL,
 * from b's free part (total - reserved, waiters or not): those are held,
 * reserved outside any reservation until uncharged.  A reservation waits
 * only for memory other reservations hold: while it cannot fit beside what
 * is held it is refused (cz_budget_reserve's CZ_ERR_BUSY), so a held
 * charge wakes the waiters to look.  CZ_OK, or CZ_ERR_BUDGET (no room;
 * nothing charged).  cz_budget_uncharge returns a charge that made no
 * buffer.  cz_budget_note_alloc counts a buffer made from a charge in its
 * class (bytes as requested); cz_budget_note_free counts its free and
 * returns its charge to r (NULL: held), which must be the one charged or,
 * after cz_resv_release_held, NULL. */
int cz_budget_charge(cz_budget *b, cz_resv *r, uint64_t charge);
void cz_budget_uncharge(cz_budget *b, cz_resv *r, uint64_t charge);
void cz_budget_note_alloc(cz_budget *b, cz_buf_class cls, uint64_t bytes);
void cz_budget_note_free(cz_budget *b, cz_resv *r, cz_buf_class cls, uint64_t bytes,
                         uint64_t charge);
/* Releases r, whose live charges (cz_budget_charge only, no cz_mem_alloc
 * buffers) stay held by the budget until their frees; its unused part goes
 * back.  NULL: no-op. */
void cz_resv_release_held(cz_resv *r);

/* Tracker and budget state.  Class stats count bytes as requested; the
 * budget's allocated counts charges (cz_mem_charge). */
typedef struct {
    uint64_t live_count, live_bytes, high_water_bytes;
    uint64_t total_allocs, total_frees, total_alloc_bytes, total_free_bytes;
} cz_buf_class_stats;

typedef struct {
    uint64_t total; /* budget */
    uint64_t reserved, peak_reserved;
    uint64_t allocated, peak_allocated; /* sum of live buffers' charges */
    uint64_t reservations;              /* live reservations */
    uint64_t waiters;                   /* reservations waiting */
    cz_buf_class_stats cls[CZ_BUF__COUNT];
    uint64_t held; /* reserved outside reservations (cz_budget_charge) */
} cz_mem_snapshot;

void cz_budget_snapshot(cz_budget *b, cz_mem_snapshot *s);

typedef struct {
    cz_buf_class cls;
    uint64_t bytes; /* as requested */
    cz_buf_tag tag;
} cz_buf_info;

/* Copies up to max live buffers' descriptions into out (oldest first) and
 * returns how many are live (may exceed max). */
size_t cz_budget_live_buffers(cz_budget *b, cz_buf_info *out, size_t max);

/* The process's resident set size in bytes (/proc/self/statm); 0 when it
 * cannot be read. */
uint64_t cz_mem_rss(void);

/* ------------------------------------------------------ allocator hook --- */

/* How lower layers (prover, setup, parameter readers) allocate their large
 * buffers without knowing the engine: alloc returns NULL on failure; free
 * gets the pointer and the size given to alloc.  NULL allocator pointers
 * mean cz_allocator_default.  Both allocators below serve bytes 0 as 1, so
 * empty arrays get a pointer too. */
typedef struct cz_allocator {
    void *(*alloc)(void *ctx, cz_buf_class cls, size_t bytes);
    void (*free)(void *ctx, void *p, size_t bytes);
    void *ctx;
} cz_allocator;

/* Untracked: mmap for 1 MiB and more, aligned malloc (64 bytes) below.
 * Memory is zero-filled. */
extern const cz_allocator cz_allocator_default;

void *cz_alloc(const cz_allocator *a, cz_buf_class cls, size_t bytes);
void cz_free(const cz_allocator *a, void *p, size_t bytes);

/* An allocator drawing tracked buffers from reservation r with tag (stage
 * and all), for one job partition.  ra must outlive every buffer it made. */
typedef struct {
    cz_allocator a;
    cz_resv *r;
    cz_buf_tag tag;
} cz_resv_allocator;
void cz_resv_allocator_init(cz_resv_allocator *ra, cz_resv *r, const cz_buf_tag *tag);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_MEM_H */
