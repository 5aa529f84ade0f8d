/* Tests for the synthetic circuit family (include/cuzk/synthetic.h): row
 * and aux counts, densities and data mix, satisfaction for several
 * partitions, witness-only synthesis against recording, determinism,
 * partition independence, the memory bound and parameter checks. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/synthetic.h"
#include "tf.h"

/* Records s for `partition`; returns the r1cs and the cs (for its
 * assignment), or NULL after a failed check. */
static cz_r1cs *record(const cz_synthetic *s, uint32_t partition, unsigned flags, cz_cs **csp)
{
    cz_cs *cs = NULL;
    cz_r1cs *r = NULL;
    *csp = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, flags) == CZ_OK);
    if (cs == NULL)
        return NULL;
    int rc = cz_synthetic_synthesize(cs, s, partition);
    TF_CHECK_MSG(rc == CZ_OK, "synthesize: %s", cz_strerror(rc));
    if (rc == CZ_OK) {
        rc = cz_cs_finish(cs, &r);
        TF_CHECK_MSG(rc == CZ_OK, "finish: %s", cz_strerror(rc));
    }
    if (r == NULL) {
        cz_cs_free(cs);
        return NULL;
    }
    *csp = cs;
    return r;
}

/* Witness-only assignment [inputs | aux] (malloc'd) and its length. */
static cz_fr *witness(const cz_synthetic *s, uint32_t partition, size_t *n)
{
    cz_cs *cs = NULL;
    *n = 0;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
    if (cs == NULL)
        return NULL;
    int rc = cz_synthetic_synthesize(cs, s, partition);
    TF_CHECK_MSG(rc == CZ_OK, "synthesize (witness): %s", cz_strerror(rc));
    TF_CHECK(cz_cs_num_constraints(cs) == 0);
    TF_CHECK(cz_cs_num_aux(cs) == cz_synthetic_num_aux(s));
    TF_CHECK(cz_cs_num_inputs(cs) == 1 + (size_t)s->n_public);
    *n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
    cz_fr *w = malloc(*n * sizeof *w);
    if (w)
        cz_cs_write_assignment(cs, w);
    cz_cs_free(cs);
    return w;
}

static bool is_bit(const cz_fr *x) { return cz_fr_is_zero(x) || cz_fr_is_one(x); }

/* Number of entries of each CSR kind in m. */
static void kinds(const cz_csr *m, uint64_t count[3])
{
    count[0] = count[1] = count[2] = 0;
    for (uint64_t k = 0; k < m->nnz; k++)
        count[CZ_CSR_KIND(m->col[k])]++;
}

/* True iff column col has an entry in m. */
static bool has_col(const cz_csr *m, uint32_t col)
{
    for (uint64_t k = 0; k < m->nnz; k++)
        if ((m->col[k] & CZ_CSR_COL_MASK) == col)
            return true;
    return false;
}

static bool csr_equal(const cz_csr *x, const cz_csr *y, size_t rows)
{
    size_t nb = rows / CZ_CSR_BLOCK + 1;
    return x->nnz == y->nnz && x->ngen == y->ngen && x->ndict == y->ndict &&
           !memcmp(x->row_blk, y->row_blk, nb * sizeof *x->row_blk) &&
           !memcmp(x->row_off, y->row_off, (rows + 1) * sizeof *x->row_off) &&
           !memcmp(x->coef_blk, y->coef_blk, nb * sizeof *x->coef_blk) &&
           !memcmp(x->col, y->col, x->nnz * sizeof *x->col) &&
           (x->ngen == 0 || !memcmp(x->gidx, y->gidx, x->ngen * sizeof *x->gidx)) &&
           (x->ndict == 0 || !memcmp(x->dict, y->dict, x->ndict * sizeof *x->dict));
}

/* ----------------------------------------------------- shape and data --- */

