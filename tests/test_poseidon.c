/* Tests for Poseidon (include/cuzk/poseidon.h): neptune's round numbers and
 * published hash vectors, the Grain constants and the textbook permutation
 * against an independent Python reference (tests/oracle/poseidon_ref.py,
 * when python3 exists), the optimised native hash against the textbook
 * permutation, and the circuit: neptune's constraint counts, satisfiability
 * and output == native hash, in both cs modes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/poseidon.h"
#include "tf.h"

static const unsigned ARITY[] = {2, 4, 8, 11, 16};
#define N_ARITY (sizeof ARITY / sizeof ARITY[0])

static cz_fr fr_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3)
{
    const uint64_t c[4] = {l0, l1, l2, l3};
    cz_fr x;
    cz_fr_from_canonical(&x, c);
    return x;
}

/* ---------------------------------------------------------- the cache --- */

static void *first_use(void *arg)
{
    const cz_poseidon_params **got = arg;
    for (size_t a = 0; a < N_ARITY; a++)
        got[a] = cz_poseidon_params_get(ARITY[a]);
    return NULL;
}

/* Runs first (the cache is cold): threads racing to the first use all get
 * the same parameters. */
static void test_cache_threads(void)
{
    enum { N = 4 };
    const cz_poseidon_params *got[N][N_ARITY];
    pthread_t th[N];
    bool started[N];
    for (int i = 0; i < N; i++)
        started[i] = pthread_create(&th[i], NULL, first_use, got[i]) == 0;
    for (int i = 0; i < N; i++) {
        TF_CHECK(started[i]);
        if (started[i])
            pthread_join(th[i], NULL);
        else
            first_use(got[i]);
    }
    for (size_t a = 0; a < N_ARITY; a++)
        for (int i = 0; i < N; i++)
            TF_CHECK(got[i][a] != NULL && got[i][a] == cz_poseidon_params_get(ARITY[a]));
}

/* ------------------------------------------------------- round numbers --- */

/* neptune src/round_numbers.rs, test_round_numbers_against_known_values:
 * (t, R_P) with R_F = 8. */
static void test_round_numbers(void)
{
    static const unsigned cases[][2] = {
        {2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
        {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
        {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned rf, rp;
        cz_poseidon_round_numbers(cases[i][0], &rf, &rp);
        TF_CHECK_MSG(rf == 8 && rp == cases[i][1], "t=%u: R_F %u R_P %u, want 8 %u", cases[i][0],
                     rf, rp, cases[i][1]);
    }
    for (size_t a = 0; a < N_ARITY; a++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ARITY[a]);
        TF_CHECK(p != NULL && p->t == ARITY[a] + 1 && p->rf == 8);
    }
}

/* ---------------------------------------------------- published values --- */

/* neptune src/poseidon.rs, test hash_values (Strength::Standard, MerkleTree):
 * the hash of 0, 1, .., arity-1; limbs little-endian (scalar_from_u64s). */
static void test_neptune_vectors(void)
{
    const cz_fr want[N_ARITY] = {
        fr_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b),
        fr_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a),
        fr_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55),
        fr_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28),
        fr_limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a),
    };
    for (size_t a = 0; a < N_ARITY; a++) {
        cz_fr in[CZ_POSEIDON_MAX_ARITY], h;
        for (unsigned i = 0; i < ARITY[a]; i++)
            cz_fr_from_u64(&in[i], i);
        TF_CHECK(cz_poseidon_hash(&h, in, ARITY[a]) == CZ_OK);
        TF_CHECK_MSG(cz_fr_equal(&h, &want[a]), "arity %u: hash differs from neptune", ARITY[a]);
    }
    /* neptune parameters/round_constants-1-1-255-9-8-57-73EDA...01.txt (the
     * Sage script's output for t = 9): the first and the last constant. */
    const cz_poseidon_params *p = cz_poseidon_params_get(8);
    cz_fr first =
        fr_limbs(0x43984154f2f4c2f9, 0xc52b4ae7e48cd494, 0x8c3caddb776dd84a, 0x6ce90d12c4045fe0);
    cz_fr last =
        fr_limbs(0x0c05e545519d9a8c, 0x1b8960063efe7467, 0xbcc4ab7e449e4a01, 0x3b3a75eb91b0f723);
    TF_CHECK(p != NULL && p->rp == 57);
    TF_CHECK(cz_fr_equal(&p->rc[0], &first));
    TF_CHECK(cz_fr_equal(&p->rc[(8 + 57) * 9 - 1], &last));
}

