/* cuzk: the daemon's HTTP status endpoint.
 *
 *   GET /status   application/json: version, uptime, jobs (the engine's
 *                 totals), kinds (per job kind by name: enabled, queued,
 *                 running, partitions_waiting, partitions_in_flight and the
 *                 totals submitted, completed, failed, cancelled,
 *                 partitions_proved: cz_engine_kind_status), live_jobs
 *                 ({count: unfinished jobs, jobs: the first
 *                 CZ_HTTP_MAX_JOBS in the order synthesis serves them, each
 *                 with id, job (its number in timeline and buffers), kind,
 *                 circuit, priority, state, ending, partitions and their
 *                 done / in flight / waiting counts, age_ms, queue_ms}),
 *                 workers, queues, cached circuits (at most
 *                 CZ_HTTP_MAX_CIRCUITS: id, kind, bytes, refs, registered,
 *                 loading, idle_ms), memory (budget, reservations, tracked
 *                 bytes, RSS and untracked RSS with peaks, per buffer class
 *                 counters), devices (the back end's: kind "gpu" or "cpu",
 *                 ordinal, name, busy_job / busy_kind of the partition in
 *                 prove_start or null, and for a GPU memory: total, free,
 *                 budget, reserved, allocated with peaks, reservations,
 *                 waiters and per-class counters of the device account,
 *                 cuda.h), the live buffers (at most CZ_HTTP_MAX_BUFFERS)
 *                 and the most recent timeline events (at most
 *                 CZ_HTTP_MAX_EVENTS).
 *   GET /metrics  text/plain; version=0.0.4: Prometheus exposition of the
 *                 same counters and gauges, the per-kind ones in families
 *                 of their own with a kind label (cuzk_kind_*: the totals'
 *                 families keep their series, so sums never count twice),
 *                 the GPUs' accounts (cuzk_gpu_memory_*, cuzk_gpu_busy,
 *                 cuzk_gpu_buffer_*{device="N",class=...}; absent on the
 *                 CPU back end), and a histogram of stage durations
 *                 (cuzk_stage_duration_seconds{stage=...}).
 *   anything else 404 with a JSON error naming the path and the endpoints.
 *
 * The server is our own small HTTP/1.0 and 1.1 server on non-blocking POSIX
 * sockets, driven by one event thread (poll).  A connection carries one
 * request:
 *   - its head (request line and header fields, through the empty line;
 *     lines end in CRLF or LF) may take at most CZ_HTTP_HEAD_MAX bytes, else
 *     431;
 *   - the request line (empty lines before it are skipped) is METHOD SP
 *     target SP HTTP/1.x, else 400 (another major version: 505); the
 *     target is "/path?query" or "http://host/path?query", and the path
 *     (query dropped, no percent-decoding) picks the endpoint;
 *   - GET and HEAD are served (HEAD: the same header fields, no body); any
 *     other method gets 405 with Allow: GET, HEAD;
 *   - header fields are not interpreted and a request body is never read;
 *   - every response carries Date, Content-Type, Content-Length,
 *     Cache-Control: no-store and Connection: close.  Once it is written the
 *     server shuts down its sending side, discards what the client still
 *     sends, and closes when the client closes or CZ_HTTP_LINGER_MS later
 *     (so that a client still sending a body does not get a reset before it
 *     has read the answer).
 *
 * Limits, so that slow or stalled clients cannot hold others up:
 *   - at most CZ_HTTP_MAX_CONNS connections at once, and at most
 *     CZ_HTTP_MAX_PER_ADDR from one client address (the IPv4 or IPv6
 *     address; the port does not count);
 *   - a connection must deliver its whole request head within
 *     CZ_HTTP_HEAD_TIMEOUT_MS of being accepted: a total deadline that
 *     arriving bytes do not extend; past it the connection is closed
 *     without an answer;
 *   - a response must be fully written within CZ_HTTP_WRITE_TIMEOUT_MS of
 *     the request's being read, else the connection is closed;
 *   - a new connection that would exceed its address's limit makes room by
 *     closing a connection from that address that has been answered and
 *     waits for the client to close, if there is one, else the oldest
 *     (first accepted) one still reading its request head; one that would
 *     exceed the total limit does the same among all connections; when
 *     there is neither (every one is writing a response), the new
 *     connection is closed at once.  A new connection is read as soon as it
 *     is accepted, so a client that sends its request head promptly gets in
 *     however many trickle: it would take CZ_HTTP_MAX_PER_ADDR newer
 *     connections from its address (CZ_HTTP_MAX_CONNS from anywhere) within
 *     the milliseconds its head takes to arrive to push it out.
 * When the process runs out of file descriptors, accepting pauses for
 * 100 ms at a time.  Responses are built on the event thread from the
 * engine's thread-safe status functions. */
