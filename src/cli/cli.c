/* The command table's dispatch and help, and the option parser (cli.h). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli/cli.h"

static const char *prog = "cuzk";

const char *cz_cli_prog(void) { return prog; }

double cz_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cz_cli_peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static bool is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

void cz_cli_usage(FILE *f, const cz_cli_cmd *c)
{
    fprintf(f, "usage: %s %s %s", prog, c->name, c->usage ? c->usage : "[options]\n");
}

/* The number of words of name that argv[0..argc-1] begin with, all of
 * them; 0 when they do not. */
static int matches(const char *name, int argc, char **argv)
{
    int k = 0;
    for (const char *w = name; *w; k++) {
        size_t n = strcspn(w, " ");
        if (k == argc || strlen(argv[k]) != n || strncmp(argv[k], w, n) != 0)
            return 0;
        w += n + (w[n] == ' ');
    }
    return k;
}

/* The commands whose name begins with group and a space (group NULL:
 * every command), a summary each. */
static void list(FILE *f, const cz_cli_tool *t, const char *group)
{
    size_t g = group ? strlen(group) : 0, width = 0;
    for (size_t i = 0; i < t->n_cmds; i++)
        if (width < strlen(t->cmds[i].name))
            width = strlen(t->cmds[i].name);
    for (size_t i = 0; i < t->n_cmds; i++) {
        const char *n = t->cmds[i].name;
        if (group && (strncmp(n, group, g) != 0 || n[g] != ' '))
            continue;
        fprintf(f, "  %-*s  %s\n", (int)width, n, t->cmds[i].summary);
    }
}

static void tool_usage(FILE *f, const cz_cli_tool *t)
{
    fprintf(f,
            "usage: %s <command> [options]   (%s <command> --help: its options)\n%s\ncommands:\n",
            prog, prog, t->about);
    list(f, t, NULL);
    if (t->n_moved)
        fprintf(f, "moved to the operator's tool (docs/cli.md):\n");
    for (size_t i = 0; i < t->n_moved; i++)
        fprintf(f, "  %-14s  %s\n", t->moved[i].old, t->moved[i].now);
}

static bool is_group(const cz_cli_tool *t, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < t->n_cmds; i++)
        if (!strncmp(t->cmds[i].name, w, n) && t->cmds[i].name[n] == ' ')
            return true;
    return false;
}

int cz_cli_main(const cz_cli_tool *t, int argc, char **argv)
{
    prog = t->prog;
    if (argc < 2) {
        tool_usage(stderr, t);
        return 2;
    }
    if (is_help(argv[1])) {
        tool_usage(stdout, t);
        return 0;
    }
    const cz_cli_cmd *c = NULL;
    int k = 0;
    for (size_t i = 0; i < t->n_cmds; i++) {
        int m = matches(t->cmds[i].name, argc - 1, argv + 1);
        if (m > k)
            c = &t->cmds[i], k = m;
    }
    if (c) {
        /* --help anywhere after the name; a command without usage answers
         * it itself */
        for (int i = k + 1; c->usage && i < argc; i++)
            if (is_help(argv[i])) {
                cz_cli_usage(stdout, c);
                return 0;
            }
        return c->run(c, argc - k, argv + k);
    }
    for (size_t i = 0; i < t->n_moved; i++)
        if (!strcmp(argv[1], t->moved[i].old)) {
            fprintf(stderr, "%s %s: moved to the operator's tool: %s (docs/cli.md)\n", prog,
                    argv[1], t->moved[i].now);
            return 2;
        }
    if (is_group(t, argv[1])) {
        bool help = argc > 2 && is_help(argv[2]);
        if (argc > 2 && !help)
            fprintf(stderr, "%s %s: unknown command '%s'\n", prog, argv[1], argv[2]);
        FILE *f = help ? stdout : stderr;
        fprintf(f, "usage: %s %s <command> [options]   (%s %s <command> --help: its options)\n",
                prog, argv[1], prog, argv[1]);
        list(f, t, argv[1]);
        return help ? 0 : 2;
    }
    fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
    tool_usage(stderr, t);
    return 2;
}

/* The value v of flag f into dst: 0, or -1 after a message. */
static int store(const cz_cli_cmd *c, const cz_cli_flag *f, const char *v, void *dst)
{
    switch (f->kind) {
    case CZ_CLI_STR:
        *(const char **)dst = v;
        return 0;
    case CZ_CLI_SWITCH:
        *(int *)dst = 1;
        return 0;
    case CZ_CLI_UINT:
        return cz_cli_uint((unsigned *)dst, v, c->name, f->flag);
    case CZ_CLI_U64:
        return cz_cli_u64((uint64_t *)dst, v, c->name, f->flag);
    case CZ_CLI_DOUBLE: {
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end != 0 || !isfinite(d)) {
            fprintf(stderr, "%s %s: %s: '%s' is not a number\n", prog, c->name, f->flag, v);
            return -1;
        }
        *(double *)dst = d;
        return 0;
    }
    }
    return -1;
}

/* 1 when text names flag: the flag not inside a longer word. */
static int names(const char *text, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *at = strstr(text, flag); at; at = strstr(at + 1, flag)) {
        char before = at == text ? ' ' : at[-1], next = at[n];
        if (!isalnum((unsigned char)before) && before != '-' && !isalnum((unsigned char)next) &&
            next != '-')
            return 1;
    }
    return 0;
}

int cz_cli_parse(const cz_cli_cmd *c, int argc, char **argv, cz_cli_opts *o)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            if ((unsigned)n == c->max_args) {
                fprintf(stderr, "%s %s: unexpected argument '%s'\n", prog, c->name, a);
                cz_cli_usage(stderr, c);
                return -1;
            }
            argv[1 + n++] = argv[i];
            continue;
        }
        const cz_cli_flag *f = c->usage && names(c->usage, a) ? cz_cli_flag_find(a) : NULL;
        if (f == NULL || (f->kind != CZ_CLI_SWITCH && i + 1 == argc)) {
            fprintf(stderr, "%s %s: unknown or incomplete option '%s'\n", prog, c->name, a);
            cz_cli_usage(stderr, c);
            return -1;
        }
        if (store(c, f, f->kind == CZ_CLI_SWITCH ? NULL : argv[++i], (char *)o + f->off) != 0)
            return -1;
    }
    return n;
}
