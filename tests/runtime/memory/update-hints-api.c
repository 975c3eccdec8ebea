// omp_numa_update_hints rejects an unknown mode with EINVAL, from serial code and from a team, and a valid
// one from serial code, where there is no team to re-place (EINVAL, as its contract says).
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    EXPECT_ERR("serial", omp_numa_update_hints((omp_numa_sync_t)5), -1, EINVAL);
    EXPECT_ERR("serial, now", omp_numa_update_hints(OMP_NUMA_NOW), -1, EINVAL);
    EXPECT_ERR("serial, at the barrier", omp_numa_update_hints(OMP_NUMA_AT_BARRIER), -1, EINVAL);
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        errno = 0;
        bad += !(omp_numa_update_hints((omp_numa_sync_t)-1) == -1 && errno == EINVAL);
    }
    printf("in a team: %d wrong\n", bad);
    return 0;
}
// CHECK: serial: ok
// CHECK-NEXT: serial, now: ok
// CHECK-NEXT: serial, at the barrier: ok
// CHECK-NEXT: in a team: 0 wrong
