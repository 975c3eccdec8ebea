// gcc's older region ABI: GOMP_parallel_start forks the team, the primary
// calls the outlined function itself, GOMP_parallel_end joins. Through the
// libgomp.so.1 drop-in every member runs it as on GNU libgomp (numbers,
// team sizes, levels), also nested inside a region of the newer ABI
// (GOMP_parallel), and each team is a region of ompnuma's report with all
// its executions: the outer ones at level 1, the inner one at level 2 once
// per outer thread; a team that a false if clause serializes is a team of
// one.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock %t 0 > %t.stock
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t 0 > %t.dropin
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s < %t.dropin
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); [print('region level', r['level'], 'thread', r['parent_thread'], 'team', r['team_size'], 'execs', r['executions']) for r in sorted(d['regions'], key=lambda r: (r['level'], r['team_size'], r['parent_thread']))]" %t.json | FileCheck %s --check-prefix=REPORT
// CHECK: start/end: threads seen 3, team 2, level 1
// CHECK-NEXT: nested start/end: threads seen 3, team 2, level 2
// CHECK-NEXT: if-false: team 1, level 1
// REPORT: region level 1 thread -1 team 1 execs 20
// REPORT-NEXT: region level 1 thread -1 team 2 execs 20
// REPORT-NEXT: region level 1 thread -1 team 2 execs 20
// REPORT-NEXT: region level 2 thread 0 team 2 execs 20
// REPORT-NEXT: region level 2 thread 1 team 2 execs 20
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
void GOMP_parallel_end(void);

typedef struct seen {
    int mask, team, level;
} seen_t;

static void body(void *p)
{
    seen_t *s = p;
#pragma omp critical
    {
        s->mask |= 1 << omp_get_thread_num();
        s->team = omp_get_num_threads();
        s->level = omp_get_level();
    }
}

int main(int argc, char **argv)
{
    int on = argc > 1 && atoi(argv[1]);
    seen_t outer = {0}, inner = {0};
    int team = 0, level = 0;
    omp_set_max_active_levels(2);
    for (int k = 0; k < 20; k++) {
        GOMP_parallel_start(body, &outer, 2);
        body(&outer);
        GOMP_parallel_end();
#pragma omp parallel num_threads(2)
        {
            GOMP_parallel_start(body, &inner, 2);
            body(&inner);
            GOMP_parallel_end();
        }
#pragma omp parallel if (on)
        {
            team = omp_get_num_threads();
            level = omp_get_level();
        }
    }
    printf("start/end: threads seen %d, team %d, level %d\n", outer.mask, outer.team, outer.level);
    printf("nested start/end: threads seen %d, team %d, level %d\n", inner.mask, inner.team, inner.level);
    printf("if-false: team %d, level %d\n", team, level);
    return 0;
}
