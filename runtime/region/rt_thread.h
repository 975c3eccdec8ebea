/* rt_thread.h: the thread registry: what the runtime keeps per OpenMP thread (its place, the regions it is in). */
#ifndef OMPNUMA_RT_THREAD_H
#define OMPNUMA_RT_THREAD_H

#include <stdint.h>

#include "rt_affinity.h"
#include "rt_region.h"

/* Distinct worksharing loops a primary remembers per execution. */
#define RT_WS_SEEN 64
/* Loop records each thread keeps at hand (a power of two). */
#define RT_WS_LAST 8

/* The last regions a thread encountered at one level (RT_SEEN_WAYS of
 * them, the latest first), with their keys (the parent is the thread's
 * region one level up, parent_index its number there): a region that recurs
 * skips the table's hash and probe, also when it alternates with a few
 * others (IQ-TREE forks its likelihood derivative's region between its
 * traversal's, whose team is one thread or two: three keys in turn, and a
 * fourth now and then). Records live as long as the table. */
#define RT_SEEN_WAYS 4
typedef struct rt_seen {
    const void        *codeptr;
    const rt_region_t *parent;
    rt_region_t       *region;
    int                requested;
    int                parent_index;
} rt_seen_t;

/* A thread's record of one level of regions it is in: what its task's
 * begin sets and its end reads (one half of a cache line; a team forked
 * inside reads its parent's key, region and index, here). */
typedef struct rt_level {
    rt_region_t *region;
    int          index;    /* the thread's number in the region's team */
    int          arrived;  /* at the region's barrier */
    int          timed;    /* this execution is timed */
    int          slot;     /* this thread's slot in its bubble tree, -1 none */
    uint64_t     t_begin;  /* when its task began (timed executions) */
} rt_level_t;
_Static_assert(sizeof(rt_level_t) == 32, "two levels a cache line");

/* Per OpenMP thread. The OpenMP layer embeds it in its own per-thread
 * record (with the OMPT bookkeeping) and registers it as the calling
 * thread's with rt_thread_set_current.
 *
 * What the fork of a settled outermost region reads comes first: depth,
 * counting, ws and the last sight at level 0, 48 bytes, which the OpenMP
 * layer's record puts in one cache line with its own per-fork words (a
 * program that sweeps more than the cache between its regions finds none
 * of its lines there: each one the fork reads is a miss). */
typedef struct rt_thread {
    int          depth;           /* regions entered (stack below) */
    /* Bit d: the counter source may still hold something of a team this
     * thread forked at level d: set when it begins the source for one, or
     * when a region end at that level finds the source not done with its
     * region; cleared when one finds it done. A settled region's end skips
     * the source when the bit is clear. */
    unsigned     counting;
    rt_region_t *ws;              /* the worksharing loop it is in (below, with the loops' fields) */
    rt_seen_t    seen[RT_MAX_DEPTH][RT_SEEN_WAYS];
    rt_level_t   level[RT_MAX_DEPTH]; /* the regions it is in (depth of them), outermost first */
    int          gtid;            /* ompnuma's thread number, from 0 */
    rt_place_t   place;           /* where ompnuma moved it (os/rt_affinity.h) */
    int          last_cpu;        /* CPU the last region it entered gave it, -1 none */
    /* Work units done (implicit tasks ended, loop iterations dispatched to
     * it): written by the thread alone, in its own record, read by the
     * migration monitor once per period (control/rt_monitor.c). */
    uint64_t     work;
    /* Time waited at barriers, for the same monitor: the sum of the waits
     * that ended, and when the open one began (0: none). The thread writes
     * both (clearing wait_since before adding to wait_ns: a reader that sees
     * neither misses a wait for one period, never counts it twice). */
    uint64_t     wait_ns;
    uint64_t     wait_since;
    /* A worksharing loop placed inside its region's first execution
     * (rt_events.c): the one this thread is in, whether and when its work
     * began on the clock (ws, at the top); for a team's primary also the
     * loops begun so far in that execution of ws_within, to see which
     * repeat, and those of them that wait for their source (bit k:
     * ws_seen[k]). */
    int                ws_timed;
    uint64_t           ws_begin;
    const rt_region_t *ws_within;
    unsigned           ws_nseen;
    const void        *ws_seen[RT_WS_SEEN];
    uint64_t           ws_waiting;
    /* The loop records this thread found last, by their code address (a
     * direct-mapped cache in front of the region table: a settled loop
     * costs the hooks around it a compare, not a hash and a probe). */
    struct {
        const void        *codeptr;
        const rt_region_t *parent;
        rt_region_t       *loop;
    } ws_last[RT_WS_LAST];
} rt_thread_t;
_Static_assert(RT_WS_SEEN <= 64, "ws_waiting has a bit per ws_seen entry");

/* The region keyed by (codeptr, requested) under thr's current region,
 * when it is among the last thr encountered at level d; NULL otherwise.
 * The one last looked up first: a region that recurs alone costs one
 * key's compare. */
static inline rt_region_t *rt_seen_at(const rt_thread_t *thr, int d, const void *codeptr, int requested)
{
    const rt_region_t *parent = d > 0 ? thr->level[d - 1].region : NULL;
    int pindex = d > 0 ? thr->level[d - 1].index : -1;
    for (int w = 0; w < RT_SEEN_WAYS; w++) {
        const rt_seen_t *seen = &thr->seen[d][w];
        if (seen->codeptr == codeptr && seen->requested == requested && seen->parent == parent &&
            seen->parent_index == pindex)
            return seen->region;
    }
    return NULL;
}

/* A region thr encountered at level d, looked up in the table: the latest
 * of its last sights there, the oldest forgotten. */
static inline void rt_seen_put(rt_thread_t *thr, int d, rt_seen_t seen)
{
    for (int w = RT_SEEN_WAYS - 1; w > 0; w--)
        thr->seen[d][w] = thr->seen[d][w - 1];
    thr->seen[d][0] = seen;
}

/* The calling thread, at home, in no region. */
void rt_thread_init(rt_thread_t *thr, int gtid);

/* The calling thread's record (set by the OpenMP layer at thread begin), or
 * NULL. Read in every hook: initial-exec TLS, inline (libompnuma is loaded
 * with the program, or by the runtime's tool search from the surplus glibc
 * keeps for such variables). */
extern __thread rt_thread_t *rt_thread_self_ __attribute__((tls_model("initial-exec")));
static inline rt_thread_t *rt_thread_current(void)
{
    return rt_thread_self_;
}
void rt_thread_set_current(rt_thread_t *thr);

/* A thread ends: no region may name it as a member any more. */
void rt_thread_forget(rt_thread_t *thr);

#endif
