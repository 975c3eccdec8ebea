/* om_team.h: the records the OpenMP layer keeps: each thread's, the one behind every parallel_data the OMPT tool hands on, and a team's on the ABI route. */
#ifndef OMPNUMA_OM_TEAM_H
#define OMPNUMA_OM_TEAM_H

#include <stddef.h>
#include <stdint.h>
#include <omp-tools.h>

#include "rt_events.h"

/*
 * What ompnuma hangs on a team's parallel_data: its word for the team
 * members, and the data word of a chained user tool, which must not share
 * ompnuma's. One per nesting level in the encountering thread's record: a
 * thread encounters one team at a time per level. The record's address is
 * the team handle the runtime receives (rt_events.h).
 *
 * Every parallel_data that reaches a callback points to one of these,
 * set by ompnuma: a team's, a league's, the initial task's, or a
 * deeper-than-measured team's. So ompnuma never reads a word a tool wrote,
 * and a chained tool gets its own word (`user`) in every event.
 */
typedef struct om_team_data {
    uint64_t magic;               /* OM_TEAM_MAGIC: tells it from a tool's own pointer */
    uint64_t word;                /* region record and bubble slot (om_tool.c) */
    uint64_t user;                /* a chained tool's ompt_data_t for this team */
} om_team_data_t;
#define OM_TEAM_MAGIC 0x6f6d706e756d6174ull /* "ompnumat" */

/*
 * One team instance on the ABI route (om_abi.c), as its members read it:
 * set by the primary before the team forks, read-only while it runs. For
 * a clang region it lives in the primary's frame around the real fork; for
 * GOMP_parallel*_start in the primary's record (om_thread_t.gomp) until
 * GOMP_parallel_end. Its address is the team handle the runtime receives.
 */
typedef struct om_abi_team {
    rt_region_t        *region;      /* the record the members run in (NULL: not measured), or with
                                        ask the one they redirect from for the size that formed */
    rt_region_t        *ran;         /* with ask: the record the primary's task ran in */
    int                 ask;         /* each member asks the team size (the primary looked up the region) */
    int                 timed;       /* this execution is timed (rt_region_timed) */
    int                 master_slot; /* the forking thread's slot in its bubble tree, -1 none */
    int                 actual;      /* timed executions: members that began (the team size that formed) */
    int                 watched;     /* it made the loops and barriers go through ompnuma (om_abi.c) */
    int                 argc;        /* clang: shared arguments of the outlined function */
    void               *fn;          /* the outlined function */
    void               *data;        /* gcc: its one argument */
    void *const        *regs;        /* clang: the first three shared arguments */
    void *const        *stack;       /* clang: the others, on the caller's stack */
    struct om_thread   *primary;     /* the forking thread */
    int                 plain;       /* its members only enter their level and leave it (team_seen) */
    long long           incr;        /* gcc's combined parallel loop: the loop's increment, which its
                                        members' first chunks come without (0: not one) */
} om_abi_team_t;

/* Per OpenMP thread: the ABI route's per-fork words (om_abi.c), the
 * runtime's record, the OMPT bookkeeping (the OMPT route) and the rest of
 * the ABI route's. The fork of a settled region reads one cache line of
 * it: the words below and the head of rt (rt_thread.h). */
typedef struct om_thread {
    /* ABI route: num_threads pushed for the thread's next parallel construct
     * (0 none); whether it is a pool worker, and runs as primary a team whose
     * members have no events (om_abi.c, "members idle"). */
    _Alignas(64) int pending_nt;
    int            worker;                /* it ran a team as a member other than the primary */
    int            fast_open;             /* 1: it runs a team whose members have no events */
    rt_thread_t    rt;                    /* rt_thread_current() is this record (om_thread_of) */
    om_team_data_t team[RT_MAX_DEPTH];    /* teams this thread encountered, by level */
    om_team_data_t initial;               /* the initial task's implicit parallel region */
    om_team_data_t league;                /* a teams construct's league */
    om_team_data_t deep;                  /* teams nested deeper than RT_MAX_DEPTH */
    rt_region_t   *ended;                 /* region whose primary implicit task just ended */
    /* ABI route: the increment of the gcc loop it runs (its chunks' size);
     * the teams it began with GOMP_parallel*_start, by level, until
     * GOMP_parallel_end, and which of those it passed on unwrapped (bit k:
     * the k-th still open, LIFO). */
    long long      gomp_incr;
    unsigned       gomp_open;
    uint64_t       gomp_plain;
    om_abi_team_t  gomp[RT_MAX_DEPTH];
} om_thread_t;
_Static_assert(offsetof(om_thread_t, rt) + offsetof(rt_thread_t, seen) + sizeof(rt_seen_t) <= 64,
               "a settled outermost region's fork reads one line of its thread's record");
_Static_assert((offsetof(om_thread_t, rt) + offsetof(rt_thread_t, level)) % sizeof(rt_level_t) == 0,
               "a level's record does not straddle two lines");

/* The calling thread's record, created at its first event (cold: one
 * allocation per thread); NULL when memory ran out. om_thread_end: the
 * thread ends (its record goes; regions drop it as a member). */
om_thread_t *om_thread_create(void);
void om_thread_end(om_thread_t *t);

/* The record of a thread's rt_thread_t (NULL for NULL), and the calling
 * thread's (NULL before its first event). */
static inline om_thread_t *om_thread_of(rt_thread_t *rt)
{
    return rt ? (om_thread_t *)(void *)((char *)rt - offsetof(om_thread_t, rt)) : NULL;
}

static inline om_thread_t *om_thread_current(void)
{
    return om_thread_of(rt_thread_current());
}

static inline om_thread_t *om_thread_self(void)
{
    om_thread_t *t = om_thread_current();
    return t ? t : om_thread_create();
}

/* The ABI route: records go when their thread exits (a thread-specific key). */
void om_thread_end_at_exit(void);

static inline om_team_data_t *om_team_of(const ompt_data_t *pd)
{
    om_team_data_t *t = pd ? pd->ptr : NULL;
    return t && t->magic == OM_TEAM_MAGIC ? t : NULL;
}

static inline ompt_data_t *om_user_data(ompt_data_t *pd)
{
    om_team_data_t *t = om_team_of(pd);
    return t ? (ompt_data_t *)&t->user : pd;
}

#endif
