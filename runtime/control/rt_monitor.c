/* rt_monitor.c: the IMAR2 monitor thread: every period measure the outermost team, run pl_imar2_step, move threads through the affinity owner, keep a timeline. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "online/pl_online.h"
#include "rt_affinity.h"
#include "rt_core.h"
#include "rt_counters.h"
#include "rt_log.h"
#include "rt_fault.h"
#include "rt_monitor.h"
#include "rt_settings.h"
#include "rt_task.h"
#include "rt_topology.h"
#include "rt_util.h"

/* Timeline entries kept (the newest); older ones are counted as dropped.
 * Preallocated: a step allocates nothing. */
#define RING 512
/* Work units a thread must have done in an interval for work to count
 * (see measure()). */
#define WORK_MIN 16

/* What P's rate counts for the current team (see measure()): totals and
 * records of intervals counted in different units would not compare. */
enum { UNIT_UNDECIDED = 0, UNIT_WORK, UNIT_NONE };
static const char *const unit_names[] = {"undecided", "work", "none"};

enum { ST_NEVER = 0, ST_STARTING, ST_RUNNING, ST_STOPPED, ST_FAILED, ST_CHILD };
static const char *const state_names[] = {"not started", "starting", "running", "stopped", "failed",
                                          "not run (forked child)"};

/* One decision of the monitor, as the report shows it. */
typedef struct entry {
    uint64_t         t_ns;          /* since the monitor started */
    uint64_t         step;
    pl_imar_action_t action;        /* migrate or rollback */
    int              thread;        /* team index */
    int              partner;       /* team index swapped with, -1 none */
    int              from_cpu, to_cpu, from_node, to_node;
    int              tickets;       /* the winner's (migrate) */
    int64_t          total_tickets;
    int              ndests;
    double           perf_before;   /* the thread's P in the interval before the decision */
    double           perf_after;    /* its P in the interval after, negative: not measured (yet) */
    double           total, prev_total;
    double           period_ms;     /* the adaptive period after the decision */
    double           next_ms;       /* the wait until the next step */
    int              period_change;
    int              applied;       /* the affinity owner moved the threads (or, in dry run, would have) */
    int              err;           /* errno of a refused move */
    int              rolled_back;   /* a later step undid this migration */
    int              tnt;           /* P's latency came from a TNT (else L = 1: blind to NUMA) */
} entry_t;

static struct {
    pthread_mutex_t mu;             /* the step, the team, the timeline; fork waits for a step */
    pthread_cond_t  cv;
    pthread_t       thread;
    int             state;          /* ST_* (atomic) */
    int             stop;
    pid_t           pid;            /* the process the monitor may run in */
    char            why[160];       /* why it failed */
    uint64_t        t0;
    uint64_t        own_cpu_ns, own_wall_ns; /* the helper's own cost, read as it stops */

    /* Published by the primary of each outermost team. */
    rt_region_t    *region;         /* the latest outermost team's region */
    int             active;         /* that team is running */
    uint64_t        seq;            /* outermost teams begun */

    /* The machine as IMAR2 sees it: cores in node order. */
    int             ncores, nnodes, maxcpu;
    int            *core_cpu, *core_node, *cpu_core;

    /* The managed team and IMAR2's state over it. */
    int             have_team, n, unit;
    int             used_tnt;       /* the last measure() found a TNT */
    int             unread;         /* steps read nothing (no TNT): the next reads from a new baseline */
    int             starved;        /* the last step found no TNT, with the gate on: nothing to read */
    int             asleep;         /* waiting for evidence, with no deadline (atomic; see wake()) */
    rt_thread_t   **member, **cand;
    int             cand_cap;
    int            *core, *our_cpu;
    double         *record, *perf;
    uint64_t       *work, *cpu_ns, *wait_ns, *dwork, *dcpu, *dwait;
    uint64_t       *live;           /* [n * nnodes] the running execution's TNT so far (pick_tnt) */
    pid_t          *tids;           /* [n] the members' threads, for a source that arms a running team */
    pl_imar_dest_t *dests;
    int             max_dests;
    pl_imar_t       im;
    uint64_t        last_ns, last_seq;

    /* Counts for the report. */
    uint64_t        steps, idle, migrations, rollbacks, refused, foreign, teams, unmeasured, errors;
    uint64_t        gated;          /* draws held by the locality gate (every thread next to its data) */
    uint64_t        sleeps;         /* waits for evidence (monitor_main) */

    entry_t         ring[RING];
    uint64_t        nentries;       /* entries ever written */
    int64_t         open_entry;     /* entry whose perf_after the next step measures, -1 none */
} mon = {.mu = PTHREAD_MUTEX_INITIALIZER, .open_entry = -1};

static const uint64_t no_refs[PL_MAX_NODES];

/* ---- fork: a step finishes before the fork; the child never runs the monitor ---- */

static void fork_prepare(void)
{
    pthread_mutex_lock(&mon.mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&mon.mu);
}

