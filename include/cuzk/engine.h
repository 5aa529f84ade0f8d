/* cuzk: the proving engine.
 *
 * Jobs (one proof request each, of one or more partitions) flow through
 * stages with their own workers and bounded queues between them:
 *
 *   submit -> [synthesis workers]   witness of partition i (kind-specific)
 *          -> [prover workers]      prove_start, per device, under the
 *                                   device's lock
 *          -> [finalizers]          prove_finish, self-verification (every
 *                                   proof, unless no_verify: benchmarks),
 *                                   job assembly when the last partition is in
 *
 * Scheduling: synthesis takes the next partition of the job that sorts first
 * by priority (CRITICAL > HIGH > NORMAL > LOW), then submission order; a job's
 * partitions go in increasing order.  Besides the synthesis workers one more
 * serves HIGH and CRITICAL jobs only, so a PoSt never waits for a PoRep
 * partition's synthesis to end.  The queues of the later stages are ordered
 * the same way (priority, then arrival): a partition of higher priority goes
 * to the next free device slot ahead of those waiting, and the queue bound
 * counts only the partitions of its priority or higher.
 *
 * Memory: every partition reserves, before its witness is allocated, the
 * exact bytes it will hold at its peak (witness, a/b/c, MSM scratch, the
 * pending handle's scalars: see cz_groth16_prove_sizes), from the engine's
 * budget (cuzk/mem.h), waiting in (priority, job, partition) order; the
 * reservation shrinks right after prove_start (witness, a/b/c and scratch
 * gone) and is released after prove_finish.  Circuits (parameters and
 * constraint system) are cached by id in the same budget, reference counted,
 * and evicted least-recently-used once idle for eviction_min_idle_ms when a
 * partition's reservation cannot be granted.  A partition that can never fit
 * fails its job at once with an error naming the sizes.
 *
 * Admission: a job is accepted only while the unfinished jobs and their
 * unfinished partitions stay within max_jobs and max_partitions, and its
 * input (a generic job's witness) fits in the request pool: a standing
 * reservation of the budget (request_pool bytes) from which job inputs and
 * the daemon's decoded requests are allocated, so queued work can neither
 * take memory from running partitions nor exceed its share.  Beyond a limit
 * cz_engine_submit answers CZ_ERR_LIMIT at once, naming it.
 *
 * Ids: every job has a handle the engine makes, "job-<seq>", unique for
 * the engine's life, and may carry a label, the client's name for its
 * request (the gRPC request_id).  A label is not a key: Curio gives one
 * label to every WindowPoSt partition of a deadline and to a sector
 * proved again after it was sealed again, so several jobs may carry it.
 * A label "names" the jobs that carry it and are unfinished, or finished
 * but not superseded: submitting under a label (a new job or a retry
 * joining one) supersedes its other finished jobs (they stay reachable
 * by handle while in the history).  Every
 * function that takes an id takes a handle, or a label that names exactly
 * one job (CZ_ERR_AMBIGUOUS otherwise: cz_engine_resolve names them), so
 * no caller is ever given another request's proof.
 *
 * Cancellation: a queued job is removed at once; a running one stops at its
 * partitions' next stage boundary (or while waiting for memory), frees their
 * memory, and ends CANCELLED.  A failure (kind, back end, verification) ends
 * the job FAILED the same way; other jobs are not affected.
 *
 * Notification: watchers (cz_engine_watch) and the job event hook (on_job)
 * are called from the engine's notifier thread, in the order the events
 * happened, never with an engine lock held.
 *
 * Threads: every function may be called from any thread. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/synthetic.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_JOB_ID_MAX 128  /* bytes of a job id (handle or label) or circuit id, NUL included */
#define CZ_JOB_MSG_MAX 640 /* bytes of a job's failure message, NUL included */
/* The engine's job handles are "job-<n>"; labels may not begin with this
 * prefix, so an id is never both. */
#define CZ_JOB_ID_GENERATED "job-"
/* Circuit ids of the built-in kinds ("synthetic-<L>-<P>", "porep-<size>",
 * "snap-<size>"): registered circuits cannot take them. */
#define CZ_CIRCUIT_ID_SYNTHETIC "synthetic-"
#define CZ_CIRCUIT_ID_POREP     "porep-"
#define CZ_CIRCUIT_ID_SNAP      "snap-"
#define CZ_CIRCUIT_ID_WINDOW    "wpost-"
#define CZ_CIRCUIT_ID_WINNING   "winning-"

typedef enum {
    CZ_PRIO_LOW = 0,
    CZ_PRIO_NORMAL = 1,
    CZ_PRIO_HIGH = 2,
    CZ_PRIO_CRITICAL = 3,
} cz_priority;

typedef enum {
    CZ_JOB_QUEUED = 0, /* no partition started */
    CZ_JOB_RUNNING,
    CZ_JOB_COMPLETED,
    CZ_JOB_FAILED,
    CZ_JOB_CANCELLED,
} cz_job_state;

