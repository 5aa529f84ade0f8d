/* The stacked-DRG graph and its parent cache (cuzk/filecoin/porep.h, graph.c,
 * parent_cache.c).
 *
 *  - The parent cache's name and digest against rust-fil-proofs'
 *    storage-proofs-porep/parent_cache.json: 2KiB with porep ids 0 (API
 *    1.0) and 5 (1.1), both through cz_fc_graph_parents node by node and
 *    through the table-driven digest; 8MiB with ids 1 and 6 through the
 *    digest.  The name (cache.rs cache_path) picks the json entry, so the
 *    check also says which entry is which id.
 *  - The sample parents of ../facts/porep-circuit.md section 9 (id 5,
 *    nodes 1, 2, 22, 63).
 *  - On random nodes of every shape, both APIs: DRG parents < v (v >= 2),
 *    all 0 for v < 2, the predecessor in slot 0 (1.1) or 5 (1.0);
 *    expander parents < nodes; the table-driven rows equal
 *    cz_fc_graph_parents.
 *  - graph.rs' own tests: test_graph_distribution_pathology (API 1.0 at
 *    32GiB and 64GiB gives no expander parent >= nodes / 2 in its first
 *    1000 nodes, 1.1 does) and test_high_parent_bits.
 *  - The bucket count: the bit length of 5 v is ceil(log2(5 v)) in
 *    doubles, as drgraph.rs computes it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/pool.h"
#include "cuzk/sha256.h"
#include "tf.h"

static void graph_of(cz_fc_graph *g, uint64_t proof_id)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_id(proof_id);
    uint8_t porep_id[32];
    cz_fc_porep_id(porep_id, t);
    cz_fc_graph_init(g, t->shape, porep_id, t->api);
}

static void hex32(char out[65], const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* The digest of the cache file written out by cz_fc_graph_parents. */
static void reference_digest(uint8_t out[32], const cz_fc_graph *g)
{
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    for (uint64_t v = 0; v < g->nodes; v++) {
        uint32_t p[CZ_FC_PARENTS];
        uint8_t row[CZ_FC_PARENT_ROW];
        cz_fc_graph_parents(g, v, p);
        for (int i = 0; i < CZ_FC_PARENTS; i++)
            for (int k = 0; k < 4; k++)
                row[4 * i + k] = (uint8_t)(p[i] >> (8 * k));
        cz_sha256_update(&c, row, sizeof row);
    }
    cz_sha256_final(&c, out);
}

static void check_published(uint64_t proof_id, const char *want_digest, int reference,
                            cz_pool *pool)
{
    cz_fc_graph g;
    graph_of(&g, proof_id);
    char name[CZ_FC_PARENT_NAME], hex[65];
    cz_fc_parent_cache_name(name, &g);
    const char *pub = cz_fc_parent_cache_published(name, NULL);
    TF_CHECK_MSG(pub != NULL, "id %llu: %s is not in parent_cache.json",
                 (unsigned long long)proof_id, name);
    if (!pub)
        return;
    TF_CHECK_MSG(!strcmp(pub, want_digest), "id %llu: %s lists %s, want %s",
                 (unsigned long long)proof_id, name, pub, want_digest);
    uint8_t d[32];
    if (reference) {
        reference_digest(d, &g);
        hex32(hex, d);
        TF_CHECK_MSG(!strcmp(hex, pub), "id %llu reference digest %s, published %s",
                     (unsigned long long)proof_id, hex, pub);
    }
    TF_CHECK(cz_fc_parent_cache_digest(d, &g, pool, NULL) == CZ_OK);
    hex32(hex, d);
    TF_CHECK_MSG(!strcmp(hex, pub), "id %llu digest %s, published %s",
                 (unsigned long long)proof_id, hex, pub);
}

static void test_digest_2kib(void)
{
    /* ids 0 and 5: the facts' 3da49221...750d and 840057...5b97 */
    check_published(0, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d", 1,
                    NULL);
    check_published(5, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97", 1,
                    NULL);
}

static void test_digest_8mib(void)
{
    cz_pool *pool = NULL;
    TF_CHECK(cz_pool_new(&pool, 1) == CZ_OK);
    /* id 1 (API 1.0) is dcdabb0f... -> a76604f2..., id 6 (1.1) 5eed2121... -> 03cd1356... */
    check_published(1, "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce", 0,
                    pool);
    check_published(6, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab", 0,
                    pool);
    cz_pool_free(pool);
}

/* Every V1 and V1_1 graph's name is a json entry of its sector size, the
 * ten names distinct (so the json's ten entries are exactly these); the
 * synthetic and NI porep ids give graphs the json does not list. */
