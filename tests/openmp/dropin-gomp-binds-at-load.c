// gcc programs see on the libgomp.so.1 drop-in the binding they see on libgomp, from their first line: libgomp
// binds the initial thread as it loads where the environment asks for a binding (OMP_PROC_BIND other than
// false, else OMP_PLACES or GOMP_CPU_AFFINITY), so the serial code before the first construct runs, and
// first-touches its data, on the first place. libomp binds its primary at its first construct; the drop-in
// had main run on every CPU until then.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: for e in OMP_PROC_BIND=close+OMP_PLACES=threads OMP_PROC_BIND=true OMP_PLACES=threads OMP_PROC_BIND=spread,close \
// RUN:          OMP_PROC_BIND=false+OMP_PLACES=threads OMP_PROC_BIND=false OMP_NUM_THREADS=2 GOMP_CPU_AFFINITY=0; do \
// RUN:   %stock OMP_NUM_THREADS=2 $(echo $e | tr + ' ') %t; done > %t.stock
// RUN: for e in OMP_PROC_BIND=close+OMP_PLACES=threads OMP_PROC_BIND=true OMP_PLACES=threads OMP_PROC_BIND=spread,close \
// RUN:          OMP_PROC_BIND=false+OMP_PLACES=threads OMP_PROC_BIND=false OMP_NUM_THREADS=2 GOMP_CPU_AFFINITY=0; do \
// RUN:   %dropin OMP_NUM_THREADS=2 $(echo $e | tr + ' ') %t; done > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// CHECK:      main: 1 CPU; team: 1 CPU each, on different CPUs: yes
// CHECK-NEXT: main: 1 CPU; team: 1 CPU each, on different CPUs: yes
// CHECK-NEXT: main: 1 CPU; team: 1 CPU each, on different CPUs: yes
// CHECK-NEXT: main: 1 CPU; team: 1 CPU each, on different CPUs: yes
// CHECK-NEXT: main: [[ALL:[0-9]+]] CPUs; team: [[ALL]], [[ALL]] CPUs
// CHECK-NEXT: main: [[ALL]] CPUs; team: [[ALL]], [[ALL]] CPUs
// CHECK-NEXT: main: [[ALL]] CPUs; team: [[ALL]], [[ALL]] CPUs
// CHECK-NEXT: main: 1 CPU; team: 1 CPU each, on different CPUs: no
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

static int cpus_seen(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
}

int main(void)
{
    int main_cpus = cpus_seen(), allowed[2] = {0, 0}, cpu[2] = {-1, -1};
    #pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        allowed[t] = cpus_seen();
        cpu[t] = sched_getcpu();
    }
    printf("main: %d CPU%s; ", main_cpus, main_cpus == 1 ? "" : "s");
    if (allowed[0] == 1 && allowed[1] == 1)
        printf("team: 1 CPU each, on different CPUs: %s\n", cpu[0] != cpu[1] ? "yes" : "no");
    else
        printf("team: %d, %d CPUs\n", allowed[0], allowed[1]);
    return 0;
}
