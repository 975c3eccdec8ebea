// OMP_PLACEMENT's dry_run flag on a topology whose pins could apply
// (HWLOC_THISSYSTEM=1): the CPUs are decided and reported, pins_applied is
// false, and the threads stay where OMP_PROC_BIND=close put them.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: echo "0,1000" > %t.csv
// RUN: echo "1000,0" >> %t.csv
// RUN: rm -f %t.json
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PROC_BIND=close OMP_PLACES=cores OMP_PLACEMENT=critpath,dry_run,sample=1,source=replay:%t.csv,verify=off OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['regions'][0]; print('applied', d['pinning']['applied'], 'mode', d['pinning']['mode']); print('cpus', r['cpus'], 'pins_applied', r['pins_applied'])" %t.json | FileCheck %s
//
// OUT: last execution: thread 0 on cpu 0, thread 1 on cpu 1
// CHECK: applied False mode dry run (OMP_PLACEMENT dry_run): intended CPUs recorded, not applied
// CHECK-NEXT: cpus [1, 0] pins_applied False
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

int main(void)
{
    int cpu[2];
    for (int e = 0; e < 6; e++) {
#pragma omp parallel num_threads(2)
        cpu[omp_get_thread_num()] = sched_getcpu();
    }
    printf("last execution: thread 0 on cpu %d, thread 1 on cpu %d\n", cpu[0], cpu[1]);
    return 0;
}
