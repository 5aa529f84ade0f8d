/* Batched G1 subgroup check (cuzk/ec.h cz_g1_batch_in_subgroup).
 *
 * E(Fp) is G1 x T, T the torsion of order h = 3 11^2 10177^2 859267^2
 * 52437899^2 (h = (x - 1)^2 / 3, x the curve's seed; no factor 2, so no
 * point has y = 0).  Write P_i = G_i + T_i.  For each of ROUNDS rounds j
 * draw c_ij uniformly from {-1, 0, 1} (the OS CSPRNG keys a ChaCha20
 * stream, so the key's author cannot predict them) and form
 *   Q_j = sum_i c_ij P_i,
 * then check Q_j in G1 with the single-point test.  Q_j's torsion part is
 * sum_i c_ij T_i, so every Q_j passes when every T_i = 0.
 *
 * Soundness: if some T_k != 0, fix every c_ij but c_kj; the torsion part is
 * A + c_kj T_k, and since T_k has order >= 3 the three values A - T_k, A,
 * A + T_k are distinct: at most one is 0.  So round j misses with
 * probability <= 1/3, independently of the others, and all ROUNDS = 81
 * rounds miss with probability <= 3^-81 < 2^-128, whatever the points
 * (the adversary knows the algorithm, not the c_ij).  Larger coefficients
 * would not help: two points with torsion parts T and -T escape whenever
 * their coefficients agree mod 3, which any distribution allows with
 * probability >= 1/3; {-1, 0, 1} is the cheapest distribution reaching it
 * (2/3 of an addition per point and round).
 *
 * Cost: 54 affine additions per point on average, done in batches: the
 * points are taken in blocks of BLOCK, and within a block every round's
 * signed points are summed pairwise, level by level, all rounds' pairs of
 * a level sharing one inversion (Montgomery's trick): ~6 multiplications
 * per addition, against the ~128 doublings of one cz_g1_in_subgroup.
 * Exceptional pairs are exact: equal points are doubled, opposite ones
 * vanish.  Blocks run in parallel on the pool, their sums added up per
 * round at the end.  Variable time: the points are public. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/chacha.h"
#include "cuzk/ec.h"
#include "cuzk/err.h"
#include "cuzk/pool.h"
#include "cuzk/rand.h"

#define ROUNDS 81   /* 3^-81 < 2^-128 */
#define BLOCK  256  /* points per block: 81 x ~170 affine values in flight */

/* A block's random digits: ChaCha20 keyed by the call's key, the block
 * index as the nonce, 2 bits at a time, 3 rejected, so each digit is
 * uniform in {0, 1, 2} (standing for 0, +1, -1). */
typedef struct {
    uint32_t in[16], out[16];
    unsigned word, bits;
    uint64_t ctr;
} digits;

static void digits_init(digits *d, const uint8_t key[32], uint64_t block)
{
    memset(d, 0, sizeof *d);
    cz_chacha_setup(d->in, key);
    d->in[14] = (uint32_t)block;
    d->in[15] = (uint32_t)(block >> 32);
    d->word = 16;
}

static unsigned digit(digits *d)
{
    for (;;) {
        if (d->bits == 0) {
            if (d->word == 16) {
                d->in[12] = (uint32_t)d->ctr;
                d->in[13] = (uint32_t)(d->ctr >> 32);
                d->ctr++;
                cz_chacha_block(d->out, d->in, 20);
                d->word = 0;
            }
            d->bits = 32;
            d->word++;
        }
        unsigned v = (d->out[d->word - 1] >> (32 - d->bits)) & 3;
        d->bits -= 2;
        if (v != 3)
            return v;
    }
}

typedef struct {
    const cz_g1_affine *p;
    size_t n, n_blocks;
    uint8_t key[32];
    cz_g1 *sum; /* per task: ROUNDS */
    size_t tasks;
    atomic_int nomem;
} job;

/* Per task scratch: ROUNDS lists of affine points and their lengths, and a
 * level's numerators, denominators, inverses (one per pair). */
typedef struct {
    cz_g1_affine *pt; /* ROUNDS x BLOCK */
    uint32_t len[ROUNDS];
    cz_fp *num, *den, *inv, *tmp;
} scratch;

/* One level: every round's list halved (pairs summed, an odd last point
 * kept).  Returns whether any list still has two points or more. */