static void fork_child(void)
{
    /* The helper thread does not exist here, and the parent's timeline is
     * the parent's report: the child's says it did not run. */
    __atomic_store_n(&mon.state, ST_CHILD, __ATOMIC_RELAXED);
    __atomic_store_n(&mon.asleep, 0, __ATOMIC_RELAXED);
    mon.nentries = 0;
    mon.open_entry = -1;
    mon.steps = mon.idle = mon.migrations = mon.rollbacks = mon.refused = mon.foreign = mon.teams = 0;
    mon.unmeasured = mon.errors = mon.gated = mon.sleeps = 0;
    pthread_mutex_unlock(&mon.mu);
}

/* Whether the helper begins asleep: the locality gate on and a source that
 * tells nothing before an execution ends, so no step could find a TNT
 * before a region's sampling found references. */
static int starts_starved(void)
{
    return rt_conf->remote_min > 0 && !rt_counters_can_peek();
}

void rt_monitor_init(void)
{
    if (rt_conf->migrate == RT_MIGRATE_OFF)
        return;
    mon.pid = getpid();
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&mon.cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    /* Until evidence starts it, the helper counts as asleep: nothing counts
     * the threads' work or waits (the hooks read this flag). */
    if (starts_starved())
        __atomic_store_n(&mon.asleep, 1, __ATOMIC_RELEASE);
}

/* ---- the machine and the team ---- */

static int machine_setup(void)
{
    const rt_topo_t *t = &rt_mach->topo;
    mon.nnodes = t->nnodes;
    mon.ncores = 0;
    mon.maxcpu = -1;
    for (int n = 0; n < t->nnodes; n++)
        for (int c = 0; c < t->capacity[n]; c++) {
            mon.ncores++;
            if (t->cpus[n][c] > mon.maxcpu)
                mon.maxcpu = t->cpus[n][c];
        }
    if (mon.ncores < 1 || mon.nnodes > PL_MAX_NODES) {
        errno = EINVAL;
        return -1;
    }
    mon.core_cpu = malloc((size_t)mon.ncores * sizeof *mon.core_cpu);
    mon.core_node = malloc((size_t)mon.ncores * sizeof *mon.core_node);
    mon.cpu_core = malloc((size_t)(mon.maxcpu + 1) * sizeof *mon.cpu_core);
    if (!mon.core_cpu || !mon.core_node || !mon.cpu_core)
        return -1;
    for (int c = 0; c <= mon.maxcpu; c++)
        mon.cpu_core[c] = -1;
    int k = 0;
    for (int n = 0; n < t->nnodes; n++)
        for (int c = 0; c < t->capacity[n]; c++, k++) {
            mon.core_cpu[k] = t->cpus[n][c];
            mon.core_node[k] = n;
            mon.cpu_core[t->cpus[n][c]] = k;
        }
    return 0;
}

static int core_of_cpu(int cpu)
{
    return cpu >= 0 && cpu <= mon.maxcpu ? mon.cpu_core[cpu] : -1;
}

/* Where thread t starts as IMAR2 sees it: where ompnuma pinned it; in dry
 * run, where the region loop would pin it; on this machine, the CPU it is
 * bound to or last ran on; otherwise (a foreign topology) the t-th core, as
 * OMP_PROC_BIND=close would place it. */
static int initial_core(int t, const rt_thread_t *m, const rt_region_t *r)
{
    int cpu = __atomic_load_n(&m->place.pinned_cpu, __ATOMIC_RELAXED);
    if (cpu < 0 && !rt_affinity_applies())
        cpu = __atomic_load_n(&r->pin_cpu[t], __ATOMIC_RELAXED);
    if (core_of_cpu(cpu) < 0 && rt_mach->topo.this_system)
        cpu = rt_task_cpu(m->place.tid);
    int c = core_of_cpu(cpu);
    return c >= 0 ? c : t % mon.ncores;
}

static void team_free(void)
{
    free(mon.member);
    free(mon.core);
    free(mon.our_cpu);
    free(mon.record);
    free(mon.perf);
    free(mon.work);
    free(mon.cpu_ns);
    free(mon.wait_ns);
    free(mon.dwork);
    free(mon.dcpu);
    free(mon.dwait);
    free(mon.dests);
    free(mon.live);
    free(mon.tids);
    mon.live = NULL;
    mon.tids = NULL;
    mon.member = NULL;
    mon.core = mon.our_cpu = NULL;
    mon.record = mon.perf = NULL;
    mon.work = mon.cpu_ns = mon.wait_ns = mon.dwork = mon.dcpu = mon.dwait = NULL;
    mon.dests = NULL;
    mon.have_team = 0;
}

/* IMAR2 (re)started on the team's n threads where they run now: records,
 * totals, the period and the lottery's seed start over, and no move is
 * pending. 0 or -1. */
