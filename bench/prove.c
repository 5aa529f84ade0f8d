/* cuzk-bench prove / verify / setup: Groth16 end to end.
 *
 *   cuzk-bench prove --zkey F --wtns F [--proof-out F] [--public-out F]
 *   cuzk-bench prove --r1cs F --wtns F        (insecure setup from --seed)
 *   cuzk-bench prove --chain LOG              (built-in circuit, 2^LOG rows)
 *       common: [--threads T] [--reps K] [--seed N] [--no-verify] [--gpu]
 *       --rs-seed N: the blinding factors r, s from seed N, not the OS's
 *       random source: the same proof bytes every run (INSECURE: a proof
 *       with known r, s reveals the witness), to compare builds or back
 *       ends (scripts/gpu-check.sh's ptx75 part)
 *       --proof-bin F: the proof's 192 bytes (cz_groth16_proof_to_bytes,
 *       bellperson's encoding), for any circuit
 *       --trusted-key: skip the subgroup checks of the key's points
 *       (snarkjs never checks them)
 *       --checked-keys FILE|none: the checked-keys store (cuzk/
 *       checked_keys.h; default cz_checked_keys_default_path, under the
 *       user's cache): a .zkey found there by digest skips its subgroup
 *       checks, one checked here is added to it; none: checked every time
 *   cuzk-bench verify --vk F --proof F --public F     (snarkjs JSON files)
 *   cuzk-bench setup --r1cs F --zkey-out F [--seed N] [--threads T] [--gpu]
 *
 * --gpu: the CUDA back end (CZ_BACKEND_GPU: prove_start's H and MSMs, the
 * setup's fixed-base products on the device), an error without a device.
 * Each command takes its own options only (another command's option is an
 * error naming it) and --help.  prove makes one proof, as a user expects,
 * verified unless --no-verify, and prints the time of each phase (load,
 * witness, setup when it runs one, then the proof's SpMV, H, the MSMs,
 * assembly) and the peak resident memory; with --reps K it makes one more
 * and reports the median of K timed proofs after it.  T defaults to the
 * cores the process may run on.  setup writes an INSECURE .zkey (trapdoor
 * from the seed) that snarkjs can prove with: for benchmarks at sizes where
 * snarkjs's own powers-of-tau preparation takes hours.  verify exits 0 for
 * a valid proof, 1 for an invalid one, 2 on bad input. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "cuzk/checked_keys.h"
#include "cuzk/circom.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/snarkjs.h"
#include "cuzk/zkey.h"

/* The options (a) and what parse makes of them. */
typedef struct {
    cz_cli_opts a;
    unsigned chain_log, reps_n;
    uint64_t seed_n, rs_seed_n;
    int timed;
} opts;

/* The checked-keys store of --checked-keys (NULL: the default path; "none":
 * no store, *out NULL): CZ_OK, or the store's error with err saying why.  With no
 * default path (no $HOME) the key is checked every time. */
static int open_store(cz_checked_keys **out, const char *arg, char *err, size_t errlen)
{
    *out = NULL;
    char path[4096];
    if (arg && !strcmp(arg, "none"))
        return CZ_OK;
    if (arg == NULL && !cz_checked_keys_default_path(path, sizeof path))
        return CZ_OK;
    int rc = cz_checked_keys_open(out, arg ? arg : path, err, errlen);
    if (rc != CZ_OK)
        snprintf(err + strlen(err), errlen - strlen(err),
                 " (--checked-keys none checks the key every time)");
    return rc;
}

/* After a load with the store: a checked key added (a store that cannot be
 * written is a warning: the proof goes on), what happened on stderr. */
static void note_check(cz_checked_keys *store, const cz_key_check *kc, const char *key)
{
    char err[512];
    if (kc->known) {
        fprintf(stderr, "prove: %s found in %s: its subgroup checks were skipped\n", key,
                cz_checked_keys_path(store));
    } else if (kc->checked) {
        if (cz_checked_keys_add(store, &kc->digest, err, sizeof err) == CZ_OK)
            fprintf(stderr, "prove: %s checked, remembered in %s\n", key,
                    cz_checked_keys_path(store));
        else
            fprintf(stderr, "prove: warning: %s checked, but not remembered: %s\n", key, err);
    }
}

/* argv (argv[0] the command) into *o for command self: 0, or -1 after a
 * message. */
