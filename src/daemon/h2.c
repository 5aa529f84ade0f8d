/* The gRPC transport on nghttp2 (contract in h2.h).
 *
 * Threads.  One loop thread owns everything below: listening sockets,
 * connections, their nghttp2 sessions and streams; nghttp2 is called from
 * it alone.  Other threads reach it through two doors, both under qmu and
 * woken by the eventfd: the answer queue (cz_h2_answer, from handler
 * threads and the engine's notifier thread) and the commands of the stop
 * (drain, close_all, quit), which the caller waits for.
 *
 * A loop turn: epoll_wait (level-triggered, timeout up to the next timer),
 * then for each ready socket: accept (ACCEPT_BATCH at most), or read at
 * most READ_TURN bytes of a connection into the loop's read buffer and feed
 * them to nghttp2, whose callbacks copy a message's bytes straight into
 * its call's buffer; answers queued since the last turn are submitted; the
 * timers run (deadlines, handshakes, keepalive pings, lingering closes);
 * every connection with frames to send is flushed (WRITE_FILL bytes of
 * frames gathered per send).  Fairness: every ready connection gets at
 * most READ_TURN bytes a turn, so an upload of hundreds of MB interleaves
 * with the small calls of other connections; connections receiving a
 * message over BULK_MESSAGE are read last in a turn, each read followed by
 * the answers queued meanwhile, since copying into fresh memory (its page
 * faults) makes their reads the slow ones.  A connection whose socket
 * refuses our writes is not read until they drain.
 *
 * Flow control: SETTINGS_INITIAL_WINDOW_SIZE STREAM_WINDOW per stream, the
 * connection's window CONN_WINDOW; nghttp2 gives windows back on its own as
 * data is received, which is right since every byte is copied out at once
 * (into the call's buffer, or dropped for a refused stream).
 *
 * Ownership.  A stream (h2_stream) lives from its HEADERS to its close; its
 * call (cz_h2_call, the server's) from handlers.open to the transport's
 * unref after handlers.close.  c->st links a call to its open stream and is
 * cleared at the close, so an answer that arrives later is dropped.  A
 * closed connection waits in the graveyard until the turn's end, as events
 * of the same turn may still name it. */
#define _GNU_SOURCE /* accept4 */
#include "daemon/h2.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "daemon/listen.h"
#include "daemon/log.h"
#include "daemon/rpc.h"
#include "util/clock.h"
#include "util/list.h"

#define MAX_ADDRS       8
#define MAX_CONNS       1024      /* beyond: accepted and closed at once */
#define READ_TURN       (256u << 10) /* bytes read from one connection per loop turn */
#define BULK_MESSAGE    (1u << 20)   /* a message over this makes its connection a bulk one */
#define WRITE_FILL      (64u << 10)  /* frames gathered before a send */
#define STREAM_WINDOW   (4u << 20)
#define CONN_WINDOW     (64u << 20)
#define MAX_HEADER_LIST (16u << 10) /* a request head's bytes, as HPACK counts them */
#define MAX_PATH        256
#define HANDSHAKE_MS    20000 /* the client's preface and SETTINGS */
#define PING_EVERY_MS   60000
#define PING_ACK_MS     20000
#define LINGER_MS       1000 /* a closing connection's reads until the client's EOF */
#define ACCEPT_BATCH    64
#define ACCEPT_PAUSE_MS 100 /* out of file descriptors: wait this long before accepting again */
#define TIMER_MAX_MS    1000
#define EVENTS          64 /* epoll events per turn */

enum { CMD_DRAIN = 1, CMD_CLOSE_ALL = 2, CMD_QUIT = 4 };

/* What a stream does with the DATA it receives. */
typedef enum {
    R_PREFIX, /* collecting the message's prefix */
    R_BODY,   /* copying the message into buf */
    R_FULL,   /* one message in: more bytes are a second message */
    R_IGNORE  /* refused, answered or handed over: data is dropped */
} recv_state;

typedef struct conn conn;

typedef struct h2_stream {
    conn *cn;
    int32_t id;
    struct h2_stream *prev, *next; /* the connection's streams */
    cz_h2_call *c;                 /* NULL until opened, and for a refused stream */
    /* the request head */
    size_t head_bytes;
    bool post, grpc_type, head_too_big, has_length;
    uint64_t content_length;
    int64_t deadline_ms; /* CLOCK_MONOTONIC; 0: none */
    char path[MAX_PATH];
    size_t path_len; /* may exceed MAX_PATH - 1: then no method has it */
    /* the message */
    recv_state rs; /* changed through set_rs */
    bool bulk;     /* in R_BODY, counted in its connection's bulk */
    uint8_t prefix[CZ_H2_PREFIX];
    unsigned prefix_got;
    uint8_t *buf; /* the call's; len bytes, got of them in */
    size_t len, got;
    /* the answer */
    bool end_sent, expired; /* our END_STREAM is out; the deadline passed */
    int code;
    char *details; /* percent-encoded, for the trailers */
    uint8_t *out;  /* prefix + message, out_off of out_len sent to nghttp2 */
    size_t out_len, out_off;
} h2_stream;

struct conn {
    cz_h2 *t;
    int fd;
    nghttp2_session *ss;
    h2_stream *streams;
    conn *prev, *next;  /* live connections */
    conn *dnext;        /* in the dirty list, or the graveyard */
    bool dirty, dead;
    bool blocked;       /* the socket refused our writes: not read until they drain */
    bool lingering;     /* shut for writing: read and dropped until EOF */
    bool settings_seen; /* the client's preface and SETTINGS are in */
    bool ping_out;
    unsigned bulk;      /* streams receiving a message over BULK_MESSAGE */
    uint32_t events;    /* registered with epoll */
    int64_t since_ms;   /* accepted, or lingering since */
    int64_t ping_ms;    /* the last PING sent */
    uint8_t *obuf;      /* frames to send: [ooff, olen) */
    size_t olen, ooff, ocap;
};

