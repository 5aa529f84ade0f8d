/* The CUDA back end (include/cuzk/cuda.h) against the CPU reference, bit for
 * bit, on fresh random inputs: every NTT kind and order at 2^1..2^20 (and
 * 2^24 once), round trips, the Groth16 H polynomial.  Without a device (CI)
 * only the "not available" contract is checked and the GPU tests skip. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cuda.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/poly.h"
#include "tf.h"

static const char *kind_names[] = {"forward", "inverse", "coset-forward", "coset-inverse"};
static const char *order_names[] = {"NN", "NR", "RN", "RR"};

static cz_pool *pool;

static cz_fr *vec(size_t n)
{
    cz_fr *v = malloc(n * sizeof(cz_fr));
    if (!v) {
        fprintf(stderr, "test_cuda: out of host memory\n");
        exit(1);
    }
    return v;
}

static void fill(cz_fr *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&x[i], &tf_rng);
}

/* Index of the first element where a and b differ, n when none. */
static size_t first_diff(const cz_fr *a, const cz_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(cz_fr)))
            return i;
    return n;
}

/* How many elements differ (all wrong points at arithmetic, some at
 * indexing or a race). */
static size_t count_diff(const cz_fr *a, const cz_fr *b, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += memcmp(&a[i], &b[i], sizeof(cz_fr)) != 0;
    return c;
}

/* Without a device every entry point says so instead of crashing. */
static void test_unavailable(void)
{
    if (cz_cuda_available())
        return;
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new(&d, 10) == CZ_OK);
    cz_fr x[4] = {{{0}}};
    void *p = x;
    char name[16] = "x";
    TF_CHECK(cz_cuda_malloc(&p, 64, CZ_BUF_OTHER) == CZ_ERR_UNSUPPORTED && p == NULL);
    p = x;
    TF_CHECK(cz_cuda_host_alloc(&p, 64) == CZ_ERR_UNSUPPORTED && p == NULL);
    TF_CHECK(cz_cuda_device_name(name, sizeof name) == CZ_ERR_UNSUPPORTED && name[0] == 0);
    TF_CHECK(cz_cuda_prepare(d) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_ntt(d, x, CZ_NTT_FORWARD, CZ_NTT_NR) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_ntt_batch(d, x, 2, CZ_NTT_FORWARD, CZ_NTT_NR) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_device_count() == 0);
    TF_CHECK(cz_cuda_set_device(0) == CZ_ERR_UNSUPPORTED);
    cz_cuda_device_list l = {{0}, 1};
    TF_CHECK(cz_cuda_device_list_check(&l, name, sizeof name) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_device_check(0, name, sizeof name) == CZ_ERR_UNSUPPORTED && name[0]);
    TF_CHECK(cz_cuda_groth16_h(d, x, x + 1, x + 2, 0) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(cz_cuda_groth16_h_odd_coset(d, x, x + 1, x + 2, 0) == CZ_ERR_UNSUPPORTED);
    cz_cuda_timer *t = (cz_cuda_timer *)&p;
    TF_CHECK(cz_cuda_timer_new(&t) == CZ_ERR_UNSUPPORTED && t == NULL);
    cz_cuda_release();
    cz_ntt_domain_free(d);
}

/* GPU transform of x (host) on the device; result back in out. */
static int gpu_ntt(const cz_ntt_domain *d, cz_fr *out, const cz_fr *x, cz_ntt_kind kind,
                   cz_ntt_order order, cz_fr *dev)
{
    size_t bytes = cz_ntt_domain_size(d) * sizeof(cz_fr);
    int rc = cz_cuda_memcpy_h2d(dev, x, bytes);
    if (!rc)
        rc = cz_cuda_ntt(d, dev, kind, order);
    if (!rc)
        rc = cz_cuda_sync();
    if (!rc)
        rc = cz_cuda_memcpy_d2h(out, dev, bytes);
    return rc;
}

/* Every kind and order at 2^lo..2^hi against cz_ntt; when only_one, one
 * kind drawn at random, in orders NR, RN and NN (the tiled bit reversal);
 * with compact, from the compact tables (each twiddle a product of two
 * small tables' entries), the full ones restored afterwards. */
