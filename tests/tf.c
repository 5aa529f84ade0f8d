#include "tf.h"

#include "cuzk/cuda.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

cz_prng tf_rng;
uint64_t tf_seed;
unsigned tf_scale = 1;
int tf_failures;

static const char *tf_prog;
static const char *tf_current;

void tf_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (tf_failures < 20) {
        fprintf(stderr, "FAIL %s (%s:%d): ", tf_current, file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
    tf_failures++;
}

void tf_hex(const char *label, const void *p, size_t n)
{
    const uint8_t *b = p;
    fprintf(stderr, "%s: ", label);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%02x", b[i]);
    fprintf(stderr, "\n");
}

int tf_hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t tf_unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = 0;
    int hi = -1;
    for (; *hex && n < cap; hex++) {
        int v = tf_hexval(*hex);
        if (v < 0)
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return n;
}

void *tf_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", tf_prog);
        exit(1);
    }
    return p;
}

int tf_gpu(void)
{
    static int have = -1;
    if (have < 0) {
        have = cz_cuda_available();
        if (!have)
            printf("%s: no CUDA device: GPU tests skipped\n", tf_prog);
    }
    return have;
}

static uint64_t fresh_seed(void)
{
    uint64_t s = 0;
    if (cz_os_random(&s, sizeof s) != 0)
        s = (uint64_t)time(NULL);
    return s;
}

int tf_run(int argc, char **argv, const tf_test *tests, size_t n)
{
    const char *only = NULL, *env;
    int have_seed = 0;
    tf_prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if ((env = getenv("CZ_TEST_SEED")) != NULL && *env) {
        tf_seed = strtoull(env, NULL, 0);
        have_seed = 1;
    }
    if ((env = getenv("CZ_TEST_SCALE")) != NULL && atoi(env) > 0)
        tf_scale = (unsigned)atoi(env);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            tf_seed = strtoull(argv[++i], NULL, 0);
            have_seed = 1;
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            tf_scale = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--scale K] [--only TEST]\n", tf_prog);
            return 2;
        }
    }
    if (!have_seed)
        tf_seed = fresh_seed();
    printf("%s: seed %llu (replay: %s --seed %llu)\n", tf_prog, (unsigned long long)tf_seed,
           tf_prog, (unsigned long long)tf_seed);
    fflush(stdout);

    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, tests[i].name))
            continue;
        tf_current = tests[i].name;
        tf_failures = 0;
        cz_prng_seed(&tf_rng, tf_seed ^ (0x9e3779b97f4a7c15ULL * (i + 1)));
        clock_t t0 = clock();
        tests[i].fn();
        double ms = 1e3 * (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (tf_failures) {
            failed++;
            printf("  FAIL %-40s %d failed checks\n", tests[i].name, tf_failures);
        } else {
            passed++;
            printf("  ok   %-40s %8.1f ms\n", tests[i].name, ms);
        }
        fflush(stdout);
    }
    printf("%s: %d passed, %d failed\n", tf_prog, passed, failed);
    if (failed)
        printf("%s: replay with --seed %llu\n", tf_prog, (unsigned long long)tf_seed);
    return failed ? 1 : 0;
}

int tf_run_or_seeds(int argc, char **argv, int (*write_seeds)(const char *dir),
                    const tf_test *tests, size_t n)
{
    if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
        return write_seeds(argv[2]);
    return tf_run(argc, argv, tests, n);
}
