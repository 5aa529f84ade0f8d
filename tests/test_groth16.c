/* Groth16 end to end (include/cuzk/groth16.h): insecure setup from a seed,
 * the split prover, the verifier (single and batch), bellperson file round
 * trips, and the snarkjs flavor, including proving with a .zkey made by
 * snarkjs itself.
 *
 * Circuits are random but satisfiable: each constraint multiplies two random
 * linear combinations of earlier variables (coefficients 1, -1 and random,
 * so all three CSR kinds occur) and binds the product to a new variable
 * through a C combination; some products are public inputs, allocated
 * between constraints; some aux never appear in A or B, so densities are
 * partial.  The verifier is the oracle: a proof that verifies for the
 * statement, and fails for any altered statement, witness or proof, shows
 * setup, H basis, queries and blinding agree.  The setup's threads and its
 * GPU back end are checked against the setup on one CPU thread, byte for
 * byte. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/circom.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/synthetic.h"
#include "cuzk/zkey.h"
#include "fixture.h"
#include "tf.h"

typedef struct {
    cz_r1cs *r;
    cz_fr *w; /* full assignment [inputs | aux] */
    size_t n_in, n_aux, n;
} circuit;

static cz_var pick(const cz_var *vars, size_t nv) { return vars[cz_prng_next(&tf_rng) % nv]; }

static void rand_coeff(cz_fr *c)
{
    switch (cz_prng_next(&tf_rng) % 3) {
    case 0:
        *c = CZ_FR_ONE;
        break;
    case 1:
        cz_fr_neg(c, &CZ_FR_ONE);
        break;
    default:
        cz_fr_random(c, &tf_rng);
    }
}

static const cz_fr *val(cz_cs *cs, cz_var v)
{
    return cz_var_is_aux(v) ? &cz_cs_aux(cs)[cz_var_index(v)] : &cz_cs_inputs(cs)[v];
}

/* lc = random combination of 1..3 earlier variables; *x its value. */
static void rand_lc(cz_lc *lc, cz_fr *x, cz_cs *cs, const cz_var *vars, size_t nv)
{
    cz_lc_clear(lc);
    *x = CZ_FR_ZERO;
    size_t k = 1 + cz_prng_next(&tf_rng) % 3;
    for (size_t i = 0; i < k; i++) {
        cz_var v = pick(vars, nv);
        cz_fr c, t;
        rand_coeff(&c);
        cz_lc_add_term(lc, v, &c);
        cz_fr_mul(&t, &c, val(cs, v));
        cz_fr_add(x, x, &t);
    }
}

/* A satisfiable random circuit with about n_cons constraints. */
static void make_circuit(circuit *c, size_t n_cons, size_t n_pub, bool unused_aux)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    size_t cap = n_cons + 16;
    cz_var *vars = malloc(cap * sizeof *vars);
    size_t nv = 0;
    vars[nv++] = CZ_CS_ONE;
    for (int i = 0; i < 4; i++) { /* free private variables */
        cz_fr x;
        cz_fr_random(&x, &tf_rng);
        vars[nv++] = cz_cs_alloc_aux(cs, &x);
    }
    { /* a first constraint over the four free variables, so each is used */
        cz_lc fa, fb, fc;
        cz_lc_init(&fa), cz_lc_init(&fb), cz_lc_init(&fc);
        cz_lc_add(&fa, vars[1]);
        cz_lc_add(&fa, vars[2]);
        cz_lc_add(&fb, vars[3]);
        cz_lc_add(&fb, vars[4]);
        cz_fr x, y, z;
        cz_fr_add(&x, val(cs, vars[1]), val(cs, vars[2]));
        cz_fr_add(&y, val(cs, vars[3]), val(cs, vars[4]));
        cz_fr_mul(&z, &x, &y);
        vars[nv] = cz_cs_alloc_aux(cs, &z);
        cz_lc_add(&fc, vars[nv++]);
        cz_cs_enforce(cs, &fa, &fb, &fc);
        cz_lc_free(&fa), cz_lc_free(&fb), cz_lc_free(&fc);
    }
    if (unused_aux) { /* never constrained: density holes, L at infinity */
        cz_fr unused_val;
        cz_fr_random(&unused_val, &tf_rng);
        cz_cs_alloc_aux(cs, &unused_val);
    }
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc);
    for (size_t k = 0; k < n_cons; k++) {
        cz_fr xa, xb, prod, extra, cc, t;
        rand_lc(&la, &xa, cs, vars, nv);
        rand_lc(&lb, &xb, cs, vars, nv);
        cz_fr_mul(&prod, &xa, &xb);
        /* C = c z + e y with y an earlier variable: z = (prod - e y) / c. */
        cz_var y = pick(vars, nv);
        rand_coeff(&cc);
        rand_coeff(&extra);
        cz_fr_mul(&t, &extra, val(cs, y));
        cz_fr_sub(&t, &prod, &t);
        cz_fr ci;
        cz_fr_inv(&ci, &cc);
        cz_fr_mul(&t, &t, &ci);
        bool pub = n_pub > 0 && cz_prng_next(&tf_rng) % (n_cons / n_pub + 1) == 0;
        cz_var z = pub ? cz_cs_alloc_input(cs, &t) : cz_cs_alloc_aux(cs, &t);
        if (pub)
            n_pub--;
        cz_lc_clear(&lc);
        cz_lc_add_term(&lc, z, &cc);
        cz_lc_add_term(&lc, y, &extra);
        cz_cs_enforce(cs, &la, &lb, &lc);
        if (nv < cap)
            vars[nv++] = z;
    }
    /* An input used only in B, and one only in C (input densities). */
    cz_fr x;
    cz_fr_random(&x, &tf_rng);
    cz_var in_b = cz_cs_alloc_input(cs, &x);
    cz_lc_clear(&la);
    cz_lc_add(&la, CZ_CS_ONE);
    cz_lc_clear(&lb);
    cz_lc_add(&lb, in_b);
    cz_var zb = cz_cs_alloc_aux(cs, &x);
    cz_lc_clear(&lc);
    cz_lc_add(&lc, zb);
    cz_cs_enforce(cs, &la, &lb, &lc);
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
    TF_CHECK(cz_cs_finish(cs, &c->r) == CZ_OK);
    c->n_in = cz_cs_num_inputs(cs);
    c->n_aux = cz_cs_num_aux(cs);
    c->n = c->n_in + c->n_aux;
    c->w = malloc(c->n * sizeof(cz_fr));
    cz_cs_write_assignment(cs, c->w);
    cz_cs_free(cs);
    free(vars);
    TF_CHECK(cz_r1cs_check(c->r, c->w, c->n, NULL, NULL, NULL, 0) == CZ_OK);
}

static void free_circuit(circuit *c)
{
    cz_r1cs_free(c->r);
    free(c->w);
}

static void seed_of(uint8_t seed[32]) { cz_prng_bytes(&tf_rng, seed, 32); }

