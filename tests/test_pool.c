/* Thread pool: every index visited exactly once, nesting, concurrent
 * callers, task groups, degenerate sizes. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/pool.h"
#include "tf.h"

typedef struct {
    atomic_uint *hits;
    size_t n;
} visit_ctx;

static void visit(void *arg, size_t b, size_t e)
{
    visit_ctx *c = arg;
    for (size_t i = b; i < e; i++)
        atomic_fetch_add(&c->hits[i], 1);
}

static int all_once(atomic_uint *hits, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (atomic_load(&hits[i]) != 1)
            return 0;
    return 1;
}

static void check_parallel_for(cz_pool *p, size_t n, size_t grain)
{
    atomic_uint *hits = calloc(n ? n : 1, sizeof *hits);
    visit_ctx c = {hits, n};
    cz_pool_parallel_for(p, n, grain, visit, &c);
    TF_CHECK_MSG(all_once(hits, n), "n=%zu grain=%zu threads=%u", n, grain, cz_pool_threads(p));
    free(hits);
}

static void test_parallel_for_sizes(void)
{
    for (unsigned t = 1; t <= 5; t += 2) {
        cz_pool *p;
        TF_CHECK(cz_pool_new(&p, t) == CZ_OK);
        size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000, 100003};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            check_parallel_for(p, sizes[i], 0);
            check_parallel_for(p, sizes[i], 1 + cz_prng_next(&tf_rng) % 5000);
        }
        cz_pool_free(p);
    }
    check_parallel_for(NULL, 1000, 7); /* no pool: inline */
}

typedef struct {
    cz_pool *p;
    atomic_uint *hits;
    size_t inner;
} nest_ctx;

static void nest_outer(void *arg, size_t b, size_t e)
{
    nest_ctx *c = arg;
    for (size_t i = b; i < e; i++) {
        visit_ctx v = {c->hits + i * c->inner, c->inner};
        cz_pool_parallel_for(c->p, c->inner, 1, visit, &v);
    }
}

static void test_nested(void)
{
    cz_pool *p;
    TF_CHECK(cz_pool_new(&p, 3) == CZ_OK);
    size_t outer = 37, inner = 101;
    atomic_uint *hits = calloc(outer * inner, sizeof *hits);
    nest_ctx c = {p, hits, inner};
    cz_pool_parallel_for(p, outer, 1, nest_outer, &c);
    TF_CHECK(all_once(hits, outer * inner));
    free(hits);
    cz_pool_free(p);
}

typedef struct {
    cz_pool *p;
    int ok;
} caller_arg;

static void *concurrent_caller(void *arg)
{
    caller_arg *a = arg;
    size_t n = 20000;
    atomic_uint *hits = calloc(n, sizeof *hits);
    for (int r = 0; r < 20; r++) {
        memset(hits, 0, n * sizeof *hits);
        visit_ctx c = {hits, n};
        cz_pool_parallel_for(a->p, n, 16, visit, &c);
        if (!all_once(hits, n))
            a->ok = 0;
    }
    free(hits);
    return NULL;
}

static void test_concurrent_callers(void)
{
    cz_pool *p;
    TF_CHECK(cz_pool_new(&p, 2) == CZ_OK);
    pthread_t th[4];
    caller_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (caller_arg){p, 1};
        pthread_create(&th[i], NULL, concurrent_caller, &args[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        TF_CHECK(args[i].ok);
    }
    cz_pool_free(p);
}

typedef struct {
    atomic_ulong *sum;
    unsigned long v;
} add_arg;

static void add_task(void *arg)
{
    add_arg *a = arg;
    atomic_fetch_add(a->sum, a->v);
}

static void test_task_groups(void)
{
    cz_pool *p;
    TF_CHECK(cz_pool_new(&p, 2) == CZ_OK);
    enum { n = 5000 };
    static add_arg args[2][n];
    atomic_ulong sum[2] = {0, 0};
    cz_task_group g[2];
    unsigned long want[2] = {0, 0};
    cz_task_group_init(&g[0]);
    cz_task_group_init(&g[1]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            args[k][i] = (add_arg){&sum[k], cz_prng_next(&tf_rng) % 1000};
            want[k] += args[k][i].v;
            TF_CHECK(cz_pool_submit(p, &g[k], add_task, &args[k][i]) == CZ_OK);
        }
    cz_task_group_wait(p, &g[1]);
    TF_CHECK(atomic_load(&sum[1]) == want[1]);
    cz_task_group_wait(p, &g[0]);
    TF_CHECK(atomic_load(&sum[0]) == want[0]);
    cz_task_group_wait(p, &g[0]); /* waiting on an empty group returns */
    cz_task_group_destroy(&g[0]);
    cz_task_group_destroy(&g[1]);
    cz_pool_free(p);
}

static void test_free_drains_queue(void)
{
    cz_pool *p;
    TF_CHECK(cz_pool_new(&p, 1) == CZ_OK);
    enum { n = 1000 };
    static add_arg args[n];
    atomic_ulong sum = 0;
    cz_task_group g;
    cz_task_group_init(&g);
    for (int i = 0; i < n; i++) {
        args[i] = (add_arg){&sum, 1};
        cz_pool_submit(p, &g, add_task, &args[i]);
    }
    cz_pool_free(p); /* must run every queued task before returning */
    TF_CHECK(atomic_load(&sum) == n);
    cz_task_group_destroy(&g);
}

static void test_bad_args(void)
{
    cz_pool *p = (cz_pool *)1;
    TF_CHECK(cz_pool_new(&p, 0) == CZ_ERR_INVALID_ARG && p == NULL);
    TF_CHECK(cz_pool_new(&p, 100000) == CZ_ERR_INVALID_ARG && p == NULL);
    cz_pool_free(NULL);
}

TF_MAIN(TF_TEST(test_parallel_for_sizes), TF_TEST(test_nested), TF_TEST(test_concurrent_callers),
        TF_TEST(test_task_groups), TF_TEST(test_free_drains_queue), TF_TEST(test_bad_args))
