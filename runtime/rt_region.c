/* rt_region.c: the region table (lock-free lookup) and the per-thread events that time each region. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_affinity.h"
#include "rt_bubble.h"
#include "rt_counters.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_runtime.h"

/* Open addressing over (codeptr, team size, parent). A program has tens of
 * regions, rarely hundreds; a full table leaves new regions unmeasured. */
#define TABLE_SIZE 4096
#define TABLE_MASK (TABLE_SIZE - 1)

static rt_region_t *table[TABLE_SIZE];       /* published with release stores */
static rt_region_t *by_id[TABLE_SIZE];
static int nregions;                         /* written under insert_lock */
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const outcome_names[RT_OUTCOME_COUNT] = {
    "sampling", "verifying", "kept", "rolled_back", "unchanged", "no_data", "off",
};

const char *rt_outcome_name(rt_outcome_t o)
{
    return (unsigned)o < RT_OUTCOME_COUNT ? outcome_names[o] : "?";
}

uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A region is its code address, its team size and its parent region: the
 * parent tells nesting levels apart even when a compiler's tail calls give
 * several levels the same return address. */
static inline unsigned slot_of(const void *codeptr, int team_size, int parent_id)
{
    uint64_t h = (uint64_t)(uintptr_t)codeptr * 0x9E3779B97F4A7C15ull ^ (uint64_t)team_size * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(parent_id + 1) * 0x165667B19E3779F9ull;
    return (unsigned)(h >> 40) & TABLE_MASK;
}

static inline int same(const rt_region_t *r, const void *codeptr, int team_size, int parent_id)
{
    return r->codeptr == codeptr && r->team_size == team_size && r->parent_id == parent_id;
}

static void region_free(rt_region_t *r)
{
    free(r->slot);
    free(r->busy_sum);
    free(r->tnt);
    free(r->tnt_samples);
    free(r->tnt_after);
    free(r->map_node);
    free(r->pin_cpu);
    free(r->prev_pin_cpu);
    free(r->seen_cpu);
    free(r->decided_cpu);
    free(r->perm);
    free(r->prev_perm);
    free(r);
}

static rt_region_t *create(const void *codeptr, int team_size, const rt_region_t *parent)
{
    size_t n = (size_t)team_size, cells = n * (size_t)(rt.topo_ok ? rt.topo.nnodes : 1);
    rt_region_t *r = aligned_alloc(_Alignof(rt_region_t), sizeof *r);
    if (!r)
        return NULL;
    memset(r, 0, sizeof *r);
    /* Each thread's hot slot on a cache line of its own: written every execution. */
    r->slot = aligned_alloc(64, n * sizeof *r->slot);
    r->busy_sum = calloc(n, sizeof *r->busy_sum);
    r->tnt = calloc(cells, sizeof *r->tnt);
    r->tnt_samples = calloc(n, sizeof *r->tnt_samples);
    r->tnt_after = calloc(cells, sizeof *r->tnt_after);
    r->map_node = malloc(n * sizeof *r->map_node);
    r->pin_cpu = malloc(n * sizeof *r->pin_cpu);
    r->prev_pin_cpu = malloc(n * sizeof *r->prev_pin_cpu);
    r->seen_cpu = malloc(n * sizeof *r->seen_cpu);
    r->decided_cpu = malloc(n * sizeof *r->decided_cpu);
    r->perm = malloc(n * sizeof *r->perm);
    r->prev_perm = malloc(n * sizeof *r->prev_perm);
    if (!r->slot || !r->busy_sum || !r->tnt || !r->tnt_samples || !r->tnt_after || !r->map_node || !r->pin_cpu ||
        !r->prev_pin_cpu || !r->seen_cpu || !r->decided_cpu || !r->perm || !r->prev_perm) {
        region_free(r);
        return NULL;
    }
    memset(r->slot, 0, n * sizeof *r->slot);
    for (size_t i = 0; i < n; i++) {
        r->map_node[i] = r->pin_cpu[i] = r->prev_pin_cpu[i] = r->seen_cpu[i] = r->decided_cpu[i] = -1;
        r->perm[i] = r->prev_perm[i] = (int)i;
    }
    r->codeptr = codeptr;
    r->team_size = team_size;
    r->parent_id = parent ? parent->id : -1;
    r->level = parent ? parent->level + 1 : 1;
    r->cp_min = UINT64_MAX;
    r->phase_min = UINT64_MAX;
    r->outcome = rt.settings.enabled ? RT_OUTCOME_SAMPLING : RT_OUTCOME_OFF;
    r->measuring = rt.settings.enabled;
    if (rt.settings.enabled && rt.settings.bubble)
        r->pins_applied = rt.pins_apply; /* the bubble tree pins from the first execution */
    return r;
}