typedef struct {
    int fd;
    size_t addr; /* index into the addresses */
} listener;

struct cz_h2 {
    cz_h2_handlers h;
    int ep, efd;
    pthread_t thread;
    listener ls[MAX_ADDRS * CZ_LISTEN_SOCKS];
    size_t n_ls;
    int ports[MAX_ADDRS];
    size_t n_addrs;
    char unix_paths[MAX_ADDRS][108];
    size_t n_unix;
    nghttp2_session_callbacks *cbs;
    /* qmu guards the answer queue and the commands */
    pthread_mutex_t qmu;
    pthread_cond_t qcv;
    cz_h2_call *qhead, *qtail;
    unsigned cmd, cmd_done;
    /* the loop thread's own */
    uint8_t *rbuf; /* READ_TURN bytes */
    conn *conns, *dirty, *grave;
    unsigned n_conns;
    bool draining, quitting;
    int64_t next_timer_ms, accept_resume_ms, full_logged_ms;
};

static int64_t now_ms(void) { return (int64_t)(cz_clock_s(CLOCK_MONOTONIC) * 1e3); }

/* ----------------------------------------------------- pure helpers --- */

bool cz_h2_timeout_parse(const char *s, size_t n, int64_t *ns)
{
    if (n < 2 || n > 9)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    uint64_t unit;
    switch (s[n - 1]) {
    case 'H': unit = 3600000000000ull; break;
    case 'M': unit = 60000000000ull; break;
    case 'S': unit = 1000000000ull; break;
    case 'm': unit = 1000000ull; break;
    case 'u': unit = 1000ull; break;
    case 'n': unit = 1ull; break;
    default: return false;
    }
    *ns = v > (uint64_t)INT64_MAX / unit ? INT64_MAX : (int64_t)(v * unit);
    return true;
}

size_t cz_h2_percent_encode(char *out, size_t cap, const char *in)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    if (cap == 0)
        return 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        bool plain = *p >= 0x20 && *p <= 0x7E && *p != '%';
        if (n + (plain ? 1 : 3) >= cap)
            break;
        if (plain) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    out[n] = 0;
    return n;
}

static void too_big(uint64_t size, uint32_t max, char *msg, size_t msglen)
{
    cz_msgf(msg, msglen, "the request is %llu bytes; the limit is %u bytes (%u MiB)",
            (unsigned long long)size, max, max >> 20);
}

int cz_h2_prefix_check(const uint8_t p[CZ_H2_PREFIX], uint32_t max, uint32_t *len, char *msg,
                       size_t msglen)
{
    uint32_t n = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
    if (p[0] == 1) {
        cz_msgf(msg, msglen, "compressed messages are not accepted");
        return CZ_RPC_INVALID_ARGUMENT;
    }
    if (p[0] != 0) {
        cz_msgf(msg, msglen, "a message's flag byte is 0 or 1, not %u", p[0]);
        return CZ_RPC_INVALID_ARGUMENT;
    }
    if (n > max) {
        too_big(n, max, msg, msglen);
        return CZ_RPC_RESOURCE_EXHAUSTED;
    }
    *len = n;
    return CZ_RPC_OK;
}

int cz_h2_length_check(uint64_t content_length, uint32_t max, char *msg, size_t msglen)
{
    if (content_length <= (uint64_t)max + CZ_H2_PREFIX)
        return CZ_RPC_OK;
    too_big(content_length - CZ_H2_PREFIX, max, msg, msglen);
    return CZ_RPC_RESOURCE_EXHAUSTED;
}

static const char *code_name(int code)
{
    static const char *const n[] = {"OK",
                                    "CANCELLED",
                                    "UNKNOWN",
                                    "INVALID_ARGUMENT",
                                    "DEADLINE_EXCEEDED",
                                    "NOT_FOUND",
                                    "ALREADY_EXISTS",
                                    "PERMISSION_DENIED",
                                    "RESOURCE_EXHAUSTED",
                                    "FAILED_PRECONDITION",
                                    "ABORTED",
                                    "OUT_OF_RANGE",
                                    "UNIMPLEMENTED",
                                    "INTERNAL",
                                    "UNAVAILABLE"};
    return code >= 0 && code < (int)(sizeof n / sizeof n[0]) ? n[code] : "?";
}

static void log_answer(const char *name, int code, const char *details)
{
    cz_log(CZ_LOG_DEBUG, "rpc %s: %s%s%s", name, code_name(code), details[0] ? ": " : "",
           details);
}

/* --------------------------------------------------------- sending --- */

/* Moves st to state rs, keeping its connection's count of bulk uploads. */
static void set_rs(h2_stream *st, recv_state rs)
{
    if (st->bulk) {
        st->bulk = false;
        st->cn->bulk--;
    }
    if (rs == R_BODY && st->len > BULK_MESSAGE) {
        st->bulk = true;
        st->cn->bulk++;
    }
    st->rs = rs;
}

static void mark_dirty(conn *cn)
{
    if (cn->dirty || cn->dead)
        return;
    cn->dirty = true;
    cn->dnext = cn->t->dirty;
    cn->t->dirty = cn;
}

/* grpc-message's value: malloc'd, NULL for none (empty, or out of memory). */
static char *encode_details(const char *details)
{
    if (details == NULL || details[0] == 0)
        return NULL;
    size_t cap = 3 * strlen(details) + 1;
    char *enc = malloc(cap);
    if (enc != NULL)
        cz_h2_percent_encode(enc, cap, details);
    return enc;
}

