/* rt_affinity.c: the one owner of thread moves: sched_setaffinity by tid, home masks saved at the first move, per-mover counts, dry run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_sys.h"
#include "rt_core.h"
#include "rt_procfs.h"
#include "rt_settings.h"
#include "rt_topology.h"

static int applies;
static char mode[160];
static char binding_note[256];
static uint64_t moves[RT_MOVER_COUNT], move_ns[RT_MOVER_COUNT];

/* The rank's allotment (rt_affinity_allot): written rarely, read by the
 * slow path of a move and by the region loop's decisions. `gen` counts
 * changes, `moved` the changes that moved the threads there. */
static struct {
    int       lock;
    unsigned  gen, moved;
    cpu_set_t set;
} allot;

static const char *const mover_names[RT_MOVER_COUNT] = {"loop", "hints", "bubble", "monitor", "mpi"};

const char *rt_mover_name(rt_mover_t who)
{
    return (unsigned)who < RT_MOVER_COUNT ? mover_names[who] : "?";
}

void rt_place_init(rt_place_t *p)
{
    memset(p, 0, sizeof *p);
    p->tid = rt_gettid();
    p->pinned_cpu = -1;
    p->home_cpu = -1;
}

void rt_affinity_init(void)
{
    const char *thissystem = getenv("HWLOC_THISSYSTEM");
    int forced = thissystem && !strcmp(thissystem, "1");
    applies = 0;
    if (rt_conf->dry_run)
        snprintf(mode, sizeof mode, "dry run (OMP_PLACEMENT dry_run): intended CPUs recorded, not applied");
    else if (!rt_mach->ok)
        snprintf(mode, sizeof mode, "off: no topology");
    else if (!rt_mach->topo.this_system && !forced)
        snprintf(mode, sizeof mode, "dry run: the topology is not this machine (set HWLOC_THISSYSTEM=1 to apply pins)");
    else {
        applies = 1;
        snprintf(mode, sizeof mode, "applied with sched_setaffinity%s",
                 rt_mach->topo.this_system ? "" : " (HWLOC_THISSYSTEM=1 on a foreign topology)");
    }
    const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
    binding_note[0] = '\0';
    /* Where the primary goes in serial code (rt_primary_t). */
    const char *primary = rt_conf->primary == RT_PRIMARY_RETURN
                              ? "and the primary gets its binding back at each region's end (primary=return)"
                          : rt_conf->primary == RT_PRIMARY_STAY
                              ? "the primary too, in serial code (primary=stay)"
                              : "the primary too, in serial code, while the OpenMP binding is on (primary=auto)";
    if ((bind && *bind) || (places && *places)) {
        if (rt_conf->mode == RT_MODE_OFF || !applies)
            snprintf(binding_note, sizeof binding_note, "OMP_PROC_BIND=%s OMP_PLACES=%s: the OpenMP binding "
                     "applies (ompnuma pins nothing)", bind ? bind : "", places ? places : "");
        else
            snprintf(binding_note, sizeof binding_note, "OMP_PROC_BIND=%s OMP_PLACES=%s: ompnuma's mapping wins "
                     "for the regions it re-pins; a thread stays where the last such region put it, %s",
                     bind ? bind : "", places ? places : "", primary);
    }
}

int rt_affinity_applies(void)
{
    return applies;
}

const char *rt_affinity_mode(void)
{
    return mode;
}

const char *rt_affinity_binding_note(void)
{
    return binding_note;
}

int rt_affinity_get(cpu_set_t *mask)
{
    CPU_ZERO(mask);
    return sched_getaffinity(0, sizeof *mask, mask);
}

