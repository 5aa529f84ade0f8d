/* Tests for COUNT mode and the R1CS fingerprint (include/cuzk/cs.h): the
 * fingerprint counted while a circuit runs equals, field by field, the one
 * read off its recording and off that recording saved and loaded as a PCE
 * file, for the synthetic circuit at several sizes, the SHA-256 gadgets and
 * random circuits (replayable from the run seed); the digest follows its
 * definition byte for byte; a changed coefficient, kind or variable,
 * swapped A and B or an extra input change it; digests and products of
 * fixed circuits pinned across the PCE version 1 -> 2 change; the mode's
 * contract (no values, namespaces ignored, errors). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/sha256.h"
#include "cuzk/synthetic.h"
#include "tf.h"

/* ------------------------------------------------------------- helpers --- */

typedef void (*circuit_fn)(cz_cs *cs, const void *arg);

static cz_fr fr_i64(int64_t v)
{
    cz_fr x;
    cz_fr_from_u64(&x, (uint64_t)(v < 0 ? -v : v));
    if (v < 0)
        cz_fr_neg(&x, &x);
    return x;
}

#define FP_FIELD(f, k)                                                                             \
    TF_CHECK_MSG(a->f == b->f, "%s: %s (k = %d): %llu != %llu", what, #f, k,                       \
                 (unsigned long long)a->f, (unsigned long long)b->f)

static void fp_check_equal(const cz_r1cs_fingerprint *a, const cz_r1cs_fingerprint *b,
                           const char *what)
{
    FP_FIELD(n_inputs, 0);
    FP_FIELD(n_aux, 0);
    FP_FIELD(n_constraints, 0);
    FP_FIELD(n_rows, 0);
    for (int k = 0; k < 3; k++) {
        FP_FIELD(nnz[k], k);
        FP_FIELD(ngen[k], k);
        FP_FIELD(density[k], k);
    }
    TF_CHECK_MSG(memcmp(a->digest, b->digest, 32) == 0, "%s: digests differ", what);
}

/* The fingerprint of circuit f(arg) counted in COUNT mode (*fp). */
static int count_fp(circuit_fn f, const void *arg, cz_r1cs_fingerprint *fp)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
    if (cs == NULL)
        return -1;
    f(cs, arg);
    int err = cz_cs_count_finish(cs, fp);
    TF_CHECK_MSG(err == CZ_OK, "count_finish: %s", cz_strerror(err));
    TF_CHECK(cz_cs_num_constraints(cs) == fp->n_constraints);
    TF_CHECK(cz_cs_num_inputs(cs) == fp->n_inputs && cz_cs_num_aux(cs) == fp->n_aux);
    cz_cs_free(cs);
    return err == CZ_OK ? 0 : -1;
}

/* Records f(arg) (*out, the caller frees it). */
static cz_r1cs *record(circuit_fn f, const void *arg)
{
    cz_cs *cs;
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    if (cs == NULL)
        return NULL;
    f(cs, arg);
    int err = cz_cs_finish(cs, &r);
    TF_CHECK_MSG(err == CZ_OK, "finish: %s", cz_strerror(err));
    cz_cs_free(cs);
    return r;
}

/* The counted fingerprint of f(arg) equals the recorded one, whose counts
 * are the r1cs getters', and the one of the recording saved and loaded
 * (pce true).  *out: the counted one. */
static void check_circuit(circuit_fn f, const void *arg, const char *what, bool pce,
                          cz_r1cs_fingerprint *out)
{
    cz_r1cs_fingerprint c, r;
    memset(out, 0, sizeof *out);
    cz_r1cs *rec = record(f, arg);
    if (count_fp(f, arg, &c) || rec == NULL) {
        cz_r1cs_free(rec);
        return;
    }
    cz_r1cs_fingerprint_of(rec, &r);
    fp_check_equal(&c, &r, what);
    TF_CHECK(r.n_inputs == cz_r1cs_num_inputs(rec) && r.n_aux == cz_r1cs_num_aux(rec));
    TF_CHECK(r.n_constraints == cz_r1cs_num_circuit_constraints(rec));
    TF_CHECK(r.n_rows == cz_r1cs_num_constraints(rec) && r.n_rows == r.n_constraints + r.n_inputs);
    for (int k = 0; k < 3; k++) {
        size_t d;
        cz_r1cs_density(rec, (cz_density)k, &d);
        TF_CHECK(r.nnz[k] == cz_r1cs_matrix(rec, k)->nnz);
        TF_CHECK(r.ngen[k] == cz_r1cs_matrix(rec, k)->ngen);
        TF_CHECK(r.density[k] == d);
    }
    if (pce) {
        char path[128], msg[256];
        snprintf(path, sizeof path, "/tmp/cz_test_cs_count_%ld.pce", (long)getpid());
        cz_r1cs *l = NULL;
        TF_CHECK(cz_pce_save(rec, path) == CZ_OK);
        TF_CHECK_MSG(cz_pce_load(&l, path, 0, msg, sizeof msg) == CZ_OK, "%s", msg);
        unlink(path);
        if (l) {
            cz_r1cs_fingerprint p;
            cz_r1cs_fingerprint_of(l, &p);
            fp_check_equal(&p, &c, what);
        }
        cz_r1cs_free(l);
    }
    cz_r1cs_free(rec);
    *out = c;
}

