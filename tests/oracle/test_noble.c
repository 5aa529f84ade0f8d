/* Cross-check of the field, curve and pairing arithmetic against
 * @noble/curves, an independent implementation: reads the vectors written by
 * tests/oracle/noble_vectors.mjs (its header documents the format) and checks
 * every case with the C API.  One tf test per op family; a mismatch prints
 * the op, the vectors file's line number, the whole line and what we got.
 *
 *   test_noble VECTORS [--seed N] [--scale K] [--only test_OP]
 *
 * tests/oracle/run_noble.sh generates the vectors on a fresh seed and runs
 * this program (the seed is only printed here: the inputs come from the file). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "tf.h"

/* ------------------------------------------------------- vectors file --- */

#define MAX_TOKENS 40 /* multi_pairing: op + 8 points + 12 Fp tokens */

typedef struct {
    int lineno;
    int ntok;         /* tokens after the op */
    char **tok;       /* tok[0 .. ntok-1], the op is tok[-1] */
    const char *line; /* the original line, for messages */
} nv_case;

static const char *vec_path;
static char *vec_text, *vec_orig; /* the file, split in place / whole */
static nv_case *cases;
static size_t ncases;

static void *must(void *p)
{
    if (!p) {
        fprintf(stderr, "test_noble: out of memory\n");
        exit(2);
    }
    return p;
}

/* Loads the file: every non-empty, non-comment line becomes a case with its
 * tokens split in place.  Exits (status 2) when the file cannot be read. */
static void load_vectors(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "test_noble: cannot open %s\n", path);
        exit(2);
    }
    char *buf = vec_text = must(malloc((size_t)size + 1));
    /* Two copies: one split into tokens, one kept whole for messages. */
    char *orig = vec_orig = must(malloc((size_t)size + 1));
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "test_noble: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    buf[size] = 0;
    memcpy(orig, buf, (size_t)size + 1);

    size_t cap = 1024;
    cases = must(malloc(cap * sizeof *cases));
    int lineno = 0;
    for (char *line = buf, *next; line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char *whole = orig + (line - buf);
        if (next)
            whole[next - 1 - line] = 0;
        if (*line == '#' || *line == 0)
            continue;
        /* Slots past the last token read as "" (a malformed token). */
        char **tok = must(malloc((MAX_TOKENS + 1) * sizeof *tok));
        for (int i = 0; i <= MAX_TOKENS; i++)
            tok[i] = "";
        int n = 0;
        for (char *t = strtok(line, " "); t; t = strtok(NULL, " "))
            if (n < MAX_TOKENS)
                tok[n++] = t;
            else
                n = MAX_TOKENS + 1; /* too many: reported by the op's check */
        if (ncases == cap)
            cases = must(realloc(cases, (cap *= 2) * sizeof *cases));
        cases[ncases++] = (nv_case){lineno, n - 1, tok + 1, whole};
    }
}

/* -------------------------------------------------------------- helpers --- */

static const nv_case *cur; /* the case being checked, for mismatch() */

