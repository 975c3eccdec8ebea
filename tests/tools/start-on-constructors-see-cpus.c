// start-on-constructors-see-cpus.c: `ompnuma-start-on CPU COMMAND` (the benchmarks' `ompnuma vm --start-cpu`)
// gives the command its CPUs back before a library constructor can read them, so a program linked to GNU
// libgomp binds and places its threads as when run directly. libgomp reads the CPUs in its constructor, before
// the program's entry point (a program's own constructors run after it). Released only at the entry, libgomp
// had built OMP_PLACES of the one CPU it saw and bound the primary there; the release then unbound the primary,
// and its teams of 2 put the worker on the start CPU. So ran every "stock" run of a libgomp program in the VM
// benchmarks until 2026-12-02: ImageMagick's primary ran a third of its instructions on the other node's vCPU,
// 18.9 % of its misses remote against 5.1 % under the drop-in.
// RUN: %gcc-omp %s -o %t
// RUN: %stock OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=threads %t > %t.direct
// RUN: %stock OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=threads %bindir/ompnuma-start-on 0 %t > %t.started
// RUN: diff %t.direct %t.started
// RUN: FileCheck %s < %t.started
// CHECK: main may run on 1 CPU{{$}}
// CHECK: a team of 2: the primary may run on 1 CPU, the worker on 1
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
    printf("main may run on %d CPU%s\n", cpus_seen(), cpus_seen() == 1 ? "" : "s");
    int allowed[2] = {0, 0}, cpu[2] = {-1, -1};
    #pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        allowed[t] = cpus_seen();
        cpu[t] = sched_getcpu();
    }
    printf("a team of 2: the primary may run on %d CPU%s, the worker on %d; on the same CPU: %s\n", allowed[0],
           allowed[0] == 1 ? "" : "s", allowed[1], cpu[0] == cpu[1] ? "yes" : "no");
    return 0;
}
