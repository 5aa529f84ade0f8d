/* Filecoin sectors: hashers, fr32, trees, ids, labels, challenges, sealing,
 * synthetic C1s, the vanilla verifier (every field of a C1 tampered with
 * is rejected), the circuit's public inputs and seal verification.
 *
 * Oracles: filecoin-proofs' comm_d of an empty 2KiB and 128-byte sector
 * (tests/pieces.rs), Curio's golden 32GiB CC sector's CommD (its cuzk's
 * cuzk-project.md), storage-proofs-porep's hard-coded synthetic
 * challenges (challenges.rs), and between our own parts: dense trees
 * against sparse ones, a sealed sector's C1 against the verifier, the
 * verifier against every single-field change. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/pool.h"
#include "cuzk/sha256.h"
#include "filecoin/porep/internal.h"
#include "tf.h"

static void hex32(cz_fc_d *d, const char *hex) { TF_CHECK(tf_unhex(d->b, 32, hex) == 32); }

static void random_d(cz_fc_d *d)
{
    cz_prng_bytes(&tf_rng, d->b, 32);
    d->b[31] &= 0x3f;
}

static uint64_t rnd(uint64_t n) { return cz_prng_next(&tf_rng) % n; }

/* ------------------------------------------------------------ hashers --- */

static void test_fr32(void)
{
    for (unsigned it = 0; it < 20 * tf_scale; it++) {
        size_t n = 127 * (1 + rnd(16));
        uint8_t *raw = malloc(n), *pad = malloc(n / 127 * 128), *back = malloc(n);
        cz_prng_bytes(&tf_rng, raw, n);
        TF_CHECK(cz_fc_fr32_padded_len(n) == n / 127 * 128);
        cz_fc_fr32_pad(pad, raw, n);
        for (size_t i = 31; i < n / 127 * 128; i += 32)
            TF_CHECK((pad[i] & 0xc0) == 0);
        TF_CHECK(cz_fc_fr32_unpad(back, pad, n / 127 * 128) == CZ_OK);
        TF_CHECK_MEM(back, raw, n);
        /* bit 254 + 256u of the padded stream is raw bit 254u + 254 */
        size_t u = rnd(n / 127 * 4);
        size_t src = 254 * u + rnd(254), dst = 256 * u + src % 254;
        TF_CHECK(((raw[src / 8] >> (src % 8)) & 1) == ((pad[dst / 8] >> (dst % 8)) & 1));
        pad[32 * u + 31] |= (uint8_t)(0x40 << rnd(2));
        TF_CHECK(cz_fc_fr32_unpad(back, pad, n / 127 * 128) == CZ_ERR_BAD_FORMAT);
        free(raw);
        free(pad);
        free(back);
    }
    uint8_t ones[127], pad[128];
    memset(ones, 0xff, sizeof ones);
    cz_fc_fr32_pad(pad, ones, sizeof ones);
    for (int i = 0; i < 128; i++)
        TF_CHECK(pad[i] == (i % 32 == 31 ? 0x3f : 0xff));
}

static void test_sha256_trunc(void)
{
    for (unsigned it = 0; it < 50; it++) {
        uint8_t m[100], h[32];
        size_t n = rnd(sizeof m);
        cz_prng_bytes(&tf_rng, m, n);
        cz_fc_d d;
        cz_fc_sha256_trunc(&d, m, n);
        cz_sha256(h, m, n);
        h[31] &= 0x3f;
        TF_CHECK_MEM(d.b, h, 32);
    }
}

/* -------------------------------------------------------------- trees --- */

/* Shapes for trees of every form, small enough for dense trees. */
static const cz_fc_shape tiny_shapes[] = {
    {.name = "4 nodes", .log_nodes = 2, .layers = 2, .base_levels = 0},
    {.name = "2KiB-like", .log_nodes = 6, .layers = 2, .base_levels = 2},
    {.name = "sub", .log_nodes = 9, .layers = 2, .base_levels = 2, .sub_arity = 8},
    {.name = "top", .log_nodes = 10, .layers = 2, .base_levels = 2, .sub_arity = 8, .top_arity = 2},
};

static void test_zero_comm_d(void)
{
    cz_fc_d want, got, zero = {{0}};
    cz_fc_tree *t;
    /* filecoin-proofs tests/pieces.rs test_compute_comm_d_empty */
    hex32(&want, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    TF_CHECK(cz_fc_tree_build_sparse(&t, CZ_FC_TREE_D, cz_fc_shape_get(CZ_FC_2KIB), NULL, NULL, 0,
                                     &zero, NULL) == CZ_OK);
    cz_fc_tree_root(t, &got);
    TF_CHECK_MEM(got.b, want.b, 32);
    cz_fc_tree_free(t);
    cz_fc_d leaves[64];
    memset(leaves, 0, sizeof leaves);
    TF_CHECK(cz_fc_tree_build(&t, CZ_FC_TREE_D, cz_fc_shape_get(CZ_FC_2KIB), leaves, NULL) ==
             CZ_OK);
    cz_fc_tree_root(t, &got);
    TF_CHECK_MEM(got.b, want.b, 32);
    cz_fc_tree_free(t);
    /* a 32GiB CC sector's CommD, baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4yn
     * r3d2y6x2mpq in Curio's golden data (extern/cuzk/cuzk-project.md
     * commdr.txt): the CID's multihash digest */
    hex32(&want, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
    TF_CHECK(cz_fc_tree_build_sparse(&t, CZ_FC_TREE_D, cz_fc_shape_get(CZ_FC_32GIB), NULL, NULL,
                                     0, &zero, NULL) == CZ_OK);
    cz_fc_tree_root(t, &got);
    TF_CHECK_MEM(got.b, want.b, 32);
    cz_fc_tree_free(t);
    hex32(&want, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333");
    TF_CHECK(cz_fc_tree_build(&t, CZ_FC_TREE_D, &tiny_shapes[0], leaves, NULL) == CZ_OK);
    cz_fc_tree_root(t, &got);
    TF_CHECK_MEM(got.b, want.b, 32);
    cz_fc_tree_free(t);
}

static void test_tree_shapes(void)
{
    for (int id = 0; id < CZ_FC__SHAPES; id++) {
        const cz_fc_shape *s = cz_fc_shape_get((cz_fc_shape_id)id);
        for (int k = 0; k < 2; k++) {
            uint64_t prod = 1;
            unsigned n = cz_fc_tree_levels((cz_fc_tree_kind)k, s);
            for (unsigned l = 0; l < n; l++)
                prod *= cz_fc_tree_arity((cz_fc_tree_kind)k, s, l);
            TF_CHECK_MSG(prod == (uint64_t)1 << s->log_nodes, "%s kind %d: %llu leaves", s->name,
                         k, (unsigned long long)prod);
        }
        TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_D, s) == CZ_FC_PROOF_SINGLE);
    }
    TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_RC, cz_fc_shape_get(CZ_FC_512MIB)) == CZ_FC_PROOF_SINGLE);
    TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_RC, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_FC_PROOF_SUB);
    TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_RC, cz_fc_shape_get(CZ_FC_64GIB)) == CZ_FC_PROOF_TOP);
}

