/* The SnapDeals family: an EmptySectorUpdate proof from its vanilla
 * partition proofs (cuzk/engine.h cz_job_snap; family.h).
 *
 *   proof      a RegisteredUpdateProof (0..4) and its sector shape
 *   check      one vanilla proof per partition of the sector's size, each
 *              of the shape's length, the commitments readable (32 bytes
 *              or their CIDs, field elements); digest: the sector number,
 *              miner id, the commitments and every vanilla proof
 *   admit      each partition proof read strictly into the request pool,
 *              then all vanilla-verified (cz_fc_snap_verify) with the
 *              commitments and the shape's h, in parallel on the
 *              synthesis pool
 *   circuit    "snap-<size>", Filecoin's parameter names
 *              (cz_fc_snap_params_name), cz_fc_snap_counts
 *   witness    cz_fc_snap_witness (challenges in parallel); its public
 *              inputs verify_empty_sector_update_proof's
 *              (cz_fc_snap_public_inputs) */
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "engine/family.h"

typedef struct {
    cz_fc_snap_shape u;
    cz_fc_snap_public pub;              /* k set per partition */
    cz_fc_snap_partition_proof *proofs; /* one per partition (zeroed: unread) */
} snap_input;

static void snap_release(void *p)
{
    snap_input *in = p;
    for (unsigned k = 0; in->proofs && k < in->u.partitions; k++)
        cz_fc_snap_proof_free(&in->proofs[k]);
    free(in->proofs);
}

static const char *const UPDATE_NAME[CZ_FC__SHAPES] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1",
                                                       "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                                                       "StackedDrg64GiBV1"};

static int snap_proof(const cz_eng_family *f, const void *req, cz_eng_proof *p, char *err,
                      size_t errlen)
{
    const cz_job_snap *r = req;
    const cz_fc_shape *s = cz_fc_snap_proof_shape(r->registered_proof);
    *p = (cz_eng_proof){r->registered_proof, r->sector_size, s, s ? UPDATE_NAME[s->id] : NULL};
    return s ? CZ_OK
             : cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "registered_proof %llu is not a RegisteredUpdateProof (0..4: StackedDrg "
                       "2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1)",
                       (unsigned long long)r->registered_proof);
}

/* The update circuit's shape (every sector size has one). */
static cz_fc_snap_shape update_shape(const cz_fc_shape *s)
{
    cz_fc_snap_shape u;
    cz_fc_snap_shape_of(&u, (uint64_t)1 << s->log_nodes);
    return u;
}

static int snap_circuit(const cz_eng_family *f, const cz_fc_shape *s, char base[CZ_FC_PARAMS_NAME],
                        size_t *n_in, size_t *n_aux)
{
    cz_fc_snap_shape u = update_shape(s);
    cz_fc_snap_params_name(base, &u);
    return n_in ? cz_fc_snap_counts(&u, n_in, n_aux) : CZ_OK;
}

/* The three commitments of r into pub: CZ_OK, or the reader's error with
 * err naming the field. */
static int commitments(const cz_job_snap *r, cz_fc_snap_public *pub, char *err, size_t errlen)
{
    const struct {
        const char *name;
        cz_fc_comm_kind kind;
        const uint8_t *b;
        size_t len;
        cz_fc_d *out;
    } f[3] = {
        {"comm_r_old", CZ_FC_COMM_R, r->comm_r_old, r->comm_r_old_len, &pub->comm_r_old},
        {"comm_d_new", CZ_FC_COMM_D, r->comm_d_new, r->comm_d_new_len, &pub->comm_d_new},
        {"comm_r_new", CZ_FC_COMM_R, r->comm_r_new, r->comm_r_new_len, &pub->comm_r_new},
    };
    for (int i = 0; i < 3; i++) {
        char why[300];
        if (f[i].b == NULL || f[i].len == 0)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: missing (32 bytes, or its CID)",
                           f[i].name);
        if (cz_fc_commitment_read(f[i].out, f[i].kind, f[i].b, f[i].len, why, sizeof why) != CZ_OK)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "%s: %s", f[i].name, why);
    }
    return CZ_OK;
}