static void test_names(void)
{
    char names[10][CZ_FC_PARENT_NAME];
    for (uint64_t id = 0; id < 10; id++) {
        cz_fc_graph g;
        graph_of(&g, id);
        cz_fc_parent_cache_name(names[id], &g);
        uint64_t size = 0;
        const char *pub = cz_fc_parent_cache_published(names[id], &size);
        TF_CHECK_MSG(pub && size == cz_fc_proof_by_id(id)->shape->sector_size,
                     "id %llu: %s listed %d, size %llu", (unsigned long long)id, names[id],
                     pub != NULL, (unsigned long long)size);
        printf("    id %llu %s -> %s\n", (unsigned long long)id, names[id], pub ? pub : "-");
        for (uint64_t j = 0; j < id; j++)
            TF_CHECK(strcmp(names[j], names[id]) != 0);
    }
    for (uint64_t id = 10; id < 20; id++) {
        cz_fc_graph g;
        char name[CZ_FC_PARENT_NAME];
        graph_of(&g, id);
        cz_fc_parent_cache_name(name, &g);
        TF_CHECK_MSG(cz_fc_parent_cache_published(name, NULL) == NULL, "id %llu listed",
                     (unsigned long long)id);
    }
}

static void test_samples(void)
{
    static const struct {
        uint64_t v;
        uint32_t p[CZ_FC_PARENTS];
    } s[] = {
        {1, {0, 0, 0, 0, 0, 0, 6, 12, 35, 43, 23, 34, 58, 2}},
        {2, {1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36}},
        {22, {21, 20, 16, 3, 21, 21, 50, 53, 8, 27, 34, 1, 47, 19}},
        {63, {62, 15, 42, 62, 61, 62, 0, 15, 30, 30, 28, 42, 49, 38}},
    };
    cz_fc_graph g;
    graph_of(&g, 5);
    TF_CHECK(g.nodes == 64 && g.feistel_bits == 5 && g.api == CZ_FC_API_1_1);
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        uint32_t p[CZ_FC_PARENTS];
        cz_fc_graph_parents(&g, s[i].v, p);
        TF_CHECK_MSG(!memcmp(p, s[i].p, sizeof p), "node %llu", (unsigned long long)s[i].v);
    }
}

static void check_node(const cz_fc_graph *g, const cz_fc_parent_gen *pg, uint64_t v,
                       uint64_t proof_id)
{
    uint32_t p[CZ_FC_PARENTS];
    cz_fc_graph_parents(g, v, p);
    unsigned pred = g->api == CZ_FC_API_1_0 ? CZ_FC_DRG_DEGREE - 1 : 0;
    for (int i = 0; i < CZ_FC_DRG_DEGREE; i++) {
        if (v < 2)
            TF_CHECK_MSG(p[i] == 0, "id %llu node %llu DRG %d = %u", (unsigned long long)proof_id,
                         (unsigned long long)v, i, p[i]);
        else
            TF_CHECK_MSG(p[i] < v, "id %llu node %llu DRG %d = %u",
                         (unsigned long long)proof_id, (unsigned long long)v, i, p[i]);
    }
    if (v >= 2)
        TF_CHECK_MSG(p[pred] == v - 1, "id %llu node %llu: no predecessor in slot %u",
                     (unsigned long long)proof_id, (unsigned long long)v, pred);
    for (int i = CZ_FC_DRG_DEGREE; i < CZ_FC_PARENTS; i++)
        TF_CHECK_MSG(p[i] < g->nodes, "id %llu node %llu expander %d = %u",
                     (unsigned long long)proof_id, (unsigned long long)v, i, p[i]);
    uint8_t row[CZ_FC_PARENT_ROW], want[CZ_FC_PARENT_ROW];
    for (int i = 0; i < CZ_FC_PARENTS; i++)
        for (int k = 0; k < 4; k++)
            want[4 * i + k] = (uint8_t)(p[i] >> (8 * k));
    cz_fc_parent_gen_rows(pg, v, 1, row);
    TF_CHECK_MSG(!memcmp(row, want, sizeof row), "id %llu node %llu: table row differs",
                 (unsigned long long)proof_id, (unsigned long long)v);
}

