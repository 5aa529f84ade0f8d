/* The sparse products a = A w, b = B w, c = C w on the device
 * (include/cuzk/cuda.h: cz_cuda_r1cs_prepare, cz_cuda_r1cs_spmv), so a
 * Groth16 partition uploads its witness once and never its a, b, c.
 *
 * Format: cs.h's compact CSR, unchanged (cz_cuda_csr).  Row r's entries
 * are row_blk[r / 64] + row_off[r] .. that of r + 1; its general entries
 * are numbered from coef_blk[r / 64] plus the general entries of the rows
 * of its 64-row block before it.  That last count is not stored in the
 * format, so the device derives it once per matrix into gen_off (u32 per
 * row): one thread per 64-row block walks the block's entries
 * (gen_offsets).  Resident copies keep gen_off beside the arrays (4 bytes
 * a row); streamed chunks derive it per chunk.
 *
 * Product (spmv_rows): one thread per row,
 *   out[r] = sum_{entries e of r} coef(e) w[col(e)],
 * with coef 1 (ONE: w added), -1 (NEG: w subtracted) or dict[gidx[g]]
 * (GEN: one Montgomery multiplication, skipped when w is 0 or 1, as the
 * CPU's cz_r1cs_spmv skips it).  Field addition is exact, so the sum in
 * any order is the CPU's value bit for bit.  Rows of the 32GiB PoRep
 * partition hold 2.4 (A), 1.0 (B), 2.2 (C) entries on average, so one
 * thread a row keeps a warp's lanes busy; the reads of w are gathers of
 * 32 bytes, the rest streams.
 *
 * Streaming (a copy that does not fit, or CZ_CUDA_STREAM_PARAMS=1 in the
 * environment when the system is first used on the device): chunks of
 * 2^22 rows (CZ_CUDA_SPMV_CHUNK=N: N rounded up to a multiple of 64),
 * block aligned, their slices of row_blk, row_off, coef_blk, col and gidx
 * uploaded into one of two buffer sets on a copy stream while the chunk
 * before is multiplied; the dictionary goes up once per call. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_err.cuh"
#include "cuda/devmem.cuh"
#include "cuda/fr.cuh"
#include "cuda/spmv.cuh"
#include "cuda/upload.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

/* cs.h's cz_csr encoding (this layer does not include the circuits'
 * headers): rows in blocks of 64, entry = kind << 30 | column */
#define BLK      64u
#define KIND(e)  ((e) >> 30)
#define KIND_GEN 0u
#define KIND_NEG 2u
#define COL_MASK ((1u << 30) - 1)

