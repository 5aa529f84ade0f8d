/* The synthetic circuit family of include/cuzk/synthetic.h: rounds of
 * bellperson-style bit gadgets, packings and a few field products. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "cuzk/synthetic.h"

/* One round: KEYS key bits (1 row, 1 aux each), LANES x STEPS bit
 * operations (1 row, 1 aux each), 3 packings (1 row, 1 aux each), the
 * select (1 row; r and out) and the product (1 row; z). */
#define KEYS       15
#define LANES      4
#define STEPS      11
#define LANE_START 11 /* lane j starts at key bit LANE_START + j */
#define SEL_KEY    7  /* the select's condition */
#define ROUND_ROWS (KEYS + LANES * STEPS + 3 + 1 + 1)
#define ROUND_AUX  (ROUND_ROWS + 1)
#define CHAIN      5 /* rounds per chain of products */
#define PUB_ROUNDS 4 /* a public input packs the keys of 4 rounds */
#define PUB_BITS   (PUB_ROUNDS * KEYS)

_Static_assert(ROUND_ROWS == 64, "a round is 64 rows");
_Static_assert(PUB_BITS < 64, "a public input packs into a u64");
_Static_assert(KEYS - 1 >= LANE_START + LANES - 1 && SEL_KEY < KEYS, "key layout");
_Static_assert(((1u << CZ_SYNTHETIC_MIN_LOG) - 1 - 2 * CZ_SYNTHETIC_MAX_PUBLIC) / ROUND_ROWS >=
                   PUB_ROUNDS,
               "every shape has PUB_ROUNDS rounds");

/* Entries of a round per matrix (nnz, general coefficients), counted from
 * the gadgets below; the product row's z' may be absent (upper bounds).
 *   A: keys 2*15, ops 44, p0 15, p1 1, p2 24, select 2, product 4
 *   B: keys 15, ops 44 + 8 and-not, p0..p2 3, select 1, product 2
 *   C: ops 6*3*4 xor + 5*4 others, p0 1, p1 22, p2 1, select 2, product 1
 *   general: A 24 xor + 14 + 23 + 1, B 1, C 21 */
static const uint64_t ROUND_NNZ[3] = {120, 73, 119}, ROUND_GEN[3] = {62, 1, 21};

/* Distinct general coefficients per matrix (cz_csr's dictionaries): the
 * mix's round constants c (A) and c' (B), one per round, and the fixed
 * ones: in A the powers 2^1 .. 2^(PUB_BITS - 1) of the packings (the xor's
 * 2 among them), in C the powers 2^1 .. 2^(2 STEPS - 1) of p1's packing. */
static const uint64_t ROUND_DICT[3] = {1, 1, 0}, FIXED_DICT[3] = {PUB_BITS - 1, 0, 2 * STEPS - 1};

typedef enum { OP_XOR, OP_AND, OP_ANDNOT } bit_op_kind;

/* Lane step t: xor, and, xor, and-not, repeated (per lane of 11: 6 xor,
 * 3 and, 2 and-not). */
static bit_op_kind step_op(unsigned t)
{
    static const bit_op_kind ops[4] = {OP_XOR, OP_AND, OP_XOR, OP_ANDNOT};
    return ops[t % 4];
}

typedef struct {
    cz_var v;
    unsigned x; /* 0 or 1 */
} bit;

typedef struct {
    bit key[KEYS];
    bit lane[LANES * STEPS]; /* lane j step t at j * STEPS + t */
    cz_var z;
    cz_fr zx;
} round_state;

typedef struct {
    cz_cs *cs;
    bool rec;
    cz_prng g;
    cz_lc a, b, c;
    cz_fr pow2[64];
} syn;

/* Row counts of a shape: rounds, public rows, tail rows; rows total
 * 2^log_rows - (1 + n_public) circuit rows. */
typedef struct {
    uint64_t rounds, tail;
} layout;

static layout get_layout(const cz_synthetic *s)
{
    uint64_t circ = ((uint64_t)1 << s->log_rows) - 1 - 2 * (uint64_t)s->n_public;
    layout l = {circ / ROUND_ROWS, circ % ROUND_ROWS};
    return l;
}

