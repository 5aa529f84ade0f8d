/* snarkjs .zkey reader (include/cuzk/zkey.h) on the fixtures of
 * tests/data/zkey (made by make.sh there with snarkjs 0.7.6 from
 * tests/data/circom/mul.r1cs): the verifying key equals snarkjs's exported
 * verification_key.json, e(alpha, beta) equals its vk_alphabeta_12, the
 * coefficients reproduce the circuit's A and B matrices, and every
 * truncation and corruption is rejected with its code (run under ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/zkey.h"
#include "fixture.h"
#include "tf.h"

/* ------------------------------------------------------------ fixtures --- */

/* Offset of the data of the section of the given type; 0 if absent. */
static size_t data_of(tf_blob b, uint32_t type)
{
    size_t e = tf_binfile_entry(b, type);
    return e ? e + 12 : 0;
}

/* Groth16 header layout: n8q, q, n8r, r, nVars, nPublic, domainSize, then
 * the points. */
#define HDR_NVARS   (4 + 48 + 4 + 32)
#define HDR_NPUBLIC (HDR_NVARS + 4)
#define HDR_DOMAIN  (HDR_NVARS + 8)
#define HDR_ALPHA1  (HDR_NVARS + 12)

/* Loads b and checks the result is zeroed on failure. */
static int load(tf_blob b, unsigned flags, char *err)
{
    cz_zkey z;
    int rc = cz_zkey_load_mem(&z, b.p, b.n, flags, err, 256);
    if (rc != CZ_OK) {
        static const cz_zkey zero;
        TF_CHECK(memcmp(&z, &zero, sizeof z) == 0);
        TF_CHECK(err[0] != 0);
    }
    cz_zkey_free(&z);
    return rc;
}

/* ------------------------------------------------------ JSON decimals --- */

/* Canonical decimal string -> Fp (Montgomery): limbs = 10 * limbs + digit. */
static cz_fp fp_from_dec(const char *s, size_t n)
{
    uint64_t l[6] = {0};
    cz_fp r;
    for (size_t i = 0; i < n; i++) {
        unsigned __int128 carry = (unsigned)(s[i] - '0');
        for (int k = 0; k < 6; k++) {
            carry += (unsigned __int128)l[k] * 10;
            l[k] = (uint64_t)carry;
            carry >>= 64;
        }
    }
    cz_fp_from_canonical(&r, l);
    return r;
}

/* The next n decimal strings after "key" in json, in order (nesting is
 * flattened, as the coordinates appear). */
static int json_fps(const char *json, const char *key, cz_fp *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(json, pat);
    if (p == NULL)
        return 0;
    p += strlen(pat);
    for (size_t i = 0; i < n; i++) {
        p = strchr(p, '"');
        if (p == NULL)
            return 0;
        size_t len = strspn(p + 1, "0123456789");
        if (p[1 + len] != '"' || len == 0)
            return 0;
        out[i] = fp_from_dec(p + 1, len);
        p += len + 2;
    }
    return 1;
}

static int json_g1(const char *json, const char *key, size_t index, cz_g1_affine *g)
{
    cz_fp v[3 * 8];
    if (index >= 8 || !json_fps(json, key, v, 3 * (index + 1)))
        return 0;
    g->x = v[3 * index];
    g->y = v[3 * index + 1];
    return cz_fp_is_one(&v[3 * index + 2]); /* z = 1 */
}

static int json_g2(const char *json, const char *key, cz_g2_affine *g)
{
    cz_fp v[6];
    if (!json_fps(json, key, v, 6))
        return 0;
    g->x.c0 = v[0], g->x.c1 = v[1], g->y.c0 = v[2], g->y.c1 = v[3];
    return cz_fp_is_one(&v[4]) && cz_fp_is_zero(&v[5]);
}

/* --------------------------------------------------------------- tests --- */

/* The fixture circuit mul: its r1cs and its zkey (a failed load is a failed
 * check); the zkey's load status. */
static int load_mul(cz_circom_r1cs *r, cz_zkey *z)
{
    char path[4096], err[256];
    tf_fixture_path(path, sizeof path, "circom", "mul.r1cs");
    TF_CHECK_MSG(cz_circom_r1cs_load(r, path, err, sizeof err) == CZ_OK, "r1cs: %s", err);
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    int rc = cz_zkey_load(z, path, CZ_ZKEY_DEFAULT, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "load: %s", err);
    return rc;
}

