/* The Prometheus text of /metrics and the gRPC GetMetrics call, with the
 * stage-duration histograms kept across scrapes (contract in cuzk/http.h). */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/http.h"
#include "daemon/status_table.h"
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
    static const char *const known[] = {"synth", "prove_start", "prove_finish", "upload"};
    for (unsigned i = 0; i < 4; i++)
        snprintf(m->stages[i].name, sizeof m->stages[i].name, "%s", known[i]);
    m->n_stages = 4;
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

static bool same(const char *a, const char *b) { return a != NULL && strcmp(a, b) == 0; }

/* Appends name="value" to the labels l, after a comma if not the first. */
static void label(cz_strbuf *l, const char *name, const char *value)
{
    if (l->len)
        cz_strbuf_put(l, ",", 1);
    cz_strbuf_printf(l, "%s=\"", name);
    label_value(l, value);
    cz_strbuf_put(l, "\"", 1);
}

static void device_label(cz_strbuf *l, int ordinal)
{
    char n[16];
    snprintf(n, sizeof n, "%d", ordinal);
    label(l, "device", n);
}

/* The samples of family f among the rows of sec in obj (one of sec's
 * structs), with the labels l (NULL: none) before each row's own; the
 * family's HELP and TYPE before its first sample (*begun). */
static void samples(cz_strbuf *b, const cz_metric_family *f, const cz_status_section *sec,
                    bool *begun, const void *obj, const cz_strbuf *l)
{
    for (size_t i = 0; i < sec->n; i++) {
        const cz_status_field *r = &sec->fields[i];
        if (!same(r->metric, f->name) && !same(r->gpu_metric, f->name))
            continue;
        if (!*begun) {
            family(b, f->name, f->type, f->help);
            *begun = true;
        }
        cz_strbuf_puts(b, f->name);
        bool scoped = l != NULL && l->len > 0;
        if (scoped || r->label) {
            cz_strbuf_puts(b, "{");
            if (scoped)
                cz_strbuf_put(b, l->p, l->len);
            if (r->label) {
                cz_strbuf_printf(b, "%s%s=\"", scoped ? "," : "", f->label);
                label_value(b, r->label);
                cz_strbuf_puts(b, "\"");
            }
            cz_strbuf_puts(b, "}");
        }
        if (r->type == CZ_ST_F64)
            cz_strbuf_printf(b, " %.6f\n", cz_status_f64(r, obj));
        else
            cz_strbuf_printf(b, " %llu\n", (unsigned long long)cz_status_u64(r, obj));
    }
}

/* The section whose rows name family f, and the scope of those samples;
 * NULL for none. */
static const cz_status_section *section_of(const cz_metric_family *f, cz_metric_scope *scope)
{
    for (size_t k = 0; k < cz_status_n_sections; k++) {
        const cz_status_section *sec = cz_status_sections[k];
        for (size_t i = 0; i < sec->n; i++) {
            if (same(sec->fields[i].metric, f->name)) {
                *scope = sec->scope;
                return sec;
            }
            if (same(sec->fields[i].gpu_metric, f->name)) {
                *scope = sec->gpu_scope;
                return sec;
            }
        }
    }
    return NULL;
}

/* The cached circuits whose plans /metrics shows: at most MAX_CIRCUITS. */
enum { MAX_CIRCUITS = 64 };
typedef struct {
    cz_engine_circuit_info *ci;
    size_t n;
} circuit_list;

/* The samples of family f, one set per object of its scope. */
static void family_samples(cz_strbuf *b, const cz_metric_family *f, cz_engine *e,
                           const cz_engine_status *s, const circuit_list *cl)
{
    cz_metric_scope scope = CZ_SCOPE_ENGINE; /* section_of sets it; Release gcc cannot tell */
    const cz_status_section *sec = section_of(f, &scope);
    bool begun = false;
    cz_strbuf l;
    cz_strbuf_init(&l);
    assert(sec != NULL);
    switch (scope) {
    case CZ_SCOPE_ENGINE:
        samples(b, f, sec, &begun, s, NULL);
        break;
    case CZ_SCOPE_MEMORY:
        samples(b, f, sec, &begun, &s->mem, NULL);
        break;
    case CZ_SCOPE_KIND:
        for (int k = 0; k < CZ_JOB_KINDS; k++) {
            l.len = 0;
            label(&l, "kind", s->kinds[k].name);
            samples(b, f, sec, &begun, &s->kinds[k], &l);
        }
        break;
    case CZ_SCOPE_CLASS:
        for (int k = 0; k < CZ_BUF__COUNT; k++) {
            l.len = 0;
            label(&l, "class", cz_buf_class_name((cz_buf_class)k));
            samples(b, f, sec, &begun, &s->mem.cls[k], &l);
        }
        break;
    case CZ_SCOPE_GPU:
    case CZ_SCOPE_GPU_MEMORY:
    case CZ_SCOPE_GPU_CLASS:
        for (unsigned d = 0; d < s->n_devices; d++) {
            const cz_engine_device_status *ds = &s->devices[d];
            if (!ds->info.gpu)
                continue;
            for (int k = 0; k < (scope == CZ_SCOPE_GPU_CLASS ? CZ_BUF__COUNT : 1); k++) {
                l.len = 0;
                device_label(&l, ds->info.ordinal);
                if (scope == CZ_SCOPE_GPU) {
                    samples(b, f, sec, &begun, ds, &l);
                } else if (scope == CZ_SCOPE_GPU_MEMORY) {
                    samples(b, f, sec, &begun, &ds->info.mem, &l);
                } else {
                    label(&l, "class", cz_buf_class_name((cz_buf_class)k));
                    samples(b, f, sec, &begun, &ds->info.mem.cls[k], &l);
                }
            }
        }
        break;
    case CZ_SCOPE_PLAN:
        for (size_t c = 0; c < cl->n; c++) {
            cz_engine_plan pl[CZ_ENGINE_MAX_DEVICES];
            size_t np = cz_engine_circuit_plans(e, cl->ci[c].id, pl, CZ_ENGINE_MAX_DEVICES);
            for (size_t k = 0; k < np; k++) {
                l.len = 0;
                device_label(&l, pl[k].ordinal);
                label(&l, "circuit", cl->ci[c].id);
                samples(b, f, sec, &begun, &pl[k], &l);
            }
        }
        break;
    }
    if (l.failed)
        b->failed = true;
    cz_strbuf_free(&l);
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
    static const char gaps[] = "cuzk_stage_timeline_gaps_total";
    family(b, gaps, "counter",
           "Scrapes that found more new timeline events than the window holds (some went "
           "uncounted).");
    cz_strbuf_printf(b, "%s %llu\n", gaps, (unsigned long long)m->gaps);
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
    circuit_list cl = {malloc(MAX_CIRCUITS * sizeof *cl.ci), 0};
    cl.n = cl.ci ? cz_engine_circuits(e, cl.ci, MAX_CIRCUITS) : 0;
    cl.n = cl.n < MAX_CIRCUITS ? cl.n : MAX_CIRCUITS;
    for (size_t i = 0; i < cz_metric_n_families; i++)
        family_samples(&b, &cz_metric_families[i], e, &s, &cl);
    free(cl.ci);

    if (m) {
        pthread_mutex_lock(&m->mu);
        consume_events(m, e);
        histograms(&b, m);
        pthread_mutex_unlock(&m->mu);
    }
    *out = cz_strbuf_take(&b, NULL);
    return *out ? CZ_OK : CZ_ERR_NOMEM;
}
