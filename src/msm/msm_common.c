/* Group-independent MSM helpers: thread count and the window cost model. */
#include <math.h>

#include "cuzk/msm.h"
#include "msm/msm_internal.h"

unsigned cz_msm_nthreads(const cz_pool *pool) { return pool ? cz_pool_threads(pool) + 1 : 1; }

unsigned msm_choose_window(size_t m, unsigned nthreads, unsigned cmin, unsigned cmax,
                           const msm_costs *k, unsigned *parts)
{
    unsigned best_c = cmin, best_p = *parts ? *parts : 1, fixed = *parts;
    double best = INFINITY;
    if (nthreads < 1)
        nthreads = 1;
    for (unsigned c = cmin; c <= cmax; c++) {
        unsigned nwin = msm_nwin(c);
        double nb = (double)(1u << (c - 1));
        double add =
            c >= CZ_MSM_AFFINE_MIN_WINDOW ? k->add_affine + k->inv / msm_batch(c) : k->add_xyzz;
        /* more ranges than needed to give every thread an item only adds
         * reductions */
        unsigned pmin = 1, pmax = nwin >= nthreads ? 1 : (2 * nthreads + nwin - 1) / nwin;
        if (fixed)
            pmin = pmax = fixed;
        for (unsigned p = pmin; p <= pmax; p++) {
            double pts = (double)m / p;
            double adds = pts - nb * (1.0 - exp(-pts / nb));
            double red = nb * k->bucket;
            if (c >= CZ_MSM_AFFINE_MIN_WINDOW && nb >= MSM_LANES_MIN_BUCKETS) {
                double lanes = msm_lanes((unsigned)nb);
                red = 2 * nb * k->add_affine + 2 * k->inv * (nb / lanes) + 3 * lanes * k->add_full;
            }
            double item = adds * add + red;
            double rounds = (double)((nwin * p + nthreads - 1) / nthreads);
            double t = rounds * item;
            if (t < best) {
                best = t;
                best_c = c;
                best_p = p;
            }
        }
    }
    *parts = best_p;
    return best_c;
}
