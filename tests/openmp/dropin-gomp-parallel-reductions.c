// A gcc region with task reductions (`parallel reduction(task, ...)`) goes
// through GOMP_parallel_reductions, which reads the reductions' array from
// the first word of its data before it hands the data to every thread. The
// drop-in passes its trampoline a data whose first word is that array, and
// the program's own data to the program: the sum is stock's, on one node
// and on two (before: a segfault or libomp's "Out of heap memory" abort,
// the runtime reading ompnuma's team record as the array).
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock %t > %t.stock
// RUN: %dropin %t > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 %t > %t.two
// RUN: diff %t.stock %t.two
// RUN: FileCheck %s < %t.two
// CHECK: round 0: sum 45, team 2
// CHECK: round 3: sum 45, team 2
#include <omp.h>
#include <stdio.h>

int main(void)
{
    for (int round = 0; round < 4; round++) {
        long sum = 0;
        int team = 0;
#pragma omp parallel reduction(task, + : sum) num_threads(2)
        {
#pragma omp single
            {
                team = omp_get_num_threads();
                for (int k = 0; k < 10; k++) {
#pragma omp task in_reduction(+ : sum)
                    sum += k;
                }
            }
        }
        printf("round %d: sum %ld, team %d\n", round, sum, team);
    }
    return 0;
}
