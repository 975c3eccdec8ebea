// A fault that is nobody's still kills the program with SIGSEGV once ompnuma's dispatcher is installed, with the default action and with SIG_IGN.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t
// RUN: not --crash %t dfl 2>&1 | FileCheck %s
// RUN: not --crash %t ign 2>&1 | FileCheck %s
// RUN: %t status dfl | FileCheck %s --check-prefix=STATUS
// RUN: %t status ign | FileCheck %s --check-prefix=STATUS
#include "memtest.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int crash(int ign)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    if (ign)
        signal(SIGSEGV, SIG_IGN);
    unsigned char *p = omp_numa_alloc(4 * ps, OMP_NUMA_FIRST_TOUCH, -1);
    p[0] = 1;
    omp_numa_migrate_on_next_touch(p, 4 * ps);
    p[ps] = 2;   /* resolved by the pager */
    fprintf(stderr, "pager fault resolved\n");
    fflush(stderr);
    *(volatile int *)16 = 1;   /* nobody's fault */
    fprintf(stderr, "survived\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2) {   /* report how a child died */
        pid_t pid = fork();
        if (pid == 0)
            return crash(argv[2][0] == 'i');
        int st;
        waitpid(pid, &st, 0);
        printf("signaled=%d sig=%s\n", WIFSIGNALED(st), WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV ? "SIGSEGV" : "other");
        return 0;
    }
    return crash(argv[1][0] == 'i');
}
// CHECK: pager fault resolved
// CHECK-NOT: survived
// STATUS: signaled=1 sig=SIGSEGV