#ifndef CUZK_HTTP_H
#define CUZK_HTTP_H

#include <stddef.h>

#include "cuzk/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_HTTP_MAX_BUFFERS  1000 /* live buffers listed in /status */
#define CZ_HTTP_MAX_EVENTS   200  /* timeline events listed in /status */
#define CZ_HTTP_MAX_CIRCUITS 256  /* cached circuits listed in /status */
#define CZ_HTTP_MAX_JOBS     256  /* unfinished jobs listed in /status */

#define CZ_HTTP_MAX_CONNS        256   /* connections at once */
#define CZ_HTTP_MAX_PER_ADDR     8     /* connections from one client address */
#define CZ_HTTP_HEAD_MAX         8192  /* bytes of a request head */
#define CZ_HTTP_HEAD_TIMEOUT_MS  3000  /* accept to the end of the request head */
#define CZ_HTTP_WRITE_TIMEOUT_MS 10000 /* request read to the response written */
#define CZ_HTTP_LINGER_MS        1000  /* response sent to close, at most */

typedef struct {
    const char *version; /* shown as is; NULL: null */
    double start_time_s; /* CLOCK_REALTIME at daemon start; <= 0: unknown */
    const char *listen;  /* the gRPC address, for display; NULL: null */
} cz_http_info;

/* ------------------------------------------------------------- metrics --- */

/* The state that turns timeline events into monotonic histogram counters
 * across scrapes: each scrape counts the events that appeared since the
 * previous one (looking back at most CZ_METRICS_WINDOW events; when more
 * than that arrived in between, the surplus is lost and
 * cuzk_stage_timeline_gaps_total counts the occurrence).  One state serves
 * one engine; it may be used from several threads. */
#define CZ_METRICS_WINDOW 4096

typedef struct cz_metrics cz_metrics;

/* CZ_OK or CZ_ERR_NOMEM (then *out is NULL). */
int cz_metrics_new(cz_metrics **out);
void cz_metrics_free(cz_metrics *m); /* NULL: no-op */

/* The Prometheus text of engine e (malloc'd, NUL-terminated; the caller
 * frees it).  m: the histogram state (NULL: no stage histogram).  CZ_OK,
 * CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM (then *out is NULL). */
int cz_metrics_text(cz_engine *e, cz_metrics *m, char **out);

/* The /status document (malloc'd, NUL-terminated JSON).  info may be NULL.
 * CZ_OK, CZ_ERR_INVALID_ARG, CZ_ERR_NOMEM (then *out is NULL). */
int cz_status_json(cz_engine *e, const cz_http_info *info, char **out);

/* -------------------------------------------------------------- server --- */

typedef struct cz_http cz_http;

/* Serves engine e on addr: "host:port", ":port" (every IPv4 address) or
 * "[ipv6]:port" (IPv6 only, also for [::]); host may be a name (its first
 * address is used); port 0 picks a free port (see cz_http_port).  info (may
 * be NULL) is copied.  e must outlive the server: call cz_http_stop before
 * cz_engine_free.  The event thread starts with the caller's signal mask.
 * Returns CZ_OK, CZ_ERR_INVALID_ARG (bad address; err says why), CZ_ERR_IO
 * (cannot resolve, bind or listen; err names the address and the reason,
 * as in "http: cannot listen on 127.0.0.1:9821: Address already in use"),
 * CZ_ERR_THREAD, CZ_ERR_NOMEM.  err may be NULL. */
int cz_http_start(cz_http **out, const char *addr, cz_engine *e, const cz_http_info *info,
                  char *err, size_t errlen);
/* The bound TCP port. */
unsigned cz_http_port(const cz_http *h);
/* The server's histogram state, to share with other exporters (the gRPC
 * GetMetrics call) so that every scrape sees the same counters. */
cz_metrics *cz_http_metrics(cz_http *h);
/* Stops the server: joins its thread, closes the listening socket and
 * every connection (answers being written are cut off) and frees it all.
 * NULL: no-op. */
void cz_http_stop(cz_http *h);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_HTTP_H */
