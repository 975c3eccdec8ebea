// A team of one whose outlined function ends in a nested region: clang makes
// that fork a tail call, whose call site (the nested region's key) is where
// the outlined function was called from. Once settled, such a team runs
// without its trampoline (its primary enters the level itself), and the
// outlined function must still be called from where the trampoline calls it:
// one inner region, with every execution, under the outer one, as on the
// OMPT route, for the team of one forked with __kmpc_fork_call and inside a
// team of two.
// REQUIRES: clang
// RUN: %clang-omp -O1 %s -o %t
// RUN: rm -f %t.1.json %t.2.json %t.ompt.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.1.json %t 1 | FileCheck %s --check-prefix=OUT1
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.2.json %t 2 | FileCheck %s --check-prefix=OUT2
// RUN: %ompt env OMP_PLACEMENT_REPORT=%t.ompt.json %t 1 | FileCheck %s --check-prefix=OUT1
// RUN: for f in %t.1.json %t.ompt.json; do %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('level', r['level'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['parent_thread']))]; print('count', len(d['regions']))" $f | FileCheck %s --check-prefix=ONE || exit 1; done
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('level', r['level'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['parent_thread']))]; print('count', len(d['regions']))" %t.2.json | FileCheck %s --check-prefix=TWO
//
// OUT1: inner 400
// OUT2: inner 800
// ONE: level 1 thread -1 team 1 execs 400
// ONE-NEXT: level 2 thread 0 team 1 execs 400
// ONE-NEXT: count 2
// TWO: level 1 thread -1 team 2 execs 400
// TWO-NEXT: level 2 thread 0 team 1 execs 400
// TWO-NEXT: level 2 thread 1 team 1 execs 400
// TWO-NEXT: count 3
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int outer = argc > 1 ? atoi(argv[1]) : 1, inner = 0;
    omp_set_max_active_levels(2);
    for (int i = 0; i < 400; i++) {
#pragma omp parallel num_threads(outer)
        {
#pragma omp parallel num_threads(1)
            {
#pragma omp atomic
                inner++;
            }
        }
    }
    printf("inner %d\n", inner);
    return 0;
}
