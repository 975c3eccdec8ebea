// imar2-direct-rolls-back.c: when every thread already runs next to its data (the paper's direct test), each migration lowers the total and is rolled back at the next step, the period climbs to its maximum, and the threads end where they started.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_sim.h"

int main(void)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = 0; /* the paper's IMAR2, without the locality gate (no TNT here) */
    p.period_min_ms = 100;
    p.period_max_ms = 1600;
    int start[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, data[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
    sim_t s;
    printf("init %d\n", sim_init(&s, &p, 4, 2, 8, start, data, 2024));
    // CHECK: init 0
    double period[12];
    int pattern = 1;
    for (int i = 0; i < 12; i++) {
        pl_imar_step_t st = sim_step(&s);
        period[i] = st.period_ms;
        /* Even steps migrate (the first has nothing to judge; later ones follow
         * a rollback, whose recovery earns no halving); odd steps roll back. */
        pattern &= st.action == (i % 2 ? PL_IMAR_ROLLBACK : PL_IMAR_MIGRATE);
        if (i % 2)
            pattern &= sim_local(&s) == 8;
    }
    printf("migrate/rollback alternate %d, migrations %d, rollbacks %d\n", pattern, s.migrations, s.rollbacks);
    // CHECK-NEXT: migrate/rollback alternate 1, migrations 6, rollbacks 6
    printf("period:");
    for (int i = 0; i < 12; i++)
        printf(" %.0f", period[i]);
    printf("\n");
    // CHECK-NEXT: period: 100 200 200 400 400 800 800 1600 1600 1600 1600 1600
    int home = 1;
    for (int t = 0; t < 8; t++)
        home &= s.core[t] == start[t];
    printf("every thread on its starting core %d\n", home);
    // CHECK-NEXT: every thread on its starting core 1
    return 0;
}