const char *cz_job_state_name(cz_job_state s);
/* "low", "normal", "high", "critical"; "?" otherwise. */
const char *cz_priority_name(cz_priority p);

/* ------------------------------------------------------------ back end --- */

/* What a back end says about one of its devices (cz_engine_status): the
 * CUDA device's ordinal and name and its memory account (src/cuda's
 * budget: mem.total is the device budget, the classes its buffers), or
 * for the CPU "cpu" with gpu false and no memory figures. */
typedef struct {
    bool gpu;
    int ordinal; /* -1 for the CPU */
    char name[64];
    uint64_t vram_total, vram_free; /* the device's, all processes */
    cz_mem_snapshot mem;
} cz_engine_device_info;

/* A circuit's device memory plan on one device (docs/device-memory.md):
 * the bytes it keeps there, one proof's reservation, the bytes a proof
 * streams, and one line describing it. */
typedef struct {
    int ordinal;
    uint64_t kept_bytes, proof_bytes, streamed_bytes;
    char text[400];
} cz_engine_plan;

/* A proving back end: prove_start / prove_finish with the semantics of
 * groth16.h, for device `dev` (< devices).  The engine holds the device's
 * lock around prove_start only.  ctx is the back end's own. */
typedef struct {
    const char *name;
    unsigned (*devices)(void *ctx);
    int (*prove_start)(void *ctx, unsigned dev, cz_groth16_pending **out,
                       const cz_groth16_params *params, const cz_r1cs *r1cs, const cz_fr *w,
                       size_t w_len, const cz_groth16_prove_opts *opts, char *err, size_t errlen);
    int (*prove_finish)(void *ctx, cz_groth16_proof *proof, cz_groth16_pending *pending);
    void *ctx;
    /* the groth16.h back end its prove_start passes on (sizes the
     * partition's reservation: cz_groth16_prove_sizes_of) */
    cz_backend kind;
    /* fills *out for device dev (NULL: the engine reports the name only) */
    void (*device_info)(void *ctx, unsigned dev, cz_engine_device_info *out);
    /* makes device dev's copies of a circuit just loaded, as its first
     * prove_start there would (cz_groth16_prepare_device); *resident: its
     * proofs there read no host query array.  NULL: nothing to make (the
     * CPU).  When every device answers resident, the engine frees the
     * circuit's host query arrays (cz_groth16_params_drop_queries) and
     * lets the pre-compiled circuit's file pages go. */
    int (*prepare)(void *ctx, unsigned dev, const cz_groth16_params *params, const cz_r1cs *r1cs,
                   bool *resident, char *err, size_t errlen);
    /* params' plan on device dev (cz_cuda_groth16_plan): CZ_OK, or
     * CZ_ERR_NOT_FOUND when there is none (yet).  NULL: no plans (the
     * CPU). */
    int (*plan)(void *ctx, unsigned dev, const cz_groth16_params *params, cz_engine_plan *out);
    /* copies a partition's witness (w_len values) to device dev ahead of
     * its prove_start, outside the device's lock, while the device proves
     * the partition before: CZ_OK with *out, which the engine passes to
     * that prove_start (cz_groth16_prove_opts.staged) and then gives to
     * unstage; an error (CZ_ERR_BUSY: no room beside the running proof)
     * leaves prove_start to copy it.  NULL: no staging (the CPU). */
    int (*stage)(void *ctx, unsigned dev, const cz_fr *w, size_t w_len, void **out);
    void (*unstage)(void *ctx, void *staged);
} cz_backend_ops;

/* The CPU back end: one device; ctx unused. */
extern const cz_backend_ops cz_backend_cpu;
/* The CUDA back end (CZ_BACKEND_GPU: H and every MSM on the device): one
 * engine device per CUDA device, each prover worker making its device
 * current before prove_start.  ctx NULL: every device found; or a
 * cz_cuda_device_list naming the ordinals to use (copy the ops and set
 * ctx).  No device -> 0 devices, which cz_engine_new refuses. */
extern const cz_backend_ops cz_backend_cuda;
#define CZ_ENGINE_MAX_DEVICES 16
typedef struct {
    int ordinal[CZ_ENGINE_MAX_DEVICES];
    unsigned n; /* 0: every device found */
} cz_cuda_device_list;
/* Checks a device list (n 0: every device found) against the devices
 * present: CZ_OK, or CZ_ERR_NOT_FOUND with a message naming the first
 * ordinal that is not there (CZ_ERR_UNSUPPORTED when no device at all),
 * or cz_cuda_device_check's error and message for the first device listed
 * that cuzk's kernels do not run on (CZ_ERR_UNSUPPORTED: older than
 * compute capability 7.5, or no image in this build for it). */
int cz_cuda_device_list_check(const cz_cuda_device_list *l, char *err, size_t errlen);

