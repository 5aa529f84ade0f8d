/* Multi-scalar multiplication, written once for G1 and G2 and instantiated
 * by msm_g1.c (Fp) and msm_g2.c (Fp2).  No include guard: each including
 * file gets its own copy.
 *
 * The includer defines:
 *   F                       the coordinate field type
 *   F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR F_INV F_CMOV   (r, a[, b]) operations
 *   F_IS_ZERO(a)            bool
 *   F_ONE                   the field's one (an lvalue)
 *   F_MUL_B3(r, a)          r = 3b a
 *   G_(name)                the group's public names: G_(msm) is cz_g1_msm
 *   AFF, JAC, XYZZ          point types of ec.h
 *   MSM_COSTS               an msm_costs for this group
 * and may define, for the batched inversions of the affine additions
 * (acc_push, acc_flush), which invert one product of a "key" per addition:
 *   KEY_T                   the key's type (default F)
 *   KEY_OF(k, d)            k = the key of the denominator d (default d)
 *   KEY_MUL, KEY_INV        the key field's multiplication and inversion
 *   KEY_UNDO(r, d, ki)      r = 1/d from ki = 1/key(d) (default r = ki)
 * G2 keys a denominator by its norm in Fp, 1/d = conj(d) / N(d), so that
 * the prefix products and the backward pass are Fp multiplications, not
 * Fp2 ones (msm_g2.c).
 *
 * Op counts: M multiplication, S squaring, I inversion in F.
 *
 * Structure of one MSM (msm_run): the scalars are processed in rounds of at
 * most CZ_MSM_ROUND.  Each round
 *   1. classifies its scalars (parallel over chunks): skip (zero, base at
 *      infinity, clear density bit), one, other; then writes the base
 *      indices of the ones, and the base indices and canonical scalars of
 *      the others, compacted and in order;
 *   2. sums the ones' bases (ones pass, batched affine additions into
 *      MSM_ONES_ACC accumulators per thread);
 *   3. runs Pippenger over the others: work items (window, range of points)
 *      taken by the threads from an atomic counter, each accumulating its
 *      points into the thread's buckets and reducing them to one point;
 *   4. combines the items' points: per window a sum, then Horner with c
 *      doublings per window.
 * Every thread owns one scratch slot (buckets, batch, queue); items are
 * taken dynamically, so a slow thread does fewer of them. */

#include <stdatomic.h>
#include <string.h>

#ifndef KEY_T
#define KEY_T              F
#define KEY_OF(k, d)       (*(k) = *(d))
#define KEY_MUL            F_MUL
#define KEY_INV            F_INV
#define KEY_UNDO(r, d, ki) (*(r) = *(ki))
#endif

/* ----------------------------------------------------- scratch layout --- */

/* Bucket state bits. */
#define ST_AFF  1u /* bk[b] holds a point */
#define ST_BUSY 2u /* bk[b] is the target of an addition in the open batch */
#define ST_OV   4u /* ov[b] holds a point */

/* Batch / queue entry: base index in bits 0..31, bucket in 32..52, flags. */
#define E_NEG       ((uint64_t)1 << 62)
#define E_DBL       ((uint64_t)1 << 63)
#define E_BUCKET(e) ((uint32_t)((e) >> 32) & 0x1fffffu)
#define E_SRC(e)    ((uint32_t)(e))

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* Points between a bucket's or base's prefetch and its use. */
#define MSM_PREFETCH 8

static inline void prefetch_point(const AFF *p)
{
    __builtin_prefetch(p);
    __builtin_prefetch((const char *)p + sizeof *p - 1);
}

typedef struct {
    size_t ones;   /* per chunk: ones, then their first output slot */
    size_t others; /* per chunk: others, then their first output slot */
    size_t base;   /* base index of the chunk's first set density bit */
} chunk_info;

typedef struct {
    unsigned nthreads, cslot;
    size_t round;   /* scalars per round */
    size_t nchunks; /* classification chunks, at most */
    size_t nresults;
    /* byte offsets */
    size_t o_cls, o_ones, o_oidx, o_osc, o_chunks, o_res, o_slots;
    size_t slot_bytes, total;
    /* inside a slot */
    size_t naff, bmax, s_bk, s_ov, s_st, s_ent, s_pre, s_key, s_q, s_lst;
} layout;

/* The window a thread slot is sized for: the cost model's choice for a full
 * round of m scalars on t threads, or the forced one.  The window of each
 * round (chosen for its own count of other scalars) is clamped to it. */
static unsigned slot_window(size_t m, unsigned t, unsigned flags)
{
    unsigned forced = msm_flag_window(flags), parts = msm_flag_parts(flags);
    if (forced)
        return forced;
    return msm_choose_window(m, t, 1, MSM_AUTO_MAX_WINDOW, &MSM_COSTS, &parts);
}

static size_t layout_round(size_t n) { return n == 0 ? 1 : n < CZ_MSM_ROUND ? n : CZ_MSM_ROUND; }

