// data-shared-table-interleave.c: a lookup table the primary first-touched (all on node 0) that every thread reads at random: the samples of threads of different nodes alternate, so the table is shared and interleaved over the nodes of its users (Carrefour), which balances the remote references of the critical path; the threads' own output blocks are private.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "data_test.h"

/* n samples `step` pages apart, each from a thread drawn at random among nt, all on node 0. */
static int random_users(pl_data_sample_t *s, int at, int n, uint64_t lo, uint64_t step, int nt, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        s[at + i] = (pl_data_sample_t){.addr = lo + (uint64_t)i * step * PG,
                                       .thread = (int)(data_rng(&seed) % (uint64_t)nt), .node = 0};
    return at + n;
}

/* As random_users with two threads, thread 1 first at a watched page `percent` times in 100. */
static int skewed_users(pl_data_sample_t *s, int at, int n, uint64_t lo, uint64_t step, int percent, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        s[at + i] = (pl_data_sample_t){.addr = lo + (uint64_t)i * step * PG,
                                       .thread = data_rng(&seed) % 100 < (uint64_t)percent, .node = 0};
    return at + n;
}

int main(void)
{
    uint64_t base = 0x20000000;
    pl_data_sample_t s[600];
    pl_data_range_t range = {base, base + 32 * MIB, 1};

    // Two nodes, one thread each; 128 samples over the 32 MiB table.
    int cap2[2] = {1, 1};
    pl_topo_t two = {2, cap2, NULL, 2.0};
    int where2[2] = {0, 1};
    pl_data_params_t p = data_params(100, 30);
    p.bridge_bytes = 256 * 1024;
    int n = random_users(s, 0, 128, base, 64, 2, 7);
    // Before: thread 1's references are all remote; interleaved, each thread's are half remote.
    show_plan("two", &two, s, n, 2, where2, &range, 1, &p, base);
    // The samples of a thread weigh alike in all (69 and 59 here: which thread touched a watched page
    // first): 0.269 saved, 0.151 at worst; half the pages move (those the interleave puts on node 1).
    // CHECK: two: rc 0 samples 128 remote 59 candidates 1 actions 1 gain 0.269 worst 0.151 saved 454.3 ms cost 45.0 ms pages 4080 enough 1
    // CHECK-NEXT: two:   interleave [0, 32644) KiB node -1 nodes 0x3 shared 1 samples 128 remote 59 pages 4080
    // With Linux balancing on (no_migrate) the table is interleaved all the same.
    p.no_migrate = 1;
    show_plan("balancing", &two, s, n, 2, where2, &range, 1, &p, base);
    // CHECK: balancing: rc 0 samples 128 remote 59 candidates 1 actions 1 gain 0.269
    // CHECK-NEXT: balancing:   interleave [0, 32644) KiB node -1 nodes 0x3 shared 1

    // One thread first at most watched pages (the sampler records who came first, and one thread may
    // be faster): runs of its samples reach min_run by chance, but the other's samples lie between
    // them, so the table is still one shared piece (all but a few samples at its edge), never runs
    // migrated to the node of whichever thread has the most samples in them.
    p.no_migrate = 0;
    for (int percent = 10; percent <= 90; percent += 80) {
        char what[32];
        snprintf(what, sizeof what, "skewed %d", percent);
        n = skewed_users(s, 0, 216, base, 38, percent, 3);
        show_plan(what, &two, s, n, 2, where2, &range, 1, &p, base);
    }
    // CHECK: skewed 10: rc 0 {{.*}} actions 1
    // CHECK-NEXT: skewed 10:   interleave [0, {{[0-9]+}}) KiB node -1 nodes 0x3 shared 1 samples 21{{[0-9]}}
    // CHECK: skewed 90: rc 0 {{.*}} actions 1
    // CHECK-NEXT: skewed 90:   interleave [0, {{[0-9]+}}) KiB node -1 nodes 0x3 shared 1 samples 216

    // Four nodes on a line, one thread each: the table on node 0 is 40 away from thread 3.
    int cap4[4] = {1, 1, 1, 1};
    double line[16] = {10, 20, 30, 40, 20, 10, 20, 30, 30, 20, 10, 20, 40, 30, 20, 10};
    pl_topo_t four = {4, cap4, line, 0};
    int where4[4] = {0, 1, 2, 3};
    p = data_params(100, 30);
    p.bridge_bytes = 64 * 1024;
    n = random_users(s, 0, 512, base, 16, 4, 11);
    // Interleaved, no thread is farther than 2.5 on average (the table at node 2 would leave thread 0
    // at 3; on node 0, thread 3 is at 4).
    show_plan("four", &four, s, n, 4, where4, &range, 1, &p, base);
    // CHECK: four: rc 0 samples 512 remote 385 candidates 1 actions 1 gain 0.366 worst 0.206 saved 618.5 ms cost 67.6 ms pages 6139 enough 1
    // CHECK-NEXT: four:   interleave [0, 32740) KiB node -1 nodes 0xf shared 1 samples 512 remote 385 pages 6139

    // The threads' output blocks behind the table in the same mapping (8 MiB each, first-touched by
    // the primary too): private, thread 1's migrates; the table is still interleaved.
    pl_data_range_t big = {base, base + 48 * MIB, 1};
    p = data_params(100, 30);
    p.bridge_bytes = 256 * 1024;
    n = random_users(s, 0, 256, base, 32, 2, 7);
    n = add_block(s, n, 64, base + 32 * MIB, 128 * 1024, 0, 0);
    n = add_block(s, n, 64, base + 40 * MIB, 128 * 1024, 1, 0);
    show_plan("outputs", &two, s, n, 2, where2, &big, 1, &p, base);
    // Thread 0's block is already on node 0: no action. The better net saving alone goes first.
    // CHECK: outputs: rc 0 samples 384 remote 186 candidates 2 actions 2 gain 0.365 worst 0.302 saved 904.9 ms cost 67.9 ms pages 6152 enough 1
    // CHECK-NEXT: outputs:   migrate [40896, 49152) KiB node 1 nodes 0x2 shared 0 samples 64 remote 64 pages 2064
    // CHECK-NEXT: outputs:   interleave [0, 32704) KiB node -1 nodes 0x3 shared 1 samples 256 remote 122 pages 4088
    return 0;
}
