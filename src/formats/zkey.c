/* snarkjs Groth16 .zkey reader (format in include/cuzk/zkey.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "binfile.h"
#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "cuzk/pool.h"
#include "cuzk/zkey.h"
#include "util/file_map.h"

enum {
    ZK_HEADER = 1,
    ZK_GROTH16 = 2,
    ZK_IC = 3,
    ZK_COEFS = 4,
    ZK_A = 5,
    ZK_B1 = 6,
    ZK_B2 = 7,
    ZK_C = 8,
    ZK_H = 9
};

#define ZK_PROTOCOL_GROTH16 1u
#define G1_BYTES            (2u * CZ_FP_BYTES)
#define G2_BYTES            (4u * CZ_FP_BYTES)
#define COEF_BYTES          (12u + CZ_FR_BYTES)

/* Little-endian bytes -> the limbs of a cz_fp or cz_fr, no conversion. */
static void raw_limbs(uint64_t *l, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        l[i] = 0;
        for (int j = 7; j >= 0; j--)
            l[i] = l[i] << 8 | p[8 * i + (size_t)j];
    }
}

/* A Montgomery-form coordinate, taken as it is once it is below p (no
 * conversion). */
static bool read_fp(cz_fp *r, const uint8_t *p)
{
    raw_limbs(r->l, p, 6);
    return cz_fp_is_reduced(r);
}

static int point_fail(const cz_binfile_cursor *c, uint64_t at, const char *what, uint64_t index,
                      int code, char *err, size_t errlen)
{
    const char *why = code == CZ_ERR_NOT_CANONICAL  ? "a coordinate is not below p"
                      : code == CZ_ERR_NOT_ON_CURVE ? "not on the curve"
                                                    : "not in the order-r subgroup";
    return cz_fail(err, errlen, code, "zkey: offset %llu: %s section (type %u): %s %llu: %s",
                   (unsigned long long)at, c->name, c->type, what, (unsigned long long)index, why);
}

/* Point i of out (cz_g2_affine with g2: x.c0, x.c1, y.c0, y.c1; else
 * cz_g1_affine: x, y) decoded from p, and its checks as the loaders report
 * them: CZ_OK, CZ_ERR_NOT_CANONICAL, CZ_ERR_NOT_ON_CURVE or
 * CZ_ERR_NOT_IN_SUBGROUP. */
static int decode_point(void *out, size_t i, bool g2, const uint8_t *p, unsigned flags)
{
    void *pt = (char *)out + i * (g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine));
    cz_g1_affine *a = pt;
    cz_g2_affine *b = pt;
    bool canonical = g2 ? read_fp(&b->x.c0, p) && read_fp(&b->x.c1, p + CZ_FP_BYTES) &&
                              read_fp(&b->y.c0, p + 2 * CZ_FP_BYTES) &&
                              read_fp(&b->y.c1, p + 3 * CZ_FP_BYTES)
                        : read_fp(&a->x, p) && read_fp(&a->y, p + CZ_FP_BYTES);
    if (!canonical)
        return CZ_ERR_NOT_CANONICAL;
    if (!(g2 ? cz_g2_affine_is_on_curve(b) : cz_g1_affine_is_on_curve(a)))
        return CZ_ERR_NOT_ON_CURVE;
    if (!(flags & CZ_ZKEY_SKIP_SUBGROUP) &&
        !(g2 ? cz_g2_affine_in_subgroup(b) : cz_g1_affine_in_subgroup(a)))
        return CZ_ERR_NOT_IN_SUBGROUP;
    return CZ_OK;
}

/* A section's points decoded in parallel chunks; the lowest failing index
 * wins, so the error is the one a pass in file order meets first, whatever
 * the threads.  A chunk stops at an index past the lowest bad one found. */
typedef struct {
    void *out;
    const uint8_t *src;
    bool g2;
    unsigned flags;
    _Atomic uint64_t first; /* UINT64_MAX: none yet */
} decode_job;

static void decode_task(void *vctx, size_t begin, size_t end)
{
    decode_job *j = vctx;
    size_t size = j->g2 ? G2_BYTES : G1_BYTES;
    for (size_t i = begin; i < end; i++) {
        if (i >= atomic_load(&j->first))
            return;
        const uint8_t *p = j->src + i * size;
        int rc = decode_point(j->out, i, j->g2, p, j->flags);
        if (rc != CZ_OK) {
            uint64_t cur = atomic_load(&j->first);
            while (i < cur && !atomic_compare_exchange_weak(&j->first, &cur, (uint64_t)i))
                ;
            return;
        }
    }
}