/* Scratch of n scalars for t threads whose slots hold windows up to cslot. */
static void layout_init(layout *L, size_t n, unsigned t, unsigned cslot, unsigned flags)
{
    size_t r = layout_round(n), o = 0;
    L->nthreads = t;
    L->round = r;
    L->cslot = cslot;
    L->nchunks = 4 * (size_t)t + 1;
    /* items: windows x parts <= 256 + 2t (automatic parts) or 256 x parts;
     * ones pass: t */
    size_t fp = msm_flag_parts(flags);
    L->nresults = (fp ? 256 * fp : 256 + 2 * (size_t)t) + t;
    L->o_cls = o;
    o += ALIGN64(r);
    L->o_ones = o;
    o += ALIGN64(r * sizeof(uint32_t));
    L->o_oidx = o;
    o += ALIGN64(r * sizeof(uint32_t));
    L->o_osc = o;
    o += ALIGN64(r * 4 * sizeof(uint64_t));
    L->o_chunks = o;
    o += ALIGN64(L->nchunks * sizeof(chunk_info));
    L->o_res = o;
    o += ALIGN64(L->nresults * sizeof(XYZZ));
    L->o_slots = o;

    size_t nb = (size_t)1 << (L->cslot - 1), s = 0;
    unsigned b = L->cslot >= CZ_MSM_AFFINE_MIN_WINDOW ? msm_batch(L->cslot) : 1;
    L->naff = nb > MSM_ONES_ACC ? nb : MSM_ONES_ACC;
    L->bmax = b > MSM_ONES_ACC ? b : MSM_ONES_ACC;
    L->s_bk = s;
    s += ALIGN64(L->naff * sizeof(AFF));
    L->s_ov = s;
    s += ALIGN64(L->naff * sizeof(XYZZ));
    L->s_st = s;
    s += ALIGN64(L->naff);
    L->s_ent = s;
    s += ALIGN64(L->bmax * sizeof(uint64_t));
    L->s_pre = s;
    s += ALIGN64(L->bmax * sizeof(KEY_T));
    L->s_key = s;
    s += ALIGN64(L->bmax * sizeof(KEY_T));
    L->s_q = s;
    s += ALIGN64(L->bmax * sizeof(uint64_t));
    L->s_lst = s;
    s += ALIGN64(2 * MSM_LANES_MAX);
    L->slot_bytes = s;
    L->total = o + t * s;
}

size_t G_(msm_scratch_bytes)(size_t n, unsigned nthreads, unsigned flags)
{
    layout L;
    unsigned t = nthreads ? nthreads : 1;
    layout_init(&L, n, t, slot_window(layout_round(n), t, flags), flags);
    return L.total;
}

/* ----------------------------------------------- batched accumulation --- */

/* One thread's buckets and open batch.  Points enter bucket b by place():
 *   empty bucket      -> the point is copied in (free);
 *   bucket in batch   -> the point waits in the queue (or, queue full, is
 *                        added to the XYZZ overflow bucket ov[b]);
 *   otherwise         -> an affine addition bk[b] += P joins the batch.
 * A full batch is flushed: one inversion for all its denominators, then the
 * additions; then the queue is retried. */
typedef struct {
    const AFF *bases;
    AFF *bk;
    XYZZ *ov;
    uint8_t *st;
    uint64_t *ent; /* open batch */
    KEY_T *pre;    /* pre[i] = key_0 ... key_i */
    KEY_T *key;    /* key[i] = KEY_OF(den_i) */
    uint64_t *q;   /* conflict queue */
    uint8_t *lst;  /* lane states of the batched reduction */
    size_t k, bcap, qn, qcap;
    size_t nov; /* overflow buckets started */
} bucket_acc;

static void acc_init(bucket_acc *x, const layout *L, uint8_t *slot, const AFF *bases, size_t bcap)
{
    x->bases = bases;
    x->bk = (AFF *)(slot + L->s_bk);
    x->ov = (XYZZ *)(slot + L->s_ov);
    x->st = slot + L->s_st;
    x->ent = (uint64_t *)(slot + L->s_ent);
    x->pre = (KEY_T *)(slot + L->s_pre);
    x->key = (KEY_T *)(slot + L->s_key);
    x->q = (uint64_t *)(slot + L->s_q);
    x->lst = slot + L->s_lst;
    x->k = 0;
    x->nov = 0;
    x->qn = 0;
    x->bcap = bcap;
    x->qcap = bcap;
}

/* ov[b] += (+-P), mixed XYZZ addition (8M + 2S). */
static void acc_overflow(bucket_acc *x, uint32_t b, const AFF *p, bool neg)
{
    AFF t = *p;
    if (neg)
        F_NEG(&t.y, &t.y);
    if (x->st[b] & ST_OV) {
        G_(xyzz_add_affine)(&x->ov[b], &x->ov[b], &t);
    } else {
        G_(xyzz_from_affine)(&x->ov[b], &t);
        x->st[b] |= ST_OV;
        x->nov++;
    }
}

/* Opens the addition bk[b] += Q, Q = +-bases[src], in the batch: its
 * denominator is x_Q - x_b, or 2 y_b when Q = bk[b] (doubling); Q = -bk[b]
 * empties the bucket at once.  Its key is kept and joins the prefix
 * product (1 key multiplication). */
