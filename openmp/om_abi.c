/* om_abi.c: the ABI route: the drop-ins' region, loop and barrier entry points, forwarded to the real runtime around ompnuma's events. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <omp.h>

#include "om_abi.h"
#include "om_chain.h"
#include "om_team.h"
#include "rt_core.h"
#include "rt_events.h"
#include "rt_mem.h"
#include "rt_runtime.h"
#include "rt_settings.h"

/*
 * A drop-in exports the entry points that start a parallel region, and the
 * real runtime runs the region: each of them (below) finds the region's
 * record on the primary (the thread's last sight at its level, or the
 * table), hands the real runtime a trampoline and a team record in place of
 * the outlined function and its arguments, and ends the region on the
 * primary when the real call returns, after the join. The trampoline runs on
 * every member: the member's begin (its slot, a re-pin when its CPU changed,
 * the clock when this execution is timed), the outlined function with the
 * same arguments, its end (its busy time ends as it returns: the join
 * barrier is the real runtime's, after it). A settled region met again
 * whose members need nothing this time (rt_event_members_plain, and no team
 * was ever forked inside) runs the program's own function instead: the
 * primary counts the execution, nothing else. When teams fork inside, its
 * members need their level record (the parent in those teams' key): they
 * only enter and leave their level, and a team of one's primary enters it
 * itself (om_abi_microtask_alone). Nothing of OMPT: the runtime runs without
 * a tool attached unless the program has its own.
 *
 * What OMPT told the tool and the ABI does not, and where it comes from
 * here: the thread's number (clang passes it; gcc's is asked of the
 * runtime, except the primary's), the nesting level and parent (each
 * thread's own stack of regions, rt_thread_t.depth), the team size asked
 * for (num_threads, seen as __kmpc_push_num_threads or gcc's argument; else
 * the runtime's default, asked only when a record is looked up), the team
 * size that formed (asked by each member when the primary looked the region
 * up; on its last sight, counted by the members of a timed execution: a team
 * that came out another size than its record's is not counted, and the next
 * execution runs in the record of the size that formed).
 */

typedef struct ident ident_t; /* the real runtime's source location: flags at byte 4 */
#define IDENT_FLAGS(loc) (((const int32_t *)(const void *)(loc))[1])
#define IDENT_WORK_SECTIONS 0x400   /* the compiler's marks: sections and distribute use */
#define IDENT_WORK_DISTRIBUTE 0x800 /* the loop entry points too */

#define CALL_SITE() __builtin_extract_return_addr(__builtin_return_address(0))

enum { ABI_UNKNOWN, ABI_STARTED, ABI_ACTIVE, ABI_IDLE };
static int route;

/* The real runtime's entry points, and each facade's slot table. */
static void *real_omp[OM_ABI_OMP_N], *real_gomp[OM_ABI_GOMP_N];
static void **slots[OM_FACADE_COUNT];
#define REAL_OMP(i, type) ((type)real_omp[i])
#define REAL_GOMP(i, type) ((type)real_gomp[i])
/* Each entry point's slot by its name (I___kmpc_barrier, I_GOMP_barrier). */
#define SLOT_INDEX(i, name, shape) I_##name = i,
enum { OM_ABI_OMP(SLOT_INDEX) };
enum { OM_ABI_GOMP(SLOT_INDEX) };

/* The real runtime's mapping: it calls a few of these entry points itself,
 * through its PLT (__kmp_fork_call serializes a team through
 * __kmpc_serialized_parallel; GOMP_barrier and the GOMP loops go through
 * __kmpc_barrier and __kmpc_dispatch_next_8); those calls are its own. */
static uintptr_t runtime_lo, runtime_len;

static inline int from_runtime(const void *site)
{
    return (uintptr_t)site - runtime_lo < runtime_len;
}

/* A zero that stays zero: the monitor's sleep when there is no monitor. */
static const int never_asleep;

/* What a region's fork reads of this file's state, in one cache line: a
 * program that sweeps more than the cache between its regions finds none
 * of ompnuma's lines there, and each one the fork reads is a miss. */
typedef struct om_abi_hot {
    int        state;          /* ABI_* */
    int        idle_teams;     /* IDLE_* (below): set at start-up, never again once IDLE_NEVER */
    /* What the watched entry points serve, fixed at start-up: barrier
     * waits and work for the migration monitor, loops for the region loop. */
    int        waits_read, loops_read;
    const int *monitor_asleep; /* the monitor's sleep (rt_event_monitor_asleep_flag) */
    void      *real_fork;      /* the real __kmpc_fork_call, for om_abi_x86_64.S */
    void (*real_push)(void *, int32_t, int32_t); /* the real __kmpc_push_num_threads */
} om_abi_hot_t;
__attribute__((visibility("hidden"), aligned(64))) om_abi_hot_t om_abi_hot = {.monitor_asleep = &never_asleep};
_Static_assert(offsetof(om_abi_hot_t, real_fork) == OM_ABI_HOT_REAL_FORK && sizeof(om_abi_hot_t) <= 64,
               "om_abi_x86_64.S reads the real fork where it is, in the fork's one line");

static inline int monitor_sleeps(void)
{
    return __atomic_load_n(om_abi_hot.monitor_asleep, __ATOMIC_RELAXED);
}

/* Whether a thread's waits and work are counted now: the monitor reads
 * them, except while it sleeps for evidence (the first step after it takes
 * a new baseline). */
static inline int waits_counted(void)
{
    return om_abi_hot.waits_read && !monitor_sleeps();
}

int om_abi_route(void)
{
    return __atomic_load_n(&route, __ATOMIC_ACQUIRE);
}

/* ---- the trampolines ---- */

void om_abi_invoke(void *fn, int32_t *gtid, int32_t *btid, int argc, void *const *regs, void *const *stack);

/* A member begins: its wait at the barrier or in the pool since its last
 * region ends. The record it runs in: the one the primary found, or when
 * the primary looked the region up (a first sight, a sampled execution)
 * the record for the team size that formed, asked here as OMPT would have
 * told it; else, in timed executions, the members count themselves (the
 * primary compares after the join). */
static inline __attribute__((always_inline)) void member_begin(om_thread_t *thr, om_abi_team_t *t, int index)
{
    if (__builtin_expect(index && !thr->worker, 0))
        thr->worker = 1;
    if (t->plain) {
        rt_event_level_enter(&thr->rt, t->region, index);
        return;
    }
    if (waits_counted())
        rt_event_wait(&thr->rt, 0);
    rt_region_t *r = t->region;
    if (__builtin_expect(t->ask, 0)) {
        r = rt_region_for_team(r, omp_get_num_threads());
        if (index == 0)
            t->ran = r;
    } else if (t->timed) {
        __atomic_fetch_add(&t->actual, 1, __ATOMIC_RELAXED);
    }
    rt_event_task_begin(&thr->rt, r, index, t->master_slot, t->timed, t);
}

/* A member's outlined function returned: its busy time ends, then its task;
 * it waits at the join barrier and then in the pool. */
