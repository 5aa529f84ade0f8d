/* bellperson .params / .vk files and 192-byte proofs (include/cuzk/groth16.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"

#define G1U CZ_G1_UNCOMPRESSED_BYTES
#define G2U CZ_G2_UNCOMPRESSED_BYTES
/* alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 */
#define VK_FIXED_BYTES (3 * G1U + 3 * G2U)

enum { SEC_IC, SEC_H, SEC_L, SEC_A, SEC_B_G1, SEC_B_G2, SEC_COUNT };
static const char *const SEC_NAME[SEC_COUNT] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

static uint32_t rd_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* The single allocation of decoded parameter data: every large array read
 * from a file comes from here (and goes back through block_free), so a
 * tracking allocator can be put in one place. */
static void *block_alloc(size_t bytes) { return malloc(bytes == 0 ? 1 : bytes); }

static void block_free(void *p) { free(p); }

/* ------------------------------------------------------------ layout --- */

/* Where each section's points start in the image and how many there are. */
typedef struct {
    size_t off[SEC_COUNT];
    size_t count[SEC_COUNT];
    int nsec; /* sections present: 1 (vk only) or SEC_COUNT */
    size_t decoded_bytes;
} layout;

static size_t sec_point_bytes(int s) { return s == SEC_B_G2 ? G2U : G1U; }

static size_t sec_elem_size(int s)
{
    return s == SEC_B_G2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
}

/* Walks the counts from the end of the six fixed vk points.  Each count is
 * compared against (bytes left) / (point size), so nothing overflows. */
static int parse_layout(layout *lo, const uint8_t *data, size_t len, int nsec, bool exact,
                        const char *what, char *err, size_t errlen)
{
    size_t pos = VK_FIXED_BYTES;
    if (len < pos) {
        cz_msgf(err, errlen, "%s: %zu bytes, shorter than the %d-byte verifying key points", what,
                len, VK_FIXED_BYTES);
        return CZ_ERR_TRUNCATED;
    }
    lo->nsec = nsec;
    lo->decoded_bytes = 0;
    for (int s = 0; s < nsec; s++) {
        if (len - pos < 4) {
            cz_msgf(err, errlen, "%s: section %s: file ends before its count at offset %zu", what,
                    SEC_NAME[s], pos);
            return CZ_ERR_TRUNCATED;
        }
        size_t n = rd_be32(data + pos);
        pos += 4;
        size_t pb = sec_point_bytes(s);
        if (n > (len - pos) / pb) {
            cz_msgf(err, errlen, "%s: section %s: count %zu needs %zu bytes, %zu left", what,
                    SEC_NAME[s], n, n * pb, len - pos); /* n < 2^32, pb <= 192: no overflow */
            return CZ_ERR_TRUNCATED;
        }
        lo->off[s] = pos;
        lo->count[s] = n;
        pos += n * pb;
        size_t es = sec_elem_size(s);
        if (n > (SIZE_MAX - lo->decoded_bytes) / es) {
            cz_msgf(err, errlen, "%s: decoded size overflows", what);
            return CZ_ERR_NOMEM;
        }
        lo->decoded_bytes += n * es;
    }
    if (exact && pos != len) {
        cz_msgf(err, errlen, "%s: %zu trailing bytes after the last section", what, len - pos);
        return CZ_ERR_BAD_FORMAT;
    }
    return CZ_OK;
}

/* --------------------------------------------------------- decoding --- */

/* The first failure in file order, kept as (index << 8 | code) so that a
 * minimum over all threads picks the lowest bad index. */
typedef struct {
    const uint8_t *src;
    void *dst;
    int sec;
    unsigned flags;
    _Atomic uint64_t first_bad; /* UINT64_MAX: none */
} dec_job;

static void note_bad(dec_job *j, size_t i, int code)
{
    uint64_t v = (uint64_t)i << 8 | (uint64_t)code;
    uint64_t cur = atomic_load(&j->first_bad);
    while (v < cur && !atomic_compare_exchange_weak(&j->first_bad, &cur, v)) {
    }
}

static void dec_range(void *ctx, size_t begin, size_t end)
{
    dec_job *j = ctx;
    size_t pb = sec_point_bytes(j->sec);
    for (size_t i = begin; i < end; i++) {
        if ((atomic_load_explicit(&j->first_bad, memory_order_relaxed) >> 8) < i)
            return; /* an earlier point already failed */
        const uint8_t *in = j->src + i * pb;
        int rc = j->sec == SEC_B_G2 ? cz_g2_decode((cz_g2_affine *)j->dst + i, in, pb, j->flags)
                                    : cz_g1_decode((cz_g1_affine *)j->dst + i, in, pb, j->flags);
        if (rc != CZ_OK) {
            note_bad(j, i, rc);
            return;
        }
    }
}

