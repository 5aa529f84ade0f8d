/* The daemon's gRPC transport (src/daemon/h2.h).  Its pure helpers on
 * vectors and random inputs: grpc-timeout against a 128-bit product,
 * percent-encoding decoded back, the prefix and content-length decisions.
 * Then the transport itself in this process, with a test server behind it
 * (echo calls answered from a worker thread, held calls never answered)
 * and an nghttp2 client over TCP and a unix socket: an echo of a few bytes
 * and of 3 MiB (flow control both ways), a prefix claiming 1.5 GB answered
 * RESOURCE_EXHAUSTED before the body, then RST_STREAM(NO_ERROR), without
 * the message ever being given a buffer; compressed and bad flags, an
 * unknown path, a refused open, no message, a message cut short, a second
 * message; a content-length over the limit, another content-type and 20 kB
 * of headers refused before a call is opened; grpc-message percent-encoded; a held call whose grpc-timeout
 * passes (DEADLINE_EXCEEDED, closed gone) and one the client resets
 * (closed gone); the stop: drain refuses new connections, close_all
 * closes held calls gone, free removes the unix socket, and every call is
 * released.  Threads: the loop, the worker and the client (TSan-safe). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "daemon/h2.h"
#include "daemon/rpc.h"
#include "tf.h"
#include "util/clock.h"

static uint64_t rnd(uint64_t n) { return n ? cz_prng_next(&tf_rng) % n : 0; }

/* ---------------------------------------------------- pure helpers --- */

static void test_timeout_parse(void)
{
    static const struct {
        const char *s;
        int64_t ns;
    } ok[] = {{"1S", 1000000000}, {"100m", 100000000}, {"5u", 5000}, {"7n", 7},
              {"2M", 120000000000}, {"1H", 3600000000000}, {"0m", 0},
              {"99999999n", 99999999}, {"99999999H", INT64_MAX}, {"00000001S", 1000000000}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t ns = -1;
        TF_CHECK_MSG(cz_h2_timeout_parse(ok[i].s, strlen(ok[i].s), &ns) && ns == ok[i].ns,
                     "%s: %lld", ok[i].s, (long long)ns);
    }
    static const char *const bad[] = {"", "S", "1", "123456789S", "1x", "-1S", "1.5S", " 1S",
                                      "1s", "1h", "1 S"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t ns;
        TF_CHECK_MSG(!cz_h2_timeout_parse(bad[i], strlen(bad[i]), &ns), "'%s' accepted", bad[i]);
    }
    static const char units[] = "HMSmun";
    static const uint64_t mul[] = {3600000000000ull, 60000000000ull, 1000000000ull, 1000000ull,
                                   1000ull, 1ull};
    for (int k = 0; k < 2000 * (int)tf_scale; k++) {
        char s[10];
        size_t nd = 1 + rnd(8);
        uint64_t v = 0;
        for (size_t i = 0; i < nd; i++) {
            s[i] = (char)('0' + rnd(10));
            v = v * 10 + (uint64_t)(s[i] - '0');
        }
        size_t u = rnd(6);
        s[nd] = units[u];
        unsigned __int128 want = (unsigned __int128)v * mul[u];
        int64_t ns;
        TF_CHECK(cz_h2_timeout_parse(s, nd + 1, &ns));
        TF_CHECK_MSG((unsigned __int128)ns == (want > INT64_MAX ? INT64_MAX : want), "%.*s",
                     (int)nd + 1, s);
    }
}

static int unhex(char c) { return c <= '9' ? c - '0' : c - 'A' + 10; }

