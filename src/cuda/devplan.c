/* Device memory plans (devplan.h). */
#include "cuda/devplan.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"

#define G1_POINT 96u  /* affine G1: two Fp of 48 bytes */
#define G2_POINT 192u /* affine G2 */
#define FR_BYTES 32u

/* Per-point MSM times on the reference card (an H200), nanoseconds:
 * 2^27 random scalars 831 ms; PoRep's witness (45 % zeros, 45 % ones)
 * L 136 ms over 130 M bases; a G2 point costs three G1 points
 * (BENCHMARKS.md, 2026-12-06).  A dense witness is as costly as H's. */
#define NS_RANDOM  6.2
#define NS_WITNESS 1.05
#define G2_FACTOR  3.0
/* H on the reference card: 336 ms at 2^27 (m log m), SpMV 25 ms; H with
 * two vectors loses the overlap of the third's transforms: 4 % modelled */
#define H_MS_2_27    336.0
#define SPMV_MS_2_27 25.0
#define H2_FACTOR    1.04
/* the one-vector H's parked values cross the link four times through the
 * pageable staging (upload.cuh), modelled at most this rate, GB/s; compact
 * twiddles add this share of H's time (a multiplication a twiddle) */
#define STAGED_GBPS     12.0
#define COMPACT_H_SHARE 0.10
/* a sort piece's fixed cost: launches and the bucket additions of a piece */
#define PIECE_MS 3.0
/* an MSM at CZ_DEVPLAN_NARROW bits where its own window is wider */
#define NARROW_FACTOR 1.04

static const size_t SORTS[] = {CZ_DEVPLAN_SORT_ALL, (size_t)1 << 26, (size_t)1 << 25,
                               (size_t)1 << 24,     (size_t)1 << 23, (size_t)1 << 22,
                               (size_t)1 << 21,     (size_t)1 << 20};
static const uint64_t BUFS[] = {(uint64_t)3 << 30, (uint64_t)3 << 29, (uint64_t)3 << 28,
                                (uint64_t)3 << 27, (uint64_t)3 << 26, (uint64_t)3 << 25};

uint64_t cz_devplan_spill_piece(size_t m)
{
    uint64_t quarter = (uint64_t)(m > 4 ? m / 4 : 1) * FR_BYTES, most = (uint64_t)128 << 20;
    return quarter < most ? quarter : most;
}

static unsigned psize(int q) { return q == CZ_Q_B_G2 ? G2_POINT : G1_POINT; }

uint64_t cz_devplan_query_bytes(const cz_devplan_shape *s, int q)
{
    return (uint64_t)s->n_bases[q] * psize(q);
}

static bool any_streamed(const cz_devplan *p)
{
    for (int q = 0; q < CZ_Q_COUNT; q++)
        if (!p->resident[q])
            return true;
    return false;
}

/* The points an MSM of query q sorts at a time: the plan's sort, and for a
 * streamed query at most a buffer's points. */
static size_t sort_of(const cz_devplan *p, int q)
{
    size_t s = p->sort_points;
    if (!p->resident[q]) {
        size_t b = (size_t)(p->buf_bytes / psize(q));
        s = b < s ? b : s;
    }
    return s;
}

/* The window of an MSM of n bases under p (h, dense: costs.window's). */
static unsigned window_of(const cz_devplan *p, const cz_devplan_costs *c, size_t n, bool h,
                          bool dense)
{
    unsigned w = c->window(n, h, dense);
    return p->window_cap && w > p->window_cap ? p->window_cap : w;
}

/* The largest MSM's scratch (the same MSMs, windows and bounds as
 * groth16.cu's; both windows of a witness, dense or not: known only at the
 * proof). */
uint64_t cz_devplan_scratch_bytes(const cz_devplan *p, const cz_devplan_shape *s,
                                  const cz_devplan_costs *c)
{
    size_t n_h = s->n_bases[CZ_Q_H];
    uint64_t most = c->msm_bytes(n_h, false, false, n_h, window_of(p, c, n_h, true, false),
                                 sort_of(p, CZ_Q_H));
    for (int dense = 0; dense <= 1; dense++) {
        struct {
            int q;
            size_t n;
            bool g2, density;
            size_t n_scalars;
        } m[] = {{CZ_Q_L, s->n_aux, false, false, s->n_aux},
                 {CZ_Q_A, s->n_in, false, false, s->n_in},
                 {CZ_Q_A, s->n_bases[CZ_Q_A], false, true, s->n_aux},
                 {CZ_Q_B_G1, s->n_b_in, false, true, s->n_in},
                 {CZ_Q_B_G1, s->n_bases[CZ_Q_B_G1], false, true, s->n_aux},
                 {CZ_Q_B_G2, s->n_b_in, true, true, s->n_in},
                 {CZ_Q_B_G2, s->n_bases[CZ_Q_B_G2], true, true, s->n_aux}};
        for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
            uint64_t b = c->msm_bytes(m[i].n, m[i].g2, m[i].density, m[i].n_scalars,
                                      window_of(p, c, m[i].n, false, dense), sort_of(p, m[i].q));
            most = b > most ? b : most;
        }
    }
    return most;
}

