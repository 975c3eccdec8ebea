/* rt_counters.c: the table of counter sources, their probes, and the choice among them. */
#include <stdio.h>
#include <string.h>

#include "rt_counters.h"
#include "rt_log.h"
#include "rt_procfs.h"
#include "rt_topology.h"

/* In the order `auto` prefers them: hardware address sampling, then what
 * the program told us. None of them changes what the program sees.
 *
 * Named only:
 * - numa_balancing: its faults are the ones on which the kernel's balancing
 *   migrates each page to the thread that took them, so its TNT shows
 *   where the data was before the kernel moved it, and a thread moved
 *   toward that data crosses the page coming the other way. In the paced
 *   VM with balancing on, decisions on it never measured faster than the
 *   kernel alone (crossed patterns 0.74 and 0.77 of `off`, against 0.74
 *   and 0.76; a serial first touch 1.016x the kernel alone) and their
 *   sampling cost 1.5-6 % where there was nothing to gain (OpenBLAS
 *   1.026, `local 4 8` 1.050: benchmarks/README.md, "twenty-second
 *   session"); where balancing is on the kernel places the pages, and auto
 *   leaves them to it;
 * - papi: no per-node DRAM event is known to it;
 * - replay: it needs a file;
 * - pagefault: it protects pages of the program's memory, which threads the
 *   runtime does not control touch too (a read(2) into a sampled buffer
 *   comes back short, a thread that blocks SIGSEGV dies, an mremap fails:
 *   README, "Counter sources"). */
static const rt_source_ops_t *const sources[RT_SOURCE_COUNT] = {
    [RT_SOURCE_PERF] = &rt_source_perf,
    [RT_SOURCE_NUMAB] = &rt_source_numab,
    [RT_SOURCE_PAPI] = &rt_source_papi,
    [RT_SOURCE_PAGEFAULT] = &rt_source_pagefault,
    [RT_SOURCE_HINTS] = &rt_source_hints,
    [RT_SOURCE_REPLAY] = &rt_source_replay,
};
static const rt_source_t auto_order[] = {RT_SOURCE_PERF, RT_SOURCE_HINTS};

static const rt_source_ops_t *active;
static rt_source_t used = RT_SOURCE_AUTO;
static int kernel_balances; /* rt_counters_kernel_balances, fixed by the choice */
static char reason[RT_SOURCE_COUNT][160]; /* "" = available */
/* Sources probed since the last init: the choice probes only the sources it
 * may pick; the others are probed when their reason is read (the report,
 * verbose output). PAPI's probe alone is about 15 million instructions of
 * library set-up, on every run, for a source auto never picks. */
static unsigned char probed[RT_SOURCE_COUNT];

rt_source_t rt_counters_used(void)
{
    return used;
}

static const char *probe_once(rt_source_t s)
{
    char *why = reason[s];
    if (!probed[s]) {
        why[0] = '\0';
        if (sources[s]->probe(why, sizeof reason[s]) != 0 && !why[0])
            snprintf(why, sizeof reason[s], "unavailable");
        probed[s] = 1;
    }
    return why;
}

const char *rt_counters_reason(rt_source_t s)
{
    return (unsigned)s < RT_SOURCE_COUNT ? probe_once(s) : "";
}

int rt_counters_kernel_balances(void)
{
    return kernel_balances;
}

void rt_counters_probe(void)
{
    memset(probed, 0, sizeof probed);
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++)
        probe_once(s);
}

void rt_counters_init(void)
{
    used = RT_SOURCE_AUTO;
    active = NULL;
    memset(probed, 0, sizeof probed);
    rt_source_t want = rt_conf->source;
    if (want != RT_SOURCE_AUTO) {
        if (!probe_once(want)[0]) {
            used = want;
        } else {
            rt_warn("OMP_PLACEMENT source=%s is unavailable (%s); using source=auto",
                    rt_source_name(want), reason[want]);
        }
    }
    for (size_t i = 0; used == RT_SOURCE_AUTO && i < sizeof auto_order / sizeof *auto_order; i++)
        if (!probe_once(auto_order[i])[0])
            used = auto_order[i];
    /* auto (asked for, or fallen back to) took the program's hints over the
     * kernel's faults while the kernel balances this machine's nodes. */
    int mode = rt_numa_balancing_mode();
    kernel_balances = used == RT_SOURCE_HINTS && want != RT_SOURCE_HINTS && mode > 0 && (mode & 1)
                      && rt_topo_is_kernels(&rt_mach->topo) && rt_mach->topo.nnodes > 1;
    if (used != RT_SOURCE_AUTO) {
        active = sources[used];
        if (active->start)
            active->start();
    }
    rt_verbose(1, "counter source: %s%s", active ? rt_source_name(used) : "none",
               kernel_balances
                   ? " (Linux's NUMA balancing is on: auto leaves the pages to it)"
                   : "");
    for (int s = RT_SOURCE_PERF; rt_log_verbosity >= 1 && s < RT_SOURCE_COUNT; s++)
        if (probe_once(s)[0])
            rt_verbose(1, "counter source %s unavailable: %s", rt_source_name(s), reason[s]);
}

void rt_counters_region_begin(const rt_sample_t *s, const void *team)
{
    if (active && active->region_begin)
        active->region_begin(s, team);
}

void rt_counters_thread_begin(const rt_sample_t *s, int index, const void *team)
{
    if (active && active->thread_begin)
        active->thread_begin(s, index, team);
}

int rt_counters_region_end(const rt_sample_t *s, uint64_t *added)
{
    *added = 0;
    int bits = active && active->region_end ? active->region_end(s, added) : 0;
    /* What the program said (omp_numa_attach) joins what a measuring source
     * saw; a replayed table already holds everything it will get. */
    if (active && active != &rt_source_hints && active != &rt_source_replay) {
        uint64_t hinted = 0;
        rt_source_hints.region_end(s, &hinted);
        *added += hinted;
    }
    return bits;
}

int rt_counters_due(const rt_sample_t *s)
{
    return !active || !active->due || active->due(s);
}

int rt_counters_peek(const rt_sample_t *s, uint64_t *tnt)
{
    return active && active->peek ? active->peek(s, tnt) : 0;
}

int rt_counters_can_peek(void)
{
    return active && active->peek;
}

int rt_counters_blind(void)
{
    return active && active->blind && active->blind();
}

int rt_counters_running_team(void)
{
    return active ? active->running_team : 0;
}

int rt_counters_addresses(void)
{
    return active ? active->addresses : 0;
}

int rt_counters_intrusive(void)
{
    return active ? active->intrusive : 0;
}
