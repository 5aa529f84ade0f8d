/* cuzk: the CUDA back end (NVIDIA GPUs of compute capability 7.5 or newer,
 * built for CMake's CZ_CUDA_ARCHS when nvcc is found).
 *
 * The NTT family and the Groth16 H polynomial on the device, with the
 * conventions of include/cuzk/poly.h and results bit-identical to the CPU's
 * cz_ntt and cz_groth16_h: device vectors are arrays of cz_fr in the same
 * Montgomery layout, fully reduced, so they copy to and from the GPU
 * unchanged.
 *
 * Builds without CUDA provide every function: cz_cuda_available() returns
 * false and the others return CZ_ERR_UNSUPPORTED (pointers come back NULL).
 *
 * Devices: every call works on the calling thread's current CUDA device
 * (device 0 unless the application chose another) and on its default
 * stream; calls taking device pointers queue work and return without
 * waiting unless they say otherwise (cz_cuda_sync waits).  Twiddle tables
 * are built on first use of a domain size on a device and kept until
 * cz_cuda_release().  Functions are safe to call from several threads.
 *
 * Errors: CZ_ERR_UNSUPPORTED (no CUDA build, no device or no usable
 * driver, or no kernel image the device can run: cz_cuda_device_check
 * says why), CZ_ERR_NOMEM (not enough free device or pinned memory:
 * checked with the free VRAM before allocating), CZ_ERR_INVALID_ARG,
 * CZ_ERR_BACKEND (any other CUDA failure, including a failed kernel
 * launch). */
#ifndef CUZK_CUDA_H
#define CUZK_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/mem.h"
#include "cuzk/poly.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when this build has the CUDA back end and at least one device is
 * usable (a missing driver or device gives false, never a crash). */
bool cz_cuda_available(void);

/* Number of usable CUDA devices (0 without CUDA or a driver). */
int cz_cuda_device_count(void);
/* Makes device `ordinal` the calling thread's current device (every other
 * call here works on it).  CZ_ERR_INVALID_ARG for an ordinal that is not
 * there, CZ_ERR_UNSUPPORTED without CUDA. */
int cz_cuda_set_device(int ordinal);

/* Name of the current device ("" when none), NUL-terminated in len bytes. */
int cz_cuda_device_name(char *buf, size_t len);

/* Whether cuzk's kernels run on device `ordinal` (-1: the calling thread's
 * current device; the current device stays as it was): its compute
 * capability is 7.5 (Turing) or newer, and a probe kernel runs there, so
 * the fatbin holds SASS for it or PTX that its driver compiles.  Checked
 * on the first call for a device and kept.  The first kernel of each
 * source file that runs on a device without its SASS waits for the
 * driver's JIT compilation (about 9 s for the whole of compute_75 on an
 * H100, once: the driver caches it).  CZ_OK; CZ_ERR_UNSUPPORTED with err
 * naming the device, its capability and, for a missing image, the build's
 * architectures (no CUDA build or no device: CZ_ERR_UNSUPPORTED too);
 * CZ_ERR_INVALID_ARG for an ordinal that is not there; CZ_ERR_BACKEND for
 * another failure of the probe. */
int cz_cuda_device_check(int ordinal, char *err, size_t errlen);

/* Device memory, under a budget like host memory (src/cuda/devmem.cu).
 *
 * Each device has a budget: its free memory when first used, less 512 MiB
 * for the driver and kernels' local memory, or CZ_CUDA_MEM_BUDGET bytes
 * (environment) when smaller.  Every device buffer of this layer comes
 * from cz_cuda_malloc, which charges it, before calling cudaMalloc, to the
 * calling thread's current reservation on the current device when that
 * has room, else to the budget directly; a charge the budget cannot take
 * fails with CZ_ERR_NOMEM (*p = NULL; with CZ_CUDA_DEBUG set the sizes are
 * reported on stderr).  So cuzk's device buffers never sum to more than
 * the budget.  cls: the buffer's class (mem.h) for the counters.
 * cz_cuda_free(NULL) is a no-op; any thread may free any buffer. */
int cz_cuda_malloc(void **p, size_t bytes, cz_buf_class cls);
void cz_cuda_free(void *p);

