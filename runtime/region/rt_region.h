/* rt_region.h: the region table: one record per parallel region (code address, team size, parent), found without a lock. */
#ifndef OMPNUMA_RT_REGION_H
#define OMPNUMA_RT_REGION_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rt_thread;

/* Most regions (and loops placed inside one) a process records: ids are
 * 0 .. RT_REGION_MAX - 1, so a part may keep its own state per region in
 * an array indexed by id. Regions seen once the table is full are counted
 * (rt_region_unmeasured). */
#define RT_REGION_MAX 4096

/* Deepest nesting whose regions are measured; deeper teams still run, unmeasured. */
#define RT_MAX_DEPTH 8

typedef enum rt_outcome {
    RT_OUTCOME_SAMPLING = 0, /* still collecting the first executions            */
    RT_OUTCOME_VERIFYING,    /* a new mapping is applied and being timed          */
    RT_OUTCOME_KEPT,         /* the new mapping made the region faster: kept      */
    RT_OUTCOME_ROLLED_BACK,  /* the new mapping was slower: the old one restored  */
    RT_OUTCOME_UNCHANGED,    /* the decision equals the current placement         */
    RT_OUTCOME_DECIDED,      /* dry run: decided and reported, nothing moved      */
    RT_OUTCOME_NO_DATA,      /* no counter source gave references for this region */
    RT_OUTCOME_OFF,          /* OMP_PLACEMENT=off: measured only                  */
    RT_OUTCOME_COUNT
} rt_outcome_t;

const char *rt_outcome_name(rt_outcome_t o);

/* What thread i of a team writes at every execution, alone on its cache line. */
typedef struct rt_slot {
    uint64_t          busy_last;  /* ns, this execution */
    struct rt_thread *member;     /* the thread holding this index, last execution */
    uint64_t          busy_acc;   /* construct: (executions << RT_BUSY_N_SHIFT) + ns, since the
                                     primary last closed one (rt_events.c) */
    char              pad[40];
} rt_slot_t;
#define RT_BUSY_N_SHIFT 44        /* ns below: 4.8 hours per execution */

/*
 * A parallel region: one code address and one team size. Created at its
 * first execution (the only allocation); afterwards every field a worker
 * touches is a preallocated slot of its own.
 *
 * The record holds the region's identity and what the events read or
 * write at every execution (rt_events.h); each control part keeps its own
 * state per region in its own file, indexed by `id` (the loop's in
 * rt_loop.c, the bubbles', the hints', the data's), and writes its own
 * part of the report. Who may write each field is declared in
 * tools/check_layers.py (WRITERS) and checked there.
 *
 * Ownership between threads: slot[i], tnt row i, seen_cpu[i], back_cpu[i]
 * and the pin read are thread i's; all other fields are written by the
 * team's primary thread at region end, after the join barrier made the
 * workers' writes visible.
 */
typedef struct rt_region {
    /* Read by every team member at every execution, and by the primary's
     * fork of a settled region (the first line: a fork whose program swept
     * more than the cache since the last one misses on each line it reads);
     * written only when the region is created or changes phase. Kept apart
     * from the fields below, which the primary writes at every execution, so
     * members do not miss in cache on lines the primary just wrote. */
    const void  *codeptr;
    struct rt_region *redirect; /* the record of the team that really ran when it was
                                   smaller than this (requested) size, or NULL */
    rt_slot_t   *slot;          /* [team_size] each thread's hot slot */
    int          team_size;
    int          measuring;     /* 1: counters on (sampling), 0: timing only */
    int          resting;       /* sampling, and the source waits (RT_SOURCE_WAITS) by time until
                                   its next reading, or until its budget allows an arming:
                                   executions that need nothing from the team run as settled
                                   untimed ones; the encountering thread asks the source before
                                   each fork (rt_event_parallel_seen), a loop's primary before
                                   each execution (rt_event_loop_begin) */
    int          quiet;         /* settled, and no drift is looked for (rt_loop.c): timed
                                   rarely (rt_region_timed) */
    int          pins_applied;  /* 0 in dry-run mode */
    int          nested;        /* a team was forked inside it (set once, by the forking member):
                                   its members' own records of it are needed (rt_events.h) */
    int          met;           /* a fork may take it from its thread's last sight at its level
                                   (rt_event_parallel_met): its first sight's work is done (the
                                   placement cache asked), and bubbles do not place it (atomic) */
    int          blind;         /* not sampled: the counter source could add nothing when the
                                   region came (rt_counters_blind); when it could (an attach),
                                   measuring is set and the next fork begins a sampling phase
                                   (rt_loop_source_sees) */
    int          id;
    int          construct;     /* a worksharing loop of its parent's team, placed inside the
                                   parent's execution (rt_region_construct), not a team of its own */
    /* The rest of what members read (past the first line). */
    int          cache_checked; /* the placement cache was asked for this region (atomic) */
    int          confirming;    /* 1 while a kept move is sampled again (rt_loop.c) */
    int          parent_id;     /* -1 for an outermost region */
    int          parent_index;  /* the number, in its parent's team, of the thread that forks
                                   this team (-1 outermost, and for a construct) */
    int          level;         /* nesting level, 1 = outermost parallel */
    int         *pin_cpu;       /* [team_size] CPU each thread pins to, -1 none */
    int         *back_cpu;      /* [team_size] after a rollback: the CPU thread i ran on before
                                   the move, which it goes back through at its next begin
                                   (rt_affinity_return); -1 none. Thread i clears its own */
    pid_t       *tid;           /* construct: [team_size] the team's threads, for its source */
    uint64_t    *tnt;           /* [team_size * nnodes] references sampled (the counter
                                   source fills it through rt_loop_sample) */
    int         *seen_cpu;      /* [team_size] CPU each thread ran on while its TNT was sampled */

    /* Written by the primary at the end of every execution; the fork of a
     * settled region reads its first fields (one line). */
    _Alignas(64) int ending;    /* a primary is doing this record's end-of-region work */
    rt_outcome_t outcome;       /* where the placement loop is (rt_loop.c) */
    uint64_t    executions;
    int          source_waits;  /* ... and its next reading is not due yet (RT_SOURCE_WAITS) */
    int          source_pending;/* a source sampled by time has its window open: the phase
                                   goes on whatever the execution count */
    uint64_t    timed_executions; /* executions whose threads read the clock (see rt_region_timed) */
    uint64_t   *busy_sum;       /* [team_size] ns, all executions */
    uint64_t    cp_sum;         /* sum of critical paths (ns) */
    uint64_t    cp_min, cp_max;
    uint64_t     repins;        /* re-pins threads made entering this region */
    int          refs_seen;     /* an execution's sampling added references (atomic): the
                                   migration monitor's evidence (rt_monitor.h) */
} rt_region_t;
_Static_assert(offsetof(rt_region_t, construct) + sizeof(int) <= 64 &&
                   offsetof(rt_region_t, source_pending) + sizeof(int) <= offsetof(rt_region_t, ending) + 64,
               "a settled region's fork reads two lines of its record");

