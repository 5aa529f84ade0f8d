/* The daemon's configuration (contract in cuzk/config.h): one table row per
 * key with its type, field and bounds, applied to the tree of toml.c. */
#include "cuzk/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/units.h"
#include "daemon/toml.h"

typedef enum {
    K_STRING,    /* char[size], no control characters */
    K_LISTEN,    /* K_STRING that is a gRPC listen address */
    K_HOSTPORT,  /* K_STRING that is "" or HOST:PORT */
    K_BUDGET,    /* uint64_t: "auto" (0), a size string > 0 or an integer > 0 */
    K_SIZE,      /* uint64_t: a size string or a non-negative integer */
    K_DURATION,  /* uint64_t ms: a duration string or integer seconds */
    K_UNSIGNED,  /* unsigned in [min, max] */
    K_U64,       /* uint64_t in [min, max] */
    K_BOOL,      /* bool */
    K_DEVICES,   /* gpus_devices + n_gpus */
    K_GPU_BUDGET, /* gpu_memory_budget + n_gpu_memory_budget: one K_BUDGET or an array of them */
    K_CHOICE,    /* K_STRING among choices (NULL-terminated list) */
    K_DEPRECATED /* ignored after a type check (cz_toml_type in min) with a warning */
} kind;

typedef struct {
    const char *table, *key;
    kind kind;
    size_t off, size;
    uint64_t min, max;
    const char *const *choices; /* K_CHOICE */
    const char *note;           /* K_DEPRECATED: why it is ignored; any other
                                   kind: why it has no effect here (accepted
                                   for the Rust cuzk's files, warned when set) */
} keydef;

#define F(field) offsetof(cz_daemon_config, field), sizeof(((cz_daemon_config *)0)->field)

static const char *const levels[] = {"trace", "debug", "info", "warn", "error", NULL};
static const char *const formats[] = {"text", "json", NULL};

static const char *const NO_BATCH =
    "there is no cross-proof batching here: the partitions of every proof are pipelined";
static const char *const PIPELINED =
    "synthesis and proving always overlap here, bounded by the memory budget";