static void acc_push(bucket_acc *x, uint32_t b, uint32_t src, bool neg)
{
    AFF *d = &x->bk[b];
    const AFF *p = &x->bases[src];
    uint64_t e = ((uint64_t)b << 32) | src | (neg ? E_NEG : 0);
    F den, y2;
    if (memcmp(&d->x, &p->x, sizeof(F)) == 0) {
        y2 = p->y;
        if (neg)
            F_NEG(&y2, &y2);
        if (memcmp(&d->y, &y2, sizeof(F)) != 0 || F_IS_ZERO(&y2)) {
            x->st[b] &= (uint8_t)~ST_AFF; /* P - P, or 2P with y = 0 */
            return;
        }
        F_DBL(&den, &d->y);
        e |= E_DBL;
    } else {
        F_SUB(&den, &p->x, &d->x);
    }
    KEY_OF(&x->key[x->k], &den);
    if (x->k)
        KEY_MUL(&x->pre[x->k], &x->pre[x->k - 1], &x->key[x->k]);
    else
        x->pre[0] = x->key[0];
    x->ent[x->k++] = e;
    x->st[b] |= ST_BUSY;
}

static void acc_place(bucket_acc *x, uint32_t b, uint32_t src, bool neg)
{
    uint8_t s = x->st[b];
    if (!(s & ST_AFF)) {
        const AFF *p = &x->bases[src];
        x->bk[b].x = p->x;
        if (neg)
            F_NEG(&x->bk[b].y, &p->y);
        else
            x->bk[b].y = p->y;
        x->st[b] = s | ST_AFF;
    } else if (!(s & ST_BUSY)) {
        acc_push(x, b, src, neg);
    } else if (x->qn < x->qcap) {
        x->q[x->qn++] = ((uint64_t)b << 32) | src | (neg ? E_NEG : 0);
    } else {
        acc_overflow(x, b, &x->bases[src], neg);
    }
}

/* Closes the batch: inv = 1 / (key_0 ... key_{k-1}) (1I), then backwards
 * 1/key_i = inv pre[i-1] and inv *= key_i (2 key multiplications), 1/den_i
 * from 1/key_i (KEY_UNDO), and the affine formulas
 *   lambda = (y_Q - y_b) / (x_Q - x_b)   or   3 x_b^2 / (2 y_b),
 *   x3 = lambda^2 - x_b - x_Q,  y3 = lambda (x_b - x3) - y_b
 * (2M + 1S; 1 more S for a doubling).  With the prefix product that is
 * 5M + 1S per addition plus I/k when the key is the denominator (G1); G2's
 * norm keys make it 3M + 1S in Fp2 and 5M + 2S in Fp, 15 Fp products
 * against 17. */
static void acc_flush(bucket_acc *x)
{
    F t, lam, num, den, y2, x3;
    KEY_T inv, ki;
    size_t k = x->k;
    if (!k)
        return;
    KEY_INV(&inv, &x->pre[k - 1]);
    for (size_t i = k; i-- > 0;) {
        uint64_t e = x->ent[i];
        uint32_t b = E_BUCKET(e);
        AFF *d = &x->bk[b];
        const AFF *p = &x->bases[E_SRC(e)];
        const F *xq = &p->x;
        if (e & E_DBL) {
            F_DBL(&den, &d->y);
            F_SQR(&num, &d->x);
            F_DBL(&t, &num);
            F_ADD(&num, &num, &t);
            xq = &d->x;
        } else {
            F_SUB(&den, &p->x, &d->x);
            y2 = p->y;
            if (e & E_NEG)
                F_NEG(&y2, &y2);
            F_SUB(&num, &y2, &d->y);
        }
        if (i) {
            KEY_MUL(&ki, &inv, &x->pre[i - 1]);
            KEY_MUL(&inv, &inv, &x->key[i]);
        } else {
            ki = inv;
        }
        KEY_UNDO(&t, &den, &ki);
        F_MUL(&lam, &num, &t);
        F_SQR(&x3, &lam);
        F_SUB(&x3, &x3, &d->x);
        F_SUB(&x3, &x3, xq);
        F_SUB(&t, &d->x, &x3);
        F_MUL(&t, &t, &lam);
        F_SUB(&d->y, &t, &d->y);
        d->x = x3;
        x->st[b] &= (uint8_t)~ST_BUSY;
    }
    x->k = 0;
}

/* Flushes, then retries the queued points.  Those whose bucket is busy again
 * (a point before them in the queue had the same bucket) stay queued, or
 * with `final` go to the overflow buckets so that the queue ends empty.
 * The retries cannot fill the new batch: a point is queued only while its
 * bucket is in the open batch, and a batch is flushed by the push that fills
 * it, after which nothing is queued, so the queue holds fewer than bcap
 * distinct buckets. */
static void acc_flush_drain(bucket_acc *x, bool final)
{
    acc_flush(x);
    size_t n = x->qn;
    x->qn = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t e = x->q[i];
        uint32_t b = E_BUCKET(e);
        if (x->st[b] & ST_BUSY) {
            if (final)
                acc_overflow(x, b, &x->bases[E_SRC(e)], (e & E_NEG) != 0);
            else
                x->q[x->qn++] = e; /* qn <= i: compaction in place */
            continue;
        }
        acc_place(x, b, E_SRC(e), (e & E_NEG) != 0);
    }
}

static void acc_finish(bucket_acc *x)
{
    while (x->k || x->qn)
        acc_flush_drain(x, true);
}

/* R += bucket b (its affine and overflow parts). */
static void acc_bucket_add(XYZZ *r, const bucket_acc *x, uint32_t b)
{
    uint8_t s = x->st[b];
    if (s & ST_AFF)
        G_(xyzz_add_affine)(r, r, &x->bk[b]);
    if (s & ST_OV)
        G_(xyzz_add)(r, r, &x->ov[b]);
}