/* ------------------------------------------------- the digest, by hand --- */

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        *p++ = (uint8_t)(v >> 8 * i);
    return p;
}

static uint8_t *put_gen(uint8_t *p, uint32_t code, int64_t c)
{
    cz_fr x = fr_i64(c);
    p = put32(p, code);
    cz_fr_to_bytes_le(p, &x);
    return p + 32;
}

#define AUX  (1u << 31)
#define ONE_ (1u << 29)
#define NEG_ (2u << 29)

/* Input 0 ONE; aux 0, 1; input 1 allocated between the two constraints:
 *   (2 a0 + a0 - ONE) * a1 = x1 + a1 - a1,   0 * 0 = 7 a1. */
static void hand_circuit(cz_cs *cs, const void *arg)
{
    (void)arg;
    cz_var a0 = cz_cs_alloc_aux(cs, NULL), a1 = cz_cs_alloc_aux(cs, NULL);
    cz_lc a, b, c;
    cz_lc_init(&a), cz_lc_init(&b), cz_lc_init(&c);
    cz_fr two = fr_i64(2), seven = fr_i64(7);
    cz_lc_add_term(&a, a0, &two), cz_lc_add(&a, a0), cz_lc_sub(&a, CZ_CS_ONE);
    cz_lc_add(&b, a1);
    cz_var x1 = cz_cs_alloc_input(cs, NULL);
    cz_lc_add(&c, x1), cz_lc_add(&c, a1), cz_lc_sub(&c, a1);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_clear(&a), cz_lc_clear(&c);
    cz_lc_add_term(&c, a1, &seven);
    cz_cs_enforce(cs, &a, NULL, &c);
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
}

static void test_digest_definition(void)
{
    uint8_t sa[256], sb[64], sc[128], *p;
    /* A: row 0 {ONE: -1, a0: 3}, row 1 {}, input rows {x0: 1}, {x1: 1} */
    p = put32(sa, 2);
    p = put32(p, NEG_ | 0);
    p = put_gen(p, AUX | 0, 3);
    p = put32(p, 0);
    p = put32(p, 1), p = put32(p, ONE_ | 0);
    p = put32(p, 1), p = put32(p, ONE_ | 1);
    size_t la = (size_t)(p - sa);
    /* B: row 0 {a1: 1}, then three empty rows */
    p = put32(sb, 1);
    p = put32(p, AUX | ONE_ | 1);
    for (int i = 0; i < 3; i++)
        p = put32(p, 0);
    size_t lb = (size_t)(p - sb);
    /* C: row 0 {x1: 1}, row 1 {a1: 7}, two empty input rows */
    p = put32(sc, 1);
    p = put32(p, ONE_ | 1);
    p = put32(p, 1);
    p = put_gen(p, AUX | 1, 7);
    p = put32(p, 0), p = put32(p, 0);
    size_t lc = (size_t)(p - sc);
    uint8_t top[24 + 96];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 8; j++)
            top[8 * i + j] = j == 0 ? 2 : 0; /* 2 inputs, 2 aux, 2 constraints */
    TF_CHECK(cz_blake2b(top + 24, 32, NULL, 0, sa, la) == CZ_OK);
    TF_CHECK(cz_blake2b(top + 56, 32, NULL, 0, sb, lb) == CZ_OK);
    TF_CHECK(cz_blake2b(top + 88, 32, NULL, 0, sc, lc) == CZ_OK);
    cz_r1cs_fingerprint want = {.n_inputs = 2,
                                .n_aux = 2,
                                .n_constraints = 2,
                                .n_rows = 4,
                                .nnz = {4, 1, 2},
                                .ngen = {1, 0, 1},
                                .density = {1, 0, 1}};
    cz_sha256(want.digest, top, sizeof top);
    cz_r1cs_fingerprint got;
    check_circuit(hand_circuit, NULL, "hand circuit", true, &got);
    fp_check_equal(&got, &want, "hand circuit against its definition");
}