static inline __attribute__((always_inline)) void member_end(om_thread_t *thr, const om_abi_team_t *t)
{
    if (t->plain) {
        rt_event_level_leave(&thr->rt);
        return;
    }
    rt_event_barrier_arrive(&thr->rt);
    rt_event_task_end(&thr->rt);
    if (waits_counted())
        rt_event_wait(&thr->rt, 1);
}

/* clang's outlined function: (gtid, thread number, shared arguments...). */
static __attribute__((noinline)) void microtask_events(int32_t *gtid, int32_t *btid, om_abi_team_t *t)
{
    om_thread_t *thr = om_thread_self();
    if (thr)
        member_begin(thr, t, *btid);
    om_abi_invoke(t->fn, gtid, btid, t->argc, t->regs, t->stack);
    if (thr)
        member_end(thr, t);
}

/* A plain team's member (a settled region with teams forked inside), the
 * common case, keeps only its thread across the call; the full events
 * apart, where they save every register. */
__attribute__((visibility("hidden"))) void om_abi_microtask(int32_t *gtid, int32_t *btid, om_abi_team_t *t)
{
    om_thread_t *thr = om_thread_current();
    if (!thr || !t->plain) {
        microtask_events(gtid, btid, t);
        return;
    }
    member_begin(thr, t, *btid);
    om_abi_invoke(t->fn, gtid, btid, t->argc, t->regs, t->stack);
    rt_event_level_leave(&thr->rt); /* member_end of a plain team, t not read again */
}

/* A team of one whose primary entered its level itself (TEAM_ALONE): the
 * outlined function alone, called from where the trampoline calls it
 * (om_abi_invoke). An outlined function whose last call is a nested fork
 * makes it a tail call, and the fork's call site, the nested region's key,
 * is then where the outlined function was called from: the same in these
 * executions as in the trampoline's. */
__attribute__((visibility("hidden"))) void om_abi_microtask_alone(int32_t *gtid, int32_t *btid, om_abi_team_t *t)
{
    if (__builtin_expect(*btid == 0, 1)) {
        om_abi_invoke(t->fn, gtid, btid, t->argc, t->regs, t->stack);
        return;
    }
    /* The team formed larger than its record (omp_set_num_threads, the
     * active levels raised since it settled): the other members enter and
     * leave their level as a plain team's do (team_seen set t->plain), or a
     * team they fork inside would be keyed at their outer level, an
     * outermost region. */
    om_abi_microtask(gtid, btid, t);
}

/* A member of a gcc team begins. A combined parallel loop's members take
 * their chunks with GOMP_loop_*_next alone (the real call began the loop):
 * the increment that sizes them is the team's (gomp_loop_next). */
static inline void gomp_member_begin(om_thread_t *thr, om_abi_team_t *t, int index)
{
    if (t->incr)
        thr->gomp_incr = t->incr;
    member_begin(thr, t, index);
}

/* gcc's outlined function: (data). The primary is thread 0. */
static void abi_gomp_fn(void *p)
{
    om_abi_team_t *t = p;
    om_thread_t *thr = om_thread_self();
    if (thr)
        gomp_member_begin(thr, t, thr == t->primary ? 0 : omp_get_thread_num());
    ((void (*)(void *))t->fn)(t->data);
    if (thr)
        member_end(thr, t);
}

/* A team forked inside a team whose members have no events (their records
 * do not know that team): by its primary, or by a pool worker at level 0
 * that the runtime says is in a parallel region (a league's threads, of a
 * teams construct, fork at level 0 outside any). Such teams go unmeasured,
 * and members keep their events from then on (idle teams stop). */
enum {
    IDLE_NEVER,         /* bubbles place every member */
    IDLE_ALWAYS,        /* a settled region's members need nothing */
    IDLE_MONITOR_ASLEEP /* the migration monitor counts every member's work, except while it sleeps */
};

/* Whether a team of r (settled, untimed) may run without member events:
 * always, or while the monitor sleeps unless r's team would wake it. */
static inline int idle_allowed(const rt_region_t *r)
{
    int mode = __atomic_load_n(&om_abi_hot.idle_teams, __ATOMIC_RELAXED);
    return mode == IDLE_ALWAYS ||
           (mode == IDLE_MONITOR_ASLEEP && monitor_sleeps() && !__atomic_load_n(&r->refs_seen, __ATOMIC_ACQUIRE));
}

static void no_idle_teams(void)
{
    __atomic_store_n(&om_abi_hot.idle_teams, IDLE_NEVER, __ATOMIC_RELAXED);
}

/* A buffer was attached (omp_numa_attach, rt_mem_on_attach): from the next
 * fork on, every team records its members' regions (no team runs idle),
 * which omp_numa_update_hints needs to re-place a team from its buffers. */
static void members_recorded(void)
{
    if (__atomic_load_n(&om_abi_hot.idle_teams, __ATOMIC_RELAXED) != IDLE_NEVER)
        no_idle_teams();
}

/* ---- start-up, and the watched entry points ---- */

static void set_slots(int watched_only, int ours);

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static int watchers;

/* The watched entry points (loops, barriers) go through ompnuma while
 * something reads them (on: one reader more, else one fewer), straight to
 * the real runtime otherwise. */
static void watch(int on)
{
    pthread_mutex_lock(&watch_lock);
    int before = watchers;
    watchers += on ? 1 : -1;
    if (!before != !watchers)
        set_slots(1, watchers > 0);
    pthread_mutex_unlock(&watch_lock);
}

static void monitor_slept(int asleep)
{
    watch(!asleep);
}

static pthread_once_t started = PTHREAD_ONCE_INIT;

/* Settings and the runtime, once: when the real runtime initializes (it
 * asks the drop-in's ompt_start_tool for a tool), or at the first region
 * (a program with its own tool, which the runtime asks instead). No call
 * into the OpenMP runtime here: it may be initializing. */
static void start(void)
{
    if (!rt_runtime_wanted()) {
        /* Nothing to place, report or display: out of the program's way,
         * every entry point straight to the real runtime. */
        set_slots(0, 0);
        __atomic_store_n(&om_abi_hot.state, ABI_IDLE, __ATOMIC_RELEASE);
        return;
    }
    rt_runtime_init();
    rt_mem_on_attach(members_recorded);
    om_abi_hot.waits_read = rt_event_waits_read();
    om_abi_hot.loops_read = rt_event_loops_read();
    /* Bubbles place every member; the monitor counts every member's work
     * while it reads any. */
    __atomic_store_n(&om_abi_hot.idle_teams, rt_conf->mode == RT_MODE_BUBBLE ? IDLE_NEVER
                                  : rt_conf->migrate == RT_MIGRATE_OFF ? IDLE_ALWAYS : IDLE_MONITOR_ASLEEP,
                     __ATOMIC_RELAXED);
    if (om_abi_hot.waits_read) {
        /* The monitor reads every thread's work and waits while it runs,
         * and nothing while it sleeps for evidence (or waits for it to
         * start: asleep from the start, not started yet). */
        om_abi_hot.monitor_asleep = rt_event_monitor_asleep_flag();
        rt_event_on_monitor_sleep(monitor_slept);
        if (!monitor_sleeps())
            watch(1);
    }
    __atomic_store_n(&om_abi_hot.state, ABI_STARTED, __ATOMIC_RELEASE);
}

