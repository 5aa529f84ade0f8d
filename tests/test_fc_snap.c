/* EmptySectorUpdate (SnapDeals): shapes, the randomness hash and the
 * challenges.
 *
 * Oracles: storage-proofs-update's hard-coded challenges
 * (challenges.rs, test_challenges_against_hardcoded: comm_r_new drawn
 * from XorShiftRng::from_seed(TEST_SEED) as blstrs draws a random Fr,
 * the first five challenges of each listed size and partition), its
 * bucketing test (every challenge of partition k lies in k's nodes), the
 * shapes of its constants.rs and the facts file's table, and neptune's
 * custom domain tag (hash_type.rs: id * 2^40). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/snap.h"
#include "cuzk/poseidon.h"
#include "filecoin/snap/circuit.h"
#include "fixture.h"
#include "tf.h"
#include "util/clock.h"

/* Sanitizer builds (TF_SANITIZED) count the two smallest circuits and
 * update 2KiB only; Release runs everything. */

/* rand_xorshift 0.3's XorShiftRng (Marsaglia's xorshift128), as
 * rust-fil-proofs' tests seed it: the 16 seed bytes are x, y, z, w
 * little-endian; next_u64 is two next_u32, low word first. */
typedef struct {
    uint32_t x, y, z, w;
} xorshift;

static void xs_seed(xorshift *g, const uint8_t seed[16])
{
    uint32_t v[4];
    for (int i = 0; i < 4; i++)
        v[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
               (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    *g = (xorshift){v[0], v[1], v[2], v[3]};
}

static uint32_t xs_u32(xorshift *g)
{
    uint32_t t = g->x ^ (g->x << 11);
    g->x = g->y, g->y = g->z, g->z = g->w;
    g->w = g->w ^ (g->w >> 19) ^ (t ^ (t >> 8));
    return g->w;
}

static uint64_t xs_u64(xorshift *g)
{
    uint64_t lo = xs_u32(g), hi = xs_u32(g);
    return hi << 32 | lo;
}

/* blstrs' Scalar::random: four u64 limbs, the top bit cleared, redrawn
 * until below r. */
static void blstrs_random(cz_fr *out, xorshift *g)
{
    for (;;) {
        uint8_t b[32];
        for (int i = 0; i < 4; i++) {
            uint64_t l = xs_u64(g);
            if (i == 3)
                l &= UINT64_MAX >> 1;
            for (int j = 0; j < 8; j++)
                b[8 * i + j] = (uint8_t)(l >> (8 * j));
        }
        if (cz_fr_from_bytes_le(out, b) == CZ_OK)
            return;
    }
}

static const uint8_t TEST_SEED[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                      0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

#define KIB(k) ((uint64_t)(k) << 5)

static void test_shapes(void)
{
    static const struct {
        uint64_t nodes;
        unsigned parts, chal, h, apex, digests, sub, top;
        uint64_t k_and_h_of_1; /* k = 1 (0 for one partition), h = h */
    } want[] = {
        {KIB(1), 1, 10, 1, 8, 1, 4, 0, 1},          {KIB(2), 1, 10, 1, 8, 1, 0, 0, 1},
        {KIB(4), 1, 10, 1, 8, 1, 2, 0, 1},          {KIB(8), 1, 10, 1, 8, 1, 4, 0, 1},
        {KIB(16), 2, 10, 1, 128, 1, 8, 0, 1 | 1 << 1},
        {KIB(32), 2, 10, 1, 128, 1, 8, 2, 1 | 1 << 1},
        {KIB(8 << 10), 4, 10, 10, 128, 1, 0, 0, 1 + 32},
        {KIB(16 << 10), 4, 10, 10, 128, 1, 2, 0, 1 + 32},
        {KIB(512 << 10), 16, 86, 10, 128, 8, 0, 0, 1 + 128},
        {KIB(32u << 20), 16, 86, 10, 128, 10, 8, 0, 1 + 128},
        {KIB(64u << 20), 16, 86, 10, 128, 10, 8, 2, 1 + 128},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cz_fc_snap_shape s;
        TF_CHECK(cz_fc_snap_shape_of(&s, want[i].nodes) == CZ_OK);
        TF_CHECK_MSG(s.partitions == want[i].parts && s.challenges == want[i].chal &&
                         s.h == want[i].h && s.apex_leaves == want[i].apex &&
                         s.digests == want[i].digests && s.tree_r[0] == 8 &&
                         s.tree_r[1] == want[i].sub && s.tree_r[2] == want[i].top,
                     "%llu nodes: partitions %u, challenges %u, h %u, apex %u, digests %u, "
                     "TreeR %u-%u-%u",
                     (unsigned long long)want[i].nodes, s.partitions, s.challenges, s.h,
                     s.apex_leaves, s.digests, s.tree_r[0], s.tree_r[1], s.tree_r[2]);
        TF_CHECK((1ull << s.node_bits) == want[i].nodes && (1u << s.apex_bits) == s.apex_leaves &&
                 (1u << s.partition_bits) == s.partitions);
        unsigned k = s.partitions > 1;
        TF_CHECK_MSG(cz_fc_snap_k_and_h(&s, k, s.h) == want[i].k_and_h_of_1,
                     "%llu nodes: k_and_h_select %llu", (unsigned long long)want[i].nodes,
                     (unsigned long long)cz_fc_snap_k_and_h(&s, k, s.h));
        TF_CHECK(cz_fc_snap_h_select(&s, 99) == 0);
    }
    /* 32GiB as the facts file gives it: 26 random bits, 9 per digest */
    cz_fc_snap_shape s;
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(32u << 20)) == CZ_OK);
    TF_CHECK(s.node_bits == 30 && s.random_bits == 26 && s.per_digest == 9);
    TF_CHECK(cz_fc_snap_h_select(&s, 7) == 1 && cz_fc_snap_h_select(&s, 12) == 32);
    /* sizes the update proof does not allow */
    static const uint64_t bad[] = {0, 1, KIB(64), KIB(1 << 10), KIB(128u << 20), 3};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        TF_CHECK(cz_fc_snap_shape_of(&s, bad[i]) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_snap_shape_of(NULL, KIB(2)) == CZ_ERR_INVALID_ARG);
}

/* The parameter file names of the production sizes are parameters.json's
 * (the v28 table of param_files.c), for the sector size it lists. */
static void test_params_names(void)
{
    static const uint64_t sizes[] = {2048, (uint64_t)8 << 20, (uint64_t)512 << 20,
                                     (uint64_t)32 << 30, (uint64_t)64 << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cz_fc_snap_shape u;
        TF_CHECK(cz_fc_snap_shape_of(&u, sizes[i] / 32) == CZ_OK);
        char name[CZ_FC_PARAMS_NAME], file[CZ_FC_PARAMS_NAME + 8];
        cz_fc_snap_params_name(name, &u);
        bool found = false;
        for (int ext = 0; ext < 2; ext++) {
            snprintf(file, sizeof file, "%s%s", name, ext ? ".vk" : ".params");
            for (size_t j = 0; j < cz_fc_params_official_count(); j++) {
                uint64_t size;
                const char *n = cz_fc_params_official(j, NULL, &size);
                if (!strcmp(n, file)) {
                    TF_CHECK_MSG(size == sizes[i], "%s: listed for %llu bytes", file,
                                 (unsigned long long)size);
                    found |= ext == 0;
                }
            }
        }
        TF_CHECK_MSG(found, "%s.params is not in parameters.json", name);
    }
}

/* neptune's CType::Arbitrary(id) tag is id * 2^40; Pgen differs from the
 * Merkle-tagged Poseidon of the same inputs and is a function of both. */
static void test_gen_randomness(void)
{
    cz_fr tag, two40, a, b, x, y, z;
    cz_poseidon_custom_tag(&tag, 1);
    cz_fr_from_u64(&two40, (uint64_t)1 << 40);
    TF_CHECK(cz_fr_equal(&tag, &two40));
    cz_poseidon_custom_tag(&tag, 256);
    uint8_t le[32];
    cz_fr_to_bytes_le(le, &tag);
    TF_CHECK(le[0] == 0 && le[6] == 1 && le[5] == 0 && le[7] == 0);
    cz_fr_random(&a, &tf_rng);
    cz_fr_random(&b, &tf_rng);
    cz_fr in[2] = {a, b};
    TF_CHECK(cz_fc_snap_gen_randomness(&x, &a, &b) == CZ_OK);
    TF_CHECK(cz_poseidon_hash(&y, in, 2) == CZ_OK);
    TF_CHECK(!cz_fr_equal(&x, &y));
    cz_poseidon_custom_tag(&tag, 1);
    TF_CHECK(cz_poseidon_hash_tagged(&z, in, 2, &tag) == CZ_OK && cz_fr_equal(&x, &z));
    TF_CHECK(cz_fc_snap_gen_randomness(&y, &b, &a) == CZ_OK && !cz_fr_equal(&x, &y));
    TF_CHECK(cz_fc_snap_phi(&y, &a, &b) == CZ_OK && cz_fr_equal(&x, &y));
    /* rho takes the top h bits of the challenge */
    cz_fc_snap_shape s;
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(32u << 20)) == CZ_OK);
    uint64_t c = ((uint64_t)0x2ab << 20) | 0x12345;
    cz_fr hi;
    cz_fr_from_u64(&hi, c >> 20);
    TF_CHECK(cz_fc_snap_rho(&x, &s, &a, c, 10) == CZ_OK);
    TF_CHECK(cz_fc_snap_gen_randomness(&y, &a, &hi) == CZ_OK && cz_fr_equal(&x, &y));
    TF_CHECK(cz_fc_snap_rho(&x, &s, &a, c ^ 0xfffff, 10) == CZ_OK && cz_fr_equal(&x, &y));
    TF_CHECK(cz_fc_snap_rho(&x, &s, &a, (uint64_t)1 << 30, 10) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_snap_rho(&x, &s, &a, c, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_snap_rho(&x, &s, &a, c, 31) == CZ_ERR_INVALID_ARG);
}