static void check_ntt_sizes(unsigned lo, unsigned hi, unsigned root, int only_one, bool compact)
{
    for (unsigned k = lo; k <= hi; k++) {
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new_root(&d, k, root) == CZ_OK);
        if (compact)
            TF_CHECK(cz_cuda_ntt_compact(d) == CZ_OK);
        cz_fr *x = vec(n), *want = vec(n), *got = vec(n), *dev = NULL;
        int rc = cz_cuda_malloc((void **)&dev, n * sizeof(cz_fr), CZ_BUF_OTHER);
        TF_CHECK_MSG(rc == CZ_OK, "cz_cuda_malloc 2^%u: %s", k, cz_strerror(rc));
        unsigned bad = 0, runs = 0;
        int sel = (int)(cz_prng_next(&tf_rng) % 4);
        for (int ki = 0; ki < 4 && dev; ki++) {
            for (int oi = 0; oi < 4; oi++) {
                if (only_one && (ki != sel || oi == CZ_NTT_RR))
                    continue;
                fill(x, n);
                memcpy(want, x, n * sizeof(cz_fr));
                cz_ntt(d, want, (cz_ntt_kind)ki, (cz_ntt_order)oi, pool);
                memset(got, 0xa5, n * sizeof(cz_fr)); /* poison */
                rc = gpu_ntt(d, got, x, (cz_ntt_kind)ki, (cz_ntt_order)oi, dev);
                size_t i = rc ? 0 : first_diff(got, want, n);
                runs++;
                if (rc || i < n) {
                    bad++;
                    TF_CHECK_MSG(0,
                                 "GPU NTT 2^%u root %u %s %s: %s, first difference at %zu, "
                                 "%zu of %zu differ",
                                 k, root, kind_names[ki], order_names[oi],
                                 rc ? cz_strerror(rc) : "ok", i, rc ? n : count_diff(got, want, n),
                                 n);
                }
            }
        }
        printf("test_cuda: ntt 2^%-2u root %u%s: %u/%u kind x order combinations equal the CPU\n",
               k, root, compact ? " compact" : "", runs - bad, runs);
        fflush(stdout);
        if (compact)
            TF_CHECK(cz_cuda_prepare(d) == CZ_OK);
        cz_cuda_free(dev);
        free(x);
        free(want);
        free(got);
        cz_ntt_domain_free(d);
    }
}

static void test_ntt_vs_cpu(void)
{
    if (!tf_gpu())
        return;
    check_ntt_sizes(1, 20, CZ_NTT_ROOT_BELLPERSON, 0, false); /* 2^1: one butterfly */
    check_ntt_sizes(12, 12, CZ_NTT_ROOT_SNARKJS, 0, false);   /* other roots: tables replaced */
    check_ntt_sizes(12, 12, CZ_NTT_ROOT_BELLPERSON, 0, false);
    check_ntt_sizes(24, 24, CZ_NTT_ROOT_BELLPERSON, 1, false);
    /* compact twiddles: every pass shape, both roots */
    check_ntt_sizes(1, 20, CZ_NTT_ROOT_BELLPERSON, 0, true);
    check_ntt_sizes(13, 13, CZ_NTT_ROOT_SNARKJS, 0, true);
    check_ntt_sizes(23, 23, CZ_NTT_ROOT_BELLPERSON, 1, true);
}

/* Batches: count transforms of 2^k in one call, each equal to the CPU's
 * transform of its own slice, for every kind and order; odd counts (the
 * block shape must divide the group count) and a single transform. */
static void test_batch_vs_cpu(void)
{
    if (!tf_gpu())
        return;
    static const unsigned ks[] = {1, 4, 9, 10, 11, 13};
    static const size_t counts[] = {1, 3, 7, 64};
    unsigned runs = 0, bad = 0;
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            size_t count = counts[ci], total = count * n, bytes = total * sizeof(cz_fr);
            cz_fr *x = vec(total), *want = vec(total), *got = vec(total), *dev = NULL;
            int rc = cz_cuda_malloc((void **)&dev, bytes, CZ_BUF_OTHER);
            TF_CHECK_MSG(rc == CZ_OK, "cz_cuda_malloc: %s", cz_strerror(rc));
            for (int kind = 0; kind < 4 && dev; kind++) {
                for (int order = 0; order < 4; order++) {
                    fill(x, total);
                    memcpy(want, x, bytes);
                    for (size_t j = 0; j < count; j++)
                        cz_ntt(d, want + j * n, (cz_ntt_kind)kind, (cz_ntt_order)order, pool);
                    memset(got, 0xa5, bytes);
                    rc = cz_cuda_memcpy_h2d(dev, x, bytes);
                    if (!rc)
                        rc = cz_cuda_ntt_batch(d, dev, count, (cz_ntt_kind)kind,
                                               (cz_ntt_order)order);
                    if (!rc)
                        rc = cz_cuda_sync();
                    if (!rc)
                        rc = cz_cuda_memcpy_d2h(got, dev, bytes);
                    size_t i = rc ? 0 : first_diff(got, want, total);
                    runs++;
                    if (rc || i < total) {
                        bad++;
                        TF_CHECK_MSG(0,
                                     "GPU batch of %zu x 2^%u %s %s: %s, first difference at %zu "
                                     "(transform %zu)",
                                     count, k, kind_names[kind], order_names[order],
                                     rc ? cz_strerror(rc) : "ok", i, i / n);
                    }
                }
            }
            cz_cuda_free(dev);
            free(x);
            free(want);
            free(got);
        }
        TF_CHECK(cz_cuda_ntt_batch(d, (cz_fr *)&d, 0, CZ_NTT_FORWARD, CZ_NTT_NR) ==
                 CZ_ERR_INVALID_ARG);
        cz_ntt_domain_free(d);
    }
    printf("test_cuda: batches: %u/%u (size, count, kind, order) cases equal the CPU\n", runs - bad,
           runs);
}

