// ondeloc-ties-ring.c: a ring of 8 equal pairs on 4 nodes of 2 cores: ties go to the lower ranks, pairs whose rank is placed are skipped, each node gets one pair.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

int main(void)
{
    int cap[4] = { 2, 2, 2, 2 };
    pl_topo_t topo = { 4, cap, NULL, 2.0 };
    uint64_t m[64] = { 0 };
    int node[8], core[8];
    for (int r = 0; r < 8; r++)
        ot_pair(m, 8, r, (r + 1) % 8, 64);
    // Order: (0,1) (0,7) (1,2) (2,3) ...: (0,1) node 0, (2,3) node 1, (4,5) node 2, (6,7) node 3.
    ot_map(&topo, 8, m, NULL, node, core);
    // CHECK: moved 8 nodes 0 0 1 1 2 2 3 3
    // Same volumes, one-way only (x sends, y does not): the pair volume is what counts.
    memset(m, 0, sizeof m);
    for (int r = 0; r < 8; r++)
        m[r * 8 + (r + 1) % 8] = 64;
    ot_map(&topo, 8, m, NULL, node, core);
    // CHECK-NEXT: moved 8 nodes 0 0 1 1 2 2 3 3
    // All pairs equal (all-to-all): ties by rank, one pair per node.
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            m[x * 8 + y] = x == y ? 0 : 10;
    ot_map(&topo, 8, m, NULL, node, core);
    // (0,1) n0, (2,3) n1, (4,5) n2, (6,7) n3.
    // CHECK-NEXT: moved 8 nodes 0 0 1 1 2 2 3 3
    return 0;
}
