/* cuzk-bench params, porep-prove: PoRep parameters and proofs on the CPU.
 *
 *   cuzk-bench params --sector-size SIZE --out DIR [--seed HEX32]
 *       [--threads T] [--force] [--gpu] [--no-write] [--pce-only | --reuse-pce]
 *     records the blank circuit of SIZE (cz_fc_porep_synthesize, c1 NULL),
 *     writes DIR/<base>.pce (cz_pce_save), runs the INSECURE seeded setup
 *     (cz_groth16_setup_with, bellperson layout; the trapdoor comes from
 *     the seed, default 32 zero bytes) and writes DIR/<base>.params and
 *     DIR/<base>.vk, <base> being Filecoin's name of the sector size's
 *     parameters (cz_fc_porep_params_name).  Each file is written under a
 *     temporary name and renamed; an existing file is an error unless
 *     --force (then it is replaced, and said so).  --gpu runs the setup's
 *     fixed-base products on the CUDA device (the same bytes); --no-write
 *     records and sets up without writing anything (timings; --out is then
 *     not needed); --pce-only stops after the .pce, --reuse-pce loads
 *     DIR/<base>.pce (cz_pce_load) instead of recording, so a circuit whose
 *     recording takes minutes is made in two steps with the same bytes.
 *     Every phase's time is printed: record, pce, the
 *     setup's tables, Lagrange values, columns, scalars and each query's
 *     products, write.
 *   cuzk-bench porep-prove --c1 FILE --params FILE [--vk FILE] [--pce FILE]
 *       --prover-id HEX --sector-id N --out proof.bin [--threads T]
 *       [--partition K] [--check-params]
 *     reads the C1 (raw or Curio's wrapper), vanilla-verifies it with the
 *     sector's ids, loads the parameters and the pre-compiled R1CS
 *     (--pce, else <params base>.pce beside the parameters, else the blank
 *     circuit recorded), checks their counts against the circuit's, then
 *     per partition (or only K): the witness (cz_fc_porep_witness), its
 *     check against the R1CS (an unsatisfied constraint is named by a
 *     recording with namespaces), the proof, and its verification under
 *     the vk (--vk, else <params base>.vk beside the parameters, else the
 *     parameters' own) with the partition's public inputs; then the
 *     partitions' 192-byte proofs in order to --out (verify-seal's input).
 *     The parameters' query points get the curve check but not the
 *     subgroup check unless --check-params: rust-fil-proofs reads its
 *     parameters unchecked too (parameter_cache.rs read_cached_params_inner,
 *     build_mapped_parameters(.., false)); every proof is verified anyway.
 *
 * T defaults to the cores the process may run on.  Exit status: 0 done; 1 refused (a C1 the
 * vanilla verifier rejects, an unsatisfied constraint, a proof that does
 * not verify; nothing written); 2 bad input (options, files, parameters of
 * another circuit; --gpu without a CUDA device or build). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/blake2b.h"
#include "cuzk/cs.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"
#include "cuzk/post.h"

typedef struct {
    const char *size, *out, *seed, *threads, *c1, *params, *vk, *pce, *prover_id, *sector_id;
    const char *partition, *circuit;
    int force, check_params, pce_only, reuse_pce, gpu, no_write;
} opts;

static const char USAGE_PARAMS[] =
    "usage: cuzk-bench params --sector-size SIZE --out DIR [--seed HEX32] [--threads T] [--force]\n"
    "           [--pce-only | --reuse-pce] [--gpu] [--no-write]\n"
    "           [--circuit porep|snap|wpost|winning]\n"
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
    "  record and set up only, write nothing (timings; no --out needed).\n";

static const char USAGE_PROVE[] =
    "usage: cuzk-bench porep-prove --c1 FILE --params FILE [--vk FILE] [--pce FILE]\n"
    "           --prover-id HEX --sector-id N --out proof.bin [--threads T] [--partition K]\n"
    "           [--check-params]\n"
    "  proves a C1 (raw or Curio's wrapper) after vanilla-verifying it with the ids;\n"
    "  --pce and --vk default to <params base>.pce / .vk beside the parameters when\n"
    "  present (else the circuit is recorded / the parameters' vk is used).  Writes the\n"
    "  partitions' 192-byte proofs in order (only partition K with --partition K).\n"
    "  The parameters' query points are read with the curve check only, as rust-fil-proofs\n"
    "  reads them; --check-params adds the subgroup checks (minutes at 2^22).\n"
    "  Exit 0 done, 1 refused (C1 invalid, constraint unsatisfied, proof invalid), 2 bad input.\n";

#define P 1 /* params */
#define V 2 /* porep-prove */

