/* The pre-compiled R1CS file ("PCE"): save, map and validate.
 *
 * Layout, all integers little-endian:
 *
 *   offset  size  field
 *        0     8  magic "CZPCE\0\0\0"
 *        8     4  version (CZ_PCE_VERSION)
 *       12     4  flags (0)
 *       16    32  n_inputs, n_aux, n_constraints, n_circuit_constraints
 *       48    48  nnz, ngen of A, then B, then C
 *       96     8  body length (file length - 128)
 *      104    16  reserved, zero
 *      120     8  checksum (below) of bytes [0, 120) and [128, end)
 *      128        for A, B, C in turn, each section starting on a 64-byte
 *                 boundary with zero bytes before it:
 *                   row_ptr  u64[n_constraints + 1]
 *                   coef_blk u64[n_constraints / 64 + 1]
 *                   col      u32[nnz]
 *                   coef     Fr[ngen] (Montgomery form, 4 x u64)
 *                 the file ends right after C's coef (a multiple of 32).
 *
 * The arrays are exactly cz_csr's, so a mapped file is used in place.
 *
 * Checksum: four lanes over the 64-bit words of the checksummed bytes (word
 * i goes to lane i mod 4), lane = rotl(lane ^ w * K1, 31) * K2, then the
 * lanes are folded with the word count and finalised with the murmur3
 * 64-bit mixer.  Not cryptographic: it catches corruption, not forgery. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs/cs_internal.h"
#include "cuzk/err.h"

#define HDR      128
#define CK_OFF   120
#define MAX_ROWS ((uint64_t)1 << 40)
#define MAX_NNZ  ((uint64_t)1 << 40)

static const uint8_t pce_magic[8] = {'C', 'Z', 'P', 'C', 'E', 0, 0, 0};

/* ------------------------------------------------------------ checksum --- */

#define K1 0x9e3779b185ebca87ULL
#define K2 0xc2b2ae3d27d4eb4fULL

typedef struct {
    uint64_t h[4];
    uint64_t n; /* words consumed */
    uint8_t carry[8];
    size_t nc;
} hasher;

static uint64_t rotl(uint64_t x, int s) { return x << s | x >> (64 - s); }

static void h_init(hasher *s)
{
    memset(s, 0, sizeof *s);
    s->h[0] = 0x43505a4345ULL; /* "CZPCE" */
    s->h[1] = K1;
    s->h[2] = K2;
    s->h[3] = ~K1;
}

static void h_word(hasher *s, uint64_t w)
{
    uint64_t *l = &s->h[s->n & 3];
    *l = rotl(*l ^ w * K1, 31) * K2;
    s->n++;
}

static void h_update(hasher *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (s->nc && len) {
        s->carry[s->nc++] = *p++;
        len--;
        if (s->nc == 8) {
            uint64_t w;
            memcpy(&w, s->carry, 8);
            h_word(s, w);
            s->nc = 0;
        }
    }
    for (; len >= 8 && (s->n & 3); p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h_word(s, w);
    }
    /* four words per step, one per lane */
    uint64_t h0 = s->h[0], h1 = s->h[1], h2 = s->h[2], h3 = s->h[3];
    for (; len >= 32; p += 32, len -= 32) {
        uint64_t w[4];
        memcpy(w, p, 32);
        h0 = rotl(h0 ^ w[0] * K1, 31) * K2;
        h1 = rotl(h1 ^ w[1] * K1, 31) * K2;
        h2 = rotl(h2 ^ w[2] * K1, 31) * K2;
        h3 = rotl(h3 ^ w[3] * K1, 31) * K2;
        s->n += 4;
    }
    s->h[0] = h0, s->h[1] = h1, s->h[2] = h2, s->h[3] = h3;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h_word(s, w);
    }
    while (len--)
        s->carry[s->nc++] = *p++;
}