/* make_circuit's circuit and its keys of the flavor from a fresh seed. */
static void keyed_circuit(circuit *c, cz_groth16_params *p, size_t n_cons, size_t n_pub,
                          bool unused_aux, cz_groth16_flavor flavor)
{
    make_circuit(c, n_cons, n_pub, unused_aux);
    uint8_t seed[32];
    seed_of(seed);
    TF_CHECK(cz_groth16_setup(p, c->r, seed, flavor, NULL) == CZ_OK);
}

/* Proves with params/r1cs and checks the proof verifies against the public
 * inputs w[1 .. n_in) and not against altered ones. */
static void prove_and_verify(const cz_groth16_params *p, const cz_r1cs *r, const cz_fr *w, size_t n,
                             size_t n_in, cz_pool *pool)
{
    cz_groth16_prove_opts o = {.pool = pool};
    cz_groth16_proof pf;
    char err[256];
    int rc = cz_groth16_prove(&pf, p, r, w, n, &o, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "prove: %s (%s)", cz_strerror(rc), err);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p->vk) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &pf, w + 1, n_in - 1) == CZ_OK);
    if (n_in > 1) {
        cz_fr *x = malloc((n_in - 1) * sizeof(cz_fr));
        memcpy(x, w + 1, (n_in - 1) * sizeof(cz_fr));
        size_t i = cz_prng_next(&tf_rng) % (n_in - 1);
        cz_fr_add(&x[i], &x[i], &CZ_FR_ONE);
        TF_CHECK(cz_groth16_verify(&pvk, &pf, x, n_in - 1) == CZ_ERR_BAD_PROOF);
        free(x);
    }
    cz_groth16_pvk_free(&pvk);
}

static void test_bellperson_prove_verify(void)
{
    static const size_t sizes[][2] = {{1, 0}, {5, 1}, {40, 3}, {300, 7}};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        circuit c;
        cz_groth16_params p;
        keyed_circuit(&c, &p, sizes[t][0], sizes[t][1], true, CZ_GROTH16_BELLPERSON);
        TF_CHECK(p.flavor == CZ_GROTH16_BELLPERSON);
        TF_CHECK(p.vk.n_ic == c.n_in && p.n_l == c.n_aux);
        size_t m = 2;
        while (m < cz_r1cs_num_constraints(c.r))
            m *= 2;
        TF_CHECK(p.n_h == m - 1);
        /* no point at infinity in the queries (bellperson drops them) */
        for (size_t i = 0; i < p.n_a; i++)
            TF_CHECK(!cz_g1_affine_is_inf(&p.a[i]));
        for (size_t i = 0; i < p.n_b_g2; i++)
            TF_CHECK(!cz_g2_affine_is_inf(&p.b_g2[i]));
        prove_and_verify(&p, c.r, c.w, c.n, c.n_in, NULL);
        cz_groth16_params_free(&p);
        free_circuit(&c);
    }
}

/* The same seed gives the same parameters; the same r, s the same proof;
 * fresh r, s a different proof that verifies too. */
