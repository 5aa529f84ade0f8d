/* cuzk: circuit gadgets that match bellpepper constraint for constraint.
 *
 * Filecoin's Groth16 parameters fix the position of every variable and
 * constraint, so these gadgets allocate the same variables and enforce the
 * same constraints (same coefficients, same order) as bellpepper-core's
 * boolean and num gadgets, bellpepper's uint32, multieq, multipack and
 * sha256 gadgets, storage-proofs-core's insertion, constraint, encode and
 * UInt64 gadgets and storage-proofs-update's SnapDeals gadgets.  Each
 * gadget runs in either mode of the cs (cs.h): values are always
 * computed, linear combinations only while recording.  A gadget never
 * fails by itself: allocation errors are sticky in the cs
 * (cz_cs_error), the only exceptions being an equality of two different
 * constants (cz_bool_enforce_equal) and a zero asserted non-zero
 * (cz_num_assert_nonzero).
 *
 * Bits are little-endian inside a cz_u32 or cz_u64 (bits[0] is the least
 * significant) and big-endian in byte-oriented bit strings (SHA-256 input
 * and output: the first bit is the most significant bit of the first
 * byte).
 */
#ifndef CUZK_GADGETS_H
#define CUZK_GADGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fr::CAPACITY of BLS12-381: bits a field element holds without overflow. */
#define CZ_FR_CAPACITY 254
/* Fr::NUM_BITS: bits of the modulus. */
#define CZ_FR_NUM_BITS 255

/* ------------------------------------------------------------ booleans --- */

/* An allocated bit: a variable constrained to 0 or 1, with its value. */
typedef struct {
    cz_var var;
    bool value;
} cz_abit;

typedef enum {
    CZ_BOOL_CONST = 0, /* the constant bit.value (bit.var unused) */
    CZ_BOOL_IS,        /* the allocated bit itself */
    CZ_BOOL_NOT,       /* its negation 1 - bit */
} cz_bool_kind;

/* bellpepper's Boolean. */
typedef struct {
    cz_abit bit;
    cz_bool_kind kind;
} cz_bool;

/* Allocates an aux with value v and enforces (1 - b) * b = 0
 * (AllocatedBit::alloc: 1 aux, 1 constraint). */
cz_abit cz_abit_alloc(cz_cs *cs, bool v);
/* Each allocates the result r and enforces one constraint:
 *   xor:     (2a) * b = a + b - r
 *   and:     a * b = r
 *   and_not: a * (1 - b) = r          (a and not b)
 *   nor:     (1 - a) * (1 - b) = r    (not a and not b) */
cz_abit cz_abit_xor(cz_cs *cs, cz_abit a, cz_abit b);
cz_abit cz_abit_and(cz_cs *cs, cz_abit a, cz_abit b);
cz_abit cz_abit_and_not(cz_cs *cs, cz_abit a, cz_abit b);
cz_abit cz_abit_nor(cz_cs *cs, cz_abit a, cz_abit b);

cz_bool cz_bool_const(bool v);
cz_bool cz_bool_is(cz_abit b);
/* Free negation: constants flip, IS <-> NOT. */
cz_bool cz_bool_not(cz_bool b);
bool cz_bool_value(cz_bool b);
bool cz_bool_is_const(cz_bool b);
/* Appends coeff * b to lc: coeff * ONE for true, nothing for false,
 * coeff * v for IS, coeff * ONE - coeff * v for NOT. */
void cz_bool_lc(cz_lc *lc, cz_bool b, const cz_fr *coeff);

/* Boolean::xor / and / or with bellpepper's constant folding: a constant
 * operand costs nothing; otherwise one AllocatedBit operation (xor of IS
 * and NOT is the negated xor of the two bits; and of IS/NOT is and_not,
 * of NOT/NOT nor; or is not(and(not a, not b))). */
cz_bool cz_bool_xor(cz_cs *cs, cz_bool a, cz_bool b);
cz_bool cz_bool_and(cz_cs *cs, cz_bool a, cz_bool b);
cz_bool cz_bool_or(cz_cs *cs, cz_bool a, cz_bool b);
/* SHA-256's ch = (a and b) xor (not a and c) and maj = (a and b) xor
 * (a and c) xor (b and c), each folding constants as bellpepper does and
 * otherwise costing 1 aux + 1 constraint (ch) or 2 aux + 2 constraints
 * (maj: the maj bit, then b and c, then the maj constraint). */
cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);
cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);

/* Boolean::enforce_equal: nothing for two constants (CZ_OK if equal,
 * CZ_ERR_UNSATISFIED if not, without touching the cs); otherwise one
 * constraint 0 * 0 = lc(a) - lc(b) (with a constant side as 1 or 0).
 * Returns CZ_OK. */
