// A gcc loop whose chunk holds 2^63 iterations stepping by -1 (one thread,
// a static runtime schedule, counting down from LONG_MAX): the drop-in's
// loop hooks count a chunk's iterations without dividing LLONG_MIN by -1
// (before: SIGFPE while the hooks were watched, here in the outermost
// region's sampled first execution). The loop is cancelled after 3
// iterations, so it ends, on stock and on the drop-in.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock env OMP_CANCELLATION=true OMP_SCHEDULE=static %t | FileCheck %s
// RUN: %dropin env OMP_CANCELLATION=true OMP_SCHEDULE=static HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" \
// RUN:     HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,source=pagefault,track=anon,sample=2 %t | FileCheck %s
// CHECK: hits 3
#include <limits.h>
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long hits = 0;
#pragma omp parallel num_threads(1) reduction(+ : hits)
    {
#pragma omp for schedule(runtime)
        for (long i = LONG_MAX; i > -1; i--) {
            hits++;
            if (hits >= 3) {
#pragma omp cancel for
            }
        }
    }
    printf("hits %ld\n", hits);
    return 0;
}