/* The tagged circuit: 311 constraints as the Merkle-tagged one, its
 * output the native Pgen, satisfied. */
static void test_gen_randomness_circuit(void)
{
    cz_fr in[2], want, tag;
    cz_fr_random(&in[0], &tf_rng);
    cz_fr_random(&in[1], &tf_rng);
    TF_CHECK(cz_fc_snap_gen_randomness(&want, &in[0], &in[1]) == CZ_OK);
    cz_poseidon_custom_tag(&tag, 1);
    cz_cs *cs = NULL;
    TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
    cz_var v[2] = {cz_cs_alloc_aux(cs, &in[0]), cz_cs_alloc_aux(cs, &in[1])}, out;
    TF_CHECK(cz_poseidon_circuit_tagged(cs, v, 2, &tag, &out) == CZ_OK);
    TF_CHECK(cz_cs_num_constraints(cs) == 311);
    TF_CHECK(cz_fr_equal(&cz_cs_aux(cs)[cz_var_index(out)], &want));
    cz_r1cs *r = NULL;
    TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK && r != NULL);
    size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r);
    cz_fr *w = malloc(n * sizeof *w);
    TF_CHECK(w != NULL);
    if (w && r) {
        cz_cs_write_assignment(cs, w);
        TF_CHECK(cz_r1cs_check(r, w, n, NULL, NULL, NULL, 0) == CZ_OK);
        w[cz_r1cs_num_inputs(r) + cz_var_index(out)] = in[0]; /* a wrong output */
        TF_CHECK(cz_r1cs_check(r, w, n, NULL, NULL, NULL, 0) == CZ_ERR_UNSATISFIED);
    }
    free(w);
    cz_r1cs_free(r);
    cz_cs_free(cs);
}

