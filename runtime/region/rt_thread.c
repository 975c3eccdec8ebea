/* rt_thread.c: the thread registry: each OpenMP thread's record, found from the thread itself. */
#include <string.h>

#include "rt_fault.h"
#include "rt_thread.h"

__thread rt_thread_t *rt_thread_self_ __attribute__((tls_model("initial-exec")));

void rt_thread_set_current(rt_thread_t *thr)
{
    rt_thread_self_ = thr;
}

void rt_thread_init(rt_thread_t *thr, int gtid)
{
    memset(thr, 0, sizeof *thr);
    thr->gtid = gtid;
    rt_place_init(&thr->place); /* its home mask is read at its first move: libomp binds threads later */
    thr->last_cpu = -1;
    rt_fault_exclude_thread(); /* its TCB, TLS and stack are never sampled */
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
