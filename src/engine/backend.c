/* The engine's proving back ends: the CPU and CUDA (see cuzk/engine.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"

static unsigned cpu_devices(void *ctx)
{
    (void)ctx;
    return 1;
}

static int cpu_start(void *ctx, unsigned dev, cz_groth16_pending **out,
                     const cz_groth16_params *params, const cz_r1cs *r1cs, const cz_fr *w,
                     size_t w_len, const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    (void)ctx, (void)dev;
    return cz_groth16_prove_start(out, params, r1cs, w, w_len, opts, err, errlen);
}

static int cpu_finish(void *ctx, cz_groth16_proof *proof, cz_groth16_pending *pending)
{
    (void)ctx;
    return cz_groth16_prove_finish(proof, pending);
}

static void cpu_info(void *ctx, unsigned dev, cz_engine_device_info *out)
{
    (void)ctx, (void)dev;
    memset(out, 0, sizeof *out);
    out->ordinal = -1;
    snprintf(out->name, sizeof out->name, "cpu");
}

const cz_backend_ops cz_backend_cpu = {.name = "cpu",
                                       .devices = cpu_devices,
                                       .prove_start = cpu_start,
                                       .prove_finish = cpu_finish,
                                       .kind = CZ_BACKEND_CPU,
                                       .device_info = cpu_info};

/* The CUDA back end (see engine.h): engine device dev is CUDA device
 * list->ordinal[dev], or dev itself without a list. */
static unsigned cuda_devices(void *ctx)
{
    const cz_cuda_device_list *l = ctx;
    int count = cz_cuda_device_count();
    if (l && l->n)
        return cz_cuda_device_list_check(l, NULL, 0) == CZ_OK ? l->n : 0;
    return count > CZ_ENGINE_MAX_DEVICES ? CZ_ENGINE_MAX_DEVICES : (unsigned)count;
}

/* Makes engine device dev current: CZ_OK or the error, err naming it. */
static int use_device(void *ctx, unsigned dev, char *err, size_t errlen)
{
    const cz_cuda_device_list *l = ctx;
    int ordinal = l && l->n ? l->ordinal[dev] : (int)dev;
    int rc = cz_cuda_set_device(ordinal);
    if (rc != CZ_OK)
        cz_msgf(err, errlen, "CUDA device %d: %s", ordinal, cz_strerror(rc));
    return rc;
}

static int cuda_start(void *ctx, unsigned dev, cz_groth16_pending **out,
                      const cz_groth16_params *params, const cz_r1cs *r1cs, const cz_fr *w,
                      size_t w_len, const cz_groth16_prove_opts *opts, char *err, size_t errlen)
{
    int rc = use_device(ctx, dev, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_groth16_prove_opts o = *opts;
    o.backend = CZ_BACKEND_GPU;
    return cz_groth16_prove_start(out, params, r1cs, w, w_len, &o, err, errlen);
}

int cz_cuda_device_list_check(const cz_cuda_device_list *l, char *err, size_t errlen)
{
    int count = cz_cuda_device_count();
    if (!count) {
        cz_msgf(err, errlen, "no CUDA device");
        return CZ_ERR_UNSUPPORTED;
    }
    if (l->n > CZ_ENGINE_MAX_DEVICES) {
        cz_msgf(err, errlen, "%u devices listed, at most %d", l->n, CZ_ENGINE_MAX_DEVICES);
        return CZ_ERR_INVALID_ARG;
    }
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ordinal[i] < 0 || l->ordinal[i] >= count) {
            cz_msgf(err, errlen, "CUDA device %d is not there (%d found: 0..%d)", l->ordinal[i],
                    count, count - 1);
            return CZ_ERR_NOT_FOUND;
        }
    }
    /* every device to be used runs the kernels (a card older than Turing,
     * or one the build has no image for, is refused by name) */
    unsigned n = l->n ? l->n : (unsigned)count;
    for (unsigned i = 0; i < n && i < CZ_ENGINE_MAX_DEVICES; i++) {
        int rc = cz_cuda_device_check(l->n ? l->ordinal[i] : (int)i, err, errlen);
        if (rc != CZ_OK)
            return rc;
    }
    return CZ_OK;
}

