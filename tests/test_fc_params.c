/* Filecoin's PoRep parameter file names (cuzk/filecoin/porep.h
 * cz_fc_porep_params_identifier / cz_fc_porep_params_name):
 *
 *  - the identifiers of 32GiB and 64GiB equal the strings that
 *    storage-proofs-porep's test_public_params_identifier asserts
 *    (src/stacked/vanilla/params.rs @87348a74);
 *  - the names of the five sector sizes, with ".params" and ".vk", are keys
 *    of rust-fil-proofs' parameters.json (data/parameters.json, a copy;
 *    data/README.md) listing the shape's sector size, their hashes start
 *    032d3138, ecd68364, 6babf46c, 82a357d2, 96f1b4a0, and the file lists
 *    no other stacked-proof-of-replication key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "fixture.h"
#include "tf.h"
#include "util/json_tree.h"

static void identifiers(void)
{
    static const struct {
        cz_fc_shape_id id;
        const char *want;
    } V[] = {
        {CZ_FC_32GIB,
         "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
         "base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} "
         "}, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
         "merkletree-poseidon_hasher-8-8-0 }"},
        {CZ_FC_64GIB,
         "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
         "base_graph: drgraph::BucketGraph{size: 2147483648; degree: 6; hasher: poseidon_hasher} "
         "}, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
         "merkletree-poseidon_hasher-8-8-2 }"},
    };
    for (size_t i = 0; i < sizeof V / sizeof V[0]; i++) {
        char id[CZ_FC_PARAMS_ID];
        size_t n = cz_fc_porep_params_identifier(id, sizeof id, cz_fc_shape_get(V[i].id));
        TF_CHECK_MSG(n == strlen(V[i].want) && !strcmp(id, V[i].want), "identifier %s", id);
        /* a short buffer gets a truncated, terminated string and the full length */
        char small[16];
        TF_CHECK(cz_fc_porep_params_identifier(small, sizeof small, cz_fc_shape_get(V[i].id)) ==
                 n);
        TF_CHECK(strlen(small) == sizeof small - 1 && !strncmp(small, V[i].want, 15));
    }
    for (int s = 0; s < CZ_FC__SHAPES; s++) {
        char id[CZ_FC_PARAMS_ID];
        TF_CHECK(cz_fc_porep_params_identifier(id, sizeof id, cz_fc_shape_get(s)) <
                 CZ_FC_PARAMS_ID);
    }
}

/* data/parameters.json (found from this file's path) parsed into *doc; its
 * text, to free after cz_json_free(doc), or NULL when it cannot be read or
 * parsed (a failed check). */
static char *parameters_json(cz_json_doc *doc)
{
    const char *file = __FILE__, *slash = strrchr(file, '/');
    char path[4096], err[256];
    snprintf(path, sizeof path, "%.*s/../data/parameters.json", slash ? (int)(slash - file) : 1,
             slash ? file : ".");
    tf_blob b = tf_read_file(path);
    if (b.p == NULL)
        return NULL;
    int rc = cz_json_parse(doc, (const char *)b.p, b.n, 8, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "parameters.json: %s", err);
    if (rc != CZ_OK) {
        free(b.p);
        return NULL;
    }
    return (char *)b.p;
}

/* The sector_size member of an entry; 0 when absent. */
static uint64_t sector_size_of(const cz_json_value *entry)
{
    if (entry->type != CZ_JSON_OBJECT)
        return 0;
    const cz_json_value *m = cz_json_first(entry);
    for (size_t i = 0; i < entry->n; i++, m = cz_json_next(m))
        if (!strcmp(m->key, "sector_size") && m->type == CZ_JSON_NUMBER)
            return strtoull(m->str, NULL, 10);
    return 0;
}

