/* Tests for the num, constraint, encode, UInt64 and SnapDeals gadgets of
 * include/cuzk/gadgets.h against bellpepper-core (boolean.rs, num.rs),
 * storage-proofs-core (gadgets/constraint.rs, encode.rs, uint64.rs,
 * util.rs) and storage-proofs-update (gadgets.rs): constraint and aux
 * counts, the exact rows of the small gadgets, satisfiability on random
 * inputs, circuit values equal to the native ones, rejection of tampered
 * witnesses, and witness-only synthesis giving the recording run's
 * assignment. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "gadget_sys.h"
#include "tf.h"

/* ------------------------------------------------------------- helpers --- */

static uint64_t rnd(uint64_t n) { return cz_prng_next(&tf_rng) % n; }

static cz_cs *rec_new(void)
{
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    return cs;
}

/* Adds one to the value of v, checks the system is then unsatisfied, and
 * restores it. */
static void check_bump_breaks(sys *s, cz_var v)
{
    cz_fr old = s->w[col(s, v)];
    cz_fr_add(&s->w[col(s, v)], &old, &CZ_FR_ONE);
    TF_CHECK(sys_check(s) == CZ_ERR_UNSATISFIED);
    s->w[col(s, v)] = old;
}

static bool fr_bit(const cz_fr *x, unsigned i)
{
    uint64_t l[4];
    cz_fr_to_canonical(l, x);
    return (l[i / 64] >> (i % 64)) & 1;
}

/* -------------------------------------------------- alloc_conditionally --- */

/* bellpepper-core boolean.rs test_alloc_conditionally: the value may be 1
 * only while must_be_false is 0; the row is (1 - m - a) * a = 0; a value
 * other than 0 or 1 is rejected. */
static void test_alloc_conditionally(void)
{
    for (int mv = 0; mv < 2; mv++)
        for (int av = 0; av < 2; av++) {
            cz_cs *cs = rec_new();
            cz_abit m = cz_abit_alloc(cs, mv);
            cz_abit a = cz_abit_alloc_conditionally(cs, av, m);
            TF_CHECK(a.value == (bool)av);
            TF_CHECK(cz_cs_num_aux(cs) == 2 && cz_cs_num_constraints(cs) == 2);
            sys s;
            if (sys_finish(&s, cs)) {
                TF_CHECK_MSG(sys_check(&s) == (mv && av ? CZ_ERR_UNSATISFIED : CZ_OK), "m %d a %d",
                             mv, av);
                size_t M = col(&s, m.var), A = col(&s, a.var);
                check_abc(s.r, 1, (entry[]){{0, 1}, {M, -1}, {A, -1}}, 3, (entry[]){{A, 1}}, 1,
                          NULL, 0);
                if (!mv) {
                    cz_fr_dbl(&s.w[A], &CZ_FR_ONE);
                    TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
                }
            }
            sys_free(&s);
        }
}

/* --------------------------------------------------- to_bits_le_strict --- */

/* The cost of to_bits_le_strict derived from the bits of r - 1 alone: one
 * alloc per bit, the ands of each run of ones that a zero follows (k - 1
 * for the first run of length k, k for a later one, which the previous
 * result joins), and the unpacking constraint. */
static size_t strict_cost(size_t *ands)
{
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    size_t run = 0;
    bool first = true;
    *ands = 0;
    for (unsigned i = CZ_FR_NUM_BITS; i-- > 0;) {
        if (fr_bit(&m1, i)) {
            run++;
        } else if (run > 0) {
            *ands += first ? run - 1 : run;
            first = false;
            run = 0;
        }
    }
    return CZ_FR_NUM_BITS + *ands + 1;
}

/* Recomputes every and row (a * b = r, single unit entries, r an aux
 * allocated by the gadget after `first`) in row order from the current
 * bits. */
static void rederive_ands(sys *s, size_t first_row, size_t last_row)
{
    const cz_csr *A = cz_r1cs_matrix(s->r, CZ_MAT_A), *B = cz_r1cs_matrix(s->r, CZ_MAT_B),
                 *C = cz_r1cs_matrix(s->r, CZ_MAT_C);
    for (size_t row = first_row; row < last_row; row++) {
        if (cz_csr_row_end(A, row) - cz_csr_row_begin(A, row) != 1 ||
            cz_csr_row_end(B, row) - cz_csr_row_begin(B, row) != 1 ||
            cz_csr_row_end(C, row) - cz_csr_row_begin(C, row) != 1)
            continue;
        uint64_t ka = cz_csr_row_begin(A, row), kb = cz_csr_row_begin(B, row),
                 kc = cz_csr_row_begin(C, row);
        if (CZ_CSR_KIND(A->col[ka]) != CZ_CSR_ONE || CZ_CSR_KIND(B->col[kb]) != CZ_CSR_ONE ||
            CZ_CSR_KIND(C->col[kc]) != CZ_CSR_ONE)
            continue;
        cz_fr_mul(&s->w[C->col[kc] & CZ_CSR_COL_MASK], &s->w[A->col[ka] & CZ_CSR_COL_MASK],
                  &s->w[B->col[kb] & CZ_CSR_COL_MASK]);
    }
}

