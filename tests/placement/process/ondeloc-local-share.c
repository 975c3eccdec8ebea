// ondeloc-local-share.c: the share of the traffic a mapping keeps on-node: all-to-all with an interval's noise makes OnDeLocMap+ propose another pairing that keeps no more on-node (below min_gain, the mapper keeps its mapping), a phase change one that keeps all of it.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

static void shares(int n, const uint64_t *m, const int *a, const int *b)
{
    pl_comm_matrix_t cm = { n, m };
    printf("share %.3f -> %.3f\n", pl_ondeloc_local_share(&cm, a), pl_ondeloc_local_share(&cm, b));
}

int main(void)
{
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    uint64_t m[16] = { 0 };
    int prev[4] = { 0, 0, 1, 1 }, node[4], core[4];
    // All-to-all, every pair 1000 bytes, but the interval ended inside an
    // iteration: pairs (0,2) and (1,3) got one more message.
    for (int x = 0; x < 4; x++)
        for (int y = x + 1; y < 4; y++)
            ot_pair(m, 4, x, y, 1000);
    ot_pair(m, 4, 0, 2, 1010);
    ot_pair(m, 4, 1, 3, 1010);
    ot_map(&topo, 4, m, prev, node, core);
    // CHECK: moved 2 nodes 0 1 0 1 why previous join join previous
    shares(4, m, prev, node);
    // CHECK-NEXT: share 0.332 -> 0.336
    // A phase change from pairs (0,1),(2,3) to (0,2),(1,3): everything was off-node, all would be on.
    memset(m, 0, sizeof m);
    ot_pair(m, 4, 0, 2, 5000);
    ot_pair(m, 4, 1, 3, 5000);
    ot_map(&topo, 4, m, prev, node, core);
    // CHECK: moved 2 nodes 0 1 0 1
    shares(4, m, prev, node);
    // CHECK-NEXT: share 0.000 -> 1.000
    // No traffic: nothing to keep; ranks with unknown nodes are never together.
    memset(m, 0, sizeof m);
    shares(4, m, prev, node);
    // CHECK-NEXT: share 0.000 -> 0.000
    int unknown[4] = { -1, -1, 1, 1 };
    ot_pair(m, 4, 0, 1, 100);
    ot_pair(m, 4, 2, 3, 100);
    shares(4, m, unknown, prev);
    // CHECK-NEXT: share 0.500 -> 1.000
    pl_comm_matrix_t cm = { 4, m };
    printf("bad %d %d\n", (int)pl_ondeloc_local_share(NULL, prev), (int)pl_ondeloc_local_share(&cm, NULL));
    // CHECK-NEXT: bad -22 -22
    return 0;
}
