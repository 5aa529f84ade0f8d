/* Filecoin's parameter files (see cuzk/filecoin/core.h, docs/filecoin.md
 * "Parameter files"): their names, the digests rust-fil-proofs'
 * parameters.json publishes for them (BLAKE2b-512 of the file, the first
 * 32 hex digits: filecoin-proofs src/param.rs
 * get_digest_for_file_within_cache), the param cache's own list of the
 * INSECURE files cuzk params generates, and a set's three files in
 * a param cache: there, their sizes, loaded and checked.
 *
 * A loaded set's query points get the curve check, not the subgroup
 * check: the digest stands for them (rust-fil-proofs reads them unchecked
 * too), and the engine verifies every proof before it leaves. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"
#include "cuzk/sha256.h"

/* -------------------------------------------------------------- names --- */

/* rust-fil-proofs @87348a74 storage-proofs-core src/parameter_cache.rs
 * (VERSION 28, parameter_id, cache_identifier), src/merkle/tree.rs
 * (MerkleTreeWrapper::display: the base arity 8 and Poseidon). */
void cz_fc_params_name(char out[CZ_FC_PARAMS_NAME], const char *circuit, unsigned sub,
                       unsigned top, const char *hasher, const char *identifier)
{
    uint8_t d[32];
    cz_sha256(d, (const uint8_t *)identifier, strlen(identifier));
    int n = snprintf(out, CZ_FC_PARAMS_NAME, "v28-%s-merkletree-poseidon_hasher-8-%u-%u%s%s-",
                     circuit, sub, top, hasher ? "-" : "", hasher ? hasher : "");
    for (int i = 0; i < 32 && n > 0 && n + 2 * i + 2 < CZ_FC_PARAMS_NAME; i++)
        snprintf(out + n + 2 * i, 3, "%02x", d[i]);
}

/* ------------------------------------------------------------ digests --- */

/* Every entry of parameters.json (v28, as shipped in data/parameters.json;
 * test_fc_params compares the two), sorted by name. */
static const struct {
    const char *name, *digest;
    uint64_t sector_size;
} OFFICIAL[] = {
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.params",
     "c3ad7bb549470b82ad52ed070aebb4f4", 536870912ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.vk",
     "994c5b7d450ca9da348c910689f2dc7f", 536870912ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.params",
     "5aedd2cf3e5c0a15623d56a1b43110ad", 8388608ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.vk",
     "abd80269054d391a734febdac0d2e687", 8388608ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params",
     "311f92a3e75036ced01b1c0025f1fa0c", 2048ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk",
     "eadad9784969890d30f2749708c79771", 2048ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "1b3cfd761a961543f9eb273e435a06a2", 34359738368ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "3a6941983754737fde880d29c7094905", 34359738368ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "1a392e7b759fb18e036c7559b5ece816", 68719476736ull},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "80e366df2f1011953c2d01c7b7c9ee8e", 68719476736ull},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "b69983b5d7a97a20f43b3d5ff2a4ed04", 34359738368ull},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "1ac05784f304129f74c5184190c1ec78", 34359738368ull},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "a6d4f96e2b641a6d7a1a8e6dc1155c8a", 68719476736ull},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "8e8fb9e2c56eb5d740d0de135305a7b8", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params",
     "7610b9f82bfc88405b7a832b651ce2f6", 2048ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk",
     "0e0958009936b9d5e515ec97b8cb792d", 2048ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params",
     "1a7d4a9c8a502a497ed92a54366af33f", 536870912ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.vk",
     "4dae975de4f011f101f5a2f86d1daaba", 536870912ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params",
     "82c88066be968bb550a05e30ff6c2413", 2048ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk",
     "ffd79788d614d27919ae5bd2d94eacb6", 2048ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params",
     "700171ecf7334e3199437c930676af82", 8388608ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.vk",
     "79ebb55f56fda427743e35053edad8fc", 8388608ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.params",
     "c49499bb76a0762884896f9683403f55", 8388608ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.vk",
     "34d4feeacd9abf788d69ef1bb4d8fd00", 8388608ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.params",
     "827359440349fe8f5a016e7598993b79", 536870912ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.vk",
     "bd2cd62f65c1ab84f19ca27e97b7c731", 536870912ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
     "2cf49eb26f1fee94c85781a390ddb4c8", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk",
     "0f8ec542485568fa3468c066e9fed82b", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params",
     "d84f79a16fe40e9e25a36e2107bb1ba0", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.vk",
     "fc02943678dd119e69e7fab8420e8819", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params",
     "3810b7780ac0e299b22ae70f1f94c9bc", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.vk",
     "59d2bf1857adc59a4f08fcf2afaa916b", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params",
     "2170a91ad5bae22ea61f2ea766630322", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.vk",
     "6d3789148fb6466d07ee1e24d6292fd6", 68719476736ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params",
     "434fb1338ecfaf0f59256f30dde4968f", 2048ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk",
     "dc1ade9929ade1708238f155343044ac", 2048ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params",
     "6c77597eb91ab936c1cef4cf19eba1b3", 536870912ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.vk",
     "065179da19fbe515507267677f02823e", 536870912ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params",
     "09e612e4eeb7a0eb95679a88404f960c", 8388608ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.vk",
     "b687beb9adbd9dabe265a7e3620813e4", 8388608ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
     "6a388072a518cf46ebd661f5cc46900a", 34359738368ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk",
     "0c7b4aac1c40fdb7eb82bc355b41addf", 34359738368ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params",
     "1801f8a6e1b00bceb00cc27314bb5ce3", 68719476736ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.vk",
     "a89884252c04c298d0b3c81bfd884164", 68719476736ull},
};

