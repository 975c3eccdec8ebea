// data-evidence-and-bad-input.c: a data plan needs samples whose gain survives sampling error, and a price it pays back; nothing is proposed where every thread is next to its data, nor migrated where the kernel balances; bad input is refused with -EINVAL / -ENOBUFS.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <errno.h>
#include "data_test.h"

int main(void)
{
    int cap[2] = {1, 1};
    pl_topo_t two = {2, cap, NULL, 2.0};
    int where[2] = {0, 1};
    uint64_t base = 0x50000000, K = 1024;
    pl_data_range_t range = {base, base + 4096 * K, 1};
    pl_data_sample_t s[64];
    pl_data_params_t p = data_params(100, 30);
    p.bridge_bytes = 64 * K;

    // Each thread's block already on its node: nothing to gain, nothing proposed.
    int n = add_block(s, 0, 16, base, 64 * K, 0, 0);
    n = add_block(s, n, 16, base + 2048 * K, 64 * K, 1, 1);
    show_plan("local", &two, s, n, 2, where, &range, 1, &p, base);
    // CHECK: local: rc 0 samples 32 remote 0 candidates 0 actions 0 gain 0.000 worst 0.000 {{.*}} enough 0

    // Four samples of thread 1, all remote (min_run 2 so that they form a piece): 4 - 2 x 2 = 0 at
    // worst, no evidence; five survive it (as for threads, pl_evidence).
    p.min_run = 2;
    n = add_block(s, 0, 4, base, 64 * K, 0, 0);
    n = add_block(s, n, 4, base + 2048 * K, 64 * K, 1, 0);
    show_plan("four", &two, s, n, 2, where, &range, 1, &p, base);
    // CHECK: four: rc 0 samples 8 remote 4 candidates 1 actions 1 gain 0.538 worst {{-?}}0.000 {{.*}} enough 0
    n = add_block(s, 0, 5, base, 64 * K, 0, 0);
    n = add_block(s, n, 5, base + 2048 * K, 64 * K, 1, 0);
    show_plan("five", &two, s, n, 2, where, &range, 1, &p, base);
    // CHECK: five: rc 0 samples 10 remote 5 candidates 1 actions 1 gain 0.538 worst 0.064 saved 192.3 ms cost 1.0 ms pages 81 enough 1

    // The kernel balances (no_migrate): a private block is its business.
    p.no_migrate = 1;
    show_plan("balancing", &two, s, n, 2, where, &range, 1, &p, base);
    // CHECK: balancing: rc 0 samples 10 remote 5 candidates 0 actions 0
    p.no_migrate = 0;

    // Bad input.
    pl_model_t model;
    pl_model_default(&model);
    pl_data_plan_t plan;
    pl_data_action_t act[4];
    char work[1 << 16];
    pl_data_range_t unsorted[2] = {{base + 8192 * K, base + 9216 * K, 1}, {base, base + 4096 * K, 1}};
    pl_data_range_t unaligned = {base + 1, base + 4096 * K, 1};
    pl_data_params_t odd = p;
    odd.page_bytes = 3000;
    pl_data_params_t negative = p;
    negative.executions = -1;
    printf("unsorted %d unaligned %d page %d negative %d threads %d small %d\n",
           pl_data_plan(&two, &model, s, n, 2, where, unsorted, 2, &p, act, 4, &plan, work, sizeof work),
           pl_data_plan(&two, &model, s, n, 2, where, &unaligned, 1, &p, act, 4, &plan, work, sizeof work),
           pl_data_plan(&two, &model, s, n, 2, where, &range, 1, &odd, act, 4, &plan, work, sizeof work),
           pl_data_plan(&two, &model, s, n, 2, where, &range, 1, &negative, act, 4, &plan, work, sizeof work),
           pl_data_plan(&two, &model, s, n, 0, where, &range, 1, &p, act, 4, &plan, work, sizeof work),
           pl_data_plan(&two, &model, s, n, 2, where, &range, 1, &p, act, 4, &plan, work, 64));
    // CHECK: unsorted -22 unaligned -22 page -22 negative -22 threads -22 small -105
    printf("workspace for 65 nodes %zu\n", pl_data_workspace_bytes(10, 2, 65));
    // CHECK: workspace for 65 nodes 0
    return 0;
}
