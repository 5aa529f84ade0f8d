/* The /status document (contract in cuzk/http.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "daemon/status_table.h"
#include "util/clock.h"
#include "util/json_write.h"

static bool same(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The members of obj that section sec shows, in its order; the rows of a
 * group in an object of the group's name. */
static void fields_json(cz_jw *w, const cz_status_section *sec, const void *obj)
{
    const char *group = NULL;
    for (size_t i = 0; i < sec->n; i++) {
        const cz_status_field *f = &sec->fields[i];
        if (f->key == NULL)
            continue;
        if (!same(f->group, group)) {
            if (group)
                cz_jw_end(w);
            if (f->group)
                cz_jw_object(w, f->group);
            group = f->group;
        }
        if (f->type == CZ_ST_F64)
            cz_jw_f64(w, f->key, cz_status_f64(f, obj));
        else if (f->type == CZ_ST_BOOL)
            cz_jw_bool(w, f->key, cz_status_u64(f, obj) != 0);
        else
            cz_jw_u64(w, f->key, cz_status_u64(f, obj));
    }
    if (group)
        cz_jw_end(w);
}

/* An object key of sec's members of obj. */
static void section_json(cz_jw *w, const char *key, const cz_status_section *sec, const void *obj)
{
    cz_jw_object(w, key);
    fields_json(w, sec, obj);
    cz_jw_end(w);
}

/* "classes": per buffer class, the tracker's counters (host or device). */
static void classes_json(cz_jw *w, const cz_buf_class_stats cls[CZ_BUF__COUNT])
{
    cz_jw_object(w, "classes");
    for (int k = 0; k < CZ_BUF__COUNT; k++)
        section_json(w, cz_buf_class_name((cz_buf_class)k), &cz_status_class, &cls[k]);
    cz_jw_end(w);
}

/* "memory": the budget's account, the request pool, RSS, the classes. */
static void memory_json(cz_jw *w, const cz_engine_status *s)
{
    cz_jw_object(w, "memory");
    fields_json(w, &cz_status_account, &s->mem);
    fields_json(w, &cz_status_memory, s);
    classes_json(w, s->mem.cls);
    cz_jw_end(w);
}

/* The back end's devices: name, the job holding it, and for a GPU its
 * link's figures and memory account by class. */
static void devices_json(cz_jw *w, const cz_engine_status *s)
{
    cz_jw_array(w, "devices");
    for (unsigned d = 0; d < s->n_devices; d++) {
        const cz_engine_device_status *ds = &s->devices[d];
        const cz_engine_device_info *di = &ds->info;
        cz_jw_object(w, NULL);
        cz_jw_str(w, "kind", di->gpu ? "gpu" : "cpu");
        if (di->gpu)
            cz_jw_u64(w, "ordinal", (uint64_t)di->ordinal);
        else
            cz_jw_null(w, "ordinal");
        cz_jw_str(w, "name", di->name);
        bool busy = ds->busy_job[0] != '\0';
        cz_jw_str(w, "busy_job", busy ? ds->busy_job : NULL);
        cz_jw_str(w, "busy_label", busy ? ds->busy_label : NULL);
        cz_jw_str(w, "busy_kind", busy ? cz_job_kind_name(ds->busy_kind) : NULL);
        if (di->gpu) {
            fields_json(w, &cz_status_device, ds);
            cz_jw_object(w, "memory");
            fields_json(w, &cz_status_vram, ds);
            fields_json(w, &cz_status_account, &di->mem);
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
    for (int i = 0; i < CZ_JOB_KINDS; i++)
        section_json(w, s->kinds[i].name, &cz_status_kind, &s->kinds[i]);
    cz_jw_end(w);
}

/* The cached circuits, each with its device memory plan on each GPU that
 * made one. */
static void circuits_json(cz_jw *w, cz_engine *e, const cz_engine_circuit_info *circ, size_t n)
{
    cz_jw_array(w, "circuits");
    for (size_t i = 0; i < n; i++) {
        cz_jw_object(w, NULL);
        cz_jw_str(w, "id", circ[i].id);
        cz_jw_str(w, "kind", cz_job_kind_name(circ[i].kind));
        fields_json(w, &cz_status_circuit, &circ[i]);
        cz_engine_plan pl[CZ_ENGINE_MAX_DEVICES];
        size_t np = cz_engine_circuit_plans(e, circ[i].id, pl, CZ_ENGINE_MAX_DEVICES);
        cz_jw_array(w, "plans");
        for (size_t k = 0; k < np; k++) {
            cz_jw_object(w, NULL);
            cz_jw_u64(w, "device", (uint64_t)pl[k].ordinal);
            fields_json(w, &cz_status_plan, &pl[k]);
            cz_jw_str(w, "plan", pl[k].text);
            cz_jw_end(w);
        }
        cz_jw_end(w);
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

    section_json(&w, "jobs", &cz_status_jobs, &s);
    kinds_json(&w, &s);
    live_jobs_json(&w, jobs, jobs_shown, n_jobs);
    section_json(&w, "workers", &cz_status_workers, &s);
    section_json(&w, "queues", &cz_status_queues, &s);
    fields_json(&w, &cz_status_cache, &s);
    circuits_json(&w, e, circ, n_circ);
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
