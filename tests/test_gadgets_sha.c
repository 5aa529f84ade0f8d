/* Tests for the bellpepper-compatible gadgets (include/cuzk/gadgets.h):
 * constraint counts equal to bellpepper's (its unit tests and the counts in
 * shared/facts/filecoin-c2.md), satisfiability of the recorded R1CS on
 * random inputs, circuit outputs equal to the native functions, the native
 * SHA-256 against the FIPS 180-2 vectors, and witness-only synthesis giving
 * the recording run's assignment. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/sha256.h"
#include "gadget_sys.h"
#include "tf.h"

/* ------------------------------------------------------------- helpers --- */

static uint64_t rnd(uint64_t n) { return cz_prng_next(&tf_rng) % n; }

static cz_cs *rec_new(void)
{
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, CZ_CS_NAMESPACES) == CZ_OK);
    return cs;
}

/* Flips the 0/1 value of v in w, checks that the system is then
 * unsatisfied, and restores it. */
static void check_flip_breaks(sys *s, cz_var v)
{
    cz_fr old = s->w[col(s, v)];
    cz_fr one_minus;
    cz_fr_sub(&one_minus, &CZ_FR_ONE, &old);
    s->w[col(s, v)] = one_minus;
    TF_CHECK(sys_check(s) == CZ_ERR_UNSATISFIED);
    s->w[col(s, v)] = old;
}

/* The finished system of cs is satisfied and, when flip is given,
 * flipping that boolean breaks it. */
static void check_sat_flip(cz_cs *cs, const cz_var *flip)
{
    sys s;
    if (sys_finish(&s, cs)) {
        TF_CHECK(sys_check(&s) == CZ_OK);
        if (flip)
            check_flip_breaks(&s, *flip);
    }
    sys_free(&s);
}

/* The six operand kinds of bellpepper's boolean tests (OperandType). */
enum { OP_TRUE, OP_FALSE, OP_ALLOC_TRUE, OP_ALLOC_FALSE, OP_NEG_TRUE, OP_NEG_FALSE, N_OPS };

static bool op_val(int k) { return k == OP_TRUE || k == OP_ALLOC_TRUE || k == OP_NEG_FALSE; }
static bool op_const(int k) { return k == OP_TRUE || k == OP_FALSE; }

static cz_bool make_op(cz_cs *cs, int k)
{
    switch (k) {
    case OP_TRUE:
        return cz_bool_const(true);
    case OP_FALSE:
        return cz_bool_const(false);
    case OP_ALLOC_TRUE:
        return cz_bool_is(cz_abit_alloc(cs, true));
    case OP_ALLOC_FALSE:
        return cz_bool_is(cz_abit_alloc(cs, false));
    case OP_NEG_TRUE:
        return cz_bool_not(cz_bool_is(cz_abit_alloc(cs, true)));
    default:
        return cz_bool_not(cz_bool_is(cz_abit_alloc(cs, false)));
    }
}

/* Bits of bytes, most significant first. */
static void bytes_to_bools(cz_cs *cs, const uint8_t *m, size_t len, cz_bool *out)
{
    for (size_t i = 0; i < 8 * len; i++)
        out[i] = cz_bool_is(cz_abit_alloc(cs, (m[i / 8] >> (7 - i % 8)) & 1));
}

static void bools_to_bytes(const cz_bool *b, size_t nbytes, uint8_t *out)
{
    memset(out, 0, nbytes);
    for (size_t i = 0; i < 8 * nbytes; i++)
        out[i / 8] |= (uint8_t)(cz_bool_value(b[i]) << (7 - i % 8));
}

/* ------------------------------------------------------ native SHA-256 --- */