static int parse(const cz_cli_cmd *self, int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed_n = 1;
    if (cz_cli_parse(self, argc, argv, &o->a) < 0)
        return -1;
    uint64_t v;
    const char *c = self->name;
    if (o->a.chain) {
        if (cz_cli_u64(&v, o->a.chain, c, "--chain") != 0)
            return -1;
        if (v < 3 || v > 26) {
            fprintf(stderr, "cuzk-bench %s: --chain must be 3..26\n", c);
            return -1;
        }
        o->chain_log = (unsigned)v;
    }
    if (o->a.reps) {
        if (cz_cli_u64(&v, o->a.reps, c, "--reps") != 0 || v < 1 || v > 1000) {
            fprintf(stderr, "cuzk-bench %s: --reps must be 1..1000\n", c);
            return -1;
        }
        o->reps_n = (unsigned)v;
        o->timed = 1;
    }
    if (o->a.seed && cz_cli_u64(&o->seed_n, o->a.seed, c, "--seed") != 0)
        return -1;
    if (o->a.rs_seed && cz_cli_u64(&o->rs_seed_n, o->a.rs_seed, c, "--rs-seed") != 0)
        return -1;
    return 0;
}

static void seed_bytes(uint8_t out[32], uint64_t seed)
{
    cz_prng g;
    cz_prng_seed(&g, seed);
    cz_prng_bytes(&g, out, 32);
}

/* The built-in circuit: public x, p; private k; 2^log - inputs rows of
 *   u_i = t_(i-1)^2,  t_i = u_i (k + i) + 5 t_(i-1) - p
 * (random field values everywhere: a dense witness). */
static int chain_circuit(cz_r1cs **r, cz_fr **w, size_t *n, unsigned log)
{
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc != CZ_OK)
        return rc;
    cz_prng g;
    cz_prng_seed(&g, 42);
    cz_fr x, p, k, t, u, tmp, five, c_i;
    cz_fr_random(&x, &g);
    cz_fr_random(&p, &g);
    cz_fr_random(&k, &g);
    cz_fr_from_u64(&five, 5);
    cz_var vx = cz_cs_alloc_input(cs, &x), vp = cz_cs_alloc_input(cs, &p);
    cz_var vk = cz_cs_alloc_aux(cs, &k);
    size_t rows = ((size_t)1 << log) - 3; /* 3 input rows */
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc);
    /* t_0 = x k */
    cz_fr_mul(&t, &x, &k);
    cz_var vt = cz_cs_alloc_aux(cs, &t);
    cz_lc_add(&la, vx);
    cz_lc_add(&lb, vk);
    cz_lc_add(&lc, vt);
    cz_cs_enforce(cs, &la, &lb, &lc);
    for (size_t i = 1; i + 1 < rows; i += 2) {
        cz_fr_sqr(&u, &t);
        cz_var vu = cz_cs_alloc_aux(cs, &u);
        cz_lc_clear(&la), cz_lc_clear(&lb), cz_lc_clear(&lc);
        cz_lc_add(&la, vt);
        cz_lc_add(&lb, vt);
        cz_lc_add(&lc, vu);
        cz_cs_enforce(cs, &la, &lb, &lc);
        cz_fr_from_u64(&c_i, i);
        cz_fr_add(&tmp, &k, &c_i);
        cz_fr_mul(&tmp, &tmp, &u);
        cz_fr nt, ft;
        cz_fr_mul(&ft, &five, &t);
        cz_fr_add(&nt, &tmp, &ft);
        cz_fr_sub(&nt, &nt, &p);
        cz_var vn = cz_cs_alloc_aux(cs, &nt);
        /* u (k + i) = t_i - 5 t_(i-1) + p */
        cz_lc_clear(&la), cz_lc_clear(&lb), cz_lc_clear(&lc);
        cz_lc_add(&la, vu);
        cz_lc_add(&lb, vk);
        cz_lc_add_const(&lb, &c_i);
        cz_lc_add(&lc, vn);
        cz_fr m5;
        cz_fr_neg(&m5, &five);
        cz_lc_add_term(&lc, vt, &m5);
        cz_lc_add(&lc, vp);
        cz_cs_enforce(cs, &la, &lb, &lc);
        vt = vn, t = nt;
    }
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
    rc = cz_cs_finish(cs, r);
    if (rc == CZ_OK) {
        *n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
        *w = malloc(*n * sizeof(cz_fr));
        if (*w == NULL)
            rc = CZ_ERR_NOMEM;
        else
            cz_cs_write_assignment(cs, *w);
    }
    cz_cs_free(cs);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_phase(const char *name, double *v, unsigned k)
{
    qsort(v, k, sizeof *v, cmp_double);
    printf("  %-10s %9.1f ms\n", name, 1e3 * v[k / 2]);
}

