/* Helpers shared by the engine tests (test_engine.c on the CPU back end,
 * test_engine_gpu.c on the CUDA one): a small engine configuration,
 * synthetic job requests, the drained-engine check and the monitor thread
 * that samples the budget's invariants during a randomized load. */
#ifndef CZ_TESTS_ENGINE_COMMON_H
#define CZ_TESTS_ENGINE_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "tf.h"

/* budget 0: 1 GiB; two synthesis workers, two prover threads, every
 * partition's proof verified by the engine. */
static inline cz_engine_config base_config(uint64_t budget)
{
    cz_engine_config c = {0};
    c.memory_budget = budget ? budget : (uint64_t)1 << 30;
    c.synthesis_workers = 2;
    c.prover_threads = 2;
    c.self_verify = true;
    return c;
}

/* A synthetic job of the 2^log_rows-row circuit with 2 public inputs
 * (circuit id "synthetic-<log_rows>-2"); *in must outlive the submit. */
static inline cz_job_request synth_req(cz_job_synthetic *in, const char *id, cz_priority prio,
                                       unsigned log_rows, uint32_t parts, uint64_t seed)
{
    memset(in, 0, sizeof *in);
    in->circuit.log_rows = log_rows;
    in->circuit.n_public = 2;
    in->circuit.seed = seed;
    in->partitions = parts;
    cz_job_request r = {.id = id, .priority = prio, .kind = CZ_KIND_SYNTHETIC, .input = in};
    return r;
}

/* Everything back to zero: no reservation or buffer left once the cached
 * circuit (if not NULL) is evicted. */
static inline void check_drained(cz_engine *e, const char *circuit)
{
    if (circuit)
        TF_CHECK(cz_engine_evict(e, circuit) == CZ_OK);
    cz_mem_snapshot s;
    cz_budget_snapshot(cz_engine_budget(e), &s);
    TF_CHECK_MSG(s.reserved == 0 && s.allocated == 0 && s.reservations == 0,
                 "reserved %llu allocated %llu reservations %llu", (unsigned long long)s.reserved,
                 (unsigned long long)s.allocated, (unsigned long long)s.reservations);
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        TF_CHECK_MSG(s.cls[k].live_count == 0 && s.cls[k].live_bytes == 0, "class %s: %llu live",
                     cz_buf_class_name((cz_buf_class)k), (unsigned long long)s.cls[k].live_count);
        TF_CHECK(s.cls[k].total_allocs == s.cls[k].total_frees);
    }
    TF_CHECK(cz_budget_live_buffers(cz_engine_budget(e), NULL, 0) == 0);
}

/* The monitor thread: samples the budget every 2 ms (at least once) until
 * stop is set and
 * counts readings that break allocated <= reserved <= total or
 * peak_reserved <= total. */
typedef struct {
    cz_engine *e;
    atomic_int stop;
    int violations;
    uint64_t samples;
} monitor;

static inline void *monitor_fn(void *arg)
{
    monitor *m = arg;
    do {
        cz_mem_snapshot s;
        cz_budget_snapshot(cz_engine_budget(m->e), &s);
        if (s.allocated > s.reserved || s.reserved > s.total || s.peak_reserved > s.total)
            m->violations++;
        m->samples++;
        usleep(2000);
    } while (!atomic_load(&m->stop));
    return NULL;
}

static inline void monitor_start(monitor *m, pthread_t *th, cz_engine *e)
{
    m->e = e;
    m->violations = 0;
    m->samples = 0;
    atomic_init(&m->stop, 0);
    TF_CHECK(pthread_create(th, NULL, monitor_fn, m) == 0);
}

/* Stops the monitor and checks that no reading broke the invariants. */
static inline void monitor_stop(monitor *m, pthread_t th)
{
    atomic_store(&m->stop, 1);
    pthread_join(th, NULL);
    TF_CHECK_MSG(m->violations == 0, "%d budget invariant violations in %llu samples",
                 m->violations, (unsigned long long)m->samples);
}

#endif /* CZ_TESTS_ENGINE_COMMON_H */
