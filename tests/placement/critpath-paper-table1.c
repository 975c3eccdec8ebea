// critpath-paper-table1.c: Algorithm 3 on the paper's Table 1 takes e(1,1), then e(3,2) as Table 3 describes.
// Paper indices count from 1, ours from 0: e(1,1) is thread 0 on node 0, e(3,2) thread 2 on node 1.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
// RUN: %ompnuma place --policy critpath --topology nodes=4,cores=4,factor=1.5 --tnt %S/Inputs/paper-table1.csv --trace | FileCheck %s --check-prefix=CLI
#include "pl_test.h"

int main(void)
{
    int cap[4] = { 4, 4, 4, 4 };
    pl_topo_t topo = { 4, cap, NULL, 1.5 }; /* the paper's NUMA factor */
    pl_tnt_t tnt = { 8, 4, paper_table1 };
    pl_model_t m;
    pl_model_default(&m);
    int node[8], core[8];
    pl_mapping_t map = { 8, node, core };
    pl_step_t steps[8];
    pl_candidate_t cands[32];
    pl_trace_t tr = { steps, 8, 0, cands, 32, 0, 0 };
    int rc = test_decide(PL_POLICY_CRITPATH, &topo, &tnt, &m, &map, &tr);
    printf("rc %d steps %d\n", rc, tr.nsteps);
    // CHECK: rc 0 steps 8
    for (int s = 0; s < 2; s++) {
        printf("step %d: thread %d -> node %d\n", s + 1, steps[s].thread, steps[s].node);
        for (int c = steps[s].first_cand; c < steps[s].first_cand + steps[s].ncand; c++)
            printf("  e(%d,%d) IF %.1f CPImpact %.1f sum %.1f\n", cands[c].thread, cands[c].node,
                   cands[c].impact, cands[c].node_load, cands[c].score);
    }
    // CHECK:      step 1: thread 0 -> node 0
    // Eq. 4 for e(1,1): 1770108 + 1.5 * (1765296 + 1766348 + 1765584) = 9715950, Table 3's CPImpact[1].
    // CHECK-NEXT:   e(0,0) IF 9715950.0 CPImpact 0.0 sum 9715950.0
    // CHECK:      step 2: thread 2 -> node 1
    // Table 3's candidates: e(2,1) and e(3,2), e(3,3), e(3,4); Eq. 4 values (Table 3 prints remote sums).
    // CHECK-NEXT:   e(1,0) IF 8519895.5 CPImpact 9715950.0 sum 18235845.5
    // CHECK-NEXT:   e(2,1) IF 8543315.5 CPImpact 0.0 sum 8543315.5
    // CHECK-NEXT:   e(2,2) IF 8544649.5 CPImpact 0.0 sum 8544649.5
    // CHECK-NEXT:   e(2,3) IF 8544606.5 CPImpact 0.0 sum 8544606.5
    printf("capacity respected: %d\n", test_respects_capacity(&topo, &map));
    // CHECK: capacity respected: 1
    printf("mapping:");
    for (int t = 0; t < 8; t++)
        printf(" %d", node[t]);
    printf("\n");
    // Each node takes one of the three heavy threads 0-2 before any takes a second.
    // CHECK: mapping: 0 3 1 0 2 1 2 3
    return 0;
}
// CLI: policy critpath on nodes=4,cores=4,factor=1.5: 8 threads, 4 nodes, NUMA factor 1.5
// CLI: step 1: thread 0 -> node 0 (e_max e(0,0))
// CLI: step 2: thread 2 -> node 1 (e_max e(1,0))
// CLI-NEXT: e(1,0) V=1631249 IF=8519895.5 CPImpact=9715950.0 sum=18235845.5
// CLI-NEXT: e(2,1) V=1554991 IF=8543315.5 CPImpact=0.0 sum=8543315.5