/* Caps device ordinal's budget at bytes (0: no cap), before or after its
 * first use (the budget is then the smaller of the cap and the free memory
 * less the margin).  CZ_OK, CZ_ERR_INVALID_ARG (no such ordinal),
 * CZ_ERR_BUSY (more than bytes is reserved there now), CZ_ERR_UNSUPPORTED
 * (no CUDA).  The daemon's gpus.memory_budget. */
int cz_cuda_set_mem_budget(int ordinal, uint64_t bytes);

/* Reserves bytes of the current device's budget, waiting until they are
 * unreserved (timeout_ms < 0: no limit; 0: do not wait), and makes the
 * reservation the calling thread's current one on that device (the one
 * before comes back at release): cz_cuda_malloc on this thread then draws
 * from it.  A prove_start reserves its whole need this way, so proofs on
 * one device take turns rather than one failing halfway.  It waits only for
 * memory other reservations hold: when the budget less what is held
 * outside reservations (the kept copies) cannot hold bytes, at the call or
 * while it waits, CZ_ERR_BUSY at once, so every wait ends.  CZ_OK, or *out
 * NULL and CZ_ERR_TOO_BIG (more than the budget), CZ_ERR_BUSY,
 * CZ_ERR_TIMEOUT, CZ_ERR_INVALID_ARG (bytes 0), CZ_ERR_UNSUPPORTED,
 * CZ_ERR_NOMEM. */
typedef struct cz_cuda_resv cz_cuda_resv;
int cz_cuda_mem_reserve(cz_cuda_resv **out, size_t bytes, int64_t timeout_ms);
/* Gives r's unused part back; its live buffers stay, charged to the
 * budget until freed.  NULL: no-op.  Call on the thread that reserved. */
void cz_cuda_mem_release(cz_cuda_resv *r);

/* A device's account: total memory, budget, reserved (reservations plus
 * buffers outside one) and allocated bytes with their peaks, live and
 * waiting reservations, and per class (mem.h's cz_buf_class_stats) the
 * live buffers, their high water and the totals. */
typedef struct {
    uint64_t total, free; /* the device's memory, free now (all processes) */
    uint64_t budget;
    uint64_t reserved, peak_reserved, allocated, peak_allocated;
    uint64_t reservations, waiters;
    cz_buf_class_stats cls[CZ_BUF__COUNT];
} cz_cuda_mem_snapshot;
/* Device ordinal's account (started now if the device was not used yet).
 * CZ_ERR_INVALID_ARG for an ordinal not there, CZ_ERR_UNSUPPORTED without
 * CUDA (*s zeroed either way). */
int cz_cuda_mem_snapshot_of(int ordinal, cz_cuda_mem_snapshot *s);
/* Every device's peaks (reserved, allocated, class high water) back to
 * their current values: for benchmark sweeps. */
void cz_cuda_mem_reset_peaks(void);
/* Page-locked host memory (fast, asynchronous copies). */
int cz_cuda_host_alloc(void **p, size_t bytes);
void cz_cuda_host_free(void *p);
/* Synchronous copies between host and device memory. */
int cz_cuda_memcpy_h2d(void *dst_dev, const void *src_host, size_t bytes);
int cz_cuda_memcpy_d2h(void *dst_host, const void *src_dev, size_t bytes);
/* Waits for all queued work on the current device; reports a kernel fault. */
int cz_cuda_sync(void);

/* Builds (once) and uploads the twiddle and coset tables of d's size and
 * roots on the current device: about 16 n bytes (2 GiB at 2^27), the
 * full twiddle table included.  The
 * transforms call it themselves; call it first to keep it out of a
 * timing. */
int cz_cuda_prepare(const cz_ntt_domain *d);
/* The compact form of d's tables on the current device: the full twiddle
 * table (n/2 elements, 2 GiB at 2^27) freed, each twiddle then computed
 * from two tables of about sqrt(n) elements, with the same bits.  Plans
 * short of device memory build only this form; tests and benchmarks
 * call it to compare both.  No transform of d may be running or queued
 * meanwhile. */
int cz_cuda_ntt_compact(const cz_ntt_domain *d);
/* Frees every table cz_cuda_prepare kept and the upload staging slots
 * (src/cuda/upload.cuh: 128 MiB of page-locked memory per device used for
 * copies from pageable memory), on every device. */
void cz_cuda_release(void);

/* cz_ntt on the device: x_dev holds n = cz_ntt_domain_size(d) elements in
 * device memory, transformed in place; same kinds and orders as cz_ntt
 * (NN and RR add one bit-reversal pass).  Queued on the default stream. */