static void hex_to_bytes(const char *h, uint8_t *out)
{
    for (size_t i = 0; h[2 * i] != 0; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* FIPS 180-2 appendix B test vectors (and the empty message). */
static void test_native_vectors(void)
{
    static const struct {
        const char *msg, *digest;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrl"
         "mnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t want[32], got[32];
        hex_to_bytes(v[i].digest, want);
        cz_sha256(got, (const uint8_t *)v[i].msg, strlen(v[i].msg));
        TF_CHECK_MEM(got, want, 32);
    }
}

/* --------------------------------------------------------- allocated bits --- */

/* bellpepper-core boolean.rs test_allocated_bit, test_xor, test_and,
 * test_and_not, test_nor: alloc is 1 aux + 1 constraint (and rejects 2),
 * each operation 1 aux + 1 constraint, and a wrong result is caught. */
static void test_abit_ops(void)
{
    cz_cs *cs = rec_new();
    cz_abit x = cz_abit_alloc(cs, true);
    TF_CHECK(cz_cs_num_aux(cs) == 1 && cz_cs_num_constraints(cs) == 1);
    sys s;
    if (sys_finish(&s, cs)) {
        TF_CHECK(sys_check(&s) == CZ_OK);
        s.w[col(&s, x.var)] = CZ_FR_ZERO;
        TF_CHECK(sys_check(&s) == CZ_OK);
        cz_fr_dbl(&s.w[col(&s, x.var)], &CZ_FR_ONE);
        TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
    }
    sys_free(&s);

    for (int op = 0; op < 4; op++)
        for (int av = 0; av < 2; av++)
            for (int bv = 0; bv < 2; bv++) {
                cs = rec_new();
                cz_abit a = cz_abit_alloc(cs, av), b = cz_abit_alloc(cs, bv), r;
                bool want;
                switch (op) {
                case 0:
                    r = cz_abit_xor(cs, a, b), want = av ^ bv;
                    break;
                case 1:
                    r = cz_abit_and(cs, a, b), want = av & bv;
                    break;
                case 2:
                    r = cz_abit_and_not(cs, a, b), want = av & !bv;
                    break;
                default:
                    r = cz_abit_nor(cs, a, b), want = !av & !bv;
                    break;
                }
                TF_CHECK_MSG(r.value == want, "op %d (%d, %d)", op, av, bv);
                TF_CHECK(cz_cs_num_aux(cs) == 3 && cz_cs_num_constraints(cs) == 3);
                check_sat_flip(cs, &r.var);
            }
}

/* The rows bellpepper-core's boolean.rs writes, term by term:
 *   alloc (1 - x) * x = 0; xor (2a) * b = a + b - r; and a * b = r;
 *   and_not a * (1 - b) = r; nor (1 - a) * (1 - b) = r;
 *   Boolean::xor(Not x, Is y) = not(AllocatedBit::xor(y, x));
 *   ch (b - c) * a = ch - c; maj: maj, then b and c, then
 *   (2bc - b - c) * a = bc - maj; enforce_equal 0 * 0 = a - b. */
static void test_row_shapes(void)
{
    cz_cs *cs = rec_new();
    cz_abit x = cz_abit_alloc(cs, true), y = cz_abit_alloc(cs, false), z = cz_abit_alloc(cs, true);
    cz_abit r1 = cz_abit_xor(cs, x, y), r2 = cz_abit_and(cs, x, y);
    cz_abit r3 = cz_abit_and_not(cs, x, y), r4 = cz_abit_nor(cs, x, y);
    cz_bool r5 = cz_bool_xor(cs, cz_bool_not(cz_bool_is(x)), cz_bool_is(y));
    cz_bool ch = cz_bool_sha256_ch(cs, cz_bool_is(x), cz_bool_not(cz_bool_is(y)), cz_bool_is(z));
    cz_bool maj = cz_bool_sha256_maj(cs, cz_bool_is(x), cz_bool_is(y), cz_bool_is(z));
    TF_CHECK(cz_bool_enforce_equal(cs, cz_bool_is(x), cz_bool_not(cz_bool_is(y))) == CZ_OK);
    TF_CHECK(cz_cs_num_constraints(cs) == 12 && cz_cs_num_aux(cs) == 11);
    TF_CHECK(r5.kind == CZ_BOOL_NOT && cz_bool_value(r5) == false);
    sys s;
    if (!sys_finish(&s, cs)) {
        sys_free(&s);
        return;
    }
    TF_CHECK(sys_check(&s) == CZ_OK);
    size_t X = col(&s, x.var), Y = col(&s, y.var), Z = col(&s, z.var), O = 0;
    size_t BC = col(&s, maj.bit.var) + 1; /* "b and c" follows the maj bit */
    const cz_r1cs *r = s.r;
    check_row(r, CZ_MAT_A, 0, (entry[]){{O, 1}, {X, -1}}, 2);
    check_row(r, CZ_MAT_B, 0, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_C, 0, NULL, 0);
    check_row(r, CZ_MAT_A, 3, (entry[]){{X, 2}}, 1);
    check_row(r, CZ_MAT_B, 3, (entry[]){{Y, 1}}, 1);
    check_row(r, CZ_MAT_C, 3, (entry[]){{X, 1}, {Y, 1}, {col(&s, r1.var), -1}}, 3);
    check_row(r, CZ_MAT_A, 4, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_B, 4, (entry[]){{Y, 1}}, 1);
    check_row(r, CZ_MAT_C, 4, (entry[]){{col(&s, r2.var), 1}}, 1);
    check_row(r, CZ_MAT_A, 5, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_B, 5, (entry[]){{O, 1}, {Y, -1}}, 2);
    check_row(r, CZ_MAT_C, 5, (entry[]){{col(&s, r3.var), 1}}, 1);
    check_row(r, CZ_MAT_A, 6, (entry[]){{O, 1}, {X, -1}}, 2);
    check_row(r, CZ_MAT_B, 6, (entry[]){{O, 1}, {Y, -1}}, 2);
    check_row(r, CZ_MAT_C, 6, (entry[]){{col(&s, r4.var), 1}}, 1);
    check_row(r, CZ_MAT_A, 7, (entry[]){{Y, 2}}, 1);
    check_row(r, CZ_MAT_B, 7, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_C, 7, (entry[]){{X, 1}, {Y, 1}, {col(&s, r5.bit.var), -1}}, 3);
    /* ch with b = not y: (1 - y - z) * x = ch - z */
    check_row(r, CZ_MAT_A, 8, (entry[]){{O, 1}, {Y, -1}, {Z, -1}}, 3);
    check_row(r, CZ_MAT_B, 8, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_C, 8, (entry[]){{col(&s, ch.bit.var), 1}, {Z, -1}}, 2);
    /* maj: row 9 is y and z, row 10 the maj row */
    check_row(r, CZ_MAT_C, 9, (entry[]){{BC, 1}}, 1);
    check_row(r, CZ_MAT_A, 10, (entry[]){{BC, 2}, {Y, -1}, {Z, -1}}, 3);
    check_row(r, CZ_MAT_B, 10, (entry[]){{X, 1}}, 1);
    check_row(r, CZ_MAT_C, 10, (entry[]){{BC, 1}, {col(&s, maj.bit.var), -1}}, 2);
    /* x = not y: 0 * 0 = x - 1 + y */
    check_row(r, CZ_MAT_A, 11, NULL, 0);
    check_row(r, CZ_MAT_C, 11, (entry[]){{X, 1}, {O, -1}, {Y, 1}}, 3);
    sys_free(&s);
}

/* ------------------------------------------------------------- booleans --- */

/* bellpepper-core boolean.rs test_boolean_xor / test_boolean_and /
 * test_boolean_or over the six operand kinds: a constant operand folds
 * (no constraint), otherwise exactly one. */
static void test_bool_ops(void)
{
    for (int op = 0; op < 3; op++)
        for (int ka = 0; ka < N_OPS; ka++)
            for (int kb = 0; kb < N_OPS; kb++) {
                cz_cs *cs = rec_new();
                cz_bool a = make_op(cs, ka), b = make_op(cs, kb), r;
                size_t before = cz_cs_num_constraints(cs);
                bool av = op_val(ka), bv = op_val(kb), want;
                switch (op) {
                case 0:
                    r = cz_bool_xor(cs, a, b), want = av ^ bv;
                    break;
                case 1:
                    r = cz_bool_and(cs, a, b), want = av & bv;
                    break;
                default:
                    r = cz_bool_or(cs, a, b), want = av | bv;
                    break;
                }
                size_t cost = cz_cs_num_constraints(cs) - before;
                TF_CHECK_MSG(cz_bool_value(r) == want, "op %d kinds %d %d", op, ka, kb);
                TF_CHECK_MSG(cost == (op_const(ka) || op_const(kb) ? 0u : 1u),
                             "op %d kinds %d %d cost %zu", op, ka, kb, cost);
                check_sat_flip(cs, cost == 1 ? &r.bit.var : NULL);
            }
}

/* bellpepper-core boolean.rs test_boolean_sha256_ch / _maj: values over
 * all 216 operand kinds, no constraint when all three are constant; with
 * no constant ch costs 1 and maj 2 (maj and "b and c"), and a wrong result
 * is caught; with some constant at most 1. */
static void test_bool_ch_maj(void)
{
    for (int op = 0; op < 2; op++)
        for (int ka = 0; ka < N_OPS; ka++)
            for (int kb = 0; kb < N_OPS; kb++)
                for (int kc = 0; kc < N_OPS; kc++) {
                    cz_cs *cs = rec_new();
                    cz_bool a = make_op(cs, ka), b = make_op(cs, kb), c = make_op(cs, kc);
                    bool av = op_val(ka), bv = op_val(kb), cv = op_val(kc), want;
                    size_t before = cz_cs_num_constraints(cs);
                    cz_bool r;
                    if (op == 0) {
                        r = cz_bool_sha256_ch(cs, a, b, c);
                        want = (av & bv) ^ (!av & cv);
                    } else {
                        r = cz_bool_sha256_maj(cs, a, b, c);
                        want = (av & bv) ^ (av & cv) ^ (bv & cv);
                    }
                    size_t cost = cz_cs_num_constraints(cs) - before;
                    int nconst = op_const(ka) + op_const(kb) + op_const(kc);
                    TF_CHECK_MSG(cz_bool_value(r) == want, "op %d kinds %d %d %d", op, ka, kb, kc);
                    if (nconst == 3)
                        TF_CHECK(cost == 0 && cz_bool_is_const(r));
                    else if (nconst == 0)
                        TF_CHECK_MSG(cost == (op == 0 ? 1u : 2u), "cost %zu", cost);
                    else
                        TF_CHECK_MSG(cost <= 1, "cost %zu", cost);
                    check_sat_flip(cs, nconst == 0 ? &r.bit.var : NULL);
                }
}

/* bellpepper-core boolean.rs test_enforce_equal: constants compare without
 * a constraint, otherwise one constraint that holds iff the values agree. */
static void test_bool_enforce_equal(void)
{
    for (int ka = 0; ka < N_OPS; ka++)
        for (int kb = 0; kb < N_OPS; kb++) {
            cz_cs *cs = rec_new();
            cz_bool a = make_op(cs, ka), b = make_op(cs, kb);
            size_t before = cz_cs_num_constraints(cs);
            int rc = cz_bool_enforce_equal(cs, a, b);
            size_t cost = cz_cs_num_constraints(cs) - before;
            bool eq = op_val(ka) == op_val(kb);
            sys s;
            if (op_const(ka) && op_const(kb)) {
                TF_CHECK(rc == (eq ? CZ_OK : CZ_ERR_UNSATISFIED) && cost == 0);
            } else {
                TF_CHECK(rc == CZ_OK && cost == 1);
                if (sys_finish(&s, cs)) {
                    TF_CHECK_MSG(sys_check(&s) == (eq ? CZ_OK : CZ_ERR_UNSATISFIED), "kinds %d %d",
                                 ka, kb);
                    sys_free(&s);
                    continue;
                }
            }
            cz_cs_free(cs);
        }
}

/* ----------------------------------------------------------------- nums --- */

/* to_bits_le (bellpepper-core num.rs test_into_bits; facts: 255 bits + 1
 * unpacking constraint), inputize (1 input, 1 constraint), equality. */
static void test_num(void)
{
    for (int it = 0; it < 4; it++) {
        cz_cs *cs = rec_new();
        cz_fr v, u;
        cz_fr_random(&v, &tf_rng);
        cz_fr_random(&u, &tf_rng);
        cz_num n = cz_num_alloc(cs, &v), n2 = cz_num_alloc(cs, &v), m = cz_num_alloc(cs, &u);
        cz_bool bits[CZ_FR_NUM_BITS];
        cz_num_to_bits_le(cs, &n, bits);
        TF_CHECK(cz_cs_num_aux(cs) == 3 + 255 && cz_cs_num_constraints(cs) == 256);
        uint64_t l[4];
        cz_fr_to_canonical(l, &v);
        for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++)
            TF_CHECK(cz_bool_value(bits[i]) == ((l[i / 64] >> (i % 64)) & 1));
        cz_num_inputize(cs, &n);
        TF_CHECK(cz_cs_num_inputs(cs) == 2 && cz_cs_num_constraints(cs) == 257);
        cz_num_enforce_equal(cs, &n, &n2);
        TF_CHECK(cz_cs_num_constraints(cs) == 258);
        sys s;
        if (sys_finish(&s, cs)) {
            TF_CHECK(sys_check(&s) == CZ_OK);
            TF_CHECK(cz_fr_equal(&s.w[1], &v));
            s.w[col(&s, n.var)] = u; /* breaks unpacking, inputize, equality */
            TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
            s.w[col(&s, n.var)] = v;
            s.w[col(&s, n2.var)] = u;
            TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
            s.w[col(&s, n2.var)] = v;
            check_flip_breaks(&s, bits[(unsigned)rnd(CZ_FR_NUM_BITS)].bit.var);
        }
        (void)m;
        sys_free(&s);
    }
}

/* ------------------------------------------------------------ multipack --- */

/* bellpepper multipack.rs test_multipacking: the inputs equal
 * compute_multipacking; one input and one constraint per 254 bits.  Also
 * pack_bits of the first 254 bits. */
static void test_multipack(void)
{
    size_t lens[] = {0, 1, 253, 254, 255, 508, 509, 0};
    lens[7] = (size_t)rnd(1500);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li], chunks = (n + CZ_FR_CAPACITY - 1) / CZ_FR_CAPACITY;
        cz_cs *cs = rec_new();
        bool *v = malloc(n + 1);
        cz_bool *b = malloc((n + 1) * sizeof *b);
        cz_fr *want = malloc((chunks + 1) * sizeof *want);
        for (size_t i = 0; i < n; i++) {
            v[i] = rnd(2);
            b[i] = cz_bool_is(cz_abit_alloc(cs, v[i]));
        }
        cz_pack_into_inputs(cs, b, n);
        TF_CHECK(cz_cs_num_inputs(cs) == 1 + chunks);
        TF_CHECK(cz_cs_num_constraints(cs) == n + chunks);
        cz_multipack_native(want, v, n);
        for (size_t j = 0; j < chunks; j++)
            TF_CHECK(cz_fr_equal(&cz_cs_inputs(cs)[1 + j], &want[j]));
        cz_num p = cz_pack_bits(cs, b, n);
        cz_fr first;
        cz_multipack_native(&first, v, n < CZ_FR_CAPACITY ? n : CZ_FR_CAPACITY);
        TF_CHECK(cz_fr_equal(&p.value, n == 0 ? &CZ_FR_ZERO : &first));
        TF_CHECK(cz_cs_num_constraints(cs) == n + chunks + 1);
        sys s;
        if (sys_finish(&s, cs)) {
            TF_CHECK(sys_check(&s) == CZ_OK);
            if (n > 0)
                check_flip_breaks(&s, b[rnd(n)].bit.var);
        }
        sys_free(&s);
        free(v), free(b), free(want);
    }
}