static void published_names(void)
{
    static const char *const prefix[CZ_FC__SHAPES] = {"032d3138", "ecd68364", "6babf46c",
                                                      "82a357d2", "96f1b4a0"};
    static const char *const trees[CZ_FC__SHAPES] = {"8-0-0", "8-0-0", "8-0-0", "8-8-0", "8-8-2"};
    cz_json_doc doc;
    char *text = parameters_json(&doc);
    if (text == NULL)
        return;
    const cz_json_value *root = &doc.nodes[0];
    TF_CHECK(root->type == CZ_JSON_OBJECT);
    unsigned found[CZ_FC__SHAPES][2] = {{0}};
    size_t porep_keys = 0;
    char names[CZ_FC__SHAPES][CZ_FC_PARAMS_NAME];
    for (int s = 0; s < CZ_FC__SHAPES; s++) {
        cz_fc_porep_params_name(names[s], cz_fc_shape_get(s));
        char want[CZ_FC_PARAMS_NAME];
        snprintf(want, sizeof want,
                 "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s",
                 trees[s], prefix[s]);
        TF_CHECK_MSG(!strncmp(names[s], want, strlen(want)) && strlen(names[s]) == 80 + 64,
                     "%s: %s", cz_fc_shape_get(s)->name, names[s]);
    }
    const cz_json_value *m = cz_json_first(root);
    for (size_t i = 0; i < root->n; i++, m = cz_json_next(m)) {
        if (strstr(m->key, "stacked-proof-of-replication") == NULL)
            continue;
        porep_keys++;
        int matched = 0;
        for (int s = 0; s < CZ_FC__SHAPES; s++) {
            size_t nl = strlen(names[s]);
            if (strncmp(m->key, names[s], nl) != 0)
                continue;
            int vk = !strcmp(m->key + nl, ".vk");
            if (!vk && strcmp(m->key + nl, ".params") != 0)
                continue;
            matched = 1;
            found[s][vk]++;
            TF_CHECK_MSG(sector_size_of(m) == cz_fc_shape_get(s)->sector_size,
                         "%s: sector_size %llu", m->key, (unsigned long long)sector_size_of(m));
        }
        TF_CHECK_MSG(matched, "parameters.json lists %s, which no shape names", m->key);
    }
    for (int s = 0; s < CZ_FC__SHAPES; s++)
        TF_CHECK_MSG(found[s][0] == 1 && found[s][1] == 1, "%s: %s.params x%u, .vk x%u",
                     cz_fc_shape_get(s)->name, names[s], found[s][0], found[s][1]);
    TF_CHECK(porep_keys == 2 * CZ_FC__SHAPES);
    cz_json_free(&doc);
    free(text);
}

/* A member's string value; NULL when absent. */
static const char *string_of(const cz_json_value *entry, const char *key)
{
    const cz_json_value *m = cz_json_first(entry);
    for (size_t i = 0; i < entry->n; i++, m = cz_json_next(m))
        if (!strcmp(m->key, key) && m->type == CZ_JSON_STRING)
            return m->str;
    return NULL;
}

/* cz_fc_params_official: every entry of parameters.json, digest and sector
 * size, and nothing else; lookups by name, a miss for an unknown one. */
static void official_table(void)
{
    cz_json_doc doc;
    char *text = parameters_json(&doc);
    if (text == NULL)
        return;
    const cz_json_value *root = &doc.nodes[0];
    TF_CHECK(root->n == cz_fc_params_official_count());
    const cz_json_value *m = cz_json_first(root);
    for (size_t i = 0; i < root->n; i++, m = cz_json_next(m)) {
        const char *d = cz_fc_params_official_digest(m->key);
        const char *want = string_of(m, "digest");
        TF_CHECK_MSG(d && want && !strcmp(d, want), "%s: %s, parameters.json %s", m->key,
                     d ? d : "none", want ? want : "none");
        for (size_t k = 0; k < cz_fc_params_official_count(); k++) {
            uint64_t ss;
            const char *name = cz_fc_params_official(k, NULL, &ss);
            if (!strcmp(name, m->key))
                TF_CHECK_MSG(ss == sector_size_of(m), "%s: sector size", name);
        }
    }
    TF_CHECK(cz_fc_params_official(cz_fc_params_official_count(), NULL, NULL) == NULL);
    TF_CHECK(cz_fc_params_official_digest("v28-no-such-file.params") == NULL);
    cz_json_free(&doc);
    free(text);
}