int cz_bool_enforce_equal(cz_cs *cs, cz_bool a, cz_bool b);

/* ------------------------------------------------------ allocated nums --- */

typedef struct {
    cz_var var;
    cz_fr value;
} cz_num;

/* AllocatedNum::alloc (1 aux) / alloc_input (1 input), no constraint. */
cz_num cz_num_alloc(cz_cs *cs, const cz_fr *value);
cz_num cz_num_alloc_input(cz_cs *cs, const cz_fr *value);
/* AllocatedNum::inputize: a new input x and x * 1 = n. */
void cz_num_inputize(cz_cs *cs, const cz_num *n);
/* AllocatedNum::to_bits_le (non-strict): 255 allocated bits of n's
 * canonical value, least significant first (255 constraints), then
 * 0 * 0 = sum 2^i b_i - n.  Writes the bits to out[0..255). */
void cz_num_to_bits_le(cz_cs *cs, const cz_num *n, cz_bool out[CZ_FR_NUM_BITS]);
/* storage-proofs-core's constraint::equal: a * 1 = b. */
void cz_num_enforce_equal(cz_cs *cs, const cz_num *a, const cz_num *b);

/* ------------------------------------------------------------ multipack --- */

/* multipack::pack_bits: the first min(n, 254) bits as
 * sum 2^i b_i, allocated as one aux p with (sum 2^i b_i) * 1 = p. */
cz_num cz_pack_bits(cz_cs *cs, const cz_bool *bits, size_t n);
/* multipack::pack_into_inputs: per chunk of 254 bits, one input x and
 * (sum 2^i b_i) * 1 = x. */
void cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, size_t n);
/* Native counterpart (compute_multipacking): writes ceil(n / 254) field
 * elements to out. */
void cz_multipack_native(cz_fr *out, const bool *bits, size_t n);

/* -------------------------------------------------------------- MultiEq --- */

/* bellpepper's MultiEq: equalities lhs = rhs of at most num_bits-bit
 * values, packed side by side into one constraint (sum 2^off lhs) * 1 =
 * (sum 2^off rhs) until the next would reach CZ_FR_CAPACITY bits, when the
 * packed one is enforced first.  cz_multieq_finish enforces what is left
 * (bellpepper does so on drop) and frees the combinations. */
typedef struct {
    cz_cs *cs;
    size_t bits_used;
    cz_lc lhs, rhs;
} cz_multieq;

void cz_multieq_init(cz_multieq *m, cz_cs *cs);
/* num_bits < CZ_FR_CAPACITY. */
void cz_multieq_enforce_equal(cz_multieq *m, size_t num_bits, const cz_lc *lhs, const cz_lc *rhs);
void cz_multieq_finish(cz_multieq *m);

/* --------------------------------------------------------------- UInt32 --- */

typedef struct {
    cz_bool bits[32]; /* least significant first */
    uint32_t value;
} cz_u32;

cz_u32 cz_u32_const(uint32_t v);
/* 32 allocated bits, least significant first (32 aux, 32 constraints). */
cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v);
/* From / to 32 bits, most significant first (free). */
cz_u32 cz_u32_from_bits_be(const cz_bool bits[32]);
void cz_u32_to_bits_be(const cz_u32 *x, cz_bool bits[32]);
/* Free rewirings: rotate right / shift right by `by` mod 32. */
cz_u32 cz_u32_rotr(const cz_u32 *x, unsigned by);
cz_u32 cz_u32_shr(const cz_u32 *x, unsigned by);
/* Bitwise, bit 0 first, through cz_bool_xor / _sha256_ch / _sha256_maj. */
cz_u32 cz_u32_xor(cz_cs *cs, const cz_u32 *a, const cz_u32 *b);
cz_u32 cz_u32_sha256_ch(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c);
cz_u32 cz_u32_sha256_maj(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c);
/* UInt32::addmany of n operands (2 <= n <= 10) mod 2^32: if every bit is constant,
 * the constant sum (free); otherwise the bit length L of n (2^32 - 1)
 * result bits are allocated (L constraints) and sum(operands) =
 * sum 2^i r_i is handed to m as an L-bit equality.  The low 32 bits are
 * the result. */
cz_u32 cz_u32_addmany(cz_multieq *m, const cz_u32 *ops, size_t n);

/* ------------------------------------------------------------ insertion --- */

/* storage-proofs-core's pick: allocates c = cond ? a : b (1 aux) and
 * enforces (b - a) * cond = b - c (1 constraint). */
