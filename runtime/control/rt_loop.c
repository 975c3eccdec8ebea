/* rt_loop.c: the placement loop per region: sample, time a baseline, decide, apply, verify, keep or roll back. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/pl_data.h"
#include "rt_affinity.h"
#include "rt_bubble.h"
#include "rt_core.h"
#include "rt_counters.h"
#include "rt_data.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_mem.h"
#include "rt_policy.h"
#include "rt_settings.h"
#include "rt_symbol.h"
#include "rt_topology.h"
#include "rt_util.h"

/* A decision whose move does not stand out from the table's sampling error
 * (pl_evidence) samples this many more phases before it gives up and moves
 * nothing: a thin table is more often a short sample than a region without
 * a pattern (NPB CG's main region was decided on 4 references). */
#define MAX_EXTENSIONS 3
/* A settled region whose mean critical path over a window of
 * DRIFT_WINDOW x `sample` executions moves by more than this factor from
 * the settled value is sampled again. Wide on purpose: shared 2-core
 * machines jitter by 50 % from window to window, a phase change is larger. */
#define DRIFT 1.0
#define DRIFT_WINDOW 4
/* Regions shorter than this are not watched for drift: their windows are
 * dominated by scheduling jitter (microseconds on a shared machine), and a
 * new placement could not gain back a re-sampling's cost. */
#define DRIFT_MIN_NS 100000.0

/* A loop placed inside one long execution (rt_events.c) may touch a small
 * part of the tracked memory per execution, so a sampled execution may see
 * none of the sampled pages: its sampling goes on until every thread has
 * LOOP_MIN_EACH references, or its threads LOOP_MIN_SAMPLES each on average
 * (a loop with fewer iterations than threads at a coarse level, as in NPB
 * MG, leaves some without any), for at most LOOP_MAX_SAMPLED x `sample`
 * executions, and each extension (too_thin) doubles both numbers. The
 * source holds its sample between the loop's executions (rt_src_pagefault.c):
 * armed per execution, a well-placed loop touching 8 pages per thread per
 * execution paid 1.35x `off` with the average alone (64 sampled executions)
 * in the 2-node VM. */
#define LOOP_MIN_EACH 4
#define LOOP_MIN_SAMPLES 8
#define LOOP_MAX_SAMPLED 16
/* Its executions are short (one loop, not a region) and right after a
 * move the threads re-pin one by one at their next begin of it: its
 * baseline and verification windows are LOOP_WINDOW times longer, the
 * first LOOP_SETTLE executions after a move are not timed, and a window
 * counts by its median: over
 * executions of a millisecond what the machine adds comes in lumps ten
 * times their length (a timer tick, another process, the emulator's
 * charges), so the fastest says little about the rest and a few lumps
 * decide the mean (measured in the 2-node VM: a window's executions of
 * 0.3 ms with two of 12 and 16 ms). */
#define LOOP_SETTLE 1
#define LOOP_WINDOW 2

/* One call site may run work of different kinds in turn: FFTW's one region
 * (fftw_spawn_loop) runs every loop of its plans, a forward and a backward
 * transform two loops each. A window's fastest execution compares like with
 * like only when the windows hold the same kinds: a data move was kept on
 * the fastest of one transform's two executions against another's (2.303 s
 * against 2.319, loops the moved pages never served), and the run lost 10 %
 * (paced 2-node VM). So a region's latest consecutive executions that no
 * source slowed while it sampled (the last CYCLE_RING: its ring) are looked
 * at for the cycle they show: each within CYCLE_TOL of the one a cycle
 * before it, over two cycles at least, at most CYCLE_MAX long; of those,
 * the shortest that fits nearly as tightly as the tightest (FFTW's cycle of
 * 4 fits within 1 %, the 2 that pairs its forward and backward loops 10 to
 * 20 %). Times that stay within CYCLE_TOL of each other from the first
 * `sample` on are a cycle of 1, and the baseline closes as it always did,
 * by its fastest. Times that vary, with no cycle yet, keep the baseline
 * open until the ring is full or for `sample` + CYCLE_MAX executions (what
 * a noisy region waits at most), or not at all without verification. Then
 * the baseline is its last whole cycles,
 * the verification takes as many executions, and each window counts by the
 * fastest of each position in the cycle, their mean per execution; or,
 * without a cycle (noise), by its fastest, the verification as long as the
 * baseline.
 *
 * The sample must see every kind too. A source with a budget arms one
 * execution in a few, at a stride its cost sets: FFTW's page sampler armed
 * every other execution, only the second loop of each transform, never the
 * one that reads the serially filled input, and the region stopped "at
 * home" after two of them (paced 2-node VM: the input's half on the wrong
 * node in every run). So a region whose executions vary (`varies`: twice
 * an execution KINDS_APART from the fastest or the slowest before it, its
 * first left out and what the source's faults took off) takes its sampled
 * executions at different positions (execution number mod CYCLE_MAX) until
 * it has them all, and takes its whole sample (no home early). */
#define CYCLE_RING RT_LOOP_RING
#define CYCLE_MAX (CYCLE_RING / 2)
#define CYCLE_TOL 0.2
#define CYCLE_SLACK 0.02
#define KINDS_APART 1.5

/* The loop's state of each region, by id: set when the record is created,
 * before it is published (rt_region_on_create), never changed after. */
static rt_loop_region_t *loops[RT_REGION_MAX];

static inline rt_loop_region_t *state(const rt_region_t *r)
{
    return loops[r->id];
}

const rt_loop_region_t *rt_loop_of(const rt_region_t *r)
{
    return state(r);
}

/* A new record (rt_region_on_create): the loop's state, and where the
 * region starts. */
static const char *region_name(const rt_region_t *r, char *buf, size_t len);
static int window_room(int construct);

static int created(rt_region_t *r)
{
    size_t n = (size_t)r->team_size, cells = n * (size_t)(rt_mach->ok ? rt_mach->topo.nnodes : 1);
    /* The state and its arrays in one block. */
    rt_block_t b = {sizeof(rt_loop_region_t)};
    size_t window = rt_block_add(&b, (size_t)window_room(r->construct), sizeof(uint64_t), 8),
           tnt_samples = rt_block_add(&b, n, sizeof(uint64_t), 8),
           tnt_after = rt_block_add(&b, cells, sizeof(uint64_t), 8), map_node = rt_block_add(&b, n, sizeof(int), 4),
           prev_pin_cpu = rt_block_add(&b, n, sizeof(int), 4), decided_cpu = rt_block_add(&b, n, sizeof(int), 4);
    char *m = rt_block_alloc(&b, _Alignof(max_align_t));
    if (!m)
        return -1;
    rt_loop_region_t *st = (void *)m;
    st->window = (void *)(m + window);
    st->tnt_samples = (void *)(m + tnt_samples);
    st->tnt_after = (void *)(m + tnt_after);
    st->map_node = (void *)(m + map_node);
    st->prev_pin_cpu = (void *)(m + prev_pin_cpu);
    st->decided_cpu = (void *)(m + decided_cpu);
    for (size_t i = 0; i < n; i++)
        st->map_node[i] = st->prev_pin_cpu[i] = st->decided_cpu[i] = -1;
    st->phase_min = UINT64_MAX;
    /* The monitor alone (imar2) moves threads while regions run; the loop
     * decides nothing, but a region's first executions are still sampled:
     * the monitor's latency factor reads their TNT. */
    int loop = rt_conf->mode != RT_MODE_OFF && rt_conf->mode != RT_MODE_MONITOR;
    /* One NUMA node: there is nothing to place, so nothing is sampled
     * either, and a program pays no source (rt_loop_why says so). */
    int nodes = rt_mach->ok && rt_mach->topo.nnodes > 1;
    r->outcome = loop && nodes ? RT_OUTCOME_SAMPLING : RT_OUTCOME_OFF;
    r->measuring = rt_conf->mode != RT_MODE_OFF && nodes;
    /* A source that could add nothing (hints, with no buffer attached):
     * sampling would only cost the team (each member's own bookkeeping,
     * the clock); the region runs as a settled one until the source could
     * see (rt_loop_source_sees). */
    if (r->measuring && rt_counters_blind()) {
        r->blind = 1;
        r->measuring = 0;
        r->quiet = 1;
        if (r->outcome == RT_OUTCOME_SAMPLING)
            r->outcome = RT_OUTCOME_NO_DATA;
        char name[960];
        rt_verbose(1, "region %d%s: not sampled: the %s source has nothing to sample; placement unchanged", r->id,
                   region_name(r, name, sizeof name), rt_source_name(rt_counters_used()));
    }
    if (rt_conf->mode == RT_MODE_BUBBLE) /* the bubble tree pins from the first execution, where there is a choice */
        r->pins_applied = nodes && rt_affinity_applies();
    loops[r->id] = st;
    return 0;
}

/* A buffer was attached (rt_mem_on_attach): regions not sampled because the
 * source could see nothing fork through the rest from now on, where their
 * sampling phase begins (rt_loop_source_sees). Only `measuring` is written
 * here: a blind region's end of execution never writes it. */
static void attached(void)
{
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *r = rt_region_at(i);
        if (__atomic_load_n(&r->blind, __ATOMIC_RELAXED))
            __atomic_store_n(&r->measuring, 1, __ATOMIC_RELEASE);
    }
}

void rt_loop_init(void)
{
    rt_region_on_create(created);
    rt_mem_on_attach(attached);
}

/* A new window of executions within the current phase. */
static void window_reset(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    st->phase_execs = 0;
    st->cp_phase_sum = 0;
    st->phase_min = UINT64_MAX;
    st->phase_max = 0;
}

static void phase_reset(rt_region_t *r, rt_outcome_t outcome, int measuring)
{
    rt_loop_region_t *st = state(r);
    r->outcome = outcome;
    r->measuring = measuring;
    r->quiet = 0;
    r->resting = st->budget_rest = st->rest_skip = 0;
    st->settle = 0;
    window_reset(r);
}

