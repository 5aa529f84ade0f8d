/* The Prometheus text of /metrics and the gRPC GetMetrics call, with the
 * stage-duration histograms kept across scrapes (contract in cuzk/http.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "util/strbuf.h"

/* Upper bounds (seconds) of the duration buckets; +Inf follows. */
static const double BUCKETS[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                 2.5,   5,     10,   30,    60,   120, 300,  600};
#define N_BUCKETS  (sizeof BUCKETS / sizeof BUCKETS[0])
#define MAX_STAGES 8

typedef struct {
    char name[32];
    uint64_t bucket[N_BUCKETS]; /* not cumulative: events in (prev, le] */
    uint64_t count;
    double sum;
} stage_hist;

struct cz_metrics {
    pthread_mutex_t mu;
    stage_hist stages[MAX_STAGES];
    unsigned n_stages;
    uint64_t gaps;
    bool have_last; /* the last event counted, to find where new ones start */
    uint64_t last_job;
    uint32_t last_partition;
    char last_stage[32];
    cz_timeline_event *ev; /* CZ_METRICS_WINDOW events of scratch */
};

int cz_metrics_new(cz_metrics **out)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    cz_metrics *m = calloc(1, sizeof *m);
    if (m == NULL)
        return CZ_ERR_NOMEM;
    m->ev = malloc(CZ_METRICS_WINDOW * sizeof *m->ev);
    if (m->ev == NULL) {
        free(m);
        return CZ_ERR_NOMEM;
    }
    pthread_mutex_init(&m->mu, NULL);
    /* the engine's stages first, so their series exist from the start */
    static const char *const known[] = {"synth", "prove_start", "prove_finish"};
    for (unsigned i = 0; i < 3; i++)
        snprintf(m->stages[i].name, sizeof m->stages[i].name, "%s", known[i]);
    m->n_stages = 3;
    *out = m;
    return CZ_OK;
}

void cz_metrics_free(cz_metrics *m)
{
    if (m == NULL)
        return;
    pthread_mutex_destroy(&m->mu);
    free(m->ev);
    free(m);
}

static bool same_event(const cz_metrics *m, const cz_timeline_event *ev)
{
    return ev->job_seq == m->last_job && ev->partition == m->last_partition &&
           strcmp(ev->stage ? ev->stage : "", m->last_stage) == 0;
}

static void count_event(cz_metrics *m, const cz_timeline_event *ev)
{
    const char *name = ev->stage ? ev->stage : "?";
    stage_hist *h = NULL;
    for (unsigned i = 0; i < m->n_stages; i++)
        if (strcmp(m->stages[i].name, name) == 0)
            h = &m->stages[i];
    if (h == NULL) {
        if (m->n_stages == MAX_STAGES)
            return; /* an engine with more stages than we expect */
        h = &m->stages[m->n_stages++];
        snprintf(h->name, sizeof h->name, "%s", name);
    }
    double s = (ev->end_ms - ev->start_ms) * 1e-3;
    if (!(s >= 0))
        s = 0;
    h->count++;
    h->sum += s;
    for (size_t k = 0; k < N_BUCKETS; k++)
        if (s <= BUCKETS[k]) {
            h->bucket[k]++;
            break;
        }
}

/* Counts the events that appeared since the last call.  A partition's
 * stage runs once, so (job, partition, stage) names an event. */
static void consume_events(cz_metrics *m, cz_engine *e)
{
    size_t n = cz_engine_timeline(e, m->ev, CZ_METRICS_WINDOW);
    size_t start = 0;
    if (m->have_last) {
        size_t i = n;
        while (i > 0 && !same_event(m, &m->ev[i - 1]))
            i--;
        if (i > 0)
            start = i;
        else if (n > 0)
            m->gaps++; /* the last one counted has left the window */
    }
    for (size_t i = start; i < n; i++)
        count_event(m, &m->ev[i]);
    if (n > 0) {
        const cz_timeline_event *last = &m->ev[n - 1];
        m->have_last = true;
        m->last_job = last->job_seq;
        m->last_partition = last->partition;
        snprintf(m->last_stage, sizeof m->last_stage, "%s", last->stage ? last->stage : "");
    }
}