static const keydef keys[] = {
    {"daemon", "listen", K_LISTEN, F(listen), 0, 0, NULL, NULL},
    {"daemon", "status_listen", K_HOSTPORT, F(status_listen), 0, 0, NULL, NULL},
    {"daemon", "synthetic", K_BOOL, F(synthetic), 0, 0, NULL, NULL},
    {"srs", "param_cache", K_STRING, F(param_cache), 1, 0, NULL, NULL},
    {"srs", "checked_keys", K_STRING, F(checked_keys), 0, 0, NULL, NULL},
    {"srs", "preload", K_DEPRECATED, 0, 0, CZ_TOML_ARRAY, 0, NULL, "SRS is loaded on demand"},
    {"memory", "total_budget", K_BUDGET, F(total_budget), 0, 0, NULL, NULL},
    {"memory", "safety_margin", K_SIZE, F(safety_margin), 0, 0, NULL, NULL},
    {"memory", "eviction_min_idle", K_DURATION, F(eviction_min_idle_ms), 0, 0, NULL, NULL},
    {"memory", "pinned_budget", K_DEPRECATED, 0, 0, CZ_TOML_STRING, 0, NULL,
     "memory is managed by the unified memory.total_budget"},
    {"memory", "working_memory_budget", K_DEPRECATED, 0, 0, CZ_TOML_STRING, 0, NULL,
     "memory is managed by the unified memory.total_budget"},
    {"gpus", "devices", K_DEVICES, 0, 0, 0, 1023, NULL, NULL},
    {"gpus", "memory_budget", K_GPU_BUDGET, 0, 0, 0, 0, NULL, NULL},
    {"gpus", "gpu_threads", K_UNSIGNED, F(gpu_threads), 0, 4096, NULL, NULL},
    {"gpus", "gpu_workers_per_device", K_UNSIGNED, F(gpu_workers_per_device), 1, 16, NULL, NULL},
    {"scheduler", "max_batch_size", K_UNSIGNED, F(max_batch_size), 1, 64, NULL, NO_BATCH},
    {"scheduler", "max_batch_wait_ms", K_U64, F(max_batch_wait_ms), 0, 86400000, NULL, NO_BATCH},
    {"scheduler", "sort_by_type", K_BOOL, F(sort_by_type), 0, 0, NULL, NO_BATCH},
    {"scheduler", "max_queued_jobs", K_UNSIGNED, F(max_queued_jobs), 1, 65536, NULL, NULL},
    {"scheduler", "max_queued_partitions", K_UNSIGNED, F(max_queued_partitions), 1, 1u << 20, NULL,
     NULL},
    {"synthesis", "threads", K_UNSIGNED, F(synthesis_threads), 0, 1024, NULL, NULL},
    {"synthesis", "workers", K_UNSIGNED, F(synthesis_workers), 0, 1024, NULL, NULL},
    {"synthesis", "partition_workers", K_DEPRECATED, 0, 0, CZ_TOML_INT, 0, NULL,
     "synthesis concurrency is managed by the memory budget"},
    {"pipeline", "enabled", K_BOOL, F(pipeline_enabled), 0, 0, NULL, PIPELINED},
    {"pipeline", "synthesis_lookahead", K_UNSIGNED, F(synthesis_lookahead), 0, 1024, NULL,
     PIPELINED},
    {"pipeline", "synthesis_concurrency", K_UNSIGNED, F(synthesis_concurrency), 1, 1024, NULL,
     PIPELINED},
    {"pipeline", "max_parallel_synthesis", K_UNSIGNED, F(max_parallel_synthesis), 0, 1024, NULL,
     NULL},
    {"pipeline", "slot_size", K_UNSIGNED, F(slot_size), 0, 1024, NULL, PIPELINED},
    {"pipeline", "max_gpu_queue_depth", K_UNSIGNED, F(max_gpu_queue_depth), 0, 1024, NULL, NULL},
    {"pipeline", "self_verify", K_BOOL, F(self_verify), 0, 0, NULL, NULL},
    {"logging", "level", K_CHOICE, F(log_level), 0, 0, levels, NULL},
    {"logging", "format", K_CHOICE, F(log_format), 0, 0, formats, NULL},
    {"logging", "timeline", K_BOOL, F(timeline), 0, 0, NULL, NULL},
};

#define N_KEYS (sizeof keys / sizeof keys[0])

void cz_config_defaults(cz_daemon_config *c)
{
    memset(c, 0, sizeof *c);
    strcpy(c->listen, "unix:///run/curio/cuzk.sock");
    strcpy(c->param_cache, "/data/zk/params");
    c->safety_margin = 5ull << 30;
    c->eviction_min_idle_ms = 5 * 60 * 1000;
    c->gpu_workers_per_device = 2;
    c->max_batch_size = 1;
    c->max_batch_wait_ms = 10000;
    c->sort_by_type = true;
    c->pipeline_enabled = true;
    c->synthesis_lookahead = 1;
    c->synthesis_concurrency = 1;
    c->max_parallel_synthesis = 18;
    c->self_verify = true;
    c->max_queued_jobs = 256;
    c->max_queued_partitions = 4096;
    strcpy(c->log_level, "info");
    strcpy(c->log_format, "text");
}

/* ------------------------------------------------------------ parsing --- */

/* ------------------------------------------------------------ loading --- */

typedef struct {
    const cz_toml_doc *doc;
    const char *name;
    char *err;
    size_t errlen;
} loader;

