#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H
/* Groth16 over BLS12-381: parameter, verifying-key and proof types, and
 * bellperson's file formats.
 *
 * Formats (all integers big-endian, points in the zcash encoding of ec.h):
 *   .vk     alpha_g1 (G1), beta_g1 (G1), beta_g2 (G2), gamma_g2 (G2),
 *           delta_g1 (G1), delta_g2 (G2), all uncompressed; u32 n_ic; n_ic
 *           uncompressed G1 points.  No magic, no trailing bytes.
 *   .params the .vk bytes, then five sections h, l, a, b_g1 (G1) and b_g2
 *           (G2), each a u32 count followed by that many uncompressed points.
 *   proof   A (G1 compressed, 48) || B (G2 compressed, 96) || C (G1
 *           compressed, 48) = 192 bytes.
 *
 * Validation follows bellperson (Parameters::read, VerifyingKey::read,
 * Proof::read): the six vk points are decoded with full checks (curve,
 * subgroup; infinity allowed); IC points with full checks and infinity
 * rejected; query points (h, l, a, b_g1, b_g2) with the curve check always,
 * the subgroup check unless CZ_DECODE_SKIP_SUBGROUP is passed (bellperson's
 * "unchecked" read), and infinity rejected; proof points with full checks
 * and infinity rejected.
 *
 * Error reporting: readers return CZ_OK or a cz_err code and, when err is
 * not NULL, write a NUL-terminated message of at most errlen bytes naming
 * the section and point index of a bad point, e.g.
 * "params: section l, point 1234: point not in the prime-order subgroup".
 * On failure the output object is left zeroed (nothing to free). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/cs.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"
#include "cuzk/zkey.h"

#define CZ_GROTH16_PROOF_BYTES 192

/* Reader flag (combines with CZ_DECODE_SKIP_SUBGROUP): decode only the
 * verifying key of a .params file and ignore everything after it. */
#define CZ_PARAMS_VK_ONLY 0x100u

typedef struct {
    cz_g1_affine alpha_g1, beta_g1;
    cz_g2_affine beta_g2, gamma_g2;
    cz_g1_affine delta_g1;
    cz_g2_affine delta_g2;
    size_t n_ic;
    cz_g1_affine *ic; /* n_ic points; owned (see the free functions) */
} cz_groth16_vk;

/* All query arrays and vk.ic live in one block owned by the struct (mem);
 * release with cz_groth16_params_free only (never cz_groth16_vk_free on
 * params.vk).  A struct filled by the caller for the writer may set mem =
 * NULL and point the arrays anywhere. */
/* Which Groth16 convention a parameter set follows; the vk and the proof
 * are the same in both, the prover's H and C differ:
 *   BELLPERSON  h holds m - 1 points [tau^i Z(tau) / delta]_1 (monomial
 *               basis), the prover computes the coefficients of
 *               (A B - C) / Z; C evaluations come from the C matrix.
 *   SNARKJS     h holds m points [L_(2i+1)(tau) / delta]_1 (odd-index
 *               Lagrange basis of the 2m domain; see cz_groth16_h_odd_coset);
 *               the key carries no C matrix: C's evaluations are A's times
 *               B's (equal for a satisfying witness). */
typedef enum {
    CZ_GROTH16_BELLPERSON = 0,
    CZ_GROTH16_SNARKJS = 1,
} cz_groth16_flavor;

typedef struct {
    cz_groth16_vk vk;
    cz_groth16_flavor flavor; /* the .params reader sets BELLPERSON */
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cz_g1_affine *h, *l, *a, *b_g1;
    cz_g2_affine *b_g2;
    void *mem;
    size_t mem_bytes;
    const cz_allocator *alloc; /* where mem came from (NULL: malloc) */
} cz_groth16_params;

typedef struct {
    cz_g1_affine a;
    cz_g2_affine b;
    cz_g1_affine c;
} cz_groth16_proof;