/* Tail: the first tail_keys rows are key bits, the rest xor steps (at
 * least as many, so that each key is used). */
static uint64_t tail_keys(uint64_t tail) { return tail / 4; }

int cz_synthetic_check(const cz_synthetic *s, char *err, size_t errlen)
{
    if (errlen)
        err[0] = 0;
    if (s == NULL) {
        if (errlen)
            snprintf(err, errlen, "synthetic circuit: no parameters");
        return CZ_ERR_INVALID_ARG;
    }
    if (s->log_rows < CZ_SYNTHETIC_MIN_LOG || s->log_rows > CZ_SYNTHETIC_MAX_LOG) {
        if (errlen)
            snprintf(err, errlen, "synthetic circuit: log_rows %u is not in %u..%u", s->log_rows,
                     CZ_SYNTHETIC_MIN_LOG, CZ_SYNTHETIC_MAX_LOG);
        return CZ_ERR_INVALID_ARG;
    }
    if (s->n_public > CZ_SYNTHETIC_MAX_PUBLIC) {
        if (errlen)
            snprintf(err, errlen, "synthetic circuit: n_public %u is more than %u", s->n_public,
                     CZ_SYNTHETIC_MAX_PUBLIC);
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

size_t cz_synthetic_num_aux(const cz_synthetic *s)
{
    if (cz_synthetic_check(s, NULL, 0) != CZ_OK)
        return 0;
    layout l = get_layout(s);
    return (size_t)(l.rounds * ROUND_AUX + l.tail);
}

uint64_t cz_synthetic_r1cs_bytes(const cz_synthetic *s)
{
    if (cz_synthetic_check(s, NULL, 0) != CZ_OK)
        return 0;
    layout l = get_layout(s);
    uint64_t rows = (uint64_t)1 << s->log_rows, n_in = 1 + (uint64_t)s->n_public;
    uint64_t n_aux = l.rounds * ROUND_AUX + l.tail;
    /* public rows: A PUB_BITS (all but one general), B 1, C 1; input rows:
     * A 1; tail rows: at most A 2 (1 general), B 1, C 3 */
    const uint64_t pub_nnz[3] = {PUB_BITS, 1, 1}, pub_gen[3] = {PUB_BITS - 1, 0, 0};
    const uint64_t tail_nnz[3] = {2, 1, 3}, tail_gen[3] = {1, 0, 0};
    uint64_t b = 0;
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = l.rounds * ROUND_NNZ[k] + s->n_public * pub_nnz[k] + l.tail * tail_nnz[k] +
                       (k == 0 ? n_in : 0);
        uint64_t gen = l.rounds * ROUND_GEN[k] + s->n_public * pub_gen[k] + l.tail * tail_gen[k];
        uint64_t dict = l.rounds * ROUND_DICT[k] + FIXED_DICT[k];
        /* cz_csr: row_blk, coef_blk; row_off, col, gidx; dict */
        b += 2 * (rows / 64 + 1) * 8 + (rows + 1 + nnz + gen) * 4 + dict * sizeof(cz_fr);
    }
    b += (2 * ((n_aux + 63) / 64) + (n_in + 63) / 64) * 8;
    /* namespaces: one entry per circuit row, a handful of short names;
     * plus the cz_r1cs header */
    return b + 4 * rows + 1024;
}

/* ----------------------------------------------------------- gadgets --- */

static void clear3(syn *S)
{
    cz_lc_clear(&S->a);
    cz_lc_clear(&S->b);
    cz_lc_clear(&S->c);
}

static const cz_fr *bit_val(unsigned x) { return x ? &CZ_FR_ONE : &CZ_FR_ZERO; }

/* A key bit: allocated, then (1 - k) * k = 0. */
static bit key_bit(syn *S, unsigned x)
{
    bit k = {cz_cs_alloc_aux(S->cs, bit_val(x)), x};
    if (S->rec) {
        clear3(S);
        cz_lc_add(&S->a, CZ_CS_ONE);
        cz_lc_sub(&S->a, k.v);
        cz_lc_add(&S->b, k.v);
        cz_cs_enforce(S->cs, &S->a, &S->b, NULL);
    }
    return k;
}

/* o = s op k, as bellperson's AllocatedBit xor / and / and_not. */
static bit bit_op(syn *S, bit_op_kind op, bit s, bit k)
{
    unsigned x = op == OP_XOR ? s.x ^ k.x : op == OP_AND ? s.x & k.x : s.x & (k.x ^ 1);
    bit o = {cz_cs_alloc_aux(S->cs, bit_val(x)), x};
    if (!S->rec)
        return o;
    clear3(S);
    switch (op) {
    case OP_XOR: /* (2s) * k = s + k - o */
        cz_lc_add(&S->a, s.v);
        cz_lc_add(&S->a, s.v);
        cz_lc_add(&S->b, k.v);
        cz_lc_add(&S->c, s.v);
        cz_lc_add(&S->c, k.v);
        cz_lc_sub(&S->c, o.v);
        break;
    case OP_AND: /* s * k = o */
        cz_lc_add(&S->a, s.v);
        cz_lc_add(&S->b, k.v);
        cz_lc_add(&S->c, o.v);
        break;
    case OP_ANDNOT: /* s * (1 - k) = o */
        cz_lc_add(&S->a, s.v);
        cz_lc_add(&S->b, CZ_CS_ONE);
        cz_lc_sub(&S->b, k.v);
        cz_lc_add(&S->c, o.v);
        break;
    }
    cz_cs_enforce(S->cs, &S->a, &S->b, &S->c);
    return o;
}

/* Appends sum 2^(shift + i) bits[i] to lc (recording only). */
static void add_bits(syn *S, cz_lc *lc, const bit *bits, unsigned n, unsigned shift)
{
    for (unsigned i = 0; i < n; i++)
        cz_lc_add_term(lc, bits[i].v, &S->pow2[shift + i]);
}

static uint64_t bits_value(const bit *bits, unsigned n, unsigned shift)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)bits[i].x << (shift + i);
    return v;
}

