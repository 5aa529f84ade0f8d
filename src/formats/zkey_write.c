/* snarkjs Groth16 .zkey writer (format and contract in include/cuzk/zkey.h),
 * the inverse of zkey.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binfile.h"
#include "cuzk/err.h"
#include "cuzk/zkey.h"

#define G1_BYTES      (2u * CZ_FP_BYTES)
#define G2_BYTES      (4u * CZ_FP_BYTES)
#define COEF_BYTES    (12u + CZ_FR_BYTES)
#define CS_HASH_BYTES 64u
#define N_SECTIONS    10u
/* u32 n8q, q, u32 n8r, r, nVars, nPublic, domainSize, 3 G1 and 3 G2. */
#define GROTH16_HEADER (4u + CZ_FP_BYTES + 4u + CZ_FR_BYTES + 12u + 3u * G1_BYTES + 3u * G2_BYTES)

/* ----------------------------------------------------------- validation --- */

/* The limbs of a cz_fp / cz_fr as little-endian bytes, no conversion. */
static void limb_bytes(uint8_t *out, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < 8 * n; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

/* Limbs below p (the canonical decoder rejects >= p on the same bytes). */
static bool fp_reduced(const cz_fp *a)
{
    uint8_t b[CZ_FP_BYTES];
    cz_fp scratch;
    limb_bytes(b, a->l, 6);
    return cz_fp_from_bytes_le(&scratch, b) == CZ_OK;
}

static bool g1_ok(const cz_g1_affine *p)
{
    return fp_reduced(&p->x) && fp_reduced(&p->y) && cz_g1_affine_is_on_curve(p);
}

static bool g2_ok(const cz_g2_affine *p)
{
    return fp_reduced(&p->x.c0) && fp_reduced(&p->x.c1) && fp_reduced(&p->y.c0) &&
           fp_reduced(&p->y.c1) && cz_g2_affine_is_on_curve(p);
}

/* The n points p (in G2 when g2, else in G1), every coordinate below p
 * and on the curve; what names them in the message. */
static int check_points(const void *p, uint64_t n, bool g2, const char *what, char *err,
                        size_t errlen)
{
    if (p == NULL && n > 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey write: %s array is NULL", what);
    for (uint64_t i = 0; i < n; i++)
        if (g2 ? !g2_ok((const cz_g2_affine *)p + i) : !g1_ok((const cz_g1_affine *)p + i))
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "zkey write: %s %llu: a coordinate is not below p or the point is "
                           "not on the curve",
                           what, (unsigned long long)i);
    return CZ_OK;
}

static int check_coefs(const cz_zkey *z, char *err, size_t errlen)
{
    if (z->coefs == NULL && z->n_coefs > 0)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "zkey write: coefs is NULL with n_coefs = %u", z->n_coefs);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const cz_zkey_coef *e = &z->coefs[i];
        uint8_t b[CZ_FR_BYTES];
        cz_fr scratch;
        if (e->matrix > 1 || e->constraint >= z->domain_size || e->signal >= z->n_vars)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "zkey write: coefficient %u: matrix %u (need 0 or 1), "
                           "constraint %u (need < domain_size = %u), signal %u (need < "
                           "n_vars = %u)",
                           i, e->matrix, e->constraint, z->domain_size, e->signal, z->n_vars);
        limb_bytes(b, e->value.l, 4);
        if (cz_fr_from_bytes_le(&scratch, b) != CZ_OK)
            return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                           "zkey write: coefficient %u: value limbs are not below r", i);
    }
    return CZ_OK;
}

