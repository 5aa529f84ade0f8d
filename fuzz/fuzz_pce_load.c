/* libFuzzer harness for the pre-compiled R1CS loader (cz_pce_load_mem,
 * include/cuzk/cs.h).
 *
 * Each input is loaded twice from an 8-byte aligned copy: with the checksum
 * and with CZ_PCE_NO_CHECKSUM (random bytes almost never carry a matching
 * checksum, so the second load is what reaches the structural checks).
 * Invariants, abort() when one fails:
 *   - a rejection returns a known error code, a message, and no object;
 *   - whatever the checksummed load accepts, the unchecked one accepts;
 *   - an accepted file satisfies the cz_csr contract (rows span 0..nnz
 *     and never go back, each block starting at its first row, columns in
 *     range and strictly increasing per row, general entries match the
 *     coefficient blocks, dictionary indices below ndict in order of first
 *     use, dictionary entries not 0, 1, -1 and distinct: checked pairwise
 *     up to 256 entries), its densities count their bits, and the products
 *     A w, B w, C w and the check run over it (for files of at most 2^16
 *     columns).
 * Seeds: fuzz/corpus/pce_load, small recorded circuits written by
 * `test_cs --write-seeds fuzz/corpus/pce_load` (tests/test_cs.c). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "fuzz.h"

static void check_csr(const cz_r1cs *r, int k)
{
    const cz_csr *m = cz_r1cs_matrix(r, k);
    size_t rows = cz_r1cs_num_constraints(r);
    uint64_t cols = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r), g = 0, used = 0;
    CHECK(cz_csr_row_begin(m, 0) == 0 && cz_csr_row_begin(m, rows) == m->nnz);
    CHECK(m->ndict <= m->ngen && m->ngen <= m->nnz);
    for (size_t i = 0; i < rows; i++) {
        if (i % CZ_CSR_BLOCK == 0)
            CHECK(m->coef_blk[i / CZ_CSR_BLOCK] == g && m->row_off[i] == 0);
        uint64_t e0 = cz_csr_row_begin(m, i), e1 = cz_csr_row_end(m, i);
        CHECK(e0 <= e1 && e1 <= m->nnz);
        for (uint64_t e = e0; e < e1; e++) {
            uint32_t c = m->col[e] & CZ_CSR_COL_MASK;
            CHECK(c < cols && CZ_CSR_KIND(m->col[e]) <= CZ_CSR_NEG);
            CHECK(e == e0 || (m->col[e - 1] & CZ_CSR_COL_MASK) < c);
            if (CZ_CSR_KIND(m->col[e]) != CZ_CSR_GEN)
                continue;
            CHECK(g < m->ngen && m->gidx[g] < m->ndict && m->gidx[g] <= used);
            used += m->gidx[g++] == used;
        }
    }
    CHECK(g == m->ngen && used == m->ndict);
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    for (uint64_t d = 0; d < m->ndict; d++) {
        const cz_fr *c = &m->dict[d];
        CHECK(!cz_fr_is_zero(c) && !cz_fr_is_one(c) && !cz_fr_equal(c, &m1));
        for (uint64_t e = 0; e < d && m->ndict <= 256; e++)
            CHECK(!cz_fr_equal(c, &m->dict[e]));
    }
}

static void use(const cz_r1cs *r)
{
    size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r), m = cz_r1cs_num_constraints(r);
    CHECK(m == cz_r1cs_num_circuit_constraints(r) + cz_r1cs_num_inputs(r));
    for (int k = 0; k < 3; k++)
        check_csr(r, k);
    for (int d = 0; d < 3; d++) {
        size_t cnt, bits = d == CZ_DENSITY_B_INPUT ? cz_r1cs_num_inputs(r) : cz_r1cs_num_aux(r);
        const uint64_t *bm = cz_r1cs_density(r, (cz_density)d, &cnt);
        size_t pop = 0;
        for (size_t i = 0; i < (bits + 63) / 64; i++)
            pop += (size_t)__builtin_popcountll(bm[i]);
        CHECK(pop == cnt && cnt <= bits);
    }
    if (n > (1u << 16))
        return;
    cz_fr *w = malloc(n * sizeof *w), *o = malloc((3 * m + 1) * sizeof *o);
    CHECK(w && o);
    for (size_t i = 0; i < n; i++)
        cz_fr_from_u64(&w[i], i + 1);
    CHECK(cz_r1cs_spmv(r, w, n, o, o + m, o + 2 * m, NULL) == CZ_OK);
    char msg[128];
    int err = cz_r1cs_check(r, w, n, NULL, NULL, msg, sizeof msg);
    CHECK(err == CZ_OK || err == CZ_ERR_UNSATISFIED);
    free(w);
    free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t *buf = malloc((size / 8 + 1) * 8);
    CHECK(buf);
    memcpy(buf, data, size);
    int ok[2];
    for (int pass = 0; pass < 2; pass++) {
        cz_r1cs *r = (cz_r1cs *)buf;
        char msg[256];
        int err = cz_pce_load_mem(&r, buf, size, pass ? CZ_PCE_NO_CHECKSUM : 0, msg, sizeof msg);
        ok[pass] = err == CZ_OK;
        if (err != CZ_OK) {
            CHECK(r == NULL && err > 0 && err < CZ_ERR__COUNT && msg[0] != 0);
            continue;
        }
        CHECK(r != NULL);
        use(r);
        cz_r1cs_free(r);
    }
    CHECK(!ok[0] || ok[1]);
    free(buf);
    return 0;
}