size_t cz_fc_params_official_count(void) { return sizeof OFFICIAL / sizeof OFFICIAL[0]; }

const char *cz_fc_params_official(size_t i, const char **digest, uint64_t *sector_size)
{
    if (i >= cz_fc_params_official_count())
        return NULL;
    if (digest)
        *digest = OFFICIAL[i].digest;
    if (sector_size)
        *sector_size = OFFICIAL[i].sector_size;
    return OFFICIAL[i].name;
}

const char *cz_fc_params_official_digest(const char *file_name)
{
    size_t lo = 0, hi = cz_fc_params_official_count();
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(file_name, OFFICIAL[mid].name);
        if (c == 0)
            return OFFICIAL[mid].digest;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

void cz_fc_params_digest_hex(char out[CZ_FC_DIGEST_HEX], const uint8_t blake2b[64])
{
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = hx[blake2b[i] >> 4];
        out[2 * i + 1] = hx[blake2b[i] & 15];
    }
    out[32] = 0;
}

int cz_fc_file_blake2b(const char *path, uint8_t out[64], char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cz_msgf(err, errlen, "%s: %s", path, strerror(errno));
        return CZ_ERR_IO;
    }
    cz_blake2b_ctx h;
    cz_blake2b_init(&h, 64, NULL, 0);
    static const size_t CHUNK = 1u << 20;
    uint8_t *buf = malloc(CHUNK);
    int rc = buf ? CZ_OK : CZ_ERR_NOMEM;
    for (ssize_t n; rc == CZ_OK && (n = read(fd, buf, CHUNK)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            cz_msgf(err, errlen, "%s: %s", path, strerror(errno));
            rc = CZ_ERR_IO;
            break;
        }
        cz_blake2b_update(&h, buf, (size_t)n);
    }
    free(buf);
    close(fd);
    if (rc == CZ_OK)
        cz_blake2b_final(&h, out);
    return rc;
}

/* ------------------------------------------------- the generated list --- */

/* The list's lines: "<32 hex digits>  <file name>"; '#' starts a comment
 * line.  *text (malloc'd, NUL-terminated) is NULL when the file is absent. */
