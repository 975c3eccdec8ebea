// A region whose executions repeat in a cycle of kinds (FFTW's one region: a forward and a backward transform,
// two loops each) is verified like with like: times that vary keep its baseline open until they show a cycle
// (two of it at least, in a ring of 8) or the ring is full; the baseline is its last whole cycles, the
// verification takes as many executions, and each window counts by the fastest execution of each position in
// the cycle. A move that made the long loop slower and the short one faster was kept when the windows' fastest
// executions (both short ones) were compared; now it is rolled back, in either phase of the cycle, and a move
// that makes the cycle faster is kept. Of the cycles that fit, the shortest nearly as tight as the tightest
// counts: FFTW's forward and backward loops pair in a cycle of 2 within 13 %, its cycle of 4 fits exactly, and
// a move that made one forward loop faster, one backward loop a little slower, is kept by the 4 (the 2 takes
// the fastest of the two, which got slower). White box: the loop fed critical paths directly, on two nodes of
// this machine's CPUs; a replayed-like table sends each thread to the other node.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,sample=5 OMP_PLACEMENT_VERBOSE=1 %t 2>&1 | FileCheck %s
#include "two_nodes.h"

static void run(const char *what, const void *code, const uint64_t *before, int nbefore, const uint64_t *after,
                int nafter)
{
    rt_region_t *r = sampled_region(code, crossed);
    for (int i = 0; i < nbefore; i++) {
        rt_loop_region_end(r, before[i]);
        if (i >= 4 && i + 1 < nbefore)
            printf("%s: after %d executions %s\n", what, i + 1, rt_outcome_name(r->outcome));
    }
    const rt_loop_region_t *st = rt_loop_of(r);
    printf("%s: cycle %d, window %d, before %.0f\n", what, st->cycle, st->window_n, st->cp_before_ns);
    for (int i = 0; i < nafter; i++)
        rt_loop_region_end(r, after[i]);
    printf("%s: %s, after %.0f, cpus %d,%d\n", what, rt_outcome_name(r->outcome), st->cp_after_ns, r->pin_cpu[0],
           r->pin_cpu[1]);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); // its lines among the log's, in order
    if (loop_on_two_nodes())
        return 1;
    static const uint64_t cycle[] = {1000, 300, 1010, 305, 1005, 300, 1000, 302};
    static int long_slower, other_phase, faster, fftw, no_cycle, steady;
    // Five executions show a cycle of 2, not yet two of a cycle of 4: the baseline stays open until the ring
    // is full, then takes its last 8, the mean of the fastest long and short ones.
    // CHECK: long slower: after 5 executions sampling
    // CHECK-NEXT: long slower: after 6 executions sampling
    // CHECK-NEXT: long slower: after 7 executions sampling
    // CHECK-NEXT: ompnuma: region 0: its executions repeat in a cycle of 2; its windows take 8, the fastest of each position counts
    // CHECK: long slower: cycle 2, window 8, before 650
    // The short loop 50 faster, the long one 200 slower: (1200 + 250) / 2.
    // CHECK: critical path 725 ns after, 650 ns before
    // CHECK-NEXT: long slower: rolled_back, after 725, cpus -1,-1
    run("long slower", &long_slower, cycle, 8, (const uint64_t[]){1200, 250, 1210, 250, 1200, 255, 1205, 250}, 8);
    // CHECK: other phase: cycle 2, window 8, before 650
    // CHECK: other phase: rolled_back, after 675, cpus -1,-1
    run("other phase", &other_phase, cycle, 8, (const uint64_t[]){250, 1100, 250, 1105, 255, 1100, 250, 1100}, 8);
    // CHECK: faster: cycle 2, window 8, before 650
    // CHECK: faster: kept, after 590, cpus 1,0
    run("faster", &faster, cycle, 8, (const uint64_t[]){900, 280, 905, 280, 900, 285, 900, 280}, 8);
    // FFTW's four loops (paced 2-node VM, ms): the first forward loop reads the serially filled input.
    // CHECK: fftw: cycle 4, window 8, before 2997
    // CHECK: fftw: kept, after 2956, cpus 1,0
    run("fftw", &fftw, (const uint64_t[]){2100, 3874, 1863, 4150, 2100, 3874, 1863, 4150}, 8,
        (const uint64_t[]){1900, 3874, 1900, 4150, 1900, 3874, 1900, 4150}, 8);
    // Times without a pattern: the baseline stays open until the ring is full (or `sample` + 4 executions),
    // then counts by its fastest; the verification takes as many executions.
    // CHECK: no cycle: after 7 executions sampling
    // CHECK: no cycle: cycle 1, window 8, before 300
    // CHECK: no cycle: kept, after 250, cpus 1,0
    run("no cycle", &no_cycle, (const uint64_t[]){1000, 300, 700, 500, 400, 900, 350, 600}, 8,
        (const uint64_t[]){600, 250, 900, 260, 400, 500, 700, 300}, 8);
    // Steady times (within 20 % of each other) close the baseline after `sample` executions, by the fastest.
    // CHECK: steady: cycle 1, window 5, before 300
    // CHECK: steady: rolled_back, after 310, cpus -1,-1
    run("steady", &steady, (const uint64_t[]){310, 300, 320, 305, 300}, 5, (const uint64_t[]){310, 320, 330, 315, 312}, 5);
    return 0;
}