static void check_shape(unsigned log, uint32_t n_public)
{
    cz_synthetic s = {log, n_public, cz_prng_next(&tf_rng)};
    cz_cs *cs;
    cz_r1cs *r = record(&s, 0, log == 12 ? CZ_CS_NAMESPACES : 0, &cs);
    if (r == NULL)
        return;
    size_t rows = cz_r1cs_num_constraints(r), n_in = cz_r1cs_num_inputs(r);
    size_t n_aux = cz_r1cs_num_aux(r);
    TF_CHECK_MSG(rows > ((size_t)1 << (log - 1)) && rows <= ((size_t)1 << log), "2^%u: %zu rows",
                 log, rows);
    TF_CHECK_MSG(rows == (size_t)1 << log, "2^%u: %zu rows, not exactly 2^%u", log, rows, log);
    TF_CHECK(n_in == 1 + (size_t)n_public);
    TF_CHECK_MSG(n_aux == cz_synthetic_num_aux(&s), "aux %zu, predicted %zu", n_aux,
                 cz_synthetic_num_aux(&s));

    size_t na, nb, nbi;
    cz_r1cs_density(r, CZ_DENSITY_A_AUX, &na);
    cz_r1cs_density(r, CZ_DENSITY_B_AUX, &nb);
    cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &nbi);
    double da = (double)na / (double)n_aux, db = (double)nb / (double)n_aux;
    size_t n_w = n_in + n_aux, bits = 0;
    cz_fr *w = malloc(n_w * sizeof *w);
    if (w == NULL) {
        TF_CHECK(w != NULL);
        goto out;
    }
    cz_cs_write_assignment(cs, w);
    for (size_t i = n_in; i < n_w; i++)
        bits += is_bit(&w[i]);
    double fb = (double)bits / (double)n_aux;
    size_t mem = cz_r1cs_mem_bytes(r);
    uint64_t bound = cz_synthetic_r1cs_bytes(&s);
    printf("  2^%-2u pub %-2u: %zu aux, A %.2f%%, B %.2f%%, 0/1 %.2f%%, mem %zu <= %llu (%.3f)\n",
           log, n_public, n_aux, 100 * da, 100 * db, 100 * fb, mem, (unsigned long long)bound,
           (double)mem / (double)bound);
    TF_CHECK_MSG(da > 0.993 && da < 1.0, "density of A over aux %.4f", da);
    TF_CHECK_MSG(db > 0.225 && db < 0.27, "density of B over aux %.4f", db);
    TF_CHECK_MSG(fb > 0.88 && fb < 0.94, "0/1 fraction %.4f", fb);
    /* about one aux per constraint, not counting the public packings and
     * the input constraints, which allocate none */
    size_t gadget_rows = rows - n_in - n_public;
    TF_CHECK_MSG(n_aux > gadget_rows && n_aux < gadget_rows + gadget_rows / 32,
                 "%zu aux for %zu gadget rows", n_aux, gadget_rows);
    TF_CHECK_MSG(nbi == 1, "%zu inputs in B (ONE only expected)", nbi);
    /* namespaces (2^12) fill the bound; without, their 4 bytes a row are
     * ~12% of it */
    TF_CHECK(mem <= bound && mem > bound / 100 * (log == 12 ? 95 : 85));
    for (int m = 0; m < 3; m++) {
        uint64_t c[3];
        kinds(cz_r1cs_matrix(r, m), c);
        TF_CHECK_MSG(c[CZ_CSR_GEN] && c[CZ_CSR_ONE] && c[CZ_CSR_NEG],
                     "matrix %d: %llu general, %llu one, %llu minus one", m,
                     (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2]);
    }
    for (uint32_t i = 1; i < n_in; i++)
        TF_CHECK_MSG(has_col(cz_r1cs_matrix(r, CZ_MAT_C), i), "public %u not in C", i);

    /* the recorded witness and those of other partitions satisfy r */
    char msg[256];
    int rc = cz_r1cs_check(r, w, n_w, NULL, NULL, msg, sizeof msg);
    TF_CHECK_MSG(rc == CZ_OK, "partition 0: %s", msg);
    for (uint32_t p = 1; p < 4; p++) {
        size_t n;
        cz_fr *wp = witness(&s, p * 1000003u, &n);
        if (wp == NULL)
            continue;
        rc = cz_r1cs_check(r, wp, n, NULL, NULL, msg, sizeof msg);
        TF_CHECK_MSG(rc == CZ_OK, "partition %u: %s", p * 1000003u, msg);
        free(wp);
    }
    /* a wrong value anywhere is caught: an aux, a public input */
    size_t i = n_in + (size_t)(cz_prng_next(&tf_rng) % n_aux);
    cz_fr two;
    cz_fr_add(&two, &w[i], &CZ_FR_ONE);
    w[i] = two;
    TF_CHECK_MSG(cz_r1cs_check(r, w, n_w, NULL, NULL, NULL, 0) == CZ_ERR_UNSATISFIED,
                 "aux %zu changed and still satisfied", i - n_in);
    cz_fr_sub(&w[i], &w[i], &CZ_FR_ONE);
    if (n_public) {
        i = 1 + (size_t)(cz_prng_next(&tf_rng) % n_public);
        cz_fr_add(&w[i], &w[i], &CZ_FR_ONE);
        TF_CHECK_MSG(cz_r1cs_check(r, w, n_w, NULL, NULL, NULL, 0) == CZ_ERR_UNSATISFIED,
                     "public %zu changed and still satisfied", i);
    }
    free(w);
