/* The gRPC server's listening sockets (contract in listen.h). */
#include "daemon/listen.h"

#include <errno.h>
#include <libgen.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cuzk/err.h"

static const char *unix_path_of(const char *addr)
{
    if (strncmp(addr, "unix://", 7) == 0)
        return addr + 7;
    if (strncmp(addr, "unix:", 5) == 0)
        return addr + 5;
    return NULL;
}

/* May a server listen on the unix socket path?  Refused: a path that
 * exists and is not a socket (never deleted), a socket someone answers on,
 * a missing or unwritable directory.  A stale socket (nobody listening) is
 * removed. */
static int claim_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un sa;
    if (strlen(path) == 0 || strlen(path) >= sizeof sa.sun_path) {
        cz_msgf(err, errlen, "unix:%s: a socket path needs 1 to %zu bytes", path,
                sizeof sa.sun_path - 1);
        return CZ_ERR_INVALID_ARG;
    }
    char dir[sizeof sa.sun_path];
    snprintf(dir, sizeof dir, "%s", path);
    const char *d = dirname(dir);
    struct stat st;
    if (stat(d, &st) != 0) {
        cz_msgf(err, errlen, "unix:%s: the directory %s %s", path, d,
                errno == ENOENT ? "does not exist" : strerror(errno));
        return CZ_ERR_IO;
    }
    if (!S_ISDIR(st.st_mode)) {
        cz_msgf(err, errlen, "unix:%s: %s is not a directory", path, d);
        return CZ_ERR_IO;
    }
    if (access(d, W_OK | X_OK) != 0) {
        cz_msgf(err, errlen, "unix:%s: cannot create a socket in %s: %s", path, d,
                strerror(errno));
        return CZ_ERR_IO;
    }
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return CZ_OK;
        cz_msgf(err, errlen, "unix:%s: %s", path, strerror(errno));
        return CZ_ERR_IO;
    }
    if (!S_ISSOCK(st.st_mode)) {
        cz_msgf(err, errlen, "unix:%s exists and is not a socket (%s): refusing to replace it",
                path, S_ISREG(st.st_mode) ? "a regular file" : S_ISDIR(st.st_mode) ? "a directory"
                                                                                 : "not a socket");
        return CZ_ERR_INVALID_ARG;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
        cz_msgf(err, errlen, "socket: %s", strerror(errno));
        return CZ_ERR_IO;
    }
    int r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int e = errno;
    close(fd);
    if (r == 0) {
        cz_msgf(err, errlen, "another server is listening on unix:%s: refusing to start", path);
        return CZ_ERR_BUSY;
    }
    if (e == ECONNREFUSED)
        unlink(path); /* stale */
    return CZ_OK;
}

static void close_all(cz_listener *l)
{
    for (size_t i = 0; i < l->n; i++)
        close(l->fds[i]);
    l->n = 0;
}

static int listen_unix(cz_listener *l, const char *addr, const char *path, char *err,
                       size_t errlen)
{
    int rc = claim_unix(path, err, errlen);
    if (rc != CZ_OK)
        return rc;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    memcpy(sa.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), e = 0;
    if (fd < 0) {
        e = errno;
    } else if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        e = errno;
    } else if (listen(fd, SOMAXCONN) != 0) {
        e = errno;
        unlink(path); /* ours: bind made it */
    }
    if (e != 0) {
        if (fd >= 0)
            close(fd);
        cz_msgf(err, errlen, "cannot listen on %s: %s", addr, strerror(e));
        return e == EADDRINUSE ? CZ_ERR_BUSY : CZ_ERR_IO;
    }
    l->fds[l->n++] = fd;
    snprintf(l->unix_path, sizeof l->unix_path, "%s", path);
    return CZ_OK;
}

/* One socket on sa (its port replaced by *port unless that is 0, else
 * *port set to the one bound): 0 or the errno. */
static int listen_one(cz_listener *l, const struct addrinfo *a, bool v6only, int *port)
{
    struct sockaddr_storage ss;
    memcpy(&ss, a->ai_addr, a->ai_addrlen);
    uint16_t *sp = a->ai_family == AF_INET ? &((struct sockaddr_in *)&ss)->sin_port
                                            : &((struct sockaddr_in6 *)&ss)->sin6_port;
    if (*port != 0)
        *sp = htons((uint16_t)*port);
    int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    int one = 1, v6 = v6only;
    socklen_t sl = sizeof ss;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (a->ai_family == AF_INET6 &&
         setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof v6) != 0) ||
        bind(fd, (struct sockaddr *)&ss, a->ai_addrlen) != 0 ||
        getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 || listen(fd, SOMAXCONN) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    *port = ntohs(*sp);
    l->fds[l->n++] = fd;
    return 0;
}

static int listen_tcp(cz_listener *l, const char *addr, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (colon == NULL || (size_t)(colon - addr) >= sizeof host || colon[1] == 0) {
        cz_msgf(err, errlen, "cannot listen on %s: not HOST:PORT", addr);
        return CZ_ERR_INVALID_ARG;
    }
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = 0;
    size_t hl = strlen(host);
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = 0;
    }
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int g = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
    if (g != 0) {
        cz_msgf(err, errlen, "cannot listen on %s: %s", addr, gai_strerror(g));
        return CZ_ERR_INVALID_ARG;
    }
    bool v4 = false;
    for (struct addrinfo *a = res; a; a = a->ai_next)
        v4 |= a->ai_family == AF_INET;
    int port = 0, first_err = 0;
    for (struct addrinfo *a = res; a && l->n < CZ_LISTEN_SOCKS; a = a->ai_next) {
        if (a->ai_family != AF_INET && a->ai_family != AF_INET6)
            continue;
        /* v6only beside an IPv4 resolution, so both can be bound */
        int e = listen_one(l, a, v4, &port);
        if (e != 0 && (first_err == 0 || e == EADDRINUSE))
            first_err = e;
    }
    freeaddrinfo(res);
    if (first_err == EADDRINUSE) {
        close_all(l);
        cz_msgf(err, errlen, "cannot listen on %s: the address is in use (another daemon?)",
                addr);
        return CZ_ERR_BUSY;
    }
    if (l->n == 0) {
        cz_msgf(err, errlen, "cannot listen on %s: %s", addr,
                first_err ? strerror(first_err) : "no IPv4 or IPv6 address");
        return CZ_ERR_IO;
    }
    l->port = port;
    return CZ_OK;
}

int cz_listen_open(cz_listener *l, const char *addr, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    const char *up = unix_path_of(addr);
    return up ? listen_unix(l, addr, up, err, errlen) : listen_tcp(l, addr, err, errlen);
}
