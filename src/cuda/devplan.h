/* Internal to src/cuda: the device memory plan of a parameter set's proofs
 * on one device (docs/device-memory.md).  Plain C, so that CI tests it
 * without a GPU; the sizes of the device's own buffers come from the CUDA
 * layer through cz_devplan_costs.
 *
 * A proof's device memory is of two kinds:
 *   kept      across proofs, per device: the query arrays that stay
 *             resident, the matrices' copy when it stays resident, the
 *             NTT tables of the domain (with or without the full twiddle
 *             table: without, each twiddle is a product of two small
 *             tables' entries);
 *   proof     one reservation per proof, its peak over two phases:
 *               H    the witness, the H vectors (3: a, b, c at once; 2: b's
 *                    products and transforms share one vector with c's;
 *                    1: a's and then a b's values parked in host memory
 *                    and brought back through two piece buffers), the
 *                    matrices' streaming buffers when not resident;
 *               MSM  the witness, H's scalars (one vector), the scratch of
 *                    the largest MSM (its sort, at most sort_points points
 *                    at a time, and its buckets, fewer with the windows
 *                    capped at CZ_DEVPLAN_NARROW bits) and, when a query is
 *                    streamed, two buffers of buf_bytes its bases travel in.
 * A plan says what is kept and how the proof is cut; it is chosen among
 * every combination (each query resident or streamed, the matrices
 * resident or streamed, the full twiddle table or not, 3, 2 or 1 H
 * vectors, the sort's size, the windows capped or not, the buffers' size)
 * as the one of least modelled time that fits the budget, ties going
 * to the one of fewer bytes.  So a larger budget never gets a plan the
 * model finds slower, and every budget from the smallest plan's bytes up
 * gets one.
 *
 * The time model (milliseconds), used only to rank plans: an MSM costs its
 * bases times a per-point time of its kind (H's random scalars, a
 * witness's, G2 three times G1), scaled by the device's speed; streamed
 * bases cross the link at link_gbps, one proof-wide pipeline of two
 * buffers ahead of the MSMs (simulated chunk by chunk), so a compute-bound
 * MSM hides its copies and those of the next MSM's first chunks; a sort in
 * pieces costs a fixed overhead a piece; an MSM whose window is capped
 * costs a share more; streamed matrices cost their bytes
 * on the link beside the products; one H vector costs its parked values'
 * four crossings of the link through the staging slots; compact twiddles
 * a share of H's time. */
#ifndef CZ_CUDA_DEVPLAN_H
#define CZ_CUDA_DEVPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The query arrays, in the order a proof runs their MSMs. */
enum { CZ_Q_H, CZ_Q_L, CZ_Q_A, CZ_Q_B_G1, CZ_Q_B_G2, CZ_Q_COUNT };

/* What the plan is made for. */
typedef struct {
    size_t m;                   /* H's domain (a power of two) */
    size_t n_in, n_aux;         /* the assignment */
    size_t n_bases[CZ_Q_COUNT]; /* each query's bases (A, B: inputs and aux together) */
    size_t n_b_in;              /* B's bases of the inputs (the rest are aux) */
    bool r1cs;                  /* a, b, c made on the device from the matrices */
    uint64_t r1cs_bytes;        /* the matrices' device copy (r1cs) */
    uint64_t r1cs_stream_bytes; /* their two streaming buffer sets (r1cs) */
    uint64_t tables_bytes;      /* the NTT tables of m not yet on the device, but the full
                                   twiddle table */
    uint64_t twiddles_bytes;    /* the full twiddle table of m, when not on the device yet */
    bool spill;                 /* (r1cs) a proof has m elements of host memory to park H's
                                   values in: one H vector allowed */
    bool dense;                 /* model the witness as dense (as random as H's scalars) */
    unsigned h_most;            /* H's vectors at most (tests; 0: 3) */
} cz_devplan_shape;

/* The CUDA layer's sizes.  msm_bytes: the device scratch of an MSM of n
 * bases (g2: in G2; density: its scalars compacted from n_scalars first)
 * with window c (0: the default for n), sorting at most sort of its points
 * at a time (sort >= n: all at once); its buckets are counted once. */
