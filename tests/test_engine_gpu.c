/* The proving engine (include/cuzk/engine.h) with the CUDA back end
 * (cz_backend_cuda): a synthetic job on every device; a registered circuit
 * proved by the CPU and the CUDA back ends with the same blinding factors,
 * whose proofs must be byte-identical and verify; a device list naming one
 * device; and the randomized load of test_engine.c (random sizes,
 * priorities, cancellations and await timeouts, a monitor thread sampling
 * the budget's invariants) on every device, each of which must get work.
 * Every completed proof is verified by the engine (self_verify); every
 * counter and buffer class returns to zero once the engine has drained.
 * Without a CUDA device only the refusals are checked and the GPU tests
 * skip. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cuda.h"
#include "engine_common.h"

/* base_config with the prover's host work (SpMV, the B_g2 scalars) on up to
 * 8 threads and 4 synthesis workers, so the devices are kept busy. */
static cz_engine_config gpu_config(uint64_t budget, const cz_backend_ops *be)
{
    cz_engine_config c = base_config(budget);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c.prover_threads = cpus > 8 ? 8 : cpus > 2 ? (unsigned)cpus : 2;
    c.synthesis_workers = 4;
    c.prover_workers = 2;
    c.backend = be;
    return c;
}

/* --------------------------------------------------- wrapping back end --- */

/* A back end passing every call on to inner, counting prove_start calls
 * per engine device; with fixed_rs, the blinding factors r, s are drawn
 * from a cz_prng seeded by the partition's first public input, so that
 * two back ends prove the same partition to the same bytes. */
typedef struct {
    const cz_backend_ops *inner;
    bool fixed_rs;
    atomic_uint starts[CZ_ENGINE_MAX_DEVICES];
} wrap;

static unsigned w_devices(void *ctx)
{
    const wrap *wr = ctx;
    return wr->inner->devices(wr->inner->ctx);
}

static int w_start(void *ctx, unsigned dev, cz_groth16_pending **out, const cz_groth16_params *p,
                   const cz_r1cs *r, const cz_fr *w, size_t n, const cz_groth16_prove_opts *o,
                   char *err, size_t errlen)
{
    wrap *wr = ctx;
    if (dev < CZ_ENGINE_MAX_DEVICES)
        atomic_fetch_add(&wr->starts[dev], 1);
    cz_groth16_prove_opts o2 = *o;
    cz_fr rs[2];
    if (wr->fixed_rs && n > 1) {
        uint64_t seed;
        memcpy(&seed, &w[1], sizeof seed);
        cz_prng g;
        cz_prng_seed(&g, seed);
        cz_fr_random(&rs[0], &g);
        cz_fr_random(&rs[1], &g);
        o2.rs = rs;
    }
    return wr->inner->prove_start(wr->inner->ctx, dev, out, p, r, w, n, &o2, err, errlen);
}

static int w_finish(void *ctx, cz_groth16_proof *pf, cz_groth16_pending *pd)
{
    const wrap *wr = ctx;
    return wr->inner->prove_finish(wr->inner->ctx, pf, pd);
}

static void w_info(void *ctx, unsigned dev, cz_engine_device_info *out)
{
    const wrap *wr = ctx;
    wr->inner->device_info(wr->inner->ctx, dev, out);
}

static int w_prepare(void *ctx, unsigned dev, const cz_groth16_params *p, const cz_r1cs *r,
                     bool *resident, char *err, size_t errlen)
{
    const wrap *wr = ctx;
    return wr->inner->prepare(wr->inner->ctx, dev, p, r, resident, err, errlen);
}

static cz_backend_ops wrap_ops(wrap *wr, const cz_backend_ops *inner, bool fixed_rs)
{
    wr->inner = inner;
    wr->fixed_rs = fixed_rs;
    for (int d = 0; d < CZ_ENGINE_MAX_DEVICES; d++)
        atomic_init(&wr->starts[d], 0);
    cz_backend_ops ops = {.name = inner->name,
                          .devices = w_devices,
                          .prove_start = w_start,
                          .prove_finish = w_finish,
                          .ctx = wr,
                          .kind = inner->kind,
                          .device_info = w_info,
                          .prepare = inner->prepare ? w_prepare : NULL,
                          .plan = inner->plan};
    return ops;
}

