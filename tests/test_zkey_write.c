/* snarkjs .zkey writer (cz_zkey_write, include/cuzk/zkey.h) against the
 * reader: the snarkjs fixture tests/data/zkey/mul.zkey (made by make.sh
 * there with snarkjs 0.7.6) is reproduced byte for byte in sections 1-9;
 * random keys round-trip through write and load; invalid keys and
 * unwritable paths are rejected with their codes, leaving no file behind.
 * Interop with snarkjs itself (prove, export verificationkey, verify on a
 * rewritten mul.zkey) is a separate check run by hand / CI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/zkey.h"
#include "fixture.h"
#include "tf.h"

/* ------------------------------------------------------------ helpers --- */

/* A fresh directory for one test's files (make_dir), removed empty at its
 * end (rm_dir). */
static char dir_path[64];

static void make_dir(void)
{
    snprintf(dir_path, sizeof dir_path, "/tmp/cz_zkey_write_XXXXXX");
    TF_CHECK(mkdtemp(dir_path) != NULL);
}

static void rm_dir(void) { TF_CHECK_MSG(rmdir(dir_path) == 0, "%s not empty", dir_path); }

static void path_in_dir(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir_path, name);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static bool same(const void *a, const void *b, size_t n) { return n == 0 || memcmp(a, b, n) == 0; }

/* Every field, the points compared limb for limb. */
static bool zkey_equal(const cz_zkey *x, const cz_zkey *y)
{
    uint64_t n_priv = (uint64_t)x->n_vars - x->n_public - 1;
    if (x->n_vars != y->n_vars || x->n_public != y->n_public || x->domain_size != y->domain_size ||
        x->log_domain_size != y->log_domain_size || x->n_coefs != y->n_coefs)
        return false;
    if (!same(&x->alpha1, &y->alpha1, sizeof x->alpha1) ||
        !same(&x->beta1, &y->beta1, sizeof x->beta1) ||
        !same(&x->delta1, &y->delta1, sizeof x->delta1) ||
        !same(&x->beta2, &y->beta2, sizeof x->beta2) ||
        !same(&x->gamma2, &y->gamma2, sizeof x->gamma2) ||
        !same(&x->delta2, &y->delta2, sizeof x->delta2))
        return false;
    for (uint32_t i = 0; i < x->n_coefs; i++) {
        const cz_zkey_coef *a = &x->coefs[i], *b = &y->coefs[i];
        if (a->matrix != b->matrix || a->constraint != b->constraint || a->signal != b->signal ||
            !same(&a->value, &b->value, sizeof a->value))
            return false;
    }
    return same(x->ic, y->ic, (x->n_public + 1) * sizeof *x->ic) &&
           same(x->a, y->a, x->n_vars * sizeof *x->a) &&
           same(x->b1, y->b1, x->n_vars * sizeof *x->b1) &&
           same(x->b2, y->b2, x->n_vars * sizeof *x->b2) &&
           same(x->c, y->c, n_priv * sizeof *x->c) &&
           same(x->h, y->h, x->domain_size * sizeof *x->h);
}

/* Writes z to path and loads it back into *back (subgroups checked). */
static int write_and_load(const cz_zkey *z, const char *path, cz_zkey *back)
{
    char err[256];
    int rc = cz_zkey_write(z, path, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "write: %s (%s)", cz_strerror(rc), err);
    if (rc != CZ_OK)
        return rc;
    rc = cz_zkey_load(back, path, CZ_ZKEY_DEFAULT, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "reload: %s (%s)", cz_strerror(rc), err);
    return rc;
}

/* Random points k*G, or infinity one time in four. */
static uint32_t below(uint32_t n) { return (uint32_t)(cz_prng_next(&tf_rng) % n); }

/* A random valid key: n_vars 1..6, domain 2^0..2^3, 0..11 coefficients
 * (values random, sometimes 0 or 1).  Free with cz_zkey_free. */
