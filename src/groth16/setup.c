/* Insecure Groth16 parameter generation from a seed (tests, benchmarks).
 *
 * With the trapdoor (tau, alpha, beta, gamma, delta) and the domain of the
 * m-th roots of unity omega^j:
 *   L_j(tau) = (tau^m - 1) / m * omega^j / (tau - omega^j)       (Lagrange)
 *   u_i = sum_j A_ji L_j(tau), v_i likewise with B, w_i with C   (columns)
 * and every query point is a scalar times a generator, computed with the
 * constant-time fixed-base tables of msm.h.  The snarkjs flavor's H points
 * use the 2m-point basis at the odd indices k = 2i + 1:
 *   L'_k(tau) = (tau^2m - 1) / 2m * w^k / (tau - w^k),  w = omega_2m.
 * Cost: one batch inversion per basis (3 multiplications per element and
 * one inversion), one pass over the matrices (nnz multiplications), and one
 * fixed-base product per point (about 24 us in G1 with w = 8).
 *
 * Every array derived from the trapdoor is wiped before it is freed. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "cuzk/rand.h"
#include "groth16/g16_internal.h"

#define TABLE_W 8

typedef struct {
    cz_fr tau, alpha, beta, gamma, delta;
} trapdoor;

static void draw_nonzero(cz_fr *x, cz_prng *g)
{
    do
        cz_fr_random(x, g);
    while (cz_fr_is_zero(x));
}

/* out[j] = c * x^j / (tau - x^j) for j < n, x^j = start x^(step j): the
 * Lagrange-basis values above (c carries (tau^N - 1) / N).  den is scratch
 * of n elements.  Returns CZ_ERR_INVALID_ARG when tau is one of the points
 * (the seed then gives a degenerate trapdoor; never in practice). */
static int lagrange(cz_fr *out, cz_fr *den, cz_fr *scratch, size_t n, const cz_fr *tau,
                    const cz_fr *c, const cz_fr *start, const cz_fr *step)
{
    cz_fr x = *start;
    for (size_t j = 0; j < n; j++) {
        out[j] = x; /* x^j kept for the numerator */
        cz_fr_sub(&den[j], tau, &x);
        if (cz_fr_is_zero(&den[j]))
            return CZ_ERR_INVALID_ARG;
        cz_fr_mul(&x, &x, step);
    }
    cz_fr_batch_inv(den, den, n, scratch);
    for (size_t j = 0; j < n; j++) {
        cz_fr_mul(&out[j], &out[j], &den[j]);
        cz_fr_mul(&out[j], &out[j], c);
    }
    return CZ_OK;
}

/* col[i] += sum_j M_ji lag[j] over the rows of matrix m. */
static void columns(cz_fr *col, const cz_csr *m, size_t rows, const cz_fr *lag)
{
    uint64_t g = 0;
    for (size_t j = 0; j < rows; j++) {
        for (uint64_t k = cz_csr_row_begin(m, j), end = cz_csr_row_end(m, j); k < end; k++) {
            uint32_t e = m->col[k];
            cz_fr *x = &col[e & CZ_CSR_COL_MASK], t;
            switch (CZ_CSR_KIND(e)) {
            case CZ_CSR_ONE:
                cz_fr_add(x, x, &lag[j]);
                break;
            case CZ_CSR_NEG:
                cz_fr_sub(x, x, &lag[j]);
                break;
            default:
                cz_fr_mul(&t, &lag[j], cz_csr_gen_coef(m, g++));
                cz_fr_add(x, x, &t);
                break;
            }
        }
    }
}

static bool bit(const uint64_t *d, size_t i) { return (d[i / 64] >> (i % 64)) & 1; }

/* Fills the scalar array s with the selected entries of col ([0, n_in) with
 * din, or all when din is NULL; then [n_in, n_in + n_aux) with daux) and
 * returns how many. */
static size_t select_cols(cz_fr *s, const cz_fr *col, size_t n_in, size_t n_aux,
                          const uint64_t *din, const uint64_t *daux)
{
    size_t k = 0;
    for (size_t i = 0; i < n_in; i++)
        if (din == NULL || bit(din, i))
            s[k++] = col[i];
    for (size_t i = 0; i < n_aux; i++)
        if (bit(daux, i))
            s[k++] = col[n_in + i];
    return k;
}

