/* Conversions between snarkjs .zkey contents and cuzk's parameters.
 *
 * A .zkey's signals are [1, public..., private...], exactly cuzk's column
 * space [inputs | aux] with n_in = nPublic + 1.  Its coefficient section
 * lists the A and B entries of the circuit's constraints, then one A entry
 * per input s at row nConstraints + s (value 1): the same rows as the
 * input constraints cz_cs_finish appends, so recording the circuit rows with
 * the cs API reproduces the key's matrices.  The queries A, B1, B2 hold a
 * point for every signal (infinity where a column is empty); cuzk keeps the
 * ones the densities select, as bellperson does. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "groth16/g16_internal.h"

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

static bool bit(const uint64_t *d, size_t i) { return (d[i / 64] >> (i % 64)) & 1; }

static cz_var var_of(uint32_t signal, uint32_t n_in)
{
    return signal < n_in ? (cz_var)signal : ((cz_var)(signal - n_in) | CZ_VAR_AUX);
}

/* Records the circuit rows of z into a new R1CS. */
static int record(cz_r1cs **out, const cz_zkey *z, uint32_t n_circ, char *err, size_t errlen)
{
    uint32_t n_in = z->n_public + 1, n_aux = z->n_vars - n_in;
    /* Coefficients bucketed by row (counting sort, file order kept). */
    uint32_t *start = calloc((size_t)n_circ + 2, sizeof *start);
    uint32_t *idx = malloc(((size_t)z->n_coefs + 1) * sizeof *idx);
    cz_cs *cs = NULL;
    cz_lc la, lb;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    int rc = CZ_ERR_NOMEM;
    if (start == NULL || idx == NULL)
        goto done;
    for (uint32_t i = 0; i < z->n_coefs; i++)
        if (z->coefs[i].constraint < n_circ)
            start[z->coefs[i].constraint + 2]++;
    for (uint32_t j = 0; j < n_circ; j++)
        start[j + 2] += start[j + 1];
    for (uint32_t i = 0; i < z->n_coefs; i++)
        if (z->coefs[i].constraint < n_circ)
            idx[start[z->coefs[i].constraint + 1]++] = i;
    if ((rc = cz_cs_new(&cs, CZ_CS_RECORD, 0)) != CZ_OK)
        goto done;
    for (uint32_t i = 1; i < n_in; i++)
        cz_cs_alloc_input(cs, NULL);
    for (uint32_t i = 0; i < n_aux; i++)
        cz_cs_alloc_aux(cs, NULL);
    for (uint32_t j = 0; j < n_circ; j++) {
        cz_lc_clear(&la);
        cz_lc_clear(&lb);
        for (uint32_t k = start[j]; k < start[j + 1]; k++) {
            const cz_zkey_coef *e = &z->coefs[idx[k]];
            cz_lc_add_term(e->matrix == 0 ? &la : &lb, var_of(e->signal, n_in), &e->value);
        }
        cz_cs_enforce(cs, &la, &lb, NULL);
    }
    rc = cz_cs_finish(cs, out);
    if (rc != CZ_OK)
        fail(err, errlen, rc, "zkey: recording the constraints failed: %s", cz_strerror(rc));
done:
    if (rc == CZ_ERR_NOMEM)
        fail(err, errlen, rc, "zkey: out of memory recording %u coefficients", z->n_coefs);
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_cs_free(cs);
    free(start);
    free(idx);
    return rc;
}