/* bellpepper-core num.rs test_into_bits (strict half) and
 * test_into_bits_strict: the bits of random values, least significant
 * first; satisfied; a wrong number or any flipped bit is rejected; for
 * -1, setting the least significant bit (the representation r) breaks that
 * bit's conditional constraint first.  Counts: 255 allocs + 132 ands + 1
 * (388 constraints, 387 aux), as derived from r - 1 by strict_cost.  The
 * non-canonical representation v + r of a small v satisfies the
 * non-strict to_bits_le but not the strict one. */
static void test_to_bits_strict(void)
{
    size_t ands, cost = strict_cost(&ands);
    TF_CHECK_MSG(cost == 388 && ands == 132, "cost %zu ands %zu", cost, ands);
    for (int it = 0; it < 6; it++) {
        cz_fr v;
        if (it == 0)
            cz_fr_neg(&v, &CZ_FR_ONE);
        else if (it == 1)
            v = CZ_FR_ZERO;
        else
            cz_fr_random(&v, &tf_rng);
        cz_cs *cs = rec_new();
        cz_num n = cz_num_alloc(cs, &v);
        cz_bool bits[CZ_FR_NUM_BITS];
        cz_num_to_bits_le_strict(cs, &n, bits);
        TF_CHECK_MSG(
            cz_cs_num_constraints(cs) == cost && cz_cs_num_aux(cs) == 1 + CZ_FR_NUM_BITS + ands,
            "strict: %zu constraints, %zu aux", cz_cs_num_constraints(cs), cz_cs_num_aux(cs));
        for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
            TF_CHECK(bits[i].kind == CZ_BOOL_IS && cz_bool_value(bits[i]) == fr_bit(&v, i));
        /* the most significant bit is allocated first */
        TF_CHECK(cz_var_index(bits[CZ_FR_NUM_BITS - 1].bit.var) == 1);
        sys s;
        if (!sys_finish(&s, cs)) {
            sys_free(&s);
            continue;
        }
        TF_CHECK(sys_check(&s) == CZ_OK);
        /* unpacking row: 0 * 0 = sum 2^i b_i - n */
        size_t last = cost - 1;
        TF_CHECK(cz_csr_row_end(cz_r1cs_matrix(s.r, CZ_MAT_A), last) ==
                 cz_csr_row_begin(cz_r1cs_matrix(s.r, CZ_MAT_A), last));
        TF_CHECK(cz_csr_row_end(cz_r1cs_matrix(s.r, CZ_MAT_C), last) -
                     cz_csr_row_begin(cz_r1cs_matrix(s.r, CZ_MAT_C), last) ==
                 CZ_FR_NUM_BITS + 1);
        cz_fr other;
        cz_fr_random(&other, &tf_rng);
        s.w[col(&s, n.var)] = other;
        TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
        s.w[col(&s, n.var)] = v;
        for (int k = 0; k < 8; k++) {
            unsigned i = (unsigned)rnd(CZ_FR_NUM_BITS);
            size_t c = col(&s, bits[i].bit.var);
            cz_fr old = s.w[c];
            cz_fr_sub(&s.w[c], &CZ_FR_ONE, &old);
            TF_CHECK_MSG(sys_check(&s) == CZ_ERR_UNSATISFIED, "bit %u flipped", i);
            s.w[c] = old;
        }
        if (it == 0) {
            /* -1 with bit 0 set reads r: the last bit's conditional
             * constraint (row cost - 2) fails first */
            size_t row = 0;
            s.w[col(&s, bits[0].bit.var)] = CZ_FR_ONE;
            TF_CHECK(sys_check_row(&s, &row) == CZ_ERR_UNSATISFIED && row == cost - 2);
        }
        sys_free(&s);
    }

    /* v + r for v < 2^255 - r: accepted by to_bits_le, refused strictly */
    for (int strict = 0; strict < 2; strict++) {
        uint64_t small = cz_prng_next(&tf_rng);
        cz_fr v;
        cz_fr_from_u64(&v, small);
        cz_cs *cs = rec_new();
        cz_num n = cz_num_alloc(cs, &v);
        cz_bool bits[CZ_FR_NUM_BITS];
        if (strict)
            cz_num_to_bits_le_strict(cs, &n, bits);
        else
            cz_num_to_bits_le(cs, &n, bits);
        sys s;
        if (!sys_finish(&s, cs)) {
            sys_free(&s);
            continue;
        }
        /* bits of r + small (r's canonical limbs: -1 plus one) */
        cz_fr m1;
        cz_fr_neg(&m1, &CZ_FR_ONE);
        uint64_t l[4];
        cz_fr_to_canonical(l, &m1);
        unsigned __int128 t = (unsigned __int128)l[0] + small + 1;
        l[0] = (uint64_t)t;
        for (int k = 1; k < 4 && (t >> 64); k++) {
            t = (unsigned __int128)l[k] + 1;
            l[k] = (uint64_t)t;
        }
        for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
            s.w[col(&s, bits[i].bit.var)] = ((l[i / 64] >> (i % 64)) & 1) ? CZ_FR_ONE : CZ_FR_ZERO;
        rederive_ands(&s, 0, cz_r1cs_num_circuit_constraints(s.r));
        size_t row = 0;
        TF_CHECK_MSG(sys_check_row(&s, &row) == (strict ? CZ_ERR_UNSATISFIED : CZ_OK), "strict %d",
                     strict);
        if (strict) { /* an alloc_conditionally row: (1 - last - b) * b = 0 */
            const cz_csr *A = cz_r1cs_matrix(s.r, CZ_MAT_A);
            TF_CHECK(cz_csr_row_end(A, row) - cz_csr_row_begin(A, row) == 3);
        }
        sys_free(&s);
    }
}