out:
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

static void test_shape(void)
{
    static const uint32_t pubs[] = {0, 1, 7, 64};
    for (unsigned log = CZ_SYNTHETIC_MIN_LOG; log <= 14; log++)
        for (size_t k = 0; k < sizeof pubs / sizeof pubs[0]; k++)
            if (log <= 12 || k % 2 == 1)
                check_shape(log, pubs[k]);
    check_shape(11, 2 + (uint32_t)(cz_prng_next(&tf_rng) % 63));
}

/* -------------------------------------------- witness mode, determinism --- */

static void test_witness_mode(void)
{
    cz_synthetic s = {11 + (unsigned)(cz_prng_next(&tf_rng) % 2),
                      (uint32_t)(cz_prng_next(&tf_rng) % 65), cz_prng_next(&tf_rng)};
    uint32_t part = (uint32_t)cz_prng_next(&tf_rng);
    cz_cs *cs;
    cz_r1cs *r = record(&s, part, 0, &cs);
    size_t n1, n2;
    cz_fr *w1 = witness(&s, part, &n1), *w2 = witness(&s, part, &n2);
    if (r && w1 && w2) {
        TF_CHECK(n1 == cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r) && n2 == n1);
        cz_fr *wr = malloc(n1 * sizeof *wr);
        if (wr) {
            cz_cs_write_assignment(cs, wr);
            TF_CHECK_MSG(!memcmp(wr, w1, n1 * sizeof *wr), "witness mode differs from recording");
            free(wr);
        }
        TF_CHECK_MSG(!memcmp(w1, w2, n1 * sizeof *w1), "same (seed, partition) differs");
    }
    /* another seed and partition: the same matrices */
    cz_synthetic s2 = s;
    s2.seed = ~s.seed;
    cz_cs *cs2;
    cz_r1cs *r2 = record(&s2, part + 1, 0, &cs2);
    if (r && r2) {
        size_t rows = cz_r1cs_num_constraints(r);
        TF_CHECK(cz_r1cs_num_constraints(r2) == rows);
        TF_CHECK(cz_r1cs_num_aux(r2) == cz_r1cs_num_aux(r));
        for (int m = 0; m < 3; m++)
            TF_CHECK_MSG(csr_equal(cz_r1cs_matrix(r, m), cz_r1cs_matrix(r2, m), rows),
                         "matrix %d depends on the seed or partition", m);
    }
    cz_r1cs_free(r2);
    cz_cs_free(cs2);
    free(w1);
    free(w2);
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