/* The one place a program (the daemon, cuzk-bench) picks its back end:
 * AUTO proves on the CUDA devices when one is usable, else on the CPU; CPU
 * always on the CPU; GPU on the CUDA devices or not at all.  list names
 * the ordinals (n 0: every device found) and must outlive *out, which
 * receives the ops to put in cz_engine_config.backend.  CZ_OK;
 * CZ_ERR_UNSUPPORTED (GPU asked for, or AUTO with ordinals listed, and no
 * usable device: err is "this build has no CUDA back end" or "this
 * machine has no CUDA device"; or a device to be used that cuzk's kernels
 * do not run on, named in err); CZ_ERR_NOT_FOUND / CZ_ERR_INVALID_ARG (a
 * bad list, as cz_cuda_device_list_check). */
typedef enum { CZ_BACKEND_AUTO, CZ_BACKEND_ONLY_CPU, CZ_BACKEND_ONLY_GPU } cz_backend_choice;
int cz_backend_choose(cz_backend_ops *out, cz_backend_choice want, cz_cuda_device_list *list,
                      char *err, size_t errlen);

/* -------------------------------------------------------------- config --- */

struct cz_job_event; /* below */

typedef struct {
    uint64_t memory_budget;        /* bytes; 0: MemTotal - safety_margin */
    uint64_t safety_margin;        /* for memory_budget 0; 0: 4 GiB or 1/8 of RAM */
    unsigned synthesis_workers;    /* 0: cz_engine_auto_synthesis_workers(); the
                                      budget, not this count, bounds their memory */
    unsigned prover_workers;       /* per device; 0: 1 for the CPU back end, else 2 */
    unsigned finalizers;           /* 0: 1 */
    unsigned prover_threads;       /* threads of the CPU back end's pool (MSM,
                                      NTT, SpMV); 0: the number of CPUs */
    unsigned synthesis_threads;    /* threads of the synthesis pool, shared by the
                                      synthesis workers (a PoRep partition's
                                      witness runs its challenges on it) and the
                                      vanilla verification at submit; 0: the
                                      number of CPUs */
    const char *param_cache;       /* folder of Filecoin's parameter files under
                                      their official names (CZ_KIND_POREP,
                                      _SNAP, _WINDOW_POST, _WINNING_POST); NULL:
                                      Filecoin kinds are refused.  Copied. */
    unsigned queue_depth;          /* bound of each queue between stages; 0: 2 */
    unsigned history;              /* finished jobs kept for await/status; 0: 1024 */
    uint64_t eviction_min_idle_ms; /* a circuit idle this long may be evicted */
    bool no_verify;                /* benchmarks only: return proofs without
                                      verifying them (default: every partition's
                                      proof is verified; one that fails ends its
                                      job FAILED) */
    bool no_synthetic;             /* refuse the built-in synthetic kind (a demo
                                      and benchmark feature) */
    unsigned max_jobs;             /* unfinished jobs at once; 0: 256 */
    unsigned max_partitions;       /* their unfinished partitions; 0: 4096 */
    uint64_t request_pool;         /* bytes of the budget for job inputs and
                                      decoded requests; 0: an eighth of the
                                      budget, at most 4 GiB */
    unsigned max_watches;          /* cz_engine_watch calls pending at once;
                                      0: 16384 */
    unsigned timeline_events;      /* events kept (ring); 0: 65536 */
    const cz_backend_ops *backend; /* NULL: cz_backend_cpu */
    unsigned rss_sample_ms;        /* RSS sampling period; 0: 1000 */
    unsigned mem_log_ms;           /* a memory log line this often; 0: never */
    FILE *log;                     /* where log lines go; NULL: stderr */
    bool timeline_log;             /* also log TIMELINE,<ms>,... lines */
    /* Job events (see cz_job_event), from the notifier thread; NULL: none. */
    void (*on_job)(void *ctx, const struct cz_job_event *ev);
    void *on_job_ctx;
} cz_engine_config;

typedef struct cz_engine cz_engine;

/* synthesis_workers 0's choice: half the CPUs, 1 to 8. */
unsigned cz_engine_auto_synthesis_workers(void);

/* Starts the workers.  CZ_OK, CZ_ERR_INVALID_ARG (a count out of range, a
 * memory_budget above MemTotal, a safety_margin not below it, a request
 * pool larger than half the budget), CZ_ERR_NOMEM, CZ_ERR_THREAD, CZ_ERR_IO
 * (/proc/meminfo unreadable), with err set. */
int cz_engine_new(cz_engine **out, const cz_engine_config *cfg, char *err, size_t errlen);
/* Stops accepting jobs, cancels every unfinished one, joins the workers,
 * delivers the pending notifications (watchers of cancelled jobs see them
 * CANCELLED) and frees everything (cz_engine_await callers get
 * CZ_ERR_SHUTDOWN).  NULL: no-op. */
void cz_engine_free(cz_engine *e);

/* ---------------------------------------------------------------- jobs --- */

