// A loop inside one long region that rests (its source waits for the budget, after a decision: the verification's
// sample) still moves its team where its mapping puts it. A worker that skipped its move while the loop rested stayed
// on its CPU, which the primary had just moved to: two threads on one CPU for the rest of the run (the patterns'
// swapped-long in the paced 2-node VM: 1.43 x `off` in one run of two, and a good mapping rolled back, measured with
// both threads on one CPU). White box: the long region's execution under way, its loop's record holding the mapping
// [1, 0] and resting, and the worker's loop begin on its own thread, started on CPU 1.
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath %t | FileCheck %s
// CHECK: worker on cpu 0 of the mapping's 0
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "rt_affinity.h"
#include "rt_events.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_thread.h"
#include "rt_topology.h"

static void long_region(void)
{
}

static void the_loop(void)
{
}

static rt_region_t *outer, *loop;

static void *worker(void *arg)
{
    (void)arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    sched_setaffinity(0, sizeof one, &one); /* where the primary now runs */
    static rt_thread_t thr;
    rt_thread_init(&thr, 1);
    thr.depth = 1;
    thr.level[0].region = outer;
    thr.level[0].index = 1;
    rt_event_loop_begin(&thr, (const void *)the_loop);
    cpu_set_t now;
    int cpu = -1;
    if (sched_getaffinity(0, sizeof now, &now) == 0 && CPU_COUNT(&now) == 1)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &now))
                cpu = c;
    printf("worker on cpu %d of the mapping's %d\n", cpu, loop->pin_cpu[1]);
    return NULL;
}

int main(void)
{
    rt_settings_init();
    if (rt_machine_init(NULL, 0) != 0 || rt_mach->topo.nnodes != 2)
        return 1;
    rt_affinity_init();
    rt_loop_init();
    outer = rt_region_get((const void *)long_region, 2, NULL, -1); /* its one execution under way: executions 0 */
    loop = rt_region_construct((const void *)the_loop, outer, 1);
    if (!outer || !loop || !rt_affinity_applies())
        return 2;
    loop->pin_cpu[0] = 1;
    loop->pin_cpu[1] = 0;
    loop->pins_applied = 1;
    loop->resting = 1;
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 3;
    pthread_join(t, NULL);
    return 0;
}
