// ondeloc-interval.c: the mapping interval is multiplied by v while the mapping holds and divided by v when it changes, within [min, max].
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

int main(void)
{
    pl_ondeloc_interval_t rule = { 2.0, 500, 4000 };
    double t = 500;
    int changed[] = { 1, 0, 0, 0, 0, 1, 1, 0 };
    printf("interval");
    for (unsigned i = 0; i < sizeof changed / sizeof changed[0]; i++) {
        if (pl_ondeloc_next_interval(&rule, t, changed[i], &t))
            return 1;
        printf(" %g", t);
    }
    printf("\n");
    // Changed at 500 stays at the floor; 1000, 2000, 4000, 4000 (cap); halves twice; doubles.
    // CHECK: interval 500 1000 2000 4000 4000 2000 1000 2000
    pl_ondeloc_interval_t r3 = { 3.0, 10, 1e9 };
    pl_ondeloc_next_interval(&r3, 90, 1, &t);
    printf("v=3: %g", t);
    pl_ondeloc_next_interval(&r3, 90, 0, &t);
    printf(" %g\n", t);
    // CHECK-NEXT: v=3: 30 270
    return 0;
}
