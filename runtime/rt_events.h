/* rt_events.h: the runtime's face to the OpenMP layer: region and thread events, in the order a thread sees them. */
#ifndef OMPNUMA_RT_EVENTS_H
#define OMPNUMA_RT_EVENTS_H

#include "rt_core.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_thread.h"

/*
 * Every event is cheap: at most one clock read, no lock, no allocation,
 * except a region's first sight (its record is created) and the end of an
 * execution that completes a phase of the placement loop (a decision).
 * `team` is an opaque handle the OpenMP layer gives for one team instance
 * (teams of one region record can run at once: root threads running the
 * same region, or inner teams whose parent was not recorded).
 */

/* The encountering thread, before the team forks: the region for the
 * requested team size under the thread's current region (created at first
 * sight), with the counter source armed when it is being sampled. NULL when
 * the region is not measured (too deep, or the table is full). */
static inline rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested,
                                                   const void *team);

/* Thread `index` starts its implicit task in region r (NULL: unmeasured).
 * master_slot: the slot the team's master holds in the bubble tree (-1 none);
 * timed: rt_region_timed's answer, taken by the encountering thread. */
static inline void rt_event_task_begin(rt_thread_t *thr, rt_region_t *r, int index, int master_slot, int timed,
                                       const void *team);
/* The thread reaches the region's closing barrier: its busy time ends. */
static inline void rt_event_barrier_arrive(rt_thread_t *thr);
/* Whether anything reads the busy times barrier arrivals end: the region
 * loop, or the report. Without either (the migration monitor alone), the
 * OpenMP layer need not hear of barriers at all. */
int rt_event_barriers_read(void);
/* The implicit task ends; the primary gets its own mask back. */
static inline void rt_event_task_end(rt_thread_t *thr);
/* The primary, after the join barrier: bookkeeping and the placement loop. */
static inline void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed);
/* The thread was given `units` of work (loop iterations dispatched to it):
 * what the migration monitor counts as progress. No lock, no allocation, its
 * own record only. */
void rt_event_work(rt_thread_t *thr, uint64_t units);
/* The thread begins (begin = 1) or ends waiting at a barrier: the time the
 * migration monitor leaves out of its work rate. Its own record only. */
void rt_event_wait(rt_thread_t *thr, int begin);
/* Whether barrier waits are read (the migration monitor runs). */
int rt_event_waits_read(void);
/* Nonzero while the monitor sleeps for evidence (rt_monitor_asleep_flag):
 * a thread's work and waits need not be counted then, and a team of a
 * region whose sampling found no references (r->refs_seen: its team would
 * wake the monitor) may run without member events. */
const int *rt_event_monitor_asleep_flag(void);
/* fn hears each change of it (rt_monitor_on_sleep). */
void rt_event_on_monitor_sleep(void (*fn)(int asleep));
/* The OpenMP layer, before the first region: whether the OpenMP binding
 * (OMP_PROC_BIND, OMP_PLACES) is on, which decides primary=auto. */
void rt_event_openmp_binding(int bound);
/* The thread ends: nothing may read its record afterwards (the monitor
 * finishes a step first; regions drop it as a member). */
void rt_event_thread_end(rt_thread_t *thr);
/* A region that began but whose end was not seen: take back whatever the
 * counter source armed for it. */
void rt_event_region_abandon(rt_region_t *r);
/* The primary, after an execution of r whose team came out with `actual`
 * threads, another size than r's (a caller that learns the team size only
 * inside the team, after its members used r's slots): the execution is not
 * counted, what the source armed for it is taken back, and the thread's last
 * sight at its level leads to the record of `actual` threads from now on. */
void rt_event_region_resized(rt_thread_t *thr, rt_region_t *r, int actual);

/* Worksharing loops of a region's first execution, placed while it runs
 * (rt_events.c): whether the OpenMP layer need report them at all; a
 * thread begins a loop (its code address) and ends its share of it; the
 * barrier that closes a loop ends (every team member passed its work end). */