rt_region_t *rt_region_get(const void *codeptr, int team_size, const rt_region_t *parent)
{
    int parent_id = parent ? parent->id : -1;
    unsigned s = slot_of(codeptr, team_size, parent_id);
    for (unsigned probe = 0; probe < TABLE_SIZE; probe++, s = (s + 1) & TABLE_MASK) {
        rt_region_t *r = __atomic_load_n(&table[s], __ATOMIC_ACQUIRE);
        if (!r)
            break;
        if (same(r, codeptr, team_size, parent_id))
            return r;
    }
    /* First sight: insert under the lock, re-probing since another thread may have won. */
    pthread_mutex_lock(&insert_lock);
    rt_region_t *found = NULL;
    s = slot_of(codeptr, team_size, parent_id);
    for (unsigned probe = 0; probe < TABLE_SIZE; probe++, s = (s + 1) & TABLE_MASK) {
        rt_region_t *r = table[s];
        if (!r) {
            if (nregions < TABLE_SIZE - 1 && (found = create(codeptr, team_size, parent))) {
                found->id = nregions;
                by_id[nregions] = found;
                __atomic_store_n(&nregions, nregions + 1, __ATOMIC_RELEASE);
                __atomic_store_n(&table[s], found, __ATOMIC_RELEASE);
            }
            break;
        }
        if (same(r, codeptr, team_size, parent_id)) {
            found = r;
            break;
        }
    }
    pthread_mutex_unlock(&insert_lock);
    return found;
}

int rt_region_count(void)
{
    return __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
}

rt_region_t *rt_region_at(int i)
{
    return (i >= 0 && i < rt_region_count()) ? by_id[i] : NULL;
}

static __thread rt_thread_t *current;

rt_thread_t *rt_thread_current(void)
{
    return current;
}

void rt_thread_set_current(rt_thread_t *thr)
{
    current = thr;
}

void rt_thread_forget(rt_thread_t *thr)
{
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *r = rt_region_at(i);
        for (int t = 0; t < r->team_size; t++)
            __atomic_compare_exchange_n(&r->slot[t].member, &(rt_thread_t *){thr}, NULL, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED);
    }
}

void rt_thread_init(rt_thread_t *thr, int gtid)
{
    memset(thr, 0, sizeof *thr);
    thr->gtid = gtid;
    thr->tid = (pid_t)syscall(SYS_gettid);
    thr->pinned_cpu = -1;
    thr->last_cpu = -1;
    thr->home_cpu = -1;
    thr->mask_saved = 0; /* taken before ompnuma first pins it: libomp binds threads later */
}

rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested)
{
    int d = thr->depth;
    /* Teams below the deepest measured level are not measured: their members
     * would not record their tasks, and nothing would end what was armed. */
    if (requested < 1 || d >= RT_MAX_DEPTH)
        return NULL;
    const rt_region_t *parent = d > 0 ? thr->region[d - 1] : NULL;
    /* Created here, before the team forks, so that a region's very first
     * execution (often the one that first-touches the data) is sampled too,
     * and so that the team members find it without knowing their parent. */
    rt_region_t *r = rt_region_get(codeptr, requested, parent);
    if (rt.settings.bubble && rt.settings.enabled)
        rt_bubble_refresh();
    /* A team that came out smaller last time is measured as the smaller one. */
    rt_region_t *m = r && r->redirect ? r->redirect : r;
    if (m && m->measuring)
        rt_counters_region_begin(m, &thr->team[d]);
    return r;
}

