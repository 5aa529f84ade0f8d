/* The HTTP status endpoint (include/cuzk/http.h) against a real engine that
 * ran one synthetic job, over real sockets with a small HTTP/1.0 client:
 * /status parses as strict JSON and agrees with the engine's own status,
 * /metrics parses as Prometheus text with monotonic histograms, both show
 * per-kind figures and a job's partition progress while a gate holds it
 * and after it completed, 404 / 405,
 * bad addresses and a taken port, many concurrent clients beside a stalled
 * one, and the JSON writer's escaping on random strings.  The server's own
 * HTTP/1.x layer (an idle engine): request lines accepted and refused, a
 * head in pieces, HEAD, the head size limit (431), the head deadline that
 * trickled bytes do not extend, eviction at the per-address and total
 * connection limits, and the trickle attack that took libmicrohttpd down,
 * with client sockets bound to other 127.0.0.0/8 addresses.  The status
 * table behind /status, /metrics and GetStatus is consistent: every row's
 * family exists and every family has rows, labels where the family has
 * one, GetStatus fields that exist in the section's message. */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/http.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/status_table.h"
#include "engine_common.h"
#include "tf.h"
#include "util/json_tree.h"
#include "util/json_write.h"

#define BUDGET  ((uint64_t)256 << 20)
#define VERSION "0.1.0 \"q\" \\ \t\x01 caf\xc3\xa9"

/* ------------------------------------------------------------ fixture --- */

typedef struct {
    cz_engine *e;
    cz_http *h;
    unsigned port;
} server;

static void run_job(cz_engine *e, uint64_t seed)
{
    cz_job_synthetic in = {0};
    in.circuit.log_rows = 10;
    in.circuit.n_public = 2;
    in.circuit.seed = seed;
    in.partitions = 1;
    cz_job_request req = {.priority = CZ_PRIO_NORMAL, .kind = CZ_KIND_SYNTHETIC, .input = &in};
    char id[CZ_JOB_ID_MAX], err[256];
    TF_CHECK(cz_engine_submit(e, &req, id, NULL, err, sizeof err) == CZ_OK);
    cz_job_result r;
    TF_CHECK(cz_engine_await(e, id, -1, &r) == CZ_OK);
    TF_CHECK(r.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&r);
}

/* An engine (that ran one synthetic job when job is set) and a server on
 * 127.0.0.1, a free port. */
static bool server_open(server *s, bool job)
{
    cz_engine_config cfg = {0};
    cfg.memory_budget = BUDGET;
    cfg.synthesis_workers = 1;
    cfg.prover_threads = 2;
    char err[256];
    memset(s, 0, sizeof *s);
    if (cz_engine_new(&s->e, &cfg, err, sizeof err) != CZ_OK) {
        TF_CHECK_MSG(0, "engine: %s", err);
        return false;
    }
    if (job)
        run_job(s->e, tf_rng.s[0]);
    cz_http_info info = {.version = VERSION, .start_time_s = 1.0, .listen = "127.0.0.1:9090"};
    int rc = cz_http_start(&s->h, "127.0.0.1:0", s->e, &info, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "http: %s", err);
    if (rc != CZ_OK) {
        cz_engine_free(s->e);
        return false;
    }
    s->port = cz_http_port(s->h);
    TF_CHECK(s->port > 0);
    return true;
}

static bool server_start(server *s) { return server_open(s, true); }

/* Without a job: for the tests of the HTTP layer alone. */
static bool server_start_idle(server *s) { return server_open(s, false); }

static void server_stop(server *s)
{
    cz_http_stop(s->h);
    cz_engine_free(s->e);
}

/* ------------------------------------------------------------- client --- */

typedef struct {
    int status;
    char *head; /* status line and headers */
    char *body;
    size_t body_len;
} reply;

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A connection to 127.0.0.1:port from source address src ("127.0.0.N":
 * all of 127.0.0.0/8 is loopback on Linux; NULL: the kernel's choice). */
static int dial_from(const char *src, unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {.tv_sec = 20};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    if (src) {
        inet_pton(AF_INET, src, &sa.sin_addr);
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            close(fd);
            return -1;
        }
    }
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int dial(unsigned port) { return dial_from(NULL, port); }

/* Sends req[0, len) from src and reads the reply to the server's close.
 * Returns false on a transport or framing error (a Content-Length that
 * does not match the body included, unless head: a HEAD reply). */
static bool exchange(const char *src, unsigned port, const char *req, size_t len, bool head,
                     reply *out)
{
    memset(out, 0, sizeof *out);
    int fd = dial_from(src, port);
    if (fd < 0)
        return false;
    if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
        close(fd);
        return false;
    }
    size_t got = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (got == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = recv(fd, buf + got, cap - got, 0);
        if (r < 0) {
            free(buf);
            close(fd);
            return false;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    char *sep = strstr(buf, "\r\n\r\n");
    if (sep == NULL || sscanf(buf, "HTTP/1.%*d %d", &out->status) != 1) {
        free(buf);
        return false;
    }
    size_t head_len = (size_t)(sep - buf);
    out->head = strndup(buf, head_len);
    out->body_len = got - head_len - 4;
    out->body = malloc(out->body_len + 1);
    memcpy(out->body, sep + 4, out->body_len + 1);
    free(buf);
    /* Content-Length, when sent, matches (a HEAD reply has none of the body) */
    const char *cl = strcasestr(out->head, "\r\nContent-Length:");
    if (cl && !head && strtoull(cl + 17, NULL, 10) != (unsigned long long)out->body_len)
        return false;
    return true;
}

/* One HTTP/1.0 exchange from src (the server closes after the reply). */
static bool http_from(const char *src, unsigned port, const char *method, const char *path,
                      const char *body, reply *out)
{
    char req[512];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: localhost\r\n", method, path);
    if (body)
        n += snprintf(req + n, sizeof req - (size_t)n, "Content-Length: %zu\r\n\r\n%s",
                      strlen(body), body);
    else
        n += snprintf(req + n, sizeof req - (size_t)n, "\r\n");
    return exchange(src, port, req, (size_t)n, strcmp(method, "HEAD") == 0, out);
}

static bool http(unsigned port, const char *method, const char *path, const char *body, reply *out)
{
    return http_from(NULL, port, method, path, body, out);
}

static void reply_free(reply *r)
{
    free(r->head);
    free(r->body);
}

static bool has_header(const reply *r, const char *line)
{
    return r->head && strcasestr(r->head, line) != NULL;
}

/* --------------------------------------------------------------- JSON --- */

static const cz_json_value *member(const cz_json_value *obj, const char *key)
{
    if (obj == NULL || obj->type != CZ_JSON_OBJECT)
        return NULL;
    const cz_json_value *v = obj->n ? cz_json_first(obj) : NULL;
    for (size_t i = 0; i < obj->n; i++, v = cz_json_next(v))
        if (strcmp(v->key, key) == 0)
            return v;
    return NULL;
}

/* The value at a dotted path ("memory.classes.params.live_count"). */
static const cz_json_value *at(const cz_json_value *root, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const cz_json_value *v = root;
    for (char *save, *k = strtok_r(buf, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
        v = member(v, k);
    return v;
}

static bool num_is(const cz_json_value *root, const char *path, uint64_t want)
{
    const cz_json_value *v = at(root, path);
    bool ok = v && v->type == CZ_JSON_NUMBER && strtoull(v->str, NULL, 10) == want;
    if (!ok)
        tf_fail(__FILE__, __LINE__, "%s: %s, want %llu", path, v && v->str ? v->str : "missing",
                (unsigned long long)want);
    return ok;
}

/* ----------------------------------------------------------- Prometheus --- */

/* Parses one sample line "name{l="v",...} value" (labels optional); returns
 * false if it is malformed.  key gets "name{labels}" as written. */
static bool prom_sample(const char *line, char *key, size_t keylen, double *value)
{
    const char *p = line;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == ':'))
        return false;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '_' || *p == ':')
        p++;
    if (*p == '{') {
        p++;
        while (*p != '}') {
            if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
                return false;
            while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
                p++;
            if (p[0] != '=' || p[1] != '"')
                return false;
            p += 2;
            while (*p && *p != '"') {
                if (*p == '\\') {
                    if (p[1] != '\\' && p[1] != '"' && p[1] != 'n')
                        return false;
                    p++;
                }
                p++;
            }
            if (*p != '"')
                return false;
            p++;
            if (*p == ',')
                p++;
            else if (*p != '}')
                return false;
        }
        p++;
    }
    if (*p != ' ' || (size_t)(p - line) >= keylen)
        return false;
    memcpy(key, line, (size_t)(p - line));
    key[p - line] = '\0';
    char *end;
    *value = strtod(p + 1, &end);
    return end != p + 1 && *end == '\0';
}

typedef struct {
    char key[160];
    double v;
} prom_kv;

/* Whether sample `key` belongs to family `name` of type `type`. */
static bool in_family(const char *key, const char *name, const char *type)
{
    size_t len = strcspn(key, "{"), nl = strlen(name);
    if (len == nl)
        return strncmp(key, name, nl) == 0;
    if (strcmp(type, "histogram") != 0 || len < nl || strncmp(key, name, nl) != 0)
        return false;
    const char *suffix = key + nl;
    size_t sl = len - nl;
    return (sl == 7 && !strncmp(suffix, "_bucket", 7)) ||
           (sl == 4 && !strncmp(suffix, "_sum", 4)) || (sl == 6 && !strncmp(suffix, "_count", 6));
}

/* Parses the whole exposition into samples; every line must be a comment
 * (# HELP, or # TYPE with a known type, once per family) or a sample of the
 * family whose TYPE came last. */
static size_t prom_parse(char *text, prom_kv *kv, size_t max, int *bad)
{
    size_t n = 0;
    char fam[128] = "", type[32] = "";
    char seen[4096] = " ";
    *bad = 0;
    for (char *save, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') {
            if (strncmp(line, "# TYPE ", 7) == 0) {
                char pat[140];
                if (sscanf(line, "# TYPE %127s %31s", fam, type) != 2 ||
                    (strcmp(type, "counter") && strcmp(type, "gauge") && strcmp(type, "histogram")))
                    (*bad)++;
                snprintf(pat, sizeof pat, " %s ", fam);
                if (strstr(seen, pat)) {
                    tf_fail(__FILE__, __LINE__, "family %s declared twice", fam);
                    (*bad)++;
                }
                if (strlen(seen) + strlen(fam) + 2 < sizeof seen)
                    strcat(strcat(seen, fam), " ");
            } else if (strncmp(line, "# HELP ", 7) != 0)
                (*bad)++;
            continue;
        }
        double v;
        if (n < max && prom_sample(line, kv[n].key, sizeof kv[n].key, &v) &&
            in_family(kv[n].key, fam, type)) {
            kv[n++].v = v;
        } else {
            tf_fail(__FILE__, __LINE__, "bad metrics line: %s", line);
            (*bad)++;
        }
    }
    return n;
}

