/* rt_mem_fold.c: attach hints as a thread x node table, for the hints source, update_hints and the bubble trees. */
#include "rt_mem.h"
#include "rt_topology.h"

uint64_t rt_mem_hints_fold(const rt_mem_hint_t *hints, int nhints, int nkernel, int team_size, int nnodes,
                           uint64_t *tnt, uint64_t *samples)
{
    uint64_t added = 0;
    for (int h = 0; h < nhints; h++) {
        int t = hints[h].thread_num;
        if (t < 0 || t >= team_size)
            continue;
        for (int k = 0; k < nkernel; k++) {
            int node = rt_topo_node_of_os(&rt_mach->topo, k);
            size_t pages = hints[h].pages_per_node[k];
            if (node < 0 || node >= nnodes || !pages)
                continue;
            tnt[(size_t)t * (size_t)nnodes + (size_t)node] += pages;
            if (samples)
                samples[t] += pages;
            added += pages;
        }
    }
    return added;
}
