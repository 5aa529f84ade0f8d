/* cuzk-bench circuit-info: the shape and a fingerprint of a gadget or
 * circuit, so that two implementations (ours, bellperson's) can be compared
 * without comparing files.
 *
 *   cuzk-bench circuit-info [--count] NAME [--count]
 *
 * records NAME and fingerprints the R1CS (cz_r1cs_fingerprint_of), or with
 * --count runs it in CZ_CS_COUNT mode (cz_cs_count_finish): the same
 * output, in memory that grows with the variables only (3 bits each).
 * Names:
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
 *   cuzk-bench circuit-info porep-SIZE        the blank StackedDRG PoRep circuit
 *                                             of a sector size (2KiB .. 64GiB)
 *                                             or rust-fil-proofs' test shapes
 *                                             (porep-test-base-8, ...)
 *   cuzk-bench circuit-info snap-SIZE         the blank EmptySectorUpdate
 *                                             (SnapDeals) circuit of a size
 *                                             (1KiB .. 32KiB, 8MiB, 16MiB,
 *                                             512MiB, 32GiB, 64GiB)
 *   cuzk-bench circuit-info wpost-SIZE        the blank FallbackPoSt circuit of
 *   cuzk-bench circuit-info winning-SIZE      a WindowPoSt partition or a
 *                                             WinningPoSt (2KiB .. 64GiB)
 *
 * Prints inputs (ONE included), aux, constraints (written by the circuit
 * and in all, with the input constraints appended), the non-zero and the
 * general (coefficient not 1 or -1) entries of A, B and C, when recording
 * the dictionary sizes (distinct general coefficients per matrix) and
 * cz_r1cs_mem_bytes, the popcounts of the density bitmaps, the digest of
 * cz_r1cs_fingerprint (defined byte for byte in include/cuzk/cs.h; it does
 * not depend on the mode), then the
 * wall time and the peak RSS of the whole run.  Gadget variables are
 * allocated with value zero (shape only); the SHA-256 inputs are allocated
 * bits, so their counts include one constraint per input bit (bellpepper's
 * 25,840 and 44,874 count the gadget alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/gadgets.h"
#include "cuzk/poseidon.h"
#include "cuzk/synthetic.h"
#include "cuzk/units.h"

/* What a builder returns for a name it does not know (nothing printed). */
#define UNKNOWN 1

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

/* Builds the named circuit into cs (RECORD or COUNT mode); *pre =
 * constraints spent allocating its inputs.  0, -1 (an invalid parameter or
 * a failure, message printed) or UNKNOWN. */
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
    return UNKNOWN;
}

/* porep-SHAPE: the blank StackedDRG circuit of a sector size or of one of
 * rust-fil-proofs' test shapes (cz_fc_porep_dims_by_name). */
static int build_porep(cz_cs *cs, const char *name, size_t *pre)
{
    cz_fc_porep_dims d;
    *pre = 0;
    if (strncmp(name, "porep-", 6) != 0 || cz_fc_porep_dims_by_name(&d, name + 6) != CZ_OK)
        return UNKNOWN;
    char err[200] = "";
    if (cz_fc_porep_synthesize(cs, &d, NULL, 0, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "circuit-info: %s\n", err);
        return -1;
    }
    return 0;
}

/* snap-SIZE: the blank EmptySectorUpdate circuit of a sector size the
 * update proof allows (2KiB .. 64GiB, and its test sizes 1KiB .. 32KiB,
 * 16MiB). */
static int build_snap(cz_cs *cs, const char *name, size_t *pre)
{
    *pre = 0;
    uint64_t bytes;
    cz_fc_snap_shape u;
    if (strncmp(name, "snap-", 5) != 0 || cz_parse_size(name + 5, &bytes) != CZ_OK || bytes % 32 ||
        cz_fc_snap_shape_of(&u, bytes / 32) != CZ_OK)
        return UNKNOWN;
    char err[200] = "";
    if (cz_fc_snap_synthesize(cs, &u, NULL, NULL, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "circuit-info: %s\n", err);
        return -1;
    }
    return 0;
}

/* wpost-SIZE, winning-SIZE: the blank FallbackPoSt circuit of a sector
 * size's WindowPoSt partition or WinningPoSt. */
static int build_post(cz_cs *cs, const char *name, size_t *pre)
{
    *pre = 0;
    bool window = strncmp(name, "wpost-", 6) == 0;
    if (!window && strncmp(name, "winning-", 8) != 0)
        return UNKNOWN;
    const cz_fc_shape *sec = cz_fc_shape_by_name(name + (window ? 6 : 8));
    cz_post_shape s;
    if (sec == NULL || cz_post_shape_of(&s, window ? CZ_POST_WINDOW : CZ_POST_WINNING, sec))
        return UNKNOWN;
    char err[200] = "";
    if (cz_post_synthesize(cs, &s, NULL, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "circuit-info: %s\n", err);
        return -1;
    }
    return 0;
}