static void rand_zkey(cz_zkey *z)
{
    memset(z, 0, sizeof *z);
    z->n_vars = 1 + below(6);
    z->n_public = below(z->n_vars);
    z->log_domain_size = below(4);
    z->domain_size = 1u << z->log_domain_size;
    uint32_t n_priv = z->n_vars - z->n_public - 1;
    tf_rand_g1(&z->alpha1, 4);
    tf_rand_g1(&z->beta1, 4);
    tf_rand_g1(&z->delta1, 4);
    tf_rand_g2(&z->beta2, 4);
    tf_rand_g2(&z->gamma2, 4);
    tf_rand_g2(&z->delta2, 4);
    z->n_coefs = below(12);
    z->coefs = malloc(z->n_coefs * sizeof *z->coefs + 1);
    z->ic = malloc((z->n_public + 1) * sizeof *z->ic);
    z->a = malloc(z->n_vars * sizeof *z->a);
    z->b1 = malloc(z->n_vars * sizeof *z->b1);
    z->b2 = malloc(z->n_vars * sizeof *z->b2);
    z->c = malloc(n_priv * sizeof *z->c + 1);
    z->h = malloc(z->domain_size * sizeof *z->h);
    TF_CHECK(z->coefs && z->ic && z->a && z->b1 && z->b2 && z->c && z->h);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        cz_zkey_coef *e = &z->coefs[i];
        e->matrix = below(2);
        e->constraint = below(z->domain_size);
        e->signal = below(z->n_vars);
        uint32_t kind = below(4);
        if (kind == 0)
            e->value = CZ_FR_ONE;
        else if (kind == 1)
            e->value = CZ_FR_ZERO;
        else
            cz_fr_random(&e->value, &tf_rng);
    }
    for (uint32_t i = 0; i <= z->n_public; i++)
        tf_rand_g1(&z->ic[i], 4);
    for (uint32_t i = 0; i < z->n_vars; i++) {
        tf_rand_g1(&z->a[i], 4);
        tf_rand_g1(&z->b1[i], 4);
        tf_rand_g2(&z->b2[i], 4);
    }
    for (uint32_t i = 0; i < n_priv; i++)
        tf_rand_g1(&z->c[i], 4);
    for (uint32_t i = 0; i < z->domain_size; i++)
        tf_rand_g1(&z->h[i], 4);
}

/* Offset of the data of the section of the given type; 0 if absent. */
static size_t data_of(tf_blob b, uint32_t type)
{
    size_t e = tf_binfile_entry(b, type);
    return e ? e + 12 : 0;
}

/* --------------------------------------------------------------- tests --- */

/* The snarkjs fixture: load, write, reload gives the same struct; sections
 * 1-9 are byte-identical to snarkjs's.  Section 10 differs: the fixture has
 * snarkjs's circuit hash and one phase-2 contribution, the writer a zero
 * hash and no contribution (see zkey.h). */
static void body_fixture(void)
{
    char path[4096], err[256];
    cz_zkey z, back;
    tf_fixture_path(path, sizeof path, "zkey", "mul.zkey");
    int rc = cz_zkey_load(&z, path, CZ_ZKEY_DEFAULT, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "load: %s", err);
    if (rc != CZ_OK)
        return;
    tf_blob orig = tf_fixture("zkey", "mul.zkey");
    path_in_dir(path, sizeof path, "mul.zkey");
    if (write_and_load(&z, path, &back) == CZ_OK) {
        TF_CHECK(zkey_equal(&z, &back));
        cz_zkey_free(&back);
    }
    tf_blob out = tf_read_file(path);
    TF_CHECK(out.n >= 12 && memcmp(out.p, "zkey", 4) == 0 && tf_rd32le(out.p + 4) == 1 &&
             tf_rd32le(out.p + 8) == 10);
    /* Sections in type order 1..10, each table entry then its data. */
    size_t pos = 12;
    for (uint32_t t = 1; t <= 10 && pos + 12 <= out.n; t++) {
        TF_CHECK_MSG(tf_binfile_entry(out, t) == pos, "section %u at %zu", t, pos);
        pos += 12 + tf_rd32le(out.p + pos + 4);
    }
    TF_CHECK(pos == out.n);
    for (uint32_t t = 1; t <= 9; t++) {
        size_t eo = tf_binfile_entry(orig, t), ew = tf_binfile_entry(out, t);
        TF_CHECK_MSG(eo != 0 && ew != 0, "section %u missing", t);
        if (eo == 0 || ew == 0)
            continue;
        size_t n = tf_rd32le(orig.p + eo + 4);
        TF_CHECK_MSG(tf_rd32le(out.p + ew + 4) == n && tf_rd32le(out.p + ew + 8) == 0,
                     "section %u size", t);
        TF_CHECK_MSG(ew + 12 + n <= out.n && same(orig.p + eo + 12, out.p + ew + 12, n),
                     "section %u bytes differ", t);
    }
    /* Section 10: a zero 64-byte hash and no contributions. */
    size_t s10 = data_of(out, 10);
    static const uint8_t zero[68];
    TF_CHECK(s10 != 0 && tf_rd32le(out.p + s10 - 8) == 68 && s10 + 68 == out.n &&
             same(out.p + s10, zero, 68));
    /* Writing over an existing file replaces it. */
    z.alpha1 = z.beta1;
    if (write_and_load(&z, path, &back) == CZ_OK) {
        TF_CHECK(zkey_equal(&z, &back));
        cz_zkey_free(&back);
    }
    TF_CHECK(unlink(path) == 0);
    free(orig.p);
    free(out.p);
    cz_zkey_free(&z);
}