/* Per-round constant `which` of round r: a fixed 254-bit pseudo-random
 * value (splitmix64 stream; below the modulus since the top limb has 62
 * bits).  Part of the shape, not of the witness. */
static void round_const(cz_fr *c, uint64_t r, unsigned which)
{
    uint64_t x = 0x5eed5eed00000000ULL ^ (2 * r + which), w[4];
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        w[i] = z ^ (z >> 31);
    }
    w[3] >>= 2;
    cz_fr_from_canonical(c, w);
}

/* One round (ROUND_ROWS rows, ROUND_AUX aux); prev is the previous round
 * of the same chain or NULL. */
static void run_round(syn *S, uint64_t r, round_state *R, const round_state *prev)
{
    cz_cs *cs = S->cs;
    cz_cs_push_ns(cs, "round");

    cz_cs_push_ns(cs, "keys");
    uint64_t w = cz_prng_next(&S->g);
    for (unsigned i = 0; i < KEYS; i++)
        R->key[i] = key_bit(S, (unsigned)(w >> i) & 1);
    cz_cs_pop_ns(cs);

    cz_cs_push_ns(cs, "lanes");
    for (unsigned j = 0; j < LANES; j++) {
        bit s = R->key[LANE_START + j];
        for (unsigned t = 0; t < STEPS; t++)
            R->lane[j * STEPS + t] = s = bit_op(S, step_op(t), s, R->key[(3 * j + t) % LANE_START]);
    }
    cz_cs_pop_ns(cs);

    /* p0 = keys (bits in A), p1 = lanes 0, 1 (bits in C), p2 = lanes 2, 3
     * and the last bits of lanes 0, 1 (bits in A) */
    cz_cs_push_ns(cs, "pack");
    bit fin[2] = {R->lane[STEPS - 1], R->lane[2 * STEPS - 1]};
    uint64_t v0 = bits_value(R->key, KEYS, 0);
    uint64_t v1 = bits_value(R->lane, 2 * STEPS, 0);
    uint64_t v2 = bits_value(R->lane + 2 * STEPS, 2 * STEPS, 0) | bits_value(fin, 2, 2 * STEPS);
    cz_fr p0x, p1x, p2x;
    cz_fr_from_u64(&p0x, v0);
    cz_fr_from_u64(&p1x, v1);
    cz_fr_from_u64(&p2x, v2);
    cz_var p0 = cz_cs_alloc_aux(cs, &p0x);
    cz_var p1 = cz_cs_alloc_aux(cs, &p1x);
    cz_var p2 = cz_cs_alloc_aux(cs, &p2x);
    if (S->rec) {
        clear3(S);
        add_bits(S, &S->a, R->key, KEYS, 0);
        cz_lc_add(&S->b, CZ_CS_ONE);
        cz_lc_add(&S->c, p0);
        cz_cs_enforce(cs, &S->a, &S->b, &S->c);
        clear3(S);
        cz_lc_add(&S->a, p1);
        cz_lc_add(&S->b, CZ_CS_ONE);
        add_bits(S, &S->c, R->lane, 2 * STEPS, 0);
        cz_cs_enforce(cs, &S->a, &S->b, &S->c);
        clear3(S);
        add_bits(S, &S->a, R->lane + 2 * STEPS, 2 * STEPS, 0);
        add_bits(S, &S->a, fin, 2, 2 * STEPS);
        cz_lc_add(&S->b, CZ_CS_ONE);
        cz_lc_add(&S->c, p2);
        cz_cs_enforce(cs, &S->a, &S->b, &S->c);
    }
    cz_cs_pop_ns(cs);

    /* out = k ? r : p1 as (r - p1) * k = out - p1;
     * z = (out + c p0 + p2 + z') * (r + c') */
    cz_cs_push_ns(cs, "mix");
    cz_fr rx, outx, c0, c1, t, u;
    cz_fr_random(&rx, &S->g);
    outx = R->key[SEL_KEY].x ? rx : p1x;
    round_const(&c0, r, 0);
    round_const(&c1, r, 1);
    cz_fr_mul(&t, &c0, &p0x);
    cz_fr_add(&t, &t, &outx);
    cz_fr_add(&t, &t, &p2x);
    if (prev)
        cz_fr_add(&t, &t, &prev->zx);
    cz_fr_add(&u, &rx, &c1);
    cz_fr_mul(&R->zx, &t, &u);
    cz_var rv = cz_cs_alloc_aux(cs, &rx);
    cz_var out = cz_cs_alloc_aux(cs, &outx);
    R->z = cz_cs_alloc_aux(cs, &R->zx);
    if (S->rec) {
        clear3(S);
        cz_lc_add(&S->a, rv);
        cz_lc_sub(&S->a, p1);
        cz_lc_add(&S->b, R->key[SEL_KEY].v);
        cz_lc_add(&S->c, out);
        cz_lc_sub(&S->c, p1);
        cz_cs_enforce(cs, &S->a, &S->b, &S->c);
        clear3(S);
        cz_lc_add(&S->a, out);
        cz_lc_add_term(&S->a, p0, &c0);
        cz_lc_add(&S->a, p2);
        if (prev)
            cz_lc_add(&S->a, prev->z);
        cz_lc_add(&S->b, rv);
        cz_lc_add_const(&S->b, &c1);
        cz_lc_add(&S->c, R->z);
        cz_cs_enforce(cs, &S->a, &S->b, &S->c);
    }
    cz_cs_pop_ns(cs);
    cz_cs_pop_ns(cs);
}

