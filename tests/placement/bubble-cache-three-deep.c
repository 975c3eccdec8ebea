// bubble-cache-three-deep.c: cache on a 2x2x2 nest keeps the innermost teams whole and splits the outer levels when a subtree is larger than a node.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    /* b0 outer team; b1, b2 middle teams of outer threads 0, 1; b3..b6 the
     * innermost teams of the middle threads. 8 distinct threads. */
    pl_bubble_t b[7] = { { -1, 0, 2, NULL }, { 0, 0, 2, NULL }, { 0, 1, 2, NULL },
                         { 1, 0, 2, NULL }, { 1, 1, 2, NULL }, { 2, 0, 2, NULL },
                         { 2, 1, 2, NULL } };
    int node[14], core[14];

    /* 4 nodes x 2 cores: each outer thread's subtree (4 threads) needs two
     * nodes. The innermost teams share the most, so they stay whole and each
     * middle team is the one that spans two nodes. */
    int cap[4] = { 2, 2, 2, 2 };
    pl_topo_t topo = { 4, cap, NULL, 1.5 };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, b, 7, node, core, NULL));
    bt_print(b, 7, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 2:0
    // CHECK-NEXT: b1: 0:0 1:0
    // CHECK-NEXT: b2: 2:0 3:0
    // CHECK-NEXT: b3: 0:0 0:1
    // CHECK-NEXT: b4: 1:0 1:1
    // CHECK-NEXT: b5: 2:0 2:1
    // CHECK-NEXT: b6: 3:0 3:1
    for (int i = 3; i < 7; i++)
        printf("innermost b%d: %d node(s)\n", i, bt_nodes_used(b, i, node));
    // CHECK-COUNT-4: innermost b{{[3-6]}}: 1 node(s)

    /* 2 nodes x 4 cores: a whole outer thread's subtree fits one node, so
     * every team below the outer one stays on its master's node. */
    int cap4[2] = { 4, 4 };
    pl_topo_t t24 = { 2, cap4, NULL, 1.5 };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &t24, b, 7, node, core, NULL));
    bt_print(b, 7, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0
    // CHECK-NEXT: b1: 0:0 0:1
    // CHECK-NEXT: b2: 1:0 1:1
    // CHECK-NEXT: b3: 0:0 0:2
    // CHECK-NEXT: b4: 0:1 0:3
    // CHECK-NEXT: b5: 1:0 1:2
    // CHECK-NEXT: b6: 1:1 1:3
    return 0;
}