static double prom_get(const prom_kv *kv, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(kv[i].key, key) == 0)
            return kv[i].v;
    tf_fail(__FILE__, __LINE__, "metric %s missing", key);
    return -1;
}

/* Buckets of a stage's histogram are cumulative and end at _count. */
static void check_histogram(const prom_kv *kv, size_t n, const char *stage)
{
    char prefix[96];
    snprintf(prefix, sizeof prefix, "cuzk_stage_duration_seconds_bucket{stage=\"%s\",le=", stage);
    double prev = 0, last = -1;
    int buckets = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(kv[i].key, prefix, strlen(prefix)) == 0) {
            TF_CHECK(kv[i].v >= prev);
            prev = last = kv[i].v;
            buckets++;
        }
    char key[96];
    snprintf(key, sizeof key, "cuzk_stage_duration_seconds_count{stage=\"%s\"}", stage);
    TF_CHECK(buckets >= 2 && last == prom_get(kv, n, key));
}

/* -------------------------------------------------------------- tests --- */

static void test_status(void)
{
    server s;
    if (!server_start(&s))
        return;
    reply r;
    TF_CHECK(http(s.port, "GET", "/status", NULL, &r));
    TF_CHECK(r.status == 200 && has_header(&r, "Content-Type: application/json"));
    cz_json_doc doc;
    char err[256];
    int rc = cz_json_parse(&doc, r.body, r.body_len, 16, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "status JSON: %s", err);
    if (rc == CZ_OK) {
        const cz_json_value *root = doc.nodes;
        const cz_json_value *v = at(root, "version");
        TF_CHECK(v && v->type == CZ_JSON_STRING && v->len == strlen(VERSION) &&
                 memcmp(v->str, VERSION, v->len) == 0);
        v = at(root, "grpc_listen");
        TF_CHECK(v && v->type == CZ_JSON_STRING && strcmp(v->str, "127.0.0.1:9090") == 0);
        v = at(root, "uptime_s");
        TF_CHECK(v && v->type == CZ_JSON_NUMBER && strtod(v->str, NULL) > 1e9);
        num_is(root, "jobs.submitted", 1);
        num_is(root, "jobs.completed", 1);
        num_is(root, "jobs.failed", 0);
        num_is(root, "jobs.queued", 0);
        num_is(root, "jobs.running", 0);
        num_is(root, "jobs.partitions_proved", 1);
        num_is(root, "memory.budget", BUDGET);
        num_is(root, "workers.synthesis.total", 1);
        num_is(root, "workers.synthesis.busy", 0);
        num_is(root, "queues.prove", 0);
        /* by kind: the one synthetic job, nothing of the others */
        num_is(root, "kinds.synthetic.submitted", 1);
        num_is(root, "kinds.synthetic.completed", 1);
        num_is(root, "kinds.synthetic.partitions_proved", 1);
        num_is(root, "kinds.synthetic.running", 0);
        num_is(root, "kinds.synthetic.partitions_in_flight", 0);
        num_is(root, "kinds.groth16.submitted", 0);
        num_is(root, "kinds.porep.completed", 0);
        v = at(root, "kinds");
        TF_CHECK(v && v->type == CZ_JSON_OBJECT && v->n == CZ_JOB_KINDS);
        v = at(root, "kinds.synthetic.enabled");
        TF_CHECK(v && v->type == CZ_JSON_TRUE);
        v = at(root, "kinds.porep.enabled"); /* no param cache */
        TF_CHECK(v && v->type == CZ_JSON_FALSE);
        num_is(root, "live_jobs.count", 0);
        v = at(root, "live_jobs.jobs");
        TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == 0);
        /* the CPU back end: one device, idle, without a device account */
        v = at(root, "devices");
        TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == 1);
        if (v && v->n == 1) {
            const cz_json_value *d = cz_json_first(v), *k = member(d, "kind");
            const cz_json_value *busy = member(d, "busy_job"), *name = member(d, "name");
            TF_CHECK(k && k->type == CZ_JSON_STRING && strcmp(k->str, "cpu") == 0);
            TF_CHECK(name && name->type == CZ_JSON_STRING && strcmp(name->str, "cpu") == 0);
            TF_CHECK(busy && busy->type == CZ_JSON_NULL && member(d, "memory") == NULL);
        }
        num_is(root, "circuits_cached", 1);
        v = at(root, "circuits");
        TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == 1);
        if (v && v->n == 1) {
            const cz_json_value *c = cz_json_first(v), *id = member(c, "id");
            TF_CHECK(id && strcmp(id->str, "synthetic-10-2") == 0);
            const cz_json_value *kind = member(c, "kind"), *idle = member(c, "idle_ms");
            TF_CHECK(kind && kind->type == CZ_JSON_STRING && strcmp(kind->str, "synthetic") == 0);
            TF_CHECK(idle && idle->type == CZ_JSON_NUMBER && strtod(idle->str, NULL) >= 0);
            TF_CHECK(num_is(c, "refs", 0) && member(c, "registered") &&
                     member(c, "registered")->type == CZ_JSON_FALSE);
            const cz_json_value *bytes = member(c, "bytes");
            TF_CHECK(bytes && strtoull(bytes->str, NULL, 10) > 0);
        }
        /* the engine is idle: its figures are the ones served */
        cz_engine_status st;
        cz_engine_status_get(s.e, &st);
        num_is(root, "memory.allocated", st.mem.allocated);
        num_is(root, "memory.reserved", st.mem.reserved);
        num_is(root, "memory.request_pool", st.request_pool);
        num_is(root, "memory.request_pool_used", 0);
        num_is(root, "jobs.partitions_unfinished", 0);
        num_is(root, "jobs.max_jobs", st.max_jobs);
        num_is(root, "jobs.max_partitions", st.max_partitions);
        num_is(root, "jobs.watches", 0);
        v = at(root, "memory.classes");
        TF_CHECK(v && v->n == CZ_BUF__COUNT);
        for (int k = 0; k < CZ_BUF__COUNT; k++) {
            char path[96];
            snprintf(path, sizeof path, "memory.classes.%s.live_bytes",
                     cz_buf_class_name((cz_buf_class)k));
            num_is(root, path, st.mem.cls[k].live_bytes);
            snprintf(path, sizeof path, "memory.classes.%s.allocs",
                     cz_buf_class_name((cz_buf_class)k));
            num_is(root, path, st.mem.cls[k].total_allocs);
        }
        size_t live = cz_budget_live_buffers(cz_engine_budget(s.e), NULL, 0);
        TF_CHECK(live > 0); /* the cached circuit's buffers */
        num_is(root, "live_buffers.count", live);
        v = at(root, "live_buffers.buffers");
        TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == live);
        if (v && v->n) {
            const cz_json_value *b0 = cz_json_first(v);
            TF_CHECK(member(b0, "class") && member(b0, "bytes") && member(b0, "stage"));
        }
        /* one partition: its three stage events */
        v = at(root, "timeline");
        TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == 3);
        if (v && v->n == 3) {
            const cz_json_value *ev = cz_json_first(v);
            const cz_json_value *stage = member(ev, "stage");
            TF_CHECK(stage && strcmp(stage->str, "synth") == 0);
            TF_CHECK(num_is(ev, "partition", 0));
            TF_CHECK(strtod(member(ev, "end_ms")->str, NULL) >=
                     strtod(member(ev, "start_ms")->str, NULL));
        }
        cz_json_free(&doc);
    }
    reply_free(&r);
    /* HEAD: the headers only */
    TF_CHECK(http(s.port, "HEAD", "/status", NULL, &r));
    TF_CHECK(r.status == 200 && r.body_len == 0);
    reply_free(&r);
    server_stop(&s);
}