/* --------------------------------------------------------- num methods --- */

/* bellpepper-core num.rs test_num_addition (-1 + 1 = 0, then a wrong sum
 * is rejected), test_num_squaring (3^2), test_num_multiplication (12 * 10),
 * test_num_nonzero (a wrong inverse is rejected; zero is refused), on those
 * values and random ones; 1 aux and 1 constraint each, rows
 * (a + b) * 1 = r, a * b = r, a * a = r, a * inv = 1. */
static void test_num_ops(void)
{
    for (int it = 0; it < 6; it++) {
        cz_fr av, bv;
        if (it == 0) {
            cz_fr_neg(&av, &CZ_FR_ONE);
            bv = CZ_FR_ONE;
        } else if (it == 1) {
            cz_fr_from_u64(&av, 12);
            cz_fr_from_u64(&bv, 10);
        } else {
            cz_fr_random(&av, &tf_rng);
            cz_fr_random(&bv, &tf_rng);
        }
        cz_cs *cs = rec_new();
        cz_num a = cz_num_alloc(cs, &av), b = cz_num_alloc(cs, &bv);
        cz_num sum = cz_num_add(cs, &a, &b);
        cz_num prod = cz_num_mul(cs, &a, &b);
        cz_num sq = cz_num_square(cs, &a);
        TF_CHECK(cz_num_assert_nonzero(cs, &b) == CZ_OK);
        TF_CHECK(cz_cs_num_aux(cs) == 6 && cz_cs_num_constraints(cs) == 4);
        cz_fr want;
        cz_fr_add(&want, &av, &bv);
        TF_CHECK(cz_fr_equal(&sum.value, &want));
        if (it == 0)
            TF_CHECK(cz_fr_is_zero(&sum.value));
        cz_fr_mul(&want, &av, &bv);
        TF_CHECK(cz_fr_equal(&prod.value, &want));
        if (it == 1) {
            cz_fr w120;
            cz_fr_from_u64(&w120, 120);
            TF_CHECK(cz_fr_equal(&prod.value, &w120));
        }
        cz_fr_sqr(&want, &av);
        TF_CHECK(cz_fr_equal(&sq.value, &want));
        sys s;
        if (sys_finish(&s, cs)) {
            TF_CHECK(sys_check(&s) == CZ_OK);
            size_t A = col(&s, a.var), B = col(&s, b.var), INV = s.n - 1;
            check_abc(s.r, 0, (entry[]){{A, 1}, {B, 1}}, 2, (entry[]){{0, 1}}, 1,
                      (entry[]){{col(&s, sum.var), 1}}, 1);
            check_abc(s.r, 1, (entry[]){{A, 1}}, 1, (entry[]){{B, 1}}, 1,
                      (entry[]){{col(&s, prod.var), 1}}, 1);
            check_abc(s.r, 2, (entry[]){{A, 1}}, 1, (entry[]){{A, 1}}, 1,
                      (entry[]){{col(&s, sq.var), 1}}, 1);
            check_abc(s.r, 3, (entry[]){{B, 1}}, 1, (entry[]){{INV, 1}}, 1, (entry[]){{0, 1}}, 1);
            check_bump_breaks(&s, sum.var);
            check_bump_breaks(&s, prod.var);
            check_bump_breaks(&s, sq.var);
            /* test_num_nonzero: a wrong inverse */
            cz_fr inv = s.w[INV];
            cz_fr_add(&s.w[INV], &inv, &CZ_FR_ONE);
            size_t row = 0;
            TF_CHECK(sys_check_row(&s, &row) == CZ_ERR_UNSATISFIED && row == 3);
            s.w[INV] = inv;
        }
        sys_free(&s);
    }
    /* a zero: same shape, refused */
    cz_cs *cs = rec_new();
    cz_num z = cz_num_alloc(cs, &CZ_FR_ZERO);
    TF_CHECK(cz_num_assert_nonzero(cs, &z) == CZ_ERR_UNSATISFIED);
    TF_CHECK(cz_cs_num_aux(cs) == 2 && cz_cs_num_constraints(cs) == 1);
    TF_CHECK(cz_cs_error(cs) == CZ_OK);
    cz_cs_free(cs);
}

