/* The gRPC side of cuzk-daemon: the cuzk.v1.ProvingEngine server on gRPC's
 * core C library, and a small blocking client for cuzk-bench and tests.
 * Internal to the daemon (not part of libcuzk's public API). */
#ifndef CZ_DAEMON_RPC_H
#define CZ_DAEMON_RPC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

/* Message limit both ways (cuzk's is 128 MiB; C1 outputs are ~50 MB). */
#define CZ_RPC_MAX_MESSAGE (256u << 20)

/* gRPC status codes used here (grpc_status_code values). */
enum {
    CZ_RPC_OK = 0,
    CZ_RPC_CANCELLED = 1,
    CZ_RPC_INVALID_ARGUMENT = 3,
    CZ_RPC_DEADLINE_EXCEEDED = 4,
    CZ_RPC_NOT_FOUND = 5,
    CZ_RPC_FAILED_PRECONDITION = 9,
    CZ_RPC_RESOURCE_EXHAUSTED = 8,
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

/* Listens on every address: "unix:///path" or "unix:/path" (a unix socket;
 * refused with CZ_ERR_BUSY when another server answers on it, a stale
 * socket file is replaced) or "host:port" (TCP; port reuse off, so a second
 * daemon cannot bind the same port: CZ_ERR_BUSY).  Returns CZ_OK or a code
 * with err set. */
int cz_rpc_server_start(cz_rpc_server **out, const char *const *addrs, size_t n_addrs,
                        const cz_rpc_ctx *ctx, char *err, size_t errlen);

/* The TCP port bound for addrs[i] (for "host:0"), 0 for unix sockets. */
int cz_rpc_server_port(const cz_rpc_server *s, size_t i);

/* Number of calls being served now. */
unsigned cz_rpc_server_active(cz_rpc_server *s);

/* Graceful stop: new calls are refused at once; calls in flight get up to
 * grace_ms to finish, then every unfinished engine job is cancelled (their
 * awaiters answer CANCELLED) and remaining calls are cancelled; then the
 * server is destroyed and unix socket files removed.  NULL: no-op. */
void cz_rpc_server_stop(cz_rpc_server *s, int64_t grace_ms);

#endif