static void test_metrics(void)
{
    server s;
    if (!server_start(&s))
        return;
    enum { MAX = 512 };
    prom_kv *kv = malloc(MAX * sizeof *kv);
    for (int round = 1; round <= 3; round++) {
        reply r;
        TF_CHECK(http(s.port, "GET", "/metrics", NULL, &r));
        TF_CHECK(r.status == 200 && has_header(&r, "Content-Type: text/plain; version=0.0.4"));
        int bad = 1;
        size_t n = r.body ? prom_parse(r.body, kv, MAX, &bad) : 0;
        TF_CHECK(bad == 0 && n > 50);
        /* round 1: one job; round 2: the same (no event counted twice);
         * round 3: after a second job */
        double jobs = round < 3 ? 1 : 2;
        TF_CHECK(prom_get(kv, n, "cuzk_jobs_total{outcome=\"completed\"}") == jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_jobs_total{outcome=\"failed\"}") == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_proofs_total") == jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_memory_budget_bytes") == (double)BUDGET);
        TF_CHECK(prom_get(kv, n, "cuzk_queue_depth{stage=\"prove\"}") == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_jobs_unfinished{state=\"running\"}") == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_jobs_submitted_total") == jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_submitted_total{kind=\"synthetic\"}") == jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_total{kind=\"synthetic\",outcome=\"completed\"}") ==
                 jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_total{kind=\"groth16\",outcome=\"completed\"}") ==
                 0);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_total{kind=\"porep\",outcome=\"failed\"}") == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_partitions_proved_total{kind=\"synthetic\"}") == jobs);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_unfinished{kind=\"synthetic\",state=\"running\"}") ==
                 0);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_enabled{kind=\"synthetic\"}") == 1);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_enabled{kind=\"porep\"}") == 0);
        /* no GPU: no device families */
        TF_CHECK(r.body && strstr(r.body, "cuzk_gpu_") == NULL);
        TF_CHECK(prom_get(kv, n, "cuzk_workers_busy{stage=\"synth\"}") == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_buffer_live{class=\"params\"}") >= 1);
        TF_CHECK(prom_get(kv, n, "cuzk_rss_bytes") > 0);
        TF_CHECK(prom_get(kv, n, "cuzk_stage_timeline_gaps_total") == 0);
        static const char *const stages[] = {"synth", "prove_start", "prove_finish"};
        for (int i = 0; i < 3; i++) {
            char key[96];
            snprintf(key, sizeof key, "cuzk_stage_duration_seconds_count{stage=\"%s\"}", stages[i]);
            TF_CHECK_MSG(prom_get(kv, n, key) == jobs, "round %d %s", round, key);
            check_histogram(kv, n, stages[i]);
        }
        reply_free(&r);
        if (round == 2)
            run_job(s.e, 99);
    }
    /* a separate state (the gRPC path without the server) counts the same */
    cz_metrics *m;
    TF_CHECK(cz_metrics_new(&m) == CZ_OK);
    char *text;
    TF_CHECK(cz_metrics_text(s.e, m, &text) == CZ_OK);
    int bad;
    size_t n = prom_parse(text, kv, MAX, &bad);
    TF_CHECK(bad == 0 &&
             prom_get(kv, n, "cuzk_stage_duration_seconds_count{stage=\"synth\"}") == 2);
    free(text);
    cz_metrics_free(m);
    /* without a state: no histogram */
    TF_CHECK(cz_metrics_text(s.e, NULL, &text) == CZ_OK);
    TF_CHECK(strstr(text, "cuzk_stage_duration_seconds") == NULL);
    free(text);
    TF_CHECK(cz_metrics_text(NULL, NULL, &text) == CZ_ERR_INVALID_ARG && text == NULL);
    free(kv);
    server_stop(&s);
}

