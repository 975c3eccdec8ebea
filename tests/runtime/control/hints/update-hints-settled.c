// omp_numa_update_hints succeeds in every execution of a region, also once
// the region has settled: the drop-ins then run a settled team's own outlined
// function with no member events (an idle team), so the calling thread had
// no record of its region and the call failed with EINVAL from the first
// untimed execution on. A program that attaches a buffer keeps its teams'
// member events, and a call with nothing of its team attached needs no
// record: it succeeds wherever it is made inside a region. Through both
// drop-ins (clang's libomp entry points, gcc's libgomp ones), one node and a
// synthetic two.
// REQUIRES: clang, gcc
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %gcc-omp %s %libompnuma -o %t.gcc
// RUN: %dropin %t | FileCheck %s
// RUN: %dropin %t.gcc | FileCheck %s
// RUN: %dropin env HWLOC_SYNTHETIC="node:2 core:1 pu:1" HWLOC_THISSYSTEM=1 %t | FileCheck %s
// RUN: %dropin env HWLOC_SYNTHETIC="node:2 core:1 pu:1" HWLOC_THISSYSTEM=1 %t.gcc | FileCheck %s
// CHECK: before attaching: 30 of 30 calls returned 0
// CHECK-NEXT: attached: 30 of 30 calls returned 0
#include <errno.h>
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>
#include <string.h>

static char buf[2][1 << 16] __attribute__((aligned(4096)));

/* Thread t's part of execution i; thread 0 asks for a re-placement. */
static void body(int i, int attach, int *ok)
{
    int t = omp_get_thread_num();
    memset(buf[t], i, sizeof buf[t]);
    if (attach && i == 0)
        omp_numa_attach(buf[t], sizeof buf[t], t);
#pragma omp barrier
    if (t == 0) {
        errno = 0;
        int rc = omp_numa_update_hints(OMP_NUMA_NOW);
        *ok += rc == 0;
        if (rc != 0 && *ok < 3)
            printf("execution %d: %d (%s)\n", i, rc, strerror(errno));
    }
}

int main(void)
{
    int ok = 0;
    for (int i = 0; i < 30; i++) {
#pragma omp parallel num_threads(2)
        body(i, 0, &ok);
    }
    printf("before attaching: %d of 30 calls returned 0\n", ok);
    ok = 0;
    for (int i = 0; i < 30; i++) { /* another region: attached in its first execution */
#pragma omp parallel num_threads(2)
        body(i, 1, &ok);
    }
    printf("attached: %d of 30 calls returned 0\n", ok);
    return 0;
}
