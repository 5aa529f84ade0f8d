/* circom .r1cs and snarkjs .wtns readers (include/cuzk/circom.h) on the
 * fixtures of tests/data/circom (made by make.sh there with circom2 0.2.23
 * and snarkjs 0.7.6): counts, witness satisfaction, public values, and every
 * corruption rejected with its code and never a crash (run under ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "fixture.h"
#include "tf.h"

static unsigned iters(unsigned n) { return n * tf_scale; }

/* ------------------------------------------------------------ fixtures --- */

/* Section offsets in the fixtures (tests/fixture.h). */
static size_t entry_of(tf_blob b, uint32_t type) { return tf_binfile_entry(b, type); }
static size_t data_of(tf_blob b, uint32_t type) { return entry_of(b, type) + 12; }

/* The circuit's inputs (tests/data/circom/input.json). */
static const uint64_t in_a = 3, in_b = 11, in_c = 1234567;

static int r1cs_mem(tf_blob b, char *err)
{
    cz_circom_r1cs r;
    int rc = cz_circom_r1cs_load_mem(&r, b.p, b.n, err, 256);
    if (rc != CZ_OK) {
        static const cz_circom_r1cs zero;
        TF_CHECK(memcmp(&r, &zero, sizeof r) == 0);
        TF_CHECK(err[0] != 0);
    } else {
        /* structural invariants of an accepted file */
        const cz_circom_csr *m[3] = {&r.a, &r.b, &r.c};
        for (int k = 0; k < 3; k++) {
            TF_CHECK(m[k]->row[0] == 0 && m[k]->row[r.n_constraints] == m[k]->nnz);
            for (uint32_t i = 0; i < r.n_constraints; i++)
                TF_CHECK(m[k]->row[i] <= m[k]->row[i + 1]);
            for (uint64_t j = 0; j < m[k]->nnz; j++)
                TF_CHECK(m[k]->col[j] < r.n_wires);
        }
    }
    cz_circom_r1cs_free(&r);
    return rc;
}

static int wtns_mem(tf_blob b, char *err)
{
    cz_circom_wtns w;
    int rc = cz_circom_wtns_load_mem(&w, b.p, b.n, err, 256);
    if (rc != CZ_OK)
        TF_CHECK(w.n == 0 && w.w == NULL && err[0] != 0);
    cz_circom_wtns_free(&w);
    return rc;
}

/* Loads a corrupted copy with load (r1cs_mem or wtns_mem, the file kind
 * named kind) and checks the code (and a message fragment). */
static void expect_load(int (*load)(tf_blob, char *), const char *kind, tf_blob b, int code,
                        const char *frag, const char *what)
{
    char err[256] = "";
    int rc = load(b, err);
    TF_CHECK_MSG(rc == code, "%s %s: got %s (%s), want %s", kind, what, cz_strerror(rc), err,
                 cz_strerror(code));
    if (frag != NULL)
        TF_CHECK_MSG(strstr(err, frag) != NULL, "%s %s: message \"%s\" lacks \"%s\"", kind, what,
                     err, frag);
}

static void expect_r1cs(tf_blob b, int code, const char *frag, const char *what)
{
    expect_load(r1cs_mem, "r1cs", b, code, frag, what);
}

static void expect_wtns(tf_blob b, int code, const char *frag, const char *what)
{
    expect_load(wtns_mem, "wtns", b, code, frag, what);
}

/* One corruption of a fixture: at byte `at` a u32 (W32) or u64 (W64)
 * written, or the byte flipped by v (XOR8); the code and the message
 * fragment its loader must answer. */
typedef struct {
    size_t at;
    enum { W32, W64, XOR8 } op;
    uint64_t v;
    int code;
    const char *frag, *what;
} patch;

/* Each patch on its own copy of b, loaded by expect (expect_r1cs or
 * expect_wtns). */
static void expect_patches(tf_blob b, const patch *p, size_t n,
                           void (*expect)(tf_blob, int, const char *, const char *))
{
    for (size_t i = 0; i < n; i++) {
        tf_blob d = tf_blob_prefix(b, b.n);
        if (p[i].op == W32)
            tf_wr32le(d.p + p[i].at, (uint32_t)p[i].v);
        else if (p[i].op == W64)
            tf_wr64le(d.p + p[i].at, p[i].v);
        else
            d.p[p[i].at] ^= (uint8_t)p[i].v;
        expect(d, p[i].code, p[i].frag, p[i].what);
        free(d.p);
    }
}

/* --------------------------------------------------------------- tests --- */