static void test_parse_and_vk(void)
{
    tf_blob jb = tf_fixture("zkey", "verification_key.json");
    cz_zkey z;
    cz_circom_r1cs r;
    int rc = load_mul(&r, &z);
    if (rc != CZ_OK || jb.p == NULL)
        return;
    const char *json = (const char *)jb.p;
    TF_CHECK(z.n_vars == r.n_wires);
    TF_CHECK(z.n_public == r.n_pub_out + r.n_pub_in);
    TF_CHECK(strstr(json, "\"nPublic\": 3,") != NULL && z.n_public == 3);
    /* snarkjs: the smallest power of two >= nConstraints + nPublic + 1 */
    uint32_t need = r.n_constraints + z.n_public + 1;
    TF_CHECK(z.domain_size >= need && z.domain_size / 2 < need);
    TF_CHECK(z.domain_size == 1u << z.log_domain_size);

    cz_g1_affine g1;
    cz_g2_affine g2;
    TF_CHECK(json_g1(json, "vk_alpha_1", 0, &g1) && cz_g1_affine_equal(&g1, &z.alpha1));
    TF_CHECK(json_g2(json, "vk_beta_2", &g2) && cz_g2_affine_equal(&g2, &z.beta2));
    TF_CHECK(json_g2(json, "vk_gamma_2", &g2) && cz_g2_affine_equal(&g2, &z.gamma2));
    TF_CHECK(json_g2(json, "vk_delta_2", &g2) && cz_g2_affine_equal(&g2, &z.delta2));
    for (uint32_t i = 0; i <= z.n_public; i++)
        TF_CHECK_MSG(json_g1(json, "IC", i, &g1) && cz_g1_affine_equal(&g1, &z.ic[i]), "IC %u", i);
    /* beta1 / beta2 and delta1 / delta2 hold the same exponent:
     * e(beta1, g2) = e(g1, beta2). */
    cz_g1_affine p[2] = {z.beta1, CZ_G1_GENERATOR};
    cz_g2_affine q[2] = {CZ_G2_GENERATOR, z.beta2};
    cz_g1_affine_neg(&p[1], &p[1]);
    TF_CHECK(cz_pairing_check(p, q, 2));
    p[0] = z.delta1, q[1] = z.delta2;
    TF_CHECK(cz_pairing_check(p, q, 2));

    /* Every point on the curve and in the subgroup; H and the generators are
     * not infinity. */
    TF_CHECK(!cz_g1_affine_is_inf(&z.alpha1) && !cz_g2_affine_is_inf(&z.delta2));
    /* the fixture had a phase-2 contribution: delta is not the generator */
    TF_CHECK(!cz_g1_affine_equal(&z.delta1, &CZ_G1_GENERATOR));
    for (uint32_t i = 0; i < z.n_vars; i++) {
        TF_CHECK(cz_g1_affine_is_on_curve(&z.a[i]) && cz_g1_affine_in_subgroup(&z.a[i]));
        TF_CHECK(cz_g1_affine_is_on_curve(&z.b1[i]) && cz_g1_affine_in_subgroup(&z.b1[i]));
        TF_CHECK(cz_g2_affine_is_on_curve(&z.b2[i]) && cz_g2_affine_in_subgroup(&z.b2[i]));
    }
    for (uint32_t i = 0; i < z.n_vars - z.n_public - 1; i++)
        TF_CHECK(cz_g1_affine_is_on_curve(&z.c[i]) && cz_g1_affine_in_subgroup(&z.c[i]));
    for (uint32_t i = 0; i < z.domain_size; i++)
        TF_CHECK(!cz_g1_affine_is_inf(&z.h[i]) && cz_g1_affine_in_subgroup(&z.h[i]));

    /* The same key with the subgroup checks skipped. */
    char path[4096], err[256];
    cz_zkey s;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    TF_CHECK(cz_zkey_load(&s, path, CZ_ZKEY_SKIP_SUBGROUP, err, sizeof err) == CZ_OK);
    TF_CHECK(s.n_coefs == z.n_coefs && memcmp(s.h, z.h, z.domain_size * sizeof *z.h) == 0);
    TF_CHECK(memcmp(s.b2, z.b2, z.n_vars * sizeof *z.b2) == 0);
    cz_zkey_free(&s);
    cz_zkey_free(&z);
    cz_circom_r1cs_free(&r);
    free(jb.p);
}

/* e(alpha1, beta2) against vk_alphabeta_12 (12 coordinates in tower order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ...).  Observed on this fixture: snarkjs
 * 0.7.6 (ffjavascript) gives exactly cz_pairing's value, i.e. the same cube
 * of the textbook reduced pairing (ec.h), not the textbook value; the check
 * that it differs from the cube of the JSON value guards that reading. */
