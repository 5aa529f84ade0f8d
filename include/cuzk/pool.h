/* cuzk: thread pools.
 *
 * A pool is a fixed set of worker threads sized by its owner; there is no
 * hidden global pool (the engine runs separate pools for synthesis and for
 * proving so they do not thrash each other's caches).
 *
 * Two ways to use it:
 *  - cz_pool_parallel_for: split [0, n) into chunks and run them on the
 *    workers and the calling thread; returns when every chunk is done.
 *    Safe to call from several threads at once and from inside a task or
 *    another parallel_for (the caller always works too, so nesting cannot
 *    deadlock).
 *  - cz_pool_submit into a cz_task_group, then cz_task_group_wait: the waiter
 *    runs queued tasks itself while it waits.
 */
#ifndef CUZK_POOL_H
#define CUZK_POOL_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_pool cz_pool;

/* fn(ctx, begin, end) processes indices [begin, end). */
typedef void cz_range_fn(void *ctx, size_t begin, size_t end);
typedef void cz_task_fn(void *arg);

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t pending; /* submitted and not yet finished */
} cz_task_group;

/* Creates a pool with nthreads workers (1 <= nthreads <= 1024).  Returns
 * CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM or CZ_ERR_THREAD (then *out is
 * NULL and nothing is left running). */
int cz_pool_new(cz_pool **out, unsigned nthreads);

/* Finishes every queued task, joins the workers and frees the pool.
 * NULL is a no-op. */
void cz_pool_free(cz_pool *p);

/* Number of worker threads. */
unsigned cz_pool_threads(const cz_pool *p);

/* Runs fn over [0, n) in chunks of at least `grain` indices (grain 0 means
 * 1), about 4 chunks per participant, in any order and concurrently; returns
 * when all are done.  p may be NULL: then it runs fn(ctx, 0, n) inline. */
void cz_pool_parallel_for(cz_pool *p, size_t n, size_t grain, cz_range_fn *fn, void *ctx);

void cz_task_group_init(cz_task_group *g);
void cz_task_group_destroy(cz_task_group *g);

/* Queues fn(arg) as a member of g.  Returns CZ_OK or CZ_ERR_NOMEM (then the
 * task was not queued and g is unchanged). */
int cz_pool_submit(cz_pool *p, cz_task_group *g, cz_task_fn *fn, void *arg);

/* Returns when every task submitted to g has finished, running queued
 * tasks of p on the calling thread meanwhile. */
void cz_task_group_wait(cz_pool *p, cz_task_group *g);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_POOL_H */