/* cz_fc_params_check: a file is accepted by Filecoin's digest or by the
 * param cache's generated list, refused otherwise with both named; the
 * list is rewritten, a name's line replaced. */
static void digest_check(void)
{
    char dir[] = "/tmp/cz_params_XXXXXX";
    TF_CHECK(mkdtemp(dir) != NULL);
    uint8_t b2[64] = {0};
    bool insecure = true;
    char err[700], hex[CZ_FC_DIGEST_HEX];
    /* Filecoin's 2KiB .vk digest, as bytes */
    const char *name = NULL, *digest = NULL;
    for (size_t k = 0; k < cz_fc_params_official_count(); k++) {
        name = cz_fc_params_official(k, &digest, NULL);
        if (strstr(name, "032d3138") && strstr(name, ".vk"))
            break;
    }
    for (int i = 0; i < 16; i++) {
        unsigned v;
        sscanf(digest + 2 * i, "%2x", &v);
        b2[i] = (uint8_t)v;
    }
    cz_fc_params_digest_hex(hex, b2);
    TF_CHECK(!strcmp(hex, digest));
    TF_CHECK(cz_fc_params_check(dir, name, b2, &insecure, err, sizeof err) == CZ_OK && !insecure);
    b2[0] ^= 1;
    cz_fc_params_digest_hex(hex, b2);
    int rc = cz_fc_params_check(dir, name, b2, &insecure, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strstr(err, hex) && strstr(err, digest) &&
                     strstr(err, "not listed"),
                 "%s", err);
    /* listed as generated: accepted, insecure; another digest listed: refused */
    TF_CHECK(cz_fc_params_record_generated(dir, "other.params", "0123456789abcdef0123456789abcdef",
                                           err, sizeof err) == CZ_OK);
    TF_CHECK(cz_fc_params_record_generated(dir, name, "00000000000000000000000000000000", err,
                                           sizeof err) == CZ_OK);
    rc = cz_fc_params_check(dir, name, b2, &insecure, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strstr(err, "00000000000000000000000000000000"), "%s",
                 err);
    TF_CHECK(cz_fc_params_record_generated(dir, name, hex, err, sizeof err) == CZ_OK);
    TF_CHECK(cz_fc_params_check(dir, name, b2, &insecure, err, sizeof err) == CZ_OK && insecure);
    char got[CZ_FC_DIGEST_HEX];
    TF_CHECK(cz_fc_params_generated_digest(dir, "other.params", got, err, sizeof err) == CZ_OK &&
             !strcmp(got, "0123456789abcdef0123456789abcdef"));
    TF_CHECK(cz_fc_params_generated_digest(dir, "none.vk", got, err, sizeof err) ==
             CZ_ERR_NOT_FOUND);
    /* the list has one line per name, comments first */
    char path[300], line[400];
    snprintf(path, sizeof path, "%s/%s", dir, CZ_FC_GENERATED_DIGESTS);
    FILE *f = fopen(path, "r");
    unsigned lines = 0, comments = 0;
    while (f && fgets(line, sizeof line, f))
        line[0] == '#' ? comments++ : lines++;
    if (f)
        fclose(f);
    TF_CHECK_MSG(lines == 2 && comments == 2, "%u lines, %u comments", lines, comments);
    /* a file's digest */
    snprintf(path, sizeof path, "%s/x", dir);
    f = fopen(path, "wb");
    fputs("abc", f);
    fclose(f);
    uint8_t d1[64], d2[64];
    TF_CHECK(cz_fc_file_blake2b(path, d1, err, sizeof err) == CZ_OK);
    cz_blake2b(d2, 64, NULL, 0, "abc", 3);
    TF_CHECK(!memcmp(d1, d2, 64));
    TF_CHECK(cz_fc_file_blake2b("/nonexistent/x", d1, err, sizeof err) == CZ_ERR_IO &&
             strstr(err, "/nonexistent/x"));
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, CZ_FC_GENERATED_DIGESTS);
    unlink(path);
    rmdir(dir);
}

TF_MAIN(TF_TEST(identifiers), TF_TEST(published_names), TF_TEST(official_table),
        TF_TEST(digest_check))
