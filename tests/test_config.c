/* The daemon's configuration (cuzk/config.h) and its TOML reader
 * (src/daemon/toml.h): defaults, the documented example, every key's type
 * and range errors, deprecated keys, syntax errors with their lines, size
 * and duration parsing, and numbers read back after random formatting. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/config.h"
#include "cuzk/err.h"
#include "daemon/toml.h"
#include "fixture.h"
#include "tf.h"

#define GIB (1ull << 30)

typedef struct {
    unsigned n;
    char last[512];
} warnings;

static void on_warn(void *ctx, const char *msg)
{
    warnings *w = ctx;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", msg);
}

static int load(cz_daemon_config *c, const char *text, warnings *w, char *err, size_t errlen)
{
    return cz_config_load_mem(c, text, strlen(text), "t.toml", on_warn, w, err, errlen);
}

static bool same(const cz_daemon_config *a, const cz_daemon_config *b)
{
    bool ok =
        strcmp(a->listen, b->listen) == 0 && strcmp(a->status_listen, b->status_listen) == 0 &&
        strcmp(a->param_cache, b->param_cache) == 0 &&
        strcmp(a->checked_keys, b->checked_keys) == 0 && a->total_budget == b->total_budget &&
        a->safety_margin == b->safety_margin &&
        a->eviction_min_idle_ms == b->eviction_min_idle_ms && a->n_gpus == b->n_gpus &&
        a->gpu_threads == b->gpu_threads &&
        a->gpu_workers_per_device == b->gpu_workers_per_device &&
        a->max_batch_size == b->max_batch_size && a->max_batch_wait_ms == b->max_batch_wait_ms &&
        a->sort_by_type == b->sort_by_type && a->synthesis_threads == b->synthesis_threads &&
        a->synthesis_workers == b->synthesis_workers &&
        a->pipeline_enabled == b->pipeline_enabled &&
        a->synthesis_lookahead == b->synthesis_lookahead &&
        a->synthesis_concurrency == b->synthesis_concurrency && a->synthetic == b->synthetic &&
        a->max_queued_jobs == b->max_queued_jobs &&
        a->max_queued_partitions == b->max_queued_partitions &&
        a->max_parallel_synthesis == b->max_parallel_synthesis && a->slot_size == b->slot_size &&
        a->max_gpu_queue_depth == b->max_gpu_queue_depth && a->self_verify == b->self_verify &&
        strcmp(a->log_level, b->log_level) == 0 && strcmp(a->log_format, b->log_format) == 0 &&
        a->timeline == b->timeline;
    for (unsigned i = 0; ok && i < a->n_gpus; i++)
        ok = a->gpus_devices[i] == b->gpus_devices[i];
    ok = ok && a->n_gpu_memory_budget == b->n_gpu_memory_budget;
    for (unsigned i = 0; ok && i < a->n_gpu_memory_budget; i++)
        ok = a->gpu_memory_budget[i] == b->gpu_memory_budget[i];
    return ok;
}

/* ------------------------------------------------------------ defaults --- */

/* The defaults of the Rust cuzk's config.rs (Default impls). */
static void test_defaults(void)
{
    cz_daemon_config c, e;
    cz_config_defaults(&c);
    TF_CHECK(strcmp(c.listen, "unix:///run/curio/cuzk.sock") == 0);
    TF_CHECK(c.status_listen[0] == 0);
    TF_CHECK(strcmp(c.param_cache, "/data/zk/params") == 0 && c.checked_keys[0] == 0);
    TF_CHECK(c.total_budget == 0 && c.safety_margin == 5 * GIB);
    TF_CHECK(c.eviction_min_idle_ms == 300000);
    TF_CHECK(c.n_gpus == 0 && c.gpu_threads == 0 && c.gpu_workers_per_device == 2);
    TF_CHECK(c.max_batch_size == 1 && c.max_batch_wait_ms == 10000 && c.sort_by_type);
    TF_CHECK(c.synthesis_threads == 0 && c.synthesis_workers == 0);
    TF_CHECK(c.pipeline_enabled && c.synthesis_lookahead == 1 && c.synthesis_concurrency == 1);
    TF_CHECK(c.max_parallel_synthesis == 18 && c.slot_size == 0 && c.max_gpu_queue_depth == 0);
    TF_CHECK(c.self_verify && !c.timeline);
    TF_CHECK(strcmp(c.log_level, "info") == 0 && strcmp(c.log_format, "text") == 0);

    /* An empty file, or one of comments and empty tables, is the defaults. */
    const char *empties[] = {"", "\n\n", "# nothing\n", "[daemon]\n[memory]\n# x\n[logging]",
                             "\xef\xbb\xbf# bom\r\n"};
    for (size_t i = 0; i < sizeof empties / sizeof empties[0]; i++) {
        warnings w = {0};
        char err[256];
        memset(&e, 0x5a, sizeof e);
        TF_CHECK_MSG(load(&e, empties[i], &w, err, sizeof err) == CZ_OK, "%zu: %s", i, err);
        TF_CHECK(same(&c, &e) && w.n == 0);
    }
}

/* docs/cuzk.example.toml lists every key at its default: it loads without
 * a warning and gives the defaults. */
