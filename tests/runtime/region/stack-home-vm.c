// stack-home-vm.c: a worker's static TLS and thread control block are written first by the thread that creates it
// (glibc), so on stock they sit on the primary's node for the worker's whole life. With placement on, a member bound
// within one node moves them to that node at its first event (once; the verbose log says how many pages), so its
// TLS is local; OMP_PLACEMENT=off leaves them where they are, and an unbound member (whose node the runtime does
// not know) is not moved. 2x1, started on CPU 0.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -o %t
// RUN: %numa-vm-run(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores -- %t | FileCheck %s --check-prefix=STOCK
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT=off -- %t | FileCheck %s --check-prefix=STOCK
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT_VERBOSE=1 -- %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=HOME < %t.out
// RUN: FileCheck %s --check-prefix=LOG < %t.err
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=false --env OMP_PLACEMENT_VERBOSE=1 -- %t 2>&1 | FileCheck %s --check-prefix=UNBOUND --implicit-check-not="pages of its stack top"
// STOCK: thread 1 runs on node 1: its TLS on node 0, its TCB on node 0
// HOME: thread 1 runs on node 1: its TLS on node 1, its TCB on node 1
// LOG: ompnuma: thread {{[0-9]+}}: {{[1-9][0-9]*}} of the {{[0-9]+}} pages of its stack top, TLS and TCB moved to its node 1
// UNBOUND: thread 1 runs on node {{[01]}}
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static __thread int tls_var = 1;

static int node_of(const void *p)
{
    void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
    int status = -1;
    syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0);
    return status;
}

static int cpu_node(int cpu)
{
    return cpu; /* 2x1: one CPU per node */
}

int main(void)
{
    int node[2] = {-1, -1}, tls[2] = {-1, -1}, tcb[2] = {-1, -1};
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            tls_var += rep;
            if (rep == 2 && t < 2) {
                node[t] = cpu_node(sched_getcpu());
                tls[t] = node_of(&tls_var);
                tcb[t] = node_of(__builtin_thread_pointer());
            }
        }
    }
    printf("thread 1 runs on node %d: its TLS on node %d, its TCB on node %d\n", node[1], tls[1], tcb[1]);
    return 0;
}
