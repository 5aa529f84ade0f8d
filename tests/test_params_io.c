/* bellperson .params / .vk files and 192-byte proofs (include/cuzk/groth16.h).
 * Files are built from random points k*G; malformed variants are made by
 * editing the encoded bytes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"
#include "fixture.h"
#include "tf.h"

#define G1U   CZ_G1_UNCOMPRESSED_BYTES
#define G2U   CZ_G2_UNCOMPRESSED_BYTES
#define VKFIX (3 * G1U + 3 * G2U)

/* On-curve G1 point outside the subgroup: random x, y = sqrt(x^3 + 4), no
 * cofactor clearing. */
static void off_subgroup_g1(cz_g1_affine *r)
{
    cz_fp b, rhs;
    cz_fp_from_u64(&b, 4);
    do {
        cz_fp_random(&r->x, &tf_rng);
        cz_fp_sqr(&rhs, &r->x);
        cz_fp_mul(&rhs, &rhs, &r->x);
        cz_fp_add(&rhs, &rhs, &b);
    } while (!cz_fp_sqrt(&r->y, &rhs) || cz_g1_affine_in_subgroup(r));
}

/* Same on E'(Fp2): y^2 = x^3 + 4(1 + u). */
static void off_subgroup_g2(cz_g2_affine *r)
{
    cz_fp2 b, rhs;
    cz_fp_from_u64(&b.c0, 4);
    cz_fp_from_u64(&b.c1, 4);
    do {
        cz_fp2_random(&r->x, &tf_rng);
        cz_fp2_sqr(&rhs, &r->x);
        cz_fp2_mul(&rhs, &rhs, &r->x);
        cz_fp2_add(&rhs, &rhs, &b);
    } while (!cz_fp2_sqrt(&r->y, &rhs) || cz_g2_affine_in_subgroup(r));
}

/* Caller-owned params with the given counts; free with free_rand. */
static void make_params(cz_groth16_params *p, size_t n_ic, size_t nh, size_t nl, size_t na,
                        size_t nb1, size_t nb2)
{
    memset(p, 0, sizeof *p);
    tf_rand_g1(&p->vk.alpha_g1, 0);
    tf_rand_g1(&p->vk.beta_g1, 0);
    tf_rand_g2(&p->vk.beta_g2, 0);
    tf_rand_g2(&p->vk.gamma_g2, 0);
    tf_rand_g1(&p->vk.delta_g1, 0);
    tf_rand_g2(&p->vk.delta_g2, 0);
    p->vk.n_ic = n_ic, p->n_h = nh, p->n_l = nl, p->n_a = na, p->n_b_g1 = nb1, p->n_b_g2 = nb2;
    p->vk.ic = calloc(n_ic + 1, sizeof(cz_g1_affine));
    p->h = calloc(nh + 1, sizeof(cz_g1_affine));
    p->l = calloc(nl + 1, sizeof(cz_g1_affine));
    p->a = calloc(na + 1, sizeof(cz_g1_affine));
    p->b_g1 = calloc(nb1 + 1, sizeof(cz_g1_affine));
    p->b_g2 = calloc(nb2 + 1, sizeof(cz_g2_affine));
    for (size_t i = 0; i < n_ic; i++)
        tf_rand_g1(&p->vk.ic[i], 0);
    for (size_t i = 0; i < nh; i++)
        tf_rand_g1(&p->h[i], 0);
    for (size_t i = 0; i < nl; i++)
        tf_rand_g1(&p->l[i], 0);
    for (size_t i = 0; i < na; i++)
        tf_rand_g1(&p->a[i], 0);
    for (size_t i = 0; i < nb1; i++)
        tf_rand_g1(&p->b_g1[i], 0);
    for (size_t i = 0; i < nb2; i++)
        tf_rand_g2(&p->b_g2[i], 0);
}

static void free_rand(cz_groth16_params *p)
{
    free(p->vk.ic);
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
}

/* Encodes p into a malloc'd buffer. */
static uint8_t *encode(const cz_groth16_params *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    TF_CHECK(f != NULL);
    TF_CHECK(cz_groth16_params_write(f, p) == CZ_OK);
    fclose(f);
    return (uint8_t *)buf;
}

static bool g1s_equal(const cz_g1_affine *a, const cz_g1_affine *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_g1_affine_equal(&a[i], &b[i]))
            return false;
    return true;
}

