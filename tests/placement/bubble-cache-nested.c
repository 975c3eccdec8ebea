// bubble-cache-nested.c: cache puts each outer thread of a 4x2 nest on its own node and each inner team on its master's node (Nested-STREAM, section 4.3).
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    int cap[4] = { 2, 2, 2, 2 };
    pl_topo_t topo = { 4, cap, NULL, 1.5 };
    /* Outer team of 4; outer thread i creates inner team i+1 of 2. */
    pl_bubble_t b[5] = { { -1, 0, 4, NULL }, { 0, 0, 2, NULL }, { 0, 1, 2, NULL },
                         { 0, 2, 2, NULL }, { 0, 3, 2, NULL } };
    int node[12], core[12];
    printf("rc %d slots %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, b, 5, node, core, NULL),
           pl_bubble_slots(b, 5));
    // CHECK: rc 0 slots 12
    bt_print(b, 5, node, core);
    // Outer threads spread one per node; each inner team's thread 0 is its
    // master (same node and core), its new thread takes the node's other core.
    // CHECK-NEXT: b0: 0:0 1:0 2:0 3:0
    // CHECK-NEXT: b1: 0:0 0:1
    // CHECK-NEXT: b2: 1:0 1:1
    // CHECK-NEXT: b3: 2:0 2:1
    // CHECK-NEXT: b4: 3:0 3:1
    for (int i = 1; i < 5; i++)
        printf("inner %d: %d node(s), on master's node %d\n", i, bt_nodes_used(b, i, node),
               node[4 + 2 * (i - 1)] == node[b[i].master]);
    // CHECK-COUNT-4: inner {{[1-4]}}: 1 node(s), on master's node 1

    /* The same nest on 4 x 4: the inner teams still stay with their masters
     * and the machine's other cores stay free (a team of 4 nodes x 2). */
    int cap4[4] = { 4, 4, 4, 4 };
    pl_topo_t t44 = { 4, cap4, NULL, 1.5 };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &t44, b, 5, node, core, NULL));
    bt_print(b, 5, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0 2:0 3:0
    // CHECK-NEXT: b1: 0:0 0:1
    // CHECK-NEXT: b2: 1:0 1:1
    return 0;
}
