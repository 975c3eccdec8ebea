/* primary_serial.c: a 2-thread region run N times (argv[1]); then, in serial code, the CPUs of the primary's mask and of a thread it creates. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static void print_mask(const char *who)
{
    cpu_set_t m;
    CPU_ZERO(&m);
    sched_getaffinity(0, sizeof m, &m);
    printf("%s: cpus", who);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &m))
            printf(" %d", c);
    printf("\n");
}

static void *child(void *arg)
{
    (void)arg;
    print_mask("serial code's thread");
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 6;
    volatile int sink = 0;
    for (int e = 0; e < n; e++) {
#pragma omp parallel num_threads(2)
        if (sink < 0)
            sink++;
    }
    print_mask("serial code");
    pthread_t t;
    if (pthread_create(&t, NULL, child, NULL) == 0)
        pthread_join(t, NULL);
    return sink;
}