/* Frees vk->ic (from cz_groth16_vk_read_*) and zeroes *vk.  NULL is a no-op. */
void cz_groth16_vk_free(cz_groth16_vk *vk);
/* Frees the block (from cz_groth16_params_read_*) and zeroes *p.  NULL is a
 * no-op. */
void cz_groth16_params_free(cz_groth16_params *p);

/* Frees the query arrays of a set read by cz_groth16_params_read_* (h,
 * l, a, b_g1, b_g2 become NULL; their counts stay) and keeps the vk in a
 * new block from the same allocator: for a set resident on every device
 * that proves with it (cz_groth16_prepare_device), so that the host copy
 * (44 GiB for the 32GiB PoRep) goes.  Afterwards the CPU back end refuses
 * the set, and the GPU back end on a device without a copy
 * (CZ_ERR_UNSUPPORTED); the device copies and the block still go with
 * cz_groth16_params_free.  *freed: the bytes given back (the old block
 * less the new).  CZ_OK, CZ_ERR_NOMEM (nothing changed),
 * CZ_ERR_INVALID_ARG (no block of its own, or already dropped). */
int cz_groth16_params_drop_queries(cz_groth16_params *p, size_t *freed);
/* The query arrays are on the host (not dropped). */
bool cz_groth16_params_has_queries(const cz_groth16_params *p);

/* Bytes of the .vk encoding of a key with n_ic IC points. */
size_t cz_groth16_vk_encoded_size(size_t n_ic);

/* Reads a .vk image of exactly len bytes (trailing bytes: CZ_ERR_BAD_FORMAT;
 * short: CZ_ERR_TRUNCATED; bad points: their decode code). */
int cz_groth16_vk_read_mem(cz_groth16_vk *vk, const uint8_t *data, size_t len, char *err,
                           size_t errlen);
int cz_groth16_vk_read_file(cz_groth16_vk *vk, const char *path, char *err, size_t errlen);
/* Writes the .vk encoding.  CZ_OK or CZ_ERR_IO / CZ_ERR_INVALID_ARG. */
int cz_groth16_vk_write(FILE *f, const cz_groth16_vk *vk);
int cz_groth16_vk_write_file(const char *path, const cz_groth16_vk *vk);

/* Walks the counts of a .params image without decoding points and stores in
 * *decoded_bytes the size of the block the reader would allocate (vk.ic and
 * all five query arrays; only vk.ic with CZ_PARAMS_VK_ONLY in flags).
 * Checks, overflow-safe, that every count fits in the bytes that follow it
 * (CZ_ERR_TRUNCATED otherwise) and, unless VK_ONLY, that nothing trails the
 * last section (CZ_ERR_BAD_FORMAT). */
int cz_groth16_params_decoded_size(size_t *decoded_bytes, const uint8_t *data, size_t len,
                                   unsigned flags, char *err, size_t errlen);

/* Reads a .params image.  flags: CZ_DECODE_SKIP_SUBGROUP (query points
 * only), CZ_PARAMS_VK_ONLY.  Point decoding runs on pool (NULL: the calling
 * thread), and so do the query points' subgroup checks, after the whole set
 * is decoded (G1 sections batched: cz_ec_first_outside_subgroup); the
 * result and the error reported (the first bad point in file order, a
 * decoding fault before a subgroup one) do not depend on the number of
 * threads. */
int cz_groth16_params_read_mem(cz_groth16_params *p, const uint8_t *data, size_t len,
                               unsigned flags, cz_pool *pool, char *err, size_t errlen);
/* Same from a file, mapped read-only with mmap (unmapped before returning).
 * CZ_ERR_IO when the file cannot be opened or mapped. */
int cz_groth16_params_read_file(cz_groth16_params *p, const char *path, unsigned flags,
                                cz_pool *pool, char *err, size_t errlen);
/* The reader's options: flags as above, pool for the point decoding, alloc
 * for the block (class CZ_BUF_PARAMS; NULL: malloc; cz_groth16_params_free
 * gives it back there), and blake2b (NULL: none) receiving the BLAKE2b-512
 * of the whole file, computed on a thread of its own while the points are
 * decoded (Filecoin's parameters.json lists the first 16 bytes of it, as
 * 32 hex digits).  The file is mapped, and each section's pages are
 * dropped once decoded and hashed: at most the largest section is mapped
 * in at once. */
