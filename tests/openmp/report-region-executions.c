// The JSON report lists each parallel region once, with its execution count
// and team size (two loops of 7 and 3 executions, the second with
// num_threads(1) as a team of one): through the drop-in (regions taken at the
// runtime's ABI) and through the OMPT route (ompnuma's tool on the stock
// runtime).
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: rm -f %t.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: rm -f %t.ompt.json
// RUN: %ompt env OMP_PLACEMENT_REPORT=%t.ompt.json %t | FileCheck %s --check-prefix=OUT
// RUN: for f in %t.json %t.ompt.json; do %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region', r['id'], 'level', r['level'], 'parent', r['parent'], 'team', r['team_size'], 'execs', r['executions']) for r in d['regions']]; print('count', len(d['regions']))" $f | FileCheck %s || exit 1; done
//
// OUT: done 7 3
// CHECK: region 0 level 1 parent -1 team 2 execs 7
// CHECK-NEXT: region 1 level 1 parent -1 team 1 execs 3
// CHECK-NEXT: count 2
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0;
    for (int i = 0; i < 7; i++) {
#pragma omp parallel
#pragma omp single
        a++;
    }
    for (int i = 0; i < 3; i++) {
#pragma omp parallel num_threads(1)
        b++;
    }
    printf("done %d %d\n", a, b);
    return 0;
}
