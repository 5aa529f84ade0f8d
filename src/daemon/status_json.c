/* The /status document (contract in cuzk/http.h). */
#include <stdlib.h>
#include <time.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "util/json_write.h"
#include "util/clock.h"

static void busy_total(cz_jw *w, const char *key, uint64_t busy, uint64_t total)
{
    cz_jw_object(w, key);
    cz_jw_u64(w, "busy", busy);
    cz_jw_u64(w, "total", total);
    cz_jw_end(w);
}

/* "classes": per buffer class, the tracker's counters (host or device). */
static void classes_json(cz_jw *w, const cz_buf_class_stats cls[CZ_BUF__COUNT])
{
    cz_jw_object(w, "classes");
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        const cz_buf_class_stats *c = &cls[k];
        cz_jw_object(w, cz_buf_class_name((cz_buf_class)k));
        cz_jw_u64(w, "live_count", c->live_count);
        cz_jw_u64(w, "live_bytes", c->live_bytes);
        cz_jw_u64(w, "high_water", c->high_water_bytes);
        cz_jw_u64(w, "allocs", c->total_allocs);
        cz_jw_u64(w, "frees", c->total_frees);
        cz_jw_u64(w, "alloc_bytes", c->total_alloc_bytes);
        cz_jw_u64(w, "free_bytes", c->total_free_bytes);
        cz_jw_end(w);
    }
    cz_jw_end(w);
}

static void memory_json(cz_jw *w, const cz_engine_status *s)
{
    cz_jw_object(w, "memory");
    cz_jw_u64(w, "budget", s->mem.total);
    cz_jw_u64(w, "reserved", s->mem.reserved);
    cz_jw_u64(w, "peak_reserved", s->mem.peak_reserved);
    cz_jw_u64(w, "allocated", s->mem.allocated);
    cz_jw_u64(w, "peak_allocated", s->mem.peak_allocated);
    cz_jw_u64(w, "reservations", s->mem.reservations);
    cz_jw_u64(w, "waiters", s->mem.waiters);
    cz_jw_u64(w, "request_pool", s->request_pool);
    cz_jw_u64(w, "request_pool_used", s->request_used);
    cz_jw_u64(w, "rss", s->rss);
    cz_jw_u64(w, "untracked", s->untracked);
    cz_jw_u64(w, "peak_rss", s->peak_rss);
    cz_jw_u64(w, "peak_untracked", s->peak_untracked);
    classes_json(w, s->mem.cls);
    cz_jw_end(w);
}

/* The back end's devices: name, the job holding it, and for a GPU its
 * memory account by class. */
static void devices_json(cz_jw *w, const cz_engine_status *s)
{
    cz_jw_array(w, "devices");
    for (unsigned d = 0; d < s->n_devices; d++) {
        const cz_engine_device_info *di = &s->devices[d].info;
        cz_jw_object(w, NULL);
        cz_jw_str(w, "kind", di->gpu ? "gpu" : "cpu");
        if (di->gpu)
            cz_jw_u64(w, "ordinal", (uint64_t)di->ordinal);
        else
            cz_jw_null(w, "ordinal");
        cz_jw_str(w, "name", di->name);
        if (s->devices[d].busy_job[0]) {
            cz_jw_str(w, "busy_job", s->devices[d].busy_job);
            cz_jw_str(w, "busy_label", s->devices[d].busy_label);
            cz_jw_str(w, "busy_kind", cz_job_kind_name(s->devices[d].busy_kind));
        } else {
            cz_jw_null(w, "busy_job");
            cz_jw_null(w, "busy_label");
            cz_jw_null(w, "busy_kind");
        }
        if (di->gpu) {
            cz_jw_u64(w, "streamed_bytes", s->devices[d].link_bytes);
            cz_jw_f64(w, "link_busy_seconds", s->devices[d].link_seconds);
            cz_jw_object(w, "memory");
            cz_jw_u64(w, "total", di->vram_total);
            cz_jw_u64(w, "free", di->vram_free);
            cz_jw_u64(w, "budget", di->mem.total);
            cz_jw_u64(w, "reserved", di->mem.reserved);
            cz_jw_u64(w, "peak_reserved", di->mem.peak_reserved);
            cz_jw_u64(w, "allocated", di->mem.allocated);
            cz_jw_u64(w, "peak_allocated", di->mem.peak_allocated);
            cz_jw_u64(w, "reservations", di->mem.reservations);
            cz_jw_u64(w, "waiters", di->mem.waiters);
            classes_json(w, di->mem.cls);
            cz_jw_end(w);
        }
        cz_jw_end(w);
    }
    cz_jw_end(w);
}