static bool proofs_equal(const cz_fc_merkle_proof *a, const cz_fc_merkle_proof *b)
{
    if (a->form != b->form || a->n_levels != b->n_levels || memcmp(&a->root, &b->root, 32) ||
        memcmp(&a->leaf, &b->leaf, 32))
        return false;
    for (uint32_t l = 0; l < a->n_levels; l++)
        if (a->levels[l].arity != b->levels[l].arity || a->levels[l].index != b->levels[l].index ||
            memcmp(a->levels[l].hashes, b->levels[l].hashes, (a->levels[l].arity - 1u) * 32))
            return false;
    return true;
}

/* Dense and sparse trees over the same leaves agree on the root and every
 * proof; proofs hash to the root and encode their index; one changed
 * hash changes the root. */
static void test_trees_dense_sparse(void)
{
    for (size_t si = 0; si < sizeof tiny_shapes / sizeof tiny_shapes[0]; si++) {
        const cz_fc_shape *s = &tiny_shapes[si];
        for (int kind = 0; kind < 2; kind++) {
            cz_fc_tree_kind k = (cz_fc_tree_kind)kind;
            if (k == CZ_FC_TREE_RC && s->base_levels == 0)
                continue;
            uint64_t n = (uint64_t)1 << s->log_nodes;
            cz_fc_d *leaves = malloc(n * sizeof *leaves), *sp = malloc(n * sizeof *sp), def;
            uint64_t *idx = malloc(n * sizeof *idx);
            random_d(&def);
            size_t m = 0;
            unsigned density = 1 + (unsigned)rnd(8);
            for (uint64_t i = 0; i < n; i++) {
                if (rnd(8) < density) {
                    random_d(&leaves[i]);
                    idx[m] = i;
                    sp[m++] = leaves[i];
                } else {
                    leaves[i] = def;
                }
            }
            /* the sparse tree takes its leaves in any order */
            for (size_t i = m; i > 1; i--) {
                size_t j = rnd(i);
                uint64_t ti = idx[i - 1];
                cz_fc_d td = sp[i - 1];
                idx[i - 1] = idx[j], sp[i - 1] = sp[j];
                idx[j] = ti, sp[j] = td;
            }
            cz_fc_tree *d, *t;
            TF_CHECK(cz_fc_tree_build(&d, k, s, leaves, NULL) == CZ_OK);
            TF_CHECK(cz_fc_tree_build_sparse(&t, k, s, idx, sp, m, &def, NULL) == CZ_OK);
            cz_fc_d rd, rs;
            cz_fc_tree_root(d, &rd);
            cz_fc_tree_root(t, &rs);
            TF_CHECK_MSG(memcmp(&rd, &rs, 32) == 0, "%s kind %d: roots differ", s->name, kind);
            size_t nh = cz_fc_tree_proof_hashes(d);
            TF_CHECK(nh == cz_fc_tree_proof_hashes(t));
            cz_fc_path_el lv[2][40];
            cz_fc_d *hs[2] = {malloc(nh * 32), malloc(nh * 32)};
            for (unsigned it = 0; it < 10 && m > 0; it++) {
                uint64_t i = idx[rnd(m)];
                cz_fc_merkle_proof p[2];
                TF_CHECK(cz_fc_tree_proof(d, i, &p[0], lv[0], hs[0]) == CZ_OK);
                TF_CHECK(cz_fc_tree_proof(t, i, &p[1], lv[1], hs[1]) == CZ_OK);
                TF_CHECK(proofs_equal(&p[0], &p[1]));
                TF_CHECK(cz_fc_proof_index(&p[0]) == i);
                TF_CHECK(p[0].n_levels == cz_fc_tree_levels(k, s));
                cz_fc_d r;
                TF_CHECK(cz_fc_proof_root(&p[0], k, &r) == CZ_OK && !memcmp(&r, &rd, 32));
                size_t h = rnd(nh);
                hs[0][h].b[0] ^= 1;
                TF_CHECK(cz_fc_proof_root(&p[0], k, &r) == CZ_OK && memcmp(&r, &rd, 32) != 0);
            }
            /* a leaf the sparse tree does not hold has no proof there */
            for (uint64_t i = 0; i < n; i++) {
                if (memcmp(&leaves[i], &def, 32) == 0) {
                    cz_fc_merkle_proof p;
                    TF_CHECK(cz_fc_tree_proof(t, i, &p, lv[1], hs[1]) == CZ_ERR_INVALID_ARG);
                    break;
                }
            }
            cz_fc_merkle_proof p;
            TF_CHECK(cz_fc_tree_proof(d, n, &p, lv[0], hs[0]) == CZ_ERR_INVALID_ARG);
            if (m >= 2) { /* repeated indexes are refused */
                idx[1] = idx[0];
                cz_fc_tree *bad;
                TF_CHECK(cz_fc_tree_build_sparse(&bad, k, s, idx, sp, m, &def, NULL) ==
                         CZ_ERR_INVALID_ARG);
            }
            free(hs[0]);
            free(hs[1]);
            cz_fc_tree_free(d);
            cz_fc_tree_free(t);
            free(leaves);
            free(sp);
            free(idx);
        }
    }
}

