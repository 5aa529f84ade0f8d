/* Memory budget: reservation accounting, tracked buffers and the tracker,
 * waiting (time limit, cancel, key order, no overtaking), a multi-thread
 * stress with invariant checks, charges without a mapping (the device
 * budget's), the allocator hook. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "cuzk/mem.h"
#include "tf.h"

static uint64_t PG; /* page size */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void sleep_ms(unsigned ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Polls until b has n waiters (at most 5 s); returns whether it got there. */
static int wait_waiters(cz_budget *b, uint64_t n)
{
    for (int i = 0; i < 5000; i++) {
        cz_mem_snapshot s;
        cz_budget_snapshot(b, &s);
        if (s.waiters == n)
            return 1;
        sleep_ms(1);
    }
    return 0;
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i])
            return 0;
    return 1;
}

static const cz_wait_key KEY0 = {0, 0, 0};

static void test_class_names(void)
{
    TF_CHECK(!strcmp(cz_buf_class_name(CZ_BUF_PARAMS), "params"));
    TF_CHECK(!strcmp(cz_buf_class_name(CZ_BUF_SCRATCH), "scratch"));
    TF_CHECK(!strcmp(cz_buf_class_name(CZ_BUF_OTHER), "other"));
    TF_CHECK(!strcmp(cz_buf_class_name(CZ_BUF__COUNT), "?"));
    TF_CHECK(!strcmp(cz_buf_class_name((cz_buf_class)-1), "?"));
}

static void test_reserve_accounting(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 0) == CZ_ERR_INVALID_ARG && b == NULL);
    TF_CHECK(cz_budget_new(&b, 1000) == CZ_OK);
    TF_CHECK(cz_budget_total(b) == 1000);
    cz_resv *r1, *r2;
    char err[200];
    TF_CHECK(cz_budget_reserve(b, 0, &KEY0, 0, NULL, &r1, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_budget_reserve(b, 1, NULL, 0, NULL, &r1, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_budget_reserve(b, 300, &KEY0, 0, NULL, &r1, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_budget_reserve(b, 500, &KEY0, 0, NULL, &r2, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_resv_size(r1) == 300 && cz_resv_used(r1) == 0);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.total == 1000 && s.reserved == 800 && s.peak_reserved == 800);
    TF_CHECK(s.reservations == 2 && s.waiters == 0 && s.allocated == 0);

    TF_CHECK(cz_resv_shrink(r1, 301) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_resv_shrink(r1, 100) == CZ_OK && cz_resv_size(r1) == 200);
    TF_CHECK(cz_resv_grow(r2, 301) == CZ_ERR_BUSY && cz_resv_size(r2) == 500);
    TF_CHECK(cz_resv_grow(r2, 300) == CZ_OK && cz_resv_size(r2) == 800);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 1000 && s.peak_reserved == 1000);
    cz_resv *r3;
    TF_CHECK(cz_budget_reserve(b, 1, &KEY0, 0, NULL, &r3, err, sizeof err) == CZ_ERR_TIMEOUT);
    TF_CHECK(r3 == NULL);

    TF_CHECK(cz_budget_free(b) == CZ_ERR_BUSY);
    TF_CHECK(cz_resv_release(r1) == CZ_OK);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 800 && s.peak_reserved == 1000 && s.reservations == 1);
    TF_CHECK(cz_budget_free(b) == CZ_ERR_BUSY);
    TF_CHECK(cz_resv_release(r2) == CZ_OK);
    TF_CHECK(cz_resv_release(NULL) == CZ_OK);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 0 && s.reservations == 0);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
    TF_CHECK(cz_budget_free(NULL) == CZ_OK);
}

