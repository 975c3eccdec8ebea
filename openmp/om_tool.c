/* om_tool.c: ompnuma's OMPT tool: turns region, task, barrier and thread events into runtime calls. */
#include <dlfcn.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <omp-tools.h>
#include <omp.h>

#include "om_chain.h"
#include "om_team.h"
#include "om_abi.h"
#include "omp_numa.h"
#include "rt_events.h"
#include "rt_runtime.h"
#include "rt_core.h"
#include "rt_log.h"
#include "rt_settings.h"

static ompt_set_callback_t set_callback;

static inline om_thread_t *thread_self(void)
{
    return om_thread_self();
}

/* ompnuma keeps its thread record in its own thread-local pointer: the
 * thread_data word belongs to a chained tool, clean as on stock. */
static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    thread_self();
    OM_CHAIN(ompt_callback_thread_begin, ompt_callback_thread_begin_t, type, thread_data);
}

static void on_thread_end(ompt_data_t *thread_data)
{
    OM_CHAIN(ompt_callback_thread_end, ompt_callback_thread_end_t, thread_data);
    /* The struct goes with the thread: regions drop their member pointers to it. */
    om_thread_end(om_thread_current());
}

/*
 * What every team member needs, published by the encountering thread before
 * the team forks, in its om_team_data_t for the team's level: the region
 * (found for the requested team size with the encountering thread's own
 * region as parent, which members cannot see), whether this execution is
 * timed, and for the bubble policy the slot the team's master holds.
 * Region records are 64-byte aligned heap pointers below 2^47: the timed
 * bit is bit 0, the slot + 1 goes in the 16 bits from bit 48.
 */
#define SLOT_SHIFT 48
#define TIMED_BIT 1ull /* region records are 64-byte aligned: the low bits are free */
static uint64_t team_word(const rt_region_t *r, int master_slot)
{
    uint64_t word = (uint64_t)(uintptr_t)r | (r && rt_region_timed(r) ? TIMED_BIT : 0);
    if (master_slot >= 0 && master_slot < 0xffff && word < (1ull << 47))
        word |= (uint64_t)(master_slot + 1) << SLOT_SHIFT;
    return word;
}

static rt_region_t *team_region(uint64_t word)
{
    return (rt_region_t *)(uintptr_t)(word & ((1ull << SLOT_SHIFT) - 1) & ~63ull);
}

static int team_timed(uint64_t word)
{
    return (int)(word & TIMED_BIT);
}

static int team_master_slot(uint64_t word)
{
    return (int)(word >> SLOT_SHIFT) - 1;
}

/* Whether the OpenMP binding is on decides where a primary goes in serial
 * code (primary=auto): asked of libomp once, at the first region, when its
 * settings are in force. */
static int binding_told;

__attribute__((noinline, cold)) static void tell_binding(void)
{
    __atomic_store_n(&binding_told, 1, __ATOMIC_RELAXED);
    rt_event_openmp_binding(omp_get_proc_bind() != omp_proc_bind_false);
}

