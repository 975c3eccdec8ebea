// data-ranges-from-samples.c: which pages a piece takes: the pages between samples of one node's threads, up to half a bridge past a chain's ends, never across a gap longer than the bridge, never outside its mapping; boundaries whose owner the samples do not tell are left alone; a short run of one node inside a shared table is part of the table; a mapping the program placed itself is never acted on.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "data_test.h"

int main(void)
{
    int cap[2] = {1, 1};
    pl_topo_t two = {2, cap, NULL, 2.0};
    int where[2] = {0, 1};
    uint64_t base = 0x40000000, K = 1024;
    pl_data_sample_t s[256];
    pl_data_params_t p = data_params(100, 30);
    p.bridge_bytes = 64 * K; /* the sampler watched every 16th page */

    // Two arrays of thread 1 in one mapping, 1 MiB apart, with nothing sampled between them (the
    // gap is longer than the bridge: pages the sampler watched that nobody touched): two chains,
    // two actions, each reaching 32 KiB (half a bridge) past its samples, and the pages between
    // stay. The first array starts 8 KiB into the mapping: its piece starts at the mapping.
    pl_data_range_t one = {base, base + 8 * 1024 * K, 1};
    int n = add_block(s, 0, 16, base + 8 * K, 64 * K, 1, 0);
    n = add_block(s, n, 16, base + 2048 * K, 64 * K, 1, 0);
    show_plan("gap", &two, s, n, 2, where, &one, 1, &p, base);
    // CHECK: gap: rc 0 samples 32 remote 32 candidates 2 actions 2
    // CHECK-DAG: gap:   migrate [0, 1004) KiB node 1
    // CHECK-DAG: gap:   migrate [2016, 3044) KiB node 1

    // Thread 0's block, then 4 samples whose threads alternate 1, 0, 1, 0 (fewer than min_run: the
    // owner of the boundary is not told), then thread 1's block: thread 1's piece starts halfway
    // between the last alternating sample (1216 KiB) and its own first (1280 KiB); the alternating
    // pages stay where they are.
    n = add_block(s, 0, 16, base, 64 * K, 0, 0);
    for (int i = 0; i < 4; i++)
        s[n++] = (pl_data_sample_t){.addr = base + 1024 * K + (uint64_t)i * 64 * K, .thread = (i + 1) % 2, .node = 0};
    n = add_block(s, n, 16, base + 1280 * K, 64 * K, 1, 0);
    show_plan("boundary", &two, s, n, 2, where, &one, 1, &p, base);
    // CHECK: boundary: rc 0 samples 36 remote 18 candidates 1 actions 1
    // CHECK-NEXT: boundary:   migrate [1248, 2276) KiB node 1 nodes 0x2 shared 0 samples 16 remote 16

    // A table every thread reads (threads alternate) holding, by chance, a run of 9 samples of thread 1
    // (more than min_run, fewer than twice it): the run is part of the table, one interleave covers it all.
    n = 0;
    for (int i = 0; i < 40; i++)
        s[n++] = (pl_data_sample_t){.addr = base + (uint64_t)i * 64 * K, .thread = i % 2, .node = 0};
    for (int i = 40; i < 49; i++)
        s[n++] = (pl_data_sample_t){.addr = base + (uint64_t)i * 64 * K, .thread = 1, .node = 0};
    for (int i = 49; i < 90; i++)
        s[n++] = (pl_data_sample_t){.addr = base + (uint64_t)i * 64 * K, .thread = i % 2, .node = 0};
    show_plan("table", &two, s, n, 2, where, &one, 1, &p, base);
    // CHECK: table: rc 0 samples 90 {{.*}} actions 1
    // CHECK-NEXT: table:   interleave [0, 5732) KiB node -1 nodes 0x3 shared 1 samples 90

    // Samples outside every mapping, in a mapping that is not movable, or of a thread whose node is
    // unknown count in the totals when they can, but no action touches them.
    pl_data_range_t two_maps[2] = {{base, base + 2048 * K, 0}, {base + 4096 * K, base + 6144 * K, 1}};
    n = add_block(s, 0, 16, base, 64 * K, 1, 0);             /* not movable */
    n = add_block(s, n, 16, base + 2048 * K, 64 * K, 1, 0);  /* between the mappings */
    n = add_block(s, n, 16, base + 4096 * K, 64 * K, 1, 0);  /* movable */
    n = add_block(s, n, 16, base + 5120 * K, 64 * K, 2, 0);  /* thread 2: outside the team of 2 */
    show_plan("mappings", &two, s, n, 2, where, two_maps, 2, &p, base);
    // CHECK: mappings: rc 0 samples 48 remote 48 candidates 1 actions 1
    // CHECK-NEXT: mappings:   migrate [4096, 5092) KiB node 1 nodes 0x2 shared 0 samples 16 remote 16
    int unknown[2] = {0, -1};
    show_plan("unknown", &two, s, n, 2, unknown, two_maps, 2, &p, base);
    // CHECK: unknown: rc 0 samples 0 remote 0 candidates 0 actions 0
    return 0;
}
