// bubble-cache-larger-than-node.c: cache gives an inner team larger than a node the fewest nodes, nearest by distance to its master's node.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    /* Nodes 0 and 2 are neighbours, so are 1 and 3: the nearest node to 0 is
     * 2, not 1, so a spill that followed node numbers would show. */
    int cap[4] = { 2, 2, 2, 2 };
    double dist[16] = { 10, 20, 12, 20,
                        20, 10, 20, 12,
                        12, 20, 10, 20,
                        20, 12, 20, 10 };
    pl_topo_t topo = { 4, cap, dist, 0 };
    int node[16], core[16];

    /* Outer thread 0 creates a team of 4 on 2-core nodes, outer thread 1 none. */
    pl_bubble_t four[2] = { { -1, 0, 2, NULL }, { 0, 0, 4, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, four, 2, node, core, NULL));
    bt_print(four, 2, node, core);
    printf("team of 4: %d nodes\n", bt_nodes_used(four, 1, node));
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0
    // CHECK-NEXT: b1: 0:0 0:1 2:0 2:1
    // CHECK-NEXT: team of 4: 2 nodes

    /* A team of 6 takes three nodes: its master's, the neighbour 2, then the
     * lower of the two equally far nodes with the most room (1); the other
     * outer thread then gets the node left free. */
    pl_bubble_t six[2] = { { -1, 0, 2, NULL }, { 0, 0, 6, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, six, 2, node, core, NULL));
    bt_print(six, 2, node, core);
    printf("team of 6: %d nodes\n", bt_nodes_used(six, 1, node));
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 3:0
    // CHECK-NEXT: b1: 0:0 0:1 2:0 2:1 1:0 1:1
    // CHECK-NEXT: team of 6: 3 nodes

    /* A team that fits a node is never split, even when created by an outer
     * thread whose node is shared: 2 outer threads of one team of 1 + inner 2. */
    int cap4[2] = { 4, 4 };
    pl_topo_t t24 = { 2, cap4, NULL, 2.0 };
    pl_bubble_t fit[3] = { { -1, 0, 2, NULL }, { 0, 0, 3, NULL }, { 0, 1, 3, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &t24, fit, 3, node, core, NULL));
    bt_print(fit, 3, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0
    // CHECK-NEXT: b1: 0:0 0:1 0:2
    // CHECK-NEXT: b2: 1:0 1:1 1:2
    return 0;
}