int  rt_event_loops_read(void);
void rt_event_loop_begin(rt_thread_t *thr, const void *codeptr);
void rt_event_loop_end(rt_thread_t *thr);
void rt_event_loop_barrier_end(rt_thread_t *thr);

/*
 * The events of every execution, inline in the OpenMP layer's callbacks:
 * the primary's region begin and end, and the three every team member sees. A
 * settled region's execution (not sampled, not re-pinned, no monitor, no
 * bubbles) runs only what is below; whatever else an execution needs is the
 * out-of-line rest in rt_events.c, taken in the same order.
 */
void rt_event_region_end_rest(rt_thread_t *thr, rt_region_t *r, int timed);
/* requested is the key of the thread's last sight at its level; size the
 * team size of the record looked up (created) when the last sight is not
 * the region: the same, or for a caller that does not know the team size
 * before the fork (requested 0: the runtime's default), its guess. */
rt_region_t *rt_event_parallel_begin_rest(rt_thread_t *thr, const void *codeptr, int requested, int size,
                                          const void *team);
void rt_event_task_begin_rest(rt_thread_t *thr, rt_region_t *r, int d, int index, int master_slot,
                              const void *team);
void rt_event_barrier_record(rt_thread_t *thr, int d);
void rt_event_task_end_rest(rt_thread_t *thr, int d);

/* Whether an execution of r, sampling while its source waits (r->resting),
 * still rests: no reading is due (rt_loop_resting); when one is, r is
 * sampled in full from this execution on. */
int rt_event_resting(rt_region_t *r);

/* A region met again at its level, not sampled (or, when ask_resting,
 * resting while its source waits), no cache to ask, no bubbles: the rest
 * would only find it. NULL otherwise. Without ask_resting it makes no call
 * (a resting region is NULL too): for a caller whose common case must stay
 * a leaf function, which saves no registers, and which asks again with
 * rt_event_parallel_seen when this says NULL. */
static inline __attribute__((always_inline)) rt_region_t *rt_event_parallel_met(rt_thread_t *thr,
                                                                                 const void *codeptr,
                                                                                 int requested, int ask_resting)
{
    int d = thr->depth;
    rt_region_t *r = d < RT_MAX_DEPTH ? rt_seen_at(thr, d, codeptr, requested) : NULL;
    rt_region_t *m = r && r->redirect ? r->redirect : r;
    if (r && (!m->measuring || (ask_resting && m->resting && rt_event_resting(m))) &&
        __atomic_load_n(&r->met, __ATOMIC_RELAXED))
        return r;
    return NULL;
}

static inline rt_region_t *rt_event_parallel_seen(rt_thread_t *thr, const void *codeptr, int requested)
{
    return rt_event_parallel_met(thr, codeptr, requested, 1);
}

static inline rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested,
                                                   const void *team)
{
    rt_region_t *r = rt_event_parallel_seen(thr, codeptr, requested);
    return r ? r : rt_event_parallel_begin_rest(thr, codeptr, requested, requested, team);
}

/* The thread's record of level d (its region, its number there), which
 * the key of a team forked inside names (rt_seen_at). */
static inline void rt_event_level_set(rt_thread_t *thr, int d, rt_region_t *r, int index, int timed)
{
    thr->level[d].region = r;
    thr->level[d].index = index;
    thr->level[d].arrived = 0;
    thr->level[d].timed = timed;
    thr->level[d].slot = -1;
}

