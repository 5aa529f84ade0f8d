/* cuzk: the daemon's configuration file (TOML), compatible with the Rust
 * cuzk's cuzk.toml: the same tables, keys, defaults and meanings, so an
 * existing file loads unchanged.  docs/cuzk.example.toml documents every
 * key.
 *
 * Strict where cuzk was lax: an unknown table or key, a value of the wrong
 * type and a value out of range are errors (cuzk ignored unknown keys and
 * turned a malformed size into 50 GiB).  cuzk's deprecated keys
 * (memory.pinned_budget, memory.working_memory_budget, srs.preload,
 * synthesis.partition_workers) are type-checked, ignored, and reported
 * through the warning callback; so are its keys that have no effect in
 * this daemon (scheduler.max_batch_size, max_batch_wait_ms, sort_by_type;
 * pipeline.enabled, synthesis_lookahead, synthesis_concurrency,
 * slot_size), which are range-checked and then warned about when set.
 *
 * Sizes (memory.*) are strings such as "256GiB" (cz_parse_size, cuzk/units.h) or integers
 * (bytes); memory.eviction_min_idle is a string such as "5m"
 * (cz_parse_duration_ms) or an integer (seconds).
 *
 * Every error message reads "FILE:LINE: key KEY: what is wrong" (or
 * "FILE:LINE: what is wrong" for a syntax error before any key), KEY being
 * the full dotted name such as memory.total_budget. */
#ifndef CUZK_CONFIG_H
#define CUZK_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/units.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_CONFIG_MAX_CIRCUITS 16
#define CZ_CONFIG_MAX_GPUS     16

typedef struct {
    /* [daemon] */
    char listen[256];        /* "unix:///PATH" (PATH < 108 bytes) or "HOST:PORT";
                                default "unix:///run/curio/cuzk.sock" */
    char status_listen[256]; /* HTTP status endpoint "HOST:PORT"; "" (default): off */
    bool synthetic;          /* our key daemon.synthetic: serve the built-in synthetic
                                kind (a demo and benchmark feature); default false
                                (cuzk-daemon without --config turns it on) */
    /* [srs] */
    char param_cache[512]; /* folder of Filecoin's .params / .vk files under their
                              official names and the .pce beside them; default
                              "/data/zk/params" (a folder that is not there is warned
                              about at start; PoRep requests then name the file missing) */
    char checked_keys[512]; /* our key srs.checked_keys: the checked-keys store
                               (cuzk/checked_keys.h) of the [circuits] keys: one
                               found there by digest skips its subgroup checks at
                               start, one checked is added; "" (default): every key
                               checked at every start */
    /* [memory] */
    uint64_t total_budget;         /* bytes; 0: "auto" (default), MemTotal - safety_margin */
    uint64_t safety_margin;        /* bytes; default 5 GiB */
    uint64_t eviction_min_idle_ms; /* default 5 min */
    /* [gpus] */
    int gpus_devices[CZ_CONFIG_MAX_GPUS]; /* ordinals, distinct, 0..1023 */
    unsigned n_gpus;                      /* 0 (default): every GPU found */
    /* our key gpus.memory_budget: each device's device memory budget in
     * bytes, one value for every device or one per device (in
     * gpus.devices' order, else the ordinals' order); 0 ("auto", default):
     * the free memory at the device's first use less 512 MiB; the budget
     * decides each parameter set's device memory plan */
    uint64_t gpu_memory_budget[CZ_CONFIG_MAX_GPUS];
    unsigned n_gpu_memory_budget;
    unsigned gpu_threads;                 /* CPU threads for GPU-side work; 0 (default): all CPUs */
    unsigned gpu_workers_per_device;      /* 1..16, default 2 */
    /* [scheduler] */
    unsigned max_batch_size;        /* 1..64, default 1 (no effect: warned) */
    uint64_t max_batch_wait_ms;     /* 0..86400000, default 10000 (no effect: warned) */
    bool sort_by_type;              /* default true (no effect: warned) */
    unsigned max_queued_jobs;       /* our key: unfinished jobs accepted at once, 1..65536,
                                       default 256; beyond, RESOURCE_EXHAUSTED */
    unsigned max_queued_partitions; /* our key: their unfinished partitions, 1..2^20,
                                       default 4096 */
    /* [synthesis] */
    unsigned synthesis_threads; /* threads of the synthesis pool, 0..1024: a PoRep
                                   partition's challenges run on it, and the vanilla
                                   verification at submit; 0 (default): all CPUs */
    unsigned synthesis_workers; /* our key synthesis.workers, 0..1024; 0 (default):
                                   chosen by the engine, memory bounded by the budget */
    /* [pipeline] */
    bool pipeline_enabled;           /* default true (no effect: warned) */
    unsigned synthesis_lookahead;    /* 0..1024, default 1 (no effect: warned) */
    unsigned synthesis_concurrency;  /* 1..1024, default 1 (no effect: warned) */
    unsigned max_parallel_synthesis; /* 1..1024, default 18 (a 0 in the file means 18):
                                        at most this many partition syntheses at once */
    unsigned slot_size;              /* 0..1024, default 0 (no effect: warned) */
    unsigned max_gpu_queue_depth;    /* 0..1024, default 0: synthesized partitions
                                        waiting for the GPUs (0: the engine's 2) */
    bool self_verify;                /* our key pipeline.self_verify: verify every
                                        proof before returning it; default true
                                        (false: benchmarks only, warned) */
    /* [logging] */
    char log_level[16];  /* "trace" "debug" "info" (default) "warn" "error" */
    char log_format[16]; /* "text" (default) or "json" */
    bool timeline;       /* our key logging.timeline: TIMELINE lines; default false */

    /* Our table [circuits]: circuits for GROTH16_GENERIC jobs, one key per
     * circuit id (1..63 bytes of [A-Za-z0-9._-], not beginning with
     * "synthetic-", the built-in kind's) whose string value is a
     * snarkjs key "PATH.zkey" or bellperson files "PATH.params,PATH.pce"
     * (parameters and pre-compiled R1CS).  Loaded at start-up. */
    struct {
        char id[64];
        char params[512]; /* .zkey, or .params */
        char r1cs[512];   /* "" for a .zkey; else the .pce */
    } circuits[CZ_CONFIG_MAX_CIRCUITS];
    unsigned n_circuits;
} cz_daemon_config;