static bool vk_equal(const cz_groth16_vk *a, const cz_groth16_vk *b)
{
    return cz_g1_affine_equal(&a->alpha_g1, &b->alpha_g1) &&
           cz_g1_affine_equal(&a->beta_g1, &b->beta_g1) &&
           cz_g2_affine_equal(&a->beta_g2, &b->beta_g2) &&
           cz_g2_affine_equal(&a->gamma_g2, &b->gamma_g2) &&
           cz_g1_affine_equal(&a->delta_g1, &b->delta_g1) &&
           cz_g2_affine_equal(&a->delta_g2, &b->delta_g2) && a->n_ic == b->n_ic &&
           g1s_equal(a->ic, b->ic, a->n_ic);
}

static bool params_equal(const cz_groth16_params *a, const cz_groth16_params *b)
{
    if (!vk_equal(&a->vk, &b->vk) || a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a ||
        a->n_b_g1 != b->n_b_g1 || a->n_b_g2 != b->n_b_g2)
        return false;
    for (size_t i = 0; i < a->n_b_g2; i++)
        if (!cz_g2_affine_equal(&a->b_g2[i], &b->b_g2[i]))
            return false;
    return g1s_equal(a->h, b->h, a->n_h) && g1s_equal(a->l, b->l, a->n_l) &&
           g1s_equal(a->a, b->a, a->n_a) && g1s_equal(a->b_g1, b->b_g1, a->n_b_g1);
}

static bool is_zeroed(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0)
            return false;
    return true;
}

/* Offset of point i of section s (0 ic, 1 h, 2 l, 3 a, 4 b_g1, 5 b_g2). */
static size_t point_off(const cz_groth16_params *p, int s, size_t i)
{
    const size_t n[6] = {p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    size_t off = VKFIX;
    for (int k = 0; k < s; k++)
        off += 4 + n[k] * G1U;
    return off + 4 + i * (s == 5 ? G2U : G1U);
}

static void put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24), b[1] = (uint8_t)(v >> 16), b[2] = (uint8_t)(v >> 8),
    b[3] = (uint8_t)v;
}