/* bellpepper-core num.rs test_num_conditional_reversal: constant false
 * keeps (a, b), constant true swaps; also allocated and negated
 * conditions.  2 aux, 2 constraints; rows (a - b) * cond = a - c and
 * (b - a) * cond = b - d; a wrong output is rejected. */
static void test_conditionally_reverse(void)
{
    for (int kind = 0; kind < 6; kind++) {
        cz_fr av, bv;
        cz_fr_random(&av, &tf_rng);
        cz_fr_random(&bv, &tf_rng);
        cz_cs *cs = rec_new();
        cz_num a = cz_num_alloc(cs, &av), b = cz_num_alloc(cs, &bv);
        cz_bool cond;
        bool sw = kind & 1;
        if (kind < 2)
            cond = cz_bool_const(sw);
        else if (kind < 4)
            cond = cz_bool_is(cz_abit_alloc(cs, sw));
        else
            cond = cz_bool_not(cz_bool_is(cz_abit_alloc(cs, !sw)));
        size_t c0 = cz_cs_num_constraints(cs), a0 = cz_cs_num_aux(cs);
        cz_num c, d;
        cz_num_conditionally_reverse(cs, &a, &b, cond, &c, &d);
        TF_CHECK(cz_cs_num_constraints(cs) - c0 == 2 && cz_cs_num_aux(cs) - a0 == 2);
        TF_CHECK(cz_fr_equal(&c.value, sw ? &bv : &av) && cz_fr_equal(&d.value, sw ? &av : &bv));
        sys s;
        if (sys_finish(&s, cs)) {
            TF_CHECK(sys_check(&s) == CZ_OK);
            size_t A = col(&s, a.var), B = col(&s, b.var), C = col(&s, c.var), D = col(&s, d.var);
            TF_CHECK(C + 1 == D);
            entry cl[2];
            size_t ncl = 0;
            if (kind < 2) {
                if (sw)
                    cl[ncl++] = (entry){0, 1};
            } else if (kind < 4) {
                cl[ncl++] = (entry){col(&s, cond.bit.var), 1};
            } else {
                cl[ncl++] = (entry){0, 1};
                cl[ncl++] = (entry){col(&s, cond.bit.var), -1};
            }
            check_abc(s.r, c0, (entry[]){{A, 1}, {B, -1}}, 2, cl, ncl, (entry[]){{A, 1}, {C, -1}},
                      2);
            check_abc(s.r, c0 + 1, (entry[]){{B, 1}, {A, -1}}, 2, cl, ncl,
                      (entry[]){{B, 1}, {D, -1}}, 2);
            /* the other output value breaks it */
            s.w[C] = sw ? av : bv;
            TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
            s.w[C] = c.value;
            check_bump_breaks(&s, d.var);
        }
        sys_free(&s);
    }
}

/* ----------------------------------------------- constraint.rs, encode --- */

/* storage-proofs-core constraint.rs add_constraint / sub_constraint (100
 * random pairs each: value and satisfiability), with the rows of sum
 * ((a + b) * 1 = sum) and difference ((diff + b) * 1 = a), 1 aux and 1
 * constraint per add / sub; equal is a * 1 = b.  encode.rs: encode =
 * key + value, decode = value - key as the native functions, decode
 * inverts encode; a wrong result is rejected. */
