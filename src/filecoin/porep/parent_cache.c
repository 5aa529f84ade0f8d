/* The parent cache (see cuzk/filecoin/porep.h): its rows, digest, name and the
 * published digests, from rust-fil-proofs @87348a74
 * storage-proofs-porep/src/stacked/vanilla/cache.rs (ParentCache::generate:
 * par_chunks_mut of DEGREE * 4 bytes, base_graph().parents then
 * generate_expanded_parents, LittleEndian::write_u32_into, Sha256 over the
 * whole mmap; cache_path) and storage-proofs-porep/parent_cache.json.
 *
 * The fast path: the Feistel round function depends only on the right
 * half (feistel_bits <= 17 bits) and the round (3), so a table of
 * 3 x 2^h values replaces the 48 BLAKE2b compressions a node's expander
 * parents cost (8 parents, 3 rounds, about 2 encodes each where the
 * domain 4^h is twice 8 nodes).  A row is then two ChaCha8 blocks, 48
 * table lookups, and the SHA-256 of its 56 bytes, which the digest does
 * on one thread. */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/sha256.h"

struct cz_fc_parent_gen {
    cz_fc_graph g;
    uint32_t *f; /* f[round << h | right] = F(right, key_round) */
    size_t f_bytes;
    const cz_allocator *alloc;
};

typedef struct {
    cz_fc_parent_gen *pg;
} table_ctx;

static void table_task(void *ctx, size_t begin, size_t end)
{
    cz_fc_parent_gen *pg = ((table_ctx *)ctx)->pg;
    unsigned h = pg->g.feistel_bits;
    for (size_t i = begin; i < end; i++)
        pg->f[i] = (uint32_t)cz_fc_feistel_round(&pg->g, i & pg->g.feistel_mask,
                                                 (unsigned)(i >> h));
}

int cz_fc_parent_gen_new(cz_fc_parent_gen **out, const cz_fc_graph *g, cz_pool *pool,
                         const cz_allocator *alloc)
{
    *out = NULL;
    if (!g || g->feistel_bits > 20 || g->nodes < 2 || g->nodes > (1ull << 31))
        return CZ_ERR_INVALID_ARG;
    cz_fc_parent_gen *pg = cz_alloc(alloc, CZ_BUF_SCRATCH, sizeof *pg);
    if (!pg)
        return CZ_ERR_NOMEM;
    pg->g = *g;
    pg->alloc = alloc;
    pg->f_bytes = (size_t)3 << g->feistel_bits;
    pg->f_bytes *= sizeof pg->f[0];
    pg->f = cz_alloc(alloc, CZ_BUF_SCRATCH, pg->f_bytes);
    if (!pg->f) {
        cz_free(alloc, pg, sizeof *pg);
        return CZ_ERR_NOMEM;
    }
    table_ctx t = {pg};
    cz_pool_parallel_for(pool, (size_t)3 << g->feistel_bits, 1024, table_task, &t);
    *out = pg;
    return CZ_OK;
}

