/* The HTTP status endpoint (contract in cuzk/http.h). */
#include "cuzk/http.h"

#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "cuzk/err.h"
#include "daemon/json_out.h"

/* ------------------------------------------------------------- metrics --- */

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

/* -------------------------------------------------------------- status --- */

static double realtime_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void busy_total(cz_jw *w, const char *key, uint64_t busy, uint64_t total)
{
    cz_jw_object(w, key);
    cz_jw_u64(w, "busy", busy);
    cz_jw_u64(w, "total", total);
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
    cz_jw_u64(w, "rss", s->rss);
    cz_jw_u64(w, "untracked", s->untracked);
    cz_jw_u64(w, "peak_rss", s->peak_rss);
    cz_jw_u64(w, "peak_untracked", s->peak_untracked);
    cz_jw_object(w, "classes");
    for (int k = 0; k < CZ_BUF__COUNT; k++) {
        const cz_buf_class_stats *c = &s->mem.cls[k];
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
    if (bufs == NULL || ev == NULL || circ == NULL) {
        free(bufs);
        free(ev);
        free(circ);
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

    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_jw w;
    cz_jw_init(&w, &b);
    cz_jw_object(&w, NULL);
    cz_jw_str(&w, "version", info ? info->version : NULL);
    cz_jw_str(&w, "grpc_listen", info ? info->listen : NULL);
    if (info && info->start_time_s > 0) {
        cz_jw_f64(&w, "start_time", info->start_time_s);
        cz_jw_f64(&w, "uptime_s", realtime_s() - info->start_time_s);
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
    cz_jw_end(&w);

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
        cz_jw_u64(&w, "bytes", circ[i].bytes);
        cz_jw_u64(&w, "refs", circ[i].refs);
        cz_jw_bool(&w, "registered", circ[i].registered);
        cz_jw_bool(&w, "loading", circ[i].loading);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);

    memory_json(&w, &s);

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
    *out = cz_strbuf_take(&b, NULL);
    return *out ? CZ_OK : CZ_ERR_NOMEM;
}

/* -------------------------------------------------------------- server --- */

struct cz_http {
    struct MHD_Daemon *d;
    cz_engine *e;
    cz_metrics *m;
    cz_http_info info; /* strings owned */
    char *version, *listen;
    unsigned port;
    pthread_mutex_t log_mu; /* MHD's messages: kept while starting, then dropped
                               (they are about clients: probes, junk requests) */
    bool starting;
    char start_msg[256];
};

static void on_log(void *cls, const char *fmt, va_list ap)
{
    cz_http *h = cls;
    char msg[256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    pthread_mutex_lock(&h->log_mu);
    if (h->starting)
        snprintf(h->start_msg, sizeof h->start_msg, "%s", msg);
    pthread_mutex_unlock(&h->log_mu);
}

/* Queues body (malloc'd; NULL: out of memory, answered 500) with status
 * code and content type; takes ownership of body. */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned code, const char *type,
                               char *body)
{
    static char oom[] = "{\"error\":\"out of memory\"}\n";
    struct MHD_Response *r;
    if (body)
        r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    else {
        code = MHD_HTTP_INTERNAL_SERVER_ERROR;
        type = "application/json";
        r = MHD_create_response_from_buffer(strlen(oom), oom, MHD_RESPMEM_PERSISTENT);
    }
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static char *error_json(const char *msg, const char *url)
{
    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_jw w;
    cz_jw_init(&w, &b);
    cz_jw_object(&w, NULL);
    cz_jw_str(&w, "error", msg);
    cz_jw_str(&w, "path", url);
    cz_jw_array(&w, "endpoints");
    cz_jw_str(&w, NULL, "/status");
    cz_jw_str(&w, NULL, "/metrics");
    cz_jw_end(&w);
    cz_jw_end(&w);
    cz_strbuf_put(&b, "\n", 1);
    return cz_strbuf_take(&b, NULL);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    cz_http *h = cls;
    char *body = NULL;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json",
                       error_json("method not allowed", url));
    if (strcmp(url, "/status") == 0) {
        cz_status_json(h->e, &h->info, &body);
        if (body) {
            /* a newline for terminals; the JSON stays one value */
            char *p = realloc(body, strlen(body) + 2);
            if (p == NULL) {
                free(body);
                return respond(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "", NULL);
            }
            body = strcat(p, "\n");
        }
        return respond(c, MHD_HTTP_OK, "application/json", body);
    }
    if (strcmp(url, "/metrics") == 0) {
        cz_metrics_text(h->e, h->m, &body);
        return respond(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", body);
    }
    return respond(c, MHD_HTTP_NOT_FOUND, "application/json", error_json("not found", url));
}

/* Splits "host:port", ":port" or "[v6]:port" into host (empty: any IPv4
 * address) and port. */
static int split_addr(const char *addr, char *host, size_t hostlen, char *port, size_t portlen,
                      char *err, size_t errlen)
{
    const char *colon, *h0 = addr, *h1;
    if (addr[0] == '[') {
        const char *close = strchr(addr, ']');
        if (close == NULL || close[1] != ':') {
            snprintf(err, errlen, "http address \"%s\": expected [ipv6]:port", addr);
            return CZ_ERR_INVALID_ARG;
        }
        h0 = addr + 1;
        h1 = close;
        colon = close + 1;
    } else {
        colon = strrchr(addr, ':');
        if (colon == NULL) {
            snprintf(err, errlen, "http address \"%s\": expected host:port or :port", addr);
            return CZ_ERR_INVALID_ARG;
        }
        h1 = colon;
    }
    const char *p = colon + 1;
    size_t plen = strlen(p);
    bool digits = plen > 0 && plen <= 5;
    for (size_t i = 0; i < plen && digits; i++)
        digits = p[i] >= '0' && p[i] <= '9';
    if (!digits || atol(p) > 65535) {
        snprintf(err, errlen, "http address \"%s\": port must be 0..65535", addr);
        return CZ_ERR_INVALID_ARG;
    }
    if ((size_t)(h1 - h0) >= hostlen) {
        snprintf(err, errlen, "http address \"%s\": host name too long", addr);
        return CZ_ERR_INVALID_ARG;
    }
    memcpy(host, h0, (size_t)(h1 - h0));
    host[h1 - h0] = '\0';
    snprintf(port, portlen, "%s", p);
    return CZ_OK;
}

static char *dup_or_null(const char *s, bool *failed)
{
    if (s == NULL)
        return NULL;
    char *d = strdup(s);
    if (d == NULL)
        *failed = true;
    return d;
}

static void http_free(cz_http *h)
{
    cz_metrics_free(h->m);
    free(h->version);
    free(h->listen);
    pthread_mutex_destroy(&h->log_mu);
    free(h);
}

int cz_http_start(cz_http **out, const char *addr, cz_engine *e, const cz_http_info *info,
                  char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    else {
        static char sink[1];
        err = sink;
        errlen = 0;
    }
    if (out == NULL || addr == NULL || e == NULL) {
        snprintf(err, errlen, "http: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    *out = NULL;
    char host[256], port[8];
    int rc = split_addr(addr, host, sizeof host, port, sizeof port, err, errlen);
    if (rc != CZ_OK)
        return rc;

    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = host[0] ? AF_UNSPEC : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (g != 0) {
        snprintf(err, errlen, "http address \"%s\": %s", addr, gai_strerror(g));
        return CZ_ERR_IO;
    }
    struct sockaddr_storage sa;
    memcpy(&sa, res->ai_addr, res->ai_addrlen);
    bool v6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);

    cz_http *h = calloc(1, sizeof *h);
    if (h == NULL)
        return CZ_ERR_NOMEM;
    pthread_mutex_init(&h->log_mu, NULL);
    h->e = e;
    bool failed = false;
    if (info) {
        h->version = dup_or_null(info->version, &failed);
        h->listen = dup_or_null(info->listen, &failed);
        h->info.start_time_s = info->start_time_s;
    }
    h->info.version = h->version;
    h->info.listen = h->listen;
    if (failed || cz_metrics_new(&h->m) != CZ_OK) {
        http_free(h);
        return CZ_ERR_NOMEM;
    }

    h->starting = true;
    unsigned flags = MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (v6)
        flags |= MHD_USE_IPv6;
    h->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER, on_log,
                            h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)2, MHD_OPTION_CONNECTION_LIMIT,
                            (unsigned)64, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)32,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)64, MHD_OPTION_END);
    pthread_mutex_lock(&h->log_mu);
    h->starting = false;
    pthread_mutex_unlock(&h->log_mu);
    if (h->d == NULL) {
        snprintf(err, errlen, "http: cannot listen on %s: %s", addr,
                 h->start_msg[0] ? h->start_msg : "libmicrohttpd failed to start");
        http_free(h);
        return CZ_ERR_IO;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = di ? di->port : 0;
    *out = h;
    return CZ_OK;
}

unsigned cz_http_port(const cz_http *h) { return h ? h->port : 0; }

cz_metrics *cz_http_metrics(cz_http *h) { return h ? h->m : NULL; }

void cz_http_stop(cz_http *h)
{
    if (h == NULL)
        return;
    MHD_stop_daemon(h->d);
    http_free(h);
}
