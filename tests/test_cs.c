/* Tests for the constraint system (include/cuzk/cs.h): recording and
 * witness-only synthesis, SpMV against a direct evaluation, densities,
 * the satisfaction check, namespaces, the coefficient dictionaries against
 * an independent count, and the pre-compiled R1CS file (round trips,
 * every truncation and byte flip, named corruptions, a version 1 file).
 *
 * `test_cs --write-seeds DIR` writes the fuzz seeds of
 * fuzz/fuzz_pce_load.c (small recorded circuits, fixed generator seed). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/cs.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "fixture.h"
#include "tf.h"

/* ------------------------------------------------------------- helpers --- */

static cz_fr fr_u64(uint64_t v)
{
    cz_fr x;
    cz_fr_from_u64(&x, v);
    return x;
}

static uint64_t rnd(uint64_t n) { return cz_prng_next(&tf_rng) % n; }

/* Full assignment of a cs, malloc'd. */
static cz_fr *assignment(const cz_cs *cs, size_t *n)
{
    *n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
    cz_fr *w = malloc(*n * sizeof *w + 1);
    cz_cs_write_assignment(cs, w);
    return w;
}

/* ------------------------------------------------ x^3 + x + 5 = y ------- */

/* Records y = x^3 + x + 5 with x = 3 (y = 35) under namespaces. */
static cz_r1cs *cubic(cz_cs **csp, uint64_t xv)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
    cz_fr x = fr_u64(xv), x2, x3, y, five = fr_u64(5);
    cz_fr_sqr(&x2, &x);
    cz_fr_mul(&x3, &x2, &x);
    cz_fr_add(&y, &x3, &x);
    cz_fr_add(&y, &y, &five);
    cz_var vy = cz_cs_alloc_input(cs, &y);
    cz_cs_push_ns(cs, "cubic");
    cz_var vx = cz_cs_alloc_aux(cs, &x);
    cz_var vx2 = cz_cs_alloc_aux(cs, &x2);
    cz_var vx3 = cz_cs_alloc_aux(cs, &x3);
    cz_lc a, b, c;
    cz_lc_init(&a), cz_lc_init(&b), cz_lc_init(&c);
    cz_cs_push_ns(cs, "square");
    cz_lc_add(&a, vx), cz_lc_add(&b, vx), cz_lc_add(&c, vx2);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_cs_pop_ns(cs);
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_cs_push_ns(cs, "cube");
    cz_lc_add(&a, vx2), cz_lc_add(&b, vx), cz_lc_add(&c, vx3);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_cs_pop_ns(cs);
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_cs_push_ns(cs, "sum");
    cz_lc_add(&a, vx3), cz_lc_add(&a, vx), cz_lc_add_const(&a, &five);
    cz_lc_add(&b, CZ_CS_ONE);
    cz_lc_add(&c, vy);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_cs_pop_ns(cs);
    cz_cs_pop_ns(cs);
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    *csp = cs;
    return r;
}

static void test_cubic(void)
{
    cz_cs *cs;
    cz_r1cs *r = cubic(&cs, 3);
    if (r == NULL)
        return;
    TF_CHECK(cz_r1cs_num_inputs(r) == 2);
    TF_CHECK(cz_r1cs_num_aux(r) == 3);
    TF_CHECK(cz_r1cs_num_circuit_constraints(r) == 3);
    TF_CHECK(cz_r1cs_num_constraints(r) == 5);
    TF_CHECK(cz_cs_num_constraints(cs) == 3);
    /* y = 27 + 3 + 5 */
    cz_fr y35 = fr_u64(35);
    TF_CHECK(cz_fr_equal(&cz_cs_inputs(cs)[1], &y35));
    /* A of "sum": inputs first (ONE coefficient 5 -> GEN), then x, x3 */
    const cz_csr *A = cz_r1cs_matrix(r, CZ_MAT_A);
    TF_CHECK(cz_csr_row_end(A, 2) - cz_csr_row_begin(A, 2) == 3);
    TF_CHECK(A->col[cz_csr_row_begin(A, 2)] == (CZ_CSR_GEN << 30 | 0));
    TF_CHECK(A->col[cz_csr_row_begin(A, 2) + 1] == (CZ_CSR_ONE << 30 | 2));
    TF_CHECK(A->col[cz_csr_row_begin(A, 2) + 2] == (CZ_CSR_ONE << 30 | 4));
    size_t n;
    cz_fr *w = assignment(cs, &n);
    char msg[256];
    size_t row = 99;
    TF_CHECK(cz_r1cs_check(r, w, n, NULL, &row, msg, sizeof msg) == CZ_OK);
    TF_CHECK(row == 99);
    /* tamper with x^3: the cube constraint (row 1) fails first */
    w[4] = fr_u64(28);
    TF_CHECK(cz_r1cs_check(r, w, n, NULL, &row, msg, sizeof msg) == CZ_ERR_UNSATISFIED);
    TF_CHECK(row == 1);
    TF_CHECK_MSG(strstr(msg, "cubic/cube") != NULL, "message: %s", msg);
    /* tamper with y: only "sum" (row 2) fails */
    cz_cs_write_assignment(cs, w);
    w[1] = fr_u64(36);
    TF_CHECK(cz_r1cs_check(r, w, n, NULL, &row, msg, sizeof msg) == CZ_ERR_UNSATISFIED);
    TF_CHECK(row == 2);
    TF_CHECK_MSG(strstr(msg, "cubic/sum") != NULL, "message: %s", msg);
    char path[64];
    TF_CHECK(strcmp(cz_r1cs_ns_path(r, 0, path, sizeof path), "cubic/square") == 0);
    TF_CHECK(strcmp(cz_r1cs_ns_path(r, 3, path, sizeof path), "") == 0);
    /* a truncated path buffer stays NUL-terminated */
    TF_CHECK(strlen(cz_r1cs_ns_path(r, 0, path, 4)) < 4);
    TF_CHECK(cz_r1cs_check(r, w, n - 1, NULL, &row, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    free(w);
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

/* b * (1 - b) = 0 */
static void test_boolean(void)
{
    for (uint64_t v = 0; v < 3; v++) {
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
        cz_fr bv = fr_u64(v);
        cz_var b = cz_cs_alloc_aux(cs, &bv);
        cz_lc a, bb;
        cz_lc_init(&a), cz_lc_init(&bb);
        cz_lc_add(&a, b);
        cz_lc_add(&bb, CZ_CS_ONE), cz_lc_sub(&bb, b);
        cz_cs_enforce(cs, &a, &bb, NULL);
        cz_lc_free(&a), cz_lc_free(&bb);
        cz_r1cs *r;
        TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
        size_t n, row = 0;
        cz_fr *w = assignment(cs, &n);
        char msg[128];
        int err = cz_r1cs_check(r, w, n, NULL, &row, msg, sizeof msg);
        TF_CHECK(err == (v < 2 ? CZ_OK : CZ_ERR_UNSATISFIED));
        if (v == 2) {
            TF_CHECK(row == 0);
            TF_CHECK_MSG(strstr(msg, "constraint 0 ") != NULL, "message: %s", msg);
        }
        /* B = ONE - b: the input ONE is in B */
        size_t cnt;
        const uint64_t *bi = cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &cnt);
        TF_CHECK(cnt == 1 && bi[0] == 1);
        free(w);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
}

/* -------------------------------------------------- random circuits ----- */

/* A random circuit as written: every linear combination kept verbatim
 * (repeats, zero coefficients) and evaluated directly, independently of the
 * cs's merging and CSR. */
typedef struct {
    cz_fr *in, *aux;
    size_t n_in, n_aux;
    cz_lc *lc; /* 3 per constraint */
    size_t rows;
} prog;

static cz_fr prog_val(const prog *p, cz_var v)
{
    return cz_var_is_aux(v) ? p->aux[cz_var_index(v)] : p->in[cz_var_index(v)];
}

static cz_fr eval_lc(const prog *p, const cz_lc *lc, const cz_fr *w)
{
    cz_fr acc = CZ_FR_ZERO, t;
    for (size_t i = 0; i < lc->n; i++) {
        cz_var v = lc->t[i].var;
        size_t col = cz_var_is_aux(v) ? p->n_in + cz_var_index(v) : cz_var_index(v);
        cz_fr_mul(&t, &lc->t[i].coeff, &w[col]);
        cz_fr_add(&acc, &acc, &t);
    }
    return acc;
}

static cz_var random_var(const prog *p)
{
    uint64_t k = rnd(p->n_in + p->n_aux);
    return k < p->n_in ? (cz_var)k : (CZ_VAR_AUX | (cz_var)(k - p->n_in));
}

/* 0, 1, -1, a small integer +-2..9 (repeated across the circuit, and
 * summing to others, 0, 1 or -1 when a variable repeats) or a random
 * element. */
static void random_coeff(cz_fr *c)
{
    switch (rnd(6)) {
    case 0:
        *c = CZ_FR_ZERO;
        break;
    case 1:
        *c = CZ_FR_ONE;
        break;
    case 2:
        cz_fr_neg(c, &CZ_FR_ONE);
        break;
    case 3:
        cz_fr_from_u64(c, 2 + rnd(8));
        if (rnd(2))
            cz_fr_neg(c, c);
        break;
    default:
        cz_fr_random(c, &tf_rng);
        break;
    }
}

static void random_lc(const prog *p, cz_lc *lc)
{
    size_t n = rnd(8) == 0 ? rnd(40) : rnd(6);
    cz_lc_init(lc);
    for (size_t i = 0; i < n; i++) {
        cz_var v = random_var(p);
        cz_fr c;
        random_coeff(&c);
        cz_lc_add_term(lc, v, &c);
        if (rnd(6) == 0) { /* the same variable again, sometimes cancelling */
            cz_fr d;
            if (rnd(2))
                cz_fr_neg(&d, &c);
            else
                random_coeff(&d);
            cz_lc_add_term(lc, v, &d);
        }
    }
}

/* When set, gen allocates without witness values (shape-only recording). */
static int gen_no_values;

/* Writes ops random operations into cs (and p): inputs and aux allocated
 * between constraints.  satisfiable: C = k z with z = (A w)(B w) / k. */
static void gen(cz_cs *cs, prog *p, size_t ops, int satisfiable)
{
    memset(p, 0, sizeof *p);
    p->in = malloc((ops + 1) * sizeof(cz_fr));
    p->aux = malloc((ops + 1) * sizeof(cz_fr));
    p->lc = malloc((3 * ops + 1) * sizeof(cz_lc));
    p->in[p->n_in++] = CZ_FR_ONE;
    size_t depth = 0;
    for (size_t op = 0; op < ops; op++) {
        uint64_t kind = rnd(10);
        cz_fr v;
        cz_fr_random(&v, &tf_rng);
        if (kind == 0) {
            p->in[p->n_in] = v;
            TF_CHECK(cz_cs_alloc_input(cs, gen_no_values ? NULL : &v) == (cz_var)p->n_in);
            p->n_in++;
        } else if (kind < 4 || p->n_aux == 0) {
            p->aux[p->n_aux] = v;
            TF_CHECK(cz_cs_alloc_aux(cs, gen_no_values ? NULL : &v) ==
                     (CZ_VAR_AUX | (cz_var)p->n_aux));
            p->n_aux++;
        } else {
            cz_lc *l = &p->lc[3 * p->rows];
            if (rnd(4) == 0) {
                cz_cs_push_ns(cs, rnd(2) ? "alpha" : "beta");
                depth++;
            }
            random_lc(p, &l[0]);
            random_lc(p, &l[1]);
            if (satisfiable) {
                cz_fr av = CZ_FR_ZERO, bv = CZ_FR_ZERO, t, k, ki;
                for (int j = 0; j < 2; j++)
                    for (size_t i = 0; i < l[j].n; i++) {
                        cz_fr x = prog_val(p, l[j].t[i].var);
                        cz_fr_mul(&t, &l[j].t[i].coeff, &x);
                        cz_fr_add(j ? &bv : &av, j ? &bv : &av, &t);
                    }
                do
                    random_coeff(&k);
                while (cz_fr_is_zero(&k));
                cz_fr_inv(&ki, &k);
                cz_fr_mul(&t, &av, &bv);
                cz_fr_mul(&p->aux[p->n_aux], &t, &ki);
                cz_var z = cz_cs_alloc_aux(cs, gen_no_values ? NULL : &p->aux[p->n_aux]);
                p->n_aux++;
                cz_lc_init(&l[2]);
                cz_lc_add_term(&l[2], z, &k);
            } else {
                random_lc(p, &l[2]);
            }
            cz_cs_enforce(cs, &l[0], &l[1], &l[2]);
            p->rows++;
            if (depth > 0 && rnd(4) == 0) {
                cz_cs_pop_ns(cs);
                depth--;
            }
        }
    }
}

static void prog_free(prog *p)
{
    for (size_t i = 0; i < 3 * p->rows; i++)
        cz_lc_free(&p->lc[i]);
    free(p->lc);
    free(p->in);
    free(p->aux);
}

/* Direct product of matrix k with w, input constraints included. */
static void direct_mul(const prog *p, int k, const cz_fr *w, cz_fr *out)
{
    for (size_t i = 0; i < p->rows; i++)
        out[i] = eval_lc(p, &p->lc[3 * i + k], w);
    for (size_t i = 0; i < p->n_in; i++)
        out[p->rows + i] = k == CZ_MAT_A ? w[i] : CZ_FR_ZERO;
}

/* Direct density: for each variable of each combination, the sum of its
 * coefficients in that combination. */
static void direct_density(const prog *p, int k, uint8_t *in_hit, uint8_t *aux_hit)
{
    for (size_t i = 0; i < p->rows; i++) {
        const cz_lc *lc = &p->lc[3 * i + k];
        for (size_t a = 0; a < lc->n; a++) {
            cz_fr s = CZ_FR_ZERO;
            for (size_t b = 0; b < lc->n; b++)
                if (lc->t[b].var == lc->t[a].var)
                    cz_fr_add(&s, &s, &lc->t[b].coeff);
            if (cz_fr_is_zero(&s))
                continue;
            cz_var v = lc->t[a].var;
            if (cz_var_is_aux(v))
                aux_hit[cz_var_index(v)] = 1;
            else
                in_hit[cz_var_index(v)] = 1;
        }
    }
    if (k == CZ_MAT_A)
        for (size_t i = 0; i < p->n_in; i++)
            in_hit[i] = 1;
}

static void check_density(const cz_r1cs *r, const prog *p)
{
    uint8_t *in_hit = calloc(p->n_in + 1, 1), *aux_hit = calloc(p->n_aux + 1, 1);
    static const struct {
        int mat;
        cz_density d;
        int aux;
    } cases[3] = {{CZ_MAT_A, CZ_DENSITY_A_AUX, 1},
                  {CZ_MAT_B, CZ_DENSITY_B_INPUT, 0},
                  {CZ_MAT_B, CZ_DENSITY_B_AUX, 1}};
    for (int c = 0; c < 3; c++) {
        memset(in_hit, 0, p->n_in + 1);
        memset(aux_hit, 0, p->n_aux + 1);
        direct_density(p, cases[c].mat, in_hit, aux_hit);
        size_t cnt, want = 0, n = cases[c].aux ? p->n_aux : p->n_in;
        const uint8_t *hit = cases[c].aux ? aux_hit : in_hit;
        const uint64_t *bm = cz_r1cs_density(r, cases[c].d, &cnt);
        int same = 1;
        for (size_t i = 0; i < n; i++) {
            want += hit[i];
            same &= ((bm[i / 64] >> (i % 64)) & 1) == hit[i];
        }
        TF_CHECK_MSG(same && cnt == want, "density %d: count %zu, want %zu", c, cnt, want);
    }
    free(in_hit);
    free(aux_hit);
}

/* Records a random circuit; *pp holds its program. */
static cz_r1cs *random_r1cs(prog *pp, cz_cs **csp, size_t ops, int satisfiable, unsigned flags)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, flags) == CZ_OK);
    gen(cs, pp, ops, satisfiable);
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    *csp = cs;
    return r;
}

