/* The PoRep StackedDRG circuit (cuzk/filecoin/porep.h cz_fc_porep_*):
 *   - the shape: inputs and constraints of rust-fil-proofs' own circuit
 *     tests (tests/stacked_circuit.rs: base-2, base-8, sub 8/4, top 8/4/2
 *     over their 8-node test graphs) and of the 2KiB, 8MiB and 512MiB
 *     circuits (the facts file's table, a model fitted to those tests),
 *     32GiB's input and aux counts (cuzk's recording), and the facts
 *     file's per-challenge breakdown part by part;
 *   - the same circuit for interactive, synthetic and non-interactive
 *     challenges (sealed 2KiB C1s of each, NI's 13 partitions);
 *   - satisfied by sealed 2KiB and 8MiB sectors' C1s and by synthetic C1s
 *     of 2KiB, 8MiB and 512MiB; its inputs are cz_fc_public_inputs';
 *     the sanitizer builds (3-10x slower) keep to the 2KiB and test
 *     shapes: the 8MiB seal alone takes 20 s in a release build;
 *   - every mode yields the same assignment: recording, witness-only, the
 *     challenge-parallel cz_fc_porep_witness on 1 and 3 threads;
 *   - a tampered C1 (a column row, a path sibling, a path index, the data
 *     leaf, a labeling node, comm_r) leaves the circuit unsatisfied, and
 *     the failing constraint's namespace names the part at fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blank_copy.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "filecoin/porep/circuit.h"
#include "tf.h"

static cz_pool *pool3;

/* ---------------------------------------------------------------- shape --- */

static void test_counts(void)
{
    static const struct {
        const char *name;
        size_t inputs, constraints;
        bool count; /* COUNT mode (else recorded) */
    } want[] = {
        {"test-base-8", 22, 1199620, false},  {"test-base-2", 22, 1206212, false},
        {"test-sub-8-4", 22, 1296576, false}, {"test-top-8-4-2", 22, 1346982, false},
        {"2KiB", 40, 2687921, false},         {"8MiB", 40, 3844929, true},
        {"512MiB", 40, 4423433, true},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        /* sanitizers: top 8/4/2 (every tree level kind) and 2KiB */
        if (TF_SANITIZED && i != 3 && i != 4)
            continue;
        cz_fc_porep_dims d;
        TF_CHECK(cz_fc_porep_dims_by_name(&d, want[i].name) == CZ_OK);
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, want[i].count ? CZ_CS_COUNT : CZ_CS_RECORD, 0) == CZ_OK);
        char err[200] = "";
        int rc = cz_fc_porep_synthesize(cs, &d, NULL, 0, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "%s: %s", want[i].name, err);
        TF_CHECK_MSG(cz_cs_num_inputs(cs) == want[i].inputs, "%s: %zu inputs", want[i].name,
                     cz_cs_num_inputs(cs));
        TF_CHECK_MSG(cz_cs_num_constraints(cs) == want[i].constraints, "%s: %zu constraints",
                     want[i].name, cz_cs_num_constraints(cs));
        size_t n_in, n_aux;
        TF_CHECK(cz_fc_porep_counts(&d, &n_in, &n_aux) == CZ_OK);
        TF_CHECK(n_in == cz_cs_num_inputs(cs) && n_aux == cz_cs_num_aux(cs));
        cz_cs_free(cs);
    }
    cz_fc_porep_dims d;
    TF_CHECK(cz_fc_porep_dims_by_name(&d, "4KiB") == CZ_ERR_INVALID_ARG);
    /* 32GiB: the aux count cuzk's recording reports */
    size_t n_in, n_aux;
    TF_CHECK(cz_fc_porep_dims_by_name(&d, "32GiB") == CZ_OK);
    TF_CHECK(cz_fc_porep_counts(&d, &n_in, &n_aux) == CZ_OK);
    TF_CHECK_MSG(n_in == 328 && n_aux == 130169893, "32GiB: %zu inputs, %zu aux", n_in, n_aux);
}

