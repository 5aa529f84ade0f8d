/* circom .r1cs reader (format in include/cuzk/circom.h). */
#include <stdlib.h>
#include <string.h>

#include "binfile.h"
#include "cuzk/circom.h"
#include "cuzk/err.h"

enum {
    R1CS_HEADER = 1,
    R1CS_CONSTRAINTS = 2,
    R1CS_WIRE2LABEL = 3,
    R1CS_CUSTOM_GATES_LIST = 4,
    R1CS_CUSTOM_GATES_USES = 5
};

/* Bytes of one term (u32 wire, 32-byte coefficient) and the least bytes of a
 * constraint (three empty linear combinations). */
#define TERM_BYTES     (4u + CZ_FR_BYTES)
#define CONSTRAINT_MIN 12u

static int read_header(cz_circom_r1cs *r, cz_binfile_cursor *c, char *err, size_t errlen)
{
    uint64_t counted;
    uint32_t *const counts[] = {&r->n_wires, &r->n_pub_out, &r->n_pub_in, &r->n_prv_in};
    static const char *const names[] = {"nWires", "nPubOut", "nPubIn", "nPrvIn"};
    int rc = cz_binfile_field(c, err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_u32s(c, counts, names, 4, err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_u64(c, &r->n_labels, "nLabels", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_u32(c, &r->n_constraints, "mConstraints", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_end(c, err, errlen);
    if (rc != CZ_OK)
        return rc;
    counted = 1 + (uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in;
    if (counted > r->n_wires)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "r1cs: offset %llu: header: 1 + nPubOut + nPubIn + nPrvIn = %llu "
                       "exceeds nWires = %u",
                       (unsigned long long)c->off, (unsigned long long)counted, r->n_wires);
    return CZ_OK;
}

/* Pass 1 over the constraints: checks the structure and every wire id, and
 * counts the terms of each matrix.  Every count is bounded by the bytes left
 * before it is used, so nothing here can overflow. */
static int scan_constraints(const cz_circom_r1cs *r, cz_binfile_cursor *c, uint64_t nnz[3],
                            char *err, size_t errlen)
{
    static const char *const lc_name[3] = {"A", "B", "C"};
    nnz[0] = nnz[1] = nnz[2] = 0;
    if (r->n_constraints > c->size / CONSTRAINT_MIN)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "r1cs: offset %llu: mConstraints = %u cannot fit in the %llu-byte "
                       "constraints section",
                       (unsigned long long)c->off, r->n_constraints, (unsigned long long)c->size);
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            uint32_t k;
            uint64_t at = c->off + c->pos;
            int rc = cz_binfile_u32(c, &k, "a term count", err, errlen);
            if (rc != CZ_OK)
                return rc;
            if (k > (c->size - c->pos) / TERM_BYTES)
                return cz_fail(err, errlen, CZ_ERR_TRUNCATED,
                               "r1cs: offset %llu: constraint %u: %s has %u terms, more "
                               "than the constraints section holds",
                               (unsigned long long)at, i, lc_name[m], k);
            for (uint32_t t = 0; t < k; t++) {
                uint32_t wire = 0;
                const uint8_t *coef;
                at = c->off + c->pos;
                cz_binfile_u32(c, &wire, "a wire id", err, errlen); /* fits: checked above */
                cz_binfile_bytes(c, &coef, CZ_FR_BYTES, "a coefficient", err, errlen);
                if (wire >= r->n_wires)
                    return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                                   "r1cs: offset %llu: constraint %u: %s term %u: wire "
                                   "%u >= nWires = %u",
                                   (unsigned long long)at, i, lc_name[m], t, wire, r->n_wires);
            }
            nnz[m] += k;
        }
    }
    return cz_binfile_end(c, err, errlen);
}

static int alloc_csr(cz_circom_csr *m, uint32_t rows, uint64_t nnz)
{
    m->nnz = nnz;
    m->row = calloc((size_t)rows + 1, sizeof *m->row);
    /* +1: calloc(0) may return NULL */
    m->col = malloc((size_t)nnz * sizeof *m->col + 1);
    m->val = malloc((size_t)nnz * sizeof *m->val + 1);
    return m->row != NULL && m->col != NULL && m->val != NULL ? CZ_OK : CZ_ERR_NOMEM;
}

/* Pass 2: fills the matrices, converting the coefficients (canonical LE) to
 * Montgomery form. */
static int fill_constraints(cz_circom_r1cs *r, cz_binfile_cursor *c, char *err, size_t errlen)
{
    cz_circom_csr *mat[3] = {&r->a, &r->b, &r->c};
    uint64_t at[3] = {0, 0, 0};
    c->pos = 0;
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            uint32_t k = 0;
            cz_binfile_u32(c, &k, "a term count", err, errlen); /* scanned */
            for (uint32_t t = 0; t < k; t++, at[m]++) {
                cz_binfile_u32(c, &mat[m]->col[at[m]], "a wire id", err, errlen);
                int rc = cz_binfile_fr(c, &mat[m]->val[at[m]], "a coefficient", err, errlen);
                if (rc != CZ_OK)
                    return rc;
            }
            mat[m]->row[i + 1] = at[m];
        }
    }
    return CZ_OK;
}

