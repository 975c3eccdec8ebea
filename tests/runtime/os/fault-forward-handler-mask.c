// The dispatcher gives a program's SIGSEGV handler the signal mask the kernel would have given it, not its own
// (every asynchronous signal and SIGSEGV): a handler installed with SA_NODEFER that leaves by longjmp (no mask
// saved) catches every later fault too, and leaves the thread with the mask it had plus the handler's sa_mask, as
// without ompnuma. A plain handler without SA_NODEFER, left by siglongjmp, gets SIGSEGV blocked while it runs.
// White box: the dispatcher installed by rt_fault_claim, the program's handlers installed before it.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_fault.h"

static jmp_buf jump;
static sigjmp_buf sjump;
static sigset_t inside;

static void leave_by_longjmp(int sig)
{
    longjmp(jump, 1);
}

static void leave_by_siglongjmp(int sig)
{
    pthread_sigmask(SIG_SETMASK, NULL, &inside);
    siglongjmp(sjump, 1);
}

static int never(void *addr, int code, void *ctx)
{
    return RT_FAULT_NOT_MINE;
}

static void show_mask(const char *when)
{
    sigset_t m;
    pthread_sigmask(SIG_SETMASK, NULL, &m);
    printf("%s: SIGSEGV %s, SIGUSR1 %s, SIGALRM %s\n", when, sigismember(&m, SIGSEGV) ? "blocked" : "open",
           sigismember(&m, SIGUSR1) ? "blocked" : "open", sigismember(&m, SIGALRM) ? "blocked" : "open");
}

int main(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    char *guard = mmap(NULL, (size_t)ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = leave_by_longjmp;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sigaction(SIGSEGV, &sa, NULL);
    /* A claim elsewhere installs the dispatcher in front of the program's handler. */
    static char elsewhere[1];
    int id = rt_fault_claim(elsewhere, elsewhere + 1, never, NULL);
    printf("claimed: %s\n", id >= 0 ? "yes" : "no");
    // CHECK: claimed: yes

    volatile int caught = 0;
    for (int k = 0; k < 200; k++)
        if (setjmp(jump) == 0)
            *(volatile char *)guard = 1;
        else
            caught++;
    printf("caught %d of 200\n", caught);
    show_mask("after longjmp");
    // CHECK-NEXT: caught 200 of 200
    // CHECK-NEXT: after longjmp: SIGSEGV open, SIGUSR1 blocked, SIGALRM open

    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    sa.sa_handler = leave_by_siglongjmp;
    sa.sa_flags = 0;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    rt_fault_release(id);
    id = rt_fault_claim(elsewhere, elsewhere + 1, never, NULL);
    if (sigsetjmp(sjump, 1) == 0)
        *(volatile char *)guard = 1;
    printf("inside the handler: SIGSEGV %s, SIGALRM %s\n", sigismember(&inside, SIGSEGV) ? "blocked" : "open",
           sigismember(&inside, SIGALRM) ? "blocked" : "open");
    show_mask("after siglongjmp");
    // CHECK-NEXT: inside the handler: SIGSEGV blocked, SIGALRM open
    // CHECK-NEXT: after siglongjmp: SIGSEGV open, SIGUSR1 open, SIGALRM open
    rt_fault_stats_t st;
    rt_fault_get_stats(&st);
    printf("forwarded %llu\n", (unsigned long long)st.forwarded);
    // CHECK-NEXT: forwarded 201
    return 0;
}
