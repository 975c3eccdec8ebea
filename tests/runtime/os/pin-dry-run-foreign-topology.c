// Dry run on a foreign topology: the same synthetic topology and replayed TNT
// as pin-replay-sched-getcpu.c but without HWLOC_THISSYSTEM=1: the decision
// and its CPUs are recorded in the report, yet no pin is applied, and the
// report says why.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: echo "0,1000" > %t.csv
// RUN: echo "1000,0" >> %t.csv
// RUN: rm -f %t.json
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PROC_BIND=close OMP_PLACES=cores OMP_PLACEMENT=critpath,sample=1,source=replay:%t.csv,verify=off OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['regions'][0]; print('this_system', d['topology']['this_system'], 'applied', d['pinning']['applied'], 'mode', d['pinning']['mode']); print('mapping', r['mapping'], 'cpus', r['cpus'], 'pins_applied', r['pins_applied'])" %t.json | FileCheck %s
//
// OUT: executions 6
// CHECK: this_system False applied False mode dry run: the topology is not this machine (set HWLOC_THISSYSTEM=1 to apply pins)
// CHECK-NEXT: mapping [1, 0] cpus [1, 0] pins_applied False
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int e = 0; e < 6; e++) {
#pragma omp parallel num_threads(2)
#pragma omp master
        n++;
    }
    printf("executions %d\n", n);
    return 0;
}
