// sampler-budget.c: a thread's sample promises a gain when most of its references (4 at least) are remote; a
// sampler's next sample fits its budget when what it spent plus the next one's estimate is within the share of
// the run, ten times that share for a promising region, and always with no budget.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "pl_test.h"

int main(void)
{
    printf("[0,4] %d [1,3] %d [2,2] %d [0,3] %d [5,0] %d [100,101] %d\n", pl_promising(0, 4), pl_promising(1, 3),
           pl_promising(2, 2), pl_promising(0, 3), pl_promising(5, 0), pl_promising(100, 101));
    // CHECK: [0,4] 1 [1,3] 1 [2,2] 0 [0,3] 0 [5,0] 0 [100,101] 1

    // 2 % of a run of 1 s is 20 ms: spent 10 ms and a next sample of 10 ms fit, 11 ms do not.
    uint64_t ms = 1000000;
    printf("fits %d over %d promising %d\n", pl_budget_fits(10 * ms, 10 * ms, 1000 * ms, 2.0, 0),
           pl_budget_fits(10 * ms, 11 * ms, 1000 * ms, 2.0, 0), pl_budget_fits(100 * ms, 100 * ms, 1000 * ms, 2.0, 1));
    // CHECK: fits 1 over 0 promising 1
    // Ten times, not more; nothing spent fits any run, the first sample included; no budget fits everything.
    printf("promising over %d first %d none %d\n", pl_budget_fits(100 * ms, 101 * ms, 1000 * ms, 2.0, 1),
           pl_budget_fits(0, 0, 0, 2.0, 0), pl_budget_fits(UINT64_MAX / 2, UINT64_MAX / 2, 1, 0.0, 0));
    // CHECK: promising over 0 first 1 none 1
    return 0;
}