static void test_random_spmv(void)
{
    cz_pool *pools[4] = {0};
    for (unsigned t = 0; t < 4; t++)
        TF_CHECK(cz_pool_new(&pools[t], t + 1) == CZ_OK);
    for (unsigned iter = 0; iter < 12 * tf_scale; iter++) {
        size_t ops = iter < 10 ? 1 + rnd(400) : 6000; /* the large ones split over threads */
        prog p;
        cz_cs *cs;
        cz_r1cs *r = random_r1cs(&p, &cs, ops, 0, 0);
        if (r == NULL)
            continue;
        TF_CHECK(cz_r1cs_num_inputs(r) == p.n_in && cz_r1cs_num_aux(r) == p.n_aux);
        TF_CHECK(cz_r1cs_num_constraints(r) == p.rows + p.n_in);
        size_t n, m = cz_r1cs_num_constraints(r);
        cz_fr *w = assignment(cs, &n);
        TF_CHECK(memcmp(w, p.in, p.n_in * sizeof *w) == 0);
        TF_CHECK(p.n_aux == 0 || memcmp(w + p.n_in, p.aux, p.n_aux * sizeof *w) == 0);
        cz_fr *want = malloc((m + 1) * sizeof *want), *got[3];
        for (int k = 0; k < 3; k++)
            got[k] = malloc((m + 1) * sizeof(cz_fr));
        for (int pi = -1; pi < 4; pi++) {
            cz_pool *pool = pi < 0 ? NULL : pools[pi];
            for (int k = 0; k < 3; k++)
                memset(got[k], 0xa5, (m + 1) * sizeof(cz_fr));
            TF_CHECK(cz_r1cs_spmv(r, w, n, got[0], got[1], got[2], pool) == CZ_OK);
            for (int k = 0; k < 3; k++) {
                direct_mul(&p, k, w, want);
                TF_CHECK_MSG(memcmp(got[k], want, m * sizeof *want) == 0,
                             "matrix %d, pool %d, %zu rows", k, pi, m);
            }
        }
        /* a witness of mostly bits, as Filecoin's: the products skip the
         * multiplications by 0 and 1 and must not change */
        for (size_t i = 1; i < n; i++)
            if (rnd(10))
                w[i] = rnd(2) ? CZ_FR_ONE : CZ_FR_ZERO;
        TF_CHECK(cz_r1cs_spmv(r, w, n, got[0], got[1], got[2], pools[1]) == CZ_OK);
        for (int k = 0; k < 3; k++) {
            direct_mul(&p, k, w, want);
            TF_CHECK_MSG(memcmp(got[k], want, m * sizeof *want) == 0, "bits: matrix %d", k);
        }
        /* only B requested: A and C untouched */
        TF_CHECK(cz_r1cs_spmv(r, w, n, NULL, got[1], NULL, pools[1]) == CZ_OK);
        direct_mul(&p, CZ_MAT_B, w, want);
        TF_CHECK(memcmp(got[1], want, m * sizeof *want) == 0);
        TF_CHECK(cz_r1cs_spmv(r, w, n + 1, got[0], NULL, NULL, NULL) == CZ_ERR_INVALID_ARG);
        check_density(r, &p);
        TF_CHECK(cz_r1cs_mem_bytes(r) >= (m + 1) * 8 * 3);
        for (int k = 0; k < 3; k++)
            free(got[k]);
        free(want);
        free(w);
        prog_free(&p);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
    for (unsigned t = 0; t < 4; t++)
        cz_pool_free(pools[t]);
}

/* The device products (include/cuzk/cuda.h, cz_cuda_r1cs_spmv) equal the
 * CPU's bit for bit on random circuits and witnesses of mostly bits:
 * from the resident copy, and streamed in chunks of 64 and 128 rows, so
 * chunk and 64-row block boundaries fall inside the circuits.  Skipped
 * without a device; the stub's refusal is checked instead. */
static void test_gpu_spmv(void)
{
    if (!cz_cuda_available()) {
        cz_cuda_r1cs_view v = {0};
        bool res = true;
        TF_CHECK(cz_cuda_r1cs_prepare(&v, 0, &res) != CZ_OK && !res);
        printf("test_cs: no CUDA device: device SpMV not compared\n");
        return;
    }
    for (unsigned iter = 0; iter < 8 * tf_scale; iter++) {
        size_t ops = iter < 6 ? 1 + rnd(600) : 8000;
        prog p;
        cz_cs *cs;
        cz_r1cs *r = random_r1cs(&p, &cs, ops, 0, 0);
        if (r == NULL)
            continue;
        size_t n, m = cz_r1cs_num_constraints(r);
        cz_fr *w = assignment(cs, &n);
        for (size_t i = 1; i < n; i++)
            if (rnd(10) < 8)
                w[i] = rnd(2) ? CZ_FR_ONE : CZ_FR_ZERO;
        cz_fr *want[3], *got = malloc((3 * m + 1) * sizeof(cz_fr));
        for (int k = 0; k < 3; k++)
            want[k] = malloc((m + 1) * sizeof(cz_fr));
        TF_CHECK(cz_r1cs_spmv(r, w, n, want[0], want[1], want[2], NULL) == CZ_OK);
        cz_cuda_r1cs_view v = {r, m, n, {{0}}};
        for (int k = 0; k < 3; k++) {
            const cz_csr *x = cz_r1cs_matrix(r, k);
            v.m[k] = (cz_cuda_csr){x->row_blk, x->row_off, x->coef_blk, x->col,  x->gidx,
                                   x->dict,    x->nnz,     x->ngen,     x->ndict};
        }
        cz_fr *wd = NULL, *od = NULL;
        TF_CHECK(cz_cuda_malloc((void **)&wd, n * sizeof(cz_fr), CZ_BUF_WITNESS) == CZ_OK);
        TF_CHECK(cz_cuda_malloc((void **)&od, 3 * m * sizeof(cz_fr), CZ_BUF_ABC) == CZ_OK);
        TF_CHECK(cz_cuda_memcpy_h2d(wd, w, n * sizeof(cz_fr)) == CZ_OK);
        static const char *const chunk[3] = {NULL, "64", "100"};
        for (int mode = 0; mode < 3; mode++) {
            if (chunk[mode]) {
                setenv("CZ_CUDA_STREAM_PARAMS", "1", 1);
                setenv("CZ_CUDA_SPMV_CHUNK", chunk[mode], 1);
            }
            bool res = false;
            TF_CHECK(cz_cuda_r1cs_prepare(&v, 0, &res) == CZ_OK && res == !chunk[mode]);
            cz_fr *const out[3] = {od, od + m, od + 2 * m};
            TF_CHECK(cz_cuda_r1cs_spmv(&v, wd, out) == CZ_OK);
            TF_CHECK(cz_cuda_memcpy_d2h(got, od, 3 * m * sizeof(cz_fr)) == CZ_OK);
            for (int k = 0; k < 3; k++)
                TF_CHECK_MSG(memcmp(got + k * m, want[k], m * sizeof(cz_fr)) == 0,
                             "matrix %d, %zu rows, %s", k, m,
                             chunk[mode] ? "streamed" : "resident");
            /* only B: A's and C's outputs untouched */
            TF_CHECK(cz_cuda_memcpy_h2d(od, w, sizeof(cz_fr)) == CZ_OK);
            cz_fr *const only_b[3] = {NULL, od + m, NULL};
            TF_CHECK(cz_cuda_r1cs_spmv(&v, wd, only_b) == CZ_OK);
            TF_CHECK(cz_cuda_memcpy_d2h(got, od, sizeof(cz_fr)) == CZ_OK);
            TF_CHECK(memcmp(got, w, sizeof(cz_fr)) == 0);
            cz_cuda_r1cs_release(r); /* the next mode decides afresh */
            unsetenv("CZ_CUDA_STREAM_PARAMS");
            unsetenv("CZ_CUDA_SPMV_CHUNK");
        }
        cz_fr *const none[3] = {NULL, NULL, NULL};
        TF_CHECK(cz_cuda_r1cs_spmv(&v, wd, none) == CZ_ERR_INVALID_ARG);
        if (iter == 0)
            printf("test_cs: device SpMV equals the CPU's (%zu rows; resident, streamed)\n", m);
        cz_cuda_free(wd);
        cz_cuda_free(od);
        for (int k = 0; k < 3; k++)
            free(want[k]);
        free(got);
        free(w);
        prog_free(&p);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
}

static int hook_calls;
static const void *hook_arg;
static void count_hook(const void *r)
{
    hook_calls++;
    hook_arg = r;
}
static void other_hook(const void *r) { (void)r; }

/* cz_r1cs_free calls the free hook once, with r; the slot takes one hook. */
static void test_free_hook(void)
{
    cz_cs *cs;
    cz_r1cs *r = cubic(&cs, 3);
    TF_CHECK(cz_r1cs_set_free_hook(r, count_hook));
    TF_CHECK(cz_r1cs_set_free_hook(r, count_hook));  /* the same: fine */
    TF_CHECK(!cz_r1cs_set_free_hook(r, other_hook)); /* another: refused */
    hook_calls = 0;
    cz_r1cs_free(r);
    TF_CHECK(hook_calls == 1 && hook_arg == r);
    cz_cs_free(cs);
}

static void test_witness_mode(void)
{
    for (unsigned iter = 0; iter < 10 * tf_scale; iter++) {
        size_t ops = 1 + rnd(500);
        int sat = (int)rnd(2);
        cz_prng saved = tf_rng;
        prog p1, p2;
        cz_cs *rec, *wit;
        TF_CHECK(cz_cs_new(&rec, CZ_CS_RECORD, 0) == CZ_OK);
        TF_CHECK(cz_cs_new(&wit, CZ_CS_WITNESS, CZ_CS_NAMESPACES) == CZ_OK);
        TF_CHECK(!cz_cs_is_recording(wit) && cz_cs_get_mode(wit) == CZ_CS_WITNESS);
        gen(rec, &p1, ops, sat);
        tf_rng = saved;
        gen(wit, &p2, ops, sat);
        TF_CHECK(cz_cs_error(rec) == CZ_OK && cz_cs_error(wit) == CZ_OK);
        TF_CHECK(cz_cs_num_constraints(wit) == 0);
        TF_CHECK(cz_cs_num_constraints(rec) == p1.rows);
        size_t n1, n2;
        cz_fr *w1 = assignment(rec, &n1), *w2 = assignment(wit, &n2);
        TF_CHECK(n1 == n2 && memcmp(w1, w2, n1 * sizeof *w1) == 0);
        cz_r1cs *r = NULL;
        TF_CHECK(cz_cs_finish(wit, &r) == CZ_ERR_INVALID_ARG && r == NULL);
        TF_CHECK(cz_cs_finish(rec, &r) == CZ_OK);
        if (sat) /* the witness-only assignment satisfies the recording */
            TF_CHECK(cz_r1cs_check(r, w2, n2, NULL, NULL, NULL, 0) == CZ_OK);
        free(w1);
        free(w2);
        prog_free(&p1);
        prog_free(&p2);
        cz_r1cs_free(r);
        cz_cs_free(rec);
        cz_cs_free(wit);
    }
}

/* cz_cs_new_witness_at: values land at their positions, the caller's
 * entries before them are readable and untouched, nothing is written past
 * the ends, bad arguments are refused. */
static void test_witness_at(void)
{
    enum { NI = 6, NA = 40 };
    cz_fr in[NI + 1], aux[NA + 1], keep_in[NI + 1], keep_aux[NA + 1];
    for (unsigned iter = 0; iter < 20 * tf_scale; iter++) {
        for (size_t i = 0; i <= NI; i++)
            cz_fr_random(&in[i], &tf_rng);
        for (size_t i = 0; i <= NA; i++)
            cz_fr_random(&aux[i], &tf_rng);
        memcpy(keep_in, in, sizeof in);
        memcpy(keep_aux, aux, sizeof aux);
        size_t i0 = 1 + rnd(NI - 1), i1 = i0 + rnd(NI - i0 + 1);
        size_t a0 = rnd(NA), a1 = a0 + rnd(NA - a0 + 1);
        cz_cs *cs;
        TF_CHECK(cz_cs_new_witness_at(&cs, in, i0, i1, aux, a0, a1) == CZ_OK);
        TF_CHECK(cz_cs_num_inputs(cs) == i0 && cz_cs_num_aux(cs) == a0);
        cz_fr v[NA], x[NI];
        for (size_t j = a0; j < a1; j++) {
            cz_fr_random(&v[j], &tf_rng);
            TF_CHECK(cz_cs_alloc_aux(cs, &v[j]) == (CZ_VAR_AUX | (cz_var)j));
        }
        for (size_t j = i0; j < i1; j++) {
            cz_fr_random(&x[j], &tf_rng);
            TF_CHECK(cz_cs_alloc_input(cs, &x[j]) == (cz_var)j);
        }
        TF_CHECK(cz_cs_error(cs) == CZ_OK);
        TF_CHECK(cz_cs_aux(cs) == aux && cz_cs_inputs(cs) == in);
        for (size_t j = 0; j <= NA; j++)
            TF_CHECK(cz_fr_equal(&aux[j], j >= a0 && j < a1 ? &v[j] : &keep_aux[j]));
        for (size_t j = 0; j <= NI; j++)
            TF_CHECK(cz_fr_equal(&in[j], j >= i0 && j < i1 ? &x[j] : &keep_in[j]));
        /* past the end: sticky, nothing written */
        (void)cz_cs_alloc_aux(cs, &CZ_FR_ONE);
        TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_fr_equal(&aux[a1], &keep_aux[a1]));
        cz_cs_free(cs); /* the arrays stay the caller's */
    }
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new_witness_at(&cs, in, 0, 2, aux, 0, 2) == CZ_ERR_INVALID_ARG && !cs);
    TF_CHECK(cz_cs_new_witness_at(&cs, in, 3, 2, aux, 0, 2) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cs_new_witness_at(&cs, in, 1, 2, aux, 3, 2) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cs_new_witness_at(&cs, NULL, 1, 2, aux, 0, 2) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cs_new_witness_at(NULL, in, 1, 2, aux, 0, 2) == CZ_ERR_INVALID_ARG);
}