#define NV(k, v, n) {(uint8_t *)(k), (uint8_t *)(v), sizeof(k) - 1, (n), NGHTTP2_NV_FLAG_NONE}

/* The status trailers of st (into nv[2] with cs[12]): their count. */
static size_t status_nv(nghttp2_nv *nv, char *cs, int code, const char *details)
{
    int n = snprintf(cs, 12, "%d", code);
    nv[0] = (nghttp2_nv)NV("grpc-status", cs, (size_t)n);
    if (details == NULL)
        return 1;
    nv[1] = (nghttp2_nv)NV("grpc-message", details, strlen(details));
    return 2;
}

static ssize_t read_out(nghttp2_session *ss, int32_t id, uint8_t *buf, size_t length,
                        uint32_t *flags, nghttp2_data_source *src, void *user)
{
    h2_stream *st = src->ptr;
    size_t n = st->out_len - st->out_off;
    if (n > length)
        n = length;
    memcpy(buf, st->out + st->out_off, n);
    st->out_off += n;
    if (st->out_off == st->out_len) {
        *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
        nghttp2_nv tr[2];
        char cs[12];
        if (nghttp2_submit_trailer(ss, id, tr, status_nv(tr, cs, st->code, st->details)) != 0)
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets the stream */
    }
    return (ssize_t)n;
}

/* Submits st's answer: HEADERS, DATA (prefix + message) and trailers, or
 * trailers only when there is no message.  out (owned) has the prefix's
 * room before its out_len bytes. */
static void submit(h2_stream *st, int code, const char *details, uint8_t *out, size_t out_len)
{
    conn *cn = st->cn;
    set_rs(st, R_IGNORE);
    char *enc = encode_details(details);
    nghttp2_nv nv[5] = {NV(":status", "200", 3), NV("content-type", "application/grpc", 16),
                        NV("grpc-accept-encoding", "identity", 8)};
    char cs[12];
    int rv;
    if (code == CZ_RPC_OK && out != NULL) {
        out[0] = 0;
        out[1] = (uint8_t)(out_len >> 24);
        out[2] = (uint8_t)(out_len >> 16);
        out[3] = (uint8_t)(out_len >> 8);
        out[4] = (uint8_t)out_len;
        st->out = out;
        st->out_len = out_len + CZ_H2_PREFIX;
        st->code = code;
        st->details = enc;
        nghttp2_data_provider prd = {.source.ptr = st, .read_callback = read_out};
        rv = nghttp2_submit_response(cn->ss, st->id, nv, 3, &prd);
    } else {
        free(out);
        rv = nghttp2_submit_response(cn->ss, st->id, nv, 3 + status_nv(nv + 3, cs, code, enc),
                                     NULL);
        free(enc);
    }
    if (rv != 0)
        cz_log(CZ_LOG_WARN, "rpc: cannot answer stream %d: %s", st->id, nghttp2_strerror(rv));
    mark_dirty(cn);
}

/* A stream refused before it has a call: answered at once, never read. */
static void refuse(h2_stream *st, int code, const char *msg)
{
    char name[80];
    snprintf(name, sizeof name, "%.*s", (int)(st->path_len < 60 ? st->path_len : 60), st->path);
    log_answer(name[0] ? name : "?", code, msg);
    submit(st, code, msg, NULL, 0);
}

/* Sends what the socket takes: buffered frames first, then frames from
 * nghttp2 gathered up to WRITE_FILL bytes a send.  Returns false when the
 * connection failed. */
static bool flush(conn *cn)
{
    for (;;) {
        while (cn->ooff < cn->olen) {
            ssize_t n = send(cn->fd, cn->obuf + cn->ooff, cn->olen - cn->ooff, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    cn->blocked = true;
                    return true;
                }
                return false;
            }
            cn->ooff += (size_t)n;
        }
        cn->blocked = false;
        cn->olen = cn->ooff = 0;
        if (cn->lingering)
            return true;
        while (cn->olen < WRITE_FILL) {
            const uint8_t *d;
            ssize_t n = nghttp2_session_mem_send(cn->ss, &d);
            if (n < 0)
                return false;
            if (n == 0)
                break;
            if (cn->olen + (size_t)n > cn->ocap) {
                size_t cap = cn->olen + (size_t)n + WRITE_FILL;
                uint8_t *b = realloc(cn->obuf, cap);
                if (b == NULL)
                    return false;
                cn->obuf = b;
                cn->ocap = cap;
            }
            memcpy(cn->obuf + cn->olen, d, (size_t)n);
            cn->olen += (size_t)n;
        }
        if (cn->olen == 0)
            return true;
    }
}

/* --------------------------------------------------------- streams --- */

static h2_stream *stream_of(conn *cn, int32_t id)
{
    return nghttp2_session_get_stream_user_data(cn->ss, id);
}

/* The stream is over: its call (if any) is told and released. */
static void stream_free(h2_stream *st)
{
    conn *cn = st->cn;
    set_rs(st, R_IGNORE);
    CZ_DLIST_UNLINK(cn->streams, st, prev, next);
    cz_h2_call *c = st->c;
    if (c != NULL) {
        c->st = NULL;
        cn->t->h.close(c, !st->end_sent || st->expired);
        cn->t->h.unref(c);
    }
    free(st->out);
    free(st->details);
    free(st);
}

