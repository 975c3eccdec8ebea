/* rt_events.c: the event dispatcher: region and thread events from the OpenMP layer, routed to the region table, the sources, the loop, the bubbles and the affinity owner. */
#include <sched.h>
#include <sys/types.h>

#include "rt_affinity.h"
#include "rt_bubble.h"
#include "rt_cache.h"
#include "rt_core.h"
#include "rt_counters.h"
#include "rt_emu_mark.h"
#include "rt_events.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_monitor.h"
#include "rt_policy.h"
#include "rt_settings.h"
#include "rt_symbol.h"
#include "rt_topology.h"

rt_region_t *rt_event_parallel_begin_rest(rt_thread_t *thr, const void *codeptr, int requested, int size,
                                          const void *team)
{
    int d = thr->depth;
    /* Teams below the deepest measured level are not measured: their members
     * would not record their tasks, and nothing would end what was armed. */
    if (size < 1 || d >= RT_MAX_DEPTH)
        return NULL;
    /* Created here, before the team forks, so that a region's very first
     * execution (often the one that first-touches the data) is sampled too,
     * and so that the team members find it without knowing their parent.
     * A loop that runs the same region again finds it in the thread's own
     * last sight at this level. */
    rt_region_t *r = rt_seen_at(thr, d, codeptr, requested);
    if (!r) {
        rt_region_t *parent = d > 0 ? thr->level[d - 1].region : NULL;
        if (parent && !__atomic_load_n(&parent->nested, __ATOMIC_RELAXED))
            __atomic_store_n(&parent->nested, 1, __ATOMIC_RELAXED);
        int pindex = d > 0 ? thr->level[d - 1].index : -1;
        r = rt_region_get(codeptr, size, parent, pindex);
        if (r)
            rt_seen_put(thr, d, (rt_seen_t){.codeptr = codeptr, .parent = parent, .region = r,
                                            .requested = requested, .parent_index = pindex});
        /* Its decision will find the policy's workspace ready: no page
         * fault while it decides (rt_policy_prepare). */
        if (r && rt_conf->mode != RT_MODE_OFF && rt_conf->mode != RT_MODE_MONITOR)
            rt_policy_prepare(rt_conf->policy, r->team_size, rt_mach->pl.nnodes);
    }
    /* A region's first sight: the placement cache may know where it runs best. */
    if (r && rt_conf->cache_path[0] && !__atomic_load_n(&r->cache_checked, __ATOMIC_RELAXED) &&
        !__atomic_exchange_n(&r->cache_checked, 1, __ATOMIC_ACQ_REL))
        rt_cache_start(r);
    /* From now on a fork may find it from its last sight (rt_event_parallel_met). */
    if (r && rt_conf->mode != RT_MODE_BUBBLE && !__atomic_load_n(&r->met, __ATOMIC_RELAXED) &&
        (!rt_conf->cache_path[0] || __atomic_load_n(&r->cache_checked, __ATOMIC_RELAXED)))
        __atomic_store_n(&r->met, 1, __ATOMIC_RELAXED);
    if (rt_conf->mode == RT_MODE_BUBBLE)
        rt_bubble_refresh();
    /* A team that came out smaller last time is measured as the smaller one. */
    rt_region_t *m = r && r->redirect ? r->redirect : r;
    /* Not sampled while the source could add nothing, and a buffer was
     * attached since (rt_loop.c set `measuring`): its phase begins. Another
     * primary doing m's end-of-execution work (teams of one record at
     * once) leaves it to the next fork. */
    if (m && m->blind && rt_region_end_take(m)) {
        rt_loop_source_sees(m);
        rt_region_end_give(m);
    }
    /* Resting while its source waits (its budget), as the thread's last
     * sight would have found it (rt_event_parallel_met), when it is no
     * longer among them (more regions in turn than RT_SEEN_WAYS): its
     * execution is untimed (rt_region_timed) and not armed. */
    if (m && m->measuring && !(m->resting && rt_event_resting(m))) {
        rt_sample_t s;
        rt_loop_sample(m, &s);
        if (!s.record) /* a position its sample took: the source is not armed for it */
            return r;
        thr->counting |= 1u << d;
        rt_counters_region_begin(&s, team);
        /* Ground truth for this sampled execution: the emulator counts every
         * miss under the region's tag (a no-op instruction elsewhere). */
        if (rt_conf->emu_tag && m->level == 1 && !m->confirming)
            rt_emu_mark_tag((uint32_t)(m->id + 1) & RT_EMU_MARK_TAG_MAX);
    }
    return r;
}