static int imar_start(int n)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.ratio = rt_conf->ratio;
    p.period_min_ms = rt_conf->period_ms;
    p.period_max_ms = rt_conf->period_max_ms;
    p.remote_min = rt_conf->remote_min;
    int rc = pl_imar_init(&mon.im, &p, mon.nnodes, mon.ncores, mon.core_node, n, mon.core, NULL, mon.record,
                          (uint64_t)rt_conf->seed);
    if (rc < 0) {
        rt_verbose(1, "monitor: IMAR2 refused a team of %d: %s", n, strerror(-rc));
        return -1;
    }
    mon.open_entry = -1;
    return 0;
}

/* A new team (first, or of another size, or other threads): IMAR2 starts
 * over on it, as its records belong to those threads. 0 or -1. */
static int team_setup(const rt_region_t *r, int n)
{
    team_free();
    size_t nn = (size_t)n;
    mon.member = malloc(nn * sizeof *mon.member);
    mon.core = malloc(nn * sizeof *mon.core);
    mon.our_cpu = malloc(nn * sizeof *mon.our_cpu);
    mon.record = malloc(nn * (size_t)mon.nnodes * sizeof *mon.record);
    mon.perf = malloc(nn * sizeof *mon.perf);
    mon.work = malloc(nn * sizeof *mon.work);
    mon.cpu_ns = malloc(nn * sizeof *mon.cpu_ns);
    mon.wait_ns = malloc(nn * sizeof *mon.wait_ns);
    mon.dwork = malloc(nn * sizeof *mon.dwork);
    mon.dcpu = malloc(nn * sizeof *mon.dcpu);
    mon.dwait = malloc(nn * sizeof *mon.dwait);
    mon.max_dests = mon.ncores + n;
    mon.dests = malloc((size_t)mon.max_dests * sizeof *mon.dests);
    mon.live = malloc(nn * (size_t)mon.nnodes * sizeof *mon.live);
    mon.tids = malloc(nn * sizeof *mon.tids);
    if (!mon.member || !mon.core || !mon.our_cpu || !mon.record || !mon.perf || !mon.work || !mon.cpu_ns || !mon.wait_ns || !mon.dwork ||
        !mon.dcpu || !mon.dwait || !mon.dests || !mon.live || !mon.tids) {
        team_free();
        return -1;
    }
    mon.n = n;
    for (int t = 0; t < n; t++) {
        mon.member[t] = mon.cand[t];
        mon.tids[t] = mon.member[t]->place.tid;
        mon.core[t] = initial_core(t, mon.member[t], r);
        mon.our_cpu[t] = __atomic_load_n(&mon.member[t]->place.pinned_cpu, __ATOMIC_RELAXED);
    }
    if (imar_start(n) < 0) {
        team_free();
        return -1;
    }
    mon.have_team = 1;
    mon.unit = UNIT_UNDECIDED;
    mon.teams++;
    rt_verbose(1, "monitor: managing a team of %d threads (region %d)", n, r->id);
    return 0;
}

/* Thread m's barrier waits up to now, the open one included. The thread
 * clears wait_since before it adds the ended wait to wait_ns: a read that
 * saw the wait open and then its sum is taken again. */
static uint64_t waited(const rt_thread_t *m, uint64_t now)
{
    uint64_t w = 0;
    for (int tries = 0; tries < 4; tries++) {
        uint64_t since = __atomic_load_n(&m->wait_since, __ATOMIC_ACQUIRE);
        w = __atomic_load_n(&m->wait_ns, __ATOMIC_ACQUIRE);
        if (since == __atomic_load_n(&m->wait_since, __ATOMIC_ACQUIRE))
            return w + (since && now > since ? now - since : 0);
    }
    return w;
}

/* The interval starts now: each thread's work, CPU time and waits so far. */
static void baseline(uint64_t now)
{
    for (int t = 0; mon.have_team && t < mon.n; t++) {
        mon.wait_ns[t] = waited(mon.member[t], now);
        mon.work[t] = __atomic_load_n(&mon.member[t]->work, __ATOMIC_RELAXED);
        if (rt_task_cpu_ns(mon.member[t]->place.tid, &mon.cpu_ns[t]) != 0)
            mon.cpu_ns[t] = UINT64_MAX;
    }
    mon.last_ns = now;
}

static int nonzero(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return 1;
    return 0;
}

/* The TNT the threads' latency and the locality gate are read from: the
 * running region's only: what its ended executions sampled, else what the
 * source has sampled of the execution running now (a region that runs once
 * has nothing else until it ends). Another region's rows say where that
 * region's thread i referenced memory, not this one's: a first-touch loop
 * whose thread i filled the block thread j sweeps later would make every
 * move toward the data look like a loss (on 4x1, a latency factor of 4
 * against a work rate 2-3 times higher). Which node holds a page does not
 * depend on where the thread runs, so a table sampled before a move still
 * says where each thread's data is after it. */
