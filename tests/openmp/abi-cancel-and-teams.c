// Teams that end early and teams inside a league: a region cancelled by its
// primary (its members return from the outlined function at the barrier,
// through the trampoline's end) is counted every time it runs, on the
// drop-in as through the OMPT route; on the drop-in the parallel regions a
// host teams construct's initial threads fork are regions of level 1 (a
// league is no region ompnuma places), one record for the construct
// whichever team forks it (its team size the runtime's, 1 or 2 by the
// machine's CPUs). (Through OMPT the runtime reports the team each league
// thread runs as a region of its own, with no code address, and the
// program's region under it.) Outputs are stock's.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: env OMP_CANCELLATION=true %stock timeout 120 %t > %t.stock
// RUN: env OMP_CANCELLATION=true OMP_PLACEMENT_REPORT=%t.json %dropin timeout 120 %t > %t.dropin
// RUN: env OMP_CANCELLATION=true OMP_PLACEMENT_REPORT=%t.ompt.json %ompt timeout 120 %t > %t.ompt
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock %t.ompt
// RUN: FileCheck %s < %t.dropin
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', sorted((r['level'], r['team_size'], r['executions']) for r in d['regions'] if r['executions']))" %t.json | FileCheck %s --check-prefix=REPORT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('cancelled region', [(r['level'], r['team_size'], r['executions']) for r in d['regions'] if r['team_size'] == 2])" %t.ompt.json | FileCheck %s --check-prefix=OMPT
// CHECK: cancelled 20 of 20, after the barrier 0
// CHECK-NEXT: inside teams: 20 regions of {{[12]}} threads
// REPORT: regions [(1, {{[12]}}, 20), (1, 2, 20)]
// OMPT: cancelled region [(1, 2, 20)]
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int cancelled = 0, after = 0, inside = 0, size = 0;
    omp_set_max_active_levels(2); /* a league is a level: its teams' own ones come second */
    for (int k = 0; k < 20; k++) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
#pragma omp atomic
                cancelled++;
#pragma omp cancel parallel
            }
#pragma omp barrier
#pragma omp atomic
            after++;
        }
    }
    for (int k = 0; k < 10; k++) {
#pragma omp teams num_teams(2) thread_limit(2)
        {
#pragma omp parallel num_threads(2)
            {
#pragma omp master
                {
#pragma omp atomic
                    inside++;
                    size = omp_get_num_threads();
                }
            }
        }
    }
    printf("cancelled %d of 20, after the barrier %d\n", cancelled, after);
    printf("inside teams: %d regions of %d threads\n", inside, size);
    return 0;
}