static int parse(int argc, char **argv, opts *o, int cmd, const char *usage)
{
    memset(o, 0, sizeof *o);
    static const cz_bench_flag F[] = {
        {"--sector-size", offsetof(opts, size), P},
        {"--circuit", offsetof(opts, circuit), P},
        {"--seed", offsetof(opts, seed), P},
        {"--out", offsetof(opts, out), P | V},
        {"--threads", offsetof(opts, threads), P | V},
        {"--c1", offsetof(opts, c1), V},
        {"--params", offsetof(opts, params), V},
        {"--vk", offsetof(opts, vk), V},
        {"--pce", offsetof(opts, pce), V},
        {"--prover-id", offsetof(opts, prover_id), V},
        {"--sector-id", offsetof(opts, sector_id), V},
        {"--partition", offsetof(opts, partition), V},
    };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 1;
        }
        if (cmd == P && !strcmp(argv[i], "--force")) {
            o->force = 1;
            continue;
        }
        if (cmd == P && !strcmp(argv[i], "--pce-only")) {
            o->pce_only = 1;
            continue;
        }
        if (cmd == P && !strcmp(argv[i], "--reuse-pce")) {
            o->reuse_pce = 1;
            continue;
        }
        if (cmd == P && !strcmp(argv[i], "--gpu")) {
            o->gpu = 1;
            continue;
        }
        if (cmd == P && !strcmp(argv[i], "--no-write")) {
            o->no_write = 1;
            continue;
        }
        if (cmd == V && !strcmp(argv[i], "--check-params")) {
            o->check_params = 1;
            continue;
        }
        if (cz_bench_take_flag(argc, argv, &i, F, sizeof F / sizeof F[0], (unsigned)cmd, o, usage))
            return -1;
    }
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void print_size(const char *what, const char *path)
{
    long long n = file_size(path);
    printf("%-6s %s: %lld bytes (%.1f MiB)\n", what, path, n, (double)n / 1048576.0);
}

/* Writes final through tmp (final + ".tmp-<pid>"), renamed when write
 * succeeds; the temporary is removed otherwise. */
typedef int write_fn(const char *path, const void *obj);

static int write_renamed(const char *final, write_fn *wr, const void *obj, const char *cmd)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", final, (long)getpid());
    int rc = wr(tmp, obj);
    if (rc == CZ_OK && rename(tmp, final) != 0)
        rc = CZ_ERR_IO;
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: cannot write %s: %s (%s)\n", cmd, final, cz_strerror(rc),
                strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int wr_pce(const char *path, const void *r) { return cz_pce_save(r, path); }
/* The parameters or the vk written through a stream that also hashes them
 * (BLAKE2b-512), so the generated digest list needs no second read of a
 * 45 GB file. */
typedef struct {
    FILE *f;
    cz_blake2b_ctx h;
} hashing;

static ssize_t hashing_write(void *ctx, const char *buf, size_t n)
{
    hashing *hs = ctx;
    cz_blake2b_update(&hs->h, buf, n);
    return fwrite(buf, 1, n, hs->f) == n ? (ssize_t)n : -1;
}

typedef struct {
    const void *obj;
    bool vk;
    uint8_t b2[64];
} hashed;

