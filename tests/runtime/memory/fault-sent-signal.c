// A SIGSEGV sent with raise() is never taken for a pager fault: it goes to the program's handler, is ignored under SIG_IGN, and kills under SIG_DFL.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t
// RUN: %t handler | FileCheck %s --check-prefix=HANDLER
// RUN: %t ignore | FileCheck %s --check-prefix=IGNORE
// RUN: not --crash %t default | FileCheck %s --check-prefix=DEFAULT
#include "memtest.h"
#include <signal.h>
#include <unistd.h>

static volatile int got;
static void mine(int sig) { got++; }

int main(int argc, char **argv)
{
    if (argv[1][0] == 'h')
        signal(SIGSEGV, mine);
    else if (argv[1][0] == 'i')
        signal(SIGSEGV, SIG_IGN);
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    char *p = omp_numa_alloc(ps, OMP_NUMA_FIRST_TOUCH, -1);
    omp_numa_migrate_on_next_touch(p, ps);   /* installs the dispatcher */
    printf("before raise\n");
    fflush(stdout);
    raise(SIGSEGV);
    printf("after raise: handler calls %d\n", got);
    return 0;
}
// HANDLER: after raise: handler calls 1
// IGNORE: after raise: handler calls 0
// DEFAULT: before raise
// DEFAULT-NOT: after raise