/* ------------------------------------------------------------ circuits --- */

static void synthetic_circuit(cz_cs *cs, const void *arg)
{
    TF_CHECK(cz_synthetic_synthesize(cs, arg, 7) == CZ_OK);
}

static void test_synthetic(void)
{
    static const cz_synthetic S[] = {{10, 0, 1}, {11, 2, 5}, {13, 5, 9}, {14, 64, 2}};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "synthetic-%u with %u public", S[i].log_rows, S[i].n_public);
        cz_r1cs_fingerprint fp;
        check_circuit(synthetic_circuit, &S[i], what, i < 2, &fp);
        TF_CHECK(fp.n_rows == (1ull << S[i].log_rows) && fp.n_inputs == 1 + S[i].n_public);
        TF_CHECK(fp.ngen[0] && fp.ngen[1] && fp.ngen[2]);
    }
    /* the witness seed changes values, never the shape */
    cz_synthetic s1 = {10, 3, 1}, s2 = {10, 3, 99};
    cz_r1cs_fingerprint f1, f2;
    if (count_fp(synthetic_circuit, &s1, &f1) == 0 && count_fp(synthetic_circuit, &s2, &f2) == 0)
        fp_check_equal(&f1, &f2, "synthetic seeds 1 and 99");
}

/* SHA-256 of *(unsigned *)arg allocated bits (0: one compression of a
 * 512-bit block under the constant IV). */
static void sha_circuit(cz_cs *cs, const void *arg)
{
    unsigned n = *(const unsigned *)arg;
    cz_bool *bits = malloc((n ? n : 512) * sizeof *bits), out[256];
    TF_CHECK(bits != NULL);
    if (bits == NULL)
        return;
    for (unsigned i = 0; i < (n ? n : 512); i++)
        bits[i] = cz_bool_is(cz_abit_alloc(cs, (i * 7) % 3 == 0));
    if (n) {
        TF_CHECK(cz_sha256_gadget(cs, bits, n, out) == CZ_OK);
    } else {
        cz_u32 iv[8], h[8];
        cz_sha256_iv_gadget(iv);
        cz_sha256_compress_gadget(cs, bits, iv, h);
    }
    free(bits);
}

static void test_sha256(void)
{
    static const unsigned N[] = {0, 8, 512, 1024};
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "sha256 of %u bits", N[i]);
        cz_r1cs_fingerprint fp;
        check_circuit(sha_circuit, &N[i], what, i < 2, &fp);
        TF_CHECK(fp.n_constraints > 0);
    }
}

/* ------------------------------------------------------------ pinned --- */

static void synthetic_part0(cz_cs *cs, const void *arg)
{
    TF_CHECK(cz_synthetic_synthesize(cs, arg, 0) == CZ_OK);
}

