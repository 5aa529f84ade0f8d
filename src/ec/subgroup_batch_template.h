/* The batched subgroup check, written once for G1 and G2 and included twice
 * by subgroup_batch.c (no include guard), which has the argument for each
 * group's parameters.
 *
 * The includer defines:
 *   F, F_(op)      the coordinate field: F_(mul) is cz_fp_mul, ...
 *   G_(name)       the group's names: G_(add) is cz_g1_add
 *   B_(name)       this file's internal names, one set per group
 *   AFF, JAC       the affine and Jacobian point types
 *   ROUNDS         rounds of random combinations
 *   MAGS           coefficient magnitudes: each round's coefficients are
 *                  uniform in {-MAGS, ..., MAGS} (2 MAGS + 1 values)
 *   DIGIT_BITS     bits drawn per coefficient (2^DIGIT_BITS > 2 MAGS)
 *   BLOCK          points per block
 *   BATCH          the function's name (cz_g1_batch_in_subgroup)
 *
 * Per round j and magnitude m the block keeps one list L(j, m) of signed
 * points: P_i goes to L(j, |c_ij|) as sign(c_ij) P_i (nothing for 0).  The
 * lists are summed pairwise, level by level, all pairs of a level sharing
 * one inversion (Montgomery's trick): an affine addition costs ~6
 * multiplications.  A list's sum is carried into the next block of the
 * same task as the list's first point, so the task ends with one point
 * S(j, m) per list, and round j's combination is
 *   Q_j = sum_m m S(j, m)
 * (running sums, summed over the tasks), which must lie in the subgroup. */

#define LISTS (ROUNDS * MAGS)

/* Per task: the block's coefficients, its lists laid out back to back
 * (each with a slot for the carried sum), a level's numerators,
 * denominators, inverses (one per pair) and the inversion's scratch. */
typedef struct {
    uint8_t *dg;      /* BLOCK x ROUNDS coefficient codes */
    AFF *pt;          /* BLOCK x ROUNDS + LISTS points */
    F *num, *den, *inv, *tmp;
    uint32_t off[LISTS], len[LISTS];
    AFF carry[LISTS]; /* S(j, m) so far */
    bool has[LISTS];
} B_(scratch);

/* One level: every list halved (pairs summed, an odd last point kept).
 * Returns whether any list still has two points or more. */