int cz_cuda_ntt(const cz_ntt_domain *d, cz_fr *x_dev, cz_ntt_kind kind, cz_ntt_order order);
/* count independent transforms of size n laid end to end from x_dev (count
 * n elements), each exactly as cz_cuda_ntt would transform it; small
 * transforms share kernel launches.  CZ_ERR_INVALID_ARG for count 0. */
int cz_cuda_ntt_batch(const cz_ntt_domain *d, cz_fr *x_dev, size_t count, cz_ntt_kind kind,
                      cz_ntt_order order);

/* cz_groth16_h on device buffers a, b, c (m = cz_ntt_domain_size(d)
 * elements each, the first n the evaluations; [n, m) is zeroed): same
 * result in a (the m - 1 coefficients of H, then the dropped top one), b
 * and c clobbered.  Queued on the default stream. */
int cz_cuda_groth16_h_dev(const cz_ntt_domain *d, cz_fr *a_dev, cz_fr *b_dev, cz_fr *c_dev,
                          size_t n);
/* The same with host buffers, exactly cz_groth16_h's contract: copies the
 * first n elements of a, b, c in, computes, copies the m results back into
 * a (b and c are left unchanged); waits for the result.  The uploads run on
 * their own stream, overlapped with the transforms of the vectors already
 * on the device; from pageable memory several host threads stage them
 * through page-locked slots, so the link runs near its page-locked speed.
 * Needs 3 m elements of device memory besides the tables. */
int cz_cuda_groth16_h(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n);
/* The same for cz_groth16_h_odd_coset's contract (snarkjs's H: the m
 * values of A B - C on the odd coset omega_2m <omega>, natural order, in
 * a).  d is the snarkjs flavour's domain (CZ_NTT_ROOT_SNARKJS). */
int cz_cuda_groth16_h_odd_coset(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, size_t n);

/* Multi-scalar multiplication on the device (Pippenger with signed digits,
 * buckets summed and reduced on the device; see src/cuda/msm.cu):
 *   *out = sum_{i < n} scalars_dev[i] bases_dev[i]
 * bases_dev: n affine points in device memory (infinity (0, 0) allowed);
 * scalars_dev: n cz_fr in device memory, Montgomery form, or canonical
 * limbs with CZ_MSM_CANONICAL.  flags as cz_g1_msm's (CZ_MSM_CANONICAL,
 * CZ_MSM_WINDOW(c) with 2 <= c <= CZ_MSM_MAX_WINDOW; others ignored).
 * Waits for the result; the same point as cz_g1_msm / cz_g2_msm on the
 * same inputs.  Device scratch (about 4 W n bytes for the bucket lists,
 * W = ceil(256 / c), plus the buckets) is allocated and freed per call,
 * each allocation checked against the free VRAM (CZ_ERR_NOMEM).
 * CZ_ERR_INVALID_ARG for NULL pointers with n > 0, n >= 2^31 or a bad
 * window; CZ_ERR_TOO_BIG when W n >= 2^32.  With CZ_CUDA_DEBUG set in the
 * environment, a failed device allocation is reported on stderr with its
 * size; with CZ_CUDA_PROFILE=1, every MSM prints the time of its steps
 * (sort into buckets, bucket sums, reduction, host) on stderr. */
int cz_cuda_g1_msm(cz_g1 *out, const cz_g1_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags);
int cz_cuda_g2_msm(cz_g2 *out, const cz_g2_affine *bases_dev, const cz_fr *scalars_dev, size_t n,
                   unsigned flags);
/* Density MSM as cz_g1_msm_density, everything in device memory: the
 * scalars of the set bits among the first n_scalars (bit i of word i / 64
 * of density_dev) are compacted on the device and paired in order with the
 * n_bases bases.  CZ_ERR_INVALID_ARG also when the number of set bits is
 * not n_bases. */
int cz_cuda_g1_msm_density(cz_g1 *out, const cz_g1_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags);
int cz_cuda_g2_msm_density(cz_g2 *out, const cz_g2_affine *bases_dev, size_t n_bases,
                           const cz_fr *scalars_dev, const uint64_t *density_dev, size_t n_scalars,
                           unsigned flags);