int cz_groth16_params_from_zkey(cz_groth16_params *params, cz_r1cs **r1cs, const cz_zkey *z,
                                char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (params == NULL || r1cs == NULL || z == NULL)
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey: NULL argument");
    memset(params, 0, sizeof *params);
    *r1cs = NULL;
    if (z->n_vars == 0 || z->n_public >= z->n_vars || (z->n_coefs > 0 && z->coefs == NULL))
        return fail(err, errlen, CZ_ERR_INVALID_ARG, "zkey: empty or inconsistent key");
    uint32_t n_in = z->n_public + 1, n_aux = z->n_vars - n_in;

    /* Rows used, and snarkjs's input rows at the end of them. */
    uint64_t rows = 0;
    for (uint32_t i = 0; i < z->n_coefs; i++)
        if ((uint64_t)z->coefs[i].constraint + 1 > rows)
            rows = (uint64_t)z->coefs[i].constraint + 1;
    if (rows < n_in)
        return fail(err, errlen, CZ_ERR_BAD_FORMAT,
                    "zkey: coefficients: %llu rows cannot end in the %u input rows snarkjs adds",
                    (unsigned long long)rows, n_in);
    uint32_t n_circ = (uint32_t)(rows - n_in);
    uint8_t *seen = calloc(n_in, 1);
    if (seen == NULL)
        return fail(err, errlen, CZ_ERR_NOMEM, "zkey: out of memory");
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const cz_zkey_coef *e = &z->coefs[i];
        if (e->constraint < n_circ)
            continue;
        uint32_t s = e->constraint - n_circ;
        if (e->matrix != 0 || e->signal != s || !cz_fr_equal(&e->value, &CZ_FR_ONE) || seen[s]) {
            free(seen);
            return fail(err, errlen, CZ_ERR_BAD_FORMAT,
                        "zkey: coefficient %u (matrix %u, constraint %u, signal %u) is not the "
                        "input row of signal %u that snarkjs adds",
                        i, e->matrix, e->constraint, e->signal, s);
        }
        seen[s] = 1;
    }
    for (uint32_t s = 0; s < n_in; s++) {
        if (!seen[s]) {
            free(seen);
            return fail(err, errlen, CZ_ERR_BAD_FORMAT,
                        "zkey: coefficients: the input row of signal %u is missing", s);
        }
    }
    free(seen);
    unsigned logm = cz_groth16_log_domain(rows);
    if (logm != z->log_domain_size || ((size_t)1 << logm) != z->domain_size)
        return fail(err, errlen, CZ_ERR_BAD_FORMAT,
                    "zkey: domain size %u does not match %llu constraint rows (expected 2^%u)",
                    z->domain_size, (unsigned long long)rows, logm);

    int rc = record(r1cs, z, n_circ, err, errlen);
    if (rc != CZ_OK)
        return rc;
    size_t ca, cbi, cba;
    const uint64_t *da = cz_r1cs_density(*r1cs, CZ_DENSITY_A_AUX, &ca);
    const uint64_t *dbi = cz_r1cs_density(*r1cs, CZ_DENSITY_B_INPUT, &cbi);
    const uint64_t *dba = cz_r1cs_density(*r1cs, CZ_DENSITY_B_AUX, &cba);
    rc = cz_groth16_params_alloc(params, n_in, z->domain_size, n_aux, n_in + ca, cbi + cba, NULL);
    if (rc != CZ_OK) {
        cz_r1cs_free(*r1cs);
        *r1cs = NULL;
        return fail(err, errlen, rc, "zkey: out of memory for the parameters");
    }
    params->flavor = CZ_GROTH16_SNARKJS;
    cz_groth16_vk *vk = &params->vk;
    vk->alpha_g1 = z->alpha1, vk->beta_g1 = z->beta1, vk->delta_g1 = z->delta1;
    vk->beta_g2 = z->beta2, vk->gamma_g2 = z->gamma2, vk->delta_g2 = z->delta2;
    memcpy(vk->ic, z->ic, n_in * sizeof(cz_g1_affine));
    memcpy(params->l, z->c, n_aux * sizeof(cz_g1_affine));
    memcpy(params->h, z->h, z->domain_size * sizeof(cz_g1_affine));
    size_t ka = 0, kb = 0;
    for (uint32_t i = 0; i < z->n_vars; i++) {
        if (i < n_in || bit(da, i - n_in))
            params->a[ka++] = z->a[i];
        if (i < n_in ? bit(dbi, i) : bit(dba, i - n_in)) {
            params->b_g1[kb] = z->b1[i];
            params->b_g2[kb++] = z->b2[i];
        }
    }
    return CZ_OK;
}