/* ------------------------------------------------------------ refusals --- */

/* No device: the CUDA back end has none and the engine refuses it, naming
 * the back end.  With devices: a list naming an ordinal that is not there
 * leaves the back end without devices, refused the same way. */
static void test_refusals(void)
{
    char err[256] = "";
    cz_engine *e = NULL;
    int count = cz_cuda_device_count();
    cz_cuda_device_list l = {{count}, 1};
    cz_backend_ops ops = cz_backend_cuda;
    ops.ctx = &l;
    cz_engine_config cfg = base_config(0);
    cfg.backend = tf_gpu() ? &ops : &cz_backend_cuda;
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_ERR_INVALID_ARG && e == NULL);
    TF_CHECK_MSG(strstr(err, "cuda") && strstr(err, "no device"), "%s", err);
    TF_CHECK(cz_cuda_device_list_check(&l, err, sizeof err) ==
             (tf_gpu() ? CZ_ERR_NOT_FOUND : CZ_ERR_UNSUPPORTED));
}

/* ---------------------------------------------------------- basic jobs --- */

/* A 3-partition synthetic job on every device (cz_backend_cuda as it is):
 * completed, its proofs verified by the engine and decodable here, the
 * timeline has every stage of every partition. */
static void test_basic_job(void)
{
    if (!tf_gpu())
        return;
    int count = cz_cuda_device_count();
    cz_engine_config cfg = gpu_config(0, &cz_backend_cuda);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK_MSG(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK, "%s", err);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK_MSG(st.prove_workers == 2u * (unsigned)count, "%u prover workers, %d devices",
                 st.prove_workers, count);
    cz_job_synthetic in;
    cz_job_request req = synth_req(&in, "basic", CZ_PRIO_NORMAL, 14, 3, 7);
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result r;
    TF_CHECK(cz_engine_await(e, "basic", 120000, &r) == CZ_OK);
    check_completed(&r, 3);
    cz_job_result_free(&r);
    cz_timeline_event ev[64];
    size_t n = cz_engine_timeline(e, ev, 64);
    int counts[3] = {0};
    for (size_t i = 0; i < n; i++) {
        counts[0] += !strcmp(ev[i].stage, "synth");
        counts[1] += !strcmp(ev[i].stage, "prove_start");
        counts[2] += !strcmp(ev[i].stage, "prove_finish");
    }
    TF_CHECK(counts[0] == 3 && counts[1] == 3 && counts[2] == 3);
    cz_engine_status_get(e, &st);
    TF_CHECK(st.jobs_completed == 1 && st.partitions_proved == 3 && st.jobs_failed == 0);
    /* the devices' accounts: a, b, c and the witness were on the device
     * (2^14 domain), under the budget, and nothing holds a device now */
    TF_CHECK(st.n_devices == (unsigned)count);
    const cz_engine_device_info *di = &st.devices[0].info;
    TF_CHECK(di->gpu && di->ordinal == 0 && di->name[0] && di->vram_total >= di->mem.total);
    TF_CHECK(di->mem.total > 0 && di->mem.peak_reserved <= di->mem.total);
    TF_CHECK_MSG(di->mem.cls[CZ_BUF_ABC].high_water_bytes >= 3 * ((size_t)1 << 14) * 32,
                 "device a/b/c high water %llu",
                 (unsigned long long)di->mem.cls[CZ_BUF_ABC].high_water_bytes);
    TF_CHECK(di->mem.cls[CZ_BUF_PARAMS].live_bytes > 0 && di->mem.cls[CZ_BUF_R1CS].live_bytes > 0);
    TF_CHECK(di->mem.cls[CZ_BUF_ABC].live_bytes == 0 && di->mem.reservations == 0);
    for (unsigned d = 0; d < st.n_devices; d++)
        TF_CHECK(st.devices[d].busy_job[0] == 0);
    /* the parameters are resident on every device: the host kept only the
     * vk (one page and its header), and the circuit's bytes shrank */
    TF_CHECK_MSG(st.mem.cls[CZ_BUF_PARAMS].live_bytes < 4096 &&
                     st.mem.cls[CZ_BUF_PARAMS].high_water_bytes > ((size_t)1 << 20),
                 "host params live %llu, high water %llu",
                 (unsigned long long)st.mem.cls[CZ_BUF_PARAMS].live_bytes,
                 (unsigned long long)st.mem.cls[CZ_BUF_PARAMS].high_water_bytes);
    /* each device's plan of the circuit: everything resident there, so
     * nothing streamed; the status shows the line that describes it */
    cz_engine_plan pl[CZ_ENGINE_MAX_DEVICES];
    size_t np = cz_engine_circuit_plans(e, "synthetic-14-2", pl, CZ_ENGINE_MAX_DEVICES);
    TF_CHECK_MSG(np == (size_t)count, "%zu plans for %d devices", np, count);
    for (size_t i = 0; i < np; i++)
        TF_CHECK_MSG(pl[i].kept_bytes > 0 && pl[i].proof_bytes > 0 && pl[i].streamed_bytes == 0 &&
                         pl[i].text[0],
                     "device %d: kept %llu proof %llu streamed %llu: %s", pl[i].ordinal,
                     (unsigned long long)pl[i].kept_bytes, (unsigned long long)pl[i].proof_bytes,
                     (unsigned long long)pl[i].streamed_bytes, pl[i].text);
    TF_CHECK(cz_engine_circuit_plans(e, "no-such-circuit", pl, CZ_ENGINE_MAX_DEVICES) == 0);
    check_drained(e, "synthetic-14-2");
    cz_engine_free(e);
}

