// Pinning seen with sched_getcpu: on a synthetic topology laid over this
// 2-CPU machine (2 nodes, CPU 0 on node 0 and CPU 1 on node 1, applied with
// HWLOC_THISSYSTEM=1), a replayed TNT where thread 0 references only node 1
// and thread 1 only node 0 makes critpath swap them after the one sampling
// execution: thread 0 runs on CPU 1 and thread 1 on CPU 0 from then on.
// OMP_PROC_BIND=close starts them on CPUs 0 and 1, so the decision always
// differs from where they are. The report records the same mapping.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: echo "0,1000" > %t.csv
// RUN: echo "1000,0" >> %t.csv
// RUN: rm -f %t.json
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PROC_BIND=close OMP_PLACES=cores OMP_PLACEMENT=critpath,sample=1,source=replay:%t.csv,verify=off OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['regions'][0]; print('nodes', d['topology']['nodes'], 'applied', d['pinning']['applied'], 'source', d['source']['used']); print('mapping', r['mapping'], 'cpus', r['cpus'], 'pins_applied', r['pins_applied'])" %t.json | FileCheck %s --check-prefix=JSON
//
// CHECK: first execution: thread 0 on cpu 0, thread 1 on cpu 1
// CHECK-NEXT: execution 3: thread 0 on cpu 1, thread 1 on cpu 0
// CHECK-NEXT: execution 4: thread 0 on cpu 1, thread 1 on cpu 0
// CHECK-NEXT: execution 5: thread 0 on cpu 1, thread 1 on cpu 0
// JSON: nodes 2 applied True source replay
// JSON-NEXT: mapping [1, 0] cpus [1, 0] pins_applied True
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

static void run_once(int cpu[2])
{
#pragma omp parallel num_threads(2)
    cpu[omp_get_thread_num()] = sched_getcpu();
}

int main(void)
{
    int cpu[2];
    run_once(cpu);
    printf("first execution: thread 0 on cpu %d, thread 1 on cpu %d\n", cpu[0], cpu[1]);
    for (int e = 2; e <= 5; e++) {
        run_once(cpu);
        if (e >= 3)
            printf("execution %d: thread 0 on cpu %d, thread 1 on cpu %d\n", e, cpu[0], cpu[1]);
    }
    return 0;
}
