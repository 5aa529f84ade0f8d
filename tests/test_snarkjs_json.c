/* snarkjs JSON files (include/cuzk/snarkjs.h) against the fixtures of
 * tests/data/zkey, made by make.sh there with snarkjs 0.7.6:
 *   - the vk built from mul.zkey is written byte for byte as
 *     `snarkjs zkey export verificationkey` wrote verification_key.json;
 *   - proof.json / public.json (`snarkjs groth16 prove`) and
 *     verification_key_infinity.json (ffjavascript's points at infinity) read
 *     and write back to the same bytes, and the proof passes the Groth16
 *     pairing equation with the vk (and fails with a changed input);
 *   - random proofs, keys and public arrays round-trip;
 *   - every malformed input is rejected with its code and a message naming
 *     the key and index (run under ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/snarkjs.h"
#include "cuzk/zkey.h"
#include "fixture.h"
#include "tf.h"
#include "util/json_tree.h"

/* ------------------------------------------------------------- helpers --- */

/* Value-returning forms of the shared random points, for initialisers. */
static cz_g1_affine rand_g1(void)
{
    cz_g1_affine a;
    tf_rand_g1(&a, 0);
    return a;
}

static cz_g2_affine rand_g2(void)
{
    cz_g2_affine a;
    tf_rand_g2(&a, 0);
    return a;
}

/* Decimal of the canonical limbs l[0..n) by repeated division by 10 (an
 * independent method from the library's). */
static void dec(char *out, const uint64_t *l, size_t n)
{
    uint64_t t[8];
    char rev[160];
    size_t k = 0;
    memcpy(t, l, n * sizeof *t);
    for (;;) {
        bool zero = true;
        unsigned rem = 0;
        for (size_t i = n; i-- > 0;) {
            unsigned __int128 cur = (unsigned __int128)rem << 64 | t[i];
            t[i] = (uint64_t)(cur / 10);
            rem = (unsigned)(cur % 10);
            zero = zero && t[i] == 0;
        }
        rev[k++] = (char)('0' + rem);
        if (zero)
            break;
    }
    for (size_t i = 0; i < k; i++)
        out[i] = rev[k - 1 - i];
    out[k] = 0;
}

static void fp_dec(char *out, const cz_fp *a)
{
    uint64_t l[6];
    cz_fp_to_canonical(l, a);
    dec(out, l, 6);
}

/* p (or r) plus delta as a decimal string, delta in {-1, 0, 1}. */
static void modulus_dec(char *out, bool fp, int delta)
{
    uint64_t l[6] = {0};
    size_t n = fp ? 6 : 4;
    if (fp) {
        cz_fp m1;
        cz_fp_neg(&m1, &CZ_FP_ONE);
        cz_fp_to_canonical(l, &m1);
    } else {
        cz_fr m1;
        cz_fr_neg(&m1, &CZ_FR_ONE);
        cz_fr_to_canonical(l, &m1);
    }
    l[0] += (uint64_t)(delta + 1); /* low limbs of p - 1 and r - 1 have room */
    dec(out, l, n);
}

/* A copy of text with the first occurrence of old replaced by new. */
static char *replace(const char *text, const char *old, const char *new)
{
    const char *at = strstr(text, old);
    TF_CHECK_MSG(at != NULL, "fixture lacks \"%s\"", old);
    if (at == NULL)
        return strdup(text);
    size_t a = (size_t)(at - text), lo = strlen(old), ln = strlen(new), lt = strlen(text);
    char *r = malloc(lt - lo + ln + 1);
    memcpy(r, text, a);
    memcpy(r + a, new, ln);
    memcpy(r + a + ln, at + lo, lt - a - lo + 1);
    return r;
}

/* The text of the value of "key" in text (arrays by bracket balance; the
 * strings of these files hold no brackets). */
static char *value_of(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(text, pat);
    TF_CHECK_MSG(p != NULL, "no key %s", key);
    if (p == NULL)
        return strdup("");
    p += strlen(pat);
    size_t n = 0;
    int depth = 0;
    do {
        if (p[n] == '[')
            depth++;
        else if (p[n] == ']')
            depth--;
        n++;
    } while (depth > 0 || (p[n] != ',' && p[n] != '\n' && p[n] != 0));
    return strndup(p, n);
}

/* text with the value of key replaced by v. */
static char *with_value(const char *text, const char *key, const char *v)
{
    char *old = value_of(text, key), pat[64], *from, *to;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    from = malloc(strlen(pat) + strlen(old) + 1);
    to = malloc(strlen(pat) + strlen(v) + 1);
    sprintf(from, "%s%s", pat, old);
    sprintf(to, "%s%s", pat, v);
    char *r = replace(text, from, to);
    free(old);
    free(from);
    free(to);
    return r;
}

enum { PROOF, PUBLIC, VK };

/* Runs the reader of kind on text; checks that a failure zeroes the output
 * and writes a message; returns the code and the message in err. */
