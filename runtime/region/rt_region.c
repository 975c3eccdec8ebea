/* rt_region.c: the region table: lock-free lookup, records created at first sight, team-size redirects, timing stride. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_log.h"
#include "rt_region.h"
#include "rt_topology.h"
#include "rt_util.h"

/* Open addressing over (codeptr, team size, parent, parent index). A program has tens of
 * regions, rarely hundreds; a full table leaves new regions unmeasured. */
#define MAX_REGIONS RT_REGION_MAX
/* At most half full: a lookup that misses (a region never seen, or one
 * beyond the last) stops at an empty slot after a few probes. */
#define TABLE_SIZE (2 * MAX_REGIONS)
#define TABLE_MASK (TABLE_SIZE - 1)

static rt_region_t *table[TABLE_SIZE];       /* published with release stores */
static rt_region_t *by_id[MAX_REGIONS];
static int nregions;                         /* written under insert_lock */
static int table_full;                       /* MAX_REGIONS reached */
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const outcome_names[RT_OUTCOME_COUNT] = {
    "sampling", "verifying", "kept", "rolled_back", "unchanged", "decided", "no_data", "off",
};

const char *rt_outcome_name(rt_outcome_t o)
{
    return (unsigned)o < RT_OUTCOME_COUNT ? outcome_names[o] : "?";
}

/* A region is its code address, its team size, its parent region and the
 * number of the parent's thread that forks it: the parent tells nesting
 * levels apart even when a compiler's tail calls give several levels the
 * same return address, and the forking thread's number tells apart the
 * inner teams of one parent (BT-MZ's zones: each team has its own data,
 * its own CPUs and its own decision). */
static inline uint64_t key_hash(const void *codeptr, int team_size, int parent_id, int parent_index)
{
    return (uint64_t)(uintptr_t)codeptr * 0x9E3779B97F4A7C15ull ^ (uint64_t)team_size * 0xC2B2AE3D27D4EB4Full ^
           (uint64_t)(parent_id + 1) * 0x165667B19E3779F9ull ^ (uint64_t)(parent_index + 1) * 0x27D4EB2F165667C5ull;
}

static inline unsigned slot_of(const void *codeptr, int team_size, int parent_id, int parent_index)
{
    return (unsigned)(key_hash(codeptr, team_size, parent_id, parent_index) >> 40) & TABLE_MASK;
}

/* Regions first seen once the table was full are not measured, but the
 * report counts them: a set of their keys' hashes (0 stands for 1),
 * allocated at the first such region, at most half full; beyond that the
 * count is a lower bound. Lookups are lock-free, insertions under
 * insert_lock. */
#define UNMEASURED_SLOTS 65536
static uint64_t *unmeasured;
static int nunmeasured;

