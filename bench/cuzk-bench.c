/* cuzk-bench's command table: the benchmarks of the cuzk library (each
 * command's file names it; `cuzk-bench CMD --help` its options).  The
 * operator's commands moved to cuzk (src/tool/cuzk.c); their old names
 * here say where (docs/cli.md). */
#include "bench.h"

/* engine.c parses its own options and answers --help itself */
static int engine(const cz_cli_cmd *self, int argc, char **argv)
{
    return cz_bench_engine(argc, argv);
}

static const cz_cli_cmd ENGINE = {
    .name = "engine",
    .summary = "the proving engine in process on synthetic, PoRep, SnapDeals or PoSt jobs",
    .run = engine,
};

static const cz_cli_cmd *const COMMANDS[] = {
    &cz_bench_micro,
    &cz_bench_msm,
    &cz_bench_ntt,
    &cz_bench_h,
    &cz_bench_gpu_partition,
    &cz_bench_prove,
    &cz_bench_verify,
    &cz_bench_setup,
    &ENGINE,
    &cz_bench_circuit_info,
    &cz_bench_parent_cache,
    &cz_bench_porep_synth,
    &cz_bench_post_synth,
#ifdef CZ_HAVE_DAEMON
    &cz_bench_single,
    &cz_bench_batch,
    &cz_bench_stress,
#endif
};

static const cz_cli_moved MOVED[] = {
    {"params", "cuzk params"},
    {"seal", "cuzk porep seal"},
    {"c1-synth", "cuzk porep c1-synth"},
    {"c1-verify", "cuzk porep c1-verify"},
    {"porep-prove", "cuzk porep prove"},
    {"verify-seal", "cuzk porep verify"},
    {"snap-encode", "cuzk snap encode"},
    {"verify-update", "cuzk snap verify"},
    {"post-vanilla", "cuzk post vanilla"},
    {"verify-post", "cuzk post verify"},
    {"status", "cuzk daemon status"},
    {"metrics", "cuzk daemon metrics"},
    {"preload", "cuzk daemon preload"},
    {"evict", "cuzk daemon evict"},
    {"cancel", "cuzk daemon cancel"},
    {"porep-c2", "cuzk daemon prove"},
};

const cz_cli_tool cz_bench = {
    .prog = "cuzk-bench",
    .about = "Benchmarks of the cuzk library: arithmetic, MSM, NTT, Groth16, the engine, the\n"
             "GPU partition, circuits and witnesses, and a load on cuzk-daemon.  The operator's\n"
             "commands are cuzk's.",
    .cmds = COMMANDS,
    .n_cmds = sizeof COMMANDS / sizeof COMMANDS[0],
    .moved = MOVED,
    .n_moved = sizeof MOVED / sizeof MOVED[0],
};
