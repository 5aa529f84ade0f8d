/* Job kinds: what the engine asks of each (internal to src/engine).
 *
 * A kind is one table row; the engine's parts call only these functions and
 * never branch on a job's kind:
 *
 *   name        the engine's ("porep"); queue its queue's in GetStatus,
 *               priority the one an unset request priority means
 *               (cz_job_kind_queue, cz_job_kind_priority)
 *   check       at submit, before the id is looked up: the request is
 *               well-formed; fills the job's circuit id and partition count
 *               and feeds what determines its proofs into the digest
 *               (idempotency).  Cheap, without e->mu.
 *   admit       once the job is provisionally admitted: its input decoded,
 *               once, into tracked memory of the request pool (j->in) and
 *               validated (a PoRep C1 is vanilla-verified here), outside
 *               e->mu.  NULL: nothing to decode.
 *   release     frees j->in (the request pool gets it back).
 *   of_circuit  for an id beginning with circuit_prefix (the ids the kind
 *               loads): CZ_OK and the private job record j of
 *               cz_engine_preload filled (j->in, whatever load needs), or
 *               an error with err set (CZ_ERR_NOT_FOUND: no such circuit;
 *               a kind turned off, no param cache, a missing file).  NULL
 *               (and circuit_prefix NULL): the kind's circuits are
 *               registered, never loaded by id.
 *   load        loads circuit c for j (parameters, R1CS, c->resv holding
 *               their bytes: the whole load reserved in one request, then
 *               shrunk).  NULL: registered circuits only (a job whose
 *               circuit is not cached fails: not registered).
 *   synth_extra bytes a partition's synthesis holds besides its witness
 *               (given the witness's bytes), reserved with it and given
 *               back when synthesis ends.
 *   synthesize  partition p->idx's witness into p->w (p->n_w values of
 *               circuit p->c), checked as the kind can; msg on failure.
 *   enabled     whether the engine accepts the kind's jobs as configured
 *               (check refuses them otherwise): the status reports it.
 *               NULL: always.
 *
 * The kinds: kind_synthetic.c, kind_groth16.c, and the Filecoin proof
 * families' (family.h): one generic kind (kind_family.c) over the family
 * table (families.c), each row beginning with its kind's. */
#ifndef CZ_ENGINE_KIND_H
#define CZ_ENGINE_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/sha256.h"

struct job;
struct part;
struct circuit;

typedef struct cz_eng_kind {
    cz_job_kind kind;
    const char *name, *queue;
    cz_priority priority;
    const char *circuit_prefix;
    int (*check)(cz_engine *e, const cz_job_request *req, struct job *j, cz_sha256_ctx *digest,
                 char *err, size_t errlen);
    int (*admit)(cz_engine *e, const cz_job_request *req, struct job *j, char *err,
                 size_t errlen);
    void (*release)(struct job *j);
    int (*of_circuit)(cz_engine *e, const char *id, struct job *j, char *err, size_t errlen);
    int (*load)(cz_engine *e, struct circuit *c, const struct job *j);
    uint64_t (*synth_extra)(const struct job *j, size_t w_bytes);
    int (*synthesize)(cz_engine *e, const struct job *j, struct part *p, char *msg,
                      size_t msglen);
    bool (*enabled)(const cz_engine *e);
} cz_eng_kind;

extern const cz_eng_kind cz_eng_kind_synthetic, cz_eng_kind_groth16;

/* The kind of k, NULL if none. */
const cz_eng_kind *cz_eng_kind_of(cz_job_kind k);
/* The kinds in cz_job_kind order (cz_eng_kinds[k - 1]->kind == k, so per-kind
 * figures are indexed by kind - 1), NULL-terminated. */
extern const cz_eng_kind *const cz_eng_kinds[];

#endif
