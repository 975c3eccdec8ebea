/* pagefault-own-segv.c: the program's own SIGSEGV handler (SA_SIGINFO, installed before any region, SIGSEGV
 * deferred while it runs: the default) serves faults on a guard page of its own and counts them in a static
 * variable, as a user-level DSM or a garbage collector's write barrier would, while the team sweeps a static
 * array (tracked by the page sampler, track=all). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define N (4u << 20)
static double a[N];
/* The counter on a page of its own, which no other code touches first in an execution. */
static struct { char before[4096]; volatile long n; char after[4096]; } stats __attribute__((aligned(4096)));
static char *guard;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    char *p = si->si_addr;
    if (p >= guard && p < guard + 4096) {
        stats.n++;
        mprotect(guard, 4096, PROT_READ | PROT_WRITE);
        return;
    }
    signal(SIGSEGV, SIG_DFL);
}

int main(void)
{
    guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    double sum = 0;
    for (int it = 0; it < 20; it++) {
#pragma omp parallel reduction(+ : sum)
        {
#pragma omp single
            {
                mprotect(guard, 4096, PROT_NONE);
                guard[0]++; /* its own fault */
            }
#pragma omp for
            for (unsigned i = 0; i < N; i++) {
                a[i] += i;
                sum += a[i];
            }
        }
    }
    printf("sum %g, %ld faults of its own, guard %d\n", sum, stats.n, guard[0]);
    return 0;
}
