/* cuzk-daemon's log: one line per event, human-readable or JSON, to stderr
 * or a file reopened on SIGHUP (for logrotate). */
#ifndef CZ_DAEMON_LOG_H
#define CZ_DAEMON_LOG_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { CZ_LOG_TRACE, CZ_LOG_DEBUG, CZ_LOG_INFO, CZ_LOG_WARN, CZ_LOG_ERROR } cz_log_level;

/* level: "trace".."error"; json: JSON lines; path NULL or "": stderr.
 * CZ_OK, CZ_ERR_INVALID_ARG (level), CZ_ERR_IO (cannot open path). */
int cz_log_init(const char *level, bool json, const char *path);
/* Reopens the log file (no-op for stderr).  Safe from the signal thread. */
int cz_log_reopen(void);
/* The stream the engine's TIMELINE and memory lines go to. */
FILE *cz_log_stream(void);
void cz_log(cz_log_level l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cz_log_close(void);

#endif