typedef struct {
    unsigned flags;
    cz_pool *pool;
    const cz_allocator *alloc;
    uint8_t *blake2b; /* 64 bytes */
    /* A checked-keys store (cuzk/checked_keys.h; NULL: none): when the
     * file's digest is in check->store the query points' subgroup checks
     * are skipped (check->known); check->checked says they ran and passed
     * (the caller then adds check->digest to its store). */
    cz_key_check *check;
} cz_params_read_opts;
int cz_groth16_params_read_file_ex(cz_groth16_params *p, const char *path,
                                   const cz_params_read_opts *o, char *err, size_t errlen);
/* Streams the .params encoding.  CZ_OK or CZ_ERR_IO / CZ_ERR_INVALID_ARG
 * (a count above UINT32_MAX). */
int cz_groth16_params_write(FILE *f, const cz_groth16_params *p);
int cz_groth16_params_write_file(const char *path, const cz_groth16_params *p);

/* Where the heavy work runs (the prover's prove_start, the setup's
 * fixed-base products). */
typedef enum {
    CZ_BACKEND_CPU = 0,
    /* prove_start on the CUDA device (cz_cuda_groth16_start): H
     * (bellperson's, or the snarkjs flavor's odd-coset one) and every MSM,
     * B_g2 included, with the parameters resident on the device, and for
     * the bellperson flavor a, b, c too; prove_finish only assembles.
     * Bit-identical proofs.  The timings' h is the device's H with the
     * uploads overlapped with it.  In the setup: every query point's fixed-base
     * product on the device (cz_cuda_g1_fixed_mul), bit-identical
     * parameters.  CZ_ERR_UNSUPPORTED when no device is there. */
    CZ_BACKEND_GPU = 1,
} cz_backend;

/* ------------------------------------------------------------- setup --- */

/* INSECURE, for tests and benchmarks only: the trapdoor (tau, alpha, beta,
 * gamma, delta) is derived from the 32-byte seed, so anyone who knows the
 * seed can forge proofs.  Production parameters come from a ceremony.
 *
 * Generates bellperson-layout parameters for the recorded R1CS r (its
 * columns [inputs | aux], input constraints included): m = the smallest
 * power of two >= cz_r1cs_num_constraints(r) (at least 2), u_i, v_i, w_i the
 * A, B, C column polynomials evaluated at tau through the Lagrange basis of
 * the m-th roots of unity, and
 *   ic_i = [(beta u_i + alpha v_i + w_i) / gamma]_1   (inputs)
 *   l_j  = [(beta u_j + alpha v_j + w_j) / delta]_1   (aux)
 *   a    = [u_i]_1 for every input, then for the aux in CZ_DENSITY_A_AUX
 *   b_g1 = [v_i]_1, b_g2 = [v_i]_2 for the inputs in CZ_DENSITY_B_INPUT,
 *          then the aux in CZ_DENSITY_B_AUX
 *   h    = [tau^i (tau^m - 1) / delta]_1 for i < m - 1          (BELLPERSON)
 *          [L_(2i+1)(tau) / delta]_1 for i < m, L_k the Lagrange basis of
 *          the 2m-th roots of unity                           (SNARKJS)
 * i.e. bellperson's generate_parameters with the points at infinity of a,
 * b_g1 and b_g2 left out (selected by the densities, which is the same for
 * every tau but a negligible set).  Scalar multiplications by the trapdoor
 * are constant time (fixed-base tables) on the CPU.  With a pool the
 * Lagrange values, the columns, the scalars and the products run on its
 * threads; the result does not depend on the threads (nor on the back end
 * of cz_groth16_setup_with): the same seed gives the same bytes.  The
 * result owns its memory (cz_groth16_params_free).  Returns CZ_OK,
 * CZ_ERR_INVALID_ARG (NULL arguments, more than 2^28 constraints) or
 * CZ_ERR_NOMEM. */
