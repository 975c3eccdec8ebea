// migrate_to_node leaves every page of the range on the node, creating pages never touched, keeps the data, cancels a next-touch arming, and rejects bad nodes and unknown ranges.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <unistd.h>

static void where(const char *name, const void *p, size_t n)
{
    size_t per[64] = { 0 };
    int un = omp_numa_nodes_of(p, n, per);
    printf("%s: on node 0: %zu unplaced: %d\n", name, per[0], un);
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 64 * ps;
    unsigned char *p = omp_numa_alloc(n, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, n / 2, 9);   /* the second half is never touched */
    where("before", p, n);
    EXPECT_OK("migrate", omp_numa_migrate_to_node(p, n, 0));
    where("after", p, n);
    printf("data: %s\n", mt_verify(p, n / 2, 9) ? "intact" : "CORRUPT");
    int zero = 1;
    for (size_t i = n / 2; i < n; i++)
        zero &= p[i] == 0;
    printf("untouched half reads zero: %s\n", zero ? "yes" : "no");

    EXPECT_OK("arm", omp_numa_migrate_on_next_touch(p, n));
    printf("armed: %s\n", mt_prot(p));
    EXPECT_OK("migrate armed range", omp_numa_migrate_to_node(p + ps, n - ps, 0));
    printf("after migrate page 1: %s\n", mt_prot(p + ps));
    printf("data after disarm: %s\n", mt_verify(p, n / 2, 9) ? "intact" : "CORRUPT");

    EXPECT_OK("sub-page range", omp_numa_migrate_to_node(p + 10, 1, 0));
    EXPECT_ERR("node -1", omp_numa_migrate_to_node(p, n, -1), -1, EINVAL);
    EXPECT_ERR("node beyond", omp_numa_migrate_to_node(p, n, omp_numa_num_nodes()), -1, EINVAL);
    EXPECT_ERR("size 0", omp_numa_migrate_to_node(p, 0, 0), -1, EINVAL);
    EXPECT_ERR("past the end", omp_numa_migrate_to_node(p, n + 1, 0), -1, EINVAL);
    unsigned char stackbuf[64];
    EXPECT_ERR("unknown", omp_numa_migrate_to_node(stackbuf, sizeof stackbuf, 0), -1, EINVAL);
    omp_numa_free(p);
    EXPECT_ERR("freed", omp_numa_migrate_to_node(p, n, 0), -1, EINVAL);
    return 0;
}
// CHECK: before: on node 0: 32 unplaced: 32
// CHECK-NEXT: migrate: ok
// CHECK-NEXT: after: on node 0: 64 unplaced: 0
// CHECK-NEXT: data: intact
// CHECK-NEXT: untouched half reads zero: yes
// CHECK-NEXT: arm: ok
// CHECK-NEXT: armed: ---p
// CHECK-NEXT: migrate armed range: ok
// CHECK-NEXT: after migrate page 1: rw-p
// CHECK-NEXT: data after disarm: intact
// CHECK-NEXT: sub-page range: ok
// CHECK-NEXT: node -1: ok
// CHECK-NEXT: node beyond: ok
// CHECK-NEXT: size 0: ok
// CHECK-NEXT: past the end: ok
// CHECK-NEXT: unknown: ok
// CHECK-NEXT: freed: ok
