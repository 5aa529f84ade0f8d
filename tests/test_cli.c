/* The command line of cuzk and cuzk-bench (src/cli): the option parser on
 * every kind of flag, in shuffled orders, and its refusals; dispatch by the
 * command table (words, groups, moved commands, --help); and the two
 * tools' tables as they are: names unique and well formed, every option a
 * command takes named in its usage, every moved command's new spelling one
 * of cuzk's commands. */
#include <stdbool.h>
#include <string.h>

#include "bench.h"
#include "tf.h"

typedef struct {
    const char *s, *t;
    int sw;
    unsigned u;
    uint64_t big;
    double d;
} opts;

enum { ONE = 1, TWO = 2 };

static const cz_cli_flag FLAGS[] = {
    {"--s", CZ_CLI_STR, offsetof(opts, s), 0},      {"--t", CZ_CLI_STR, offsetof(opts, t), TWO},
    {"--sw", CZ_CLI_SWITCH, offsetof(opts, sw), 0}, {"-u", CZ_CLI_UINT, offsetof(opts, u), ONE},
    {"--big", CZ_CLI_U64, offsetof(opts, big), 0},  {"--d", CZ_CLI_DOUBLE, offsetof(opts, d), 0},
};

static int ran;
static int run_stub(const cz_cli_cmd *self, int argc, char **argv)
{
    ran++;
    return argc * 10 + (int)strlen(argv[0]);
}

static const cz_cli_cmd CMD_ONE = {
    .name = "x one",
    .summary = "first",
    .usage = "[--s S] [--sw] [-u N] [--big N] [--d X] [A B]\n",
    .run = run_stub,
    CZ_CLI_FLAGS(FLAGS),
    .bit = ONE,
    .max_args = 2,
};
static const cz_cli_cmd CMD_TWO = {
    .name = "x two",
    .summary = "second",
    .usage = "[--s S] [--t T] [--sw] [--big N] [--d X]\n",
    .run = run_stub,
    CZ_CLI_FLAGS(FLAGS),
    .bit = TWO,
};
static const cz_cli_cmd CMD_X = {
    .name = "x",
    .summary = "third",
    .usage = "[--sw]\n",
    .run = run_stub,
    CZ_CLI_FLAGS(FLAGS),
    .bit = TWO,
};

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
    opts o = {.t = "keep", .u = 7};
    int argc = args(argv, (const char *const[]){"--s", "v", "--sw", "-u", "0x10", "--big",
                                                "18446744073709551615", "--d", "-2.5", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 0);
    TF_CHECK(o.s && !strcmp(o.s, "v"));
    TF_CHECK(!strcmp(o.t, "keep")); /* not given: untouched */
    TF_CHECK(o.sw == 1 && o.u == 16 && o.big == UINT64_MAX && o.d == -2.5);
    /* a value may begin with '-' (it is taken whole) */
    argc = args(argv, (const char *const[]){"--s", "--sw", NULL});
    o = (opts){0};
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 0 && !strcmp(o.s, "--sw") && o.sw == 0);
}

static void test_parse_positional(void)
{
    char *argv[32];
    opts o = {0};
    int argc = args(argv, (const char *const[]){"a", "--sw", "b", "--s", "v", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 2);
    TF_CHECK(!strcmp(argv[1], "a") && !strcmp(argv[2], "b") && o.sw && !strcmp(o.s, "v"));
    argc = args(argv, (const char *const[]){"a", "b", "c", NULL});
    TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == -1); /* at most 2 */
    argc = args(argv, (const char *const[]){"a", NULL});
    TF_CHECK(cz_cli_parse(&CMD_TWO, argc, argv, &o) == -1); /* none */
}

static void test_parse_refusals(void)
{
    static const char *const bad[][4] = {
        {"--nope", NULL},           /* unknown */
        {"--s", NULL},              /* no value */
        {"--t", "v", NULL},         /* another command's (mask) */
        {"-u", "abc", NULL},        /* not a number */
        {"-u", "-1", NULL},         /* negative */
        {"-u", "4294967296", NULL}, /* above 2^32 - 1 */
        {"--big", "18446744073709551616", NULL},
        {"--d", "1e999", NULL}, /* not finite */
        {"--d", "2x", NULL},
        {"-sw", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[8];
        opts o = {0};
        int argc = args(argv, bad[i]);
        TF_CHECK_MSG(cz_cli_parse(&CMD_ONE, argc, argv, &o) == -1, "accepted %s %s", bad[i][0],
                     bad[i][1] ? bad[i][1] : "");
    }
}

/* The same options in any order give the same struct. */
static void test_parse_shuffled(void)
{
    const char *pairs[][2] = {{"--s", "str"},           {"--sw", NULL},  {"-u", "123"},
                              {"--big", "0x123456789"}, {"--d", "0.25"}, {"A", NULL}};
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
        opts o = {0};
        TF_CHECK(cz_cli_parse(&CMD_ONE, argc, argv, &o) == 1);
        TF_CHECK(!strcmp(argv[1], "A") && !strcmp(o.s, "str") && o.sw && o.u == 123 &&
                 o.big == 0x123456789 && o.d == 0.25);
    }
}