int cz_groth16_setup(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                     cz_groth16_flavor flavor, cz_pool *pool);
/* The same with every large buffer (the parameter block, class
 * CZ_BUF_PARAMS, and the temporaries, CZ_BUF_SCRATCH) from alloc, which must
 * outlive the parameters. */
int cz_groth16_setup_ex(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                        cz_groth16_flavor flavor, cz_pool *pool, const cz_allocator *alloc);
/* Seconds per phase of a setup (cz_groth16_setup_opts.times). */
typedef struct {
    double tables;                      /* the generators' fixed-base tables (on the device too) */
    double lagrange;                    /* the m Lagrange values at tau */
    double columns;                     /* u, v, w: the pass over A, B and C */
    double scalars;                     /* every query's scalars (IC and L, the density
                                         * selections of A and B, H) */
    double ic, l, a, b_g1, b_g2, h, vk; /* each query's fixed-base products */
} cz_groth16_setup_times;

/* Options of cz_groth16_setup_with; zero-initialised: the CPU, the calling
 * thread, cz_allocator_default, no timings. */
typedef struct {
    /* CZ_BACKEND_GPU: the fixed-base products on the current CUDA device,
     * the rest (trapdoor, Lagrange values, columns, scalars) on the CPU
     * as always.  The device's products are NOT constant time (the table
     * entry each digit selects is read from device memory at an address
     * that depends on the digit; include/cuzk/cuda.h): the trapdoor of
     * this insecure setup is derived from a public seed anyway.  Device
     * memory: the two generators' tables and chunk buffers, about 6 GiB,
     * checked against the free VRAM; host: about 2.8 GiB of page-locked
     * staging (class CZ_BUF_STAGING) from alloc besides the sizes below. */
    cz_backend backend;
    cz_pool *pool;                 /* NULL: the calling thread only */
    const cz_allocator *alloc;     /* every large buffer (NULL: the default) */
    cz_groth16_setup_times *times; /* filled when not NULL, also on failure */
} cz_groth16_setup_opts;

/* cz_groth16_setup_ex with options, and a message in err (errlen bytes, may
 * be 0) on failure.  Returns as cz_groth16_setup, and CZ_ERR_UNSUPPORTED
 * (GPU asked for, no device) or the device's error (CZ_ERR_NOMEM when its
 * memory is short, CZ_ERR_BACKEND). */
int cz_groth16_setup_with(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                          cz_groth16_flavor flavor, const cz_groth16_setup_opts *opts, char *err,
                          size_t errlen);
/* Sizes of those buffers on the CPU back end (the GPU's temporaries are
 * smaller, the staging above aside): *block the parameters' block, *temp
 * the temporaries (live at once with it, freed before setup returns). */
void cz_groth16_setup_sizes(const cz_r1cs *r, cz_groth16_flavor flavor, size_t *block,
                            size_t *temp);
/* Upper bounds of the same before a circuit is recorded: n_in inputs,
 * n_aux aux, rows constraints (input constraints included), every query
 * assumed full (densities at 100%). */
void cz_groth16_setup_sizes_bound(size_t n_in, size_t n_aux, size_t rows, cz_groth16_flavor flavor,
                                  size_t *block, size_t *temp);

/* ------------------------------------------------------------ prover --- */

/* Seconds spent per phase (filled by the prover when opts->timings is set);
 * on the GPU also the bases its device plan streamed from host memory and
 * the copy engine's busy time moving them (their ratio: the link's rate). */
typedef struct {
    double spmv, h, msm_h, msm_l, msm_a, msm_b_g1, msm_b_g2, assemble;
    uint64_t link_bytes;
    double link_s;
} cz_groth16_timings;

