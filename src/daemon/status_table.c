/* The status table (see status_table.h).  GetStatus's fields by message:
 * GetStatusResponse (jobs, account, memory), QueueStatus (kind),
 * BufferClassStatus (class), GPUStatus (vram), SRSStatus (circuit),
 * DevicePlan (plan). */
#include "daemon/status_table.h"

#include <stdbool.h>
#include <string.h>

/* A row's field: its type and offset, the field's size checked at compile
 * time against the type. */
#define FIELD(T, m, t, size)                                                                       \
    .type = t, .off = offsetof(T, m) + 0 * sizeof(char[sizeof(((T *)0)->m) == (size) ? 1 : -1])
#define U64(T, m)  FIELD(T, m, CZ_ST_U64, 8)
#define U32(T, m)  FIELD(T, m, CZ_ST_U32, 4)
#define BOOL(T, m) FIELD(T, m, CZ_ST_BOOL, sizeof(bool))
#define F64(T, m)  FIELD(T, m, CZ_ST_F64, sizeof(double))
#define SET(T, m)  .type = CZ_ST_SET, .off = offsetof(T, m)

#define SECTION(name, rows, scope, gpu_scope)                                                      \
    const cz_status_section name = {rows, sizeof rows / sizeof rows[0], scope, gpu_scope}

typedef cz_engine_status engine;
typedef cz_engine_kind_status kind;
typedef cz_engine_circuit_info circuit;
typedef cz_engine_plan plan;
typedef cz_mem_snapshot account;
typedef cz_buf_class_stats cls;
typedef cz_engine_device_status device;

/* clang-format off */
static const cz_status_field jobs[] = {
    {.key = "submitted", U64(engine, jobs_submitted), .metric = "cuzk_jobs_submitted_total"},
    {.key = "completed", U64(engine, jobs_completed), .metric = "cuzk_jobs_total",
     .label = "completed", .proto = "total_proofs_completed"},
    {.key = "failed", U64(engine, jobs_failed), .metric = "cuzk_jobs_total", .label = "failed",
     .proto = "total_proofs_failed"},
    {.key = "cancelled", U64(engine, jobs_cancelled), .metric = "cuzk_jobs_total",
     .label = "cancelled", .proto = "total_proofs_cancelled"},
    {.key = "queued", U32(engine, jobs_queued), .metric = "cuzk_jobs_unfinished", .label = "queued"},
    {.key = "running", U32(engine, jobs_running), .metric = "cuzk_jobs_unfinished",
     .label = "running"},
    {.key = "partitions_proved", U64(engine, partitions_proved), .metric = "cuzk_proofs_total"},
    {.key = "partitions_unfinished", U32(engine, partitions_unfinished),
     .metric = "cuzk_partitions_unfinished"},
    {.key = "max_jobs", U32(engine, max_jobs), .metric = "cuzk_jobs_limit"},
    {.key = "max_partitions", U32(engine, max_partitions), .metric = "cuzk_partitions_limit"},
    {.key = "watches", U32(engine, watches), .metric = "cuzk_watches"},
};

static const cz_status_field kinds[] = {
    {.key = "enabled", BOOL(kind, enabled), .metric = "cuzk_kind_enabled"},
    {.key = "queued", U32(kind, jobs_queued), .metric = "cuzk_kind_jobs_unfinished",
     .label = "queued", .proto = "pending"},
    {.key = "running", U32(kind, jobs_running), .metric = "cuzk_kind_jobs_unfinished",
     .label = "running", .proto = "in_progress"},
    {.key = "partitions_waiting", U32(kind, partitions_waiting),
     .metric = "cuzk_kind_partitions_unfinished", .label = "waiting"},
    {.key = "partitions_in_flight", U32(kind, partitions_in_flight),
     .metric = "cuzk_kind_partitions_unfinished", .label = "in_flight"},
    {.key = "submitted", U64(kind, jobs_submitted), .metric = "cuzk_kind_jobs_submitted_total"},
    {.key = "completed", U64(kind, jobs_completed), .metric = "cuzk_kind_jobs_total",
     .label = "completed"},
    {.key = "failed", U64(kind, jobs_failed), .metric = "cuzk_kind_jobs_total", .label = "failed"},
    {.key = "cancelled", U64(kind, jobs_cancelled), .metric = "cuzk_kind_jobs_total",
     .label = "cancelled"},
    {.key = "partitions_proved", U64(kind, partitions_proved),
     .metric = "cuzk_kind_partitions_proved_total"},
};

