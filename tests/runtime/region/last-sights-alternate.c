// A thread finds a region it forks again from its last sights at the level, without the table's lookup,
// also when a few regions alternate: IQ-TREE 2 forks its likelihood derivative's region between its
// traversal's, whose team is one thread or two (the same call site, two keys), and a fourth region now
// and then. With one last sight per level, every other fork of IQ-TREE's went to the table (17 894 of
// 37 751 on a 100-taxon alignment), and on the ABI route its team ran the trampoline on every member,
// asking the runtime its size. White box: the primary's begin as the OpenMP layer calls it
// (rt_event_parallel_seen, else rt_event_parallel_begin_rest), on one NUMA node (regions settled from
// their first sight); the same for teams forked inside two outer regions in turn (their keys name
// the parent); and each record found is the one of its key.
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:1 [numa] core:2 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath %t | FileCheck %s
// CHECK: alternating: 1200 forks, 4 looked up, 4 regions, records right
// CHECK-NEXT: nested in two in turn: 400 forks, 4 looked up, 4 regions, records right
// CHECK-NEXT: six in turn: 120 forks, 6 regions, records right
#include <stdio.h>

#include "rt_events.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_thread.h"
#include "rt_topology.h"

static char code[8];

typedef struct {
    int site, requested;
} fork_key_t;

static int looked_up, wrong;

/* The primary forks (site, requested) at its current level: the record. */
static rt_region_t *fork_at(rt_thread_t *thr, fork_key_t k)
{
    rt_region_t *r = rt_event_parallel_seen(thr, &code[k.site], k.requested);
    if (!r) {
        looked_up++;
        r = rt_event_parallel_begin_rest(thr, &code[k.site], k.requested, k.requested, NULL);
    }
    if (!r || r->codeptr != &code[k.site] || r->team_size != k.requested || r->level != thr->depth + 1)
        wrong++;
    return r;
}

static int regions_since(int before)
{
    return rt_region_count() - before;
}

int main(void)
{
    rt_settings_init();
    if (rt_machine_init(NULL, 0) != 0 || rt_mach->topo.nnodes != 1)
        return 1;
    rt_loop_init();
    static rt_thread_t thr;
    rt_thread_init(&thr, 0);

    /* IQ-TREE's turn: I (derivative, 2 threads), F and G (traversal, 1 and 2 threads), H now and then. */
    const fork_key_t I = {0, 2}, F = {1, 1}, G = {1, 2}, H = {2, 2};
    const fork_key_t turn[12] = {I, I, I, F, I, I, I, G, I, I, F, H};
    int before = rt_region_count(), forks = 0;
    for (int k = 0; k < 100; k++)
        for (int i = 0; i < 12; i++, forks++)
            fork_at(&thr, turn[i]);
    printf("alternating: %d forks, %d looked up, %d regions, records %s\n", forks, looked_up,
           regions_since(before), wrong ? "WRONG" : "right");

    /* Two outer regions in turn, each forking the same inner site inside (thread 0 of each). */
    looked_up = wrong = forks = 0;
    before = rt_region_count();
    const fork_key_t P = {3, 2}, Q = {4, 2}, X = {5, 2};
    for (int k = 0; k < 200; k++, forks++) {
        rt_region_t *outer = fork_at(&thr, k % 2 ? Q : P);
        rt_event_level_enter(&thr, outer, 0);
        fork_at(&thr, X);
        rt_event_level_leave(&thr);
    }
    printf("nested in two in turn: %d forks, %d looked up, %d regions, records %s\n", forks * 2, looked_up,
           regions_since(before), wrong ? "WRONG" : "right");

    /* More regions in turn than the thread remembers: looked up again, the same records. */
    looked_up = wrong = forks = 0;
    before = rt_region_count();
    for (int k = 0; k < 20; k++)
        for (int s = 0; s < 6; s++, forks++)
            fork_at(&thr, (fork_key_t){6 + s % 2, 1 + s / 2});
    printf("six in turn: %d forks, %d regions, records %s\n", forks, regions_since(before),
           wrong ? "WRONG" : "right");
    return 0;
}