/* Different partitions and seeds give different witnesses and publics. */
static void test_partitions_differ(void)
{
    cz_synthetic s = {10, 64, cz_prng_next(&tf_rng)};
    cz_synthetic t = s;
    t.seed ^= 1;
    size_t n[4];
    cz_fr *w[4] = {witness(&s, 0, &n[0]), witness(&s, 1, &n[1]), witness(&s, 0xffffffffu, &n[2]),
                   witness(&t, 0, &n[3])};
    for (int x = 0; x < 4; x++)
        for (int y = x + 1; y < 4; y++) {
            if (w[x] == NULL || w[y] == NULL || n[x] != n[y])
                continue;
            size_t same_pub = 0, same_aux = 0;
            for (size_t i = 1; i <= s.n_public; i++)
                same_pub += cz_fr_equal(&w[x][i], &w[y][i]);
            for (size_t i = 1 + s.n_public; i < n[x]; i++)
                same_aux += cz_fr_equal(&w[x][i], &w[y][i]);
            /* packed 59-bit publics agree only by accident; bits agree about
             * half the time, field elements never */
            TF_CHECK_MSG(same_pub == 0, "witnesses %d and %d share %zu public inputs", x, y,
                         same_pub);
            TF_CHECK_MSG(same_aux < n[x] * 3 / 4, "witnesses %d and %d share %zu of %zu aux", x, y,
                         same_aux, n[x]);
        }
    for (int x = 0; x < 4; x++)
        free(w[x]);
}

/* ---------------------------------------------------------- bad input --- */

static void test_invalid(void)
{
    char err[128];
    const cz_synthetic bad[] = {{9, 0, 1}, {25, 0, 1}, {0, 0, 1}, {12, 65, 1}, {12, 1000, 1}};
    const char *field[] = {"log_rows", "log_rows", "log_rows", "n_public", "n_public"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TF_CHECK(cz_synthetic_check(&bad[i], err, sizeof err) == CZ_ERR_INVALID_ARG);
        TF_CHECK_MSG(strstr(err, field[i]) != NULL, "message \"%s\" does not name %s", err,
                     field[i]);
        TF_CHECK(cz_synthetic_num_aux(&bad[i]) == 0 && cz_synthetic_r1cs_bytes(&bad[i]) == 0);
        cz_cs *cs;
        if (cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK) {
            TF_CHECK(cz_synthetic_synthesize(cs, &bad[i], 0) == CZ_ERR_INVALID_ARG);
            TF_CHECK(cz_cs_num_aux(cs) == 0 && cz_cs_num_inputs(cs) == 1);
            cz_cs_free(cs);
        }
    }
    TF_CHECK(cz_synthetic_check(NULL, err, sizeof err) == CZ_ERR_INVALID_ARG && err[0]);
    TF_CHECK(cz_synthetic_check(NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    const cz_synthetic ok[] = {{10, 0, 0}, {24, 64, ~0ull}};
    for (size_t i = 0; i < 2; i++)
        TF_CHECK(cz_synthetic_check(&ok[i], err, sizeof err) == CZ_OK && err[0] == 0);
    TF_CHECK(cz_synthetic_num_aux(&ok[1]) > ((size_t)1 << 23));

    /* a cs that is not fresh is refused and left alone */
    cz_cs *cs;
    TF_CHECK(cz_synthetic_synthesize(NULL, &ok[0], 0) == CZ_ERR_INVALID_ARG);
    if (cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK) {
        TF_CHECK(cz_synthetic_synthesize(cs, NULL, 0) == CZ_ERR_INVALID_ARG);
        cz_cs_alloc_aux(cs, &CZ_FR_ONE);
        TF_CHECK(cz_synthetic_synthesize(cs, &ok[0], 0) == CZ_ERR_INVALID_ARG);
        TF_CHECK(cz_cs_num_aux(cs) == 1 && cz_cs_num_constraints(cs) == 0);
        TF_CHECK(cz_cs_error(cs) == CZ_OK);
        cz_cs_free(cs);
    }
}

TF_MAIN(TF_TEST(test_shape), TF_TEST(test_witness_mode), TF_TEST(test_partitions_differ),
        TF_TEST(test_invalid))
