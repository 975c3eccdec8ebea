// Nested regions appear in the report at level 2 with their outer region's id
// as parent; each outer thread's inner team is an entry of its own (its own
// data, CPUs and decision), numbered by the outer thread that forks it.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: rm -f %t.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region', r['id'], 'level', r['level'], 'parent', r['parent'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['parent_thread']))]; print('count', len(d['regions']))" %t.json | FileCheck %s
//
// OUT: inner executions 20
// CHECK: region 0 level 1 parent -1 thread -1 team 2 execs 10
// CHECK-NEXT: region {{[12]}} level 2 parent 0 thread 0 team 2 execs 10
// CHECK-NEXT: region {{[12]}} level 2 parent 0 thread 1 team 2 execs 10
// CHECK-NEXT: count 3
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int inner = 0;
    omp_set_max_active_levels(2);
    for (int i = 0; i < 10; i++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp parallel num_threads(2)
            {
#pragma omp master
                {
#pragma omp atomic
                    inner++;
                }
            }
        }
    }
    printf("inner executions %d\n", inner);
    return 0;
}