/* Job kinds and their inputs (copied at submit: the caller's buffers may go
 * when cz_engine_submit returns). */
typedef enum {
    CZ_KIND_SYNTHETIC = 1, /* input: cz_job_synthetic */
    CZ_KIND_GROTH16 = 2,   /* input: cz_job_groth16 */
    CZ_KIND_POREP = 3,     /* input: cz_job_porep */
    CZ_KIND_SNAP = 4,      /* input: cz_job_snap */
    CZ_KIND_WINDOW_POST = 5,  /* input: cz_job_post */
    CZ_KIND_WINNING_POST = 6, /* input: cz_job_post */
} cz_job_kind;

#define CZ_JOB_KINDS 6 /* the kinds above (cz_engine_status.kinds) */

/* "synthetic", "groth16", "porep", "snap", "window-post", "winning-post";
 * "?" otherwise. */
const char *cz_job_kind_name(cz_job_kind k);
/* The name of k's queue in the daemon's GetStatus: the Rust cuzk's (its
 * ProofKind's Display: "porep-c2", "snap-update", "window-post",
 * "winning-post"), cz_job_kind_name for the others; "?" otherwise. */
const char *cz_job_kind_queue(cz_job_kind k);
/* The priority a request of kind k that leaves it unset gets (the Rust
 * cuzk's Priority::default_for): CRITICAL for WinningPoSt (a block
 * reward), HIGH for WindowPoSt (a deadline), NORMAL otherwise. */
cz_priority cz_job_kind_priority(cz_job_kind k);

/* The built-in synthetic circuit family (cuzk/synthetic.h): circuit.seed
 * picks the witnesses; the circuit (and its insecure parameters) depends
 * only on log_rows and n_public, and is cached under the id
 * "synthetic-<log_rows>-<n_public>" (decimal, no leading zeros). */
typedef struct {
    cz_synthetic circuit;
    uint32_t partitions; /* 1 .. 1024 */
} cz_job_synthetic;

/* A circuit registered with cz_engine_register_circuit and one full
 * assignment [inputs | aux] per partition, partitions x n_w values: either
 * w (field elements) or w_le (32-byte little-endian canonical encodings,
 * checked: CZ_ERR_NOT_CANONICAL names the first value >= r).  The engine
 * keeps its copy in the request pool (buffer class "input"), and checks
 * that each partition's assignment satisfies the circuit before proving it
 * (CZ_ERR_UNSATISFIED: the job FAILS naming the constraint); a snarkjs key
 * has no C matrix, so there the self-verification finds an unsatisfying
 * witness (CZ_ERR_BAD_PROOF, the message saying so). */
typedef struct {
    const char *circuit;
    const cz_fr *w;
    const uint8_t *w_le;
    size_t n_w;
    uint32_t partitions;
} cz_job_groth16;

/* A PoRep Commit Phase 2 (SealCommitPhase2) as Curio asks for it: the C1
 * (SealCommitPhase1Output JSON, raw or in Curio's wrapper {"SectorNum",
 * "Phase1Out" base64, "SectorSize"}), the RegisteredSealProof number
 * (0..19: StackedDrg 2KiB..64GiB V1, V1_1, V1_1 synthetic, V1_2 NI), the
 * sector number and the miner's actor id (prover_id = cz_fc_prover_id).
 * At submit the C1 is read into the request pool and checked: its
 * registered proof is the request's, a wrapper's SectorNum / SectorSize
 * are the request's, comm_r, comm_d and the seed are non-zero, and the
 * vanilla proofs verify (cz_fc_vanilla_verify with the prover and sector
 * ids) -- otherwise CZ_ERR_INVALID_ARG (CZ_ERR_BAD_FORMAT,
 * CZ_ERR_NOT_CANONICAL for the reader's errors) naming what is wrong, and
 * nothing is queued.  The circuit is "porep-<size>" ("porep-2k", "-8m",
 * "-512m", "-32g", "-64g"), loaded from the param cache (see
 * cz_engine_config.param_cache and docs/filecoin.md "Parameter files");
 * each partition's witness must carry the public inputs verify_seal
 * recomputes (checked) and its proof verifies under the .vk. */
typedef struct {
    uint64_t registered_proof;
    uint64_t sector_size; /* 0: not given; else the registered proof's */
    uint64_t sector_number;
    uint64_t miner_id;
    const uint8_t *c1;
    size_t c1_len;
} cz_job_porep;

