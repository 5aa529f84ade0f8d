/* PoSt vanilla sector proofs (cuzk/filecoin/post.h): the bincode blob's reader and
 * writer, the vanilla verifier, the provers from a TreeR and synthetic
 * ones, the challenges and the parameter file names.
 *
 * Oracles: Curio's golden 32GiB WindowPoSt blob (tests/data/post, from
 * curio e0294b0 lib/proof/testgolden: a real sector's FallbackPoStSector-
 * Proof and the public inputs it verifies with), docs/post.md's tables
 * (3.6 its ten challenged leaves, 4.1 the blob sizes, 6.2 the parameter
 * hashes, each recomputed there from the sources and listed in
 * parameters.json), rust-fil-proofs' parameters.json (param_files.c), a
 * really sealed 2KiB sector (cz_fc_seal_ex: comm_r of its C1) and
 * SHA-256 vectors computed with Python's hashlib. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "fixture.h"
#include "tf.h"

/* BLS12-381's r, little-endian: the smallest value that is not an Fr. */
static const uint8_t MODULUS[32] = {
    0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
    0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};

static const uint64_t SIZES[5] = {2048, (uint64_t)8 << 20, (uint64_t)512 << 20, (uint64_t)32 << 30,
                                  (uint64_t)64 << 30};

/* ------------------------------------------------------------ helpers --- */

/* An allocator over the default one that counts live bytes per class and
 * checks each free's size against its allocation's. */
typedef struct {
    long long live[CZ_BUF__COUNT];
    int bad_frees;
} counting;

typedef struct { /* 16 bytes: the block after it stays 16-aligned */
    size_t bytes;
    size_t cls;
} count_hdr;

static void *count_alloc(void *ctx, cz_buf_class cls, size_t bytes)
{
    counting *c = ctx;
    count_hdr *h = cz_alloc(NULL, cls, bytes + sizeof *h);
    if (h == NULL)
        return NULL;
    h->bytes = bytes;
    h->cls = (size_t)cls;
    c->live[cls] += (long long)bytes;
    return h + 1;
}

static void count_free(void *ctx, void *p, size_t bytes)
{
    counting *c = ctx;
    count_hdr *h = (count_hdr *)p - 1;
    if (h->bytes != bytes)
        c->bad_frees++;
    c->live[h->cls] -= (long long)h->bytes;
    cz_free(NULL, h, h->bytes + sizeof *h);
}

static bool counting_empty(const counting *c)
{
    for (int i = 0; i < CZ_BUF__COUNT; i++)
        if (c->live[i])
            return false;
    return c->bad_frees == 0;
}

static void random_fr_d(cz_fc_d *d)
{
    cz_fr x;
    cz_fr_random(&x, &tf_rng);
    cz_fc_d_from_fr(d, &x);
}

/* Curio's randomness: 32 random bytes, the top two bits cleared. */
static void random_randomness(uint8_t r[32])
{
    cz_prng_bytes(&tf_rng, r, 32);
    r[31] &= 0x3f;
}

/* A blob of shape s with random canonical values and indexes (a valid
 * encoding, not a valid proof). */
static void random_blob(cz_post_vanilla *v, const cz_post_shape *s)
{
    TF_CHECK(cz_post_vanilla_alloc(v, s, NULL) == CZ_OK);
    v->sector_id = cz_prng_next(&tf_rng);
    random_fr_d(&v->comm_r);
    random_fr_d(&v->proof.comm_c);
    random_fr_d(&v->proof.comm_r_last);
    for (unsigned i = 0; i < v->proof.n_inclusion; i++) {
        cz_fc_merkle_proof *m = &v->proof.inclusion[i];
        random_fr_d(&m->root);
        random_fr_d(&m->leaf);
        for (unsigned l = 0; l < m->n_levels; l++) {
            m->levels[l].index = (uint8_t)(cz_prng_next(&tf_rng) % m->levels[l].arity);
            for (unsigned h = 0; h + 1 < m->levels[l].arity; h++)
                random_fr_d(&m->levels[l].hashes[h]);
        }
    }
}

static uint8_t *encode(const cz_post_vanilla *v, const cz_post_shape *s, size_t *n)
{
    *n = cz_post_vanilla_bytes(s);
    uint8_t *b = malloc(*n);
    TF_CHECK(b != NULL && cz_post_vanilla_write(b, *n, v, s) == CZ_OK);
    return b;
}

/* The layout of docs/post.md 4.1, walked here on its own: one
 * MerkleProof's bytes, and the offset within it of level l's sibling
 * count (after the variant, a Single proof's root and leaf, and the u64
 * length of each path part: base, sub, top, that starts at or before l). */
static size_t merkle_bytes(const cz_post_shape *s)
{
    cz_fc_proof_form f = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
    size_t n = 4 + 64 + 8 * (size_t)(1 + (f != CZ_FC_PROOF_SINGLE) + (f == CZ_FC_PROOF_TOP));
    for (unsigned l = 0; l < cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree); l++)
        n += 16 + 32 * (size_t)(cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, l) - 1);
    return n;
}

static size_t level_at(const cz_post_shape *s, unsigned l)
{
    cz_fc_proof_form f = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
    unsigned b = s->tree.base_levels;
    size_t off = 4 + (f == CZ_FC_PROOF_SINGLE ? 64 : 0) + 8;
    for (unsigned k = 0; k < l; k++) {
        off += 16 + 32 * (size_t)(cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, k) - 1);
        if (f != CZ_FC_PROOF_SINGLE && (k + 1 == b || k == b))
            off += 8; /* the next part's length */
    }
    return off;
}

/* Offset of inclusion proof j in a blob. */
static size_t proof_at(const cz_post_shape *s, unsigned j) { return 56 + j * merkle_bytes(s); }

/* Level l's serde name: "path.path[l]" (Single) or its part's. */
static void level_name(char *out, size_t n, const cz_post_shape *s, unsigned l)
{
    unsigned b = s->tree.base_levels;
    if (cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree) == CZ_FC_PROOF_SINGLE)
        snprintf(out, n, "path.path[%u]", l);
    else if (l < b)
        snprintf(out, n, "base_proof.path[%u]", l);
    else
        snprintf(out, n, "%s.path[0]", l == b ? "sub_proof" : "top_proof");
}

/* The reader refuses b with want and a message holding needle, and
 * leaves the blob zeroed. */