/* The first region: whether the OpenMP binding is on decides where a
 * primary goes in serial code (primary=auto), asked once the runtime's
 * settings are in force. */
static void first_region(void)
{
    rt_event_openmp_binding(omp_get_proc_bind() != omp_proc_bind_false);
    __atomic_store_n(&om_abi_hot.state, ABI_ACTIVE, __ATOMIC_RELEASE);
}

static pthread_once_t told = PTHREAD_ONCE_INIT;

/* Whether ompnuma runs, at an entry point that starts a region. */
static inline int active(void)
{
    int s = __atomic_load_n(&om_abi_hot.state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(s == ABI_ACTIVE, 1))
        return 1;
    pthread_once(&started, start);
    if (__atomic_load_n(&om_abi_hot.state, __ATOMIC_ACQUIRE) == ABI_STARTED)
        pthread_once(&told, first_region);
    return __atomic_load_n(&om_abi_hot.state, __ATOMIC_ACQUIRE) == ABI_ACTIVE;
}

/* The drop-ins' ompt_start_tool (OMPNUMA_PRIVATE): the real runtime
 * initializes, and asks for a tool. ompnuma starts here, as its OMPT tool
 * would have, and is none: the call goes on to the next definition in the
 * lookup scope, as stock's weak one does, so the runtime starts the tool it
 * would start without ompnuma (or none). */
OMPNUMA_EXPORT ompt_start_tool_result_t *ompnuma_facade_start_tool(unsigned int omp_version,
                                                                   const char *runtime_version, om_start_fn next)
{
    pthread_once(&started, start);
    return om_chain_pass_on(omp_version, runtime_version, next);
}

/* ---- regions ---- */

/* The team size the runtime gives a team nobody asked a size for: guessed
 * when a record is looked up (the team that forms says, in timed
 * executions). Beyond the active levels allowed, one thread. */
static int default_team(void)
{
    return omp_get_active_level() >= omp_get_max_active_levels() ? 1 : omp_get_max_threads();
}

__attribute__((noinline, cold)) static int nested_in_idle(om_thread_t *thr)
{
    if (!thr->fast_open && !omp_in_parallel())
        return 0;
    no_idle_teams();
    return 1;
}

/* Whether thr forks inside a team whose members have no events. */
static inline int maybe_nested_in_idle(const om_thread_t *thr)
{
    if (__builtin_expect(thr->fast_open, 0))
        return 1;
    return __builtin_expect(thr->worker, 0) && !thr->rt.depth;
}

/* How a team the primary begins runs (team_seen, team_begin). */
enum {
    TEAM_UNSEEN = -1, /* not a region team_seen knows: team_lookup's */
    TEAM_TRAMPOLINE,  /* every member runs the trampoline */
    TEAM_IDLE,        /* the program's own function, no member events (fast_open until the join) */
    TEAM_ALONE        /* om_abi_microtask_alone, by the primary alone in the level it entered */
};

/* What a caller of team_begin can run besides the trampoline: the
 * program's own function (an idle team, and a plain team's trampoline,
 * where members only enter their level: the primary's task does not run
 * outside the real call), and om_abi_microtask_alone (clang's forms: gcc's
 * outlined function has no om_abi_invoke to be called from). */
enum { RUNS_TRAMPOLINE = 0, RUNS_PROGRAM = 1, RUNS_ALONE = 2 };

/* What a team that does not run the trampoline (TEAM_IDLE, TEAM_ALONE)
 * undoes after the join, by one decrement: the primary's mark of an idle
 * team, or the level it entered for its team of one. */
static inline int *direct_leave(om_thread_t *thr, int how)
{
    return how == TEAM_IDLE ? &thr->fast_open : &thr->rt.depth;
}

static inline void direct_end(om_thread_t *thr, int how)
{
    (*direct_leave(thr, how))--;
}

/* The primary's begin when its last sight at its level is the region, met
 * again and settled (rt_event_parallel_met; a resting one only when
 * ask_resting): the record the team runs in (the one for the team that
 * last formed), whether this execution is timed. Only when the caller
 * runs the program's function (RUNS_PROGRAM), a plain execution, whose
 * members need at most their level record (rt_event_members_plain), is
 * counted here, and runs the program's own outlined function when no team
 * was ever forked inside (TEAM_IDLE), or when it is a team of one whose
 * level the primary enters itself (TEAM_ALONE, with RUNS_ALONE: the team
 * has no member but the primary, which sees no event of its own); else its
 * trampoline does no more than enter and leave each member's level
 * (t->plain). TEAM_TRAMPOLINE for the trampoline, and TEAM_UNSEEN when the
 * region is not such a one (team_lookup). Without ask_resting it makes no
 * call: the fork's common case. */
static inline __attribute__((always_inline)) int team_seen(om_thread_t *thr, om_abi_team_t *t, const void *site,
                                                           int asked, int runs, int ask_resting)
{
    rt_region_t *r;
    if (!asked)
        asked = thr->pending_nt;
    if (__builtin_expect(maybe_nested_in_idle(thr), 0) ||
        !(r = rt_event_parallel_met(&thr->rt, site, asked, ask_resting)))
        return TEAM_UNSEEN;
    thr->pending_nt = 0;
    rt_region_t *m = r->redirect ? r->redirect : r;
    int timed = rt_region_timed(r);
    int plain = (runs & RUNS_PROGRAM) && idle_allowed(m) && rt_event_members_plain(&thr->rt, m, timed);
    if (plain) {
        rt_region_count_untimed(m);
        if (!__atomic_load_n(&m->nested, __ATOMIC_RELAXED)) {
            thr->fast_open = 1;
            return TEAM_IDLE;
        }
        if ((runs & RUNS_ALONE) && m->team_size == 1) {
            rt_event_level_enter(&thr->rt, m, 0);
            t->region = m; /* for a member the record did not foresee (om_abi_microtask_alone) */
            t->plain = 1;
            return TEAM_ALONE;
        }
    }
    t->primary = thr;
    t->master_slot = -1;
    t->ask = t->actual = t->watched = 0;
    t->region = m;
    t->timed = timed;
    t->plain = plain;
    return TEAM_TRAMPOLINE;
}

/* The primary's begin otherwise: the region looked up (created at first
 * sight), its members to ask the team size that forms; the loops of an
 * outermost region's first execution watched. */