/* The request head is complete: refused, or a call. */
static void stream_open(conn *cn, h2_stream *st)
{
    cz_h2 *t = cn->t;
    char msg[200];
    int code = CZ_RPC_OK;
    if (st->head_too_big) {
        code = CZ_RPC_RESOURCE_EXHAUSTED;
        cz_msgf(msg, sizeof msg, "the request's headers are over %u bytes", MAX_HEADER_LIST);
    } else if (!st->post) {
        code = CZ_RPC_UNIMPLEMENTED;
        cz_msgf(msg, sizeof msg, "gRPC calls are POST requests");
    } else if (!st->grpc_type) {
        code = CZ_RPC_INVALID_ARGUMENT;
        cz_msgf(msg, sizeof msg, "the content-type is not application/grpc");
    } else if (st->has_length) {
        code = cz_h2_length_check(st->content_length, CZ_RPC_MAX_MESSAGE, msg, sizeof msg);
    }
    if (code == CZ_RPC_OK && st->path_len >= MAX_PATH) {
        code = CZ_RPC_UNIMPLEMENTED;
        cz_msgf(msg, sizeof msg, "unknown method %.60s... (%zu bytes)", st->path, st->path_len);
    }
    if (code == CZ_RPC_OK) {
        cz_h2_call *c = t->h.open(t->h.arg, st->path, &code, msg, sizeof msg);
        if (c != NULL) {
            st->c = c;
            c->st = st;
            if (st->deadline_ms && st->deadline_ms < t->next_timer_ms)
                t->next_timer_ms = st->deadline_ms;
            return;
        }
    }
    refuse(st, code, msg);
}

/* The message's bytes as they come. */
static void stream_data(conn *cn, h2_stream *st, const uint8_t *p, size_t n)
{
    cz_h2 *t = cn->t;
    cz_h2_call *c = st->c;
    char msg[200];
    int code;
    while (n > 0 && st->rs != R_IGNORE) {
        if (st->rs == R_FULL) {
            set_rs(st, R_IGNORE);
            cz_h2_answer(t, c, CZ_RPC_INVALID_ARGUMENT,
                         "a unary call takes one request message, this one sent more", NULL, 0);
            return;
        }
        if (st->rs == R_PREFIX) {
            size_t k = CZ_H2_PREFIX - st->prefix_got;
            if (k > n)
                k = n;
            memcpy(st->prefix + st->prefix_got, p, k);
            st->prefix_got += (unsigned)k;
            p += k, n -= k;
            if (st->prefix_got < CZ_H2_PREFIX)
                return;
            uint32_t len;
            code = cz_h2_prefix_check(st->prefix, CZ_RPC_MAX_MESSAGE, &len, msg, sizeof msg);
            if (code == CZ_RPC_OK)
                st->buf = t->h.message(c, len, &code, msg, sizeof msg);
            if (code == CZ_RPC_OK && st->buf == NULL) {
                code = CZ_RPC_INTERNAL;
                cz_msgf(msg, sizeof msg, "no buffer for a %u-byte message", len);
            }
            if (code != CZ_RPC_OK) {
                set_rs(st, R_IGNORE);
                cz_h2_answer(t, c, code, msg, NULL, 0);
                return;
            }
            st->len = len;
            st->got = 0;
            set_rs(st, len ? R_BODY : R_FULL);
            continue;
        }
        size_t k = st->len - st->got;
        if (k > n)
            k = n;
        memcpy(st->buf + st->got, p, k);
        st->got += k;
        p += k, n -= k;
        if (st->got == st->len)
            set_rs(st, R_FULL);
    }
}

/* The client half-closed: the request goes to the server, or is refused
 * as cut short. */
static void stream_end(conn *cn, h2_stream *st)
{
    cz_h2 *t = cn->t;
    if (st->c == NULL || st->rs == R_IGNORE)
        return;
    if (st->rs == R_FULL || (st->rs == R_PREFIX && st->prefix_got == 0)) {
        set_rs(st, R_IGNORE);
        st->buf = NULL;
        t->h.request(st->c);
        return;
    }
    char msg[160];
    if (st->rs == R_PREFIX)
        cz_msgf(msg, sizeof msg, "the request message is cut short: %u of its 5 prefix bytes",
                st->prefix_got);
    else
        cz_msgf(msg, sizeof msg, "the request message is cut short: %zu of %zu bytes", st->got,
                st->len);
    set_rs(st, R_IGNORE);
    cz_h2_answer(t, st->c, CZ_RPC_INVALID_ARGUMENT, msg, NULL, 0);
}

/* ------------------------------------------------ nghttp2 callbacks --- */

static int on_begin_headers(nghttp2_session *ss, const nghttp2_frame *f, void *user)
{
    conn *cn = user;
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0;
    h2_stream *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    st->cn = cn;
    st->id = f->hd.stream_id;
    st->next = cn->streams;
    if (cn->streams)
        cn->streams->prev = st;
    cn->streams = st;
    nghttp2_session_set_stream_user_data(ss, st->id, st);
    return 0;
}