static void test_too_big(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 4096) == CZ_OK);
    cz_resv *r = (cz_resv *)1;
    char err[200] = "";
    double t0 = now_ms();
    TF_CHECK(cz_budget_reserve(b, 4097, &KEY0, -1, NULL, &r, err, sizeof err) == CZ_ERR_TOO_BIG);
    TF_CHECK(now_ms() - t0 < 1000);
    TF_CHECK(r == NULL);
    TF_CHECK_MSG(strstr(err, "4097") && strstr(err, "4096"), "err: %s", err);
    TF_CHECK(cz_budget_reserve(b, 4096, &KEY0, -1, NULL, &r, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static void test_alloc_budget(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 1 << 30) == CZ_OK);
    TF_CHECK(cz_mem_charge(1) == 2 * PG);
    TF_CHECK(cz_mem_charge(PG) == 2 * PG);
    TF_CHECK(cz_mem_charge(PG + 1) == 3 * PG);
    uint64_t c = cz_mem_charge(10000);
    cz_resv *r;
    char err[300] = "";
    TF_CHECK(cz_budget_reserve(b, 2 * c + PG, &KEY0, 0, NULL, &r, err, sizeof err) == CZ_OK);
    void *p1, *p2, *p3 = (void *)1;
    cz_buf_tag tag = {7, 1, "synth"};
    TF_CHECK(cz_mem_alloc(&p1, r, CZ_BUF_ABC, 10000, &tag, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_mem_alloc(&p2, r, CZ_BUF_ABC, 10000, &tag, err, sizeof err) == CZ_OK);
    TF_CHECK(((uintptr_t)p1 % PG) == 0 && ((uintptr_t)p2 % PG) == 0);
    TF_CHECK(all_zero(p1, 10000) && all_zero(p2, 10000));
    memset(p1, 0xab, 10000);
    memset(p2, 0xcd, 10000);
    TF_CHECK(cz_resv_used(r) == 2 * c);
    TF_CHECK(cz_mem_alloc(&p3, r, CZ_BUF_ABC, 10000, &tag, err, sizeof err) == CZ_ERR_BUDGET);
    TF_CHECK(p3 == NULL);
    TF_CHECK_MSG(strstr(err, "10000") != NULL, "err: %s", err);
    TF_CHECK(cz_mem_alloc(&p3, r, CZ_BUF_ABC, 0, &tag, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_mem_alloc(&p3, r, CZ_BUF__COUNT, 1, &tag, err, sizeof err) == CZ_ERR_INVALID_ARG);
    /* The unused page still fits nothing: every buffer needs a header page. */
    TF_CHECK(cz_mem_alloc(&p3, r, CZ_BUF_ABC, 1, &tag, NULL, 0) == CZ_ERR_BUDGET);

    TF_CHECK(cz_resv_shrink(r, PG + 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_resv_release(r) == CZ_ERR_BUSY);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.allocated == 2 * c && s.peak_allocated == 2 * c);

    cz_mem_free(p1);
    TF_CHECK(cz_resv_used(r) == c && cz_resv_size(r) == 2 * c + PG);
    TF_CHECK(cz_resv_release(r) == CZ_ERR_BUSY);
    TF_CHECK(cz_resv_shrink(r, c) == CZ_OK && cz_resv_size(r) == c + PG);
    TF_CHECK(cz_budget_free(b) == CZ_ERR_BUSY);
    cz_mem_free(p2);
    cz_mem_free(NULL);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.allocated == 0 && s.peak_allocated == 2 * c && s.reserved == c + PG);
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* Random allocations and frees across classes against a model of the
 * tracker's counters. */
static void test_tracker(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 1 << 30) == CZ_OK);
    cz_resv *r;
    TF_CHECK(cz_budget_reserve(b, 1 << 30, &KEY0, 0, NULL, &r, NULL, 0) == CZ_OK);
    enum { N = 64 };
    void *p[N] = {0};
    size_t sz[N];
    cz_buf_class cl[N];
    cz_buf_class_stats want[CZ_BUF__COUNT];
    memset(want, 0, sizeof want);
    uint64_t charged = 0, peak = 0;
    for (unsigned it = 0; it < 400 * tf_scale; it++) {
        unsigned i = cz_prng_next(&tf_rng) % N;
        if (p[i]) {
            cz_buf_class_stats *w = &want[cl[i]];
            w->live_count--, w->live_bytes -= sz[i], w->total_frees++, w->total_free_bytes += sz[i];
            charged -= cz_mem_charge(sz[i]);
            cz_mem_free(p[i]);
            p[i] = NULL;
        } else {
            sz[i] = 1 + cz_prng_next(&tf_rng) % (3 * PG);
            if (cz_prng_next(&tf_rng) % 16 == 0)
                sz[i] = (3 << 20) + cz_prng_next(&tf_rng) % PG; /* a huge-page request */
            cl[i] = cz_prng_next(&tf_rng) % CZ_BUF__COUNT;
            cz_buf_tag tag = {i + 1, i, "t"};
            TF_CHECK(cz_mem_alloc(&p[i], r, cl[i], sz[i], &tag, NULL, 0) == CZ_OK);
            ((unsigned char *)p[i])[sz[i] - 1] = 1;
            cz_buf_class_stats *w = &want[cl[i]];
            w->live_count++, w->live_bytes += sz[i], w->total_allocs++;
            w->total_alloc_bytes += sz[i];
            if (w->live_bytes > w->high_water_bytes)
                w->high_water_bytes = w->live_bytes;
            charged += cz_mem_charge(sz[i]);
            if (charged > peak)
                peak = charged;
        }
        if (it % 50 == 0 || it + 1 == 400 * tf_scale) {
            cz_mem_snapshot s;
            cz_budget_snapshot(b, &s);
            TF_CHECK(s.allocated == charged && s.peak_allocated == peak);
            TF_CHECK(cz_resv_used(r) == charged);
            TF_CHECK(!memcmp(s.cls, want, sizeof want));
        }
    }
    for (unsigned i = 0; i < N; i++)
        cz_mem_free(p[i]);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.allocated == 0 && s.peak_allocated == peak);
    for (unsigned c = 0; c < CZ_BUF__COUNT; c++) {
        TF_CHECK(s.cls[c].live_count == 0 && s.cls[c].live_bytes == 0);
        TF_CHECK(s.cls[c].total_allocs == s.cls[c].total_frees);
        TF_CHECK(s.cls[c].total_alloc_bytes == s.cls[c].total_free_bytes);
        TF_CHECK(s.cls[c].high_water_bytes == want[c].high_water_bytes);
    }
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static void test_live_buffers(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 1 << 24) == CZ_OK);
    cz_resv *r;
    TF_CHECK(cz_budget_reserve(b, 1 << 24, &KEY0, 0, NULL, &r, NULL, 0) == CZ_OK);
    static const char *const stages[] = {"synth", "prove_start", "prove_finish"};
    void *p[3];
    for (unsigned i = 0; i < 3; i++) {
        cz_buf_tag tag = {100 + i, i, stages[i]};
        TF_CHECK(cz_mem_alloc(&p[i], r, CZ_BUF_WITNESS + i, 1000 * (i + 1), &tag, NULL, 0) ==
                 CZ_OK);
    }
    cz_buf_info info[4];
    TF_CHECK(cz_budget_live_buffers(b, info, 4) == 3);
    for (unsigned i = 0; i < 3; i++) {
        TF_CHECK(info[i].cls == CZ_BUF_WITNESS + i && info[i].bytes == 1000 * (i + 1));
        TF_CHECK(info[i].tag.job == 100 + i && info[i].tag.partition == i);
        TF_CHECK(info[i].tag.stage == stages[i]);
    }
    TF_CHECK(cz_budget_live_buffers(b, info, 1) == 3 && info[0].tag.job == 100);
    TF_CHECK(cz_budget_live_buffers(b, NULL, 0) == 3);

    cz_mem_set_stage(p[0], "pending");
    cz_mem_free(p[1]);
    TF_CHECK(cz_budget_live_buffers(b, info, 4) == 2);
    TF_CHECK(info[0].tag.job == 100 && !strcmp(info[0].tag.stage, "pending"));
    TF_CHECK(info[1].tag.job == 102 && info[1].tag.stage == stages[2]);

    void *q;
    TF_CHECK(cz_mem_alloc(&q, r, CZ_BUF_OTHER, 5, NULL, NULL, 0) == CZ_OK);
    TF_CHECK(cz_budget_live_buffers(b, info, 4) == 3);
    TF_CHECK(info[2].tag.job == 0 && info[2].tag.partition == UINT32_MAX && !info[2].tag.stage);
    cz_mem_free(p[0]);
    cz_mem_free(p[2]);
    cz_mem_free(q);
    TF_CHECK(cz_budget_live_buffers(b, info, 4) == 0);
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* ---------------------------------------------------------------- waiting -- */

