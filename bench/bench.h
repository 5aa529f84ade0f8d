/* cuzk-bench: the benchmarks of the cuzk library, one cz_cli_cmd each,
 * listed by cz_bench's table in cuzk-bench.c.  The operator's commands are
 * cuzk's (src/tool); the benchmarks read what they write (tool.h). */
#ifndef CZ_BENCH_H
#define CZ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cuzk/ec.h"
#include "tool/tool.h"

/* The benchmarks' command table (cuzk-bench.c). */
extern const cz_cli_tool cz_bench;

extern const cz_cli_cmd cz_bench_micro;         /* micro.c */
extern const cz_cli_cmd cz_bench_msm;           /* msm.c */
extern const cz_cli_cmd cz_bench_ntt;           /* ntt.c */
extern const cz_cli_cmd cz_bench_h;             /* ntt.c */
extern const cz_cli_cmd cz_bench_prove;         /* prove.c */
extern const cz_cli_cmd cz_bench_verify;        /* prove.c */
extern const cz_cli_cmd cz_bench_setup;         /* prove.c */
extern const cz_cli_cmd cz_bench_circuit_info;  /* circuit_info.c */
extern const cz_cli_cmd cz_bench_gpu_partition; /* partition.c */
extern const cz_cli_cmd cz_bench_parent_cache;  /* parent_cache.c */
extern const cz_cli_cmd cz_bench_porep_synth;   /* porep_synth.c */
extern const cz_cli_cmd cz_bench_post_synth;    /* post_synth.c */
#ifdef CZ_HAVE_DAEMON
extern const cz_cli_cmd cz_bench_single; /* client.c */
extern const cz_cli_cmd cz_bench_batch;  /* client.c */
extern const cz_cli_cmd cz_bench_stress; /* client.c */
#endif
/* The engine in process (engine.c, which parses its own options and
 * answers --help itself). */
int cz_bench_engine(int argc, char **argv);

/* Bases s_i G with s_i = a + i s (i < n): one addition per point, then
 * batch conversions to affine (distinct random points, fast to make;
 * msm.c). */
void cz_bench_g1_progression(cz_g1_affine *out, size_t n, const cz_fr *a, const cz_fr *s);
void cz_bench_g2_progression(cz_g2_affine *out, size_t n, const cz_fr *a, const cz_fr *s);

/* engine.c's names for the shared helpers (it is reworked elsewhere at
 * present; rename its calls with that work). */
#define cz_bench_now       cz_cli_now
#define cz_bench_u64       cz_cli_u64
#define cz_bench_read_file cz_cli_read_file
#define cz_bench_snap      cz_tool_snap_dir
#define cz_bench_snap_load cz_tool_snap_dir_load
#define cz_bench_snap_free cz_tool_snap_dir_free
#define cz_bench_post_in   cz_tool_post_dir
#define cz_bench_post_load cz_tool_post_dir_load
#define cz_bench_post_free cz_tool_post_dir_free

#endif