/* A satisfied random circuit; tamper one value; the check names the first
 * row the direct evaluation says fails. */
static void test_check_random(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    unsigned done = 0;
    for (unsigned iter = 0; done < 10 * tf_scale && iter < 1000; iter++) {
        prog p;
        cz_cs *cs;
        cz_r1cs *r = random_r1cs(&p, &cs, iter % 3 == 2 ? 5000 : 1 + rnd(300), 1, CZ_CS_NAMESPACES);
        if (r == NULL)
            continue;
        done++;
        size_t n, row = 0;
        cz_fr *w = assignment(cs, &n);
        TF_CHECK(cz_r1cs_check(r, w, n, pool, &row, NULL, 0) == CZ_OK);
        size_t col = rnd(n);
        cz_fr one = CZ_FR_ONE;
        cz_fr_add(&w[col], &w[col], &one);
        size_t want = SIZE_MAX;
        for (size_t i = 0; i < p.rows + p.n_in && want == SIZE_MAX; i++) {
            cz_fr a, b, c, ab;
            if (i < p.rows) {
                a = eval_lc(&p, &p.lc[3 * i], w);
                b = eval_lc(&p, &p.lc[3 * i + 1], w);
                c = eval_lc(&p, &p.lc[3 * i + 2], w);
            } else {
                a = w[i - p.rows], b = c = CZ_FR_ZERO;
            }
            cz_fr_mul(&ab, &a, &b);
            if (!cz_fr_equal(&ab, &c))
                want = i;
        }
        char msg[300], path[256];
        int err = cz_r1cs_check(r, w, n, pool, &row, msg, sizeof msg);
        if (want == SIZE_MAX) {
            TF_CHECK(err == CZ_OK);
        } else {
            TF_CHECK_MSG(err == CZ_ERR_UNSATISFIED && row == want, "row %zu, want %zu", row, want);
            cz_r1cs_ns_path(r, want, path, sizeof path);
            TF_CHECK_MSG(path[0] == 0 || strstr(msg, path) != NULL, "%s / %s", msg, path);
        }
        free(w);
        prog_free(&p);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
    TF_CHECK(done > 0);
    cz_pool_free(pool);
}

/* ------------------------------------------------------ dictionaries --- */

static int fr_cmp(const void *x, const void *y) { return memcmp(x, y, sizeof(cz_fr)); }

static bool is_general(const cz_fr *c)
{
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    return !cz_fr_is_zero(c) && !cz_fr_is_one(c) && !cz_fr_equal(c, &m1);
}

/* The coefficient of v in lc as written: its terms summed. */
static cz_fr lc_coeff(const cz_lc *lc, cz_var v)
{
    cz_fr s = CZ_FR_ZERO;
    for (size_t i = 0; i < lc->n; i++)
        if (lc->t[i].var == v)
            cz_fr_add(&s, &s, &lc->t[i].coeff);
    return s;
}

/* The distinct general coefficients of matrix k of p, counted from the
 * combinations as written, independently of the recorder: each variable's
 * sum per combination, those not 0, 1 or -1, sorted and deduplicated.
 * Returns the count; *out (malloc'd) holds them in memcmp order. */
static size_t direct_dict(const prog *p, int k, cz_fr **out)
{
    size_t cap = 1, n = 0;
    for (size_t i = 0; i < p->rows; i++)
        cap += p->lc[3 * i + k].n;
    cz_fr *all = malloc(cap * sizeof *all);
    for (size_t i = 0; i < p->rows; i++) {
        const cz_lc *lc = &p->lc[3 * i + k];
        for (size_t a = 0; a < lc->n; a++) {
            size_t first = 0;
            while (lc->t[first].var != lc->t[a].var)
                first++;
            cz_fr c = lc_coeff(lc, lc->t[a].var);
            if (first == a && is_general(&c))
                all[n++] = c;
        }
    }
    qsort(all, n, sizeof *all, fr_cmp);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || fr_cmp(&all[u - 1], &all[i]) != 0)
            all[u++] = all[i];
    *out = all;
    return u;
}

