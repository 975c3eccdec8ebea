// bubble-cache-oversubscribed.c: with more threads than cores, cache shares each chosen node's cores round-robin, at most ceil(threads / cores) per core.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

/* Most threads on one core, counting each distinct thread once (an inner
 * team's slot 0 is its master, already counted). */
static int max_per_core(const pl_bubble_t *b, int nb, const int *node, const int *core, int ncap)
{
    int count[64] = { 0 }, best = 0;
    for (int i = 0, off = 0; i < nb; off += b[i].nthreads, i++)
        for (int t = (b[i].parent < 0 ? 0 : 1); t < b[i].nthreads; t++) {
            int c = ++count[node[off + t] * ncap + core[off + t]];
            best = c > best ? c : best;
        }
    return best;
}

int main(void)
{
    int node[16], core[16];

    /* The runtime's 4x2 nest on a 2-node x 2-core machine: 8 threads, 4
     * cores, so 2 threads per core. Inner teams still follow their masters. */
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    pl_bubble_t b[5] = { { -1, 0, 4, NULL }, { 0, 0, 2, NULL }, { 0, 1, 2, NULL },
                         { 0, 2, 2, NULL }, { 0, 3, 2, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, b, 5, node, core, NULL));
    bt_print(b, 5, node, core);
    printf("max threads per core %d\n", max_per_core(b, 5, node, core, 2));
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0 0:1 1:1
    // CHECK-NEXT: b1: 0:0 0:0
    // CHECK-NEXT: b2: 1:0 1:0
    // CHECK-NEXT: b3: 0:1 0:1
    // CHECK-NEXT: b4: 1:1 1:1
    // CHECK-NEXT: max threads per core 2

    /* One node of 2 cores, a flat team of 5: ceil(5/2) = 3 per core at most. */
    int cap1[1] = { 2 };
    pl_topo_t t1 = { 1, cap1, NULL, 0 };
    pl_bubble_t flat[1] = { { -1, 0, 5, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &t1, flat, 1, node, core, NULL));
    bt_print(flat, 1, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 0:1 0:0 0:1 0:0

    /* A memory-only node (capacity 0) never gets a thread, even oversubscribed. */
    int capm[3] = { 1, 0, 1 };
    pl_topo_t tm = { 3, capm, NULL, 2.0 };
    pl_bubble_t three[1] = { { -1, 0, 3, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &tm, three, 1, node, core, NULL));
    bt_print(three, 1, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 2:0 0:0

    /* No core anywhere. */
    int cap0[2] = { 0, 0 };
    pl_topo_t t0 = { 2, cap0, NULL, 2.0 };
    printf("no cores: %s\n", bt_decide(PL_BUBBLE_CACHE, &t0, flat, 1, node, core, NULL) == -ENOSPC ? "ENOSPC" : "wrong");
    // CHECK: no cores: ENOSPC
    return 0;
}