/* Appends the entries of matrix mat's row j to z->coefs. */
static void emit_row(cz_zkey *z, const cz_csr *m, uint32_t mat, uint32_t j, uint64_t *g)
{
    for (uint64_t k = cz_csr_row_begin(m, j), end = cz_csr_row_end(m, j); k < end; k++) {
        uint32_t e = m->col[k];
        cz_zkey_coef *c = &z->coefs[z->n_coefs++];
        c->matrix = mat;
        c->constraint = j;
        c->signal = e & CZ_CSR_COL_MASK;
        switch (CZ_CSR_KIND(e)) {
        case CZ_CSR_ONE:
            c->value = CZ_FR_ONE;
            break;
        case CZ_CSR_NEG:
            cz_fr_neg(&c->value, &CZ_FR_ONE);
            break;
        default:
            c->value = *cz_csr_gen_coef(m, (*g)++);
            break;
        }
    }
}

int cz_groth16_params_to_zkey(cz_zkey *z, const cz_groth16_params *p, const cz_r1cs *r)
{
    if (z == NULL)
        return CZ_ERR_INVALID_ARG;
    memset(z, 0, sizeof *z);
    if (p == NULL || r == NULL || p->flavor != CZ_GROTH16_SNARKJS)
        return CZ_ERR_INVALID_ARG;
    size_t n_in = cz_r1cs_num_inputs(r), n_aux = cz_r1cs_num_aux(r),
           rows = cz_r1cs_num_constraints(r);
    unsigned logm = cz_groth16_log_domain(rows);
    size_t m = (size_t)1 << logm, ca, cbi, cba;
    const uint64_t *da = cz_r1cs_density(r, CZ_DENSITY_A_AUX, &ca);
    const uint64_t *dbi = cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &cbi);
    const uint64_t *dba = cz_r1cs_density(r, CZ_DENSITY_B_AUX, &cba);
    const cz_csr *A = cz_r1cs_matrix(r, CZ_MAT_A), *B = cz_r1cs_matrix(r, CZ_MAT_B);
    if (n_in + n_aux > UINT32_MAX || m > UINT32_MAX || A->nnz + B->nnz > UINT32_MAX ||
        p->vk.n_ic != n_in || p->n_l != n_aux || p->n_h != m || p->n_a != n_in + ca ||
        p->n_b_g1 != cbi + cba || p->n_b_g2 != cbi + cba)
        return CZ_ERR_INVALID_ARG;
    size_t nv = n_in + n_aux;
    z->n_vars = (uint32_t)nv;
    z->n_public = (uint32_t)(n_in - 1);
    z->domain_size = (uint32_t)m;
    z->log_domain_size = logm;
    z->alpha1 = p->vk.alpha_g1, z->beta1 = p->vk.beta_g1, z->delta1 = p->vk.delta_g1;
    z->beta2 = p->vk.beta_g2, z->gamma2 = p->vk.gamma_g2, z->delta2 = p->vk.delta_g2;
    z->ic = malloc(n_in * sizeof *z->ic);
    z->coefs = malloc((A->nnz + B->nnz + 1) * sizeof *z->coefs);
    z->a = calloc(nv, sizeof *z->a);
    z->b1 = calloc(nv, sizeof *z->b1);
    z->b2 = calloc(nv, sizeof *z->b2);
    z->c = malloc((n_aux + 1) * sizeof *z->c);
    z->h = malloc(m * sizeof *z->h);
    if (!z->ic || !z->coefs || !z->a || !z->b1 || !z->b2 || !z->c || !z->h) {
        cz_zkey_free(z);
        return CZ_ERR_NOMEM;
    }
    memcpy(z->ic, p->vk.ic, n_in * sizeof *z->ic);
    memcpy(z->c, p->l, n_aux * sizeof *z->c);
    memcpy(z->h, p->h, m * sizeof *z->h);
    size_t ka = 0, kb = 0;
    for (size_t i = 0; i < nv; i++) {
        if (i < n_in || bit(da, i - n_in))
            z->a[i] = p->a[ka++];
        if (i < n_in ? bit(dbi, i) : bit(dba, i - n_in)) {
            z->b1[i] = p->b_g1[kb];
            z->b2[i] = p->b_g2[kb++];
        }
    }
    /* Per row: A's entries then B's, as snarkjs orders them; the input rows
     * come last because they are the last rows. */
    uint64_t ga = 0, gb = 0;
    for (size_t j = 0; j < rows; j++) {
        emit_row(z, A, 0, (uint32_t)j, &ga);
        emit_row(z, B, 1, (uint32_t)j, &gb);
    }
    return CZ_OK;
}