static void expect_bad(const cz_post_shape *s, const uint8_t *b, size_t n, int want,
                       const char *needle)
{
    cz_post_vanilla v;
    memset(&v, 0xa5, sizeof v);
    char err[256] = "";
    int rc = cz_post_vanilla_read(&v, s, b, n, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == want && strstr(err, needle) != NULL &&
                     !strncmp(err, "post vanilla proof: ", 20),
                 "%s: rc %d (want %d): %s (want \"%s\")", s->tree.name, rc, want, err, needle);
    static const cz_post_vanilla zero;
    TF_CHECK(!memcmp(&v, &zero, sizeof v));
}

static void expect_verify(const cz_post_shape *s, cz_fc_api api, const uint8_t r[32],
                          uint64_t sector_index, const cz_post_vanilla *v, int want,
                          const char *needle)
{
    char err[256] = "";
    int rc = cz_post_vanilla_verify(s, api, r, sector_index, v, err, sizeof err);
    TF_CHECK_MSG(rc == want && (needle == NULL || strstr(err, needle) != NULL),
                 "%s: verify rc %d (want %d): %s (want \"%s\")", s->tree.name, rc, want, err,
                 needle ? needle : "");
}

/* The blob b (of s) read and verified: rc and the message. */
static void expect_blob(const cz_post_shape *s, cz_fc_api api, const uint8_t r[32],
                        uint64_t sector_index, const uint8_t *b, size_t n, int want,
                        const char *needle)
{
    cz_post_vanilla v;
    char err[256];
    int rc = cz_post_vanilla_read(&v, s, b, n, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    if (rc == CZ_OK)
        expect_verify(s, api, r, sector_index, &v, want, needle);
    cz_post_vanilla_free(&v);
}

/* --------------------------------------------------------- the golden --- */

/* RFC 4648 base32, lowercase, unpadded (a multibase "b" CID's body):
 * the bytes written, or 0 on a bad character. */
static size_t base32_decode(uint8_t *out, size_t cap, const char *s, size_t len)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        const char *c = strchr(alphabet, s[i]);
        if (c == NULL || s[i] == 0)
            return 0;
        acc = acc << 5 | (uint32_t)(c - alphabet);
        bits += 5;
        if (bits >= 8 && n < cap) {
            out[n++] = (uint8_t)(acc >> (bits - 8));
            bits -= 8;
        }
    }
    return n;
}

/* The unsigned integer after "key": in json; UINT64_MAX if absent. */
static uint64_t json_u64(const char *json, const char *key)
{
    const char *p = strstr(json, key);
    return p ? strtoull(p + strlen(key), NULL, 10) : UINT64_MAX;
}

/* Curio's golden blob: proof type 8 (StackedDrgWindow32GiBV1), sector 1
 * of miner 1000, randomness zero (postpub.json).  The reader takes it
 * with the 32GiB Window shape; its ten paths lead to docs/post.md 3.6's
 * leaves, which are cz_post_sector_challenges'; its comm_r is the
 * SealedCID's digest; it verifies under API 1.0 and 1.2 (sector_index 0,
 * where they agree) and is written back byte for byte.  Each tampered
 * field then fails. */