static void note_unmeasured(const void *codeptr, int team_size, int parent_id, int parent_index)
{
    uint64_t h = key_hash(codeptr, team_size, parent_id, parent_index), *set;
    h = h ? h : 1;
    unsigned start = (unsigned)(h >> 40) & (UNMEASURED_SLOTS - 1), s = start;
    if ((set = __atomic_load_n(&unmeasured, __ATOMIC_ACQUIRE)))
        for (uint64_t v; (v = __atomic_load_n(&set[s], __ATOMIC_ACQUIRE)); s = (s + 1) & (UNMEASURED_SLOTS - 1))
            if (v == h)
                return;
    pthread_mutex_lock(&insert_lock);
    if (!unmeasured)
        __atomic_store_n(&unmeasured, calloc(UNMEASURED_SLOTS, sizeof *unmeasured), __ATOMIC_RELEASE);
    if ((set = unmeasured) && nunmeasured < UNMEASURED_SLOTS / 2) {
        for (s = start; set[s] && set[s] != h; s = (s + 1) & (UNMEASURED_SLOTS - 1))
            ;
        if (!set[s]) {
            __atomic_store_n(&set[s], h, __ATOMIC_RELEASE);
            __atomic_store_n(&nunmeasured, nunmeasured + 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&insert_lock);
}

int rt_region_unmeasured(void)
{
    return __atomic_load_n(&nunmeasured, __ATOMIC_ACQUIRE);
}

static inline int same(const rt_region_t *r, const void *codeptr, int team_size, int parent_id, int parent_index)
{
    return r->codeptr == codeptr && r->team_size == team_size && r->parent_id == parent_id &&
           r->parent_index == parent_index;
}

static rt_region_created_fn created_fn; /* the placement loop's (rt_region_on_create) */

void rt_region_on_create(rt_region_created_fn fn)
{
    created_fn = fn;
}

static rt_region_t *create(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index,
                           int construct, int id)
{
    size_t n = (size_t)team_size, cells = n * (size_t)(rt_mach->ok ? rt_mach->topo.nnodes : 1);
    /* The record and its arrays in one block; each thread's hot slot on a
     * cache line of its own (written every execution). */
    rt_block_t b = {sizeof(rt_region_t)};
    size_t slot = rt_block_add(&b, n, sizeof(rt_slot_t), 64), busy_sum = rt_block_add(&b, n, sizeof(uint64_t), 8),
           tnt = rt_block_add(&b, cells, sizeof(uint64_t), 8), pin_cpu = rt_block_add(&b, n, sizeof(int), 4),
           back_cpu = rt_block_add(&b, n, sizeof(int), 4), seen_cpu = rt_block_add(&b, n, sizeof(int), 4),
           tid = construct ? rt_block_add(&b, n, sizeof(pid_t), 4) : 0;
    char *m = rt_block_alloc(&b, _Alignof(rt_region_t));
    if (!m)
        return NULL;
    rt_region_t *r = (void *)m;
    r->slot = (void *)(m + slot);
    r->busy_sum = (void *)(m + busy_sum);
    r->tnt = (void *)(m + tnt);
    r->pin_cpu = (void *)(m + pin_cpu);
    r->back_cpu = (void *)(m + back_cpu);
    r->seen_cpu = (void *)(m + seen_cpu);
    r->tid = construct ? (void *)(m + tid) : NULL;
    for (size_t i = 0; i < n; i++)
        r->pin_cpu[i] = r->back_cpu[i] = r->seen_cpu[i] = -1;
    r->codeptr = codeptr;
    r->team_size = team_size;
    r->id = id;
    r->parent_id = parent ? parent->id : -1;
    r->parent_index = parent_index;
    r->construct = construct;
    r->level = parent ? parent->level + !construct : 1;
    r->cp_min = UINT64_MAX;
    if (created_fn && created_fn(r) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

/* Lookup, and on a miss with insert, insertion. A construct's code
 * address (a worksharing loop's) is never a parallel region's, so the key
 * stays (codeptr, team size, parent, -1). */
static rt_region_t *get(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index,
                        int construct, int insert)
{
    int parent_id = parent ? parent->id : -1;
    if (!parent)
        parent_index = -1;
    unsigned s = slot_of(codeptr, team_size, parent_id, parent_index);
    for (unsigned probe = 0; probe < TABLE_SIZE; probe++, s = (s + 1) & TABLE_MASK) {
        rt_region_t *r = __atomic_load_n(&table[s], __ATOMIC_ACQUIRE);
        if (!r)
            break;
        if (same(r, codeptr, team_size, parent_id, parent_index))
            return r;
    }
    /* A full table: new regions go unmeasured, at the cost of the probes
     * (and counted, for the report). */
    if (!insert)
        return NULL;
    if (__atomic_load_n(&table_full, __ATOMIC_ACQUIRE)) {
        note_unmeasured(codeptr, team_size, parent_id, parent_index);
        return NULL;
    }
    /* First sight: insert under the lock, re-probing since another thread may have won. */
    pthread_mutex_lock(&insert_lock);
    rt_region_t *found = NULL;
    s = slot_of(codeptr, team_size, parent_id, parent_index);
    for (unsigned probe = 0; probe < TABLE_SIZE; probe++, s = (s + 1) & TABLE_MASK) {
        rt_region_t *r = table[s];
        if (!r) {
            if (nregions == MAX_REGIONS) {
                rt_verbose(1, "region table full (%d regions): regions seen from now on are not measured",
                           nregions);
                __atomic_store_n(&table_full, 1, __ATOMIC_RELEASE); /* said once: later misses return early */
                pthread_mutex_unlock(&insert_lock);
                note_unmeasured(codeptr, team_size, parent_id, parent_index);
                return NULL;
            } else if ((found = create(codeptr, team_size, parent, parent_index, construct, nregions))) {
                by_id[nregions] = found;
                __atomic_store_n(&nregions, nregions + 1, __ATOMIC_RELEASE);
                __atomic_store_n(&table[s], found, __ATOMIC_RELEASE);
            }
            break;
        }
        if (same(r, codeptr, team_size, parent_id, parent_index)) {
            found = r;
            break;
        }
    }
    pthread_mutex_unlock(&insert_lock);
    return found;
}

rt_region_t *rt_region_get(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index)
{
    return get(codeptr, team_size, parent, parent_index, 0, 1);
}

rt_region_t *rt_region_find(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index)
{
    return get(codeptr, team_size, parent, parent_index, 0, 0);
}

rt_region_t *rt_region_construct(const void *codeptr, const rt_region_t *parent, int create)
{
    return get(codeptr, parent->team_size, parent, -1, 1, create);
}

int rt_region_listed(const rt_region_t *r)
{
    if (r->redirect && !r->executions)
        return 0;
    const rt_region_t *p = r->construct ? rt_region_at(r->parent_id) : NULL;
    return !p || p->executions <= 1;
}

int rt_region_count(void)
{
    return __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
}

rt_region_t *rt_region_at(int i)
{
    return (i >= 0 && i < rt_region_count()) ? by_id[i] : NULL;
}

/* The team came out smaller than asked for: a region of its own, which
 * the requested one points to from now on (it never runs itself). */
rt_region_t *rt_region_for_smaller_team(rt_region_t *requested, int actual)
{
    rt_region_t *r = rt_region_get(requested->codeptr, actual,
                                   requested->parent_id >= 0 ? rt_region_at(requested->parent_id) : NULL,
                                   requested->parent_index);
    if (r && __atomic_load_n(&requested->redirect, __ATOMIC_RELAXED) != r)
        __atomic_store_n(&requested->redirect, r, __ATOMIC_RELAXED);
    return r;
}
