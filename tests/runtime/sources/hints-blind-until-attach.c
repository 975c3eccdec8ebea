// A source that could add nothing is not sampled: with the hints source and
// no buffer attached, a region's executions cost what a settled region's do
// (no sampled execution, timed 1 in 64 like any quiet region) and its why
// says so. Once the program attaches buffers, the next fork of a region
// begins its sampling phase and the region gets a TNT and a decision.
// Region `before` runs 20 times with nothing attached; region `after` runs
// 10 times before the attach and 20 after. Before the fix `before` was
// sampled 4 times for nothing ("no references from the hints source in 4
// sampled executions", 20 timed executions of 20).
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=critpath,source=hints,sample=2 \
// RUN:     OMP_PLACEMENT_VERBOSE=1 OMP_PLACEMENT_REPORT=%t.dropin.json %t 2> %t.dropin.log
// RUN: %python %S/Inputs/blind_regions.py %t.dropin.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.dropin.log
// RUN: %ompt env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=critpath,source=hints,sample=2 \
// RUN:     OMP_PLACEMENT_REPORT=%t.ompt.json %t
// RUN: %python %S/Inputs/blind_regions.py %t.ompt.json | FileCheck %s
// CHECK: before executions 20 timed 1 tnt 0 outcome no_data why not sampled: the hints source had nothing to sample (the program attached no buffer with omp_numa_attach)
// CHECK-NEXT: after executions 30 tnt every thread outcome a decision
// LOG: region {{[0-9]+}}{{.*}}: not sampled: the hints source has nothing to sample; placement unchanged
// LOG: region {{[0-9]+}}: the hints source can sample now; sampling begins
#include <omp.h>
#include <omp_numa.h>
#include <string.h>

#define BYTES (64 << 10)

static char *buf[2];

/* Each thread sweeps its buffer: the region the hints will be about. Not
 * inlined and not a tail call, so both loops below run one region (one
 * call site). */
static __attribute__((noinline)) int after(void)
{
#pragma omp parallel num_threads(2)
    {
        char *b = buf[omp_get_thread_num()];
        for (int i = 0; i < BYTES; i += 64)
            b[i]++;
    }
    return buf[0][0];
}

int main(void)
{
    int x[2];
    for (int t = 0; t < 2; t++) {
        buf[t] = omp_numa_alloc(BYTES, OMP_NUMA_BIND, 0);
        if (!buf[t])
            return 1;
        memset(buf[t], 0, BYTES);
    }
    for (int e = 0; e < 20; e++) {
#pragma omp parallel num_threads(2)
        x[omp_get_thread_num()] = e; /* before */
    }
    int sum = 0;
    for (int e = 0; e < 10; e++)
        sum += after();
    for (int t = 0; t < 2; t++)
        omp_numa_attach(buf[t], BYTES, t);
    for (int e = 0; e < 20; e++)
        sum += after();
    for (int t = 0; t < 2; t++) {
        omp_numa_detach(buf[t]);
        omp_numa_free(buf[t]);
    }
    return x[0] + x[1] == 38 && sum == 465 ? 0 : 1;
}
