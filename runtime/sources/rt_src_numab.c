/* rt_src_numab.c: the numa_balancing counter source: each thread's NUMA hinting faults per node, each thread's own, read from /proc/thread-self/sched over a time window around a region's sampled executions. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_core.h"
#include "rt_sys.h"
#include "rt_log.h"
#include "rt_procfs.h"
#include "rt_settings.h"
#include "rt_src_numab.h"
#include "rt_sources.h"
#include "rt_topology.h"

/*
 * What the kernel already samples. With automatic NUMA balancing on, the
 * kernel makes a slice of each process's memory inaccessible every scan
 * period (numa_balancing scan_period_min_ms, 1 s by default, after a first
 * scan_delay_ms, 1 s) and counts, per thread, the faults taken on each
 * node's pages; /proc/thread-self/sched shows a thread its own
 * (numa_faults lines). Each team thread reads its own, never another's
 * (rt_procfs.h: reading another running thread's made the kernel migrate
 * later): the source needs no PMU, protects nothing and touches none of the
 * program's memory.
 *
 * Sampling is by time, not by execution count: the kernel folds a scan
 * pass's faults into what /proc shows only at the thread's first fault of
 * the next pass. A region's window opens before its first sampled
 * execution, where each thread reads its base as it begins; every `window`
 * ms the primary asks for new readings, which the threads make as they
 * begin the next execution, and reads at its end. The window closes once
 * every team thread's faults showed (see GRACE, GIVE_UP); until then
 * region_end answers RT_SOURCE_PENDING and the loop keeps the phase open.
 * Between two readings no execution needs the threads (RT_SOURCE_WAITS):
 * the primary asks before each fork whether one is due (due), and the
 * executions in between run as settled ones: a region of short executions
 * had every execution of its window sampled in full, thousands a window
 * (tests/runtime/sources/numab-rests-between-readings-vm.test: 200 of 200
 * timed, 2 now).
 *
 * What a window counts: every fault the kernel folded for the team's
 * threads meanwhile, whichever code took it; regions that alternate within
 * a scan period share what their threads did. Estimates (decay, migrated
 * pages): rt_src_numab.h. Memory with an explicit memory policy (mbind,
 * numa_alloc_onnode) is not scanned by kernels before 5.12 and is not on
 * later ones unless the policy asks for it (MPOL_F_NUMA_BALANCING).
 *
 * Cost: a read of a small /proc file by each team thread when a window
 * opens and each `window` ms, and a clock read per sampled execution; windows are allocated once per region slot
 * and never freed (a thread of a shared nested record may still write its
 * TID into one).
 */

#define MAX_WINDOWS 64
#define MAX_TEAM 1024
/* A region whose threads had no fault folded this long after its window
 * opened gets no data: GIVE_UP windows, and at least GIVE_UP_MS (the
 * kernel's first scan waits scan_delay_ms, its passes may be a minute
 * apart once it decided the memory is well placed). */
#define GIVE_UP 8
#define GIVE_UP_MS 60000
/* Once one thread's faults showed, the others' are waited for this long
 * (GRACE windows, at least GRACE_MS: a scan pass reaches each thread's
 * memory at its own moment, the default pass period is 1 s). */
#define GRACE 4
#define GRACE_MS 3000
#define READ_BUF (16 * 1024)   /* a sched file: ~2.5 KiB and 90 bytes per node */

typedef struct window {
    int               used;          /* open for the region below */
    const void       *codeptr;
    int               parent_id;
    int               parent_index;
    int               team_size;
    int               capacity;      /* arrays below hold this many threads */
    pid_t            *tid;           /* [capacity] each index's thread, set at thread_begin */
    pid_t            *base_tid;      /* [capacity] whose statistics base holds (0: none yet) */
    rt_numa_faults_t *base;          /* [capacity] its own reading as it began its first sampled execution */
    rt_numa_faults_t *now;           /* [capacity] its own reading answering request got[] */
    unsigned         *got;           /* [capacity] */
    unsigned          asked;         /* the primary's last request for readings; 0 none */
    int               answering;     /* asked is outstanding: the next execution's threads answer it */
    int               started;       /* the first sampled execution ended: the window's clock runs */
    uint64_t          t_first, t_start, t_data; /* window opened, last read, first faults seen */
    uint64_t         *est;           /* [capacity * RT_NUMA_FAULTS_NODES] faults since base */
} window_t;

