// A move is kept only when the region measured faster after it: the region, 202.8 us before and
// 253.9 us after, was kept because its noisy baseline (a spread of 50 %) allowed up to 50 % more. Now it is
// rolled back, and a move that measures faster is kept. White box: the loop fed critical paths directly, on
// two nodes of this machine's CPUs; a replayed-like table sends each thread to the other node.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=2 %t | FileCheck %s
#include "two_nodes.h"

// Times that vary by 50 % with no cycle: the baseline takes `sample` + 4 executions (cycle-like-with-like.c),
// and the verification as many as its window holds.
#define BEFORE 6
#define AFTER 5

static void run(const char *what, const void *code, const uint64_t *before, const uint64_t *after)
{
    rt_region_t *r = sampled_region(code, crossed);
    for (int i = 0; i < BEFORE; i++)
        rt_loop_region_end(r, before[i]);
    printf("%s: after sampling %s, cpus %d,%d\n", what, rt_outcome_name(r->outcome), r->pin_cpu[0], r->pin_cpu[1]);
    for (int i = 0; i < AFTER; i++)
        rt_loop_region_end(r, after[i]);
    printf("%s: %s, cpus %d,%d, back through %d,%d\n", what, rt_outcome_name(r->outcome), r->pin_cpu[0],
           r->pin_cpu[1], r->back_cpu[0], r->back_cpu[1]);
}

int main(void)
{
    if (loop_on_two_nodes())
        return 1;
    static int slower, faster;
    // CHECK: slower: after sampling verifying, cpus 1,0
    // CHECK-NEXT: slower: rolled_back, cpus -1,-1, back through 0,1
    run("slower", &slower, (const uint64_t[]){202800, 304200, 250000, 290000, 230000, 304000},
        (const uint64_t[]){253900, 260000, 270000, 255000, 300000});
    // CHECK-NEXT: faster: after sampling verifying, cpus 1,0
    // CHECK-NEXT: faster: kept, cpus 1,0, back through -1,-1
    run("faster", &faster, (const uint64_t[]){202800, 304200, 250000, 290000, 230000, 304000},
        (const uint64_t[]){150000, 190000, 170000, 160000, 200000});
    return 0;
}
