/* rt_affinity.h: pinning threads (one sched_setaffinity each, or a dry run that only records). */
#ifndef OMPNUMA_RT_AFFINITY_H
#define OMPNUMA_RT_AFFINITY_H

#include <sched.h>
#include "rt_region.h"

/* Decide whether pins apply to this machine (see rt_state_t.pin_mode). */
void rt_affinity_init(void);

/* The calling thread's current mask. 0 or -1. */
int  rt_affinity_get(cpu_set_t *mask);

/* Move the calling thread to one CPU (cpu >= 0), or back to the mask it had
 * before ompnuma moved it (cpu = -1; also for its own single home CPU).
 * Records thr->pinned_cpu; no system call when the place is unchanged. A
 * failed call leaves the thread where it was. */
void rt_affinity_place(rt_thread_t *thr, int cpu);

#endif
