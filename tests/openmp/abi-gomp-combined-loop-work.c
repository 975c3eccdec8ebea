// gcc's combined parallel loop (GOMP_parallel_loop_*: no GOMP_loop_*_start
// in the team, each thread takes even its first chunk with _next): the
// drop-in counts its iterations as work for IMAR2's performance, with the
// increment the team was forked with (before: the thread's increment was
// never set, so no chunk counted, and the monitor fell back to "no work").
// The loop steps by 3, so a chunk of 64 iterations spans 192 values. Two
// threads on a synthetic 2-node topology, both started on CPU 0, a replayed
// table that wakes the monitor. Under load (both threads share CPU 0) the
// monitor's first interval may hold no chunk at all: it then counts no work
// until work shows, and says so ("work shows: performance counts work per
// second from now on"); a clean-clone CI met that once.
// REQUIRES: gcc
// ALLOW_RETRIES: 2
// RUN: %gcc-omp %s -o %t
// RUN: printf '0,1000\n1000,0\n' > %t.csv
// RUN: env OMP_NUM_THREADS=2 HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 \
// RUN:     OMP_PLACEMENT=critpath,sample=1,verify=off,migrate=imar2,source=replay:%t.csv,period=5,remote_min=0 \
// RUN:     OMP_PLACEMENT_VERBOSE=2 %dropin taskset -c 0 %t 2>&1 | FileCheck %s
// CHECK: monitor: thread {{[01]}} work {{[1-9][0-9][0-9][0-9]+}} cpu
// CHECK: performance counts work per second
// CHECK: sum 
#include <omp.h>
#include <stdio.h>

#define N (3 << 16)
static double a[N];

int main(void)
{
    for (int r = 0; r < 2000; r++) {
#pragma omp parallel for schedule(dynamic, 64)
        for (int i = 0; i < N; i += 3)
            a[i] += 0.5;
    }
    double s = 0;
    for (int i = 0; i < N; i += 3)
        s += a[i];
    printf("sum %g\n", s);
    return 0;
}