/* -------------------------------------------------------------- MultiEq --- */

/* Equalities of 34-bit values pack 7 to a constraint (7 * 34 = 238; an
 * 8th would reach 272 >= 254), the rest is flushed by finish. */
static void test_multieq(void)
{
    cz_cs *cs = rec_new();
    cz_multieq m;
    cz_multieq_init(&m, cs);
    cz_var xs[10];
    for (int k = 0; k < 10; k++) {
        cz_fr v;
        cz_fr_from_u64(&v, cz_prng_next(&tf_rng) & ((1ull << 34) - 1));
        cz_lc l, r;
        cz_lc_init(&l), cz_lc_init(&r);
        xs[k] = cz_cs_alloc_aux(cs, &v);
        cz_lc_add(&l, xs[k]);
        cz_lc_add(&r, cz_cs_alloc_aux(cs, &v));
        cz_multieq_enforce_equal(&m, 34, &l, &r);
        cz_lc_free(&l), cz_lc_free(&r);
        TF_CHECK_MSG(cz_cs_num_constraints(cs) == (k < 7 ? 0u : 1u), "after %d: %zu", k,
                     cz_cs_num_constraints(cs));
    }
    cz_multieq_finish(&m);
    TF_CHECK(cz_cs_num_constraints(cs) == 2);
    sys s;
    if (sys_finish(&s, cs)) {
        TF_CHECK(sys_check(&s) == CZ_OK);
        size_t j = col(&s, xs[rnd(10)]);
        cz_fr_add(&s.w[j], &s.w[j], &CZ_FR_ONE);
        TF_CHECK(sys_check(&s) == CZ_ERR_UNSATISFIED);
    }
    sys_free(&s);
}

