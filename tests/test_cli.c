/* The command line of cuzk and cuzk-bench (src/cli): the option parser on
 * every kind of flag, in shuffled orders, and its refusals; dispatch by the
 * command table (words, groups, moved commands, --help); and the two
 * tools' tables as they are: names unique and well formed, every moved
 * command's new spelling one of cuzk's commands, every option a usage
 * names in the flag table and every row of the table named by a usage. */
#include <stdbool.h>
#include <string.h>

#include "bench.h"
#include "tf.h"

static int ran;
static int run_stub(const cz_cli_cmd *self, int argc, char **argv)
{
    ran++;
    return argc * 10 + (int)strlen(argv[0]);
}

/* Commands that take options of every kind from the tools' flag table:
 * those their usage names. */
static const cz_cli_cmd CMD_ONE = {
    "x one", "first", "[--out S] [--gpu] [--log N] [--n N] [--time X] [A B]\n", run_stub, 2};
static const cz_cli_cmd CMD_TWO = {"x two", "second", "[--out S] [--dir D] [--gpu]\n", run_stub, 0};
static const cz_cli_cmd CMD_X = {"x", "third", "[--gpu]\n", run_stub, 0};

/* argv from a NULL-terminated list (argv[0] "cmd"), into a fixed array */
static int args(char **argv, const char *const *list)
{
    int n = 0;
    argv[n++] = "cmd";
    while (list[n - 1])
        argv[n] = (char *)list[n - 1], n++;
    return n;
}

static void test_parse_kinds(void)
{
    char *argv[32];
    cz_cli_opts o = {.dir = "keep", .window = 7};
    int argc = args(argv, (const char *const[]){"--out", "v", "--gpu", "--log", "0x10", "--n",
                                                "18446744073709551615", "--time", "-2.5", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 0);
    TF_CHECK(o.out && !strcmp(o.out, "v"));
    TF_CHECK(!strcmp(o.dir, "keep") && o.window == 7); /* not given: untouched */
    TF_CHECK(o.gpu == 1 && o.log == 16 && o.n == UINT64_MAX && o.time == -2.5);
    /* a value may begin with '-' (it is taken whole) */
    argc = args(argv, (const char *const[]){"--out", "--gpu", NULL});
    o = (cz_cli_opts){0};
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 0 && !strcmp(o.out, "--gpu") && o.gpu == 0);
}

static void test_parse_positional(void)
{
    char *argv[32];
    cz_cli_opts o = {0};
    int argc = args(argv, (const char *const[]){"a", "--gpu", "b", "--out", "v", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 2);
    TF_CHECK(!strcmp(argv[1], "a") && !strcmp(argv[2], "b") && o.gpu && !strcmp(o.out, "v"));
    argc = args(argv, (const char *const[]){"a", "b", "c", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == -1); /* at most 2 */
    argc = args(argv, (const char *const[]){"a", NULL});
    TF_CHECK(cz_cli_parse(&CMD_TWO, argc, argv, &o) == -1); /* none */
}

static void test_parse_refusals(void)
{
    static const char *const bad[][4] = {
        {"--nope", NULL},                      /* in no usage, not in the table */
        {"--out", NULL},                       /* no value */
        {"--dir", "v", NULL},                  /* in the table, not in this usage */
        {"--log", "abc", NULL},                /* not a number */
        {"--log", "-1", NULL},                 /* negative */
        {"--log", "4294967296", NULL},         /* above 2^32 - 1 */
        {"--n", "18446744073709551616", NULL}, /* above 2^64 - 1 */
        {"--time", "1e999", NULL},             /* not finite */
        {"--time", "2x", NULL},
        {"-gpu", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[8];
        cz_cli_opts o = {0};
        int argc = args(argv, bad[i]);
        TF_CHECK_MSG(cz_cli_parse(&CMD_ONE, argc, argv, &o) == -1, "accepted %s %s", bad[i][0],
                     bad[i][1] ? bad[i][1] : "");
    }
}

/* The same options in any order give the same struct. */
static void test_parse_shuffled(void)
{
    const char *pairs[][2] = {{"--out", "str"},       {"--gpu", NULL},    {"--log", "123"},
                              {"--n", "0x123456789"}, {"--time", "0.25"}, {"A", NULL}};
    size_t n = sizeof pairs / sizeof pairs[0];
    for (int rep = 0; rep < 50 * (int)tf_scale; rep++) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(cz_prng_next(&tf_rng) % (i + 1));
            const char *a = pairs[i][0], *b = pairs[i][1];
            pairs[i][0] = pairs[j][0], pairs[i][1] = pairs[j][1];
            pairs[j][0] = a, pairs[j][1] = b;
        }
        char *argv[16];
        int argc = 0;
        argv[argc++] = "cmd";
        for (size_t i = 0; i < n; i++) {
            argv[argc++] = (char *)pairs[i][0];
            if (pairs[i][1])
                argv[argc++] = (char *)pairs[i][1];
        }
        cz_cli_opts o = {0};
        TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 1);
        TF_CHECK(!strcmp(argv[1], "A") && !strcmp(o.out, "str") && o.gpu && o.log == 123 &&
                 o.n == 0x123456789 && o.time == 0.25);
    }
}