/* A Prometheus label value: backslash, quote and newline escaped. */
static void label_value(cz_strbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            cz_strbuf_puts(b, "\\\\");
        else if (*s == '"')
            cz_strbuf_puts(b, "\\\"");
        else if (*s == '\n')
            cz_strbuf_puts(b, "\\n");
        else
            cz_strbuf_put(b, s, 1);
    }
}

static void family(cz_strbuf *b, const char *name, const char *type, const char *help)
{
    cz_strbuf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(cz_strbuf *b, const char *name, const char *label, const char *value, uint64_t v)
{
    cz_strbuf_puts(b, name);
    if (label) {
        cz_strbuf_printf(b, "{%s=\"", label);
        label_value(b, value);
        cz_strbuf_puts(b, "\"}");
    }
    cz_strbuf_printf(b, " %llu\n", (unsigned long long)v);
}

/* A sample of a per-kind family: name{kind="...",label="value"} (label
 * NULL: the kind alone). */
static void kind_sample(cz_strbuf *b, const char *name, const char *kind, const char *label,
                        const char *value, uint64_t v)
{
    cz_strbuf_printf(b, "%s{kind=\"", name);
    label_value(b, kind);
    if (label) {
        cz_strbuf_printf(b, "\",%s=\"", label);
        label_value(b, value);
    }
    cz_strbuf_printf(b, "\"} %llu\n", (unsigned long long)v);
}

/* The per-kind figures (cz_engine_kind_status), one family each. */
static void kinds(cz_strbuf *b, const cz_engine_status *s)
{
    const cz_engine_kind_status *k = s->kinds;
    family(b, "cuzk_kind_enabled", "gauge", "1 if jobs of the kind are accepted, else 0.");
    for (int i = 0; i < CZ_JOB_KINDS; i++)
        kind_sample(b, "cuzk_kind_enabled", k[i].name, NULL, NULL, k[i].enabled);
    family(b, "cuzk_kind_jobs_submitted_total", "counter", "Jobs submitted, by kind.");
    for (int i = 0; i < CZ_JOB_KINDS; i++)
        kind_sample(b, "cuzk_kind_jobs_submitted_total", k[i].name, NULL, NULL,
                    k[i].jobs_submitted);
    family(b, "cuzk_kind_jobs_total", "counter", "Finished jobs by kind and outcome.");
    for (int i = 0; i < CZ_JOB_KINDS; i++) {
        kind_sample(b, "cuzk_kind_jobs_total", k[i].name, "outcome", "completed",
                    k[i].jobs_completed);
        kind_sample(b, "cuzk_kind_jobs_total", k[i].name, "outcome", "failed", k[i].jobs_failed);
        kind_sample(b, "cuzk_kind_jobs_total", k[i].name, "outcome", "cancelled",
                    k[i].jobs_cancelled);
    }
    family(b, "cuzk_kind_partitions_proved_total", "counter", "Partitions proved, by kind.");
    for (int i = 0; i < CZ_JOB_KINDS; i++)
        kind_sample(b, "cuzk_kind_partitions_proved_total", k[i].name, NULL, NULL,
                    k[i].partitions_proved);
    family(b, "cuzk_kind_jobs_unfinished", "gauge", "Unfinished jobs by kind and state.");
    for (int i = 0; i < CZ_JOB_KINDS; i++) {
        kind_sample(b, "cuzk_kind_jobs_unfinished", k[i].name, "state", "queued",
                    k[i].jobs_queued);
        kind_sample(b, "cuzk_kind_jobs_unfinished", k[i].name, "state", "running",
                    k[i].jobs_running);
    }
    family(b, "cuzk_kind_partitions_unfinished", "gauge",
           "Partitions of unfinished jobs by kind: waiting for synthesis, or in flight.");
    for (int i = 0; i < CZ_JOB_KINDS; i++) {
        kind_sample(b, "cuzk_kind_partitions_unfinished", k[i].name, "state", "waiting",
                    k[i].partitions_waiting);
        kind_sample(b, "cuzk_kind_partitions_unfinished", k[i].name, "state", "in_flight",
                    k[i].partitions_in_flight);
    }
}

/* A sample of a per-device family: name{device="N"[,class="..."]}. */
static void dev_sample(cz_strbuf *b, const char *name, int ordinal, const char *cls, uint64_t v)
{
    cz_strbuf_printf(b, "%s{device=\"%d\"", name, ordinal);
    if (cls) {
        cz_strbuf_puts(b, ",class=\"");
        label_value(b, cls);
        cz_strbuf_puts(b, "\"");
    }
    cz_strbuf_printf(b, "} %llu\n", (unsigned long long)v);
}

/* The same with a value in seconds. */
static void dev_sample_f(cz_strbuf *b, const char *name, int ordinal, double v)
{
    cz_strbuf_printf(b, "%s{device=\"%d\"} %.6f\n", name, ordinal, v);
}

/* The GPUs' memory accounts (cz_engine_device_info), one family each;
 * nothing for the CPU back end. */
static void devices(cz_strbuf *b, const cz_engine_status *s)
{
    static const struct {
        const char *name, *help;
        size_t off;
    } f[] = {
        {"cuzk_gpu_memory_total_bytes", "Device memory.",
         offsetof(cz_engine_device_info, vram_total)},
        {"cuzk_gpu_memory_free_bytes", "Device memory free now (all processes).",
         offsetof(cz_engine_device_info, vram_free)},
        {"cuzk_gpu_memory_budget_bytes", "Device memory budget.",
         offsetof(cz_engine_device_info, mem.total)},
        {"cuzk_gpu_memory_reserved_bytes", "Bytes reserved from the device budget.",
         offsetof(cz_engine_device_info, mem.reserved)},
        {"cuzk_gpu_memory_peak_reserved_bytes", "Highest reserved device bytes.",
         offsetof(cz_engine_device_info, mem.peak_reserved)},
        {"cuzk_gpu_memory_allocated_bytes", "Bytes of live device buffers.",
         offsetof(cz_engine_device_info, mem.allocated)},
        {"cuzk_gpu_memory_peak_allocated_bytes", "Highest live device bytes.",
         offsetof(cz_engine_device_info, mem.peak_allocated)},
        {"cuzk_gpu_memory_waiters", "Device reservations waiting.",
         offsetof(cz_engine_device_info, mem.waiters)},
    };
    bool any = false;
    for (unsigned d = 0; d < s->n_devices; d++)
        any |= s->devices[d].info.gpu;
    if (!any)
        return;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        family(b, f[i].name, "gauge", f[i].help);
        for (unsigned d = 0; d < s->n_devices; d++) {
            const cz_engine_device_info *di = &s->devices[d].info;
            uint64_t v;
            memcpy(&v, (const char *)di + f[i].off, sizeof v);
            if (di->gpu)
                dev_sample(b, f[i].name, di->ordinal, NULL, v);
        }
    }
    family(b, "cuzk_gpu_busy", "gauge", "1 while a partition's prove_start holds the device.");
    for (unsigned d = 0; d < s->n_devices; d++)
        if (s->devices[d].info.gpu)
            dev_sample(b, "cuzk_gpu_busy", s->devices[d].info.ordinal, NULL,
                       s->devices[d].busy_job[0] != 0);
    family(b, "cuzk_gpu_streamed_bytes_total", "counter",
           "Bases the device's proofs streamed from host memory.");
    for (unsigned d = 0; d < s->n_devices; d++)
        if (s->devices[d].info.gpu)
            dev_sample(b, "cuzk_gpu_streamed_bytes_total", s->devices[d].info.ordinal, NULL,
                       s->devices[d].link_bytes);
    family(b, "cuzk_gpu_link_busy_seconds_total", "counter",
           "The copy engine's busy time moving them (bytes / seconds: the link's rate).");
    for (unsigned d = 0; d < s->n_devices; d++)
        if (s->devices[d].info.gpu)
            dev_sample_f(b, "cuzk_gpu_link_busy_seconds_total", s->devices[d].info.ordinal,
                         s->devices[d].link_seconds);
    family(b, "cuzk_gpu_buffer_bytes", "gauge", "Bytes of live device buffers, by class.");
    for (unsigned d = 0; d < s->n_devices; d++)
        for (int k = 0; k < CZ_BUF__COUNT && s->devices[d].info.gpu; k++)
            dev_sample(b, "cuzk_gpu_buffer_bytes", s->devices[d].info.ordinal,
                       cz_buf_class_name((cz_buf_class)k),
                       s->devices[d].info.mem.cls[k].live_bytes);
    family(b, "cuzk_gpu_buffer_high_water_bytes", "gauge",
           "Highest live device bytes, by class.");
    for (unsigned d = 0; d < s->n_devices; d++)
        for (int k = 0; k < CZ_BUF__COUNT && s->devices[d].info.gpu; k++)
            dev_sample(b, "cuzk_gpu_buffer_high_water_bytes", s->devices[d].info.ordinal,
                       cz_buf_class_name((cz_buf_class)k),
                       s->devices[d].info.mem.cls[k].high_water_bytes);
}

