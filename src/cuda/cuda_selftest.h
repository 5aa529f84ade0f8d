/* Device self-tests of the CUDA field and curve arithmetic (src/cuda/fp.cuh,
 * ec.cuh), for tests/test_cuda_ec.c: host arrays in, one kernel over n
 * elements, results back, to be compared with the CPU's cz_fp_* / cz_fp2_*
 * / cz_g*_xyzz_* bit for bit.  Internal: not part of the public API.
 *
 * Element i of every array belongs to element i of the output; outputs may
 * not overlap inputs.  Each call copies in, runs and copies back
 * synchronously.
 *
 * Returns CZ_OK; CZ_ERR_UNSUPPORTED when the build has no CUDA or there is
 * no usable device (whatever the arguments); CZ_ERR_INVALID_ARG for an
 * unknown op or a NULL array the op needs (arrays it does not use may be
 * NULL; with n = 0 nothing is needed); CZ_ERR_TOO_BIG when n elements do not
 * fit in size_t bytes; CZ_ERR_NOMEM when device memory runs out;
 * CZ_ERR_BACKEND for any other CUDA failure (a failed launch included). */
#ifndef CZ_CUDA_SELFTEST_H
#define CZ_CUDA_SELFTEST_H

#include <stddef.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field ops: out[i] = */
enum {
    CZ_CUDA_ST_ADD,     /* a + b */
    CZ_CUDA_ST_SUB,     /* a - b */
    CZ_CUDA_ST_NEG,     /* -a */
    CZ_CUDA_ST_DBL,     /* 2a */
    CZ_CUDA_ST_MUL,     /* a b */
    CZ_CUDA_ST_SQR,     /* a^2 */
    CZ_CUDA_ST_MUL_FP,  /* Fp2 only: a b.c0 (cz_fp2_mul_fp) */
    CZ_CUDA_ST_IS_ZERO, /* a == 0 ? 1 : 0 (as field elements, Montgomery form) */
    CZ_CUDA_ST_EQUAL,   /* a == b ? 1 : 0 */
    CZ_CUDA_ST_SELECT,  /* bit 0 of a's first limb (a.c0's for Fp2) ? a : b */
    CZ_CUDA_ST_FIELD_OPS
};

/* Group ops: */
enum {
    CZ_CUDA_ST_XYZZ_ADD_AFFINE, /* out[i] = a[i] + q[i]   (cz_g*_xyzz_add_affine) */
    CZ_CUDA_ST_XYZZ_ADD,        /* out[i] = a[i] + b[i]   (cz_g*_xyzz_add) */
    CZ_CUDA_ST_XYZZ_DBL,        /* out[i] = 2 a[i]        (cz_g*_xyzz_dbl) */
    CZ_CUDA_ST_TO_JACOBIAN,     /* out_jac[i] = a[i]      (cz_g*_xyzz_to_jacobian) */
    CZ_CUDA_ST_GROUP_OPS
};

/* Field self-test: op from the field list; b is needed by ADD, SUB, MUL,
 * MUL_FP, EQUAL and SELECT. */
int cz_cuda_selftest_fp(int op, const cz_fp *a, const cz_fp *b, cz_fp *out, size_t n);
int cz_cuda_selftest_fp2(int op, const cz_fp2 *a, const cz_fp2 *b, cz_fp2 *out, size_t n);

/* Group self-test: op from the group list; a is always needed, b by
 * XYZZ_ADD, q by XYZZ_ADD_AFFINE, out by all but TO_JACOBIAN, which writes
 * out_jac instead. */
int cz_cuda_selftest_g1(int op, const cz_g1_xyzz *a, const cz_g1_xyzz *b, const cz_g1_affine *q,
                        cz_g1_xyzz *out, cz_g1 *out_jac, size_t n);
int cz_cuda_selftest_g2(int op, const cz_g2_xyzz *a, const cz_g2_xyzz *b, const cz_g2_affine *q,
                        cz_g2_xyzz *out, cz_g2 *out_jac, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* CZ_CUDA_SELFTEST_H */
