/* Thread pool: one FIFO of tasks under a mutex, N workers, and a
 * parallel-for in which chunks are claimed with an atomic counter by the
 * workers and by the caller alike. */
#include <stdatomic.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/pool.h"
#include "util/list.h"

typedef struct task {
    cz_task_fn *fn;
    void *arg;
    cz_task_group *group;
    struct task *next;
} task;

struct cz_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    task *head, *tail;
    int stop;
    unsigned nthreads;
    pthread_t *threads;
};

static task *pop_locked(cz_pool *p)
{
    task *t = p->head;
    if (t) {
        p->head = t->next;
        if (!p->head)
            p->tail = NULL;
    }
    return t;
}

static void run_task(task *t)
{
    cz_task_group *g = t->group;
    t->fn(t->arg);
    free(t);
    pthread_mutex_lock(&g->mu);
    if (--g->pending == 0)
        pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static void *worker_main(void *arg)
{
    cz_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        task *t;
        while (!p->head && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!(t = pop_locked(p)))
            break; /* stop requested and the queue is drained */
        pthread_mutex_unlock(&p->mu);
        run_task(t);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int cz_pool_new(cz_pool **out, unsigned nthreads)
{
    *out = NULL;
    if (nthreads < 1 || nthreads > 1024)
        return CZ_ERR_INVALID_ARG;
    cz_pool *p = calloc(1, sizeof *p);
    if (!p)
        return CZ_ERR_NOMEM;
    p->threads = calloc(nthreads, sizeof *p->threads);
    if (!p->threads) {
        free(p);
        return CZ_ERR_NOMEM;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned i = 0; i < nthreads; i++) {
        if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0) {
            p->nthreads = i;
            cz_pool_free(p);
            return CZ_ERR_THREAD;
        }
    }
    p->nthreads = nthreads;
    *out = p;
    return CZ_OK;
}

void cz_pool_free(cz_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p);
}

unsigned cz_pool_threads(const cz_pool *p) { return p ? p->nthreads : 0; }

void cz_task_group_init(cz_task_group *g)
{
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->pending = 0;
}

void cz_task_group_destroy(cz_task_group *g)
{
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}

int cz_pool_submit(cz_pool *p, cz_task_group *g, cz_task_fn *fn, void *arg)
{
    task *t = malloc(sizeof *t);
    if (!t)
        return CZ_ERR_NOMEM;
    t->fn = fn;
    t->arg = arg;
    t->group = g;
    pthread_mutex_lock(&g->mu);
    g->pending++;
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&p->mu);
    CZ_QUEUE_APPEND(p->head, p->tail, t, next);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return CZ_OK;
}

void cz_task_group_wait(cz_pool *p, cz_task_group *g)
{
    for (;;) {
        pthread_mutex_lock(&g->mu);
        size_t pending = g->pending;
        pthread_mutex_unlock(&g->mu);
        if (pending == 0)
            return;
        pthread_mutex_lock(&p->mu);
        task *t = pop_locked(p);
        pthread_mutex_unlock(&p->mu);
        if (t) {
            run_task(t);
            continue;
        }
        /* Everything of g is running on workers: sleep until it is done. */
        pthread_mutex_lock(&g->mu);
        while (g->pending)
            pthread_cond_wait(&g->cv, &g->mu);
        pthread_mutex_unlock(&g->mu);
        return;
    }
}

typedef struct {
    cz_range_fn *fn;
    void *ctx;
    size_t n, chunk, nchunks;
    atomic_size_t next;
} pfor;

static void pfor_work(void *arg)
{
    pfor *f = arg;
    size_t i;
    while ((i = atomic_fetch_add(&f->next, 1)) < f->nchunks) {
        size_t b = i * f->chunk;
        size_t e = b + f->chunk < f->n ? b + f->chunk : f->n;
        f->fn(f->ctx, b, e);
    }
}

void cz_pool_parallel_for(cz_pool *p, size_t n, size_t grain, cz_range_fn *fn, void *ctx)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    size_t parts = p ? (size_t)p->nthreads + 1 : 1;
    size_t chunk = (n + 4 * parts - 1) / (4 * parts);
    if (chunk < grain)
        chunk = grain;
    size_t nchunks = (n + chunk - 1) / chunk;
    if (!p || nchunks == 1) {
        fn(ctx, 0, n);
        return;
    }
    pfor f = {fn, ctx, n, chunk, nchunks, 0};
    cz_task_group g;
    cz_task_group_init(&g);
    size_t helpers = nchunks - 1 < p->nthreads ? nchunks - 1 : p->nthreads;
    for (size_t i = 0; i < helpers; i++)
        if (cz_pool_submit(p, &g, pfor_work, &f) != CZ_OK)
            break; /* fewer helpers: the caller does the rest */
    pfor_work(&f);
    cz_task_group_wait(p, &g); /* helpers read f: wait until they left */
    cz_task_group_destroy(&g);
}
