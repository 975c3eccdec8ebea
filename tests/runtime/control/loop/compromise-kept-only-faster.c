// A compromise mapping is a move like any other: kept only if the team measures faster under it. Two regions of
// one team want opposite mappings (a moves the threads, b holds them where they were), so each switch re-pins
// both threads; b finds the re-pins unpaid and gives both one compromise mapping. Under it, each region's first
// settled window (after one skipped for the switch) is weighed against its window before. Slower: each region
// goes back to its own pins (a 1,0; b 0,1) and is never offered a compromise again. Faster: it stays. White box:
// the loop fed critical paths and re-pin counts directly, on two nodes of this machine's CPUs.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=2 %t | FileCheck %s
#include <stdio.h>

#include "two_nodes.h"

// One execution as the events count it (rt_events.c), then the loop's turn.
static void end(rt_region_t *r, uint64_t cp)
{
    r->executions++;
    r->cp_sum += cp;
    rt_loop_region_end(r, cp);
}

// One execution of a, then one of b, each re-pinning both threads when their pins differ.
static void both(rt_region_t *a, rt_region_t *b, uint64_t cp_a, uint64_t cp_b)
{
    int differ = a->pin_cpu[0] != b->pin_cpu[0];
    a->repins += differ ? 2 : 0;
    end(a, cp_a);
    b->repins += differ ? 2 : 0;
    end(b, cp_b);
}

static void show(const char *what, const rt_region_t *a, const rt_region_t *b)
{
    printf("%s: compromise %d %d, cpus %d,%d and %d,%d\n", what, rt_loop_of(a)->compromise, rt_loop_of(b)->compromise,
           a->pin_cpu[0],
           a->pin_cpu[1], b->pin_cpu[0], b->pin_cpu[1]);
}

static void run(const char *what, const void *code_a, const void *code_b, uint64_t shared)
{
    rt_region_t *a = sampled_region(code_a, crossed);
    rt_region_t *b = sampled_region(code_b, (const uint64_t[]){1000, 0, 0, 1000});
    end(a, 200000); // sampled
    end(a, 200000);
    end(a, 150000); // verified faster
    end(a, 150000);
    end(b, 100000); // sampled: holds the placement a moved away from
    end(b, 100000);
    printf("%s: a %s %d,%d; b %s %d,%d\n", what, rt_outcome_name(a->outcome), a->pin_cpu[0], a->pin_cpu[1],
           rt_outcome_name(b->outcome), b->pin_cpu[0], b->pin_cpu[1]);
    int i = 0;
    for (; i < 64 && rt_loop_of(a)->compromise == RT_COMPROMISE_NONE; i++)
        both(a, b, 150000, 100000);
    show(what, a, b);
    for (i = 0; i < 64 && rt_loop_of(a)->compromise == RT_COMPROMISE_PENDING; i++)
        both(a, b, shared, shared);
    show(what, a, b);
    for (i = 0; i < 64; i++)
        both(a, b, 150000, 100000);
    printf("%s: after 64 more, compromise %d %d\n", what, rt_loop_of(a)->compromise, rt_loop_of(b)->compromise);
}

int main(void)
{
    if (loop_on_two_nodes())
        return 1;
    static int slower_a, slower_b, faster_a, faster_b;
    // CHECK: slower: a kept 1,0; b unchanged 0,1
    // CHECK-NEXT: slower: compromise 1 1, cpus [[C0:[0-9]]],[[C1:[0-9]]] and [[C0]],[[C1]]
    // CHECK-NEXT: slower: compromise 3 3, cpus 1,0 and 0,1
    // CHECK-NEXT: slower: after 64 more, compromise 3 3
    run("slower", &slower_a, &slower_b, 200000);
    // CHECK-NEXT: faster: a kept 1,0; b unchanged 0,1
    // CHECK-NEXT: faster: compromise 1 1, cpus [[D0:[0-9]]],[[D1:[0-9]]] and [[D0]],[[D1]]
    // CHECK-NEXT: faster: compromise 2 2, cpus [[D0]],[[D1]] and [[D0]],[[D1]]
    // CHECK-NEXT: faster: after 64 more, compromise 2 2
    run("faster", &faster_a, &faster_b, 90000);
    return 0;
}