static void test_percent_encode(void)
{
    static const struct {
        const char *in, *out;
    } v[] = {{"abc", "abc"},
             {"a%b", "a%25b"},
             {"line\nnext", "line%0Anext"},
             {"caf\xc3\xa9", "caf%C3%A9"},
             {"\x7f~ ", "%7F~ "},
             {"", ""}};
    char out[64];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = cz_h2_percent_encode(out, sizeof out, v[i].in);
        TF_CHECK_MSG(strcmp(out, v[i].out) == 0 && n == strlen(v[i].out), "%s -> %s", v[i].in,
                     out);
    }
    /* an escape is never cut: "ab%" in 5 bytes leaves "ab" */
    TF_CHECK(cz_h2_percent_encode(out, 5, "ab%") == 2 && strcmp(out, "ab") == 0);
    TF_CHECK(cz_h2_percent_encode(out, 6, "ab%") == 5 && strcmp(out, "ab%25") == 0);
    for (int k = 0; k < 500 * (int)tf_scale; k++) {
        char in[100], enc[301], dec[100];
        size_t n = rnd(sizeof in);
        for (size_t i = 0; i < n; i++)
            in[i] = (char)(1 + rnd(255));
        in[n] = 0;
        size_t m = cz_h2_percent_encode(enc, sizeof enc, in), d = 0;
        TF_CHECK(m == strlen(enc));
        for (size_t i = 0; i < m; i++) {
            unsigned char c = (unsigned char)enc[i];
            TF_CHECK_MSG(c >= 0x20 && c <= 0x7E, "byte %02x in the encoding", c);
            if (c == '%' && i + 2 < m + 1) {
                dec[d++] = (char)(unhex(enc[i + 1]) << 4 | unhex(enc[i + 2]));
                i += 2;
            } else {
                dec[d++] = (char)c;
            }
        }
        TF_CHECK_MSG(d == n && memcmp(dec, in, n) == 0, "decoding the encoding of %zu bytes", n);
    }
}

static void prefix(uint8_t p[5], uint8_t flag, uint32_t len)
{
    p[0] = flag;
    p[1] = (uint8_t)(len >> 24);
    p[2] = (uint8_t)(len >> 16);
    p[3] = (uint8_t)(len >> 8);
    p[4] = (uint8_t)len;
}

static void test_prefix_check(void)
{
    uint8_t p[5];
    uint32_t len;
    char msg[200];
    prefix(p, 0, 0);
    TF_CHECK(cz_h2_prefix_check(p, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg) == 0 && len == 0);
    prefix(p, 0, CZ_RPC_MAX_MESSAGE);
    TF_CHECK(cz_h2_prefix_check(p, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg) == 0 &&
             len == CZ_RPC_MAX_MESSAGE);
    prefix(p, 0, 1610612736u);
    TF_CHECK(cz_h2_prefix_check(p, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg) ==
             CZ_RPC_RESOURCE_EXHAUSTED);
    TF_CHECK_MSG(strcmp(msg, "the request is 1610612736 bytes; the limit is 268435456 bytes "
                             "(256 MiB)") == 0,
                 "%s", msg);
    prefix(p, 1, 10);
    TF_CHECK(cz_h2_prefix_check(p, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg) ==
                 CZ_RPC_INVALID_ARGUMENT &&
             strcmp(msg, "compressed messages are not accepted") == 0);
    prefix(p, 2, 10);
    TF_CHECK(cz_h2_prefix_check(p, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg) ==
             CZ_RPC_INVALID_ARGUMENT);
    for (int k = 0; k < 2000 * (int)tf_scale; k++) {
        uint32_t n = (uint32_t)cz_prng_next(&tf_rng), max = (uint32_t)cz_prng_next(&tf_rng);
        if (rnd(2))
            n = max + (uint32_t)rnd(3) - 1;
        prefix(p, 0, n);
        int code = cz_h2_prefix_check(p, max, &len, msg, sizeof msg);
        TF_CHECK_MSG(code == (n <= max ? 0 : CZ_RPC_RESOURCE_EXHAUSTED), "%u of %u", n, max);
        TF_CHECK(code != 0 || len == n);
    }
    TF_CHECK(cz_h2_length_check(CZ_RPC_MAX_MESSAGE + 5ull, CZ_RPC_MAX_MESSAGE, msg, sizeof msg) ==
             0);
    TF_CHECK(cz_h2_length_check(CZ_RPC_MAX_MESSAGE + 6ull, CZ_RPC_MAX_MESSAGE, msg, sizeof msg) ==
                 CZ_RPC_RESOURCE_EXHAUSTED &&
             strstr(msg, "268435457 bytes; the limit is 268435456") != NULL);
}

/* ------------------------------------------------- the test server --- */

typedef enum { ECHO, HOLD } tmode;

typedef struct tcall {
    cz_h2_call h;
    atomic_int refs;
    tmode mode;
    uint8_t *msg;
    size_t len;
    struct tcall *next;
} tcall;