/* The device's name and memory account; makes the device current on the
 * calling thread (a status reader's, which does no device work). */
static void cuda_info(void *ctx, unsigned dev, cz_engine_device_info *out)
{
    const cz_cuda_device_list *l = ctx;
    memset(out, 0, sizeof *out);
    out->gpu = true;
    out->ordinal = l && l->n ? l->ordinal[dev] : (int)dev;
    cz_cuda_mem_snapshot s;
    if (cz_cuda_set_device(out->ordinal) != CZ_OK || cz_cuda_mem_snapshot_of(out->ordinal, &s))
        return;
    cz_cuda_device_name(out->name, sizeof out->name);
    out->vram_total = s.total;
    out->vram_free = s.free;
    out->mem = (cz_mem_snapshot){.total = s.budget,
                                 .reserved = s.reserved,
                                 .peak_reserved = s.peak_reserved,
                                 .allocated = s.allocated,
                                 .peak_allocated = s.peak_allocated,
                                 .reservations = s.reservations,
                                 .waiters = s.waiters};
    memcpy(out->mem.cls, s.cls, sizeof s.cls);
}

static int cuda_prepare(void *ctx, unsigned dev, const cz_groth16_params *params,
                        const cz_r1cs *r1cs, bool *resident, char *err, size_t errlen)
{
    int rc = use_device(ctx, dev, err, errlen);
    return rc == CZ_OK ? cz_groth16_prepare_device(params, r1cs, resident, err, errlen) : rc;
}

static int cuda_plan(void *ctx, unsigned dev, const cz_groth16_params *params, cz_engine_plan *out)
{
    const cz_cuda_device_list *l = ctx;
    memset(out, 0, sizeof *out);
    out->ordinal = l && l->n ? l->ordinal[dev] : (int)dev;
    cz_cuda_plan_info pi;
    int rc = cz_cuda_set_device(out->ordinal);
    if (rc == CZ_OK)
        rc = cz_cuda_groth16_plan(params, &pi);
    if (rc == CZ_OK) {
        out->kept_bytes = pi.kept_bytes;
        out->proof_bytes = pi.proof_bytes;
        out->streamed_bytes = pi.streamed_bytes;
        memcpy(out->text, pi.text, sizeof out->text);
    }
    return rc;
}

static int cuda_stage(void *ctx, unsigned dev, const cz_fr *w, size_t w_len, void **out)
{
    *out = NULL;
    int rc = use_device(ctx, dev, NULL, 0);
    cz_cuda_witness *s = NULL;
    if (rc == CZ_OK && (rc = cz_cuda_witness_stage(&s, w, w_len)) == CZ_OK)
        *out = s;
    return rc;
}

static void cuda_unstage(void *ctx, void *staged)
{
    (void)ctx;
    cz_cuda_witness_free(staged);
}

const cz_backend_ops cz_backend_cuda = {.name = "cuda",
                                        .devices = cuda_devices,
                                        .prove_start = cuda_start,
                                        .prove_finish = cpu_finish,
                                        .kind = CZ_BACKEND_GPU,
                                        .device_info = cuda_info,
                                        .prepare = cuda_prepare,
                                        .plan = cuda_plan,
                                        .stage = cuda_stage,
                                        .unstage = cuda_unstage};


int cz_backend_choose(cz_backend_ops *out, cz_backend_choice want, cz_cuda_device_list *list,
                      char *err, size_t errlen)
{
    bool gpu = cz_cuda_available();
    if (want == CZ_BACKEND_ONLY_CPU || (want == CZ_BACKEND_AUTO && !gpu && list->n == 0)) {
        *out = cz_backend_cpu;
        return CZ_OK;
    }
    if (!gpu) {
#ifdef CZ_HAVE_CUDA
        cz_msgf(err, errlen, "this machine has no CUDA device");
#else
        cz_msgf(err, errlen, "this build has no CUDA back end");
#endif
        return CZ_ERR_UNSUPPORTED;
    }
    int rc = cz_cuda_device_list_check(list, err, errlen);
    if (rc != CZ_OK)
        return rc;
    *out = cz_backend_cuda;
    out->ctx = list;
    return CZ_OK;
}