/* sum_b (b + 1) S_b for nbw affine buckets S_b (a power of 2, >=
 * MSM_LANES_MIN_BUCKETS; no overflow bucket in use), with the running sums
 * batched across K lanes: lane l takes the L = nbw / K buckets lL .. lL+L-1
 * and computes, top down,
 *   R_l = sum_j S_{lL+j},   T_l = sum_j (j + 1) S_{lL+j}
 * by R_l += S_b then T_l += R_l: each step is two batches of K affine
 * additions (two inversions).  Then, since b + 1 = (j + 1) + lL,
 *   sum_b (b + 1) S_b = sum_l T_l + L sum_l l R_l,
 * the last sum by a running sum over the lanes (XYZZ) and log2 L doublings.
 * About 2 (5M + 1S) per bucket against 22M + 4S for XYZZ running sums.  The
 * lanes live in the (unused) overflow buckets' memory. */
static void reduce_batched(XYZZ *out, const bucket_acc *x, uint32_t nbw)
{
    uint32_t K = msm_lanes(nbw), L = nbw / K;
    AFF *rl = (AFF *)x->ov, *tl = rl + K;
    bucket_acc ra = *x, ta = *x; /* batch storage shared, used in turn */
    ra.bk = rl;
    ra.st = x->lst;
    ra.bases = x->bk;
    ta.bk = tl;
    ta.st = x->lst + K;
    ta.bases = rl;
    ra.bcap = ta.bcap = K;
    memset(x->lst, 0, 2 * (size_t)K);
    for (uint32_t j = L; j-- > 0;) {
        for (uint32_t l = 0; l < K; l++)
            if (x->st[l * L + j] & ST_AFF)
                acc_place(&ra, l, l * L + j, false);
        acc_flush(&ra);
        for (uint32_t l = 0; l < K; l++)
            if (ra.st[l] & ST_AFF)
                acc_place(&ta, l, l, false);
        acc_flush(&ta);
    }
    XYZZ tot, run, acc;
    G_(xyzz_set_inf)(&tot);
    G_(xyzz_set_inf)(&run);
    G_(xyzz_set_inf)(&acc);
    for (uint32_t l = K; l-- > 0;) {
        if (ta.st[l] & ST_AFF)
            G_(xyzz_add_affine)(&tot, &tot, &tl[l]);
        if (l == 0)
            break;
        if (ra.st[l] & ST_AFF)
            G_(xyzz_add_affine)(&run, &run, &rl[l]);
        G_(xyzz_add)(&acc, &acc, &run);
    }
    for (uint32_t e = L; e > 1; e >>= 1)
        G_(xyzz_dbl)(&acc, &acc);
    G_(xyzz_add)(out, &tot, &acc);
}

/* ------------------------------------------------------------- rounds --- */

typedef struct {
    const layout *L;
    uint8_t *scratch;
    const AFF *bases;
    const cz_fr *scalars;   /* the round's first scalar */
    const uint64_t *dens;   /* NULL or the density bitmap */
    size_t r0, len;         /* the round: scalars r0 .. r0 + len */
    size_t base0, base_end; /* base index of the round's first scalar, and past its last */
    size_t chunk;           /* scalars per classification chunk */
    unsigned flags;
    /* lists */
    uint8_t *cls;
    uint32_t *ones, *oidx;
    uint64_t (*osc)[4];
    chunk_info *ci;
    size_t n1, m;
    /* work items */
    atomic_size_t next;
    size_t nitems;
    unsigned c, parts, affine;
    XYZZ *res;
} round_ctx;

static bool density_bit(const uint64_t *dens, size_t i)
{
    return !dens || ((dens[i >> 6] >> (i & 63)) & 1);
}

static bool scalar_is_one(const cz_fr *s, unsigned flags)
{
    static const cz_fr one_canonical = {{1, 0, 0, 0}};
    const cz_fr *one = (flags & CZ_MSM_CANONICAL) ? &one_canonical : &CZ_FR_ONE;
    return memcmp(s, one, sizeof *s) == 0;
}

static bool scalar_is_zero(const cz_fr *s) { return (s->l[0] | s->l[1] | s->l[2] | s->l[3]) == 0; }

/* Pass 1 over chunks: class of every scalar, counts per chunk. */
static void classify(void *arg, size_t cb, size_t ce)
{
    round_ctx *R = arg;
    for (size_t ch = cb; ch < ce; ch++) {
        size_t lo = ch * R->chunk, hi = lo + R->chunk < R->len ? lo + R->chunk : R->len;
        size_t base = R->ci[ch].base, n1 = 0, m = 0;
        for (size_t i = lo; i < hi; i++) {
            uint8_t c = MSM_SKIP;
            if (density_bit(R->dens, R->r0 + i)) {
                const cz_fr *s = &R->scalars[i];
                if (!scalar_is_zero(s) && !G_(affine_is_inf)(&R->bases[base])) {
                    if (!(R->flags & CZ_MSM_NO_SPLIT) && scalar_is_one(s, R->flags)) {
                        c = MSM_ONE;
                        n1++;
                    } else {
                        c = MSM_OTHER;
                        m++;
                    }
                }
                base++;
            }
            R->cls[i] = c;
        }
        R->ci[ch].ones = n1;
        R->ci[ch].others = m;
    }
}