/* ---------------------------------------------------- ids and labels --- */

static void test_ids(void)
{
    uint8_t p[32], want[32] = {0xe8, 0x07};
    cz_fc_prover_id(p, 1000); /* f01000: LEB128 e8 07 */
    TF_CHECK_MEM(p, want, 32);
    memset(want, 0, 32);
    cz_fc_prover_id(p, 0);
    TF_CHECK_MEM(p, want, 32);
    for (unsigned it = 0; it < 100; it++) {
        uint64_t id = cz_prng_next(&tf_rng) >> rnd(64);
        cz_fc_prover_id(p, id);
        uint64_t back = 0;
        unsigned i = 0;
        do
            back |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        while (p[i++] & 0x80);
        TF_CHECK(back == id);
        for (; i < 32; i++)
            TF_CHECK(p[i] == 0);
    }
    /* replica_id: the 136 bytes hashed, sector id big-endian */
    uint8_t prover[32], ticket[32], porep[32], m[136];
    cz_fc_d comm_d, rid, ref;
    cz_prng_bytes(&tf_rng, prover, 32);
    cz_prng_bytes(&tf_rng, ticket, 32);
    cz_prng_bytes(&tf_rng, porep, 32);
    random_d(&comm_d);
    cz_fc_replica_id(&rid, prover, 0x0102030405060708ull, ticket, &comm_d, porep);
    memcpy(m, prover, 32);
    for (int i = 0; i < 8; i++)
        m[32 + i] = (uint8_t)(i + 1);
    memcpy(m + 40, ticket, 32);
    memcpy(m + 72, comm_d.b, 32);
    memcpy(m + 104, porep, 32);
    cz_fc_sha256_trunc(&ref, m, sizeof m);
    TF_CHECK_MEM(rid.b, ref.b, 32);
    /* porep_id: the registered proof's number, then zeros */
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg32GiBV1_1");
    TF_CHECK(t != NULL);
    cz_fc_porep_id(porep, t);
    TF_CHECK(porep[0] == 8 && porep[1] == 0);
}

static void test_labels(void)
{
    cz_fc_d drg[6], exp[8], par[37], rid, out;
    for (int i = 0; i < 6; i++)
        random_d(&drg[i]);
    for (int i = 0; i < 8; i++)
        random_d(&exp[i]);
    cz_fc_label_parents(par, 1, drg, exp);
    for (int i = 0; i < 37; i++)
        TF_CHECK(!memcmp(&par[i], &drg[i % 6], 32));
    cz_fc_label_parents(par, 3, drg, exp);
    for (int i = 0; i < 37; i++)
        TF_CHECK(!memcmp(&par[i], i % 14 < 6 ? &drg[i % 14] : &exp[i % 14 - 6], 32));
    /* label = sha256(replica_id || layer BE || node BE || 20 zeros || parents) */
    random_d(&rid);
    uint8_t m[64 + 37 * 32];
    memset(m, 0, sizeof m);
    memcpy(m, rid.b, 32);
    m[35] = 3;
    m[43] = 0x2a, m[42] = 0x01;
    memcpy(m + 64, par, sizeof par);
    cz_fc_d ref;
    cz_fc_label(&out, &rid, 3, 0x12a, par);
    cz_fc_sha256_trunc(&ref, m, sizeof m);
    TF_CHECK_MEM(out.b, ref.b, 32);
    cz_fc_label(&out, &rid, 3, 0, par); /* node 0: no parents */
    m[43] = m[42] = 0;
    cz_fc_sha256_trunc(&ref, m, 64);
    TF_CHECK_MEM(out.b, ref.b, 32);
}

/* storage-proofs-porep tests/stacked_vanilla.rs
 * test_stacked_porep_generate_labels: the last node's label in layer 11 of
 * 2048- and 4096-byte sectors, replica_id [9; 32], porep_id [0; 32] or
 * [123; 32], each API version (the graph's rules, every layer's parents
 * and the label layout at once). */
