/* circom .r1cs -> cuzk R1CS (see cz_circom_r1cs_compile in circom.h). */
#include <stdio.h>

#include "cuzk/circom.h"
#include "cuzk/err.h"

/* Appends row i of m to lc with wires mapped to cuzk variables. */
static void row_lc(cz_lc *lc, const cz_circom_csr *m, uint32_t i, uint32_t n_in)
{
    cz_lc_clear(lc);
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        uint32_t wire = m->col[k];
        cz_var v = wire < n_in ? (cz_var)wire : ((cz_var)(wire - n_in) | CZ_VAR_AUX);
        cz_lc_add_term(lc, v, &m->val[k]);
    }
}

int cz_circom_r1cs_compile(cz_r1cs **out, const cz_circom_r1cs *r, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (out == NULL || r == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "r1cs compile: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    *out = NULL;
    uint32_t n_in = 1 + r->n_pub_out + r->n_pub_in;
    cz_cs *cs;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    if (rc != CZ_OK) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "r1cs compile: %s", cz_strerror(rc));
        return rc;
    }
    for (uint32_t i = 1; i < n_in; i++)
        cz_cs_alloc_input(cs, NULL);
    for (uint32_t i = n_in; i < r->n_wires; i++)
        cz_cs_alloc_aux(cs, NULL);
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        row_lc(&a, &r->a, i, n_in);
        row_lc(&b, &r->b, i, n_in);
        row_lc(&c, &r->c, i, n_in);
        cz_cs_enforce(cs, &a, &b, &c);
    }
    rc = cz_cs_finish(cs, out);
    if (rc != CZ_OK && err != NULL && errlen > 0)
        snprintf(err, errlen, "r1cs compile: %s", cz_strerror(rc));
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    cz_cs_free(cs);
    return rc;
}