static int validate(const cz_zkey *z, char *err, size_t errlen)
{
    uint64_t n_pub1 = (uint64_t)z->n_public + 1;
    int rc;
    if (n_pub1 > z->n_vars)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "zkey write: n_public + 1 = %llu exceeds n_vars = %u",
                       (unsigned long long)n_pub1, z->n_vars);
    if (z->log_domain_size > 31 || z->domain_size != 1u << z->log_domain_size)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG,
                       "zkey write: domain_size = %u is not 2^log_domain_size (%u)", z->domain_size,
                       z->log_domain_size);
    /* every point array (after the coefficients): in G2 or G1, its length
     * and its name */
    const struct {
        const void *p;
        bool g2;
        uint64_t n;
        const char *what;
    } pts[] = {
        {&z->alpha1, false, 1, "alpha1"},       {&z->beta1, false, 1, "beta1"},
        {&z->delta1, false, 1, "delta1"},       {&z->beta2, true, 1, "beta2"},
        {&z->gamma2, true, 1, "gamma2"},        {&z->delta2, true, 1, "delta2"},
        {z->ic, false, n_pub1, "IC"},           {z->a, false, z->n_vars, "A"},
        {z->b1, false, z->n_vars, "B1"},        {z->b2, true, z->n_vars, "B2"},
        {z->c, false, z->n_vars - n_pub1, "C"}, {z->h, false, z->domain_size, "H"},
    };
    rc = check_coefs(z, err, errlen);
    for (size_t i = 0; rc == CZ_OK && i < sizeof pts / sizeof pts[0]; i++)
        rc = check_points(pts[i].p, pts[i].n, pts[i].g2, pts[i].what, err, errlen);
    return rc;
}

/* -------------------------------------------------------------- writing --- */

/* A stdio stream and the errno of its first failed write (0: none yet);
 * later writes after a failure are skipped. */
typedef struct {
    FILE *f;
    int err;
} sink;

static void put(sink *s, const void *p, size_t n)
{
    if (s->err == 0 && fwrite(p, 1, n, s->f) != n)
        s->err = errno != 0 ? errno : EIO;
}

static void put_u32(sink *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(f, b, 4);
}

static void put_section(sink *f, uint32_t type, uint64_t size)
{
    put_u32(f, type);
    put_u32(f, (uint32_t)size);
    put_u32(f, (uint32_t)(size >> 32));
}

/* Coordinates go out as their Montgomery limbs (snarkjs's LEM form). */
static void put_fp(sink *f, const cz_fp *a)
{
    uint8_t b[CZ_FP_BYTES];
    limb_bytes(b, a->l, 6);
    put(f, b, sizeof b);
}

static void put_g1s(sink *f, const cz_g1_affine *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        put_fp(f, &p[i].x);
        put_fp(f, &p[i].y);
    }
}

static void put_g2s(sink *f, const cz_g2_affine *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        put_fp(f, &p[i].x.c0);
        put_fp(f, &p[i].x.c1);
        put_fp(f, &p[i].y.c0);
        put_fp(f, &p[i].y.c1);
    }
}

/* A prime's n8 and bytes, the prime from the n little-endian bytes of its
 * -1 (whose low byte is not 0xff: the +1 carries nothing). */
static void put_prime(sink *f, uint8_t *minus1, size_t n)
{
    minus1[0]++;
    put_u32(f, (uint32_t)n);
    put(f, minus1, n);
}

static void put_groth16_header(sink *f, const cz_zkey *z)
{
    /* p = (p - 1) + 1: p - 1 is the canonical encoding of -1 and p's low
     * byte 0xab makes the +1 carry-free; r likewise (low byte 0x01). */
    uint8_t b[CZ_FP_BYTES];
    cz_fp m1;
    cz_fp_neg(&m1, &CZ_FP_ONE);
    cz_fp_to_bytes_le(b, &m1);
    put_prime(f, b, CZ_FP_BYTES);
    cz_fr m1r;
    cz_fr_neg(&m1r, &CZ_FR_ONE);
    cz_fr_to_bytes_le(b, &m1r);
    put_prime(f, b, CZ_FR_BYTES);
    put_u32(f, z->n_vars);
    put_u32(f, z->n_public);
    put_u32(f, z->domain_size);
    put_g1s(f, &z->alpha1, 1);
    put_g1s(f, &z->beta1, 1);
    put_g2s(f, &z->beta2, 1);
    put_g2s(f, &z->gamma2, 1);
    put_g1s(f, &z->delta1, 1);
    put_g2s(f, &z->delta2, 1);
}