typedef struct {
    cz_budget *b;
    uint64_t bytes;
    cz_wait_key key;
    int64_t timeout_ms;
    const atomic_int *cancel;
    int hold;          /* keep the reservation (released by the test) */
    atomic_int *order; /* grant counter (NULL: none) */
    int rank;          /* grant position */
    atomic_int done;
    int rc;
    cz_resv *r;
} waiter_arg;

static void *waiter_main(void *arg)
{
    waiter_arg *w = arg;
    w->rc = cz_budget_reserve(w->b, w->bytes, &w->key, w->timeout_ms, w->cancel, &w->r, NULL, 0);
    if (w->rc == CZ_OK && w->order)
        w->rank = atomic_fetch_add(w->order, 1);
    if (w->rc == CZ_OK && !w->hold) {
        cz_resv_release(w->r);
        w->r = NULL;
    }
    atomic_store(&w->done, 1);
    return NULL;
}

static void test_timeout(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 100) == CZ_OK);
    cz_resv *full, *r = (cz_resv *)1;
    TF_CHECK(cz_budget_reserve(b, 100, &KEY0, 0, NULL, &full, NULL, 0) == CZ_OK);
    char err[200] = "";
    double t0 = now_ms();
    TF_CHECK(cz_budget_reserve(b, 10, &KEY0, 50, NULL, &r, err, sizeof err) == CZ_ERR_TIMEOUT);
    double dt = now_ms() - t0;
    TF_CHECK_MSG(dt >= 49 && dt < 1000, "timeout 50 ms took %.1f ms", dt);
    TF_CHECK(r == NULL && err[0] != 0);
    t0 = now_ms();
    TF_CHECK(cz_budget_reserve(b, 10, &KEY0, 0, NULL, &r, NULL, 0) == CZ_ERR_TIMEOUT);
    TF_CHECK(now_ms() - t0 < 1000);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.waiters == 0 && s.reservations == 1 && s.reserved == 100);

    /* A waiter with a limit that is granted in time. */
    waiter_arg w = {.b = b, .bytes = 60, .key = KEY0, .timeout_ms = 5000, .hold = 1};
    pthread_t t;
    TF_CHECK(pthread_create(&t, NULL, waiter_main, &w) == 0);
    TF_CHECK(wait_waiters(b, 1));
    TF_CHECK(cz_resv_release(full) == CZ_OK);
    pthread_join(t, NULL);
    TF_CHECK(w.rc == CZ_OK && cz_resv_size(w.r) == 60);
    TF_CHECK(cz_resv_release(w.r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static void test_cancel(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 100) == CZ_OK);
    cz_resv *full, *r;
    TF_CHECK(cz_budget_reserve(b, 100, &KEY0, 0, NULL, &full, NULL, 0) == CZ_OK);
    atomic_int cancel = 0;
    waiter_arg w = {.b = b, .bytes = 10, .key = KEY0, .timeout_ms = -1, .cancel = &cancel};
    pthread_t t;
    TF_CHECK(pthread_create(&t, NULL, waiter_main, &w) == 0);
    TF_CHECK(wait_waiters(b, 1));
    cz_budget_wake(b); /* not cancelled yet: it goes back to waiting */
    sleep_ms(10);
    TF_CHECK(!atomic_load(&w.done));
    atomic_store(&cancel, 1);
    cz_budget_wake(b);
    pthread_join(t, NULL);
    TF_CHECK(w.rc == CZ_ERR_CANCELLED && w.r == NULL);
    TF_CHECK(wait_waiters(b, 0));
    /* Already cancelled on entry. */
    TF_CHECK(cz_budget_reserve(b, 10, &KEY0, -1, &cancel, &r, NULL, 0) == CZ_ERR_CANCELLED);
    TF_CHECK(cz_resv_release(full) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static int key_cmp(const cz_wait_key *a, const cz_wait_key *b)
{
    if (a->priority != b->priority)
        return a->priority > b->priority ? -1 : 1;
    if (a->job_seq != b->job_seq)
        return a->job_seq < b->job_seq ? -1 : 1;
    if (a->partition != b->partition)
        return a->partition < b->partition ? -1 : 1;
    return 0;
}

/* Waiters queued one after another with random (partly equal) keys, each
 * for the whole budget, are granted in key order, ties in arrival order. */
static void test_order(void)
{
    enum { K = 12 };
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 1000) == CZ_OK);
    cz_resv *full;
    TF_CHECK(cz_budget_reserve(b, 1000, &KEY0, 0, NULL, &full, NULL, 0) == CZ_OK);
    static waiter_arg w[K];
    pthread_t t[K];
    atomic_int order = 0;
    for (int i = 0; i < K; i++) {
        cz_wait_key key = {(int)(cz_prng_next(&tf_rng) % 3) - 1, cz_prng_next(&tf_rng) % 3,
                           (uint32_t)(cz_prng_next(&tf_rng) % 2)};
        w[i] =
            (waiter_arg){.b = b, .bytes = 1000, .key = key, .timeout_ms = 10000, .order = &order};
        TF_CHECK(pthread_create(&t[i], NULL, waiter_main, &w[i]) == 0);
        TF_CHECK(wait_waiters(b, (uint64_t)i + 1));
    }
    TF_CHECK(cz_resv_release(full) == CZ_OK);
    for (int i = 0; i < K; i++)
        pthread_join(t[i], NULL);
    /* Expected rank: the number of waiters before i in (key, arrival) order. */
    for (int i = 0; i < K; i++) {
        int rank = 0;
        for (int j = 0; j < K; j++) {
            int c = key_cmp(&w[j].key, &w[i].key);
            rank += c < 0 || (c == 0 && j < i);
        }
        TF_CHECK(w[i].rc == CZ_OK);
        TF_CHECK_MSG(w[i].rank == rank, "waiter %d key (%d,%llu,%u) granted %d-th, want %d", i,
                     w[i].key.priority, (unsigned long long)w[i].key.job_seq, w[i].key.partition,
                     w[i].rank, rank);
    }
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* A small request behind a big head waits although it would fit; one that
 * sorts before the head is granted at once. */
static void test_no_overtaking(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 10) == CZ_OK);
    cz_resv *hold, *r;
    TF_CHECK(cz_budget_reserve(b, 8, &KEY0, 0, NULL, &hold, NULL, 0) == CZ_OK);
    waiter_arg big = {.b = b, .bytes = 5, .key = {1, 5, 0}, .timeout_ms = 10000, .hold = 1};
    waiter_arg small = {.b = b, .bytes = 1, .key = {1, 6, 0}, .timeout_ms = 10000, .hold = 1};
    pthread_t tb, ts;
    TF_CHECK(pthread_create(&tb, NULL, waiter_main, &big) == 0);
    TF_CHECK(wait_waiters(b, 1));
    TF_CHECK(pthread_create(&ts, NULL, waiter_main, &small) == 0);
    TF_CHECK(wait_waiters(b, 2));
    /* Behind the head (lower priority, or same priority and later job). */
    cz_wait_key after[] = {{0, 0, 0}, {1, 5, 1}, {1, 5, 0}};
    for (unsigned i = 0; i < 3; i++)
        TF_CHECK(cz_budget_reserve(b, 1, &after[i], 0, NULL, &r, NULL, 0) == CZ_ERR_TIMEOUT);
    TF_CHECK(cz_resv_grow(hold, 1) == CZ_ERR_BUSY); /* a grow would overtake too */
    sleep_ms(20);
    TF_CHECK(!atomic_load(&small.done));
    /* Before the head: granted at once when it fits; not when it does not. */
    cz_wait_key before = {1, 4, 0};
    TF_CHECK(cz_budget_reserve(b, 3, &before, 0, NULL, &r, NULL, 0) == CZ_ERR_TIMEOUT);
    TF_CHECK(cz_budget_reserve(b, 2, &before, 0, NULL, &r, NULL, 0) == CZ_OK);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 10 && s.waiters == 2);
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(!atomic_load(&small.done) && !atomic_load(&big.done));
    /* Freeing 4 more lets big (5) and then small (1) in. */
    TF_CHECK(cz_resv_shrink(hold, 4) == CZ_OK);
    pthread_join(tb, NULL);
    pthread_join(ts, NULL);
    TF_CHECK(big.rc == CZ_OK && small.rc == CZ_OK);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 10 && s.waiters == 0);
    TF_CHECK(cz_resv_release(big.r) == CZ_OK && cz_resv_release(small.r) == CZ_OK);
    TF_CHECK(cz_resv_release(hold) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* A waiter that leaves (time limit) hands the head to the next one. */
static void test_leaving_head(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 10) == CZ_OK);
    cz_resv *hold;
    TF_CHECK(cz_budget_reserve(b, 8, &KEY0, 0, NULL, &hold, NULL, 0) == CZ_OK);
    waiter_arg big = {.b = b, .bytes = 5, .key = {1, 0, 0}, .timeout_ms = 300};
    waiter_arg small = {.b = b, .bytes = 2, .key = {0, 0, 0}, .timeout_ms = 10000, .hold = 1};
    pthread_t tb, ts;
    TF_CHECK(pthread_create(&tb, NULL, waiter_main, &big) == 0);
    TF_CHECK(wait_waiters(b, 1));
    TF_CHECK(pthread_create(&ts, NULL, waiter_main, &small) == 0);
    TF_CHECK(wait_waiters(b, 2)); /* small (fits) queued behind big */
    pthread_join(tb, NULL);
    pthread_join(ts, NULL);
    TF_CHECK(big.rc == CZ_ERR_TIMEOUT && small.rc == CZ_OK);
    TF_CHECK(cz_resv_release(small.r) == CZ_OK && cz_resv_release(hold) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* ----------------------------------------------------------------- stress -- */

typedef struct {
    cz_budget *b;
    uint64_t seed;
    unsigned iters;
    atomic_int *bad;
} stress_arg;

static void check_snapshot(cz_budget *b, atomic_int *bad)
{
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    if (!(s.allocated <= s.reserved && s.reserved <= s.total && s.peak_reserved <= s.total &&
          s.peak_allocated <= s.peak_reserved))
        atomic_fetch_add(bad, 1);
}

static void *stress_main(void *arg)
{
    stress_arg *a = arg;
    cz_prng g;
    cz_prng_seed(&g, a->seed);
    for (unsigned it = 0; it < a->iters; it++) {
        cz_wait_key key = {(int)(cz_prng_next(&g) % 3), cz_prng_next(&g) % 4, 0};
        uint64_t want = (1 + cz_prng_next(&g) % 12) * PG;
        cz_resv *r;
        int rc =
            cz_budget_reserve(a->b, want, &key, cz_prng_next(&g) % 4 ? -1 : 1, NULL, &r, NULL, 0);
        if (rc == CZ_ERR_TIMEOUT)
            continue;
        if (rc != CZ_OK || cz_resv_size(r) != want) {
            atomic_fetch_add(a->bad, 1);
            continue;
        }
        if (cz_prng_next(&g) % 4 == 0)
            cz_resv_grow(r, PG); /* may be busy */
        void *p[8];
        unsigned n = 0;
        for (unsigned k = cz_prng_next(&g) % 8; k > 0; k--) {
            size_t sz = 1 + cz_prng_next(&g) % (2 * PG);
            uint64_t unused = cz_resv_size(r) - cz_resv_used(r);
            rc = cz_mem_alloc(&p[n], r, CZ_BUF_SCRATCH, sz, NULL, NULL, 0);
            if (rc == CZ_OK) {
                ((unsigned char *)p[n])[sz - 1] = (unsigned char)it;
                n++;
            } else if (rc != CZ_ERR_BUDGET || cz_mem_charge(sz) <= unused) {
                atomic_fetch_add(a->bad, 1);
            }
            check_snapshot(a->b, a->bad);
        }
        if (cz_resv_used(r) > cz_resv_size(r))
            atomic_fetch_add(a->bad, 1);
        uint64_t unused = cz_resv_size(r) - cz_resv_used(r);
        if (unused && cz_resv_shrink(r, unused / 2) != CZ_OK)
            atomic_fetch_add(a->bad, 1);
        if (n && cz_resv_release(r) != CZ_ERR_BUSY)
            atomic_fetch_add(a->bad, 1);
        while (n)
            cz_mem_free(p[--n]);
        if (cz_resv_used(r) != 0 || cz_resv_release(r) != CZ_OK)
            atomic_fetch_add(a->bad, 1);
        check_snapshot(a->b, a->bad);
    }
    return NULL;
}

static void test_stress(void)
{
    enum { T = 4 };
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 24 * PG) == CZ_OK);
    atomic_int bad = 0;
    stress_arg a[T];
    pthread_t t[T];
    for (int i = 0; i < T; i++) {
        a[i] = (stress_arg){b, cz_prng_next(&tf_rng), 150 * tf_scale, &bad};
        TF_CHECK(pthread_create(&t[i], NULL, stress_main, &a[i]) == 0);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
    TF_CHECK_MSG(atomic_load(&bad) == 0, "%d bad observations", atomic_load(&bad));
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 0 && s.allocated == 0 && s.reservations == 0 && s.waiters == 0);
    TF_CHECK(s.peak_reserved <= s.total && s.peak_reserved > 0);
    TF_CHECK(s.cls[CZ_BUF_SCRATCH].live_count == 0 && s.cls[CZ_BUF_SCRATCH].live_bytes == 0);
    TF_CHECK(s.cls[CZ_BUF_SCRATCH].total_allocs == s.cls[CZ_BUF_SCRATCH].total_frees);
    TF_CHECK(s.cls[CZ_BUF_SCRATCH].total_allocs > 0);
    TF_CHECK(cz_budget_live_buffers(b, NULL, 0) == 0);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

