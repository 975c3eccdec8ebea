/* own-segv.c: a program that catches its own SIGSEGV on a page it protected, inside memory ompnuma samples. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *guard;
static long pagesz;
static volatile sig_atomic_t seen;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    char *p = si->si_addr;
    if (p >= guard && p < guard + pagesz) {
        seen++;
        mprotect(guard, (size_t)pagesz, PROT_READ | PROT_WRITE);
        return;
    }
    signal(SIGSEGV, SIG_DFL);
}

int main(void)
{
    pagesz = sysconf(_SC_PAGESIZE);
    size_t n = 8u << 20;
    char *buf = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    guard = buf + n / 2;
    long sum = 0;
    for (int it = 0; it < 8; it++) {
        mprotect(guard, (size_t)pagesz, PROT_NONE);
#pragma omp parallel for reduction(+ : sum) schedule(static)
        for (size_t i = 0; i < n; i += 64) {
            buf[i] = (char)(i & 0x7f);
            sum += buf[i];
        }
    }
    printf("sum %ld, own faults seen %d\n", sum, (int)seen);
    return 0;
}