/* Executions in a timing window (baseline, verification): a region's
 * verification takes its baseline's length (baseline_done). */
static int window_execs(const rt_region_t *r)
{
    if (r->construct)
        return LOOP_WINDOW * rt_conf->sample;
    return state(r)->window_n ? state(r)->window_n : rt_conf->sample;
}

/* The most executions a window keeps: a region's baseline may grow to a
 * whole number of its cycles (baseline_done). */
static int window_room(int construct)
{
    int sample = rt_conf->sample;
    return construct ? LOOP_WINDOW * sample : sample + CYCLE_MAX - 1;
}

static void phase_add(rt_region_t *r, uint64_t cp)
{
    rt_loop_region_t *st = state(r);
    if (st->window && st->phase_execs < window_room(r->construct))
        st->window[st->phase_execs] = cp;
    st->phase_execs++;
    st->cp_phase_sum += cp;
    if (cp < st->phase_min)
        st->phase_min = cp;
    if (cp > st->phase_max)
        st->phase_max = cp;
}

static double phase_mean(const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    return st->phase_execs ? (double)st->cp_phase_sum / st->phase_execs : 0.0;
}

static int loop_needs_samples(const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    if (!r->construct || st->phase_execs >= LOOP_MAX_SAMPLED * rt_conf->sample)
        return 0;
    uint64_t total = 0, least = UINT64_MAX;
    for (int i = 0; i < r->team_size; i++) {
        total += st->tnt_samples[i];
        least = st->tnt_samples[i] < least ? st->tnt_samples[i] : least;
    }
    /* Each extension (too_thin) asks for twice the references of the phase
     * before: a loop's executions may add a reference in four, so `sample`
     * more executions added nothing the evidence could use. */
    uint64_t each = (uint64_t)LOOP_MIN_EACH << st->extensions, mean = (uint64_t)LOOP_MIN_SAMPLES << st->extensions;
    return least < each && total < mean * (uint64_t)r->team_size;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* How many executions the ring holds. */
static int ring_len(const rt_loop_region_t *st)
{
    return st->ring_n < CYCLE_RING ? (int)st->ring_n : CYCLE_RING;
}

/* The ring's executions, oldest first, into w; how many. */
static int ring_read(const rt_loop_region_t *st, uint64_t *w)
{
    int n = ring_len(st);
    for (int i = 0; i < n; i++)
        w[i] = st->ring[(st->ring_n - (uint32_t)n + (uint32_t)i) % CYCLE_RING];
    return n;
}

/* The largest relative difference between executions p apart in w[0..n). */
static double cycle_fit(const uint64_t *w, int n, int p)
{
    double worst = 0;
    for (int i = p; i < n; i++) {
        uint64_t a = w[i], b = w[i - p], lo = a < b ? a : b, hi = a < b ? b : a;
        double d = lo ? (double)(hi - lo) / (double)lo : (hi ? 1e9 : 0);
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* The cycle, in executions, that r's ring shows; 0 when none does (yet). */
static int cycle_of(const rt_loop_region_t *st)
{
    uint64_t w[CYCLE_RING];
    int n = ring_read(st, w);
    double fit[CYCLE_MAX + 1], best = CYCLE_TOL;
    for (int p = 1; p <= CYCLE_MAX; p++) {
        fit[p] = 2 * p <= n ? cycle_fit(w, n, p) : 1e9;
        best = fit[p] < best ? fit[p] : best;
    }
    for (int p = 1; p <= CYCLE_MAX; p++)
        if (fit[p] <= CYCLE_TOL && fit[p] <= 2 * best + CYCLE_SLACK)
            return p;
    return 0;
}

/* Whether a region's baseline window may close (its `sample` executions
 * timed), by its ring ("cycle" above). Sets the cycle and the length the
 * verification takes. A loop's window is its LOOP_WINDOW x `sample`. */
static int baseline_done(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    int n = st->phase_execs;
    if (r->construct)
        return n >= window_execs(r);
    if (n < rt_conf->sample)
        return 0;
    int seen = ring_len(st), p = seen < 2 ? 1 : cycle_of(st);
    /* Without verification only the decision's prediction reads the
     * baseline: it closes after its `sample` executions, as it always did. */
    if (p != 1 && rt_conf->verify && seen < CYCLE_RING && n < rt_conf->sample + CYCLE_MAX)
        return 0;
    if (p >= 2) {
        int room = window_room(0) < seen ? window_room(0) : seen;
        st->cycle = p;
        st->window_n = room / p * p;
    } else {
        st->cycle = 1;
        st->window_n = n < window_room(0) ? n : window_room(0);
    }
    return 1;
}

/* The mean over the positions of a cycle of p of each one's fastest, in
 * w[0..n) (n a whole number of cycles). */
static double cycle_cp(const uint64_t *w, int n, int p)
{
    double sum = 0;
    for (int j = 0; j < p; j++) {
        uint64_t least = UINT64_MAX;
        for (int k = j; k < n; k += p)
            least = w[k] < least ? w[k] : least;
        sum += (double)least;
    }
    return sum / p;
}

/* What a timing window says of the critical path. A region's: the fastest
 * execution of each position in its cycle (interference only ever adds
 * time), their mean: the baseline's from its ring (its last whole cycles,
 * right before the verification's first), the verification's from its
 * window; with a cycle of one, the window's fastest. A loop's: its median
 * (sorted in place: the window is over). */
static double window_cp(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    if (!r->construct) {
        int p = st->cycle;
        if (p <= 1 || !st->window)
            return (double)st->phase_min;
        if (r->outcome == RT_OUTCOME_SAMPLING) {
            uint64_t w[CYCLE_RING];
            int n = ring_read(st, w);
            return cycle_cp(w + (n - st->window_n), st->window_n, p);
        }
        int n = st->phase_execs < st->window_n ? st->phase_execs : st->window_n;
        return n < p ? (double)st->phase_min : cycle_cp(st->window, n / p * p, p);
    }
    int n = st->phase_execs < window_execs(r) ? st->phase_execs : window_execs(r);
    if (!st->window || n == 0)
        return (double)st->phase_min;
    qsort(st->window, (size_t)n, sizeof *st->window, cmp_u64);
    return n % 2 ? (double)st->window[n / 2] : 0.5 * ((double)st->window[n / 2 - 1] + (double)st->window[n / 2]);
}

static int tnt_empty(const rt_region_t *r)
{
    size_t n = (size_t)r->team_size * (size_t)rt_mach->topo.nnodes;
    for (size_t i = 0; i < n; i++)
        if (r->tnt[i])
            return 0;
    return 1;
}

static int may_stop_home(const rt_region_t *r);

/* Thread i's references in r's TNT so far: on the node it ran on while
 * sampled, and on the others. */
static void thread_refs(const rt_region_t *r, int i, uint64_t *local, uint64_t *remote)
{
    int nd = rt_mach->topo.nnodes;
    const uint64_t *row = r->tnt + (size_t)i * (size_t)nd;
    int here = rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[i]);
    uint64_t sum = 0;
    for (int n = 0; n < nd; n++)
        sum += row[n];
    *local = here >= 0 && here < nd ? row[here] : 0;
    *remote = sum - *local;
}

/* Whether r's sample so far shows a thread with most of its references on
 * a node it does not run on (pl_promising): evidence that a move may gain,
 * for which a source with a budget may spend more. */
static int promising(const rt_region_t *r)
{
    for (int i = 0; i < r->team_size; i++) {
        uint64_t local, remote;
        thread_refs(r, i, &local, &remote);
        if (pl_promising(local, remote))
            return 1;
    }
    return 0;
}

/* Whether execution number n (counted from 0) of a region whose executions
 * vary is at a position (n mod CYCLE_MAX) its sample already took, while
 * some position is still missing ("cycle"): it runs unsampled, the source
 * not armed (rt_sample_t.record), and counts neither as sampled nor as
 * waiting for the source. */
static int position_taken_at(const rt_region_t *r, uint64_t n)
{
    const rt_loop_region_t *st = state(r);
    if (!st->varies || r->construct || r->confirming || r->outcome != RT_OUTCOME_SAMPLING || !rt_counters_intrusive())
        return 0;
    unsigned all = (1u << CYCLE_MAX) - 1;
    return st->positions != all && (st->positions >> (n % CYCLE_MAX) & 1u);
}

/* ... for the execution about to begin. */
static int position_taken(const rt_region_t *r)
{
    return position_taken_at(r, r->executions);
}

void rt_loop_sample(rt_region_t *r, rt_sample_t *out)
{
    rt_loop_region_t *st = state(r);
    *out = (rt_sample_t){
        .codeptr = r->codeptr,
        .parent_id = r->parent_id,
        .parent_index = r->parent_index,
        .id = r->id,
        .team_size = r->team_size,
        .nnodes = rt_mach->topo.nnodes,
        .tnt = r->confirming ? st->tnt_after : r->tnt,
        .samples = r->confirming ? NULL : st->tnt_samples,
        .record = r->measuring && !position_taken(r),
        .once = st->phase_execs == 0,
        .probe = r->measuring && !r->confirming && r->outcome == RT_OUTCOME_SAMPLING && st->phase_execs == 0 &&
                 !r->construct && may_stop_home(r),
        .after = r->confirming,
        .addrs = r->confirming ? NULL : rt_data_log(r, st->resamples),
        .slowed_ns = &st->slowed_ns,
    };
    out->promising = r->measuring && !r->confirming && promising(r);
}

/*
 * Where the policy may put a team: the whole machine, or, when the MPI
 * mapper gave this rank an allotment (rt_affinity_allot), only its CPUs:
 * each node's capacity is then the number of its allotted CPUs, so critpath
 * decides inside the rank's node(s) and the team neither leaves them nor
 * crowds onto one core.
 *
 * Inner teams forked by different threads of a nest (BT-MZ's zones; each
 * a record of its own) run at the same time: a team decides on the CPUs
 * the teams decided before it left free, first come first served, so that
 * two teams whose data lie on one node share its CPUs instead of stacking
 * their threads onto the same ones. When fewer CPUs are left than the team
 * has threads, it decides on all of them.
 */
typedef struct space {
    pl_topo_t topo;
    cpu_set_t cpus;      /* the CPUs it may use */
    int       inside;    /* 1: not every CPU of the topology (an allotment, or other teams' CPUs taken) */
    int       crowded;   /* threads ran, while sampled, where they may not stay: on one CPU
                            together, or outside `cpus` (another team's, or off the allotment) */
} space_t;

static pthread_mutex_t nest_lock = PTHREAD_MUTEX_INITIALIZER; /* one team of a nest decides at a time */

/* The outermost region of r's nest. */
static const rt_region_t *root_of(const rt_region_t *r)
{
    while (r && r->parent_id >= 0)
        r = rt_region_at(r->parent_id);
    return r;
}

/* Whether g is another team of r's nest that runs beside it: the same level
 * under the same outermost region, forked by another thread. */
static int beside(const rt_region_t *g, const rt_region_t *r)
{
    return g != r && !g->construct && g->level == r->level && r->level > 1 &&
           (g->parent_id != r->parent_id || g->parent_index != r->parent_index) && root_of(g) == root_of(r);
}

/* Fill sp for r; cap: [nnodes] scratch for the capacities. */
static void team_space(space_t *sp, const rt_region_t *r, int *cap)
{
    int nd = rt_mach->topo.nnodes, team = r->team_size, total = 0;
    const rt_region_t *q = r->construct ? rt_region_at(r->parent_id) : r; /* a loop runs on its region's team */
    cpu_set_t allotted, taken;
    int allot = rt_affinity_allotment(&allotted) != 0;
    CPU_ZERO(&sp->cpus);
    CPU_ZERO(&taken);
    for (int n = 0; n < nd; n++)
        for (int c = 0; c < rt_mach->topo.capacity[n]; c++) {
            int cpu = rt_mach->topo.cpus[n][c];
            if (cpu < CPU_SETSIZE && (!allot || CPU_ISSET(cpu, &allotted)))
                CPU_SET(cpu, &sp->cpus), total++;
        }
    if (allot && !total) { /* no CPU of this topology: an allotment for another machine */
        allot = 0;
        for (int n = 0; n < nd; n++)
            for (int c = 0; c < rt_mach->topo.capacity[n]; c++)
                if (rt_mach->topo.cpus[n][c] < CPU_SETSIZE)
                    CPU_SET(rt_mach->topo.cpus[n][c], &sp->cpus), total++;
    }
    for (int i = 0; q && q->level > 1 && i < rt_region_count(); i++) {
        const rt_region_t *g = rt_region_at(i);
        for (int t = 0; beside(g, q) && t < g->team_size; t++) {
            int cpu = __atomic_load_n(&g->pin_cpu[t], __ATOMIC_RELAXED);
            if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &sp->cpus))
                CPU_SET(cpu, &taken);
        }
    }
    int ntaken = CPU_COUNT(&taken), avoid = ntaken && total - ntaken >= team;
    if (avoid) {
        CPU_XOR(&sp->cpus, &sp->cpus, &taken);
        total -= ntaken;
    }
    cpu_set_t seen;
    CPU_ZERO(&seen);
    sp->crowded = 0;
    for (int i = 0; i < team; i++) {
        int c = r->seen_cpu[i];
        if (c < 0 || c >= CPU_SETSIZE)
            continue;
        sp->crowded |= CPU_ISSET(c, &seen) || !CPU_ISSET(c, &sp->cpus);
        CPU_SET(c, &seen);
    }
    sp->inside = allot || avoid;
    sp->topo = rt_mach->pl;
    if (!sp->inside)
        return;
    /* A team larger than its CPUs shares them evenly, k threads each
     * (OnDeLocMap+'s rule for ranks), rather than being refused. */
    int k = total ? (team + total - 1) / total : 1;
    for (int n = 0; n < nd; n++) {
        cap[n] = 0;
        for (int c = 0; c < rt_mach->topo.capacity[n]; c++)
            cap[n] += rt_mach->topo.cpus[n][c] < CPU_SETSIZE && CPU_ISSET(rt_mach->topo.cpus[n][c], &sp->cpus);
        cap[n] *= k;
    }
    sp->topo.capacity = cap;
}