/* /status and /metrics while a synthetic job of 4 partitions is held by a
 * gate before prove_start (one synthesis worker, queues of one): the job
 * listed with 3 partitions in flight (one at the gate, one queued for the
 * prover, one synthesized waiting for room) and 1 waiting, the kind's
 * gauges saying the same; after it completes, every gauge back to zero,
 * the counters moved on, the list empty. */
static void test_status_live(void)
{
    cz_engine_config cfg = {0};
    cfg.memory_budget = BUDGET;
    cfg.synthesis_workers = 1;
    cfg.prover_threads = 2;
    cfg.queue_depth = 1;
    gate g;
    gate_init(&g, &cfg);
    server s = {0};
    char err[256], id[CZ_JOB_ID_MAX];
    if (cz_engine_new(&s.e, &cfg, err, sizeof err) != CZ_OK) {
        TF_CHECK_MSG(0, "engine: %s", err);
        return;
    }
    TF_CHECK(cz_http_start(&s.h, "127.0.0.1:0", s.e, NULL, err, sizeof err) == CZ_OK);
    s.port = cz_http_port(s.h);
    cz_job_synthetic in = {0};
    in.circuit.log_rows = 10;
    in.circuit.n_public = 2;
    in.circuit.seed = 5;
    in.partitions = 4;
    cz_job_request req = {.id = "held", .priority = CZ_PRIO_LOW, .kind = CZ_KIND_SYNTHETIC,
                          .input = &in};
    TF_CHECK(cz_engine_submit(s.e, &req, id, NULL, err, sizeof err) == CZ_OK);
    TF_CHECK(gate_wait_held(&g, 1));
    for (int i = 0; i < 30000; i++) { /* the third partition synthesized */
        cz_engine_status st;
        cz_engine_status_get(s.e, &st);
        if (st.kinds[CZ_KIND_SYNTHETIC - 1].partitions_in_flight == 3)
            break;
        usleep(1000);
    }
    enum { MAX = 512 };
    prom_kv *kv = malloc(MAX * sizeof *kv);
    for (int round = 0; round < 2; round++) {
        bool held = round == 0;
        reply r;
        TF_CHECK(http(s.port, "GET", "/status", NULL, &r));
        cz_json_doc doc;
        int rc = cz_json_parse(&doc, r.body, r.body_len, 16, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "status JSON: %s", err);
        if (rc == CZ_OK) {
            const cz_json_value *root = doc.nodes;
            num_is(root, "jobs.running", held);
            num_is(root, "kinds.synthetic.running", held);
            num_is(root, "kinds.synthetic.queued", 0);
            num_is(root, "kinds.synthetic.partitions_in_flight", held ? 3 : 0);
            num_is(root, "kinds.synthetic.partitions_waiting", held ? 1 : 0);
            num_is(root, "kinds.synthetic.completed", held ? 0 : 1);
            num_is(root, "kinds.synthetic.partitions_proved", held ? 0 : 4);
            num_is(root, "kinds.groth16.running", 0);
            num_is(root, "live_jobs.count", held);
            const cz_json_value *v = at(root, "live_jobs.jobs");
            TF_CHECK(v && v->type == CZ_JSON_ARRAY && v->n == (size_t)held);
            if (held && v && v->n == 1) {
                const cz_json_value *j = cz_json_first(v);
                static const char *const str[][2] = {{"id", "job-1"},
                                                     {"label", "held"},
                                                     {"kind", "synthetic"},
                                                     {"circuit", "synthetic-10-2"},
                                                     {"priority", "low"},
                                                     {"state", "running"}};
                for (size_t k = 0; k < sizeof str / sizeof str[0]; k++) {
                    const cz_json_value *f = member(j, str[k][0]);
                    TF_CHECK_MSG(f && f->type == CZ_JSON_STRING && !strcmp(f->str, str[k][1]),
                                 "live_jobs.jobs[0].%s: %s", str[k][0], f ? f->str : "missing");
                }
                num_is(j, "job", 1);
                num_is(j, "partitions", 4);
                num_is(j, "partitions_done", 0);
                num_is(j, "partitions_in_flight", 3);
                num_is(j, "partitions_waiting", 1);
                TF_CHECK(member(j, "ending") && member(j, "ending")->type == CZ_JSON_FALSE);
                const cz_json_value *age = member(j, "age_ms"), *q = member(j, "queue_ms");
                TF_CHECK(age && q && strtod(q->str, NULL) <= strtod(age->str, NULL));
            }
            v = at(root, "circuits");
            TF_CHECK(v && v->n == 1);
            if (v && v->n == 1)
                TF_CHECK(num_is(cz_json_first(v), "refs", held ? 3 : 0));
            cz_json_free(&doc);
        }
        reply_free(&r);
        TF_CHECK(http(s.port, "GET", "/metrics", NULL, &r));
        int bad = 1;
        size_t n = r.body ? prom_parse(r.body, kv, MAX, &bad) : 0;
        TF_CHECK(bad == 0);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_unfinished{kind=\"synthetic\",state=\"running\"}") ==
                 held);
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_unfinished{kind=\"groth16\",state=\"queued\"}") == 0);
        TF_CHECK(prom_get(kv, n,
                          "cuzk_kind_partitions_unfinished{kind=\"synthetic\",state=\"in_flight\"}") ==
                 (held ? 3 : 0));
        TF_CHECK(prom_get(kv, n,
                          "cuzk_kind_partitions_unfinished{kind=\"synthetic\",state=\"waiting\"}") ==
                 (held ? 1 : 0));
        TF_CHECK(prom_get(kv, n, "cuzk_kind_partitions_proved_total{kind=\"synthetic\"}") ==
                 (held ? 0 : 4));
        TF_CHECK(prom_get(kv, n, "cuzk_kind_jobs_total{kind=\"synthetic\",outcome=\"completed\"}") ==
                 !held);
        TF_CHECK(prom_get(kv, n, "cuzk_jobs_unfinished{state=\"running\"}") == held);
        reply_free(&r);
        if (held) {
            gate_allow(&g, -1);
            cz_job_result res;
            TF_CHECK(cz_engine_await(s.e, "held", -1, &res) == CZ_OK &&
                     res.state == CZ_JOB_COMPLETED);
            cz_job_result_free(&res);
        }
    }
    free(kv);
    gate_allow(&g, -1);
    server_stop(&s);
    gate_destroy(&g);
}

/* The histogram state across a ring that wrapped: the surplus is reported
 * as a gap, counts stay monotonic. */
