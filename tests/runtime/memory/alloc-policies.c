// Each allocation policy gives page-aligned, usable memory whose pages are all on a node once touched; every bad argument fails with EINVAL.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <unistd.h>

static void try_policy(const char *name, omp_numa_policy_t pol, int node, size_t size)
{
    long ps = sysconf(_SC_PAGESIZE);
    unsigned char *p = omp_numa_alloc(size, pol, node);
    if (!p) {
        printf("%s: FAIL alloc %s\n", name, strerror(errno));
        return;
    }
    mt_fill(p, size, 3);
    size_t per[64] = { 0 }, placed = 0;
    int unplaced = omp_numa_nodes_of(p, size, per);
    for (int i = 0; i < omp_numa_num_nodes() && i < 64; i++)
        placed += per[i];
    size_t pages = (size + (size_t)ps - 1) / (size_t)ps;
    printf("%s: aligned=%d placed=%s unplaced=%d data=%s\n", name, ((uintptr_t)p % (uintptr_t)ps) == 0,
           placed == pages ? "all" : "some", unplaced, mt_verify(p, size, 3) ? "intact" : "CORRUPT");
    errno = 0;
    omp_numa_free(p);
    printf("%s: free errno=%d\n", name, errno);
}

int main(void)
{
    try_policy("first-touch", OMP_NUMA_FIRST_TOUCH, -1, 1 << 20);
    try_policy("bind small", OMP_NUMA_BIND, 0, 100);
    try_policy("bind large", OMP_NUMA_BIND, 0, 3 << 20);
    try_policy("interleave", OMP_NUMA_INTERLEAVE, -1, 1 << 20);
    try_policy("next-touch", OMP_NUMA_NEXT_TOUCH, -1, 1 << 20);
    try_policy("next-touch from node", OMP_NUMA_NEXT_TOUCH, 0, 1 << 20);

    int n = omp_numa_num_nodes();
    EXPECT_ERR("size 0", omp_numa_alloc(0, OMP_NUMA_FIRST_TOUCH, -1), 0, EINVAL);
    EXPECT_ERR("policy 9", omp_numa_alloc(4096, (omp_numa_policy_t)9, -1), 0, EINVAL);
    EXPECT_ERR("policy -1", omp_numa_alloc(4096, (omp_numa_policy_t)-1, -1), 0, EINVAL);
    EXPECT_ERR("bind no node", omp_numa_alloc(4096, OMP_NUMA_BIND, -1), 0, EINVAL);
    EXPECT_ERR("bind node beyond", omp_numa_alloc(4096, OMP_NUMA_BIND, n), 0, EINVAL);
    EXPECT_ERR("first-touch with node", omp_numa_alloc(4096, OMP_NUMA_FIRST_TOUCH, 0), 0, EINVAL);
    EXPECT_ERR("interleave with node", omp_numa_alloc(4096, OMP_NUMA_INTERLEAVE, 0), 0, EINVAL);
    EXPECT_ERR("next-touch node beyond", omp_numa_alloc(4096, OMP_NUMA_NEXT_TOUCH, n), 0, EINVAL);
    EXPECT_ERR("huge size", omp_numa_alloc((size_t)-1, OMP_NUMA_FIRST_TOUCH, -1), 0, ENOMEM);

    char local[16];
    errno = 0;
    omp_numa_free(local);
    printf("free unknown: errno=%s\n", errno == EINVAL ? "EINVAL" : "other");
    void *p = omp_numa_alloc(4096, OMP_NUMA_BIND, 0);
    omp_numa_free(p);
    errno = 0;
    omp_numa_free(p);
    printf("double free: errno=%s\n", errno == EINVAL ? "EINVAL" : "other");
    errno = 0;
    omp_numa_free(NULL);
    printf("free NULL: errno=%d\n", errno);
    return 0;
}
// CHECK: first-touch: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: first-touch: free errno=0
// CHECK-NEXT: bind small: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: bind small: free errno=0
// CHECK-NEXT: bind large: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: bind large: free errno=0
// CHECK-NEXT: interleave: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: interleave: free errno=0
// CHECK-NEXT: next-touch: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: next-touch: free errno=0
// CHECK-NEXT: next-touch from node: aligned=1 placed=all unplaced=0 data=intact
// CHECK-NEXT: next-touch from node: free errno=0
// CHECK-NEXT: size 0: ok
// CHECK-NEXT: policy 9: ok
// CHECK-NEXT: policy -1: ok
// CHECK-NEXT: bind no node: ok
// CHECK-NEXT: bind node beyond: ok
// CHECK-NEXT: first-touch with node: ok
// CHECK-NEXT: interleave with node: ok
// CHECK-NEXT: next-touch node beyond: ok
// CHECK-NEXT: huge size: ok
// CHECK-NEXT: free unknown: errno=EINVAL
// CHECK-NEXT: double free: errno=EINVAL
// CHECK-NEXT: free NULL: errno=0