/* The CPU of core k (placement's index within node n) in the team's space:
 * the k-th CPU of the node, counting only the space's CPUs when restricted
 * (in turn when the team shares them). */
static int space_cpu(const space_t *sp, int n, int k)
{
    int cnt = 0;
    for (int c = 0; sp->inside && c < rt_mach->topo.capacity[n]; c++)
        cnt += rt_mach->topo.cpus[n][c] < CPU_SETSIZE && CPU_ISSET(rt_mach->topo.cpus[n][c], &sp->cpus);
    if (cnt)
        k %= cnt;
    for (int c = 0; c < rt_mach->topo.capacity[n]; c++) {
        int cpu = rt_mach->topo.cpus[n][c];
        if (!sp->inside || (cpu < CPU_SETSIZE && CPU_ISSET(cpu, &sp->cpus)))
            if (k-- == 0)
                return cpu;
    }
    return rt_mach->topo.cpus[n][0];
}

/* Where r's threads ran while sampled: node[i] and core[i] (the core's index
 * in its node) from seen_cpu; 0 when a CPU is not the topology's. */
static int current_mapping(const rt_region_t *r, int *node, int *core)
{
    for (int i = 0; i < r->team_size; i++) {
        int n = node[i] = rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[i]);
        if (n < 0)
            return 0;
        core[i] = 0;
        for (int c = 0; c < rt_mach->topo.capacity[n]; c++)
            if (rt_mach->topo.cpus[n][c] == r->seen_cpu[i])
                core[i] = c;
    }
    return 1;
}

/* Run the policy on the region's TNT in the team's space; fill
 * st->map_node, cores and st->decided_cpu, and *crowded (team_space). 0 or
 * -1 with errno. The predictions before and after are made on one basis:
 * the node and the core (within its node) each thread ran on while
 * sampled, against the decided ones. */
static int decide(rt_region_t *r, int *cores, int *crowded)
{
    rt_loop_region_t *st = state(r);
    space_t space;
    int *cap = malloc((size_t)rt_mach->topo.nnodes * sizeof *cap);
    if (!cap)
        return -1;
    team_space(&space, r, cap);
    *crowded = space.crowded;
    const pl_topo_t *topo = &space.topo;
    if (rt_policy_run(rt_conf->policy, topo, r->tnt, r->team_size, st->map_node, cores, &st->decision_us) != 0) {
        free(cap);
        return -1;
    }
    for (int i = 0; i < r->team_size; i++)
        st->decided_cpu[i] = space_cpu(&space, st->map_node[i], cores[i]);
    pl_tnt_t tnt = {.nthreads = r->team_size, .nnodes = rt_mach->topo.nnodes, .refs = r->tnt};
    pl_mapping_t map = {.nthreads = r->team_size, .node = st->map_node, .core = cores};
    st->decision_policy = rt_conf->policy;
    pl_predict(topo, &tnt, rt_policy_model(), &map, NULL, &st->predicted_after);
    int *now = malloc((size_t)r->team_size * sizeof *now);
    int *now_core = malloc((size_t)r->team_size * sizeof *now_core);
    st->predicted_before = 0;
    if (now && now_core && current_mapping(r, now, now_core)) {
        pl_mapping_t cur = {.nthreads = r->team_size, .node = now, .core = now_core};
        if (pl_predict(topo, &tnt, rt_policy_model(), &cur, NULL, &st->predicted_before) != 0)
            st->predicted_before = 0;
    }
    free(now);
    free(now_core);
    free(cap);
    return 0;
}

/* Whether every thread already runs on the node the decision gives it. */
static int decision_matches_current(const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    for (int i = 0; i < r->team_size; i++)
        if (rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[i]) != st->map_node[i])
            return 0;
    return 1;
}

/* Why a decision moved nothing (st->note); the ones with numbers are
 * written out by rt_loop_why from the table and the evidence. */
static const char NOTE_HOME[] = "every thread runs on the node of most of its references";
static const char NOTE_NO_BETTER[] = "no better mapping within capacity";
static const char NOTE_TOO_FEW[] = "too few references to decide";
static const char NOTE_NO_GAIN[] = "the policy's mapping is not predicted faster than where the threads run";

/* The node holding most of thread i's references (lowest on ties), -1 none. */
static int data_node(const rt_region_t *r, int i)
{
    int nd = rt_mach->topo.nnodes, best = -1;
    const uint64_t *row = r->tnt + (size_t)i * (size_t)nd;
    for (int n = 0; n < nd; n++)
        if (row[n] && (best < 0 || row[n] > row[best]))
            best = n;
    return best;
}

/* A thread with references that does not run on the node of most of them:
 * its index, or -1 when every thread does. */
static int thread_away(const rt_region_t *r)
{
    for (int i = 0; i < r->team_size; i++) {
        int n = data_node(r, i);
        if (n >= 0 && n != rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[i]))
            return i;
    }
    return -1;
}

/* Whether the gain predicted for moving each thread from the node in
 * `from` (-1: unknown, taken as not moving: a thread never seen sampled
 * has no references either) to st->map_node survives the table's sampling
 * error (pl_evidence); fills st->evidence. */