/* Reads n G1 points (or with g2 G2 points) from the cursor, whose remaining
 * bytes were checked to hold them, on pool's threads (NULL: this one); an
 * error names the first bad point in file order. */
static int read_points(void *out, uint64_t n, bool g2, cz_binfile_cursor *c, const char *what,
                       unsigned flags, cz_pool *pool, char *err, size_t errlen)
{
    size_t size = g2 ? G2_BYTES : G1_BYTES;
    const uint8_t *p = NULL;
    uint64_t at = c->off + c->pos;
    int rc = cz_binfile_bytes(c, &p, (size_t)n * size, what, err, errlen);
    if (rc != CZ_OK || n == 0)
        return rc;
    decode_job j = {.out = out, .src = p, .g2 = g2, .flags = flags};
    atomic_init(&j.first, UINT64_MAX);
    cz_pool_parallel_for(pool, (size_t)n, 4096, decode_task, &j);
    uint64_t bad = atomic_load(&j.first);
    if (bad == UINT64_MAX)
        return CZ_OK;
    /* the bad point again, for its code (cheap: one point) */
    union {
        cz_g1_affine g1;
        cz_g2_affine g2;
    } tmp;
    rc = decode_point(&tmp, 0, g2, p + bad * size, flags);
    return point_fail(c, at + bad * size, what, bad, rc, err, errlen);
}

static int read_g1s(cz_g1_affine *out, uint64_t n, cz_binfile_cursor *c, const char *what,
                    unsigned flags, cz_pool *pool, char *err, size_t errlen)
{
    return read_points(out, n, false, c, what, flags, pool, err, errlen);
}

static int read_g2s(cz_g2_affine *out, uint64_t n, cz_binfile_cursor *c, const char *what,
                    unsigned flags, cz_pool *pool, char *err, size_t errlen)
{
    return read_points(out, n, true, c, what, flags, pool, err, errlen);
}

/* u32 n8q then q: must be 48 and BLS12-381's p (p - 1 is the canonical
 * encoding of -1, and p's low byte 0xab makes the +1 carry-free). */
static int read_q(cz_binfile_cursor *c, char *err, size_t errlen)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t p_le[CZ_FP_BYTES];
    const uint8_t *q = NULL;
    uint32_t n8q;
    uint64_t at;
    char hex[2 * 64 + 3];
    size_t shown, k = 0;
    cz_fp m1;
    int rc = cz_binfile_u32(c, &n8q, "n8q", err, errlen);
    if (rc != CZ_OK)
        return rc;
    at = c->off + c->pos;
    rc = cz_binfile_bytes(c, &q, n8q, "the base field prime q", err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_fp_neg(&m1, &CZ_FP_ONE);
    cz_fp_to_bytes_le(p_le, &m1);
    p_le[0]++;
    if (n8q == CZ_FP_BYTES && memcmp(q, p_le, CZ_FP_BYTES) == 0)
        return CZ_OK;
    shown = n8q < 64 ? n8q : 64;
    if (n8q > 64)
        hex[k++] = '.', hex[k++] = '.';
    for (size_t i = shown; i-- > 0;) {
        hex[k++] = digits[q[i] >> 4];
        hex[k++] = digits[q[i] & 15];
    }
    hex[k] = 0;
    return cz_fail(err, errlen, CZ_ERR_WRONG_CURVE,
                   "zkey: offset %llu: wrong curve: base field prime q is 0x%s (n8q = "
                   "%u)%s, need BLS12-381 p (n8q = 48)",
                   (unsigned long long)at, hex, n8q,
                   n8q == 32 && q[31] == 0x30 && q[0] == 0x47 ? " (bn128?)" : "");
}