int cz_bench_prove(const cz_cli_cmd *self, int argc, char **argv)
{
    opts o;
    if (parse(self, argc, argv, &o) != 0)
        return 2;
    int modes = (o.a.zkey != NULL) + (o.a.r1cs != NULL) + (o.chain_log != 0);
    if (modes != 1 || (o.chain_log == 0 && o.a.wtns == NULL) || (o.chain_log && o.a.wtns)) {
        fprintf(stderr, "cuzk-bench prove: one of --zkey F --wtns F, --r1cs F --wtns F or "
                        "--chain LOG\n");
        cz_cli_usage(stderr, self);
        return 2;
    }
    if ((o.a.proof_out || o.a.public_out) && o.a.zkey == NULL) {
        fprintf(stderr, "cuzk-bench prove: --proof-out and --public-out write snarkjs's files "
                        "of a .zkey's proof (--zkey)\n");
        return 2;
    }
    if ((o.a.trusted_key || o.a.checked_keys) && o.a.zkey == NULL) {
        fprintf(stderr, "cuzk-bench prove: --trusted-key and --checked-keys are about a .zkey "
                        "(--zkey)\n");
        return 2;
    }
    if (o.a.trusted_key && o.a.checked_keys) {
        fprintf(stderr, "cuzk-bench prove: --trusted-key skips the checks that --checked-keys "
                        "remembers: one or the other\n");
        return 2;
    }
    char err[512] = "";
    cz_pool *pool = NULL;
    unsigned threads;
    if (cz_cli_pool(&pool, &threads, o.a.threads, "prove") != 0)
        return 2;
    cz_groth16_params params = {0};
    cz_r1cs *r1cs = NULL;
    cz_fr *w = NULL;
    size_t n = 0;
    cz_zkey z = {0};
    cz_circom_wtns wt = {0};
    cz_circom_r1cs cr = {0};
    int rc = CZ_OK, status = 2;
    double t0 = cz_cli_now(), t_load = 0, t_setup = 0, t_wit = 0;
    cz_backend backend = o.a.gpu ? CZ_BACKEND_GPU : CZ_BACKEND_CPU;

    if (o.a.wtns != NULL) {
        rc = cz_circom_wtns_load(&wt, o.a.wtns, err, sizeof err);
        if (rc != CZ_OK)
            goto out;
        w = wt.w, n = wt.n;
        t_wit = cz_cli_now() - t0;
    }
    double t1 = cz_cli_now();
    if (o.a.zkey != NULL) {
        cz_checked_keys *store = NULL;
        if (!o.a.trusted_key && (rc = open_store(&store, o.a.checked_keys, err, sizeof err)) != CZ_OK)
            goto out;
        cz_key_check kc = {.store = store};
        rc = cz_zkey_load_with(&z, o.a.zkey, o.a.trusted_key ? CZ_ZKEY_SKIP_SUBGROUP : 0, pool,
                               store ? &kc : NULL, err, sizeof err);
        if (rc == CZ_OK && store)
            note_check(store, &kc, o.a.zkey);
        cz_checked_keys_free(store);
        if (rc == CZ_OK)
            rc = cz_groth16_params_from_zkey(&params, &r1cs, &z, err, sizeof err);
        cz_zkey_free(&z);
        t_load = cz_cli_now() - t1;
    } else {
        if (o.a.r1cs != NULL) {
            rc = cz_circom_r1cs_load(&cr, o.a.r1cs, err, sizeof err);
            if (rc == CZ_OK)
                rc = cz_circom_r1cs_compile(&r1cs, &cr, err, sizeof err);
            cz_circom_r1cs_free(&cr);
        } else {
            rc = chain_circuit(&r1cs, &w, &n, o.chain_log);
        }
        t_load = cz_cli_now() - t1;
        if (rc == CZ_OK) {
            uint8_t seed[32];
            seed_bytes(seed, o.seed_n);
            double t2 = cz_cli_now();
            cz_groth16_setup_opts so = {.backend = backend, .pool = pool};
            rc = cz_groth16_setup_with(&params, r1cs, seed, CZ_GROTH16_BELLPERSON, &so, err,
                                       sizeof err);
            t_setup = cz_cli_now() - t2;
        }
    }
    if (rc != CZ_OK)
        goto out;
    size_t n_in = cz_r1cs_num_inputs(r1cs), rows = cz_r1cs_num_constraints(r1cs);
    unsigned lg = 1;
    while (((size_t)1 << lg) < rows)
        lg++;
    printf("prove: %zu constraints (domain 2^%u), %zu inputs, %zu aux, %u thread(s), %s, %s\n",
           rows, lg, n_in, cz_r1cs_num_aux(r1cs), threads,
           params.flavor == CZ_GROTH16_SNARKJS ? "snarkjs .zkey"
                                               : "bellperson layout (insecure setup)",
           o.a.gpu ? "GPU back end" : "CPU back end");
    printf("  %-10s %9.1f ms\n", "witness", 1e3 * t_wit);
    printf("  %-10s %9.1f ms\n", o.a.zkey ? "load key" : "load r1cs", 1e3 * t_load);
    if (t_setup > 0)
        printf("  %-10s %9.1f ms  (not part of a proof)\n", "setup", 1e3 * t_setup);

    /* one proof, or with --reps K one and then K timed ones */
    unsigned k = o.timed ? o.reps_n : 1;
    double *ph = calloc(9 * (size_t)k, sizeof(double));
    cz_groth16_proof pf;
    cz_groth16_pvk pvk = {0};
    cz_fr rs[2];
    if (o.a.rs_seed) {
        cz_prng g;
        cz_prng_seed(&g, o.rs_seed_n);
        cz_fr_random(&rs[0], &g);
        cz_fr_random(&rs[1], &g);
    }
    if (ph == NULL || cz_groth16_pvk_prepare(&pvk, &params.vk) != CZ_OK) {
        free(ph);
        rc = CZ_ERR_NOMEM;
        goto out;
    }
    for (unsigned it = 0; it < k + (unsigned)o.timed; it++) {
        cz_groth16_timings tm;
        cz_groth16_prove_opts po = {
            .backend = backend, .pool = pool, .rs = o.a.rs_seed ? rs : NULL, .timings = &tm};
        double s = cz_cli_now();
        rc = cz_groth16_prove(&pf, &params, r1cs, w, n, &po, err, sizeof err);
        double total = cz_cli_now() - s;
        if (rc != CZ_OK)
            break;
        if (!o.a.no_verify && (rc = cz_groth16_verify(&pvk, &pf, w + 1, n_in - 1)) != CZ_OK) {
            snprintf(err, sizeof err, "the proof does not verify");
            break;
        }
        if (o.timed && it == 0)
            continue; /* the first of a timed series is a warm-up */
        unsigned at = o.timed ? it - 1 : it;
        double v[9] = {tm.spmv,     tm.h,        tm.msm_h,    tm.msm_l, tm.msm_a,
                       tm.msm_b_g1, tm.msm_b_g2, tm.assemble, total};
        for (int j = 0; j < 9; j++)
            ph[j * k + at] = v[j];
    }
    cz_groth16_pvk_free(&pvk);
    if (rc == CZ_OK) {
        static const char *names[9] = {"spmv",     "h",        "msm h",    "msm l", "msm a",
                                       "msm b_g1", "msm b_g2", "assemble", "proof"};
        if (o.timed)
            printf("per proof (median of %u, after one warm-up):\n", k);
        else
            printf("the proof:\n");
        for (int j = 0; j < 9; j++)
            print_phase(names[j], ph + j * k, k);
        printf("  verified: %s\n", o.a.no_verify ? "skipped" : "yes");
        printf("  peak RSS  %9.1f MiB\n", cz_cli_peak_rss_mib());
        printf("  total     %9.1f ms  (the whole command so far)\n", 1e3 * (cz_cli_now() - t0));
    }
    free(ph);
    if (rc == CZ_OK && o.a.proof_out != NULL)
        rc = cz_snarkjs_proof_write_file(o.a.proof_out, &pf);
    if (rc == CZ_OK && o.a.public_out != NULL)
        rc = cz_snarkjs_public_write_file(o.a.public_out, w + 1, n_in - 1);
    if (rc == CZ_OK && o.a.proof_bin != NULL) {
        uint8_t enc[CZ_GROTH16_PROOF_BYTES];
        cz_groth16_proof_to_bytes(enc, &pf);
        FILE *f = fopen(o.a.proof_bin, "wb");
        if (f == NULL || fwrite(enc, 1, sizeof enc, f) != sizeof enc)
            rc = CZ_ERR_IO;
        if (f != NULL && fclose(f) != 0)
            rc = CZ_ERR_IO;
    }
    if (rc != CZ_OK && !err[0])
        snprintf(err, sizeof err, "writing the proof files failed");
    status = rc == CZ_OK ? 0 : 1;
out:
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk-bench prove: %s (%s)\n", err[0] ? err : "failed", cz_strerror(rc));
    if (w != wt.w)
        free(w);
    cz_circom_wtns_free(&wt);
    cz_r1cs_free(r1cs);
    cz_groth16_params_free(&params);
    cz_pool_free(pool);
    return status;
}

