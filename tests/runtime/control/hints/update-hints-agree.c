// When the hints agree with where the threads run (one node here), nobody
// moves and the call succeeds; outside a parallel region it fails with EINVAL.
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %dropin env OMP_PLACEMENT_VERBOSE=1 %t 2>&1 | FileCheck %s
#include <errno.h>
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    int rc = -2;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        char *buf = omp_numa_alloc(1 << 20, OMP_NUMA_BIND, 0);
        memset(buf, 1, 1 << 20);
        omp_numa_attach(buf, 1 << 20, t);
#pragma omp barrier
        if (t == 0)
            rc = omp_numa_update_hints(OMP_NUMA_NOW);
#pragma omp barrier
        omp_numa_detach(buf);
        omp_numa_free(buf);
    }
    printf("inside: rc %d\n", rc);
    errno = 0;
    rc = omp_numa_update_hints(OMP_NUMA_NOW);
    printf("outside: rc %d errno %s\n", rc, errno == EINVAL ? "EINVAL" : strerror(errno));
    return 0;
}
// CHECK: update_hints at level 1: 0 of 2 threads moved
// CHECK: inside: rc 0
// CHECK: outside: rc -1 errno EINVAL