static void spin_lock(int *l)
{
    while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void spin_unlock(int *l)
{
    __atomic_clear(l, __ATOMIC_RELEASE);
}

static void lock(rt_place_t *p)
{
    spin_lock(&p->lock);
}

static void unlock(rt_place_t *p)
{
    spin_unlock(&p->lock);
}

/* Whether cpu lies outside the allotment (never, while there is none). */
static int outside_allotment(int cpu)
{
    if (!__atomic_load_n(&allot.gen, __ATOMIC_ACQUIRE))
        return 0;
    spin_lock(&allot.lock);
    int out = !CPU_ISSET(cpu, &allot.set);
    spin_unlock(&allot.lock);
    return out;
}

/* The mask the thread has when ompnuma moves it away from its own placement:
 * the user's, or the OpenMP binding (OMP_PROC_BIND), which libomp applies
 * after the thread started, or whatever the program set since. Read at
 * every such move, so restoring it undoes only ompnuma's move. */
static void save_home(rt_place_t *p)
{
    CPU_ZERO(&p->home);
    if (sched_getaffinity(p->tid, sizeof p->home, &p->home) != 0) {
        p->mask_saved = 0;
        return;
    }
    p->mask_saved = 1;
    p->home_cpu = -1;
    if (CPU_COUNT(&p->home) == 1)
        for (int c = 0; c < CPU_SETSIZE && p->home_cpu < 0; c++)
            if (CPU_ISSET(c, &p->home))
                p->home_cpu = c;
}

/* sched_setaffinity, timed (the loop weighs what bouncing between mappings
 * costs) and counted for who. */
static int set_mask(pid_t tid, const cpu_set_t *mask, rt_mover_t who)
{
    uint64_t t0 = rt_now_ns();
    int rc = sched_setaffinity(tid, sizeof *mask, mask);
    __atomic_fetch_add(&move_ns[who], rt_now_ns() - t0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&moves[who], 1, __ATOMIC_RELAXED);
    return rc;
}

int rt_affinity_move(rt_place_t *p, int cpu, rt_mover_t who)
{
    if (cpu >= CPU_SETSIZE || (unsigned)who >= RT_MOVER_COUNT) {
        errno = EINVAL;
        return -1;
    }
    /* The common case, unlocked: the thread is already there, and no
     * allotment moved it since. */
    unsigned moved = __atomic_load_n(&allot.moved, __ATOMIC_ACQUIRE);
    if (!applies ||
        (cpu == __atomic_load_n(&p->pinned_cpu, __ATOMIC_RELAXED) &&
         moved == __atomic_load_n(&p->allot_seen, __ATOMIC_RELAXED)))
        return 0;
    int rc = 0;
    lock(p);
    if (p->allot_seen != moved) {
        /* The allotment moved every thread to its CPUs: this one is at home
         * there, whatever ompnuma had pinned it to; its home is read again
         * at its next pin. */
        __atomic_store_n(&p->pinned_cpu, -1, __ATOMIC_RELAXED);
        p->home_cpu = -1;
        p->mask_saved = 0;
        __atomic_store_n(&p->allot_seen, moved, __ATOMIC_RELAXED);
    }
    /* A decision taken before the allotment changed (or by a part that does
     * not know it) does not take a thread off the rank's CPUs. */
    if (cpu >= 0 && outside_allotment(cpu))
        cpu = -1;
    if (cpu >= 0 && __atomic_load_n(&p->pinned_cpu, __ATOMIC_RELAXED) < 0)
        save_home(p);
    /* A thread bound to one CPU by its home mask is at home there: pinning
     * it to that CPU and restoring its mask are the same place. */
    if (cpu >= 0 && cpu == p->home_cpu)
        cpu = -1;
    if (cpu != __atomic_load_n(&p->pinned_cpu, __ATOMIC_RELAXED) && (cpu >= 0 || p->mask_saved)) {
        cpu_set_t one, *mask = &p->home;
        if (cpu >= 0) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            mask = &one;
        }
        rc = set_mask(p->tid, mask, who);
        if (rc == 0) {
            __atomic_store_n(&p->pinned_cpu, cpu, __ATOMIC_RELAXED);
            __atomic_store_n(&p->last_mover, who, __ATOMIC_RELAXED); /* read unlocked at region end */
        }
    }
    unlock(p);
    return rc;
}