static __attribute__((noinline)) void team_lookup(om_thread_t *thr, om_abi_team_t *t, const void *site, int asked)
{
    int d = thr->rt.depth;
    if (!asked)
        asked = thr->pending_nt;
    thr->pending_nt = 0;
    t->primary = thr;
    t->master_slot = -1;
    t->actual = t->watched = t->timed = t->plain = 0;
    t->region = NULL;
    t->ask = 1;
    if (maybe_nested_in_idle(thr) && nested_in_idle(thr))
        return;
    rt_region_t *r = rt_event_parallel_begin_rest(&thr->rt, site, asked, asked > 0 ? asked : default_team(), t);
    if (!r)
        return;
    t->region = r;
    t->timed = rt_region_timed(r);
    if (d > 0 && d <= RT_MAX_DEPTH)
        t->master_slot = thr->rt.level[d - 1].slot;
    /* A blind region's loops would find it not sampling
     * (rt_event_loop_begin) even if a buffer were attached during this
     * execution: unwatched, they go straight to the runtime (125
     * instructions of ompnuma's a loop execution and thread before). */
    if (om_abi_hot.loops_read && d == 0 && !r->executions && !__atomic_load_n(&r->blind, __ATOMIC_RELAXED)) {
        t->watched = 1;
        watch(1);
    }
}

/* The primary, before the team forks (`asked`: the team size asked, 0 the
 * default): team_seen's answer, or team_lookup's team (TEAM_TRAMPOLINE). */
static inline __attribute__((always_inline)) int team_begin(om_thread_t *thr, om_abi_team_t *t, const void *site,
                                                            int asked, int runs)
{
    int how = team_seen(thr, t, site, asked, runs, 1);
    if (how != TEAM_UNSEEN)
        return how;
    team_lookup(thr, t, site, asked);
    return TEAM_TRAMPOLINE;
}

/* The primary, after the join: the region its task ran in ends, unless the
 * team came out another size than the record the primary predicted. */
static inline __attribute__((always_inline)) void team_end(om_thread_t *thr, om_abi_team_t *t)
{
    if (t->plain) /* counted by team_seen */
        return;
    if (waits_counted())
        rt_event_wait(&thr->rt, 0);
    rt_region_t *r = t->ask ? t->ran : t->region;
    if (r) {
        if (__builtin_expect(t->timed && !t->ask && t->actual != r->team_size, 0))
            rt_event_region_resized(&thr->rt, r, t->actual);
        else
            rt_event_region_end(&thr->rt, r, t->timed);
    }
    if (t->watched)
        watch(0);
}

_Static_assert(sizeof(om_abi_team_t) <= OM_ABI_TEAM_FRAME, "the team record fits its room in om_abi_x86_64.S");
_Static_assert(offsetof(om_abi_team_t, argc) == OM_ABI_TEAM_ARGC && offsetof(om_abi_team_t, fn) == OM_ABI_TEAM_FN &&
                   offsetof(om_abi_team_t, regs) == OM_ABI_TEAM_REGS &&
                   offsetof(om_abi_team_t, stack) == OM_ABI_TEAM_STACK,
               "om_abi_x86_64.S writes the trampoline's fields where they are");

/* What om_abi_fork_begin returns to om_abi_x86_64.S: the mode, and the
 * counter to decrement after the real call (direct_leave; NULL: none), in
 * rax and rdx. */
typedef struct fork_how {
    long mode;
    int *leave;
} fork_how_t;

static inline fork_how_t fork_how(om_thread_t *thr, int how)
{
    if (how == TEAM_TRAMPOLINE)
        return (fork_how_t){OM_FORK_TRAMPOLINE, NULL};
    return (fork_how_t){how == TEAM_ALONE ? OM_FORK_ALONE : OM_FORK_PROGRAM, direct_leave(thr, how)};
}

/* The fork's begin but for its common case: the first region of a thread
 * or of the process (ompnuma starts), or a region team_seen does not know
 * without asking (a resting one) or at all. */
static __attribute__((noinline)) fork_how_t fork_begin(om_abi_team_t *t, const void *site)
{
    om_thread_t *thr;
    if (!active() || !(thr = om_thread_self()))
        return (fork_how_t){OM_FORK_PROGRAM, NULL};
    return fork_how(thr, team_begin(thr, t, site, 0, RUNS_PROGRAM | RUNS_ALONE));
}

/* __kmpc_fork_call, from om_abi_x86_64.S before the real call: how to call
 * it (the frame writes the outlined function and its arguments into t for
 * the trampoline). Its common case calls nothing (team_seen without
 * ask_resting) and has only t and site live: it saves no registers. */
__attribute__((visibility("hidden"))) fork_how_t om_abi_fork_begin(om_abi_team_t *t, const void *site)
{
    om_thread_t *thr = om_thread_current();
    if (__builtin_expect(thr && __atomic_load_n(&om_abi_hot.state, __ATOMIC_RELAXED) == ABI_ACTIVE, 1)) {
        int how = team_seen(thr, t, site, 0, RUNS_PROGRAM | RUNS_ALONE, 0);
        if (how != TEAM_UNSEEN)
            return fork_how(thr, how);
    }
    return fork_begin(t, site);
}

/* After the real call with the trampoline. */
__attribute__((visibility("hidden"))) void om_abi_fork_end(om_abi_team_t *t)
{
    team_end(t->primary, t);
}

/* __kmpc_fork_call_if: a team when cond, else the primary alone
 * (serialized), with at most one shared argument. */
static void w___kmpc_fork_call_if(void *loc, int32_t argc, void *microtask, int32_t cond, void *args)
{
    typedef void (*fn_t)(void *, int32_t, void *, int32_t, void *);
    const void *site = CALL_SITE();
    om_thread_t *thr;
    if (!active() || !(thr = om_thread_self())) {
        REAL_OMP(I___kmpc_fork_call_if, fn_t)(loc, argc, microtask, cond, args);
        return;
    }
    void *regs[3] = {args, NULL, NULL};
    om_abi_team_t t = {.fn = microtask, .argc = args ? 1 : 0, .regs = regs};
    int how = team_begin(thr, &t, site, cond ? 0 : 1, RUNS_PROGRAM | RUNS_ALONE);
    if (how != TEAM_TRAMPOLINE) {
        if (how == TEAM_ALONE)
            REAL_OMP(I___kmpc_fork_call_if, fn_t)(loc, 1, (void *)om_abi_microtask_alone, cond, &t);
        else
            REAL_OMP(I___kmpc_fork_call_if, fn_t)(loc, argc, microtask, cond, args);
        direct_end(thr, how);
        return;
    }
    REAL_OMP(I___kmpc_fork_call_if, fn_t)(loc, 1, (void *)om_abi_microtask, cond, &t);
    team_end(thr, &t);
}

static __attribute__((noinline)) void push_first(void *loc, int32_t gtid, int32_t n)
{
    om_thread_t *thr = om_thread_self();
    if (thr)
        thr->pending_nt = n > 0 ? n : 0;
    om_abi_hot.real_push(loc, gtid, n);
}

static void w___kmpc_push_num_threads(void *loc, int32_t gtid, int32_t n)
{
    om_thread_t *thr = om_thread_current();
    if (__builtin_expect(!thr, 0)) {
        push_first(loc, gtid, n); /* the thread's first event */
        return;
    }
    thr->pending_nt = n > 0 ? n : 0;
    om_abi_hot.real_push(loc, gtid, n);
}

