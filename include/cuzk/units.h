/* cuzk: numbers, sizes and durations written by people (configuration
 * files, command lines). */
#ifndef CUZK_UNITS_H
#define CUZK_UNITS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parses decimal digits only (no sign, space or unit): the whole string.
 * CZ_OK or CZ_ERR_BAD_FORMAT (also above 2^64-1); *out is set only on
 * success. */
int cz_parse_u64(const char *s, uint64_t *out);

/* Parses a size: decimal digits, optional spaces, an optional unit B, KiB,
 * MiB, GiB, TiB (powers of 1024) or KB, MB, GB, TB (powers of 1000); no
 * unit means bytes.  "256GiB", "5 GiB", "626MiB", "4096".  Returns CZ_OK or
 * CZ_ERR_BAD_FORMAT (empty, unknown unit, fraction, sign, above 2^64-1);
 * *out is set only on success.  ("auto" for memory.total_budget is the
 * caller's.) */
int cz_parse_size(const char *s, uint64_t *out);

/* Parses a duration as cuzk does: digits with an optional unit "ms", "s",
 * "m" or "h" (spaces allowed before it); no unit means seconds.  "5m",
 * "300s", "60", "1500ms".  Returns CZ_OK or CZ_ERR_BAD_FORMAT (also when the
 * result does not fit in 64 bits of milliseconds). */
int cz_parse_duration_ms(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_UNITS_H */
