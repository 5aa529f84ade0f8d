/* cuzk: one error enum for the whole library.
 *
 * Every function that can fail on bad input returns an int that is CZ_OK (0)
 * or one of these codes; cz_strerror() names it.  Bad input never aborts. */
#ifndef CUZK_ERR_H
#define CUZK_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CZ_OK = 0,
    CZ_ERR_INVALID_ARG,    /* a NULL pointer, a size out of range, ... */
    CZ_ERR_NOMEM,          /* an allocation failed */
    CZ_ERR_IO,             /* a read, write, open or mmap failed */
    CZ_ERR_RNG,            /* the OS random source failed */
    CZ_ERR_THREAD,         /* a thread could not be created */
    CZ_ERR_BAD_LENGTH,     /* an encoding has the wrong number of bytes */
    CZ_ERR_NOT_CANONICAL,  /* a field element encoding is >= the modulus */
    CZ_ERR_BAD_FLAGS,      /* compression / infinity / sign flags inconsistent */
    CZ_ERR_BAD_INFINITY,   /* infinity flag set but other bits not zero */
    CZ_ERR_NOT_ON_CURVE,   /* the coordinates do not satisfy the curve equation */
    CZ_ERR_NO_SQRT,        /* compressed x has no matching y on the curve */
    CZ_ERR_NOT_IN_SUBGROUP,/* on the curve but not in the prime-order subgroup */
    CZ_ERR_IS_INFINITY,    /* the point at infinity where it is not allowed */
    CZ_ERR_BAD_FORMAT,     /* a file's structure is malformed (magic, sections, counts) */
    CZ_ERR_UNSUPPORTED,    /* a well-formed file version or feature we do not handle */
    CZ_ERR_WRONG_CURVE,    /* a file is for another field or curve */
    CZ_ERR_TRUNCATED,      /* a file or section ends before its declared contents */
    CZ_ERR_BAD_CHECKSUM,   /* a file's checksum does not match its contents */
    CZ_ERR_UNSATISFIED,    /* an assignment does not satisfy a constraint system */
    CZ_ERR_BAD_PROOF,      /* a proof does not verify */
    CZ_ERR_TOO_BIG,        /* a request exceeds a limit it can never fit in */
    CZ_ERR_TIMEOUT,        /* a wait ran past its time limit */
    CZ_ERR_CANCELLED,      /* the operation was cancelled */
    CZ_ERR_BUSY,           /* a resource is in use or not available now */
    CZ_ERR_BUDGET,         /* an allocation exceeds its memory reservation */
    CZ_ERR_NOT_FOUND,      /* no such job, circuit or parameter set */
    CZ_ERR_SHUTDOWN,       /* the engine is shutting down */
    CZ_ERR_BACKEND,        /* a proving back end failed */
    CZ_ERR_AMBIGUOUS,      /* an id names more than one thing */
    CZ_ERR_LIMIT,          /* a limit on work or memory in flight is reached now */
    CZ_ERR__COUNT
} cz_err;

/* Returns a static, human-readable description of err (never NULL; unknown
 * codes give "unknown error"). */
const char *cz_strerror(int err);

/* Formats a message into out (n bytes, always NUL-terminated when n > 0;
 * nothing happens when out is NULL or n is 0): the one helper behind every
 * "err, errlen" pair of the API. */
void cz_msgf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* cz_msgf, then returns rc: "return cz_fail(err, errlen, CZ_ERR_..., ...)". */
int cz_fail(char *out, size_t n, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif
#endif /* CUZK_ERR_H */
