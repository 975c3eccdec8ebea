// imar2-performance-formulas.c: P with a PMU is GIPS^a * instB^b / latency^c (the paper's eq. 1); without one it is (work / cpu)^a * (cpu / wall)^b / L^c, L from the TNT row's remote share.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

int main(void)
{
    double v;
    /* 2e9 instructions in 1 s, 1e9 DRAM bytes, 100 cycles: GIPS 2, instB 2, 1/lat 0.01. */
    pl_imar_pmu_t s = { 2e9, 1.0, 1e9, 100 };
    pl_imar_perf_pmu(&s, NULL, &v);
    printf("pmu 1,1,1: %g\n", v);
    // CHECK: pmu 1,1,1: 0.04
    pl_imar_weights_t w = { 2, 1, 1 };
    pl_imar_perf_pmu(&s, &w, &v);
    printf("pmu 2,1,1: %g\n", v);
    // CHECK-NEXT: pmu 2,1,1: 0.08
    w = (pl_imar_weights_t){ 0, 0, 1 };
    pl_imar_perf_pmu(&s, &w, &v);
    printf("pmu 0,0,1: %g\n", v);
    // CHECK-NEXT: pmu 0,0,1: 0.01
    s.latency_cycles = 200;
    pl_imar_perf_pmu(&s, NULL, &v);
    printf("pmu twice the latency: %g\n", v);
    // CHECK-NEXT: pmu twice the latency: 0.02
    /* No DRAM traffic counts as one 64-byte line: 2e9 / 64 instructions per byte. */
    s.latency_cycles = 100;
    s.bytes = 0;
    pl_imar_perf_pmu(&s, NULL, &v);
    printf("pmu no traffic: %g\n", v);
    // CHECK-NEXT: pmu no traffic: 625000
    s = (pl_imar_pmu_t){ 0, 1.0, 1e6, 100 };
    pl_imar_perf_pmu(&s, NULL, &v);
    printf("pmu idle: %g\n", v);
    // CHECK-NEXT: pmu idle: 0

    /* Without a PMU. Two nodes at distance 20 (local 10); the thread's row has
     * 300 references to node 0 and 100 to node 1. */
    int cap[2] = { 2, 2 };
    double dist[4] = { 10, 20, 20, 10 };
    pl_topo_t topo = { 2, cap, dist, 0 };
    uint64_t row[2] = { 300, 100 };
    pl_imar_nopmu_t in = { 1000, 0.5, 1.0, 0, row };
    /* On node 0: remote share 0.25, L = 1 + 0.25 * (2 - 1) = 1.25;
     * rate 1000 / 0.5 = 2000, share 0.5: P = 2000 * 0.5 / 1.25. */
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("nopmu node 0: %.2f\n", v);
    // CHECK-NEXT: nopmu node 0: 800.00
    /* On node 1 the remote share is 0.75: L = 1.75. */
    in.node = 1;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("nopmu node 1: %.2f\n", v);
    // CHECK-NEXT: nopmu node 1: 571.43
    /* The same from the NUMA factor alone (no distance matrix). */
    pl_topo_t tf = { 2, cap, NULL, 2.0 };
    pl_imar_perf_nopmu(&tf, &in, NULL, &v);
    printf("nopmu node 1, factor 2: %.2f\n", v);
    // CHECK-NEXT: nopmu node 1, factor 2: 571.43
    /* Distances weight each remote node: node 0 of 3 with distances 10, 16, 32
     * and 100 references each: L = (10 + 16 + 32) / 10 / 3. */
    int cap3[3] = { 1, 1, 1 };
    double d3[9] = { 10, 16, 32, 16, 10, 16, 32, 16, 10 };
    pl_topo_t t3 = { 3, cap3, d3, 0 };
    uint64_t row3[3] = { 100, 100, 100 };
    pl_imar_nopmu_t in3 = { 0, 1.0, 1.0, 0, row3 };
    w = (pl_imar_weights_t){ 0, 0, 1 };
    pl_imar_perf_nopmu(&t3, &in3, &w, &v);
    printf("nopmu 3 nodes 1/L: %.4f (expect %.4f)\n", v, 30.0 / 58.0);
    // CHECK-NEXT: nopmu 3 nodes 1/L: 0.5172 (expect 0.5172)

    /* A thread that spins at barriers burns CPU time without work: with
     * alpha = beta the spin cancels, work per second of the interval remains. */
    in.node = 0;
    in.cpu_s = 1.0;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    double spun = v;
    in.cpu_s = 0.6;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("spinning thread %.2f, working-only thread %.2f\n", spun, v);
    // CHECK-NEXT: spinning thread 800.00, working-only thread 800.00
    /* No work counted (no worksharing in the interval): rate 1, share and
     * locality decide: 0.6 / 1.25. */
    in.work = 0;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("no work counted: %.2f\n", v);
    // CHECK-NEXT: no work counted: 0.48
    /* CPU time above the interval (clock granularity) counts as the whole interval. */
    in.cpu_s = 1.2;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("cpu above wall: %.2f\n", v);
    // CHECK-NEXT: cpu above wall: 0.80
    /* No references: L = 1. */
    uint64_t zero[2] = { 0, 0 };
    in.refs = zero;
    in.cpu_s = 1.0;
    pl_imar_perf_nopmu(&topo, &in, NULL, &v);
    printf("no references: %.2f\n", v);
    // CHECK-NEXT: no references: 1.00
    return 0;
}
