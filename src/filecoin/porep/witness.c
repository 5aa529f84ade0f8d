/* Witness-only synthesis of a PoRep partition, its work in parallel (see
 * cuzk/filecoin/porep.h cz_fc_porep_witness).
 *
 * The circuit's shape does not depend on its values: every challenge
 * allocates the same inputs and auxiliaries, and so does each of its
 * segments (circuit.h: the prefix, the label of each layer, the
 * suffix), so it is a header and alike parts (cuzk/cs.h cz_cs_parts):
 * the header runs first on the calling thread; then, in parallel, every
 * challenge's prefix and every (challenge, layer) label (the labels take
 * the rows, the challenge and the data leaf from the C1:
 * cz_porep_chal_from_proof), 18 + 198 pieces for 32GiB rather than 18
 * challenges over 16 cores; then the suffixes, which read the labels.
 * Nothing else is allocated but a ~120 KB scratch per thread and ~10 KB
 * per challenge. */
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "filecoin/porep/circuit.h"

typedef struct {
    const cz_fc_porep_dims *d;
    const cz_fc_c1 *c1; /* NULL: the blank circuit */
    unsigned k;
    cz_porep_header h;
    cz_porep_chal *st; /* per challenge: from the proof, the labels then written */
} wit;

/* A thread's own: the label's message bits, and the prefix's state (the
 * challenges' are being written by the labels meanwhile). */
typedef struct {
    cz_bool bits[CZ_POREP_SCRATCH_BITS];
    cz_porep_chal prefix;
} scratch;

static int header(void *ctx, cz_cs *cs)
{
    wit *j = ctx;
    return cz_porep_header_synth(cs, j->c1, &j->h);
}

/* Segment 0 the prefix, 1 .. L the labels, L + 1 the suffix.  The blank
 * circuit's run is sequential: there the labels read what the prefix
 * left (allocated bits, which the label's SHA-256 does not fold). */
static int segment(void *ctx, cz_cs *cs, size_t i, unsigned seg, void *mem)
{
    wit *j = ctx;
    scratch *s = mem;
    const cz_fc_vanilla_proof *p =
        j->c1 ? &j->c1->proofs[(size_t)j->k * j->c1->challenges + i] : NULL;
    if (seg == 0)
        return cz_porep_chal_prefix(cs, j->d, &j->h, p, j->c1 ? &s->prefix : &j->st[i]);
    if (seg <= j->d->layers)
        return cz_porep_chal_label(cs, &j->h, seg, &j->st[i], s->bits);
    return cz_porep_chal_suffix(cs, j->d, &j->h, p, &j->st[i]);
}

/* The circuit of d as parts, and its counts (measured once per shape);
 * with n_in, its sizes too. */
static int parts_of(const cz_fc_porep_dims *d, cz_cs_parts *p, cz_cs_parts_counts *c, size_t *n_in,
                    size_t *n_aux)
{
    static cz_cs_parts_cache cache = CZ_CS_PARTS_CACHE_INIT;
    *p = (cz_cs_parts){.header = header,
                       .segment = segment,
                       .scratch = sizeof(scratch),
                       .n_seg = d->layers + 2,
                       .what = "PoRep witness",
                       .part = "challenge"};
    p->phase[d->layers + 1] = 1;
    const uint64_t key[CZ_CS_PARTS_KEY] = {d->log_nodes,  d->layers,      d->challenges,
                                           d->base_arity, d->base_levels, d->sub_arity,
                                           d->top_arity};
    wit blank = {.d = d, .st = calloc(1, sizeof *blank.st)};
    int rc = blank.st ? cz_cs_parts_counts_get(&cache, key, p, &blank, c) : CZ_ERR_NOMEM;
    free(blank.st);
    if (rc == CZ_OK && n_in)
        cz_cs_parts_size(p, c, d->challenges, n_in, n_aux);
    return rc;
}

int cz_fc_porep_counts(const cz_fc_porep_dims *d, size_t *n_inputs, size_t *n_aux)
{
    char err[8];
    if (cz_porep_check_c1(d, NULL, 0, err, sizeof err) != CZ_OK)
        return CZ_ERR_INVALID_ARG;
    cz_cs_parts p;
    cz_cs_parts_counts c;
    return parts_of(d, &p, &c, n_inputs, n_aux);
}

int cz_fc_porep_witness(cz_fr *w, size_t w_len, const cz_fc_c1 *c1, unsigned k, cz_pool *pool,
                        char *err, size_t errlen)
{
    if (w == NULL || c1 == NULL || c1->proof_type == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "PoRep witness: no C1");
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, c1->proof_type->shape);
    int rc = cz_porep_check_c1(&d, c1, k, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_cs_parts p;
    cz_cs_parts_counts c;
    if ((rc = parts_of(&d, &p, &c, NULL, NULL)) != CZ_OK)
        return cz_fail(err, errlen, rc, "PoRep witness: %s", cz_strerror(rc));
    wit j = {.d = &d, .c1 = c1, .k = k, .st = malloc(d.challenges * sizeof *j.st)};
    if (j.st == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "PoRep witness: out of memory");
    for (unsigned i = 0; i < d.challenges; i++)
        cz_porep_chal_from_proof(&j.st[i], &d, &c1->proofs[(size_t)k * c1->challenges + i]);
    rc = cz_cs_parts_run(&p, &c, d.challenges, &j, w, w_len, pool, NULL, err, errlen);
    free(j.st);
    return rc;
}