static int wr_hashed(const char *path, const void *arg)
{
    hashed *o = (hashed *)arg;
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return CZ_ERR_IO;
    hashing hs = {.f = f};
    cz_blake2b_init(&hs.h, 64, NULL, 0);
    cookie_io_functions_t io = {.write = hashing_write};
    FILE *c = fopencookie(&hs, "w", io);
    int rc = c == NULL ? CZ_ERR_IO
             : o->vk   ? cz_groth16_vk_write(c, o->obj)
                       : cz_groth16_params_write(c, o->obj);
    if (c && fclose(c) != 0 && rc == CZ_OK) /* flushes into f */
        rc = CZ_ERR_IO;
    if (fclose(f) != 0 && rc == CZ_OK)
        rc = CZ_ERR_IO;
    if (rc == CZ_OK)
        cz_blake2b_final(&hs.h, o->b2);
    return rc;
}

/* Partition k of c1 (NULL: the blank circuit of d) recorded with cz_cs_new's
 * flags; err says what failed. */
static int record(cz_r1cs **r, const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k,
                  unsigned flags, char *err, size_t errlen)
{
    cz_cs *cs = NULL;
    *r = NULL;
    err[0] = 0;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, flags);
    if (rc == CZ_OK)
        rc = cz_fc_porep_synthesize(cs, d, c1, k, err, errlen);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs, r);
    if (rc != CZ_OK && err[0] == 0)
        cz_msgf(err, errlen, "recording the circuit: %s", cz_strerror(rc));
    cz_cs_free(cs);
    return rc;
}

/* The blank EmptySectorUpdate circuit of u, recorded. */
static int record_snap(cz_r1cs **r, const cz_fc_update_shape *u, char *err, size_t errlen)
{
    cz_cs *cs = NULL;
    *r = NULL;
    err[0] = 0;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc == CZ_OK)
        rc = cz_fc_update_synthesize(cs, u, NULL, NULL, err, errlen);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs, r);
    if (rc != CZ_OK && err[0] == 0)
        cz_msgf(err, errlen, "recording the update circuit: %s", cz_strerror(rc));
    cz_cs_free(cs);
    return rc;
}

/* The blank FallbackPoSt circuit of s, recorded. */
static int record_post(cz_r1cs **r, const cz_post_shape *s, char *err, size_t errlen)
{
    cz_cs *cs = NULL;
    *r = NULL;
    err[0] = 0;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc == CZ_OK)
        rc = cz_post_synthesize(cs, s, NULL, err, errlen);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs, r);
    if (rc != CZ_OK && err[0] == 0)
        cz_msgf(err, errlen, "recording the PoSt circuit: %s", cz_strerror(rc));
    cz_cs_free(cs);
    return rc;
}

/* -------------------------------------------------------------- params --- */

/* One line per query: points, seconds, rate. */
static void print_products(const char *name, size_t n, double sec)
{
    printf("  %-5s %11zu points %8.2f s", name, n, sec);
    if (sec > 0 && n >= 1000)
        printf("  (%.3g M points/s)", (double)n / sec / 1e6);
    printf("\n");
}