static int read_groth16_header(cz_zkey *z, cz_binfile_cursor *c, unsigned flags, char *err,
                               size_t errlen)
{
    uint32_t *const counts[] = {&z->n_vars, &z->n_public, &z->domain_size};
    static const char *const names[] = {"nVars", "nPublic", "domainSize"};
    /* the verifying key's points in file order: in G2 or G1, and named */
    const struct {
        void *p;
        bool g2;
        const char *what;
    } vk[] = {{&z->alpha1, false, "alpha1"}, {&z->beta1, false, "beta1"},
              {&z->beta2, true, "beta2"},    {&z->gamma2, true, "gamma2"},
              {&z->delta1, false, "delta1"}, {&z->delta2, true, "delta2"}};
    int rc = read_q(c, err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_field(c, err, errlen); /* n8r, r */
    if (rc == CZ_OK)
        rc = cz_binfile_u32s(c, counts, names, 3, err, errlen);
    for (size_t i = 0; rc == CZ_OK && i < sizeof vk / sizeof vk[0]; i++)
        rc = read_points(vk[i].p, 1, vk[i].g2, c, vk[i].what, flags, NULL, err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_end(c, err, errlen);
    if (rc != CZ_OK)
        return rc;
    if ((uint64_t)z->n_public + 1 > z->n_vars)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "zkey: offset %llu: groth16 header: nPublic + 1 = %llu exceeds "
                       "nVars = %u",
                       (unsigned long long)c->off, (unsigned long long)z->n_public + 1, z->n_vars);
    if (z->domain_size == 0 || (z->domain_size & (z->domain_size - 1)) != 0)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "zkey: offset %llu: groth16 header: domainSize = %u is not a "
                       "power of two",
                       (unsigned long long)c->off, z->domain_size);
    while ((1u << z->log_domain_size) != z->domain_size)
        z->log_domain_size++;
    return CZ_OK;
}

/* The section must hold exactly n elements of size bytes (n * size < 2^40:
 * no overflow). */
static int check_size(const cz_binfile_cursor *c, uint64_t n, uint64_t size, char *err,
                      size_t errlen)
{
    if (c->size - c->pos != n * size)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "zkey: offset %llu: %s section (type %u) has %llu bytes, its %llu "
                       "entries need %llu",
                       (unsigned long long)c->off, c->name, c->type,
                       (unsigned long long)(c->size - c->pos), (unsigned long long)n,
                       (unsigned long long)(n * size));
    return CZ_OK;
}

static int alloc_points(void **out, uint64_t n, size_t elem, char *err, size_t errlen)
{
    *out = malloc((size_t)n * elem + 1); /* +1: malloc(0) may return NULL */
    return *out != NULL ? CZ_OK : cz_fail(err, errlen, CZ_ERR_NOMEM, "zkey: out of memory");
}

static int read_g1_section(cz_g1_affine **out, uint64_t n, cz_binfile_cursor *c, const char *what,
                           unsigned flags, cz_pool *pool, char *err, size_t errlen)
{
    int rc = check_size(c, n, G1_BYTES, err, errlen);
    if (rc == CZ_OK)
        rc = alloc_points((void **)out, n, sizeof **out, err, errlen);
    if (rc == CZ_OK)
        rc = read_g1s(*out, n, c, what, flags, pool, err, errlen);
    return rc;
}

static int read_coefs(cz_zkey *z, cz_binfile_cursor *c, char *err, size_t errlen)
{
    /* raw * 1 / R: the file's v*R^2 becomes v*R, cz_fr's form of v. */
    static const cz_fr r_inv = {{1, 0, 0, 0}};
    int rc = cz_binfile_u32(c, &z->n_coefs, "the coefficient count", err, errlen);
    if (rc == CZ_OK)
        rc = check_size(c, z->n_coefs, COEF_BYTES, err, errlen);
    if (rc == CZ_OK)
        rc = alloc_points((void **)&z->coefs, z->n_coefs, sizeof *z->coefs, err, errlen);
    for (uint32_t i = 0; rc == CZ_OK && i < z->n_coefs; i++) {
        cz_zkey_coef *e = &z->coefs[i];
        const uint8_t *v = NULL;
        cz_fr raw;
        uint64_t at = c->off + c->pos;
        /* All four fit: the size was checked. */
        cz_binfile_u32(c, &e->matrix, "a matrix id", err, errlen);
        cz_binfile_u32(c, &e->constraint, "a constraint", err, errlen);
        cz_binfile_u32(c, &e->signal, "a signal", err, errlen);
        cz_binfile_bytes(c, &v, CZ_FR_BYTES, "a value", err, errlen);
        if (e->matrix > 1 || e->constraint >= z->domain_size || e->signal >= z->n_vars)
            return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                           "zkey: offset %llu: coefficients section (type 4): entry %u: "
                           "matrix %u (need 0 or 1), constraint %u (need < domainSize = "
                           "%u), signal %u (need < nVars = %u)",
                           (unsigned long long)at, i, e->matrix, e->constraint, z->domain_size,
                           e->signal, z->n_vars);
        if (cz_fr_from_bytes_le(&raw, v) != CZ_OK)
            return cz_fail(err, errlen, CZ_ERR_NOT_CANONICAL,
                           "zkey: offset %llu: coefficients section (type 4): entry %u: "
                           "value is not below r",
                           (unsigned long long)(at + 12), i);
        raw_limbs(raw.l, v, 4);
        cz_fr_mul(&e->value, &raw, &r_inv);
    }
    return rc;
}