static void hex32(uint8_t out[32], const char *hex)
{
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* SHA-256 of A w | B w | C w (3 rows values, little-endian limbs). */
static void abc_hash(const cz_r1cs *r, const cz_fr *w, size_t n, uint8_t out[32])
{
    size_t m = cz_r1cs_num_constraints(r);
    cz_fr *v = malloc(3 * m * sizeof *v);
    TF_CHECK(v != NULL);
    if (v == NULL)
        return;
    TF_CHECK(cz_r1cs_spmv(r, w, n, v, v + m, v + 2 * m, NULL) == CZ_OK);
    cz_sha256(out, (const uint8_t *)v, 3 * m * sizeof *v);
    free(v);
}

/* The fingerprint digests (`cuzk-bench circuit-info synthetic-10`,
 * `synthetic-16`, `sha256-compress`, `sha256-512`) and the products
 * A w, B w, C w over the recorded assignment (synthetic partition 0; SHA
 * input bit i set when 7i = 0 mod 3) of fixed circuits, pinned to what the
 * version 1 layout gave (u64 row pointers, a 32-byte coefficient per
 * general entry; main at 4110a73): the dictionary layout changes neither,
 * recorded, counted or loaded from a file. */
static void test_pinned(void)
{
    static const cz_synthetic S10 = {10, 2, 1}, S16 = {16, 2, 1};
    static const unsigned SHA_COMPRESS = 0, SHA_512 = 512;
    static const struct {
        const char *name;
        circuit_fn f;
        const void *arg;
        const char *digest, *abc;
    } pins[] = {
        {"synthetic-10", synthetic_part0, &S10,
         "741bc35c654fe1f4d856fff8fb18e23d23da06c3de3185c19c3cc3e457f838ce",
         "4bdf2fb533b5404ab298201ae65b9d38857966ffbd11bb4c88cbc8d129dc1d38"},
        {"synthetic-16", synthetic_part0, &S16,
         "6511787be837222e623292f52f1a2fbdf1a5308b4d366676dbe8593fbcf7fc00",
         "5330910f177471880e7f1d3af67262f0734f6f4ae2bed6ab4430d045ee8de723"},
        {"sha256-compress", sha_circuit, &SHA_COMPRESS,
         "57c08be23c4de6ae2b7605717bce9c9dc5c856e33f7c52258f8cf37363db5a1d",
         "4e08e353b1d22e1eca42667860b9b462ec10b0b0052c4f35684fce479198f601"},
        {"sha256-512", sha_circuit, &SHA_512,
         "e5586e1c3b88c4000c79c1d5a0e2653c739bd49aa39bf86519c267ce9d3791b1",
         "2bf504ac770a1c9ed0e99446e27b4cb145a9f1aba10442e9c75a56b11db36b24"},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        uint8_t dig[32], abc[32], h[32];
        hex32(dig, pins[i].digest);
        hex32(abc, pins[i].abc);
        cz_r1cs_fingerprint c, fp;
        if (count_fp(pins[i].f, pins[i].arg, &c) == 0)
            TF_CHECK_MSG(memcmp(c.digest, dig, 32) == 0, "%s: counted digest", pins[i].name);
        cz_cs *cs;
        cz_r1cs *r = NULL, *l = NULL;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
        pins[i].f(cs, pins[i].arg);
        TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
        if (r == NULL) {
            cz_cs_free(cs);
            continue;
        }
        size_t n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
        cz_fr *w = malloc(n * sizeof *w);
        cz_cs_write_assignment(cs, w);
        cz_r1cs_fingerprint_of(r, &fp);
        TF_CHECK_MSG(memcmp(fp.digest, dig, 32) == 0, "%s: recorded digest", pins[i].name);
        abc_hash(r, w, n, h);
        TF_CHECK_MSG(memcmp(h, abc, 32) == 0, "%s: recorded A w, B w, C w", pins[i].name);
        char path[128], msg[256];
        snprintf(path, sizeof path, "/tmp/cz_test_cs_count_pin_%ld.pce", (long)getpid());
        TF_CHECK(cz_pce_save(r, path) == CZ_OK);
        TF_CHECK_MSG(cz_pce_load(&l, path, 0, msg, sizeof msg) == CZ_OK, "%s", msg);
        unlink(path);
        if (l) {
            cz_r1cs_fingerprint_of(l, &fp);
            TF_CHECK_MSG(memcmp(fp.digest, dig, 32) == 0, "%s: loaded digest", pins[i].name);
            abc_hash(l, w, n, h);
            TF_CHECK_MSG(memcmp(h, abc, 32) == 0, "%s: loaded A w, B w, C w", pins[i].name);
            TF_CHECK(cz_r1cs_check(l, w, n, NULL, NULL, NULL, 0) == CZ_OK);
        }
        free(w);
        cz_r1cs_free(l);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
}

/* ------------------------------------------------------ random circuits --- */

/* Changes to the fixed constraint of a random circuit (see random_circuit). */
enum { MUT_NONE, MUT_COEF, MUT_KIND, MUT_SWAP, MUT_VAR, MUT_INPUT_VAR, MUT_EXTRA_INPUT, N_MUT };
static const char *const MUT_NAME[N_MUT] = {
    "none", "a coefficient", "a kind", "A and B", "a variable", "aux for input", "an extra input"};

typedef struct {
    uint64_t seed;
    size_t n_cons;
    int mut;
} rnd_circ;

static cz_fr rnd_coef(cz_prng *g)
{
    cz_fr x;
    switch (cz_prng_next(g) % 6) {
    case 0:
        return CZ_FR_ONE;
    case 1:
        return fr_i64(-1);
    case 2:
        return CZ_FR_ZERO;
    case 3:
        return fr_i64((int64_t)(cz_prng_next(g) % 9) - 4);
    default:
        cz_fr_random(&x, g);
        return x;
    }
}

/* A random combination over vars[0..nv): 0..6 terms, sometimes 17..40 (the
 * sort takes another path), variables repeated, sums that cancel. */
static void rnd_lc(cz_prng *g, cz_lc *lc, const cz_var *vars, size_t nv)
{
    cz_lc_clear(lc);
    size_t n = cz_prng_next(g) % 8 == 0 ? 17 + cz_prng_next(g) % 24 : cz_prng_next(g) % 7;
    for (size_t i = 0; i < n; i++) {
        cz_var v =
            i && cz_prng_next(g) % 4 == 0 ? lc->t[lc->n - 1].var : vars[cz_prng_next(g) % nv];
        cz_fr c = rnd_coef(g);
        cz_lc_add_term(lc, v, &c);
        if (cz_prng_next(g) % 8 == 0) { /* cancelled later in the row */
            cz_fr_neg(&c, &c);
            cz_lc_add_term(lc, v, &c);
        }
    }
}

/* n_cons random constraints over inputs and aux allocated between them,
 * with the fixed constraint (3 a0 + a1) * (a0 - a2) = 5 a1 + ONE in the
 * middle, changed by mut. */
static void random_circuit(cz_cs *cs, const void *arg)
{
    const rnd_circ *rc = arg;
    cz_prng g;
    cz_prng_seed(&g, rc->seed);
    size_t cap = 8 + 4 * rc->n_cons, nv = 0;
    cz_var *vars = malloc(cap * sizeof *vars);
    TF_CHECK(vars != NULL);
    if (vars == NULL)
        return;
    cz_fr val;
    vars[nv++] = CZ_CS_ONE;
    cz_var a[3], x1;
    for (int i = 0; i < 3; i++)
        vars[nv++] = a[i] = cz_cs_alloc_aux(cs, NULL);
    vars[nv++] = x1 = cz_cs_alloc_input(cs, NULL);
    cz_lc la, lb, lc;
    cz_lc_init(&la), cz_lc_init(&lb), cz_lc_init(&lc);
    for (size_t q = 0; q < rc->n_cons; q++) {
        uint64_t r = cz_prng_next(&g);
        cz_fr_random(&val, &g);
        if (r % 4 == 0)
            vars[nv++] = cz_cs_alloc_input(cs, &val);
        for (uint64_t k = 0; k < (r >> 8) % 3; k++)
            vars[nv++] = cz_cs_alloc_aux(cs, &val);
        if (q == rc->n_cons / 2) {
            cz_fr three = fr_i64(rc->mut == MUT_COEF ? 4 : 3), five = fr_i64(5);
            cz_lc_clear(&la), cz_lc_clear(&lb), cz_lc_clear(&lc);
            cz_lc_add_term(&la, a[0], &three), cz_lc_add(&la, a[1]);
            cz_lc_add(&lb, a[0]);
            if (rc->mut == MUT_KIND)
                cz_lc_add(&lb, a[2]);
            else
                cz_lc_sub(&lb, a[2]);
            cz_lc_add_term(&lc,
                           rc->mut == MUT_VAR         ? a[2]
                           : rc->mut == MUT_INPUT_VAR ? x1
                                                      : a[1],
                           &five);
            cz_lc_add(&lc, CZ_CS_ONE);
            if (rc->mut == MUT_SWAP)
                cz_cs_enforce(cs, &lb, &la, &lc);
            else
                cz_cs_enforce(cs, &la, &lb, &lc);
            continue;
        }
        rnd_lc(&g, &la, vars, nv);
        rnd_lc(&g, &lb, vars, nv);
        rnd_lc(&g, &lc, vars, nv);
        cz_cs_enforce(cs, r % 16 == 1 ? NULL : &la, r % 16 == 2 ? NULL : &lb,
                      r % 16 == 3 ? NULL : &lc);
    }
    if (rc->mut == MUT_EXTRA_INPUT)
        cz_cs_alloc_input(cs, NULL);
    cz_lc_free(&la), cz_lc_free(&lb), cz_lc_free(&lc);
    free(vars);
}

static void test_random(void)
{
    for (unsigned iter = 0; iter < 40 * tf_scale; iter++) {
        rnd_circ rc = {cz_prng_next(&tf_rng), 1 + cz_prng_next(&tf_rng) % 200, MUT_NONE};
        char what[96];
        snprintf(what, sizeof what, "random circuit %u (seed %llu, %zu constraints)", iter,
                 (unsigned long long)rc.seed, rc.n_cons);
        cz_r1cs_fingerprint base, fp;
        check_circuit(random_circuit, &rc, what, iter % 4 == 0, &base);
        for (rc.mut = MUT_NONE + 1; rc.mut < N_MUT; rc.mut++) {
            check_circuit(random_circuit, &rc, what, false, &fp);
            TF_CHECK_MSG(memcmp(fp.digest, base.digest, 32) != 0, "%s: changing %s kept the digest",
                         what, MUT_NAME[rc.mut]);
            TF_CHECK(fp.n_rows == base.n_rows + (rc.mut == MUT_EXTRA_INPUT));
        }
    }
}

/* ------------------------------------------------------------ contract --- */

static void test_count_contract(void)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, CZ_CS_NAMESPACES) == CZ_OK);
    if (cs == NULL)
        return;
    TF_CHECK(cz_cs_get_mode(cs) == CZ_CS_COUNT && cz_cs_is_recording(cs));
    cz_fr v = fr_i64(9);
    cz_var x = cz_cs_alloc_aux(cs, &v), y = cz_cs_alloc_input(cs, &v);
    TF_CHECK(cz_var_is_aux(x) && cz_var_index(x) == 0 && !cz_var_is_aux(y) && cz_var_index(y) == 1);
    TF_CHECK(cz_cs_inputs(cs) == NULL && cz_cs_aux(cs) == NULL);
    cz_fr w[2] = {v, v};
    cz_cs_write_assignment(cs, w);
    TF_CHECK(cz_fr_equal(&w[0], &v) && cz_fr_equal(&w[1], &v));
    /* namespaces are no-ops: popping the root is no error */
    cz_cs_push_ns(cs, "a");
    cz_cs_pop_ns(cs);
    cz_cs_pop_ns(cs);
    cz_lc a;
    cz_lc_init(&a);
    cz_lc_add(&a, x);
    cz_cs_enforce(cs, &a, &a, NULL);
    TF_CHECK(cz_cs_error(cs) == CZ_OK && cz_cs_num_constraints(cs) == 1);
    TF_CHECK(cz_cs_num_inputs(cs) == 2 && cz_cs_num_aux(cs) == 1);
    cz_r1cs *r = (cz_r1cs *)1;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_ERR_INVALID_ARG && r == NULL);
    TF_CHECK(cz_cs_count_finish(cs, NULL) == CZ_ERR_INVALID_ARG);
    cz_r1cs_fingerprint fp;
    TF_CHECK(cz_cs_count_finish(cs, &fp) == CZ_OK);
    TF_CHECK(fp.n_rows == 3 && fp.nnz[0] == 3 && fp.nnz[1] == 1 && fp.density[0] == 1);
    TF_CHECK(cz_cs_num_constraints(cs) == 1);
    /* finished: twice is an error, and so is anything more */
    TF_CHECK(cz_cs_count_finish(cs, &fp) == CZ_ERR_INVALID_ARG && fp.n_rows == 0);
    cz_cs_enforce(cs, &a, NULL, NULL);
    TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);

    /* an unknown variable, an lc's sticky error: the cs's error */
    TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
    cz_lc_clear(&a);
    cz_lc_add(&a, CZ_VAR_AUX | 0);
    cz_cs_enforce(cs, NULL, &a, NULL);
    TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cs_count_finish(cs, &fp) == CZ_ERR_INVALID_ARG && fp.n_inputs == 0);
    cz_cs_free(cs);
    TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
    cz_lc_clear(&a);
    a.err = CZ_ERR_NOMEM;
    cz_cs_enforce(cs, &a, NULL, NULL);
    TF_CHECK(cz_cs_count_finish(cs, &fp) == CZ_ERR_NOMEM);
    cz_cs_free(cs);
    cz_lc_free(&a);

    /* count_finish is COUNT's only */
    for (int m = CZ_CS_RECORD; m <= CZ_CS_WITNESS; m++) {
        TF_CHECK(cz_cs_new(&cs, (cz_cs_mode)m, 0) == CZ_OK);
        TF_CHECK(cz_cs_count_finish(cs, &fp) == CZ_ERR_INVALID_ARG);
        cz_cs_free(cs);
    }
    TF_CHECK(cz_cs_new(&cs, (cz_cs_mode)3, 0) == CZ_ERR_INVALID_ARG && cs == NULL);
}

TF_MAIN(TF_TEST(test_digest_definition), TF_TEST(test_synthetic), TF_TEST(test_sha256),
        TF_TEST(test_pinned), TF_TEST(test_random), TF_TEST(test_count_contract))
