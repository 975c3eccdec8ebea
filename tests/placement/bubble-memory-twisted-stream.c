// bubble-memory-twisted-stream.c: memory pulls each inner team, and the outer thread that is its master, to the node holding its bytes; cache leaves it on its master's node.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    /* Twisted-STREAM (section 4.4), phase 2: four teams of four, team i works
     * on three 160 MB vectors that live on node (i + 1) mod 4. */
    int cap[4] = { 4, 4, 4, 4 };
    pl_topo_t topo = { 4, cap, NULL, 1.4 };
    double bytes[4][4] = { { 0 } };
    pl_bubble_t b[5] = { { -1, 0, 4, NULL } };
    for (int i = 0; i < 4; i++) {
        bytes[i][(i + 1) % 4] = 3 * 160e6;
        b[i + 1] = (pl_bubble_t){ 0, i, 4, bytes[i] };
    }
    int node[20], core[20], pref[5];

    printf("cache rc %d\n", bt_decide(PL_BUBBLE_CACHE, &topo, b, 5, node, core, pref));
    bt_print(b, 5, node, core);
    // CHECK: cache rc 0
    // CHECK-NEXT: b0: 0:0 1:0 2:0 3:0
    // CHECK-NEXT: b1: 0:0 0:1 0:2 0:3
    // CHECK-NEXT: b2: 1:0 1:1 1:2 1:3
    // CHECK-NEXT: b3: 2:0 2:1 2:2 2:3
    // CHECK-NEXT: b4: 3:0 3:1 3:2 3:3

    printf("memory rc %d\n", bt_decide(PL_BUBBLE_MEMORY, &topo, b, 5, node, core, pref));
    bt_print(b, 5, node, core);
    printf("preferred %d %d %d %d %d\n", pref[0], pref[1], pref[2], pref[3], pref[4]);
    // CHECK: memory rc 0
    // CHECK-NEXT: b0: 1:0 2:0 3:0 0:0
    // CHECK-NEXT: b1: 1:0 1:1 1:2 1:3
    // CHECK-NEXT: b2: 2:0 2:1 2:2 2:3
    // CHECK-NEXT: b3: 3:0 3:1 3:2 3:3
    // CHECK-NEXT: b4: 0:0 0:1 0:2 0:3
    // The outer team has no bytes of its own: no preference.
    // CHECK-NEXT: preferred -1 1 2 3 0

    /* Phase 1 (Nested-STREAM): each team's vectors on its own node i, where
     * first touch put them: memory agrees with cache. */
    for (int i = 0; i < 4; i++) {
        bytes[i][(i + 1) % 4] = 0;
        bytes[i][i] = 3 * 160e6;
    }
    printf("phase 1 rc %d\n", bt_decide(PL_BUBBLE_MEMORY, &topo, b, 5, node, core, pref));
    bt_print(b, 5, node, core);
    // CHECK: phase 1 rc 0
    // CHECK-NEXT: b0: 0:0 1:0 2:0 3:0
    // CHECK-NEXT: b1: 0:0 0:1 0:2 0:3
    return 0;
}