static void test_bounds(void)
{
    cz_pool *pool = NULL; /* for the Feistel tables (3 x 2^17 BLAKE2b at 32/64GiB) */
    TF_CHECK(cz_pool_new(&pool, 1) == CZ_OK);
    for (int s = 0; s < CZ_FC__SHAPES; s++)
        for (int api = 0; api < 2; api++) {
            uint64_t id = (uint64_t)(5 * api + s); /* V1 or V1_1 of the shape */
            cz_fc_graph g;
            graph_of(&g, id);
            cz_fc_parent_gen *pg;
            TF_CHECK(cz_fc_parent_gen_new(&pg, &g, pool, NULL) == CZ_OK);
            uint64_t fixed[] = {0, 1, 2, 3, g.nodes - 2, g.nodes - 1};
            for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
                check_node(&g, pg, fixed[i], id);
            for (unsigned it = 0; it < 40 * tf_scale; it++)
                check_node(&g, pg, cz_prng_next(&tf_rng) % g.nodes, id);
            /* a run of consecutive rows at a random place */
            uint64_t first = cz_prng_next(&tf_rng) % (g.nodes - 16);
            uint8_t rows[16 * CZ_FC_PARENT_ROW];
            cz_fc_parent_gen_rows(pg, first, 16, rows);
            for (int k = 0; k < 16; k++) {
                uint8_t one[CZ_FC_PARENT_ROW];
                cz_fc_parent_gen_rows(pg, first + (uint64_t)k, 1, one);
                TF_CHECK(!memcmp(one, rows + k * CZ_FC_PARENT_ROW, CZ_FC_PARENT_ROW));
            }
            cz_fc_parent_gen_free(pg);
        }
    cz_pool_free(pool);
}

/* graph.rs test_graph_distribution_pathology: porep ids 3, 4 (1.0), 8, 9
 * (1.1; 1.2 is the same graph) at 32GiB and 64GiB. */
static void test_pathology(void)
{
    static const struct {
        uint64_t id;
        int pathological;
    } cases[] = {{3, 1}, {4, 1}, {8, 0}, {9, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cz_fc_graph g;
        graph_of(&g, cases[c].id);
        int large = 0;
        for (uint64_t v = 0; v < 1000 && !(large && !cases[c].pathological); v++) {
            uint32_t p[CZ_FC_EXP_DEGREE];
            cz_fc_graph_exp_parents(&g, v, p);
            for (int i = 0; i < CZ_FC_EXP_DEGREE; i++)
                large |= p[i] >= g.nodes / 2;
        }
        TF_CHECK_MSG(large != cases[c].pathological, "id %llu: a parent >= nodes / 2: %d",
                     (unsigned long long)cases[c].id, large);
    }
}

/* graph.rs test_high_parent_bits: 64GiB nodes, porep id [5, 0, ...], API
 * 1.2: some expander parent of nodes 0..2 is >= 2^29. */
static void test_high_parent_bits(void)
{
    uint8_t porep_id[32] = {5};
    cz_fc_graph g;
    cz_fc_graph_init(&g, cz_fc_shape_get(CZ_FC_64GIB), porep_id, CZ_FC_API_1_2);
    int high = 0;
    for (uint64_t v = 0; v < 3; v++) {
        uint32_t p[CZ_FC_EXP_DEGREE];
        cz_fc_graph_exp_parents(&g, v, p);
        for (int i = 0; i < CZ_FC_EXP_DEGREE; i++)
            high |= p[i] >= (1u << 29);
    }
    TF_CHECK(high);
}

static void test_feistel_shape(void)
{
    static const unsigned h[CZ_FC__SHAPES] = {5, 11, 14, 17, 17}; /* 4^h >= 8 nodes */
    for (int s = 0; s < CZ_FC__SHAPES; s++) {
        cz_fc_graph g;
        graph_of(&g, (uint64_t)s);
        TF_CHECK_MSG(g.feistel_bits == h[s], "shape %d: h %u", s, g.feistel_bits);
        TF_CHECK(g.feistel_mask == (1ull << h[s]) - 1);
    }
}

static unsigned bitlen(uint64_t x)
{
    unsigned n = 0;
    for (; x; x >>= 1)
        n++;
    return n;
}

static void test_bucket_count(void)
{
    for (uint64_t v = 2; v < (1u << 16); v++)
        TF_CHECK_MSG(bitlen(5 * v) == (unsigned)ceil(log2((double)(5 * v))), "v %llu",
                     (unsigned long long)v);
    for (unsigned it = 0; it < 20000 * tf_scale; it++) {
        uint64_t v = 2 + cz_prng_next(&tf_rng) % ((1ull << 31) - 2);
        TF_CHECK_MSG(bitlen(5 * v) == (unsigned)ceil(log2((double)(5 * v))), "v %llu",
                     (unsigned long long)v);
    }
    /* next to the powers of two, where a float ceiling would slip first */
    for (unsigned k = 4; k < 35; k++)
        for (uint64_t m = (1ull << k) - 10; m < (1ull << k) + 10; m++)
            if (m % 5 == 0)
                TF_CHECK_MSG(bitlen(m) == (unsigned)ceil(log2((double)m)), "M %llu",
                             (unsigned long long)m);
}

TF_MAIN(TF_TEST(test_digest_2kib), TF_TEST(test_digest_8mib), TF_TEST(test_names),
        TF_TEST(test_samples), TF_TEST(test_bounds), TF_TEST(test_pathology),
        TF_TEST(test_high_parent_bits), TF_TEST(test_feistel_shape), TF_TEST(test_bucket_count))