/* The cached circuits' device memory plans (cz_engine_circuit_plans):
 * name{device="N",circuit="ID"} per figure; nothing without plans. */
static void plans(cz_strbuf *b, cz_engine *e)
{
    enum { MAX_C = 64 };
    cz_engine_circuit_info *ci = malloc(MAX_C * sizeof *ci);
    cz_engine_plan *pl = malloc(CZ_ENGINE_MAX_DEVICES * sizeof *pl);
    size_t nc = ci && pl ? cz_engine_circuits(e, ci, MAX_C) : 0;
    nc = nc < MAX_C ? nc : MAX_C;
    static const struct {
        const char *name, *help;
        size_t off;
    } f[] = {{"cuzk_gpu_plan_kept_bytes",
              "Device bytes a circuit's plan keeps there (resident arrays, matrices, tables).",
              offsetof(cz_engine_plan, kept_bytes)},
             {"cuzk_gpu_plan_proof_bytes", "Device bytes one proof of the plan reserves.",
              offsetof(cz_engine_plan, proof_bytes)},
             {"cuzk_gpu_plan_streamed_bytes",
              "Bytes of bases and matrices one proof of the plan streams to the device.",
              offsetof(cz_engine_plan, streamed_bytes)}};
    bool family_done[3] = {false, false, false};
    for (size_t c = 0; c < nc; c++) {
        size_t np = cz_engine_circuit_plans(e, ci[c].id, pl, CZ_ENGINE_MAX_DEVICES);
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
            for (size_t k = 0; k < np; k++) {
                if (!family_done[i]) {
                    family(b, f[i].name, "gauge", f[i].help);
                    family_done[i] = true;
                }
                uint64_t v;
                memcpy(&v, (const char *)&pl[k] + f[i].off, sizeof v);
                cz_strbuf_printf(b, "%s{device=\"%d\",circuit=\"", f[i].name, pl[k].ordinal);
                label_value(b, ci[c].id);
                cz_strbuf_printf(b, "\"} %llu\n", (unsigned long long)v);
            }
        }
    }
    free(ci);
    free(pl);
}