static bool B_(level)(B_(scratch) *s)
{
    size_t np = 0;
    for (unsigned j = 0; j < LISTS; j++) {
        const AFF *l = s->pt + s->off[j];
        for (uint32_t k = 0; k + 1 < s->len[j]; k += 2) {
            const AFF *a = &l[k], *b = &l[k + 1];
            if (F_(equal)(&a->x, &b->x)) { /* doubling or a + (-a) */
                if (!F_(equal)(&a->y, &b->y)) {
                    memset(&s->den[np], 0, sizeof s->den[np]); /* vanishes */
                    memset(&s->num[np], 0, sizeof s->num[np]);
                } else {
                    F x2;
                    F_(sqr)(&x2, &a->x);
                    F_(add)(&s->num[np], &x2, &x2);
                    F_(add)(&s->num[np], &s->num[np], &x2); /* 3 x^2 */
                    F_(dbl)(&s->den[np], &a->y);            /* 2 y, != 0 */
                }
            } else {
                F_(sub)(&s->num[np], &b->y, &a->y);
                F_(sub)(&s->den[np], &b->x, &a->x);
            }
            np++;
        }
    }
    if (np == 0)
        return false;
    F_(batch_inv)(s->inv, s->den, np, s->tmp);
    /* the sums, written over each list's front in order (pair k/2 to k/2) */
    bool more = false;
    size_t q = 0;
    for (unsigned j = 0; j < LISTS; j++) {
        AFF *l = s->pt + s->off[j];
        uint32_t out = 0, len = s->len[j];
        for (uint32_t k = 0; k + 1 < len; k += 2, q++) {
            const AFF a = l[k], b = l[k + 1];
            if (F_(is_zero)(&s->den[q]))
                continue; /* a + (-a) = 0 */
            F lam, x3, y3;
            F_(mul)(&lam, &s->num[q], &s->inv[q]);
            F_(sqr)(&x3, &lam);
            F_(sub)(&x3, &x3, &a.x);
            F_(sub)(&x3, &x3, &b.x);
            F_(sub)(&y3, &a.x, &x3);
            F_(mul)(&y3, &y3, &lam);
            F_(sub)(&y3, &y3, &a.y);
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

/* Block b (m points from first) into the lists, the carried sums first. */
static void B_(fill)(B_(scratch) *s, const AFF *p, size_t m, const uint8_t key[32], uint64_t b)
{
    digits d;
    digits_init(&d, key, b);
    for (size_t i = 0; i < m * ROUNDS; i++)
        s->dg[i] = (uint8_t)digit(&d, DIGIT_BITS, 2 * MAGS + 1); /* drawn whatever the point */
    memset(s->len, 0, sizeof s->len);
    for (unsigned j = 0; j < LISTS; j++)
        s->len[j] = s->has[j];
    for (size_t i = 0; i < m; i++) {
        if (G_(affine_is_inf)(&p[i]))
            continue;
        for (unsigned j = 0; j < ROUNDS; j++) {
            unsigned c = s->dg[i * ROUNDS + j];
            if (c)
                s->len[j * MAGS + (c - 1) % MAGS]++;
        }
    }
    uint32_t o = 0;
    for (unsigned j = 0; j < LISTS; j++) {
        s->off[j] = o;
        o += s->len[j];
        s->len[j] = s->has[j];
        if (s->has[j])
            s->pt[s->off[j]] = s->carry[j];
    }
    for (size_t i = 0; i < m; i++) {
        if (G_(affine_is_inf)(&p[i]))
            continue;
        for (unsigned j = 0; j < ROUNDS; j++) {
            unsigned c = s->dg[i * ROUNDS + j]; /* 1..MAGS: +c, MAGS+1..2 MAGS: -(c - MAGS) */
            if (c == 0)
                continue;
            unsigned l = j * MAGS + (c - 1) % MAGS;
            AFF *t = &s->pt[s->off[l] + s->len[l]++];
            *t = p[i];
            if (c > MAGS)
                F_(neg)(&t->y, &t->y);
        }
    }
}

typedef struct {
    const AFF *p;
    size_t n, n_blocks, tasks;
    uint8_t key[32];
    JAC *sum; /* per task: ROUNDS combinations */
    atomic_int nomem;
} B_(job);

static void B_(run)(void *arg, size_t tb, size_t te)
{
    B_(job) *J = arg;
    B_(scratch) *s = malloc(sizeof *s);
    size_t cap = (size_t)BLOCK * ROUNDS + LISTS, pairs = cap / 2 + 1;
    uint8_t *dg = malloc((size_t)BLOCK * ROUNDS);
    AFF *pt = malloc(cap * sizeof *pt);
    F *f = malloc(4 * pairs * sizeof *f);
    if (s == NULL || dg == NULL || pt == NULL || f == NULL) {
        free(s), free(dg), free(pt), free(f);
        atomic_store(&J->nomem, 1);
        return;
    }
    s->dg = dg, s->pt = pt;
    s->num = f, s->den = f + pairs, s->inv = f + 2 * pairs, s->tmp = f + 3 * pairs;
    for (size_t t = tb; t < te; t++) {
        memset(s->has, 0, sizeof s->has);
        /* task t: blocks t, t + tasks, ... */
        for (size_t b = t; b < J->n_blocks; b += J->tasks) {
            size_t first = b * BLOCK, m = J->n - first < BLOCK ? J->n - first : BLOCK;
            B_(fill)(s, J->p + first, m, J->key, b);
            while (B_(level)(s))
                ;
            for (unsigned j = 0; j < LISTS; j++) {
                s->has[j] = s->len[j] == 1;
                if (s->has[j])
                    s->carry[j] = s->pt[s->off[j]];
            }
        }
        /* Q_j = sum_m m S(j, m): running sums from the top magnitude */
        for (unsigned j = 0; j < ROUNDS; j++) {
            JAC run, acc;
            G_(set_inf)(&run);
            G_(set_inf)(&acc);
            for (unsigned k = MAGS; k-- > 0;) {
                if (s->has[j * MAGS + k])
                    G_(add_affine)(&run, &run, &s->carry[j * MAGS + k]);
                G_(add)(&acc, &acc, &run);
            }
            J->sum[t * ROUNDS + j] = acc;
        }
    }
    free(s), free(dg), free(pt), free(f);
}

int BATCH(const AFF *p, size_t n, cz_pool *pool, bool *all_in)
{
    *all_in = false;
    B_(job) J = {.p = p, .n = n, .n_blocks = (n + BLOCK - 1) / BLOCK};
    if (cz_os_random(J.key, sizeof J.key) != CZ_OK)
        return CZ_ERR_IO;
    /* the pool's workers and the calling thread (cz_pool_parallel_for
     * runs a share on the caller): one task each */
    unsigned threads = pool ? cz_pool_threads(pool) + 1 : 1;
    J.tasks = J.n_blocks < threads ? J.n_blocks : threads;
    if (J.tasks == 0) {
        *all_in = true;
        return CZ_OK;
    }
    J.sum = malloc(J.tasks * ROUNDS * sizeof *J.sum);
    if (J.sum == NULL)
        return CZ_ERR_NOMEM;
    atomic_init(&J.nomem, 0);
    cz_pool_parallel_for(pool, J.tasks, 1, B_(run), &J);
    bool ok = true;
    for (unsigned j = 0; j < ROUNDS && ok && !atomic_load(&J.nomem); j++) {
        JAC q = J.sum[j];
        for (size_t t = 1; t < J.tasks; t++)
            G_(add)(&q, &q, &J.sum[t * ROUNDS + j]);
        ok = G_(in_subgroup)(&q);
    }
    free(J.sum);
    if (atomic_load(&J.nomem))
        return CZ_ERR_NOMEM;
    *all_in = ok;
    return CZ_OK;
}

#undef LISTS