/* MSM compute of query q on the device under p, ms */
static double msm_ms(const cz_devplan *p, const cz_devplan_shape *s, const cz_devplan_costs *c,
                     const cz_devplan_device *d, int q)
{
    double ns = q == CZ_Q_H ? NS_RANDOM : s->dense ? NS_RANDOM : NS_WITNESS;
    if (q == CZ_Q_B_G2)
        ns *= G2_FACTOR;
    size_t n = s->n_bases[q];
    if (window_of(p, c, n, q == CZ_Q_H, s->dense) < c->window(n, q == CZ_Q_H, s->dense))
        ns *= NARROW_FACTOR;
    return (double)n * ns / d->speed / 1e6;
}

static double link_ms(uint64_t bytes, const cz_devplan_device *d)
{
    return (double)bytes / (d->link_gbps * 1e6);
}

/* The MSM phase: one pipeline of two buffers carries the streamed queries'
 * chunks in order, each chunk's upload starting once the uploader is free
 * and the chunk two before it is consumed; a chunk's compute starts once
 * it is uploaded and the one before is done; resident MSMs compute with
 * no upload while the uploader runs ahead. */
static double msm_phase_ms(const cz_devplan *p, const cz_devplan_shape *s,
                           const cz_devplan_costs *c, const cz_devplan_device *d)
{
    double up_free = 0, t = 0, done[2] = {0, 0};
    size_t j = 0;
    for (int q = 0; q < CZ_Q_COUNT; q++) {
        double ms = msm_ms(p, s, c, d, q);
        size_t n = s->n_bases[q], sort = sort_of(p, q);
        if (sort < n)
            t += PIECE_MS * (double)((n + sort - 1) / sort - 1);
        if (p->resident[q] || n == 0) {
            t += ms;
            continue;
        }
        uint64_t bytes = cz_devplan_query_bytes(s, q);
        size_t chunks = (size_t)((bytes + p->buf_bytes - 1) / p->buf_bytes);
        for (size_t k = 0; k < chunks; k++, j++) {
            uint64_t cb = k + 1 < chunks ? p->buf_bytes : bytes - k * p->buf_bytes;
            double start = up_free;
            if (j >= 2 && done[j % 2] > start)
                start = done[j % 2];
            up_free = start + link_ms(cb, d);
            t = (t > up_free ? t : up_free) + ms * (double)cb / (double)bytes;
            done[j % 2] = t;
        }
    }
    return t;
}

