// Reading the topology never moves the program's primary thread: hwloc's x86
// backend binds the calling thread to every CPU in turn (cpuid), and ompnuma
// reads the topology on the primary at its first OpenMP construct, so pages
// the primary first-touched meanwhile landed on other nodes
// (rt_topology.c). The program counts the calls that bind its primary to
// one CPU, through libc (this executable's sched_setaffinity and
// pthread_setaffinity_np interpose libc's for every library); with the
// defaults, which pin nothing here, the drop-in makes exactly the calls the
// stock runtime makes. Before the fix: 2 more on 2 CPUs, hwloc's.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t -ldl -Wl,--export-dynamic-symbol=sched_setaffinity -Wl,--export-dynamic-symbol=pthread_setaffinity_np
// RUN: %stock %t > %t.stock
// RUN: %dropin %t > %t.dropin
// RUN: %dropin env OMP_PLACEMENT=off %t > %t.off
// RUN: FileCheck %s < %t.stock
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock %t.off
//
// CHECK: primary bound to one CPU {{[0-9]+}} times; its mask at the end: [[ALL:[0-9]+]] CPUs of [[ALL]]
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static int binds; /* calls that bound the primary to one CPU */

static void count(pid_t tid, size_t size, const cpu_set_t *set)
{
    if ((tid == 0 ? (pid_t)syscall(SYS_gettid) : tid) == getpid() && CPU_COUNT_S(size, set) == 1)
        __atomic_add_fetch(&binds, 1, __ATOMIC_RELAXED);
}

int sched_setaffinity(pid_t tid, size_t size, const cpu_set_t *set)
{
    static int (*real)(pid_t, size_t, const cpu_set_t *);
    if (!real)
        real = (int (*)(pid_t, size_t, const cpu_set_t *))dlsym(RTLD_NEXT, "sched_setaffinity");
    count(tid, size, set);
    return real(tid, size, set);
}

int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *set)
{
    static int (*real)(pthread_t, size_t, const cpu_set_t *);
    if (!real)
        real = (int (*)(pthread_t, size_t, const cpu_set_t *))dlsym(RTLD_NEXT, "pthread_setaffinity_np");
    if (pthread_equal(thread, pthread_self()))
        count(0, size, set);
    return real(thread, size, set);
}

int main(void)
{
    cpu_set_t before, after;
    sched_getaffinity(0, sizeof before, &before);
    int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    sched_getaffinity(0, sizeof after, &after);
    printf("primary bound to one CPU %d times; its mask at the end: %d CPUs of %d\n", binds, CPU_COUNT(&after),
           CPU_COUNT(&before));
    return sum == 3 ? 0 : 1;
}
