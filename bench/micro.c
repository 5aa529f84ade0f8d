/* cuzk-bench micro: single-thread cost of the arithmetic primitives.
 *
 * Each case runs a dependent chain (the output feeds the next input) so the
 * time is latency-bound like real use, and the compiler cannot drop work.
 * Targets are the issue's: within 1.1x of blst on the development machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"


/* One benchmark: runs its operation `iters` times. */
typedef struct {
    const char *name;
    void (*run)(uint64_t iters);
    double target_ns; /* 0: none */
    const char *target_note;
} bench_case;

static cz_fp fa, fb;
static cz_fr ra, rb;
static cz_fp2 f2a, f2b;
static cz_fp12 f12a, f12b;
static cz_g1 g1a, g1b;
static cz_g1_affine g1aff[4];
static cz_g2 g2a, g2b;
static cz_g2_affine g2aff[4];
static cz_fr scal;
static uint8_t g1enc[48], g2enc[96];
static volatile uint64_t sink;

static void setup(void)
{
    cz_prng g;
    cz_prng_seed(&g, 1);
    cz_fp_random(&fa, &g);
    cz_fp_random(&fb, &g);
    cz_fr_random(&ra, &g);
    cz_fr_random(&rb, &g);
    cz_fp2_random(&f2a, &g);
    cz_fp2_random(&f2b, &g);
    cz_fp12_random(&f12a, &g);
    cz_fp12_random(&f12b, &g);
    cz_fr_random(&scal, &g);
    cz_g1 t1;
    cz_g2 t2;
    cz_g1_from_affine(&t1, &CZ_G1_GENERATOR);
    cz_g2_from_affine(&t2, &CZ_G2_GENERATOR);
    for (int i = 0; i < 4; i++) {
        cz_fr k;
        cz_g1 p;
        cz_g2 q;
        cz_fr_random(&k, &g);
        cz_g1_mul_var(&p, &t1, &k);
        cz_g2_mul_var(&q, &t2, &k);
        cz_g1_to_affine(&g1aff[i], &p);
        cz_g2_to_affine(&g2aff[i], &q);
    }
    cz_g1_from_affine(&g1a, &g1aff[0]);
    cz_g1_from_affine(&g1b, &g1aff[1]);
    cz_g2_from_affine(&g2a, &g2aff[0]);
    cz_g2_from_affine(&g2b, &g2aff[1]);
    cz_g1_add(&g1b, &g1b, &g1a); /* Z != 1 for the full additions */
    cz_g2_add(&g2b, &g2b, &g2a);
    cz_g1_to_compressed(g1enc, &g1aff[2]);
    cz_g2_to_compressed(g2enc, &g2aff[2]);
}

#define CHAIN(name, T, init, stmt)                                           \
    static void name(uint64_t n)                                             \
    {                                                                        \
        T x = init;                                                          \
        for (uint64_t i = 0; i < n; i++)                                     \
            stmt;                                                            \
        sink ^= ((const uint64_t *)&x)[0];                                   \
    }

