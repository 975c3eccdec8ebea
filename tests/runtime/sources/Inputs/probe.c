/* probe.c: programs that the page sampler must not break, one per mode (argv[1]).
 *   outsider  a plain pthread reads the array while the regions run
 *   blocker   a pthread that blocks every signal reads the array meanwhile
 *   timer     a 5 kHz profiling-timer handler reads the array
 *   mprotect  the program write-protects a page of the array itself inside a
 *             region and repairs it in its own SIGSEGV handler
 *   reporter  a crash reporter (SIGSEGV handler that exits 99, no chaining)
 *             installed after the first region
 *   reserve   a 1 TiB MAP_NORESERVE reservation beside the array
 * Each prints the same "sum" line as on the stock runtime and exits 0. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#define N (4u << 20) /* 32 MiB of doubles: tracked by track=anon */

static double *a;
static volatile int stop;
static volatile double sink;

static void *reader(void *arg)
{
    if (arg) {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, NULL);
    }
    while (!stop)
        for (size_t i = 0; i < N && !stop; i += 512)
            sink += a[i];
    return NULL;
}

static void on_timer(int sig)
{
    static size_t i;
    sink += a[(i += 4096) % N];
}

static char *own_page;
static void on_own_fault(int sig, siginfo_t *si, void *uc)
{
    char *p = si->si_addr;
    if (p >= own_page && p < own_page + 4096) {
        mprotect(own_page, 4096, PROT_READ | PROT_WRITE);
        return;
    }
    _exit(98);
}

static void on_crash(int sig)
{
    _exit(99);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    a = mmap(NULL, N * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!strcmp(mode, "reserve"))
        mmap(NULL, 1ull << 40, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    pthread_t th;
    int thread = !strcmp(mode, "outsider") || !strcmp(mode, "blocker");
    double sum = 0;
#pragma omp parallel for num_threads(2)
    for (size_t i = 0; i < N; i++)
        a[i] = (double)(i % 1000);
    if (thread)
        pthread_create(&th, NULL, reader, !strcmp(mode, "blocker") ? (void *)1 : NULL);
    if (!strcmp(mode, "timer")) {
        signal(SIGPROF, on_timer);
        struct itimerval it = {{0, 200}, {0, 200}};
        setitimer(ITIMER_PROF, &it, NULL);
    }
    if (!strcmp(mode, "reporter"))
        signal(SIGSEGV, on_crash);
    if (!strcmp(mode, "mprotect")) {
        struct sigaction sa = {.sa_sigaction = on_own_fault, .sa_flags = SA_SIGINFO};
        sigaction(SIGSEGV, &sa, NULL);
    }
    for (int e = 0; e < 12; e++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            int t = omp_get_thread_num();
            if (t == 0 && e == 5 && !strcmp(mode, "mprotect")) {
                own_page = (char *)a + (16u << 20);
                mprotect(own_page, 4096, PROT_READ);
                /* Faults; the program's handler repairs. The same value: the sum stays the stock one. */
                *(volatile double *)own_page = *(volatile double *)own_page;
            }
#pragma omp for
            for (size_t i = 0; i < N; i++)
                sum += a[i];
        }
    }
    if (!strcmp(mode, "timer")) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_PROF, &off, NULL);
    }
    stop = 1;
    if (thread)
        pthread_join(th, NULL);
    printf("sum %.0f\n", sum);
    return 0;
}