void cz_devplan_measure(cz_devplan *p, const cz_devplan_shape *s, const cz_devplan_costs *c,
                        const cz_devplan_device *d)
{
    uint64_t n = (uint64_t)s->n_in + s->n_aux;
    uint64_t words_in = (s->n_in + 63) / 64, words_aux = (s->n_aux + 63) / 64;
    uint64_t w = n * FR_BYTES + (words_aux * 2 + words_in + 1) * 8;
    uint64_t vec = (uint64_t)s->m * FR_BYTES;
    bool r_streamed = s->r1cs && !p->r1cs_resident;
    p->r1cs = s->r1cs;
    p->h_phase = w + p->h_vectors * vec + (r_streamed ? s->r1cs_stream_bytes : 0) +
                 (p->h_vectors == 1 ? 2 * cz_devplan_spill_piece(s->m) : 0);
    /* H's scalars: one vector (with the matrices the others are freed
     * after H; from the host the three are one buffer) */
    uint64_t h_keep = s->r1cs ? vec : 3 * vec;
    p->msm_phase = w + h_keep + cz_devplan_scratch_bytes(p, s, c) +
                   (any_streamed(p) ? 2 * p->buf_bytes : 0);
    p->proof_bytes = p->h_phase > p->msm_phase ? p->h_phase : p->msm_phase;
    p->kept_bytes = s->tables_bytes + (p->twiddles_full ? s->twiddles_bytes : 0) +
                    (s->r1cs && p->r1cs_resident ? s->r1cs_bytes : 0);
    p->link_bytes = (r_streamed ? s->r1cs_bytes : 0) + (p->h_vectors == 1 ? 4 * vec : 0);
    for (int q = 0; q < CZ_Q_COUNT; q++) {
        if (p->resident[q])
            p->kept_bytes += cz_devplan_query_bytes(s, q);
        else
            p->link_bytes += cz_devplan_query_bytes(s, q);
    }
    /* H: m log m from the reference's 2^27 */
    unsigned lg = 0;
    while (((size_t)1 << lg) < s->m)
        lg++;
    double scale = (double)s->m / (double)((size_t)1 << 27) * lg / 27.0 / d->speed;
    double h = H_MS_2_27 * scale * (p->h_vectors < 3 ? H2_FACTOR : 1.0) *
               (p->twiddles_full ? 1.0 : 1.0 + COMPACT_H_SHARE);
    if (p->h_vectors == 1) {
        double gbps = d->link_gbps < STAGED_GBPS ? d->link_gbps : STAGED_GBPS;
        h += (double)(4 * vec) / (gbps * 1e6);
    }
    double spmv = s->r1cs ? SPMV_MS_2_27 * (double)s->m / (double)((size_t)1 << 27) / d->speed : 0;
    if (r_streamed && link_ms(s->r1cs_bytes, d) > spmv)
        spmv = link_ms(s->r1cs_bytes, d);
    p->model_ms = spmv + h + msm_phase_ms(p, s, c, d);
}

/* Whether plan a beats plan b: less time, then fewer bytes. */
static bool better(const cz_devplan *a, const cz_devplan *b)
{
    if (a->model_ms < b->model_ms * (1 - 1e-9))
        return true;
    if (a->model_ms > b->model_ms * (1 + 1e-9))
        return false;
    return a->kept_bytes + a->proof_bytes < b->kept_bytes + b->proof_bytes;
}

/* Calls fn(ctx, candidate) for every cut of a proof (H's vectors, the
 * sort, the window cap, the buffers) under p's kept part. */
static void each_cut(cz_devplan p, size_t most, const cz_devplan_shape *s,
                     const cz_devplan_costs *c, const cz_devplan_device *d,
                     void (*fn)(void *ctx, const cz_devplan *p), void *ctx)
{
    /* some MSM's window is wider than the cap (H's, a dense witness's) */
    bool wide = c->window(s->n_bases[CZ_Q_H], true, false) > CZ_DEVPLAN_NARROW ||
                c->window(s->n_aux, false, true) > CZ_DEVPLAN_NARROW;
    for (unsigned hv = 3; hv >= 1; hv--) {
        if (s->h_most && hv > s->h_most)
            continue;
        if (hv < 3 && !s->r1cs)
            break;
        if (hv == 1 && !s->spill)
            break;
        p.h_vectors = hv;
        for (size_t si = 0; si < sizeof SORTS / sizeof SORTS[0]; si++) {
            if (si > 0 && SORTS[si] >= most)
                continue; /* the same as sorting all at once */
            p.sort_points = SORTS[si];
            bool streams = any_streamed(&p);
            for (unsigned cap = 0; cap <= CZ_DEVPLAN_NARROW; cap += CZ_DEVPLAN_NARROW) {
                if (cap && !wide)
                    break; /* the same as no cap */
                p.window_cap = cap;
                for (size_t bi = 0; bi < (streams ? sizeof BUFS / sizeof BUFS[0] : 1); bi++) {
                    p.buf_bytes = streams ? BUFS[bi] : 0;
                    cz_devplan_measure(&p, s, c, d);
                    fn(ctx, &p);
                }
            }
        }
    }
}

/* Calls fn(ctx, candidate) for every combination (the kept part fixed to
 * fixed's when given). */