/* --------------------------------------------------------------- UInt32 --- */

static bool u32_bits_match(const cz_u32 *x, uint32_t want)
{
    for (int i = 0; i < 32; i++)
        if (cz_bool_value(x->bits[i]) != ((want >> i) & 1))
            return false;
    return x->value == want;
}

/* bellpepper uint32.rs test_uint32_xor, test_uint32_addmany,
 * test_uint32_addmany_constants, test_uint32_sha256_ch / _maj,
 * test_uint32_rotr / _shr (values; counts follow from the folding rules:
 * xor with a constant is free, a 3-operand addmany allocates 34 bits). */
static void test_u32(void)
{
    for (int it = 0; it < 20; it++) {
        uint32_t a = (uint32_t)cz_prng_next(&tf_rng), b = (uint32_t)cz_prng_next(&tf_rng);
        uint32_t c = (uint32_t)cz_prng_next(&tf_rng), d = (uint32_t)cz_prng_next(&tf_rng);
        unsigned by = (unsigned)rnd(64);

        /* xor */
        cz_cs *cs = rec_new();
        cz_u32 ab = cz_u32_alloc(cs, a), bb = cz_u32_const(b), cb = cz_u32_alloc(cs, c);
        TF_CHECK(cz_cs_num_constraints(cs) == 64);
        cz_u32 r = cz_u32_xor(cs, &ab, &bb);
        TF_CHECK(cz_cs_num_constraints(cs) == 64);
        r = cz_u32_xor(cs, &r, &cb);
        TF_CHECK(cz_cs_num_constraints(cs) == 96);
        TF_CHECK(u32_bits_match(&r, a ^ b ^ c));
        cz_u32 rr = cz_u32_rotr(&ab, by), rs = cz_u32_shr(&ab, by);
        TF_CHECK(u32_bits_match(&rr, by % 32 ? (a >> (by % 32)) | (a << (32 - by % 32)) : a));
        TF_CHECK(u32_bits_match(&rs, a >> (by % 32)));
        cz_u32 ch = cz_u32_sha256_ch(cs, &ab, &bb, &cb);
        TF_CHECK(u32_bits_match(&ch, (a & b) ^ (~a & c)));
        cz_u32 maj = cz_u32_sha256_maj(cs, &ab, &bb, &cb);
        TF_CHECK(u32_bits_match(&maj, (a & b) ^ (a & c) ^ (b & c)));
        cz_bool be[32];
        cz_u32_to_bits_be(&cb, be);
        cz_u32 back = cz_u32_from_bits_be(be);
        TF_CHECK(u32_bits_match(&back, c) && back.bits[5].bit.var == cb.bits[5].bit.var);
        check_sat_flip(cs, NULL);

        /* addmany((a ^ b), c, d) with b, c constant */
        cs = rec_new();
        ab = cz_u32_alloc(cs, a);
        cz_u32 db = cz_u32_alloc(cs, d);
        cz_u32 ops[3];
        ops[0] = cz_u32_xor(cs, &ab, &bb);
        ops[1] = cz_u32_const(c);
        ops[2] = db;
        cz_multieq m;
        cz_multieq_init(&m, cs);
        r = cz_u32_addmany(&m, ops, 3);
        TF_CHECK(cz_cs_num_constraints(cs) == 64 + 34);
        cz_multieq_finish(&m);
        TF_CHECK(cz_cs_num_constraints(cs) == 64 + 35);
        TF_CHECK(u32_bits_match(&r, (a ^ b) + c + d));
        check_sat_flip(cs, &r.bits[0].bit.var);

        /* all constants: free */
        cs = rec_new();
        cz_multieq_init(&m, cs);
        ops[0] = cz_u32_const(a), ops[1] = cz_u32_const(b), ops[2] = cz_u32_const(c);
        r = cz_u32_addmany(&m, ops, 3);
        cz_multieq_finish(&m);
        TF_CHECK(cz_cs_num_constraints(cs) == 0 && cz_cs_num_aux(cs) == 0);
        TF_CHECK(u32_bits_match(&r, a + b + c) && cz_bool_is_const(r.bits[0]));
        cz_cs_free(cs);
    }
}

