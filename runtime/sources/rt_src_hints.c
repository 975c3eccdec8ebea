/* rt_src_hints.c: the hints counter source: buffers attached to threads (omp_numa_attach) as references. */
#include <stdio.h>

#include "rt_mem.h"
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

static int region_end(const rt_sample_t *s, uint64_t *added)
{
    /* One snapshot per phase: it costs a system call per buffer. */
    if (!s->record || !s->once)
        return 0;
    rt_mem_hint_t *hints = NULL;
    int nkernel = 0, n = rt_mem_hints_snapshot(&hints, &nkernel);
    if (n > 0) {
        *added = rt_mem_hints_fold(hints, n, nkernel, s->team_size, s->nnodes, s->tnt, s->samples);
        rt_mem_hints_free(hints, n);
    }
    return 0;
}

/* Nothing attached: a snapshot would be empty. */
static int blind(void)
{
    return rt_mem_attachments() == 0;
}

const rt_source_ops_t rt_source_hints = {
    .probe = probe,
    .region_end = region_end,
    .blind = blind,
    .intrusive = 0,
    .running_team = 1,
};
