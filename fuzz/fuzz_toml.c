/* libFuzzer harness for the TOML reader (src/daemon/toml.h) and the
 * daemon's configuration on top of it (include/cuzk/config.h).
 *
 * The first byte picks the reader (even: cz_toml_parse; 1 mod 4:
 * cz_config_load_mem; 3 mod 4: cz_config_set with the text before the
 * first '=' as key and the rest as value); the rest is the text.
 * Invariants, abort() when one fails:
 *   - a rejection returns a known code (never INVALID_ARG or IO) with a
 *     message that starts "fuzz:LINE: " ("command line: key " for
 *     cz_config_set), and leaves the document zeroed or
 *     the configuration at its defaults;
 *   - an accepted document is a tree: node 0 the root, every parent before
 *     its children, a table's keys non-NULL and distinct, an array's
 *     elements keyless, each count equal to its children, every key and
 *     string NUL-terminated at its length with no NUL inside;
 *   - an accepted configuration has every field in its documented range.
 * Seed corpus: fuzz/corpus/toml (cuzk-style files, each after its selector
 * byte).  Run with scripts/fuzz.sh. */
#include <stdlib.h>
#include <string.h>

#include "../src/daemon/toml.h"
#include "cuzk/config.h"
#include "cuzk/err.h"
#include "fuzz.h"

static void check_message(int rc, const char *err)
{
    CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_UNSUPPORTED || rc == CZ_ERR_TOO_BIG ||
          rc == CZ_ERR_NOMEM);
    CHECK(strncmp(err, "fuzz:", 5) == 0 && err[5] >= '1' && err[5] <= '9');
    CHECK(strstr(err, ": ") != NULL);
}

static void check_doc(const cz_toml_doc *d)
{
    CHECK(d->n >= 1 && d->nodes[0].type == CZ_TOML_TABLE && d->nodes[0].key == NULL);
    size_t *count = calloc(d->n, sizeof *count);
    CHECK(count != NULL);
    char path[256];
    for (size_t i = 1; i < d->n; i++) {
        const cz_toml_node *v = &d->nodes[i], *p = &d->nodes[v->parent];
        CHECK(v->parent < i && (p->type == CZ_TOML_TABLE || p->type == CZ_TOML_ARRAY));
        CHECK((p->type == CZ_TOML_ARRAY) == (v->key == NULL));
        count[v->parent]++;
        if (v->key != NULL) {
            CHECK(strlen(v->key) == v->key_len);
            for (size_t j = v->parent + 1; j < i; j++)
                CHECK(d->nodes[j].parent != v->parent || d->nodes[j].key_len != v->key_len ||
                      memcmp(d->nodes[j].key, v->key, v->key_len) != 0);
        }
        if (v->type == CZ_TOML_STRING)
            CHECK(v->str != NULL && strlen(v->str) == v->len);
        cz_toml_path(d, i, path, sizeof path);
        CHECK(strlen(path) < sizeof path);
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->nodes[i].type == CZ_TOML_TABLE || d->nodes[i].type == CZ_TOML_ARRAY)
            CHECK(count[i] == d->nodes[i].len);
    free(count);
}

static bool same_defaults(const cz_daemon_config *c)
{
    cz_daemon_config d;
    cz_config_defaults(&d);
    return strcmp(c->listen, d.listen) == 0 && c->status_listen[0] == 0 &&
           strcmp(c->param_cache, d.param_cache) == 0 && c->total_budget == d.total_budget &&
           c->safety_margin == d.safety_margin && c->n_gpus == 0 &&
           c->gpu_workers_per_device == d.gpu_workers_per_device &&
           c->max_batch_size == d.max_batch_size && c->max_parallel_synthesis == 18 &&
           strcmp(c->log_level, d.log_level) == 0 && strcmp(c->log_format, d.log_format) == 0;
}

