// Attach records a buffer for a thread (replacing an earlier attachment of the same pointer); detach removes it; bad thread numbers, unknown memory and missing attachments fail with EINVAL.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"

int main(void)
{
    char *p = omp_numa_alloc(1 << 20, OMP_NUMA_FIRST_TOUCH, -1);
    EXPECT_OK("attach", omp_numa_attach(p, 1 << 19, 0));
    EXPECT_OK("attach same pointer again", omp_numa_attach(p, 1 << 20, 1));
    EXPECT_OK("attach second half", omp_numa_attach(p + (1 << 19), 1 << 19, 1));
    EXPECT_ERR("thread -1", omp_numa_attach(p, 4096, -1), -1, EINVAL);
    EXPECT_ERR("size 0", omp_numa_attach(p, 0, 0), -1, EINVAL);
    EXPECT_ERR("beyond the allocation", omp_numa_attach(p, (1 << 20) + 1, 0), -1, EINVAL);
    char local[64];
    EXPECT_ERR("unknown memory", omp_numa_attach(local, sizeof local, 0), -1, EINVAL);
    EXPECT_ERR("NULL", omp_numa_attach(NULL, 10, 0), -1, EINVAL);
    EXPECT_OK("detach", omp_numa_detach(p));
    EXPECT_ERR("detach twice", omp_numa_detach(p), -1, EINVAL);
    EXPECT_ERR("detach never attached", omp_numa_detach(p + 4096), -1, EINVAL);
    EXPECT_ERR("detach NULL", omp_numa_detach(NULL), -1, EINVAL);
    omp_numa_free(p);
    EXPECT_ERR("free dropped the other attachment", omp_numa_detach(p + (1 << 19)), -1, EINVAL);
    return 0;
}
// CHECK: attach: ok
// CHECK-NEXT: attach same pointer again: ok
// CHECK-NEXT: attach second half: ok
// CHECK-NEXT: thread -1: ok
// CHECK-NEXT: size 0: ok
// CHECK-NEXT: beyond the allocation: ok
// CHECK-NEXT: unknown memory: ok
// CHECK-NEXT: NULL: ok
// CHECK-NEXT: detach: ok
// CHECK-NEXT: detach twice: ok
// CHECK-NEXT: detach never attached: ok
// CHECK-NEXT: detach NULL: ok
// CHECK-NEXT: free dropped the other attachment: ok