static void test_alphabeta(void)
{
    tf_blob jb = tf_fixture("zkey", "verification_key.json");
    char path[4096], err[256];
    cz_zkey z;
    cz_fp v[12];
    cz_fp12 want, got, cube;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    TF_CHECK(cz_zkey_load(&z, path, CZ_ZKEY_DEFAULT, err, sizeof err) == CZ_OK);
    TF_CHECK(jb.p != NULL && json_fps((const char *)jb.p, "vk_alphabeta_12", v, 12));
    cz_fp6 *h[2] = {&want.c0, &want.c1};
    for (int i = 0; i < 2; i++) {
        cz_fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++)
            c[j]->c0 = v[6 * i + 2 * j], c[j]->c1 = v[6 * i + 2 * j + 1];
    }
    cz_pairing(&got, &z.alpha1, &z.beta2);
    cz_fp12_sqr(&cube, &want);
    cz_fp12_mul(&cube, &cube, &want);
    TF_CHECK(!cz_fp12_is_one(&got) && !cz_fp12_equal(&got, &cube));
    TF_CHECK(cz_fp12_equal(&got, &want));
    cz_zkey_free(&z);
    free(jb.p);
}

/* The coefficients are the r1cs A and B entries (values equal after the
 * reader undoes snarkjs's R^2), plus one A entry (constraint nConstraints +
 * s, signal s, value 1) per public signal s including the constant. */
static void test_coefs_match_r1cs(void)
{
    cz_zkey z;
    cz_circom_r1cs r;
    load_mul(&r, &z);
    TF_CHECK(z.n_coefs == r.a.nnz + r.b.nnz + z.n_public + 1);
    uint64_t seen[2] = {0, 0}, extra = 0;
    for (uint32_t i = 0; i < z.n_coefs; i++) {
        const cz_zkey_coef *e = &z.coefs[i];
        if (e->constraint >= r.n_constraints) {
            TF_CHECK(e->matrix == 0 && e->constraint - r.n_constraints == e->signal);
            TF_CHECK(e->signal <= z.n_public && cz_fr_is_one(&e->value));
            extra++;
            continue;
        }
        const cz_circom_csr *m = e->matrix == 0 ? &r.a : &r.b;
        int found = 0;
        for (uint64_t k = m->row[e->constraint]; k < m->row[e->constraint + 1]; k++)
            found |= m->col[k] == e->signal && cz_fr_equal(&m->val[k], &e->value);
        TF_CHECK_MSG(found, "coefficient %u not in the r1cs", i);
        seen[e->matrix]++;
    }
    TF_CHECK(seen[0] == r.a.nnz && seen[1] == r.b.nnz && extra == z.n_public + 1u);
    /* at least one coefficient other than 1, so the R^2 undoing is tested */
    int other = 0;
    for (uint32_t i = 0; i < z.n_coefs; i++)
        other |= !cz_fr_is_one(&z.coefs[i].value);
    TF_CHECK(other);
    cz_zkey_free(&z);
    cz_circom_r1cs_free(&r);
}

/* snarkjs writes the point at infinity as zero bytes; the reader maps it to
 * the affine (0, 0).  The fixture has such points in A, B1 and B2 (signals
 * absent from a matrix). */
static void test_infinity(void)
{
    tf_blob b = tf_fixture("zkey", "mul.zkey");
    static const uint8_t zero[192];
    char err[256];
    cz_zkey z;
    unsigned inf = 0;
    TF_CHECK(cz_zkey_load_mem(&z, b.p, b.n, CZ_ZKEY_DEFAULT, err, sizeof err) == CZ_OK);
    for (uint32_t i = 0; i < z.n_vars; i++) {
        const uint8_t *pa = b.p + data_of(b, 5) + 96 * i, *pb = b.p + data_of(b, 6) + 96 * i;
        const uint8_t *p2 = b.p + data_of(b, 7) + 192 * i;
        TF_CHECK(cz_g1_affine_is_inf(&z.a[i]) == (memcmp(pa, zero, 96) == 0));
        TF_CHECK(cz_g1_affine_is_inf(&z.b1[i]) == (memcmp(pb, zero, 96) == 0));
        TF_CHECK(cz_g2_affine_is_inf(&z.b2[i]) == (memcmp(p2, zero, 192) == 0));
        inf += cz_g1_affine_is_inf(&z.a[i]) + cz_g1_affine_is_inf(&z.b1[i]);
    }
    TF_CHECK(inf > 0);
    cz_zkey_free(&z);
    free(b.p);
}