/*
 * Teams whose primary runs the outlined function itself between two calls
 * (clang's serialized region: __kmpc_serialized_parallel, the function,
 * __kmpc_end_serialized_parallel; gcc's GOMP_parallel*_start, the function,
 * GOMP_parallel_end): the team record lives in the primary's record until
 * the end call. They nest LIFO on a thread: the k-th open one holds
 * om_thread_t.gomp[k], or none (plain: passed on untouched) when deeper, or
 * when begun without ompnuma.
 */
static om_abi_team_t *open_push(om_thread_t *thr, int ours)
{
    unsigned k = thr->gomp_open++;
    if (k >= 64)
        return NULL;
    ours = ours && k < RT_MAX_DEPTH;
    thr->gomp_plain = ours ? thr->gomp_plain & ~(1ull << k) : thr->gomp_plain | (1ull << k);
    if (!ours)
        return NULL;
    thr->gomp[k] = (om_abi_team_t){.region = NULL};
    return &thr->gomp[k];
}

static om_abi_team_t *open_pop(om_thread_t *thr)
{
    if (!thr->gomp_open)
        return NULL;
    unsigned k = --thr->gomp_open;
    return k < RT_MAX_DEPTH && !(thr->gomp_plain & (1ull << k)) ? &thr->gomp[k] : NULL;
}

/* Their primary runs the function outside the real call: members keep
 * their events, even when they could go without. */
static void open_begin(om_thread_t *thr, om_abi_team_t *t, void *fn, void *data, const void *site, int asked)
{
    team_begin(thr, t, site, asked, RUNS_TRAMPOLINE);
    t->fn = fn;
    t->data = data;
}

static __attribute__((noinline)) void serialized_begin(void *loc, int32_t gtid, const void *site)
{
    REAL_OMP(I___kmpc_serialized_parallel, void (*)(void *, int32_t))(loc, gtid);
    om_thread_t *thr;
    if (!active() || !(thr = om_thread_self()))
        return;
    om_abi_team_t *t = open_push(thr, 1);
    if (!t)
        return;
    open_begin(thr, t, NULL, NULL, site, 1);
    member_begin(thr, t, 0);
}

static __attribute__((noinline)) void serialized_end(void *loc, int32_t gtid)
{
    om_thread_t *thr = om_thread_current();
    om_abi_team_t *t = thr ? open_pop(thr) : NULL;
    if (t)
        member_end(thr, t);
    REAL_OMP(I___kmpc_end_serialized_parallel, void (*)(void *, int32_t))(loc, gtid);
    if (t)
        team_end(thr, t);
}

/* The real runtime serializes the teams it forks with one thread through
 * these too: those calls go straight on. */
static void w___kmpc_serialized_parallel(void *loc, int32_t gtid)
{
    const void *site = CALL_SITE();
    if (from_runtime(site))
        REAL_OMP(I___kmpc_serialized_parallel, void (*)(void *, int32_t))(loc, gtid);
    else
        serialized_begin(loc, gtid, site);
}

static void w___kmpc_end_serialized_parallel(void *loc, int32_t gtid)
{
    if (from_runtime(CALL_SITE()))
        REAL_OMP(I___kmpc_end_serialized_parallel, void (*)(void *, int32_t))(loc, gtid);
    else
        serialized_end(loc, gtid);
}

/* gcc's regions: every form calls fn(data) on each member, the primary's
 * inside the real call (GOMP_parallel*) or after it (the _start forms). */
#define GOMP_REGION(i, name, params, args, loop_incr)                                   \
    static void w_##name(void (*fn)(void *), void *data, unsigned nt params)            \
    {                                                                                   \
        const void *site = CALL_SITE();                                                 \
        om_thread_t *thr;                                                               \
        if (!active() || !(thr = om_thread_self())) {                                   \
            REAL_GOMP(i, void (*)(void (*)(void *), void *, unsigned params))(fn, data, nt args); \
            return;                                                                     \
        }                                                                               \
        om_abi_team_t t = {.fn = (void *)fn, .data = data, .incr = (loop_incr)};        \
        int how = team_begin(thr, &t, site, (int)nt, RUNS_PROGRAM);                     \
        if (how != TEAM_TRAMPOLINE) {                                                   \
            REAL_GOMP(i, void (*)(void (*)(void *), void *, unsigned params))(fn, data, nt args); \
            direct_end(thr, how);                                                       \
            return;                                                                     \
        }                                                                               \
        REAL_GOMP(i, void (*)(void (*)(void *), void *, unsigned params))(abi_gomp_fn, &t, nt args); \
        team_end(thr, &t);                                                              \
    }

#define GOMP_REGION_START(i, name, params, args, loop_incr)                             \
    static void w_##name(void (*fn)(void *), void *data, unsigned nt params)            \
    {                                                                                   \
        const void *site = CALL_SITE();                                                 \
        om_thread_t *thr = om_thread_self();                                            \
        om_abi_team_t *t = thr ? open_push(thr, active()) : NULL;                       \
        if (!t) {                                                                       \
            REAL_GOMP(i, void (*)(void (*)(void *), void *, unsigned params))(fn, data, nt args); \
            return;                                                                     \
        }                                                                               \
        open_begin(thr, t, (void *)fn, data, site, (int)nt);                            \
        t->incr = (loop_incr);                                                          \
        REAL_GOMP(i, void (*)(void (*)(void *), void *, unsigned params))(abi_gomp_fn, t, nt args); \
        gomp_member_begin(thr, t, 0);                                                   \
    }

#define COMMA ,
#define LOOP_PARAMS , long start, long end, long incr, long chunk, unsigned flags
#define LOOP_ARGS , start, end, incr, chunk, flags
#define RUNTIME_PARAMS , long start, long end, long incr, unsigned flags
#define RUNTIME_ARGS , start, end, incr, flags
#define LOOP_START_PARAMS , long start, long end, long incr, long chunk
#define LOOP_START_ARGS , start, end, incr, chunk
#define RUNTIME_START_PARAMS , long start, long end, long incr
#define RUNTIME_START_ARGS , start, end, incr

GOMP_REGION(0, GOMP_parallel, COMMA unsigned flags, COMMA flags, 0)
GOMP_REGION_START(1, GOMP_parallel_start, , , 0)

static void w_GOMP_parallel_end(void)
{
    om_thread_t *thr = om_thread_current();
    om_abi_team_t *t = thr ? open_pop(thr) : NULL;
    if (t)
        member_end(thr, t);
    REAL_GOMP(I_GOMP_parallel_end, void (*)(void))();
    if (t)
        team_end(thr, t);
}

