// update_hints hands the placement hook a snapshot of every attached buffer (owner, size, pages per node): at once with NOW, and exactly once per team, from the last arriving thread, with AT_BARRIER.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && env OMP_NUM_THREADS=4 %t | FileCheck %s
#include "memtest.h"
#include "rt_mem.h"
#include <omp.h>
#include <unistd.h>

static int calls, last_team, last_n;
static int arrived_before_hook;
static _Atomic int arrived;

static int hook(const rt_mem_hint_t *h, int n, int nnodes, int team_size, int level, void *ctx)
{
    calls++;
    last_team = team_size;
    last_n = n;
    arrived_before_hook = arrived;
    for (int i = 0; i < n; i++)
        printf("hint: thread %d bytes %zu home %d on node 0: %zu unplaced %zu\n", h[i].thread_num, h[i].bytes,
               h[i].home, h[i].pages_per_node[0], h[i].unplaced);
    return *(int *)ctx;
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    char *a = rt_mem_alloc(16 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    memset(a, 1, 8 * ps);   /* half touched */
    rt_mem_attach(a, 16 * ps, 0);
    rt_mem_attach(a + 8 * ps, 2 * ps, 3);
    int ret = 0;

    EXPECT_ERR("no hook", rt_mem_update_hints(OMP_NUMA_NOW, 1, 1, 0), -1, ENOSYS);
    rt_mem_set_replace_hook(hook, &ret);
    EXPECT_OK("now", rt_mem_update_hints(OMP_NUMA_NOW, 1, 1, 0));
    printf("calls %d hints %d\n", calls, last_n);

    calls = 0;
    int fails = 0;
#pragma omp parallel reduction(+ : fails)
    {
        /* Each thread waits a little longer, so the last arrival is thread 3. */
        usleep(20000 * (useconds_t)omp_get_thread_num());
        arrived++;
        fails += rt_mem_update_hints(OMP_NUMA_AT_BARRIER, 42, omp_get_num_threads(), 1) != 0;
    }
    printf("at barrier: calls %d team %d arrived before the hook %d failures %d\n", calls, last_team,
           arrived_before_hook, fails);

    ret = -1;
    errno = 0;
    int r = rt_mem_update_hints(OMP_NUMA_NOW, 1, 1, 0);
    printf("hook failure returned: %d\n", r);
    rt_mem_detach(a);
    rt_mem_detach(a + 8 * ps);
    ret = 0;
    calls = 0;
    rt_mem_update_hints(OMP_NUMA_NOW, 1, 1, 0);
    printf("no attachments: calls %d hints %d\n", calls, last_n);
    EXPECT_ERR("bad when", rt_mem_update_hints(7, 1, 1, 0), -1, EINVAL);
    EXPECT_ERR("bad team size", rt_mem_update_hints(OMP_NUMA_AT_BARRIER, 1, 0, 0), -1, EINVAL);
    rt_mem_free(a);
    return 0;
}
// CHECK: no hook: ok
// CHECK-DAG: hint: thread 0 bytes 65536 home 0 on node 0: 8 unplaced 8
// CHECK-DAG: hint: thread 3 bytes 8192 home -1 on node 0: 0 unplaced 2
// CHECK: now: ok
// CHECK-NEXT: calls 1 hints 2
// CHECK: at barrier: calls 1 team 4 arrived before the hook 4 failures 0
// CHECK: hook failure returned: -1
// CHECK-NEXT: no attachments: calls 1 hints 0
// CHECK-NEXT: bad when: ok
// CHECK-NEXT: bad team size: ok