/* inverse(forward(x)) == x on the device alone, plain and coset, both order
 * pairs (NR then RN, RN then NR). */
static void test_round_trip(void)
{
    if (!tf_gpu())
        return;
    for (unsigned k = 10; k <= 22; k += 3) {
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        TF_CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
        cz_fr *x = vec(n), *got = vec(n), *dev = NULL;
        TF_CHECK(cz_cuda_malloc((void **)&dev, n * sizeof(cz_fr), CZ_BUF_OTHER) == CZ_OK);
        for (int coset = 0; coset < 2 && dev; coset++) {
            for (int o = 0; o < 2; o++) {
                cz_ntt_order o1 = o ? CZ_NTT_RN : CZ_NTT_NR, o2 = o ? CZ_NTT_NR : CZ_NTT_RN;
                fill(x, n);
                memset(got, 0x5a, n * sizeof(cz_fr));
                int rc = cz_cuda_memcpy_h2d(dev, x, n * sizeof(cz_fr));
                if (!rc)
                    rc = cz_cuda_ntt(d, dev, coset ? CZ_NTT_COSET_FORWARD : CZ_NTT_FORWARD, o1);
                if (!rc)
                    rc = cz_cuda_ntt(d, dev, coset ? CZ_NTT_COSET_INVERSE : CZ_NTT_INVERSE, o2);
                if (!rc)
                    rc = cz_cuda_memcpy_d2h(got, dev, n * sizeof(cz_fr));
                size_t i = rc ? 0 : first_diff(got, x, n);
                TF_CHECK_MSG(!rc && i == n,
                             "GPU round trip 2^%u coset=%d %s->%s: %s, first "
                             "difference at %zu",
                             k, coset, order_names[o1], order_names[o2], cz_strerror(rc), i);
            }
        }
        cz_cuda_free(dev);
        free(x);
        free(got);
        cz_ntt_domain_free(d);
    }
    printf("test_cuda: round trips 2^10..2^22 done\n");
}

/* GPU H against the CPU's, bellperson's or with odd snarkjs's (its
 * domain's roots, the odd coset); the inputs in page-locked memory when
 * pinned (fully asynchronous uploads) or in ordinary memory. */
static void check_h(unsigned k, size_t n, int pinned, bool odd, bool compact)
{
    size_t m = (size_t)1 << k;
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new_root(&d, k, odd ? CZ_NTT_ROOT_SNARKJS : CZ_NTT_ROOT_BELLPERSON) ==
             CZ_OK);
    if (compact)
        TF_CHECK(cz_cuda_ntt_compact(d) == CZ_OK);
    cz_fr *v[3], *w[3], *host = NULL;
    if (pinned)
        TF_CHECK(cz_cuda_host_alloc((void **)&host, 3 * m * sizeof(cz_fr)) == CZ_OK);
    for (int i = 0; i < 3; i++) {
        v[i] = host ? host + i * m : vec(m);
        w[i] = vec(m);
        fill(v[i], n);
        memset(v[i] + n, 0x77, (m - n) * sizeof(cz_fr)); /* padding: must be ignored */
        memcpy(w[i], v[i], m * sizeof(cz_fr));
    }
    TF_CHECK((odd ? cz_groth16_h_odd_coset(d, w[0], w[1], w[2], n, pool)
                  : cz_groth16_h(d, w[0], w[1], w[2], n, pool)) == CZ_OK);
    int rc = odd ? cz_cuda_groth16_h_odd_coset(d, v[0], v[1], v[2], n)
                 : cz_cuda_groth16_h(d, v[0], v[1], v[2], n);
    size_t i = rc ? 0 : first_diff(v[0], w[0], m);
    TF_CHECK_MSG(!rc && i == m,
                 "GPU H%s 2^%u n=%zu: %s, first difference at %zu, %zu of %zu differ",
                 odd ? " (odd coset)" : "", k, n, cz_strerror(rc), i,
                 rc ? m : count_diff(v[0], w[0], m), m);
    printf("test_cuda: h%s 2^%-2u n=%-9zu %s%s %s\n", odd ? " odd coset" : "", k, n,
           pinned ? "pinned  " : "pageable", compact ? " compact" : "",
           !rc && i == m ? "equals the CPU" : "DIFFERS");
    fflush(stdout);
    for (int j = 0; j < 3; j++) {
        if (!host)
            free(v[j]);
        free(w[j]);
    }
    cz_cuda_host_free(host);
    cz_ntt_domain_free(d);
}