static bool is(const uint8_t *s, size_t n, const char *lit)
{
    return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int on_header(nghttp2_session *ss, const nghttp2_frame *f, const uint8_t *name,
                     size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags,
                     void *user)
{
    conn *cn = user;
    h2_stream *st = stream_of(cn, f->hd.stream_id);
    if (st == NULL || st->head_too_big)
        return 0;
    st->head_bytes += namelen + valuelen + 32; /* RFC 7541's entry size */
    if (st->head_bytes > MAX_HEADER_LIST) {
        st->head_too_big = true;
        return 0;
    }
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0; /* the client's trailers: counted, not used */
    if (is(name, namelen, ":method")) {
        st->post = is(value, valuelen, "POST");
    } else if (is(name, namelen, ":path")) {
        st->path_len = valuelen;
        if (valuelen < MAX_PATH) {
            memcpy(st->path, value, valuelen);
            st->path[valuelen] = 0;
        }
    } else if (is(name, namelen, "content-type")) {
        static const char ct[] = "application/grpc";
        size_t k = sizeof ct - 1;
        st->grpc_type = valuelen >= k && memcmp(value, ct, k) == 0 &&
                        (valuelen == k || value[k] == '+' || value[k] == ';');
    } else if (is(name, namelen, "grpc-timeout")) {
        int64_t ns; /* a malformed value is ignored, as gRPC core does */
        if (cz_h2_timeout_parse((const char *)value, valuelen, &ns)) {
            int64_t now = now_ms(), ms = ns / 1000000 + (ns % 1000000 != 0);
            st->deadline_ms = ms > INT64_MAX - now ? 0 : now + (ms ? ms : 1);
        }
    } else if (is(name, namelen, "content-length")) {
        uint64_t v = 0; /* nghttp2 has checked it is a number; saturated */
        for (size_t i = 0; i < valuelen; i++)
            v = v > UINT64_MAX / 10 - 9 ? UINT64_MAX : v * 10 + (uint64_t)(value[i] - '0');
        st->has_length = true;
        st->content_length = v;
    }
    return 0;
}

static int on_frame_recv(nghttp2_session *ss, const nghttp2_frame *f, void *user)
{
    conn *cn = user;
    h2_stream *st;
    switch (f->hd.type) {
    case NGHTTP2_SETTINGS:
        if (!(f->hd.flags & NGHTTP2_FLAG_ACK))
            cn->settings_seen = true;
        return 0;
    case NGHTTP2_PING:
        if (f->hd.flags & NGHTTP2_FLAG_ACK)
            cn->ping_out = false;
        return 0;
    case NGHTTP2_HEADERS:
    case NGHTTP2_DATA:
        if ((st = stream_of(cn, f->hd.stream_id)) == NULL)
            return 0;
        if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST)
            stream_open(cn, st);
        if (f->hd.flags & NGHTTP2_FLAG_END_STREAM)
            stream_end(cn, st);
        return 0;
    default:
        return 0;
    }
}

static int on_data_chunk(nghttp2_session *ss, uint8_t flags, int32_t id, const uint8_t *data,
                         size_t len, void *user)
{
    conn *cn = user;
    h2_stream *st = stream_of(cn, id);
    if (st != NULL && st->c != NULL)
        stream_data(cn, st, data, len);
    return 0;
}

/* Our END_STREAM is out: the answer is complete.  A client still sending
 * is told to stop with RST_STREAM(NO_ERROR) (RFC 9113 8.1). */
static int on_frame_send(nghttp2_session *ss, const nghttp2_frame *f, void *user)
{
    conn *cn = user;
    if (f->hd.type != NGHTTP2_HEADERS || !(f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    h2_stream *st = stream_of(cn, f->hd.stream_id);
    if (st != NULL)
        st->end_sent = true;
    if (nghttp2_session_get_stream_remote_close(ss, f->hd.stream_id) == 0)
        nghttp2_submit_rst_stream(ss, NGHTTP2_FLAG_NONE, f->hd.stream_id, NGHTTP2_NO_ERROR);
    return 0;
}

static int on_stream_close(nghttp2_session *ss, int32_t id, uint32_t error_code, void *user)
{
    conn *cn = user;
    h2_stream *st = stream_of(cn, id);
    if (st != NULL) {
        nghttp2_session_set_stream_user_data(ss, id, NULL);
        stream_free(st);
    }
    return 0;
}

/* ----------------------------------------------------- connections --- */

static void set_events(conn *cn, uint32_t ev)
{
    if (cn->events == ev)
        return;
    struct epoll_event e = {.events = ev, .data.ptr = cn};
    epoll_ctl(cn->t->ep, EPOLL_CTL_MOD, cn->fd, &e);
    cn->events = ev;
}

/* Closes cn at once: its open streams close gone. */
static void conn_close(conn *cn)
{
    cz_h2 *t = cn->t;
    if (cn->dead)
        return;
    cn->dead = true;
    while (cn->streams) {
        nghttp2_session_set_stream_user_data(cn->ss, cn->streams->id, NULL);
        stream_free(cn->streams);
    }
    nghttp2_session_del(cn->ss);
    cn->ss = NULL;
    epoll_ctl(t->ep, EPOLL_CTL_DEL, cn->fd, NULL);
    close(cn->fd);
    CZ_DLIST_UNLINK(t->conns, cn, prev, next);
    t->n_conns--;
    if (!cn->dirty) { /* else the dirty list frees it */
        cn->dnext = t->grave;
        t->grave = cn;
    }
}

/* Ends cn gracefully: what is buffered goes out, then FIN; the client's
 * EOF (or LINGER_MS) closes it, so our last frames are not lost to a
 * reset caused by bytes left unread. */
static void conn_linger(conn *cn)
{
    if (cn->lingering || cn->dead)
        return;
    while (cn->streams) {
        nghttp2_session_set_stream_user_data(cn->ss, cn->streams->id, NULL);
        stream_free(cn->streams);
    }
    if (!flush(cn) || cn->blocked) {
        conn_close(cn);
        return;
    }
    shutdown(cn->fd, SHUT_WR);
    cn->lingering = true;
    cn->since_ms = now_ms();
    if (cn->t->next_timer_ms > cn->since_ms + LINGER_MS)
        cn->t->next_timer_ms = cn->since_ms + LINGER_MS;
    set_events(cn, EPOLLIN);
}

static void conn_new(cz_h2 *t, int fd, bool tcp)
{
    conn *cn = calloc(1, sizeof *cn);
    if (cn == NULL || nghttp2_session_server_new(&cn->ss, t->cbs, cn) != 0) {
        cz_log(CZ_LOG_ERROR, "rpc: out of memory for a connection");
        free(cn);
        close(fd);
        return;
    }
    cn->t = t;
    cn->fd = fd;
    cn->since_ms = now_ms();
    if (tcp) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    nghttp2_settings_entry set[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, CZ_RPC_MAX_STREAMS},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, STREAM_WINDOW},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST}};
    struct epoll_event e = {.events = EPOLLIN, .data.ptr = cn};
    if (nghttp2_submit_settings(cn->ss, NGHTTP2_FLAG_NONE, set, 3) != 0 ||
        nghttp2_session_set_local_window_size(cn->ss, NGHTTP2_FLAG_NONE, 0, CONN_WINDOW) != 0 ||
        epoll_ctl(t->ep, EPOLL_CTL_ADD, fd, &e) != 0) {
        cz_log(CZ_LOG_ERROR, "rpc: cannot set up a connection");
        nghttp2_session_del(cn->ss);
        free(cn);
        close(fd);
        return;
    }
    cn->events = EPOLLIN;
    cn->next = t->conns;
    if (t->conns)
        t->conns->prev = cn;
    t->conns = cn;
    t->n_conns++;
    if (t->next_timer_ms > cn->since_ms + HANDSHAKE_MS)
        t->next_timer_ms = cn->since_ms + HANDSHAKE_MS;
    mark_dirty(cn);
}