static void test_metrics_window(void)
{
    cz_engine_config cfg = {0};
    cfg.memory_budget = BUDGET;
    cfg.synthesis_workers = 1;
    cfg.prover_threads = 1;
    cfg.timeline_events = 4; /* smaller than one scrape's worth below */
    cz_engine *e;
    char err[256];
    TF_CHECK(cz_engine_new(&e, &cfg, err, sizeof err) == CZ_OK);
    cz_metrics *m;
    TF_CHECK(cz_metrics_new(&m) == CZ_OK);
    run_job(e, 1);
    char *text;
    TF_CHECK(cz_metrics_text(e, m, &text) == CZ_OK);
    TF_CHECK(strstr(text, "cuzk_stage_duration_seconds_count{stage=\"synth\"} 1\n") &&
             strstr(text, "cuzk_stage_timeline_gaps_total 0\n"));
    free(text);
    run_job(e, 2);
    run_job(e, 3); /* 6 new events, 4 kept: the last counted one is gone */
    TF_CHECK(cz_metrics_text(e, m, &text) == CZ_OK);
    TF_CHECK(strstr(text, "cuzk_stage_timeline_gaps_total 1\n") != NULL);
    /* counted: 3 + the 4 events kept */
    const char *c = strstr(text, "cuzk_stage_duration_seconds_count{stage=\"prove_finish\"} ");
    const char *d = strstr(text, "cuzk_stage_duration_seconds_count{stage=\"synth\"} ");
    TF_CHECK(c && d);
    if (c && d) {
        unsigned long pf = strtoul(strchr(c, ' ') + 1, NULL, 10);
        unsigned long sy = strtoul(strchr(d, ' ') + 1, NULL, 10);
        TF_CHECK(pf >= 2 && sy >= 1 && pf + sy <= 3 + 2 + 2);
    }
    free(text);
    cz_metrics_free(m);
    cz_engine_free(e);
}

static void test_errors(void)
{
    server s;
    if (!server_start(&s))
        return;
    reply r;
    TF_CHECK(http(s.port, "GET", "/nope?x=1", NULL, &r));
    TF_CHECK(r.status == 404 && has_header(&r, "Content-Type: application/json"));
    cz_json_doc doc;
    char err[256];
    TF_CHECK(r.body && cz_json_parse(&doc, r.body, r.body_len, 8, err, sizeof err) == CZ_OK);
    if (r.body && doc.nodes) {
        const cz_json_value *v = member(doc.nodes, "error");
        TF_CHECK(v && strcmp(v->str, "not found") == 0);
        v = member(doc.nodes, "path");
        TF_CHECK(v && strcmp(v->str, "/nope") == 0);
        cz_json_free(&doc);
    }
    reply_free(&r);
    TF_CHECK(http(s.port, "GET", "/", NULL, &r) && r.status == 404);
    reply_free(&r);
    TF_CHECK(http(s.port, "POST", "/status", "{\"a\":1}", &r));
    TF_CHECK(r.status == 405 && has_header(&r, "Allow: GET, HEAD"));
    reply_free(&r);
    TF_CHECK(http(s.port, "DELETE", "/metrics", NULL, &r) && r.status == 405);
    reply_free(&r);
    /* malformed request line: 400, and the server lives */
    static const char junk[] = "\x01\x02 garbage\r\n\r\n";
    TF_CHECK(exchange(NULL, s.port, junk, sizeof junk - 1, false, &r) && r.status == 400);
    reply_free(&r);
    TF_CHECK(http(s.port, "GET", "/status", NULL, &r) && r.status == 200);
    reply_free(&r);
    server_stop(&s);
}

static void test_bad_addresses(void)
{
    server s;
    if (!server_start(&s))
        return;
    static const char *const bad[] = {"",       "8080",    "host:", ":abc",
                                      ":65536", ":123456", "[::1",  "[::1]8080"};
    char err[256];
    cz_http *h;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        TF_CHECK_MSG(cz_http_start(&h, bad[i], s.e, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG &&
                         h == NULL && err[0],
                     "address \"%s\"", bad[i]);
    }
    /* the port in use */
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", s.port);
    TF_CHECK(cz_http_start(&h, addr, s.e, NULL, err, sizeof err) == CZ_ERR_IO && h == NULL);
    TF_CHECK_MSG(strstr(err, "http: cannot listen on ") == err && strstr(err, addr) != NULL &&
                     strstr(err, "in use") != NULL,
                 "%s", err);
    TF_CHECK(cz_http_start(&h, "no-such-host.invalid:0", s.e, NULL, err, sizeof err) == CZ_ERR_IO);
    TF_CHECK(cz_http_start(NULL, ":0", s.e, NULL, err, sizeof err) == CZ_ERR_INVALID_ARG);
    /* ":port" and IPv6 loopback, without info */
    TF_CHECK(cz_http_start(&h, ":0", s.e, NULL, err, sizeof err) == CZ_OK);
    if (h) {
        reply r;
        TF_CHECK(http(cz_http_port(h), "GET", "/status", NULL, &r) && r.status == 200);
        TF_CHECK(r.body && strstr(r.body, "\"version\":null") != NULL);
        reply_free(&r);
        cz_http_stop(h);
    }
    if (cz_http_start(&h, "[::1]:0", s.e, NULL, err, sizeof err) == CZ_OK) {
        TF_CHECK(cz_http_port(h) > 0);
        cz_http_stop(h);
    } /* else: no IPv6 on this machine */
    cz_http_stop(NULL);
    server_stop(&s);
}

typedef struct {
    unsigned port;
    int n, ok;
} client_arg;

static void *client(void *p)
{
    client_arg *a = p;
    for (int i = 0; i < a->n; i++) {
        reply r;
        const char *path = (i & 1) ? "/metrics" : "/status";
        if (http(a->port, "GET", path, NULL, &r) && r.status == 200 && r.body_len > 100)
            a->ok++;
        reply_free(&r);
    }
    return NULL;
}

/* Eight clients at once while one connection sits on half a request and
 * another on an idle socket: every request is served. */
static void test_concurrent(void)
{
    server s;
    if (!server_start(&s))
        return;
    int stalled = dial(s.port), idle = dial(s.port);
    TF_CHECK(stalled >= 0 && idle >= 0);
    if (stalled >= 0)
        TF_CHECK(send(stalled, "GET /sta", 8, MSG_NOSIGNAL) == 8);
    enum { T = 8 };
    pthread_t th[T];
    client_arg a[T];
    for (int i = 0; i < T; i++) {
        a[i] = (client_arg){.port = s.port, .n = 10 * (int)tf_scale, .ok = 0};
        pthread_create(&th[i], NULL, client, &a[i]);
    }
    /* a job running meanwhile: the numbers move under the readers */
    run_job(s.e, 5);
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        TF_CHECK_MSG(a[i].ok == a[i].n, "client %d: %d of %d", i, a[i].ok, a[i].n);
    }
    if (stalled >= 0)
        close(stalled);
    if (idle >= 0)
        close(idle);
    /* stop with a connection still open */
    int open_fd = dial(s.port);
    server_stop(&s);
    if (open_fd >= 0)
        close(open_fd);
}

/* ------------------------------------------------------ HTTP details --- */

static int status_of(unsigned port, const char *req, size_t len)
{
    reply r;
    int st = exchange(NULL, port, req, len, false, &r) ? r.status : -1;
    reply_free(&r);
    return st;
}

