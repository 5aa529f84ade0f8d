/* cuzk params: INSECURE Groth16 parameters of a Filecoin circuit.
 *
 *   cuzk params --sector-size SIZE --out DIR [--circuit porep|snap|wpost|winning]
 *       [--seed HEX32] [--threads T] [--force] [--gpu] [--no-write]
 *       [--pce-only | --reuse-pce]
 *     records the blank circuit of SIZE (cz_tool_record), writes
 *     DIR/<base>.pce (cz_pce_save), runs the INSECURE seeded setup
 *     (cz_groth16_setup_with, bellperson layout; the trapdoor comes from
 *     the seed, default 32 zero bytes) and writes DIR/<base>.params and
 *     DIR/<base>.vk, <base> being Filecoin's name of the circuit's
 *     parameters (cz_fc_porep_params_name and its kin).  Each file is
 *     written under a temporary name and renamed; an existing file is an
 *     error unless --force (then it is replaced, and said so).  --gpu runs
 *     the setup's fixed-base products on the CUDA device (the same bytes);
 *     --no-write records and sets up without writing anything (timings;
 *     --out is then not needed); --pce-only stops after the .pce,
 *     --reuse-pce loads DIR/<base>.pce (cz_pce_load) instead of recording,
 *     so a circuit whose recording takes minutes is made in two steps with
 *     the same bytes.  Every phase's time is printed: record, pce, the
 *     setup's tables, Lagrange values, columns, scalars and each query's
 *     products, write.
 *
 * T defaults to the cores the process may run on.  Exit status: 0 done; 2
 * bad input (options, files; --gpu without a CUDA device or build). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/cs.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "tool/tool.h"

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

/* -------------------------------------------------------------- params --- */

/* One line per query: points, seconds, rate. */
static void print_products(const char *name, size_t n, double sec)
{
    printf("  %-5s %11zu points %8.2f s", name, n, sec);
    if (sec > 0 && n >= 1000)
        printf("  (%.3g M points/s)", (double)n / sec / 1e6);
    printf("\n");
}