static void test_label_vectors(void)
{
    static const struct {
        unsigned log_nodes;
        uint8_t porep;
        cz_fc_api api;
        uint64_t want[4]; /* Fr::from_u64s_le */
    } v[] = {
        {6, 0, CZ_FC_API_1_0,
         {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37}},
        {7, 0, CZ_FC_API_1_0,
         {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be}},
        {6, 123, CZ_FC_API_1_1,
         {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
        {7, 123, CZ_FC_API_1_1,
         {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
        {6, 123, CZ_FC_API_1_2,
         {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
        {7, 123, CZ_FC_API_1_2,
         {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cz_fc_shape sh = {.log_nodes = v[i].log_nodes, .layers = 11};
        uint64_t n = (uint64_t)1 << sh.log_nodes;
        uint8_t porep[32];
        memset(porep, v[i].porep, 32);
        cz_fc_d rid, want;
        memset(rid.b, 9, 32);
        for (int b = 0; b < 32; b++)
            want.b[b] = (uint8_t)(v[i].want[b / 8] >> (8 * (b % 8)));
        cz_fc_graph g;
        cz_fc_graph_init(&g, &sh, porep, v[i].api);
        uint32_t *par = malloc(n * CZ_FC_PARENTS * sizeof *par);
        cz_fc_d *lab = malloc(11 * n * sizeof *lab);
        TF_CHECK(cz_fc_parents_all(par, &g, NULL) == CZ_OK);
        cz_fc_labels_all(lab, par, n, 11, &rid);
        TF_CHECK_MSG(memcmp(lab[11 * n - 1].b, want.b, 32) == 0,
                     "%llu nodes, porep_id [%u; 32], API %s: the last label differs",
                     (unsigned long long)n, v[i].porep, cz_fc_api_name(v[i].api));
        free(par);
        free(lab);
    }
}

/* --------------------------------------------------------- challenges --- */

static void fr_d(cz_fc_d *d, uint64_t v)
{
    cz_fr x;
    cz_fr_from_u64(&x, v);
    cz_fc_d_from_fr(d, &x);
}

/* storage-proofs-porep challenges.rs test_synth_challenges_against_hardcoded */
static void test_synth_challenges_vector(void)
{
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    cz_fc_d rid, comm_r;
    fr_d(&rid, 55);
    fr_d(&comm_r, 101);
    cz_fc_synth_gen g;
    cz_fc_synth_init(&g, 1 << 10, 21, &rid, &comm_r);
    for (int i = 20; i >= 0; i--) /* seeking backwards too */
        TF_CHECK_MSG(cz_fc_synth_at(&g, (uint64_t)i) == synth[i], "synthetic challenge %d", i);
    uint8_t rand[32];
    memset(rand, 1, sizeof rand);
    uint64_t sel[10];
    cz_fc_synth_select(sel, &g, rand, 0, 10);
    for (int i = 0; i < 10; i++)
        TF_CHECK_MSG(cz_fc_synth_at(&g, sel[i]) == porep[i], "porep challenge %d", i);
    /* a partition's selection continues the stream */
    uint64_t part[4];
    cz_fc_synth_select(part, &g, rand, 6, 4);
    TF_CHECK(memcmp(part, sel + 6, sizeof part) == 0);
}

/* (x mod m) + 1 of a 256-bit LE x by schoolbook bit-serial reduction: an
 * independent twin of the byte-wise reduction the library uses. */
static uint64_t ref_challenge(const uint8_t h[32], uint64_t nodes)
{
    uint64_t m = nodes - 1, r = 0;
    for (int bit = 255; bit >= 0; bit--) {
        r = 2 * r + ((h[bit / 8] >> (bit % 8)) & 1);
        if (r >= m)
            r -= m;
    }
    return r + 1;
}

static void test_challenges(void)
{
    for (unsigned it = 0; it < 10 * tf_scale; it++) {
        const char *names[] = {"StackedDrg2KiBV1_1", "StackedDrg32GiBV1_1", "StackedDrg64GiBV1",
                               "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
                               "StackedDrg8MiBV1_1_Feat_SyntheticPoRep"};
        const cz_fc_proof_type *t = cz_fc_proof_by_name(names[rnd(5)]);
        TF_CHECK(t != NULL);
        if (t == NULL)
            continue;
        cz_fc_d rid, comm_r;
        uint8_t seed[32];
        random_d(&rid);
        random_d(&comm_r);
        cz_prng_bytes(&tf_rng, seed, 32);
        uint64_t nodes = (uint64_t)1 << t->shape->log_nodes, ch[18];
        unsigned k = (unsigned)rnd(t->partitions), n = t->shape->challenges;
        TF_CHECK(cz_fc_challenges(ch, t, &rid, seed, &comm_r, k) == CZ_OK);
        for (unsigned i = 0; i < n; i++) {
            TF_CHECK(ch[i] >= 1 && ch[i] < nodes);
            uint8_t m[100], h[32];
            size_t len = 0;
            uint32_t j = n * k + i;
            if (t->feature == CZ_FC_INTERACTIVE) {
                memcpy(m, rid.b, 32), memcpy(m + 32, seed, 32), len = 64;
            } else if (t->feature == CZ_FC_NI) {
                static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
                memcpy(m, tag, 36), memcpy(m + 36, rid.b, 32), memcpy(m + 68, comm_r.b, 32);
                len = 100;
            } else {
                continue; /* synthetic: the vector above */
            }
            uint8_t jb[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)};
            uint8_t full[104];
            memcpy(full, m, len);
            memcpy(full + len, jb, 4);
            cz_sha256(h, full, len + 4);
            TF_CHECK_MSG(ch[i] == ref_challenge(h, nodes), "%s k %u challenge %u", t->name, k, i);
        }
        TF_CHECK(cz_fc_challenges(ch, t, &rid, seed, &comm_r, t->partitions) ==
                 CZ_ERR_INVALID_ARG);
    }
}

/* ------------------------------------------------- sealing, verifying --- */

/* A sector to seal: random ids, random Fr32-padded data (NULL data for a
 * CC sector when zero is set). */
typedef struct {
    cz_fc_sector sec;
    uint8_t *data;
} sector;

static void make_sector(sector *s, const cz_fc_proof_type *t, bool zero)
{
    memset(s, 0, sizeof *s);
    s->sec.proof_type = t;
    cz_fc_prover_id(s->sec.prover_id, 1000 + rnd(100000));
    s->sec.sector_id = rnd(1u << 20);
    cz_prng_bytes(&tf_rng, s->sec.ticket, 32);
    s->sec.ticket[31] &= 0x3f;
    cz_prng_bytes(&tf_rng, s->sec.seed, 32);
    s->sec.seed[31] &= 0x3f;
    if (!zero) {
        size_t raw = t->shape->sector_size / 128 * 127;
        uint8_t *r = malloc(raw);
        s->data = malloc(t->shape->sector_size);
        cz_prng_bytes(&tf_rng, r, raw);
        cz_fc_fr32_pad(s->data, r, raw);
        free(r);
        s->sec.data = s->data;
    }
}

static cz_pool *pool2;

static void free_pool(void) { cz_pool_free(pool2); }

/* Verified on two threads and on one: the same answer and message. */
static int verify_c1(const cz_fc_c1 *c1, const sector *s, char *err, size_t n)
{
    cz_fc_verify_opts o = {.prover_id = s->sec.prover_id, .sector_id = s->sec.sector_id,
                           .api = -1, .pool = pool2};
    if (pool2 == NULL) {
        if (cz_pool_new(&pool2, 2) != CZ_OK)
            return CZ_ERR_THREAD;
        atexit(free_pool);
    }
    o.pool = pool2;
    int rc = cz_fc_vanilla_verify(c1, &o, err, n);
    if (c1->partitions * c1->challenges < 100) {
        char e1[300] = "";
        o.pool = NULL;
        TF_CHECK(cz_fc_vanilla_verify(c1, &o, e1, sizeof e1) == rc);
        TF_CHECK(rc == CZ_OK || strcmp(e1, err) == 0);
    }
    return rc;
}

/* One field of a C1 to change: byte `off` of the object at p xored with
 * mask; the verifier's message must contain expect (NULL: any). */
typedef struct {
    const char *what, *expect;
    uint8_t *p;
    unsigned off;
    uint8_t mask;
} target;

static size_t targets_of(const cz_fc_c1 *c1, target *t)
{
    size_t n = 0, np = (size_t)c1->partitions * c1->challenges;
    cz_fc_vanilla_proof *v = &c1->proofs[rnd(np)];
    unsigned L = c1->proof_type->shape->layers;
#define T(w, e, ptr) (t[n] = (target){(w), (e), (uint8_t *)(ptr), 0, 1}, n++)
#define NC(w, e, ptr) (t[n] = (target){(w), (e), (uint8_t *)(ptr), 31, 0xc0}, n++)
    cz_fc_merkle_proof *d = &v->comm_d_proof;
    T("comm_d_proof.leaf", "comm_d_proofs", &d->leaf);
    T("comm_d_proof.hash", "comm_d_proofs", &d->levels[rnd(d->n_levels)].hashes[0]);
    T("comm_d_proof.index", "comm_d_proofs", &d->levels[rnd(d->n_levels)].index);
    T("comm_d_proof.root", "comm_d_proofs", &d->root);
    T("c_x.rows", "c_x: the column hash", &v->c_x.rows[rnd(L)]);
    NC("c_x.rows non-canonical", "c_x: a row is not a field element", &v->c_x.rows[rnd(L)]);
    T("c_x.index", "c_x: column index", &v->c_x.index);
    T("c_x.root", NULL, &v->c_x.inclusion.root);
    unsigned j = (unsigned)rnd(6), e = (unsigned)rnd(8);
    T("drg.rows", "drg_parents", &v->drg[j].rows[rnd(L)]);
    T("drg.index", "drg_parents", &v->drg[j].index);
    T("drg.leaf", "drg_parents", &v->drg[j].inclusion.leaf);
    cz_fc_merkle_proof *x = &v->exp[e].inclusion;
    T("exp.rows", "exp_parents", &v->exp[e].rows[rnd(L)]);
    T("exp.index", "exp_parents", &v->exp[e].index);
    cz_fc_path_el *el = &x->levels[rnd(x->n_levels)];
    T("exp.hash", "exp_parents", &el->hashes[rnd(el->arity - 1u)]);
    NC("exp.hash non-canonical", "exp_parents", &el->hashes[rnd(el->arity - 1u)]);
    T("exp.path_index", "exp_parents", &el->index);
    cz_fc_merkle_proof *r = &v->comm_r_last_proof;
    T("comm_r_last_proof.leaf", "comm_r_last_proof", &r->leaf);
    T("comm_r_last_proof.root", NULL, &r->root);
    el = &r->levels[rnd(r->n_levels)];
    T("comm_r_last_proof.hash", "comm_r_last_proof", &el->hashes[rnd(el->arity - 1u)]);
    unsigned l = (unsigned)rnd(L);
    T("labeling.parents", "labeling_proofs", &v->labeling[l].parents[rnd(37)]);
    T("labeling.node", "labeling_proofs", &v->labeling[l].node);
    T("labeling.layer", "labeling_proofs", &v->labeling[l].layer_index);
    T("encoding.parents", "encoding_proof", &v->encoding.parents[rnd(37)]);
    T("encoding.node", "encoding_proof", &v->encoding.node);
    T("encoding.layer", "encoding_proof", &v->encoding.layer_index);
    T("comm_r", "comm_r", &c1->comm_r);
    T("comm_d", "comm_d", &c1->comm_d);
    T("replica_id", "replica_id", &c1->replica_id);
    T("seed (the challenges)", "the proof is for node", &c1->seed);
#undef T
#undef NC
    return n;
}

/* Every change listed above (or `max` of them drawn at random) is rejected
 * with its message, and undoing it is accepted again. */
static void check_tampering(const cz_fc_c1 *c1, const sector *s, size_t max)
{
    target t[64];
    size_t n = targets_of(c1, t);
    for (; n > max; n--) /* drop a random one */
        t[rnd(n)] = t[n - 1];
    char err[300];
    for (size_t i = 0; i < n; i++) {
        uint64_t before[18], after[18];
        bool seed = t[i].p == c1->seed;
        if (seed)
            cz_fc_challenges(before, c1->proof_type, &c1->replica_id, c1->seed, &c1->comm_r, 0);
        t[i].p[t[i].off] ^= t[i].mask;
        if (seed) { /* NI challenges ignore the seed; a small sector's may repeat */
            cz_fc_challenges(after, c1->proof_type, &c1->replica_id, c1->seed, &c1->comm_r, 0);
            if (memcmp(before, after, c1->challenges * sizeof *after) == 0) {
                t[i].p[t[i].off] ^= t[i].mask;
                continue;
            }
        }
        err[0] = 0;
        int rc = verify_c1(c1, s, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_ERR_BAD_PROOF, "%s %s changed: %s", c1->proof_type->name, t[i].what,
                     cz_strerror(rc));
        TF_CHECK_MSG(err[0] && (!t[i].expect || strstr(err, t[i].expect)),
                     "%s %s changed: message \"%s\" (expected \"%s\")", c1->proof_type->name,
                     t[i].what, err, t[i].expect ? t[i].expect : "");
        t[i].p[t[i].off] ^= t[i].mask;
    }
    TF_CHECK(verify_c1(c1, s, err, sizeof err) == CZ_OK);
    /* the sector's identity */
    cz_fc_verify_opts o = {.prover_id = s->sec.prover_id, .sector_id = s->sec.sector_id + 1,
                           .api = -1};
    TF_CHECK(cz_fc_vanilla_verify(c1, &o, err, sizeof err) == CZ_ERR_BAD_PROOF);
    TF_CHECK(strstr(err, "replica_id") != NULL);
}

static void test_seal_2kib(void)
{
    const char *names[] = {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1",
                           "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"};
    for (size_t ni = 0; ni < 4; ni++) {
        const cz_fc_proof_type *t = cz_fc_proof_by_name(names[ni]);
        TF_CHECK(t != NULL);
        if (t == NULL)
            continue;
        for (int zero = 0; zero < 2; zero++) {
            sector s;
            make_sector(&s, t, zero);
            cz_fc_c1 c1;
            char err[300] = "";
            int rc = cz_fc_seal(&c1, &s.sec, NULL, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK, "seal %s: %s", t->name, err);
            if (rc != CZ_OK)
                continue;
            TF_CHECK(c1.partitions == t->partitions && c1.challenges == 2);
            if (zero) {
                cz_fc_d want;
                hex32(&want, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
                TF_CHECK_MEM(c1.comm_d.b, want.b, 32);
            }
            rc = verify_c1(&c1, &s, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK, "verify %s: %s", t->name, err);
            check_tampering(&c1, &s, SIZE_MAX);
            cz_fc_c1_free(&c1);
            free(s.data);
        }
    }
    /* data that is not Fr32-padded is refused by name */
    sector s;
    make_sector(&s, cz_fc_proof_by_name("StackedDrg2KiBV1_1"), false);
    s.data[32 * 17 + 31] |= 0x80;
    cz_fc_c1 c1;
    char err[300];
    TF_CHECK(cz_fc_seal(&c1, &s.sec, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(strstr(err, "node 17") != NULL);
    free(s.data);
}

/* A sealed sector and a synthetic C1 of the same sector agree on comm_d,
 * replica_id and the challenges, and both verify. */
static void test_synth(void)
{
    const cz_fc_shape_id ids[] = {CZ_FC_2KIB, CZ_FC_8MIB, CZ_FC_512MIB, CZ_FC_32GIB, CZ_FC_64GIB};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const cz_fc_proof_type *t = cz_fc_proof_default(cz_fc_shape_get(ids[i]));
        sector s;
        make_sector(&s, t, true);
        cz_fc_c1 c1;
        char err[300] = "";
        int rc = cz_fc_c1_synth(&c1, &s.sec, cz_prng_next(&tf_rng), NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "c1-synth %s: %s", t->name, err);
        if (rc != CZ_OK)
            continue;
        rc = verify_c1(&c1, &s, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "verify synthetic %s: %s", t->name, err);
        if (ids[i] == CZ_FC_2KIB || ids[i] == CZ_FC_32GIB) /* 32GiB: 2 s a verification */
            check_tampering(&c1, &s, ids[i] == CZ_FC_2KIB ? SIZE_MAX : 4 * tf_scale);
        if (ids[i] == CZ_FC_2KIB) {
            cz_fc_c1 sealed;
            TF_CHECK(cz_fc_seal(&sealed, &s.sec, NULL, err, sizeof err) == CZ_OK);
            TF_CHECK_MEM(sealed.comm_d.b, c1.comm_d.b, 32);
            TF_CHECK_MEM(sealed.replica_id.b, c1.replica_id.b, 32);
            for (size_t p = 0; p < (size_t)c1.partitions * c1.challenges; p++)
                TF_CHECK(sealed.proofs[p].labeling[0].node == c1.proofs[p].labeling[0].node);
            cz_fc_c1_free(&sealed);
        }
        cz_fc_c1_free(&c1);
    }
    /* what a synthetic C1 cannot be */
    sector s;
    make_sector(&s, cz_fc_proof_by_name("StackedDrg2KiBV1_1_Feat_SyntheticPoRep"), true);
    cz_fc_c1 c1;
    char err[300];
    TF_CHECK(cz_fc_c1_synth(&c1, &s.sec, 1, NULL, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    make_sector(&s, cz_fc_proof_by_name("StackedDrg2KiBV1_1"), false);
    TF_CHECK(cz_fc_c1_synth(&c1, &s.sec, 1, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    free(s.data);
}

/* A sealed and a synthetic C1 written as JSON, read back, written again:
 * the same bytes, and the read C1 verifies. */
static void test_c1_json(void)
{
    const char *names[] = {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg32GiBV1_1"};
    for (size_t i = 0; i < 3; i++) {
        const cz_fc_proof_type *t = cz_fc_proof_by_name(names[i]);
        sector s;
        make_sector(&s, t, i == 2);
        cz_fc_c1 c1, back;
        char err[300] = "", *j1, *j2;
        size_t n1, n2;
        int rc = i == 2 ? cz_fc_c1_synth(&c1, &s.sec, 3, NULL, err, sizeof err)
                        : cz_fc_seal(&c1, &s.sec, NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "%s: %s", t->name, err);
        if (rc != CZ_OK)
            continue;
        TF_CHECK(cz_fc_c1_write(&c1, &j1, &n1) == CZ_OK);
        rc = cz_fc_c1_read(&back, (const uint8_t *)j1, n1, NULL, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "%s: read back: %s", t->name, err);
        if (rc == CZ_OK) {
            TF_CHECK(cz_fc_c1_write(&back, &j2, &n2) == CZ_OK);
            TF_CHECK(n1 == n2 && memcmp(j1, j2, n1) == 0);
            free(j2);
            rc = verify_c1(&back, &s, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK, "%s: the C1 read back: %s", t->name, err);
            TF_CHECK(strstr(j1, "\"registered_proof\":\"") != NULL);
            cz_fc_c1_free(&back);
        }
        free(j1);
        cz_fc_c1_free(&c1);
        free(s.data);
    }
}

/* The public inputs name the nodes the vanilla proofs prove. */
static void test_public_inputs(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg32GiBV1_1");
    sector s;
    make_sector(&s, t, true);
    cz_fc_c1 c1;
    char err[300];
    TF_CHECK(cz_fc_c1_synth(&c1, &s.sec, 7, NULL, err, sizeof err) == CZ_OK);
    size_t n = cz_fc_public_input_count(t);
    TF_CHECK(n == 3 + 18 * 18);
    cz_fr *in = malloc(n * sizeof *in), x;
    uint8_t porep[32];
    cz_fc_porep_id(porep, t);
    cz_fc_graph g;
    cz_fc_graph_init(&g, t->shape, porep, t->api);
    for (unsigned k = 0; k < c1.partitions; k++) {
        TF_CHECK(cz_fc_public_inputs(in, t, &g, &c1.replica_id, &c1.comm_d, &c1.comm_r, c1.seed,
                                     k) == CZ_OK);
        cz_fc_d d;
        cz_fc_d_from_fr(&d, &in[0]);
        TF_CHECK_MEM(d.b, c1.replica_id.b, 32);
        cz_fc_d_from_fr(&d, &in[2]);
        TF_CHECK_MEM(d.b, c1.comm_r.b, 32);
        for (unsigned i = 0; i < c1.challenges; i++) {
            const cz_fc_vanilla_proof *v = &c1.proofs[k * c1.challenges + i];
            const cz_fr *y = in + 3 + 18 * i;
            cz_fr_from_u64(&x, cz_fc_proof_index(&v->comm_d_proof));
            TF_CHECK(cz_fr_equal(&y[0], &x));
            for (unsigned j = 0; j < 14; j++) {
                cz_fr_from_u64(&x, j < 6 ? v->drg[j].index : v->exp[j - 6].index);
                TF_CHECK(cz_fr_equal(&y[1 + j], &x));
            }
            cz_fr_from_u64(&x, v->labeling[0].node);
            TF_CHECK(cz_fr_equal(&y[15], &x));
            cz_fr_from_u64(&x, cz_fc_proof_index(&v->comm_r_last_proof));
            TF_CHECK(cz_fr_equal(&y[16], &x));
            cz_fr_from_u64(&x, cz_fc_proof_index(&v->c_x.inclusion));
            TF_CHECK(cz_fr_equal(&y[17], &x));
        }
    }
    TF_CHECK(cz_fc_public_inputs(in, t, &g, &c1.replica_id, &c1.comm_d, &c1.comm_r, c1.seed, 10) ==
             CZ_ERR_INVALID_ARG);
    cz_fc_d bad;
    memset(bad.b, 0xff, 32);
    TF_CHECK(cz_fc_public_inputs(in, t, &g, &bad, &c1.comm_d, &c1.comm_r, c1.seed, 0) ==
             CZ_ERR_NOT_CANONICAL);
    free(in);
    cz_fc_c1_free(&c1);
}

/* A stand-in for the PoRep circuit with its public inputs: x_i * 1 = w_i
 * for each of the registered proof's inputs; its parameters (our INSECURE
 * setup) and the proofs of every partition of c1, concatenated. */
typedef struct {
    cz_r1cs *r1cs;
    cz_groth16_params params;
    uint8_t *proofs; /* partitions x 192 */
} standin;

static int standin_make(standin *st, const cz_fc_c1 *c1)
{
    const cz_fc_proof_type *t = c1->proof_type;
    size_t n = cz_fc_public_input_count(t), wl = 1 + 2 * n;
    cz_fr *in = malloc(t->partitions * n * sizeof *in), *w = malloc(wl * sizeof *w);
    uint8_t porep[32];
    cz_fc_porep_id(porep, t);
    cz_fc_graph g;
    cz_fc_graph_init(&g, t->shape, porep, t->api);
    int rc = CZ_OK;
    for (unsigned k = 0; k < t->partitions && rc == CZ_OK; k++)
        rc = cz_fc_public_inputs(in + k * n, t, &g, &c1->replica_id, &c1->comm_d, &c1->comm_r,
                                 c1->seed, k);
    cz_cs *cs = NULL;
    if (rc == CZ_OK)
        rc = cz_cs_new(&cs, CZ_CS_RECORD, 0);
    cz_lc a, b, c;
    cz_lc_init(&a), cz_lc_init(&b), cz_lc_init(&c);
    for (size_t i = 0; i < n && rc == CZ_OK; i++) {
        cz_var x = cz_cs_alloc_input(cs, &in[i]), v = cz_cs_alloc_aux(cs, &in[i]);
        cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
        cz_lc_add(&a, x), cz_lc_add(&b, CZ_CS_ONE), cz_lc_add(&c, v);
        cz_cs_enforce(cs, &a, &b, &c);
    }
    cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
    st->r1cs = NULL;
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs, &st->r1cs);
    cz_cs_free(cs);
    uint8_t seed[32] = {1};
    if (rc == CZ_OK)
        rc = cz_groth16_setup(&st->params, st->r1cs, seed, CZ_GROTH16_BELLPERSON, NULL);
    st->proofs = malloc(t->partitions * 192);
    for (unsigned k = 0; k < t->partitions && rc == CZ_OK; k++) {
        w[0] = CZ_FR_ONE;
        memcpy(w + 1, in + k * n, n * sizeof *w);
        memcpy(w + 1 + n, in + k * n, n * sizeof *w);
        cz_groth16_proof pf;
        rc = cz_groth16_prove(&pf, &st->params, st->r1cs, w, wl, NULL, NULL, 0);
        cz_groth16_proof_to_bytes(st->proofs + 192 * k, &pf);
    }
    free(in);
    free(w);
    return rc;
}

static void standin_free(standin *st)
{
    cz_groth16_params_free(&st->params);
    cz_r1cs_free(st->r1cs);
    free(st->proofs);
}

/* verify_seal against the stand-in's proofs of a synthetic 32GiB C1. */
static void test_verify_seal(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg32GiBV1_1");
    sector s;
    make_sector(&s, t, true);
    cz_fc_c1 c1;
    char err[300];
    TF_CHECK(cz_fc_c1_synth(&c1, &s.sec, 9, NULL, err, sizeof err) == CZ_OK);
    standin st;
    TF_CHECK(standin_make(&st, &c1) == CZ_OK);
    cz_groth16_params p = st.params;
    uint8_t *proofs = st.proofs;
    cz_groth16_pvk pvk;
    TF_CHECK(cz_groth16_pvk_prepare(&pvk, &p.vk) == CZ_OK);
    cz_fc_seal_info info = {.proof_type = t, .comm_r = c1.comm_r, .comm_d = c1.comm_d,
                            .sector_id = s.sec.sector_id, .overrides = {.api = -1}};
    memcpy(info.prover_id, s.sec.prover_id, 32);
    memcpy(info.ticket, s.sec.ticket, 32);
    memcpy(info.seed, s.sec.seed, 32);
    bool valid = false;
    size_t len = t->partitions * 192;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &info, &valid, err, sizeof err) == CZ_OK);
    TF_CHECK_MSG(valid, "verify-seal: %s", err);
    /* each identity field changed: valid inputs, invalid proof */
    cz_fc_seal_info bad = info;
    bad.sector_id++;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) == CZ_OK && !valid);
    bad = info;
    bad.seed[rnd(31)] ^= 1;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) == CZ_OK && !valid);
    bad = info;
    bad.ticket[rnd(32)] ^= 1;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) == CZ_OK && !valid);
    bad = info;
    bad.prover_id[rnd(32)] ^= 1;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) == CZ_OK && !valid);
    bad = info;
    bad.comm_r.b[0] ^= 1;
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) == CZ_OK && !valid);
    /* two partitions' proofs swapped: the first wrong one is named */
    uint8_t tmp[192];
    memcpy(tmp, proofs + 192 * 3, 192);
    memcpy(proofs + 192 * 3, proofs + 192 * 4, 192);
    memcpy(proofs + 192 * 4, tmp, 192);
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &info, &valid, err, sizeof err) == CZ_OK && !valid);
    TF_CHECK_MSG(strstr(err, "partition 3") != NULL, "%s", err);
    memcpy(proofs + 192 * 4, proofs + 192 * 3, 192);
    memcpy(proofs + 192 * 3, tmp, 192);
    proofs[192 * 7 + 100] ^= 4; /* a point off the curve, or another point */
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &info, &valid, err, sizeof err) == CZ_OK && !valid);
    TF_CHECK_MSG(strstr(err, "partition 7") != NULL, "%s", err);
    proofs[192 * 7 + 100] ^= 4;
    /* malformed arguments */
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len - 1, &info, &valid, err, sizeof err) ==
             CZ_ERR_BAD_LENGTH);
    bad = info;
    memset(bad.comm_d.b, 0, 32);
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
    bad = info;
    memset(bad.comm_r.b, 0xff, 32);
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) ==
             CZ_ERR_NOT_CANONICAL);
    bad = info;
    bad.proof_type = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, 192, &bad, &valid, err, sizeof err) ==
             CZ_ERR_INVALID_ARG); /* 39 inputs, the key has 327 */
    bad.proof_type = cz_fc_proof_by_name("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &bad, &valid, err, sizeof err) ==
             CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_fc_verify_seal(&pvk, proofs, len, &info, &valid, err, sizeof err) == CZ_OK && valid);
    cz_groth16_pvk_free(&pvk);
    standin_free(&st);
    cz_fc_c1_free(&c1);
}

