/* The command line of cuzk and cuzk-bench (src/tool, bench/): a top layer
 * beside the daemon, built into neither library.
 *
 * A tool is one table of commands (cz_cli_tool): the table drives dispatch
 * (the longest run of words naming a command: "cuzk porep seal ..."), the
 * tool's usage, a group's list ("cuzk porep") and every command's --help.
 * Every command reads its options through one parser, cz_cli_parse, from
 * one flag table (options.c): a command takes the options its usage
 * names.  Messages begin with the program and the command
 * ("cuzk porep seal: --sector-size 3KiB: ..."); exit status 2 is a usage
 * error throughout. */
#ifndef CZ_CLI_H
#define CZ_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/filecoin/core.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"

/* Every option of the two tools' commands, one member each (options.c
 * has their flag table): an option means one thing in every command of
 * either tool that takes it.  Strings are the argument itself, read by the
 * command (cz_cli_u64, cz_cli_uint, cz_cli_hex32, ...); NULL when not
 * given. */
typedef struct {
    /* sectors and their ids */
    const char *sector_size, *registered_proof, *prover_id, *miner_id, *sector_id, *sector_number,
        *ticket, *seed, *porep_seed, *porep_id, *api_version, *data, *data_seed;
    /* files */
    const char *out, *dir, *c1, *vk, *proof, *params, *pce, *save_pce, *zkey, *wtns, *r1cs,
        *proof_out, *public_out, *proof_bin, *zkey_out, *public, *checked_keys;
    /* commitments, SnapDeals, PoSt */
    const char *comm_r, *comm_d, *comm_r_old, *comm_d_new, *comm_r_new, *new_data, *new_data_seed,
        *h, *synthetic, *kind, *sectors, *first_sector, *randomness;
    /* parameters, proving, the daemon */
    const char *circuit, *partition, *partitions, *threads, *reps, *rs_seed, *chain, *addr, *id,
        *priority, *count, *conc;
    /* benchmarks */
    const char *filter, *order, *budgets;
    unsigned log, from, to, samples, density, window, pipelined;
    uint64_t n, batch, distinct;
    double time;
    /* switches */
    int force, pce_only, reuse_pce, gpu, no_write, check_params, raw, csv, g2, skewed, check,
        compact, inverse, coset, no_verify, trusted_key, count_only, pinned, host_abc, uniform;
} cz_cli_opts;

/* What a flag stores at its offset of cz_cli_opts. */
typedef enum {
    CZ_CLI_STR,    /* --flag VALUE: the argument itself (const char *) */
    CZ_CLI_SWITCH, /* --flag: 1 (int) */
    CZ_CLI_UINT,   /* --flag N: an unsigned, as cz_cli_u64 reads it, below 2^32 */
    CZ_CLI_U64,    /* --flag N: a uint64_t, as cz_cli_u64 reads it */
    CZ_CLI_DOUBLE, /* --flag X: a finite double */
} cz_cli_kind;

typedef struct {
    const char *flag; /* "--sector-size", "-c" */
    cz_cli_kind kind;
    size_t off;
} cz_cli_flag;

/* The flag table (options.c) and the row of flag in it, or NULL. */
extern const cz_cli_flag cz_cli_flags[];
extern const size_t cz_cli_n_flags;
const cz_cli_flag *cz_cli_flag_find(const char *flag);

typedef struct cz_cli_cmd cz_cli_cmd;
/* A command, argv[0] the last word of its name: its exit status. */
typedef int cz_cli_run(const cz_cli_cmd *self, int argc, char **argv);
struct cz_cli_cmd {
    const char *name;    /* the words after the program's name: "porep seal" */
    const char *summary; /* one line of the tool's usage */
    /* --help's text after "usage: PROG NAME ": the synopsis, then what the
     * command does, each line ending in a newline.  The options it names
     * are those the command takes.  NULL: the command parses its own and
     * answers --help itself. */
    const char *usage;
    cz_cli_run *run;
    unsigned max_args; /* the positional arguments it takes (IDs, files) */
};

/* A command that went to another tool: running it says where. */
typedef struct {
    const char *old; /* "seal" */
    const char *now; /* "cuzk porep seal" */
} cz_cli_moved;

typedef struct {
    const char *prog;       /* "cuzk" */
    const char *about;      /* what the tool is for, under its usage line */
    const cz_cli_cmd *cmds; /* the command table, a row per command */
    size_t n_cmds;
    const cz_cli_moved *moved;
    size_t n_moved;
} cz_cli_tool;

