/* cuzk: proving keys whose points passed their subgroup checks, remembered
 * by digest, so that a key file checked once is trusted afterwards (the
 * .zkey and .params readers: cz_zkey_load_with, cz_params_read_opts.check;
 * the CLI and the daemon keep one store each).
 *
 * A key is named by the BLAKE2b-512 of its whole file and the file's
 * length: any change to the file is another key, checked again.  The
 * store is a text file:
 *   cuzk checked-keys 1\n                    (first line)
 *   <128 lowercase hex digits> <length>\n    (one line per key, length in
 *                                             decimal, no leading zeros)
 * A missing file is an empty store; it is created (mode 0600, its folder
 * 0700 when missing) by the first add, and every add appends one whole
 * line in one write with O_APPEND, so processes sharing a store add keys
 * side by side.  Anything else in the file is refused with the line named.
 *
 * Trust: whoever can write the store can make a key skip its checks (the
 * points are still checked to be on the curve, and every proof made with
 * the key is verified).  Keep it where only the proving user writes; the
 * default (cz_checked_keys_default_path) is under the user's cache. */
#ifndef CUZK_CHECKED_KEYS_H
#define CUZK_CHECKED_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t b2[64]; /* BLAKE2b-512 of the file */
    uint64_t len;   /* the file's bytes */
} cz_key_digest;

typedef struct cz_checked_keys cz_checked_keys;

/* Opens the store at path (its keys read now).  CZ_OK, CZ_ERR_INVALID_ARG
 * (NULL), CZ_ERR_IO (unreadable; a missing file is an empty store),
 * CZ_ERR_TOO_BIG (over 64 MiB), CZ_ERR_BAD_FORMAT (a line that is not the
 * format's: err names it), CZ_ERR_NOMEM. */
int cz_checked_keys_open(cz_checked_keys **out, const char *path, char *err, size_t errlen);
/* The same over a store's bytes (data, len), not tied to a file: adds stay
 * in memory.  For tests and fuzzing. */
int cz_checked_keys_parse(cz_checked_keys **out, const uint8_t *data, size_t len, char *err,
                          size_t errlen);
/* d is in the store.  Thread-safe with cz_checked_keys_add. */
bool cz_checked_keys_has(const cz_checked_keys *k, const cz_key_digest *d);
/* Adds d (a no-op when present) and appends its line to the file.  CZ_OK,
 * CZ_ERR_IO (the file or its folder cannot be written: err says which),
 * CZ_ERR_NOMEM. */
int cz_checked_keys_add(cz_checked_keys *k, const cz_key_digest *d, char *err, size_t errlen);
/* Keys held now. */
size_t cz_checked_keys_count(const cz_checked_keys *k);
/* The file (NULL for a parsed store). */
const char *cz_checked_keys_path(const cz_checked_keys *k);
void cz_checked_keys_free(cz_checked_keys *k);

/* The default store's path in out (n bytes): $CUZK_CHECKED_KEYS, else
 * $XDG_CACHE_HOME/cuzk/checked-keys, else $HOME/.cache/cuzk/checked-keys.
 * False when none of them is set (or the path does not fit). */
bool cz_checked_keys_default_path(char *out, size_t n);

/* A key load's use of a store (in: store; out: the rest). */
typedef struct {
    const cz_checked_keys *store; /* NULL: the checks run every time */
    cz_key_digest digest;         /* the file's, once loaded */
    bool known;                   /* digest was in store: the subgroup checks were skipped */
    bool checked;                 /* the subgroup checks ran and passed: add digest */
} cz_key_check;

#ifdef __cplusplus
}
#endif

#endif
