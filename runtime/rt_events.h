/* rt_events.h: the runtime's face to the OpenMP layer: region and thread events, in the order a thread sees them. */
#ifndef OMPNUMA_RT_EVENTS_H
#define OMPNUMA_RT_EVENTS_H

#include "rt_region.h"
#include "rt_thread.h"

/*
 * Every event is cheap: at most one clock read, no lock, no allocation,
 * except a region's first sight (its record is created) and the end of an
 * execution that completes a phase of the placement loop (a decision).
 * `team` is an opaque handle the OpenMP layer gives for one team instance
 * (the inner teams of several outer threads share one region record).
 */

/* The encountering thread, before the team forks: the region for the
 * requested team size under the thread's current region (created at first
 * sight), with the counter source armed when it is being sampled. NULL when
 * the region is not measured (too deep, or the table is full). */
rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested, const void *team);

/* Thread `index` starts its implicit task in region r (NULL: unmeasured).
 * master_slot: the slot the team's master holds in the bubble tree (-1 none);
 * timed: rt_region_timed's answer, taken by the encountering thread. */
void rt_event_task_begin(rt_thread_t *thr, rt_region_t *r, int index, int master_slot, int timed,
                         const void *team);
/* The thread reaches the region's closing barrier: its busy time ends. */
void rt_event_barrier_arrive(rt_thread_t *thr);
/* The implicit task ends; the primary gets its own mask back. */
void rt_event_task_end(rt_thread_t *thr);
/* The primary, after the join barrier: bookkeeping and the placement loop. */
void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed);
/* The thread was given `units` of work (loop iterations dispatched to it):
 * what the migration monitor counts as progress. No lock, no allocation, its
 * own record only. */
void rt_event_work(rt_thread_t *thr, uint64_t units);
/* The thread ends: nothing may read its record afterwards (the monitor
 * finishes a step first; regions drop it as a member). */
void rt_event_thread_end(rt_thread_t *thr);
/* A region that began but whose end was not seen: take back whatever the
 * counter source armed for it. */
void rt_event_region_abandon(rt_region_t *r);

#endif
