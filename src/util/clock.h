/* Clock helpers shared by the engine and the daemon (internal to cuzk). */
#ifndef CZ_UTIL_CLOCK_H
#define CZ_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_REALTIME ms from now (ms < 0: now), for pthread_cond_timedwait on
 * condition variables of the default clock. */
static inline struct timespec cz_clock_deadline_ms(int64_t ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (ms < 0)
        ms = 0;
    dl.tv_sec += (time_t)(ms / 1000);
    dl.tv_nsec += (long)(ms % 1000) * 1000000;
    if (dl.tv_nsec >= 1000000000)
        dl.tv_sec++, dl.tv_nsec -= 1000000000;
    return dl;
}

/* Seconds of clock c (CLOCK_MONOTONIC for intervals). */
static inline double cz_clock_s(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