/* Matrix k of r against p: the dictionary is exactly the distinct general
 * coefficients (as a sorted set, so no entry twice), in order of first use,
 * and every entry's kind and coefficient is its variable's sum. */
static void check_dict(const cz_r1cs *r, const prog *p, int k)
{
    const cz_csr *m = cz_r1cs_matrix(r, k);
    cz_fr *want, m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    size_t nw = direct_dict(p, k, &want);
    TF_CHECK_MSG(m->ndict == nw, "matrix %d: %llu dictionary entries, %zu distinct coefficients", k,
                 (unsigned long long)m->ndict, nw);
    if (m->ndict == nw && nw) {
        cz_fr *got = malloc(nw * sizeof *got);
        memcpy(got, m->dict, nw * sizeof *got);
        qsort(got, nw, sizeof *got, fr_cmp);
        TF_CHECK_MSG(memcmp(got, want, nw * sizeof *got) == 0,
                     "matrix %d: the dictionary is not the set of coefficients", k);
        free(got);
    }
    uint64_t g = 0, used = 0;
    int ok = 1;
    for (size_t i = 0; i < p->rows; i++) {
        const cz_lc *lc = &p->lc[3 * i + k];
        for (uint64_t e = cz_csr_row_begin(m, i); e < cz_csr_row_end(m, i); e++) {
            uint32_t x = m->col[e], col = x & CZ_CSR_COL_MASK;
            cz_var v = col < p->n_in ? (cz_var)col : (CZ_VAR_AUX | (cz_var)(col - p->n_in));
            cz_fr c = lc_coeff(lc, v);
            switch (CZ_CSR_KIND(x)) {
            case CZ_CSR_ONE:
                ok &= cz_fr_is_one(&c);
                break;
            case CZ_CSR_NEG:
                ok &= cz_fr_equal(&c, &m1);
                break;
            default:
                ok &= m->gidx[g] <= used && cz_fr_equal(cz_csr_gen_coef(m, g), &c);
                used += m->gidx[g++] == used;
                break;
            }
        }
    }
    TF_CHECK_MSG(ok && used == m->ndict, "matrix %d: entries disagree with the dictionary", k);
    free(want);
}

static cz_fr fr_i64(int64_t v)
{
    cz_fr x = fr_u64((uint64_t)(v < 0 ? -v : v));
    if (v < 0)
        cz_fr_neg(&x, &x);
    return x;
}

/* Columns ONE = 0, u = 1, x = 2, y = 3, z = 4 (x = 3, y = 1, u = 15,
 * z = 66 / 9):
 *   row 0: (5x + 7y) * x = 9z         row 3: (7y - 7y) * (x + x) = 0
 *   row 1: 5x * ONE = u               row 4: (2x - x) * 0 = 0
 *   row 2: (2x + 3x) * (y - ONE) = 0
 * so A's general entries are 5, 7, 5, 5 (dictionary [5, 7], indices
 * 0 1 0 0; 2x - x is x, kind ONE), B's 2 and C's 9. */
static cz_r1cs *dict_circuit(cz_cs **csp)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_fr xv = fr_u64(3), yv = fr_u64(1), uv = fr_u64(15), zv = fr_u64(9), c2 = fr_i64(2),
          c3 = fr_i64(3), c5 = fr_i64(5), c7 = fr_i64(7), m7 = fr_i64(-7), c9 = fr_i64(9),
          m1 = fr_i64(-1), c66 = fr_u64(66);
    cz_fr_inv(&zv, &zv);
    cz_fr_mul(&zv, &zv, &c66);
    cz_var u = cz_cs_alloc_input(cs, &uv), x = cz_cs_alloc_aux(cs, &xv),
           y = cz_cs_alloc_aux(cs, &yv), z = cz_cs_alloc_aux(cs, &zv);
    cz_lc a, b, c;
    cz_lc_init(&a), cz_lc_init(&b), cz_lc_init(&c);
    cz_lc_add_term(&a, x, &c5), cz_lc_add_term(&a, y, &c7), cz_lc_add(&b, x);
    cz_lc_add_term(&c, z, &c9);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_term(&a, x, &c5), cz_lc_add(&b, CZ_CS_ONE), cz_lc_add(&c, u);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_term(&a, x, &c2), cz_lc_add_term(&a, x, &c3), cz_lc_add(&b, y);
    cz_lc_sub(&b, CZ_CS_ONE);
    cz_cs_enforce(cs, &a, &b, NULL);
    cz_lc_clear(&a), cz_lc_clear(&b);
    cz_lc_add_term(&a, y, &c7), cz_lc_add_term(&a, y, &m7), cz_lc_add(&b, x), cz_lc_add(&b, x);
    cz_cs_enforce(cs, &a, &b, NULL);
    cz_lc_clear(&a);
    cz_lc_add_term(&a, x, &c2), cz_lc_add_term(&a, x, &m1);
    cz_cs_enforce(cs, &a, NULL, NULL);
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    *csp = cs;
    return r;
}

