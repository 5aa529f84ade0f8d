/* cuzk snap encode and snap verify: an EmptySectorUpdate (SnapDeals) of a
 * small sector, and the vanilla verification of its partition proofs
 * (include/cuzk/filecoin/snap.h: cz_fc_snap_*).
 *
 *   cuzk snap encode --sector-size 2KiB|8MiB --out DIR
 *       [--miner-id M] [--sector-id N] [--ticket HEX] [--seed HEX]
 *       [--new-data FILE | --new-data-seed S] [--h H]
 *     seals a CC sector of StackedDrg<size>V1_1 in memory (as `porep
 *     seal`), encodes the new data into its replica, and writes
 *     DIR/update.json (sector size, h, partitions, comm_r_old, comm_d_new,
 *     comm_r_new) and DIR/vanilla-K.bin, partition K's vanilla proof in
 *     bincode (one blob per partition, as Curio sends them); each proof is
 *     verified before it is written.  New data: an Fr32-padded sector
 *     file, raw bytes (padded here, zero-filled), or --new-data-seed S
 *     (default 1) for random raw bytes.
 *
 *   cuzk snap encode --sector-size SIZE --synthetic SEED --out DIR [--h H]
 *     the same files for a synthetic update of any size (2KiB .. 64GiB:
 *     cz_fc_snap_sector_synth, seconds at 32GiB), consistent in every
 *     check of the vanilla verifier and the circuit: the benchmarks'
 *     input where no sector can be sealed in memory.
 *
 *   cuzk snap verify --sector-size S --comm-r-old HEX
 *       --comm-d-new HEX --comm-r-new HEX [--h H] [FILE...]
 *       [--vk VK --proof PROOF]
 *     vanilla-verifies the partition proofs FILE... (partition 0, 1, ..
 *     in order, every partition of the sector), and with --proof verifies
 *     the SNARK proof PROOF (partitions x 192 bytes, as the daemon and
 *     filecoin-proofs return it) under the verifying key VK, as
 *     verify_empty_sector_update_proof does (the shape's h; --h is for
 *     the vanilla proofs): exit 0 and "valid", 1 and "invalid: REASON", 2
 *     for a usage error or an unreadable file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/rand.h"
#include "tool/tool.h"
#include "util/json_write.h"

/* The shape pair of --sector-size and h (default the shape's). */
static int shapes(const cz_cli_opts *o, const char *cmd, const cz_fc_shape **shape,
                  cz_fc_snap_shape *u, unsigned *h)
{
    if (!cz_cli_need(cmd, o->sector_size, "--sector-size") ||
        (*shape = cz_cli_shape(o->sector_size, cmd)) == NULL)
        return -1;
    if (cz_fc_snap_shape_of(u, (uint64_t)1 << (*shape)->log_nodes) != CZ_OK) {
        fprintf(stderr, "cuzk %s: no update proof for %s sectors\n", cmd, (*shape)->name);
        return -1;
    }
    *h = u->h;
    uint64_t v;
    if (o->h) {
        if (cz_cli_u64(&v, o->h, cmd, "--h") != 0)
            return -1;
        if (v > 64 || cz_fc_snap_h_select(u, (unsigned)v) == 0) {
            fprintf(stderr, "cuzk %s: --h %s: a %s update allows h in %u..%u\n", cmd, o->h,
                    (*shape)->name, u->hs[0], u->hs[5]);
            return -1;
        }
        *h = (unsigned)v;
    }
    return 0;
}

