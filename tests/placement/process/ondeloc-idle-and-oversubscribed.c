// ondeloc-idle-and-oversubscribed.c: ranks without traffic keep their previous node or take round robin; more ranks than cores share every node evenly.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

int main(void)
{
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    uint64_t m[64] = { 0 };
    int node[8], core[8];
    // No traffic at all: round robin over nodes with free slots.
    ot_map(&topo, 4, m, NULL, node, core);
    // CHECK: moved 4 nodes 0 1 0 1 why idle-round-robin idle-round-robin idle-round-robin idle-round-robin
    // One heavy pair (1,3); ranks 0 and 2 idle.
    int prev[4] = { 1, 0, 1, 0 };
    ot_pair(m, 4, 1, 3, 100);
    ot_map(&topo, 4, m, prev, node, core);
    // (1,3) shared node 0 before and keeps it; 0 and 2 keep node 1.
    // CHECK-NEXT: moved 0 nodes 1 0 1 0 why idle-previous previous idle-previous previous
    int prev2[4] = { 0, 0, 0, 5 }; /* 5: unknown node */
    ot_map(&topo, 4, m, prev2, node, core);
    // (1,3): rank 1's node 0 has two free slots and 3 joins it; that fills node 0, so the idle
    // ranks 0 and 2 lose their previous node and go round robin to node 1.
    // CHECK-NEXT: moved 3 nodes 1 0 1 0 why idle-round-robin previous idle-round-robin join
    // 8 ranks on 2 nodes of 1 core: 4 slots per core, pairs together.
    int one[2] = { 1, 1 };
    pl_topo_t small = { 2, one, NULL, 2.0 };
    memset(m, 0, sizeof m);
    for (int r = 0; r < 8; r += 2)
        ot_pair(m, 8, r, r + 1, 1000 - r);
    ot_map(&small, 8, m, NULL, node, core);
    // CHECK-NEXT: moved 8 nodes 0 0 1 1 0 0 1 1
    printf("cores");
    for (int r = 0; r < 8; r++)
        printf(" %d", core[r]);
    printf("\n");
    // CHECK-NEXT: cores 0 0 0 0 0 0 0 0
    return 0;
}
