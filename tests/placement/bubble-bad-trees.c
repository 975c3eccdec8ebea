// bubble-bad-trees.c: the bubble scheduler and threads-or-data reject malformed trees and inputs with the documented errno.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include <string.h>
#include "bubble_test.h"

static const char *err(int rc)
{
    switch (rc) {
    case 0:        return "ok";
    case -EINVAL:  return "EINVAL";
    case -ENOSPC:  return "ENOSPC";
    case -ENOBUFS: return "ENOBUFS";
    case -E2BIG:   return "E2BIG";
    default:       return "other";
    }
}

int main(void)
{
    int cap[2] = { 2, 2 };
    pl_topo_t topo = { 2, cap, NULL, 2.0 };
    int node[16], core[16];

    pl_bubble_t after[2] = { { 1, 0, 2, NULL }, { -1, 0, 2, NULL } };
    printf("parent after child: %s\n", err(bt_decide(PL_BUBBLE_CACHE, &topo, after, 2, node, core, NULL)));
    // CHECK: parent after child: EINVAL
    pl_bubble_t cycle[2] = { { 1, 0, 1, NULL }, { 0, 0, 1, NULL } };
    printf("cycle: %s\n", err(pl_bubble_slots(cycle, 2)));
    // CHECK: cycle: EINVAL
    pl_bubble_t self[1] = { { 0, 0, 1, NULL } };
    printf("own parent: %s\n", err(pl_bubble_slots(self, 1)));
    // CHECK: own parent: EINVAL
    pl_bubble_t badp[2] = { { -1, 0, 2, NULL }, { -2, 0, 1, NULL } };
    printf("parent -2: %s\n", err(pl_bubble_slots(badp, 2)));
    // CHECK: parent -2: EINVAL
    pl_bubble_t hi[2] = { { -1, 0, 2, NULL }, { 0, 2, 2, NULL } };
    printf("master out of range: %s\n", err(bt_decide(PL_BUBBLE_CACHE, &topo, hi, 2, node, core, NULL)));
    // CHECK: master out of range: EINVAL
    pl_bubble_t lo[2] = { { -1, 0, 2, NULL }, { 0, -1, 2, NULL } };
    printf("negative master: %s\n", err(pl_bubble_slots(lo, 2)));
    // CHECK: negative master: EINVAL
    pl_bubble_t twice[3] = { { -1, 0, 2, NULL }, { 0, 1, 2, NULL }, { 0, 1, 2, NULL } };
    printf("two teams of one master: %s\n", err(pl_bubble_slots(twice, 3)));
    // CHECK: two teams of one master: EINVAL
    pl_bubble_t zero[2] = { { -1, 0, 2, NULL }, { 0, 0, 0, NULL } };
    printf("zero threads: %s\n", err(bt_decide(PL_BUBBLE_MEMORY, &topo, zero, 2, node, core, NULL)));
    // CHECK: zero threads: EINVAL
    printf("no bubbles: %s %s\n", err(pl_bubble_slots(NULL, 1)), err(pl_bubble_slots(after, 0)));
    // CHECK: no bubbles: EINVAL EINVAL
    pl_bubble_t big[1] = { { -1, 0, PL_BUBBLE_MAX_SLOTS + 1, NULL } };
    printf("too many threads: %s\n", err(pl_bubble_slots(big, 1)));
    // CHECK: too many threads: E2BIG

    double neg[2] = { 1.0, -1.0 }, nan2[2] = { NAN, 0 };
    pl_bubble_t bn[1] = { { -1, 0, 2, neg } }, bnan[1] = { { -1, 0, 2, nan2 } };
    printf("negative bytes: %s, NaN bytes: %s\n", err(bt_decide(PL_BUBBLE_MEMORY, &topo, bn, 1, node, core, NULL)),
           err(bt_decide(PL_BUBBLE_MEMORY, &topo, bnan, 1, node, core, NULL)));
    // CHECK: negative bytes: EINVAL, NaN bytes: EINVAL

    pl_bubble_t ok[2] = { { -1, 0, 2, NULL }, { 0, 1, 2, NULL } };
    size_t wb = pl_bubble_workspace_bytes(2, 4, 2);
    char *w = malloc(wb);
    pl_bubble_map_t m3 = { 3, node, core, NULL }, m4 = { 4, node, core, NULL };
    printf("wrong nslots: %s\n", err(pl_bubble_decide(PL_BUBBLE_CACHE, &topo, ok, 2, &m3, w, wb)));
    // CHECK: wrong nslots: EINVAL
    printf("small workspace: %s, NULL workspace: %s\n",
           err(pl_bubble_decide(PL_BUBBLE_CACHE, &topo, ok, 2, &m4, w, wb - 1)),
           err(pl_bubble_decide(PL_BUBBLE_CACHE, &topo, ok, 2, &m4, NULL, wb)));
    // CHECK: small workspace: ENOBUFS, NULL workspace: ENOBUFS
    printf("unknown scheduler: %s\n", err(pl_bubble_decide(PL_BUBBLE_SCHED_COUNT, &topo, ok, 2, &m4, w, wb)));
    // CHECK: unknown scheduler: EINVAL
    pl_topo_t nofactor = { 2, cap, NULL, 0 };
    printf("bad topology: %s\n", err(pl_bubble_decide(PL_BUBBLE_CACHE, &nofactor, ok, 2, &m4, w, wb)));
    // CHECK: bad topology: EINVAL
    printf("exact workspace: %s\n", err(pl_bubble_decide(PL_BUBBLE_CACHE, &topo, ok, 2, &m4, w, wb)));
    // CHECK: exact workspace: ok
    free(w);
    pl_bubble_sched_t s;
    printf("names: %s %s\n", pl_bubble_sched_from_name("memory", &s) == 0 && s == PL_BUBBLE_MEMORY ? "ok" : "wrong",
           err(pl_bubble_sched_from_name("greedy", &s)));
    // CHECK: names: ok EINVAL

    pl_move_cost_t c;
    pl_move_cost_default(&c);
    pl_move_choice_t ch;
    double bytes[2] = { 0, 1e6 };
    printf("move: cur %s, threads %s, bytes %s\n", err(pl_threads_or_data(&topo, 2, 1, bytes, &c, &ch)),
           err(pl_threads_or_data(&topo, 0, 0, bytes, &c, &ch)),
           err(pl_threads_or_data(&topo, 0, 1, neg, &c, &ch)));
    // CHECK: move: cur EINVAL, threads EINVAL, bytes EINVAL
    c.page_bytes = 0;
    printf("move: page size %s\n", err(pl_threads_or_data(&topo, 0, 1, bytes, &c, &ch)));
    // CHECK: move: page size EINVAL
    pl_move_cost_default(&c);
    c.mig_page_us = -1;
    printf("move: negative cost %s\n", err(pl_threads_or_data(&topo, 0, 1, bytes, &c, &ch)));
    // CHECK: move: negative cost EINVAL
    return 0;
}