static void test_dispatch(void)
{
    static const cz_cli_cmd *const cmds[] = {&CMD_X, &CMD_ONE, &CMD_TWO};
    static const cz_cli_moved moved[] = {{"old", "x one"}};
    const cz_cli_tool t = {"prog", "about", cmds, 3, moved, 1};
    char *argv[8];
    ran = 0;
    /* the longest run of words: "x one" over "x"; argv[0] its last word */
    int argc = args(argv, (const char *const[]){"x", "one", "a", NULL});
    argv[0] = "prog";
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2 * 10 + 3 && ran == 1);
    argc = args(argv, (const char *const[]){"x", "--sw", NULL});
    TF_CHECK(cz_cli_main(&t, argc, argv) == 2 * 10 + 1 && ran == 2);
    TF_CHECK(!strcmp(cz_cli_prog(), "prog"));
    /* --help anywhere after the name: the usage, not the command */
    argc = args(argv, (const char *const[]){"x", "two", "--s", "v", "--help", NULL});
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

/* flag as a word of text: not followed by a letter, digit or '-' */
static bool names(const char *text, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *at = strstr(text, flag); at; at = strstr(at + 1, flag)) {
        char next = at[n];
        bool before = at == text || !(at[-1] == '-' || (at[-1] >= 'a' && at[-1] <= 'z'));
        if (before &&
            !(next == '-' || (next >= 'a' && next <= 'z') || (next >= '0' && next <= '9')))
            return true;
    }
    return false;
}

static void check_table(const cz_cli_tool *t)
{
    TF_CHECK(t->n_cmds > 0 && t->about && t->about[0]);
    for (size_t i = 0; i < t->n_cmds; i++) {
        const cz_cli_cmd *c = t->cmds[i];
        TF_CHECK_MSG(c->name[0] && c->summary[0] && !strchr(c->summary, '\n') && c->run,
                     "%s %s: name, one-line summary and run", t->prog, c->name);
        for (const char *p = c->name; *p; p++)
            TF_CHECK_MSG((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
                             (*p == ' ' && p[1] && p[1] != ' '),
                         "%s '%s': lower-case words", t->prog, c->name);
        for (size_t j = 0; j < t->n_cmds; j++) {
            const char *o = t->cmds[j]->name;
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
        for (size_t k = 0; k < c->n_flags; k++) {
            const cz_cli_flag *f = &c->flags[k];
            if (f->cmds && !(f->cmds & c->bit))
                continue;
            TF_CHECK_MSG(names(c->usage, f->flag), "%s %s: %s is not in its usage", t->prog,
                         c->name, f->flag);
            for (size_t m = 0; m < k; m++)
                TF_CHECK_MSG(strcmp(c->flags[m].flag, f->flag) ||
                                 (c->flags[m].cmds && !(c->flags[m].cmds & c->bit)),
                             "%s %s: %s twice", t->prog, c->name, f->flag);
        }
    }
}

static void test_tables(void)
{
    check_table(&cz_tool);
    check_table(&cz_bench);
    /* every moved command's new spelling is one of cuzk's */
    for (size_t k = 0; k < cz_bench.n_moved; k++) {
        const char *now = cz_bench.moved[k].now;
        bool found = false;
        for (size_t i = 0; i < cz_tool.n_cmds && !found; i++)
            found = !strncmp(now, "cuzk ", 5) && !strcmp(now + 5, cz_tool.cmds[i]->name);
        TF_CHECK_MSG(found, "cuzk-bench %s moved to '%s', not a cuzk command",
                     cz_bench.moved[k].old, now);
    }
}

TF_MAIN(TF_TEST(test_parse_kinds), TF_TEST(test_parse_positional), TF_TEST(test_parse_refusals),
        TF_TEST(test_parse_shuffled), TF_TEST(test_dispatch), TF_TEST(test_tables))