static int cmd_params(int argc, char **argv)
{
    const char *c = "params";
    opts o;
    int prc = parse(argc, argv, &o, P, USAGE_PARAMS);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    if (!cz_bench_need(c, o.size, "--sector-size") ||
        ((!o.no_write || o.reuse_pce) && !cz_bench_need(c, o.out, "--out")))
        return 2;
    if (o.reuse_pce && o.pce_only) {
        fprintf(stderr,
                "cuzk-bench %s: --pce-only writes the .pce that --reuse-pce reads: one "
                "or the other\n",
                c);
        return 2;
    }
    const cz_fc_shape *s = cz_bench_shape(o.size, c);
    uint8_t seed[32] = {0};
    if (s == NULL || (o.seed && cz_bench_hex32(seed, o.seed, c, "--seed") != 0))
        return 2;
    if (o.gpu && !cz_cuda_available()) {
#ifdef CZ_HAVE_CUDA
        fprintf(stderr, "cuzk-bench %s: --gpu: no usable CUDA device\n", c);
#else
        fprintf(stderr, "cuzk-bench %s: --gpu: this build has no CUDA back end\n", c);
#endif
        return 2;
    }
    bool snap = o.circuit && !strcmp(o.circuit, "snap");
    bool window = o.circuit && !strcmp(o.circuit, "wpost");
    bool winning = o.circuit && !strcmp(o.circuit, "winning");
    cz_fc_update_shape u;
    cz_post_shape ps;
    if (o.circuit && !snap && !window && !winning && strcmp(o.circuit, "porep")) {
        fprintf(stderr, "cuzk-bench %s: --circuit %s: porep, snap, wpost or winning\n", c,
                o.circuit);
        return 2;
    }
    if (snap && cz_fc_update_shape_of(&u, (uint64_t)1 << s->log_nodes) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: no update circuit for %s\n", c, s->name);
        return 2;
    }
    if (window || winning)
        cz_post_shape_of(&ps, window ? CZ_POST_WINDOW : CZ_POST_WINNING, s);
    char base[CZ_FC_PARAMS_NAME], path[3][4200];
    static const char *const ext[3] = {".pce", ".params", ".vk"};
    if (snap)
        cz_fc_update_params_name(base, &u);
    else if (window || winning)
        cz_post_params_name(base, &ps);
    else
        cz_fc_porep_params_name(base, s);
    if (!o.no_write) {
        if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "cuzk-bench %s: cannot create %s: %s\n", c, o.out, strerror(errno));
            return 2;
        }
    }
    for (int i = 0; i < 3 && (!o.no_write || o.reuse_pce); i++)
        snprintf(path[i], sizeof path[i], "%s/%s%s", o.out, base, ext[i]);
    if (o.reuse_pce && !exists(path[0])) {
        fprintf(stderr, "cuzk-bench %s: --reuse-pce: no %s (make it with --pce-only)\n", c,
                path[0]);
        return 2;
    }
    if (!o.no_write) {
        for (int i = o.reuse_pce; i < (o.pce_only ? 1 : 3); i++) {
            if (exists(path[i])) {
                if (!o.force) {
                    fprintf(stderr, "cuzk-bench %s: %s exists (remove it or pass --force)\n", c,
                            path[i]);
                    return 2;
                }
                printf("replacing %s (--force)\n", path[i]);
            }
        }
    }
    cz_pool *pool;
    unsigned threads;
    if (cz_bench_pool(&pool, &threads, o.threads, c) != 0)
        return 2;
    char seed_hex[65];
    cz_bench_hex_of(seed_hex, seed);
    if (o.pce_only)
        printf("params %s: %s.pce only\n", s->name, base);
    else
        printf(
            "params %s: %s\n"
            "INSECURE: the toxic waste (tau, alpha, beta, gamma, delta) is derived from the seed\n"
            "  %s;\n"
            "  anyone who knows it can forge proofs.  For tests and benchmarks only: Filecoin's\n"
            "  real parameters are the ceremony's (data/parameters.json lists them).\n",
            s->name, base, seed_hex);
    fflush(stdout);

    int ret = 2;
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, s);
    cz_r1cs *r = NULL;
    cz_groth16_params p;
    memset(&p, 0, sizeof p);
    char err[512] = "";
    double t0 = cz_bench_now();
    int rrc = o.reuse_pce         ? cz_pce_load(&r, path[0], 0, err, sizeof err)
              : snap              ? record_snap(&r, &u, err, sizeof err)
              : window || winning ? record_post(&r, &ps, err, sizeof err)
                                  : record(&r, &d, NULL, 0, 0, err, sizeof err);
    if (rrc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s%s\n", c, o.reuse_pce ? "--reuse-pce: " : "", err);
        goto out;
    }
    size_t rows = cz_r1cs_num_constraints(r);
    unsigned lg = 1;
    while (((size_t)1 << lg) < rows)
        lg++;
    printf("%s: %.2f s; %zu constraints (%zu with the input rows, domain 2^%u), %zu inputs, "
           "%zu aux\n",
           o.reuse_pce ? "pce loaded" : "record", cz_bench_now() - t0,
           cz_r1cs_num_circuit_constraints(r), rows, lg, cz_r1cs_num_inputs(r), cz_r1cs_num_aux(r));
    fflush(stdout);
    if (!o.no_write && !o.reuse_pce) {
        t0 = cz_bench_now();
        if (write_renamed(path[0], wr_pce, r, c) != 0)
            goto out;
        printf("pce:   %.2f s\n", cz_bench_now() - t0);
        print_size("pce", path[0]);
        fflush(stdout);
    }
    t0 = cz_bench_now();
    if (o.pce_only) {
        ret = 0;
        goto out;
    }
    cz_groth16_setup_times tm;
    cz_groth16_setup_opts so = {
        .backend = o.gpu ? CZ_BACKEND_GPU : CZ_BACKEND_CPU, .pool = pool, .times = &tm};
    int rc = cz_groth16_setup_with(&p, r, seed, CZ_GROTH16_BELLPERSON, &so, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: setup: %s (%s)\n", c, err, cz_strerror(rc));
        goto out;
    }
    printf("setup: %.2f s (%u thread%s, fixed-base products on the %s)\n", cz_bench_now() - t0,
           threads, threads == 1 ? "" : "s", o.gpu ? "GPU" : "CPU");
    printf("  tables %.2f s, lagrange %.2f s, columns %.2f s, scalars %.2f s\n", tm.tables,
           tm.lagrange, tm.columns, tm.scalars);
    print_products("ic", p.vk.n_ic, tm.ic);
    print_products("l", p.n_l, tm.l);
    print_products("a", p.n_a, tm.a);
    print_products("b_g1", p.n_b_g1, tm.b_g1);
    print_products("b_g2", p.n_b_g2, tm.b_g2);
    print_products("h", p.n_h, tm.h);
    print_products("vk", 6, tm.vk);
    fflush(stdout);
    if (!o.no_write) {
        t0 = cz_bench_now();
        hashed hp = {.obj = &p}, hv = {.obj = &p.vk, .vk = true};
        if (write_renamed(path[1], wr_hashed, &hp, c) != 0 ||
            write_renamed(path[2], wr_hashed, &hv, c))
            goto out;
        printf("write: %.2f s\n", cz_bench_now() - t0);
        print_size("params", path[1]);
        print_size("vk", path[2]);
        /* the digests (hashed while writing), so that a param cache accepts
         * the files (as INSECURE) */
        for (int i = 1; i < 3; i++) {
            char dh[CZ_FC_DIGEST_HEX];
            const char *name = strrchr(path[i], '/') + 1;
            cz_fc_params_digest_hex(dh, i == 1 ? hp.b2 : hv.b2);
            if (cz_fc_params_record_generated(o.out, name, dh, err, sizeof err) != CZ_OK) {
                fprintf(stderr, "cuzk-bench %s: %s\n", c, err);
                goto out;
            }
            printf("digest %s %s (listed in %s)\n", dh, name, CZ_FC_GENERATED_DIGESTS);
        }
    }
    ret = 0;
