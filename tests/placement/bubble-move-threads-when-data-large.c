// bubble-move-threads-when-data-large.c: threads-or-data moves the threads to large remote data (Twisted-STREAM, all three vectors remote), and weighs data against staying when the threads cannot go.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "bubble_test.h"

static void show(const char *what, const pl_move_choice_t *c)
{
    printf("%s: %s\n", what, pl_move_kind_name(c->choice));
    for (int k = 0; k < PL_MOVE_COUNT; k++) {
        const pl_move_option_t *o = &c->option[k];
        if (o->applicable)
            printf("  %-7s node %d move %.2f remote %.2f total %.2f\n", pl_move_kind_name((pl_move_kind_t)k),
                   o->node, o->move_us, o->remote_us, o->total_us);
        else
            printf("  %-7s n/a\n", pl_move_kind_name((pl_move_kind_t)k));
    }
}

int main(void)
{
    /* Node 2 is nearer to node 1 than node 0 is: distances matter, not only
     * local versus remote. */
    int cap[4] = { 4, 4, 4, 4 };
    double dist[16] = { 10, 14, 12, 14,
                        14, 10, 12, 14,
                        12, 12, 10, 12,
                        14, 14, 12, 10 };
    pl_topo_t topo = { 4, cap, dist, 0 };
    pl_move_cost_t cost;
    pl_move_cost_default(&cost);
    pl_move_choice_t c;

    /* A team of 4 on node 0, its three 160 MB vectors on node 1, read once. */
    double bytes[4] = { 0, 480e6, 0, 0 };
    printf("rc %d\n", pl_threads_or_data(&topo, 0, 4, bytes, &cost, &c));
    show("all remote", &c);
    // stay: 480e6 * 0.083/64 * 0.4 = 249000 us; data: 120 + 11 * 117188 pages;
    // threads: 2.5 + 4 * 0.06 us, and every access becomes local on node 1.
    // CHECK: rc 0
    // CHECK-NEXT: all remote: threads
    // CHECK-NEXT:   stay    node 0 move 0.00 remote 249000.00 total 249000.00
    // CHECK-NEXT:   threads node 1 move 2.74 remote 0.00 total 2.74
    // CHECK-NEXT:   data    node 0 move 1289188.00 remote 0.00 total 1289188.00
    // CHECK-NEXT:   mixed   n/a

    /* Node 1 has no free core for the team: the threads can only go to 2 or 3
     * (2 is nearer to the data) and the choice is between staying and data:
     * a short run stays, a long one migrates. */
    int busy[4] = { 4, 0, 4, 4 };
    pl_topo_t tb = { 4, busy, dist, 0 };
    pl_threads_or_data(&tb, 0, 4, bytes, &cost, &c);
    show("node 1 full, short run", &c);
    // CHECK: node 1 full, short run: threads
    // CHECK-NEXT:   stay    node 0 move 0.00 remote 249000.00 total 249000.00
    // CHECK-NEXT:   threads node 2 move 2.74 remote 124500.00 total 124502.74
    cost.accesses_per_byte = 20;
    pl_threads_or_data(&tb, 0, 4, bytes, &cost, &c);
    show("node 1 full, long run", &c);
    // CHECK: node 1 full, long run: data
    // CHECK-NEXT:   stay    node 0 move 0.00 remote 4980000.00 total 4980000.00
    // CHECK-NEXT:   threads node 2 move 2.74 remote 2490000.00 total 2490002.74
    // CHECK-NEXT:   data    node 0 move 1289188.00 remote 0.00 total 1289188.00
    return 0;
}
