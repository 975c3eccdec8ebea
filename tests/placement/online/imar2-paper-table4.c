// imar2-paper-table4.c: the paper's worked example (Tables 2-4): thread 300 migrates; cores 2, 5, 4, 3 get 6, 6, 5, 4 of 21 tickets.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

int main(void)
{
    pl_imar_t im;
    int core[6];
    double record[18], perf[6];
    int rc = paper_state(&im, NULL, core, record, 1);
    printf("init %d\n", rc);
    // CHECK: init 0

    /* Table 3: each thread's performance divided by its process's mean. */
    paper_current(&im, perf);
    for (int t = 0; t < 6; t++) {
        double mean = (perf[t & ~1] + perf[t | 1]) / 2;
        printf("%d: %.1f %.2f\n", paper_tid[t], perf[t], perf[t] / mean);
    }
    // CHECK:      100: 1.9 0.76
    // CHECK-NEXT: 101: 3.1 1.24
    // CHECK-NEXT: 200: 0.9 0.60
    // CHECK-NEXT: 201: 2.1 1.40
    // CHECK-NEXT: 300: 3.3 0.58
    // CHECK-NEXT: 301: 8.1 1.42
    int m;
    double norm;
    rc = pl_imar_select(&im, perf, &m, &norm);
    printf("select %d: thread %d norm %.2f\n", rc, paper_tid[m], norm);
    // CHECK: select 0: thread 300 norm 0.58

    /* Table 4. Cores 0 and 1 (thread 300's own node) are no destinations. */
    pl_imar_dest_t d[12];
    int nd;
    int64_t total;
    rc = pl_imar_tickets(&im, m, d, 12, &nd, &total);
    printf("tickets %d: %d destinations, %lld tickets\n", rc, nd, (long long)total);
    // CHECK: tickets 0: 4 destinations, 21 tickets
    for (int i = 0; i < nd; i++)
        printf("core %d swap %d: %d+%d = %d/%lld\n", d[i].core, paper_tid[d[i].partner],
               d[i].tickets_m, d[i].tickets_s, d[i].tickets, (long long)total);
    // No record of 300 on node 1 (2), better on node 2 (4); then the partner on node 0:
    // 100 better (4), 301 no record (2), 101 worse (1), 201 no record (2).
    // CHECK-NEXT: core 2 swap 100: 2+4 = 6/21
    // CHECK-NEXT: core 3 swap 301: 2+2 = 4/21
    // CHECK-NEXT: core 4 swap 101: 4+1 = 5/21
    // CHECK-NEXT: core 5 swap 201: 4+2 = 6/21

    /* Every ticket number belongs to exactly one destination, in order. */
    int count[4] = { 0 };
    for (int64_t r = 0; r < total; r++) {
        int w;
        if (pl_imar_pick(d, nd, r, &w) == 0)
            count[w]++;
    }
    printf("pick counts %d %d %d %d\n", count[0], count[1], count[2], count[3]);
    // CHECK: pick counts 6 4 5 6
    int w;
    printf("pick past the end %d\n", pl_imar_pick(d, nd, total, &w));
    // CHECK: pick past the end -22

    /* The whole step on the same state: no previous interval, so it migrates
     * thread 300 to one of the four destinations and says which. */
    pl_imar_step_t st;
    rc = pl_imar2_step(&im, perf, d, 12, &st);
    printf("step %d: %s thread %d from core %d, %lld tickets over %d destinations\n", rc,
           pl_imar_action_name(st.action), paper_tid[st.move.thread], st.move.from_core,
           (long long)st.total_tickets, st.ndests);
    // CHECK: step 0: migrate thread 300 from core 1, 21 tickets over 4 destinations
    int ok = 0;
    for (int i = 0; i < nd; i++)
        ok |= d[i].core == st.move.to_core && d[i].partner == st.move.partner
              && d[i].tickets == st.tickets;
    printf("winner is a destination: %d\n", ok);
    // CHECK: winner is a destination: 1
    rc = pl_imar_apply(&im, &st.move);
    printf("apply %d: 300 on core %d, partner on core %d\n", rc, core[4], core[st.move.partner]);
    // CHECK: apply 0: 300 on core [[TO:[2-5]]], partner on core 1
    return 0;
}
