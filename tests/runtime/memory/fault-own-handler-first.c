// A program's own SIGSEGV handler, installed before ompnuma's, still receives the program's own faults, while the pager resolves the faults on armed pages.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile void *seen;

static void mine(int sig, siginfo_t *si, void *uc)
{
    seen = si->si_addr;
    siglongjmp(env, 1);
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    struct sigaction sa = { 0 };
    sa.sa_sigaction = mine;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);

    char *ro = mmap(NULL, ps, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *p = omp_numa_alloc(16 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, 16 * ps, 8);
    omp_numa_migrate_on_next_touch(p, 16 * ps);
    printf("data through the pager: %s\n", mt_verify(p, 16 * ps, 8) ? "intact" : "CORRUPT");
    if (sigsetjmp(env, 1) == 0) {
        ro[0] = 1;   /* the program's own fault */
        printf("no fault?\n");
    }
    printf("own handler got its fault: %s\n", seen == ro ? "yes" : "no");
    /* Armed memory keeps working after the program's handler ran. */
    omp_numa_migrate_on_next_touch(p, 16 * ps);
    printf("data after: %s\n", mt_verify(p, 16 * ps, 8) ? "intact" : "CORRUPT");
    omp_numa_free(p);
    return 0;
}
// CHECK: data through the pager: intact
// CHECK-NEXT: own handler got its fault: yes
// CHECK-NEXT: data after: intact