static void one(cz_strbuf *b, const char *name, const char *type, const char *help, uint64_t v)
{
    family(b, name, type, help);
    sample(b, name, NULL, NULL, v);
}

static void histograms(cz_strbuf *b, cz_metrics *m)
{
    family(b, "cuzk_stage_duration_seconds", "histogram",
           "Duration of partition stages (synth, prove_start, prove_finish).");
    for (unsigned i = 0; i < m->n_stages; i++) {
        const stage_hist *h = &m->stages[i];
        uint64_t cum = 0;
        for (size_t k = 0; k < N_BUCKETS; k++) {
            cum += h->bucket[k];
            cz_strbuf_puts(b, "cuzk_stage_duration_seconds_bucket{stage=\"");
            label_value(b, h->name);
            cz_strbuf_printf(b, "\",le=\"%g\"} %llu\n", BUCKETS[k], (unsigned long long)cum);
        }
        cz_strbuf_puts(b, "cuzk_stage_duration_seconds_bucket{stage=\"");
        label_value(b, h->name);
        cz_strbuf_printf(b, "\",le=\"+Inf\"} %llu\n", (unsigned long long)h->count);
        cz_strbuf_puts(b, "cuzk_stage_duration_seconds_sum{stage=\"");
        label_value(b, h->name);
        cz_strbuf_printf(b, "\"} %.6f\n", h->sum);
        cz_strbuf_puts(b, "cuzk_stage_duration_seconds_count{stage=\"");
        label_value(b, h->name);
        cz_strbuf_printf(b, "\"} %llu\n", (unsigned long long)h->count);
    }
    one(b, "cuzk_stage_timeline_gaps_total", "counter",
        "Scrapes that found more new timeline events than the window holds (some went uncounted).",
        m->gaps);
}