static const uint64_t *pick_tnt(const rt_region_t *r)
{
    size_t cells = (size_t)mon.n * (size_t)mon.nnodes;
    if (nonzero(r->tnt, cells))
        return r->tnt;
    /* The monitor alone lets the source arm the running execution when its
     * budget declined it at its begin (nothing else would); beside the
     * region loop, the long region's loops are sampled as they begin, and
     * arming the whole execution too cost the well-placed patterns'
     * local-long 1.5 % more in the paced 2-node VM. */
    int alone = rt_conf->mode == RT_MODE_MONITOR && mon.n == r->team_size;
    rt_sample_t s = {.codeptr = r->codeptr, .parent_id = r->parent_id, .id = r->id, .team_size = r->team_size,
                     .nnodes = mon.nnodes, .tids = alone ? mon.tids : NULL};
    return rt_counters_peek(&s, mon.live) && nonzero(mon.live, cells) ? mon.live : NULL;
}

/*
 * P of every thread over the interval just ended (negative: not measured).
 * The rate's unit is decided at the team's first measured interval: work
 * units (iterations dispatched, implicit tasks ended) when some thread did
 * at least WORK_MIN of them, else none (rate 1: P is share / latency), as
 * for a long region without worksharing, whose only units would be the rare
 * ends of its implicit tasks. A team counted in none whose work shows later
 * (its first interval held serial code or a first touch before its loop)
 * turns to work units once: returns 1, and the caller starts IMAR2 over, as
 * records and totals in two units would not compare. In work units, a
 * thread that ran but did none has P = 0 (the formula's rate 1 stands for
 * "no work counted in the whole team", not for a thread left without chunks).
 * tnt: the running region's (pick_tnt), or NULL.
 */
static int measure(uint64_t now, const uint64_t *tnt)
{
    double wall = (double)(now - mon.last_ns) / 1e9;
    mon.used_tnt = tnt != NULL;
    mon.im.refs = tnt;
    uint64_t *cpu = mon.dcpu, *work = mon.dwork, *wait = mon.dwait;
    int measurable = 0, enough = 0;
    for (int t = 0; t < mon.n; t++) {
        const rt_thread_t *m = mon.member[t];
        uint64_t w = __atomic_load_n(&m->work, __ATOMIC_RELAXED), c, waits = waited(m, now);
        /* A wait dropped (its end never reported) can make the sum go back. */
        wait[t] = waits > mon.wait_ns[t] ? waits - mon.wait_ns[t] : 0;
        if (wait[t] > now - mon.last_ns)
            wait[t] = now - mon.last_ns;
        cpu[t] = UINT64_MAX;
        if (mon.cpu_ns[t] == UINT64_MAX || rt_task_cpu_ns(m->place.tid, &c) != 0 || c < mon.cpu_ns[t] || wall <= 0)
            continue;
        cpu[t] = c - mon.cpu_ns[t];
        work[t] = w - mon.work[t];
        measurable++;
        enough += work[t] >= WORK_MIN;
        rt_verbose(2, "monitor: thread %d work %llu cpu %llu wait %llu", t, (unsigned long long)work[t],
                   (unsigned long long)cpu[t], (unsigned long long)wait[t]);
    }
    if (mon.unit == UNIT_NONE && enough > 0) {
        mon.unit = UNIT_WORK;
        rt_verbose(1, "monitor: work shows: performance counts work per second from now on; IMAR2 starts over");
        return 1;
    }
    if (mon.unit == UNIT_UNDECIDED && measurable > 0) {
        mon.unit = enough > 0 ? UNIT_WORK : UNIT_NONE;
        rt_verbose(1, "monitor: performance counts %s", mon.unit == UNIT_WORK ? "work per second" : "no work (rate 1)");
    }
    for (int t = 0; t < mon.n; t++) {
        mon.perf[t] = -1.0;
        if (cpu[t] == UINT64_MAX || mon.unit == UNIT_UNDECIDED || cpu[t] == 0) {
            mon.unmeasured++;
            continue;
        }
        /* Waiting at barriers all interval, or without a unit of work while
         * the team counts work: the thread was not seen running, and its
         * last P where it runs stands for it (none yet: not measured). */
        if (wait[t] && (mon.unit == UNIT_WORK ? !work[t] : wait[t] >= now - mon.last_ns)) {
            mon.perf[t] = mon.record[(size_t)t * (size_t)mon.nnodes + (size_t)mon.core_node[mon.core[t]]];
            mon.unmeasured += mon.perf[t] < 0;
            continue;
        }
        if (mon.unit == UNIT_WORK && !work[t]) {
            mon.perf[t] = 0.0;
            continue;
        }
        pl_imar_nopmu_t s = {
            .work = mon.unit == UNIT_WORK ? (double)work[t] : 0.0,
            .cpu_s = (double)cpu[t] / 1e9,
            .wall_s = wall,
            .node = mon.core_node[mon.core[t]],
            .refs = tnt ? tnt + (size_t)t * (size_t)mon.nnodes : no_refs,
            .wait_s = (double)wait[t] / 1e9,
        };
        if (pl_imar_perf_nopmu(&rt_mach->pl, &s, NULL, &mon.perf[t]) != 0) {
            mon.perf[t] = -1.0; /* did not run in the interval: nothing to judge */
            mon.unmeasured++;
        }
    }
    return 0;
}

