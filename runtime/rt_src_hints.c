/* rt_src_hints.c: the hints counter source: buffers attached to threads (omp_numa_attach) as references. */
#include <stdio.h>

#include "rt_mem.h"
#include "rt_runtime.h"
#include "rt_sources.h"

/* An attached buffer counts as one reference per page from its owner thread
 * to each node holding some of its pages: what the program said it will
 * use, located by the kernel now. */

static int probe(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0; /* attachments may come at any time; a region without any gets no data */
}

static uint64_t region_end(rt_region_t *r)
{
    /* One snapshot per phase: it costs a system call per buffer. */
    if (!r->measuring || r->team_size < 1 || (r->confirming ? r->phase_execs > 0 : r->tnt_samples[0] > 0))
        return 0;
    uint64_t *tnt = rt_region_tnt_target(r);
    rt_mem_hint_t *hints = NULL;
    int nkernel = 0, n = rt_mem_hints_snapshot(&hints, &nkernel);
    uint64_t added = 0;
    int nd = rt.topo.nnodes;
    for (int h = 0; h < n; h++) {
        int t = hints[h].thread_num;
        if (t < 0 || t >= r->team_size)
            continue;
        for (int k = 0; k < nkernel; k++) {
            int node = rt_topo_node_of_os(&rt.topo, k);
            size_t pages = hints[h].pages_per_node[k];
            if (node < 0 || !pages)
                continue;
            tnt[(size_t)t * (size_t)nd + (size_t)node] += pages;
            if (!r->confirming)
                r->tnt_samples[t] += pages;
            added += pages;
        }
    }
    if (n > 0)
        rt_mem_hints_free(hints, n);
    return added;
}

const rt_source_ops_t rt_source_hints = {
    .probe = probe,
    .region_end = region_end,
    .intrusive = 0,
};
