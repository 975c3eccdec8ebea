// On one NUMA node the bubble scheduler places nothing, as every other
// policy does: no thread's mask changes, and each region says "one NUMA node:
// nothing to place". It used to pin the team's workers from the first region
// on (a worker's mask went from both CPUs to one), on this machine's own
// topology and on a synthetic one-node one.
// RUN: %clang-omp %s -o %t
// RUN: %dropin env OMP_PLACEMENT=bubble OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s
// RUN: %dropin env OMP_PLACEMENT=bubble HWLOC_SYNTHETIC="node:1 core:2 pu:1" HWLOC_THISSYSTEM=1 %t | FileCheck %s
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['pinning']['moves']['bubble']['count'], set(g['why'] for g in r['regions']))" %t.json | FileCheck %s --check-prefix=REPORT
// CHECK: masks changed in 0 of 40 executions
// REPORT: 0 {'one NUMA node: nothing to place'}
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

int main(void)
{
    cpu_set_t before;
    CPU_ZERO(&before);
    sched_getaffinity(0, sizeof before, &before);
    int changed = 0;
    for (int r = 0; r < 40; r++) {
        int differs = 0;
#pragma omp parallel num_threads(2) reduction(| : differs)
        {
            cpu_set_t now;
            CPU_ZERO(&now);
            sched_getaffinity(0, sizeof now, &now);
            differs = !CPU_EQUAL(&now, &before);
        }
        changed += differs;
    }
    printf("masks changed in %d of 40 executions\n", changed);
    return 0;
}