static void check_config(const cz_daemon_config *c)
{
    CHECK(memchr(c->listen, 0, sizeof c->listen) && c->listen[0] != 0);
    CHECK(memchr(c->status_listen, 0, sizeof c->status_listen));
    CHECK(memchr(c->param_cache, 0, sizeof c->param_cache) && c->param_cache[0] != 0);
    CHECK(c->n_gpus <= CZ_CONFIG_MAX_GPUS);
    for (unsigned i = 0; i < c->n_gpus; i++) {
        CHECK(c->gpus_devices[i] >= 0 && c->gpus_devices[i] <= 1023);
        for (unsigned j = 0; j < i; j++)
            CHECK(c->gpus_devices[i] != c->gpus_devices[j]);
    }
    CHECK(c->gpu_threads <= 4096 && c->gpu_workers_per_device >= 1 &&
          c->gpu_workers_per_device <= 16);
    CHECK(c->max_batch_size >= 1 && c->max_batch_size <= 64 && c->max_batch_wait_ms <= 86400000);
    CHECK(c->synthesis_threads <= 4096 && c->synthesis_workers <= 1024);
    CHECK(c->synthesis_lookahead <= 1024 && c->synthesis_concurrency >= 1 &&
          c->synthesis_concurrency <= 1024);
    CHECK(c->max_parallel_synthesis >= 1 && c->max_parallel_synthesis <= 1024);
    CHECK(c->slot_size <= 1024 && c->max_gpu_queue_depth <= 1024);
    CHECK(c->max_queued_jobs >= 1 && c->max_queued_jobs <= 65536);
    CHECK(c->max_queued_partitions >= 1 && c->max_queued_partitions <= (1u << 20));
    static const char *const levels[] = {"trace", "debug", "info", "warn", "error"};
    bool ok = false;
    for (size_t i = 0; i < 5; i++)
        ok = ok || strcmp(c->log_level, levels[i]) == 0;
    CHECK(ok && (strcmp(c->log_format, "text") == 0 || strcmp(c->log_format, "json") == 0));
}

static void on_warn(void *ctx, const char *msg)
{
    CHECK(strncmp(msg, "fuzz:", 5) == 0 &&
          (strstr(msg, " is deprecated: ") != NULL || strstr(msg, " has no effect here: ") != NULL));
    ++*(unsigned *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    char err[512] = "";
    if ((data[0] & 1) == 0) {
        static const cz_toml_doc zero;
        cz_toml_doc d;
        int rc = cz_toml_parse(&d, text, len, "fuzz", err, sizeof err);
        if (rc != CZ_OK) {
            check_message(rc, err);
            CHECK(memcmp(&d, &zero, sizeof d) == 0);
            return 0;
        }
        check_doc(&d);
        cz_toml_free(&d);
        CHECK(memcmp(&d, &zero, sizeof d) == 0);
        return 0;
    }
    cz_daemon_config c;
    if (data[0] & 2) {
        char *kv = malloc(len + 1);
        CHECK(kv != NULL);
        memcpy(kv, text, len);
        kv[len] = 0;
        char *eq = strchr(kv, '=');
        if (eq != NULL)
            *eq = 0;
        cz_config_defaults(&c);
        int rc = cz_config_set(&c, kv, eq ? eq + 1 : "", err, sizeof err);
        free(kv);
        if (rc != CZ_OK) {
            CHECK(rc == CZ_ERR_BAD_FORMAT || rc == CZ_ERR_UNSUPPORTED || rc == CZ_ERR_TOO_BIG ||
                  rc == CZ_ERR_NOMEM);
            CHECK(strncmp(err, "command line: key ", 18) == 0);
            CHECK(same_defaults(&c));
            return 0;
        }
        check_config(&c);
        return 0;
    }
    unsigned warnings = 0;
    int rc = cz_config_load_mem(&c, text, len, "fuzz", on_warn, &warnings, err, sizeof err);
    if (rc != CZ_OK) {
        check_message(rc, err);
        CHECK(same_defaults(&c));
        return 0;
    }
    check_config(&c);
    return 0;
}