static int has_evidence(rt_region_t *r, int *from)
{
    rt_loop_region_t *st = state(r);
    size_t cells = (size_t)r->team_size * (size_t)rt_mach->topo.nnodes;
    uint64_t *scratch = malloc(cells * sizeof *scratch);
    for (int i = 0; i < r->team_size; i++)
        if (from[i] < 0)
            from[i] = st->map_node[i];
    pl_tnt_t tnt = {.nthreads = r->team_size, .nnodes = rt_mach->topo.nnodes, .refs = r->tnt};
    int rc = scratch ? pl_evidence(&rt_mach->pl, &tnt, rt_policy_model(), from, st->map_node, scratch, &st->evidence)
                     : -ENOMEM;
    free(scratch);
    return rc == 0 && st->evidence.enough;
}

/* The move the decision asks for lacks evidence: when the model predicts
 * no gain on the table itself, nothing moves (the policy's mapping may
 * answer another question, such as capacity); when the gain does not
 * survive the sampling error, sample more (the table keeps what it has),
 * and after MAX_EXTENSIONS move nothing. */
static void too_thin(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    if (!(st->evidence.gain > 0)) {
        st->note = NOTE_NO_GAIN;
        rt_verbose(1, "region %d: %s (%.0f %%); nothing moves", r->id, st->note, 100 * st->evidence.gain);
        phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
        return;
    }
    if (st->extensions < MAX_EXTENSIONS) {
        st->extensions++;
        rt_verbose(1, "region %d: %llu references: the move is predicted %.0f %% faster, at worst %.0f %% within "
                   "sampling error; sampling %d more executions", r->id, (unsigned long long)st->evidence.refs,
                   100 * st->evidence.gain, 100 * st->evidence.worst, rt_conf->sample);
        phase_reset(r, RT_OUTCOME_SAMPLING, 1);
        return;
    }
    st->note = NOTE_TOO_FEW;
    rt_verbose(1, "region %d: %llu references: the move is predicted %.0f %% faster, at worst %.0f %% within "
               "sampling error: too few to decide; nothing moves", r->id, (unsigned long long)st->evidence.refs,
               100 * st->evidence.gain, 100 * st->evidence.worst);
    phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
}

/* A region whose decision matched where its threads were kept them
 * unpinned; once another region of its team moves threads, it must hold its
 * own placement or it would run on the other region's. A team of a nest
 * holds its CPUs at once: the teams beside it decide around them. */
static void adopt_decision(rt_region_t *g)
{
    for (int i = 0; i < g->team_size; i++)
        __atomic_store_n(&g->pin_cpu[i], state(g)->decided_cpu[i], __ATOMIC_RELAXED);
    g->pins_applied = rt_affinity_applies();
}

/* Whether regions a and b run on the same threads, so that their pins
 * contend: the same team size at the same level, forked by the same
 * thread number (sibling inner teams run side by side on other threads). */
static int same_team(const rt_region_t *a, const rt_region_t *b)
{
    return a->team_size == b->team_size && a->level == b->level && a->parent_index == b->parent_index;
}

static int team_has_pins(const rt_region_t *r)
{
    for (int i = 0; i < rt_region_count(); i++) {
        const rt_region_t *g = rt_region_at(i);
        if (g != r && same_team(g, r) && g->pins_applied && g->pin_cpu[0] >= 0)
            return 1;
    }
    return 0;
}

static void apply(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    for (int i = 0; i < r->team_size; i++) {
        st->prev_pin_cpu[i] = r->pin_cpu[i];
        __atomic_store_n(&r->pin_cpu[i], st->decided_cpu[i], __ATOMIC_RELAXED);
    }
    r->pins_applied = rt_affinity_applies();
    if (!r->pins_applied)
        return;
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        rt_loop_region_t *gs = state(g);
        if (g != r && g->team_size == r->team_size && g->outcome == RT_OUTCOME_UNCHANGED &&
            gs->decided_cpu[0] >= 0 && g->pin_cpu[0] < 0)
            adopt_decision(g);
    }
}

static void log_mapping(const rt_region_t *r, const char *what)
{
    char line[512];
    size_t n = 0;
    for (int i = 0; i < r->team_size && n < sizeof line - 16; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%d", i ? "," : "", r->pin_cpu[i]);
    rt_verbose(1, "region %d (%d threads): %s cpus [%s]%s", r->id, r->team_size, what, line,
               r->pins_applied ? "" : " (dry run: not applied)");
}

/* A kept move is sampled once more, into tnt_after: the evidence that the
 * threads now sit next to their data (its timings are not used). */
static void keep(rt_region_t *r)
{
    phase_reset(r, RT_OUTCOME_KEPT, 1);
    r->confirming = 1;
}

static void end_confirm(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    r->confirming = 0;
    r->measuring = 0;
    window_reset(r);
    uint64_t local = 0, total = 0;
    int nd = rt_mach->topo.nnodes;
    for (int i = 0; i < r->team_size; i++)
        for (int n = 0; n < nd; n++) {
            uint64_t v = st->tnt_after[(size_t)i * (size_t)nd + (size_t)n];
            total += v;
            local += n == st->map_node[i] ? v : 0;
        }
    rt_verbose(1, "region %d: after the move %llu of %llu sampled references are local", r->id,
               (unsigned long long)local, (unsigned long long)total);
}

/*
 * Bubble policy: the tree gave the team its CPUs; critpath decides which
 * thread takes which of them. The policy runs on the team's own topology
 * (each node's capacity = the team's CPUs there) and its answer becomes a
 * permutation of the team's positions, verified like any move.
 */
static void decide_in_team(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    int n = r->team_size, nd = rt_mach->topo.nnodes;
    int *pos_node = malloc((size_t)n * sizeof *pos_node), *cap = calloc((size_t)nd, sizeof *cap);
    int *cores = malloc((size_t)n * sizeof *cores), *perm = malloc((size_t)n * sizeof *perm);
    int rc = -1, same = 1;
    /* Every team is a record of its own, nested ones included (each master's). */
    if (pos_node && cap && cores && perm && rt_bubble_team_nodes(r, pos_node) == 0) {
        for (int i = 0; i < n; i++)
            cap[pos_node[i]]++;
        pl_topo_t topo = rt_mach->pl;
        topo.capacity = cap;
        rc = rt_policy_run(rt_conf->policy, &topo, r->tnt, n, st->map_node, cores, &st->decision_us);
        /* Thread i takes the cores[i]-th of the team's positions on its node. */
        for (int i = 0; rc == 0 && i < n; i++) {
            int k = cores[i], p = 0;
            for (; p < n; p++)
                if (pos_node[p] == st->map_node[i] && k-- == 0)
                    break;
            perm[i] = p;
            same &= perm[i] == rt_bubble_position(r, i);
        }
    }
    int evidence = 0;
    if (rc == 0 && !same) {
        for (int i = 0; i < n; i++)
            cores[i] = pos_node[rt_bubble_position(r, i)]; /* where thread i runs now */
        evidence = has_evidence(r, cores);
    }
    if (rc != 0 || same) {
        st->note = rc ? "no decision inside its bubble (no tree, or the policy refused)"
                     : "every thread already has its place among its bubble's CPUs";
        rt_verbose(1, "region %d: %s", r->id, st->note);
        phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
    } else if (!evidence) {
        too_thin(r);
    } else if (rt_bubble_reorder(r, perm) != 0) {
        st->note = "no decision inside its bubble (out of memory)";
        rt_verbose(1, "region %d: %s", r->id, st->note);
        phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
    } else {
        st->decision_policy = rt_conf->policy;
        rt_verbose(1, "region %d: %s reordered the team inside its bubble in %.1f us", r->id,
                   pl_policy_name(rt_conf->policy), st->decision_us);
        if (r->pins_applied && rt_conf->verify)
            phase_reset(r, RT_OUTCOME_VERIFYING, 0);
        else if (r->pins_applied)
            keep(r);
        else
            phase_reset(r, RT_OUTCOME_DECIDED, 0);
    }
    free(pos_node);
    free(cap);
    free(cores);
    free(perm);
}

/* " (symbol+0xoff, file:line)" for the verbose log: read only when the log
 * is on, at the end of a sampling phase (the symbol tables are read once). */
static const char *region_name(const rt_region_t *r, char *buf, size_t len)
{
    if (rt_log_verbosity < 1 || len < 8)
        return "";
    char sym[640], src[256];
    rt_symbolize(r->codeptr, sym, sizeof sym);
    if (rt_symbol_source(r->codeptr, src, sizeof src) == 0)
        snprintf(buf, len, " (%s, %s)", sym, src);
    else
        snprintf(buf, len, " (%s)", sym);
    return buf;
}

/* Threads or data (rt_data.c): when the data moves alone (moving the
 * threads cannot bring them next to it, or saves less), its move is
 * verified (in dry run, reported) as a thread move is; when it moves with
 * the threads, their move goes on and its verification judges both. */
static int data_alone(rt_region_t *r, int threads, int must, double thread_gain)
{
    rt_loop_region_t *st = state(r);
    if (rt_data_decide(r, st->map_node, st->cp_before_ns, threads, must, thread_gain, st->evidence.moved) != RT_DATA_ALONE)
        return 0;
    if (!rt_affinity_applies())
        phase_reset(r, RT_OUTCOME_DECIDED, 0);
    else if (rt_conf->verify)
        phase_reset(r, RT_OUTCOME_VERIFYING, 0);
    else
        keep(r);
    return 1;
}

static void end_sampling(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    char name[960];
    st->allot_gen = rt_affinity_allotment(NULL);
    if (tnt_empty(r)) {
        rt_verbose(1, "region %d%s: no references from the counter source; placement unchanged", r->id,
                   region_name(r, name, sizeof name));
        phase_reset(r, RT_OUTCOME_NO_DATA, 0);
        return;
    }
    if ((rt_conf->mode == RT_MODE_BUBBLE)) {
        decide_in_team(r);
        return;
    }
    /* The teams of a nest decide one at a time: each sees the CPUs the
     * others took (team_space), and holds its own once decided. */
    int nested = r->level > 1;
    if (nested)
        pthread_mutex_lock(&nest_lock);
    int *cores = malloc((size_t)r->team_size * sizeof *cores), crowded = 0;
    int rc = cores ? decide(r, cores, &crowded) : -1;
    if (rc != 0) {
        if (nested)
            pthread_mutex_unlock(&nest_lock);
        rt_verbose(1, "region %d: the %s policy refused the table (%s); placement unchanged",
                   r->id, pl_policy_name(rt_conf->policy), cores ? strerror(errno) : "out of memory");
        st->note = "the policy refused the table";
        free(cores);
        phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
        return;
    }
    rt_verbose(1, "region %d%s: %s decided in %.1f us, predicted %.3g -> %.3g", r->id,
               region_name(r, name, sizeof name), pl_policy_name(rt_conf->policy), st->decision_us, st->predicted_before, st->predicted_after);
    free(cores);
    int *from = malloc((size_t)r->team_size * sizeof *from);
    for (int i = 0; from && i < r->team_size; i++)
        from[i] = rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[i]);
    int evidence = from && has_evidence(r, from);
    free(from);
    int matches = decision_matches_current(r), threads = !matches && (evidence || crowded);
    if (data_alone(r, threads, crowded, evidence ? st->evidence.worst : 0.0)) {
        if (nested)
            pthread_mutex_unlock(&nest_lock);
        return;
    }
    if (matches && rt_data_wants_more(r) && st->extensions < MAX_EXTENSIONS) {
        st->extensions++;
        rt_verbose(1, "region %d: its data's move is predicted faster, but not beyond sampling error; sampling %d "
                   "more executions", r->id, rt_conf->sample);
        if (nested)
            pthread_mutex_unlock(&nest_lock);
        phase_reset(r, RT_OUTCOME_SAMPLING, 1);
        return;
    }
    if (matches) {
        st->note = thread_away(r) < 0 ? NOTE_HOME : NOTE_NO_BETTER;
        rt_verbose(1, "region %d: %s; nothing to move", r->id, st->note);
        if (nested || team_has_pins(r))
            adopt_decision(r);
        if (nested)
            pthread_mutex_unlock(&nest_lock);
        phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
        return;
    }
    /* Threads that ran where they may not stay (two on one CPU, or on CPUs
     * a team beside them holds or off the rank's allotment) move whatever
     * the model predicts: it sees neither. That is the evidence, and
     * verification still judges the move. */
    if (!evidence && !crowded) {
        if (nested)
            pthread_mutex_unlock(&nest_lock);
        too_thin(r);
        return;
    }
    apply(r);
    if (nested)
        pthread_mutex_unlock(&nest_lock);
    log_mapping(r, "re-pinned to");
    if (r->pins_applied && rt_conf->verify)
        phase_reset(r, RT_OUTCOME_VERIFYING, 0);
    else if (r->pins_applied)
        keep(r);
    else
        phase_reset(r, RT_OUTCOME_DECIDED, 0); /* dry run: nothing moved, nothing timed after */
}