static int read_kind(int kind, const char *text, size_t len, char *err, size_t errlen)
{
    int rc;
    err[0] = 0;
    if (kind == PROOF) {
        static const cz_groth16_proof zero;
        cz_groth16_proof p;
        memset(&p, 0xa5, sizeof p);
        rc = cz_snarkjs_proof_read_mem(&p, text, len, err, errlen);
        if (rc != CZ_OK)
            TF_CHECK(memcmp(&p, &zero, sizeof p) == 0);
    } else if (kind == PUBLIC) {
        static cz_fr sentinel;
        cz_fr *pub = &sentinel;
        size_t n = 7;
        rc = cz_snarkjs_public_read_mem(&pub, &n, text, len, err, errlen);
        if (rc != CZ_OK)
            TF_CHECK(pub == NULL && n == 0);
        free(pub);
    } else {
        static const cz_groth16_vk zero;
        cz_groth16_vk vk;
        memset(&vk, 0xa5, sizeof vk);
        rc = cz_snarkjs_vk_read_mem(&vk, text, len, err, errlen);
        if (rc != CZ_OK)
            TF_CHECK(memcmp(&vk, &zero, sizeof vk) == 0);
        cz_groth16_vk_free(&vk);
    }
    if (rc != CZ_OK)
        TF_CHECK(err[0] != 0);
    return rc;
}

