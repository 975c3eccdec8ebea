/* rt_cache.h: the placement cache (OMP_PLACEMENT cache=FILE): mappings kept in one run are where the next run starts. */
#ifndef OMPNUMA_RT_CACHE_H
#define OMPNUMA_RT_CACHE_H

#include "rt_region.h"

/*
 * An entry is one region's kept mapping, keyed by the machine (a hash of
 * the topology), the region's code (build id + offset of its code address,
 * os/rt_object.h), its team size and its parent's code: the same build on the
 * same machine finds it again whatever the load addresses. A program run
 * again starts each such region on the cached CPUs at its first execution
 * (regions that run once gain from the second run on), skips sampling, and
 * verifies the mapping against the critical path measured before the move
 * last time; a mapping that is slower is rolled back and leaves the cache.
 *
 * File: "ompnuma-cache/1", then one line per entry:
 *   region MACHINE CODE PARENT TEAM CPU,CPU,... BEFORE_NS AFTER_NS
 * Entries of other machines, binaries or regions this run did not see are
 * kept; entries of any length are read. A file whose first line is not the
 * header is ignored with one warning (and replaced at exit); a line that is
 * not an entry costs only itself (one warning counts them; it is left out at
 * exit); a cache none of whose entries is for this machine or this program
 * says so in one warning. Only a regular file, or a path where nothing is
 * yet, is written (the setting refuses anything else; the save checks
 * again). Nothing here can fail the program.
 */

/* Once, at start-up, when rt_conf->cache_path is set. */
void rt_cache_load(void);

/* At a region's first sight (encountering thread, before the team forks):
 * start it from its cached mapping when there is one. 1 when it did. */
int rt_cache_start(rt_region_t *r);

/* At exit: write the kept mappings (atomically: a new file renamed over). */
void rt_cache_save(void);

#endif
