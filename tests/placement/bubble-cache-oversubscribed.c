// bubble-cache-oversubscribed.c: with more threads than cores, cache shares each chosen node's cores round-robin, at most ceil(threads / cores) per core, and an inner team that fits its node's cores gets distinct cores.
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

/* Seeded two-level nests on small machines: the most threads any core holds,
 * against ceil(threads / cores), and the inner teams that fit their
 * master's node yet stack two threads on one core: 1005 of 3000 nests' teams
 * with the round robin alone; now only where, when the thread was placed,
 * every core of the node with room held a teammate. */
static void random_nests(void)
{
    unsigned x = 12345;
#define RND(n) ((x = x * 1103515245u + 12345u) >> 16) % (unsigned)(n)
    int over = 0, stacked = 0, tried = 0;
    for (int round = 0; round < 3000; round++) {
        int nd = 1 + (int)RND(3), cap[3], cores = 0;
        for (int n = 0; n < nd; n++)
            cores += cap[n] = 1 + (int)RND(4);
        pl_topo_t topo = { nd, cap, NULL, 2.0 };
        pl_bubble_t b[8];
        int outer = 1 + (int)RND(6), nb = 1, threads = outer;
        b[0] = (pl_bubble_t){ -1, 0, outer, NULL };
        for (int m = 0; m < outer && nb < 8; m++)
            if (RND(3)) {
                b[nb] = (pl_bubble_t){ 0, m, 1 + (int)RND(5), NULL };
                threads += b[nb++].nthreads - 1;
            }
        int node[64], core[64];
        if (bt_decide(PL_BUBBLE_CACHE, &topo, b, nb, node, core, NULL) != 0)
            continue;
        tried++;
        over += max_per_core(b, nb, node, core, 4) > (threads + cores - 1) / cores;
        for (int i = 1, off = outer; i < nb; off += b[i].nthreads, i++) {
            int same = 0, m = node[off];
            for (int t = 0; t < b[i].nthreads; t++)
                for (int u = 0; u < t; u++)
                    same |= node[off + t] == m && node[off + u] == m && core[off + t] == core[off + u];
            int on_m = 0;
            for (int t = 0; t < b[i].nthreads; t++)
                on_m += node[off + t] == m;
            stacked += same && on_m <= cap[m];
        }
    }
    printf("random nests %d: over the bound %d, fitting teams stacked %d\n", tried, over, stacked);
#undef RND
}

int main(void)
{
    random_nests();
    // CHECK: random nests 3000: over the bound 0, fitting teams stacked {{[0-9]|[1-9][0-9]}}{{$}}

    int node[16], core[16];

    /* The runtime's 4x2 nest on a 2-node x 2-core machine: 8 threads, 4
     * cores, so 2 threads per core. Inner teams still follow their masters,
     * each on both cores of its master's node (the round robin alone put a
     * team's two threads on its master's one core: a team that ran alone
     * used half its node). */
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    pl_bubble_t b[5] = { { -1, 0, 4, NULL }, { 0, 0, 2, NULL }, { 0, 1, 2, NULL },
                         { 0, 2, 2, NULL }, { 0, 3, 2, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, b, 5, node, core, NULL));
    bt_print(b, 5, node, core);
    printf("max threads per core %d\n", max_per_core(b, 5, node, core, 2));
    // CHECK: rc 0
    // CHECK-NEXT: b0: 0:0 1:0 0:1 1:1
    // CHECK-NEXT: b1: 0:0 0:1
    // CHECK-NEXT: b2: 1:0 1:1
    // CHECK-NEXT: b3: 0:1 0:0
    // CHECK-NEXT: b4: 1:1 1:0
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
