/* cuzk-bench parent-cache: the SHA-256 of a sector's SDR parent cache
 * (the 14 parents of every node as u32 LE, in node order), as
 * rust-fil-proofs checks it against storage-proofs-porep/parent_cache.json.
 *
 *   cuzk-bench parent-cache --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB
 *                           [--registered-proof NAME | --porep-id N]
 *                           [--threads N]
 *
 * The registered proof defaults to the shape's StackedDrg<size>V1_1;
 * --porep-id N takes registered proof number N (porep_id = N u64 LE, then
 * zeros).  The rows are made on N threads (default: every online CPU), a
 * chunk at a time, while the calling thread hashes the previous chunk in
 * order.  Prints the cache's name, its digest, the published one and
 * whether they match, the wall time and nodes/s.  Exit status 1 on a
 * mismatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/pool.h"

int cz_bench_parent_cache(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {0};
    unsigned nthreads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (cz_cli_parse(self, argc, argv, &o) < 0 ||
        cz_cli_uint(&nthreads, o.threads, self->name, "--threads"))
        return 2;
    const char *size = o.sector_size, *proof = o.registered_proof;
    long porep = o.porep_id ? strtol(o.porep_id, NULL, 10) : -1, threads = nthreads;
    const cz_fc_shape *shape = size ? cz_fc_shape_by_name(size) : NULL;
    if (size && !shape)
        shape = cz_fc_shape_by_size(strtoull(size, NULL, 10));
    const cz_fc_proof_type *t = proof ? cz_fc_proof_by_name(proof)
                                : porep >= 0 ? cz_fc_proof_by_id((uint64_t)porep)
                                             : cz_fc_proof_default(shape);
    if (!shape || !t || (proof && porep >= 0) || threads < 1 || threads > 1024) {
        if (size && !shape)
            fprintf(stderr, "cuzk-bench: unknown sector size '%s'\n", size);
        else if (shape && !t)
            fprintf(stderr, "cuzk-bench: unknown registered proof\n");
        cz_cli_usage(stderr, self);
        return 2;
    }
    if (t->shape != shape) {
        fprintf(stderr, "cuzk-bench: %s is a %s proof, not %s\n", t->name, t->shape->name,
                shape->name);
        return 2;
    }

    uint8_t porep_id[32], d[32];
    cz_fc_porep_id(porep_id, t);
    cz_fc_graph g;
    cz_fc_graph_init(&g, shape, porep_id, t->api);
    char name[CZ_FC_PARENT_NAME], hex[65];
    cz_fc_parent_cache_name(name, &g);
    const char *pub = cz_fc_parent_cache_published(name, NULL);
    printf("parent-cache %s %s (id %llu, API %s): %llu nodes, %ld threads\n", shape->name,
           t->name, (unsigned long long)t->id, cz_fc_api_name(t->api),
           (unsigned long long)g.nodes, threads);
    printf("name %s\n", name);
    fflush(stdout);

    cz_pool *pool = NULL;
    if (threads > 1 && cz_pool_new(&pool, (unsigned)threads - 1) != CZ_OK)
        fprintf(stderr, "cuzk-bench: no pool, running on one thread\n");
    double t0 = cz_cli_now();
    int rc = cz_fc_parent_cache_digest(d, &g, pool, NULL);
    double dt = cz_cli_now() - t0;
    cz_pool_free(pool);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench: parent cache: %s\n", cz_strerror(rc));
        return 1;
    }
    for (int i = 0; i < 32; i++)
        sprintf(hex + 2 * i, "%02x", d[i]);
    int match = pub && !strcmp(pub, hex);
    printf("digest %s\n", hex);
    printf("published %s match %s\n", pub ? pub : "(none)", pub ? (match ? "yes" : "NO") : "-");
    printf("time %.3f s, %.3g nodes/s, %.1f MiB/s of cache\n", dt, (double)g.nodes / dt,
           (double)g.nodes * CZ_FC_PARENT_ROW / dt / (1 << 20));
    return pub && !match ? 1 : 0;
}