#define PARALLEL_LOOP(i, name) GOMP_REGION(i, name, LOOP_PARAMS, LOOP_ARGS, incr)
#define PARALLEL_LOOP_RUNTIME(i, name) GOMP_REGION(i, name, RUNTIME_PARAMS, RUNTIME_ARGS, incr)
#define PARALLEL_LOOP_START(i, name) GOMP_REGION_START(i, name, LOOP_START_PARAMS, LOOP_START_ARGS, incr)
#define PARALLEL_LOOP_RUNTIME_START(i, name) GOMP_REGION_START(i, name, RUNTIME_START_PARAMS, RUNTIME_START_ARGS, incr)
#define PARALLEL_SECTIONS(i, name) GOMP_REGION(i, name, COMMA unsigned count COMMA unsigned flags, COMMA count COMMA flags, 0)
#define PARALLEL_SECTIONS_START(i, name) GOMP_REGION_START(i, name, COMMA unsigned count, COMMA count, 0)

/* GOMP_parallel_reductions reads the team's task reductions from the first
 * word of its data (gcc's layout: a pointer to their array), before it
 * hands data to every thread: the trampoline's argument starts with that
 * word, its team record after it. */
typedef struct gomp_reductions_frame {
    void          *reductions;
    om_abi_team_t  t;
} gomp_reductions_frame_t;

static void abi_gomp_fn_reductions(void *p)
{
    abi_gomp_fn(&((gomp_reductions_frame_t *)p)->t);
}

/* GOMP_parallel_reductions returns the team size. */
static unsigned w_GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned nt, unsigned flags)
{
    typedef unsigned (*fn_t)(void (*)(void *), void *, unsigned, unsigned);
    const void *site = CALL_SITE();
    om_thread_t *thr;
    if (!active() || !(thr = om_thread_self()))
        return REAL_GOMP(I_GOMP_parallel_reductions, fn_t)(fn, data, nt, flags);
    gomp_reductions_frame_t f = {.reductions = *(void **)data, .t = {.fn = (void *)fn, .data = data}};
    int how = team_begin(thr, &f.t, site, (int)nt, RUNS_PROGRAM);
    if (how != TEAM_TRAMPOLINE) {
        unsigned n = REAL_GOMP(I_GOMP_parallel_reductions, fn_t)(fn, data, nt, flags);
        direct_end(thr, how);
        return n;
    }
    unsigned n = REAL_GOMP(I_GOMP_parallel_reductions, fn_t)(abi_gomp_fn_reductions, &f, nt, flags);
    team_end(thr, &f.t);
    return n;
}

/* ---- watched: worksharing loops and barriers ----
 *
 * Reached only while something reads them (watch()): the region loop, for
 * the loops of an outermost region's first execution (a loop the primary
 * begins twice becomes a record of its own, rt_events.c), and the
 * migration monitor, for each thread's work (the iterations handed to it)
 * and its waits at barriers. A loop begins when the runtime gave the
 * thread its first chunk and ends when it has none left (static loops: at
 * their fini); the barrier after it closes its execution. Each takes the
 * call site as OMPT would name it: where the program called the entry
 * point. */

static inline void loop_begun(const void *site, const void *loc, uint64_t units)
{
    int counted = units && waits_counted();
    if (!om_abi_hot.loops_read && !counted)
        return;
    om_thread_t *thr = om_thread_current();
    if (!thr)
        return;
    if (om_abi_hot.loops_read && !(loc && (IDENT_FLAGS(loc) & (IDENT_WORK_SECTIONS | IDENT_WORK_DISTRIBUTE))))
        rt_event_loop_begin(&thr->rt, site);
    if (counted)
        rt_event_work(&thr->rt, units);
}

static inline void loop_chunk(uint64_t units)
{
    if (!waits_counted())
        return;
    om_thread_t *thr = om_thread_current();
    if (thr)
        rt_event_work(&thr->rt, units);
}

static inline void loop_ended(void)
{
    if (!om_abi_hot.loops_read)
        return;
    om_thread_t *thr = om_thread_current();
    if (thr)
        rt_event_loop_end(&thr->rt);
}

/* The thread whose barrier this is, when anything reads it (NULL: nothing
 * to do as it is left). */
static inline om_thread_t *barrier_enter(const void *site)
{
    int counted = waits_counted();
    if ((!om_abi_hot.loops_read && !counted) || from_runtime(site))
        return NULL;
    om_thread_t *thr = om_thread_current();
    if (thr && counted)
        rt_event_wait(&thr->rt, 1);
    return thr;
}

/* close: a barrier that ends a loop's execution (a loop's own, or an
 * explicit one), not the reduction's inside a loop. */
static inline void barrier_left(om_thread_t *thr, int close)
{
    if (!thr)
        return;
    if (waits_counted())
        rt_event_wait(&thr->rt, 0);
    if (close && thr->rt.ws)
        rt_event_loop_barrier_end(&thr->rt);
}

/* |d| / |incr| steps, in unsigned arithmetic: no range or step overflows
 * (a span wider than half the type, a step of the type's minimum). */
static inline uint64_t steps(uint64_t d, int64_t incr)
{
    return d / (incr > 0 ? (uint64_t)incr : -(uint64_t)incr);
}

/* Iterations in [lo, hi] stepping by incr (none when the range is empty);
 * the count of the whole 64-bit range saturates. */
#define SPAN(T, lo, hi, incr)                                                                            \
    ((incr) > 0   ? ((T)(hi) >= (T)(lo) ? span_inclusive(steps((uint64_t)(T)(hi) - (uint64_t)(T)(lo), (incr))) : 0) \
     : (incr) < 0 ? ((T)(lo) >= (T)(hi) ? span_inclusive(steps((uint64_t)(T)(lo) - (uint64_t)(T)(hi), (incr))) : 0) \
                  : 1)

static inline uint64_t span_inclusive(uint64_t n)
{
    return n + (n != UINT64_MAX);
}

#define STATIC_INIT(i, name, T, ST)                                                             \
    static void w_##name(void *loc, int32_t gtid, int32_t sched, int32_t *plast, T *plo, T *phi, \
                         ST *pst, ST incr, ST chunk)                                            \
    {                                                                                           \
        const void *site = CALL_SITE();                                                         \
        REAL_OMP(i, void (*)(void *, int32_t, int32_t, int32_t *, T *, T *, ST *, ST, ST))(     \
            loc, gtid, sched, plast, plo, phi, pst, incr, chunk);                               \
        loop_begun(site, loc, waits_counted() ? SPAN(T, *plo, *phi, incr) : 0);                 \
    }
#define STATIC_INIT_4(i, name) STATIC_INIT(i, name, int32_t, int32_t)
#define STATIC_INIT_4U(i, name) STATIC_INIT(i, name, uint32_t, int32_t)
#define STATIC_INIT_8(i, name) STATIC_INIT(i, name, int64_t, int64_t)
#define STATIC_INIT_8U(i, name) STATIC_INIT(i, name, uint64_t, int64_t)

static void w___kmpc_for_static_fini(void *loc, int32_t gtid)
{
    loop_ended();
    REAL_OMP(I___kmpc_for_static_fini, void (*)(void *, int32_t))(loc, gtid);
}

