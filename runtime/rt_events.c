/* rt_events.c: the event dispatcher: region and thread events from the OpenMP layer, routed to the region table, the sources, the loop, the bubbles and the affinity owner. */
#include <sched.h>

#include "rt_affinity.h"
#include "rt_bubble.h"
#include "rt_cache.h"
#include "rt_core.h"
#include "rt_counters.h"
#include "rt_emu_mark.h"
#include "rt_events.h"
#include "rt_loop.h"
#include "rt_monitor.h"
#include "rt_settings.h"

rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested, const void *team)
{
    int d = thr->depth;
    /* Teams below the deepest measured level are not measured: their members
     * would not record their tasks, and nothing would end what was armed. */
    if (requested < 1 || d >= RT_MAX_DEPTH)
        return NULL;
    const rt_region_t *parent = d > 0 ? thr->region[d - 1] : NULL;
    /* Created here, before the team forks, so that a region's very first
     * execution (often the one that first-touches the data) is sampled too,
     * and so that the team members find it without knowing their parent.
     * A loop that runs the same region again finds it in the thread's own
     * last sight at this level. */
    rt_seen_t *seen = &thr->seen[d];
    rt_region_t *r = seen->region;
    if (!r || seen->codeptr != codeptr || seen->requested != requested || seen->parent != parent) {
        r = rt_region_get(codeptr, requested, parent);
        if (r)
            *seen = (rt_seen_t){.codeptr = codeptr, .parent = parent, .region = r, .requested = requested};
    }
    /* A region's first sight: the placement cache may know where it runs best. */
    if (r && rt_conf->cache_path[0] && !__atomic_load_n(&r->cache_checked, __ATOMIC_RELAXED) &&
        !__atomic_exchange_n(&r->cache_checked, 1, __ATOMIC_ACQ_REL))
        rt_cache_start(r);
    if (rt_conf->mode == RT_MODE_BUBBLE)
        rt_bubble_refresh();
    /* A team that came out smaller last time is measured as the smaller one. */
    rt_region_t *m = r && r->redirect ? r->redirect : r;
    if (m && m->measuring) {
        rt_sample_t s;
        rt_loop_sample(m, &s);
        rt_counters_region_begin(&s, team);
        /* Ground truth for this sampled execution: the emulator counts every
         * miss under the region's tag (a no-op instruction elsewhere). */
        if (rt_conf->emu_tag && m->level == 1 && !m->confirming)
            rt_emu_mark_tag((uint32_t)(m->id + 1) & RT_EMU_MARK_TAG_MAX);
    }
    return r;
}

/* What a team member's task begin needs beyond the inline part (rt_events.h):
 * the monitor, the bubbles, a re-pin, the counter source. */
void rt_event_task_begin_rest(rt_thread_t *thr, rt_region_t *r, int d, int index, int master_slot,
                              const void *team)
{
    /* The outermost team is the one the migration monitor manages. */
    if (d == 0 && index == 0 && rt_conf->migrate != RT_MIGRATE_OFF)
        rt_monitor_team_begin(r);
    int bubble = rt_conf->mode == RT_MODE_BUBBLE;
    if (bubble)
        __atomic_store_n(&r->pin_cpu[index], rt_bubble_place(r, index, master_slot, &thr->slot[d]),
                         __ATOMIC_RELAXED);
    /* Re-pin only when this thread's place changed: one system call, and none when unchanged. */
    int cpu = __atomic_load_n(&r->pin_cpu[index], __ATOMIC_RELAXED);
    if (r->pins_applied) {
        rt_affinity_move(&thr->place, cpu, bubble ? RT_MOVER_BUBBLE : RT_MOVER_LOOP);
        /* A move away from where the previous region put this thread: what
         * regions wanting different placements cost (see rt_loop.c). */
        if (cpu != __atomic_load_n(&thr->last_cpu, __ATOMIC_RELAXED))
            __atomic_fetch_add(&r->repins, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&thr->last_cpu, cpu, __ATOMIC_RELAXED);
    }
    if (r->measuring) {
        if (!r->confirming) /* where the threads were while the TNT was sampled */
            r->seen_cpu[index] = sched_getcpu();
        rt_sample_t s = {.codeptr = r->codeptr, .parent_id = r->parent_id, .id = r->id, .team_size = r->team_size};
        rt_counters_thread_begin(&s, index, team);
    }
}

int rt_event_barriers_read(void)
{
    return rt_conf->report != RT_REPORT_NONE || (rt_conf->mode != RT_MODE_OFF && rt_conf->mode != RT_MODE_MONITOR);
}