static const cz_status_field workers[] = {
    {.key = "busy", .group = "synthesis", U32(engine, synth_busy), .metric = "cuzk_workers_busy",
     .label = "synth"},
    {.key = "total", .group = "synthesis", U32(engine, synth_workers), .metric = "cuzk_workers",
     .label = "synth"},
    {.key = "busy", .group = "provers", U32(engine, prove_busy), .metric = "cuzk_workers_busy",
     .label = "prove"},
    {.key = "total", .group = "provers", U32(engine, prove_workers), .metric = "cuzk_workers",
     .label = "prove"},
    {.key = "busy", .group = "finalizers", U32(engine, final_busy), .metric = "cuzk_workers_busy",
     .label = "final"},
    {.key = "total", .group = "finalizers", U32(engine, finalizers), .metric = "cuzk_workers",
     .label = "final"},
};

static const cz_status_field queues[] = {
    {.key = "prove", U32(engine, prove_queue), .metric = "cuzk_queue_depth", .label = "prove"},
    {.key = "final", U32(engine, final_queue), .metric = "cuzk_queue_depth", .label = "final"},
};

static const cz_status_field cache[] = {
    {.key = "circuits_cached", U32(engine, circuits_cached), .metric = "cuzk_circuits_cached"},
};

static const cz_status_field circuits[] = {
    {.key = "bytes", U64(circuit, bytes), .proto = "size_bytes"},
    {.key = "refs", U32(circuit, refs), .proto = "ref_count"},
    {.key = "registered", BOOL(circuit, registered)},
    {.key = "loading", BOOL(circuit, loading)},
    {.key = "idle_ms", F64(circuit, idle_ms)},
};

static const cz_status_field plans[] = {
    {.key = "kept_bytes", U64(plan, kept_bytes), .metric = "cuzk_gpu_plan_kept_bytes",
     .proto = "kept_bytes"},
    {.key = "proof_bytes", U64(plan, proof_bytes), .metric = "cuzk_gpu_plan_proof_bytes",
     .proto = "proof_bytes"},
    {.key = "streamed_bytes", U64(plan, streamed_bytes), .metric = "cuzk_gpu_plan_streamed_bytes",
     .proto = "streamed_bytes"},
};

static const cz_status_field accounts[] = {
    {.key = "budget", U64(account, total), .metric = "cuzk_memory_budget_bytes",
     .gpu_metric = "cuzk_gpu_memory_budget_bytes", .proto = "memory_budget_bytes"},
    {.key = "reserved", U64(account, reserved), .metric = "cuzk_memory_reserved_bytes",
     .gpu_metric = "cuzk_gpu_memory_reserved_bytes", .proto = "memory_reserved_bytes"},
    {.key = "peak_reserved", U64(account, peak_reserved),
     .metric = "cuzk_memory_peak_reserved_bytes",
     .gpu_metric = "cuzk_gpu_memory_peak_reserved_bytes"},
    {.key = "allocated", U64(account, allocated), .metric = "cuzk_memory_tracked_bytes",
     .gpu_metric = "cuzk_gpu_memory_allocated_bytes", .proto = "memory_tracked_bytes"},
    {.key = "peak_allocated", U64(account, peak_allocated),
     .metric = "cuzk_memory_peak_tracked_bytes",
     .gpu_metric = "cuzk_gpu_memory_peak_allocated_bytes"},
    {.key = "reservations", U64(account, reservations), .metric = "cuzk_memory_reservations"},
    {.key = "waiters", U64(account, waiters), .metric = "cuzk_memory_waiters",
     .gpu_metric = "cuzk_gpu_memory_waiters"},
};

static const cz_status_field memory[] = {
    {.key = "request_pool", U64(engine, request_pool), .metric = "cuzk_request_pool_bytes"},
    {.key = "request_pool_used", U64(engine, request_used),
     .metric = "cuzk_request_pool_used_bytes"},
    {.key = "rss", U64(engine, rss), .metric = "cuzk_rss_bytes", .proto = "rss_bytes"},
    {.key = "untracked", U64(engine, untracked), .metric = "cuzk_untracked_rss_bytes",
     .proto = "untracked_rss_bytes"},
    {.key = "peak_rss", U64(engine, peak_rss), .metric = "cuzk_peak_rss_bytes"},
    {.key = "peak_untracked", U64(engine, peak_untracked),
     .metric = "cuzk_peak_untracked_rss_bytes"},
};

static const cz_status_field classes[] = {
    {.key = "live_count", U64(cls, live_count), .metric = "cuzk_buffer_live",
     .proto = "live_count"},
    {.key = "live_bytes", U64(cls, live_bytes), .metric = "cuzk_buffer_bytes",
     .gpu_metric = "cuzk_gpu_buffer_bytes", .proto = "live_bytes"},
    {.key = "high_water", U64(cls, high_water_bytes), .metric = "cuzk_buffer_high_water_bytes",
     .gpu_metric = "cuzk_gpu_buffer_high_water_bytes", .proto = "high_water_bytes"},
    {.key = "allocs", U64(cls, total_allocs), .metric = "cuzk_buffer_allocs_total",
     .proto = "total_allocs"},
    {.key = "frees", U64(cls, total_frees), .proto = "total_frees"},
    {.key = "alloc_bytes", U64(cls, total_alloc_bytes)},
    {.key = "free_bytes", U64(cls, total_free_bytes)},
};