/* Decodes section s of n points at src into dst. */
static int decode_section(void *dst, const uint8_t *src, size_t n, int s, unsigned flags,
                          cz_pool *pool, const char *what, char *err, size_t errlen)
{
    dec_job j = {src, dst, s, flags, UINT64_MAX};
    size_t grain = s == SEC_B_G2 ? 64 : 256; /* tens of ms per chunk */
    cz_pool_parallel_for(pool, n, grain, dec_range, &j);
    uint64_t bad = atomic_load(&j.first_bad);
    if (bad == UINT64_MAX)
        return CZ_OK;
    int rc = (int)(bad & 0xff);
    cz_msgf(err, errlen, "%s: section %s, point %llu: %s", what, SEC_NAME[s],
            (unsigned long long)(bad >> 8), cz_strerror(rc));
    return rc;
}

/* The six fixed vk points at data (VK_FIXED_BYTES bytes, already present):
 * full checks, infinity allowed (bellperson's VerifyingKey::read). */
static int decode_vk_fixed(cz_groth16_vk *vk, const uint8_t *d, const char *what, char *err,
                           size_t errlen)
{
    static const char *const name[6] = {"alpha_g1", "beta_g1",  "beta_g2",
                                        "gamma_g2", "delta_g1", "delta_g2"};
    int rc[6];
    rc[0] = cz_g1_decode(&vk->alpha_g1, d, G1U, CZ_DECODE_DEFAULT);
    rc[1] = cz_g1_decode(&vk->beta_g1, d + G1U, G1U, CZ_DECODE_DEFAULT);
    rc[2] = cz_g2_decode(&vk->beta_g2, d + 2 * G1U, G2U, CZ_DECODE_DEFAULT);
    rc[3] = cz_g2_decode(&vk->gamma_g2, d + 2 * G1U + G2U, G2U, CZ_DECODE_DEFAULT);
    rc[4] = cz_g1_decode(&vk->delta_g1, d + 2 * G1U + 2 * G2U, G1U, CZ_DECODE_DEFAULT);
    rc[5] = cz_g2_decode(&vk->delta_g2, d + 3 * G1U + 2 * G2U, G2U, CZ_DECODE_DEFAULT);
    for (int i = 0; i < 6; i++) {
        if (rc[i] != CZ_OK) {
            cz_msgf(err, errlen, "%s: verifying key %s: %s", what, name[i], cz_strerror(rc[i]));
            return rc[i];
        }
    }
    return CZ_OK;
}

/* Called around each section's decoding (file reader): before (done false)
 * and after (done true) section s, whose bytes end at offset end. */
typedef struct {
    void (*fn)(void *ctx, int s, size_t end, bool done);
    void *ctx;
} section_hook;

/* Decodes the vk and sections [0, lo->nsec) into p, all arrays carved from
 * one block. */