#define mismatch(...) report(__LINE__, __VA_ARGS__)
static void report(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(int line, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    tf_fail(__FILE__, line, "%s:%d: %s\n  case: %.4000s", vec_path, cur->lineno, what, cur->line);
}

/* Decodes a hex token of any even length into out (cap bytes); returns the
 * byte count or -1 when malformed or too long. */
static long hex_any(const char *t, uint8_t *out, size_t cap)
{
    size_t n = strlen(t);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = tf_hexval(t[2 * i]), lo = tf_hexval(t[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

static bool hex_exact(const char *t, uint8_t *out, size_t n)
{
    return hex_any(t, out, n) == (long)n && strlen(t) == 2 * n;
}

static void print_hex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

/* Parsers: false (and a failure naming the token) on a malformed vector. */
static bool get_fp(cz_fp *r, const char *t)
{
    uint8_t b[48];
    if (hex_exact(t, b, 48) && cz_fp_from_bytes_be(r, b) == CZ_OK)
        return true;
    mismatch("bad fp token '%.100s'", t);
    return false;
}

static bool get_fr(cz_fr *r, const char *t)
{
    uint8_t b[32];
    if (hex_exact(t, b, 32) && cz_fr_from_bytes_be(r, b) == CZ_OK)
        return true;
    mismatch("bad fr token '%.100s'", t);
    return false;
}

static bool get_fp2(cz_fp2 *r, char *const *t)
{
    return get_fp(&r->c0, t[0]) && get_fp(&r->c1, t[1]);
}

/* Twelve tokens in tower order, filled coefficient by coefficient (not via
 * cz_fp12_from_bytes_be, which fp12_mul checks separately). */
static bool get_fp12(cz_fp12 *r, char *const *t)
{
    cz_fp6 *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 2; i++) {
        cz_fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++)
            if (!get_fp2(c[j], t + 6 * i + 2 * j))
                return false;
    }
    return true;
}

static bool is_none(const char *t) { return !strcmp(t, "-"); }

static void fp_hex(char out[97], const cz_fp *a)
{
    uint8_t b[48];
    cz_fp_to_bytes_be(b, a);
    print_hex(out, b, 48);
}

static void fr_hex(char out[65], const cz_fr *a)
{
    uint8_t b[32];
    cz_fr_to_bytes_be(b, a);
    print_hex(out, b, 32);
}

static void expect_fp(const char *what, const cz_fp *got, const cz_fp *want)
{
    if (!cz_fp_equal(got, want)) {
        char g[97];
        fp_hex(g, got);
        mismatch("%s: got %s", what, g);
    }
}

static void expect_fr(const char *what, const cz_fr *got, const cz_fr *want)
{
    if (!cz_fr_equal(got, want)) {
        char g[65];
        fr_hex(g, got);
        mismatch("%s: got %s", what, g);
    }
}

static void expect_fp2(const char *what, const cz_fp2 *got, const cz_fp2 *want)
{
    if (!cz_fp2_equal(got, want)) {
        char g0[97], g1[97];
        fp_hex(g0, &got->c0);
        fp_hex(g1, &got->c1);
        mismatch("%s: got %s %s", what, g0, g1);
    }
}

static void expect_fp12(const char *what, const cz_fp12 *got, const cz_fp12 *want)
{
    if (!cz_fp12_equal(got, want)) {
        uint8_t b[576];
        char g[1153];
        cz_fp12_to_bytes_be(b, got);
        print_hex(g, b, 576);
        mismatch("%s: got (concatenated) %s", what, g);
    }
}

static void expect_bytes(const char *what, const uint8_t *got, const char *want_hex, size_t n)
{
    uint8_t want[192];
    if (!hex_exact(want_hex, want, n)) {
        mismatch("%s: bad expected token (want %zu bytes)", what, n);
        return;
    }
    if (memcmp(got, want, n)) {
        char g[385];
        print_hex(g, got, n);
        mismatch("%s: got %s", what, g);
    }
}

/* --------------------------------------------------------- the families --- */

typedef void check_fn(char *const *t);

/* Runs check on every case of op; the op must have cases, each with ntok
 * tokens after the op name, or ntok_none when the output is one '-'. */
static void run_family(const char *op, int ntok, int ntok_none, check_fn *check)
{
    size_t n = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (strcmp(cases[i].tok[-1], op))
            continue;
        cur = &cases[i];
        n++;
        if (cur->ntok != ntok && !(cur->ntok == ntok_none && is_none(cur->tok[ntok_none - 1]))) {
            mismatch("%d tokens after the op, want %d", cur->ntok, ntok);
            continue;
        }
        check(cur->tok);
    }
    TF_CHECK_MSG(n > 0, "no %s cases in %s", op, vec_path);
    printf("  %-14s %6zu cases\n", op, n);
}

/* Fp */

static void c_fp_add(char *const *t)
{
    cz_fp a, b, e, r;
    if (!get_fp(&a, t[0]) || !get_fp(&b, t[1]) || !get_fp(&e, t[2]))
        return;
    cz_fp_add(&r, &a, &b);
    expect_fp("a + b", &r, &e);
    cz_fp_add(&a, &a, &b); /* output aliasing an input */
    expect_fp("a += b", &a, &e);
}

static void c_fp_sub(char *const *t)
{
    cz_fp a, b, e, r;
    if (!get_fp(&a, t[0]) || !get_fp(&b, t[1]) || !get_fp(&e, t[2]))
        return;
    cz_fp_sub(&r, &a, &b);
    expect_fp("a - b", &r, &e);
    cz_fp_sub(&b, &a, &b);
    expect_fp("b = a - b", &b, &e);
}

static void c_fp_mul(char *const *t)
{
    cz_fp a, b, e, r;
    if (!get_fp(&a, t[0]) || !get_fp(&b, t[1]) || !get_fp(&e, t[2]))
        return;
    cz_fp_mul(&r, &a, &b);
    expect_fp("a * b", &r, &e);
    cz_fp_mul_portable(&r, &a, &b);
    expect_fp("a * b (portable)", &r, &e);
    if (cz_ff_have_mulx()) {
        cz_fp_mul_mulx(&r, &a, &b);
        expect_fp("a * b (mulx)", &r, &e);
    }
}

static void c_fp_sqr(char *const *t)
{
    cz_fp a, e, r;
    if (!get_fp(&a, t[0]) || !get_fp(&e, t[1]))
        return;
    cz_fp_sqr(&r, &a);
    expect_fp("a^2", &r, &e);
    cz_fp_sqr_portable(&r, &a);
    expect_fp("a^2 (portable)", &r, &e);
    if (cz_ff_have_mulx()) {
        cz_fp_sqr_mulx(&r, &a);
        expect_fp("a^2 (mulx)", &r, &e);
    }
}

static void c_fp_inv(char *const *t)
{
    cz_fp a, e, r;
    if (!get_fp(&a, t[0]) || !get_fp(&e, t[1]))
        return;
    cz_fp_inv(&r, &a);
    expect_fp("1/a", &r, &e);
}

/* The root is unique up to sign: ours must be noble's or its negative. */
static void c_fp_sqrt(char *const *t)
{
    cz_fp a, e, r, ne;
    if (!get_fp(&a, t[0]))
        return;
    bool ok = cz_fp_sqrt(&r, &a);
    if (is_none(t[1])) {
        if (ok)
            mismatch("sqrt of a non-square succeeded");
        return;
    }
    if (!get_fp(&e, t[1]))
        return;
    if (!ok) {
        mismatch("sqrt of a square failed");
        return;
    }
    cz_fp_neg(&ne, &e);
    if (!cz_fp_equal(&r, &e) && !cz_fp_equal(&r, &ne))
        expect_fp("sqrt(a) (up to sign)", &r, &e);
}

static void c_fp_legendre(char *const *t)
{
    cz_fp a;
    if (!get_fp(&a, t[0]))
        return;
    int want = atoi(t[1]), got = cz_fp_legendre(&a);
    if (got != want)
        mismatch("legendre: got %d", got);
}

/* Fr */

static void c_fr_add(char *const *t)
{
    cz_fr a, b, e, r;
    if (!get_fr(&a, t[0]) || !get_fr(&b, t[1]) || !get_fr(&e, t[2]))
        return;
    cz_fr_add(&r, &a, &b);
    expect_fr("a + b", &r, &e);
}

static void c_fr_mul(char *const *t)
{
    cz_fr a, b, e, r;
    if (!get_fr(&a, t[0]) || !get_fr(&b, t[1]) || !get_fr(&e, t[2]))
        return;
    cz_fr_mul(&r, &a, &b);
    expect_fr("a * b", &r, &e);
    cz_fr_mul_portable(&r, &a, &b);
    expect_fr("a * b (portable)", &r, &e);
    if (cz_ff_have_mulx()) {
        cz_fr_mul_mulx(&r, &a, &b);
        expect_fr("a * b (mulx)", &r, &e);
    }
}

static void c_fr_inv(char *const *t)
{
    cz_fr a, e, r;
    if (!get_fr(&a, t[0]) || !get_fr(&e, t[1]))
        return;
    cz_fr_inv(&r, &a);
    expect_fr("1/a", &r, &e);
}

static void c_fr_sqrt(char *const *t)
{
    cz_fr a, e, r, ne;
    if (!get_fr(&a, t[0]))
        return;
    bool ok = cz_fr_sqrt(&r, &a);
    if (is_none(t[1])) {
        if (ok)
            mismatch("sqrt of a non-square succeeded");
        return;
    }
    if (!get_fr(&e, t[1]))
        return;
    if (!ok) {
        mismatch("sqrt of a square failed");
        return;
    }
    cz_fr_neg(&ne, &e);
    if (!cz_fr_equal(&r, &e) && !cz_fr_equal(&r, &ne))
        expect_fr("sqrt(a) (up to sign)", &r, &e);
}

/* Fp2 */

static void c_fp2_mul(char *const *t)
{
    cz_fp2 a, b, e, r;
    if (!get_fp2(&a, t) || !get_fp2(&b, t + 2) || !get_fp2(&e, t + 4))
        return;
    cz_fp2_mul(&r, &a, &b);
    expect_fp2("a * b", &r, &e);
    cz_fp2_mul(&a, &a, &b);
    expect_fp2("a *= b", &a, &e);
}

static void c_fp2_sqr(char *const *t)
{
    cz_fp2 a, e, r;
    if (!get_fp2(&a, t) || !get_fp2(&e, t + 2))
        return;
    cz_fp2_sqr(&r, &a);
    expect_fp2("a^2", &r, &e);
    cz_fp2_sqr(&a, &a);
    expect_fp2("a = a^2", &a, &e);
}

static void c_fp2_inv(char *const *t)
{
    cz_fp2 a, e, r;
    if (!get_fp2(&a, t) || !get_fp2(&e, t + 2))
        return;
    cz_fp2_inv(&r, &a);
    expect_fp2("1/a", &r, &e);
}

/* Also: the Legendre symbol agrees with the existence of a root. */
static void c_fp2_sqrt(char *const *t)
{
    cz_fp2 a, e, r, ne;
    if (!get_fp2(&a, t))
        return;
    bool ok = cz_fp2_sqrt(&r, &a);
    int leg = cz_fp2_legendre(&a);
    if (is_none(t[2])) {
        if (ok)
            mismatch("sqrt of a non-square succeeded");
        if (leg != -1)
            mismatch("legendre of a non-square: got %d", leg);
        return;
    }
    if (!get_fp2(&e, t + 2))
        return;
    if (leg != (cz_fp2_is_zero(&a) ? 0 : 1))
        mismatch("legendre of a square: got %d", leg);
    if (!ok) {
        mismatch("sqrt of a square failed");
        return;
    }
    cz_fp2_neg(&ne, &e);
    if (!cz_fp2_equal(&r, &e) && !cz_fp2_equal(&r, &ne))
        expect_fp2("sqrt(a) (up to sign)", &r, &e);
}

/* Fp12 */

static void c_fp12_mul(char *const *t)
{
    cz_fp12 a, b, e, r, d;
    uint8_t want[576], got[576];
    if (!get_fp12(&a, t) || !get_fp12(&b, t + 12) || !get_fp12(&e, t + 24))
        return;
    cz_fp12_mul(&r, &a, &b);
    expect_fp12("a * b", &r, &e);
    /* The 576-byte encoding is the twelve tokens concatenated. */
    for (int i = 0; i < 12; i++)
        hex_exact(t[24 + i], want + 48 * i, 48);
    cz_fp12_to_bytes_be(got, &e);
    if (memcmp(got, want, 576))
        mismatch("cz_fp12_to_bytes_be is not the tower-order concatenation");
    if (cz_fp12_from_bytes_be(&d, want) != CZ_OK || !cz_fp12_equal(&d, &e))
        mismatch("cz_fp12_from_bytes_be of the concatenated tokens");
}

static void c_fp12_inv(char *const *t)
{
    cz_fp12 a, e, r;
    if (!get_fp12(&a, t) || !get_fp12(&e, t + 12))
        return;
    cz_fp12_inv(&r, &a);
    expect_fp12("1/a", &r, &e);
}

static void c_fp12_frob(char *const *t)
{
    cz_fp12 a, e, r;
    int k = atoi(t[0]);
    if (!get_fp12(&a, t + 1) || !get_fp12(&e, t + 13))
        return;
    cz_fp12_frobenius(&r, &a, (unsigned)k);
    char what[32];
    snprintf(what, sizeof what, "a^(p^%d)", k);
    expect_fp12(what, &r, &e);
}

/* G1 and G2: the same checks, instantiated twice. */
#define G_(name) cz_g1_##name
#define C_(name) c_g1_##name
#define AFF      cz_g1_affine
#define JAC      cz_g1
#define XYZZ     cz_g1_xyzz
#define UBYTES   CZ_G1_UNCOMPRESSED_BYTES
#define CBYTES   CZ_G1_COMPRESSED_BYTES
#define GEN      CZ_G1_GENERATOR
#include "noble_group.h"
#undef G_
#undef C_
#undef AFF
#undef JAC
#undef XYZZ
#undef UBYTES
#undef CBYTES
#undef GEN

#define G_(name) cz_g2_##name
#define C_(name) c_g2_##name
#define AFF      cz_g2_affine
#define JAC      cz_g2
#define XYZZ     cz_g2_xyzz
#define UBYTES   CZ_G2_UNCOMPRESSED_BYTES
#define CBYTES   CZ_G2_COMPRESSED_BYTES
#define GEN      CZ_G2_GENERATOR
#include "noble_group.h"

/* Pairing */

static void c_pairing(char *const *t)
{
    cz_g1_affine p;
    cz_g2_affine q;
    cz_fp12 e, r;
    if (!c_g1_get(&p, t[0]) || !c_g2_get(&q, t[1]) || !get_fp12(&e, t + 2))
        return;
    cz_pairing(&r, &p, &q);
    expect_fp12("e(P, Q)", &r, &e);
    cz_multi_pairing(&r, &p, &q, 1);
    expect_fp12("multi_pairing of one pair", &r, &e);
}

/* Also: one final exponentiation of the product of Miller loops, and
 * cz_pairing_check on the four pairs (false unless the product is 1) and on
 * e(P_0, Q_0) e(-P_0, Q_0) (true). */
static void c_multi_pairing(char *const *t)
{
    cz_g1_affine p[4];
    cz_g2_affine q[4];
    cz_fp12 e, r, f;
    for (int i = 0; i < 4; i++)
        if (!c_g1_get(&p[i], t[2 * i]) || !c_g2_get(&q[i], t[2 * i + 1]))
            return;
    if (!get_fp12(&e, t + 8))
        return;
    cz_multi_pairing(&r, p, q, 4);
    expect_fp12("prod e(P_i, Q_i)", &r, &e);
    cz_miller_loop_n(&f, p, q, 4);
    cz_final_exp(&r, &f);
    expect_fp12("final_exp(miller_loop_n)", &r, &e);
    if (cz_pairing_check(p, q, 4) != cz_fp12_is_one(&e))
        mismatch("cz_pairing_check disagrees with the product's value");
    cz_g1_affine_neg(&p[1], &p[0]);
    q[1] = q[0];
    if (!cz_pairing_check(p, q, 2))
        mismatch("cz_pairing_check(e(P_0, Q_0) e(-P_0, Q_0)) is false");
}

/* ------------------------------------------------------------- registry --- */

/* FAMILY(op, tokens after the op, tokens when the output is '-') */
#define FAMILY(op, ntok, ntok_none)                                                                \
    static void test_##op(void) { run_family(#op, ntok, ntok_none, c_##op); }
FAMILY(fp_add, 3, 3)
FAMILY(fp_sub, 3, 3)
FAMILY(fp_mul, 3, 3)
FAMILY(fp_sqr, 2, 2)
FAMILY(fp_inv, 2, 2)
FAMILY(fp_sqrt, 2, 2)
FAMILY(fp_legendre, 2, 2)
FAMILY(fr_add, 3, 3)
FAMILY(fr_mul, 3, 3)
FAMILY(fr_inv, 2, 2)
FAMILY(fr_sqrt, 2, 2)
FAMILY(fp2_mul, 6, 6)
FAMILY(fp2_sqr, 4, 4)
FAMILY(fp2_inv, 4, 4)
FAMILY(fp2_sqrt, 4, 3)
FAMILY(fp12_mul, 36, 36)
FAMILY(fp12_inv, 24, 24)
FAMILY(fp12_frob, 25, 25)
FAMILY(g1_add, 4, 4)
FAMILY(g1_dbl, 3, 3)
FAMILY(g1_mul, 4, 4)
FAMILY(g1_encode, 3, 3)
FAMILY(g1_decode, 2, 2)
FAMILY(g2_add, 4, 4)
FAMILY(g2_dbl, 3, 3)
FAMILY(g2_mul, 4, 4)
FAMILY(g2_encode, 3, 3)
FAMILY(g2_decode, 2, 2)
FAMILY(pairing, 14, 14)
FAMILY(multi_pairing, 20, 20)

static const char *const known_ops[] = {
    "fp_add",      "fp_sub",  "fp_mul",    "fp_sqr",    "fp_inv",    "fp_sqrt",
    "fp_legendre", "fr_add",  "fr_mul",    "fr_inv",    "fr_sqrt",   "fp2_mul",
    "fp2_sqr",     "fp2_inv", "fp2_sqrt",  "fp12_mul",  "fp12_inv",  "fp12_frob",
    "g1_add",      "g1_dbl",  "g1_mul",    "g1_encode", "g1_decode", "g2_add",
    "g2_dbl",      "g2_mul",  "g2_encode", "g2_decode", "pairing",   "multi_pairing",
};

/* Every line names a known op: a family the generator added but this
 * checker lacks must not pass silently. */
static void test_known_ops(void)
{
    for (size_t i = 0; i < ncases; i++) {
        bool known = false;
        for (size_t j = 0; j < sizeof known_ops / sizeof known_ops[0]; j++)
            known |= !strcmp(cases[i].tok[-1], known_ops[j]);
        cur = &cases[i];
        if (!known)
            mismatch("unknown op '%s'", cases[i].tok[-1]);
    }
}

int main(int argc, char **argv)
{
    static const tf_test tests[] = {
        TF_TEST(test_known_ops),     TF_TEST(test_fp_add),      TF_TEST(test_fp_sub),
        TF_TEST(test_fp_mul),        TF_TEST(test_fp_sqr),      TF_TEST(test_fp_inv),
        TF_TEST(test_fp_sqrt),       TF_TEST(test_fp_legendre), TF_TEST(test_fr_add),
        TF_TEST(test_fr_mul),        TF_TEST(test_fr_inv),      TF_TEST(test_fr_sqrt),
        TF_TEST(test_fp2_mul),       TF_TEST(test_fp2_sqr),     TF_TEST(test_fp2_inv),
        TF_TEST(test_fp2_sqrt),      TF_TEST(test_fp12_mul),    TF_TEST(test_fp12_inv),
        TF_TEST(test_fp12_frob),     TF_TEST(test_g1_add),      TF_TEST(test_g1_dbl),
        TF_TEST(test_g1_mul),        TF_TEST(test_g1_encode),   TF_TEST(test_g1_decode),
        TF_TEST(test_g2_add),        TF_TEST(test_g2_dbl),      TF_TEST(test_g2_mul),
        TF_TEST(test_g2_encode),     TF_TEST(test_g2_decode),   TF_TEST(test_pairing),
        TF_TEST(test_multi_pairing),
    };
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr,
                "usage: %s VECTORS [--seed N] [--scale K] [--only TEST]\n"
                "  VECTORS: written by tests/oracle/noble_vectors.mjs\n",
                argv[0]);
        return 2;
    }
    vec_path = argv[1];
    load_vectors(vec_path);
    /* tf_run parses the remaining options; argv[1] is dropped. */
    argv[1] = argv[0];
    return tf_run(argc - 1, argv + 1, tests, sizeof tests / sizeof tests[0]);
}