/* -------------------------------------------------------------- SHA-256 --- */

static void native_block_state(const cz_bool block[512], uint32_t st[8])
{
    uint8_t bytes[64];
    bools_to_bytes(block, 64, bytes);
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(st, iv, sizeof iv);
    cz_sha256_compress(st, bytes);
}

/* bellpepper sha256.rs test_blank_hash: a constant block costs nothing and
 * gives sha256("") (its padding block). */
static void test_sha256_blank(void)
{
    cz_cs *cs = rec_new();
    cz_bool block[512];
    for (int i = 0; i < 512; i++)
        block[i] = cz_bool_const(i == 0);
    cz_u32 iv[8], out[8];
    cz_sha256_iv_gadget(iv);
    cz_sha256_compress_gadget(cs, block, iv, out);
    TF_CHECK(cz_cs_num_constraints(cs) == 0 && cz_cs_num_aux(cs) == 0);
    uint8_t want[32];
    cz_sha256(want, NULL, 0);
    for (int i = 0; i < 8; i++) {
        uint32_t w = (uint32_t)want[4 * i] << 24 | (uint32_t)want[4 * i + 1] << 16 |
                     (uint32_t)want[4 * i + 2] << 8 | want[4 * i + 3];
        TF_CHECK(u32_bits_match(&out[i], w) && cz_bool_is_const(out[i].bits[0]));
    }
    cz_cs_free(cs);
}