static void test_example_file(void)
{
    char path[1024], err[512];
    tf_fixture_path(path, sizeof path, "..", "../docs/cuzk.example.toml");
    cz_daemon_config c, d;
    warnings w = {0};
    int rc = cz_config_load_file(&c, path, on_warn, &w, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s: %s", path, err);
    TF_CHECK_MSG(w.n == 0, "warning: %s", w.last);
    cz_config_defaults(&d);
    TF_CHECK(same(&c, &d));

    /* Every key of the table appears in it (a key left out of the docs
     * would show up here as a key absent from the example). */
    tf_blob b = tf_fixture("..", "../docs/cuzk.example.toml");
    static const char *keys[] = {"listen",
                                 "status_listen",
                                 "total_budget",
                                 "safety_margin",
                                 "eviction_min_idle",
                                 "devices",
                                 "gpu_threads",
                                 "gpu_workers_per_device",
                                 "synthetic",
                                 "max_queued_jobs",
                                 "max_queued_partitions",
                                 "workers",
                                 "threads",
                                 "param_cache",
                                 "checked_keys",
                                 "max_parallel_synthesis",
                                 "max_gpu_queue_depth",
                                 "self_verify",
                                 "level",
                                 "format",
                                 "timeline"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char pat[64];
        snprintf(pat, sizeof pat, "\n%s = ", keys[i]);
        TF_CHECK_MSG(b.p != NULL && strstr((const char *)b.p, pat) != NULL, "%s", keys[i]);
    }
    /* the Rust cuzk's keys without effect here are listed, commented out */
    static const char *noop[] = {"scheduler.max_batch_size", "scheduler.max_batch_wait_ms",
                                 "scheduler.sort_by_type",   "pipeline.enabled",
                                 "pipeline.synthesis_lookahead", "pipeline.synthesis_concurrency",
                                 "pipeline.slot_size"};
    for (size_t i = 0; i < sizeof noop / sizeof noop[0]; i++) {
        char pat[80];
        snprintf(pat, sizeof pat, "\n#   %s ", noop[i]);
        const char *at = b.p ? strstr((const char *)b.p, pat) : NULL;
        if (at == NULL) { /* a key alone on its line */
            snprintf(pat, sizeof pat, "\n#   %s\n", noop[i]);
            at = b.p ? strstr((const char *)b.p, pat) : NULL;
        }
        TF_CHECK_MSG(at != NULL, "%s is not listed", noop[i]);
    }
    free(b.p);

    rc = cz_config_load_file(&c, "/nonexistent/cuzk.toml", NULL, NULL, err, sizeof err);
    TF_CHECK(rc == CZ_ERR_IO && strstr(err, "/nonexistent/cuzk.toml") != NULL);
}

/* The keys of the Rust cuzk's cuzk.example.toml (current and older
 * versions), values changed. */
static void test_cuzk_files(void)
{
    const char *current =
        "[daemon]\nlisten = \"0.0.0.0:9820\"\n# status_listen = \"0.0.0.0:9821\"\n"
        "[srs]\nparam_cache = \"/data/zk/params\"\n"
        "[memory]\ntotal_budget = \"auto\"\nsafety_margin = \"8GiB\"\neviction_min_idle = \"10m\"\n"
        "[gpus]\ndevices = []\ngpu_threads = 32\ngpu_workers_per_device = 2\n"
        "[scheduler]\nmax_batch_size = 1\nmax_batch_wait_ms = 10000\nsort_by_type = true\n"
        "[synthesis]\nthreads = 0\n"
        "[pipeline]\nenabled = true\nsynthesis_lookahead = 1\nsynthesis_concurrency = 1\n"
        "[logging]\nlevel = \"info\"\n# format = \"json\"\n";
    cz_daemon_config c;
    warnings w = {0};
    char err[512];
    TF_CHECK_MSG(load(&c, current, &w, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK(strcmp(c.listen, "0.0.0.0:9820") == 0 && c.gpu_threads == 32);
    TF_CHECK(c.safety_margin == 8 * GIB && c.eviction_min_idle_ms == 600000);
    /* its keys without effect here, one warning each: the three of
     * [scheduler], three of [pipeline] (param_cache and synthesis.threads
     * work) */
    TF_CHECK_MSG(w.n == 6, "%d warnings", w.n);
    TF_CHECK_MSG(strcmp(w.last, "t.toml:23: key pipeline.synthesis_concurrency has no effect "
                                "here: synthesis and proving always overlap here, bounded by "
                                "the memory budget") == 0,
                 "%s", w.last);
    w = (warnings){0};

    const char *old = "[srs]\nparam_cache = \"/p\"\npreload = [\"porep-32g\"]\n"
                      "[memory]\npinned_budget = \"50GiB\"\nworking_memory_budget = \"80GiB\"\n"
                      "[synthesis]\nthreads = 4\npartition_workers = 12\n";
    TF_CHECK_MSG(load(&c, old, &w, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK(w.n == 4 && c.synthesis_threads == 4 && strcmp(c.param_cache, "/p") == 0);
    TF_CHECK_MSG(strcmp(w.last, "t.toml:9: key synthesis.partition_workers is deprecated: "
                                "synthesis concurrency is managed by the memory budget; "
                                "ignored") == 0,
                 "%s", w.last);
    /* Deprecated keys are still type-checked. */
    TF_CHECK(load(&c, "[synthesis]\npartition_workers = \"x\"\n", &w, err, sizeof err) ==
             CZ_ERR_BAD_FORMAT);
    TF_CHECK_MSG(strstr(err, "t.toml:2: key synthesis.partition_workers: must be an integer") ==
                     err,
                 "%s", err);
    /* No callback: the warning is dropped. */
    TF_CHECK(cz_config_load_mem(&c, old, strlen(old), NULL, NULL, NULL, err, sizeof err) == CZ_OK);
}

/* Every key set to a value other than its default. */
static void test_all_keys(void)
{
    const char *text =
        "[daemon]\nlisten = \"unix:///tmp/c.sock\"\nstatus_listen = \"[::1]:9821\"\n"
        "synthetic = true\n"
        "[srs]\nparam_cache = 'C:\\params'\nchecked_keys = \"/var/lib/cuzk/checked-keys\"\n"
        "[memory]\ntotal_budget = \"256GiB\"\nsafety_margin = 1_048_576\n"
        "eviction_min_idle = 90\n"
        "[gpus]\ndevices = [ 3, 0x1,\n  7, ] # three\ngpu_threads = 8\n"
        "gpu_workers_per_device = 1\n"
        "[scheduler]\nmax_batch_size = 3\nmax_batch_wait_ms = 0\nsort_by_type = false\n"
        "max_queued_jobs = 9\nmax_queued_partitions = 99\n"
        "[synthesis]\nthreads = 64\nworkers = 12\n"
        "[pipeline]\nenabled = false\nsynthesis_lookahead = 0\n"
        "synthesis_concurrency = 2\nmax_parallel_synthesis = 0\nslot_size = 3\n"
        "max_gpu_queue_depth = 8\nself_verify = false\n"
        "[logging]\nlevel = \"debug\"\nformat = \"json\"\ntimeline = true\n";
    cz_daemon_config c;
    warnings w = {0};
    char err[512];
    TF_CHECK_MSG(load(&c, text, &w, err, sizeof err) == CZ_OK, "%s", err);
    TF_CHECK(strcmp(c.listen, "unix:///tmp/c.sock") == 0);
    TF_CHECK(strcmp(c.status_listen, "[::1]:9821") == 0);
    TF_CHECK(strcmp(c.param_cache, "C:\\params") == 0);
    TF_CHECK(strcmp(c.checked_keys, "/var/lib/cuzk/checked-keys") == 0);
    TF_CHECK(c.total_budget == 256 * GIB && c.safety_margin == 1048576);
    TF_CHECK(c.eviction_min_idle_ms == 90000);
    TF_CHECK(c.n_gpus == 3 && c.gpus_devices[0] == 3 && c.gpus_devices[1] == 1 &&
             c.gpus_devices[2] == 7);
    TF_CHECK(c.gpu_threads == 8 && c.gpu_workers_per_device == 1);
    TF_CHECK(c.max_batch_size == 3 && c.max_batch_wait_ms == 0 && !c.sort_by_type);
    TF_CHECK(c.synthesis_threads == 64 && c.synthesis_workers == 12);
    TF_CHECK(!c.pipeline_enabled && c.synthesis_lookahead == 0 && c.synthesis_concurrency == 2);
    TF_CHECK(c.max_parallel_synthesis == 18 && c.slot_size == 3 && c.max_gpu_queue_depth == 8);
    TF_CHECK(!c.self_verify && c.timeline);
    TF_CHECK(c.synthetic && c.max_queued_jobs == 9 && c.max_queued_partitions == 99);
    TF_CHECK(strcmp(c.log_level, "debug") == 0 && strcmp(c.log_format, "json") == 0);

    /* Dotted keys at the top level reach the same fields. */
    TF_CHECK_MSG(load(&c, "memory.total_budget = \"1TiB\"\ngpus.devices = [2]\n", &w, err,
                      sizeof err) == CZ_OK,
                 "%s", err);
    TF_CHECK(c.total_budget == 1024 * GIB && c.n_gpus == 1 && c.gpus_devices[0] == 2);
    TF_CHECK(load(&c, "memory.total_budget = 0x10_0000_0000\n", &w, err, sizeof err) == CZ_OK &&
             c.total_budget == 64 * GIB);
    /* gpus.memory_budget: one value for every device, or one each */
    TF_CHECK_MSG(load(&c, "gpus.memory_budget = \"16GiB\"\n", &w, err, sizeof err) == CZ_OK, "%s",
                 err);
    TF_CHECK(c.n_gpu_memory_budget == 1 && c.gpu_memory_budget[0] == 16 * GIB);
    TF_CHECK_MSG(load(&c, "[gpus]\nmemory_budget = [\"10GiB\", \"auto\", 12884901888]\n", &w, err,
                      sizeof err) == CZ_OK,
                 "%s", err);
    TF_CHECK(c.n_gpu_memory_budget == 3 && c.gpu_memory_budget[0] == 10 * GIB &&
             c.gpu_memory_budget[1] == 0 && c.gpu_memory_budget[2] == 12 * GIB);
    cz_config_defaults(&c);
    TF_CHECK(c.n_gpu_memory_budget == 0);
    TF_CHECK_MSG(cz_config_set(&c, "gpus.memory_budget", "24GiB", err, sizeof err) == CZ_OK, "%s",
                 err);
    TF_CHECK(c.n_gpu_memory_budget == 1 && c.gpu_memory_budget[0] == 24 * GIB);
    TF_CHECK_MSG(cz_config_set(&c, "gpus.memory_budget", "[\"8GiB\", \"9GiB\"]", err,
                               sizeof err) == CZ_OK,
                 "%s", err);
    TF_CHECK(c.n_gpu_memory_budget == 2 && c.gpu_memory_budget[1] == 9 * GIB);
}

/* ---------------------------------------------------------- key errors --- */

typedef struct {
    const char *text;
    const char *msg; /* the whole expected message */
} bad_case;

static void check_bad(const bad_case *cases, size_t n, int code)
{
    for (size_t i = 0; i < n; i++) {
        cz_daemon_config c, d;
        warnings w = {0};
        char err[512];
        int rc = load(&c, cases[i].text, &w, err, sizeof err);
        TF_CHECK_MSG(rc == code, "case %zu (%s): rc %d (%s)", i, cases[i].text, rc, err);
        TF_CHECK_MSG(strcmp(err, cases[i].msg) == 0, "case %zu:\n  got  %s\n  want %s", i, err,
                     cases[i].msg);
        cz_config_defaults(&d);
        TF_CHECK_MSG(same(&c, &d), "case %zu: a failed load left non-defaults", i);
    }
}

static void test_key_errors(void)
{
    static const bad_case cases[] = {
        {"[daemon]\nlisten = 5\n", "t.toml:2: key daemon.listen: must be a string, not an integer"},
        {"[daemon]\nlisten = \"\"\n",
         "t.toml:2: key daemon.listen: '' is neither unix:///PATH nor HOST:PORT"},
        {"[daemon]\nlisten = \"0.0.0.0\"\n",
         "t.toml:2: key daemon.listen: '0.0.0.0' is neither unix:///PATH nor HOST:PORT"},
        {"[daemon]\nlisten = \"h:65536\"\n",
         "t.toml:2: key daemon.listen: 'h:65536' is neither unix:///PATH nor HOST:PORT"},
        {"[daemon]\nlisten = \"unix://\"\n",
         "t.toml:2: key daemon.listen: a unix socket path must be 1 to 107 bytes"},
        {"[daemon]\nlisten = \"a\\tb:1\"\n",
         "t.toml:2: key daemon.listen: control character in the value"},
        {"[daemon]\nstatus_listen = \"unix:///x\"\n",
         "t.toml:2: key daemon.status_listen: 'unix:///x' is not HOST:PORT (or \"\" to disable)"},
        {"[daemon]\nstatus_listen = true\n",
         "t.toml:2: key daemon.status_listen: must be a string, not a boolean"},
        {"[daemon]\nsynthetic = 1\n",
         "t.toml:2: key daemon.synthetic: must be a boolean, not an integer"},
        {"[scheduler]\nmax_queued_jobs = 0\n",
         "t.toml:2: key scheduler.max_queued_jobs: 0 is out of range 1..65536"},
        {"[scheduler]\nmax_queued_partitions = 1048577\n",
         "t.toml:2: key scheduler.max_queued_partitions: 1048577 is out of range 1..1048576"},
        {"[srs]\nparam_cache = \"\"\n", "t.toml:2: key srs.param_cache: must not be empty"},
        {"[srs]\npreload = \"porep\"\n",
         "t.toml:2: key srs.preload: must be an array, not a string"},
        {"[memory]\ntotal_budget = 0\n",
         "t.toml:2: key memory.total_budget: must be \"auto\" or a size above 0"},
        {"[memory]\ntotal_budget = true\n",
         "t.toml:2: key memory.total_budget: must be a string, not a boolean"},
        {"[memory]\ntotal_budget = \"0GiB\"\n",
         "t.toml:2: key memory.total_budget: '0GiB' is not \"auto\" or a size such as \"256GiB\""},
        {"[memory]\ntotal_budget = \"Auto\"\n",
         "t.toml:2: key memory.total_budget: 'Auto' is not \"auto\" or a size such as \"256GiB\""},
        {"[memory]\nsafety_margin = \"5 gb\"\n",
         "t.toml:2: key memory.safety_margin: '5 gb' is not a size such as \"5GiB\" or \"512MiB\""},
        {"[memory]\nsafety_margin = -1\n",
         "t.toml:2: key memory.safety_margin: must not be negative"},
        {"[memory]\nsafety_margin = 1.5\n",
         "t.toml:2: key memory.safety_margin: must be a string, not a float"},
        {"[memory]\neviction_min_idle = \"5d\"\n",
         "t.toml:2: key memory.eviction_min_idle: '5d' is not a duration such as \"5m\", \"300s\" "
         "or \"60\""},
        {"[memory]\neviction_min_idle = -5\n",
         "t.toml:2: key memory.eviction_min_idle: must be 0 to 18446744073709551 seconds"},
        {"[memory]\npinned_budget = 50\n",
         "t.toml:2: key memory.pinned_budget: must be a string, not an integer"},
        {"[gpus]\ndevices = 0\n", "t.toml:2: key gpus.devices: must be an array, not an integer"},
        {"[gpus]\ndevices = [0, \"1\"]\n",
         "t.toml:2: key gpus.devices: element 2 must be an integer, not a string"},
        {"[gpus]\ndevices = [[0]]\n",
         "t.toml:2: key gpus.devices: element 1 must be an integer, not an array"},
        {"[gpus]\ndevices = [0, -1]\n",
         "t.toml:2: key gpus.devices: device -1 is out of range 0..1023"},
        {"[gpus]\ndevices = [1, 2, 1]\n", "t.toml:2: key gpus.devices: device 1 listed twice"},
        {"[gpus]\ndevices = [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]\n",
         "t.toml:2: key gpus.devices: more than 16 devices"},
        {"[gpus]\nmemory_budget = \"0GiB\"\n",
         "t.toml:2: key gpus.memory_budget: '0GiB' is not \"auto\" or a size such as \"256GiB\""},
        {"[gpus]\nmemory_budget = []\n",
         "t.toml:2: key gpus.memory_budget: an array needs 1 to 16 budgets, one per device"},
        {"[gpus]\nmemory_budget = [\"8GiB\", true]\n",
         "t.toml:2: key gpus.memory_budget: element 2: must be a string, not a boolean"},
        {"[gpus]\ngpu_threads = 4097\n",
         "t.toml:2: key gpus.gpu_threads: 4097 is out of range 0..4096"},
        {"[gpus]\ngpu_workers_per_device = 0\n",
         "t.toml:2: key gpus.gpu_workers_per_device: 0 is out of range 1..16"},
        {"[gpus]\ngpu_workers_per_device = \"2\"\n",
         "t.toml:2: key gpus.gpu_workers_per_device: must be an integer, not a string"},
        {"[scheduler]\nmax_batch_size = 65\n",
         "t.toml:2: key scheduler.max_batch_size: 65 is out of range 1..64"},
        {"[scheduler]\nmax_batch_wait_ms = -1\n",
         "t.toml:2: key scheduler.max_batch_wait_ms: -1 is out of range 0..86400000"},
        {"[scheduler]\nsort_by_type = 1\n",
         "t.toml:2: key scheduler.sort_by_type: must be a boolean, not an integer"},
        {"[synthesis]\nthreads = 1e3\n",
         "t.toml:2: key synthesis.threads: must be an integer, not a float"},
        {"[synthesis]\nworkers = 1025\n",
         "t.toml:2: key synthesis.workers: 1025 is out of range 0..1024"},
        {"[pipeline]\nenabled = \"true\"\n",
         "t.toml:2: key pipeline.enabled: must be a boolean, not a string"},
        {"[pipeline]\nsynthesis_lookahead = 9223372036854775807\n",
         "t.toml:2: key pipeline.synthesis_lookahead: 9223372036854775807 is out of range 0..1024"},
        {"[pipeline]\nsynthesis_concurrency = 0\n",
         "t.toml:2: key pipeline.synthesis_concurrency: 0 is out of range 1..1024"},
        {"[pipeline]\nmax_parallel_synthesis = 2000\n",
         "t.toml:2: key pipeline.max_parallel_synthesis: 2000 is out of range 0..1024"},
        {"[pipeline]\nslot_size = -3\n",
         "t.toml:2: key pipeline.slot_size: -3 is out of range 0..1024"},
        {"[pipeline]\nmax_gpu_queue_depth = [1]\n",
         "t.toml:2: key pipeline.max_gpu_queue_depth: must be an integer, not an array"},
        {"[pipeline]\nself_verify = 0\n",
         "t.toml:2: key pipeline.self_verify: must be a boolean, not an integer"},
        {"[logging]\nlevel = \"verbose\"\n",
         "t.toml:2: key logging.level: 'verbose' is not one of \"trace\", \"debug\", \"info\", "
         "\"warn\", \"error\""},
        {"[logging]\nformat = \"pretty\"\n",
         "t.toml:2: key logging.format: 'pretty' is not one of \"text\", \"json\""},
        {"[logging]\nlevel = \"infoinfoinfoinfo\"\n",
         "t.toml:2: key logging.level: longer than 15 bytes"},
        {"[logging]\ntimeline = \"yes\"\n",
         "t.toml:2: key logging.timeline: must be a boolean, not a string"},
    };
    check_bad(cases, sizeof cases / sizeof cases[0], CZ_ERR_BAD_FORMAT);

    /* Strings that just fit and just do not. */
    char text[700], want[300];
    cz_daemon_config c;
    char err[512];
    for (int n = 254; n <= 256; n++) {
        snprintf(text, sizeof text, "[daemon]\nstatus_listen = \"%0*d:1\"\n", n - 2, 0);
        int rc = load(&c, text, NULL, err, sizeof err);
        TF_CHECK_MSG((rc == CZ_OK) == (n <= 255), "length %d: %s", n, err);
        if (rc != CZ_OK) {
            snprintf(want, sizeof want,
                     "t.toml:2: key daemon.status_listen: longer than 255 bytes");
            TF_CHECK_MSG(strcmp(err, want) == 0, "%s", err);
        }
    }
}

static void test_unknown(void)
{
    static const bad_case cases[] = {
        {"[daemon]\nlisten = \"a:1\"\nlisen = \"a:2\"\n",
         "t.toml:3: key daemon.lisen: unknown key"},
        {"# c\n\n[deamon]\nlisten = \"a:1\"\n", "t.toml:3: key deamon: unknown table"},
        {"verbose = true\n",
         "t.toml:1: key verbose: unknown key (top-level keys must be in a [table])"},
        {"[memory.extra]\nx = 1\n", "t.toml:1: key memory.extra: unknown key"},
        {"[gpus]\ndevices.x = 1\n", "t.toml:2: key gpus.devices: must be an array, not a table"},
        {"[x.y.z]\n", "t.toml:1: key x: unknown table"},
        {"[logging]\n\"level\" = \"info\"\n\"lev el\" = 1\n",
         "t.toml:3: key logging.\"lev el\": unknown key"},
    };
    check_bad(cases, sizeof cases / sizeof cases[0], CZ_ERR_BAD_FORMAT);
}

/* ------------------------------------------------------- syntax errors --- */

static void test_syntax_errors(void)
{
    static const bad_case cases[] = {
        {"[daemon]\nlisten = \"a:1\nx", "t.toml:2: key daemon.listen: unterminated string"},
        {"[daemon]\nlisten = 'a:1", "t.toml:2: key daemon.listen: unterminated string"},
        {"[srs]\nparam_cache = \"a\\qb\"\n",
         "t.toml:2: key srs.param_cache: bad escape sequence \\q"},
        {"[srs]\nparam_cache = \"a\\u12\"\n",
         "t.toml:2: key srs.param_cache: \\u needs 4 hex digits"},
        {"[srs]\nparam_cache = \"\\ud800\"\n",
         "t.toml:2: key srs.param_cache: \\u escape 0xd800 is not a Unicode scalar value"},
        {"[srs]\nparam_cache = \"\\U00110000\"\n",
         "t.toml:2: key srs.param_cache: \\U escape 0x110000 is not a Unicode scalar value"},
        {"[srs]\nparam_cache = \"\\u0000\"\n",
         "t.toml:2: key srs.param_cache: \\u0000 (NUL) is not allowed in a string"},
        {"[srs]\nparam_cache = \"a\x01\"\n",
         "t.toml:2: key srs.param_cache: control character 0x01 in a string"},
        {"[srs]\nparam_cache = 'a\x7f'\n",
         "t.toml:2: key srs.param_cache: control character 0x7f in a string"},
        {"# ok\n# bad \x02\n", "t.toml:2: control character 0x02 in a comment"},
        {"[daemon]\n\nlisten = \"a:1\" x\n",
         "t.toml:3: key daemon.listen: unexpected text after the value"},
        {"[daemon] listen = 1\n",
         "t.toml:1: table [daemon]: unexpected text after the table header"},
        {"[gpus]\ngpu_threads = 1\ngpu_threads = 2\n",
         "t.toml:3: key gpus.gpu_threads: defined twice (first on line 2)"},
        {"[gpus]\n[daemon]\n[gpus]\n",
         "t.toml:3: table [gpus]: table defined twice (first on line 1)"},
        {"a.b.c = 1\n[a.b]\n",
         "t.toml:2: table [a.b]: table already defined by dotted keys on line 1"},
        {"a = 1\n[a.b]\n", "t.toml:2: table [a.b]: 'a' is already a value (line 1)"},
        {"a = 1\na.b = 2\n", "t.toml:2: key a.b: 'a' is already a value (line 1)"},
        {"[a]\nb.c = 1\n[x]\na.b.d = 2\n[a]\n",
         "t.toml:5: table [a]: table defined twice (first on line 1)"},
        {"[a.b]\n[a]\nb.c = 1\n",
         "t.toml:3: key a.b.c: table 'b' was defined on line 1; dotted keys may not add to it"},
        {"[gpus]\ngpu_threads = 99999999999999999999\n",
         "t.toml:2: key gpus.gpu_threads: integer '99999999999999999999' out of range"},
        {"[gpus]\ngpu_threads = 0x8000000000000000\n",
         "t.toml:2: key gpus.gpu_threads: integer '0x8000000000000000' out of range"},
        {"[gpus]\ngpu_threads = -9223372036854775809\n",
         "t.toml:2: key gpus.gpu_threads: integer '-9223372036854775809' out of range"},
        {"x = 1e400\n", "t.toml:1: key x: float '1e400' out of range"},
        {"[gpus]\ngpu_threads = 012\n", "t.toml:2: key gpus.gpu_threads: leading zero in '012'"},
        {"[gpus]\ngpu_threads = 1__0\n", "t.toml:2: key gpus.gpu_threads: malformed value '1__0'"},
        {"[gpus]\ngpu_threads = _10\n",
         "t.toml:2: key gpus.gpu_threads: expected a value (string, number, boolean or array), "
         "found '_10'"},
        {"[gpus]\ngpu_threads = 10_\n", "t.toml:2: key gpus.gpu_threads: malformed value '10_'"},
        {"[gpus]\ngpu_threads = 0x\n", "t.toml:2: key gpus.gpu_threads: malformed value '0x'"},
        {"[gpus]\ngpu_threads = 0xg1\n",
         "t.toml:2: key gpus.gpu_threads: malformed integer '0xg1'"},
        {"x = 1.\n", "t.toml:1: key x: malformed float '1.'"},
        {"x = .5\n",
         "t.toml:1: key x: expected a value (string, number, boolean or array), found '.5'"},
        {"x = 1e\n", "t.toml:1: key x: malformed float '1e'"},
        {"x = True\n",
         "t.toml:1: key x: expected a value (string, number, boolean or array), found 'True'"},
        {"x =\n", "t.toml:1: key x: expected a value"},
        {"x 1\n", "t.toml:1: key x: expected '=' after the key"},
        {"= 1\n", "t.toml:1: expected a key"},
        {"a. = 1\n", "t.toml:1: key a: expected a key after '.'"},
        {"[a\n", "t.toml:1: table [a]: expected ']' after the table name"},
        {"[]\n", "t.toml:1: expected a key"},
        {"x = [1, 2\n", "t.toml:2: key x: unterminated array"},
        {"x = [1 2]\n", "t.toml:1: key x: expected ',' or ']' in an array"},
        {"x = [,]\n", "t.toml:1: key x: expected a value"},
        {"x = [[[[[[[[[1]]]]]]]]]\n", "t.toml:1: key x: arrays nested more than 8 deep"},
        {"x = 1\r\ny = 2\r", "t.toml:2: key y: carriage return without a line feed"},
        {"x = \"\xc3\x28\"\n", "t.toml:1: invalid UTF-8"},
        {"# a\n# b \xed\xa0\x80\n", "t.toml:2: invalid UTF-8"},
        {"# \xc0\xaf\n", "t.toml:1: invalid UTF-8"},
        {"x = \"a\" \"b\"\n", "t.toml:1: key x: unexpected text after the value"},
        {"x = 1 # c\n x = 2\n", "t.toml:2: key x: defined twice (first on line 1)"},
        {"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = 1\n",
         "t.toml:1: key a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p: more than 16 dotted parts"},
    };
    check_bad(cases, sizeof cases / sizeof cases[0], CZ_ERR_BAD_FORMAT);

    static const bad_case unsupported[] = {
        {"[daemon]\nx = { a = 1 }\n",
         "t.toml:2: key daemon.x: inline tables are not supported; use a [table]"},
        {"\n[[jobs]]\n", "t.toml:2: arrays of tables ([[...]]) are not supported"},
        {"x = \"\"\"\nabc\"\"\"\n", "t.toml:1: key x: multi-line strings are not supported"},
        {"x = '''abc'''\n", "t.toml:1: key x: multi-line strings are not supported"},
        {"x = 1979-05-27\n", "t.toml:1: key x: dates and times are not supported"},
        {"x = 07:32:00\n", "t.toml:1: key x: dates and times are not supported"},
    };
    check_bad(unsupported, sizeof unsupported / sizeof unsupported[0], CZ_ERR_UNSUPPORTED);

    /* Too big: one byte over the limit. */
    size_t n = CZ_TOML_MAX_BYTES + 1;
    char *big = malloc(n);
    TF_CHECK(big != NULL);
    if (big != NULL) {
        memset(big, '\n', n);
        cz_daemon_config c;
        char err[256];
        TF_CHECK(cz_config_load_mem(&c, big, n, "big", NULL, NULL, err, sizeof err) ==
                 CZ_ERR_TOO_BIG);
        TF_CHECK(cz_config_load_mem(&c, big, n - 1, "big", NULL, NULL, err, sizeof err) == CZ_OK);
        free(big);
    }
    /* Too many values: the root, x and its elements are the nodes. */
    for (unsigned elems = CZ_TOML_MAX_NODES - 3; elems <= CZ_TOML_MAX_NODES - 1; elems++) {
        char *t = malloc(8 + 2 * (size_t)elems);
        TF_CHECK(t != NULL);
        if (t == NULL)
            break;
        size_t k = (size_t)sprintf(t, "x = [");
        for (unsigned i = 0; i < elems; i++)
            t[k++] = '0', t[k++] = ',';
        t[k++] = ']';
        cz_toml_doc d;
        char err[256];
        int rc = cz_toml_parse(&d, t, k, "t", err, sizeof err);
        TF_CHECK_MSG(elems + 2 <= CZ_TOML_MAX_NODES ? rc == CZ_OK && d.nodes[1].len == elems
                                                    : rc == CZ_ERR_TOO_BIG,
                     "%u elements: %s", elems, err);
        cz_toml_free(&d);
        free(t);
    }

    cz_daemon_config c;
    TF_CHECK(cz_config_load_mem(NULL, "", 0, "x", NULL, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
    TF_CHECK(cz_config_load_mem(&c, NULL, 1, "x", NULL, NULL, NULL, 0) == CZ_ERR_INVALID_ARG);
}

/* --------------------------------------------------- sizes and times --- */

static void test_sizes(void)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"0", 0},
        {"4096", 4096},
        {"1B", 1},
        {"1KiB", 1024},
        {"626MiB", 626ull << 20},
        {"5GiB", 5 * GIB},
        {"256 GiB", 256 * GIB},
        {"2TiB", 2048 * GIB},
        {"3KB", 3000},
        {"7MB", 7000000},
        {"50GB", 50000000000ull},
        {"1TB", 1000000000000ull},
        {"18446744073709551615", UINT64_MAX},
        {"16777215TiB", 16777215ull << 40},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 1;
        TF_CHECK_MSG(cz_parse_size(good[i].s, &v) == CZ_OK && v == good[i].v, "%s -> %" PRIu64,
                     good[i].s, v);
    }
    static const char *bad[] = {"",       "GiB",  "-1",    "+1",          "1.5GiB",
                                "5gib",   "5G",   "5 ",    " 5",          "5GiBs",
                                "5 G iB", "0x10", "1_000", "16777216TiB", "18446744073709551616",
                                "auto"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 77;
        TF_CHECK_MSG(cz_parse_size(bad[i], &v) == CZ_ERR_BAD_FORMAT && v == 77, "'%s'", bad[i]);
    }
    uint64_t v;
    TF_CHECK(cz_parse_size(NULL, &v) == CZ_ERR_BAD_FORMAT);

    /* Random n with a random unit reads back as n * unit. */
    static const struct {
        const char *u;
        uint64_t m;
    } units[] = {{"", 1},          {"B", 1},     {"KiB", 1024},
                 {"MiB", 1 << 20}, {"GiB", GIB}, {"GB", 1000000000}};
    for (unsigned it = 0; it < 200 * tf_scale; it++) {
        unsigned k = (unsigned)(cz_prng_next(&tf_rng) % 6);
        uint64_t n = cz_prng_next(&tf_rng) >> (cz_prng_next(&tf_rng) % 64);
        char s[64];
        snprintf(s, sizeof s, "%" PRIu64 "%s", n, units[k].u);
        int rc = cz_parse_size(s, &v);
        bool fits = n <= UINT64_MAX / units[k].m;
        TF_CHECK_MSG(fits ? rc == CZ_OK && v == n * units[k].m : rc == CZ_ERR_BAD_FORMAT, "%s", s);
    }

    static const struct {
        const char *s;
        uint64_t ms;
    } times[] = {{"5m", 300000}, {"300s", 300000}, {"10m", 600000}, {"60", 60000},
                 {"0", 0},       {"1500ms", 1500}, {"2h", 7200000}, {"3 s", 3000}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        TF_CHECK_MSG(cz_parse_duration_ms(times[i].s, &v) == CZ_OK && v == times[i].ms, "%s",
                     times[i].s);
    static const char *bad_times[] = {
        "", "m", "5d", "5M", "-5m", "1.5m", "5 m s", "18446744073709551615", "307445734561826m"};
    for (size_t i = 0; i < sizeof bad_times / sizeof bad_times[0]; i++)
        TF_CHECK_MSG(cz_parse_duration_ms(bad_times[i], &v) == CZ_ERR_BAD_FORMAT, "'%s'",
                     bad_times[i]);
    TF_CHECK(cz_parse_duration_ms("307445734561825m", &v) == CZ_OK &&
             v == 307445734561825ull * 60000);
}

/* ------------------------------------------------------------ raw TOML --- */

/* Parses text and returns the node at dotted path (NULL if absent). */
static const cz_toml_node *get(const cz_toml_doc *d, const char *path)
{
    char buf[256];
    for (size_t i = 1; i < d->n; i++)
        if (d->nodes[i].key != NULL && strcmp(cz_toml_path(d, i, buf, sizeof buf), path) == 0)
            return &d->nodes[i];
    return NULL;
}

static void test_toml_values(void)
{
    const char *text = "\xef\xbb\xbf"
                       "# header\r\n"
                       "bare-key_1 = \"tab\\there \\\"q\\\" \\\\ \\u00e9\\U0001F600\"\r\n"
                       "'lit key' = 'C:\\no\\escape'\n"
                       "\"a.b\" = true\n"
                       "t.u.v = -0\n"
                       "t.u.w = +17\n"
                       "[s]\t# comment\n"
                       "f = [ 1.5, -2e-3, 6.25E+2, inf, -inf, nan, 1_000.000_1 ]\n"
                       "n = [ [1, 2], [\"x\"], [], ]\n"
                       "h = [0xdead_BEEF, 0o755, 0b1010, -9223372036854775808]\n"
                       "[ s . \"sub table\" ]\n"
                       "k=false\n";
    cz_toml_doc d;
    char err[256];
    int rc = cz_toml_parse(&d, text, strlen(text), "v", err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    if (rc != CZ_OK)
        return;
    const cz_toml_node *v = get(&d, "bare-key_1");
    TF_CHECK(v && v->type == CZ_TOML_STRING &&
             strcmp(v->str, "tab\there \"q\" \\ \xc3\xa9\xf0\x9f\x98\x80") == 0 && v->line == 2);
    v = get(&d, "\"lit key\"");
    TF_CHECK(v && strcmp(v->str, "C:\\no\\escape") == 0);
    v = get(&d, "\"a.b\"");
    TF_CHECK(v && v->type == CZ_TOML_BOOL && v->b);
    v = get(&d, "t.u.v");
    TF_CHECK(v && v->type == CZ_TOML_INT && v->i == 0);
    v = get(&d, "t.u.w");
    TF_CHECK(v && v->i == 17 && v->line == 6);
    v = get(&d, "t.u");
    TF_CHECK(v && v->type == CZ_TOML_TABLE && v->len == 2);
    v = get(&d, "s.f");
    TF_CHECK(v && v->type == CZ_TOML_ARRAY && v->len == 7);
    if (v != NULL && v->len == 7) {
        const cz_toml_node *e = v + 1;
        TF_CHECK(e[0].f == 1.5 && e[1].f == -2e-3 && e[2].f == 625.0 && isinf(e[3].f) &&
                 e[3].f > 0 && isinf(e[4].f) && e[4].f < 0 && isnan(e[5].f) && e[6].f == 1000.0001);
    }
    v = get(&d, "s.n");
    TF_CHECK(v && v->type == CZ_TOML_ARRAY && v->len == 3 && v[1].type == CZ_TOML_ARRAY &&
             v[1].len == 2 && v[3].i == 2 && v[4].type == CZ_TOML_ARRAY && v[5].str &&
             strcmp(v[5].str, "x") == 0 && v[6].len == 0);
    v = get(&d, "s.h");
    TF_CHECK(v && v->len == 4 && v[1].i == 0xdeadbeef && v[2].i == 0755 && v[3].i == 10 &&
             v[4].i == INT64_MIN);
    v = get(&d, "s.\"sub table\".k");
    TF_CHECK(v && v->type == CZ_TOML_BOOL && !v->b && v->line == 12);
    cz_toml_free(&d);
    TF_CHECK(d.nodes == NULL && d.pool == NULL && d.n == 0);
}

/* Random integers written in random TOML forms (sign, underscores, hex,
 * octal, binary) read back as the same integer; random doubles written
 * with 17 digits read back exactly. */
static void test_number_round_trip(void)
{
    for (unsigned it = 0; it < 2000 * tf_scale; it++) {
        uint64_t r = cz_prng_next(&tf_rng);
        int64_t x = (int64_t)(r >> (cz_prng_next(&tf_rng) % 64));
        unsigned form = (unsigned)(cz_prng_next(&tf_rng) % 4);
        if (form != 0)
            x &= INT64_MAX; /* prefixed integers carry no sign */
        else if (cz_prng_next(&tf_rng) & 1)
            x = (int64_t)(0 - (uint64_t)x);
        char digits[80], text[200];
        if (form == 0)
            snprintf(digits, sizeof digits, "%" PRIu64,
                     (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x));
        else if (form == 1)
            snprintf(digits, sizeof digits, "%" PRIx64, (uint64_t)x);
        else if (form == 2)
            snprintf(digits, sizeof digits, "%" PRIo64, (uint64_t)x);
        else {
            size_t k = 0;
            for (int b = 63; b >= 0; b--)
                if (k > 0 || ((uint64_t)x >> b & 1) || b == 0)
                    digits[k++] = (char)('0' + ((uint64_t)x >> b & 1));
            digits[k] = 0;
        }
        /* Underscores between random digits. */
        char with[160];
        size_t k = 0;
        for (size_t i = 0; digits[i]; i++) {
            if (i > 0 && cz_prng_next(&tf_rng) % 4 == 0)
                with[k++] = '_';
            with[k++] = digits[i];
        }
        with[k] = 0;
        static const char *prefix[] = {"", "0x", "0o", "0b"};
        snprintf(text, sizeof text, "v = %s%s%s\n", form == 0 && x < 0 ? "-" : "", prefix[form],
                 with);
        cz_toml_doc d;
        char err[256];
        int rc = cz_toml_parse(&d, text, strlen(text), "n", err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK && d.n == 2 && d.nodes[1].type == CZ_TOML_INT && d.nodes[1].i == x,
                     "%s -> %s", text, err);
        cz_toml_free(&d);
    }
    for (unsigned it = 0; it < 1000 * tf_scale; it++) {
        uint64_t r = cz_prng_next(&tf_rng);
        double f;
        memcpy(&f, &r, sizeof f);
        if (!isfinite(f))
            continue;
        char text[100];
        snprintf(text, sizeof text, "v = %.17e\n", f);
        cz_toml_doc d;
        char err[256];
        int rc = cz_toml_parse(&d, text, strlen(text), "f", err, sizeof err);
        TF_CHECK_MSG(rc == CZ_OK && d.nodes[1].type == CZ_TOML_FLOAT && d.nodes[1].f == f,
                     "%s -> %s", text, err);
        cz_toml_free(&d);
    }
}

/* A file on disk: written, loaded, warnings carry its path. */
/* [circuits]: "x.zkey" or "x.params,x.pce"; bad ids, types and forms are
 * refused with the key named. */
static void test_circuits(void)
{
    cz_daemon_config c;
    warnings w = {0};
    char err[256];
    TF_CHECK(load(&c,
                  "[circuits]\nmul = \"/k/mul.zkey\"\n"
                  "porep-32g = \"/p/v28-stacked.params,/p/porep.pce\"\n",
                  &w, err, sizeof err) == CZ_OK);
    TF_CHECK(c.n_circuits == 2);
    TF_CHECK(!strcmp(c.circuits[0].id, "mul") && !strcmp(c.circuits[0].params, "/k/mul.zkey") &&
             c.circuits[0].r1cs[0] == 0);
    TF_CHECK(!strcmp(c.circuits[1].id, "porep-32g") &&
             !strcmp(c.circuits[1].params, "/p/v28-stacked.params") &&
             !strcmp(c.circuits[1].r1cs, "/p/porep.pce"));
    static const char *const bad[] = {
        "[circuits]\nx = 3\n",
        "[circuits]\nx = \"/k/mul.json\"\n",
        "[circuits]\nx = \"a.params,\"\n",
        "[circuits]\nx = \"a.params,b,c\"\n",
        "[circuits]\n\"a b\" = \"k.zkey\"\n",
        "[circuits]\nsynthetic-10-0 = \"k.zkey\"\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TF_CHECK_MSG(load(&c, bad[i], &w, err, sizeof err) == CZ_ERR_BAD_FORMAT, "%s", bad[i]);
        TF_CHECK_MSG(strstr(err, "t.toml:2: key circuits.") != NULL, "%s", err);
        TF_CHECK(c.n_circuits == 0); /* defaults kept on failure */
    }
}

static void test_load_file(void)
{
    char path[] = "/tmp/cz_config_XXXXXX";
    int fd = mkstemp(path);
    TF_CHECK(fd >= 0);
    if (fd < 0)
        return;
    const char *text = "[memory]\ntotal_budget = \"512GiB\"\n\npinned_budget = \"1GiB\"\n";
    TF_CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    cz_daemon_config c;
    warnings w = {0};
    char err[512], want[600];
    TF_CHECK(cz_config_load_file(&c, path, on_warn, &w, err, sizeof err) == CZ_OK);
    TF_CHECK(c.total_budget == 512 * GIB && w.n == 1);
    snprintf(want, sizeof want,
             "%s:4: key memory.pinned_budget is deprecated: memory is managed by the unified "
             "memory.total_budget; ignored",
             path);
    TF_CHECK_MSG(strcmp(w.last, want) == 0, "%s", w.last);
    unlink(path);
}

/* Command-line overrides go through the same checks. */
static void test_set(void)
{
    cz_daemon_config c, d;
    char err[512];
    cz_config_defaults(&c);
    TF_CHECK(cz_config_set(&c, "daemon.listen", "0.0.0.0:9820", err, sizeof err) == CZ_OK);
    TF_CHECK(strcmp(c.listen, "0.0.0.0:9820") == 0);
    TF_CHECK(cz_config_set(&c, "logging.level", "debug", err, sizeof err) == CZ_OK);
    TF_CHECK(cz_config_set(&c, "memory.total_budget", "64GiB", err, sizeof err) == CZ_OK);
    TF_CHECK(cz_config_set(&c, "gpus.devices", "[1, 0]", err, sizeof err) == CZ_OK);
    TF_CHECK(cz_config_set(&c, "scheduler.sort_by_type", "false", err, sizeof err) == CZ_OK);
    TF_CHECK(cz_config_set(&c, "synthesis.threads", "0x10", err, sizeof err) == CZ_OK);
    TF_CHECK(strcmp(c.log_level, "debug") == 0 && c.total_budget == 64 * GIB && c.n_gpus == 2 &&
             c.gpus_devices[0] == 1 && !c.sort_by_type && c.synthesis_threads == 16);
    d = c;
    static const struct {
        const char *key, *value, *msg;
    } bad[] = {
        {"daemon.listen", "nowhere",
         "command line: key daemon.listen: 'nowhere' is neither "
         "unix:///PATH nor HOST:PORT"},
        {"logging.level", "loud",
         "command line: key logging.level: 'loud' is not one of "
         "\"trace\", \"debug\", \"info\", \"warn\", \"error\""},
        {"gpus.gpu_threads", "many",
         "command line: key gpus.gpu_threads: expected a value "
         "(string, number, boolean or array), found 'many'"},
        {"gpus.gpu_threads", "4\nx = 1",
         "command line: key gpus.gpu_threads: '4\nx = 1' is "
         "not one value"},
        {"gpus.gpu_threads", "-1",
         "command line: key gpus.gpu_threads: -1 is out of range 0..4096"},
        {"gpus.gpu_threads", "\xff", "command line: key gpus.gpu_threads: invalid UTF-8"},
        {"gpus.devices", "[0", "command line: key gpus.devices: unterminated array"},
        {"daemon.lissten", "x", "command line: key daemon.lissten: unknown key"},
        {"listen", "x", "command line: key listen: unknown key"},
        {"srs.preload", "[]", "command line: key srs.preload: deprecated and ignored"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TF_CHECK(cz_config_set(&c, bad[i].key, bad[i].value, err, sizeof err) == CZ_ERR_BAD_FORMAT);
        TF_CHECK_MSG(strcmp(err, bad[i].msg) == 0, "\n  got  %s\n  want %s", err, bad[i].msg);
        TF_CHECK(same(&c, &d));
    }
}

TF_MAIN(TF_TEST(test_set), TF_TEST(test_circuits), TF_TEST(test_defaults), TF_TEST(test_example_file),
        TF_TEST(test_cuzk_files), TF_TEST(test_all_keys), TF_TEST(test_key_errors),
        TF_TEST(test_unknown), TF_TEST(test_syntax_errors), TF_TEST(test_sizes),
        TF_TEST(test_toml_values), TF_TEST(test_number_round_trip), TF_TEST(test_load_file))