/* ------------------------------------------------------------- allocators -- */

/* Charges without a mapping (src/cuda's device buffers): a reservation's
 * charges, held ones outside any, a reservation that cannot fit beside what
 * is held refused at the call and while it waits, a release that keeps its
 * live charges held, the class counters, a new total and reset peaks. */
static void test_charges(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 1000) == CZ_OK);
    cz_resv *a, *r = (cz_resv *)1;
    TF_CHECK(cz_budget_reserve(b, 600, &KEY0, 0, NULL, &a, NULL, 0) == CZ_OK);
    TF_CHECK(cz_budget_charge(b, a, 400) == CZ_OK);
    TF_CHECK(cz_budget_charge(b, a, 201) == CZ_ERR_BUDGET);
    cz_budget_note_alloc(b, CZ_BUF_ABC, 400);
    TF_CHECK(cz_budget_charge(b, NULL, 401) == CZ_ERR_BUDGET);
    TF_CHECK(cz_budget_charge(b, NULL, 150) == CZ_OK); /* held */
    cz_budget_note_alloc(b, CZ_BUF_PARAMS, 150);
    cz_mem_snapshot s;
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 750 && s.held == 150 && s.allocated == 550 && s.reservations == 1);
    TF_CHECK(s.cls[CZ_BUF_ABC].live_bytes == 400 && s.cls[CZ_BUF_PARAMS].live_count == 1);
    TF_CHECK(cz_resv_used(a) == 400 && cz_budget_free(b) == CZ_ERR_BUSY);
    /* 900 > 1000 - 150 held: never, whatever is released */
    TF_CHECK(cz_budget_reserve(b, 900, &KEY0, -1, NULL, &r, NULL, 0) == CZ_ERR_BUSY && !r);
    TF_CHECK(cz_budget_reserve(b, 300, &KEY0, 0, NULL, &r, NULL, 0) == CZ_ERR_TIMEOUT);
    /* a failed buffer's charge comes back, uncounted */
    TF_CHECK(cz_budget_charge(b, NULL, 50) == CZ_OK);
    cz_budget_uncharge(b, NULL, 50);
    TF_CHECK(cz_budget_charge(b, a, 100) == CZ_OK);
    cz_budget_uncharge(b, a, 100);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 750 && s.held == 150 && s.allocated == 550);
    TF_CHECK(s.peak_allocated == 650 && s.cls[CZ_BUF_ABC].total_allocs == 1);

    /* 500 fits beside 150 held: it waits, until a's release leaves its 400
     * charged held, 550 in all, and 500 no longer can */
    waiter_arg w = {.b = b, .bytes = 500, .key = KEY0, .timeout_ms = -1};
    pthread_t t;
    TF_CHECK(pthread_create(&t, NULL, waiter_main, &w) == 0);
    TF_CHECK(wait_waiters(b, 1));
    cz_resv_release_held(a);
    pthread_join(t, NULL);
    TF_CHECK(w.rc == CZ_ERR_BUSY && w.r == NULL);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 550 && s.held == 550 && s.reservations == 0 && s.waiters == 0);

    /* a total below what is reserved is refused; a larger one grants */
    TF_CHECK(cz_budget_set_total(b, 549) == CZ_ERR_BUSY && cz_budget_total(b) == 1000);
    TF_CHECK(cz_budget_set_total(b, 800) == CZ_OK && cz_budget_total(b) == 800);
    cz_resv *c;
    TF_CHECK(cz_budget_reserve(b, 200, &KEY0, 0, NULL, &c, NULL, 0) == CZ_OK);
    w = (waiter_arg){.b = b, .bytes = 200, .key = KEY0, .timeout_ms = -1, .hold = 1};
    TF_CHECK(pthread_create(&t, NULL, waiter_main, &w) == 0);
    TF_CHECK(wait_waiters(b, 1));
    TF_CHECK(cz_budget_set_total(b, 950) == CZ_OK);
    pthread_join(t, NULL);
    TF_CHECK(w.rc == CZ_OK && cz_resv_size(w.r) == 200);
    TF_CHECK(cz_budget_set_total(b, 949) == CZ_ERR_BUSY);
    TF_CHECK(cz_resv_release(w.r) == CZ_OK && cz_resv_release(c) == CZ_OK);

    /* frees: the held charges come back (a is gone: NULL) */
    cz_budget_note_free(b, NULL, CZ_BUF_ABC, 400, 400);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.reserved == 150 && s.held == 150 && s.allocated == 150);
    TF_CHECK(s.cls[CZ_BUF_ABC].live_bytes == 0 && s.cls[CZ_BUF_ABC].high_water_bytes == 400);
    TF_CHECK(s.cls[CZ_BUF_ABC].total_frees == 1 && s.cls[CZ_BUF_ABC].total_free_bytes == 400);
    TF_CHECK(s.peak_reserved == 950 && s.peak_allocated == 650);
    cz_budget_reset_peaks(b);
    cz_budget_snapshot(b, &s);
    TF_CHECK(s.peak_reserved == 150 && s.peak_allocated == 150);
    TF_CHECK(s.cls[CZ_BUF_ABC].high_water_bytes == 0 &&
             s.cls[CZ_BUF_PARAMS].high_water_bytes == 150);
    cz_budget_note_free(b, NULL, CZ_BUF_PARAMS, 150, 150);
    /* a total of 0 fits nothing */
    TF_CHECK(cz_budget_set_total(b, 0) == CZ_OK);
    TF_CHECK(cz_budget_reserve(b, 1, &KEY0, 0, NULL, &r, NULL, 0) == CZ_ERR_TOO_BIG);
    TF_CHECK(cz_budget_charge(b, NULL, 1) == CZ_ERR_BUDGET);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static void test_default_allocator(void)
{
    size_t sizes[] = {0, 1, 100, 4096, (1 << 20) - 1, 1 << 20, (3 << 20) + 5};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cz_allocator *a = i % 2 ? NULL : &cz_allocator_default;
        unsigned char *p = cz_alloc(a, CZ_BUF_OTHER, sizes[i]);
        TF_CHECK_MSG(p != NULL && (uintptr_t)p % 64 == 0, "size %zu", sizes[i]);
        if (!p)
            continue;
        TF_CHECK_MSG(all_zero(p, sizes[i]), "size %zu not zeroed", sizes[i]);
        memset(p, 0x5a, sizes[i]);
        cz_free(a, p, sizes[i]);
    }
    cz_free(NULL, NULL, 10);
}