#define DISPATCH_INIT(i, name, T, ST)                                                                 \
    static void w_##name(void *loc, int32_t gtid, int32_t sched, T lb, T ub, ST st, ST chunk)          \
    {                                                                                                 \
        const void *site = CALL_SITE();                                                               \
        REAL_OMP(i, void (*)(void *, int32_t, int32_t, T, T, ST, ST))(loc, gtid, sched, lb, ub, st, chunk); \
        loop_begun(site, loc, 0);                                                                     \
    }
#define DISPATCH_INIT_4(i, name) DISPATCH_INIT(i, name, int32_t, int32_t)
#define DISPATCH_INIT_4U(i, name) DISPATCH_INIT(i, name, uint32_t, int32_t)
#define DISPATCH_INIT_8(i, name) DISPATCH_INIT(i, name, int64_t, int64_t)
#define DISPATCH_INIT_8U(i, name) DISPATCH_INIT(i, name, uint64_t, int64_t)

#define DISPATCH_NEXT(i, name, T, ST)                                                             \
    static int w_##name(void *loc, int32_t gtid, int32_t *plast, T *plo, T *phi, ST *pst)         \
    {                                                                                             \
        const void *site = CALL_SITE();                                                           \
        int got = REAL_OMP(i, int (*)(void *, int32_t, int32_t *, T *, T *, ST *))(loc, gtid, plast, plo, phi, pst); \
        if (from_runtime(site))                                                                   \
            return got;                                                                           \
        if (got)                                                                                  \
            loop_chunk(SPAN(T, *plo, *phi, pst ? *pst : 1));                                      \
        else                                                                                      \
            loop_ended();                                                                         \
        return got;                                                                               \
    }
#define DISPATCH_NEXT_4(i, name) DISPATCH_NEXT(i, name, int32_t, int32_t)
#define DISPATCH_NEXT_4U(i, name) DISPATCH_NEXT(i, name, uint32_t, int32_t)
#define DISPATCH_NEXT_8(i, name) DISPATCH_NEXT(i, name, int64_t, int64_t)
#define DISPATCH_NEXT_8U(i, name) DISPATCH_NEXT(i, name, uint64_t, int64_t)

static void w___kmpc_barrier(void *loc, int32_t gtid)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    REAL_OMP(I___kmpc_barrier, void (*)(void *, int32_t))(loc, gtid);
    barrier_left(thr, 1);
}

static int32_t w___kmpc_cancel_barrier(void *loc, int32_t gtid)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    int32_t r = REAL_OMP(I___kmpc_cancel_barrier, int32_t (*)(void *, int32_t))(loc, gtid);
    barrier_left(thr, 1);
    return r;
}

/* A blocking reduction waits twice: inside __kmpc_reduce (the runtime's
 * own barrier) and at __kmpc_end_reduce, the loop's closing barrier. */
static int32_t w___kmpc_reduce(void *loc, int32_t gtid, int32_t nvars, size_t size, void *data,
                               void (*fn)(void *, void *), void *lck)
{
    typedef int32_t (*fn_t)(void *, int32_t, int32_t, size_t, void *, void (*)(void *, void *), void *);
    om_thread_t *thr = barrier_enter(CALL_SITE());
    int32_t r = REAL_OMP(I___kmpc_reduce, fn_t)(loc, gtid, nvars, size, data, fn, lck);
    barrier_left(thr, 0);
    return r;
}

static void w___kmpc_end_reduce(void *loc, int32_t gtid, void *lck)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    REAL_OMP(I___kmpc_end_reduce, void (*)(void *, int32_t, void *))(loc, gtid, lck);
    barrier_left(thr, 1);
}

/* gcc's loops: a start gives the thread its first chunk [*is, *ie) (or
 * none), each next one more; the increment is remembered for the chunks'
 * sizes. A chunk's iterations, (hi - lo) / incr, taken in magnitude: no
 * chunk of the signed range traps (2^63 iterations stepping by -1). */
static inline uint64_t gomp_span(long long lo, long long hi, long long incr)
{
    if (!incr)
        return 0;
    return steps(incr > 0 ? (uint64_t)hi - (uint64_t)lo : (uint64_t)lo - (uint64_t)hi, incr);
}

static inline void gomp_loop_began(const void *site, int got, long long lo, long long hi, long long incr)
{
    om_thread_t *thr = om_thread_current();
    if (!thr)
        return;
    thr->gomp_incr = incr;
    loop_begun(site, NULL, got ? gomp_span(lo, hi, incr) : 0);
    if (!got)
        loop_ended();
}

static inline int gomp_loop_next(int got, long long lo, long long hi)
{
    om_thread_t *thr = om_thread_current();
    if (got && thr && thr->gomp_incr)
        loop_chunk(gomp_span(lo, hi, thr->gomp_incr));
    else if (!got)
        loop_ended();
    return got;
}

#define LOOP_START(i, name)                                                                           \
    static bool w_##name(long start, long end, long incr, long chunk, long *is, long *ie)             \
    {                                                                                                 \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, bool (*)(long, long, long, long, long *, long *))(start, end, incr, chunk, is, ie); \
        gomp_loop_began(site, got, got ? *is : 0, got ? *ie : 0, incr);                               \
        return got;                                                                                   \
    }
#define LOOP_START_RUNTIME(i, name)                                                                   \
    static bool w_##name(long start, long end, long incr, long *is, long *ie)                         \
    {                                                                                                 \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, bool (*)(long, long, long, long *, long *))(start, end, incr, is, ie); \
        gomp_loop_began(site, got, got ? *is : 0, got ? *ie : 0, incr);                               \
        return got;                                                                                   \
    }
#define LOOP_START_GENERIC(i, name)                                                                   \
    static bool w_##name(long start, long end, long incr, long sched, long chunk, long *is, long *ie, \
                         uintptr_t *reductions, void **mem)                                           \
    {                                                                                                 \
        typedef bool (*fn_t)(long, long, long, long, long, long *, long *, uintptr_t *, void **);     \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, fn_t)(start, end, incr, sched, chunk, is, ie, reductions, mem);       \
        gomp_loop_began(site, got && is, got && is ? *is : 0, got && is ? *ie : 0, incr);             \
        return got;                                                                                   \
    }
#define LOOP_NEXT(i, name)                                                              \
    static bool w_##name(long *is, long *ie)                                            \
    {                                                                                   \
        bool got = REAL_GOMP(i, bool (*)(long *, long *))(is, ie);                      \
        return gomp_loop_next(got, got ? *is : 0, got ? *ie : 0);                       \
    }

typedef unsigned long long ull;
#define ULL_START(i, name)                                                                            \
    static bool w_##name(bool up, ull start, ull end, ull incr, ull chunk, ull *is, ull *ie)           \
    {                                                                                                 \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, bool (*)(bool, ull, ull, ull, ull, ull *, ull *))(up, start, end, incr, chunk, is, ie); \
        gomp_loop_began(site, got, got ? (long long)*is : 0, got ? (long long)*ie : 0, (long long)incr); \
        return got;                                                                                   \
    }
