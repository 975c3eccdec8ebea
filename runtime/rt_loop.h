/* rt_loop.h: the per-region placement loop (see DESIGN.md, "The placement loop"). */
#ifndef OMPNUMA_RT_LOOP_H
#define OMPNUMA_RT_LOOP_H

#include <stdint.h>
#include "rt_region.h"

/* The primary thread, after execution of r whose critical path was cp ns.
 * Advances r through sampling -> baseline -> decision -> verification ->
 * settled, re-opening sampling on drift. Allocates only when deciding. */
void rt_loop_region_end(rt_region_t *r, uint64_t cp);

/* The configured policy on a TNT of `team` rows and the runtime's topology:
 * node and core (index within the node) per thread, and the decision time
 * in *us. 0 or a negative errno. */
int rt_loop_policy(const uint64_t *refs, int team, int *nodes, int *cores, double *us);

#endif