/* Pass 2: the compacted lists, from each chunk's output offsets. */
static void compact(void *arg, size_t cb, size_t ce)
{
    round_ctx *R = arg;
    for (size_t ch = cb; ch < ce; ch++) {
        size_t lo = ch * R->chunk, hi = lo + R->chunk < R->len ? lo + R->chunk : R->len;
        size_t base = R->ci[ch].base, o1 = R->ci[ch].ones, om = R->ci[ch].others;
        for (size_t i = lo; i < hi; i++) {
            if (!density_bit(R->dens, R->r0 + i))
                continue;
            if (R->cls[i] == MSM_ONE) {
                R->ones[o1++] = (uint32_t)base;
            } else if (R->cls[i] == MSM_OTHER) {
                R->oidx[om] = (uint32_t)base;
                if (R->flags & CZ_MSM_CANONICAL)
                    memcpy(R->osc[om], R->scalars[i].l, 32);
                else
                    cz_fr_to_canonical(R->osc[om], &R->scalars[i]);
                om++;
            }
            base++;
        }
    }
}

static uint8_t *slot_of(const round_ctx *R, size_t t)
{
    return R->scratch + R->L->o_slots + t * R->L->slot_bytes;
}

/* Ones pass, one thread slot: round-robin into MSM_ONES_ACC accumulators,
 * then their sum into res[t].  A batch holds at most MSM_ONES_ACC additions
 * and the accumulators are taken in turn, so no point finds its accumulator
 * busy (the queue stays empty). */
static void ones_worker(void *arg, size_t tb, size_t te)
{
    round_ctx *R = arg;
    for (size_t t = tb; t < te; t++) {
        bucket_acc x;
        size_t it, cur = 0;
        acc_init(&x, R->L, slot_of(R, t), R->bases, MSM_ONES_ACC);
        memset(x.st, 0, MSM_ONES_ACC);
        while ((it = atomic_fetch_add(&R->next, 1)) < R->nitems) {
            size_t lo = it * MSM_ONES_ITEM,
                   hi = lo + MSM_ONES_ITEM < R->n1 ? lo + MSM_ONES_ITEM : R->n1;
            for (size_t j = lo; j < hi; j++) {
                if (j + MSM_PREFETCH < hi)
                    prefetch_point(&R->bases[R->ones[j + MSM_PREFETCH]]);
                acc_place(&x, (uint32_t)cur, R->ones[j], false);
                cur = cur + 1 == MSM_ONES_ACC ? 0 : cur + 1;
                if (x.k == x.bcap) /* nothing waits: see above */
                    acc_flush(&x);
            }
        }
        XYZZ *r = &R->res[t]; /* infinity for a slot that got no item */
        G_(xyzz_set_inf)(r);
        acc_finish(&x);
        for (uint32_t b = 0; b < MSM_ONES_ACC; b++)
            acc_bucket_add(r, &x, b);
    }
}

/* Pippenger item it = (window w, range p): accumulate, then
 *   sum_b (b + 1) S_b = sum_b T_b,  T_b = S_b + S_{b+1} + ...
 * by batched affine running sums (reduce_batched), or, for few buckets or
 * when overflow buckets are in use, XYZZ running sums: one mixed and one
 * full XYZZ addition per bucket (8M + 2S and 12M + 2S). */
static void pip_item(round_ctx *R, bucket_acc *x, size_t it)
{
    unsigned w = (unsigned)(it / R->parts), p = (unsigned)(it % R->parts), c = R->c;
    size_t lo = R->m * p / R->parts, hi = R->m * (p + 1) / R->parts;
    uint32_t nbw = msm_window_buckets(w, c);
    const uint64_t(*sc)[4] = R->osc;
    memset(x->st, 0, nbw);
    x->nov = 0;
    for (size_t j = lo; j < hi; j++) {
        /* buckets are random accesses into up to a few MB, and the bases of
         * a sparse list have gaps: fetch those of point j + MSM_PREFETCH
         * while point j is placed */
        if (j + MSM_PREFETCH < hi) {
            int64_t dn = msm_booth_digit(sc[j + MSM_PREFETCH], w, c);
            prefetch_point(&x->bk[(dn < 0 ? -dn : dn) - (dn != 0)]);
            prefetch_point(&R->bases[R->oidx[j + MSM_PREFETCH]]);
        }
        int64_t d = msm_booth_digit(sc[j], w, c);
        if (!d)
            continue;
        bool neg = d < 0;
        uint32_t b = (uint32_t)(neg ? -d : d) - 1;
        if (R->affine) {
            acc_place(x, b, R->oidx[j], neg);
            if (x->k == x->bcap)
                acc_flush_drain(x, false);
        } else {
            acc_overflow(x, b, &R->bases[R->oidx[j]], neg);
        }
    }
    acc_finish(x);
    if (R->affine && nbw >= MSM_LANES_MIN_BUCKETS && !x->nov) {
        reduce_batched(&R->res[it], x, nbw);
        return;
    }
    XYZZ run, tot;
    G_(xyzz_set_inf)(&run);
    G_(xyzz_set_inf)(&tot);
    for (uint32_t b = nbw; b-- > 0;) {
        acc_bucket_add(&run, x, b);
        G_(xyzz_add)(&tot, &tot, &run);
    }
    R->res[it] = tot;
}

