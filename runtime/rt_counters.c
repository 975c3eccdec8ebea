/* rt_counters.c: the table of counter sources, their probes, and the choice among them. */
#include <stdio.h>
#include <string.h>

#include "rt_counters.h"
#include "rt_log.h"
#include "rt_runtime.h"
#include "rt_sources.h"

/* In the order `auto` prefers them: hardware address sampling first, then
 * hardware counts, then software sampling, then what the program told us.
 * replay is never chosen by auto: it needs a file. */
static const rt_source_ops_t *const sources[RT_SOURCE_COUNT] = {
    [RT_SOURCE_PERF] = &rt_source_perf,
    [RT_SOURCE_PAPI] = &rt_source_papi,
    [RT_SOURCE_PAGEFAULT] = &rt_source_pagefault,
    [RT_SOURCE_HINTS] = &rt_source_hints,
    [RT_SOURCE_REPLAY] = &rt_source_replay,
};
static const rt_source_t auto_order[] = {RT_SOURCE_PERF, RT_SOURCE_PAPI, RT_SOURCE_PAGEFAULT,
                                         RT_SOURCE_HINTS};

static const rt_source_ops_t *active;

void rt_counters_probe(void)
{
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++) {
        char *why = rt.source_reason[s];
        why[0] = '\0';
        if (sources[s]->probe(why, sizeof rt.source_reason[s]) != 0 && !why[0])
            snprintf(why, sizeof rt.source_reason[s], "unavailable");
    }
}

void rt_counters_init(void)
{
    rt.source_used = RT_SOURCE_AUTO;
    active = NULL;
    rt_counters_probe();
    rt_source_t want = rt.settings.source;
    if (want != RT_SOURCE_AUTO) {
        if (!rt.source_reason[want][0]) {
            rt.source_used = want;
        } else {
            rt_warn("OMP_PLACEMENT source=%s is unavailable (%s); using source=auto",
                    rt_source_name(want), rt.source_reason[want]);
        }
    }
    /* pagefault with track=api protects nothing of the program: then the
     * program's own attach hints are the better software source. */
    for (size_t i = 0; rt.source_used == RT_SOURCE_AUTO && i < sizeof auto_order / sizeof *auto_order; i++)
        if (!rt.source_reason[auto_order[i]][0] &&
            !(auto_order[i] == RT_SOURCE_PAGEFAULT && rt.settings.track == RT_TRACK_API))
            rt.source_used = auto_order[i];
    if (rt.source_used != RT_SOURCE_AUTO) {
        active = sources[rt.source_used];
        if (active->start)
            active->start();
    }
    rt_verbose(1, "counter source: %s", active ? rt_source_name(rt.source_used) : "none");
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++)
        if (rt.source_reason[s][0])
            rt_verbose(1, "counter source %s unavailable: %s", rt_source_name(s), rt.source_reason[s]);
}

void rt_counters_region_begin(rt_region_t *r, const void *team)
{
    if (active && active->region_begin)
        active->region_begin(r, team);
}

void rt_counters_thread_begin(rt_region_t *r, int index, const void *team)
{
    if (active && active->thread_begin)
        active->thread_begin(r, index, team);
}

uint64_t rt_counters_region_end(rt_region_t *r)
{
    return active && active->region_end ? active->region_end(r) : 0;
}

int rt_counters_intrusive(void)
{
    return active ? active->intrusive : 0;
}