int rt_affinity_return(rt_place_t *p, int via, rt_mover_t who)
{
    if (via < 0 || via >= CPU_SETSIZE || (unsigned)who >= RT_MOVER_COUNT)
        return rt_affinity_move(p, -1, who);
    if (!applies)
        return 0;
    /* Home first, as any move home: the mask it had, the allotment caught up. */
    if (rt_affinity_move(p, -1, who) != 0)
        return -1;
    if (sched_getcpu() == via || outside_allotment(via))
        return 0;
    int rc = 0;
    lock(p);
    cpu_set_t home, one;
    if (sched_getaffinity(p->tid, sizeof home, &home) == 0 && CPU_ISSET(via, &home) && CPU_COUNT(&home) > 1) {
        CPU_ZERO(&one);
        CPU_SET(via, &one);
        rc = set_mask(p->tid, &one, who);
        if (rc == 0)
            rc = set_mask(p->tid, &home, who);
        if (rc == 0)
            __atomic_store_n(&p->last_mover, who, __ATOMIC_RELAXED);
    }
    unlock(p);
    return rc;
}

struct allot_walk {
    const cpu_set_t *set;
    int              dry_run, bad;
};

static int allot_one(pid_t tid, void *ctx)
{
    struct allot_walk *w = ctx;
    /* A thread that exited since the listing answers ESRCH: not a refusal. */
    if (!w->dry_run && sched_setaffinity(tid, sizeof *w->set, w->set) && errno != ESRCH)
        w->bad++;
    return 0;
}

int rt_affinity_allot(const cpu_set_t *set, int dry_run, int *failed)
{
    if (failed)
        *failed = 0;
    if (!set || CPU_COUNT(set) == 0) {
        errno = EINVAL;
        return -1;
    }
    spin_lock(&allot.lock);
    allot.set = *set;
    __atomic_fetch_add(&allot.gen, 1, __ATOMIC_RELEASE);
    spin_unlock(&allot.lock);
    uint64_t t0 = rt_now_ns();
    struct allot_walk w = {.set = set, .dry_run = dry_run};
    int n = rt_procfs_each_task(allot_one, &w);
    if (n < 0) {
        /* No procfs: the calling thread at least. */
        n = 1;
        if (!dry_run && sched_setaffinity(0, sizeof *set, set))
            w.bad = 1;
    }
    if (!dry_run) {
        /* Every place catches up at its next move (rt_affinity_move). */
        __atomic_fetch_add(&allot.moved, 1, __ATOMIC_RELEASE);
        __atomic_fetch_add(&move_ns[RT_MOVER_MPI], rt_now_ns() - t0, __ATOMIC_RELAXED);
        __atomic_fetch_add(&moves[RT_MOVER_MPI], (uint64_t)n, __ATOMIC_RELAXED);
    }
    if (failed)
        *failed = w.bad;
    return n;
}

unsigned rt_affinity_allotment(cpu_set_t *set)
{
    unsigned gen = __atomic_load_n(&allot.gen, __ATOMIC_ACQUIRE);
    if (set) {
        spin_lock(&allot.lock);
        gen = __atomic_load_n(&allot.gen, __ATOMIC_ACQUIRE);
        if (gen)
            *set = allot.set;
        else
            CPU_ZERO(set);
        spin_unlock(&allot.lock);
    }
    return gen;
}

void rt_affinity_stats(rt_mover_t who, uint64_t *count, uint64_t *ns)
{
    *count = (unsigned)who < RT_MOVER_COUNT ? __atomic_load_n(&moves[who], __ATOMIC_RELAXED) : 0;
    *ns = (unsigned)who < RT_MOVER_COUNT ? __atomic_load_n(&move_ns[who], __ATOMIC_RELAXED) : 0;
}

void rt_affinity_totals(uint64_t *count, uint64_t *ns)
{
    *count = *ns = 0;
    for (int w = 0; w < RT_MOVER_COUNT; w++) {
        uint64_t c, n;
        rt_affinity_stats((rt_mover_t)w, &c, &n);
        *count += c;
        *ns += n;
    }
}
