/* cuzk porep seal, c1-synth, c1-verify, verify: PoRep sectors, their C1s
 * and their proofs (each command's usage in its row at the end).
 *
 *   seal seals a sector in memory (--data FILE: raw data, at most 127/128
 *     of the sector, zero-filled to it, then Fr32-padded, or an unsealed
 *     sector file of exactly the sector's size, already padded;
 *     --data-seed: seeded random raw data; neither: zero data, a CC
 *     sector) and writes its C1.
 *   c1-synth writes a synthetic C1 (zero data; ids drawn from --seed
 *     unless given).
 *   c1-verify reads and validates a C1 (raw or Curio's wrapper), then runs
 *     the vanilla verifier on T threads (default 1); with --prover-id the
 *     replica_id is checked too.
 *   verify checks a PoRep's partition proofs (verify_seal).
 *
 * 32-byte values are 64 hex digits of the bytes as the C1 JSON stores
 * them; --miner-id N may stand for --prover-id (the actor id's LEB128,
 * zero-padded, as filecoin-ffi and cuzk-daemon build it) in seal, c1-synth
 * and verify.  seal and c1-synth print `comm_d <hex>` and `comm_r <hex>` on
 * stdout, times and peak RSS on stderr.  c1-verify and verify print
 * `valid` (exit 0) or `invalid` (exit 1, the reason on stderr); bad input
 * exits 2 with a message. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/pool.h"
#include "cuzk/rand.h"
#include "tool/tool.h"

static void print_hex(const char *label, const uint8_t b[32])
{
    printf("%s ", label);
    for (int i = 0; i < 32; i++)
        printf("%02x", b[i]);
    printf("\n");
}

/* The registered proof: --registered-proof, else StackedDrg<size>V1_1;
 * --sector-size must agree when both are given. */
static const cz_fc_proof_type *proof_type(const cz_cli_opts *o, const char *cmd)
{
    const cz_fc_shape *s = NULL;
    if (o->sector_size && (s = cz_cli_shape(o->sector_size, cmd)) == NULL)
        return NULL;
    if (o->registered_proof) {
        const cz_fc_proof_type *t = cz_fc_proof_by_name(o->registered_proof);
        if (t == NULL) {
            fprintf(stderr,
                    "cuzk %s: --registered-proof %s: no such registered seal "
                    "proof (StackedDrg2KiBV1 .. StackedDrg64GiBV1_2_Feat_"
                    "NonInteractivePoRep)\n",
                    cmd, o->registered_proof);
            return NULL;
        }
        if (s && t->shape != s) {
            fprintf(stderr, "cuzk %s: --registered-proof %s is for %s sectors, not %s\n", cmd,
                    t->name, t->shape->name, s->name);
            return NULL;
        }
        return t;
    }
    if (s == NULL)
        fprintf(stderr, "cuzk %s: --sector-size or --registered-proof is required\n", cmd);
    return s ? cz_fc_proof_default(s) : NULL;
}

static int write_c1(const cz_fc_c1 *c1, const char *path, const char *cmd)
{
    char *json;
    size_t len;
    if (cz_fc_c1_write(c1, &json, &len) != CZ_OK) {
        fprintf(stderr, "cuzk %s: out of memory writing the C1\n", cmd);
        return -1;
    }
    int rc = cz_cli_write_file(path, json, len, cmd);
    free(json);
    if (rc == 0)
        fprintf(stderr, "%s: %zu bytes\n", path, len);
    return rc;
}

/* The sector's ids from the flags; missing ones drawn from g (c1-synth)
 * or required (seal: g NULL). */
