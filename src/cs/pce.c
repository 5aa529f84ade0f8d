/* The pre-compiled R1CS file ("PCE"): save, map and validate.
 *
 * Layout, all integers little-endian:
 *
 *   offset  size  field
 *        0     8  magic "CZPCE\0\0\0"
 *        8     4  version (CZ_PCE_VERSION, 2)
 *       12     4  flags (0)
 *       16    32  n_inputs, n_aux, n_constraints, n_circuit_constraints
 *       48    72  nnz, ngen, ndict of A, then B, then C
 *      120     8  body length (file length - 192)
 *      128    56  reserved, zero
 *      184     8  checksum (below) of bytes [0, 184) and [192, end)
 *      192        for A, B, C in turn, each section starting on a 64-byte
 *                 boundary with zero bytes before it (rows = n_constraints):
 *                   row_blk  u64[rows / 64 + 1]
 *                   row_off  u32[rows + 1]
 *                   coef_blk u64[rows / 64 + 1]
 *                   col      u32[nnz]
 *                   gidx     u32[ngen]
 *                   dict     Fr[ndict] (Montgomery form, 4 x u64)
 *                 the file ends right after C's dict (a multiple of 32).
 *
 * The arrays are exactly cz_csr's, so a mapped file is used in place; the
 * loader checks every invariant cz_csr states (cuzk/cs.h), so that a file
 * that loads is safe to use.  For the 32GiB PoRep circuit (130.3M rows,
 * 722M entries, 226M general ones) that is 5.4 GB against version 1's
 * 13.3 GB, which stored u64 row pointers and 32 bytes per general entry:
 * the circuit has fewer than 2,000 distinct general coefficients.  Version
 * 1 files are refused (CZ_ERR_UNSUPPORTED) and must be regenerated.
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

#define HDR      192
#define CK_OFF   184
#define NSEC     6 /* sections per matrix */
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
    uint64_t nnz[3], ngen[3], ndict[3];
    /* section offsets and lengths: [matrix][row_blk, row_off, coef_blk,
     * col, gidx, dict], and the end */
    uint64_t off[3][NSEC], len[3][NSEC], end;
} layout;

static uint64_t align64(uint64_t x) { return (x + 63) & ~(uint64_t)63; }

/* Requires the counts within MAX_ROWS / MAX_NNZ: nothing overflows. */
static void compute_layout(layout *L)
{
    uint64_t o = HDR, nb = L->n_rows / CZ_CSR_BLOCK + 1;
    for (int k = 0; k < 3; k++) {
        L->len[k][0] = nb * 8;
        L->len[k][1] = (L->n_rows + 1) * 4;
        L->len[k][2] = nb * 8;
        L->len[k][3] = L->nnz[k] * 4;
        L->len[k][4] = L->ngen[k] * 4;
        L->len[k][5] = L->ndict[k] * sizeof(cz_fr);
        for (int s = 0; s < NSEC; s++) {
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
        put64(h + 48 + 24 * k, L->nnz[k]);
        put64(h + 56 + 24 * k, L->ngen[k]);
        put64(h + 64 + 24 * k, L->ndict[k]);
    }
    put64(h + 120, L->end - HDR);
}

/* ---------------------------------------------------------------- save --- */

/* Feeds the body (sections and padding) to sink: hashing or writing. */
typedef int sink_fn(void *ctx, const void *p, size_t n);

static int emit_body(const cz_r1cs *r, const layout *L, sink_fn *sink, void *ctx)
{
    static const uint8_t zeros[64];
    uint64_t pos = HDR;
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = &r->m[k];
        const void *src[NSEC] = {m->row_blk, m->row_off, m->coef_blk, m->col, m->gidx, m->dict};
        for (int s = 0; s < NSEC; s++) {
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
        L->ndict[k] = r->m[k].ndict;
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

/* Row offsets of matrix k: each block starts at its first row (row_off 0),
 * begin(r) never decreases, begin(0) = 0 and begin(rows) = nnz, so every
 * row lies in [0, nnz). */
static int check_rows(const cz_r1cs *r, int k, char *msg, size_t ml)
{
    const cz_csr *m = &r->m[k];
    char nm = mat_name[k];
    uint64_t nb = r->n_rows / CZ_CSR_BLOCK + 1, prev = 0;
    if (m->row_blk[0] != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: row 0 does not start at entry 0", nm);
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t r0 = b * CZ_CSR_BLOCK, r1 = r0 + CZ_CSR_BLOCK; /* rows r0 .. r1-1, and rows */
        if (r1 > r->n_rows + 1)
            r1 = r->n_rows + 1;
        /* begin(r0) = row_blk[b] >= prev, the begin of row r0 - 1 */
        if (m->row_blk[b] < prev || m->row_blk[b] > m->nnz)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                        "%c: block %llu starts at entry %llu, outside %llu .. nnz %llu", nm,
                        (unsigned long long)b, (unsigned long long)m->row_blk[b],
                        (unsigned long long)prev, (unsigned long long)m->nnz);
        if (m->row_off[r0] != 0)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                        "%c: row %llu starts block %llu but has offset %u, not 0", nm,
                        (unsigned long long)r0, (unsigned long long)b, m->row_off[r0]);
        for (uint64_t i = r0 + 1; i < r1; i++)
            if (m->row_off[i] < m->row_off[i - 1])
                return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                            "%c: row offset %llu goes backwards (%u after %u)", nm,
                            (unsigned long long)i, m->row_off[i], m->row_off[i - 1]);
        prev = m->row_blk[b] + m->row_off[r1 - 1]; /* < 2^41: no overflow */
        if (prev > m->nnz)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: row %llu starts past nnz %llu", nm,
                        (unsigned long long)r1 - 1, (unsigned long long)m->nnz);
    }
    if (prev != m->nnz)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: the rows end at entry %llu, not at nnz %llu",
                    nm, (unsigned long long)prev, (unsigned long long)m->nnz);
    return CZ_OK;
}