static void test_golden(void)
{
    tf_blob blob = tf_fixture("post", "post.vproof"), pub = tf_fixture("post", "postpub.json");
    TF_CHECK_MSG(blob.n == 24960, "post.vproof: %zu bytes", blob.n);
    if (blob.n != 24960 || pub.p == NULL) {
        free(blob.p), free(pub.p);
        return;
    }
    const char *json = (const char *)pub.p;
    TF_CHECK(json_u64(json, "\"PoStProof\":") == 8 && json_u64(json, "\"SectorNumber\":") == 1 &&
             json_u64(json, "\"Prover\":") == 1000);
    /* 32 zero bytes in base64 */
    TF_CHECK(strstr(json, "\"Randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\""));
    const cz_post_proof_type *t = cz_post_proof_by_id(8), *t12 = cz_post_proof_by_id(13);
    TF_CHECK(t && t12 && t->kind == CZ_POST_WINDOW && t->api == CZ_FC_API_1_0 &&
             t->size == CZ_FC_32GIB && t12->size == CZ_FC_32GIB && t12->api == CZ_FC_API_1_2);
    cz_post_shape s;
    TF_CHECK(cz_post_shape_of(&s, CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_OK);
    TF_CHECK(cz_post_vanilla_bytes(&s) == 24960);
    cz_post_vanilla v;
    char err[256];
    int rc = cz_post_vanilla_read(&v, &s, blob.p, blob.n, NULL, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    if (rc != CZ_OK) {
        free(blob.p), free(pub.p);
        return;
    }
    TF_CHECK(v.sector_id == 1 && v.proof.n_inclusion == 10);
    static const uint64_t leaves[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                        6202012,   1055504637, 389535735, 1000069704, 600088878};
    static const uint8_t zero[32];
    uint64_t ch[10];
    cz_post_sector_challenges(ch, &s, CZ_FC_API_1_0, zero, 1, 0);
    for (unsigned i = 0; i < 10; i++) {
        const cz_fc_merkle_proof *m = &v.proof.inclusion[i];
        TF_CHECK_MSG(cz_fc_proof_index(m) == leaves[i] && ch[i] == leaves[i],
                     "proof %u: path index %llu, challenge %llu, docs/post.md %llu", i,
                     (unsigned long long)cz_fc_proof_index(m), (unsigned long long)ch[i],
                     (unsigned long long)leaves[i]);
        TF_CHECK(m->form == CZ_FC_PROOF_SUB && m->n_levels == 10);
    }
    /* the SealedCID: multibase "b", then CID v1 | commitment codec | the
     * digest (cz_fc_commitment_read checks the prefix) */
    const char *cid = strstr(json, "\"SealedCID\":{\"/\":\"");
    TF_CHECK(cid != NULL);
    if (cid) {
        cid += strlen("\"SealedCID\":{\"/\":\"");
        const char *end = strchr(cid, '"');
        uint8_t raw[64];
        size_t n = end && cid[0] == 'b'
                       ? base32_decode(raw, sizeof raw, cid + 1, (size_t)(end - cid - 1))
                       : 0;
        cz_fc_d comm_r;
        TF_CHECK_MSG(n == 40 && cz_fc_commitment_read(&comm_r, CZ_FC_COMM_R, raw, n, err,
                                                      sizeof err) == CZ_OK,
                     "SealedCID: %zu bytes: %s", n, err);
        TF_CHECK_MEM(comm_r.b, v.comm_r.b, 32);
    }
    expect_verify(&s, CZ_FC_API_1_0, zero, 0, &v, CZ_OK, NULL);
    expect_verify(&s, CZ_FC_API_1_2, zero, 0, &v, CZ_OK, NULL);
    /* another sector_index: a 1.0 challenge moves, a 1.2 one does not */
    expect_verify(&s, CZ_FC_API_1_0, zero, 1, &v, CZ_ERR_BAD_PROOF,
                  "inclusion proof 0 (challenge leaf");
    expect_verify(&s, CZ_FC_API_1_2, zero, 7, &v, CZ_OK, NULL);
    uint8_t r[32] = {1};
    expect_verify(&s, CZ_FC_API_1_0, r, 0, &v, CZ_ERR_BAD_PROOF, "the path leads to leaf");
    memset(r, 0xff, sizeof r);
    expect_verify(&s, CZ_FC_API_1_0, r, 0, &v, CZ_ERR_NOT_CANONICAL, "randomness");
    expect_verify(&s, CZ_FC_API_1_0, MODULUS, 0, &v, CZ_ERR_NOT_CANONICAL, "randomness");
    size_t n;
    uint8_t *b = encode(&v, &s, &n);
    TF_CHECK(n == blob.n && !memcmp(b, blob.p, n));
    cz_post_vanilla_free(&v);

    /* the layout: sector_id, comm_r, 1 sector proof, 10 inclusion proofs,
     * the first a Sub proof (variant 1) of 9 base levels of 7 siblings */
    TF_CHECK(tf_rd64le(b) == 1 && tf_rd64le(b + 40) == 1 && tf_rd64le(b + 48) == 10);
    TF_CHECK(b[56] == 1 && tf_rd64le(b + 60) == 9 && tf_rd64le(b + 68) == 7);
    TF_CHECK(merkle_bytes(&s) == 2484 && proof_at(&s, 10) + 64 == n);
    /* tampering: a sibling, a leaf, a root, an index, comm_c, comm_r_last,
     * comm_r, the sector id */
    size_t p0 = proof_at(&s, 0), sib = p0 + level_at(&s, 3) + 8 + 2 * 32,
           idx = p0 + level_at(&s, 0) + 8 + 7 * 32, leaf9 = proof_at(&s, 10) - 32,
           root3 = proof_at(&s, 4) - 64;
    const struct {
        size_t off;
        uint8_t mask;
        const char *needle;
    } flips[] = {
        {sib, 0x01,
         "inclusion proof 0 (challenge leaf 707914199): the path does not hash up to its root"},
        {leaf9, 0x02, "inclusion proof 9 (challenge leaf 600088878): the path does not"},
        {root3, 0x04, "inclusion proof 3 (challenge leaf 548708700): its root is not comm_r_last"},
        {idx, 0x01, "inclusion proof 0 (challenge leaf 707914199): the path leads to leaf"},
    };
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        b[flips[i].off] ^= flips[i].mask;
        expect_blob(&s, CZ_FC_API_1_0, zero, 0, b, n, CZ_ERR_BAD_PROOF, flips[i].needle);
        b[flips[i].off] ^= flips[i].mask;
    }
    static const struct {
        size_t back; /* bytes from the end */
        uint8_t mask;
        const char *needle;
    } ends[] = {
        {64, 0x01, "comm_r is not Poseidon-2(comm_c, comm_r_last)"}, /* comm_c */
        {32, 0x01, "inclusion proof 0 (challenge leaf 707914199): its root is not comm_r_last"},
    };
    for (size_t i = 0; i < 2; i++) {
        b[n - ends[i].back] ^= ends[i].mask;
        expect_blob(&s, CZ_FC_API_1_0, zero, 0, b, n, CZ_ERR_BAD_PROOF, ends[i].needle);
        b[n - ends[i].back] ^= ends[i].mask;
    }
    b[8] ^= 0x01; /* comm_r */
    expect_blob(&s, CZ_FC_API_1_0, zero, 0, b, n, CZ_ERR_BAD_PROOF,
                "sector 1: comm_r is not Poseidon-2(comm_c, comm_r_last)");
    b[8] ^= 0x01;
    b[0] = 2; /* sector 2 */
    expect_blob(&s, CZ_FC_API_1_0, zero, 0, b, n, CZ_ERR_BAD_PROOF, "the path leads to leaf");
    b[0] = 1;
    /* an index the reader refuses; a Sub blob under 64GiB's Top shape */
    b[idx] = 8;
    snprintf(err, sizeof err,
             "vanilla_proof.sectors[0].inclusion_proofs[0].base_proof.path[0].index: 8, the "
             "arity is 8 (at byte %zu)",
             idx);
    expect_bad(&s, b, n, CZ_ERR_BAD_FORMAT, err);
    b[idx] = blob.p[idx];
    expect_blob(&s, CZ_FC_API_1_0, zero, 0, b, n, CZ_OK, NULL);
    cz_post_shape s64;
    TF_CHECK(cz_post_shape_of(&s64, CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_64GIB)) == CZ_OK);
    expect_bad(&s64, b, n, CZ_ERR_BAD_FORMAT,
               "inclusion_proofs[0]: variant 1, the shape's proofs are Top (2) (at byte 56)");
    free(b);
    free(blob.p);
    free(pub.p);
}

/* ------------------------------------------------- names and sizes --- */

/* The parameter files of every size and kind: docs/post.md 6.2's table,
 * and each .params and .vk in parameters.json for that sector size. */
