/* Filecoin proof families: one table row each (families.c), read by the
 * engine's one generic kind (kind_family.c); internal to src/engine.
 *
 * A family supplies what is its own, as hooks (family_<p>.c): the
 * registered proofs it proves and their sector shapes, its circuit's
 * parameter files and counts, the request's other fields checked and
 * decoded (its vanilla check), its witness and the public inputs its
 * verifier computes.  The generic kind does the rest, alike for every
 * family (as rust-fil-proofs' CompoundProof does the plumbing around an
 * implementation's circuit and public inputs):
 *
 *   check       a param cache is configured (else CZ_ERR_UNSUPPORTED,
 *               "<what> needs a param cache"), the registered proof known
 *               (proof), the sector size, when given, its; the family's
 *               check; the circuit id "<prefix><size>" ("porep-32g"), and
 *               when that circuit is not cached its three files in the
 *               param cache (a missing one named with the command that
 *               makes it); digest: the registered proof, then the family's
 *   admit       the family's, its input in the request pool
 *   of_circuit  the sector shape of "<prefix><size>", the files there
 *   load        the parameter set <param_cache>/<base>.params, .vk, .pce,
 *               the whole load reserved in one request and checked
 *               (cz_fc_param_files_load: digests, the .vk, the counts)
 *   synthesize  the family's witness, then its public inputs compared
 *               with the ones its verifier computes: the proof that
 *               leaves is one the chain accepts, not only one that
 *               verifies against its own witness
 *   enabled     a param cache is configured
 *
 * Adding a family: its circuit, witness, vanilla verifier and public
 * inputs (src/filecoin), its hooks, and a row. */
#ifndef CZ_ENGINE_FAMILY_H
#define CZ_ENGINE_FAMILY_H

#include "cuzk/filecoin/core.h"
#include "engine/engine_internal.h"

struct cz_eng_family;

/* A request's registered proof. */
typedef struct {
    uint64_t id;
    uint64_t sector_size; /* the request's: 0 not given */
    const cz_fc_shape *sector;
    const char *name; /* "StackedDrg32GiBV1_1" */
} cz_eng_proof;

/* What a family's admit works with. */
typedef struct {
    cz_engine *e;
    const struct cz_eng_family *f;
    const void *req; /* cz_job_request.input */
    const cz_fc_shape *sector;
    cz_pool *pool;             /* the job's synthesis pool: vanilla checks */
    const cz_allocator *alloc; /* the request pool's: the decoded input */
} cz_eng_admit;

/* A family's hooks. */
typedef struct {
    size_t input_size; /* bytes of its decoded input */
    /* req's registered proof into *p: CZ_OK, or CZ_ERR_INVALID_ARG with err
     * saying which numbers are the family's */
    int (*proof)(const struct cz_eng_family *f, const void *req, cz_eng_proof *p, char *err,
                 size_t errlen);
    /* the circuit for sector shape s: its parameter files' base name, and
     * unless n_in is NULL its inputs (ONE included) and auxiliaries */
    int (*circuit)(const struct cz_eng_family *f, const cz_fc_shape *s,
                   char base[CZ_FC_PARAMS_NAME], size_t *n_in, size_t *n_aux);
    /* req's other fields well-formed (cheap, no decoding): its partition
     * count, what else determines its proofs fed into h */
    int (*check)(const struct cz_eng_family *f, const void *req, const cz_eng_proof *p,
                 uint32_t *n_parts, cz_sha256_ctx *h, char *err, size_t errlen);
    /* the input decoded (through a->alloc) and vanilla-checked into in
     * (input_size bytes, zeroed); release frees what it holds, whether
     * admit succeeded or not */
    int (*admit)(const cz_eng_admit *a, void *in, char *err, size_t errlen);
    void (*release)(void *in);
    /* partition k's witness into w on pool: CZ_OK; CZ_ERR_BAD_PROOF when
     * the input is found bad (why the job's message as it stands); else
     * why says what failed */
    int (*witness)(const struct cz_eng_family *f, const void *in, unsigned k, cz_fr *w, size_t n_w,
                   cz_pool *pool, char *why, size_t whylen);
    /* the public inputs (after ONE) the verifier computes for partition k
     * into out, and their count into *n (out NULL: the count only) */
    int (*public_inputs)(const void *in, unsigned k, cz_fr *out, size_t *n);
} cz_eng_family_hooks;