/* Reads at most READ_TURN bytes of cn and hands them to nghttp2. */
static void conn_read(conn *cn)
{
    cz_h2 *t = cn->t;
    ssize_t n;
    do
        n = recv(cn->fd, t->rbuf, READ_TURN, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) { /* the client is gone (or closed after our FIN) */
        conn_close(cn);
        return;
    }
    if (cn->lingering)
        return;
    ssize_t rv = nghttp2_session_mem_recv(cn->ss, t->rbuf, (size_t)n);
    if (rv < 0) {
        cz_log(rv == NGHTTP2_ERR_FLOODED ? CZ_LOG_WARN : CZ_LOG_DEBUG,
               "rpc: a connection closed: %s", nghttp2_strerror((int)rv));
        flush(cn); /* nghttp2's GOAWAY, if the socket takes it */
        conn_close(cn);
        return;
    }
    mark_dirty(cn);
}

static void accept_all(cz_h2 *t, listener *l)
{
    for (int i = 0; i < ACCEPT_BATCH; i++) {
        int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                cz_log(CZ_LOG_WARN, "rpc: cannot accept a connection: %s", strerror(errno));
                t->accept_resume_ms = now_ms() + ACCEPT_PAUSE_MS;
                for (size_t k = 0; k < t->n_ls; k++) {
                    struct epoll_event e = {.events = 0, .data.ptr = &t->ls[k]};
                    epoll_ctl(t->ep, EPOLL_CTL_MOD, t->ls[k].fd, &e);
                }
                if (t->next_timer_ms > t->accept_resume_ms)
                    t->next_timer_ms = t->accept_resume_ms;
            }
            return;
        }
        if (t->n_conns >= MAX_CONNS) {
            close(fd);
            int64_t now = now_ms();
            if (now - t->full_logged_ms >= 1000) {
                cz_log(CZ_LOG_WARN, "rpc: %u connections are open, the limit: new ones closed",
                       MAX_CONNS);
                t->full_logged_ms = now;
            }
            continue;
        }
        conn_new(t, fd, t->ports[l->addr] != 0);
    }
}

/* --------------------------------------------------------- the loop --- */

static void drain(cz_h2 *t)
{
    t->draining = true;
    for (size_t i = 0; i < t->n_ls; i++)
        close(t->ls[i].fd);
    t->n_ls = 0;
    for (conn *cn = t->conns; cn; cn = cn->next) {
        if (cn->lingering)
            continue;
        nghttp2_submit_goaway(cn->ss, NGHTTP2_FLAG_NONE,
                              nghttp2_session_get_last_proc_stream_id(cn->ss), NGHTTP2_NO_ERROR,
                              NULL, 0);
        mark_dirty(cn);
    }
}

/* Answers and commands from other threads. */
static void take_queue(cz_h2 *t)
{
    uint64_t v;
    if (read(t->efd, &v, sizeof v) < 0 && errno != EAGAIN)
        cz_log(CZ_LOG_WARN, "rpc: eventfd: %s", strerror(errno));
    pthread_mutex_lock(&t->qmu);
    cz_h2_call *c = t->qhead;
    t->qhead = t->qtail = NULL;
    unsigned cmd = t->cmd & ~t->cmd_done;
    pthread_mutex_unlock(&t->qmu);
    while (c != NULL) {
        cz_h2_call *next = c->next;
        uint8_t *out = c->out;
        char *details = c->details;
        c->out = NULL;
        c->details = NULL;
        if (c->st != NULL)
            submit(c->st, c->code, details, out, c->out_len);
        else
            free(out);
        free(details);
        t->h.unref(c);
        c = next;
    }
    if ((cmd & (CMD_DRAIN | CMD_QUIT)) && !t->draining)
        drain(t);
    if (cmd & CMD_CLOSE_ALL)
        while (t->conns)
            conn_close(t->conns);
    if (cmd & CMD_QUIT) {
        t->quitting = true;
        for (conn *cn = t->conns, *next; cn; cn = next) {
            next = cn->next;
            conn_linger(cn);
        }
    }
    if (cmd) {
        pthread_mutex_lock(&t->qmu);
        t->cmd_done |= cmd;
        pthread_cond_broadcast(&t->qcv);
        pthread_mutex_unlock(&t->qmu);
    }
}

/* Is a timer at `at` due?  If not, *next is lowered to it. */
static bool due(int64_t at, int64_t now, int64_t *next)
{
    if (at <= now)
        return true;
    if (at < *next)
        *next = at;
    return false;
}

