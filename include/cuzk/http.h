/* cuzk: the daemon's HTTP status endpoint (libmicrohttpd).
 *
 *   GET /status   application/json: version, uptime, jobs, workers, queues,
 *                 cached circuits (at most CZ_HTTP_MAX_CIRCUITS), memory
 *                 (budget, reservations, tracked bytes, RSS and untracked
 *                 RSS with peaks, per buffer class counters), the live
 *                 buffers (at most CZ_HTTP_MAX_BUFFERS) and the most recent
 *                 timeline events (at most CZ_HTTP_MAX_EVENTS).
 *   GET /metrics  text/plain; version=0.0.4: Prometheus exposition of the
 *                 same counters and gauges, and a histogram of stage
 *                 durations (cuzk_stage_duration_seconds{stage=...}).
 *   anything else 404 with a JSON error; a method other than GET or HEAD
 *                 gets 405.
 *
 * The server runs on its own threads (a pool of two event-driven polling
 * threads); it serves at most 64 connections (32 per client address) and
 * closes one idle for 10 s, so a slow or stalled client cannot hold others
 * up.  It only reads the engine through its thread-safe status functions.
 * libmicrohttpd's own messages (about malformed requests and the like) are
 * dropped once it has started. */
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
 * "[ipv6]:port"; host may be a name (its first address is used); port 0
 * picks a free port (see cz_http_port).  info (may be NULL) is copied.  e
 * must outlive the server: call cz_http_stop before cz_engine_free.
 * Returns CZ_OK, CZ_ERR_INVALID_ARG (bad address; err says why),
 * CZ_ERR_IO (cannot resolve or bind; err says why), CZ_ERR_NOMEM. */
int cz_http_start(cz_http **out, const char *addr, cz_engine *e, const cz_http_info *info,
                  char *err, size_t errlen);
/* The bound TCP port. */
unsigned cz_http_port(const cz_http *h);
/* The server's histogram state, to share with other exporters (the gRPC
 * GetMetrics call) so that every scrape sees the same counters. */
cz_metrics *cz_http_metrics(cz_http *h);
/* Stops the server: closes the listening socket and every connection and
 * joins its threads.  NULL: no-op. */
void cz_http_stop(cz_http *h);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_HTTP_H */
