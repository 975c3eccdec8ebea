/* monotonic.h: the monitor tests' clock: CLOCK_MONOTONIC in seconds. */
#ifndef MONOTONIC_H
#define MONOTONIC_H
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
