// Memory from malloc becomes known after omp_numa_register (any part of it may be migrated or attached), and unknown again after unregister; each bad call fails with EINVAL.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    size_t n = 300000;
    unsigned char *m = malloc(n);
    mt_fill(m, n, 5);
    EXPECT_ERR("migrate before register", omp_numa_migrate_to_node(m, n, 0), -1, EINVAL);
    EXPECT_OK("register", omp_numa_register(m, n));
    EXPECT_OK("migrate part", omp_numa_migrate_to_node(m + 5000, 70000, 0));
    EXPECT_OK("attach part", omp_numa_attach(m + 100, 1000, 1));
    EXPECT_ERR("range past the end", omp_numa_migrate_to_node(m + n - 10, 20, 0), -1, EINVAL);
    EXPECT_ERR("register again", omp_numa_register(m, n), -1, EINVAL);
    EXPECT_ERR("register overlapping", omp_numa_register(m + 10, 10), -1, EINVAL);
    EXPECT_ERR("register NULL", omp_numa_register(NULL, 10), -1, EINVAL);
    EXPECT_ERR("register size 0", omp_numa_register(m, 0), -1, EINVAL);
    EXPECT_ERR("register unmapped", omp_numa_register((void *)4096, 4096), -1, EINVAL);
    EXPECT_ERR("unregister inner pointer", omp_numa_unregister(m + 1), -1, EINVAL);
    void *a = omp_numa_alloc(4096, OMP_NUMA_BIND, 0);
    EXPECT_ERR("unregister an allocation", omp_numa_unregister(a), -1, EINVAL);
    EXPECT_ERR("register inside an allocation", omp_numa_register(a, 100), -1, EINVAL);
    omp_numa_free(a);
    EXPECT_OK("unregister", omp_numa_unregister(m));
    EXPECT_ERR("attachment gone with it", omp_numa_detach(m + 100), -1, EINVAL);
    EXPECT_ERR("unregister twice", omp_numa_unregister(m), -1, EINVAL);
    EXPECT_ERR("migrate after unregister", omp_numa_migrate_to_node(m, n, 0), -1, EINVAL);
    printf("data: %s\n", mt_verify(m, n, 5) ? "intact" : "CORRUPT");
    free(m);
    return 0;
}
// CHECK: migrate before register: ok
// CHECK-NEXT: register: ok
// CHECK-NEXT: migrate part: ok
// CHECK-NEXT: attach part: ok
// CHECK-NEXT: range past the end: ok
// CHECK-NEXT: register again: ok
// CHECK-NEXT: register overlapping: ok
// CHECK-NEXT: register NULL: ok
// CHECK-NEXT: register size 0: ok
// CHECK-NEXT: register unmapped: ok
// CHECK-NEXT: unregister inner pointer: ok
// CHECK-NEXT: unregister an allocation: ok
// CHECK-NEXT: register inside an allocation: ok
// CHECK-NEXT: unregister: ok
// CHECK-NEXT: attachment gone with it: ok
// CHECK-NEXT: unregister twice: ok
// CHECK-NEXT: migrate after unregister: ok
// CHECK-NEXT: data: intact