typedef struct {
    void *t1, *t2; /* fixed-base tables of the G1 and G2 generators */
    cz_pool *pool;
} tables;

static void g1s(cz_g1_affine *out, const cz_fr *k, size_t n, const tables *t)
{
    cz_g1_fixed_mul(out, t->t1, TABLE_W, k, n, 0, t->pool);
}

static void g2s(cz_g2_affine *out, const cz_fr *k, size_t n, const tables *t)
{
    cz_g2_fixed_mul(out, t->t2, TABLE_W, k, n, 0, t->pool);
}

/* Shapes shared by the sizes and the setup. */
typedef struct {
    size_t n_in, n_aux, n, rows, m, n_h, n_b, cnt_a, big;
    unsigned logm;
} shape;

static int shape_of(shape *s, const cz_r1cs *r, cz_groth16_flavor flavor)
{
    size_t cnt_bin, cnt_baux;
    s->n_in = cz_r1cs_num_inputs(r);
    s->n_aux = cz_r1cs_num_aux(r);
    s->n = s->n_in + s->n_aux;
    s->rows = cz_r1cs_num_constraints(r);
    s->logm = cz_groth16_log_domain(s->rows);
    if (s->logm > CZ_NTT_MAX_LOG)
        return CZ_ERR_INVALID_ARG;
    s->m = (size_t)1 << s->logm;
    cz_r1cs_density(r, CZ_DENSITY_A_AUX, &s->cnt_a);
    cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &cnt_bin);
    cz_r1cs_density(r, CZ_DENSITY_B_AUX, &cnt_baux);
    s->n_h = flavor == CZ_GROTH16_BELLPERSON ? s->m - 1 : s->m;
    s->n_b = cnt_bin + cnt_baux;
    s->big = s->m > s->n ? s->m : s->n;
    return CZ_OK;
}

/* Temporaries: lag, den, batch-inversion scratch (m each), the three column
 * arrays (n each), the scalar staging (max(m, n)), two fixed-base tables. */
static size_t fr_bytes(const shape *s) /* 64-byte multiple: the tables follow */
{
    return ((3 * s->m + 3 * s->n + s->big) * sizeof(cz_fr) + 63) & ~(size_t)63;
}

static size_t temp_bytes(const shape *s, size_t *t1, size_t *t2)
{
    *t1 = cz_g1_fixed_table_bytes(TABLE_W);
    *t2 = cz_g2_fixed_table_bytes(TABLE_W);
    return fr_bytes(s) + *t1 + *t2;
}

void cz_groth16_setup_sizes(const cz_r1cs *r, cz_groth16_flavor flavor, size_t *block, size_t *temp)
{
    shape s;
    size_t t1, t2;
    *block = *temp = 0;
    if (shape_of(&s, r, flavor) != CZ_OK)
        return;
    *block = cz_groth16_params_block_bytes(s.n_in, s.n_h, s.n_aux, s.n_in + s.cnt_a, s.n_b);
    *temp = temp_bytes(&s, &t1, &t2);
}

void cz_groth16_setup_sizes_bound(size_t n_in, size_t n_aux, size_t rows, cz_groth16_flavor flavor,
                                  size_t *block, size_t *temp)
{
    shape s = {.n_in = n_in, .n_aux = n_aux, .n = n_in + n_aux, .rows = rows};
    size_t t1, t2;
    *block = *temp = 0;
    s.logm = cz_groth16_log_domain(rows);
    if (s.logm > CZ_NTT_MAX_LOG)
        return;
    s.m = (size_t)1 << s.logm;
    s.cnt_a = n_aux;
    s.n_b = s.n;
    s.n_h = flavor == CZ_GROTH16_BELLPERSON ? s.m - 1 : s.m;
    s.big = s.m > s.n ? s.m : s.n;
    *block = cz_groth16_params_block_bytes(s.n_in, s.n_h, s.n_aux, s.n_in + s.cnt_a, s.n_b);
    *temp = temp_bytes(&s, &t1, &t2);
}

