// nodes_of counts pages per node for any mapped memory, reports untouched pages as unplaced, and fails with EINVAL on NULL, size 0 or unmapped ranges.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, 10 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (int i = 0; i < 4; i++)
        m[i * ps] = 1;
    size_t per[64];
    int un = omp_numa_nodes_of(m, 10 * ps, per);
    size_t sum = 0;
    for (int i = 0; i < omp_numa_num_nodes(); i++)
        sum += per[i];
    printf("unknown mmap: placed %zu unplaced %d\n", sum, un);
    un = omp_numa_nodes_of(m + 3 * ps + 1, ps, per);   /* parts of pages 3 (touched) and 4 */
    printf("partial pages: unplaced %d\n", un);
    EXPECT_ERR("NULL pointer", omp_numa_nodes_of(NULL, ps, per), -1, EINVAL);
    EXPECT_ERR("NULL counts", omp_numa_nodes_of(m, ps, NULL), -1, EINVAL);
    EXPECT_ERR("size 0", omp_numa_nodes_of(m, 0, per), -1, EINVAL);
    munmap(m + 5 * ps, ps);
    EXPECT_ERR("hole", omp_numa_nodes_of(m, 10 * ps, per), -1, EINVAL);
    return 0;
}
// CHECK: unknown mmap: placed 4 unplaced 6
// CHECK-NEXT: partial pages: unplaced 1
// CHECK-NEXT: NULL pointer: ok
// CHECK-NEXT: NULL counts: ok
// CHECK-NEXT: size 0: ok
// CHECK-NEXT: hole: ok
