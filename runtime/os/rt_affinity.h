/* rt_affinity.h: the one owner of every thread move: pins a thread (itself or another, by tid), keeps its home mask, counts who moved it and what it cost, honours dry run. */
#ifndef OMPNUMA_RT_AFFINITY_H
#define OMPNUMA_RT_AFFINITY_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Every part of ompnuma that moves a thread goes through rt_affinity_move:
 * the region loop (and its compromise), omp_numa_update_hints, the bubble
 * trees, the online migration monitor, and the MPI mapper (through the
 * allotment below, which moves every thread of the process). So the
 * home mask a thread had before ompnuma first moved it is saved whoever
 * moves it first, restored whoever asks, and the report can say who moved
 * threads how often and at what cost.
 */

typedef enum rt_mover {
    RT_MOVER_LOOP = 0,   /* the per-region placement loop */
    RT_MOVER_HINTS,      /* omp_numa_update_hints */
    RT_MOVER_BUBBLE,     /* the bubble trees */
    RT_MOVER_MONITOR,    /* online migration (IMAR2) */
    RT_MOVER_MPI,        /* the MPI process mapper */
    RT_MOVER_COUNT
} rt_mover_t;

const char *rt_mover_name(rt_mover_t who);

/* Where one thread is, as far as ompnuma moved it. One per thread, owned by
 * the thread's record; other threads may move it (serialised by `lock`). */
typedef struct rt_place {
    pid_t      tid;          /* the kernel's thread id */
    int        pinned_cpu;   /* CPU ompnuma pinned it to, -1 at home (atomic) */
    int        home_cpu;     /* the one CPU of its home mask, -1 when wider or not yet read */
    int        mask_saved;   /* `home` holds the mask from before ompnuma moved it */
    int        lock;
    unsigned   allot_seen;   /* the allotment move this place has caught up with */
    rt_mover_t last_mover;
    cpu_set_t  home;
} rt_place_t;

/* The calling thread's place, at home. */
void rt_place_init(rt_place_t *p);

/* Once at start-up, after the settings and the machine: whether pins apply
 * here (not in dry run, not on a topology that is not this machine unless
 * HWLOC_THISSYSTEM=1) and how OMP_PROC_BIND / OMP_PLACES relate. */
void        rt_affinity_init(void);
int         rt_affinity_applies(void);
const char *rt_affinity_mode(void);          /* why pins apply or not, for the report */
const char *rt_affinity_binding_note(void);  /* "" when no OpenMP binding is set */

/* The calling thread's current mask. 0 or -1 with errno. */
int rt_affinity_get(cpu_set_t *mask);

/*
 * Move the thread of p to one CPU (cpu >= 0), or back home (cpu = -1: the
 * mask it had when ompnuma first moved it, read then, whoever moved it).
 * A thread whose home mask is that one CPU is at home there. No system
 * call when the place is unchanged, and none in dry run (rt_affinity_applies
 * 0): then nothing moves and 0 is returned. A failed call leaves the thread
 * where it was. Thread-safe; never from a signal handler.
 * Returns 0, or -1 with errno (EINVAL: cpu beyond CPU_SETSIZE; the errno of
 * sched_getaffinity / sched_setaffinity, e.g. ESRCH for a thread gone).
 */
int rt_affinity_move(rt_place_t *p, int cpu, rt_mover_t who);

/*
 * Undo a move completely: the calling thread (p is its own place) goes back
 * to CPU `via`, where it ran before ompnuma moved it, and then gets its home
 * mask back. Restoring the mask alone leaves it where the move put it: with
 * a mask wider than one CPU the kernel has no reason to move it, so a
 * rolled-back mapping would go on running (measured: CG class W, 43 % of
 * the misses remote after a rollback against 0.4 % on stock). The first
 * call pins it to `via` (the kernel moves a running thread at once), the
 * second widens its mask again, which leaves it there. No system call when
 * it already runs on `via` at home; two at most. A `via` outside its home
 * mask, or outside the rank's allotment, is not a place it had: it just
 * goes home (rt_affinity_move(p, -1, who)). Same return convention.
 */
int rt_affinity_return(rt_place_t *p, int via, rt_mover_t who);

/*
 * The rank's allotment: the CPUs the MPI mapper gave this process (an MPI
 * rank) on its node. rt_affinity_allot moves every thread of the process
 * there (each tid in /proc/self/task: OpenMP workers, MPI progress threads,
 * the program's own), unless dry_run, and records it either way. From then
 * on it is home for every thread ompnuma moves (a thread it pinned is
 * unpinned by the move: its place is caught up at its next move), and a pin
 * to a CPU outside it is a move home instead: the mapper's node wins over a
 * decision taken before it, until the region loop decides again inside the
 * allotment. Returns the threads moved (or counted in dry run), *failed the
 * ones the kernel refused; -1 with errno EINVAL for an empty set. Not from a
 * signal handler; allocates nothing.
 */
int rt_affinity_allot(const cpu_set_t *set, int dry_run, int *failed);

/* The allotment in *set (when not NULL) and its generation: 0 while there
 * is none (every CPU is the process's), then one more at each change. */
unsigned rt_affinity_allotment(cpu_set_t *set);

/* Moves made for `who` and the time spent in their system calls. */
void rt_affinity_stats(rt_mover_t who, uint64_t *moves, uint64_t *ns);
/* The same, all movers together. */
void rt_affinity_totals(uint64_t *moves, uint64_t *ns);

#endif