/* Public input i: x_i = sum_j 2^((j + i) mod PUB_BITS) bit_j over the key
 * bits of rounds R[0..PUB_ROUNDS), enforced as (bits) * 1 = x_i. */
static void run_public(syn *S, uint32_t i, const round_state *const R[PUB_ROUNDS])
{
    bit all[PUB_BITS];
    for (unsigned q = 0; q < PUB_ROUNDS; q++)
        memcpy(all + q * KEYS, R[q]->key, sizeof R[q]->key);
    uint64_t v = 0;
    for (unsigned j = 0; j < PUB_BITS; j++)
        v |= (uint64_t)all[j].x << ((j + i) % PUB_BITS);
    cz_fr x;
    cz_fr_from_u64(&x, v);
    cz_var in = cz_cs_alloc_input(S->cs, &x);
    if (!S->rec)
        return;
    cz_cs_push_ns(S->cs, "public");
    clear3(S);
    for (unsigned j = 0; j < PUB_BITS; j++)
        cz_lc_add_term(&S->a, all[j].v, &S->pow2[(j + i) % PUB_BITS]);
    cz_lc_add(&S->b, CZ_CS_ONE);
    cz_lc_add(&S->c, in);
    cz_cs_enforce(S->cs, &S->a, &S->b, &S->c);
    cz_cs_pop_ns(S->cs);
}

