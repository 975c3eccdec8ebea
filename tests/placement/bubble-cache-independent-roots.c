// bubble-cache-independent-roots.c: cache sends independent outermost teams to different nodes, heaviest first, a team larger than a node to the fewest nodes.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    int cap[4] = { 2, 2, 2, 2 };
    pl_topo_t topo = { 4, cap, NULL, 1.5 };
    int node[16], core[16];

    /* Two teams of 2 on four nodes: both are burst, one thread per node. */
    pl_bubble_t two[2] = { { -1, 0, 2, NULL }, { -1, 0, 2, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, two, 2, node, core, NULL));
    bt_print(two, 2, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0
    // CHECK-NEXT: b1: 2:0 3:0

    /* Teams of 4 and 3: bursting the heavier first already gives 5 entities
     * for 4 nodes, so the team of 3 stays whole: 2 cores on a node of its own,
     * the third on the nearest node with the most room (all tie: node 1). The
     * threads of the team of 4 then take the nodes with the most free cores. */
    pl_bubble_t mixed[2] = { { -1, 0, 4, NULL }, { -1, 0, 3, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, mixed, 2, node, core, NULL));
    bt_print(mixed, 2, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 2:0 3:0 1:1 2:1
    // CHECK-NEXT: b1: 0:0 0:1 1:0

    /* Five single-thread teams on four nodes: nothing to burst, the fifth
     * shares node 0 (most free slots, lowest index). */
    pl_bubble_t five[5] = { { -1, 0, 1, NULL }, { -1, 0, 1, NULL }, { -1, 0, 1, NULL },
                            { -1, 0, 1, NULL }, { -1, 0, 1, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, five, 5, node, core, NULL));
    bt_print(five, 5, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0
    // CHECK-NEXT: b1: 1:0
    // CHECK-NEXT: b2: 2:0
    // CHECK-NEXT: b3: 3:0
    // CHECK-NEXT: b4: 0:1
    return 0;
}
