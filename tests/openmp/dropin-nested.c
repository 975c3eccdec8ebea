// Nested parallelism with omp_set_max_active_levels(2): levels, team sizes and
// ancestor numbers are the same on the stock runtimes and on the drop-in.
// REQUIRES: clang, gcc
// RUN: %clang-omp %s -o %t.clang
// RUN: %stock %t.clang > %t.clang.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.clang > %t.clang.dropin 2> %t.clang.err
// RUN: diff %t.clang.stock %t.clang.dropin
// RUN: FileCheck %s < %t.clang.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.clang.err
// RUN: %gcc-omp %s -o %t.gcc
// RUN: %stock %t.gcc > %t.gcc.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.gcc > %t.gcc.dropin 2> %t.gcc.err
// RUN: diff %t.gcc.stock %t.gcc.dropin
// RUN: FileCheck %s < %t.gcc.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.gcc.err
//
// CHECK: max_active_levels=2
// CHECK-NEXT: inner teams=2 inner threads=4 level=2 active_level=2 team_size(1)=2 team_size(2)=2
// CHECK-NEXT: ancestors=0,0 0,1 1,0 1,1
// CHECK-NEXT: serialized third level: team=1 level=3 active_level=2
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

int main(void)
{
    omp_set_max_active_levels(2);
    printf("max_active_levels=%d\n", omp_get_max_active_levels());
    int seen[2][2] = {{0}}, inner_threads = 0, level = 0, active = 0, ts1 = 0, ts2 = 0, third = 0,
        lvl3 = 0, act3 = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
            inner_threads++;
            seen[omp_get_ancestor_thread_num(1)][omp_get_thread_num()] = 1;
#pragma omp critical
            {
                level = omp_get_level();
                active = omp_get_active_level();
                ts1 = omp_get_team_size(1);
                ts2 = omp_get_team_size(2);
            }
            if (omp_get_ancestor_thread_num(1) == 0 && omp_get_thread_num() == 0) {
#pragma omp parallel num_threads(2)
                {
                    third = omp_get_num_threads();
                    lvl3 = omp_get_level();
                    act3 = omp_get_active_level();
                }
            }
        }
    }
    printf("inner teams=%d inner threads=%d level=%d active_level=%d team_size(1)=%d team_size(2)=%d\n",
           (seen[0][0] || seen[0][1]) + (seen[1][0] || seen[1][1]), inner_threads, level, active, ts1, ts2);
    printf("ancestors=");
    for (int a = 0; a < 2; a++)
        for (int t = 0; t < 2; t++)
            if (seen[a][t])
                printf("%s%d,%d", a || t ? " " : "", a, t);
    printf("\nserialized third level: team=%d level=%d active_level=%d\n", third, lvl3, act3);
    return 0;
}
