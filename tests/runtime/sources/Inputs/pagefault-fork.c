/* pagefault-fork.c: a program thread (not OpenMP) forks over and over while the team runs sampled regions;
 * each child runs a parallel region of its own and exits. A child still there after 5 s is counted as hung
 * and killed. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N (1u << 19)
static double *a;
static volatile int stop;
static int hung;

static void *forker(void *arg)
{
    (void)arg;
    while (!stop) {
        pid_t c = fork();
        if (c == 0) {
            int n = 0;
#pragma omp parallel reduction(+ : n)
            n++;
            _exit(n > 0 ? 0 : 1);
        }
        int st, waited = 0;
        while (waitpid(c, &st, WNOHANG) == 0) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            if (++waited == 5000) {
                hung++;
                kill(c, SIGKILL);
            }
        }
    }
    return NULL;
}

int main(void)
{
    a = calloc(N, sizeof *a);
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (unsigned i = 0; i < N; i++)
        sum += a[i];
    pthread_t t;
    pthread_create(&t, NULL, forker, NULL);
    for (int it = 0; it < 300; it++) {
#pragma omp parallel for reduction(+ : sum)
        for (unsigned i = 0; i < N; i++) {
            a[i] += it % 10;
            sum += a[i];
        }
    }
    stop = 1;
    pthread_join(t, NULL);
    printf("sum %g, %d children hung\n", sum, hung);
    return hung != 0;
}