/* The tail's n rows: tail_keys(n) key bits, then xor steps from the last
 * lane bit of R over those keys (over R's keys when there are none).  Xor
 * rows catch a change of any of their three bits, so the tail is as
 * tightly constrained as the rounds. */
static void run_tail(syn *S, uint64_t n, const round_state *R)
{
    uint64_t nk = tail_keys(n);
    bit keys[ROUND_ROWS / 4];
    cz_cs_push_ns(S->cs, "tail");
    uint64_t w = cz_prng_next(&S->g);
    for (uint64_t i = 0; i < nk; i++)
        keys[i] = key_bit(S, (unsigned)(w >> i) & 1);
    bit s = R->lane[LANES * STEPS - 1];
    for (uint64_t t = 0; t + nk < n; t++)
        s = bit_op(S, OP_XOR, s, nk ? keys[t % nk] : R->key[t]);
    cz_cs_pop_ns(S->cs);
}

int cz_synthetic_synthesize(cz_cs *cs, const cz_synthetic *s, uint32_t partition)
{
    if (cs == NULL || cz_synthetic_check(s, NULL, 0) != CZ_OK || cz_cs_num_inputs(cs) != 1 ||
        cz_cs_num_aux(cs) != 0 || cz_cs_num_constraints(cs) != 0)
        return CZ_ERR_INVALID_ARG;
    syn S;
    S.cs = cs;
    S.rec = cz_cs_is_recording(cs);
    /* an independent stream per (seed, partition) */
    cz_prng_seed(&S.g, s->seed);
    cz_prng_seed(&S.g, cz_prng_next(&S.g) ^ ((uint64_t)partition * 0x9e3779b97f4a7c15ULL));
    cz_lc_init(&S.a);
    cz_lc_init(&S.b);
    cz_lc_init(&S.c);
    for (unsigned i = 0; i < 64; i++)
        cz_fr_from_u64(&S.pow2[i], (uint64_t)1 << i);

    layout l = get_layout(s);
    round_state R[PUB_ROUNDS]; /* the last rounds, round r in R[r % PUB_ROUNDS] */
    uint32_t next_pub = 0;
    for (uint64_t r = 0; r < l.rounds && cz_cs_error(cs) == CZ_OK; r++) {
        round_state *cur = &R[r % PUB_ROUNDS];
        run_round(&S, r, cur, r % CHAIN ? &R[(r - 1) % PUB_ROUNDS] : NULL);
        /* public i follows round PUB_ROUNDS - 1 + i * (rounds - PUB_ROUNDS +
         * 1) / n_public and packs the keys of the last PUB_ROUNDS rounds */
        for (; next_pub < s->n_public &&
               PUB_ROUNDS - 1 + (uint64_t)next_pub * (l.rounds - PUB_ROUNDS + 1) / s->n_public == r;
             next_pub++) {
            const round_state *last[PUB_ROUNDS];
            for (unsigned q = 0; q < PUB_ROUNDS; q++)
                last[q] = &R[(r - q) % PUB_ROUNDS];
            run_public(&S, next_pub, last);
        }
    }
    if (l.tail && cz_cs_error(cs) == CZ_OK)
        run_tail(&S, l.tail, &R[(l.rounds - 1) % PUB_ROUNDS]);
    cz_lc_free(&S.a);
    cz_lc_free(&S.b);
    cz_lc_free(&S.c);
    return cz_cs_error(cs);
}