/* challenges.rs's hard-coded vectors: the first five of each. */
static void test_challenge_vectors(void)
{
    static const struct {
        uint64_t nodes;
        unsigned k;
        uint32_t c[5];
    } v[] = {
        {KIB(1), 0, {21, 7, 3, 31, 0}},
        {KIB(2), 0, {53, 51, 56, 3, 0}},
        {KIB(4), 0, {117, 25, 62, 0, 72}},
        {KIB(8), 0, {245, 140, 15, 128, 28}},
        {KIB(16), 0, {245, 140, 15, 128, 28}},
        {KIB(16), 1, {286, 308, 493, 510, 508}},
        {KIB(32), 0, {245, 454, 3, 400, 193}},
        {KIB(32), 1, {542, 666, 955, 927, 911}},
        {KIB(8 << 10), 0, {36085, 32783, 44060, 10950, 3731}},
        {KIB(8 << 10), 1, {78878, 130797, 112892, 93994, 78379}},
        {KIB(16 << 10), 0, {101621, 16391, 109319, 25944, 41193}},
        {KIB(16 << 10), 1, {209950, 163702, 175679, 224741, 197410}},
        {KIB(512 << 10), 0, {1019125, 116736, 706220, 59698, 799498}},
        {KIB(512 << 10), 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {KIB(512 << 10), 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {KIB(512 << 10), 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {KIB(32u << 20), 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {KIB(32u << 20), 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {KIB(32u << 20), 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {KIB(32u << 20), 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {KIB(64u << 20), 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {KIB(64u << 20), 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {KIB(64u << 20), 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {KIB(64u << 20), 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    xorshift g;
    xs_seed(&g, TEST_SEED);
    cz_fr comm_r_new;
    blstrs_random(&comm_r_new, &g);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cz_fc_snap_shape s;
        uint32_t c[86];
        TF_CHECK(cz_fc_snap_shape_of(&s, v[i].nodes) == CZ_OK);
        TF_CHECK(cz_fc_snap_challenges(&s, &comm_r_new, v[i].k, c) == CZ_OK);
        TF_CHECK_MSG(!memcmp(c, v[i].c, sizeof v[i].c),
                     "%llu nodes, partition %u: %u %u %u %u %u, want %u %u %u %u %u",
                     (unsigned long long)v[i].nodes, v[i].k, c[0], c[1], c[2], c[3], c[4],
                     v[i].c[0], v[i].c[1], v[i].c[2], v[i].c[3], v[i].c[4]);
    }
}

/* challenges.rs's bucketing test: with a fresh comm_r_new per size (the
 * same generator, drawn in order), each partition's challenges, all of
 * them, lie in its node range. */
static void test_challenge_buckets(void)
{
    static const uint64_t sizes[] = {KIB(1),        KIB(2),         KIB(4),          KIB(8),
                                     KIB(16),       KIB(32),        KIB(8 << 10),    KIB(16 << 10),
                                     KIB(512 << 10), KIB(32u << 20), KIB(64u << 20)};
    xorshift g;
    xs_seed(&g, TEST_SEED);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cz_fc_snap_shape s;
        cz_fr comm_r_new;
        blstrs_random(&comm_r_new, &g);
        TF_CHECK(cz_fc_snap_shape_of(&s, sizes[i]) == CZ_OK);
        uint64_t per = s.sector_nodes / s.partitions;
        for (unsigned k = 0; k < s.partitions; k++) {
            uint32_t c[86];
            TF_CHECK(cz_fc_snap_challenges(&s, &comm_r_new, k, c) == CZ_OK);
            for (unsigned j = 0; j < s.challenges; j++)
                TF_CHECK_MSG(c[j] >= k * per && c[j] < (k + 1) * per && c[j] >> s.random_bits == k,
                             "%llu nodes, partition %u: challenge %u = %u",
                             (unsigned long long)sizes[i], k, j, c[j]);
        }
        uint32_t c[86];
        TF_CHECK(cz_fc_snap_challenges(&s, &comm_r_new, s.partitions, c) == CZ_ERR_INVALID_ARG);
    }
}

/* -------------------------------------------- the vanilla partition proof */

static void random_fr_d(cz_fc_d *d)
{
    cz_fr x;
    cz_fr_random(&x, &tf_rng);
    cz_fc_d_from_fr(d, &x);
}

static void random_sha_d(cz_fc_d *d)
{
    cz_prng_bytes(&tf_rng, d->b, 32);
    d->b[31] &= 0x3f;
}

static void random_merkle(cz_fc_merkle_proof *m, bool tree_d)
{
    void (*f)(cz_fc_d *) = tree_d ? random_sha_d : random_fr_d;
    f(&m->root);
    f(&m->leaf);
    for (unsigned l = 0; l < m->n_levels; l++) {
        m->levels[l].index = (uint8_t)(cz_prng_next(&tf_rng) % m->levels[l].arity);
        for (unsigned h = 0; h + 1 < m->levels[l].arity; h++)
            f(&m->levels[l].hashes[h]);
    }
}

/* A proof of shape s with random canonical values and indices. */
static void random_proof(cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s)
{
    TF_CHECK(cz_fc_snap_proof_alloc(p, s, NULL) == CZ_OK);
    random_fr_d(&p->comm_c);
    for (unsigned i = 0; i < p->n_apex; i++)
        random_sha_d(&p->apex_leafs[i]);
    for (unsigned c = 0; c < p->n_challenges; c++) {
        random_merkle(&p->challenges[c].r_old, false);
        random_merkle(&p->challenges[c].d_new, true);
        random_merkle(&p->challenges[c].r_new, false);
    }
}

static uint8_t *encode(const cz_fc_snap_partition_proof *p, const cz_fc_snap_shape *s,
                       size_t *n)
{
    *n = cz_fc_snap_proof_bytes(s);
    uint8_t *b = malloc(*n);
    TF_CHECK(b != NULL && cz_fc_snap_proof_write(b, *n, p, s) == CZ_OK);
    return b;
}

/* Sizes the facts file gives (561,768 and 575,528 bytes at 32 and 64GiB)
 * and the serde layout of a 2KiB proof, field by field at its offsets:
 * comm_c, u64 8 apex leaves, u64 10 challenges, then the first challenge's
 * proof_r_old: u32 variant 0 (Single), root, leaf, u64 2 levels, u64 7
 * siblings, the siblings, u64 index. */
static void test_proof_layout(void)
{
    cz_fc_snap_shape s;
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(32u << 20)) == CZ_OK);
    TF_CHECK(cz_fc_snap_proof_bytes(&s) == 561768);
    TF_CHECK(cz_fc_snap_tree_form(&s, CZ_FC_TREE_RC) == CZ_FC_PROOF_SUB);
    TF_CHECK(cz_fc_snap_tree_levels(&s, CZ_FC_TREE_RC) == 10 &&
             cz_fc_snap_tree_levels(&s, CZ_FC_TREE_D) == 30);
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(64u << 20)) == CZ_OK);
    TF_CHECK(cz_fc_snap_proof_bytes(&s) == 575528);
    TF_CHECK(cz_fc_snap_tree_form(&s, CZ_FC_TREE_RC) == CZ_FC_PROOF_TOP);
    TF_CHECK(cz_fc_snap_tree_arity(&s, CZ_FC_TREE_RC, 9) == 8 &&
             cz_fc_snap_tree_arity(&s, CZ_FC_TREE_RC, 10) == 2 &&
             cz_fc_snap_tree_arity(&s, CZ_FC_TREE_RC, 11) == 0);
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(1)) == CZ_OK); /* 8-4-0 */
    TF_CHECK(cz_fc_snap_tree_levels(&s, CZ_FC_TREE_RC) == 2 &&
             cz_fc_snap_tree_arity(&s, CZ_FC_TREE_RC, 1) == 4);
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(2)) == CZ_OK);
    cz_fc_snap_partition_proof p;
    random_proof(&p, &s);
    size_t n;
    uint8_t *b = encode(&p, &s, &n);
    TF_CHECK(!memcmp(b, p.comm_c.b, 32) && tf_rd64le(b + 32) == 8);
    for (unsigned i = 0; i < 8; i++)
        TF_CHECK(!memcmp(b + 40 + 32 * i, p.apex_leafs[i].b, 32));
    TF_CHECK(tf_rd64le(b + 296) == 10);
    const cz_fc_merkle_proof *m = &p.challenges[0].r_old;
    TF_CHECK(b[304] == 0 && b[305] == 0 && b[306] == 0 && b[307] == 0);
    TF_CHECK(!memcmp(b + 308, m->root.b, 32) && !memcmp(b + 340, m->leaf.b, 32));
    TF_CHECK(tf_rd64le(b + 372) == 2 && tf_rd64le(b + 380) == 7);
    TF_CHECK(!memcmp(b + 388, m->levels[0].hashes[0].b, 32));
    TF_CHECK(tf_rd64le(b + 388 + 7 * 32) == m->levels[0].index);
    free(b);
    cz_fc_snap_proof_free(&p);
}

/* write -> read -> write gives the same bytes and the same fields, for
 * every production shape and the test shapes with sub and top trees. */
static void test_proof_roundtrip(void)
{
    static const uint64_t sizes[] = {KIB(1),        KIB(2),         KIB(32),
                                     KIB(8 << 10),  KIB(512 << 10), KIB(32u << 20),
                                     KIB(64u << 20)};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cz_fc_snap_shape s;
        TF_CHECK(cz_fc_snap_shape_of(&s, sizes[i]) == CZ_OK);
        cz_fc_snap_partition_proof p, q;
        random_proof(&p, &s);
        size_t n, n2;
        uint8_t *b = encode(&p, &s, &n);
        char err[256];
        TF_CHECK_MSG(cz_fc_snap_proof_read(&q, &s, b, n, NULL, err, sizeof err) == CZ_OK, "%s",
                     err);
        uint8_t *b2 = encode(&q, &s, &n2);
        TF_CHECK(n == n2 && !memcmp(b, b2, n));
        TF_CHECK(!memcmp(q.comm_c.b, p.comm_c.b, 32) && q.n_challenges == s.challenges);
        const cz_fc_merkle_proof *x = &p.challenges[s.challenges - 1].r_new,
                                 *y = &q.challenges[s.challenges - 1].r_new;
        TF_CHECK(x->form == y->form && x->n_levels == y->n_levels &&
                 x->levels[x->n_levels - 1].index == y->levels[y->n_levels - 1].index &&
                 !memcmp(&x->leaf, &y->leaf, 32));
        TF_CHECK(cz_fc_snap_proof_write(b2, n - 1, &q, &s) == CZ_ERR_BAD_LENGTH);
        free(b);
        free(b2);
        cz_fc_snap_proof_free(&p);
        cz_fc_snap_proof_free(&q);
    }
}

/* Every way a blob can be wrong is refused with the field named by its
 * serde path (a Single proof's levels are its InclusionPath's path: "path.path[i]"),
 * and the proof comes back zeroed. */
static void expect_bad(const cz_fc_snap_shape *s, const uint8_t *b, size_t n, int want,
                       const char *needle)
{
    cz_fc_snap_partition_proof q;
    char err[256] = "";
    int rc = cz_fc_snap_proof_read(&q, s, b, n, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == want && strstr(err, needle) != NULL, "rc %d (want %d): %s (want \"%s\")", rc,
                 want, err, needle);
    static const cz_fc_snap_partition_proof zero;
    TF_CHECK(!memcmp(&q, &zero, sizeof q));
}

static void test_proof_refusals(void)
{
    cz_fc_snap_shape s;
    TF_CHECK(cz_fc_snap_shape_of(&s, KIB(2)) == CZ_OK);
    cz_fc_snap_partition_proof p;
    random_proof(&p, &s);
    size_t n;
    uint8_t *b = encode(&p, &s, &n), *t = malloc(n + 1);
    /* every prefix is truncated; one byte more is left over */
    for (size_t k = 0; k < n; k += 1 + k / 16)
        expect_bad(&s, b, k, CZ_ERR_TRUNCATED, "short");
    memcpy(t, b, n);
    t[n] = 0;
    expect_bad(&s, t, n + 1, CZ_ERR_BAD_LENGTH, "1 bytes after the proof");
    /* counts: apex leaves, challenges, levels, siblings */
    static const struct {
        size_t off;
        const char *field;
    } counts[] = {
        {32, "apex_leafs: 9 apex leaves, the shape has 8"},
        {296, "challenge_proofs: 11 challenge proofs, the shape has 10"},
        {372, "challenge_proofs[0].proof_r_old.path: 3 levels"},
        {380, "challenge_proofs[0].proof_r_old.path.path[0]: 8 siblings"},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        memcpy(t, b, n);
        t[counts[i].off]++;
        expect_bad(&s, t, n, CZ_ERR_BAD_FORMAT, counts[i].field);
    }
    /* a variant: Sub where the shape's TreeR proofs are Single */
    memcpy(t, b, n);
    t[304] = 1;
    expect_bad(&s, t, n, CZ_ERR_BAD_FORMAT, "proof_r_old: variant 1, the shape's proofs are Single");
    /* an index at the arity */
    memcpy(t, b, n);
    t[612] = 8;
    memset(t + 613, 0, 7);
    expect_bad(&s, t, n, CZ_ERR_BAD_FORMAT, "proof_r_old.path.path[0]: index 8, the arity is 8");
    /* non-canonical values: comm_c >= r, a TreeD apex leaf with top bits */
    memcpy(t, b, n);
    memset(t, 0xff, 32);
    expect_bad(&s, t, n, CZ_ERR_NOT_CANONICAL, "comm_c: a TreeR value");
    memcpy(t, b, n);
    t[40 + 3 * 32 + 31] |= 0x80;
    expect_bad(&s, t, n, CZ_ERR_NOT_CANONICAL, "apex_leafs[3]: a TreeD value");
    /* proof_d_new's index past its arity, the first TreeD level */
    size_t d0 = 304 + (4 + 64 + 8 + 2 * (8 + 7 * 32 + 8)); /* after proof_r_old */
    memcpy(t, b, n);
    TF_CHECK(t[d0] == 0);
    t[d0 + 4 + 64 + 8 + 8 + 32] = 2;
    expect_bad(&s, t, n, CZ_ERR_BAD_FORMAT, "challenge_proofs[0].proof_d_new.path.path[0]: index 2");
    /* the writer refuses a proof of another shape */
    cz_fc_snap_shape s8;
    TF_CHECK(cz_fc_snap_shape_of(&s8, KIB(8 << 10)) == CZ_OK);
    TF_CHECK(cz_fc_snap_proof_write(t, n, &p, &s8) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_snap_proof_read(NULL, &s, b, n, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    free(b);
    free(t);
    cz_fc_snap_proof_free(&p);
}

/* ------------------------------------------------ an updated sector --- */

static void expect_verify(const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                          const cz_fc_snap_partition_proof *p, int want, const char *needle)
{
    char err[256] = "";
    int rc = cz_fc_snap_verify(u, pub, p, err, sizeof err);
    TF_CHECK_MSG(rc == want && (needle == NULL || strstr(err, needle) != NULL),
                 "rc %d (want %d): %s (want \"%s\")", rc, want, err, needle ? needle : "");
}

/* A random replica updated with random data: the encoding against its
 * formula, every partition's proof verifies (also after a bincode round
 * trip), and each tampering is refused by the check that covers it. */
static void check_sector(uint64_t bytes, unsigned h_alt)
{
    const cz_fc_shape *shape = cz_fc_shape_by_size(bytes);
    cz_fc_snap_shape u;
    TF_CHECK(shape != NULL && cz_fc_snap_shape_of(&u, bytes / 32) == CZ_OK);
    size_t n = u.sector_nodes;
    cz_fc_d *old = malloc(n * sizeof *old), *data = malloc(n * sizeof *data), comm_c;
    for (size_t i = 0; i < n; i++) {
        random_fr_d(&old[i]);
        random_sha_d(&data[i]);
    }
    random_fr_d(&comm_c);
    cz_fc_snap_sector *x;
    TF_CHECK(cz_fc_snap_sector_new(&x, shape, &u, old, data, &comm_c, 99, NULL) ==
             CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_fc_snap_sector_new(&x, shape, &u, old, data, &comm_c, u.h, NULL) == CZ_OK);
    cz_fc_snap_public pub;
    cz_fc_snap_sector_public(x, 0, &pub);
    /* the encoding, from its formula */
    cz_fr phi, d, r, hi, rho, a, b, want, got;
    TF_CHECK(cz_fc_d_to_fr(&d, &pub.comm_d_new) == CZ_OK &&
             cz_fc_d_to_fr(&r, &pub.comm_r_old) == CZ_OK);
    TF_CHECK(cz_fc_snap_gen_randomness(&phi, &d, &r) == CZ_OK);
    for (int t = 0; t < 16; t++) {
        size_t i = t == 0 ? 0 : t == 1 ? n - 1 : cz_prng_next(&tf_rng) % n;
        cz_fr_from_u64(&hi, i >> (u.node_bits - u.h));
        TF_CHECK(cz_fc_snap_gen_randomness(&rho, &phi, &hi) == CZ_OK);
        TF_CHECK(cz_fc_d_to_fr(&a, &old[i]) == CZ_OK && cz_fc_d_to_fr(&b, &data[i]) == CZ_OK);
        cz_fr_mul(&want, &b, &rho);
        cz_fr_add(&want, &want, &a);
        TF_CHECK(cz_fc_d_to_fr(&got, &cz_fc_snap_sector_replica(x)[i]) == CZ_OK);
        TF_CHECK_MSG(cz_fr_equal(&got, &want), "node %zu of %zu", i, n);
    }
    for (unsigned k = 0; k < u.partitions; k++) {
        cz_fc_snap_partition_proof p, q;
        TF_CHECK(cz_fc_snap_sector_prove(x, k, &p, NULL) == CZ_OK);
        cz_fc_snap_sector_public(x, k, &pub);
        expect_verify(&u, &pub, &p, CZ_OK, NULL);
        size_t len;
        uint8_t *blob = encode(&p, &u, &len);
        char err[256];
        TF_CHECK_MSG(cz_fc_snap_proof_read(&q, &u, blob, len, NULL, err, sizeof err) == CZ_OK,
                     "%s", err);
        expect_verify(&u, &pub, &q, CZ_OK, NULL);
        free(blob);
        cz_fc_snap_proof_free(&q);
        if (k > 0 && k + 1 < u.partitions)
            goto next;
        /* the commitments */
        cz_fc_snap_public bad = pub;
        bad.comm_r_new.b[0] ^= 1;
        expect_verify(&u, &bad, &p, CZ_ERR_BAD_PROOF, "comm_r_new");
        bad = pub;
        bad.comm_r_old.b[3] ^= 4;
        expect_verify(&u, &bad, &p, CZ_ERR_BAD_PROOF, "comm_r_old");
        bad = pub;
        bad.comm_d_new.b[5] ^= 1;
        expect_verify(&u, &bad, &p, CZ_ERR_BAD_PROOF, "proof_d_new's root is not comm_d_new");
        /* another partition's challenges */
        if (u.partitions > 1) {
            bad = pub;
            bad.k = (k + 1) % u.partitions;
            expect_verify(&u, &bad, &p, CZ_ERR_BAD_PROOF, "path leads to node");
        }
        bad = pub;
        bad.k = u.partitions;
        expect_verify(&u, &bad, &p, CZ_ERR_INVALID_ARG, "partition");
        /* another h (where the size allows one): the encoding check */
        if (h_alt) {
            bad = pub;
            bad.h = h_alt;
            expect_verify(&u, &bad, &p, CZ_ERR_BAD_PROOF, "label_r_old + label_d_new * rho");
        }
        /* two challenge proofs of different nodes swapped (a partition's
         * challenges may repeat a node, and swapping those changes
         * nothing: with 2KiB's 64 nodes challenges 1 and 2 are one node
         * for about one seed in 64) */
        uint32_t *ch = malloc(u.challenges * sizeof *ch);
        cz_fr crn;
        TF_CHECK(ch != NULL && cz_fc_d_to_fr(&crn, &pub.comm_r_new) == CZ_OK &&
                 cz_fc_snap_challenges(&u, &crn, k, ch) == CZ_OK);
        unsigned j = 2;
        while (j < u.challenges && ch[j] == ch[1])
            j++;
        TF_CHECK_MSG(j < u.challenges, "partition %u: every challenge is node %u", k, ch[1]);
        free(ch);
        if (j < u.challenges) {
            cz_fc_snap_challenge_proof t = p.challenges[1];
            p.challenges[1] = p.challenges[j];
            p.challenges[j] = t;
            expect_verify(&u, &pub, &p, CZ_ERR_BAD_PROOF, "challenge 1");
            p.challenges[j] = p.challenges[1];
            p.challenges[1] = t;
            expect_verify(&u, &pub, &p, CZ_OK, NULL);
        }
        /* a leaf of TreeR new: its path no longer hashes to the root */
        p.challenges[4].r_new.leaf.b[0] ^= 1;
        expect_verify(&u, &pub, &p, CZ_ERR_BAD_PROOF,
                      "challenge 4 (node"); /* does not hash up to its root */
        p.challenges[4].r_new.leaf.b[0] ^= 1;
        /* a sibling of TreeD's path */
        p.challenges[3].d_new.levels[0].hashes[0].b[2] ^= 8;
        expect_verify(&u, &pub, &p, CZ_ERR_BAD_PROOF, "proof_d_new does not hash up");
        p.challenges[3].d_new.levels[0].hashes[0].b[2] ^= 8;
        /* every apex leaf changed: the apex check fails */
        for (unsigned i = 0; i < p.n_apex; i++)
            p.apex_leafs[i].b[1] ^= 0x10;
        expect_verify(&u, &pub, &p, CZ_ERR_BAD_PROOF, "apex-tree row");
    next:
        cz_fc_snap_proof_free(&p);
    }
    printf("test_fc_snap: %s updated, %u partition proofs verified\n", shape->name, u.partitions);
    cz_fc_snap_sector_free(x);
    free(old);
    free(data);
}

static void test_snap_sector(void)
{
    check_sector(2048, 0);
    if (!TF_SANITIZED)
        check_sector((uint64_t)8 << 20, 9);
}

/* A real update: a sealed 2KiB CC sector (cz_fc_seal_ex) updated with
 * random data; the update's comm_r_old is the seal's comm_r, and the
 * partition proof verifies. */
static void test_snap_sealed(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    TF_CHECK(t != NULL);
    cz_fc_sector sec = {.proof_type = t, .sector_id = 7};
    cz_prng_bytes(&tf_rng, sec.ticket, 32);
    sec.ticket[31] &= 0x3f;
    sec.prover_id[0] = 0xe8, sec.prover_id[1] = 0x07; /* LEB128(1000) */
    size_t n = (size_t)1 << t->shape->log_nodes;
    cz_fc_d *replica = malloc(n * sizeof *replica), *data = malloc(n * sizeof *data), comm_c;
    cz_fc_c1 c1;
    char err[256];
    TF_CHECK_MSG(cz_fc_seal_ex(&c1, &sec, NULL, replica, &comm_c, err, sizeof err) == CZ_OK, "%s",
                 err);
    for (size_t i = 0; i < n; i++)
        random_sha_d(&data[i]);
    cz_fc_snap_shape u;
    TF_CHECK(cz_fc_snap_shape_of(&u, n) == CZ_OK);
    cz_fc_snap_sector *x;
    TF_CHECK(cz_fc_snap_sector_new(&x, t->shape, &u, replica, data, &comm_c, u.h, NULL) ==
             CZ_OK);
    cz_fc_snap_public pub;
    cz_fc_snap_sector_public(x, 0, &pub);
    TF_CHECK(!memcmp(pub.comm_r_old.b, c1.comm_r.b, 32));
    TF_CHECK(memcmp(pub.comm_r_new.b, c1.comm_r.b, 32) != 0);
    cz_fc_snap_partition_proof p;
    TF_CHECK(cz_fc_snap_sector_prove(x, 0, &p, NULL) == CZ_OK);
    expect_verify(&u, &pub, &p, CZ_OK, NULL);
    cz_fc_snap_proof_free(&p);
    cz_fc_snap_sector_free(x);
    cz_fc_c1_free(&c1);
    free(replica);
    free(data);
}

/* Synthetic updates of every production size: the first and last
 * partitions' proofs verify; one of another seed's sector does not; and at
 * 2KiB the synthetic witness satisfies the circuit (below). */
static void test_snap_synth(void)
{
    static const uint64_t sizes[] = {2048, (uint64_t)8 << 20, (uint64_t)512 << 20,
                                     (uint64_t)32 << 30, (uint64_t)64 << 30};
    size_t n_sizes = TF_SANITIZED ? 2 : sizeof sizes / sizeof sizes[0];
    for (size_t i = 0; i < n_sizes; i++) {
        const cz_fc_shape *shape = cz_fc_shape_by_size(sizes[i]);
        cz_fc_snap_shape u;
        TF_CHECK(shape && cz_fc_snap_shape_of(&u, sizes[i] / 32) == CZ_OK);
        cz_fc_snap_sector *x, *y;
        TF_CHECK(cz_fc_snap_sector_synth(&x, shape, &u, 7 + i, u.h, NULL) == CZ_OK);
        TF_CHECK(cz_fc_snap_sector_synth(&y, shape, &u, 99, u.h, NULL) == CZ_OK);
        TF_CHECK(cz_fc_snap_sector_replica(x) == NULL);
        unsigned ks[2] = {0, u.partitions - 1};
        for (int t = 0; t < 2; t++) {
            cz_fc_snap_public pub, other;
            cz_fc_snap_partition_proof p;
            cz_fc_snap_sector_public(x, ks[t], &pub);
            cz_fc_snap_sector_public(y, ks[t], &other);
            TF_CHECK(cz_fc_snap_sector_prove(x, ks[t], &p, NULL) == CZ_OK);
            expect_verify(&u, &pub, &p, CZ_OK, NULL);
            expect_verify(&u, &other, &p, CZ_ERR_BAD_PROOF, NULL);
            cz_fc_snap_proof_free(&p);
        }
        printf("test_fc_snap: synthetic %s update verifies\n", shape->name);
        cz_fc_snap_sector_free(x);
        cz_fc_snap_sector_free(y);
    }
}

/* ---------------------------------------------------------- the circuit */

/* Counting mode against the sources' tests (circuit.rs test_..._constraints
 * for the test sizes; the facts file's derived counts for 8MiB): the
 * constraints without the input constraints, and 5 inputs with ONE. */
static void test_circuit_counts(void)
{
    static const struct {
        uint64_t nodes, want;
    } c[] = {
        {KIB(1), 1248389}, {KIB(2), 1705039}, {KIB(4), 2165109},
        {KIB(8), 2620359}, {KIB(16), 6300021}, {KIB(32), 6760091},
    };
    size_t n_sizes = TF_SANITIZED ? 2 : sizeof c / sizeof c[0];
    for (size_t i = 0; i < n_sizes; i++) {
        cz_fc_snap_shape u;
        TF_CHECK(cz_fc_snap_shape_of(&u, c[i].nodes) == CZ_OK);
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
        char err[256];
        TF_CHECK_MSG(cz_fc_snap_synthesize(cs, &u, NULL, NULL, err, sizeof err) == CZ_OK, "%s",
                     err);
        size_t n = cz_cs_num_constraints(cs);
        TF_CHECK_MSG(n == c[i].want && cz_cs_num_inputs(cs) == 5,
                     "%llu nodes: %zu constraints (want %llu), %zu inputs",
                     (unsigned long long)c[i].nodes, n, (unsigned long long)c[i].want,
                     cz_cs_num_inputs(cs));
        printf("test_fc_snap: circuit of %llu nodes: %zu constraints\n",
               (unsigned long long)c[i].nodes, n);
        cz_cs_free(cs);
    }
}

/* The circuit's two parts in counting mode against the facts file's
 * derivation (section 1.5, from the sources' count tests): the header is
 * 1 + (P + 6) + 1 + 1 + 3 + 311 + 2 x 312 + (2^A - 1) x 45,379 + P x
 * 45,381 + 1 + 568 D (gen_challenge_bits: 568 per digest), one challenge
 * 13 + 311 + 2 + 2 R + (2^A - 1) + (B - P - A) x 45,381 + 1; at 32GiB the
 * facts' figures fixed 5,951,289 and per challenge 873,235 (Release only:
 * ~6 M constraints). */
static void test_part_counts(void)
{
    static const struct {
        uint64_t nodes;
        size_t hdr, ch; /* 0: from the formula */
    } c[] = {{KIB(2), 0, 0}, {KIB(8 << 10), 0, 0}, {KIB(32u << 20), 5951289, 873235}};
    size_t n_sizes = TF_SANITIZED ? 1 : sizeof c / sizeof c[0];
    for (size_t i = 0; i < n_sizes; i++) {
        cz_fc_snap_shape u;
        TF_CHECK(cz_fc_snap_shape_of(&u, c[i].nodes) == CZ_OK);
        const size_t B = u.node_bits, P = u.partition_bits, A = u.apex_bits;
        size_t R = 1, lr = cz_fc_snap_tree_levels(&u, CZ_FC_TREE_RC);
        for (size_t l = 0; l < lr; l++) {
            unsigned a = cz_fc_snap_tree_arity(&u, CZ_FC_TREE_RC, (unsigned)l);
            R += a == 8 ? 527 : a == 4 ? 385 : 313;
        }
        size_t hdr = 1 + (P + 6) + 1 + 1 + 3 + 311 + 2 * 312 + ((size_t)u.apex_leaves - 1) * 45379 +
                     P * 45381 + 1 + 568 * (size_t)u.digests;
        size_t ch = 13 + 311 + 2 + 2 * R + ((size_t)u.apex_leaves - 1) + (B - P - A) * 45381 + 1;
        if (c[i].hdr)
            TF_CHECK(hdr == c[i].hdr && ch == c[i].ch);
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_COUNT, 0) == CZ_OK);
        cz_snap_header h;
        TF_CHECK(cz_snap_header_synth(cs, &u, NULL, NULL, &h) == CZ_OK);
        size_t got_hdr = cz_cs_num_constraints(cs);
        TF_CHECK(cz_snap_challenge(cs, &u, &h, NULL, 0) == CZ_OK && cz_cs_error(cs) == CZ_OK);
        size_t got_ch = cz_cs_num_constraints(cs) - got_hdr;
        TF_CHECK_MSG(got_hdr == hdr && got_ch == ch,
                     "%llu nodes: header %zu (want %zu), challenge %zu (want %zu)",
                     (unsigned long long)c[i].nodes, got_hdr, hdr, got_ch, ch);
        TF_CHECK(hdr + u.challenges * ch ==
                 (i == 0 ? 1705039u : i == 1 ? 10007503u : 81049499u));
        printf("test_fc_snap: %llu nodes: header %zu constraints (%u digests), %u challenges of "
               "%zu\n",
               (unsigned long long)c[i].nodes, got_hdr, u.digests, u.challenges, got_ch);
        cz_snap_header_free(&h);
        cz_cs_free(cs);
    }
}

/* A real 2KiB update's partition proof, and a synthetic one's, satisfy
 * the recorded circuit, and a tampered leaf does not. */
static void check_witness(bool synthetic)
{
    const cz_fc_shape *shape = cz_fc_shape_by_size(2048);
    cz_fc_snap_shape u;
    TF_CHECK(cz_fc_snap_shape_of(&u, 64) == CZ_OK);
    cz_fc_d old[64], data[64], comm_c;
    for (int i = 0; i < 64; i++) {
        random_fr_d(&old[i]);
        random_sha_d(&data[i]);
    }
    random_fr_d(&comm_c);
    cz_fc_snap_sector *x;
    if (synthetic)
        TF_CHECK(cz_fc_snap_sector_synth(&x, shape, &u, 5, u.h, NULL) == CZ_OK);
    else
        TF_CHECK(cz_fc_snap_sector_new(&x, shape, &u, old, data, &comm_c, u.h, NULL) == CZ_OK);
    cz_fc_snap_public pub;
    cz_fc_snap_sector_public(x, 0, &pub);
    cz_fc_snap_partition_proof p;
    TF_CHECK(cz_fc_snap_sector_prove(x, 0, &p, NULL) == CZ_OK);
    for (int tamper = 0; tamper < 2; tamper++) {
        if (tamper)
            p.challenges[3].d_new.leaf.b[0] ^= 1;
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_RECORD, 0) == CZ_OK);
        char err[256];
        TF_CHECK_MSG(cz_fc_snap_synthesize(cs, &u, &pub, &p, err, sizeof err) == CZ_OK, "%s",
                     err);
        cz_r1cs *r = NULL;
        TF_CHECK(cz_cs_finish(cs, &r) == CZ_OK && r != NULL);
        if (r) {
            size_t n = cz_r1cs_num_inputs(r) + cz_r1cs_num_aux(r);
            cz_fr *w = malloc(n * sizeof *w);
            cz_cs_write_assignment(cs, w);
            int rc = cz_r1cs_check(r, w, n, NULL, NULL, err, sizeof err);
            TF_CHECK_MSG(tamper ? rc == CZ_ERR_UNSATISFIED : rc == CZ_OK, "tamper %d: %s", tamper,
                         err);
            /* inputs: ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new */
            cz_fr want;
            cz_fr_from_u64(&want, cz_fc_snap_k_and_h(&u, 0, u.h));
            TF_CHECK(cz_fr_equal(&w[1], &want));
            TF_CHECK(cz_fc_d_to_fr(&want, &pub.comm_r_new) == CZ_OK && cz_fr_equal(&w[4], &want));
            /* the public inputs verify_empty_sector_update_proof computes */
            cz_fr in[CZ_FC_SNAP_INPUTS];
            TF_CHECK(cz_fc_snap_public_inputs(in, &u, &pub) == CZ_OK);
            for (int i = 0; i < CZ_FC_SNAP_INPUTS; i++)
                TF_CHECK(cz_fr_equal(&in[i], &w[1 + i]));
            /* the witness-only path: the same assignment, bit for bit */
            size_t n_in, n_aux;
            TF_CHECK(cz_fc_snap_counts(&u, &n_in, &n_aux) == CZ_OK);
            TF_CHECK(n_in == cz_r1cs_num_inputs(r) && n_aux == cz_r1cs_num_aux(r));
            cz_fr *w2 = malloc(n * sizeof *w2);
            TF_CHECK_MSG(cz_fc_snap_witness(w2, n, &u, &pub, &p, NULL, err, sizeof err) == CZ_OK,
                         "%s", err);
            TF_CHECK(!memcmp(w, w2, n * sizeof *w));
            TF_CHECK(cz_fc_snap_witness(w2, n - 1, &u, &pub, &p, NULL, err, sizeof err) ==
                     CZ_ERR_INVALID_ARG);
            free(w2);
            free(w);
        }
        cz_r1cs_free(r);
        cz_cs_free(cs);
    }
    cz_fc_snap_proof_free(&p);
    cz_fc_snap_sector_free(x);
}