typedef struct {
    cz_backend backend;
    cz_pool *pool; /* NULL: the calling thread only */
    /* Tests only: fixed blinding factors r = rs[0], s = rs[1] instead of
     * fresh ones from the OS CSPRNG.  A proof with known r, s reveals the
     * witness: never set this in production. */
    const cz_fr *rs;
    cz_groth16_timings *timings; /* may be NULL */
    /* Where the large buffers come from (NULL: cz_allocator_default); it
     * must outlive the pending handle. */
    const cz_allocator *alloc;
    /* Preemption at step bounds: yield(yield_ctx) is called on the
     * calling thread between prove_start's steps (after H and after each
     * MSM that another follows: 4 calls on the CPU; on the GPU also after
     * the SpMV and twice inside the H MSM, cz_cuda_proof_opts: 8 calls with the
     * BELLPERSON flavor and resident parameters), with nothing of this
     * proof queued on the device and no lock of the
     * prover's held, so the caller may run a more urgent proof there, to
     * its end, before this one goes on (the engine does: worker.c).  The
     * time it takes is left out of the timings.  NULL: never called. */
    void (*yield)(void *yield_ctx);
    void *yield_ctx;
    /* GPU: a proof that cannot reserve its device memory at once fails with
     * CZ_ERR_BUSY instead of waiting for it.  For a proof run from
     * another's yield: the memory that one holds is not freed meanwhile. */
    bool no_wait;
    /* GPU: w already copied to the device the proof runs on
     * (cz_cuda_witness_stage, cuda.h): it is read there and not uploaded.
     * NULL: w is uploaded.  The caller frees it once this returns. */
    const struct cz_cuda_witness *staged;
} cz_groth16_prove_opts;

/* A proof between its two halves. */
typedef struct cz_groth16_pending cz_groth16_pending;

/* First half of a proof: a, b, c = A w, B w, C w (C w = A w * B w for the
 * SNARKJS flavor), H, then the G1 MSMs for h, l, a and b_g1.  On
 * CZ_BACKEND_GPU every MSM, B_g2's too, runs on the device, and for the
 * BELLPERSON flavor a, b, c and H as well, from r1cs's matrices kept on
 * the device (uploaded on first use, freed with r1cs: this sets r1cs's
 * free hook, cs.h; CZ_ERR_BUSY when another holds it).  w is the full assignment [inputs |
 * aux] (w[0] = 1), w_len = cz_r1cs_num_inputs + num_aux; it and a/b/c are
 * no longer needed when this returns: the pending handle keeps only the
 * G1 partial sums, the B_g2 scalars (the assignment entries the B density
 * selects, compacted) and r, s drawn from the OS CSPRNG.  params and r1cs
 * must stay alive and unchanged until cz_groth16_prove_finish or
 * cz_groth16_pending_free.  opts may be NULL (CPU, one thread).
 *
 * The witness is not checked against the constraints (use cz_r1cs_check):
 * an unsatisfying one gives a proof that does not verify.
 * Returns CZ_OK, or with *out = NULL and a message in err:
 *   CZ_ERR_INVALID_ARG   NULL arguments, w_len wrong, unknown backend
 *   CZ_ERR_BAD_FORMAT    params do not match r1cs (the message names the
 *                        query and both counts)
 *   CZ_ERR_NOMEM, CZ_ERR_RNG */
int cz_groth16_prove_start(cz_groth16_pending **out, const cz_groth16_params *params,
                           const cz_r1cs *r1cs, const cz_fr *w, size_t w_len,
                           const cz_groth16_prove_opts *opts, char *err, size_t errlen);

/* Second half: the B_g2 MSM, then the proof
 *   A = alpha + sum w_i a_i + r delta
 *   B = beta + sum w_i b_i + s delta                          (in G2)
 *   C = sum h_i h(tau)-terms + sum aux_j l_j + s A + r B1 - r s delta
 * with B1 the G1 twin of B; the multiplications by r, s and r s are
 * constant time.  Always frees pending (r and s are wiped).  Returns CZ_OK,
 * CZ_ERR_INVALID_ARG (NULL) or CZ_ERR_NOMEM (then *proof is untouched). */
int cz_groth16_prove_finish(cz_groth16_proof *proof, cz_groth16_pending *pending);

