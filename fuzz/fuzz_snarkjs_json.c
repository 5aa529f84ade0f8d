/* libFuzzer harness for the snarkjs JSON readers (include/cuzk/snarkjs.h).
 *
 * The first byte picks the reader (mod 3: proof.json, public.json,
 * verification_key.json); the rest is the text.
 * Invariants, abort() when one fails:
 *   - a rejection returns a known format code (never INVALID_ARG or IO) with
 *     a non-empty message naming the file kind, and leaves the output
 *     zeroed;
 *   - an accepted proof or key has every point on the curve and in the
 *     subgroup, and infinity only where allowed (vk_alpha_1 .. vk_delta_2);
 *   - what was accepted is written, read back to the same values, and
 *     written again to the same bytes.
 * Seed corpus: fuzz/corpus/snarkjs_json (the JSON fixtures of
 * tests/data/zkey, each after its selector byte '0', '1' or '2').  Run with
 * scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/snarkjs.h"
#include "fuzz.h"

static void check_rejection(int rc, const char *err, const char *kind)
{
    CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_UNSUPPORTED || rc == CZ_ERR_WRONG_CURVE ||
          rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_NOT_ON_CURVE || rc == CZ_ERR_NOT_IN_SUBGROUP ||
          rc == CZ_ERR_BAD_INFINITY || rc == CZ_ERR_IS_INFINITY || rc == CZ_ERR_NOMEM);
    CHECK(strncmp(err, kind, strlen(kind)) == 0);
}

static bool g1_ok(const cz_g1_affine *p, bool inf)
{
    if (cz_g1_affine_is_inf(p))
        return inf;
    return cz_g1_affine_is_on_curve(p) && cz_g1_affine_in_subgroup(p);
}

static bool g2_ok(const cz_g2_affine *p, bool inf)
{
    if (cz_g2_affine_is_inf(p))
        return inf;
    return cz_g2_affine_is_on_curve(p) && cz_g2_affine_in_subgroup(p);
}

/* Writes t1 again from what it was read into and compares. */
static void same_text(char *t1, size_t l1, char *t2, size_t l2)
{
    CHECK(t1 != NULL && t2 != NULL && l1 == l2 && memcmp(t1, t2, l1) == 0);
    free(t1);
    free(t2);
}

static void fuzz_proof(const char *text, size_t len)
{
    static const cz_groth16_proof zero;
    cz_groth16_proof p, q;
    char err[256] = "", *t1 = NULL, *t2 = NULL;
    size_t l1 = 0, l2 = 0;
    int rc = cz_snarkjs_proof_read_mem(&p, text, len, err, sizeof err);
    if (rc != CZ_OK) {
        check_rejection(rc, err, "proof.json: ");
        CHECK(memcmp(&p, &zero, sizeof p) == 0);
        return;
    }
    CHECK(g1_ok(&p.a, false) && g2_ok(&p.b, false) && g1_ok(&p.c, false));
    CHECK(cz_snarkjs_proof_to_json(&t1, &l1, &p) == CZ_OK);
    CHECK(cz_snarkjs_proof_read_mem(&q, t1, l1, err, sizeof err) == CZ_OK);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    CHECK(cz_snarkjs_proof_to_json(&t2, &l2, &q) == CZ_OK);
    same_text(t1, l1, t2, l2);
}

static void fuzz_public(const char *text, size_t len)
{
    cz_fr *pub = NULL, *back = NULL;
    size_t n = 0, m = 0, l1 = 0, l2 = 0;
    char err[256] = "", *t1 = NULL, *t2 = NULL;
    int rc = cz_snarkjs_public_read_mem(&pub, &n, text, len, err, sizeof err);
    if (rc != CZ_OK) {
        check_rejection(rc, err, "public.json: ");
        CHECK(pub == NULL && n == 0);
        return;
    }
    CHECK(cz_snarkjs_public_to_json(&t1, &l1, pub, n) == CZ_OK);
    CHECK(cz_snarkjs_public_read_mem(&back, &m, t1, l1, err, sizeof err) == CZ_OK);
    CHECK(m == n && (n == 0 || memcmp(pub, back, n * sizeof *pub) == 0));
    CHECK(cz_snarkjs_public_to_json(&t2, &l2, back, m) == CZ_OK);
    same_text(t1, l1, t2, l2);
    free(pub);
    free(back);
}

static void fuzz_vk(const char *text, size_t len)
{
    static const cz_groth16_vk zero;
    cz_groth16_vk vk, back;
    char err[256] = "", *t1 = NULL, *t2 = NULL;
    size_t l1 = 0, l2 = 0;
    int rc = cz_snarkjs_vk_read_mem(&vk, text, len, err, sizeof err);
    if (rc != CZ_OK) {
        check_rejection(rc, err, "verification_key.json: ");
        CHECK(memcmp(&vk, &zero, sizeof vk) == 0);
        return;
    }
    CHECK(vk.n_ic >= 1 && vk.ic != NULL);
    CHECK(g1_ok(&vk.alpha_g1, true) && g2_ok(&vk.beta_g2, true) && g2_ok(&vk.gamma_g2, true) &&
          g2_ok(&vk.delta_g2, true));
    CHECK(cz_g1_affine_is_inf(&vk.beta_g1) && cz_g1_affine_is_inf(&vk.delta_g1));
    for (size_t i = 0; i < vk.n_ic; i++)
        CHECK(g1_ok(&vk.ic[i], false));
    CHECK(cz_snarkjs_vk_to_json(&t1, &l1, &vk) == CZ_OK);
    CHECK(cz_snarkjs_vk_read_mem(&back, t1, l1, err, sizeof err) == CZ_OK);
    CHECK(back.n_ic == vk.n_ic && memcmp(back.ic, vk.ic, vk.n_ic * sizeof *vk.ic) == 0);
    CHECK(memcmp(&back.alpha_g1, &vk.alpha_g1, sizeof vk.alpha_g1) == 0 &&
          memcmp(&back.beta_g2, &vk.beta_g2, sizeof vk.beta_g2) == 0 &&
          memcmp(&back.gamma_g2, &vk.gamma_g2, sizeof vk.gamma_g2) == 0 &&
          memcmp(&back.delta_g2, &vk.delta_g2, sizeof vk.delta_g2) == 0);
    CHECK(cz_snarkjs_vk_to_json(&t2, &l2, &back) == CZ_OK);
    same_text(t1, l1, t2, l2);
    cz_groth16_vk_free(&vk);
    cz_groth16_vk_free(&back);
    CHECK(memcmp(&vk, &zero, sizeof vk) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    /* An exact-size copy so ASan sees any read past the text. */
    char *text = malloc(size - 1 ? size - 1 : 1);
    CHECK(text != NULL);
    memcpy(text, data + 1, size - 1);
    switch (data[0] % 3) {
    case 0:
        fuzz_proof(text, size - 1);
        break;
    case 1:
        fuzz_public(text, size - 1);
        break;
    default:
        fuzz_vk(text, size - 1);
        break;
    }
    free(text);
    return 0;
}