/* The same circuit in WITNESS mode must yield the recording run's
 * assignment (same variables in the same order). */
static void check_witness_mode(const sys *s, const uint8_t *msg, size_t len, bool compress_only)
{
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
    if (cs == NULL)
        return;
    cz_bool *bits = malloc((8 * len + 1) * sizeof *bits), out[256];
    bytes_to_bools(cs, msg, len, bits);
    if (compress_only) {
        cz_u32 iv[8], st[8];
        cz_sha256_iv_gadget(iv);
        cz_sha256_compress_gadget(cs, bits, iv, st);
    } else {
        TF_CHECK(cz_sha256_gadget(cs, bits, 8 * len, out) == CZ_OK);
    }
    TF_CHECK(cz_cs_num_inputs(cs) + cz_cs_num_aux(cs) == s->n);
    if (cz_cs_num_inputs(cs) + cz_cs_num_aux(cs) == s->n) {
        cz_fr *w = malloc(s->n * sizeof *w);
        cz_cs_write_assignment(cs, w);
        TF_CHECK(memcmp(w, s->w, s->n * sizeof *w) == 0);
        free(w);
    }
    free(bits);
    cz_cs_free(cs);
}

/* bellpepper sha256.rs test_full_block: 512 allocated bits, one
 * compression from the constant IV: 25,840 constraints beyond the 512 bit
 * constraints. */