/* ------------------------------------------------------------ textbook --- */

/* The permutation as the paper states it, from the raw constants and M. */
static void textbook(cz_fr *out, const cz_poseidon_params *p, const cz_fr *in)
{
    unsigned t = p->t;
    cz_fr s[CZ_POSEIDON_MAX_WIDTH], r[CZ_POSEIDON_MAX_WIDTH], x;
    s[0] = p->domain_tag;
    memcpy(&s[1], in, p->arity * sizeof *s);
    for (unsigned rd = 0; rd < p->rf + p->rp; rd++) {
        bool full = rd < p->rf / 2 || rd >= p->rf / 2 + p->rp;
        for (unsigned i = 0; i < t; i++) {
            cz_fr_add(&s[i], &s[i], &p->rc[rd * t + i]);
            if (full || i == 0) {
                cz_fr_sqr(&x, &s[i]);
                cz_fr_sqr(&x, &x);
                cz_fr_mul(&s[i], &s[i], &x);
            }
        }
        for (unsigned i = 0; i < t; i++) {
            r[i] = CZ_FR_ZERO;
            for (unsigned j = 0; j < t; j++) {
                cz_fr_mul(&x, &p->mds[i * t + j], &s[j]);
                cz_fr_add(&r[i], &r[i], &x);
            }
        }
        memcpy(s, r, t * sizeof *s);
    }
    *out = s[1];
}

static void test_optimised_equals_textbook(void)
{
    for (size_t a = 0; a < N_ARITY; a++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ARITY[a]);
        TF_CHECK(p != NULL);
        if (p == NULL)
            continue;
        /* M is the Cauchy matrix and M M^-1 = I. */
        unsigned t = p->t;
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                cz_fr d, e = CZ_FR_ZERO, x;
                cz_fr_from_u64(&d, i + t + j);
                cz_fr_mul(&d, &d, &p->mds[i * t + j]);
                TF_CHECK(cz_fr_is_one(&d));
                for (unsigned k = 0; k < t; k++) {
                    cz_fr_mul(&x, &p->mds[i * t + k], &p->mds_inv[k * t + j]);
                    cz_fr_add(&e, &e, &x);
                }
                TF_CHECK(i == j ? cz_fr_is_one(&e) : cz_fr_is_zero(&e));
            }
        for (unsigned it = 0; it < 4 * tf_scale; it++) {
            cz_fr in[CZ_POSEIDON_MAX_ARITY], h, want;
            for (unsigned i = 0; i < p->arity; i++)
                cz_fr_random(&in[i], &tf_rng);
            TF_CHECK(cz_poseidon_hash(&h, in, p->arity) == CZ_OK);
            textbook(&want, p, in);
            TF_CHECK_MSG(cz_fr_equal(&h, &want), "arity %u: optimised != textbook", p->arity);
        }
    }
}

/* -------------------------------------------------------------- python --- */

static bool have_python(void) { return system("command -v python3 >/dev/null 2>&1") == 0; }

static void oracle_cmd(char *cmd, size_t n, const char *args)
{
    const char *file = __FILE__, *slash = strrchr(file, '/');
    int len = slash != NULL ? (int)(slash - file) : 1;
    snprintf(cmd, n, "python3 %.*s/oracle/poseidon_ref.py %s", len, slash != NULL ? file : ".",
             args);
}

static bool parse_hex(cz_fr *x, const char *line)
{
    uint8_t be[32];
    for (int k = 0; k < 32; k++) {
        unsigned v;
        if (sscanf(line + 2 * k, "%2x", &v) != 1)
            return false;
        be[k] = (uint8_t)v;
    }
    return cz_fr_from_bytes_be(x, be) == CZ_OK;
}