/* A constraint system's matrices as the device reads them: exactly the
 * arrays of include/cuzk/cs.h's cz_csr (u32 row offsets in blocks of 64
 * rows, kind << 30 | column entries, general coefficients through a
 * dictionary), field for field, in host memory.  The view is how this
 * layer, which knows no circuits, takes an R1CS; the groth16 layer fills
 * it from a cz_r1cs. */
typedef struct {
    const uint64_t *row_blk;  /* rows / 64 + 1 */
    const uint32_t *row_off;  /* rows + 1 */
    const uint64_t *coef_blk; /* rows / 64 + 1 */
    const uint32_t *col;      /* nnz */
    const uint32_t *gidx;     /* ngen */
    const cz_fr *dict;        /* ndict */
    uint64_t nnz, ngen, ndict;
} cz_cuda_csr;
typedef struct {
    const void *key; /* identifies the system (its cz_r1cs) */
    size_t rows;     /* every row, the input constraints included */
    size_t cols;     /* assignment length: columns are below it */
    cz_cuda_csr m[3]; /* A, B, C */
} cz_cuda_r1cs_view;

/* The device copy of r on the current device: uploaded on first use of
 * r->key there (about 4 (nnz + ngen + 2 rows) + 16 rows / 64 + 32 ndict
 * bytes per matrix: 5.6 GiB for the 32GiB PoRep partition) and kept until
 * cz_cuda_r1cs_release(key), or *resident = false when it does not fit
 * beside `need` more bytes of the device budget (or CZ_CUDA_STREAM_PARAMS
 * is set, as for parameters): then the products below stream the host
 * arrays, 2^22 rows at a time (CZ_CUDA_SPMV_CHUNK=N rows, for tests), the
 * arrays page-locked in place from the first streamed product until
 * cz_cuda_r1cs_release (CZ_CUDA_PIN_PARAMS=0 in the environment leaves
 * them pageable).  The host arrays must not
 * change while a copy lives (an entry also matches every array's address
 * and count, so a different system at a reused address is uploaded
 * afresh). */
int cz_cuda_r1cs_prepare(const cz_cuda_r1cs_view *r, size_t need, bool *resident);
/* Frees key's device copies on every device (waits for their work) and
 * unlocks its page-locked host arrays.  A no-op for keys never prepared; safe to call from any thread (the
 * groth16 layer makes it the cz_r1cs's free hook, cs.h). */
void cz_cuda_r1cs_release(const void *key);

/* out[k] = M_k w on the device for the matrices k = A, B, C whose out[k]
 * is not NULL: w_dev holds r->cols values, out[k] r->rows, all in device
 * memory; the same values as cz_r1cs_spmv (one thread per row summing its
 * entries, the multiplication skipped for w values 0 and 1).  Uses the
 * resident copy (cz_cuda_r1cs_prepare with need 0 first), else streams.
 * Waits for the result.  CZ_ERR_INVALID_ARG for NULL arguments or all
 * three out NULL, CZ_ERR_NOMEM, CZ_ERR_UNSUPPORTED. */
int cz_cuda_r1cs_spmv(const cz_cuda_r1cs_view *r, const cz_fr *w_dev, cz_fr *const out[3]);

/* Groth16 prove_start's device part: H from the first rows evaluations of
 * a, b, c (host memory): bellperson's H, or with odd_coset the snarkjs
 * flavour's (cz_cuda_groth16_h_odd_coset: n_h = m scalars), then every MSM
 * of the proof on the device, under the parameter set's device memory plan
 * (docs/device-memory.md): made on the set's first use on the current
 * device (or cz_cuda_groth16_prepare) from the device budget less what is
 * kept there already, it keeps the query arrays it can afford resident
 * there until cz_cuda_params_release(key) and streams the others from the
 * host arrays (page-locked in place until the release; CZ_CUDA_PIN_PARAMS=0
 * in the environment leaves them pageable) through two device buffers,
 * every chunk's copy under the kernels of the chunk before, an MSM keeping
 * its window and one bucket array across its chunks; CZ_CUDA_STREAM_PARAMS=1
 * in the environment makes the sets first used afterwards stream
 * everything and CZ_CUDA_H_VECTORS=N (1, 2) cuts their H into at most N
 * vectors, and for tests CZ_CUDA_STREAM_CHUNK=N cuts streamed MSMs into
 * chunks of at most N bases and CZ_CUDA_MSM_SORT=N sorts resident ones N
 * bases at a time:
 *   h = sum H_j h_j, l = sum w_aux l, a = sum w a (inputs dense, aux by
 *   dens[0]), b_g1 / b_g2 = sum w b (inputs by dens[1], aux by dens[2])
 * with w = n_in + n_aux assignment values (host) and dens the r1cs's A aux,
 * B input and B aux density bitmaps (host).  a, b, c and w travel on a
 * copy stream overlapped with H.  Waits for the result and reports the
 * wall time of each step, and the bytes the base pipe moved and its copy
 * engine's busy time, in out->ms.  Errors (err says which): CZ_ERR_INVALID_ARG
 * when the counts do not match, CZ_ERR_TOO_BIG when no plan fits the room
 * the kept copies leave, device errors. */