int cz_metrics_text(cz_engine *e, cz_metrics *m, char **out)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (e == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_engine_status s;
    cz_engine_status_get(e, &s);
    cz_strbuf b;
    cz_strbuf_init(&b);

    family(&b, "cuzk_jobs_total", "counter", "Finished jobs by outcome.");
    sample(&b, "cuzk_jobs_total", "outcome", "completed", s.jobs_completed);
    sample(&b, "cuzk_jobs_total", "outcome", "failed", s.jobs_failed);
    sample(&b, "cuzk_jobs_total", "outcome", "cancelled", s.jobs_cancelled);
    one(&b, "cuzk_jobs_submitted_total", "counter", "Jobs submitted.", s.jobs_submitted);
    one(&b, "cuzk_proofs_total", "counter", "Partitions proved.", s.partitions_proved);
    family(&b, "cuzk_jobs_unfinished", "gauge", "Unfinished jobs by state.");
    sample(&b, "cuzk_jobs_unfinished", "state", "queued", s.jobs_queued);
    sample(&b, "cuzk_jobs_unfinished", "state", "running", s.jobs_running);
    kinds(&b, &s);
    family(&b, "cuzk_queue_depth", "gauge", "Partitions waiting for a stage.");
    sample(&b, "cuzk_queue_depth", "stage", "prove", s.prove_queue);
    sample(&b, "cuzk_queue_depth", "stage", "final", s.final_queue);
    family(&b, "cuzk_workers_busy", "gauge", "Workers at work, by stage.");
    sample(&b, "cuzk_workers_busy", "stage", "synth", s.synth_busy);
    sample(&b, "cuzk_workers_busy", "stage", "prove", s.prove_busy);
    sample(&b, "cuzk_workers_busy", "stage", "final", s.final_busy);
    family(&b, "cuzk_workers", "gauge", "Workers, by stage.");
    sample(&b, "cuzk_workers", "stage", "synth", s.synth_workers);
    sample(&b, "cuzk_workers", "stage", "prove", s.prove_workers);
    sample(&b, "cuzk_workers", "stage", "final", s.finalizers);
    one(&b, "cuzk_circuits_cached", "gauge", "Circuits in the cache.", s.circuits_cached);
    one(&b, "cuzk_partitions_unfinished", "gauge", "Unfinished partitions of unfinished jobs.",
        s.partitions_unfinished);
    one(&b, "cuzk_jobs_limit", "gauge", "Unfinished jobs accepted at most (max_queued_jobs).",
        s.max_jobs);
    one(&b, "cuzk_partitions_limit", "gauge",
        "Unfinished partitions accepted at most (max_queued_partitions).", s.max_partitions);
    one(&b, "cuzk_watches", "gauge", "Calls awaiting a job (AwaitProof, Prove).", s.watches);
    one(&b, "cuzk_request_pool_bytes", "gauge",
        "The budget's request pool, for job inputs and requests being decoded.", s.request_pool);
    one(&b, "cuzk_request_pool_used_bytes", "gauge", "Bytes of the request pool in use.",
        s.request_used);

    one(&b, "cuzk_memory_budget_bytes", "gauge", "Memory budget.", s.mem.total);
    one(&b, "cuzk_memory_reserved_bytes", "gauge", "Bytes reserved from the budget.",
        s.mem.reserved);
    one(&b, "cuzk_memory_peak_reserved_bytes", "gauge", "Highest reserved bytes.",
        s.mem.peak_reserved);
    one(&b, "cuzk_memory_tracked_bytes", "gauge", "Bytes of live tracked buffers.",
        s.mem.allocated);
    one(&b, "cuzk_memory_peak_tracked_bytes", "gauge", "Highest tracked bytes.",
        s.mem.peak_allocated);
    one(&b, "cuzk_memory_reservations", "gauge", "Live reservations.", s.mem.reservations);
    one(&b, "cuzk_memory_waiters", "gauge", "Reservations waiting for memory.", s.mem.waiters);
    family(&b, "cuzk_buffer_bytes", "gauge", "Bytes of live buffers, by class.");
    for (int k = 0; k < CZ_BUF__COUNT; k++)
        sample(&b, "cuzk_buffer_bytes", "class", cz_buf_class_name((cz_buf_class)k),
               s.mem.cls[k].live_bytes);
    family(&b, "cuzk_buffer_live", "gauge", "Live buffers, by class.");
    for (int k = 0; k < CZ_BUF__COUNT; k++)
        sample(&b, "cuzk_buffer_live", "class", cz_buf_class_name((cz_buf_class)k),
               s.mem.cls[k].live_count);
    family(&b, "cuzk_buffer_high_water_bytes", "gauge", "Highest live bytes, by class.");
    for (int k = 0; k < CZ_BUF__COUNT; k++)
        sample(&b, "cuzk_buffer_high_water_bytes", "class", cz_buf_class_name((cz_buf_class)k),
               s.mem.cls[k].high_water_bytes);
    family(&b, "cuzk_buffer_allocs_total", "counter", "Buffers allocated, by class.");
    for (int k = 0; k < CZ_BUF__COUNT; k++)
        sample(&b, "cuzk_buffer_allocs_total", "class", cz_buf_class_name((cz_buf_class)k),
               s.mem.cls[k].total_allocs);
    devices(&b, &s);
    plans(&b, e);
    one(&b, "cuzk_rss_bytes", "gauge", "Resident set size.", s.rss);
    one(&b, "cuzk_untracked_rss_bytes", "gauge", "Resident set size minus tracked bytes.",
        s.untracked);
    one(&b, "cuzk_peak_rss_bytes", "gauge", "Highest sampled resident set size.", s.peak_rss);
    one(&b, "cuzk_peak_untracked_rss_bytes", "gauge", "Highest sampled untracked bytes.",
        s.peak_untracked);

    if (m) {
        pthread_mutex_lock(&m->mu);
        consume_events(m, e);
        histograms(&b, m);
        pthread_mutex_unlock(&m->mu);
    }
    *out = cz_strbuf_take(&b, NULL);
    return *out ? CZ_OK : CZ_ERR_NOMEM;
}