static window_t windows[MAX_WINDOWS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the estimate (pure) ---- */

uint64_t rt_numab_estimate(const rt_numa_faults_t *before, const rt_numa_faults_t *after, uint64_t *est)
{
    int nodes = after->nodes > before->nodes ? after->nodes : before->nodes;
    /* The counts change only when the thread folds (and then always, by
     * the decay or by new faults): unchanged counts mean no fold, whatever
     * the scan sequence or the migrations (counted at the fault) did. */
    int changed = after->total != before->total;
    for (int n = 0; n < RT_NUMA_FAULTS_NODES; n++) {
        est[n] = 0;
        changed |= after->faults[n] != before->faults[n];
    }
    if (!changed)
        return 0;
    uint64_t passes = after->scan_seq > before->scan_seq ? after->scan_seq - before->scan_seq : 0;
    int k = passes > 63 ? 63 : (int)passes;
    if (k == 0)
        k = 1; /* a thread that lagged a pass folds once without the sequence moving */
    uint64_t total = 0;
    for (int n = 0; n < nodes; n++) {
        uint64_t keep = before->faults[n];
        for (int i = 0; i < k && keep; i++)
            keep -= keep / 2; /* the kernel: mem += buffered - mem / 2 */
        est[n] = after->faults[n] > keep ? after->faults[n] - keep : 0;
        total += est[n];
    }
    /* Migrated pages: counted on the thread's node, found elsewhere. */
    int cur = after->current_node;
    uint64_t migrated = after->pages_migrated > before->pages_migrated ? after->pages_migrated - before->pages_migrated : 0;
    if (!migrated || cur < 0 || cur >= nodes || !est[cur] || nodes < 2)
        return total;
    double weight = (2.0 - 1.0 / (double)(1ull << (k - 1))) / k; /* mean decay over k passes: 1, 3/4, 7/12 ... */
    uint64_t moved = (uint64_t)((double)migrated * weight + 0.5);
    if (moved > est[cur])
        moved = est[cur];
    est[cur] -= moved;
    uint64_t others = 0;
    for (int n = 0; n < nodes; n++)
        others += n != cur ? est[n] : 0;
    uint64_t given = 0;
    int last = -1;
    for (int n = 0; n < nodes; n++) {
        if (n == cur)
            continue;
        uint64_t share = others ? (uint64_t)((double)moved * (double)est[n] / (double)others)
                                : moved / (uint64_t)(nodes - 1);
        if (others && !est[n])
            continue;
        est[n] += share;
        given += share;
        last = n;
    }
    if (last >= 0)
        est[last] += moved - given; /* what rounding left */
    return total;
}

/* ---- the probe ---- */

static int probe(char *why, size_t len)
{
    char buf[READ_BUF];
    rt_numa_faults_t f;
    if (rt_numa_faults_read_self(buf, sizeof buf, &f) != 0) {
        snprintf(why, len, "no numa_faults in /proc/thread-self/sched (a kernel without CONFIG_NUMA_BALANCING "
                 "or CONFIG_SCHED_DEBUG)");
        return -1;
    }
    int mode = rt_numa_balancing_mode();
    char off[128] = "";
    if (mode < 0)
        snprintf(off, sizeof off, "no /proc/sys/kernel/numa_balancing");
    else if (!(mode & 1))
        snprintf(off, sizeof off, "kernel.numa_balancing=%d (%s; root can set it to 1)", mode,
                 mode ? "memory tiering only" : "off");
    if (!rt_topo_is_kernels(&rt_mach->topo)) {
        snprintf(why, len, "the topology is not this machine's: the kernel's nodes mean nothing there%s%s",
                 off[0] ? "; " : "", off);
        return -1;
    }
    if (rt_mach->topo.nnodes < 2) {
        snprintf(why, len, "one NUMA node: the kernel balances nothing%s%s", off[0] ? "; " : "", off);
        return -1;
    }
    if (off[0]) {
        snprintf(why, len, "%s", off);
        return -1;
    }
    return 0;
}

static void start(void)
{
    rt_verbose(1, "numa_balancing source: windows of at least %d ms", rt_conf->window_ms);
}

/* ---- windows ---- */

static window_t *find(const rt_sample_t *s)
{
    for (int i = 0; i < MAX_WINDOWS; i++) {
        window_t *w = &windows[i];
        if (__atomic_load_n(&w->used, __ATOMIC_ACQUIRE) && w->codeptr == s->codeptr &&
            w->parent_id == s->parent_id && w->parent_index == s->parent_index && w->team_size == s->team_size)
            return w;
    }
    return NULL;
}

static window_t *open_window(const rt_sample_t *s)
{
    pthread_mutex_lock(&lock);
    window_t *w = find(s), *slot = NULL;
    for (int i = 0; !w && i < MAX_WINDOWS && !slot; i++)
        if (!windows[i].used && (windows[i].capacity >= s->team_size || !windows[i].capacity))
            slot = &windows[i];
    if (!w && slot) {
        if (slot->capacity < s->team_size) {
            size_t n = (size_t)s->team_size;
            slot->tid = calloc(n, sizeof *slot->tid);
            slot->base_tid = calloc(n, sizeof *slot->base_tid);
            slot->base = calloc(n, sizeof *slot->base);
            slot->now = calloc(n, sizeof *slot->now);
            slot->got = calloc(n, sizeof *slot->got);
            slot->est = calloc(n * RT_NUMA_FAULTS_NODES, sizeof *slot->est);
            if (!slot->tid || !slot->base_tid || !slot->base || !slot->now || !slot->got || !slot->est) {
                free(slot->est);
                free(slot->got);
                free(slot->now);
                free(slot->tid);
                free(slot->base_tid);
                free(slot->base);
                memset(slot, 0, sizeof *slot);
                pthread_mutex_unlock(&lock);
                return NULL;
            }
            slot->capacity = s->team_size;
        }
        memset(slot->tid, 0, (size_t)slot->capacity * sizeof *slot->tid);
        memset(slot->base_tid, 0, (size_t)slot->capacity * sizeof *slot->base_tid);
        memset(slot->got, 0, (size_t)slot->capacity * sizeof *slot->got);
        slot->codeptr = s->codeptr;
        slot->parent_id = s->parent_id;
        slot->parent_index = s->parent_index;
        slot->team_size = s->team_size;
        slot->asked = 0;
        slot->answering = 0;
        slot->started = 0;
        __atomic_store_n(&slot->used, 1, __ATOMIC_RELEASE);
        w = slot;
    }
    pthread_mutex_unlock(&lock);
    if (!w)
        rt_verbose(1, "numa_balancing: region %d: every window is in use; not sampled now", s->id);
    return w;
}

static void close_window(window_t *w)
{
    __atomic_store_n(&w->used, 0, __ATOMIC_RELEASE);
}

static void region_begin(const rt_sample_t *s, const void *team)
{
    (void)team;
    if (!s->record || s->team_size > MAX_TEAM || find(s))
        return;
    open_window(s);
}

/* Each thread reads its own statistics, never another's (rt_procfs.h says
 * why): as it begins its first sampled execution of the window (its base:
 * the migrations that execution causes count at once, its faults a pass
 * later, so both fall inside), and as it begins the execution after each
 * request of the primary's (region_end), which the primary reads at the end
 * of that execution. No allocation: the file is read into the stack. */
static void thread_begin(const rt_sample_t *s, int index, const void *team)
{
    (void)team;
    window_t *w = find(s);
    if (!w || index < 0 || index >= w->team_size)
        return;
    pid_t me = rt_gettid();
    __atomic_store_n(&w->tid[index], me, __ATOMIC_RELAXED);
    unsigned asked = __atomic_load_n(&w->asked, __ATOMIC_ACQUIRE);
    int fresh = w->base_tid[index] != me; /* its first execution here, or a new thread in its place */
    if (!fresh && w->got[index] == asked)
        return;
    char buf[READ_BUF];
    rt_numa_faults_t f;
    if (rt_numa_faults_read_self(buf, sizeof buf, &f) != 0)
        return;
    if (fresh) {
        w->base[index] = f;
        w->base_tid[index] = me;
    }
    w->now[index] = f;
    __atomic_store_n(&w->got[index], asked, __ATOMIC_RELEASE);
}

/* Each thread's faults from its base to its answer to the last request,
 * into w->est; returns how many threads have enough to show, *readable how
 * many answered. */
static int read_window(window_t *w, int *readable)
{
    int with_data = 0;
    *readable = 0;
    for (int t = 0; t < w->team_size; t++) {
        uint64_t *est = &w->est[(size_t)t * RT_NUMA_FAULTS_NODES];
        memset(est, 0, RT_NUMA_FAULTS_NODES * sizeof *est);
        pid_t tid = __atomic_load_n(&w->tid[t], __ATOMIC_RELAXED);
        if (!tid || tid != w->base_tid[t] || __atomic_load_n(&w->got[t], __ATOMIC_ACQUIRE) != w->asked)
            continue;
        const rt_numa_faults_t now = w->now[t];
        (*readable)++;
        /* Migrations count at the fault, the fault a pass later: a thread
         * whose folded faults are far fewer than its migrations has most of
         * its faults still to show. */
        uint64_t total = rt_numab_estimate(&w->base[t], &now, est);
        uint64_t migrated = now.pages_migrated > w->base[t].pages_migrated
                                ? now.pages_migrated - w->base[t].pages_migrated : 0;
        with_data += total > 0 && 2 * total >= migrated;
        if (rt_log_verbosity >= 2 && now.nodes >= 2)
            rt_verbose(2, "numa_balancing: thread %d (tid %d) on node %d: faults %llu,%llu -> %llu,%llu, "
                       "migrated +%llu, passes +%llu; estimate %llu,%llu", t, (int)tid, now.current_node,
                       (unsigned long long)w->base[t].faults[0], (unsigned long long)w->base[t].faults[1],
                       (unsigned long long)now.faults[0], (unsigned long long)now.faults[1],
                       (unsigned long long)(now.pages_migrated - w->base[t].pages_migrated),
                       (unsigned long long)(now.scan_seq - w->base[t].scan_seq), (unsigned long long)est[0],
                       (unsigned long long)est[1]);
    }
    return with_data;
}

static uint64_t commit(window_t *w, const rt_sample_t *s)
{
    uint64_t added = 0;
    for (int t = 0; t < w->team_size; t++)
        for (int k = 0; k < RT_NUMA_FAULTS_NODES; k++) {
            uint64_t v = w->est[(size_t)t * RT_NUMA_FAULTS_NODES + (size_t)k];
            int node = v ? rt_topo_node_of_os(&rt_mach->topo, k) : -1;
            if (node < 0 || node >= s->nnodes)
                continue;
            s->tnt[(size_t)t * (size_t)s->nnodes + (size_t)node] += v;
            if (s->samples)
                s->samples[t] += v;
            added += v;
        }
    return added;
}

/* A window whose last reading is `window` ms old asks for the next: the
 * threads answer as they begin the next execution. Whether it asked. */
static int ask_if_time(window_t *w, uint64_t now, uint64_t window_ns)
{
    if (now - w->t_start < window_ns)
        return 0;
    unsigned next = w->asked + 1 ? w->asked + 1 : 1;
    __atomic_store_n(&w->asked, next, __ATOMIC_RELEASE);
    w->answering = 1;
    return 1;
}

/* Before a fork while the window waits: a reading asked for, or due now. */
static int due(const rt_sample_t *s)
{
    window_t *w = find(s);
    if (!w || !w->started || w->answering)
        return 1;
    return ask_if_time(w, rt_now_ns(), (uint64_t)rt_conf->window_ms * 1000000ull);
}

static int region_end(const rt_sample_t *s, uint64_t *added)
{
    window_t *w = find(s);
    if (!w)
        return 0;
    if (!s->record) {
        close_window(w);
        return 0;
    }
    uint64_t now = rt_now_ns(), window_ns = (uint64_t)rt_conf->window_ms * 1000000ull;
    if (!w->started) {
        w->started = 1;
        w->t_first = w->t_start = now;
        w->t_data = 0;
        return RT_SOURCE_PENDING | RT_SOURCE_WAITS;
    }
    if (!w->answering)
        return ask_if_time(w, now, window_ns) ? RT_SOURCE_PENDING : RT_SOURCE_PENDING | RT_SOURCE_WAITS;
    w->answering = 0;
    int readable, with_data = read_window(w, &readable);
    uint64_t give_up = (uint64_t)GIVE_UP * window_ns, grace = (uint64_t)GRACE * window_ns;
    if (give_up < GIVE_UP_MS * 1000000ull)
        give_up = GIVE_UP_MS * 1000000ull;
    if (grace < GRACE_MS * 1000000ull)
        grace = GRACE_MS * 1000000ull;
    if (with_data && !w->t_data)
        w->t_data = now;
    /* Threads fold their faults at different moments (each at its own
     * first fault of a pass): wait for all, or a while after the first. */
    if ((!with_data || with_data < readable) && now - w->t_first < give_up &&
        !(w->t_data && now - w->t_data >= grace)) {
        w->t_start = now;
        return RT_SOURCE_PENDING | RT_SOURCE_WAITS;
    }
    *added = commit(w, s);
    rt_verbose(2, "numa_balancing: region %d: %llu hinting faults in %.0f ms, %d of %d threads had enough", s->id,
               (unsigned long long)*added, (double)(now - w->t_first) / 1e6, with_data, w->team_size);
    close_window(w);
    return 0;
}

const rt_source_ops_t rt_source_numab = {
    .probe = probe,
    .start = start,
    .region_begin = region_begin,
    .thread_begin = thread_begin,
    .region_end = region_end,
    .due = due,
    .intrusive = 0,
};