static void test_truncation(void)
{
    tf_blob b = tf_fixture("zkey", "mul.zkey");
    char err[256];
    for (size_t n = 0; n < b.n; n++) {
        tf_blob d = tf_blob_prefix(b, n);
        int rc = load(d, CZ_ZKEY_SKIP_SUBGROUP, err);
        TF_CHECK_MSG(rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_BAD_FORMAT, "length %zu: %d", n, rc);
        free(d.p);
    }
    tf_blob d = tf_blob_prefix(b, b.n);
    TF_CHECK(load(d, CZ_ZKEY_DEFAULT, err) == CZ_OK);
    free(d.p);
    free(b.p);
}

static void test_wrong_curve(void)
{
    tf_blob b = tf_fixture("zkey", "mul_bn128.zkey");
    char err[256];
    TF_CHECK(load(b, CZ_ZKEY_DEFAULT, err) == CZ_ERR_WRONG_CURVE);
    TF_CHECK_MSG(strstr(err, "bn128") != NULL && strstr(err, "0x30644e72") != NULL, "%s", err);
    free(b.p);
}

/* Applies f to a copy of the fixture and returns the loader's code. */
static int corrupt(tf_blob b, void (*f)(tf_blob, size_t), size_t at, unsigned flags, char *err)
{
    tf_blob d = tf_blob_prefix(b, b.n);
    f(d, at);
    int rc = load(d, flags, err);
    free(d.p);
    return rc;
}
static void flip_low(tf_blob d, size_t at) { d.p[at] ^= 1; }
static void all_ff(tf_blob d, size_t at) { memset(d.p + at, 0xff, 48); }
static void u32_max(tf_blob d, size_t at) { tf_wr32le(d.p + at, UINT32_MAX); }
static void u32_six(tf_blob d, size_t at) { tf_wr32le(d.p + at, 6); }
static void u32_two(tf_blob d, size_t at) { tf_wr32le(d.p + at, 2); }
/* (0, 2): on y^2 = x^3 + 4, of order 3, so outside the order-r subgroup. */
static void order3(tf_blob d, size_t at)
{
    cz_fp two;
    cz_fp_from_u64(&two, 2);
    memset(d.p + at, 0, 96);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            d.p[at + 48 + 8 * i + j] = (uint8_t)(two.l[i] >> 8 * j);
}