/* The thread re-pins to r's CPU for it (one system call, none when
 * unchanged); a move away from where the previous region put it is counted:
 * what regions wanting different placements cost (see rt_loop.c). */
static void repin(rt_thread_t *thr, rt_region_t *r, int cpu, rt_mover_t who)
{
    rt_affinity_move(&thr->place, cpu, who);
    if (cpu != __atomic_load_n(&thr->last_cpu, __ATOMIC_RELAXED))
        __atomic_fetch_add(&r->repins, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&thr->last_cpu, cpu, __ATOMIC_RELAXED);
}

/* Whether the OpenMP binding is on (OMP_PROC_BIND, OMP_PLACES), as the OpenMP
 * layer said once before the first region (rt_event_openmp_binding). */
static int openmp_bound;

/* The CPU the bubble tree gives thread `index` of r. An outermost team's
 * primary keeps the program's own mask unless the OpenMP binding is on or
 * the region's TNT moved it to another position of its team (rt_loop.c):
 * with every thread of a team on a CPU of its own from the first region on,
 * a worker reaches its next cancellation point before the primary cancels,
 * and libomp's rare `omp cancel parallel` hang (the primary in the
 * cancellation barrier, the worker in the join) became certain, as with
 * stock libomp under OMP_PROC_BIND=true; with the primary unbound it is as
 * rare as on stock. Such a primary is never moved, neither at a region's
 * begin nor back at its end. */