static uint64_t h_final(hasher *s)
{
    if (s->nc) { /* never for a well-formed file: every piece is 8-byte aligned */
        memset(s->carry + s->nc, 0, 8 - s->nc);
        uint64_t w;
        memcpy(&w, s->carry, 8);
        h_word(s, w ^ (uint64_t)s->nc << 56);
    }
    uint64_t h = s->h[0] ^ rotl(s->h[1], 7) ^ rotl(s->h[2], 13) ^ rotl(s->h[3], 19) ^ s->n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* -------------------------------------------------------------- layout --- */

typedef struct {
    uint64_t n_in, n_aux, n_rows, n_circ;
    uint64_t nnz[3], ngen[3];
    /* section offsets: [matrix][row_ptr, coef_blk, col, coef], and end */
    uint64_t off[3][4], len[3][4], end;
} layout;

static uint64_t align64(uint64_t x) { return (x + 63) & ~(uint64_t)63; }

/* Requires the counts within MAX_ROWS / MAX_NNZ: nothing overflows. */
static void compute_layout(layout *L)
{
    uint64_t o = HDR;
    for (int k = 0; k < 3; k++) {
        L->len[k][0] = (L->n_rows + 1) * 8;
        L->len[k][1] = (L->n_rows / CZ_CSR_BLOCK + 1) * 8;
        L->len[k][2] = L->nnz[k] * 4;
        L->len[k][3] = L->ngen[k] * sizeof(cz_fr);
        for (int s = 0; s < 4; s++) {
            o = align64(o);
            L->off[k][s] = o;
            o += L->len[k][s];
        }
    }
    L->end = o;
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void write_header(uint8_t h[HDR], const layout *L)
{
    memset(h, 0, HDR);
    memcpy(h, pce_magic, 8);
    uint32_t ver = CZ_PCE_VERSION, flags = 0;
    memcpy(h + 8, &ver, 4);
    memcpy(h + 12, &flags, 4);
    put64(h + 16, L->n_in);
    put64(h + 24, L->n_aux);
    put64(h + 32, L->n_rows);
    put64(h + 40, L->n_circ);
    for (int k = 0; k < 3; k++) {
        put64(h + 48 + 16 * k, L->nnz[k]);
        put64(h + 56 + 16 * k, L->ngen[k]);
    }
    put64(h + 96, L->end - HDR);
}

/* ---------------------------------------------------------------- save --- */

/* Feeds the body (sections and padding) to sink: hashing or writing. */
typedef int sink_fn(void *ctx, const void *p, size_t n);

static int emit_body(const cz_r1cs *r, const layout *L, sink_fn *sink, void *ctx)
{
    static const uint8_t zeros[64];
    uint64_t pos = HDR;
    for (int k = 0; k < 3; k++) {
        const void *src[4] = {r->m[k].row_ptr, r->m[k].coef_blk, r->m[k].col, r->m[k].coef};
        for (int s = 0; s < 4; s++) {
            if (L->off[k][s] > pos && sink(ctx, zeros, (size_t)(L->off[k][s] - pos)))
                return -1;
            if (L->len[k][s] && sink(ctx, src[s], (size_t)L->len[k][s]))
                return -1;
            pos = L->off[k][s] + L->len[k][s];
        }
    }
    return 0;
}

static int hash_sink(void *ctx, const void *p, size_t n)
{
    h_update(ctx, p, n);
    return 0;
}

static int file_sink(void *ctx, const void *p, size_t n)
{
    return fwrite(p, 1, n, ctx) == n ? 0 : -1;
}

static void layout_of(const cz_r1cs *r, layout *L)
{
    memset(L, 0, sizeof *L);
    L->n_in = r->n_in;
    L->n_aux = r->n_aux;
    L->n_rows = r->n_rows;
    L->n_circ = r->n_circ;
    for (int k = 0; k < 3; k++) {
        L->nnz[k] = r->m[k].nnz;
        L->ngen[k] = r->m[k].ngen;
    }
    compute_layout(L);
}

int cz_pce_save(const cz_r1cs *r, const char *path)
{
    if (r == NULL || path == NULL)
        return CZ_ERR_INVALID_ARG;
    layout L;
    layout_of(r, &L);
    uint8_t h[HDR];
    write_header(h, &L);
    hasher hs;
    h_init(&hs);
    h_update(&hs, h, CK_OFF);
    emit_body(r, &L, hash_sink, &hs);
    put64(h + CK_OFF, h_final(&hs));
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return CZ_ERR_IO;
    int bad = fwrite(h, 1, HDR, f) != HDR || emit_body(r, &L, file_sink, f);
    bad |= fclose(f) != 0;
    return bad ? CZ_ERR_IO : CZ_OK;
}

/* ---------------------------------------------------------------- load --- */

static int fail(char *msg, size_t msg_len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *msg, size_t msg_len, int err, const char *fmt, ...)
{
    if (msg_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msg_len, fmt, ap);
        va_end(ap);
    }
    return err;
}

static const char mat_name[3] = {'A', 'B', 'C'};

/* r as 4 little-endian limbs. */
static const uint64_t fr_modulus[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static int fr_lt_modulus(const cz_fr *a)
{
    for (int i = 3; i >= 0; i--)
        if (a->l[i] != fr_modulus[i])
            return a->l[i] < fr_modulus[i];
    return 0;
}

/* Validates matrix k of r (arrays already pointing into the file). */
static int check_matrix(const cz_r1cs *r, int k, char *msg, size_t ml)
{
    const cz_csr *m = &r->m[k];
    char nm = mat_name[k];
    uint64_t cols = r->n_in + r->n_aux;
    if (m->row_ptr[0] != 0 || m->row_ptr[r->n_rows] != m->nnz)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: row pointers do not span 0..nnz", nm);
    for (uint64_t i = 0; i < r->n_rows; i++)
        if (m->row_ptr[i + 1] < m->row_ptr[i])
            return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: row pointer %llu decreases", nm,
                        (unsigned long long)i + 1);
    uint64_t nb = r->n_rows / CZ_CSR_BLOCK + 1;
    if (m->coef_blk[0] != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: coefficient block 0 does not start at 0", nm);
    uint64_t g = 0;
    for (uint64_t b = 0; b < nb; b++) {
        if (m->coef_blk[b] != g)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                        "%c: coefficient block %llu starts at %llu, expected %llu", nm,
                        (unsigned long long)b, (unsigned long long)m->coef_blk[b],
                        (unsigned long long)g);
        uint64_t r0 = b * CZ_CSR_BLOCK;
        uint64_t r1 = r0 + CZ_CSR_BLOCK < r->n_rows ? r0 + CZ_CSR_BLOCK : r->n_rows;
        for (uint64_t row = r0; row < r1; row++) {
            uint64_t prev = 0;
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                uint32_t x = m->col[e];
                uint64_t c = x & CZ_CSR_COL_MASK;
                if (CZ_CSR_KIND(x) > CZ_CSR_NEG)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: entry %llu has an unknown kind",
                                nm, (unsigned long long)e);
                if (c >= cols)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: entry %llu column %llu out of range (%llu columns)", nm,
                                (unsigned long long)e, (unsigned long long)c,
                                (unsigned long long)cols);
                if (e > m->row_ptr[row] && c <= prev)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: row %llu columns not strictly increasing", nm,
                                (unsigned long long)row);
                prev = c;
                g += CZ_CSR_KIND(x) == CZ_CSR_GEN;
            }
        }
        if (g > m->ngen)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: more general entries than coefficients",
                        nm);
    }
    if (g != m->ngen)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: %llu general entries but %llu coefficients",
                    nm, (unsigned long long)g, (unsigned long long)m->ngen);
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    for (uint64_t i = 0; i < m->ngen; i++) {
        const cz_fr *c = &m->coef[i];
        if (!fr_lt_modulus(c))
            return fail(msg, ml, CZ_ERR_NOT_CANONICAL, "%c: coefficient %llu is not below r", nm,
                        (unsigned long long)i);
        if (cz_fr_is_zero(c) || cz_fr_is_one(c) || cz_fr_equal(c, &m1))
            return fail(msg, ml, CZ_ERR_NOT_CANONICAL,
                        "%c: coefficient %llu is 0, 1 or -1 (stored as a general entry)", nm,
                        (unsigned long long)i);
    }
    return CZ_OK;
}

