// A decision reuses the workspace a former one left (rt_policy.c): the second 1024-thread x 16-node critpath
// decision takes no page fault, where the first faults its workspace in (a fresh one doubled the decisions of
// 1024-thread regions after the first: 230-270 us against 90-110 us). The mappings are the same. A workspace
// readied before the first decision is due (rt_policy_prepare, at a region's first sight) spares that first
// decision its faults too; on one node, where no decision runs, nothing is readied. White box.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rt_policy.h"

#define N 1024
#define ND 16

static long faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return ru.ru_minflt;
}

int main(void)
{
    static uint64_t refs[N * ND];
    static int cap[ND], node[2][N], core[2][N];
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N * ND; i++) { /* xorshift: a random table */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        refs[i] = x % 10000000;
    }
    for (int d = 0; d < ND; d++)
        cap[d] = 64;
    pl_topo_t topo = {.nnodes = ND, .capacity = cap, .distance = NULL, .numa_factor = 2.0};
    memset(node, 0, sizeof node); /* the outputs are touched before counting */
    memset(core, 0, sizeof core);
    long f[3];
    double us;
    f[0] = faults();
    int rc0 = rt_policy_run(PL_POLICY_CRITPATH, &topo, refs, N, node[0], core[0], &us);
    f[1] = faults();
    int rc1 = rt_policy_run(PL_POLICY_CRITPATH, &topo, refs, N, node[1], core[1], &us);
    f[2] = faults();
    // CHECK: decided: 0 0
    printf("decided: %d %d\n", rc0, rc1);
    // CHECK-NEXT: first decision faults its workspace in: yes
    printf("first decision faults its workspace in: %s\n", f[1] - f[0] > 10 ? "yes" : "no");
    // CHECK-NEXT: second decision faults: 0
    printf("second decision faults: %ld\n", f[2] - f[1]);
    // CHECK-NEXT: same mapping: yes
    printf("same mapping: %s\n", !memcmp(node[0], node[1], sizeof node[0]) && !memcmp(core[0], core[1], sizeof core[0])
                                     ? "yes" : "no");
    /* A larger team than any before: readied first, its first decision faults nothing. */
    static uint64_t big[2 * N * ND];
    static int bnode[2 * N], bcore[2 * N];
    for (int i = 0; i < 2 * N * ND; i++)
        big[i] = refs[i % (N * ND)] + (uint64_t)(i / (N * ND));
    memset(bnode, 0, sizeof bnode);
    memset(bcore, 0, sizeof bcore);
    for (int d = 0; d < ND; d++)
        cap[d] = 128;
    rt_policy_prepare(PL_POLICY_CRITPATH, 2 * N, ND);
    f[0] = faults();
    int rc2 = rt_policy_run(PL_POLICY_CRITPATH, &topo, big, 2 * N, bnode, bcore, &us);
    f[1] = faults();
    // CHECK-NEXT: readied, the first decision of 2048 threads faults: 0 (decided: 0)
    printf("readied, the first decision of 2048 threads faults: %ld (decided: %d)\n", f[1] - f[0], rc2);
    /* One node: nothing to decide, so nothing readied (a 65536-thread workspace would fault its pages in). */
    f[0] = faults();
    rt_policy_prepare(PL_POLICY_CRITPATH, 65536, 1);
    f[1] = faults();
    // CHECK-NEXT: one node, 65536 threads, readying faults: 0
    printf("one node, 65536 threads, readying faults: %ld\n", f[1] - f[0]);
    return 0;
}
