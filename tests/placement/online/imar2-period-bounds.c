// imar2-period-bounds.c: the migration period doubles on each drop below the ratio up to period_max, halves on each productive migration down to period_min, and stays at its bounds.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

static const int core_node[4] = { 0, 0, 1, 1 };

int main(void)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = 0; /* the paper's IMAR2, without the locality gate (no TNT here) */
    p.period_min_ms = 250;
    p.period_max_ms = 1500;   /* not a power-of-two multiple: the last doubling is cut */
    pl_imar_t im;
    int core[4] = { 0, 1, 2, 3 };
    double record[8];
    pl_imar_dest_t d[8];
    pl_imar_init(&im, &p, 2, 4, core_node, 4, core, NULL, record, 11);
    printf("start %.0f\n", im.period_ms);
    // CHECK: start 250

    /* Falling totals: every step is below 0.97 x the previous one. Each
     * decision is applied, so drops alternate rollback / migrate. */
    double scale = 1;
    for (int i = 0; i < 7; i++) {
        double perf[4] = { 1 * scale, 2 * scale, 2 * scale, 2 * scale };
        pl_imar_step_t st;
        pl_imar2_step(&im, perf, d, 8, &st);
        printf("down %d: %s %+d %.0f\n", i, pl_imar_action_name(st.action), st.period_change, st.period_ms);
        pl_imar_apply(&im, &st.move);
        scale *= 0.5;
    }
    // CHECK-NEXT: down 0: migrate +0 250
    // CHECK-NEXT: down 1: rollback +1 500
    // CHECK-NEXT: down 2: migrate +1 1000
    // CHECK-NEXT: down 3: rollback +1 1500
    // CHECK-NEXT: down 4: migrate +0 1500
    // CHECK-NEXT: down 5: rollback +0 1500
    // CHECK-NEXT: down 6: migrate +0 1500

    /* Rising totals after applied migrations: halve down to the minimum. */
    scale = 1;
    for (int i = 0; i < 6; i++) {
        double perf[4] = { 1 * scale, 2 * scale, 2 * scale, 2 * scale };
        pl_imar_step_t st;
        pl_imar2_step(&im, perf, d, 8, &st);
        printf("up %d: %s %+d %.0f\n", i, pl_imar_action_name(st.action), st.period_change, st.period_ms);
        pl_imar_apply(&im, &st.move);
        scale *= 2;
    }
    // The first rise follows step down 6's applied migration: it halves too.
    // CHECK-NEXT: up 0: migrate -1 750
    // CHECK-NEXT: up 1: migrate -1 375
    // CHECK-NEXT: up 2: migrate -1 250
    // CHECK-NEXT: up 3: migrate +0 250
    // CHECK-NEXT: up 4: migrate +0 250
    // CHECK-NEXT: up 5: migrate +0 250

    /* period_min == period_max: the period never changes. */
    p.period_min_ms = p.period_max_ms = 500;
    pl_imar_init(&im, &p, 2, 4, core_node, 4, core, NULL, record, 11);
    int changed = 0;
    for (int i = 0; i < 8; i++) {
        double k = (i & 1) ? 0.1 : 10;
        double perf[4] = { k, 2 * k, 2, 2 };
        pl_imar_step_t st;
        pl_imar2_step(&im, perf, d, 8, &st);
        changed |= st.period_change != 0 || st.period_ms != 500;
        pl_imar_apply(&im, &st.move);
    }
    printf("fixed period changed %d\n", changed);
    // CHECK-NEXT: fixed period changed 0
    return 0;
}
