// ondeloc-paper-8-ranks.c: the paper's Fig. 2 shape (8 ranks, 2 nodes of 4 cores, ranks 0-3 heavier): heavy pairs share a node, different pairs go to different nodes, a stable matrix migrates nothing.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

int main(void)
{
    int cap[2] = { 4, 4 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    uint64_t m[64] = { 0 };
    ot_pair(m, 8, 0, 1, 1000);
    ot_pair(m, 8, 2, 3, 900);
    ot_pair(m, 8, 4, 5, 100);
    ot_pair(m, 8, 6, 7, 90);
    ot_pair(m, 8, 0, 2, 10);  /* light traffic across the heavy pairs */
    ot_pair(m, 8, 1, 3, 5);
    int node[8], core[8], prev[8];
    // First decision, no previous mapping: (0,1) node 0, (2,3) node 1, then round robin again.
    ot_map(&topo, 8, m, NULL, node, core);
    // CHECK: moved 8 nodes 0 0 1 1 0 0 1 1 why round-robin round-robin round-robin round-robin round-robin round-robin round-robin round-robin
    printf("cores");
    for (int r = 0; r < 8; r++)
        printf(" %d", core[r]);
    printf("\n");
    // CHECK-NEXT: cores 0 1 0 1 2 3 2 3
    memcpy(prev, node, sizeof prev);
    // A light pair becomes the heaviest: every pair still shares its previous node.
    ot_pair(m, 8, 6, 7, 4000);
    ot_map(&topo, 8, m, prev, node, core);
    // CHECK-NEXT: moved 0 nodes 0 0 1 1 0 0 1 1 why previous previous previous previous previous previous previous previous
    // OnDeLoc without the previous mapping would have moved every rank:
    ot_map(&topo, 8, m, NULL, node, core);
    // CHECK-NEXT: moved 8 nodes 1 1 0 0 1 1 0 0 why round-robin round-robin round-robin round-robin round-robin round-robin round-robin round-robin
    return 0;
}
