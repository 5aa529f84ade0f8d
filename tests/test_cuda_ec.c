/* The CUDA field and curve arithmetic (src/cuda/fp.cuh, ec.cuh, through
 * src/cuda/cuda_selftest.h) against the CPU, bit for bit: every Fp and Fp2
 * operation on edge values and fresh random ones, and the G1 / G2 XYZZ
 * operations on random points and every special case the host handles
 * (doubling through an addition, P + (-P), infinity on either side or
 * both, repeated inputs).  Without a device only the "not available"
 * contract is checked and the GPU tests skip. */
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_selftest.h"
#include "cuzk/cuda.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "tf.h"

#define N 4096 /* elements per op */

static const char *field_op_names[] = {"add", "sub",    "neg",     "dbl",   "mul",
                                       "sqr", "mul_fp", "is_zero", "equal", "select"};
static const char *group_op_names[] = {"xyzz_add_affine", "xyzz_add", "xyzz_dbl", "to_jacobian"};

static void *vec(size_t n, size_t size)
{
    void *v = calloc(n, size);
    if (!v) {
        fprintf(stderr, "test_cuda_ec: out of host memory\n");
        exit(1);
    }
    return v;
}

/* Index of the first of n elements of size bytes where a and b differ, n
 * when none. */
static size_t first_diff(const void *a, const void *b, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size))
            return i;
    return n;
}

/* Reports the first mismatch of got against want, with the inputs. */
static void check_same(const char *what, const char *op, int rc, const void *got, const void *want,
                       size_t size, const void *a, size_t asize, const void *b, size_t bsize)
{
    TF_CHECK_MSG(rc == CZ_OK, "%s %s: %s", what, op, cz_strerror(rc));
    if (rc)
        return;
    size_t i = first_diff(got, want, N, size);
    TF_CHECK_MSG(i == N, "%s %s: first mismatch at index %zu", what, op, i);
    if (i < N) {
        tf_hex("  a   ", (const char *)a + i * asize, asize);
        if (b)
            tf_hex("  b   ", (const char *)b + i * bsize, bsize);
        tf_hex("  gpu ", (const char *)got + i * size, size);
        tf_hex("  cpu ", (const char *)want + i * size, size);
    }
}

/* ------------------------------------------------------- no device ------ */

/* Without a device every self-test says so, whatever the op, and writes
 * nothing. */
static void test_unavailable(void)
{
    if (cz_cuda_available())
        return;
    cz_fp a[2] = {CZ_FP_ONE, CZ_FP_ONE}, out[2];
    cz_fp2 a2[2] = {{CZ_FP_ONE, CZ_FP_ZERO}, {CZ_FP_ZERO, CZ_FP_ONE}}, out2[2];
    cz_g1_xyzz p1[2], r1[2];
    cz_g1_affine q1[2] = {CZ_G1_GENERATOR, CZ_G1_GENERATOR};
    cz_g1 j1[2];
    cz_g2_xyzz p2[2], r2[2];
    cz_g2_affine q2[2] = {CZ_G2_GENERATOR, CZ_G2_GENERATOR};
    cz_g2 j2[2];
    for (int i = 0; i < 2; i++) {
        cz_g1_xyzz_from_affine(&p1[i], &q1[i]);
        cz_g2_xyzz_from_affine(&p2[i], &q2[i]);
    }
    for (int op = 0; op < CZ_CUDA_ST_FIELD_OPS; op++) {
        memset(out, 0xa5, sizeof out);
        memset(out2, 0xa5, sizeof out2);
        int rc = cz_cuda_selftest_fp(op, a, a, out, 2);
        TF_CHECK_MSG(rc == CZ_ERR_UNSUPPORTED, "fp %s without device: %s", field_op_names[op],
                     cz_strerror(rc));
        rc = cz_cuda_selftest_fp2(op, a2, a2, out2, 2);
        TF_CHECK_MSG(rc == CZ_ERR_UNSUPPORTED, "fp2 %s without device: %s", field_op_names[op],
                     cz_strerror(rc));
        TF_CHECK(((unsigned char *)out)[0] == 0xa5 && ((unsigned char *)out2)[0] == 0xa5);
    }
    for (int op = 0; op < CZ_CUDA_ST_GROUP_OPS; op++) {
        int rc = cz_cuda_selftest_g1(op, p1, p1, q1, r1, j1, 2);
        TF_CHECK_MSG(rc == CZ_ERR_UNSUPPORTED, "g1 %s without device: %s", group_op_names[op],
                     cz_strerror(rc));
        rc = cz_cuda_selftest_g2(op, p2, p2, q2, r2, j2, 2);
        TF_CHECK_MSG(rc == CZ_ERR_UNSUPPORTED, "g2 %s without device: %s", group_op_names[op],
                     cz_strerror(rc));
    }
    /* even bad arguments: the device check comes first */
    TF_CHECK(cz_cuda_selftest_fp(-1, NULL, NULL, NULL, 1) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_selftest_g2(99, NULL, NULL, NULL, NULL, NULL, 1) == CZ_ERR_UNSUPPORTED);
}