static void test_constraint_encode(void)
{
    for (int it = 0; it < 100; it++) {
        cz_fr av, bv, want;
        cz_fr_random(&av, &tf_rng);
        cz_fr_random(&bv, &tf_rng);
        cz_cs *cs = rec_new();
        cz_num a = cz_num_alloc(cs, &av), b = cz_num_alloc(cs, &bv);
        cz_num sum = cz_constraint_add(cs, &a, &b);
        cz_num diff = cz_constraint_sub(cs, &a, &b);
        TF_CHECK(cz_cs_num_aux(cs) == 4 && cz_cs_num_constraints(cs) == 2);
        cz_fr_add(&want, &av, &bv);
        TF_CHECK(cz_fr_equal(&sum.value, &want));
        cz_fr_sub(&want, &av, &bv);
        TF_CHECK(cz_fr_equal(&diff.value, &want));
        /* encode / decode */
        cz_num enc = cz_encode(cs, &a, &b);
        cz_num dec = cz_decode(cs, &a, &enc);
        TF_CHECK(cz_cs_num_aux(cs) == 6 && cz_cs_num_constraints(cs) == 4);
        cz_encode_native(&want, &av, &bv);
        TF_CHECK(cz_fr_equal(&enc.value, &want));
        cz_decode_native(&want, &av, &enc.value);
        TF_CHECK(cz_fr_equal(&dec.value, &want) && cz_fr_equal(&dec.value, &bv));
        /* sum / difference / equal on existing nums */
        cz_constraint_sum(cs, &a, &b, &sum);
        cz_constraint_difference(cs, &a, &b, &diff);
        cz_num_enforce_equal(cs, &dec, &b);
        TF_CHECK(cz_cs_num_aux(cs) == 6 && cz_cs_num_constraints(cs) == 7);
        sys s;
        if (!sys_finish(&s, cs)) {
            sys_free(&s);
            continue;
        }
        TF_CHECK(sys_check(&s) == CZ_OK);
        if (it < 3) {
            size_t A = col(&s, a.var), B = col(&s, b.var), S = col(&s, sum.var),
                   D = col(&s, diff.var), E = col(&s, enc.var), X = col(&s, dec.var);
            const entry one[] = {{0, 1}};
            check_abc(s.r, 0, (entry[]){{A, 1}, {B, 1}}, 2, one, 1, (entry[]){{S, 1}}, 1);
            check_abc(s.r, 1, (entry[]){{D, 1}, {B, 1}}, 2, one, 1, (entry[]){{A, 1}}, 1);
            check_abc(s.r, 2, (entry[]){{A, 1}, {B, 1}}, 2, one, 1, (entry[]){{E, 1}}, 1);
            check_abc(s.r, 3, (entry[]){{X, 1}, {A, 1}}, 2, one, 1, (entry[]){{E, 1}}, 1);
            check_abc(s.r, 4, (entry[]){{A, 1}, {B, 1}}, 2, one, 1, (entry[]){{S, 1}}, 1);
            check_abc(s.r, 5, (entry[]){{D, 1}, {B, 1}}, 2, one, 1, (entry[]){{A, 1}}, 1);
            check_abc(s.r, 6, (entry[]){{X, 1}}, 1, one, 1, (entry[]){{B, 1}}, 1);
        }
        check_bump_breaks(&s, sum.var);
        check_bump_breaks(&s, diff.var);
        check_bump_breaks(&s, enc.var);
        check_bump_breaks(&s, dec.var);
        sys_free(&s);
    }
}

/* --------------------------------------------------------------- UInt64 --- */

/* storage-proofs-core uint64.rs test_uint64_from_bits_be /
 * test_uint64_from_bits: 1000 random constant bit strings read back with
 * their value and returned unchanged by to_bits_be / to_bits_le.  Then
 * alloc (64 aux, 64 constraints: "UInt64 alloc 64") and pack_into_input
 * (1 input, 1 constraint; the PoRep challenge's 65), whose input equals
 * the native Fr of the value and compute_multipacking of its bits; a
 * flipped bit or a wrong input is rejected; constants stay constant. */