/* Random keys: write then load gives the same struct, and writing that
 * again gives the same bytes. */
static void body_random_round_trip(void)
{
    char p1[4096], p2[4096], err[256];
    path_in_dir(p1, sizeof p1, "r1.zkey");
    path_in_dir(p2, sizeof p2, "r2.zkey");
    for (unsigned it = 0; it < 8 * tf_scale; it++) {
        cz_zkey z, back;
        rand_zkey(&z);
        if (write_and_load(&z, p1, &back) == CZ_OK) {
            TF_CHECK_MSG(zkey_equal(&z, &back),
                         "iteration %u: n_vars %u n_public %u domain %u coefs %u", it, z.n_vars,
                         z.n_public, z.domain_size, z.n_coefs);
            TF_CHECK(cz_zkey_write(&back, p2, err, sizeof err) == CZ_OK);
            tf_blob b1 = tf_read_file(p1), b2 = tf_read_file(p2);
            TF_CHECK(b1.n == b2.n && same(b1.p, b2.p, b1.n));
            free(b1.p);
            free(b2.p);
            cz_zkey_free(&back);
        }
        cz_zkey_free(&z);
    }
    TF_CHECK(unlink(p1) == 0 && unlink(p2) == 0);
}

/* One way to break a valid key. */
typedef void (*breaker)(cz_zkey *z);

static void no_vars_for_public(cz_zkey *z) { z->n_public = z->n_vars; }
static void domain_not_pow2(cz_zkey *z) { z->domain_size = 3; }
static void log_mismatch(cz_zkey *z) { z->log_domain_size++; }
static void log_too_big(cz_zkey *z) { z->log_domain_size = 32, z->domain_size = 0; }
static void ic_null(cz_zkey *z) { z->ic = NULL; }
static void a_null(cz_zkey *z) { z->a = NULL; }
static void b1_null(cz_zkey *z) { z->b1 = NULL; }
static void b2_null(cz_zkey *z) { z->b2 = NULL; }
static void c_null(cz_zkey *z) { z->c = NULL; }
static void h_null(cz_zkey *z) { z->h = NULL; }
static void coefs_null(cz_zkey *z) { z->coefs = NULL; }
static void coef_matrix(cz_zkey *z) { z->coefs[z->n_coefs - 1].matrix = 2; }
static void coef_constraint(cz_zkey *z) { z->coefs[0].constraint = z->domain_size; }
static void coef_signal(cz_zkey *z) { z->coefs[0].signal = z->n_vars; }
/* Limbs equal to r itself (0 mod r, but not reduced). */
static void coef_unreduced(cz_zkey *z)
{
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    uint64_t l[4];
    cz_fr_to_canonical(l, &m1);
    l[0]++; /* r - 1 + 1, carry-free (r's low limb is odd, 1) */
    memcpy(z->coefs[0].value.l, l, sizeof l);
}
static void alpha_off_curve(cz_zkey *z) { cz_fp_add(&z->alpha1.y, &z->alpha1.y, &CZ_FP_ONE); }
static void gamma_off_curve(cz_zkey *z) { cz_fp_add(&z->gamma2.x.c1, &z->gamma2.x.c1, &CZ_FP_ONE); }
static void h_off_curve(cz_zkey *z)
{
    cz_fp *x = &z->h[z->domain_size - 1].x;
    cz_fp_add(x, x, &CZ_FP_ONE);
}
static void b2_unreduced(cz_zkey *z) { memset(z->b2[0].y.c0.l, 0xff, sizeof z->b2[0].y.c0.l); }
static void c_off_curve(cz_zkey *z) { cz_fp_add(&z->c[0].y, &z->c[0].y, &CZ_FP_ONE); }

/* Each breaker on a fresh copy of the fixture key gives INVALID_ARG with a
 * message, and neither path nor path.tmp appears. */