static void on_parallel_begin(ompt_data_t *encountering_task_data, const ompt_frame_t *frame,
                              ompt_data_t *parallel_data, unsigned int requested, int flags,
                              const void *codeptr_ra)
{
    static om_team_data_t orphan; /* only when a thread's state could not be allocated */
    om_thread_t *thr = thread_self();
    int d = thr ? thr->rt.depth : RT_MAX_DEPTH; /* the new team's level */
    om_team_data_t *t;
    uint64_t word = 0;
    if (!thr) {
        t = &orphan;
    } else if (flags & ompt_parallel_league) {
        /* A teams construct's league is not a parallel region ompnuma places;
         * its initial tasks end with no event that would end a measurement. */
        t = &thr->league;
    } else if (d < RT_MAX_DEPTH) {
        if (__builtin_expect(!__atomic_load_n(&binding_told, __ATOMIC_RELAXED), 0))
            tell_binding();
        int slot = d > 0 ? thr->rt.level[d - 1].slot : -1;
        t = &thr->team[d];
        word = team_word(rt_event_parallel_begin(&thr->rt, codeptr_ra, (int)requested, t), slot);
    } else {
        t = &thr->deep;
    }
    *t = (om_team_data_t){.magic = OM_TEAM_MAGIC, .word = word, .user = 0};
    parallel_data->ptr = t;
    OM_CHAIN(ompt_callback_parallel_begin, ompt_callback_parallel_begin_t, encountering_task_data, frame,
             om_user_data(parallel_data), requested, flags, codeptr_ra);
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data, int flags,
                            const void *codeptr_ra)
{
    OM_CHAIN(ompt_callback_parallel_end, ompt_callback_parallel_end_t, om_user_data(parallel_data), encountering_task_data,
             flags, codeptr_ra);
    om_thread_t *thr = thread_self();
    const om_team_data_t *t = om_team_of(parallel_data);
    if (thr && thr->ended)
        rt_event_region_end(&thr->rt, thr->ended, t ? team_timed(t->word) : 1);
    else if (t && team_region(t->word))
        /* No region end was seen (the team's region could not be recorded):
         * still take back whatever the counter source armed for it. */
        rt_event_region_abandon(team_region(t->word));
    if (thr)
        thr->ended = NULL;
}

/* ompnuma's part of an implicit task's begin and end (not the initial
 * task's). Two functions, kept apart: an end makes only tail calls, so it
 * saves no registers for the calls a begin may make (13 instructions per
 * thread and execution). */
__attribute__((noinline)) static void implicit_task_begin(om_thread_t *thr, ompt_data_t *parallel_data,
                                                          unsigned int actual_parallelism, unsigned int index)
{
    rt_region_t *r = NULL;
    int master_slot = -1, timed = 0;
    const om_team_data_t *t = om_team_of(parallel_data);
    if (thr->rt.depth < RT_MAX_DEPTH && t) {
        r = rt_region_for_team(team_region(t->word), (int)actual_parallelism);
        master_slot = team_master_slot(t->word);
        timed = team_timed(t->word);
    }
    rt_event_task_begin(&thr->rt, r, (int)index, master_slot, timed, t);
}

__attribute__((noinline)) static void implicit_task_end(om_thread_t *thr)
{
    int d = thr->rt.depth - 1;
    if (d >= 0 && d < RT_MAX_DEPTH && thr->rt.level[d].index == 0)
        thr->ended = thr->rt.level[d].region;
    rt_event_task_end(&thr->rt);
}

static inline void implicit_task(om_thread_t *thr, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                 unsigned int actual_parallelism, unsigned int index)
{
    if (endpoint == ompt_scope_begin)
        implicit_task_begin(thr, parallel_data, actual_parallelism, index);
    else
        implicit_task_end(thr);
}

/* An initial task, or a chained tool to call first: out of the way of the
 * common case below. */
__attribute__((noinline)) static void implicit_task_rare(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                                          ompt_data_t *task_data, unsigned int actual_parallelism,
                                                          unsigned int index, int flags)
{
    om_thread_t *thr = thread_self();
    /* The initial task's parallel region is the only one ompnuma did not
     * begin: it gets the thread's record before a tool can write the word. */
    if ((flags & ompt_task_initial) && endpoint == ompt_scope_begin && thr && parallel_data &&
        !parallel_data->value) {
        thr->initial = (om_team_data_t){.magic = OM_TEAM_MAGIC, .word = 0, .user = 0};
        parallel_data->ptr = &thr->initial;
    }
    OM_CHAIN(ompt_callback_implicit_task, ompt_callback_implicit_task_t, endpoint, om_user_data(parallel_data), task_data,
             actual_parallelism, index, flags);
    if (!(flags & ompt_task_initial) && thr)
        implicit_task(thr, endpoint, parallel_data, actual_parallelism, index);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism, unsigned int index,
                             int flags)
{
    om_thread_t *thr = om_thread_current();
    if ((flags & ompt_task_initial) || om_chain_user[ompt_callback_implicit_task] || !thr) {
        implicit_task_rare(endpoint, parallel_data, task_data, actual_parallelism, index, flags);
        return;
    }
    implicit_task(thr, endpoint, parallel_data, actual_parallelism, index);
}