/*
 * What an intrusive source costs is its sampled executions: every sampled
 * page costs the thread that touches it a signal and two mprotects (a TLB
 * shoot-down on every CPU running the process), and its team waits for it
 * at the next barrier (patterns local, 64 faults per execution on this
 * host: 12 ms against 7 ms a sweep). So a region whose every thread is at
 * home beyond sampling error (pl_home: 7 references all local suffice) and
 * which the policy would leave where it is stops sampling at once: nothing
 * will move, and no baseline is needed. Only outermost regions, and the
 * loops placed inside one of their executions, placed by the region loop
 * alone (a nest's teams decide under one lock, bubbles in their tree).
 *
 * A region's first sampled execution is a probe (rt_sample_t.probe): a
 * source that pays per sample takes fewer pages, enough for a home, and the
 * full sample only when the region turns out not to be one. A loop takes
 * full samples from the first: it touches few of its sampled pages an
 * execution, a probe gave a crossed loop too few references to decide
 * (patterns swapped-long, paced: 0.785 -> 0.98 x `off`, its mapping 22 s
 * into a 23 s run), while a home after the first full sample spares a
 * well-placed loop the rest of them.
 */
static int may_stop_home(const rt_region_t *r)
{
    return r->level == 1 && rt_conf->mode == RT_MODE_LOOP && !state(r)->extensions;
}

/* pl_data_promising on r's sample, its threads where they ran. */
static int data_promising(const rt_region_t *r)
{
    int nt = r->team_size, nd = rt_mach->topo.nnodes;
    int *node = malloc((size_t)nt * sizeof *node), *core = malloc((size_t)nt * sizeof *core);
    uint64_t *scratch = malloc((size_t)nt * (size_t)nd * sizeof *scratch);
    int yes = 0;
    if (node && core && scratch && current_mapping(r, node, core)) {
        pl_tnt_t tnt = {.nthreads = nt, .nnodes = nd, .refs = r->tnt};
        pl_mapping_t map = {.nthreads = nt, .node = node, .core = core};
        yes = pl_data_promising(&rt_mach->pl, &tnt, rt_policy_model(), &map, scratch) == 1;
    }
    free(node);
    free(core);
    free(scratch);
    return yes;
}

static int home_early(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    if (!may_stop_home(r) || st->varies)
        return 0;
    uint64_t team_local = 0, team_remote = 0;
    for (int i = 0; i < r->team_size; i++) {
        uint64_t local, remote;
        thread_refs(r, i, &local, &remote);
        if (!pl_home(local, remote))
            return 0;
        team_local += local;
        team_remote += remote;
    }
    /* At home, and yet the data may move: the phase goes on, its end
     * weighs threads and data (an input the primary first touched, of which
     * each thread reads a part beside its own pages: stopped here, its move
     * never came). */
    double promise = 0;
    if (rt_data_on() && (st->data_promised || (data_promising(r) &&
                                                 (promise = rt_data_promise(r)) >= PL_DATA_PROMISE_GAIN))) {
        if (!st->data_promised)
            rt_verbose(1, "region %d: every thread runs on the node of most of its references, %llu of %llu "
                       "of them remote, its data's move predicted %.0f %% faster: sampling goes on for the data",
                       r->id, (unsigned long long)team_remote, (unsigned long long)(team_local + team_remote),
                       100 * promise);
        st->data_promised = 1;
        return 0;
    }
    int *cores = malloc((size_t)r->team_size * sizeof *cores), crowded = 0;
    int same = cores && decide(r, cores, &crowded) == 0 && !crowded && decision_matches_current(r);
    free(cores);
    if (!same)
        return 0;
    st->allot_gen = rt_affinity_allotment(NULL);
    st->note = NOTE_HOME;
    rt_verbose(1, "region %d: %s after %d sampled executions; sampling stops, nothing to move", r->id, st->note,
               st->phase_execs);
    phase_reset(r, RT_OUTCOME_UNCHANGED, 0);
    return 1;
}

/*
 * Regions that want different mappings make their threads re-pin at every
 * switch. When a settled region re-pins every execution and what its move
 * gained (critical path before - after; nothing known without verify) does
 * not pay for what the re-pins cost (measured system-call time), every
 * region of that team (same_team) that moved gets one compromise mapping: the
 * policy's answer for the sum of their TNTs, each weighted by its time.
 * Like any move, it is kept only if the team measures faster under it
 * (judge_compromise); otherwise every region goes back to its own pins and
 * bounces as before, which measured faster, and is never offered one again.
 */
static int bouncing(rt_region_t *r, int execs)
{
    rt_loop_region_t *st = state(r);
    /* Under the bubble policy a team's CPUs come from its tree, which every region of a nest shares. */
    if ((r->outcome != RT_OUTCOME_KEPT && r->outcome != RT_OUTCOME_UNCHANGED) || st->compromise ||
        !r->pins_applied || execs < 1 || (rt_conf->mode == RT_MODE_BUBBLE))
        return 0;
    double rate = (double)(r->repins - st->repins_mark) / execs;
    uint64_t n, ns;
    rt_affinity_totals(&n, &ns);
    double cost = n ? rate * (double)ns / (double)n : 0.0;
    double gain = st->cp_after_ns > 0 ? st->cp_before_ns - st->cp_after_ns : 0.0;
    return rate >= 1.0 && gain <= cost;
}

static int settled_with_pins(const rt_region_t *g)
{
    return (g->outcome == RT_OUTCOME_KEPT || g->outcome == RT_OUTCOME_UNCHANGED) && g->pins_applied &&
           g->pin_cpu[0] >= 0;
}

/* A region that may join a compromise: settled with pins of its own, in no
 * compromise yet, and never one that was undone. */
static int may_compromise(const rt_region_t *g)
{
    return state(g)->compromise == RT_COMPROMISE_NONE && settled_with_pins(g);
}

/* Each member's mean per execution before the compromise and in its first
 * settled window under it, weighted by how often it ran: once every member
 * has both, the compromise is kept if the team is faster, else undone. */
static void judge_compromise(rt_region_t *r)
{
    double alone = 0, shared = 0;
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        rt_loop_region_t *gs = state(g);
        if (!same_team(g, r) || gs->compromise != RT_COMPROMISE_PENDING || !settled_with_pins(g))
            continue;
        if (gs->cp_shared_ns <= 0)
            return; /* a member has not measured it yet */
        alone += gs->cp_alone_ns * (double)g->executions;
        shared += gs->cp_shared_ns * (double)g->executions;
    }
    int keep = shared < alone;
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        rt_loop_region_t *gs = state(g);
        if (!same_team(g, r) || gs->compromise != RT_COMPROMISE_PENDING)
            continue;
        gs->compromise = keep ? RT_COMPROMISE_KEPT : RT_COMPROMISE_UNDONE;
        if (keep)
            continue;
        for (int t = 0; t < g->team_size; t++) {
            __atomic_store_n(&g->pin_cpu[t], gs->decided_cpu[t], __ATOMIC_RELAXED);
            gs->map_node[t] = gs->decided_cpu[t] >= 0 ? rt_topo_node_of_cpu(&rt_mach->topo, gs->decided_cpu[t]) : -1;
        }
        gs->cp_settled_ns = -1; /* the next window holds the switch back: skip it */
    }
    rt_verbose(1, "compromise for the team of region %d: %.0f ns per execution under it, %.0f ns before: %s", r->id,
               shared, alone, keep ? "kept" : "not faster; each region back to its own pins");
}