static int sector_ids(cz_fc_sector *sec, const cz_cli_opts *o, const char *seed_flag,
                      const char *cmd, cz_prng *g)
{
    struct {
        const char *v, *flag;
        uint8_t *out;
    } h[] = {{o->prover_id, "--prover-id", sec->prover_id},
             {o->ticket, "--ticket", sec->ticket},
             {seed_flag == NULL ? NULL : (!strcmp(seed_flag, "--seed") ? o->seed : o->porep_seed),
              seed_flag, sec->seed}};
    if (o->miner_id) { /* prover_id as filecoin-ffi builds it from the actor id */
        uint64_t m;
        if (o->prover_id) {
            fprintf(stderr, "cuzk %s: give --prover-id or --miner-id, not both\n", cmd);
            return -1;
        }
        if (cz_cli_u64(&m, o->miner_id, cmd, "--miner-id") != 0)
            return -1;
        cz_fc_prover_id(sec->prover_id, m);
        h[0].flag = NULL;
    }
    for (size_t i = 0; i < 3; i++) {
        if (h[i].flag == NULL)
            continue;
        if (h[i].v) {
            if (cz_cli_hex32(h[i].out, h[i].v, cmd, h[i].flag) != 0)
                return -1;
        } else if (g) {
            cz_prng_bytes(g, h[i].out, 32);
            h[i].out[31] &= 0x3f;
        } else if (!cz_cli_need(cmd, NULL, h[i].flag)) {
            return -1;
        }
    }
    if (o->sector_id)
        return cz_cli_u64(&sec->sector_id, o->sector_id, cmd, "--sector-id");
    if (g) {
        sec->sector_id = cz_prng_next(g) % 1000000;
        return 0;
    }
    return cz_cli_need(cmd, NULL, "--sector-id") ? 0 : -1;
}

/* ---------------------------------------------------------------- seal --- */

int cz_tool_porep_seal(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    const cz_fc_proof_type *t = proof_type(&o, "porep seal");
    cz_fc_sector sec = {.proof_type = t};
    if (t == NULL || sector_ids(&sec, &o, "--seed", "porep seal", NULL) != 0 ||
        !cz_cli_need("porep seal", o.out, "--out"))
        return 2;
    if (o.data && o.data_seed) {
        fprintf(stderr, "cuzk porep seal: --data and --data-seed exclude each other\n");
        return 2;
    }
    size_t raw_len = t->shape->sector_size / 128 * 127;
    uint8_t *raw = NULL, *padded = NULL;
    if (o.data || o.data_seed) {
        raw = calloc(raw_len, 1);
        padded = malloc(t->shape->sector_size);
        if (raw == NULL || padded == NULL) {
            fprintf(stderr, "cuzk porep seal: out of memory for the data\n");
            free(raw), free(padded);
            return 2;
        }
    }
    if (o.data) {
        size_t n;
        uint8_t *f = cz_cli_read_file(o.data, &n, "porep seal");
        if (f && n == t->shape->sector_size) { /* an unsealed sector file: Fr32-padded */
            if (cz_fc_fr32_unpad(raw, f, n) != CZ_OK) {
                fprintf(stderr,
                        "cuzk porep seal: %s has the sector's size but is not Fr32-"
                        "padded (a node's top two bits are set)\n",
                        o.data);
                free(f), free(raw), free(padded);
                return 2;
            }
        } else if (f == NULL || n > raw_len) {
            if (f)
                fprintf(stderr,
                        "cuzk porep seal: %s has %zu bytes; a %s sector holds %zu raw "
                        "bytes (or exactly %llu padded ones)\n",
                        o.data, n, t->shape->name, raw_len,
                        (unsigned long long)t->shape->sector_size);
            free(f), free(raw), free(padded);
            return 2;
        } else {
            memcpy(raw, f, n);
        }
        free(f);
    } else if (o.data_seed) {
        uint64_t ds;
        if (cz_cli_u64(&ds, o.data_seed, "porep seal", "--data-seed") != 0) {
            free(raw), free(padded);
            return 2;
        }
        cz_prng g;
        cz_prng_seed(&g, ds);
        cz_prng_bytes(&g, raw, raw_len);
    }
    if (raw) {
        cz_fc_fr32_pad(padded, raw, raw_len);
        sec.data = padded;
    }
    free(raw);
    cz_fc_c1 c1;
    char err[512];
    double t0 = cz_cli_now();
    int rc = cz_fc_seal(&c1, &sec, NULL, err, sizeof err);
    double dt = cz_cli_now() - t0;
    free(padded);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk porep seal: %s\n", err);
        return 2;
    }
    print_hex("comm_d", c1.comm_d.b);
    print_hex("comm_r", c1.comm_r.b);
    fprintf(stderr, "seal %s (%s): %.3f s, peak RSS %.1f MiB\n", t->shape->name, t->name, dt,
            cz_cli_peak_rss_mib());
    rc = write_c1(&c1, o.out, "porep seal");
    cz_fc_c1_free(&c1);
    return rc == 0 ? 0 : 2;
}