namespace
{

/* One matrix (or a chunk of its rows) as the kernels read it: entry and
 * general indices are absolute in the format, e0 and g0 are subtracted to
 * index the arrays held. */
struct csr_dev {
    const uint64_t *row_blk, *coef_blk;
    const uint32_t *row_off, *col, *gidx, *gen_off;
    const fr_t *dict;
    uint64_t e0, g0;
};

__device__ __forceinline__ bool fr_is(const fr_t &a, const fr_t &b)
{
    uint32_t d = 0;
    for (int i = 0; i < 8; i++)
        d |= a.l[i] ^ b.l[i];
    return d == 0;
}

/* gen_off[r] = general entries of rows b 64 .. r - 1 (b = r / 64), for the
 * nrows rows held; one thread per block. */
__global__ void gen_offsets(csr_dev m, uint64_t nrows, uint32_t *gen_off)
{
    uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t r = b * BLK;
    if (r >= nrows)
        return;
    uint64_t r_end = r + BLK < nrows ? r + BLK : nrows;
    uint64_t e = m.row_blk[b] + m.row_off[r] - m.e0;
    uint32_t cnt = 0;
    for (; r < r_end; r++) {
        gen_off[r] = cnt;
        uint64_t end = m.row_blk[(r + 1) / BLK] + m.row_off[r + 1] - m.e0;
        for (; e < end; e++)
            cnt += KIND(m.col[e]) == KIND_GEN;
    }
}

__global__ void spmv_rows(csr_dev m, uint64_t nrows, const fr_t *w, fr_t one, fr_t *out)
{
    uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    uint64_t e = m.row_blk[r / BLK] + m.row_off[r] - m.e0;
    uint64_t end = m.row_blk[(r + 1) / BLK] + m.row_off[r + 1] - m.e0;
    uint64_t g = m.coef_blk[r / BLK] + m.gen_off[r] - m.g0;
    fr_t acc;
    for (int i = 0; i < 8; i++)
        acc.l[i] = 0;
    for (; e < end; e++) {
        uint32_t c = m.col[e];
        fr_t v = fr_load(&w[c & COL_MASK]);
        uint32_t kind = KIND(c);
        if (kind == KIND_GEN) {
            fr_t k = fr_load(&m.dict[m.gidx[g++]]);
            if (fr_is(v, one))
                v = k;
            else if (!fr_is(v, fr_t{}))
                v = fr_mul(k, v);
        }
        acc = kind == KIND_NEG ? fr_sub(acc, v) : fr_add(acc, v);
    }
    fr_store(&out[r], acc);
}

/* name's value in the environment as a flag ("0": false), dflt when unset
 * or empty. */
bool env_flag_default(const char *name, bool dflt)
{
    const char *e = getenv(name);
    return e && *e ? strcmp(e, "0") != 0 : dflt;
}

bool env_flag(const char *name) { return env_flag_default(name, false); }

size_t chunk_rows(void)
{
    const char *e = getenv("CZ_CUDA_SPMV_CHUNK");
    size_t c = e && *e ? (size_t)strtoull(e, NULL, 0) : (size_t)1 << 22;
    c = (c + BLK - 1) / BLK * BLK;
    return c ? c : BLK;
}

/* Block-level counts of rows and the row_blk / coef_blk entries a chunk of
 * rows [r0, r0 + nrows) reads (r0 a multiple of 64, the matrix having
 * rows rows): ceil(nrows / 64) blocks and the next block's first entry
 * when the format has it. */
size_t blk_entries(size_t r0, size_t nrows, size_t rows)
{
    size_t nb = (nrows + BLK - 1) / BLK + 1, have = rows / BLK + 1 - r0 / BLK;
    return nb < have ? nb : have;
}

int launch(const csr_dev &m, size_t nrows, uint32_t *gen_off, const fr_t *w, fr_t *out,
           cudaStream_t st, bool derive)
{
    if (!nrows)
        return CZ_OK;
    csr_dev k = m;
    k.gen_off = gen_off;
    if (derive) {
        size_t nb = (nrows + BLK - 1) / BLK;
        gen_offsets<<<(unsigned)((nb + 255) / 256), 256, 0, st>>>(k, nrows, gen_off);
        int rc = cuda_err(cudaGetLastError());
        if (rc)
            return rc;
    }
    fr_t one;
    memcpy(&one, &CZ_FR_ONE, sizeof one);
    spmv_rows<<<(unsigned)((nrows + 127) / 128), 128, 0, st>>>(k, nrows, w, one, out);
    return cuda_err(cudaGetLastError());
}

/* ------------------------------------------------------ resident copies */

struct dev_r1cs {
    const void *key;
    int dev;
    cz_cuda_r1cs_view host; /* what it copies: matched on every use */
    csr_dev m[3];
    void *buf[3];
    unsigned users;
    dev_r1cs *next;
};

pthread_mutex_t r1cs_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t r1cs_idle = PTHREAD_COND_INITIALIZER;
dev_r1cs *r1cs_list;

size_t align_up(size_t n) { return (n + 255) & ~(size_t)255; }

/* Bytes of the device copy of matrix x of a system of rows rows. */
size_t csr_bytes(const cz_cuda_csr &x, size_t rows)
{
    size_t nb = rows / BLK + 1;
    return 2 * align_up(nb * 8) + 2 * align_up((rows + 1) * 4) + align_up(x.nnz * 4) +
           align_up(x.ngen * 4) + align_up(x.ndict * sizeof(fr_t) + 1);
}

bool same_view(const cz_cuda_r1cs_view &a, const cz_cuda_r1cs_view &b)
{
    return !memcmp(&a, &b, sizeof a);
}

void r1cs_free(dev_r1cs *d)
{
    for (int k = 0; k < 3; k++)
        cz_cuda_free(d->buf[k]);
    free(d);
}

/* Uploads matrix x into one buffer and derives its gen_off. */
int upload_csr(const cz_cuda_csr &x, size_t rows, void **buf, csr_dev *m)
{
    size_t nb = rows / BLK + 1;
    int rc = cz_cuda_malloc(buf, csr_bytes(x, rows), CZ_BUF_R1CS);
    if (rc)
        return rc;
    char *p = (char *)*buf;
    const void *src[6] = {x.row_blk, x.coef_blk, x.row_off, x.col, x.gidx, x.dict};
    size_t len[6] = {nb * 8, nb * 8, (rows + 1) * 4, x.nnz * 4, x.ngen * 4, x.ndict * sizeof(fr_t)};
    void *dst[6];
    for (int i = 0; i < 6; i++) {
        dst[i] = p;
        if (!rc && len[i])
            rc = cz_cuda_upload(p, src[i], len[i], 0);
        p += align_up(len[i] + (i == 5));
    }
    uint32_t *gen_off = (uint32_t *)p;
    *m = csr_dev{(const uint64_t *)dst[0],
                 (const uint64_t *)dst[1],
                 (const uint32_t *)dst[2],
                 (const uint32_t *)dst[3],
                 (const uint32_t *)dst[4],
                 gen_off,
                 (const fr_t *)dst[5],
                 0,
                 0};
    if (!rc && rows) {
        size_t nblk = (rows + BLK - 1) / BLK;
        gen_offsets<<<(unsigned)((nblk + 255) / 256), 256>>>(*m, rows, gen_off);
        rc = cuda_err(cudaGetLastError());
    }
    if (!rc)
        rc = cuda_err(cudaStreamSynchronize(0));
    return rc;
}

/* The entry of r on the current device, or NULL; under r1cs_lock. */
dev_r1cs *find(const cz_cuda_r1cs_view *r, int dev)
{
    for (dev_r1cs *d = r1cs_list; d; d = d->next)
        if (d->key == r->key && d->dev == dev && same_view(d->host, *r))
            return d;
    return NULL;
}

bool valid(const cz_cuda_r1cs_view *r)
{
    if (!r || !r->key)
        return false;
    for (int k = 0; k < 3; k++) {
        const cz_cuda_csr &x = r->m[k];
        if (!x.row_blk || !x.row_off || !x.coef_blk || (x.nnz && !x.col) || (x.ngen && !x.gidx) ||
            (x.ndict && !x.dict))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ streaming */

/* The host arrays of a streamed system, page-locked in place on its first
 * streamed use (one record per key; the registration is portable, so one
 * serves every device) until cz_cuda_r1cs_release, so each chunk's slices
 * travel as one DMA at the link's rate: staged from pageable memory the
 * 2^27 partition's matrices took 720 ms a product on an H100, BENCHMARKS.md
 * 2026-12-07 evening.  The arrays' ranges widened to whole pages and
 * merged where they touch are registered one by one (arrays packed in one
 * file share pages); a range the system refuses to lock (a read-only
 * mapping is tried again as read-only) stays pageable and its slices are
 * staged by cz_cuda_upload.  CZ_CUDA_PIN_PARAMS=0 in the environment
 * leaves them all pageable, as it does parameters. */
#define PIN_RANGES 18 /* six arrays a matrix */

struct host_lock {
    const void *key;
    void *ptr[PIN_RANGES];
    int n;
    host_lock *next;
};

host_lock *lock_list; /* under r1cs_lock */

struct range {
    uintptr_t lo, hi;
};

int range_cmp(const void *a, const void *b)
{
    uintptr_t x = ((const range *)a)->lo, y = ((const range *)b)->lo;
    return x < y ? -1 : x > y;
}

/* Under r1cs_lock. */
void lock_host(const cz_cuda_r1cs_view *r)
{
    if (!env_flag_default("CZ_CUDA_PIN_PARAMS", true))
        return;
    for (host_lock *h = lock_list; h; h = h->next)
        if (h->key == r->key)
            return;
    host_lock *h = (host_lock *)calloc(1, sizeof *h);
    if (!h)
        return;
    const uintptr_t page = 4096;
    size_t nb = r->rows / BLK + 1;
    range rg[PIN_RANGES];
    int n = 0;
    for (int k = 0; k < 3; k++) {
        const cz_cuda_csr &x = r->m[k];
        const void *src[6] = {x.row_blk, x.coef_blk, x.row_off, x.col, x.gidx, x.dict};
        size_t len[6] = {nb * 8, nb * 8, (r->rows + 1) * 4, x.nnz * 4, x.ngen * 4,
                         x.ndict * sizeof(fr_t)};
        for (int i = 0; i < 6; i++)
            if (src[i] && len[i])
                rg[n++] = range{(uintptr_t)src[i] & ~(page - 1),
                                ((uintptr_t)src[i] + len[i] + page - 1) & ~(page - 1)};
    }
    qsort(rg, (size_t)n, sizeof *rg, range_cmp);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && rg[i].lo <= rg[m - 1].hi)
            rg[m - 1].hi = rg[i].hi > rg[m - 1].hi ? rg[i].hi : rg[m - 1].hi;
        else
            rg[m++] = rg[i];
    }
    for (int i = 0; i < m; i++) {
        void *p = (void *)rg[i].lo;
        size_t len = rg[i].hi - rg[i].lo;
        if (cudaHostRegister(p, len, cudaHostRegisterPortable) == cudaSuccess ||
            (cudaGetLastError(),
             cudaHostRegister(p, len, cudaHostRegisterPortable | cudaHostRegisterReadOnly) ==
                 cudaSuccess))
            h->ptr[h->n++] = p;
        else
            cudaGetLastError(); /* left pageable: staged uploads */
    }
    h->key = r->key;
    h->next = lock_list;
    lock_list = h;
}

/* Under r1cs_lock, once nothing streams key's arrays. */
void unlock_host(const void *key)
{
    for (host_lock **pp = &lock_list; *pp; pp = &(*pp)->next) {
        host_lock *h = *pp;
        if (h->key != key)
            continue;
        for (int i = 0; i < h->n; i++)
            if (cudaHostUnregister(h->ptr[i]) != cudaSuccess)
                cudaGetLastError();
        *pp = h->next;
        free(h);
        return;
    }
}


/* Rows [r0, r0 + nrows) of matrix x: the slices a chunk uploads. */
struct slice {
    size_t nblk, e0, e1, g0, g1;
};

slice slice_of(const cz_cuda_csr &x, size_t rows, size_t r0, size_t nrows)
{
    slice s;
    s.nblk = blk_entries(r0, nrows, rows);
    size_t r1 = r0 + nrows;
    s.e0 = x.row_blk[r0 / BLK] + x.row_off[r0];
    s.e1 = x.row_blk[r1 / BLK] + x.row_off[r1];
    s.g0 = x.coef_blk[r0 / BLK];
    s.g1 = r1 == rows ? x.ngen : x.coef_blk[r1 / BLK];
    return s;
}

/* One buffer set: room for the slices of the largest chunk of any matrix
 * and its gen_off. */
struct chunk_buf {
    uint64_t *row_blk, *coef_blk;
    uint32_t *row_off, *col, *gidx, *gen_off;
    cudaEvent_t done;
};

/* The largest chunk's entries and general entries over the matrices k
 * with want[k], the largest dictionary, and the rows of a chunk. */
struct stream_size {
    size_t most_e, most_g, ndict, crow;
};

stream_size stream_size_of(const cz_cuda_r1cs_view *r, const bool want[3])
{
    const size_t CHUNK_ROWS = chunk_rows();
    size_t rows = r->rows;
    stream_size z = {0, 0, 1, rows < CHUNK_ROWS ? rows : CHUNK_ROWS};
    for (int k = 0; k < 3; k++) {
        if (!want[k])
            continue;
        for (size_t r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
            size_t n = rows - r0 < CHUNK_ROWS ? rows - r0 : CHUNK_ROWS;
            slice s = slice_of(r->m[k], rows, r0, n);
            z.most_e = s.e1 - s.e0 > z.most_e ? s.e1 - s.e0 : z.most_e;
            z.most_g = s.g1 - s.g0 > z.most_g ? s.g1 - s.g0 : z.most_g;
        }
        z.ndict = r->m[k].ndict > z.ndict ? r->m[k].ndict : z.ndict;
    }
    return z;
}

/* spmv_streamed's device buffers for z: the dictionary and two sets */
size_t stream_bytes(const stream_size &z)
{
    size_t nb = z.crow / BLK + 2;
    size_t set = 2 * align_up(nb * 8) + 2 * align_up((z.crow + 1) * 4) +
                 align_up((z.most_e ? z.most_e : 1) * 4) + align_up((z.most_g ? z.most_g : 1) * 4);
    return align_up(z.ndict * sizeof(fr_t)) + 2 * set;
}

int spmv_streamed(const cz_cuda_r1cs_view *r, const fr_t *w, fr_t *const out[3])
{
    const size_t CHUNK_ROWS = chunk_rows();
    size_t rows = r->rows;
    const bool want[3] = {out[0] != NULL, out[1] != NULL, out[2] != NULL};
    stream_size z = stream_size_of(r, want);
    size_t most_e = z.most_e, most_g = z.most_g, ndict = z.ndict, crow = z.crow;
    size_t nb = crow / BLK + 2;
    chunk_buf cb[2] = {};
    fr_t *dict = NULL;
    cudaStream_t cp = NULL, st = NULL;
    cudaEvent_t up = NULL;
    int rc = cz_cuda_malloc((void **)&dict, ndict * sizeof(fr_t), CZ_BUF_STAGING);
    for (int i = 0; i < 2 && !rc; i++) {
        chunk_buf &b = cb[i];
        if (!(rc = cz_cuda_malloc((void **)&b.row_blk, nb * 8, CZ_BUF_STAGING)) &&
            !(rc = cz_cuda_malloc((void **)&b.coef_blk, nb * 8, CZ_BUF_STAGING)) &&
            !(rc = cz_cuda_malloc((void **)&b.row_off, (crow + 1) * 4, CZ_BUF_STAGING)) &&
            !(rc = cz_cuda_malloc((void **)&b.col, (most_e ? most_e : 1) * 4, CZ_BUF_STAGING)) &&
            !(rc = cz_cuda_malloc((void **)&b.gidx, (most_g ? most_g : 1) * 4, CZ_BUF_STAGING)) &&
            !(rc = cz_cuda_malloc((void **)&b.gen_off, (crow + 1) * 4, CZ_BUF_STAGING)))
            rc = cuda_err(cudaEventCreateWithFlags(&b.done, cudaEventDisableTiming));
    }
    if (!rc)
        rc = cuda_err(cudaStreamCreateWithFlags(&cp, cudaStreamNonBlocking));
    if (!rc)
        rc = cuda_err(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    if (!rc)
        rc = cuda_err(cudaEventCreateWithFlags(&up, cudaEventDisableTiming));
    unsigned c = 0;
    for (int k = 0; k < 3 && !rc; k++) {
        const cz_cuda_csr &x = r->m[k];
        if (!out[k])
            continue;
        /* the dictionary of the matrix before is no longer read */
        if ((rc = cuda_err(cudaStreamSynchronize(st))))
            break;
        if (x.ndict && (rc = cz_cuda_upload(dict, x.dict, x.ndict * sizeof(fr_t), cp)))
            break;
        for (size_t r0 = 0; r0 < rows && !rc; r0 += CHUNK_ROWS, c++) {
            size_t n = rows - r0 < CHUNK_ROWS ? rows - r0 : CHUNK_ROWS;
            slice s = slice_of(x, rows, r0, n);
            chunk_buf &b = cb[c % 2];
            /* the chunk that used these buffers two steps ago is done */
            rc = cuda_err(cudaStreamWaitEvent(cp, b.done, 0));
            if (!rc)
                rc = cz_cuda_upload(b.row_blk, x.row_blk + r0 / BLK, s.nblk * 8, cp);
            if (!rc)
                rc = cz_cuda_upload(b.coef_blk, x.coef_blk + r0 / BLK, s.nblk * 8, cp);
            if (!rc)
                rc = cz_cuda_upload(b.row_off, x.row_off + r0, (n + 1) * 4, cp);
            if (!rc && s.e1 > s.e0)
                rc = cz_cuda_upload(b.col, x.col + s.e0, (s.e1 - s.e0) * 4, cp);
            if (!rc && s.g1 > s.g0)
                rc = cz_cuda_upload(b.gidx, x.gidx + s.g0, (s.g1 - s.g0) * 4, cp);
            if (!rc)
                rc = cuda_err(cudaEventRecord(up, cp));
            if (!rc)
                rc = cuda_err(cudaStreamWaitEvent(st, up, 0));
            csr_dev m = {b.row_blk, b.coef_blk, b.row_off, b.col, b.gidx,
                         b.gen_off, dict,       s.e0,      s.g0};
            if (!rc)
                rc = launch(m, n, b.gen_off, w, out[k] + r0, st, true);
            if (!rc)
                rc = cuda_err(cudaEventRecord(b.done, st));
        }
    }
    /* everything queued ends before the buffers go */
    for (cudaStream_t s : {cp, st}) {
        if (s) {
            int r2 = cuda_err(cudaStreamSynchronize(s));
            rc = rc ? rc : r2;
            cudaStreamDestroy(s);
        }
    }
    if (up)
        cudaEventDestroy(up);
    for (int i = 0; i < 2; i++) {
        chunk_buf &b = cb[i];
        cz_cuda_free(b.row_blk), cz_cuda_free(b.coef_blk), cz_cuda_free(b.row_off);
        cz_cuda_free(b.col), cz_cuda_free(b.gidx), cz_cuda_free(b.gen_off);
        if (b.done)
            cudaEventDestroy(b.done);
    }
    cz_cuda_free(dict);
    return rc;
}

} /* namespace */

size_t cz_cuda_r1cs_stream_bytes(const cz_cuda_r1cs_view *r)
{
    const bool all[3] = {true, true, true};
    return stream_bytes(stream_size_of(r, all));
}

size_t cz_cuda_r1cs_bytes(const cz_cuda_r1cs_view *r)
{
    size_t b = 0;
    for (int k = 0; k < 3; k++)
        b += csr_bytes(r->m[k], r->rows);
    return b;
}

int cz_cuda_r1cs_acquire(const cz_cuda_r1cs_view *r, bool resident, cz_cuda_r1cs_use *use)
{
    use->entry = NULL;
    if (!valid(r))
        return CZ_ERR_INVALID_ARG;
    if (!cz_cuda_available())
        return CZ_ERR_UNSUPPORTED;
    int dev = 0;
    int rc = cuda_err(cudaGetDevice(&dev));
    if (rc)
        return rc;
    pthread_mutex_lock(&r1cs_lock);
    dev_r1cs *d = find(r, dev);
    if (!d && resident) {
        d = (dev_r1cs *)calloc(1, sizeof *d);
        if (!d)
            rc = CZ_ERR_NOMEM;
        for (int k = 0; k < 3 && !rc; k++)
            rc = upload_csr(r->m[k], r->rows, &d->buf[k], &d->m[k]);
        if (!rc) {
            d->key = r->key;
            d->dev = dev;
            d->host = *r;
            d->next = r1cs_list;
            r1cs_list = d;
        } else if (d) {
            r1cs_free(d);
            d = NULL;
        }
    }
    if (d)
        d->users++;
    else if (!rc)
        lock_host(r);
    pthread_mutex_unlock(&r1cs_lock);
    use->entry = d;
    return rc;
}

void cz_cuda_r1cs_put(cz_cuda_r1cs_use *use)
{
    dev_r1cs *d = (dev_r1cs *)use->entry;
    if (!d)
        return;
    pthread_mutex_lock(&r1cs_lock);
    if (--d->users == 0)
        pthread_cond_broadcast(&r1cs_idle);
    pthread_mutex_unlock(&r1cs_lock);
    use->entry = NULL;
}

int cz_cuda_r1cs_spmv_on(const cz_cuda_r1cs_view *r, const cz_cuda_r1cs_use *use, const fr_t *w,
                         fr_t *const out[3], cudaStream_t st)
{
    const dev_r1cs *d = (const dev_r1cs *)use->entry;
    if (!d) {
        int rc = cuda_err(cudaStreamSynchronize(st)); /* w ready */
        return rc ? rc : spmv_streamed(r, w, out);
    }
    int rc = CZ_OK;
    for (int k = 0; k < 3 && !rc; k++)
        if (out[k])
            rc = launch(d->m[k], r->rows, (uint32_t *)d->m[k].gen_off, w, out[k], st, false);
    return rc;
}

extern "C" {

int cz_cuda_r1cs_prepare(const cz_cuda_r1cs_view *r, size_t need, bool *resident)
{
    if (!resident)
        return CZ_ERR_INVALID_ARG;
    size_t room = 0;
    int rc = cz_cuda_mem_room(&room);
    cz_cuda_r1cs_use u = {NULL};
    if (!rc)
        rc = cz_cuda_r1cs_acquire(
            r, !env_flag("CZ_CUDA_STREAM_PARAMS") && cz_cuda_r1cs_bytes(r) + need <= room, &u);
    *resident = u.entry != NULL;
    cz_cuda_r1cs_put(&u);
    return rc;
}

void cz_cuda_r1cs_release(const void *key)
{
    pthread_mutex_lock(&r1cs_lock);
    int cur = -1;
    bool any = false;
    for (dev_r1cs *d = r1cs_list; d; d = d->next)
        any |= d->key == key;
    if (any && cudaGetDevice(&cur) == cudaSuccess) {
        for (dev_r1cs **pp = &r1cs_list; *pp;) {
            dev_r1cs *d = *pp;
            if (d->key != key) {
                pp = &d->next;
                continue;
            }
            if (d->users) { /* a product is using it: wait, then look again */
                pthread_cond_wait(&r1cs_idle, &r1cs_lock);
                pp = &r1cs_list;
                continue;
            }
            *pp = d->next;
            cudaSetDevice(d->dev);
            cudaDeviceSynchronize();
            r1cs_free(d);
        }
        cudaSetDevice(cur);
    }
    unlock_host(key);
    pthread_mutex_unlock(&r1cs_lock);
}

int cz_cuda_r1cs_spmv(const cz_cuda_r1cs_view *r, const cz_fr *w_dev, cz_fr *const out[3])
{
    if (!valid(r) || !w_dev || !out || (!out[0] && !out[1] && !out[2]))
        return CZ_ERR_INVALID_ARG;
    bool resident = false;
    int rc = cz_cuda_r1cs_prepare(r, 0, &resident);
    cz_cuda_r1cs_use u = {NULL};
    if (!rc)
        rc = cz_cuda_r1cs_acquire(r, resident, &u);
    fr_t *const o[3] = {(fr_t *)out[0], (fr_t *)out[1], (fr_t *)out[2]};
    if (!rc)
        rc = cz_cuda_r1cs_spmv_on(r, &u, (const fr_t *)w_dev, o, 0);
    if (!rc)
        rc = cuda_err(cudaStreamSynchronize(0));
    cz_cuda_r1cs_put(&u);
    return rc;
}

} /* extern "C" */
