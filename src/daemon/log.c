/* cuzk-daemon's log (see log.h).  A mutex keeps lines whole across threads. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"
#include "daemon/log.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static char path_buf[512];
static cz_log_level min_level = CZ_LOG_INFO;
static bool as_json;

static const char *const NAMES[] = {"trace", "debug", "info", "warn", "error"};

int cz_log_init(const char *level, bool json, const char *path)
{
    int l = -1;
    for (int i = 0; i < 5; i++)
        if (level && !strcmp(level, NAMES[i]))
            l = i;
    if (l < 0)
        return CZ_ERR_INVALID_ARG;
    FILE *f = stderr;
    if (path && path[0]) {
        f = fopen(path, "a");
        if (f == NULL)
            return CZ_ERR_IO;
        setvbuf(f, NULL, _IOLBF, 0);
        snprintf(path_buf, sizeof path_buf, "%s", path);
    }
    pthread_mutex_lock(&mu);
    out = f;
    min_level = (cz_log_level)l;
    as_json = json;
    pthread_mutex_unlock(&mu);
    return CZ_OK;
}

int cz_log_reopen(void)
{
    if (!path_buf[0])
        return CZ_OK;
    pthread_mutex_lock(&mu);
    FILE *f = freopen(path_buf, "a", out);
    if (f != NULL) {
        out = f;
        setvbuf(out, NULL, _IOLBF, 0);
    } else {
        out = stderr;
    }
    pthread_mutex_unlock(&mu);
    return f ? CZ_OK : CZ_ERR_IO;
}

FILE *cz_log_stream(void) { return out ? out : stderr; }

/* JSON string body: escapes quotes, backslashes and control characters. */
static void json_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
}

void cz_log(cz_log_level l, const char *fmt, ...)
{
    if (l < min_level)
        return;
    char msg[1024], ts[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    struct tm tm;
    gmtime_r(&t.tv_sec, &tm);
    size_t k = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + k, sizeof ts - k, ".%03ldZ", t.tv_nsec / 1000000);
    pthread_mutex_lock(&mu);
    FILE *f = out ? out : stderr;
    if (as_json) {
        fprintf(f, "{\"ts\":\"%s\",\"level\":\"%s\",\"msg\":\"", ts, NAMES[l]);
        json_escape(f, msg);
        fputs("\"}\n", f);
    } else {
        fprintf(f, "%s %-5s %s\n", ts, NAMES[l], msg);
    }
    fflush(f);
    pthread_mutex_unlock(&mu);
}

void cz_log_close(void)
{
    pthread_mutex_lock(&mu);
    if (out && out != stderr)
        fclose(out);
    out = NULL;
    pthread_mutex_unlock(&mu);
}