static int blank_porep(cz_cs *cs, const void *ctx, char *err, size_t errlen)
{
    return cz_fc_porep_synthesize(cs, ctx, NULL, 0, err, errlen);
}

/* The blank circuit's recording copies its first challenge (cz_cs_repeat):
 * the same fingerprint and assignment as a recording challenge by
 * challenge (namespaces kept, which rules the copy out) and as COUNT
 * mode's. */
static void test_blank_copied(void)
{
    static const char *names[] = {"test-top-8-4-2", "test-base-2", "2KiB"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (TF_SANITIZED && i == 2)
            continue;
        cz_fc_porep_dims d;
        TF_CHECK(cz_fc_porep_dims_by_name(&d, names[i]) == CZ_OK);
        char what[64];
        snprintf(what, sizeof what, "%s (%u challenges)", names[i], d.challenges);
        tf_check_blank_copied(blank_porep, &d, what);
    }
}

/* The facts file's per-challenge breakdown (its section 7, a model
 * fitted to rust-fil-proofs' test counts): the header 571 constraints;
 * a challenge's prefix = TreeD inclusion (45,382 per level + 2) + the 14
 * parent columns + the challenge's 65; the label of layer l = 522,269 +
 * the parents' bit decompositions (256 each: 6 in layer 1, 14 later); the
 * suffix = encode 1 + TreeR inclusion + column hash + TreeC inclusion.
 * Counted part by part (COUNT mode) for 2KiB and, outside the sanitizer
 * builds, 32GiB's first challenge. */
static void test_breakdown(void)
{
    static const struct {
        const char *name;
        size_t tree_d, columns, suffix;
    } want[] = {
        {"2KiB", 272294, 19222, 2501 - 65},
        {"32GiB", 1361462, 82600, 11268 - 65},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (i > 0 && TF_SANITIZED)
            continue;
        cz_fc_porep_dims d;
        TF_CHECK(cz_fc_porep_dims_by_name(&d, want[i].name) == CZ_OK);
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
        cz_porep_header h;
        cz_porep_chal *st = malloc(sizeof *st);
        cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
        TF_CHECK(cz_porep_header_synth(cs, NULL, &h) == CZ_OK);
        size_t n = cz_cs_num_constraints(cs), m;
        TF_CHECK_MSG(n == 571, "%s: header %zu", want[i].name, n);
        TF_CHECK(cz_porep_chal_prefix(cs, &d, &h, NULL, st) == CZ_OK);
        m = cz_cs_num_constraints(cs);
        TF_CHECK_MSG(m - n == want[i].tree_d + want[i].columns + 65, "%s: prefix %zu", want[i].name,
                     m - n);
        for (unsigned l = 1; l <= d.layers; l++) {
            n = m;
            TF_CHECK(cz_porep_chal_label(cs, &h, l, st, scratch) == CZ_OK);
            m = cz_cs_num_constraints(cs);
            TF_CHECK_MSG(m - n == 522269 + 256 * (l == 1 ? 6 : 14), "%s: label %u: %zu",
                         want[i].name, l, m - n);
        }
        n = m;
        TF_CHECK(cz_porep_chal_suffix(cs, &d, &h, NULL, st) == CZ_OK);
        m = cz_cs_num_constraints(cs);
        TF_CHECK_MSG(m - n == want[i].suffix, "%s: suffix %zu", want[i].name, m - n);
        TF_CHECK(cz_cs_error(cs) == CZ_OK);
        free(st);
        free(scratch);
        cz_cs_free(cs);
    }
}

/* ------------------------------------------------------------- sectors --- */

static void make_sector(cz_fc_sector *s, uint8_t **data, const cz_fc_proof_type *t, bool random)
{
    memset(s, 0, sizeof *s);
    s->proof_type = t;
    cz_fc_prover_id(s->prover_id, 1000 + cz_prng_next(&tf_rng) % 100000);
    s->sector_id = cz_prng_next(&tf_rng) % (1u << 20);
    cz_prng_bytes(&tf_rng, s->ticket, 32);
    cz_prng_bytes(&tf_rng, s->seed, 32);
    *data = NULL;
    if (random) {
        size_t raw = t->shape->sector_size / 128 * 127;
        uint8_t *r = malloc(raw);
        *data = malloc(t->shape->sector_size);
        cz_prng_bytes(&tf_rng, r, raw);
        cz_fc_fr32_pad(*data, r, raw);
        free(r);
        s->data = *data;
    }
}

