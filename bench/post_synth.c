/* cuzk-bench post-synth: the witness of a PoSt partition, timed.
 *
 *   cuzk-bench post-synth --dir DIR [--threads T] [--reps R]
 *     reads `cuzk post vanilla`'s DIR and times the partition's witness
 *     (cz_post_witness, the sectors in parallel on T threads, default all
 *     cores) R times (default 3), as the engine pays it per WindowPoSt or
 *     WinningPoSt job: each run's ms, the median, and the median per
 *     circuit sector and thread.  The blobs are read (strictly, as the
 *     daemon reads them) and put through the engine's admission checks
 *     (cz_post_vanilla_check, timed once on one thread); the witness then
 *     checks the paths' hashes, as in the engine. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/mem.h"
#include "cuzk/pool.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cz_bench_post_synth(const cz_cli_cmd *self, int argc, char **argv)
{
    const char *c = "post-synth";
    cz_cli_opts o = {0};
    unsigned nthreads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN), nreps = 3;
    if (cz_cli_parse(self, argc, argv, &o) < 0 || !cz_cli_need(c, o.dir, "--dir") ||
        cz_cli_uint(&nthreads, o.threads, c, "--threads") ||
        cz_cli_uint(&nreps, o.reps, c, "--reps"))
        return 2;
    uint64_t threads = nthreads, reps = nreps;
    if (threads == 0 || threads > 1024 || reps == 0 || reps > 1000) {
        fprintf(stderr, "cuzk-bench %s: --threads 1 .. 1024, --reps 1 .. 1000\n", c);
        return 2;
    }
    cz_tool_post_dir p;
    if (cz_tool_post_dir_load(&p, o.dir, c) != 0)
        return 2;
    cz_post_shape s;
    cz_post_shape_of(&s, p.type->kind, cz_fc_shape_get(p.type->size));
    size_t n = p.req.n_vanilla, n_in = 0, n_aux = 0;
    int ret = 0;
    char err[512] = "";
    cz_post_vanilla *v = calloc(n ? n : 1, sizeof *v);
    cz_post_circuit_sector *sec = calloc(s.sector_count, sizeof *sec);
    double *ms = calloc(reps, sizeof *ms);
    cz_fr *w = NULL;
    cz_pool *pool = NULL;
    size_t nv = 0;
    if (v == NULL || sec == NULL || ms == NULL) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", c);
        ret = 1;
        goto out;
    }
    if (n > cz_post_max_blobs(&s)) {
        fprintf(stderr, "cuzk-bench %s: %zu sectors; a partition has at most %u\n", c, n,
                cz_post_max_blobs(&s));
        ret = 2;
        goto out;
    }
    for (; nv < n; nv++) {
        if (cz_post_vanilla_read(&v[nv], &s, p.blobs[nv], p.lens[nv], NULL, err, sizeof err)) {
            fprintf(stderr, "cuzk-bench %s: vanilla-%zu.bin: %s\n", c, nv, err);
            ret = 2;
            goto out;
        }
    }
    int rc = cz_post_circuit_sectors(sec, &s, v, n);
    if (rc == CZ_OK)
        rc = cz_post_counts(&s, &n_in, &n_aux);
    const cz_allocator *al = &cz_allocator_default;
    if (rc == CZ_OK && (w = cz_alloc(al, CZ_BUF_WITNESS, (n_in + n_aux) * sizeof *w)) == NULL)
        rc = CZ_ERR_NOMEM;
    if (rc == CZ_OK)
        rc = cz_pool_new(&pool, (unsigned)threads);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s\n", c, cz_strerror(rc));
        ret = 1;
        goto out;
    }
    printf("%s: %s, %zu sectors read into %u circuit sectors, %zu inputs + %zu aux, "
           "%" PRIu64 " thread(s)\n",
           c, p.type->name, n, s.sector_count, n_in, n_aux, threads);
    /* what the engine's admission does to the blobs besides reading them
     * (the paths' hashes are the witness's), on this thread */
    double tc = cz_cli_now();
    for (size_t i = 0; i < n && rc == CZ_OK; i++)
        rc = cz_post_vanilla_check(&s, p.type->api, p.randomness,
                                   cz_post_sector_index(&s, p.req.partition_index, i), &v[i], err,
                                   sizeof err);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: the admission checks: %s\n", c, err);
        ret = 2;
        goto out;
    }
    printf("  admission checks (cz_post_vanilla_check, one thread): %.1f ms\n",
           1e3 * (cz_cli_now() - tc));
    for (uint64_t r = 0; r < reps; r++) {
        double t0 = cz_cli_now();
        rc = cz_post_witness(w, n_in + n_aux, &s, sec, pool, NULL, err, sizeof err);
        ms[r] = 1e3 * (cz_cli_now() - t0);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: the witness failed: %s\n", c, err);
            ret = 1;
            goto out;
        }
        printf("  witness run %" PRIu64 ": %.1f ms\n", r + 1, ms[r]);
    }
    qsort(ms, reps, sizeof *ms, cmp_double);
    double med = ms[reps / 2];
    printf("  witness median %.1f ms, %.3f ms per circuit sector and thread\n", med,
           med * (double)threads / s.sector_count);
out:
    cz_pool_free(pool);
    if (w)
        cz_free(&cz_allocator_default, w, (n_in + n_aux) * sizeof *w);
    free(ms);
    free(sec);
    for (size_t i = 0; i < nv; i++)
        cz_post_vanilla_free(&v[i]);
    free(v);
    cz_tool_post_dir_free(&p);
    return ret;
}