int cz_groth16_setup(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                     cz_groth16_flavor flavor, cz_pool *pool)
{
    return cz_groth16_setup_ex(out, r, seed, flavor, pool, NULL);
}

int cz_groth16_setup_ex(cz_groth16_params *out, const cz_r1cs *r, const uint8_t seed[32],
                        cz_groth16_flavor flavor, cz_pool *pool, const cz_allocator *al)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    if (r == NULL || seed == NULL ||
        (flavor != CZ_GROTH16_BELLPERSON && flavor != CZ_GROTH16_SNARKJS))
        return CZ_ERR_INVALID_ARG;
    shape sh;
    if (shape_of(&sh, r, flavor) != CZ_OK)
        return CZ_ERR_INVALID_ARG;
    size_t n_in = sh.n_in, n_aux = sh.n_aux, n = sh.n, rows = sh.rows, m = sh.m;
    unsigned logm = sh.logm;
    size_t n_h = sh.n_h, n_b = sh.n_b, cnt_a = sh.cnt_a;

    /* The trapdoor: xoshiro seeded from the 32 seed bytes (insecure). */
    uint64_t sw[4];
    memcpy(sw, seed, 32);
    cz_prng g;
    cz_prng_seed(&g, sw[0] ^ (sw[1] * 0x9e3779b97f4a7c15ULL) ^ (sw[2] << 17 | sw[2] >> 47) ^
                         (sw[3] * 0xc2b2ae3d27d4eb4fULL));
    for (int i = 0; i < 4; i++)
        cz_prng_next(&g);
    trapdoor td;
    draw_nonzero(&td.tau, &g);
    draw_nonzero(&td.alpha, &g);
    draw_nonzero(&td.beta, &g);
    draw_nonzero(&td.gamma, &g);
    draw_nonzero(&td.delta, &g);
    cz_groth16_wipe(&g, sizeof g);
    cz_groth16_wipe(sw, sizeof sw);

    const uint64_t *da = cz_r1cs_density(r, CZ_DENSITY_A_AUX, NULL);
    const uint64_t *dbi = cz_r1cs_density(r, CZ_DENSITY_B_INPUT, NULL);
    const uint64_t *dba = cz_r1cs_density(r, CZ_DENSITY_B_AUX, NULL);

    int rc = CZ_ERR_NOMEM;
    cz_ntt_domain *dom = NULL;
    size_t t1b, t2b, tbytes = temp_bytes(&sh, &t1b, &t2b);
    tables t = {.pool = pool};
    /* one temporary block: lag | den | scratch | u v w | sc | table1 | table2 */
    uint8_t *tmp = cz_alloc(al, CZ_BUF_SCRATCH, tbytes);
    cz_fr *lag = NULL, *den = NULL, *inv_scratch = NULL, *col = NULL, *sc = NULL;
    if (tmp == NULL)
        goto done;
    lag = (cz_fr *)tmp;
    den = lag + m;
    inv_scratch = den + m;
    col = inv_scratch + m;
    sc = col + 3 * n;
    t.t1 = tmp + fr_bytes(&sh);
    t.t2 = (uint8_t *)t.t1 + t1b;
    memset(col, 0, 3 * n * sizeof(cz_fr));
    if ((rc = cz_ntt_domain_new_root(
             &dom, logm,
             flavor == CZ_GROTH16_SNARKJS ? CZ_NTT_ROOT_SNARKJS : CZ_NTT_ROOT_BELLPERSON)) != CZ_OK)
        goto done;
    if ((rc = cz_groth16_params_alloc(out, n_in, n_h, n_aux, n_in + cnt_a, n_b, al)) != CZ_OK)
        goto done;
    out->flavor = flavor;
    cz_g1_fixed_table_init(t.t1, TABLE_W, &CZ_G1_GENERATOR);
    cz_g2_fixed_table_init(t.t2, TABLE_W, &CZ_G2_GENERATOR);

    /* Lagrange basis at tau, then the column polynomials u, v, w. */
    cz_fr om, mm, zt, c;
    uint64_t e = m;
    cz_ntt_domain_omega(&om, dom, false);
    cz_fr_pow(&zt, &td.tau, &e, 1);
    cz_fr_sub(&zt, &zt, &CZ_FR_ONE); /* Z(tau) = tau^m - 1 */
    cz_fr_from_u64(&mm, m);
    cz_fr_inv(&c, &mm);
    cz_fr_mul(&c, &c, &zt);
    if ((rc = lagrange(lag, den, inv_scratch, m, &td.tau, &c, &CZ_FR_ONE, &om)) != CZ_OK)
        goto done;
    cz_fr *u = col, *v = col + n, *w = col + 2 * n;
    columns(u, cz_r1cs_matrix(r, CZ_MAT_A), rows, lag);
    columns(v, cz_r1cs_matrix(r, CZ_MAT_B), rows, lag);
    columns(w, cz_r1cs_matrix(r, CZ_MAT_C), rows, lag);

    /* IC and L: (beta u + alpha v + w) / gamma or / delta. */
    cz_fr gi, di;
    cz_fr_inv(&gi, &td.gamma);
    cz_fr_inv(&di, &td.delta);
    for (size_t i = 0; i < n; i++) {
        cz_fr x, y;
        cz_fr_mul(&x, &td.beta, &u[i]);
        cz_fr_mul(&y, &td.alpha, &v[i]);
        cz_fr_add(&x, &x, &y);
        cz_fr_add(&x, &x, &w[i]);
        cz_fr_mul(&sc[i], &x, i < n_in ? &gi : &di);
    }
    g1s(out->vk.ic, sc, n_in, &t);
    g1s(out->l, sc + n_in, n_aux, &t);

    /* A, B (G1 and G2) by density. */
    size_t k = select_cols(sc, u, n_in, n_aux, NULL, da);
    g1s(out->a, sc, k, &t);
    k = select_cols(sc, v, n_in, n_aux, dbi, dba);
    g1s(out->b_g1, sc, k, &t);
    g2s(out->b_g2, sc, k, &t);

    /* H. */
    if (flavor == CZ_GROTH16_BELLPERSON) {
        cz_fr x;
        cz_fr_mul(&x, &zt, &di); /* tau^i Z(tau) / delta */
        for (size_t i = 0; i < n_h; i++) {
            sc[i] = x;
            cz_fr_mul(&x, &x, &td.tau);
        }
    } else {
        cz_fr w2, w2sq, z2, mm2;
        cz_ntt_domain_omega2n(&w2, dom);
        cz_fr_sqr(&w2sq, &w2);
        e = 2 * m;
        cz_fr_pow(&z2, &td.tau, &e, 1);
        cz_fr_sub(&z2, &z2, &CZ_FR_ONE);
        cz_fr_from_u64(&mm2, 2 * m);
        cz_fr_inv(&c, &mm2);
        cz_fr_mul(&c, &c, &z2);
        cz_fr_mul(&c, &c, &di);
        if ((rc = lagrange(sc, den, inv_scratch, m, &td.tau, &c, &w2, &w2sq)) != CZ_OK)
            goto done;
    }
    g1s(out->h, sc, n_h, &t);

    /* The verifying key. */
    cz_fr vs[3] = {td.alpha, td.beta, td.delta};
    cz_g1_affine p1[3];
    g1s(p1, vs, 3, &t);
    out->vk.alpha_g1 = p1[0], out->vk.beta_g1 = p1[1], out->vk.delta_g1 = p1[2];
    cz_fr ws[3] = {td.beta, td.gamma, td.delta};
    cz_g2_affine p2[3];
    g2s(p2, ws, 3, &t);
    out->vk.beta_g2 = p2[0], out->vk.gamma_g2 = p2[1], out->vk.delta_g2 = p2[2];
    cz_groth16_wipe(vs, sizeof vs);
    cz_groth16_wipe(ws, sizeof ws);
    rc = CZ_OK;
done:
    if (rc != CZ_OK)
        cz_groth16_params_free(out);
    cz_groth16_wipe(&td, sizeof td);
    if (tmp != NULL) {
        cz_groth16_wipe(tmp, fr_bytes(&sh));
        cz_free(al, tmp, tbytes);
    }
    cz_ntt_domain_free(dom);
    return rc;
}