/* Request lines and framings the server accepts or refuses. */
static void test_protocol(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    static const struct {
        const char *req;
        int status;
    } cases[] = {
        {"GET /status HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n", 200},
        {"GET /metrics HTTP/1.1\nHost: localhost\n\n", 200}, /* bare LF */
        {"\r\nGET /status HTTP/1.0\r\n\r\n", 200},           /* an empty line first */
        {"GET http://localhost:9/metrics?x=1 HTTP/1.1\r\nHost: localhost:9\r\n\r\n", 200},
        {"GET HTTP://localhost HTTP/1.1\r\n\r\n", 404}, /* absolute form, path "/" */
        {"GET /status?x=%2f#f HTTP/1.1\r\n\r\n", 200},
        {"GET /status HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcde", 200}, /* body not read */
        {"GET /status HTTP/2.0\r\n\r\n", 505},
        {"GET /status\r\n\r\n", 400},
        {"GET  /status HTTP/1.1\r\n\r\n", 400},
        {"GET /status HTTP/1.1 \r\n\r\n", 400},
        {"GET /status HTTP/1.10\r\n\r\n", 400},
        {"GET status HTTP/1.1\r\n\r\n", 400},
        {"G@T /status HTTP/1.1\r\n\r\n", 400},
        {"\r\n\r\n", 400},
        {"get /status HTTP/1.1\r\n\r\n", 405}, /* methods are case-sensitive */
        {"OPTIONS * HTTP/1.1\r\n\r\n", 400},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int st = status_of(s.port, cases[i].req, strlen(cases[i].req));
        TF_CHECK_MSG(st == cases[i].status, "case %zu: status %d, want %d", i, st, cases[i].status);
    }
    reply r;
    TF_CHECK(http(s.port, "GET", "/status", NULL, &r) && r.status == 200);
    TF_CHECK(has_header(&r, "\r\nConnection: close") &&
             has_header(&r, "\r\nCache-Control: no-store") && has_header(&r, "\r\nDate: ") &&
             strncmp(r.head, "HTTP/1.1 200 OK\r\n", 17) == 0);
    reply_free(&r);
    /* a head in pieces, the final CRLF CRLF split too */
    int fd = dial(s.port);
    TF_CHECK(fd >= 0);
    if (fd >= 0) {
        static const char *const parts[] = {"GET /sta", "tus HTTP/1.1\r", "\nHost: x\r\n", "\r",
                                            "\n"};
        for (size_t i = 0; i < 5; i++) {
            TF_CHECK(send(fd, parts[i], strlen(parts[i]), MSG_NOSIGNAL) > 0);
            nanosleep(&(struct timespec){.tv_nsec = 20 * 1000000}, NULL);
        }
        char buf[64] = {0};
        TF_CHECK(recv(fd, buf, sizeof buf - 1, 0) > 12 && strncmp(buf, "HTTP/1.1 200 ", 13) == 0);
        close(fd);
    }
    server_stop(&s);
}

/* HEAD: the header fields of GET, no body. */
static void test_head(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    static const struct {
        const char *path, *type;
        int status;
    } cases[] = {{"/status", "application/json", 200},
                 {"/metrics", "text/plain; version=0.0.4", 200},
                 {"/nope", "application/json", 404}};
    for (size_t i = 0; i < 3; i++) {
        reply r;
        char type[64];
        snprintf(type, sizeof type, "\r\nContent-Type: %s", cases[i].type);
        TF_CHECK(http(s.port, "HEAD", cases[i].path, NULL, &r));
        const char *cl = r.head ? strcasestr(r.head, "\r\nContent-Length: ") : NULL;
        TF_CHECK_MSG(r.status == cases[i].status && r.body_len == 0 && has_header(&r, type) && cl &&
                         strtoull(cl + 18, NULL, 10) > 10,
                     "HEAD %s: %d, %zu body bytes", cases[i].path, r.status, r.body_len);
        reply_free(&r);
    }
    server_stop(&s);
}

/* "GET /status HTTP/1.1" and a header field padded to total bytes in all. */
static char *padded_request(size_t total)
{
    static const char pre[] = "GET /status HTTP/1.1\r\nHost: localhost\r\nX-Pad: ";
    char *req = malloc(total + 1);
    size_t pad = total - (sizeof pre - 1) - 4;
    memcpy(req, pre, sizeof pre - 1);
    memset(req + sizeof pre - 1, 'a', pad);
    memcpy(req + total - 4, "\r\n\r\n", 5);
    return req;
}

/* A request head over CZ_HTTP_HEAD_MAX gets 431; one of exactly that size
 * is served. */
static void test_head_limit(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    static const struct {
        size_t len;
        int status;
    } cases[] = {{9 * 1024, 431}, {CZ_HTTP_HEAD_MAX + 1, 431}, {CZ_HTTP_HEAD_MAX, 200}};
    for (size_t i = 0; i < 3; i++) {
        char *req = padded_request(cases[i].len);
        int st = status_of(s.port, req, cases[i].len);
        TF_CHECK_MSG(st == cases[i].status, "%zu-byte head: %d, want %d", cases[i].len, st,
                     cases[i].status);
        free(req);
    }
    server_stop(&s);
}

/* -------------------------------------------------------- slow clients --- */

/* Whether the server closed fd within secs (EOF or reset). */
static bool closed_within(int fd, double secs)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, (int)(secs * 1000)) != 1)
        return false;
    char b[256];
    ssize_t r = recv(fd, b, sizeof b, MSG_DONTWAIT);
    return r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Whether fd is still open with nothing to read. */