static int bad(const loader *ld, size_t node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(const loader *ld, size_t node, const char *fmt, ...)
{
    if (ld->err == NULL || ld->errlen == 0)
        return CZ_ERR_BAD_FORMAT;
    char path[256], line[32] = "";
    cz_toml_path(ld->doc, node, path, sizeof path);
    if (ld->doc->nodes[node].line > 0) /* 0: a value from cz_config_set */
        snprintf(line, sizeof line, ":%zu", ld->doc->nodes[node].line);
    int k = snprintf(ld->err, ld->errlen, "%s%s: key %s: ", ld->name, line, path);
    if (k >= 0 && (size_t)k < ld->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ld->err + k, ld->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return CZ_ERR_BAD_FORMAT;
}

static const char *type_name(cz_toml_type t)
{
    switch (t) {
    case CZ_TOML_TABLE:
        return "a table";
    case CZ_TOML_STRING:
        return "a string";
    case CZ_TOML_INT:
        return "an integer";
    case CZ_TOML_FLOAT:
        return "a float";
    case CZ_TOML_BOOL:
        return "a boolean";
    case CZ_TOML_ARRAY:
        return "an array";
    }
    return "?";
}

static int want(const loader *ld, size_t k, cz_toml_type t)
{
    const cz_toml_node *v = &ld->doc->nodes[k];
    if (v->type == t)
        return CZ_OK;
    return bad(ld, k, "must be %s, not %s", type_name(t), type_name(v->type));
}

static int set_string(const loader *ld, size_t k, const keydef *d, char *dst)
{
    int rc = want(ld, k, CZ_TOML_STRING);
    if (rc != CZ_OK)
        return rc;
    const cz_toml_node *v = &ld->doc->nodes[k];
    if (v->len >= d->size)
        return bad(ld, k, "longer than %zu bytes", d->size - 1);
    for (size_t i = 0; i < v->len; i++)
        if ((unsigned char)v->str[i] < 0x20 || v->str[i] == 0x7f)
            return bad(ld, k, "control character in the value");
    if (d->min > 0 && v->len == 0)
        return bad(ld, k, "must not be empty");
    memcpy(dst, v->str, v->len + 1);
    return CZ_OK;
}

/* HOST:PORT with a non-empty host (a bracketed IPv6 address allowed) and a
 * port 1..65535. */
static bool host_port(const char *s)
{
    const char *colon = strrchr(s, ':');
    if (colon == NULL || colon == s)
        return false;
    if (s[0] == '[' && colon[-1] != ']')
        return false;
    for (const char *q = s; q < colon; q++)
        if (*q == ' ' || *q == '/')
            return false;
    uint64_t port;
    /* port 0 asks for any free port (tests, ephemeral daemons) */
    return cz_parse_u64(colon + 1, &port) == CZ_OK && port <= 65535 &&
           (colon[1] != '0' || colon[2] == 0);
}

int cz_config_check_listen(const char *addr, char *err, size_t errlen)
{
    if (strncmp(addr, "unix://", 7) == 0) {
        size_t n = strlen(addr + 7);
        if (n == 0 || n >= 108) {
            cz_msgf(err, errlen, "a unix socket path must be 1 to 107 bytes");
            return CZ_ERR_BAD_FORMAT;
        }
        return CZ_OK;
    }
    if (!host_port(addr)) {
        cz_msgf(err, errlen, "'%s' is neither unix:///PATH nor HOST:PORT", addr);
        return CZ_ERR_BAD_FORMAT;
    }
    return CZ_OK;
}

/* A budget at node k: "auto" (0), a size string above 0 or an integer
 * above 0; el > 0: element el of the array at node at, named so. */
static int budget_value(const loader *ld, size_t k, size_t at, unsigned el, uint64_t *x)
{
    const cz_toml_node *v = &ld->doc->nodes[k];
    char pre[32] = "";
    if (el)
        snprintf(pre, sizeof pre, "element %u: ", el);
    if (v->type == CZ_TOML_INT) {
        if (v->i <= 0)
            return bad(ld, at, "%smust be \"auto\" or a size above 0", pre);
        *x = (uint64_t)v->i;
    } else if (v->type != CZ_TOML_STRING) {
        return bad(ld, at, "%smust be a string, not %s", pre, type_name(v->type));
    } else if (strcmp(v->str, "auto") == 0) {
        *x = 0;
    } else if (cz_parse_size(v->str, x) != CZ_OK || *x == 0) {
        return bad(ld, at, "%s'%s' is not \"auto\" or a size such as \"256GiB\"", pre, v->str);
    }
    return CZ_OK;
}

static int apply(const loader *ld, size_t k, const keydef *d, cz_daemon_config *c,
                 cz_config_warn_fn *warn, void *warn_ctx)
{
    const cz_toml_node *v = &ld->doc->nodes[k];
    char *field = (char *)c + d->off;
    int rc;
    uint64_t x;
    switch (d->kind) {
    case K_STRING:
        return set_string(ld, k, d, field);
    case K_LISTEN: {
        char why[300];
        if ((rc = set_string(ld, k, d, field)) != CZ_OK)
            return rc;
        if (cz_config_check_listen(field, why, sizeof why) != CZ_OK)
            return bad(ld, k, "%s", why);
        return CZ_OK;
    }
    case K_HOSTPORT:
        if ((rc = set_string(ld, k, d, field)) != CZ_OK)
            return rc;
        if (field[0] != 0 && !host_port(field))
            return bad(ld, k, "'%s' is not HOST:PORT (or \"\" to disable)", field);
        return CZ_OK;
    case K_BUDGET:
        if ((rc = budget_value(ld, k, k, 0, &x)) != CZ_OK)
            return rc;
        memcpy(field, &x, sizeof x);
        return CZ_OK;
    case K_GPU_BUDGET:
        c->n_gpu_memory_budget = 0;
        if (v->type != CZ_TOML_ARRAY) {
            if ((rc = budget_value(ld, k, k, 0, &c->gpu_memory_budget[0])) != CZ_OK)
                return rc;
            c->n_gpu_memory_budget = c->gpu_memory_budget[0] ? 1 : 0; /* "auto": the default */
            return CZ_OK;
        }
        if (v->len == 0 || v->len > CZ_CONFIG_MAX_GPUS)
            return bad(ld, k, "an array needs 1 to %d budgets, one per device",
                       CZ_CONFIG_MAX_GPUS);
        for (size_t e = k + 1; e < ld->doc->n && c->n_gpu_memory_budget < v->len; e++) {
            if (ld->doc->nodes[e].parent != k)
                continue;
            if ((rc = budget_value(ld, e, k, c->n_gpu_memory_budget + 1,
                                   &c->gpu_memory_budget[c->n_gpu_memory_budget])) != CZ_OK)
                return rc;
            c->n_gpu_memory_budget++;
        }
        return CZ_OK;
    case K_SIZE:
        if (v->type == CZ_TOML_INT) {
            if (v->i < 0)
                return bad(ld, k, "must not be negative");
            x = (uint64_t)v->i;
        } else if ((rc = want(ld, k, CZ_TOML_STRING)) != CZ_OK) {
            return rc;
        } else if (cz_parse_size(v->str, &x) != CZ_OK) {
            return bad(ld, k, "'%s' is not a size such as \"5GiB\" or \"512MiB\"", v->str);
        }
        memcpy(field, &x, sizeof x);
        return CZ_OK;
    case K_DURATION:
        if (v->type == CZ_TOML_INT) {
            if (v->i < 0 || (uint64_t)v->i > UINT64_MAX / 1000)
                return bad(ld, k, "must be 0 to %llu seconds",
                           (unsigned long long)(UINT64_MAX / 1000));
            x = (uint64_t)v->i * 1000;
        } else if ((rc = want(ld, k, CZ_TOML_STRING)) != CZ_OK) {
            return rc;
        } else if (cz_parse_duration_ms(v->str, &x) != CZ_OK) {
            return bad(ld, k, "'%s' is not a duration such as \"5m\", \"300s\" or \"60\"", v->str);
        }
        memcpy(field, &x, sizeof x);
        return CZ_OK;
    case K_UNSIGNED:
    case K_U64:
        if ((rc = want(ld, k, CZ_TOML_INT)) != CZ_OK)
            return rc;
        if (v->i < 0 || (uint64_t)v->i < d->min || (uint64_t)v->i > d->max)
            return bad(ld, k, "%lld is out of range %llu..%llu", (long long)v->i,
                       (unsigned long long)d->min, (unsigned long long)d->max);
        if (d->kind == K_UNSIGNED) {
            unsigned u = (unsigned)v->i;
            memcpy(field, &u, sizeof u);
        } else {
            x = (uint64_t)v->i;
            memcpy(field, &x, sizeof x);
        }
        return CZ_OK;
    case K_BOOL:
        if ((rc = want(ld, k, CZ_TOML_BOOL)) != CZ_OK)
            return rc;
        memcpy(field, &v->b, sizeof v->b);
        return CZ_OK;
    case K_CHOICE:
        if ((rc = set_string(ld, k, d, field)) != CZ_OK)
            return rc;
        for (const char *const *ch = d->choices; *ch != NULL; ch++)
            if (strcmp(field, *ch) == 0)
                return CZ_OK;
        {
            char list[128] = "";
            for (const char *const *ch = d->choices; *ch != NULL; ch++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"",
                         ch == d->choices ? "" : ", ", *ch);
            return bad(ld, k, "'%s' is not one of %s", field, list);
        }
    case K_DEVICES: {
        if ((rc = want(ld, k, CZ_TOML_ARRAY)) != CZ_OK)
            return rc;
        if (v->len > CZ_CONFIG_MAX_GPUS)
            return bad(ld, k, "more than %d devices", CZ_CONFIG_MAX_GPUS);
        c->n_gpus = 0;
        for (size_t e = k + 1; e < ld->doc->n && c->n_gpus < v->len; e++) {
            const cz_toml_node *el = &ld->doc->nodes[e];
            if (el->parent != k)
                continue;
            if (el->type != CZ_TOML_INT)
                return bad(ld, k, "element %u must be an integer, not %s", c->n_gpus + 1,
                           type_name(el->type));
            if (el->i < 0 || el->i > (int64_t)d->max)
                return bad(ld, k, "device %lld is out of range 0..%llu", (long long)el->i,
                           (unsigned long long)d->max);
            for (unsigned j = 0; j < c->n_gpus; j++)
                if (c->gpus_devices[j] == (int)el->i)
                    return bad(ld, k, "device %lld listed twice", (long long)el->i);
            c->gpus_devices[c->n_gpus++] = (int)el->i;
        }
        return CZ_OK;
    }
    case K_DEPRECATED:
        if ((rc = want(ld, k, (cz_toml_type)d->min)) != CZ_OK)
            return rc;
        if (warn != NULL) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s:%zu: key %s.%s is deprecated: %s; ignored", ld->name,
                     v->line, d->table, d->key, d->note);
            warn(warn_ctx, msg);
        }
        return CZ_OK;
    }
    return CZ_ERR_BAD_FORMAT;
}

