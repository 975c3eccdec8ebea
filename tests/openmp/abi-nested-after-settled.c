// A region that runs settled, whose members the drop-in leaves without
// events (its primary only counts its executions), forks a nested team
// from its 42nd execution on (an untimed one). The drop-in notices (the forking thread is
// inside a team it did not follow) and keeps every member's events from
// then on: the inner team is a region at level 2 under the outer one, one
// per outer thread, and no inner team is ever taken for an outermost
// region. Levels and numbers are the program's as on stock.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t > %t.stock
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region level', r['level'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['parent_thread']))]" %t.json | FileCheck %s --check-prefix=REPORT
// CHECK: inner teams 39 level 2 team 2
// REPORT: region level 1 thread -1 team 2 execs 80
// REPORT-NEXT: region level 2 thread 0 team 2 execs {{3[0-9]|40}}
// REPORT-NEXT: region level 2 thread 1 team 2 execs {{3[0-9]|40}}
// REPORT-NOT: region
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int inner = 0, level = 0, team = 0;
    omp_set_max_active_levels(2);
    for (int k = 0; k < 80; k++) {
#pragma omp parallel num_threads(2)
        {
            if (k >= 41) {
#pragma omp parallel num_threads(2)
                {
#pragma omp master
                    {
#pragma omp atomic
                        inner++;
                        level = omp_get_level();
                        team = omp_get_num_threads();
                    }
                }
            }
        }
    }
    printf("inner teams %d level %d team %d\n", inner / 2, level, team);
    return 0;
}
