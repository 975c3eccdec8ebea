// imar2-rollback.c: a drop below ratio x the previous total rolls the last applied interchange back (nothing else moves) and the restored mapping rests for the doubled period, a rise after a rollback keeps the period, a trial kept without a rise rests, a rise after a trial draws the next at once, and moves nobody applied or someone else undid are never rolled back.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

/* 2 nodes x 2 cores, 4 threads of one group: threads 0, 1 on node 0, 2, 3 on node 1. */
static const int core_node[4] = { 0, 0, 1, 1 };
static pl_imar_t im;
static int core[4] = { 0, 1, 2, 3 };
static double record[8];
static pl_imar_dest_t d[8];

static pl_imar_step_t step(double a, double b, double c, double e)
{
    double perf[4] = { a, b, c, e };
    pl_imar_step_t st;
    int rc = pl_imar2_step(&im, perf, d, 8, &st);
    printf("rc %d total %.1f prev %.1f: %s", rc, st.total, st.prev_total, pl_imar_action_name(st.action));
    if (st.action != PL_IMAR_NONE)
        printf(" thread %d core %d -> %d partner %d%s", st.move.thread, st.move.from_core,
               st.move.to_core, st.move.partner, st.move.rollback ? " (rollback)" : "");
    printf(", period %+d = %.0f ms, next step in %.0f ms%s\n", st.period_change, st.period_ms, st.next_ms,
           st.rest ? " (rest)" : "");
    return st;
}

int main(void)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = 0; /* the paper's IMAR2, without the locality gate (no TNT here) */
    p.ratio = 0.9;
    p.period_min_ms = 100;
    p.period_max_ms = 800;
    printf("init %d\n", pl_imar_init(&im, &p, 2, 4, core_node, 4, core, NULL, record, 3));
    // CHECK: init 0

    /* 1. First interval: nothing to compare with; the worst thread (0)
     *    migrates, and the trial is judged after the shortest period. */
    pl_imar_step_t s1 = step(1, 2, 2, 2);
    // CHECK: rc 0 total 7.0 prev -1.0: migrate thread 0 core 0 -> [[C1:[23]]] partner [[P1:[23]]], period +0 = 100 ms, next step in 100 ms{{$}}
    pl_imar_apply(&im, &s1.move);

    /* 2. The total falls below 0.9 x 7: undo exactly that interchange, no new
     *    migration; the restored mapping runs the doubled period untouched. */
    pl_imar_step_t s2 = step(0.5, 2, 1, 2);
    // CHECK-NEXT: rc 0 total 5.5 prev 7.0: rollback thread 0 core [[C1]] -> 0 partner [[P1]] (rollback), period +1 = 200 ms, next step in 200 ms (rest)
    printf("apply rollback %d: cores %d %d %d %d\n", pl_imar_apply(&im, &s2.move), core[0], core[1],
           core[2], core[3]);
    // CHECK-NEXT: apply rollback 0: cores 0 1 2 3
    /* What the bad interval taught stays in the record: thread 0 on node 1. */
    printf("record of thread 0: node 0 %.1f, node 1 %.1f\n", record[0], record[1]);
    // CHECK-NEXT: record of thread 0: node 0 1.0, node 1 0.5

    /* 3. The rollback restored the total: a rise, but no migration earned it,
     *    so the period stays at 200; a new migration is drawn. */
    pl_imar_step_t s3 = step(1, 2, 2, 2);
    // CHECK-NEXT: rc 0 total 7.0 prev 5.5: migrate thread 0 {{.*}}, period +0 = 200 ms, next step in 100 ms{{$}}
    pl_imar_apply(&im, &s3.move);

    /* 4. A rise after an applied migration: productive, the period halves
     *    and the next trial is drawn at once. */
    pl_imar_step_t s4 = step(2, 2, 2, 2);
    // CHECK-NEXT: rc 0 total 8.0 prev 7.0: migrate {{.*}}, period -1 = 100 ms, next step in 100 ms{{$}}
    pl_imar_apply(&im, &s4.move);

    /* 5. A drop within the ratio (7.5 >= 0.9 x 8): the trial is kept, the
     *    period stays, and the kept mapping rests for it: no new draw. */
    step(1.5, 2, 2, 2);
    // CHECK-NEXT: rc 0 total 7.5 prev 8.0: none, period +0 = 100 ms, next step in 100 ms (rest)

    /* 5b. After the rest, with nothing to judge, a migration is drawn. */
    pl_imar_step_t s5 = step(1.5, 2, 2, 2);
    // CHECK-NEXT: rc 0 total 7.5 prev 7.5: migrate {{.*}}, period +0 = 100 ms, next step in 100 ms{{$}}
    (void)s5;   /* the affinity owner refused it: not applied */

    /* 6. A big drop, but the last decision was never applied: nothing of ours
     *    to undo. The period doubles and a migration is still drawn. */
    pl_imar_step_t s6 = step(1, 1, 1, 2);
    // CHECK-NEXT: rc 0 total 5.0 prev 7.5: migrate {{.*}}, period +1 = 200 ms, next step in 100 ms{{$}}
    pl_imar_apply(&im, &s6.move);

    /* 7. Someone else moved the threads since (the caller rewrites core[]):
     *    the pending interchange no longer describes them, no rollback. */
    int t = core[0];
    core[0] = core[1];
    core[1] = t;
    step(0.5, 0.5, 1, 1);
    // CHECK-NEXT: rc 0 total 3.0 prev 5.0: migrate {{.*}}, period +1 = 400 ms, next step in 100 ms{{$}}

    /* 8. One thread not measured (negative): totals over different thread
     *    counts are not compared; the period stays. */
    step(0.1, -1, 1, 1);
    // CHECK-NEXT: rc 0 total 2.1 prev -1.0: migrate {{.*}}, period +0 = 400 ms, next step in 100 ms{{$}}

    /* 9. Rolling back a move to a free core: 2 nodes x 2 cores, threads 0 and 1
     *    (one group) on cores 0 and 2; thread 0 is the worse and moves. */
    static const int cn[4] = { 0, 0, 1, 1 };
    int c2[2] = { 0, 2 };
    double r2[4];
    pl_imar_t f;
    pl_imar_init(&f, &p, 2, 4, cn, 2, c2, NULL, r2, 9);
    double perf[2] = { 1, 3 };
    pl_imar_step_t st;
    pl_imar2_step(&f, perf, d, 8, &st);
    print_move("free:", &st.move);
    // CHECK-NEXT: free: thread 0 core 0 -> {{[23]}} partner {{-1|1}}
    pl_imar_apply(&f, &st.move);
    perf[0] = 0.2;
    pl_imar2_step(&f, perf, d, 8, &st);
    print_move("free:", &st.move);
    pl_imar_apply(&f, &st.move);
    printf("after rollback: thread 0 core %d, thread 1 core %d\n", c2[0], c2[1]);
    // CHECK-NEXT: free: thread 0 core {{[23]}} -> 0 partner {{-1|1}} (rollback)
    // CHECK-NEXT: after rollback: thread 0 core 0, thread 1 core 2
    return 0;
}
