/* The flag table of cuzk and cuzk-bench: every option either tool takes,
 * its kind and its member of cz_cli_opts (cli.h). */
#include <string.h>

#include "cli/cli.h"

#define F(kind, flag, m)                                                                           \
    {                                                                                              \
        flag, kind, offsetof(cz_cli_opts, m)                                                       \
    }
#define S(flag, m) F(CZ_CLI_STR, flag, m)
#define B(flag, m) F(CZ_CLI_SWITCH, flag, m)
#define U(flag, m) F(CZ_CLI_UINT, flag, m)
#define L(flag, m) F(CZ_CLI_U64, flag, m)
#define D(flag, m) F(CZ_CLI_DOUBLE, flag, m)

const cz_cli_flag cz_cli_flags[] = {
    S("--sector-size", sector_size),
    S("--registered-proof", registered_proof),
    S("--prover-id", prover_id),
    S("--miner-id", miner_id),
    S("--sector-id", sector_id),
    S("--sector-number", sector_number),
    S("--ticket", ticket),
    S("--seed", seed),
    S("--porep-seed", porep_seed),
    S("--porep-id", porep_id),
    S("--api-version", api_version),
    S("--data", data),
    S("--data-seed", data_seed),
    S("--out", out),
    S("--dir", dir),
    S("--c1", c1),
    S("--vk", vk),
    S("--proof", proof),
    S("--params", params),
    S("--pce", pce),
    S("--save-pce", save_pce),
    S("--zkey", zkey),
    S("--wtns", wtns),
    S("--r1cs", r1cs),
    S("--proof-out", proof_out),
    S("--public-out", public_out),
    S("--proof-bin", proof_bin),
    S("--zkey-out", zkey_out),
    S("--public", public),
    S("--checked-keys", checked_keys),
    S("--comm-r", comm_r),
    S("--comm-d", comm_d),
    S("--comm-r-old", comm_r_old),
    S("--comm-d-new", comm_d_new),
    S("--comm-r-new", comm_r_new),
    S("--new-data", new_data),
    S("--new-data-seed", new_data_seed),
    S("--h", h),
    S("--synthetic", synthetic),
    S("--kind", kind),
    S("--sectors", sectors),
    S("--first-sector", first_sector),
    S("--randomness", randomness),
    S("--circuit", circuit),
    S("--partition", partition),
    S("--partitions", partitions),
    S("--threads", threads),
    S("--reps", reps),
    S("--rs-seed", rs_seed),
    S("--chain", chain),
    S("--addr", addr),
    S("--id", id),
    S("--priority", priority),
    S("-c", count),
    S("-j", conc),
    S("--filter", filter),
    S("--order", order),
    S("--budgets", budgets),
    U("--log", log),
    U("--from", from),
    U("--to", to),
    U("--samples", samples),
    U("--density", density),
    U("--window", window),
    U("--pipelined", pipelined),
    L("--n", n),
    L("--batch", batch),
    L("--distinct", distinct),
    D("--time", time),
    B("--force", force),
    B("--pce-only", pce_only),
    B("--reuse-pce", reuse_pce),
    B("--gpu", gpu),
    B("--no-write", no_write),
    B("--check-params", check_params),
    B("--raw", raw),
    B("--csv", csv),
    B("--g2", g2),
    B("--skewed", skewed),
    B("--check", check),
    B("--compact", compact),
    B("--inverse", inverse),
    B("--coset", coset),
    B("--no-verify", no_verify),
    B("--trusted-key", trusted_key),
    B("--count", count_only),
    B("--pinned", pinned),
    B("--host-abc", host_abc),
    B("--uniform", uniform),
};

const size_t cz_cli_n_flags = sizeof cz_cli_flags / sizeof cz_cli_flags[0];

const cz_cli_flag *cz_cli_flag_find(const char *flag)
{
    for (size_t i = 0; i < cz_cli_n_flags; i++)
        if (!strcmp(cz_cli_flags[i].flag, flag))
            return &cz_cli_flags[i];
    return NULL;
}
