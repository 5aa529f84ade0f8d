/* Witness-only synthesis of the EmptySectorUpdate circuit, challenge by
 * challenge in parallel (cuzk/filecoin/snap.h cz_fc_snap_witness).
 *
 * The circuit's shape does not depend on its values (circuit.h):
 * the header allocates every input and a fixed number of auxiliaries, and
 * each challenge the same number of auxiliaries and no input, so it is a
 * header and alike parts (cuzk/cs.h cz_cs_parts): the header runs on the
 * calling thread, then every challenge over its own slice, reading the
 * header's variables (phi, the roots, the apex leaves, the challenge bits)
 * by number.  86 challenges of ~940,000 constraints at 32GiB. */
#include "cuzk/err.h"
#include "cuzk/filecoin/snap.h"
#include "filecoin/snap/circuit.h"

typedef struct {
    const cz_fc_snap_shape *u;
    const cz_fc_snap_public *pub; /* NULL: the blank circuit */
    const cz_fc_snap_partition_proof *p;
    cz_snap_header h; /* cz_snap_header_free'd after every run */
} wit;

static int header(void *ctx, cz_cs *cs)
{
    wit *j = ctx;
    return cz_snap_header_synth(cs, j->u, j->pub, j->p, &j->h);
}

static int challenge(void *ctx, cz_cs *cs, size_t i, unsigned seg, void *scratch)
{
    (void)seg, (void)scratch;
    wit *j = ctx;
    return cz_snap_challenge(cs, j->u, &j->h, j->p ? &j->p->challenges[i] : NULL, (unsigned)i);
}

static const cz_cs_parts PARTS = {.header = header,
                                  .segment = challenge,
                                  .n_seg = 1,
                                  .what = "update witness",
                                  .part = "challenge"};

static int counts_of(const cz_fc_snap_shape *u, cz_cs_parts_counts *c)
{
    static cz_cs_parts_cache cache = CZ_CS_PARTS_CACHE_INIT;
    const uint64_t key[CZ_CS_PARTS_KEY] = {u->sector_nodes};
    wit blank = {.u = u};
    int rc = cz_cs_parts_counts_get(&cache, key, &PARTS, &blank, c);
    cz_snap_header_free(&blank.h);
    return rc;
}

int cz_fc_snap_counts(const cz_fc_snap_shape *u, size_t *n_inputs, size_t *n_aux)
{
    if (u == NULL || u->challenges == 0)
        return CZ_ERR_INVALID_ARG;
    cz_cs_parts_counts c;
    int rc = counts_of(u, &c);
    if (rc == CZ_OK)
        cz_cs_parts_size(&PARTS, &c, u->challenges, n_inputs, n_aux);
    return rc;
}

int cz_fc_snap_witness(cz_fr *w, size_t w_len, const cz_fc_snap_shape *u,
                       const cz_fc_snap_public *pub, const cz_fc_snap_partition_proof *p,
                       cz_pool *pool, char *err, size_t errlen)
{
    if (w == NULL || pub == NULL || p == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "update witness: NULL argument");
    int rc = cz_snap_check(u, pub, p, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_cs_parts_counts c;
    if ((rc = counts_of(u, &c)) != CZ_OK)
        return cz_fail(err, errlen, rc, "update witness: %s", cz_strerror(rc));
    wit j = {.u = u, .pub = pub, .p = p};
    rc = cz_cs_parts_run(&PARTS, &c, u->challenges, &j, w, w_len, pool, NULL, err, errlen);
    cz_snap_header_free(&j.h);
    return rc;
}