static int bubble_cpu(rt_region_t *r, int d, int index, int master_slot, int *slot)
{
    int cpu = rt_bubble_place(r, index, master_slot, slot);
    if (d == 0 && index == 0 && !__atomic_load_n(&openmp_bound, __ATOMIC_RELAXED) &&
        rt_bubble_position(r, 0) == 0)
        return -1;
    return cpu;
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
        __atomic_store_n(&r->pin_cpu[index], bubble_cpu(r, d, index, master_slot, &thr->level[d].slot),
                         __ATOMIC_RELAXED);
    if (r->pins_applied) {
        int cpu = __atomic_load_n(&r->pin_cpu[index], __ATOMIC_RELAXED);
        /* A rolled-back move: back through the CPU it ran on before it (once). */
        if (cpu < 0 && __atomic_load_n(&r->back_cpu[index], __ATOMIC_RELAXED) >= 0) {
            rt_affinity_return(&thr->place, __atomic_exchange_n(&r->back_cpu[index], -1, __ATOMIC_RELAXED),
                               RT_MOVER_LOOP);
            __atomic_store_n(&thr->last_cpu, -1, __ATOMIC_RELAXED);
        } else {
            repin(thr, r, cpu, bubble ? RT_MOVER_BUBBLE : RT_MOVER_LOOP);
        }
    }
    if (r->measuring && !r->resting) {
        if (!r->confirming) /* where the threads were while the TNT was sampled */
            r->seen_cpu[index] = sched_getcpu();
        rt_sample_t s = {.codeptr = r->codeptr, .parent_id = r->parent_id, .parent_index = r->parent_index,
                         .id = r->id, .team_size = r->team_size};
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
    rt_region_t *r = thr->level[d].region;
    int i = thr->level[d].index;
    if (r && i < r->team_size)
        __atomic_store_n(&r->slot[i].busy_last, rt_now_ns() - thr->level[d].t_begin, __ATOMIC_RELAXED);
}

/* Whether an outermost region's primary keeps the region's CPU in the serial
 * code that follows (rt_primary_t): fixed by the setting, or for auto told
 * once by the OpenMP layer before the first region (rt_event_openmp_binding). */
static int primary_stays;

void rt_event_openmp_binding(int bound)
{
    int stays = rt_conf->primary == RT_PRIMARY_STAY || (rt_conf->primary == RT_PRIMARY_AUTO && bound);
    __atomic_store_n(&primary_stays, stays, __ATOMIC_RELAXED);
    __atomic_store_n(&openmp_bound, bound, __ATOMIC_RELAXED);
    rt_verbose(2, "the OpenMP binding is %s: the primary %s", bound ? "on" : "off",
               stays ? "keeps its region's CPU in serial code (no move back and forth per execution)"
                     : "gets its own mask back at each region's end");
}

/* A task end that stops the monitor's team or gives the primary its mask back. */
void rt_event_task_end_rest(rt_thread_t *thr, int d)
{
    if (d == 0 && thr->level[0].index == 0 && thr->level[0].region && rt_conf->migrate != RT_MIGRATE_OFF)
        rt_monitor_team_end();
    /* A region without an implicit barrier event (rare paths) ends its busy time here. */
    if (!thr->level[d].arrived)
        rt_event_barrier_arrive(thr);
    /* The primary returns to serial code (or to its outer region) with the
     * mask it had, whoever moved it for the region (the loop, update_hints,
     * the bubbles). The migration monitor moves threads, not regions: its
     * last move of the primary stays. So does the region's, into serial
     * code, where the primary stays: the next execution then starts where
     * it is, with no system call (an inner team's primary always goes back
     * to its outer region's CPU: its region runs on). */
    if (thr->level[d].index == 0 && __atomic_load_n(&thr->place.pinned_cpu, __ATOMIC_RELAXED) >= 0 &&
        __atomic_load_n(&thr->place.last_mover, __ATOMIC_RELAXED) != RT_MOVER_MONITOR &&
        !(d == 0 && __atomic_load_n(&primary_stays, __ATOMIC_RELAXED))) {
        int outer = -1;
        if (d > 0 && thr->level[d - 1].region && thr->level[d - 1].region->pins_applied)
            outer = thr->level[d - 1].region->pin_cpu[thr->level[d - 1].index];
        rt_affinity_move(&thr->place, outer, rt_conf->mode == RT_MODE_BUBBLE ? RT_MOVER_BUBBLE : RT_MOVER_LOOP);
    }
}

/* The counter source's end of an execution of r, before the bookkeeping:
 * what it armed must not outlive the construct. Returns whether the source
 * is done with r: it was told of an execution it did not record, and it has
 * no window open (rt_event_region_end_rest then skips it until r samples
 * again). */
static int counters_end(rt_region_t *r)
{
    rt_sample_t s;
    uint64_t added;
    if (rt_conf->emu_tag && r->measuring && r->level == 1 && !r->confirming && !r->construct)
        rt_emu_mark_tag(0);
    rt_loop_sample(r, &s);
    int got = rt_counters_region_end(&s, &added);
    if (added && !__atomic_load_n(&r->refs_seen, __ATOMIC_RELAXED))
        __atomic_store_n(&r->refs_seen, 1, __ATOMIC_RELEASE);
    if (got & RT_SOURCE_ARMED)
        rt_loop_source_armed(r);
    if (got & RT_SOURCE_DECLINED)
        rt_loop_source_declined(r);
    if (got & RT_SOURCE_BUSY)
        rt_loop_source_busy(r);
    r->source_pending = (got & RT_SOURCE_PENDING) != 0;
    r->source_waits = (got & RT_SOURCE_WAITS) != 0;
    return !s.record && !r->source_pending;
}

int rt_event_resting(rt_region_t *r)
{
    /* Another primary doing r's end-of-execution work (teams of one record
     * at once): this execution rests, the next fork asks. */
    if (!rt_region_end_take(r))
        return 1;
    int resting = rt_loop_resting(r);
    rt_region_end_give(r);
    return resting;
}

void rt_event_region_abandon(rt_region_t *r)
{
    counters_end(r);
}

/* What the source may hold of the team the primary forked at its level
 * (thr->counting, see rt_region_end_rest): taken back. */
static void counters_end_forked(rt_thread_t *thr, rt_region_t *r)
{
    unsigned bit = 1u << thr->depth;
    if ((thr->counting & bit) || r->measuring || r->source_pending) {
        if (counters_end(r))
            thr->counting &= ~bit;
        else
            thr->counting |= bit;
    }
}

void rt_event_region_resized(rt_thread_t *thr, rt_region_t *r, int actual)
{
    counters_end_forked(thr, r);
    int d = thr->depth;
    if (d >= RT_MAX_DEPTH)
        return;
    /* The last sight the primary began r from: r itself, or the record
     * that redirects to it (the one looked up last, when two of the thread's
     * last sights lead to r: the other, if it was that one, is set right at
     * its own next timed execution). */
    rt_region_t *seen = NULL;
    for (int w = 0; w < RT_SEEN_WAYS && !seen; w++) {
        rt_region_t *s = thr->seen[d][w].region;
        if (s && (s == r || __atomic_load_n(&s->redirect, __ATOMIC_RELAXED) == r))
            seen = s;
    }
    if (!seen)
        return;
    if (actual == seen->team_size)
        __atomic_store_n(&seen->redirect, NULL, __ATOMIC_RELAXED);
    else
        rt_region_for_smaller_team(seen, actual);
}

/* One execution of r (a region, or a loop placed inside one) is over:
 * bookkeeping and the placement loop. */
static void execution_end(rt_region_t *r, int timed)
{
    if (!timed) {
        rt_region_count_untimed(r);
        return;
    }
    if (!rt_region_end_take(r)) /* as in rt_region_count_untimed */
        return;
    r->executions++;
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
    rt_region_end_give(r);
}

static void loop_close(rt_thread_t *thr, int timed);

void rt_event_region_end_rest(rt_thread_t *thr, rt_region_t *r, int timed)
{
    if (thr->ws && thr->ws->parent_id == r->id) /* a last loop without a barrier of its own (nowait) */
        loop_close(thr, thr->ws_timed);
    /* A settled region the source is done with costs the source nothing:
     * most executions of a program. The primary ends the team it forked at
     * its own level, where it began the source. */
    counters_end_forked(thr, r);
    execution_end(r, timed);
}

void rt_event_work(rt_thread_t *thr, uint64_t units)
{
    __atomic_store_n(&thr->work, thr->work + units, __ATOMIC_RELAXED);
}

int rt_event_waits_read(void)
{
    return rt_conf->migrate != RT_MIGRATE_OFF;
}

const int *rt_event_monitor_asleep_flag(void)
{
    return rt_monitor_asleep_flag();
}

void rt_event_on_monitor_sleep(void (*fn)(int asleep))
{
    rt_monitor_on_sleep(fn);
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

/* ---- one long region: its loops placed while it runs ----
 *
 * A region that runs once (a solver's time loop inside one `parallel`)
 * never gets the executions the placement loop needs. Its worksharing
 * loops repeat: a loop the primary begins a second time within the
 * region's first execution becomes a record of its own (a construct: the
 * region's team, the loop's code address), and each later execution of it
 * (work begin to the end of the barrier after it) is one execution for the
 * placement loop. It is sampled by a source that can sample a running team
 * (the pagefault sampler, hints), timed (each thread's work begin to its
 * work end), decided, applied (each thread re-pins at its next begin of
 * the loop), verified, and kept or rolled back as a region is. Outermost
 * teams only, and only until their region ends its first execution: a
 * region that runs again is placed as a whole. A loop without a barrier of
 * its own (nowait) is closed at the primary's next loop or at the region's
 * end, with each thread's latest time (a thread still in it counts its
 * previous one). Once settled, a loop is no longer timed, and (its source
 * holding nothing of it) its threads find it in their own cache of loop
 * records and do nothing more than count it (the primary) and keep to its
 * mapping: most of a long execution's loops.
 */

/* Only where a placement can differ: one node leaves nothing to gain, and
 * every loop of every thread would pay for two callbacks. */
int rt_event_loops_read(void)
{
    return rt_conf->mode == RT_MODE_LOOP && rt_conf->loops && rt_mach->topo.nnodes > 1 && rt_counters_running_team();
}

/* Where the primary began this loop before in the current execution of r:
 * its entry in ws_seen, or -1 at its first sight (remembered then; the
 * oldest are forgotten past RT_WS_SEEN). */
static int loop_seen_at(rt_thread_t *thr, const rt_region_t *r, const void *codeptr)
{
    if (thr->ws_within != r) {
        thr->ws_within = r;
        thr->ws_nseen = 0;
        thr->ws_waiting = 0;
    }
    unsigned n = thr->ws_nseen < RT_WS_SEEN ? thr->ws_nseen : RT_WS_SEEN;
    for (unsigned k = 0; k < n; k++)
        if (thr->ws_seen[k] == codeptr)
            return (int)k;
    unsigned k = thr->ws_nseen++ % RT_WS_SEEN;
    thr->ws_seen[k] = codeptr;
    thr->ws_waiting &= ~(1ull << k);
    return -1;
}

/* Whether the counter source could sample a loop of r now. A loop that
 * repeats gets its record, and its first arming, only then: where the
 * source's budget is spent, both cost the primary more than the loop they
 * would place (NPB MG class S in the paced 2-node VM: its five loops' records
 * and declined armings, 5 % of the timed run). */
static int loop_may_sample(const rt_region_t *r, const void *codeptr)
{
    rt_sample_t s = {.codeptr = codeptr, .parent_id = r->id, .parent_index = -1, .id = -1,
                     .team_size = r->team_size, .nnodes = rt_mach->topo.nnodes};
    return rt_counters_due(&s);
}

/* Loop k of the primary's sight waits for its source (on) or got its record
 * (off): the enclosing region counts the loops that wait, for its `why`. */
static void loop_waits(rt_thread_t *thr, rt_region_t *r, int k, int on)
{
    uint64_t bit = 1ull << k;
    int waiting = (thr->ws_waiting & bit) != 0;
    if (waiting == on)
        return;
    thr->ws_waiting ^= bit;
    rt_loop_loops_waiting(r, on ? 1 : -1);
}

/* The primary arms the source for a sampled execution of loop c of r: the
 * team is running, so the source is told its threads. */
static void loop_arm(rt_region_t *c, const rt_region_t *r)
{
    for (int k = 0; k < c->team_size; k++) {
        const rt_thread_t *m = __atomic_load_n(&r->slot[k].member, __ATOMIC_RELAXED);
        c->tid[k] = m ? m->place.tid : 0;
    }
    rt_sample_t s;
    rt_loop_sample(c, &s);
    s.tids = c->tid;
    rt_counters_region_begin(&s, c);
}

/* The primary closes its execution of loop c. Without a barrier (nowait)
 * other threads may still be in this execution or a former one: each
 * thread's time is its mean over the executions it finished since the
 * last close (one, after a barrier), and a thread that finished none has
 * no part in this one (its last time, repeated while it lags, would stand
 * for every execution the others finish meanwhile: measured in the 2-node
 * VM, one descheduled vCPU's time was the critical path of 32 in a row). */
static void loop_close(rt_thread_t *thr, int timed)
{
    rt_region_t *c = thr->ws;
    thr->ws = NULL;
    for (int i = 0; timed && i < c->team_size; i++) {
        uint64_t v = __atomic_exchange_n(&c->slot[i].busy_acc, 0, __ATOMIC_RELAXED);
        uint64_t n = v >> RT_BUSY_N_SHIFT;
        __atomic_store_n(&c->slot[i].busy_last, n ? (v & ((1ull << RT_BUSY_N_SHIFT) - 1)) / n : 0, __ATOMIC_RELAXED);
    }
    /* Nothing is armed for a loop that does not sample (loop_arm) once the
     * source was told it stopped (below): most executions skip the source. */
    int sampling = c->measuring;
    if (sampling || c->source_pending)
        counters_end(c);
    execution_end(c, timed);
    /* The source may hold its sample for the loop's next execution: one
     * that will not be sampled gets it back now, not at its own end. */
    if (sampling && !c->measuring)
        counters_end(c);
}

/* Thread i of loop c where c's mapping puts it. A loop that rests (its
 * source waits for the budget) still moves its team: a worker that skipped
 * its move while the loop rested after a decision (its verification's
 * sample waiting) stayed on its CPU, which the primary had just moved to:
 * two threads on one (patterns' swapped-long in the paced 2-node VM: 1.43 x
 * `off` in one run of two, and good mappings rolled back, measured with
 * both threads on one CPU). */
static void loop_repin(rt_thread_t *thr, rt_region_t *c, int i)
{
    if (c->pins_applied)
        repin(thr, c, __atomic_load_n(&c->pin_cpu[i], __ATOMIC_RELAXED), RT_MOVER_LOOP);
}

/* Loop codeptr of r's team, from the thread's cache or the table (NULL:
 * no record yet). */
static rt_region_t *loop_record(rt_thread_t *thr, const rt_region_t *r, const void *codeptr)
{
    unsigned w = (unsigned)((uintptr_t)codeptr >> 3) & (RT_WS_LAST - 1);
    if (thr->ws_last[w].codeptr == codeptr && thr->ws_last[w].parent == r)
        return thr->ws_last[w].loop;
    rt_region_t *c = rt_region_construct(codeptr, r, 0);
    if (c) {
        thr->ws_last[w].codeptr = codeptr;
        thr->ws_last[w].parent = r;
        thr->ws_last[w].loop = c;
    }
    return c;
}

/* Thread i begins loop codeptr of r, which has no record yet (c NULL) or
 * is being placed. */
static __attribute__((noinline)) void loop_begin_placing(rt_thread_t *thr, rt_region_t *r, int i,
                                                         rt_region_t *c, const void *codeptr)
{
    if (i == 0) {
        if (!c) {
            int k = loop_seen_at(thr, r, codeptr);
            if (k < 0)
                return;
            int may = loop_may_sample(r, codeptr);
            loop_waits(thr, r, k, !may);
            if (!may || !(c = rt_region_construct(codeptr, r, 1)))
                return;
            if (rt_log_verbosity >= 1) {
                char sym[640];
                rt_symbolize(codeptr, sym, sizeof sym);
                rt_verbose(1, "region %d: its loop at %s repeats inside one execution: placed while it runs, "
                           "as region %d", r->id, sym, c->id);
            }
            if (rt_conf->cache_path[0])
                rt_cache_start(c);
            return; /* counted from its next execution, which every thread sees begin */
        }
        /* Resting while its source waits (its budget): not timed, not
         * armed, counted; the team's threads see the flag and skip it too,
         * but go where its mapping puts them (loop_repin). */
        if (c->resting && rt_event_resting(c)) {
            rt_region_count_untimed(c);
            loop_repin(thr, c, i);
            return;
        }
        thr->ws = c;
        if (c->measuring)
            loop_arm(c, r);
    } else {
        if (!c)
            return;
        if (__atomic_load_n(&c->resting, __ATOMIC_RELAXED)) {
            loop_repin(thr, c, i);
            return;
        }
        thr->ws = c;
    }
    if (__atomic_load_n(&c->slot[i].member, __ATOMIC_RELAXED) != thr)
        __atomic_store_n(&c->slot[i].member, thr, __ATOMIC_RELAXED);
    loop_repin(thr, c, i);
    if (c->measuring && !c->confirming)
        c->seen_cpu[i] = sched_getcpu();
    thr->ws_timed = !rt_region_settled(c);
    if (thr->ws_timed)
        thr->ws_begin = rt_now_ns();
}

void rt_event_loop_begin(rt_thread_t *thr, const void *codeptr)
{
    if (thr->depth != 1)
        return;
    rt_region_t *r = thr->level[0].region;
    int i = thr->level[0].index;
    if (i != 0)
        thr->ws = NULL;
    if (!r || i >= r->team_size || r->executions || r->outcome != RT_OUTCOME_SAMPLING)
        return;
    rt_region_t *c = loop_record(thr, r, codeptr);
    if (i == 0 && thr->ws) /* the previous loop had no barrier (nowait) */
        loop_close(thr, thr->ws_timed);
    /* Settled, and its source holds nothing of it: most of a long
     * execution's loops. Counted as it begins; its end and barrier have
     * nothing to do. */
    if (c && rt_region_settled(c) && !c->source_pending) {
        if (i == 0)
            rt_region_count_untimed(c);
        loop_repin(thr, c, i);
        return;
    }
    loop_begin_placing(thr, r, i, c, codeptr);
}

void rt_event_loop_end(rt_thread_t *thr)
{
    rt_region_t *c = thr->ws;
    if (!c)
        return;
    int i = thr->level[0].index;
    /* A loop the thread began and never ended (cancelled, or the entry
     * points switched back to the runtime meanwhile) is not this one. */
    if (thr->depth < 1 || !thr->level[0].region || c->parent_id != thr->level[0].region->id || i >= c->team_size) {
        thr->ws = NULL;
        return;
    }
    if (thr->ws_timed) {
        uint64_t ns = rt_now_ns() - thr->ws_begin, max = (1ull << RT_BUSY_N_SHIFT) - 1;
        __atomic_fetch_add(&c->slot[i].busy_acc, (1ull << RT_BUSY_N_SHIFT) + (ns < max ? ns : max), __ATOMIC_RELAXED);
    }
    if (i != 0) /* the primary closes the execution at the barrier */
        thr->ws = NULL;
}

void rt_event_loop_barrier_end(rt_thread_t *thr)
{
    if (thr->ws && thr->depth == 1 && thr->level[0].index == 0)
        loop_close(thr, thr->ws_timed);
}
