// imar2-bad-arguments.c: every IMAR2 function answers malformed input with pl.h's negative errno (-EINVAL, -ENOBUFS, -ENODATA), and a failed step leaves the state unchanged.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include "imar_test.h"

#define SHOW(what, expr) printf("%-34s %s\n", what, errname(expr))

static const char *errname(int rc)
{
    switch (rc) {
    case 0: return "ok";
    case -EINVAL: return "EINVAL";
    case -ENOBUFS: return "ENOBUFS";
    case -ENODATA: return "ENODATA";
    }
    static char buf[32];
    snprintf(buf, sizeof buf, "rc %d", rc);
    return buf;
}

int main(void)
{
    pl_imar_t im;
    int core[6];
    double record[18], perf[6];
    pl_imar_dest_t d[12];
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    memcpy(core, paper_core, sizeof core);
    int bad_node[6] = { 0, 0, 1, 1, 2, 3 };
    int bad_core[6] = { 2, 4, 0, 5, 1, 6 };

    SHOW("init ok", pl_imar_init(&im, NULL, 3, 6, paper_core_node, 6, core, paper_group, record, 1));
    SHOW("init NULL im", pl_imar_init(NULL, NULL, 3, 6, paper_core_node, 6, core, NULL, record, 1));
    SHOW("init NULL record", pl_imar_init(&im, NULL, 3, 6, paper_core_node, 6, core, NULL, NULL, 1));
    SHOW("init NULL core_node", pl_imar_init(&im, NULL, 3, 6, NULL, 6, core, NULL, record, 1));
    SHOW("init 0 nodes", pl_imar_init(&im, NULL, 0, 6, paper_core_node, 6, core, NULL, record, 1));
    SHOW("init too many nodes", pl_imar_init(&im, NULL, PL_MAX_NODES + 1, 6, paper_core_node, 6, core, NULL, record, 1));
    SHOW("init 0 threads", pl_imar_init(&im, NULL, 3, 6, paper_core_node, 0, core, NULL, record, 1));
    SHOW("init 0 cores", pl_imar_init(&im, NULL, 3, 0, paper_core_node, 6, core, NULL, record, 1));
    SHOW("init core on node 3 of 3", pl_imar_init(&im, NULL, 3, 6, bad_node, 6, core, NULL, record, 1));
    SHOW("init thread on core 6 of 6", pl_imar_init(&im, NULL, 3, 6, paper_core_node, 6, bad_core, NULL, record, 1));
    // CHECK:      init ok                            ok
    // CHECK-NEXT: init NULL im                       EINVAL
    // CHECK-NEXT: init NULL record                   EINVAL
    // CHECK-NEXT: init NULL core_node                EINVAL
    // CHECK-NEXT: init 0 nodes                       EINVAL
    // CHECK-NEXT: init too many nodes                EINVAL
    // CHECK-NEXT: init 0 threads                     EINVAL
    // CHECK-NEXT: init 0 cores                       EINVAL
    // CHECK-NEXT: init core on node 3 of 3           EINVAL
    // CHECK-NEXT: init thread on core 6 of 6         EINVAL

    struct { const char *what; pl_imar_params_t p; } bp[] = {
        { "ratio 0", p }, { "ratio 1.5", p }, { "ratio NaN", p }, { "period_min 0", p },
        { "period_max < period_min", p }, { "period_max inf", p }, { "t_better -1", p },
        { "t_free 1001", p },
    };
    bp[0].p.ratio = 0;
    bp[1].p.ratio = 1.5;
    bp[2].p.ratio = NAN;
    bp[3].p.period_min_ms = 0;
    bp[4].p.period_max_ms = p.period_min_ms / 2;
    bp[5].p.period_max_ms = INFINITY;
    bp[6].p.t_better = -1;
    bp[7].p.t_free = PL_IMAR_MAX_TICKETS + 1;
    for (size_t i = 0; i < sizeof bp / sizeof bp[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "params %s", bp[i].what);
        SHOW(what, pl_imar_init(&im, &bp[i].p, 3, 6, paper_core_node, 6, core, NULL, record, 1));
    }
    // CHECK-NEXT: params ratio 0                     EINVAL
    // CHECK-NEXT: params ratio 1.5                   EINVAL
    // CHECK-NEXT: params ratio NaN                   EINVAL
    // CHECK-NEXT: params period_min 0                EINVAL
    // CHECK-NEXT: params period_max < period_min     EINVAL
    // CHECK-NEXT: params period_max inf              EINVAL
    // CHECK-NEXT: params t_better -1                 EINVAL
    // CHECK-NEXT: params t_free 1001                 EINVAL
    p.ratio = 1.0;
    SHOW("params ratio 1 (no drop tolerated)", pl_imar_init(&im, &p, 3, 6, paper_core_node, 6, core, NULL, record, 1));
    // CHECK-NEXT: params ratio 1 (no drop tolerated) ok

    paper_state(&im, NULL, core, record, 1);
    paper_current(&im, perf);
    int m, nd, w;
    int64_t total;
    SHOW("max_dests NULL", pl_imar_max_dests(NULL));
    printf("max_dests %d\n", pl_imar_max_dests(&im));
    // CHECK-NEXT: max_dests NULL                     EINVAL
    // CHECK-NEXT: max_dests 12
    double nan6[6] = { 1, 1, NAN, 1, 1, 1 }, inf6[6] = { 1, 1, 1, INFINITY, 1, 1 };
    SHOW("observe NULL perf", pl_imar_observe(&im, NULL, NULL));
    SHOW("observe NaN", pl_imar_observe(&im, nan6, NULL));
    SHOW("observe inf", pl_imar_observe(&im, inf6, NULL));
    SHOW("select NULL m", pl_imar_select(&im, perf, NULL, NULL));
    SHOW("select NaN", pl_imar_select(&im, nan6, &m, NULL));
    // CHECK-NEXT: observe NULL perf                  EINVAL
    // CHECK-NEXT: observe NaN                        EINVAL
    // CHECK-NEXT: observe inf                        EINVAL
    // CHECK-NEXT: select NULL m                      EINVAL
    // CHECK-NEXT: select NaN                         EINVAL
    SHOW("tickets m = 6", pl_imar_tickets(&im, 6, d, 12, &nd, &total));
    SHOW("tickets m = -1", pl_imar_tickets(&im, -1, d, 12, &nd, &total));
    SHOW("tickets 3 slots for 4", pl_imar_tickets(&im, 4, d, 3, &nd, &total));
    SHOW("tickets 4 slots for 4", pl_imar_tickets(&im, 4, d, 4, &nd, &total));
    /* Thread 201 has no record on node 2 once erased: nothing to compare with. */
    record[3 * 3 + 2] = NONE;
    SHOW("tickets m without own record", pl_imar_tickets(&im, 3, d, 12, &nd, &total));
    record[3 * 3 + 2] = 2.1;
    // CHECK-NEXT: tickets m = 6                      EINVAL
    // CHECK-NEXT: tickets m = -1                     EINVAL
    // CHECK-NEXT: tickets 3 slots for 4              ENOBUFS
    // CHECK-NEXT: tickets 4 slots for 4              ok
    // CHECK-NEXT: tickets m without own record       EINVAL
    pl_imar_dest_t zero[2] = { { 2, -1, 0, 0, 0 }, { 3, -1, 0, 0, 0 } };
    pl_imar_dest_t neg[2] = { { 2, -1, 0, 0, 3 }, { 3, -1, 0, 0, -1 } };
    SHOW("pick r = -1", pl_imar_pick(d, nd, -1, &w));
    SHOW("pick 0 dests", pl_imar_pick(d, 0, 0, &w));
    SHOW("draw NULL rng", pl_imar_draw(NULL, d, nd, &w));
    SHOW("draw 0 dests", pl_imar_draw(&im.rng, d, 0, &w));
    SHOW("draw no tickets", pl_imar_draw(&im.rng, zero, 2, &w));
    SHOW("draw negative tickets", pl_imar_draw(&im.rng, neg, 2, &w));
    // CHECK-NEXT: pick r = -1                        EINVAL
    // CHECK-NEXT: pick 0 dests                       EINVAL
    // CHECK-NEXT: draw NULL rng                      EINVAL
    // CHECK-NEXT: draw 0 dests                       EINVAL
    // CHECK-NEXT: draw no tickets                    ENODATA
    // CHECK-NEXT: draw negative tickets              EINVAL
    uint64_t r;
    SHOW("rng below 0", pl_rng_below(&im.rng, 0, &r));
    SHOW("rng below NULL out", pl_rng_below(&im.rng, 5, NULL));
    // CHECK-NEXT: rng below 0                        EINVAL
    // CHECK-NEXT: rng below NULL out                 EINVAL

    /* Thread 300 (index 4) runs on core 1; thread 100 (index 0) on core 2. */
    pl_imar_move_t mv[] = {
        { -1, 1, 2, 0, 0 },  /* no move                  */
        { 4, 0, 2, 0, 0 },   /* 300 is not on core 0     */
        { 4, 1, 3, 0, 0 },   /* 100 is not on core 3     */
        { 4, 1, 1, -1, 0 },  /* from == to               */
        { 4, 1, 6, -1, 0 },  /* core 6 of 6              */
        { 4, 1, 2, 4, 0 },   /* partner is the thread    */
        { 4, 1, 2, 0, 0 },   /* the real swap            */
    };
    const char *mvname[] = { "apply no move", "apply stale from_core", "apply stale partner",
                             "apply from == to", "apply core out of range", "apply partner = thread",
                             "apply valid swap" };
    for (int i = 0; i < 7; i++)
        SHOW(mvname[i], pl_imar_apply(&im, &mv[i]));
    SHOW("apply NULL", pl_imar_apply(&im, NULL));
    printf("cores after: 300 on %d, 100 on %d\n", core[4], core[0]);
    // CHECK-NEXT: apply no move                      EINVAL
    // CHECK-NEXT: apply stale from_core              EINVAL
    // CHECK-NEXT: apply stale partner                EINVAL
    // CHECK-NEXT: apply from == to                   EINVAL
    // CHECK-NEXT: apply core out of range            EINVAL
    // CHECK-NEXT: apply partner = thread             EINVAL
    // CHECK-NEXT: apply valid swap                   ok
    // CHECK-NEXT: apply NULL                         EINVAL
    // CHECK-NEXT: cores after: 300 on 2, 100 on 1

    /* A failed step changes nothing: record, period, previous total, generator. */
    paper_state(&im, NULL, core, record, 1);
    paper_current(&im, perf);
    pl_imar_t before;
    memcpy(&before, &im, sizeof im);   /* bytes, padding included, for memcmp */
    double rec_before[18];
    memcpy(rec_before, record, sizeof record);
    pl_imar_step_t st;
    SHOW("step 11 slots (needs 12)", pl_imar2_step(&im, perf, d, 11, &st));
    SHOW("step NaN perf", pl_imar2_step(&im, nan6, d, 12, &st));
    SHOW("step NULL out", pl_imar2_step(&im, perf, d, 12, NULL));
    printf("state unchanged %d\n", !memcmp(&before, &im, sizeof im) && !memcmp(rec_before, record, sizeof record));
    // CHECK-NEXT: step 11 slots (needs 12)           ENOBUFS
    // CHECK-NEXT: step NaN perf                      EINVAL
    // CHECK-NEXT: step NULL out                      EINVAL
    // CHECK-NEXT: state unchanged 1

    /* Degenerate but valid: one node (nowhere to go), one thread (no group
     * mean to compare with), every thread unmeasured. */
    int cn1[2] = { 0, 0 }, c1[2] = { 0, 1 };
    double r1[2], p1[2] = { 1, 2 };
    pl_imar_init(&im, NULL, 1, 2, cn1, 2, c1, NULL, r1, 1);
    SHOW("step one node", pl_imar2_step(&im, p1, d, 12, &st));
    printf("  %s, %d destinations\n", pl_imar_action_name(st.action), st.ndests);
    int cn2[2] = { 0, 1 }, c2[1] = { 0 };
    pl_imar_init(&im, NULL, 2, 2, cn2, 1, c2, NULL, r1, 1);
    SHOW("step one thread", pl_imar2_step(&im, p1, d, 12, &st));
    printf("  %s\n", pl_imar_action_name(st.action));
    double none[6] = { -1, -1, -1, -1, -1, -1 };
    paper_state(&im, NULL, core, record, 1);
    SHOW("step nothing measured", pl_imar2_step(&im, none, d, 12, &st));
    printf("  %s, measured %d\n", pl_imar_action_name(st.action), st.measured);
    // CHECK-NEXT: step one node                      ok
    // CHECK-NEXT:   none, 0 destinations
    // CHECK-NEXT: step one thread                    ok
    // CHECK-NEXT:   none
    // CHECK-NEXT: step nothing measured              ok
    // CHECK-NEXT:   none, measured 0

    /* The performance functions. */
    pl_imar_pmu_t pm = { 1e9, 1, 1e6, 100 };
    pl_imar_weights_t wneg = { 1, -1, 1 };
    double v;
    SHOW("pmu ok", pl_imar_perf_pmu(&pm, NULL, &v));
    SHOW("pmu NULL perf", pl_imar_perf_pmu(&pm, NULL, NULL));
    SHOW("pmu negative weight", pl_imar_perf_pmu(&pm, &wneg, &v));
    pm.seconds = 0;
    SHOW("pmu 0 seconds", pl_imar_perf_pmu(&pm, NULL, &v));
    pm.seconds = 1;
    pm.latency_cycles = 0;
    SHOW("pmu 0 latency", pl_imar_perf_pmu(&pm, NULL, &v));
    pm.latency_cycles = 100;
    pm.instructions = -1;
    SHOW("pmu negative instructions", pl_imar_perf_pmu(&pm, NULL, &v));
    // CHECK-NEXT: pmu ok                             ok
    // CHECK-NEXT: pmu NULL perf                      EINVAL
    // CHECK-NEXT: pmu negative weight                EINVAL
    // CHECK-NEXT: pmu 0 seconds                      EINVAL
    // CHECK-NEXT: pmu 0 latency                      EINVAL
    // CHECK-NEXT: pmu negative instructions          EINVAL
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 }, badtopo = { 0, cap, NULL, 2.0 };
    uint64_t row[2] = { 10, 30 };
    pl_imar_nopmu_t np = { 100, 0.5, 1, 0, row };
    SHOW("nopmu ok", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    SHOW("nopmu bad topology", pl_imar_perf_nopmu(&badtopo, &np, NULL, &v));
    np.node = 2;
    SHOW("nopmu node 2 of 2", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    np.node = 0;
    np.refs = NULL;
    SHOW("nopmu NULL row", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    np.refs = row;
    np.wall_s = 0;
    SHOW("nopmu 0 wall", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    np.wall_s = 1;
    np.work = NAN;
    SHOW("nopmu NaN work", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    np.work = 100;
    np.cpu_s = 0;
    SHOW("nopmu did not run", pl_imar_perf_nopmu(&topo, &np, NULL, &v));
    // CHECK-NEXT: nopmu ok                           ok
    // CHECK-NEXT: nopmu bad topology                 EINVAL
    // CHECK-NEXT: nopmu node 2 of 2                  EINVAL
    // CHECK-NEXT: nopmu NULL row                     EINVAL
    // CHECK-NEXT: nopmu 0 wall                       EINVAL
    // CHECK-NEXT: nopmu NaN work                     EINVAL
    // CHECK-NEXT: nopmu did not run                  ENODATA
    printf("action name of 7: %s\n", pl_imar_action_name((pl_imar_action_t)7));
    // CHECK-NEXT: action name of 7: ?
    return 0;
}
