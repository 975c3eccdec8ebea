// data-promising-at-home.c: a team whose threads are all at home still promises a data move when at least
// PL_PROMISE_MIN (4) of its references, and one in PL_DATA_PROMISE_SHARE (8), are remote: at the edges of both.
// RUN: %clang-omp -I%srcroot/placement -I%srcroot/placement/data -I%S/../Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "pl_data.h"
#include "pl_test.h"

int main(void)
{
    static const uint64_t cases[][2] = {
        {0, 0},    {100, 0},  {20, 3},  {20, 4},   {28, 4},  {29, 4},   {1000, 124}, {868, 124},
        {869, 124}, {16, 32}, {0, 4},  {1, 1000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        printf("local %llu remote %llu: %s\n", (unsigned long long)cases[i][0], (unsigned long long)cases[i][1],
               pl_data_promising(cases[i][0], cases[i][1]) ? "promising" : "no");
    return 0;
}
// CHECK: local 0 remote 0: no
// CHECK-NEXT: local 100 remote 0: no
// CHECK-NEXT: local 20 remote 3: no
// CHECK-NEXT: local 20 remote 4: promising
// CHECK-NEXT: local 28 remote 4: promising
// CHECK-NEXT: local 29 remote 4: no
// CHECK-NEXT: local 1000 remote 124: no
// CHECK-NEXT: local 868 remote 124: promising
// CHECK-NEXT: local 869 remote 124: no
// CHECK-NEXT: local 16 remote 32: promising
// CHECK-NEXT: local 0 remote 4: promising
// CHECK-NEXT: local 1 remote 1000: promising