static bool level(scratch *s)
{
    size_t np = 0;
    for (unsigned j = 0; j < ROUNDS; j++) {
        cz_g1_affine *l = s->pt + (size_t)j * BLOCK;
        for (uint32_t k = 0; k + 1 < s->len[j]; k += 2) {
            const cz_g1_affine *a = &l[k], *b = &l[k + 1];
            if (cz_fp_equal(&a->x, &b->x)) { /* doubling or a + (-a) */
                if (!cz_fp_equal(&a->y, &b->y)) {
                    s->den[np] = CZ_FP_ZERO; /* vanishes */
                    s->num[np] = CZ_FP_ZERO;
                } else {
                    cz_fp x2;
                    cz_fp_sqr(&x2, &a->x);
                    cz_fp_add(&s->num[np], &x2, &x2);
                    cz_fp_add(&s->num[np], &s->num[np], &x2); /* 3 x^2 */
                    cz_fp_dbl(&s->den[np], &a->y);            /* 2 y, != 0 */
                }
            } else {
                cz_fp_sub(&s->num[np], &b->y, &a->y);
                cz_fp_sub(&s->den[np], &b->x, &a->x);
            }
            np++;
        }
    }
    if (np == 0)
        return false;
    cz_fp_batch_inv(s->inv, s->den, np, s->tmp);
    /* the sums, written over each list's front in order (pair k/2 to k/2) */
    bool more = false;
    size_t q = 0;
    for (unsigned j = 0; j < ROUNDS; j++) {
        cz_g1_affine *l = s->pt + (size_t)j * BLOCK;
        uint32_t out = 0, len = s->len[j];
        for (uint32_t k = 0; k + 1 < len; k += 2, q++) {
            const cz_g1_affine a = l[k], b = l[k + 1];
            if (cz_fp_is_zero(&s->den[q]))
                continue; /* a + (-a) = 0 */
            cz_fp lam, x3, y3;
            cz_fp_mul(&lam, &s->num[q], &s->inv[q]);
            cz_fp_sqr(&x3, &lam);
            cz_fp_sub(&x3, &x3, &a.x);
            cz_fp_sub(&x3, &x3, &b.x);
            cz_fp_sub(&y3, &a.x, &x3);
            cz_fp_mul(&y3, &y3, &lam);
            cz_fp_sub(&y3, &y3, &a.y);
            l[out].x = x3;
            l[out].y = y3;
            out++;
        }
        if (len & 1)
            l[out++] = l[len - 1];
        s->len[j] = out;
        more |= out > 1;
    }
    return more;
}

static void run(void *arg, size_t tb, size_t te)
{
    job *J = arg;
    scratch s;
    size_t pairs = (size_t)ROUNDS * BLOCK / 2;
    s.pt = malloc((size_t)ROUNDS * BLOCK * sizeof *s.pt);
    s.num = malloc(4 * pairs * sizeof *s.num);
    if (s.pt == NULL || s.num == NULL) {
        free(s.pt), free(s.num);
        atomic_store(&J->nomem, 1);
        return;
    }
    s.den = s.num + pairs, s.inv = s.den + pairs, s.tmp = s.inv + pairs;
    for (size_t t = tb; t < te; t++) {
        cz_g1 *sum = J->sum + t * ROUNDS;
        for (unsigned j = 0; j < ROUNDS; j++)
            cz_g1_set_inf(&sum[j]);
        /* task t: blocks t, t + tasks, ... */
        for (size_t b = t; b < J->n_blocks; b += J->tasks) {
            size_t first = b * BLOCK, m = J->n - first < BLOCK ? J->n - first : BLOCK;
            digits d;
            digits_init(&d, J->key, b);
            memset(s.len, 0, sizeof s.len);
            for (size_t i = 0; i < m; i++) {
                const cz_g1_affine *p = &J->p[first + i];
                bool inf = cz_g1_affine_is_inf(p);
                for (unsigned j = 0; j < ROUNDS; j++) {
                    unsigned c = digit(&d); /* drawn whatever the point, for replay */
                    if (c == 0 || inf)
                        continue;
                    cz_g1_affine *o = &s.pt[(size_t)j * BLOCK + s.len[j]++];
                    *o = *p;
                    if (c == 2)
                        cz_fp_neg(&o->y, &o->y);
                }
            }
            while (level(&s))
                ;
            for (unsigned j = 0; j < ROUNDS; j++)
                if (s.len[j] == 1)
                    cz_g1_add_affine(&sum[j], &sum[j], &s.pt[(size_t)j * BLOCK]);
        }
    }
    free(s.pt), free(s.num);
}

int cz_g1_batch_in_subgroup(const cz_g1_affine *p, size_t n, cz_pool *pool, bool *all_in)
{
    *all_in = false;
    job J = {.p = p, .n = n, .n_blocks = (n + BLOCK - 1) / BLOCK};
    if (cz_os_random(J.key, sizeof J.key) != CZ_OK)
        return CZ_ERR_IO;
    unsigned threads = pool ? cz_pool_threads(pool) : 1;
    J.tasks = J.n_blocks < threads ? J.n_blocks : threads;
    if (J.tasks == 0) {
        *all_in = true;
        return CZ_OK;
    }
    J.sum = malloc(J.tasks * ROUNDS * sizeof *J.sum);
    if (J.sum == NULL)
        return CZ_ERR_NOMEM;
    atomic_init(&J.nomem, 0);
    cz_pool_parallel_for(pool, J.tasks, 1, run, &J);
    bool ok = true;
    for (unsigned j = 0; j < ROUNDS && ok && !atomic_load(&J.nomem); j++) {
        cz_g1 q = J.sum[j];
        for (size_t t = 1; t < J.tasks; t++)
            cz_g1_add(&q, &q, &J.sum[t * ROUNDS + j]);
        ok = cz_g1_in_subgroup(&q);
    }
    free(J.sum);
    if (atomic_load(&J.nomem))
        return CZ_ERR_NOMEM;
    *all_in = ok;
    return CZ_OK;
}
