// bubble-move-data-when-small.c: threads-or-data migrates a small remote buffer to the threads when the run is long, and stays put when it is short or nothing is remote.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

static void show(const char *what, const pl_move_choice_t *c)
{
    printf("%s: %s\n", what, pl_move_kind_name(c->choice));
    for (int k = 0; k < PL_MOVE_COUNT; k++) {
        const pl_move_option_t *o = &c->option[k];
        if (o->applicable)
            printf("  %-7s node %d moved %.0f move %.2f remote %.2f total %.2f\n",
                   pl_move_kind_name((pl_move_kind_t)k), o->node, o->bytes_moved, o->move_us,
                   o->remote_us, o->total_us);
        else
            printf("  %-7s n/a\n", pl_move_kind_name((pl_move_kind_t)k));
    }
}

int main(void)
{
    int cap[4] = { 4, 4, 4, 4 };
    pl_topo_t topo = { 4, cap, NULL, 1.4 };
    pl_move_cost_t cost;
    pl_move_cost_default(&cost);
    pl_move_choice_t c;

    /* A team of 4 on node 0 with a 160 MB vector there and 64 KiB on node 1,
     * each byte read 100 times in the rest of the run. */
    double bytes[4] = { 160e6, 65536, 0, 0 };
    cost.accesses_per_byte = 100;
    printf("rc %d\n", pl_threads_or_data(&topo, 0, 4, bytes, &cost, &c));
    show("small remote, long run", &c);
    // stay: 65536 * 100 * 0.083/64 * 0.4 = 3399.68 us of remote penalty;
    // data: 120 + 11 * 16 pages = 296 us; threads would make the 160 MB remote;
    // mixed needs the local buffer to be the smaller one.
    // CHECK: rc 0
    // CHECK-NEXT: small remote, long run: data
    // CHECK-NEXT:   stay    node 0 moved 0 move 0.00 remote 3399.68 total 3399.68
    // CHECK-NEXT:   threads node 1 moved 0 move 2.74 remote 8300000.00 total 8300002.74
    // CHECK-NEXT:   data    node 0 moved 65536 move 296.00 remote 0.00 total 296.00
    // CHECK-NEXT:   mixed   n/a

    cost.accesses_per_byte = 5;
    pl_threads_or_data(&topo, 0, 4, bytes, &cost, &c);
    show("small remote, short run", &c);
    // 169.98 us of remote accesses cost less than one migration call.
    // CHECK: small remote, short run: stay
    // CHECK-NEXT:   stay    node 0 moved 0 move 0.00 remote 169.98 total 169.98

    double local[4] = { 1e6, 0, 0, 0 };
    pl_threads_or_data(&topo, 0, 4, local, &cost, &c);
    show("all local", &c);
    // CHECK: all local: stay
    // CHECK-NEXT:   stay    node 0 moved 0 move 0.00 remote 0.00 total 0.00
    // CHECK:        data    n/a
    // CHECK-NEXT:   mixed   n/a
    return 0;
}