out:
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
    cz_pool_free(pool);
    return ret;
}

/* --------------------------------------------------------- porep-prove --- */

/* Names the constraint partition k's witness w fails (row of r): a
 * recording of the partition with namespaces, checked against w. */
static void explain(const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k, const cz_fr *w,
                    size_t n, size_t row, cz_pool *pool)
{
    cz_r1cs *nr;
    char msg[512] = "";
    if (record(&nr, d, c1, k, CZ_CS_NAMESPACES, msg, sizeof msg) != CZ_OK) {
        fprintf(stderr,
                "cuzk-bench porep-prove: partition %u: constraint %zu is not satisfied "
                "(recording its namespaces failed: %s)\n",
                k, row, msg);
        return;
    }
    int rc = cz_r1cs_check(nr, w, n, pool, NULL, msg, sizeof msg);
    if (rc == CZ_ERR_UNSATISFIED)
        fprintf(stderr, "cuzk-bench porep-prove: partition %u: %s\n", k, msg);
    else
        fprintf(stderr,
                "cuzk-bench porep-prove: partition %u: constraint %zu of the pre-compiled "
                "R1CS is not satisfied, but the circuit is (%s): the R1CS file is not "
                "this circuit's\n",
                k, row, cz_strerror(rc));
    cz_r1cs_free(nr);
}

/* path less its ".params" ending, then ext: "" when path has no such
 * ending. */