static int load_core(cz_r1cs **out, const uint8_t *p, size_t len, unsigned flags, char *msg,
                     size_t ml)
{
    if (len < HDR)
        return fail(msg, ml, CZ_ERR_TRUNCATED, "file is %zu bytes, shorter than the %d-byte header",
                    len, HDR);
    if (memcmp(p, pce_magic, 8) != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "bad magic (not a CZPCE file)");
    uint32_t ver, fl;
    memcpy(&ver, p + 8, 4);
    memcpy(&fl, p + 12, 4);
    if (ver != CZ_PCE_VERSION)
        return fail(msg, ml, CZ_ERR_UNSUPPORTED, "version %u, this build reads version %u", ver,
                    CZ_PCE_VERSION);
    if (fl != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "unknown flags 0x%x", fl);
    if (get64(p + 104) != 0 || get64(p + 112) != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "reserved header bytes are not zero");
    layout L;
    memset(&L, 0, sizeof L);
    L.n_in = get64(p + 16);
    L.n_aux = get64(p + 24);
    L.n_rows = get64(p + 32);
    L.n_circ = get64(p + 40);
    if (L.n_in == 0 || L.n_in > CZ_CS_MAX_VARS || L.n_aux > CZ_CS_MAX_VARS)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                    "variable counts out of range (%llu inputs, %llu aux)",
                    (unsigned long long)L.n_in, (unsigned long long)L.n_aux);
    if (L.n_circ > MAX_ROWS || L.n_rows != L.n_circ + L.n_in)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                    "constraint counts inconsistent (%llu rows, %llu circuit, %llu inputs)",
                    (unsigned long long)L.n_rows, (unsigned long long)L.n_circ,
                    (unsigned long long)L.n_in);
    for (int k = 0; k < 3; k++) {
        L.nnz[k] = get64(p + 48 + 16 * k);
        L.ngen[k] = get64(p + 56 + 16 * k);
        if (L.nnz[k] > MAX_NNZ || L.ngen[k] > L.nnz[k])
            return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: entry counts out of range", mat_name[k]);
    }
    compute_layout(&L);
    if (get64(p + 96) != L.end - HDR)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "body length %llu, the counts imply %llu",
                    (unsigned long long)get64(p + 96), (unsigned long long)(L.end - HDR));
    if (len < L.end)
        return fail(msg, ml, CZ_ERR_TRUNCATED, "file is %zu bytes, the header implies %llu", len,
                    (unsigned long long)L.end);
    if (len > L.end)
        return fail(msg, ml, CZ_ERR_BAD_LENGTH, "file is %zu bytes, the header implies %llu", len,
                    (unsigned long long)L.end);
    if (!(flags & CZ_PCE_NO_CHECKSUM)) {
        hasher hs;
        h_init(&hs);
        h_update(&hs, p, CK_OFF);
        h_update(&hs, p + HDR, len - HDR);
        if (h_final(&hs) != get64(p + CK_OFF))
            return fail(msg, ml, CZ_ERR_BAD_CHECKSUM, "checksum mismatch");
    }
    /* padding before each section */
    uint64_t pos = HDR;
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 4; s++) {
            for (uint64_t i = pos; i < L.off[k][s]; i++)
                if (p[i])
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT, "non-zero padding at byte %llu",
                                (unsigned long long)i);
            pos = L.off[k][s] + L.len[k][s];
        }
    cz_r1cs *r = calloc(1, sizeof *r);
    if (r == NULL)
        return fail(msg, ml, CZ_ERR_NOMEM, "out of memory");
    r->storage = CZ_R1CS_BORROWED;
    r->n_in = L.n_in;
    r->n_aux = L.n_aux;
    r->n_rows = L.n_rows;
    r->n_circ = L.n_circ;
    for (int k = 0; k < 3; k++) {
        r->m[k].row_ptr = (const uint64_t *)(const void *)(p + L.off[k][0]);
        r->m[k].coef_blk = (const uint64_t *)(const void *)(p + L.off[k][1]);
        r->m[k].col = (const uint32_t *)(const void *)(p + L.off[k][2]);
        r->m[k].coef = (const cz_fr *)(const void *)(p + L.off[k][3]);
        r->m[k].nnz = L.nnz[k];
        r->m[k].ngen = L.ngen[k];
    }
    int err = CZ_OK;
    for (int k = 0; k < 3 && err == CZ_OK; k++)
        err = check_matrix(r, k, msg, ml);
    /* the input constraints: A row n_circ + i = x_i, B and C rows empty */
    for (uint64_t i = 0; i < L.n_in && err == CZ_OK; i++) {
        uint64_t row = L.n_circ + i;
        const cz_csr *a = &r->m[CZ_MAT_A];
        if (a->row_ptr[row + 1] - a->row_ptr[row] != 1 ||
            a->col[a->row_ptr[row]] != (CZ_CSR_ONE << 30 | (uint32_t)i) ||
            r->m[1].row_ptr[row + 1] != r->m[1].row_ptr[row] ||
            r->m[2].row_ptr[row + 1] != r->m[2].row_ptr[row])
            err = fail(msg, ml, CZ_ERR_BAD_FORMAT, "input constraint %llu is malformed",
                       (unsigned long long)i);
    }
    if (err == CZ_OK && cz_r1cs_build_densities(r))
        err = fail(msg, ml, CZ_ERR_NOMEM, "out of memory");
    if (err) {
        cz_r1cs_free(r);
        return err;
    }
    *out = r;
    return CZ_OK;
}

