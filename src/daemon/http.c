/* The status endpoint's HTTP/1.x server (contract in cuzk/http.h).
 *
 * One thread runs the loop: poll the wake pipe, the listening socket and
 * every connection, then
 *   1. I/O on the connections that are ready: read the head (READ), write
 *      the response (WRITE), discard what the client still sends (LINGER);
 *   2. close the connections past their state's deadline;
 *   3. accept at most ACCEPT_BATCH new connections, making room by
 *      eviction, and read each at once: a request already in is answered
 *      before newer connections could evict it.
 * Connections sit in one array in accept order, so the first match of a
 * scan is the oldest.  Only the event thread touches them; cz_http_stop
 * wakes it through the pipe and joins it. */
#include "cuzk/http.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "util/clock.h"
#include "util/json_write.h"

#define ACCEPT_BATCH    16  /* accepts per loop round, so connections are served meanwhile */
#define ACCEPT_PAUSE_MS 100 /* out of file descriptors: wait this long before accepting again */
#define DRAIN_READS     16  /* recv calls at most to empty a socket before closing it */

typedef enum { C_READ, C_WRITE, C_LINGER } conn_state;

typedef struct {
    int family; /* AF_INET or AF_INET6 */
    unsigned char a[16];
} peer_addr;

typedef struct {
    int fd;
    conn_state state;
    int64_t deadline_ms; /* of the current state, CLOCK_MONOTONIC */
    peer_addr peer;
    char *out; /* WRITE: the response, out_off of out_len bytes sent */
    size_t out_len, out_off;
    size_t head_len; /* READ: bytes in head */
    size_t scanned;  /* head[0, scanned) holds no end of the head */
    char head[CZ_HTTP_HEAD_MAX];
} conn;

struct cz_http {
    cz_engine *e;
    cz_metrics *m;
    cz_http_info info; /* strings owned */
    char *version, *listen;
    unsigned port;
    int lfd;
    int wake[2]; /* cz_http_stop writes to wake[1] */
    pthread_t thread;
    /* the event thread's own */
    conn *conns[CZ_HTTP_MAX_CONNS]; /* accept order */
    size_t n;
    int64_t accept_resume_ms;
};

static int64_t now_ms(void) { return (int64_t)(cz_clock_s(CLOCK_MONOTONIC) * 1e3); }

static bool set_nonblocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    int fd_fl = fcntl(fd, F_GETFD);
    return fl >= 0 && fd_fl >= 0 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 &&
           fcntl(fd, F_SETFD, fd_fl | FD_CLOEXEC) == 0;
}

/* ---------------------------------------------------------- connections --- */

static bool same_peer(const peer_addr *a, const peer_addr *b)
{
    return a->family == b->family && memcmp(a->a, b->a, sizeof a->a) == 0;
}

/* Reads and drops what the socket holds (a bounded number of reads), so
 * that closing it sends FIN rather than a reset that would discard the
 * response still queued for sending. */
static void drain(int fd)
{
    char buf[4096];
    for (int i = 0; i < DRAIN_READS; i++)
        if (recv(fd, buf, sizeof buf, MSG_DONTWAIT) <= 0)
            return;
}

static void close_conn(cz_http *h, conn *c)
{
    size_t i = 0;
    while (h->conns[i] != c)
        i++;
    memmove(&h->conns[i], &h->conns[i + 1], (h->n - i - 1) * sizeof h->conns[0]);
    h->n--;
    if (c->state == C_LINGER)
        drain(c->fd);
    close(c->fd);
    free(c->out);
    free(c);
}

/* The connection to close to make room for one more from peer p (NULL:
 * from anywhere): one already answered and lingering, else the oldest
 * still reading its head; NULL if every one is writing a response. */
static conn *victim_of(cz_http *h, const peer_addr *p)
{
    conn *oldest_reading = NULL;
    for (size_t i = 0; i < h->n; i++) {
        conn *c = h->conns[i];
        if (p && !same_peer(&c->peer, p))
            continue;
        if (c->state == C_LINGER)
            return c;
        if (c->state == C_READ && oldest_reading == NULL)
            oldest_reading = c;
    }
    return oldest_reading;
}

/* ------------------------------------------------------------ responses --- */

static const char *reason(int code)
{
    switch (code) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 431:
        return "Request Header Fields Too Large";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Internal Server Error";
    }
}