static void test_roundtrip(void)
{
    for (unsigned it = 0; it < 3 * tf_scale; it++) {
        cz_groth16_params p, q;
        size_t c[6];
        for (int k = 0; k < 6; k++)
            c[k] = (size_t)(cz_prng_next(&tf_rng) % 5);
        make_params(&p, c[0] + 1, c[1], c[2], c[3], c[4], c[5]);
        size_t len;
        uint8_t *img = encode(&p, &len);
        size_t want = VKFIX + 6 * 4 + (c[0] + 1 + c[1] + c[2] + c[3] + c[4]) * G1U + c[5] * G2U;
        TF_CHECK(len == want);

        size_t dec = 0;
        char err[160] = "";
        TF_CHECK(cz_groth16_params_decoded_size(&dec, img, len, 0, err, sizeof err) == CZ_OK);
        TF_CHECK(dec == (c[0] + 1 + c[1] + c[2] + c[3] + c[4]) * sizeof(cz_g1_affine) +
                            c[5] * sizeof(cz_g2_affine));

        TF_CHECK(cz_groth16_params_read_mem(&q, img, len, 0, NULL, err, sizeof err) == CZ_OK);
        TF_CHECK_MSG(params_equal(&p, &q), "decoded params differ (%s)", err);
        TF_CHECK(q.mem_bytes == dec);
        size_t len2;
        uint8_t *img2 = encode(&q, &len2);
        TF_CHECK(len2 == len);
        TF_CHECK_MEM(img2, img, len);
        free(img2);
        cz_groth16_params_free(&q);
        TF_CHECK(is_zeroed(&q, sizeof q));

        /* Through files: params writer/reader (mmap) and the vk files. */
        char path[] = "/tmp/cz_params_XXXXXX";
        int fd = mkstemp(path);
        TF_CHECK(fd >= 0);
        close(fd);
        TF_CHECK(cz_groth16_params_write_file(path, &p) == CZ_OK);
        TF_CHECK(cz_groth16_params_read_file(&q, path, 0, NULL, err, sizeof err) == CZ_OK);
        TF_CHECK(params_equal(&p, &q));
        cz_groth16_params_free(&q);
        /* _ex: the block from a tracked allocator, the file's BLAKE2b-512
         * computed section by section while decoding */
        {
            cz_budget *b;
            cz_resv *r;
            TF_CHECK(cz_budget_new(&b, 1u << 30) == CZ_OK);
            cz_wait_key key = {0, 0, 0};
            TF_CHECK(cz_budget_reserve(b, 1u << 28, &key, 0, NULL, &r, NULL, 0) == CZ_OK);
            cz_buf_tag tag = {0, 0, "params"};
            cz_resv_allocator ra;
            cz_resv_allocator_init(&ra, r, &tag);
            uint8_t b2[64], want2[64];
            cz_params_read_opts o = {.alloc = &ra.a, .blake2b = b2};
            TF_CHECK(cz_groth16_params_read_file_ex(&q, path, &o, err, sizeof err) == CZ_OK);
            TF_CHECK(params_equal(&p, &q));
            cz_blake2b(want2, 64, NULL, 0, img, len);
            TF_CHECK_MEM(b2, want2, 64);
            cz_mem_snapshot ms;
            cz_budget_snapshot(b, &ms);
            TF_CHECK(ms.cls[CZ_BUF_PARAMS].live_count == 1 &&
                     ms.cls[CZ_BUF_PARAMS].live_bytes >= q.mem_bytes);
            cz_groth16_params_free(&q);
            cz_budget_snapshot(b, &ms);
            TF_CHECK(ms.cls[CZ_BUF_PARAMS].live_count == 0);
            /* a truncated file: an error, and still the digest of what is there */
            TF_CHECK(truncate(path, (off_t)(len - 1)) == 0);
            TF_CHECK(cz_groth16_params_read_file_ex(&q, path, &o, err, sizeof err) != CZ_OK);
            cz_blake2b(want2, 64, NULL, 0, img, len - 1);
            TF_CHECK_MEM(b2, want2, 64);
            TF_CHECK(cz_groth16_params_write_file(path, &p) == CZ_OK);
            cz_resv_release(r);
            TF_CHECK(cz_budget_free(b) == CZ_OK);
        }
        cz_groth16_vk vk;
        TF_CHECK(cz_groth16_vk_write_file(path, &p.vk) == CZ_OK);
        TF_CHECK(cz_groth16_vk_read_file(&vk, path, err, sizeof err) == CZ_OK);
        TF_CHECK(vk_equal(&vk, &p.vk));
        cz_groth16_vk_free(&vk);
        unlink(path);
        TF_CHECK(cz_groth16_params_read_file(&q, path, 0, NULL, err, sizeof err) == CZ_ERR_IO);
        free(img);
        free_rand(&p);
    }
}

static void test_vk(void)
{
    cz_groth16_params p, q;
    make_params(&p, 3, 2, 2, 1, 1, 1);
    size_t len;
    uint8_t *img = encode(&p, &len);
    size_t vklen = cz_groth16_vk_encoded_size(3);
    char err[160];

    /* The .vk file is the prefix of the .params file. */
    char *vb = NULL;
    size_t vn = 0;
    FILE *f = open_memstream(&vb, &vn);
    TF_CHECK(cz_groth16_vk_write(f, &p.vk) == CZ_OK);
    fclose(f);
    TF_CHECK(vn == vklen);
    TF_CHECK_MEM(vb, img, vklen);
    cz_groth16_vk vk;
    TF_CHECK(cz_groth16_vk_read_mem(&vk, (uint8_t *)vb, vn, err, sizeof err) == CZ_OK);
    TF_CHECK(vk_equal(&vk, &p.vk));
    cz_groth16_vk_free(&vk);
    /* A .params image is not a .vk (trailing bytes). */
    TF_CHECK(cz_groth16_vk_read_mem(&vk, img, len, err, sizeof err) == CZ_ERR_BAD_FORMAT);
    TF_CHECK(is_zeroed(&vk, sizeof vk));
    for (size_t n = 0; n < vn; n++)
        TF_CHECK(cz_groth16_vk_read_mem(&vk, (uint8_t *)vb, n, err, sizeof err) ==
                 CZ_ERR_TRUNCATED);
    free(vb);

    /* VK-only mode: stops after the vk, even when what follows is garbage. */
    memset(img + vklen, 0xA5, len - vklen);
    TF_CHECK(cz_groth16_params_read_mem(&q, img, len, CZ_PARAMS_VK_ONLY, NULL, err, sizeof err) ==
             CZ_OK);
    TF_CHECK(vk_equal(&q.vk, &p.vk));
    TF_CHECK(q.n_h == 0 && q.h == NULL && q.b_g2 == NULL && q.n_b_g2 == 0);
    size_t dec;
    TF_CHECK(cz_groth16_params_decoded_size(&dec, img, len, CZ_PARAMS_VK_ONLY, err, sizeof err) ==
             CZ_OK);
    TF_CHECK(dec == 3 * sizeof(cz_g1_affine) && q.mem_bytes == dec);
    cz_groth16_params_free(&q);
    TF_CHECK(cz_groth16_params_read_mem(&q, img, len, 0, NULL, err, sizeof err) != CZ_OK);
    TF_CHECK(cz_groth16_params_read_mem(&q, img, vklen, CZ_PARAMS_VK_ONLY, NULL, err, sizeof err) ==
             CZ_OK);
    cz_groth16_params_free(&q);

    /* bellperson reads the six fixed vk points without an identity check. */
    memset(img, 0, G1U);
    img[0] = 0x40;
    TF_CHECK(cz_groth16_params_read_mem(&q, img, vklen, CZ_PARAMS_VK_ONLY, NULL, err, sizeof err) ==
             CZ_OK);
    TF_CHECK(cz_g1_affine_is_inf(&q.vk.alpha_g1));
    cz_groth16_params_free(&q);
    free(img);
    free_rand(&p);
}