cz_num cz_pick(cz_cs *cs, cz_bool cond, const cz_num *a, const cz_num *b);
/* select: from[n] with n = 2^nbits, bits least significant first; a tree
 * of n - 1 picks, most significant bit first.  CZ_ERR_INVALID_ARG for
 * nbits 0 or above 16, CZ_ERR_NOMEM. */
int cz_select(cz_cs *cs, const cz_num *from, const cz_bool *bits, unsigned nbits, cz_num *out);
/* insert: element placed after the n-th of the 2^nbits - 1 elements (n
 * given by bits, least significant first) into out[2^nbits]; insert_2 (2
 * constraints), insert_4 (8) and insert_8 (22: nor and and of bits 0, 1,
 * which must then be allocated and unnegated, else CZ_ERR_INVALID_ARG),
 * otherwise size (size - 1) constraints through select. */
int cz_insert(cz_cs *cs, const cz_num *element, const cz_bool *bits, unsigned nbits,
              const cz_num *elements, cz_num *out);

/* -------------------------------------------------------------- SHA-256 --- */

/* The compression function on a 512-bit block (bits big-endian per
 * 32-bit word) and a current state of 8 words; writes the new state.  One
 * MultiEq spans the whole call and is flushed at its end.  out may alias
 * state.  Uses about 40 KB of stack. */
void cz_sha256_compress_gadget(cz_cs *cs, const cz_bool block[512], const cz_u32 state[8],
                               cz_u32 out[8]);
/* SHA-256 of n bits (big-endian), padded with constants as FIPS 180-4
 * and compressed block by block from the constant IV; writes 256 bits
 * (big-endian) to out.  Returns CZ_OK, CZ_ERR_INVALID_ARG (n % 8 != 0) or
 * CZ_ERR_NOMEM (nothing was added to the cs then). */
int cz_sha256_gadget(cz_cs *cs, const cz_bool *bits, size_t n, cz_bool out[256]);
/* The constant IV as cz_u32 words. */
void cz_sha256_iv_gadget(cz_u32 iv[8]);

/* ------------------------------------------------ more bits and nums --- */

/* AllocatedBit::alloc_conditionally: allocates a with value v and enforces
 * (1 - must_be_false - a) * a = 0 (1 aux, 1 constraint): a boolean, and 0
 * whenever must_be_false is 1. */
cz_abit cz_abit_alloc_conditionally(cz_cs *cs, bool v, cz_abit must_be_false);

/* AllocatedNum::to_bits_le_strict: the 255 bits of n's canonical value,
 * least significant first, constrained to be below r.  Allocation runs
 * over the bits of r - 1 from the most significant: a one of r - 1 is an
 * alloc; where a run of zeros of r - 1 starts, the run's bits and the
 * previous run's result (last) are and-ed left to right into a new
 * result; a zero of r - 1 is an alloc_conditionally on that result.  Then
 * 0 * 0 = sum 2^i b_i - n.  For BLS12-381: 255 bits, 132 ands and the
 * unpacking, 388 constraints and 387 aux. */
void cz_num_to_bits_le_strict(cz_cs *cs, const cz_num *n, cz_bool out[CZ_FR_NUM_BITS]);
/* AllocatedNum::add / mul / square: allocate r and enforce (a + b) * 1 =
 * r, a * b = r, a * a = r (1 aux, 1 constraint each).  cz_num_add writes
 * the same rows as cz_constraint_add. */
cz_num cz_num_add(cz_cs *cs, const cz_num *a, const cz_num *b);
cz_num cz_num_mul(cz_cs *cs, const cz_num *a, const cz_num *b);
cz_num cz_num_square(cz_cs *cs, const cz_num *a);
/* AllocatedNum::assert_nonzero: allocates inv = 1 / a and enforces
 * a * inv = 1.  For a zero value inv is 0 (the shape is the same) and the
 * return is CZ_ERR_UNSATISFIED (bellpepper fails with DivisionByZero);
 * otherwise CZ_OK. */
int cz_num_assert_nonzero(cz_cs *cs, const cz_num *a);
/* AllocatedNum::conditionally_reverse: (c, d) = cond ? (b, a) : (a, b).
 * Allocates c and enforces (a - b) * cond = a - c, then allocates d and
 * enforces (b - a) * cond = b - d (2 aux, 2 constraints; cond may be a
 * constant or negated). */
void cz_num_conditionally_reverse(cz_cs *cs, const cz_num *a, const cz_num *b, cz_bool cond,
                                  cz_num *c, cz_num *d);

/* ---------------------------------- storage-proofs-core constraint.rs --- */