/* What on_sync_region serves, fixed at tool initialization. */
static int barriers_read, waits_read;

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr_ra)
{
    OM_CHAIN(ompt_callback_sync_region, ompt_callback_sync_region_t, kind, endpoint, om_user_data(parallel_data), task_data,
             codeptr_ra);
    /* Every barrier, for the migration monitor: time a thread waits there
     * for slower ones says nothing of how fast it runs where it is. */
    if (waits_read && kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
        kind != ompt_sync_region_reduction) {
        om_thread_t *thr = om_thread_current();
        if (thr)
            rt_event_wait(&thr->rt, endpoint == ompt_scope_begin);
    }
    /* The end of a loop's barrier (or of an explicit one after a nowait
     * loop) closes the loop's execution when it is placed while its region
     * runs: a primary with a loop open, nothing else. */
    if (endpoint == ompt_scope_end) {
        if (kind == ompt_sync_region_barrier_implicit_workshare || kind == ompt_sync_region_barrier_explicit) {
            om_thread_t *thr = om_thread_current();
            if (thr && thr->rt.ws)
                rt_event_loop_barrier_end(&thr->rt);
        }
        return;
    }
    /* Arrival at the region's closing barrier ends a thread's busy time,
     * when this execution is timed at all (the team word says so: a settled
     * region's untimed executions cost no thread lookup here). */
    if (!barriers_read ||
        (kind != ompt_sync_region_barrier_implicit_parallel && kind != ompt_sync_region_barrier_implicit))
        return;
    const om_team_data_t *team = om_team_of(parallel_data);
    if (!team || team_timed(team->word)) {
        om_thread_t *thr = thread_self();
        if (thr)
            rt_event_barrier_arrive(&thr->rt);
    }
}

/* omp_control_tool(): the program talks to its own tool. Without ompnuma the
 * runtime answers -2 when no tool is active and -1 when the tool registered
 * no control callback; ompnuma's presence must not change that. */
static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr_ra)
{
    ompt_callback_t cb = om_chain_user[ompt_callback_control_tool];
    if (cb)
        return ((ompt_callback_control_tool_t)cb)(command, modifier, arg, codeptr_ra);
    return om_chain_active() ? -1 : -2;
}

/* A worksharing loop begins or ends on this thread: the loops of a region
 * that runs once are placed while it runs (rt_events.c). Registered only
 * when the placement loop runs with a source that can sample them. */
static void on_work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                    ompt_data_t *task_data, uint64_t count, const void *codeptr_ra)
{
    OM_CHAIN(ompt_callback_work, ompt_callback_work_t, kind, endpoint, om_user_data(parallel_data), task_data, count,
             codeptr_ra);
    if (kind != ompt_work_loop && kind != ompt_work_loop_static && kind != ompt_work_loop_dynamic &&
        kind != ompt_work_loop_guided && kind != ompt_work_loop_other)
        return;
    om_thread_t *thr = om_thread_current();
    if (!thr)
        return;
    if (endpoint == ompt_scope_begin)
        rt_event_loop_begin(&thr->rt, codeptr_ra);
    else
        rt_event_loop_end(&thr->rt);
}

/* Loop chunks (and single iterations, sections) handed to a thread: its
 * progress, for the migration monitor. Registered only when it runs. */
static void on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data, ompt_dispatch_t kind,
                        ompt_data_t instance)
{
    OM_CHAIN(ompt_callback_dispatch, ompt_callback_dispatch_t, om_user_data(parallel_data), task_data, kind,
             instance);
    om_thread_t *thr = om_thread_current();
    if (!thr)
        return;
    uint64_t units = 1;
    if ((kind == ompt_dispatch_ws_loop_chunk || kind == ompt_dispatch_taskloop_chunk ||
         kind == ompt_dispatch_distribute_chunk) && instance.ptr)
        units = ((const ompt_dispatch_chunk_t *)instance.ptr)->iterations;
    rt_event_work(&thr->rt, units);
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback)
        return 0;
    rt_runtime_init();
