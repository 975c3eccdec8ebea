// bubble-move-mixed.c: threads-or-data chooses the mixed move of section 4.4 (threads and the smaller local vector go to the larger remote data) when the run is long enough.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

static void show(const char *what, const pl_move_choice_t *c)
{
    printf("%s: %s\n", what, pl_move_kind_name(c->choice));
    for (int k = 0; k < PL_MOVE_COUNT; k++) {
        const pl_move_option_t *o = &c->option[k];
        printf("  %-7s node %d moved %.0f total %.2f\n", pl_move_kind_name((pl_move_kind_t)k),
               o->node, o->bytes_moved, o->total_us);
    }
}

int main(void)
{
    int cap[4] = { 4, 4, 4, 4 };
    pl_topo_t topo = { 4, cap, NULL, 1.4 };
    pl_move_cost_t cost;
    pl_move_cost_default(&cost);
    pl_move_choice_t c;

    /* "Mixed local and remote data": the team on node 0 keeps one 160 MB
     * vector there, the two others (320 MB) are on node 1. */
    double bytes[4] = { 160e6, 320e6, 0, 0 };
    cost.accesses_per_byte = 10;
    printf("rc %d\n", pl_threads_or_data(&topo, 0, 4, bytes, &cost, &c));
    show("long run", &c);
    // stay     320e6 * 10 * 0.083/64 * 0.4                     = 1660000
    // threads  2.74 + 160e6 * 10 * 0.083/64 * 0.4               =  830002.74
    // data     120 + 11 * 78125 pages                           =  859495
    // mixed    2.74 + 120 + 11 * 39063 pages, nothing left remote =  429815.74
    // CHECK: rc 0
    // CHECK-NEXT: long run: mixed
    // CHECK-NEXT:   stay    node 0 moved 0 total 1660000.00
    // CHECK-NEXT:   threads node 1 moved 0 total 830002.74
    // CHECK-NEXT:   data    node 0 moved 320000000 total 859495.00
    // CHECK-NEXT:   mixed   node 1 moved 160000000 total 429815.74

    /* The same data read once: migrating anything costs more than the remote
     * accesses it saves, and moving the threads leaves the smaller part remote. */
    cost.accesses_per_byte = 1;
    pl_threads_or_data(&topo, 0, 4, bytes, &cost, &c);
    show("short run", &c);
    // CHECK: short run: threads
    // CHECK-NEXT:   stay    node 0 moved 0 total 166000.00
    // CHECK-NEXT:   threads node 1 moved 0 total 83002.74

    /* A third node holding data stays remote after the mixed move. */
    double three[4] = { 160e6, 320e6, 16e6, 0 };
    cost.accesses_per_byte = 10;
    pl_threads_or_data(&topo, 0, 4, three, &cost, &c);
    printf("third node: %s, mixed leaves %.2f us remote\n", pl_move_kind_name(c.choice),
           c.option[PL_MOVE_MIXED].remote_us);
    // 16e6 * 10 * 0.083/64 * 0.4 = 83000
    // CHECK: third node: mixed, mixed leaves 83000.00 us remote
    return 0;
}