static void body_invalid(void)
{
    static const struct {
        const char *name;
        breaker fn;
    } cases[] = {
        {"n_public + 1 > n_vars", no_vars_for_public},
        {"domain 3", domain_not_pow2},
        {"log mismatch", log_mismatch},
        {"log 32", log_too_big},
        {"ic NULL", ic_null},
        {"a NULL", a_null},
        {"b1 NULL", b1_null},
        {"b2 NULL", b2_null},
        {"c NULL", c_null},
        {"h NULL", h_null},
        {"coefs NULL", coefs_null},
        {"coef matrix 2", coef_matrix},
        {"coef constraint", coef_constraint},
        {"coef signal", coef_signal},
        {"coef value = r", coef_unreduced},
        {"alpha1 off curve", alpha_off_curve},
        {"gamma2 off curve", gamma_off_curve},
        {"h off curve", h_off_curve},
        {"b2 coordinate >= p", b2_unreduced},
        {"c off curve", c_off_curve},
    };
    char fix[4096], path[4096], tmp[4100], err[256];
    cz_zkey z;
    tf_fixture_path(fix, sizeof fix, "zkey", "mul.zkey");
    path_in_dir(path, sizeof path, "bad.zkey");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cz_zkey_load(&z, fix, CZ_ZKEY_DEFAULT, err, sizeof err) != CZ_OK) {
            TF_CHECK_MSG(0, "load: %s", err);
            return;
        }
        cz_zkey saved = z; /* the arrays, for freeing */
        cases[i].fn(&z);
        err[0] = 0;
        int rc = cz_zkey_write(&z, path, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_ERR_INVALID_ARG && err[0] != 0, "%s: %s (%s)", cases[i].name,
                     cz_strerror(rc), err);
        TF_CHECK_MSG(!exists(path) && !exists(tmp), "%s: a file was left", cases[i].name);
        cz_zkey_free(&saved);
    }
    if (cz_zkey_load(&z, fix, CZ_ZKEY_DEFAULT, err, sizeof err) != CZ_OK)
        return;
    TF_CHECK(cz_zkey_write(NULL, path, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_zkey_write(&z, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(!exists(path) && !exists(tmp));
    cz_zkey_free(&z);
}

/* n points of the group: k G, (k + 1) G, ... for a random k (additions
 * from one random multiple: fast enough for sections of many chunks). */
static void g1_run(cz_g1_affine *out, size_t n)
{
    cz_g1 g, acc, *j = malloc(n * sizeof *j);
    cz_fr k;
    TF_CHECK(j != NULL);
    cz_fr_random(&k, &tf_rng);
    cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
    cz_g1_mul_var(&acc, &g, &k);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        cz_g1_add(&acc, &acc, &g);
    }
    cz_g1s_to_affine(out, j, n);
    free(j);
}

static void g2_run(cz_g2_affine *out, size_t n)
{
    cz_g2 g, acc, *j = malloc(n * sizeof *j);
    cz_fr k;
    TF_CHECK(j != NULL);
    cz_fr_random(&k, &tf_rng);
    cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
    cz_g2_mul_var(&acc, &g, &k);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        cz_g2_add(&acc, &acc, &g);
    }
    cz_g2s_to_affine(out, j, n);
    free(j);
}

/* A key whose sections span many of the loader's parallel chunks (4096
 * points): loaded on a pool it equals the key loaded on one thread, and a
 * bad point is reported as a pass in file order finds it (the lowest
 * index, its offset), when a later chunk holds another bad point too. */