static int decode_all(cz_groth16_params *p, const uint8_t *data, const layout *lo, unsigned flags,
                      cz_pool *pool, const cz_allocator *alloc, const section_hook *hook,
                      const char *what, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->alloc = alloc;
    int rc = decode_vk_fixed(&p->vk, data, what, err, errlen);
    if (rc != CZ_OK)
        goto fail;
    uint8_t *mem = alloc ? cz_alloc(alloc, CZ_BUF_PARAMS, lo->decoded_bytes)
                         : block_alloc(lo->decoded_bytes);
    if (mem == NULL) {
        cz_msgf(err, errlen, "%s: cannot allocate %zu bytes", what, lo->decoded_bytes);
        rc = CZ_ERR_NOMEM;
        goto fail;
    }
    p->mem = mem;
    p->mem_bytes = lo->decoded_bytes;
    void *arr[SEC_COUNT] = {0};
    size_t at = 0;
    /* G1 arrays first, then b_g2: both element sizes are multiples of 8. */
    for (int s = 0; s < lo->nsec; s++) {
        arr[s] = mem + at;
        at += lo->count[s] * sec_elem_size(s);
    }
    for (int s = 0; s < lo->nsec; s++) {
        /* IC: full checks; queries: the curve only, their subgroup pass
         * comes after (query_pass).  Infinity is rejected in all of them. */
        unsigned f = CZ_DECODE_REJECT_INFINITY | (s == SEC_IC ? 0u : CZ_DECODE_SKIP_SUBGROUP);
        size_t end = lo->off[s] + lo->count[s] * sec_point_bytes(s);
        if (hook)
            hook->fn(hook->ctx, s, end, false);
        rc = decode_section(arr[s], data + lo->off[s], lo->count[s], s, f, pool, what, err, errlen);
        if (hook)
            hook->fn(hook->ctx, s, end, true);
        if (rc != CZ_OK)
            goto fail;
    }
    p->vk.n_ic = lo->count[SEC_IC];
    p->vk.ic = arr[SEC_IC];
    if (lo->nsec == SEC_COUNT) {
        p->n_h = lo->count[SEC_H], p->h = arr[SEC_H];
        p->n_l = lo->count[SEC_L], p->l = arr[SEC_L];
        p->n_a = lo->count[SEC_A], p->a = arr[SEC_A];
        p->n_b_g1 = lo->count[SEC_B_G1], p->b_g1 = arr[SEC_B_G1];
        p->n_b_g2 = lo->count[SEC_B_G2], p->b_g2 = arr[SEC_B_G2];
    }
    return CZ_OK;
fail:
    if (alloc && p->mem)
        cz_free(alloc, p->mem, p->mem_bytes);
    else
        block_free(p->mem);
    memset(p, 0, sizeof *p);
    return rc;
}

/* The query points' subgroup checks, section by section in file order
 * (cz_ec_first_outside_subgroup: G1 in one batch each, G2 point by point),
 * after the whole set is decoded: the first point outside in file order is
 * named whatever the thread count.  On failure p is freed. */
