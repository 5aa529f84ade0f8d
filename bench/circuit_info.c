/* cuzk-bench circuit-info: the shape and a fingerprint of a gadget or
 * circuit, so that two implementations (ours, bellperson's) can be compared
 * without comparing files.
 *
 *   cuzk-bench circuit-info poseidon-A        A in 2, 4, 8, 11, 16 (neptune's
 *                                             legacy circuit on A aux inputs)
 *   cuzk-bench circuit-info sha256-compress   one compression, variable
 *                                             512-bit block, constant IV
 *   cuzk-bench circuit-info sha256-N          SHA-256 of N variable bits
 *                                             (N % 8 == 0, padding included)
 *   cuzk-bench circuit-info synthetic-L       the built-in synthetic circuit
 *                                             of 2^L rows
 *   cuzk-bench circuit-info insert-N          storage-proofs-core insert of an
 *                                             element among N - 1 (N = 2^k,
 *                                             k = 1..8; index bits allocated)
 *   cuzk-bench circuit-info select-N          select one of N (N = 2^k, k =
 *                                             1..16; index bits allocated)
 *   cuzk-bench circuit-info to-bits           AllocatedNum::to_bits_le
 *   cuzk-bench circuit-info to-bits-strict    AllocatedNum::to_bits_le_strict
 *   cuzk-bench circuit-info uint64-input      UInt64 alloc + pack_into_input
 *                                             (the PoRep challenge)
 *   cuzk-bench circuit-info encode            encode(key, value)
 *
 * Prints inputs (ONE included), aux, constraints (written by the circuit
 * and in all, with the input constraints cz_cs_finish appends), the
 * non-zero entries of A, B and C, the popcounts of the density bitmaps and
 * the digest: SHA-256 over, in order, the u64 LE counts (inputs, aux, rows),
 * then for A, B, C and each row in order the u64 LE entry count and per
 * entry the u32 LE column and the 32-byte canonical LE coefficient.  Gadget
 * variables are allocated with value zero (shape only); the SHA-256 inputs
 * are allocated bits, so their counts include one constraint per input bit
 * (bellpepper's 25,840 and 44,874 count the gadget alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/poseidon.h"
#include "cuzk/sha256.h"
#include "cuzk/synthetic.h"

/* Coefficient of entry k of row r (general ones consumed in order). */
static void entry_coef(cz_fr *out, const cz_csr *m, uint32_t e, size_t *gen)
{
    switch (CZ_CSR_KIND(e)) {
    case CZ_CSR_ONE:
        *out = CZ_FR_ONE;
        break;
    case CZ_CSR_NEG:
        cz_fr_neg(out, &CZ_FR_ONE);
        break;
    default:
        *out = m->coef[(*gen)++];
    }
}

static void digest(uint8_t out[32], const cz_r1cs *r)
{
    cz_sha256_ctx s;
    cz_sha256_init(&s);
    size_t rows = cz_r1cs_num_constraints(r);
    cz_sha256_update_u64(&s, cz_r1cs_num_inputs(r));
    cz_sha256_update_u64(&s, cz_r1cs_num_aux(r));
    cz_sha256_update_u64(&s, rows);
    for (int mi = 0; mi < 3; mi++) {
        const cz_csr *m = cz_r1cs_matrix(r, mi);
        for (size_t row = 0; row < rows; row++) {
            size_t gen = m->coef_blk[row / CZ_CSR_BLOCK];
            /* general coefficients of earlier rows of the block */
            for (size_t q = row / CZ_CSR_BLOCK * CZ_CSR_BLOCK; q < row; q++)
                for (uint64_t k = m->row_ptr[q]; k < m->row_ptr[q + 1]; k++)
                    gen += CZ_CSR_KIND(m->col[k]) == CZ_CSR_GEN;
            cz_sha256_update_u64(&s, m->row_ptr[row + 1] - m->row_ptr[row]);
            for (uint64_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++) {
                uint32_t e = m->col[k], col = e & CZ_CSR_COL_MASK;
                uint8_t le[4] = {(uint8_t)col, (uint8_t)(col >> 8), (uint8_t)(col >> 16),
                                 (uint8_t)(col >> 24)};
                cz_fr c;
                uint8_t cb[32];
                entry_coef(&c, m, e, &gen);
                cz_fr_to_bytes_le(cb, &c);
                cz_sha256_update(&s, le, 4);
                cz_sha256_update(&s, cb, 32);
            }
        }
    }
    cz_sha256_final(&s, out);
}