static const cz_status_field devices[] = {
    {SET(device, busy_job), .metric = "cuzk_gpu_busy"},
    {.key = "streamed_bytes", U64(device, link_bytes), .metric = "cuzk_gpu_streamed_bytes_total"},
    {.key = "link_busy_seconds", F64(device, link_seconds),
     .metric = "cuzk_gpu_link_busy_seconds_total"},
};

static const cz_status_field vram[] = {
    {.key = "total", U64(device, info.vram_total), .metric = "cuzk_gpu_memory_total_bytes",
     .proto = "vram_total_bytes"},
    {.key = "free", U64(device, info.vram_free), .metric = "cuzk_gpu_memory_free_bytes",
     .proto = "vram_free_bytes"},
};
/* clang-format on */

SECTION(cz_status_jobs, jobs, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE);
SECTION(cz_status_kind, kinds, CZ_SCOPE_KIND, CZ_SCOPE_KIND);
SECTION(cz_status_workers, workers, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE);
SECTION(cz_status_queues, queues, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE);
SECTION(cz_status_cache, cache, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE);
SECTION(cz_status_circuit, circuits, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE); /* no metrics */
SECTION(cz_status_plan, plans, CZ_SCOPE_PLAN, CZ_SCOPE_PLAN);
SECTION(cz_status_account, accounts, CZ_SCOPE_MEMORY, CZ_SCOPE_GPU_MEMORY);
SECTION(cz_status_memory, memory, CZ_SCOPE_ENGINE, CZ_SCOPE_ENGINE);
SECTION(cz_status_class, classes, CZ_SCOPE_CLASS, CZ_SCOPE_GPU_CLASS);
SECTION(cz_status_device, devices, CZ_SCOPE_GPU, CZ_SCOPE_GPU);
SECTION(cz_status_vram, vram, CZ_SCOPE_GPU, CZ_SCOPE_GPU);

const cz_status_section *const cz_status_sections[] = {
    &cz_status_jobs,   &cz_status_kind,    &cz_status_workers, &cz_status_queues,
    &cz_status_cache,  &cz_status_circuit, &cz_status_plan,    &cz_status_account,
    &cz_status_memory, &cz_status_class,   &cz_status_device,  &cz_status_vram,
};
const size_t cz_status_n_sections = sizeof cz_status_sections / sizeof cz_status_sections[0];

#define GAUGE   "gauge"
#define COUNTER "counter"