static void each_plan(const cz_devplan_shape *s, const cz_devplan_costs *c,
                      const cz_devplan_device *d, const cz_devplan *fixed,
                      void (*fn)(void *ctx, const cz_devplan *p), void *ctx)
{
    size_t most = 0;
    for (int q = 0; q < CZ_Q_COUNT; q++)
        most = s->n_bases[q] > most ? s->n_bases[q] : most;
    most = s->n_aux > most ? s->n_aux : most;
    for (unsigned set = 0; set < (1u << CZ_Q_COUNT); set++) {
        cz_devplan p;
        memset(&p, 0, sizeof p);
        for (int q = 0; q < CZ_Q_COUNT; q++)
            p.resident[q] = fixed ? fixed->resident[q] : ((set >> q) & 1) != 0;
        if (fixed && set)
            break; /* one residency */
        for (int rr = 0; rr < 2; rr++) {
            if (!s->r1cs && rr)
                break;
            if (fixed && (bool)rr != fixed->r1cs_resident)
                continue;
            p.r1cs_resident = s->r1cs && rr;
            for (int tf = 1; tf >= 0; tf--) {
                if (fixed && (bool)tf != fixed->twiddles_full)
                    continue;
                p.twiddles_full = tf;
                each_cut(p, most, s, c, d, fn, ctx);
            }
        }
    }
}

typedef struct {
    uint64_t budget;
    bool have;
    cz_devplan best;
    uint64_t least; /* the smallest candidate's bytes */
} pick;

static void consider(void *ctx, const cz_devplan *p)
{
    pick *k = ctx;
    uint64_t total = p->kept_bytes + p->proof_bytes;
    if (total < k->least)
        k->least = total;
    if (total <= k->budget && (!k->have || better(p, &k->best))) {
        k->best = *p;
        k->have = true;
    }
}

static const cz_devplan_device REF = {1.0, 25.0};

uint64_t cz_devplan_min_bytes(const cz_devplan_shape *s, const cz_devplan_costs *c)
{
    pick k;
    memset(&k, 0, sizeof k);
    k.least = UINT64_MAX;
    each_plan(s, c, &REF, NULL, consider, &k);
    return k.least;
}

static double gib(uint64_t b) { return (double)b / (double)(1ull << 30); }

int cz_devplan_make(cz_devplan *out, const cz_devplan_shape *s, const cz_devplan_costs *c,
                    const cz_devplan_device *d, uint64_t budget, const cz_devplan *fixed_kept,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!s || !c || !c->msm_bytes || !c->window || !d || d->speed <= 0 || d->link_gbps <= 0 ||
        s->m == 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "device plan: bad arguments");
    pick k;
    memset(&k, 0, sizeof k);
    k.budget = budget;
    k.least = UINT64_MAX;
    each_plan(s, c, d, fixed_kept, consider, &k);
    if (!k.have)
        return cz_fail(err, errlen, CZ_ERR_TOO_BIG,
                       "the smallest device plan%s needs %.2f GiB (%llu bytes); the room is %.2f "
                       "GiB (%llu bytes)",
                       fixed_kept ? " with this residency" : "", gib(k.least),
                       (unsigned long long)k.least, gib(budget), (unsigned long long)budget);
    *out = k.best;
    return CZ_OK;
}

void cz_devplan_describe(const cz_devplan *p, char *out, size_t len)
{
    static const char *const name[CZ_Q_COUNT] = {"h", "l", "a", "b_g1", "b_g2"};
    char res[64] = "", str[64] = "";
    for (int q = 0; q < CZ_Q_COUNT; q++) {
        char *dst = p->resident[q] ? res : str;
        size_t at = strlen(dst);
        snprintf(dst + at, 64 - at, "%s%s", at ? " " : "", name[q]);
    }
    char sort[32];
    if (p->sort_points == CZ_DEVPLAN_SORT_ALL)
        snprintf(sort, sizeof sort, "all");
    else
        snprintf(sort, sizeof sort, "2^%d", __builtin_ctzll((unsigned long long)p->sort_points));
    char cap[48] = "";
    if (p->window_cap)
        snprintf(cap, sizeof cap, "windows of %u bits at most, ", p->window_cap);
    snprintf(out, len,
             "resident [%s], streamed [%s], matrices %s, %s twiddles, %u H vector%s, "
             "sorts of %s points, %s"
             "buffers 2 x %.2f GiB: kept %.2f GiB + proof %.2f GiB (H %.2f, MSM %.2f), "
             "%.2f GiB over the link, model %.0f ms",
             res, str, !p->r1cs ? "on the host" : p->r1cs_resident ? "resident" : "streamed",
             p->twiddles_full ? "full" : "compact", p->h_vectors, p->h_vectors == 1 ? "" : "s",
             sort, cap,
             gib(p->buf_bytes), gib(p->kept_bytes), gib(p->proof_bytes), gib(p->h_phase),
             gib(p->msm_phase), gib(p->link_bytes), p->model_ms);
}