static void pip_worker(void *arg, size_t tb, size_t te)
{
    round_ctx *R = arg;
    for (size_t t = tb; t < te; t++) {
        bucket_acc x;
        size_t it;
        acc_init(&x, R->L, slot_of(R, t), R->bases, R->affine ? msm_batch(R->c) : 1);
        while ((it = atomic_fetch_add(&R->next, 1)) < R->nitems)
            pip_item(R, &x, it);
    }
}

/* One round: classify, ones pass, Pippenger; adds its sum to *total. */
static void run_round(XYZZ *total, round_ctx *R, cz_pool *pool)
{
    const layout *L = R->L;
    unsigned T = L->nthreads;
    size_t nch;

    /* chunks: multiples of 64 scalars (whole density words) */
    R->chunk = (R->len + 4 * (size_t)T - 1) / (4 * (size_t)T);
    if (R->chunk < 4096)
        R->chunk = 4096;
    R->chunk = (R->chunk + 63) & ~(size_t)63;
    nch = (R->len + R->chunk - 1) / R->chunk;
    size_t base = R->base0;
    for (size_t ch = 0; ch < nch; ch++) {
        size_t lo = R->r0 + ch * R->chunk, hi = lo + R->chunk;
        if (hi > R->r0 + R->len)
            hi = R->r0 + R->len;
        R->ci[ch].base = base;
        if (!R->dens) {
            base += hi - lo;
            continue;
        }
        /* whole words: only the round's last chunk may end inside one, and
         * no base index is needed after it */
        for (size_t i = lo; i < hi; i += 64)
            base += (size_t)__builtin_popcountll(R->dens[i >> 6]);
    }
    R->base_end = base;
    cz_pool_parallel_for(pool, nch, 1, classify, R);
    size_t n1 = 0, m = 0;
    for (size_t ch = 0; ch < nch; ch++) {
        size_t a = R->ci[ch].ones, b = R->ci[ch].others;
        R->ci[ch].ones = n1;
        R->ci[ch].others = m;
        n1 += a;
        m += b;
    }
    R->n1 = n1;
    R->m = m;
    cz_pool_parallel_for(pool, nch, 1, compact, R);

    if (n1) {
        R->nitems = (n1 + MSM_ONES_ITEM - 1) / MSM_ONES_ITEM;
        atomic_store(&R->next, 0);
        unsigned use = R->nitems < T ? (unsigned)R->nitems : T;
        cz_pool_parallel_for(pool, use, 1, ones_worker, R);
        for (unsigned t = 0; t < use; t++)
            G_(xyzz_add)(total, total, &R->res[t]);
    }
    if (m) {
        /* a forced width is the slot's; else never wider than the slot */
        unsigned forced = msm_flag_window(R->flags), parts = msm_flag_parts(R->flags), c;
        c = msm_choose_window(m, T, forced ? forced : 1, L->cslot, &MSM_COSTS, &parts);
        unsigned nwin = msm_nwin(c);
        R->c = c;
        R->parts = parts;
        R->affine = c >= CZ_MSM_AFFINE_MIN_WINDOW;
        R->nitems = (size_t)nwin * parts;
        atomic_store(&R->next, 0);
        unsigned use = R->nitems < T ? (unsigned)R->nitems : T;
        cz_pool_parallel_for(pool, use, 1, pip_worker, R);
        XYZZ acc_w, sum;
        G_(xyzz_set_inf)(&sum);
        for (unsigned w = nwin; w-- > 0;) {
            for (unsigned i = 0; i < c; i++)
                G_(xyzz_dbl)(&sum, &sum);
            acc_w = R->res[(size_t)w * parts];
            for (unsigned p = 1; p < parts; p++)
                G_(xyzz_add)(&acc_w, &acc_w, &R->res[(size_t)w * parts + p]);
            G_(xyzz_add)(&sum, &sum, &acc_w);
        }
        G_(xyzz_add)(total, total, &sum);
    }
}

static int msm_run(JAC *out, const AFF *bases, size_t n_bases, const cz_fr *scalars,
                   const uint64_t *dens, size_t n, unsigned flags, cz_pool *pool, void *scratch,
                   size_t scratch_bytes)
{
    layout L;
    if (!out || (n && (!scalars || (!bases && n_bases))) || n >= ((size_t)1 << 32) ||
        msm_flag_window(flags) > CZ_MSM_MAX_WINDOW || msm_flag_parts(flags) > CZ_MSM_MAX_PARTS ||
        !scratch || ((uintptr_t)scratch & 63))
        return CZ_ERR_INVALID_ARG;
    if (dens) {
        size_t cnt = 0;
        for (size_t i = 0; i < n; i += 64) {
            uint64_t wd = dens[i >> 6];
            if (n - i < 64)
                wd &= ((uint64_t)1 << (n - i)) - 1;
            cnt += (size_t)__builtin_popcountll(wd);
        }
        if (cnt != n_bases)
            return CZ_ERR_INVALID_ARG;
    } else if (n_bases != n) {
        return CZ_ERR_INVALID_ARG;
    }
    /* as many threads as the pool has and the scratch holds, with the
     * widest slot window that fits (down to 1: then scratch sized for
     * nthreads threads always fits nthreads or fewer; a forced window stays) */
    unsigned t = cz_msm_nthreads(pool), forced = msm_flag_window(flags);
    for (;; t--) {
        unsigned c = slot_window(layout_round(n), t, flags);
        for (;;) {
            layout_init(&L, n, t, c, flags);
            if (L.total <= scratch_bytes || forced || c == 1)
                break;
            c--;
        }
        if (L.total <= scratch_bytes)
            break;
        if (t == 1)
            return CZ_ERR_INVALID_ARG;
    }

    uint8_t *s = scratch;
    round_ctx R;
    memset(&R, 0, sizeof R);
    R.L = &L;
    R.scratch = s;
    R.bases = bases;
    R.dens = dens;
    R.flags = flags;
    R.cls = s + L.o_cls;
    R.ones = (uint32_t *)(s + L.o_ones);
    R.oidx = (uint32_t *)(s + L.o_oidx);
    R.osc = (uint64_t(*)[4])(s + L.o_osc);
    R.ci = (chunk_info *)(s + L.o_chunks);
    R.res = (XYZZ *)(s + L.o_res);

    XYZZ total;
    G_(xyzz_set_inf)(&total);
    for (size_t r0 = 0; r0 < n; r0 += L.round) {
        R.r0 = r0;
        R.len = n - r0 < L.round ? n - r0 : L.round;
        R.scalars = scalars + r0;
        run_round(&total, &R, pool);
        R.base0 = R.base_end;
    }
    G_(xyzz_to_jacobian)(out, &total);
    return CZ_OK;
}