int cz_bench_verify(const cz_cli_cmd *self, int argc, char **argv)
{
    opts o;
    if (parse(self, argc, argv, &o) != 0)
        return 2;
    if (!o.a.vk || !o.a.proof || !o.a.public) {
        cz_cli_usage(stderr, self);
        return 2;
    }
    char err[512] = "";
    cz_groth16_vk vk = {0};
    cz_groth16_proof pf;
    cz_groth16_pvk pvk = {0};
    cz_fr *pub = NULL;
    size_t n_pub = 0;
    int rc = cz_snarkjs_vk_read_file(&vk, o.a.vk, err, sizeof err);
    if (rc == CZ_OK)
        rc = cz_snarkjs_proof_read_file(&pf, o.a.proof, err, sizeof err);
    if (rc == CZ_OK)
        rc = cz_snarkjs_public_read_file(&pub, &n_pub, o.a.public, err, sizeof err);
    if (rc == CZ_OK)
        rc = cz_groth16_pvk_prepare(&pvk, &vk);
    int status = 2;
    if (rc == CZ_OK && n_pub + 1 != vk.n_ic) {
        fprintf(stderr, "cuzk-bench verify: %zu public inputs, the key expects %zu\n", n_pub,
                vk.n_ic - 1);
    } else if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench verify: %s (%s)\n", err[0] ? err : "failed", cz_strerror(rc));
    } else {
        rc = cz_groth16_verify(&pvk, &pf, pub, n_pub);
        printf("%s\n", rc == CZ_OK ? "OK" : "INVALID");
        status = rc == CZ_OK ? 0 : 1;
    }
    free(pub);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    return status;
}