static bool still_open(int fd)
{
    char b[1];
    return recv(fd, b, 1, MSG_DONTWAIT) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

static const char TRICKLE[] = "GET /status HTTP/1.1\r\nHost: localhost\r\nX-Trickle: ";

/* The byte a trickler sends after `sent` others: a head that never ends. */
static char trickle_byte(size_t sent) { return sent < sizeof TRICKLE - 1 ? TRICKLE[sent] : 'a'; }

/* A connection that keeps sending a byte every 100 ms is closed when its
 * head deadline passes, as is an idle one: the deadline is not reset by
 * arriving bytes. */
static void test_head_deadline(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    int fd[2] = {dial(s.port), dial(s.port)}; /* trickling, idle */
    double t0 = mono_s(), closed_at[2] = {0, 0};
    TF_CHECK(fd[0] >= 0 && fd[1] >= 0);
    size_t sent = 0;
    bool answered = false;
    while (fd[0] >= 0 && fd[1] >= 0 && mono_s() - t0 < 6 && (!closed_at[0] || !closed_at[1])) {
        char ch = trickle_byte(sent);
        if (!closed_at[0] && send(fd[0], &ch, 1, MSG_NOSIGNAL) == 1)
            sent++;
        struct pollfd p[2] = {{.fd = closed_at[0] ? -1 : fd[0], .events = POLLIN},
                              {.fd = closed_at[1] ? -1 : fd[1], .events = POLLIN}};
        poll(p, 2, 100);
        for (int i = 0; i < 2; i++) {
            if (p[i].revents == 0)
                continue;
            char b[256];
            ssize_t r = recv(fd[i], b, sizeof b, MSG_DONTWAIT);
            if (r > 0)
                answered = true;
            else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                closed_at[i] = mono_s() - t0;
        }
    }
    double limit = CZ_HTTP_HEAD_TIMEOUT_MS * 1e-3;
    TF_CHECK_MSG(closed_at[0] >= limit - 0.2 && closed_at[0] <= limit + 0.5,
                 "trickler closed after %.3f s (%zu bytes sent)", closed_at[0], sent);
    TF_CHECK_MSG(sent >= 20, "%zu bytes sent", sent);
    TF_CHECK_MSG(closed_at[1] >= limit - 0.2 && closed_at[1] <= limit + 0.5,
                 "idle connection closed after %.3f s", closed_at[1]);
    TF_CHECK(!answered);
    for (int i = 0; i < 2; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    reply r;
    TF_CHECK(http(s.port, "GET", "/status", NULL, &r) && r.status == 200);
    reply_free(&r);
    server_stop(&s);
}

/* The connection over one address's limit closes that address's oldest
 * idle one; the others stay. */
static void test_evict_addr(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    enum { K = CZ_HTTP_MAX_PER_ADDR };
    int fd[K];
    for (int i = 0; i < K; i++) {
        fd[i] = dial_from("127.0.0.9", s.port);
        TF_CHECK(fd[i] >= 0);
    }
    int other = dial_from("127.0.0.10", s.port);
    reply r;
    TF_CHECK(http_from("127.0.0.9", s.port, "GET", "/status", NULL, &r) && r.status == 200 &&
             r.body_len > 100);
    reply_free(&r);
    TF_CHECK(fd[0] >= 0 && closed_within(fd[0], 2));
    for (int i = 1; i < K; i++)
        TF_CHECK_MSG(fd[i] >= 0 && still_open(fd[i]), "connection %d", i);
    TF_CHECK(other >= 0 && still_open(other));
    for (int i = 0; i < K; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    if (other >= 0)
        close(other);
    server_stop(&s);
}

/* The connection over the total limit closes the oldest idle one of all. */
static void test_evict_total(void)
{
    enum { N = CZ_HTTP_MAX_CONNS };
    struct rlimit rl;
    rlim_t need = 2 * N + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need &&
        (rl.rlim_max < need || (rl.rlim_cur = need, setrlimit(RLIMIT_NOFILE, &rl) != 0))) {
        printf("  test_evict_total: skipped (%llu file descriptors allowed)\n",
               (unsigned long long)rl.rlim_max);
        return;
    }
    server s;
    if (!server_start_idle(&s))
        return;
    int *fd = malloc(N * sizeof *fd);
    for (int i = 0; i < N; i++) {
        char src[32];
        snprintf(src, sizeof src, "127.0.1.%d", 1 + i / CZ_HTTP_MAX_PER_ADDR);
        fd[i] = dial_from(src, s.port);
        TF_CHECK(fd[i] >= 0);
    }
    reply r;
    TF_CHECK(http_from("127.0.2.1", s.port, "GET", "/metrics", NULL, &r) && r.status == 200 &&
             r.body_len > 100);
    reply_free(&r);
    TF_CHECK(fd[0] >= 0 && closed_within(fd[0], 2));
    int open = 0;
    for (int i = 1; i < N; i++)
        open += fd[i] >= 0 && still_open(fd[i]);
    TF_CHECK_MSG(open == N - 1, "%d of %d still open", open, N - 1);
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    server_stop(&s);
}

/* The attack that took libmicrohttpd's endpoint down: 64 connections from
 * three addresses and 32 from 127.0.0.1, each trickling a request head a
 * byte every 100-300 ms and reconnecting 100-400 ms after the server closes
 * it.  Driven by one thread (poll) to spare the CI's two cores. */
enum { ATTACKERS = 96 };

typedef struct {
    unsigned port;
    cz_prng rng;
    atomic_bool stop;
    atomic_uint connects, closed, live, answered;
    int fd[ATTACKERS];
    char src[ATTACKERS][16];
    double next[ATTACKERS]; /* next byte, or next connect */
    size_t sent[ATTACKERS];
} attack;

static double pause_s(cz_prng *g, unsigned lo_ms, unsigned hi_ms)
{
    return (lo_ms + (double)(cz_prng_next(g) % (hi_ms - lo_ms + 1))) * 1e-3;
}

static void *attack_run(void *p)
{
    attack *a = p;
    double end = mono_s() + 20; /* bounded even if nobody stops it */
    while (!atomic_load(&a->stop) && mono_s() < end) {
        double now = mono_s();
        for (int i = 0; i < ATTACKERS; i++) {
            if (a->next[i] > now)
                continue;
            if (a->fd[i] < 0) {
                a->fd[i] = dial_from(a->src[i], a->port);
                a->sent[i] = 0;
                if (a->fd[i] < 0) {
                    a->next[i] = now + pause_s(&a->rng, 100, 400);
                    continue;
                }
                atomic_fetch_add(&a->connects, 1);
                atomic_fetch_add(&a->live, 1);
            }
            char ch = trickle_byte(a->sent[i]);
            if (send(a->fd[i], &ch, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
                a->sent[i]++;
            a->next[i] = now + pause_s(&a->rng, 100, 300);
        }
        struct pollfd pfd[ATTACKERS];
        int idx[ATTACKERS], n = 0;
        for (int i = 0; i < ATTACKERS; i++)
            if (a->fd[i] >= 0) {
                pfd[n] = (struct pollfd){.fd = a->fd[i], .events = POLLIN};
                idx[n++] = i;
            }
        poll(pfd, (nfds_t)n, 20);
        now = mono_s();
        for (int k = 0; k < n; k++) {
            if (pfd[k].revents == 0)
                continue;
            int i = idx[k];
            char b[256];
            ssize_t r = recv(a->fd[i], b, sizeof b, MSG_DONTWAIT);
            if (r > 0)
                atomic_fetch_add(&a->answered, 1);
            else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                close(a->fd[i]);
                a->fd[i] = -1;
                atomic_fetch_add(&a->closed, 1);
                atomic_fetch_sub(&a->live, 1);
                a->next[i] = now + pause_s(&a->rng, 100, 400);
            }
        }
    }
    return NULL;
}

/* While the attack goes on, GET /status and /metrics from 127.0.0.1 (an
 * attacked address) and 127.0.0.5 are answered in full within 1 s. */
static void test_trickle_attack(void)
{
    server s;
    if (!server_start_idle(&s))
        return;
    attack *a = calloc(1, sizeof *a);
    a->port = s.port;
    cz_prng_seed(&a->rng, cz_prng_next(&tf_rng));
    for (int i = 0; i < ATTACKERS; i++) {
        snprintf(a->src[i], sizeof a->src[i], "127.0.0.%d", i < 64 ? 2 + i % 3 : 1);
        a->fd[i] = -1;
    }
    pthread_t th;
    TF_CHECK(pthread_create(&th, NULL, attack_run, a) == 0);
    /* every trickler in once, the surplus over the address limits closed */
    unsigned surplus = ATTACKERS - 4 * CZ_HTTP_MAX_PER_ADDR;
    double t0 = mono_s();
    while ((atomic_load(&a->connects) < ATTACKERS || atomic_load(&a->closed) < surplus) &&
           mono_s() - t0 < 2)
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000000}, NULL);
    TF_CHECK_MSG(atomic_load(&a->connects) >= ATTACKERS && atomic_load(&a->closed) >= surplus,
                 "%u connects, %u closed", atomic_load(&a->connects), atomic_load(&a->closed));
    static const char *const srcs[] = {"127.0.0.1", "127.0.0.5"};
    static const char *const paths[] = {"/status", "/metrics"};
    unsigned min_live = ATTACKERS;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 4; i++) {
            unsigned live = atomic_load(&a->live);
            min_live = live < min_live ? live : min_live;
            reply r;
            double t = mono_s();
            bool ok = http_from(srcs[i / 2], s.port, "GET", paths[i % 2], NULL, &r);
            t = mono_s() - t;
            TF_CHECK_MSG(ok && r.status == 200 && r.body_len > 100 && t < 1.0,
                         "round %d, GET %s from %s: status %d, %zu bytes in %.3f s", round,
                         paths[i % 2], srcs[i / 2], r.status, r.body_len, t);
            reply_free(&r);
        }
        nanosleep(&(struct timespec){.tv_nsec = 50 * 1000000}, NULL);
    }
    /* the tricklers were in all along (the server holds 8 per address) */
    TF_CHECK_MSG(min_live >= 3 * CZ_HTTP_MAX_PER_ADDR, "%u tricklers connected at least", min_live);
    TF_CHECK(atomic_load(&a->answered) == 0);
    atomic_store(&a->stop, true);
    pthread_join(th, NULL);
    server_stop(&s); /* with the tricklers' connections still open */
    for (int i = 0; i < ATTACKERS; i++)
        if (a->fd[i] >= 0)
            close(a->fd[i]);
    free(a);
}