/* insert (or select) over N zero-valued aux nums: the element and N - 1
 * others (or N), then log2 N allocated index bits (*pre constraints). */
static int build_insertion(cz_cs *cs, bool insert, unsigned n, size_t *pre)
{
    unsigned k = 0;
    while (k < 17 && (1u << k) < n)
        k++;
    if (k == 0 || k > (insert ? 8u : 16u) || (1u << k) != n) {
        fprintf(stderr, "circuit-info: %s-N needs N = 2^k, k = 1..%u\n",
                insert ? "insert" : "select", insert ? 8u : 16u);
        return -1;
    }
    cz_num *el = malloc((size_t)n * sizeof *el), *out = malloc((size_t)n * sizeof *out);
    int rc = -1;
    if (el && out) {
        cz_bool bits[16];
        for (unsigned i = 0; i < n; i++)
            el[i] = cz_num_alloc(cs, &CZ_FR_ZERO);
        for (unsigned i = 0; i < k; i++)
            bits[i] = cz_bool_is(cz_abit_alloc(cs, false));
        *pre = k;
        rc = insert ? cz_insert(cs, &el[n - 1], bits, k, el, out) : cz_select(cs, el, bits, k, out);
        rc = rc == CZ_OK ? 0 : -1;
    }
    free(el);
    free(out);
    return rc;
}

/* Builds the named circuit into cs (recording); *pre = constraints spent
 * allocating its inputs.  0, or -1 for an unknown name (message printed). */
static int build(cz_cs *cs, const char *name, size_t *pre)
{
    *pre = 0;
    unsigned v;
    char tail;
    if (sscanf(name, "poseidon-%u%c", &v, &tail) == 1) {
        cz_var in[16], out;
        if (v > 16 || !cz_poseidon_params_get(v)) {
            fprintf(stderr, "circuit-info: Poseidon arity must be 2, 4, 8, 11 or 16\n");
            return -1;
        }
        for (unsigned i = 0; i < v; i++)
            in[i] = cz_cs_alloc_aux(cs, NULL);
        return cz_poseidon_circuit(cs, in, v, &out) == CZ_OK ? 0 : -1;
    }
    if (!strcmp(name, "sha256-compress")) {
        cz_bool block[512];
        cz_u32 iv[8], out[8];
        for (int i = 0; i < 512; i++)
            block[i] = cz_bool_is(cz_abit_alloc(cs, false));
        *pre = 512;
        cz_sha256_iv_gadget(iv);
        cz_sha256_compress_gadget(cs, block, iv, out);
        return 0;
    }
    if (sscanf(name, "sha256-%u%c", &v, &tail) == 1) {
        if (v % 8 || v > (1u << 20)) {
            fprintf(stderr, "circuit-info: sha256-N needs N a multiple of 8, at most 2^20\n");
            return -1;
        }
        cz_bool *bits = malloc((v ? v : 1) * sizeof *bits), out[256];
        if (!bits)
            return -1;
        for (unsigned i = 0; i < v; i++)
            bits[i] = cz_bool_is(cz_abit_alloc(cs, false));
        *pre = v;
        int rc = cz_sha256_gadget(cs, bits, v, out);
        free(bits);
        return rc == CZ_OK ? 0 : -1;
    }
    if (sscanf(name, "insert-%u%c", &v, &tail) == 1 || sscanf(name, "select-%u%c", &v, &tail) == 1)
        return build_insertion(cs, name[0] == 'i', v, pre);
    if (!strcmp(name, "to-bits") || !strcmp(name, "to-bits-strict")) {
        cz_num n = cz_num_alloc(cs, &CZ_FR_ZERO);
        cz_bool bits[CZ_FR_NUM_BITS];
        if (name[7] == '-')
            cz_num_to_bits_le_strict(cs, &n, bits);
        else
            cz_num_to_bits_le(cs, &n, bits);
        return 0;
    }
    if (!strcmp(name, "uint64-input")) {
        cz_u64 x = cz_u64_alloc(cs, 0);
        cz_u64_pack_into_input(cs, &x);
        return 0;
    }
    if (!strcmp(name, "encode")) {
        cz_num key = cz_num_alloc(cs, &CZ_FR_ZERO), value = cz_num_alloc(cs, &CZ_FR_ZERO);
        (void)cz_encode(cs, &key, &value);
        return 0;
    }
    if (sscanf(name, "synthetic-%u%c", &v, &tail) == 1) {
        char err[128];
        cz_synthetic s = {v, 2, 1};
        if (cz_synthetic_check(&s, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "circuit-info: %s\n", err);
            return -1;
        }
        return cz_synthetic_synthesize(cs, &s, 0) == CZ_OK ? 0 : -1;
    }
    fprintf(stderr,
            "circuit-info: unknown circuit %s (poseidon-A, sha256-compress, sha256-N, "
            "synthetic-L, insert-N, select-N, to-bits, to-bits-strict, uint64-input, encode)\n",
            name);
    return -1;
}