static void test_h_vs_cpu(void)
{
    if (!tf_gpu())
        return;
    for (unsigned k = 10; k <= 20; k++) {
        size_t m = (size_t)1 << k;
        size_t n = k % 3 == 0 ? m : m - 1 - cz_prng_next(&tf_rng) % (m / 2);
        check_h(k, n, k % 2, false, k % 4 == 1);
        check_h(k, n, !(k % 2), true, k % 4 == 3);
    }
    check_h(24, ((size_t)1 << 24) - 12345, 1, false, false);
    check_h(24, ((size_t)1 << 24) - 54321, 0, true, false);
    check_h(22, ((size_t)1 << 22) - 777, 0, false, true);
    /* contract */
    cz_ntt_domain *d;
    TF_CHECK(cz_ntt_domain_new(&d, 10) == CZ_OK);
    cz_fr *x = vec(3 << 10);
    TF_CHECK(cz_cuda_groth16_h(d, x, x + 1024, x + 2048, 1025) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_groth16_h(d, NULL, x + 1024, x + 2048, 10) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_groth16_h_odd_coset(d, x, x + 1024, x + 2048, 1025) == CZ_ERR_INVALID_ARG);
    free(x);
    cz_ntt_domain_free(d);
}

static uint64_t reserved_now(void)
{
    cz_cuda_mem_snapshot s;
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s) == CZ_OK);
    return s.reserved;
}

/* The device account (cuda.h): a reservation's buffers draw from it, a
 * buffer beyond its room falls to the budget, a reservation larger than
 * the budget is TOO_BIG, one the budget cannot hold now times out, the
 * class counters move, and every byte comes back.  Figures are deltas:
 * earlier tests left twiddle tables on the device. */