int cz_bench_setup(const cz_cli_cmd *self, int argc, char **argv)
{
    opts o;
    if (parse(self, argc, argv, &o) != 0)
        return 2;
    if (!o.a.r1cs || !o.a.zkey_out) {
        cz_cli_usage(stderr, self);
        return 2;
    }
    char err[512] = "";
    cz_circom_r1cs cr = {0};
    cz_r1cs *r = NULL;
    cz_groth16_params p = {0};
    cz_zkey z = {0};
    cz_pool *pool = NULL;
    unsigned threads;
    if (cz_cli_pool(&pool, &threads, o.a.threads, "setup") != 0)
        return 2;
    uint8_t seed[32];
    seed_bytes(seed, o.seed_n);
    double t0 = cz_cli_now();
    int rc = cz_circom_r1cs_load(&cr, o.a.r1cs, err, sizeof err);
    if (rc == CZ_OK)
        rc = cz_circom_r1cs_compile(&r, &cr, err, sizeof err);
    cz_groth16_setup_opts so = {.backend = o.a.gpu ? CZ_BACKEND_GPU : CZ_BACKEND_CPU, .pool = pool};
    if (rc == CZ_OK)
        rc = cz_groth16_setup_with(&p, r, seed, CZ_GROTH16_SNARKJS, &so, err, sizeof err);
    if (rc == CZ_OK && (rc = cz_groth16_params_to_zkey(&z, &p, r)) != CZ_OK)
        snprintf(err, sizeof err, "building the .zkey failed");
    if (rc == CZ_OK)
        rc = cz_zkey_write(&z, o.a.zkey_out, err, sizeof err);
    if (rc == CZ_OK)
        printf("setup: %zu constraints, wrote %s (INSECURE, seed %llu) in %.2f s\n",
               cz_r1cs_num_constraints(r), o.a.zkey_out, (unsigned long long)o.seed_n,
               cz_cli_now() - t0);
    else
        fprintf(stderr, "cuzk-bench setup: %s (%s)\n", err[0] ? err : "failed", cz_strerror(rc));
    cz_zkey_free(&z);
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
    cz_circom_r1cs_free(&cr);
    cz_pool_free(pool);
    return rc == CZ_OK ? 0 : 1;
}