static void test_uint64(void)
{
    for (int it = 0; it < 1000; it++) {
        cz_bool in[64], out[64];
        for (int i = 0; i < 64; i++)
            in[i] = cz_bool_const(rnd(2));
        cz_u64 be = cz_u64_from_bits_be(in), le = cz_u64_from_bits_le(in);
        for (int i = 0; i < 64; i++) {
            TF_CHECK(be.bits[i].kind == CZ_BOOL_CONST && le.bits[i].kind == CZ_BOOL_CONST);
            TF_CHECK(cz_bool_value(be.bits[i]) == ((be.value >> i) & 1));
            TF_CHECK(cz_bool_value(le.bits[i]) == ((le.value >> i) & 1));
            TF_CHECK(cz_bool_value(in[i]) == ((be.value >> (63 - i)) & 1));
        }
        cz_u64_to_bits_be(&be, out);
        for (int i = 0; i < 64; i++)
            TF_CHECK(cz_bool_value(out[i]) == cz_bool_value(in[i]));
        cz_u64_to_bits_le(&le, out);
        for (int i = 0; i < 64; i++)
            TF_CHECK(cz_bool_value(out[i]) == cz_bool_value(in[i]));
        cz_u64 k = cz_u64_const(be.value);
        TF_CHECK(k.value == be.value);
        for (int i = 0; i < 64; i++)
            TF_CHECK(k.bits[i].kind == CZ_BOOL_CONST &&
                     cz_bool_value(k.bits[i]) == cz_bool_value(be.bits[i]));
    }
    for (int it = 0; it < 8; it++) {
        uint64_t v = it == 0 ? 0 : it == 1 ? UINT64_MAX : cz_prng_next(&tf_rng);
        cz_cs *cs = rec_new();
        cz_u64 x = cz_u64_alloc(cs, v);
        TF_CHECK(x.value == v && cz_cs_num_aux(cs) == 64 && cz_cs_num_constraints(cs) == 64);
        cz_u64_pack_into_input(cs, &x);
        TF_CHECK(cz_cs_num_inputs(cs) == 2 && cz_cs_num_constraints(cs) == 65);
        /* from_bits of allocated bits keeps them (and the value) */
        cz_u64 y = cz_u64_from_bits_le(x.bits);
        TF_CHECK(y.value == v && y.bits[5].bit.var == x.bits[5].bit.var);
        cz_bool be[64];
        cz_u64_to_bits_be(&x, be);
        TF_CHECK(cz_u64_from_bits_be(be).value == v);
        sys s;
        if (!sys_finish(&s, cs)) {
            sys_free(&s);
            continue;
        }
        TF_CHECK(sys_check(&s) == CZ_OK);
        cz_fr want, packed;
        bool bits[64];
        for (int i = 0; i < 64; i++)
            bits[i] = (v >> i) & 1;
        cz_fr_from_u64(&want, v);
        cz_multipack_native(&packed, bits, 64);
        TF_CHECK(cz_fr_equal(&s.w[1], &want) && cz_fr_equal(&packed, &want));
        /* bit i: (1 - b) * b = 0 at row i, the packing row 64 */
        size_t B0 = col(&s, x.bits[0].bit.var);
        check_abc(s.r, 0, (entry[]){{0, 1}, {B0, -1}}, 2, (entry[]){{B0, 1}}, 1, NULL, 0);
        const cz_csr *a = cz_r1cs_matrix(s.r, CZ_MAT_A);
        TF_CHECK(cz_csr_row_end(a, 64) - cz_csr_row_begin(a, 64) == 64);
        cz_fr pow = CZ_FR_ONE;
        for (uint64_t k = cz_csr_row_begin(a, 64); k < cz_csr_row_end(a, 64); k++) {
            cz_fr got;
            entry_coeff(a, 64, k, &got);
            TF_CHECK((a->col[k] & CZ_CSR_COL_MASK) ==
                     col(&s, x.bits[k - cz_csr_row_begin(a, 64)].bit.var));
            TF_CHECK(cz_fr_equal(&got, &pow));
            cz_fr_dbl(&pow, &pow);
        }
        check_row(s.r, CZ_MAT_B, 64, (entry[]){{0, 1}}, 1);
        check_row(s.r, CZ_MAT_C, 64, (entry[]){{1, 1}}, 1);
        check_bump_breaks(&s, CZ_CS_ONE + 1); /* the input */
        size_t c = col(&s, x.bits[rnd(64)].bit.var);
        cz_fr old = s.w[c];
        cz_fr_sub(&s.w[c], &CZ_FR_ONE, &old);
        TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
        s.w[c] = old;
        sys_free(&s);
    }
}

/* storage-proofs-core util.rs test_reverse_bit_numbering: the bits of
 * to_bits_le, reversed within each byte, are the big-endian bits of the
 * number's little-endian bytes (padded to 256 with a constant false). */