/* Expects code and, when it is not CZ_OK, a message containing want. */
static void expect(int kind, const char *text, int code, const char *want)
{
    char err[256];
    int rc = read_kind(kind, text, strlen(text), err, sizeof err);
    TF_CHECK_MSG(rc == code, "got %s (%s), want %s for: %.120s", cz_strerror(rc), err,
                 cz_strerror(code), text);
    if (code != CZ_OK && want != NULL)
        TF_CHECK_MSG(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
}

static void check_same(const char *got, size_t got_len, tf_blob want, const char *what)
{
    TF_CHECK_MSG(got != NULL && got_len == want.n && memcmp(got, want.p, want.n) == 0,
                 "%s: %zu bytes differ from the %zu of the fixture", what, got_len, want.n);
}

static void vk_from_zkey(cz_groth16_vk *vk, const cz_zkey *z)
{
    memset(vk, 0, sizeof *vk);
    vk->alpha_g1 = z->alpha1;
    vk->beta_g1 = z->beta1;
    vk->beta_g2 = z->beta2;
    vk->gamma_g2 = z->gamma2;
    vk->delta_g1 = z->delta1;
    vk->delta_g2 = z->delta2;
    vk->n_ic = (size_t)z->n_public + 1;
    vk->ic = z->ic;
}

static bool vk_equal(const cz_groth16_vk *a, const cz_groth16_vk *b)
{
    bool eq = cz_g1_affine_equal(&a->alpha_g1, &b->alpha_g1) &&
              cz_g2_affine_equal(&a->beta_g2, &b->beta_g2) &&
              cz_g2_affine_equal(&a->gamma_g2, &b->gamma_g2) &&
              cz_g2_affine_equal(&a->delta_g2, &b->delta_g2) && a->n_ic == b->n_ic;
    for (size_t i = 0; eq && i < a->n_ic; i++)
        eq = cz_g1_affine_equal(&a->ic[i], &b->ic[i]);
    return eq;
}

/* --------------------------------------------------------------- tests --- */

/* The key of mul.zkey, written by us, equals snarkjs's export. */
static void test_vk_from_zkey(void)
{
    tf_blob want = tf_fixture("zkey", "verification_key.json");
    char path[4096], err[256], *text = NULL;
    size_t len = 0;
    cz_zkey z;
    cz_groth16_vk vk;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    TF_CHECK(cz_zkey_load(&z, path, CZ_ZKEY_DEFAULT, err, sizeof err) == CZ_OK);
    vk_from_zkey(&vk, &z);
    TF_CHECK(cz_snarkjs_vk_to_json(&text, &len, &vk) == CZ_OK);
    check_same(text, len, want, "vk from mul.zkey");
    TF_CHECK(strlen(text) == len);

    /* The file helper writes the same bytes. */
    snprintf(path, sizeof path, "/tmp/cz_test_snarkjs_%llu.json", (unsigned long long)tf_seed);
    TF_CHECK(cz_snarkjs_vk_write_file(path, &vk) == CZ_OK);
    cz_groth16_vk back;
    TF_CHECK(cz_snarkjs_vk_read_file(&back, path, err, sizeof err) == CZ_OK);
    TF_CHECK(vk_equal(&vk, &back));
    FILE *f = fopen(path, "rb");
    char *buf = malloc(want.n + 2);
    size_t got = f ? fread(buf, 1, want.n + 1, f) : 0;
    check_same(buf, got, want, "vk file");
    if (f)
        fclose(f);
    remove(path);
    free(buf);
    cz_groth16_vk_free(&back);
    free(text);
    cz_zkey_free(&z);
    free(want.p);
}

/* snarkjs's vk files read to the zkey's points and write back unchanged. */
static void test_vk_fixtures(void)
{
    char path[4096], err[256], *text = NULL;
    size_t len = 0;
    cz_zkey z;
    cz_groth16_vk vk, want;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    TF_CHECK(cz_zkey_load(&z, path, CZ_ZKEY_DEFAULT, err, sizeof err) == CZ_OK);
    vk_from_zkey(&want, &z);

    tf_blob b = tf_fixture("zkey", "verification_key.json");
    TF_CHECK_MSG(cz_snarkjs_vk_read_mem(&vk, (char *)b.p, b.n, err, sizeof err) == CZ_OK, "%s",
                 err);
    TF_CHECK(vk_equal(&vk, &want));
    TF_CHECK(cz_g1_affine_is_inf(&vk.beta_g1) && cz_g1_affine_is_inf(&vk.delta_g1));
    TF_CHECK(cz_snarkjs_vk_to_json(&text, &len, &vk) == CZ_OK);
    check_same(text, len, b, "verification_key.json rewritten");
    free(text);
    cz_groth16_vk_free(&vk);
    free(b.p);

    /* alpha and delta at infinity, as ffjavascript writes them. */
    b = tf_fixture("zkey", "verification_key_infinity.json");
    TF_CHECK_MSG(cz_snarkjs_vk_read_mem(&vk, (char *)b.p, b.n, err, sizeof err) == CZ_OK, "%s",
                 err);
    TF_CHECK(cz_g1_affine_is_inf(&vk.alpha_g1) && cz_g2_affine_is_inf(&vk.delta_g2));
    TF_CHECK(cz_g2_affine_equal(&vk.beta_g2, &want.beta_g2) && vk.n_ic == want.n_ic);
    TF_CHECK(cz_snarkjs_vk_to_json(&text, &len, &vk) == CZ_OK);
    check_same(text, len, b, "verification_key_infinity.json rewritten");
    free(text);
    cz_groth16_vk_free(&vk);
    free(b.p);
    cz_zkey_free(&z);
}

/* snarkjs's proof of mul.circom: reads, writes back unchanged, and satisfies
 * e(A, B) = e(alpha, beta) e(IC_0 + sum pub_i IC_i, gamma) e(C, delta). */
static void test_proof_fixture(void)
{
    tf_blob pb = tf_fixture("zkey", "proof.json"), ub = tf_fixture("zkey", "public.json");
    tf_blob vb = tf_fixture("zkey", "verification_key.json");
    char err[256], *text = NULL;
    size_t len = 0, n = 0;
    cz_groth16_proof proof;
    cz_groth16_vk vk;
    cz_fr *pub = NULL;
    TF_CHECK_MSG(cz_snarkjs_proof_read_mem(&proof, (char *)pb.p, pb.n, err, sizeof err) == CZ_OK,
                 "%s", err);
    TF_CHECK_MSG(cz_snarkjs_public_read_mem(&pub, &n, (char *)ub.p, ub.n, err, sizeof err) == CZ_OK,
                 "%s", err);
    TF_CHECK(cz_snarkjs_vk_read_mem(&vk, (char *)vb.p, vb.n, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_snarkjs_proof_to_json(&text, &len, &proof) == CZ_OK);
    check_same(text, len, pb, "proof.json rewritten");
    free(text);
    TF_CHECK(cz_snarkjs_public_to_json(&text, &len, pub, n) == CZ_OK);
    check_same(text, len, ub, "public.json rewritten");
    free(text);
    TF_CHECK(n + 1 == vk.n_ic);

    for (int tamper = 0; tamper < 2 && n + 1 == vk.n_ic; tamper++) {
        cz_g1 acc, t;
        cz_g1_affine p[4];
        cz_g2_affine q[4];
        if (tamper)
            cz_fr_add(&pub[0], &pub[0], &CZ_FR_ONE);
        cz_g1_from_affine(&acc, &vk.ic[0]);
        for (size_t i = 0; i < n; i++) {
            cz_g1_from_affine(&t, &vk.ic[i + 1]);
            cz_g1_mul_var(&t, &t, &pub[i]);
            cz_g1_add(&acc, &acc, &t);
        }
        cz_g1_affine_neg(&p[0], &proof.a);
        q[0] = proof.b;
        p[1] = vk.alpha_g1, q[1] = vk.beta_g2;
        cz_g1_to_affine(&p[2], &acc);
        q[2] = vk.gamma_g2;
        p[3] = proof.c, q[3] = vk.delta_g2;
        TF_CHECK_MSG(cz_pairing_check(p, q, 4) == !tamper, "pairing check, tamper %d", tamper);
    }
    free(pub);
    cz_groth16_vk_free(&vk);
    free(pb.p);
    free(ub.p);
    free(vb.p);
}

/* Random values: write, read back equal, write again to the same bytes. */
static void test_random_roundtrip(void)
{
    char err[256];
    for (unsigned it = 0; it < 8 * tf_scale; it++) {
        char *t1 = NULL, *t2 = NULL;
        size_t l1 = 0, l2 = 0, n = (size_t)(cz_prng_next(&tf_rng) % 6), m = 0;
        cz_groth16_proof p = {rand_g1(), rand_g2(), rand_g1()}, q;
        TF_CHECK(cz_snarkjs_proof_to_json(&t1, &l1, &p) == CZ_OK);
        TF_CHECK_MSG(cz_snarkjs_proof_read_mem(&q, t1, l1, err, sizeof err) == CZ_OK, "%s", err);
        TF_CHECK(cz_g1_affine_equal(&p.a, &q.a) && cz_g2_affine_equal(&p.b, &q.b) &&
                 cz_g1_affine_equal(&p.c, &q.c));
        TF_CHECK(cz_snarkjs_proof_to_json(&t2, &l2, &q) == CZ_OK);
        TF_CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
        free(t1), free(t2);

        cz_fr pub[6], *back = NULL;
        for (size_t i = 0; i < n; i++) {
            cz_fr_random(&pub[i], &tf_rng);
            if (i == 1)
                pub[i] = CZ_FR_ZERO;
            if (i == 2)
                cz_fr_neg(&pub[i], &CZ_FR_ONE); /* r - 1 */
        }
        TF_CHECK(cz_snarkjs_public_to_json(&t1, &l1, pub, n) == CZ_OK);
        TF_CHECK_MSG(cz_snarkjs_public_read_mem(&back, &m, t1, l1, err, sizeof err) == CZ_OK, "%s",
                     err);
        TF_CHECK(m == n && (n == 0 || memcmp(back, pub, n * sizeof *pub) == 0));
        TF_CHECK(cz_snarkjs_public_to_json(&t2, &l2, back, m) == CZ_OK);
        TF_CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
        free(t1), free(t2), free(back);

        cz_g1_affine ic[6];
        cz_groth16_vk vk = {rand_g1(), rand_g1(), rand_g2(), rand_g2(),
                            rand_g1(), rand_g2(), n + 1,     ic},
                      vb;
        for (size_t i = 0; i <= n; i++)
            ic[i] = rand_g1();
        if (it % 4 == 1)
            memset(&vk.alpha_g1, 0, sizeof vk.alpha_g1);
        if (it % 4 == 2)
            memset(&vk.gamma_g2, 0, sizeof vk.gamma_g2);
        TF_CHECK(cz_snarkjs_vk_to_json(&t1, &l1, &vk) == CZ_OK);
        TF_CHECK_MSG(cz_snarkjs_vk_read_mem(&vb, t1, l1, err, sizeof err) == CZ_OK, "%s", err);
        TF_CHECK(vk_equal(&vk, &vb));
        TF_CHECK(cz_snarkjs_vk_to_json(&t2, &l2, &vb) == CZ_OK);
        TF_CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
        free(t1), free(t2);
        cz_groth16_vk_free(&vb);
    }
    /* An empty public array is written as bfj writes [] with space 1. */
    char *t = NULL;
    size_t l = 0;
    TF_CHECK(cz_snarkjs_public_to_json(&t, &l, NULL, 0) == CZ_OK);
    TF_CHECK(t != NULL && l == 3 && strcmp(t, "[\n]") == 0);
    free(t);
}

/* Strict JSON, through the internal reader. */
static void test_json_strict(void)
{
    static const char *const bad[] = {
        "",
        " ",
        "\xef\xbb\xbf[]",
        "[1,]",
        "{\"a\":1,}",
        "[1 2]",
        "{'a':1}",
        "[NaN]",
        "[01]",
        "[1.]",
        "[.5]",
        "[1e]",
        "[-]",
        "[+1]",
        "[tru]",
        "[nul]",
        "[] x",
        "[]]",
        "{\"a\" 1}",
        "{1:2}",
        "[\"a\nb\"]",
        "[\"\\x\"]",
        "[\"\\u12\"]",
        "[\"\\ud800\"]",
        "[\"\\udc00\"]",
        "[\"\\ud800\\u0041\"]",
        "[\"\xc0\x80\"]",
        "[\"\xed\xa0\x80\"]",
        "[\"\xf4\x90\x80\x80\"]",
        "[\"\x80\"]",
        "[\"abc",
        "/* c */ []",
        "[1] // c",
        "[",
        "{\"a\":",
        "\"\xe2\x82\"",
    };
    static const char *const good[] = {
        "[]",
        " \t\r\n[ ]\n",
        "{}",
        "0",
        "-0.5e+10",
        "\"\\u00e9\\ud83d\\ude00\\/\\b\"",
        "[true,false,null,1E5]",
        "{\"a\":{\"a\":[]},\"a\":1}",
        "\"\xe2\x82\xac\xf0\x9f\x98\x80\"",
    };
    char err[128];
    cz_json_doc d;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = cz_json_parse(&d, bad[i], strlen(bad[i]), 16, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strstr(err, "line ") != NULL,
                     "bad JSON %zu accepted or wrong message: %s", i, err);
        TF_CHECK(d.nodes == NULL && d.pool == NULL);
    }
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        int rc = cz_json_parse(&d, good[i], strlen(good[i]), 16, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "good JSON %zu rejected: %s", i, err);
        cz_json_free(&d);
    }
    /* Decoding: escapes and surrogate pairs become UTF-8; tree layout. */
    const char *s = "{\"k\\u0041\": [\"\\ud83d\\ude00\", 12], \"z\": null}";
    TF_CHECK(cz_json_parse(&d, s, strlen(s), 16, err, sizeof err) == CZ_OK);
    if (d.nodes != NULL) {
        const cz_json_value *root = d.nodes, *a = cz_json_first(root), *z = cz_json_next(a);
        TF_CHECK(root->type == CZ_JSON_OBJECT && root->n == 2 && root->span == 5);
        TF_CHECK(a->type == CZ_JSON_ARRAY && a->n == 2 && strcmp(a->key, "kA") == 0);
        TF_CHECK(strcmp(cz_json_first(a)->str, "\xf0\x9f\x98\x80") == 0);
        TF_CHECK(strcmp(cz_json_next(cz_json_first(a))->str, "12") == 0);
        TF_CHECK(z->type == CZ_JSON_NULL && strcmp(z->key, "z") == 0);
    }
    cz_json_free(&d);
    /* Depth: 16 levels pass, 17 fail; 100000 fail without exhausting the
     * stack. */
    char deep[200001];
    static const size_t depths[] = {16, 17, 100000};
    for (size_t k = 0; k < 3; k++) {
        size_t depth = depths[k];
        memset(deep, '[', depth);
        memset(deep + depth, ']', depth);
        int rc = cz_json_parse(&d, deep, 2 * depth, 16, err, sizeof err);
        TF_CHECK_MSG((rc == CZ_OK) == (depth == 16), "depth %zu: %s", depth, err);
        if (rc != CZ_OK)
            TF_CHECK(strstr(err, "nesting") != NULL);
        cz_json_free(&d);
    }
    /* Every proper prefix of a fixture is invalid JSON. */
    tf_blob b = tf_fixture("zkey", "proof.json");
    for (size_t n = 0; n < b.n; n++) {
        tf_blob pre = tf_blob_prefix(b, n);
        char msg[256];
        TF_CHECK(read_kind(PROOF, (char *)pre.p, n, msg, sizeof msg) == CZ_ERR_BAD_FORMAT);
        free(pre.p);
    }
    free(b.p);
}

