/* The checked-keys store (cuzk/checked_keys.h) and the key readers that
 * consult it (cz_zkey_load_with, cz_params_read_opts.check):
 *   - the format: what parses, and every malformed line refused with its
 *     number; the file made with its header (mode 0600, folder 0700),
 *     reopened, duplicates kept once, stores sharing a file from several
 *     threads adding side by side;
 *   - .zkey and .params: a first load runs the checks and says so, a load
 *     after the digest was added skips them, a key with a point outside
 *     the subgroup is refused and not marked checked, and a changed file
 *     (another digest) is checked again; a bad key whose digest is in the
 *     store loads: the store is trusted, as documented. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/checked_keys.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/rand.h"
#include "cuzk/zkey.h"
#include "fixture.h"
#include "tf.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cz_checked_XXXXXX");
    TF_CHECK(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TF_CHECK(system(cmd) == 0);
}

static void random_digest(cz_key_digest *d)
{
    cz_prng_bytes(&tf_rng, d->b2, sizeof d->b2);
    d->len = cz_prng_next(&tf_rng);
}

static int parse(const char *text, char *err)
{
    cz_checked_keys *k = NULL;
    int rc = cz_checked_keys_parse(&k, (const uint8_t *)text, strlen(text), err, 256);
    cz_checked_keys_free(k);
    return rc;
}

static void test_format(void)
{
    char err[256], good[512], hex[129];
    cz_key_digest d;
    random_digest(&d);
    d.len = 123;
    for (int i = 0; i < 64; i++)
        snprintf(hex + 2 * i, 3, "%02x", d.b2[i]);
    TF_CHECK(parse("", err) == CZ_OK);
    TF_CHECK(parse("cuzk checked-keys 1\n", err) == CZ_OK);
    snprintf(good, sizeof good, "cuzk checked-keys 1\n%s 123\n%s 0\n%s 18446744073709551615\n",
             hex, hex, hex);
    cz_checked_keys *k;
    TF_CHECK(cz_checked_keys_parse(&k, (const uint8_t *)good, strlen(good), err, sizeof err) ==
             CZ_OK);
    TF_CHECK(cz_checked_keys_count(k) == 3 && cz_checked_keys_path(k) == NULL);
    TF_CHECK(cz_checked_keys_has(k, &d));
    d.len = 124;
    TF_CHECK(!cz_checked_keys_has(k, &d));
    d.len = 123;
    TF_CHECK(cz_checked_keys_add(k, &d, err, sizeof err) == CZ_OK && cz_checked_keys_count(k) == 3);
    cz_checked_keys_free(k);

    struct {
        const char *line; /* the second line, or the whole file with a NULL hex */
        int whole;
    } bad[] = {
        {"cuzk checked-keys 2\n", 1},
        {"cuzk checked keys 1\n", 1},
        {"cuzk checked-keys 1", 1},
        {"%s 12", 0},       /* no newline */
        {"%s  12\n", 0},    /* two spaces */
        {"%s 012\n", 0},    /* a leading zero */
        {"%s 18446744073709551616\n", 0},
        {"%s -1\n", 0},
        {"%s 1 \n", 0},
        {"%s\n", 0},
        {"%.127s 1\n", 0},  /* 127 digits */
        {"%sa 1\n", 0},     /* 129 */
        {"\n", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[600];
        if (bad[i].whole)
            snprintf(text, sizeof text, "%s", bad[i].line);
        else {
            int n = snprintf(text, sizeof text, "cuzk checked-keys 1\n%s 5\n", hex);
            snprintf(text + n, sizeof text - (size_t)n, bad[i].line, hex);
        }
        int rc = parse(text, err);
        TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT, "case %zu: %s", i, cz_strerror(rc));
        TF_CHECK_MSG(strstr(err, bad[i].whole ? "line 1" : "line 3") != NULL, "case %zu: %s", i,
                     err);
    }
    char upper[200];
    snprintf(upper, sizeof upper, "cuzk checked-keys 1\n%s 5\n", hex);
    for (char *p = upper + 20; *p != ' '; p++)
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 'a' + 'A');
    TF_CHECK(parse(upper, err) == CZ_ERR_BAD_FORMAT);
}