/* The bytes of r's matrices (cs.h's sizes) and density bitmaps. */
static size_t array_bytes(const cz_r1cs *r)
{
    size_t rows = cz_r1cs_num_constraints(r), b = 0;
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = cz_r1cs_matrix(r, k);
        b += 2 * (rows / 64 + 1) * 8 + (rows + 1) * 4 + m->nnz * 4 + m->ngen * 4 + m->ndict * 32;
    }
    size_t wa = (cz_r1cs_num_aux(r) + 63) / 64, wi = (cz_r1cs_num_inputs(r) + 63) / 64;
    return b + (2 * (wa ? wa : 1) + wi) * 8;
}

static void test_dictionary(void)
{
    /* by hand */
    size_t base = 0; /* cz_r1cs_mem_bytes beyond the arrays: the same for all */
    cz_cs *cs;
    cz_r1cs *r = dict_circuit(&cs);
    if (r) {
        const cz_csr *A = cz_r1cs_matrix(r, CZ_MAT_A), *B = cz_r1cs_matrix(r, CZ_MAT_B),
                     *C = cz_r1cs_matrix(r, CZ_MAT_C);
        cz_fr c2 = fr_i64(2), c5 = fr_i64(5), c7 = fr_i64(7), c9 = fr_i64(9);
        TF_CHECK(A->nnz == 7 && A->ngen == 4 && A->ndict == 2);
        TF_CHECK(cz_fr_equal(&A->dict[0], &c5) && cz_fr_equal(&A->dict[1], &c7));
        TF_CHECK(A->gidx[0] == 0 && A->gidx[1] == 1 && A->gidx[2] == 0 && A->gidx[3] == 0);
        TF_CHECK(A->col[cz_csr_row_begin(A, 4)] == (CZ_CSR_ONE << 30 | 2));
        TF_CHECK(cz_csr_row_begin(A, 3) == cz_csr_row_end(A, 3));
        TF_CHECK(B->nnz == 5 && B->ngen == 1 && B->ndict == 1 && cz_fr_equal(&B->dict[0], &c2));
        TF_CHECK(C->nnz == 2 && C->ngen == 1 && C->ndict == 1 && cz_fr_equal(&C->dict[0], &c9));
        size_t n;
        cz_fr *w = assignment(cs, &n);
        TF_CHECK(cz_r1cs_check(r, w, n, NULL, NULL, NULL, 0) == CZ_OK);
        free(w);
        base = cz_r1cs_mem_bytes(r) - array_bytes(r);
        TF_CHECK(base < 1024);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
    /* random circuits: small integers repeat, random elements do not; the
     * large ones grow the hash tables past several thousand entries */
    for (unsigned iter = 0; iter < 10 * tf_scale; iter++) {
        prog p;
        r = random_r1cs(&p, &cs, iter < 8 ? 1 + rnd(500) : 6000, iter % 2, 0);
        if (r == NULL)
            continue;
        for (int k = 0; k < 3; k++)
            check_dict(r, &p, k);
        TF_CHECK(cz_r1cs_mem_bytes(r) - array_bytes(r) == base);
        prog_free(&p);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
}

static void test_errors(void)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, 7, 0) == CZ_ERR_INVALID_ARG && cs == NULL);
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 2) == CZ_ERR_INVALID_ARG);
    /* an unallocated variable */
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_lc a;
    cz_lc_init(&a);
    cz_lc_add(&a, CZ_VAR_AUX | 0);
    cz_cs_enforce(cs, &a, NULL, NULL);
    TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
    cz_r1cs *r;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_ERR_INVALID_ARG && r == NULL);
    cz_cs_free(cs);
    /* popping the root */
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
    cz_cs_pop_ns(cs);
    TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
    /* enforce and alloc after finish; equal paths share an entry */
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
    cz_lc_clear(&a);
    cz_lc_add(&a, CZ_CS_ONE);
    for (int i = 0; i < 3; i++) {
        cz_cs_push_ns(cs, "g");
        cz_cs_push_ns(cs, i == 1 ? "h" : "g");
        cz_cs_enforce(cs, &a, &a, &a);
        cz_cs_pop_ns(cs);
        cz_cs_pop_ns(cs);
    }
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    char p0[32], p1[32], p2[32];
    TF_CHECK(strcmp(cz_r1cs_ns_path(r, 0, p0, sizeof p0), "g/g") == 0);
    TF_CHECK(strcmp(cz_r1cs_ns_path(r, 1, p1, sizeof p1), "g/h") == 0);
    TF_CHECK(strcmp(cz_r1cs_ns_path(r, 2, p2, sizeof p2), "g/g") == 0);
    cz_r1cs *r2 = (cz_r1cs *)1;
    TF_CHECK(cz_cs_finish(cs, &r2) == CZ_ERR_INVALID_ARG && r2 == NULL);
    cz_cs_alloc_aux(cs, NULL);
    TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
    cz_r1cs_free(r);
    cz_lc_free(&a);
    TF_CHECK(strcmp(cz_strerror(CZ_ERR_UNSATISFIED), "unknown error") != 0);
    TF_CHECK(strcmp(cz_strerror(CZ_ERR_BAD_CHECKSUM), "unknown error") != 0);
}

/* ------------------------------------------------------------ PCE file --- */

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 8);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static void tmp_path(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/cz_test_cs_%ld_%s.pce", (long)getpid(), tag);
}

static void same_r1cs(const cz_r1cs *x, const cz_r1cs *y)
{
    TF_CHECK(cz_r1cs_num_inputs(x) == cz_r1cs_num_inputs(y));
    TF_CHECK(cz_r1cs_num_aux(x) == cz_r1cs_num_aux(y));
    TF_CHECK(cz_r1cs_num_constraints(x) == cz_r1cs_num_constraints(y));
    TF_CHECK(cz_r1cs_num_circuit_constraints(x) == cz_r1cs_num_circuit_constraints(y));
    for (int d = 0; d < 3; d++) {
        size_t cx, cy, nb = (d == CZ_DENSITY_B_INPUT ? cz_r1cs_num_inputs(x) : cz_r1cs_num_aux(x));
        const uint64_t *bx = cz_r1cs_density(x, d, &cx), *by = cz_r1cs_density(y, d, &cy);
        TF_CHECK(cx == cy && memcmp(bx, by, (nb + 63) / 64 * 8) == 0);
    }
}

static void test_pce_roundtrip(void)
{
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 2) == CZ_OK);
    for (unsigned iter = 0; iter < 6 * tf_scale; iter++) {
        prog p;
        cz_cs *cs;
        cz_r1cs *r = random_r1cs(&p, &cs, iter == 0 ? 0 : 1 + rnd(iter == 5 ? 3000 : 300), 1, 0);
        if (r == NULL)
            continue;
        char f1[128], f2[128], msg[200];
        tmp_path(f1, sizeof f1, "a");
        tmp_path(f2, sizeof f2, "b");
        TF_CHECK(cz_pce_save(r, f1) == CZ_OK);
        cz_r1cs *l = NULL;
        int err = cz_pce_load(&l, f1, 0, msg, sizeof msg);
        TF_CHECK_MSG(err == CZ_OK, "load: %s (%s)", cz_strerror(err), msg);
        if (l == NULL) {
            prog_free(&p), cz_r1cs_free(r), cz_cs_free(cs);
            continue;
        }
        same_r1cs(r, l);
        TF_CHECK(cz_pce_save(l, f2) == CZ_OK);
        size_t n1, n2;
        uint8_t *b1 = read_all(f1, &n1), *b2 = read_all(f2, &n2);
        TF_CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
        TF_CHECK(n1 % 32 == 0);
        size_t n, m = cz_r1cs_num_constraints(r);
        cz_fr *w = assignment(cs, &n);
        cz_fr *x = malloc(3 * m * sizeof *x + 1), *y = malloc(3 * m * sizeof *y + 1);
        TF_CHECK(cz_r1cs_spmv(r, w, n, x, x + m, x + 2 * m, pool) == CZ_OK);
        TF_CHECK(cz_r1cs_spmv(l, w, n, y, y + m, y + 2 * m, pool) == CZ_OK);
        TF_CHECK(memcmp(x, y, 3 * m * sizeof *x) == 0);
        TF_CHECK(cz_r1cs_check(l, w, n, pool, NULL, NULL, 0) == CZ_OK);
        TF_CHECK(cz_r1cs_mem_bytes(l) == cz_r1cs_mem_bytes(r));
        free(x), free(y), free(w), free(b1), free(b2);
        cz_r1cs_free(l);
        unlink(f1);
        unlink(f2);
        prog_free(&p);
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
    cz_pool_free(pool);
}

/* Recording without witness values gives the same file; its assignment is
 * zero but for ONE. */
