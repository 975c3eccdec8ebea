/* rt_loop.h: the per-region placement loop (docs/architecture.md, "The region loop"). */
#ifndef OMPNUMA_RT_LOOP_H
#define OMPNUMA_RT_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include "rt_region.h"
#include "rt_sources.h"

/* The primary thread, after execution of r whose critical path was cp ns.
 * Advances r through sampling -> baseline -> decision -> verification ->
 * settled, re-opening sampling on drift. Allocates only when deciding. */
void rt_loop_region_end(rt_region_t *r, uint64_t cp);

/* What a counter source is told about the current execution of r: the loop
 * alone knows which table is being filled and whether a phase just began. */
void rt_loop_sample(rt_region_t *r, rt_sample_t *out);

/* Start r, not yet executed, from a mapping kept earlier (the placement
 * cache): cpus per thread, and the critical path measured before that move.
 * No sampling; the mapping is verified against before_ns like any move.
 * 0, or -1 with errno EINVAL (r has already begun its loop). */
int rt_loop_adopt(rt_region_t *r, const int *cpus, double before_ns);

/* Why r has no decision in effect, in words for the report and the log
 * ("ran 1 execution: 1 of the 4 sampled ones it needs", "no references
 * ..."); "" when it has one (kept, rolled back, decided in dry run). */
void rt_loop_why(const rt_region_t *r, char *buf, size_t len);

#endif