static int load(cz_zkey *z, const uint8_t *data, size_t len, unsigned flags, uint64_t sec_off[10],
                cz_pool *pool, char *err, size_t errlen)
{
    cz_binfile bf;
    cz_binfile_cursor s[10];
    static const char *const names[10] = {
        NULL, "header", "groth16 header", "IC", "coefficients", "A", "B1", "B2", "C", "H"};
    uint32_t protocol = 0;
    uint64_t n_priv;
    /* points of the big sections: subgroup checks later, in parallel */
    unsigned qflags = flags | CZ_ZKEY_SKIP_SUBGROUP;
    int rc = cz_binfile_open(&bf, data, len, "zkey", 1, 1, err, errlen);
    if (rc != CZ_OK)
        return rc;
    for (uint32_t t = ZK_HEADER; t <= ZK_H && rc == CZ_OK; t++) {
        rc = cz_binfile_section_get(&bf, &s[t], t, true, names[t], err, errlen);
        sec_off[t] = s[t].off;
    }
    if (rc == CZ_OK)
        rc = cz_binfile_u32(&s[ZK_HEADER], &protocol, "the protocol", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_end(&s[ZK_HEADER], err, errlen);
    if (rc == CZ_OK && protocol != ZK_PROTOCOL_GROTH16)
        rc = cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                     "zkey: offset %llu: header: protocol %u is not groth16 (1)",
                     (unsigned long long)s[ZK_HEADER].off, protocol);
    if (rc == CZ_OK)
        rc = read_groth16_header(z, &s[ZK_GROTH16], flags, err, errlen);
    n_priv = rc == CZ_OK ? (uint64_t)z->n_vars - z->n_public - 1 : 0;
    /* Every section's size is matched to its count before its allocation, so
     * memory stays proportional to len. */
    if (rc == CZ_OK)
        rc = read_g1_section(&z->ic, (uint64_t)z->n_public + 1, &s[ZK_IC], "IC point", qflags,
                             pool, err, errlen);
    if (rc == CZ_OK)
        rc = read_coefs(z, &s[ZK_COEFS], err, errlen);
    if (rc == CZ_OK)
        rc = read_g1_section(&z->a, z->n_vars, &s[ZK_A], "A point", qflags, pool, err, errlen);
    if (rc == CZ_OK)
        rc = read_g1_section(&z->b1, z->n_vars, &s[ZK_B1], "B1 point", qflags, pool, err, errlen);
    if (rc == CZ_OK)
        rc = check_size(&s[ZK_B2], z->n_vars, G2_BYTES, err, errlen);
    if (rc == CZ_OK)
        rc = alloc_points((void **)&z->b2, z->n_vars, sizeof *z->b2, err, errlen);
    if (rc == CZ_OK)
        rc = read_g2s(z->b2, z->n_vars, &s[ZK_B2], "B2 point", qflags, pool, err, errlen);
    if (rc == CZ_OK)
        rc = read_g1_section(&z->c, n_priv, &s[ZK_C], "C point", qflags, pool, err, errlen);
    if (rc == CZ_OK)
        rc = read_g1_section(&z->h, z->domain_size, &s[ZK_H], "H point", qflags, pool, err, errlen);
    cz_binfile_close(&bf);
    return rc;
}

/* ------------------------------------------------- subgroup checks --- */

/* The subgroup checks run after decoding (cz_ec_first_outside_subgroup:
 * G1 sections as one batch each, G2 point by point, in parallel); the
 * error reported is the first bad point in file order, whatever the
 * thread count. */
static int subgroup_pass(const cz_zkey *z, const uint64_t sec_off[10], cz_pool *pool, char *err,
                         size_t errlen)
{
    struct {
        uint32_t type;
        const char *name, *what;
        const void *pts;
        uint64_t n;
        int g2;
    } secs[] = {
        {ZK_IC, "IC", "IC point", z->ic, (uint64_t)z->n_public + 1, 0},
        {ZK_A, "A", "A point", z->a, z->n_vars, 0},
        {ZK_B1, "B1", "B1 point", z->b1, z->n_vars, 0},
        {ZK_B2, "B2", "B2 point", z->b2, z->n_vars, 1},
        {ZK_C, "C", "C point", z->c, (uint64_t)z->n_vars - z->n_public - 1, 0},
        {ZK_H, "H", "H point", z->h, z->domain_size, 0},
    };
    for (size_t k = 0; k < sizeof secs / sizeof secs[0]; k++) {
        size_t bad = 0;
        int rc = cz_ec_first_outside_subgroup(secs[k].pts, (size_t)secs[k].n, secs[k].g2, pool,
                                              &bad);
        if (rc != CZ_OK)
            return cz_fail(err, errlen, rc, "zkey: the %s section's subgroup check: %s",
                           secs[k].name, cz_strerror(rc));
        if (bad < secs[k].n)
            return cz_fail(err, errlen, CZ_ERR_NOT_IN_SUBGROUP,
                           "zkey: offset %llu: %s section (type %u): %s %llu: not in the "
                           "order-r subgroup",
                           (unsigned long long)(sec_off[secs[k].type] +
                                                bad * (secs[k].g2 ? G2_BYTES : G1_BYTES)),
                           secs[k].name, secs[k].type, secs[k].what, (unsigned long long)bad);
    }
    return CZ_OK;
}