/* A SnapDeals update proof (EmptySectorUpdate) as Curio asks for it: the
 * RegisteredUpdateProof number (0..4: StackedDrg 2KiB..64GiB V1), one
 * vanilla PartitionProof (bincode) per partition in order (1 for 2KiB,
 * 4 for 8MiB, 16 for 512MiB and up), and the commitments comm_r_old,
 * comm_d_new, comm_r_new, each 32 bytes or its binary CID
 * (cz_fc_commitment_read).  At submit every partition proof is read
 * strictly into the request pool and vanilla-verified against the
 * commitments (cz_fc_snap_verify, h the shape's) -- otherwise
 * CZ_ERR_INVALID_ARG (CZ_ERR_BAD_FORMAT, CZ_ERR_NOT_CANONICAL, ... for
 * the reader's errors) naming the partition and what is wrong, and
 * nothing is queued.  The sector number and miner id do not enter the
 * proof; they are part of the request (the idempotency digest) and the
 * log.  The circuit is "snap-<size>" ("snap-2k", "-8m", "-512m", "-32g",
 * "-64g"), loaded from the param cache under Filecoin's names
 * (cz_fc_snap_params_name); each partition's witness carries the
 * public inputs verify_empty_sector_update_proof recomputes (checked) and
 * its proof verifies under the .vk: the result is partitions x 192
 * bytes, as filecoin-proofs' EmptySectorUpdateProof. */
typedef struct {
    uint64_t registered_proof;
    uint64_t sector_size; /* 0: not given; else the registered proof's */
    uint64_t sector_number;
    uint64_t miner_id;
    const uint8_t *const *vanilla; /* n_vanilla blobs */
    const size_t *vanilla_len;
    size_t n_vanilla;
    const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
    size_t comm_r_old_len, comm_d_new_len, comm_r_new_len;
} cz_job_snap;

/* A WindowPoSt partition or a WinningPoSt (FallbackPoSt, cuzk/filecoin/post.h) as
 * Curio asks for it: the RegisteredPoStProof number (Window 5..14,
 * Winning 0..4), the 32-byte randomness (a field element: Curio clears
 * the top two bits), the miner's actor id, Window's partition_index, and
 * one FallbackPoStSectorProof blob (bincode) per proven sector: Window 1
 * to the size's sector count (2,349 at 32GiB) in ascending, distinct
 * sector order (verify_window_post orders its sectors so), Winning
 * exactly one, of 66 challenges.  At submit every blob is read strictly
 * into the request pool and vanilla-verified (cz_post_vanilla_verify, all
 * its inclusion proofs, sector i at sector_index partition_index x
 * sector count + i; Winning 0) -- otherwise CZ_ERR_INVALID_ARG (the
 * reader's codes for a malformed blob) naming the blob and what is wrong,
 * and nothing is queued.  A short Window partition is padded by repeating
 * its last sector, as filecoin-proofs does.  The circuit is
 * "wpost-<size>" or "winning-<size>", loaded from the param cache under
 * Filecoin's names (cz_post_params_name); the witness carries the inputs
 * verify_window_post / verify_winning_post recompute (checked) and the
 * proof verifies under the .vk: the result is one 192-byte proof.
 * Priority: a request at CZ_PRIO_LOW..CRITICAL as given; the daemon maps
 * an unset one to the kind's (cz_job_kind_priority: HIGH for Window,
 * CRITICAL for Winning). */
typedef struct {
    uint64_t registered_proof;
    uint64_t sector_size; /* 0: not given; else the registered proof's */
    uint64_t miner_id;
    const uint8_t *randomness;
    size_t randomness_len; /* 32 */
    uint32_t partition_index;
    const uint8_t *const *vanilla; /* n_vanilla blobs */
    const size_t *vanilla_len;
    size_t n_vanilla;
} cz_job_post;

typedef struct {
    /* The label (see Ids above): 1 .. CZ_JOB_ID_MAX - 1 bytes of UTF-8
     * without control characters, not beginning with CZ_JOB_ID_GENERATED;
     * NULL: none. */
    const char *id;
    cz_priority priority;
    cz_job_kind kind;
    const void *input; /* cz_job_synthetic, _groth16, _porep, _snap or _post */
    /* A synchronous caller (the Prove RPC): when its watch leaves because
     * the client went away (cz_engine_unwatch, client_gone) and no other
     * watch remains, the job is cancelled, unless it was also submitted
     * without this flag. */
    bool cancel_unwatched;
} cz_job_request;

/* Checks an id for req->id's rules: CZ_OK, or CZ_ERR_INVALID_ARG with a
 * message saying what is wrong (length, encoding, control characters,
 * the generated prefix).  len: the id's bytes (a NUL inside is an error). */
int cz_job_id_check(const char *id, size_t len, char *err, size_t errlen);

/* Submits a job and writes its handle to id_out (CZ_JOB_ID_MAX bytes).
 *
 * Retries: each job carries a digest of what determines its proofs (kind,
 * circuit, shape, seed, partitions, the witness or vanilla proofs).  If
 * an unfinished job, or a completed one still in the history, carries
 * req->id with the same digest (superseded or not), nothing is
 * submitted: id_out gets that job's handle, *existing
 * (may be NULL) is set true and CZ_OK returned (a client retrying after a
 * lost reply gets the same proof, proved once).  Otherwise a new job is
 * submitted under the label, whatever else it names (a failed or
 * cancelled job of the same request is tried again).
 *
 * Errors (err says which limit or what is wrong): CZ_ERR_INVALID_ARG (bad
 * request or id), CZ_ERR_NOT_FOUND (unknown circuit), CZ_ERR_NOT_CANONICAL
 * (a witness value), CZ_ERR_UNSUPPORTED (the synthetic kind is off),
 * CZ_ERR_LIMIT (max_jobs, max_partitions or the request pool),
 * CZ_ERR_SHUTDOWN, CZ_ERR_NOMEM. */