typedef struct {
    const void *key; /* identifies the parameter set (its cz_groth16_params) */
    const cz_g1_affine *h, *l, *a, *b_g1;
    const cz_g2_affine *b_g2;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
} cz_cuda_params_view;
typedef struct {
    double upload;       /* start_r1cs: w's upload */
    double spmv;         /* start_r1cs: a, b, c on the device */
    double h;            /* H (start: with the uploads of a, b, c, w, overlapped) */
    double msm_h;        /* the H MSM (n_h random scalars) */
    double msm_l;        /* the L MSM (aux) */
    double msm_a;        /* the A MSMs (inputs, then aux by density) */
    double msm_b_g1;     /* the B_g1 MSMs (inputs and aux by density) */
    double msm_b_g2;     /* the B_g2 MSMs */
    uint64_t link_bytes; /* streamed bases moved to the device (the base pipe's) */
    double link_ms;      /* the base pipe's copy engine busy time */
} cz_cuda_groth16_times; /* milliseconds */
typedef struct {
    cz_g1 h, l, a, b_g1;
    cz_g2 b_g2;
    cz_cuda_groth16_times ms;
} cz_cuda_groth16_sums;
/* A witness staged on a device ahead of its proof: its values in a
 * device buffer (CZ_BUF_WITNESS) charged to that device's budget.  A
 * prover stages the next partition's witness while the device proves the
 * one before, so the copy runs beside those kernels instead of inside the
 * next proof (docs/gpu-kernels.md item 8). */
typedef struct cz_cuda_witness cz_cuda_witness;
/* Copies the n values of w (host) to a buffer on the current device, from
 * a reservation made without waiting, on a stream of its own; returns
 * once they are there.  CZ_OK; CZ_ERR_BUSY (*out NULL) when the device
 * cannot hold them now beside what is reserved and kept there (the proof
 * then uploads w itself); CZ_ERR_INVALID_ARG (n 0), CZ_ERR_UNSUPPORTED,
 * device errors. */
int cz_cuda_witness_stage(cz_cuda_witness **out, const cz_fr *w, size_t n);
/* Frees s's buffer (any thread; NULL: no-op). */
void cz_cuda_witness_free(cz_cuda_witness *s);

/* A proof's options (y may be NULL: none of them).  Its pauses: fn(ctx) is called after the
 * SpMV (start_r1cs), after H, inside the H MSM when the parameters are
 * resident (after its sort and halfway through its bucket sums: it is the
 * longest step, 0.96 s at 2^27) and after each G1 query's MSM, with the
 * device's queue empty of the proof's work (its memory stays held), and
 * the time it takes is left out of out->ms; no_wait: when the proof's
 * device reservation cannot be made at once, CZ_ERR_BUSY instead of
 * waiting (cz_groth16_prove_opts). */
typedef struct {
    void (*fn)(void *ctx);
    void *ctx;
    bool no_wait;
    /* start_r1cs: host memory of m elements (pageable or not) where a plan
     * with one H vector parks a's and then a b's values; NULL: none, and
     * the proof is cut with two vectors or more
     * (cz_cuda_groth16_spill_bytes says when a plan wants it) */
    cz_fr *spill;
    /* w already on the device (cz_cuda_witness_stage on this device, the
     * same n values): the proof reads it there, uploads no w and leaves
     * its bytes out of its reservation.  NULL: w is uploaded. */
    const cz_cuda_witness *staged;
} cz_cuda_proof_opts;
int cz_cuda_groth16_start(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                          const cz_ntt_domain *d, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                          size_t rows, int odd_coset, const cz_fr *w, size_t n_in, size_t n_aux,
                          const uint64_t *dens[3], const cz_cuda_proof_opts *y, char *err,
                          size_t errlen);
