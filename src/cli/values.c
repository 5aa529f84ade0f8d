/* Option values of the tools' commands: numbers, 32-byte hex values,
 * sector sizes, thread counts, required options (cli.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cuzk/err.h"

int cz_cli_u64(uint64_t *out, const char *s, const char *cmd, const char *flag)
{
    char *end;
    if (s[0] == '-' || s[0] == 0)
        goto bad;
    errno = 0;
    *out = strtoull(s, &end, 0);
    if (*end == 0 && errno == 0)
        return 0;
bad:
    fprintf(stderr, "%s %s: %s: '%s' is not an unsigned 64-bit number\n", cz_cli_prog(), cmd, flag,
            s);
    return -1;
}

int cz_cli_uint(unsigned *out, const char *s, const char *cmd, const char *flag)
{
    uint64_t u;
    if (s == NULL)
        return 0;
    if (cz_cli_u64(&u, s, cmd, flag) != 0)
        return -1;
    if (u > UINT_MAX) {
        fprintf(stderr, "%s %s: %s: %s is above %u\n", cz_cli_prog(), cmd, flag, s, UINT_MAX);
        return -1;
    }
    *out = (unsigned)u;
    return 0;
}

int cz_cli_hex32(uint8_t out[32], const char *s, const char *cmd, const char *flag)
{
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    if (n != 64) {
        fprintf(stderr, "%s %s: %s: want 64 hex digits (32 bytes), got %zu characters\n",
                cz_cli_prog(), cmd, flag, n);
        return -1;
    }
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        for (int j = 0; j < 2; j++) {
            char c = s[2 * i + j];
            unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                         : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                                : 16;
            if (d == 16) {
                fprintf(stderr, "%s %s: %s: '%c' is not a hex digit\n", cz_cli_prog(), cmd, flag,
                        c);
                return -1;
            }
            v = v * 16 + d;
        }
        out[i] = (uint8_t)v;
    }
    return 0;
}

void cz_cli_hex_of(char out[65], const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

const cz_fc_shape *cz_cli_shape(const char *size, const char *cmd)
{
    const cz_fc_shape *s = cz_fc_shape_by_name(size);
    uint64_t bytes;
    if (s == NULL && cz_cli_u64(&bytes, size, cmd, "--sector-size") == 0)
        s = cz_fc_shape_by_size(bytes);
    if (s == NULL)
        fprintf(stderr,
                "%s %s: --sector-size %s: not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB (or their "
                "sizes in bytes)\n",
                cz_cli_prog(), cmd, size);
    return s;
}

int cz_cli_choice(const char *v, const char *const *names, int n, const char *cmd, const char *flag)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(v, names[k]))
            return k;
    fprintf(stderr, "%s %s: %s %s: not", cz_cli_prog(), cmd, flag, v);
    for (int k = 0; k < n; k++)
        fprintf(stderr, "%s %s", k == 0 ? "" : k == n - 1 ? " or" : ",", names[k]);
    fprintf(stderr, "\n");
    return -1;
}

int cz_cli_need(const char *cmd, const char *v, const char *flag)
{
    if (v == NULL)
        fprintf(stderr, "%s %s: %s is required\n", cz_cli_prog(), cmd, flag);
    return v != NULL;
}

int cz_cli_pool(cz_pool **pool, unsigned *threads, const char *opt, const char *cmd)
{
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                            : sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t t = cpus < 1 ? 1 : (uint64_t)cpus;
    if (opt && (cz_cli_u64(&t, opt, cmd, "--threads") != 0 || t < 1 || t > 1024)) {
        fprintf(stderr, "%s %s: --threads must be 1..1024\n", cz_cli_prog(), cmd);
        return -1;
    }
    *threads = (unsigned)t;
    *pool = NULL;
    if (t > 1 && cz_pool_new(pool, (unsigned)t - 1) != CZ_OK) {
        fprintf(stderr, "%s %s: cannot start %u threads\n", cz_cli_prog(), cmd, *threads);
        return -1;
    }
    return 0;
}
