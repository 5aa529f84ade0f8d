/* libFuzzer harness for the snarkjs .zkey reader (include/cuzk/zkey.h).
 *
 * Every input is parsed as a .zkey image, with the subgroup checks on for
 * inputs whose last byte is even and skipped otherwise.
 * Invariants, abort() when one fails:
 *   - a rejection returns a known file-format code (never INVALID_ARG or IO:
 *     the arguments are valid) with a non-empty message, and leaves the
 *     result zeroed;
 *   - an accepted key has nPublic + 1 <= nVars, domain_size = 2^log, every
 *     coefficient's matrix, constraint and signal in range, and every point
 *     on the curve (and in the subgroup when checked); reading all of them
 *     touches no memory it must not (ASan);
 *   - freeing zeroes the result.
 * Seed corpus: fuzz/corpus/zkey (the fixtures of tests/data/zkey).  Run with
 * scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/zkey.h"
#include "fuzz.h"

static void check_g1s(const cz_g1_affine *p, uint64_t n, bool sub)
{
    for (uint64_t i = 0; i < n; i++)
        CHECK(cz_g1_affine_is_on_curve(&p[i]) && (!sub || cz_g1_affine_in_subgroup(&p[i])));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cz_zkey zero;
    cz_zkey z;
    char err[256] = "";
    bool sub = size == 0 || (data[size - 1] & 1) == 0;
    int rc = cz_zkey_load_mem(&z, data, size, sub ? CZ_ZKEY_DEFAULT : CZ_ZKEY_SKIP_SUBGROUP, err,
                              sizeof err);
    if (rc != CZ_OK) {
        CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_UNSUPPORTED || rc == CZ_ERR_WRONG_CURVE ||
              rc == CZ_ERR_TRUNCATED || rc == CZ_ERR_NOT_CANONICAL || rc == CZ_ERR_NOT_ON_CURVE ||
              rc == CZ_ERR_NOT_IN_SUBGROUP || rc == CZ_ERR_NOMEM);
        CHECK(err[0] != 0);
        CHECK(memcmp(&z, &zero, sizeof z) == 0);
        return 0;
    }
    CHECK((uint64_t)z.n_public + 1 <= z.n_vars);
    CHECK(z.log_domain_size < 32 && z.domain_size == 1u << z.log_domain_size);
    for (uint32_t i = 0; i < z.n_coefs; i++)
        CHECK(z.coefs[i].matrix <= 1 && z.coefs[i].constraint < z.domain_size &&
              z.coefs[i].signal < z.n_vars);
    check_g1s(&z.alpha1, 1, sub);
    check_g1s(&z.beta1, 1, sub);
    check_g1s(&z.delta1, 1, sub);
    check_g1s(z.ic, (uint64_t)z.n_public + 1, sub);
    check_g1s(z.a, z.n_vars, sub);
    check_g1s(z.b1, z.n_vars, sub);
    check_g1s(z.c, (uint64_t)z.n_vars - z.n_public - 1, sub);
    check_g1s(z.h, z.domain_size, sub);
    for (uint32_t i = 0; i < z.n_vars; i++)
        CHECK(cz_g2_affine_is_on_curve(&z.b2[i]) && (!sub || cz_g2_affine_in_subgroup(&z.b2[i])));
    CHECK(cz_g2_affine_is_on_curve(&z.beta2) && cz_g2_affine_is_on_curve(&z.gamma2) &&
          cz_g2_affine_is_on_curve(&z.delta2));
    cz_zkey_free(&z);
    CHECK(memcmp(&z, &zero, sizeof z) == 0);
    return 0;
}