/* The new data as Fr32-padded nodes (n nodes). */
static cz_fc_d *new_data(const cz_cli_opts *o, size_t n)
{
    size_t padded = n * 32, raw_len = padded / 128 * 127;
    uint8_t *raw = calloc(raw_len, 1);
    cz_fc_d *d = malloc(padded);
    if (raw == NULL || d == NULL) {
        fprintf(stderr, "cuzk snap encode: out of memory for the new data\n");
        free(raw), free(d);
        return NULL;
    }
    if (o->new_data) {
        size_t len;
        uint8_t *f = cz_cli_read_file(o->new_data, &len, "snap encode");
        if (f && len == padded) {
            int rc = cz_fc_fr32_unpad(raw, f, len);
            free(f);
            if (rc != CZ_OK) {
                fprintf(stderr,
                        "cuzk snap encode: %s has the sector's size but is not Fr32-"
                        "padded\n",
                        o->new_data);
                free(raw), free(d);
                return NULL;
            }
        } else if (f == NULL || len > raw_len) {
            if (f)
                fprintf(stderr,
                        "cuzk snap encode: %s has %zu bytes; the sector holds %zu raw "
                        "bytes (or exactly %zu padded ones)\n",
                        o->new_data, len, raw_len, padded);
            free(f), free(raw), free(d);
            return NULL;
        } else {
            memcpy(raw, f, len);
            free(f);
        }
    } else {
        uint64_t s = 1;
        if (o->new_data_seed &&
            cz_cli_u64(&s, o->new_data_seed, "snap encode", "--new-data-seed") != 0) {
            free(raw), free(d);
            return NULL;
        }
        cz_prng g;
        cz_prng_seed(&g, s);
        cz_prng_bytes(&g, raw, raw_len);
    }
    cz_fc_fr32_pad((uint8_t *)d, raw, raw_len);
    free(raw);
    return d;
}

/* Writes x's partition proofs (each verified first) and update.json into
 * o->out.  0 or 2. */
static int write_update(const cz_cli_opts *o, const cz_fc_shape *shape, const cz_fc_snap_shape *u,
                        unsigned h, const cz_fc_snap_sector *x, double t_build)
{
    mkdir(o->out, 0755);
    char err[512];
    double t2 = cz_cli_now();
    size_t bytes = cz_fc_snap_proof_bytes(u);
    uint8_t *blob = malloc(bytes);
    int rc = blob ? CZ_OK : CZ_ERR_NOMEM;
    cz_fc_snap_public pub;
    for (unsigned k = 0; k < u->partitions && !rc; k++) {
        cz_fc_snap_partition_proof p;
        cz_fc_snap_sector_public(x, k, &pub);
        rc = cz_fc_snap_sector_prove(x, k, &p, NULL);
        if (!rc && (rc = cz_fc_snap_verify(u, &pub, &p, err, sizeof err)))
            fprintf(stderr, "cuzk snap encode: partition %u does not verify: %s\n", k, err);
        if (!rc)
            rc = cz_fc_snap_proof_write(blob, bytes, &p, u);
        cz_fc_snap_proof_free(&p);
        char path[4096];
        snprintf(path, sizeof path, "%s/vanilla-%u.bin", o->out, k);
        if (!rc && cz_cli_write_file(path, blob, bytes, "snap encode") != 0)
            rc = CZ_ERR_IO;
    }
    double t3 = cz_cli_now();
    if (!rc) {
        char a[65], d[65], b[65], path[4096];
        cz_cli_hex_of(a, pub.comm_r_old.b);
        cz_cli_hex_of(d, pub.comm_d_new.b);
        cz_cli_hex_of(b, pub.comm_r_new.b);
        printf("comm_r_old %s\ncomm_d_new %s\ncomm_r_new %s\n", a, d, b);
        cz_strbuf json;
        cz_jw w;
        cz_strbuf_init(&json);
        cz_jw_init(&w, &json);
        cz_jw_object(&w, NULL);
        cz_jw_u64(&w, "sector_size", shape->sector_size);
        cz_jw_u64(&w, "h", h);
        cz_jw_u64(&w, "partitions", u->partitions);
        cz_jw_str(&w, "comm_r_old", a);
        cz_jw_str(&w, "comm_d_new", d);
        cz_jw_str(&w, "comm_r_new", b);
        cz_jw_end(&w);
        cz_strbuf_puts(&json, "\n");
        snprintf(path, sizeof path, "%s/update.json", o->out);
        if (json.failed || cz_cli_write_file(path, json.p, json.len, "snap encode") != 0)
            rc = CZ_ERR_IO;
        cz_strbuf_free(&json);
        fprintf(stderr,
                "snap encode %s: %s %.3f s, %u partition proofs of %zu bytes %.3f s (each "
                "verified), in %s\n",
                shape->name, o->synthetic ? "synthetic update" : "seal, encode + trees", t_build,
                u->partitions, bytes, t3 - t2, o->out);
    }
    free(blob);
    return rc ? 2 : 0;
}