/* Deadlines, handshakes, keepalive, lingering closes, the accept pause. */
static void timers(cz_h2 *t, int64_t now)
{
    int64_t next = now + TIMER_MAX_MS;
#define DUE(at) due(at, now, &next)
    if (t->accept_resume_ms && DUE(t->accept_resume_ms)) {
        t->accept_resume_ms = 0;
        for (size_t k = 0; k < t->n_ls; k++) {
            struct epoll_event e = {.events = EPOLLIN, .data.ptr = &t->ls[k]};
            epoll_ctl(t->ep, EPOLL_CTL_MOD, t->ls[k].fd, &e);
        }
    }
    for (conn *cn = t->conns, *cnext; cn; cn = cnext) {
        cnext = cn->next;
        if (cn->lingering) {
            if (DUE(cn->since_ms + LINGER_MS))
                conn_close(cn);
            continue;
        }
        if (!cn->settings_seen) {
            if (DUE(cn->since_ms + HANDSHAKE_MS)) {
                cz_log(CZ_LOG_DEBUG, "rpc: no HTTP/2 preface in %d s: connection closed",
                       HANDSHAKE_MS / 1000);
                conn_close(cn);
            }
            continue;
        }
        if (cn->ping_out) {
            if (DUE(cn->ping_ms + PING_ACK_MS)) {
                cz_log(CZ_LOG_INFO, "rpc: no PING ACK in %d s: connection closed",
                       PING_ACK_MS / 1000);
                conn_close(cn);
                continue;
            }
        } else if (DUE((cn->ping_ms ? cn->ping_ms : cn->since_ms) + PING_EVERY_MS)) {
            nghttp2_submit_ping(cn->ss, NGHTTP2_FLAG_NONE, NULL);
            cn->ping_out = true;
            cn->ping_ms = now;
            DUE(now + PING_ACK_MS);
            mark_dirty(cn);
        }
        for (h2_stream *st = cn->streams; st; st = st->next) {
            if (st->deadline_ms == 0 || st->expired || !DUE(st->deadline_ms))
                continue;
            st->expired = true;
            if (st->c == NULL)
                continue;
            set_rs(st, R_IGNORE);
            if (!cz_h2_answer(t, st->c, CZ_RPC_DEADLINE_EXCEEDED, "Deadline Exceeded", NULL, 0) &&
                !st->end_sent) {
                nghttp2_submit_rst_stream(cn->ss, NGHTTP2_FLAG_NONE, st->id, NGHTTP2_CANCEL);
                mark_dirty(cn);
            }
        }
    }
#undef DUE
    t->next_timer_ms = next;
}

/* Flushes the dirty connections; a connection nghttp2 is done with
 * (GOAWAY both ways, no streams) lingers out. */
static void flush_dirty(cz_h2 *t)
{
    while (t->dirty) {
        conn *cn = t->dirty;
        t->dirty = cn->dnext;
        cn->dirty = false;
        if (cn->dead) {
            cn->dnext = t->grave;
            t->grave = cn;
            continue;
        }
        if (!flush(cn)) {
            conn_close(cn);
            continue;
        }
        if (cn->lingering)
            continue;
        if (!nghttp2_session_want_read(cn->ss) && !nghttp2_session_want_write(cn->ss) &&
            cn->olen == cn->ooff) {
            conn_linger(cn);
            continue;
        }
        set_events(cn, cn->blocked ? EPOLLOUT : EPOLLIN);
    }
}

static bool is_listener(const cz_h2 *t, const void *p)
{
    return p >= (const void *)t->ls && p < (const void *)(t->ls + MAX_ADDRS * CZ_LISTEN_SOCKS);
}

/* Are answers or commands waiting? */
static bool queued(cz_h2 *t)
{
    pthread_mutex_lock(&t->qmu);
    bool any = t->qhead != NULL || (t->cmd & ~t->cmd_done);
    pthread_mutex_unlock(&t->qmu);
    return any;
}

/* A turn's events: the queue, listeners and connections without bulk
 * uploads first; then the bulk ones (as they were at the turn's start),
 * each read followed by the answers queued meanwhile, so that an answer
 * waits for at most one bulk read. */
static void events(cz_h2 *t, const struct epoll_event *ev, int n)
{
    bool bulk[EVENTS];
    for (int i = 0; i < n; i++) {
        const conn *cn = ev[i].data.ptr;
        bulk[i] = cn != NULL && !is_listener(t, cn) && cn->bulk > 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            void *p = ev[i].data.ptr;
            if (bulk[i] != (pass == 1))
                continue;
            if (p == NULL) {
                take_queue(t);
                continue;
            }
            if (is_listener(t, p)) {
                if (!t->draining)
                    accept_all(t, p);
                continue;
            }
            conn *cn = p;
            if (cn->dead)
                continue;
            if (ev[i].events & EPOLLOUT) {
                mark_dirty(cn);
                continue;
            }
            if (ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                conn_read(cn);
            if (pass == 1 && queued(t)) {
                take_queue(t);
                flush_dirty(t);
            }
        }
        flush_dirty(t);
    }
}

