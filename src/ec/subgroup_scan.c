/* The first point of an array outside the order-r subgroup (cuzk/ec.h
 * cz_ec_first_outside_subgroup): the key readers' subgroup pass over
 * decoded points (.zkey, .params).
 *
 * One batched check (subgroup_batch.c, a fraction of the single checks'
 * time) and, only when it refuses, the single checks to find the point.
 * The single checks run in parallel, each task stopping at an index past
 * the lowest bad one found so far, so the answer is the lowest bad index
 * whatever the thread count. */
#include <stdatomic.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/pool.h"

typedef struct {
    const void *pts;
    bool g2;
    _Atomic size_t first; /* SIZE_MAX: none yet */
} scan;

static void scan_task(void *vctx, size_t begin, size_t end)
{
    scan *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (i >= atomic_load(&c->first))
            return;
        bool ok = c->g2 ? cz_g2_affine_in_subgroup(&((const cz_g2_affine *)c->pts)[i])
                        : cz_g1_affine_in_subgroup(&((const cz_g1_affine *)c->pts)[i]);
        if (!ok) {
            size_t cur = atomic_load(&c->first);
            while (i < cur && !atomic_compare_exchange_weak(&c->first, &cur, i))
                ;
            return;
        }
    }
}

int cz_ec_first_outside_subgroup(const void *pts, size_t n, bool g2, cz_pool *pool, size_t *first)
{
    if (first == NULL || (pts == NULL && n > 0))
        return CZ_ERR_INVALID_ARG;
    *first = n;
    bool all_in = false;
    int rc = g2 ? cz_g2_batch_in_subgroup(pts, n, pool, &all_in)
                : cz_g1_batch_in_subgroup(pts, n, pool, &all_in);
    if (rc != CZ_OK || all_in)
        return rc;
    scan c = {.pts = pts, .g2 = g2};
    atomic_init(&c.first, SIZE_MAX);
    cz_pool_parallel_for(pool, n, 256, scan_task, &c);
    size_t bad = atomic_load(&c.first);
    *first = bad == SIZE_MAX ? n : bad;
    return CZ_OK;
}
