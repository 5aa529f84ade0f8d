/* Option tables of the cuzk-bench commands (see bench.h). */
#include <stdio.h>
#include <string.h>

#include "bench.h"

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