/* The dictionary of matrix k: every entry canonical (< r), not 0, 1 or -1,
 * and no two equal (an open-addressing table of the entries seen). */
static int check_dict(const cz_r1cs *r, int k, char *msg, size_t ml)
{
    const cz_csr *m = &r->m[k];
    char nm = mat_name[k];
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    for (uint64_t i = 0; i < m->ndict; i++) {
        const cz_fr *c = &m->dict[i];
        if (!fr_lt_modulus(c))
            return fail(msg, ml, CZ_ERR_NOT_CANONICAL, "%c: dictionary entry %llu is not below r",
                        nm, (unsigned long long)i);
        if (cz_fr_is_zero(c) || cz_fr_is_one(c) || cz_fr_equal(c, &m1))
            return fail(msg, ml, CZ_ERR_NOT_CANONICAL,
                        "%c: dictionary entry %llu is 0, 1 or -1 (not a general coefficient)", nm,
                        (unsigned long long)i);
    }
    if (m->ndict < 2)
        return CZ_OK;
    size_t cap = 64;
    while (cap < 2 * m->ndict)
        cap *= 2;
    uint32_t *t = cz_cs_mem_realloc(NULL, cap * sizeof *t);
    if (t == NULL)
        return fail(msg, ml, CZ_ERR_NOMEM, "out of memory");
    memset(t, 0, cap * sizeof *t);
    int err = CZ_OK;
    for (uint64_t i = 0; i < m->ndict && err == CZ_OK; i++) {
        size_t j = cz_cs_coef_hash(&m->dict[i]) & (cap - 1);
        while (t[j] && memcmp(&m->dict[t[j] - 1], &m->dict[i], sizeof(cz_fr)) != 0)
            j = (j + 1) & (cap - 1);
        if (t[j])
            err = fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: dictionary entries %u and %llu are equal",
                       nm, t[j] - 1, (unsigned long long)i);
        t[j] = (uint32_t)(i + 1);
    }
    cz_cs_mem_free(t);
    return err;
}

/* The entries of matrix k (rows already checked): kinds, columns in range
 * and strictly increasing per row, coefficient blocks, and dictionary
 * indices below ndict, in order of first use and using every entry. */
static int check_entries(const cz_r1cs *r, int k, char *msg, size_t ml)
{
    const cz_csr *m = &r->m[k];
    char nm = mat_name[k];
    uint64_t cols = r->n_in + r->n_aux, nb = r->n_rows / CZ_CSR_BLOCK + 1;
    uint64_t g = 0, next = 0; /* general entries seen, dictionary entries used */
    for (uint64_t b = 0; b < nb; b++) {
        if (m->coef_blk[b] != g)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                        "%c: coefficient block %llu starts at %llu, expected %llu", nm,
                        (unsigned long long)b, (unsigned long long)m->coef_blk[b],
                        (unsigned long long)g);
        uint64_t r0 = b * CZ_CSR_BLOCK;
        uint64_t r1 = r0 + CZ_CSR_BLOCK < r->n_rows ? r0 + CZ_CSR_BLOCK : r->n_rows;
        for (uint64_t row = r0; row < r1; row++) {
            uint64_t prev = 0, e0 = cz_csr_row_begin(m, row), e1 = cz_csr_row_end(m, row);
            for (uint64_t e = e0; e < e1; e++) {
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
                if (e > e0 && c <= prev)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: row %llu columns not strictly increasing", nm,
                                (unsigned long long)row);
                prev = c;
                if (CZ_CSR_KIND(x) != CZ_CSR_GEN)
                    continue;
                if (g == m->ngen)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: more general entries than the %llu in the header", nm,
                                (unsigned long long)m->ngen);
                uint32_t d = m->gidx[g];
                if (d >= m->ndict)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: general entry %llu has dictionary index %u, out of range "
                                "(%llu entries)",
                                nm, (unsigned long long)g, d, (unsigned long long)m->ndict);
                if (d > next)
                    return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                                "%c: general entry %llu uses dictionary entry %u before entry %llu "
                                "(entries are in order of first use)",
                                nm, (unsigned long long)g, d, (unsigned long long)next);
                next += d == next;
                g++;
            }
        }
    }
    if (g != m->ngen)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: %llu general entries but the header says %llu",
                    nm, (unsigned long long)g, (unsigned long long)m->ngen);
    if (next != m->ndict)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "%c: %llu dictionary entries, %llu of them used",
                    nm, (unsigned long long)m->ndict, (unsigned long long)next);
    return CZ_OK;
}

