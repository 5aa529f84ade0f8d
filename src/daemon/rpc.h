/* The gRPC side of cuzk-daemon: the cuzk.v1.ProvingEngine server on our
 * own HTTP/2 transport (daemon/h2.h, on nghttp2), and a small blocking
 * client on gRPC's core C library for cuzk, cuzk-bench and tests.  Internal to
 * the daemon (not part of libcuzk's public API).
 *
 * Bounds, so that no client can make the server take threads or memory
 * without limit:
 *   - calls are served by fixed pools of threads: CZ_RPC_HANDLERS for
 *     messages up to 64 KiB, CZ_RPC_BULK_HANDLERS for larger ones (their
 *     decodes never hold up a small call), one for PreloadSRS (whose loads
 *     can take minutes, with at most CZ_RPC_SLOW_QUEUE of them waiting);
 *     AwaitProof and Prove hold no thread while they wait (an engine watch
 *     answers them);
 *   - at most CZ_RPC_MAX_CALLS calls at once (the next is answered
 *     RESOURCE_EXHAUSTED at once, its message unread), at most
 *     CZ_RPC_MAX_STREAMS per connection, 1024 connections, 16 KiB of
 *     headers per request; a connection that does not complete its HTTP/2
 *     handshake in 20 s, or leaves a keepalive PING (every 60 s)
 *     unanswered for 20 s, is closed; one connection is read at most
 *     256 KiB per turn of the event loop, so none starves the others;
 *   - messages at most CZ_RPC_MAX_MESSAGE bytes either way, uncompressed:
 *     a larger one is refused RESOURCE_EXHAUSTED from its 5-byte gRPC
 *     prefix (or its content-length), before its body is read;
 *   - a message is received into one buffer allocated when its prefix
 *     arrives: malloc up to 64 KiB, else the engine's request pool, so a
 *     large request is charged to the memory budget before a byte of it is
 *     stored (RESOURCE_EXHAUSTED at once when the pool cannot hold it);
 *   - a request is scanned before it is decoded (daemon/wire.h: at most
 *     CZ_RPC_MAX_FIELDS fields and CZ_RPC_MAX_UNKNOWN unknown ones, strings
 *     UTF-8 without NUL), and decoded into memory of the engine's request
 *     pool sized by that scan, so a request's decoded form is charged to
 *     the memory budget and cannot grow past it.
 * A Prove whose client goes away (cancels, disconnects, passes its
 * deadline (grpc-timeout); dead connections are found by keepalive pings)
 * cancels its job unless another call awaits it or it was also submitted
 * with SubmitProof. */
#ifndef CZ_DAEMON_RPC_H
#define CZ_DAEMON_RPC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

/* Message limit both ways (cuzk's is 128 MiB; C1 outputs are ~50 MB). */
#define CZ_RPC_MAX_MESSAGE (256u << 20)
#define CZ_RPC_HANDLERS    4
#define CZ_RPC_BULK_HANDLERS 2
#define CZ_RPC_SLOW_QUEUE  8
#define CZ_RPC_MAX_CALLS   4096
#define CZ_RPC_MAX_STREAMS 1024
#define CZ_RPC_MAX_FIELDS  65536
#define CZ_RPC_MAX_UNKNOWN 256

/* gRPC status codes used here (gRPC's status.proto values). */
enum {
    CZ_RPC_OK = 0,
    CZ_RPC_CANCELLED = 1,
    CZ_RPC_INVALID_ARGUMENT = 3,
    CZ_RPC_DEADLINE_EXCEEDED = 4,
    CZ_RPC_NOT_FOUND = 5,
    CZ_RPC_ALREADY_EXISTS = 6,
    CZ_RPC_RESOURCE_EXHAUSTED = 8,
    CZ_RPC_FAILED_PRECONDITION = 9,
    CZ_RPC_UNIMPLEMENTED = 12,
    CZ_RPC_INTERNAL = 13,
    CZ_RPC_UNAVAILABLE = 14,
};

struct cz_metrics;
typedef struct {
    cz_engine *engine;
    struct cz_metrics *metrics; /* histogram state shared with /metrics (may be NULL) */
    const char *version;
    double start_time; /* CLOCK_MONOTONIC seconds at start, for uptime */
} cz_rpc_ctx;

typedef struct cz_rpc_server cz_rpc_server;

/* Listens on every address: "unix:///path" or "unix:/path" (a unix socket:
 * refused when another server answers on it, when the path exists and is
 * not a socket, or when its directory is missing or not writable; a stale
 * socket file is replaced) or "host:port" (TCP; port reuse off, so a
 * second daemon cannot bind the same port).  Returns CZ_OK, or
 * CZ_ERR_BUSY (in use), CZ_ERR_INVALID_ARG (a bad address, a path that is
 * not a socket), CZ_ERR_IO (a directory problem, a bind failure) with err
 * saying which and why. */
int cz_rpc_server_start(cz_rpc_server **out, const char *const *addrs, size_t n_addrs,
                        const cz_rpc_ctx *ctx, char *err, size_t errlen);

/* The TCP port bound for addrs[i] (for "host:0"), 0 for unix sockets. */
int cz_rpc_server_port(const cz_rpc_server *s, size_t i);

/* Number of calls being served now, and of calls served so far. */
unsigned cz_rpc_server_active(cz_rpc_server *s);
uint64_t cz_rpc_server_served(cz_rpc_server *s);

/* Graceful stop: new calls are refused at once; the engine's unfinished
 * jobs (awaited or not) get until grace_ms to finish, and the calls in
 * flight to be answered; then every job still unfinished is cancelled
 * (their awaiters answer CANCELLED) and calls left after 5 s more are
 * cancelled; then the server is destroyed and its unix socket files
 * removed.  Returns how many jobs it cancelled.  NULL: no-op, 0. */
unsigned cz_rpc_server_stop(cz_rpc_server *s, int64_t grace_ms);

#endif