#define ULL_START_RUNTIME(i, name)                                                                    \
    static bool w_##name(bool up, ull start, ull end, ull incr, ull *is, ull *ie)                     \
    {                                                                                                 \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, bool (*)(bool, ull, ull, ull, ull *, ull *))(up, start, end, incr, is, ie); \
        gomp_loop_began(site, got, got ? (long long)*is : 0, got ? (long long)*ie : 0, (long long)incr); \
        return got;                                                                                   \
    }
#define ULL_START_GENERIC(i, name)                                                                    \
    static bool w_##name(bool up, ull start, ull end, ull incr, long sched, ull chunk, ull *is, ull *ie, \
                         uintptr_t *reductions, void **mem)                                           \
    {                                                                                                 \
        typedef bool (*fn_t)(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);     \
        const void *site = CALL_SITE();                                                               \
        bool got = REAL_GOMP(i, fn_t)(up, start, end, incr, sched, chunk, is, ie, reductions, mem);   \
        gomp_loop_began(site, got && is, got && is ? (long long)*is : 0, got && is ? (long long)*ie : 0, \
                        (long long)incr);                                                             \
        return got;                                                                                   \
    }
#define ULL_NEXT(i, name)                                                               \
    static bool w_##name(ull *is, ull *ie)                                              \
    {                                                                                   \
        bool got = REAL_GOMP(i, bool (*)(ull *, ull *))(is, ie);                        \
        return gomp_loop_next(got, got ? (long long)*is : 0, got ? (long long)*ie : 0); \
    }

static void w_GOMP_loop_end(void)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    REAL_GOMP(I_GOMP_loop_end, void (*)(void))();
    barrier_left(thr, 1);
}

static void w_GOMP_loop_end_nowait(void)
{
    REAL_GOMP(I_GOMP_loop_end_nowait, void (*)(void))();
}

static bool w_GOMP_loop_end_cancel(void)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    bool r = REAL_GOMP(I_GOMP_loop_end_cancel, bool (*)(void))();
    barrier_left(thr, 1);
    return r;
}

static void w_GOMP_barrier(void)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    REAL_GOMP(I_GOMP_barrier, void (*)(void))();
    barrier_left(thr, 1);
}

static bool w_GOMP_barrier_cancel(void)
{
    om_thread_t *thr = barrier_enter(CALL_SITE());
    bool r = REAL_GOMP(I_GOMP_barrier_cancel, bool (*)(void))();
    barrier_left(thr, 1);
    return r;
}

/* The forms above that take an index, by shape; the others are defined
 * by hand (their shape expands to nothing). */
#define FORK(i, name)
#define FORK_IF(i, name)
#define SERIALIZED(i, name)
#define END_SERIALIZED(i, name)
#define PUSH(i, name)
#define STATIC_FINI(i, name)
#define BARRIER(i, name)
#define CANCEL_BARRIER(i, name)
#define REDUCE(i, name)
#define END_REDUCE(i, name)
#define PARALLEL(i, name)
#define PARALLEL_START(i, name)
#define PARALLEL_END(i, name)
#define PARALLEL_REDUCTIONS(i, name)
#define LOOP_END(i, name)
#define LOOP_END_NOWAIT(i, name)
#define LOOP_END_CANCEL(i, name)
#define GOMP_BARRIER(i, name)
#define GOMP_BARRIER_CANCEL(i, name)
#define DEFINE(i, name, shape) shape(i, name)
OM_ABI_OMP(DEFINE)
OM_ABI_GOMP(DEFINE)

void w___kmpc_fork_call(void); /* om_abi_x86_64.S */

typedef struct entry {
    const char *name;
    void       *ours;
} entry_t;
#define ENTRY(i, name, shape) [i] = {#name, (void *)w_##name},
static const entry_t omp_entries[OM_ABI_OMP_N] = {OM_ABI_OMP(ENTRY)};
static const entry_t gomp_entries[OM_ABI_GOMP_N] = {OM_ABI_GOMP(ENTRY)};

/* The slots of the facades registered so far (all, or the watched ones):
 * ompnuma's part, or the real entry point. */
static void set_slots(int watched_only, int ours)
{
    for (int i = watched_only ? OM_ABI_OMP_REGIONS : 0; slots[OM_FACADE_OMP] && i < OM_ABI_OMP_N; i++)
        __atomic_store_n(&slots[OM_FACADE_OMP][i], ours ? omp_entries[i].ours : real_omp[i], __ATOMIC_RELEASE);
    for (int i = watched_only ? OM_ABI_GOMP_REGIONS : 0; slots[OM_FACADE_GOMP] && i < OM_ABI_GOMP_N; i++)
        __atomic_store_n(&slots[OM_FACADE_GOMP][i], ours ? gomp_entries[i].ours : real_gomp[i], __ATOMIC_RELEASE);
}

/* The real runtime's mapping (its PT_LOAD segments), for from_runtime. */
static int find_runtime(struct dl_phdr_info *info, size_t size, void *fn)
{
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int k = 0; k < info->dlpi_phnum; k++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if ((uintptr_t)fn < lo || (uintptr_t)fn >= hi)
        return 0;
    runtime_lo = lo;
    runtime_len = hi - lo;
    return 1;
}

/* Not recoverable: the drop-in was built for a runtime that has the entry point. */
__attribute__((noreturn)) static void missing(const char *name)
{
    static const char msg[] = "ompnuma: drop-in: the LLVM OpenMP runtime lacks an entry point it was built for: ";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    w = write(STDERR_FILENO, name, __builtin_strlen(name));
    w = write(STDERR_FILENO, "\n", 1);
    (void)w;
    abort();
}

OMPNUMA_EXPORT void ompnuma_facade_register(int facade, void **table, void *rt)
{
    const entry_t *e = facade == OM_FACADE_OMP ? omp_entries : gomp_entries;
    void **real = facade == OM_FACADE_OMP ? real_omp : real_gomp;
    int n = facade == OM_FACADE_OMP ? OM_ABI_OMP_N : OM_ABI_GOMP_N;
    int regions = facade == OM_FACADE_OMP ? OM_ABI_OMP_REGIONS : OM_ABI_GOMP_REGIONS;
    if ((unsigned)facade >= OM_FACADE_COUNT || !rt)
        missing("(the runtime itself)");
    for (int i = 0; i < n; i++)
        if (!(real[i] = dlvsym(rt, e[i].name, "VERSION")))
            missing(e[i].name);
    if (!runtime_len)
        dl_iterate_phdr(find_runtime, real[0]);
    if (facade == OM_FACADE_OMP) {
        om_abi_hot.real_fork = real[I___kmpc_fork_call];
        om_abi_hot.real_push = (void (*)(void *, int32_t, int32_t))real[I___kmpc_push_num_threads];
    }
    /* Regions through ompnuma until it knows it is idle (its first entry
     * point decides); loops and barriers straight to the runtime. */
    for (int i = 0; i < n; i++)
        table[i] = i < regions ? e[i].ours : real[i];
    slots[facade] = table;
    om_thread_end_at_exit();
    rt_runtime_preload();
    __atomic_store_n(&route, 1, __ATOMIC_RELEASE);
}