static void test_resv_allocator(void)
{
    cz_budget *b;
    TF_CHECK(cz_budget_new(&b, 8 << 20) == CZ_OK);
    cz_resv *r;
    uint64_t want = cz_mem_charge(100) + cz_mem_charge(3 << 20) + cz_mem_charge(1);
    TF_CHECK(cz_budget_reserve(b, want, &KEY0, 0, NULL, &r, NULL, 0) == CZ_OK);
    cz_resv_allocator ra;
    cz_buf_tag tag = {9, 3, "synth"};
    cz_resv_allocator_init(&ra, r, &tag);
    size_t sizes[] = {100, 3 << 20, 0};
    unsigned char *p[3];
    for (unsigned i = 0; i < 3; i++) {
        p[i] = cz_alloc(&ra.a, CZ_BUF_WITNESS, sizes[i]);
        TF_CHECK(p[i] != NULL && all_zero(p[i], sizes[i]));
        if (p[i])
            memset(p[i], 1, sizes[i]);
    }
    TF_CHECK(cz_resv_used(r) == want);
    TF_CHECK(cz_alloc(&ra.a, CZ_BUF_WITNESS, 1) == NULL); /* reservation exhausted */
    cz_buf_info info[4];
    TF_CHECK(cz_budget_live_buffers(b, info, 4) == 3);
    TF_CHECK(info[1].bytes == (3 << 20) && info[1].cls == CZ_BUF_WITNESS);
    TF_CHECK(info[1].tag.job == 9 && info[1].tag.partition == 3 && info[1].tag.stage == tag.stage);
    for (unsigned i = 0; i < 3; i++)
        cz_free(&ra.a, p[i], sizes[i]);
    TF_CHECK(cz_resv_used(r) == 0);
    TF_CHECK(cz_resv_release(r) == CZ_OK);
    TF_CHECK(cz_budget_free(b) == CZ_OK);
}