static const keydef *find(const char *table, const char *key)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].table, table) == 0 && strcmp(keys[i].key, key) == 0)
            return &keys[i];
    return NULL;
}

/* [circuits] id = "x.zkey" | "x.params,x.pce" */
static int apply_circuit(const loader *ld, size_t k, cz_daemon_config *c)
{
    const cz_toml_node *v = &ld->doc->nodes[k];
    size_t n = strlen(v->key);
    if (n == 0 || n >= sizeof c->circuits[0].id ||
        strspn(v->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                       "abcdefghijklmnopqrstuvwxyz"
                       "0123456789._-") != n)
        return bad(ld, k, "a circuit id needs 1 to 63 characters of A-Z a-z 0-9 . _ -");
    if (strncmp(v->key, CZ_CIRCUIT_ID_SYNTHETIC, strlen(CZ_CIRCUIT_ID_SYNTHETIC)) == 0)
        return bad(ld, k, "ids beginning with \"%s\" belong to the built-in synthetic kind",
                   CZ_CIRCUIT_ID_SYNTHETIC);
    if (v->type != CZ_TOML_STRING)
        return bad(ld, k, "expected a string: \"PATH.zkey\" or \"PATH.params,PATH.pce\"");
    if (c->n_circuits >= CZ_CONFIG_MAX_CIRCUITS)
        return bad(ld, k, "too many circuits");
    const char *comma = strchr(v->str, ',');
    size_t lp = comma ? (size_t)(comma - v->str) : strlen(v->str);
    const char *r1 = comma ? comma + 1 : "";
    bool zkey = !comma && lp > 5 && !strcmp(v->str + lp - 5, ".zkey");
    if ((!zkey && !comma) || lp == 0 || lp >= sizeof c->circuits[0].params ||
        (comma && (!*r1 || strlen(r1) >= sizeof c->circuits[0].r1cs || strchr(r1, ','))))
        return bad(ld, k, "expected \"PATH.zkey\" or \"PATH.params,PATH.pce\"");
    memcpy(c->circuits[c->n_circuits].id, v->key, n + 1);
    memcpy(c->circuits[c->n_circuits].params, v->str, lp);
    c->circuits[c->n_circuits].params[lp] = 0;
    snprintf(c->circuits[c->n_circuits].r1cs, sizeof c->circuits[0].r1cs, "%s", r1);
    c->n_circuits++;
    return CZ_OK;
}