/* A value v held as v*R goes out as the raw bytes of v*R^2: a Montgomery
 * product (x*y/R) with the element whose limbs are R^2, i.e. R in Montgomery
 * form (CZ_FR_ONE's limbs are R mod r, canonical). */
static void put_coefs(sink *f, const cz_zkey *z)
{
    cz_fr r_mont;
    cz_fr_from_canonical(&r_mont, CZ_FR_ONE.l);
    put_u32(f, z->n_coefs);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const cz_zkey_coef *e = &z->coefs[i];
        uint8_t b[CZ_FR_BYTES];
        cz_fr raw;
        cz_fr_mul(&raw, &e->value, &r_mont);
        limb_bytes(b, raw.l, 4);
        put_u32(f, e->matrix);
        put_u32(f, e->constraint);
        put_u32(f, e->signal);
        put(f, b, sizeof b);
    }
}

static void put_zkey(sink *f, const cz_zkey *z)
{
    static const uint8_t cs_hash[CS_HASH_BYTES];
    uint64_t n_pub1 = (uint64_t)z->n_public + 1, n_priv = z->n_vars - n_pub1;
    put(f, "zkey", 4);
    put_u32(f, 1);
    put_u32(f, N_SECTIONS);
    put_section(f, 1, 4);
    put_u32(f, 1); /* groth16 */
    put_section(f, 2, GROTH16_HEADER);
    put_groth16_header(f, z);
    put_section(f, 3, n_pub1 * G1_BYTES);
    put_g1s(f, z->ic, n_pub1);
    put_section(f, 4, 4 + (uint64_t)z->n_coefs * COEF_BYTES);
    put_coefs(f, z);
    put_section(f, 5, (uint64_t)z->n_vars * G1_BYTES);
    put_g1s(f, z->a, z->n_vars);
    put_section(f, 6, (uint64_t)z->n_vars * G1_BYTES);
    put_g1s(f, z->b1, z->n_vars);
    put_section(f, 7, (uint64_t)z->n_vars * G2_BYTES);
    put_g2s(f, z->b2, z->n_vars);
    put_section(f, 8, n_priv * G1_BYTES);
    put_g1s(f, z->c, n_priv);
    put_section(f, 9, (uint64_t)z->domain_size * G1_BYTES);
    put_g1s(f, z->h, z->domain_size);
    /* Contributions: the circuit hash (zeros: see the header) and none. */
    put_section(f, 10, CS_HASH_BYTES + 4);
    put(f, cs_hash, sizeof cs_hash);
    put_u32(f, 0);
}

int cz_zkey_write(const cz_zkey *z, const char *path, char *err, size_t errlen)
{
    char *tmp;
    size_t plen;
    FILE *f;
    int rc, e;
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (z == NULL || path == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey write: NULL argument");
    rc = validate(z, err, errlen);
    if (rc != CZ_OK)
        return rc;
    plen = strlen(path);
    tmp = malloc(plen + sizeof ".tmp");
    if (tmp == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "zkey write: out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", sizeof ".tmp");
    f = fopen(tmp, "wb");
    if (f == NULL) {
        rc = cz_fail(err, errlen, CZ_ERR_IO, "zkey write: %s: cannot create: %s", tmp,
                     strerror(errno));
        free(tmp);
        return rc;
    }
    sink s = {f, 0};
    put_zkey(&s, z);
    e = s.err;
    if (e == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        e = errno != 0 ? errno : EIO;
    if (fclose(f) != 0 && e == 0)
        e = errno != 0 ? errno : EIO;
    if (e == 0 && rename(tmp, path) != 0)
        e = errno;
    if (e != 0) {
        rc = cz_fail(err, errlen, CZ_ERR_IO, "zkey write: %s: %s", tmp, strerror(e));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}