/* Keys, protocol and curve. */
static void test_reject_structure(void)
{
    tf_blob pb = tf_fixture("zkey", "proof.json"), vb = tf_fixture("zkey", "verification_key.json");
    tf_blob p1 = tf_fixture("zkey", "proof_bn128.json");
    tf_blob v1 = tf_fixture("zkey", "verification_key_bn128.json");
    const char *proof = (char *)pb.p, *vk = (char *)vb.p;
    char *t;
    expect(PROOF, proof, CZ_OK, NULL);
    expect(VK, vk, CZ_OK, NULL);
    expect(PROOF, (char *)p1.p, CZ_ERR_WRONG_CURVE, "curve: \"bn128\"");
    expect(VK, (char *)v1.p, CZ_ERR_WRONG_CURVE, "verification_key.json: curve");

    /* Trailing whitespace is fine, anything else is not. */
    t = malloc(pb.n + 3);
    sprintf(t, "%s\n ", proof);
    expect(PROOF, t, CZ_OK, NULL);
    sprintf(t, "%s\n}", proof);
    expect(PROOF, t, CZ_ERR_BAD_FORMAT, "trailing");
    free(t);

    struct {
        int kind;
        const char *old, *new;
        int code;
        const char *msg;
    } cases[] = {
        {PROOF, "{\n", "{\n \"curve\": \"bls12381\",\n", CZ_ERR_BAD_FORMAT, "curve: duplicate key"},
        {PROOF, "{\n", "{\n \"pi\\u005fb\": 1,\n", CZ_ERR_BAD_FORMAT, "pi_b: duplicate key"},
        {PROOF, ",\n \"protocol\": \"groth16\"", "", CZ_ERR_BAD_FORMAT, "protocol: missing key"},
        {PROOF, "\"pi_c\"", "\"pi_d\"", CZ_ERR_BAD_FORMAT, "unknown key \"pi_d\""},
        {PROOF, "\"pi_c\"", "\"pi\\u005fc\"", CZ_OK, NULL},
        {PROOF, "\"groth16\"", "\"plonk\"", CZ_ERR_UNSUPPORTED, "protocol: \"plonk\""},
        {PROOF, "\"groth16\"", "\"Groth16\"", CZ_ERR_UNSUPPORTED, "protocol"},
        {PROOF, "\"groth16\"", "7", CZ_ERR_BAD_FORMAT, "protocol: expected a string"},
        {PROOF, "\"bls12381\"", "\"bn128\"", CZ_ERR_WRONG_CURVE, "curve"},
        {PROOF, "\"bls12381\"", "\"bls12381\\u0000\"", CZ_ERR_WRONG_CURVE, "curve"},
        {PROOF, "\"bls12381\"", "null", CZ_ERR_BAD_FORMAT, "curve: expected a string"},
        {VK, "\"IC\"", "\"ic\"", CZ_ERR_BAD_FORMAT, "unknown key \"ic\""},
        {VK, "\"nPublic\": 3", "\"nPublic\": 4", CZ_ERR_BAD_FORMAT, "IC: expected"},
        {VK, "\"nPublic\": 3", "\"nPublic\": 3.0", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": 3e0", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": -3", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": \"3\"", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": 4294967296", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": 99999999999999999999", CZ_ERR_BAD_FORMAT, "nPublic"},
        {VK, "\"nPublic\": 3", "\"nPublic\": 4294967295", CZ_ERR_BAD_FORMAT, "IC"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        t = replace(cases[i].kind == PROOF ? proof : vk, cases[i].old, cases[i].new);
        expect(cases[i].kind, t, cases[i].code, cases[i].msg);
        free(t);
    }
    expect(PROOF, "[]", CZ_ERR_BAD_FORMAT, "top level: expected an object");
    expect(VK, "{}", CZ_ERR_BAD_FORMAT, "missing key");
    expect(PUBLIC, "{}", CZ_ERR_BAD_FORMAT, "top level: expected an array");
    expect(PUBLIC, "", CZ_ERR_BAD_FORMAT, "public.json: json: line 1");
    expect(PUBLIC, "[\n]", CZ_OK, NULL);

    /* vk_alphabeta_12 is optional but must match when present. */
    char *ab = value_of(vk, "vk_alphabeta_12"), *cut = malloc(strlen(ab) + 32);
    sprintf(cut, ",\n \"vk_alphabeta_12\": %s", ab);
    t = replace(vk, cut, "");
    expect(VK, t, CZ_OK, NULL);
    free(t);
    t = with_value(vk, "vk_alphabeta_12",
                   "[[[\"1\",\"0\"],[\"0\",\"0\"],[\"0\",\"0\"]],"
                   "[[\"0\",\"0\"],[\"0\",\"0\"],[\"0\",\"0\"]]]");
    expect(VK, t, CZ_ERR_BAD_FORMAT, "vk_alphabeta_12: not the pairing");
    free(t);
    t = with_value(vk, "vk_alphabeta_12", "[[[\"1\",\"0\"],[\"0\",\"0\"]],[]]");
    expect(VK, t, CZ_ERR_BAD_FORMAT, "vk_alphabeta_12[0]");
    free(t);
    free(ab);
    free(cut);
    free(pb.p), free(vb.p), free(p1.p), free(v1.p);
}

/* Field elements and points. */
static void test_reject_values(void)
{
    tf_blob pb = tf_fixture("zkey", "proof.json"), vb = tf_fixture("zkey", "verification_key.json");
    tf_blob ub = tf_fixture("zkey", "public.json");
    const char *proof = (char *)pb.p, *vk = (char *)vb.p, *pub = (char *)ub.p;
    char p_dec[160], pm1[160], r_dec[160], rm1[160], v[1024], *t;
    modulus_dec(p_dec, true, 0);
    modulus_dec(pm1, true, -1);
    modulus_dec(r_dec, false, 0);
    modulus_dec(rm1, false, -1);

    /* Public signals: < r, canonical decimal strings. */
    struct {
        const char *v;
        int code;
    } sig[] = {{r_dec, CZ_ERR_NOT_CANONICAL},
               {rm1, CZ_OK},
               {"0", CZ_OK},
               {"00", CZ_ERR_BAD_FORMAT},
               {"01", CZ_ERR_BAD_FORMAT},
               {"-1", CZ_ERR_BAD_FORMAT},
               {"", CZ_ERR_BAD_FORMAT},
               {"1 ", CZ_ERR_BAD_FORMAT},
               {"1e3", CZ_ERR_BAD_FORMAT},
               {"9999999999999999999999999999999999999999999999999999999999999999999999999999999",
                CZ_ERR_NOT_CANONICAL}};
    for (size_t i = 0; i < sizeof sig / sizeof *sig; i++) {
        snprintf(v, sizeof v, "\"%s\"", sig[i].v);
        t = replace(pub, "\"2469137\"", v);
        expect(PUBLIC, t, sig[i].code, "public.json: [1]: ");
        free(t);
    }
    t = replace(pub, "\"2469137\"", "2469137");
    expect(PUBLIC, t, CZ_ERR_BAD_FORMAT, "[1]: expected a decimal string");
    free(t);

    /* Coordinates: < p.  p - 1 is canonical but off the curve.  Put into
     * pi_a's x and pi_b's y.c1. */
    cz_groth16_proof pr;
    char err[256], dd[4][160];
    TF_CHECK(cz_snarkjs_proof_read_mem(&pr, proof, pb.n, err, sizeof err) == CZ_OK);
    fp_dec(dd[0], &pr.a.y);
    fp_dec(dd[1], &pr.b.x.c0);
    fp_dec(dd[2], &pr.b.x.c1);
    fp_dec(dd[3], &pr.b.y.c0);
    struct {
        const char *v;
        int code;
    } co[] = {{p_dec, CZ_ERR_NOT_CANONICAL},
              {pm1, CZ_ERR_NOT_ON_CURVE},
              {"1000000000000000000000000000000000000000000000000000000000000000000000000000000"
               "00000000000000000000000000000000000000000",
               CZ_ERR_NOT_CANONICAL},
              {"a", CZ_ERR_BAD_FORMAT}};
    for (size_t i = 0; i < sizeof co / sizeof *co; i++) {
        snprintf(v, sizeof v, "[\"%s\",\"%s\",\"1\"]", co[i].v, dd[0]);
        t = with_value(proof, "pi_a", v);
        bool off = co[i].code == CZ_ERR_NOT_ON_CURVE;
        expect(PROOF, t, co[i].code,
               off ? "proof.json: pi_a: point not on" : "proof.json: pi_a[0]: ");
        free(t);
        snprintf(v, sizeof v, "[[\"%s\",\"%s\"],[\"%s\",\"%s\"],[\"1\",\"0\"]]", dd[1], dd[2],
                 dd[3], co[i].v);
        t = with_value(proof, "pi_b", v);
        expect(PROOF, t, co[i].code,
               off ? "proof.json: pi_b: point not on" : "proof.json: pi_b[1][1]: ");
        free(t);
    }

    /* Points at infinity and z. */
    struct {
        const char *key, *v;
        int code;
        const char *msg;
    } pt[] = {
        {"pi_a", "[\"0\",\"1\",\"0\"]", CZ_ERR_IS_INFINITY, "pi_a: the point at infinity"},
        {"pi_c", "[\"0\",\"2\",\"0\"]", CZ_ERR_BAD_INFINITY, "pi_c: z = 0"},
        {"pi_c", "[\"5\",\"1\",\"0\"]", CZ_ERR_BAD_INFINITY, "pi_c"},
        {"pi_a", "[\"0\",\"0\",\"1\"]", CZ_ERR_NOT_ON_CURVE, "pi_a: point not on the curve"},
        {"pi_a", "[\"0\",\"2\",\"1\"]", CZ_ERR_NOT_IN_SUBGROUP, "pi_a: point not in"},
        {"pi_a", "[\"0\",\"1\"]", CZ_ERR_BAD_FORMAT, "pi_a: expected [x, y, z]"},
        {"pi_a", "[\"0\",\"1\",\"0\",\"0\"]", CZ_ERR_BAD_FORMAT, "pi_a: expected"},
        {"pi_a", "{}", CZ_ERR_BAD_FORMAT, "pi_a: expected"},
        {"pi_b", "[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"0\"]]", CZ_ERR_IS_INFINITY, "pi_b"},
        {"pi_b", "[[\"0\",\"0\"],[\"1\",\"1\"],[\"0\",\"0\"]]", CZ_ERR_BAD_INFINITY, "pi_b: z"},
        {"pi_b", "[[\"0\",\"0\"],[\"0\",\"0\"],[\"1\",\"0\"]]", CZ_ERR_NOT_ON_CURVE, "pi_b"},
        {"pi_b", "[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"1\"]]", CZ_ERR_BAD_FORMAT,
         "pi_b: z is neither"},
        {"pi_b", "[[\"0\",\"0\"],[\"1\",\"0\"]]", CZ_ERR_BAD_FORMAT, "pi_b: expected"},
        {"pi_b", "[[\"0\",\"0\"],[\"1\",\"0\"],[\"1\"]]", CZ_ERR_BAD_FORMAT, "pi_b[2]: expected"},
    };
    for (size_t i = 0; i < sizeof pt / sizeof *pt; i++) {
        t = with_value(proof, pt[i].key, pt[i].v);
        expect(PROOF, t, pt[i].code, pt[i].msg);
        free(t);
    }
    /* z = 2 with (x, y) = the generator scaled back: projective forms are
     * refused even when they name a valid point. */
    {
        cz_fp two, x2, y2;
        char xs[160], ys[160];
        cz_fp_add(&two, &CZ_FP_ONE, &CZ_FP_ONE);
        cz_fp_mul(&x2, &CZ_G1_GENERATOR.x, &two);
        cz_fp_mul(&x2, &x2, &two);
        cz_fp_mul(&y2, &CZ_G1_GENERATOR.y, &two);
        cz_fp_mul(&y2, &y2, &two);
        cz_fp_mul(&y2, &y2, &two);
        fp_dec(xs, &x2);
        fp_dec(ys, &y2);
        snprintf(v, sizeof v, "[\"%s\",\"%s\",\"2\"]", xs, ys);
        t = with_value(proof, "pi_a", v);
        expect(PROOF, t, CZ_ERR_BAD_FORMAT, "pi_a: z is neither 1 nor 0");
        free(t);
    }

    /* Points on the curve outside the subgroup, from random x. */
    for (int g = 0; g < 2; g++) {
        char a[160], b[160], c[160], d[160];
        if (g == 0) {
            cz_g1_affine q;
            cz_fp rhs, four;
            cz_fp_from_u64(&four, 4);
            do {
                cz_fp_random(&q.x, &tf_rng);
                cz_fp_sqr(&rhs, &q.x);
                cz_fp_mul(&rhs, &rhs, &q.x);
                cz_fp_add(&rhs, &rhs, &four);
            } while (!cz_fp_sqrt(&q.y, &rhs));
            TF_CHECK(cz_g1_affine_is_on_curve(&q) && !cz_g1_affine_in_subgroup(&q));
            fp_dec(a, &q.x);
            fp_dec(b, &q.y);
            snprintf(v, sizeof v, "[\"%s\",\"%s\",\"1\"]", a, b);
            t = with_value(proof, "pi_c", v);
            expect(PROOF, t, CZ_ERR_NOT_IN_SUBGROUP, "pi_c: point not in");
            free(t);
            char *ic = value_of(vk, "IC"), *nic = malloc(strlen(ic) + 400);
            sprintf(nic, "[%s,%s", v, strchr(ic + 1, ']') + 2);
            t = with_value(vk, "IC", nic);
            expect(VK, t, CZ_ERR_NOT_IN_SUBGROUP, "IC[0]: point not in");
            free(t);
            sprintf(nic, "[[\"0\",\"1\",\"0\"],%s", strchr(ic + 1, ']') + 2);
            t = with_value(vk, "IC", nic);
            expect(VK, t, CZ_ERR_IS_INFINITY, "IC[0]: the point at infinity");
            free(t);
            free(ic), free(nic);
        } else {
            cz_g2_affine q;
            cz_fp2 rhs, b4 = {CZ_FP_ZERO, CZ_FP_ZERO};
            cz_fp_from_u64(&b4.c0, 4);
            b4.c1 = b4.c0; /* 4 (u + 1) */
            do {
                cz_fp2_random(&q.x, &tf_rng);
                cz_fp2_sqr(&rhs, &q.x);
                cz_fp2_mul(&rhs, &rhs, &q.x);
                cz_fp2_add(&rhs, &rhs, &b4);
            } while (!cz_fp2_sqrt(&q.y, &rhs));
            TF_CHECK(cz_g2_affine_is_on_curve(&q) && !cz_g2_affine_in_subgroup(&q));
            fp_dec(a, &q.x.c0), fp_dec(b, &q.x.c1), fp_dec(c, &q.y.c0), fp_dec(d, &q.y.c1);
            snprintf(v, sizeof v, "[[\"%s\",\"%s\"],[\"%s\",\"%s\"],[\"1\",\"0\"]]", a, b, c, d);
            t = with_value(proof, "pi_b", v);
            expect(PROOF, t, CZ_ERR_NOT_IN_SUBGROUP, "pi_b: point not in");
            free(t);
            t = with_value(vk, "vk_gamma_2", v);
            expect(VK, t, CZ_ERR_NOT_IN_SUBGROUP, "vk_gamma_2: point not in");
            free(t);
        }
    }
    free(pb.p), free(vb.p), free(ub.p);
}

/* Random byte changes: never a crash or an unexpected code. */
static void test_random_corruption(void)
{
    static const char *const names[3] = {"proof.json", "public.json", "verification_key.json"};
    for (int kind = 0; kind < 3; kind++) {
        tf_blob b = tf_fixture("zkey", names[kind]);
        for (unsigned it = 0; it < 200 * tf_scale && b.p != NULL; it++) {
            tf_blob c = tf_blob_prefix(b, b.n);
            unsigned flips = 1 + (unsigned)(cz_prng_next(&tf_rng) % 3);
            for (unsigned f = 0; f < flips; f++) {
                uint64_t r = cz_prng_next(&tf_rng);
                c.p[r % c.n] = (uint8_t)(r >> 32);
            }
            char err[256];
            int rc = read_kind(kind, (char *)c.p, c.n, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK || rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_NOT_CANONICAL ||
                             rc == CZ_ERR_NOT_ON_CURVE || rc == CZ_ERR_NOT_IN_SUBGROUP ||
                             rc == CZ_ERR_BAD_INFINITY || rc == CZ_ERR_IS_INFINITY ||
                             rc == CZ_ERR_WRONG_CURVE || rc == CZ_ERR_UNSUPPORTED,
                         "unexpected %s", cz_strerror(rc));
            free(c.p);
        }
        free(b.p);
    }
}

static void test_args_and_io(void)
{
    char err[256], *t = (char *)&err;
    size_t n = 0;
    cz_groth16_proof p;
    cz_groth16_vk vk;
    cz_fr *pub = NULL;
    TF_CHECK(cz_snarkjs_proof_read_file(&p, "/nonexistent/proof.json", err, sizeof err) ==
             CZ_ERR_IO);
    TF_CHECK(cz_snarkjs_vk_read_file(&vk, "/nonexistent/vk.json", err, sizeof err) == CZ_ERR_IO);
    TF_CHECK(cz_snarkjs_public_read_file(&pub, &n, "/nonexistent/p.json", err, sizeof err) ==
             CZ_ERR_IO);
    TF_CHECK(cz_snarkjs_proof_read_file(&p, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_snarkjs_proof_read_mem(NULL, "{}", 2, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_snarkjs_vk_read_mem(&vk, NULL, 1, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_snarkjs_public_read_mem(&pub, NULL, "[]", 2, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    /* A NULL or empty err buffer is fine. */
    TF_CHECK(cz_snarkjs_proof_read_mem(&p, "[]", 2, NULL, 0) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(cz_snarkjs_public_read_mem(&pub, &n, "[\"01\"]", 6, err, 0) == CZ_ERR_BAD_FORMAT);
    /* Writers. */
    memset(&vk, 0, sizeof vk);
    TF_CHECK(cz_snarkjs_vk_to_json(&t, NULL, &vk) == CZ_ERR_INVALID_ARG && t == NULL);
    t = (char *)&err;
    TF_CHECK(cz_snarkjs_public_to_json(&t, NULL, NULL, 1) == CZ_ERR_INVALID_ARG && t == NULL);
    TF_CHECK(cz_snarkjs_proof_to_json(NULL, NULL, &p) == CZ_ERR_INVALID_ARG);
    memset(&p, 0, sizeof p);
    TF_CHECK(cz_snarkjs_proof_write_file("/nonexistent/dir/proof.json", &p) == CZ_ERR_IO);
    TF_CHECK(cz_snarkjs_public_write_file(NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
}

TF_MAIN(TF_TEST(test_vk_from_zkey), TF_TEST(test_vk_fixtures), TF_TEST(test_proof_fixture),
        TF_TEST(test_random_roundtrip), TF_TEST(test_json_strict), TF_TEST(test_reject_structure),
        TF_TEST(test_reject_values), TF_TEST(test_random_corruption), TF_TEST(test_args_and_io))
