/* cuzk-bench: the benchmarks of the cuzk library (cz_bench's table in
 * cuzk-bench.c).  The operator's commands are
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

/* The commands, each in its file (gpu_partition: partition.c; prove,
 * verify, setup: prove.c; ntt, h: ntt.c; load, the daemon's single, batch and stress by
 * self->name: client.c). */
cz_cli_run cz_bench_micro, cz_bench_msm, cz_bench_ntt, cz_bench_h, cz_bench_gpu_partition,
    cz_bench_prove, cz_bench_verify, cz_bench_setup, cz_bench_circuit_info, cz_bench_parent_cache,
    cz_bench_porep_synth, cz_bench_post_synth;
#ifdef CZ_HAVE_DAEMON
cz_cli_run cz_bench_load;
#endif
/* the engine in process (engine.c: it parses its own options and answers
 * --help itself) */
int cz_bench_engine(int argc, char **argv);

/* The circuits circuit-info knows (circuit_info.c). */
#define CZ_BENCH_CIRCUITS                                                                          \
    "poseidon-A | sha256-compress | sha256-N | synthetic-L | insert-N | select-N | to-bits | "     \
    "to-bits-strict | uint64-input | encode | porep-2KiB | porep-8MiB | porep-512MiB | "           \
    "porep-32GiB | porep-64GiB | porep-test-base-2 | porep-test-base-8 | porep-test-sub-8-4 | "    \
    "porep-test-top-8-4-2 | snap-1KiB .. snap-32KiB | snap-8MiB | snap-16MiB | snap-512MiB | "     \
    "snap-32GiB | snap-64GiB | wpost-2KiB .. wpost-64GiB | winning-2KiB .. winning-64GiB"

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