/* Records partition k of c1 with namespaces; *r, *w (its assignment) and
 * the check's answer.  Returns the check's code (msg the sentence). */
static int record_check(const cz_fc_c1 *c1, unsigned k, cz_r1cs **r_out, cz_fr **w_out, char *msg,
                        size_t msg_len)
{
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, c1->proof_type->shape);
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
    char err[200] = "";
    int rc = cz_fc_porep_synthesize(cs, &d, c1, k, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "synthesize: %s", err);
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    size_t n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
    cz_fr *w = malloc(n * sizeof *w);
    cz_cs_write_assignment(cs, w);
    cz_cs_free(cs);
    rc = cz_r1cs_check(r, w, n, pool3, NULL, msg, msg_len);
    if (r_out)
        *r_out = r;
    else
        cz_r1cs_free(r);
    if (w_out)
        *w_out = w;
    else
        free(w);
    return rc;
}

/* The witness-only assignments (serial WITNESS cs, cz_fc_porep_witness on
 * 1 and 3 threads) equal w. */
static void check_witness_modes(const cz_fc_c1 *c1, unsigned k, const cz_fr *w, size_t n)
{
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, c1->proof_type->shape);
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
    char err[200] = "";
    TF_CHECK(cz_fc_porep_synthesize(cs, &d, c1, k, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_cs_num_inputs(cs) + cz_cs_num_aux(cs) == n);
    cz_fr *v = malloc(n * sizeof *v);
    cz_cs_write_assignment(cs, v);
    cz_cs_free(cs);
    TF_CHECK_MSG(memcmp(v, w, n * sizeof *v) == 0, "WITNESS cs assignment differs");
    for (int threads = 0; threads < 2; threads++) {
        memset(v, 0xa5, n * sizeof *v);
        int rc = cz_fc_porep_witness(v, n, c1, k, threads ? pool3 : NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "cz_fc_porep_witness: %s", err);
        size_t diff = 0;
        while (diff < n && memcmp(&v[diff], &w[diff], sizeof *v) == 0)
            diff++;
        TF_CHECK_MSG(diff == n, "cz_fc_porep_witness (%s) differs at %zu of %zu",
                     threads ? "3 threads" : "1 thread", diff, n);
    }
    TF_CHECK(cz_fc_porep_witness(v, n - 1, c1, k, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_porep_witness(v, n, c1, c1->partitions, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    free(v);
}

/* The circuit's inputs are cz_fc_public_inputs'. */
static void check_inputs(const cz_fc_c1 *c1, const cz_fc_sector *s, unsigned k, const cz_fr *w)
{
    const cz_fc_proof_type *t = c1->proof_type;
    cz_fc_graph g;
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, t);
    cz_fc_graph_init(&g, t->shape, porep_id, t->api);
    size_t n = cz_fc_public_input_count(t);
    cz_fr *x = malloc(n * sizeof *x);
    TF_CHECK(cz_fc_public_inputs(x, t, &g, &c1->replica_id, &c1->comm_d, &c1->comm_r, s->seed, k) ==
             CZ_OK);
    TF_CHECK(cz_fr_is_one(&w[0]));
    TF_CHECK_MSG(memcmp(x, w + 1, n * sizeof *x) == 0, "partition %u: inputs differ", k);
    free(x);
}

/* The blank circuit of a shape, recorded once with namespaces. */
static cz_r1cs *shape_r1cs[CZ_FC__SHAPES];

static void free_shapes(void)
{
    for (int i = 0; i < CZ_FC__SHAPES; i++)
        cz_r1cs_free(shape_r1cs[i]);
}

static cz_r1cs *blank_r1cs(const cz_fc_shape *sh)
{
    if (shape_r1cs[sh->id] == NULL) {
        cz_fc_porep_dims d;
        cz_fc_porep_dims_of(&d, sh);
        cz_cs *cs;
        char err[200] = "";
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
        TF_CHECK(cz_fc_porep_synthesize(cs, &d, NULL, 0, err, sizeof err) == CZ_OK);
        TF_CHECK(cz_cs_finish(cs, &shape_r1cs[sh->id]) == CZ_OK);
        cz_cs_free(cs);
    }
    return shape_r1cs[sh->id];
}

/* Satisfied, every partition, with cz_fc_public_inputs as inputs: the
 * witness-only assignment against the blank recording; with all_modes,
 * partition 0 and the last also recorded from the C1 and every mode's
 * assignment compared. */
static void check_c1(const cz_fc_c1 *c1, const cz_fc_sector *s, bool all_modes)
{
    cz_r1cs *blank = blank_r1cs(c1->proof_type->shape);
    size_t n = cz_r1cs_num_inputs(blank) + cz_r1cs_num_aux(blank);
    for (unsigned k = 0; k < c1->partitions; k++) {
        char msg[300] = "";
        cz_fr *w;
        int rc;
        if (all_modes && (k == 0 || k + 1 == c1->partitions)) {
            cz_r1cs *r;
            rc = record_check(c1, k, &r, &w, msg, sizeof msg);
            TF_CHECK(cz_r1cs_num_aux(r) + cz_r1cs_num_inputs(r) == n);
            cz_r1cs_free(r);
            check_witness_modes(c1, k, w, n);
        } else {
            w = malloc(n * sizeof *w);
            rc = cz_fc_porep_witness(w, n, c1, k, pool3, msg, sizeof msg);
            TF_CHECK_MSG(rc == CZ_OK, "witness: %s", msg);
        }
        if (rc == CZ_OK)
            rc = cz_r1cs_check(blank, w, n, pool3, NULL, msg, sizeof msg);
        TF_CHECK_MSG(rc == CZ_OK, "%s partition %u: %s", c1->proof_type->name, k, msg);
        check_inputs(c1, s, k, w);
        free(w);
    }
}

/* The C1 of each registered proof named, from a sector made for it
 * (sealed: random data, sealed; else cz_fc_c1_synth's synthetic C1 of an
 * empty one), checked by check_c1, in full for names[full] only; under a
 * sanitizer the first n_sanitized names only. */
static void c1s_checked(const char *const *names, size_t n, bool sealed, size_t full,
                        size_t n_sanitized)
{
    for (size_t i = 0; i < n; i++) {
        const cz_fc_proof_type *t = cz_fc_proof_by_name(names[i]);
        TF_CHECK(t != NULL);
        if (TF_SANITIZED && i >= n_sanitized)
            continue;
        cz_fc_sector s;
        uint8_t *data;
        make_sector(&s, &data, t, sealed);
        cz_fc_c1 c1;
        char err[300] = "";
        int rc = sealed ? cz_fc_seal(&c1, &s, NULL, err, sizeof err)
                        : cz_fc_c1_synth(&c1, &s, cz_prng_next(&tf_rng), NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "%s %s: %s", sealed ? "seal" : "synth", t->name, err);
        if (rc == CZ_OK) {
            check_c1(&c1, &s, i == full);
            cz_fc_c1_free(&c1);
        }
        free(data);
    }
}

static void test_sealed(void)
{
    const char *names[] = {"StackedDrg2KiBV1_1", "StackedDrg2KiBV1",
                           "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", "StackedDrg8MiBV1_1"};
    c1s_checked(names, sizeof names / sizeof names[0], true, 0, 2);
}

static void test_synthetic(void)
{
    const char *names[] = {"StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1"};
    c1s_checked(names, sizeof names / sizeof names[0], false, 1, 1);
}

/* ------------------------------------------------------------ tampering --- */

static void bump(cz_fc_d *d) { d->b[0] ^= 1; /* stays canonical (TreeD and Fr values alike) */ }

static void test_tampered(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    cz_fc_sector s;
    uint8_t *data;
    make_sector(&s, &data, t, true);
    cz_fc_c1 c1;
    char err[300] = "";
    TF_CHECK(cz_fc_seal(&c1, &s, NULL, err, sizeof err) == CZ_OK);
    /* one recording with namespaces; each tampered C1 then only computes
     * its witness (the proving path's order) */
    cz_r1cs *r;
    cz_fr *w;
    char msg[300] = "";
    TF_CHECK(record_check(&c1, 0, &r, &w, msg, sizeof msg) == CZ_OK);
    size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r);
    cz_fc_vanilla_proof *p = &c1.proofs[1];
    static const struct {
        int what;
        const char *ns;
    } cases[] = {
        {0, "challenge_1/drg_parent_2_inclusion/enforce root is correct"},
        {1, "challenge_1/exp_parent_5_inclusion/enforce root is correct"},
        {2, "challenge_1/comm_d_inclusion/enforce root is correct"},
        {3, "challenge_1/comm_r_last_data_inclusion/enforce root is correct"},
        {4, "challenge_1/comm_r_last_data_inclusion/enforce root is correct"},
        {5, "challenge_1/comm_d_inclusion/enforce root is correct"},
        {6, "challenge_1/comm_r_last_data_inclusion/enforce root is correct"},
        {7, "enforce comm_r = H(comm_c || comm_r_last)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_fc_d save = {{0}};
        cz_fc_d *at = NULL;
        uint64_t save_node = p->labeling[0].node;
        uint8_t save_index = p->comm_r_last_proof.levels[0].index;
        switch (cases[i].what) {
        case 0:
            at = &p->drg[2].rows[1];
            break;
        case 1:
            at = &p->exp[5].inclusion.levels[0].hashes[3];
            break;
        case 2:
            at = &p->comm_d_proof.levels[4].hashes[0];
            break;
        case 3:
            at = &p->comm_r_last_proof.levels[1].hashes[6];
            break;
        case 4:
            p->labeling[0].node ^= 2;
            break; /* the challenge, so the labels */
        case 5:
            at = &p->comm_d_proof.leaf;
            break;
        case 6:
            p->comm_r_last_proof.levels[0].index ^= 1;
            break;
        case 7:
            at = &c1.comm_r;
            break;
        }
        if (at) {
            save = *at;
            bump(at);
        }
        TF_CHECK(cz_fc_porep_witness(w, n, &c1, 0, pool3, err, sizeof err) == CZ_OK);
        int rc = cz_r1cs_check(r, w, n, pool3, NULL, msg, sizeof msg);
        TF_CHECK_MSG(rc == CZ_ERR_UNSATISFIED, "case %zu: %s", i, cz_strerror(rc));
        TF_CHECK_MSG(strstr(msg, cases[i].ns) != NULL, "case %zu: %s, want %s", i, msg,
                     cases[i].ns);
        if (at)
            *at = save;
        p->labeling[0].node = save_node;
        p->comm_r_last_proof.levels[0].index = save_index;
    }
    /* restored: satisfied again */
    TF_CHECK(cz_fc_porep_witness(w, n, &c1, 0, pool3, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_r1cs_check(r, w, n, pool3, NULL, msg, sizeof msg) == CZ_OK);
    free(w);
    cz_r1cs_free(r);
    /* a C1 of another shape */
    cz_fc_porep_dims d;
    cz_fc_porep_dims_by_name(&d, "8MiB");
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
    TF_CHECK(cz_fc_porep_synthesize(cs, &d, &c1, 0, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(strstr(err, "2KiB") != NULL);
    cz_cs_free(cs);
    cz_fc_c1_free(&c1);
    free(data);
}

static void free_pool(void) { cz_pool_free(pool3); }

int main(int argc, char **argv)
{
    if (cz_pool_new(&pool3, 3) != CZ_OK)
        return 1;
    atexit(free_pool);
    atexit(free_shapes);
    static const tf_test tests[] = {
        TF_TEST(test_counts), TF_TEST(test_blank_copied), TF_TEST(test_breakdown),
        TF_TEST(test_sealed), TF_TEST(test_synthetic),    TF_TEST(test_tampered),
    };
    return tf_run(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