static bool known_table(const char *table)
{
    if (strcmp(table, "circuits") == 0)
        return true;
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].table, table) == 0)
            return true;
    return false;
}

int cz_config_load_mem(cz_daemon_config *c, const char *text, size_t len, const char *name,
                       cz_config_warn_fn *warn, void *warn_ctx, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (c == NULL || (text == NULL && len > 0)) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "config: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    cz_config_defaults(c);
    name = name ? name : "(config)";
    cz_toml_doc doc;
    int rc = cz_toml_parse(&doc, text, len, name, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_daemon_config nc = *c;
    loader ld = {&doc, name, err, errlen};
    /* Nodes 1.. in file order: a table directly under the root must be
     * known; a key of such a table must be in keys[]; anything deeper
     * belongs to a key already applied (array elements) or sits under an
     * unknown key, which was reported first. */
    for (size_t k = 1; k < doc.n && rc == CZ_OK; k++) {
        const cz_toml_node *v = &doc.nodes[k];
        if (v->parent == 0) {
            if (v->type != CZ_TOML_TABLE)
                rc = bad(&ld, k, "unknown key (top-level keys must be in a [table])");
            else if (!known_table(v->key))
                rc = bad(&ld, k, "unknown table");
        } else if (doc.nodes[v->parent].parent == 0 && doc.nodes[v->parent].type == CZ_TOML_TABLE) {
            const keydef *d = find(doc.nodes[v->parent].key, v->key);
            if (strcmp(doc.nodes[v->parent].key, "circuits") == 0)
                rc = apply_circuit(&ld, k, &nc);
            else
                rc = d ? apply(&ld, k, d, &nc, warn, warn_ctx) : bad(&ld, k, "unknown key");
            if (rc == CZ_OK && d && d->kind != K_DEPRECATED && d->note && warn) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s:%zu: key %s.%s has no effect here: %s", name, v->line,
                         d->table, d->key, d->note);
                warn(warn_ctx, msg);
            }
        }
    }
    if (rc == CZ_OK) {
        if (nc.max_parallel_synthesis == 0)
            nc.max_parallel_synthesis = 18;
        *c = nc;
    }
    cz_toml_free(&doc);
    return rc;
}

