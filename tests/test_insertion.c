/* storage-proofs-core's insertion gadgets (pick, select, insert): the
 * constraint counts of rust-fil-proofs' own tests (insertion.rs test_select:
 * size - 1; test_insert: 2, 8, 22, then size (size - 1)), satisfiability and
 * the selected / inserted values, for every index at sizes 2..16, on random
 * elements; a wrong output value is rejected. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "tf.h"

/* The recorded R1CS and the assignment w (n values) of cs. */
static cz_r1cs *finish(cz_cs *cs, cz_fr **w, size_t *n)
{
    cz_r1cs *r = NULL;
    *n = cz_cs_num_inputs(cs) + cz_cs_num_aux(cs);
    *w = malloc(*n * sizeof **w);
    cz_cs_write_assignment(cs, *w);
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK);
    return r;
}

static void check(unsigned log_size, size_t index, int do_insert)
{
    size_t size = (size_t)1 << log_size, n_el = do_insert ? size - 1 : size;
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_num el[16], x, out[16], sel;
    for (size_t i = 0; i < n_el; i++) {
        cz_fr v;
        cz_fr_random(&v, &tf_rng);
        el[i] = cz_num_alloc(cs, &v);
    }
    cz_fr xv;
    cz_fr_random(&xv, &tf_rng);
    x = cz_num_alloc(cs, &xv);
    cz_bool bits[4];
    for (unsigned i = 0; i < log_size; i++)
        bits[i] = cz_bool_is(cz_abit_alloc(cs, (index >> i) & 1));
    size_t before = cz_cs_num_constraints(cs);
    TF_CHECK(before == log_size);
    if (do_insert) {
        TF_CHECK(cz_insert(cs, &x, bits, log_size, el, out) == CZ_OK);
    } else {
        TF_CHECK(cz_select(cs, el, bits, log_size, &sel) == CZ_OK);
    }
    size_t got = cz_cs_num_constraints(cs) - before;
    size_t want = !do_insert ? size - 1 : size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
    TF_CHECK_MSG(got == want, "%s size %zu index %zu: %zu constraints, rust-fil-proofs %zu",
                 do_insert ? "insert" : "select", size, index, got, want);
    /* values */
    if (do_insert) {
        for (size_t pos = 0; pos < size; pos++) {
            const cz_fr *w = pos < index ? &el[pos].value : pos == index ? &xv : &el[pos - 1].value;
            TF_CHECK_MSG(cz_fr_equal(&out[pos].value, w), "insert size %zu index %zu pos %zu", size,
                         index, pos);
        }
    } else {
        TF_CHECK(cz_fr_equal(&sel.value, &el[index].value));
    }
    cz_var last = do_insert ? out[size - 1].var : sel.var;
    size_t n_in = cz_cs_num_inputs(cs), n;
    cz_fr *w;
    cz_r1cs *r = finish(cs, &w, &n);
    size_t row;
    TF_CHECK(cz_r1cs_check(r, w, n, NULL, &row, NULL, 0) == CZ_OK);
    /* a wrong result is caught */
    size_t at = n_in + cz_var_index(last); /* w = [inputs | aux]; last is an aux */
    TF_CHECK(cz_var_is_aux(last));
    cz_fr_add(&w[at], &w[at], &CZ_FR_ONE);
    TF_CHECK(cz_r1cs_check(r, w, n, NULL, &row, NULL, 0) == CZ_ERR_UNSATISFIED);
    free(w);
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

static void test_select(void)
{
    for (unsigned lg = 1; lg <= 4; lg++)
        for (size_t i = 0; i < ((size_t)1 << lg); i++)
            check(lg, i, 0);
}

static void test_insert(void)
{
    for (unsigned lg = 1; lg <= 4; lg++)
        for (size_t i = 0; i < ((size_t)1 << lg); i++)
            check(lg, i, 1);
}

/* insert_8 needs allocated, unnegated bits 0 and 1 (rust-fil-proofs
 * panics); bad sizes are refused. */
static void test_refusals(void)
{
    cz_cs *cs;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_num el[7], out[8];
    for (int i = 0; i < 7; i++)
        el[i] = cz_num_alloc(cs, &CZ_FR_ONE);
    cz_bool bits[3] = {cz_bool_const(true), cz_bool_is(cz_abit_alloc(cs, 0)),
                       cz_bool_is(cz_abit_alloc(cs, 1))};
    TF_CHECK(cz_insert(cs, &el[0], bits, 3, el, out) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_insert(cs, &el[0], bits, 0, el, out) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_select(cs, el, bits, 0, out) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
}

TF_MAIN(TF_TEST(test_select), TF_TEST(test_insert), TF_TEST(test_refusals))
