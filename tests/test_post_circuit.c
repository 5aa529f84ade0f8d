/* The FallbackPoSt circuit (cuzk/filecoin/post.h): its counts, its witness, its
 * public inputs and its SNARK.
 *
 * Oracles: storage-proofs-post tests/fallback_circuit.rs's assertions on
 * TestConstraintSystem (num_constraints, num_inputs, for its three tree
 * shapes), the WindowPoSt totals of filecoin-proofs constants.rs
 * (125,279,217 at 32GiB, 129,887,900 at 64GiB: comments there) and the
 * per-gadget derivation of docs/post.md section 5 for the other sizes;
 * the circuit's satisfaction (cz_r1cs_check) on vanilla proofs of real
 * and synthetic sectors, and its refusal of tampered ones; the public
 * inputs, computed independently of the witness, equal to the witness's
 * inputs; a CPU Groth16 proof of a 2KiB partition verified by
 * cz_post_verify. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blank_copy.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/groth16.h"
#include "tf.h"

static size_t count(const cz_post_shape *s, size_t *inputs)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
    char err[256] = "";
    TF_CHECK_MSG(cz_post_synthesize(cs, s, NULL, err, sizeof err) == CZ_OK, "%s", err);
    size_t n = cz_cs_num_constraints(cs);
    *inputs = cz_cs_num_inputs(cs);
    cz_cs_free(cs);
    return n;
}

/* fallback_circuit.rs: ApiVersion 1.1.0, 5 challenges per sector, three
 * sectors per partition (its "smaller" variants pad two or five sectors
 * into the same circuit), or two for the two-partition test. */
static void test_counts_sources(void)
{
    static const struct {
        const char *tree;
        unsigned sectors;
        size_t constraints, inputs;
    } t[] = {
        {"test-base-8", 3, 16869, 19},
        {"test-sub-8-4", 3, 22674, 19},
        {"test-top-8-4-2", 3, 27384, 19},
        {"test-base-8", 2, 11246, 13},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        cz_post_shape s;
        TF_CHECK(cz_post_shape_test(&s, t[i].tree, t[i].sectors, 5) == CZ_OK);
        size_t in, n = count(&s, &in);
        TF_CHECK_MSG(n == t[i].constraints && in == t[i].inputs,
                     "%s x %u: %zu constraints, %zu inputs (want %zu, %zu)", t[i].tree,
                     t[i].sectors, n, in, t[i].constraints, t[i].inputs);
        size_t ci, ca;
        TF_CHECK(cz_post_counts(&s, &ci, &ca) == CZ_OK && ci == in);
    }
    cz_post_shape s;
    TF_CHECK(cz_post_shape_test(&s, "test-base-4", 3, 5) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_post_shape_test(&s, "test-base-8", 0, 5) == CZ_ERR_INVALID_ARG);
    cz_cs *cs;
    char err[128] = "";
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    TF_CHECK(cz_post_synthesize(cs, NULL, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG && err[0]);
    cz_cs_free(cs);
}

/* Production shapes.  Winning (66 x 1) and the small Window shapes (2 x
 * 10) are counted whole; 32GiB and 64GiB Window one sector of the shape,
 * times the sector count, the sectors being independent (the witness test
 * below checks that each sector's slice is fixed). */
static void test_counts_production(void)
{
    static const struct {
        cz_fc_shape_id size;
        size_t window, winning, window_inputs;
    } t[] = {
        {CZ_FC_2KIB, 21866, 90750, 23},          {CZ_FC_8MIB, 64266, 230670, 23},
        {CZ_FC_512MIB, 85466, 300630, 23},       {CZ_FC_32GIB, 125279217, 370590, 25840},
        {CZ_FC_64GIB, 129887900, 391314, 25301},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const cz_fc_shape *sec = cz_fc_shape_get(t[i].size);
        cz_post_shape w, g;
        TF_CHECK(cz_post_shape_of(&w, CZ_POST_WINDOW, sec) == CZ_OK);
        TF_CHECK(cz_post_shape_of(&g, CZ_POST_WINNING, sec) == CZ_OK);
        size_t in, n = count(&g, &in);
        TF_CHECK_MSG(n == t[i].winning && in == 133, "Winning %s: %zu constraints, %zu inputs",
                     sec->name, n, in);
        unsigned sectors = w.sector_count;
        if (sectors > 2) {
            w.sector_count = 1;
            n = count(&w, &in) * sectors;
            in = 1 + (in - 1) * sectors;
        } else {
            n = count(&w, &in);
        }
        TF_CHECK_MSG(n == t[i].window && in == t[i].window_inputs,
                     "Window %s: %zu constraints, %zu inputs (want %zu, %zu)", sec->name, n, in,
                     t[i].window, t[i].window_inputs);
        w.sector_count = sectors;
        size_t ci, ca;
        TF_CHECK(cz_post_counts(&w, &ci, &ca) == CZ_OK && ci == t[i].window_inputs);
        TF_CHECK(cz_post_public_input_count(&w) + 1 == ci);
        printf("test_post_circuit: %s Window %zu constraints (%u sectors), Winning %zu\n",
               sec->name, t[i].window, sectors, t[i].winning);
    }
}

static int blank_post(cz_cs *cs, const void *ctx, char *err, size_t errlen)
{
    return cz_post_synthesize(cs, ctx, NULL, err, errlen);
}

/* The blank circuit's recording copies its first sector (cz_cs_repeat):
 * the same fingerprint and assignment as a recording sector by sector
 * (namespaces kept, which rules the copy out) and as COUNT mode's. */
static void test_blank_copied(void)
{
    cz_post_shape sh[6];
    TF_CHECK(cz_post_shape_test(&sh[0], "test-base-8", 3, 5) == CZ_OK);
    TF_CHECK(cz_post_shape_test(&sh[1], "test-sub-8-4", 3, 5) == CZ_OK);
    TF_CHECK(cz_post_shape_test(&sh[2], "test-top-8-4-2", 7, 2) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&sh[3], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&sh[4], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&sh[5], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_8MIB)) == CZ_OK);
    for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "shape %zu (%u sectors)", i, sh[i].sector_count);
        tf_check_blank_copied(blank_post, &sh[i], what);
    }
}