/* An IMF-fixdate (RFC 9110 5.6.7), independent of the locale. */
static void http_date(char out[64])
{
    static const char *const days[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *const months[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL)
        memset(&tm, 0, sizeof tm);
    snprintf(out, 64, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[(unsigned)tm.tm_wday % 7],
             tm.tm_mday, months[(unsigned)tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
             tm.tm_sec);
}

/* {"error": msg, "path": path, "endpoints": [...]}; path NULL: null. */
static char *error_json(const char *msg, const char *path)
{
    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_jw w;
    cz_jw_init(&w, &b);
    cz_jw_object(&w, NULL);
    cz_jw_str(&w, "error", msg);
    cz_jw_str(&w, "path", path);
    cz_jw_array(&w, "endpoints");
    cz_jw_str(&w, NULL, "/status");
    cz_jw_str(&w, NULL, "/metrics");
    cz_jw_end(&w);
    cz_jw_end(&w);
    cz_strbuf_put(&b, "\n", 1);
    return cz_strbuf_take(&b, NULL);
}

static void on_write(cz_http *h, conn *c, int64_t now);

/* Queues the response on c and starts writing it.  body: malloc'd, taken
 * over (NULL: out of memory, answered 500); head_only: HEAD, the body is
 * left out but counted in Content-Length. */
static void respond(cz_http *h, conn *c, int64_t now, int code, const char *type, char *body,
                    bool head_only)
{
    static const char oom[] = "{\"error\":\"out of memory\"}\n";
    const char *text = body;
    if (text == NULL) {
        code = 500;
        type = "application/json";
        text = oom;
    }
    size_t len = strlen(text);
    char date[64];
    http_date(date);
    cz_strbuf b;
    cz_strbuf_init(&b);
    cz_strbuf_printf(&b,
                     "HTTP/1.1 %d %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\n%sConnection: close\r\n\r\n",
                     code, reason(code), date, type, len,
                     code == 405 ? "Allow: GET, HEAD\r\n" : "");
    if (!head_only)
        cz_strbuf_put(&b, text, len);
    free(body);
    c->out = cz_strbuf_take(&b, &c->out_len);
    if (c->out == NULL) {
        close_conn(h, c);
        return;
    }
    c->out_off = 0;
    c->state = C_WRITE;
    c->deadline_ms = now + CZ_HTTP_WRITE_TIMEOUT_MS;
    on_write(h, c, now);
}

/* ------------------------------------------------------------- requests --- */

/* RFC 9110 tchar. */
static bool is_tchar(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL);
}

static bool is_vchar(char ch) { return ch > 0x20 && ch < 0x7f; }

static bool prefix_nocase(const char *s, size_t n, const char *p)
{
    size_t pl = strlen(p);
    if (n < pl)
        return false;
    for (size_t i = 0; i < pl; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if (ch != p[i])
            return false;
    }
    return true;
}

/* The length of the request head (through the empty line that ends it),
 * or 0 while it is incomplete.  Lines end in LF, optionally after CR. */
static size_t head_end(conn *c)
{
    for (size_t i = c->scanned; i < c->head_len; i++) {
        if (c->head[i] != '\n')
            continue;
        size_t j = i + 1;
        if (j < c->head_len && c->head[j] == '\r')
            j++;
        if (j == c->head_len) {
            c->scanned = i; /* this LF may yet end the head */
            return 0;
        }
        if (c->head[j] == '\n')
            return j + 1;
    }
    c->scanned = c->head_len;
    return 0;
}

typedef struct {
    const char *method; /* in the head, mlen bytes */
    size_t mlen;
    char path[CZ_HTTP_HEAD_MAX]; /* NUL-terminated */
} request;

/* Parses the request line of the complete head in c->head: 0, or the
 * status to answer (400, 505). */
static int parse_request(const conn *c, request *rq)
{
    const char *p = c->head, *lim = c->head + c->head_len;
    while (p < lim && (*p == '\r' || *p == '\n')) /* empty lines before the request line */
        p++;
    const char *end = memchr(p, '\n', (size_t)(lim - p));
    if (end == NULL)
        return 400;
    const char *line_end = end > p && end[-1] == '\r' ? end - 1 : end;
    /* METHOD SP target SP HTTP/d.d */
    const char *q = p;
    while (q < line_end && is_tchar(*q))
        q++;
    if (q == p || q >= line_end || *q != ' ')
        return 400;
    rq->method = p;
    rq->mlen = (size_t)(q - p);
    const char *t = q + 1, *tq = t;
    while (tq < line_end && is_vchar(*tq))
        tq++;
    const char *v = tq + 1;
    if (tq == t || tq >= line_end || *tq != ' ' || line_end - v != 8 || memcmp(v, "HTTP/", 5) ||
        v[5] < '0' || v[5] > '9' || v[6] != '.' || v[7] < '0' || v[7] > '9')
        return 400;
    if (v[5] != '1')
        return 505;
    /* the path: origin form, or absolute form with the authority skipped */
    const char *path = t;
    if (*t != '/') {
        size_t tlen = (size_t)(tq - t);
        size_t skip = prefix_nocase(t, tlen, "http://")    ? 7
                      : prefix_nocase(t, tlen, "https://") ? 8
                                                           : 0;
        if (skip == 0)
            return 400;
        path = t + skip;
        while (path < tq && *path != '/' && *path != '?')
            path++;
    }
    size_t plen = 0;
    while (path + plen < tq && path[plen] != '?' && path[plen] != '#')
        plen++;
    if (plen == 0 || *path != '/') { /* "http://host" or "http://host?q" */
        path = "/";
        plen = 1;
    }
    memcpy(rq->path, path, plen);
    rq->path[plen] = '\0';
    return 0;
}

/* Answers the complete head in c->head. */
static void serve_request(cz_http *h, conn *c, int64_t now)
{
    request rq;
    int code = parse_request(c, &rq);
    if (code != 0) {
        respond(h, c, now, code, "application/json",
                error_json(code == 505 ? "HTTP version not supported" : "bad request", NULL),
                false);
        return;
    }
    bool head = rq.mlen == 4 && memcmp(rq.method, "HEAD", 4) == 0;
    if (!head && !(rq.mlen == 3 && memcmp(rq.method, "GET", 3) == 0)) {
        respond(h, c, now, 405, "application/json", error_json("method not allowed", rq.path),
                false);
        return;
    }
    char *body = NULL;
    if (strcmp(rq.path, "/status") == 0) {
        cz_status_json(h->e, &h->info, &body);
        if (body) {
            /* a newline for terminals; the JSON stays one value */
            char *nl = realloc(body, strlen(body) + 2);
            if (nl == NULL)
                free(body);
            body = nl ? strcat(nl, "\n") : NULL;
        }
        respond(h, c, now, 200, "application/json", body, head);
    } else if (strcmp(rq.path, "/metrics") == 0) {
        cz_metrics_text(h->e, h->m, &body);
        respond(h, c, now, 200, "text/plain; version=0.0.4; charset=utf-8", body, head);
    } else
        respond(h, c, now, 404, "application/json", error_json("not found", rq.path), head);
}

/* ------------------------------------------------------------------ I/O --- */

/* Nothing to do now: poll again. */
static bool again(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

static void on_read(cz_http *h, conn *c, int64_t now)
{
    ssize_t r = recv(c->fd, c->head + c->head_len, sizeof c->head - c->head_len, 0);
    if (r < 0 && again(errno))
        return;
    if (r <= 0) { /* closed or failed before the head was complete */
        close_conn(h, c);
        return;
    }
    c->head_len += (size_t)r;
    if (head_end(c) > 0)
        serve_request(h, c, now);
    else if (c->head_len == sizeof c->head)
        respond(h, c, now, 431, "application/json", error_json("request head too large", NULL),
                false);
}

static void on_write(cz_http *h, conn *c, int64_t now)
{
    while (c->out_off < c->out_len) {
        ssize_t r = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (r < 0 && again(errno))
            return;
        if (r <= 0) {
            close_conn(h, c);
            return;
        }
        c->out_off += (size_t)r;
    }
    free(c->out);
    c->out = NULL;
    shutdown(c->fd, SHUT_WR);
    c->state = C_LINGER;
    c->deadline_ms = now + CZ_HTTP_LINGER_MS;
}

static void on_linger(cz_http *h, conn *c)
{
    char buf[4096];
    ssize_t r = recv(c->fd, buf, sizeof buf, 0);
    if (r == 0 || (r < 0 && !again(errno)))
        close_conn(h, c);
}

/* Takes the accepted socket fd from sa, or closes it when no room can be
 * made. */
static void admit(cz_http *h, int fd, const struct sockaddr_storage *sa, int64_t now)
{
    peer_addr p = {.family = sa->ss_family};
    if (sa->ss_family == AF_INET)
        memcpy(p.a, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    else if (sa->ss_family == AF_INET6)
        memcpy(p.a, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
    size_t same = 0;
    for (size_t i = 0; i < h->n; i++)
        same += same_peer(&h->conns[i]->peer, &p);
    conn *victim = NULL;
    bool full = true;
    if (same >= CZ_HTTP_MAX_PER_ADDR)
        victim = victim_of(h, &p);
    else if (h->n >= CZ_HTTP_MAX_CONNS)
        victim = victim_of(h, NULL);
    else
        full = false;
    conn *c = NULL;
    if ((full && victim == NULL) || !set_nonblocking(fd) || (c = malloc(sizeof *c)) == NULL) {
        close(fd);
        return;
    }
    if (victim)
        close_conn(h, victim);
    c->fd = fd;
    c->state = C_READ;
    c->deadline_ms = now + CZ_HTTP_HEAD_TIMEOUT_MS;
    c->peer = p;
    c->out = NULL;
    c->out_len = c->out_off = 0;
    c->head_len = c->scanned = 0;
    h->conns[h->n++] = c;
    on_read(h, c, now); /* the request may be in already */
}

static void accept_some(cz_http *h, int64_t now)
{
    for (int k = 0; k < ACCEPT_BATCH; k++) {
        struct sockaddr_storage sa;
        socklen_t len = sizeof sa;
        int fd = accept(h->lfd, (struct sockaddr *)&sa, &len);
        if (fd >= 0) {
            admit(h, fd, &sa, now);
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            h->accept_resume_ms = now + ACCEPT_PAUSE_MS;
            return;
        }
        /* ECONNABORTED, EINTR, network errors of the new connection: next */
    }
}

static void *event_loop(void *arg)
{
    cz_http *h = arg;
    struct pollfd pfd[2 + CZ_HTTP_MAX_CONNS];
    conn *polled[CZ_HTTP_MAX_CONNS];
    for (;;) {
        int64_t now = now_ms(), next = INT64_MAX;
        bool accepting = now >= h->accept_resume_ms;
        pfd[0] = (struct pollfd){.fd = h->wake[0], .events = POLLIN};
        pfd[1] = (struct pollfd){.fd = accepting ? h->lfd : -1, .events = POLLIN};
        if (!accepting)
            next = h->accept_resume_ms;
        size_t np = h->n;
        for (size_t i = 0; i < np; i++) {
            conn *c = polled[i] = h->conns[i];
            pfd[2 + i] =
                (struct pollfd){.fd = c->fd, .events = c->state == C_WRITE ? POLLOUT : POLLIN};
            if (c->deadline_ms < next)
                next = c->deadline_ms;
        }
        int timeout = next == INT64_MAX ? -1
                      : next <= now     ? 0
                                        : (int)(next - now < INT_MAX ? next - now : INT_MAX);
        int r = poll(pfd, 2 + np, timeout);
        if (r < 0) /* EINTR, or ENOMEM: nothing is ready; deadlines still run */
            for (size_t i = 0; i < 2 + np; i++)
                pfd[i].revents = 0;
        if (pfd[0].revents)
            break;
        now = now_ms();
        /* a connection handled here may close only itself */
        for (size_t i = 0; i < np; i++) {
            conn *c = polled[i];
            if (pfd[2 + i].revents == 0)
                continue;
            if (c->state == C_READ)
                on_read(h, c, now);
            else if (c->state == C_WRITE)
                on_write(h, c, now);
            else
                on_linger(h, c);
        }
        for (size_t i = h->n; i-- > 0;)
            if (h->conns[i]->deadline_ms <= now)
                close_conn(h, h->conns[i]);
        if (pfd[1].revents)
            accept_some(h, now);
    }
    while (h->n > 0)
        close_conn(h, h->conns[h->n - 1]);
    return NULL;
}

/* -------------------------------------------------------------- address --- */

/* Splits "host:port", ":port" or "[v6]:port" into host (empty: any IPv4
 * address) and port. */
static int split_addr(const char *addr, char *host, size_t hostlen, char *port, size_t portlen,
                      char *err, size_t errlen)
{
    const char *colon, *h0 = addr, *h1;
    if (addr[0] == '[') {
        const char *close_br = strchr(addr, ']');
        if (close_br == NULL || close_br[1] != ':') {
            cz_msgf(err, errlen, "http address \"%s\": expected [ipv6]:port", addr);
            return CZ_ERR_INVALID_ARG;
        }
        h0 = addr + 1;
        h1 = close_br;
        colon = close_br + 1;
    } else {
        colon = strrchr(addr, ':');
        if (colon == NULL) {
            cz_msgf(err, errlen, "http address \"%s\": expected host:port or :port", addr);
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
        cz_msgf(err, errlen, "http address \"%s\": port must be 0..65535", addr);
        return CZ_ERR_INVALID_ARG;
    }
    if ((size_t)(h1 - h0) >= hostlen) {
        cz_msgf(err, errlen, "http address \"%s\": host name too long", addr);
        return CZ_ERR_INVALID_ARG;
    }
    memcpy(host, h0, (size_t)(h1 - h0));
    host[h1 - h0] = '\0';
    snprintf(port, portlen, "%s", p);
    return CZ_OK;
}

/* A listening socket on addr (non-blocking) and its port; -1 and err on
 * failure (*rc: CZ_ERR_INVALID_ARG or CZ_ERR_IO). */
static int listen_on(const char *addr, unsigned *port_out, int *rc, char *err, size_t errlen)
{
    char host[256], port[8];
    *rc = split_addr(addr, host, sizeof host, port, sizeof port, err, errlen);
    if (*rc != CZ_OK)
        return -1;
    *rc = CZ_ERR_IO;
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = host[0] ? AF_UNSPEC : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (g != 0) {
        cz_msgf(err, errlen, "http address \"%s\": %s", addr,
                g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM, 0), one = 1;
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    bool ok = fd >= 0 && set_nonblocking(fd) &&
              setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
              (res->ai_family != AF_INET6 ||
               setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) == 0) &&
              bind(fd, res->ai_addr, res->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0 &&
              getsockname(fd, (struct sockaddr *)&sa, &len) == 0;
    int os_err = errno;
    freeaddrinfo(res);
    if (!ok) {
        cz_msgf(err, errlen, "http: cannot listen on %s: %s", addr, strerror(os_err));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *port_out = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                               : ((struct sockaddr_in *)&sa)->sin_port);
    *rc = CZ_OK;
    return fd;
}

/* --------------------------------------------------------------- server --- */

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
    if (h->lfd >= 0)
        close(h->lfd);
    for (int i = 0; i < 2; i++)
        if (h->wake[i] >= 0)
            close(h->wake[i]);
    cz_metrics_free(h->m);
    free(h->version);
    free(h->listen);
    free(h);
}

int cz_http_start(cz_http **out, const char *addr, cz_engine *e, const cz_http_info *info,
                  char *err, size_t errlen)
{
    cz_msgf(err, errlen, "%s", "");
    if (out == NULL || addr == NULL || e == NULL) {
        cz_msgf(err, errlen, "http: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    *out = NULL;
    cz_http *h = calloc(1, sizeof *h);
    if (h == NULL)
        return CZ_ERR_NOMEM;
    h->lfd = h->wake[0] = h->wake[1] = -1;
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
    int rc;
    h->lfd = listen_on(addr, &h->port, &rc, err, errlen);
    if (h->lfd < 0) {
        http_free(h);
        return rc;
    }
    int wake[2];
    if (pipe(wake) != 0) {
        cz_msgf(err, errlen, "http: pipe: %s", strerror(errno));
        http_free(h);
        return CZ_ERR_IO;
    }
    h->wake[0] = wake[0];
    h->wake[1] = wake[1];
    if (!set_nonblocking(wake[0]) || !set_nonblocking(wake[1])) {
        cz_msgf(err, errlen, "http: pipe: %s", strerror(errno));
        http_free(h);
        return CZ_ERR_IO;
    }
    if (pthread_create(&h->thread, NULL, event_loop, h) != 0) {
        cz_msgf(err, errlen, "http: cannot start the event thread");
        http_free(h);
        return CZ_ERR_THREAD;
    }
    *out = h;
    return CZ_OK;
}

unsigned cz_http_port(const cz_http *h) { return h ? h->port : 0; }

cz_metrics *cz_http_metrics(cz_http *h) { return h ? h->m : NULL; }

void cz_http_stop(cz_http *h)
{
    if (h == NULL)
        return;
    ssize_t w;
    do
        w = write(h->wake[1], "x", 1);
    while (w < 0 && errno == EINTR);
    pthread_join(h->thread, NULL);
    http_free(h);
}