int cz_pce_load_mem(cz_r1cs **out, const void *buf, size_t len, unsigned flags, char *msg,
                    size_t msg_len)
{
    if (msg_len)
        msg[0] = 0;
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if ((buf == NULL && len) || ((uintptr_t)buf & 7) || (flags & ~CZ_PCE_NO_CHECKSUM))
        return fail(msg, msg_len, CZ_ERR_INVALID_ARG,
                    "buffer NULL or not 8-byte aligned, or bad flags");
    return load_core(out, buf, len, flags, msg, msg_len);
}

int cz_pce_load(cz_r1cs **out, const char *path, unsigned flags, char *msg, size_t msg_len)
{
    if (msg_len)
        msg[0] = 0;
    if (out == NULL || path == NULL || (flags & ~CZ_PCE_NO_CHECKSUM))
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(msg, msg_len, CZ_ERR_IO, "cannot open %s", path);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return fail(msg, msg_len, CZ_ERR_IO, "cannot stat %s", path);
    }
    size_t len = (size_t)st.st_size;
    if (len < HDR) {
        close(fd);
        return fail(msg, msg_len, CZ_ERR_TRUNCATED,
                    "file is %zu bytes, shorter than the %d-byte header", len, HDR);
    }
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return fail(msg, msg_len, CZ_ERR_IO, "cannot map %s", path);
    int err = load_core(out, map, len, flags, msg, msg_len);
    if (err) {
        munmap(map, len);
        return err;
    }
    (*out)->storage = CZ_R1CS_MAPPED;
    (*out)->map = map;
    (*out)->map_len = len;
    return CZ_OK;
}
