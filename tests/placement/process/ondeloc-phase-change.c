// ondeloc-phase-change.c: after a phase change every heavy pair was split; each joins one partner's previous node, so 4 ranks move, the minimum.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "ondeloc_test.h"

int main(void)
{
    int cap[2] = { 4, 4 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    uint64_t m[64] = { 0 };
    int prev[8] = { 0, 0, 1, 1, 0, 0, 1, 1 }, node[8], core[8];
    ot_pair(m, 8, 0, 2, 1000);
    ot_pair(m, 8, 1, 3, 900);
    ot_pair(m, 8, 4, 6, 800);
    ot_pair(m, 8, 5, 7, 700);
    ot_map(&topo, 8, m, prev, node, core);
    // (0,2) and (1,3) fill node 0 (ranks 2 and 3 move), (4,6) and (5,7) node 1 (4 and 5 move).
    // CHECK: moved 4 nodes 0 0 0 0 1 1 1 1 why previous previous join join join join previous previous
    // The interval rule then divides the interval (changed) or multiplies it (unchanged).
    return 0;
}