static void test_file(void)
{
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/a/b/checked-keys", dir);
    cz_checked_keys *k;
    TF_CHECK(cz_checked_keys_open(&k, path, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_checked_keys_count(k) == 0 && !strcmp(cz_checked_keys_path(k), path));
    cz_key_digest d[5];
    for (int i = 0; i < 5; i++) {
        random_digest(&d[i]);
        TF_CHECK_MSG(cz_checked_keys_add(k, &d[i], err, sizeof err) == CZ_OK, "%s", err);
    }
    TF_CHECK(cz_checked_keys_add(k, &d[2], err, sizeof err) == CZ_OK); /* again: once */
    cz_checked_keys_free(k);
    struct stat st;
    TF_CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    FILE *lf = fopen(path, "rb");
    int lines = 0, c;
    while (lf && (c = fgetc(lf)) != EOF)
        lines += c == '\n';
    TF_CHECK(lf != NULL && fclose(lf) == 0 && lines == 6); /* the header and five keys */
    char sub[256];
    snprintf(sub, sizeof sub, "%s/a", dir);
    TF_CHECK(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0700);
    TF_CHECK(cz_checked_keys_open(&k, path, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_checked_keys_count(k) == 5);
    for (int i = 0; i < 5; i++)
        TF_CHECK(cz_checked_keys_has(k, &d[i]));
    cz_key_digest other;
    random_digest(&other);
    TF_CHECK(!cz_checked_keys_has(k, &other));
    cz_checked_keys_free(k);
    /* a file that is not a store: refused, named */
    FILE *f = fopen(path, "ab");
    TF_CHECK(f != NULL && fputs("garbage\n", f) >= 0 && fclose(f) == 0);
    TF_CHECK(cz_checked_keys_open(&k, path, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, path) && strstr(err, "line 7"), "%s", err);
    /* a folder in the way */
    snprintf(path, sizeof path, "%s/a", dir);
    TF_CHECK(cz_checked_keys_open(&k, path, err, sizeof err) == CZ_ERR_IO);
    /* the default path */
    setenv("CUZK_CHECKED_KEYS", "/x/y", 1);
    TF_CHECK(cz_checked_keys_default_path(path, sizeof path) && !strcmp(path, "/x/y"));
    unsetenv("CUZK_CHECKED_KEYS");
    setenv("XDG_CACHE_HOME", "/c", 1);
    TF_CHECK(cz_checked_keys_default_path(path, sizeof path) &&
             !strcmp(path, "/c/cuzk/checked-keys"));
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/h", 1);
    TF_CHECK(cz_checked_keys_default_path(path, sizeof path) &&
             !strcmp(path, "/h/.cache/cuzk/checked-keys"));
    TF_CHECK(!cz_checked_keys_default_path(path, 8));
}

/* Stores of one file in several threads (as processes would share it). */
typedef struct {
    const char *path;
    cz_key_digest d[40];
    int rc;
} adder;

static void *add_all(void *arg)
{
    adder *a = arg;
    cz_checked_keys *k;
    char err[256];
    a->rc = cz_checked_keys_open(&k, a->path, err, sizeof err);
    for (int i = 0; i < 40 && a->rc == CZ_OK; i++)
        a->rc = cz_checked_keys_add(k, &a->d[i], err, sizeof err);
    cz_checked_keys_free(k);
    return NULL;
}

static void test_shared(void)
{
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/shared/keys", dir);
    static adder a[4];
    pthread_t th[4];
    for (int t = 0; t < 4; t++) {
        a[t].path = path;
        for (int i = 0; i < 40; i++)
            random_digest(&a[t].d[i]);
    }
    for (int t = 0; t < 4; t++)
        TF_CHECK(pthread_create(&th[t], NULL, add_all, &a[t]) == 0);
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        TF_CHECK(a[t].rc == CZ_OK);
    }
    cz_checked_keys *k;
    TF_CHECK_MSG(cz_checked_keys_open(&k, path, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK(cz_checked_keys_count(k) == 160);
    for (int t = 0; t < 4; t++)
        for (int i = 0; i < 40; i++)
            TF_CHECK(cz_checked_keys_has(k, &a[t].d[i]));
    cz_checked_keys_free(k);
}

static bool write_blob(const char *path, tf_blob b)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(b.p, 1, b.n, f) == b.n;
    return (f && fclose(f) == 0) && ok;
}

/* (0, 2): on y^2 = x^3 + 4, of order 3 (snarkjs's Montgomery LE encoding). */
static void order3_zkey(uint8_t *at)
{
    cz_fp two;
    cz_fp_from_u64(&two, 2);
    memset(at, 0, 96);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            at[48 + 8 * i + j] = (uint8_t)(two.l[i] >> 8 * j);
}

/* A .zkey load with store k: its return code, kc filled. */
static int zload(const char *path, cz_checked_keys *k, cz_key_check *kc, char *err)
{
    cz_zkey z;
    *kc = (cz_key_check){.store = k};
    int rc = cz_zkey_load_with(&z, path, 0, NULL, kc, err, 256);
    cz_zkey_free(&z);
    return rc;
}

static void test_zkey(void)
{
    char store[256], key[256], err[256];
    snprintf(store, sizeof store, "%s/zkey-store", dir);
    snprintf(key, sizeof key, "%s/mul.zkey", dir);
    tf_blob b = tf_fixture("zkey", "mul.zkey");
    TF_CHECK(write_blob(key, b));
    cz_checked_keys *k;
    TF_CHECK(cz_checked_keys_open(&k, store, err, sizeof err) == CZ_OK);
    cz_key_check kc;
    TF_CHECK(zload(key, k, &kc, err) == CZ_OK && kc.checked && !kc.known);
    TF_CHECK(kc.digest.len == b.n);
    uint8_t want[64];
    cz_blake2b(want, 64, NULL, 0, b.p, b.n);
    TF_CHECK_MEM(kc.digest.b2, want, 64);
    TF_CHECK(cz_checked_keys_add(k, &kc.digest, err, sizeof err) == CZ_OK);
    TF_CHECK(zload(key, k, &kc, err) == CZ_OK && kc.known && !kc.checked);
    /* a point of order 3 in H: refused, not checked */
    size_t h = tf_binfile_entry(b, 9) + 12;
    order3_zkey(b.p + h + 96);
    TF_CHECK(write_blob(key, b));
    TF_CHECK(zload(key, k, &kc, err) == CZ_ERR_NOT_IN_SUBGROUP && !kc.checked && !kc.known);
    TF_CHECK_MSG(strstr(err, "H point 1") != NULL, "%s", err);
    /* the store is trusted: the bad key's digest in it, it loads */
    TF_CHECK(cz_checked_keys_add(k, &kc.digest, err, sizeof err) == CZ_OK);
    TF_CHECK(zload(key, k, &kc, err) == CZ_OK && kc.known);
    /* without a store it is checked every time */
    TF_CHECK(zload(key, NULL, &kc, err) == CZ_ERR_NOT_IN_SUBGROUP);
    cz_checked_keys_free(k);
    free(b.p);
}

static void test_params(void)
{
    char store[256], key[256], err[256];
    snprintf(store, sizeof store, "%s/params-store", dir);
    snprintf(key, sizeof key, "%s/k.params", dir);
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_fr x, y;
    cz_fr_random(&x, &tf_rng);
    cz_fr_mul(&y, &x, &x);
    cz_var vy = cz_cs_alloc_input(cs, &y), vx = cz_cs_alloc_aux(cs, &x);
    cz_lc lx, ly;
    cz_lc_init(&lx);
    cz_lc_init(&ly);
    cz_lc_add(&lx, vx);
    cz_lc_add(&ly, vy);
    for (int i = 0; i < 40; i++)
        cz_cs_enforce(cs, &lx, &lx, &ly);
    cz_lc_free(&lx);
    cz_lc_free(&ly);
    cz_r1cs *r;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    cz_cs_free(cs);
    uint8_t seed[32] = {1};
    cz_groth16_params p;
    TF_CHECK(cz_groth16_setup(&p, r, seed, CZ_GROTH16_BELLPERSON, NULL) == CZ_OK);
    TF_CHECK(cz_groth16_params_write_file(key, &p) == CZ_OK);
    cz_checked_keys *k;
    TF_CHECK(cz_checked_keys_open(&k, store, err, sizeof err) == CZ_OK);
    cz_key_check kc = {.store = k};
    cz_params_read_opts o = {.check = &kc};
    cz_groth16_params q;
    TF_CHECK(cz_groth16_params_read_file_ex(&q, key, &o, err, sizeof err) == CZ_OK);
    TF_CHECK(kc.checked && !kc.known && q.n_h == p.n_h);
    cz_groth16_params_free(&q);
    TF_CHECK(cz_checked_keys_add(k, &kc.digest, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_groth16_params_read_file_ex(&q, key, &o, err, sizeof err) == CZ_OK);
    TF_CHECK(kc.known && !kc.checked);
    cz_groth16_params_free(&q);
    /* h[1] of order 3: another file, checked, refused and named */
    cz_fp two;
    cz_fp_from_u64(&two, 2);
    p.h[1].x = (cz_fp){{0}};
    p.h[1].y = two;
    TF_CHECK(cz_groth16_params_write_file(key, &p) == CZ_OK);
    TF_CHECK(cz_groth16_params_read_file_ex(&q, key, &o, err, sizeof err) ==
             CZ_ERR_NOT_IN_SUBGROUP);
    TF_CHECK(!kc.known && !kc.checked);
    TF_CHECK_MSG(strstr(err, "section h, point 1") != NULL, "%s", err);
    o.flags = CZ_DECODE_SKIP_SUBGROUP;
    TF_CHECK(cz_groth16_params_read_file_ex(&q, key, &o, err, sizeof err) == CZ_OK);
    TF_CHECK(!kc.checked && !kc.known);
    cz_groth16_params_free(&q);
    cz_checked_keys_free(k);
    cz_groth16_params_free(&p);
    cz_r1cs_free(r);
}

TF_MAIN(TF_TEST(setup), TF_TEST(test_format), TF_TEST(test_file), TF_TEST(test_shared),
        TF_TEST(test_zkey), TF_TEST(test_params), TF_TEST(teardown))
