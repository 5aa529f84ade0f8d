/* cuzk's command table: what an operator runs beside cuzk-daemon and
 * Curio.  The benchmarks are cuzk-bench's (bench/cuzk-bench.c); the old
 * spellings of these commands there are listed in docs/cli.md. */
#include "tool/tool.h"

static const cz_cli_cmd *const COMMANDS[] = {
    &cz_tool_params,          &cz_tool_porep_seal,     &cz_tool_porep_c1_synth,
    &cz_tool_porep_c1_verify, &cz_tool_porep_prove,    &cz_tool_porep_verify,
    &cz_tool_snap_encode,     &cz_tool_snap_verify,    &cz_tool_post_vanilla,
    &cz_tool_post_verify,
#ifdef CZ_HAVE_DAEMON
    &cz_tool_daemon_status,   &cz_tool_daemon_metrics, &cz_tool_daemon_preload,
    &cz_tool_daemon_evict,    &cz_tool_daemon_cancel,  &cz_tool_daemon_prove,
#endif
};

const cz_cli_tool cz_tool = {
    .prog = "cuzk",
    .about = "The operator's tool of cuzk-daemon: parameters, a proof family's inputs and checks\n"
             "(porep, snap, post), and the daemon's client.  Benchmarks: cuzk-bench.",
    .cmds = COMMANDS,
    .n_cmds = sizeof COMMANDS / sizeof COMMANDS[0],
};