static void test_reverse_bit_numbering(void)
{
    for (int it = 0; it < 10; it++) {
        cz_fr v;
        cz_fr_random(&v, &tf_rng);
        cz_cs *cs = rec_new();
        cz_num n = cz_num_alloc(cs, &v);
        cz_bool bits[CZ_FR_NUM_BITS], rev[256];
        cz_num_to_bits_le(cs, &n, bits);
        TF_CHECK(cz_reverse_bit_numbering(bits, CZ_FR_NUM_BITS, rev) == 256);
        uint8_t le[32];
        cz_fr_to_bytes_le(le, &v);
        for (unsigned i = 0; i < 256; i++)
            TF_CHECK_MSG(cz_bool_value(rev[i]) == ((le[i / 8] >> (7 - i % 8)) & 1), "bit %u", i);
        TF_CHECK(cz_bool_is_const(rev[248]) && !cz_bool_value(rev[248]));
        TF_CHECK(rev[255].bit.var == bits[248].bit.var && rev[0].bit.var == bits[7].bit.var);
        cz_cs_free(cs);
    }
    cz_bool in[3] = {cz_bool_const(true), cz_bool_const(false), cz_bool_const(true)}, out[8];
    TF_CHECK(cz_reverse_bit_numbering(in, 3, out) == 8);
    TF_CHECK(cz_bool_value(out[7]) && !cz_bool_value(out[6]) && cz_bool_value(out[5]));
    for (int i = 0; i < 5; i++)
        TF_CHECK(cz_bool_is_const(out[i]) && !cz_bool_value(out[i]));
    TF_CHECK(cz_reverse_bit_numbering(in, 0, out) == 0);
}

/* ----------------------------------------------------------- SnapDeals --- */

/* storage-proofs-update gadgets.rs: allocated_num_to_allocated_bits (255
 * allocs + (sum 2^i b_i) * 1 = n, as its gen_challenge_bits count 568 =
 * 1 + 311 + 256 implies), get_challenge_high_bits (pack, product and the
 * sum: 2 |hs| + 1) and label_r_new (2), values against the native ones,
 * tampering rejected. */