/* ------------------------------------------------------------ c1-synth --- */

int cz_tool_porep_c1_synth(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    const cz_fc_proof_type *t = proof_type(&o, "porep c1-synth");
    uint64_t seed = 1;
    if (t == NULL || !cz_cli_need("porep c1-synth", o.out, "--out") ||
        (o.seed && cz_cli_u64(&seed, o.seed, "porep c1-synth", "--seed") != 0))
        return 2;
    cz_prng g;
    cz_prng_seed(&g, seed);
    cz_fc_sector sec = {.proof_type = t};
    if (sector_ids(&sec, &o, "--porep-seed", "porep c1-synth", &g) != 0)
        return 2;
    cz_fc_c1 c1;
    char err[512];
    double t0 = cz_cli_now();
    int rc = cz_fc_c1_synth(&c1, &sec, seed, NULL, err, sizeof err);
    double dt = cz_cli_now() - t0;
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk porep c1-synth: %s\n", err);
        return 2;
    }
    print_hex("comm_d", c1.comm_d.b);
    print_hex("comm_r", c1.comm_r.b);
    fprintf(stderr, "c1-synth %s (%s): %.3f s, C1 memory %.1f MiB, peak RSS %.1f MiB\n",
            t->shape->name, t->name, dt, (double)c1.mem_bytes / 1048576.0, cz_cli_peak_rss_mib());
    rc = write_c1(&c1, o.out, "porep c1-synth");
    cz_fc_c1_free(&c1);
    return rc == 0 ? 0 : 2;
}

/* ----------------------------------------------------------- c1-verify --- */

static int overrides(cz_fc_verify_opts *v, uint8_t porep_id[32], const cz_cli_opts *o,
                     const char *cmd)
{
    v->api = -1;
    if (o->porep_id) {
        if (cz_cli_hex32(porep_id, o->porep_id, cmd, "--porep-id") != 0)
            return -1;
        v->porep_id = porep_id;
    }
    if (o->api_version && (v->api = cz_fc_api_parse(o->api_version)) < 0) {
        fprintf(stderr, "cuzk %s: --api-version %s: not 1.0, 1.1 or 1.2\n", cmd, o->api_version);
        return -1;
    }
    return 0;
}

