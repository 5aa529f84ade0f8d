/* Group-independent parts of the MSM: signed window digits, the window
 * cost model, scalar classes.  Not part of the public API. */
#ifndef CZ_MSM_INTERNAL_H
#define CZ_MSM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/msm.h"

/* Accumulators of the "ones" pass (sums of the points whose scalar is 1):
 * point j goes to accumulator j mod MSM_ONES_ACC, so a batch of up to
 * MSM_ONES_ACC additions never meets the same accumulator twice. */
#define MSM_ONES_ACC 1024u
/* Points of the ones pass per work item. */
#define MSM_ONES_ITEM ((size_t)1 << 14)
/* Batch size (additions sharing one inversion) for 2^(c-1) buckets: half
 * the buckets, at most 1024.  With B of nb buckets busy a new point finds its
 * bucket busy with probability B/nb, so about B/4 points per batch wait in
 * the conflict queue (capacity B) for the next one. */
#define MSM_BATCH_MAX 1024u
static inline unsigned msm_batch(unsigned c)
{
    unsigned nb = 1u << (c - 1), b = nb / 2;
    return b > MSM_BATCH_MAX ? MSM_BATCH_MAX : b < 1 ? 1 : b;
}

/* Batched bucket reduction: with at least MSM_LANES_MIN_BUCKETS buckets,
 * msm_lanes(nb) lanes each run the running sums over nb / lanes consecutive
 * buckets in affine form, one batch per step for all lanes (see
 * reduce_batched in msm_template.h). */
#define MSM_LANES_MIN_BUCKETS 4096u
#define MSM_LANES_MAX         512u
static inline unsigned msm_lanes(unsigned nb) { return nb >= 16384 ? 512 : 256; }

/* Scalar classes of the split. */
enum { MSM_SKIP = 0, MSM_ONE = 1, MSM_OTHER = 2 };

/* Signed (Booth) digit j of width c of k < 2^255:
 *   d_j = b_{jc-1} + sum_{i < c-1} b_{jc+i} 2^i - b_{jc+c-1} 2^(c-1),
 * with b_{-1} = 0, so d_j is in [-2^(c-1), 2^(c-1)] and depends only on the
 * c + 1 bits jc-1 .. jc+c-1; sum_j d_j 2^(jc) telescopes to k when
 * ceil(256/c) windows are used (the top window's sign bit, bit >= 255, is
 * 0).  With v those c + 1 bits, d = ((v + 1) >> 1) - 2^c (v >> c).  The
 * code has no branch or index that depends on k (fixed-base products use
 * it on secrets); j and c are public.  Needs jc - 1 <= 255, c <= 20. */
static inline int64_t msm_booth_digit(const uint64_t k[4], unsigned j, unsigned c)
{
    uint64_t v;
    if (j == 0) {
        v = k[0] << 1;
    } else {
        unsigned bit = j * c - 1, l = bit >> 6, s = bit & 63;
        v = k[l] >> s;
        if (s && l < 3)
            v |= k[l + 1] << (64 - s);
    }
    v &= ((uint64_t)2 << c) - 1;
    return (int64_t)((v + 1) >> 1) - (int64_t)((v >> c) << c);
}

static inline unsigned msm_nwin(unsigned c) { return (256 + c - 1) / c; }

/* Buckets that window j can reach: |d_j| <= 2^(c-1), and in the top windows
 * the scalar's bits stop at 254, so |d_j| <= 2^(255 - jc) there. */
static inline unsigned msm_window_buckets(unsigned j, unsigned c)
{
    unsigned top = j * c + c - 1; /* the sign bit's position */
    if (top < 255)
        return 1u << (c - 1);
    unsigned e = 255 - j * c; /* < c */
    return 1u << e;
}

/* Widest window the cost model may pick: wider ones measured slower here
 * (2^20 points: c = 16 beats 17 and 18), their buckets leave the caches,
 * and every thread's buckets and overflow buckets take 2^(c-1) x 3 points.
 * CZ_MSM_WINDOW may still force up to CZ_MSM_MAX_WINDOW. */
#define MSM_AUTO_MAX_WINDOW 16

/* Relative costs (ns of the development machine, G1; the ratios hold for
 * G2) used to pick the window width and the split of the points. */
typedef struct {
    double add_affine; /* one batched affine addition, without the inversion */
    double inv;        /* one field inversion */
    double add_xyzz;   /* one mixed XYZZ addition */
    double bucket;     /* reduction cost per bucket: mixed + full XYZZ additions */
    double add_full;   /* one full XYZZ addition */
} msm_costs;

/* Chooses the window width c and the number of point ranges `parts` for m
 * points on nthreads threads: minimises the estimated time of
 * ceil(windows * parts / nthreads) rounds of items, each an accumulation of
 * m / parts points into 2^(c-1) buckets and a reduction of the buckets.
 * The first point of each bucket costs nothing, so the additions are
 * m/parts - nb (1 - e^(-m/(parts nb))); the batched reduction costs two
 * affine additions per bucket, two inversions per step and about three XYZZ
 * additions per lane.  c is searched in [cmin, cmax];
 * parts in [1, ...], or fixed when *parts is not 0 on entry. */
unsigned msm_choose_window(size_t m, unsigned nthreads, unsigned cmin, unsigned cmax,
                           const msm_costs *k, unsigned *parts);

/* Forced window width and parts of the flags (0: automatic). */
static inline unsigned msm_flag_window(unsigned flags) { return (flags >> 8) & 31u; }
static inline unsigned msm_flag_parts(unsigned flags) { return (flags >> 16) & 63u; }

#endif /* CZ_MSM_INTERNAL_H */