static void test_python_oracle(void)
{
    if (!have_python()) {
        printf("  python3 not found: oracle cross-check skipped\n");
        return;
    }
    for (size_t a = 0; a < N_ARITY; a++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ARITY[a]);
        TF_CHECK(p != NULL);
        if (p == NULL)
            continue;
        char args[2048], cmd[4096], line[256];
        snprintf(args, sizeof args, "rc %u %u %u", p->t, p->rf, p->rp);
        oracle_cmd(cmd, sizeof cmd, args);
        FILE *f = popen(cmd, "r");
        TF_CHECK(f != NULL);
        if (f == NULL)
            continue;
        size_t n = 0, bad = 0, want = (size_t)(p->rf + p->rp) * p->t;
        while (fgets(line, sizeof line, f) != NULL) {
            cz_fr x;
            if (n >= want || !parse_hex(&x, line) || !cz_fr_equal(&x, &p->rc[n]))
                bad++;
            n++;
        }
        TF_CHECK(pclose(f) == 0);
        TF_CHECK_MSG(n == want && bad == 0, "t=%u: %zu constants, %zu differ from the oracle", p->t,
                     n, bad);

        cz_fr in[CZ_POSEIDON_MAX_ARITY], h, x;
        int off = snprintf(args, sizeof args, "hash %u %u %u", p->t, p->rf, p->rp);
        for (unsigned i = 0; i < p->arity; i++) {
            uint8_t be[32];
            cz_fr_random(&in[i], &tf_rng);
            cz_fr_to_bytes_be(be, &in[i]);
            off += snprintf(args + off, sizeof args - (size_t)off, " ");
            for (int k = 0; k < 32; k++)
                off += snprintf(args + off, sizeof args - (size_t)off, "%02x", be[k]);
        }
        oracle_cmd(cmd, sizeof cmd, args);
        f = popen(cmd, "r");
        TF_CHECK(f != NULL);
        if (f == NULL)
            continue;
        bool got = fgets(line, sizeof line, f) != NULL && parse_hex(&x, line);
        TF_CHECK(pclose(f) == 0);
        TF_CHECK(cz_poseidon_hash(&h, in, p->arity) == CZ_OK);
        TF_CHECK_MSG(got && cz_fr_equal(&h, &x), "arity %u: hash differs from the oracle",
                     p->arity);
    }
}

/* ------------------------------------------------------------- circuit --- */

/* neptune src/circuit.rs, test_poseidon_hash (Standard) and the count
 * sheet of the Filecoin facts (arity 11). */
static const size_t WANT_CONSTRAINTS[N_ARITY] = {311, 377, 505, 598, 761};

