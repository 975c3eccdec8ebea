/* rt_affinity.c: apply a thread's place with sched_setaffinity, or record it in dry-run mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_affinity.h"
#include "rt_runtime.h"

void rt_affinity_init(void)
{
    const char *thissystem = getenv("HWLOC_THISSYSTEM");
    int forced = thissystem && !strcmp(thissystem, "1");
    if (rt.settings.dry_run) {
        rt.pins_apply = 0;
        snprintf(rt.pin_mode, sizeof rt.pin_mode, "dry run (OMP_PLACEMENT dry_run): intended CPUs recorded, not applied");
    } else if (!rt.topo_ok) {
        rt.pins_apply = 0;
        snprintf(rt.pin_mode, sizeof rt.pin_mode, "off: no topology");
    } else if (!rt.topo.this_system && !forced) {
        rt.pins_apply = 0;
        snprintf(rt.pin_mode, sizeof rt.pin_mode,
                 "dry run: the topology is not this machine (set HWLOC_THISSYSTEM=1 to apply pins)");
    } else {
        rt.pins_apply = 1;
        snprintf(rt.pin_mode, sizeof rt.pin_mode, "applied with sched_setaffinity%s",
                 rt.topo.this_system ? "" : " (HWLOC_THISSYSTEM=1 on a foreign topology)");
    }
    const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
    if ((bind && *bind) || (places && *places))
        snprintf(rt.binding_note, sizeof rt.binding_note,
                 "OMP_PROC_BIND=%s OMP_PLACES=%s: %s", bind ? bind : "", places ? places : "",
                 rt.settings.enabled && rt.pins_apply
                     ? "ompnuma's mapping wins for the regions it re-pins; a thread stays where the last such "
                       "region put it, and the primary gets its binding back at each region's end"
                     : "the OpenMP binding applies (ompnuma pins nothing)");
}

int rt_affinity_get(cpu_set_t *mask)
{
    CPU_ZERO(mask);
    return sched_getaffinity(0, sizeof *mask, mask);
}

/* The mask a thread has when ompnuma moves it away from its own placement:
 * the user's, or the OpenMP binding (OMP_PROC_BIND), which libomp applies
 * after the thread started, or whatever the program set since. Read at
 * every such move, so restoring it undoes only ompnuma's move. */
static void save_home(rt_thread_t *thr)
{
    if (rt_affinity_get(&thr->mask) != 0) {
        thr->mask_saved = 0;
        return;
    }
    thr->mask_saved = 1;
    thr->home_cpu = -1;
    if (CPU_COUNT(&thr->mask) == 1)
        for (int c = 0; c < CPU_SETSIZE && thr->home_cpu < 0; c++)
            if (CPU_ISSET(c, &thr->mask))
                thr->home_cpu = c;
}

void rt_affinity_place(rt_thread_t *thr, int cpu)
{
    if (cpu >= 0 && __atomic_load_n(&thr->pinned_cpu, __ATOMIC_RELAXED) < 0)
        save_home(thr);
    /* A thread bound to one CPU by its original mask is at home there:
     * pinning it to that CPU, or restoring its mask, is the same place. */
    if (cpu >= 0 && cpu == thr->home_cpu)
        cpu = -1;
    /* Atomic: omp_numa_update_hints may move this thread from another one. */
    if (cpu == __atomic_load_n(&thr->pinned_cpu, __ATOMIC_RELAXED))
        return;
    /* Timed: the loop weighs what bouncing between mappings costs. */
    uint64_t t0 = rt_now_ns();
    if (cpu >= 0) {
        if (cpu >= CPU_SETSIZE)
            return;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            __atomic_store_n(&thr->pinned_cpu, cpu, __ATOMIC_RELAXED);
    } else if (thr->mask_saved) {
        if (sched_setaffinity(0, sizeof thr->mask, &thr->mask) == 0)
            __atomic_store_n(&thr->pinned_cpu, -1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&rt.repin_ns, rt_now_ns() - t0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&rt.repin_count, 1, __ATOMIC_RELAXED);
}
