// bubble-memory-capacity.c: memory takes bubbles heaviest first, to their preferred node while it has room, else to the nearest node with room; bubbles without bytes inherit their parent's node.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

int main(void)
{
    /* Nodes 0-2 and 1-3 are neighbours. */
    int cap[4] = { 2, 2, 2, 2 };
    double dist[16] = { 10, 20, 12, 20,
                        20, 10, 20, 12,
                        12, 20, 10, 20,
                        20, 12, 20, 10 };
    pl_topo_t topo = { 4, cap, dist, 0 };
    int node[16], core[16], pref[8];

    /* Four outermost teams of 2 (four entities, nothing burst). A and B both
     * want node 1; B is heavier and gets it, A goes to 1's neighbour 3. D
     * wanted 3, now full: the nodes nearest 3 are 0 and 2 (both 20), the lower
     * wins. C has no bytes and takes the node left. */
    double a[4] = { 0, 100e6, 0, 0 }, bb[4] = { 0, 300e6, 0, 0 }, d[4] = { 0, 0, 0, 50e6 };
    pl_bubble_t four[4] = { { -1, 0, 2, a }, { -1, 0, 2, bb }, { -1, 0, 2, NULL }, { -1, 0, 2, d } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_MEMORY, &topo, four, 4, node, core, pref));
    bt_print(four, 4, node, core);
    printf("preferred %d %d %d %d\n", pref[0], pref[1], pref[2], pref[3]);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 3:0 3:1
    // CHECK-NEXT: b1: 1:0 1:1
    // CHECK-NEXT: b2: 2:0 2:1
    // CHECK-NEXT: b3: 0:0 0:1
    // CHECK-NEXT: preferred 1 1 -1 3

    /* Inheritance: the outer team's data is on node 2 and its inner team
     * attached nothing: both prefer 2 and the nest runs there. */
    double outer[4] = { 0, 0, 64e6, 0 };
    pl_bubble_t inh[2] = { { -1, 0, 1, outer }, { 0, 0, 2, NULL } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_MEMORY, &topo, inh, 2, node, core, pref));
    bt_print(inh, 2, node, core);
    printf("preferred %d %d\n", pref[0], pref[1]);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 2:0
    // CHECK-NEXT: b1: 2:0 2:1
    // CHECK-NEXT: preferred 2 2

    /* Data on a memory-only node (3 has no cores): the team goes to the node
     * nearest to its data that has room, node 1. */
    int capm[4] = { 2, 2, 2, 0 };
    pl_topo_t tm = { 4, capm, dist, 0 };
    double far[4] = { 0, 0, 0, 8e6 };
    pl_bubble_t one[1] = { { -1, 0, 2, far } };
    printf("rc %d\n", bt_decide(PL_BUBBLE_MEMORY, &tm, one, 1, node, core, pref));
    bt_print(one, 1, node, core);
    // CHECK: rc 0
    // CHECK-NEXT: b0: 1:0 1:1
    return 0;
}