/* A synthetic update of any size (cz_fc_snap_sector_synth). */
static int encode_synthetic(const cz_cli_opts *o, const cz_fc_shape *shape,
                            const cz_fc_snap_shape *u, unsigned h)
{
    uint64_t seed;
    if (cz_cli_u64(&seed, o->synthetic, "snap encode", "--synthetic") != 0)
        return 2;
    if (o->new_data || o->new_data_seed || o->ticket || o->seed || o->miner_id || o->sector_id) {
        fprintf(stderr, "cuzk snap encode: --synthetic takes no sector or data options\n");
        return 2;
    }
    double t0 = cz_cli_now();
    cz_fc_snap_sector *x;
    int rc = cz_fc_snap_sector_synth(&x, shape, u, seed, h, NULL);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk snap encode: the synthetic update failed: %s\n", cz_strerror(rc));
        return 2;
    }
    rc = write_update(o, shape, u, h, x, cz_cli_now() - t0);
    cz_fc_snap_sector_free(x);
    return rc;
}

static int cmd_encode(const cz_cli_opts *o)
{
    const cz_fc_shape *shape;
    cz_fc_snap_shape u;
    unsigned h;
    if (shapes(o, "snap encode", &shape, &u, &h) != 0 ||
        !cz_cli_need("snap encode", o->out, "--out"))
        return 2;
    if (o->synthetic)
        return encode_synthetic(o, shape, &u, h);
    if (o->new_data && o->new_data_seed) {
        fprintf(stderr, "cuzk snap encode: --new-data and --new-data-seed exclude each other\n");
        return 2;
    }
    if (shape->layers != 2) {
        fprintf(stderr, "cuzk snap encode: sealing in memory is for 2KiB, 8MiB and 512MiB\n");
        return 2;
    }
    cz_fc_sector sec = {.proof_type = cz_fc_proof_default(shape), .sector_id = 1};
    uint64_t v = 1000;
    if ((o->miner_id && cz_cli_u64(&v, o->miner_id, "snap encode", "--miner-id") != 0) ||
        (o->sector_id &&
         cz_cli_u64(&sec.sector_id, o->sector_id, "snap encode", "--sector-id") != 0) ||
        (o->ticket && cz_cli_hex32(sec.ticket, o->ticket, "snap encode", "--ticket") != 0) ||
        (o->seed && cz_cli_hex32(sec.seed, o->seed, "snap encode", "--seed") != 0))
        return 2;
    cz_fc_prover_id(sec.prover_id, v);
    size_t n = (size_t)u.sector_nodes;
    cz_fc_d *data = new_data(o, n), *replica = malloc(n * sizeof *replica), comm_c;
    if (data == NULL || replica == NULL) {
        free(data), free(replica);
        return 2;
    }
    char err[512];
    cz_fc_c1 c1;
    double t0 = cz_cli_now();
    int rc = cz_fc_seal_ex(&c1, &sec, NULL, replica, &comm_c, err, sizeof err);
    cz_fc_snap_sector *x = NULL;
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk snap encode: %s\n", err);
    else if ((rc = cz_fc_snap_sector_new(&x, shape, &u, replica, data, &comm_c, h, NULL)))
        fprintf(stderr, "cuzk snap encode: the update failed: %s\n", cz_strerror(rc));
    if (!rc)
        rc = write_update(o, shape, &u, h, x, cz_cli_now() - t0) ? CZ_ERR_IO : CZ_OK;
    cz_fc_snap_sector_free(x);
    cz_fc_c1_free(&c1); /* zeroed when the seal failed */
    free(data);
    free(replica);
    return rc ? 2 : 0;
}