typedef struct {
    uint64_t (*msm_bytes)(size_t n, bool g2, bool density, size_t n_scalars, unsigned c,
                          size_t sort);
    /* the window an MSM of n bases runs at: H's (h), a witness's (dense or not) */
    unsigned (*window)(size_t n, bool h, bool dense);
} cz_devplan_costs;

/* The device: its speed relative to an H200 (132 SMs at 1.98 GHz: 1.0;
 * the per-point times are that card's) and its link's rate. */
typedef struct {
    double speed;
    double link_gbps; /* host to device, page-locked, GB/s */
} cz_devplan_device;

#define CZ_DEVPLAN_SORT_ALL SIZE_MAX
/* The window cap a plan may choose: 18 bits keeps a 2^27 MSM's buckets at
 * 0.35 GiB where its 20-bit window's take 1.22 GiB, for about 4 % of its
 * time (2^27 random scalars on an H200: 1,106 ms against 1,060;
 * BENCHMARKS.md 2026-11-30). */
#define CZ_DEVPLAN_NARROW 18u

typedef struct {
    bool resident[CZ_Q_COUNT];
    bool r1cs;                /* the shape's: a, b, c from the matrices on the device */
    bool r1cs_resident;       /* (r1cs) */
    unsigned h_vectors;       /* 3, 2 or 1 (2 and 1 only with r1cs; 1 with the shape's spill) */
    bool twiddles_full;       /* the full twiddle table kept */
    size_t sort_points;       /* CZ_DEVPLAN_SORT_ALL or a power of two */
    unsigned window_cap;      /* every MSM's window at most this (0: the costs' windows) */
    uint64_t buf_bytes;       /* each of the two base buffers (0: nothing streamed) */
    uint64_t kept_bytes;      /* resident queries, resident matrices, tables */
    uint64_t proof_bytes;     /* one proof's reservation: max(h_phase, msm_phase) */
    uint64_t h_phase, msm_phase;
    uint64_t link_bytes;      /* bases and matrices a proof moves to the device, and H's
                                 parked values both ways */
    double model_ms;          /* the time model's estimate of a proof */
} cz_devplan;

/* The bytes of query q's bases (G1 96 bytes a point, G2 192). */
uint64_t cz_devplan_query_bytes(const cz_devplan_shape *s, int q);

/* The scratch block of p's MSM phase (the largest MSM's). */
uint64_t cz_devplan_scratch_bytes(const cz_devplan *p, const cz_devplan_shape *s,
                                  const cz_devplan_costs *c);

/* Fills p's byte counts and model time from its choices (resident,
 * r1cs_resident, h_vectors, sort_points, window_cap, buf_bytes). */
void cz_devplan_measure(cz_devplan *p, const cz_devplan_shape *s, const cz_devplan_costs *c,
                        const cz_devplan_device *d);

/* The bytes of one of the two device buffers the one-vector H brings its
 * parked values back through: a quarter of a vector of m elements, at
 * most 128 MiB. */
uint64_t cz_devplan_spill_piece(size_t m);

/* The plan of least model time whose kept_bytes + proof_bytes fit budget,
 * among every combination; with fixed_kept (may be NULL) the kept part is
 * fixed_kept's (its resident, r1cs_resident, twiddles_full) and only the proof's cut is
 * chosen, its proof_bytes within budget minus the kept bytes (a proof's
 * fallback when the room is short).  CZ_OK, or CZ_ERR_TOO_BIG with err
 * naming the smallest plan's bytes and the room it was given. */
int cz_devplan_make(cz_devplan *out, const cz_devplan_shape *s, const cz_devplan_costs *c,
                    const cz_devplan_device *d, uint64_t budget, const cz_devplan *fixed_kept,
                    char *err, size_t errlen);

/* The bytes of the smallest plan (everything streamed, the smallest cut). */
uint64_t cz_devplan_min_bytes(const cz_devplan_shape *s, const cz_devplan_costs *c);

/* One line describing p ("resident h l a b1 b2, matrices resident, 3 H
 * vectors, sort all, buffers 0 B: kept 47.1 GiB + proof 30.2 GiB"). */
void cz_devplan_describe(const cz_devplan *p, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_DEVPLAN_H */