/* Receives one warning (a deprecated key, or one without effect here:
 * "FILE:LINE: key K has no effect here: why"), without a trailing newline:
 * "FILE:LINE: key K is deprecated: why". */
typedef void cz_config_warn_fn(void *ctx, const char *msg);

/* Sets every field to cuzk's default (listed above). */
void cz_config_defaults(cz_daemon_config *c);

/* Sets *c to the defaults, then applies the TOML text[0..len) (need not be
 * NUL-terminated); name is the file name used in messages.  warn may be
 * NULL (warnings dropped).  Returns CZ_OK; CZ_ERR_BAD_FORMAT (syntax, an
 * unknown table or key, a wrong type, a value out of range);
 * CZ_ERR_UNSUPPORTED (inline tables, arrays of tables, multi-line strings,
 * dates); CZ_ERR_TOO_BIG (text over 1 MiB); CZ_ERR_NOMEM; CZ_ERR_INVALID_ARG
 * (NULL c, or NULL text with len > 0).  On failure err holds the message and
 * *c the defaults (never a half-applied file). */
int cz_config_load_mem(cz_daemon_config *c, const char *text, size_t len, const char *name,
                       cz_config_warn_fn *warn, void *warn_ctx, char *err, size_t errlen);

/* cz_config_load_mem on the contents of path (named so in messages); a file
 * that cannot be read: CZ_ERR_IO ("PATH: strerror"). */
int cz_config_load_file(cz_daemon_config *c, const char *path, cz_config_warn_fn *warn,
                        void *warn_ctx, char *err, size_t errlen);

/* Checks a gRPC listen address as daemon.listen does ("unix:///PATH" with
 * PATH 1..107 bytes, or HOST:PORT): CZ_OK or CZ_ERR_BAD_FORMAT with err
 * saying why. */
int cz_config_check_listen(const char *addr, char *err, size_t errlen);

/* Sets one key from the command line (--listen, --log-level, ...): key is
 * "table.key" as in the file, value its text: taken as a string for
 * string-valued keys (listen, sizes, durations, levels), read as a TOML
 * value for the others ("4", "true", "[0, 1]").  The same checks as in a
 * file; messages read "command line: key KEY: what is wrong".  Returns
 * CZ_OK, CZ_ERR_BAD_FORMAT (also for an unknown or deprecated key),
 * CZ_ERR_UNSUPPORTED, CZ_ERR_NOMEM or CZ_ERR_INVALID_ARG; *c is changed
 * only on success. */
int cz_config_set(cz_daemon_config *c, const char *key, const char *value, char *err,
                  size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CONFIG_H */
