// imar2-trial-duty.c: a trial is judged after the shortest period and a mapping that was restored or kept without a gain rests for the period: a well-placed team spends a falling share of its time on trials (a fifth at period_max = 4 x period_min), an improving one draws trial after trial at the shortest period.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_sim.h"

/* Time (sum of waits) spent on trials, i.e. after a step that migrated, and in all. */
typedef struct duty {
    int    trials, rollbacks, rests;
    double trial_ms, all_ms;
} duty_t;

static void count(duty_t *d, const pl_imar_step_t *st)
{
    d->trials += st->action == PL_IMAR_MIGRATE;
    d->rollbacks += st->action == PL_IMAR_ROLLBACK;
    d->rests += st->rest;
    d->trial_ms += st->action == PL_IMAR_MIGRATE ? st->next_ms : 0;
    d->all_ms += st->next_ms;
}

static void show(const char *name, const duty_t *d)
{
    printf("%s: %d trials, %d rollbacks, %d rests, %.3f of the time on trials\n", name, d->trials,
           d->rollbacks, d->rests, d->trial_ms / d->all_ms);
}

/* 40 steps of 4 threads on 2 nodes x 2 cores (seed 17) whose record is
 * { 1, 2, 2, 3 } scaled by growth at every step. */
static void record_run(const pl_imar_params_t *p, double growth, duty_t *d)
{
    static const int cn[4] = { 0, 0, 1, 1 };
    int core[4] = { 0, 1, 2, 3 };
    double record[8];
    pl_imar_dest_t dd[8];
    pl_imar_t im;
    pl_imar_init(&im, p, 2, 4, cn, 4, core, NULL, record, 17);
    double scale = 1;
    for (int i = 0; i < 40; i++, scale *= growth) {
        double perf[4] = { 1 * scale, 2 * scale, 2 * scale, 3 * scale };
        pl_imar_step_t st;
        pl_imar2_step(&im, perf, dd, 8, &st);
        count(d, &st);
        if (st.action != PL_IMAR_NONE)
            pl_imar_apply(&im, &st.move);
    }
}

int main(void)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);   /* 1000 .. 4000 ms */
    p.remote_min = 0; /* the paper's IMAR2, without the locality gate (no TNT here) */

    /* 1. Well placed, 2 nodes x 1 core, 2 threads (the benchmark's local-long):
     *    every trial swaps the whole team away from its data and is rolled
     *    back after 1 s; the restored mapping then rests 2 s, then 4 s. */
    int start2[2] = { 0, 1 }, data2[2] = { 0, 1 };
    sim_t s;
    printf("init %d\n", sim_init(&s, &p, 2, 1, 2, start2, data2, 5));
    // CHECK: init 0
    duty_t first = { 0 }, later = { 0 };
    printf("waits:");
    for (int i = 0; i < 40; i++) {
        pl_imar_step_t st = sim_step(&s);
        count(i < 6 ? &first : &later, &st);
        if (i < 8)
            printf(" %s %.0f", pl_imar_action_name(st.action), st.next_ms);
    }
    printf("\n");
    // CHECK-NEXT: waits: migrate 1000 rollback 2000 migrate 1000 rollback 4000 migrate 1000 rollback 4000 migrate 1000 rollback 4000
    show("well placed, steps 1-6", &first);
    show("well placed, steps 7-40", &later);
    printf("home %d\n", sim_local(&s) == 2);
    // CHECK-NEXT: well placed, steps 1-6: 3 trials, 3 rollbacks, 3 rests, 0.231 of the time on trials
    // CHECK-NEXT: well placed, steps 7-40: 17 trials, 17 rollbacks, 17 rests, 0.200 of the time on trials
    // CHECK-NEXT: home 1

    /* The share falls with period_max: 1 / (1 + period_max / period_min). */
    for (double max = 1000; max <= 16000; max *= 2) {
        pl_imar_params_t q = p;
        q.period_max_ms = max;
        sim_init(&s, &q, 2, 1, 2, start2, data2, 5);
        duty_t d = { 0 };
        for (int i = 0; i < 200; i++) {
            pl_imar_step_t st = sim_step(&s);
            if (i >= 100)
                count(&d, &st);
        }
        printf("period_max %5.0f: %.3f on trials\n", max, d.trial_ms / d.all_ms);
    }
    // CHECK-NEXT: period_max  1000: 0.500 on trials
    // CHECK-NEXT: period_max  2000: 0.333 on trials
    // CHECK-NEXT: period_max  4000: 0.200 on trials
    // CHECK-NEXT: period_max  8000: 0.111 on trials
    // CHECK-NEXT: period_max 16000: 0.059 on trials

    /* 2. An improving record: every trial raises the total by 5 %. Each one
     *    earns the next at once, at the shortest period: no rest. */
    duty_t up = { 0 };
    record_run(&p, 1.05, &up);
    show("improving", &up);
    // CHECK-NEXT: improving: 40 trials, 0 rollbacks, 0 rests, 1.000 of the time on trials

    /* 3. A flat record: trials neither help nor hurt; each is kept and rests
     *    for the period, which stays at its minimum (no drop doubled it). */
    duty_t flat = { 0 };
    record_run(&p, 1.0, &flat);
    show("flat", &flat);
    // CHECK-NEXT: flat: 20 trials, 0 rollbacks, 20 rests, 0.500 of the time on trials

    /* 4. Crossed, 2 nodes x 4 cores (threads 0-3 on node 0, data on node 1,
     *    and the reverse): trials follow each other while they pay, and once
     *    every thread is home the share of time on trials falls to a fifth. */
    int s8[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, d8[8] = { 1, 1, 1, 1, 0, 0, 0, 0 };
    int converged = 0, low = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        sim_init(&s, &p, 2, 4, 8, s8, d8, seed);
        int i = 0;
        for (; i < 60 && sim_local(&s) < 8; i++)
            sim_step(&s);
        converged += sim_local(&s) == 8;
        duty_t d = { 0 };
        for (int k = 0; k < 60; k++) {
            pl_imar_step_t st = sim_step(&s);
            if (k >= 20)
                count(&d, &st);
        }
        low += sim_local(&s) == 8 && d.trial_ms / d.all_ms <= 0.2001;
    }
    printf("crossed: converged %d/20, then at most a fifth of the time on trials %d/20\n", converged, low);
    // CHECK-NEXT: crossed: converged 20/20, then at most a fifth of the time on trials 20/20
    return 0;
}
