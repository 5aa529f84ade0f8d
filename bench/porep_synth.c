/* cuzk-bench porep-synth: the CPU synthesis of PoRep partitions, split into
 * the witness (cz_fc_porep_witness) and a, b, c (cz_r1cs_spmv over the
 * pre-compiled R1CS), as a prover pays it per partition.
 *
 *   cuzk-bench porep-synth --sector-size SIZE [--c1 FILE] [--pce FILE]
 *       [--save-pce FILE] [--partitions N] [--threads T]
 *
 * The C1 is FILE or a synthetic one of SIZE (cz_fc_c1_synth, ids from a
 * fixed seed).  The R1CS is loaded from --pce (mapped in place; its load
 * and validation timed) or recorded from the blank circuit (timed; written
 * to --save-pce when given).  Then for partitions 0 .. N-1 (default: all of
 * the C1's): the witness on T threads (default: all cores) into one
 * tracked buffer (class witness), checked against the R1CS on the first
 * partition, then a, b and c one after another into one tracked vector
 * (class abc) — the order a streaming prover uses, so that the peak holds
 * the witness and one vector — and once all three at once, as
 * cz_groth16_prove_start holds them.  Prints per partition witness_ms and
 * abc_ms, then the R1CS size, and the peak RSS. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"

int cz_bench_porep_synth(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    const char *size = o.sector_size, *c1_path = o.c1, *pce = o.pce, *save = o.save_pce;
    uint64_t parts64 = 0, threads64 = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
    if ((o.partitions && cz_cli_u64(&parts64, o.partitions, "porep-synth", "--partitions")) ||
        (o.threads && cz_cli_u64(&threads64, o.threads, "porep-synth", "--threads")))
        return 2;
    unsigned parts = parts64 > UINT32_MAX ? UINT32_MAX : (unsigned)parts64;
    if (threads64 == 0 || threads64 > 1024) {
        fprintf(stderr, "porep-synth: --threads must be 1 .. 1024\n");
        return 2;
    }
    unsigned threads = (unsigned)threads64;
    const cz_fc_shape *sh = size ? cz_fc_shape_by_name(size) : NULL;
    if (sh == NULL && c1_path == NULL) {
        fprintf(stderr, "porep-synth: --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB or --c1 FILE\n");
        return 2;
    }
    char err[400] = "";
    cz_fc_c1 c1;
    double t0 = cz_cli_now();
    if (c1_path) {
        size_t len;
        uint8_t *buf = cz_cli_read_file(c1_path, &len, "porep-synth");
        if (buf == NULL)
            return 2;
        int rc = cz_fc_c1_read(&c1, buf, len, NULL, err, sizeof err);
        free(buf);
        if (rc != CZ_OK) {
            fprintf(stderr, "porep-synth: %s: %s\n", c1_path, err);
            return 2;
        }
    } else {
        cz_fc_sector s;
        memset(&s, 0, sizeof s);
        s.proof_type = cz_fc_proof_default(sh);
        cz_fc_prover_id(s.prover_id, 1000);
        s.sector_id = 1;
        memset(s.ticket, 7, 32);
        memset(s.seed, 9, 32);
        if (cz_fc_c1_synth(&c1, &s, 1, NULL, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "porep-synth: %s\n", err);
            return 1;
        }
    }
    sh = c1.proof_type->shape;
    printf("sector %s (%s), %u partitions of %u challenges; C1 in %.2f s\n", sh->name,
           c1.proof_type->name, c1.partitions, c1.challenges, cz_cli_now() - t0);
    cz_pool *pool = NULL;
    if (cz_pool_new(&pool, threads) != CZ_OK) {
        fprintf(stderr, "porep-synth: cannot start %u threads\n", threads);
        cz_fc_c1_free(&c1);
        return 1;
    }
    cz_fc_porep_dims d;
    cz_fc_porep_dims_of(&d, sh);
    cz_r1cs *r = NULL;
    int rc;
    t0 = cz_cli_now();
    if (pce) {
        rc = cz_pce_load(&r, pce, 0, err, sizeof err);
        if (rc != CZ_OK)
            fprintf(stderr, "porep-synth: %s: %s\n", pce, err);
        else
            printf("R1CS loaded from %s in %.2f s (mapped, validated, checksummed)\n", pce,
                   cz_cli_now() - t0);
    } else {
        cz_cs *cs;
        rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
        if (rc == CZ_OK)
            rc = cz_fc_porep_synthesize(cs, &d, NULL, 0, err, sizeof err);
        if (rc == CZ_OK)
            rc = cz_cs_finish(cs, &r);
        cz_cs_free(cs);
        if (rc != CZ_OK)
            fprintf(stderr, "porep-synth: recording: %s %s\n", cz_strerror(rc), err);
        else
            printf("R1CS recorded in %.2f s (peak RSS %ld MiB)\n", cz_cli_now() - t0,
                   (long)cz_cli_peak_rss_mib());
        if (rc == CZ_OK && save) {
            t0 = cz_cli_now();
            rc = cz_pce_save(r, save);
            if (rc != CZ_OK)
                fprintf(stderr, "porep-synth: cannot write %s\n", save);
            else
                printf("R1CS written to %s in %.2f s\n", save, cz_cli_now() - t0);
        }
    }
    size_t n_in, n_aux;
    if (rc == CZ_OK && (cz_fc_porep_counts(&d, &n_in, &n_aux) != CZ_OK ||
                        n_in != cz_r1cs_num_inputs(r) || n_aux != cz_r1cs_num_aux(r))) {
        fprintf(stderr, "porep-synth: the R1CS is not this circuit's\n");
        rc = CZ_ERR_BAD_FORMAT;
    }
    if (rc != CZ_OK) {
        cz_r1cs_free(r);
        cz_pool_free(pool);
        cz_fc_c1_free(&c1);
        return 1;
    }
    size_t rows = cz_r1cs_num_constraints(r), n = n_in + n_aux;
    printf("R1CS: %zu inputs, %zu aux, %zu rows; nnz A %llu B %llu C %llu; %.2f GiB\n", n_in,
           n_aux, rows, (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_A)->nnz,
           (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_B)->nnz,
           (unsigned long long)cz_r1cs_matrix(r, CZ_MAT_C)->nnz,
           (double)cz_r1cs_mem_bytes(r) / (1 << 30));
    const cz_allocator *al = &cz_allocator_default;
    cz_fr *w = cz_alloc(al, CZ_BUF_WITNESS, n * sizeof *w);
    cz_fr *v[3] = {cz_alloc(al, CZ_BUF_ABC, rows * sizeof(cz_fr)), NULL, NULL};
    if (w == NULL || v[0] == NULL) {
        fprintf(stderr, "porep-synth: out of memory\n");
        rc = CZ_ERR_NOMEM;
    }
    if (parts == 0 || parts > c1.partitions)
        parts = c1.partitions;
    double sum_w = 0, sum_abc = 0;
    for (unsigned k = 0; k < parts && rc == CZ_OK; k++) {
        t0 = cz_cli_now();
        rc = cz_fc_porep_witness(w, n, &c1, k, pool, err, sizeof err);
        double tw = cz_cli_now() - t0;
        if (rc != CZ_OK) {
            fprintf(stderr, "porep-synth: partition %u: %s\n", k, err);
            break;
        }
        if (k == 0) {
            double tc = cz_cli_now();
            rc = cz_r1cs_check(r, w, n, pool, NULL, err, sizeof err);
            if (rc != CZ_OK) {
                fprintf(stderr, "porep-synth: partition 0: %s\n", err);
                break;
            }
            printf("partition 0 satisfies the R1CS (check %.0f ms)\n", (cz_cli_now() - tc) * 1e3);
        }
        t0 = cz_cli_now();
        for (int m = 0; m < 3 && rc == CZ_OK; m++)
            rc = cz_r1cs_spmv(r, w, n, m == 0 ? v[0] : NULL, m == 1 ? v[0] : NULL,
                              m == 2 ? v[0] : NULL, pool);
        double tabc = cz_cli_now() - t0;
        sum_w += tw;
        sum_abc += tabc;
        printf("partition %u: witness_ms %.0f abc_ms %.0f total_ms %.0f\n", k, tw * 1e3,
               tabc * 1e3, (tw + tabc) * 1e3);
    }
    long peak_stream = (long)cz_cli_peak_rss_mib();
    if (rc == CZ_OK) {
        v[1] = cz_alloc(al, CZ_BUF_ABC, rows * sizeof(cz_fr));
        v[2] = cz_alloc(al, CZ_BUF_ABC, rows * sizeof(cz_fr));
        if (v[1] && v[2]) {
            t0 = cz_cli_now();
            rc = cz_r1cs_spmv(r, w, n, v[0], v[1], v[2], pool);
            printf("a, b, c at once: %.0f ms\n", (cz_cli_now() - t0) * 1e3);
        }
    }
    if (rc == CZ_OK && parts)
        printf("mean per partition (%u threads): witness %.0f ms, abc %.0f ms, total %.0f ms\n"
               "peak RSS %ld MiB with the witness and one vector, %ld MiB with all three\n",
               threads, sum_w / parts * 1e3, sum_abc / parts * 1e3, (sum_w + sum_abc) / parts * 1e3,
               peak_stream, (long)cz_cli_peak_rss_mib());
    for (int m = 0; m < 3; m++)
        if (v[m])
            cz_free(al, v[m], rows * sizeof(cz_fr));
    if (w)
        cz_free(al, w, n * sizeof *w);
    cz_r1cs_free(r);
    cz_pool_free(pool);
    cz_fc_c1_free(&c1);
    return rc == CZ_OK ? 0 : 1;
}