static void test_sha256_block(void)
{
    uint8_t msg[64];
    cz_prng_bytes(&tf_rng, msg, sizeof msg);
    cz_cs *cs = rec_new();
    cz_bool bits[512];
    bytes_to_bools(cs, msg, 64, bits);
    cz_u32 iv[8], out[8];
    cz_sha256_iv_gadget(iv);
    cz_sha256_compress_gadget(cs, bits, iv, out);
    size_t nc = cz_cs_num_constraints(cs) - 512;
    printf("  sha256 compression: %zu constraints (bellpepper 25840), %zu aux\n", nc,
           cz_cs_num_aux(cs) - 512);
    TF_CHECK(nc == 25840);
    uint32_t st[8];
    native_block_state(bits, st);
    for (int i = 0; i < 8; i++)
        TF_CHECK_MSG(u32_bits_match(&out[i], st[i]), "word %d", i);
    sys s;
    if (sys_finish(&s, cs)) {
        TF_CHECK(sys_check(&s) == CZ_OK);
        check_flip_breaks(&s, out[rnd(8)].bits[rnd(32)].bit.var);
        check_witness_mode(&s, msg, 64, true);
    }
    sys_free(&s);
}

/* bellpepper sha256.rs test_full_hash (512 allocated bits, two
 * compressions with the padding block: 44,874 constraints beyond the 512)
 * and test_against_vectors (outputs equal the native hash for random
 * lengths, including both padding cases). */
