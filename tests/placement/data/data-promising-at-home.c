// data-promising-at-home.c: a team whose threads stay where they run still promises a data move when at
// least PL_PROMISE_MIN (4) of its references, and one in PL_DATA_PROMISE_SHARE (8), are remote, and every
// reference on its thread's node would make the model's critical path PL_DATA_PROMISE_GAIN (5 %) shorter:
// not when the remote ones are the thread off the critical path's. Bad input is refused with -EINVAL.
// RUN: %clang-omp -I%srcroot/placement -I%srcroot/placement/data -I%S/../Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "pl_data.h"
#include "pl_test.h"

static int promising(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    int cap[2] = {1, 1};
    pl_topo_t two = {2, cap, NULL, 2.0};
    pl_model_t model;
    pl_model_default(&model);
    uint64_t refs[4] = {a0, a1, b0, b1}, scratch[4];
    int node[2] = {0, 1}, core[2] = {0, 0};
    pl_tnt_t tnt = {2, 2, refs};
    pl_mapping_t map = {2, node, core};
    return pl_data_promising(&two, &tnt, &model, &map, scratch);
}

int main(void)
{
    // thread 0 on node 0, thread 1 on node 1: rows [on node 0, on node 1]
    static const uint64_t cases[][4] = {
        {100, 0, 0, 100},  // every reference local
        {100, 0, 3, 97},   // 3 remote: too few
        {16, 0, 4, 12},    // 4 remote, 1 in 8, thread 1 as busy as thread 0: its part is the critical path
        {20, 0, 4, 12},    // 4 remote, but fewer than 1 in 8
        {100, 0, 33, 67},  // a third of thread 1's remote, both threads alike (a block the other touched)
        {200, 0, 33, 67},  // the same, thread 0 twice as busy: the remote references are off the critical path
        {67, 33, 33, 67},  // a third of each thread's remote
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        printf("[%llu %llu] [%llu %llu]: %s\n", (unsigned long long)cases[i][0], (unsigned long long)cases[i][1],
               (unsigned long long)cases[i][2], (unsigned long long)cases[i][3],
               promising(cases[i][0], cases[i][1], cases[i][2], cases[i][3]) == 1 ? "promising" : "no");
    int cap[2] = {1, 1};
    pl_topo_t two = {2, cap, NULL, 2.0};
    pl_model_t model;
    pl_model_default(&model);
    uint64_t refs[4] = {1, 1, 1, 1}, scratch[4];
    int node[2] = {0, 2}, core[2] = {0, 0};
    pl_tnt_t tnt = {2, 2, refs};
    pl_mapping_t map = {2, node, core};
    printf("node out of range: %d\n", pl_data_promising(&two, &tnt, &model, &map, scratch));
    node[1] = 1;
    printf("no scratch: %d\n", pl_data_promising(&two, &tnt, &model, &map, NULL));
    return 0;
}
// CHECK: [100 0] [0 100]: no
// CHECK-NEXT: [100 0] [3 97]: no
// CHECK-NEXT: [16 0] [4 12]: promising
// CHECK-NEXT: [20 0] [4 12]: no
// CHECK-NEXT: [100 0] [33 67]: promising
// CHECK-NEXT: [200 0] [33 67]: no
// CHECK-NEXT: [67 33] [33 67]: promising
// CHECK-NEXT: node out of range: -22
// CHECK-NEXT: no scratch: -22
