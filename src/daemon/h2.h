/* cuzk-daemon's gRPC transport, server side: unary gRPC calls over HTTP/2
 * (nghttp2), on TCP and unix sockets.  Below rpc_server.c, which gives it
 * calls (open, message, request, close) through cz_h2_handlers and answers
 * them with cz_h2_answer from any thread.
 *
 * A request message is taken in as it arrives: its 5-byte gRPC prefix is
 * judged first (cz_h2_prefix_check: flag, size against CZ_RPC_MAX_MESSAGE),
 * then the server gives ONE buffer of exactly its size (handlers.message)
 * and the bytes go from the socket's read buffer straight into it; a
 * message that is refused is never buffered (trailers-only answer, then
 * RST_STREAM(NO_ERROR) so the client stops sending).
 *
 * Bounds (h2.c's defines): connections, header lists, bytes read from one
 * connection per loop turn, the handshake's time, keepalive pings; streams
 * per connection CZ_RPC_MAX_STREAMS (SETTINGS_MAX_CONCURRENT_STREAMS);
 * nghttp2's own flood limits (queued control frames, SETTINGS, stream
 * resets, CONTINUATION frames) close a connection that passes them. */
#ifndef CZ_DAEMON_H2_H
#define CZ_DAEMON_H2_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cz_h2 cz_h2;
struct h2_stream;

/* The transport's part of a call, embedded in the server's call object.
 * Between handlers.open and handlers.close the transport holds one
 * reference to the call (handlers.unref after close), and one more for each
 * answer queued by cz_h2_answer until the loop has taken it. */
typedef struct cz_h2_call {
    const char *name;     /* for log lines (the method's name); set by open */
    atomic_bool answered; /* the one answer has been given */
    /* the answer, from cz_h2_answer to the loop */
    int code;
    char *details;
    uint8_t *out; /* CZ_H2_PREFIX + out_len bytes, the message after the prefix */
    size_t out_len;
    struct cz_h2_call *next; /* in the answer queue */
    struct h2_stream *st;    /* the loop thread's: NULL once the stream is closed */
} cz_h2_call;

#define CZ_H2_PREFIX 5 /* gRPC's message prefix: flag byte, big-endian length */

/* The server's side of the transport.  Every function is called on the
 * transport's loop thread, never with a lock of the transport held. */
typedef struct {
    void *arg;
    /* A stream's request head is complete (POST, application/grpc, its
     * path).  Returns the call, with the transport's reference, or NULL to
     * refuse the stream with *code and msg (answered trailers-only, its
     * message never read). */
    cz_h2_call *(*open)(void *arg, const char *path, int *code, char *msg, size_t msglen);
    /* The message's prefix says len bytes (uncompressed, at most
     * CZ_RPC_MAX_MESSAGE): a buffer of len bytes that the transport fills
     * (it stays the call's), or NULL with *code and msg to refuse the call. */
    uint8_t *(*message)(cz_h2_call *c, size_t len, int *code, char *msg, size_t msglen);
    /* The request is complete (the client half-closed): with the message
     * filled, or without one (message was never called). */
    void (*request)(cz_h2_call *c);
    /* The stream is over.  gone: it closed before our answer was out (the
     * client reset it or disconnected), or its deadline passed. */
    void (*close)(cz_h2_call *c, bool gone);
    void (*ref)(cz_h2_call *c);
    void (*unref)(cz_h2_call *c);
} cz_h2_handlers;

/* Listens on every address (1 to 8 of them, in daemon/listen.h's forms
 * and with its refusals: "unix:///path", "unix:/path", "host:port") and
 * starts the loop thread.  Returns CZ_OK, or cz_listen_open's codes,
 * CZ_ERR_NOMEM, CZ_ERR_THREAD, with err saying which and why; nothing is
 * left bound then. */
int cz_h2_start(cz_h2 **out, const char *const *addrs, size_t n_addrs, const cz_h2_handlers *h,
                char *err, size_t errlen);

/* The TCP port bound for addrs[i] (for "host:0"), 0 for unix sockets. */
int cz_h2_port(const cz_h2 *t, size_t i);

/* Answers c, from any thread: code and details (copied), and when code is
 * 0 the message out (malloc'd with CZ_H2_PREFIX bytes of room before the
 * message, or NULL for none), which the transport owns from here.  Only the
 * first answer of a call counts; later ones are dropped (false). */
bool cz_h2_answer(cz_h2 *t, cz_h2_call *c, int code, const char *details, uint8_t *out,
                  size_t out_len);

/* Graceful stop, from the thread that started the transport, in order:
 * drain:     the listening sockets are closed (new connections are refused)
 *            and every connection gets GOAWAY (new streams are refused);
 *            calls in flight go on;
 * close_all: every connection is closed; its open streams close gone;
 * free:      (after the server's last call is gone) the loop ends, what is
 *            left is closed and freed, unix socket files removed.
 * drain and close_all return once the loop has done them.  free of NULL is
 * a no-op. */
void cz_h2_drain(cz_h2 *t);
void cz_h2_close_all(cz_h2 *t);
void cz_h2_free(cz_h2 *t);

/* ------------------------------------------------- pure helpers (tested) */

/* The grpc-timeout header's value (1 to 8 digits and a unit H M S m u n):
 * true with *ns (saturated at INT64_MAX), false when malformed. */
bool cz_h2_timeout_parse(const char *s, size_t n, int64_t *ns);

/* grpc-message's percent-encoding (gRPC's PROTOCOL-HTTP2): bytes outside
 * 0x20..0x7E and '%' become %XX (upper-case hex).  Writes at most cap bytes
 * with a NUL (an escape is never cut); returns the length written. */
size_t cz_h2_percent_encode(char *out, size_t cap, const char *in);

/* The decision on a message's 5-byte prefix p: returns 0 with *len its
 * length, or a gRPC status with msg saying why: INVALID_ARGUMENT (a
 * compressed message, flag 1, or a flag other than 0 and 1),
 * RESOURCE_EXHAUSTED (over max bytes, naming the size and the limit). */
int cz_h2_prefix_check(const uint8_t p[CZ_H2_PREFIX], uint32_t max, uint32_t *len, char *msg,
                       size_t msglen);

/* The same decision from a content-length header (the message's prefix
 * included): 0 when it may fit, else RESOURCE_EXHAUSTED with msg. */
int cz_h2_length_check(uint64_t content_length, uint32_t max, char *msg, size_t msglen);

#endif