static int load_core(cz_r1cs **out, const uint8_t *p, size_t len, unsigned flags, char *msg,
                     size_t ml)
{
    /* magic and version first: they say how long the header is */
    if (len < 16)
        return fail(msg, ml, CZ_ERR_TRUNCATED, "file is %zu bytes, shorter than the %d-byte header",
                    len, HDR);
    if (memcmp(p, pce_magic, 8) != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "bad magic (not a CZPCE file)");
    uint32_t ver, fl;
    memcpy(&ver, p + 8, 4);
    memcpy(&fl, p + 12, 4);
    if (ver == 1)
        return fail(msg, ml, CZ_ERR_UNSUPPORTED,
                    "version 1: the file is of an older format (u64 row pointers, 32 bytes per "
                    "general entry) and must be regenerated; this build reads version %u",
                    CZ_PCE_VERSION);
    if (ver != CZ_PCE_VERSION)
        return fail(msg, ml, CZ_ERR_UNSUPPORTED, "version %u, this build reads version %u", ver,
                    CZ_PCE_VERSION);
    if (len < HDR)
        return fail(msg, ml, CZ_ERR_TRUNCATED, "file is %zu bytes, shorter than the %d-byte header",
                    len, HDR);
    if (fl != 0)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "unknown flags 0x%x", fl);
    for (int o = 128; o < CK_OFF; o += 8)
        if (get64(p + o) != 0)
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
        L.nnz[k] = get64(p + 48 + 24 * k);
        L.ngen[k] = get64(p + 56 + 24 * k);
        L.ndict[k] = get64(p + 64 + 24 * k);
        if (L.nnz[k] > MAX_NNZ || L.ngen[k] > L.nnz[k] || L.ndict[k] > L.ngen[k] ||
            L.ndict[k] > UINT32_MAX)
            return fail(msg, ml, CZ_ERR_BAD_FORMAT,
                        "%c: entry counts out of range (%llu entries, %llu general, %llu in the "
                        "dictionary)",
                        mat_name[k], (unsigned long long)L.nnz[k], (unsigned long long)L.ngen[k],
                        (unsigned long long)L.ndict[k]);
    }
    compute_layout(&L);
    if (get64(p + 120) != L.end - HDR)
        return fail(msg, ml, CZ_ERR_BAD_FORMAT, "body length %llu, the counts imply %llu",
                    (unsigned long long)get64(p + 120), (unsigned long long)(L.end - HDR));
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
        for (int s = 0; s < NSEC; s++) {
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
        cz_csr *m = &r->m[k];
        m->row_blk = (const uint64_t *)(const void *)(p + L.off[k][0]);
        m->row_off = (const uint32_t *)(const void *)(p + L.off[k][1]);
        m->coef_blk = (const uint64_t *)(const void *)(p + L.off[k][2]);
        m->col = (const uint32_t *)(const void *)(p + L.off[k][3]);
        m->gidx = (const uint32_t *)(const void *)(p + L.off[k][4]);
        m->dict = (const cz_fr *)(const void *)(p + L.off[k][5]);
        m->nnz = L.nnz[k];
        m->ngen = L.ngen[k];
        m->ndict = L.ndict[k];
    }
    int err = CZ_OK;
    for (int k = 0; k < 3 && err == CZ_OK; k++)
        if ((err = check_rows(r, k, msg, ml)) == CZ_OK &&
            (err = check_dict(r, k, msg, ml)) == CZ_OK)
            err = check_entries(r, k, msg, ml);
    /* the input constraints: A row n_circ + i = x_i, B and C rows empty */
    for (uint64_t i = 0; i < L.n_in && err == CZ_OK; i++) {
        uint64_t row = L.n_circ + i;
        const cz_csr *a = &r->m[CZ_MAT_A], *b = &r->m[CZ_MAT_B], *c = &r->m[CZ_MAT_C];
        uint64_t e = cz_csr_row_begin(a, row);
        if (cz_csr_row_end(a, row) - e != 1 || a->col[e] != (CZ_CSR_ONE << 30 | (uint32_t)i) ||
            cz_csr_row_end(b, row) != cz_csr_row_begin(b, row) ||
            cz_csr_row_end(c, row) != cz_csr_row_begin(c, row))
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
    if (len == 0) {
        close(fd);
        return fail(msg, msg_len, CZ_ERR_TRUNCATED, "file is empty");
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