static int read_wire2label(cz_circom_r1cs *r, cz_binfile_cursor *c, char *err, size_t errlen)
{
    if (c->size != (uint64_t)r->n_wires * 8)
        return cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                       "r1cs: offset %llu: wire-to-label section has %llu bytes, nWires "
                       "= %u needs %llu",
                       (unsigned long long)c->off, (unsigned long long)c->size, r->n_wires,
                       (unsigned long long)r->n_wires * 8);
    r->wire_to_label = malloc((size_t)r->n_wires * sizeof *r->wire_to_label + 1);
    if (r->wire_to_label == NULL)
        return cz_fail(err, errlen, CZ_ERR_NOMEM, "r1cs: out of memory");
    for (uint32_t i = 0; i < r->n_wires; i++)
        cz_binfile_u64(c, &r->wire_to_label[i], "a label id", err, errlen); /* size checked */
    return CZ_OK;
}

static int load(void *out, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    cz_circom_r1cs *r = out;
    cz_binfile bf;
    cz_binfile_cursor hdr, cons, w2l, gates;
    uint64_t nnz[3];
    int rc = cz_binfile_open(&bf, data, len, "r1cs", 1, 1, err, errlen);
    if (rc != CZ_OK)
        return rc;
    for (uint32_t t = R1CS_CUSTOM_GATES_LIST; t <= R1CS_CUSTOM_GATES_USES && rc == CZ_OK; t++) {
        rc = cz_binfile_section_get(&bf, &gates, t, false, "custom gates", err, errlen);
        if (rc == CZ_OK && gates.p != NULL)
            rc = cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                         "r1cs: offset %llu: custom gates (section type %u) are not "
                         "supported by Groth16",
                         (unsigned long long)gates.off, t);
    }
    if (rc == CZ_OK)
        rc = cz_binfile_section_get(&bf, &hdr, R1CS_HEADER, true, "header", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_section_get(&bf, &cons, R1CS_CONSTRAINTS, true, "constraints", err, errlen);
    if (rc == CZ_OK)
        rc =
            cz_binfile_section_get(&bf, &w2l, R1CS_WIRE2LABEL, false, "wire-to-label", err, errlen);
    if (rc == CZ_OK)
        rc = read_header(r, &hdr, err, errlen);
    if (rc == CZ_OK)
        rc = scan_constraints(r, &cons, nnz, err, errlen);
    if (rc == CZ_OK && (alloc_csr(&r->a, r->n_constraints, nnz[0]) != CZ_OK ||
                        alloc_csr(&r->b, r->n_constraints, nnz[1]) != CZ_OK ||
                        alloc_csr(&r->c, r->n_constraints, nnz[2]) != CZ_OK))
        rc = cz_fail(err, errlen, CZ_ERR_NOMEM, "r1cs: out of memory for %llu terms",
                     (unsigned long long)(nnz[0] + nnz[1] + nnz[2]));
    if (rc == CZ_OK)
        rc = fill_constraints(r, &cons, err, errlen);
    if (rc == CZ_OK && w2l.p != NULL)
        rc = read_wire2label(r, &w2l, err, errlen);
    cz_binfile_close(&bf);
    return rc;
}

/* cz_circom_r1cs_load_mem and cz_circom_r1cs_load (cuzk/circom.h). */
CZ_BINFILE_LOADERS(cz_circom_r1cs, "r1cs", load)

static void free_csr(cz_circom_csr *m)
{
    free(m->row);
    free(m->col);
    free(m->val);
}

void cz_circom_r1cs_free(cz_circom_r1cs *r)
{
    if (r == NULL)
        return;
    free_csr(&r->a);
    free_csr(&r->b);
    free_csr(&r->c);
    free(r->wire_to_label);
    memset(r, 0, sizeof *r);
}

/* <m_i, w> */
static void row_dot(cz_fr *acc, const cz_circom_csr *m, uint32_t i, const cz_fr *w)
{
    cz_fr t;
    *acc = CZ_FR_ZERO;
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        cz_fr_mul(&t, &m->val[k], &w[m->col[k]]);
        cz_fr_add(acc, acc, &t);
    }
}

int cz_circom_r1cs_check_var(const cz_circom_r1cs *r, const cz_circom_wtns *w, uint64_t *bad,
                             char *err, size_t errlen)
{
    if (bad != NULL)
        *bad = UINT64_MAX;
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (r == NULL || w == NULL)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "r1cs check: NULL argument");
    if (w->n != r->n_wires || w->n == 0)
        return cz_fail(err, errlen, CZ_ERR_BAD_LENGTH,
                       "r1cs check: witness has %u values, the circuit %u wires", w->n, r->n_wires);
    if (!cz_fr_is_one(&w->w[0]))
        return cz_fail(err, errlen, CZ_ERR_UNSATISFIED, "r1cs check: witness value 0 is not 1");
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        cz_fr a, b, c;
        row_dot(&a, &r->a, i, w->w);
        row_dot(&b, &r->b, i, w->w);
        row_dot(&c, &r->c, i, w->w);
        cz_fr_mul(&a, &a, &b);
        if (!cz_fr_equal(&a, &c)) {
            if (bad != NULL)
                *bad = i;
            return cz_fail(err, errlen, CZ_ERR_UNSATISFIED,
                           "r1cs check: constraint %u is not satisfied", i);
        }
    }
    return CZ_OK;
}