static void test_circuit(void)
{
    for (size_t a = 0; a < N_ARITY; a++) {
        unsigned ar = ARITY[a];
        const cz_poseidon_params *p = cz_poseidon_params_get(ar);
        TF_CHECK(p != NULL);
        if (p == NULL)
            continue;
        cz_fr in[CZ_POSEIDON_MAX_ARITY], h;
        for (unsigned i = 0; i < ar; i++)
            cz_fr_random(&in[i], &tf_rng);
        TF_CHECK(cz_poseidon_hash(&h, in, ar) == CZ_OK);

        cz_cs *cs = NULL, *ws = NULL;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
        TF_CHECK(cz_cs_new(&ws, CZ_CS_WITNESS, 0) == CZ_OK);
        if (cs == NULL || ws == NULL) {
            cz_cs_free(cs), cz_cs_free(ws);
            continue;
        }
        cz_var v[CZ_POSEIDON_MAX_ARITY], w[CZ_POSEIDON_MAX_ARITY], out, wout;
        for (unsigned i = 0; i < ar; i++) {
            /* one input public, as a circuit may pass either kind */
            v[i] = i == 0 ? cz_cs_alloc_input(cs, &in[i]) : cz_cs_alloc_aux(cs, &in[i]);
            w[i] = i == 0 ? cz_cs_alloc_input(ws, &in[i]) : cz_cs_alloc_aux(ws, &in[i]);
        }
        size_t aux0 = cz_cs_num_aux(cs);
        TF_CHECK(cz_poseidon_circuit(cs, v, ar, &out) == CZ_OK);
        TF_CHECK(cz_poseidon_circuit(ws, w, ar, &wout) == CZ_OK);
        size_t nc = cz_cs_num_constraints(cs);
        /* neptune's formula: 3 per S-box but the tag's first, plus one
         * allocation per non-first-round S-box input and for the result. */
        size_t sboxes = (size_t)p->t * p->rf + p->rp - 1;
        size_t formula = 3 * sboxes + (size_t)p->t * p->rf + p->rp - ar;
        printf("  arity %2u: %zu constraints (neptune %zu)\n", ar, nc, WANT_CONSTRAINTS[a]);
        TF_CHECK_MSG(nc == WANT_CONSTRAINTS[a] && nc == formula, "arity %u: %zu constraints", ar,
                     nc);
        /* every constraint allocates exactly one auxiliary */
        TF_CHECK(cz_cs_num_aux(cs) - aux0 == nc);
        TF_CHECK(out == wout && cz_var_is_aux(out));
        TF_CHECK(cz_var_index(out) < cz_cs_num_aux(cs) &&
                 cz_fr_equal(&cz_cs_aux(cs)[cz_var_index(out)], &h));

        size_t n_in = cz_cs_num_inputs(cs), n_aux = cz_cs_num_aux(cs);
        TF_CHECK(n_in == cz_cs_num_inputs(ws) && n_aux == cz_cs_num_aux(ws));
        cz_fr *asg = malloc((n_in + n_aux) * sizeof *asg);
        cz_fr *wasg = malloc((n_in + n_aux) * sizeof *wasg);
        cz_r1cs *r = NULL;
        TF_CHECK(asg != NULL && wasg != NULL && cz_cs_finish(cs, &r) == CZ_OK);
        if (asg != NULL && wasg != NULL && r != NULL) {
            cz_cs_write_assignment(cs, asg);
            cz_cs_write_assignment(ws, wasg);
            TF_CHECK(memcmp(asg, wasg, (n_in + n_aux) * sizeof *asg) == 0);
            char msg[256];
            size_t row = 0;
            int rc = cz_r1cs_check(r, asg, n_in + n_aux, NULL, &row, msg, sizeof msg);
            TF_CHECK_MSG(rc == CZ_OK, "arity %u: %s", ar, msg);
            /* a wrong result, or any wrong intermediate, is caught */
            cz_fr one = CZ_FR_ONE;
            cz_fr_add(&asg[n_in + cz_var_index(out)], &asg[n_in + cz_var_index(out)], &one);
            rc = cz_r1cs_check(r, asg, n_in + n_aux, NULL, &row, NULL, 0);
            TF_CHECK(rc == CZ_ERR_UNSATISFIED && row == nc - 1);
            cz_fr_sub(&asg[n_in + cz_var_index(out)], &asg[n_in + cz_var_index(out)], &one);
            size_t k = n_in + aux0 + (size_t)(cz_prng_next(&tf_rng) % (n_aux - aux0));
            cz_fr_add(&asg[k], &asg[k], &one);
            TF_CHECK(cz_r1cs_check(r, asg, n_in + n_aux, NULL, NULL, NULL, 0) ==
                     CZ_ERR_UNSATISFIED);
        }
        cz_r1cs_free(r);
        free(asg), free(wasg);
        cz_cs_free(cs), cz_cs_free(ws);
    }
}

/* The tagged circuit (a custom domain tag, as the PoSt and SnapDeals
 * gadgets use) in a WITNESS cs, which takes the values-only path, against
 * the same circuit in a RECORD cs (the linear-combination path): the same
 * assignment, every intermediate, and the native tagged hash's output;
 * inputs in aux and input positions, fresh random values and tags. */