/* Threads someone else moved since the monitor last looked (the region
 * loop, update_hints, the bubbles), and unpinned threads the kernel moved:
 * IMAR2's view is corrected, so a pending move that no longer holds is
 * neither judged nor rolled back. Dry run moves nothing: the view stays. */
static void refresh_cores(void)
{
    if (!rt_affinity_applies())
        return;
    for (int t = 0; t < mon.n; t++) {
        const rt_thread_t *m = mon.member[t];
        int pc = __atomic_load_n(&m->place.pinned_cpu, __ATOMIC_RELAXED);
        if (pc == mon.our_cpu[t] && pc >= 0)
            continue;
        if (pc != mon.our_cpu[t]) {
            mon.foreign++;
            mon.our_cpu[t] = pc;
        }
        int c = core_of_cpu(pc >= 0 ? pc : rt_task_cpu(m->place.tid));
        if (c >= 0)
            mon.core[t] = c;
    }
}

static entry_t *entry_at(int64_t i)
{
    return i >= 0 && (uint64_t)i < mon.nentries && mon.nentries - (uint64_t)i <= RING ? &mon.ring[i % RING] : NULL;
}

/* Move the threads as mv says; 0, or -1 with errno (nothing moved). */
static int move_threads(const pl_imar_move_t *mv)
{
    rt_thread_t *a = mon.member[mv->thread];
    int back = mon.our_cpu[mv->thread];
    if (rt_affinity_move(&a->place, mon.core_cpu[mv->to_core], RT_MOVER_MONITOR) != 0)
        return -1;
    if (mv->partner >= 0 &&
        rt_affinity_move(&mon.member[mv->partner]->place, mon.core_cpu[mv->from_core], RT_MOVER_MONITOR) != 0) {
        int saved = errno;
        rt_affinity_move(&a->place, back, RT_MOVER_MONITOR); /* both or neither */
        errno = saved;
        return -1;
    }
    mon.our_cpu[mv->thread] = __atomic_load_n(&a->place.pinned_cpu, __ATOMIC_RELAXED);
    if (mv->partner >= 0)
        mon.our_cpu[mv->partner] = __atomic_load_n(&mon.member[mv->partner]->place.pinned_cpu, __ATOMIC_RELAXED);
    return 0;
}

static void record(uint64_t now, const pl_imar_step_t *out, int applied, int err)
{
    const pl_imar_move_t *mv = &out->move;
    entry_t *e = &mon.ring[mon.nentries % RING];
    *e = (entry_t){
        .t_ns = now - mon.t0,
        .step = mon.steps,
        .action = out->action,
        .thread = mv->thread,
        .partner = mv->partner,
        .from_cpu = mon.core_cpu[mv->from_core],
        .to_cpu = mon.core_cpu[mv->to_core],
        .from_node = mon.core_node[mv->from_core],
        .to_node = mon.core_node[mv->to_core],
        .tickets = out->action == PL_IMAR_MIGRATE ? out->tickets : 0,
        .total_tickets = out->action == PL_IMAR_MIGRATE ? out->total_tickets : 0,
        .ndests = out->action == PL_IMAR_MIGRATE ? out->ndests : 0,
        .perf_before = mon.perf[mv->thread],
        .perf_after = -1.0,
        .total = out->total,
        .prev_total = out->prev_total,
        .period_ms = out->period_ms,
        .next_ms = out->next_ms,
        .period_change = out->period_change,
        .applied = applied,
        .err = err,
        .tnt = mon.used_tnt,
    };
    mon.open_entry = applied ? (int64_t)mon.nentries : -1;
    mon.nentries++;
}

