/* rt_counters.h: counter sources that fill a region's thread-node table (TNT). */
#ifndef OMPNUMA_RT_COUNTERS_H
#define OMPNUMA_RT_COUNTERS_H

#include "rt_region.h"

/* Probe every source, pick the configured one (or the best that works for
 * auto), and record in rt.source_reason why each other one is unavailable. */
void rt_counters_init(void);

/* Only the probes: fill rt.source_reason ("" for each source that works). */
void rt_counters_probe(void);

/* Before the team of a sampled execution of r forks (encountering thread). */
void rt_counters_region_begin(rt_region_t *r, const void *team);

/* Thread index of region r starts a measured (sampling) execution.
 * Called from the thread itself. */
void rt_counters_thread_begin(rt_region_t *r, int index, const void *team);

/* The primary, at the end of every execution of r: remove what the source
 * armed for it and, when r is being sampled, fold what the threads collected
 * into r->tnt. Returns the number of samples added. */
uint64_t rt_counters_region_end(rt_region_t *r);

/* Whether the chosen source slows the execution it samples (its timings
 * are then not a fair "before"). */
int rt_counters_intrusive(void);

#endif
