/* rt_core.h: the conventions every runtime/ file follows: errors, exported symbols, the clock. */
#ifndef OMPNUMA_RT_CORE_H
#define OMPNUMA_RT_CORE_H

#include <stdint.h>
#include <time.h>

/*
 * Errors. A runtime function that can fail returns 0 (or a count, or a
 * pointer) on success and -1 (NULL for pointers, a negative value for
 * costs) with errno set on failure, as omp_numa.h promises the program.
 * Functions that can explain a failure in words also take (char *why,
 * size_t len) and fill it; errno is still set. Nothing in runtime/ returns
 * a negated errno: placement/'s convention (pl.h) stops at the call into it.
 *
 * Failures never reach the program as crashes or output: what does not
 * work here is switched off with a reason that the report shows, and the
 * only lines printed unasked are the warnings for bad settings (rt_log.h).
 */

/* The one spelling of "this symbol leaves the shared object"; everything
 * else is hidden (CMAKE_C_VISIBILITY_PRESET) and the version scripts
 * (openmp/lib*.map) list what each library exports. */
#define OMPNUMA_EXPORT __attribute__((visibility("default")))

/* Monotonic nanoseconds: the one clock of the runtime (vDSO, no system call). */
static inline uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* t moved ms milliseconds later (ms >= 0): the deadlines of the runtime's
 * periodic threads, for pthread_cond_timedwait on that clock. */
static inline void rt_timespec_add_ms(struct timespec *t, double ms)
{
    uint64_t ns = (uint64_t)t->tv_nsec + (uint64_t)(ms * 1e6);
    t->tv_sec += (time_t)(ns / 1000000000u);
    t->tv_nsec = (long)(ns % 1000000000u);
}

#endif