/* With a device: argument checks. */
static void test_bad_args(void)
{
    if (!tf_gpu())
        return;
    cz_fp a[1] = {CZ_FP_ONE}, out[1];
    cz_fp2 a2[1] = {{CZ_FP_ONE, CZ_FP_ONE}}, out2[1];
    cz_g1_xyzz p[1];
    cz_g1_xyzz_set_inf(p);
    TF_CHECK(cz_cuda_selftest_fp(CZ_CUDA_ST_FIELD_OPS, a, a, out, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp(-1, a, a, out, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp(CZ_CUDA_ST_MUL_FP, a, a, out, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp(CZ_CUDA_ST_MUL, a, NULL, out, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp(CZ_CUDA_ST_SQR, a, NULL, NULL, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp(CZ_CUDA_ST_SQR, a, NULL, out, 0) == CZ_OK);
    TF_CHECK(cz_cuda_selftest_fp2(CZ_CUDA_ST_MUL_FP, a2, NULL, out2, 1) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_fp2(CZ_CUDA_ST_SQR, a2, NULL, out2, (size_t)-1) == CZ_ERR_TOO_BIG);
    TF_CHECK(cz_cuda_selftest_g1(CZ_CUDA_ST_GROUP_OPS, p, p, NULL, p, NULL, 1) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_g1(CZ_CUDA_ST_XYZZ_ADD_AFFINE, p, p, NULL, p, NULL, 1) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_selftest_g1(CZ_CUDA_ST_TO_JACOBIAN, p, NULL, NULL, p, NULL, 1) ==
             CZ_ERR_INVALID_ARG);
}

/* ---------------------------------------------------------------- Fp --- */

/* Stored (Montgomery) values that stress carries and the reductions: 0, 1,
 * R mod p (one), p - 1, p - 2, -one, (p - 1)/2, (p + 1)/2, all-ones limbs
 * below p, 2^320 - 1, 2^352 - 1 (32-bit limbs all ones), alternating
 * half-limbs, a single top bit. */
#define N_EDGE 14
static void fp_edges(cz_fp e[N_EDGE])
{
    static const uint64_t raw[N_EDGE][6] = {
        {0},
        {1},
        {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
         0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL},
        {0xb9feffffffffaaaaULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL},
        {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL},
        {0}, /* -one, filled below */
        {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
         0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL},
        {0xdcff7fffffffd556ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
         0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL},
        {~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, 0x1a0111ea397fe699ULL},
        {~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, 0},
        {~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, 0xffffffffULL},
        {0xffffffff00000000ULL, 0xffffffff00000000ULL, 0xffffffff00000000ULL, 0xffffffff00000000ULL,
         0xffffffff00000000ULL, 0x19ffffff00000000ULL},
        {0x00000000ffffffffULL, 0x00000000ffffffffULL, 0x00000000ffffffffULL, 0x00000000ffffffffULL,
         0x00000000ffffffffULL, 0x00000000ffffffffULL},
        {0, 0, 0, 0, 0, 0x1000000000000000ULL},
    };
    for (int i = 0; i < N_EDGE; i++)
        memcpy(e[i].l, raw[i], sizeof e[i].l);
    cz_fp_neg(&e[5], &CZ_FP_ONE);
}

/* a, b: all pairs of edge values, then b = a, b = -a, b = a + 1, then
 * random pairs. */
static void fp_inputs(cz_fp *a, cz_fp *b)
{
    cz_fp e[N_EDGE];
    fp_edges(e);
    size_t i = 0;
    for (int x = 0; x < N_EDGE; x++)
        for (int y = 0; y < N_EDGE; y++, i++)
            a[i] = e[x], b[i] = e[y];
    for (; i < N; i++) {
        cz_fp_random(&a[i], &tf_rng);
        switch (i % 8) {
        case 0:
            b[i] = a[i];
            break;
        case 1:
            cz_fp_neg(&b[i], &a[i]);
            break;
        case 2:
            cz_fp_add(&b[i], &a[i], &CZ_FP_ONE);
            break;
        default:
            cz_fp_random(&b[i], &tf_rng);
        }
    }
}

static void fp_cpu(int op, cz_fp *r, const cz_fp *a, const cz_fp *b)
{
    switch (op) {
    case CZ_CUDA_ST_ADD:
        cz_fp_add(r, a, b);
        break;
    case CZ_CUDA_ST_SUB:
        cz_fp_sub(r, a, b);
        break;
    case CZ_CUDA_ST_NEG:
        cz_fp_neg(r, a);
        break;
    case CZ_CUDA_ST_DBL:
        cz_fp_dbl(r, a);
        break;
    case CZ_CUDA_ST_MUL:
        cz_fp_mul(r, a, b);
        break;
    case CZ_CUDA_ST_SQR:
        cz_fp_sqr(r, a);
        break;
    case CZ_CUDA_ST_IS_ZERO:
        *r = cz_fp_is_zero(a) ? CZ_FP_ONE : CZ_FP_ZERO;
        break;
    case CZ_CUDA_ST_EQUAL:
        *r = cz_fp_equal(a, b) ? CZ_FP_ONE : CZ_FP_ZERO;
        break;
    case CZ_CUDA_ST_SELECT:
        *r = (a->l[0] & 1) ? *a : *b;
        break;
    }
}

static void test_fp(void)
{
    if (!tf_gpu())
        return;
    cz_fp *a = vec(N, sizeof(cz_fp)), *b = vec(N, sizeof(cz_fp));
    cz_fp *want = vec(N, sizeof(cz_fp)), *got = vec(N, sizeof(cz_fp));
    fp_inputs(a, b);
    for (int op = 0; op < CZ_CUDA_ST_FIELD_OPS; op++) {
        if (op == CZ_CUDA_ST_MUL_FP)
            continue;
        for (size_t i = 0; i < N; i++)
            fp_cpu(op, &want[i], &a[i], &b[i]);
        memset(got, 0xa5, N * sizeof(cz_fp));
        int rc = cz_cuda_selftest_fp(op, a, b, got, N);
        check_same("fp", field_op_names[op], rc, got, want, sizeof(cz_fp), a, sizeof(cz_fp), b,
                   sizeof(cz_fp));
    }
    printf("test_cuda_ec: fp: %d ops on %d elements compared\n", CZ_CUDA_ST_FIELD_OPS - 1, N);
    free(a);
    free(b);
    free(want);
    free(got);
}

/* --------------------------------------------------------------- Fp2 --- */

/* Edge pairs: c0 and c1 from the Fp edges (all 196 combinations), then
 * b = a, b = -a, b = conj(a) and random. */
static void fp2_inputs(cz_fp2 *a, cz_fp2 *b)
{
    cz_fp e[N_EDGE];
    fp_edges(e);
    size_t i = 0;
    for (int x = 0; x < N_EDGE; x++)
        for (int y = 0; y < N_EDGE; y++, i++) {
            a[i].c0 = e[x], a[i].c1 = e[y];
            b[i].c0 = e[y], b[i].c1 = e[(x + y) % N_EDGE];
        }
    for (; i < N; i++) {
        cz_fp2_random(&a[i], &tf_rng);
        switch (i % 8) {
        case 0:
            b[i] = a[i];
            break;
        case 1:
            cz_fp2_neg(&b[i], &a[i]);
            break;
        case 2:
            cz_fp2_conj(&b[i], &a[i]);
            break;
        default:
            cz_fp2_random(&b[i], &tf_rng);
        }
    }
}

static void fp2_cpu(int op, cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b)
{
    static const cz_fp2 zero = {{{0}}, {{0}}};
    cz_fp2 one = {CZ_FP_ONE, CZ_FP_ZERO};
    switch (op) {
    case CZ_CUDA_ST_ADD:
        cz_fp2_add(r, a, b);
        break;
    case CZ_CUDA_ST_SUB:
        cz_fp2_sub(r, a, b);
        break;
    case CZ_CUDA_ST_NEG:
        cz_fp2_neg(r, a);
        break;
    case CZ_CUDA_ST_DBL:
        cz_fp2_dbl(r, a);
        break;
    case CZ_CUDA_ST_MUL:
        cz_fp2_mul(r, a, b);
        break;
    case CZ_CUDA_ST_SQR:
        cz_fp2_sqr(r, a);
        break;
    case CZ_CUDA_ST_MUL_FP:
        cz_fp2_mul_fp(r, a, &b->c0);
        break;
    case CZ_CUDA_ST_IS_ZERO:
        *r = cz_fp2_is_zero(a) ? one : zero;
        break;
    case CZ_CUDA_ST_EQUAL:
        *r = cz_fp2_equal(a, b) ? one : zero;
        break;
    case CZ_CUDA_ST_SELECT:
        *r = (a->c0.l[0] & 1) ? *a : *b;
        break;
    }
}

static void test_fp2(void)
{
    if (!tf_gpu())
        return;
    cz_fp2 *a = vec(N, sizeof(cz_fp2)), *b = vec(N, sizeof(cz_fp2));
    cz_fp2 *want = vec(N, sizeof(cz_fp2)), *got = vec(N, sizeof(cz_fp2));
    fp2_inputs(a, b);
    for (int op = 0; op < CZ_CUDA_ST_FIELD_OPS; op++) {
        for (size_t i = 0; i < N; i++)
            fp2_cpu(op, &want[i], &a[i], &b[i]);
        memset(got, 0xa5, N * sizeof(cz_fp2));
        int rc = cz_cuda_selftest_fp2(op, a, b, got, N);
        check_same("fp2", field_op_names[op], rc, got, want, sizeof(cz_fp2), a, sizeof(cz_fp2), b,
                   sizeof(cz_fp2));
    }
    printf("test_cuda_ec: fp2: %d ops on %d elements compared\n", CZ_CUDA_ST_FIELD_OPS, N);
    free(a);
    free(b);
    free(want);
    free(got);
}

/* ------------------------------------------------------------ G1, G2 --- */

/* What the group test needs of G1 or G2, on untyped storage: coordinates
 * are fsize bytes, an affine point (x, y) 2 fsize, Jacobian 3 fsize, XYZZ
 * (x, y, zz, zzz) 4 fsize, as in include/cuzk/ec.h. */
typedef struct {
    const char *name;
    size_t fsize;
    void (*frandom)(void *r);
    void (*fmul)(void *r, const void *a, const void *b);
    void (*fsqr)(void *r, const void *a);
    void (*points)(void *aff, size_t n); /* n random points, none infinite */
    void (*aff_neg)(void *r, const void *p);
    void (*set_inf)(void *r);
    void (*add_affine)(void *r, const void *a, const void *q);
    void (*add)(void *r, const void *a, const void *b);
    void (*dbl)(void *r, const void *a);
    void (*to_jac)(void *r, const void *a);
    int (*gpu)(int op, const void *a, const void *b, const void *q, void *out, void *jac, size_t n);
} group;

static void g1_frandom(void *r) { cz_fp_random(r, &tf_rng); }
static void g1_fmul(void *r, const void *a, const void *b) { cz_fp_mul(r, a, b); }
static void g1_fsqr(void *r, const void *a) { cz_fp_sqr(r, a); }
static void g1_aff_neg(void *r, const void *p) { cz_g1_affine_neg(r, p); }
static void g1_set_inf(void *r) { cz_g1_xyzz_set_inf(r); }
static void g1_add_affine(void *r, const void *a, const void *q) { cz_g1_xyzz_add_affine(r, a, q); }
static void g1_add(void *r, const void *a, const void *b) { cz_g1_xyzz_add(r, a, b); }
static void g1_dbl(void *r, const void *a) { cz_g1_xyzz_dbl(r, a); }
static void g1_to_jac(void *r, const void *a) { cz_g1_xyzz_to_jacobian(r, a); }
static int g1_gpu(int op, const void *a, const void *b, const void *q, void *out, void *jac,
                  size_t n)
{
    return cz_cuda_selftest_g1(op, a, b, q, out, jac, n);
}

/* A walk P_{i+1} = P_i + B_j over 8 random bases, normalised at once. */
static void g1_points(void *aff, size_t n)
{
    cz_g1 base[8], acc, *jac = vec(n, sizeof(cz_g1));
    cz_g1_from_affine(&acc, &CZ_G1_GENERATOR);
    for (int j = 0; j < 8; j++) {
        cz_fr k;
        cz_fr_random(&k, &tf_rng);
        cz_g1_mul_var(&base[j], &acc, &k);
    }
    acc = base[0];
    for (size_t i = 0; i < n; i++) {
        cz_g1_add(&acc, &acc, &base[cz_prng_next(&tf_rng) % 8]);
        jac[i] = acc;
    }
    cz_g1s_to_affine(aff, jac, n);
    free(jac);
}

static void g2_frandom(void *r) { cz_fp2_random(r, &tf_rng); }
static void g2_fmul(void *r, const void *a, const void *b) { cz_fp2_mul(r, a, b); }
static void g2_fsqr(void *r, const void *a) { cz_fp2_sqr(r, a); }
static void g2_aff_neg(void *r, const void *p) { cz_g2_affine_neg(r, p); }
static void g2_set_inf(void *r) { cz_g2_xyzz_set_inf(r); }
static void g2_add_affine(void *r, const void *a, const void *q) { cz_g2_xyzz_add_affine(r, a, q); }
static void g2_add(void *r, const void *a, const void *b) { cz_g2_xyzz_add(r, a, b); }
static void g2_dbl(void *r, const void *a) { cz_g2_xyzz_dbl(r, a); }
static void g2_to_jac(void *r, const void *a) { cz_g2_xyzz_to_jacobian(r, a); }
static int g2_gpu(int op, const void *a, const void *b, const void *q, void *out, void *jac,
                  size_t n)
{
    return cz_cuda_selftest_g2(op, a, b, q, out, jac, n);
}

static void g2_points(void *aff, size_t n)
{
    cz_g2 base[8], acc, *jac = vec(n, sizeof(cz_g2));
    cz_g2_from_affine(&acc, &CZ_G2_GENERATOR);
    for (int j = 0; j < 8; j++) {
        cz_fr k;
        cz_fr_random(&k, &tf_rng);
        cz_g2_mul_var(&base[j], &acc, &k);
    }
    acc = base[0];
    for (size_t i = 0; i < n; i++) {
        cz_g2_add(&acc, &acc, &base[cz_prng_next(&tf_rng) % 8]);
        jac[i] = acc;
    }
    cz_g2s_to_affine(aff, jac, n);
    free(jac);
}

static const group g1 = {"g1",      sizeof(cz_fp), g1_frandom, g1_fmul,       g1_fsqr,
                         g1_points, g1_aff_neg,    g1_set_inf, g1_add_affine, g1_add,
                         g1_dbl,    g1_to_jac,     g1_gpu};
static const group g2 = {"g2",      sizeof(cz_fp2), g2_frandom, g2_fmul,       g2_fsqr,
                         g2_points, g2_aff_neg,     g2_set_inf, g2_add_affine, g2_add,
                         g2_dbl,    g2_to_jac,      g2_gpu};

#define AT(base, i, size) ((char *)(base) + (size_t)(i) * (size))

/* r = (x z^2, y z^3, z^2, z^3) for the affine p = (x, y) and a random z: a
 * random representative of p in XYZZ. */
static void random_rep(const group *g, void *r, const void *p)
{
    size_t fs = g->fsize;
    cz_fp2 z; /* room for either field */
    g->frandom(&z);
    g->fsqr(AT(r, 2, fs), &z);                         /* zz = z^2 */
    g->fmul(AT(r, 3, fs), AT(r, 2, fs), &z);           /* zzz = z^3 */
    g->fmul(AT(r, 0, fs), p, AT(r, 2, fs));            /* x zz */
    g->fmul(AT(r, 1, fs), AT(p, 1, fs), AT(r, 3, fs)); /* y zzz */
}

/* An infinity: the canonical one or, every other time, ZZ = ZZZ = 0 with
 * random X and Y (still infinity for the host, which tests ZZ only). */
static void some_inf(const group *g, void *r, size_t i)
{
    g->set_inf(r);
    if (i & 1) {
        g->frandom(AT(r, 0, g->fsize));
        g->frandom(AT(r, 1, g->fsize));
    }
}

/* Inputs by i mod 8: 0-3 independent random points; 4 the same point
 * (doubling through the addition; b another representative or, every other
 * time, the same one); 5 b = -a; 6 infinity on the left, right or both
 * sides; 7 a repeat of element i - 4 (random points). */
static void group_inputs(const group *g, void *a, void *b, void *q)
{
    size_t fs = g->fsize, as = 2 * fs, xs = 4 * fs;
    void *pts = vec(2 * N, as);
    g->points(pts, 2 * N);
    for (size_t i = 0; i < N; i++) {
        const void *p = AT(pts, 2 * i, as), *o = AT(pts, 2 * i + 1, as);
        void *ai = AT(a, i, xs), *bi = AT(b, i, xs), *qi = AT(q, i, as);
        random_rep(g, ai, p);
        switch (i % 8) {
        case 4:
            memcpy(qi, p, as);
            if ((i / 8) & 1)
                memcpy(bi, ai, xs);
            else
                random_rep(g, bi, p);
            break;
        case 5:
            g->aff_neg(qi, p);
            random_rep(g, bi, qi);
            break;
        case 6:
            switch ((i / 8) % 3) {
            case 0: /* inf + P */
                some_inf(g, ai, i / 24);
                memcpy(qi, p, as);
                random_rep(g, bi, p);
                break;
            case 1: /* P + inf */
                memset(qi, 0, as);
                some_inf(g, bi, i / 24);
                break;
            default: /* inf + inf */
                some_inf(g, ai, i / 24);
                memset(qi, 0, as);
                some_inf(g, bi, i / 24 + 1);
            }
            break;
        case 7:
            memcpy(ai, AT(a, i - 4, xs), xs);
            memcpy(bi, AT(b, i - 4, xs), xs);
            memcpy(qi, AT(q, i - 4, as), as);
            break;
        default:
            memcpy(qi, o, as);
            random_rep(g, bi, o);
        }
    }
    free(pts);
}

static void check_group(const group *g)
{
    size_t fs = g->fsize, as = 2 * fs, js = 3 * fs, xs = 4 * fs;
    void *a = vec(N, xs), *b = vec(N, xs), *q = vec(N, as);
    void *want = vec(N, xs), *got = vec(N, xs);
    group_inputs(g, a, b, q);
    for (int op = 0; op < CZ_CUDA_ST_GROUP_OPS; op++) {
        size_t os = op == CZ_CUDA_ST_TO_JACOBIAN ? js : xs;
        const void *other = op == CZ_CUDA_ST_XYZZ_ADD          ? b
                            : op == CZ_CUDA_ST_XYZZ_ADD_AFFINE ? q
                                                               : NULL;
        size_t other_size = op == CZ_CUDA_ST_XYZZ_ADD_AFFINE ? as : xs;
        for (size_t i = 0; i < N; i++) {
            void *w = AT(want, i, os);
            switch (op) {
            case CZ_CUDA_ST_XYZZ_ADD_AFFINE:
                g->add_affine(w, AT(a, i, xs), AT(q, i, as));
                break;
            case CZ_CUDA_ST_XYZZ_ADD:
                g->add(w, AT(a, i, xs), AT(b, i, xs));
                break;
            case CZ_CUDA_ST_XYZZ_DBL:
                g->dbl(w, AT(a, i, xs));
                break;
            default:
                g->to_jac(w, AT(a, i, xs));
            }
        }
        memset(got, 0xa5, N * xs);
        int rc = g->gpu(op, a, b, q, got, got, N);
        check_same(g->name, group_op_names[op], rc, got, want, os, a, xs, other, other_size);
    }
    printf("test_cuda_ec: %s: %d ops on %d points compared\n", g->name, CZ_CUDA_ST_GROUP_OPS, N);
    free(a);
    free(b);
    free(q);
    free(want);
    free(got);
}

static void test_g1(void)
{
    if (tf_gpu())
        check_group(&g1);
}

static void test_g2(void)
{
    if (tf_gpu())
        check_group(&g2);
}

/* The inputs above do reach the special cases (checked on the CPU, so this
 * runs without a device too): the host's outputs include infinities from
 * P + (-P) and copies of an input for the infinity cases. */
static void test_inputs_cover_cases(void)
{
    const group *gs[2] = {&g1, &g2};
    for (int k = 0; k < 2; k++) {
        const group *g = gs[k];
        size_t fs = g->fsize, as = 2 * fs, xs = 4 * fs;
        void *a = vec(N, xs), *b = vec(N, xs), *q = vec(N, as), *r = vec(1, xs);
        unsigned inf = 0, copies = 0, dbl = 0;
        static const cz_fp2 zero;
        cz_g2_xyzz d; /* room for either group */
        group_inputs(g, a, b, q);
        for (size_t i = 0; i < N; i++) {
            g->add_affine(r, AT(a, i, xs), AT(q, i, as));
            inf += !memcmp(AT(r, 2, fs), &zero, fs);
            copies += !memcmp(r, AT(a, i, xs), xs);
            g->dbl(&d, AT(a, i, xs));
            g->add(r, AT(a, i, xs), AT(b, i, xs));
            dbl += i % 8 == 4 && !memcmp(r, &d, xs);
        }
        /* case 5 (N/8 of them), plus inf + inf; case 6 copies a; case 4 doubles */
        TF_CHECK_MSG(inf >= N / 8 && copies >= N / 24 && dbl == N / 8,
                     "%s inputs: %u infinities, %u copies, %u doublings", g->name, inf, copies,
                     dbl);
        free(a);
        free(b);
        free(q);
        free(r);
    }
}

TF_MAIN(TF_TEST(test_unavailable), TF_TEST(test_inputs_cover_cases), TF_TEST(test_bad_args),
        TF_TEST(test_fp), TF_TEST(test_fp2), TF_TEST(test_g1), TF_TEST(test_g2))