static int query_pass(cz_groth16_params *p, cz_pool *pool, const char *what, char *err,
                      size_t errlen)
{
    const void *arr[SEC_COUNT] = {NULL, p->h, p->l, p->a, p->b_g1, p->b_g2};
    const size_t cnt[SEC_COUNT] = {0, p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    for (int s = SEC_H; s < SEC_COUNT; s++) {
        size_t bad = 0;
        int rc = cz_ec_first_outside_subgroup(arr[s], cnt[s], s == SEC_B_G2, pool, &bad);
        if (rc == CZ_OK && bad < cnt[s])
            rc = CZ_ERR_NOT_IN_SUBGROUP;
        if (rc != CZ_OK) {
            if (rc == CZ_ERR_NOT_IN_SUBGROUP)
                cz_msgf(err, errlen, "%s: section %s, point %llu: %s", what, SEC_NAME[s],
                        (unsigned long long)bad, cz_strerror(rc));
            else
                cz_msgf(err, errlen, "%s: section %s: the subgroup check: %s", what, SEC_NAME[s],
                        cz_strerror(rc));
            cz_groth16_params_free(p);
            return rc;
        }
    }
    return CZ_OK;
}

/* ------------------------------------------------------------ public --- */

void cz_groth16_vk_free(cz_groth16_vk *vk)
{
    if (vk == NULL)
        return;
    block_free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

void cz_groth16_params_free(cz_groth16_params *p)
{
    if (p == NULL)
        return;
    cz_cuda_params_release(p); /* its device copies, if a GPU proof made them */
    if (p->alloc != NULL && p->mem != NULL)
        cz_free(p->alloc, p->mem, p->mem_bytes);
    else
        block_free(p->mem);
    memset(p, 0, sizeof *p);
}

bool cz_groth16_params_has_queries(const cz_groth16_params *p)
{
    return !((p->n_h && !p->h) || (p->n_l && !p->l) || (p->n_a && !p->a) ||
             (p->n_b_g1 && !p->b_g1) || (p->n_b_g2 && !p->b_g2));
}

int cz_groth16_params_drop_queries(cz_groth16_params *p, size_t *freed)
{
    if (freed)
        *freed = 0;
    if (p == NULL || p->mem == NULL || !cz_groth16_params_has_queries(p))
        return CZ_ERR_INVALID_ARG;
    size_t bytes = p->vk.n_ic * sizeof *p->vk.ic, nb = bytes ? bytes : 1;
    void *mem = p->alloc ? cz_alloc(p->alloc, CZ_BUF_PARAMS, nb) : block_alloc(nb);
    if (mem == NULL)
        return CZ_ERR_NOMEM;
    if (bytes)
        memcpy(mem, p->vk.ic, bytes);
    void *old = p->mem;
    size_t old_bytes = p->mem_bytes;
    p->vk.ic = mem;
    p->mem = mem;
    p->mem_bytes = nb;
    p->h = p->l = p->a = p->b_g1 = NULL;
    p->b_g2 = NULL;
    if (p->alloc)
        cz_free(p->alloc, old, old_bytes);
    else
        block_free(old);
    if (freed)
        *freed = old_bytes > nb ? old_bytes - nb : 0;
    return CZ_OK;
}

size_t cz_groth16_vk_encoded_size(size_t n_ic) { return VK_FIXED_BYTES + 4 + n_ic * G1U; }

int cz_groth16_params_decoded_size(size_t *decoded_bytes, const uint8_t *data, size_t len,
                                   unsigned flags, char *err, size_t errlen)
{
    if (decoded_bytes == NULL || (data == NULL && len != 0))
        return CZ_ERR_INVALID_ARG;
    layout lo;
    bool vk_only = (flags & CZ_PARAMS_VK_ONLY) != 0;
    int rc = parse_layout(&lo, data, len, vk_only ? 1 : SEC_COUNT, !vk_only, "params", err, errlen);
    *decoded_bytes = rc == CZ_OK ? lo.decoded_bytes : 0;
    return rc;
}

int cz_groth16_params_read_mem(cz_groth16_params *p, const uint8_t *data, size_t len,
                               unsigned flags, cz_pool *pool, char *err, size_t errlen)
{
    if (p == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(p, 0, sizeof *p);
    if (data == NULL && len != 0)
        return CZ_ERR_INVALID_ARG;
    layout lo;
    bool vk_only = (flags & CZ_PARAMS_VK_ONLY) != 0;
    int rc = parse_layout(&lo, data, len, vk_only ? 1 : SEC_COUNT, !vk_only, "params", err, errlen);
    if (rc == CZ_OK)
        rc = decode_all(p, data, &lo, flags, pool, NULL, NULL, "params", err, errlen);
    if (rc == CZ_OK && !vk_only && !(flags & CZ_DECODE_SKIP_SUBGROUP))
        rc = query_pass(p, pool, "params", err, errlen);
    return rc;
}

int cz_groth16_vk_read_mem(cz_groth16_vk *vk, const uint8_t *data, size_t len, char *err,
                           size_t errlen)
{
    if (vk == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(vk, 0, sizeof *vk);
    if (data == NULL && len != 0)
        return CZ_ERR_INVALID_ARG;
    layout lo;
    int rc = parse_layout(&lo, data, len, 1, true, "vk", err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_groth16_params p;
    rc = decode_all(&p, data, &lo, CZ_DECODE_DEFAULT, NULL, NULL, NULL, "vk", err, errlen);
    if (rc == CZ_OK)
        *vk = p.vk; /* the block holds exactly vk.ic */
    return rc;
}

/* Maps path read-only; *map is NULL for an empty file. */
static int map_file(const char *path, const uint8_t **map, size_t *len, const char *what, char *err,
                    size_t errlen)
{
    *map = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cz_msgf(err, errlen, "%s: cannot open %s", what, path);
        return CZ_ERR_IO;
    }
    struct stat st;
    int rc = CZ_OK;
    if (fstat(fd, &st) != 0 || st.st_size < 0) {
        cz_msgf(err, errlen, "%s: cannot stat %s", what, path);
        rc = CZ_ERR_IO;
    } else if (st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            cz_msgf(err, errlen, "%s: cannot mmap %s", what, path);
            rc = CZ_ERR_IO;
        } else {
            madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
            *map = m;
            *len = (size_t)st.st_size;
        }
    }
    close(fd);
    return rc;
}

int cz_groth16_params_read_file(cz_groth16_params *p, const char *path, unsigned flags,
                                cz_pool *pool, char *err, size_t errlen)
{
    cz_params_read_opts o = {.flags = flags, .pool = pool};
    return cz_groth16_params_read_file_ex(p, path, &o, err, errlen);
}

/* The file reader's pass over the mapping, section by section: while the
 * pool decodes a section, a thread of its own hashes the bytes up to the
 * section's end; once both are through it, the section's pages are dropped
 * from the process (MADV_DONTNEED: the mapping is read-only and read once),
 * so a 45 GB file never has more than its largest section (the 2^27 H
 * points, 13 GB at 32GiB) mapped in at once. */
typedef struct {
    const uint8_t *map;
    size_t len, hashed, dropped, end;
    cz_blake2b_ctx h;
    bool hashing, threaded;
    pthread_t th;
} pass;

static void *hash_range(void *arg)
{
    pass *ps = arg;
    cz_blake2b_update(&ps->h, ps->map + ps->hashed, ps->end - ps->hashed);
    return NULL;
}

static void pass_hook(void *ctx, int s, size_t end, bool done)
{
    (void)s;
    pass *ps = ctx;
    if (!done) {
        ps->end = end;
        ps->threaded = ps->hashing && pthread_create(&ps->th, NULL, hash_range, ps) == 0;
        if (ps->hashing && !ps->threaded)
            hash_range(ps);
        return;
    }
    if (ps->threaded)
        pthread_join(ps->th, NULL);
    ps->threaded = false;
    if (ps->hashing)
        ps->hashed = end;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), cut = end / page * page;
    if (cut > ps->dropped) {
        madvise((void *)(ps->map + ps->dropped), cut - ps->dropped, MADV_DONTNEED);
        ps->dropped = cut;
    }
}

int cz_groth16_params_read_file_ex(cz_groth16_params *p, const char *path,
                                   const cz_params_read_opts *o, char *err, size_t errlen)
{
    if (p == NULL || path == NULL || o == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(p, 0, sizeof *p);
    const uint8_t *map;
    size_t len;
    int rc = map_file(path, &map, &len, "params", err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_key_check *kc = o->check;
    pass ps = {.map = map, .len = len, .hashing = o->blake2b != NULL || kc != NULL};
    if (ps.hashing)
        cz_blake2b_init(&ps.h, 64, NULL, 0);
    if (kc) {
        kc->known = kc->checked = false;
        kc->digest.len = len;
    }
    section_hook hook = {pass_hook, &ps};
    layout lo;
    bool vk_only = (o->flags & CZ_PARAMS_VK_ONLY) != 0;
    rc = parse_layout(&lo, map, len, vk_only ? 1 : SEC_COUNT, !vk_only, "params", err, errlen);
    if (rc == CZ_OK)
        rc = decode_all(p, map, &lo, o->flags, o->pool, o->alloc, &hook, "params", err, errlen);
    if (ps.hashing) { /* whatever the sections left: the tail, or all on an error */
        uint8_t b2[64];
        cz_blake2b_update(&ps.h, map + ps.hashed, len - ps.hashed);
        cz_blake2b_final(&ps.h, b2);
        if (o->blake2b)
            memcpy(o->blake2b, b2, sizeof b2);
        if (kc)
            memcpy(kc->digest.b2, b2, sizeof b2);
    }
    if (map != NULL)
        munmap((void *)map, len);
    bool check = rc == CZ_OK && !vk_only && !(o->flags & CZ_DECODE_SKIP_SUBGROUP);
    if (check && kc && cz_checked_keys_has(kc->store, &kc->digest)) {
        kc->known = true;
        check = false;
    }
    if (check) {
        rc = query_pass(p, o->pool, "params", err, errlen);
        if (kc)
            kc->checked = rc == CZ_OK;
    }
    return rc;
}

int cz_groth16_vk_read_file(cz_groth16_vk *vk, const char *path, char *err, size_t errlen)
{
    if (vk == NULL || path == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(vk, 0, sizeof *vk);
    const uint8_t *map;
    size_t len;
    int rc = map_file(path, &map, &len, "vk", err, errlen);
    if (rc != CZ_OK)
        return rc;
    rc = cz_groth16_vk_read_mem(vk, map, len, err, errlen);
    if (map != NULL)
        munmap((void *)map, len);
    return rc;
}

/* ----------------------------------------------------------- writers --- */

static bool put_g1(FILE *f, const cz_g1_affine *p)
{
    uint8_t b[G1U];
    cz_g1_to_uncompressed(b, p);
    return fwrite(b, 1, sizeof b, f) == sizeof b;
}

static bool put_g2(FILE *f, const cz_g2_affine *p)
{
    uint8_t b[G2U];
    cz_g2_to_uncompressed(b, p);
    return fwrite(b, 1, sizeof b, f) == sizeof b;
}

static bool put_count(FILE *f, size_t n)
{
    uint8_t b[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    return fwrite(b, 1, 4, f) == 4;
}

static bool put_g1s(FILE *f, const cz_g1_affine *v, size_t n)
{
    bool ok = put_count(f, n);
    for (size_t i = 0; ok && i < n; i++)
        ok = put_g1(f, &v[i]);
    return ok;
}

static bool vk_args_ok(const cz_groth16_vk *vk)
{
    return vk->n_ic <= UINT32_MAX && (vk->n_ic == 0 || vk->ic != NULL);
}

static bool put_vk(FILE *f, const cz_groth16_vk *vk)
{
    return put_g1(f, &vk->alpha_g1) && put_g1(f, &vk->beta_g1) && put_g2(f, &vk->beta_g2) &&
           put_g2(f, &vk->gamma_g2) && put_g1(f, &vk->delta_g1) && put_g2(f, &vk->delta_g2) &&
           put_g1s(f, vk->ic, vk->n_ic);
}

int cz_groth16_vk_write(FILE *f, const cz_groth16_vk *vk)
{
    if (f == NULL || vk == NULL || !vk_args_ok(vk))
        return CZ_ERR_INVALID_ARG;
    return put_vk(f, vk) ? CZ_OK : CZ_ERR_IO;
}

int cz_groth16_params_write(FILE *f, const cz_groth16_params *p)
{
    if (f == NULL || p == NULL || !vk_args_ok(&p->vk))
        return CZ_ERR_INVALID_ARG;
    const size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    const void *v[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    for (int i = 0; i < 5; i++)
        if (n[i] > UINT32_MAX || (n[i] != 0 && v[i] == NULL))
            return CZ_ERR_INVALID_ARG;
    bool ok = put_vk(f, &p->vk) && put_g1s(f, p->h, p->n_h) && put_g1s(f, p->l, p->n_l) &&
              put_g1s(f, p->a, p->n_a) && put_g1s(f, p->b_g1, p->n_b_g1) && put_count(f, p->n_b_g2);
    for (size_t i = 0; ok && i < p->n_b_g2; i++)
        ok = put_g2(f, &p->b_g2[i]);
    return ok ? CZ_OK : CZ_ERR_IO;
}

/* Opens path, runs the writer, closes; a failed close is an I/O error. */
static int write_path(const char *path, int (*wr)(FILE *, const void *), const void *obj)
{
    if (path == NULL || obj == NULL)
        return CZ_ERR_INVALID_ARG;
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return CZ_ERR_IO;
    int rc = wr(f, obj);
    if (fclose(f) != 0 && rc == CZ_OK)
        rc = CZ_ERR_IO;
    return rc;
}

static int wr_vk(FILE *f, const void *obj) { return cz_groth16_vk_write(f, obj); }

static int wr_params(FILE *f, const void *obj) { return cz_groth16_params_write(f, obj); }

int cz_groth16_vk_write_file(const char *path, const cz_groth16_vk *vk)
{
    return write_path(path, wr_vk, vk);
}

int cz_groth16_params_write_file(const char *path, const cz_groth16_params *p)
{
    return write_path(path, wr_params, p);
}

/* ------------------------------------------------------------ proofs --- */

void cz_groth16_proof_to_bytes(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *p)
{
    cz_g1_to_compressed(out, &p->a);
    cz_g2_to_compressed(out + CZ_G1_COMPRESSED_BYTES, &p->b);
    cz_g1_to_compressed(out + CZ_G1_COMPRESSED_BYTES + CZ_G2_COMPRESSED_BYTES, &p->c);
}

int cz_groth16_proof_from_bytes(cz_groth16_proof *p, const uint8_t *in, size_t len)
{
    if (p == NULL || (in == NULL && len != 0))
        return CZ_ERR_INVALID_ARG;
    if (len != CZ_GROTH16_PROOF_BYTES)
        return CZ_ERR_BAD_LENGTH;
    cz_groth16_proof t;
    const unsigned f = CZ_DECODE_REJECT_INFINITY;
    int rc = cz_g1_decode(&t.a, in, CZ_G1_COMPRESSED_BYTES, f);
    if (rc == CZ_OK)
        rc = cz_g2_decode(&t.b, in + CZ_G1_COMPRESSED_BYTES, CZ_G2_COMPRESSED_BYTES, f);
    if (rc == CZ_OK)
        rc = cz_g1_decode(&t.c, in + CZ_G1_COMPRESSED_BYTES + CZ_G2_COMPRESSED_BYTES,
                          CZ_G1_COMPRESSED_BYTES, f);
    if (rc == CZ_OK)
        *p = t;
    return rc;
}