#define REGISTER(event, fn) om_chain_register(set_callback, event, (ompt_callback_t)(fn))
    REGISTER(ompt_callback_thread_begin, on_thread_begin);
    REGISTER(ompt_callback_thread_end, on_thread_end);
    REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
    REGISTER(ompt_callback_parallel_end, on_parallel_end);
    REGISTER(ompt_callback_implicit_task, on_implicit_task);
    /* Every barrier is dispatched to a registered sync_region callback,
     * explicit and workshare ones too: not registered when nothing reads what
     * it gives (a chained tool's own registration still reaches the runtime,
     * through om_chain.c's wrapper). */
    barriers_read = rt_event_barriers_read();
    waits_read = rt_event_waits_read();
    if (barriers_read || waits_read)
        REGISTER(ompt_callback_sync_region, on_sync_region);
    REGISTER(ompt_callback_control_tool, on_control_tool);
    if (rt_conf->migrate != RT_MIGRATE_OFF)
        REGISTER(ompt_callback_dispatch, on_dispatch);
    if (rt_event_loops_read())
        REGISTER(ompt_callback_work, on_work);
#undef REGISTER
    om_chain_initialize(lookup, initial_device_num, set_callback);
    return 1;
}

static void tool_finalize(ompt_data_t *tool_data)
{
    om_chain_finalize();
    rt_runtime_fini();
}

static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {.value = 0}};

/* What ompt_start_tool returns: ompnuma's tool, with the user tool stock
 * libomp would have started chained inside (next in the lookup scope, then
 * OMP_TOOL_LIBRARIES; only those after libompnuma when from_list), or that
 * user tool alone (or NULL) when placement is off and nothing is to be
 * reported; NULL when called again. */
static ompt_start_tool_result_t *om_tool_start(unsigned int omp_version, const char *runtime_version,
                                               om_start_fn next, int from_list)
{
    /* The runtime asks once. A second call comes from the runtime's own walk
     * of OMP_TOOL_LIBRARIES (a library that depends on libomp finds this
     * definition) or from a tool ompnuma is starting: stock's definition
     * there repeats the scope search, which found nothing the first time. */
    static int calls;
    if (__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED))
        return NULL;
    /* The settings are resolved here once, with their warnings; the runtime
     * reads the same resolved settings. Nothing to place, nothing to report,
     * nothing to display: stay out of the program's way entirely. The tool
     * stock would find here starts alone; when there is none the runtime
     * goes on to OMP_TOOL_LIBRARIES itself, as without ompnuma. */
    if (!rt_runtime_wanted())
        return om_chain_start(omp_version, runtime_version, next, 0);
    om_chain_start(omp_version, runtime_version, next, OM_CHAIN_LIST | (from_list ? OM_CHAIN_AFTER_SELF : 0));
    return &result;
}

/* Whether libompnuma is in the global lookup scope (linked into the program,
 * or loaded with RTLD_GLOBAL) rather than loaded from OMP_TOOL_LIBRARIES. */
static int in_global_scope(void)
{
    return dlsym(RTLD_DEFAULT, "omp_numa_num_nodes") == (void *)omp_numa_num_nodes;
}

/* The entry point libomp looks up by name: through OMP_TOOL_LIBRARIES, or
 * as a definition in the lookup scope when a program links libompnuma. */
OMPNUMA_EXPORT ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    /* A drop-in takes regions at the ABI (om_abi.c): ompnuma is no OMPT tool
     * then. This definition passes the call on, as stock's weak one does, so
     * the runtime starts the tool it would start without ompnuma. */
    if (om_abi_route())
        return om_chain_pass_on(omp_version, runtime_version, (om_start_fn)dlsym(RTLD_NEXT, "ompt_start_tool"));
    /* Reached by a search of the scope: pass it on, as stock's weak definition does. */
    if (om_chain_searching())
        return om_chain_pass_on(omp_version, runtime_version, (om_start_fn)dlsym(RTLD_NEXT, "ompt_start_tool"));
    if (in_global_scope())
        return om_tool_start(omp_version, runtime_version, (om_start_fn)dlsym(RTLD_NEXT, "ompt_start_tool"), 0);
    return om_tool_start(omp_version, runtime_version, NULL, 1);
}