void cz_fc_parent_gen_free(cz_fc_parent_gen *pg)
{
    if (!pg)
        return;
    const cz_allocator *a = pg->alloc;
    cz_free(a, pg->f, pg->f_bytes);
    cz_free(a, pg, sizeof *pg);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

void cz_fc_parent_gen_rows(const cz_fc_parent_gen *pg, uint64_t first, uint64_t n, uint8_t *out)
{
    const cz_fc_graph *g = &pg->g;
    const unsigned h = g->feistel_bits;
    const uint64_t mask = g->feistel_mask, elements = 8 * g->nodes;
    const uint32_t *f0 = pg->f, *f1 = pg->f + ((size_t)1 << h), *f2 = pg->f + ((size_t)2 << h);
    for (uint64_t v = first; v < first + n; v++, out += CZ_FC_PARENT_ROW) {
        uint32_t drg[CZ_FC_DRG_DEGREE];
        cz_fc_graph_drg_parents(g, v, drg);
        for (int i = 0; i < CZ_FC_DRG_DEGREE; i++)
            put32(out + 4 * i, drg[i]);
        for (unsigned i = 0; i < CZ_FC_EXP_DEGREE; i++) {
            uint64_t x = v * CZ_FC_EXP_DEGREE + i;
            do { /* graph.c feistel_permute, F from the table */
                uint64_t l = (x >> h) & mask, r = x & mask, t;
                t = l ^ f0[r], l = r, r = t;
                t = l ^ f1[r], l = r, r = t;
                t = l ^ f2[r], l = r, r = t;
                x = l << h | r;
            } while (x >= elements);
            uint32_t p = g->api == CZ_FC_API_1_0 ? (uint32_t)x / CZ_FC_EXP_DEGREE
                                                 : (uint32_t)(x / CZ_FC_EXP_DEGREE);
            put32(out + 4 * (CZ_FC_DRG_DEGREE + i), p);
        }
    }
}

/* ------------------------------------------------------------- digest --- */

typedef struct {
    const cz_fc_parent_gen *pg;
    uint64_t first, n;
    uint8_t *out;
} rows_task;

static void rows_run(void *arg)
{
    rows_task *t = arg;
    cz_fc_parent_gen_rows(t->pg, t->first, t->n, t->out);
}

enum { CHUNK_NODES = 1 << 15, MAX_TASKS = 64 }; /* 1.75 MiB a chunk */

typedef struct {
    uint8_t *buf;
    rows_task task[MAX_TASKS];
    unsigned ntasks;
} chunk;

/* Queues chunk c's rows on pool as ntasks parts (runs them here when the
 * queue refuses one). */
static void chunk_start(chunk *c, const cz_fc_parent_gen *pg, cz_pool *pool, cz_task_group *grp,
                        uint64_t first, uint64_t n, unsigned parts)
{
    c->ntasks = parts;
    for (unsigned i = 0; i < parts; i++) {
        uint64_t a = n * i / parts, b = n * (i + 1) / parts;
        rows_task *t = &c->task[i];
        t->pg = pg, t->first = first + a, t->n = b - a, t->out = c->buf + a * CZ_FC_PARENT_ROW;
        if (!pool || cz_pool_submit(pool, grp, rows_run, t) != CZ_OK)
            rows_run(t);
    }
}

int cz_fc_parent_cache_digest(uint8_t out[32], const cz_fc_graph *g, cz_pool *pool,
                              const cz_allocator *alloc)
{
    cz_fc_parent_gen *pg;
    int rc = cz_fc_parent_gen_new(&pg, g, pool, alloc);
    if (rc != CZ_OK)
        return rc;
    const size_t bytes = (size_t)CHUNK_NODES * CZ_FC_PARENT_ROW;
    chunk ch[2];
    ch[0].buf = cz_alloc(alloc, CZ_BUF_SCRATCH, bytes);
    ch[1].buf = cz_alloc(alloc, CZ_BUF_SCRATCH, bytes);
    if (!ch[0].buf || !ch[1].buf) {
        cz_free(alloc, ch[0].buf, bytes);
        cz_free(alloc, ch[1].buf, bytes);
        cz_fc_parent_gen_free(pg);
        return CZ_ERR_NOMEM;
    }
    unsigned parts = pool ? 4 * (cz_pool_threads(pool) + 1) : 1;
    if (parts > MAX_TASKS)
        parts = MAX_TASKS;
    cz_task_group grp;
    cz_task_group_init(&grp);
    cz_sha256_ctx sha;
    cz_sha256_init(&sha);

    /* chunk k + 1 is made on the pool while this thread hashes chunk k */
    uint64_t nodes = g->nodes, n0 = nodes < CHUNK_NODES ? nodes : CHUNK_NODES;
    chunk_start(&ch[0], pg, pool, &grp, 0, n0, parts);
    cz_task_group_wait(pool, &grp);
    for (uint64_t first = 0, k = 0; first < nodes; first += CHUNK_NODES, k++) {
        uint64_t n = nodes - first < CHUNK_NODES ? nodes - first : CHUNK_NODES;
        uint64_t next = first + CHUNK_NODES;
        if (next < nodes) {
            uint64_t nn = nodes - next < CHUNK_NODES ? nodes - next : CHUNK_NODES;
            chunk_start(&ch[(k + 1) % 2], pg, pool, &grp, next, nn, parts);
        }
        cz_sha256_update(&sha, ch[k % 2].buf, (size_t)n * CZ_FC_PARENT_ROW);
        cz_task_group_wait(pool, &grp);
    }
    cz_sha256_final(&sha, out);

    cz_task_group_destroy(&grp);
    cz_free(alloc, ch[0].buf, bytes);
    cz_free(alloc, ch[1].buf, bytes);
    cz_fc_parent_gen_free(pg);
    return CZ_OK;
}

/* --------------------------------------------------------------- names --- */

void cz_fc_parent_cache_name(char out[CZ_FC_PARENT_NAME], const cz_fc_graph *g)
{
    char id[200];
    /* graph.rs StackedGraph::new's id around drgraph.rs BucketGraph's
     * identifier (its degree is base_degree, 6); the hasher is the tree's,
     * Poseidon (filecoin-hashers poseidon.rs name()) */
    int n = snprintf(id, sizeof id,
                     "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
                     "drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }",
                     CZ_FC_EXP_DEGREE, (unsigned long long)g->nodes, CZ_FC_DRG_DEGREE);
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    cz_sha256_update(&c, "poseidon_hasher", 15);
    cz_sha256_update(&c, id, (size_t)n);
    for (int k = 0; k < 4; k++)
        cz_sha256_update_u64(&c, g->feistel_keys[k]);
    uint8_t entries[4], d[32];
    put32(entries, (uint32_t)g->nodes);
    cz_sha256_update(&c, entries, 4);
    cz_sha256_final(&c, d);
    /* parameter_cache.rs VERSION = 28 */
    n = snprintf(out, CZ_FC_PARENT_NAME, "v28-sdr-parent-");
    for (int i = 0; i < 32; i++)
        snprintf(out + n + 2 * i, 3, "%02x", d[i]);
}

/* storage-proofs-porep/parent_cache.json @87348a74, in its order. */
static const struct {
    const char *name, *digest;
    uint64_t sector_size;
} PUBLISHED[] = {
    {"v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da", 34359738368ull},
    {"v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5", 536870912ull},
    {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d", 2048ull},
    {"v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03", 68719476736ull},
    {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97", 2048ull},
    {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab", 8388608ull},
    {"v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a", 536870912ull},
    {"v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c", 68719476736ull},
    {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce", 8388608ull},
    {"v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6", 34359738368ull},
};

const char *cz_fc_parent_cache_published(const char *name, uint64_t *sector_size)
{
    for (size_t i = 0; name && i < sizeof PUBLISHED / sizeof PUBLISHED[0]; i++)
        if (!strcmp(PUBLISHED[i].name, name)) {
            if (sector_size)
                *sector_size = PUBLISHED[i].sector_size;
            return PUBLISHED[i].digest;
        }
    return NULL;
}
