// stack-home-vm.c: a worker's static TLS and thread control block are written first by the thread that creates it
// (glibc), so on stock they sit on the primary's node for the worker's whole life. With placement on, a member bound
// within one node moves them to that node at its first event (once; the verbose log says how many pages), so its
// TLS is local; OMP_PLACEMENT=off and dry_run leave them where they are, and an unbound member (whose node the runtime does
// not know) is not moved. Nothing past the stack block moves: a vector mapped before the team forks lies right
// above the first worker's stack, and its first page, the primary's, stays on node 0 (taken along to node 1 once,
// it cost STREAM's primary 96 remote misses an execution in the paced 4-node VM). 2x1, started on CPU 0.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -o %t -ldl
// RUN: %numa-vm-run(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores -- %t | FileCheck %s --check-prefix=STOCK
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT=off -- %t | FileCheck %s --check-prefix=STOCK
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT=dry_run -- %t | FileCheck %s --check-prefix=STOCK
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=close --env OMP_PLACES=cores --env OMP_PLACEMENT_VERBOSE=1 -- %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=HOME < %t.out
// RUN: FileCheck %s --check-prefix=LOG < %t.err
// RUN: %numa-vm-dropin(2x1) --start-cpu 0 --env OMP_NUM_THREADS=2 --env OMP_PROC_BIND=false --env OMP_PLACEMENT_VERBOSE=1 -- %t 2>&1 | FileCheck %s --check-prefix=UNBOUND --implicit-check-not="pages of its stack top"
// STOCK: thread 1 runs on node 1: its TLS on node 0, its TCB on node 0
// STOCK: the vector right above its stack: yes, its first page on node 0
// HOME: thread 1 runs on node 1: its TLS on node 1, its TCB on node 1
// HOME: the vector right above its stack: yes, its first page on node 0
// LOG: ompnuma: thread {{[0-9]+}}: {{[1-9][0-9]*}} of the {{[0-9]+}} pages of its stack top, TLS and TCB moved to its node 1
// UNBOUND: thread 1 runs on node {{[01]}}
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <sys/mman.h>
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
    uintptr_t top[2] = {0, 0};
    /* Mapped and written by the primary before the team exists: the first
     * worker's stack is then mapped right below it. The verbose run names
     * code before the team forks, and the runtime maps libdw for that
     * (rt_symbol.c), which would come in between: it is mapped first. */
    dlopen("libdw.so.1", RTLD_NOW);
    size_t bytes = 2u << 20;
    char *vector = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (vector == MAP_FAILED)
        return 1;
    for (size_t i = 0; i < bytes; i += 4096)
        vector[i] = 1;
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            tls_var += rep;
            if (rep == 2 && t < 2) {
                node[t] = cpu_node(sched_getcpu());
                tls[t] = node_of(&tls_var);
                tcb[t] = node_of(__builtin_thread_pointer());
                pthread_attr_t attr;
                void *stack;
                size_t size;
                if (pthread_getattr_np(pthread_self(), &attr) == 0) {
                    if (pthread_attr_getstack(&attr, &stack, &size) == 0) /* up to its static TLS */
                        top[t] = ((uintptr_t)stack + size + 4095) & ~(uintptr_t)4095;
                    pthread_attr_destroy(&attr);
                }
            }
        }
    }
    printf("thread 1 runs on node %d: its TLS on node %d, its TCB on node %d\n", node[1], tls[1], tcb[1]);
    printf("the vector right above its stack: %s, its first page on node %d\n",
           top[1] == (uintptr_t)vector ? "yes" : "no", node_of(vector));
    return 0;
}
