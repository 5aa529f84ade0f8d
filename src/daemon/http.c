/* The HTTP status endpoint's server on libmicrohttpd (contract in cuzk/http.h). */
#include "cuzk/http.h"

#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "cuzk/err.h"
#include "daemon/json_out.h"

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