/* The same for the bellperson flavour with a, b, c computed on the device:
 * w (host, n_in + n_aux values) is uploaded once and serves the products
 * a, b, c = r's matrices times w (cz_cuda_r1cs_spmv, r's resident copy
 * made on first use and kept until cz_cuda_r1cs_release, or streamed when
 * it does not fit beside the parameters and the proof), H and the MSMs,
 * so the host computes and uploads no a, b, c.  r->rows is H's n and must
 * fit d; r->cols must be n_in + n_aux.  The plan decides r's residency with
 * the parameters' (streamed: 2^22 rows at a time), and may keep two H
 * vectors instead of three (C's products reuse B's vector). */
int cz_cuda_groth16_start_r1cs(cz_cuda_groth16_sums *out, const cz_cuda_params_view *p,
                               const cz_ntt_domain *d, const cz_cuda_r1cs_view *r,
                               const cz_fr *w, size_t n_in, size_t n_aux, const uint64_t *dens[3],
                               const cz_cuda_proof_opts *y, char *err, size_t errlen);
/* Makes now, on the current device, the plan and the copies the first
 * proof with p there would make (a proof of n_in + n_aux values over a
 * domain of m points; r: the bellperson flavour's matrices, NULL for the
 * snarkjs flavour).  *resident: every query array and r stay resident, so
 * proofs on this device read none of the host arrays (false: at least one
 * is streamed from them).  A parameter set whose host arrays are gone (NULL
 * with a non-zero count) must stay whole: CZ_ERR_UNSUPPORTED when the
 * device cannot keep it.  CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_TOO_BIG (no
 * plan fits the device's budget less what is kept there: err names the
 * smallest plan's bytes and the budget), CZ_ERR_UNSUPPORTED, CZ_ERR_NOMEM,
 * device errors. */
int cz_cuda_groth16_prepare(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                            size_t n_in, size_t n_aux, bool *resident, char *err, size_t errlen);
/* The device bytes (kept and one proof's) of the smallest plan for p's
 * proofs (least: everything streamed, the smallest cut) and of the plan
 * that keeps everything (whole), on the current device as it is now (the
 * NTT tables of m counted unless already there).  CZ_OK,
 * CZ_ERR_INVALID_ARG, CZ_ERR_UNSUPPORTED. */
int cz_cuda_groth16_plan_bytes(const cz_cuda_params_view *p, size_t m, const cz_cuda_r1cs_view *r,
                               size_t n_in, size_t n_aux, uint64_t *least, uint64_t *whole);
/* key's plan on the current device: the bytes it keeps there, one
 * proof's reservation, the bytes a proof streams (bases and matrices), and
 * one line describing it (what it keeps, what it streams, its cut:
 * devplan.h's cz_devplan_describe).  CZ_OK, CZ_ERR_NOT_FOUND (no plan
 * there yet), CZ_ERR_UNSUPPORTED. */
typedef struct {
    uint64_t kept_bytes, proof_bytes, streamed_bytes;
    char text[400];
} cz_cuda_plan_info;
int cz_cuda_groth16_plan(const void *key, cz_cuda_plan_info *out);
/* The host bytes a proof with key should lend start_r1cs as its spill
 * (cz_cuda_proof_opts): m elements when key's plan on some device keeps
 * one H vector, else 0 (also before any plan is made and without CUDA). */
size_t cz_cuda_groth16_spill_bytes(const void *key);
/* Frees the device copies of the parameter set key on every device (waits
 * for proofs using them).  cz_groth16_params_free calls it; a no-op for
 * keys never used on a device and in builds without CUDA. */
void cz_cuda_params_release(const void *key);