/* n blobs of shape s for sectors 100 + i at sector_index k x count + i. */
static cz_post_vanilla *blobs(const cz_post_shape *s, cz_fc_api api, const uint8_t rand[32],
                              size_t n, unsigned k)
{
    cz_post_vanilla *b = calloc(n, sizeof *b);
    TF_CHECK(b != NULL);
    for (size_t i = 0; i < n; i++) {
        char err[256] = "";
        uint64_t idx = cz_post_sector_index(s, k, i);
        TF_CHECK_MSG(cz_post_vanilla_synth(&b[i], s, api, rand, 100 + i, idx, tf_seed + i, NULL,
                                           err, sizeof err) == CZ_OK,
                     "%s", err);
        TF_CHECK_MSG(cz_post_vanilla_verify(s, api, rand, idx, &b[i], err, sizeof err) == CZ_OK,
                     "%s", err);
    }
    return b;
}

static void free_blobs(cz_post_vanilla *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_post_vanilla_free(&b[i]);
    free(b);
}

static void random_rand(uint8_t r[32])
{
    cz_prng_bytes(&tf_rng, r, 32);
    r[31] &= 0x3f; /* as Curio masks it */
}

/* Records the circuit with values and returns its assignment (*n values)
 * and R1CS; checks the witness-only parallel run gives the same
 * assignment and the public inputs are cz_post_public_inputs'. */