static void test_device_budget(void)
{
    cz_cuda_mem_snapshot s0, s;
    cz_cuda_resv *r = (cz_cuda_resv *)&r, *r2 = NULL;
    if (!tf_gpu()) {
        TF_CHECK(cz_cuda_mem_snapshot_of(0, &s0) == CZ_ERR_UNSUPPORTED && s0.budget == 0);
        TF_CHECK(cz_cuda_mem_reserve(&r, 1, 0) == CZ_ERR_UNSUPPORTED && r == NULL);
        return;
    }
    const uint64_t M = 1 << 20;
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s0) == CZ_OK);
    TF_CHECK(s0.total > 0 && s0.budget > 0 && s0.budget <= s0.total && s0.free <= s0.total);
    TF_CHECK(s0.reserved <= s0.budget && s0.allocated <= s0.reserved);
    TF_CHECK(cz_cuda_mem_snapshot_of(cz_cuda_device_count(), &s) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_mem_reserve(&r, s0.budget + 1, 0) == CZ_ERR_TOO_BIG && r == NULL);
    TF_CHECK(cz_cuda_mem_reserve(&r, 0, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_mem_reserve(&r, 64 * M, 0) == CZ_OK && r != NULL);
    TF_CHECK(reserved_now() == s0.reserved + 64 * M);
    void *a = NULL, *b = NULL, *c = NULL;
    TF_CHECK(cz_cuda_malloc(&a, 32 * M, CZ_BUF_ABC) == CZ_OK); /* from r */
    TF_CHECK(reserved_now() == s0.reserved + 64 * M);
    TF_CHECK(cz_cuda_malloc(&b, 48 * M, CZ_BUF_WITNESS) == CZ_OK); /* r is short: the budget */
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s) == CZ_OK);
    TF_CHECK(s.reserved == s0.reserved + 112 * M && s.allocated == s0.allocated + 80 * M);
    TF_CHECK(s.reservations == s0.reservations + 1);
    TF_CHECK(s.cls[CZ_BUF_ABC].live_bytes == s0.cls[CZ_BUF_ABC].live_bytes + 32 * M);
    TF_CHECK(s.cls[CZ_BUF_WITNESS].live_count == s0.cls[CZ_BUF_WITNESS].live_count + 1);
    /* what is left of the budget, plus a byte: not now */
    uint64_t room = s.budget - s.reserved;
    TF_CHECK(cz_cuda_mem_reserve(&r2, room + 1, 0) == CZ_ERR_TIMEOUT && r2 == NULL);
    TF_CHECK(cz_cuda_mem_reserve(&r2, room + 1, 30) == CZ_ERR_TIMEOUT && r2 == NULL);
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s) == CZ_OK && s.waiters == s0.waiters);
    /* and a buffer the budget cannot take is refused before cudaMalloc */
    TF_CHECK(cz_cuda_malloc(&c, room + 32 * M + 1, CZ_BUF_OTHER) == CZ_ERR_NOMEM && c == NULL);
    cz_cuda_free(a);
    TF_CHECK(reserved_now() == s0.reserved + 112 * M); /* back to r's room */
    cz_cuda_free(b);
    TF_CHECK(reserved_now() == s0.reserved + 64 * M);
    /* a buffer that outlives its reservation stays counted until freed */
    TF_CHECK(cz_cuda_malloc(&a, 16 * M, CZ_BUF_SCRATCH) == CZ_OK);
    cz_cuda_mem_release(r);
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s) == CZ_OK);
    TF_CHECK(s.reserved == s0.reserved + 16 * M && s.reservations == s0.reservations);
    cz_cuda_free(a);
    TF_CHECK(cz_cuda_mem_snapshot_of(0, &s) == CZ_OK);
    TF_CHECK(s.reserved == s0.reserved && s.allocated == s0.allocated);
    TF_CHECK(s.cls[CZ_BUF_SCRATCH].total_frees == s0.cls[CZ_BUF_SCRATCH].total_frees + 1);
    TF_CHECK(s.peak_allocated >= s0.allocated + 80 * M);
    printf("test_cuda: device budget %.1f GiB of %.1f GiB\n", s.budget / 1073741824.0,
           s.total / 1073741824.0);
}

static void test_memory_check(void)
{
    if (!tf_gpu())
        return;
    void *p = (void *)&p;
    /* far beyond any device: refused up front, not attempted */
    TF_CHECK(cz_cuda_malloc(&p, (size_t)1 << 50, CZ_BUF_OTHER) == CZ_ERR_NOMEM && p == NULL);
    char name[256];
    TF_CHECK(cz_cuda_device_name(name, sizeof name) == CZ_OK && name[0]);
    printf("test_cuda: device %s\n", name);
    /* device selection: every present ordinal works, the next one is refused */
    int count = cz_cuda_device_count();
    TF_CHECK(count >= 1);
    for (int i = 0; i < count; i++)
        TF_CHECK(cz_cuda_set_device(i) == CZ_OK);
    TF_CHECK(cz_cuda_set_device(count) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_cuda_set_device(0) == CZ_OK);
    /* every device runs this build's kernels (its SASS, or its PTX
     * compiled by the driver) */
    char msg[512] = "";
    for (int i = 0; i < count; i++)
        TF_CHECK_MSG(cz_cuda_device_check(i, msg, sizeof msg) == CZ_OK, "%s", msg);
    TF_CHECK(cz_cuda_device_check(-1, msg, sizeof msg) == CZ_OK);
    TF_CHECK(cz_cuda_device_check(count, msg, sizeof msg) == CZ_ERR_INVALID_ARG && msg[0]);
    cz_cuda_device_list l = {{0, count}, 2};
    TF_CHECK(cz_cuda_device_list_check(&l, msg, sizeof msg) == CZ_ERR_NOT_FOUND && msg[0]);
    l.n = 1;
    TF_CHECK(cz_cuda_device_list_check(&l, msg, sizeof msg) == CZ_OK);
}

static void test_setup(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 1 && !pool)
        TF_CHECK(cz_pool_new(&pool, (unsigned)(cpus > 64 ? 63 : cpus - 1)) == CZ_OK);
}

static void test_teardown(void)
{
    cz_cuda_release();
    cz_pool_free(pool);
    pool = NULL;
}

TF_MAIN(TF_TEST(test_setup), TF_TEST(test_unavailable), TF_TEST(test_memory_check),
        TF_TEST(test_device_budget),
        TF_TEST(test_ntt_vs_cpu), TF_TEST(test_batch_vs_cpu), TF_TEST(test_round_trip),
        TF_TEST(test_h_vs_cpu), TF_TEST(test_teardown))