int cz_engine_submit(cz_engine *e, const cz_job_request *req, char id_out[CZ_JOB_ID_MAX],
                     bool *existing, char *err, size_t errlen);

typedef struct {
    cz_job_state state;
    cz_priority priority;
    int error;         /* CZ_OK unless FAILED/CANCELLED */
    char message[CZ_JOB_MSG_MAX]; /* why it failed */
    uint32_t partitions, partitions_done;
    double queue_ms; /* submit -> first partition's synthesis start */
    double synth_ms; /* sum over partitions, loading the circuit excluded
                        (waiting for memory included) */
    double load_ms;  /* sum over partitions of the time spent loading the
                        circuit, or waiting for another partition's load */
    double prove_ms; /* sum of prove_start + prove_finish */
    double total_ms; /* submit -> end (or now) */
    uint8_t *proofs; /* COMPLETED, from await: partitions x 192 bytes
                        (cz_groth16_proof_to_bytes); free with
                        cz_job_result_free */
} cz_job_result;

/* The handle of the job id names (a handle, or a label naming one job):
 * CZ_OK, CZ_ERR_NOT_FOUND, or CZ_ERR_AMBIGUOUS with err naming the
 * label's jobs by handle. */
int cz_engine_resolve(cz_engine *e, const char *id, char handle[CZ_JOB_ID_MAX], char *err,
                      size_t errlen);

/* Waits until job id has finished or timeout_ms passed (< 0: no limit) and
 * fills *res (proofs included when COMPLETED).  Returns CZ_OK when the job
 * is finished, CZ_ERR_TIMEOUT (res holds the current state), CZ_ERR_NOT_FOUND
 * (unknown, or dropped from the history), CZ_ERR_AMBIGUOUS, CZ_ERR_SHUTDOWN. */
int cz_engine_await(cz_engine *e, const char *id, int64_t timeout_ms, cz_job_result *res);
/* The state now, without proofs.  CZ_OK, CZ_ERR_NOT_FOUND or CZ_ERR_AMBIGUOUS. */
int cz_engine_job_status(cz_engine *e, const char *id, cz_job_result *res);
void cz_job_result_free(cz_job_result *res);

/* Asynchronous await: fn(arg, rc, res) is called exactly once, from the
 * notifier thread, when job id finishes (rc CZ_OK, res its final state,
 * proofs included when COMPLETED), or when timeout_ms (< 0: none) passes
 * first (rc CZ_ERR_TIMEOUT, res the state then).  res is valid during the
 * call only.  A waiting watch costs no thread.
 *
 * The caller provides w (zero-filled before its first use, so that a
 * cz_engine_unwatch racing with this call sees an idle watch) and keeps it
 * valid until fn has returned or cz_engine_unwatch returned true; the
 * engine owns its contents meanwhile.
 * Returns CZ_OK (fn will be called, possibly before this returns, when the
 * job has finished), CZ_ERR_NOT_FOUND, CZ_ERR_AMBIGUOUS, CZ_ERR_LIMIT (max_watches pending),
 * CZ_ERR_SHUTDOWN (fn is not called then). */
typedef void cz_job_watch_fn(void *arg, int rc, const cz_job_result *res);
typedef struct cz_job_watch {
    struct cz_job_watch *next, *prev;          /* the job's watches */
    struct cz_job_watch *tnext, *tprev;        /* the timed ones */
    struct cz_job_watch *fnext;                /* to be fired */
    void *job;
    cz_job_watch_fn *fn;
    void *arg;
    double deadline_ms; /* < 0: none */
    int state;
} cz_job_watch;
int cz_engine_watch(cz_engine *e, const char *id, int64_t timeout_ms, cz_job_watch_fn *fn,
                    void *arg, cz_job_watch *w);
/* Takes a watch back before it fires: true when removed (fn will never be
 * called), false when fn has been called or is being called.  client_gone:
 * the watcher went away (a Prove whose client disconnected); see
 * cz_job_request.cancel_unwatched. */
bool cz_engine_unwatch(cz_engine *e, cz_job_watch *w, bool client_gone);

/* Cancels a job.  CZ_OK (it will end CANCELLED unless it has finished
 * already), CZ_ERR_NOT_FOUND, CZ_ERR_AMBIGUOUS. */
int cz_engine_cancel(cz_engine *e, const char *id);
/* Cancels every unfinished job (graceful shutdown's last step); returns how
 * many. */
