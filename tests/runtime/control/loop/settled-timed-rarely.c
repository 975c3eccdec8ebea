// A settled region is timed one execution in 8 while the loop watches it for a drift (its critical
// path at least 100 us), and one in 64 once nothing but the report reads its times: shorter than
// that, or without references, or never watched (one NUMA node: nothing is placed or sampled), and
// holding no pins (a pinned region's re-pins are weighed over windows of timed executions). White
// box: the primary's end of an execution (rt_events.c) fed critical paths directly, on two nodes of
// this machine's CPUs, and on one; counted over 1280 executions after the first drift window has set
// the reference.
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=2 %t | FileCheck %s
// RUN: env HWLOC_SYNTHETIC="pack:1 [numa] core:2 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=2 %t | FileCheck %s --check-prefix=ONE
#include <stdio.h>

#include "rt_affinity.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_topology.h"

/* One execution of r with critical path cp, as the primary ends it: timed
 * or only counted. */
static void execute(rt_region_t *r, uint64_t cp)
{
    r->executions++;
    if (rt_region_timed(r)) {
        r->timed_executions++;
        rt_loop_region_end(r, cp);
    }
}

/* Sampled on tnt (threads seen on CPUs 0 and 1) at twice cp_settle, then
 * run at cp_settle (a move measures faster: kept) until settled and one
 * drift window past it; then 1280 executions at cp:
 * how many of those were timed. */
static void run(const char *what, const void *code, const uint64_t *tnt, uint64_t cp_settle, uint64_t cp)
{
    rt_region_t *r = rt_region_get(code, 2, NULL, -1);
    for (int i = 0; i < 2 * rt_mach->topo.nnodes; i++)
        r->tnt[i] = tnt[i];
    r->seen_cpu[0] = 0;
    r->seen_cpu[1] = 1;
    for (int i = 0; i < 4096; i++) {
        if (rt_region_settled(r) && (rt_loop_of(r)->cp_settled_ns > 0 || (r->outcome == RT_OUTCOME_OFF && r->quiet)))
            break;
        execute(r, r->outcome == RT_OUTCOME_SAMPLING ? 2 * cp_settle : cp_settle);
    }
    uint64_t timed = r->timed_executions;
    for (int i = 0; i < 1280; i++)
        execute(r, cp);
    printf("%s: %s, pins %s, timed %llu of 1280\n", what, rt_outcome_name(r->outcome),
           r->pins_applied ? "applied" : "none", (unsigned long long)(r->timed_executions - timed));
}

int main(void)
{
    rt_settings_init();
    rt_machine_init(NULL, 0);
    rt_affinity_init();
    rt_loop_init();
    static int longer, shorter, none, pinned;
    if (rt_mach->topo.nnodes == 1) {
        // ONE: one node, 200 us: off, pins none, timed 20 of 1280
        run("one node, 200 us", &longer, (const uint64_t[]){1000, 1000}, 200000, 200000);
        return 0;
    }
    if (rt_mach->topo.nnodes != 2 || !rt_affinity_applies()) {
        printf("needs two nodes of this machine's CPUs\n");
        return 1;
    }
    const uint64_t local[4] = {1000, 0, 0, 1000}, swap[4] = {0, 1000, 1000, 0}, empty[4] = {0};
    // CHECK: watched: unchanged, pins none, timed 160 of 1280
    run("watched", &longer, local, 200000, 200000);
    // CHECK-NEXT: short: unchanged, pins none, timed 20 of 1280
    run("short", &shorter, local, 2000, 2000);
    // CHECK-NEXT: no references: no_data, pins none, timed 20 of 1280
    run("no references", &none, empty, 200000, 200000);
    // CHECK-NEXT: pinned: kept, pins applied, timed 160 of 1280
    run("pinned", &pinned, swap, 2000, 2000);
    return 0;
}
