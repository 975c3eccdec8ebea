// ondeloc-drifted.c: a probe window whose traffic the current mapping keeps on-node much less than when it was decided (a phase change) has drifted; the same pairs, a window still mostly the old phase, all-to-all's noise and an empty window have not.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

static void drift(const char *what, int n, const uint64_t *m, const int *node, double decided, double gain)
{
    pl_comm_matrix_t cm = { n, m };
    printf("%s %d\n", what, pl_ondeloc_drifted(&cm, node, decided, gain));
}

int main(void)
{
    uint64_t m[16] = { 0 };
    int node[4] = { 0, 1, 0, 1 }; // decided on pairs (0,2),(1,3): all of it on-node
    ot_pair(m, 4, 0, 2, 5000);
    ot_pair(m, 4, 1, 3, 5000);
    drift("same pairs", 4, m, node, 1.0, 0.1);
    // CHECK: same pairs 0
    // The second phase: pairs (0,3),(1,2), nothing on-node.
    memset(m, 0, sizeof m);
    ot_pair(m, 4, 0, 3, 5000);
    ot_pair(m, 4, 1, 2, 5000);
    drift("phase change", 4, m, node, 1.0, 0.1);
    // CHECK-NEXT: phase change 1
    // The window caught the change's first messages only: 0.95 still on-node, within min_gain.
    memset(m, 0, sizeof m);
    ot_pair(m, 4, 0, 2, 4750);
    ot_pair(m, 4, 1, 3, 4750);
    ot_pair(m, 4, 0, 3, 500);
    drift("mostly old", 4, m, node, 1.0, 0.1);
    // CHECK-NEXT: mostly old 0
    // Over min_gain: 0.85 on-node.
    ot_pair(m, 4, 0, 2, 4250);
    ot_pair(m, 4, 1, 3, 4250);
    ot_pair(m, 4, 0, 3, 1500);
    drift("half way", 4, m, node, 1.0, 0.1);
    // CHECK-NEXT: half way 1
    // All-to-all decided at a third on-node; a window where (0,1) and (2,3) got one more message.
    memset(m, 0, sizeof m);
    for (int x = 0; x < 4; x++)
        for (int y = x + 1; y < 4; y++)
            ot_pair(m, 4, x, y, 1000);
    ot_pair(m, 4, 0, 1, 1010);
    ot_pair(m, 4, 2, 3, 1010);
    drift("all-to-all noise", 4, m, node, 1.0 / 3, 0.1);
    // CHECK-NEXT: all-to-all noise 0
    // No traffic in the window (or only a rank's own): nothing has drifted.
    memset(m, 0, sizeof m);
    m[0] = 100;
    drift("empty", 4, m, node, 1.0, 0.1);
    // CHECK-NEXT: empty 0
    // min_gain 0: any loss is a drift.
    ot_pair(m, 4, 0, 2, 990);
    ot_pair(m, 4, 0, 1, 10);
    drift("gain 0", 4, m, node, 1.0, 0.0);
    // CHECK-NEXT: gain 0 1
    pl_comm_matrix_t cm = { 4, m };
    printf("bad %d %d %d %d\n", pl_ondeloc_drifted(NULL, node, 1, 0.1), pl_ondeloc_drifted(&cm, NULL, 1, 0.1),
           pl_ondeloc_drifted(&cm, node, 1, -0.5), pl_ondeloc_drifted(&cm, node, 1, 0.0 / 0.0));
    // CHECK-NEXT: bad -22 -22 -22 -22
    return 0;
}
