/* app_clock.h: the application callers' clock (benchmarks/apps): seconds on the monotonic clock, what each prints as "Time in seconds". */
#ifndef OMPNUMA_APP_CLOCK_H
#define OMPNUMA_APP_CLOCK_H

#include <time.h>

static inline double app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