int G_(msm)(JAC *out, const AFF *bases, const cz_fr *scalars, size_t n, unsigned flags,
            cz_pool *pool, void *scratch, size_t scratch_bytes)
{
    return msm_run(out, bases, n, scalars, NULL, n, flags, pool, scratch, scratch_bytes);
}

int G_(msm_density)(JAC *out, const AFF *bases, size_t n_bases, const cz_fr *scalars,
                    const uint64_t *density, size_t n_scalars, unsigned flags, cz_pool *pool,
                    void *scratch, size_t scratch_bytes)
{
    if (!density) {
        if (n_scalars || n_bases || !out)
            return CZ_ERR_INVALID_ARG;
        G_(set_inf)(out);
        return CZ_OK;
    }
    return msm_run(out, bases, n_bases, scalars, density, n_scalars, flags, pool, scratch,
                   scratch_bytes);
}

/* ------------------------------------------------------- fixed base --- */

/* Homogeneous projective (X : Y : Z) = (X/Z, Y/Z), identity (0 : 1 : 0),
 * for the complete formulas of Renes, Costello and Batina (2015). */
typedef struct {
    F x, y, z;
} proj;

/* Algorithm 8 of Renes-Costello-Batina (a = 0, Q affine, Q != identity),
 * 11M + 2 m_3b; complete for every P.  It is Algorithm 7 with Z2 = 1:
 *   t0 = X1 X2, t1 = Y1 Y2, t3 = (X1 + Y1)(X2 + Y2) - t0 - t1,
 *   t4 = Y2 Z1 + Y1, s = X2 Z1 + X1, t2 = 3b Z1, Z3 = t1 + t2, t1 = t1 - t2,
 *   s = 3b s, X3 = t3 t1 - t4 s, Y3 = t1 Z3 + 3 t0 s,
 *   Z3 = Z3 t4 + 3 t0 t3. */
static void proj_add_affine(proj *r, const proj *p, const AFF *q)
{
    F t0, t1, t2, t3, t4, s, u;
    F_MUL(&t0, &p->x, &q->x);
    F_MUL(&t1, &p->y, &q->y);
    F_ADD(&t3, &p->x, &p->y);
    F_ADD(&t4, &q->x, &q->y);
    F_MUL(&t3, &t3, &t4);
    F_ADD(&t4, &t0, &t1);
    F_SUB(&t3, &t3, &t4);
    F_MUL(&t4, &q->y, &p->z);
    F_ADD(&t4, &t4, &p->y);
    F_MUL(&s, &q->x, &p->z);
    F_ADD(&s, &s, &p->x);
    F_DBL(&u, &t0);
    F_ADD(&t0, &u, &t0); /* 3 X1 X2 */
    F_MUL_B3(&t2, &p->z);
    F_ADD(&u, &t1, &t2); /* Z3 */
    F_SUB(&t1, &t1, &t2);
    F_MUL_B3(&s, &s);
    F_MUL(&t2, &t4, &s);
    F_MUL(&r->x, &t3, &t1);
    F_SUB(&r->x, &r->x, &t2);
    F_MUL(&s, &s, &t0);
    F_MUL(&t1, &t1, &u);
    F_ADD(&r->y, &t1, &s);
    F_MUL(&t0, &t0, &t3);
    F_MUL(&u, &u, &t4);
    F_ADD(&r->z, &u, &t0);
}

static void proj_cmov(proj *r, const proj *a, bool flag)
{
    F_CMOV(&r->x, &a->x, flag);
    F_CMOV(&r->y, &a->y, flag);
    F_CMOV(&r->z, &a->z, flag);
}

size_t G_(fixed_table_bytes)(unsigned w)
{
    if (w < 1 || w > 16)
        return 0;
    return ((size_t)msm_nwin(w) << (w - 1)) * sizeof(AFF);
}

/* Row j: P_j = 2^(wj) B, then P_j, 2 P_j, ... by additions, converted to
 * affine 32 at a time (one inversion each). */
