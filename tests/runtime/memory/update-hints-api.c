// omp_numa_update_hints rejects an unknown mode with EINVAL, from serial code and from a team.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    EXPECT_ERR("serial", omp_numa_update_hints((omp_numa_sync_t)5), -1, EINVAL);
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
// CHECK-NEXT: in a team: 0 wrong
