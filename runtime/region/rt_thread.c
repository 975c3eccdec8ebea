/* rt_thread.c: the thread registry: each OpenMP thread's record, found from the thread itself. */
#include <errno.h>
#include <string.h>

#include "rt_affinity.h"
#include "rt_fault.h"
#include "rt_log.h"
#include "rt_pages.h"
#include "rt_settings.h"
#include "rt_task.h"
#include "rt_thread.h"
#include "rt_topology.h"

__thread rt_thread_t *rt_thread_self_ __attribute__((tls_model("initial-exec")));

void rt_thread_set_current(rt_thread_t *thr)
{
    rt_thread_self_ = thr;
}

/* The node every CPU of the calling thread's mask belongs to, or -1 (an
 * unbound thread, or one bound across nodes). */
static int bound_node(void)
{
    cpu_set_t mask;
    if (rt_affinity_get(&mask) != 0)
        return -1;
    int node = -1;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &mask))
            continue;
        int n = rt_topo_node_of_cpu(&rt_mach->topo, c);
        if (n < 0 || (node >= 0 && n != node))
            return -1;
        node = n;
    }
    return node;
}

/*
 * A new thread's stack top, static TLS and TCB were written first by the
 * thread that created it (glibc's pthread_create), so they are on that
 * thread's node, and with transparent huge pages the whole 2 MiB around
 * them when the stack mapping happens to be 2 MiB aligned: the thread's
 * stack frames, its TLS (libomp's, libc's errno, ours) and its TCB, remote
 * for all its life. Which stacks are aligned depends on what was mapped
 * before them: in the paced 4-node VM (STREAM, 4 threads bound in order)
 * one run of the defaults found thread 3's whole stack top, 513 pages, on
 * node 0 and ran thread 3 at 6 913 remote misses against off's 3 041. A
 * member bound within one node takes its own pages home, once, at its
 * first event, when placement is on (not in dry run) and the topology is
 * this machine's.
 */
static void stack_home(int gtid)
{
    if (rt_conf->mode == RT_MODE_OFF || rt_conf->dry_run || !rt_mach->ok || rt_mach->topo.nnodes < 2 ||
        !rt_topo_is_kernels(&rt_mach->topo) || rt_task_initial())
        return;
    int node = bound_node();
    if (node < 0)
        return;
    size_t moved, seen;
    if (rt_pages_own_stack_to(rt_mach->topo.os_index[node], &moved, &seen) != 0)
        rt_verbose(2, "thread %d: its stack and TLS not checked: %s", gtid, strerror(errno));
    else if (moved)
        rt_verbose(1, "thread %d: %zu of the %zu pages of its stack top, TLS and TCB moved to its node %d (written "
                   "first by the thread that created it)", gtid, moved, seen, node);
}

void rt_thread_init(rt_thread_t *thr, int gtid)
{
    memset(thr, 0, sizeof *thr);
    thr->gtid = gtid;
    rt_place_init(&thr->place); /* its home mask is read at its first move: libomp binds threads later */
    thr->last_cpu = -1;
    rt_fault_exclude_thread(); /* its TCB, TLS and stack are never sampled */
    stack_home(gtid);
}

void rt_thread_forget(rt_thread_t *thr)
{
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *r = rt_region_at(i);
        for (int t = 0; t < r->team_size; t++)
            __atomic_compare_exchange_n(&r->slot[t].member, &(rt_thread_t *){thr}, NULL, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED);
    }
}