static cz_h2 *T;
static atomic_int n_open, n_freed, n_gone, n_message;
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wcv = PTHREAD_COND_INITIALIZER;
static tcall *whead;
static bool wstop;

static void t_ref(cz_h2_call *h) { atomic_fetch_add(&((tcall *)h)->refs, 1); }

static void t_unref(cz_h2_call *h)
{
    tcall *c = (tcall *)h;
    if (atomic_fetch_sub(&c->refs, 1) == 1) {
        free(c->msg);
        free(c);
        atomic_fetch_add(&n_freed, 1);
    }
}

static cz_h2_call *t_open(void *arg, const char *path, int *code, char *msg, size_t msglen)
{
    tmode mode;
    if (strcmp(path, "/t/echo") == 0) {
        mode = ECHO;
    } else if (strcmp(path, "/t/hold") == 0) {
        mode = HOLD;
    } else if (strcmp(path, "/t/refuse") == 0) {
        *code = CZ_RPC_RESOURCE_EXHAUSTED;
        cz_msgf(msg, msglen, "no room");
        return NULL;
    } else {
        *code = CZ_RPC_UNIMPLEMENTED;
        cz_msgf(msg, msglen, "unknown method %s", path);
        return NULL;
    }
    tcall *c = calloc(1, sizeof *c);
    c->mode = mode;
    c->h.name = path;
    atomic_init(&c->refs, 1);
    atomic_fetch_add(&n_open, 1);
    return &c->h;
}

static uint8_t *t_message(cz_h2_call *h, size_t len, int *code, char *msg, size_t msglen)
{
    tcall *c = (tcall *)h;
    atomic_fetch_add(&n_message, 1);
    c->msg = malloc(len ? len : 1);
    c->len = len;
    return c->msg;
}

static void t_request(cz_h2_call *h)
{
    tcall *c = (tcall *)h;
    if (c->mode == HOLD)
        return;
    t_ref(h);
    pthread_mutex_lock(&wmu);
    c->next = whead;
    whead = c;
    pthread_cond_signal(&wcv);
    pthread_mutex_unlock(&wmu);
}

static void t_close(cz_h2_call *h, bool gone)
{
    if (gone)
        atomic_fetch_add(&n_gone, 1);
}

/* Answers echo calls: the message back, or "pct:TEXT" as INVALID_ARGUMENT
 * with TEXT as details. */
static void *worker(void *arg)
{
    pthread_mutex_lock(&wmu);
    for (;;) {
        while (whead == NULL && !wstop)
            pthread_cond_wait(&wcv, &wmu);
        if (whead == NULL)
            break;
        tcall *c = whead;
        whead = c->next;
        pthread_mutex_unlock(&wmu);
        if (c->msg == NULL) {
            cz_h2_answer(T, &c->h, CZ_RPC_INVALID_ARGUMENT, "no request message", NULL, 0);
        } else if (c->len > 4 && memcmp(c->msg, "pct:", 4) == 0) {
            char d[100];
            snprintf(d, sizeof d, "%.*s", (int)c->len - 4, (const char *)c->msg + 4);
            cz_h2_answer(T, &c->h, CZ_RPC_INVALID_ARGUMENT, d, NULL, 0);
        } else {
            uint8_t *out = malloc(CZ_H2_PREFIX + c->len);
            memcpy(out + CZ_H2_PREFIX, c->msg, c->len);
            cz_h2_answer(T, &c->h, CZ_RPC_OK, NULL, out, c->len);
        }
        t_unref(&c->h);
        pthread_mutex_lock(&wmu);
    }
    pthread_mutex_unlock(&wmu);
    return NULL;
}

/* ------------------------------------------------------ the client --- */

typedef struct {
    int fd;
    nghttp2_session *ss;
    int32_t id;
    const uint8_t *body;
    size_t body_len, body_off;
    bool end;   /* END_STREAM after the body (else the stream stays open) */
    bool ended; /* the server's END_STREAM */
    bool closed;
    uint32_t close_code;
    int status; /* grpc-status, -1 none */
    char message[512];
    uint8_t *data;
    size_t data_len;
} h2c;