int cz_bench_circuit_info(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cuzk-bench circuit-info poseidon-A | sha256-compress | sha256-N | "
                        "synthetic-L | insert-N | select-N | to-bits | to-bits-strict | "
                        "uint64-input | encode\n");
        return 2;
    }
    cz_cs *cs;
    cz_r1cs *r = NULL;
    if (cz_cs_new(&cs, CZ_CS_RECORD, 0) != CZ_OK) {
        fprintf(stderr, "circuit-info: out of memory\n");
        return 1;
    }
    size_t pre;
    int rc = build(cs, argv[1], &pre);
    if (!rc && cz_cs_error(cs) != CZ_OK) {
        fprintf(stderr, "circuit-info: %s: %s\n", argv[1], cz_strerror(cz_cs_error(cs)));
        rc = -1;
    }
    if (!rc && cz_cs_finish(cs, &r) != CZ_OK) {
        fprintf(stderr, "circuit-info: %s: recording failed\n", argv[1]);
        rc = -1;
    }
    cz_cs_free(cs);
    if (rc)
        return 1;
    size_t da, dbi, dba;
    cz_r1cs_density(r, CZ_DENSITY_A_AUX, &da);
    cz_r1cs_density(r, CZ_DENSITY_B_INPUT, &dbi);
    cz_r1cs_density(r, CZ_DENSITY_B_AUX, &dba);
    uint8_t d[32];
    digest(d, r);
    printf("circuit      %s\n", argv[1]);
    printf("inputs       %zu (ONE included)\naux          %zu\n", cz_r1cs_num_inputs(r),
           cz_r1cs_num_aux(r));
    printf("constraints  %zu (+ %zu input constraints = %zu rows)\n",
           cz_r1cs_num_circuit_constraints(r), cz_r1cs_num_inputs(r), cz_r1cs_num_constraints(r));
    if (pre)
        printf("gadget       %zu constraints (%zu allocate the input bits)\n",
               cz_r1cs_num_circuit_constraints(r) - pre, pre);
    printf("nonzeros     A %llu  B %llu  C %llu\n",
           (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_A)->nnz,
           (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_B)->nnz,
           (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_C)->nnz);
    printf("densities    A aux %zu  B inputs %zu  B aux %zu\n", da, dbi, dba);
    printf("digest       ");
    for (int i = 0; i < 32; i++)
        printf("%02x", d[i]);
    printf("\n");
    cz_r1cs_free(r);
    return 0;
}