/* Fixed-base batch multiplication on the device, for parameter generation
 * (the INSECURE seeded setup of groth16.h; src/cuda/fixed_base.cu):
 *   out[i] = k[i] B   for i < n, affine,
 * bit for bit what cz_g1_fixed_mul / cz_g2_fixed_mul give (msm.h), the
 * point at infinity (0, 0) for k[i] = 0.  A cz_cuda_fixed holds B's window
 * table of width w on the device: the affine points d 2^(w j) B for every
 * window j < ceil(256 / w) and 1 <= d <= 2^(w-1) (msm.h's table), built
 * on the host on pool, in host memory from alloc (class CZ_BUF_SCRATCH,
 * freed once uploaded), and uploaded: ceil(256/w) 2^(w-1) points, 48 MiB
 * in G1 and 96 MiB in G2 at the default w = 16 (1.3 s and 3 s of one
 * core, spread over the pool), 1.2 GiB in G2 at w = 20.  A product is
 * ceil(256/w) complete mixed additions with signed digits, and every 64
 * products share one field inversion on their way to affine coordinates.
 *
 * Side channels: the device code has no branch on the scalars or their
 * digits, but each window reads the table entry its digit indexes, so the
 * device's memory access pattern depends on the scalars.  Unlike the CPU
 * functions this is NOT constant time: for the insecure setup of tests and
 * benchmarks only.
 *
 * Memory: k and out are host memory (pageable is fine).  A call streams
 * them in chunks of CZ_CUDA_FIXED_CHUNK points (an environment variable,
 * read when the buffers are made; default 2^22, and at most n): two chunks
 * of host staging drawn from the allocator given at creation (class
 * CZ_BUF_STAGING, page-locked in place with cudaHostRegister, or left
 * pageable and slower when the system refuses): 2 C (32 + A) bytes for
 * chunks of C points and A = sizeof the affine point, 1 GiB in G1 and
 * 1.75 GiB in G2 at the default; and two chunks of device buffers
 * (scalars, projective products, results): 2 C (32 + 5 A / 2) bytes,
 * 2.1 GiB in G1 and 4 GiB in G2, each allocation checked against the free
 * VRAM.  They are made on the first call, remade larger when a later call
 * needs bigger chunks, kept until cz_cuda_fixed_free, and their scalars
 * (host and device) wiped then.  Host copies into and out of the staging
 * run on pool (NULL: the calling thread); the device computes chunk c while
 * chunk c - 1 travels out and chunk c + 1 in.  The call returns when every
 * result is in out.
 *
 * Threads and devices: one call at a time per object (not thread safe);
 * calls must run with the device that was current at creation.
 *
 * Errors: CZ_ERR_UNSUPPORTED (no CUDA build or no device),
 * CZ_ERR_INVALID_ARG (NULL arguments with n > 0, w or CZ_CUDA_FIXED_WINDOW
 * outside [1, CZ_CUDA_FIXED_MAX_WINDOW], CZ_CUDA_FIXED_CHUNK 0 or not a
 * number, a G2 object given to the G1 call or the other way, another device
 * current), CZ_ERR_NOMEM (device memory or host staging), CZ_ERR_BACKEND.
 * After an error out holds unspecified points; the object stays usable. */
#define CZ_CUDA_FIXED_MAX_WINDOW 20
typedef struct cz_cuda_fixed cz_cuda_fixed;
/* The table of base (infinity allowed: every product is then (0, 0)) at
 * width w, or with w = 0 the width CZ_CUDA_FIXED_WINDOW in the environment,
 * else 16, built on pool (NULL: the calling thread).  alloc: where the
 * host table and staging come from (NULL: cz_allocator_default); it must
 * outlive the object. */
int cz_cuda_g1_fixed_new(cz_cuda_fixed **t, const cz_g1_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc);
int cz_cuda_g2_fixed_new(cz_cuda_fixed **t, const cz_g2_affine *base, unsigned w, cz_pool *pool,
                         const cz_allocator *alloc);
/* Frees the table and the buffers (NULL: no-op). */
void cz_cuda_fixed_free(cz_cuda_fixed *t);
/* out[i] = k[i] B for i < n: k in Montgomery form, or canonical limbs with
 * CZ_MSM_CANONICAL in flags (msm.h; other flags ignored). */
int cz_cuda_g1_fixed_mul(cz_g1_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool);
int cz_cuda_g2_fixed_mul(cz_g2_affine *out, cz_cuda_fixed *t, const cz_fr *k, size_t n,
                         unsigned flags, cz_pool *pool);

/* Elapsed time between two points of the default stream, from CUDA events. */
typedef struct cz_cuda_timer cz_cuda_timer;
int cz_cuda_timer_new(cz_cuda_timer **t);
void cz_cuda_timer_free(cz_cuda_timer *t);
int cz_cuda_timer_start(cz_cuda_timer *t);
/* Records the end, waits for it, sets *ms to the time since the start. */
int cz_cuda_timer_stop(cz_cuda_timer *t, float *ms);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CUDA_H */