/* sum: (a + b) * 1 = sum.  difference: (diff + b) * 1 = a.  1 constraint
 * each, nothing allocated. */
void cz_constraint_sum(cz_cs *cs, const cz_num *a, const cz_num *b, const cz_num *sum);
void cz_constraint_difference(cz_cs *cs, const cz_num *a, const cz_num *b, const cz_num *diff);
/* add: allocates r = a + b, then sum(a, b, r).  sub: allocates r = a - b,
 * then difference(a, b, r).  1 aux, 1 constraint each. */
cz_num cz_constraint_add(cz_cs *cs, const cz_num *a, const cz_num *b);
cz_num cz_constraint_sub(cz_cs *cs, const cz_num *a, const cz_num *b);

/* encode.rs: encode = add(key, value) (key + value), decode =
 * sub(value, key) (value - key); with the native counterparts of
 * storage-proofs-porep's encode / decode. */
cz_num cz_encode(cz_cs *cs, const cz_num *key, const cz_num *value);
cz_num cz_decode(cz_cs *cs, const cz_num *key, const cz_num *value);
void cz_encode_native(cz_fr *out, const cz_fr *key, const cz_fr *value);
void cz_decode_native(cz_fr *out, const cz_fr *key, const cz_fr *value);

/* --------------------------------------------------------------- UInt64 --- */

/* storage-proofs-core's UInt64. */
typedef struct {
    cz_bool bits[64]; /* least significant first */
    uint64_t value;
} cz_u64;

cz_u64 cz_u64_const(uint64_t v);
/* 64 allocated bits, least significant first (64 aux, 64 constraints). */
cz_u64 cz_u64_alloc(cz_cs *cs, uint64_t v);
/* UInt64::from_bits / from_bits_be / to_bits_le / to_bits_be: from / to
 * 64 bits, least (le) or most (be) significant first; the value is read
 * from the bits (free). */
cz_u64 cz_u64_from_bits_le(const cz_bool bits[64]);
cz_u64 cz_u64_from_bits_be(const cz_bool bits[64]);
void cz_u64_to_bits_le(const cz_u64 *x, cz_bool bits[64]);
void cz_u64_to_bits_be(const cz_u64 *x, cz_bool bits[64]);
/* UInt64::pack_into_input: cz_pack_into_inputs of the 64 bits (1 input of
 * value x, 1 constraint). */
void cz_u64_pack_into_input(cz_cs *cs, const cz_u64 *x);

/* storage-proofs-core util::reverse_bit_numbering: pads in[0..n) with
 * constant false bits to a multiple of 8 and reverses the bits of each
 * byte (free).  Writes that many (returned) to out, which must not alias
 * in. */
size_t cz_reverse_bit_numbering(const cz_bool *in, size_t n, cz_bool *out);

/* ------------------------------------- storage-proofs-update (SnapDeals) --- */

/* allocated_num_to_allocated_bits: 255 allocated bits of n's canonical
 * value, least significant first (255 constraints), then
 * (sum 2^i b_i) * 1 = n ("binary decomp"; 256 constraints in all). */
void cz_snap_num_to_bits(cz_cs *cs, const cz_num *n, cz_abit out[CZ_FR_NUM_BITS]);
/* get_challenge_high_bits: for each k < n_hs, c_high_k = pack_bits of the
 * hs[k] most significant of the bit_len challenge bits (least significant
 * first), then z_k = c_high_k * h_select[k] allocated and enforced
 * (c_high_k * sel_k = z_k); finally out = sum z_k allocated with
 * (sum z_k) * 1 = out.  2 n_hs + 1 constraints and aux.  h_select must
 * have exactly one bit set for out to be the selected c_high (not checked
 * here, as in rust-fil-proofs).  Returns CZ_OK, or CZ_ERR_INVALID_ARG
 * (NULL, n_hs 0 or above 64, some hs[k] 0, above bit_len or above 64). */
int cz_snap_challenge_high_bits(cz_cs *cs, const cz_abit *c_bits, size_t bit_len,
                                const cz_abit *h_select, const size_t *hs, size_t n_hs,
                                cz_num *out);
/* label_r_new = label_r_old + label_d_new * rho: cz_num_mul, then the rows
 * of cz_constraint_add (2 aux, 2 constraints); with its native
 * counterpart. */
cz_num cz_snap_label_r_new(cz_cs *cs, const cz_num *label_r_old, const cz_num *label_d_new,
                           const cz_num *rho);
void cz_snap_label_r_new_native(cz_fr *out, const cz_fr *label_r_old, const cz_fr *label_d_new,
                                const cz_fr *rho);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_GADGETS_H */
