// Cost queries: migration is 0 within a node and grows with size, access costs are positive, grow with size and answer for reads and writes; bad sizes and nodes give a negative cost with EINVAL.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && env XDG_CACHE_HOME=%t.cache %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    int n = omp_numa_num_nodes();
    printf("migrate within node: %g\n", omp_numa_cost_migrate(1 << 20, 0, 0));
    double r1 = omp_numa_cost_access(4096, 0, 0, 0), r2 = omp_numa_cost_access(1 << 24, 0, 0, 0);
    double w1 = omp_numa_cost_access(4096, 0, 0, 1), w2 = omp_numa_cost_access(1 << 24, 0, 0, 1);
    printf("read: positive %d, grows %d\n", r1 > 0, r2 > r1);
    printf("write: positive %d, grows %d\n", w1 > 0, w2 > w1);
    /* 16 MiB at any real bandwidth (0.1 .. 1000 GB/s) */
    printf("16 MiB read plausible: %d\n", r2 > 16.0 && r2 < 200000.0);
    if (n > 1) {
        double m1 = omp_numa_cost_migrate(4096, 0, 1), m2 = omp_numa_cost_migrate(1 << 20, 0, 1);
        printf("migrate grows: %d\n", m2 > m1 && m1 > 0);
    } else {
        printf("migrate grows: 1\n");
    }
    EXPECT_ERR("migrate size 0", omp_numa_cost_migrate(0, 0, 0) < 0 ? -1 : 0, -1, EINVAL);
    EXPECT_ERR("migrate from -1", omp_numa_cost_migrate(4096, -1, 0) < 0 ? -1 : 0, -1, EINVAL);
    EXPECT_ERR("migrate to beyond", omp_numa_cost_migrate(4096, 0, n) < 0 ? -1 : 0, -1, EINVAL);
    EXPECT_ERR("access size 0", omp_numa_cost_access(0, 0, 0, 0) < 0 ? -1 : 0, -1, EINVAL);
    EXPECT_ERR("access from beyond", omp_numa_cost_access(64, n, 0, 0) < 0 ? -1 : 0, -1, EINVAL);
    EXPECT_ERR("access to -1", omp_numa_cost_access(64, 0, -1, 1) < 0 ? -1 : 0, -1, EINVAL);
    return 0;
}
// CHECK: migrate within node: 0
// CHECK-NEXT: read: positive 1, grows 1
// CHECK-NEXT: write: positive 1, grows 1
// CHECK-NEXT: 16 MiB read plausible: 1
// CHECK-NEXT: migrate grows: 1
// CHECK-NEXT: migrate size 0: ok
// CHECK-NEXT: migrate from -1: ok
// CHECK-NEXT: migrate to beyond: ok
// CHECK-NEXT: access size 0: ok
// CHECK-NEXT: access from beyond: ok
// CHECK-NEXT: access to -1: ok