unsigned cz_engine_cancel_all(cz_engine *e);
/* Waits until no job is unfinished, or timeout_ms (< 0: no limit) passes:
 * CZ_OK or CZ_ERR_TIMEOUT. */
int cz_engine_wait_idle(cz_engine *e, int64_t timeout_ms);

/* Job events, for per-job log lines: SUBMITTED (a new job: not for an
 * idempotent repeat), STARTED (its first partition's synthesis begins),
 * FINISHED (state COMPLETED, FAILED or CANCELLED, message why it did not
 * complete).  Strings are valid during the call only. */
typedef enum { CZ_JOB_EV_SUBMITTED, CZ_JOB_EV_STARTED, CZ_JOB_EV_FINISHED } cz_job_event_kind;
typedef struct cz_job_event {
    cz_job_event_kind what;
    const char *id;    /* the handle */
    const char *label; /* "" when none */
    uint64_t seq;
    cz_job_kind kind;
    const char *circuit;
    cz_priority priority;
    uint32_t partitions;
    cz_job_state state;
    const char *message;
    double queue_ms, synth_ms, prove_ms, total_ms;
} cz_job_event;

/* The request pool (see Admission above): the daemon draws its decoded
 * requests from it with cz_mem_alloc, class CZ_BUF_INPUT. */
cz_resv *cz_engine_request_pool(cz_engine *e);

/* ------------------------------------------------------------ circuits --- */

/* Registers params and r1cs (borrowed: they must outlive the engine or
 * cz_engine_unregister_circuit) under id for CZ_KIND_GROTH16 jobs.  Their
 * sizes are charged to the budget while registered (CZ_ERR_TOO_BIG /
 * CZ_ERR_BUSY when they do not fit now).  CZ_ERR_BAD_FORMAT when params do
 * not match r1cs; CZ_ERR_INVALID_ARG for a duplicate id or one in a
 * built-in kind's namespace (CZ_CIRCUIT_ID_SYNTHETIC...). */
int cz_engine_register_circuit(cz_engine *e, const char *id, const cz_groth16_params *params,
                               const cz_r1cs *r1cs, char *err, size_t errlen);
/* CZ_OK, CZ_ERR_NOT_FOUND, CZ_ERR_BUSY (unfinished jobs need it). */
int cz_engine_unregister_circuit(cz_engine *e, const char *id);

/* Evicts the cached circuit id if no job uses it: CZ_OK, CZ_ERR_NOT_FOUND,
 * CZ_ERR_BUSY.  (Registered circuits are not evicted: unregister them.)
 * *freed (may be NULL) receives the bytes of budget it gave back. */
int cz_engine_evict(cz_engine *e, const char *id);
int cz_engine_evict_ex(cz_engine *e, const char *id, uint64_t *freed);

/* Loads circuit id ahead of jobs: built-in synthetic ids
 * "synthetic-<log_rows>-<n_public>" are recorded and set up (waiting for
 * budget like a job at CRITICAL priority); registered ids are always
 * loaded.  *already (may be NULL) says whether it was loaded before.
 * CZ_OK, CZ_ERR_NOT_FOUND (not a registered or synthetic id: synthetic ids
 * are canonical, "synthetic-010-0" is none), CZ_ERR_UNSUPPORTED (the
 * synthetic kind is off), or the loading error with err set. */
int cz_engine_preload(cz_engine *e, const char *id, bool *already, char *err, size_t errlen);

typedef struct {
    char id[CZ_JOB_ID_MAX];
    cz_job_kind kind; /* the kind whose jobs load it (CZ_KIND_GROTH16: registered) */
    uint64_t bytes;   /* budget held */
    uint32_t refs;    /* partitions using it now */
    bool registered;
    bool loading;
    double idle_ms; /* since the last partition let it go (0 while refs > 0);
                       eviction_min_idle_ms is measured against this */
} cz_engine_circuit_info;

/* Copies up to max cached circuits' descriptions; returns how many exist. */
size_t cz_engine_circuits(cz_engine *e, cz_engine_circuit_info *out, size_t max);
/* The device memory plans of cached circuit id, one per device that made
 * one (its load's prepare or its first proof there): up to max into out;
 * returns how many. */
size_t cz_engine_circuit_plans(cz_engine *e, const char *id, cz_engine_plan *out, size_t max);

/* -------------------------------------------------------------- status --- */

/* One kind's figures.  The job counts are those of cz_engine_status's
 * totals, split by kind (the totals are their sums).  A partition of an
 * unfinished job is waiting (not started: synthesis will take it), in
 * flight (synthesis began, not yet proved nor dropped) or done; a
 * cancelled or failed job's partitions not yet started wait for nothing
 * and are not counted. */