/* The SNARK proof o->proof under o->vk: 0 valid, 1 invalid, 2 error. */
static int verify_snark(const cz_cli_opts *o, const cz_fc_snap_shape *u,
                        const cz_fc_snap_public *pub)
{
    const char *c = "snap verify";
    char err[512] = "";
    cz_groth16_pvk pvk;
    uint8_t *proofs;
    size_t len;
    if (cz_cli_read_vk_proof(&pvk, &proofs, &len, o->vk, o->proof, c) != 0)
        return 2;
    int rc;
    bool valid = false;
    double t0 = cz_cli_now();
    rc = cz_fc_verify_snap(&pvk, proofs, len, u, &pub->comm_r_old, &pub->comm_d_new,
                           &pub->comm_r_new, &valid, err, sizeof err);
    double dt = cz_cli_now() - t0;
    if (cz_cli_verify_done(&pvk, proofs, rc, err, c) != 0)
        return 2;
    fprintf(stderr, "snap verify: %u partitions, SNARK verified in %.3f s\n", u->partitions, dt);
    if (!valid) {
        printf("invalid: %s\n", err);
        return 1;
    }
    return 0;
}

static int cmd_verify(const cz_cli_cmd *self, const cz_cli_opts *o, int nfiles, char **files)
{
    const char *c = "snap verify";
    const cz_fc_shape *shape;
    cz_fc_snap_shape u;
    unsigned h;
    cz_fc_snap_public pub;
    if (shapes(o, c, &shape, &u, &h) != 0 || !cz_cli_need(c, o->comm_r_old, "--comm-r-old") ||
        !cz_cli_need(c, o->comm_d_new, "--comm-d-new") ||
        !cz_cli_need(c, o->comm_r_new, "--comm-r-new") ||
        cz_cli_hex32(pub.comm_r_old.b, o->comm_r_old, c, "--comm-r-old") != 0 ||
        cz_cli_hex32(pub.comm_d_new.b, o->comm_d_new, c, "--comm-d-new") != 0 ||
        cz_cli_hex32(pub.comm_r_new.b, o->comm_r_new, c, "--comm-r-new") != 0)
        return 2;
    if (!o->vk != !o->proof) {
        fprintf(stderr, "cuzk %s: --vk and --proof go together\n", c);
        return 2;
    }
    if (nfiles == 0 && !o->proof) {
        fprintf(stderr, "cuzk %s: nothing to verify: vanilla proof files, or --vk and --proof\n",
                c);
        cz_cli_usage(stderr, self);
        return 2;
    }
    if (nfiles != 0 && (unsigned)nfiles != u.partitions) {
        fprintf(stderr, "cuzk %s: %d proof files; a %s update has %u partitions\n", c, nfiles,
                shape->name, u.partitions);
        return 2;
    }
    pub.h = h;
    for (int k = 0; k < nfiles; k++) {
        size_t len;
        uint8_t *b = cz_cli_read_file(files[k], &len, c);
        if (b == NULL)
            return 2;
        cz_fc_snap_partition_proof p;
        char err[512];
        int rc = cz_fc_snap_proof_read(&p, &u, b, len, NULL, err, sizeof err);
        free(b);
        if (rc == CZ_OK) {
            pub.k = (unsigned)k;
            rc = cz_fc_snap_verify(&u, &pub, &p, err, sizeof err);
            cz_fc_snap_proof_free(&p);
        }
        if (rc != CZ_OK) {
            printf("invalid: partition %d (%s): %s\n", k, files[k], err);
            return 1;
        }
    }
    if (o->proof) {
        int rc = verify_snark(o, &u, &pub);
        if (rc != 0)
            return rc;
    }
    printf("valid\n");
    return 0;
}

int cz_tool_snap_encode(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    return cz_cli_parse(self, argc, argv, &o) < 0 ? 2 : cmd_encode(&o);
}

int cz_tool_snap_verify(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    int n = cz_cli_parse(self, argc, argv, &o);
    return n < 0 ? 2 : cmd_verify(self, &o, n, argv + 1);
}