/* Runs the command argv names (argv[0] the program): its exit status; 0
 * after --help (to stdout), 2 after a usage error (to stderr).  Sets the
 * program name that messages begin with. */
int cz_cli_main(const cz_cli_tool *t, int argc, char **argv);
/* The program name of cz_cli_main ("cuzk" before it runs). */
const char *cz_cli_prog(void);
/* "usage: PROG NAME " and c->usage on f. */
void cz_cli_usage(FILE *f, const cz_cli_cmd *c);

/* argv[1..argc-1] into o: the options c's usage names (the members of
 * those not given keep their values).  The positional arguments (up to
 * c->max_args, those not beginning with '-') are moved to argv[1..n] in
 * order.  n, or -1 after a message naming the option or value (and c's
 * usage for an option it does not take) on stderr. */
int cz_cli_parse(const cz_cli_cmd *c, int argc, char **argv, cz_cli_opts *o);

/* Option values; on a bad one -1 (NULL) after "PROG cmd: flag: ..." on
 * stderr.  u64: an unsigned decimal, 0x hex or 0 octal number; hex32: 64
 * hex digits, "0x" allowed, the bytes in order; shape: "2KiB" .. "64GiB"
 * or the size in bytes (the flag --sector-size). */
int cz_cli_u64(uint64_t *out, const char *s, const char *cmd, const char *flag);
/* s as an unsigned below 2^32 into *out; s NULL: *out as it was. */
int cz_cli_uint(unsigned *out, const char *s, const char *cmd, const char *flag);
int cz_cli_hex32(uint8_t out[32], const char *s, const char *cmd, const char *flag);
const cz_fc_shape *cz_cli_shape(const char *size, const char *cmd);
/* b in lower-case hex, NUL-terminated (the inverse of cz_cli_hex32). */
void cz_cli_hex_of(char out[65], const uint8_t b[32]);
/* The index of v among the n names, or -1 after "PROG cmd: flag v: not
 * a, b or c". */
int cz_cli_choice(const char *v, const char *const *names, int n, const char *cmd,
                  const char *flag);
/* 1 when v is set, else 0 after "PROG cmd: flag is required". */
int cz_cli_need(const char *cmd, const char *v, const char *flag);
/* The pool of --threads (opt: its value, NULL for the default, the cores
 * this process may run on, so `taskset -c 0,1` means two), the caller
 * among them (*pool NULL for one thread).  0, or -1 with a message. */
int cz_cli_pool(cz_pool **pool, unsigned *threads, const char *opt, const char *cmd);

/* The whole file at path (malloc'd; *len its bytes), or NULL after a
 * message naming cmd. */
uint8_t *cz_cli_read_file(const char *path, size_t *len, const char *cmd);
/* The bellperson verifying key file vk_path, prepared, and the proof file
 * proof_path (malloc'd, *len its bytes): 0, or -1 after a message naming
 * cmd (and --vk for the key), nothing kept. */
int cz_cli_read_vk_proof(cz_groth16_pvk *pvk, uint8_t **proof, size_t *len, const char *vk_path,
                         const char *proof_path, const char *cmd);
/* Frees what cz_cli_read_vk_proof gave after a verifier returned rc: 0 when
 * rc is CZ_OK, else 2 after the verifier's message err naming cmd. */
int cz_cli_verify_done(cz_groth16_pvk *pvk, uint8_t *proof, int rc, const char *err,
                       const char *cmd);

/* n bytes of b as the file at path: 0, or -1 after a message naming cmd. */
int cz_cli_write_file(const char *path, const void *b, size_t n, const char *cmd);
/* 1 when path exists (stat succeeds), else 0. */
int cz_cli_exists(const char *path);
/* Writes final through wr into final + ".tmp-<pid>", renamed to final when
 * wr returns CZ_OK, removed otherwise: 0, or -1 after a message naming cmd
 * and final.  wr: CZ_OK or an error code. */
typedef int cz_cli_write_fn(const char *path, const void *obj);
int cz_cli_write_renamed(const char *final, cz_cli_write_fn *wr, const void *obj, const char *cmd);

/* Wall-clock seconds (CLOCK_MONOTONIC), for the commands' timings. */
double cz_cli_now(void);
/* This process's peak resident memory so far, MiB. */
double cz_cli_peak_rss_mib(void);

#endif
