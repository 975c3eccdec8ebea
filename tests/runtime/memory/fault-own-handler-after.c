// A program that installs a non-chaining SIGSEGV handler after ompnuma's: the next arming puts ompnuma back on top, armed pages work, and the program's handler still gets its own faults.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int mine_calls;

static void mine(int sig)
{
    mine_calls++;
    siglongjmp(env, 1);
}

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *p = omp_numa_alloc(16 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, 16 * ps, 6);
    omp_numa_migrate_on_next_touch(p, 16 * ps);   /* installs ompnuma's handler */
    p[0] = p[0];
    signal(SIGSEGV, mine);                       /* replaces it, without chaining */
    omp_numa_migrate_on_next_touch(p, 16 * ps);   /* re-installs on top */
    printf("data through the pager: %s\n", mt_verify(p, 16 * ps, 6) ? "intact" : "CORRUPT");
    printf("program handler calls so far: %d\n", mine_calls);
    char *none = mmap(NULL, ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sigsetjmp(env, 1) == 0)
        none[1] = 1;
    printf("program handler calls after its own fault: %d\n", mine_calls);
    omp_numa_free(p);
    return 0;
}
// CHECK: data through the pager: intact
// CHECK-NEXT: program handler calls so far: 0
// CHECK-NEXT: program handler calls after its own fault: 1
