// Every entry the cache writes reads back, whatever its length: a kept mapping of a 4096-thread team is a line of
// 19 464 characters here, beyond the 8191 the loader's field once held, and the whole file then read as "not a
// placement cache" (and was cut to its header at exit). Here one run writes it, the next loads it as one entry for
// this machine and writes it again unchanged. White box: a region record of the team, kept, saved and loaded.
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: rm -f %t.cache
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:2048 pu:1" OMP_PLACEMENT=cache=%t.cache %t > %t.first.out 2>&1
// RUN: not grep . %t.first.out
// RUN: wc -L < %t.cache | FileCheck %s --check-prefix=LONG
// RUN: cp %t.cache %t.first
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:2048 pu:1" OMP_PLACEMENT=cache=%t.cache OMP_PLACEMENT_VERBOSE=1 %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: cmp %t.first %t.cache
// CHECK: cache {{.*}}: 1 entries, 1 for this machine
// LONG: {{^[1-9][0-9]{4}$}}
#include <stdio.h>
#include <string.h>

#include "rt_cache.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_topology.h"

#define TEAM 4096

static void the_region(void)
{
}

int main(void)
{
    rt_settings_init();
    if (rt_machine_init(NULL, 0) != 0 || rt_mach->topo.nnodes != 2)
        return 1;
    rt_loop_init();
    rt_region_t *r = rt_region_get((const void *)the_region, TEAM, NULL, -1);
    if (!r)
        return 2;
    for (int t = 0; t < TEAM; t++)
        r->pin_cpu[t] = TEAM - 1 - t;
    r->outcome = RT_OUTCOME_KEPT;
    rt_loop_region_t *l = (rt_loop_region_t *)rt_loop_of(r); /* forged: the loop's state, as if it had kept */
    l->cp_before_ns = 2e6;
    l->cp_after_ns = 1e6;
    rt_cache_load();
    rt_cache_save();
    return 0;
}