static void kinds_json(cz_jw *w, const cz_engine_status *s)
{
    cz_jw_object(w, "kinds");
    for (int i = 0; i < CZ_JOB_KINDS; i++) {
        const cz_engine_kind_status *k = &s->kinds[i];
        cz_jw_object(w, k->name);
        cz_jw_bool(w, "enabled", k->enabled);
        cz_jw_u64(w, "queued", k->jobs_queued);
        cz_jw_u64(w, "running", k->jobs_running);
        cz_jw_u64(w, "partitions_waiting", k->partitions_waiting);
        cz_jw_u64(w, "partitions_in_flight", k->partitions_in_flight);
        cz_jw_u64(w, "submitted", k->jobs_submitted);
        cz_jw_u64(w, "completed", k->jobs_completed);
        cz_jw_u64(w, "failed", k->jobs_failed);
        cz_jw_u64(w, "cancelled", k->jobs_cancelled);
        cz_jw_u64(w, "partitions_proved", k->partitions_proved);
        cz_jw_end(w);
    }
    cz_jw_end(w);
}

static void live_jobs_json(cz_jw *w, const cz_engine_job_info *jobs, size_t n, size_t total)
{
    cz_jw_object(w, "live_jobs");
    cz_jw_u64(w, "count", total);
    cz_jw_array(w, "jobs");
    for (size_t i = 0; i < n; i++) {
        const cz_engine_job_info *j = &jobs[i];
        cz_jw_object(w, NULL);
        cz_jw_str(w, "id", j->id);
        cz_jw_str(w, "label", j->label);
        cz_jw_u64(w, "job", j->seq);
        cz_jw_str(w, "kind", cz_job_kind_name(j->kind));
        cz_jw_str(w, "circuit", j->circuit);
        cz_jw_str(w, "priority", cz_priority_name(j->priority));
        cz_jw_str(w, "state", cz_job_state_name(j->state));
        cz_jw_bool(w, "ending", j->ending);
        cz_jw_u64(w, "partitions", j->partitions);
        cz_jw_u64(w, "partitions_done", j->partitions_done);
        cz_jw_u64(w, "partitions_in_flight", j->partitions_in_flight);
        cz_jw_u64(w, "partitions_waiting", j->partitions_waiting);
        cz_jw_f64(w, "age_ms", j->age_ms);
        cz_jw_f64(w, "queue_ms", j->queue_ms);
        cz_jw_end(w);
    }
    cz_jw_end(w);
    cz_jw_end(w);
}

