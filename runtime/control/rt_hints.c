/* rt_hints.c: omp_numa_update_hints: re-place the calling team from its attach hints, now. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_hints.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_mem.h"
#include "rt_policy.h"
#include "rt_thread.h"
#include "rt_affinity.h"
#include "rt_settings.h"
#include "rt_task.h"
#include "rt_topology.h"

/*
 * The memory manager calls this once per omp_numa_update_hints call that
 * completes (at once for OMP_NUMA_NOW, in the last thread for
 * OMP_NUMA_AT_BARRIER), in a thread of the team. Each attached buffer is
 * a row of references of its owner thread to the nodes holding its pages;
 * the policy decides; a thread moves only when the node decided for it is
 * not the node it runs on. In an outermost team the moves happen now, by
 * thread id, so the rest of the region already runs placed; the region
 * keeps the pins for its next executions (nested teams take them there).
 */
/* Threads each region's update_hints calls moved, by region id (the
 * report's hint_moves). */
static int moves[RT_REGION_MAX];

static int replace(const rt_mem_hint_t *hints, int nhints, int nkernel, int team_size, int level, void *ctx)
{
    rt_thread_t *thr = rt_thread_current();
    int d = thr ? thr->depth - 1 : -1;
    rt_region_t *r = (d >= 0 && d < RT_MAX_DEPTH) ? thr->level[d].region : NULL;
    if (level < 1 || !rt_mach->ok) {
        errno = EINVAL; /* not inside a parallel region */
        return -1;
    }
    int nd = rt_mach->topo.nnodes;
    size_t cells = (size_t)team_size * (size_t)nd;
    uint64_t *refs = calloc(cells, sizeof *refs);
    int *nodes = malloc((size_t)team_size * sizeof *nodes), *cores = malloc((size_t)team_size * sizeof *cores);
    int *cpus = malloc((size_t)team_size * sizeof *cpus), *pin = malloc((size_t)team_size * sizeof *pin);
    int rc = -1, moved = 0;
    double us;
    if (!refs || !nodes || !cores || !cpus || !pin) {
        errno = ENOMEM;
        goto out;
    }
    if (!rt_mem_hints_fold(hints, nhints, nkernel, team_size, nd, refs, NULL)) { /* nothing attached to this team is placed yet: nothing contradicts */
        rc = 0;
        goto out;
    }
    /* The team's threads, and the record that keeps their pins: a team
     * whose members ran without events (the drop-ins' settled teams, until
     * a buffer is attached: om_abi.c's members_recorded) has none. */
    if (!r || r->team_size != team_size) {
        errno = EINVAL;
        goto out;
    }
    if (rt_policy_run(rt_conf->policy, &rt_mach->pl, refs, team_size, nodes, cores, &us) != 0)
        goto out;
    /* pin[t]: the CPU decided for thread t, or -1 when the hints agree
     * with where it runs (it stays). */
    for (int t = 0; t < team_size; t++) {
        rt_thread_t *m = __atomic_load_n(&r->slot[t].member, __ATOMIC_RELAXED);
        cpus[t] = rt_mach->topo.cpus[nodes[t]][cores[t]];
        int pinned = m ? __atomic_load_n(&m->place.pinned_cpu, __ATOMIC_RELAXED) : -1;
        int now = pinned >= 0                              ? pinned
                  : m && m->place.home_cpu >= 0             ? m->place.home_cpu
                  : r->seen_cpu[t] >= 0 || !m               ? r->seen_cpu[t]
                                                            : rt_task_cpu(m->place.tid); /* never sampled */
        int agree = now >= 0 && rt_topo_node_of_cpu(&rt_mach->topo, now) == nodes[t];
        pin[t] = agree ? -1 : cpus[t];
        moved += !agree;
    }
    rt_loop_hinted(r, nodes, cpus, pin);
    /* Now, by thread id, only in an outermost team: a nested region's
     * record is shared by the inner teams of every outer thread, so its
     * member slots may name another team's threads. Those take the pins
     * at their next entry into the region instead. */
    for (int t = 0; moved && rt_affinity_applies() && r->level == 1 && t < team_size; t++) {
        rt_thread_t *m = __atomic_load_n(&r->slot[t].member, __ATOMIC_RELAXED);
        if (m && pin[t] >= 0 && rt_affinity_move(&m->place, pin[t], RT_MOVER_HINTS) == 0)
            __atomic_store_n(&m->last_cpu, pin[t], __ATOMIC_RELAXED);
    }
    if (moved)
        __atomic_fetch_add(&moves[r->id], moved, __ATOMIC_RELAXED);
    rt_verbose(1, "region %d: update_hints at level %d: %d of %d threads moved (%d buffers, decided in %.1f us)%s",
               r->id, level, moved, team_size, nhints, us, rt_affinity_applies() ? "" : " (dry run)");
    rc = 0;
out:
    free(refs);
    free(nodes);
    free(cores);
    free(cpus);
    free(pin);
    return rc;
}

void rt_hints_report_json(FILE *f, const rt_region_t *r)
{
    fprintf(f, ",\"hint_moves\":%d", __atomic_load_n(&moves[r->id], __ATOMIC_RELAXED));
}

void rt_hints_init(void)
{
    rt_mem_set_replace_hook(replace, NULL);
}