CHAIN(b_fp_mul, cz_fp, fa, cz_fp_mul(&x, &x, &fb))
CHAIN(b_fp_mul_portable, cz_fp, fa, cz_fp_mul_portable(&x, &x, &fb))
CHAIN(b_fp_sqr, cz_fp, fa, cz_fp_sqr(&x, &x))
CHAIN(b_fp_add, cz_fp, fa, cz_fp_add(&x, &x, &fb))
CHAIN(b_fp_inv, cz_fp, fa, cz_fp_inv(&x, &x))
CHAIN(b_fr_mul, cz_fr, ra, cz_fr_mul(&x, &x, &rb))
CHAIN(b_fr_mul_portable, cz_fr, ra, cz_fr_mul_portable(&x, &x, &rb))
CHAIN(b_fr_inv, cz_fr, ra, cz_fr_inv(&x, &x))
CHAIN(b_fp2_mul, cz_fp2, f2a, cz_fp2_mul(&x, &x, &f2b))
CHAIN(b_fp2_sqr, cz_fp2, f2a, cz_fp2_sqr(&x, &x))
CHAIN(b_fp12_mul, cz_fp12, f12a, cz_fp12_mul(&x, &x, &f12b))
CHAIN(b_fp12_sqr, cz_fp12, f12a, cz_fp12_sqr(&x, &x))
CHAIN(b_g1_add, cz_g1, g1a, cz_g1_add(&x, &x, &g1b))
CHAIN(b_g1_add_affine, cz_g1, g1a, cz_g1_add_affine(&x, &x, &g1aff[2]))
CHAIN(b_g1_dbl, cz_g1, g1a, cz_g1_dbl(&x, &x))
CHAIN(b_g2_add, cz_g2, g2a, cz_g2_add(&x, &x, &g2b))
CHAIN(b_g2_add_affine, cz_g2, g2a, cz_g2_add_affine(&x, &x, &g2aff[2]))
CHAIN(b_g2_dbl, cz_g2, g2a, cz_g2_dbl(&x, &x))
CHAIN(b_g1_mul, cz_g1, g1a, cz_g1_mul(&x, &x, &scal))
CHAIN(b_g1_mul_var, cz_g1, g1a, cz_g1_mul_var(&x, &x, &scal))
CHAIN(b_g2_mul, cz_g2, g2a, cz_g2_mul(&x, &x, &scal))
CHAIN(b_g2_mul_var, cz_g2, g2a, cz_g2_mul_var(&x, &x, &scal))

static void b_g1_decode(uint64_t n)
{
    cz_g1_affine p;
    for (uint64_t i = 0; i < n; i++)
        sink += (uint64_t)cz_g1_decode(&p, g1enc, 48, CZ_DECODE_DEFAULT);
}

static void b_g2_decode(uint64_t n)
{
    cz_g2_affine p;
    for (uint64_t i = 0; i < n; i++)
        sink += (uint64_t)cz_g2_decode(&p, g2enc, 96, CZ_DECODE_DEFAULT);
}

static void b_pairing(uint64_t n)
{
    cz_fp12 r;
    for (uint64_t i = 0; i < n; i++) {
        cz_pairing(&r, &g1aff[i & 3], &g2aff[i & 3]);
        sink ^= r.c0.c0.c0.l[0];
    }
}

static void b_multi_pairing4(uint64_t n)
{
    cz_fp12 r;
    for (uint64_t i = 0; i < n; i++) {
        cz_multi_pairing(&r, g1aff, g2aff, 4);
        sink ^= r.c0.c0.c0.l[0];
    }
}

static void b_miller_loop(uint64_t n)
{
    cz_fp12 r;
    for (uint64_t i = 0; i < n; i++) {
        cz_miller_loop_n(&r, &g1aff[i & 3], &g2aff[i & 3], 1);
        sink ^= r.c0.c0.c0.l[0];
    }
}

static void b_final_exp(uint64_t n)
{
    cz_fp12 x = f12a;
    for (uint64_t i = 0; i < n; i++)
        cz_final_exp(&x, &x);
    sink ^= x.c0.c0.c0.l[0];
}