static int read_list(const char *dir, char **text, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, CZ_FC_GENERATED_DIGESTS);
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        if (errno == ENOENT)
            return CZ_OK;
        cz_msgf(err, errlen, "%s: %s", path, strerror(errno));
        return CZ_ERR_IO;
    }
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    int rc = s ? CZ_OK : CZ_ERR_NOMEM;
    for (size_t got; rc == CZ_OK && (got = fread(s + n, 1, cap - 1 - n, f)) > 0;) {
        n += got;
        if (n > (1u << 20)) {
            cz_msgf(err, errlen, "%s: larger than 1 MiB", path);
            rc = CZ_ERR_BAD_FORMAT;
        } else if (n == cap - 1) {
            char *t = realloc(s, cap *= 2);
            if (t == NULL)
                rc = CZ_ERR_NOMEM;
            else
                s = t;
        }
    }
    fclose(f);
    if (rc != CZ_OK) {
        free(s);
        return rc;
    }
    s[n] = 0;
    *text = s;
    return CZ_OK;
}

/* The digest listed for name in text (a line "<hex>  <name>"), copied into
 * out; false when none.  A malformed line is skipped. */
static bool list_find(const char *text, const char *name, char out[CZ_FC_DIGEST_HEX])
{
    size_t nl = strlen(name);
    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (l[0] != '#' && len == 34 + nl && l[32] == ' ' && l[33] == ' ' &&
            !memcmp(l + 34, name, nl) && strspn(l, "0123456789abcdef") >= 32) {
            memcpy(out, l, 32);
            out[32] = 0;
            return true;
        }
        l = end ? end + 1 : NULL;
    }
    return false;
}

int cz_fc_params_generated_digest(const char *dir, const char *file_name,
                                  char out[CZ_FC_DIGEST_HEX], char *err, size_t errlen)
{
    char *text;
    int rc = read_list(dir, &text, err, errlen);
    if (rc != CZ_OK)
        return rc;
    bool found = text && list_find(text, file_name, out);
    free(text);
    return found ? CZ_OK : CZ_ERR_NOT_FOUND;
}

int cz_fc_params_record_generated(const char *dir, const char *file_name,
                                  const char digest[CZ_FC_DIGEST_HEX], char *err, size_t errlen)
{
    char *text;
    int rc = read_list(dir, &text, err, errlen);
    if (rc != CZ_OK)
        return rc;
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, CZ_FC_GENERATED_DIGESTS);
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        cz_msgf(err, errlen, "%s: %s", tmp, strerror(errno));
        free(text);
        return CZ_ERR_IO;
    }
    fputs("# INSECURE Groth16 parameters made by cuzk params: whoever knows the\n"
          "# seed can forge proofs.  BLAKE2b-512 (first 32 hex digits) and file name.\n",
          f);
    /* the other files' lines, kept in order */
    size_t nl = strlen(file_name);
    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        bool same = len == 34 + nl && !memcmp(l + 34, file_name, nl);
        if (l[0] != '#' && len > 0 && !same)
            fprintf(f, "%.*s\n", (int)len, l);
        l = end ? end + 1 : NULL;
    }
    fprintf(f, "%s  %s\n", digest, file_name);
    free(text);
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        cz_msgf(err, errlen, "%s: %s", path, strerror(errno));
        unlink(tmp);
        return CZ_ERR_IO;
    }
    return CZ_OK;
}

int cz_fc_params_check(const char *dir, const char *file_name, const uint8_t blake2b[64],
                       bool *insecure, char *err, size_t errlen)
{
    char got[CZ_FC_DIGEST_HEX], listed[CZ_FC_DIGEST_HEX];
    cz_fc_params_digest_hex(got, blake2b);
    *insecure = false;
    const char *official = cz_fc_params_official_digest(file_name);
    if (official && !strcmp(official, got))
        return CZ_OK;
    char why[300];
    int rc = cz_fc_params_generated_digest(dir, file_name, listed, why, sizeof why);
    if (rc == CZ_OK && !strcmp(listed, got)) {
        *insecure = true;
        return CZ_OK;
    }
    if (rc != CZ_OK && rc != CZ_ERR_NOT_FOUND) {
        cz_msgf(err, errlen, "digest %s is not Filecoin's (%s), and the list of generated files "
                             "cannot be read (%s): %s/%s",
                got, official ? official : "none published", why, dir, file_name);
        return rc;
    }
    cz_msgf(err, errlen,
            "digest %s is neither Filecoin's (%s, parameters.json) nor the one %s lists (%s): "
            "a damaged or foreign file: %s/%s",
            got, official ? official : "none published", CZ_FC_GENERATED_DIGESTS,
            rc == CZ_OK ? listed : "not listed", dir, file_name);
    return CZ_ERR_BAD_FORMAT;
}

