// A program handler installed after ompnuma's that chains to the action it replaced: pager faults still resolve, the program's own faults reach it exactly once, and the chain never loops.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && %t | FileCheck %s
#include "memtest.h"
#include "rt_fault.h"
#include "rt_mem.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static struct sigaction before;
static sigjmp_buf env;
static char *own_page;
static volatile int own_calls, chained_calls;

static void chaining(int sig, siginfo_t *si, void *uc)
{
    if ((char *)si->si_addr == own_page) {
        own_calls++;
        siglongjmp(env, 1);
    }
    chained_calls++;
    before.sa_sigaction(sig, si, uc);   /* not mine: pass it on, as careful libraries do */
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *p = rt_mem_alloc(8 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, 8 * ps, 3);
    rt_mem_migrate_on_next_touch(p, 8 * ps);

    struct sigaction sa = { 0 };
    sa.sa_sigaction = chaining;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, &before);
    own_page = mmap(NULL, ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    /* The program's handler runs first and chains to ompnuma for pager faults. */
    printf("data (program handler first): %s\n", mt_verify(p, 4 * ps, 3) ? "intact" : "CORRUPT");
    printf("chained pager faults: %d\n", chained_calls);
    if (sigsetjmp(env, 1) == 0)
        own_page[0] = 1;
    printf("own faults: %d\n", own_calls);

    /* Arming again re-installs ompnuma on top; the program's handler is
     * then called by ompnuma, and chains back: sent down, never looping. */
    rt_mem_migrate_on_next_touch(p + 4 * ps, 4 * ps);
    rt_fault_stats_t st;
    rt_fault_get_stats(&st);
    printf("reinstalled: %llu\n", (unsigned long long)st.reinstalled);
    printf("data (ompnuma first): %s\n", mt_verify(p, 8 * ps, 3) ? "intact" : "CORRUPT");
    if (sigsetjmp(env, 1) == 0)
        own_page[0] = 1;
    printf("own faults: %d\n", own_calls);
    printf("chained pager faults: %d\n", chained_calls);
    rt_mem_free(p);
    return 0;
}
// CHECK: data (program handler first): intact
// CHECK-NEXT: chained pager faults: 4
// CHECK-NEXT: own faults: 1
// CHECK-NEXT: reinstalled: 1
// CHECK-NEXT: data (ompnuma first): intact
// CHECK-NEXT: own faults: 2
// CHECK-NEXT: chained pager faults: 4
