/* Helpers shared by the gadget tests: a finished constraint system with its
 * assignment, satisfiability checks, the column of a variable and checks of
 * a row's exact entries. */
#ifndef CZ_TESTS_GADGET_SYS_H
#define CZ_TESTS_GADGET_SYS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "tf.h"

/* A finished system with its assignment w (inputs then aux). */
typedef struct {
    cz_cs *cs;
    cz_r1cs *r;
    cz_fr *w;
    size_t n, n_in;
} sys;

static inline bool sys_finish(sys *s, cz_cs *cs)
{
    memset(s, 0, sizeof *s);
    s->cs = cs;
    int rc = cz_cs_finish(cs, &s->r);
    TF_CHECK_MSG(rc == CZ_OK, "cz_cs_finish: %d", rc);
    if (rc != CZ_OK)
        return false;
    s->n_in = cz_cs_num_inputs(cs);
    s->n = s->n_in + cz_cs_num_aux(cs);
    s->w = malloc(s->n * sizeof *s->w + 1);
    cz_cs_write_assignment(cs, s->w);
    return true;
}

/* CZ_OK or CZ_ERR_UNSATISFIED, with the first failing row in *row. */
static inline int sys_check_row(const sys *s, size_t *row)
{
    return cz_r1cs_check(s->r, s->w, s->n, NULL, row, NULL, 0);
}

static inline int sys_check(const sys *s) { return sys_check_row(s, NULL); }

/* Column of v in w. */
static inline size_t col(const sys *s, cz_var v)
{
    return cz_var_is_aux(v) ? s->n_in + cz_var_index(v) : cz_var_index(v);
}

static inline void sys_free(sys *s)
{
    free(s->w);
    cz_r1cs_free(s->r);
    cz_cs_free(s->cs);
}

/* Expected entries of one row as small integer coefficients. */
typedef struct {
    size_t col;
    int64_t coeff;
} entry;

static inline void small_fr(cz_fr *r, int64_t v)
{
    cz_fr_from_u64(r, (uint64_t)(v < 0 ? -v : v));
    if (v < 0)
        cz_fr_neg(r, r);
}

/* The coefficient of entry k of matrix a, which lies in row `row`. */
static inline void entry_coeff(const cz_csr *a, size_t row, uint64_t k, cz_fr *out)
{
    uint64_t g = a->coef_blk[row / CZ_CSR_BLOCK];
    for (uint64_t q = cz_csr_row_begin(a, row / CZ_CSR_BLOCK * CZ_CSR_BLOCK); q < k; q++)
        g += CZ_CSR_KIND(a->col[q]) == CZ_CSR_GEN;
    switch (CZ_CSR_KIND(a->col[k])) {
    case CZ_CSR_ONE:
        *out = CZ_FR_ONE;
        break;
    case CZ_CSR_NEG:
        cz_fr_neg(out, &CZ_FR_ONE);
        break;
    default:
        *out = *cz_csr_gen_coef(a, g);
        break;
    }
}

/* Checks that row `row` of matrix m holds exactly the n entries want
 * (every other column 0). */
static inline void check_row(const cz_r1cs *r, int m, size_t row, const entry *want, size_t n)
{
    const cz_csr *a = cz_r1cs_matrix(r, m);
    TF_CHECK_MSG(cz_csr_row_end(a, row) - cz_csr_row_begin(a, row) == n,
                 "row %zu matrix %d: %llu entries", row, m,
                 (unsigned long long)(cz_csr_row_end(a, row) - cz_csr_row_begin(a, row)));
    for (uint64_t k = cz_csr_row_begin(a, row); k < cz_csr_row_end(a, row); k++) {
        uint32_t c = a->col[k] & CZ_CSR_COL_MASK;
        cz_fr got, exp = CZ_FR_ZERO;
        entry_coeff(a, row, k, &got);
        for (size_t j = 0; j < n; j++)
            if (want[j].col == c)
                small_fr(&exp, want[j].coeff);
        TF_CHECK_MSG(cz_fr_equal(&got, &exp), "row %zu matrix %d column %u", row, m, c);
    }
}

/* All three matrices of one row. */
static inline void check_abc(const cz_r1cs *r, size_t row, const entry *a, size_t na,
                             const entry *b, size_t nb, const entry *c, size_t nc)
{
    check_row(r, CZ_MAT_A, row, a, na);
    check_row(r, CZ_MAT_B, row, b, nb);
    check_row(r, CZ_MAT_C, row, c, nc);
}

#endif /* CZ_TESTS_GADGET_SYS_H */