/* A timed execution's busy time of thread d's level, into its slot. */
void rt_event_barrier_record(rt_thread_t *thr, int d)
{
    rt_region_t *r = thr->region[d];
    int i = thr->index[d];
    if (r && i < r->team_size)
        __atomic_store_n(&r->slot[i].busy_last, rt_now_ns() - thr->t_begin[d], __ATOMIC_RELAXED);
}

/* A task end that stops the monitor's team or gives the primary its mask back. */
void rt_event_task_end_rest(rt_thread_t *thr, int d)
{
    if (d == 0 && thr->index[0] == 0 && thr->region[0] && rt_conf->migrate != RT_MIGRATE_OFF)
        rt_monitor_team_end();
    /* A region without an implicit barrier event (rare paths) ends its busy time here. */
    if (!thr->arrived[d])
        rt_event_barrier_arrive(thr);
    /* The primary returns to serial code (or to its outer region) with the
     * mask it had, whoever moved it for the region (the loop, update_hints,
     * the bubbles). The migration monitor moves threads, not regions: its
     * last move of the primary stays. */
    if (thr->index[d] == 0 && __atomic_load_n(&thr->place.pinned_cpu, __ATOMIC_RELAXED) >= 0 &&
        __atomic_load_n(&thr->place.last_mover, __ATOMIC_RELAXED) != RT_MOVER_MONITOR) {
        int outer = -1;
        if (d > 0 && thr->region[d - 1] && thr->region[d - 1]->pins_applied)
            outer = thr->region[d - 1]->pin_cpu[thr->index[d - 1]];
        rt_affinity_move(&thr->place, outer, rt_conf->mode == RT_MODE_BUBBLE ? RT_MOVER_BUBBLE : RT_MOVER_LOOP);
    }
}

/* The counter source first, always: what it armed must not outlive the construct. */
static void counters_end(rt_region_t *r)
{
    rt_sample_t s;
    uint64_t added;
    if (rt_conf->emu_tag && r->measuring && r->level == 1 && !r->confirming)
        rt_emu_mark_tag(0);
    rt_loop_sample(r, &s);
    int got = rt_counters_region_end(&s, &added);
    if (got & RT_SOURCE_ARMED)
        r->armed_execs++;
    r->source_pending = (got & RT_SOURCE_PENDING) != 0;
}

void rt_event_region_abandon(rt_region_t *r)
{
    counters_end(r);
}

void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed)
{
    (void)thr;
    counters_end(r);
    /* The inner teams of several outer threads share one record and may end
     * at the same moment: one of them does the bookkeeping, the others'
     * executions go uncounted (their timings came from the same slots). */
    if (__atomic_exchange_n(&r->ending, 1, __ATOMIC_ACQUIRE))
        return;
    r->executions++;
    if (!timed) {
        __atomic_store_n(&r->ending, 0, __ATOMIC_RELEASE);
        return;
    }
    r->timed_executions++;
    uint64_t cp = 0;
    for (int i = 0; i < r->team_size; i++) {
        uint64_t b = __atomic_load_n(&r->slot[i].busy_last, __ATOMIC_RELAXED);
        r->busy_sum[i] += b;
        if (b > cp)
            cp = b;
    }
    r->cp_sum += cp;
    if (cp < r->cp_min)
        r->cp_min = cp;
    if (cp > r->cp_max)
        r->cp_max = cp;
    rt_loop_region_end(r, cp);
    __atomic_store_n(&r->ending, 0, __ATOMIC_RELEASE);
}

void rt_event_work(rt_thread_t *thr, uint64_t units)
{
    __atomic_store_n(&thr->work, thr->work + units, __ATOMIC_RELAXED);
}

int rt_event_waits_read(void)
{
    return rt_conf->migrate != RT_MIGRATE_OFF;
}

void rt_event_wait(rt_thread_t *thr, int begin)
{
    uint64_t now = rt_now_ns();
    if (begin) {
        /* A wait whose end was never reported is dropped, not stretched
         * over the work done since. */
        __atomic_store_n(&thr->wait_since, now, __ATOMIC_RELEASE);
        return;
    }
    uint64_t since = thr->wait_since;
    if (!since || now < since)
        return;
    __atomic_store_n(&thr->wait_since, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&thr->wait_ns, thr->wait_ns + (now - since), __ATOMIC_RELEASE);
}

void rt_event_thread_end(rt_thread_t *thr)
{
    rt_monitor_thread_end(thr);
}
