// imar2-free-core-tickets.c: a free core earns t_free instead of a partner's tickets; threads sharing a core are separate destinations; the migrating thread's own node gets nothing.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

static void show(const pl_imar_t *im, int m)
{
    pl_imar_dest_t d[16];
    int nd;
    int64_t total;
    int rc = pl_imar_tickets(im, m, d, 16, &nd, &total);
    printf("rc %d m %d: %lld tickets:", rc, m, (long long)total);
    for (int i = 0; i < nd; i++)
        printf(" core %d/%d %d+%d", d[i].core, d[i].partner, d[i].tickets_m, d[i].tickets_s);
    printf("\n");
}

int main(void)
{
    pl_imar_params_t paper; /* the paper's IMAR2, without the locality gate (no TNT here) */
    pl_imar_params_default(&paper);
    paper.remote_min = 0;
    /* 3 nodes x 2 cores. Threads 0, 1 on node 0 (cores 0, 1); thread 2 on
     * core 2 of node 1; cores 3 (node 1), 4, 5 (node 2) are free. */
    static const int cn[6] = { 0, 0, 1, 1, 2, 2 };
    int core[3] = { 0, 1, 2 };
    double rec[9];
    pl_imar_t im;
    pl_imar_init(&im, &paper, 3, 6, cn, 3, core, NULL, rec, 1);
    double perf[3] = { 1.0, 2.0, 3.0 };
    pl_imar_observe(&im, perf, NULL);
    /* Thread 0 has no record off node 0: 2 everywhere; core 2's thread 2 has
     * no record on node 0 (2); free cores 3, 4, 5 add t_free = 4. */
    show(&im, 0);
    // CHECK: rc 0 m 0: 22 tickets: core 2/2 2+2 core 3/-1 2+4 core 4/-1 2+4 core 5/-1 2+4

    /* With records: thread 0 did better on node 2 (4), worse on node 1 (1);
     * thread 2 did better on node 0 than on node 1 (4). */
    rec[0 * 3 + 1] = 0.5;
    rec[0 * 3 + 2] = 1.5;
    rec[2 * 3 + 0] = 3.5;
    show(&im, 0);
    // CHECK-NEXT: rc 0 m 0: 26 tickets: core 2/2 1+4 core 3/-1 1+4 core 4/-1 4+4 core 5/-1 4+4

    /* t_free is a parameter: 0 makes free cores worth only the migrating
     * thread's own tickets. */
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = 0;
    p.t_free = 0;
    pl_imar_init(&im, &p, 3, 6, cn, 3, core, NULL, rec, 1);
    pl_imar_observe(&im, perf, NULL);
    show(&im, 0);
    // CHECK-NEXT: rc 0 m 0: 10 tickets: core 2/2 2+2 core 3/-1 2+0 core 4/-1 2+0 core 5/-1 2+0

    /* Two threads on core 2 and one on core 4: the threads of core 2 are two
     * destinations with their own partner tickets (the paper: "even different
     * threads in the same core may get a different number of tickets"). */
    int core4[4] = { 0, 2, 2, 4 };
    double rec4[12];
    pl_imar_init(&im, &paper, 3, 6, cn, 4, core4, NULL, rec4, 1);
    double perf4[4] = { 1, 1, 1, 1 };
    pl_imar_observe(&im, perf4, NULL);
    rec4[1 * 3 + 0] = 5;    /* thread 1 did better on node 0: 4        */
    rec4[2 * 3 + 0] = 0.5;  /* thread 2 did worse on node 0: 1         */
    show(&im, 0);
    // CHECK-NEXT: rc 0 m 0: 25 tickets: core 2/1 2+4 core 2/2 2+1 core 3/-1 2+4 core 4/3 2+2 core 5/-1 2+4

    /* The lottery can send thread 0 to a free core: over seeds, both kinds win. */
    int freewins = 0, swapwins = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        int c[3] = { 0, 1, 2 };
        double r[9];
        pl_imar_t f;
        pl_imar_dest_t d[16];
        pl_imar_step_t st;
        pl_imar_init(&f, &paper, 3, 6, cn, 3, c, NULL, r, seed);
        pl_imar2_step(&f, perf, d, 16, &st);
        if (st.action == PL_IMAR_MIGRATE && st.move.partner < 0 && f.core_node[st.move.to_core] != 0)
            freewins++;
        if (st.action == PL_IMAR_MIGRATE && st.move.partner == 2 && st.move.to_core == 2)
            swapwins++;
    }
    printf("over 200 seeds: free core %s, swap with thread 2 %s\n",
           freewins > swapwins ? "more often" : "NOT more often", swapwins > 0 ? "too" : "never");
    // 3 free destinations of 6 tickets against one swap of 4 tickets.
    // CHECK-NEXT: over 200 seeds: free core more often, swap with thread 2 too
    return 0;
}