static void test_proof(void)
{
    for (unsigned it = 0; it < 8 * tf_scale; it++) {
        cz_groth16_proof p, q;
        tf_rand_g1(&p.a, 0);
        tf_rand_g2(&p.b, 0);
        tf_rand_g1(&p.c, 0);
        uint8_t b[CZ_GROTH16_PROOF_BYTES], b2[CZ_GROTH16_PROOF_BYTES];
        cz_groth16_proof_to_bytes(b, &p);
        TF_CHECK(cz_groth16_proof_from_bytes(&q, b, sizeof b) == CZ_OK);
        TF_CHECK(cz_g1_affine_equal(&p.a, &q.a) && cz_g2_affine_equal(&p.b, &q.b) &&
                 cz_g1_affine_equal(&p.c, &q.c));
        cz_groth16_proof_to_bytes(b2, &q);
        TF_CHECK_MEM(b, b2, sizeof b);
        TF_CHECK(cz_groth16_proof_from_bytes(&q, b, 191) == CZ_ERR_BAD_LENGTH);
        /* Infinity in each slot is rejected. */
        static const size_t off[3] = {0, 48, 144}, n[3] = {48, 96, 48};
        for (int k = 0; k < 3; k++) {
            memcpy(b2, b, sizeof b);
            memset(b2 + off[k], 0, n[k]);
            b2[off[k]] = 0xC0;
            TF_CHECK(cz_groth16_proof_from_bytes(&q, b2, sizeof b2) == CZ_ERR_IS_INFINITY);
        }
        /* An off-subgroup B is rejected. */
        cz_g2_affine bad;
        off_subgroup_g2(&bad);
        memcpy(b2, b, sizeof b);
        cz_g2_to_compressed(b2 + 48, &bad);
        TF_CHECK(cz_groth16_proof_from_bytes(&q, b2, sizeof b2) == CZ_ERR_NOT_IN_SUBGROUP);
        /* Any single flipped bit: rejected or a different proof, no crash. */
        memcpy(b2, b, sizeof b);
        size_t bit = (size_t)(cz_prng_next(&tf_rng) % (8 * sizeof b));
        b2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        if (cz_groth16_proof_from_bytes(&q, b2, sizeof b2) == CZ_OK) {
            uint8_t b3[CZ_GROTH16_PROOF_BYTES];
            cz_groth16_proof_to_bytes(b3, &q);
            TF_CHECK(memcmp(b3, b, sizeof b) != 0);
        }
    }
}

static void test_truncation(void)
{
    cz_groth16_params p, q;
    make_params(&p, 2, 2, 1, 1, 1, 1);
    size_t len;
    uint8_t *img = encode(&p, &len);
    char err[160];
    for (size_t n = 0; n < len; n++) {
        /* A private copy so ASan sees any read past n. */
        uint8_t *cut = malloc(n + 1);
        memcpy(cut, img, n);
        int rc = cz_groth16_params_read_mem(&q, cut, n, 0, NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_ERR_TRUNCATED, "length %zu: rc %d", n, rc);
        TF_CHECK(err[0] != 0);
        TF_CHECK(is_zeroed(&q, sizeof q));
        free(cut);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, img, len);
    longer[len] = 0;
    TF_CHECK(cz_groth16_params_read_mem(&q, longer, len + 1, 0, NULL, err, sizeof err) ==
             CZ_ERR_BAD_FORMAT);
    TF_CHECK(strstr(err, "trailing") != NULL);
    free(longer);
    free(img);
    free_rand(&p);
}

