// ondeloc-bad-input.c: bad arguments of OnDeLocMap+ and the interval rule return negative errno values, never crash.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include "ondeloc_test.h"

int main(void)
{
    int cap[2] = { 2, 2 }, zero[2] = { 0, 0 }, neg[2] = { 2, -1 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    uint64_t m[16] = { 0 };
    int node[4];
    pl_mapping_t out = { 4, node, NULL };
    pl_comm_matrix_t cm = { 4, m };
    char w[4096];
    size_t wb = pl_ondeloc_workspace_bytes(4, 2);
    printf("workspace %d\n", wb > 0 && wb <= sizeof w);
    // CHECK: workspace 1
    printf("%d\n", pl_ondeloc_map(NULL, &cm, NULL, &out, NULL, w, wb) == -EINVAL);
    // CHECK-NEXT: 1
    printf("%d\n", pl_ondeloc_map(&topo, NULL, NULL, &out, NULL, w, wb) == -EINVAL);
    // CHECK-NEXT: 1
    pl_comm_matrix_t nullvol = { 4, NULL }, nonerank = { 0, m };
    printf("%d %d\n", pl_ondeloc_map(&topo, &nullvol, NULL, &out, NULL, w, wb) == -EINVAL,
           pl_ondeloc_map(&topo, &nonerank, NULL, &out, NULL, w, wb) == -EINVAL);
    // CHECK-NEXT: 1 1
    pl_mapping_t wrong = { 3, node, NULL }, nonode = { 4, NULL, NULL };
    printf("%d %d %d\n", pl_ondeloc_map(&topo, &cm, NULL, &wrong, NULL, w, wb) == -EINVAL,
           pl_ondeloc_map(&topo, &cm, NULL, &nonode, NULL, w, wb) == -EINVAL,
           pl_ondeloc_map(&topo, &cm, NULL, NULL, NULL, w, wb) == -EINVAL);
    // CHECK-NEXT: 1 1 1
    printf("%d %d\n", pl_ondeloc_map(&topo, &cm, NULL, &out, NULL, w, wb - 1) == -ENOBUFS,
           pl_ondeloc_map(&topo, &cm, NULL, &out, NULL, NULL, wb) == -ENOBUFS);
    // CHECK-NEXT: 1 1
    pl_topo_t empty = { 2, zero, NULL, 2.0 }, bad = { 2, neg, NULL, 2.0 }, nonodes = { 0, cap, NULL, 2.0 };
    printf("%d %d %d\n", pl_ondeloc_map(&empty, &cm, NULL, &out, NULL, w, wb) == -ENOSPC,
           pl_ondeloc_map(&bad, &cm, NULL, &out, NULL, w, wb) == -EINVAL,
           pl_ondeloc_map(&nonodes, &cm, NULL, &out, NULL, w, wb) == -EINVAL);
    // CHECK-NEXT: 1 1 1
    printf("ws %zu %zu\n", pl_ondeloc_workspace_bytes(0, 2), pl_ondeloc_workspace_bytes(4, 0));
    // CHECK-NEXT: ws 0 0
    // One rank: nothing to pair, it gets node 0.
    pl_mapping_t one = { 1, node, NULL };
    pl_comm_matrix_t cm1 = { 1, m };
    printf("one %d node %d\n", pl_ondeloc_map(&topo, &cm1, NULL, &one, NULL, w, sizeof w), node[0]);
    // CHECK-NEXT: one 1 node 0

    pl_ondeloc_interval_t rule = { 2.0, 100, 1000 }, r;
    double next = -1;
    r = rule; r.v = 1.0;
    printf("%d ", pl_ondeloc_next_interval(&r, 200, 0, &next) == -EINVAL);
    r = rule; r.v = NAN;
    printf("%d ", pl_ondeloc_next_interval(&r, 200, 0, &next) == -EINVAL);
    r = rule; r.min_ms = 0;
    printf("%d ", pl_ondeloc_next_interval(&r, 200, 0, &next) == -EINVAL);
    r = rule; r.max_ms = 50;
    printf("%d ", pl_ondeloc_next_interval(&r, 200, 0, &next) == -EINVAL);
    printf("%d ", pl_ondeloc_next_interval(&rule, 0, 0, &next) == -EINVAL);
    printf("%d ", pl_ondeloc_next_interval(&rule, INFINITY, 0, &next) == -EINVAL);
    printf("%d ", pl_ondeloc_next_interval(NULL, 200, 0, &next) == -EINVAL);
    printf("%d next %g\n", pl_ondeloc_next_interval(&rule, 200, 0, NULL) == -EINVAL, next);
    // CHECK-NEXT: 1 1 1 1 1 1 1 1 next -1
    return 0;
}
