/* The checked-keys store (cuzk/checked_keys.h): a text file of digests,
 * read whole at open, appended one line per add. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/checked_keys.h"
#include "cuzk/err.h"

#define HEADER "cuzk checked-keys 1\n"
#define MAX_FILE ((size_t)64 << 20)
#define LINE_MAX_BYTES (128 + 1 + 20 + 1)

struct cz_checked_keys {
    pthread_mutex_t mu;
    cz_key_digest *keys;
    size_t n, cap;
    char *path; /* NULL: in memory only */
};

static int fail(char *err, size_t errlen, int rc, const char *fmt, const char *a, size_t line)
{
    if (err && errlen) {
        if (line)
            snprintf(err, errlen, "checked keys: %s, line %zu: %s", a, line, fmt);
        else
            snprintf(err, errlen, "checked keys: %s: %s", a, fmt);
    }
    return rc;
}

static int hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static bool same(const cz_key_digest *a, const cz_key_digest *b)
{
    return a->len == b->len && !memcmp(a->b2, b->b2, sizeof a->b2);
}

static bool has_locked(const cz_checked_keys *k, const cz_key_digest *d)
{
    for (size_t i = 0; i < k->n; i++)
        if (same(&k->keys[i], d))
            return true;
    return false;
}

static int push(cz_checked_keys *k, const cz_key_digest *d)
{
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        cz_key_digest *nk = realloc(k->keys, cap * sizeof *nk);
        if (nk == NULL)
            return CZ_ERR_NOMEM;
        k->keys = nk;
        k->cap = cap;
    }
    k->keys[k->n++] = *d;
    return CZ_OK;
}

/* One key line (without its '\n'): 128 hex digits, a space, a decimal
 * length without leading zeros that fits 64 bits. */
static bool parse_line(cz_key_digest *d, const uint8_t *s, size_t n)
{
    if (n < 130 || n > LINE_MAX_BYTES - 1 || s[128] != ' ')
        return false;
    for (size_t i = 0; i < 64; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        d->b2[i] = (uint8_t)(hi << 4 | lo);
    }
    const uint8_t *p = s + 129;
    size_t m = n - 129;
    if (m > 20 || (m > 1 && p[0] == '0'))
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < m; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        unsigned dig = (unsigned)(p[i] - '0');
        if (v > (UINT64_MAX - dig) / 10)
            return false;
        v = v * 10 + dig;
    }
    d->len = v;
    return true;
}

static cz_checked_keys *new_store(void)
{
    cz_checked_keys *k = calloc(1, sizeof *k);
    if (k)
        pthread_mutex_init(&k->mu, NULL);
    return k;
}

static int parse_into(cz_checked_keys *k, const uint8_t *data, size_t len, const char *name,
                      char *err, size_t errlen)
{
    size_t hl = sizeof HEADER - 1;
    if (len == 0)
        return CZ_OK;
    if (len < hl || memcmp(data, HEADER, hl))
        return fail(err, errlen, CZ_ERR_BAD_FORMAT, "not \"cuzk checked-keys 1\"", name, 1);
    size_t at = hl, line = 2;
    while (at < len) {
        const uint8_t *nl = memchr(data + at, '\n', len - at);
        if (nl == NULL)
            return fail(err, errlen, CZ_ERR_BAD_FORMAT, "no newline at the end", name, line);
        cz_key_digest d;
        if (!parse_line(&d, data + at, (size_t)(nl - (data + at))))
            return fail(err, errlen, CZ_ERR_BAD_FORMAT,
                        "not <128 lowercase hex digits> <length in decimal>", name, line);
        if (!has_locked(k, &d) && push(k, &d) != CZ_OK)
            return fail(err, errlen, CZ_ERR_NOMEM, "out of memory", name, line);
        at = (size_t)(nl - data) + 1;
        line++;
    }
    return CZ_OK;
}

int cz_checked_keys_parse(cz_checked_keys **out, const uint8_t *data, size_t len, char *err,
                          size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out == NULL || (data == NULL && len))
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (len > MAX_FILE)
        return fail(err, errlen, CZ_ERR_TOO_BIG, "over 64 MiB", "(memory)", 0);
    cz_checked_keys *k = new_store();
    if (k == NULL)
        return CZ_ERR_NOMEM;
    int rc = parse_into(k, data, len, "(memory)", err, errlen);
    if (rc != CZ_OK) {
        cz_checked_keys_free(k);
        return rc;
    }
    *out = k;
    return CZ_OK;
}