static void test_shape_only(void)
{
    for (unsigned iter = 0; iter < 4 * tf_scale; iter++) {
        size_t ops = 1 + rnd(300);
        cz_prng saved = tf_rng;
        prog p1, p2;
        cz_cs *cs1, *cs2;
        cz_r1cs *r1 = random_r1cs(&p1, &cs1, ops, 1, 0);
        tf_rng = saved;
        gen_no_values = 1;
        cz_r1cs *r2 = random_r1cs(&p2, &cs2, ops, 1, 0);
        gen_no_values = 0;
        char f1[128], f2[128];
        tmp_path(f1, sizeof f1, "v");
        tmp_path(f2, sizeof f2, "nv");
        TF_CHECK(cz_pce_save(r1, f1) == CZ_OK && cz_pce_save(r2, f2) == CZ_OK);
        size_t n1 = 0, n2 = 1;
        uint8_t *b1 = read_all(f1, &n1), *b2 = read_all(f2, &n2);
        TF_CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
        size_t n;
        cz_fr *w = assignment(cs2, &n);
        int zero = cz_fr_is_one(&w[0]);
        for (size_t i = 1; i < n; i++)
            zero &= cz_fr_is_zero(&w[i]);
        TF_CHECK(zero);
        free(w), free(b1), free(b2);
        unlink(f1), unlink(f2);
        prog_free(&p1), prog_free(&p2);
        cz_r1cs_free(r1), cz_r1cs_free(r2);
        cz_cs_free(cs1), cz_cs_free(cs2);
    }
}

/* ---------------------------------------------------- cz_cs_repeat --- */

/* A block of ops random operations over ONE and its own variables (from
 * generator seed: the same block each call), and, with `before`, one
 * constraint on the cs's first aux and second input, allocated before the
 * block (as a PoRep challenge uses its partition's header). */
static void block_gen(cz_cs *cs, uint64_t seed, size_t ops, int before)
{
    cz_prng g, saved = tf_rng;
    cz_prng_seed(&g, seed);
    tf_rng = g; /* rnd and random_coeff draw from tf_rng */
    cz_var *v = malloc((ops + 1) * sizeof *v);
    size_t nv = 0;
    v[nv++] = CZ_CS_ONE;
    for (size_t op = 0; op < ops; op++) {
        cz_fr x;
        cz_fr_random(&x, &tf_rng);
        uint64_t k = rnd(8);
        if (k == 0)
            v[nv++] = cz_cs_alloc_input(cs, &x);
        else if (k < 3)
            v[nv++] = cz_cs_alloc_aux(cs, &x);
        else {
            cz_lc l[3];
            for (int j = 0; j < 3; j++) {
                cz_lc_init(&l[j]);
                for (size_t t = 0, n = rnd(8) == 0 ? rnd(30) : rnd(5); t < n; t++) {
                    cz_fr c;
                    random_coeff(&c);
                    cz_lc_add_term(&l[j], v[rnd(nv)], &c);
                }
            }
            if (before && op >= ops / 2) { /* once */
                cz_lc_add(&l[0], CZ_VAR_AUX | 0);
                cz_lc_add(&l[2], 1);
                before = 0;
            }
            cz_cs_enforce(cs, &l[0], &l[1], &l[2]);
            for (int j = 0; j < 3; j++)
                cz_lc_free(&l[j]);
        }
    }
    free(v);
    tf_rng = saved;
}

/* Variables and a constraint outside the block, so that copies shift past
 * them. */
static void around(cz_cs *cs, uint64_t seed)
{
    cz_fr x;
    cz_fr_from_u64(&x, seed);
    cz_var a = cz_cs_alloc_aux(cs, &x), b = cz_cs_alloc_input(cs, &x);
    cz_lc l[3];
    for (int j = 0; j < 3; j++)
        cz_lc_init(&l[j]);
    cz_lc_add(&l[0], a), cz_lc_add(&l[1], CZ_CS_ONE), cz_lc_add(&l[2], b);
    cz_cs_enforce(cs, &l[0], &l[1], &l[2]);
    for (int j = 0; j < 3; j++)
        cz_lc_free(&l[j]);
}

/* A recording of prefix, block times + 1 (copied with cz_cs_repeat or run
 * again; half of the blocks using prefix variables), suffix: both give
 * the same file, assignment and densities. */
static void test_repeat(void)
{
    for (unsigned iter = 0; iter < 12 * tf_scale; iter++) {
        size_t ops = 1 + rnd(iter % 3 == 0 ? 400 : 60), times = rnd(4) == 0 ? rnd(2) : rnd(20);
        uint64_t seed = cz_prng_next(&tf_rng);
        int before = (int)rnd(2);
        cz_cs *cs[2];
        cz_r1cs *r[2];
        for (int k = 0; k < 2; k++) {
            TF_CHECK(cz_cs_new(&cs[k], CZ_CS_RECORD, 0) == CZ_OK);
            around(cs[k], seed);
            cz_cs_mark mark;
            cz_cs_mark_here(cs[k], &mark);
            block_gen(cs[k], seed, ops, before);
            if (k == 0)
                TF_CHECK(cz_cs_repeat(cs[k], &mark, times) == CZ_OK);
            else
                for (size_t t = 0; t < times; t++)
                    block_gen(cs[k], seed, ops, before);
            around(cs[k], seed + 1);
            TF_CHECK_MSG(cz_cs_finish(cs[k], &r[k]) == CZ_OK, "ops %zu times %zu", ops, times);
        }
        same_r1cs(r[0], r[1]);
        char f[2][128];
        tmp_path(f[0], sizeof f[0], "rep");
        tmp_path(f[1], sizeof f[1], "run");
        size_t n[2];
        uint8_t *b[2];
        for (int k = 0; k < 2; k++) {
            TF_CHECK(cz_pce_save(r[k], f[k]) == CZ_OK);
            b[k] = read_all(f[k], &n[k]);
            unlink(f[k]);
        }
        TF_CHECK_MSG(b[0] && b[1] && n[0] == n[1] && memcmp(b[0], b[1], n[0]) == 0,
                     "ops %zu times %zu: the files differ", ops, times);
        size_t nw[2];
        cz_fr *w[2] = {assignment(cs[0], &nw[0]), assignment(cs[1], &nw[1])};
        TF_CHECK(nw[0] == nw[1] && memcmp(w[0], w[1], nw[0] * sizeof(cz_fr)) == 0);
        for (int k = 0; k < 2; k++) {
            free(b[k]), free(w[k]);
            cz_r1cs_free(r[k]);
            cz_cs_free(cs[k]);
        }
    }
}

/* What cz_cs_repeat refuses: other modes and namespaces (cs untouched), a
 * mark not of the recording, counts past the limits (sticky). */
static void test_repeat_refused(void)
{
    static const struct {
        cz_cs_mode mode;
        unsigned flags;
    } other[] = {{CZ_CS_WITNESS, 0}, {CZ_CS_COUNT, 0}, {CZ_CS_RECORD, CZ_CS_NAMESPACES}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        cz_cs *cs;
        cz_cs_mark mark;
        TF_CHECK(cz_cs_new(&cs, other[i].mode, other[i].flags) == CZ_OK);
        cz_cs_mark_here(cs, &mark);
        block_gen(cs, 7, 50, 0);
        size_t rows = cz_cs_num_constraints(cs), aux = cz_cs_num_aux(cs);
        TF_CHECK(cz_cs_repeat(cs, &mark, 3) == CZ_ERR_UNSUPPORTED);
        TF_CHECK(cz_cs_error(cs) == CZ_OK && cz_cs_num_constraints(cs) == rows &&
                 cz_cs_num_aux(cs) == aux);
        cz_cs_free(cs);
    }
    for (int c = 1; c < 4; c++) {
        cz_cs *cs;
        cz_cs_mark mark;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
        around(cs, 3);
        cz_cs_mark_here(cs, &mark);
        block_gen(cs, 9, 200, 1);
        size_t times = 2;
        if (c == 1)
            mark.n_rows = cz_cs_num_constraints(cs) + 1; /* beyond the recording */
        else if (c == 2)
            mark.nnz[CZ_MAT_B]++; /* not where its row begins */
        else if (c == 3)
            times = SIZE_MAX / 2; /* past CZ_CS_MAX_VARS */
        TF_CHECK_MSG(cz_cs_repeat(cs, &mark, times) == CZ_ERR_INVALID_ARG, "case %d", c);
        TF_CHECK(cz_cs_error(cs) == CZ_ERR_INVALID_ARG);
        cz_r1cs *r = (cz_r1cs *)1;
        TF_CHECK(cz_cs_finish(cs, &r) == CZ_ERR_INVALID_ARG && r == NULL);
        cz_cs_free(cs);
    }
}

/* A small saved file (dict_circuit) in an 8-byte aligned buffer. */
static uint64_t *small_pce(size_t *len, cz_r1cs **rp, cz_cs **csp)
{
    cz_r1cs *r = dict_circuit(csp);
    char f[128];
    tmp_path(f, sizeof f, "small");
    TF_CHECK(cz_pce_save(r, f) == CZ_OK);
    uint8_t *b = read_all(f, len);
    unlink(f);
    uint64_t *a = calloc(*len / 8 + 2, 8);
    memcpy(a, b, *len);
    free(b);
    *rp = r;
    return a;
}

static int load_buf(const void *b, size_t len, unsigned flags, char *msg, size_t ml)
{
    cz_r1cs *r = (cz_r1cs *)1;
    int err = cz_pce_load_mem(&r, b, len, flags, msg, ml);
    TF_CHECK((err == CZ_OK) == (r != NULL));
    /* whatever loads must be usable (a flipped count may claim 2^28
     * unused aux: valid, but too large an assignment for this test) */
    if (r && cz_r1cs_num_aux(r) > 4096) {
        cz_r1cs_free(r);
        r = NULL;
    }
    if (r) {
        size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r), m = cz_r1cs_num_constraints(r);
        cz_fr *w = calloc(n + 1, sizeof *w), *o = malloc((m + 1) * sizeof *o);
        for (size_t i = 0; i < n; i++)
            w[i] = CZ_FR_ONE;
        TF_CHECK(cz_r1cs_spmv(r, w, n, o, o, o, NULL) == CZ_OK);
        cz_r1cs_check(r, w, n, NULL, NULL, NULL, 0);
        free(w), free(o);
        cz_r1cs_free(r);
    }
    return err;
}

