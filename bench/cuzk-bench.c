/* cuzk-bench: benchmarks of the cuzk library.
 *
 *   cuzk-bench micro [--filter S] [--time SEC] [--samples N] [--csv]
 *       field, curve and pairing operations, ns/op, one thread
 *   cuzk-bench msm --log N [--g2] [--threads T] [--skewed] [--density P]
 *       G1/G2 multi-scalar multiplication
 *   cuzk-bench ntt [--log N | --from A --to B] [--threads T] [--inverse] [--coset]
 *   cuzk-bench h --log N [--threads T]
 *       Fr NTT family and the Groth16 H step
 *   cuzk-bench parent-cache --sector-size S [--registered-proof NAME |
 *                           --porep-id N] [--threads T]
 *       the SDR parent cache's digest against parent_cache.json
 *   cuzk-bench seal | c1-synth | c1-verify | verify-seal ...
 *       Filecoin sectors (bench/sector.c)
 *   cuzk-bench params | porep-prove ...
 *       PoRep parameters and proofs (bench/porep.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double cz_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cz_bench_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cz_bench_header(const cz_bench_opts *o)
{
    if (o->csv)
        printf("name,ns_per_op,iters,target_ns\n");
    else
        printf("%-28s %14s %12s   %s\n", "operation", "ns/op", "iters", "target");
}

static void print_ns(double ns)
{
    if (ns >= 1e6)
        printf("%11.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        printf("%11.3f us", ns / 1e3);
    else
        printf("%11.1f ns", ns);
}

void cz_bench_run_case(const cz_bench_opts *o, const cz_bench_case *c)
{
    if (o->filter && !strstr(c->name, o->filter))
        return;
    /* Calibrate: double the count until one run takes >= min_time / 4. */
    uint64_t iters = 1;
    for (;;) {
        double t0 = cz_bench_thread_cpu();
        c->run(iters);
        double dt = cz_bench_thread_cpu() - t0;
        if (dt >= o->min_time / 4 || iters >= (1ULL << 40))
            break;
        iters *= (dt < o->min_time / 64) ? 8 : 2;
    }
    double s[32];
    int n = o->samples > 32 ? 32 : o->samples;
    for (int i = 0; i < n; i++) {
        double t0 = cz_bench_thread_cpu();
        c->run(iters);
        s[i] = (cz_bench_thread_cpu() - t0) * 1e9 / (double)iters;
    }
    qsort(s, (size_t)n, sizeof s[0], cmp_double);
    double med = s[n / 2];
    if (o->csv) {
        printf("%s,%.1f,%llu,%.1f\n", c->name, med, (unsigned long long)iters, c->target_ns);
    } else {
        printf("%-28s ", c->name);
        print_ns(med);
        printf(" %12llu", (unsigned long long)iters);
        if (c->target_ns > 0) {
            printf("   <= ");
            print_ns(c->target_ns);
            printf(" %s%s", med <= c->target_ns ? "ok  " : "MISS",
                   c->target_note ? c->target_note : "");
        }
        printf("\n");
    }
    fflush(stdout);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cuzk-bench <command> [options]\n"
            "commands:\n"
            "  micro   field, curve and pairing ns/op (one thread)\n"
            "  msm     multi-scalar multiplication (cuzk-bench msm --help)\n"
            "  ntt     Fr NTT family (cuzk-bench ntt --help)\n"
            "  h       Groth16 H step (cuzk-bench h --help)\n"
            "  prove   Groth16 proofs from a .zkey, a .r1cs or the built-in circuit\n"
            "  verify  check snarkjs proof.json/public.json against verification_key.json\n"
            "  setup   INSECURE .zkey from a circom .r1cs for benchmarks\n"
            "  engine  the proving engine in process on synthetic jobs\n"
            "  circuit-info  shape and R1CS digest of a gadget or circuit\n"
            "  gpu-partition  prove_start of a PoRep-shaped partition on the GPU\n"
            "  parent-cache   the SDR parent cache's digest (cuzk-bench parent-cache --help)\n"
            "  seal    seal a 2KiB/8MiB/512MiB sector in memory, write its C1 JSON\n"
            "  c1-synth  a synthetic C1 of any sector size (2KiB .. 64GiB)\n"
            "  c1-verify  read, validate and vanilla-verify a C1 JSON\n"
            "  verify-seal  verify a PoRep's partition proofs (exit 0 valid, 1 invalid)\n"
            "  porep-synth  PoRep partitions' witness and a/b/c synthesis times\n"
            "  params  INSECURE parameters (.params, .vk, .pce) of a Filecoin circuit\n"
            "  porep-prove  prove a C1 on the CPU (cuzk-bench porep-prove --help)\n"
            "  porep-c2  PoRep C2 of a C1 through cuzk-daemon, as Curio sends it\n"
            "  snap-encode  SnapDeals update of a sealed 2KiB/8MiB sector: vanilla proofs\n"
            "  verify-update  vanilla-verify SnapDeals partition proofs (exit 0 / 1)\n"
            "  post-vanilla  WindowPoSt / WinningPoSt vanilla proofs of sealed small or\n"
            "          synthetic sectors (cuzk-bench post-vanilla --help)\n"
            "  verify-post  vanilla-verify PoSt sector proofs, verify a PoSt SNARK proof\n"
            "  post-synth  the witness of a PoSt partition, timed (cuzk-bench post-synth --help)\n"
            "  single, batch, stress, status, metrics, preload, evict, cancel\n"
            "          client of cuzk-daemon (--addr ADDR; cuzk-bench batch --help)\n"
            "options of micro: --filter S  --time SEC  --samples N  --csv\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    if (!strcmp(argv[1], "micro"))
        return cz_bench_micro(argc - 1, argv + 1);
    if (!strcmp(argv[1], "msm"))
        return cz_bench_msm(argc - 1, argv + 1);
    if (!strcmp(argv[1], "ntt"))
        return cz_bench_ntt(argc - 1, argv + 1);
    if (!strcmp(argv[1], "h"))
        return cz_bench_h(argc - 1, argv + 1);
    if (!strcmp(argv[1], "gpu-partition"))
        return cz_bench_gpu_partition(argc - 1, argv + 1);
    if (!strcmp(argv[1], "parent-cache"))
        return cz_bench_parent_cache(argc - 1, argv + 1);
    if (!strcmp(argv[1], "circuit-info"))
        return cz_bench_circuit_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "prove"))
        return cz_bench_prove(argc - 1, argv + 1);
    if (!strcmp(argv[1], "verify"))
        return cz_bench_verify(argc - 1, argv + 1);
    if (!strcmp(argv[1], "setup"))
        return cz_bench_setup(argc - 1, argv + 1);
    static const char *const sector_cmds[] = {"seal", "c1-synth", "c1-verify", "verify-seal"};
    for (size_t i = 0; i < sizeof sector_cmds / sizeof sector_cmds[0]; i++)
        if (!strcmp(argv[1], sector_cmds[i]))
            return cz_bench_sector(argc - 1, argv + 1);
    if (!strcmp(argv[1], "params") || !strcmp(argv[1], "porep-prove"))
        return cz_bench_porep(argc - 1, argv + 1);
    if (!strcmp(argv[1], "porep-synth"))
        return cz_bench_porep_synth(argc - 1, argv + 1);
    if (!strcmp(argv[1], "snap-encode") || !strcmp(argv[1], "verify-update"))
        return cz_bench_update(argc - 1, argv + 1);
    if (!strcmp(argv[1], "post-vanilla") || !strcmp(argv[1], "verify-post") ||
        !strcmp(argv[1], "post-synth"))
        return cz_bench_post(argc - 1, argv + 1);
    if (!strcmp(argv[1], "engine"))
        return cz_bench_engine(argc - 1, argv + 1);
#ifdef CZ_HAVE_DAEMON
    static const char *const client_cmds[] = {"single",  "batch",   "stress", "status",
                                              "metrics", "preload", "evict",  "cancel"};
    for (size_t i = 0; i < sizeof client_cmds / sizeof client_cmds[0]; i++)
        if (!strcmp(argv[1], client_cmds[i]))
            return cz_bench_client(argc - 1, argv + 1);
    if (!strcmp(argv[1], "porep-c2"))
        return cz_bench_porep_c2(argc - 1, argv + 1);
#endif
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage();
        return 0;
    }
    fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
    usage();
    return 2;
}