static void test_bad_points(void)
{
    cz_groth16_params p, q;
    make_params(&p, 2, 3, 3, 3, 3, 3);
    size_t len;
    uint8_t *img = encode(&p, &len);
    uint8_t *bad = malloc(len);
    char err[160];
    cz_g1_affine o1;
    cz_g2_affine o2;
    off_subgroup_g1(&o1);
    off_subgroup_g2(&o2);
    static const char *const name[6] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
    for (int s = 0; s < 6; s++) {
        size_t i = 1 + (size_t)s % 2, off = point_off(&p, s, i);
        char want[64];
        snprintf(want, sizeof want, "params: section %s, point %zu: ", name[s], i);

        /* Off-subgroup point: rejected; accepted with the skip flag except
         * in IC, which bellperson always checks. */
        memcpy(bad, img, len);
        if (s == 5)
            cz_g2_to_uncompressed(bad + off, &o2);
        else
            cz_g1_to_uncompressed(bad + off, &o1);
        TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, 0, NULL, err, sizeof err) ==
                 CZ_ERR_NOT_IN_SUBGROUP);
        TF_CHECK_MSG(strncmp(err, want, strlen(want)) == 0, "message '%s'", err);
        TF_CHECK(is_zeroed(&q, sizeof q));
        int rc = cz_groth16_params_read_mem(&q, bad, len, CZ_DECODE_SKIP_SUBGROUP, NULL, err,
                                            sizeof err);
        TF_CHECK(rc == (s == 0 ? CZ_ERR_NOT_IN_SUBGROUP : CZ_OK));
        if (rc == CZ_OK)
            TF_CHECK(s == 5 ? cz_g2_affine_equal(&q.b_g2[i], &o2)
                            : cz_g1_affine_equal(s == 1   ? &q.h[i]
                                                 : s == 2 ? &q.l[i]
                                                 : s == 3 ? &q.a[i]
                                                          : &q.b_g1[i],
                                                 &o1));
        cz_groth16_params_free(&q);

        /* Infinity: rejected in IC and every query, with or without checks. */
        memcpy(bad, img, len);
        memset(bad + off, 0, s == 5 ? G2U : G1U);
        bad[off] = 0x40;
        for (unsigned fl = 0; fl < 2; fl++) {
            TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, fl, NULL, err, sizeof err) ==
                     CZ_ERR_IS_INFINITY);
            TF_CHECK_MSG(strncmp(err, want, strlen(want)) == 0, "message '%s'", err);
        }

        /* Off the curve: rejected even with the skip flag. */
        memcpy(bad, img, len);
        bad[off + (s == 5 ? G2U : G1U) - 1] ^= 1;
        TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, CZ_DECODE_SKIP_SUBGROUP, NULL, err,
                                            sizeof err) == CZ_ERR_NOT_ON_CURVE);
    }
    /* A bad fixed vk point is named. */
    memcpy(bad, img, len);
    cz_g2_to_uncompressed(bad + 2 * G1U + G2U, &o2);
    TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, CZ_DECODE_SKIP_SUBGROUP, NULL, err,
                                        sizeof err) == CZ_ERR_NOT_IN_SUBGROUP);
    TF_CHECK(strstr(err, "gamma_g2") != NULL);
    free(bad);
    free(img);
    free_rand(&p);
}

static void test_counts(void)
{
    cz_groth16_params p, q;
    make_params(&p, 2, 2, 2, 2, 2, 2);
    size_t len;
    uint8_t *img = encode(&p, &len);
    uint8_t *bad = malloc(len);
    char err[160];
    size_t dec;
    for (int s = 0; s < 6; s++) {
        size_t coff = point_off(&p, s, 0) - 4;
        static const uint32_t vals[] = {0xFFFFFFFFu, 0x80000000u, 0x02AAAAABu, 3, 1, 0};
        for (size_t v = 0; v < sizeof vals / sizeof vals[0]; v++) {
            memcpy(bad, img, len);
            put_be32(bad + coff, vals[v]);
            int rc = cz_groth16_params_read_mem(&q, bad, len, 0, NULL, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_BAD_FORMAT ||
                             rc == CZ_ERR_NOT_ON_CURVE || rc == CZ_ERR_BAD_FLAGS ||
                             rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_BAD_INFINITY,
                         "section %d count %u: rc %d", s, vals[v], rc);
            TF_CHECK(is_zeroed(&q, sizeof q));
            if (vals[v] > 2) /* more points than the file holds */
                TF_CHECK(rc == CZ_ERR_TRUNCATED &&
                         cz_groth16_params_decoded_size(&dec, bad, len, 0, err, sizeof err) ==
                             CZ_ERR_TRUNCATED);
        }
    }
    free(bad);
    free(img);
    free_rand(&p);
}