/* ---------------------------------------------- a set in a param cache --- */

static const char *const EXT[CZ_FC_PARAM_FILES] = {".params", ".vk", ".pce"};

static void file_path(char *out, size_t n, const char *dir, const char *base, int i)
{
    snprintf(out, n, "%s/%s%s", dir, base, EXT[i]);
}

int cz_fc_param_files_present(const char *dir, const char *base, const char *what,
                              const char *pce_cmd, char *err, size_t errlen)
{
    for (int i = 0; i < CZ_FC_PARAM_FILES; i++) {
        char path[4096];
        struct stat st;
        file_path(path, sizeof path, dir, base, i);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            bool pce = i == CZ_FC_PARAM_PCE;
            return cz_fail(err, errlen, CZ_ERR_NOT_FOUND,
                           "the %s parameters are missing: %s (%s)%s%s%s", what, path,
                           strerror(errno ? errno : ENOENT), pce ? "; `" : "", pce ? pce_cmd : "",
                           pce ? "` writes the pre-compiled circuit" : "");
        }
    }
    return CZ_OK;
}

int cz_fc_param_files_sizes(const char *dir, const char *base, size_t *params, size_t *pce,
                            char *err, size_t errlen)
{
    char pp[4096], cp[4096];
    file_path(pp, sizeof pp, dir, base, CZ_FC_PARAM_PARAMS);
    file_path(cp, sizeof cp, dir, base, CZ_FC_PARAM_PCE);
    /* the .params' layout walked over a mapping, no point read */
    struct stat st;
    int fd = open(pp, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        cz_msgf(err, errlen, "%s: %s", pp, strerror(errno));
        if (fd >= 0)
            close(fd);
        return CZ_ERR_IO;
    }
    void *m = st.st_size > 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                             : MAP_FAILED;
    close(fd);
    if (m == MAP_FAILED)
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: cannot map it (%llu bytes)", pp,
                       (unsigned long long)st.st_size);
    char why[200];
    int rc = cz_groth16_params_decoded_size(params, m, (size_t)st.st_size, 0, why, sizeof why);
    munmap(m, (size_t)st.st_size);
    if (rc != CZ_OK)
        return cz_fail(err, errlen, rc, "%s: %s", pp, why);
    if (stat(cp, &st) != 0)
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: %s", cp, strerror(errno));
    *pce = (size_t)st.st_size;
    return CZ_OK;
}

static bool vk_equal(const cz_groth16_vk *a, const cz_groth16_vk *b)
{
    return a->n_ic == b->n_ic && !memcmp(&a->alpha_g1, &b->alpha_g1, sizeof a->alpha_g1) &&
           !memcmp(&a->beta_g1, &b->beta_g1, sizeof a->beta_g1) &&
           !memcmp(&a->beta_g2, &b->beta_g2, sizeof a->beta_g2) &&
           !memcmp(&a->gamma_g2, &b->gamma_g2, sizeof a->gamma_g2) &&
           !memcmp(&a->delta_g1, &b->delta_g1, sizeof a->delta_g1) &&
           !memcmp(&a->delta_g2, &b->delta_g2, sizeof a->delta_g2) &&
           !memcmp(a->ic, b->ic, a->n_ic * sizeof *a->ic);
}

/* File i of the set (at path), of digest b2, accepted; bit i of *insecure
 * set for a generated one. */