static void test_dispatch(void)
{
    const cz_cli_cmd cmds[] = {CMD_X, CMD_ONE, CMD_TWO};
    static const cz_cli_moved moved[] = {{"old", "x one"}};
    const cz_cli_tool t = {"prog", "about", cmds, 3, moved, 1};
    char *argv[8];
    ran = 0;
    /* the longest run of words: "x one" over "x"; argv[0] its last word */
    int argc = args(argv, (const char *const[]){"x", "one", "a", NULL});
    argv[0] = "prog";
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2 * 10 + 3 && ran == 1);
    argc = args(argv, (const char *const[]){"x", "--gpu", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2 * 10 + 1 && ran == 2);
    TF_CHECK(!strcmp(cz_cli_prog(), "prog"));
    /* --help anywhere after the name: the usage, not the command */
    argc = args(argv, (const char *const[]){"x", "two", "--out", "v", "--help", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 0 && ran == 2);
    /* the tool's usage; a moved command; unknown ones */
    argc = args(argv, (const char *const[]){"-h", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 0);
    argc = args(argv, (const char *const[]){NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2);
    argc = args(argv, (const char *const[]){"old", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2);
    argc = args(argv, (const char *const[]){"onex", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2 && ran == 2);
    cz_cli_main(&cz_tool, 1, argv); /* back to cuzk's name for the rest */
}

/* The first option named in text at or after *at (a '-' not inside a word,
 * then lower-case letters, digits and '-'), copied into flag; 0 at the end. */
static int next_flag(const char **at, char flag[64])
{
    for (const char *p = *at; *p; p++) {
        bool start =
            p[0] == '-' && (p[1] == '-' || (p[1] >= 'a' && p[1] <= 'z')) &&
            (p == *at || !(p[-1] == '-' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                           (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')));
        if (!start)
            continue;
        size_t n = 0;
        while (n < 63 &&
               (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9')))
            flag[n] = p[n], n++;
        flag[n] = 0;
        *at = p + n;
        return 1;
    }
    return 0;
}

static bool named[256]; /* the flag table's rows some usage names */

static void check_table(const cz_cli_tool *t)
{
    TF_CHECK(t->n_cmds > 0 && t->about && t->about[0]);
    for (size_t i = 0; i < t->n_cmds; i++) {
        const cz_cli_cmd *c = &t->cmds[i];
        TF_CHECK_MSG(c->name[0] && c->summary[0] && !strchr(c->summary, '\n') && c->run,
                     "%s %s: name, one-line summary and run", t->prog, c->name);
        for (const char *p = c->name; *p; p++)
            TF_CHECK_MSG((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
                             (*p == ' ' && p[1] && p[1] != ' '),
                         "%s '%s': lower-case words", t->prog, c->name);
        for (size_t j = 0; j < t->n_cmds; j++) {
            const char *o = t->cmds[j].name;
            size_t n = strlen(c->name);
            /* unique, and no command is also a group ("porep" and "porep seal") */
            TF_CHECK_MSG(i == j ||
                             (strcmp(o, c->name) && !(!strncmp(o, c->name, n) && o[n] == ' ')),
                         "%s: '%s' and '%s'", t->prog, c->name, o);
        }
        for (size_t k = 0; k < t->n_moved; k++)
            TF_CHECK_MSG(strcmp(t->moved[k].old, c->name), "%s %s: moved and here", t->prog,
                         c->name);
        if (c->usage == NULL) /* bench/engine.c, which answers --help itself */
            continue;
        size_t len = strlen(c->usage);
        TF_CHECK_MSG(len > 0 && c->usage[len - 1] == '\n', "%s %s: usage lines", t->prog, c->name);
        /* every option the usage names is one the parser knows */
        char flag[64];
        for (const char *at = c->usage; next_flag(&at, flag);) {
            const cz_cli_flag *f = cz_cli_flag_find(flag);
            TF_CHECK_MSG(f != NULL, "%s %s: its usage names %s, which is in no flag table row",
                         t->prog, c->name, flag);
            if (f)
                named[f - cz_cli_flags] = true;
        }
    }
}

static void test_tables(void)
{
    TF_CHECK(cz_cli_n_flags <= sizeof named / sizeof named[0]);
    check_table(&cz_tool);
    check_table(&cz_bench);
    /* the flag table: every row named by a usage, flags and members apart */
    for (size_t i = 0; i < cz_cli_n_flags; i++) {
        TF_CHECK_MSG(named[i], "%s: in the flag table, in no command's usage",
                     cz_cli_flags[i].flag);
        for (size_t j = 0; j < i; j++)
            TF_CHECK_MSG(strcmp(cz_cli_flags[i].flag, cz_cli_flags[j].flag) &&
                             cz_cli_flags[i].off != cz_cli_flags[j].off,
                         "%s and %s: one flag or one member", cz_cli_flags[i].flag,
                         cz_cli_flags[j].flag);
    }
    /* every moved command's new spelling is one of cuzk's */
    for (size_t k = 0; k < cz_bench.n_moved; k++) {
        const char *now = cz_bench.moved[k].now;
        bool found = false;
        for (size_t i = 0; i < cz_tool.n_cmds && !found; i++)
            found = !strncmp(now, "cuzk ", 5) && !strcmp(now + 5, cz_tool.cmds[i].name);
        TF_CHECK_MSG(found, "cuzk-bench %s moved to '%s', not a cuzk command",
                     cz_bench.moved[k].old, now);
    }
}

TF_MAIN(TF_TEST(test_parse_kinds), TF_TEST(test_parse_positional), TF_TEST(test_parse_refusals),
        TF_TEST(test_parse_shuffled), TF_TEST(test_dispatch), TF_TEST(test_tables))