static void test_circuit_witness(void)
{
    check_witness(false);
    check_witness(true);
}

/* The challenge-parallel witness (cz_fc_snap_witness on a pool) equals
 * the circuit's own witness-only run on synthetic updates' last
 * partitions: 2KiB, and 8MiB (4 partitions; Release only). */
static void test_witness_parallel(void)
{
    static const uint64_t sizes[] = {2048, (uint64_t)8 << 20};
    cz_pool *pool;
    TF_CHECK(cz_pool_new(&pool, 4) == CZ_OK);
    for (size_t i = 0; i < (TF_SANITIZED ? 1 : 2); i++) {
        const cz_fc_shape *shape = cz_fc_shape_by_size(sizes[i]);
        cz_fc_snap_shape u;
        TF_CHECK(shape && cz_fc_snap_shape_of(&u, sizes[i] / 32) == CZ_OK);
        cz_fc_snap_sector *x;
        TF_CHECK(cz_fc_snap_sector_synth(&x, shape, &u, tf_seed + i, u.h, NULL) == CZ_OK);
        unsigned k = u.partitions - 1;
        cz_fc_snap_public pub;
        cz_fc_snap_partition_proof p;
        cz_fc_snap_sector_public(x, k, &pub);
        TF_CHECK(cz_fc_snap_sector_prove(x, k, &p, NULL) == CZ_OK);
        size_t n_in, n_aux;
        TF_CHECK(cz_fc_snap_counts(&u, &n_in, &n_aux) == CZ_OK);
        size_t n = n_in + n_aux;
        cz_cs *cs;
        TF_CHECK(cz_cs_new(&cs, CZ_CS_WITNESS, 0) == CZ_OK);
        char err[256];
        TF_CHECK_MSG(cz_fc_snap_synthesize(cs, &u, &pub, &p, err, sizeof err) == CZ_OK, "%s",
                     err);
        TF_CHECK(cz_cs_num_inputs(cs) == n_in && cz_cs_num_aux(cs) == n_aux);
        cz_fr *w = malloc(n * sizeof *w), *w2 = malloc(n * sizeof *w2);
        TF_CHECK(w && w2);
        cz_cs_write_assignment(cs, w);
        cz_cs_free(cs);
        double t0 = cz_clock_s(CLOCK_MONOTONIC);
        TF_CHECK_MSG(cz_fc_snap_witness(w2, n, &u, &pub, &p, pool, err, sizeof err) == CZ_OK,
                     "%s", err);
        double dt = cz_clock_s(CLOCK_MONOTONIC) - t0;
        TF_CHECK(!memcmp(w, w2, n * sizeof *w));
        printf("test_fc_snap: %llu-node witness, partition %u: %zu values, %.2f s on 4 threads\n",
               (unsigned long long)u.sector_nodes, k, n, dt);
        free(w);
        free(w2);
        cz_fc_snap_proof_free(&p);
        cz_fc_snap_sector_free(x);
    }
    cz_pool_free(pool);
}

