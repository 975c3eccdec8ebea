// Teams of one thread on the drop-in, each a region of its own in the
// report as with OMPT: a region whose if clause is false (clang calls the
// outlined function itself between __kmpc_serialized_parallel and
// __kmpc_end_serialized_parallel), a team of num_threads(1), and an inner
// team beyond the active levels allowed (the runtime serializes it through
// the same entry points, from inside itself: those calls are its own).
// Levels and numbers are the same as on stock; the inner regions are at
// level 2 under their outer region, one per outer thread; the OMPT route
// (ompnuma's tool on the stock runtime) reports the same regions.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t 0 > %t.stock
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t 0 > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// RUN: %ompt env OMP_PLACEMENT_REPORT=%t.ompt.json %t 0 > %t.ompt
// RUN: diff %t.stock %t.ompt
// RUN: for f in %t.json %t.ompt.json; do %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region level', r['level'], 'parent', r['parent'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['team_size'], r['parent_thread']))]" $f | FileCheck %s --check-prefix=REPORT || exit 1; done
// CHECK: if-false team 1 level 1 active 0
// CHECK-NEXT: one team 1 level 1
// CHECK-NEXT: inner team 1 level 2 active 1
// REPORT: region level 1 parent -1 thread -1 team 1 execs 30
// REPORT-NEXT: region level 1 parent -1 thread -1 team 1 execs 30
// REPORT-NEXT: region level 1 parent -1 thread -1 team 2 execs 30
// REPORT-NEXT: region level 2 parent {{[0-9]+}} thread 0 team 1 execs 30
// REPORT-NEXT: region level 2 parent {{[0-9]+}} thread 1 team 1 execs 30
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int on = argc > 1 && atoi(argv[1]);
    int t1 = 0, l1 = 0, a1 = 0, t2 = 0, l2 = 0, t3 = 0, l3 = 0, a3 = 0;
    omp_set_max_active_levels(1);
    for (int k = 0; k < 30; k++) {
#pragma omp parallel if (on)
        {
            t1 = omp_get_num_threads();
            l1 = omp_get_level();
            a1 = omp_get_active_level();
        }
#pragma omp parallel num_threads(1)
        {
            t2 = omp_get_num_threads();
            l2 = omp_get_level();
        }
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
        {
#pragma omp critical
            {
                t3 = omp_get_num_threads();
                l3 = omp_get_level();
                a3 = omp_get_active_level();
            }
        }
    }
    printf("if-false team %d level %d active %d\n", t1, l1, a1);
    printf("one team %d level %d\n", t2, l2);
    printf("inner team %d level %d active %d\n", t3, l3, a3);
    return 0;
}