int cz_checked_keys_open(cz_checked_keys **out, const char *path, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (out == NULL || path == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    cz_checked_keys *k = new_store();
    if (k == NULL || (k->path = strdup(path)) == NULL) {
        cz_checked_keys_free(k);
        return CZ_ERR_NOMEM;
    }
    int rc = CZ_OK;
    FILE *f = fopen(path, "rb");
    if (f == NULL && errno != ENOENT)
        rc = fail(err, errlen, CZ_ERR_IO, strerror(errno), path, 0);
    if (f != NULL) {
        uint8_t *buf = malloc(MAX_FILE + 1);
        size_t len = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
        if (buf == NULL)
            rc = CZ_ERR_NOMEM;
        else if (ferror(f))
            rc = fail(err, errlen, CZ_ERR_IO, "read error", path, 0);
        else if (len > MAX_FILE)
            rc = fail(err, errlen, CZ_ERR_TOO_BIG, "over 64 MiB", path, 0);
        else
            rc = parse_into(k, buf, len, path, err, errlen);
        free(buf);
        fclose(f);
    }
    if (rc != CZ_OK) {
        cz_checked_keys_free(k);
        return rc;
    }
    *out = k;
    return CZ_OK;
}

bool cz_checked_keys_has(const cz_checked_keys *k, const cz_key_digest *d)
{
    if (k == NULL || d == NULL)
        return false;
    cz_checked_keys *m = (cz_checked_keys *)k;
    pthread_mutex_lock(&m->mu);
    bool r = has_locked(k, d);
    pthread_mutex_unlock(&m->mu);
    return r;
}

/* The store's folder made (0700) when missing. */
static int make_folder(const char *path, char *err, size_t errlen)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path)
        return CZ_OK;
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir)
        return fail(err, errlen, CZ_ERR_IO, "path too long", path, 0);
    memcpy(dir, path, n);
    dir[n] = 0;
    for (char *p = dir + 1; *p; p++) { /* each missing level in turn */
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return fail(err, errlen, CZ_ERR_IO, strerror(errno), dir, 0);
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return fail(err, errlen, CZ_ERR_IO, strerror(errno), dir, 0);
    return CZ_OK;
}

/* The store's file with its first line, made atomically when missing: the
 * header goes to a file of its own, linked to the path (so a process that
 * appends never finds a file without its header). */
static int make_file(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return CZ_OK;
    int rc = make_folder(path, err, errlen);
    if (rc != CZ_OK)
        return rc;
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp)
        return fail(err, errlen, CZ_ERR_IO, "path too long", path, 0);
    int fd = mkstemp(tmp); /* a name of its own (threads share a pid), mode 0600 */
    if (fd < 0)
        return fail(err, errlen, CZ_ERR_IO, strerror(errno), path, 0);
    bool ok = write(fd, HEADER, sizeof HEADER - 1) == (ssize_t)(sizeof HEADER - 1);
    ok = close(fd) == 0 && ok;
    if (ok && link(tmp, path) != 0 && errno != EEXIST)
        ok = false;
    int e = errno;
    unlink(tmp);
    return ok ? CZ_OK : fail(err, errlen, CZ_ERR_IO, strerror(e), path, 0);
}

int cz_checked_keys_add(cz_checked_keys *k, const cz_key_digest *d, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (k == NULL || d == NULL)
        return CZ_ERR_INVALID_ARG;
    pthread_mutex_lock(&k->mu);
    int rc = CZ_OK;
    if (has_locked(k, d))
        goto out;
    if (k->path != NULL && (rc = make_file(k->path, err, errlen)) == CZ_OK) {
        char line[LINE_MAX_BYTES + 1];
        size_t n = 0;
        for (size_t i = 0; i < 64; i++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%02x", d->b2[i]);
        n += (size_t)snprintf(line + n, sizeof line - n, " %llu\n", (unsigned long long)d->len);
        int fd = open(k->path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0)
            rc = fail(err, errlen, CZ_ERR_IO, strerror(errno), k->path, 0);
        else if (write(fd, line, n) != (ssize_t)n) /* one line, one write */
            rc = fail(err, errlen, CZ_ERR_IO, "short write", k->path, 0);
        if (fd >= 0 && close(fd) != 0 && rc == CZ_OK)
            rc = fail(err, errlen, CZ_ERR_IO, strerror(errno), k->path, 0);
    }
    if (rc == CZ_OK)
        rc = push(k, d);
out:
    pthread_mutex_unlock(&k->mu);
    return rc;
}

size_t cz_checked_keys_count(const cz_checked_keys *k)
{
    if (k == NULL)
        return 0;
    cz_checked_keys *m = (cz_checked_keys *)k;
    pthread_mutex_lock(&m->mu);
    size_t n = k->n;
    pthread_mutex_unlock(&m->mu);
    return n;
}

const char *cz_checked_keys_path(const cz_checked_keys *k) { return k ? k->path : NULL; }

void cz_checked_keys_free(cz_checked_keys *k)
{
    if (k == NULL)
        return;
    pthread_mutex_destroy(&k->mu);
    free(k->keys);
    free(k->path);
    free(k);
}

bool cz_checked_keys_default_path(char *out, size_t n)
{
    const char *v = getenv("CUZK_CHECKED_KEYS");
    int w = -1;
    if (v && *v)
        w = snprintf(out, n, "%s", v);
    else if ((v = getenv("XDG_CACHE_HOME")) && *v)
        w = snprintf(out, n, "%s/cuzk/checked-keys", v);
    else if ((v = getenv("HOME")) && *v)
        w = snprintf(out, n, "%s/.cache/cuzk/checked-keys", v);
    return w > 0 && (size_t)w < n;
}
