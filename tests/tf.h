/* A small test framework: seeded randomness that replays, checks that report
 * and continue, one summary line per program.
 *
 * Every test program accepts `--seed N` (or CZ_TEST_SEED=N) and prints the
 * seed it used first, so any failure replays exactly.  `--scale K` (or
 * CZ_TEST_SCALE) multiplies random iteration counts. */
#ifndef CZ_TF_H
#define CZ_TF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/rand.h"

/* TF_SANITIZED: 1 in ASan and TSan builds (several times slower), where
 * the heaviest tests run a lighter set; 0 otherwise. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TF_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TF_SANITIZED 1
#endif
#endif
#ifndef TF_SANITIZED
#define TF_SANITIZED 0
#endif

extern cz_prng tf_rng;    /* reseeded from the run seed before every test */
extern uint64_t tf_seed;  /* the run seed */
extern unsigned tf_scale; /* iteration multiplier, >= 1 */
extern int tf_failures;   /* failed checks in the current test */

typedef struct {
    const char *name;
    void (*fn)(void);
} tf_test;

/* Runs the tests, prints "<prog>: N passed, N failed" and returns the exit
 * status (0 iff every check held). */
int tf_run(int argc, char **argv, const tf_test *tests, size_t n);

/* tf_run, except that `<prog> --write-seeds DIR` returns write_seeds(DIR)
 * instead (the programs that write a fuzzer's seeds). */
int tf_run_or_seeds(int argc, char **argv, int (*write_seeds)(const char *dir),
                    const tf_test *tests, size_t n);

void tf_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tf_hex(const char *label, const void *p, size_t n);
/* The value of a hex digit (either case), -1 for any other character. */
int tf_hexval(char c);
/* Decodes hex digits (spaces and colons skipped) into out, at most cap
 * bytes; returns the number of bytes written (a test vector's length). */
size_t tf_unhex(uint8_t *out, size_t cap, const char *hex);

/* malloc(n) (n == 0 gives a live byte) that ends the program with
 * "<prog>: out of memory" rather than return NULL. */
void *tf_xmalloc(size_t n);

/* 1 iff a CUDA device is present; asked once, and the first call without one
 * prints "<prog>: no CUDA device: GPU tests skipped". */
int tf_gpu(void);

#define TF_CHECK(cond)                                                       \
    do {                                                                     \
        if (!(cond))                                                         \
            tf_fail(__FILE__, __LINE__, "check failed: %s", #cond);          \
    } while (0)

#define TF_CHECK_MSG(cond, ...)                                              \
    do {                                                                     \
        if (!(cond))                                                         \
            tf_fail(__FILE__, __LINE__, __VA_ARGS__);                        \
    } while (0)

#define TF_CHECK_MEM(a, b, n)                                                \
    do {                                                                     \
        if (memcmp((a), (b), (n)) != 0) {                                    \
            tf_fail(__FILE__, __LINE__, "memory differs: %s vs %s", #a, #b); \
            tf_hex("  left ", (a), (n));                                     \
            tf_hex("  right", (b), (n));                                     \
        }                                                                    \
    } while (0)

#define TF_TEST(fn) {#fn, fn}
#define TF_MAIN(...)                                                         \
    int main(int argc, char **argv)                                          \
    {                                                                        \
        static const tf_test tests_[] = {__VA_ARGS__};                       \
        return tf_run(argc, argv, tests_, sizeof tests_ / sizeof tests_[0]); \
    }

#define TF_MAIN_SEEDS(write_seeds, ...)                                      \
    int main(int argc, char **argv)                                          \
    {                                                                        \
        static const tf_test tests_[] = {__VA_ARGS__};                       \
        return tf_run_or_seeds(argc, argv, write_seeds, tests_,              \
                               sizeof tests_ / sizeof tests_[0]);            \
    }

#endif /* CZ_TF_H */