static cz_fr *record(const cz_post_shape *s, const cz_post_circuit_sector *sec, cz_fc_api api,
                     const uint8_t rand[32], const cz_post_public_sector *pubs, size_t n_pub,
                     unsigned k, cz_pool *pool, cz_r1cs **r, size_t *n)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    char err[256] = "";
    TF_CHECK_MSG(cz_post_synthesize(cs, s, sec, err, sizeof err) == CZ_OK, "%s", err);
    size_t n_in, n_aux;
    TF_CHECK(cz_post_counts(s, &n_in, &n_aux) == CZ_OK);
    TF_CHECK(cz_cs_num_inputs(cs) == n_in && cz_cs_num_aux(cs) == n_aux);
    *n = n_in + n_aux;
    cz_fr *w = malloc(*n * sizeof *w), *w2 = malloc(*n * sizeof *w2);
    TF_CHECK(w && w2);
    cz_cs_write_assignment(cs, w);
    TF_CHECK(cz_cs_finish(cs, r) == CZ_OK && *r != NULL);
    cz_cs_free(cs);
    cz_post_bad_path bad;
    TF_CHECK_MSG(cz_post_witness(w2, *n, s, sec, pool, &bad, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK_MSG(!memcmp(w, w2, *n * sizeof *w), "the parallel witness differs");
    free(w2);
    size_t m = cz_post_public_input_count(s);
    cz_fr *in = malloc(m * sizeof *in);
    TF_CHECK(in && cz_post_public_inputs(in, s, api, rand, pubs, n_pub, k) == CZ_OK);
    TF_CHECK_MSG(!memcmp(in, w + 1, m * sizeof *in), "the witness's inputs are not the verifier's");
    free(in);
    return w;
}

/* The n-value assignment of the circuit synthesized witness-only (inputs
 * edited by the caller). */
static cz_fr *witness_of(const cz_post_shape *s, const cz_post_circuit_sector *sec, size_t n)
{
    cz_cs *cs;
    char err[256];
    TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
    TF_CHECK(cz_post_synthesize(cs, s, sec, err, sizeof err) == CZ_OK);
    cz_fr *wt = malloc(n * sizeof *wt);
    TF_CHECK(wt != NULL);
    cz_cs_write_assignment(cs, wt);
    cz_cs_free(cs);
    return wt;
}

/* Window (full and short partitions, API 1.0 at partition 1 and 1.2) and
 * Winning, on the test shapes and 2KiB: the circuit is satisfied by
 * vanilla proofs that verify, and not by one whose sibling or leaf was
 * changed; a path index changed (another leaf's proof) satisfies the
 * circuit but not the verifier's inputs. */
static void test_satisfied(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    static const struct {
        const char *tree; /* NULL: 2KiB */
        cz_post_kind kind;
        unsigned sectors, challenges;
        size_t blobs;
        cz_fc_api api;
        unsigned k;
    } t[] = {
        {"test-base-8", CZ_POST_WINDOW, 3, 5, 3, CZ_FC_API_1_0, 1},
        {"test-sub-8-4", CZ_POST_WINDOW, 3, 5, 2, CZ_FC_API_1_2, 0},
        {"test-top-8-4-2", CZ_POST_WINDOW, 3, 5, 1, CZ_FC_API_1_0, 0},
        {NULL, CZ_POST_WINDOW, 0, 0, 1, CZ_FC_API_1_2, 0},
        {NULL, CZ_POST_WINDOW, 0, 0, 2, CZ_FC_API_1_0, 3},
        {NULL, CZ_POST_WINNING, 0, 0, 1, CZ_FC_API_1_0, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        cz_post_shape s;
        if (t[i].tree)
            TF_CHECK(cz_post_shape_test(&s, t[i].tree, t[i].sectors, t[i].challenges) == CZ_OK);
        else
            TF_CHECK(cz_post_shape_of(&s, t[i].kind, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
        uint8_t rand[32];
        random_rand(rand);
        cz_post_vanilla *b = blobs(&s, t[i].api, rand, t[i].blobs, t[i].k);
        cz_post_circuit_sector *sec = calloc(s.sector_count, sizeof *sec);
        cz_post_public_sector pubs[4];
        for (size_t j = 0; j < t[i].blobs; j++)
            pubs[j] = (cz_post_public_sector){b[j].sector_id, b[j].comm_r};
        TF_CHECK(sec && cz_post_circuit_sectors(sec, &s, b, t[i].blobs) == CZ_OK);
        cz_r1cs *r;
        size_t n;
        cz_fr *w = record(&s, sec, t[i].api, rand, pubs, t[i].blobs, t[i].k, pool, &r, &n);
        char err[256] = "";
        TF_CHECK_MSG(cz_r1cs_check(r, w, n, NULL, NULL, err, sizeof err) == CZ_OK, "case %zu: %s",
                     i, err);
        /* the other view of Winning's inputs: sector i at challenge index i */
        if (s.kind == CZ_POST_WINNING) {
            cz_fr x;
            uint64_t leaf = cz_post_leaf_challenge(rand, b[0].sector_id, 65, 64);
            cz_fr_from_u64(&x, leaf);
            TF_CHECK(cz_fr_equal(&x, &w[1 + 65 * 2 + 1]));
            TF_CHECK(cz_fc_proof_index(&b[0].proof.inclusion[65]) == leaf);
        }
        /* a sibling and a leaf changed: the circuit refuses them */
        cz_fc_merkle_proof *m = &b[0].proof.inclusion[0];
        for (int what = 0; what < 2; what++) {
            cz_fc_d *v = what ? &m->leaf : &m->levels[m->n_levels - 1].hashes[0];
            cz_fc_d keep = *v;
            v->b[0] ^= 1;
            cz_fr *wt = witness_of(&s, sec, n);
            TF_CHECK_MSG(cz_r1cs_check(r, wt, n, NULL, NULL, NULL, 0) == CZ_ERR_UNSATISFIED,
                         "case %zu: a changed %s satisfies the circuit", i,
                         what ? "leaf" : "sibling");
            /* the check that admission makes passes it; the verifier and the
             * witness, which hash the paths, refuse it and name the path */
            uint64_t idx = cz_post_sector_index(&s, t[i].k, 0);
            TF_CHECK(cz_post_vanilla_check(&s, t[i].api, rand, idx, &b[0], err, sizeof err) ==
                     CZ_OK);
            TF_CHECK(cz_post_vanilla_verify(&s, t[i].api, rand, idx, &b[0], err, sizeof err) ==
                     CZ_ERR_BAD_PROOF);
            cz_post_bad_path bad = {7, 7};
            TF_CHECK_MSG(cz_post_witness(wt, n, &s, sec, pool, &bad, err, sizeof err) ==
                                 CZ_ERR_BAD_PROOF &&
                             bad.sector == 0 && bad.challenge == 0 &&
                             strstr(err, "sector 0: inclusion proof 0 does not hash up") != NULL,
                         "case %zu, changed %s: sector %u, challenge %u: %s", i,
                         what ? "leaf" : "sibling", bad.sector, bad.challenge, err);
            free(wt);
            *v = keep;
        }
        /* a path to another leaf: satisfied, but its index input is not the challenge */
        if (s.kind == CZ_POST_WINDOW && s.challenge_count > 1) {
            cz_post_circuit_sector swapped = sec[0];
            cz_fc_merkle_proof two[16];
            memcpy(two, sec[0].inclusion, s.challenge_count * sizeof two[0]);
            unsigned c1 = 1;
            while (c1 < s.challenge_count &&
                   cz_fc_proof_index(&two[c1]) == cz_fc_proof_index(&two[0]))
                c1++;
            if (c1 < s.challenge_count) {
                cz_fc_merkle_proof tmp = two[0];
                two[0] = two[c1], two[c1] = tmp;
                swapped.inclusion = two;
                cz_post_circuit_sector keep = sec[0];
                sec[0] = swapped;
                cz_fr *wt = witness_of(&s, sec, n);
                TF_CHECK(cz_r1cs_check(r, wt, n, NULL, NULL, NULL, 0) == CZ_OK);
                TF_CHECK(memcmp(wt + 1, w + 1, cz_post_public_input_count(&s) * sizeof *wt));
                free(wt);
                sec[0] = keep;
            }
        }
        free(w);
        cz_r1cs_free(r);
        free(sec);
        free_blobs(b, t[i].blobs);
    }
    /* too many blobs, none */
    cz_post_shape s;
    TF_CHECK(cz_post_shape_of(&s, CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    cz_post_circuit_sector sec[66];
    cz_post_vanilla two[2] = {{0}};
    TF_CHECK(cz_post_circuit_sectors(sec, &s, two, 2) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_post_circuit_sectors(sec, &s, two, 0) == CZ_ERR_INVALID_ARG);
    cz_pool_free(pool);
}

/* A 2KiB WindowPoSt partition of one sector (padded to two) proved on the
 * CPU with insecure parameters: cz_post_verify accepts it, and refuses it
 * for another randomness, sector id, comm_r, partition or API version. */
static void test_snark(void)
{
    cz_post_shape s;
    TF_CHECK(cz_post_shape_of(&s, CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    uint8_t rand[32], seed[32];
    random_rand(rand);
    cz_prng_bytes(&tf_rng, seed, 32);
    const cz_fc_api api = CZ_FC_API_1_0;
    cz_post_vanilla *b = blobs(&s, api, rand, 1, 2);
    cz_post_circuit_sector sec[2];
    TF_CHECK(cz_post_circuit_sectors(sec, &s, b, 1) == CZ_OK);
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    char err[256] = "";
    TF_CHECK(cz_post_synthesize(cs, &s, NULL, err, sizeof err) == CZ_OK);
    cz_r1cs *r;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    cz_cs_free(cs);
    cz_groth16_params p;
    TF_CHECK(cz_groth16_setup(&p, r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    size_t n_in, n_aux;
    TF_CHECK(cz_post_counts(&s, &n_in, &n_aux) == CZ_OK);
    size_t n = n_in + n_aux;
    cz_fr *w = malloc(n * sizeof *w);
    TF_CHECK(w && cz_post_witness(w, n, &s, sec, NULL, NULL, err, sizeof err) == CZ_OK);
    cz_groth16_proof pf;
    TF_CHECK_MSG(cz_groth16_prove(&pf, &p, r, w, n, NULL, err, sizeof err) == CZ_OK, "%s", err);
    uint8_t proof[CZ_GROTH16_PROOF_BYTES];
    cz_groth16_proof_to_bytes(proof, &pf);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
    cz_post_public_sector pub = {b[0].sector_id, b[0].comm_r};
    bool valid = false;
    TF_CHECK(cz_post_verify(&pvk, proof, sizeof proof, &s, api, rand, &pub, 1, 2, &valid, err,
                            sizeof err) == CZ_OK);
    TF_CHECK_MSG(valid, "%s", err);
    struct {
        const char *what;
        cz_post_public_sector pub;
        unsigned k;
        cz_fc_api api;
        int flip;
    } bad[] = {
        {"randomness", pub, 2, api, 1},
        {"sector id", {pub.sector_id + 1, pub.comm_r}, 2, api, 0},
        {"comm_r", pub, 2, api, 0},
        {"partition", pub, 1, api, 0},
        {"API version", pub, 2, CZ_FC_API_1_2, 0},
    };
    bad[2].pub.comm_r.b[0] ^= 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t r2[32];
        memcpy(r2, rand, 32);
        r2[0] ^= (uint8_t)bad[i].flip;
        valid = true;
        int rc = cz_post_verify(&pvk, proof, sizeof proof, &s, bad[i].api, r2, &bad[i].pub, 1,
                                bad[i].k, &valid, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK && !valid, "another %s: rc %d, valid %d", bad[i].what, rc, valid);
    }
    TF_CHECK(cz_post_verify(&pvk, proof, 191, &s, api, rand, &pub, 1, 2, &valid, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    TF_CHECK(cz_post_verify(&pvk, proof, sizeof proof, &s, api, rand, &pub, 3, 2, &valid, err,
                            sizeof err) == CZ_ERR_INVALID_ARG);
    uint8_t big[32];
    memset(big, 0xff, 32);
    TF_CHECK(cz_post_verify(&pvk, proof, sizeof proof, &s, api, big, &pub, 1, 2, &valid, err,
                            sizeof err) == CZ_ERR_NOT_CANONICAL);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
    free(w);
    free_blobs(b, 1);
}

int main(int argc, char **argv)
{
    static const tf_test tests[] = {
        TF_TEST(test_counts_sources), TF_TEST(test_counts_production),
        TF_TEST(test_blank_copied),   TF_TEST(test_satisfied),
        TF_TEST(test_snark),
    };
    return tf_run(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