static void compromise(rt_region_t *r)
{
    int team = r->team_size, nd = rt_mach->topo.nnodes;
    size_t cells = (size_t)team * (size_t)nd;
    double *sum = calloc(cells, sizeof *sum);
    uint64_t *refs = malloc(cells * sizeof *refs);
    int *nodes = malloc((size_t)team * sizeof *nodes), *cores = malloc((size_t)team * sizeof *cores);
    int *cap = malloc((size_t)nd * sizeof *cap);
    int nmembers = 0;
    double us, top = 0;
    if (!sum || !refs || !nodes || !cores || !cap)
        goto out;
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        rt_loop_region_t *gs = state(g);
        if (!same_team(g, r) || !may_compromise(g) || !g->executions)
            continue;
        if (gs->cp_window_ns <= 0)
            goto out; /* a member with no settled window yet: nothing to judge the compromise against */
        double total = 0;
        for (size_t c = 0; c < cells; c++)
            total += (double)g->tnt[c];
        if (total <= 0)
            continue;
        double weight = ((double)g->cp_sum / (double)g->executions) / total;
        for (size_t c = 0; c < cells; c++)
            sum[c] += (double)g->tnt[c] * weight;
        nmembers++;
    }
    for (size_t c = 0; c < cells; c++)
        top = sum[c] > top ? sum[c] : top;
    if (nmembers < 2 || top <= 0)
        goto out;
    /* Integral references again, with a precision of one part in 2^40. */
    for (size_t c = 0; c < cells; c++)
        refs[c] = (uint64_t)(sum[c] / top * (double)(1ull << 40));
    space_t space;
    team_space(&space, r, cap);
    if (rt_policy_run(rt_conf->policy, &space.topo, refs, team, nodes, cores, &us) != 0)
        goto out;
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        rt_loop_region_t *gs = state(g);
        if (!same_team(g, r) || !may_compromise(g))
            continue;
        for (int t = 0; t < team; t++) {
            gs->map_node[t] = nodes[t];
            __atomic_store_n(&g->pin_cpu[t], space_cpu(&space, nodes[t], cores[t]), __ATOMIC_RELAXED);
        }
        gs->compromise = rt_conf->verify ? RT_COMPROMISE_PENDING : RT_COMPROMISE_KEPT;
        gs->cp_alone_ns = gs->cp_window_ns;
        gs->cp_shared_ns = 0;
        gs->cp_settled_ns = -1; /* the next window still holds the switch: skip it */
        log_mapping(g, "compromise: pinned to");
    }
    rt_verbose(1, "%d regions of %d threads re-pinned at every switch; one mapping for all, decided in %.1f us",
               nmembers, team, us);
out:
    free(sum);
    free(refs);
    free(nodes);
    free(cores);
    free(cap);
}

/*
 * A move is kept only when the region measured faster after it than before
 * (fastest against fastest, per position in its cycle when its executions
 * repeat in one, or median against median for a loop): a move
 * that does not earn its keep is undone, whatever the noise (a region was
 * once kept at 253.9 us after against 202.8 us before because a noisy
 * baseline allowed up to 50 %). Undone completely: every thread goes back
 * to the pin it had, and a thread that had none goes back through the CPU
 * it ran on while its references were sampled (rt_affinity_return, at its
 * next begin): given its mask back alone, an unbound thread would stay on
 * the rejected CPU.
 */
static void end_verify(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    st->cp_after_ns = window_cp(r);
    if (rt_data_verified(r, st->cp_before_ns, st->cp_after_ns)) { /* the data moved alone: no thread to restore */
        if (st->cp_after_ns < st->cp_before_ns)
            keep(r);
        else
            phase_reset(r, RT_OUTCOME_ROLLED_BACK, 0);
        return;
    }
    if (!(st->cp_after_ns < st->cp_before_ns)) {
        if (rt_conf->mode == RT_MODE_BUBBLE)
            rt_bubble_restore(r);
        for (int i = 0; rt_conf->mode != RT_MODE_BUBBLE && i < r->team_size; i++) {
            if (st->prev_pin_cpu[i] < 0)
                __atomic_store_n(&r->back_cpu[i], r->seen_cpu[i], __ATOMIC_RELAXED);
            __atomic_store_n(&r->pin_cpu[i], st->prev_pin_cpu[i], __ATOMIC_RELAXED);
        }
        rt_verbose(1, "region %d: critical path %.0f ns after, %.0f ns before (noise %.1f%%): not faster; "
                   "rolled back", r->id, st->cp_after_ns, st->cp_before_ns, 100 * st->noise);
        phase_reset(r, RT_OUTCOME_ROLLED_BACK, 0);
    } else {
        rt_verbose(1, "region %d: critical path %.0f ns -> %.0f ns; kept", r->id, st->cp_before_ns,
                   st->cp_after_ns);
        keep(r);
    }
}

/* r's sampled tables emptied: the TNT, its samples per thread, the one after a move. */
static void tnt_clear(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    size_t cells = (size_t)r->team_size * (size_t)rt_mach->topo.nnodes;
    memset(r->tnt, 0, cells * sizeof *r->tnt);
    memset(st->tnt_samples, 0, (size_t)r->team_size * sizeof *st->tnt_samples);
    memset(st->tnt_after, 0, cells * sizeof *st->tnt_after);
}

/* A new sampling phase for a settled region: a fresh TNT, then a decision
 * with the extensions of a first one. */
static void sample_again(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    tnt_clear(r);
    st->extensions = 0;
    st->data_promised = 0;
    st->resamples++;
    st->cp_settled_ns = 0;
    st->cycle = st->window_n = 0;
    st->ring_n = 0;
    st->positions = 0;
    r->confirming = 0;
    phase_reset(r, RT_OUTCOME_SAMPLING, 1);
}

/* The MPI mapper moved the rank since this region's decision: every thread
 * is on the new allotment (rt_affinity_allot), its pins from before would
 * be refused there, and its data was migrated with the rank. The team goes
 * home (the allotment) and is sampled and decided again inside it. */
static int allotment_moved(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    if (r->outcome == RT_OUTCOME_OFF || r->outcome == RT_OUTCOME_SAMPLING || r->outcome == RT_OUTCOME_VERIFYING ||
        st->allot_gen == rt_affinity_allotment(NULL))
        return 0;
    for (int i = 0; i < r->team_size; i++) {
        st->prev_pin_cpu[i] = -1;
        __atomic_store_n(&r->pin_cpu[i], -1, __ATOMIC_RELAXED);
    }
    st->compromise = RT_COMPROMISE_NONE;
    rt_verbose(1, "region %d: the rank has new CPUs (MPI mapper); sampling again inside them", r->id);
    sample_again(r);
    return 1;
}

void rt_loop_source_declined(rt_region_t *r)
{
    state(r)->declined++;
    state(r)->declined_now = 1;
}

void rt_loop_loops_waiting(rt_region_t *r, int delta)
{
    state(r)->loops_waiting += delta;
}

/* Whether the execution ending was declined by the source's budget: it
 * counts for nothing, and the region waits for one the source arms. */
static int declined_now(rt_region_t *r)
{
    rt_loop_region_t *st = state(r);
    int d = st->declined_now;
    st->declined_now = 0;
    return d;
}

/* The phase has its `sample` executions and stays open only for a source
 * sampled by time whose next reading is not due (RT_SOURCE_WAITS): the
 * executions until it is rest (rt_loop_resting). A source's window lasts
 * seconds (numa_balancing: 2 s at least, up to a minute without faults),
 * and each execution sampled in full costs the team its bookkeeping. */
static int rests(const rt_region_t *r, int execs)
{
    return r->measuring && r->source_pending && r->source_waits && execs >= rt_conf->sample && !r->construct;
}

/* A resting region asks its source's `due` (a clock read and the budget's
 * test) before its executions; one whose executions are short would pay
 * that at every fork: IQ-TREE rests for its whole run with the page sampler
 * named, 28 000 forks of 0.5 to 1 ms in the paced 2-node VM, about 100
 * instructions each (estimated at 1.4 % of the run; its measured time did
 * not show it within the run's spread). A region whose fastest timed
 * execution took less than REST_ASK_NS asks once in REST_ASK_EVERY of its
 * executions after a refusal: an arming comes at most that many of them
 * (16 ms of such executions) late. */
#define REST_ASK_NS 1000000u
#define REST_ASK_EVERY 16

int rt_loop_resting(rt_region_t *r)
{
    if (!r->resting)
        return 0;
    rt_loop_region_t *st = state(r);
    if (st->rest_skip > 0) {
        st->rest_skip--;
    } else {
        rt_sample_t s;
        rt_loop_sample(r, &s);
        if (rt_counters_due(&s)) {
            r->resting = 0;
            st->budget_rest = 0;
            return 0;
        }
        if (r->cp_min < REST_ASK_NS)
            st->rest_skip = REST_ASK_EVERY - 1;
    }
    st->declined += st->budget_rest;
    return 1;
}

int rt_loop_source_sees(rt_region_t *r)
{
    if (!r->blind)
        return 0;
    if (rt_counters_blind()) { /* detached again since */
        r->measuring = 0;
        return 0;
    }
    r->blind = 0;
    tnt_clear(r); /* what an execution forked before the flag showed may have added */
    if (r->outcome == RT_OUTCOME_NO_DATA) {
        phase_reset(r, RT_OUTCOME_SAMPLING, 1);
    } else { /* the monitor's TNT alone (RT_OUTCOME_OFF) */
        r->measuring = 1;
        r->quiet = 0;
        window_reset(r);
    }
    rt_verbose(1, "region %d: the %s source can sample now; sampling begins", r->id,
               rt_source_name(rt_counters_used()));
    return 1;
}