/* The builders, tried in order until one knows the name (a builder returns
 * UNKNOWN before touching cs); another file adds names by adding its
 * builder here and its names to CZ_BENCH_CIRCUITS (bench.h). */
static int (*const builders[])(cz_cs *cs, const char *name, size_t *pre) = {
    build, build_porep, build_snap, build_post};

/* Runs circuit `name` in `mode` (RECORD or COUNT) and fingerprints it;
 * RECORD also gives the dictionary sizes (dict[k]: matrix k's distinct
 * general coefficients) and cz_r1cs_mem_bytes (*mem); COUNT leaves them 0.
 * 0, or -1 with a message printed. */
static int fingerprint(const char *name, cz_cs_mode mode, cz_r1cs_fingerprint *fp, size_t *pre,
                       uint64_t dict[3], size_t *mem)
{
    cz_cs *cs;
    cz_r1cs *r = NULL;
    if (cz_cs_new(&cs, mode, 0) != CZ_OK) {
        fprintf(stderr, "circuit-info: out of memory\n");
        return -1;
    }
    int rc = UNKNOWN;
    for (size_t i = 0; i < sizeof builders / sizeof builders[0] && rc == UNKNOWN; i++)
        rc = builders[i](cs, name, pre);
    if (rc == UNKNOWN)
        fprintf(stderr, "circuit-info: unknown circuit %s (" CZ_BENCH_CIRCUITS ")\n", name);
    int err = rc ? CZ_OK : cz_cs_error(cs);
    if (!rc && !err)
        err = mode == CZ_CS_COUNT ? cz_cs_count_finish(cs, fp) : cz_cs_finish(cs, &r);
    if (err != CZ_OK) {
        fprintf(stderr, "circuit-info: %s: %s\n", name, cz_strerror(err));
        rc = -1;
    }
    cz_cs_free(cs);
    if (r) {
        cz_r1cs_fingerprint_of(r, fp);
        for (int k = 0; k < 3; k++)
            dict[k] = cz_r1cs_matrix(r, k)->ndict;
        *mem = cz_r1cs_mem_bytes(r);
    }
    cz_r1cs_free(r);
    return rc ? -1 : 0;
}

int cz_bench_circuit_info(const cz_cli_cmd *self, int argc, char **argv)
{
    double t0 = cz_cli_now();
    cz_cli_opts o = {0};
    int n = cz_cli_parse(self, argc, argv, &o);
    if (n < 0)
        return 2;
    if (n == 0) {
        cz_cli_usage(stderr, self);
        return 2;
    }
    const char *name = argv[1];
    bool count = o.count_only;
    cz_r1cs_fingerprint fp;
    size_t pre = 0, mem = 0;
    uint64_t dict[3] = {0, 0, 0};
    if (fingerprint(name, count ? CZ_CS_COUNT : CZ_CS_RECORD, &fp, &pre, dict, &mem))
        return 1;
    printf("circuit      %s\n", name);
    printf("inputs       %llu (ONE included)\naux          %llu\n", (unsigned long long)fp.n_inputs,
           (unsigned long long)fp.n_aux);
    printf("constraints  %llu (+ %llu input constraints = %llu rows)\n",
           (unsigned long long)fp.n_constraints, (unsigned long long)fp.n_inputs,
           (unsigned long long)fp.n_rows);
    if (pre)
        printf("gadget       %llu constraints (%zu allocate the input bits)\n",
               (unsigned long long)fp.n_constraints - pre, pre);
    printf("nonzeros     A %llu  B %llu  C %llu\n", (unsigned long long)fp.nnz[CZ_MAT_A],
           (unsigned long long)fp.nnz[CZ_MAT_B], (unsigned long long)fp.nnz[CZ_MAT_C]);
    printf("general      A %llu  B %llu  C %llu\n", (unsigned long long)fp.ngen[CZ_MAT_A],
           (unsigned long long)fp.ngen[CZ_MAT_B], (unsigned long long)fp.ngen[CZ_MAT_C]);
    if (!count)
        printf("dictionary   A %llu  B %llu  C %llu (distinct general coefficients)\n"
               "memory       %zu bytes (cz_r1cs_mem_bytes)\n",
               (unsigned long long)dict[CZ_MAT_A], (unsigned long long)dict[CZ_MAT_B],
               (unsigned long long)dict[CZ_MAT_C], mem);
    printf("densities    A aux %llu  B inputs %llu  B aux %llu\n",
           (unsigned long long)fp.density[CZ_DENSITY_A_AUX],
           (unsigned long long)fp.density[CZ_DENSITY_B_INPUT],
           (unsigned long long)fp.density[CZ_DENSITY_B_AUX]);
    printf("digest       ");
    for (int i = 0; i < 32; i++)
        printf("%02x", fp.digest[i]);
    printf("\n");
    printf("time         %.2f s, peak RSS %.1f MiB\n", cz_cli_now() - t0, cz_cli_peak_rss_mib());
    return 0;
}