/* Random strings through the writer: always strict JSON; valid UTF-8 comes
 * back byte for byte. */
static void test_json_quote(void)
{
    for (int it = 0; it < 2000 * (int)tf_scale; it++) {
        unsigned char s[64];
        size_t n = cz_prng_next(&tf_rng) % sizeof s;
        int mode = it % 3;
        size_t len = 0;
        if (mode == 0) { /* arbitrary bytes */
            cz_prng_bytes(&tf_rng, s, n);
            len = n;
        } else if (mode == 1) { /* ASCII, control characters included */
            for (; len < n; len++)
                s[len] = (unsigned char)(cz_prng_next(&tf_rng) % 128);
        } else { /* encoded random code points, no surrogates */
            while (len + 4 <= sizeof s && len < n) {
                uint32_t cp = (uint32_t)(cz_prng_next(&tf_rng) % 0x110000);
                if (cp >= 0xd800 && cp <= 0xdfff)
                    continue;
                if (cp < 0x80)
                    s[len++] = (unsigned char)cp;
                else if (cp < 0x800) {
                    s[len++] = (unsigned char)(0xc0 | cp >> 6);
                    s[len++] = (unsigned char)(0x80 | (cp & 63));
                } else if (cp < 0x10000) {
                    s[len++] = (unsigned char)(0xe0 | cp >> 12);
                    s[len++] = (unsigned char)(0x80 | ((cp >> 6) & 63));
                    s[len++] = (unsigned char)(0x80 | (cp & 63));
                } else {
                    s[len++] = (unsigned char)(0xf0 | cp >> 18);
                    s[len++] = (unsigned char)(0x80 | ((cp >> 12) & 63));
                    s[len++] = (unsigned char)(0x80 | ((cp >> 6) & 63));
                    s[len++] = (unsigned char)(0x80 | (cp & 63));
                }
            }
        }
        cz_strbuf b;
        cz_strbuf_init(&b);
        cz_json_quote(&b, (const char *)s, len);
        size_t out_len;
        char *out = cz_strbuf_take(&b, &out_len);
        cz_json_doc doc;
        char err[256];
        int rc = cz_json_parse(&doc, out, out_len, 4, err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK, "iteration %d: %s", it, err);
        if (rc == CZ_OK) {
            if (mode != 0)
                TF_CHECK_MSG(doc.nodes[0].len == len && memcmp(doc.nodes[0].str, s, len) == 0,
                             "iteration %d: round trip", it);
            cz_json_free(&doc);
        }
        free(out);
    }
    /* nesting: balanced output, depth limit marks the buffer failed */
    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_jw w;
    cz_jw_init(&w, &b);
    for (int i = 0; i < CZ_JW_MAX_DEPTH + 1; i++)
        cz_jw_array(&w, NULL);
    TF_CHECK(cz_strbuf_take(&b, NULL) == NULL);
    cz_jw_init(&w, &b);
    cz_jw_object(&w, NULL);
    cz_jw_f64(&w, "inf", 1.0 / 0.0);
    cz_jw_array(&w, "a");
    cz_jw_u64(&w, NULL, UINT64_MAX);
    cz_jw_null(&w, NULL);
    cz_jw_end(&w);
    cz_jw_end(&w);
    char *out = cz_strbuf_take(&b, NULL);
    TF_CHECK(out && strcmp(out, "{\"inf\":null,\"a\":[18446744073709551615,null]}") == 0);
    free(out);
}

/* The family named name, or NULL. */
static const cz_metric_family *family_named(const char *name)
{
    for (size_t i = 0; i < cz_metric_n_families; i++)
        if (strcmp(cz_metric_families[i].name, name) == 0)
            return &cz_metric_families[i];
    return NULL;
}

static void test_status_table(void)
{
    /* the GetStatus message each section's proto names are fields of */
    const struct {
        const cz_status_section *sec;
        const ProtobufCMessageDescriptor *msg;
    } maps[] = {
        {&cz_status_jobs, &cuzk__v1__get_status_response__descriptor},
        {&cz_status_account, &cuzk__v1__get_status_response__descriptor},
        {&cz_status_memory, &cuzk__v1__get_status_response__descriptor},
        {&cz_status_kind, &cuzk__v1__queue_status__descriptor},
        {&cz_status_class, &cuzk__v1__buffer_class_status__descriptor},
        {&cz_status_vram, &cuzk__v1__gpustatus__descriptor},
        {&cz_status_circuit, &cuzk__v1__srsstatus__descriptor},
        {&cz_status_plan, &cuzk__v1__device_plan__descriptor},
    };
    size_t rows_of[64] = {0};
    TF_CHECK(cz_metric_n_families <= 64);
    for (size_t k = 0; k < cz_status_n_sections; k++) {
        const cz_status_section *sec = cz_status_sections[k];
        const ProtobufCMessageDescriptor *msg = NULL;
        for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++)
            if (maps[m].sec == sec)
                msg = maps[m].msg;
        for (size_t i = 0; i < sec->n; i++) {
            const cz_status_field *f = &sec->fields[i];
            const char *names[2] = {f->metric, f->gpu_metric};
            for (int j = 0; j < 2; j++) {
                if (names[j] == NULL)
                    continue;
                const cz_metric_family *fam = family_named(names[j]);
                TF_CHECK_MSG(fam != NULL, "row %s: no family %s", f->key, names[j]);
                if (fam == NULL)
                    continue;
                rows_of[fam - cz_metric_families]++;
                TF_CHECK_MSG((fam->label[0] != '\0') == (f->label != NULL),
                             "row %s of %s: label %s, the family's %s", f->key, fam->name,
                             f->label ? f->label : "none", fam->label);
            }
            TF_CHECK_MSG(f->key != NULL || f->metric != NULL, "section %zu row %zu shows nothing",
                         k, i);
            if (f->proto == NULL)
                continue;
            const ProtobufCFieldDescriptor *fd =
                msg ? protobuf_c_message_descriptor_get_field_by_name(msg, f->proto) : NULL;
            TF_CHECK_MSG(fd != NULL && (fd->type == PROTOBUF_C_TYPE_UINT32 ||
                                        fd->type == PROTOBUF_C_TYPE_UINT64),
                         "row %s: GetStatus field %s", f->key, f->proto);
        }
    }
    for (size_t i = 0; i < cz_metric_n_families; i++)
        TF_CHECK_MSG(rows_of[i] > 0, "family %s has no rows", cz_metric_families[i].name);
}

TF_MAIN(TF_TEST(test_status), TF_TEST(test_metrics), TF_TEST(test_status_live),
        TF_TEST(test_metrics_window),
        TF_TEST(test_errors), TF_TEST(test_bad_addresses), TF_TEST(test_concurrent),
        TF_TEST(test_protocol), TF_TEST(test_head), TF_TEST(test_head_limit),
        TF_TEST(test_head_deadline), TF_TEST(test_evict_addr), TF_TEST(test_evict_total),
        TF_TEST(test_trickle_attack), TF_TEST(test_json_quote), TF_TEST(test_status_table))
