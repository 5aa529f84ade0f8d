/* The gRPC server's listening sockets: its address forms and the refusals
 * of a start (a second daemon, a path that is not ours).  Used by the
 * transport (daemon/h2.c). */
#ifndef CZ_DAEMON_LISTEN_H
#define CZ_DAEMON_LISTEN_H

#include <stddef.h>

#define CZ_LISTEN_SOCKS 4 /* sockets of one address at most (its resolutions) */

typedef struct {
    int fds[CZ_LISTEN_SOCKS]; /* listening, non-blocking, close-on-exec */
    size_t n;
    int port;            /* TCP: the port bound (that of "host:0" too); 0 for a unix socket */
    char unix_path[108]; /* a unix socket's file, for the caller to remove when done; else "" */
} cz_listener;

/* Listens on addr:
 *   "unix:///path" or "unix:/path": refused when another server answers
 *   on it (CZ_ERR_BUSY), when the path exists and is not a socket
 *   (CZ_ERR_INVALID_ARG; never deleted), when its directory is missing or
 *   not writable (CZ_ERR_IO); a stale socket file (nobody listening) is
 *   replaced;
 *   "host:port", "[v6]:port", ":port": every address host resolves to (at
 *   most CZ_LISTEN_SOCKS) on one port (port 0: the first bind's), SO_REUSEADDR
 *   on and SO_REUSEPORT off, so a second daemon on the port gets CZ_ERR_BUSY
 *   (EADDRINUSE); "[::]" alone takes IPv4 too; an address that cannot be
 *   bound is skipped (an IPv6 localhost without IPv6) unless none can be
 *   (CZ_ERR_IO); a malformed address or an unknown host is
 *   CZ_ERR_INVALID_ARG.
 * Returns CZ_OK with *l filled, or the code with err naming addr and why;
 * then nothing is left open or created. */
int cz_listen_open(cz_listener *l, const char *addr, char *err, size_t errlen);

#endif