/* Commitments as Curio sends them: raw, or as go-fil-commcid CIDs. */
static void test_commitments(void)
{
    cz_fc_d v, got;
    random_fr_d(&v);
    char err[256];
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, v.b, 32, err, sizeof err) == CZ_OK);
    TF_CHECK(!memcmp(got.b, v.b, 32));
    /* CommR: 01 | f102 | b401 | 20 | digest; CommD: 01 | f101 | 1012 | 20 */
    uint8_t r[40] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    uint8_t d[39] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    memcpy(r + 8, v.b, 32);
    memcpy(d + 7, v.b, 32);
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, r, 40, err, sizeof err) == CZ_OK);
    TF_CHECK(!memcmp(got.b, v.b, 32));
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_D, d, 39, err, sizeof err) == CZ_OK);
    TF_CHECK(!memcmp(got.b, v.b, 32));
    /* the other kind's CID */
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_D, r, 40, err, sizeof err) ==
             CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "codec 0xf102") && strstr(err, "data commitment"), "%s", err);
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, d, 39, err, sizeof err) ==
             CZ_ERR_BAD_FORMAT);
    /* lengths */
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, r, 31, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, r, 39, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    uint8_t longer[41];
    memcpy(longer, r, 40);
    longer[40] = 0;
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, longer, 41, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    /* a non-minimal varint, a CIDv0-like first byte */
    uint8_t nm[41] = {0x01, 0x82, 0xe2, 0x83, 0x00, 0x81, 0xe8, 0x02, 0x20};
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, nm, 41, err, sizeof err) ==
             CZ_ERR_BAD_FORMAT);
    r[0] = 0x12;
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, r, 40, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    /* not a field element: r itself, little endian */
    static const uint8_t modulus[32] = {
        0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
        0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    TF_CHECK(cz_fc_commitment_read(&got, CZ_FC_COMM_R, modulus, 32, err, sizeof err) ==
             CZ_ERR_NOT_CANONICAL);
    /* the registered update proofs */
    static const uint64_t size[5] = {2048, 8 << 20, 512 << 20, (uint64_t)32 << 30,
                                     (uint64_t)64 << 30};
    for (uint64_t id = 0; id < 5; id++)
        TF_CHECK(cz_fc_snap_proof_shape(id) && cz_fc_snap_proof_shape(id)->sector_size == size[id]);
    TF_CHECK(cz_fc_snap_proof_shape(5) == NULL);
}

