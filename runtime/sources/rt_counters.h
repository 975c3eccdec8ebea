/* rt_counters.h: the counter sources that fill a region's thread-node table (TNT): probes, the choice, the calls. */
#ifndef OMPNUMA_RT_COUNTERS_H
#define OMPNUMA_RT_COUNTERS_H

#include <stdint.h>

#include "rt_settings.h"
#include "rt_sources.h"

/* Pick the configured source (or the best that works for auto), probing
 * only the sources the choice may take; the others are probed when
 * rt_counters_reason is first asked about them. */
void rt_counters_init(void);

/* Only the probes, all of them again (for `ompnuma topo`): fill the reasons. */
void rt_counters_probe(void);

/* The source in use (RT_SOURCE_AUTO: none works), and why source s is
 * unavailable here ("" when it works). */
rt_source_t rt_counters_used(void);
const char *rt_counters_reason(rt_source_t s);

/* Whether auto left the pages to Linux's NUMA balancing: it is on here
 * (normal mode, this machine's nodes, more than one), and auto took hints
 * rather than the kernel's faults (rt_counters.c says why). Fixed at
 * rt_counters_init; any thread may ask. */
int rt_counters_kernel_balances(void);

/* Before the team of a sampled execution forks (encountering thread). */
void rt_counters_region_begin(const rt_sample_t *s, const void *team);

/* Thread index starts its part of a sampled execution (the thread itself). */
void rt_counters_thread_begin(const rt_sample_t *s, int index, const void *team);

/* The primary, at the end of every execution: see rt_source_ops_t.region_end. */
int rt_counters_region_end(const rt_sample_t *s, uint64_t *added);

/* Before a fork of s's region while the source waits (RT_SOURCE_WAITS):
 * whether this execution needs the team (rt_source_ops_t.due). */
int rt_counters_due(const rt_sample_t *s);

/* The references of s's execution being sampled so far (rt_source_ops_t.peek): 1 and tnt filled, or 0. */
int rt_counters_peek(const rt_sample_t *s, uint64_t *tnt);

/* Whether the chosen source slows the execution it samples (its timings
 * are then not a fair "before"). */
int rt_counters_intrusive(void);
/* Whether the chosen source logs the address of each sampled reference
 * (rt_sample_t.addrs): what data placement needs. */
int rt_counters_addresses(void);
/* Whether the chosen source can tell what it has sampled of an execution
 * still running (rt_counters_peek): else references show only as
 * executions end. */
int rt_counters_can_peek(void);
/* Whether the chosen source could add nothing to an execution sampled now
 * (rt_source_ops_t.blind): no lock, no system call. */
int rt_counters_blind(void);
/* Whether the chosen source can sample a team that is already running (a
 * worksharing loop inside one long execution: rt_sample_t.tids). */
int rt_counters_running_team(void);

#endif