int cz_config_load_file(cz_daemon_config *c, const char *path, cz_config_warn_fn *warn,
                        void *warn_ctx, char *err, size_t errlen)
{
    if (c == NULL || path == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "config: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    cz_config_defaults(c);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CZ_ERR_IO;
    }
    /* One byte past the limit is enough to reject a file too large. */
    size_t cap = CZ_TOML_MAX_BYTES + 1, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        fclose(f);
        return CZ_ERR_NOMEM;
    }
    n = fread(buf, 1, cap, f);
    int rd_err = ferror(f);
    fclose(f);
    int rc;
    if (rd_err) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: read error", path);
        rc = CZ_ERR_IO;
    } else {
        rc = cz_config_load_mem(c, buf, n, path, warn, warn_ctx, err, errlen);
    }
    free(buf);
    return rc;
}

int cz_config_set(cz_daemon_config *c, const char *key, const char *value, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = 0;
    if (c == NULL || key == NULL || value == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "config: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    const keydef *d = NULL;
    const char *dot = strchr(key, '.');
    for (size_t i = 0; dot != NULL && i < N_KEYS && d == NULL; i++)
        if (strlen(keys[i].table) == (size_t)(dot - key) &&
            memcmp(keys[i].table, key, (size_t)(dot - key)) == 0 &&
            strcmp(keys[i].key, dot + 1) == 0)
            d = &keys[i];
    if (d == NULL || d->kind == K_DEPRECATED) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "command line: key %.200s: %s", key,
                     d == NULL ? "unknown key" : "deprecated and ignored");
        return CZ_ERR_BAD_FORMAT;
    }
    cz_toml_doc doc = {0};
    cz_toml_node nodes[3];
    int rc = CZ_OK;
    if (d->kind == K_UNSIGNED || d->kind == K_U64 || d->kind == K_BOOL || d->kind == K_DEVICES ||
        (d->kind == K_GPU_BUDGET && value[0] == '[')) {
        /* A TOML value: "[table]\nkey = VALUE". */
        size_t n = strlen(d->table) + strlen(d->key) + strlen(value) + 8;
        char *text = malloc(n);
        if (text == NULL)
            return CZ_ERR_NOMEM;
        snprintf(text, n, "[%s]\n%s = %s", d->table, d->key, value);
        char msg[512] = ":";
        rc = cz_toml_parse(&doc, text, strlen(text), "", msg, sizeof msg);
        free(text);
        if (rc != CZ_OK) {
            /* msg is ":LINE: [key K: ]what": keep only what. */
            const char *what = strchr(msg + 1, ':');
            what = what ? what + 2 : msg;
            if (strncmp(what, "key ", 4) == 0 && strstr(what, ": ") != NULL)
                what = strstr(what, ": ") + 2;
            if (err != NULL && errlen > 0)
                snprintf(err, errlen, "command line: key %s.%s: %s", d->table, d->key, what);
            return rc;
        }
        for (size_t i = 0; i < doc.n; i++)
            doc.nodes[i].line = 0;
        if (doc.nodes[0].len != 1 || doc.nodes[1].len != 1 || doc.nodes[2].parent != 1 ||
            strcmp(doc.nodes[2].key, d->key) != 0) {
            if (err != NULL && errlen > 0)
                snprintf(err, errlen, "command line: key %s.%s: '%.200s' is not one value",
                         d->table, d->key, value);
            cz_toml_free(&doc);
            return CZ_ERR_BAD_FORMAT;
        }
    } else {
        /* A string, taken as it is. */
        memset(nodes, 0, sizeof nodes);
        nodes[1].type = CZ_TOML_TABLE;
        nodes[1].key = d->table;
        nodes[1].key_len = strlen(d->table);
        nodes[1].len = 1;
        nodes[2].type = CZ_TOML_STRING;
        nodes[2].parent = 1;
        nodes[2].key = d->key;
        nodes[2].key_len = strlen(d->key);
        nodes[2].str = value;
        nodes[2].len = strlen(value);
        doc.nodes = nodes;
        doc.n = 3;
    }
    loader ld = {&doc, "command line", err, errlen};
    cz_daemon_config nc = *c;
    rc = apply(&ld, 2, d, &nc, NULL, NULL);
    if (rc == CZ_OK) {
        if (nc.max_parallel_synthesis == 0)
            nc.max_parallel_synthesis = 18;
        *c = nc;
    }
    if (doc.nodes != nodes)
        cz_toml_free(&doc);
    return rc;
}
