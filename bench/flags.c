/* Option tables of the cuzk-bench commands and their thread pools (see
 * bench.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/err.h"

int cz_bench_pool(cz_pool **pool, unsigned *threads, const char *opt, const char *cmd)
{
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                            : sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t t = cpus < 1 ? 1 : (uint64_t)cpus;
    if (opt && (cz_bench_u64(&t, opt, cmd, "--threads") != 0 || t < 1 || t > 1024)) {
        fprintf(stderr, "cuzk-bench %s: --threads must be 1..1024\n", cmd);
        return -1;
    }
    *threads = (unsigned)t;
    *pool = NULL;
    if (t > 1 && cz_pool_new(pool, (unsigned)t - 1) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: cannot start %u threads\n", cmd, *threads);
        return -1;
    }
    return 0;
}

int cz_bench_take_flag(int argc, char **argv, int *i, const cz_bench_flag *F, size_t n,
                       unsigned cmd, void *o, const char *usage)
{
    size_t k = 0;
    while (k < n && (strcmp(argv[*i], F[k].flag) != 0 || (F[k].cmds && !(F[k].cmds & cmd))))
        k++;
    if (k == n || *i + 1 >= argc) {
        fprintf(stderr, "cuzk-bench %s: unknown or incomplete option '%s'\n%s", argv[0], argv[*i],
                usage ? usage : "");
        return -1;
    }
    *(const char **)((char *)o + F[k].off) = argv[++*i];
    return 0;
}

int cz_bench_need(const char *cmd, const char *v, const char *flag)
{
    if (v == NULL)
        fprintf(stderr, "cuzk-bench %s: %s is required\n", cmd, flag);
    return v != NULL;
}