static void load_fixtures(cz_circom_r1cs *r, cz_circom_wtns *w)
{
    char path[4096], err[256];
    int rc;
    tf_fixture_path(path, sizeof path, "circom", "mul.r1cs");
    rc = cz_circom_r1cs_load(r, path, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    tf_fixture_path(path, sizeof path, "circom", "mul.wtns");
    rc = cz_circom_wtns_load(w, path, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
}

/* Counts as `snarkjs r1cs info mul.r1cs` (snarkjs 0.7.6) prints them. */
static void test_counts(void)
{
    cz_circom_r1cs r;
    cz_circom_wtns w;
    load_fixtures(&r, &w);
    TF_CHECK(r.n_wires == 8);
    TF_CHECK(r.n_pub_out == 2);
    TF_CHECK(r.n_pub_in == 1);
    TF_CHECK(r.n_prv_in == 2);
    TF_CHECK(r.n_labels == 8);
    TF_CHECK(r.n_constraints == 4);
    TF_CHECK(w.n == r.n_wires);
    TF_CHECK(r.wire_to_label != NULL);
    cz_circom_r1cs_free(&r);
    cz_circom_wtns_free(&w);
}

/* Wire order 1, outputs (out, sum), public input c, private inputs a, b; the
 * values follow from input.json by the circuit's equations. */
static void test_public_values(void)
{
    cz_circom_r1cs r;
    cz_circom_wtns w;
    cz_fr a, b, c, t, u, out, sum, five, seven, three;
    load_fixtures(&r, &w);
    if (w.n != 8)
        goto done;
    cz_fr_from_u64(&a, in_a);
    cz_fr_from_u64(&b, in_b);
    cz_fr_from_u64(&c, in_c);
    cz_fr_from_u64(&three, 3);
    cz_fr_from_u64(&five, 5);
    cz_fr_from_u64(&seven, 7);
    cz_fr_mul(&t, &a, &b);
    cz_fr_mul(&t, &t, &c); /* abc */
    cz_fr_mul(&u, &three, &a);
    cz_fr_add(&t, &t, &u);
    cz_fr_add(&t, &t, &seven); /* abc + 3a + 7 */
    cz_fr_sub(&u, &b, &five);
    cz_fr_mul(&out, &t, &u);
    cz_fr_add(&sum, &c, &c);
    cz_fr_add(&sum, &sum, &a);
    TF_CHECK(cz_fr_is_one(&w.w[0]));
    TF_CHECK(cz_fr_equal(&w.w[1], &out));
    TF_CHECK(cz_fr_equal(&w.w[2], &sum));
    TF_CHECK(cz_fr_equal(&w.w[3], &c));
    TF_CHECK(cz_fr_equal(&w.w[4], &a));
    TF_CHECK(cz_fr_equal(&w.w[5], &b));
done:
    cz_circom_r1cs_free(&r);
    cz_circom_wtns_free(&w);
}

/* <m_i, w>, computed here independently of cz_circom_r1cs_check_var. */
static void dot(cz_fr *acc, const cz_circom_csr *m, uint32_t i, const cz_fr *w)
{
    cz_fr t;
    *acc = CZ_FR_ZERO;
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        cz_fr_mul(&t, &m->val[k], &w[m->col[k]]);
        cz_fr_add(acc, acc, &t);
    }
}

static void test_satisfied(void)
{
    cz_circom_r1cs r;
    cz_circom_wtns w;
    cz_fr minus5;
    char err[256];
    uint64_t bad = 0;
    bool saw_minus5 = false;
    load_fixtures(&r, &w);
    if (w.n != r.n_wires)
        goto done;
    for (uint32_t i = 0; i < r.n_constraints; i++) {
        cz_fr a, b, c;
        dot(&a, &r.a, i, w.w);
        dot(&b, &r.b, i, w.w);
        dot(&c, &r.c, i, w.w);
        cz_fr_mul(&a, &a, &b);
        TF_CHECK_MSG(cz_fr_equal(&a, &c), "constraint %u", i);
    }
    TF_CHECK(cz_circom_r1cs_check_var(&r, &w, &bad, err, sizeof err) == CZ_OK);
    TF_CHECK(bad == UINT64_MAX);
    /* (b - 5) appears as a linear combination with the constant wire's
     * coefficient -5 = r - 5: canonical bytes read as a value, not as a
     * Montgomery representation. */
    cz_fr_from_u64(&minus5, 5);
    cz_fr_neg(&minus5, &minus5);
    for (uint64_t k = 0; k < r.b.nnz; k++)
        saw_minus5 |= r.b.col[k] == 0 && cz_fr_equal(&r.b.val[k], &minus5);
    for (uint64_t k = 0; k < r.a.nnz; k++)
        saw_minus5 |= r.a.col[k] == 0 && cz_fr_equal(&r.a.val[k], &minus5);
    TF_CHECK(saw_minus5);
done:
    cz_circom_r1cs_free(&r);
    cz_circom_wtns_free(&w);
}

/* Changing any one witness value breaks some constraint; a wrong w[0] or
 * length is reported as such. */
static void test_tampered_witness(void)
{
    cz_circom_r1cs r;
    cz_circom_wtns w;
    char err[256];
    uint64_t bad;
    load_fixtures(&r, &w);
    if (w.n != r.n_wires)
        goto done;
    for (unsigned it = 0; it < iters(4); it++) {
        for (uint32_t i = 0; i < w.n; i++) {
            cz_fr keep = w.w[i], d;
            do
                cz_fr_random(&d, &tf_rng);
            while (cz_fr_is_zero(&d));
            cz_fr_add(&w.w[i], &w.w[i], &d);
            int rc = cz_circom_r1cs_check_var(&r, &w, &bad, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_ERR_UNSATISFIED, "wire %u: %s", i, cz_strerror(rc));
            TF_CHECK(i == 0 ? bad == UINT64_MAX : bad < r.n_constraints);
            w.w[i] = keep;
        }
    }
    TF_CHECK(cz_circom_r1cs_check_var(&r, &w, &bad, err, sizeof err) == CZ_OK);
    w.n--;
    TF_CHECK(cz_circom_r1cs_check_var(&r, &w, &bad, err, sizeof err) == CZ_ERR_BAD_LENGTH);
    w.n++;
done:
    cz_circom_r1cs_free(&r);
    cz_circom_wtns_free(&w);
}

/* The two fixtures: a file's name, its loader, and its checker. */
typedef struct {
    const char *name;
    int (*load)(tf_blob, char *);
    void (*expect)(tf_blob, int, const char *, const char *);
} fixture;

static const fixture fixtures[2] = {{"mul.r1cs", r1cs_mem, expect_r1cs},
                                    {"mul.wtns", wtns_mem, expect_wtns}};

/* fn on each fixture that is there. */
static void each_fixture(void (*fn)(tf_blob b, const fixture *fx))
{
    for (size_t f = 0; f < 2; f++) {
        tf_blob b = tf_fixture("circom", fixtures[f].name);
        if (b.p != NULL)
            fn(b, &fixtures[f]);
        free(b.p);
    }
}

/* Every strict prefix is CZ_ERR_TRUNCATED; the whole file loads. */
static void truncations(tf_blob b, const fixture *fx)
{
    for (size_t n = 0; n <= b.n; n++) {
        tf_blob d = tf_blob_prefix(b, n);
        char what[64];
        snprintf(what, sizeof what, "prefix %zu of %zu", n, b.n);
        fx->expect(d, n == b.n ? CZ_OK : CZ_ERR_TRUNCATED, NULL, what);
        free(d.p);
    }
}

static void test_truncation(void) { each_fixture(truncations); }

/* The same circuit's file for BN254 (tests/data/circom/make.sh): the
 * wrong curve. */
static void expect_bn128(const char *name, void (*expect)(tf_blob, int, const char *, const char *))
{
    tf_blob b = tf_fixture("circom", name);
    if (b.p != NULL)
        expect(b, CZ_ERR_WRONG_CURVE, "(bn128?)", "bn128 file");
    free(b.p);
}

static void test_r1cs_corruptions(void)
{
    tf_blob b = tf_fixture("circom", "mul.r1cs"), d;
    size_t h, c, e;
    if (b.p == NULL)
        return;
    h = data_of(b, 1);
    c = data_of(b, 2);
    const uint32_t huge = 0xffffffffu;
    /* header: n8 @0, prime @4, nWires @36, nPubOut @40, nPubIn @44, nPrvIn @48,
     * nLabels @52, mConstraints @60; constraint 0, A: count @0, wire @4,
     * coefficient @8; the section table's count @8 */
    const patch p[] = {
        {0, XOR8, 1, CZ_ERR_BAD_FORMAT, "magic", "magic"},
        {4, W32, 2, CZ_ERR_UNSUPPORTED, "version", "version"},
        {h + 4 + 7, XOR8, 0x10, CZ_ERR_WRONG_CURVE, "wrong curve", "prime"},
        {h, W32, 48, CZ_ERR_WRONG_CURVE, "n8 = 48", "n8"},
        {h + 36, W32, 5, CZ_ERR_BAD_FORMAT, "nWires", "nWires < counted"},
        {h + 36, W32, 7, CZ_ERR_BAD_FORMAT, "wire 7 >= nWires", "wire out of range"},
        {h + 40, W32, huge, CZ_ERR_BAD_FORMAT, "exceeds nWires", "nPubOut huge"},
        {h + 60, W32, 5, CZ_ERR_TRUNCATED, "constraints", "mConstraints + 1"},
        {h + 60, W32, 3, CZ_ERR_BAD_FORMAT, "unexpected bytes", "mConstraints - 1"},
        {h + 60, W32, huge, CZ_ERR_BAD_FORMAT, "mConstraints", "mConstraints huge"},
        {c + 4, W32, 8, CZ_ERR_BAD_FORMAT, "wire 8", "wire id = nWires"},
        {c + 4, W32, huge, CZ_ERR_BAD_FORMAT, "nWires", "wire id huge"},
        {c, W32, 0x10000000u, CZ_ERR_TRUNCATED, "terms", "term count huge"},
        {8, W32, huge, CZ_ERR_TRUNCATED, "sections", "section count huge"},
        {8, W32, 2, CZ_ERR_BAD_FORMAT, "trailing", "section count - 1"},
        {entry_of(b, 2) + 4, W64, UINT64_MAX, CZ_ERR_TRUNCATED, "declares", "section size huge"},
        {entry_of(b, 1), W32, 9, CZ_ERR_BAD_FORMAT, "no header", "header missing"},
        {entry_of(b, 2), W32, 9, CZ_ERR_BAD_FORMAT, "no constraints", "constraints missing"},
        {entry_of(b, 3), W32, 1, CZ_ERR_BAD_FORMAT, "second header", "duplicate header"},
        {entry_of(b, 3), W32, 4, CZ_ERR_UNSUPPORTED, "custom gates", "custom gates"},
        /* the wire-to-label map is optional; an unknown section is skipped */
        {entry_of(b, 3), W32, 77, CZ_OK, NULL, "unknown section"},
    };
    expect_patches(b, p, sizeof p / sizeof p[0], expect_r1cs);
    d = tf_blob_prefix(b, b.n), memset(d.p + c + 8, 0xff, 32);
    expect_r1cs(d, CZ_ERR_NOT_CANONICAL, "coefficient", "coefficient 2^256-1"), free(d.p);
    d = tf_blob_prefix(b, b.n), memcpy(d.p + c + 8, d.p + h + 4, 32); /* = r */
    expect_r1cs(d, CZ_ERR_NOT_CANONICAL, "coefficient", "coefficient r"), free(d.p);
    /* trailing byte after the last section */
    d = tf_blob_prefix(b, b.n + 1), d.p[b.n] = 0;
    expect_r1cs(d, CZ_ERR_BAD_FORMAT, "trailing", "trailing byte"), free(d.p);
    /* wire-to-label size inconsistent with nWires: shorten it by 8 bytes */
    e = entry_of(b, 3);
    d = tf_blob_prefix(b, b.n - 8), tf_wr64le(d.p + e + 4, tf_rd32le(b.p + e + 4) - 8u);
    memcpy(d.p + e + 12, b.p + e + 12, b.n - 8 - (e + 12));
    expect_r1cs(d, CZ_ERR_BAD_FORMAT, "wire-to-label", "wire-to-label size"), free(d.p);
    free(b.p);
    expect_bn128("mul_bn128.r1cs", expect_r1cs);
}

static void test_wtns_corruptions(void)
{
    tf_blob b = tf_fixture("circom", "mul.wtns"), d;
    size_t h, v;
    if (b.p == NULL)
        return;
    h = data_of(b, 1);
    v = data_of(b, 2);
    const patch p[] = {
        {3, XOR8, 0x20, CZ_ERR_BAD_FORMAT, "magic", "magic"},
        {4, W32, 1, CZ_ERR_UNSUPPORTED, "version", "version 1"},
        {4, W32, 3, CZ_ERR_UNSUPPORTED, "version", "version 3"},
        {h + 4 + 31, XOR8, 1, CZ_ERR_WRONG_CURVE, "wrong curve", "prime"},
        {h, W32, 8, CZ_ERR_WRONG_CURVE, "n8 = 8", "n8 = 8"},
        {h, W32, 1000, CZ_ERR_TRUNCATED, "prime", "n8 huge"},
        {h + 36, W32, 9, CZ_ERR_BAD_FORMAT, "nWitness", "nWitness + 1"},
        {h + 36, W32, 7, CZ_ERR_BAD_FORMAT, "nWitness", "nWitness - 1"},
        {h + 36, W32, 0xffffffffu, CZ_ERR_BAD_FORMAT, "nWitness", "nWitness huge"},
        {entry_of(b, 2), W32, 1, CZ_ERR_BAD_FORMAT, "second header", "duplicate header"},
        {entry_of(b, 2), W32, 3, CZ_ERR_BAD_FORMAT, "no witness", "witness missing"},
    };
    expect_patches(b, p, sizeof p / sizeof p[0], expect_wtns);
    d = tf_blob_prefix(b, b.n), memcpy(d.p + v + 5 * 32, d.p + h + 4, 32);
    expect_wtns(d, CZ_ERR_NOT_CANONICAL, "witness value", "value = r"), free(d.p);
    d = tf_blob_prefix(b, b.n + 3), memset(d.p + b.n, 0, 3);
    expect_wtns(d, CZ_ERR_BAD_FORMAT, "trailing", "trailing bytes"), free(d.p);
    free(b.p);
    expect_bn128("mul_bn128.wtns", expect_wtns);
}

/* Random bytes flipped, and the file maybe cut: a file-format code. */
static void random_corruptions(tf_blob b, const fixture *fx)
{
    for (unsigned it = 0; it < iters(2000); it++) {
        tf_blob d = tf_blob_prefix(b, b.n);
        unsigned flips = 1 + (unsigned)(cz_prng_next(&tf_rng) % 4);
        char err[256] = "";
        for (unsigned k = 0; k < flips; k++)
            d.p[cz_prng_next(&tf_rng) % d.n] ^= (uint8_t)(1 + cz_prng_next(&tf_rng) % 255);
        if (cz_prng_next(&tf_rng) % 4 == 0)
            d.n = (size_t)(cz_prng_next(&tf_rng) % (d.n + 1));
        int rc = fx->load(d, err);
        TF_CHECK_MSG(rc >= 0 && rc < CZ_ERR__COUNT && rc != CZ_ERR_INVALID_ARG &&
                         rc != CZ_ERR_NOMEM && rc != CZ_ERR_IO,
                     "%s: code %d (%s)", fx->name, rc, err);
        free(d.p);
    }
}

static void test_random_corruption(void) { each_fixture(random_corruptions); }

static void test_args_and_io(void)
{
    cz_circom_r1cs r;
    cz_circom_wtns w;
    char err[256], path[4096];
    TF_CHECK(cz_circom_r1cs_load_mem(NULL, (const uint8_t *)"", 0, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_circom_r1cs_load_mem(&r, NULL, 5, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_circom_wtns_load_mem(&w, NULL, 5, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_circom_r1cs_load_mem(&r, NULL, 0, err, sizeof err) == CZ_ERR_TRUNCATED);
    TF_CHECK(cz_circom_r1cs_load(&r, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    tf_fixture_path(path, sizeof path, "circom", "no-such-file.r1cs");
    TF_CHECK(cz_circom_r1cs_load(&r, path, err, sizeof err) == CZ_ERR_IO);
    TF_CHECK(strstr(err, "no-such-file") != NULL);
    TF_CHECK(cz_circom_wtns_load(&w, path, err, sizeof err) == CZ_ERR_IO);
    tf_fixture_path(path, sizeof path, "circom", "");
    TF_CHECK(cz_circom_wtns_load(&w, path, err, sizeof err) == CZ_ERR_IO); /* a directory */
    tf_fixture_path(path, sizeof path, "circom", "mul.wtns");
    TF_CHECK(cz_circom_r1cs_load(&r, path, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    /* a short message buffer is cut, not overrun */
    char small[8];
    TF_CHECK(cz_circom_r1cs_load(&r, path, small, sizeof small) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(strlen(small) == sizeof small - 1);
    cz_circom_r1cs_free(NULL);
    cz_circom_wtns_free(NULL);
}

TF_MAIN(TF_TEST(test_counts), TF_TEST(test_public_values), TF_TEST(test_satisfied),
        TF_TEST(test_tampered_witness), TF_TEST(test_truncation), TF_TEST(test_r1cs_corruptions),
        TF_TEST(test_wtns_corruptions), TF_TEST(test_random_corruption), TF_TEST(test_args_and_io))