/* Drops a pending proof without finishing it (wipes r, s).  NULL: no-op. */
void cz_groth16_pending_free(cz_groth16_pending *pending);

/* The large buffers one proof allocates through opts->alloc, in bytes (for
 * memory reservations; cz_mem_charge each for tracked allocations):
 *   abc            a, b, c (3 x 2^k x 32)            prove_start, freed there
 *   start_scratch  MSM scratch of prove_start         prove_start, freed there
 *   b2_scalars     the compacted B_g2 scalars          prove_start -> finish
 *   finish_scratch MSM scratch of prove_finish         prove_finish
 * The NTT domain's twiddles (cz_ntt_domain_bytes, at most 35 MiB) and the
 * small handle itself come from malloc.  nthreads: cz_msm_nthreads of the
 * pool used.  With backend CZ_BACKEND_GPU every MSM runs on the device
 * and for the bellperson flavor a, b, c too: nothing is allocated on the
 * host (abc 0; snarkjs: abc only) but, when a device's plan keeps one H
 * vector, start_scratch: the 2^k x 32 bytes it parks H's values in
 * (cz_cuda_groth16_spill_bytes; the plans are made when the circuit is
 * prepared on the devices, so ask after that). */
typedef struct {
    size_t abc, start_scratch, b2_scalars, finish_scratch;
} cz_groth16_prove_sizes;
void cz_groth16_prove_sizes_of(cz_groth16_prove_sizes *s, const cz_groth16_params *params,
                               const cz_r1cs *r1cs, unsigned nthreads, cz_backend backend);

/* For the GPU back end: makes on the current CUDA device the device memory
 * plan and the copies the first cz_groth16_prove_start there would make
 * for params and r1cs (the query arrays it keeps; for the bellperson
 * flavour r1cs's matrices when it keeps them), so that a circuit's load
 * pays the upload instead of its first proof, and a device whose budget no
 * plan fits refuses the circuit at its load.  *resident: proofs on this
 * device will read no host query array (the condition for
 * cz_groth16_params_drop_queries).  CZ_OK, CZ_ERR_UNSUPPORTED (no CUDA
 * device, or queries dropped and the device cannot keep them all),
 * CZ_ERR_TOO_BIG (no plan fits: the smallest plan's bytes and the budget
 * named), CZ_ERR_BAD_FORMAT (params do not match r1cs), CZ_ERR_NOMEM,
 * device errors; err says which. */
int cz_groth16_prepare_device(const cz_groth16_params *params, const cz_r1cs *r1cs,
                              bool *resident, char *err, size_t errlen);
/* The device bytes of the smallest plan for params and r1cs's proofs on
 * the current CUDA device and of the plan that keeps everything
 * (cz_cuda_groth16_plan_bytes).  CZ_OK, CZ_ERR_UNSUPPORTED,
 * CZ_ERR_BAD_FORMAT. */
int cz_groth16_device_plan_bytes(const cz_groth16_params *params, const cz_r1cs *r1cs,
                                 uint64_t *least, uint64_t *whole);

/* start + finish. */
int cz_groth16_prove(cz_groth16_proof *proof, const cz_groth16_params *params, const cz_r1cs *r1cs,
                     const cz_fr *w, size_t w_len, const cz_groth16_prove_opts *opts, char *err,
                     size_t errlen);

/* n proofs for n assignments w[k] (each w_len long) sharing params: every
 * first half, then every second half; opts->rs, when set, holds 2n values.
 * On error no proof is returned and everything started is dropped. */
int cz_groth16_prove_batch(cz_groth16_proof *proofs, const cz_groth16_params *params,
                           const cz_r1cs *r1cs, const cz_fr *const *w, size_t n, size_t w_len,
                           const cz_groth16_prove_opts *opts, char *err, size_t errlen);

