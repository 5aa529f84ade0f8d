/* cuzk post vanilla and post verify: WindowPoSt and WinningPoSt vanilla
 * sector proofs of sealed small sectors (or synthetic ones of any size),
 * and their verification, vanilla and SNARK (include/cuzk/filecoin/post.h).
 *
 *   cuzk post vanilla --kind window|winning --sector-size SIZE --out DIR
 *       [--sectors N] [--first-sector ID] [--miner-id M] [--randomness HEX]
 *       [--partition K] [--registered-proof ID] [--synthetic SEED]
 *     seals N CC sectors (IDs ID, ID + 1, ...; 2KiB, 8MiB, 512MiB; ticket
 *     and seed derived from the ID) in memory as `porep seal` does, builds
 *     each TreeR from its replica and writes DIR/vanilla-I.bin, sector I's
 *     FallbackPoStSectorProof in bincode (the blobs Curio sends, in
 *     ascending sector order), each vanilla-verified first, and
 *     DIR/post.json: the registered proof (default: Window V1_1, Winning
 *     V1 of the size), sector size, randomness, partition index and the
 *     sectors' ids and comm_r (from the seal, not from the blobs).  With
 *     --synthetic SEED the blobs are synthetic (cz_post_vanilla_synth: any
 *     size, consistent in every check; a 32GiB partition of 2,349 in
 *     seconds).  The randomness defaults to 32 bytes drawn from seed 1,
 *     byte 31 masked as Curio masks it; Window sector I is proved at
 *     sector_index K x sector count + I.  Winning takes N = 1.
 *
 *   cuzk post verify --dir DIR [--kind window|winning] [--vk VK --proof PROOF]
 *     reads post vanilla's DIR (--kind, when given, must be post.json's
 *     kind, so a Window proof is not checked as a Winning one by mistake):
 *     vanilla-verifies every blob (its sector id
 *     and comm_r must be post.json's) and, with --proof, verifies the
 *     192-byte SNARK proof PROOF under the verifying key VK with the
 *     public inputs verify_window_post / verify_winning_post compute from
 *     post.json alone (cz_post_verify): exit 0 and "valid", 1 and
 *     "invalid: REASON", 2 for a usage error or an unreadable file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/rand.h"
#include "tool/tool.h"
#include "util/json_write.h"

/* One sealed CC sector's blob: sector id, its ticket and seed drawn from
 * the id, TreeR built from the replica. */
static int seal_blob(cz_post_vanilla *v, const cz_post_shape *s, const cz_post_proof_type *pt,
                     const uint8_t rand[32], uint64_t miner, uint64_t id, uint64_t idx,
                     cz_fc_d *comm_r)
{
    const cz_fc_shape *shape = cz_fc_shape_get(pt->size);
    cz_fc_sector sec = {.proof_type = cz_fc_proof_default(shape), .sector_id = id};
    cz_fc_prover_id(sec.prover_id, miner);
    cz_prng g;
    cz_prng_seed(&g, id);
    cz_prng_bytes(&g, sec.ticket, 32);
    cz_prng_bytes(&g, sec.seed, 32);
    size_t n = (size_t)1 << shape->log_nodes;
    cz_fc_d *replica = malloc(n * sizeof *replica), comm_c;
    if (replica == NULL)
        return CZ_ERR_NOMEM;
    char err[512] = "";
    cz_fc_c1 c1;
    int rc = cz_fc_seal_ex(&c1, &sec, NULL, replica, &comm_c, err, sizeof err);
    cz_fc_tree *t = NULL;
    if (rc == CZ_OK)
        rc = cz_fc_tree_build(&t, CZ_FC_TREE_RC, shape, replica, NULL);
    if (rc == CZ_OK)
        rc = cz_post_vanilla_prove(v, s, pt->api, rand, id, idx, t, &comm_c, NULL, err, sizeof err);
    if (rc == CZ_OK) {
        *comm_r = c1.comm_r;
        if (memcmp(c1.comm_r.b, v->comm_r.b, 32) != 0) {
            snprintf(err, sizeof err, "the blob's comm_r is not the seal's");
            rc = CZ_ERR_BAD_PROOF;
        }
    }
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk post vanilla: sector %llu: %s\n", (unsigned long long)id,
                err[0] ? err : cz_strerror(rc));
    cz_fc_tree_free(t);
    cz_fc_c1_free(&c1);
    free(replica);
    return rc;
}

