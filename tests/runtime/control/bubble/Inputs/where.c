/* where.c: a 2-thread region run 12 times; prints where each thread ran the last time. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

int main(void)
{
    int cpu[2] = {-1, -1};
    for (int it = 0; it < 12; it++) {
#pragma omp parallel num_threads(2)
        cpu[omp_get_thread_num()] = sched_getcpu();
    }
    printf("thread 0 on cpu %d, thread 1 on cpu %d\n", cpu[0], cpu[1]);
    return 0;
}