int cz_tool_params(const cz_cli_cmd *self, int argc, char **argv)
{
    const char *c = "params";
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    if (!cz_cli_need(c, o.sector_size, "--sector-size") ||
        ((!o.no_write || o.reuse_pce) && !cz_cli_need(c, o.out, "--out")))
        return 2;
    if (o.reuse_pce && o.pce_only) {
        fprintf(stderr,
                "cuzk %s: --pce-only writes the .pce that --reuse-pce reads: one "
                "or the other\n",
                c);
        return 2;
    }
    const cz_fc_shape *s = cz_cli_shape(o.sector_size, c);
    uint8_t seed[32] = {0};
    if (s == NULL || (o.seed && cz_cli_hex32(seed, o.seed, c, "--seed") != 0))
        return 2;
    if (o.gpu && !cz_cuda_available()) {
#ifdef CZ_HAVE_CUDA
        fprintf(stderr, "cuzk %s: --gpu: no usable CUDA device\n", c);
#else
        fprintf(stderr, "cuzk %s: --gpu: this build has no CUDA back end\n", c);
#endif
        return 2;
    }
    bool snap = o.circuit && !strcmp(o.circuit, "snap");
    bool window = o.circuit && !strcmp(o.circuit, "wpost");
    bool winning = o.circuit && !strcmp(o.circuit, "winning");
    cz_fc_snap_shape u;
    cz_post_shape ps;
    if (o.circuit && !snap && !window && !winning && strcmp(o.circuit, "porep")) {
        fprintf(stderr, "cuzk %s: --circuit %s: porep, snap, wpost or winning\n", c, o.circuit);
        return 2;
    }
    if (snap && cz_fc_snap_shape_of(&u, (uint64_t)1 << s->log_nodes) != CZ_OK) {
        fprintf(stderr, "cuzk %s: no update circuit for %s\n", c, s->name);
        return 2;
    }
    if (window || winning)
        cz_post_shape_of(&ps, window ? CZ_POST_WINDOW : CZ_POST_WINNING, s);
    char base[CZ_FC_PARAMS_NAME], path[3][4200];
    static const char *const ext[3] = {".pce", ".params", ".vk"};
    if (snap)
        cz_fc_snap_params_name(base, &u);
    else if (window || winning)
        cz_post_params_name(base, &ps);
    else
        cz_fc_porep_params_name(base, s);
    if (!o.no_write) {
        if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "cuzk %s: cannot create %s: %s\n", c, o.out, strerror(errno));
            return 2;
        }
    }
    for (int i = 0; i < 3 && (!o.no_write || o.reuse_pce); i++)
        snprintf(path[i], sizeof path[i], "%s/%s%s", o.out, base, ext[i]);
    if (o.reuse_pce && !cz_cli_exists(path[0])) {
        fprintf(stderr, "cuzk %s: --reuse-pce: no %s (make it with --pce-only)\n", c, path[0]);
        return 2;
    }
    if (!o.no_write) {
        for (int i = o.reuse_pce; i < (o.pce_only ? 1 : 3); i++) {
            if (cz_cli_exists(path[i])) {
                if (!o.force) {
                    fprintf(stderr, "cuzk %s: %s exists (remove it or pass --force)\n", c, path[i]);
                    return 2;
                }
                printf("replacing %s (--force)\n", path[i]);
            }
        }
    }
    cz_pool *pool;
    unsigned threads;
    if (cz_cli_pool(&pool, &threads, o.threads, c) != 0)
        return 2;
    char seed_hex[65];
    cz_cli_hex_of(seed_hex, seed);
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
    double t0 = cz_cli_now();
    cz_tool_circuit circuit = {
        .porep = &d, .snap = snap ? &u : NULL, .post = window || winning ? &ps : NULL};
    int rrc = o.reuse_pce ? cz_pce_load(&r, path[0], 0, err, sizeof err)
                          : cz_tool_record(&r, &circuit, 0, err, sizeof err);
    if (rrc != CZ_OK) {
        fprintf(stderr, "cuzk %s: %s%s\n", c, o.reuse_pce ? "--reuse-pce: " : "", err);
        goto out;
    }
    size_t rows = cz_r1cs_num_constraints(r);
    unsigned lg = 1;
    while (((size_t)1 << lg) < rows)
        lg++;
    printf("%s: %.2f s; %zu constraints (%zu with the input rows, domain 2^%u), %zu inputs, "
           "%zu aux\n",
           o.reuse_pce ? "pce loaded" : "record", cz_cli_now() - t0,
           cz_r1cs_num_circuit_constraints(r), rows, lg, cz_r1cs_num_inputs(r), cz_r1cs_num_aux(r));
    fflush(stdout);
    if (!o.no_write && !o.reuse_pce) {
        t0 = cz_cli_now();
        if (cz_cli_write_renamed(path[0], wr_pce, r, c) != 0)
            goto out;
        printf("pce:   %.2f s\n", cz_cli_now() - t0);
        print_size("pce", path[0]);
        fflush(stdout);
    }
    t0 = cz_cli_now();
    if (o.pce_only) {
        ret = 0;
        goto out;
    }
    cz_groth16_setup_times tm;
    cz_groth16_setup_opts so = {
        .backend = o.gpu ? CZ_BACKEND_GPU : CZ_BACKEND_CPU, .pool = pool, .times = &tm};
    int rc = cz_groth16_setup_with(&p, r, seed, CZ_GROTH16_BELLPERSON, &so, err, sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk %s: setup: %s (%s)\n", c, err, cz_strerror(rc));
        goto out;
    }
    printf("setup: %.2f s (%u thread%s, fixed-base products on the %s)\n", cz_cli_now() - t0,
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
        t0 = cz_cli_now();
        hashed hp = {.obj = &p}, hv = {.obj = &p.vk, .vk = true};
        if (cz_cli_write_renamed(path[1], wr_hashed, &hp, c) != 0 ||
            cz_cli_write_renamed(path[2], wr_hashed, &hv, c))
            goto out;
        printf("write: %.2f s\n", cz_cli_now() - t0);
        print_size("params", path[1]);
        print_size("vk", path[2]);
        /* the digests (hashed while writing), so that a param cache accepts
         * the files (as INSECURE) */
        for (int i = 1; i < 3; i++) {
            char dh[CZ_FC_DIGEST_HEX];
            const char *name = strrchr(path[i], '/') + 1;
            cz_fc_params_digest_hex(dh, i == 1 ? hp.b2 : hv.b2);
            if (cz_fc_params_record_generated(o.out, name, dh, err, sizeof err) != CZ_OK) {
                fprintf(stderr, "cuzk %s: %s\n", c, err);
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