/* Parameters for proving with a snarkjs .zkey: copies z's verifying key and
 * queries into *params (flavor SNARKJS; a, b_g1, b_g2 keep the entries the
 * densities select, l = z's C section, h = z's H section) and builds in *r1cs
 * the A and B matrices from the coefficient section (C empty; the
 * input rows snarkjs appends become the input constraints).  A .wtns
 * assignment of the circuit is then a valid w for cz_groth16_prove.  Returns
 * CZ_OK, CZ_ERR_BAD_FORMAT (coefficients do not end in snarkjs's input
 * rows, domain size not the one the rows imply; message in err),
 * CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG. */
int cz_groth16_params_from_zkey(cz_groth16_params *params, cz_r1cs **r1cs, const cz_zkey *z,
                                char *err, size_t errlen);

/* The inverse, for writing a .zkey (cz_zkey_write) that snarkjs can prove
 * with: params must have the SNARKJS flavor and match r (as from
 * cz_groth16_setup(..., CZ_GROTH16_SNARKJS, ...)).  The queries are expanded
 * to one point per signal (infinity where the density is clear) and the
 * coefficient section lists, row by row, A's entries then B's (the input
 * rows last, being the last rows).  *z owns its memory (cz_zkey_free).
 * CZ_OK, CZ_ERR_INVALID_ARG (flavor, shapes, counts beyond 32 bits),
 * CZ_ERR_NOMEM. */
int cz_groth16_params_to_zkey(cz_zkey *z, const cz_groth16_params *params, const cz_r1cs *r1cs);

/* ---------------------------------------------------------- verifier --- */

/* A verifying key prepared for pairings: e(alpha, beta), -gamma, -delta and
 * its own copy of IC. */
typedef struct {
    cz_fp12 alpha_beta;
    cz_g1_affine alpha_g1;
    cz_g2_affine beta_g2, neg_gamma_g2, neg_delta_g2;
    size_t n_ic;
    cz_g1_affine *ic;
} cz_groth16_pvk;

/* CZ_OK, CZ_ERR_INVALID_ARG (NULL, n_ic = 0), CZ_ERR_NOMEM. */
int cz_groth16_pvk_prepare(cz_groth16_pvk *pvk, const cz_groth16_vk *vk);
void cz_groth16_pvk_free(cz_groth16_pvk *pvk); /* NULL: no-op */

/* Checks e(A, B) = e(alpha, beta) e(IC_0 + sum x_i IC_(i+1), gamma)
 * e(C, delta) for the n_inputs = n_ic - 1 public inputs x (without the
 * constant 1).  The proof's points must be in the subgroup (the decoders
 * of this header and of snarkjs.h check it).  Returns CZ_OK for a valid
 * proof, CZ_ERR_BAD_PROOF when the equation fails, CZ_ERR_INVALID_ARG for a
 * wrong input count or NULL arguments. */
int cz_groth16_verify(const cz_groth16_pvk *pvk, const cz_groth16_proof *proof, const cz_fr *inputs,
                      size_t n_inputs);

/* Batch verification of n proofs (inputs: n rows of n_inputs), one
 * multi-pairing of n + 3 pairs: with random 128-bit z_k (OS CSPRNG),
 *   prod e(z_k A_k, B_k) e(-(sum z_k) alpha, beta)
 *   e(sum z_k IC(x_k), -gamma) e(sum z_k C_k, -delta) = 1.
 * CZ_OK when all are valid (a false accept has probability <= 2^-128);
 * CZ_ERR_BAD_PROOF when some proof is invalid (verify them one by one to
 * find which); CZ_ERR_RNG, CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG.  n = 0: CZ_OK. */
int cz_groth16_verify_batch(const cz_groth16_pvk *pvk, const cz_groth16_proof *proofs,
                            const cz_fr *inputs, size_t n_inputs, size_t n);

void cz_groth16_proof_to_bytes(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *p);
/* Decodes exactly 192 bytes (else CZ_ERR_BAD_LENGTH); all three points
 * checked (curve, subgroup) and infinity rejected, as bellperson does.
 * *p is untouched on failure. */
int cz_groth16_proof_from_bytes(cz_groth16_proof *p, const uint8_t *in, size_t len);

#endif