static int cmd_vanilla(const cz_cli_opts *o)
{
    const char *c = "post vanilla";
    if (!cz_cli_need(c, o->kind, "--kind") || !cz_cli_need(c, o->sector_size, "--sector-size") ||
        !cz_cli_need(c, o->out, "--out"))
        return 2;
    bool window = !strcmp(o->kind, "window");
    if (!window && strcmp(o->kind, "winning")) {
        fprintf(stderr, "cuzk %s: --kind %s: window or winning\n", c, o->kind);
        return 2;
    }
    const cz_fc_shape *shape = cz_cli_shape(o->sector_size, c);
    if (shape == NULL)
        return 2;
    uint64_t n = 1, first = 1, miner = 1000, k = 0, pid = window ? 10 + shape->id : shape->id;
    uint64_t seed = 0;
    uint8_t rand[32];
    cz_prng g;
    cz_prng_seed(&g, 1);
    cz_prng_bytes(&g, rand, 32);
    rand[31] &= 0x3f;
    if ((o->sectors && cz_cli_u64(&n, o->sectors, c, "--sectors")) ||
        (o->first_sector && cz_cli_u64(&first, o->first_sector, c, "--first-sector")) ||
        (o->miner_id && cz_cli_u64(&miner, o->miner_id, c, "--miner-id")) ||
        (o->partition && cz_cli_u64(&k, o->partition, c, "--partition")) ||
        (o->registered_proof && cz_cli_u64(&pid, o->registered_proof, c, "--registered-proof")) ||
        (o->synthetic && cz_cli_u64(&seed, o->synthetic, c, "--synthetic")) ||
        (o->randomness && cz_cli_hex32(rand, o->randomness, c, "--randomness")))
        return 2;
    const cz_post_proof_type *pt = cz_post_proof_by_id(pid);
    if (pt == NULL || pt->kind != (window ? CZ_POST_WINDOW : CZ_POST_WINNING) ||
        pt->size != shape->id) {
        fprintf(stderr, "cuzk %s: --registered-proof %llu is not a %s %s PoSt proof\n", c,
                (unsigned long long)pid, shape->name, o->kind);
        return 2;
    }
    cz_post_shape s;
    cz_post_shape_of(&s, pt->kind, shape);
    if (n == 0 || n > cz_post_max_blobs(&s) || k > UINT32_MAX || first + n < first) {
        fprintf(stderr, "cuzk %s: --sectors %llu: a %s %s partition has 1 to %u\n", c,
                (unsigned long long)n, shape->name, o->kind, cz_post_max_blobs(&s));
        return 2;
    }
    if (cz_post_randomness_check(rand) != CZ_OK) {
        fprintf(stderr, "cuzk %s: --randomness is not a field element\n", c);
        return 2;
    }
    if (!o->synthetic && shape->layers != 2) {
        fprintf(stderr,
                "cuzk %s: sealing in memory is for 2KiB, 8MiB and 512MiB; "
                "--synthetic SEED for the others\n",
                c);
        return 2;
    }
    if (mkdir(o->out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk %s: cannot create %s: %s\n", c, o->out, strerror(errno));
        return 2;
    }
    size_t bytes = cz_post_vanilla_bytes(&s);
    uint8_t *blob = malloc(bytes);
    if (blob == NULL)
        return 2;
    char hex[65];
    cz_cli_hex_of(hex, rand);
    cz_strbuf json;
    cz_jw w;
    cz_strbuf_init(&json);
    cz_jw_init(&w, &json);
    cz_jw_object(&w, NULL);
    cz_jw_u64(&w, "registered_proof", pid);
    cz_jw_u64(&w, "sector_size", shape->sector_size);
    cz_jw_str(&w, "randomness", hex);
    cz_jw_u64(&w, "partition_index", k);
    cz_jw_array(&w, "sectors");
    double t0 = cz_cli_now();
    int rc = CZ_OK;
    char err[512] = "";
    for (uint64_t i = 0; i < n && rc == CZ_OK; i++) {
        uint64_t id = first + i, idx = cz_post_sector_index(&s, (unsigned)k, i);
        cz_post_vanilla v = {0};
        cz_fc_d comm_r;
        if (o->synthetic) {
            rc = cz_post_vanilla_synth(&v, &s, pt->api, rand, id, idx, seed + i, NULL, err,
                                       sizeof err);
            if (rc != CZ_OK)
                fprintf(stderr, "cuzk %s: sector %llu: %s\n", c, (unsigned long long)id, err);
            comm_r = v.comm_r;
        } else {
            rc = seal_blob(&v, &s, pt, rand, miner, id, idx, &comm_r);
        }
        if (rc == CZ_OK &&
            (rc = cz_post_vanilla_verify(&s, pt->api, rand, idx, &v, err, sizeof err)) != CZ_OK)
            fprintf(stderr, "cuzk %s: sector %llu does not verify: %s\n", c, (unsigned long long)id,
                    err);
        if (rc == CZ_OK)
            rc = cz_post_vanilla_write(blob, bytes, &v, &s);
        if (rc == CZ_OK) {
            char path[4200];
            snprintf(path, sizeof path, "%s/vanilla-%llu.bin", o->out, (unsigned long long)i);
            if (cz_cli_write_file(path, blob, bytes, c) != 0)
                rc = CZ_ERR_IO;
            cz_cli_hex_of(hex, comm_r.b);
            cz_jw_object(&w, NULL);
            cz_jw_u64(&w, "id", id);
            cz_jw_str(&w, "comm_r", hex);
            cz_jw_end(&w);
        }
        cz_post_vanilla_free(&v);
    }
    if (rc == CZ_OK) {
        cz_jw_end(&w);
        cz_jw_end(&w);
        cz_strbuf_puts(&json, "\n");
        char path[4200];
        snprintf(path, sizeof path, "%s/post.json", o->out);
        if (json.failed || cz_cli_write_file(path, json.p, json.len, c) != 0)
            rc = CZ_ERR_IO;
    }
    if (rc == CZ_OK)
        fprintf(stderr,
                "post vanilla %s: %llu %s sector proof%s of %zu bytes (%s, each verified) in "
                "%.3f s, in %s\n",
                pt->name, (unsigned long long)n, shape->name, n == 1 ? "" : "s", bytes,
                o->synthetic ? "synthetic" : "sealed", cz_cli_now() - t0, o->out);
    free(blob);
    cz_strbuf_free(&json);
    return rc == CZ_OK ? 0 : 2;
}

/* The SNARK proof o->proof under o->vk for post.json's public sectors:
 * 0 valid, 1 invalid, 2 an error. */
static int verify_snark(const cz_cli_opts *o, const cz_tool_post_dir *p, const cz_post_shape *s)
{
    const char *c = "post verify";
    cz_groth16_pvk pvk;
    uint8_t *proof;
    size_t len;
    if (cz_cli_read_vk_proof(&pvk, &proof, &len, o->vk, o->proof, c) != 0)
        return 2;
    char err[512] = "";
    bool valid = false;
    double t0 = cz_cli_now();
    int rc = cz_post_verify(&pvk, proof, len, s, p->type->api, p->randomness, p->sectors,
                            p->req.n_vanilla, p->req.partition_index, &valid, err, sizeof err);
    if (cz_cli_verify_done(&pvk, proof, rc, err, c) != 0)
        return 2;
    if (!valid) {
        printf("invalid: %s\n", err);
        return 1;
    }
    fprintf(stderr, "post verify: %s, %zu sectors, SNARK verified in %.3f s\n", p->type->name,
            p->req.n_vanilla, cz_cli_now() - t0);
    return 0;
}

static int cmd_verify(const cz_cli_opts *o)
{
    const char *c = "post verify";
    if (!cz_cli_need(c, o->dir, "--dir"))
        return 2;
    if (!o->vk != !o->proof) {
        fprintf(stderr, "cuzk %s: --vk and --proof go together\n", c);
        return 2;
    }
    if (o->kind && strcmp(o->kind, "window") && strcmp(o->kind, "winning")) {
        fprintf(stderr, "cuzk %s: --kind %s: window or winning\n", c, o->kind);
        return 2;
    }
    cz_tool_post_dir p;
    if (cz_tool_post_dir_load(&p, o->dir, c) != 0)
        return 2;
    const char *kind = p.type->kind == CZ_POST_WINNING ? "winning" : "window";
    if (o->kind && strcmp(o->kind, kind)) {
        fprintf(stderr, "cuzk %s: --kind %s, but %s/post.json holds a %s PoSt (%s)\n", c, o->kind,
                o->dir, kind, p.type->name);
        cz_tool_post_dir_free(&p);
        return 2;
    }
    cz_post_shape s;
    cz_post_shape_of(&s, p.type->kind, cz_fc_shape_get(p.type->size));
    size_t n = p.req.n_vanilla;
    int ret = 0;
    char err[512] = "";
    if (n > cz_post_max_blobs(&s)) {
        printf("invalid: %zu sectors; a partition has at most %u\n", n, cz_post_max_blobs(&s));
        ret = 1;
    }
    for (size_t i = 0; i < n && ret == 0; i++) {
        cz_post_vanilla v;
        int rc = cz_post_vanilla_read(&v, &s, p.blobs[i], p.lens[i], NULL, err, sizeof err);
        uint64_t idx = cz_post_sector_index(&s, p.req.partition_index, i);
        if (rc == CZ_OK && (v.sector_id != p.sectors[i].sector_id ||
                            memcmp(v.comm_r.b, p.sectors[i].comm_r.b, 32))) {
            snprintf(err, sizeof err, "its sector id or comm_r is not post.json's");
            rc = CZ_ERR_BAD_PROOF;
        }
        if (rc == CZ_OK)
            rc = cz_post_vanilla_verify(&s, p.type->api, p.randomness, idx, &v, err, sizeof err);
        cz_post_vanilla_free(&v);
        if (rc != CZ_OK) {
            printf("invalid: vanilla-%zu.bin (sector %llu): %s\n", i,
                   (unsigned long long)p.sectors[i].sector_id, err);
            ret = 1;
        }
    }
    if (ret == 0 && o->proof)
        ret = verify_snark(o, &p, &s);
    if (ret == 0)
        printf("valid\n");
    cz_tool_post_dir_free(&p);
    return ret;
}

int cz_tool_post_vanilla(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    return cz_cli_parse(self, argc, argv, &o) < 0 ? 2 : cmd_vanilla(&o);
}

int cz_tool_post_verify(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    return cz_cli_parse(self, argc, argv, &o) < 0 ? 2 : cmd_verify(&o);
}