static void test_witness_path_tagged(void)
{
    for (size_t a = 0; a < N_ARITY; a++) {
        unsigned ar = ARITY[a];
        cz_fr in[CZ_POSEIDON_MAX_ARITY], tag, h;
        for (unsigned i = 0; i < ar; i++)
            cz_fr_random(&in[i], &tf_rng);
        cz_fr_random(&tag, &tf_rng);
        TF_CHECK(cz_poseidon_hash_tagged(&h, in, ar, &tag) == CZ_OK);
        cz_cs *cs[2] = {NULL, NULL};
        TF_CHECK(cz_cs_new(&cs[0], CZ_CS_RECORD, 0) == CZ_OK);
        TF_CHECK(cz_cs_new(&cs[1], CZ_CS_WITNESS, 0) == CZ_OK);
        cz_var out[2] = {CZ_CS_ONE, CZ_CS_ONE};
        for (int m = 0; m < 2 && cs[0] && cs[1]; m++) {
            cz_var v[CZ_POSEIDON_MAX_ARITY];
            for (unsigned i = 0; i < ar; i++)
                v[i] = i % 2 ? cz_cs_alloc_input(cs[m], &in[i]) : cz_cs_alloc_aux(cs[m], &in[i]);
            TF_CHECK(cz_poseidon_circuit_tagged(cs[m], v, ar, &tag, &out[m]) == CZ_OK);
        }
        if (cs[0] && cs[1]) {
            size_t n_in = cz_cs_num_inputs(cs[0]), n_aux = cz_cs_num_aux(cs[0]);
            TF_CHECK_MSG(out[0] == out[1] && n_in == cz_cs_num_inputs(cs[1]) &&
                             n_aux == cz_cs_num_aux(cs[1]),
                         "arity %u: the witness path allocates differently", ar);
            cz_fr *asg = malloc((n_in + n_aux) * sizeof *asg);
            cz_fr *wasg = malloc((n_in + n_aux) * sizeof *wasg);
            if (asg && wasg && out[0] == out[1] && n_aux == cz_cs_num_aux(cs[1])) {
                cz_cs_write_assignment(cs[0], asg);
                cz_cs_write_assignment(cs[1], wasg);
                size_t first = n_in + n_aux;
                for (size_t i = 0; i < n_in + n_aux && first == n_in + n_aux; i++)
                    if (!cz_fr_equal(&asg[i], &wasg[i]))
                        first = i;
                TF_CHECK_MSG(first == n_in + n_aux, "arity %u: assignments differ at %zu of %zu",
                             ar, first, n_in + n_aux);
                TF_CHECK(cz_fr_equal(&wasg[n_in + cz_var_index(out[1])], &h));
            }
            free(asg), free(wasg);
        }
        cz_cs_free(cs[0]), cz_cs_free(cs[1]);
    }
}

static void test_bad_args(void)
{
    cz_fr in[CZ_POSEIDON_MAX_ARITY] = {{{0}}}, h;
    TF_CHECK(cz_poseidon_params_get(3) == NULL && cz_poseidon_params_get(0) == NULL);
    TF_CHECK(cz_poseidon_hash(&h, in, 3) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_poseidon_hash(NULL, in, 2) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_poseidon_hash(&h, NULL, 2) == CZ_ERR_INVALID_ARG);
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_var v[2] = {cz_cs_alloc_aux(cs, &in[0]), CZ_VAR_AUX | 7}, out = 5;
    TF_CHECK(cz_poseidon_circuit(cs, v, 2, &out) == CZ_ERR_INVALID_ARG && out == CZ_CS_ONE);
    v[1] = v[0];
    TF_CHECK(cz_poseidon_circuit(cs, v, 5, &out) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_poseidon_circuit(NULL, v, 2, &out) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_poseidon_circuit(cs, v, 2, NULL) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cs_num_constraints(cs) == 0);
    cz_cs_free(cs);
}

TF_MAIN(TF_TEST(test_cache_threads), TF_TEST(test_round_numbers), TF_TEST(test_neptune_vectors),
        TF_TEST(test_optimised_equals_textbook), TF_TEST(test_python_oracle), TF_TEST(test_circuit),
        TF_TEST(test_witness_path_tagged), TF_TEST(test_bad_args))