int cz_tool_porep_c1_verify(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    if (!cz_cli_need("porep c1-verify", o.c1, "--c1"))
        return 2;
    cz_fc_verify_opts v = {0};
    uint8_t porep_id[32], prover[32];
    uint64_t sector_id = 0;
    if (overrides(&v, porep_id, &o, "porep c1-verify") != 0)
        return 2;
    if (o.prover_id) {
        if (cz_cli_hex32(prover, o.prover_id, "porep c1-verify", "--prover-id") != 0 ||
            !cz_cli_need("porep c1-verify", o.sector_id, "--sector-id") ||
            cz_cli_u64(&sector_id, o.sector_id, "porep c1-verify", "--sector-id") != 0)
            return 2;
        v.prover_id = prover;
        v.sector_id = sector_id;
    }
    uint64_t threads = 1;
    if (o.threads && (cz_cli_u64(&threads, o.threads, "porep c1-verify", "--threads") != 0 ||
                      threads < 1 || threads > 1024)) {
        fprintf(stderr, "cuzk porep c1-verify: --threads must be 1..1024\n");
        return 2;
    }
    if (threads > 1 && cz_pool_new(&v.pool, (unsigned)threads - 1) != CZ_OK) {
        fprintf(stderr, "cuzk porep c1-verify: cannot start %llu threads\n",
                (unsigned long long)threads);
        return 2;
    }
    size_t len;
    double t0 = cz_cli_now();
    uint8_t *json = cz_cli_read_file(o.c1, &len, "porep c1-verify");
    if (json == NULL) {
        cz_pool_free(v.pool);
        return 2;
    }
    double t1 = cz_cli_now();
    cz_fc_c1 c1;
    char err[512];
    int rc = cz_fc_c1_read(&c1, json, len, NULL, err, sizeof err);
    double t2 = cz_cli_now();
    free(json);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk porep c1-verify: %s: %s\n", o.c1, err);
        cz_pool_free(v.pool);
        return 2;
    }
    double rss_read = cz_cli_peak_rss_mib();
    rc = cz_fc_vanilla_verify(&c1, &v, err, sizeof err);
    double t3 = cz_cli_now();
    fprintf(stderr,
            "c1-verify %s: %zu bytes; file read %.3f s, parse and validate %.3f s "
            "(decoded %.1f MiB, peak RSS %.1f MiB), vanilla verification %.3f s "
            "(%llu threads)\n",
            c1.proof_type->name, len, t1 - t0, t2 - t1, (double)c1.mem_bytes / 1048576.0, rss_read,
            t3 - t2, (unsigned long long)threads);
    cz_fc_c1_free(&c1);
    cz_pool_free(v.pool);
    if (rc == CZ_OK) {
        printf("valid\n");
        return 0;
    }
    printf("invalid\n");
    fprintf(stderr, "%s\n", err);
    return 1;
}

/* -------------------------------------------------------------- verify --- */

int cz_tool_porep_verify(const cz_cli_cmd *self, int argc, char **argv)
{
    const char *c = "porep verify";
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    const cz_fc_proof_type *t = proof_type(&o, c);
    if (t == NULL || !cz_cli_need(c, o.vk, "--vk") || !cz_cli_need(c, o.proof, "--proof") ||
        !cz_cli_need(c, o.comm_r, "--comm-r") || !cz_cli_need(c, o.comm_d, "--comm-d") ||
        !cz_cli_need(c, o.seed, "--seed"))
        return 2;
    cz_fc_seal_info info = {.proof_type = t};
    cz_fc_sector sec = {.proof_type = t};
    uint8_t porep_id[32];
    if (cz_cli_hex32(info.comm_r.b, o.comm_r, c, "--comm-r") != 0 ||
        cz_cli_hex32(info.comm_d.b, o.comm_d, c, "--comm-d") != 0 ||
        sector_ids(&sec, &o, "--seed", c, NULL) != 0 ||
        overrides(&info.overrides, porep_id, &o, c) != 0)
        return 2;
    memcpy(info.prover_id, sec.prover_id, 32);
    memcpy(info.ticket, sec.ticket, 32);
    memcpy(info.seed, sec.seed, 32);
    info.sector_id = sec.sector_id;
    char err[512];
    cz_groth16_pvk pvk;
    uint8_t *proofs;
    size_t len;
    if (cz_cli_read_vk_proof(&pvk, &proofs, &len, o.vk, o.proof, c) != 0)
        return 2;
    int rc;
    bool valid = false;
    err[0] = 0;
    double t0 = cz_cli_now();
    rc = cz_fc_verify_seal(&pvk, proofs, len, &info, &valid, err, sizeof err);
    double dt = cz_cli_now() - t0;
    if (cz_cli_verify_done(&pvk, proofs, rc, err, c) != 0)
        return 2;
    fprintf(stderr, "porep verify %s: %u partitions, %.3f s\n", t->name, t->partitions, dt);
    if (valid) {
        printf("valid\n");
        return 0;
    }
    printf("invalid\n");
    fprintf(stderr, "%s\n", err);
    return 1;
}