/* A sampling execution of r ended (critical path cp, of which the source's
 * faults took slowed; sampled: an intrusive source sampled it): its ring,
 * the positions sampled, and whether its executions vary ("cycle"). */
static void watch_kinds(rt_region_t *r, uint64_t cp, uint64_t slowed, int sampled)
{
    rt_loop_region_t *st = state(r);
    /* A sampled execution is slower: the ring's run of comparable
     * executions begins again after it. execution_end has counted this one. */
    if (sampled) {
        st->ring_n = 0;
        st->positions |= 1u << ((r->executions - 1) % CYCLE_MAX);
    } else {
        st->ring[st->ring_n++ % CYCLE_RING] = cp;
    }
    if (r->executions < 2 || r->construct)
        return;
    uint64_t fair = cp > slowed ? cp - slowed : 0;
    if (!st->seen_max) {
        st->seen_min = st->seen_max = fair;
        return;
    }
    /* Kinds come back every cycle, a preempted thread now and then: two
     * executions KINDS_APART from the fastest, at least. */
    if ((double)fair > (double)st->seen_min * KINDS_APART || (double)st->seen_max > (double)fair * KINDS_APART)
        st->apart++;
    st->seen_min = fair < st->seen_min ? fair : st->seen_min;
    st->seen_max = fair > st->seen_max ? fair : st->seen_max;
    if (!st->varies && st->apart >= 2) {
        st->varies = 1;
        rt_verbose(1, "region %d: its executions vary (%.3g to %.3g ms while sampled and timed); its sample "
                   "takes every position of a cycle of up to %d, and no home early", r->id, 1e-6 * (double)st->seen_min,
                   1e-6 * (double)st->seen_max, CYCLE_MAX);
    }
}

/* An intrusive source arms one execution at a time: a sampling execution
 * it did not arm waits, uncounted, unless that goes on for long:
 * UNARMED_LONG executions in a row (the source does not arm this region's
 * executions at all: nothing of the program tracked, SIGSEGV blocked), and
 * while another execution holds the source (RT_SOURCE_BUSY) also
 * UNARMED_LONG_NS. Counted, such executions add no reference. Counted by
 * executions alone (once 32, over the region's life), two sibling teams of
 * a nest on a loaded host took turns so slowly that one team's 4 sampled
 * executions were never armed, and it ended with "no references"
 * (tests/runtime/control/loop/nested-teams-own-records.test). */
#define UNARMED_LONG (8 * rt_conf->sample)
#define UNARMED_LONG_NS 5000000000ull
static int waits_unarmed(rt_loop_region_t *st, int busy)
{
    if (!rt_counters_intrusive())
        return 0;
    if (st->armed_execs != st->armed_seen) {
        st->unarmed = 0;
        return 0;
    }
    uint64_t now = rt_now_ns();
    if (st->unarmed++ == 0)
        st->unarmed_since = now;
    return st->unarmed < UNARMED_LONG || (busy && now - st->unarmed_since < UNARMED_LONG_NS);
}

void rt_loop_region_end(rt_region_t *r, uint64_t cp)
{
    rt_loop_region_t *st = state(r);
    int sample = rt_conf->sample;
    int declined = declined_now(r), busy = st->busy_now;
    st->busy_now = 0; /* like declined_now: said of this execution only */
    /* Said before watch_kinds takes this execution's position (execution_end counted it). */
    int skipped = r->executions && position_taken_at(r, r->executions - 1);
    /* A timed execution: it did not rest. Whether the next may: below, or
     * now for one its source declined and will say when it may arm. */
    r->resting = st->budget_rest = declined && r->source_waits;
    if (allotment_moved(r))
        return;
    uint64_t slowed = st->slowed_ns;
    st->slowed_ns = 0;
    if (r->outcome == RT_OUTCOME_SAMPLING)
        watch_kinds(r, cp, slowed, r->measuring && !declined && rt_counters_intrusive() &&
                                   st->armed_execs != st->armed_seen);
    switch (r->outcome) {
    case RT_OUTCOME_OFF:
        /* Only the monitor alone (imar2) measures such a region: its first
         * `sample` sampled executions fill the TNT, then it is only timed. */
        if (r->measuring) {
            if (declined || waits_unarmed(st, busy))
                return;
            st->armed_seen = st->armed_execs;
            if (++st->phase_execs >= sample)
                r->measuring = 0;
        }
        /* Never watched for drift: once its TNT is in (if the monitor wants
         * one), only the report reads its times. */
        r->quiet = !r->measuring;
        return;
    case RT_OUTCOME_SAMPLING:
        if (r->measuring) {
            /* An intrusive source samples one execution at a time: one that
             * another region held (a parent sampling at the same time) does
             * not count, unless that goes on for long; one its budget
             * declined does not count either, nor one at a position the
             * sample took. */
            if (declined || skipped || waits_unarmed(st, busy))
                return;
            st->armed_seen = st->armed_execs;
            /* Counting executions: their times are not a fair baseline when
             * the source slows them, so a timing-only phase follows. A
             * source sampled by time keeps the phase open until its window
             * closed (the executions meanwhile time the baseline). */
            phase_add(r, cp);
            if (rt_counters_intrusive() && home_early(r))
                return;
            if (st->phase_execs < sample || r->source_pending || loop_needs_samples(r)) {
                r->resting = rests(r, st->phase_execs);
                return;
            }
            if (rt_counters_intrusive()) {
                window_reset(r);
                r->measuring = 0;
                return;
            }
            if (!baseline_done(r))
                return;
        } else {
            phase_add(r, cp);
            if (!baseline_done(r))
                return;
        }
        /* What the baseline window says of the critical path (window_cp). */
        st->cp_before_ns = window_cp(r);
        st->noise = st->phase_min ? (double)(st->phase_max - st->phase_min) / (double)st->phase_min : 0.0;
        if (st->cycle > 1)
            rt_verbose(1, "region %d: its executions repeat in a cycle of %d; its windows take %d, the fastest of "
                       "each position counts", r->id, st->cycle, st->window_n);
        end_sampling(r);
        return;
    case RT_OUTCOME_VERIFYING:
        if (r->construct && st->settle < LOOP_SETTLE) {
            st->settle++;
            return;
        }
        phase_add(r, cp);
        if (st->phase_execs >= window_execs(r))
            end_verify(r);
        return;
    default:
        if (r->confirming) {
            if (declined)
                return;
            if (++st->phase_execs >= sample && !r->source_pending)
                end_confirm(r);
            else
                r->resting = rests(r, st->phase_execs);
            return;
        }
        /* Settled: watch for drift over windows of executions. */
        phase_add(r, cp);
        if (st->phase_execs < DRIFT_WINDOW * sample)
            return;
        {
            /* The reference is the first window after settling: the region's
             * time with the placement it kept, whatever happened before. */
            double mean = phase_mean(r);
            int bounced = bouncing(r, st->phase_execs);
            st->repins_mark = r->repins;
            st->cp_window_ns = mean;
            if (bounced) {
                compromise(r);
            } else if (st->cp_settled_ns < 0) {
                st->cp_settled_ns = 0;
            } else if (st->cp_settled_ns == 0) {
                st->cp_settled_ns = mean;
                /* Not watched for drift (below): timed rarely from now on. */
                r->quiet = mean < DRIFT_MIN_NS || r->outcome == RT_OUTCOME_NO_DATA;
                if (st->compromise == RT_COMPROMISE_PENDING) {
                    st->cp_shared_ns = mean;
                    judge_compromise(r);
                }
            } else if (r->outcome != RT_OUTCOME_NO_DATA && st->cp_settled_ns >= DRIFT_MIN_NS &&
                       (mean > st->cp_settled_ns * (1 + DRIFT) || mean < st->cp_settled_ns / (1 + DRIFT))) {
                rt_verbose(1, "region %d: critical path drifted %.0f -> %.0f ns; sampling again", r->id,
                           st->cp_settled_ns, mean);
                sample_again(r);
                return;
            }
            window_reset(r);
        }
        return;
    }
}

/* The loops of r placed while it ran (rt_events.c), and the first one's id. */
static int loops_of(const rt_region_t *r, int *first)
{
    int n = 0;
    if (r->executions > 1)
        return 0;
    for (int i = 0; i < rt_region_count(); i++) {
        const rt_region_t *g = rt_region_at(i);
        if (g->construct && g->parent_id == r->id && !n++)
            *first = g->id;
    }
    return n;
}

