#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tf.h"

void tf_fixture_path(char *out, size_t n, const char *dir, const char *name)
{
    const char *env = getenv("CZ_TEST_DATA");
    if (env != NULL) {
        snprintf(out, n, "%s/%s/%s", env, dir, name);
        return;
    }
    const char *file = __FILE__, *slash = strrchr(file, '/');
    int len = slash != NULL ? (int)(slash - file) : 1;
    snprintf(out, n, "%.*s/data/%s/%s", len, slash != NULL ? file : ".", dir, name);
}

tf_blob tf_fixture(const char *dir, const char *name)
{
    char path[4096];
    tf_fixture_path(path, sizeof path, dir, name);
    return tf_read_file(path);
}

tf_blob tf_read_file(const char *path)
{
    tf_blob b = {NULL, 0};
    FILE *f = fopen(path, "rb");
    TF_CHECK_MSG(f != NULL, "cannot open %s", path);
    if (f == NULL)
        return b;
    fseek(f, 0, SEEK_END);
    b.n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(b.n + 1);
    TF_CHECK(b.p != NULL && fread(b.p, 1, b.n, f) == b.n);
    if (b.p)
        b.p[b.n] = 0;
    fclose(f);
    return b;
}

int tf_write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(p, 1, n, f) != n;
    if (f && fclose(f))
        bad = 1;
    if (bad)
        fprintf(stderr, "cannot write %s\n", path);
    return bad;
}

tf_blob tf_blob_prefix(tf_blob b, size_t n)
{
    tf_blob d = {calloc(n ? n : 1, 1), n};
    memcpy(d.p, b.p, n < b.n ? n : b.n);
    return d;
}

uint32_t tf_rd32le(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t tf_rd64le(const uint8_t *p) { return tf_rd32le(p) | (uint64_t)tf_rd32le(p + 4) << 32; }

void tf_wr32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

void tf_wr64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

size_t tf_binfile_entry(tf_blob b, uint32_t type)
{
    size_t pos = 12;
    for (uint32_t i = 0; i < tf_rd32le(b.p + 8); i++) {
        if (tf_rd32le(b.p + pos) == type)
            return pos;
        pos += 12 + tf_rd32le(b.p + pos + 4); /* fixtures are small */
    }
    return 0;
}

static void rand_scalar(cz_fr *k, unsigned zero_one_in)
{
    cz_fr_random(k, &tf_rng);
    if (zero_one_in && cz_prng_next(&tf_rng) % zero_one_in == 0)
        *k = CZ_FR_ZERO;
}

#define RAND_POINT(g, G)                                                                           \
    void tf_rand_##g(cz_##g##_affine *r, unsigned zero_one_in)                                     \
    {                                                                                              \
        cz_fr k;                                                                                   \
        cz_##g p, t;                                                                               \
        rand_scalar(&k, zero_one_in);                                                              \
        cz_##g##_from_affine(&p, &CZ_##G##_GENERATOR);                                             \
        cz_##g##_mul_var(&t, &p, &k);                                                              \
        cz_##g##_to_affine(r, &t);                                                                 \
    }
RAND_POINT(g1, G1)
RAND_POINT(g2, G2)