/* The sections of a version 2 file, from its header by cs.h's layout
 * (written here again, not taken from pce.c): sec[k][s] for matrix k and
 * s = row_blk, row_off, coef_blk, col, gidx, dict. */
enum { S_ROW_BLK, S_ROW_OFF, S_COEF_BLK, S_COL, S_GIDX, S_DICT };
static void pce_sections(const uint8_t *f, uint64_t sec[3][6])
{
    uint64_t rows, o = 192, c[9];
    memcpy(&rows, f + 32, 8);
    memcpy(c, f + 48, sizeof c);
    for (int k = 0; k < 3; k++) {
        uint64_t len[6] = {(rows / 64 + 1) * 8, (rows + 1) * 4,   (rows / 64 + 1) * 8,
                           c[3 * k] * 4,        c[3 * k + 1] * 4, c[3 * k + 2] * 32};
        for (int s = 0; s < 6; s++) {
            o = (o + 63) & ~63ULL;
            sec[k][s] = o;
            o += len[s];
        }
    }
}

static void test_pce_corrupt(void)
{
    size_t len;
    cz_r1cs *r;
    cz_cs *cs;
    uint64_t *good = small_pce(&len, &r, &cs);
    uint8_t *g = (uint8_t *)good;
    char msg[200];
    uint64_t *buf = calloc(len / 8 + 2, 8);
    uint8_t *b = (uint8_t *)buf;
    TF_CHECK(load_buf(g, len, 0, msg, sizeof msg) == CZ_OK);
    /* every truncation */
    for (size_t n = 0; n < len; n++) {
        int err = load_buf(g, n, 0, msg, sizeof msg);
        TF_CHECK_MSG(err == CZ_ERR_TRUNCATED, "length %zu: %s", n, cz_strerror(err));
        TF_CHECK(msg[0] != 0);
    }
    /* one byte longer */
    TF_CHECK(load_buf(g, len + 1, 0, msg, sizeof msg) == CZ_ERR_BAD_LENGTH);
    /* every byte flipped (all bits): detected; with the checksum skipped,
     * never a crash, and a loaded file is usable (load_buf runs it) */
    for (size_t i = 0; i < len; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(b, g, len);
            b[i] ^= (uint8_t)(1u << bit);
            int err = load_buf(b, len, 0, msg, sizeof msg);
            TF_CHECK_MSG(err != CZ_OK, "flip at byte %zu bit %d accepted", i, bit);
            load_buf(b, len, CZ_PCE_NO_CHECKSUM, msg, sizeof msg);
        }
    }
    /* specific corruptions, checksum skipped so the structural check is the
     * one that answers; dict_circuit's A: rows of 2, 1, 1, 0, 1 entries and
     * the input rows (7 entries over columns 0 .. 4), general entries
     * 5 7 5 5 = dictionary [5, 7] at indices 0 1 0 0 */
    const cz_csr *A = cz_r1cs_matrix(r, CZ_MAT_A);
    uint64_t sec[3][6];
    pce_sections(g, sec);
    TF_CHECK(memcmp(g + sec[0][S_ROW_OFF], A->row_off, 8 * 4) == 0);
    TF_CHECK(memcmp(g + sec[0][S_COL], A->col, A->nnz * 4) == 0);
    TF_CHECK(memcmp(g + sec[0][S_GIDX], A->gidx, A->ngen * 4) == 0);
    TF_CHECK(A->ndict == 2 && memcmp(g + sec[0][S_DICT], A->dict, 64) == 0);
    TF_CHECK(sec[2][S_DICT] + 32 == len);
    uint64_t ro = sec[0][S_ROW_OFF], col = sec[0][S_COL], gi = sec[0][S_GIDX];
    uint64_t dict = sec[0][S_DICT];
    struct {
        size_t off;
        uint64_t val;
        int width;
        int want;
        const char *says; /* in the message, or NULL */
    } cases[] = {
        {0, 0x58, 1, CZ_ERR_BAD_FORMAT, "magic"},
        {8, 1, 4, CZ_ERR_UNSUPPORTED, "older format"},
        {8, 3, 4, CZ_ERR_UNSUPPORTED, "version 3"},
        {12, 1, 4, CZ_ERR_BAD_FORMAT, "flags"},
        {128, 1, 8, CZ_ERR_BAD_FORMAT, "reserved"},
        {176, 1, 8, CZ_ERR_BAD_FORMAT, "reserved"},
        {16, 0, 8, CZ_ERR_BAD_FORMAT, NULL},                 /* no inputs */
        {24, (uint64_t)1 << 40, 8, CZ_ERR_BAD_FORMAT, NULL}, /* huge aux */
        {32, 8, 8, CZ_ERR_BAD_FORMAT, NULL},                 /* rows != circ + in */
        {48, (uint64_t)-1, 8, CZ_ERR_BAD_FORMAT, NULL},      /* huge nnz */
        {56, 1000, 8, CZ_ERR_BAD_FORMAT, NULL},              /* ngen > nnz */
        {64, 5, 8, CZ_ERR_BAD_FORMAT, "dictionary"},         /* ndict > ngen */
        {112, 0, 8, CZ_ERR_BAD_FORMAT, "body length"},       /* ndict of C: shorter */
        {120, 0, 8, CZ_ERR_BAD_FORMAT, "body length"},
        {sec[0][S_ROW_BLK], 1, 8, CZ_ERR_BAD_FORMAT, "row 0"},
        {ro, 1, 4, CZ_ERR_BAD_FORMAT, "not 0"},                 /* row_off[0] */
        {ro + 4 * 2, 1, 4, CZ_ERR_BAD_FORMAT, "backwards"},     /* row_off[2] < row_off[1] */
        {ro + 4 * 7, 6, 4, CZ_ERR_BAD_FORMAT, "not at nnz"},    /* rows end before nnz */
        {ro + 4 * 7, 1000, 4, CZ_ERR_BAD_FORMAT, "past nnz"},   /* or past it */
        {sec[0][S_COEF_BLK], 1, 8, CZ_ERR_BAD_FORMAT, "block"}, /* coef_blk[0] */
        {col, 5, 4, CZ_ERR_BAD_FORMAT, "out of range"},         /* column 5 of 5 */
        {col, 3u << 30, 4, CZ_ERR_BAD_FORMAT, "kind"},
        {col + 4, CZ_CSR_GEN << 30 | 2, 4, CZ_ERR_BAD_FORMAT, "increasing"},
        {col + 4 * 4, CZ_CSR_GEN << 30 | 2, 4, CZ_ERR_BAD_FORMAT, "more general"}, /* row 4 */
        {col + 4 * 1, CZ_CSR_ONE << 30 | 3, 4, CZ_ERR_BAD_FORMAT, "general entries"},
        {gi + 4 * 2, 2, 4, CZ_ERR_BAD_FORMAT, "out of range"}, /* index 2 of 2 */
        {gi + 4 * 2, 1u << 31, 4, CZ_ERR_BAD_FORMAT, "out of range"},
        {gi, 1, 4, CZ_ERR_BAD_FORMAT, "first use"}, /* 1 before 0 */
        {gi + 4, 0, 4, CZ_ERR_BAD_FORMAT, "used"},  /* 7 never used */
        {dict + 24, (uint64_t)-1, 8, CZ_ERR_NOT_CANONICAL, "not below r"},
        {ro - 4, 1, 4, CZ_ERR_BAD_FORMAT, "padding"},
        {col + 4 * 6, CZ_CSR_ONE << 30 | 0, 4, CZ_ERR_BAD_FORMAT, "input constraint 1"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(b, g, len);
        uint64_t v = cases[c].val;
        memcpy(b + cases[c].off, &v, (size_t)cases[c].width);
        int err = load_buf(b, len, CZ_PCE_NO_CHECKSUM, msg, sizeof msg);
        TF_CHECK_MSG(err == cases[c].want, "case %zu: %s, want %s (%s)", c, cz_strerror(err),
                     cz_strerror(cases[c].want), msg);
        TF_CHECK(msg[0] != 0);
        TF_CHECK_MSG(cases[c].says == NULL || strstr(msg, cases[c].says) != NULL,
                     "case %zu: \"%s\" does not say \"%s\"", c, msg, cases[c].says);
        TF_CHECK(load_buf(b, len, 0, msg, sizeof msg) != CZ_OK);
    }
    /* dictionary entries: 1, -1 and 0 are not general; two equal ones */
    cz_fr bad[4];
    bad[0] = CZ_FR_ONE;
    cz_fr_neg(&bad[1], &CZ_FR_ONE);
    bad[2] = CZ_FR_ZERO;
    bad[3] = A->dict[0];
    for (int i = 0; i < 4; i++) {
        memcpy(b, g, len);
        memcpy(b + dict + 32 * (i == 3), &bad[i], 32);
        int err = load_buf(b, len, CZ_PCE_NO_CHECKSUM, msg, sizeof msg);
        const char *says = i == 3 ? "entries 0 and 1 are equal" : "0, 1 or -1";
        TF_CHECK_MSG(err == (i == 3 ? CZ_ERR_BAD_FORMAT : CZ_ERR_NOT_CANONICAL) &&
                         strstr(msg, says) != NULL,
                     "dictionary case %d: %s (%s)", i, cz_strerror(err), msg);
    }
    /* misaligned buffer, bad flags, missing and empty files */
    cz_r1cs *l;
    TF_CHECK(cz_pce_load_mem(&l, g + 1, len, 0, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_pce_load_mem(&l, g, len, 4, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_pce_load(&l, "/nonexistent/cz.pce", 0, msg, sizeof msg) == CZ_ERR_IO && !l);
    char f[128];
    tmp_path(f, sizeof f, "empty");
    FILE *fp = fopen(f, "wb");
    fclose(fp);
    TF_CHECK(cz_pce_load(&l, f, 0, msg, sizeof msg) == CZ_ERR_TRUNCATED);
    fp = fopen(f, "wb");
    fwrite(g, 1, len - 32, fp);
    fclose(fp);
    TF_CHECK(cz_pce_load(&l, f, 0, msg, sizeof msg) == CZ_ERR_TRUNCATED);
    unlink(f);
    free(buf);
    free(good);
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

/* A version 1 file (tests/data/pce/README.md) is refused, and the message
 * says to regenerate it. */
static void test_pce_v1(void)
{
    char path[4096], msg[256];
    tf_fixture_path(path, sizeof path, "pce", "v1_seed1.pce");
    cz_r1cs *l = (cz_r1cs *)1;
    int err = cz_pce_load(&l, path, 0, msg, sizeof msg);
    TF_CHECK_MSG(err == CZ_ERR_UNSUPPORTED && l == NULL, "%s (%s)", cz_strerror(err), msg);
    TF_CHECK_MSG(strstr(msg, "older format") && strstr(msg, "regenerated"), "message: %s", msg);
    tf_blob v1 = tf_fixture("pce", "v1_seed1.pce");
    uint64_t *a = calloc(v1.n / 8 + 1, 8);
    memcpy(a, v1.p, v1.n);
    TF_CHECK(cz_pce_load_mem(&l, a, v1.n, CZ_PCE_NO_CHECKSUM, msg, sizeof msg) ==
             CZ_ERR_UNSUPPORTED);
    free(a);
    free(v1.p);
}

/* ----------------------------------------------------------- fuzz seeds --- */

static int write_seed(const char *dir, const char *name, cz_r1cs *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int err = r ? cz_pce_save(r, path) : CZ_ERR_INVALID_ARG;
    if (err != CZ_OK)
        fprintf(stderr, "test_cs: cannot write %s\n", path);
    cz_r1cs_free(r);
    return err != CZ_OK;
}

/* The seeds of fuzz/fuzz_pce_load.c: the empty circuit (input rows only),
 * dict_circuit, cubic, and random circuits of 60 and 300 operations (rows
 * across 64-row blocks, repeated and distinct coefficients) from generator
 * seed 1. */
static int write_seeds(const char *dir)
{
    int bad = 0;
    mkdir(dir, 0755);
    cz_prng_seed(&tf_rng, 1);
    cz_cs *cs;
    prog p;
    cz_r1cs *r = NULL;
    if (cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK)
        cz_cs_finish(cs, &r);
    cz_cs_free(cs);
    bad |= write_seed(dir, "empty.pce", r);
    r = dict_circuit(&cs);
    cz_cs_free(cs);
    bad |= write_seed(dir, "dict.pce", r);
    r = cubic(&cs, 3);
    cz_cs_free(cs);
    bad |= write_seed(dir, "cubic.pce", r);
    static const size_t ops[2] = {60, 300};
    for (int i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "random%zu.pce", ops[i]);
        r = random_r1cs(&p, &cs, ops[i], 1, 0);
        prog_free(&p);
        cz_cs_free(cs);
        bad |= write_seed(dir, name, r);
    }
    return bad;
}

/* ----------------------------------------- witnesses of alike parts --- */

/* A toy circuit of a header and n parts of two segments: the header
 * allocates hi inputs and ha aux; segment 0 of part i one input and ka aux
 * (phase 0), summing them into acc[i]; segment 1 (phase 1) kb aux read
 * from acc[i].  fail_at: the part whose segment 1 fails (SIZE_MAX: none). */
typedef struct {
    unsigned hi, ha, ka, kb;
    cz_fr h0, acc[64];
    size_t fail_at;
} toy;

static int toy_header(void *ctx, cz_cs *cs)
{
    toy *t = ctx;
    cz_fr v = t->h0;
    for (unsigned i = 0; i < t->hi; i++, cz_fr_add(&v, &v, &CZ_FR_ONE))
        cz_cs_alloc_input(cs, &v);
    for (unsigned i = 0; i < t->ha; i++, cz_fr_add(&v, &v, &v))
        cz_cs_alloc_aux(cs, &v);
    return CZ_OK;
}

static int toy_segment(void *ctx, cz_cs *cs, size_t part, unsigned seg, void *scratch)
{
    toy *t = ctx;
    cz_fr *tmp = scratch;
    if (seg == 1) {
        if (part == t->fail_at)
            return CZ_ERR_BAD_PROOF;
        for (unsigned k = 0; k < t->kb; k++)
            cz_cs_alloc_aux(cs, &t->acc[part]);
        return CZ_OK;
    }
    cz_fr_from_u64(tmp, part + 1);
    cz_fr_mul(tmp, tmp, &t->h0);
    cz_cs_alloc_input(cs, tmp);
    t->acc[part] = *tmp;
    for (unsigned k = 0; k < t->ka; k++) {
        cz_fr_add(tmp, tmp, &t->h0);
        cz_cs_alloc_aux(cs, tmp);
        cz_fr_add(&t->acc[part], &t->acc[part], tmp);
    }
    return CZ_OK;
}

/* cz_cs_parts_run's assignment equals the sequential one (the header,
 * then each part's segments in order on one cs), on 0 and 3 threads; the
 * counts are measured once; a failing piece and a wrong length are named. */
static void test_parts(void)
{
    static cz_cs_parts_cache cache = CZ_CS_PARTS_CACHE_INIT;
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 3) == CZ_OK);
    for (unsigned iter = 0; iter < 20 * tf_scale; iter++) {
        toy t = {.fail_at = SIZE_MAX};
        t.hi = (unsigned)rnd(3);
        t.ha = (unsigned)rnd(4);
        t.ka = (unsigned)rnd(5);
        t.kb = (unsigned)rnd(3);
        cz_fr_random(&t.h0, &tf_rng);
        size_t n = rnd(65);
        cz_cs_parts p = {.header = t.hi + t.ha ? toy_header : NULL,
                         .segment = toy_segment,
                         .scratch = sizeof(cz_fr),
                         .n_seg = 2,
                         .phase = {0, 1},
                         .what = "toy witness",
                         .part = "part"};
        const uint64_t key[CZ_CS_PARTS_KEY] = {t.hi, t.ha, t.ka, t.kb, p.header != NULL};
        cz_cs_parts_counts c;
        TF_CHECK(cz_cs_parts_counts_get(&cache, key, &p, &t, &c) == CZ_OK);
        TF_CHECK(c.hdr.in == 1 + t.hi && c.hdr.aux == t.ha && c.seg[0].in == 1 &&
                 c.seg[0].aux == t.ka && c.seg[1].in == 0 && c.seg[1].aux == t.kb);
        size_t n_in, n_aux;
        cz_cs_parts_size(&p, &c, n, &n_in, &n_aux);
        TF_CHECK(n_in == 1 + t.hi + n && n_aux == t.ha + n * (t.ka + t.kb));
        cz_cs *cs;
        cz_fr tmp;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
        toy_header(&t, cs);
        for (size_t i = 0; i < n; i++)
            for (unsigned s = 0; s < 2; s++)
                toy_segment(&t, cs, i, s, &tmp);
        TF_CHECK(cz_cs_num_inputs(cs) == n_in && cz_cs_num_aux(cs) == n_aux);
        cz_fr *want = malloc((n_in + n_aux) * sizeof *want),
              *w = malloc((n_in + n_aux) * sizeof *w);
        cz_cs_write_assignment(cs, want);
        cz_cs_free(cs);
        char err[200];
        for (int th = 0; th < 2; th++) {
            memset(w, 0xa5, (n_in + n_aux) * sizeof *w);
            TF_CHECK(cz_cs_parts_run(&p, &c, n, &t, w, n_in + n_aux, th ? pool : NULL, NULL, err,
                                     sizeof err) == CZ_OK);
            TF_CHECK_MSG(memcmp(w, want, (n_in + n_aux) * sizeof *w) == 0,
                         "%zu parts, %d threads: the assignments differ", n, 3 * th);
        }
        TF_CHECK(cz_cs_parts_run(&p, &c, n, &t, w, n_in + n_aux + 1, pool, NULL, err, sizeof err) ==
                     CZ_ERR_INVALID_ARG &&
                 strstr(err, "toy witness: ") && strstr(err, "values for a circuit of"));
        if (n > 0) {
            t.fail_at = rnd(n);
            cz_cs_parts_at at;
            char want_msg[80];
            snprintf(want_msg, sizeof want_msg, "toy witness: part %zu, segment 1: ", t.fail_at);
            TF_CHECK(cz_cs_parts_run(&p, &c, n, &t, w, n_in + n_aux, pool, &at, err, sizeof err) ==
                     CZ_ERR_BAD_PROOF);
            TF_CHECK_MSG(at.part == t.fail_at && at.seg == 1 && strstr(err, want_msg), "%s", err);
        }
        free(w);
        free(want);
    }
    cz_pool_free(pool);
}

TF_MAIN_SEEDS(write_seeds, TF_TEST(test_cubic), TF_TEST(test_boolean), TF_TEST(test_random_spmv),
              TF_TEST(test_gpu_spmv), TF_TEST(test_free_hook), TF_TEST(test_witness_mode),
              TF_TEST(test_witness_at), TF_TEST(test_check_random), TF_TEST(test_dictionary),
              TF_TEST(test_errors), TF_TEST(test_pce_roundtrip), TF_TEST(test_shape_only),
              TF_TEST(test_repeat), TF_TEST(test_repeat_refused), TF_TEST(test_pce_corrupt),
              TF_TEST(test_pce_v1), TF_TEST(test_parts))