static inline void rt_event_task_begin(rt_thread_t *thr, rt_region_t *r, int index, int master_slot, int timed,
                                       const void *team)
{
    int d = thr->depth++;
    if (d >= RT_MAX_DEPTH)
        return;
    rt_event_level_set(thr, d, r, index, timed);
    if (!r || index >= r->team_size)
        return;
    if (__atomic_load_n(&r->slot[index].member, __ATOMIC_RELAXED) != thr) /* no write, no line transfer */
        __atomic_store_n(&r->slot[index].member, thr, __ATOMIC_RELAXED);
    if (r->pins_applied || (r->measuring && !r->resting) || rt_conf->mode == RT_MODE_BUBBLE ||
        (d == 0 && index == 0 && rt_conf->migrate != RT_MIGRATE_OFF))
        rt_event_task_begin_rest(thr, r, d, index, master_slot, team);
    if (timed)
        thr->level[d].t_begin = rt_now_ns();
}

static inline void rt_event_barrier_arrive(rt_thread_t *thr)
{
    int d = thr->depth - 1;
    if (d < 0 || d >= RT_MAX_DEPTH || thr->level[d].arrived)
        return;
    thr->level[d].arrived = 1;
    if (thr->level[d].timed)
        rt_event_barrier_record(thr, d);
}

static inline void rt_event_task_end(rt_thread_t *thr)
{
    int d = --thr->depth;
    if (d < 0) {
        thr->depth = 0;
        return;
    }
    /* One implicit task done: a unit of the work the monitor weighs. Its own
     * record, one writer: a plain add. */
    __atomic_store_n(&thr->work, thr->work + 1, __ATOMIC_RELAXED);
    if (d >= RT_MAX_DEPTH)
        return;
    if ((d == 0 && thr->level[0].index == 0 && thr->level[0].region && rt_conf->migrate != RT_MIGRATE_OFF) ||
        (thr->level[d].index == 0 && __atomic_load_n(&thr->place.pinned_cpu, __ATOMIC_RELAXED) >= 0)) {
        rt_event_task_end_rest(thr, d);
        return;
    }
    /* A region without an implicit barrier event (rare paths) ends its busy
     * time here; an untimed one has none to end. */
    if (!thr->level[d].arrived && thr->level[d].timed)
        rt_event_barrier_arrive(thr);
}

/* Whether the members of an execution of r that thr begins (r as
 * rt_event_parallel_seen found it: settled, or resting) need of their
 * events at most their level record: the execution is untimed, no thread
 * re-pins for it, the counter source holds nothing of it or waits for its
 * next reading (`resting`: it holds the region's window, nothing of this
 * execution), no loop is open. They need that record when a team was ever
 * forked inside r (r->nested: a member's record of r names the parent of
 * such a team), nothing at all otherwise. (A caller asks only without
 * bubbles, where members place themselves, and without the migration
 * monitor, which counts their work.) */
static inline int rt_event_members_plain(const rt_thread_t *thr, const rt_region_t *r, int timed)
{
    return !timed && !r->pins_applied &&
           ((!r->source_pending && !(thr->counting & (1u << thr->depth))) || r->resting) && !thr->ws;
}

/* Thread `index` of a plain execution of r (rt_event_members_plain) with
 * teams forked inside: the thread enters its level as its task's begin
 * would, and leaves it with rt_event_level_leave, as its task's end would
 * (neither has anything else to do: no busy time, no pin, no mask to give
 * back, no work the monitor counts). A team of one's primary enters it
 * itself, before the fork (its team has no other member), and leaves it
 * after the join. */
static inline void rt_event_level_enter(rt_thread_t *thr, rt_region_t *r, int index)
{
    int d = thr->depth++;
    if (d < RT_MAX_DEPTH)
        rt_event_level_set(thr, d, r, index, 0);
}

static inline void rt_event_level_leave(rt_thread_t *thr)
{
    thr->depth--;
}

/* An untimed execution of a settled region the counter source is done with
 * (thr->counting), with no loop open: counted, nothing else. */
static inline void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed)
{
    if (timed || thr->ws || (thr->counting & (1u << thr->depth)) || r->measuring || r->source_pending)
        rt_event_region_end_rest(thr, r, timed);
    else
        rt_region_count_untimed(r);
}

#endif
