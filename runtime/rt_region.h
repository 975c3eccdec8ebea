/* rt_region.h: per-region and per-thread measurement state, driven by the OpenMP layer's events. */
#ifndef OMPNUMA_RT_REGION_H
#define OMPNUMA_RT_REGION_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_settings.h"
#include "rt_topology.h"

/* Deepest nesting whose regions are measured; deeper teams still run, unmeasured. */
#define RT_MAX_DEPTH 8

typedef enum rt_outcome {
    RT_OUTCOME_SAMPLING = 0, /* still collecting the first executions            */
    RT_OUTCOME_VERIFYING,    /* a new mapping is applied and being timed          */
    RT_OUTCOME_KEPT,         /* the new mapping made the region faster: kept      */
    RT_OUTCOME_ROLLED_BACK,  /* the new mapping was slower: the old one restored  */
    RT_OUTCOME_UNCHANGED,    /* the decision equals the current placement         */
    RT_OUTCOME_NO_DATA,      /* no counter source gave references for this region */
    RT_OUTCOME_OFF,          /* OMP_PLACEMENT=off: measured only                  */
    RT_OUTCOME_COUNT
} rt_outcome_t;

const char *rt_outcome_name(rt_outcome_t o);

/* What thread i of a team writes at every execution, alone on its cache line. */
typedef struct rt_slot {
    uint64_t          busy_last;  /* ns, this execution */
    struct rt_thread *member;     /* the thread holding this index, last execution */
    char              pad[48];
} rt_slot_t;

/*
 * A parallel region: one code address and one team size. Created at its
 * first execution (the only allocation); afterwards every field a worker
 * touches is a preallocated slot of its own.
 *
 * Ownership: slot[i], tnt row i and the pin read are thread i's; all
 * other fields are written by the team's primary thread at region end,
 * after the join barrier made the workers' writes visible.
 */
typedef struct rt_region {
    /* Read by every team member at every execution; written only when the
     * region is created or changes phase. Kept apart from the fields below,
     * which the primary writes at every execution, so members do not miss
     * in cache on lines the primary just wrote. */
    const void *codeptr;
    int         team_size;
    int         id;
    int         parent_id;      /* -1 for an outermost region */
    int         level;          /* nesting level, 1 = outermost parallel */
    rt_slot_t  *slot;           /* [team_size] each thread's hot slot */
    int         *pin_cpu;       /* [team_size] CPU each thread pins to, -1 none */
    int         *perm;          /* [team_size] bubble policy: the position among its team's
                                   CPUs each thread takes (identity until critpath decides) */
    int          measuring;     /* 1: counters on (sampling), 0: timing only */
    int          pins_applied;  /* 0 in dry-run mode */
    struct rt_region *redirect; /* the record of the team that really ran when it was
                                   smaller than this (requested) size, or NULL */
    uint64_t    *tnt;           /* [team_size * nnodes] references sampled */
    uint64_t    *tnt_after;     /* [team_size * nnodes] sampled again once a move was kept */
    int          confirming;    /* 1 while tnt_after is being sampled */
    int         *seen_cpu;      /* [team_size] CPU each thread ran on while sampled */

    /* Written by the primary at the end of every execution. */
    _Alignas(64) int ending;    /* a primary is doing this record's end-of-region work */
    uint64_t    executions;
    uint64_t    timed_executions; /* executions whose threads read the clock (see rt_region_timed) */
    uint64_t   *busy_sum;       /* [team_size] ns, all executions */
    uint64_t    cp_sum;         /* sum of critical paths (ns) */
    uint64_t    cp_min, cp_max;

    /* The placement loop (rt_loop.c). */
    rt_outcome_t outcome;
    int          phase_execs;   /* executions in the current phase */
    uint64_t     cp_phase_sum;  /* critical-path sum in the current phase */
    uint64_t     phase_min, phase_max;
    int          resamples;     /* times a drift re-opened sampling */
    double       cp_before_ns;  /* fastest baseline execution before the decision */
    double       cp_after_ns;   /* fastest verification execution after it (0: not measured) */
    double       cp_settled_ns; /* mean of the first window once settled: drift reference
                                   (0 not yet measured, -1 skip the next window) */
    double       noise;         /* relative spread measured while sampling */
    uint64_t    *tnt_samples;   /* [team_size] samples each thread contributed */
    int         *map_node;      /* [team_size] decided node, -1 undecided */
    int         *prev_pin_cpu;  /* [team_size] the placement before the decision */
    int         *decided_cpu;   /* [team_size] CPU the decision gives each thread, -1 none */
    int         *prev_perm;     /* [team_size] the permutation before the decision */
    int          hint_moves;    /* threads moved by omp_numa_update_hints */
    int          decision_policy;
    double       decision_us;
    double       predicted_before, predicted_after;
    uint64_t     armed_execs;   /* sampled executions the counter source armed for it */
    uint64_t     armed_seen;    /* armed_execs the loop has counted */
    int          unarmed;       /* sampling executions the source could not arm */
    uint64_t     repins;        /* re-pins threads made entering this region */
    uint64_t     repins_mark;   /* repins at the start of the current window */
    int          compromise;    /* pins shared with other regions to stop bouncing */
} rt_region_t;

