/* cuzk-bench: shared helpers of the benchmark subcommands. */
#ifndef CZ_BENCH_H
#define CZ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

#include "cuzk/ec.h"
#include "cuzk/filecoin.h"
#include "cuzk/pool.h"
#include "cuzk/post.h"

typedef struct {
    const char *filter; /* run only benchmarks whose name contains this */
    double min_time;    /* seconds per timed sample */
    int samples;        /* timed samples; the median is reported */
    bool csv;
} cz_bench_opts;

/* One benchmark: runs its operation `iters` times. */
typedef struct {
    const char *name;
    void (*run)(uint64_t iters);
    double target_ns; /* 0: none */
    const char *target_note;
} cz_bench_case;

/* Wall-clock seconds (CLOCK_MONOTONIC). */
double cz_bench_now(void);
/* CPU seconds of the calling thread: single-thread micro-benchmarks use it so
 * time spent descheduled on a busy machine does not count. */
double cz_bench_thread_cpu(void);
/* Times a case in thread CPU time (calibrating iterations to opts->min_time), prints one row. */
void cz_bench_run_case(const cz_bench_opts *o, const cz_bench_case *c);
void cz_bench_header(const cz_bench_opts *o);

/* Bases s_i G with s_i = a + i s (i < n): one addition per point, then
 * batch conversions to affine (distinct random points, fast to make). */
void cz_bench_g1_progression(cz_g1_affine *out, size_t n, const cz_fr *a, const cz_fr *s);
void cz_bench_g2_progression(cz_g2_affine *out, size_t n, const cz_fr *a, const cz_fr *s);

int cz_bench_micro(int argc, char **argv);
int cz_bench_msm(int argc, char **argv);
int cz_bench_ntt(int argc, char **argv);
int cz_bench_h(int argc, char **argv);
int cz_bench_prove(int argc, char **argv);
int cz_bench_verify(int argc, char **argv);
int cz_bench_setup(int argc, char **argv);
int cz_bench_engine(int argc, char **argv);
int cz_bench_circuit_info(int argc, char **argv);
int cz_bench_gpu_partition(int argc, char **argv);
int cz_bench_parent_cache(int argc, char **argv);
/* seal, c1-synth, c1-verify, verify-seal (argv[0]) */
int cz_bench_sector(int argc, char **argv);
/* params, porep-prove (argv[0]) */
int cz_bench_porep(int argc, char **argv);
int cz_bench_porep_synth(int argc, char **argv);
/* snap-encode, verify-update (argv[0]): SnapDeals of a small sector */
int cz_bench_update(int argc, char **argv);
/* snap-encode's output in dir (update.json, vanilla-K.bin) as a SnapDeals
 * request (registered proof of its sector size, raw commitments), its
 * buffers in *u until cz_bench_snap_free.  0, or -1 with a message. */
typedef struct {
    cz_job_snap req;
    uint8_t comm[3][32];
    uint8_t **blobs;
    size_t *lens;
} cz_bench_snap;
int cz_bench_snap_load(cz_bench_snap *u, const char *dir, const char *cmd);
void cz_bench_snap_free(cz_bench_snap *u);
/* post-vanilla, verify-post (argv[0]): PoSt vanilla proofs of small
 * sectors or synthetic ones, and their verification */
int cz_bench_post(int argc, char **argv);
/* post-vanilla's output in dir (post.json, vanilla-I.bin) as a PoSt
 * request (kind, registered proof, randomness, partition, the blobs; miner
 * 1000) and the public sectors post.json lists, its buffers in *p until
 * cz_bench_post_free.  0, or -1 with a message. */
typedef struct {
    cz_job_kind kind; /* CZ_KIND_WINDOW_POST or CZ_KIND_WINNING_POST */
    cz_job_post req;
    const cz_post_proof_type *type;
    uint8_t randomness[32];
    uint8_t **blobs;
    size_t *lens;
    cz_post_public_sector *sectors; /* req.n_vanilla */
} cz_bench_post_in;
int cz_bench_post_load(cz_bench_post_in *p, const char *dir, const char *cmd);
void cz_bench_post_free(cz_bench_post_in *p);
/* The value of member "key" of the object that j begins with (the bench's
 * own JSON files, update.json and post.json, or a sector object of
 * post.json): an unsigned number, or a string of 32 bytes in hex.  0 or
 * -1. */
int cz_bench_json_u64(const char *j, const char *key, uint64_t *v);
int cz_bench_json_hex32(const char *j, const char *key, uint8_t out[32]);
/* The whole file at path (malloc'd; *len its bytes), or NULL with a
 * message naming cmd on stderr. */
uint8_t *cz_bench_read_file(const char *path, size_t *len, const char *cmd);
/* The verifying key file at path, prepared: 0, or -1 with a message
 * naming cmd and --vk on stderr. */
int cz_bench_read_pvk(cz_groth16_pvk *pvk, const char *path, const char *cmd);

/* A command's "--flag VALUE" options: VALUE is stored as a const char * at
 * byte offset off of the command's options struct; cmds, a mask of the
 * commands that take it (0: every command). */
typedef struct {
    const char *flag;
    size_t off;
    unsigned cmds;
} cz_bench_flag;
/* Takes argv[*i] and its value through table F (n rows) for command bit
 * cmd into o, advancing *i past the value.  0, or -1 with "unknown or
 * incomplete option" and usage (may be NULL) on stderr. */
int cz_bench_take_flag(int argc, char **argv, int *i, const cz_bench_flag *F, size_t n,
                       unsigned cmd, void *o, const char *usage);
/* The pool of --threads (opt: its value, NULL for the default, the cores
 * this process may run on, so `taskset -c 0,1` means two), the caller
 * among them (*pool NULL for one thread).  0, or -1 with a message. */
int cz_bench_pool(cz_pool **pool, unsigned *threads, const char *opt, const char *cmd);
/* 1 when v is set, else 0 with "cmd: flag is required" on stderr. */
int cz_bench_need(const char *cmd, const char *v, const char *flag);
/* Option values (bench/sector.c); on a bad value -1 (NULL) with a message
 * naming cmd and flag on stderr.  hex32: 64 hex digits, "0x" allowed, the
 * bytes in order; u64: an unsigned decimal, 0x hex or 0 octal number;
 * shape: "2KiB" .. "64GiB" or the size in bytes (flag --sector-size). */
int cz_bench_hex32(uint8_t out[32], const char *s, const char *cmd, const char *flag);
/* b in lower-case hex, NUL-terminated (the inverse of cz_bench_hex32). */
void cz_bench_hex_of(char out[65], const uint8_t b[32]);
int cz_bench_u64(uint64_t *out, const char *s, const char *cmd, const char *flag);
const cz_fc_shape *cz_bench_shape(const char *size, const char *cmd);
/* single, batch, stress, status, metrics, preload, evict, cancel (argv[0]) */
int cz_bench_client(int argc, char **argv);
/* porep-c2: PoRep C2 through the daemon as Curio sends it */
int cz_bench_porep_c2(int argc, char **argv);

#endif
