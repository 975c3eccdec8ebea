/* rt_sources.h: the interface each counter source (rt_src_*.c) implements, and the sample context it is given. */
#ifndef OMPNUMA_RT_SOURCES_H
#define OMPNUMA_RT_SOURCES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "data/pl_data.h"

/*
 * The addresses behind a region's sampled references, for data placement
 * (control/rt_data.c): a source that knows them (the page sampler, perf)
 * appends each sampled reference's address, thread index and node here.
 * Preallocated by the loop's data part and written by the primary at
 * region_end, never in a signal handler (the page sampler's resolver logs
 * into its own tables and region_end copies); bounded: what does not fit is
 * counted in dropped.
 */
typedef struct rt_addr_log {
    pl_data_sample_t *entry;
    uint32_t          cap, n;
    uint64_t          dropped;
    uint64_t          spacing;  /* bytes between two pages the source watched at once (its stride),
                                   the largest seen; 0: unknown (samples by event, not by page) */
} rt_addr_log_t;

static inline void rt_addr_log_add(rt_addr_log_t *log, uint64_t addr, int thread, int node)
{
    if (log->n < log->cap)
        log->entry[log->n++] = (pl_data_sample_t){.addr = addr, .thread = thread, .node = node};
    else
        log->dropped++;
}

/*
 * What a source needs to know about one execution of a region, built by the
 * placement loop (which alone decides when a phase starts): the region's
 * identity, its team, and the table to add to. Sources never see the
 * region record or the loop's state.
 */
typedef struct rt_sample {
    const void *codeptr;    /* the region: code address ... */
    int         parent_id;  /* ... enclosing region (-1 outermost) ... */
    int         parent_index; /* ... and the forking thread's number there: together they identify it */
    int         id;         /* its number, for messages */
    int         team_size;
    int         nnodes;     /* columns of tnt */
    uint64_t   *tnt;        /* [team_size * nnodes] references to add to */
    uint64_t   *samples;    /* [team_size] samples per thread to add to, NULL when not counted */
    int         record;     /* 1: this execution is sampled; 0: it is not (an intrusive source arms
                               nothing for it), only what was armed is taken back */
    int         once;       /* first sampled execution of the phase: sources that read a
                               snapshot (hints, replay) add only then */
    int         after;      /* the sample after a kept move (a replayed table says nothing of it) */
    int         probe;      /* a first look at a region that may be at home (rt_loop.c, home_early):
                               a source that pays per sample takes fewer */
    int         promising;  /* its sample so far shows a thread with most of its references remote:
                               a source with a budget may spend more on it */
    const pid_t *tids;      /* [team_size] the team's threads when they started before region_begin
                               (a worksharing loop inside a running team, rt_events.c); NULL for a
                               team about to fork, whose threads come to thread_begin */
    rt_addr_log_t *addrs;   /* where a source with addresses logs them when record (NULL: nobody asks) */
    uint64_t   *slowed_ns;  /* where an intrusive source's region_end writes what its sampling took
                               of the execution's critical path (NULL: nobody asks) */
} rt_sample_t;

#define RT_SOURCE_ARMED   1
#define RT_SOURCE_PENDING 2
#define RT_SOURCE_WAITS   4
#define RT_SOURCE_DECLINED 8 /* not armed: the source's budget */
#define RT_SOURCE_BUSY    16 /* not armed: another execution holds the source (one at a time) */

typedef struct rt_source_ops {
    /* 0 when the source can work here; otherwise -1 with the reason in why. */
    int  (*probe)(char *why, size_t len);
    /* Once, when chosen. May be NULL. */
    void (*start)(void);
    /* The encountering thread, before a sampled execution's team forks; team
     * identifies this team instance (teams of one region can run at once).
     * May be NULL. */
    void (*region_begin)(const rt_sample_t *s, const void *team);
    /* Thread `index` of team instance `team`, as it starts its part of a
     * sampled execution. May be NULL. */
    void (*thread_begin)(const rt_sample_t *s, int index, const void *team);
    /* The primary after every execution of a region the source may have
     * armed: take back what was armed and, when s->record, add to s->tnt.
     * *added receives the samples added. Returns RT_SOURCE_* bits:
     * RT_SOURCE_ARMED when this execution was armed for the region (an
     * intrusive source samples one at a time), RT_SOURCE_PENDING while a
     * source that samples by time has not closed its window (the loop then
     * keeps the phase open past `sample` executions), with RT_SOURCE_WAITS
     * when the executions until its next reading need nothing from the
     * team (the source says which one does: due), RT_SOURCE_DECLINED when
     * the source did not arm this execution to stay within its budget (the
     * loop waits for one it arms; with RT_SOURCE_WAITS, the executions until
     * due says the budget allows one rest), RT_SOURCE_BUSY when an
     * intrusive source did not arm it because another execution held it
     * (the loop waits longer for such a one: rt_loop.c, waits_unarmed). */
    int  (*region_end)(const rt_sample_t *s, uint64_t *added);
    /* The encountering thread, before a fork of s's region (or the primary,
     * before a loop's execution) while the source waits (RT_SOURCE_WAITS):
     * 1 when this execution's threads must take part (a reading is due, or
     * the budget allows an arming: the source asks for it now), 0 when it
     * needs nothing of them, and the team runs as a settled one. May be
     * NULL for a source that never waits. */
    int  (*due)(const rt_sample_t *s);
    /* Another thread (the migration monitor) while a team runs: when the
     * execution being sampled is s's region's (code address, parent, team
     * size), its references so far into tnt [team_size * nnodes],
     * overwritten, and 1; otherwise 0 and tnt untouched. What a region that
     * runs once has before it ends. With s->tids (the running team's
     * threads), a source whose budget declined that execution at its begin
     * may arm it now (the page sampler). May be NULL. */
    int  (*peek)(const rt_sample_t *s, uint64_t *tnt);
    /* 1 while the source could add nothing to an execution sampled now
     * (hints: no buffer attached): a region created then samples nothing
     * until an attach says it may (control/rt_loop.c, "blind"). No lock, no
     * system call. May be NULL: never blind. */
    int  (*blind)(void);
    int    intrusive;  /* sampling slows the sampled execution */
    int    addresses;  /* region_end logs each sample's address into s->addrs */
    int    running_team; /* region_begin can sample a team already running (s->tids) */
} rt_source_ops_t;

extern const rt_source_ops_t rt_source_perf;
extern const rt_source_ops_t rt_source_numab;
extern const rt_source_ops_t rt_source_papi;
extern const rt_source_ops_t rt_source_pagefault;
extern const rt_source_ops_t rt_source_hints;
extern const rt_source_ops_t rt_source_replay;

#endif
