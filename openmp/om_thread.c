/* om_thread.c: each OpenMP thread's record in the OpenMP layer: created at the thread's first event, gone with the thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "om_team.h"

static int next_gtid;

/* The ABI route has no thread-end event: the record goes with its thread
 * through a thread-specific key whose value is the record. */
static pthread_key_t end_key;
static int end_key_made;

static void at_thread_exit(void *t)
{
    om_thread_end(t);
}

void om_thread_end_at_exit(void)
{
    if (!__atomic_load_n(&end_key_made, __ATOMIC_ACQUIRE) && pthread_key_create(&end_key, at_thread_exit) == 0)
        __atomic_store_n(&end_key_made, 1, __ATOMIC_RELEASE);
}

__attribute__((noinline, cold)) om_thread_t *om_thread_create(void)
{
    om_thread_t *t = aligned_alloc(_Alignof(om_thread_t), sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    rt_thread_init(&t->rt, __atomic_fetch_add(&next_gtid, 1, __ATOMIC_RELAXED));
    rt_thread_set_current(&t->rt);
    if (__atomic_load_n(&end_key_made, __ATOMIC_ACQUIRE))
        pthread_setspecific(end_key, t);
    return t;
}

void om_thread_end(om_thread_t *t)
{
    if (!t)
        return;
    /* Nothing reads the record afterwards: the monitor finishes a step
     * first, regions drop it as a member. */
    rt_event_thread_end(&t->rt);
    if (rt_thread_current() == &t->rt)
        rt_thread_set_current(NULL);
    free(t);
}