static void test_rss_and_auto(void)
{
    uint64_t rss0 = cz_mem_rss();
    TF_CHECK(rss0 > 0);
    size_t n = 32 << 20;
    unsigned char *p = cz_alloc(NULL, CZ_BUF_OTHER, n);
    TF_CHECK(p != NULL);
    if (p) {
        for (size_t i = 0; i < n; i += 4096)
            p[i] = 1;
        uint64_t rss1 = cz_mem_rss();
        TF_CHECK_MSG(rss1 >= rss0 + n / 2, "rss %llu -> %llu after touching %zu bytes",
                     (unsigned long long)rss0, (unsigned long long)rss1, n);
        cz_free(NULL, p, n);
    }
    uint64_t total = 0, t2 = 0;
    TF_CHECK(cz_budget_auto_total(&total, 0) == CZ_OK && total > 0);
    TF_CHECK(cz_budget_auto_total(&t2, 1 << 20) == CZ_OK && t2 == total - (1 << 20));
    TF_CHECK(cz_budget_auto_total(&t2, total) == CZ_ERR_INVALID_ARG);
}

static void test_init(void) { PG = (uint64_t)sysconf(_SC_PAGESIZE); }

TF_MAIN(TF_TEST(test_init), TF_TEST(test_class_names), TF_TEST(test_reserve_accounting),
        TF_TEST(test_too_big), TF_TEST(test_alloc_budget), TF_TEST(test_tracker),
        TF_TEST(test_live_buffers), TF_TEST(test_timeout), TF_TEST(test_cancel),
        TF_TEST(test_order), TF_TEST(test_no_overtaking), TF_TEST(test_leaving_head),
        TF_TEST(test_stress), TF_TEST(test_charges), TF_TEST(test_default_allocator),
        TF_TEST(test_resv_allocator), TF_TEST(test_rss_and_auto))
