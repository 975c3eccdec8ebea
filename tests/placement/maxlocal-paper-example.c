// maxlocal-paper-example.c: Algorithm 2's worked example of section 3.2: threshold 1631249 / 1.5, e(3,2) is chosen over e(2,1).
// Paper indices count from 1, ours from 0: e(2,1) is thread 1 on node 0, e(3,2) thread 2 on node 1.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
// RUN: %ompnuma place --policy maxlocal --topology nodes=4,cores=4,factor=1.5 --tnt %S/Inputs/paper-table1.csv --trace | FileCheck %s --check-prefix=CLI
#include "pl_test.h"

int main(void)
{
    int cap[4] = { 4, 4, 4, 4 };
    pl_topo_t topo = { 4, cap, NULL, 1.5 };
    pl_tnt_t tnt = { 8, 4, paper_table1 };
    int node[8], core[8];
    pl_mapping_t map = { 8, node, core };
    pl_step_t steps[8];
    pl_candidate_t cands[32];
    pl_trace_t tr = { steps, 8, 0, cands, 32, 0, 0 };
    int rc = test_decide(PL_POLICY_MAXLOCAL, &topo, &tnt, NULL, &map, &tr);
    printf("rc %d\n", rc);
    // CHECK: rc 0
    for (int s = 0; s < 2; s++) {
        const pl_step_t *st = &steps[s];
        printf("step %d: e_max e(%d,%d) threshold %.2f -> thread %d node %d\n", s + 1,
               st->max_thread, st->max_node, st->threshold, st->thread, st->node);
        for (int c = st->first_cand; c < st->first_cand + st->ncand; c++)
            printf("  e(%d,%d) V %.0f LC %.0f\n", cands[c].thread, cands[c].node, cands[c].value,
                   cands[c].node_load);
    }
    // CHECK:      step 1: e_max e(0,0) threshold 1180072.00 -> thread 0 node 0
    // 1631249 / 1.5 = 1087499.33 (the paper rounds to 1087500).
    // CHECK:      step 2: e_max e(1,0) threshold 1087499.33 -> thread 2 node 1
    // CHECK-NEXT:   e(1,0) V 1631249 LC 1770108
    // CHECK-NEXT:   e(2,1) V 1554991 LC 0
    // CHECK-NEXT:   e(2,2) V 1552323 LC 0
    // CHECK-NEXT:   e(2,3) V 1552409 LC 0
    // The deferred e(2,1) (thread 1) is placed later, away from node 0.
    printf("thread 1 on node %d, capacity respected: %d\n", node[1], test_respects_capacity(&topo, &map));
    // CHECK: thread 1 on node 3, capacity respected: 1
    return 0;
}
// CLI: step 2: thread 2 -> node 1 (e_max e(1,0), threshold 1087499.33)
// CLI-NEXT: e(1,0) V=1631249 LC=1770108
// CLI-NEXT: e(2,1) V=1554991 LC=0