rt_region_t *rt_region_for_team(rt_region_t *requested, int actual)
{
    if (!requested || requested->team_size == actual)
        return requested;
    /* The team came out smaller than asked for: a region of its own, which
     * the requested one points to from now on (it never runs itself). */
    rt_region_t *r = rt_region_get(requested->codeptr, actual,
                                   requested->parent_id >= 0 ? rt_region_at(requested->parent_id) : NULL);
    if (r && __atomic_load_n(&requested->redirect, __ATOMIC_RELAXED) != r)
        __atomic_store_n(&requested->redirect, r, __ATOMIC_RELAXED);
    return r;
}

int rt_region_timed(const rt_region_t *r)
{
    if (r->redirect)
        r = r->redirect;
    int settled = !r->measuring && r->outcome != RT_OUTCOME_SAMPLING && r->outcome != RT_OUTCOME_VERIFYING;
    return !settled || r->executions % RT_TIMING_STRIDE == 0;
}

void rt_event_task_begin(rt_thread_t *thr, rt_region_t *r, int index, int master_slot, int timed,
                         const void *team)
{
    int d = thr->depth++;
    if (d >= RT_MAX_DEPTH)
        return;
    thr->region[d] = r;
    thr->index[d] = index;
    thr->arrived[d] = 0;
    thr->timed[d] = timed;
    thr->slot[d] = -1;
    if (!r || index >= r->team_size)
        return;
    if (__atomic_load_n(&r->slot[index].member, __ATOMIC_RELAXED) != thr) /* no write, no line transfer */
        __atomic_store_n(&r->slot[index].member, thr, __ATOMIC_RELAXED);
    if (rt.settings.bubble && rt.settings.enabled)
        __atomic_store_n(&r->pin_cpu[index], rt_bubble_place(r, index, master_slot, &thr->slot[d]),
                         __ATOMIC_RELAXED);
    /* Re-pin only when this thread's place changed: one system call, and none when unchanged. */
    int cpu = __atomic_load_n(&r->pin_cpu[index], __ATOMIC_RELAXED);
    if (r->pins_applied) {
        rt_affinity_place(thr, cpu);
        /* A move away from where the previous region put this thread: what
         * regions wanting different placements cost (see rt_loop.c). */
        if (cpu != __atomic_load_n(&thr->last_cpu, __ATOMIC_RELAXED))
            __atomic_fetch_add(&r->repins, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&thr->last_cpu, cpu, __ATOMIC_RELAXED);
    }
    if (r->measuring) {
        r->seen_cpu[index] = sched_getcpu();
        rt_counters_thread_begin(r, index, team);
    }
    if (timed)
        thr->t_begin[d] = rt_now_ns();
}

void rt_event_barrier_arrive(rt_thread_t *thr)
{
    int d = thr->depth - 1;
    if (d < 0 || d >= RT_MAX_DEPTH || thr->arrived[d])
        return;
    rt_region_t *r = thr->region[d];
    int i = thr->index[d];
    thr->arrived[d] = 1;
    if (!r || i >= r->team_size)
        return;
    if (thr->timed[d])
        __atomic_store_n(&r->slot[i].busy_last, rt_now_ns() - thr->t_begin[d], __ATOMIC_RELAXED);
}

void rt_event_task_end(rt_thread_t *thr)
{
    int d = --thr->depth;
    if (d < 0) {
        thr->depth = 0;
        return;
    }
    if (d >= RT_MAX_DEPTH)
        return;
    /* A region without an implicit barrier event (rare paths) ends its busy time here. */
    if (!thr->arrived[d])
        rt_event_barrier_arrive(thr);
    /* The primary returns to serial code (or to its outer region) with the mask it had. */
    if (thr->index[d] == 0 && __atomic_load_n(&thr->pinned_cpu, __ATOMIC_RELAXED) >= 0) {
        int outer = -1;
        if (d > 0 && thr->region[d - 1] && thr->region[d - 1]->pins_applied)
            outer = thr->region[d - 1]->pin_cpu[thr->index[d - 1]];
        rt_affinity_place(thr, outer);
    }
}

void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed)
{
    (void)thr;
    /* The counter source first, always: what it armed must not outlive the construct. */
    rt_counters_region_end(r);
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