/* The hooks of family p (its decoded input of type T), named after it. */
#define CZ_ENG_FAMILY_HOOKS(p, T)                                                                  \
    {                                                                                              \
        sizeof(T), p##_proof, p##_circuit, p##_check, p##_admit, p##_release, p##_witness,         \
            p##_public_inputs                                                                      \
    }

extern const cz_eng_family_hooks cz_eng_porep_hooks, cz_eng_snap_hooks, cz_eng_post_hooks;

/* A family's row: its kind's row first (the kinds table points at it; the
 * generic functions take j->k as the row it begins), what messages call
 * the family, the --circuit of `cuzk params` that makes its files,
 * the Filecoin verifier whose public inputs its witness carries, its
 * hooks and their variant (PoSt: the cz_post_kind). */
typedef struct cz_eng_family {
    cz_eng_kind kind;
    const char *what, *params_circuit, *verifier;
    const cz_eng_family_hooks *h;
    int variant;
} cz_eng_family;

enum { CZ_ENG_POREP, CZ_ENG_SNAP, CZ_ENG_WINDOW_POST, CZ_ENG_WINNING_POST, CZ_ENG_FAMILIES };
extern const cz_eng_family cz_eng_families[CZ_ENG_FAMILIES];

/* The generic kind's functions (kind.h's contract): a family kind's. */
int cz_eng_family_check(cz_engine *e, const cz_job_request *req, job *j, cz_sha256_ctx *h,
                        char *err, size_t errlen);
int cz_eng_family_admit(cz_engine *e, const cz_job_request *req, job *j, char *err, size_t errlen);
void cz_eng_family_release(job *j);
int cz_eng_family_of_circuit(cz_engine *e, const char *id, job *j, char *err, size_t errlen);
int cz_eng_family_load(cz_engine *e, circuit *c, const job *j);
int cz_eng_family_synthesize(cz_engine *e, const job *j, part *p, char *msg, size_t msglen);
bool cz_eng_family_enabled(const cz_engine *e);

/* For a family whose input is one blob per partition or sector
 * (vanilla_proofs[i]): blob i's step, on the input being admitted, why
 * saying what failed. */
typedef int cz_eng_blob_fn(const cz_eng_admit *a, void *in, size_t i, char *why, size_t whylen);
/* Each blob's length and bytes into h. */
void cz_eng_digest_blobs(cz_sha256_ctx *h, const uint8_t *const *b, const size_t *len, size_t n);
/* read(i) for i = 0 .. n - 1, in order, stopping at the first failure:
 * the request pool full (CZ_ERR_NOMEM: CZ_ERR_LIMIT, err saying so) or
 * its code with err "vanilla_proofs[i]: <why>"; then check(i) for every i
 * at once on a->pool: CZ_OK; else for the first (by index) that failed,
 * *bad = i and: a proof that does not verify (CZ_ERR_BAD_PROOF,
 * CZ_ERR_NOT_CANONICAL, CZ_ERR_INVALID_ARG) CZ_ERR_BAD_PROOF with why for
 * the family's message; another error as it is, err "vanilla_proofs[i]:
 * verifying it failed: <why>". */
int cz_eng_admit_blobs(const cz_eng_admit *a, void *in, size_t n, cz_eng_blob_fn *read,
                       cz_eng_blob_fn *check, size_t *bad, char *why, size_t whylen, char *err,
                       size_t errlen);

#endif