/* test_fc_sector --write-seal DIR: a 2KiB CC sector with fixed ids, the
 * stand-in's verifying key (DIR/vk, bellperson .vk) and proof (DIR/proof)
 * for it, and DIR/args with the ids and commitments as hex (KEY=VALUE
 * lines), for tests/oracle/run_fc_cli.sh. */
static int write_seal(const char *dir)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    cz_fc_sector sec = {.proof_type = t, .sector_id = 7};
    cz_fc_prover_id(sec.prover_id, 1000);
    memset(sec.ticket, 0x11, 32);
    memset(sec.seed, 0x22, 32);
    cz_fc_c1 c1;
    char err[300], path[4096];
    standin st;
    if (cz_fc_seal(&c1, &sec, NULL, err, sizeof err) != CZ_OK || standin_make(&st, &c1) != CZ_OK) {
        fprintf(stderr, "write-seal: %s\n", err);
        return 1;
    }
    snprintf(path, sizeof path, "%s/vk", dir);
    int rc = cz_groth16_vk_write_file(path, &st.params.vk);
    snprintf(path, sizeof path, "%s/proof", dir);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(st.proofs, 192, t->partitions, f) != t->partitions)
        rc = CZ_ERR_IO;
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/args", dir);
    f = fopen(path, "w");
    if (f) {
        const struct {
            const char *k;
            const uint8_t *v;
        } kv[] = {{"PROVER", sec.prover_id}, {"TICKET", sec.ticket}, {"SEED", sec.seed},
                  {"COMM_D", c1.comm_d.b},   {"COMM_R", c1.comm_r.b}};
        for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
            fprintf(f, "%s=", kv[i].k);
            for (int b = 0; b < 32; b++)
                fprintf(f, "%02x", kv[i].v[b]);
            fprintf(f, "\n");
        }
        fprintf(f, "SECTOR=%llu\n", (unsigned long long)sec.sector_id);
        if (fclose(f) != 0)
            rc = CZ_ERR_IO;
    } else {
        rc = CZ_ERR_IO;
    }
    standin_free(&st);
    cz_fc_c1_free(&c1);
    if (rc != CZ_OK)
        fprintf(stderr, "write-seal: cannot write into %s\n", dir);
    return rc == CZ_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-seal") == 0)
        return write_seal(argv[2]);
    static const tf_test tests[] = {
        TF_TEST(test_fr32),        TF_TEST(test_sha256_trunc),
        TF_TEST(test_zero_comm_d), TF_TEST(test_tree_shapes),
        TF_TEST(test_trees_dense_sparse), TF_TEST(test_ids),
        TF_TEST(test_labels),      TF_TEST(test_label_vectors),
        TF_TEST(test_synth_challenges_vector),
        TF_TEST(test_challenges),  TF_TEST(test_seal_2kib),
        TF_TEST(test_synth),       TF_TEST(test_c1_json),
        TF_TEST(test_public_inputs), TF_TEST(test_verify_seal),
    };
    return tf_run(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