/* What the OpenMP layer hangs on a team's parallel_data: ompnuma's word for
 * the team members, and the data word of a chained user tool, which must not
 * share ompnuma's. One per nesting level in the encountering thread's state:
 * a thread encounters one team at a time per level. */
typedef struct rt_team_data {
    uint64_t magic;               /* RT_TEAM_MAGIC: tells it from a tool's own pointer */
    uint64_t word;                /* region record and bubble slot (openmp/om_tool.c) */
    uint64_t user;                /* a chained tool's ompt_data_t for this team */
} rt_team_data_t;
#define RT_TEAM_MAGIC 0x6f6d706e756d6174ull /* "ompnumat" */

/* Per OpenMP thread, allocated at thread begin. */
typedef struct rt_thread {
    int          gtid;            /* ompnuma's thread number, from 0 */
    pid_t        tid;             /* the kernel's thread id, for moves made by another thread */
    int          pinned_cpu;      /* CPU this thread was last pinned to by us, -1 none */
    int          home_cpu;        /* the one CPU of its original mask, -1 when wider or not yet read */
    int          last_cpu;        /* CPU the last region it entered gave it, -1 none */
    int          depth;           /* regions entered (stack below) */
    rt_region_t *region[RT_MAX_DEPTH];
    int          index[RT_MAX_DEPTH];
    uint64_t     t_begin[RT_MAX_DEPTH];
    int          arrived[RT_MAX_DEPTH];
    int          timed[RT_MAX_DEPTH];   /* this execution is timed */
    int          slot[RT_MAX_DEPTH];    /* this thread's slot in its bubble tree, -1 none */
    rt_team_data_t team[RT_MAX_DEPTH];  /* teams this thread encountered, by level */
    rt_team_data_t initial;             /* the initial task's implicit parallel region */
    rt_team_data_t league;              /* a teams construct's league */
    rt_team_data_t deep;                /* teams nested deeper than RT_MAX_DEPTH */
    rt_region_t *ended;           /* region whose primary implicit task just ended */
    int          mask_saved;      /* `mask` holds the thread's mask from before ompnuma last moved it */
    cpu_set_t    mask;
} rt_thread_t;

/* The table a counter source adds to now: tnt while sampling, tnt_after
 * while a kept move is being confirmed. */
static inline uint64_t *rt_region_tnt_target(rt_region_t *r)
{
    return r->confirming ? r->tnt_after : r->tnt;
}

/* Lookup by code address, team size and parent (NULL for an outermost
 * region), inserting on first sight (takes a lock and allocates only then).
 * NULL when the table is full or memory ran out. */
rt_region_t *rt_region_get(const void *codeptr, int team_size, const rt_region_t *parent);

/* Visit every known region in creation order. */
int          rt_region_count(void);
rt_region_t *rt_region_at(int i);

/* Events, in the order a thread sees them. Cheap: at most one clock read
 * each, no lock, no allocation. */
void rt_thread_init(rt_thread_t *thr, int gtid);
/* The calling thread's state (set by the OpenMP layer at thread begin), or NULL. */
rt_thread_t *rt_thread_current(void);
void rt_thread_set_current(rt_thread_t *thr);
/* A thread ends: no region may name it as a member any more. */
void rt_thread_forget(rt_thread_t *thr);
/* The encountering thread, before the team forks: the region for the
 * requested team size under the thread's current region (created at first
 * sight), with the counter source armed when it is being sampled. NULL when
 * the table is full. */
rt_region_t *rt_event_parallel_begin(rt_thread_t *thr, const void *codeptr, int requested);

/* The region a team member belongs to, given the one its encountering thread
 * found for the requested size: itself, or when the team is smaller, the
 * region for the actual size (same code address and parent). */
rt_region_t *rt_region_for_team(rt_region_t *requested, int actual);
/* Whether the next execution of r is timed: every one while r samples,
 * verifies or confirms, one in RT_TIMING_STRIDE once it is settled (enough
 * to see a drift, and settled regions cost no clock reads otherwise). The
 * encountering thread asks, and tells its team. */
#define RT_TIMING_STRIDE 8
int rt_region_timed(const rt_region_t *r);

/* master_slot: the slot the team's master holds in the bubble tree (-1 none);
 * timed: rt_region_timed's answer for this execution; team: the team
 * instance (its rt_team_data_t), which the counter sources tell apart. */
void rt_event_task_begin(rt_thread_t *thr, rt_region_t *r, int index, int master_slot, int timed,
                         const void *team);
void rt_event_barrier_arrive(rt_thread_t *thr);
void rt_event_task_end(rt_thread_t *thr);
/* The primary, after the join barrier. */
void rt_event_region_end(rt_thread_t *thr, rt_region_t *r, int timed);

uint64_t rt_now_ns(void);

#endif
