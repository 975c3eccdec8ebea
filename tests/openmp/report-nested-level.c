// Nested regions appear in the report at level 2 with their outer region's id
// as parent; the inner region is one entry counting every team that ran it.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: rm -f %t.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region', r['id'], 'level', r['level'], 'parent', r['parent'], 'team', r['team_size'], 'execs', r['executions']) for r in d['regions']]; print('count', len(d['regions']))" %t.json | FileCheck %s
//
// OUT: inner executions 20
// CHECK: region 0 level 1 parent -1 team 2 execs 10
// CHECK-NEXT: region 1 level 2 parent 0 team 2 execs 20
// CHECK-NEXT: count 2
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