static void test_determinism_and_blinding(void)
{
    circuit c;
    make_circuit(&c, 60, 2, true);
    uint8_t seed[32];
    seed_of(seed);
    cz_groth16_params p, q;
    TF_CHECK(cz_groth16_setup(&p, c.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(cz_groth16_setup(&q, c.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(p.mem_bytes == q.mem_bytes && memcmp(p.mem, q.mem, p.mem_bytes) == 0);
    TF_CHECK(memcmp(&p.vk.alpha_g1, &q.vk.alpha_g1, sizeof p.vk.alpha_g1) == 0);
    cz_groth16_params_free(&q);
    seed[0] ^= 1;
    TF_CHECK(cz_groth16_setup(&q, c.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(!cz_g1_affine_equal(&p.vk.alpha_g1, &q.vk.alpha_g1));
    cz_groth16_params_free(&q);

    cz_fr rs[2];
    cz_fr_random(&rs[0], &tf_rng);
    cz_fr_random(&rs[1], &tf_rng);
    cz_groth16_prove_opts o = {.rs = rs};
    cz_groth16_proof a, b, d;
    TF_CHECK(cz_groth16_prove(&a, &p, c.r, c.w, c.n, &o, NULL, 0) == CZ_OK);
    TF_CHECK(cz_groth16_prove(&b, &p, c.r, c.w, c.n, &o, NULL, 0) == CZ_OK);
    uint8_t ea[192], eb[192], ed[192];
    cz_groth16_proof_to_bytes(ea, &a);
    cz_groth16_proof_to_bytes(eb, &b);
    TF_CHECK_MEM(ea, eb, 192);
    TF_CHECK(cz_groth16_prove(&d, &p, c.r, c.w, c.n, NULL, NULL, 0) == CZ_OK);
    cz_groth16_proof_to_bytes(ed, &d);
    TF_CHECK(memcmp(ea, ed, 192) != 0);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &a, c.w + 1, c.n_in - 1) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &d, c.w + 1, c.n_in - 1) == CZ_OK);
    /* a pool gives the same proof for the same r, s */
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    o.pool = pool;
    TF_CHECK(cz_groth16_prove(&b, &p, c.r, c.w, c.n, &o, NULL, 0) == CZ_OK);
    cz_groth16_proof_to_bytes(eb, &b);
    TF_CHECK_MEM(ea, eb, 192);
    cz_pool_free(pool);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* A wrong witness (one value changed) or an altered proof does not verify. */
static void test_rejections(void)
{
    circuit c;
    cz_groth16_params p;
    keyed_circuit(&c, &p, 80, 2, true, CZ_GROTH16_BELLPERSON);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
    for (int it = 0; it < 3; it++) {
        cz_fr *w = malloc(c.n * sizeof(cz_fr));
        memcpy(w, c.w, c.n * sizeof(cz_fr));
        /* a free aux (0..3), which the first constraint uses */
        size_t i = c.n_in + (cz_prng_next(&tf_rng) % 4);
        cz_fr_add(&w[i], &w[i], &CZ_FR_ONE);
        TF_CHECK(cz_r1cs_check(c.r, w, c.n, NULL, NULL, NULL, 0) == CZ_ERR_UNSATISFIED);
        cz_groth16_proof pf;
        TF_CHECK(cz_groth16_prove(&pf, &p, c.r, w, c.n, NULL, NULL, 0) == CZ_OK);
        TF_CHECK(cz_groth16_verify(&pvk, &pf, w + 1, c.n_in - 1) == CZ_ERR_BAD_PROOF);
        free(w);
    }
    cz_groth16_proof pf, bad;
    TF_CHECK(cz_groth16_prove(&pf, &p, c.r, c.w, c.n, NULL, NULL, 0) == CZ_OK);
    cz_g1 t, g;
    cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
    bad = pf;
    cz_g1_from_affine(&t, &bad.a);
    cz_g1_add(&t, &t, &g);
    cz_g1_to_affine(&bad.a, &t);
    TF_CHECK(cz_groth16_verify(&pvk, &bad, c.w + 1, c.n_in - 1) == CZ_ERR_BAD_PROOF);
    bad = pf;
    cz_g1_from_affine(&t, &bad.c);
    cz_g1_add(&t, &t, &g);
    cz_g1_to_affine(&bad.c, &t);
    TF_CHECK(cz_groth16_verify(&pvk, &bad, c.w + 1, c.n_in - 1) == CZ_ERR_BAD_PROOF);
    bad = pf;
    bad.b = p.vk.beta_g2;
    TF_CHECK(cz_groth16_verify(&pvk, &bad, c.w + 1, c.n_in - 1) == CZ_ERR_BAD_PROOF);
    /* wrong input count */
    TF_CHECK(cz_groth16_verify(&pvk, &pf, c.w + 1, c.n_in) == CZ_ERR_INVALID_ARG);
    /* a proof verifies only under its own key */
    uint8_t seed2[32];
    seed_of(seed2);
    cz_groth16_params p2;
    TF_CHECK(cz_groth16_setup(&p2, c.r, seed2, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    cz_groth16_pvk pvk2;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk2, &p2.vk) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk2, &pf, c.w + 1, c.n_in - 1) == CZ_ERR_BAD_PROOF);
    cz_groth16_pvk_free(&pvk2);
    cz_groth16_params_free(&p2);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* Parameters of another circuit, a wrong assignment length and bad options
 * are refused with a message, before any work. */
static void test_argument_errors(void)
{
    circuit c, d;
    cz_groth16_params p;
    keyed_circuit(&c, &p, 30, 1, true, CZ_GROTH16_BELLPERSON);
    make_circuit(&d, 70, 1, true);
    char err[256] = "";
    cz_groth16_proof pf;
    TF_CHECK(cz_groth16_prove(&pf, &p, d.r, d.w, d.n, NULL, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "query") != NULL, "message: %s", err);
    TF_CHECK(cz_groth16_prove(&pf, &p, c.r, c.w, c.n - 1, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "assignment") != NULL, "message: %s", err);
    cz_groth16_prove_opts o = {.backend = (cz_backend)7};
    TF_CHECK(cz_groth16_prove(&pf, &p, c.r, c.w, c.n, &o, err, sizeof err) == CZ_ERR_INVALID_ARG);
    cz_groth16_pending *pd = (cz_groth16_pending *)&pf;
    TF_CHECK(cz_groth16_prove_start(&pd, &p, c.r, NULL, c.n, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(pd == NULL);
    TF_CHECK(cz_groth16_prove_finish(NULL, NULL) == CZ_ERR_INVALID_ARG);
    /* a pending proof dropped without finishing leaks nothing (ASan) */
    TF_CHECK(cz_groth16_prove_start(&pd, &p, c.r, c.w, c.n, NULL, err, sizeof err) == CZ_OK);
    cz_groth16_pending_free(pd);
    cz_groth16_prove_sizes sz;
    cz_groth16_prove_sizes_of(&sz, &p, c.r, 1, CZ_BACKEND_CPU);
    TF_CHECK(sz.b2_scalars == p.n_b_g2 * sizeof(cz_fr));
    TF_CHECK(sz.abc >= 3 * cz_r1cs_num_constraints(c.r) * sizeof(cz_fr));
    TF_CHECK(sz.start_scratch > 0 && sz.finish_scratch > 0);
    cz_groth16_prove_sizes gz;
    cz_groth16_prove_sizes_of(&gz, &p, c.r, 1, CZ_BACKEND_GPU);
    /* the GPU computes bellperson's a, b, c itself */
    TF_CHECK(gz.abc == 0 && !gz.start_scratch && !gz.b2_scalars && !gz.finish_scratch);
    cz_groth16_params_free(&p);
    free_circuit(&c);
    free_circuit(&d);
}

/* The split API: several pending proofs alive at once, finished in another
 * order; batch proving and batch verification. */
static void test_split_and_batch(void)
{
    enum { N = 4 };
    circuit c;
    cz_groth16_params p;
    keyed_circuit(&c, &p, 50, 3, true, CZ_GROTH16_BELLPERSON);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);

    cz_groth16_pending *pd[N];
    cz_groth16_proof pf[N];
    cz_fr *wcopy[N];
    for (int i = 0; i < N; i++) {
        wcopy[i] = malloc(c.n * sizeof(cz_fr));
        memcpy(wcopy[i], c.w, c.n * sizeof(cz_fr));
        TF_CHECK(cz_groth16_prove_start(&pd[i], &p, c.r, wcopy[i], c.n, NULL, NULL, 0) == CZ_OK);
        /* the handle owns what it needs: the assignment may go at once */
        memset(wcopy[i], 0xff, c.n * sizeof(cz_fr));
        free(wcopy[i]);
    }
    for (int i = N - 1; i >= 0; i--)
        TF_CHECK(cz_groth16_prove_finish(&pf[i], pd[i]) == CZ_OK);
    for (int i = 0; i < N; i++)
        TF_CHECK(cz_groth16_verify(&pvk, &pf[i], c.w + 1, c.n_in - 1) == CZ_OK);

    size_t ni = c.n_in - 1;
    cz_fr *in = malloc(N * ni * sizeof(cz_fr));
    for (int i = 0; i < N; i++)
        memcpy(in + i * ni, c.w + 1, ni * sizeof(cz_fr));
    TF_CHECK(cz_groth16_verify_batch(&pvk, pf, in, ni, N) == CZ_OK);
    TF_CHECK(cz_groth16_verify_batch(&pvk, pf, in, ni, 0) == CZ_OK);
    /* one bad statement spoils the batch */
    cz_fr_add(&in[2 * ni], &in[2 * ni], &CZ_FR_ONE);
    TF_CHECK(cz_groth16_verify_batch(&pvk, pf, in, ni, N) == CZ_ERR_BAD_PROOF);
    cz_fr_sub(&in[2 * ni], &in[2 * ni], &CZ_FR_ONE);
    /* two proofs swapped between statements still verify (same statement);
     * a proof's A and C from different proofs do not */
    cz_groth16_proof mixed[N];
    memcpy(mixed, pf, sizeof mixed);
    mixed[1].c = pf[2].c;
    TF_CHECK(cz_groth16_verify_batch(&pvk, mixed, in, ni, N) == CZ_ERR_BAD_PROOF);

    const cz_fr *ws[N] = {c.w, c.w, c.w, c.w};
    cz_groth16_proof bp[N];
    TF_CHECK(cz_groth16_prove_batch(bp, &p, c.r, ws, N, c.n, NULL, NULL, 0) == CZ_OK);
    TF_CHECK(cz_groth16_verify_batch(&pvk, bp, in, ni, N) == CZ_OK);
    free(in);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* Setup -> .params and .vk files -> read back (checked) -> prove with the
 * file's parameters -> verify with the file's key; 192-byte proofs too. */
static void test_bellperson_files(void)
{
    circuit c;
    cz_groth16_params p, q;
    keyed_circuit(&c, &p, 120, 2, false, CZ_GROTH16_BELLPERSON);
    char pp[] = "/tmp/cz_g16_params_XXXXXX", vp[] = "/tmp/cz_g16_vk_XXXXXX";
    int fd1 = mkstemp(pp), fd2 = mkstemp(vp);
    TF_CHECK(fd1 >= 0 && fd2 >= 0);
    close(fd1);
    close(fd2);
    TF_CHECK(cz_groth16_params_write_file(pp, &p) == CZ_OK);
    TF_CHECK(cz_groth16_vk_write_file(vp, &p.vk) == CZ_OK);
    char err[256];
    int rc = cz_groth16_params_read_file(&q, pp, 0, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "read: %s", err);
    TF_CHECK(q.mem_bytes == p.mem_bytes && memcmp(q.mem, p.mem, p.mem_bytes) == 0);
    cz_groth16_vk vk;
    TF_CHECK(cz_groth16_vk_read_file(&vk, vp, err, sizeof err) == CZ_OK);
    cz_groth16_proof pf, back;
    TF_CHECK(cz_groth16_prove(&pf, &q, c.r, c.w, c.n, NULL, NULL, 0) == CZ_OK);
    uint8_t bytes[CZ_GROTH16_PROOF_BYTES];
    cz_groth16_proof_to_bytes(bytes, &pf);
    TF_CHECK(cz_groth16_proof_from_bytes(&back, bytes, sizeof bytes) == CZ_OK);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &vk) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &back, c.w + 1, c.n_in - 1) == CZ_OK);
    /* the pre-compiled R1CS file works as well as the recorded one */
    char rp[] = "/tmp/cz_g16_pce_XXXXXX";
    int fd3 = mkstemp(rp);
    close(fd3);
    TF_CHECK(cz_pce_save(c.r, rp) == CZ_OK);
    cz_r1cs *loaded;
    TF_CHECK(cz_pce_load(&loaded, rp, 0, NULL, 0) == CZ_OK);
    TF_CHECK(cz_groth16_prove(&pf, &q, loaded, c.w, c.n, NULL, NULL, 0) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &pf, c.w + 1, c.n_in - 1) == CZ_OK);
    cz_r1cs_free(loaded);
    /* bellperson refuses a point at infinity in any query: an aux no
     * constraint uses has L = infinity, and the reader names it */
    circuit h;
    cz_groth16_params ph, qh;
    keyed_circuit(&h, &ph, 10, 1, true, CZ_GROTH16_BELLPERSON);
    TF_CHECK(cz_groth16_params_write_file(pp, &ph) == CZ_OK);
    TF_CHECK(cz_groth16_params_read_file(&qh, pp, 0, NULL, err, sizeof err) == CZ_ERR_IS_INFINITY);
    TF_CHECK_MSG(strstr(err, "section l, point ") != NULL, "message: %s", err);
    cz_groth16_params_free(&ph);
    free_circuit(&h);
    unlink(pp);
    unlink(vp);
    unlink(rp);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    cz_groth16_params_free(&q);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* snarkjs flavor from our setup: prove, verify, and the .zkey struct round
 * trip params -> zkey -> params. */
static void test_snarkjs_flavor(void)
{
    circuit c;
    make_circuit(&c, 100, 2, true);
    uint8_t seed[32];
    seed_of(seed);
    cz_groth16_params p, q;
    TF_CHECK(cz_groth16_setup(&p, c.r, seed, CZ_GROTH16_SNARKJS, NULL) == CZ_OK);
    TF_CHECK(p.flavor == CZ_GROTH16_SNARKJS);
    prove_and_verify(&p, c.r, c.w, c.n, c.n_in, NULL);
    cz_zkey z;
    TF_CHECK(cz_groth16_params_to_zkey(&z, &p, c.r) == CZ_OK);
    TF_CHECK(z.n_vars == c.n && z.n_public == c.n_in - 1);
    cz_r1cs *r2;
    char err[256];
    int rc = cz_groth16_params_from_zkey(&q, &r2, &z, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "from_zkey: %s", err);
    if (rc == CZ_OK) {
        TF_CHECK(q.mem_bytes == p.mem_bytes && memcmp(q.mem, p.mem, p.mem_bytes) == 0);
        TF_CHECK(cz_r1cs_num_constraints(r2) == cz_r1cs_num_constraints(c.r));
        /* C is not in a .zkey: the snarkjs prover derives it */
        prove_and_verify(&q, r2, c.w, c.n, c.n_in, NULL);
        cz_r1cs_free(r2);
        cz_groth16_params_free(&q);
    }
    /* a key whose input rows are damaged is refused */
    z.coefs[z.n_coefs - 1].signal ^= 1;
    TF_CHECK(cz_groth16_params_from_zkey(&q, &r2, &z, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(r2 == NULL);
    cz_zkey_free(&z);
    /* a bellperson-flavor key cannot become a .zkey */
    cz_groth16_params b;
    TF_CHECK(cz_groth16_setup(&b, c.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(cz_groth16_params_to_zkey(&z, &b, c.r) == CZ_ERR_INVALID_ARG);
    cz_groth16_params_free(&b);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* Proving with snarkjs's own key (tests/data/zkey/mul.zkey, from
 * `snarkjs groth16 setup` + one contribution) and circom's witness: our
 * verifier accepts the proof under the key's verifying key. */
static void test_snarkjs_zkey_fixture(void)
{
    char path[512], err[256];
    cz_zkey z;
    cz_circom_wtns wt;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    int rc = cz_zkey_load(&z, path, 0, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    tf_fixture_path(path, sizeof path, "circom", "mul.wtns");
    TF_CHECK(cz_circom_wtns_load(&wt, path, err, sizeof err) == CZ_OK);
    if (rc != CZ_OK)
        return;
    cz_groth16_params p;
    cz_r1cs *r;
    rc = cz_groth16_params_from_zkey(&p, &r, &z, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    /* the .zkey's matrices agree with circom's .r1cs */
    cz_circom_r1cs cr;
    cz_r1cs *rc2;
    tf_fixture_path(path, sizeof path, "circom", "mul.r1cs");
    TF_CHECK(cz_circom_r1cs_load(&cr, path, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_circom_r1cs_compile(&rc2, &cr, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_r1cs_check(rc2, wt.w, wt.n, NULL, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_r1cs_num_constraints(rc2) == cz_r1cs_num_constraints(r));
    for (int mat = 0; mat < 2; mat++)
        TF_CHECK(cz_r1cs_matrix(rc2, mat)->nnz == cz_r1cs_matrix(r, mat)->nnz);
    if (rc == CZ_OK) {
        TF_CHECK(wt.n == cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r));
        prove_and_verify(&p, r, wt.w, wt.n, cz_r1cs_num_inputs(r), NULL);
        /* a witness that does not satisfy gives a proof that fails */
        cz_fr *w = malloc(wt.n * sizeof(cz_fr));
        memcpy(w, wt.w, wt.n * sizeof(cz_fr));
        cz_fr_add(&w[wt.n - 1], &w[wt.n - 1], &CZ_FR_ONE);
        cz_groth16_proof pf;
        TF_CHECK(cz_groth16_prove(&pf, &p, r, w, wt.n, NULL, NULL, 0) == CZ_OK);
        cz_groth16_pvk pvk;
        TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
        TF_CHECK(cz_groth16_verify(&pvk, &pf, w + 1, cz_r1cs_num_inputs(r) - 1) ==
                 CZ_ERR_BAD_PROOF);
        cz_groth16_pvk_free(&pvk);
        free(w);
        cz_r1cs_free(r);
        cz_groth16_params_free(&p);
    }
    cz_r1cs_free(rc2);
    cz_circom_r1cs_free(&cr);
    cz_circom_wtns_free(&wt);
    cz_zkey_free(&z);
}

/* The GPU back end (H on the device) gives the same proof bytes as the CPU
 * for the same r, s; without a device it is refused, not silently run on
 * the CPU. */
/* The GPU back end (H and every MSM on the device) against the CPU, byte
 * for byte with the same r, s: both flavors, a circuit with unused aux
 * variables (density holes), and a second proof with the same key (the
 * device copy of the parameters is reused). */
/* streamed: the parameters are not kept on the device but streamed in
 * chunks of 300 points (CZ_CUDA_STREAM_PARAMS, read when the parameter set
 * is first used on the device; CZ_CUDA_STREAM_CHUNK, read by each proof),
 * and the bellperson flavor's matrices in chunks of 1024 rows
 * (CZ_CUDA_SPMV_CHUNK). */
static void check_gpu_backend(size_t n_cons, bool unused_aux, cz_groth16_flavor flavor,
                              bool streamed)
{
    if (streamed) {
        setenv("CZ_CUDA_STREAM_PARAMS", "1", 1);
        setenv("CZ_CUDA_STREAM_CHUNK", "300", 1);
        setenv("CZ_CUDA_SPMV_CHUNK", "1000", 1); /* 1024 rows a chunk */
    }
    circuit c;
    cz_groth16_params p;
    keyed_circuit(&c, &p, n_cons, 2, unused_aux, flavor);
    for (int round = 0; round < 2; round++) {
        cz_fr rs[2];
        cz_fr_random(&rs[0], &tf_rng);
        cz_fr_random(&rs[1], &tf_rng);
        cz_groth16_timings tm;
        memset(&tm, 0xff, sizeof tm);
        cz_groth16_prove_opts cpu = {.rs = rs},
                              gpu = {.rs = rs, .backend = CZ_BACKEND_GPU, .timings = &tm};
        cz_groth16_proof a, b;
        char err[256] = "";
        TF_CHECK(cz_groth16_prove(&a, &p, c.r, c.w, c.n, &cpu, NULL, 0) == CZ_OK);
        int rc = cz_groth16_prove(&b, &p, c.r, c.w, c.n, &gpu, err, sizeof err);
        if (!cz_cuda_available()) {
            TF_CHECK_MSG(rc == CZ_ERR_UNSUPPORTED, "%s", err);
            printf("test_groth16: no CUDA device: GPU back end refused as expected\n");
            break;
        }
        TF_CHECK_MSG(rc == CZ_OK, "%s", err);
        uint8_t ea[192], eb[192];
        cz_groth16_proof_to_bytes(ea, &a);
        cz_groth16_proof_to_bytes(eb, &b);
        TF_CHECK_MEM(ea, eb, 192);
        /* the bases that crossed the link: every query's once when streamed */
        uint64_t all = (uint64_t)(p.n_h + p.n_l + p.n_a + p.n_b_g1) * sizeof(cz_g1_affine) +
                       (uint64_t)p.n_b_g2 * sizeof(cz_g2_affine);
        TF_CHECK_MSG(streamed ? tm.link_bytes == all && tm.link_s > 0
                              : tm.link_bytes == 0 && tm.link_s == 0,
                     "%llu bytes streamed in %.6f s (the queries: %llu)",
                     (unsigned long long)tm.link_bytes, tm.link_s, (unsigned long long)all);
        cz_groth16_pvk pvk;
        TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
        TF_CHECK(cz_groth16_verify(&pvk, &b, c.w + 1, c.n_in - 1) == CZ_OK);
        cz_groth16_pvk_free(&pvk);
        printf("test_groth16: GPU back end proof equals the CPU's (%s, %zu constraints%s%s, "
               "proof %d)\n",
               flavor == CZ_GROTH16_SNARKJS ? "snarkjs" : "bellperson",
               cz_r1cs_num_constraints(c.r), unused_aux ? ", unused aux" : "",
               streamed ? ", parameters streamed" : "", round + 1);
        if (round == 0)
            continue;
        /* resident copies made ahead (prepare), then the host copy dropped:
         * the GPU proves the same bytes from the device copy alone, the CPU
         * refuses; a streamed set says so and keeps its host copy */
        bool resident = true;
        TF_CHECK_MSG(cz_groth16_prepare_device(&p, c.r, &resident, err, sizeof err) == CZ_OK, "%s",
                     err);
        TF_CHECK(resident == !streamed);
        if (!resident)
            break;
        size_t freed = 0;
        TF_CHECK(cz_groth16_params_drop_queries(&p, &freed) == CZ_OK && freed > 0);
        TF_CHECK(cz_groth16_prove(&b, &p, c.r, c.w, c.n, &gpu, err, sizeof err) == CZ_OK);
        cz_groth16_proof_to_bytes(eb, &b);
        TF_CHECK_MEM(ea, eb, 192);
        TF_CHECK(cz_groth16_prove(&b, &p, c.r, c.w, c.n, &cpu, err, sizeof err) ==
                 CZ_ERR_UNSUPPORTED);
        printf("test_groth16: the same proof with the host copy dropped (%zu bytes freed)\n",
               freed);
    }
    cz_groth16_params_free(&p);
    free_circuit(&c);
    unsetenv("CZ_CUDA_STREAM_PARAMS");
    unsetenv("CZ_CUDA_STREAM_CHUNK");
    unsetenv("CZ_CUDA_SPMV_CHUNK");
}

static void test_gpu_backend(void)
{
    check_gpu_backend(3000, false, CZ_GROTH16_BELLPERSON, false);
    if (!cz_cuda_available())
        return;
    check_gpu_backend(5000, true, CZ_GROTH16_BELLPERSON, false);
    check_gpu_backend(1000, true, CZ_GROTH16_SNARKJS, false);
    check_gpu_backend(5000, true, CZ_GROTH16_BELLPERSON, true);
    check_gpu_backend(1000, true, CZ_GROTH16_SNARKJS, true);
}

/* Device memory plans (docs/device-memory.md): budgets from the smallest
 * plan's bytes to the whole plan's on a 5000-constraint bellperson circuit
 * with unused aux, each set afresh (the parameters, matrices and tables
 * released, the budget capped at what stays held plus it), every proof
 * byte for byte the CPU's with the same r, s, the streamed MSMs in chunks
 * of 300 bases; one byte under the smallest plan refused, naming its
 * bytes; the whole plan with its MSMs sorted 500 bases at a time (the
 * resident chunked path); H with two vectors and with one, everything
 * streamed (CZ_CUDA_H_VECTORS, CZ_CUDA_STREAM_PARAMS). */
static void prove_at_budget(circuit *c, cz_groth16_params *p, const cz_fr rs[2],
                            const uint8_t want[192], uint64_t budget, const char *what)
{
    cz_cuda_params_release(p);
    cz_cuda_r1cs_release(c->r);
    cz_cuda_release();
    cz_cuda_mem_snapshot snap;
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &snap) == CZ_OK);
    TF_CHECK(cz_cuda_set_mem_budget(0, snap.reserved + budget) == CZ_OK);
    cz_groth16_prove_opts gpu = {.rs = rs, .backend = CZ_BACKEND_GPU};
    cz_groth16_proof b;
    char err[400] = "";
    int rc = cz_groth16_prove(&b, p, c->r, c->w, c->n, &gpu, err, sizeof err);
    if (want == NULL) {
        TF_CHECK_MSG(rc == CZ_ERR_TOO_BIG && strstr(err, "smallest device plan needs"),
                     "%s: %s (%s)", what, cz_strerror(rc), err);
        printf("test_groth16: %s: refused (%s)\n", what, err);
        return;
    }
    TF_CHECK_MSG(rc == CZ_OK, "%s: %s", what, err);
    uint8_t eb[192];
    cz_groth16_proof_to_bytes(eb, &b);
    TF_CHECK_MEM(want, eb, 192);
    cz_cuda_plan_info plan;
    TF_CHECK(cz_cuda_groth16_plan(p, &plan) == CZ_OK &&
             plan.kept_bytes + plan.proof_bytes <= budget);
    printf("test_groth16: %s: the CPU's proof (plan: %s)\n", what, plan.text);
}

static void test_gpu_budgets(void)
{
    if (!cz_cuda_available())
        return;
    circuit c;
    cz_groth16_params p;
    keyed_circuit(&c, &p, 5000, 2, true, CZ_GROTH16_BELLPERSON);
    cz_fr rs[2];
    cz_fr_random(&rs[0], &tf_rng);
    cz_fr_random(&rs[1], &tf_rng);
    cz_groth16_prove_opts cpu = {.rs = rs};
    cz_groth16_proof a;
    TF_CHECK(cz_groth16_prove(&a, &p, c.r, c.w, c.n, &cpu, NULL, 0) == CZ_OK);
    uint8_t ea[192];
    cz_groth16_proof_to_bytes(ea, &a);
    uint64_t least = 0, whole = 0;
    cz_cuda_release(); /* the tables counted in both */
    TF_CHECK(cz_groth16_device_plan_bytes(&p, c.r, &least, &whole) == CZ_OK);
    TF_CHECK_MSG(least > 0 && least <= whole, "least %llu, whole %llu",
                 (unsigned long long)least, (unsigned long long)whole);
    printf("test_groth16: device plans of %zu constraints: %llu bytes at least, %llu whole\n",
           cz_r1cs_num_constraints(c.r), (unsigned long long)least, (unsigned long long)whole);
    setenv("CZ_CUDA_STREAM_CHUNK", "300", 1);
    char what[80];
    prove_at_budget(&c, &p, rs, NULL, least - 1, "one byte under the smallest plan");
    for (int i = 0; i <= 3; i++) {
        uint64_t b = least + (whole - least) / 3 * (uint64_t)i;
        snprintf(what, sizeof what, "budget %llu bytes (%d/3 of the way)", (unsigned long long)b,
                 i);
        prove_at_budget(&c, &p, rs, ea, i == 3 ? whole : b, what);
    }
    unsetenv("CZ_CUDA_STREAM_CHUNK");
    setenv("CZ_CUDA_MSM_SORT", "500", 1);
    prove_at_budget(&c, &p, rs, ea, whole, "the whole plan, MSMs sorted 500 bases at a time");
    unsetenv("CZ_CUDA_MSM_SORT");
    /* H with two vectors, and with one (a's and a b's values parked in the
     * proof's host memory, brought back a piece at a time), every query
     * streamed: at this size a budget never forces them */
    setenv("CZ_CUDA_STREAM_PARAMS", "1", 1);
    setenv("CZ_CUDA_STREAM_CHUNK", "300", 1);
    for (int hv = 2; hv >= 1; hv--) {
        char n[8];
        snprintf(n, sizeof n, "%d", hv);
        setenv("CZ_CUDA_H_VECTORS", n, 1);
        snprintf(what, sizeof what, "H with at most %d vector%s, everything streamed", hv,
                 hv == 1 ? "" : "s");
        prove_at_budget(&c, &p, rs, ea, whole + (2ull << 30), what);
        cz_cuda_plan_info plan;
        TF_CHECK(cz_cuda_groth16_plan(&p, &plan) == CZ_OK);
        TF_CHECK_MSG(strstr(plan.text, hv == 1 ? "1 H vector" : "2 H vectors") != NULL, "%s",
                     plan.text);
    }
    unsetenv("CZ_CUDA_H_VECTORS");
    unsetenv("CZ_CUDA_STREAM_CHUNK");
    unsetenv("CZ_CUDA_STREAM_PARAMS");
    TF_CHECK(cz_cuda_set_mem_budget(0, 0) == CZ_OK);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* The yield hook (cz_groth16_prove_opts.yield): called between
 * prove_start's steps (4 times on the CPU: after H, the H, L and A MSMs; 8
 * on the GPU, which also pauses after the SpMV, twice inside the H MSM and
 * after B_g1, B_g2 following), its time left out of the
 * timings, and a whole other proof may run inside it (with no_wait, as the
 * engine nests one); both proofs verify and the outer one is the bytes it
 * is without the hook. */
typedef struct {
    int calls, nested_rc;
    double paused; /* seconds spent inside the hook, all calls */
    const cz_groth16_params *q;
    const circuit *d;
    cz_backend backend;
} yield_ctx;

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void yield_fn(void *arg)
{
    yield_ctx *y = arg;
    double t0 = mono_now();
    if (y->calls++ == 0) {
        cz_groth16_prove_opts o = {.backend = y->backend, .no_wait = true};
        cz_groth16_proof pf;
        y->nested_rc = cz_groth16_prove(&pf, y->q, y->d->r, y->d->w, y->d->n, &o, NULL, 0);
        cz_groth16_pvk pvk;
        if (y->nested_rc == CZ_OK && cz_groth16_pvk_prepare(&pvk, &y->q->vk) == CZ_OK) {
            y->nested_rc = cz_groth16_verify(&pvk, &pf, y->d->w + 1, y->d->n_in - 1);
            cz_groth16_pvk_free(&pvk);
        }
    }
    usleep(250000);
    y->paused += mono_now() - t0;
}

static void test_yield(void)
{
    circuit c, d;
    make_circuit(&c, 1000, 2, false);
    make_circuit(&d, 300, 3, false);
    uint8_t seed[32];
    seed_of(seed);
    cz_groth16_params p, q;
    TF_CHECK(cz_groth16_setup(&p, c.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    seed[0] ^= 1;
    TF_CHECK(cz_groth16_setup(&q, d.r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    for (int be = 0; be < 2; be++) {
        cz_backend backend = be ? CZ_BACKEND_GPU : CZ_BACKEND_CPU;
        if (be && !cz_cuda_available())
            break;
        cz_fr rs[2];
        cz_fr_random(&rs[0], &tf_rng);
        cz_fr_random(&rs[1], &tf_rng);
        yield_ctx y = {0, -1, 0, &q, &d, backend};
        cz_groth16_timings tm;
        cz_groth16_prove_opts plain = {.backend = backend, .rs = rs}, o = {.backend = backend,
                                                                           .rs = rs,
                                                                           .timings = &tm,
                                                                           .yield = yield_fn,
                                                                           .yield_ctx = &y};
        cz_groth16_proof a, b;
        char err[256] = "";
        double t0 = mono_now();
        TF_CHECK_MSG(cz_groth16_prove(&a, &p, c.r, c.w, c.n, &o, err, sizeof err) == CZ_OK, "%s",
                     err);
        double wall = mono_now() - t0;
        TF_CHECK(cz_groth16_prove(&b, &p, c.r, c.w, c.n, &plain, NULL, 0) == CZ_OK);
        TF_CHECK_MSG(y.calls == (be ? 8 : 4), "%s: %d calls", be ? "gpu" : "cpu", y.calls);
        TF_CHECK_MSG(y.nested_rc == CZ_OK, "nested proof: %s", cz_strerror(y.nested_rc));
        uint8_t ea[192], eb[192];
        cz_groth16_proof_to_bytes(ea, &a);
        cz_groth16_proof_to_bytes(eb, &b);
        TF_CHECK_MEM(ea, eb, 192);
        /* The steps are disjoint in time, so their sum is at most the call's
         * wall time less the time inside the hook; one pause counted would
         * add at least its 0.25 s sleep. The bound holds however loaded the
         * machine is (a fixed bound failed on a busy 2-core CI). */
        double sum = tm.spmv + tm.h + tm.msm_h + tm.msm_l + tm.msm_a + tm.msm_b_g1;
        double bound = wall - y.paused + 0.125;
        TF_CHECK_MSG(sum < bound,
                     "%s: the timings (%.3f s) hold the hook's time (call %.3f s, hook %.3f s)",
                     be ? "gpu" : "cpu", sum, wall, y.paused);
    }
    cz_groth16_params_free(&p);
    cz_groth16_params_free(&q);
    free_circuit(&c);
    free_circuit(&d);
}

/* cz_groth16_params_drop_queries on the CPU: the counts and the vk stay
 * (proofs made before still verify under it), the arrays go, the CPU
 * prover refuses the set naming why, a second drop is refused; without a
 * CUDA device prepare says so. */
static void test_drop_queries(void)
{
    circuit c;
    cz_groth16_params p;
    keyed_circuit(&c, &p, 200, 2, false, CZ_GROTH16_BELLPERSON);
    cz_groth16_proof pf;
    TF_CHECK(cz_groth16_prove(&pf, &p, c.r, c.w, c.n, NULL, NULL, 0) == CZ_OK);
    size_t n_h = p.n_h, n_l = p.n_l, bytes = p.mem_bytes, freed = 0;
    TF_CHECK(cz_groth16_params_has_queries(&p));
    TF_CHECK(cz_groth16_params_drop_queries(&p, &freed) == CZ_OK);
    TF_CHECK(!cz_groth16_params_has_queries(&p) && p.h == NULL && p.b_g2 == NULL);
    TF_CHECK(p.n_h == n_h && p.n_l == n_l && freed == bytes - p.mem_bytes &&
             p.mem_bytes == p.vk.n_ic * sizeof *p.vk.ic);
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
    TF_CHECK(cz_groth16_verify(&pvk, &pf, c.w + 1, c.n_in - 1) == CZ_OK);
    cz_groth16_pvk_free(&pvk);
    char err[256] = "";
    TF_CHECK(cz_groth16_prove(&pf, &p, c.r, c.w, c.n, NULL, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    TF_CHECK_MSG(strstr(err, "GPUs only") != NULL, "%s", err);
    TF_CHECK(cz_groth16_params_drop_queries(&p, &freed) == CZ_ERR_INVALID_ARG && freed == 0);
    bool res = true;
    if (!cz_cuda_available())
        TF_CHECK(cz_groth16_prepare_device(&p, c.r, &res, err, sizeof err) == CZ_ERR_UNSUPPORTED &&
                 !res);
    cz_groth16_params_free(&p);
    free_circuit(&c);
}

/* Two parameter sets are the same bytes: flavor, counts, the verifying key
 * and every query array. */
static bool params_same(const cz_groth16_params *a, const cz_groth16_params *b)
{
    const cz_groth16_vk *x = &a->vk, *y = &b->vk;
    if (a->flavor != b->flavor || a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a ||
        a->n_b_g1 != b->n_b_g1 || a->n_b_g2 != b->n_b_g2 || x->n_ic != y->n_ic)
        return false;
    return !memcmp(&x->alpha_g1, &y->alpha_g1, sizeof x->alpha_g1) &&
           !memcmp(&x->beta_g1, &y->beta_g1, sizeof x->beta_g1) &&
           !memcmp(&x->beta_g2, &y->beta_g2, sizeof x->beta_g2) &&
           !memcmp(&x->gamma_g2, &y->gamma_g2, sizeof x->gamma_g2) &&
           !memcmp(&x->delta_g1, &y->delta_g1, sizeof x->delta_g1) &&
           !memcmp(&x->delta_g2, &y->delta_g2, sizeof x->delta_g2) &&
           !memcmp(x->ic, y->ic, x->n_ic * sizeof *x->ic) &&
           !memcmp(a->h, b->h, a->n_h * sizeof *a->h) &&
           !memcmp(a->l, b->l, a->n_l * sizeof *a->l) &&
           !memcmp(a->a, b->a, a->n_a * sizeof *a->a) &&
           !memcmp(a->b_g1, b->b_g1, a->n_b_g1 * sizeof *a->b_g1) &&
           !memcmp(a->b_g2, b->b_g2, a->n_b_g2 * sizeof *a->b_g2);
}

/* The synthetic circuit of 2^log_rows rows with n_public inputs, recorded. */
static cz_r1cs *synthetic_r1cs(unsigned log_rows, uint32_t n_public)
{
    cz_synthetic sy = {log_rows, n_public, 7};
    cz_cs *cs = NULL;
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    TF_CHECK(cz_synthetic_synthesize(cs, &sy, 0) == CZ_OK);
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    cz_cs_free(cs);
    return r;
}

/* The setup on a pool (Lagrange values in chunks, the columns by column
 * ranges, the scalars and the products in parallel) gives the bytes of the
 * setup on the calling thread alone: random circuits from 1 to 3000
 * constraints (density holes in half of them), both flavors, and the
 * synthetic circuit.  Also the options' argument errors. */
static void check_threads(const cz_r1cs *r, cz_groth16_flavor flavor, cz_pool *pool,
                          const char *what)
{
    uint8_t seed[32];
    seed_of(seed);
    cz_groth16_params a, b;
    cz_groth16_setup_times tm;
    cz_groth16_setup_opts o = {.pool = pool, .times = &tm};
    char err[256] = "";
    TF_CHECK(cz_groth16_setup(&a, r, seed, flavor, NULL) == CZ_OK);
    int rc = cz_groth16_setup_with(&b, r, seed, flavor, &o, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "setup on a pool: %s", err);
    TF_CHECK_MSG(rc != CZ_OK || params_same(&a, &b),
                 "%s (%s, %zu constraints): the setup on a pool differs from one thread's", what,
                 flavor == CZ_GROTH16_SNARKJS ? "snarkjs" : "bellperson",
                 cz_r1cs_num_constraints(r));
    cz_groth16_params_free(&a);
    cz_groth16_params_free(&b);
}

static void test_setup_threads(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    static const size_t sizes[] = {1, 40, 3000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        circuit c;
        make_circuit(&c, sizes[i], 2, i % 2 == 1);
        check_threads(c.r, CZ_GROTH16_BELLPERSON, pool, "random circuit");
        check_threads(c.r, CZ_GROTH16_SNARKJS, pool, "random circuit");
        free_circuit(&c);
    }
    cz_r1cs *r = synthetic_r1cs(12, 3);
    check_threads(r, CZ_GROTH16_BELLPERSON, pool, "synthetic circuit");

    uint8_t seed[32] = {0};
    cz_groth16_params p;
    char err[256] = "";
    cz_groth16_setup_opts bad = {.backend = (cz_backend)7};
    TF_CHECK(cz_groth16_setup_with(&p, r, seed, CZ_GROTH16_BELLPERSON, &bad, err, sizeof err) ==
                 CZ_ERR_INVALID_ARG &&
             err[0] != 0 && p.mem == NULL);
    TF_CHECK(cz_groth16_setup_with(NULL, r, seed, CZ_GROTH16_BELLPERSON, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_groth16_setup_with(&p, r, NULL, CZ_GROTH16_BELLPERSON, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    cz_r1cs_free(r);
    cz_pool_free(pool);
    printf("test_groth16: setup on 4 threads equals the setup on one (random circuits 1..3000, "
           "both flavors, synthetic 2^12)\n");
}

/* The GPU back end of the setup (every fixed-base product on the device)
 * against the CPU's, byte for byte: a random circuit on the calling thread,
 * one with density holes on a pool in both flavors, the synthetic circuit
 * (Filecoin-like densities), and chunks of 1000 points (CZ_CUDA_FIXED_CHUNK)
 * so every large query crosses chunks.  Without a device it is refused
 * with a message, not run on the CPU. */
static void check_gpu_setup(const cz_r1cs *r, cz_groth16_flavor flavor, cz_pool *pool,
                            const char *what)
{
    uint8_t seed[32];
    seed_of(seed);
    cz_groth16_params a, b;
    cz_groth16_setup_times tm;
    cz_groth16_setup_opts o = {.backend = CZ_BACKEND_GPU, .pool = pool, .times = &tm};
    char err[256] = "";
    TF_CHECK(cz_groth16_setup_ex(&a, r, seed, flavor, pool, NULL) == CZ_OK);
    int rc = cz_groth16_setup_with(&b, r, seed, flavor, &o, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "GPU setup: %s", err);
    bool same = rc == CZ_OK && params_same(&a, &b);
    TF_CHECK_MSG(rc != CZ_OK || same, "%s: the GPU setup differs from the CPU's", what);
    if (same)
        printf("test_groth16: GPU setup equals the CPU's (%s, %s, %zu constraints; device "
               "products %.3f s)\n",
               what, flavor == CZ_GROTH16_SNARKJS ? "snarkjs" : "bellperson",
               cz_r1cs_num_constraints(r), tm.ic + tm.l + tm.a + tm.b_g1 + tm.b_g2 + tm.h + tm.vk);
    cz_groth16_params_free(&a);
    cz_groth16_params_free(&b);
}

static void test_gpu_setup(void)
{
    circuit c;
    make_circuit(&c, 500, 2, false);
    if (!cz_cuda_available()) {
        uint8_t seed[32] = {0};
        cz_groth16_params p;
        char err[256] = "";
        cz_groth16_setup_opts o = {.backend = CZ_BACKEND_GPU};
        TF_CHECK(cz_groth16_setup_with(&p, c.r, seed, CZ_GROTH16_BELLPERSON, &o, err, sizeof err) ==
                     CZ_ERR_UNSUPPORTED &&
                 p.mem == NULL);
        printf("test_groth16: no CUDA device: GPU setup refused as expected (%s)\n", err);
        free_circuit(&c);
        return;
    }
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    check_gpu_setup(c.r, CZ_GROTH16_BELLPERSON, NULL, "random circuit");
    free_circuit(&c);
    make_circuit(&c, 3000, 3, true);
    check_gpu_setup(c.r, CZ_GROTH16_BELLPERSON, pool, "random circuit, unused aux");
    check_gpu_setup(c.r, CZ_GROTH16_SNARKJS, pool, "random circuit, unused aux");
    cz_r1cs *r = synthetic_r1cs(14, 8);
    check_gpu_setup(r, CZ_GROTH16_BELLPERSON, pool, "synthetic circuit");
    setenv("CZ_CUDA_FIXED_CHUNK", "1000", 1);
    check_gpu_setup(r, CZ_GROTH16_BELLPERSON, pool, "synthetic circuit, chunks of 1000");
    check_gpu_setup(c.r, CZ_GROTH16_SNARKJS, NULL, "random circuit, chunks of 1000");
    unsetenv("CZ_CUDA_FIXED_CHUNK");
    cz_r1cs_free(r);
    free_circuit(&c);
    cz_pool_free(pool);
}

TF_MAIN(TF_TEST(test_bellperson_prove_verify), TF_TEST(test_determinism_and_blinding),
        TF_TEST(test_rejections), TF_TEST(test_argument_errors), TF_TEST(test_split_and_batch),
        TF_TEST(test_bellperson_files), TF_TEST(test_snarkjs_flavor),
        TF_TEST(test_snarkjs_zkey_fixture), TF_TEST(test_gpu_backend), TF_TEST(test_gpu_budgets), TF_TEST(test_yield),
        TF_TEST(test_drop_queries), TF_TEST(test_setup_threads), TF_TEST(test_gpu_setup))