/* Enough points for several chunks per thread; the result and the first
 * error do not depend on the thread count. */
static void test_threads(void)
{
    cz_groth16_params p;
    make_params(&p, 1, 0, 0, 1, 1, 300);
    size_t nl = 1200;
    free(p.l);
    p.l = malloc(nl * sizeof(cz_g1_affine));
    p.n_l = nl;
    cz_g1 acc, g;
    tf_rand_g1(&p.l[0], 0);
    cz_g1_from_affine(&acc, &p.l[0]);
    cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
    cz_g1 *jac = malloc(nl * sizeof *jac);
    for (size_t i = 0; i < nl; i++) {
        jac[i] = acc;
        cz_g1_add(&acc, &acc, &g);
    }
    cz_g1s_to_affine(p.l, jac, nl);
    free(jac);
    size_t len;
    uint8_t *img = encode(&p, &len);
    uint8_t *bad = malloc(len);
    memcpy(bad, img, len);
    cz_g1_affine o1;
    off_subgroup_g1(&o1);
    cz_g1_to_uncompressed(bad + point_off(&p, 2, 1000), &o1);
    cz_g1_to_uncompressed(bad + point_off(&p, 2, 700), &o1);
    cz_g2_affine o2;
    off_subgroup_g2(&o2);
    cz_g2_to_uncompressed(bad + point_off(&p, 5, 250), &o2);

    for (unsigned t = 0; t <= 4; t++) {
        cz_pool *pool = NULL;
        if (t > 0)
            TF_CHECK(cz_pool_new(&pool, t) == CZ_OK);
        cz_groth16_params q;
        char err[160] = "";
        TF_CHECK(cz_groth16_params_read_mem(&q, img, len, 0, pool, err, sizeof err) == CZ_OK);
        TF_CHECK_MSG(params_equal(&p, &q), "threads %u", t);
        cz_groth16_params_free(&q);
        TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, 0, pool, err, sizeof err) ==
                 CZ_ERR_NOT_IN_SUBGROUP);
        TF_CHECK_MSG(strstr(err, "section l, point 700:") != NULL, "threads %u: '%s'", t, err);
        TF_CHECK(cz_groth16_params_read_mem(&q, bad, len, CZ_DECODE_SKIP_SUBGROUP, pool, err,
                                            sizeof err) == CZ_OK);
        TF_CHECK(cz_g2_affine_equal(&q.b_g2[250], &o2));
        cz_groth16_params_free(&q);
        cz_pool_free(pool);
    }
    free(bad);
    free(img);
    free_rand(&p);
}

static void test_args(void)
{
    cz_groth16_params q;
    cz_groth16_vk vk;
    uint8_t b[4] = {0};
    TF_CHECK(cz_groth16_params_read_mem(NULL, b, 4, 0, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_groth16_params_read_mem(&q, NULL, 4, 0, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_groth16_params_read_mem(&q, NULL, 0, 0, NULL, NULL, 0) == CZ_ERR_TRUNCATED);
    TF_CHECK(cz_groth16_vk_read_mem(&vk, b, 4, NULL, 0) == CZ_ERR_TRUNCATED);
    cz_groth16_params_free(NULL);
    cz_groth16_vk_free(NULL);
    memset(&q, 0, sizeof q);
    q.n_h = 1; /* no array */
    TF_CHECK(cz_groth16_params_write(stdout, &q) == CZ_ERR_INVALID_ARG);
}

TF_MAIN(TF_TEST(test_roundtrip), TF_TEST(test_vk), TF_TEST(test_proof), TF_TEST(test_truncation),
        TF_TEST(test_bad_points), TF_TEST(test_counts), TF_TEST(test_threads), TF_TEST(test_args))
