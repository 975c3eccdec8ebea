// A primary thread moved by omp_numa_update_hints (not by the region loop)
// gets its own mask back when the region ends: the affinity owner saves the
// home mask at the first move, whoever makes it. Run under taskset -c 1 on a
// synthetic 2-node topology of this machine's two CPUs, the hints ask for a
// swap: thread 0 (on CPU 1, node 1) holds the larger buffer, which lives on
// node 0, so it moves to CPU 0 inside the region; serial code after the
// region must run on the mask {1} it started with. The report counts the
// move under "hints".
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,source=hints OMP_PLACEMENT_REPORT=%t.json taskset -c 1 %t | FileCheck %s
// RUN: %python -c "import json,sys; m=json.load(open(sys.argv[1]))['pinning']['moves']; print('hints moves', m['hints']['count'] >= 1)" %t.json | FileCheck %s --check-prefix=REPORT
// CHECK: before: mask of 1 cpu from cpu 1
// CHECK-NEXT: inside: rc 0, primary on cpu 0
// CHECK-NEXT: after: mask of 1 cpu from cpu 1
// REPORT: hints moves True
#define _GNU_SOURCE
#include <omp.h>
#include <omp_numa.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static void print_mask(const char *when)
{
    cpu_set_t m;
    CPU_ZERO(&m);
    sched_getaffinity(0, sizeof m, &m);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &m))
            first = c;
    printf("%s: mask of %d cpu from cpu %d\n", when, CPU_COUNT(&m), first);
}

int main(void)
{
    int rc = -2, cpu = -1;
    print_mask("before");
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        size_t bytes = t == 0 ? (4u << 20) : (1u << 20);
        char *buf = omp_numa_alloc(bytes, OMP_NUMA_BIND, 0);
        memset(buf, 1, bytes);
        omp_numa_attach(buf, bytes, t);
#pragma omp barrier
        if (t == 0) {
            rc = omp_numa_update_hints(OMP_NUMA_NOW);
            cpu = sched_getcpu();
        }
#pragma omp barrier
        omp_numa_detach(buf);
        omp_numa_free(buf);
    }
    printf("inside: rc %d, primary on cpu %d\n", rc, cpu);
    print_mask("after");
    return 0;
}