/* The placement loop's state of a region is its own (rt_loop.c): it is
 * told of each new record, before the record is published, and may
 * allocate then (a region's first sight). 0, or -1 when it could not: the
 * record is then not created. Set once, before the first region. */
typedef int (*rt_region_created_fn)(rt_region_t *r);
void rt_region_on_create(rt_region_created_fn fn);

/* Lookup by code address, team size, parent (NULL for an outermost region)
 * and the forking thread's number in the parent's team (ignored without a
 * parent), inserting on first sight (takes a lock and allocates only then).
 * NULL when the table is full or memory ran out. rt_region_find never
 * inserts. */
rt_region_t *rt_region_get(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index);
rt_region_t *rt_region_find(const void *codeptr, int team_size, const rt_region_t *parent, int parent_index);

/* A worksharing loop (its code address) inside an execution of region
 * parent, run by parent's team: found, or with create inserted (the
 * primary alone creates, so workers never allocate). NULL when unknown or
 * the table is full. Its level is its parent's. */
rt_region_t *rt_region_construct(const void *codeptr, const rt_region_t *parent, int create);
/* Whether r is listed in reports: not a record for a requested team size
 * that never ran (the team always came out smaller), nor a loop placed
 * inside its region's first execution when the region ran again (it is
 * then placed as a whole; its loops were provisional). */
int          rt_region_listed(const rt_region_t *r);
/* Regions seen once the table was full (RT_REGION_MAX): not measured, not
 * listed; counted (distinct keys; at most 32768, then a lower bound). */
int          rt_region_unmeasured(void);
/* Visit every known region in creation order. */
int          rt_region_count(void);
rt_region_t *rt_region_at(int i);

/* The region a team member belongs to, given the one its encountering thread
 * found for the requested size: itself, or when the team is smaller, the
 * region for the actual size (same code address and parent). */
rt_region_t *rt_region_for_smaller_team(rt_region_t *requested, int actual);
static inline rt_region_t *rt_region_for_team(rt_region_t *requested, int actual)
{
    if (!requested || requested->team_size == actual)
        return requested;
    return rt_region_for_smaller_team(requested, actual);
}
/* Whether the next execution of r is timed: every one while r samples
 * (but those its source waits through: `resting`), verifies or confirms,
 * one in RT_TIMING_STRIDE once it is settled (enough to see a drift, and settled regions cost no clock reads otherwise), one
 * in RT_TIMING_STRIDE_QUIET once the loop watches it for nothing (`quiet`)
 * and it holds no pins (their re-pins are weighed over windows of timed
 * executions): its timed executions then only add to the report's times.
 * The encountering thread asks, and tells its team. */
#define RT_TIMING_STRIDE 8
#define RT_TIMING_STRIDE_QUIET 64
/* Settled: neither sampling, nor verifying, nor confirming a kept move. */
static inline int rt_region_settled(const rt_region_t *r)
{
    return !r->measuring && r->outcome != RT_OUTCOME_SAMPLING && r->outcome != RT_OUTCOME_VERIFYING;
}
static inline int rt_region_timed(const rt_region_t *r)
{
    if (r->redirect)
        r = r->redirect;
    if (!rt_region_settled(r))
        return !r->resting;
    return r->executions % (r->quiet && !r->pins_applied ? RT_TIMING_STRIDE_QUIET : RT_TIMING_STRIDE) == 0;
}

/* A primary takes r's end-of-execution work (`ending`): 0 when another
 * primary is doing it (teams of one record at once), then it is left to
 * that one; every take is followed by rt_region_end_give. */
static inline int rt_region_end_take(rt_region_t *r)
{
    return !__atomic_exchange_n(&r->ending, 1, __ATOMIC_ACQUIRE);
}

static inline void rt_region_end_give(rt_region_t *r)
{
    __atomic_store_n(&r->ending, 0, __ATOMIC_RELEASE);
}

/* An untimed execution of r is over: one more. Teams of one record may end
 * at the same moment (root threads running the same region, or inner teams
 * whose parent was not recorded): one of them does the bookkeeping, the
 * others' executions go uncounted (their timings came from the same
 * slots). */
static inline void rt_region_count_untimed(rt_region_t *r)
{
    if (!rt_region_end_take(r))
        return;
    r->executions++;
    rt_region_end_give(r);
}

#endif