static void body_parallel_decode(void)
{
    char path[4096], err1[256], err2[256];
    path_in_dir(path, sizeof path, "big.zkey");
    cz_zkey z;
    memset(&z, 0, sizeof z);
    z.n_vars = 20000;
    z.n_public = 2;
    z.log_domain_size = 15;
    z.domain_size = 1u << 15;
    uint32_t n_priv = z.n_vars - z.n_public - 1;
    g1_run(&z.alpha1, 1);
    g1_run(&z.beta1, 1);
    g1_run(&z.delta1, 1);
    g2_run(&z.beta2, 1);
    g2_run(&z.gamma2, 1);
    g2_run(&z.delta2, 1);
    z.ic = malloc((z.n_public + 1) * sizeof *z.ic);
    z.a = malloc(z.n_vars * sizeof *z.a);
    z.b1 = malloc(z.n_vars * sizeof *z.b1);
    z.b2 = malloc(z.n_vars * sizeof *z.b2);
    z.c = malloc(n_priv * sizeof *z.c);
    z.h = malloc(z.domain_size * sizeof *z.h);
    z.coefs = malloc(1);
    TF_CHECK(z.ic && z.a && z.b1 && z.b2 && z.c && z.h && z.coefs);
    g1_run(z.ic, z.n_public + 1);
    g1_run(z.a, z.n_vars);
    g1_run(z.b1, z.n_vars);
    g2_run(z.b2, z.n_vars);
    g1_run(z.c, n_priv);
    g1_run(z.h, z.domain_size);
    TF_CHECK(cz_zkey_write(&z, path, err1, sizeof err1) == CZ_OK);
    tf_blob b = tf_read_file(path);
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 4) == CZ_OK);
    cz_zkey x, y;
    TF_CHECK_MSG(cz_zkey_load_mem_ex(&x, b.p, b.n, CZ_ZKEY_DEFAULT, pool, err1, sizeof err1) ==
                     CZ_OK,
                 "%s", err1);
    TF_CHECK(cz_zkey_load_mem(&y, b.p, b.n, CZ_ZKEY_DEFAULT, err2, sizeof err2) == CZ_OK);
    TF_CHECK(zkey_equal(&x, &z) && zkey_equal(&y, &z));
    cz_zkey_free(&x);
    cz_zkey_free(&y);
    /* bad points: the low byte of a y coordinate changed (below p, off the
     * curve); each section's first bad index wins */
    static const struct {
        uint32_t type, size, at[2];
        const char *want;
    } bad[] = {
        {5, 96, {3, 15000}, "A point 3:"},
        {5, 96, {15000, 19999}, "A point 15000:"},
        {7, 192, {12345, 17000}, "B2 point 12345:"},
        {9, 96, {30000, 32767}, "H point 30000:"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        size_t off = data_of(b, bad[k].type);
        TF_CHECK(off != 0);
        tf_blob d = tf_blob_prefix(b, b.n);
        for (int i = 0; i < 2; i++)
            d.p[off + (size_t)bad[k].at[i] * bad[k].size + bad[k].size / 2] ^= 1;
        int r1 = cz_zkey_load_mem_ex(&x, d.p, d.n, CZ_ZKEY_DEFAULT, pool, err1, sizeof err1);
        int r2 = cz_zkey_load_mem(&y, d.p, d.n, CZ_ZKEY_DEFAULT, err2, sizeof err2);
        char at[40];
        snprintf(at, sizeof at, "offset %zu:", off + (size_t)bad[k].at[0] * bad[k].size);
        TF_CHECK_MSG(r1 == CZ_ERR_NOT_ON_CURVE && r2 == r1 && strcmp(err1, err2) == 0 &&
                         strstr(err1, bad[k].want) != NULL && strstr(err1, at) != NULL,
                     "%s: %s (%s) | %s; want %s", bad[k].want, cz_strerror(r1), err1, err2, at);
        free(d.p);
    }
    cz_pool_free(pool);
    free(b.p);
    cz_zkey_free(&z);
    TF_CHECK(unlink(path) == 0);
}

/* Unwritable paths: CZ_ERR_IO, no .tmp left, an existing target untouched. */
static void body_io_errors(void)
{
    char fix[4096], path[4096], tmp[4100], err[256];
    cz_zkey z;
    tf_fixture_path(fix, sizeof fix, "zkey", "mul.zkey");
    if (cz_zkey_load(&z, fix, CZ_ZKEY_DEFAULT, err, sizeof err) != CZ_OK) {
        TF_CHECK_MSG(0, "load: %s", err);
        return;
    }
    /* A directory that does not exist. */
    path_in_dir(path, sizeof path, "missing/x.zkey");
    err[0] = 0;
    TF_CHECK(cz_zkey_write(&z, path, err, sizeof err) == CZ_ERR_IO && err[0] != 0);
    /* The target is a directory: the rename fails after the data is
     * written; the .tmp goes and the directory stays. */
    path_in_dir(path, sizeof path, "adir");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    TF_CHECK(mkdir(path, 0700) == 0);
    err[0] = 0;
    TF_CHECK(cz_zkey_write(&z, path, err, sizeof err) == CZ_ERR_IO && err[0] != 0);
    TF_CHECK(!exists(tmp));
    TF_CHECK(rmdir(path) == 0);
    cz_zkey_free(&z);
}

/* Runs body with a fresh dir_path, which must be empty again after it. */
static void in_dir(void (*body)(void))
{
    make_dir();
    body();
    rm_dir();
}

static void test_fixture(void) { in_dir(body_fixture); }

static void test_random_round_trip(void) { in_dir(body_random_round_trip); }

static void test_invalid(void) { in_dir(body_invalid); }

static void test_io_errors(void) { in_dir(body_io_errors); }

static void test_parallel_decode(void) { in_dir(body_parallel_decode); }

TF_MAIN(TF_TEST(test_fixture), TF_TEST(test_random_round_trip), TF_TEST(test_invalid),
        TF_TEST(test_io_errors), TF_TEST(test_parallel_decode))