static int digest_ok(const char *dir, const char *path, int i, const uint8_t b2[64],
                     unsigned *insecure, char *err, size_t errlen)
{
    bool gen;
    int rc = cz_fc_params_check(dir, strrchr(path, '/') + 1, b2, &gen, err, errlen);
    if (rc == CZ_OK && gen)
        *insecure |= 1u << i;
    return rc;
}

/* The .vk at vp, accepted by digest, is the one params holds. */
static int vk_check(const char *dir, const char *vp, const cz_groth16_params *params,
                    unsigned *insecure, char *err, size_t errlen)
{
    uint8_t b2[64];
    char why[600];
    cz_groth16_vk vk;
    int rc = cz_fc_file_blake2b(vp, b2, why, sizeof why);
    if (rc == CZ_OK &&
        (rc = digest_ok(dir, vp, CZ_FC_PARAM_VK, b2, insecure, why, sizeof why)) != CZ_OK)
        return cz_fail(err, errlen, rc, "%s", why);
    if (rc == CZ_OK)
        rc = cz_groth16_vk_read_file(&vk, vp, why, sizeof why);
    if (rc != CZ_OK)
        return cz_fail(err, errlen, rc, "%s: %s", vp, why);
    bool same = vk_equal(&vk, &params->vk);
    cz_groth16_vk_free(&vk);
    return same ? CZ_OK : CZ_ERR_BAD_FORMAT;
}

int cz_fc_param_files_load(const char *dir, const char *base, const cz_fc_param_load *o,
                           cz_groth16_params *params, cz_r1cs **r1cs, unsigned *insecure,
                           char *err, size_t errlen)
{
    char path[CZ_FC_PARAM_FILES][4096], why[600];
    for (int i = 0; i < CZ_FC_PARAM_FILES; i++)
        file_path(path[i], sizeof path[i], dir, base, i);
    const char *pp = path[CZ_FC_PARAM_PARAMS], *vp = path[CZ_FC_PARAM_VK],
               *cp = path[CZ_FC_PARAM_PCE];
    *insecure = 0;
    *r1cs = NULL;
    uint8_t b2[64];
    cz_params_read_opts ro = {
        .flags = CZ_DECODE_SKIP_SUBGROUP, .pool = o->pool, .alloc = o->alloc, .blake2b = b2};
    int rc = cz_groth16_params_read_file_ex(params, pp, &ro, why, sizeof why);
    if (rc != CZ_OK)
        return cz_fail(err, errlen, rc, "%s: %s", pp, why);
    rc = digest_ok(dir, pp, CZ_FC_PARAM_PARAMS, b2, insecure, err, errlen);
    if (rc == CZ_OK && (rc = vk_check(dir, vp, params, insecure, err, errlen)) == CZ_ERR_BAD_FORMAT)
        cz_msgf(err, errlen, "%s is not the verifying key of %s", vp, pp);
    if (rc == CZ_OK && (rc = cz_pce_load(r1cs, cp, 0, why, sizeof why)) != CZ_OK)
        cz_msgf(err, errlen, "%s: %s", cp, why);
    if (rc == CZ_OK &&
        (cz_r1cs_num_inputs(*r1cs) != o->n_in || cz_r1cs_num_aux(*r1cs) != o->n_aux ||
         params->vk.n_ic != o->n_in || params->n_l != o->n_aux)) {
        cz_msgf(err, errlen,
                "the files are not of the %s circuit (%zu inputs, %zu aux): the .pce has %zu and "
                "%zu, the .params %zu IC and %zu L points",
                o->what, o->n_in, o->n_aux, cz_r1cs_num_inputs(*r1cs), cz_r1cs_num_aux(*r1cs),
                params->vk.n_ic, params->n_l);
        rc = CZ_ERR_BAD_FORMAT;
    }
    if (rc != CZ_OK) {
        cz_r1cs_free(*r1cs);
        *r1cs = NULL;
        cz_groth16_params_free(params);
    }
    return rc;
}
