// The primary thread's mask is restored after a region ompnuma re-pinned:
// inside the region the primary runs pinned to CPU 1, and serial code in
// main then sees exactly the mask it sees on the stock runtime. (The threads
// pin themselves to CPUs 0 and 1 in the first execution, so the sampled ones
// see them there and the decision moves them; that pin is the program's own
// and serial code keeps it, on stock as with ompnuma.)
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: echo "0,1000" > %t.csv
// RUN: echo "1000,0" >> %t.csv
// RUN: %stock %t | FileCheck %s --check-prefix=STOCK
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=2,source=replay:%t.csv,verify=off %t | FileCheck %s
//
// STOCK: before: 2 cpus
// STOCK-NEXT: execution 3: primary inside on cpu 0 (mask 1 cpu), after: 1 cpus from cpu 0
// STOCK-NEXT: execution 4: primary inside on cpu 0 (mask 1 cpu), after: 1 cpus from cpu 0
// CHECK: before: 2 cpus
// CHECK-NEXT: execution 3: primary inside on cpu 1 (mask 1 cpu), after: 1 cpus from cpu 0
// CHECK-NEXT: execution 4: primary inside on cpu 1 (mask 1 cpu), after: 1 cpus from cpu 0
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

static int mask_cpus(void)
{
    cpu_set_t m;
    CPU_ZERO(&m);
    return sched_getaffinity(0, sizeof m, &m) == 0 ? CPU_COUNT(&m) : -1;
}

static int mask_first(void)
{
    cpu_set_t m;
    CPU_ZERO(&m);
    if (sched_getaffinity(0, sizeof m, &m) != 0)
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &m))
            return c;
    return -1;
}

int main(void)
{
    printf("before: %d cpus\n", mask_cpus());
    for (int e = 1; e <= 4; e++) {
        int inside_cpu = -1, inside_mask = -1;
#pragma omp parallel num_threads(2)
        {
            int t = omp_get_thread_num();
            if (e == 1) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(t, &one);
                sched_setaffinity(0, sizeof one, &one);
            }
            if (t == 0) {
                inside_cpu = sched_getcpu();
                inside_mask = mask_cpus();
            }
        }
        if (e >= 3)
            printf("execution %d: primary inside on cpu %d (mask %d cpu), after: %d cpus from cpu %d\n", e,
                   inside_cpu, inside_mask, mask_cpus(), mask_first());
    }
    return 0;
}