static void step(void)
{
    uint64_t now = rt_now_ns();
    rt_region_t *r = __atomic_load_n(&mon.region, __ATOMIC_ACQUIRE);
    uint64_t seq = __atomic_load_n(&mon.seq, __ATOMIC_RELAXED);
    int active = __atomic_load_n(&mon.active, __ATOMIC_RELAXED);
    /* No outermost team ran in the interval: its threads idled in the
     * OpenMP runtime; nothing to judge (a starved monitor stays so). */
    if (!r || (!active && seq == mon.last_seq)) {
        mon.idle++;
        if (!mon.unread) /* an unread monitor takes its baseline once a TNT shows */
            baseline(now);
        mon.last_seq = seq;
        return;
    }
    mon.starved = 0; /* until the gate below finds no TNT again */
    int n = r->team_size, same = mon.have_team && n == mon.n;
    if (n > mon.cand_cap) {
        rt_thread_t **c = realloc(mon.cand, (size_t)n * sizeof *c);
        if (!c)
            return;
        mon.cand = c;
        mon.cand_cap = n;
    }
    for (int t = 0; t < n; t++) {
        mon.cand[t] = __atomic_load_n(&r->slot[t].member, __ATOMIC_RELAXED);
        if (!mon.cand[t]) { /* a member has not begun its first task yet */
            mon.idle++;
            return;
        }
        same = same && mon.cand[t] == mon.member[t];
    }
    mon.last_seq = seq;
    if (!same) {
        team_setup(r, n);
        baseline(now);
        return;
    }
    const uint64_t *tnt = pick_tnt(r); /* once a step: a page sampler's peek also scans the maps */
    /* With the locality gate on and no TNT, no thread can be eligible, so
     * the step reads nothing: each thread's CPU time and CPU cost a
     * monitor step tens of ms in the emulated VM, a third busy thread on
     * the team's two CPUs. Measuring resumes from a new baseline once a
     * TNT appears (a trial needs one, so none is pending to judge). */
    mon.starved = rt_conf->remote_min > 0 && mon.im.pending.thread < 0 && !tnt;
    if (mon.starved) {
        mon.steps++;
        mon.gated++;
        mon.used_tnt = 0;
        mon.unread = 1;
        return;
    }
    if (mon.unread) {
        mon.unread = 0;
        baseline(now);
        return;
    }
    if (measure(now, tnt)) {
        refresh_cores();
        if (imar_start(n) < 0) {
            mon.errors++;
            team_free();
        }
        baseline(now);
        return;
    }
    refresh_cores();
    pl_imar_step_t out;
    int rc = pl_imar2_step(&mon.im, mon.perf, mon.dests, mon.max_dests, &out);
    mon.steps++;
    mon.gated += rc == 0 && out.gated;
    if (rc == 0 && out.gated)
        rt_verbose(2, "monitor: every thread next to its data (largest remote share %.3f): no trial", out.max_remote);
    entry_t *prev = entry_at(mon.open_entry);
    if (prev && rc == 0) {
        prev->perf_after = mon.perf[prev->thread];
        prev->rolled_back = out.action == PL_IMAR_ROLLBACK;
    }
    mon.open_entry = -1;
    if (rc < 0) {
        mon.errors++;
        rt_verbose(1, "monitor: IMAR2 step failed: %s", strerror(-rc));
    } else if (out.action != PL_IMAR_NONE) {
        int applied = move_threads(&out.move) == 0, err = applied ? 0 : errno;
        if (applied && pl_imar_apply(&mon.im, &out.move) != 0) {
            mon.errors++;
            applied = 0;
            err = EINVAL;
        }
        if (!applied)
            mon.refused++;
        else if (out.action == PL_IMAR_ROLLBACK)
            mon.rollbacks++;
        else
            mon.migrations++;
        record(now, &out, applied, err);
        char partner[48] = "";
        if (out.move.partner >= 0)
            snprintf(partner, sizeof partner, ", swapped with thread %d", out.move.partner);
        rt_verbose(1, "monitor: %s thread %d cpu %d -> %d%s, P %.4g, total %.4g (previous %.4g), period %.0f ms%s",
                   pl_imar_action_name(out.action), out.move.thread, mon.core_cpu[out.move.from_core],
                   mon.core_cpu[out.move.to_core], partner, mon.perf[out.move.thread], out.total,
                   out.prev_total, out.period_ms, applied ? "" : ", refused by the affinity owner");
    }
    baseline(rt_now_ns()); /* the next interval starts after the moves */
}

const int *rt_monitor_asleep_flag(void)
{
    return &mon.asleep;
}

static void (*sleep_hook)(int asleep);

void rt_monitor_on_sleep(void (*fn)(int asleep))
{
    sleep_hook = fn;
}

/* The flag changes, under mon.mu. */
static void set_asleep(int asleep)
{
    __atomic_store_n(&mon.asleep, asleep, __ATOMIC_RELEASE);
    if (sleep_hook)
        sleep_hook(asleep);
}

static void *monitor_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mon.mu);
    mon.t0 = mon.last_ns = rt_now_ns();
    if (machine_setup() != 0) {
        snprintf(mon.why, sizeof mon.why, "no cores to migrate between: %s", strerror(errno));
        __atomic_store_n(&mon.state, ST_FAILED, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&mon.mu);
        return NULL;
    }
    /* With the locality gate on, no trial without a TNT: with a source that
     * tells nothing before an execution ends, the monitor starts when a
     * region's sampling found references (rt_monitor_team_begin), takes the
     * step a wake makes, and sleeps whenever a step finds no TNT. A program
     * whose regions never get a TNT (hints with nothing attached) then has
     * no helper thread, no step and no accounting, however short it is (NPB
     * MG class S: 0.86 s, before the default period's second step). */
    mon.starved = rt_conf->remote_min > 0;
    if (starts_starved())
        step();
    while (!mon.stop) {
        /* Starved, with a source that tells nothing before an execution
         * ends: until an outermost team begins in a region whose sampling
         * found references (rt_monitor_team_begin wakes it), a step would
         * find nothing, and each costs the team's CPUs a wake-up, ~10 ms a
         * step in the paced emulated VM. */
        if (mon.starved && !rt_counters_can_peek()) {
            set_asleep(1);
            mon.sleeps++;
            while (!mon.stop && __atomic_load_n(&mon.asleep, __ATOMIC_ACQUIRE))
                pthread_cond_wait(&mon.cv, &mon.mu);
            if (!mon.stop)
                step();
            continue;
        }
        double period = mon.have_team ? mon.im.next_ms : rt_conf->period_ms;
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        rt_timespec_add_ms(&dl, period);
        while (!mon.stop && pthread_cond_timedwait(&mon.cv, &mon.mu, &dl) != ETIMEDOUT)
            ;
        if (!mon.stop)
            step();
    }
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        mon.own_cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    mon.own_wall_ns = rt_now_ns() - mon.t0;
    pthread_mutex_unlock(&mon.mu);
    return NULL;
}

