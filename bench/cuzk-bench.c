/* cuzk-bench's command table: the benchmarks of the cuzk library, a row
 * per command (its name, summary, usage and function; the options its
 * usage names are those it takes).  The operator's commands moved to cuzk
 * (src/tool/cuzk.c); their old names here say where (docs/cli.md). */
#include "bench.h"

/* engine.c parses its own options and answers --help itself */
static int engine(const cz_cli_cmd *self, int argc, char **argv)
{
    return cz_bench_engine(argc, argv);
}

/* the options of single, batch and stress */
#define JOB_OPTIONS                                                                                \
    "  job options: --log L (synthetic rows 2^L, default 14) --partitions P (default 2)\n"         \
    "  --public N (default 2) --priority low|normal|high|critical; ADDR host:port or\n"            \
    "  unix:PATH (default 127.0.0.1:9820)\n"

static const cz_cli_cmd COMMANDS[] = {
    {"micro", "field, curve and pairing ns/op (one thread)",
     "[--filter S] [--time SEC] [--samples N] [--csv]\n"
     "  field, curve and pairing ns/op on one thread (thread CPU time, the\n"
     "  median of N samples of SEC seconds each); S: run only names with S\n",
     cz_bench_micro, 0},
    {"msm", "G1/G2 multi-scalar multiplication, CPU or GPU",
     "--log N [--g2] [--threads T] [--skewed] [--density P]\n"
     "        [--window C] [--reps R] [--gpu [--check]]\n"
     "  the median of R MSMs of 2^N random points (G2 with --g2) on T threads, scalars\n"
     "  uniform or witness-like (--skewed), P% of them with a base (--density); --gpu on\n"
     "  the CUDA device, --check against the CPU once\n",
     cz_bench_msm, 0},
    {"ntt", "the Fr NTT family, CPU or GPU",
     "[--log N | --from A --to B] [--threads T] [--inverse] [--coset]\n"
     "        [--order NN|NR|RN|RR] [--reps K] [--gpu [--batch B] [--compact]]\n"
     "  the median and best of K transforms of 2^N (each of 2^A .. 2^B) on T threads, or on\n"
     "  the CUDA device (--batch B vectors per call, --compact the compact twiddle tables)\n",
     cz_bench_ntt, 0},
    {"h", "the Groth16 H step, CPU or GPU",
     "--log N [--threads T] [--n COUNT] [--reps K] [--gpu [--compact]]\n"
     "  the median and best of K H steps of domain 2^N (COUNT evaluations, default all) on\n"
     "  T threads, or on the CUDA device (with the uploads, pinned and pageable)\n",
     cz_bench_h, 0},
    {"gpu-partition", "prove_start of a PoRep-shaped partition on the GPU, step by step",
     "[--log L] [--reps R] [--distinct D] [--pinned]\n"
     "        [--pce FILE | --host-abc] [--uniform] [--budgets card,48GiB,16GiB,...]\n"
     "        [--pipelined N]\n"
     "  the GPU part of a 32GiB PoRep partition scaled by 2^(L - 27) (a real circuit with\n"
     "  --pce), the median of R runs and of each step; --budgets sweeps device budgets;\n"
     "  --pipelined N: N partitions back to back, each witness staged on the device\n"
     "  while the partition before proves (the engine's way), and N without staging\n",
     cz_bench_gpu_partition, 0},
    {"prove", "Groth16 proofs from a .zkey, a .r1cs or the built-in circuit, timed",
     "--zkey F --wtns F [--proof-out F] [--public-out F]\n"
     "       cuzk-bench prove --r1cs F --wtns F     (INSECURE setup from --seed)\n"
     "       cuzk-bench prove --chain LOG           (built-in circuit of 2^LOG rows)\n"
     "   options: [--threads T] [--reps K] [--seed N] [--no-verify] [--trusted-key]\n"
     "         [--checked-keys FILE|none] [--rs-seed N] [--proof-bin F] [--gpu]\n"
     "  One Groth16 proof, verified (unless --no-verify), written as snarkjs's proof.json\n"
     "  and public.json.  --reps K: K timed proofs after the first, the median of each\n"
     "  phase printed.  T: threads (default: the cores this process may run on).\n"
     "  --gpu: H and every MSM on the CUDA device (bit-identical proofs).\n"
     "  --rs-seed N: r and s from seed N: the same proof every run (INSECURE: it\n"
     "  reveals the witness; for comparing builds and back ends).  --proof-bin F:\n"
     "  the proof's 192 bytes (bellperson's encoding), for any circuit.\n"
     "  --trusted-key: skip the subgroup checks of the .zkey's points (snarkjs never\n"
     "  checks them; they are batched and fast, so the default keeps them).\n"
     "  --checked-keys: keys whose checks passed, by digest (default $CUZK_CHECKED_KEYS,\n"
     "  else $XDG_CACHE_HOME or ~/.cache: cuzk/checked-keys): a key found there is not\n"
     "  checked again, one checked is added; none: check every time.\n",
     cz_bench_prove, 0},
    {"verify", "check snarkjs proof.json/public.json against verification_key.json",
     "--vk verification_key.json --proof proof.json --public public.json\n"
     "  exit 0 for a valid proof (prints OK), 1 for an invalid one, 2 on bad input\n",
     cz_bench_verify, 0},
    {"setup", "INSECURE .zkey from a circom .r1cs for benchmarks",
     "--r1cs F --zkey-out F [--seed N] [--threads T] [--gpu]\n"
     "  an INSECURE .zkey (trapdoor from the seed) that snarkjs can prove with: for\n"
     "  tests and benchmarks; --gpu: the fixed-base products on the CUDA device\n",
     cz_bench_setup, 0},
    {"engine", "the proving engine in process on synthetic, PoRep, SnapDeals or PoSt jobs", NULL,
     engine, 0},
    {"circuit-info", "shape and R1CS digest of a gadget or circuit",
     "[--count] NAME\n"
     "  records NAME (or with --count counts it, in memory that grows with the variables\n"
     "  only) and prints its shape and the digest of its R1CS.  NAME: " CZ_BENCH_CIRCUITS "\n",
     cz_bench_circuit_info, 1},
    {"parent-cache", "the SDR parent cache's digest against parent_cache.json",
     "--sector-size 2KiB|8MiB|512MiB|32GiB|64GiB\n"
     "        [--registered-proof NAME | --porep-id N] [--threads N]\n"
     "  the SHA-256 of the sector's SDR parent cache, made on N threads, against\n"
     "  rust-fil-proofs' parent_cache.json: exit 1 on a mismatch\n",
     cz_bench_parent_cache, 0},
    {"porep-synth", "PoRep partitions' witness and a/b/c synthesis times",
     "--sector-size SIZE [--c1 FILE] [--pce FILE]\n"
     "        [--save-pce FILE] [--partitions N] [--threads T]\n"
     "  per partition of the C1 (FILE, or a synthetic one of SIZE) the witness and a, b, c\n"
     "  on T threads, the R1CS loaded from --pce or recorded (and saved with --save-pce)\n",
     cz_bench_porep_synth, 0},
    {"post-synth", "the witness of a PoSt partition, timed",
     "--dir DIR [--threads T] [--reps R]\n"
     "  times the engine's admission checks of `cuzk post vanilla`'s partition in DIR (one\n"
     "  thread) and its witness (the sectors in parallel on T threads, default all cores) R\n"
     "  times (default 3): each run, the median, the median per circuit sector and thread\n",
     cz_bench_post_synth, 0},
#ifdef CZ_HAVE_DAEMON
    {"single", "one synthetic proof through cuzk-daemon",
     "[--addr ADDR] [job options]\n" JOB_OPTIONS, cz_bench_load, 0},
    {"batch", "synthetic proofs through cuzk-daemon: s/proof, latency, the daemon's peak memory",
     "[--addr ADDR] [-c COUNT] [-j CONC] [job options]\n"
     "  COUNT proofs (default 8), CONC Prove calls in flight (default 2), after a "
     "PreloadSRS\n" JOB_OPTIONS,
     cz_bench_load, 0},
    {"stress", "mixed synthetic jobs, priorities and cancellations through cuzk-daemon",
     "[--addr ADDR] [-c COUNT] [-j CONC] [--log MAX]\n"
     "  COUNT jobs of sizes 2^10 .. 2^MAX and mixed priorities, one in eight "
     "cancelled\n" JOB_OPTIONS,
     cz_bench_load, 0},
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
#ifdef CZ_HAVE_DAEMON
    {"status", "cuzk daemon status"},
    {"metrics", "cuzk daemon metrics"},
    {"preload", "cuzk daemon preload"},
    {"evict", "cuzk daemon evict"},
    {"cancel", "cuzk daemon cancel"},
    {"porep-c2", "cuzk daemon prove"},
#endif
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
