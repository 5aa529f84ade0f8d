/* Decimal numbers, sizes and durations as the configuration and the
 * command lines write them (see cuzk/units.h). */
#include "cuzk/units.h"

#include <string.h>

#include "cuzk/err.h"

/* Digits of s into *v (no sign, no overflow); *end after them. */
static int digits(const char *s, const char **end, uint64_t *v)
{
    uint64_t x = 0;
    const char *q = s;
    for (; *q >= '0' && *q <= '9'; q++) {
        unsigned d = (unsigned)(*q - '0');
        if (x > (UINT64_MAX - d) / 10)
            return CZ_ERR_BAD_FORMAT;
        x = x * 10 + d;
    }
    if (q == s)
        return CZ_ERR_BAD_FORMAT;
    *end = q;
    *v = x;
    return CZ_OK;
}

typedef struct {
    const char *name;
    uint64_t mul;
} unit;

/* Number, optional spaces, then one of units (an exact match) or nothing
 * (multiplier none_mul). */
static int scaled(const char *s, const unit *units, size_t n_units, uint64_t none_mul,
                  uint64_t *out)
{
    uint64_t v;
    const char *q;
    if (s == NULL || digits(s, &q, &v) != CZ_OK)
        return CZ_ERR_BAD_FORMAT;
    const char *digits_end = q;
    while (*q == ' ')
        q++;
    if (*q == 0 && q != digits_end)
        return CZ_ERR_BAD_FORMAT; /* trailing spaces */
    uint64_t mul = none_mul;
    if (*q != 0) {
        size_t i = 0;
        while (i < n_units && strcmp(q, units[i].name) != 0)
            i++;
        if (i == n_units)
            return CZ_ERR_BAD_FORMAT;
        mul = units[i].mul;
    }
    if (v > UINT64_MAX / mul)
        return CZ_ERR_BAD_FORMAT;
    *out = v * mul;
    return CZ_OK;
}

int cz_parse_size(const char *s, uint64_t *out)
{
    static const unit units[] = {
        {"B", 1},
        {"KiB", 1ull << 10},
        {"MiB", 1ull << 20},
        {"GiB", 1ull << 30},
        {"TiB", 1ull << 40},
        {"KB", 1000},
        {"MB", 1000000},
        {"GB", 1000000000},
        {"TB", 1000000000000ull},
    };
    return scaled(s, units, sizeof units / sizeof units[0], 1, out);
}

int cz_parse_duration_ms(const char *s, uint64_t *out)
{
    static const unit units[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
    return scaled(s, units, sizeof units / sizeof units[0], 1000, out);
}

int cz_parse_u64(const char *s, uint64_t *out)
{
    const char *end;
    uint64_t v;
    if (s == NULL || digits(s, &end, &v) != CZ_OK || *end != 0)
        return CZ_ERR_BAD_FORMAT;
    *out = v;
    return CZ_OK;
}
