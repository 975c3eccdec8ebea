// omp_numa_update_hints re-places a team from its attach hints inside the
// region: each thread attaches a buffer bound to the other thread's node, and
// after the call (made by the primary alone with OMP_NUMA_NOW, or by every
// thread with OMP_NUMA_AT_BARRIER) each thread runs on its data's node.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %numa-vm-dropin(2x1) --file %t --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT_VERBOSE=1 -- %t now > %t.now 2> %t.now.err
// RUN: FileCheck %s < %t.now
// RUN: FileCheck %s --check-prefix=LOG < %t.now.err
// RUN: %numa-vm-dropin(2x1) --file %t --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT_VERBOSE=1 -- %t barrier > %t.barrier 2> %t.barrier.err
// RUN: FileCheck %s < %t.barrier
// RUN: FileCheck %s --check-prefix=LOG < %t.barrier.err
#define _GNU_SOURCE
#include <omp.h>
#include <omp_numa.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int now = argc > 1 && !strcmp(argv[1], "now");
    int before[2], after[2], rc[2] = {0, 0};
    size_t size = 4u << 20;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        before[t] = omp_numa_node_of_cpu(sched_getcpu());
        char *buf = omp_numa_alloc(size, OMP_NUMA_BIND, 1 - t);
        memset(buf, t + 1, size);
        omp_numa_attach(buf, size, t);
#pragma omp barrier
        if (!now)
            rc[t] = omp_numa_update_hints(OMP_NUMA_AT_BARRIER);
        else if (t == 0)
            rc[t] = omp_numa_update_hints(OMP_NUMA_NOW);
#pragma omp barrier
        after[t] = omp_numa_node_of_cpu(sched_getcpu());
#pragma omp barrier
        omp_numa_detach(buf);
        omp_numa_free(buf);
    }
    for (int t = 0; t < 2; t++)
        printf("thread %d: node %d -> node %d, data on node %d, rc %d\n", t, before[t], after[t], 1 - t, rc[t]);
    return 0;
}
// LOG: update_hints at level 1: 2 of 2 threads moved (2 buffers
// CHECK: thread 0: node 0 -> node 1, data on node 1, rc 0
// CHECK: thread 1: node 1 -> node 0, data on node 0, rc 0