int cz_status_json(cz_engine *e, const cz_http_info *info, char **out)
{
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (e == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_buf_info *bufs = malloc(CZ_HTTP_MAX_BUFFERS * sizeof *bufs);
    cz_timeline_event *ev = malloc(CZ_HTTP_MAX_EVENTS * sizeof *ev);
    cz_engine_circuit_info *circ = malloc(CZ_HTTP_MAX_CIRCUITS * sizeof *circ);
    cz_engine_job_info *jobs = malloc(CZ_HTTP_MAX_JOBS * sizeof *jobs);
    if (bufs == NULL || ev == NULL || circ == NULL || jobs == NULL) {
        free(bufs);
        free(ev);
        free(circ);
        free(jobs);
        return CZ_ERR_NOMEM;
    }
    cz_engine_status s;
    cz_engine_status_get(e, &s);
    size_t n_live = cz_budget_live_buffers(cz_engine_budget(e), bufs, CZ_HTTP_MAX_BUFFERS);
    size_t n_shown = n_live < CZ_HTTP_MAX_BUFFERS ? n_live : CZ_HTTP_MAX_BUFFERS;
    size_t n_ev = cz_engine_timeline(e, ev, CZ_HTTP_MAX_EVENTS);
    size_t n_circ = cz_engine_circuits(e, circ, CZ_HTTP_MAX_CIRCUITS);
    if (n_circ > CZ_HTTP_MAX_CIRCUITS)
        n_circ = CZ_HTTP_MAX_CIRCUITS;
    size_t n_jobs = cz_engine_jobs(e, jobs, CZ_HTTP_MAX_JOBS);
    size_t jobs_shown = n_jobs < CZ_HTTP_MAX_JOBS ? n_jobs : CZ_HTTP_MAX_JOBS;

    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_jw w;
    cz_jw_init(&w, &b);
    cz_jw_object(&w, NULL);
    cz_jw_str(&w, "version", info ? info->version : NULL);
    cz_jw_str(&w, "grpc_listen", info ? info->listen : NULL);
    if (info && info->start_time_s > 0) {
        cz_jw_f64(&w, "start_time", info->start_time_s);
        cz_jw_f64(&w, "uptime_s", cz_clock_s(CLOCK_REALTIME) - info->start_time_s);
    } else {
        cz_jw_null(&w, "start_time");
        cz_jw_null(&w, "uptime_s");
    }

    cz_jw_object(&w, "jobs");
    cz_jw_u64(&w, "submitted", s.jobs_submitted);
    cz_jw_u64(&w, "completed", s.jobs_completed);
    cz_jw_u64(&w, "failed", s.jobs_failed);
    cz_jw_u64(&w, "cancelled", s.jobs_cancelled);
    cz_jw_u64(&w, "queued", s.jobs_queued);
    cz_jw_u64(&w, "running", s.jobs_running);
    cz_jw_u64(&w, "partitions_proved", s.partitions_proved);
    cz_jw_u64(&w, "partitions_unfinished", s.partitions_unfinished);
    cz_jw_u64(&w, "max_jobs", s.max_jobs);
    cz_jw_u64(&w, "max_partitions", s.max_partitions);
    cz_jw_u64(&w, "watches", s.watches);
    cz_jw_end(&w);
    kinds_json(&w, &s);
    live_jobs_json(&w, jobs, jobs_shown, n_jobs);

    cz_jw_object(&w, "workers");
    busy_total(&w, "synthesis", s.synth_busy, s.synth_workers);
    busy_total(&w, "provers", s.prove_busy, s.prove_workers);
    busy_total(&w, "finalizers", s.final_busy, s.finalizers);
    cz_jw_end(&w);
    cz_jw_object(&w, "queues");
    cz_jw_u64(&w, "prove", s.prove_queue);
    cz_jw_u64(&w, "final", s.final_queue);
    cz_jw_end(&w);
    cz_jw_u64(&w, "circuits_cached", s.circuits_cached);
    cz_jw_array(&w, "circuits");
    for (size_t i = 0; i < n_circ; i++) {
        cz_jw_object(&w, NULL);
        cz_jw_str(&w, "id", circ[i].id);
        cz_jw_str(&w, "kind", cz_job_kind_name(circ[i].kind));
        cz_jw_u64(&w, "bytes", circ[i].bytes);
        cz_jw_u64(&w, "refs", circ[i].refs);
        cz_jw_bool(&w, "registered", circ[i].registered);
        cz_jw_bool(&w, "loading", circ[i].loading);
        cz_jw_f64(&w, "idle_ms", circ[i].idle_ms);
        /* its device memory plan on each GPU that made one */
        cz_engine_plan pl[CZ_ENGINE_MAX_DEVICES];
        size_t np = cz_engine_circuit_plans(e, circ[i].id, pl, CZ_ENGINE_MAX_DEVICES);
        cz_jw_array(&w, "plans");
        for (size_t k = 0; k < np; k++) {
            cz_jw_object(&w, NULL);
            cz_jw_u64(&w, "device", (uint64_t)pl[k].ordinal);
            cz_jw_u64(&w, "kept_bytes", pl[k].kept_bytes);
            cz_jw_u64(&w, "proof_bytes", pl[k].proof_bytes);
            cz_jw_u64(&w, "streamed_bytes", pl[k].streamed_bytes);
            cz_jw_str(&w, "plan", pl[k].text);
            cz_jw_end(&w);
        }
        cz_jw_end(&w);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);

    memory_json(&w, &s);
    devices_json(&w, &s);

    cz_jw_object(&w, "live_buffers");
    cz_jw_u64(&w, "count", n_live);
    cz_jw_array(&w, "buffers");
    for (size_t i = 0; i < n_shown; i++) {
        cz_jw_object(&w, NULL);
        cz_jw_str(&w, "class", cz_buf_class_name(bufs[i].cls));
        cz_jw_u64(&w, "bytes", bufs[i].bytes);
        if (bufs[i].tag.job)
            cz_jw_u64(&w, "job", bufs[i].tag.job);
        else
            cz_jw_null(&w, "job");
        if (bufs[i].tag.partition != UINT32_MAX)
            cz_jw_u64(&w, "partition", bufs[i].tag.partition);
        else
            cz_jw_null(&w, "partition");
        cz_jw_str(&w, "stage", bufs[i].tag.stage);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);
    cz_jw_end(&w);

    cz_jw_array(&w, "timeline");
    for (size_t i = 0; i < n_ev; i++) {
        cz_jw_object(&w, NULL);
        cz_jw_u64(&w, "job", ev[i].job_seq);
        cz_jw_u64(&w, "partition", ev[i].partition);
        cz_jw_str(&w, "stage", ev[i].stage);
        cz_jw_f64(&w, "start_ms", ev[i].start_ms);
        cz_jw_f64(&w, "end_ms", ev[i].end_ms);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);
    cz_jw_end(&w);
    free(bufs);
    free(ev);
    free(circ);
    free(jobs);
    *out = cz_strbuf_take(&b, NULL);
    return *out ? CZ_OK : CZ_ERR_NOMEM;
}
