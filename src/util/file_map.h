/* A file read through a read-only mapping: the file form of a function
 * that reads bytes in memory (the formats' _load and _read_file, from
 * their _load_mem and _read_mem).  Not part of the public API. */
#ifndef CZ_UTIL_FILE_MAP_H
#define CZ_UTIL_FILE_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Reads data[0..len) into out: CZ_OK or a cz_err code, a message in err. */
typedef int cz_file_reader(void *out, const uint8_t *data, size_t len, char *err, size_t errlen);

/* The file at path mapped read-only (an empty file as data NULL, len 0),
 * read by rd into out, and unmapped: what rd returns, or, rd not called,
 * CZ_ERR_INVALID_ARG for a NULL path (no message) and CZ_ERR_IO (the
 * message names the path and errno) when the file cannot be opened, is not
 * a regular file or cannot be mapped. */
int cz_file_read_mapped(const char *path, cz_file_reader *rd, void *out, char *err, size_t errlen);

#endif /* CZ_UTIL_FILE_MAP_H */