void G_(fixed_table_init)(void *table, unsigned w, const AFF *base)
{
    AFF *tab = table;
    unsigned nwin = msm_nwin(w);
    size_t row = (size_t)1 << (w - 1);
    JAC pj, e, buf[32];
    if (G_(affine_is_inf)(base)) {
        memset(tab, 0, G_(fixed_table_bytes)(w));
        return;
    }
    G_(from_affine)(&pj, base);
    for (unsigned j = 0; j < nwin; j++, tab += row) {
        e = pj;
        for (size_t d0 = 0; d0 < row; d0 += 32) {
            size_t n = row - d0 < 32 ? row - d0 : 32;
            for (size_t i = 0; i < n; i++) {
                buf[i] = e;
                G_(add)(&e, &e, &pj);
            }
            GS_TO_AFFINE(tab + d0, buf, n);
        }
        for (unsigned i = 0; i < w; i++)
            G_(dbl)(&pj, &pj);
    }
}

typedef struct {
    const AFF *tab;
    unsigned w, flags;
    const cz_fr *k;
    AFF *out;
} fixed_ctx;

/* r = row[a - 1] for 1 <= a <= n, or (0, 0) for a = 0, reading every entry
 * and OR-ing it in under an all-ones or all-zero mask, two limbs at a time
 * (SSE2). */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

static void select_entry(AFF *r, const AFF *row, uint64_t n, uint64_t a)
{
    u64x2 acc[sizeof(AFF) / 16] = {{0}};
    for (uint64_t u = 1; u <= n; u++) {
        uint64_t m = cz_value_barrier(0 - (((u ^ a) - 1) >> 63)); /* u == a */
        u64x2 mv = {m, m}, e[sizeof(AFF) / 16];
        memcpy(e, &row[u - 1], sizeof e);
#pragma GCC unroll 12
        for (size_t l = 0; l < sizeof(AFF) / 16; l++)
            acc[l] |= e[l] & mv;
    }
    memcpy(r, acc, sizeof acc);
}

/* k B = sum_j d_j 2^(wj) B with Booth digits d_j: per window, every entry
 * of the row is read and the one of index |d_j| - 1 kept (select_entry),
 * its y negated by cmov when d_j < 0, and the sum taken only when d_j != 0
 * (cmov again; for d_j = 0 the addition of (0, 0) computes garbage that is
 * dropped).  No branch or address depends on k. */
static void fixed_one(proj *r, const fixed_ctx *f, const cz_fr *k)
{
    uint64_t e[4];
    unsigned w = f->w, nwin = msm_nwin(w);
    uint64_t row = (uint64_t)1 << (w - 1);
    proj acc, t;
    AFF sel;
    F ny;
    if (f->flags & CZ_MSM_CANONICAL)
        memcpy(e, k->l, sizeof e);
    else
        cz_fr_to_canonical(e, k);
    memset(&acc, 0, sizeof acc);
    acc.y = F_ONE;
    for (unsigned j = 0; j < nwin; j++) {
        const AFF *tr = f->tab + j * row;
        int64_t d = msm_booth_digit(e, j, w);
        uint64_t neg = (uint64_t)d >> 63, mask = cz_value_barrier(0 - neg);
        uint64_t a = ((uint64_t)d ^ mask) - mask; /* |d| */
        select_entry(&sel, tr, row, a);
        F_NEG(&ny, &sel.y);
        F_CMOV(&sel.y, &ny, neg);
        proj_add_affine(&t, &acc, &sel);
        proj_cmov(&acc, &t, (a | (0 - a)) >> 63); /* d != 0 */
    }
    *r = acc;
}

/* 32 products at a time, then to affine with one inversion: Z = 0 (k = 0,
 * the identity (0 : Y : 0)) is replaced by 1 in the product and y set to 0,
 * by cmov. */
static void fixed_range(void *arg, size_t lo, size_t hi)
{
    const fixed_ctx *f = arg;
    proj pt[32];
    F pre[32], inv, zi, z;
    bool inf[32];
    for (size_t i0 = lo; i0 < hi; i0 += 32) {
        size_t n = hi - i0 < 32 ? hi - i0 : 32;
        for (size_t i = 0; i < n; i++) {
            fixed_one(&pt[i], f, &f->k[i0 + i]);
            inf[i] = F_IS_ZERO(&pt[i].z);
            F_CMOV(&pt[i].z, &F_ONE, inf[i]);
            if (i)
                F_MUL(&pre[i], &pre[i - 1], &pt[i].z);
            else
                pre[0] = pt[0].z;
        }
        F_INV(&inv, &pre[n - 1]);
        for (size_t i = n; i-- > 0;) {
            AFF *o = &f->out[i0 + i];
            if (i) {
                F_MUL(&zi, &inv, &pre[i - 1]);
                F_MUL(&inv, &inv, &pt[i].z);
            } else {
                zi = inv;
            }
            F_MUL(&o->x, &pt[i].x, &zi); /* X = 0 at the identity */
            F_MUL(&o->y, &pt[i].y, &zi);
            memset(&z, 0, sizeof z);
            F_CMOV(&o->y, &z, inf[i]);
        }
    }
}

void G_(fixed_mul)(AFF *out, const void *table, unsigned w, const cz_fr *k, size_t n,
                   unsigned flags, cz_pool *pool)
{
    fixed_ctx f = {table, w, flags, k, out};
    if (G_(affine_is_inf)(&f.tab[0])) { /* B = infinity (public) */
        memset(out, 0, n * sizeof *out);
        return;
    }
    cz_pool_parallel_for(pool, n, 64, fixed_range, &f);
}
