// The drop-in's start-up reads this machine's NUMA nodes from sysfs, a few
// files a node, not hwloc's whole topology (every CPU's topology, caches and
// frequencies, the memory attributes, DMI): in the paced 2-node VM hwloc's
// load took 520-780 ms of model time at the program's first region, which
// OMP_PLACEMENT=off never pays (rt_topology.c, load_sysfs). Counted here as
// the read system calls the process makes from before its first region to
// after it (/proc/self/io, every thread's), stock against the drop-in with
// the defaults: with hwloc's load, 81 more than stock on this project's
// 1-node, 2-CPU machine kind; now fewer than 40 more. Steered to hwloc (an
// HWLOC_ variable), the count goes back up: the test sees the difference.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t > %t.stock
// RUN: %dropin %t > %t.dropin
// RUN: %dropin env HWLOC_HIDE_ERRORS=0 %t > %t.hwloc
// RUN: %python -c "import sys; r = [int(open(f).read().split()[-1]) for f in sys.argv[1:]]; print('sysfs', 'fewer' if r[1] - r[0] < 40 else 'more', 'hwloc', 'fewer' if r[2] - r[0] < 40 else 'more')" %t.stock %t.dropin %t.hwloc | FileCheck %s
// CHECK: sysfs fewer hwloc more
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* The read system calls this process made so far. */
static long reads(void)
{
    char line[128];
    long v = -1;
    FILE *f = fopen("/proc/self/io", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "syscr:", 6))
            sscanf(line + 6, "%ld", &v);
    if (f)
        fclose(f);
    return v;
}

int main(void)
{
    long before = reads();
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += 1;
    long after = reads();
    printf("team %d, reads %ld\n", n > 0, after - before);
    return 0;
}