static void test_corruptions(void)
{
    tf_blob b = tf_fixture("zkey", "mul.zkey");
    char err[256];
    size_t hdr = data_of(b, 2), coefs = data_of(b, 4), a = data_of(b, 5), b2 = data_of(b, 7);
    size_t h = data_of(b, 9), proto = data_of(b, 1);
    TF_CHECK(hdr && coefs && a && b2 && h && proto);

    TF_CHECK(corrupt(b, flip_low, hdr + HDR_ALPHA1, 0, err) == CZ_ERR_NOT_ON_CURVE);
    TF_CHECK_MSG(strstr(err, "alpha1") != NULL, "%s", err);
    TF_CHECK(corrupt(b, flip_low, a + 2 * 96 + 48, 0, err) == CZ_ERR_NOT_ON_CURVE);
    TF_CHECK_MSG(strstr(err, "A point 2") != NULL, "%s", err);
    TF_CHECK(corrupt(b, flip_low, b2 + 192 + 96, 0, err) == CZ_ERR_NOT_ON_CURVE);
    TF_CHECK_MSG(strstr(err, "B2 point 1") != NULL, "%s", err);
    TF_CHECK(corrupt(b, all_ff, h + 3 * 96, 0, err) == CZ_ERR_NOT_CANONICAL);
    TF_CHECK_MSG(strstr(err, "H point 3") != NULL, "%s", err);
    TF_CHECK(corrupt(b, order3, h + 96, 0, err) == CZ_ERR_NOT_IN_SUBGROUP);
    TF_CHECK_MSG(strstr(err, "H point 1") != NULL, "%s", err);
    TF_CHECK(corrupt(b, order3, h + 96, CZ_ZKEY_SKIP_SUBGROUP, err) == CZ_OK);
    {
        /* the parallel subgroup pass reports the same first bad point (H 1
         * and H 3 bad: H 1 wins with any thread count) at its offset */
        tf_blob d = tf_blob_prefix(b, b.n);
        order3(d, h + 96);
        order3(d, h + 3 * 96);
        cz_pool *pool;
        cz_zkey z;
        char e1[256], e2[256];
        TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
        TF_CHECK(cz_zkey_load_mem_ex(&z, d.p, d.n, 0, pool, e1, sizeof e1) ==
                 CZ_ERR_NOT_IN_SUBGROUP);
        TF_CHECK(cz_zkey_load_mem(&z, d.p, d.n, 0, e2, sizeof e2) == CZ_ERR_NOT_IN_SUBGROUP);
        TF_CHECK_MSG(strcmp(e1, e2) == 0 && strstr(e1, "H point 1") != NULL, "%s | %s", e1, e2);
        char off[32];
        snprintf(off, sizeof off, "offset %zu:", h + 96);
        TF_CHECK_MSG(strstr(e1, off) != NULL, "%s (want %s)", e1, off);
        cz_pool_free(pool);
        free(d.p);
    }

    /* counts: overflowing or inconsistent with the section sizes */
    TF_CHECK(corrupt(b, u32_max, coefs, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, u32_max, hdr + HDR_NVARS, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, u32_max, hdr + HDR_NPUBLIC, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, u32_max, hdr + HDR_DOMAIN, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, u32_six, hdr + HDR_DOMAIN, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "power of two") != NULL, "%s", err);
    TF_CHECK(corrupt(b, u32_two, proto, 0, err) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(corrupt(b, u32_max, 4, 0, err) == CZ_ERR_UNSUPPORTED); /* version */
    TF_CHECK(corrupt(b, flip_low, 0, 0, err) == CZ_ERR_BAD_FORMAT); /* magic */
    /* coefficient entry 1: matrix, constraint, signal, value */
    size_t e1 = coefs + 4 + 44;
    TF_CHECK(corrupt(b, u32_two, e1, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "entry 1") != NULL, "%s", err);
    TF_CHECK(corrupt(b, u32_max, e1 + 4, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, u32_max, e1 + 8, 0, err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(corrupt(b, all_ff, e1 + 12, 0, err) == CZ_ERR_NOT_CANONICAL);
    TF_CHECK_MSG(strstr(err, "entry 1") != NULL, "%s", err);
    /* q changed: wrong curve naming the prime */
    TF_CHECK(corrupt(b, flip_low, hdr + 4 + 10, 0, err) == CZ_ERR_WRONG_CURVE);
    TF_CHECK_MSG(strstr(err, "0x1a0111ea") != NULL, "%s", err);
    /* r changed */
    TF_CHECK(corrupt(b, flip_low, hdr + 4 + 48 + 4 + 10, 0, err) == CZ_ERR_WRONG_CURVE);
    free(b.p);
}

/* Random byte corruptions: a verdict, never a crash (ASan). */
static void test_random_corruption(void)
{
    tf_blob b = tf_fixture("zkey", "mul.zkey");
    char err[256];
    for (unsigned it = 0; it < 200 * tf_scale; it++) {
        tf_blob d = tf_blob_prefix(b, b.n);
        uint64_t k = cz_prng_next(&tf_rng);
        for (int j = 0; j < 1 + (int)(k & 3); j++) {
            uint64_t v = cz_prng_next(&tf_rng);
            d.p[v % d.n] = (uint8_t)(v >> 32);
        }
        int rc = load(d, (k >> 8) & 1 ? CZ_ZKEY_SKIP_SUBGROUP : 0, err);
        TF_CHECK(rc >= CZ_OK && rc < CZ_ERR__COUNT && rc != CZ_ERR_INVALID_ARG);
        free(d.p);
    }
    free(b.p);
}

static void test_args_and_io(void)
{
    cz_zkey z;
    char err[256], path[4096];
    TF_CHECK(cz_zkey_load_mem(NULL, (const uint8_t *)"", 0, 0, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_zkey_load_mem(&z, NULL, 5, 0, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_zkey_load_mem(&z, NULL, 0, 0, err, sizeof err) == CZ_ERR_TRUNCATED);
    TF_CHECK(cz_zkey_load(&z, NULL, 0, err, sizeof err) == CZ_ERR_INVALID_ARG);
    tf_fixture_path(path, sizeof path, "zkey", "no-such-file.zkey");
    TF_CHECK(cz_zkey_load(&z, path, 0, err, sizeof err) == CZ_ERR_IO);
    TF_CHECK(strstr(err, "no-such-file") != NULL);
    tf_fixture_path(path, sizeof path, "circom", "mul.r1cs");
    TF_CHECK(cz_zkey_load(&z, path, 0, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    char small[8];
    TF_CHECK(cz_zkey_load(&z, path, 0, small, sizeof small) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(strlen(small) == sizeof small - 1);
    cz_zkey_free(NULL);
}

TF_MAIN(TF_TEST(test_parse_and_vk), TF_TEST(test_alphabeta), TF_TEST(test_coefs_match_r1cs),
        TF_TEST(test_infinity), TF_TEST(test_truncation), TF_TEST(test_wrong_curve),
        TF_TEST(test_corruptions), TF_TEST(test_random_corruption), TF_TEST(test_args_and_io))