static void test_sha256_full(void)
{
    size_t lens[] = {64, 0, 1, 55, 56, 63, 119, 0};
    lens[7] = (size_t)rnd(200);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        uint8_t *msg = malloc(len + 1), want[32], got[32];
        cz_prng_bytes(&tf_rng, msg, len);
        cz_cs *cs = rec_new();
        cz_bool *bits = malloc((8 * len + 1) * sizeof *bits), out[256];
        bytes_to_bools(cs, msg, len, bits);
        TF_CHECK(cz_sha256_gadget(cs, bits, 8 * len, out) == CZ_OK);
        size_t nc = cz_cs_num_constraints(cs) - 8 * len;
        if (len == 64) {
            printf("  sha256 of 512 bits: %zu constraints (bellpepper 44874), %zu aux\n", nc,
                   cz_cs_num_aux(cs) - 512);
            TF_CHECK(nc == 44874);
        }
        cz_sha256(want, msg, len);
        bools_to_bytes(out, 32, got);
        TF_CHECK_MSG(memcmp(got, want, 32) == 0, "length %zu", len);
        sys s;
        if (sys_finish(&s, cs)) {
            TF_CHECK_MSG(sys_check(&s) == CZ_OK, "length %zu", len);
            if (len == 64)
                check_witness_mode(&s, msg, len, false);
        }
        sys_free(&s);
        free(bits), free(msg);
    }
    cz_cs *cs = rec_new();
    cz_bool one = cz_bool_const(true), out[256];
    TF_CHECK(cz_sha256_gadget(cs, &one, 1, out) == CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
}

TF_MAIN(TF_TEST(test_native_vectors), TF_TEST(test_abit_ops), TF_TEST(test_row_shapes),
        TF_TEST(test_bool_ops), TF_TEST(test_bool_ch_maj), TF_TEST(test_bool_enforce_equal),
        TF_TEST(test_num), TF_TEST(test_multipack), TF_TEST(test_multieq), TF_TEST(test_u32),
        TF_TEST(test_sha256_blank), TF_TEST(test_sha256_block), TF_TEST(test_sha256_full))