static ssize_t c_read(nghttp2_session *ss, int32_t id, uint8_t *buf, size_t length,
                      uint32_t *flags, nghttp2_data_source *src, void *user)
{
    h2c *c = src->ptr;
    size_t n = c->body_len - c->body_off;
    if (n == 0 && !c->end)
        return NGHTTP2_ERR_DEFERRED;
    if (n > length)
        n = length;
    memcpy(buf, c->body + c->body_off, n);
    c->body_off += n;
    if (c->body_off == c->body_len && c->end)
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

static int c_header(nghttp2_session *ss, const nghttp2_frame *f, const uint8_t *name,
                    size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags,
                    void *user)
{
    h2c *c = user;
    if (namelen == 11 && memcmp(name, "grpc-status", 11) == 0)
        c->status = atoi((const char *)value);
    if (namelen == 12 && memcmp(name, "grpc-message", 12) == 0)
        snprintf(c->message, sizeof c->message, "%.*s", (int)valuelen, (const char *)value);
    return 0;
}

static int c_data(nghttp2_session *ss, uint8_t flags, int32_t id, const uint8_t *d, size_t len,
                  void *user)
{
    h2c *c = user;
    c->data = realloc(c->data, c->data_len + len);
    memcpy(c->data + c->data_len, d, len);
    c->data_len += len;
    return 0;
}

static int c_frame(nghttp2_session *ss, const nghttp2_frame *f, void *user)
{
    h2c *c = user;
    if (f->hd.stream_id == c->id && (f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA) &&
        (f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        c->ended = true;
    return 0;
}

static int c_close(nghttp2_session *ss, int32_t id, uint32_t code, void *user)
{
    h2c *c = user;
    if (id == c->id) {
        c->closed = true;
        c->close_code = code;
    }
    return 0;
}

static int connect_to(const char *unix_path, int port)
{
    int fd;
    if (unix_path) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        snprintf(sa.sun_path, sizeof sa.sun_path, "%s", unix_path);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            close(fd);
            return -1;
        }
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1; /* as gRPC clients do */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static bool c_open(h2c *c, const char *unix_path, int port)
{
    memset(c, 0, sizeof *c);
    c->status = -1;
    c->fd = connect_to(unix_path, port);
    if (c->fd < 0)
        return false;
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, c_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, c_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, c_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, c_close);
    nghttp2_session_client_new(&c->ss, cb, c);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(c->ss, NGHTTP2_FLAG_NONE, NULL, 0);
    return true;
}

/* Sends what nghttp2 has, reads for up to ms; false when the connection
 * failed or ended. */
static bool c_pump(h2c *c, int ms)
{
    const uint8_t *d;
    ssize_t n;
    while ((n = nghttp2_session_mem_send(c->ss, &d)) > 0)
        for (ssize_t off = 0; off < n;) {
            ssize_t k = send(c->fd, d + off, (size_t)(n - off), MSG_NOSIGNAL);
            if (k <= 0)
                return false;
            off += k;
        }
    struct pollfd p = {c->fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0)
        return true;
    uint8_t buf[1 << 16];
    ssize_t r = recv(c->fd, buf, sizeof buf, 0);
    if (r <= 0)
        return false;
    return nghttp2_session_mem_recv(c->ss, buf, (size_t)r) == r;
}

/* A request on path with one more header "h: v" (h NULL: none). */
static void c_start(h2c *c, const char *path, const char *h, const char *v, const uint8_t *body,
                    size_t len, bool end, bool headers_end)
{
    nghttp2_nv nv[7] = {
        {(uint8_t *)":method", (uint8_t *)"POST", 7, 4, 0},
        {(uint8_t *)":scheme", (uint8_t *)"http", 7, 4, 0},
        {(uint8_t *)":path", (uint8_t *)path, 5, strlen(path), 0},
        {(uint8_t *)":authority", (uint8_t *)"t", 10, 1, 0},
        {(uint8_t *)"content-type", (uint8_t *)"application/grpc", 12, 16, 0},
        {(uint8_t *)"te", (uint8_t *)"trailers", 2, 8, 0},
        {(uint8_t *)h, (uint8_t *)v, h ? strlen(h) : 0, h ? strlen(v) : 0, 0}};
    c->body = body;
    c->body_len = len;
    c->end = end;
    nghttp2_data_provider prd = {.source.ptr = c, .read_callback = c_read};
    c->id = nghttp2_submit_request(c->ss, NULL, nv, h ? 7 : 6, headers_end ? NULL : &prd, NULL);
}

static void c_wait(h2c *c, int ms)
{
    double end = cz_clock_s(CLOCK_MONOTONIC) + ms / 1e3;
    while (!c->closed && cz_clock_s(CLOCK_MONOTONIC) < end && c_pump(c, 20))
        ;
}

static void c_free(h2c *c)
{
    nghttp2_session_del(c->ss);
    close(c->fd);
    free(c->data);
}

/* One call on a connection of its own, with header "h: v" (h NULL: none)
 * and body (with END_STREAM when end). */
static void call(h2c *c, const char *unix_path, int port, const char *path, const char *h,
                 const char *v, const uint8_t *body, size_t len, bool end)
{
    TF_CHECK(c_open(c, unix_path, port));
    c_start(c, path, h, v, body, len, end, body == NULL);
    c_wait(c, 10000);
}

static bool wait_for(atomic_int *v, int want, int ms)
{
    double end = cz_clock_s(CLOCK_MONOTONIC) + ms / 1e3;
    while (atomic_load(v) < want && cz_clock_s(CLOCK_MONOTONIC) < end)
        usleep(1000);
    return atomic_load(v) >= want;
}

static uint8_t *grpc_msg(uint8_t flag, uint32_t claim, const void *p, size_t n)
{
    uint8_t *b = malloc(CZ_H2_PREFIX + n);
    prefix(b, flag, claim);
    memcpy(b + CZ_H2_PREFIX, p, n);
    return b;
}

static void test_transport(void)
{
    char sock[64], err[256];
    snprintf(sock, sizeof sock, "/tmp/cz-test-h2-%d.sock", (int)getpid());
    char uaddr[80];
    snprintf(uaddr, sizeof uaddr, "unix://%s", sock);
    const char *addrs[] = {"127.0.0.1:0", uaddr};
    const cz_h2_handlers h = {NULL, t_open, t_message, t_request, t_close, t_ref, t_unref};
    pthread_t wt;
    wstop = false;
    pthread_create(&wt, NULL, worker, NULL);
    int rc = cz_h2_start(&T, addrs, 2, &h, err, sizeof err);
    TF_CHECK_MSG(rc == CZ_OK, "%s", err);
    if (rc != CZ_OK)
        return;
    int port = cz_h2_port(T, 0);
    TF_CHECK(port > 0 && cz_h2_port(T, 1) == 0);
    struct stat st;
    TF_CHECK(stat(sock, &st) == 0 && S_ISSOCK(st.st_mode));

    /* echo, both transports */
    for (int u = 0; u < 2; u++) {
        h2c c;
        uint8_t *b = grpc_msg(0, 5, "hello", 5);
        call(&c, u ? sock : NULL, port, "/t/echo", NULL, NULL, b, 10, true);
        TF_CHECK_MSG(c.closed && c.status == 0 && c.data_len == 10 && memcmp(c.data, b, 10) == 0,
                     "echo (%s): status %d, %zu bytes", u ? "unix" : "tcp", c.status, c.data_len);
        c_free(&c);
        free(b);
    }
    /* 3 MiB each way */
    {
        size_t n = 3u << 20;
        uint8_t *m = malloc(n);
        cz_prng_bytes(&tf_rng, m, n);
        uint8_t *b = grpc_msg(0, (uint32_t)n, m, n);
        h2c c;
        call(&c, NULL, port, "/t/echo", NULL, NULL, b, n + 5, true);
        TF_CHECK_MSG(c.status == 0 && c.data_len == n + 5 && memcmp(c.data, b, n + 5) == 0,
                     "3 MiB echo: status %d, %zu bytes", c.status, c.data_len);
        c_free(&c);
        free(b);
        free(m);
    }
    /* a prefix claiming 1.5 GB: answered before the body, the stream reset */
    {
        int msgs = atomic_load(&n_message);
        static uint8_t body[CZ_H2_PREFIX + 65536];
        prefix(body, 0, 1610612736u);
        h2c c;
        call(&c, NULL, port, "/t/echo", NULL, NULL, body, sizeof body, false);
        TF_CHECK_MSG(c.closed && c.status == CZ_RPC_RESOURCE_EXHAUSTED &&
                         strstr(c.message, "1610612736") && strstr(c.message, "268435456"),
                     "1.5 GB prefix: status %d %s", c.status, c.message);
        TF_CHECK_MSG(c.ended && c.close_code == NGHTTP2_NO_ERROR, "closed with %u",
                     c.close_code);
        TF_CHECK(atomic_load(&n_message) == msgs);
        c_free(&c);
    }
    /* refusals */
    static const struct {
        const char *path;
        uint8_t flag;
        uint32_t claim;
        const char *body;
        bool two, none;
        int code;
        const char *msg;
    } r[] = {
        {"/t/echo", 1, 3, "abc", false, false, CZ_RPC_INVALID_ARGUMENT, "compressed"},
        {"/t/echo", 7, 3, "abc", false, false, CZ_RPC_INVALID_ARGUMENT, "flag byte"},
        {"/t/nope", 0, 3, "abc", false, false, CZ_RPC_UNIMPLEMENTED, "unknown method /t/nope"},
        {"/t/refuse", 0, 3, "abc", false, false, CZ_RPC_RESOURCE_EXHAUSTED, "no room"},
        {"/t/echo", 0, 0, "", false, true, CZ_RPC_INVALID_ARGUMENT, "no request message"},
        {"/t/echo", 0, 10, "abc", false, false, CZ_RPC_INVALID_ARGUMENT, "cut short: 3 of 10"},
        {"/t/echo", 0, 3, "abc", true, false, CZ_RPC_INVALID_ARGUMENT, "one request message"},
        {"/t/echo", 0, 9, "pct:a%\n\xc3\xa9", false, false, CZ_RPC_INVALID_ARGUMENT,
         "a%25%0A%C3%A9"},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        size_t n = strlen(r[i].body);
        uint8_t *b = grpc_msg(r[i].flag, r[i].claim, r[i].body, n);
        uint8_t two[2 * CZ_H2_PREFIX + 6];
        size_t len = CZ_H2_PREFIX + n;
        if (r[i].two) {
            memcpy(two, b, len);
            memcpy(two + len, b, len);
            len *= 2;
        }
        h2c c;
        call(&c, NULL, port, r[i].path, NULL, NULL, r[i].none ? NULL : r[i].two ? two : b, len,
             true);
        TF_CHECK_MSG(c.closed && c.status == r[i].code && strstr(c.message, r[i].msg),
                     "%s case %zu: status %d '%s', want %d '%s'", r[i].path, i, c.status,
                     c.message, r[i].code, r[i].msg);
        c_free(&c);
        free(b);
    }
    /* refused from the request head: never opened */
    {
        static char big[20000];
        memset(big, 'x', sizeof big - 1);
        static const struct {
            const char *h, *v;
            int code;
            const char *msg;
        } hr[] = {{"content-length", "1610612741", CZ_RPC_RESOURCE_EXHAUSTED,
                   "the request is 1610612736 bytes; the limit is 268435456"},
                  {"content-type", "text/plain", CZ_RPC_INVALID_ARGUMENT, "content-type"},
                  {"x-big", big, CZ_RPC_RESOURCE_EXHAUSTED, "headers are over 16384 bytes"}};
        uint8_t *b = grpc_msg(0, 3, "abc", 3); /* the stream left open after it */
        for (size_t i = 0; i < sizeof hr / sizeof hr[0]; i++) {
            int open = atomic_load(&n_open);
            h2c c;
            call(&c, NULL, port, "/t/echo", hr[i].h, hr[i].v, b, 8, false);
            TF_CHECK_MSG(c.closed && c.status == hr[i].code && strstr(c.message, hr[i].msg),
                         "%s: status %d '%s'", hr[i].h, c.status, c.message);
            TF_CHECK(atomic_load(&n_open) == open);
            c_free(&c);
        }
        free(b);
    }
    /* a held call past its grpc-timeout: DEADLINE_EXCEEDED, closed gone */
    {
        int gone = atomic_load(&n_gone);
        uint8_t *b = grpc_msg(0, 3, "abc", 3);
        h2c c;
        call(&c, NULL, port, "/t/hold", "grpc-timeout", "50m", b, 8, true);
        TF_CHECK_MSG(c.closed && c.status == CZ_RPC_DEADLINE_EXCEEDED, "deadline: status %d",
                     c.status);
        TF_CHECK(wait_for(&n_gone, gone + 1, 5000));
        c_free(&c);
        free(b);
    }
    /* a held call the client resets: closed gone */
    {
        int gone = atomic_load(&n_gone), open = atomic_load(&n_open);
        uint8_t *b = grpc_msg(0, 3, "abc", 3);
        h2c c;
        TF_CHECK(c_open(&c, NULL, port));
        c_start(&c, "/t/hold", NULL, NULL, b, 8, true, false);
        while (atomic_load(&n_open) == open && c_pump(&c, 10))
            ;
        nghttp2_submit_rst_stream(c.ss, NGHTTP2_FLAG_NONE, c.id, NGHTTP2_CANCEL);
        c_pump(&c, 0);
        TF_CHECK(wait_for(&n_gone, gone + 1, 5000));
        c_free(&c);
        free(b);
    }
    /* the stop: a held call on a connection left open */
    int gone = atomic_load(&n_gone), open = atomic_load(&n_open);
    uint8_t *b = grpc_msg(0, 3, "abc", 3);
    h2c held;
    TF_CHECK(c_open(&held, sock, 0));
    c_start(&held, "/t/hold", NULL, NULL, b, 8, true, false);
    while (atomic_load(&n_open) == open && c_pump(&held, 10))
        ;
    cz_h2_drain(T);
    int fd = connect_to(NULL, port);
    TF_CHECK_MSG(fd < 0, "a connection after drain was accepted");
    if (fd >= 0)
        close(fd);
    c_pump(&held, 50); /* the GOAWAY */
    TF_CHECK(atomic_load(&n_gone) == gone);
    cz_h2_close_all(T);
    TF_CHECK(atomic_load(&n_gone) == gone + 1);
    cz_h2_free(T);
    T = NULL;
    c_free(&held);
    free(b);
    TF_CHECK_MSG(stat(sock, &st) != 0, "%s left behind", sock);
    pthread_mutex_lock(&wmu);
    wstop = true;
    pthread_cond_signal(&wcv);
    pthread_mutex_unlock(&wmu);
    pthread_join(wt, NULL);
    TF_CHECK_MSG(atomic_load(&n_freed) == atomic_load(&n_open), "%d calls opened, %d freed",
                 atomic_load(&n_open), atomic_load(&n_freed));
}

/* Refusals at start: a taken port, a bad address; nothing is left bound. */
static void test_start_refusals(void)
{
    const cz_h2_handlers h = {NULL, t_open, t_message, t_request, t_close, t_ref, t_unref};
    char err[256], addr[64];
    cz_h2 *a, *b;
    const char *first[] = {"127.0.0.1:0"};
    TF_CHECK(cz_h2_start(&a, first, 1, &h, err, sizeof err) == CZ_OK);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", cz_h2_port(a, 0));
    const char *same[] = {addr};
    TF_CHECK(cz_h2_start(&b, same, 1, &h, err, sizeof err) == CZ_ERR_BUSY && b == NULL);
    TF_CHECK_MSG(strstr(err, addr) && strstr(err, "in use"), "%s", err);
    const char *bad[] = {"127.0.0.1:0", "no-port"};
    TF_CHECK(cz_h2_start(&b, bad, 2, &h, err, sizeof err) == CZ_ERR_INVALID_ARG);
    TF_CHECK_MSG(strstr(err, "not HOST:PORT"), "%s", err);
    const char *v6[] = {"[::1]:0"};
    if (cz_h2_start(&b, v6, 1, &h, err, sizeof err) == CZ_OK) { /* where IPv6 is up */
        TF_CHECK(cz_h2_port(b, 0) > 0);
        cz_h2_free(b);
    }
    cz_h2_free(a);
}

TF_MAIN(TF_TEST(test_timeout_parse), TF_TEST(test_percent_encode), TF_TEST(test_prefix_check),
        TF_TEST(test_transport), TF_TEST(test_start_refusals))