/* The fuzzer's seeds (fuzz/corpus/snap_proof): random 2KiB and 8MiB
 * partition proofs from generator seed 1. */
static int write_seeds(const char *dir)
{
    static const uint64_t sizes[] = {KIB(2), KIB(8 << 10)};
    static const char *const names[] = {"2k.bin", "8m.bin"};
    cz_prng_seed(&tf_rng, 1);
    mkdir(dir, 0755);
    for (int i = 0; i < 2; i++) {
        cz_fc_snap_shape s;
        cz_fc_snap_partition_proof p;
        if (cz_fc_snap_shape_of(&s, sizes[i]) != CZ_OK)
            return 1;
        random_proof(&p, &s);
        size_t n;
        uint8_t *b = encode(&p, &s, &n);
        int bad = tf_write_file(dir, names[i], b, n);
        free(b);
        cz_fc_snap_proof_free(&p);
        if (bad)
            return 1;
    }
    return 0;
}

TF_MAIN_SEEDS(write_seeds, TF_TEST(test_shapes), TF_TEST(test_params_names),
              TF_TEST(test_gen_randomness), TF_TEST(test_gen_randomness_circuit),
              TF_TEST(test_challenge_vectors), TF_TEST(test_challenge_buckets),
              TF_TEST(test_proof_layout), TF_TEST(test_proof_roundtrip),
              TF_TEST(test_proof_refusals), TF_TEST(test_snap_sector),
              TF_TEST(test_snap_sealed), TF_TEST(test_snap_synth), TF_TEST(test_circuit_counts),
              TF_TEST(test_part_counts), TF_TEST(test_circuit_witness),
              TF_TEST(test_witness_parallel), TF_TEST(test_commitments))