void rt_loop_why(const rt_region_t *r, char *buf, size_t len)
{
    const rt_loop_region_t *st = state(r);
    int first_loop = -1;
    int sample = rt_conf->sample;
    rt_source_t src = rt_counters_used();
    buf[0] = '\0';
    switch (r->outcome) {
    case RT_OUTCOME_OFF:
        if (!rt_mach->ok)
            snprintf(buf, len, "placement is off (no topology)");
        else if (rt_mach->topo.nnodes < 2)
            snprintf(buf, len, "one NUMA node: nothing to place");
        else if (rt_conf->mode == RT_MODE_MONITOR)
            snprintf(buf, len, "no decision per region (OMP_PLACEMENT=imar2: threads migrate online only)");
        else
            snprintf(buf, len, "placement is off (OMP_PLACEMENT=off)");
        return;
    case RT_OUTCOME_SAMPLING:
        if (src == RT_SOURCE_AUTO)
            snprintf(buf, len, "no counter source works here (ompnuma topo says why); ran %llu executions",
                     (unsigned long long)r->executions);
        else if (loops_of(r, &first_loop))
            snprintf(buf, len, "ran %llu executions; its %d repeating loops are placed while it runs "
                     "(regions %d and on)", (unsigned long long)r->executions, loops_of(r, &first_loop), first_loop);
        else if (r->measuring && r->construct)
            snprintf(buf, len, "ran %llu executions: %d sampled, until each thread has %d references or they have "
                     "%d each on average (at most %d)", (unsigned long long)r->executions, st->phase_execs,
                     LOOP_MIN_EACH, LOOP_MIN_SAMPLES, LOOP_MAX_SAMPLED * sample);
        else if (r->measuring)
            snprintf(buf, len, "ran %llu executions: %d of the %d sampled ones it needs%s",
                     (unsigned long long)r->executions, st->phase_execs, sample,
                     rt_counters_intrusive() ? ", then as many unsampled ones for a clean baseline" : "");
        else if (st->phase_execs < sample)
            snprintf(buf, len, "ran %llu executions: sampled, %d of the %d clean ones it needs for a baseline",
                     (unsigned long long)r->executions, st->phase_execs, sample);
        else
            snprintf(buf, len, "ran %llu executions: sampled, %d clean ones of times that vary, of the up to %d "
                     "it takes to show a cycle of up to %d", (unsigned long long)r->executions, st->phase_execs,
                     sample + CYCLE_MAX, CYCLE_MAX);
        unsigned long long declined = r->measuring ? st->declined : 0;
        int waiting = st->loops_waiting;
        if (declined || waiting > 0) {
            size_t used = strlen(buf);
            if (declined && waiting > 0)
                used += (size_t)snprintf(buf + used, len - used, "; %llu not sampled, nor its %d repeating loops",
                                         declined, waiting);
            else if (declined)
                used += (size_t)snprintf(buf + used, len - used, "; %llu not sampled", declined);
            else
                used += (size_t)snprintf(buf + used, len - used, "; its %d repeating loops not sampled", waiting);
            if (used < len)
                snprintf(buf + used, len - used, ": the %s source keeps its cost within %g %% of the run so far "
                         "(budget=)", rt_source_name(src), rt_conf->budget);
        }
        return;
    case RT_OUTCOME_VERIFYING:
        snprintf(buf, len, "%s; ran %d of the %d executions that verify the move (ran %llu in all)",
                 st->cached ? "started from the cached mapping" : "moved", st->phase_execs, window_execs(r),
                 (unsigned long long)r->executions);
        return;
    case RT_OUTCOME_NO_DATA:
    {
        const char *hints = src != RT_SOURCE_HINTS ? ""
                            : rt_counters_kernel_balances()
                                ? " (the program attached no buffer with omp_numa_attach); Linux's NUMA balancing "
                                  "places the pages here (source=numa_balancing samples its faults)"
                                : " (the program attached no buffer with omp_numa_attach)";
        if (r->blind)
            snprintf(buf, len, "not sampled: the %s source had nothing to sample%s", rt_source_name(src), hints);
        else
            snprintf(buf, len, "no references from the %s source in %d sampled executions%s", rt_source_name(src),
                     sample,
                     src == RT_SOURCE_PAGEFAULT && rt_conf->track != RT_TRACK_ALL
                         ? " (track=all also covers the program's static arrays)"
                         : hints);
        return;
    }
    case RT_OUTCOME_UNCHANGED:
        if (st->note == NOTE_TOO_FEW) {
            snprintf(buf, len, "%llu references (%llu for the thread with fewest, in %d sampling phases): too few "
                     "to decide: the move is predicted %.0f %% faster, %.0f %% within sampling error",
                     (unsigned long long)st->evidence.refs, (unsigned long long)st->evidence.least, st->extensions + 1,
                     100 * st->evidence.gain, 100 * st->evidence.worst);
        } else if (st->note == NOTE_NO_BETTER) {
            int t = thread_away(r);
            snprintf(buf, len, "no better mapping within capacity: thread %d runs on node %d, most of its "
                     "references are on node %d", t, t >= 0 ? rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[t]) : -1,
                     t >= 0 ? data_node(r, t) : -1);
        } else {
            snprintf(buf, len, "%s", st->note ? st->note : "nothing to move");
        }
        return;
    default:
        return; /* kept, rolled back, decided: a decision is in effect */
    }
}

void rt_loop_hinted(rt_region_t *r, const int *nodes, const int *cpus, const int *pin)
{
    rt_loop_region_t *st = state(r);
    int moved = 0;
    for (int t = 0; t < r->team_size; t++) {
        st->decided_cpu[t] = cpus[t];
        if (pin[t] >= 0) {
            __atomic_store_n(&r->pin_cpu[t], pin[t], __ATOMIC_RELAXED);
            moved++;
        }
    }
    if (!moved)
        return;
    r->pins_applied = rt_affinity_applies();
    for (int t = 0; t < r->team_size; t++)
        st->map_node[t] = nodes[t];
}

void rt_loop_source_armed(rt_region_t *r)
{
    state(r)->armed_execs++;
}

void rt_loop_source_busy(rt_region_t *r)
{
    state(r)->busy_now = 1;
}

int rt_loop_adopt(rt_region_t *r, const int *cpus, double before_ns)
{
    rt_loop_region_t *st = state(r);
    if ((r->outcome != RT_OUTCOME_SAMPLING && !(r->blind && r->outcome == RT_OUTCOME_NO_DATA)) || r->executions) {
        errno = EINVAL;
        return -1;
    }
    r->blind = 0;
    for (int i = 0; i < r->team_size; i++) {
        st->decided_cpu[i] = cpus[i];
        st->map_node[i] = rt_topo_node_of_cpu(&rt_mach->topo, cpus[i]);
    }
    st->decision_policy = rt_conf->policy;
    st->cp_before_ns = before_ns;
    st->cached = 1;
    apply(r);
    log_mapping(r, "cached mapping: pinned to");
    if (r->pins_applied && rt_conf->verify && before_ns > 0)
        phase_reset(r, RT_OUTCOME_VERIFYING, 0);
    else if (r->pins_applied)
        keep(r);
    else
        phase_reset(r, RT_OUTCOME_DECIDED, 0);
    return 0;
}

void rt_loop_report_json(FILE *f, const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    int nd = rt_mach->topo.nnodes;
    fprintf(f, ",\"tnt\":[");
    for (int i = 0; i < r->team_size; i++) {
        fputs(i ? "," : "", f);
        rt_json_u64_array(f, r->tnt + (size_t)i * (size_t)nd, nd);
    }
    fprintf(f, "],\"tnt_after\":[");
    for (int i = 0; i < r->team_size; i++) {
        fputs(i ? "," : "", f);
        rt_json_u64_array(f, st->tnt_after + (size_t)i * (size_t)nd, nd);
    }
    fprintf(f, "],\"tnt_samples\":");
    rt_json_u64_array(f, st->tnt_samples, r->team_size);
    fprintf(f, ",\"mapping\":");
    if (st->map_node[0] >= 0)
        rt_json_int_array(f, st->map_node, r->team_size);
    else
        fputs("null", f);
    fprintf(f, ",\"cpus\":");
    rt_json_int_array(f, r->pin_cpu, r->team_size);
    fprintf(f, ",\"seen_cpus\":");
    rt_json_int_array(f, r->seen_cpu, r->team_size);
    int shared = st->compromise == RT_COMPROMISE_PENDING || st->compromise == RT_COMPROMISE_KEPT;
    fprintf(f, ",\"pins_applied\":%s,\"repins\":%llu,\"compromise\":%s,\"compromise_undone\":%s,\"cached\":%s,"
            "\"outcome\":",
            r->pins_applied ? "true" : "false", (unsigned long long)r->repins, shared ? "true" : "false",
            st->compromise == RT_COMPROMISE_UNDONE ? "true" : "false",
            st->cached ? "true" : "false");
    rt_json_string(f, rt_outcome_name(r->outcome));
    char why[RT_LOOP_WHY_MAX];
    rt_loop_why(r, why, sizeof why);
    fprintf(f, ",\"why\":");
    if (why[0])
        rt_json_string(f, why);
    else
        fputs("null", f);
    fprintf(f, ",\"decision\":");
    if (st->map_node[0] >= 0) {
        fprintf(f, "{\"policy\":");
        rt_json_string(f, pl_policy_name((pl_policy_t)st->decision_policy));
        fprintf(f, ",\"decision_us\":%.2f,\"predicted_before\":%.6g,\"predicted_after\":%.6g,\"noise\":%.4f,"
                "\"cycle\":%d,\"evidence\":{\"references\":%llu,\"least\":%llu,\"moved\":%d,\"gain\":%.6g,"
                "\"worst\":%.6g,\"enough\":%s,\"extensions\":%d}}",
                st->decision_us, st->predicted_before, st->predicted_after, st->noise, st->cycle > 1 ? st->cycle : 1,
                (unsigned long long)st->evidence.refs, (unsigned long long)st->evidence.least, st->evidence.moved,
                st->evidence.gain, st->evidence.worst, st->evidence.enough ? "true" : "false", st->extensions);
    } else {
        fputs("null", f);
    }
}

void rt_loop_report_json_phases(FILE *f, const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    fprintf(f, ",\"resamples\":%d,\"allotment\":%u", st->resamples, st->allot_gen);
}

void rt_loop_report_text(FILE *f, const rt_region_t *r)
{
    const rt_loop_region_t *st = state(r);
    char why[RT_LOOP_WHY_MAX];
    rt_loop_why(r, why, sizeof why);
    if (why[0])
        fprintf(f, "ompnuma: %3s why: %s\n", "", why);
    if (st->map_node[0] >= 0 && st->evidence.refs)
        fprintf(f, "ompnuma: %3s evidence: %llu references (fewest for a thread %llu), %d threads moved, "
                "predicted %.0f %% faster, %.0f %% at worst\n", "", (unsigned long long)st->evidence.refs,
                (unsigned long long)st->evidence.least, st->evidence.moved, 100 * st->evidence.gain,
                100 * st->evidence.worst);
}