static void test_params_names(void)
{
    static const struct {
        const char *shape, *window, *winning;
    } want[5] = {
        {"8-0-0", "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
         "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
        {"8-0-0", "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9",
         "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
        {"8-0-0", "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9",
         "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
        {"8-8-0", "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc",
         "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
        {"8-8-2", "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def",
         "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    };
    for (int i = 0; i < 5; i++) {
        for (int k = 0; k < 2; k++) {
            cz_post_shape s;
            TF_CHECK(cz_post_shape_of(&s, k ? CZ_POST_WINNING : CZ_POST_WINDOW,
                                      cz_fc_shape_by_size(SIZES[i])) == CZ_OK);
            char name[CZ_FC_PARAMS_NAME], exp[CZ_FC_PARAMS_NAME], file[CZ_FC_PARAMS_NAME + 8];
            cz_post_params_name(name, &s);
            snprintf(exp, sizeof exp,
                     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s-%s",
                     want[i].shape, k ? want[i].winning : want[i].window);
            TF_CHECK_MSG(!strcmp(name, exp), "%s: %s, want %s", s.tree.name, name, exp);
            for (int ext = 0; ext < 2; ext++) {
                snprintf(file, sizeof file, "%s%s", exp, ext ? ".vk" : ".params");
                bool found = false;
                for (size_t j = 0; j < cz_fc_params_official_count(); j++) {
                    uint64_t size;
                    const char *f = cz_fc_params_official(j, NULL, &size);
                    if (!strcmp(f, file))
                        found = size == SIZES[i];
                }
                TF_CHECK_MSG(found, "%s is not in parameters.json for %llu bytes", file,
                             (unsigned long long)SIZES[i]);
            }
        }
    }
}

/* docs/post.md 4.1's sizes: Window and Winning blobs of every size, and
 * the merkle_bytes walk of this file agrees. */
static void test_blob_sizes(void)
{
    static const size_t window[5] = {5680, 15280, 20080, 24960, 25520},
                        winning[5] = {36816, 100176, 131856, 164064, 167760},
                        merkle[5] = {556, 1516, 1996, 2484, 2540};
    for (int i = 0; i < 5; i++) {
        cz_post_shape w, g;
        TF_CHECK(cz_post_shape_of(&w, CZ_POST_WINDOW, cz_fc_shape_by_size(SIZES[i])) == CZ_OK &&
                 cz_post_shape_of(&g, CZ_POST_WINNING, cz_fc_shape_by_size(SIZES[i])) == CZ_OK);
        TF_CHECK_MSG(cz_post_vanilla_bytes(&w) == window[i] &&
                         cz_post_vanilla_bytes(&g) == winning[i] && merkle_bytes(&w) == merkle[i],
                     "%s: Window %zu, Winning %zu", w.tree.name, cz_post_vanilla_bytes(&w),
                     cz_post_vanilla_bytes(&g));
        TF_CHECK(cz_post_vanilla_bytes(&w) == 120 + 10 * merkle[i]);
    }
    /* the test shape 8-4-2: 2 octary, 1 quad, 1 binary level */
    cz_post_shape t;
    TF_CHECK(cz_post_shape_test(&t, "test-top-8-4-2", 3, 5) == CZ_OK);
    TF_CHECK(cz_post_vanilla_bytes(&t) == 120 + 5 * (4 + 24 + 4 * 16 + 32 * (7 + 7 + 3 + 1) + 64));
}

/* ------------------------------------------------- reader and writer --- */

static void shapes_for_format(cz_post_shape s[5])
{
    TF_CHECK(cz_post_shape_of(&s[0], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[1], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[2], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[3], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_64GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_test(&s[4], "test-top-8-4-2", 3, 5) == CZ_OK);
}

/* write -> read -> write gives the same bytes and fields; the writer
 * refuses a short buffer and a blob of another shape. */
static void test_roundtrip(void)
{
    cz_post_shape shapes[5];
    shapes_for_format(shapes);
    for (int i = 0; i < 5; i++) {
        const cz_post_shape *s = &shapes[i];
        counting cnt = {{0}, 0};
        cz_allocator a = {count_alloc, count_free, &cnt};
        cz_post_vanilla p, q;
        random_blob(&p, s);
        size_t n, n2;
        uint8_t *b = encode(&p, s, &n);
        char err[256];
        TF_CHECK_MSG(cz_post_vanilla_read(&q, s, b, n, &a, err, sizeof err) == CZ_OK, "%s", err);
        TF_CHECK(cnt.live[CZ_BUF_INPUT] > 0 && (size_t)cnt.live[CZ_BUF_INPUT] == q.block.bytes);
        uint8_t *b2 = encode(&q, s, &n2);
        TF_CHECK(n == n2 && !memcmp(b, b2, n));
        const cz_fc_merkle_proof *x = &p.proof.inclusion[p.proof.n_inclusion - 1],
                                 *y = &q.proof.inclusion[q.proof.n_inclusion - 1];
        TF_CHECK(q.sector_id == p.sector_id && !memcmp(q.comm_r.b, p.comm_r.b, 32) &&
                 !memcmp(q.proof.comm_r_last.b, p.proof.comm_r_last.b, 32) && x->form == y->form &&
                 x->n_levels == y->n_levels && cz_fc_proof_index(x) == cz_fc_proof_index(y) &&
                 !memcmp(&x->leaf, &y->leaf, 32));
        TF_CHECK(cz_post_vanilla_write(b2, n - 1, &q, s) == CZ_ERR_BAD_LENGTH);
        q.proof.n_inclusion--;
        TF_CHECK(cz_post_vanilla_write(b2, n, &q, s) == CZ_ERR_INVALID_ARG);
        q.proof.n_inclusion++;
        q.proof.inclusion[0].levels[0].index = 8;
        TF_CHECK(cz_post_vanilla_write(b2, n, &q, s) == CZ_ERR_INVALID_ARG);
        cz_post_vanilla_free(&q);
        TF_CHECK(counting_empty(&cnt) && q.block.mem == NULL);
        free(b);
        free(b2);
        cz_post_vanilla_free(&p);
    }
    cz_post_vanilla_free(NULL);
}

/* A u64 field at off set to v, refused with a message holding needle. */
typedef struct {
    size_t off;
    uint64_t v;
    char needle[200];
} count_case;

static void add_case(count_case *c, size_t off, uint64_t v, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_case(count_case *c, size_t off, uint64_t v, const char *fmt, ...)
{
    c->off = off;
    c->v = v;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->needle, sizeof c->needle, fmt, ap);
    va_end(ap);
}

/* Every way a blob can be wrong is refused with its code and the field
 * named by its serde path; the blob comes back zeroed. */
static void check_refusals(const cz_post_shape *s, bool every_prefix)
{
    cz_post_vanilla p;
    random_blob(&p, s);
    size_t n;
    uint8_t *b = encode(&p, s, &n), *t = malloc(n + 1);
    cz_post_vanilla_free(&p);
    /* truncated at every (or many a) length; one byte too many */
    for (size_t k = 0; k < n; k += every_prefix ? 1 : 1 + k / 16) {
        tf_blob cut = tf_blob_prefix((tf_blob){b, n}, k);
        expect_bad(s, cut.p, k, CZ_ERR_TRUNCATED, "bytes short");
        free(cut.p);
    }
    memcpy(t, b, n);
    t[n] = 0;
    expect_bad(s, t, n + 1, CZ_ERR_BAD_LENGTH, "end: 1 bytes after the proof");
    unsigned nc = cz_post_blob_challenges(s), nl = cz_fc_tree_levels(CZ_FC_TREE_RC, &s->tree);
    unsigned last = nl - 1, a_last = cz_fc_tree_arity(CZ_FC_TREE_RC, &s->tree, last);
    cz_fc_proof_form f = cz_fc_tree_form(CZ_FC_TREE_RC, &s->tree);
    size_t pj = proof_at(s, nc - 1);
    char lv0[64], lvl[64], want[256];
    level_name(lv0, sizeof lv0, s, 0);
    level_name(lvl, sizeof lvl, s, last);
    const char *sp = "vanilla_proof.sectors[0]";

    /* counts: sectors 0 and 2, inclusion proofs, levels, siblings; an
     * index at its arity, and a huge one */
    count_case c[10];
    int m = 0;
    add_case(&c[m++], 40, 0,
             "vanilla_proof.sectors: 0 sector proofs, a blob has exactly 1 (at byte 40)");
    add_case(&c[m++], 40, 2, "vanilla_proof.sectors: 2 sector proofs, a blob has exactly 1");
    add_case(&c[m++], 48, nc + 1, "%s.inclusion_proofs: %u inclusion proofs, the shape has %u", sp,
             nc + 1, nc);
    add_case(&c[m++], pj + level_at(s, 0) - 8, 3,
             "inclusion_proofs[%u].%s: 3 levels, the shape has %u", nc - 1,
             f == CZ_FC_PROOF_SINGLE ? "path.path" : "base_proof.path",
             f == CZ_FC_PROOF_SINGLE ? nl : s->tree.base_levels);
    add_case(&c[m++], pj + level_at(s, 0), 6,
             "inclusion_proofs[%u].%s.hashes: 6 siblings, the shape has 7", nc - 1, lv0);
    add_case(&c[m++], pj + level_at(s, last), a_last,
             "inclusion_proofs[%u].%s.hashes: %u siblings, the shape has %u", nc - 1, lvl, a_last,
             a_last - 1);
    size_t idx_last = pj + level_at(s, last) + 8 + 32 * (size_t)(a_last - 1);
    add_case(&c[m++], idx_last, a_last,
             "inclusion_proofs[%u].%s.index: %u, the arity is %u (at byte %zu)", nc - 1, lvl,
             a_last, a_last, idx_last);
    add_case(&c[m++], proof_at(s, 0) + level_at(s, 0) + 8 + 7 * 32, (uint64_t)1 << 63,
             "%s.inclusion_proofs[0].%s.index: 9223372036854775808, the arity is 8", sp, lv0);
    if (f != CZ_FC_PROOF_SINGLE) /* the sub path's length */
        add_case(&c[m++], pj + level_at(s, s->tree.base_levels) - 8, 0,
                 "inclusion_proofs[%u].sub_proof.path: 0 levels, the shape has 1", nc - 1);
    for (int i = 0; i < m; i++) {
        memcpy(t, b, n);
        tf_wr64le(t + c[i].off, c[i].v);
        expect_bad(s, t, n, CZ_ERR_BAD_FORMAT, c[i].needle);
    }
    /* the variant: past the last, and another form's */
    memcpy(t, b, n);
    tf_wr32le(t + pj, 3);
    snprintf(want, sizeof want, "%s.inclusion_proofs[%u]: variant 3, the shape's proofs are", sp,
             nc - 1);
    expect_bad(s, t, n, CZ_ERR_BAD_FORMAT, want);
    tf_wr32le(t + pj, f == CZ_FC_PROOF_SINGLE ? 1 : 0);
    expect_bad(s, t, n, CZ_ERR_BAD_FORMAT, "variant");

    /* a value that is not an Fr: comm_r, a sibling, a leaf, a root,
     * comm_c, comm_r_last */
    size_t leaf0 = f == CZ_FC_PROOF_SINGLE ? proof_at(s, 0) + 36 : proof_at(s, 1) - 32;
    size_t root0 = f == CZ_FC_PROOF_SINGLE ? proof_at(s, 0) + 4 : proof_at(s, 1) - 64;
    struct {
        size_t off;
        char needle[200];
    } v[6];
    char lv1[64];
    level_name(lv1, sizeof lv1, s, 1);
    v[0].off = 8;
    snprintf(v[0].needle, 200, "comm_r: a value that is not below the field's modulus (at byte 8)");
    v[1].off = pj + level_at(s, 1) + 8 + 3 * 32;
    snprintf(v[1].needle, 200, "inclusion_proofs[%u].%s.hashes[3]: a value", nc - 1, lv1);
    v[2].off = leaf0;
    snprintf(v[2].needle, 200, "%s.inclusion_proofs[0].leaf: a value", sp);
    v[3].off = root0;
    snprintf(v[3].needle, 200,
             "%s.inclusion_proofs[0].root: a value that is not below the field's "
             "modulus (at byte %zu)",
             sp, root0);
    v[4].off = n - 64;
    snprintf(v[4].needle, 200, "%s.comm_c: a value", sp);
    v[5].off = n - 32;
    snprintf(v[5].needle, 200, "%s.comm_r_last: a value", sp);
    for (int i = 0; i < 6; i++) {
        memcpy(t, b, n);
        memcpy(t + v[i].off, MODULUS, 32);
        expect_bad(s, t, n, CZ_ERR_NOT_CANONICAL, v[i].needle);
        memset(t + v[i].off, 0xff, 32);
        expect_bad(s, t, n, CZ_ERR_NOT_CANONICAL, v[i].needle);
    }
    /* the untouched blob still reads; NULL arguments */
    cz_post_vanilla q;
    char err[256];
    TF_CHECK_MSG(cz_post_vanilla_read(&q, s, b, n, NULL, err, sizeof err) == CZ_OK, "%s", err);
    cz_post_vanilla_free(&q);
    TF_CHECK(cz_post_vanilla_read(&q, NULL, b, n, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_post_vanilla_read(&q, s, NULL, n, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    free(b);
    free(t);
}

static void test_refusals(void)
{
    cz_post_shape shapes[5];
    shapes_for_format(shapes);
    for (int i = 0; i < 5; i++)
        check_refusals(&shapes[i], i == 0);
    /* a 2KiB Window blob is not a Winning one */
    cz_post_vanilla p;
    random_blob(&p, &shapes[0]);
    size_t n;
    uint8_t *b = encode(&p, &shapes[0], &n);
    expect_bad(&shapes[1], b, n, CZ_ERR_BAD_FORMAT,
               "vanilla_proof.sectors[0].inclusion_proofs: 10 inclusion proofs, the shape has 66");
    free(b);
    cz_post_vanilla_free(&p);
    /* a shape a blob cannot have */
    cz_post_shape bad = shapes[0];
    bad.tree.log_nodes = 7;
    TF_CHECK(cz_post_vanilla_alloc(&p, &bad, NULL) == CZ_ERR_INVALID_ARG && p.block.mem == NULL);
}

/* ------------------------------------------------------------ provers --- */

/* A sealed 2KiB sector (cz_fc_seal_ex: its replica is TreeR's leaves):
 * Window blobs under API 1.0 and 1.2 at several sector indexes and the
 * Winning blob (66 challenges) prove from TreeR, carry the C1's comm_r,
 * lead to cz_post_sector_challenges' leaves, survive write -> read and
 * verify; another sector_index (1.0), randomness, sector id or API fails;
 * a tree without the leaves or of another shape, or a non-canonical
 * input, is refused. */
static void test_sealed(void)
{
    const cz_fc_proof_type *t = cz_fc_proof_by_name("StackedDrg2KiBV1_1");
    TF_CHECK(t != NULL);
    if (t == NULL)
        return;
    cz_fc_sector sec = {.proof_type = t, .sector_id = 7};
    cz_prng_bytes(&tf_rng, sec.ticket, 32);
    sec.ticket[31] &= 0x3f;
    sec.prover_id[0] = 0xe8, sec.prover_id[1] = 0x07; /* LEB128(1000) */
    size_t nodes = (size_t)1 << t->shape->log_nodes;
    cz_fc_d *replica = malloc(nodes * sizeof *replica), comm_c;
    cz_fc_c1 c1;
    char err[256];
    int rc = cz_fc_seal_ex(&c1, &sec, NULL, replica, &comm_c, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    cz_fc_tree *tr = NULL, *td = NULL, *sparse = NULL, *big = NULL;
    counting cnt = {{0}, 0};
    cz_allocator a = {count_alloc, count_free, &cnt};
    TF_CHECK(rc == CZ_OK && cz_fc_tree_build(&tr, CZ_FC_TREE_RC, t->shape, replica, &a) == CZ_OK);
    if (tr == NULL) {
        free(replica);
        return;
    }
    cz_post_shape w, g;
    TF_CHECK(cz_post_shape_of(&w, CZ_POST_WINDOW, t->shape) == CZ_OK &&
             cz_post_shape_of(&g, CZ_POST_WINNING, t->shape) == CZ_OK);
    uint8_t r[32], r2[32];
    random_randomness(r);
    memcpy(r2, r, 32);
    r2[5] ^= 0x10;
    static const cz_fc_api apis[2] = {CZ_FC_API_1_0, CZ_FC_API_1_2};
    static const uint64_t idx[3] = {0, 1, 2348};
    for (int ai = 0; ai < 2; ai++) {
        for (int ii = 0; ii < 3; ii++) {
            cz_fc_api api = apis[ai];
            uint64_t si = idx[ii];
            cz_post_vanilla v, q;
            rc = cz_post_vanilla_prove(&v, &w, api, r, 7, si, tr, &comm_c, &a, err, sizeof err);
            TF_CHECK_MSG(rc == CZ_OK, "%s", err);
            if (rc)
                continue;
            TF_CHECK_MEM(v.comm_r.b, c1.comm_r.b, 32);
            uint64_t ch[10];
            cz_post_sector_challenges(ch, &w, api, r, 7, si);
            for (unsigned j = 0; j < 10; j++)
                TF_CHECK(cz_fc_proof_index(&v.proof.inclusion[j]) == ch[j] &&
                         !memcmp(v.proof.inclusion[j].leaf.b, replica[ch[j]].b, 32));
            expect_verify(&w, api, r, si, &v, CZ_OK, NULL);
            size_t n, n2;
            uint8_t *b = encode(&v, &w, &n);
            TF_CHECK_MSG(cz_post_vanilla_read(&q, &w, b, n, &a, err, sizeof err) == CZ_OK, "%s",
                         err);
            uint8_t *b2 = encode(&q, &w, &n2);
            TF_CHECK(n == n2 && !memcmp(b, b2, n));
            expect_verify(&w, api, r, si, &q, CZ_OK, NULL);
            /* 1.0's challenges depend on the position, 1.2's do not */
            if (api == CZ_FC_API_1_0)
                expect_verify(&w, api, r, si + 1, &q, CZ_ERR_BAD_PROOF, "the path leads to leaf");
            else
                expect_verify(&w, api, r, si + 1, &q, CZ_OK, NULL);
            if (si > 0)
                expect_verify(&w, apis[1 - ai], r, si, &q, CZ_ERR_BAD_PROOF,
                              "the path leads to leaf");
            expect_verify(&w, api, r2, si, &q, CZ_ERR_BAD_PROOF, "the path leads to leaf");
            q.sector_id = 8;
            expect_verify(&w, api, r, si, &q, CZ_ERR_BAD_PROOF, "the path leads to leaf");
            q.sector_id = 7;
            q.proof.comm_c.b[0] ^= 1;
            expect_verify(&w, api, r, si, &q, CZ_ERR_BAD_PROOF, "sector 7: comm_r is not");
            expect_verify(&g, api, r, si, &q, CZ_ERR_INVALID_ARG, "not of the shape");
            free(b);
            free(b2);
            cz_post_vanilla_free(&q);
            cz_post_vanilla_free(&v);
        }
    }
    /* Winning: 66 challenges, all checked (upstream checks only the
     * first); the proofs of the last one tampered */
    cz_post_vanilla v;
    rc = cz_post_vanilla_prove(&v, &g, CZ_FC_API_1_0, r, 7, 0, tr, &comm_c, &a, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    if (rc == CZ_OK) {
        TF_CHECK(v.proof.n_inclusion == 66 && !memcmp(v.comm_r.b, c1.comm_r.b, 32));
        expect_verify(&g, CZ_FC_API_1_0, r, 0, &v, CZ_OK, NULL);
        v.proof.inclusion[65].leaf.b[1] ^= 4;
        expect_verify(&g, CZ_FC_API_1_0, r, 0, &v, CZ_ERR_BAD_PROOF,
                      "inclusion proof 65 (challenge leaf");
        v.proof.inclusion[65].leaf.b[1] ^= 4;
        v.proof.inclusion[40].levels[1].hashes[6].b[0] ^= 1;
        expect_verify(&g, CZ_FC_API_1_0, r, 0, &v, CZ_ERR_BAD_PROOF,
                      "inclusion proof 40 (challenge leaf");
        cz_post_vanilla_free(&v);
    }
    /* refusals: non-canonical randomness or comm_c, a sparse tree without
     * the challenged leaves, TreeD, a tree of 8MiB's shape */
    uint8_t nr[32];
    memcpy(nr, MODULUS, 32);
    TF_CHECK(cz_post_vanilla_prove(&v, &w, CZ_FC_API_1_0, nr, 7, 0, tr, &comm_c, &a, err,
                                   sizeof err) == CZ_ERR_NOT_CANONICAL &&
             strstr(err, "randomness"));
    cz_fc_d nc;
    memcpy(nc.b, MODULUS, 32);
    TF_CHECK(cz_post_vanilla_prove(&v, &w, CZ_FC_API_1_0, r, 7, 0, tr, &nc, &a, err, sizeof err) ==
                 CZ_ERR_NOT_CANONICAL &&
             strstr(err, "comm_c"));
    uint64_t ch[10];
    cz_post_sector_challenges(ch, &w, CZ_FC_API_1_0, r, 7, 0);
    uint64_t other = (ch[0] + 1) % nodes;
    TF_CHECK(cz_fc_tree_build_sparse(&sparse, CZ_FC_TREE_RC, t->shape, &other, &replica[0], 1,
                                     &replica[1], &a) == CZ_OK);
    TF_CHECK(cz_post_vanilla_prove(&v, &w, CZ_FC_API_1_0, r, 7, 0, sparse, &comm_c, &a, err,
                                   sizeof err) == CZ_ERR_INVALID_ARG &&
             strstr(err, "the tree does not hold the leaf"));
    TF_CHECK(cz_fc_tree_build(&td, CZ_FC_TREE_D, t->shape, replica, &a) == CZ_OK);
    TF_CHECK(cz_post_vanilla_prove(&v, &w, CZ_FC_API_1_0, r, 7, 0, td, &comm_c, &a, err,
                                   sizeof err) == CZ_ERR_INVALID_ARG &&
             strstr(err, "not of the shape's TreeR"));
    TF_CHECK(cz_fc_tree_build_sparse(&big, CZ_FC_TREE_RC, cz_fc_shape_get(CZ_FC_8MIB), ch, replica,
                                     1, &replica[1], &a) == CZ_OK);
    TF_CHECK(cz_post_vanilla_prove(&v, &w, CZ_FC_API_1_0, r, 7, 0, big, &comm_c, &a, err,
                                   sizeof err) == CZ_ERR_INVALID_ARG);
    static const cz_post_vanilla zero;
    TF_CHECK(!memcmp(&v, &zero, sizeof v));
    cz_fc_tree_free(big);
    cz_fc_tree_free(td);
    cz_fc_tree_free(sparse);
    cz_fc_tree_free(tr);
    TF_CHECK(counting_empty(&cnt));
    cz_fc_c1_free(&c1);
    free(replica);
}

/* Synthetic blobs of 32GiB and 64GiB (Window and Winning), of 2KiB
 * Winning and a test shape with more challenges than leaves (leaves
 * challenged twice): each verifies, is the same for the same seed and
 * another for another seed, and fails under other randomness. */
static void test_synth(void)
{
    cz_post_shape s[6];
    TF_CHECK(cz_post_shape_of(&s[0], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[1], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[2], CZ_POST_WINDOW, cz_fc_shape_get(CZ_FC_64GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[3], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_64GIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_of(&s[4], CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_2KIB)) == CZ_OK);
    TF_CHECK(cz_post_shape_test(&s[5], "test-base-8", 2, 100) == CZ_OK);
    for (int i = 0; i < 6; i++) {
        counting cnt = {{0}, 0};
        cz_allocator a = {count_alloc, count_free, &cnt};
        uint8_t r[32], r2[32];
        random_randomness(r);
        memcpy(r2, r, 32);
        r2[0] ^= 1;
        cz_fc_api api = i % 2 ? CZ_FC_API_1_0 : CZ_FC_API_1_2;
        uint64_t si = s[i].kind == CZ_POST_WINNING ? 0 : 3, seed = cz_prng_next(&tf_rng);
        cz_post_vanilla v[3];
        char err[256];
        for (int k = 0; k < 3; k++)
            TF_CHECK_MSG(cz_post_vanilla_synth(&v[k], &s[i], api, r, 42, si, seed + (k == 2), &a,
                                               err, sizeof err) == CZ_OK,
                         "%s: %s", s[i].tree.name, err);
        if (v[0].block.mem == NULL || v[1].block.mem == NULL || v[2].block.mem == NULL)
            continue;
        size_t n[3];
        uint8_t *b[3];
        for (int k = 0; k < 3; k++) {
            b[k] = encode(&v[k], &s[i], &n[k]);
            expect_blob(&s[i], api, r, si, b[k], n[k], CZ_OK, NULL);
            expect_verify(&s[i], api, r, si, &v[k], CZ_OK, NULL);
        }
        TF_CHECK_MSG(!memcmp(b[0], b[1], n[0]), "%s: seed %llu gives two blobs", s[i].tree.name,
                     (unsigned long long)seed);
        TF_CHECK(memcmp(b[0], b[2], n[0]) != 0 && memcmp(v[0].comm_r.b, v[2].comm_r.b, 32) != 0);
        expect_verify(&s[i], api, r2, si, &v[0], CZ_ERR_BAD_PROOF, "the path leads to leaf");
        if (i == 5) { /* 100 challenges of 64 leaves: some leaf twice */
            bool twice = false;
            for (unsigned x = 0; x < 100 && !twice; x++)
                for (unsigned y = x + 1; y < 100 && !twice; y++)
                    twice = cz_fc_proof_index(&v[0].proof.inclusion[x]) ==
                            cz_fc_proof_index(&v[0].proof.inclusion[y]);
            TF_CHECK(twice);
        }
        for (int k = 0; k < 3; k++) {
            free(b[k]);
            cz_post_vanilla_free(&v[k]);
        }
        TF_CHECK_MSG(counting_empty(&cnt), "%s: memory left", s[i].tree.name);
    }
    cz_post_vanilla v;
    uint8_t zero[32] = {0};
    char err[256];
    TF_CHECK(cz_post_vanilla_synth(&v, &s[0], CZ_FC_API_1_0, MODULUS, 1, 0, 1, NULL, err,
                                   sizeof err) == CZ_ERR_NOT_CANONICAL);
    TF_CHECK(cz_post_vanilla_synth(&v, &s[0], (cz_fc_api)7, zero, 1, 0, 1, NULL, err, sizeof err) ==
             CZ_ERR_INVALID_ARG);
}

/* ---------------------------------------------------------- challenges --- */

/* Oracles from Python's hashlib:
 *   python3 -c "import hashlib,struct; r=bytes(range(32)); \
 *     d=hashlib.sha256(r+struct.pack('<QQ',1234567,89)).digest(); \
 *     print(struct.unpack('<Q',d[:8])[0])"               -> 14671748776748517257
 *   python3 -c "import hashlib,struct; r=bytes(range(32)); p=bytes([0xe8,7])+bytes(30); \
 *     d=hashlib.sha256(p+r+struct.pack('<Q',0)).digest(); \
 *     print(struct.unpack('<Q',d[:8])[0])"               -> 10694023955240927006 */
static void test_challenges(void)
{
    uint8_t r[32], prover[32] = {0xe8, 0x07};
    for (int i = 0; i < 32; i++)
        r[i] = (uint8_t)i;
    const uint64_t leaf_u64 = 14671748776748517257ull, sel_u64 = 10694023955240927006ull;
    TF_CHECK(cz_post_leaf_challenge(r, 1234567, 89, (uint64_t)1 << 30) ==
             leaf_u64 % ((uint64_t)1 << 30));
    TF_CHECK(cz_post_leaf_challenge(r, 1234567, 89, 64) == 9 && leaf_u64 % 64 == 9);
    TF_CHECK(cz_post_leaf_challenge(r, 1234567, 89, (uint64_t)1 << 31) == 937297801);
    TF_CHECK(cz_post_leaf_challenge(r, 1234568, 89, (uint64_t)1 << 31) != 937297801);
    /* challenge_index: 1.0 (and 1.1) sector_index x count + n, 1.2 n */
    TF_CHECK(cz_post_challenge_index(CZ_FC_API_1_0, 3, 10, 4) == 34 &&
             cz_post_challenge_index(CZ_FC_API_1_1, 3, 10, 4) == 34 &&
             cz_post_challenge_index(CZ_FC_API_1_2, 3, 10, 4) == 4);
    uint64_t x, y;
    TF_CHECK(cz_post_winning_sector(&x, prover, r, 1000) == CZ_OK && x == sel_u64 % 1000 && x == 6);
    TF_CHECK(cz_post_winning_sector(&x, prover, r, (uint64_t)1 << 40) == CZ_OK &&
             x == 140654362398ull);
    TF_CHECK(cz_post_winning_sector(&x, prover, r, UINT64_MAX) == CZ_OK && x == sel_u64);
    TF_CHECK(cz_post_winning_sector(&x, prover, r, 1) == CZ_OK && x == 0);
    TF_CHECK(cz_post_winning_sector(&x, prover, r, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_post_winning_sector(NULL, prover, r, 5) == CZ_ERR_INVALID_ARG);
    /* deterministic and in range over random inputs */
    for (int i = 0; i < 200; i++) {
        uint8_t p[32], q[32];
        cz_prng_bytes(&tf_rng, p, 32);
        random_randomness(q);
        uint64_t n = 1 + cz_prng_next(&tf_rng) % (i < 100 ? 10 : 1000000);
        TF_CHECK(cz_post_winning_sector(&x, p, q, n) == CZ_OK &&
                 cz_post_winning_sector(&y, p, q, n) == CZ_OK && x == y && x < n);
    }
    /* a Winning blob's 66 challenges are 1.0's of sector_index 0 */
    cz_post_shape g;
    TF_CHECK(cz_post_shape_of(&g, CZ_POST_WINNING, cz_fc_shape_get(CZ_FC_32GIB)) == CZ_OK);
    uint64_t ch[66];
    cz_post_sector_challenges(ch, &g, CZ_FC_API_1_0, r, 5, 0);
    for (unsigned n = 0; n < 66; n++)
        TF_CHECK(ch[n] == cz_post_leaf_challenge(r, 5, n, (uint64_t)1 << 30));
}

/* ------------------------------------------------------ fuzzer seeds --- */

/* The fuzzer's seeds (fuzz/corpus/post_vanilla): synthetic 2KiB Window,
 * 2KiB Winning and 32GiB Window blobs, seed 1, randomness zero. */
static int write_seeds(const char *dir)
{
    static const struct {
        cz_post_kind kind;
        cz_fc_shape_id size;
        const char *name;
    } seeds[3] = {{CZ_POST_WINDOW, CZ_FC_2KIB, "2k_window.bin"},
                  {CZ_POST_WINNING, CZ_FC_2KIB, "2k_winning.bin"},
                  {CZ_POST_WINDOW, CZ_FC_32GIB, "32g_window.bin"}};
    static const uint8_t zero[32];
    mkdir(dir, 0755);
    for (int i = 0; i < 3; i++) {
        cz_post_shape s;
        cz_post_vanilla v;
        char err[256];
        if (cz_post_shape_of(&s, seeds[i].kind, cz_fc_shape_get(seeds[i].size)) != CZ_OK ||
            cz_post_vanilla_synth(&v, &s, CZ_FC_API_1_2, zero, 1, 0, 1, NULL, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", seeds[i].name, err);
            return 1;
        }
        size_t n = cz_post_vanilla_bytes(&s);
        uint8_t *b = malloc(n);
        int bad = !b || cz_post_vanilla_write(b, n, &v, &s) != CZ_OK ||
                  tf_write_file(dir, seeds[i].name, b, n);
        free(b);
        cz_post_vanilla_free(&v);
        if (bad)
            return 1;
    }
    return 0;
}

TF_MAIN_SEEDS(write_seeds, TF_TEST(test_golden), TF_TEST(test_params_names),
              TF_TEST(test_blob_sizes), TF_TEST(test_roundtrip), TF_TEST(test_refusals),
              TF_TEST(test_sealed), TF_TEST(test_synth), TF_TEST(test_challenges))
