// In a 4-node guest with line distances 10,20,30,40, access costs scale with the distance matrix exactly, and migration costs are positive and grow with size (the model is calibrated inside the guest).
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs -I%S/../memory/Inputs %memlib -lnuma -o %t
// RUN: %numa-vm-run(4x1) -- %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    double local = omp_numa_cost_access(1 << 20, 0, 0, 0);
    for (int to = 1; to < 4; to++)
        printf("read 0->%d / local: %.3f\n", to, omp_numa_cost_access(1 << 20, 0, to, 0) / local);
    printf("write 3->1 / 3->3: %.3f\n", omp_numa_cost_access(4096, 3, 1, 1) / omp_numa_cost_access(4096, 3, 3, 1));
    double m1 = omp_numa_cost_migrate(4096, 0, 1), m2 = omp_numa_cost_migrate(64 << 20, 0, 1);
    printf("migrate: positive %d grows %d\n", m1 > 0, m2 > m1);
    return 0;
}
// CHECK: read 0->1 / local: 2.000
// CHECK-NEXT: read 0->2 / local: 3.000
// CHECK-NEXT: read 0->3 / local: 4.000
// CHECK-NEXT: write 3->1 / 3->3: 3.000
// CHECK-NEXT: migrate: positive 1 grows 1