static void beside(char *out, size_t n, const char *path, const char *ext)
{
    size_t len = strlen(path);
    out[0] = 0;
    if (len > 7 && !strcmp(path + len - 7, ".params"))
        snprintf(out, n, "%.*s%s", (int)(len - 7), path, ext);
}

typedef struct {
    const cz_fc_c1 *c1;
    cz_fc_porep_dims d;
    const cz_r1cs *r;
    const cz_groth16_params *p;
    const cz_groth16_pvk *pvk;
    cz_fc_graph g;
    cz_pool *pool;
    cz_fr *w, *inputs;
    size_t n;
} prover;

/* Partition k into proof (192 bytes): 0, 1 refused, 2 failed. */
static int prove_partition(const prover *pv, unsigned k, uint8_t *out, double *secs)
{
    const char *c = "porep-prove";
    const cz_fc_c1 *c1 = pv->c1;
    char err[512] = "";
    double t0 = cz_bench_now();
    int rc = cz_fc_porep_witness(pv->w, pv->n, c1, k, pv->pool, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: partition %u: witness: %s\n", c, k, err);
        return 2;
    }
    double t1 = cz_bench_now();
    size_t row = 0;
    rc = cz_r1cs_check(pv->r, pv->w, pv->n, pv->pool, &row, err, sizeof err);
    double t2 = cz_bench_now();
    if (rc == CZ_ERR_UNSATISFIED) {
        explain(&pv->d, c1, k, pv->w, pv->n, row, pv->pool);
        return 1;
    }
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: partition %u: check: %s\n", c, k, cz_strerror(rc));
        return 2;
    }
    cz_groth16_timings tm;
    memset(&tm, 0, sizeof tm);
    cz_groth16_prove_opts po = {.backend = CZ_BACKEND_CPU, .pool = pv->pool, .timings = &tm};
    cz_groth16_proof proof;
    rc = cz_groth16_prove(&proof, pv->p, pv->r, pv->w, pv->n, &po, err, sizeof err);
    double t3 = cz_bench_now();
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: partition %u: prove: %s\n", c, k, err);
        return 2;
    }
    const cz_fc_proof_type *t = c1->proof_type;
    size_t ni = cz_fc_public_input_count(t);
    rc = cz_fc_public_inputs(pv->inputs, t, &pv->g, &c1->replica_id, &c1->comm_d, &c1->comm_r,
                             c1->seed, k);
    if (rc == CZ_OK)
        rc = cz_groth16_verify(pv->pvk, &proof, pv->inputs, ni);
    double t4 = cz_bench_now();
    printf("partition %u: witness %.3f s, check %.3f s, prove %.3f s (H %.2f, MSMs h %.2f l %.2f "
           "a %.2f b_g1 %.2f b_g2 %.2f), verify %.3f s\n",
           k, t1 - t0, t2 - t1, t3 - t2, tm.h, tm.msm_h, tm.msm_l, tm.msm_a, tm.msm_b_g1,
           tm.msm_b_g2, t4 - t3);
    fflush(stdout);
    if (rc != CZ_OK) {
        fprintf(stderr,
                "cuzk-bench %s: partition %u: the proof does not verify under the vk "
                "with the partition's public inputs (%s): wrong vk for these "
                "parameters?\n",
                c, k, cz_strerror(rc));
        return 1;
    }
    cz_groth16_proof_to_bytes(out, &proof);
    *secs = t4 - t0;
    return 0;
}

typedef struct {
    const uint8_t *b;
    size_t n;
} bytes;

static int write_bytes(const char *path, const void *obj)
{
    const bytes *b = obj;
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return CZ_ERR_IO;
    int ok = fwrite(b->b, 1, b->n, f) == b->n;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? CZ_OK : CZ_ERR_IO;
}