static void start(void)
{
    int expected = ST_NEVER;
    if (!__atomic_compare_exchange_n(&mon.state, &expected, ST_STARTING, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return;
    /* Fork handlers cover forks after rt_monitor_init; a process that is
     * not the one the runtime started in is a child that forked before. */
    if (getpid() != mon.pid || !rt_mach->ok) {
        __atomic_store_n(&mon.state, getpid() != mon.pid ? ST_CHILD : ST_FAILED, __ATOMIC_RELAXED);
        return;
    }
    /* Started for evidence while counted asleep (rt_monitor_init): awake
     * from now on, told once. Under mon.mu, as wake() clears it: another
     * primary that finds the helper starting (not ST_NEVER) with evidence
     * wakes it, and only one of the two may tell the sleep hook. */
    pthread_mutex_lock(&mon.mu);
    if (mon.asleep)
        set_asleep(0);
    pthread_mutex_unlock(&mon.mu);
    /* The helper takes no signal meant for the program (and blocks no fault). */
    sigset_t all, old;
    rt_fault_async_signals(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&mon.thread, NULL, monitor_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(mon.why, sizeof mon.why, "cannot start its thread: %s", strerror(rc));
        rt_verbose(1, "monitor: %s", mon.why);
        __atomic_store_n(&mon.state, ST_FAILED, __ATOMIC_RELAXED);
        return;
    }
    pthread_setname_np(mon.thread, "ompnuma-imar2");
    __atomic_store_n(&mon.state, ST_RUNNING, __ATOMIC_RELEASE);
}

/* The helper waits for evidence: r's sampling found references. */
static __attribute__((noinline, cold)) void wake(void)
{
    pthread_mutex_lock(&mon.mu);
    if (mon.asleep) {
        set_asleep(0);
        pthread_cond_signal(&mon.cv);
    }
    pthread_mutex_unlock(&mon.mu);
}

void rt_monitor_team_begin(rt_region_t *r)
{
    __atomic_store_n(&mon.region, r, __ATOMIC_RELEASE);
    __atomic_store_n(&mon.active, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&mon.seq, mon.seq + 1, __ATOMIC_RELAXED); /* one writer: the primary */
    int evidence = __atomic_load_n(&r->refs_seen, __ATOMIC_ACQUIRE);
    /* A helper that would start asleep until evidence comes starts with the
     * evidence: created earlier, it is one more runnable thread while the
     * program's first teams first-touch their data, which the kernel may
     * run on a team's CPU and so send an unbound member's pages to another
     * node (2 of 3 Nested-STREAM runs 1.6x slower in the 2-node VM). */
    if (__atomic_load_n(&mon.state, __ATOMIC_RELAXED) == ST_NEVER) {
        if (evidence || !starts_starved())
            start();
    } else if (evidence && __atomic_load_n(&mon.asleep, __ATOMIC_ACQUIRE)) {
        wake();
    }
}

void rt_monitor_team_end(void)
{
    __atomic_store_n(&mon.active, 0, __ATOMIC_RELAXED);
}

void rt_monitor_thread_end(rt_thread_t *thr)
{
    if (rt_conf->migrate == RT_MIGRATE_OFF) {
        rt_thread_forget(thr);
        return;
    }
    pthread_mutex_lock(&mon.mu);
    for (int t = 0; mon.have_team && t < mon.n; t++)
        if (mon.member[t] == thr)
            mon.have_team = 0; /* another team next time */
    rt_thread_forget(thr);
    pthread_mutex_unlock(&mon.mu);
}

void rt_monitor_stop(void)
{
    if (__atomic_load_n(&mon.state, __ATOMIC_ACQUIRE) != ST_RUNNING || getpid() != mon.pid)
        return;
    pthread_mutex_lock(&mon.mu);
    mon.stop = 1;
    pthread_cond_signal(&mon.cv);
    pthread_mutex_unlock(&mon.mu);
    pthread_join(mon.thread, NULL);
    __atomic_store_n(&mon.state, ST_STOPPED, __ATOMIC_RELEASE);
}

int rt_monitor_running(void)
{
    return __atomic_load_n(&mon.state, __ATOMIC_ACQUIRE) == ST_RUNNING;
}

/* ---- report ---- */

static void json_number_or_null(FILE *f, double v)
{
    if (v < 0)
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

static void json_entry(FILE *f, const entry_t *e)
{
    fprintf(f, "{\"t_ms\":%.3f,\"step\":%llu,\"action\":", (double)e->t_ns / 1e6, (unsigned long long)e->step);
    rt_json_string(f, pl_imar_action_name(e->action));
    fprintf(f, ",\"thread\":%d,\"partner\":", e->thread);
    if (e->partner >= 0)
        fprintf(f, "%d", e->partner);
    else
        fputs("null", f);
    fprintf(f, ",\"from_cpu\":%d,\"to_cpu\":%d,\"from_node\":%d,\"to_node\":%d,\"tickets\":%d,"
            "\"total_tickets\":%lld,\"destinations\":%d,\"perf_before\":",
            e->from_cpu, e->to_cpu, e->from_node, e->to_node, e->tickets, (long long)e->total_tickets, e->ndests);
    json_number_or_null(f, e->perf_before);
    fputs(",\"perf_after\":", f);
    json_number_or_null(f, e->perf_after);
    fprintf(f, ",\"total\":%.6g,\"prev_total\":", e->total);
    json_number_or_null(f, e->prev_total);
    fprintf(f, ",\"period_ms\":%.6g,\"next_ms\":%.6g,\"period_change\":%d,\"applied\":%s,\"error\":",
            e->period_ms, e->next_ms, e->period_change, e->applied ? "true" : "false");
    if (e->err)
        rt_json_string(f, strerror(e->err));
    else
        fputs("null", f);
    fprintf(f, ",\"rolled_back\":%s,\"tnt\":%s}", e->rolled_back ? "true" : "false", e->tnt ? "true" : "false");
}

void rt_monitor_report_json(FILE *f)
{
    if (rt_conf->migrate == RT_MIGRATE_OFF) {
        fputs("null", f);
        return;
    }
    pthread_mutex_lock(&mon.mu);
    int st = __atomic_load_n(&mon.state, __ATOMIC_ACQUIRE);
    fprintf(f, "{\"algorithm\":\"imar2\",\"state\":");
    rt_json_string(f, state_names[st]);
    fprintf(f, ",\"why\":");
    rt_json_string(f, mon.why);
    fprintf(f, ",\"performance\":\"nopmu\",\"work_unit\":");
    rt_json_string(f, unit_names[mon.teams ? mon.unit : UNIT_UNDECIDED]);
    fprintf(f, ",\"period_ms\":%.6g,\"period_max_ms\":%.6g,\"ratio\":%.6g,\"remote_min\":%.6g,\"seed\":%llu,"
            "\"period_now_ms\":%.6g,\"team_size\":%d,\"teams\":%llu,\"steps\":%llu,\"idle\":%llu,"
            "\"migrations\":%llu,\"rollbacks\":%llu,\"gated\":%llu,\"refused\":%llu,\"foreign_moves\":%llu,"
            "\"unmeasured\":%llu,\"errors\":%llu,\"sleeps\":%llu,\"cpu_ms\":%.3f,\"wall_ms\":%.3f,\"dropped\":%llu,\"timeline\":[",
            rt_conf->period_ms, rt_conf->period_max_ms, rt_conf->ratio, rt_conf->remote_min, rt_conf->seed,
            mon.teams ? mon.im.period_ms : rt_conf->period_ms, mon.teams ? mon.n : 0,
            (unsigned long long)mon.teams, (unsigned long long)mon.steps, (unsigned long long)mon.idle,
            (unsigned long long)mon.migrations, (unsigned long long)mon.rollbacks, (unsigned long long)mon.gated,
            (unsigned long long)mon.refused, (unsigned long long)mon.foreign, (unsigned long long)mon.unmeasured,
            (unsigned long long)mon.errors, (unsigned long long)mon.sleeps,
            (double)mon.own_cpu_ns / 1e6, (double)mon.own_wall_ns / 1e6, (unsigned long long)(mon.nentries > RING ? mon.nentries - RING : 0));
    uint64_t first = mon.nentries > RING ? mon.nentries - RING : 0;
    for (uint64_t i = first; i < mon.nentries; i++) {
        fputs(i > first ? "," : "", f);
        json_entry(f, &mon.ring[i % RING]);
    }
    fputs("]}", f);
    pthread_mutex_unlock(&mon.mu);
}

void rt_monitor_report_text(FILE *f)
{
    if (rt_conf->migrate == RT_MIGRATE_OFF)
        return;
    pthread_mutex_lock(&mon.mu);
    fprintf(f, "ompnuma: monitor imar2 (%s): %llu steps, %llu migrations, %llu rollbacks, %llu refused, "
            "%llu moved by others, period now %.0f ms\n",
            state_names[__atomic_load_n(&mon.state, __ATOMIC_ACQUIRE)], (unsigned long long)mon.steps,
            (unsigned long long)mon.migrations, (unsigned long long)mon.rollbacks, (unsigned long long)mon.refused,
            (unsigned long long)mon.foreign, mon.teams ? mon.im.period_ms : rt_conf->period_ms);
    pthread_mutex_unlock(&mon.mu);
}
