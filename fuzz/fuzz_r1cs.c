/* libFuzzer harness for the circom .r1cs reader (include/cuzk/circom.h).
 *
 * Every input is parsed as a .r1cs image.  Invariants, abort() when one
 * fails:
 *   - a rejection returns a known file-format code (never INVALID_ARG or IO:
 *     the arguments are valid) with a non-empty message, and leaves the
 *     result zeroed;
 *   - an accepted file has 1 + nPubOut + nPubIn + nPrvIn <= nWires, CSR
 *     matrices whose rows are monotone and end at nnz, and every column below
 *     nWires;
 *   - the witness check on an all-ones witness of nWires values runs to a
 *     verdict (CZ_OK or CZ_ERR_UNSATISFIED) without touching memory it must
 *     not (ASan).
 * Seed corpus: fuzz/corpus/r1cs (the fixtures of tests/data/circom).  Run with
 * scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "cuzk/err.h"
#include "fuzz.h"

static void check_csr(const cz_circom_csr *m, const cz_circom_r1cs *r)
{
    CHECK(m->row[0] == 0 && m->row[r->n_constraints] == m->nnz);
    for (uint32_t i = 0; i < r->n_constraints; i++)
        CHECK(m->row[i] <= m->row[i + 1]);
    for (uint64_t k = 0; k < m->nnz; k++)
        CHECK(m->col[k] < r->n_wires);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cz_circom_r1cs zero;
    cz_circom_r1cs r;
    char err[256] = "";
    int rc = cz_circom_r1cs_load_mem(&r, data, size, err, sizeof err);
    if (rc != CZ_OK) {
        CHECK(fuzz_circom_rejection(rc, err) && memcmp(&r, &zero, sizeof r) == 0);
        return 0;
    }
    CHECK(1 + (uint64_t)r.n_pub_out + r.n_pub_in + r.n_prv_in <= r.n_wires);
    check_csr(&r.a, &r);
    check_csr(&r.b, &r);
    check_csr(&r.c, &r);
    if (r.n_wires <= (1u << 16)) {
        cz_circom_wtns w = {r.n_wires, malloc(r.n_wires * sizeof(cz_fr))};
        uint64_t bad;
        CHECK(w.w != NULL);
        for (uint32_t i = 0; i < w.n; i++)
            w.w[i] = CZ_FR_ONE;
        rc = cz_circom_r1cs_check_var(&r, &w, &bad, err, sizeof err);
        CHECK(rc == CZ_OK ? bad == UINT64_MAX : rc == CZ_ERR_UNSATISFIED && bad < r.n_constraints);
        free(w.w);
    }
    cz_circom_r1cs_free(&r);
    CHECK(memcmp(&r, &zero, sizeof r) == 0);
    return 0;
}