/* Proves the 2-partition job of w (n values each) on circuit reg of an
 * engine with back end be; returns the 2 x 192 proof bytes (malloc'd) or
 * NULL. */
static uint8_t *prove_registered(const cz_backend_ops *be, const cz_groth16_params *p,
                                 const cz_r1cs *r, const cz_fr *w, size_t n)
{
    cz_engine_config cfg = gpu_config(0, be);
    cz_engine *e;
    char err[256], id[CZ_JOB_ID_MAX];
    TF_CHECK_MSG(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK_MSG(cz_engine_register_circuit(e, "reg", p, r, err, sizeof err) == CZ_OK, "%s", err);
    cz_job_groth16 g = {.circuit = "reg", .w = w, .n_w = n, .partitions = 2};
    cz_job_request req = {.id = "g", .kind = CZ_KIND_GROTH16, .input = &g};
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result res;
    uint8_t *out = NULL;
    TF_CHECK(cz_engine_await(e, "g", 120000, &res) == CZ_OK);
    TF_CHECK_MSG(res.state == CZ_JOB_COMPLETED, "%s back end: %s", be->name, res.message);
    if (res.state == CZ_JOB_COMPLETED && res.proofs) {
        out = malloc(2 * 192);
        memcpy(out, res.proofs, 2 * 192);
    }
    cz_job_result_free(&res);
    TF_CHECK(cz_engine_unregister_circuit(e, "reg") == CZ_OK);
    check_drained(e, NULL);
    cz_engine_free(e);
    return out;
}

/* A registered circuit's 2-partition job proved through the CPU back end
 * and through the CUDA back end restricted to the last device (a device
 * list), both with the same r, s per partition: the same bytes, and each
 * proof verifies against its partition's public inputs. */
static void test_same_proofs_as_cpu(void)
{
    if (!tf_gpu())
        return;
    uint8_t seed[32];
    cz_prng_bytes(&tf_rng, seed, sizeof seed);
    reg_circuit c;
    reg_make(&c, 13, seed, cz_prng_next(&tf_rng));
    wrap wc, wg;
    cz_backend_ops cpu = wrap_ops(&wc, &cz_backend_cpu, true);
    cz_cuda_device_list last = {{cz_cuda_device_count() - 1}, 1};
    cz_backend_ops cuda_last = cz_backend_cuda;
    cuda_last.ctx = &last;
    cz_backend_ops cuda = wrap_ops(&wg, &cuda_last, true);
    uint8_t *pc = prove_registered(&cpu, &c.p, c.r, c.w, c.n);
    uint8_t *pg = prove_registered(&cuda, &c.p, c.r, c.w, c.n);
    TF_CHECK(atomic_load(&wc.starts[0]) == 2 && atomic_load(&wg.starts[0]) == 2);
    if (pc && pg) {
        for (int part = 0; part < 2; part++)
            TF_CHECK_MEM(pg + 192 * part, pc + 192 * part, 192);
        reg_verify(&c, pg);
        /* not one proof twice: the partitions differ */
        TF_CHECK(memcmp(pg, pg + 192, 192) != 0);
    }
    free(pc);
    free(pg);
    reg_free(&c);
}

/* ------------------------------------------------------ randomized load --- */

/* Random jobs of the 2^12- and 2^13-row circuits, 1 to 4 partitions, random
 * priorities, a quarter cancelled after a random delay, awaits with short
 * timeouts in between, under a budget that holds both circuits and two
 * 2^13 partitions (jobs wait for memory; idle circuits are evicted and
 * their device copies uploaded again).  Every job completes or was
 * cancelled by us; the budget's invariants hold throughout; every device
 * proved partitions; everything drains. */
static void test_random_load(void)
{
    if (!tf_gpu())
        return;
    enum { JOBS = 16 };
    uint64_t peak12, cached12, peak13, cached13;
    measure_job(gpu_config(0, &cz_backend_cuda), 12, &peak12, &cached12);
    measure_job(gpu_config(0, &cz_backend_cuda), 13, &peak13, &cached13);
    TF_CHECK(peak13 > cached13 && cached13 > 0 && cached12 > 0);
    wrap wr;
    cz_backend_ops ops = wrap_ops(&wr, &cz_backend_cuda, false);
    cz_engine_config cfg =
        gpu_config(TEST_POOL + cached12 + cached13 + 2 * (peak13 - TEST_POOL - cached13), &ops);
    cfg.eviction_min_idle_ms = 0;
    cz_engine *e;
    char err[256];
    TF_CHECK_MSG(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK, "%s", err);
    uint32_t proved = random_load(e, JOBS, 12, 4);
    cz_engine_status st;
    cz_engine_status_get(e, &st);
    TF_CHECK(st.jobs_failed == 0 && st.jobs_queued == 0 && st.jobs_running == 0);
    TF_CHECK(st.prove_busy == 0 && st.prove_queue == 0 && st.final_queue == 0);
    /* every device got work (2 workers per device share one queue) */
    unsigned n_dev = w_devices(&wr), starts = 0;
    for (unsigned d = 0; d < n_dev; d++) {
        unsigned k = atomic_load(&wr.starts[d]);
        printf("test_engine_gpu: device %u: %u partitions proved\n", d, k);
        TF_CHECK_MSG(k > 0 || proved < 4 * n_dev, "device %u got no partition of %u", d, proved);
        starts += k;
    }
    TF_CHECK_MSG(starts >= proved, "%u prove_start calls, %u partitions proved", starts, proved);
    evict_synthetic(e, 12, 13);
    check_drained(e, NULL);
    cz_engine_free(e);
}

static void test_teardown(void) { cz_cuda_release(); }

TF_MAIN(TF_TEST(test_refusals), TF_TEST(test_basic_job), TF_TEST(test_same_proofs_as_cpu),
        TF_TEST(test_random_load), TF_TEST(test_teardown))