static const bench_case cases[] = {
    {"fp_mul", b_fp_mul, 36, " (blst 32 ns)"},
    {"fp_mul_portable", b_fp_mul_portable, 0, NULL},
    {"fp_sqr", b_fp_sqr, 0, NULL},
    {"fp_add", b_fp_add, 0, NULL},
    {"fp_inv", b_fp_inv, 0, NULL},
    {"fr_mul", b_fr_mul, 20, " (blst 18 ns)"},
    {"fr_mul_portable", b_fr_mul_portable, 0, NULL},
    {"fr_inv", b_fr_inv, 0, NULL},
    {"fp2_mul", b_fp2_mul, 0, NULL},
    {"fp2_sqr", b_fp2_sqr, 0, NULL},
    {"fp12_mul", b_fp12_mul, 0, NULL},
    {"fp12_sqr", b_fp12_sqr, 0, NULL},
    {"g1_add", b_g1_add, 650, " (blst 614 ns)"},
    {"g1_add_affine", b_g1_add_affine, 0, NULL},
    {"g1_dbl", b_g1_dbl, 0, NULL},
    {"g2_add", b_g2_add, 1700, " (blst 1.6 us)"},
    {"g2_add_affine", b_g2_add_affine, 0, NULL},
    {"g2_dbl", b_g2_dbl, 0, NULL},
    {"g1_mul (const-time)", b_g1_mul, 0, NULL},
    {"g1_mul_var", b_g1_mul_var, 0, NULL},
    {"g2_mul (const-time)", b_g2_mul, 0, NULL},
    {"g2_mul_var", b_g2_mul_var, 0, NULL},
    {"g1_decode (compressed)", b_g1_decode, 0, NULL},
    {"g2_decode (compressed)", b_g2_decode, 0, NULL},
    {"miller_loop", b_miller_loop, 0, NULL},
    {"final_exp", b_final_exp, 0, NULL},
    {"pairing", b_pairing, 550000, " (blst 0.50 ms)"},
    {"multi_pairing (4 pairs)", b_multi_pairing4, 0, NULL},
};

/* CPU seconds of the calling thread: the cases are timed by it so time
 * spent descheduled on a busy machine does not count. */
static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void header(const cz_cli_opts *o)
{
    if (o->csv)
        printf("name,ns_per_op,iters,target_ns\n");
    else
        printf("%-28s %14s %12s   %s\n", "operation", "ns/op", "iters", "target");
}

static void print_ns(double ns)
{
    if (ns >= 1e6)
        printf("%11.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        printf("%11.3f us", ns / 1e3);
    else
        printf("%11.1f ns", ns);
}

/* Times a case in thread CPU time (calibrating iterations to o->time),
 * prints one row. */
static void run_case(const cz_cli_opts *o, const bench_case *c)
{
    if (o->filter && !strstr(c->name, o->filter))
        return;
    /* Calibrate: double the count until one run takes >= min_time / 4. */
    uint64_t iters = 1;
    for (;;) {
        double t0 = thread_cpu();
        c->run(iters);
        double dt = thread_cpu() - t0;
        if (dt >= o->time / 4 || iters >= (1ULL << 40))
            break;
        iters *= (dt < o->time / 64) ? 8 : 2;
    }
    double s[32];
    int n = o->samples > 32 ? 32 : (int)o->samples;
    for (int i = 0; i < n; i++) {
        double t0 = thread_cpu();
        c->run(iters);
        s[i] = (thread_cpu() - t0) * 1e9 / (double)iters;
    }
    qsort(s, (size_t)n, sizeof s[0], cmp_double);
    double med = s[n / 2];
    if (o->csv) {
        printf("%s,%.1f,%llu,%.1f\n", c->name, med, (unsigned long long)iters, c->target_ns);
    } else {
        printf("%-28s ", c->name);
        print_ns(med);
        printf(" %12llu", (unsigned long long)iters);
        if (c->target_ns > 0) {
            printf("   <= ");
            print_ns(c->target_ns);
            printf(" %s%s", med <= c->target_ns ? "ok  " : "MISS",
                   c->target_note ? c->target_note : "");
        }
        printf("\n");
    }
    fflush(stdout);
}

int cz_bench_micro(const cz_cli_cmd *self, int argc, char **argv)
{
    cz_cli_opts o = {.time = 0.2, .samples = 5};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    if (o.time <= 0 || o.samples < 1) {
        fprintf(stderr, "cuzk-bench micro: --time and --samples must be positive\n");
        return 2;
    }
    setup();
    if (!o.csv)
        printf("cuzk-bench micro: one thread, thread CPU time, field implementation %s, median of "
               "%u\n",
               cz_ff_impl_name(), o.samples);
    header(&o);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&o, &cases[i]);
    return 0;
}