typedef struct {
    cz_job_kind kind;
    const char *name; /* cz_job_kind_name */
    bool enabled;     /* jobs of the kind are accepted (synthetic: not
                         no_synthetic; porep, snap: a param_cache) */
    uint64_t jobs_submitted, jobs_completed, jobs_failed, jobs_cancelled;
    uint64_t partitions_proved;
    uint32_t jobs_queued, jobs_running;
    uint32_t partitions_waiting, partitions_in_flight;
} cz_engine_kind_status;

/* One of the back end's devices, and the job whose partition holds it now
 * (busy_job "" when idle). */
typedef struct {
    cz_engine_device_info info;
    char busy_job[CZ_JOB_ID_MAX];   /* its handle */
    char busy_label[CZ_JOB_ID_MAX]; /* its label ("" when none) */
    cz_job_kind busy_kind;
    /* since start: the bases its proofs streamed from host memory, and the
     * copy engine's busy seconds moving them (bytes / seconds: the link's
     * achieved rate) */
    uint64_t link_bytes;
    double link_seconds;
} cz_engine_device_status;

typedef struct {
    uint64_t jobs_submitted, jobs_completed, jobs_failed, jobs_cancelled;
    uint64_t partitions_proved;
    uint32_t jobs_queued, jobs_running;
    cz_engine_kind_status kinds[CZ_JOB_KINDS]; /* kinds[k - 1]: kind k */
    uint32_t partitions_unfinished;      /* of unfinished jobs (done ones included) */
    uint32_t max_jobs, max_partitions;   /* admission limits */
    uint32_t watches;                    /* cz_engine_watch calls pending */
    uint64_t request_pool, request_used; /* the request pool's size and use */
    uint32_t synth_busy, prove_busy, final_busy; /* workers at work now */
    uint32_t synth_workers, prove_workers, finalizers;
    uint32_t prove_queue, final_queue; /* partitions waiting */
    uint32_t circuits_cached;
    uint64_t rss, untracked;           /* RSS, and RSS minus tracked allocations */
    uint64_t peak_rss, peak_untracked; /* over every reading (>= rss, untracked) */
    cz_mem_snapshot mem;
    unsigned n_devices; /* the back end's */
    cz_engine_device_status devices[CZ_ENGINE_MAX_DEVICES];
} cz_engine_status;

void cz_engine_status_get(cz_engine *e, cz_engine_status *s);
/* At most n partition syntheses at once from now on (0 or more than
 * synthesis_workers: all the workers); partitions already in synthesis
 * finish.  For sweeps over synthesis concurrency in one process. */
void cz_engine_set_synthesis_limit(cz_engine *e, unsigned n);
/* Starts the sampled RSS peaks (peak_rss, peak_untracked) over from the
 * next reading (benchmark phases). */
void cz_engine_reset_peaks(cz_engine *e);

/* An unfinished job (cz_engine_jobs). */
typedef struct {
    char id[CZ_JOB_ID_MAX];    /* the handle */
    char label[CZ_JOB_ID_MAX]; /* "" when none */
    char circuit[CZ_JOB_ID_MAX];
    uint64_t seq; /* its number in timeline events and buffer tags */
    cz_job_kind kind;
    cz_priority priority;
    cz_job_state state; /* QUEUED or RUNNING */
    bool ending;        /* cancelled or failed: it ends once its partitions
                           in flight have stopped */
    uint32_t partitions, partitions_done, partitions_in_flight;
    uint32_t partitions_waiting; /* as in cz_engine_kind_status */
    double age_ms;   /* since submit */
    double queue_ms; /* submit -> first partition's synthesis start (while
                        queued: the age) */
} cz_engine_job_info;

/* Copies the descriptions of up to max unfinished jobs, in the order
 * synthesis serves them (priority, then submission), and returns how many
 * jobs are unfinished (the count may exceed max).  out may be NULL when max
 * is 0.  One snapshot under the engine's lock (the jobs' figures agree
 * with each other; a cz_engine_status_get before or after is another
 * moment). */
size_t cz_engine_jobs(cz_engine *e, cz_engine_job_info *out, size_t max);
cz_budget *cz_engine_budget(cz_engine *e);

/* Timeline: one event per partition stage, times in ms since the engine
 * started.  stage: "synth", "prove_start", "prove_finish", and "upload" for
 * a witness staged on its device ahead of its prove_start (the back end's
 * stage, beside another partition's prove_start).  With
 * timeline_log, each event is also logged as
 *   TIMELINE,<end ms>,<stage>,<job seq>,<partition>,<duration ms>
 * A sampler thread reads RSS every rss_sample_ms (peaks in the status) and,
 * with mem_log_ms, logs "cuzk mem: rss ... tracked ... untracked ..." lines. */
typedef struct {
    uint64_t job_seq;
    uint32_t partition;
    const char *stage;
    double start_ms, end_ms;
} cz_timeline_event;

/* Copies up to max of the most recent events (oldest first); returns the
 * number copied. */
size_t cz_engine_timeline(cz_engine *e, cz_timeline_event *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_ENGINE_H */