static int snap_check(const cz_eng_family *f, const void *req, const cz_eng_proof *p,
                      uint32_t *n_parts, cz_sha256_ctx *h, char *err, size_t errlen)
{
    const cz_job_snap *r = req;
    cz_fc_snap_shape u = update_shape(p->sector);
    if (r->n_vanilla != u.partitions)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proofs: %zu given; a %s update has %u partitions, one vanilla "
                       "PartitionProof each",
                       r->n_vanilla, p->sector->name, u.partitions);
    size_t want = cz_fc_snap_proof_bytes(&u);
    for (unsigned k = 0; k < u.partitions; k++)
        if (r->vanilla_len[k] != want)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "vanilla_proofs[%u]: %zu bytes; a %s partition proof in bincode is "
                           "%zu bytes",
                           k, r->vanilla_len[k], p->sector->name, want);
    cz_fc_snap_public pub;
    int rc = commitments(r, &pub, err, errlen);
    if (rc != CZ_OK)
        return rc;
    *n_parts = u.partitions;
    cz_sha256_update_u64(h, r->sector_number);
    cz_sha256_update_u64(h, r->miner_id);
    cz_sha256_update(h, pub.comm_r_old.b, 32);
    cz_sha256_update(h, pub.comm_d_new.b, 32);
    cz_sha256_update(h, pub.comm_r_new.b, 32);
    cz_eng_digest_blobs(h, r->vanilla, r->vanilla_len, r->n_vanilla);
    return CZ_OK;
}

static int read_proof(const cz_eng_admit *a, void *p, size_t k, char *why, size_t whylen)
{
    const cz_job_snap *r = a->req;
    snap_input *in = p;
    return cz_fc_snap_proof_read(&in->proofs[k], &in->u, r->vanilla[k], r->vanilla_len[k], a->alloc,
                                 why, whylen);
}

static int verify_proof(const cz_eng_admit *a, void *p, size_t k, char *why, size_t whylen)
{
    const snap_input *in = p;
    cz_fc_snap_public pub = in->pub;
    pub.k = (unsigned)k;
    return cz_fc_snap_verify(&in->u, &pub, &in->proofs[k], why, whylen);
}

static int snap_admit(const cz_eng_admit *a, void *p, char *err, size_t errlen)
{
    snap_input *in = p;
    in->u = update_shape(a->sector);
    int rc = commitments(a->req, &in->pub, err, errlen);
    if (rc != CZ_OK)
        return rc;
    in->pub.h = in->u.h;
    if ((in->proofs = calloc(in->u.partitions, sizeof *in->proofs)) == NULL)
        return CZ_ERR_NOMEM;
    size_t k;
    char why[400];
    rc = cz_eng_admit_blobs(a, in, in->u.partitions, read_proof, verify_proof, &k, why, sizeof why,
                            err, errlen);
    if (rc == CZ_ERR_BAD_PROOF)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "vanilla_proofs[%zu]: the partition proof does not verify against "
                       "comm_r_old, comm_d_new and comm_r_new: %s",
                       k, why);
    return rc;
}

static int snap_witness(const cz_eng_family *f, const void *p, unsigned k, cz_fr *w, size_t n_w,
                        cz_pool *pool, char *why, size_t whylen)
{
    const snap_input *in = p;
    cz_fc_snap_public pub = in->pub;
    pub.k = k;
    return cz_fc_snap_witness(w, n_w, &in->u, &pub, &in->proofs[k], pool, why, whylen);
}

static int snap_public_inputs(const void *p, unsigned k, cz_fr *out, size_t *n)
{
    const snap_input *in = p;
    cz_fc_snap_public pub = in->pub;
    pub.k = k;
    *n = CZ_FC_SNAP_INPUTS;
    return out ? cz_fc_snap_public_inputs(out, &in->u, &pub) : CZ_OK;
}

const cz_eng_family_hooks cz_eng_snap_hooks = CZ_ENG_FAMILY_HOOKS(snap, snap_input);
