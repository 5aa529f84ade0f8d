/* cuzk's command table: what an operator runs beside cuzk-daemon and
 * Curio, a row per command (its name, summary, usage and function; the
 * options its usage names are those it takes).  The benchmarks are
 * cuzk-bench's (bench/cuzk-bench.c); the old spellings of these commands
 * there are listed in docs/cli.md, the reference written from this table. */
#include "tool/tool.h"

static const cz_cli_cmd COMMANDS[] = {
    {"params", "INSECURE parameters (.params, .vk, .pce) of a Filecoin circuit",
     "--sector-size SIZE --out DIR [--seed HEX32] [--threads T] [--force]\n"
     "        [--pce-only | --reuse-pce] [--gpu] [--no-write]\n"
     "        [--circuit porep|snap|wpost|winning]\n"
     "  INSECURE Groth16 parameters of the PoRep circuit (or with --circuit snap the\n"
     "  EmptySectorUpdate circuit, wpost a WindowPoSt partition's, winning the WinningPoSt\n"
     "  circuit) of SIZE (2KiB, 8MiB, 512MiB, 32GiB,\n"
     "  64GiB or bytes): DIR/<name>.pce (pre-compiled R1CS), DIR/<name>.params and\n"
     "  DIR/<name>.vk (bellperson), <name> Filecoin's parameter name for SIZE, their digests\n"
     "  listed in DIR/cuzk-generated.digests (the daemon's param cache accepts them, logged\n"
     "  as INSECURE).  The trapdoor comes from --seed (64 hex digits; default zero): anyone\n"
     "  who knows it can forge proofs.  --pce-only writes only the .pce (for Filecoin's own\n"
     "  parameters); --reuse-pce takes DIR/<name>.pce as the circuit instead of recording it\n"
     "  (the two steps of a large circuit apart: recording the 32GiB PoRep circuit takes\n"
     "  minutes).  --force replaces existing files.  T: threads (default: the usable cores).\n"
     "  --gpu: the fixed-base products on the CUDA device (the same bytes).  --no-write:\n"
     "  record and set up only, write nothing (timings; no --out needed).\n",
     cz_tool_params, 0},
    {"porep seal", "seal a 2KiB, 8MiB or 512MiB sector in memory, write its C1",
     "--sector-size 2KiB|8MiB|512MiB [--data FILE | --data-seed N]\n"
     "        (--prover-id HEX | --miner-id N) --sector-id N --ticket HEX --seed HEX\n"
     "        [--registered-proof NAME] --out c1.json\n"
     "  seals a sector in memory (FILE: raw data, zero-filled, Fr32-padded; or an unsealed\n"
     "  sector file; neither: a CC sector) and writes its C1; prints comm_d and comm_r\n",
     cz_tool_porep_seal, 0},
    {"porep c1-synth", "a synthetic C1 of any sector size (2KiB .. 64GiB)",
     "--sector-size SIZE [--seed N] [--registered-proof NAME]\n"
     "        [(--prover-id HEX | --miner-id N) --sector-id N --ticket HEX\n"
     "        --porep-seed HEX] --out c1.json\n"
     "  a synthetic C1 of any size (zero data; ids drawn from --seed unless given)\n",
     cz_tool_porep_c1_synth, 0},
    {"porep c1-verify", "read, validate and vanilla-verify a C1 (exit 0 valid, 1 invalid)",
     "--c1 FILE [--prover-id HEX --sector-id N] [--porep-id HEX]\n"
     "        [--api-version V] [--threads T]\n"
     "  reads, validates and vanilla-verifies a C1: exit 0 valid, 1 invalid, 2 bad input\n",
     cz_tool_porep_c1_verify, 0},
    {"porep verify", "verify a PoRep's partition proofs (exit 0 valid, 1 invalid)",
     "--sector-size SIZE --vk FILE --proof FILE --comm-r HEX\n"
     "        --comm-d HEX (--prover-id HEX | --miner-id N) --sector-id N --ticket HEX\n"
     "        --seed HEX [--porep-id HEX] [--api-version 1.0|1.1|1.2]\n"
     "        [--registered-proof NAME]\n"
     "  verify_seal of a PoRep's partition proofs: exit 0 valid, 1 invalid, 2 bad input\n",
     cz_tool_porep_verify, 0},
    {"porep prove", "prove a C1 on the CPU (partition proofs for porep verify)",
     "--c1 FILE --params FILE [--vk FILE] [--pce FILE]\n"
     "        --prover-id HEX --sector-id N --out proof.bin [--threads T] [--partition K]\n"
     "        [--check-params]\n"
     "  proves a C1 (raw or Curio's wrapper) after vanilla-verifying it with the ids;\n"
     "  --pce and --vk default to <params base>.pce / .vk beside the parameters when\n"
     "  present (else the circuit is recorded / the parameters' vk is used).  Writes the\n"
     "  partitions' 192-byte proofs in order (only partition K with --partition K).\n"
     "  The parameters' query points are read with the curve check only, as rust-fil-proofs\n"
     "  reads them; --check-params adds the subgroup checks (minutes at 2^22).\n"
     "  Exit 0 done, 1 refused (C1 invalid, constraint unsatisfied, proof invalid), 2 bad "
     "input.\n",
     cz_tool_porep_prove, 0},
    {"snap encode", "SnapDeals update of a sealed small sector, or a synthetic one: vanilla proofs",
     "--sector-size 2KiB|8MiB|512MiB --out DIR [--miner-id M]\n"
     "        [--sector-id N] [--ticket HEX] [--seed HEX] [--new-data FILE | --new-data-seed "
     "S]\n"
     "        [--h H]\n"
     "       cuzk snap encode --sector-size SIZE --synthetic SEED --out DIR [--h H]\n"
     "  DIR/update.json and DIR/vanilla-K.bin, partition K's vanilla proof (each verified)\n",
     cz_tool_snap_encode, 0},
    {"snap verify", "vanilla-verify SnapDeals partition proofs, verify a SNARK (exit 0 / 1)",
     "--sector-size S --comm-r-old HEX --comm-d-new HEX\n"
     "        --comm-r-new HEX [--h H] [FILE...] [--vk VK --proof PROOF]\n"
     "  FILE...: the vanilla partition proofs, in order; --proof: the SNARK proof\n"
     "  (partitions x 192 bytes) under the verifying key VK\n",
     cz_tool_snap_verify, 64},
    {"post vanilla", "WindowPoSt / WinningPoSt vanilla proofs of sealed small or synthetic sectors",
     "--kind window|winning --sector-size SIZE --out DIR\n"
     "        [--sectors N] [--first-sector ID] [--miner-id M] [--randomness HEX]\n"
     "        [--partition K] [--registered-proof ID] [--synthetic SEED]\n"
     "  FallbackPoSt vanilla sector proofs (DIR/vanilla-I.bin, bincode, as Curio sends them)\n"
     "  of N sealed CC sectors (2KiB, 8MiB, 512MiB) or, with --synthetic, synthetic ones of\n"
     "  any size; DIR/post.json: registered proof, randomness, partition, sector ids and\n"
     "  comm_r.  Defaults: N 1, ID 1, M 1000, K 0, the randomness from seed 1 (byte 31 & "
     "0x3f),\n"
     "  Window V1_1 / Winning V1 of the size.\n",
     cz_tool_post_vanilla, 0},
    {"post verify", "vanilla-verify PoSt sector proofs, verify a PoSt SNARK (exit 0 / 1)",
     "--dir DIR [--kind window|winning] [--vk VK --proof PROOF]\n"
     "  vanilla-verifies post vanilla's blobs in DIR and, with --proof, the 192-byte SNARK\n"
     "  proof under VK with the inputs computed from DIR/post.json (--kind: it must be\n"
     "  post.json's kind): exit 0 valid, 1 invalid\n",
     cz_tool_post_verify, 0},
#ifdef CZ_HAVE_DAEMON
    {"daemon status", "the daemon's totals, memory, queues, circuits and buffers (GetStatus)",
     "[--addr ADDR]\n"
     "  ADDR: host:port or unix:PATH (default 127.0.0.1:9820)\n",
     cz_tool_daemon_status, 0},
    {"daemon metrics", "the daemon's Prometheus text (GetMetrics)",
     "[--addr ADDR]\n"
     "  ADDR: host:port or unix:PATH (default 127.0.0.1:9820)\n",
     cz_tool_daemon_metrics, 0},
    {"daemon preload", "load a circuit's parameters before its first proof (PreloadSRS)",
     "[--addr ADDR] CIRCUIT_ID\n"
     "  CIRCUIT_ID: porep-2k .. porep-64g, snap-*, wpost-*, winning-*, a [circuits] id of the\n"
     "  configuration, or synthetic-LOG-PUBLIC\n",
     cz_tool_daemon_preload, 1},
    {"daemon evict", "drop a loaded circuit's parameters (EvictSRS)",
     "[--addr ADDR] CIRCUIT_ID\n"
     "  CIRCUIT_ID: as daemon status lists the loaded circuits\n",
     cz_tool_daemon_evict, 1},
    {"daemon cancel", "cancel a job by its handle or label (CancelProof)",
     "[--addr ADDR] JOB_ID\n"
     "  JOB_ID: the job's handle (job-N) or its label, the request id it was submitted with\n",
     cz_tool_daemon_cancel, 1},
    {"daemon prove", "PoRep C2 of a C1 through cuzk-daemon, as Curio sends it (s/proof)",
     "[--addr A] --c1 FILE --sector-number N --miner-id N\n"
     "        [--registered-proof N] [--raw] [--id ID] [--priority "
     "low|normal|high|critical]\n"
     "        [--out FILE] [-c COUNT] [-j CONC]\n"
     "  PoRep C2 of a C1 through cuzk-daemon (Prove), as Curio sends it: the C1 base64 in\n"
     "  {\"SectorNum\", \"Phase1Out\", \"SectorSize\"} (--raw: the C1 JSON as it is).  A "
     "defaults\n"
     "  to 127.0.0.1:9820.  COUNT proofs, CONC at once; the first one's partition proofs go\n"
     "  to --out.  Prints timings and s/proof.  Exit 0 all completed, 1 not, 2 usage.\n",
     cz_tool_daemon_prove, 0},
#endif
};

const cz_cli_tool cz_tool = {
    .prog = "cuzk",
    .about = "The operator's tool of cuzk-daemon: parameters, a proof family's inputs and checks\n"
             "(porep, snap, post), and the daemon's client.  Benchmarks: cuzk-bench.",
    .cmds = COMMANDS,
    .n_cmds = sizeof COMMANDS / sizeof COMMANDS[0],
};
