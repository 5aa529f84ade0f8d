/* cz_strerror: the names of cz_err codes; cz_msgf. */
#include <stdarg.h>
#include <stdio.h>

#include "cuzk/err.h"

static const char *const cz_err_names[CZ_ERR__COUNT] = {
    [CZ_OK] = "success",
    [CZ_ERR_INVALID_ARG] = "invalid argument",
    [CZ_ERR_NOMEM] = "out of memory",
    [CZ_ERR_IO] = "I/O error",
    [CZ_ERR_RNG] = "OS random source failed",
    [CZ_ERR_THREAD] = "thread creation failed",
    [CZ_ERR_BAD_LENGTH] = "encoding has the wrong length",
    [CZ_ERR_NOT_CANONICAL] = "field element not canonical (>= modulus)",
    [CZ_ERR_BAD_FLAGS] = "inconsistent point encoding flags",
    [CZ_ERR_BAD_INFINITY] = "infinity flag set with non-zero coordinate bits",
    [CZ_ERR_NOT_ON_CURVE] = "point not on the curve",
    [CZ_ERR_NO_SQRT] = "compressed x has no point on the curve",
    [CZ_ERR_NOT_IN_SUBGROUP] = "point not in the prime-order subgroup",
    [CZ_ERR_IS_INFINITY] = "point at infinity not allowed here",
    [CZ_ERR_BAD_FORMAT] = "malformed file",
    [CZ_ERR_UNSUPPORTED] = "unsupported file version or feature",
    [CZ_ERR_WRONG_CURVE] = "file is for another field or curve",
    [CZ_ERR_TRUNCATED] = "file or section truncated",
    [CZ_ERR_BAD_CHECKSUM] = "checksum mismatch",
    [CZ_ERR_UNSATISFIED] = "constraint not satisfied",
    [CZ_ERR_BAD_PROOF] = "proof does not verify",
    [CZ_ERR_TOO_BIG] = "request can never fit",
    [CZ_ERR_TIMEOUT] = "timed out",
    [CZ_ERR_CANCELLED] = "cancelled",
    [CZ_ERR_BUSY] = "resource busy",
    [CZ_ERR_BUDGET] = "allocation exceeds its reservation",
    [CZ_ERR_NOT_FOUND] = "not found",
    [CZ_ERR_SHUTDOWN] = "shutting down",
    [CZ_ERR_BACKEND] = "back end failure",
    [CZ_ERR_AMBIGUOUS] = "the id names more than one thing",
    [CZ_ERR_LIMIT] = "a limit is reached; retry later",
};

const char *cz_strerror(int err)
{
    if (err < 0 || err >= CZ_ERR__COUNT || cz_err_names[err] == 0)
        return "unknown error";
    return cz_err_names[err];
}

void cz_msgf(char *out, size_t n, const char *fmt, ...)
{
    if (out == NULL || n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

int cz_fail(char *out, size_t n, int rc, const char *fmt, ...)
{
    if (out != NULL && n != 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out, n, fmt, ap);
        va_end(ap);
    }
    return rc;
}
