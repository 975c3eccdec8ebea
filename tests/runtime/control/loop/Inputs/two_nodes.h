/* two_nodes.h: the white-box loop tests' set-up. The loop runs on two nodes of this machine's CPUs
 * (HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1"); a record of a 2-thread region is given its sampled table
 * and its threads' CPUs (0 and 1), and the test feeds it critical paths. */
#ifndef TWO_NODES_H
#define TWO_NODES_H
#include <stdio.h>

#include "rt_affinity.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_topology.h"

/* The runtime's parts the loop needs; 1 (said why) when this machine's CPUs are not two nodes it may pin. */
static int loop_on_two_nodes(void)
{
    rt_settings_init();
    rt_machine_init(NULL, 0);
    rt_affinity_init();
    rt_loop_init();
    if (rt_mach->topo.nnodes != 2 || !rt_affinity_applies()) {
        printf("needs two nodes of this machine's CPUs\n");
        return 1;
    }
    return 0;
}

/* The record of the 2-thread region at code, sampled on tnt[2 x 2], its threads seen on CPUs 0 and 1. */
static rt_region_t *sampled_region(const void *code, const uint64_t *tnt)
{
    rt_region_t *r = rt_region_get(code, 2, NULL, -1);
    for (int i = 0; i < 4; i++)
        r->tnt[i] = tnt[i];
    r->seen_cpu[0] = 0;
    r->seen_cpu[1] = 1;
    return r;
}

/* Each thread's references all on the other node. */
static const uint64_t crossed[4] = {0, 1000, 1000, 0};
#endif
