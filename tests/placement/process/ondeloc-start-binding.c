// ondeloc-start-binding.c: the nodes ranks are bound to at start are their previous nodes for the first mapping: a matching mapping moves nobody, a split pair moves one rank, an unbound rank counts as moved.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

static void starts(int n, int nnodes, const int *cpus, int *start)
{
    int rc = pl_ondeloc_start_nodes(n, nnodes, cpus, start);
    printf("known %d start", rc);
    for (int r = 0; rc >= 0 && r < n; r++)
        printf(" %d", start[r]);
    printf("\n");
}

int main(void)
{
    int cap[4] = { 2, 2, 2, 2 };
    pl_topo_t topo = { 4, cap, NULL, 2.0 };
    int start[4], node[4], core[4];
    /* CPUs per node of each rank: --map-by core --bind-to core on 4 nodes
     * of 2 CPUs (ranks 0 and 1 on node 0, 2 and 3 on node 1). */
    int core_bind[16] = { 1, 0, 0, 0,  1, 0, 0, 0,  0, 1, 0, 0,  0, 1, 0, 0 };
    starts(4, 4, core_bind, start);
    // CHECK: known 4 start 0 0 1 1

    /* Pairs (0,1) and (2,3): what the binding already does. */
    uint64_t m[16] = { 0 };
    ot_pair(m, 4, 0, 1, 1000);
    ot_pair(m, 4, 2, 3, 900);
    ot_map(&topo, 4, m, start, node, core);
    // CHECK-NEXT: moved 0 nodes 0 0 1 1 why previous previous previous previous
    pl_comm_matrix_t cm = { 4, m };
    printf("share at start %.2f\n", pl_ondeloc_local_share(&cm, start));
    // CHECK-NEXT: share at start 1.00

    /* Pairs (0,2) and (1,3), split by the binding: one rank of each moves
     * (2 joins 0 on node 0, 1 joins 3 on node 1); without the start nodes
     * every rank counts as moved. */
    memset(m, 0, sizeof m);
    ot_pair(m, 4, 0, 2, 1000);
    ot_pair(m, 4, 1, 3, 900);
    ot_map(&topo, 4, m, start, node, core);
    // CHECK-NEXT: moved 2 nodes 0 1 0 1 why previous join join previous
    ot_map(&topo, 4, m, NULL, node, core);
    // CHECK-NEXT: moved 4

    /* --bind-to none: every rank spans all nodes, nothing is known. A rank
     * bound to two CPUs of one node (--bind-to numa) is known; one with no
     * CPU at all is not. */
    int mixed[16] = { 2, 2, 2, 2,  0, 0, 2, 0,  0, 0, 0, 0,  0, 1, 0, 1 };
    starts(4, 4, mixed, start);
    // CHECK-NEXT: known 1 start -1 2 -1 -1

    /* Bad input: a negative count, sizes below 1, NULL tables. */
    int neg[4] = { 1, -1, 0, 0 };
    printf("%d %d %d %d %d\n", pl_ondeloc_start_nodes(1, 4, neg, start), pl_ondeloc_start_nodes(0, 4, core_bind, start),
           pl_ondeloc_start_nodes(4, 0, core_bind, start), pl_ondeloc_start_nodes(4, 4, NULL, start),
           pl_ondeloc_start_nodes(4, 4, core_bind, NULL));
    // CHECK-NEXT: -22 -22 -22 -22 -22
    return 0;
}