static void *loop(void *arg)
{
    cz_h2 *t = arg;
    struct epoll_event ev[EVENTS];
    t->next_timer_ms = now_ms() + TIMER_MAX_MS;
    while (!t->quitting || t->conns != NULL) {
        int64_t wait = t->next_timer_ms - now_ms();
        int n = epoll_wait(t->ep, ev, EVENTS, wait < 0 ? 0 : wait > TIMER_MAX_MS ? TIMER_MAX_MS
                                                                                  : (int)wait);
        events(t, ev, n > 0 ? n : 0);
        int64_t now = now_ms();
        if (now >= t->next_timer_ms)
            timers(t, now);
        flush_dirty(t);
        while (t->grave) {
            conn *cn = t->grave;
            t->grave = cn->dnext;
            free(cn->obuf);
            free(cn);
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ start --- */

/* Listens on addrs[i] (daemon/listen.h), the loop's epoll watching. */
static int add_listeners(cz_h2 *t, size_t i, const char *addr, char *err, size_t errlen)
{
    cz_listener l;
    int rc = cz_listen_open(&l, addr, err, errlen);
    if (rc != CZ_OK)
        return rc;
    t->n_addrs = i + 1;
    t->ports[i] = l.port;
    if (l.unix_path[0])
        snprintf(t->unix_paths[t->n_unix++], sizeof t->unix_paths[0], "%s", l.unix_path);
    for (size_t k = 0; k < l.n; k++) {
        listener *ls = &t->ls[t->n_ls++];
        ls->fd = l.fds[k];
        ls->addr = i;
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = ls};
        if (epoll_ctl(t->ep, EPOLL_CTL_ADD, ls->fd, &e) != 0 && rc == CZ_OK) {
            cz_msgf(err, errlen, "cannot listen on %s: epoll: %s", addr, strerror(errno));
            rc = CZ_ERR_IO;
        }
    }
    return rc;
}

static void destroy(cz_h2 *t)
{
    for (size_t i = 0; i < t->n_ls; i++)
        close(t->ls[i].fd);
    for (size_t i = 0; i < t->n_unix; i++)
        unlink(t->unix_paths[i]);
    if (t->ep >= 0)
        close(t->ep);
    if (t->efd >= 0)
        close(t->efd);
    nghttp2_session_callbacks_del(t->cbs);
    pthread_mutex_destroy(&t->qmu);
    pthread_cond_destroy(&t->qcv);
    free(t->rbuf);
    free(t);
}

int cz_h2_start(cz_h2 **out, const char *const *addrs, size_t n_addrs, const cz_h2_handlers *h,
                char *err, size_t errlen)
{
    *out = NULL;
    if (n_addrs == 0 || n_addrs > MAX_ADDRS) {
        cz_msgf(err, errlen, "rpc: 1 to %d listen addresses are needed", MAX_ADDRS);
        return CZ_ERR_INVALID_ARG;
    }
    cz_h2 *t = calloc(1, sizeof *t);
    if (t == NULL)
        return CZ_ERR_NOMEM;
    t->h = *h;
    t->ep = epoll_create1(EPOLL_CLOEXEC);
    t->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    pthread_mutex_init(&t->qmu, NULL);
    pthread_cond_init(&t->qcv, NULL);
    t->rbuf = malloc(READ_TURN);
    struct epoll_event e = {.events = EPOLLIN, .data.ptr = NULL};
    if (t->ep < 0 || t->efd < 0 || t->rbuf == NULL || nghttp2_session_callbacks_new(&t->cbs) ||
        epoll_ctl(t->ep, EPOLL_CTL_ADD, t->efd, &e) != 0) {
        cz_msgf(err, errlen, "rpc: cannot set up the event loop: %s", strerror(errno));
        destroy(t);
        return CZ_ERR_NOMEM;
    }
    nghttp2_session_callbacks_set_on_begin_headers_callback(t->cbs, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(t->cbs, on_header);
    nghttp2_session_callbacks_set_on_frame_recv_callback(t->cbs, on_frame_recv);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(t->cbs, on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_send_callback(t->cbs, on_frame_send);
    nghttp2_session_callbacks_set_on_stream_close_callback(t->cbs, on_stream_close);
    int rc = CZ_OK;
    for (size_t i = 0; i < n_addrs && rc == CZ_OK; i++)
        rc = add_listeners(t, i, addrs[i], err, errlen);
    *out = t; /* before the loop starts: the handlers it calls may read it */
    if (rc == CZ_OK && pthread_create(&t->thread, NULL, loop, t) != 0) {
        cz_msgf(err, errlen, "rpc: cannot start the event loop thread");
        rc = CZ_ERR_THREAD;
    }
    if (rc != CZ_OK) {
        *out = NULL;
        destroy(t);
    }
    return rc;
}

int cz_h2_port(const cz_h2 *t, size_t i) { return i < t->n_addrs ? t->ports[i] : 0; }

bool cz_h2_answer(cz_h2 *t, cz_h2_call *c, int code, const char *details, uint8_t *out,
                  size_t out_len)
{
    if (atomic_exchange(&c->answered, true)) {
        free(out);
        return false;
    }
    if (details == NULL)
        details = "";
    log_answer(c->name ? c->name : "?", code, details);
    c->code = code;
    c->details = strdup(details); /* NULL: answered without details */
    c->out = out;
    c->out_len = out_len;
    t->h.ref(c);
    pthread_mutex_lock(&t->qmu);
    bool wake = t->qhead == NULL;
    CZ_QUEUE_APPEND(t->qhead, t->qtail, c, next);
    pthread_mutex_unlock(&t->qmu);
    if (wake) {
        uint64_t one = 1;
        if (write(t->efd, &one, sizeof one) < 0)
            cz_log(CZ_LOG_WARN, "rpc: eventfd: %s", strerror(errno));
    }
    return true;
}

static void command(cz_h2 *t, unsigned cmd)
{
    pthread_mutex_lock(&t->qmu);
    t->cmd |= cmd;
    uint64_t one = 1;
    if (write(t->efd, &one, sizeof one) < 0)
        cz_log(CZ_LOG_WARN, "rpc: eventfd: %s", strerror(errno));
    while (!(t->cmd_done & cmd))
        pthread_cond_wait(&t->qcv, &t->qmu);
    pthread_mutex_unlock(&t->qmu);
}

void cz_h2_drain(cz_h2 *t) { command(t, CMD_DRAIN); }

void cz_h2_close_all(cz_h2 *t) { command(t, CMD_CLOSE_ALL); }

void cz_h2_free(cz_h2 *t)
{
    if (t == NULL)
        return;
    command(t, CMD_QUIT);
    pthread_join(t->thread, NULL);
    destroy(t);
}