static void test_update(void)
{
    for (int it = 0; it < 4; it++) {
        cz_cs *cs = rec_new();
        cz_fr v;
        cz_fr_random(&v, &tf_rng);
        cz_num n = cz_num_alloc(cs, &v);
        cz_abit bits[CZ_FR_NUM_BITS];
        cz_snap_num_to_bits(cs, &n, bits);
        TF_CHECK(cz_cs_num_constraints(cs) == 256 && cz_cs_num_aux(cs) == 256);
        for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
            TF_CHECK(bits[i].value == fr_bit(&v, i) && cz_var_index(bits[i].var) == 1 + i);

        /* a challenge of bit_len bits from the low bits of the digest */
        size_t bit_len = 20 + (size_t)rnd(12), hs[4], n_hs = 1 + (size_t)rnd(4);
        size_t sel = (size_t)rnd(n_hs);
        uint64_t c = 0;
        for (size_t i = 0; i < bit_len; i++)
            c |= (uint64_t)bits[i].value << i;
        cz_abit h_select[4];
        for (size_t k = 0; k < n_hs; k++) {
            hs[k] = 1 + (size_t)rnd(bit_len);
            h_select[k] = cz_abit_alloc(cs, k == sel);
        }
        size_t c0 = cz_cs_num_constraints(cs), a0 = cz_cs_num_aux(cs);
        cz_num high;
        TF_CHECK(cz_snap_challenge_high_bits(cs, bits, bit_len, h_select, hs, n_hs, &high) ==
                 CZ_OK);
        TF_CHECK(cz_cs_num_constraints(cs) - c0 == 2 * n_hs + 1 &&
                 cz_cs_num_aux(cs) - a0 == 2 * n_hs + 1);
        cz_fr want;
        cz_fr_from_u64(&want, c >> (bit_len - hs[sel]));
        TF_CHECK(cz_fr_equal(&high.value, &want));

        cz_fr old, dnew, rho;
        cz_fr_random(&old, &tf_rng);
        cz_fr_random(&dnew, &tf_rng);
        cz_fr_random(&rho, &tf_rng);
        cz_num o = cz_num_alloc(cs, &old), d = cz_num_alloc(cs, &dnew), r = cz_num_alloc(cs, &rho);
        size_t c1 = cz_cs_num_constraints(cs);
        cz_num lr = cz_snap_label_r_new(cs, &o, &d, &r);
        TF_CHECK(cz_cs_num_constraints(cs) - c1 == 2);
        cz_snap_label_r_new_native(&want, &old, &dnew, &rho);
        TF_CHECK(cz_fr_equal(&lr.value, &want));

        sys s;
        if (!sys_finish(&s, cs)) {
            sys_free(&s);
            continue;
        }
        TF_CHECK(sys_check(&s) == CZ_OK);
        /* binary decomp row: (sum 2^i b_i) * 1 = n */
        const cz_csr *A = cz_r1cs_matrix(s.r, CZ_MAT_A);
        TF_CHECK(cz_csr_row_end(A, 255) - cz_csr_row_begin(A, 255) == CZ_FR_NUM_BITS);
        cz_fr pow = CZ_FR_ONE;
        for (uint64_t k = cz_csr_row_begin(A, 255); k < cz_csr_row_end(A, 255); k++) {
            cz_fr got;
            entry_coeff(A, 255, k, &got);
            TF_CHECK(cz_fr_equal(&got, &pow));
            cz_fr_dbl(&pow, &pow);
        }
        check_row(s.r, CZ_MAT_B, 255, (entry[]){{0, 1}}, 1);
        check_row(s.r, CZ_MAT_C, 255, (entry[]){{col(&s, n.var), 1}}, 1);
        check_bump_breaks(&s, n.var);
        check_bump_breaks(&s, high.var);
        check_bump_breaks(&s, lr.var);
        /* selecting a second, non-zero c_high breaks its product row */
        size_t other = (sel + 1) % n_hs;
        if (other != sel && (c >> (bit_len - hs[other])) != 0) {
            s.w[col(&s, h_select[other].var)] = CZ_FR_ONE;
            TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
        }
        sys_free(&s);
    }
    cz_cs *cs = rec_new();
    cz_abit b[4];
    cz_num out;
    size_t hs[2] = {3, 5};
    for (int i = 0; i < 4; i++)
        b[i] = cz_abit_alloc(cs, 1);
    TF_CHECK(cz_snap_challenge_high_bits(cs, b, 4, b, hs, 2, &out) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_snap_challenge_high_bits(cs, b, 4, b, hs, 0, &out) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
}

/* --------------------------------------------------------- witness mode --- */

/* Runs every gadget here on the same values in both modes. */
static void run_all(cz_cs *cs, const cz_fr *x, const cz_fr *y, uint64_t u, bool c)
{
    cz_num a = cz_num_alloc(cs, x), b = cz_num_alloc(cs, y), p, q;
    cz_bool bits[CZ_FR_NUM_BITS];
    cz_num_to_bits_le_strict(cs, &a, bits);
    p = cz_num_add(cs, &a, &b);
    p = cz_num_mul(cs, &p, &b);
    p = cz_num_square(cs, &p);
    (void)cz_num_assert_nonzero(cs, &p);
    cz_num_conditionally_reverse(cs, &a, &p, cz_bool_is(cz_abit_alloc(cs, c)), &p, &q);
    p = cz_encode(cs, &p, &q);
    p = cz_decode(cs, &q, &p);
    cz_u64 v = cz_u64_alloc(cs, u);
    cz_u64_pack_into_input(cs, &v);
    cz_abit m = cz_abit_alloc(cs, c);
    (void)cz_abit_alloc_conditionally(cs, !c, m);
    cz_abit bits2[CZ_FR_NUM_BITS], sel[2] = {cz_abit_alloc(cs, c), cz_abit_alloc(cs, !c)};
    size_t hs[2] = {7, 13};
    cz_snap_num_to_bits(cs, &b, bits2);
    TF_CHECK(cz_snap_challenge_high_bits(cs, bits2, 30, sel, hs, 2, &p) == CZ_OK);
    (void)cz_snap_label_r_new(cs, &a, &b, &p);
}

/* Witness-only synthesis gives the recording run's assignment. */
static void test_witness_mode(void)
{
    for (int it = 0; it < 4; it++) {
        cz_fr x, y;
        cz_fr_random(&x, &tf_rng);
        cz_fr_random(&y, &tf_rng);
        uint64_t u = cz_prng_next(&tf_rng);
        bool c = it & 1;
        cz_cs *rec = rec_new(), *wit = NULL;
        TF_CHECK(cz_cs_new(&wit, CZ_CS_WITNESS, 0) == CZ_OK);
        run_all(rec, &x, &y, u, c);
        run_all(wit, &x, &y, u, c);
        TF_CHECK(cz_cs_num_inputs(rec) == cz_cs_num_inputs(wit));
        TF_CHECK(cz_cs_num_aux(rec) == cz_cs_num_aux(wit));
        TF_CHECK(memcmp(cz_cs_aux(rec), cz_cs_aux(wit), cz_cs_num_aux(rec) * sizeof(cz_fr)) == 0);
        TF_CHECK(memcmp(cz_cs_inputs(rec), cz_cs_inputs(wit),
                        cz_cs_num_inputs(rec) * sizeof(cz_fr)) == 0);
        sys s;
        if (sys_finish(&s, rec))
            TF_CHECK(sys_check(&s) == CZ_OK);
        sys_free(&s);
        cz_cs_free(wit);
    }
}

TF_MAIN(TF_TEST(test_alloc_conditionally), TF_TEST(test_to_bits_strict), TF_TEST(test_num_ops),
        TF_TEST(test_conditionally_reverse), TF_TEST(test_constraint_encode), TF_TEST(test_uint64),
        TF_TEST(test_reverse_bit_numbering), TF_TEST(test_update), TF_TEST(test_witness_mode))