static int cmd_porep_prove(int argc, char **argv)
{
    const char *c = "porep-prove";
    opts o;
    int prc = parse(argc, argv, &o, V, USAGE_PROVE);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    uint8_t prover_id[32];
    uint64_t sector_id, part = 0;
    if (!cz_bench_need(c, o.c1, "--c1") || !cz_bench_need(c, o.params, "--params") ||
        !cz_bench_need(c, o.prover_id, "--prover-id") ||
        !cz_bench_need(c, o.sector_id, "--sector-id") || !cz_bench_need(c, o.out, "--out") ||
        cz_bench_hex32(prover_id, o.prover_id, c, "--prover-id") != 0 ||
        cz_bench_u64(&sector_id, o.sector_id, c, "--sector-id") != 0 ||
        (o.partition && cz_bench_u64(&part, o.partition, c, "--partition") != 0))
        return 2;
    double t_start = cz_bench_now();
    cz_pool *pool;
    unsigned threads;
    if (cz_bench_pool(&pool, &threads, o.threads, c) != 0)
        return 2;

    int ret = 2, rc;
    char err[512] = "", path[4200];
    cz_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    cz_groth16_params p;
    memset(&p, 0, sizeof p);
    cz_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    cz_groth16_pvk pvk;
    memset(&pvk, 0, sizeof pvk);
    cz_r1cs *r = NULL;
    prover pv;
    memset(&pv, 0, sizeof pv);
    uint8_t *proofs = NULL;

    /* the C1, vanilla-verified with the ids before anything else */
    double t0 = cz_bench_now();
    size_t len;
    uint8_t *json = cz_bench_read_file(o.c1, &len, c);
    if (json == NULL)
        goto out;
    rc = cz_fc_c1_read(&c1, json, len, NULL, err, sizeof err);
    free(json);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s: %s\n", c, o.c1, err);
        goto out;
    }
    const cz_fc_proof_type *t = c1.proof_type;
    if (o.partition && part >= c1.partitions) {
        fprintf(stderr, "cuzk-bench %s: --partition %llu: the C1 has %u partitions\n", c,
                (unsigned long long)part, c1.partitions);
        goto out;
    }
    cz_fc_verify_opts vo = {
        .prover_id = prover_id, .sector_id = sector_id, .api = -1, .pool = pool};
    rc = cz_fc_vanilla_verify(&c1, &vo, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr,
                "cuzk-bench %s: %s: the vanilla proofs do not verify for prover %s, "
                "sector %llu: %s\n",
                c, o.c1, o.prover_id, (unsigned long long)sector_id, err);
        ret = rc == CZ_ERR_BAD_PROOF ? 1 : 2;
        goto out;
    }
    printf("C1 %s (%s, %u partitions of %u challenges): read and vanilla-verified in %.3f s\n",
           o.c1, t->name, c1.partitions, c1.challenges, cz_bench_now() - t0);
    fflush(stdout);

    /* parameters, R1CS and vk, each checked against the circuit's counts */
    cz_fc_porep_dims_of(&pv.d, t->shape);
    size_t n_in, n_aux;
    if (cz_fc_porep_counts(&pv.d, &n_in, &n_aux) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", c);
        goto out;
    }
    t0 = cz_bench_now();
    rc = cz_groth16_params_read_file(&p, o.params, o.check_params ? 0 : CZ_DECODE_SKIP_SUBGROUP,
                                     pool, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: --params %s: %s\n", c, o.params, err);
        goto out;
    }
    printf("params %s: loaded in %.2f s (%s)\n", o.params, cz_bench_now() - t0,
           o.check_params ? "every point checked"
                          : "subgroup checks skipped, as bellperson's "
                            "unchecked read");
    if (p.vk.n_ic != n_in || p.n_l != n_aux) {
        fprintf(stderr,
                "cuzk-bench %s: --params %s: %zu inputs and %zu aux (IC and l points), "
                "the %s PoRep circuit has %zu and %zu: not its parameters\n",
                c, o.params, p.vk.n_ic, p.n_l, t->shape->name, n_in, n_aux);
        goto out;
    }
    const char *pce = o.pce;
    if (pce == NULL) {
        beside(path, sizeof path, o.params, ".pce");
        pce = path[0] && exists(path) ? path : NULL;
    }
    t0 = cz_bench_now();
    if (pce) {
        rc = cz_pce_load(&r, pce, 0, err, sizeof err);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: pce %s: %s\n", c, pce, err);
            goto out;
        }
        printf("pce %s: loaded in %.2f s\n", pce, cz_bench_now() - t0);
    } else {
        if (record(&r, &pv.d, NULL, 0, 0, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: %s\n", c, err);
            goto out;
        }
        printf("no pce beside the parameters: circuit recorded in %.2f s\n", cz_bench_now() - t0);
    }
    if (cz_r1cs_num_inputs(r) != n_in || cz_r1cs_num_aux(r) != n_aux) {
        fprintf(stderr,
                "cuzk-bench %s: pce %s: %zu inputs and %zu aux, the %s PoRep circuit has "
                "%zu and %zu: not its R1CS\n",
                c, pce, cz_r1cs_num_inputs(r), cz_r1cs_num_aux(r), t->shape->name, n_in, n_aux);
        goto out;
    }
    const char *vk_path = o.vk;
    char vk_beside[4200];
    if (vk_path == NULL) {
        beside(vk_beside, sizeof vk_beside, o.params, ".vk");
        vk_path = vk_beside[0] && exists(vk_beside) ? vk_beside : NULL;
    }
    if (vk_path) {
        rc = cz_groth16_vk_read_file(&vk, vk_path, err, sizeof err);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: vk %s: %s\n", c, vk_path, err);
            goto out;
        }
        if (vk.n_ic != n_in) {
            fprintf(stderr, "cuzk-bench %s: vk %s: %zu inputs, the circuit has %zu\n", c, vk_path,
                    vk.n_ic, n_in);
            goto out;
        }
    }
    if (cz_groth16_pvk_prepare(&pvk, vk_path ? &vk : &p.vk) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", c);
        goto out;
    }
    printf("vk: %s\n", vk_path ? vk_path : "the parameters' own");

    /* the partitions */
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, t);
    cz_fc_graph_init(&pv.g, t->shape, porep_id, t->api);
    pv.c1 = &c1;
    pv.r = r;
    pv.p = &p;
    pv.pvk = &pvk;
    pv.pool = pool;
    pv.n = n_in + n_aux;
    unsigned first = o.partition ? (unsigned)part : 0;
    unsigned count = o.partition ? 1 : c1.partitions;
    pv.w = cz_alloc(&cz_allocator_default, CZ_BUF_WITNESS, pv.n * sizeof(cz_fr));
    pv.inputs = malloc(cz_fc_public_input_count(t) * sizeof(cz_fr));
    proofs = malloc((size_t)count * CZ_GROTH16_PROOF_BYTES);
    if (pv.w == NULL || pv.inputs == NULL || proofs == NULL) {
        fprintf(stderr, "cuzk-bench %s: out of memory for the witness\n", c);
        goto out;
    }
    double sum = 0;
    for (unsigned i = 0; i < count; i++) {
        double s;
        int prc2 = prove_partition(&pv, first + i, proofs + (size_t)i * CZ_GROTH16_PROOF_BYTES, &s);
        if (prc2 != 0) {
            ret = prc2;
            goto out;
        }
        sum += s;
    }
    bytes b = {proofs, (size_t)count * CZ_GROTH16_PROOF_BYTES};
    if (write_renamed(o.out, write_bytes, &b, c) != 0)
        goto out;
    printf("proof %s: %zu bytes (%u partition%s)\n", o.out, b.n, count, count == 1 ? "" : "s");
    printf("total: %.2f s/proof (%u partition%s: witness, check, prove, verify; %u thread%s), "
           "%.2f s with loading\n",
           sum, count, count == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
           cz_bench_now() - t_start);
    ret = 0;
out:
    free(proofs);
    free(pv.inputs);
    if (pv.w)
        cz_free(&cz_allocator_default, pv.w, pv.n * sizeof(cz_fr));
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    cz_r1cs_free(r);
    cz_groth16_params_free(&p);
    cz_fc_c1_free(&c1);
    cz_pool_free(pool);
    return ret;
}

int cz_bench_porep(int argc, char **argv)
{
    if (!strcmp(argv[0], "params"))
        return cmd_params(argc, argv);
    return cmd_porep_prove(argc, argv);
}