/* The file's BLAKE2b-512, on a thread of its own beside the decoding. */
typedef struct {
    const uint8_t *data;
    size_t len;
    uint8_t *out;
} hash_job;

static void *hash_all(void *arg)
{
    hash_job *h = arg;
    cz_blake2b(h->out, 64, NULL, 0, h->data, h->len);
    return NULL;
}

/* The loaders' common path: kc NULL, or its store consulted by the
 * image's digest before the subgroup checks. */
static int load_checked(cz_zkey *out, const uint8_t *data, size_t len, unsigned flags,
                        cz_pool *pool, cz_key_check *kc, char *err, size_t errlen)
{
    int rc;
    uint64_t sec_off[10] = {0};
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL || (data == NULL && len > 0))
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey: NULL argument");
    memset(out, 0, sizeof *out);
    hash_job hj = {data, len, NULL};
    pthread_t th;
    bool threaded = false;
    if (kc != NULL) {
        kc->known = kc->checked = false;
        kc->digest.len = len;
        hj.out = kc->digest.b2;
        threaded = pthread_create(&th, NULL, hash_all, &hj) == 0;
        if (!threaded)
            hash_all(&hj);
    }
    rc = load(out, data, len, flags, sec_off, pool, err, errlen);
    if (threaded)
        pthread_join(th, NULL);
    bool check = rc == CZ_OK && !(flags & CZ_ZKEY_SKIP_SUBGROUP);
    if (check && kc != NULL && cz_checked_keys_has(kc->store, &kc->digest)) {
        kc->known = true;
        check = false;
    }
    if (check) {
        rc = subgroup_pass(out, sec_off, pool, err, errlen);
        if (kc != NULL)
            kc->checked = rc == CZ_OK;
    }
    if (rc != CZ_OK)
        cz_zkey_free(out);
    return rc;
}

int cz_zkey_load_mem_ex(cz_zkey *out, const uint8_t *data, size_t len, unsigned flags,
                        cz_pool *pool, char *err, size_t errlen)
{
    return load_checked(out, data, len, flags, pool, NULL, err, errlen);
}

int cz_zkey_load_mem(cz_zkey *out, const uint8_t *data, size_t len, unsigned flags, char *err,
                     size_t errlen)
{
    return cz_zkey_load_mem_ex(out, data, len, flags, NULL, err, errlen);
}

int cz_zkey_load(cz_zkey *out, const char *path, unsigned flags, char *err, size_t errlen)
{
    return cz_zkey_load_ex(out, path, flags, NULL, err, errlen);
}

int cz_zkey_load_ex(cz_zkey *out, const char *path, unsigned flags, cz_pool *pool, char *err,
                    size_t errlen)
{
    return cz_zkey_load_with(out, path, flags, pool, NULL, err, errlen);
}

/* load_checked's arguments beside the bytes, for cz_binfile_read_path. */
typedef struct {
    cz_zkey *z;
    unsigned flags;
    cz_pool *pool;
    cz_key_check *kc;
} load_args;

static int load_file_mem(void *out, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    const load_args *a = out;
    return load_checked(a->z, data, len, a->flags, a->pool, a->kc, err, errlen);
}

int cz_zkey_load_with(cz_zkey *out, const char *path, unsigned flags, cz_pool *pool,
                      cz_key_check *kc, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL || path == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey: NULL argument");
    memset(out, 0, sizeof *out);
    load_args a = {out, flags, pool, kc};
    return cz_file_read_mapped(path, load_file_mem, &a, err, errlen);
}

void cz_zkey_free(cz_zkey *z)
{
    if (z == NULL)
        return;
    free(z->ic);
    free(z->coefs);
    free(z->a);
    free(z->b1);
    free(z->b2);
    free(z->c);
    free(z->h);
    memset(z, 0, sizeof *z);
}