/* clang-format off */
const cz_metric_family cz_metric_families[] = {
    {"cuzk_jobs_total", COUNTER, "outcome",
     "Finished jobs by outcome."},
    {"cuzk_jobs_submitted_total", COUNTER, "",
     "Jobs submitted."},
    {"cuzk_proofs_total", COUNTER, "",
     "Partitions proved."},
    {"cuzk_jobs_unfinished", GAUGE, "state",
     "Unfinished jobs by state."},
    {"cuzk_kind_enabled", GAUGE, "",
     "1 if jobs of the kind are accepted, else 0."},
    {"cuzk_kind_jobs_submitted_total", COUNTER, "",
     "Jobs submitted, by kind."},
    {"cuzk_kind_jobs_total", COUNTER, "outcome",
     "Finished jobs by kind and outcome."},
    {"cuzk_kind_partitions_proved_total", COUNTER, "",
     "Partitions proved, by kind."},
    {"cuzk_kind_jobs_unfinished", GAUGE, "state",
     "Unfinished jobs by kind and state."},
    {"cuzk_kind_partitions_unfinished", GAUGE, "state",
     "Partitions of unfinished jobs by kind: waiting for synthesis, or in flight."},
    {"cuzk_queue_depth", GAUGE, "stage",
     "Partitions waiting for a stage."},
    {"cuzk_workers_busy", GAUGE, "stage",
     "Workers at work, by stage."},
    {"cuzk_workers", GAUGE, "stage",
     "Workers, by stage."},
    {"cuzk_circuits_cached", GAUGE, "",
     "Circuits in the cache."},
    {"cuzk_partitions_unfinished", GAUGE, "",
     "Unfinished partitions of unfinished jobs."},
    {"cuzk_jobs_limit", GAUGE, "",
     "Unfinished jobs accepted at most (max_queued_jobs)."},
    {"cuzk_partitions_limit", GAUGE, "",
     "Unfinished partitions accepted at most (max_queued_partitions)."},
    {"cuzk_watches", GAUGE, "",
     "Calls awaiting a job (AwaitProof, Prove)."},
    {"cuzk_request_pool_bytes", GAUGE, "",
     "The budget's request pool, for job inputs and requests being decoded."},
    {"cuzk_request_pool_used_bytes", GAUGE, "",
     "Bytes of the request pool in use."},
    {"cuzk_memory_budget_bytes", GAUGE, "",
     "Memory budget."},
    {"cuzk_memory_reserved_bytes", GAUGE, "",
     "Bytes reserved from the budget."},
    {"cuzk_memory_peak_reserved_bytes", GAUGE, "",
     "Highest reserved bytes."},
    {"cuzk_memory_tracked_bytes", GAUGE, "",
     "Bytes of live tracked buffers."},
    {"cuzk_memory_peak_tracked_bytes", GAUGE, "",
     "Highest tracked bytes."},
    {"cuzk_memory_reservations", GAUGE, "",
     "Live reservations."},
    {"cuzk_memory_waiters", GAUGE, "",
     "Reservations waiting for memory."},
    {"cuzk_buffer_bytes", GAUGE, "",
     "Bytes of live buffers, by class."},
    {"cuzk_buffer_live", GAUGE, "",
     "Live buffers, by class."},
    {"cuzk_buffer_high_water_bytes", GAUGE, "",
     "Highest live bytes, by class."},
    {"cuzk_buffer_allocs_total", COUNTER, "",
     "Buffers allocated, by class."},
    {"cuzk_gpu_memory_total_bytes", GAUGE, "",
     "Device memory."},
    {"cuzk_gpu_memory_free_bytes", GAUGE, "",
     "Device memory free now (all processes)."},
    {"cuzk_gpu_memory_budget_bytes", GAUGE, "",
     "Device memory budget."},
    {"cuzk_gpu_memory_reserved_bytes", GAUGE, "",
     "Bytes reserved from the device budget."},
    {"cuzk_gpu_memory_peak_reserved_bytes", GAUGE, "",
     "Highest reserved device bytes."},
    {"cuzk_gpu_memory_allocated_bytes", GAUGE, "",
     "Bytes of live device buffers."},
    {"cuzk_gpu_memory_peak_allocated_bytes", GAUGE, "",
     "Highest live device bytes."},
    {"cuzk_gpu_memory_waiters", GAUGE, "",
     "Device reservations waiting."},
    {"cuzk_gpu_busy", GAUGE, "",
     "1 while a partition's prove_start holds the device."},
    {"cuzk_gpu_streamed_bytes_total", COUNTER, "",
     "Bases the device's proofs streamed from host memory."},
    {"cuzk_gpu_link_busy_seconds_total", COUNTER, "",
     "The copy engine's busy time moving them (bytes / seconds: the link's rate)."},
    {"cuzk_gpu_buffer_bytes", GAUGE, "",
     "Bytes of live device buffers, by class."},
    {"cuzk_gpu_buffer_high_water_bytes", GAUGE, "",
     "Highest live device bytes, by class."},
    {"cuzk_gpu_plan_kept_bytes", GAUGE, "",
     "Device bytes a circuit's plan keeps there (resident arrays, matrices, tables)."},
    {"cuzk_gpu_plan_proof_bytes", GAUGE, "",
     "Device bytes one proof of the plan reserves."},
    {"cuzk_gpu_plan_streamed_bytes", GAUGE, "",
     "Bytes of bases and matrices one proof of the plan streams to the device."},
    {"cuzk_rss_bytes", GAUGE, "",
     "Resident set size."},
    {"cuzk_untracked_rss_bytes", GAUGE, "",
     "Resident set size minus tracked bytes."},
    {"cuzk_peak_rss_bytes", GAUGE, "",
     "Highest sampled resident set size."},
    {"cuzk_peak_untracked_rss_bytes", GAUGE, "",
     "Highest sampled untracked bytes."},
};
/* clang-format on */

const size_t cz_metric_n_families = sizeof cz_metric_families / sizeof cz_metric_families[0];

uint64_t cz_status_u64(const cz_status_field *f, const void *obj)
{
    const char *at = (const char *)obj + f->off;
    uint64_t v64;
    uint32_t v32;
    bool b;
    switch (f->type) {
    case CZ_ST_U32:
        memcpy(&v32, at, sizeof v32);
        return v32;
    case CZ_ST_BOOL:
        memcpy(&b, at, sizeof b);
        return b;
    case CZ_ST_SET:
        return at[0] != '\0';
    default:
        memcpy(&v64, at, sizeof v64);
        return v64;
    }
}

double cz_status_f64(const cz_status_field *f, const void *obj)
{
    double v;
    memcpy(&v, (const char *)obj + f->off, sizeof v);
    return v;
}
