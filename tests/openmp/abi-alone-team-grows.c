// A team of one settles with a region forked inside (its primary enters the
// level itself and runs om_abi_microtask_alone), then the same region forms
// two threads (omp_set_num_threads(2): the key, num_threads absent, is the
// same). Until a timed execution finds the size that formed, the team still
// runs om_abi_microtask_alone, on both threads: the second must enter its
// level too, or the team it forks inside is keyed at level 0 and reported
// as an outermost region. As on the OMPT route: two regions at level 1.
// REQUIRES: clang
// RUN: %clang-omp -O1 %s -o %t
// RUN: rm -f %t.json %t.ompt.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: %ompt env OMP_PLACEMENT_REPORT=%t.ompt.json %t | FileCheck %s --check-prefix=OUT
// RUN: for f in %t.json %t.ompt.json; do %python -c "import json,sys; d=json.load(open(sys.argv[1])); rs=d['regions']; print('level1', sum(r['level'] == 1 for r in rs), 'level2-thread1', sum(r['level'] == 2 and r['parent_thread'] == 1 for r in rs) > 0)" $f | FileCheck %s || exit 1; done
//
// OUT: inner 600 outer 600
// CHECK: level1 2 level2-thread1 True
#include <omp.h>
#include <stdio.h>

static int inner, outer;

static __attribute__((noinline)) void region(void)
{
#pragma omp parallel
    {
#pragma omp atomic
        outer++;
#pragma omp parallel num_threads(1)
        {
#pragma omp atomic
            inner++;
        }
    }
    __asm__ volatile("" ::: "memory"); /* no tail call: one call site for the region */
}

int main(void)
{
    omp_set_max_active_levels(2);
    omp_set_num_threads(1);
    for (int i = 0; i < 200; i++)
        region();
    omp_set_num_threads(2);
    for (int i = 0; i < 200; i++)
        region();
    printf("inner %d outer %d\n", inner, outer);
    return 0;
}
